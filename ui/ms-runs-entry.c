/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runs-entry.c: what the runs library shows of one file. Only the
 * header is read (a bounded sniff); anything unexpected becomes a reason,
 * never a crash, and the file is left as it is. */
#include "ms-runs-entry.h"
#include "memsweep.h"
#include "ms-engine.h"
#include "ms-props.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

struct _MsRunsEntry {
  GObject parent_instance;
  GFile *file;
  char *name, *device, *kind, *reason;
  GDateTime *date;
  guint64 size;
  gboolean stopped;
  /* No plan to judge the run's completeness by (its settings are unknown:
   * no sidecar, or one that is damaged or another run's). */
  gboolean completeness_unknown;
};

G_DEFINE_FINAL_TYPE (MsRunsEntry, ms_runs_entry, G_TYPE_OBJECT)

enum { PROP_0, PROP_FILE, PROP_NAME, PROP_DATE, PROP_DEVICE, PROP_KIND, PROP_SIZE, PROP_REASON,
       PROP_STOPPED, PROP_COMPLETENESS_UNKNOWN, N_PROPS };
static GParamSpec *props[N_PROPS];

/* Read-only: what the file says. */
#define ENTRY_FIELD(field) MS_PROP_FIELD (MsRunsEntry, field)
#define RO .flags = G_PARAM_READABLE
static const MsProp prop_table[N_PROPS] = {
  [PROP_FILE] = { "file", G_TYPE_OBJECT, ENTRY_FIELD (file), .get_type = g_file_get_type, RO },
  [PROP_NAME] = { "name", G_TYPE_STRING, ENTRY_FIELD (name), RO },
  [PROP_DATE] = { "date", G_TYPE_BOXED, ENTRY_FIELD (date), .get_type = g_date_time_get_type, RO },
  [PROP_DEVICE] = { "device", G_TYPE_STRING, ENTRY_FIELD (device), RO },
  [PROP_KIND] = { "kind", G_TYPE_STRING, ENTRY_FIELD (kind), RO },
  [PROP_SIZE] = { "size", G_TYPE_UINT64, ENTRY_FIELD (size), RO },
  [PROP_REASON] = { "reason", G_TYPE_STRING, ENTRY_FIELD (reason), RO },
  [PROP_STOPPED] = { "stopped", G_TYPE_BOOLEAN, ENTRY_FIELD (stopped), RO },
  [PROP_COMPLETENESS_UNKNOWN] = { "completeness-unknown", G_TYPE_BOOLEAN,
                                  ENTRY_FIELD (completeness_unknown), RO },
};
#undef ENTRY_FIELD
#undef RO

static void
ms_runs_entry_finalize (GObject *object)
{
  ms_props_clear (object);
  G_OBJECT_CLASS (ms_runs_entry_parent_class)->finalize (object);
}

static void
ms_runs_entry_class_init (MsRunsEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = ms_runs_entry_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
}

static void
ms_runs_entry_init (MsRunsEntry *self)
{
}

/* The name shown: the file's name without "-samples.csv" (or ".csv"),
 * compressed or not. */
static char *
name_of (GFile *file)
{
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *shown = g_utf8_make_valid (base, -1);
  size_t stem = ms_csv_name_stem (shown, "-samples.csv");
  if (!stem)
    stem = ms_csv_name_stem (shown, ".csv");
  if (stem)
    shown[stem] = '\0';
  return g_steal_pointer (&shown);
}

/* The facts the list shows, from one metadata key; text from the file is
 * made valid for a label (never for markup). */
static void
take_key (MsRunsEntry *self, const char *key, const char *value)
{
  if (strcmp (key, "device") == 0) {
    g_free (self->device);
    self->device = g_utf8_make_valid (value, -1);
  } else if (strcmp (key, "experiment") == 0) {
    g_free (self->kind);
    self->kind = g_utf8_make_valid (value, -1);
  } else if (strcmp (key, "date") == 0) {
    g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
    GDateTime *d = g_utf8_validate (value, -1, NULL) ? g_date_time_new_from_iso8601 (value, utc)
                                                     : NULL;
    if (d) {
      g_clear_pointer (&self->date, g_date_time_unref);
      self->date = d;
    }
  }
}

/* The facts the list shows, from the file's metadata lines: its own, or
 * its sidecar's, as the engine reads them from its head; the reason when
 * it is no run. */
static char *
read_samples_header (MsRunsEntry *self)
{
  char why[2048], *lines;
  /* The runs folder is local: a file without a path is none of its. */
  const char *path = g_file_peek_path (self->file);
  if (!path)
    return g_strdup (_("not a regular file"));
  if (!ms_csv_samples_meta (path, &lines, why, sizeof why))
    return g_strdup (why);
  for (char *p = lines, *eol; p && (eol = strchr (p, '\n')); p = eol + 1) {
    *eol = '\0';
    char *colon = strstr (p, ": ");
    if (g_str_has_prefix (p, "# ") && colon) {
      *colon = '\0';
      take_key (self, p + 2, colon + 2);
    }
  }
  free (lines);
  return NULL;
}

/* The cells a plain sweep of these settings plans: its modes times its
 * sizes; 0 for a lesson or an experiment, whose parts plan their own. */
