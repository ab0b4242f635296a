/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-presentation.c: presentation mode with real pointer and keys
 * (XTest, under Xvfb): the header bar and banner hide, the pointer at the
 * top edge and F10 bring the header back without the banner, and a click on a lesson card's Show
 * shows the lesson (it once fell into the hidden settings pane's handle)
 * over the whole page: the cards fold away, and F9 or Alt+Left brings
 * them back. The deck as a presenter and a clicker drive it (Tab, Space,
 * the arrows, PgUp, PgDn): every slide without a control, focus ring or
 * selection or tooltip on it, nor the slide before's Details, and still
 * under the wheel; Details opened over the slide's foot, the picture where
 * and as large as it was; BackSpace steps back as PgUp does; b and "."
 * black it out until the next key; Escape folds Details first, then
 * leaves, and F5 comes back, from a card too; out of presentation the
 * slide's header and Details lie side by side, at 1024x768 and 1600x1000. */
#include <adwaita.h>
#include <X11/keysym.h>
#include <string.h>

#include "ms-application.h"
#include "ms-headline.h"
#include "ms-lesson-deck.h"
#include "ms-lessons-page.h"
#include "ms-app-test.h"
#include "ms-reference-runs.h"
#include "ms-window.h"
#include "ms-xtest.h"

static gboolean done;

static void
spin (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  while (g_get_monotonic_time () < end) {
    g_main_context_iteration (NULL, FALSE);
    g_usleep (1000);
  }
}

/* The main menu's button (the header's primary menu). */
static GtkMenuButton *
find_main_menu (GtkWidget *root)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (GTK_IS_MENU_BUTTON (c) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (c)))
      return GTK_MENU_BUTTON (c);
    GtkMenuButton *found = find_main_menu (c);
    if (found)
      return found;
  }
  return NULL;
}

static gboolean
header_shown (gpointer win)
{
  gboolean shown;
  g_object_get (win, "header-shown", &shown, NULL);
  return shown;
}

static gboolean
header_hidden (gpointer win)
{
  return !header_shown (win);
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

static gboolean
is_unmapped (gpointer widget)
{
  return !gtk_widget_get_mapped (widget);
}

static gboolean
is_active (gpointer win)
{
  return gtk_window_is_active (win);
}

static gboolean
has_runs (gpointer win)
{
  return ms_test_window_n_runs (win) > 0;
}

static gboolean
focus_in_header (MsWindow *win)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (win));
  return focus && gtk_widget_get_ancestor (focus, ADW_TYPE_HEADER_BAR);
}

/* The keyboard on a header button as presentation mode starts, where GTK
 * itself puts it when the view switcher holding it folds into the title
 * (under load the window narrows to 1024 after its first frame): the
 * header that goes must not keep it, or the keyboard there holds the
 * header in from then on, wherever the pointer goes (the test timed out
 * waiting for it to hide, most runs on a loaded 2-core machine). */
static void
keyboard_in_header (MsWindow *win)
{
  GtkMenuButton *menu = find_main_menu (GTK_WIDGET (win));
  g_assert_nonnull (menu);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (menu)));
  g_assert_true (focus_in_header (win));
}

/* The app's banner (this machine has no GPU, say): not the slide's
 * business. */
static GtkWidget *
find_banner (MsWindow *win)
{
  GtkWidget *banner = ms_test_find (GTK_WIDGET (win), GTK_TYPE_INFO_BAR, NULL);
  g_assert_nonnull (banner);
  return banner;
}

/* The pointer at the top edge shows the header, alone: the app's banner
 * and why Run is off stay off the projected slide; lower down it goes. */
