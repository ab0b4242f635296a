/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-register.h: what the register-allocate lesson's caption and
 * its picture (draw/ms-picture-register.c) both compute from a run: every
 * cost the run timed for registering anew in each repetition and for
 * allocating pinned buffers once, and where their totals cross. */
#pragma once

#include "memsweep.h"

/* Medians in µs at one size; < 0 where the run did not time it. The
 * per-repetition costs are paid n times, the others once a cell. */
typedef struct {
  double reg_us;       /* cudaHostRegister of the three buffers, every repetition */
  double unreg_us;     /* cudaHostUnregister of them, every repetition */
  double reg_alloc_us; /* the registered cell's malloc and cudaMalloc, once */
  double reg_free_us;  /* their free and cudaFree, once */
  double pin_alloc_us; /* the pinned cell's cudaMallocHost and cudaMalloc, once */
  double pin_free_us;  /* their cudaFreeHost and cudaFree, once */
  MsStat reg_e2e;      /* a registered repetition end to end (copies and kernel) */
  MsStat pin_e2e;      /* a pinned repetition end to end; both medians' 95% ranges on the slide */
  bool e2e_apart;      /* the two repetitions' 95% ranges apart */
} MsRegisterCosts;

/* The costs at exponent from the registered and pinned cells of a plain
 * sweep; false when either cell, its copy rate, registering or the pinned
 * allocation is missing (the other figures may be < 0). */
bool ms_register_costs (const MsResults *r, int exponent, MsRegisterCosts *out);
/* Registering anew: per repetition, and once; pinned: the same. Figures
 * the run lacks count as 0 (ms_register_left_out names them). */
double ms_register_anew_per_rep (const MsRegisterCosts *k);
double ms_register_anew_once (const MsRegisterCosts *k);
double ms_register_pinned_once (const MsRegisterCosts *k);
/* Buffers registered once and reused: registering and unregistering paid
 * once with the allocations (each repetition then costs reg_e2e). */
double ms_register_reused_once (const MsRegisterCosts *k);
/* From how many repetitions allocating pinned buffers once costs less in
 * all than registering anew in each, every timed cost counted; 0 when
 * never. cross, where given: where the two totals meet. */
int ms_register_cheaper_from (const MsRegisterCosts *k, double *cross);
/* The repetitions the picture draws, from 1: twice the crossing, at least
 * 4; 10 where allocating once never costs less. */
int ms_register_chart_reps (const MsRegisterCosts *k);
/* From how many repetitions allocating pinned buffers once costs less
 * in all than buffers registered once and reused (registering and
 * unregistering paid once, each repetition a registered one's end to
 * end), from the medians; 0 never, or where the run cannot tell the two
 * repetitions apart (e2e_apart). */
int ms_register_reused_from (const MsRegisterCosts *k);
/* That, in a sentence the details and the slide both say, into buf, or
 * that the run cannot tell the two per repetition; "" (and false) where
 * registering once is cheaper per repetition too. */
bool ms_register_catches_up (const MsRegisterCosts *k, char *buf, size_t len);
/* The names of the costs the run did not time, comma-separated, into buf
 * ("" when none); the count. */
int ms_register_left_out (const MsRegisterCosts *k, char *buf, size_t len);
