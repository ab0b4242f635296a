/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-show-in-folder.c: a file shown in the user's file manager, through
 * org.freedesktop.FileManager1 on the session bus (the file selected), or
 * else its folder opened with the default handler. */
#include "ms-show-in-folder.h"

static void
on_launched (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;
  if (g_app_info_launch_default_for_uri_finish (result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* The file manager could not be asked: the folder opens instead. */
static void
open_folder (GTask *task)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_task_get_task_data (task));
  g_autoptr (GFile) folder = g_file_get_parent (file);
  g_autofree char *uri = g_file_get_uri (folder);
  g_app_info_launch_default_for_uri_async (uri, NULL, g_task_get_cancellable (task), on_launched,
                                           task);
}

static void
on_shown (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GTask *task = user_data;
  g_autoptr (GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                              NULL);
  if (!reply) {
    open_folder (task);
    return;
  }
  g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
on_bus (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GTask *task = user_data;
  g_autoptr (GDBusConnection) bus = g_bus_get_finish (result, NULL);
  if (!bus) {
    open_folder (task);
    return;
  }
  const char *uris[] = { g_task_get_task_data (task), NULL };
  g_dbus_connection_call (bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                          "org.freedesktop.FileManager1", "ShowItems",
                          g_variant_new ("(^ass)", uris, ""), NULL, G_DBUS_CALL_FLAGS_NONE, -1,
                          g_task_get_cancellable (task), on_shown, task);
}

void
ms_show_in_folder (GFile *file, GCancellable *cancellable, GAsyncReadyCallback callback,
                   gpointer user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ms_show_in_folder);
  g_task_set_task_data (task, g_file_get_uri (file), g_free);
  g_bus_get (G_BUS_TYPE_SESSION, cancellable, on_bus, task);
}

gboolean
ms_show_in_folder_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
