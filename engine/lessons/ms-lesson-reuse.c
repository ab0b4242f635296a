/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-reuse.c: the reuse lesson (docs/lessons.md): zero-copy
 * against copies as the kernel reads its data more often, one sweep per
 * reuse factor R; the caption finds where zero-copy stops paying off. */
#include <stdio.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"
#include "ms-variant.h"

#define NAME "reuse"

static const int reuse_factors[] = { 1, 2, 4, 8, 16 };
#define N_OF(a) ((int) (sizeof (a) / sizeof (a)[0]))

/* The zero-copy accesses besides read and write, by their variant names:
 * writes only in R kernels (c crosses whole R times, the words of the
 * caption) and in one kernel storing each element R times in a row, whose
 * stores the link may see merged (PITFALLS.md 25). */
static const char *const access_names[MS_ACCESS_COUNT]
    = { "", "read", "write", "write-in-kernel" };

static void
reuse_parts (MsPartList *l)
{
  char v[MS_VARIANT_LEN];
  for (int i = 0; i < N_OF (reuse_factors); i++) {
    int r = reuse_factors[i];
    snprintf (v, sizeof v, "R=%d", r);
    MsLessonPart *p = ms_lesson_add_part (l, "pinned,zero-copy,uva,managed", v);
    if (p)
      p->sweep.knobs.reuse = r;
    for (int acc = MS_ACCESS_READ; acc < MS_ACCESS_COUNT; acc++) {
      snprintf (v, sizeof v, "R=%d/access=%s", r, access_names[acc]);
      p = ms_lesson_add_part (l, "zero-copy", v);
      if (p) {
        p->sweep.knobs.reuse = r;
        p->sweep.knobs.access = (MsAccess) acc;
      }
    }
  }
}

/* Zero-copy loses where its median's interval lies wholly above pinned's:
 * a few percent inside the spread is not a loss a class can see. */
static bool
clearly_slower (const MsCell *zc, const MsCell *pin)
{
  return zc->stats.e2e.median > pin->stats.e2e.median
         && zc->stats.e2e.ci_low > pin->stats.e2e.ci_high;
}

int
ms_lesson_reuse_crossover (const MsResults *r, int exponent, int *r_cross, int *r_max)
{
  const char *variants[64];
  int n = ms_results_variants (r, MS_MODE_ZERO_COPY, variants, 64);
  int best_cross = 0, largest = 0;
  for (int i = 0; i < n; i++) {
    int reuse;
    char access[16];
    if (!ms_variant_get_int (variants[i], "R", &reuse)
        || ms_variant_get (variants[i], "access", access, sizeof access))
      continue;
    const MsCell *zc = ms_caption_measured (r, MS_MODE_ZERO_COPY, exponent, variants[i]);
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, exponent, variants[i]);
    if (!zc || !pin)
      continue;
    if (reuse > largest)
      largest = reuse;
    if (clearly_slower (zc, pin) && (!best_cross || reuse < best_cross))
      best_cross = reuse;
  }
  if (!largest)
    return -1;
  *r_cross = best_cross;
  *r_max = largest;
  return best_cross ? 1 : 0;
}

/* The smallest R of the reuse cells at e. */
static int
smallest_reuse (const MsResults *r, int e)
{
  int smallest = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    int reuse;
    char access[16];
    const MsCell *c = &r->cells[i];
    if (c->mode == MS_MODE_ZERO_COPY && c->exponent == e
        && ms_variant_get_int (c->variant, "R", &reuse)
        && !ms_variant_get (c->variant, "access", access, sizeof access)
        && ms_caption_measured (r, MS_MODE_PINNED, e, c->variant)
        && (!smallest || reuse < smallest))
      smallest = reuse;
  }
  return smallest;
}

/* The smallest R at which zero-copy with the given access ("read" or
 * "write") takes clearly longer than pinned at e, with both times in t_zc
 * and t_pin; 0 when never, -1 when the run has no such cells. *in_median
 * gets the smallest R whose median alone was longer (0: none): the picture
 * draws that point above pinned's, and the words must not hide it. */
