/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-implicit-sync.c: the implicit-synchronisation lesson
 * (docs/lessons.md). Two kernels of a fixed duration on two streams, one
 * host operation between their launches, on blocking and non-blocking
 * streams, with one hardware queue and the default, each queue setting in
 * a fresh process. A cell is overlapped or serialised by its time against
 * the run's own one-kernel and nothing-between cells, never against a
 * figure of ours. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-clock.h"
#include "ms-i18n.h"
#include "ms-lesson-implicit-sync.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-names.h"
#include "ms-stats.h"

#define NAME "implicit-sync"

/* arg[] of the probe, read by kernels/lesson-implicit-sync.cu. */
/* ARG_DEFAULT_QUEUES only names the part's setting: the child's
 * environment makes it. */
enum { ARG_OP, ARG_NON_BLOCKING, ARG_KERNEL_US, ARG_KIB, ARG_DEFAULT_QUEUES };

static const MsLessonOption options[] = {
  { "kernel-us", 500, 50, 100000, true, MS_N_ ("each kernel's duration, µs") },
  { "kib", 1024, 4, 262144, true,
    MS_N_ ("the size of the buffers the operations allocate, set, copy or register, KiB") },
  { NULL },
};

/* Per operation: the variant's word, the call, and whether the CUDA C
 * Programming Guide lists it among the calls that synchronise (page-locked
 * and device allocations, memory sets, device-to-device copies, work on the
 * default stream). Frees, registration, event records, the per-thread
 * stream and stream-ordered allocation are not: a class has the Guide. */
static const struct {
  const char *word, *label;
  bool listed;
} ops[MS_SYNC_OP_COUNT] = {
  [MS_SYNC_OP_ALONE] = { "alone", MS_N_ ("one kernel alone"), false },
  [MS_SYNC_OP_NONE] = { "none", MS_N_ ("nothing"), false },
  [MS_SYNC_OP_MALLOC] = { "malloc", "cudaMalloc", true },
  [MS_SYNC_OP_FREE] = { "free", "cudaFree", false },
  [MS_SYNC_OP_MALLOC_ASYNC] = { "mallocasync", "cudaMallocAsync", false },
  [MS_SYNC_OP_FREE_ASYNC] = { "freeasync", "cudaFreeAsync", false },
  [MS_SYNC_OP_MALLOC_HOST] = { "mallochost", "cudaMallocHost", true },
  [MS_SYNC_OP_FREE_HOST] = { "freehost", "cudaFreeHost", false },
  [MS_SYNC_OP_REGISTER] = { "register", "cudaHostRegister+Unregister", false },
  [MS_SYNC_OP_MEMSET] = { "memset", "cudaMemset", true },
  /* Its stream named: a teacher asked which one it went to, and a strict
   * reader what "stream 3" was: the third, beside the kernels' two. */
  [MS_SYNC_OP_MEMSET_ASYNC] = { "memsetasync", MS_N_ ("cudaMemsetAsync (3rd stream)"), true },
  /* Said in words: "D2D" was a code a class had to ask about. */
  [MS_SYNC_OP_MEMCPY_D2D] = { "d2d", MS_N_ ("cudaMemcpy device → device"), true },
  /* "default" said: the slide has no room for the term's gloss. */
  [MS_SYNC_OP_KERNEL_LEGACY] = { "kern-legacy", MS_N_ ("kernel on legacy default stream"), true },
  [MS_SYNC_OP_KERNEL_PER_THREAD] = { "kern-ptds", MS_N_ ("kernel on per-thread stream"), false },
  [MS_SYNC_OP_EVENT_RECORD] = { "event", "cudaEventRecord", false },
};

void
ms_implicit_sync_variant (char *buf, size_t len, MsSyncOp op, bool non_blocking,
                          bool default_queues)
{
  snprintf (buf, len, "op=%s/s=%s/q=%s", op < MS_SYNC_OP_COUNT ? ops[op].word : "?",
            non_blocking ? "nonblock" : "block", default_queues ? "def" : "1");
}

MS_DEFINE_LOOKUP (ms_implicit_sync_op_label, const char *, MsSyncOp, MS_SYNC_OP_COUNT, ops[i].label,
                  "")
