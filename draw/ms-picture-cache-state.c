/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-cache-state.c: the cache-state lesson's picture: one bar per
 * state of the host's stores, grouped by memory, each the state's median
 * time as a multiple of the group's reference (streamed stores, or the
 * result checked in ordinary memory) on one axis from 0, with the ratio's
 * 95% interval and the verdict of the run's rule. Every figure is a median
 * of ms_cache_state_rows, the rows the caption words. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-palette.h"
#include "ms-engine.h"

/* The verdict in a word or two, as the row's text says it. */
static const char *
verdict_words (const MsJudgement *j)
{
  return j->verdict == MS_VERDICT_SAME     ? _ ("the same")
         : j->verdict == MS_VERDICT_FASTER ? _ ("shorter")
         : j->verdict == MS_VERDICT_SLOWER ? _ ("longer")
                                           : _ ("too noisy to say");
}

/* The side of the band an untold row's median lies on: -1 left, 1 right, else 0. */
static int
untold_side (const MsJudgement *j)
{
  double lo, hi;
  ms_verdict_band (ms_compare_threshold_fraction (MS_COMPARE_DEFAULT_THRESHOLD_PCT), &lo, &hi);
  return j->verdict != MS_VERDICT_AMBIGUOUS ? 0 : j->ratio < lo ? -1 : j->ratio > hi;
}

/* On a slide an untold row's verdict with that side: a dot at 0.80×
 * beside "cannot tell" alone was read as "faster" against the words, and
 * "cannot tell, maybe faster" needed a teacher to say what it meant. (A
 * row the run calls the same is said as the band it is, row_text.) */
static const char *
slide_verdict (const MsJudgement *j)
{
  int side = untold_side (j);
  return !side      ? verdict_words (j)
         : side < 0 ? _ ("too noisy to say if faster")
                    : _ ("too noisy to say if slower");
}

/* A bar's figures; on a slide the median's ratio and the verdict, its
 * range the bar across the axis (the details give it in figures): a dot
 * without its number was hunted for. */
static char *
row_text (const MsCacheStateRow *row, gboolean slide)
{
  if (slide && row->judgement.verdict == MS_VERDICT_SAME)
    /* Translators: a cache-state row on a slide the run calls the same as
     * its 1×, e.g. "1.06×: within ±10%" ("1.06×: the same" beside a bar
     * wholly above 1× took the band's rule to accept). */
    return g_strdup_printf (_ ("%.2f×: within ±%g%%"), row->judgement.ratio,
                            MS_COMPARE_DEFAULT_THRESHOLD_PCT);
  const MsJudgement *j = &row->judgement;
  if (slide && j->verdict == MS_VERDICT_AMBIGUOUS && j->lo <= 1 && j->hi >= 1)
    /* Translators: a cache-state row on a slide too noisy to tell, its
     * median's ratio then its bar's ends, e.g. "0.85× (0.71–1.00): too
     * noisy": a bar ending a pixel short of 1× beside "too noisy to say
     * if faster" left a class unable to see why. */
    return g_strdup_printf (_ ("%.2f× (%.2f–%.2f): too noisy"), j->ratio, j->lo, j->hi);
  if (slide)
    /* Translators: a cache-state row's words on a slide: the median's
     * ratio to the memory's 1× and the run's verdict, e.g. "0.85×: too
     * noisy to say if faster". */
    return g_strdup_printf (_ ("%.2f×: %s"), j->ratio, slide_verdict (j));
  char t[32];
  ms_caption_time (row->median_us, t, sizeof t);
  /* Translators: a cache-state bar's figures: the median, its ratio to the
   * group's reference and the run's verdict, e.g. "4.53 ms · 0.72× ·
   * too noisy to say". */
  return g_strdup_printf (_ ("%s · %.2f× · %s"), t, row->judgement.ratio,
                          verdict_words (&row->judgement));
}

/* A bar's figures without the verdict, where its words have no room (a
 * wide interval in a narrow pane: "4.70 ms · 1.03× · too noisy to say" ran
 * off it): the bar's look and the key under it give the verdict. */
static char *
row_figures (const MsCacheStateRow *row)
{
  char t[32];
  ms_caption_time (row->median_us, t, sizeof t);
  /* Translators: a cache-state bar's figures where its words have no
   * room: the median and its ratio to the group's reference, e.g.
   * "4.70 ms · 1.03×". */
  return g_strdup_printf (_ ("%s · %.2f×"), t, row->judgement.ratio);
}

char *
ms_picture_cache_state_row_text (const MsCacheStateRow *row)
{
  return row_text (row, FALSE);
}

char *
ms_picture_cache_state_group_text (const MsCacheStateRow *row)
{
  char t[32];
  ms_caption_time (row->reference_us, t, sizeof t);
  if (row->state == MS_CACHE_STATE_READ_WC)
    /* Translators: the group of the cache-state picture's last bar: the
     * reference it is measured against and its median, e.g. "The CPU's
     * check of the result in ordinary memory: 5.45 ms = 1×". */
    return g_strdup_printf (_ ("The CPU's check of the result in ordinary memory: %s = 1×"), t);
  /* Translators: a group of cache-state bars: the memory, the reference
   * the bars are measured against and its median, e.g. "Pinned memory
   * after streamed stores: 971 µs = 1×". */
  /* What streamed stores are, said where the 1× is named. */
  return g_strdup_printf (_ ("%s memory, streamed stores (past the CPU cache): %s = 1×"),
                          ms_mode_title (row->mode), t);
}

static gboolean
starts_group (const MsCacheStateRow *rows, int i)
{
  return i == 0 || rows[i].mode != rows[i - 1].mode
         || (rows[i].state == MS_CACHE_STATE_READ_WC)
                != (rows[i - 1].state == MS_CACHE_STATE_READ_WC);
}

/* Whether every row of the group that starts at i is one the run cannot
 * tell. */
