/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-peer-doubt.c: the topology checked against the copies measured over
 * it (ms-peer-doubt.h). */
#include <math.h>

#include "ms-peer-doubt.h"
#include "ms-peer-file.h"

static double
larger (double a, double b)
{
  return isfinite (b) && b > a ? b : a;
}

double
ms_peer_best_gbps (const MsPeerResults *r, int i, int j)
{
  double best = 0;
  if (i < 0 || j < 0 || i >= r->n_devices || j >= r->n_devices || i == j)
    return 0;
  for (int m = 0; m < MS_PEER_METHOD_COUNT; m++)
    best = larger (larger (best, r->cell[m][i][j].uni_gbps), r->cell[m][j][i].uni_gbps);
  return larger (larger (best, r->reference_gbps[i][j]), r->reference_gbps[j][i]);
}

bool
ms_peer_link_in_doubt (const MsPeerResults *r, const MsDeviceInfo *info, int i, int j)
{
  char what[96];
  double best = ms_peer_best_gbps (r, i, j);
  if (best <= 0)
    return false;
  double nominal = ms_peer_nominal_gbps (r, info, i, j, what, sizeof what);
  return nominal > 0 && best > nominal * MS_PEER_DOUBT_MARGIN;
}

int
ms_peer_pairs_in_doubt (const MsPeerResults *r, const MsDeviceInfo *info)
{
  int n = 0;
  for (int i = 0; i < r->n_devices; i++)
    for (int j = i + 1; j < r->n_devices; j++)
      n += ms_peer_link_in_doubt (r, info, i, j);
  return n;
}
