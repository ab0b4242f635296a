/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-picture-implicit-sync.c: the implicit-synchronisation lesson's picture: the operations x
 * (stream kind, hardware queues) as a grid of verdicts, serial in a warm colour, overlap in a pale
 * cool one, unclear hatched, with each cell's time in kernel times where it fits, on a slide
 * grouped under the textbooks' list and the calls off it; a key that says what the words mean;
 * and, where there is room below, the timeline of one serialised cell's instrumented sample, where
 * the second kernel starts as the first ends. */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-lessons.h"
#include "ms-lesson-picture.h"
#include "ms-picture-parts.h"
#include "ms-timeline.h"

#define MAX_ROWS (MS_SYNC_OP_COUNT - MS_SYNC_OP_NONE)
/* The grid's fourth look: unclear by the host clock, yet the kernels' stamps show the call
 * returned only after the first kernel ended, so the two did not overlap. Hatched "unclear" there
 * left cudaFree, the implicit synchronisation students meet most, to a line of small print. */
#define LOOK_HELD ((MsSyncVerdict) (MS_SYNC_UNDECIDED + 1))

/* How op's cell in col is drawn: its verdict, or LOOK_HELD. */
static MsSyncVerdict
look_of (const MsResults *run, int op, int col, MsSyncJudged *j)
{
  MsSyncVerdict v = ms_implicit_sync_judge (run, (MsSyncOp) op, col, j);
  return ms_implicit_sync_held_past (j) ? LOOK_HELD : v;
}

static void
verdict_fill (cairo_t *cr, const MsChartStyle *style, MsSyncVerdict v)
{
  /* Held a yellow of its own: a paler orange than serial's was read as the same verdict. */
  static const MsColor serial = { 0.93, 0.45, 0.10, 1 }, overlap = { 0.25, 0.55, 0.90, 1 },
                       held = { 0.95, 0.80, 0.15, 1 };
  if (v == MS_SYNC_SERIALISED)
    ms_set_color (cr, &serial, style->dark ? 0.65 : 0.55);
  else if (v == LOOK_HELD)
    ms_set_color (cr, &held, style->dark ? 0.45 : 0.40);
  else if (v == MS_SYNC_OVERLAPPED)
    ms_set_color (cr, &overlap, style->dark ? 0.35 : 0.22);
  else
    ms_set_color (cr, &style->fg, 0.08);
}

/* A cell's box: its verdict's fill, hatched when unclear outside a slide. On a slide the hatched
 * rows drew the eye away from the calls that serialised; their word ("unclear") says it there. */
static void
draw_box (cairo_t *cr, const MsChartStyle *style, MsSyncVerdict v, double x, double y, double w,
          double h, gboolean slide)
{
  cairo_rectangle (cr, x, y, w, h);
  verdict_fill (cr, style, v);
  cairo_fill (cr);
  if (slide || (v != MS_SYNC_UNDECIDED && v != MS_SYNC_MISSING))
    return;
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  ms_set_color (cr, &style->fg, 0.25);
  cairo_set_line_width (cr, 1);
  for (double d = -h; d < w; d += 8) {
    cairo_move_to (cr, x + d, y + h);
    cairo_line_to (cr, x + d + h, y);
  }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static const char *
verdict_word (MsSyncVerdict v)
{
  /* "held" for the host's wait: "apart" beside "serial", both near 2×, needed a teacher to say
   * which side waited, and that both are no overlap. Short, as the cells of four columns keep
   * their figures. */
  return v == MS_SYNC_SERIALISED   ? _ ("serial")
         : v == MS_SYNC_OVERLAPPED ? _ ("overlap")
           /* TRANSLATORS: an implicit-sync cell where the call returned only after the first
            * kernel ended, so it held the host and the second kernel started late. */
         : v == LOOK_HELD          ? _ ("held")
         : v == MS_SYNC_UNDECIDED  ? _ ("unclear")
                                   : _ ("n/a");
}

/* A pair's time over one kernel's, of the two times as a slide writes
 * them: 644.6 ÷ 518 written "645 µs ÷ 518 µs = 1.24×" was checked as
 * 1.245. */
static double
times_as_written (const MsSyncJudged *j)
{
  double us = round (j->us), base = round (j->us / j->times);
  return base > 0 ? us / base : j->times;
}

/* A cell's words: its verdict, with where there is room the time it rests
 * on in kernel times: the pair's, or an unclear cell's call's own (the
 * pair's total says nothing there), so that the cut-offs can be checked
 * (on a slide with both times in µs: a ratio alone could not be). */
static void
cell_text (MsSyncVerdict v, const MsSyncJudged *j, gboolean numbers, gboolean slide, char *text,
           gsize len)
{
  gboolean timed = v == MS_SYNC_SERIALISED || v == MS_SYNC_OVERLAPPED || v == LOOK_HELD;
  if (numbers && slide && timed)
    g_snprintf (text, len, "%s %.0f µs ÷ %.0f µs = %.2f×", verdict_word (v), round (j->us),
                round (j->us / j->times), times_as_written (j));
  else if (numbers && timed)
    g_snprintf (text, len, "%s %.2f×", verdict_word (v), times_as_written (j));
  else if (numbers && v == MS_SYNC_UNDECIDED)
    /* TRANSLATORS: an unclear cell of the implicit-sync grid, the call's
     * own time in kernel times, e.g. "unclear: call 0.93×". */
    g_snprintf (text, len, _ ("%s: call %.2f×"), verdict_word (v), j->call_us * j->times / j->us);
  else
    g_snprintf (text, len, "%s", verdict_word (v));
}

/* Whether op serialised in some column; *one_queue: only in columns of
 * one hardware queue (the even ones). */
static gboolean
op_serialised (const MsResults *run, int op, gboolean *one_queue)
{
  gboolean any = FALSE;
  *one_queue = TRUE;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    MsSyncJudged j;
    if (ms_implicit_sync_judge (run, (MsSyncOp) op, col, &j) != MS_SYNC_SERIALISED)
      continue;
    any = TRUE;
    *one_queue = *one_queue && col % 2 == 0;
  }
  return any;
}