MS_DEFINE_LOOKUP (ms_implicit_sync_op_listed, bool, MsSyncOp, MS_SYNC_OP_COUNT, ops[i].listed,
                  false)

const char *
ms_implicit_sync_column_label (int column)
{
  static const char *const labels[MS_SYNC_N_COLUMNS] = {
    MS_N_ ("blocking, 1 hardware queue"),
    MS_N_ ("blocking, default queues"),
    MS_N_ ("non-blocking, 1 hardware queue"),
    MS_N_ ("non-blocking, default queues"),
  };
  /* Any other column is the last. */
  return ms_gettext (labels[(unsigned)column < MS_SYNC_N_COLUMNS ? column : MS_SYNC_N_COLUMNS - 1]);
}

/* Part 0: one hardware queue; part 1: the default. Both in a fresh
 * process, since the variable is read when the context is made. */
static void
parts (MsPartList *list)
{
  ms_lesson_set_queues (ms_lesson_add_probe_part (list, 0), true);
  ms_lesson_set_queues (ms_lesson_add_probe_part (list, 1), false);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  int kernel_us = (int)ms_lesson_option_in (options, sweep->options, "kernel-us");
  int kib = (int)ms_lesson_option_in (options, sweep->options, "kib");
  bool default_queues = part == 1;
  int n = 0;
  for (int op = 0; op < MS_SYNC_OP_COUNT; op++)
    for (int nb = 0; nb <= (op == MS_SYNC_OP_ALONE ? 0 : 1) && n < max; nb++) {
      MsProbeCell *c = ms_probe_cell_init (&out[n++], MS_MODE_STREAMS, 0);
      ms_implicit_sync_variant (c->variant, sizeof c->variant, op, nb, default_queues);
      c->arg[ARG_OP] = op;
      c->arg[ARG_NON_BLOCKING] = nb;
      c->arg[ARG_KERNEL_US] = kernel_us;
      c->arg[ARG_KIB] = kib;
      c->arg[ARG_DEFAULT_QUEUES] = default_queues;
      c->instrumented = 1;
    }
  return n;
}

static double
median_of (const MsResults *r, MsSyncOp op, bool non_blocking, bool default_queues)
{
  char v[MS_VARIANT_LEN];
  ms_implicit_sync_variant (v, sizeof v, op, non_blocking, default_queues);
  const MsCell *c = ms_caption_measured (r, MS_MODE_STREAMS, 0, v);
  return c && c->stats.e2e.median > 0 ? c->stats.e2e.median : 0;
}

/* The median host time of the cell's call events (its instrumented
 * samples), 0 when it has none. */
static double
call_us (const MsResults *r, MsSyncOp op, bool non_blocking, bool default_queues)
{
  char v[MS_VARIANT_LEN];
  ms_implicit_sync_variant (v, sizeof v, op, non_blocking, default_queues);
  const MsCell *c = ms_caption_measured (r, MS_MODE_STREAMS, 0, v);
  if (!c || c->n_events == 0)
    return 0;
  double *t = malloc (c->n_events * sizeof *t);
  size_t n = 0;
  for (size_t i = 0; t && i < c->n_events; i++)
    if (c->events[i].phase == MS_PHASE_CALL)
      t[n++] = c->events[i].host_us;
  MsStat st;
  ms_stat_compute_in_place (&st, t, (int)n);
  free (t);
  return st.median;
}

/* Where the call took most of a kernel's time, the kernels' GPU stamps
 * in the cell's instrumented samples: overlapped where in each the second
 * kernel began before the first ended; else undecided, with *held_us
 * (the median of how long after the first kernel's end the call returned)
 * where in each the second began after the first ended and the call
 * returned after that end. A call that held the host past the first
 * kernel kept the two apart, but whether it waited for the kernel or
 * took that long itself, the stamps cannot say (a 600 µs call between two
 * 500 µs kernels looks the same either way): they are said as held, not
 * serialised. Teachers read cudaFree's bare "unclear" as the implicit
 * synchronisation their students meet most, left off the slide. */
