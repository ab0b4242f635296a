/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-dialog.c: the Reference Runs dialog. One preferences group
 * per GPU, in it one expander row per kind, in that one row per run with a
 * check button: Space ticks a row, Enter a row not yet ticked; Enter on a
 * ticked one, Ctrl+Enter or Open opens what is ticked. A listing of 40
 * runs stays a few rows tall until the user opens a kind, so it fits a
 * 1024x768 projector. */
#include "ms-reference-dialog.h"

#include <glib/gi18n.h>

#include "ms-props.h"
#include "ms-reference-runs.h"
#include "ms-views.h"

struct _MsReferenceDialog {
  AdwWindow parent_instance;
  GtkStack *stack;
  GtkBox *groups;
  GtkLabel *folder_label;
  char *folder;
  GPtrArray *checks; /* GtkCheckButton, listed order; each holds its file's name */
  guint n_chosen;
  GtkWidget *first_row; /* the first kind's row, or NULL */
};

G_DEFINE_FINAL_TYPE (MsReferenceDialog, ms_reference_dialog, ADW_TYPE_WINDOW)

enum { PROP_0, PROP_FOLDER, PROP_N_CHOSEN, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIGNAL_OPEN, N_SIGNALS };
static guint signals[N_SIGNALS];

/* One GPU's group and its kinds' expander rows, made when first needed. */
typedef struct {
  char *gpu;
  AdwPreferencesGroup *group;
  AdwExpanderRow *kinds[MS_REFERENCE_OTHER + 1];
  guint n_runs[MS_REFERENCE_OTHER + 1];
} GpuGroup;

static void
gpu_group_free (GpuGroup *g)
{
  g_free (g->gpu);
  g_free (g);
}

static const char *
kind_title (MsReferenceKind kind)
{
  switch (kind) {
  case MS_REFERENCE_DEFAULT: return _("Default sweeps");
  case MS_REFERENCE_LESSON: return _("Lessons");
  case MS_REFERENCE_OTHER: break;
  }
  return _("Other sweeps");
}

static void
on_toggled (GtkCheckButton *check, MsReferenceDialog *self)
{
  self->n_chosen += gtk_check_button_get_active (check) ? 1 : -1;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "reference.open", self->n_chosen > 0);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_CHOSEN]);
}

static GpuGroup *
group_for (MsReferenceDialog *self, GPtrArray *groups, const char *gpu)
{
  for (guint i = 0; i < groups->len; i++) {
    GpuGroup *g = g_ptr_array_index (groups, i);
    if (g_str_equal (g->gpu, gpu))
      return g;
  }
  GpuGroup *g = g_new0 (GpuGroup, 1);
  g->gpu = g_strdup (gpu);
  g->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  g_autofree char *upper = g_utf8_strup (gpu, -1);
  g_autofree char *title = g_markup_escape_text (gpu[0] ? upper : _("Other GPUs"), -1);
  adw_preferences_group_set_title (g->group, title);
  gtk_box_append (self->groups, GTK_WIDGET (g->group));
  g_ptr_array_add (groups, g);
  return g;
}

static AdwExpanderRow *
kind_row (GpuGroup *g, MsReferenceKind kind)
{
  if (!g->kinds[kind]) {
    g->kinds[kind] = ADW_EXPANDER_ROW (adw_expander_row_new ());
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (g->kinds[kind]), kind_title (kind));
    adw_preferences_group_add (g->group, GTK_WIDGET (g->kinds[kind]));
  }
  return g->kinds[kind];
}

/* A file of the folder, as its name describes it. */
typedef struct {
  char *file, *gpu, *title;
  MsReferenceKind kind;
} Listed;

static void
listed_free (Listed *l)
{
  g_free (l->file);
  g_free (l->gpu);
  g_free (l->title);
  g_free (l);
}

/* By GPU, then kind (default sweeps, lessons, others), then title: the
 * order the dialog shows them in, and opens them in. */
