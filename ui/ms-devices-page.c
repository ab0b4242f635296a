/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-devices-page.c: the page beyond one GPU (ms-devices-page.h): the
 * device check list, the pickers and views, saved files; the session runs
 * the jobs the page asks for (ms-device-job.c) and the page shows what
 * they bring. */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-devices-page.h"
#include "ms-engine.h"
#include "ms-props.h"
#include "ms-drawing.h"
#include "ms-run.h"
#include "ms-siblings-line.h"
#include "ms-views.h"

#define MS_DEVICES_METHOD_RUNS (MS_PEER_METHOD_COUNT + 1) /* the picker's last entry */

struct _MsDevicesPage {
  MsPage parent_instance;
  GtkListBox *device_list;
  GtkCheckButton *all_check;
  GtkWidget *multi_button, *peer_button, *stop_button;
  GtkSpinner *spinner;
  GtkLabel *title_label; /* whose GPUs the page shows */
  GtkLabel *status_label;
  GtkLabel *siblings_label; /* the host's sibling check, when one is known */
  GtkLabel *why_label;   /* why nothing can run here */
  GtkLabel *error_label; /* and what CUDA said, in small */
  GtkDropDown *method_dropdown, *direction_dropdown;
  MsMatrixView *matrix_view;
  MsTopologyView *topology_view;

  GArray *devices;   /* MsDeviceInfo */
  GPtrArray *checks; /* GtkCheckButton per present device, in order */
  GBindingGroup *session_bindings; /* its sweep to window-sweeping */
  GPtrArray *runs;               /* of the last multi-GPU sweep */
  MsPeerFile *peer;
  char *status;
  char *siblings; /* its line */
  gboolean updating_all;
  gboolean window_sweeping; /* the window's own sweep holds the GPU */
};

G_DEFINE_FINAL_TYPE (MsDevicesPage, ms_devices_page, MS_TYPE_PAGE)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_STATUS,
  PROP_N_SELECTED,
  PROP_PEER,
  PROP_SIBLINGS,
  PROP_WINDOW_SWEEPING,
  N_PROPS
};
static GParamSpec *props[N_PROPS];

static void
set_status (MsDevicesPage *self, const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text ? text : "", -1);
  gtk_label_set_text (self->status_label, valid);
  ms_props_set_string (self, &self->status, valid, props[PROP_STATUS]);
}

static void
set_siblings (MsDevicesPage *self, const char *line)
{
  gtk_label_set_text (self->siblings_label, line ? line : "");
  gtk_widget_set_visible (GTK_WIDGET (self->siblings_label), line != NULL);
  ms_props_set_string (self, &self->siblings, line, props[PROP_SIBLINGS]);
}

/* The job beyond one GPU the session runs. */
static MsDeviceJobKind
device_job (MsDevicesPage *self)
{
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  int kind = MS_DEVICE_JOB_NONE;
  if (session)
    g_object_get (session, "device-job", &kind, NULL);
  return kind;
}

/* ---- the device list ------------------------------------------------------ */

static int
device_of (GtkCheckButton *check)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (check), "ms-device"));
}

static guint
n_selected (MsDevicesPage *self)
{
  guint n = 0;
  for (guint i = 0; i < self->checks->len; i++)
    n += gtk_check_button_get_active (g_ptr_array_index (self->checks, i));
  return n;
}

static gboolean
have_gpu (MsDevicesPage *self)
{
  return self->checks->len > 0;
}

