/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-actions.c: the window's actions, their dialogs, and exports. */
#include <glib/gi18n.h>

#include "ms-drawing.h"
#include "ms-engine.h"
#include "ms-reference-dialog.h"
#include "ms-reference-runs.h"
#include "ms-run.h"
#include "ms-window-private.h"

static void
toast_saved (MsWindow *self, const char *path, GError *error)
{
  if (!path) {
    ms_window_toast (self, _("Only local files can be written"));
  } else if (error) {
    ms_window_toast (self, error->message);
  } else {
    g_autofree char *name = g_filename_display_name (path);
    g_autofree char *msg = g_strdup_printf (_("Saved %s"), name);
    ms_window_toast (self, msg);
  }
}

/* The run Export CSV offers first: the live sweep when there is one, else
 * the newest file; G_MAXUINT when none is open. */
static guint
default_export_index (MsWindow *self)
{
  guint n = ms_session_get_n_runs (self->session);
  MsRun *live = ms_session_get_live_run (self->session);
  for (guint i = 0; live && i < n; i++)
    if (ms_session_get_run (self->session, i) == live)
      return i;
  return n ? n - 1 : G_MAXUINT;
}

/* Every file the window exports (a picture, a report, a handout) is held
 * to the output plan's rules (ms_output_plan_check_file): never another
 * run's sidecar or file, never a file holding a run's measurements. */
static gboolean
export_target_ok (const char *path, GError **error)
{
  char err[4 * 1024];
  if (ms_output_plan_check_file (_("Export"), path, err, sizeof err))
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, err);
  return FALSE;
}

/* A run saved as CSV is held to the same rules as every other export: a
 * file that holds a run's measurements, or another run's sidecar, is not
 * replaced, even when the file chooser asked (its question names one
 * file; the run's sidecar beside it would go too). */
static gboolean
export_results (MsResults *run, const char *path, gboolean summary, GError **error)
{
  if (!export_target_ok (path, error))
    return FALSE;
  char err[512];
  gboolean ok = summary ? ms_csv_write_summary (run, path, err, sizeof err)
                        : ms_csv_write_samples (run, path, err, sizeof err);
  if (!ok)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err);
  return ok;
}

gboolean
ms_window_export_run_csv (MsWindow *self, guint index, const char *path, gboolean summary,
                          GError **error)
{
  if (index >= ms_session_get_n_runs (self->session)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: nothing to export"), path);
    return FALSE;
  }
  return export_results (ms_run_get_results (ms_session_get_run (self->session, index)), path,
                         summary, error);
}

gboolean
ms_window_export_csv (MsWindow *self, const char *path, gboolean summary, GError **error)
{
  return ms_window_export_run_csv (self, default_export_index (self), path, summary, error);
}

/* The page in front, whose drawing Export Chart writes. */
static MsPage *
page_shown (MsWindow *self)
{
  return MS_PAGE (adw_view_stack_get_visible_child (self->stack));
}

typedef struct {
  MsPage *page;
  const MsPageDrawing *drawing;
  MsChartStyle style;
} ExportCtx;

static void
export_draw (cairo_t *cr, double w, double h, gpointer data)
{
  ExportCtx *x = data;
  x->drawing->draw (x->page, cr, &x->style, w, h);
}

/* What the page in front shows, at width x height; caption: the lines the
 * page gives under it (the device, date, version and settings of the runs
 * drawn; a lesson's takeaway first). Then what the page writes beside it
 * (*beside: that file, or NULL). */
