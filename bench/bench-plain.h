/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-plain.h: the plain reference sequences of bench-plain
 * (bench-plain-seq.cu): what an application does for each memory mode,
 * with nothing of memsweep's in between, timed on the host clock. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mode_name: a mode's name (ms_mode_name): -1 where the yardstick has no
 * sequence for it; streams and breadth_first as in a sweep (the streams
 * mode only). Runs warmup discarded and reps kept repetitions of
 * the mode's minimal sequence at n elements and writes each kept
 * repetition's host time (us) to times. Inputs are written outside the
 * timed window, every repetition, as memsweep's init phase writes them;
 * the result is verified outside it. 0, or -1 with the error text. */
int bench_plain_run (int device, const char *mode_name, uint64_t n, int streams,
                     int breadth_first, int warmup, int reps, double *times, char *err,
                     size_t errlen);

#ifdef __cplusplus
}
#endif