/* Buttons, the "all" tick and the notifications after any change. */
static void
update_page (gpointer page)
{
  MsDevicesPage *self = page;
  guint n = n_selected (self);
  MsDeviceJobKind job = device_job (self);
  gboolean busy = job != MS_DEVICE_JOB_NONE;
  /* Two measurements at once would measure each other. */
  gboolean blocked = busy || self->window_sweeping;
  gtk_widget_set_sensitive (self->multi_button, !blocked && n >= 1);
  /* Blue only while it can act: Adwaita's disabled suggested button (faded
   * blue under faded text) was too faint to read, its plain disabled
   * button is not. */
  if (!blocked && n >= 1)
    gtk_widget_add_css_class (self->multi_button, "suggested-action");
  else
    gtk_widget_remove_css_class (self->multi_button, "suggested-action");
  gtk_widget_set_sensitive (self->peer_button, !blocked && n >= 2);
  gtk_widget_set_sensitive (GTK_WIDGET (self->device_list), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->all_check), !busy && have_gpu (self));
  gtk_widget_set_visible (self->stop_button, job == MS_DEVICE_JOB_MULTI);
  gtk_spinner_set_spinning (self->spinner, busy);
  self->updating_all = TRUE;
  gtk_check_button_set_active (self->all_check, have_gpu (self) && n == self->checks->len);
  self->updating_all = FALSE;
  gtk_widget_set_tooltip_text (self->peer_button, self->window_sweeping ? _ ("A sweep is running")
                                                  : n < 2 && !busy ? _ ("Select at least two GPUs")
                                                                   : NULL);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_SELECTED]);
}

static void
on_all_toggled (MsDevicesPage *self)
{
  if (self->updating_all)
    return;
  gboolean on = gtk_check_button_get_active (self->all_check);
  for (guint i = 0; i < self->checks->len; i++)
    gtk_check_button_set_active (g_ptr_array_index (self->checks, i), on);
  update_page (self);
}

/* The devices known so far as a peer file without links, so that the
 * diagram shows the GPUs before the peer matrix has run. */
static void
show_devices_only (MsDevicesPage *self)
{
  MsPeerFile *file = g_new0 (MsPeerFile, 1);
  for (guint i = 0; self->devices && i < self->devices->len; i++) {
    const MsDeviceInfo *d = &g_array_index (self->devices, MsDeviceInfo, i);
    if (!d->present || file->peer.n_devices >= MS_MULTI_MAX_DEVICES)
      continue;
    int slot = file->peer.n_devices++;
    file->device[slot] = *d;
    file->peer.devices[slot] = d->index;
  }
  g_snprintf (file->peer.topo.error, sizeof file->peer.topo.error, "%s",
              _ ("Links between the GPUs: run the peer matrix to see them"));
  g_autoptr (MsPeerFile) box = ms_peer_file_box_new (file);
  g_free (file);
  g_object_set (self->topology_view, "peer", box, NULL);
}

static GtkWidget *
device_row (MsDevicesPage *self, const MsDeviceInfo *d)
{
  g_autofree char *label = d->pcie_gen > 0
                               ? g_strdup_printf (_ ("GPU %d: %s (PCIe gen%d x%d)"), d->index,
                                                  d->name, d->pcie_gen, d->pcie_width)
                               : g_strdup_printf (_ ("GPU %d: %s"), d->index, d->name);
  g_autofree char *valid = g_utf8_make_valid (label, -1);
  GtkWidget *check = gtk_check_button_new_with_label (valid);
  gtk_widget_set_margin_start (check, 6);
  gtk_widget_set_margin_end (check, 6);
  gtk_widget_set_margin_top (check, 6);
  gtk_widget_set_margin_bottom (check, 6);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_object_set_data (G_OBJECT (check), "ms-device", GINT_TO_POINTER (d->index));
  g_signal_connect_swapped (check, "toggled", G_CALLBACK (update_page), self);
  g_ptr_array_add (self->checks, check);
  return check;
}

/* Why no GPU can run, in a sentence a class can read: CUDA's own words
 * ("cudaErrorInsufficientDriver") go in the small line under it. */
static const char *
no_gpu_sentence (const char *error)
{
  if (strstr (error, "InsufficientDriver") || strstr (error, "NoDriver")
      || strstr (error, "driver version is insufficient") || strstr (error, "driver"))
    return _ ("This computer has no usable NVIDIA GPU: the driver is missing or older than this "
              "CUDA build needs.");
  if (strstr (error, "NoDevice") || strstr (error, "no CUDA-capable device"))
    return _ ("No NVIDIA GPU was found on this computer.");
  return _ ("This computer has no usable NVIDIA GPU.");
}

