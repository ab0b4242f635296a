/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline.c: lanes of phase bars for one repetition, in steps: the
 * index (ms-timeline-index.c), geometry, lanes, time axis, bars (merged
 * below a pixel), labels, legend. */
#include "ms-timeline.h"
#include "ms-timeline-index.h"
#include "ms-timeline-labels.h"
#include "ms-timeline-queue.h"
#include "ms-engine.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

void
ms_timeline_layout_init (MsTimelineLayout *l)
{
  memset (l, 0, sizeof *l);
  l->bars = g_array_new (FALSE, TRUE, sizeof (MsTimelineBar));
}

void
ms_timeline_layout_forget_cell (MsTimelineLayout *l)
{
  g_clear_pointer (&l->index, ms_timeline_index_free);
  g_clear_pointer (&l->reps, ms_rep_map_unref);
}

void
ms_timeline_layout_set_reps (MsTimelineLayout *l, MsRepMap *reps)
{
  if (reps)
    ms_rep_map_ref (reps);
  ms_rep_map_unref (l->reps);
  l->reps = reps;
}

void
ms_timeline_layout_clear (MsTimelineLayout *l)
{
  g_clear_pointer (&l->bars, g_array_unref);
  ms_timeline_layout_forget_cell (l);
}

/* ---- drawing ------------------------------------------------------------ */

/* Above this many events in a repetition a frame reads only the index. */
#define MAX_EVENTS_PER_FRAME_SCAN 50000

typedef struct {
  double px0, pw, py0, ph; /* the lanes */
  double lane_h, axis_h;
  double t0, span; /* the window in µs */
  /* Lanes too thin for their names at the text size: shorter names
   * ("s3"), smaller, or with label_step > 1 the streams named together;
   * bars fill more of the lane. */
  gboolean compact;
  double label_fs;
  int label_step;
  double fit_lane_h; /* the lanes' share of the room, before the limits */
  /* The lanes drawn: n_rows of them, row_lane[row] the lane of each and
   * lane_row[lane] the row of each (-1: left out), or NULL for all. */
  int n_rows;
  int *row_lane, *lane_row;
} MsTimelineGeometry;

/* The row a lane is drawn in, -1 for none. */
static int
lane_row (const MsTimelineGeometry *g, int lane)
{
  if (!g->lane_row)
    return lane < g->n_rows ? lane : -1;
  return g->lane_row[lane];
}

/* Lanes with no bar in win (an idle stream, a host that only waits) are
 * left out of a stack of timelines: every lane of a projected picture
 * costs the others height. All are kept when none has a bar. */
static void
drop_empty_lanes (const MsCell *cell, int rep, const MsRepMap *reps, const MsTimeWindow *win,
                  int n_lanes, MsTimelineGeometry *g)
{
  size_t first = 0, last = 0;
  g_autofree gboolean *used = g_new0 (gboolean, n_lanes);
  ms_rep_map_bounds (reps, cell, rep, &first, &last);
  for (size_t i = first; i < last; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep != rep)
      continue;
    if (ev->host_start_us < win->t1 && ev->host_start_us + ev->host_us > win->t0)
      used[0] = TRUE;
    if (ev->gpu_us >= 0 && ev->gpu_start_us < win->t1 && ev->gpu_start_us + ev->gpu_us > win->t0)
      used[CLAMP (ev->lane, 0, n_lanes - 1)] = TRUE;
  }
  g->row_lane = g_new (int, n_lanes);
  g->lane_row = g_new (int, n_lanes);
  g->n_rows = 0;
  for (int lane = 0; lane < n_lanes; lane++)
    if (used[lane])
      g->row_lane[g->n_rows++] = lane;
  for (int lane = 0; lane < n_lanes; lane++)
    g->lane_row[lane] = g->n_rows ? -1 : lane;
  for (int row = 0; row < g->n_rows; row++)
    g->lane_row[g->row_lane[row]] = row;
  if (g->n_rows == 0)
    for (int lane = 0; lane < n_lanes; lane++)
      g->row_lane[g->n_rows++] = lane;
}

/* The lanes' rows: the ones with bars in win when parts say so, else all. */
static void
geometry_lanes (const MsCell *cell, int rep, const MsRepMap *reps, const MsTimeWindow *win,
                const MsTimelineParts *parts, int n_lanes, MsTimelineGeometry *g)
{
  memset (g, 0, sizeof *g);
  g->n_rows = n_lanes;
  if (parts->drop_empty_lanes && win)
    drop_empty_lanes (cell, rep, reps, win, n_lanes, g);
}

static void
geometry_clear (MsTimelineGeometry *g)
{
  g_clear_pointer (&g->row_lane, g_free);
  g_clear_pointer (&g->lane_row, g_free);
}

static double
time_x (const MsTimelineGeometry *g, double t_us)
{
  return g->px0 + (t_us - g->t0) / g->span * g->pw;
}

/* A lane's name: the host, a stream's host functions, or the stream
 * (short in compact mode, where many lanes share the height). */
static void
lane_name (const MsTimelineIndex *ix, int lane, gboolean compact, char *buf, size_t len)
{
  if (lane == 0)
    g_snprintf (buf, len, "%s", C_ ("timeline lane", "host"));
  else if (!compact && lane < 64 && ix->host_func_lanes & (G_GUINT64_CONSTANT (1) << lane))
    g_snprintf (buf, len, "%s", C_ ("timeline lane", "host func."));
  else if (ix->thread_lanes && compact)
    /* TRANSLATORS: a host thread's lane when many share the height: "t2" */
    g_snprintf (buf, len, C_ ("timeline lane", "t%d"), lane);
  else if (ix->thread_lanes)
    /* TRANSLATORS: a host thread's lane, counted from 1: "thread 2" */
    g_snprintf (buf, len, C_ ("timeline lane", "thread %d"), lane);
  else if (compact)
    /* TRANSLATORS: a stream's lane when many share the height: "s3" */
    g_snprintf (buf, len, C_ ("timeline lane", "s%d"), lane - 1);
  else
    g_snprintf (buf, len, _ ("stream %d"), lane - 1);
}

/* A group of n stream lanes in compact mode: how many streams its
 * bracket holds ("s0–15" read as a code). */
static void
group_name (const MsTimelineIndex *ix, int n, char *buf, size_t len)
{
  if (ix->thread_lanes) {
    /* TRANSLATORS: a bracket of host threads' lanes: "2 threads" */
    g_snprintf (buf, len, C_ ("timeline lane", "%d threads"), n);
    return;
  }
  /* TRANSLATORS: a bracket of stream lanes named together on a timeline
   * with many lanes, by how many it holds: "16 streams" */
  g_snprintf (buf, len, C_ ("timeline lane", "%d streams"), n);
}

/* The widest of the lanes' names at size fs, and the height of one. */
static void
lane_names_size (cairo_t *cr, const MsTimelineIndex *ix, gboolean compact, double fs, double *w,
                 double *h)
{
  /* Names grow with the lane's number: the host, a host-function lane and
   * the last stream (at least "stream 10") are the candidates. */
  const int lanes[] = { 0, ix->host_func_lanes ? g_bit_nth_msf (ix->host_func_lanes, -1) : 0,
                        MAX (ix->n_lanes - 1, 11) };
  *w = *h = 0;
  for (guint i = 0; i < G_N_ELEMENTS (lanes); i++) {
    char name[48];
    double tw, th;
    lane_name (ix, lanes[i], compact, name, sizeof name);
    ms_draw_text (cr, name, 0, 0, fs, -1, 0, FALSE, &tw, &th);
    *w = MAX (*w, tw);
    *h = MAX (*h, th);
  }
}

/* Lanes never get thinner than this (bars 5 px tall): a projected picture
 * of three-pixel lanes shows stripes, not work. */
