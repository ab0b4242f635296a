/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-runs.c: the reference runs' folder, its samples files, and
 * what their names say. */
#include "ms-reference-runs.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ms-lessons.h"
#include "ms-engine.h"

#define SAMPLES_SUFFIX "-samples.csv"

const char *
ms_reference_dir (void)
{
  /* Chosen once: the dialog keeps the folder it first showed. */
  static char *dir;
  if (!dir)
    dir = g_strdup (ms_reference_runs_dir ());
  return dir;
}

/* The length of a run's name without its "-samples.csv" (or
 * "-samples.csv.gz") tail. */
static size_t
run_name_length (const char *name)
{
  size_t stem = ms_csv_name_stem (name, SAMPLES_SUFFIX);
  return stem ? stem : strlen (name);
}

/* g_ptr_array_sort hands the comparison pointers to the elements. By the
 * run's name, so that a sweep comes before its repeats
 * ("h100-default" before "h100-default-1"): the one a plain lesson opens
 * is the one the other pages show. */
int
ms_compare_names (gconstpointer a, gconstpointer b)
{
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  size_t nx = run_name_length (x), ny = run_name_length (y);
  int order = strncmp (x, y, MIN (nx, ny));
  return order ? order : nx != ny ? (nx < ny ? -1 : 1) : strcmp (x, y);
}

GPtrArray *
ms_reference_runs_list_in (const char *dir)
{
  g_autoptr (GDir) d = dir ? g_dir_open (dir, 0, NULL) : NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    if (ms_csv_name_stem (name, SAMPLES_SUFFIX))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, ms_compare_names);
  return names;
}

/* "default", "default-2": a default sweep, and which of its runs (the
 * repeats measure the run-to-run spread). */
static gboolean
default_title (const char *rest, char **title)
{
  if (!g_str_has_prefix (rest, "default"))
    return FALSE;
  const char *run = rest + strlen ("default");
  if (!*run) {
    *title = g_strdup (_("Default sweep"));
    return TRUE;
  }
  if (run[0] != '-' || !run[1] || strspn (run + 1, "0123456789") != strlen (run + 1))
    return FALSE;
  /* TRANSLATORS: one of several runs of the same default sweep on one GPU. */
  *title = g_strdup_printf (_("Default sweep, run %s"), run + 1);
  return TRUE;
}

MsReferenceKind
ms_reference_run_describe (const char *file, char **gpu, char **title)
{
  g_autofree char *name = g_filename_display_name (file);
  name[run_name_length (name)] = '\0';
  const char *dash = strchr (name, '-');
  const char *rest = dash ? dash + 1 : name;
  *gpu = dash ? g_strndup (name, (gsize) (dash - name)) : g_strdup ("");
  if (default_title (rest, title))
    return MS_REFERENCE_DEFAULT;
  if (g_str_has_prefix (rest, "lesson-")) {
    MsLessonTopic t = ms_lesson_topic_from_name (rest + strlen ("lesson-"));
    if (t != MS_TOPIC_COUNT) {
      *title = g_strdup (_(ms_lesson_topic (t)->title));
      return MS_REFERENCE_LESSON;
    }
  }
  *title = g_strdup (rest);
  return MS_REFERENCE_OTHER;
}