void
ms_devices_page_set_devices (MsDevicesPage *self, GArray *devices)
{
  g_return_if_fail (MS_IS_DEVICES_PAGE (self));
  if (devices != self->devices) {
    g_clear_pointer (&self->devices, g_array_unref);
    self->devices = devices ? g_array_ref (devices) : NULL;
  }
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->device_list))))
    gtk_list_box_remove (self->device_list, child);
  g_ptr_array_set_size (self->checks, 0);
  for (guint i = 0; devices && i < devices->len; i++) {
    const MsDeviceInfo *d = &g_array_index (devices, MsDeviceInfo, i);
    if (d->present && self->checks->len < MS_MULTI_MAX_DEVICES)
      gtk_list_box_append (self->device_list, device_row (self, d));
  }
  gtk_widget_set_visible (GTK_WIDGET (self->device_list), have_gpu (self));
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  /* Said in the status until a file takes its place, then here. */
  gtk_widget_set_visible (GTK_WIDGET (self->why_label), !have_gpu (self) && devices && self->peer);
  if (!have_gpu (self)) {
    const MsDeviceInfo *d
        = devices && devices->len ? &g_array_index (devices, MsDeviceInfo, 0) : NULL;
    const char *error = d && d->error[0] ? d->error : "";
    g_autofree char *why = g_strdup_printf (
        /* TRANSLATORS: %s says why no GPU can run ("No usable NVIDIA GPU: …"). */
        _ ("%s Saved peer matrices (*-peer.csv) and samples from “memsweep multi --out” still "
           "open here."),
        no_gpu_sentence (error));
    gtk_label_set_text (self->why_label, why);
    g_autofree char *raw = g_utf8_make_valid (error, -1);
    g_autofree char *said = g_strdup_printf (_ ("CUDA said: %s"), raw);
    gtk_label_set_text (self->error_label, said);
    gtk_widget_set_visible (GTK_WIDGET (self->error_label), error[0] != '\0');
    if (!self->peer)
      set_status (self, why);
  } else if (device_job (self) == MS_DEVICE_JOB_NONE) {
    set_status (
        self, self->checks->len > 1
                  ? _ ("Tick the GPUs to use, then run them at once or measure peer copies.")
                  : _ ("One GPU: the sweep runs on it; peer copies need two."));
  }
  if (!self->peer)
    show_devices_only (self);
  update_page (self);
}

/* ---- showing results ------------------------------------------------------ */

/* The page is titled after what it shows: a matrix saved on another
 * machine is that machine's, of its date. */
static void
set_title (MsDevicesPage *self, const char *host, const char *iso_date)
{
  if (!host) {
    gtk_label_set_text (self->title_label, _ ("GPUs of this host"));
    return;
  }
  g_autofree char *date = ms_run_describe_date (iso_date);
  g_autofree char *title = g_strdup_printf (_ ("GPUs of %s, measured %s"),
                                            host[0] ? host : _ ("an unnamed host"), date);
  g_autofree char *valid = g_utf8_make_valid (title, -1);
  gtk_label_set_text (self->title_label, valid);
}

static void
show_peer (MsDevicesPage *self, MsPeerFile *file)
{
  g_clear_pointer (&self->peer, ms_peer_file_box_unref);
  self->peer = ms_peer_file_box_ref (file);
  set_title (self, file->host, file->date);
  g_object_set (self->matrix_view, "peer", file, NULL);
  g_object_set (self->topology_view, "peer", file, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->why_label), !have_gpu (self) && self->devices);
  if (gtk_drop_down_get_selected (self->method_dropdown) == MS_DEVICES_METHOD_RUNS)
    gtk_drop_down_set_selected (self->method_dropdown, MS_PEER_COPY_ENABLED);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PEER]);
}