static MsSyncVerdict
by_stamps (const MsResults *r, MsSyncOp op, bool non_blocking, bool default_queues,
           double *held_us)
{
  char v[MS_VARIANT_LEN];
  ms_implicit_sync_variant (v, sizeof v, op, non_blocking, default_queues);
  const MsCell *c = ms_caption_measured (r, MS_MODE_STREAMS, 0, v);
  double after[64];
  int n = 0, apart = 0, together = 0;
  /* Each sample by its first kernel's row. */
  for (size_t k = 0; c && k < c->n_events && n < 64; k++) {
    const MsEvent *first = &c->events[k];
    if (first->phase != MS_PHASE_KERNEL || first->lane != 1 || first->gpu_start_us < 0)
      continue;
    double k1_end = first->gpu_start_us + first->gpu_us, k2_start = NAN, call_end = NAN;
    for (size_t i = 0; i < c->n_events; i++) {
      const MsEvent *e = &c->events[i];
      if (e->rep != first->rep)
        continue;
      if (e->phase == MS_PHASE_KERNEL && e->lane == 2 && e->gpu_start_us >= 0)
        k2_start = e->gpu_start_us;
      else if (e->phase == MS_PHASE_CALL)
        call_end = e->host_start_us + e->host_us;
    }
    if (isnan (k2_start))
      continue;
    apart += k2_start >= k1_end;
    together += k2_start < k1_end;
    if (!isnan (call_end) && call_end >= k1_end)
      after[n++] = call_end - k1_end;
  }
  *held_us = NAN;
  if (together > 0 && apart == 0)
    return MS_SYNC_OVERLAPPED;
  if (apart > 0 && together == 0 && n == apart) {
    MsStat st;
    ms_stat_compute_in_place (&st, after, n);
    *held_us = st.median;
  }
  return MS_SYNC_UNDECIDED;
}

MsSyncVerdict
ms_implicit_sync_judge (const MsResults *r, MsSyncOp op, int column, MsSyncJudged *out)
{
  bool nb = column >= 2, def = column % 2 == 1;
  memset (out, 0, sizeof *out);
  out->held_us = NAN;
  double alone = median_of (r, MS_SYNC_OP_ALONE, false, def);
  double none = median_of (r, MS_SYNC_OP_NONE, nb, def);
  double t = op == MS_SYNC_OP_ALONE ? alone : median_of (r, op, nb, def);
  if (!(alone > 0) || !(none > 0) || !(t > 0) || op >= MS_SYNC_OP_COUNT)
    return out->verdict = MS_SYNC_MISSING;
  out->us = t;
  out->times = t / alone;
  if (op == MS_SYNC_OP_ALONE)
    return out->verdict = MS_SYNC_OVERLAPPED;
  /* Nothing between: one kernel's time plus launches when they overlap. */
  if (op == MS_SYNC_OP_NONE) {
    return out->verdict = t < 1.5 * alone ? MS_SYNC_OVERLAPPED : MS_SYNC_SERIALISED;
  }
  /* A call of c µs delays the second launch by c: overlapped kernels end
   * about c after the reference, serialised ones about a kernel after it.
   * When c nears a kernel's time the host clock cannot tell them apart. */
  double base = none < 1.5 * alone ? none : alone;
  double c = call_us (r, op, nb, def);
  out->call_us = c;
  if (c > MS_SYNC_UNDECIDED_CALL_SHARE * alone)
    return out->verdict = by_stamps (r, op, nb, def, &out->held_us);
  return out->verdict = t > base + (c + alone) / 2 ? MS_SYNC_SERIALISED : MS_SYNC_OVERLAPPED;
}

bool
ms_implicit_sync_held_past (const MsSyncJudged *j)
{
  return j->verdict == MS_SYNC_UNDECIDED && isfinite (j->held_us);
}

bool
ms_implicit_sync_kept_apart (const MsResults *r, MsSyncOp op, int column, MsSyncJudged *out)
{
  return ms_implicit_sync_judge (r, op, column, out) == MS_SYNC_SERIALISED
         || ms_implicit_sync_held_past (out);
}

/* Where a verdict held, in the fewest words: a pair of columns by what
 * they share (the stream kind or the queues), else the columns. */