static gboolean
group_untold (const MsCacheStateRow *rows, int n, int i)
{
  for (int k = i; k < n && (k == i || !starts_group (rows, k)); k++)
    if (rows[k].judgement.verdict != MS_VERDICT_AMBIGUOUS)
      return FALSE;
  return TRUE;
}

/* Whether row i is drawn: every group is, the ones the run cannot tell
 * too (folded into a line of words, their wide intervals went unseen and
 * "cannot tell" was taken on trust), except where fold says a slide too
 * short for them all (a window sharing the screen) folds those. */
static gboolean
row_drawn (const MsCacheStateRow *rows, int n, int i, gboolean fold)
{
  int g = i;
  while (!starts_group (rows, g))
    g--;
  return !fold || !group_untold (rows, n, g);
}

/* The lines the start of a group at i takes beside its bars: its name;
 * on a slide its name and its 1× bar, or, for a folded group, a share of
 * the one line that names them all (the first's). */
static int
group_lines (const MsCacheStateRow *rows, int n, int i, gboolean slide, gboolean fold)
{
  if (!starts_group (rows, i))
    return 0;
  if (!slide || row_drawn (rows, n, i, fold))
    return slide ? 2 : 1;
  for (int k = 0; k < i; k++)
    if (starts_group (rows, k) && !row_drawn (rows, n, k, fold))
      return 0;
  return 1;
}

/* The lines the rows take: one a bar, and their groups'. */
static int
n_lines (const MsCacheStateRow *rows, int n, gboolean slide, gboolean fold)
{
  int lines = 0;
  for (int i = 0; i < n; i++)
    lines += group_lines (rows, n, i, slide, fold) + row_drawn (rows, n, i, fold);
  return lines;
}

/* The axis's height in text sizes: its ticks, the words under them and
 * the gap after them. */
#define AXIS_H 4.0

/* Where everything goes: the label column, the bars' axis, the line
 * height. */
typedef struct {
  double fs, line_h, x0, x1;
  double vfs; /* the figures' size: the bars' and the axis's */
  MsScale xs;
  gboolean slide, fold;
  double figures_v; /* on a slide, the ratio right of which every row's figures go, or 0 */
} Layout;

/* The threshold's band around 1× in pixels: what the run calls the same. */
static void
band_pixels (const Layout *l, double *lo, double *hi)
{
  double t = ms_compare_threshold_fraction (MS_COMPARE_DEFAULT_THRESHOLD_PCT), a, b;
  ms_verdict_band (t, &a, &b);
  *lo = ms_scale_to_pixel (&l->xs, a);
  *hi = ms_scale_to_pixel (&l->xs, b);
}

/* Where a row's figures start: right of its mark, which ends at end, and
 * off the band (a patch of the background over the band read as a black
 * hole in the dark theme, and without one the 1× line crossed the words).
 * The one place for it: the fit's test measured from the mark alone, and
 * a row's words it passed ran off a narrow picture. */
static double
figures_at (cairo_t *cr, const Layout *l, const char *text, double end)
{
  const double gap = l->vfs * 0.3;
  double lo, hi, tw = ms_draw_text_width (cr, text, l->vfs, FALSE);
  band_pixels (l, &lo, &hi);
  if (end < hi && end + gap + tw > lo - gap)
    end = hi;
  /* On a slide one column for every row, right of the furthest mark: a
   * row's figures right of its own mark past the band were read as pushed
   * out of their column. */
  if (l->figures_v > 0)
    end = MAX (end, ms_scale_to_pixel (&l->xs, l->figures_v) + l->line_h * 0.24);
  return end;
}

/* Whether text, drawn by draw_figures after a mark ending at end, stays
 * inside the picture. */
static gboolean
figures_fit (cairo_t *cr, const Layout *l, const char *text, double end)
{
  return figures_at (cr, l, text, end) + l->vfs * 0.3 + ms_draw_text_width (cr, text, l->vfs, FALSE)
         <= l->x1;
}

static void
draw_figures (cairo_t *cr, const MsChartStyle *st, const Layout *l, const char *text, double end,
              double y)
{
  ms_picture_bar_figure (cr, st, text, l->vfs, FALSE, figures_at (cr, l, text, end),
                         y + l->line_h / 2, G_MAXDOUBLE);
}

/* A row's height: a line, or as tall as its state's name wrapped to the
 * label column where the text may not shrink (a slide's least text,
 * ms_draw_set_least_text): shrunk under it, the name was drawn at the
 * least size anyway and covered the next row's. */
static double
row_height (cairo_t *cr, const Layout *l, const char *name)
{
  if (ms_draw_get_least_text (cr) <= 0)
    return l->line_h;
  double th = ms_draw_text_wrapped (cr, name, 0, 0, l->fs, l->x0 - l->fs * 2, FALSE, FALSE);
  return MAX (l->line_h, th + l->fs * 0.3);
}

/* A row's state, left of its bar, on two lines where one is too wide for
 * the label column (the handout, at its larger text): cut short, it read
 * "inputs kept since the first re…" on paper. Smaller only where two
 * lines would not fit the row and no least size holds the text. */
static void
draw_state_name (cairo_t *cr, const Layout *l, const char *name, double y, double h)
{
  double max_w = l->x0 - l->fs * 2, size = l->fs;
  double th = ms_draw_text_wrapped (cr, name, 0, 0, size, max_w, FALSE, FALSE);
  /* Shrunk until it fits: its lines' height does not scale with the size
   * alone (a 320 px pane's two-line names still covered the next row's). */
  for (int k = 0; k < 4 && th > h && ms_draw_get_least_text (cr) <= 0; k++) {
    size *= h / th;
    th = ms_draw_text_wrapped (cr, name, 0, 0, size, max_w, FALSE, FALSE);
  }
  ms_draw_text_wrapped (cr, name, l->fs * 1.5, y + (h - th) / 2, size, max_w, FALSE, TRUE);
}

