/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-probe-cells.c: running a probe lesson's cells (ms-probe-cells.h), and
 * placing its kernels on the host's timeline (ms-lesson-record.h). Every
 * repetition takes a plain sample, whose value is the cell's figure; the
 * first few also take an instrumented one beside it, whose events draw the
 * timeline and whose value is kept as the instrumented time, so the
 * timers' cost shows and never enters a figure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-backend.h"
#include "ms-gpu-clock.h"
#include "ms-i18n.h"
#include "ms-lesson-record.h"
#include "ms-results.h"

static bool
keep_events (MsCell *c, const MsProbeSample *s, int rep)
{
  if (s->n_events <= 0)
    return true;
  MsEvent *ev = realloc (c->events, (c->n_events + (size_t) s->n_events) * sizeof (MsEvent));
  if (!ev)
    return false;
  c->events = ev;
  /* A file holds at most three vectors' bytes per row (the readers check
   * it): a probe step that moved more (a batch of copies) keeps its times
   * and leaves its bytes out. */
  uint64_t max_bytes = 3 * ms_vector_bytes (c->elements);
  for (int i = 0; i < s->n_events && i < MS_PROBE_MAX_EVENTS; i++) {
    MsEvent e = s->events[i];
    e.rep = rep;
    if (e.bytes > max_bytes)
      e.bytes = 0;
    /* A step without a GPU time has neither start nor duration. */
    if (e.gpu_start_us < 0 || e.gpu_us < 0)
      e.gpu_start_us = e.gpu_us = -1;
    c->events[c->n_events++] = e;
  }
  return true;
}

/* One sample into *s; false (the cell's status and message set) when the
 * backend could not take it. */
static bool
take_sample (MsBackend *backend, MsProbeArgs *args, MsProbeSample *s, MsCell *c)
{
  memset (s, 0, sizeof *s);
  s->value_us = -1;
  MsCellStatus st = backend->probe (backend, args, s);
  if (st == MS_CELL_OK && s->value_us >= 0)
    return true;
  c->status = st == MS_CELL_OK ? MS_CELL_FAILED : st;
  snprintf (c->message, sizeof c->message, "%s",
            s->error[0] ? s->error : ms_gettext ("the probe gave no time"));
  return false;
}

static void
run_probe_cell (const MsSweep *sweep, MsLessonTopic lesson, const MsProbeCell *pc,
                MsBackend *backend, atomic_int *cancel, MsProbeSample *s, MsCell *c)
{
  if (!backend->probe) {
    c->status = MS_CELL_UNSUPPORTED;
    snprintf (c->message, sizeof c->message, ms_gettext ("this backend cannot run the probe"));
    return;
  }
  MsProbeArgs args = { .lesson = lesson, .device = sweep->device, .mode = pc->mode,
                       .bytes = ms_vector_bytes (c->elements), .cancel = cancel };
  memcpy (args.arg, pc->arg, sizeof args.arg);
  int reps = sweep->reps_rule == MS_REPS_FIXED ? sweep->reps
             : pc->min_reps > sweep->min_reps       ? pc->min_reps
                                                    : sweep->min_reps;
  c->e2e_us = calloc ((size_t) (reps > 0 ? reps : 1), sizeof (double));
  c->e2e_instr_us = calloc ((size_t) (reps > 0 ? reps : 1), sizeof (double));
  if (!c->e2e_us || !c->e2e_instr_us) {
    c->status = MS_CELL_FAILED;
    snprintf (c->message, sizeof c->message, ms_gettext ("out of host memory"));
    return;
  }
  c->status = MS_CELL_OK;
  for (int w = 0; w < sweep->warmup; w++)
    if (!take_sample (backend, &args, s, c))
      return;
  for (int rep = 0; rep < reps; rep++) {
    if (cancel && atomic_load (cancel)) {
      c->status = rep ? MS_CELL_PARTIAL : MS_CELL_CANCELLED;
      break;
    }
    args.instrumented = false;
    if (!take_sample (backend, &args, s, c))
      break;
    c->e2e_us[rep] = s->value_us;
    c->e2e_instr_us[rep] = -1;
    /* A repetition's steps are kept once: the instrumented sample's where
     * it has one, else the plain one's host-clock steps. */
    if (rep >= pc->instrumented && !keep_events (c, s, rep))
      break;
    c->n_reps = rep + 1;
    if (rep >= pc->instrumented)
      continue;
    args.instrumented = true;
    if (!take_sample (backend, &args, s, c))
      break;
    c->e2e_instr_us[rep] = s->value_us;
    if (!keep_events (c, s, rep))
      break;
  }
  if (c->status == MS_CELL_OK && c->n_reps < reps)
    c->status = c->n_reps ? MS_CELL_PARTIAL : MS_CELL_FAILED;
  ms_gpu_clock_align (c->events, c->n_events);
  ms_lesson_align_kernels (c->events, c->n_events, lesson);
}