static void
check_header_follows_pointer (MsWindow *win)
{
  GtkWidget *w = GTK_WIDGET (win);
  ms_test_wait_until (header_hidden, win, "presentation mode hides the header");
  ms_xtest_point_at (w, gtk_widget_get_width (w) / 2.0, 1);
  ms_test_wait_until (header_shown, win, "the pointer at the top edge shows the header");
  GtkWidget *header = ms_test_find (w, ADW_TYPE_HEADER_BAR, NULL);
  ms_test_wait_until (is_mapped, header, "the header bar is on screen");
  g_assert_false (gtk_widget_get_mapped (find_banner (win)));
  ms_xtest_point_at (w, gtk_widget_get_width (w) / 2.0, gtk_widget_get_height (w) / 2.0);
  ms_test_wait_until (header_hidden, win, "the pointer lower down hides the header");
  ms_test_wait_until (is_unmapped, header, "the header bar leaves the screen");
}

/* The menu is built when it first opens. */
static gboolean
menu_open (gpointer button)
{
  GtkPopover *popover = gtk_menu_button_get_popover (button);
  return popover && is_mapped (popover);
}

/* F10 brings the header with the main menu open; Escape closes both. */
static void
check_f10 (MsWindow *win)
{
  GtkWidget *w = GTK_WIDGET (win);
  ms_xtest_press (w, 0, XK_F10);
  ms_test_wait_until (header_shown, win, "F10 shows the header");
  GtkMenuButton *menu = find_main_menu (w);
  g_assert_nonnull (menu);
  ms_test_wait_until (menu_open, menu, "F10 opens the main menu");
  GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (menu));
  spin (200);
  ms_xtest_press (w, 0, XK_Escape);
  ms_test_wait_until (is_unmapped, popover, "Escape closes the main menu");
  ms_test_wait_until (header_hidden, win, "the header goes with the menu");
}

/* The menu button labelled label. */
static GtkMenuButton *
find_menu_button (GtkWidget *root, const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (GTK_IS_MENU_BUTTON (c)
        && g_strcmp0 (gtk_menu_button_get_label (GTK_MENU_BUTTON (c)), label) == 0)
      return GTK_MENU_BUTTON (c);
    GtkMenuButton *found = find_menu_button (c, label);
    if (found)
      return found;
  }
  return NULL;
}

/* Ctrl+Shift+R: the runs popover, with the header it hangs from. */
static void
check_runs_key (MsWindow *win)
{
  GtkWidget *w = GTK_WIDGET (win);
  Display *dpy = ms_xtest_display (w);
  KeyCode ctrl = XKeysymToKeycode (dpy, XK_Control_L);
  ms_fake_key (dpy, ctrl, True, 0);
  ms_xtest_press (w, XK_Shift_L, XK_r);
  ms_fake_key (dpy, ctrl, False, 0);
  XFlush (dpy);
  ms_test_wait_until (header_shown, win, "Ctrl+Shift+R shows the header");
  GtkWidget *runs = GTK_WIDGET (gtk_menu_button_get_popover (find_menu_button (w, "Runs")));
  ms_test_wait_until (is_mapped, runs, "Ctrl+Shift+R opens the runs");
  spin (200);
  ms_xtest_press (w, 0, XK_Escape);
  ms_test_wait_until (is_unmapped, runs, "Escape closes the runs");
  ms_test_wait_until (header_hidden, win, "the header goes with the runs");
}

static gboolean
shows_pinned (gpointer page)
{
  g_autofree char *topic = NULL;
  g_object_get (page, "shown-topic", &topic, NULL);
  return g_strcmp0 (topic, "pinned-pageable") == 0;
}

static gboolean
list_folded (gpointer page)
{
  return !ms_lessons_page_get_list_shown (page);
}

static gboolean
list_back (gpointer page)
{
  return ms_lessons_page_get_list_shown (page);
}

/* The lesson's timelines (the pinned lesson's answer) nearly as wide as
 * the page. */
static gboolean
answer_fills (gpointer page)
{
  GtkWidget *rows = ms_test_child (page, "timeline_stack");
  return gtk_widget_get_mapped (rows)
         && gtk_widget_get_width (rows) >= gtk_widget_get_width (page) * 0.9;
}