/* The rows the takeaway counts (ms_implicit_sync_counted), outlined. */
static gboolean
row_named (const MsResults *run, int op)
{
  return ms_implicit_sync_counted (run, (MsSyncOp) op);
}

/* Calls off the textbooks' list that serialised, in a line, with why
 * where it was on one hardware queue only: an orange row without a star
 * asked a question the slide did not answer. NULL: none. */
static char *
unlisted_note (const MsResults *run)
{
  g_autoptr (GString) names = g_string_new (NULL);
  gboolean all_one_queue = TRUE;
  for (int op = MS_SYNC_OP_NONE; op < MS_SYNC_OP_COUNT; op++) {
    gboolean one_queue;
    if (ms_implicit_sync_op_listed ((MsSyncOp) op) || !op_serialised (run, op, &one_queue))
      continue;
    all_one_queue = all_one_queue && one_queue;
    g_string_append_printf (names, "%s%s", names->len ? ", " : "",
                            _ (ms_implicit_sync_op_label ((MsSyncOp) op)));
  }
  if (!names->len)
    return NULL;
  /* TRANSLATORS: %s names calls ("cudaEventRecord"). */
  if (all_one_queue)
    return g_strdup_printf (_ ("Not on the list, %s serialised on 1 hardware queue only: on the "
                               "first kernel's stream it waits for that kernel, and the one queue "
                               "holds the second kernel behind it (a false dependency)."),
                            names->str);
  /* TRANSLATORS: %s names calls ("cudaEventRecord"). */
  return g_strdup_printf (_ ("Not on the list, %s serialised too."), names->str);
}

/* A row's group on a slide, in the order of the takeaway's counts: nothing between (0), the listed
 * calls that serialised (1), overlapped (2) or could not be told (3), then the calls off the list
 * the takeaway counts, which kept the kernels apart where the listed ones serialised (4); -1: left
 * out (cudaEventRecord's false dependency on one queue alone, beside a column of default queues,
 * drew the eye from the point). */
static int
row_group (const MsResults *run, int op)
{
  gboolean serial = FALSE, some_overlap = FALSE;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
    MsSyncJudged j;
    MsSyncVerdict v = ms_implicit_sync_judge (run, (MsSyncOp) op, col, &j);
    serial = serial || v == MS_SYNC_SERIALISED;
    some_overlap = some_overlap || v == MS_SYNC_OVERLAPPED;
  }
  if (op == MS_SYNC_OP_NONE)
    return 0;
  if (!ms_implicit_sync_op_listed ((MsSyncOp) op))
    return ms_implicit_sync_counted (run, (MsSyncOp) op) ? 4 : -1;
  return serial ? 1 : some_overlap ? 2 : 3;
}

/* What a subheading over a slide's row says. */
enum { SUB_NONE, SUB_LISTED, SUB_OFF_LIST };

typedef struct {
  double fs;      /* of every text in the grid */
  double label_w; /* the row labels' column */
  double line_h;  /* a line of the heads */
  double head_h, row_h, sub_h;
  gboolean numbers;       /* each cell's ratio after its word */
  gboolean one_line_heads; /* a slide's one column, its setting said in one line */
  gboolean slide;         /* grouped under subheadings, no stars */
  int ops[MAX_ROWS];      /* the rows drawn, in order */
  int subs[MAX_ROWS + 1]; /* the subheading over each row; the last: under them */
  int n_rows, n_subs;
  int cols[MS_SYNC_N_COLUMNS]; /* the columns drawn, in order */
  int n_cols;
} GridLook;

/* The columns to draw: all four; on a slide, where a listed call made the second kernel wait (the
 * takeaway's "on blocking streams"), a stream kind's default queues only where they are among
 * them. A slide of four columns under two levels of heads, "1 queue" explained in a corner, asked
 * a class to find the takeaway's column group; the details keep the grid whole. */
static void
shown_columns (const MsResults *run, gboolean slide, GridLook *g)
{
  gboolean serial[MS_SYNC_N_COLUMNS] = { FALSE }, any = FALSE;
  for (int op = MS_SYNC_OP_NONE; slide && op < MS_SYNC_OP_COUNT; op++)
    for (int col = 0; col < MS_SYNC_N_COLUMNS; col++) {
      MsSyncJudged j;
      if (ms_implicit_sync_op_listed ((MsSyncOp) op)
          && ms_implicit_sync_judge (run, (MsSyncOp) op, col, &j) == MS_SYNC_SERIALISED)
        any = serial[col] = TRUE;
    }
  g->n_cols = 0;
  for (int kind = 0; kind < 2; kind++) {
    int one = MS_SYNC_COLUMN (kind, 0), def = MS_SYNC_COLUMN (kind, 1);
    if (!any) {
      g->cols[g->n_cols++] = one;
      g->cols[g->n_cols++] = def;
    } else if (serial[def] || serial[one]) {
      g->cols[g->n_cols++] = serial[def] ? def : one;
    }
  }
}

