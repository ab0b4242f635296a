/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-recent-runs.c: the Recent Runs dialog, a GtkListView over the runs
 * library. Rows name their file by path in their actions' targets, so a
 * listing that changes under a click cannot act on another row; the path
 * is a byte string, as file names are (a name need not be UTF-8). Each
 * delete has a number of its own for its undo, so deleting a second run
 * of the same name never undoes or purges the first. */
#include "ms-recent-runs.h"

#include <glib/gi18n.h>

#include "ms-props.h"
#include "ms-toast-queue.h"
#include "ms-views.h"

struct _MsRecentRuns {
  AdwWindow parent_instance;
  AdwToastOverlay *toasts;
  GtkStack *stack;
  GtkListView *list_view;
  GtkLabel *folder_label;
  MsRunsLibrary *library;
  GtkSingleSelection *selection;
  GHashTable *deleted; /* delete number -> MsRunsEntry, while its undo is offered */
  guint n_deleted;
  char *toast_text;
  gboolean list_focused; /* the keyboard was put in the list once */
};

G_DEFINE_FINAL_TYPE (MsRecentRuns, ms_recent_runs, ADW_TYPE_WINDOW)

enum { PROP_0, PROP_LIBRARY, PROP_TOAST_TEXT, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIGNAL_OPEN, N_SIGNALS };
static guint signals[N_SIGNALS];

static AdwToast *
toast (MsRecentRuns *self, const char *text)
{
  /* Names and errors come from files: text, never markup. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *markup = g_markup_escape_text (valid, -1);
  AdwToast *t = adw_toast_new (markup);
  ms_toast_queue_add (self->toasts, t);
  g_free (self->toast_text);
  self->toast_text = g_steal_pointer (&valid);
  return t;
}

static void
update_page (MsRecentRuns *self)
{
  gboolean loading;
  g_object_get (self->library, "loading", &loading, NULL);
  gboolean empty = g_list_model_get_n_items (ms_runs_library_get_entries (self->library)) == 0;
  gtk_stack_set_visible_child_name (self->stack, empty && !loading ? "empty" : "list");
  /* The keyboard starts in the list (not in the folder's selectable label),
   * once: later changes of the listing leave the focus where the user put it. */
  if (!empty && !self->list_focused && gtk_widget_get_mapped (GTK_WIDGET (self->list_view)))
    self->list_focused = gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

/* ---- rows ------------------------------------------------------------------------ */

static GtkWidget *
row_button (const char *icon, const char *tooltip, const char *action)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);
  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_set_valign (b, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (b, "flat");
  /* A target before the name: the action takes one (set when bound). */
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (b), g_variant_new_bytestring (""));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), action);
  return b;
}

static void
setup_row (GtkSignalListItemFactory *factory, GtkListItem *item, MsRecentRuns *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_object_set (row, "margin-start", 12, "margin-end", 6, "margin-top", 6, "margin-bottom", 6,
                NULL);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_hexpand (text, TRUE);
  GtkWidget *title = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (title), name);
  /* A run stopped part-way, marked beside its name (and said in its facts,
   * for a screen reader). */
  GtkWidget *partial = gtk_label_new (_("Partial"));
  gtk_widget_set_tooltip_text (partial, _("Stopped part-way: some cells are missing or have "
                                          "fewer repetitions"));
  gtk_widget_add_css_class (partial, "caption-heading");
  gtk_widget_add_css_class (partial, "warning");
  gtk_box_append (GTK_BOX (title), partial);
  GtkWidget *facts = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (facts), 0);
  gtk_label_set_ellipsize (GTK_LABEL (facts), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (facts, "caption");
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), facts);
  gtk_box_append (GTK_BOX (row), text);
  /* Open adds the run to the window's; Show in Folder leaves the app: a
   * plus and a folder, never two folders. */
  gtk_box_append (GTK_BOX (row), row_button ("list-add-symbolic", _("Open in This Window"),
                                             "recent.open"));
  gtk_box_append (GTK_BOX (row), row_button ("document-edit-symbolic", _("Rename"), "recent.rename"));
  gtk_box_append (GTK_BOX (row),
                  row_button ("folder-symbolic", _("Show in the File Manager"), "recent.show"));
  gtk_box_append (GTK_BOX (row), row_button ("user-trash-symbolic", _("Delete"), "recent.delete"));
  gtk_list_item_set_child (item, row);
}