/* The lesson shown takes the page, All Lessons gone with the cards; the
 * way back to them, by F9 (way 0) or Alt+Left (1). */
static void
check_list_folds (MsWindow *win, GtkWidget *page, guint way)
{
  ms_test_wait_until (list_folded, page, "the lesson shown folds the cards away");
  GtkWidget *cards = ms_test_find (page, GTK_TYPE_SCROLLED_WINDOW, NULL);
  ms_test_wait_until (is_unmapped, cards, "the cards leave the screen");
  GtkWidget *back = ms_test_find (page, GTK_TYPE_TOGGLE_BUTTON, NULL);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (back), "F9"));
  ms_test_wait_until (is_unmapped, back, "All Lessons leaves the slide");
  ms_test_wait_until (answer_fills, page, "the answer takes the page's width");
  spin (200);
  ms_xtest_press (GTK_WIDGET (win), way == 0 ? 0 : XK_Alt_L, way == 0 ? XK_F9 : XK_Left);
  ms_test_wait_until (list_back, page, "F9 or Alt+Left brings the cards back");
  ms_test_wait_until (is_mapped, cards, "the cards are on screen again");
  g_assert_true (header_hidden (win));
}

static void
count_click (GtkButton *button, guint *clicks)
{
  (*clicks)++;
}

static gboolean
clicked (gpointer clicks)
{
  return *(guint *)clicks > 0;
}

/* Clicks on the first card's Show (the pinned lesson, answered by the
 * reference run opened), at its left, middle and right: each one lands and
 * the lesson shows over the page, and each way back brings the cards. At
 * 1024x768 the settings pane's old edge crossed Show. */
static void
check_show_click (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  ms_test_wait_until (has_runs, win, "the run opens");
  ms_window_set_view (win, MS_VIEW_LESSONS);
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  GtkWidget *show = ms_test_find (page, GTK_TYPE_BUTTON, "_Show");
  g_assert_nonnull (show);
  ms_test_wait_until (is_mapped, show, "the card's Show is on screen");
  g_assert_true (gtk_widget_is_sensitive (show));
  spin (300);
  g_assert_false (shows_pinned (page));
  guint clicks = 0;
  gulong id = g_signal_connect (show, "clicked", G_CALLBACK (count_click), &clicks);
  const double at[] = { 0.1, 0.5, 0.9 };
  for (guint i = 0; i < G_N_ELEMENTS (at); i++) {
    clicks = 0;
    ms_test_wait_until (is_mapped, show, "the card's Show is on screen");
    spin (300);
    /* The pointer arrives first, as a hand's does. */
    ms_xtest_point_at (show, gtk_widget_get_width (show) * at[i],
                       gtk_widget_get_height (show) / 2.0);
    spin (200);
    ms_xtest_click (show);
    g_autofree char *what
        = g_strdup_printf ("a click at %.0f%% of Show's width lands", at[i] * 100);
    ms_test_wait_until (clicked, &clicks, what);
    ms_test_wait_until (shows_pinned, page, "a click on Show shows the lesson");
    check_list_folds (win, page, i % 2);
  }
  g_signal_handler_disconnect (show, id);
  g_assert_true (header_hidden (win));
}

static const char *step_want; /* the lesson PgUp or PgDn should show */

static gboolean
shows_wanted (gpointer page)
{
  g_autofree char *topic = NULL;
  g_object_get (page, "shown-topic", &topic, NULL);
  return g_strcmp0 (topic, step_want) == 0;
}

/* PgDn and PgUp, as a presentation clicker sends them, wherever the
 * keyboard is (the cards' list scrolls by the page with them): the next
 * lesson (its reference run opened first, without a GPU) and back. */