/* The rows to draw: every call in the lesson's order, starred where listed; or on a slide the ones
 * the lesson is about, grouped as the takeaway counts them (row_group), so that "3 other listed
 * calls" are three rows together, under a subheading for the textbooks' list and one for the calls
 * off it (a star and its footnote said that in five lines under the grid). The calls off the list
 * the takeaway does not count are the larger view's: a count of them on the slide was read as
 * naming calls not drawn. */
static void
shown_rows (const MsResults *run, gboolean slide, int last_group, GridLook *g)
{
  g->n_rows = g->n_subs = 0;
  g->slide = slide;
  memset (g->subs, 0, sizeof g->subs);
  int last = 0;
  for (int group = slide ? 0 : -1; group <= (slide ? 4 : -1); group++)
    for (int op = MS_SYNC_OP_NONE; op < MS_SYNC_OP_COUNT; op++) {
      int in = slide ? row_group (run, op) : -1;
      if (in != group || in > last_group)
        continue;
      int sub = in >= 1 && in <= 3 && last < 1 ? SUB_LISTED
                : in == 4 && last < 4          ? SUB_OFF_LIST
                                               : SUB_NONE;
      g->subs[g->n_rows] = sub;
      g->n_subs += sub != SUB_NONE;
      g->ops[g->n_rows++] = op;
      last = MAX (last, in);
    }
}

static gboolean
verdict_drawn (const MsResults *run, const GridLook *g, MsSyncVerdict v)
{
  for (int i = 0; i < g->n_rows * g->n_cols; i++) {
    MsSyncJudged j;
    if (look_of (run, g->ops[i / g->n_cols], g->cols[i % g->n_cols], &j) == v)
      return TRUE;
  }
  return FALSE;
}

/* A slide's line for the calls off the list that serialised, or held the host past the first
 * kernel's end (unclear, by the stamps), in the columns it draws, which it has no room to draw as
 * rows, each with its figure (the first such column's): cudaFree's "unclear", in the Details
 * alone, was the implicit synchronisation teachers said their students meet most. NULL: none. */
static char *
slide_unlisted (const MsResults *run, const GridLook *g)
{
  g_autoptr (GString) serial = g_string_new (NULL), held = g_string_new (NULL);
  for (int op = MS_SYNC_OP_NONE; op < MS_SYNC_OP_COUNT; op++) {
    gboolean drawn = ms_implicit_sync_op_listed ((MsSyncOp) op);
    for (int i = 0; i < g->n_rows; i++)
      drawn = drawn || g->ops[i] == op;
    for (int c = 0; c < g->n_cols && !drawn; c++) {
      MsSyncJudged j;
      MsSyncVerdict v = ms_implicit_sync_judge (run, (MsSyncOp) op, g->cols[c], &j);
      GString *to = v == MS_SYNC_SERIALISED                          ? serial
                    : ms_implicit_sync_held_past (&j) ? held
                                                      : NULL;
      if (!to)
        continue;
      g_string_append_printf (to, "%s%s %.2f×", to->len ? _ (", ") : "",
                              _ (ms_implicit_sync_op_label ((MsSyncOp) op)), j.times);
      drawn = TRUE;
    }
  }
  if (!serial->len && !held->len)
    return NULL;
  /* TRANSLATORS: on the implicit-sync slide, %s names calls with their figures ("cudaFree
   * 2.05×, cudaFreeHost 1.99×"). */
  g_autofree char *h = held->len ? g_strdup_printf (_ ("not on the list: %s returned only after "
                                                       "the first kernel ended, so the two did not "
                                                       "overlap (waiting for it, or slow itself: "
                                                       "this run cannot tell)"),
                                                    held->str)
                                 : NULL;
  /* TRANSLATORS: the same for calls that serialised. */
  g_autofree char *sr = serial->len ? g_strdup_printf (_ ("not on the list, yet serial: %s"),
                                                       serial->str)
                                    : NULL;
  return g_strjoin ("; ", sr ? sr : h, sr ? h : NULL, NULL);
}

/* The key's overlap entry, with the overlapped cell furthest from 1× said as what it is:
 * cudaMalloc's 1.24×, "overlap" by the rule alone, had a class ask whether it partly waited.
 * Free it. */
static char *
overlap_key (const MsResults *run, const GridLook *g, const MsSyncJudged *alone)
{
  MsSyncJudged j, most = { .times = 0 };
  int most_op = -1;
  for (int i = 0; i < g->n_rows * g->n_cols; i++)
    if (ms_implicit_sync_judge (run, g->ops[i / g->n_cols], g->cols[i % g->n_cols], &j)
            == MS_SYNC_OVERLAPPED
        && j.times > MAX (most.times, 1.1))
      most = j, most_op = g->ops[i / g->n_cols];
  if (most_op < 0)
    return g_strdup (_ ("overlap: they ran together"));
  char extra[32];
  /* TRANSLATORS: the implicit-sync key's overlap entry where a cell lies well above 1×, e.g.
   * "overlap: they ran together; cudaMalloc's 1.24×: 127 µs more than one kernel, mostly
   * overlapped". */
  return g_strdup_printf (_ ("overlap: they ran together; %s's %.2f×: %s more than one kernel, "
                             "mostly overlapped"),
                          ms_implicit_sync_op_label ((MsSyncOp) most_op), times_as_written (&most),
                          ms_caption_time (most.us - alone->us, extra, sizeof extra));
}

/* The key: each verdict's box and what it means, then outside a slide the star, a call off the
 * list that serialised and what blocking streams wait for, flowing over lines from (x, y) to
 * right; returns the height. Only measures when draw is FALSE. */