static int
compare_listed (gconstpointer a, gconstpointer b)
{
  const Listed *x = *(Listed *const *) a, *y = *(Listed *const *) b;
  int by_gpu = g_strcmp0 (x->gpu, y->gpu);
  if (by_gpu || x->kind != y->kind)
    return by_gpu ? by_gpu : (int) x->kind - (int) y->kind;
  /* Lessons by title, as their cards name them; default sweeps by title
   * too ("Default sweep" before its repeats). */
  int by_title = g_utf8_collate (x->title, y->title);
  return by_title ? by_title : g_strcmp0 (x->file, y->file);
}

static GPtrArray *
list_runs (const char *folder)
{
  g_autoptr (GPtrArray) names = ms_reference_runs_list_in (folder);
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) listed_free);
  for (guint i = 0; i < names->len; i++) {
    Listed *l = g_new0 (Listed, 1);
    l->file = g_strdup (g_ptr_array_index (names, i));
    l->kind = ms_reference_run_describe (l->file, &l->gpu, &l->title);
    g_ptr_array_add (runs, l);
  }
  g_ptr_array_sort (runs, compare_listed);
  return runs;
}

static void
add_run (MsReferenceDialog *self, GPtrArray *groups, const Listed *l)
{
  GpuGroup *g = group_for (self, groups, l->gpu);
  AdwExpanderRow *expander = kind_row (g, l->kind);
  g->n_runs[l->kind]++;

  GtkWidget *row = adw_action_row_new ();
  /* Titles and names come from files: text, never markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), l->title);
  g_autofree char *shown = g_filename_display_name (l->file);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), shown);
  GtkWidget *check = gtk_check_button_new ();
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, l->title,
                                  -1);
  g_object_set_data_full (G_OBJECT (check), "file", g_strdup (l->file), g_free);
  g_signal_connect (check, "toggled", G_CALLBACK (on_toggled), self);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  adw_expander_row_add_row (expander, row);
  g_ptr_array_add (self->checks, check);
}

/* Each kind's row says how many runs it holds. */
static void
count_runs (GPtrArray *groups)
{
  for (guint i = 0; i < groups->len; i++) {
    GpuGroup *g = g_ptr_array_index (groups, i);
    for (int k = 0; k <= MS_REFERENCE_OTHER; k++)
      if (g->kinds[k]) {
        g_autofree char *n = g_strdup_printf (ngettext ("%u run", "%u runs", g->n_runs[k]),
                                              g->n_runs[k]);
        adw_expander_row_set_subtitle (g->kinds[k], n);
      }
  }
}

static void
fill (MsReferenceDialog *self)
{
  g_autoptr (GPtrArray) runs = list_runs (self->folder);
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) gpu_group_free);
  for (guint i = 0; i < runs->len; i++)
    add_run (self, groups, g_ptr_array_index (runs, i));
  count_runs (groups);
  if (groups->len) {
    GpuGroup *first = g_ptr_array_index (groups, 0);
    for (int k = MS_REFERENCE_OTHER; k >= 0; k--)
      self->first_row = first->kinds[k] ? GTK_WIDGET (first->kinds[k]) : self->first_row;
  }
  gtk_stack_set_visible_child_name (self->stack, runs->len ? "list" : "empty");
  gtk_widget_set_visible (GTK_WIDGET (self->folder_label), self->folder != NULL);
  if (self->folder) {
    g_autofree char *shown = g_filename_display_name (self->folder);
    g_autofree char *where = g_strdup_printf (_("From %s"), shown);
    gtk_label_set_text (self->folder_label, where);
  }
}

/* The keyboard starts on the first kind, not on Cancel: the window picks
 * its first focusable widget as it becomes active, so this comes after. */
static void
on_shown (MsReferenceDialog *self)
{
  /* The expander row passes the focus to its header. */
  if (self->first_row)
    gtk_widget_child_focus (self->first_row, GTK_DIR_TAB_FORWARD);
}

static void
on_active (MsReferenceDialog *self)
{
  if (!gtk_window_is_active (GTK_WINDOW (self)))
    return;
  on_shown (self);
  g_signal_handlers_disconnect_by_func (self, on_active, NULL);
}