static const char *
where (const bool in[MS_SYNC_N_COLUMNS], char *buf, size_t len)
{
  int mask = 0;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++)
    mask |= in[col] << col;
  switch (mask) {
  case 0x3:
    return ms_gettext ("blocking streams");
  case 0xc:
    return ms_gettext ("non-blocking streams");
  case 0x5:
    return ms_gettext ("1 hardware queue");
  case 0xa:
    return ms_gettext ("default queues");
  default:
    break;
  }
  buf[0] = 0;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++)
    if (in[col]) {
      size_t at = strlen (buf);
      snprintf (buf + at, len - at, "%s%s", at ? "; " : "", ms_implicit_sync_column_label (col));
    }
  return buf;
}

/* Where op's verdict was want, in where ()'s words ("" in every column
 * measured); false when nowhere. */
static bool
op_where (const MsResults *r, int op, MsSyncVerdict want, char *buf, size_t len)
{
  bool in[MS_SYNC_N_COLUMNS];
  int n = 0, known = 0;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    MsSyncJudged j;
    MsSyncVerdict v = ms_implicit_sync_judge (r, (MsSyncOp)op, col, &j);
    in[col] = v == want;
    n += in[col];
    known += v != MS_SYNC_MISSING;
  }
  char cols[256];
  snprintf (buf, len, "%s", n > 0 && n < known ? where (in, cols, sizeof cols) : "");
  return n > 0;
}

/* Appends "label" or "label (where)" to list for op if its verdict is
 * want in some column; returns whether it did. */
static bool
list_op (const MsResults *r, MsSyncOp op, MsSyncVerdict want, char *list, size_t len)
{
  char cols[256];
  if (op >= MS_SYNC_OP_COUNT || !op_where (r, op, want, cols, sizeof cols))
    return false;
  size_t at = strlen (list);
  snprintf (list + at, len - at, "%s%s", at ? ", " : "", ms_gettext (ops[op].label));
  at = strlen (list);
  if (cols[0])
    snprintf (list + at, len - at, " (%s)", cols);
  return true;
}

/* Whether op serialised somewhere, and overlapped somewhere. */
static void
op_seen (const MsResults *r, int op, bool *serial, bool *overlapped)
{
  *serial = *overlapped = false;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    MsSyncJudged j;
    MsSyncVerdict v = ms_implicit_sync_judge (r, (MsSyncOp)op, col, &j);
    *serial |= v == MS_SYNC_SERIALISED;
    *overlapped |= v == MS_SYNC_OVERLAPPED;
  }
}

/* The unclear calls the kernels' stamps found holding the host past the
 * first kernel's end, each with the least time after it over the
 * columns: the two kernels did not overlap, which the host clock alone
 * could not say, though not why. */
static void
append_held (const MsResults *r, char *buf, size_t len)
{
  char list[512] = "";
  for (int op = MS_SYNC_OP_MALLOC; op < MS_SYNC_OP_COUNT; op++) {
    double least = INFINITY;
    for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
      MsSyncJudged j;
      ms_implicit_sync_judge (r, (MsSyncOp)op, col, &j);
      if (ms_implicit_sync_held_past (&j))
        least = fmin (least, j.held_us);
    }
    if (!isfinite (least))
      continue;
    char t[32];
    size_t at = strlen (list);
    /* TRANSLATORS: a call and how long after the first kernel's end it returned, e.g.
     * "cudaFree (38 µs after)". */
    snprintf (list + at, sizeof list - at, ms_gettext ("%s%s (%s after)"),
              at ? ms_gettext (", ") : "", ms_gettext (ops[op].label),
              ms_caption_time (least, t, sizeof t));
  }
  if (list[0])
    ms_caption_append (buf, len,
                       ms_gettext ("By the GPU's clock, %s returned only after the first "
                                   "kernel ended, so they stopped the overlap too: the second "
                                   "could not start before it. Whether each waited for the "
                                   "kernel or took that long itself (each call took most of a "
                                   "kernel's time), this run cannot tell."),
                       list);
}

/* Whether op held the host past the first kernel's end in some column:
 * append_held says those, as what stopped the overlap. */