static double
draw_key (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double x, double y,
          double right, double fs, gboolean terms, const GridLook *g, gboolean draw)
{
  const gboolean slide = g->slide;
  /* One cut-off, in the Details' words: each cell's own limit, halfway between overlapped and
   * serial, read as a range where one was looked for. */
  MsSyncJudged alone;
  ms_implicit_sync_judge (run, MS_SYNC_OP_ALONE, g->cols[0], &alone);
  char kernel[32];
  /* TRANSLATORS: the implicit-sync key's first line, e.g. "... one kernel's time (501 µs) ...". */
  /* A slide's rule is over its cells: its key keeps the line for what "legacy" means. */
  g_autofree char *serial
      = slide ? g_strdup (_ ("serial: the GPU ran the second kernel after the first"))
              : g_strdup_printf (_ ("serial: the second kernel waited; the pair took nearer 2× one "
                                    "kernel's time (%s) than 1×"),
                                 ms_caption_time (alone.us, kernel, sizeof kernel));
  g_autofree char *overlap = overlap_key (run, g, &alone);
  g_autofree char *unclear = g_strdup_printf (_ ("unclear: the call itself held the CPU for over "
                                                 "%.0f%% of a kernel, so this way cannot see if it "
                                                 "serialised"),
                                              100 * MS_SYNC_UNDECIDED_CALL_SHARE);
  /* A slide keeps the colour key alone: its subheadings say which calls the textbooks list, the
   * header what one queue is; the prose (why a call off the list serialised, what blocking streams
   * wait for) is the larger view's. */
  /* A slide's goes with the terms where room is short: the colour key first. */
  g_autofree char *unlisted = !slide ? unlisted_note (run) : terms ? slide_unlisted (run, g) : NULL;
  /* Why, where the run cannot say: "serial" for these would call any call longer than a kernel a
   * synchronisation. */
  const char *held = _ ("held: the call held the host until the first kernel ended (waiting "
                        "for it, or slow itself)");
  /* The outlines said on a slide too: unexplained, a class looked for what they meant. Beside
   * serial there, where a line holds both. */
  const char *outlined = slide ? _ ("outlined: the calls the headline counts")
                               : _ ("*: on the textbooks' list of calls that serialise; "
                                    "outlined: those the line above names");
  /* Each item, with the verdict whose box it keys (-1: none); the last two are the terms. */
  const struct {
    const char *text;
    int look;
  } items[] = {
    { serial, MS_SYNC_SERIALISED },
    { slide ? outlined : "", -1 },
    { overlap, MS_SYNC_OVERLAPPED },
    { held, LOOK_HELD },
    { unclear, MS_SYNC_UNDECIDED },
    /* The cells' figure, unexplained, had a teacher gloss it; a slide's column header says it
     * (its key ran to seven lines). */
    { g->numbers && terms && !slide ? _ ("×: the pair's time in one kernel's times (1×: they "
                                         "overlapped; 2×: one after the other)")
                                    : "",
      -1 },
    { slide ? "" : outlined, -1 },
    { unlisted ? unlisted : "", -1 },
    /* On a slide too: "legacy" went unexplained there. */
    { _ ("legacy stream: the default stream, which blocking streams wait for"), -1 },
    /* A term every column head uses, and another slide's one queue a setting, not a
     * contradiction; a slide's comes after issue-order's, which says it. */
    { slide ? "" : _ ("hardware queue: a lane of streams' work into the GPU; several by default"),
      -1 },
  };
  double cx = x, cy = y, th = fs * 1.2, tw;
  /* terms: with what the columns' words mean, where there is room; no verdict no cell shows. */
  for (guint i = 0; i < G_N_ELEMENTS (items) - 2 * !terms; i++) {
    const char *text = items[i].text;
    if (!text[0] || (items[i].look >= 0 && !verdict_drawn (run, g, items[i].look)))
      continue;
    double box = items[i].look >= 0 ? fs * 1.4 : 0;
    ms_draw_text (cr, text, 0, 0, fs, -1, 0, FALSE, &tw, &th);
    /* An item wider than the line wraps within its own column. */
    double w = MIN (tw, right - x - box);
    if (cx > x && cx + box + w > right) {
      cx = x;
      cy += th * 1.15;
    }
    double h = ms_draw_text_wrapped (cr, text, 0, 0, fs, right - cx - box, FALSE, FALSE);
    if (draw) {
      if (box > 0)
        draw_box (cr, style, (MsSyncVerdict) items[i].look, cx, cy + th * 0.15, fs, th * 0.7,
                  slide);
      ms_set_color (cr, &style->fg, 1);
      ms_draw_text_wrapped (cr, text, cx + box, cy, fs, right - cx - box, FALSE, TRUE);
    }
    if (h > th * 1.5) {
      cx = x;
      cy += h - th + th * 1.15;
    } else {
      cx += box + w + fs * 1.2;
    }
  }
  return cy + th - y;
}


/* A row's label: the call, starred where the textbooks list it (the takeaway speaks of those)
 * outside a slide, whose subheadings say it. Free it. */
static char *
row_label (const GridLook *g, int op)
{
  const char *name = _ (ms_implicit_sync_op_label ((MsSyncOp) op));
  /* TRANSLATORS: a row of the implicit-sync grid whose call the textbooks
   * list as one that serialises, e.g. "cudaMemset *". */
  return ms_implicit_sync_op_listed ((MsSyncOp) op) && !g->slide
             ? g_strdup_printf (_ ("%s *"), name)
             : g_strdup (name);
}

/* A slide's one column of blocking streams on the default queues, its setting in one line. */
static const char *
one_line_setting (void)
{
  return _ ("all cells: blocking streams (no cudaStreamNonBlocking), several hardware queues as "
            "by default");
}

/* The grid's look for width: the row labels' width, and whether the
 * cells have room for their ratios. */