/* The cell (its mode, size and variant from pc) inside its lesson's
 * before_cell and after_cell, when it has them. */
static void
run_hooked_cell (MsLessonTopic id, const MsDeviceInfo *info, const MsSweep *sweep,
                 const MsProbeCell *pc, MsBackend *backend, atomic_int *cancel, MsProbeSample *s,
                 MsCell *c)
{
  const MsLesson *lesson = ms_lesson_record (id);
  char note[sizeof c->message] = "";
  c->mode = pc->mode;
  c->exponent = pc->exponent;
  c->elements = 1ull << pc->exponent;
  snprintf (c->variant, sizeof c->variant, "%s", pc->variant);
  if (lesson && lesson->before_cell && !lesson->before_cell (info, pc, note, sizeof note)) {
    c->status = MS_CELL_UNSUPPORTED;
    snprintf (c->message, sizeof c->message, "%s", note);
    return;
  }
  run_probe_cell (sweep, id, pc, backend, cancel, s, c);
  if (c->status == MS_CELL_OK && note[0])
    snprintf (c->message, sizeof c->message, "%s", note);
  if (lesson && lesson->before_cell && lesson->after_cell)
    lesson->after_cell (pc);
}

MsRunStatus
ms_lesson_run_probe (const MsSweep *sweep, MsLessonTopic lesson, const MsProbeCell *cells,
                     int n_cells, MsBackend *backend, MsProgressFunc progress, void *user_data,
                     atomic_int *cancel, MsResults **out, char *err, size_t errlen)
{
  MsDeviceInfo info;
  bool have_device = ms_backend_query_device (backend, sweep->device, &info);
  *out = ms_results_new (sweep, &info);
  if (!*out) {
    snprintf (err, errlen, ms_gettext ("out of memory"));
    return MS_RUN_CANCELLED;
  }
  if (!have_device) {
    snprintf (err, errlen, ms_gettext ("no usable CUDA device: %s"), info.error);
    return MS_RUN_NO_DEVICE;
  }
  /* A sample's events are large: one buffer for the whole part. */
  MsProbeSample *s = malloc (sizeof *s);
  if (!s) {
    snprintf (err, errlen, ms_gettext ("out of memory"));
    return MS_RUN_CANCELLED;
  }
  MsRunStatus st = MS_RUN_OK;
  for (int i = 0; i < n_cells && st == MS_RUN_OK; i++) {
    MsCell c = { 0 };
    run_hooked_cell (lesson, &info, sweep, &cells[i], backend, cancel, s, &c);
    if (c.status == MS_CELL_CANCELLED || c.status == MS_CELL_PARTIAL) {
      snprintf (err, errlen, ms_gettext ("cancelled"));
      st = MS_RUN_CANCELLED;
    }
    ms_cell_compute_stats (&c);
    (*out)->sweep.modes[c.mode] = true;
    if (!ms_results_add_cell (*out, &c)) {
      snprintf (err, errlen, ms_gettext ("out of memory"));
      st = MS_RUN_CANCELLED;
    } else if (progress) {
      progress (i, n_cells, &(*out)->cells[(*out)->n_cells - 1], user_data);
    }
    ms_cell_clear (&c);
  }
  free (s);
  return st;
}

/* ---- a lesson's kernels on the host's timeline ---------------------------- */

static MsGpuClockIssuer
kernel_issuer (MsLessonTopic id)
{
  const MsLesson *lesson = ms_lesson_record (id);
  return lesson ? lesson->kernel_issuer : NULL;
}

const MsEvent *
ms_lesson_kernel_issuer (const MsEvent *events, size_t n_events, MsLessonTopic id,
                         const MsEvent *kernel)
{
  MsGpuClockIssuer issuer = kernel_issuer (id);
  if (!issuer || !ms_gpu_clock_gpu_only_kernel (kernel))
    return NULL;
  return issuer (events, n_events, kernel);
}

double
ms_lesson_kernel_lag (const MsEvent *events, size_t n_events, MsLessonTopic id, int rep)
{
  MsGpuClockIssuer issuer = kernel_issuer (id);
  return issuer ? ms_gpu_clock_kernel_lag (events, n_events, issuer, rep) : 0;
}

void
ms_lesson_align_kernels (MsEvent *events, size_t n_events, MsLessonTopic id)
{
  MsGpuClockIssuer issuer = kernel_issuer (id);
  if (issuer)
    ms_gpu_clock_align_kernels (events, n_events, issuer);
}