static gboolean
export_chart (MsWindow *self, const char *path, int width, int height, gboolean caption,
              char **beside, GError **error)
{
  if (!export_target_ok (path, error))
    return FALSE;
  MsPage *page = page_shown (self);
  g_auto (MsPageDrawing) drawing = { NULL };
  g_autofree char *why = NULL;
  if (!ms_page_get_drawing (page, &drawing, &why)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s", why);
    return FALSE;
  }
  ExportCtx x = { page, &drawing };
  /* Files for reports are light whatever the screen shows; scale text with
   * the image so a large export stays legible. */
  ms_chart_style_init_light (&x.style);
  x.style.text_scale = self->scale.text_scale * MAX (1.0, width / 1400.0);
  x.style.line_scale = self->scale.line_scale * MAX (1.0, width / 1400.0);
  x.style.slide = drawing.slide;
  /* The headline is on the screen: it goes whether or not the caption does. */
  MsExportOptions options = { caption ? drawing.caption : NULL, &x.style, NULL,
                              drawing.headline };
  if (!ms_export_drawing_full (path, width, height, export_draw, &x, &options, error))
    return FALSE;
  *beside = drawing.write_beside ? drawing.write_beside (page, path, error) : NULL;
  return !drawing.write_beside || *beside;
}

gboolean
ms_window_export_chart (MsWindow *self, const char *path, int width, int height, GError **error)
{
  g_autofree char *beside = NULL;
  return export_chart (self, path, width, height, TRUE, &beside, error);
}

gboolean
ms_window_export_report (MsWindow *self, const char *path, GError **error)
{
  g_autoptr (GPtrArray) runs = ms_session_dup_runs (self->session);
  g_autoptr (GPtrArray) results = ms_run_array_results (runs);
  if (!results->len) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: nothing to export"), path);
    return FALSE;
  }
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *generated = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  MsReportInput input = { results, generated };
  if (!export_target_ok (path, error))
    return FALSE;
  return g_str_has_suffix (path, ".html") ? ms_report_write_html (path, &input, error)
                                          : ms_report_write_pdf (path, &input, error);
}

static void
action_run (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  g_autoptr (GError) error = NULL;
  /* The session says why it cannot start; a sweep already running says
   * nothing. */
  if (!ms_session_run_sweep (self->session, &error) && error)
    ms_window_toast (self, error->message);
}

static void
action_stop (GSimpleAction *a, GVariant *p, gpointer data)
{
  ms_session_stop_sweep (MS_WINDOW (data)->session);
}

static void
on_open_response (GtkNativeDialog *dialog, int response, MsWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT) {
    g_autoptr (GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
    for (guint i = 0; i < g_list_model_get_n_items (files); i++) {
      g_autoptr (GFile) f = g_list_model_get_item (files, i);
      ms_window_open_file (self, f);
    }
  }
  g_object_unref (dialog);
}

/* The files a dialog takes (file_dialog's filter). */
typedef enum { MS_FILES_CSV, MS_FILES_PICTURE, MS_FILES_REPORT, MS_FILES_PDF } MsFileKinds;

static GtkFileChooserNative *
file_dialog (MsWindow *self, const char *title, GtkFileChooserAction action, const char *accept,
             MsFileKinds kinds)
{
  GtkFileChooserNative *d =
    gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, _("_Cancel"));
  /* Every dialog names the files it takes: a save dialog without a filter
   * showed an empty "(None)" list. */
  static const struct {
    const char *name, *patterns;
  } filters[] = {
    [MS_FILES_CSV] = { N_ ("CSV files"), "*.csv *.csv.gz" },
    [MS_FILES_PICTURE] = { N_ ("PNG, SVG or PDF"), "*.png *.svg *.pdf" },
    [MS_FILES_REPORT] = { N_ ("PDF or HTML"), "*.pdf *.html" },
    [MS_FILES_PDF] = { N_ ("PDF"), "*.pdf" },
  };
  g_autoptr (GtkFileFilter) f = gtk_file_filter_new ();
  gtk_file_filter_set_name (f, _ (filters[kinds].name));
  g_auto (GStrv) patterns = g_strsplit (filters[kinds].patterns, " ", -1);
  for (guint i = 0; patterns[i]; i++)
    gtk_file_filter_add_pattern (f, patterns[i]);
  if (kinds == MS_FILES_CSV)
    gtk_file_filter_add_mime_type (f, "text/csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (d), f);
  return d;
}

