/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-pages.c: the window's glue to the pages that bring runs of
 * their own: the GPUs page (several GPUs at once, saved peer and multi
 * files) and the Lessons page (a lesson's experiment or reference run). */
#include "ms-window-private.h"

#include "ms-run.h"

static void
devices_file_opened (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr (MsWindow) self = g_weak_ref_get (ref);
  g_weak_ref_clear (ref);
  g_free (ref);
  if (!self)
    return; /* the page went with the window; the task drops what it read */
  g_autoptr (GError) error = NULL;
  if (!ms_devices_page_open_path_finish (self->devices_page, result, &error)) {
    ms_window_toast (self, error->message);
    return;
  }
  adw_view_stack_set_visible_child_name (self->stack, "devices");
}

/* A multi file names one samples file per GPU: read off the main thread. */
void
ms_window_open_devices_file (MsWindow *self, const char *path)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  ms_devices_page_open_path_async (self->devices_page, path, devices_file_opened, ref);
}

/* The runs of a sweep on several GPUs at once: one per device. */
static void
on_devices_runs (MsWindow *self, GPtrArray *runs)
{
  for (guint i = 0; i < runs->len; i++)
    ms_window_add_file_run (self, ms_run_ref (g_ptr_array_index (runs, i)), FALSE);
}

/* Both pages take the sizes, repetitions and device as the window has
 * them set; each picks its own modes. */
static void
on_prepare_sweep (MsWindow *self, MsSweep *sweep)
{
  char err[256];
  MsSweep s;
  if (ms_window_get_sweep (self, &s, err, sizeof err))
    *sweep = s;
}

void
ms_window_lesson_run_added (MsWindow *self, MsResults *run)
{
  ms_window_add_file_run (self, ms_run_ref (run), TRUE);
}

void
ms_window_lesson_prepare_sweep (MsWindow *self, MsSweep *sweep)
{
  on_prepare_sweep (self, sweep);
}

void
ms_window_lesson_show_view (MsWindow *self, const char *view, const char *modes, gboolean log_y)
{
  adw_view_stack_set_visible_child_name (self->stack, view);
}

void
ms_window_pages_init (MsWindow *self)
{
  g_signal_connect_swapped (self->devices_page, "runs-ready", G_CALLBACK (on_devices_runs), self);
  g_signal_connect_swapped (self->devices_page, "prepare-sweep", G_CALLBACK (on_prepare_sweep),
                            self);
  g_object_bind_property (self, "sweeping", self->devices_page, "window-sweeping",
                          G_BINDING_SYNC_CREATE);
}