static bool
held_somewhere (const MsResults *r, int op)
{
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    MsSyncJudged j;
    ms_implicit_sync_judge (r, (MsSyncOp)op, col, &j);
    if (ms_implicit_sync_held_past (&j))
      return true;
  }
  return false;
}

/* Each call in one list only: what serialised as the material says, what
 * serialised though it is not on its list, what is on its list but
 * overlapped, and what the host clock cannot tell. */
static void
verdict_lists (const MsResults *r, char *buf, size_t len)
{
  char listed[1024] = "", extra[512] = "", held[512] = "", undecided[512] = "", off[512] = "";
  for (int op = MS_SYNC_OP_NONE; op < MS_SYNC_OP_COUNT; op++) {
    bool serial, overlapped;
    op_seen (r, op, &serial, &overlapped);
    list_op (r, op, MS_SYNC_SERIALISED, ops[op].listed ? listed : extra,
             ops[op].listed ? sizeof listed : sizeof extra);
    if (ops[op].listed && overlapped && !serial)
      list_op (r, op, MS_SYNC_OVERLAPPED, held, sizeof held);
    list_op (r, op, MS_SYNC_UNDECIDED, undecided, sizeof undecided);
    if (!ops[op].listed && !serial && !held_somewhere (r, op))
      list_op (r, op, MS_SYNC_UNDECIDED, off, sizeof off);
  }
  if (listed[0])
    ms_caption_append (buf, len,
                       ms_gettext ("Serialised, as the textbooks say (the two took nearer two "
                                   "kernel times than one): %s."),
                       listed);
  else if (extra[0])
    ms_caption_append (buf, len,
                       ms_gettext ("None of the calls the textbooks list serialised the two "
                                   "kernels here."));
  else
    ms_caption_append (buf, len,
                       ms_gettext ("No operation serialised the two kernels on this GPU."));
  if (extra[0])
    ms_caption_append (buf, len,
                       ms_gettext ("Not on the textbooks' list, but serialised here (a larger "
                                   "view draws every column): %s."),
                       extra);
  if (held[0])
    ms_caption_append (buf, len, ms_gettext ("Listed by the textbooks, yet overlapped here: %s."),
                       held);
  /* The unclear cells only when nothing else is said: the picture
   * hatches them and its key says why. But a slide draws a call off the
   * list only where it serialised, so cudaFree's "unclear" is said here. */
  if (undecided[0] && !listed[0] && !extra[0] && !held[0])
    ms_caption_append (buf, len,
                       ms_gettext ("Unclear, as the call itself took most of a kernel's time: "
                                   "%s."),
                       undecided);
  else if (off[0])
    ms_caption_append (buf, len,
                       ms_gettext ("Not on the textbooks' list, and unclear (the call itself "
                                   "took most of a kernel's time): %s."),
                       off);
  append_held (r, buf, len);
  if (listed[0] && !extra[0] && !held[0])
    ms_caption_append (buf, len, ms_gettext ("What serialised here is what the textbooks list."));
}

/* Where the listed calls serialised: every column where one did. */
static void
serial_place (const MsResults *r, bool place[MS_SYNC_N_COLUMNS])
{
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    place[col] = false;
    for (int op = MS_SYNC_OP_MALLOC; op < MS_SYNC_OP_COUNT && !place[col]; op++) {
      MsSyncJudged j;
      place[col] = ops[op].listed
                   && ms_implicit_sync_judge (r, (MsSyncOp)op, col, &j) == MS_SYNC_SERIALISED;
    }
  }
}

/* A listed call that serialised somewhere, or one off the list that kept
 * the kernels apart in every column where the listed ones serialised: a
 * slide draws those under the listed ones, and a headline that counted
 * the list alone read as if only its calls stopped the overlap (cudaFree,
 * the one students meet most, was in small print). */
bool
ms_implicit_sync_counted (const MsResults *r, MsSyncOp op)
{
  if (op <= MS_SYNC_OP_NONE || op >= MS_SYNC_OP_COUNT)
    return false;
  bool place[MS_SYNC_N_COLUMNS], any = false, all = true;
  serial_place (r, place);
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    MsSyncJudged j;
    if (ops[op].listed)
      any |= ms_implicit_sync_judge (r, op, col, &j) == MS_SYNC_SERIALISED;
    else if (place[col])
      any = true, all &= ms_implicit_sync_kept_apart (r, op, col, &j);
  }
  return any && all;
}

