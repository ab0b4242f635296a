/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-deck.c: the lessons as a deck of slides. Its order and its
 * count come from the lesson table (engine/ms-lesson-list.h), so that a
 * lesson added there is a slide with its number: "k of N". A slide's
 * header names the run it draws by its GPU and its day, and where it was
 * measured (a reference run, measured on another machine, says so: the
 * file's name alone did not). The keys move through the deck the way a
 * presenter does: PgUp and PgDn, Home and End, a slide's number and
 * Enter, and in front of a class a clicker's arrows, Space and BackSpace. */
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "ms-lesson-deck.h"
#include "ms-reference-runs.h"

/* A number typed waits this long for the next digit or for Enter. */
#define TYPED_MS 3000
/* A number that could still grow goes to its slide after this pause:
 * teachers typed "7" and, without Enter, found the keys did nothing; at
 * 1.2 s one who typed "1", looked, then "2" landed on 2, not 12. */
#define TYPED_GO_MS 2000
#define TYPED_DIGITS 3

/* The GPU's model alone ("H100", not "NVIDIA H100 80GB HBM3"): with its
 * memory too the header broke onto two lines beside a long title. */
static char *
gpu_model (const char *name)
{
  if (!name[0])
    return g_strdup (_("unknown GPU"));
  if (g_str_has_prefix (name, "NVIDIA "))
    name += strlen ("NVIDIA ");
  return g_strndup (name, strcspn (name, " "));
}

/* Whether run was read from the reference folder: measured on another
 * machine and shipped with memsweep. */
static gboolean
is_reference (MsRun *run)
{
  const char *file = ms_run_get_source_file (run);
  const char *dir = ms_reference_dir ();
  if (!file || !dir)
    return FALSE;
  g_autofree char *folder = g_path_get_dirname (file);
  g_autofree char *a = g_canonicalize_filename (folder, NULL);
  g_autofree char *b = g_canonicalize_filename (dir, NULL);
  return g_str_equal (a, b);
}

/* Where run was measured, in a word or two, or NULL (another file). */
static const char *
run_origin (MsRun *run, gboolean not_here)
{
  if (is_reference (run))
    return not_here ? _("reference run, not measured here") : _("reference run");
  if (!ms_run_get_source_file (run))
    return _("measured here");
  return not_here ? _("not measured here") : NULL;
}

char *
ms_lesson_deck_source (MsLessonTopic topic, MsRun *run, gboolean not_here)
{
  const MsResults *results = ms_run_get_results (run);
  /* The portable and host-link lessons draw another host's run of several
   * GPUs, whatever is open: "2 × H200", and a shipped one says it was
   * measured elsewhere. */
  MsLessonElsewhere e;
  gboolean other = ms_lesson_elsewhere (topic, results, &e);
  const char *date = other ? e.day : results->date;
  g_autofree char *model = gpu_model (results->device.name);
  g_autofree char *gpu = other ? g_strdup_printf ("%d × %s", e.n_devices, e.model)
                               : g_strdup (model);
  /* The day alone ("2026-11-24" of "2026-11-24T16:28:24Z"): the same in
   * every language, and short. */
  g_autofree char *day = g_strndup (date, strcspn (date, "T"));
  const char *origin = !other        ? run_origin (run, not_here)
                       : e.reference ? _("reference run from another host")
                                     : NULL;
  GString *out = g_string_new (NULL);
  /* TRANSLATORS: a slide's header: its number, the deck's count, then the
   * GPU the run it draws was measured on, e.g. "3 of 20 · H100". */
  g_string_printf (out, _("%d of %d · %s"), ms_lesson_deck_number (topic), ms_lesson_deck_count (),
                   gpu);
  if (day[0])
    g_string_append_printf (out, " · %s", day);
  if (origin)
    g_string_append_printf (out, " · %s", origin);
  /* A lesson of its own experiment drawn from a plain sweep says so. */
  const char *experiment = ms_lesson_topic (topic)->experiment;
  if (!other && experiment[0] && !g_str_equal (results->experiment, experiment))
    g_string_append_printf (out, " · %s", _("a sweep, not this lesson’s own run"));
  return g_string_free (out, FALSE);
}

/* ---- keys ----------------------------------------------------------------- */

typedef struct {
  MsLessonDeckMove move;
  GtkWidget *page;              /* unowned: the deck is its data */
  GtkLabel *header;             /* unowned: the page's child */
  char *header_text;            /* what it said before a number was typed, or NULL */
  char *header_typed;           /* what it says of the number typed, or NULL */
  char typed[TYPED_DIGITS + 1]; /* the number typed so far */
  gint64 typed_at;              /* when its last digit came, monotonic us */
  gint64 went_at;               /* when a number went to its slide without Enter */
  guint go;                     /* the pause before a number that could grow goes */
} Deck;

static void
deck_free (gpointer data)
{
  Deck *deck = data;
  g_clear_handle_id (&deck->go, g_source_remove);
  g_free (deck->header_text);
  g_free (deck->header_typed);
  g_free (deck);
}

/* The number typed so far in the header while it waits for another digit
 * or Enter: a teacher who pressed "1" saw nothing happen for two seconds. */
static void
header_typed (Deck *deck)
{
  if (!deck->header_text)
    deck->header_text = g_strdup (gtk_label_get_text (deck->header));
  g_free (deck->header_typed);
  /* TRANSLATORS: a slide's header while its number is typed, e.g. "Slide 1… of 21". */
  deck->header_typed = g_strdup_printf (_("Slide %s… of %d"), deck->typed,
                                        ms_lesson_deck_count ());
  gtk_label_set_text (deck->header, deck->header_typed);
}

/* The number typed dropped, its pause with it, and the header as it was,
 * unless the page has written it since. */
static void
typed_drop (Deck *deck)
{
  deck->typed[0] = '\0';
  g_clear_handle_id (&deck->go, g_source_remove);
  if (deck->header_typed && g_str_equal (gtk_label_get_text (deck->header), deck->header_typed))
    gtk_label_set_text (deck->header, deck->header_text);
  g_clear_pointer (&deck->header_text, g_free);
  g_clear_pointer (&deck->header_typed, g_free);
}

static gboolean
page_takes_keys (GtkWidget *page)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (page));
  /* A field being typed in keeps its keys (PgUp steps a spin button). */
  return gtk_widget_get_mapped (page) && !GTK_IS_EDITABLE (focus);
}