static void
grid_look (cairo_t *cr, const MsResults *run, double fs, double width, GridLook *g)
{
  double tw, th = fs * 1.2, cell_w = 0;
  g->fs = fs;
  g->label_w = 0;
  for (int i = 0; i < g->n_rows; i++) {
    int op = g->ops[i];
    g_autofree char *label = row_label (g, op);
    /* In bold: the takeaway's rows are. */
    ms_draw_text (cr, label, 0, 0, fs, -1, 0, TRUE, &tw, &th);
    g->label_w = MAX (g->label_w, tw);
    for (int c = 0; c < g->n_cols; c++) {
      MsSyncJudged j;
      MsSyncVerdict v = look_of (run, op, g->cols[c], &j);
      char text[64];
      cell_text (v, &j, TRUE, g->slide, text, sizeof text);
      cell_w = MAX (cell_w, ms_draw_text_width (cr, text, ms_draw_figure_size (cr, fs), FALSE));
    }
  }
  /* Room for the corner's variable over the labels (draw_corner): held
   * at a slide's least text, it cannot shrink into a narrower column. */
  ms_draw_text (cr, "CUDA_DEVICE_MAX_CONNECTIONS=1", 0, 0, fs * 0.85, -1, 0, FALSE, &tw, NULL);
  if (g->n_cols == MS_SYNC_N_COLUMNS)
    g->label_w = MAX (g->label_w, tw);
  g->label_w = MIN (g->label_w, width * 0.42);
  /* Each cell's time where it fits: the verdicts alone could not be
   * checked against their cut-offs. */
  g->numbers = (width - g->label_w - fs) / g->n_cols >= cell_w + fs;
  /* Two lines of heads either way: fewer columns say what their stream kind is (draw_heads). */
  g->line_h = th;
  g->one_line_heads = g->slide && g->n_cols == 1 && g->cols[0] == 1
                      && ms_draw_text_width (cr, one_line_setting (), fs * 0.9, FALSE) <= width;
  g->head_h = th * (g->one_line_heads                                 ? 2.2
                    : g->slide && g->n_cols < MS_SYNC_N_COLUMNS ? 3.2
                                                                  : 2.1);
  ms_draw_text (cr, "1×", 0, 0, ms_draw_figure_size (cr, fs), -1, 0, TRUE, NULL, &tw);
  g->row_h = MAX (th, g->numbers ? tw : 0) * 1.05;
  g->sub_h = th * 1.25;
}

/* The grid's height: its heads, rows and subheadings. */
static double
grid_height (const GridLook *g)
{
  return g->head_h + g->n_rows * g->row_h + g->n_subs * g->sub_h;
}

/* Over the row labels, level with the heads: what the one queue's
 * columns set, in the heads' own words, in the size the corner has room
 * for (a line under the grid said it, apart from the words it explains). */
static void
draw_corner (cairo_t *cr, const MsChartStyle *style, const GridLook *g, const char *queue, double x,
             double right, double y)
{
  g_autofree char *name = g_strdup_printf (_ ("%s:"), queue);
  const char *var = "CUDA_DEVICE_MAX_CONNECTIONS=1";
  double w1, w2, th = g->line_h;
  double fs = g->fs * 0.85;
  ms_draw_text (cr, name, 0, 0, fs, -1, 0, FALSE, &w1, NULL);
  ms_draw_text (cr, var, 0, 0, fs, -1, 0, FALSE, &w2, NULL);
  /* Measured at the size drawn, a slide's least text at the least. */
  double scale = MIN (1, (right - x) / MAX (w1, w2));
  /* Where it fits only smaller than a slide's least text, it is left to
   * the details: drawn at that size it ran over the column heads. */
  if (scale < 1 && fs * scale < ms_draw_get_least_text (cr))
    return;
  fs *= scale;
  ms_set_color (cr, &style->fg, 0.7);
  ms_draw_text (cr, name, x, y + th * 0.1, fs, 0, 0, FALSE, NULL, NULL);
  ms_draw_text (cr, var, x, y + th * 1.15, fs, 0, 0, FALSE, NULL, NULL);
}

/* A slide's rule over its cells, its line at y: in the key alone, 1.24× "overlap" went
 * unexplained. Over the cells, else from the labels' edge: the short rule alone, a figure by its
 * size, was under what a back row reads. "No overlap", not "serial": "apart" cells near 2× read
 * as breaking a rule that named serial alone; the key says which of the two. */
static void
draw_rule (cairo_t *cr, const GridLook *g, double x, double x0, double col_w, double y)
{
  const char *rule = _ ("each cell: the pair's time ÷ one kernel's; nearer 2× than 1×: no "
                        "overlap");
  double rule_w = ms_draw_text_width (cr, rule, g->fs * 0.9, FALSE), right = x0 + col_w * g->n_cols;
  double at = rule_w <= col_w * g->n_cols ? x0 + col_w * g->n_cols / 2 - rule_w / 2
                                          : MAX (x, right - rule_w);
  if (g->slide && rule_w <= right - x)
    ms_draw_text (cr, rule, at, y, g->fs * 0.9, 0, 0, FALSE, NULL, NULL);
}

/* Stream kinds over pairs of columns, their queues under them, one size;
 * in the corner from x what one queue is. */