#define MIN_LANE_PX 6.0
/* Lanes thinner than this (a stack of rows of many streams) give their
 * bars all but one pixel of gap. */
#define THIN_LANE_PX 8.0
/* The space under a tight title, in text sizes (1.5 times that above it). */
#define TIGHT_PAD 0.1

/* The lanes' place in width x height under top, above the time labels
 * (or, in a row above another, a gap) and legend_h of legend measured by
 * the caller; compact when the names do not fit the lanes. The lanes
 * start and end on whole pixels. */
static void
timeline_geometry (cairo_t *cr, const MsChartStyle *st, const MsTimeWindow *win,
                   const MsTimelineIndex *ix, double width, double height, double top,
                   double legend_h, const MsTimelineParts *parts, MsTimelineGeometry *g)
{
  const double fs = ms_style_font_size (st);
  const double min_lane = parts->min_lane_px > 0 ? parts->min_lane_px : MIN_LANE_PX;
  int n_lanes = g->n_rows;
  double tw, th, axis_th;
  /* The axis's labels at their size (a figure's, larger on a slide). */
  ms_draw_text (cr, "0", 0, 0, ms_draw_figure_size (cr, fs), -1, 0, FALSE, NULL, &axis_th);
  /* Tight, the next row's title is the gap under the lanes. */
  if (parts->no_time_labels)
    g->axis_h = parts->tight ? 0 : ceil (fs * 0.4);
  else
    g->axis_h = ceil (axis_th + fs * (parts->tight ? 0.35 : 1));
  g->py0 = ceil (top);
  double below = g->axis_h + legend_h + (parts->tight ? 0 : fs * 0.5);
  g->fit_lane_h = (height - g->py0 - below) / n_lanes;
  g->lane_h = parts->lane_px > 0 ? parts->lane_px : MAX (MIN (g->fit_lane_h, fs * 5), min_lane);
  g->ph = g->lane_h * n_lanes;
  lane_names_size (cr, ix, FALSE, fs, &tw, &th);
  g->compact = g->lane_h < th * 1.05;
  g->label_fs = fs;
  g->label_step = 1;
  if (g->compact) {
    g->label_fs = MAX (fs * 0.8, 10.0);
    lane_names_size (cr, ix, TRUE, g->label_fs, &tw, &th);
    g->label_step = (int)ceil (th * 1.05 / g->lane_h);
    if (g->label_step > 1) {
      /* Groups of streams, named by their first and last. */
      char name[48];
      group_name (ix, MAX (ix->n_lanes - 1, 10), name, sizeof name);
      tw = MAX (tw, ms_draw_text_width (cr, name, g->label_fs, FALSE));
    }
  }
  g->px0 = MAX (tw + fs * 1.5, parts->label_px);
  g->pw = MAX (10, width - g->px0 - fs);
  g->t0 = win->t0;
  g->span = win->t1 - win->t0;
}

/* A rectangle on whole pixels: cairo fills those as boxes, several times
 * faster than edges it has to antialias. */
static void
pixel_rectangle (cairo_t *cr, double x, double y, double w, double h)
{
  double x0 = round (x), y0 = round (y);
  cairo_rectangle (cr, x0, y0, MAX (1, round (x + w) - x0), MAX (1, round (y + h) - y0));
}

/* The foreground at alpha over the background, as one opaque colour when
 * the background is opaque: cairo then fills without blending. */
static void
set_tint (cairo_t *cr, const MsChartStyle *st, double alpha)
{
  double a = st->fg.alpha * alpha;
  if (st->bg.alpha < 1) {
    ms_set_color (cr, &st->fg, alpha);
    return;
  }
  cairo_set_source_rgb (cr, st->bg.red + (st->fg.red - st->bg.red) * a,
                        st->bg.green + (st->fg.green - st->bg.green) * a,
                        st->bg.blue + (st->fg.blue - st->bg.blue) * a);
}

/* The lanes' rectangles, whole pixels each. */
static void
lanes_path (cairo_t *cr, const MsTimelineGeometry *g, int odd)
{
  for (int lane = odd; lane < g->n_rows; lane += 2)
    pixel_rectangle (cr, g->px0, g->py0 + lane * g->lane_h, g->pw, g->lane_h);
}

/* Whole user pixels are whole device pixels: an image surface at an
 * integer scale and offset. */
static gboolean
on_device_pixels (cairo_t *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  double ox = 0, oy = 0, xx = 1, xy = 0, yx = 0, yy = 1, sx, sy, dx, dy;
  cairo_user_to_device (cr, &ox, &oy);
  cairo_user_to_device_distance (cr, &xx, &xy);
  cairo_user_to_device_distance (cr, &yx, &yy);
  /* The target's own scale and offset (HiDPI) come on top. */
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_offset (target, &dx, &dy);
  xx *= sx, yy *= sy, ox = ox * sx + dx, oy = oy * sy + dy;
  return cairo_surface_get_type (target) == CAIRO_SURFACE_TYPE_IMAGE && xy == 0 && yx == 0
         && xx == yy && xx == round (xx) && xx >= 1 && ox == round (ox) && oy == round (oy);
}

/* The background around the lanes: they cover the rest with opaque tints
 * (over an opaque background), so that their pixels are written once, not
 * twice; on anything but whole device pixels all of it, as their edges
 * would blend. */
static void
timeline_background (cairo_t *cr, const MsChartStyle *st, const MsTimelineGeometry *g)
{
  if (st->bg.alpha < 1 || !on_device_pixels (cr)) {
    ms_draw_background (cr, st);
    return;
  }
  double x0, y0, x1, y1;
  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);
  cairo_rectangle (cr, floor (x0), floor (y0), ceil (x1) - floor (x0), ceil (y1) - floor (y0));
  lanes_path (cr, g, 0);
  lanes_path (cr, g, 1);
  ms_set_color (cr, &st->bg, 1);
  /* Where two lanes' rounded edges share a row it is painted, then covered. */
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
  cairo_fill (cr);
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_WINDING);
}

/* Alternating lane backgrounds, named on the left: every lane, or, where
 * lanes are too thin for a name each, the host and one bracket of all the
 * streams, so that names never touch. */
static void
timeline_lanes (cairo_t *cr, const MsChartStyle *st, const MsTimelineGeometry *g,
                const MsTimelineIndex *ix)
{
  const double fs = ms_style_font_size (st);
  /* Even lanes in one fill, odd ones in another: they do not touch. */
  for (int odd = 0; odd < 2; odd++) {
    lanes_path (cr, g, odd);
    set_tint (cr, st, odd ? 0.03 : 0.07);
    cairo_fill (cr);
  }
  ms_set_color (cr, &st->fg, 0.85);
  cairo_set_line_width (cr, st->line_scale);
  double name_h, prev_bottom = -G_MAXDOUBLE;
  ms_draw_text (cr, "s", 0, 0, g->label_fs, -1, 0, FALSE, NULL, &name_h);
  /* Names beside thin lanes stay under the title above them. */
  if (g->label_step > 1)
    prev_bottom = g->py0 - fs * TIGHT_PAD;
  for (int row = 0; row < g->n_rows;) {
    int lane = g->row_lane ? g->row_lane[row] : row;
    /* Past the host, lanes too thin for a name each share one name and
     * bracket: how many streams, not which (groups of a few, named by
     * their first and last, read as codes). */
    int last = lane == 0 || g->label_step == 1 ? row : g->n_rows - 1;
    char name[48];
    if (last > row)
      group_name (ix, last - row + 1, name, sizeof name);
    else
      lane_name (ix, lane, g->compact, name, sizeof name);
    double y0 = g->py0 + row * g->lane_h, y1 = g->py0 + (last + 1) * g->lane_h;
    double yc = MAX ((y0 + y1) / 2, prev_bottom + name_h * 0.55);
    /* A group's name stays by its bracket and above the lanes' bottom (the
     * next timeline's title lies under it); one that cannot goes with its
     * bracket. */
    gboolean named = g->label_step == 1
                     || (yc - name_h / 2 >= prev_bottom
                         && yc + name_h / 2 <= MAX (y1, g->py0 + g->ph) && yc - name_h / 2 <= y1);
    if (named)
      ms_draw_text (cr, name, g->px0 - fs * 0.5, yc, g->label_fs, 1, 0.5, FALSE, NULL, NULL);
    /* The bracket starts under the name above it (the host's, beside
     * lanes thinner than it), not beside it. */
    double bracket_y0 = MAX (y0 + 1.5, prev_bottom);
    prev_bottom = MAX (prev_bottom, yc + name_h / 2);
    if (last > row && named) {
      cairo_move_to (cr, g->px0 - fs * 0.25, bracket_y0);
      cairo_line_to (cr, g->px0 - fs * 0.25, y1 - 1.5);
      cairo_stroke (cr);
    }
    row = last + 1;
  }
}