static gboolean
typed_fresh (Deck *deck)
{
  return deck->typed[0] && g_get_monotonic_time () - deck->typed_at < TYPED_MS * 1000;
}

/* data -1 and 1 step; -2 and 2, Home and End: the first and last slide. */
static gboolean
on_step (GtkWidget *page, GVariant *args, gpointer data)
{
  Deck *deck = g_object_get_data (G_OBJECT (page), "ms-lesson-deck");
  int step = GPOINTER_TO_INT (data);
  typed_drop (deck);
  return page_takes_keys (page)
         && (ABS (step) == 1 ? deck->move (page, step, 0)
                             : deck->move (page, 0, step > 0 ? ms_lesson_deck_count () : 1));
}

/* A clicker's other keys, the arrows, and Space: only while the page holds
 * the keyboard itself (in front of a class, where nothing on the slide
 * takes it), for elsewhere they move through the cards and buttons and
 * pan a timeline. */
static gboolean
on_click (GtkWidget *page, GVariant *args, gpointer data)
{
  return gtk_root_get_focus (gtk_widget_get_root (page)) == page && on_step (page, args, data);
}

/* The number typed, to its slide where there is one; Enter just after
 * it is then swallowed, not passed to the focused widget. */
static void
go_typed (Deck *deck)
{
  int number = atoi (deck->typed);
  typed_drop (deck);
  if (number < 1 || number > ms_lesson_deck_count () || !page_takes_keys (deck->page))
    return;
  deck->went_at = g_get_monotonic_time ();
  deck->move (deck->page, 0, number);
}

static gboolean
on_typed_pause (gpointer data)
{
  Deck *deck = data;
  deck->go = 0;
  go_typed (deck);
  return G_SOURCE_REMOVE;
}

