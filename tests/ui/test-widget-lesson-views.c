/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-lesson-views.c: MsReuseView and MsTimelineStack: their
 * properties, notifications and drawing; a lesson shown as a slide (its
 * takeaway line, its details one key away). */
#include "ms-headline.h"
#include "ms-lesson-deck.h"
#include "ms-lesson-picture.h"
#include "ms-lessons-page.h"
#include "ms-reuse-view.h"
#include "ms-timeline-rows.h"
#include "ms-timeline-stack.h"
#include "ms-views.h"
#include "ms-widget-test.h"
#include "ms-sweep-test.h"
#include "model/ms-results.h"

static void
add_cell (MsResults *r, MsMode mode, int exp, const char *variant, double e2e_us)
{
  double times[6];
  for (int i = 0; i < 6; i++)
    times[i] = e2e_us * (1 + 0.01 * i);
  MsCell c = { .mode = mode, .exponent = exp, .elements = 1ull << exp, .n_reps = 6,
               .e2e_us = times, .status = MS_CELL_OK };
  g_snprintf (c.variant, sizeof c.variant, "%s", variant);
  ms_cell_compute_stats (&c);
  g_assert_true (ms_results_add_cell (r, &c));
}

static void
test_reuse_view (void)
{
  MsResults *r = ms_test_results_new (NULL);
  for (int reuse = 1; reuse <= 16; reuse *= 2) {
    char v[16];
    g_snprintf (v, sizeof v, "R=%d", reuse);
    add_cell (r, MS_MODE_PINNED, 20, v, 500);
    add_cell (r, MS_MODE_ZERO_COPY, 20, v, 100.0 * reuse);
    add_cell (r, MS_MODE_ZERO_COPY, 18, v, 30.0 * reuse);
  }
  MsRun *run = ms_run_new (r, MS_RUN_KIND_LESSON);
  GtkWidget *view = g_object_new (MS_TYPE_REUSE_VIEW, NULL);
  guint time_n, exponent_n;
  ms_test_watch (view, "time", &time_n);
  ms_test_watch (view, "exponent", &exponent_n);
  ms_reuse_view_set_run (MS_REUSE_VIEW (view), run);
  g_object_unref (run); /* the view keeps its own reference */
  g_assert_cmpint (ms_reuse_view_get_shown_exponent (MS_REUSE_VIEW (view)), ==, 20);
  GtkWindow *window = ms_test_show (view, 900, 600);
  guint with_data = ms_test_ink (view);
  g_assert_cmpuint (with_data, >, 20);
  g_object_set (view, "time", FALSE, "exponent", 18, NULL);
  g_object_set (view, "time", FALSE, NULL);
  g_assert_cmpuint (time_n, ==, 1);
  g_assert_cmpuint (exponent_n, ==, 1);
  g_assert_cmpint (ms_reuse_view_get_shown_exponent (MS_REUSE_VIEW (view)), ==, 18);
  g_assert_cmpuint (ms_test_ink (view), >, 20);
  /* No R cells at that size: the empty text only. */
  g_object_set (view, "exponent", 12, NULL);
  g_assert_cmpuint (ms_test_ink (view), <, with_data / 2);
  ms_reuse_view_set_run (MS_REUSE_VIEW (view), NULL);
  g_assert_null (ms_reuse_view_get_run (MS_REUSE_VIEW (view)));
  ms_test_destroy (window, view);
}

