/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-page.c: the timeline page. */
#include "ms-timeline-page.h"

#include "ms-views.h"

#include <glib/gi18n.h>

#include "ms-engine.h"
#include "ms-pickers.h"
#include "ms-props.h"
#include "ms-timeline-overview.h"
#include "ms-timeline-view.h"

struct _MsTimelinePage {
  MsPage parent_instance;
  gboolean rep_chosen; /* the user picked a repetition */
  int exponent;        /* as notified */

  /* Template children. */
  MsTimelineView *view;
  GtkWidget *run_box;
  GtkDropDown *run_dropdown, *mode_dropdown, *size_dropdown;
  GtkStringList *mode_list;
  GtkSpinButton *rep_spin;
};

G_DEFINE_FINAL_TYPE (MsTimelinePage, ms_timeline_page, MS_TYPE_PAGE)

enum { PROP_0, PROP_MODE, PROP_EXPONENT, PROP_REPETITION, N_PROPS };
static GParamSpec *props[N_PROPS];

static MsRun *
selected_run (MsTimelinePage *self)
{
  GPtrArray *runs = ms_page_get_runs (MS_PAGE (self));
  guint r = gtk_drop_down_get_selected (self->run_dropdown);
  if (runs->len == 0)
    return NULL;
  return g_ptr_array_index (runs, r < runs->len ? r : 0);
}

static const MsResults *
selected_results (MsTimelinePage *self)
{
  MsRun *run = selected_run (self);
  return run ? ms_run_get_results (run) : NULL;
}

const MsCell *
ms_timeline_page_get_cell (MsTimelinePage *self, int *rep)
{
  const MsResults *run = selected_results (self);
  guint m = gtk_drop_down_get_selected (self->mode_dropdown);
  int e = ms_pickers_get_exponent (self->size_dropdown);
  const MsCell *cell = run && m < MS_MODE_COUNT && e >= 0 ? ms_results_find (run, m, e) : NULL;
  /* The spin button counts the repetitions that have a timeline (the
   * instrumented ones); *rep is the cell's own repetition index. */
  if (rep) {
    int k = gtk_spin_button_get_value_as_int (self->rep_spin) - 1;
    int r = cell ? ms_cell_timeline_rep (cell, k) : -1;
    *rep = r >= 0 ? r : 0;
  }
  return cell;
}

static void on_rep_changed (MsTimelinePage *self);

/* The Repetition field steps through the repetitions that have a timeline
 * (its value: the first is 1) but shows and reads each by its number among
 * all the cell's repetitions, from 1 as the title, the report and `plot
 * --rep` number them (the file's rep column counts from 0). */
static gboolean
show_file_rep (GtkSpinButton *spin, MsTimelinePage *self)
{
  const MsCell *cell = ms_timeline_page_get_cell (self, NULL);
  int k = gtk_spin_button_get_value_as_int (spin) - 1;
  int rep = cell ? ms_cell_timeline_rep (cell, k) : -1;
  char text[16];
  g_snprintf (text, sizeof text, "%d", (rep >= 0 ? rep : k) + 1);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

/* A rep number typed: the first repetition with a timeline from it on
 * (the last when none). */
static int
read_file_rep (GtkSpinButton *spin, double *value, MsTimelinePage *self)
{
  const MsCell *cell = ms_timeline_page_get_cell (self, NULL);
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin))));
  gint64 wanted;
  if (!cell || !g_ascii_string_to_signed (text, 10, 1, G_MAXINT, &wanted, NULL))
    return GTK_INPUT_ERROR;
  wanted--; /* the file's rep */
  int timed = ms_cell_timeline_reps (cell, NULL, 0), k = 0;
  while (k < timed - 1 && ms_cell_timeline_rep (cell, k) < wanted)
    k++;
  *value = k + 1;
  return TRUE;
}
static void on_size_selected (MsTimelinePage *self);

/* With runs open but no cell to draw, what to choose instead (NULL: no
 * run yet, and the view says how to open one), and in *why the reason,
 * for the title: the view draws the first on one line, the title wraps. */
