/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-show-in-folder.h: show a file in the file manager. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Asks the file manager (org.freedesktop.FileManager1 ShowItems) to show
 * file selected; when none answers, opens its folder. */
void ms_show_in_folder (GFile *file, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data);
gboolean ms_show_in_folder_finish (GAsyncResult *result, GError **error);

G_END_DECLS
