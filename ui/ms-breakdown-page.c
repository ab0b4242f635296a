/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown-page.c: the breakdown page. */
#include "ms-breakdown-page.h"

#include <glib/gi18n.h>

#include "ms-views.h"

#include "ms-pickers.h"
#include "ms-props.h"
#include "ms-breakdown-view.h"

struct _MsBreakdownPage {
  MsPage parent_instance;

  /* Template children. */
  MsBreakdownView *view;
  GtkDropDown *size_dropdown;
};

G_DEFINE_FINAL_TYPE (MsBreakdownPage, ms_breakdown_page, MS_TYPE_PAGE)

enum { PROP_0, PROP_EXPONENT, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
on_size_selected (MsBreakdownPage *self)
{
  /* Refilling the list passes through other selections: notify only when
   * the size shown changes. */
  int exponent = ms_pickers_get_exponent (self->size_dropdown);
  if (exponent == ms_breakdown_view_get_exponent (self->view))
    return;
  g_object_set (self->view, "exponent", exponent, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EXPONENT]);
}

/* "exponent" is the size picker's. */
static void
set_exponent (MsBreakdownPage *self, int exponent)
{
  ms_pickers_set_exponent (self->size_dropdown, exponent);
}

static int
get_exponent (MsBreakdownPage *self)
{
  return ms_pickers_get_exponent (self->size_dropdown);
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_EXPONENT] = { "exponent", G_TYPE_INT, MS_PROP_NO_FIELD, -1, MS_MAX_EXPONENT, -1,
                      .setter = G_CALLBACK (set_exponent), .getter = G_CALLBACK (get_exponent) },
};

static void
draw_breakdown (MsPage *page, cairo_t *cr, const MsChartStyle *style, double width,
                double height)
{
  MsBreakdownView *view = MS_BREAKDOWN_PAGE (page)->view;
  g_autoptr (GPtrArray) results = ms_run_array_results (ms_page_get_runs (page));
  ms_breakdown_draw_full (cr, results, ms_breakdown_view_get_exponent (view),
                          ms_breakdown_view_get_one_time (view), style, width, height);
}

/* The breakdown at the size picked, per repetition or with the one-time
 * costs as the view shows it, of every run. */
static char *
ms_breakdown_page_get_drawing (MsPage *page, MsPageDrawing *drawing)
{
  MsBreakdownView *view = MS_BREAKDOWN_PAGE (page)->view;
  int e = ms_breakdown_view_get_exponent (view);
  if (e < 0 || !ms_page_get_runs (page)->len)
    return g_strdup (_("No breakdown is shown: open a run first"));
  drawing->kind = "breakdown";
  drawing->title = g_strdup_printf (_("Where the time goes at 2^%d elements"), e);
  drawing->caption = ms_page_runs_caption (ms_page_get_runs (page));
  drawing->draw = draw_breakdown;
  return NULL;
}

static void
ms_breakdown_page_runs_changed (MsPage *page, GPtrArray *runs)
{
  MsBreakdownPage *self = MS_BREAKDOWN_PAGE (page);
  g_signal_handlers_block_by_func (self->size_dropdown, on_size_selected, self);
  ms_pickers_sync_sizes (self->size_dropdown, runs);
  g_signal_handlers_unblock_by_func (self->size_dropdown, on_size_selected, self);
  g_object_set (self->view, "runs", runs, NULL);
  on_size_selected (self);
}

static void
ms_breakdown_page_class_init (MsBreakdownPageClass *klass)
{
  MS_PAGE_CLASS (klass)->scaled_views = "view";
  MS_PAGE_CLASS (klass)->runs_changed = ms_breakdown_page_runs_changed;
  MS_PAGE_CLASS (klass)->get_drawing = ms_breakdown_page_get_drawing;
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);

  g_type_ensure (MS_TYPE_BREAKDOWN_VIEW);
  static const MsTemplateBind binds[] = {
    MS_TEMPLATE_CHILD (MsBreakdownPage, view), MS_TEMPLATE_CHILD (MsBreakdownPage, size_dropdown),
    MS_TEMPLATE_CALLBACK (on_size_selected)
  };
  ms_widget_class_set_template (widget_class, "ms-breakdown-page", binds, G_N_ELEMENTS (binds));
}

static void
ms_breakdown_page_init (MsBreakdownPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_object_set (self->view, "exponent", -1, NULL);
}