/* On a slide a row's 95% range as a pale bar in its memory's colour
 * and its median as a dot on it, on an axis zoomed to the ranges: a thin
 * line from 0.71× to 1.01× with a tick at 0.85× read as "faster", its
 * reach over 1× unseen, and the tick as a speck from the back row. */
static double
draw_range_dot (cairo_t *cr, const MsChartStyle *st, const Layout *l, const MsCacheStateRow *row,
                const MsColor *c, double y)
{
  const MsJudgement *j = &row->judgement;
  double mx = ms_scale_to_pixel (&l->xs, CLAMP (j->ratio, l->xs.min, l->xs.max)), end = mx;
  double cy = y + l->line_h / 2, r = l->line_h * 0.24;
  if (isfinite (j->lo + j->hi) && j->hi > j->lo) {
    double a = ms_scale_to_pixel (&l->xs, MAX (j->lo, l->xs.min));
    end = ms_scale_to_pixel (&l->xs, MIN (j->hi, l->xs.max));
    ms_picture_bar (cr, c, st->dark ? 0.55 : 0.45, a, end, cy, l->line_h * 0.3);
    cairo_rectangle (cr, a, cy - l->line_h * 0.15, end - a, l->line_h * 0.3);
    ms_set_color (cr, c, 1);
    cairo_set_line_width (cr, ms_style_line_width (st));
    cairo_stroke (cr);
  }
  /* Hollow where the run cannot tell: a solid dot at 0.85× beside "too noisy" was read as a 15%
   * win the words then took back. */
  const double at[2] = { mx, cy };
  gboolean untold = j->verdict == MS_VERDICT_AMBIGUOUS;
  ms_set_color (cr, c, 1);
  ms_draw_markers (cr, 0, untold ? MS_FILL_HOLLOW : MS_FILL_SOLID, at, 1, r,
                   ms_style_line_width (st) * (untold ? 1.5 : 1), &st->bg);
  return MAX (end, mx + r);
}

/* A bar to end: solid where the run decided, pale and outlined where it
 * cannot tell. */
static void
draw_bar_body (cairo_t *cr, const MsChartStyle *st, const Layout *l, const MsColor *c, double end,
               gboolean untold, double y)
{
  ms_picture_bar (cr, c, untold ? (st->dark ? 0.3 : 0.22) : 1, l->x0, end, y + l->line_h / 2,
                  l->line_h * 0.6);
  if (untold) {
    cairo_rectangle (cr, l->x0, y + l->line_h * 0.2, end - l->x0, l->line_h * 0.6);
    ms_set_color (cr, c, 1);
    cairo_set_line_width (cr, ms_style_line_width (st));
    cairo_stroke (cr);
  }
}

/* A 95% interval from lo to hi (ratios) across a row at y; where it
 * ends, or x0 where there is none. */
static double
draw_whisker (cairo_t *cr, const MsChartStyle *st, const Layout *l, double lo, double hi, double y)
{
  const double h = l->line_h;
  if (!isfinite (lo) || !isfinite (hi) || hi <= lo)
    return l->x0;
  double x_lo = ms_scale_to_pixel (&l->xs, MAX (lo, 0));
  double x_hi = ms_scale_to_pixel (&l->xs, MIN (hi, l->xs.max));
  ms_set_color (cr, &st->fg, 0.9);
  cairo_set_line_width (cr, ms_style_line_width (st));
  cairo_move_to (cr, x_lo, y + h / 2);
  cairo_line_to (cr, x_hi, y + h / 2);
  for (int k = 0; k < 2; k++) {
    cairo_move_to (cr, k ? x_hi : x_lo, y + h * 0.3);
    cairo_line_to (cr, k ? x_hi : x_lo, y + h * 0.7);
  }
  cairo_stroke (cr);
  return x_hi;
}

/* Row i's state's name; on a slide ordinary stores' row is named by the
 * cache, as each memory's 1× row is (one_name), in every memory: named so
 * in the first alone, the headline's "cached" was looked for beside
 * pinned's row. */
static const char *
state_name (const MsCacheStateRow *rows, int i, gboolean slide)
{
  /* The cache alone, the stores that leave it so in the title: "ordinary
   * stores (cached)" had a teacher explain the stores before the cache. */
  if (slide && rows[i].state == MS_CACHE_STATE_ORDINARY)
    return _ ("cached");
  return ms_cache_state_name (rows[i].state);
}

/* The name of a memory's 1× row on a slide, as ordinary stores' row is
 * named: "streaming stores" had to be taught first (the title says how
 * each was written). */
static const char *const one_name = N_ ("uncached");

/* The figures of a memory's 1× row on a slide, its reference's median. */
static char *
one_text (const MsCacheStateRow *row)
{
  char t[32];
  ms_caption_time (row->reference_us, t, sizeof t);
  /* Translators: the figure of that row, e.g. "1× = 7.66 ms". */
  return g_strdup_printf (_ ("1× = %s"), t);
}

/* Every row the same marks: a bar to the median and the ratio's 95%
 * interval across it; the fill tells the verdict, solid where the run
 * decided (the same, shorter or longer), pale and outlined where it cannot
 * tell. (A floating box for those was a second mark for one quantity.) */