/* How many of the textbooks' list made the second kernel wait, and where
 * (blocking streams only, say): "cudaMemset serialised" alone would read
 * as true on every stream. Said once where every call shares it. Which
 * calls, and those that overlapped or were unclear, are the grid's and
 * the details' to say: a line naming them ran to three. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  MsSyncJudged none;
  bool any = false;
  for (int col = 0; col < MS_SYNC_N_COLUMNS && !any; col++)
    any = ms_implicit_sync_judge (r, MS_SYNC_OP_NONE, col, &none) != MS_SYNC_MISSING;
  if (!any)
    return MS_TAKEAWAY_MISSING;
  char shared[128] = "", at[128];
  bool one_place = true, extra = false;
  int unclear = 0; /* listed calls that neither serialised nor overlapped anywhere */
  int held = 0;    /* listed calls that overlapped and never serialised */
  int named = 0;
  for (int op = MS_SYNC_OP_NONE; op < MS_SYNC_OP_COUNT; op++) {
    if (!ops[op].listed) {
      extra |= op_where (r, op, MS_SYNC_SERIALISED, at, sizeof at);
      continue;
    }
    if (!op_where (r, op, MS_SYNC_SERIALISED, at, sizeof at)) {
      bool overlapped = op_where (r, op, MS_SYNC_OVERLAPPED, at, sizeof at);
      held += overlapped;
      unclear += !overlapped && op_where (r, op, MS_SYNC_UNDECIDED, at, sizeof at);
      continue;
    }
    one_place &= !named || strcmp (at, shared) == 0;
    snprintf (shared, sizeof shared, "%s", at);
    named++;
  }
  int more = 0; /* calls off the list that stopped the overlap where the listed ones did */
  for (int op = MS_SYNC_OP_MALLOC; op < MS_SYNC_OP_COUNT; op++)
    more += !ops[op].listed && ms_implicit_sync_counted (r, (MsSyncOp)op);
  if (!named) {
    snprintf (buf, len, "%s",
              extra ? ms_gettext ("None of the calls on the textbooks' list made the second "
                                  "kernel wait here")
                    : ms_gettext ("No call made the second kernel wait on this GPU"));
    return MS_TAKEAWAY_DECIDED;
  }
  /* How many of the list, not which: the grid names them, and a line
   * naming them ran to three. The calls that did not, or could not be
   * told, are the details'. */
  int total = named + held + unclear;
  if (!held && !unclear && !more)
    snprintf (buf, len,
              ms_ngettext ("The %d listed call made the second kernel wait, as the textbooks say",
                           "All %d listed calls made the second kernel wait, as the textbooks say",
                           (unsigned long)total),
              total);
  else if (more)
    /* TRANSLATORS: e.g. "6 calls stopped the overlap: 3 serial, 3 held the host": every call the
     * grid outlines, then the two ways, in the cells' own words ("serial", "held"). "3 of 6
     * listed calls serial, 3 unlisted apart" left readers to work out that both meant no
     * overlap, six calls in all; the grid's subheadings say which are on the Guide's list, its
     * subtitle the streams. */
    snprintf (buf, len,
              ms_ngettext ("%d call stopped the overlap: %d serial, %d held the host",
                           "%d calls stopped the overlap: %d serial, %d held the host",
                           (unsigned long)(named + more)),
              named + more, named, more);
  else if (one_place && shared[0])
    snprintf (buf, len,
              ms_ngettext ("On %s, %d of %d listed call serialised",
                           "On %s, %d of %d listed calls serialised",
                           (unsigned long)total),
              shared, named, total);
  else
    snprintf (buf, len,
              ms_ngettext ("%d of %d listed call serialised",
                           "%d of %d listed calls serialised",
                           (unsigned long)total),
              named, total);
  /* The calls the run could not judge, said: "3 of 9" alone read as 6
   * that overlapped, where 3 of them are unclear. */
  if (unclear > 0) {
    size_t end = strlen (buf);
    /* TRANSLATORS: after the implicit-sync slide's line, e.g. "On
     * blocking streams, 3 of 9 listed calls serialised; 3 unclear". */
    snprintf (buf + end, len - end, ms_gettext ("; %d unclear"), unclear);
  }
  return MS_TAKEAWAY_DECIDED;
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void)exponent;
  char t1[32], t2[32];
  int col0 = -1;
  MsSyncJudged none;
  /* The default queues first, as the slide's column: its key quotes the
   * same kernel. */
  for (int i = 0; i < MS_SYNC_N_COLUMNS && col0 < 0; i++)
    if (ms_implicit_sync_judge (r, MS_SYNC_OP_NONE, i ^ 1, &none) != MS_SYNC_MISSING)
      col0 = i ^ 1;
  if (col0 < 0)
    return false;
  /* The unit of the picture's cells first; then what the grid shows
   * against the textbooks, each call once. The experiment is the
   * picture's title, the stream-ordered calls and the unclear cells its
   * rows and key: told here too, the caption took nine lines and left
   * the grid's words 12 px at 1024x768. */
  ms_caption_append (buf, len,
                     ms_gettext ("Each cell's word rests on the two kernels' total, counted in "
                                 "one kernel's times: one kernel took %s; two with nothing "
                                 "between, %s (%.2f)."),
                     ms_caption_time (none.us / none.times, t1, sizeof t1),
                     ms_caption_time (none.us, t2, sizeof t2), none.times);
  verdict_lists (r, buf, len);
  return true;
}