static void
draw_heads (cairo_t *cr, const MsChartStyle *style, const GridLook *g, double x, double x0,
            double col_w, double y)
{
  const char *kinds[] = { _ ("blocking streams"), _ ("non-blocking streams") };
  /* "hardware" in both: a class read "default queues" as the default stream's; "several", as
   * issue-order says it: "default" alone was never defined. */
  const char *queues[] = { _ ("1 hardware queue"), _ ("several hardware queues, as by default") };
  const char *kinds_short[] = { C_ ("streams", "blocking"), C_ ("streams", "non-blocking") };
  const char *queues_short[] = { C_ ("queues", "1 queue"), C_ ("queues", "default") };
  double th = g->line_h, tw, widest = 0;
  if (g->n_cols < MS_SYNC_N_COLUMNS) {
    ms_set_color (cr, &style->fg, 0.9);
    for (int c = 0; c < g->n_cols; c++) {
      /* What a blocking stream is, where the column has room for it on
       * two lines: "blocking" read as streams that block the host. */
      const char *kind = g->cols[c] < 2 ? _ ("blocking streams: ordinary ones, no "
                                             "cudaStreamNonBlocking")
                                        : _ ("non-blocking streams: made with "
                                             "cudaStreamNonBlocking");
      const char *queue = queues[g->cols[c] % 2];
      /* One column: one setting, said as one (two lines read as two of several conditions),
       * in one line across the grid where it fits, which leaves the key a line for "legacy". */
      if (g->n_cols == 1 && g->cols[c] == 1) {
        if (g->one_line_heads) {
          ms_draw_text (cr, one_line_setting (), x0 + col_w * g->n_cols, y, g->fs * 0.9, 1, 0,
                        FALSE, NULL, NULL);
          draw_rule (cr, g, x, x0, col_w, y + th * 1.05);
          return;
        }
        kind = _ ("all cells: blocking streams, no cudaStreamNonBlocking");
        queue = _ ("on several hardware queues, as by default");
      }
      double kw = ms_draw_text_width (cr, kind, g->fs * 0.9, FALSE);
      double qw = ms_draw_text_width (cr, queue, g->fs, TRUE);
      if (MAX (kw, qw) + g->fs * 0.6 <= col_w) {
        ms_draw_text (cr, kind, x0 + col_w * (c + 0.5), y, g->fs * 0.9, 0.5, 0, FALSE, NULL,
                      NULL);
        ms_draw_text (cr, queue, x0 + col_w * (c + 0.5), y + th, g->fs, 0.5, 0, TRUE, NULL,
                      NULL);
      } else
        ms_draw_text (cr, ms_implicit_sync_column_label (g->cols[c]), x0 + col_w * (c + 0.5), y,
                      g->fs, 0.5, 0, TRUE, NULL, NULL);
    }
    draw_rule (cr, g, x, x0, col_w, y + th * 2.1);
    return;
  }
  /* The plain words where they fit over their columns, else the key's short names. */
  for (int k = 0; k < 2; k++) {
    widest = MAX (widest, ms_draw_text_width (cr, queues[k], g->fs, FALSE));
    ms_draw_text (cr, kinds[k], 0, 0, g->fs, -1, 0, TRUE, &tw, NULL);
    widest = MAX (widest, tw / 2);
  }
  if (widest + g->fs * 0.6 > col_w) {
    memcpy (kinds, kinds_short, sizeof kinds);
    memcpy (queues, queues_short, sizeof queues);
  }
  for (int k = 0; k < 2; k++) {
    double cx = x0 + col_w * (2 * k + 1);
    ms_set_color (cr, &style->fg, 0.9);
    ms_draw_text (cr, kinds[k], cx, y, g->fs, 0.5, 0, TRUE, NULL, NULL);
    ms_set_color (cr, &style->fg, 0.3);
    ms_draw_line (cr, 1, x0 + col_w * 2 * k + 4, round (y + th * 1.02) + 0.5,
                  x0 + col_w * (2 * k + 2) - 4, round (y + th * 1.02) + 0.5);
    for (int q = 0; q < 2; q++) {
      ms_set_color (cr, &style->fg, 0.8);
      ms_draw_text (cr, queues[q], x0 + col_w * (2 * k + q + 0.5), y + th * 1.1, g->fs, 0.5, 0,
                    FALSE, NULL, NULL);
    }
  }
  draw_corner (cr, style, g, queues[0], x, x0 - g->fs * 0.6, y);
}

/* A subheading over a slide's rows, ruled across the grid: the textbooks' list, or the calls off
 * it. */
static void
draw_sub (cairo_t *cr, const MsChartStyle *style, const GridLook *g, int sub, double x,
          double width, double y)
{
  /* Plainly why a listed call may overlap or be unclear here, where that
   * fits (a narrow pane keeps the list's name alone). */
  const char *name = sub == SUB_LISTED ? _ ("On the CUDA C Programming Guide's list of calls "
                                            "that serialise: not all did here")
                                       : _ ("Not on the Guide's list");
  if (sub == SUB_LISTED && x + ms_draw_text_width (cr, name, g->fs * 0.9, TRUE) > width)
    name = _ ("On the textbooks' list of calls that serialise");
  double th;
  ms_draw_text (cr, name, 0, 0, g->fs * 0.9, -1, 0, TRUE, NULL, &th);
  double ty = y + g->sub_h - th * 1.05;
  ms_set_color (cr, &style->fg, 0.35);
  ms_draw_line (cr, 1, x, round (y + g->sub_h * 0.12) + 0.5, width,
                round (y + g->sub_h * 0.12) + 0.5);
  ms_set_color (cr, &style->fg, 0.8);
  ms_draw_text (cr, name, x, ty, g->fs * 0.9, 0, 0, TRUE, NULL, NULL);
}