static void
draw_bar (cairo_t *cr, const MsChartStyle *st, const Layout *l, const MsCacheStateRow *row,
          const char *name, const char *text, double y, double rh)
{
  guint color = 0, shape, dash;
  ms_mode_look (row->mode, &color, &shape, &dash);
  MsColor c;
  ms_chart_palette_color (color, st->dark, &c);
  ms_set_color (cr, &st->fg, 0.85);
  draw_state_name (cr, l, name, y, rh);
  /* The marks at the middle of a row made taller by its name. */
  y += (rh - l->line_h) / 2;
  double end = ms_scale_to_pixel (&l->xs, MIN (row->judgement.ratio, l->xs.max));
  const MsJudgement *j = &row->judgement;
  gboolean untold = j->verdict == MS_VERDICT_AMBIGUOUS;
  if (l->slide)
    end = draw_range_dot (cr, st, l, row, &c, y);
  else {
    draw_bar_body (cr, st, l, &c, end, untold, y);
    /* The ratio's 95% interval: whether the bar stands apart from 1×. */
    end = MAX (end, draw_whisker (cr, st, l, j->lo, j->hi, y));
  }
  g_autofree char *figures = NULL;
  if (!figures_fit (cr, l, text, end))
    text = figures = l->slide ? g_strdup_printf ("%.2f×", j->ratio) : row_figures (row);
  draw_figures (cr, st, l, text, end, y);
}

/* On a slide a memory's 1× as its first row, a dot alone at 1× with its
 * time: "1×, not a row" was looked for among the rows. */
static double
draw_reference (cairo_t *cr, const MsChartStyle *st, const Layout *l, const MsCacheStateRow *row,
                double y)
{
  const char *name = _ (one_name);
  MsCacheStateRow one = { row->mode, row->state, row->exponent, row->reference_us,
                          row->reference_us, { .verdict = MS_VERDICT_SAME, .ratio = 1,
                                               .lo = NAN, .hi = NAN } };
  g_autofree char *text = one_text (row);
  double rh = row_height (cr, l, name);
  draw_bar (cr, st, l, &one, name, text, y, rh);
  return rh;
}

/* A memory's name on a slide, with who reads it for the copy and so
 * where the CPU's cache comes in: the opposite effects on pageable and
 * pinned copies each needed a teacher while the names said only who
 * reads it ("data still in the CPU's cache" under them was read as a bare
 * fact). A GPU's read of host memory must take the lines the CPU's cache
 * holds from it (the plain program's copies in took longer by the GPU's
 * clock: docs/lessons.md, cache-state). */
static const char *
memory_name (const MsCacheStateRow *row)
{
  switch (row->mode) {
  case MS_MODE_PAGEABLE:
    /* TRANSLATORS: a group's name on the cache-state slide. */
    return _ ("Pageable: the CPU first copies it to a staging buffer, from its cache if there");
  case MS_MODE_PINNED:
    /* "The CPU does not read it" set a class up to expect no change
     * from the CPU's stores, then drew one. */
    return _ ("Pinned: the GPU reads it, and must take lines in the CPU's cache from the CPU");
  default:
    /* A run without ordinary stores' rows draws its others. */
    return _ ("Write-combined: pinned memory meant to be uncached");
  }
}

/* A folded slide's one line for the memories the run cannot tell: NULL
 * where there are none. */
static char *
untold_text (const MsCacheStateRow *rows, int n, gboolean short_form)
{
  g_autoptr (GString) names = g_string_new (NULL), whys = g_string_new (NULL);
  for (int i = 0; i < n; i++) {
    char why[256];
    if (!starts_group (rows, i) || row_drawn (rows, n, i, TRUE))
      continue;
    if (ms_cache_state_why_untold (rows, n, rows[i].mode, why, sizeof why))
      g_string_append_printf (whys, "%s%s", whys->len ? " " : "", why);
    /* TRANSLATORS: a memory on the cache-state slide, e.g. "Pinned memory". */
    g_autofree char *name = g_strdup_printf (_ ("%s memory"), ms_mode_title (rows[i].mode));
    /* Its first letter lower case after the first name: "CPU" stays. */
    g_autofree char *first = g_utf8_strdown (name, g_utf8_next_char (name) - name);
    g_autofree char *low = g_strconcat (first, g_utf8_next_char (name), NULL);
    /* TRANSLATORS: joins memories, e.g. "Pageable memory" + " and " +
     * "write-combined memory". */
    if (names->len)
      g_string_append_printf (names, _ (" and %s"), low);
    else
      g_string_append (names, name);
  }
  if (!names->len)
    return NULL;
  /* Why, with the spread of their ranges: "the times varied too much"
   * left a 0.85× read as 15% faster unexplained. */
  if (!short_form && whys->len)
    return g_string_free (g_steal_pointer (&whys), FALSE);
  /* TRANSLATORS: the same where room is short, e.g. "Pageable memory:
   * this run cannot tell". */
  return g_strdup_printf (_ ("%s: this run cannot tell"), names->str);
}

/* Whether text, wrapped, fits room as a slide's line under the axis. */
static gboolean
slide_line_fits (cairo_t *cr, const Layout *l, const char *text, double width, double room)
{
  return ms_draw_text_wrapped (cr, text, 0, 0, l->fs, width - l->fs, FALSE, FALSE) <= room;
}

/* A group's line (a larger view's): the reference and its median. */
static void
draw_group (cairo_t *cr, const MsChartStyle *st, const Layout *l, const MsCacheStateRow *row,
            double y, double width)
{
  g_autofree char *name = ms_picture_cache_state_group_text (row);
  double th;
  ms_draw_text (cr, name, 0, 0, l->fs, -1, 0, FALSE, NULL, &th);
  ms_set_color (cr, &st->fg, 0.95);
  ms_draw_text_max (cr, name, l->fs * 0.5, y + (l->line_h - th) / 2, l->fs, width - l->fs);
}

/* The 1× line through a group's bars, under them and their words, in the
 * band of the verdict's threshold: an interval must leave the band, not
 * only the line, before the run calls a state different. */
