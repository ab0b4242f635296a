/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-pin-payoff.c: the pin-payoff lesson's picture: the break-even
 * number of copies against the size, for pinned, registered and host-pool
 * memory against pageable memory with fresh pages (solid) and from a
 * reused heap (dotted): from that many copies on, the buffer's once-only
 * cost has come back. Sizes where it never comes back have no point; the
 * caption and a note under the chart name them. Beside it a table of what the break-evens rest on at
 * the largest size: getting and releasing each kind of buffer, one copy
 * from pageable and from pinned memory; under that, where there is room
 * and the run has its second part, a table against the share of the
 * host's memory held pinned (what one pinned allocation takes and how fast
 * a pageable copy runs), else its finding in a line under the chart. A
 * slide draws the headline's size alone as the register slide draws its
 * costs (draw_slide, ms_picture_cost_lines). */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-chart.h"
#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"

#define MAX_LEVELS 16

static MsChartData *
build (const MsResults *run)
{
  MsChartData *d = ms_chart_data_new ();
  d->title = g_strdup (
      _ ("Copies until pinning paid off, by size (fewer: sooner)"));
  /* A log axis says so: its even steps are factors. */
  d->x_label = g_strdup_printf (_ ("%s (log scale)"), _ ("bytes per buffer"));
  /* Short: the title says what is counted; a longer one was cut short
   * beside a short plot. */
  d->y_label = g_strdup (_ ("copies (N)"));
  d->y_kind = MS_SCALE_LOG10;
  d->fit_y = TRUE;
  d->direct_labels = TRUE;
  d->empty_text = g_strdup (_ ("The run has no size where pinned or registered memory pays "
                               "off against pageable."));
  /* Each line's colour is its kind's mode (a pool's memory is pinned: its
   * marker and label tell it from cudaMallocHost's); the dash says which
   * pageable buffer it is weighed against. */
  const struct {
    MsPinKind kind, base;
    const char *label;
  } lines[] = {
    /* Translators: a line of the pin-payoff chart: pinned memory weighed
     * against pageable memory that gets fresh pages every time. */
    { MS_PIN_PINNED, MS_PIN_PAGEABLE, N_ ("pinned vs fresh pageable") },
    /* Translators: pinned memory weighed against pageable memory from a
     * heap that has served the size before. */
    { MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, N_ ("pinned vs reused heap") },
    { MS_PIN_REGISTERED, MS_PIN_PAGEABLE, N_ ("registered vs fresh pageable") },
    /* Translators: a host memory pool that kept its memory, weighed
     * against pageable memory from a reused heap. */
    { MS_PIN_POOL_KEPT, MS_PIN_PAGEABLE_REUSED, N_ ("host pool (kept) vs reused heap") },
  };
  g_autoptr (GString) never = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++) {
    MsChartSeries *s = NULL;
    /* A line in its memory's colour; the host pool, pinned too, in one
     * of its own: three blue lines were one to a class. */
    MsMode mode = lines[i].kind == MS_PIN_POOL_KEPT ? MS_MODE_STREAMS
                                                    : ms_pin_payoff_kind_mode (lines[i].kind);
    guint dash = lines[i].base == MS_PIN_PAGEABLE ? 0 : 2;
    g_autoptr (GString) sizes = g_string_new (NULL);
    for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
      double n = 0;
      int found = ms_pin_payoff_break_even (run, lines[i].kind, lines[i].base, e, &n);
      if (found == 0) {
        char size[32];
        ms_format_size_label ((double) ms_exponent_bytes (e), size, sizeof size);
        g_string_append_printf (sizes, "%s%s", sizes->len ? ", " : "", size);
      }
      if (found != 1)
        continue;
      /* Caps past the marker: under it, the ring's "10" could not be checked. */
      if (!s && (s = ms_chart_data_add_series (d, _ (lines[i].label), mode, i, dash)))
        s->caps_out = TRUE;
      ms_chart_series_add (s, (double) ms_exponent_bytes (e), n, 1, 0, FALSE);
    }
    /* A gap in a line is a size where it never paid off: said under the
     * chart, or the gap reads as a size not measured. */
    if (sizes->len)
      g_string_append_printf (never, "%s%s: %s", never->len ? "; " : "", _ (lines[i].label),
                              sizes->str);
  }
  if (d->series->len)
    /* The points on it paid off within the first copy, or cost no more
     * from the start: "1" alone was read as exactly one; "N = 1: …" beside
     * the ringed "N = 1" read as a second label for one point. */
    ms_chart_data_add_ref (d, 1, _ ("1 copy or fewer"));
  if (never->len)
    /* Translators: under the pin-payoff chart; %s lists lines and their
     * sizes, e.g. "host pool (kept) vs reused heap: 64 KiB, 256 KiB". */
    d->foot_note = g_strdup_printf (_ ("No point: never paid off (its copies were not faster) at "
                                       "%s."),
                                    never->str);
  /* Translators: under the pin-payoff chart when the host memory pool
   * could not be measured; %s is the reason the run gives. */
  const char *no_pool = ms_pin_payoff_pool_missing (run);
  if (no_pool) {
    g_free (d->foot_note);
    d->foot_note = g_strdup_printf (_ ("No host pool line: %s"), no_pool);
  }
  return d;
}

