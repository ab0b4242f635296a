/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-pin-payoff.c: when does pinning pay off (docs/lessons.md)?
 * Per size, what getting and releasing a buffer costs (pageable: mmap and
 * first touch; pinned: cudaMallocHost; registered: cudaHostRegister on a
 * pageable buffer) and one host-to-device copy from each. The caption adds
 * them up for N uses and gives the break-even N, as measured. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-pin-payoff.h"
#include "ms-lesson-private.h"

#define NAME "pin-payoff"
#define MIN_EXP 14

/* arg[] of the probe, read by kernels/lesson-pin-payoff.cu. */
enum { ARG_STEP, ARG_MAX_PCT, ARG_KIND };
enum { STEP_SETUP, STEP_RELEASE, STEP_COPY, N_STEPS };

static const char *const step_names[N_STEPS] = { "setup", "release", "copy" };
static const struct {
  MsMode mode;
  const char *name;
} kinds[] = {
  { MS_MODE_PAGEABLE, "pageable" },
  { MS_MODE_PINNED, "pinned" },
  { MS_MODE_REGISTERED, "registered" },
};
#define N_KINDS ((int)(sizeof kinds / sizeof kinds[0]))

static const MsLessonOption options[] = {
  { "max-exp", 26, MIN_EXP, 28, true,
    MS_N_ ("the largest size: 2^max-exp floats (26: 256 MiB, 28: 1 GiB); sizes from 64 KiB "
           "in steps of 4x") },
  { "max-pinned-pct", 25, 1, 50, true,
    MS_N_ ("the most host memory one sample takes, in percent of MemAvailable; larger sizes are "
           "skipped and say so") },
  { NULL },
};

static void
parts (MsPartList *list)
{
  ms_lesson_add_probe_part (list, MS_PROBE_PIN_PAYOFF, 0);
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  int max_exp = (int)ms_lesson_option (NAME, sweep, "max-exp");
  int pct = (int)ms_lesson_option (NAME, sweep, "max-pinned-pct");
  int n = 0;
  for (int e = MIN_EXP; e <= max_exp; e += 2)
    for (int k = 0; k < N_KINDS; k++)
      for (int s = 0; s < N_STEPS && n < max; s++) {
        MsProbeCell *c = &out[n++];
        ms_probe_cell_set (c, kinds[k].mode, e, "mode=%s/step=%s", kinds[k].name, step_names[s]);
        c->arg[ARG_STEP] = s;
        c->arg[ARG_MAX_PCT] = pct;
        c->arg[ARG_KIND] = k;
        c->instrumented = s == STEP_COPY;
      }
  return n;
}

static double
median_of (const MsResults *r, MsMode mode, int exponent, int step)
{
  char v[MS_VARIANT_LEN];
  const char *name = "";
  for (int k = 0; k < N_KINDS; k++)
    if (kinds[k].mode == mode)
      name = kinds[k].name;
  snprintf (v, sizeof v, "mode=%s/step=%s", name, step_names[step]);
  const MsCell *c = ms_caption_measured (r, mode, exponent, v);
  return c ? c->stats.e2e.median : -1;
}

bool
ms_pin_payoff_cost (const MsResults *r, MsMode mode, int exponent, MsPinCost *out)
{
  double setup = median_of (r, mode, exponent, STEP_SETUP);
  double release = median_of (r, mode, exponent, STEP_RELEASE);
  double copy = median_of (r, mode, exponent, STEP_COPY);
  if (setup < 0 || release < 0 || !(copy > 0))
    return false;
  out->once_us = setup + release;
  out->copy_us = copy;
  if (mode == MS_MODE_REGISTERED) {
    /* Registering needs a pageable buffer first, and gives it back after. */
    MsPinCost pageable;
    if (!ms_pin_payoff_cost (r, MS_MODE_PAGEABLE, exponent, &pageable))
      return false;
    out->once_us += pageable.once_us;
  }
  return true;
}

double
ms_pin_payoff_total (const MsPinCost *c, double n)
{
  return c->once_us + n * c->copy_us;
}

