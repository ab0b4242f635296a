/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-lesson-slides.c: every lesson as a class sees it, projected
 * at 1024x768 from each shipped lesson run of the H100 and of the H200:
 * its takeaway on one line as drawn (Pango, at the projected size: not
 * counted in characters, which 19 of 20 slides passed while they wrapped)
 * and the header with its place in the deck ("3 of 20") and the run's
 * GPU and day, on one line; every label on the slide around the picture
 * (the header, Details) with an x-height, as Pango renders it, of at
 * least 60 % of the takeaway's at its nominal 22 pt (the picture's own
 * text is test-render-slides'); a lesson this host cannot measure (numa
 * on one node) paged like the others and marked; Home, End and a number
 * typed move through the deck, and BackSpace back on a projected slide;
 * the slide asks its card's question over its headline, whole and from
 * the back row (a cap height of 20 px). */
#include <math.h>
#include <string.h>

#include "ms-headline.h"
#include "ms-lesson-deck.h"
#include "ms-lessons-page.h"
#include "ms-timeline-stack.h"
#include "ms-widget-test.h"
#include "ms-host-link-test.h"

/* The GPU's shipped runs: each lesson's own, and the default sweep that
 * answers the lessons of a plain sweep. */
static GPtrArray *
shipped_runs (const char *gpu)
{
  GPtrArray *runs = ms_run_array_new ();
  const char *dir = g_getenv ("MEMSWEEP_REFERENCE_DIR");
  g_autofree char *sweep = g_strdup_printf ("%s-default-samples.csv.gz", gpu);
  for (int t = -1; t < MS_TOPIC_COUNT; t++) {
    g_autofree char *file
        = t < 0 ? g_strdup (sweep)
                : g_strdup_printf ("%s-lesson-%s-samples.csv.gz", gpu, ms_lesson_topic (t)->name);
    g_autofree char *path = g_build_filename (dir, file, NULL);
    if (!g_file_test (path, G_FILE_TEST_EXISTS))
      continue;
    MsRun *run = ms_test_read_run (file, file);
    ms_run_set_source_file (run, path);
    g_ptr_array_add (runs, run);
  }
  g_assert_cmpuint (runs->len, >, 10);
  return runs;
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

/* The first label under root whose text starts with prefix, or NULL. */
static GtkLabel *
find_label_prefix (GtkWidget *root, const char *prefix)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (GTK_IS_LABEL (c) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (c)), prefix))
      return GTK_LABEL (c);
    GtkLabel *found = find_label_prefix (c, prefix);
    if (found)
      return found;
  }
  return NULL;
}

/* The x-height of desc in widget's context, as Pango renders an x: its
 * ink box in whole pixels. */
static int
x_height (GtkWidget *widget, const PangoFontDescription *desc)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, "x");
  pango_layout_set_font_description (layout, desc);
  PangoRectangle ink;
  pango_layout_get_pixel_extents (layout, &ink, NULL);
  g_object_unref (layout);
  return ink.height;
}

/* The least x-height of the fonts label's text is drawn in (each run's
 * font, markup included); G_MAXINT without text. */
static int
label_least_x (GtkLabel *label)
{
  int least = G_MAXINT;
  PangoLayoutIter *iter = pango_layout_get_iter (gtk_label_get_layout (label));
  do {
    PangoLayoutRun *run = pango_layout_iter_get_run_readonly (iter);
    if (!run)
      continue;
    PangoFontDescription *desc = pango_font_describe_with_absolute_size (run->item->analysis.font);
    least = MIN (least, x_height (GTK_WIDGET (label), desc));
    pango_font_description_free (desc);
  } while (pango_layout_iter_next_run (iter));
  pango_layout_iter_free (iter);
  return least;
}

/* The takeaway's x-height at its nominal size, 22 pt (style.css), in its
 * own face and weight. */
static int
takeaway_x (GtkLabel *line)
{
  PangoLayoutIter *iter = pango_layout_get_iter (gtk_label_get_layout (line));
  PangoLayoutRun *run = pango_layout_iter_get_run_readonly (iter);
  g_assert_nonnull (run);
  PangoFontDescription *desc = pango_font_describe_with_absolute_size (run->item->analysis.font);
  pango_font_description_set_absolute_size (desc, 22 * 96.0 / 72 * PANGO_SCALE);
  int x = x_height (GTK_WIDGET (line), desc);
  pango_font_description_free (desc);
  pango_layout_iter_free (iter);
  return x;
}