/* The line of pinned memory against a reused heap, or NULL. */
static MsChartSeries *
reused_line (const MsChartData *d)
{
  for (guint i = 0; i < d->series->len; i++) {
    MsChartSeries *s = g_ptr_array_index (d->series, i);
    if (g_str_equal (s->label, _ ("pinned vs reused heap")))
      return s;
  }
  return NULL;
}

/* A ring on the first line, the one the takeaway quotes, at the one
 * figure it names: the smallest size from which every larger one paid off
 * after one copy. Its label names the size too: a class could not read
 * 4 MiB off a log axis ticked every 16; and a second ring on the most
 * copies, which the line does not name, drew the eye from it. */
static void
call_out_takeaway (const MsResults *run, MsChartData *d)
{
  if (d->series->len == 0)
    return;
  const MsChartSeries *s = g_ptr_array_index (d->series, 0);
  MsChartPoint *from = NULL;
  for (guint k = s->points->len; k-- > 0;) {
    MsChartPoint *p = &g_array_index (s->points, MsChartPoint, k);
    if (p->y > 1)
      break;
    from = p;
  }
  if (!from)
    return;
  /* Its size labelled on the axis: on the H200 the ring sat on an
   * unlabelled 4 MiB tick. */
  d->x_marks[0] = from->x;
  MsChartSeries *reused = reused_line (d);
  if (reused)
    reused->x_nudge = 0.25;
  MsChartPoint *at[2] = { from, NULL };
  for (guint k = 0; reused && k < reused->points->len; k++)
    if (g_array_index (reused->points, MsChartPoint, k).x == from->x)
      at[1] = &g_array_index (reused->points, MsChartPoint, k);
  /* Both rings' copies as the headline's dots, in the axis's N ("7–11
   * copies" covered a low slide's line); the spread as a bar (none where
   * open), the reused line's a little right, so that each bar stands
   * under its own marker (one above the other, they read as one). */
  int e = ms_exponent_of_elements ((guint64) from->x / sizeof (float));
  for (int i = 0; i < 2; i++) {
    char n[48];
    MsPinKind base = i ? MS_PIN_PAGEABLE_REUSED : MS_PIN_PAGEABLE;
    if (at[i] && ms_pin_payoff_copies (run, MS_PIN_PINNED, base, e, FALSE, FALSE, n, 48)) {
      g_autofree char *label = g_strdup_printf (_ ("N = %s"), n);
      ms_chart_data_add_callout (d, at[i]->x * exp2 (i ? reused->x_nudge : 0), at[i]->y, label);
      if (ms_pin_payoff_span (run, MS_PIN_PINNED, base, e, &at[i]->lo, &at[i]->hi)
          && isinf (at[i]->hi))
        at[i]->hi = 0;
    }
  }
}

/* The held part's buffer size: its cells' one size; 0 when none. */
static double
held_bytes (const MsResults *run)
{
  for (size_t i = 0; i < run->n_cells; i++)
    if (g_str_has_prefix (run->cells[i].variant, "held-permille="))
      return (double) ms_vector_bytes (run->cells[i].elements);
  return 0;
}

/* The largest change from the first share's value, as a fraction of it;
 * < 0 when there is nothing to compare. */