static char *
empty_text (MsTimelinePage *self, char **why)
{
  MsRun *run = selected_run (self);
  guint m = gtk_drop_down_get_selected (self->mode_dropdown);
  int e = ms_pickers_get_exponent (self->size_dropdown);
  *why = NULL;
  if (!run)
    return NULL;
  if (m >= MS_MODE_COUNT || e < 0)
    return g_strdup (_("Choose a mode and a size above"));
  const MsResults *r = ms_run_get_results (run);
  int n = 0;
  for (size_t i = 0; i < r->n_cells; i++)
    n += (int) r->cells[i].mode == (int) m && r->cells[i].exponent == e;
  if (n > 1) {
    *why = g_strdup_printf (_("%s measured %s at 2^%d in %d variants (a lesson’s settings); "
                              "this page shows one plain cell."),
                            ms_run_get_name (run), ms_mode_title (m), e, n);
    return g_strdup (_("Open the lesson on the Lessons page, or choose a sweep run"));
  }
  *why = g_strdup_printf (_("%s has no %s cell at 2^%d."), ms_run_get_name (run),
                          ms_mode_title (m), e);
  return g_strdup (_("Choose a mode and a size it measured, or another run"));
}

static void
update_timeline (MsTimelinePage *self)
{
  int before = gtk_spin_button_get_value_as_int (self->rep_spin) - 1;
  const MsCell *cell = ms_timeline_page_get_cell (self, NULL);
  int timed = cell ? MAX (ms_cell_timeline_reps (cell, NULL, 0), 1) : 1;
  g_signal_handlers_block_by_func (self->rep_spin, on_rep_changed, self);
  gtk_spin_button_set_range (self->rep_spin, 1, timed);
  /* The first carries the allocation, made before the warm-ups; start on
   * the next one. */
  if (!self->rep_chosen && timed > 1 && before == 0)
    gtk_spin_button_set_value (self->rep_spin, 2);
  g_signal_handlers_unblock_by_func (self->rep_spin, on_rep_changed, self);
  int shown = gtk_spin_button_get_value_as_int (self->rep_spin) - 1;
  if (shown != before)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_REPETITION]);
  int rep = cell ? MAX (ms_cell_timeline_rep (cell, CLAMP (shown, 0, timed - 1)), 0) : 0;
  g_autofree char *title = NULL;
  if (cell && cell->n_reps == 0) {
    char size[32];
    ms_format_bytes (ms_vector_bytes (cell->elements), size, sizeof size);
    /* A summary file keeps statistics, not repetitions: nothing to draw. */
    title = g_strdup_printf (_("%s, 2^%d (%s per vector): no repetitions recorded (a summary "
                               "file keeps statistics only)"),
                             ms_mode_title (cell->mode), cell->exponent, size);
  } else if (cell) {
    char size[32];
    ms_format_bytes (ms_vector_bytes (cell->elements), size, sizeof size);
    /* The others ran plain, without timers: nothing to draw for them. */
    g_autofree char *which =
      timed < cell->n_reps
        ? g_strdup_printf (_(" (%d of the %d have a timeline)"), timed, cell->n_reps)
        : g_strdup ("");
    /* What the timers cost is the table's Timer cost column: one plain
     * line here, read from the back of a room. Repetitions are numbered
     * from 1, here, in the Repetition field, in reports and in `plot
     * --rep` alike (the file's rep column counts from 0). */
    title = g_strdup_printf (_("%s · 2^%d = %s per vector · repetition %d of %d%s%s"),
                             ms_mode_title (cell->mode), cell->exponent, size, rep + 1,
                             cell->n_reps, which,
                             rep == 0 ? _(" (shows the allocation)") : "");
  }
  show_file_rep (self->rep_spin, self);
  g_autofree char *empty = cell ? NULL : empty_text (self, &title);
  ms_timeline_view_set_cell (self->view, selected_run (self), cell, rep, title);
  g_object_set (self->view, "empty-text", empty, NULL);
}

static void
on_rep_changed (MsTimelinePage *self)
{
  self->rep_chosen = TRUE;
  update_timeline (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_REPETITION]);
}

static gboolean
run_has_mode (const MsResults *run, int mode)
{
  for (size_t i = 0; run && i < run->n_cells; i++)
    if ((int) run->cells[i].mode == mode)
      return TRUE;
  return FALSE;
}

/* The sizes of the run picked, not of every run: a size this run lacks
 * would show nothing. The size kept is the one shown, else the nearest. */
