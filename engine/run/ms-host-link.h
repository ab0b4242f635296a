/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-host-link.h: the host link under every GPU at once (ms-host-link.c):
 * copies only, per GPU host to device, then device to host, then both at
 * once, with all GPUs at once and with each GPU alone, at each size (the
 * results, their totals and the directions' names: model/ms-multi-results.h).
 * Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "model/ms-multi-results.h"

/* The samples a cell's figure is the median of. */
#define MS_HOST_LINK_SAMPLES 7

/* Measures every size of exps (2^E floats, E <= 28), every direction, all
 * at once then each alone; false with results->error on a failure. */
bool ms_host_link_run (const int *devices, int n_devices, const int *exps, int n_exps,
                       MsHostLinkResults *results);