static double
largest_change (const MsPinHeld *lv, int n, gboolean alloc)
{
  double first = -1, change = -1;
  for (int i = 0; i < n; i++) {
    double v = alloc ? lv[i].alloc_us : lv[i].copy_gbps;
    if (!(v > 0))
      continue;
    if (first < 0)
      first = v;
    else
      change = MAX (change, fabs (v - first) / first);
  }
  return change;
}

/* The held part's finding in a sentence, the largest changes rounded up
 * ("at most" holds); NULL without two levels. */
static char *
held_takeaway (const MsPinHeld *lv, int n)
{
  double a = largest_change (lv, n, TRUE), c = largest_change (lv, n, FALSE);
  if (!(a >= 0) || !(c >= 0) || n < 2)
    return NULL;
  return g_strdup_printf (_ ("Up to %.3g%% held pinned, the allocation changed by at most %.0f%% "
                             "and the copy's rate by at most %.0f%% from none held."),
                          lv[n - 1].held_pct, ceil (a * 100 - 1e-9), ceil (c * 100 - 1e-9));
}

/* The second part as a table, a row per share of the host's memory held
 * pinned: one pinned allocation's time and a pageable copy's rate. Their
 * spread is a few per cent, which a colour scale would either hide or
 * blow up; the numbers say it. Then the largest change, in words. Centred
 * in width x height. Returns the height; only measured unless draw. */
static double
held_table (cairo_t *cr, const MsResults *run, const MsPinHeld *lv, int n, const MsChartStyle *st,
            double width, double y0, gboolean draw)
{
  /* At normal text size on a large canvas the table grows into its half
   * rather than sit small in the middle of it. */
  const double fs = MAX (ms_style_font_size (st), width / 55), x0 = fs, w = width - 2 * fs;
  const double col_w = w / 3, row_h = fs * 1.6;
  char size[32];
  ms_format_size_label (held_bytes (run), size, sizeof size);
  g_autofree char *title
      = g_strdup_printf (_ ("%s buffers while part of the host's memory is held pinned"), size);
  double y = y0;
  ms_set_color (cr, &st->fg, 0.95);
  y += ms_draw_text_wrapped (cr, title, x0, y, fs * 1.1, w, TRUE, draw) + fs * 0.5;
  const char *heads[3] = { _ ("share of host memory held pinned"), _ ("one pinned allocation"),
                           _ ("pageable copy") };
  double head_h = 0;
  ms_set_color (cr, &st->fg, 0.75);
  for (int k = 0; k < 3; k++) {
    double hh = ms_draw_text_wrapped (cr, heads[k], x0 + k * col_w, y, fs * 0.9, col_w - fs * 0.5,
                                      FALSE, draw);
    head_h = MAX (head_h, hh);
  }
  y += head_h + fs * 0.3;
  for (int i = 0; i < n; i++) {
    char cell[3][32];
    g_snprintf (cell[0], sizeof cell[0], "%.3g%%", lv[i].held_pct);
    g_strlcpy (cell[1], "–", sizeof cell[1]);
    g_strlcpy (cell[2], "–", sizeof cell[2]);
    if (lv[i].alloc_us > 0)
      ms_caption_time (lv[i].alloc_us, cell[1], sizeof cell[1]);
    if (lv[i].copy_gbps > 0)
      g_snprintf (cell[2], sizeof cell[2], _ ("%.3g GB/s"), lv[i].copy_gbps);
    if (draw && i % 2 == 0) {
      ms_set_color (cr, &st->fg, 0.06);
      cairo_rectangle (cr, x0 - fs * 0.3, y, w, row_h);
      cairo_fill (cr);
    }
    ms_set_color (cr, &st->fg, 0.95);
    for (int k = 0; k < 3 && draw; k++)
      ms_draw_text (cr, cell[k], x0 + k * col_w, y + row_h / 2, fs, 0, 0.5, k > 0, NULL, NULL);
    y += row_h;
  }
  g_autofree char *take = held_takeaway (lv, n);
  if (take) {
    y += fs * 0.5;
    ms_set_color (cr, &st->fg, 0.85);
    y += ms_draw_text_wrapped (cr, take, x0, y, fs, w, FALSE, draw);
  }
  return y - y0;
}