/* "2026-11-23 04:32 · NVIDIA H100 80GB HBM3 · sweep · 4.1 MB" (", stopped
 * part-way" after the kind, or that whether it is whole is unknown), or
 * why the file is not a run. */
static char *
facts_text (MsRunsEntry *entry)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (ms_runs_entry_get_date (entry));
  g_autofree char *when = g_date_time_format (local, "%Y-%m-%d %H:%M");
  if (ms_runs_entry_get_reason (entry))
    return g_strdup_printf ("%s · %s", when, ms_runs_entry_get_reason (entry));
  g_autofree char *size = g_format_size (ms_runs_entry_get_size (entry));
  const char *device = ms_runs_entry_get_device (entry);
  const char *whole = ms_runs_entry_get_stopped (entry) ? _(", stopped part-way")
                      : ms_runs_entry_get_completeness_unknown (entry)
                        ? _(", completeness unknown: its settings are missing")
                        : "";
  return g_strdup_printf ("%s · %s · %s%s · %s", when, device ? device : _("unknown device"),
                          ms_runs_entry_get_kind (entry), whole, size);
}

static void
bind_row (GtkSignalListItemFactory *factory, GtkListItem *item, MsRecentRuns *self)
{
  MsRunsEntry *entry = gtk_list_item_get_item (item);
  GtkWidget *row = gtk_list_item_get_child (item);
  GtkWidget *text = gtk_widget_get_first_child (row);
  GtkWidget *name = gtk_widget_get_first_child (gtk_widget_get_first_child (text));
  GtkWidget *partial = gtk_widget_get_next_sibling (name);
  GtkWidget *facts = gtk_widget_get_last_child (text);
  gtk_widget_set_visible (partial, ms_runs_entry_get_stopped (entry));
  g_autofree char *path = g_file_get_path (ms_runs_entry_get_file (entry));
  gboolean is_run = ms_runs_entry_get_reason (entry) == NULL;
  gtk_label_set_text (GTK_LABEL (name), ms_runs_entry_get_name (entry));
  g_autofree char *text_facts = facts_text (entry);
  gtk_label_set_text (GTK_LABEL (facts), text_facts);
  if (is_run)
    gtk_widget_remove_css_class (facts, "error");
  else
    gtk_widget_add_css_class (facts, "error");
  gtk_widget_set_opacity (facts, is_run ? 0.55 : 1);
  for (GtkWidget *b = gtk_widget_get_next_sibling (text); b; b = gtk_widget_get_next_sibling (b)) {
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (b), g_variant_new_bytestring (path));
    const char *action = gtk_actionable_get_action_name (GTK_ACTIONABLE (b));
    gtk_widget_set_sensitive (b, is_run || g_strcmp0 (action, "recent.show") == 0);
  }
}

/* ---- actions ------------------------------------------------------------------- */

static MsRunsEntry *
entry_for (MsRecentRuns *self, GVariant *target)
{
  return ms_runs_library_find (self->library, g_variant_get_bytestring (target));
}

static void
open_entry (MsRecentRuns *self, MsRunsEntry *entry)
{
  if (!entry)
    return;
  if (ms_runs_entry_get_reason (entry)) {
    g_autofree char *text = g_strdup_printf (_("%s cannot be opened: %s"),
                                             ms_runs_entry_get_name (entry),
                                             ms_runs_entry_get_reason (entry));
    toast (self, text);
    return;
  }
  g_signal_emit (self, signals[SIGNAL_OPEN], 0, ms_runs_entry_get_file (entry));
}

static void
action_open (GtkWidget *widget, const char *name, GVariant *target)
{
  MsRecentRuns *self = MS_RECENT_RUNS (widget);
  open_entry (self, entry_for (self, target));
}

static void
on_activate (GtkListView *view, guint position, MsRecentRuns *self)
{
  g_autoptr (MsRunsEntry) entry =
    g_list_model_get_item (ms_runs_library_get_entries (self->library), position);
  open_entry (self, entry);
}