static void
sync_sizes (MsTimelinePage *self)
{
  MsRun *run = selected_run (self);
  g_autoptr (GPtrArray) one = g_ptr_array_new ();
  if (run)
    g_ptr_array_add (one, run);
  int before = self->exponent;
  g_signal_handlers_block_by_func (self->size_dropdown, on_size_selected, self);
  ms_pickers_sync_sizes (self->size_dropdown, one);
  for (int d = 0; before >= 0 && d <= MS_MAX_EXPONENT; d++)
    if (ms_pickers_set_exponent (self->size_dropdown, before - d) ||
        ms_pickers_set_exponent (self->size_dropdown, before + d))
      break;
  g_signal_handlers_unblock_by_func (self->size_dropdown, on_size_selected, self);
}

/* A mode the run has: the one shown, else the first of the run. */
static void
sync_mode (MsTimelinePage *self)
{
  const MsResults *run = selected_results (self);
  guint m = gtk_drop_down_get_selected (self->mode_dropdown);
  if (!run || run_has_mode (run, m))
    return;
  for (int k = 0; k < MS_MODE_COUNT; k++)
    if (run_has_mode (run, k)) {
      gtk_drop_down_set_selected (self->mode_dropdown, k);
      return;
    }
}

static void
on_run_selected (MsTimelinePage *self)
{
  /* The run picked here is the session's selected run, for other views. */
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  if (session && selected_run (self))
    g_object_set (session, "selected-run", selected_run (self), NULL);
  sync_sizes (self);
  sync_mode (self);
  on_size_selected (self);
}

static void
on_mode_selected (MsTimelinePage *self)
{
  update_timeline (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODE]);
}

static void
on_size_selected (MsTimelinePage *self)
{
  int exponent = ms_pickers_get_exponent (self->size_dropdown);
  update_timeline (self);
  if (exponent != self->exponent) {
    self->exponent = exponent;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EXPONENT]);
  }
}

void
ms_timeline_page_zoom (MsTimelinePage *self, int direction)
{
  if (direction == 0)
    ms_timeline_view_reset_zoom (self->view);
  else
    ms_timeline_view_zoom (self->view, direction > 0 ? 1.5 : 1 / 1.5);
}

static void
zoom_action (GtkWidget *widget, const char *name, GVariant *param)
{
  ms_timeline_page_zoom (MS_TIMELINE_PAGE (widget), g_variant_get_int32 (param));
}

/* The page's pickers hold what it shows: each property is the picker's,
 * notified as the picker changes. */
static void
set_mode (MsTimelinePage *self, int mode)
{
  gtk_drop_down_set_selected (self->mode_dropdown, mode);
}

static int
get_mode (MsTimelinePage *self)
{
  return gtk_drop_down_get_selected (self->mode_dropdown);
}

static void
set_exponent (MsTimelinePage *self, int exponent)
{
  ms_pickers_set_exponent (self->size_dropdown, exponent);
}

static int
get_exponent (MsTimelinePage *self)
{
  return ms_pickers_get_exponent (self->size_dropdown);
}

static void
set_repetition (MsTimelinePage *self, int repetition)
{
  gtk_spin_button_set_value (self->rep_spin, repetition);
}

static int
get_repetition (MsTimelinePage *self)
{
  return gtk_spin_button_get_value_as_int (self->rep_spin);
}

#define PICKED(name) .setter = G_CALLBACK (set_##name), .getter = G_CALLBACK (get_##name)
static const MsProp prop_table[N_PROPS] = {
  [PROP_MODE] = { "mode", G_TYPE_INT, MS_PROP_NO_FIELD, 0, MS_MODE_COUNT - 1, MS_MODE_PAGEABLE,
                  PICKED (mode) },
  [PROP_EXPONENT] = { "exponent", G_TYPE_INT, MS_PROP_NO_FIELD, -1, MS_MAX_EXPONENT, -1,
                      PICKED (exponent) },
  [PROP_REPETITION] = { "repetition", G_TYPE_INT, MS_PROP_NO_FIELD, 1, G_MAXINT, 1,
                        PICKED (repetition) },
};
#undef PICKED

static void
draw_timeline (MsPage *page, cairo_t *cr, const MsChartStyle *style, double width, double height)
{
  ms_timeline_view_draw (MS_TIMELINE_PAGE (page)->view, cr, style, width, height);
}

/* The repetition shown, titled as on screen (mode, size, repetition), with
 * the caption of its run alone. */
