/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run.c: a run as a GObject. */
#include "ms-run.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-enum-types.h"
#include "ms-props.h"

struct _MsRun {
  GObject parent_instance;
  MsResults *results; /* owned */
  MsRunKind kind;
  char *source_file;
  char *description;
};

G_DEFINE_FINAL_TYPE (MsRun, ms_run, G_TYPE_OBJECT)

enum { PROP_0, PROP_NAME, PROP_DESCRIPTION, PROP_NOTE, PROP_SOURCE_FILE, PROP_KIND, N_PROPS };
static GParamSpec *props[N_PROPS];

enum { CELLS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const MsProp prop_table[N_PROPS] = {
  /* The name and the note are the results' own. */
  [PROP_NAME] = { "name", G_TYPE_STRING, MS_PROP_NO_FIELD, .setter = G_CALLBACK (ms_run_set_name),
                  .getter = G_CALLBACK (ms_run_get_name) },
  [PROP_DESCRIPTION] = { "description", G_TYPE_STRING, MS_PROP_NO_FIELD,
                         .setter = G_CALLBACK (ms_run_set_description),
                         .getter = G_CALLBACK (ms_run_get_description) },
  [PROP_NOTE] = { "note", G_TYPE_STRING, MS_PROP_NO_FIELD, .setter = G_CALLBACK (ms_run_set_note),
                  .getter = G_CALLBACK (ms_run_get_note) },
  [PROP_SOURCE_FILE] = { "source-file", G_TYPE_STRING, MS_PROP_FIELD (MsRun, source_file) },
  [PROP_KIND] = { "kind", G_TYPE_ENUM, MS_PROP_FIELD (MsRun, kind), .def = MS_RUN_KIND_SWEEP,
                  .get_type = ms_run_kind_get_type,
                  .flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY },
};

static void
ms_run_finalize (GObject *object)
{
  MsRun *self = MS_RUN (object);
  ms_results_free (self->results);
  ms_props_clear (object);
  g_free (self->description);
  G_OBJECT_CLASS (ms_run_parent_class)->finalize (object);
}

static void
ms_run_class_init (MsRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = ms_run_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  signals[CELLS_CHANGED] = g_signal_new ("cells-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ms_run_init (MsRun *self)
{
}

MsRun *
ms_run_new (MsResults *results, MsRunKind kind)
{
  g_return_val_if_fail (results != NULL, NULL);
  MsRun *self = g_object_new (MS_TYPE_RUN, "kind", kind, NULL);
  self->results = results;
  return self;
}

MsResults *
ms_run_get_results (MsRun *self)
{
  g_return_val_if_fail (MS_IS_RUN (self), NULL);
  return self->results;
}

MsRunKind
ms_run_get_kind (MsRun *self)
{
  g_return_val_if_fail (MS_IS_RUN (self), MS_RUN_KIND_SWEEP);
  return self->kind;
}

const char *
ms_run_get_name (MsRun *self)
{
  g_return_val_if_fail (MS_IS_RUN (self), NULL);
  return self->results ? self->results->label : NULL;
}

/* The longest prefix of s in fewer than `size` bytes, cut on a character. */
static void
copy_cut (char *dest, gsize size, const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);
  g_autofree char *cut = g_utf8_substring (valid, 0, g_utf8_strlen (valid, size - 1));
  g_strlcpy (dest, cut, size);
}

void
ms_run_set_name (MsRun *self, const char *name)
{
  g_return_if_fail (MS_IS_RUN (self));
  if (!self->results || !name || g_strcmp0 (name, self->results->label) == 0)
    return;
  copy_cut (self->results->label, sizeof self->results->label, name);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_NAME]);
  /* A run without a description of its own is described by its name. */
  if (!self->description)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DESCRIPTION]);
}

const char *
ms_run_get_description (MsRun *self)
{
  g_return_val_if_fail (MS_IS_RUN (self), NULL);
  return self->description ? self->description : ms_run_get_name (self);
}

void
ms_run_set_description (MsRun *self, const char *description)
{
  g_return_if_fail (MS_IS_RUN (self));
  g_autofree char *valid = description ? g_utf8_make_valid (description, -1) : NULL;
  ms_props_set_string (self, &self->description, valid, props[PROP_DESCRIPTION]);
}

/* The GPU's model from its full name: the vendor and brand words go, and
 * the words up to the first with a digit stay, that one cut at a dash
 * ("NVIDIA H100 80GB HBM3" -> "H100", "NVIDIA GeForce RTX 4090" ->
 * "RTX 4090", "NVIDIA A100-SXM4-80GB" -> "A100"). */
static char *
gpu_model (const char *device)
{
  static const char *const brands[] = { "NVIDIA", "GeForce", "Tesla", "Quadro", NULL };
  g_auto (GStrv) words = g_strsplit (device, " ", -1);
  GString *s = g_string_new (NULL);
  for (guint i = 0; words[i]; i++) {
    if (!words[i][0] || g_strv_contains (brands, words[i]))
      continue;
    if (s->len)
      g_string_append_c (s, ' ');
    gboolean digit = strpbrk (words[i], "0123456789") != NULL;
    char *dash = digit ? strchr (words[i], '-') : NULL;
    g_string_append_len (s, words[i], dash ? dash - words[i] : (gssize)strlen (words[i]));
    if (digit)
      break;
  }
  return g_string_free (s, FALSE);
}

