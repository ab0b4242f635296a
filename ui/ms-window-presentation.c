/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-presentation.c: presentation mode, for a projector: fullscreen,
 * larger text and lines, no settings pane, and the header bar out of the
 * way until the pointer reaches the top edge or F10 asks for the main
 * menu, then alone: the no-GPU banner and the "Run is off" line stay off
 * the slide; the view switcher at the bottom and the focus rings hide with
 * it (style.css); a lesson opened takes the Lessons page; F5 enters, Escape leaves. */
#include "ms-window-private.h"

/* The pointer this close to the top edge shows the header; this far below
 * the header it hides it again (a little slack, so that a hand moving to
 * a button does not lose it). */
#define REVEAL_EDGE_PX 4
#define HIDE_SLACK_PX 24

/* A menu asked for by key is on its way, a menu, the runs or a
 * drop-down of the header is open, or the keyboard is in the header: it
 * stays. Popovers are children of their buttons. */
static gboolean
header_in_use (MsWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  if (self->popup_after_reveal || (focus && gtk_widget_is_ancestor (focus, self->top_box)))
    return TRUE;
  GtkPopover *menu = gtk_menu_button_get_popover (self->main_menu_button);
  return (menu && gtk_widget_get_visible (GTK_WIDGET (menu)))
         || gtk_widget_get_visible (GTK_WIDGET (self->runs_popover));
}

/* In front of a class the app's controls stay out of the slide: the
 * view switcher comes with the header, when the pointer reaches the top
 * edge or F10 asks for the menu (Alt+1 to Alt+8 switch views meanwhile). */
static void
update_switcher_bar (MsWindow *self)
{
  gboolean narrow = adw_view_switcher_title_get_title_visible (self->switcher_title);
  adw_view_switcher_bar_set_reveal (self->switcher_bar,
                                    self->presentation ? self->header_peek : narrow);
}

static void
set_header_peek (MsWindow *self, gboolean peek)
{
  if (peek == self->header_peek)
    return;
  self->header_peek = peek;
  update_switcher_bar (self);
  g_object_notify (G_OBJECT (self), "header-shown");
}

gboolean
ms_window_get_header_shown (MsWindow *self)
{
  return !self->presentation || self->header_peek;
}

static gboolean
pointer_on_header (MsWindow *self)
{
  return self->pointer_y <= gtk_widget_get_height (self->top_box) + HIDE_SLACK_PX;
}

/* Hides the header again once nothing holds it and the pointer is away. */
static void
maybe_hide_header (MsWindow *self)
{
  if (!self->presentation || !self->header_peek || header_in_use (self))
    return;
  if (!pointer_on_header (self))
    set_header_peek (self, FALSE);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, MsWindow *self)
{
  self->pointer_y = y;
  if (!self->presentation)
    return;
  if (y <= REVEAL_EDGE_PX)
    set_header_peek (self, TRUE);
  else
    maybe_hide_header (self);
}

/* The keyboard leaves the header for the page (nowhere, if the page
 * takes none): a header that goes must not keep it, or the keyboard there
 * would hold the header in from then on (header_in_use). */
static void
focus_off_header (MsWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  if (!focus || !gtk_widget_is_ancestor (focus, self->top_box))
    return;
  if (!gtk_widget_child_focus (GTK_WIDGET (self->stack), GTK_DIR_TAB_FORWARD))
    gtk_root_set_focus (GTK_ROOT (self), NULL);
}

/* GTK moves the keyboard by itself too: when the widget holding it goes
 * (the view switcher folds into the title as the window narrows or the
 * text grows), to the next one, which can be a header button. While the
 * header is hidden the keyboard is never there: under load the app-
 * presentation test found the header held in for good that way. */
static void
on_focus_moved (MsWindow *self)
{
  if (self->presentation && !self->header_peek)
    focus_off_header (self);
}

/* In, and not on its way out (a revealer going calls its child revealed). */
static gboolean
header_in (MsWindow *self)
{
  return gtk_revealer_get_reveal_child (self->top_revealer)
         && gtk_revealer_get_child_revealed (self->top_revealer);
}

/* Whether a popover of button can be placed now: GTK 4.8 sizes a popover
 * by the monitor its window is on, and asks for it with a critical
 * warning while the window's surface is on none yet (a window just made
 * fullscreen, or a slow frame: the presentation test met it under load),
 * or while the button has not been given its place. */
static gboolean
can_place_popover (MsWindow *self, GtkMenuButton *button)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self));
  if (!surface || gtk_widget_get_width (GTK_WIDGET (button)) <= 0
      || !gtk_widget_get_mapped (GTK_WIDGET (button)))
    return FALSE;
  return gdk_display_get_monitor_at_surface (gdk_surface_get_display (surface), surface) != NULL;
}

/* Opens button's menu on the first frame where it can be placed. */
static gboolean
popup_when_placeable (GtkWidget *widget, GdkFrameClock *clock, gpointer unused)
{
  MsWindow *self = MS_WINDOW (widget);
  GtkMenuButton *button = self->popup_after_reveal;
  if (!button || !header_in (self))
    return G_SOURCE_REMOVE;
  if (!can_place_popover (self, button))
    return G_SOURCE_CONTINUE;
  self->popup_after_reveal = NULL;
  gtk_menu_button_popup (button);
  return G_SOURCE_REMOVE;
}

static void
on_header_revealed (MsWindow *self)
{
  if (header_in (self) && self->popup_after_reveal)
    gtk_widget_add_tick_callback (GTK_WIDGET (self), popup_when_placeable, NULL, NULL);
}