static size_t
planned_cells (const MsRunsEntry *self, const MsSweep *sweep)
{
  if ((self->kind && strcmp (self->kind, "sweep") != 0) || sweep->step <= 0 ||
      sweep->max_exp < sweep->min_exp)
    return 0;
  size_t modes = 0;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    modes += sweep->modes[m];
  return modes * (size_t) ((sweep->max_exp - sweep->min_exp) / sweep->step + 1);
}

/* PREFIX-summary.csv beside PREFIX-samples.csv; NULL for other names. */
static GFile *
ms_runs_entry_dup_summary_file (MsRunsEntry *self)
{
  g_autofree char *path = g_file_get_path (self->file);
  char summary[4096];
  if (!path || !ms_csv_pair_summary_path (path, summary, sizeof summary))
    return NULL;
  return g_file_new_for_path (summary);
}

/* Whether the run was stopped part-way, as `memsweep show` tells it: a
 * cell whose status is partial or cancelled (docs/csv.md), or fewer cells
 * than its own settings planned. Read by the engine's summary reader (the
 * file's columns and its sidecar's settings). Without those settings the
 * reader's are the defaults, which are not this run's plan: then only a
 * cell's status can tell, and otherwise completeness is unknown. */
static void
read_stopped (MsRunsEntry *self)
{
  g_autoptr (GFile) summary = ms_runs_entry_dup_summary_file (self);
  g_autofree char *path = summary ? g_file_get_path (summary) : NULL;
  char err[256];
  MsResults *r = path ? ms_csv_read_summary (path, err, sizeof err) : NULL;
  if (!r)
    return;
  for (size_t i = 0; i < r->n_cells && !self->stopped; i++)
    self->stopped = r->cells[i].status == MS_CELL_PARTIAL ||
                    r->cells[i].status == MS_CELL_CANCELLED;
  if (!self->stopped && r->metadata_unknown[0])
    self->completeness_unknown = TRUE;
  else if (!self->stopped)
    self->stopped = r->n_cells < planned_cells (self, &r->sweep);
  ms_results_free (r);
}

static guint64
summary_size (MsRunsEntry *self, GCancellable *cancellable)
{
  g_autoptr (GFile) summary = ms_runs_entry_dup_summary_file (self);
  g_autoptr (GFileInfo) info =
    summary ? g_file_query_info (summary, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                 G_FILE_QUERY_INFO_NONE, cancellable, NULL)
            : NULL;
  return info ? (guint64) g_file_info_get_size (info) : 0;
}

MsRunsEntry *
ms_runs_entry_read (GFile *file, GCancellable *cancellable)
{
  MsRunsEntry *self = g_object_new (MS_TYPE_RUNS_ENTRY, NULL);
  self->file = g_object_ref (file);
  self->name = name_of (file);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFileInfo) info = g_file_query_info (
    file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED,
    G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (!info) {
    self->reason = g_strdup_printf (_("cannot be read: %s"), error->message);
    self->date = g_date_time_new_now_utc ();
    return self;
  }
  self->date = g_file_info_get_modification_date_time (info);
  if (!self->date)
    self->date = g_date_time_new_now_utc ();
  GFileType type = g_file_info_get_file_type (info);
  if (type == G_FILE_TYPE_DIRECTORY) {
    self->reason = g_strdup (_("a folder, not a run"));
    return self;
  }
  if (type == G_FILE_TYPE_SYMBOLIC_LINK) {
    /* GIO describes the link itself when what it points to is gone. */
    self->reason = g_strdup (_("a link to a file that is gone"));
    return self;
  }
  if (type != G_FILE_TYPE_REGULAR) {
    /* A FIFO or a device is never opened: reading could wait for ever. */
    self->reason = g_strdup (_("not a regular file"));
    return self;
  }
  self->size = (guint64) g_file_info_get_size (info);
  self->reason = read_samples_header (self);
  if (!self->reason)
    self->size += summary_size (self, cancellable);
  if (!self->kind)
    self->kind = g_strdup ("sweep");
  if (!self->reason)
    read_stopped (self);
  return self;
}

GFile *
ms_runs_entry_get_file (MsRunsEntry *self)
{
  return self->file;
}

const char *
ms_runs_entry_get_name (MsRunsEntry *self)
{
  return self->name;
}

GDateTime *
ms_runs_entry_get_date (MsRunsEntry *self)
{
  return self->date;
}

const char *
ms_runs_entry_get_device (MsRunsEntry *self)
{
  return self->device;
}

const char *
ms_runs_entry_get_kind (MsRunsEntry *self)
{
  return self->kind;
}

guint64
ms_runs_entry_get_size (MsRunsEntry *self)
{
  return self->size;
}

const char *
ms_runs_entry_get_reason (MsRunsEntry *self)
{
  return self->reason;
}

gboolean
ms_runs_entry_get_stopped (MsRunsEntry *self)
{
  return self->stopped;
}

gboolean
ms_runs_entry_get_completeness_unknown (MsRunsEntry *self)
{
  return self->completeness_unknown;
}

int
ms_runs_entry_compare (gconstpointer a, gconstpointer b)
{
  MsRunsEntry *x = *(MsRunsEntry **) a, *y = *(MsRunsEntry **) b;
  int by_date = g_date_time_compare (y->date, x->date);
  return by_date ? by_date : g_strcmp0 (x->name, y->name);
}
