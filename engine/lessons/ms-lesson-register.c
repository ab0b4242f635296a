/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-register.c: the register-allocate lesson (docs/lessons.md):
 * registering existing memory (cudaHostRegister) against allocating
 * pinned memory (cudaMallocHost). A plain sweep of both answers it; the
 * caption says from how many repetitions allocating once is cheaper,
 * counting every cost the run timed (ms-lesson-register.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-lesson-register.h"
#include "ms-modes.h"

#define NAME "register-allocate"

static double
phase_median (const MsCell *c, MsPhase phase)
{
  const MsStat *st = &c->stats.phase_host[phase];
  return st->n > 0 ? st->median : -1;
}

bool
ms_register_costs (const MsResults *r, int exponent, MsRegisterCosts *out)
{
  const MsCell *reg = ms_caption_measured (r, MS_MODE_REGISTERED, exponent, "");
  const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, exponent, "");
  if (!reg || !pin || !(reg->stats.h2d_gbps > 0) || !(pin->stats.h2d_gbps > 0))
    return false;
  *out = (MsRegisterCosts){
    .reg_us = phase_median (reg, MS_PHASE_REGISTER),
    .unreg_us = phase_median (reg, MS_PHASE_UNREGISTER),
    .reg_alloc_us = phase_median (reg, MS_PHASE_ALLOC),
    .reg_free_us = phase_median (reg, MS_PHASE_FREE),
    .pin_alloc_us = phase_median (pin, MS_PHASE_ALLOC),
    .pin_free_us = phase_median (pin, MS_PHASE_FREE),
    .reg_e2e = reg->stats.e2e,
    .pin_e2e = pin->stats.e2e,
    .e2e_apart = ms_caption_apart (reg, pin),
  };
  return out->reg_us >= 0 && out->pin_alloc_us >= 0;
}

static double
timed (double us)
{
  return us > 0 ? us : 0;
}

double
ms_register_anew_per_rep (const MsRegisterCosts *k)
{
  return timed (k->reg_us) + timed (k->unreg_us) + timed (k->reg_e2e.median);
}

double
ms_register_anew_once (const MsRegisterCosts *k)
{
  return timed (k->reg_alloc_us) + timed (k->reg_free_us);
}

double
ms_register_pinned_once (const MsRegisterCosts *k)
{
  return timed (k->pin_alloc_us) + timed (k->pin_free_us);
}

int
ms_register_cheaper_from (const MsRegisterCosts *k, double *cross)
{
  /* What each repetition costs more registered than pinned, and what
   * pinned costs more once. */
  double per_rep = ms_register_anew_per_rep (k) - timed (k->pin_e2e.median);
  double once = ms_register_pinned_once (k) - ms_register_anew_once (k);
  if (!(per_rep > 0))
    return 0;
  double at = fmax (0, once / per_rep);
  if (cross)
    *cross = at;
  return (int)floor (at) + 1;
}

int
ms_register_chart_reps (const MsRegisterCosts *k)
{
  double cross = 0;
  /* Twice the crossing, so that both sides of it show. */
  return ms_register_cheaper_from (k, &cross) > 0 ? (int) fmax (4, ceil (cross * 2)) : 10;
}

double
ms_register_reused_once (const MsRegisterCosts *k)
{
  /* Registering anew's one repetition, less its end to end. */
  return ms_register_anew_once (k) + ms_register_anew_per_rep (k) - timed (k->reg_e2e.median);
}

int
ms_register_reused_from (const MsRegisterCosts *k)
{
  /* From the medians, which the slide's sums give, where the run tells
   * the two repetitions apart. */
  double gap = timed (k->reg_e2e.median) - timed (k->pin_e2e.median);
  double ahead = ms_register_pinned_once (k) - ms_register_reused_once (k);
  if (ahead <= 0)
    return 1;
  /* A gap the run cannot tell from its spread crosses nowhere: the
   * H200's 0.4 µs put the crossing at n = 12262, which no printed figure
   * gave back. */
  if (!k->e2e_apart || !(gap > 0) || ahead / gap >= INT_MAX)
    return 0;
  return (int) floor (ahead / gap) + 1;
}

