/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-list.h: every lesson once, in the order of the app's cards: the
 * one table that the lesson ids, the records, the pictures and the CUDA
 * backend's samples are all made from. A line is
 *
 *   X (ID, name, KIND, PICTURE)
 *
 * ID      its id, MS_TOPIC_ID (ms-lesson-caption.h);
 * name    the C name of its parts: the record ms_lesson_NAME in
 *         engine/lessons/ms-lesson-NAME.c (its name, title, question,
 *         reason, options, parts, cells, caption and what the engine needs
 *         to know of its timeline), and for a probe lesson the sample
 *         ms_k_lesson_NAME in kernels/lesson-NAME.cu;
 * KIND    PLAIN: a plain sweep of its modes answers it (no experiment of its
 *         own); SWEEP: vector-add sweeps (or the costs table), one per part;
 *         PROBE: cells measured by its own kernels;
 * PICTURE PICTURE: draw/ms-picture-NAME.c draws it (ms_picture_NAME);
 *         NO_PICTURE: the app's charts and timelines show it.
 *
 * Only preprocessor data, so that each layer expands it for itself
 * without calling another: the engine (ms-lesson-table.c), the drawing
 * library (draw/ms-lesson-picture.c) and the CUDA backend
 * (engine/run/ms-backend.c). A lesson missing a part named here fails to
 * link. */
#pragma once

#define MS_LESSON_LIST(X)                                   \
  X (PINNED_PAGEABLE, pinned_pageable, PLAIN, NO_PICTURE)   \
  X (REUSE, reuse, SWEEP, NO_PICTURE)                       \
  X (CACHE_STATE, cache_state, SWEEP, PICTURE)              \
  X (REGISTER, register, PLAIN, PICTURE)                    \
  X (MANAGED, managed_touch, SWEEP, NO_PICTURE)             \
  X (ISSUE_ORDER, issue_order, SWEEP, PICTURE)              \
  X (DUPLEX, duplex, SWEEP, NO_PICTURE)                     \
  X (COSTS, costs, SWEEP, PICTURE)                          \
  X (PORTABLE, portable, PLAIN, PICTURE)                    \
  X (IMPLICIT_SYNC, implicit_sync, PROBE, PICTURE)          \
  X (DEFAULT_STREAM, default_stream, PROBE, PICTURE)        \
  X (HOST_FUNC, host_func, PROBE, PICTURE)                  \
  X (PRIORITY, priority, PROBE, PICTURE)                    \
  X (CONCURRENT, concurrent, PROBE, PICTURE)                \
  X (SYNC_ASYNC, sync_async, PROBE, PICTURE)                \
  X (PIN_PAYOFF, pin_payoff, PROBE, PICTURE)                \
  X (INTENSITY, intensity, PROBE, PICTURE)                  \
  X (COPY_KINDS, copy_kinds, PROBE, PICTURE)                \
  X (BATCHED, batched, PROBE, PICTURE)                      \
  X (NUMA, numa, PROBE, PICTURE)