/* Bars narrower than a pixel less than a pixel apart, in one lane and
 * kind, merged into one bar in the colour of the phase that takes most of
 * its time: a million events make a few thousand rectangles at most. */
typedef struct {
  guint count;
  MsTimelineBar bar; /* the first bar, then the merged extent */
  double x1;
  double phase_px[MS_PHASE_COUNT];
  const MsEvent *phase_event[MS_PHASE_COUNT];
} MsBarRun;

/* The bars of one frame, collected per phase and kind and filled in one go
 * each: ten thousand separate fills cost a hundred times more than ten. */
typedef struct {
  GArray *rects[MS_PHASE_COUNT][MS_BAR_KINDS];
  GArray *labels;         /* MsTimelineBar: GPU bars tall enough for a label */
  GArray *gpu_bars;       /* MsTimelineBar: every GPU bar, what labels go around */
  GArray *blocked_labels; /* MsTimelineBar wide and tall enough for "blocked" */
  double label_w[MS_PHASE_COUNT], blocked_w, label_h, fs;
  GArray *layout_bars; /* or NULL */
  const MsEvent *events;
  double left, right, px_w, px_per_us; /* the frame's edges and width; the scale */
  const MsCell *cell;                  /* the bars', for their labels */
  gboolean copies_waited;              /* draw the copies' waits pale */
  gboolean no_rates;                   /* the title quotes the copies' rate */
  gboolean name_slivers;               /* MsTimelineParts.name_slivers */
  double top;                          /* the lanes' top */
  GArray *all_bars;                    /* MsTimelineBar: every bar, the host's too */
  gboolean one_stream;                 /* draw every GPU bar's wait pale (one stream) */
  gboolean cut_marks;                  /* notch bars that go on past the window */
  gboolean dark;
  gboolean host_seen, host_held;   /* a host bar drawn; one that held the host */
  double host_x1, host_y, host_h; /* the host lane's last bar's end; the lane */
} MsBarSet;

/* GPU bars past this many get a label only when wide enough for one on
 * the bar: placing thousands around each other would cost the frame. */
#define MAX_LABEL_CANDIDATES 256

/* The colour a bar takes: managed memory's way back on a stream is a
 * prefetch to the host (kernels/mode-managed.cu), labelled "prefetch
 * back" and drawn as one: in d2h's colour it matched no key. A kernel's
 * part on the host lane is the host's call that queues it, a launch: in
 * the kernel's colour, keyed as GPU work, a class asked what a kernel did
 * on the host. */
static MsPhase
drawn_phase (const MsCell *cell, int kind, MsPhase phase)
{
  if (kind != MS_BAR_GPU && kind != MS_BAR_HOST_WORK && phase == MS_PHASE_KERNEL)
    return MS_PHASE_LAUNCH;
  return kind == MS_BAR_GPU && phase == MS_PHASE_D2H && cell
                 && ms_mode_memory (cell->mode) == MS_MEMORY_MANAGED
             ? MS_PHASE_PREFETCH
             : phase;
}

static void
bars_add (MsBarSet *set, int kind, MsPhase phase, const MsTimelineBar *bar)
{
  phase = drawn_phase (set->cell, kind, phase);
  if (!set->rects[phase][kind])
    set->rects[phase][kind] = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
  g_array_append_val (set->rects[phase][kind], *bar);
  if (kind == MS_BAR_GPU)
    g_array_append_val (set->gpu_bars, *bar);
  else {
    set->host_seen = TRUE;
    /* A launch that spans its kernel of a few µs is "blocked" too, but
     * no longer than a speck: held is what shows as held. */
    set->host_held |= kind != MS_BAR_HOST_ASYNC && bar->w >= set->fs;
    set->host_x1 = MAX (set->host_x1, bar->x + MAX (bar->w, set->fs / 3));
    set->host_y = bar->y;
    set->host_h = bar->h;
  }
  g_array_append_val (set->all_bars, *bar);
  if (set->layout_bars)
    g_array_append_val (set->layout_bars, *bar);
}

static void
run_flush (MsBarSet *set, MsBarRun *run, int kind)
{
  if (run->count == 0)
    return;
  MsPhase phase = run->bar.event->phase;
  if (run->count > 1) {
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      if (run->phase_px[p] > run->phase_px[phase])
        phase = p;
    run->bar.w = run->x1 - run->bar.x;
    run->bar.event = run->phase_event[phase];
  }
  bars_add (set, kind, phase, &run->bar);
  run->count = 0;
}

/* Adds a bar from x, w wide (at least 1.5) and raw_w by its duration, to
 * the run open in its track when it is under a pixel wide and less than a
 * pixel after the run. The common case with many events: no bar is built. */
static inline gboolean
run_extend (MsBarRun *run, const MsBarSet *set, const MsIndexEntry *e, double x, double w,
            double raw_w)
{
  if (!(raw_w < 1 && run && run->count && x <= run->x1 + 1))
    return FALSE;
  run->count++;
  run->x1 = MAX (run->x1, x + w);
  run->phase_px[e->phase] += raw_w;
  if (!run->phase_event[e->phase])
    run->phase_event[e->phase] = &set->events[e->event];
  return TRUE;
}

/* A bar that no open run took: it opens a run when under a pixel wide,
 * else it is drawn as it is (and named when wide enough). */
static void
bars_take (MsBarSet *set, MsBarRun *run, int kind, const MsTimelineBar *bar, double raw_w)
{
  MsPhase phase = bar->event->phase;
  if (run)
    run_flush (set, run, kind);
  if (run && raw_w < 1) {
    memset (run->phase_px, 0, sizeof run->phase_px);
    memset (run->phase_event, 0, sizeof run->phase_event);
    run->bar = *bar;
    run->count = 1;
    run->x1 = bar->x + bar->w;
    run->phase_px[phase] = raw_w;
    run->phase_event[phase] = bar->event;
    return;
  }
  bars_add (set, kind, phase, bar);
  /* A name taller than its bar would run into the next lane's. */
  if (bar->h < set->label_h * 0.9)
    return;
  /* A copy the host does itself (the CPU reading managed memory back,
   * its pages faulting) is named like the GPU's: unnamed, the widest bar
   * of a managed timeline said nothing of what it was. */
  gboolean host_copy = kind == MS_BAR_HOST_WORK && ms_phase_is_copy (phase);
  if ((kind == MS_BAR_GPU || host_copy)
      && (set->labels->len < MAX_LABEL_CANDIDATES || bar->w > set->label_w[phase] + set->fs * 0.6))
    g_array_append_val (set->labels, *bar);
  if (kind == MS_BAR_HOST_BLOCKED && bar->w > set->blocked_w + set->fs * 0.6)
    g_array_append_val (set->blocked_labels, *bar);
}

