/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-toast.c: the window's toasts, which every part of the window
 * shows; the newest one's text is the window's "toast-text". */
#include <glib/gi18n.h>

#include "ms-toast-queue.h"
#include "ms-window-private.h"

/* The toast of text, with an Undo button where undo, queued; its text the window's. */
static AdwToast *
toast_new (MsWindow *self, const char *text, gboolean undo)
{
  /* Text from files, drivers and errors is shown as it is: never as
   * markup, and with invalid UTF-8 made visible. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *markup = g_markup_escape_text (valid, -1);
  AdwToast *t = adw_toast_new (markup);
  /* Longer with an undo: time to find the button. */
  adw_toast_set_timeout (t, undo ? 10 : 6);
  if (undo)
    adw_toast_set_button_label (t, _ ("_Undo"));
  ms_toast_queue_add (self->toasts, t);
  g_free (self->toast_text);
  self->toast_text = g_steal_pointer (&valid);
  g_object_notify (G_OBJECT (self), "toast-text");
  return t;
}

AdwToast *
ms_window_toast_undo (MsWindow *self, const char *text)
{
  return toast_new (self, text, TRUE);
}

void
ms_window_toast (MsWindow *self, const char *text)
{
  toast_new (self, text, FALSE);
}