static gboolean
on_digit (GtkWidget *page, GVariant *args, gpointer data)
{
  Deck *deck = g_object_get_data (G_OBJECT (page), "ms-lesson-deck");
  if (!page_takes_keys (page))
    return FALSE;
  if (!typed_fresh (deck))
    deck->typed[0] = '\0';
  size_t n = strlen (deck->typed);
  /* No slide is 0: a leading 0 showed "Slide 0… of 21", which reads as a slide to wait for. */
  if (n == 0 && GPOINTER_TO_INT (data) == 0)
    return TRUE;
  if (n < TYPED_DIGITS) {
    deck->typed[n] = (char) ('0' + GPOINTER_TO_INT (data));
    deck->typed[n + 1] = '\0';
  }
  deck->typed_at = g_get_monotonic_time ();
  g_clear_handle_id (&deck->go, g_source_remove);
  /* No slide's number starts with it ("7" of 21): there at once; else
   * after a pause, or at Enter. */
  if (atoi (deck->typed) * 10 > ms_lesson_deck_count ())
    go_typed (deck);
  else {
    deck->go = g_timeout_add (TYPED_GO_MS, on_typed_pause, deck);
    header_typed (deck);
  }
  return TRUE;
}

/* Enter after a number: that slide. Without one, Enter is the focused
 * widget's. */
static gboolean
on_enter (GtkWidget *page, GVariant *args, gpointer data)
{
  Deck *deck = g_object_get_data (G_OBJECT (page), "ms-lesson-deck");
  if (!typed_fresh (deck) || !page_takes_keys (page)) {
    typed_drop (deck);
    /* The Enter of a number that already went: a presenter's habit. */
    return page_takes_keys (page) && deck->went_at
           && g_get_monotonic_time () - deck->went_at < TYPED_MS * 1000;
  }
  go_typed (deck);
  return TRUE;
}

static void
add_key (GtkShortcutController *keys, guint keyval, GtkShortcutFunc func, int arg)
{
  gtk_shortcut_controller_add_shortcut (
    keys, gtk_shortcut_new (gtk_keyval_trigger_new (keyval, 0),
                            gtk_callback_action_new (func, GINT_TO_POINTER (arg), NULL)));
}

void
ms_lesson_deck_add_keys (GtkWidget *page, MsLessonDeckMove move, GtkLabel *header)
{
  Deck *deck = g_new0 (Deck, 1);
  deck->move = move;
  deck->page = page;
  deck->header = header;
  g_object_set_data_full (G_OBJECT (page), "ms-lesson-deck", deck, deck_free);
  /* Before the widget with the keyboard: the cards' list and the answer
   * scroll by the page with these keys, and the focus is often there. */
  GtkEventController *c = gtk_shortcut_controller_new ();
  GtkShortcutController *keys = GTK_SHORTCUT_CONTROLLER (c);
  gtk_shortcut_controller_set_scope (keys, GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_event_controller_set_propagation_phase (c, GTK_PHASE_CAPTURE);
  add_key (keys, GDK_KEY_Page_Down, on_step, 1);
  add_key (keys, GDK_KEY_Page_Up, on_step, -1);
  add_key (keys, GDK_KEY_KP_Page_Down, on_step, 1);
  add_key (keys, GDK_KEY_KP_Page_Up, on_step, -1);
  static const guint next[]
      = { GDK_KEY_Right, GDK_KEY_Down, GDK_KEY_KP_Right, GDK_KEY_KP_Down, GDK_KEY_space };
  static const guint back[]
      = { GDK_KEY_Left, GDK_KEY_Up, GDK_KEY_KP_Left, GDK_KEY_KP_Up, GDK_KEY_BackSpace };
  for (guint i = 0; i < G_N_ELEMENTS (next); i++)
    add_key (keys, next[i], on_click, 1);
  for (guint i = 0; i < G_N_ELEMENTS (back); i++)
    add_key (keys, back[i], on_click, -1);
  /* Shift+Space goes back, as in a slide show program. */
  gtk_shortcut_controller_add_shortcut (
    keys, gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_space, GDK_SHIFT_MASK),
                            gtk_callback_action_new (on_click, GINT_TO_POINTER (-1), NULL)));
  add_key (keys, GDK_KEY_Home, on_step, -2);
  add_key (keys, GDK_KEY_End, on_step, 2);
  add_key (keys, GDK_KEY_KP_Home, on_step, -2);
  add_key (keys, GDK_KEY_KP_End, on_step, 2);
  for (int d = 0; d <= 9; d++) {
    add_key (keys, GDK_KEY_0 + d, on_digit, d);
    add_key (keys, GDK_KEY_KP_0 + d, on_digit, d);
  }
  add_key (keys, GDK_KEY_Return, on_enter, 0);
  add_key (keys, GDK_KEY_KP_Enter, on_enter, 0);
  gtk_widget_add_controller (page, c);
}