static void
check_step_keys (MsWindow *win)
{
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  g_autofree char *first = NULL;
  g_object_get (page, "shown-topic", &first, NULL);
  MsLessonTopic t = ms_lesson_topic_from_name (first), next = t + 1;
  while (next < MS_TOPIC_COUNT && !ms_lesson_topic_built (next))
    next++;
  g_assert_cmpint (next, <, MS_TOPIC_COUNT);
  step_want = ms_lesson_topic (next)->name;
  ms_xtest_press (GTK_WIDGET (win), 0, XK_Next);
  ms_test_wait_until (shows_wanted, page, "PgDn shows the next lesson");
  spin (300);
  step_want = first;
  ms_xtest_press (GTK_WIDGET (win), 0, XK_Prior);
  ms_test_wait_until (shows_wanted, page, "PgUp shows the lesson before");
}

/* Home, End and a slide's number then Enter, as a presenter types them:
 * the first, the last (numa, paged like the others on a host of one
 * node) and the third lesson of the deck. */
static void
check_deck_keys (MsWindow *win)
{
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  step_want = ms_lesson_topic (ms_lesson_deck_topic (ms_lesson_deck_count ()))->name;
  ms_xtest_press (GTK_WIDGET (win), 0, XK_End);
  ms_test_wait_until (shows_wanted, page, "End shows the last lesson");
  spin (300);
  step_want = ms_lesson_topic (ms_lesson_deck_topic (1))->name;
  ms_xtest_press (GTK_WIDGET (win), 0, XK_Home);
  ms_test_wait_until (shows_wanted, page, "Home shows the first lesson");
  spin (300);
  step_want = ms_lesson_topic (ms_lesson_deck_topic (3))->name;
  ms_xtest_press (GTK_WIDGET (win), 0, XK_3);
  ms_xtest_press (GTK_WIDGET (win), 0, XK_Return);
  ms_test_wait_until (shows_wanted, page, "3 and Enter show the third lesson");
}

/* ---- the deck as a presenter drives it ---------------------------------- */

/* What a projected slide must never draw, under widget (the page's
 * children): a control (a button or check box on screen), the keyboard's
 * focus (a ring), a selection (a label's text in blue) or a tooltip (a
 * pointer resting on Details drew one over the slide). Whatever is
 * found is named in what. */
static void
find_drawn (GtkWidget *widget, GString *what)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c)) {
    const char *type = G_OBJECT_TYPE_NAME (c);
    if ((GTK_IS_BUTTON (c) || GTK_IS_CHECK_BUTTON (c) || GTK_IS_MENU_BUTTON (c)) && is_mapped (c))
      g_string_append_printf (what, " a %s on screen;", type);
    if (gtk_widget_has_focus (c) || gtk_widget_has_visible_focus (c))
      g_string_append_printf (what, " the keyboard's focus on a %s;", type);
    if (GTK_IS_LABEL (c) && gtk_widget_get_mapped (c)
        && (gtk_label_get_selectable (GTK_LABEL (c))
            || gtk_label_get_selection_bounds (GTK_LABEL (c), NULL, NULL)))
      g_string_append_printf (what, " a selectable label \"%s\";",
                              gtk_label_get_text (GTK_LABEL (c)));
    if (gtk_widget_get_has_tooltip (c) && gtk_widget_get_mapped (c))
      g_string_append_printf (what, " a tooltip on a %s;", type);
    find_drawn (c, what);
  }
}

/* The slide alone on the page, drawn, with nothing of the above on it,
 * and the keyboard on the deck itself (the page), where the clicker's
 * keys work. */
static void
check_clean_slide (MsWindow *win, GtkWidget *page, const char *after)
{
  ms_test_wait_until (list_folded, page, "the slide takes the page");
  g_autoptr (GString) what = g_string_new (NULL);
  find_drawn (page, what);
  if (what->len)
    g_error ("after %s the slide shows:%s", after, what->str);
  g_assert_true (gtk_root_get_focus (GTK_ROOT (win)) == page);
}