static void
test_timeline_stack (void)
{
  g_autoptr (GPtrArray) runs = ms_test_reference_runs ();
  const MsResults *r = ms_run_get_results (g_ptr_array_index (runs, 0));
  GtkWidget *stack = g_object_new (MS_TYPE_TIMELINE_STACK, NULL);
  MsTimelineStack *st = MS_TIMELINE_STACK (stack);
  guint rows_n, setup_n;
  ms_test_watch (stack, "n-rows", &rows_n);
  ms_test_watch (stack, "show-setup", &setup_n);
  GtkWindow *window = ms_test_show (stack, 900, 600);
  guint empty = ms_test_ink (stack);
  g_assert_true (ms_timeline_stack_add (st, ms_results_find (r, MS_MODE_PAGEABLE, 20), 1, "a"));
  g_assert_true (ms_timeline_stack_add (st, ms_results_find (r, MS_MODE_PINNED, 20), 1, "b"));
  g_assert_cmpint (ms_timeline_stack_get_n_rows (st), ==, 2);
  g_assert_cmpuint (rows_n, ==, 2);
  double t0, t1, all0, all1;
  ms_timeline_stack_get_window (st, &t0, &t1);
  g_assert_cmpfloat (t0, >, 0); /* init collapsed */
  g_assert_cmpuint (ms_test_ink (stack), >, empty + 20);
  g_object_set (stack, "show-setup", TRUE, NULL);
  g_assert_cmpuint (setup_n, ==, 1);
  ms_timeline_stack_get_window (st, &all0, &all1);
  g_assert_cmpfloat (all0, ==, 0);
  g_assert_cmpfloat (all1, >, t1);
  ms_timeline_stack_clear (st);
  g_assert_cmpint (ms_timeline_stack_get_n_rows (st), ==, 0);
  g_assert_cmpuint (rows_n, ==, 3);
  ms_test_destroy (window, stack);
}

/* Four timelines of 16 streams: the stack would like the height at which
 * the rows drawing keeps every row with lanes of its least height, but
 * asks no more than its size request: the rows fit what they get. */
static void
test_timeline_stack_height (void)
{
  g_autoptr (MsRun) run = ms_test_read_run ("h100-lesson-issue-order-samples.csv.gz", "order");
  const MsResults *r = ms_run_get_results (run);
  GtkWidget *stack = g_object_new (MS_TYPE_TIMELINE_STACK, NULL);
  MsTimelineRows rows;
  ms_timeline_rows_init (&rows);
  for (size_t i = 0; i < r->n_cells && rows.n < 4; i++)
    if (strstr (r->cells[i].variant, "K=16") && r->cells[i].n_reps > 1 &&
        ms_timeline_stack_add (MS_TIMELINE_STACK (stack), &r->cells[i], 1, r->cells[i].variant))
      g_assert_true (ms_timeline_rows_add (&rows, &r->cells[i], 1, r->cells[i].variant));
  g_assert_cmpint (rows.n, ==, 4);
  GtkWindow *window = ms_test_show (stack, 700, 300);
  int least, min_h;
  gtk_widget_measure (stack, GTK_ORIENTATION_VERTICAL, 700, &least, &min_h, NULL, NULL);
  g_assert_cmpint (least, <=, 240);
  g_assert_cmpint (min_h, >, 300);
  /* Drawn at that height, every row has its bars. */
  MsViewScale scale = { 1, 1, FALSE };
  MsChartStyle style;
  ms_view_style_from_widget (stack, &scale, &style);
  MsTimelineLayout layouts[MS_TIMELINE_MAX_ROWS];
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 700, min_h);
  cairo_t *cr = cairo_create (surface);
  MsTimeWindow win;
  ms_timeline_rows_window (&rows, FALSE, &win);
  for (int i = 0; i < rows.n; i++)
    ms_timeline_layout_init (&layouts[i]);
  ms_timeline_rows_draw (cr, &rows, &win, &style, 700, min_h, layouts);
  for (int i = 0; i < rows.n; i++) {
    g_assert_cmpuint (layouts[i].bars->len, >, 0);
    ms_timeline_layout_clear (&layouts[i]);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  /* Larger text, taller rows. */
  g_object_set (stack, "text-scale", 1.5, NULL);
  int larger, larger_least;
  gtk_widget_measure (stack, GTK_ORIENTATION_VERTICAL, 700, &larger_least, &larger, NULL, NULL);
  g_assert_cmpint (larger, >, min_h);
  g_assert_cmpint (larger_least, ==, least);
  ms_timeline_rows_clear (&rows);
  ms_test_destroy (window, stack);
}

static guint
count_cards (GtkWidget *root, gboolean visible_only)
{
  guint n = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (gtk_widget_has_css_class (c, "card") && GTK_IS_BOX (c)
        && (!visible_only || gtk_widget_get_visible (c)))
      n++;
    n += count_cards (c, visible_only);
  }
  return n;
}

static guint
built_topics (void)
{
  guint n = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    n += ms_lesson_topic_built (t);
  return n;
}