int
ms_pin_payoff_break_even (const MsResults *r, MsMode mode, int exponent, double *n)
{
  MsPinCost base, pin;
  if (!ms_pin_payoff_cost (r, MS_MODE_PAGEABLE, exponent, &base)
      || !ms_pin_payoff_cost (r, mode, exponent, &pin))
    return -1;
  if (pin.once_us <= base.once_us && pin.copy_us <= base.copy_us) {
    *n = 1;
    return 1;
  }
  if (pin.copy_us >= base.copy_us)
    return 0;
  *n = fmax (1, ceil ((pin.once_us - base.once_us) / (base.copy_us - pin.copy_us)));
  return 1;
}

/* "paid off from 12 copies on", "... from the first copy" or "never ...". */
static const char *
when (int found, double n, char *buf, size_t len)
{
  if (found == 0)
    return ms_gettext ("never paid off (its copies were not faster)");
  if (n <= 1)
    return ms_gettext ("paid off from the first copy");
  snprintf (buf, len, ms_gettext ("paid off from %.0f copies on"), n);
  return buf;
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  int sizes = 0;
  FOR_EACH_EXP (e, exponent)
  {
    double n_pin = 0, n_reg = 0;
    int pin = ms_pin_payoff_break_even (r, MS_MODE_PINNED, e, &n_pin);
    int reg = ms_pin_payoff_break_even (r, MS_MODE_REGISTERED, e, &n_reg);
    if (pin < 0 || reg < 0)
      continue;
    MsPinCost pg, pn, rg;
    ms_pin_payoff_cost (r, MS_MODE_PAGEABLE, e, &pg);
    ms_pin_payoff_cost (r, MS_MODE_PINNED, e, &pn);
    ms_pin_payoff_cost (r, MS_MODE_REGISTERED, e, &rg);
    char size[32], t[4][32], w1[48], w2[48];
    const MsCell *c = ms_caption_measured (r, MS_MODE_PINNED, e, "mode=pinned/step=copy");
    ms_caption_size (c, size, sizeof size);
    if (sizes == 0)
      ms_caption_append (buf, len,
                         ms_gettext ("At %s, getting and releasing the buffer took %s pageable "
                                     "and %s pinned, and one copy %s pageable against %s "
                                     "pinned."),
                         size, ms_caption_time (pg.once_us, t[0], sizeof t[0]),
                         ms_caption_time (pn.once_us, t[1], sizeof t[1]),
                         ms_caption_time (pg.copy_us, t[2], sizeof t[2]),
                         ms_caption_time (pn.copy_us, t[3], sizeof t[3]));
    ms_caption_append (buf, len, ms_gettext ("At %s pinning %s; registering %s."), size,
                       when (pin, n_pin, w1, sizeof w1), when (reg, n_reg, w2, sizeof w2));
    sizes++;
  }
  if (!sizes)
    return ms_caption_missing (buf, len,
                               ms_gettext ("The run lacks a size with the setup, release and "
                                           "copy of pageable, pinned and registered memory."));
  if (exponent < 0)
    for (size_t i = 0; i < r->n_cells; i++)
      if (r->cells[i].status == MS_CELL_UNSUPPORTED && r->cells[i].message[0]) {
        ms_caption_append (buf, len, ms_gettext ("Not every size was measured: %s."),
                           r->cells[i].message);
        break;
      }
  return true;
}

const MsProbeLesson ms_lesson_pin_payoff = {
  .info
  = { NAME, MS_N_ ("For each size from 64 KiB: what it costs to get and release a buffer "
                   "(pageable: mmap and the first touch of every page, then munmap; pinned: "
                   "cudaMallocHost and cudaFreeHost; registered: cudaHostRegister and "
                   "cudaHostUnregister on a pageable buffer), and one host-to-device copy "
                   "from each. The total for N copies is the once-only cost plus N copies; "
                   "look at the N from which pinned or registered memory costs less in all "
                   "than pageable, and how it moves with the size. Sizes that would take more "
                   "than a safe share of the available memory are skipped.") },
  .topic = MS_TOPIC_PIN_PAYOFF,
  .probe = MS_PROBE_PIN_PAYOFF,
  .settings = "sizes 64 KiB..2^max-exp floats in steps of 4x; per size and kind (pageable, "
              "pinned, registered) the setup, the release and one H2D copy; at most "
              "max-pinned-pct % of MemAvailable per sample",
  .options = options,
  .parts = parts,
  .cells = cells,
  .caption = caption,
};
