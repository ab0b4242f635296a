/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-draw.h: what the chart, the timeline and the breakdown share: the
 * style, text, markers and dashes, and the axis steps (ticks, grid lines,
 * labels); the colours they pick from are in ms-palette.h. Cairo, Pango
 * and GLib only. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <pango/pango.h>

#include "memsweep.h"
#include "ms-palette.h"
#include "ms-scale.h"

G_BEGIN_DECLS

typedef struct {
  MsColor fg;
  MsColor bg;
  gboolean dark;
  double text_scale; /* 1 normal; larger in presentation mode */
  double line_scale;
  gboolean high_contrast; /* stronger grid and frame (projectors, a11y) */
  gboolean slide;         /* a slide's layout at any height: the export of a slide shown */
  /* A slide's layout on paper, read in the hand (a handout): its figures at the text's size,
   * not a projector's back row's (a handout's host-link bars were squeezed to a fifth of the
   * width by figures half again as tall as its words). */
  gboolean paper;
} MsChartStyle;

void ms_chart_style_init_light (MsChartStyle *style);
void ms_chart_style_init_dark (MsChartStyle *style);

/* Text size, line width and a series marker's radius in user units for a
 * style. Markers are large enough for a run's fill (ms_run_fill) to show
 * in every shape. */
double ms_style_font_size (const MsChartStyle *style);
double ms_style_line_width (const MsChartStyle *style);
double ms_style_marker_radius (const MsChartStyle *style);

/* The colour with its alpha multiplied by alpha as the source. */
void ms_set_color (cairo_t *cr, const MsColor *color, double alpha);
/* The style's background over the whole target. */
void ms_draw_background (cairo_t *cr, const MsChartStyle *style);

/* Text at (x, y) aligned by align_x, align_y (0 left/top .. 1 right/bottom);
 * align_x < 0 only measures. */
void ms_draw_text (cairo_t *cr, const char *text, double x, double y, double size,
                   double align_x, double align_y, gboolean bold, double *w_out, double *h_out);
/* The width text would take at size, as ms_draw_text measures it. */
double ms_draw_text_width (cairo_t *cr, const char *text, double size, gboolean bold);
/* Left-aligned text from (x, y), ellipsized to max_w user units. */
void ms_draw_text_max (cairo_t *cr, const char *text, double x, double y, double size,
                       double max_w);
/* text with the space between a figure and its unit ("1 MiB", "84 µs",
 * "50.1 GB/s") a no-break space, so that a wrapped line never ends on
 * the figure with its unit on the next. Free with g_free. */
char *ms_text_join_units (const char *text);
/* Whether any font can be drawn with: none where fontconfig could not
 * read its configuration (under a descriptor limit, `ulimit -n 8`), and
 * every text would then be drawn as nothing, its size measured as
 * nonsense. */
gboolean ms_draw_fonts_ready (void);
/* Left-aligned text from (x, y) wrapped at words to max_w user units,
 * never between a figure and its unit; only measures when draw is FALSE.
 * Returns the height. */
double ms_draw_text_wrapped (cairo_t *cr, const char *text, double x, double y, double size,
                             double max_w, gboolean bold, gboolean draw);

/* A note with a drawing (a chart's foot note, what a key's marks mean, a
 * finding in words) at x, y, wrapped to max_w: the body text's size and
 * colour. At nine tenths of the size and four fifths of the colour, notes
 * were the smallest, grayest text on a projected card, and still washed
 * out at 0.85. Returns the height; only measures when draw is FALSE. */
double ms_draw_note (cairo_t *cr, const MsChartStyle *style, const char *text, double x, double y,
                     double max_w, gboolean draw);

/* The runs a picture shows (ms_plot_runs_line), one line in a strip along
 * the bottom of width x height, ellipsized: a projected chart names its
 * machine. The strip's height, which the caller leaves to it (0: none,
 * when text is empty or the drawing too low for it); _height only
 * measures. */
double ms_draw_runs_line (cairo_t *cr, const MsChartStyle *style, const char *text,
                          double width, double height);
double ms_draw_runs_line_height (cairo_t *cr, const MsChartStyle *style, const char *text,
                                 double height);

/* While a sink is set on cr, the two calls above hand it each laid-out
 * text at the current point instead of drawing glyphs: SVG exports write
 * the text as <text> elements (ms-svg-text.h). NULL removes it. */