void
ms_window_popup_header_menu (MsWindow *self, GtkMenuButton *button)
{
  /* A popover needs its button placed: it opens once the header is in. */
  self->popup_after_reveal = button;
  if (header_in (self))
    on_header_revealed (self);
  else
    set_header_peek (self, TRUE);
}

/* A presenter's keys as PowerPoint and LibreOffice take them, which a
 * clicker sends: F5 or Shift+F5 starts the show, b and "." (not typed into a field)
 * black the slide out until the next key, which only brings it back; F10
 * opens the main menu, its hidden header first. */
static gboolean
on_key_pressed (GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state,
                MsWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean blanked = gtk_widget_has_css_class (widget, "blanked");
  gtk_widget_remove_css_class (widget, "blanked");
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();
  /* Shift+F5, a show from the slide shown, is how a clicker may start it. */
  if (blanked || (mods != 0 && !(keyval == GDK_KEY_F5 && mods == GDK_SHIFT_MASK)))
    return blanked;
  if (keyval == GDK_KEY_F5)
    ms_window_presentation_set (self, TRUE);
  else if (!self->presentation)
    return FALSE;
  else if (keyval == GDK_KEY_F10)
    ms_window_popup_header_menu (self, self->main_menu_button);
  else if ((keyval == GDK_KEY_b || keyval == GDK_KEY_period || keyval == GDK_KEY_KP_Decimal)
           && !GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (self))))
    gtk_widget_add_css_class (widget, "blanked");
  else
    return FALSE;
  return TRUE;
}

/* Escape leaves, as it leaves any slide show: the last to see it, after a
 * menu it closes, a sweep it stops (the app's Escape) or Details it folds. */
static gboolean
on_escape (GtkWidget *widget, GVariant *args, gpointer unused)
{
  MsWindow *self = MS_WINDOW (widget);
  if (!self->presentation)
    return FALSE;
  if (!ms_lessons_page_fold_details (self->lessons_page))
    ms_window_presentation_set (self, FALSE);
  return TRUE;
}

/* On the frame after a menu closed, when GTK has given the keyboard back
 * to the menu's button: a header the pointer is not on goes, and the
 * keyboard goes to the view instead of a hidden button. */
static gboolean
hide_after_menu (GtkWidget *widget, GdkFrameClock *clock, gpointer unused)
{
  MsWindow *self = MS_WINDOW (widget);
  if (!self->presentation || !self->header_peek || pointer_on_header (self))
    return G_SOURCE_REMOVE;
  focus_off_header (self);
  maybe_hide_header (self);
  return G_SOURCE_REMOVE;
}

/* A menu of the header closed: the header goes unless the pointer is on it. */
void
ms_window_presentation_popover_closed (MsWindow *self)
{
  if (self->presentation)
    gtk_widget_add_tick_callback (GTK_WIDGET (self), hide_after_menu, NULL, NULL);
}

void
ms_window_presentation_set (MsWindow *self, gboolean on)
{
  if (on == self->presentation)
    return;
  self->presentation = on;
  self->header_peek = FALSE;
  self->popup_after_reveal = NULL;
  /* Larger text and lines in front of a class; the settings pane hides
   * through its binding to the "presentation" property. */
  g_object_set (self, "text-scale", on ? 1.6 : 1.0, "line-scale", on ? 2.0 : 1.0, "high-contrast",
                on, NULL);
  if (on) {
    focus_off_header (self);
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
    gtk_window_fullscreen (GTK_WINDOW (self));
  } else {
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
    gtk_widget_remove_css_class (GTK_WIDGET (self), "blanked");
    gtk_window_unfullscreen (GTK_WINDOW (self));
  }
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "presentation");
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (on));
  update_switcher_bar (self);
  g_object_notify (G_OBJECT (self), "presentation");
  g_object_notify (G_OBJECT (self), "header-shown");
}

void
ms_window_presentation_init (MsWindow *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  /* Before the children: a chart that handles motion must not hide it. */
  gtk_event_controller_set_propagation_phase (motion, GTK_PHASE_CAPTURE);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  GtkEventController *keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  GtkEventController *escape = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (
    GTK_SHORTCUT_CONTROLLER (escape),
    gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                      gtk_callback_action_new (on_escape, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), escape);

  g_signal_connect (self, "notify::focus-widget", G_CALLBACK (on_focus_moved), NULL);
  g_signal_connect_object (self->runs_popover, "closed",
                           G_CALLBACK (ms_window_presentation_popover_closed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->top_revealer, "notify::child-revealed",
                           G_CALLBACK (on_header_revealed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->switcher_title, "notify::title-visible",
                           G_CALLBACK (update_switcher_bar), self, G_CONNECT_SWAPPED);
  update_switcher_bar (self);
  /* The header a presenter reveals brings what they need, the menus and
   * views: the app's banner and why Run is off, about the machine and not
   * the slide, stay out of the room's sight until presentation ends. */
  GtkWidget *notes[] = { GTK_WIDGET (self->banner), GTK_WIDGET (self->blocker_revealer) };
  for (guint i = 0; i < G_N_ELEMENTS (notes); i++)
    g_object_bind_property (self, "presentation", notes[i], "visible",
                            G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  /* A lesson opened in front of a class takes the page: its cards fold
   * away until All Lessons brings them back. */
  g_object_bind_property (self, "presentation", self->lessons_page, "presentation",
                          G_BINDING_SYNC_CREATE);
}