/* The largest size with pageable and pinned costs, -1 without. */
static int
costs_exponent (const MsResults *run)
{
  MsPinCost c;
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--)
    if (ms_pin_payoff_cost (run, MS_PIN_PAGEABLE, e, &c)
        && ms_pin_payoff_cost (run, MS_PIN_PINNED, e, &c))
      return e;
  return -1;
}

/* The costs table's rows: a heading, a kind's once-only cost each, a
 * heading, one copy from pageable and from pinned memory; label and value
 * each (a heading's value empty). Returns the count. */
static int
costs_rows (const MsResults *run, int e, char label[][64], char value[][32])
{
  static const MsPinKind once[] = { MS_PIN_PAGEABLE,   MS_PIN_PAGEABLE_REUSED, MS_PIN_PINNED,
                                    MS_PIN_REGISTERED, MS_PIN_POOL_FIRST,      MS_PIN_POOL_KEPT };
  static const MsPinKind copy[] = { MS_PIN_PAGEABLE, MS_PIN_PINNED };
  const char *copy_label[] = { _ ("from pageable memory"), _ ("from pinned memory") };
  char size[32];
  int n = 0;
  MsPinCost c;
  ms_format_size_label ((double) ms_exponent_bytes (e), size, sizeof size);
  /* TRANSLATORS: a heading of the pin-payoff picture's table; %s is a
   * size ("64 MiB"). */
  g_snprintf (label[n], 64, _ ("Get and release one %s buffer"), size);
  value[n++][0] = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (once); i++)
    if (ms_pin_payoff_cost (run, once[i], e, &c) && c.once_us > 0) {
      g_strlcpy (label[n], ms_pin_payoff_kind_label (once[i]), 64);
      ms_caption_time (c.once_us, value[n++], 32);
    }
  g_strlcpy (label[n], _ ("Copy it once to the device"), 64);
  value[n++][0] = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (copy); i++)
    if (ms_pin_payoff_cost (run, copy[i], e, &c) && c.copy_us > 0) {
      g_strlcpy (label[n], copy_label[i], 64);
      ms_caption_time (c.copy_us, value[n++], 32);
    }
  return n;
}

#define COST_ROWS 10

/* What the break-evens rest on, at the largest size: a row per kind
 * (getting and releasing one buffer) and per copy under their headings,
 * the values right-aligned at x + width. Returns the height; only
 * measures unless draw; *natural_w: the width it wants. */
static double
costs_table (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double x, double y0,
             double width, gboolean draw, double *natural_w)
{
  const double fs = ms_style_font_size (st), row_h = fs * 1.35;
  int e = costs_exponent (run);
  if (natural_w)
    *natural_w = 0;
  if (e < 0)
    return 0;
  char label[COST_ROWS][64], value[COST_ROWS][32];
  int n = costs_rows (run, e, label, value);
  double label_w = 0, value_w = 0, head_w = 0, tw;
  for (int i = 0; i < n; i++) {
    gboolean head = value[i][0] == '\0';
    ms_draw_text (cr, label[i], 0, 0, fs, -1, 0, head, &tw, NULL);
    if (head)
      head_w = MAX (head_w, tw);
    else
      label_w = MAX (label_w, tw);
    value_w = MAX (value_w, ms_draw_text_width (cr, value[i], fs, TRUE));
  }
  if (natural_w)
    *natural_w = MAX (label_w + fs + value_w, head_w);
  double y = y0;
  for (int i = 0, stripe = 0; i < n; i++) {
    if (value[i][0] == '\0') {
      ms_set_color (cr, &st->fg, 0.95);
      y += (i ? fs * 0.4 : 0);
      y += ms_draw_text_wrapped (cr, label[i], x, y, fs, width, TRUE, draw) + fs * 0.15;
      stripe = 0;
      continue;
    }
    if (draw) {
      if (stripe++ % 2 == 0) {
        ms_set_color (cr, &st->fg, 0.06);
        cairo_rectangle (cr, x - fs * 0.2, y, width + fs * 0.4, row_h);
        cairo_fill (cr);
      }
      ms_set_color (cr, &st->fg, 0.95);
      ms_draw_text_max (cr, label[i], x, y + (row_h - fs * 1.2) / 2, fs, width - value_w - fs);
      ms_draw_text (cr, value[i], x + width, y + row_h / 2, fs, 1, 0.5, TRUE, NULL, NULL);
    }
    y += row_h;
  }
  return y - y0;
}