/* Runs of GPUs that ran together, in the matrix. */
static void
show_runs (MsDevicesPage *self, GPtrArray *runs)
{
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  self->runs = g_ptr_array_ref (runs);
  /* Measured here; a file's runs are titled after it by show_opened. */
  set_title (self, NULL, NULL);
  g_object_set (self->matrix_view, "runs", runs, NULL);
  gtk_drop_down_set_selected (self->method_dropdown, MS_DEVICES_METHOD_RUNS);
}

static MsRun *
read_run (const char *path, int n_devices, GString *missing)
{
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  if (!r) {
    g_string_append_printf (missing, "%s%s", missing->len ? "; " : "", err);
    return NULL;
  }
  /* Not kept in the samples file; names the GPU in the charts' labels. */
  r->device.count = MAX (r->device.count, n_devices);
  g_autofree char *label = ms_plot_run_label (r);
  g_snprintf (r->label, sizeof r->label, "%s", label);
  MsRun *run = ms_run_new (r, MS_RUN_KIND_SUMMARY);
  ms_run_set_source_file (run, path);
  return run;
}

/* What a saved file holds, read without touching the page (any thread):
 * a peer matrix, or the runs of a PREFIX-multi.csv; and the status line. */
typedef struct {
  MsPeerFile *peer;
  GPtrArray *runs;
  char *status;
  char *siblings; /* the line of the sibling check opened or beside the file */
  char host[64], date[40]; /* of the runs' file */
} Opened;

static void
opened_free (Opened *o)
{
  g_clear_pointer (&o->peer, ms_peer_file_box_unref);
  g_clear_pointer (&o->runs, g_ptr_array_unref);
  g_free (o->status);
  g_free (o->siblings);
  g_free (o);
}

/* The status line of a saved file: its name, GPUs, host and date; where
 * its sidecar was missing or damaged, that the host, date and devices
 * are unknown and why, instead of guessing them. */
static char *
opened_status (const char *name, int n_devices, const char *host, const char *iso_date,
               const char *meta_unknown, gboolean at_once)
{
  if (meta_unknown[0]) {
    g_autofree char *why = g_utf8_make_valid (meta_unknown, -1);
    return g_strdup_printf (_ ("%s: %d GPUs; the host, date and devices are unknown: %s"), name,
                            n_devices, why);
  }
  g_autofree char *date = ms_run_describe_date (iso_date);
  const char *who = host[0] ? host : _ ("an unnamed host");
  if (at_once)
    return g_strdup_printf (_ ("%s: %d GPUs at once on %s, %s"), name, n_devices, who, date);
  return g_strdup_printf (_ ("%s: %d GPUs of %s, measured %s"), name, n_devices, who, date);
}

/* PREFIX-multi.csv: each GPU's samples file beside it becomes a run. */
static Opened *
read_multi (const char *path, GError **error)
{
  char err[512];
  MsMultiFile *file = ms_multi_file_read (path, err, sizeof err);
  if (!file) {
    g_autofree char *valid = g_utf8_make_valid (err, -1);
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, valid);
    return NULL;
  }
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_autoptr (GString) missing = g_string_new (NULL);
  for (int i = 0; i < file->n_devices; i++) {
    g_autofree char *samples = g_build_filename (dir, file->samples[i], NULL);
    MsRun *r = read_run (samples, file->n_devices, missing);
    if (r)
      g_ptr_array_add (runs, r);
  }
  g_autofree char *name = g_filename_display_basename (path);
  g_autofree char *text = opened_status (name, file->n_devices, file->host, file->date,
                                         file->meta_unknown, TRUE);
  int n_devices = file->n_devices;
  char host[64], date_iso[40];
  g_strlcpy (host, file->host, sizeof host);
  g_strlcpy (date_iso, file->date, sizeof date_iso);
  free (file);
  if (runs->len == 0) {
    g_autofree char *valid = g_utf8_make_valid (missing->str, -1);
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("%s: no GPU's samples: %s"), name,
                 valid);
    return NULL;
  }
  Opened *o = g_new0 (Opened, 1);
  if (missing->len)
    o->status
        = g_strdup_printf (_ ("%s (%u of %d GPUs; %s)"), text, runs->len, n_devices, missing->str);
  else
    o->status = g_steal_pointer (&text);
  o->runs = g_steal_pointer (&runs);
  g_strlcpy (o->host, host, sizeof o->host);
  g_strlcpy (o->date, date_iso, sizeof o->date);
  return o;
}