static void
on_shown (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (MsRecentRuns) self = data;
  g_autoptr (GError) error = NULL;
  if (!ms_runs_library_show_in_folder_finish (MS_RUNS_LIBRARY (source), result, &error))
    toast (self, error->message);
}

static void
on_rename_response (AdwMessageDialog *dialog, const char *response, MsRecentRuns *self)
{
  const char *path = g_object_get_data (G_OBJECT (dialog), "path");
  MsRunsEntry *entry = ms_runs_library_find (self->library, path);
  GtkEditable *name = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  g_autoptr (GError) error = NULL;
  if (g_strcmp0 (response, "rename") == 0 && entry &&
      !ms_runs_library_rename (self->library, entry, gtk_editable_get_text (name), &error))
    toast (self, error->message);
}

/* Asks for the new name in a small dialog with the old one selected. */
static void
action_rename (GtkWidget *widget, const char *action, GVariant *target)
{
  MsRecentRuns *self = MS_RECENT_RUNS (widget);
  MsRunsEntry *entry = entry_for (self, target);
  if (!entry)
    return;
  GtkWidget *d = adw_message_dialog_new (GTK_WINDOW (self), _("Rename Run"), NULL);
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (d);
  GtkWidget *name = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (name), ms_runs_entry_get_name (entry));
  gtk_entry_set_activates_default (GTK_ENTRY (name), TRUE);
  adw_message_dialog_set_extra_child (dialog, name);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "rename", _("_Rename"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "rename", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "rename");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (d), "path", g_strdup (g_variant_get_bytestring (target)),
                          g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_rename_response), self, 0);
  gtk_window_present (GTK_WINDOW (d));
}

static void
action_show (GtkWidget *widget, const char *name, GVariant *target)
{
  MsRecentRuns *self = MS_RECENT_RUNS (widget);
  MsRunsEntry *entry = entry_for (self, target);
  if (entry)
    ms_runs_library_show_in_folder (self->library, entry, NULL, on_shown, g_object_ref (self));
}

/* The undo is no longer offered: what is still deleted goes for real. */
static void
on_undo_dismissed (AdwToast *t, MsRecentRuns *self)
{
  gpointer number = g_object_get_data (G_OBJECT (t), "deleted");
  MsRunsEntry *entry = self->deleted ? g_hash_table_lookup (self->deleted, number) : NULL;
  if (entry) {
    ms_runs_library_purge (self->library, entry);
    g_hash_table_remove (self->deleted, number);
  }
}

static void
delete_entry (MsRecentRuns *self, MsRunsEntry *entry)
{
  g_autoptr (GError) error = NULL;
  if (!entry)
    return;
  g_autoptr (MsRunsEntry) keep = g_object_ref (entry);
  if (!ms_runs_library_delete (self->library, entry, &error)) {
    toast (self, error->message);
    return;
  }
  guint number = ++self->n_deleted;
  g_hash_table_insert (self->deleted, GUINT_TO_POINTER (number), g_object_ref (entry));
  g_autofree char *text = g_strdup_printf (_("%s deleted"), ms_runs_entry_get_name (entry));
  AdwToast *t = toast (self, text);
  adw_toast_set_button_label (t, _("_Undo"));
  /* The target first: the action takes one. */
  adw_toast_set_action_target_value (t, g_variant_new_uint32 (number));
  adw_toast_set_action_name (t, "recent.undo");
  g_object_set_data (G_OBJECT (t), "deleted", GUINT_TO_POINTER (number));
  g_signal_connect_object (t, "dismissed", G_CALLBACK (on_undo_dismissed), self, 0);
}

static void
action_delete (GtkWidget *widget, const char *name, GVariant *target)
{
  MsRecentRuns *self = MS_RECENT_RUNS (widget);
  delete_entry (self, entry_for (self, target));
}

static gboolean
delete_selected (GtkWidget *widget, GVariant *args, gpointer data)
{
  MsRecentRuns *self = MS_RECENT_RUNS (widget);
  MsRunsEntry *entry = gtk_single_selection_get_selected_item (self->selection);
  if (entry && !ms_runs_entry_get_reason (entry))
    delete_entry (self, entry);
  return entry != NULL;
}

