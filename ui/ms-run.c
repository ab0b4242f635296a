/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run.c: reference-counted runs. */
#include "ms-run.h"

#include <stdlib.h>

MsResults *
ms_run_new (MsResults *results)
{
  if (!results)
    return NULL;
  /* The box holds the struct; its cells move along, and the engine's
   * allocation of the struct alone is freed. */
  MsResults *run = g_atomic_rc_box_new (MsResults);
  *run = *results;
  free (results);
  return run;
}

MsResults *
ms_run_ref (const MsResults *run)
{
  return g_atomic_rc_box_acquire ((gpointer) run);
}

static void
clear_cells (gpointer data)
{
  MsResults *run = data;
  for (size_t i = 0; i < run->n_cells; i++)
    ms_cell_clear (&run->cells[i]);
  free (run->cells);
}

void
ms_run_unref (MsResults *run)
{
  if (run)
    g_atomic_rc_box_release_full (run, clear_cells);
}

GPtrArray *
ms_run_array_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) ms_run_unref);
}