typedef void (*MsTextSink) (cairo_t *cr, PangoLayout *layout, gpointer data);
void ms_draw_set_text_sink (cairo_t *cr, MsTextSink sink, gpointer data);
gboolean ms_draw_has_text_sink (cairo_t *cr);

/* Between these, drawing on cr leaves nothing but its text: a drawing
 * faded as a whole is drawn once more so, and its words keep their
 * contrast (4.5:1) over the marks that step back. */
void ms_draw_text_only_begin (cairo_t *cr);
void ms_draw_text_only_end (cairo_t *cr);
/* Between these, drawing on cr leaves nothing but the data of its charts:
 * their lines, markers, error bars and reference lines, unfaded, and no
 * word. The render tests draw a picture so to find the pixels of its data
 * under each label box (tests/draw/test-render-slides.c). */
void ms_draw_data_only_begin (cairo_t *cr);
void ms_draw_data_only_end (cairo_t *cr);
gboolean ms_draw_is_data_only (cairo_t *cr);
/* Whether a picture height px tall in style is a projected slide (under
 * 34 lines of its text: a Lessons page at 1024x768 in presentation
 * mode), where a lesson keeps its finding and leaves the rest to a
 * larger view. */
gboolean ms_draw_is_slide (const MsChartStyle *style, double height);

/* Draws through draw, its marks at alpha and its words at full strength
 * (a second, text-only pass; an SVG's text goes out whole through its sink
 * already). Returns what draw returned: FALSE, nothing was drawn. */
typedef gboolean (*MsFadedDraw) (cairo_t *cr, gpointer data);
gboolean ms_draw_faded (cairo_t *cr, double alpha, MsFadedDraw draw, gpointer data);
/* The alpha a fade of alpha is drawn at in style: on a dark background
 * half as far from 1, where the palette's darker colours at 0.7 fell to
 * about 3:1 on the background and a muted mark among them went unseen. */
double ms_draw_fade_alpha (const MsChartStyle *style, double alpha);


/* Every text box drawn (not measured) on this thread goes to the recorder,
 * in device units: the render tests check that no label leaves the drawing
 * or covers another. NULL stops recording. */
typedef void (*MsTextRecorder) (const char *text, double x, double y, double w, double h,
                                gpointer user_data);
void ms_draw_set_text_recorder (MsTextRecorder recorder, gpointer user_data);
/* Every text drawn cut short at its width (ellipsized, as Pango laid it
 * out) on this thread goes to the recorder, in user units, with the whole
 * text: a PDF's text layer holds the words the page cuts, so a test of
 * what is printed asks the drawing. NULL stops. */
void ms_draw_set_cut_recorder (MsTextRecorder recorder, gpointer user_data);
/* While set on cr (ms_draw_slide_sizes_begin), no text is laid out
 * (measured or drawn) smaller than size user units: a projected slide
 * keeps every caption, key and axis label at its body size, which a back
 * row reads beside the takeaway (at nine tenths of it, the x-height fell
 * under 60 % of the takeaway's). */
double ms_draw_get_least_text (cairo_t *cr);
/* While set on cr (ms_draw_slide_sizes_begin), a figure (an axis's tick,
 * a value's label) is drawn at no less than the size whose capitals are
 * MS_SLIDE_FIGURE_CAP user units tall (the window's pixels), as Pango lays
 * out "H" in the drawing's font: what a back row reads on a projected
 * slide (20 px at 1024x768). ms_draw_figure_size is size, or that least
 * size where it is larger. */
#define MS_SLIDE_FIGURE_CAP 20
double ms_draw_figure_size (cairo_t *cr, double size);
/* Sets on cr the least sizes of a projected slide (ms_draw_is_slide:
 * words at the body size, figures with capitals of MS_SLIDE_FIGURE_CAP
 * px), none elsewhere; _end sets again those that were before. A
 * lesson's drawing is between the two, and so are the timelines and
 * charts drawn within it. */
typedef struct {
  double text, figure_cap;
} MsLeastSizes;
MsLeastSizes ms_draw_slide_sizes_begin (cairo_t *cr, const MsChartStyle *style, double height);
void ms_draw_slide_sizes_end (cairo_t *cr, MsLeastSizes before);
/* Every text drawn on this thread goes to the recorder with the size of
 * its font on the device (pixels) and its weight: a test measures the
 * glyphs a class reads against the takeaway's. NULL stops. */