static void
action_open (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  GtkFileChooserNative *d =
    /* Runs, and the GPUs page's peer and multi-GPU files. */
    file_dialog (self, _("Open CSV Files"), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), MS_FILES_CSV);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (d), TRUE);
  g_signal_connect (d, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d));
}

/* Where save dialogs start: the folder of the last export, else the user's
 * documents (else home). */
static char *
export_folder (MsWindow *self)
{
  g_autofree char *last = g_settings_get_string (self->settings, "export-folder");
  if (last[0] && g_file_test (last, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&last);
  const char *docs = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  return g_strdup (docs && g_file_test (docs, G_FILE_TEST_IS_DIR) ? docs : g_get_home_dir ());
}

/* Shows a save dialog there, its answer going to on_response with data. */
static void
show_in_export_folder (MsWindow *self, GtkFileChooserNative *d, GCallback on_response,
                       gpointer data)
{
  g_autofree char *folder = export_folder (self);
  g_autoptr (GFile) f = g_file_new_for_path (folder);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (d), f, NULL);
  g_signal_connect (d, "response", on_response, data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d));
}

/* TRUE if the dialog was accepted, with the local path chosen (NULL for a
 * remote file) and the value of one of its choices; a local folder is
 * remembered for the next export. */
static gboolean
accepted (MsWindow *self, GtkNativeDialog *dialog, int response, const char *choice_id,
          char **path, const char **choice)
{
  if (response != GTK_RESPONSE_ACCEPT)
    return FALSE;
  g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  *path = g_file_get_path (file);
  *choice = choice_id ? gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), choice_id) : NULL;
  if (*path) {
    g_autofree char *folder = g_path_get_dirname (*path);
    g_settings_set_string (self->settings, "export-folder", folder);
  }
  return TRUE;
}

/* A file name from a run's name: letters, digits, '-' and '_' kept, any
 * other run of characters one '-'. */
static char *
export_file_name (MsRun *run, const char *kind)
{
  g_autoptr (GString) name = g_string_new (NULL);
  for (const char *p = ms_run_get_name (run); *p; p = g_utf8_next_char (p)) {
    gunichar c = g_utf8_get_char (p);
    if (g_unichar_isalnum (c) || c == '_')
      g_string_append_unichar (name, c);
    else if (name->len && name->str[name->len - 1] != '-')
      g_string_append_c (name, '-');
  }
  while (name->len && name->str[name->len - 1] == '-')
    g_string_truncate (name, name->len - 1);
  return g_strdup_printf ("%s-%s.csv", name->len ? name->str : "memsweep", kind);
}

static void
on_export_csv_response (GtkNativeDialog *dialog, int response, MsWindow *self)
{
  g_autofree char *path = NULL;
  const char *kind;
  g_autoptr (GError) error = NULL;
  GPtrArray *runs = g_object_get_data (G_OBJECT (dialog), "runs");
  if (accepted (self, dialog, response, "kind", &path, &kind)) {
    /* The runs as they were when the dialog opened: the choice's ids index
     * them, whatever opened or closed meanwhile. */
    const char *which = runs->len > 1
                          ? gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "run")
                          : "0";
    guint index = which ? (guint) g_ascii_strtoull (which, NULL, 10) : 0;
    MsRun *run = g_ptr_array_index (runs, MIN (index, runs->len - 1));
    if (path && export_results (ms_run_get_results (run), path, g_strcmp0 (kind, "summary") == 0,
                                &error)) {
      g_autofree char *name = g_filename_display_name (path);
      /* TRANSLATORS: a run's name, then the file it was saved to. */
      g_autofree char *msg = g_strdup_printf (_("Saved %s as %s"), ms_run_get_name (run), name);
      ms_window_toast (self, msg);
    } else {
      toast_saved (self, path, error);
    }
  }
  g_object_unref (dialog);
}

/* With several runs open, which one to write is a choice of the dialog,
 * the run Export CSV would take by itself chosen first; the file name and
 * the toast name the run either way. */