static gboolean
all_cards_shown (gpointer page)
{
  return count_cards (page, TRUE) == built_topics ();
}

/* The lesson cards come a few a frame once the page is shown, so that no
 * frame measures all their texts; all of them in the end. */
static void
test_lesson_cards_in_steps (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  g_assert_cmpuint (count_cards (page, FALSE), ==, MS_TOPIC_COUNT);
  guint before = count_cards (page, TRUE);
  g_assert_cmpuint (before, >, 0);
  g_assert_cmpuint (before, <, built_topics ());
  GtkWindow *window = ms_test_show (page, 1200, 800);
  ms_test_wait_until (all_cards_shown, page, "every lesson card is shown");
  ms_test_destroy (window, page);
}

/* The card of topic t (cards come in topic order). */
static GtkWidget *
nth_card (GtkWidget *root, int *t)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (gtk_widget_has_css_class (c, "card") && (*t)-- == 0)
      return c;
    GtkWidget *found = nth_card (c, t);
    if (found)
      return found;
  }
  return NULL;
}

static int shown_topic;

static gboolean
card_in_view (gpointer page)
{
  int t = shown_topic;
  GtkWidget *card = nth_card (page, &t);
  GtkScrolledWindow *scroll =
    GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (card, GTK_TYPE_SCROLLED_WINDOW));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (scroll);
  double y;
  if (!gtk_widget_translate_coordinates (card, gtk_scrolled_window_get_child (scroll), 0, 0, NULL,
                                         &y))
    return FALSE;
  /* The viewport's coordinates are those shown. */
  double page_h = gtk_adjustment_get_page_size (adj);
  return gtk_widget_get_height (card) > 0 && y >= -1 && y + gtk_widget_get_height (card) <= page_h + 1;
}

/* A lesson shown from elsewhere (the command line, a view) brings its card
 * into view, buttons and all, once the cards are laid out. */
static void
test_shown_card_in_view (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 600);
  shown_topic = -1;
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    if (ms_lesson_topic_built (t))
      shown_topic = t;
  g_assert_cmpint (shown_topic, >, 3);
  ms_lessons_page_show (MS_LESSONS_PAGE (page), shown_topic);
  ms_test_wait_until (card_in_view, page, "the card of the lesson shown is in view");
  ms_test_destroy (window, page);
}

/* The first descendant of root with css class name, or NULL. */
static GtkWidget *
find_class (GtkWidget *root, const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (gtk_widget_has_css_class (c, name))
      return c;
    GtkWidget *found = find_class (c, name);
    if (found)
      return found;
  }
  return NULL;
}

static GtkWidget *
find_type (GtkWidget *root, GType type)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
      return c;
    GtkWidget *found = find_type (c, type);
    if (found)
      return found;
  }
  return NULL;
}

/* Activates page's shortcut for keyval with mods, as a key press would. */
static gboolean
press (GtkWidget *page, guint keyval, GdkModifierType mods)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (page);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++) {
    g_autoptr (GObject) c = g_list_model_get_item (controllers, i);
    for (guint k = 0;
         GTK_IS_SHORTCUT_CONTROLLER (c) && k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++) {
      g_autoptr (GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), k);
      GtkShortcutTrigger *t = gtk_shortcut_get_trigger (s);
      if (GTK_IS_KEYVAL_TRIGGER (t)
          && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (t)) == keyval
          && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (t)) == mods)
        return gtk_shortcut_action_activate (gtk_shortcut_get_action (s), 0, page, NULL);
    }
  }
  return FALSE;
}

/* A lesson shown reads as a slide: the takeaway line of the run, then
 * Details, folded, which Ctrl+D unfolds and folds again; a line that
 * decides nothing (numa on the H100 reference run, a host of one node)
 * too. */