typedef void (*MsTextSizeRecorder) (const char *text, double size_px, gboolean bold,
                                    gpointer user_data);
void ms_draw_set_size_recorder (MsTextSizeRecorder recorder, gpointer user_data);

/* Markers (shapes in ms-palette.h). The path alone lets many markers go
 * out in one fill. */
void ms_marker_path (cairo_t *cr, guint shape, double x, double y, double r);
/* n markers of one shape and fill, centred at xy (x, y pairs), radius r,
 * outlines line_width wide, in the current source: one path per step, not
 * one per marker. What the fill leaves open is painted in face first (the
 * background, so that a line under a marker does not show through and
 * read as another fill), or left see-through when face is NULL. */
void ms_draw_markers (cairo_t *cr, guint shape, MsMarkerFill fill, const double *xy, guint n,
                      double r, double line_width, const MsColor *face);
/* A line from (x0, y0) to (x1, y1), line_width wide, in the current source
 * and dash. */
void ms_draw_line (cairo_t *cr, double line_width, double x0, double y0, double x1, double y1);
/* 0 solid, 1 dashed, 2 dotted, 3 dash-dot. */
void ms_set_dash (cairo_t *cr, guint dash, double line_width);

/* Ticks for an axis length_px long with about spacing_px between labels:
 * at least 2, at most cap. */
guint ms_axis_ticks (const MsScale *scale, double length_px, double spacing_px, MsTick *ticks,
                     guint cap);
/* Grid lines line_width wide centred on whole pixels, as rectangles to
 * fill: vertical ones at x ticks from y0 to y1, horizontal ones at y ticks
 * from x0 to x1. */
void ms_grid_path_x (cairo_t *cr, const MsScale *xs, const MsTick *ticks, guint n, double y0,
                     double y1, double line_width);
void ms_grid_path_y (cairo_t *cr, const MsScale *ys, const MsTick *ticks, guint n, double x0,
                     double x1, double line_width);
/* The same rectangles as x, y, w, h in boxes (4 n doubles);
 * vertical is TRUE for ms_grid_path_x's (from lo to hi along y), FALSE
 * for ms_grid_path_y's (along x). */
void ms_grid_boxes (const MsScale *scale, const MsTick *ticks, guint n, double lo, double hi,
                    double line_width, gboolean vertical, double *boxes);
/* Adds the n boxes (x, y, w, h each) to the path as rectangles. */
void ms_boxes_path (cairo_t *cr, const double *boxes, guint n);
/* Fills what stroking the rectangle (x + 0.5, y + 0.5, w - 1, h - 1) would
 * paint: a frame inside (x, y, w, h) on whole pixels. */
void ms_frame_rect (cairo_t *cr, double x, double y, double w, double h, double line_width);
/* Its four strips, which do not overlap, as x, y, w, h in boxes. */
void ms_frame_boxes (double x, double y, double w, double h, double line_width,
                     double boxes[16]);
/* A time axis for a plot from top to bottom: grid lines and, under them,
 * labels with their unit; xs counts in µs (its unit MS_SCALE_TIME_US picks
 * µs, ms or s). The last label moves left to stay inside right_edge. */
void ms_draw_time_axis (cairo_t *cr, const MsChartStyle *style, const MsScale *xs, double top,
                        double bottom, double spacing_px, double right_edge);
/* The same for a linear axis of plain values from xs (its own unit), the
 * last label followed by unit ("60 GB/s"); unit may be NULL. */
void ms_draw_value_axis (cairo_t *cr, const MsChartStyle *style, const MsScale *xs, double top,
                         double bottom, double spacing_px, double right_edge, const char *unit);
/* The same lines without their labels: a timeline above another on the
 * same axis. */
void ms_draw_time_grid (cairo_t *cr, const MsChartStyle *style, const MsScale *xs, double top,
                        double bottom, double spacing_px);
/* One phase's swatch at (x, y), its label beside it. */
void ms_draw_phase_swatch (cairo_t *cr, const MsChartStyle *st, MsPhase phase, const char *label,
                           double x, double y);
/* Rows of phase swatches from (x, y) for the phases seen, wrapped before
 * max_x so that every entry shows; returns the height used. Only measures
 * when draw is FALSE. */
double ms_draw_phase_legend (cairo_t *cr, const gboolean seen[MS_PHASE_COUNT],
                             const MsChartStyle *style, double x, double y, double max_x,
                             gboolean draw);

G_END_DECLS