/* The lesson of the slide step slides away from the one shown. */
static const char *
slide_from_shown (GtkWidget *page, int step)
{
  g_autofree char *shown = NULL;
  g_object_get (page, "shown-topic", &shown, NULL);
  int number = ms_lesson_deck_number (ms_lesson_topic_from_name (shown)) + step;
  number = CLAMP (number, 1, ms_lesson_deck_count ());
  return ms_lesson_topic (ms_lesson_deck_topic (number))->name;
}

static guint releases, escapes; /* keys let go in the window so far, Escape of them */

static void
count_release (GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state)
{
  releases++;
  escapes += keyval == GDK_KEY_Escape;
}

static gboolean
released (gpointer count)
{
  return releases >= GPOINTER_TO_UINT (count);
}

static gboolean
escape_released (gpointer count)
{
  return escapes >= GPOINTER_TO_UINT (count);
}

/* Presses modifier + key, and waits until the window has had the key and
 * the modifier back: a key that drew nothing has done so by then. */
static void
press_and_wait (MsWindow *win, KeySym modifier, KeySym key)
{
  guint want = releases + (modifier ? 2 : 1);
  ms_xtest_press (GTK_WIDGET (win), modifier, key);
  ms_test_wait_until (released, GUINT_TO_POINTER (want), "the window has had the key");
}

/* Presses modifier + key where it shows the slide step slides away, and
 * checks what that slide draws. */
static void
press_on_deck (MsWindow *win, GtkWidget *page, KeySym modifier, KeySym key, const char *name,
               int step)
{
  step_want = slide_from_shown (page, step);
  press_and_wait (win, modifier, key);
  g_autofree char *what = g_strdup_printf ("%s shows the slide %+d from there", name, step);
  ms_test_wait_until (shows_wanted, page, what);
  check_clean_slide (win, page, name);
}

static guint wheels; /* scrolls that reached a slide's views */

static gboolean
count_wheel (GtkEventControllerScroll *scroll, double dx, double dy)
{
  wheels++;
  return FALSE;
}

/* A stray wheel and a touchpad's scroll (X's buttons 4 to 7) over the
 * middle of the slide's answer: its timelines zoomed and its pane
 * scrolled under them. The keys pressed next find it done. */
static void
wheel_over_slide (GtkWidget *page)
{
  GtkWidget *answer = gtk_stack_get_visible_child (ms_test_child (page, "detail_stack"));
  ms_xtest_point_at (answer, gtk_widget_get_width (answer) / 2.0,
                     gtk_widget_get_height (answer) / 2.0);
  Display *dpy = ms_xtest_display (page);
  for (unsigned int button = 4; button <= 7; button++)
    for (int i = 0; i < 3; i++) {
      ms_fake_button (dpy, button, True, 0);
      ms_fake_button (dpy, button, False, 0);
    }
  XFlush (dpy);
}

/* The slide's answer (its picture, chart or timelines) on the page. */
static graphene_rect_t
answer_bounds (GtkWidget *page)
{
  graphene_rect_t r;
  g_assert_true (gtk_widget_compute_bounds (ms_test_child (page, "detail_stack"), page, &r));
  return r;
}

static gboolean
headline_fitted (gpointer page)
{
  return ms_headline_is_fitted (ms_test_child (page, "detail_takeaway"));
}

/* Details opened on a projected slide: a card over the answer's lower
 * part, the answer where and as large as it was (opened under their line
 * they pushed it down and shrank it: labels cut, bars thinned). */
