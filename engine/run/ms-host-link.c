/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-host-link.c: the host link under every GPU at once (ms-host-link.h),
 * over kernels/ms-host-link.cu. */
#include <stdio.h>
#include <string.h>

#include "ms-host-link.h"
#include "ms-i18n.h"
#ifdef MS_HAVE_CUDA
#include "ms-k-host-link.h"
#endif

bool
ms_host_link_run (const int *devices, int n, const int *exps, int n_exps, MsHostLinkResults *r)
{
  memset (r, 0, sizeof *r);
  if (n < 1 || n > MS_MULTI_MAX_DEVICES || n_exps < 1 || n_exps > MS_HOST_LINK_MAX_SIZES) {
    snprintf (r->error, sizeof r->error, "%s", ms_gettext ("1 to 16 GPUs and 1 to 8 sizes"));
    return false;
  }
  r->n_devices = n;
  r->n_sizes = n_exps;
  memcpy (r->devices, devices, (size_t) n * sizeof *devices);
  memcpy (r->exps, exps, (size_t) n_exps * sizeof *exps);
#ifdef MS_HAVE_CUDA
  for (int s = 0; s < n_exps; s++) {
    uint64_t bytes = (uint64_t) 4 << exps[s];
    /* 16 copies a sample, as nvbandwidth's loop count, or about 40 ms of
     * copies at 50 GB/s where that is more: a sample's start and end then
     * weigh little against its length. */
    int reps = (int) (2000000000ull / bytes);
    reps = reps < 16 ? 16 : reps > 1000 ? 1000 : reps;
    for (int d = 0; d < MS_HOST_LINK_COUNT; d++) {
      if (!ms_k_host_link (devices, n, bytes, d, reps, MS_HOST_LINK_SAMPLES, r->together[d][s],
                           r->error, sizeof r->error))
        return false;
      for (int i = 0; i < n; i++)
        if (!ms_k_host_link (&devices[i], 1, bytes, d, reps, MS_HOST_LINK_SAMPLES,
                             &r->alone[d][s][i], r->error, sizeof r->error))
          return false;
    }
  }
  return true;
#else
  snprintf (r->error, sizeof r->error, "%s",
            ms_gettext ("this build of memsweep has no CUDA support"));
  return false;
#endif
}