static void
draw_one (cairo_t *cr, const MsChartStyle *st, const Layout *l, double top, double bottom)
{
  double lo, hi;
  band_pixels (l, &lo, &hi);
  /* Shaded and edged, so that it reads on a projector too. */
  ms_set_color (cr, &st->fg, 0.16);
  cairo_rectangle (cr, lo, top, hi - lo, bottom - top);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 0.45);
  cairo_set_line_width (cr, ms_style_line_width (st) * 0.75);
  for (int k = 0; k < 2; k++) {
    double ex = round (k ? hi : lo) + 0.5;
    cairo_move_to (cr, ex, top);
    cairo_line_to (cr, ex, bottom);
  }
  cairo_stroke (cr);
  double px = round (ms_scale_to_pixel (&l->xs, 1)) + 0.5;
  ms_set_color (cr, &st->fg, 0.6);
  cairo_set_dash (cr, (double[]){ 4, 3 }, 2, 0);
  ms_draw_line (cr, ms_style_line_width (st), px, top, px, bottom);
  cairo_set_dash (cr, NULL, 0, 0);
}

static char *
band_text (void)
{
  /* Translators: under the cache-state picture's shaded band around 1×,
   * between "← faster" and "slower →", e.g. "grey band, within ±10%: the
   * same time". */
  return g_strdup_printf (_ ("grey band, within ±%g%%: the same time"),
                          MS_COMPARE_DEFAULT_THRESHOLD_PCT);
}

/* The ratio axis under the groups, a tick every half where the labels
 * fit, and which way is slower under them, either side of 1×: at the
 * axis's end, past its last tick, it was read as a figure off the scale.
 * Between them, under the band, its name: in a line of its own among the
 * rows it was read as a tenth row. Returns where its words end. */
static double
draw_axis (cairo_t *cr, const MsChartStyle *st, const Layout *l, double bottom)
{
  ms_set_color (cr, &st->fg, 0.6);
  ms_draw_line (cr, ms_style_line_width (st), l->x0, bottom + 0.5, l->xs.pixel_hi, bottom + 0.5);
  ms_set_color (cr, &st->fg, 0.8);
  double label_w, th;
  g_autofree char *widest = g_strdup_printf (_ ("%g×"), l->xs.min > 0 ? 0.5 : 1.5);
  ms_draw_text (cr, widest, 0, 0, l->vfs, -1, 0, FALSE, &label_w, &th);
  /* A zoomed slide's in tenths, or fifths where those do not fit. */
  double step = l->xs.min > 0 ? 0.1 : 0.5;
  while (ms_scale_to_pixel (&l->xs, l->xs.min + step) - l->x0 < label_w * 1.1 && step < 1)
    step = step < 0.15 ? 0.2 : step < 0.3 ? 0.5 : 1;
  for (double v = ceil (l->xs.min / step - 1e-9) * step; v <= l->xs.max + 1e-9; v += step) {
    /* Never "-0×": the first tick from 0 is ceil's -0. */
    g_autofree char *tick = g_strdup_printf (_ ("%g×"), fabs (v) < 1e-9 ? 0 : v);
    ms_draw_text (cr, tick, ms_scale_to_pixel (&l->xs, v), bottom + l->fs * 0.2, l->vfs, 0.5, 0,
                  FALSE, NULL, NULL);
  }
  double y = bottom + l->fs * 0.4 + th, one = ms_scale_to_pixel (&l->xs, 1), tw;
  /* TRANSLATORS: under the cache-state ratio axis, left of 1×. */
  const char *faster = _ ("← faster"), *slower = _ ("slower →");
  double sw = ms_draw_text_width (cr, slower, l->fs, FALSE);
  ms_draw_text (cr, faster, 0, 0, l->fs, -1, 0, FALSE, &tw, &th);
  g_autofree char *band = band_text ();
  /* In the figures' size: smaller, its digits fell under a back row's. */
  double bw = ms_draw_text_width (cr, band, l->vfs, FALSE);
  /* Its short form where the axis is narrower (the lesson pane), and on
   * a line of its own under them where even that does not fit. */
  for (int k = 0; k < 2 && (one - bw / 2 - l->fs - tw < 0 || one + bw / 2 + l->fs + sw > l->x1);
       k++) {
    g_free (band);
    /* Translators: the cache-state band's name where the long one does
     * not fit, e.g. "±10%: the same". */
    band = g_strdup_printf (_ ("±%g%%: the same"), MS_COMPARE_DEFAULT_THRESHOLD_PCT);
    bw = k ? 0 : ms_draw_text_width (cr, band, l->vfs, FALSE);
  }
  ms_draw_text (cr, faster, MAX (0, one - bw / 2 - l->fs - tw), y, l->fs, 0, 0, FALSE, NULL, NULL);
  ms_draw_text (cr, slower, one + bw / 2 + l->fs, y, l->fs, 0, 0, FALSE, NULL, NULL);
  if (bw <= 0) {
    bw = ms_draw_text_width (cr, band, l->vfs, FALSE);
    y += th;
  }
  double bh;
  ms_draw_text (cr, band, CLAMP (one - bw / 2, 0, l->x1 - bw), y, l->vfs, 0, 0, FALSE, NULL, &bh);
  return y + MAX (th, bh);
}

/* The axis's range: from 0 to whole halves with room right of the
 * longest bar for its figures; on a slide the ranges and the band, a
 * tenth to spare, in tenths: from 0, the ranges that decide the verdict
 * were specks. */
static void
axis_range (const MsCacheStateRow *rows, int n, gboolean slide, double *min, double *max)
{
  double lo = 0.9, hi = slide ? 1.1 : 1.2;
  for (int i = 0; i < n; i++) {
    const MsJudgement *j = &rows[i].judgement;
    lo = MIN (lo, isfinite (j->lo) ? MIN (j->lo, j->ratio) : j->ratio);
    hi = MAX (hi, isfinite (j->hi) ? MAX (j->hi, j->ratio) : j->ratio);
  }
  *min = slide ? MAX (0, floor (lo * 10 - 0.3) / 10) : 0;
  *max = MIN (4, slide ? ceil (hi * 10 + 0.3) / 10 : ceil (hi * 1.15 * 2) / 2);
}

/* The ratio right of which row's figures go: its mark's far end, or the
 * band's edge where the mark lies inside it, within the axis (max). */
