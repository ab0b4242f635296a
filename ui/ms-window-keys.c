/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-keys.c: the keys that reach into the page shown: the keyboard
 * focus to its canvas (so that a view's own keys, the timeline's arrows
 * and zoom, work at once) and the pointer highlighted for a projector. */
#include "ms-chart-view.h"
#include "ms-window-private.h"

/* The first canvas shown under `widget`, depth first: the main picture of
 * every page comes before the small ones beside or under it. */
static GtkWidget *
first_canvas (GtkWidget *widget)
{
  if (MS_IS_CHART_VIEW (widget) && gtk_widget_is_drawable (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c)) {
    GtkWidget *found = gtk_widget_get_visible (c) ? first_canvas (c) : NULL;
    if (found)
      return found;
  }
  return NULL;
}

gboolean
ms_window_focus_canvas (MsWindow *self)
{
  GtkWidget *page = adw_view_stack_get_visible_child (self->stack);
  GtkWidget *canvas = page ? first_canvas (page) : NULL;
  return canvas && gtk_widget_grab_focus (canvas);
}

static void
action_focus_canvas (GSimpleAction *a, GVariant *p, gpointer data)
{
  ms_window_focus_canvas (data);
}

/* Every view shows the change where the pointer is: a redraw of the page
 * would not reach the views, whose pictures are kept. */
static void
change_highlight_pointer (GSimpleAction *a, GVariant *state, gpointer data)
{
  ms_chart_view_set_highlight_pointer (g_variant_get_boolean (state));
  g_simple_action_set_state (a, state);
  GtkWidget *page = adw_view_stack_get_visible_child (MS_WINDOW (data)->stack);
  GtkWidget *canvas = page ? first_canvas (page) : NULL;
  if (canvas)
    gtk_widget_queue_draw (canvas);
}

void
ms_window_add_key_actions (MsWindow *self)
{
  static const GActionEntry entries[] = {
    { "focus-canvas", action_focus_canvas },
    { "highlight-pointer", NULL, NULL, "false", change_highlight_pointer },
  };
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  /* One switch for every view of the app: a second window shows it too. */
  GAction *highlight = g_action_map_lookup_action (G_ACTION_MAP (self), "highlight-pointer");
  g_simple_action_set_state (G_SIMPLE_ACTION (highlight),
                             g_variant_new_boolean (ms_chart_view_get_highlight_pointer ()));
}