/* Where the bar of an event from start_us, dur_us long goes: x, its width
 * w (at least 1.5) and raw_w by its duration. Returns 1 past the window,
 * -1 before it, 0 in it. */
static inline int
bar_place (const MsTimelineGeometry *g, double start_us, double dur_us, double *x, double *w,
           double *raw_w)
{
  *x = time_x (g, start_us);
  *raw_w = dur_us / g->span * g->pw;
  *w = MAX (1.5, *raw_w);
  if (*x > g->px0 + g->pw)
    return 1;
  return *x + *w < g->px0 ? -1 : 0;
}

/* At a block's first entry i: the entries the block lets go at once, 0 for
 * none. A block left of the window is skipped; one whose bars are all under
 * a pixel and less than a pixel apart, inside the window, joins the open
 * run as its entries would one by one (each bar 1.5 px wide, the next
 * merged when it starts at most a pixel after the last one's end). */
static guint
block_step (MsBarSet *set, MsBarRun *run, const MsIndexTrack *t, guint i,
            const MsTimelineGeometry *g)
{
  const MsIndexBlock *blk = &t->blocks[i / MS_INDEX_BLOCK];
  guint m = MIN (MS_INDEX_BLOCK, t->n - i);
  double px_per_us = g->pw / g->span;
  double last_x = time_x (g, t->entries[i + m - 1].start_us);
  if (last_x + 1.5 < g->px0 && time_x (g, blk->max_end_us) < g->px0)
    return m;
  if (!run || !run->count || last_x > g->px0 + g->pw || !(blk->max_dur_us * px_per_us < 1)
      || !(blk->max_gap_us * px_per_us <= 2.5))
    return 0;
  run->count += m;
  run->x1 = MAX (run->x1, last_x + 1.5);
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    if (blk->phase_first[p] == 0xff)
      continue;
    run->phase_px[p] += blk->phase_us[p] * px_per_us;
    if (!run->phase_event[p])
      run->phase_event[p] = &set->events[t->entries[i + blk->phase_first[p]].event];
  }
  return m;
}

/* One track's bars. The GPU's view: a solid bar on the stream's lane. The
 * host's view: solid for host work; for a stream operation the API call,
 * hatched when asynchronous and outlined in full when it blocked the host
 * for about as long as the GPU worked. */
static void
collect_track (MsBarSet *set, const MsIndexTrack *t, const MsTimelineGeometry *g)
{
  MsBarRun merging = { 0 };
  /* Lanes beyond the merged ones share a track whose bars stay apart. */
  MsBarRun *run = t->kind == MS_BAR_GPU && t->lane < 0 ? NULL : &merging;
  /* Bars are at least 1.5 px wide: none that ends 2 px left shows. */
  for (guint i = ms_index_track_seek (t, g->t0 - 2 * g->span / g->pw); i < t->n;) {
    if (i % MS_INDEX_BLOCK == 0) {
      guint m = block_step (set, run, t, i, g);
      i += m;
      if (m)
        continue;
    }
    const MsIndexEntry *e = &t->entries[i++];
    double x, w, raw_w;
    int place = bar_place (g, e->start_us, e->dur_us, &x, &w, &raw_w);
    if (place > 0)
      break;
    if (place < 0 || run_extend (run, set, e, x, w, raw_w))
      continue;
    const MsEvent *ev = &set->events[e->event];
    int lane = lane_row (g, t->kind == MS_BAR_GPU ? ev->lane : 0);
    if (lane < 0)
      continue;
    /* A gap between lanes' bars; thin lanes keep most of their height,
     * the thinnest all but a pixel, so that each still stands apart. */
    double gap = g->compact ? 0.08 : 0.15;
    double y = g->py0 + lane * g->lane_h + g->lane_h * gap, h = g->lane_h * (1 - 2 * gap);
    if (g->lane_h < THIN_LANE_PX)
      y = g->py0 + lane * g->lane_h, h = MAX (1, g->lane_h - 1);
    if (t->kind == MS_BAR_HOST_ASYNC) {
      y += h * 0.3;
      h *= 0.4;
    }
    MsTimelineBar bar = { x, y, w, h, ev, t->kind != MS_BAR_GPU && t->kind != MS_BAR_HOST_WORK };
    bars_take (set, run, t->kind, &bar, raw_w);
  }
  if (run)
    run_flush (set, run, t->kind);
}

/* Diagonal hatching through a repeating pattern: one fill for all bars.
 * The 8 px tile is copied into one of 8 x 8 tiles first: pixman repeats a
 * source tile by tile, and hundreds of thin bars over small tiles made
 * thousands of tiny composites. The pixels are the same. Lines of 2.5 px
 * 8 px apart: at 1.2 px every 6 px a back row saw no hatching. */
#define HATCH_TILE 8
#define HATCH_COPIES 8

static void
fill_hatched (cairo_t *cr, const MsColor *c)
{
  cairo_surface_t *tile = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, HATCH_TILE, HATCH_TILE);
  cairo_t *tc = cairo_create (tile);
  ms_set_color (tc, c, 0.9);
  ms_draw_line (tc, 2.5, -1, HATCH_TILE + 1, HATCH_TILE + 1, -1);
  cairo_destroy (tc);
  const int big = HATCH_TILE * HATCH_COPIES;
  cairo_surface_t *tiles = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, big, big);
  cairo_t *bc = cairo_create (tiles);
  cairo_set_source_surface (bc, tile, 0, 0);
  cairo_pattern_set_extend (cairo_get_source (bc), CAIRO_EXTEND_REPEAT);
  cairo_set_operator (bc, CAIRO_OPERATOR_SOURCE);
  cairo_paint (bc);
  cairo_destroy (bc);
  cairo_pattern_t *pat = cairo_pattern_create_for_surface (tiles);
  cairo_pattern_set_extend (pat, CAIRO_EXTEND_REPEAT);
  cairo_set_source (cr, pat);
  cairo_fill (cr);
  cairo_pattern_destroy (pat);
  cairo_surface_destroy (tiles);
  cairo_surface_destroy (tile);
}

/* The pale look of a copy's wait: the colour at 30 % over a light
 * background; over a dark one, the colour mixed halfway to white, as 30 %
 * over dark would be a navy hardly told from the background. */
static void
set_pale (cairo_t *cr, const MsColor *c, gboolean dark)
{
  if (!dark) {
    ms_set_color (cr, c, 0.3);
    return;
  }
  cairo_set_source_rgb (cr, c->red + (1 - c->red) * 0.55, c->green + (1 - c->green) * 0.55,
                        c->blue + (1 - c->blue) * 0.55);
}

/* When each GPU bar began its work on a cell of one stream: after every
 * bar that ended before it, whatever the phase or lane. Keyed by event. */
static GHashTable *
one_stream_began (const MsBarSet *set)
{
  guint n = set->gpu_bars->len;
  g_autofree const MsEvent **evs = g_new (const MsEvent *, MAX (n, 1));
  g_autofree double *began = g_new (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    evs[i] = g_array_index (set->gpu_bars, MsTimelineBar, i).event;
  ms_copy_queue_began (evs, n, began);
  GHashTable *map = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint i = 0; i < n; i++)
    g_hash_table_insert (map, (gpointer) evs[i], g_memdup2 (&began[i], sizeof began[i]));
  return map;
}

/* Bars split where each began its work: the wait pale, the work solid.
 * began_of: when each began (one stream), or NULL for copies of one
 * direction, which queue among themselves. */