/* Every mapped label with text under root whose x-height is under
 * least, said; returns how many. */
static guint
small_labels (GtkWidget *root, int least, const char *what)
{
  guint n = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (!gtk_widget_get_mapped (c))
      continue;
    if (GTK_IS_LABEL (c) && *gtk_label_get_text (GTK_LABEL (c))) {
      int x = label_least_x (GTK_LABEL (c));
      if (x < least) {
        g_printerr ("%s: \"%s\" has an x-height of %d px, under %d px\n", what,
                    gtk_label_get_text (GTK_LABEL (c)), x, least);
        n++;
      }
    }
    n += small_labels (c, least, what);
  }
  return n;
}

static gboolean
headline_fitted (gpointer headline)
{
  return gtk_widget_get_mapped (headline) && ms_headline_is_fitted (headline)
         && !gtk_widget_get_mapped (find_type (gtk_widget_get_ancestor (headline, GTK_TYPE_PANED),
                                               GTK_TYPE_SCROLLED_WINDOW));
}

/* Whether every line of the label starts after a space: a line that
 * starts in the middle of a word (h200-lesson-|cache-state) broke it. */
static gboolean
breaks_between_words (GtkLabel *label)
{
  PangoLayout *layout = gtk_label_get_layout (label);
  const char *text = pango_layout_get_text (layout);
  for (GSList *l = pango_layout_get_lines_readonly (layout); l; l = l->next) {
    int at = ((PangoLayoutLine *)l->data)->start_index;
    if (at > 0 && !g_unichar_isspace (g_utf8_get_char (g_utf8_prev_char (text + at))))
      return FALSE;
  }
  return TRUE;
}

static void
collect_text (const char *text, double x, double y, double w, double h, gpointer data)
{
  g_ptr_array_add (data, g_strdup (text));
}

/* The slide's timelines as the page draws them, where the lesson has
 * some, against what its look asks: a lesson compared by copy rate
 * quotes no rate its takeaway does not (the H200's pageable bar read 8.4
 * GB/s under a headline's 8.3); one that names thin bars names the
 * kernel after managed-touch's prefetch, and the prefetch, besides their
 * key. Returns how many problems it said. */
static guint
check_timelines (GtkWidget *page, MsLessonTopic t, const char *takeaway, const char *what)
{
  const MsLessonLook *look = ms_lesson_look (t);
  GtkWidget *stack = find_type (page, MS_TYPE_TIMELINE_STACK);
  if (!look || !stack || !gtk_widget_get_mapped (stack)
      || ms_timeline_stack_get_n_rows (MS_TIMELINE_STACK (stack)) == 0)
    return 0;
  int w = gtk_widget_get_width (stack), h = gtk_widget_get_height (stack);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  st.text_scale = 1.6, st.line_scale = 2, st.high_contrast = TRUE, st.slide = TRUE;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, MAX (w, 1), MAX (h, 1));
  cairo_t *cr = cairo_create (s);
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  ms_draw_set_text_recorder (collect_text, texts);
  ms_timeline_stack_draw (MS_TIMELINE_STACK (stack), cr, &st, w, h);
  ms_draw_set_text_recorder (NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  guint problems = 0, kernels = 0, prefetches = 0;
  for (guint i = 0; i < texts->len; i++) {
    const char *text = g_ptr_array_index (texts, i);
    kernels += g_str_has_prefix (text, "kernel ");
    prefetches += g_str_has_prefix (text, "prefetch");
    for (const char *at = look->view.rows_rate ? strstr (text, " GB/s") : NULL; at;
         at = strstr (at + 1, " GB/s")) {
      const char *start = at;
      while (start > text && (g_ascii_isdigit (start[-1]) || start[-1] == '.'))
        start--;
      g_autofree char *rate = g_strndup (start, at - start);
      /* The way back's rates, whose ratio the takeaway quotes ("5.1×
       * back"): another direction, not a second answer. */
      gboolean back = start - text >= 4 && g_str_has_prefix (start - 4, "d2h ")
                      && strstr (takeaway, "×");
      if (rate[0] && !back && !strstr (takeaway, rate)) {
        g_printerr ("%s: \"%s\" quotes %s GB/s, which the takeaway does not\n", what, text, rate);
        problems++;
      }
    }
  }
  /* The first touch's kernel and the one after the prefetch; the
   * prefetch's bar or callout and its key. */
  if (look->view.name_slivers && (kernels < 2 || prefetches < 2)) {
    g_printerr ("%s: %u kernels and %u prefetches named\n", what, kernels, prefetches);
    problems++;
  }
  return problems;
}