static int
access_crossover (const MsResults *r, int e, const char *access, char *t_zc, char *t_pin,
                  int *in_median)
{
  int found = -1;
  *in_median = 0;
  for (int reuse = 1; reuse <= 1024; reuse *= 2) {
    char v[MS_VARIANT_LEN], plain[MS_VARIANT_LEN];
    snprintf (v, sizeof v, "R=%d/access=%s", reuse, access);
    snprintf (plain, sizeof plain, "R=%d", reuse);
    const MsCell *zc = ms_caption_measured (r, MS_MODE_ZERO_COPY, e, v);
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, plain);
    if (!zc || !pin)
      continue;
    if (!*in_median && zc->stats.e2e.median > pin->stats.e2e.median)
      *in_median = reuse;
    if (clearly_slower (zc, pin)) {
      ms_caption_time (zc->stats.e2e.median, t_zc, 32);
      ms_caption_time (pin->stats.e2e.median, t_pin, 32);
      return reuse;
    }
    found = 0;
  }
  return found;
}

/* Reads only and writes only, each defined in a few words: where each
 * loses to pinned, with the times, since a loss can be a few percent
 * beyond a tight spread. */
static void
append_reuse_access (const MsResults *r, int e, char *buf, size_t len)
{
  char wz[32], wp[32], rz[32], rp[32];
  int w_median, r_median;
  int writes = access_crossover (r, e, "write", wz, wp, &w_median);
  int reads = access_crossover (r, e, "read", rz, rp, &r_median);
  if (writes > 0 && w_median > 0 && w_median < writes)
    ms_caption_append (buf, len,
                       ms_gettext ("Writes only (nothing copied in; R kernels write c to the "
                                   "host) takes longer than pinned's full copies in the median "
                                   "from R = %d, beyond the spread from R = %d (%s against %s)."),
                       w_median, writes, wz, wp);
  else if (writes > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Writes only (nothing copied in; R kernels write c to the "
                                   "host) loses to pinned's full copies only from R = %d (%s "
                                   "against %s)."),
                       writes, wz, wp);
  else if (writes == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Writes only (nothing copied in; R kernels write c to the "
                                   "host) is never clearly slower than pinned."));
  if (reads > 0 && r_median > 0 && r_median < reads)
    ms_caption_append (buf, len,
                       ms_gettext ("Reads only (a and b read R times) takes longer in the median "
                                   "from R = %d, beyond the spread from R = %d (%s against %s)."),
                       r_median, reads, rz, rp);
  else if (reads > 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Reads only (a and b read R times) loses from R = %d (%s "
                                   "against %s, beyond the spread)."),
                       reads, rz, rp);
  else if (reads == 0)
    ms_caption_append (buf, len,
                       ms_gettext ("Reads only (a and b read R times) is never clearly slower "
                                   "than pinned."));
}

/* The rate at which R × c crossed the link, had every store crossed: above
 * the link's own rate, fewer bytes crossed than the kernel stored. */
static double
written_gbps (const MsCell *c, int reuse)
{
  return (double) reuse * ms_vector_bytes (c->elements) / c->stats.e2e.median * 1e-3;
}

/* One kernel storing each element R times against R kernels storing it
 * once, at the largest R with both: whether the stores in a row were
 * merged before they crossed, judged by the link's own rate. */