static void
draw_row (cairo_t *cr, const MsResults *run, const MsChartStyle *style, const GridLook *g, int op,
          double x, double x0, double col_w, double cy, double width)
{
  ms_set_color (cr, &style->fg, 0.9);
  /* Level with the cells' words, which sit in the middle of a row that grows with the room. */
  g_autofree char *label = row_label (g, op);
  double ly = cy + MAX (0, (g->row_h - g->line_h) / 2);
  /* The takeaway's rows, label and cells, outlined, their calls in bold: the three rows the line
   * names among fourteen; in regular weight where bold is wider than the label column (the lesson
   * pane), and the outline says it. */
  gboolean named = row_named (run, op);
  if (named && ms_draw_text_width (cr, label, g->fs, TRUE) <= g->label_w)
    ms_draw_text (cr, label, x, ly, g->fs, 0, 0, TRUE, NULL, NULL);
  else
    ms_draw_text_max (cr, label, x, ly, g->fs, g->label_w);
  if (named) {
    ms_set_color (cr, &style->fg, 0.9);
    cairo_set_line_width (cr, MAX (2, g->fs * 0.15));
    cairo_rectangle (cr, x - g->fs * 0.25, cy, width - x + g->fs * 0.2, g->row_h);
    cairo_stroke (cr);
  }
  for (int c = 0; c < g->n_cols; c++) {
    MsSyncJudged j;
    MsSyncVerdict v = look_of (run, op, g->cols[c], &j);
    double bx = x0 + c * col_w;
    draw_box (cr, style, v, bx + 1, cy + 1, col_w - 2, g->row_h - 2, g->slide);
    char text[64];
    cell_text (v, &j, g->numbers, g->slide, text, sizeof text);
    ms_set_color (cr, &style->fg, v == MS_SYNC_UNDECIDED || v == MS_SYNC_MISSING ? 0.75 : 1);
    ms_draw_text (cr, text, bx + col_w / 2, cy + g->row_h / 2,
                  g->numbers ? ms_draw_figure_size (cr, g->fs) : g->fs, 0.5, 0.5,
                  v == MS_SYNC_SERIALISED, NULL, NULL);
  }
}

static void
draw_grid (cairo_t *cr, const MsResults *run, const MsChartStyle *style, const GridLook *g,
           double x, double y, double width)
{
  double x0 = x + g->label_w + g->fs * 0.6, col_w = (width - x0 - g->fs * 0.3) / g->n_cols;
  draw_heads (cr, style, g, x, x0, col_w, y);
  y += g->head_h;
  /* A rule under the heads, the corner's too: without it the corner's key for one queue sat where
   * a row's label would and read as part of the first row's. */
  ms_set_color (cr, &style->fg, 0.35);
  ms_draw_line (cr, 1, x, round (y) - 0.5, width, round (y) - 0.5);
  for (int i = 0; i <= g->n_rows; i++) {
    if (g->subs[i] != SUB_NONE) {
      draw_sub (cr, style, g, g->subs[i], x, width, y);
      y += g->sub_h;
    }
    if (i == g->n_rows)
      break;
    draw_row (cr, run, style, g, g->ops[i], x, x0, col_w, y, width);
    y += g->row_h;
  }
}

/* The cell whose timeline teaches most: a serialised cudaMalloc on blocking streams if there is
 * one, else the first serialised cell, else nothing between the kernels. */
static const MsCell *
pick_cell (const MsResults *run, MsSyncOp *op_out, int *col_out)
{
  MsSyncJudged j;
  int best_op = -1, best_col = 0;
  if (ms_implicit_sync_judge (run, MS_SYNC_OP_MALLOC, 1, &j) == MS_SYNC_SERIALISED)
    best_op = MS_SYNC_OP_MALLOC, best_col = 1;
  for (int op = MS_SYNC_OP_MALLOC; op < MS_SYNC_OP_COUNT && best_op < 0; op++)
    for (int col = 0; col < MS_SYNC_N_COLUMNS && best_op < 0; col++)
      if (ms_implicit_sync_judge (run, (MsSyncOp)op, col, &j) == MS_SYNC_SERIALISED)
        best_op = op, best_col = col;
  if (best_op < 0)
    best_op = MS_SYNC_OP_NONE, best_col = 1;
  char v[MS_VARIANT_LEN];
  ms_implicit_sync_variant (v, sizeof v, (MsSyncOp)best_op, best_col >= 2, best_col % 2);
  *op_out = (MsSyncOp)best_op;
  *col_out = best_col;
  return ms_picture_cell (run, v);
}

static void
draw_timeline (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double width,
               double height)
{
  MsSyncOp op;
  int col;
  const MsCell *cell = pick_cell (run, &op, &col);
  g_autofree char *title
      = g_strdup_printf (_ ("Timeline of one instrumented sample: %s, %s"),
                         _ (ms_implicit_sync_op_label (op)), ms_implicit_sync_column_label (col));
  double extent = cell ? ms_timeline_extent (cell, 0) : 0;
  if (!(extent > 0)) {
    ms_timeline_draw_message (cr, style, width, height, title,
                              _ ("This cell has no instrumented sample to draw."));
    return;
  }
  MsTimeWindow win;
  ms_time_window_reset (&win, extent);
  ms_time_window_end_after (&win, extent);
  ms_timeline_draw (cr, cell, 0, &win, style, width, height, title, NULL);
}

/* The grid's look and the key's size at the largest scale of fs, from 1 down to least, at which
 * both fit room: the key in the grid's size, else at nine tenths of it, with its line that says
 * what the columns' words mean; without that line, where bare is, when neither fits. FALSE when
 * none does (fit then holds the last tried). */
typedef struct {
  GridLook g;
  double grid_h, key_h, key_fs;
  gboolean terms;
} Fit;