static void
fill_copy_bars (cairo_t *cr, const MsColor *c, const GArray *a, const MsBarSet *set,
                GHashTable *began_of)
{
  g_autofree const MsEvent **evs = g_new (const MsEvent *, MAX (a->len, 1));
  g_autofree double *began = g_new (double, MAX (a->len, 1));
  for (guint i = 0; i < a->len; i++)
    evs[i] = g_array_index (a, MsTimelineBar, i).event;
  if (began_of)
    for (guint i = 0; i < a->len; i++) {
      const double *b = g_hash_table_lookup (began_of, evs[i]);
      began[i] = b ? *b : evs[i]->gpu_start_us;
    }
  else
    ms_copy_queue_began (evs, a->len, began);
  for (int pale = 1; pale >= 0; pale--) {
    for (guint i = 0; i < a->len; i++) {
      const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
      double wait = CLAMP ((began[i] - evs[i]->gpu_start_us) * set->px_per_us, 0, b->w);
      if (wait < 1)
        wait = 0;
      if (pale && wait > 0)
        pixel_rectangle (cr, b->x, b->y, wait, b->h);
      else if (!pale && b->w - wait > 0)
        pixel_rectangle (cr, b->x + wait, b->y, b->w - wait, b->h);
    }
    if (pale)
      set_pale (cr, c, set->dark);
    else
      ms_set_color (cr, c, 1);
    cairo_fill (cr);
  }
}

/* Bars that go on past either edge of the window: a notch of background
 * near the edge, as a broken axis is drawn (a bar cut on the left read as
 * a short one starting at 0). */
static void
mark_cut_bars (cairo_t *cr, const MsChartStyle *st, const GArray *a, const MsBarSet *set)
{
  if (!set->cut_marks)
    return;
  const double inset = 7 * st->line_scale;
  ms_set_color (cr, &st->bg, 1);
  cairo_set_line_width (cr, 2.5 * st->line_scale);
  for (guint i = 0; i < a->len; i++) {
    const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
    double slant = MIN (b->h * 0.3, 4);
    if (b->x + b->w > set->right + 0.5 && set->right - MAX (b->x, set->left) >= 12) {
      cairo_move_to (cr, set->right - inset + slant, b->y);
      cairo_line_to (cr, set->right - inset - slant, b->y + b->h);
    }
    if (b->x < set->left - 0.5 && MIN (b->x + b->w, set->right) - set->left >= 12) {
      cairo_move_to (cr, set->left + inset + slant, b->y);
      cairo_line_to (cr, set->left + inset - slant, b->y + b->h);
    }
  }
  cairo_stroke (cr);
}

/* The outline of calls that blocked the host, thin enough on a thin bar
 * to leave its pale inside showing: a bar filled by its outline reads as
 * the GPU's copy. */
static void
outline_bars (cairo_t *cr, const MsChartStyle *st, const MsColor *c, const GArray *a)
{
  ms_set_color (cr, c, 1);
  double drawn_lw = 0; /* one stroke for the bars of one width */
  for (guint i = 0; i < a->len; i++) {
    const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
    double x0 = round (b->x), y0 = round (b->y);
    double w = MAX (1, round (b->x + b->w) - x0), h = MAX (1, round (b->y + b->h) - y0);
    double lw = MIN (2 * st->line_scale, MAX (1, floor (MIN (w, h) / 5)));
    if (lw != drawn_lw && drawn_lw > 0)
      cairo_stroke (cr);
    drawn_lw = lw;
    cairo_set_line_width (cr, lw);
    cairo_rectangle (cr, x0 + lw / 2, y0 + lw / 2, MAX (0.5, w - lw), MAX (0.5, h - lw));
  }
  cairo_stroke (cr);
}

/* Whether another kernel of kernel i's lane lies within reach px of it:
 * a row of short kernels keeps its gaps rather than merge into one block.
 * A track's bars are collected in time order, so its neighbours in the
 * array are the ones to look at (all of them cost a frame thousands of
 * kernels squared). */
static gboolean
kernel_near (const GArray *kernels, guint i, double reach)
{
  const MsTimelineBar *b = &g_array_index (kernels, MsTimelineBar, i);
  for (guint j = i > 0 ? i - 1 : i + 1; j <= i + 1 && j < kernels->len; j += 2) {
    const MsTimelineBar *o = &g_array_index (kernels, MsTimelineBar, j);
    if (o->y == b->y && o->x < b->x + b->w + reach && b->x < o->x + o->w + reach)
      return TRUE;
  }
  return FALSE;
}

static void
fill_bars (cairo_t *cr, const MsChartStyle *st, MsBarSet *set)
{
  g_autoptr (GHashTable) began_of = set->one_stream ? one_stream_began (set) : NULL;
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    MsColor c;
    ms_phase_color (p, st->dark, &c);
    for (int k = 0; k < MS_BAR_KINDS; k++) {
      GArray *a = set->rects[p][k];
      if (!a)
        continue;
      if (k == MS_BAR_GPU && (began_of || (set->copies_waited && ms_phase_is_copy (p)))) {
        fill_copy_bars (cr, &c, a, set, began_of);
        mark_cut_bars (cr, st, a, set);
        g_clear_pointer (&set->rects[p][k], g_array_unref);
        continue;
      }
      /* A short asynchronous call (a speck, the key says) is filled solid
       * and at least a third of the text size wide: hatched at 1-3 px a
       * class could not find it on a projected slide. */
      double speck = ms_style_font_size (st) / 3;
      for (guint i = 0; i < a->len; i++) {
        const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
        /* A kernel of a pixel between two transfers, as wide as a speck
         * over them: its hairline in the gap between them read as a gap. */
        if (k == MS_BAR_GPU && p == MS_PHASE_KERNEL && b->w < speck && !kernel_near (a, i, speck))
          pixel_rectangle (cr, b->x + b->w / 2 - speck / 2, b->y, speck, b->h);
        else if (k != MS_BAR_HOST_ASYNC || b->w >= speck * 2)
          pixel_rectangle (cr, b->x, b->y, b->w, b->h);
      }
      if (k == MS_BAR_HOST_ASYNC) {
        fill_hatched (cr, &c);
        for (guint i = 0; i < a->len; i++) {
          const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
          if (b->w < speck * 2)
            pixel_rectangle (cr, b->x, b->y, MAX (b->w, speck), b->h);
        }
        ms_set_color (cr, &c, 1);
        cairo_fill (cr);
      } else if (k == MS_BAR_HOST_BLOCKED) {
        ms_set_color (cr, &c, 0.35);
        cairo_fill (cr);
        outline_bars (cr, st, &c, a);
      } else {
        ms_set_color (cr, &c, 1);
        cairo_fill (cr);
      }
      /* Prefetches one after another (a and b in, c back around a kernel
       * of a pixel) merged into one block: each starts with a gap. */
      if (k == MS_BAR_GPU && p == MS_PHASE_PREFETCH) {
        for (guint i = 0; i < a->len; i++)
          for (guint j = 0; j < a->len; j++) {
            const MsTimelineBar *b = &g_array_index (a, MsTimelineBar, i);
            const MsTimelineBar *o = &g_array_index (a, MsTimelineBar, j);
            if (i != j && o->y == b->y && fabs (o->x + o->w - b->x) < 4)
              cairo_rectangle (cr, b->x - 1, b->y, 2 * ms_style_line_width (st), b->h);
          }
        ms_set_color (cr, &st->bg, 1);
        cairo_fill (cr);
      }
      mark_cut_bars (cr, st, a, set);
      g_clear_pointer (&set->rects[p][k], g_array_unref);
    }
  }
}

static int
cmp_label_phase (gconstpointer a, gconstpointer b)
{
  const MsTimelineBar *x = a, *y = b;
  if (x->event->phase != y->event->phase)
    return x->event->phase < y->event->phase ? -1 : 1;
  return (x->x > y->x) - (x->x < y->x);
}

/* The GPU bars' labels (ms-timeline-labels.c): on a bar black or white,
 * whichever reads on its colour (ms_ink_on), in the text's colour on the
 * lane; "blocked" in wide blocked host calls. */