bool
ms_register_catches_up (const MsRegisterCosts *k, char *buf, size_t len)
{
  int from = ms_register_reused_from (k);
  buf[0] = '\0';
  if (!k->e2e_apart)
    /* TRANSLATORS: e.g. "A repetition, registered against cudaMallocHost memory: 259.9 µs (95%
     * range 250.1 to 270.3) against 259.5 µs (251.0 to 268.2): the ranges overlap." The spread
     * in numbers: "within the run's spread" was drawn nowhere. */
    snprintf (buf, len,
              ms_gettext ("A repetition registered: %.0f µs (95%% range %.0f to %.0f); "
                          "cudaMallocHost's: %.0f µs (%.0f to %.0f µs): ranges overlap."),
              k->reg_e2e.median, k->reg_e2e.ci_low, k->reg_e2e.ci_high, k->pin_e2e.median,
              k->pin_e2e.ci_low, k->pin_e2e.ci_high);
  else if (from > 0)
    /* TRANSLATORS: e.g. "cudaMallocHost once costs less than registering
     * once from n = 991 (268.5 against 277.8 µs a repetition)": a tenth
     * of a µs, so that the n can be checked from them. */
    snprintf (buf, len,
              ms_gettext ("cudaMallocHost once costs less than registering once from n = %d "
                          "(%.1f against %.1f µs a repetition)."),
              from, k->pin_e2e.median, k->reg_e2e.median);
  return buf[0] != '\0';
}

int
ms_register_left_out (const MsRegisterCosts *k, char *buf, size_t len)
{
  const struct {
    double us;
    const char *name;
  } parts[] = {
    { k->unreg_us, MS_N_ ("unregistering") },
    { k->reg_alloc_us, MS_N_ ("the registered buffers' allocation") },
    { k->reg_free_us, MS_N_ ("the registered buffers' free") },
    { k->pin_free_us, MS_N_ ("the pinned buffers' free") },
  };
  int n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    if (parts[i].us < 0) {
      size_t at = strlen (buf);
      snprintf (buf + at, len - at, "%s%s", n ? ", " : "", ms_gettext (parts[i].name));
      n++;
    }
  return n;
}

/* Every timed cost, named, for the crossing's sentence. */
static void
caption_crossing (const MsRegisterCosts *k, char *buf, size_t len)
{
  char t[7][32], left[256];
  int from = ms_register_cheaper_from (k, NULL);
  ms_caption_append (
      buf, len,
      ms_gettext ("Registering each time costs %s a repetition (registering %s, "
                  "unregistering %s and %s end to end) and %s once for the buffers; "
                  "cudaMallocHost once costs %s a repetition and %s once (allocation and free)."),
      ms_caption_time (ms_register_anew_per_rep (k), t[0], sizeof t[0]),
      ms_caption_time (k->reg_us, t[1], sizeof t[1]),
      ms_caption_time (timed (k->unreg_us), t[2], sizeof t[2]),
      ms_caption_time (k->reg_e2e.median, t[3], sizeof t[3]),
      ms_caption_time (ms_register_anew_once (k), t[4], sizeof t[4]),
      ms_caption_time (k->pin_e2e.median, t[5], sizeof t[5]),
      ms_caption_time (ms_register_pinned_once (k), t[6], sizeof t[6]));
  if (from > 0)
    /* The slide's third line, with its figures as the slide gives them. */
    ms_caption_append (buf, len,
                       ms_gettext ("With all of them, allocating once costs less in all than "
                                   "registering each time from n = %d repetitions; buffers "
                                   "registered once and reused pay registering only once: %s "
                                   "once and %s a repetition."),
                       from, ms_caption_time (ms_register_reused_once (k), t[0], sizeof t[0]),
                       ms_caption_time (k->reg_e2e.median, t[1], sizeof t[1]));
  char up[256];
  if (from > 0 && ms_register_catches_up (k, up, sizeof up))
    ms_caption_append (buf, len, "%s", up);
  else if (from <= 0)
    ms_caption_append (buf, len,
                       ms_gettext ("With all of them, registering each time never costs "
                                   "more than allocating once."));
  if (ms_register_left_out (k, left, sizeof left) > 0)
    ms_caption_append (buf, len, ms_gettext ("The run did not time, and the sums leave out: %s."),
                       left);
}