/* A sibling check's line; NULL with why in error. */
static char *
read_siblings (const char *path, GError **error)
{
  char err[512];
  MsSiblingsFile *file = g_new (MsSiblingsFile, 1);
  char *line = NULL;
  if (ms_siblings_file_read (path, file, err, sizeof err))
    line = ms_siblings_line (file);
  else {
    g_autofree char *valid = g_utf8_make_valid (err, -1);
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, valid);
  }
  g_free (file);
  return line;
}

/* A peer or multi file's host checked as PREFIX-siblings.json beside it
 * (the reference GPUs' check ships so): its line, or NULL. */
static char *
siblings_beside (const char *path, const char *suffix)
{
  size_t stem = ms_csv_name_stem (path, suffix);
  g_autofree char *beside = g_strdup_printf ("%.*s-siblings.json", (int) stem, path);
  return stem && g_file_test (beside, G_FILE_TEST_IS_REGULAR) ? read_siblings (beside, NULL)
                                                              : NULL;
}

static Opened *
read_peer_or_multi (const char *path, GError **error)
{
  if (ms_csv_name_stem (path, "-multi.csv"))
    return read_multi (path, error);
  char err[512];
  MsPeerFile *file = ms_peer_file_read (path, err, sizeof err);
  if (!file) {
    g_autofree char *valid = g_utf8_make_valid (err, -1);
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, valid);
    return NULL;
  }
  Opened *o = g_new0 (Opened, 1);
  o->peer = ms_peer_file_box_new (file);
  free (file);
  g_autofree char *name = g_filename_display_basename (path);
  o->status = opened_status (name, o->peer->peer.n_devices, o->peer->host, o->peer->date,
                             o->peer->meta_unknown, FALSE);
  return o;
}

static Opened *
read_path (const char *path, GError **error)
{
  if (g_str_has_suffix (path, "-siblings.json")) {
    char *line = read_siblings (path, error);
    if (!line)
      return NULL;
    Opened *o = g_new0 (Opened, 1);
    o->siblings = line;
    return o;
  }
  Opened *o = read_peer_or_multi (path, error);
  if (o)
    o->siblings = siblings_beside (path, o->peer ? "-peer.csv" : "-multi.csv");
  return o;
}

/* Shows what was read (a sibling check alone, a peer matrix or runs) and
 * frees it; FALSE when nothing was. */
static gboolean
show_opened (MsDevicesPage *self, Opened *o)
{
  if (!o)
    return FALSE;
  set_siblings (self, o->siblings);
  if (o->peer) {
    show_peer (self, o->peer);
    set_status (self, o->status);
  } else if (o->runs) {
    set_status (self, o->status);
    show_runs (self, o->runs);
    set_title (self, o->host, o->date);
    /* In the session too, for the charts: together, one change for the
     * pages, not one per GPU (the session adds a job's runs itself). */
    MsSession *session = ms_page_get_session (MS_PAGE (self));
    if (session)
      g_ptr_array_unref (ms_session_add_runs (session, (MsRun **) o->runs->pdata, o->runs->len));
  }
  opened_free (o);
  return TRUE;
}

gboolean
ms_devices_page_open_path (MsDevicesPage *self, const char *path, GError **error)
{
  g_return_val_if_fail (MS_IS_DEVICES_PAGE (self), FALSE);
  return show_opened (self, read_path (path, error));
}

static void
open_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  Opened *o = read_path (data, &error);
  if (o)
    g_task_return_pointer (task, o, (GDestroyNotify)opened_free);
  else
    g_task_return_error (task, error);
}

void
ms_devices_page_open_path_async (MsDevicesPage *self, const char *path,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (MS_IS_DEVICES_PAGE (self));
  GTask *task = g_task_new (self, NULL, callback, user_data);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, open_thread);
  g_object_unref (task);
}