/* The chart's key in the side column, a line per series in its colour,
 * dash and marker: below the chart its four rows took a third of the
 * chart's height at 1024x768. Returns the height; only measures unless
 * draw. */
static double
side_legend (cairo_t *cr, const MsChartData *d, const MsChartStyle *st, double x, double y0,
             double width, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  double y = y0, th = fs * 1.2;
  for (guint i = 0; i < d->series->len; i++) {
    const MsChartSeries *s = g_ptr_array_index (d->series, i);
    ms_draw_text (cr, s->label, 0, 0, fs, -1, 0, FALSE, NULL, &th);
    /* Wrapped where narrow (a handout's page): a key line holds its sum. */
    ms_set_color (cr, &st->fg, 0.95);
    double h = ms_draw_text_wrapped (cr, s->label, x + fs * 2.4, y, fs, width - fs * 2.4, FALSE,
                                     draw);
    if (draw) {
      MsColor c;
      ms_chart_palette_color (s->color, st->dark, &c);
      ms_chart_draw_sample (cr, st, &c, 1, TRUE, s->dash, s->shape, s->run, x, y + th / 2,
                            fs * 1.8, ms_style_marker_radius (st));
    }
    y += MAX (h, th) + th * 0.25;
  }
  return y - y0;
}

/* A slide: the takeaway's size alone, as the register slide weighs its
 * costs, the total time of n copies from one buffer of each kind, three
 * straight lines, with a mark where pinned memory's crosses each
 * pageable one. The by-size chart asked a class to take in two
 * baselines, rounding up and each N's spread at once (the larger view
 * and the details keep them). FALSE where the run lacks the size. */
