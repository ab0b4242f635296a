/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi-results.c: the results of runs beyond one GPU: freeing, the
 * aggregate over devices, the names of the portable cases and peer
 * methods (ms-multi-results.h). */
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-names.h"
#include "ms-multi-results.h"
#include "ms-results.h"

static const char *const peer_method_names[MS_PEER_METHOD_COUNT] = {
  MS_N_ ("copy, peer access on"), MS_N_ ("copy, peer access off"),
  MS_N_ ("kernel reads peer"),    MS_N_ ("staged via host"),
};
static const char *const portable_case_names[MS_PORTABLE_COUNT] = {
  MS_N_ ("one pinned buffer per GPU"),
  MS_N_ ("one portable buffer, all GPUs"),
  MS_N_ ("non-portable buffer of GPU 0, used by the others"),
};

MS_DEFINE_LOOKUP (ms_peer_method_name, const char *, MsPeerMethod, MS_PEER_METHOD_COUNT,
                  ms_gettext (peer_method_names[i]), "?")
MS_DEFINE_LOOKUP (ms_portable_case_name, const char *, MsPortableCase, MS_PORTABLE_COUNT,
                  ms_gettext (portable_case_names[i]), "?")

void
ms_multi_results_free (MsMultiResults *results)
{
  if (!results)
    return;
  for (int i = 0; i < results->n_devices; i++)
    ms_results_free (results->per_device[i]);
  free (results);
}

bool
ms_multi_aggregate (const MsMultiResults *results, MsMode mode, int exponent,
                    MsMultiAggregate *agg)
{
  memset (agg, 0, sizeof *agg);
  for (int i = 0; i < results->n_devices; i++) {
    const MsCell *c = results->per_device[i] ? ms_results_find (results->per_device[i], mode,
                                                                exponent)
                                             : NULL;
    if (!c || c->status != MS_CELL_OK)
      continue;
    const MsCellStats *s = &c->stats;
    if (agg->n_ok == 0 || s->h2d_gbps < agg->h2d_min_gbps)
      agg->h2d_min_gbps = s->h2d_gbps;
    if (agg->n_ok == 0 || s->d2h_gbps < agg->d2h_min_gbps)
      agg->d2h_min_gbps = s->d2h_gbps;
    agg->h2d_gbps += s->h2d_gbps;
    agg->d2h_gbps += s->d2h_gbps;
    agg->e2e_gbps += s->e2e_gbps;
    agg->n_ok++;
  }
  return agg->n_ok > 0;
}

const char *const ms_host_link_direction_keys[MS_HOST_LINK_COUNT + 1] = { "h2d", "d2h", "both",
                                                                          NULL };

MS_DEFINE_LOOKUP (ms_host_link_direction_key, const char *, MsHostLinkDirection,
                  MS_HOST_LINK_COUNT, ms_host_link_direction_keys[i], "?")

double
ms_host_link_total (const MsHostLinkResults *r, MsHostLinkDirection d, int size, bool together)
{
  double sum = 0;
  for (int i = 0; i < r->n_devices; i++)
    sum += together ? r->together[d][size][i] : r->alone[d][size][i];
  return sum;
}
