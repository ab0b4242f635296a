/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-host-link.h: the host link under every GPU at once (ms-host-link.c):
 * copies only, per GPU host to device, then device to host, then both at
 * once, with all GPUs at once and with each GPU alone, at each size; the
 * total, each GPU's share of it and its rate against itself alone. Plain
 * C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "devices/ms-topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MS_HOST_LINK_MAX_SIZES 8

typedef enum { MS_HOST_LINK_H2D, MS_HOST_LINK_D2H, MS_HOST_LINK_BOTH, MS_HOST_LINK_COUNT } MsHostLinkDirection;

typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES];
  int n_sizes;
  int exps[MS_HOST_LINK_MAX_SIZES]; /* 2^E floats a copy */
  /* GB/s of each GPU, all at once and alone; 0 where it failed. */
  double together[MS_HOST_LINK_COUNT][MS_HOST_LINK_MAX_SIZES][MS_MULTI_MAX_DEVICES];
  double alone[MS_HOST_LINK_COUNT][MS_HOST_LINK_MAX_SIZES][MS_MULTI_MAX_DEVICES];
  char error[256];
} MsHostLinkResults;

/* "h2d", "d2h", "both". */
const char *ms_host_link_direction_key (MsHostLinkDirection d);

/* Measures every size of exps (2^E floats, E <= 28), every direction, all
 * at once then each alone; false with results->error on a failure. */
bool ms_host_link_run (const int *devices, int n_devices, const int *exps, int n_exps,
                       MsHostLinkResults *results);

/* The sum over the GPUs of a size and direction, all at once (together)
 * or each alone. */
double ms_host_link_total (const MsHostLinkResults *r, MsHostLinkDirection d, int size,
                           bool together);

#ifdef __cplusplus
}
#endif