static void
offer_runs (MsWindow *self, GtkFileChooser *d, GPtrArray *runs, guint first)
{
  if (runs->len > 1) {
    g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GPtrArray) labels = g_ptr_array_new ();
    /* The first run offered is listed first too: GTK 4.8's own file
     * chooser shows a choice's first option whatever was set. */
    for (guint k = 0; k < runs->len; k++) {
      guint i = k == 0 ? first : k <= first ? k - 1 : k;
      g_ptr_array_add (ids, g_strdup_printf ("%u", i));
      g_ptr_array_add (labels, (gpointer) ms_run_get_name (g_ptr_array_index (runs, i)));
    }
    g_ptr_array_add (ids, NULL);
    g_ptr_array_add (labels, NULL);
    gtk_file_chooser_add_choice (d, "run", _("Run"), (const char **) ids->pdata,
                                 (const char **) labels->pdata);
    gtk_file_chooser_set_choice (d, "run", g_ptr_array_index (ids, 0));
  }
  g_autofree char *title =
    runs->len > 1 ? g_strdup (_("Export a Run as CSV"))
                  /* TRANSLATORS: the dialog's title; %s is the run's name. */
                  : g_strdup_printf (_("Export %s as CSV"),
                                     ms_run_get_name (g_ptr_array_index (runs, first)));
  gtk_native_dialog_set_title (GTK_NATIVE_DIALOG (d), title);
  g_autofree char *file = export_file_name (g_ptr_array_index (runs, first), "samples");
  gtk_file_chooser_set_current_name (d, file);
}

static void
action_export_csv (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  guint first = default_export_index (self);
  if (first == G_MAXUINT)
    return;
  GtkFileChooserNative *d =
    file_dialog (self, _("Export CSV"), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), MS_FILES_CSV);
  const char *ids[] = { "samples", "summary", NULL };
  const char *labels[] = { _("Samples (every phase of every repetition)"),
                           _("Summary (medians, spreads, bandwidths)"), NULL };
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (d), "kind", _("Contents"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (d), "kind", "samples");
  GPtrArray *runs = ms_session_dup_runs (self->session);
  g_object_set_data_full (G_OBJECT (d), "runs", runs, (GDestroyNotify) g_ptr_array_unref);
  offer_runs (self, GTK_FILE_CHOOSER (d), runs, first);
  show_in_export_folder (self, d, G_CALLBACK (on_export_csv_response), self);
}

typedef struct {
  MsWindow *self;
  int width, height;
} ChartExport;

/* Export Report, or Export Handout (the dialog's "handout" data): a name
 * ending in .pdf (or a report's .html) is kept, others get the format's. */
static void
on_export_document_response (GtkNativeDialog *dialog, int response, MsWindow *self)
{
  gboolean handout = g_object_get_data (G_OBJECT (dialog), "handout") != NULL;
  g_autofree char *path = NULL;
  const char *fmt;
  g_autoptr (GError) error = NULL;
  if (accepted (self, dialog, response, handout ? NULL : "format", &path, &fmt)) {
    gboolean known = path && (g_str_has_suffix (path, ".pdf") ||
                              (!handout && g_str_has_suffix (path, ".html")));
    g_autofree char *named =
      path ? ms_export_name_with_extension (path, known, g_strcmp0 (fmt, "html") ? "pdf" : "html",
                                            &error)
           : NULL;
    if (named && handout)
      ms_window_export_handout (self, named, &error);
    else if (named)
      ms_window_export_report (self, named, &error);
    toast_saved (self, named ? named : path, error);
  }
  g_object_unref (dialog);
}

static void
action_export_report (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  GtkFileChooserNative *d =
    file_dialog (self, _("Export Report"), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                 MS_FILES_REPORT);
  const char *ids[] = { "pdf", "html", NULL };
  const char *labels[] = { "PDF", "HTML", NULL };
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (d), "format",
                               _("Format (if the name has no extension)"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (d), "format", "pdf");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (d), "memsweep-report.pdf");
  /* One folder for charts, tables and reports. */
  show_in_export_folder (self, d, G_CALLBACK (on_export_document_response), self);
}