static void
action_undo (GtkWidget *widget, const char *name, GVariant *target)
{
  MsRecentRuns *self = MS_RECENT_RUNS (widget);
  gpointer number = GUINT_TO_POINTER (g_variant_get_uint32 (target));
  MsRunsEntry *entry = g_hash_table_lookup (self->deleted, number);
  g_autoptr (GError) error = NULL;
  if (entry && !ms_runs_library_undelete (self->library, entry, &error))
    toast (self, error->message);
  else
    g_hash_table_remove (self->deleted, number);
}

/* ---- object -------------------------------------------------------------------- */

static void
ms_recent_runs_constructed (GObject *object)
{
  MsRecentRuns *self = MS_RECENT_RUNS (object);
  G_OBJECT_CLASS (ms_recent_runs_parent_class)->constructed (object);
  GListModel *entries = ms_runs_library_get_entries (self->library);
  self->selection = gtk_single_selection_new (g_object_ref (entries));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (entries, "items-changed", G_CALLBACK (update_page), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->library, "notify::loading", G_CALLBACK (update_page), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->list_view, "map", G_CALLBACK (update_page), self);
  g_autofree char *where = g_strdup_printf (_("Kept in %s"),
                                            ms_runs_library_get_folder (self->library));
  g_autofree char *valid = g_utf8_make_valid (where, -1);
  gtk_label_set_text (self->folder_label, valid);
  ms_runs_library_reload (self->library);
  update_page (self);
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_LIBRARY] = { "library", G_TYPE_OBJECT, MS_PROP_FIELD (MsRecentRuns, library),
                     .get_type = ms_runs_library_get_type,
                     .flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY },
  [PROP_TOAST_TEXT] = { "toast-text", G_TYPE_STRING, MS_PROP_FIELD (MsRecentRuns, toast_text),
                        .flags = G_PARAM_READABLE },
};

static void
ms_recent_runs_dispose (GObject *object)
{
  MsRecentRuns *self = MS_RECENT_RUNS (object);
  /* Runs still deleted stay aside: the library deletes them at quit. */
  gtk_widget_dispose_template (GTK_WIDGET (self), MS_TYPE_RECENT_RUNS);
  g_clear_object (&self->selection);
  ms_props_clear (object);
  g_clear_pointer (&self->deleted, g_hash_table_unref);
  G_OBJECT_CLASS (ms_recent_runs_parent_class)->dispose (object);
}

static void
ms_recent_runs_class_init (MsRecentRunsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->constructed = ms_recent_runs_constructed;
  object_class->dispose = ms_recent_runs_dispose;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  signals[SIGNAL_OPEN] = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);

#define CHILD(name) MS_TEMPLATE_CHILD (MsRecentRuns, name)
  static const MsTemplateBind binds[] = {
    CHILD (toasts), CHILD (stack), CHILD (list_view), CHILD (folder_label),
    MS_TEMPLATE_CALLBACK (setup_row), MS_TEMPLATE_CALLBACK (bind_row),
    MS_TEMPLATE_CALLBACK (on_activate)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-recent-runs", binds, G_N_ELEMENTS (binds));
  gtk_widget_class_install_action (widget_class, "recent.open", "ay", action_open);
  gtk_widget_class_install_action (widget_class, "recent.show", "ay", action_show);
  gtk_widget_class_install_action (widget_class, "recent.rename", "ay", action_rename);
  gtk_widget_class_install_action (widget_class, "recent.delete", "ay", action_delete);
  gtk_widget_class_install_action (widget_class, "recent.undo", "u", action_undo);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Delete, 0, delete_selected, NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ms_recent_runs_init (MsRecentRuns *self)
{
  self->deleted = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_object_unref);
  gtk_widget_init_template (GTK_WIDGET (self));
}

MsRecentRuns *
ms_recent_runs_new (MsRunsLibrary *library)
{
  return g_object_new (MS_TYPE_RECENT_RUNS, "library", library, NULL);
}