gboolean
ms_devices_page_open_path_finish (MsDevicesPage *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return show_opened (self, g_task_propagate_pointer (G_TASK (result), error));
}

/* ---- pickers ---------------------------------------------------------------- */

static gboolean
method_to_view (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint selected = g_value_get_uint (from);
  if (selected > MS_DEVICES_METHOD_RUNS)
    return FALSE;
  g_value_set_int (to, selected == MS_DEVICES_METHOD_RUNS ? MS_MATRIX_SHOW_RUNS : (int)selected);
  return TRUE;
}

static gboolean
direction_to_view (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint selected = g_value_get_uint (from);
  if (selected > 2)
    return FALSE;
  g_value_set_int (to, (int)selected);
  return TRUE;
}

/* The directions the method has: peer copies one way or both; the runs'
 * three; the reference loop one way only. */
static void
update_directions (MsDevicesPage *self)
{
  static const char *const peer[] = { N_ ("one way"), N_ ("both ways at once"), NULL };
  static const char *const runs[]
      = { N_ ("host to device"), N_ ("device to host"), N_ ("end to end"), NULL };
  guint method = gtk_drop_down_get_selected (self->method_dropdown);
  const char *const *names = method == MS_DEVICES_METHOD_RUNS ? runs : peer;
  guint n = method == MS_MATRIX_SHOW_REFERENCE ? 1 : g_strv_length ((char **)names);
  GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (self->direction_dropdown));
  guint old = gtk_drop_down_get_selected (self->direction_dropdown);
  const char *translated[4] = { NULL };
  for (guint i = 0; i < n; i++)
    translated[i] = _ (names[i]);
  gtk_string_list_splice (list, 0, g_list_model_get_n_items (G_LIST_MODEL (list)), translated);
  gtk_drop_down_set_selected (self->direction_dropdown, old < n ? old : 0);
}

static void
set_up_pickers (MsDevicesPage *self)
{
  GtkStringList *methods = GTK_STRING_LIST (gtk_drop_down_get_model (self->method_dropdown));
  for (int m = 0; m < MS_PEER_METHOD_COUNT; m++)
    gtk_string_list_append (methods, ms_peer_method_name (m));
  gtk_string_list_append (methods, _ ("reference loop"));
  gtk_string_list_append (methods, _ ("all selected GPUs at once"));
  g_signal_connect_swapped (self->method_dropdown, "notify::selected",
                            G_CALLBACK (update_directions), self);
  update_directions (self);
  g_object_bind_property_full (self->method_dropdown, "selected", self->matrix_view, "method",
                               G_BINDING_SYNC_CREATE, method_to_view, NULL, NULL, NULL);
  g_object_bind_property_full (self->direction_dropdown, "selected", self->matrix_view, "direction",
                               G_BINDING_SYNC_CREATE, direction_to_view, NULL, NULL, NULL);
}

/* ---- the object ------------------------------------------------------------- */

static void
ms_devices_page_dispose (GObject *object)
{
  MsDevicesPage *self = MS_DEVICES_PAGE (object);
  if (self->session_bindings)
    g_binding_group_set_source (self->session_bindings, NULL);
  g_clear_object (&self->session_bindings);
  g_ptr_array_set_size (self->checks, 0);
  ms_widget_dispose_children (GTK_WIDGET (object), MS_TYPE_DEVICES_PAGE);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->devices, g_array_unref);
  /* The page's dispose drops the status, the siblings' line and the peer
   * file (ms_props_clear). */
  G_OBJECT_CLASS (ms_devices_page_parent_class)->dispose (object);
}

static void
ms_devices_page_finalize (GObject *object)
{
  MsDevicesPage *self = MS_DEVICES_PAGE (object);
  g_ptr_array_unref (self->checks);
  G_OBJECT_CLASS (ms_devices_page_parent_class)->finalize (object);
}

/* The devices come from the session's discovery. */
static void
on_session_devices (MsDevicesPage *self)
{
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  ms_devices_page_set_devices (self, session ? ms_session_get_devices (session) : NULL);
}