static gboolean
draw_slide (cairo_t *cr, const MsResults *run, const MsChartStyle *st, double width,
            double height)
{
  const double fs = ms_style_font_size (st);
  int e = ms_pin_payoff_slide_exponent (run);
  MsPinCost c[3];
  const MsPinKind kinds[3] = { MS_PIN_PINNED, MS_PIN_PAGEABLE, MS_PIN_PAGEABLE_REUSED };
  for (int i = 0; i < 3; i++)
    if (e < 0 || !ms_pin_payoff_cost (run, kinds[i], e, &c[i]))
      return FALSE;
  MsCostLine l[3] = {
    { _ ("cudaMallocHost"), c[0].once_us, c[0].copy_us, MS_MODE_PINNED, FALSE, FALSE },
    /* Translators: the pin-payoff slide's line of malloc'd memory whose
     * pages are new (mapped as they are first written). */
    { _ ("malloc, new pages"), c[1].once_us, c[1].copy_us, MS_MODE_PAGEABLE, FALSE, FALSE },
    /* Translators: the line of malloc'd memory on pages freed before. */
    { _ ("malloc, reused pages"), c[2].once_us, c[2].copy_us, MS_MODE_PAGEABLE, TRUE, FALSE },
  };
  MsCostMark m[2];
  guint n_marks = 0;
  double most = 0;
  for (int i = 1; i < 3; i++) {
    double x = ms_pin_payoff_cross (run, MS_PIN_PINNED, kinds[i], e), whole = 0;
    if (!(x > 0) || ms_pin_payoff_break_even (run, MS_PIN_PINNED, kinds[i], e, &whole) != 1)
      continue;
    most = MAX (most, x);
    ms_picture_cost_cross (&m[n_marks++], x, (int)whole);
  }
  char size[32], drop[32];
  ms_format_size_label ((double) ms_exponent_bytes (e), size, sizeof size);
  int d = ms_pin_payoff_reused_drop (run, e);
  if (d >= 0)
    ms_format_size_label ((double) ms_exponent_bytes (d), drop, sizeof drop);
  /* Translators: the pin-payoff slide's title, e.g. "Get a 16 MiB buffer,
   * copy it to the device n times, free it: medians summed" (the lines'
   * dots read as measured totals without it); one line. */
  g_autofree char *title
      = g_strdup_printf (_ ("Get a %s buffer, copy it to the device n times, free it: medians "
                            "summed"),
                         size);
  /* What the two pageable lines are: "reused" left a class asking by
   * whom; where malloc stops reusing, from the run. */
  g_autofree char *what
      = d >= 0 ? g_strdup_printf (_ ("malloc maps new pages as they are first written, or hands "
                                     "back pages freed before (below %s here)."),
                                  drop)
               : g_strdup (_ ("malloc maps new pages as they are first written, or hands back "
                              "pages freed before."));
  /* Why its copies' rates are not slide 1's: without a word, a reader
   * found the copies' times against slide 1's unexplained; with the
   * rates and both setups here (five lines), teachers found the words too
   * small and too many to project. The rates are in Details where it
   * rings this size, as where both lines cross pinned memory's. */
  char rates[512] = "";
  if (n_marks == 2)
    g_snprintf (rates, sizeof rates,
                _ ("Per copy (× n): a buffer's first copy, timed just after it was written, "
                   "unlike slide %d's (rates in Details)."),
                ms_lesson_deck_number (MS_TOPIC_PINNED_PAGEABLE));
  /* The smaller sizes' answer, which the headline's size leaves out: a
   * class would take "1 copy" home for every buffer. */
  double most_n;
  int most_e = ms_pin_payoff_most_below (run, MS_PIN_PINNED, MS_PIN_PAGEABLE, e, &most_n);
  char most_size[32];
  if (most_e >= 0)
    ms_format_size_label ((double) ms_exponent_bytes (most_e), most_size, sizeof most_size);
  g_autoptr (GString) text = g_string_new (what);
  if (most_e >= 0 && most_n > 1) {
    g_string_append_c (text, ' ');
    /* Translators: on the pin-payoff slide, e.g. "Smaller buffers take
     * more copies: up to 162 against new pages (at 64 KiB)." */
    g_string_append_printf (text,
                            _ ("Smaller buffers take more copies: up to %.0f against new pages "
                               "(at %s)."),
                            most_n, most_size);
  }
  if (rates[0])
    g_string_append_printf (text, " %s", rates);
  ms_draw_background (cr, st);
  double y = fs * 0.5;
  ms_set_color (cr, &st->fg, 1);
  y += ms_draw_text_wrapped (cr, title, fs, y, fs * 1.05, width - 2 * fs, TRUE, TRUE) + fs * 0.3;
  /* In a low pane (beside the cards) the words the plot leaves room for:
   * all of them pushed the plot under its lines' names. */
  const char *said[] = { text->str, what, "" };
  guint k = 0;
  while (k < 2
         && height - y - ms_draw_text_wrapped (cr, said[k], fs, y, fs, width - 2 * fs, FALSE, FALSE)
                < fs * 14)
    k++;
  ms_set_color (cr, &st->fg, 0.85);
  y += ms_draw_text_wrapped (cr, said[k], fs, y, fs, width - 2 * fs, FALSE, TRUE) + fs * 0.4;
  /* Past the last crossing as far again, to a tick (0, 10, 16 read as
   * uneven). */
  double n_max = fmax (4, ceil (most * 2));
  n_max = n_max > 10 ? ceil (n_max / 10) * 10 : n_max;
  ms_picture_cost_lines (cr, st, l, 3, 0, n_max, TRUE, m, n_marks,
                         _ ("copies (n)"), width, y, height - fs);
  return TRUE;
}