static void
action_open (GtkWidget *widget, const char *name, GVariant *target)
{
  MsReferenceDialog *self = MS_REFERENCE_DIALOG (widget);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->checks->len; i++) {
    GtkCheckButton *check = g_ptr_array_index (self->checks, i);
    if (gtk_check_button_get_active (check))
      g_ptr_array_add (paths, g_build_filename (self->folder,
                                                g_object_get_data (G_OBJECT (check), "file"), NULL));
  }
  if (!paths->len)
    return;
  g_ptr_array_add (paths, NULL);
  g_signal_emit (self, signals[SIGNAL_OPEN], 0, (char **) paths->pdata);
  gtk_window_close (GTK_WINDOW (self));
}

/* The check of the run whose row (or check) has the keyboard; NULL elsewhere. */
static GtkCheckButton *
focused_check (MsReferenceDialog *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  GtkWidget *check = focus ? gtk_widget_get_ancestor (focus, GTK_TYPE_CHECK_BUTTON) : NULL;
  GtkWidget *row = focus ? gtk_widget_get_ancestor (focus, ADW_TYPE_ACTION_ROW) : NULL;
  if (!check && row)
    check = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
  return GTK_IS_CHECK_BUTTON (check) ? GTK_CHECK_BUTTON (check) : NULL;
}

/* Return on a ticked run opens what is ticked, as a dialog's default does (it unticked the run
 * just ticked and opened nothing); on one not ticked it ticks it, as Space does; on a group's row
 * it still opens the group. */
static gboolean
on_key (GtkEventControllerKey *key, guint keyval, guint code, GdkModifierType state,
        MsReferenceDialog *self)
{
  GtkCheckButton *check = focused_check (self);
  if ((keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter)
      || (state & gtk_accelerator_get_default_mod_mask ()) || !check
      || !gtk_check_button_get_active (check))
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self), "reference.open", NULL);
  return TRUE;
}

/* ---- object -------------------------------------------------------------------- */

static void
ms_reference_dialog_constructed (GObject *object)
{
  MsReferenceDialog *self = MS_REFERENCE_DIALOG (object);
  G_OBJECT_CLASS (ms_reference_dialog_parent_class)->constructed (object);
  fill (self);
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_FOLDER] = { "folder", G_TYPE_STRING, MS_PROP_FIELD (MsReferenceDialog, folder),
                    .flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY },
  [PROP_N_CHOSEN] = { "n-chosen", G_TYPE_UINT, MS_PROP_FIELD (MsReferenceDialog, n_chosen), 0,
                      G_MAXUINT, 0, .flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY },
};

static void
ms_reference_dialog_dispose (GObject *object)
{
  MsReferenceDialog *self = MS_REFERENCE_DIALOG (object);
  /* The check buttons go with the template's widgets. */
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), MS_TYPE_REFERENCE_DIALOG);
  ms_props_clear (object);
  G_OBJECT_CLASS (ms_reference_dialog_parent_class)->dispose (object);
}

static void
ms_reference_dialog_class_init (MsReferenceDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->constructed = ms_reference_dialog_constructed;
  object_class->dispose = ms_reference_dialog_dispose;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  signals[SIGNAL_OPEN] = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRV);

  static const MsTemplateBind binds[] = {
    MS_TEMPLATE_CHILD (MsReferenceDialog, stack), MS_TEMPLATE_CHILD (MsReferenceDialog, groups),
    MS_TEMPLATE_CHILD (MsReferenceDialog, folder_label)
  };
  ms_widget_class_set_template (widget_class, "ms-reference-dialog", binds, G_N_ELEMENTS (binds));
  gtk_widget_class_install_action (widget_class, "reference.open", NULL, action_open);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "reference.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK,
                                       "reference.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ms_reference_dialog_init (MsReferenceDialog *self)
{
  self->checks = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "reference.open", FALSE);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (on_active), NULL);
  GtkEventController *key = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
}

MsReferenceDialog *
ms_reference_dialog_new (const char *folder)
{
  return g_object_new (MS_TYPE_REFERENCE_DIALOG, "folder", folder, NULL);
}
