/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-toast.c: the window's toasts, which every part of the window
 * shows; the newest one's text is the window's "toast-text". */
#include "ms-toast-queue.h"
#include "ms-window-private.h"

void
ms_window_toast (MsWindow *self, const char *text)
{
  /* Text from files, drivers and errors is shown as it is: never as
   * markup, and with invalid UTF-8 made visible. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *markup = g_markup_escape_text (valid, -1);
  AdwToast *t = adw_toast_new (markup);
  adw_toast_set_timeout (t, 6);
  ms_toast_queue_add (self->toasts, t);
  g_free (self->toast_text);
  self->toast_text = g_steal_pointer (&valid);
  g_object_notify (G_OBJECT (self), "toast-text");
}