/* The lesson's question over its headline, as its card asks it: whole
 * (wrapped, never cut) and with a cap height of 20 px or more, from the
 * back row. Returns how many problems it said. */
static guint
check_question (GtkWidget *page, MsLessonTopic t, const char *what)
{
  GtkLabel *label = GTK_LABEL (find_class (page, "lesson-question"));
  const char *question = ms_lesson_topic (t)->question;
  PangoLayout *layout = label ? gtk_label_get_layout (label) : NULL;
  int cap = 0;
  if (layout) {
    PangoLayout *h = gtk_widget_create_pango_layout (GTK_WIDGET (label), "H");
    pango_layout_set_font_description (h, pango_context_get_font_description (
                                              pango_layout_get_context (layout)));
    PangoRectangle ink;
    pango_layout_get_pixel_extents (h, &ink, NULL);
    cap = ink.height;
    g_object_unref (h);
  }
  if (!label || !gtk_widget_get_mapped (GTK_WIDGET (label))
      || g_strcmp0 (gtk_label_get_text (label), question) != 0
      || pango_layout_is_ellipsized (layout) || cap < 20) {
    g_printerr ("%s: the slide does not ask \"%s\" whole with a cap height of 20 px (%d px: %s)\n",
                what, question, cap, label ? gtk_label_get_text (label) : "no label");
    return 1;
  }
  return 0;
}

static void
check_slides (const char *gpu)
{
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/memsweep/Memsweep/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  g_object_set (page, "presentation", TRUE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  gtk_widget_add_css_class (GTK_WIDGET (window), "presentation");
  g_autoptr (GPtrArray) runs = shipped_runs (gpu);
  ms_page_show_runs (MS_PAGE (page), runs);
  MsHeadline *headline = MS_HEADLINE (find_type (page, MS_TYPE_HEADLINE));
  GtkLabel *line = ms_headline_get_label (headline);
  guint checked = 0, failed = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    if (!ms_lesson_topic_built (t) || !ms_lessons_page_get_run (MS_LESSONS_PAGE (page), t))
      continue;
    ms_lessons_page_show (MS_LESSONS_PAGE (page), t);
    ms_test_wait_until (headline_fitted, headline, "the takeaway is fitted to the slide");
    /* Laid out at the size chosen. */
    while (g_main_context_iteration (NULL, FALSE))
      ;
    const char *name = ms_lesson_topic (t)->name;
    int lines = pango_layout_get_line_count (gtk_label_get_layout (line));
    double scale = ms_headline_get_scale (headline);
    /* The slide's place in the deck and the run's GPU and day in the
     * header, whole; the portable and host-link lessons draw their run of
     * several GPUs instead of the one opened. A shipped run says it is a reference
     * run, measured on another machine. */
    GtkLabel *source = GTK_LABEL (find_class (page, "lesson-source"));
    const MsResults *shown
        = ms_run_get_results (ms_lessons_page_get_shown_run (MS_LESSONS_PAGE (page)));
    g_autofree char *place
        = g_strdup_printf ("%d of %d · ", ms_lesson_deck_number (t), ms_lesson_deck_count ());
    g_autofree char *day = g_strndup (shown->date, 10);
    const char *header = gtk_label_get_text (source);
    g_autofree char *model = g_ascii_strup (gpu, -1);
    /* The host-link lesson names its shipped run of several GPUs, and
     * that it is a reference run. */
    MsLessonElsewhere e;
    gboolean elsewhere = ms_lesson_elsewhere (t, shown, &e);
    g_autofree char *gpus = g_strdup_printf ("%d × %s · %s", e.n_devices, e.model, e.day);
    gboolean named = g_str_has_prefix (header, place)
                     && (ms_lesson_multi_gpu (t)
                         || (elsewhere && strstr (header, gpus)
                             && (!e.reference || strstr (header, "reference run")))
                         || (strstr (header, day) && strstr (header, "reference run")
                             && strstr (header, model)));
    /* And on one line: "H100 80GB HBM3 ·" over "h100-lesson-sync-async"
     * was two. */
    gboolean whole = breaks_between_words (source)
                     && pango_layout_get_line_count (gtk_label_get_layout (source)) == 1
                     && !pango_layout_is_ellipsized (gtk_label_get_layout (source));
    /* Every slide is checked, and every one that fails is said. */
    if (lines != 1 || scale < MS_HEADLINE_FLOOR || !named || !whole || g_test_verbose ())
      g_printerr ("%s %s: %d line(s) at %.2f of its size: %s | header%s%s: %s\n", gpu, name, lines,
                  scale, gtk_label_get_text (line), named ? "" : " without the run",
                  whole ? "" : " breaks or wraps", gtk_label_get_text (source));
    failed += lines != 1 || scale < MS_HEADLINE_FLOOR || !named || !whole;
    /* The details name the file the slide draws: another host's where it
     * draws one, not the card's run beside it. */
    const char *caption = gtk_label_get_text (ms_test_child (page, "detail_caption"));
    if (elsewhere && !strstr (caption, e.name)) {
      g_printerr ("%s %s: the details do not name %s: %s\n", gpu, name, e.name, caption);
      failed++;
    }
    /* The words around the picture, against 60 % of the takeaway's. */
    int least = (int) ceil (0.6 * takeaway_x (line));
    g_autofree char *what = g_strdup_printf ("%s %s", gpu, name);
    failed += small_labels (gtk_paned_get_end_child (GTK_PANED (find_type (page, GTK_TYPE_PANED))),
                            least, what);
    failed += check_timelines (page, t, gtk_label_get_text (line), what);
    failed += check_question (page, t, what);
    checked++;
  }
  g_assert_cmpuint (checked, >=, 18);
  g_assert_cmpuint (failed, ==, 0);
  ms_test_destroy (window, page);
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (),
                                                 GTK_STYLE_PROVIDER (css));
}