/* The run Export Handout prints: the Lessons page's lesson shown, while
 * that page is in front; else NULL. */
static MsRun *
handout_run (MsWindow *self)
{
  if (page_shown (self) != MS_PAGE (self->lessons_page))
    return NULL;
  return ms_lessons_page_get_shown_run (self->lessons_page);
}

gboolean
ms_window_export_handout (MsWindow *self, const char *path, GError **error)
{
  MsRun *run = handout_run (self);
  const MsResults *results = run ? ms_run_get_results (run) : NULL;
  g_autofree char *topic_name = NULL;
  g_object_get (self->lessons_page, "shown-topic", &topic_name, NULL);
  MsLessonTopic topic = topic_name ? ms_lesson_topic_from_name (topic_name) : MS_TOPIC_COUNT;
  if (!results || ms_report_handout_unavailable (topic, results)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s",
                 _("No lesson run is shown: show a lesson’s answer first"));
    return FALSE;
  }
  /* The footer names the file the run came from, else the run. */
  const char *file = ms_run_get_source_file (run);
  g_autofree char *source = file ? g_path_get_basename (file) : g_strdup (ms_run_get_name (run));
  if (!export_target_ok (path, error))
    return FALSE;
  return ms_report_write_handout (path, topic, results, source, error);
}

static void
action_export_handout (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  g_autofree char *topic = NULL;
  g_object_get (self->lessons_page, "shown-topic", &topic, NULL);
  if (!handout_run (self) || !topic)
    return;
  GtkFileChooserNative *d =
    file_dialog (self, _("Export Handout"), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                 MS_FILES_PDF);
  g_autofree char *name = g_strdup_printf ("%s-handout.pdf", topic);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (d), name);
  g_object_set_data (G_OBJECT (d), "handout", GINT_TO_POINTER (TRUE));
  show_in_export_folder (self, d, G_CALLBACK (on_export_document_response), self);
}

/* Export Handout is on while the Lessons page is in front with a lesson's
 * run shown. */
static void
update_handout_action (MsWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "export-handout");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), handout_run (self) != NULL);
}

static void
on_export_chart_response (GtkNativeDialog *dialog, int response, ChartExport *ce)
{
  g_autofree char *path = NULL;
  const char *fmt;
  g_autoptr (GError) error = NULL;
  if (accepted (ce->self, dialog, response, "format", &path, &fmt)) {
    g_autofree char *named =
      path ? ms_export_name_with_extension (path, ms_export_format_known (path),
                                            fmt ? fmt : "png", &error)
           : NULL;
    const char *caption = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "caption");
    g_autofree char *beside = NULL;
    if (named && export_chart (ce->self, named, ce->width, ce->height,
                               g_strcmp0 (caption, "false") != 0, &beside, &error) && beside) {
      g_autofree char *picture = g_filename_display_name (named);
      g_autofree char *table = g_filename_display_name (beside);
      /* TRANSLATORS: the picture saved, then the table saved beside it. */
      g_autofree char *msg = g_strdup_printf (_("Saved %s and %s"), picture, table);
      ms_window_toast (ce->self, msg);
    } else {
      toast_saved (ce->self, named ? named : path, error);
    }
  }
  g_object_unref (dialog);
  g_free (ce);
}