static void
test_lesson_slide (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_ptr_array_add (runs, ms_test_read_run ("h100-default-samples.csv.gz", "default"));
  g_ptr_array_add (runs, ms_test_read_run ("h100-lesson-numa-samples.csv.gz", "numa"));
  ms_page_show_runs (MS_PAGE (page), runs);
  static const MsLessonTopic topics[] = { MS_TOPIC_PINNED_PAGEABLE, MS_TOPIC_NUMA };
  static const MsTakeaway wanted[] = { MS_TAKEAWAY_DECIDED, MS_TAKEAWAY_NOT_HERE };
  for (guint i = 0; i < G_N_ELEMENTS (topics); i++) {
    ms_lessons_page_show (MS_LESSONS_PAGE (page), topics[i]);
    const MsResults *run = ms_lessons_page_get_run (MS_LESSONS_PAGE (page), topics[i]);
    g_assert_nonnull (run);
    char line[512];
    g_assert_cmpint (ms_lesson_takeaway (topics[i], run, line, sizeof line), ==, wanted[i]);
    GtkWidget *headline = find_class (page, "lesson-takeaway");
    g_assert_nonnull (headline);
    GtkLabel *takeaway = ms_headline_get_label (MS_HEADLINE (headline));
    /* The run's line, never broken between a figure and its unit. */
    g_autofree char *joined = ms_text_join_units (line);
    g_assert_cmpstr (gtk_label_get_text (takeaway), ==, joined);
    g_assert_false (g_regex_match_simple ("[0-9] (KiB|MiB|GiB|µs|ms)\\b",
                                          gtk_label_get_text (takeaway), 0, 0));
    /* Under a line that decides nothing the timelines step back. */
    double fade;
    g_object_get (find_type (page, MS_TYPE_TIMELINE_STACK), "fade", &fade, NULL);
    g_assert_cmpfloat (fade, ==, wanted[i] != MS_TAKEAWAY_DECIDED ? MS_LESSON_UNDECIDED_ALPHA : 1);
    GtkExpander *details = GTK_EXPANDER (find_type (page, GTK_TYPE_EXPANDER));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (details)));
    g_assert_false (gtk_expander_get_expanded (details));
    /* The whole caption is under it. */
    GtkWidget *caption = ms_test_child (page, "detail_caption");
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (caption)),
                              ms_lessons_page_get_caption (MS_LESSONS_PAGE (page), topics[i])));
    g_assert_true (press (page, GDK_KEY_d, GDK_CONTROL_MASK));
    g_assert_true (gtk_expander_get_expanded (details));
    g_assert_true (press (page, GDK_KEY_d, GDK_CONTROL_MASK));
    g_assert_false (gtk_expander_get_expanded (details));
  }
  ms_test_destroy (window, page);
}

/* Presenting from the Lessons page with nothing shown starts the deck at
 * its first slide, never the cards and their buttons; a page out of view
 * starts nothing. */
static char *
shown_name (GtkWidget *page)
{
  char *topic = NULL;
  g_object_get (page, "shown-topic", &topic, NULL);
  return topic;
}

static void
test_presenting_starts_deck (void)
{
  GtkWidget *page = g_object_ref_sink (g_object_new (MS_TYPE_LESSONS_PAGE, NULL));
  g_object_set (page, "presentation", TRUE, NULL);
  g_autofree char *none = shown_name (page);
  g_assert_true (none == NULL || !*none);
  g_object_unref (page);
  page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autoptr (GPtrArray) runs = ms_run_array_new ();
  g_ptr_array_add (runs, ms_test_read_run ("h100-default-samples.csv.gz", "default"));
  ms_page_show_runs (MS_PAGE (page), runs);
  g_object_set (page, "presentation", TRUE, NULL);
  g_autofree char *first = shown_name (page);
  g_assert_cmpstr (first, ==, ms_lesson_topic (ms_lesson_deck_topic (1))->name);
  g_assert_false (ms_lessons_page_get_list_shown (MS_LESSONS_PAGE (page)));
  ms_test_destroy (window, page);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/lesson-views/reuse-view", test_reuse_view);
  g_test_add_func ("/lesson-views/timeline-stack", test_timeline_stack);
  g_test_add_func ("/lesson-views/timeline-stack-height", test_timeline_stack_height);
  g_test_add_func ("/lesson-views/shown-card-in-view", test_shown_card_in_view);
  g_test_add_func ("/lesson-views/lesson-cards-in-steps", test_lesson_cards_in_steps);
  g_test_add_func ("/lesson-views/lesson-slide", test_lesson_slide);
  g_test_add_func ("/lesson-views/presenting-starts-deck", test_presenting_starts_deck);
  return g_test_run ();
}