static double
row_reach (const MsCacheStateRow *row, double max)
{
  double band_lo, band_hi;
  ms_verdict_band (ms_compare_threshold_fraction (MS_COMPARE_DEFAULT_THRESHOLD_PCT), &band_lo,
                   &band_hi);
  const MsJudgement *j = &row->judgement;
  return MIN (max, MAX (band_hi, isfinite (j->hi) ? MAX (j->hi, j->ratio) : j->ratio));
}

/* The furthest of the rows' reaches: where a slide's figures start. */
static double
furthest_mark (const MsCacheStateRow *rows, int n, double max)
{
  double v = 0;
  for (int i = 0; i < n; i++)
    v = MAX (v, row_reach (&rows[i], max));
  return v;
}

/* Where the axis can end with every row's figures right of its mark, or
 * of the band they clear (on a slide, right of the furthest: one column):
 * sized for the widest figures at the axis's end, the axis was a stub
 * under figures that ended mid-way. */
static double
axis_end (cairo_t *cr, const Layout *l, const MsCacheStateRow *rows, int n, double min, double max)
{
  /* Short of the edge by half the last tick's label. */
  double px = l->x1 - l->vfs * 1.2;
  for (int i = 0; i < n; i++) {
    g_autofree char *text = row_text (&rows[i], l->slide);
    double v = MAX (row_reach (&rows[i], max), l->figures_v);
    /* The widest figures of the row and, on a slide, of its memory's 1× (wider than "0.71×:
     * 更短": in zh_CN it ran off the picture). */
    double tw = ms_draw_text_width (cr, text, l->vfs, FALSE);
    if (l->slide) {
      g_autofree char *one = one_text (&rows[i]);
      tw = MAX (tw, ms_draw_text_width (cr, one, l->vfs, FALSE));
    }
    /* Less the figure's gap and a dot's radius. */
    double room = l->x1 - tw - l->vfs * 0.3 - l->line_h * 0.3 - l->x0;
    /* Where the words would leave the axis a stub, the figures alone
     * (draw_bar). */
    if (!l->slide && room * (max - min) / (v - min) < l->fs * 6) {
      g_autofree char *figures = row_figures (&rows[i]);
      room += tw - ms_draw_text_width (cr, figures, l->vfs, FALSE);
    }
    px = MIN (px, l->x0 + room * (max - min) / (v - min));
  }
  return MAX (l->x0 + l->fs * 4, px);
}

/* The height the groups' lines and the rows take. */
static double
rows_height (cairo_t *cr, const Layout *l, const MsCacheStateRow *rows, int n)
{
  double y = 0;
  for (int i = 0; i < n; i++) {
    y += group_lines (rows, n, i, l->slide, l->fold) * l->line_h;
    /* The 1× row, as tall as its name wraps. */
    if (l->slide && starts_group (rows, i) && row_drawn (rows, n, i, l->fold))
      y += row_height (cr, l, _ (one_name)) - l->line_h;
    if (row_drawn (rows, n, i, l->fold))
      y += row_height (cr, l, state_name (rows, i, l->slide));
  }
  return y;
}

/* Where a slide's least text keeps the names from shrinking and their
 * wrapped lines would run past h (the lesson pane), the label column
 * widens to the longest name, then the lines close up to the text's own
 * height. */
static void
fit_rows (cairo_t *cr, Layout *l, const MsCacheStateRow *rows, int n, double label_w, double width,
          double h)
{
  if (ms_draw_get_least_text (cr) <= 0 || rows_height (cr, l, rows, n) <= h)
    return;
  l->x0 = MIN (label_w + l->fs * 2.5, width * 0.5);
  int lines = n_lines (rows, n, l->slide, l->fold);
  /* Never lower than a bar's figure (ms_draw_figure_size). */
  const double least = MAX (l->fs * 1.2, l->vfs * 1.2);
  for (int k = 0; k < 8 && rows_height (cr, l, rows, n) > h && l->line_h > least; k++)
    l->line_h = MAX (least, l->line_h - (rows_height (cr, l, rows, n) - h) / lines);
}

/* Whether each row's name, a short axis and its figures fit across width
 * (in a narrow pane a too-noisy row's words ran off the picture: folded
 * there). */
static gboolean
rows_fit_across (cairo_t *cr, const Layout *l, const MsCacheStateRow *rows, int n, double width)
{
  const double vfs = ms_draw_figure_size (cr, l->fs * 0.9);
  for (int i = 0; i < n; i++) {
    g_autofree char *text = row_text (&rows[i], l->slide);
    double name_w = ms_draw_text_width (cr, state_name (rows, i, l->slide), l->fs, FALSE);
    double need = MIN (name_w + l->fs * 2.5, width * 0.32) + l->fs * 4
                  + ms_draw_text_width (cr, text, vfs, FALSE) + vfs * 1.5;
    if (need > width)
      return FALSE;
  }
  return TRUE;
}