static void
on_chart_size_response (AdwMessageDialog *dialog, const char *response, MsWindow *self)
{
  if (g_strcmp0 (response, "export") != 0)
    return;
  GtkWidget *grid = adw_message_dialog_get_extra_child (dialog);
  ChartExport *ce = g_new0 (ChartExport, 1);
  ce->self = self;
  ce->width = gtk_spin_button_get_value_as_int (
    GTK_SPIN_BUTTON (gtk_grid_get_child_at (GTK_GRID (grid), 1, 0)));
  ce->height = gtk_spin_button_get_value_as_int (
    GTK_SPIN_BUTTON (gtk_grid_get_child_at (GTK_GRID (grid), 1, 1)));
  GtkFileChooserNative *d =
    file_dialog (self, _("Export Chart"), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                 MS_FILES_PICTURE);
  const char *ids[] = { "png", "svg", "pdf", NULL };
  const char *labels[] = { "PNG", "SVG", "PDF", NULL };
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (d), "format",
                               _("Format (if the name has no extension)"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (d), "format", "png");
  /* Options NULL: a check box. */
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (d), "caption",
                               _("Caption (device, date, version, settings)"), NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (d), "caption", "true");
  const char *kind = g_object_get_data (G_OBJECT (dialog), "kind");
  g_autofree char *name = g_strdup_printf ("memsweep-%s.png", kind);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (d), name);
  show_in_export_folder (self, d, G_CALLBACK (on_export_chart_response), ce);
}

static void
on_size_activate (GtkText *text, AdwMessageDialog *dialog)
{
  /* GtkSpinButton::activate is GTK 4.14: the text inside emits it. */
  gtk_spin_button_update (
    GTK_SPIN_BUTTON (gtk_widget_get_ancestor (GTK_WIDGET (text), GTK_TYPE_SPIN_BUTTON)));
  adw_message_dialog_response (dialog, "export");
  gtk_window_close (GTK_WINDOW (dialog));
}

static void
action_export_chart (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  g_auto (MsPageDrawing) drawing = { NULL };
  g_autofree char *why = NULL;
  /* Each page says what it exports, or why it has nothing. */
  if (!ms_page_get_drawing (page_shown (self), &drawing, &why)) {
    ms_window_toast (self, why);
    return;
  }
  /* The dialog names what the page exports. */
  g_autofree char *body =
    g_strdup_printf ("%s\n\n%s", drawing.title,
                     _("Size of the image in pixels. PNG, SVG and PDF are drawn by the same "
                       "code as the screen."));
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Export Chart"), body);
  g_object_set_data (G_OBJECT (dialog), "kind", (gpointer) drawing.kind);
  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_halign (grid, GTK_ALIGN_CENTER);
  const char *names[] = { _("Width"), _("Height") };
  int values[] = { 1600, 1000 };
  for (int i = 0; i < 2; i++) {
    GtkWidget *label = gtk_label_new (names[i]);
    GtkWidget *spin = gtk_spin_button_new_with_range (16, 16384, 10);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), values[i]);
    gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
    /* Enter in a size field chooses the file, as the default button. */
    g_signal_connect_object (gtk_editable_get_delegate (GTK_EDITABLE (spin)), "activate",
                             G_CALLBACK (on_size_activate), dialog, 0);
    gtk_grid_attach (GTK_GRID (grid), label, 0, i, 1, 1);
    gtk_grid_attach (GTK_GRID (grid), spin, 1, i, 1, 1);
  }
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), grid);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "export",
                                    _("_Choose File…"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "export",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "export");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_chart_size_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_reference_open (MsReferenceDialog *dialog, char **paths, MsWindow *self)
{
  for (char **p = paths; *p; p++) {
    g_autoptr (GFile) f = g_file_new_for_path (*p);
    ms_window_open_file (self, f);
  }
}