static char *
ms_timeline_page_get_drawing (MsPage *page, MsPageDrawing *drawing)
{
  MsTimelinePage *self = MS_TIMELINE_PAGE (page);
  MsRun *run = selected_run (self);
  if (!run || !ms_timeline_page_get_cell (self, NULL))
    return g_strdup (_("No timeline is shown: open a run and pick a mode and a size first"));
  g_autoptr (GPtrArray) shown = g_ptr_array_new ();
  g_ptr_array_add (shown, run);
  drawing->kind = "timeline";
  drawing->title = g_strdup (ms_timeline_view_get_title (self->view));
  drawing->caption = ms_page_runs_caption (shown);
  drawing->draw = draw_timeline;
  return NULL;
}

static gboolean select_session_run (MsTimelinePage *self);

static void
ms_timeline_page_runs_changed (MsPage *page, GPtrArray *runs)
{
  MsTimelinePage *self = MS_TIMELINE_PAGE (page);
  g_autoptr (GPtrArray) names = ms_pickers_run_labels (runs);
  /* Refilling the lists passes through other selections: update once. */
  g_signal_handlers_block_by_func (self->run_dropdown, on_run_selected, self);
  ms_pickers_sync (self->run_dropdown, names);
  select_session_run (self);
  g_signal_handlers_unblock_by_func (self->run_dropdown, on_run_selected, self);
  gtk_widget_set_visible (self->run_box, names->len > 1);
  on_run_selected (self);
}

static void
ms_timeline_page_class_init (MsTimelinePageClass *klass)
{
  MS_PAGE_CLASS (klass)->scaled_views = "view";
  MS_PAGE_CLASS (klass)->runs_changed = ms_timeline_page_runs_changed;
  MS_PAGE_CLASS (klass)->get_drawing = ms_timeline_page_get_drawing;
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  ms_props_install (object_class, prop_table, props, N_PROPS);

  gtk_widget_class_install_action (widget_class, "timeline.zoom", "i", zoom_action);
  g_type_ensure (MS_TYPE_TIMELINE_VIEW);
  g_type_ensure (MS_TYPE_TIMELINE_OVERVIEW);
#define CHILD(name) MS_TEMPLATE_CHILD (MsTimelinePage, name)
  static const MsTemplateBind binds[] = {
    CHILD (view), CHILD (run_box), CHILD (run_dropdown), CHILD (mode_dropdown),
    CHILD (size_dropdown), CHILD (mode_list), CHILD (rep_spin),
    MS_TEMPLATE_CALLBACK (on_run_selected), MS_TEMPLATE_CALLBACK (on_mode_selected),
    MS_TEMPLATE_CALLBACK (on_size_selected), MS_TEMPLATE_CALLBACK (on_rep_changed),
    MS_TEMPLATE_CALLBACK (show_file_rep), MS_TEMPLATE_CALLBACK (read_file_rep)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-timeline-page", binds, G_N_ELEMENTS (binds));
}

/* Picks the session's selected run when this page shows it; FALSE when the
 * run picked stays. */
static gboolean
select_session_run (MsTimelinePage *self)
{
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  g_autoptr (MsRun) run = NULL;
  if (session)
    g_object_get (session, "selected-run", &run, NULL);
  guint index;
  if (!run || !g_ptr_array_find (ms_page_get_runs (MS_PAGE (self)), run, &index) ||
      index == gtk_drop_down_get_selected (self->run_dropdown))
    return FALSE;
  gtk_drop_down_set_selected (self->run_dropdown, index);
  return TRUE;
}

/* Run names shortened in the middle (their ends tell runs apart: the GPU,
 * the sweep number) so that two runs' toolbar fits; the full name in the
 * tooltip. */
static void
setup_run_item (GtkSignalListItemFactory *factory, GtkListItem *item)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 22);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
bind_run_item (GtkSignalListItemFactory *factory, GtkListItem *item)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (item));
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, text);
}

static void
ms_timeline_page_init (MsTimelinePage *self)
{
  self->exponent = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  g_autoptr (GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_run_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_run_item), NULL);
  gtk_drop_down_set_factory (self->run_dropdown, factory);
  /* The engine's mode titles are not in the template. */
  for (int m = 0; m < MS_MODE_COUNT; m++)
    gtk_string_list_append (self->mode_list, ms_mode_title (m));
  gtk_drop_down_set_selected (self->mode_dropdown, MS_MODE_PAGEABLE);
  gtk_widget_set_visible (self->run_box, FALSE);
  ms_page_connect_session (MS_PAGE (self), "notify::selected-run",
                           G_CALLBACK (select_session_run));
}
