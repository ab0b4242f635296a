/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-host-link.h: plain C interface to ms-host-link.cu, the host link
 * under several GPUs at once: copies only, each GPU between its own
 * pinned host buffer and its own memory, all GPUs held until every one is
 * queued and then let go together; GB/s = 1e9 bytes per second, both
 * directions added for MS_K_HOST_LINK_BOTH. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MS_K_HOST_LINK_MAX 16
#define MS_K_HOST_LINK_SAMPLES 15

enum { MS_K_HOST_LINK_H2D, MS_K_HOST_LINK_D2H, MS_K_HOST_LINK_BOTH };

/* devices[0..n-1] at once: `reps` copies of `bytes` a sample (both
 * directions: reps each way on two streams), the median over `samples`
 * samples (at most MS_K_HOST_LINK_SAMPLES) after one warm-up, per GPU in
 * gbps[i]. 1 on success, 0 with err. n = 1 is a GPU alone. */
int ms_k_host_link (const int *devices, int n, uint64_t bytes, int direction, int reps,
                    int samples, double *gbps, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