static void
action_reference_runs (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  MsReferenceDialog *dialog = ms_reference_dialog_new (ms_reference_dir ());
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  /* In front of a class, as large as the window behind it. */
  if (self->presentation)
    gtk_widget_add_css_class (GTK_WIDGET (dialog), "presentation");
  g_signal_connect_object (dialog, "open", G_CALLBACK (on_reference_open), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
action_clear_runs (GSimpleAction *a, GVariant *p, gpointer data)
{
  ms_window_close_runs (MS_WINDOW (data));
}

/* F8: the key; the window shows the pane as it says (ms-window.c), and
 * keeps this state. */
static void
change_settings_shown (GSimpleAction *a, GVariant *state, gpointer data)
{
  g_settings_set_boolean (MS_WINDOW (data)->settings, "settings-shown",
                          g_variant_get_boolean (state));
}

static void
action_text_scale (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  int dir = g_variant_get_int32 (p);
  double base = self->presentation ? 1.6 : 1.0;
  double scale = dir == 0 ? base
                          : CLAMP (self->scale.text_scale * (dir > 0 ? 1.15 : 1 / 1.15), 0.6, 4.0);
  g_object_set (self, "text-scale", scale, NULL);
}

static void
change_presentation (GSimpleAction *a, GVariant *state, gpointer data)
{
  g_object_set (data, "presentation", g_variant_get_boolean (state), NULL);
}

static void
action_view (GSimpleAction *a, GVariant *p, gpointer data)
{
  g_object_set (data, "view", g_variant_get_int32 (p), NULL);
  /* Alt+3 and the timeline's arrows work at once: the keys to the view. */
  ms_window_focus_canvas (data);
}

static void
action_timeline_zoom (GSimpleAction *a, GVariant *p, gpointer data)
{
  ms_timeline_page_zoom (MS_WINDOW (data)->timeline_page, g_variant_get_int32 (p));
}

static void
action_show_runs (GSimpleAction *a, GVariant *p, gpointer data)
{
  ms_window_popup_header_menu (data, MS_WINDOW (data)->runs_button);
}

static void
action_copy_rows (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  g_autofree char *csv = ms_table_page_dup_selected_csv (self->table_page);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
  ms_window_toast (self, _("Copied the selected rows as CSV"));
}

/* Ctrl+F from any page: the table, with the keyboard in its filter. */
static void
action_filter_rows (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  g_object_set (self, "view", MS_VIEW_TABLE, NULL);
  ms_table_page_focus_filter (self->table_page);
}

/* win.show-help-overlay: the shortcuts window is built the first time it
 * is asked for. (GtkApplication would build it for every new window, before
 * the first frame, if it were at gtk/help-overlay.ui.) */
static void
action_show_help_overlay (GSimpleAction *a, GVariant *p, gpointer data)
{
  GtkApplicationWindow *window = data;
  if (!gtk_application_window_get_help_overlay (window)) {
    g_autoptr (GtkBuilder) builder
      = gtk_builder_new_from_resource ("/io/github/memsweep/Memsweep/ms-shortcuts-window.ui");
    gtk_application_window_set_help_overlay (
      window, GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  }
  gtk_window_present (GTK_WINDOW (gtk_application_window_get_help_overlay (window)));
}

void
ms_window_add_actions (MsWindow *self)
{
  static const GActionEntry entries[] = {
    { "run", action_run },
    { "stop", action_stop },
    { "open", action_open },
    { "export-csv", action_export_csv },
    { "export-chart", action_export_chart },
    { "export-report", action_export_report },
    { "export-handout", action_export_handout },
    { "reference-runs", action_reference_runs },
    { "clear-runs", action_clear_runs },
    { "text-scale", action_text_scale, "i" },
    { "view", action_view, "i" },
    { "timeline-zoom", action_timeline_zoom, "i" },
    { "copy-rows", action_copy_rows },
    { "filter-rows", action_filter_rows },
    { "show-runs", action_show_runs },
    { "show-help-overlay", action_show_help_overlay },
    /* A toggle; its state follows the "presentation" property (a
     * GPropertyAction would hold a reference to the window). */
    { "presentation", NULL, NULL, "false", change_presentation },
    { "settings-shown", NULL, NULL, "true", change_settings_shown },
  };
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}

void
ms_window_actions_follow_pages (MsWindow *self)
{
  g_signal_connect_object (self->lessons_page, "notify::shown-run",
                           G_CALLBACK (update_handout_action), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stack, "notify::visible-child",
                           G_CALLBACK (update_handout_action), self, G_CONNECT_SWAPPED);
  update_handout_action (self);
}