static void
open_details (MsWindow *win, GtkWidget *page, GtkExpander *details, KeySym modifier, int n)
{
  /* The slide laid out as shown: its headline fitted, its question wrapped. */
  ms_test_wait_until (headline_fitted, page, "the headline is fitted");
  spin (300);
  graphene_rect_t before = answer_bounds (page), card;
  press_and_wait (win, modifier, XK_d);
  g_assert_true (gtk_expander_get_expanded (details));
  GtkWidget *over = ms_test_child (page, "details_card");
  ms_test_wait_until (is_mapped, over, "Details show on the slide");
  spin (300);
  graphene_rect_t after = answer_bounds (page);
  g_assert_true (gtk_widget_compute_bounds (over, page, &card));
  if (!graphene_rect_equal (&before, &after))
    g_error ("Details on slide %d moved or resized its answer: %gx%g at %g,%g, then %gx%g at %g,%g",
             n, before.size.width, before.size.height, before.origin.x, before.origin.y,
             after.size.width, after.size.height, after.origin.x, after.origin.y);
  g_assert_true (graphene_rect_contains_rect (&after, &card));
  g_assert_cmpfloat (card.origin.y + card.size.height, >, after.origin.y + after.size.height - 20);
}

/* Every slide from the first, by Space, with Tab and Shift+Tab pressed on
 * each (one Tab selected the takeaway line, a second put a ring on
 * Details) and the wheel turned over it, which moves none of its views;
 * D and Ctrl+D open Details on a few, as the slide says; then a click on
 * the slide's picture, whose canvas takes the keyboard outside
 * presentation mode, and the clicker's other keys, the arrows, both ways. */
static void
check_clicker (MsWindow *win)
{
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  GtkEventController *keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-released", G_CALLBACK (count_release), NULL);
  gtk_widget_add_controller (GTK_WIDGET (win), keys);
  const char *views[] = { "timeline_stack", "picture_view", "reuse_view" };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++) {
    GtkEventController *scroll =
      gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
    gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
    g_signal_connect (scroll, "scroll", G_CALLBACK (count_wheel), NULL);
    gtk_widget_add_controller (ms_test_child (page, views[i]), scroll);
  }
  GtkAdjustment *pane = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
    gtk_widget_get_ancestor (ms_test_child (page, "detail_stack"), GTK_TYPE_SCROLLED_WINDOW)));
  press_on_deck (win, page, 0, XK_Home, "Home", -ms_lesson_deck_count ());
  GtkExpander *details = GTK_EXPANDER (ms_test_find (page, GTK_TYPE_EXPANDER, NULL));
  g_assert_nonnull (strstr (gtk_expander_get_label (details), "(D)"));
  for (int n = 1; n <= ms_lesson_deck_count (); n++) {
    wheel_over_slide (page);
    press_on_deck (win, page, 0, XK_Tab, "Tab", 0);
    press_on_deck (win, page, 0, XK_Tab, "a second Tab", 0);
    press_on_deck (win, page, XK_Shift_L, XK_Tab, "Shift+Tab", 0);
    if (wheels || gtk_adjustment_get_value (pane) != 0)
      g_error ("the wheel over slide %d moved it", n);
    /* Details opened on a few slides, which the next must not show. */
    if (n <= 3 && gtk_widget_get_visible (GTK_WIDGET (details)))
      open_details (win, page, details, n == 1 ? XK_Control_L : 0, n);
    if (n < ms_lesson_deck_count ())
      press_on_deck (win, page, 0, XK_space, "Space", 1);
    if (n < ms_lesson_deck_count () && gtk_expander_get_expanded (details))
      g_error ("slide %d shows the details of the slide before", n + 1);
  }
  ms_xtest_point_at (page, gtk_widget_get_width (page) / 2.0, gtk_widget_get_height (page) / 2.0);
  ms_xtest_click (page);
  press_on_deck (win, page, 0, XK_Left, "a click on the slide, then Left", -1);
  press_on_deck (win, page, 0, XK_Up, "Up", -1);
  press_on_deck (win, page, 0, XK_Right, "Right", 1);
  press_on_deck (win, page, 0, XK_Down, "Down", 1);
  press_on_deck (win, page, XK_Shift_L, XK_space, "Shift+Space", -1);
  press_on_deck (win, page, 0, XK_Prior, "PgUp", -1);
  press_on_deck (win, page, 0, XK_Next, "PgDn", 1);
  press_on_deck (win, page, 0, XK_BackSpace, "BackSpace", -1);
  press_on_deck (win, page, 0, XK_End, "End", ms_lesson_deck_count ());
  press_on_deck (win, page, 0, XK_Home, "Home", -ms_lesson_deck_count ());
}

