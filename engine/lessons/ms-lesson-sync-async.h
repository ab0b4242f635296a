/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-sync-async.h: the synchronous-and-asynchronous-copies lesson's
 * cells, shared by its caption, its picture and the tests;
 * kernels/lesson-sync-async.cu mirrors the argument numbers. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

typedef enum { MS_SA_MEMCPY, MS_SA_ASYNC, MS_SA_API_COUNT } MsSaApi;
typedef enum { MS_SA_H2D, MS_SA_D2H, MS_SA_DIR_COUNT } MsSaDir;
/* call: the copy call's own host time; done: from the call's start until
 * the stream is synchronised (the copy done). */
typedef enum { MS_SA_CALL, MS_SA_DONE, MS_SA_WHAT_COUNT } MsSaWhat;

/* arg[] of the probe; the memory is the cell's mode (pageable, pinned),
 * the size its exponent. */
enum { MS_SA_ARG_API, MS_SA_ARG_DIR, MS_SA_ARG_WHAT, MS_SA_ARG_AHEAD_US, MS_SA_ARG_BLOCKING };

/* "api=async/h2d/call/ahead=200", with "/blocking=1" under
 * CUDA_LAUNCH_BLOCKING=1. */
void ms_sa_variant (char *buf, size_t len, MsSaApi api, MsSaDir dir, MsSaWhat what, int ahead_us,
                    bool blocking);
/* The measured cell (any ahead-us), or NULL. */
const MsCell *ms_sa_cell (const MsResults *r, MsMode memory, int exponent, MsSaApi api, MsSaDir dir,
                          MsSaWhat what, bool blocking);
/* The ahead kernel's duration named in the run's variants, or 0. */
int ms_sa_ahead_us (const MsResults *r);
/* Whether the call returned before its copy was done: its median host
 * time under half the median time to done. */
bool ms_sa_returned_early (const MsCell *call, const MsCell *done);
/* Over the sizes of memory's api in dir: 1 where every one returned early,
 * 0 where none did, -1 where some did or none was measured. */
int ms_sa_behaviour (const MsResults *r, MsMode memory, MsSaApi api, MsSaDir dir);
/* The sizes (exponents) the caption names for cudaMemcpyAsync from
 * pageable memory to the device: the largest that returned early, and the
 * one that waited which the caption sets against it; -1: none. */
void ms_sa_pageable_sizes (const MsResults *r, int *early, int *waited);
/* Why pageable cudaMemcpyAsync to the device stopped returning early:
 * it returns once its data is staged, which at the size that waited took
 * longer than the kernel ahead. False where none waited. */
bool ms_sa_staging_note (const MsResults *r, char *buf, size_t len);
