/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-list.h: every lesson once, in the order of the app's cards: the
 * one table that the lesson ids, the records, the looks and the CUDA
 * backend's samples are all made from. A line is
 *
 *   X (ID, name, KIND, LOOK)
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
 * LOOK    LOOK: draw/ms-picture-NAME.c holds how it is shown, its look
 *         ms_lesson_look_NAME (draw/ms-lesson-picture.h: its own picture
 *         if any, the window's view that answers it, the cells its
 *         timelines compare, what its variants mean); NO_LOOK: nothing of
 *         its own is shown beside its card.
 *
 * Only preprocessor data, so that each layer expands it for itself
 * without calling another: the engine (ms-lesson-table.c), the drawing
 * library (draw/ms-lesson-picture.c) and the CUDA backend
 * (engine/run/ms-backend.c). A lesson missing a part named here fails to
 * link. */
#pragma once

#define MS_LESSON_LIST(X)                                 \
  X (PINNED_PAGEABLE, pinned_pageable, PLAIN, LOOK) \
  X (REUSE, reuse, SWEEP, LOOK)                     \
  X (CACHE_STATE, cache_state, SWEEP, LOOK)         \
  X (REGISTER, register, PLAIN, LOOK)               \
  X (MANAGED, managed_touch, SWEEP, LOOK)           \
  X (ISSUE_ORDER, issue_order, SWEEP, LOOK)         \
  X (DUPLEX, duplex, SWEEP, LOOK)                   \
  X (COSTS, costs, SWEEP, LOOK)                     \
  X (PORTABLE, portable, PLAIN, LOOK)               \
  X (IMPLICIT_SYNC, implicit_sync, PROBE, LOOK)     \
  X (DEFAULT_STREAM, default_stream, PROBE, LOOK)   \
  X (HOST_FUNC, host_func, PROBE, LOOK)             \
  X (PRIORITY, priority, PROBE, LOOK)               \
  X (CONCURRENT, concurrent, PROBE, LOOK)           \
  X (SYNC_ASYNC, sync_async, PROBE, LOOK)           \
  X (PIN_PAYOFF, pin_payoff, PROBE, LOOK)           \
  X (INTENSITY, intensity, PROBE, LOOK)             \
  X (COPY_KINDS, copy_kinds, PROBE, LOOK)           \
  X (BATCHED, batched, PROBE, LOOK)                 \
  X (NUMA, numa, PROBE, LOOK)                       \
  X (HOST_LINK, host_link, PLAIN, LOOK)