static bool
caption_register (const MsResults *r, int exponent, char *buf, size_t len)
{
  const MsCell *reg, *pin;
  int e = ms_caption_copy_pair (r, exponent, MS_MODE_REGISTERED, MS_MODE_PINNED, &reg, &pin);
  if (e < 0)
    return false;
  char size[32], total[32];
  /* Both modes hold three vectors of the cell's size. */
  ms_format_bytes (3 * ms_vector_bytes (pin->elements), total, sizeof total);
  snprintf (buf, len,
            ms_gettext ("At %s, copies to the device from registered memory run at %.1f "
                        "GB/s against %.1f GB/s from cudaMallocHost memory (medians of the "
                        "copies alone)."),
            ms_caption_size (pin, size, sizeof size), reg->stats.h2d_gbps, pin->stats.h2d_gbps);
  /* The costs come at different times (registered memory is pinned and
   * unpinned in every repetition, buffers allocated once per cell) and
   * the pin-payoff lesson times one buffer: the sentence says which and
   * for how much memory, so that no figure is read as another. */
  MsRegisterCosts k;
  if (ms_register_costs (r, e, &k)) {
    ms_caption_append (buf, len,
                       ms_gettext ("Each cell holds three %s buffers (%s) on the host and as "
                                   "many on the device."),
                       size, total);
    caption_crossing (&k, buf, len);
  }
  return true;
}

/* Where the picture's totals cross, at the caption's size; without the
 * costs, the caption's first sentence (the copy rates) stands. */
static MsTakeaway
takeaway_register (const MsResults *r, char *buf, size_t len)
{
  const MsCell *reg, *pin;
  int e = ms_caption_copy_pair (r, -1, MS_MODE_REGISTERED, MS_MODE_PINNED, &reg, &pin);
  if (e < 0)
    return MS_TAKEAWAY_MISSING;
  MsRegisterCosts k;
  if (!ms_register_costs (r, e, &k))
    return MS_TAKEAWAY_MISSING;
  int from = ms_register_cheaper_from (&k, NULL);
  /* The card's question answered for both ways of registering, each
   * true at every n the slide draws (where cudaMallocHost once catches up
   * with registering once, past them, the slide says so); "over
   * cudaMallocHost, n ≥ 6" was read as a code. The copies' rates are the
   * slide's and the details'. */
  int reused = ms_register_reused_from (&k);
  if (from > 0 && (reused == 0 || reused > ms_register_chart_reps (&k))) {
    /* TRANSLATORS: one projected line (62 characters at most): is
     * registering as good as cudaMallocHost? Registered once and reused,
     * it costs less in all at every n drawn, by what it saves up front
     * ("5.40 ms"); registered anew each repetition, more from n = 6.
     * ("..., not once" read as "never"; "no worse to n = 13" as a limit
     * at 13, where the run stops.) */
    char less[32];
    /* As the lines' labels write both, so that their difference checks
     * (the slide's sums are to four figures: 11.68 − 2.491 = 9.19, where
     * the headline's 9.21 came from three). */
    ms_caption_time (ms_caption_time_fine_as_written (ms_register_pinned_once (&k))
                         - ms_caption_time_fine_as_written (ms_register_reused_once (&k)),
                     less, sizeof less);
    snprintf (buf, len,
              ms_gettext ("Register once: %s less to set up; each time: worse from n = %d"), less,
              from);
  } else if (from > 0)
    /* TRANSLATORS: e.g. "cudaMallocHost beats registering anew from
     * n = 6, once from n = 9". */
    snprintf (buf, len,
              ms_gettext ("cudaMallocHost beats registering anew from n = %d, once from n = %d"),
              from, reused);
  else
    snprintf (buf, len,
              ms_gettext ("Registering each time never costs more than pinned, allocated once"));
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_register = {
  .card = { .name = NAME,
            .modes = "registered,pinned",
            .plain = true,
            .title = MS_N_ ("Register against allocate"),
            .question = MS_N_ ("Is pinning existing memory with cudaHostRegister as good as "
                               "cudaMallocHost?") },
  .caption = caption_register,
  .missing = MS_N_ ("This run has no registered and pinned copies of the same size to compare."),
  .takeaway = takeaway_register,
};