static void
append_reuse_in_kernel (const MsResults *r, int e, char *buf, size_t len)
{
  for (int reuse = MS_MAX_REUSE; reuse >= 2; reuse /= 2) {
    char v_one[MS_VARIANT_LEN], v_many[MS_VARIANT_LEN], t_one[32], t_many[32];
    snprintf (v_one, sizeof v_one, "R=%d/access=write-in-kernel", reuse);
    snprintf (v_many, sizeof v_many, "R=%d/access=write", reuse);
    const MsCell *one = ms_caption_measured (r, MS_MODE_ZERO_COPY, e, v_one);
    const MsCell *many = ms_caption_measured (r, MS_MODE_ZERO_COPY, e, v_many);
    if (!one || !many || !(one->stats.e2e.median > 0) || !(many->stats.e2e.median > 0))
      continue;
    double link = ms_pcie_theoretical_gbps (r->device.pcie_gen, r->device.pcie_width);
    double rate = written_gbps (one, reuse);
    ms_caption_time (one->stats.e2e.median, t_one, sizeof t_one);
    ms_caption_time (many->stats.e2e.median, t_many, sizeof t_many);
    if (link > 0 && rate > link)
      ms_caption_append (buf, len,
                         ms_gettext ("One kernel storing each element R = %d times took %s "
                                     "against %s for %d kernels storing it once: %d × c in that "
                                     "time is %.0f GB/s, above the link's %.0f, so stores in a "
                                     "row to one address were merged before they crossed."),
                         reuse, t_one, t_many, reuse, reuse, rate, link);
    else
      ms_caption_append (buf, len,
                         ms_gettext ("One kernel storing each element R = %d times took %s "
                                     "against %s for %d kernels storing it once (%d × c at "
                                     "%.0f GB/s)."),
                         reuse, t_one, t_many, reuse, reuse, rate);
    return;
  }
}

/* Managed memory's line sits far above the others in the picture: its
 * figure against pinned's at the smallest R, so that it is not left
 * unexplained. */
static void
append_reuse_managed (const MsResults *r, int e, char *buf, size_t len)
{
  int reuse = smallest_reuse (r, e);
  char v[MS_VARIANT_LEN], t_m[32];
  snprintf (v, sizeof v, "R=%d", reuse);
  const MsCell *m = reuse ? ms_caption_measured (r, MS_MODE_MANAGED, e, v) : NULL;
  const MsCell *pin = reuse ? ms_caption_measured (r, MS_MODE_PINNED, e, v) : NULL;
  if (!m || !pin || !(pin->stats.e2e.median > 0))
    return;
  ms_caption_append (buf, len,
                     ms_gettext ("Managed memory took %s at R = %d: %.1f× pinned."),
                     ms_caption_time (m->stats.e2e.median, t_m, sizeof t_m), reuse,
                     m->stats.e2e.median / pin->stats.e2e.median);
}

static bool
caption_reuse (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    int cross, largest;
    int found = ms_lesson_reuse_crossover (r, e, &cross, &largest);
    if (found < 0)
      continue;
    char size[32], variant[MS_VARIANT_LEN];
    snprintf (variant, sizeof variant, "R=%d", found ? cross : largest);
    const MsCell *zc = ms_caption_measured (r, MS_MODE_ZERO_COPY, e, variant);
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, variant);
    char t_zc[32], t_pin[32];
    ms_caption_size (zc, size, sizeof size);
    ms_caption_time (zc->stats.e2e.median, t_zc, sizeof t_zc);
    ms_caption_time (pin->stats.e2e.median, t_pin, sizeof t_pin);
    if (!found)
      snprintf (buf, len,
                ms_gettext ("Zero-copy reading a and b and writing c is never clearly slower "
                            "than pinned at the R measured, up to %d at %s (%s against %s at "
                            "R = %d)."),
                largest, size, t_zc, t_pin, largest);
    else if (cross == smallest_reuse (r, e))
      snprintf (buf, len,
                ms_gettext ("Zero-copy reading a and b and writing c loses to pinned at every R "
                            "measured, from R = %d, at %s (%s against %s)."),
                cross, size, t_zc, t_pin);
    else
      snprintf (buf, len,
                ms_ngettext ("Zero-copy reading a and b and writing c loses to pinned from R = "
                             "%d access per element at %s (%s against %s).",
                             "Zero-copy reading a and b and writing c loses to pinned from R = "
                             "%d accesses per element at %s (%s against %s).",
                             (unsigned long)cross),
                cross, size, t_zc, t_pin);
    /* The rule of clearly_slower, which the slide's key leaves out:
     * there its bars hide behind their markers. */
    ms_caption_append (buf, len,
                       ms_gettext ("A loss counts only where zero-copy's bar (its spread) lies "
                                   "wholly above pinned's."));
    /* The slide draws pinned and zero-copy alone: what follows named
     * lines a class looked for there. */
    ms_caption_append (buf, len,
                       ms_gettext ("Drawn in the window's larger picture, not on the slide:"));
    append_reuse_access (r, e, buf, len);
    append_reuse_in_kernel (r, e, buf, len);
    append_reuse_managed (r, e, buf, len);
    return true;
  }
  return false;
}