static gboolean
is_blanked (gpointer win)
{
  return gtk_widget_has_css_class (win, "blanked");
}

/* b and ".", as PowerPoint and LibreOffice take them: the slide goes
 * black, and the next key (a clicker's PgDn or Space) brings the same
 * slide back without stepping. */
static void
check_blank (MsWindow *win)
{
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  const KeySym blank[] = { XK_b, XK_period }, next[] = { XK_Next, XK_space };
  for (guint i = 0; i < G_N_ELEMENTS (blank); i++) {
    press_and_wait (win, 0, blank[i]);
    g_assert_true (is_blanked (win));
    press_on_deck (win, page, 0, next[i], "the key after a black screen", 0);
    g_assert_false (is_blanked (win));
  }
}

static gboolean
is_fullscreen (gpointer win)
{
  return gtk_window_is_fullscreen (win);
}

static gboolean
not_fullscreen (gpointer win)
{
  return !is_fullscreen (win);
}

static gboolean
not_presenting (gpointer win)
{
  gboolean on;
  g_object_get (win, "presentation", &on, NULL);
  return !on;
}

/* Escape with Details open folds them, and the slide stays projected:
 * it dropped a class into the full window. */
static void
check_escape_details (MsWindow *win)
{
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  GtkExpander *details = GTK_EXPANDER (ms_test_child (page, "details_expander"));
  open_details (win, page, details, 0, 0);
  press_and_wait (win, 0, XK_Escape);
  if (not_presenting (win))
    g_error ("Escape with Details open left presentation mode");
  g_assert_false (gtk_expander_get_expanded (details));
  ms_test_wait_until (is_unmapped, ms_test_child (page, "details_card"), "Details fold");
}

/* Escape leaves presentation mode, and full screen with it (full screen
 * needs a window manager: without one the window never had it). */
static void
check_escape (MsWindow *win)
{
  ms_xtest_press (GTK_WIDGET (win), 0, XK_Escape);
  ms_test_wait_until (not_presenting, win, "Escape leaves presentation mode");
  ms_test_wait_until (not_fullscreen, win, "Escape leaves full screen");
  g_assert_true (header_shown (win));
  g_assert_true (gtk_widget_get_visible (find_banner (win)));
}

static gboolean
is_presenting (gpointer win)
{
  return !not_presenting (win);
}

/* F5, what a clicker sends to start the show, enters presentation mode
 * (and only enters: a second F5 keeps it), and Escape leaves it again;
 * then Shift+F5 (a clicker's other start key) with the keyboard on a card,
 * as after a click on its Show, and one Escape right after leaves (GTK
 * gave the keyboard to the page's paned as the cards folded, and the
 * paned's own Escape took the first). */
static void
check_f5 (MsWindow *win)
{
  ms_xtest_press (GTK_WIDGET (win), 0, XK_F5);
  ms_test_wait_until (is_presenting, win, "F5 starts presentation mode");
  press_and_wait (win, 0, XK_F5);
  g_assert_true (is_presenting (win));
  check_escape (win);
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  GtkWidget *show = ms_test_find (page, GTK_TYPE_BUTTON, "_Show");
  ms_test_wait_until (is_mapped, show, "the cards are back");
  g_assert_true (gtk_widget_grab_focus (show));
  ms_xtest_press (GTK_WIDGET (win), XK_Shift_L, XK_F5);
  ms_test_wait_until (is_presenting, win, "Shift+F5 starts presentation mode");
  spin (200);
  guint want = escapes + 1;
  ms_xtest_press (GTK_WIDGET (win), 0, XK_Escape);
  ms_test_wait_until (escape_released, GUINT_TO_POINTER (want), "the window has had Escape");
  if (!not_presenting (win))
    g_error ("one Escape right after F5 did not leave presentation mode");
  ms_test_wait_until (not_fullscreen, win, "one Escape right after F5 leaves full screen");
}