static void
bar_labels (cairo_t *cr, const MsChartStyle *st, const MsBarSet *set)
{
  g_array_sort (set->labels, cmp_label_phase);
  g_autoptr (GArray) placed
      = ms_timeline_labels_place (cr, set->labels, set->gpu_bars, set->right - set->px_w,
                                  set->right, set->fs, set->no_rates ? -1 : !set->copies_waited,
                                  set->cell);
  if (set->name_slivers)
    ms_timeline_labels_call_out (cr, set->labels, set->all_bars, set->right - set->px_w,
                                 set->right, set->top, set->fs, placed);
  for (guint i = 0; i < placed->len; i++) {
    const MsBarLabel *l = &g_array_index (placed, MsBarLabel, i);
    MsColor fill, ink;
    ms_phase_color (drawn_phase (set->cell, MS_BAR_GPU, l->phase), st->dark, &fill);
    ms_ink_on (&fill, &ink);
    ms_set_color (cr, l->on_bar ? &ink : &st->fg, 1);
    ms_draw_text (cr, l->text, l->x, l->y, l->size, 0, 0, FALSE, NULL, NULL);
    if (l->leader) {
      ms_set_color (cr, &st->fg, 0.8);
      cairo_set_line_width (cr, ms_style_line_width (st) * 0.8);
      cairo_move_to (cr, l->leader_pts[0][0], l->leader_pts[0][1]);
      cairo_line_to (cr, l->leader_pts[1][0], l->leader_pts[1][1]);
      cairo_line_to (cr, l->leader_pts[2][0], l->leader_pts[2][1]);
      cairo_stroke (cr);
    }
  }
  ms_set_color (cr, &st->fg, 1);
  for (guint i = 0; i < set->blocked_labels->len; i++) {
    const MsTimelineBar *b = &g_array_index (set->blocked_labels, MsTimelineBar, i);
    ms_draw_text (cr, _ ("blocked"), b->x + b->w / 2, b->y + b->h / 2, set->fs * 0.85, 0.5, 0.5,
                  FALSE, NULL, NULL);
  }
  /* A host lane of specks alone, said in words after them: a few pixels
   * wide, a back row did not see the calls the key names. */
  const char *returned = _ ("each call returned at once");
  double x = set->host_x1 + set->fs * 0.6, w = 0, h = 0;
  if (!set->host_seen || set->host_held)
    return;
  ms_draw_text (cr, returned, 0, 0, set->fs * 0.85, -1, 0, FALSE, &w, &h);
  /* Within its lane only: in a lane much lower than the words (rows
   * stacked in a pane) they would cover the row's title. A host bar is
   * shorter than its lane: at its height alone they were never drawn. */
  if (h > set->host_h * 1.5)
    return;
  double y = set->host_y + set->host_h / 2 - h / 2;
  for (guint i = 0; i < placed->len; i++) {
    const MsBarLabel *l = &g_array_index (placed, MsBarLabel, i);
    if (l->x < x + w && x < l->x + l->w && l->y < y + h && y < l->y + l->h)
      return;
  }
  if (x + w < set->right - set->fs * 0.3)
    ms_draw_text (cr, returned, x, y, set->fs * 0.85, 0, 0, FALSE, NULL, NULL);
}

/* Collects the visible bars, then fills and labels them inside the lanes. */
static void
timeline_bars (cairo_t *cr, const MsChartStyle *st, const MsTimelineIndex *ix,
               const MsTimelineGeometry *g, guint hints, const MsTimelineParts *parts,
               gboolean cut_marks, const MsCell *cell, MsTimelineLayout *layout)
{
  MsBarSet set = { .fs = ms_style_font_size (st),
                   .cell = cell,
                   .left = g->px0,
                   .right = g->px0 + g->pw,
                   .px_w = g->pw,
                   .px_per_us = g->pw / g->span,
                   .copies_waited = (hints & MS_TIMELINE_HINT_WAITED) != 0,
                   .no_rates = parts->no_bar_rates,
                   .name_slivers = parts->name_slivers,
                   .top = g->py0,
                   .one_stream = (hints & MS_TIMELINE_HINT_ONE_STREAM) != 0,
                   .cut_marks = cut_marks,
                   .dark = st->dark };
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    ms_draw_text (cr, ms_phase_label (p), 0, 0, set.fs * 0.9, -1, 0, FALSE, &set.label_w[p], NULL);
  ms_draw_text (cr, _ ("blocked"), 0, 0, set.fs * 0.85, -1, 0, FALSE, &set.blocked_w, NULL);
  ms_draw_text (cr, ms_phase_name (MS_PHASE_H2D), 0, 0, ms_draw_figure_size (cr, set.fs * 0.9), -1,
                0, FALSE, NULL, &set.label_h);
  set.labels = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
  set.blocked_labels = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
  set.gpu_bars = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
  set.all_bars = g_array_new (FALSE, FALSE, sizeof (MsTimelineBar));
  set.layout_bars = layout ? layout->bars : NULL;
  set.events = ix->events;
  /* The GPU's tracks, then the host's: hit tests take the last drawn. */
  for (guint t = 0; t < ix->n_tracks; t++)
    collect_track (&set, &ix->tracks[t], g);

  cairo_save (cr);
  cairo_rectangle (cr, g->px0, g->py0, g->pw, g->ph);
  cairo_clip (cr);
  fill_bars (cr, st, &set);
  bar_labels (cr, st, &set);
  cairo_restore (cr);
  g_array_unref (set.labels);
  g_array_unref (set.blocked_labels);
  g_array_unref (set.gpu_bars);
  g_array_unref (set.all_bars);
}

/* The index for this cell and repetition: the layout's when it matches,
 * else a new one kept there (or in *owned without a layout). */
static const MsTimelineIndex *
timeline_index (const MsCell *cell, int rep, MsTimelineLayout *layout, MsTimelineIndex **owned)
{
  *owned = NULL;
  if (layout && ms_timeline_index_matches (layout->index, cell, rep))
    return layout->index;
  MsTimelineIndex *ix = ms_timeline_index_new (cell, rep, layout ? layout->index : NULL,
                                               layout ? layout->reps : NULL);
  if (layout) {
    ms_timeline_index_free (layout->index);
    layout->index = ix;
  } else {
    *owned = ix;
  }
  return ix;
}

/* The title (drawn or measured); the height it leaves above the lanes.
 * Tight, it keeps the text size and less space around it. */
static double
draw_title (cairo_t *cr, const MsChartStyle *st, double width, const char *title, gboolean tight,
            gboolean draw)
{
  const double fs = ms_style_font_size (st), pad = fs * (tight ? TIGHT_PAD : 0.5);
  ms_set_color (cr, &st->fg, 1);
  double top = pad * (tight ? 1.5 : 1);
  if (title)
    top += ms_draw_text_wrapped (cr, title, fs, top, fs * (tight ? 1 : 1.15), width - 2 * fs, TRUE,
                                 draw)
           + pad;
  return top;
}

void
ms_timeline_draw_message (cairo_t *cr, const MsChartStyle *st, double width, double height,
                          const char *title, const char *message)
{
  const double fs = ms_style_font_size (st);
  cairo_save (cr);
  ms_draw_background (cr, st);
  draw_title (cr, st, width, title, FALSE, TRUE);
  ms_set_color (cr, &st->fg, 0.6);
  ms_draw_text (cr, message, width / 2, height / 2, fs * 1.2, 0.5, 0.5, FALSE, NULL, NULL);
  cairo_restore (cr);
}