/* The slide's line: where zero-copy starts to lose, the reuse chart's
 * crossing; the access variants and their times are the details'. */
static MsTakeaway
takeaway_reuse (const MsResults *r, char *buf, size_t len)
{
  FOR_EACH_EXP (e, -1)
  {
    int cross, largest;
    int found = ms_lesson_reuse_crossover (r, e, &cross, &largest);
    if (found < 0)
      continue;
    char size[32];
    ms_format_bytes (ms_exponent_bytes (e), size, sizeof size);
    if (!found)
      snprintf (buf, len,
                ms_gettext ("Zero-copy is never clearly slower than pinned up to R = %d at %s"),
                largest, size);
    else if (cross == smallest_reuse (r, e))
      snprintf (buf, len, ms_gettext ("Zero-copy loses to pinned at every R measured at %s"),
                size);
    else
      snprintf (buf, len,
                ms_ngettext ("At %2$s, zero-copy loses to pinned from R = %1$d access",
                             "At %2$s, zero-copy loses to pinned from R = %1$d accesses",
                             (unsigned long)cross),
                cross, size);
    return MS_TAKEAWAY_DECIDED;
  }
  return MS_TAKEAWAY_MISSING;
}

/* The command line's finding: at each size, the smallest R at which
 * zero-copy takes longer than pinned. */
static void
finding_reuse (const MsResults *r, char *buf, size_t len)
{
  /* The sizes the cells hold, not those the metadata names (a file's
   * word, not its data). */
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
    char size[32], v[MS_VARIANT_LEN];
    int from = 0, compared = 0;
    ms_format_bytes (ms_exponent_bytes (e), size, sizeof size);
    for (int i = 0; i < 5 && !from; i++) {
      snprintf (v, sizeof v, "R=%d", reuse_factors[i]);
      double zc = ms_finding_median (r, MS_MODE_ZERO_COPY, e, v);
      double pin = ms_finding_median (r, MS_MODE_PINNED, e, v);
      compared += zc > 0 && pin > 0;
      if (zc > 0 && pin > 0 && zc > pin)
        from = reuse_factors[i];
    }
    if (compared < 5 && !from)
      continue; /* not every R measured: no finding */
    if (from)
      ms_caption_append_line (
          buf, len, ms_gettext ("At %s zero-copy takes longer than pinned from R = %d.\n"), size,
          from);
    else
      ms_caption_append_line (
          buf, len, ms_gettext ("At %s zero-copy is not slower than pinned up to R = 16.\n"), size);
  }
}

const MsLesson ms_lesson_reuse = {
  .card = { .name = NAME,
            .modes = "pinned,zero-copy,uva,managed",
            .title = MS_N_ ("Zero-copy against copies, and data reuse"),
            .question = MS_N_ ("When does zero-copy stop paying off as the kernel reads its data "
                               "more often?"),
            .reason = MS_N_ ("The kernel reads its inputs R times. Zero-copy and UVA cross PCIe on "
                             "every access, managed memory faults its pages over once, pinned "
                             "copies them once: zero-copy suits data touched once, and the "
                             "crossover R shows where that ends.") },
  .settings = "R=1,2,4,8,16 for pinned, zero-copy, uva, managed; zero-copy also read-only, "
              "write-only in R kernels and write-only storing R times in one kernel",
  .parts = reuse_parts,
  .caption = caption_reuse,
  .takeaway = takeaway_reuse,
  .missing = MS_N_ ("This run has no zero-copy and pinned cells with an R setting to compare."),
  .finding = finding_reuse,
};
