/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-chart.h: line charts with log2 size axes, drawn with Cairo onto any
 * surface (the screen, PNG/SVG/PDF exports, render tests). Hit testing
 * works on the layout the last draw produced, without a widget. */
#pragma once

#include "ms-draw.h"

G_BEGIN_DECLS

typedef struct {
  double x;         /* bytes per vector */
  double y;         /* value; ignored when failed */
  double lo, hi;    /* error bar (min, max); lo > hi: none */
  gboolean failed;  /* no value: a hollow, struck-through marker on the x axis */
  gboolean partial; /* a value from fewer repetitions than planned: hollow, struck through */
  char *note;       /* why, for the read-out ("cancelled after 3 of 10 repetitions") */
  /* Repetitions in two states (MsTwoStates): each state's value, drawn as
   * a wide tick across the bar, since the median lies between them; both
   * 0 for one state. */
  double state_lo, state_hi;
  /* Drawn faint, as a muted series is (its bar, marker and the line to
   * it): a point the caller says is not to be weighed, e.g. one that is
   * noise by definition. */
  gboolean muted;
  /* Struck through with a cross, at its value and on its line: a point
   * the caller's verdict goes against (the picture's key says which). */
  gboolean crossed;
} MsChartPoint;

typedef struct {
  char *label;       /* unique: the legend's key for hiding */
  char *short_label; /* the mode alone, under its run's heading */
  char *group;       /* the run's name when several runs are shown, else NULL */
  /* The name the legend and line end show in place of the mode's (e.g. one
   * that says its line lies on another's); NULL: the mode's. Not a key. */
  char *shown_name;
  guint color; /* palette index */
  guint shape; /* marker shape */
  guint dash;  /* 0 solid, 1 dashed, 2 dotted, 3 dash-dot */
  guint run;   /* which run, from 0: its marker fill (ms_run_fill) */
  gboolean hidden;
  /* A line that goes with another series (when its copy was done, beside
   * when the call returned): no markers, so that it reads apart from the
   * measured line of the same colour. */
  gboolean no_markers;
  /* Drawn faint (MS_CHART_MUTED_ALPHA) behind the others: a series a
   * lesson's takeaway does not compare, kept for who looks closer (the
   * reuse chart's variants, sync-async's other lines on a slide). */
  gboolean muted;
  /* Drawn at 2^x_nudge times each x (ms_chart's axis widens by as much): two
   * series at the same sizes whose bars or lines would lie on each other
   * stand a little apart. */
  double x_nudge;
  /* A bar with an end under its marker, its caps drawn past the marker's
   * sides: hidden under it, the range could not be checked. */
  gboolean caps_out;
  GArray *points; /* MsChartPoint, in x order */
} MsChartSeries;

/* How strongly a muted series' marks show: its colour still tells it
 * apart and the others read first; its key in a legend a little
 * stronger, its words at MS_CHART_MUTED_TEXT_ALPHA (4.5:1 and more). */
/* Stronger on a dark background, where at 0.4 the palette's darker
 * colours all but vanished. */
/* A point muted alone: as faint in both themes (noise by definition). */
#define MS_CHART_MUTED_POINT_ALPHA 0.4
#define MS_CHART_MUTED_ALPHA(style) ((style)->dark ? 0.6 : MS_CHART_MUTED_POINT_ALPHA)
#define MS_CHART_MUTED_KEY_ALPHA(style) ((style)->dark ? 0.75 : 0.6)
#define MS_CHART_MUTED_TEXT_ALPHA 0.8

typedef struct {
  double y;
  char *label;
  /* Where on the line the figure was measured (x in data units), for the
   * label's leader to end at; 0: anywhere on the line. */
  double x;
} MsChartRefLine;

/* A point a lesson's takeaway quotes (x, y in data units): ringed, with
 * label beside it where it covers no data (ms-chart-callout.c). */
typedef struct {
  double x, y;
  char *label;
  /* A remark on a point the takeaway does not quote: its label and
   * leader, no ring, which marks only what the takeaway speaks of. */
  gboolean remark;
} MsChartCallout;