static double
draw_rows (cairo_t *cr, const MsChartStyle *st, const MsCacheStateRow *rows, int n, double width,
           double y, double h, gboolean slide)
{
  /* Returns where the axis's labels end. */
  const double end = y + h;
  Layout l = { .fs = ms_style_font_size (st), .slide = slide };
  /* Folded where the lines of every group, closed up as far as fit_rows
   * goes, would not keep a bar's figure at its size. */
  double least_h = MAX (l.fs * 1.2, ms_draw_figure_size (cr, l.fs * 0.9) * 1.2);
  l.fold = slide
           && (n_lines (rows, n, slide, FALSE) * least_h > h - l.fs * AXIS_H
               || !rows_fit_across (cr, &l, rows, n, width));
  /* Folded, the line under the axis that says why keeps its room. */
  g_autofree char *untold = l.fold ? untold_text (rows, n, FALSE) : NULL;
  if (untold)
    h -= ms_draw_text_wrapped (cr, untold, 0, 0, l.fs, width - l.fs, FALSE, FALSE);
  /* A line a bar and a group's name, the axis's labels (and the band's
   * name) under them; where room is short (the lesson pane) the text
   * shrinks with the lines, so that every state keeps its bar, down to a
   * slide's least text. */
  int lines = n_lines (rows, n, slide, l.fold);
  /* A slide's two memories spread over the room three took. */
  l.line_h = MIN (l.fs * (slide ? 3.4 : 2.6), (h - l.fs * AXIS_H) / lines);
  l.fs = MAX (MIN (l.fs, l.line_h / 1.35), MIN (l.fs, ms_draw_get_least_text (cr)));
  l.vfs = ms_draw_figure_size (cr, l.fs * 0.9);
  /* A line holds its bar's figure too, at a back row's size on a slide
   * (as closed up as the fold allows for). */
  l.line_h = MAX (l.line_h, MAX (l.fs * 1.35, l.vfs * 1.2));
  double label_w = 0;
  for (int i = 0; i < n; i++) {
    double tw = ms_draw_text_width (cr, ms_cache_state_name (rows[i].state), l.fs, FALSE);
    label_w = MAX (label_w, tw);
  }
  if (slide)
    label_w = MAX (label_w, ms_draw_text_width (cr, _ (one_name), l.fs, FALSE));
  /* A slide's names wrap to leave the axis and the figures room. */
  l.x0 = MIN (label_w + l.fs * 2.5, width * (slide ? 0.32 : 0.4));
  l.x1 = width - l.fs * 0.5;
  fit_rows (cr, &l, rows, n, label_w, width, h - l.fs * AXIS_H);
  double min, max;
  axis_range (rows, n, slide, &min, &max);
  l.figures_v = slide ? furthest_mark (rows, n, max) : 0;
  l.xs = (MsScale){ MS_SCALE_LINEAR, min, max, l.x0, axis_end (cr, &l, rows, n, min, max) };
  for (int i = 0; i < n; i++) {
    if (!row_drawn (rows, n, i, l.fold))
      continue;
    if (starts_group (rows, i)) {
      if (slide) {
        const char *name = memory_name (&rows[i]);
        double tw, th;
        ms_draw_text (cr, name, 0, 0, l.fs, -1, 0, TRUE, &tw, &th);
        ms_set_color (cr, &st->fg, 1);
        if (tw <= width - l.fs)
          ms_draw_text (cr, name, l.fs * 0.5, y + (l.line_h - th) / 2, l.fs, 0, 0, TRUE, NULL, NULL);
        else
          ms_draw_text_max (cr, name, l.fs * 0.5, y + (l.line_h - th) / 2, l.fs, width - l.fs);
      } else
        draw_group (cr, st, &l, &rows[i], y, width);
      y += l.line_h;
      /* Each group's band under its own bars: 1× is the group's. */
      double band_h = slide ? row_height (cr, &l, _ (one_name)) : 0;
      for (int k = i; k < n && (k == i || !starts_group (rows, k)); k++)
        band_h += row_height (cr, &l, state_name (rows, k, slide));
      draw_one (cr, st, &l, y, y + band_h);
      if (slide)
        y += draw_reference (cr, st, &l, &rows[i], y);
    }
    const char *name = state_name (rows, i, slide);
    double rh = row_height (cr, &l, name);
    g_autofree char *text = row_text (&rows[i], slide);
    draw_bar (cr, st, &l, &rows[i], name, text, y, rh);
    y += rh;
  }
  y = draw_axis (cr, st, &l, y) + l.fs * 0.3;
  if (untold && !slide_line_fits (cr, &l, untold, width, end - y)) {
    g_free (untold);
    untold = untold_text (rows, n, TRUE);
  }
  ms_set_color (cr, &st->fg, 1);
  /* Where not even that fits, one line, cut, if any. */
  if (untold && end - y < l.fs * 1.3)
    return y;
  if (untold && !slide_line_fits (cr, &l, untold, width, end - y)) {
    ms_draw_text_max (cr, untold, l.fs * 0.5, y, l.fs, width - l.fs);
    y += l.fs * 1.3;
  } else if (untold)
    y += ms_draw_text_wrapped (cr, untold, l.fs * 0.5, y, l.fs, width - l.fs, FALSE, TRUE);
  return y;
}

/* A slide's key: the largest size's pageable copies where the rows are of
 * a smaller one, every mark in plain words, and what "too noisy to say"
 * means for the ranges drawn; why the pageable copies are what they are
 * is the details' (a check at another size on another GPU was read as out
 * of place). */
static char *
slide_key (const MsResults *run, const MsCacheStateRow *rows, int n, int notes)
{
  /* The largest size's pageable copies first, where the rows are of a
   * smaller one: the contrast the lesson teaches (notes > 0). */
  char note[512], largest[384];
  /* Under a row that is slower where the CPU does not copy, what the GPU's
   * clock says of it: a class asked why, and the slide said nothing
   * (notes > 1); first, at the rows' size: after the note on the largest
   * size, its "50 µs more a repetition" was read as that size's. */
  if (notes < 2 || !ms_cache_state_engine_note (run, note, sizeof note))
    note[0] = '\0';
  if (notes > 0 && ms_cache_state_largest_note (run, largest, sizeof largest)) {
    if (note[0])
      g_strlcat (note, " ", sizeof note);
    g_strlcat (note, largest, sizeof note);
  }
  gboolean over_one = TRUE;
  for (int i = 0; i < n; i++)
    if (rows[i].judgement.verdict == MS_VERDICT_AMBIGUOUS)
      over_one = over_one && rows[i].judgement.lo < 1 && rows[i].judgement.hi > 1;
  /* TRANSLATORS: the cache-state slide's key, e.g. "... Within ±10%: the whole bar in the grey
   * band; too noisy (a hollow dot): the bar reaches out". Cached and uncached as the rows name
   * them: "a median over it" and "the true ratio" were read as statistics to teach first. */
  g_autofree char *key = g_strdup_printf (_ ("Dot: a memory's cached time over its uncached "
                                             "time (1×); bar: where that ratio lies, 95%% sure. "
                                             "Within ±%g%%: the whole bar in the grey band; too "
                                             "noisy (a hollow dot): the bar reaches out"),
                                          MS_COMPARE_DEFAULT_THRESHOLD_PCT);
  return g_strconcat (note, note[0] ? " " : "", key, over_one ? _ (" and past 1×") : "",
                      /* TRANSLATORS: the key's full stop. */
                      _ ("."), NULL);
}