double
ms_timeline_draw_legend (cairo_t *cr, const MsChartStyle *st, const gboolean seen[MS_PHASE_COUNT],
                         double y, double width, guint hints, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  const struct {
    guint hint;
    const char *text;
  } lines[] = {
    { MS_TIMELINE_HINT_WAITED,
      N_ ("pale copy: queued behind the one before it (one copy at a time each way)") },
    { MS_TIMELINE_HINT_ONE_STREAM,
      N_ ("pale: waiting for the work before it on the one stream all lanes share") },
    { MS_TIMELINE_HINT_HOST,
      N_ ("host lane: hatched = asynchronous call, outlined = call blocked the host") },
    /* One "host lane" for both: said twice, it read as two lanes. */
    { MS_TIMELINE_HINT_SPECKS | MS_TIMELINE_HINT_OUTLINED,
      N_ ("host lane: specks = short asynchronous calls, outlined = call blocked the host") },
    { MS_TIMELINE_HINT_HATCHED, N_ ("host lane: hatched = asynchronous call") },
    { MS_TIMELINE_HINT_SPECKS, N_ ("host lane: specks = short asynchronous calls") },
    { MS_TIMELINE_HINT_OUTLINED, N_ ("host lane: outlined = call blocked the host") },
    { MS_TIMELINE_HINT_HOST_READ,
      /* No "copy engine", a term the slide had not glossed; and what
       * ends the repetition either way, as a class asked whether the
       * prefetch's run left the CPU's read out. */
      N_ ("CPU reads: the host reads the result itself, its pages faulting back from the GPU; "
          "this ends the repetition, as a prefetch back does (the check that reads the result "
          "later is timed in neither)") },
    { MS_TIMELINE_HINT_CUT, N_ ("notch: the bar goes on past the window") },
  };
  /* The CPU's reads are drawn in d2h's colour (the result's way back,
   * which a copy makes in the other modes); where they are what it marks
   * (managed memory, where no d2h copy is drawn), its swatch says so,
   * first in the row: keyed "d2h", a copy was looked for. */
  gboolean reads = (hints & MS_TIMELINE_HINT_HOST_READ) && seen[MS_PHASE_D2H];
  gboolean shown[MS_PHASE_COUNT];
  memcpy (shown, seen, sizeof shown);
  shown[MS_PHASE_D2H] = seen[MS_PHASE_D2H] && !reads;
  const char *reads_name = _ ("CPU reads (page faults)");
  if (reads && draw)
    ms_draw_phase_swatch (cr, st, MS_PHASE_D2H, reads_name, fs, y);
  double x = reads ? fs * 3.3 + ms_draw_text_width (cr, reads_name, fs, FALSE) : fs;
  double h = ms_draw_phase_legend (cr, shown, st, x, y, width - fs, draw);
  /* One paragraph: a line each would cost a stack of timelines a row. */
  g_autoptr (GString) text = g_string_new (NULL);
  /* The host lane's looks: one line for both or for the one drawn; the
   * specks go unsaid beside hatching that shows, whose word covers them. */
  if (hints & MS_TIMELINE_HINT_HATCHED)
    hints &= ~(guint) MS_TIMELINE_HINT_SPECKS;
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    if ((hints & lines[i].hint) == lines[i].hint
        && !(lines[i].hint != MS_TIMELINE_HINT_HOST && (lines[i].hint & MS_TIMELINE_HINT_HOST)
             && (hints & MS_TIMELINE_HINT_HOST) == MS_TIMELINE_HINT_HOST))
    {
      g_string_append_printf (text, "%s%s", text->len ? "; " : "", _ (lines[i].text));
      hints &= ~lines[i].hint;
    }
  /* The copies' short names spelt out first, a class read "d2h" as a
   * code; in the paragraph of hints alone, as a line of its own cost a
   * picture of two timelines their lanes' names. */
  gboolean d2h = seen[MS_PHASE_D2H] && !reads;
  const char *copies = seen[MS_PHASE_H2D] && d2h ? _ ("h2d: host → device, d2h: device → host")
                       : seen[MS_PHASE_H2D]      ? _ ("h2d: host → device")
                       : d2h                     ? _ ("d2h: device → host")
                                            : NULL;
  /* The launch's swatch beside the kernel's said not how they differ. */
  if (text->len && seen[MS_PHASE_LAUNCH])
    g_string_append_printf (text, "; %s", _ ("launch: the host's call that starts the kernel"));
  if (text->len && copies) {
    g_string_prepend (text, "; ");
    g_string_prepend (text, copies);
  }
  if (text->len) {
    /* Full strength, as the charts' foot notes: grey washed out on a
     * projector. */
    ms_set_color (cr, &st->fg, 1);
    h += fs * 0.3;
    h += ms_draw_text_wrapped (cr, text->str, fs, y + h, fs * 0.9, width - 2 * fs, FALSE, draw);
  }
  return h + fs * 0.4;
}

/* Whether ev's host part shows in win: as the index files it, none for
 * a kernel's host part of no length. */
static gboolean
host_in_window (const MsEvent *ev, const MsTimeWindow *win)
{
  return isfinite (ev->host_start_us) && isfinite (ev->host_us) && ev->host_start_us < win->t1
         && ev->host_start_us + ev->host_us > win->t0
         && (ev->phase != MS_PHASE_KERNEL || ev->host_us > 0);
}

/* The host lane's look of ev in win: hatched, outlined, a host-only d2h
 * (the CPU reading the result: drawn in d2h's colour but no copy) or
 * none. */
static guint
host_hint (const MsEvent *ev, const MsTimeWindow *win)
{
  if (!host_in_window (ev, win))
    return 0;
  if (ev->gpu_us < 0)
    return ev->phase == MS_PHASE_D2H ? MS_TIMELINE_HINT_HOST_READ : 0;
  if (ms_index_blocked_host (ev))
    return MS_TIMELINE_HINT_OUTLINED;
  /* A hatch is a key's word only where it can be seen: under a
   * sixtieth of the window (1 to 3 px on a projected slide) a call shows
   * as a speck, and a reader looked for the hatching the key named; left
   * unnamed, the specks were asked about. */
  double shown = fmin (ev->host_start_us + ev->host_us, win->t1)
                 - fmax (ev->host_start_us, win->t0);
  return shown >= (win->t1 - win->t0) / 60 ? MS_TIMELINE_HINT_HATCHED : MS_TIMELINE_HINT_SPECKS;
}

guint
ms_timeline_hints (const MsCell *cell, int rep, const MsRepMap *reps, const MsTimeWindow *win)
{
  guint hints = 0;
  if (ms_timeline_one_stream_waited (cell, rep, reps, win))
    hints |= MS_TIMELINE_HINT_ONE_STREAM;
  else if (ms_timeline_copies_waited (cell, rep, reps, win))
    hints |= MS_TIMELINE_HINT_WAITED;
  size_t first, last;
  ms_rep_map_bounds (reps, cell, rep, &first, &last);
  for (size_t i = first; i < last; i++) {
    const MsEvent *ev = &cell->events[i];
    if (ev->rep != rep)
      continue;
    hints |= host_hint (ev, win);
    gboolean host_cut = ev->host_start_us < win->t1 && ev->host_start_us + ev->host_us > win->t1;
    gboolean gpu_cut
        = ev->gpu_us >= 0 && ev->gpu_start_us < win->t1 && ev->gpu_start_us + ev->gpu_us > win->t1;
    /* A bar cut by a window that ends before it (zoomed in) is plain. */
    if ((host_cut || gpu_cut) && win->t1 >= win->total_us * 0.5)
      hints |= MS_TIMELINE_HINT_CUT;
  }
  return hints;
}

/* The spacing of time ticks on xs that gives three at least where their
 * labels still fit (text size fs). */
static double
ms_timeline_tick_spacing (const MsScale *xs, double fs)
{
  /* Three ticks at least, where labels such as "1.25 ms" still fit
   * between them: one tick reads as a clock, not a length. */
  double length = fabs (xs->pixel_hi - xs->pixel_lo), spacing = fs * 7;
  MsTick ticks[16];
  while (spacing > fs * 4 && ms_axis_ticks (xs, length, spacing, ticks, 16) < 3)
    spacing *= 0.85;
  return spacing;
}