typedef struct {
  char *title;
  char *x_label;
  char *y_label;
  char *unit; /* for the crosshair read-out, e.g. "GB/s"; unused for times */
  MsScaleKind y_kind;
  MsScaleUnit y_unit;  /* MS_SCALE_TIME_US: values in µs, shown as µs, ms or s */
  double x_min, x_max; /* sizes always in range (a sweep's plan); 0: the data's */
  double y_min, y_max; /* values always in range (panels that share one); 0: the data's */
  /* y_min..y_max is the whole range, the data's bars cut at its edges:
   * a few long bars flattened every median to one line. */
  gboolean y_fixed;
  /* MS_SCALE_PLAIN: x is bytes per vector; MS_SCALE_COUNT: a count (a
   * lesson's K, N or FMAs per element), labelled as numbers. */
  MsScaleUnit x_unit;
  gboolean direct_labels; /* each series named at its line's end */
  gboolean no_legend;     /* the caller draws one legend for several charts */
  gboolean fit_y;         /* the y range hugs the data (ms_scale_fit_tight) */
  /* The reference lines over the series, stronger: a line the data runs
   * along (sync-async's 200 µs kernel under cudaMemcpy's line) could not
   * be seen under it. */
  gboolean refs_over;
  double direct_share;    /* the widest the direct labels' gutter may be; 0: a quarter */
  GPtrArray *series;      /* MsChartSeries* */
  GArray *refs;           /* MsChartRefLine */
  GArray *callouts;       /* MsChartCallout */
  char *empty_text;       /* shown when there is nothing to draw */
  char *caption;          /* a line under the title, for charts that draw one */
  /* Wrapped under the x axis across the chart, smaller: what the reader
   * must know to read some series (which cross no link); NULL: none. */
  char *foot_note;
  /* Sizes whose ticks keep their labels (those a caption names), in place
   * of neighbours they would cover; 0: none. */
  double x_marks[3];
  /* The error bars span every repetition, fastest to slowest (too few
   * for the median's 95% interval): a legend's key says so. */
  gboolean range_bars;
} MsChartData;

typedef struct {
  double x, y, w, h;
  guint series;
} MsChartBox;

typedef struct {
  double plot_x, plot_y, plot_w, plot_h;
  MsScale xs, ys;
  GArray *legend; /* MsChartBox */
  /* Where the legend goes: right of the plot, or below it in columns. */
  gboolean legend_below;
  gboolean legend_compact; /* modes once, then runs once: many runs */
  double legend_fs;        /* the legend's text size: smaller when crowded */
  double legend_x, legend_y, legend_w, legend_h, legend_col_w;
  double direct_w;  /* the gutter right of the plot for direct labels */
  GArray *notes;    /* MsChartBox: the reference lines' labels as placed (series: the line) */
  /* MsChartBox: every reference label, with a background or not, for the
   * callouts to keep clear of. */
  GArray *labels;
  double x_title_h; /* the x axis title's height, wrapped where the picture is narrower */
  double foot_h;    /* the foot note's height; 0: not drawn */
  guint foot_notes; /* how many of its lines (notes) are drawn */
  double foot_fs;   /* their text size */
  double marker_r;  /* the markers' radius: a label over a marker's edge hides it too */
  double tick_fs;   /* the ticks' text size (ms_draw_figure_size) */
} MsChartLayout;

MsChartData *ms_chart_data_new (void);
void ms_chart_data_free (MsChartData *data);
/* Frees series i of data, the later ones moving down one. */
void ms_chart_data_remove_series (MsChartData *data, guint i);
MsChartSeries *ms_chart_data_add_series (MsChartData *data, const char *label, guint color,
                                         guint shape, guint dash);
void ms_chart_series_add (MsChartSeries *series, double x, double y, double lo, double hi,
                          gboolean failed);
/* Its points in x order, those of one x in the order added; NULL: nothing. */
void ms_chart_series_sort (MsChartSeries *series);
/* The last point added is failed or partial for the reason in note. */
void ms_chart_series_note_last (MsChartSeries *series, gboolean partial, const char *note);
void ms_chart_data_add_ref (MsChartData *data, double y, const char *label);
/* A key's sample of a line: a stretch of length in colour c at alpha with
 * dash (none without line), and the marker of shape and run's fill at its
 * middle, radius marker_r, centred on y_mid. The chart's legend and the
 * keys pictures draw beside their charts share it. */
void ms_chart_draw_sample (cairo_t *cr, const MsChartStyle *st, const MsColor *c, double alpha,
                           gboolean line, guint dash, guint shape, guint run, double x,
                           double y_mid, double length, double marker_r);