static gboolean
fit_grid (cairo_t *cr, const MsResults *run, const MsChartStyle *style, double fs, double pad,
          double width, double room, double least, gboolean bare, Fit *fit)
{
  static const struct {
    double key_scale;
    gboolean terms;
  } keys[] = { { 1, TRUE }, { 0.9, TRUE }, { 1, FALSE } };
  for (double scale = 1; scale > least - 0.01; scale -= 0.05) {
    grid_look (cr, run, fs * scale, width - 2 * pad, &fit->g);
    fit->grid_h = grid_height (&fit->g);
    for (guint k = 0; k < G_N_ELEMENTS (keys) - !bare; k++) {
      fit->key_fs = fs * scale * keys[k].key_scale;
      fit->terms = keys[k].terms;
      fit->key_h = draw_key (cr, run, style, pad, 0, width - pad, fit->key_fs, fit->terms,
                             &fit->g, FALSE);
      if (pad * 2 + fit->grid_h + fs * 0.4 + fit->key_h <= room)
        return TRUE;
    }
  }
  return FALSE;
}

static void
ms_picture_implicit_sync (cairo_t *cr, const MsResults *run, const MsChartStyle *style,
                          double width, double height)
{
  /* On a large canvas at normal text size the text grows with it: the
   * cells' words were 7 px at 1600x1000. */
  double fs = MAX (ms_style_font_size (style), MIN (width / 85, height / 52)), pad = fs * 0.5;
  ms_draw_background (cr, style);
  const char *title = _ ("Two kernels on two streams, one call between their launches: did the "
                         "second wait?");
  double title_h = ms_draw_text_wrapped (cr, title, 0, 0, fs, width - 2 * pad, TRUE, FALSE);
  /* The grid and the key in the text's own size, to be read from the back of the room (the card's
   * words; at 1024x768 projected the cells' were 12 px), with the timeline under them where a
   * large canvas has room for it; else as large as the picture takes them, to half at most: drawn
   * at a fixed size, the key fell off the bottom of the picture. */
  /* The question keeps its lines while the grid keeps four fifths of its size or more (a projected
   * slide): without it the grid's ratios had nothing to be ratios of. */
  Fit fit;
  double room = height - title_h - fs * 0.4;
  gboolean slide = ms_draw_is_slide (style, height);
  /* Where a slide's least text keeps the grid from shrinking into a small picture (the lesson pane
   * with larger text), the later groups' rows go, down to the takeaway's: drawn anyway, they ran
   * off it. The details list every call. A slide shows what its takeaway counts (row_group). */
  for (int last = 4; last >= 1; last--) {
    shown_columns (run, slide, &fit.g);
    shown_rows (run, slide, last, &fit.g);
    /* A slide's rows off the list go before any of its text shrinks. */
    if (slide && last == 4 && fit.g.n_rows > 0 && row_group (run, fit.g.ops[fit.g.n_rows - 1]) == 4) {
      if (fit_grid (cr, run, style, fs, pad, width, room, 0.9, TRUE, &fit))
        break;
      continue;
    }
    if (fit_grid (cr, run, style, fs, pad, width, room - fs * 14.5, 1, FALSE, &fit)
        || fit_grid (cr, run, style, fs, pad, width, room, 0.8, FALSE, &fit)
        || fit_grid (cr, run, style, fs, pad, width, height, 1, TRUE, &fit)
        || fit_grid (cr, run, style, fs, pad, width, height, 0.5, FALSE, &fit)
        || fit_grid (cr, run, style, fs, pad, width, height, 0.5, TRUE, &fit) || !slide
        || ms_draw_get_least_text (cr) <= 0 || pad + fit.grid_h + fs * 0.4 + fit.key_h <= height)
      break;
  }
  GridLook g = fit.g;
  double grid_h = fit.grid_h, key_h = fit.key_h, key_fs = fit.key_fs;
  gboolean terms = fit.terms;
  /* The grid first; the title when it fits; the timeline below only
   * with room for its lanes (a dozen lines), else it goes. */
  double need = pad + grid_h + fs * 0.4 + key_h + pad;
  gboolean with_title = need + title_h + fs * 0.4 <= height;
  if (with_title)
    need += title_h + fs * 0.4;
  double spare = height - need, bottom = spare >= fs * 14 ? spare - fs * 0.5 : 0;
  /* What is left above the timeline widens the rows, to a line and a half. */
  double grow = MIN (MAX (0, spare - bottom) / g.n_rows, g.row_h * 0.45);
  g.row_h += grow;
  grid_h += grow * g.n_rows;
  double y = pad + MAX (0, (spare - bottom - grow * g.n_rows) / 2);
  if (with_title) {
    ms_set_color (cr, &style->fg, 1);
    y += ms_draw_text_wrapped (cr, title, pad, y, fs, width - 2 * pad, TRUE, TRUE) + fs * 0.4;
  }
  draw_grid (cr, run, style, &g, pad, y, width - pad);
  y += grid_h + fs * 0.4;
  /* Where the grid at a slide's least text leaves the key no room (the lesson pane), the cells'
   * own words ("serial", "overlap") stand alone: drawn anyway, the key ran off the picture. */
  if (!(ms_draw_get_least_text (cr) > 0 && y + key_h > height))
    draw_key (cr, run, style, pad, y, width - pad, key_fs, terms, &g, TRUE);
  if (!(bottom > 0))
    return;
  cairo_save (cr);
  cairo_translate (cr, 0, height - bottom);
  cairo_rectangle (cr, 0, 0, width, bottom);
  cairo_clip (cr);
  draw_timeline (cr, run, style, width, bottom);
  cairo_restore (cr);
}

const MsLessonLook ms_lesson_look_implicit_sync = {
  .picture = ms_picture_implicit_sync,
};