/* The name of the lesson shown (the shown-topic property). */
static char *
shown_topic (GtkWidget *page)
{
  char *name = NULL;
  g_object_get (page, "shown-topic", &name, NULL);
  return name;
}

/* The numa lesson on a host of one node: its card says it is not
 * measured here and what host it needs; it is a slide like the others:
 * PgDn from the lesson before it reaches it, its header says "not
 * measured here". Home and End go to the first and last slide; a
 * slide's number and Enter go to it; D opens a projected slide's Details,
 * which Escape folds first; BackSpace steps back. */
/* Whether one of widget's shortcuts fires on Shift+D. */
static gboolean
has_shift_d (GtkWidget *widget)
{
  GListModel *controllers = gtk_widget_observe_controllers (widget);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++) {
    g_autoptr (GObject) c = g_list_model_get_item (controllers, i);
    for (guint k = 0; GTK_IS_SHORTCUT_CONTROLLER (c) && k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++) {
      g_autoptr (GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), k);
      GtkShortcutTrigger *t = gtk_shortcut_get_trigger (s);
      if (GTK_IS_KEYVAL_TRIGGER (t)
          && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (t)) == GDK_KEY_d
          && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (t)) == GDK_SHIFT_MASK) {
        g_object_unref (controllers);
        return TRUE;
      }
    }
  }
  g_object_unref (controllers);
  return FALSE;
}