/* kernels/lesson-implicit-sync.cu: kernel k on lane k + 1 is the first
 * launch's, the second launch's, and the operation's own when the call is
 * a kernel launch. */
static const MsEvent *
kernel_issuer (const MsEvent *events, size_t n_events, const MsEvent *kernel)
{
  if (kernel->chunk != 0)
    return NULL;
  if (kernel->lane == 1 || kernel->lane == 2)
    return ms_gpu_clock_host_event (events, n_events, kernel->rep, MS_PHASE_LAUNCH,
                                    kernel->lane - 1);
  return kernel->lane == 3
             ? ms_gpu_clock_host_event (events, n_events, kernel->rep, MS_PHASE_CALL, 0)
             : NULL;
}

const MsLesson ms_lesson_implicit_sync = {
  .card = { .name = NAME,
            .modes = "streams",
            .title = MS_N_ ("Calls that synchronise streams"),
            .question = MS_N_ ("Which calls between two kernels on two streams stop them "
                               "overlapping?"),
            .reason = MS_N_ ("Two kernels of a fixed duration (a spin on the GPU's own clock) go "
                             "to two streams; between the two launches the host issues one "
                             "operation: an allocation, a free, a stream-ordered allocation or "
                             "free (cudaMallocAsync, cudaFreeAsync on a third stream, from the "
                             "device's default pool), pinning, a memory set, a "
                             "device-to-device copy, a kernel on a default stream, an event "
                             "record, or nothing. The time from the first launch to the end of "
                             "both kernels is about one kernel's time when they ran together and "
                             "about two when the operation made the second wait. Streams are "
                             "blocking or non-blocking, with one hardware queue and with the "
                             "default, each in a fresh process. The material says allocations, "
                             "memory sets, device-to-device copies and default-stream work "
                             "synchronise; look for the calls that serialise here and the ones "
                             "that do not. The timeline comes from one more run with the kernels' "
                             "own clock stamps.") },
  .settings = "two kernels of kernel-us on two streams with one operation between the launches "
              "(buffers of kib KiB; cudaMemsetAsync, cudaMallocAsync and cudaFreeAsync on a "
              "third stream, cudaEventRecord on the first); blocking and non-blocking "
              "streams; " MS_LESSON_MAX_CONNECTIONS "=1 and the "
              "default, each in a fresh process; one kernel alone per queue setting",
  MS_PROBE_LESSON_FIELDS,
  .missing = MS_N_ ("The run lacks one kernel alone, or two kernels with nothing between them."),
  .parts = parts,
  .takeaway = takeaway,
  .kernel_issuer = kernel_issuer,
};