char *
ms_run_short_name (const MsResults *r)
{
  g_return_val_if_fail (r != NULL, NULL);
  gboolean gpu = r->device.present && r->device.name[0] && g_strcmp0 (r->device.name, "none");
  /* A file read without its metadata names no device: not the host alone. */
  g_autofree char *model = gpu                            ? gpu_model (r->device.name)
                           : ms_results_device_unknown (r) ? g_strdup (_ ("Unknown device"))
                                                           : g_strdup (_ ("CPU"));
  GString *s = g_string_new (model[0] ? model : r->device.name);
  /* Runs of several GPUs of one host differ by the device. */
  if (gpu && (r->device.count > 1 || r->device.index > 0))
    g_string_append_printf (s, _ (" GPU %d"), r->device.index);
  /* The files keep "2026-11-24T12:27:08Z": the month and day. */
  if (strlen (r->date) >= 10 && r->date[4] == '-' && r->date[7] == '-')
    g_string_append_printf (s, " %.5s", r->date + 5);
  return g_string_free (s, FALSE);
}

const char *
ms_run_get_note (MsRun *self)
{
  g_return_val_if_fail (MS_IS_RUN (self), NULL);
  return self->results ? self->results->note : NULL;
}

void
ms_run_set_note (MsRun *self, const char *note)
{
  g_return_if_fail (MS_IS_RUN (self));
  if (!self->results || !note)
    return;
  /* One line in the file's metadata: line breaks become spaces. */
  g_autofree char *line = g_strdup (note);
  g_strdelimit (line, "\r\n", ' ');
  if (g_strcmp0 (line, self->results->note) == 0)
    return;
  copy_cut (self->results->note, sizeof self->results->note, line);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_NOTE]);
}

static gboolean
same_file_run (const MsResults *a, const MsResults *b)
{
  return a->date[0] && g_strcmp0 (a->date, b->date) == 0 &&
         g_strcmp0 (a->device.name, b->device.name) == 0 && a->n_cells == b->n_cells;
}

/* By its path where both runs have one (two files of one moment, as the two sides of a live
 * comparison, are two runs), else by what the file says of when and where it was made. */
gboolean
ms_run_same_file (MsRun *a, MsRun *b)
{
  g_return_val_if_fail (MS_IS_RUN (a) && MS_IS_RUN (b), FALSE);
  const char *fa = ms_run_get_source_file (a), *fb = ms_run_get_source_file (b);
  if (fa && fb) {
    g_autofree char *ca = g_canonicalize_filename (fa, NULL);
    g_autofree char *cb = g_canonicalize_filename (fb, NULL);
    return g_strcmp0 (ca, cb) == 0;
  }
  return same_file_run (ms_run_get_results (a), ms_run_get_results (b));
}

const char *
ms_run_get_source_file (MsRun *self)
{
  g_return_val_if_fail (MS_IS_RUN (self), NULL);
  return self->source_file;
}

void
ms_run_set_source_file (MsRun *self, const char *path)
{
  g_return_if_fail (MS_IS_RUN (self));
  g_object_set (self, "source-file", path, NULL);
}

char *
ms_run_file_stem (MsRun *self)
{
  g_return_val_if_fail (MS_IS_RUN (self), NULL);
  if (!self->source_file)
    return g_strdup (ms_run_get_name (self));
  char *name = g_path_get_basename (self->source_file);
  static const char *const tails[] = { ".gz", ".csv", "-samples", "-summary" };
  for (guint i = 0; i < G_N_ELEMENTS (tails); i++)
    if (g_str_has_suffix (name, tails[i]) && strlen (name) > strlen (tails[i]))
      name[strlen (name) - strlen (tails[i])] = '\0';
  return name;
}

void
ms_run_put_cell (MsRun *self, const MsCell *cell)
{
  g_return_if_fail (MS_IS_RUN (self));
  /* Later rounds bring the same cell again, with more repetitions. */
  ms_results_put_cell (self->results, cell);
  ms_run_cells_changed (self);
}

void
ms_run_cells_changed (MsRun *self)
{
  g_return_if_fail (MS_IS_RUN (self));
  g_signal_emit (self, signals[CELLS_CHANGED], 0);
}

GPtrArray *
ms_run_array_new (void)
{
  return g_ptr_array_new_with_free_func (g_object_unref);
}

GPtrArray *
ms_run_array_results (GPtrArray *runs)
{
  GPtrArray *results = g_ptr_array_sized_new (runs ? runs->len : 0);
  for (guint i = 0; runs && i < runs->len; i++)
    g_ptr_array_add (results, ms_run_get_results (g_ptr_array_index (runs, i)));
  return results;
}