static void
test_deck_keys (void)
{
  GtkWidget *page = g_object_new (MS_TYPE_LESSONS_PAGE, NULL);
  GtkWindow *window = ms_test_show (page, 1024, 768);
  g_autoptr (GPtrArray) runs = shipped_runs ("h100");
  ms_page_show_runs (MS_PAGE (page), runs);
  int before = MS_TOPIC_NUMA - 1;
  while (before >= 0 && !ms_lesson_topic_built (before))
    before--;
  g_assert_cmpint (before, >=, 0);
  char line[512];
  g_assert_cmpint (
      ms_lesson_takeaway (MS_TOPIC_NUMA,
                          ms_lessons_page_get_run (MS_LESSONS_PAGE (page), MS_TOPIC_NUMA), line,
                          sizeof line),
      ==, MS_TAKEAWAY_NOT_HERE);
  g_assert_nonnull (find_label_prefix (page, "Not measured here: Needs two NUMA nodes"));
  ms_lessons_page_show (MS_LESSONS_PAGE (page), before);
  g_assert_true (ms_lessons_page_step (MS_LESSONS_PAGE (page), 1));
  g_autofree char *after = shown_topic (page);
  g_assert_cmpstr (after, ==, "numa");
  GtkLabel *source = GTK_LABEL (find_class (page, "lesson-source"));
  g_assert_nonnull (strstr (gtk_label_get_text (source), "not measured here"));
  /* The keys, as a presenter presses them. */
  int n = ms_lesson_deck_count ();
  g_assert_cmpint (n, ==, MS_TOPIC_COUNT);
  static const struct {
    guint keys[3];
    int number;
  } presses[] = {
    { { GDK_KEY_Home }, 1 },
    { { GDK_KEY_End }, -1 },
    { { GDK_KEY_1, GDK_KEY_2, GDK_KEY_Return }, 12 },
    { { GDK_KEY_KP_3, GDK_KEY_KP_Enter }, 3 },
    { { GDK_KEY_Page_Down }, 4 },
    /* A number no slide's starts with goes at once, without Enter. */
    { { GDK_KEY_7 }, 7 },
    { { GDK_KEY_1, GDK_KEY_5 }, 15 },
    /* A leading 0 is no slide's: "05" is 5, at once. */
    { { GDK_KEY_0, GDK_KEY_5 }, 5 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (presses); i++) {
    for (int k = 0; k < 3 && presses[i].keys[k]; k++)
      ms_test_press_key (page, presses[i].keys[k]);
    int want = presses[i].number < 0 ? n : presses[i].number;
    g_autofree char *name = shown_topic (page);
    g_assert_cmpstr (name, ==, ms_lesson_topic (ms_lesson_deck_topic (want))->name);
    g_autofree char *place = g_strdup_printf ("%d of %d · ", want, n);
    g_assert_true (g_str_has_prefix (gtk_label_get_text (source), place));
  }
  /* A 0 first is no slide's number: the header stays as it was, not "Slide 0… of 21". */
  ms_test_press_key (page, GDK_KEY_0);
  g_autofree char *five = g_strdup_printf ("5 of %d · ", n);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (source), five));
  /* One that could still grow ("2" of 21) goes after a pause, the header
   * saying it meanwhile. */
  ms_test_press_key (page, GDK_KEY_2);
  g_autofree char *waiting = g_strdup_printf ("Slide 2… of %d", n);
  g_assert_cmpstr (gtk_label_get_text (source), ==, waiting);
  g_autofree char *two = g_strdup_printf ("2 of %d · ", n);
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!g_str_has_prefix (gtk_label_get_text (source), two) && g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10 * 1000);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (source), two));
  /* The 21st and last slide, the host link under every GPU, names the
   * count of GPUs of its shipped run and that it is a reference run. */
  ms_test_press_key (page, GDK_KEY_End);
  g_autofree char *last = shown_topic (page);
  g_assert_cmpstr (last, ==, "host-link");
  const char *header = gtk_label_get_text (source);
  g_assert_true (g_str_has_prefix (header, "21 of 21 · "));
  g_assert_nonnull (strstr (header, " × "));
  g_assert_nonnull (strstr (header, "reference run"));
  /* In front of a class D alone opens Details, as its label says: no
   * tooltip is projected to tell of Ctrl+D. */
  g_object_set (page, "presentation", TRUE, NULL);
  GtkExpander *details = ms_test_child (page, "details_expander");
  g_assert_nonnull (strstr (gtk_expander_get_label (details), "(D)"));
  ms_test_press_key (page, GDK_KEY_d);
  g_assert_true (gtk_expander_get_expanded (details));
  /* The window's Escape folds them before it leaves presenting. */
  g_assert_true (ms_lessons_page_fold_details (MS_LESSONS_PAGE (page)));
  g_assert_false (gtk_expander_get_expanded (details));
  g_assert_false (ms_lessons_page_fold_details (MS_LESSONS_PAGE (page)));
  /* A capital D too, as the label writes it: a shortcut on Shift+D. */
  g_assert_true (has_shift_d (page));
  /* BackSpace steps back, as presenters use it. */
  g_assert_true (ms_test_press_key (page, GDK_KEY_BackSpace));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (source), "20 of 21 · "));
  ms_test_destroy (window, page);
}

static void
test_h100 (void)
{
  check_slides ("h100");
}

static void
test_h200 (void)
{
  check_slides ("h200");
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  ms_test_host_link_run ();
  g_test_add_func ("/lesson-slides/h100", test_h100);
  g_test_add_func ("/lesson-slides/h200", test_h200);
  g_test_add_func ("/lesson-slides/deck-keys", test_deck_keys);
  return g_test_run ();
}