static void
ms_picture_cache_state (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                        double height)
{
  const double fs = ms_style_font_size (style);
  MsCacheStateRow rows[MS_CACHE_STATE_MAX_ROWS];
  int n = ms_cache_state_rows (run, -1, rows, MS_CACHE_STATE_MAX_ROWS);
  ms_draw_background (cr, style);
  if (n == 0) {
    ms_picture_empty (cr, style, width, height,
                      _ ("The run has no state of the host's stores to compare with streamed "
                         "stores."));
    return;
  }
  /* A slide keeps the copies its takeaway is about, each memory's after
   * ordinary stores against its 1× (ms_cache_state_on_slide): the CPU's
   * check, a group measured against another reference, was read as a
   * fourth kind of copy; a larger view and the exports have them all. */
  gboolean slide = ms_draw_is_slide (style, height);
  int kept = 0;
  for (int i = 0; i < n; i++)
    if (!slide || ms_cache_state_on_slide (&rows[i]))
      rows[kept++] = rows[i];
  /* A run without ordinary stores: its other states rather than none. */
  n = kept ? kept : n;
  char size[32];
  ms_format_bytes (ms_exponent_bytes (rows[0].exponent), size, sizeof size);
  g_autofree char *title
      = slide
            /* TRANSLATORS: the cache-state slide's title, e.g. "A repetition
             * (a, b in, add, c out) at 4 MiB, its inputs written past the
             * CPU's cache (uncached: streaming stores) or into it (cached)".
             * A whole repetition, said: "a copy's time" was set beside the
             * duplex slide's single copy. How each row's inputs were
             * written, here once: in every row's name, "streaming stores"
             * and "ordinary stores" had a teacher explain the stores before
             * the cache. */
            ? g_strdup_printf (_ ("A repetition (a, b in, add, c out) at %s, its inputs written "
                                  "past the CPU's cache (uncached: streaming stores) or into it "
                                  "(cached)"),
                               size)
            : rows[n - 1].state != MS_CACHE_STATE_READ_WC
                  ? g_strdup_printf (_ ("Each copy's median time after the host's stores, as a "
                                        "multiple of the same memory after streamed stores, which "
                                        "skip the CPU cache (= 1×), %s per vector"),
                                     size)
                  : g_strdup_printf (
                      _ ("Each median time as a multiple of its group's first line "
                         "(= 1×), %s per vector; streamed stores skip the CPU cache"),
                      size);
  double th = ms_picture_title (cr, style, title, width);
  /* What the marks are, one kind for every row; the band names itself.
   * A slide says it in a line, a larger view (which draws the check) with
   * the rule. */
  g_autofree char *key
      = slide ? slide_key (run, rows, n, 2)
              : g_strdup_printf (_ ("Bars: each way's median time as a multiple of the first's "
                                  "(the check: its own time); lines across them: the ratio's "
                                  "95%% interval. A bar is pale and outlined where its interval "
                                  "crosses an edge of the shaded band: the run cannot tell it "
                                  "from 1×."));
  double kh = ms_draw_text_wrapped (cr, key, 0, 0, fs * 0.85, width - fs, FALSE, FALSE);
  double top = fs * 0.8 + th;
  /* The key only where the lines keep their text's full size; on a
   * slide too, whose whiskers went unkeyed (the band and a tick alone
   * name themselves over the bars). */
  if (!slide && height - top - kh - fs * 2.4 < fs * 1.4 * n_lines (rows, n, slide, FALSE))
    kh = 0;
  double bottom = draw_rows (cr, style, rows, n, width, top,
                             height - top - kh - fs * (slide ? 0.8 : 0.6), slide);
  /* Where the rows left it no room (a folded group's line wraps, or the
   * least picture of a slide), a slide's key without its notes, the last
   * first: what the marks are matters most. */
  for (int notes = 1; slide && kh > 0 && bottom + fs * 0.4 > height - kh - fs * 0.3 && notes >= 0;
       notes--) {
    g_free (key);
    key = slide_key (run, rows, n, notes);
    kh = ms_draw_text_wrapped (cr, key, 0, 0, fs * 0.85, width - fs, FALSE, FALSE);
  }
  if (kh <= 0 || bottom + fs * 0.4 > height - kh - fs * 0.3)
    return;
  /* Under the rows it explains, not at the foot of a tall picture. */
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text_wrapped (cr, key, fs * 0.5, bottom + fs * 0.4,
                        fs * 0.85, width - fs, FALSE, TRUE);
}

static const MsVariantWords words[] = {
  { "stores=streamed",
    N_ ("the host writes the inputs with streaming stores, past the CPU cache") },
  { "stores=ordinary",
    N_ ("the host writes the inputs with ordinary stores: dirty lines stay in the CPU cache") },
  { "stores=fresh", N_ ("pinned buffers allocated anew for every repetition") },
  { "stores=kept",
    N_ ("the inputs written before the first repetition only, then sent again as they are") },
  { "read=wc", N_ ("the result in write-combined host memory, meant not to be cached by the CPU") },
  { NULL },
};

const MsLessonLook ms_lesson_look_cache_state = {
  .picture = ms_picture_cache_state,
  .view = { NULL, NULL, MS_METRIC_H2D_BANDWIDTH, TRUE, FALSE },
  .words = words,
};
