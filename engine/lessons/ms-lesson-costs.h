/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-costs.h: what the costs lesson's caption and its picture
 * (draw/ms-picture-costs.c) both read from a run beyond the timings: what
 * the device's memory pool held after a free. */
#pragma once

#include "memsweep.h"

/* The reserved and used bytes of the pool after the free of a
 * "cost=pool..." cell; false when the cell has none. */
bool ms_costs_pool_kept (const MsCell *c, uint64_t *reserved, uint64_t *used);