/* The title's height, the legend's and the lanes' geometry. The hint
 * under the legend goes first when the lanes would be thinner than
 * MIN_LANE_PX with it. */
static void
timeline_measure (cairo_t *cr, const MsTimelineIndex *ix, const MsTimeWindow *win,
                  const gboolean seen[MS_PHASE_COUNT], const MsChartStyle *st, double width,
                  double height, const char *title, const MsTimelineParts *parts, double *top,
                  guint *hints, MsTimelineGeometry *g)
{
  const double min_lane = parts->min_lane_px > 0 ? parts->min_lane_px : MIN_LANE_PX;
  *top = draw_title (cr, st, width, title, parts->tight, FALSE);
  if (parts->no_legend)
    *hints = 0;
  for (;;) {
    double legend_h
        = parts->no_legend ? 0 : ms_timeline_draw_legend (cr, st, seen, 0, width, *hints, FALSE);
    timeline_geometry (cr, st, win, ix, width, height, *top, legend_h, parts, g);
    if (!*hints || g->fit_lane_h >= min_lane)
      return;
    *hints = 0;
  }
}

/* The geometry repetition rep of cell gets in width x height; FALSE for
 * nothing to draw. */
static gboolean
measure_cell (cairo_t *cr, const MsCell *cell, int rep, const MsChartStyle *st, double width,
              double height, const char *title, const MsTimelineParts *parts,
              const MsTimeWindow *shown, gboolean seen[MS_PHASE_COUNT], MsTimelineGeometry *g)
{
  if (!cell || cell->n_events == 0)
    return FALSE;
  MsTimelineIndex *ix = ms_timeline_index_new (cell, rep, NULL, NULL);
  MsTimeWindow win;
  double top;
  guint hints = MS_TIMELINE_HINT_HOST;
  ms_time_window_reset (&win, 1);
  geometry_lanes (cell, rep, NULL, shown, parts, ix->n_lanes, g);
  timeline_measure (cr, ix, &win, ix->seen, st, width, height, title, parts, &top, &hints, g);
  if (seen)
    memcpy (seen, ix->seen, sizeof ix->seen);
  ms_timeline_index_free (ix);
  return TRUE;
}

double
ms_timeline_measure (cairo_t *cr, const MsCell *cell, int rep, const MsChartStyle *st, double width,
                     double height, const char *title, const MsTimelineParts *parts,
                     gboolean seen[MS_PHASE_COUNT])
{
  MsTimelineGeometry g;
  if (!measure_cell (cr, cell, rep, st, width, height, title, parts, NULL, seen, &g))
    return 0;
  geometry_clear (&g);
  return g.fit_lane_h;
}

gboolean
ms_timeline_frame (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                   const MsChartStyle *st, double width, const char *title,
                   const MsTimelineParts *parts, MsTimelineFrame *frame)
{
  MsTimelineGeometry g;
  /* Tall enough for lanes of any size: what is not lanes is the frame. */
  const double height = 10000;
  if (!measure_cell (cr, cell, rep, st, width, height, title, parts, win, NULL, &g))
    return FALSE;
  frame->n_lanes = g.n_rows;
  frame->fixed_h = round (height - g.fit_lane_h * g.n_rows);
  frame->label_w = g.px0;
  geometry_clear (&g);
  return TRUE;
}

void
ms_timeline_draw_parts (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                        const MsChartStyle *st, double width, double height, const char *title,
                        const MsTimelineParts *parts, MsTimelineLayout *layout)
{
  const double fs = ms_style_font_size (st);
  if (layout)
    g_array_set_size (layout->bars, 0);
  if (!cell || cell->n_events == 0) {
    /* A cell with data but no events comes from a summary file. */
    const char *why = !cell              ? _ ("Run a sweep or open a CSV file to see a timeline")
                      : cell->message[0] ? cell->message
                                         : _ ("a summary file has no per-repetition events; "
                                              "open the samples file");
    ms_timeline_draw_message (cr, st, width, height, title, why);
    return;
  }

  cairo_save (cr);
  MsTimelineIndex *owned;
  const MsTimelineIndex *ix = timeline_index (cell, rep, layout, &owned);
  /* The legend wraps to the width: measured first, so that the lanes
   * leave it room. */
  MsTimelineGeometry g;
  double top;
  /* The legend names what the window shows, not what it leaves out. A
   * repetition of very many events keeps the index's phases and the host
   * lane's line: reading all of them every frame would cost the frame. */
  gboolean seen[MS_PHASE_COUNT];
  const MsRepMap *reps = layout ? layout->reps : NULL;
  size_t first, last;
  ms_rep_map_bounds (reps, cell, rep, &first, &last);
  guint hints = MS_TIMELINE_HINT_HOST;
  if (last - first > MAX_EVENTS_PER_FRAME_SCAN) {
    memcpy (seen, ix->seen, sizeof seen);
  } else {
    ms_timeline_seen_in (cell, rep, reps, win, seen);
    hints = ms_timeline_hints (cell, rep, reps, win);
  }
  guint found = hints;
  geometry_lanes (cell, rep, reps, win, parts, ix->n_lanes, &g);
  timeline_measure (cr, ix, win, seen, st, width, height, title, parts, &top, &hints, &g);
  timeline_background (cr, st, &g);
  draw_title (cr, st, width, title, parts->tight, TRUE);
  if (layout) {
    layout->plot_x = g.px0;
    layout->plot_y = g.py0;
    layout->plot_w = g.pw;
    layout->plot_h = g.ph;
  }
  timeline_lanes (cr, st, &g, ix);
  /* The times from where the window was opened, not the run's clock. */
  MsScale xs = { MS_SCALE_LINEAR, win->t0 - win->origin_us, win->t1 - win->origin_us, g.px0,
                 g.px0 + g.pw,    MS_SCALE_TIME_US };
  double spacing = ms_timeline_tick_spacing (&xs, fs);
  if (parts->no_time_labels)
    ms_draw_time_grid (cr, st, &xs, g.py0, g.py0 + g.ph, spacing);
  else
    ms_draw_time_axis (cr, st, &xs, g.py0, g.py0 + g.ph, spacing, width - fs * 0.3);
  gboolean cut_marks
      = parts->no_legend ? !parts->no_cut_marks : (hints & MS_TIMELINE_HINT_CUT) != 0;
  timeline_bars (cr, st, ix, &g, found, parts, cut_marks, cell, layout);
  if (!parts->no_legend)
    ms_timeline_draw_legend (cr, st, seen, g.py0 + g.ph + g.axis_h + fs * 0.2, width, hints, TRUE);
  ms_timeline_index_free (owned);
  geometry_clear (&g);
  cairo_restore (cr);
}

void
ms_timeline_draw (cairo_t *cr, const MsCell *cell, int rep, const MsTimeWindow *win,
                  const MsChartStyle *st, double width, double height, const char *title,
                  MsTimelineLayout *layout)
{
  const MsTimelineParts all = { FALSE, FALSE };
  ms_timeline_draw_parts (cr, cell, rep, win, st, width, height, title, &all, layout);
}

const MsTimelineBar *
ms_timeline_layout_hit (const MsTimelineLayout *l, double x, double y)
{
  /* Last drawn wins: stream bars come before host bars of the same event. */
  for (guint i = l->bars ? l->bars->len : 0; i-- > 0;) {
    const MsTimelineBar *b = &g_array_index (l->bars, MsTimelineBar, i);
    if (x >= b->x - 1 && x <= b->x + b->w + 1 && y >= b->y && y <= b->y + b->h)
      return b;
  }
  return NULL;
}
