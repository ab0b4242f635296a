/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-runs.c: the reference runs' folder and its samples files. */
#include "ms-reference-runs.h"
#include "ms-reference-dir.h"

const char *
ms_reference_dir (void)
{
  /* Chosen once: the menu keeps the folder it first showed. */
  static char *dir;
  if (!dir)
    dir = g_strdup (ms_reference_runs_dir ());
  return dir;
}

/* g_ptr_array_sort hands the comparison pointers to the elements. */
int
ms_compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
ms_reference_runs_list (void)
{
  const char *dir = ms_reference_dir ();
  g_autoptr (GDir) d = dir ? g_dir_open (dir, 0, NULL) : NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, "-samples.csv"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, ms_compare_names);
  return names;
}