/* ---- the jobs, which the session runs ------------------------------------- */

/* The GPUs ticked, by CUDA index. */
static int
selected_devices (MsDevicesPage *self, int *devices)
{
  int n = 0;
  for (guint i = 0; i < self->checks->len && n < MS_MULTI_MAX_DEVICES; i++) {
    GtkCheckButton *check = g_ptr_array_index (self->checks, i);
    if (gtk_check_button_get_active (check))
      devices[n++] = device_of (check);
  }
  return n;
}

static void
ms_devices_page_run_multi (MsDevicesPage *self)
{
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  int devices[MS_MULTI_MAX_DEVICES];
  int n = selected_devices (self, devices);
  g_autoptr (GError) error = NULL;
  if (!session || n == 0)
    return;
  /* On the sizes, repetitions and device as the window has them set. */
  if (!ms_session_run_device_job (session, MS_DEVICE_JOB_MULTI, devices, n, &error)) {
    if (error)
      set_status (self, error->message);
    return;
  }
  g_autofree char *text = g_strdup_printf (_("Running the sweep on %d GPUs at once…"), n);
  set_status (self, text);
}

static void
ms_devices_page_run_peer (MsDevicesPage *self)
{
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  int devices[MS_MULTI_MAX_DEVICES];
  int n = selected_devices (self, devices);
  if (!session || n < 2
      || !ms_session_run_device_job (session, MS_DEVICE_JOB_PEER, devices, n, NULL))
    return;
  g_autofree char *text =
    g_strdup_printf (_("Measuring copies between every pair of %d GPUs…"), n);
  set_status (self, text);
}

/* Stops a multi-GPU sweep at the next cell. */
static void
ms_devices_page_cancel (MsDevicesPage *self)
{
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  if (session)
    ms_session_stop_device_job (session);
}

static char *
multi_status (const MsDeviceJobOutcome *o)
{
  if (o->status == MS_RUN_OK && o->err[0])
    return g_strdup_printf (_("%d GPUs ran the sweep at once, not all of it well: %s"), o->n,
                            o->err);
  if (o->status == MS_RUN_OK)
    return g_strdup_printf (_("%d GPUs ran the sweep at once; each one's curves are in the "
                              "charts, and the matrix shows them side by side."),
                            o->n);
  if (o->status == MS_RUN_CANCELLED)
    return g_strdup (_("Stopped: what ran so far is in the charts."));
  return g_strdup_printf (_("Not every GPU finished: %s"), o->err);
}

/* The sweep's runs, one per GPU, are in the session already. */
static void
on_device_job_finished (MsDevicesPage *self, gpointer outcome, MsSession *session)
{
  const MsDeviceJobOutcome *o = outcome;
  g_autofree char *text = NULL;
  if (o->kind == MS_DEVICE_JOB_MULTI)
    text = multi_status (o);
  else if (o->peer_ok)
    text = g_strdup_printf (_("Peer copies measured between %d GPUs."), o->n);
  else
    text = g_strdup_printf (_("The peer matrix could not run: %s"), o->err);
  set_status (self, text);
  if (o->kind == MS_DEVICE_JOB_MULTI)
    show_runs (self, o->runs);
  else if (o->peer_ok)
    show_peer (self, o->file);
}