/* Rings the point (x, y) with label beside it: the figure a takeaway
 * quotes, for the eye to find. */
void ms_chart_data_add_callout (MsChartData *data, double x, double y, const char *label);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MsChartData, ms_chart_data_free)

void ms_chart_layout_init (MsChartLayout *layout);
void ms_chart_layout_clear (MsChartLayout *layout);

/* Draws the whole chart into width x height user units. hover_x < 0: no
 * crosshair; otherwise the crosshair snaps to the nearest size. layout, when
 * given, receives the geometry for hit testing. */
void ms_chart_draw (cairo_t *cr, const MsChartData *data, const MsChartStyle *style, double width,
                    double height, double hover_x, MsChartLayout *layout);

/* The layout ms_chart_draw would give data in width x height, measured without drawing: where
 * its plot goes, for words a caller places beside it. */
void ms_chart_measure (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                       double width, double height, MsChartLayout *layout);

/* Only the crosshair, over a chart drawn before with this layout: hovering
 * repaints a cached chart and this. */
void ms_chart_draw_crosshair (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                              const MsChartLayout *layout, double hover_x);

/* A box in the chart's pixels, for placing annotations. */
typedef struct {
  double x, y, w, h;
} MsChartRect;
gboolean ms_chart_rects_overlap (const MsChartRect *a, const MsChartRect *b);

/* ms-chart-place.c. Whether p has a place on the chart: a value, and
 * above 0 on a log axis. */
gboolean ms_chart_point_shown (const MsChartData *data, const MsChartPoint *p);
/* How much of the drawn data (markers 2 each, line stretches 1 each) the
 * box, grown by margin on every side, would cover; 0: none. */
double ms_chart_data_cover (const MsChartData *data, const MsChartLayout *layout, double margin,
                            double x, double y, double w, double h);

/* Every opaque label placed over a chart's plot (a callout's) on this
 * thread goes to check with how much data its box covers, by
 * ms_chart_data_cover without margin: the render tests fail a label that
 * hides a marker, a stretch of line or an error bar. NULL stops. */
typedef void (*MsChartLabelCheck) (const char *label, double cover, const MsChartRect *device_box,
                                   gpointer data);
void ms_chart_set_label_check (MsChartLabelCheck check, gpointer data);
/* box in cr's user space; the check gets it in device pixels too, for a
 * test that looks at the drawn data under it (ms_draw_data_only_begin). */
void ms_chart_check_label (cairo_t *cr, const MsChartData *data, const MsChartLayout *layout,
                           const char *label, const MsChartRect *box);

/* The callouts, over the series and inside the plot (ms-chart-callout.c). */
void ms_chart_callouts_draw (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                             const MsChartLayout *layout);

/* Index of the legend entry under (x, y), or -1. */
int ms_chart_layout_hit_legend (const MsChartLayout *layout, double x, double y);
/* Whether (x, y) lies in the plot area. */
gboolean ms_chart_layout_in_plot (const MsChartLayout *layout, double x, double y);

/* ms_chart_draw_crosshair is in ms-chart-readout.c. ms-chart-legend.c: the
 * legend (beside or below, grouped by run, never
 * ellipsized) and the direct labels at the line ends, nudged apart. */
void ms_chart_legend_measure (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                              double width, double height, MsChartLayout *layout);
void ms_chart_legend_draw (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                           MsChartLayout *layout);
void ms_chart_direct_labels (cairo_t *cr, const MsChartData *data, const MsChartStyle *style,
                             const MsChartLayout *layout);
/* Whether a visible point is failed or partial (the legend then explains
 * the hollow markers). */
gboolean ms_chart_data_has_notes (const MsChartData *data);
/* The first series before series i that i's line lies on, by the
 * caller's rule, or NULL: a chart names such a line after the one over it. */
typedef gboolean (*MsSeriesLiesOn) (const MsChartSeries *earlier, const MsChartSeries *later);
MsChartSeries *ms_chart_data_lies_on (const MsChartData *data, guint i, MsSeriesLiesOn rule);
/* Whether a and b have values within tolerance (a share of the larger) at
 * the same sizes, failing at the same ones: one line drawn twice. */
gboolean ms_chart_series_same_values (const MsChartSeries *a, const MsChartSeries *b,
                                      double tolerance);

G_END_DECLS