static int want_width, want_height; /* the window's size waited for */

static gboolean
is_size (gpointer win)
{
  /* Less what the window's shadow takes without a window manager. */
  return ABS (gtk_widget_get_width (win) - want_width) <= 16
         && ABS (gtk_widget_get_height (win) - want_height) <= 16;
}

/* In the window, at width x height, the slide's header ("3 of 21 · H100
 * · ...") and Details side by side: laid over each other they read
 * "Detai3 of 21" at 1024x768. */
static void
check_header_beside_details (MsWindow *win, int width, int height)
{
  want_width = width, want_height = height;
  gtk_window_set_default_size (GTK_WINDOW (win), width, height);
  ms_test_wait_until (is_size, win, "the window takes its size");
  spin (300);
  GtkWidget *page = ms_test_find (GTK_WIDGET (win), MS_TYPE_LESSONS_PAGE, NULL);
  graphene_rect_t details, source, both;
  g_assert_true (gtk_widget_compute_bounds (ms_test_child (page, "details_expander"), page,
                                            &details));
  g_assert_true (gtk_widget_compute_bounds (ms_test_child (page, "detail_source"), page, &source));
  if (graphene_rect_intersection (&details, &source, &both))
    g_error ("at %dx%d the header lies over Details (%gx%g at %g,%g, and %gx%g at %g,%g)", width,
             height, source.size.width, source.size.height, source.origin.x, source.origin.y,
             details.size.width, details.size.height, details.origin.x, details.origin.y);
}

static gboolean
is_small (gpointer win)
{
  /* Less what the window's shadow takes without a window manager. */
  return ABS (gtk_widget_get_width (win) - 1024) <= 16
         && ABS (gtk_widget_get_height (win) - 768) <= 16;
}

static void
on_activate (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  ms_test_wait_until (is_active, win, "the window has the keyboard");
  g_assert_true (header_shown (win));
  /* A projector's size (set in main); the settings pane is laid out
   * before it hides. */
  ms_test_wait_until (is_small, win, "the window is 1024x768");
  spin (300);
  keyboard_in_header (win);
  g_object_set (win, "presentation", TRUE, NULL);
  g_assert_false (focus_in_header (win));
  spin (500);
  /* The app's controls out of the slide: the view switcher hides with
   * the header. */
  GtkWidget *bar = ms_test_find (GTK_WIDGET (win), ADW_TYPE_VIEW_SWITCHER_BAR, NULL);
  g_assert_false (adw_view_switcher_bar_get_reveal (ADW_VIEW_SWITCHER_BAR (bar)));
  check_header_follows_pointer (win);
  check_f10 (win);
  check_runs_key (win);
  check_show_click (win);
  check_step_keys (win);
  check_deck_keys (win);
  check_clicker (win);
  check_blank (win);
  g_test_message ("full screen in presentation mode: %s", is_fullscreen (win) ? "yes" : "no");
  check_escape_details (win);
  check_escape (win);
  check_header_beside_details (win, 1024, 768);
  check_f5 (win);
  check_header_beside_details (win, 1600, 1000);
  gtk_window_destroy (GTK_WINDOW (win));
  done = TRUE;
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  if (!ms_xtest_load ()) {
    g_print ("1..0 # SKIP needs an X11 display (Xvfb) and libXtst.so.6\n");
    return 77;
  }
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_settings_set_int (settings, "window-width", 1024);
  g_settings_set_int (settings, "window-height", 768);
  ms_test_app_run_checked (on_activate, &done);
  return 0;
}