static void
on_device_job_changed (MsDevicesPage *self)
{
  update_page (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
}

/* The devices, the jobs and the sweep come from the session, whichever it
 * is now. */
static void
follow_session (MsDevicesPage *self)
{
  MsPage *page = MS_PAGE (self);
  ms_page_connect_session (page, "notify::devices", G_CALLBACK (on_session_devices));
  ms_page_connect_session (page, "notify::device-job", G_CALLBACK (on_device_job_changed));
  ms_page_connect_session (page, "device-job-finished", G_CALLBACK (on_device_job_finished));
  self->session_bindings = g_binding_group_new ();
  g_binding_group_bind (self->session_bindings, "sweeping", self, "window-sweeping",
                        G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "session", self->session_bindings, "source",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect (self, "notify::session", G_CALLBACK (on_session_devices), NULL);
}

static void
draw_matrix (MsPage *page, cairo_t *cr, const MsChartStyle *style, double width, double height)
{
  const MsMatrixData *data = ms_matrix_view_get_data (MS_DEVICES_PAGE (page)->matrix_view);
  ms_matrix_draw (cr, data, style, width, height, NULL);
}

/* The heat map as picked (method and direction, or the runs' mode and
 * direction); the diagram beside it is the host's, not a measurement. */
static char *
ms_devices_page_get_drawing (MsPage *page, MsPageDrawing *drawing)
{
  const MsMatrixData *data = ms_matrix_view_get_data (MS_DEVICES_PAGE (page)->matrix_view);
  if (!data || data->n_rows == 0)
    return g_strdup (_("No heat map is shown: run or open a peer matrix or a sweep on several "
                       "GPUs first"));
  drawing->kind = "matrix";
  drawing->title = g_strdup (data->title);
  drawing->draw = draw_matrix;
  return NULL;
}

static gboolean
is_busy (MsDevicesPage *self)
{
  return device_job (self) != MS_DEVICE_JOB_NONE;
}

/* What the page shows, told as it changes; the window's sweep, set by a
 * binding. */
#define FIELD(field) MS_PROP_FIELD (MsDevicesPage, field)
#define SHOWS .flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
static const MsProp prop_table[N_PROPS] = {
  [PROP_BUSY] = { "busy", G_TYPE_BOOLEAN, MS_PROP_NO_FIELD, .getter = G_CALLBACK (is_busy), SHOWS },
  [PROP_STATUS] = { "status", G_TYPE_STRING, FIELD (status), SHOWS },
  [PROP_N_SELECTED] = { "n-selected", G_TYPE_UINT, MS_PROP_NO_FIELD, 0, G_MAXUINT, 0,
                        .getter = G_CALLBACK (n_selected), SHOWS },
  [PROP_PEER] = { "peer", G_TYPE_BOXED, FIELD (peer), .get_type = ms_peer_file_box_get_type,
                  SHOWS },
  [PROP_SIBLINGS] = { "siblings", G_TYPE_STRING, FIELD (siblings), SHOWS },
  [PROP_WINDOW_SWEEPING] = { "window-sweeping", G_TYPE_BOOLEAN, FIELD (window_sweeping),
                             .changed = update_page },
};
#undef FIELD
#undef SHOWS

static void
ms_devices_page_class_init (MsDevicesPageClass *klass)
{
  MS_PAGE_CLASS (klass)->scaled_views = "matrix_view topology_view";
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_devices_page_dispose;
  MS_PAGE_CLASS (klass)->get_drawing = ms_devices_page_get_drawing;
  object_class->finalize = ms_devices_page_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);

  g_type_ensure (MS_TYPE_MATRIX_VIEW);
  g_type_ensure (MS_TYPE_TOPOLOGY_VIEW);
#define CHILD(name) MS_TEMPLATE_CHILD (MsDevicesPage, name)
  static const MsTemplateBind binds[] = {
    CHILD (device_list), CHILD (all_check), CHILD (multi_button), CHILD (peer_button),
    CHILD (stop_button), CHILD (spinner), CHILD (title_label), CHILD (status_label),
    CHILD (siblings_label), CHILD (why_label), CHILD (error_label), CHILD (method_dropdown),
    CHILD (direction_dropdown), CHILD (matrix_view), CHILD (topology_view),
    MS_TEMPLATE_CALLBACK (on_all_toggled), MS_TEMPLATE_CALLBACK (ms_devices_page_run_multi),
    MS_TEMPLATE_CALLBACK (ms_devices_page_run_peer), MS_TEMPLATE_CALLBACK (ms_devices_page_cancel)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-devices-page", binds, G_N_ELEMENTS (binds));
}

static void
ms_devices_page_init (MsDevicesPage *self)
{
  self->checks = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  set_up_pickers (self);
  ms_devices_page_set_devices (self, NULL);
  follow_session (self);
}