static void
ms_picture_pin_payoff (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
                       double height)
{
  if (ms_draw_is_slide (style, height) && draw_slide (cr, run, style, width, height))
    return;
  g_autoptr (MsChartData) data = build (run);
  call_out_takeaway (run, data);
  const double fs = ms_style_font_size (style), pad = fs * 0.8;
  MsPinHeld lv[MAX_LEVELS];
  int n = ms_pin_payoff_held (run, lv, MAX_LEVELS);
  if (data->series->len == 0 && n == 0) {
    ms_picture_empty (cr, style, width, height, data->empty_text);
    return;
  }
  /* The chart, the lesson's finding, takes the height and most of the
   * width; the costs table its natural width beside it (or nothing on a
   * canvas too narrow for both); the held table under the costs where
   * the side has room for it, else its finding in a line under all
   * (unless the chart has a note). */
  double natural_w = 0;
  double costs_h = costs_table (cr, run, style, 0, 0, width, FALSE, &natural_w);
  /* The table where the picture has its width and height; a slide keeps
   * the chart alone (eight rows beside four lines asked too much of a
   * class): a larger view and the exports have it. */
  double side_w = natural_w > 0 && width >= fs * 40 && !ms_draw_is_slide (style, height)
                      && costs_h <= height - 2 * pad - fs * 3
                    ? MIN (natural_w, width * 0.45)
                    : 0;
  double held_w = width >= fs * 56 ? MAX (side_w, width / 2.6) : 0;
  double held_h = n > 0 && held_w > 0 ? held_table (cr, run, lv, n, style, held_w, 0, FALSE) : 0;
  /* Above the chart's note, which runs under the side too. */
  double note_h =
      data->foot_note ? ms_draw_note (cr, style, data->foot_note, 0, 0, width - fs, FALSE) : 0;
  gboolean held_beside = held_h > 0 && costs_h + fs + held_h <= height - pad - note_h - fs;
  if (held_beside)
    side_w = held_w;
  g_autofree char *take = NULL;
  double take_h = 0;
  /* One line under the whole picture, at its full width: the chart's
   * note (why points are missing) first, which under the chart alone was
   * left out where the chart was short; else the held part's finding
   * where its table has no room. */
  if (data->foot_note) {
    take = g_steal_pointer (&data->foot_note);
    take_h = ms_draw_note (cr, style, take, fs * 0.5, 0, width - fs, FALSE) + fs * 0.4;
  } else if (!held_beside && n > 0) {
    take = held_takeaway (lv, n);
    if (take)
      take_h = ms_draw_note (cr, style, take, fs * 0.5, 0, width - fs, FALSE) + fs * 0.4;
  }
  /* A slide's key under the chart: beside it, it took the width each
   * point's size label needs (256 KiB and 64 MiB went unlabelled). */
  double key_h = 0;
  if (ms_draw_is_slide (style, height) && data->series->len) {
    data->no_legend = TRUE;
    data->direct_labels = FALSE;
    key_h = side_legend (cr, data, style, 0, 0, width - fs, FALSE);
  }
  double chart_w = side_w > 0 ? round (width - side_w - 2 * pad) : width;
  double chart_h = round (height - take_h - key_h);
  /* The key beside the chart, under the costs, where the side has room. */
  double legend_h = side_w > 0 ? side_legend (cr, data, style, 0, 0, side_w, FALSE) : 0;
  double side_h = costs_h + (held_beside ? fs + held_h : 0);
  gboolean legend_beside = legend_h > 0 && side_h + fs + legend_h <= chart_h - pad;
  if (legend_beside) {
    data->no_legend = TRUE;
    data->direct_labels = FALSE;
    side_h += fs + legend_h;
  }
  ms_draw_background (cr, style);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, chart_w, chart_h);
  cairo_clip (cr);
  if (data->series->len)
    ms_chart_draw (cr, data, style, chart_w, chart_h, -1, NULL);
  else
    ms_picture_empty (cr, style, chart_w, chart_h, data->empty_text);
  cairo_restore (cr);
  if (key_h > 0)
    side_legend (cr, data, style, fs * 0.5, chart_h, width - fs, TRUE);
  if (take)
    ms_draw_note (cr, style, take, fs * 0.5, chart_h + key_h + fs * 0.2, width - fs, TRUE);
  if (side_w <= 0)
    return;
  double side_x = chart_w + pad, y = MAX (pad, (chart_h - side_h) / 2);
  y += costs_table (cr, run, style, side_x, y, side_w, TRUE, NULL) + fs;
  if (legend_beside)
    y += side_legend (cr, data, style, side_x, y, side_w, TRUE) + fs;
  if (!held_beside)
    return;
  cairo_save (cr);
  cairo_translate (cr, side_x - fs, y);
  held_table (cr, run, lv, n, style, side_w + 2 * fs, 0, TRUE);
  cairo_restore (cr);
}

const MsLessonLook ms_lesson_look_pin_payoff = {
  .picture = ms_picture_pin_payoff,
};
