/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lessons-page.c: the lesson cards and the view beside them. A card
 * captions its own run (measured or opened by its button) or else the
 * first of the window's runs that answers it; every caption is computed
 * from that run (engine/lessons/ms-lesson-caption.c). */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-chart-view.h"
#include "ms-engine.h"
#include "ms-lesson-deck.h"
#include "ms-lesson-picture-view.h"
#include "ms-drawing.h"
#include "ms-headline.h"
#include "ms-lessons-page.h"
#include "ms-props.h"
#include "ms-reference-runs.h"
#include "ms-run.h"
#include "ms-variant-text.h"
#include "ms-views.h"

typedef struct {
  GtkWidget *frame;
  GtkLabel *status; /* one line: where the answer comes from, or why none */
  GtkButton *run_button;
  GtkWidget *show_button;
  GtkProgressBar *progress;
  MsRun *own;              /* from its button */
  MsRun *shared;           /* one of the session's runs (held by runs) */
  MsPortableResults *portable; /* the portable lesson on 2+ GPUs, with own */
  char *text;                  /* the caption, shown beside the cards under Details */
  char *takeaway;              /* its one line, the slide's headline */
  gboolean undecided;          /* the line says the run cannot decide */
  gboolean not_here;           /* this host cannot measure it: the slide says so */
  int reference; /* a reference run is installed: 1, none: 0, not looked yet: -1 */
  int own_reference; /* one of the lesson's own experiment, likewise */
  gboolean loading_reference; /* the session opens a reference run (else it measures) */
  gboolean own_is_reference;
} MsLessonCard;

struct _MsLessonsPage {
  MsPage parent_instance;

  GtkWidget *paned;
  GtkBox *cards_box;
  GtkLabel *cards_note;
  GtkScrolledWindow *cards_scroll;
  GtkToggleButton *list_button;
  GtkWidget *list_button_label;
  gboolean list_shown;
  gboolean presentation; /* a lesson shown folds the cards away */
  gboolean slide_alone;  /* the slide alone on the page, as last updated */
  int scroll_to;      /* the card to bring into view once laid out, or -1 */
  double scroll_last_y; /* where it was the frame before */
  int scroll_still;     /* frames it has not moved */
  guint scroll_tick;
  GtkLabel *detail_title;
  GtkLabel *detail_source;
  MsHeadline *detail_takeaway;
  GtkExpander *details_expander;
  GtkWidget *details_card; /* the caption, under Details or over the slide */
  GtkWidget *slide_overlay;
  GtkEventController *card_pointer;
  GtkLabel *detail_caption;
  GtkButton *open_view_button;
  GtkStack *detail_stack;
  MsReuseView *reuse_view;
  MsLessonPictureView *picture_view;
  GtkCheckButton *reuse_bandwidth_check;
  MsTimelineStack *timeline_stack;
  GtkCheckButton *setup_check;

  MsLessonCard cards[MS_TOPIC_COUNT];
  int n_cards_shown; /* the rest come a few a frame once the page is shown */
  guint reveal_tick;
  gboolean can_run;
  gboolean portable_looked; /* the shipped portable run looked for */
  int shown; /* an MsLessonTopic, or -1 */
  MsRun *shown_run; /* the run of the lesson shown, as last notified; not owned */
};

G_DEFINE_FINAL_TYPE (MsLessonsPage, ms_lessons_page, MS_TYPE_PAGE)

enum {
  PROP_0,
  PROP_CAN_RUN,
  PROP_SHOWN_TOPIC,
  PROP_SHOWN_RUN,
  PROP_BUSY,
  PROP_LIST_SHOWN,
  PROP_PRESENTATION,
  N_PROPS
};
static GParamSpec *props[N_PROPS];

enum {
  SIGNAL_SHOW_VIEW,
  SIGNAL_LESSON_FINISHED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static MsRun *
card_run_object (MsLessonsPage *self, MsLessonTopic t)
{
  return self->cards[t].own ? self->cards[t].own : self->cards[t].shared;
}

static const MsResults *
card_run (MsLessonsPage *self, MsLessonTopic t)
{
  MsRun *run = card_run_object (self, t);
  return run ? ms_run_get_results (run) : NULL;
}

/* The session runs the card's lesson (or opens its reference run). */
static gboolean
card_running (MsLessonsPage *self, MsLessonTopic t)
{
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  return session && ms_session_get_lesson_running (session, t);
}

static void
set_card_text (MsLessonCard *card, const char *text)
{
  g_free (card->text);
  card->text = g_strdup (text);
  /* A card without a run has no takeaway: its text says why. */
  g_clear_pointer (&card->takeaway, g_free);
  card->not_here = FALSE;
}

/* The card's line, with the longer story in its tooltip. */
static void
set_card_status (MsLessonCard *card, const char *status, const char *tooltip)
{
  gtk_label_set_text (card->status, status);
  gtk_widget_set_tooltip_text (GTK_WIDGET (card->status), tooltip);
}

static void
add_if_file (GPtrArray *paths, const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_ptr_array_add (paths, g_steal_pointer (&path));
}

/* Whether name is the reference run own or exp names, bare or after a
 * GPU prefix ("h100-lesson-reuse-samples.csv"). */
static gboolean
is_lesson_file (const char *name, const char *own, const char *exp)
{
  const char *tail = strstr (name, "lesson-");
  if (!tail || (tail != name && tail[-1] != '-'))
    return FALSE;
  /* Compressed or not: "lesson-reuse-samples.csv.gz" is the same run. */
  size_t n = ms_csv_name_stem (tail, "-samples.csv");
  return n && ((strlen (own) == n + strlen ("-samples.csv") && strncmp (tail, own, n) == 0) ||
               (exp && strlen (exp) == n + strlen ("-samples.csv") && strncmp (tail, exp, n) == 0));
}

/* The lesson's own reference runs (every GPU's, in name order); where a
 * plain sweep answers it, then the other reference runs too. */
static GPtrArray *
reference_paths (MsLessonTopic t, const char *dir)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  g_autofree char *own = g_strdup_printf ("lesson-%s-samples.csv", info->name);
  g_autofree char *exp =
    info->experiment[0] ? g_strdup_printf ("lesson-%s-samples.csv", info->experiment) : NULL;
  g_autoptr (GPtrArray) names = ms_reference_runs_list_in (dir);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  for (int others = 0; others < 2; others++)
    for (guint i = 0; i < names->len; i++) {
      const char *name = g_ptr_array_index (names, i);
      if (others ? info->plain && !strstr (name, "lesson-") : is_lesson_file (name, own, exp))
        add_if_file (paths, dir, name);
    }
  g_ptr_array_add (paths, NULL);
  return paths;
}

/* Whether Open Reference Run has a file to open, or with own, whether one
 * of the lesson's own experiment is installed (not only plain sweeps that
 * answer it): both looked up once. */
static gboolean
has_reference (MsLessonsPage *self, MsLessonTopic t, gboolean own)
{
  MsLessonCard *card = &self->cards[t];
  if (card->reference < 0) {
    const char *dir = ms_reference_dir ();
    g_autoptr (GPtrArray) paths = dir ? reference_paths (t, dir) : NULL;
    g_autofree char *first = paths && paths->len > 1 ? g_path_get_basename (paths->pdata[0]) : NULL;
    card->reference = first != NULL;
    card->own_reference = first && ms_lesson_topic (t)->experiment[0] && strstr (first, "lesson-");
  }
  return own ? card->own_reference : card->reference;
}

/* The run's label less the lesson's title ("H100 · Zero-copy against
 * copies, and data reuse"): the title is over it already, and on the card. */
static char *
label_without_title (const char *label, const char *title)
{
  g_autofree char *tail = g_strdup_printf (" · %s", title);
  g_autofree char *head = g_strdup_printf ("%s · ", title);
  GString *out = g_string_new (label);
  g_string_replace (out, tail, "", 0);
  g_string_replace (out, head, "", 0);
  return g_string_free (out, FALSE);
}

/* Whether run is the lesson's own experiment, not a plain sweep that
 * answers it too (the default sweep answers managed-touch, but without
 * the first-touch panels the lesson's own run draws). */
static gboolean
is_own_run (MsLessonTopic t, const MsResults *run)
{
  const char *experiment = ms_lesson_topic (t)->experiment;
  return run && experiment[0] && g_str_equal (run->experiment, experiment);
}

/* Where the card's answer comes from ("Reference run, H100 80GB HBM3"), or
 * why it has none: one line, the caption itself is beside the cards. */
static char *
card_status (MsLessonsPage *self, MsLessonTopic t, gboolean reference)
{
  MsLessonCard *card = &self->cards[t];
  const MsResults *run = card_run (self, t);
  /* Marked in the deck: its line says what host it needs. */
  if (run && card->not_here && card->takeaway)
    /* TRANSLATORS: a lesson card's status when this host cannot measure
     * the lesson; %s is the lesson's line, which says what host it needs. */
    return g_strdup_printf (_("Not measured here: %s"), card->takeaway);
  MsLessonElsewhere e;
  /* A shipped run of several GPUs, which the slide draws whatever run the
   * card holds (the host-link lesson's). */
  if (run && ms_lesson_elsewhere (t, run, &e) && e.reference)
    /* TRANSLATORS: a lesson card's status where it draws a shipped run of
     * another host: "Reference run, 2 × H200, not measured here". */
    return g_strdup_printf (_("Reference run, %d × %s, not measured here"), e.n_devices, e.model);
  if (run) {
    const char *device = run->device.name[0] ? run->device.name : run->label;
    if (!card->own)
      return g_strdup_printf (_("From the open runs, %s"), device);
    return g_strdup_printf (card->own_is_reference ? _("Reference run, %s") : _("Measured on %s"),
                            device);
  }
  return g_strdup (self->can_run ? _("Not measured yet")
                   : reference   ? _("Not opened yet")
                                 : _("No reference run installed"));
}

/* The portable lesson's run of two GPUs, shipped, looked for once where
 * none is in use (an opened one stays): its slide draws from it. */
static void
use_shipped_portable (MsLessonsPage *self)
{
  if (self->portable_looked || ms_lesson_portable_shown (NULL))
    return;
  self->portable_looked = TRUE;
  const char *dir = ms_reference_dir ();
  char err[512];
  if (dir && !ms_lesson_portable_use_shipped (dir, err, sizeof err))
    g_debug ("portable lesson: %s", err);
}

static void
update_card (MsLessonsPage *self, MsLessonTopic t)
{
  MsLessonCard *card = &self->cards[t];
  const MsResults *run = card_run (self, t);
  /* Show needs a run, the costs' table too: a card saying "no run yet"
   * has nothing to show. Without a GPU, Show opens the reference run
   * first, as the card's button does. */
  gboolean reference = !run && !self->can_run && has_reference (self, t, FALSE);
  gboolean running = card_running (self, t);
  gtk_widget_set_sensitive (card->show_button, !running && (run != NULL || reference));
  gtk_button_set_label (card->run_button, running        ? _("_Stop")
                                          : self->can_run ? _("_Run")
                                                          : _("_Open Reference Run"));
  gtk_widget_set_visible (GTK_WIDGET (card->progress), running && self->can_run);
  if (running)
    return;
  if (run) {
    char buf[MS_LESSON_CAPTION_MAX];
    /* A lesson measured on two or more GPUs too says what they gave. */
    const MsPortableResults *portable = card->own ? card->portable : NULL;
    if (ms_lesson_multi_gpu (t))
      use_shipped_portable (self);
    if (ms_lesson_multi_gpu (t))
      ms_lesson_portable_caption (run, portable, buf, sizeof buf);
    else
      ms_lesson_caption (t, run, -1, buf, sizeof buf);
    set_card_text (card, buf);
    MsTakeaway how = ms_lesson_multi_gpu (t)
                         ? ms_lesson_portable_takeaway (run, portable, buf, sizeof buf)
                         : ms_lesson_takeaway (t, run, buf, sizeof buf);
    card->undecided = how == MS_TAKEAWAY_UNDECIDED || how == MS_TAKEAWAY_NOT_HERE;
    card->not_here = how == MS_TAKEAWAY_NOT_HERE;
    g_free (card->takeaway);
    card->takeaway = g_strdup (buf);
  } else {
    set_card_text (card, self->can_run
                           ? _("No run of this lesson yet: Run measures it on this GPU.")
                         : reference
                           ? _("Not opened yet: without a GPU, Open Reference Run (or Show) opens "
                               "the run measured for this lesson on a reference GPU.")
                           : _("No run of this lesson yet, and no reference run of it is "
                               "installed."));
  }
  g_autofree char *status = card_status (self, t, reference);
  g_autofree char *label =
    run ? label_without_title (run->label, _(ms_lesson_topic (t)->title)) : NULL;
  set_card_status (card, status, run ? label : card->text);
}

/* Whether the window's view of topic can show run: the charts draw a plain
 * sweep's cells only (an experiment's variants would share their sizes). */
static gboolean
has_window_view (MsLessonTopic t, const MsResults *run)
{
  const MsLessonView *v = &ms_lesson_look (t)->view;
  return run && v->view && (g_str_equal (v->view, "table") || !run->experiment[0]);
}

/* A timeline row for add_rows; the rows' titles carry the variant as the
 * files have it ("stores=ordinary"): the tooltip says what each means. */
static gboolean
add_to_stack (const MsCell *cell, int rep, const char *title, gpointer stack)
{
  const char *said = gtk_widget_get_tooltip_text (stack);
  g_autofree char *words = cell->variant[0] ? ms_variant_describe (cell->variant) : NULL;
  if (!ms_timeline_stack_add (stack, cell, rep, title))
    return FALSE;
  if (words && !(said && strstr (said, words))) {
    g_autofree char *all = said ? g_strdup_printf ("%s\n%s", said, words) : g_strdup (words);
    gtk_widget_set_tooltip_text (stack, all);
  }
  return TRUE;
}

/* The timelines that answer a lesson without a picture of its own (the
 * rows of draw/ms-lesson-rows.c, in the look its pictures' rows get);
 * returns how many. */
static int
add_rows (MsTimelineStack *stack, MsLessonTopic topic, const MsResults *run, gboolean slide)
{
  ms_timeline_stack_clear (stack);
  ms_timeline_stack_set_lesson_look (stack, topic);
  gtk_widget_set_tooltip_text (GTK_WIDGET (stack), NULL);
  ms_lesson_rows_each_for (topic, run, slide, add_to_stack, stack);
  return ms_timeline_stack_get_n_rows (stack);
}

/* The scale and size the card reads its answer at, in the views beside
 * the cards, and the button under the caption that opens the window's
 * view of it with its series and scale (none on a projected slide). */
static void
apply_detail_view (MsLessonsPage *self, MsLessonTopic t, const MsResults *run)
{
  const MsLessonView *v = &ms_lesson_look (t)->view;
  gboolean view = has_window_view (t, run);
  gtk_widget_set_visible (GTK_WIDGET (self->open_view_button), view && !self->presentation);
  if (view)
    gtk_button_set_label (self->open_view_button,
                          g_str_equal (v->view, "time")    ? _("Open in the _Time View")
                          : g_str_equal (v->view, "table") ? _("Open in the T_able View")
                                                           : _("Open in the _Bandwidth View"));
  gtk_check_button_set_active (self->setup_check, v->show_setup);
  gtk_check_button_set_active (self->reuse_bandwidth_check, !v->reuse_time);
  if (v->reuse_chart)
    g_object_set (self->reuse_view, "exponent", ms_lesson_answer_exponent (t, run), NULL);
}

/* No tooltip is projected: while the slide is alone nothing under widget
 * has one (a pointer resting on Details or a timeline drew one over the
 * slide); those taken away come back after. GTK 4 has no switch for all. */
static void
set_tooltips (GtkWidget *widget, gboolean on)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c)) {
    if (on ? g_object_steal_data (G_OBJECT (c), "ms-tooltip-off") != NULL
           : gtk_widget_get_has_tooltip (c)) {
      g_object_set_data (G_OBJECT (c), "ms-tooltip-off", GINT_TO_POINTER (!on));
      gtk_widget_set_has_tooltip (c, on);
    }
    set_tooltips (c, on);
  }
}

/* In front of a class the slide that takes the page is all that shows:
 * All Lessons goes with the cards (F9 and Alt+Left still bring them), and
 * the page itself holds the keyboard, for the clicker's keys and so that
 * no focus ring or selection is ever drawn on the slide (nothing on it can
 * take the keyboard then: presentation_changed). */
static void
update_slide_alone (MsLessonsPage *self)
{
  gboolean alone = self->presentation && !self->list_shown;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  /* The page takes the keyboard as the slide comes to be alone, or where
   * it has it already: a run landing meanwhile must not take it from the
   * header or a menu the presenter is in. */
  gboolean take = alone && (!self->slide_alone || !focus ||
                            gtk_widget_is_ancestor (focus, GTK_WIDGET (self)));
  self->slide_alone = alone;
  gtk_widget_set_visible (GTK_WIDGET (self->list_button), self->shown >= 0 && !alone);
  if (take && gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  set_tooltips (GTK_WIDGET (self), !alone);
}

static void
show_detail (MsLessonsPage *self, MsLessonTopic t)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  const MsResults *run = card_run (self, t);
  const MsLessonLook *look = ms_lesson_look (t);
  /* What of the run's settings matters to the lesson (the streams', say):
   * in the details, under the run's label. Beside the title they took
   * the slide's header to three lines (issue-order at 1024x768). */
  g_autofree char *words = run && look->title_words ? look->title_words (run) : NULL;
  /* In front of a class the card's question, which the headline answers:
   * a topic alone left the room to guess what was asked. */
  gtk_label_set_text (self->detail_title, self->presentation ? _(info->question) : _(info->title));
  MsRun *shown = card_run_object (self, t);
  g_autofree char *source = run ? ms_lesson_deck_source (t, shown, self->cards[t].not_here) : NULL;
  gtk_label_set_text (self->detail_source, source ? source : "");
  /* The run's file, which the header named before it said where and when
   * the run was measured: in the details, under the caption. A slide that
   * draws another host's file names that file, as its handout does: the
   * card's own run named there gave a class two answers to "which run?". */
  char other[256];
  g_autofree char *named = NULL;
  if (run && ms_lesson_source (t, run, other, sizeof other)) {
    named = g_strdup (other);
  } else if (run) {
    g_autofree char *stem = ms_run_file_stem (shown);
    g_autofree char *label = label_without_title (run->label, _(info->title));
    named = g_strdup_printf ("%s (%s)", label, stem);
  }
  g_autofree char *caption =
    !run    ? g_strdup (self->cards[t].text)
    : words ? g_strdup_printf ("%s\n%s\n%s", self->cards[t].text, named, words)
            : g_strdup_printf ("%s\n%s", self->cards[t].text, named);
  gtk_label_set_text (self->detail_caption, caption);
  /* Without a run the card's text is short and says why: it leads. */
  const char *takeaway = self->cards[t].takeaway;
  /* Wrapped on a projected slide, "up to 1 MiB" broke between 1 and MiB. */
  g_autofree char *headline = ms_text_join_units (takeaway ? takeaway : self->cards[t].text);
  ms_headline_set_text (self->detail_takeaway, headline);
  gtk_widget_set_visible (GTK_WIDGET (self->details_expander), takeaway != NULL);
  /* Under a line that decides nothing the answer steps back, its words
   * still at full strength, as a lesson's own picture does when it draws
   * itself (ms_lesson_picture_draw). */
  double fade = takeaway && self->cards[t].undecided ? MS_LESSON_UNDECIDED_ALPHA : 1.0;
  g_object_set (self->reuse_view, "fade", fade, NULL);
  g_object_set (self->timeline_stack, "fade", fade, NULL);
  apply_detail_view (self, t, run);
  if (look->view.reuse_chart) {
    ms_reuse_view_set_run (self->reuse_view, card_run_object (self, t));
    gtk_stack_set_visible_child_name (self->detail_stack, "reuse");
  } else if (look->picture) {
    /* The probe lessons draw their own picture, with or without a run. */
    g_object_set (self->picture_view, "topic", info->name, "run", card_run_object (self, t), NULL);
    gtk_stack_set_visible_child_name (self->detail_stack, "picture");
  } else if (add_rows (self->timeline_stack, t, run, self->presentation) > 0) {
    gtk_stack_set_visible_child_name (self->detail_stack, "timelines");
  } else {
    gtk_stack_set_visible_child_name (self->detail_stack, "empty");
  }
  /* Its views' tooltips (a timeline's rows) are new: none projected. */
  update_slide_alone (self);
  /* The window's Export Handout follows it. */
  if (card_run_object (self, t) != self->shown_run) {
    self->shown_run = card_run_object (self, t);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SHOWN_RUN]);
  }
}

/* Brings the card of the lesson shown into view, once it is laid out
 * (cards appear a few a frame): a lesson opened from elsewhere (the
 * command line, a view) would else be shown beside a card out of sight. */
static gboolean
scroll_to_card (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  MsLessonsPage *self = MS_LESSONS_PAGE (widget);
  /* Folded away: again when the cards come back. */
  if (!self->list_shown) {
    self->scroll_tick = 0;
    return G_SOURCE_REMOVE;
  }
  GtkWidget *frame = self->scroll_to >= 0 ? self->cards[self->scroll_to].frame : NULL;
  double y = 0;
  int h = frame ? gtk_widget_get_height (frame) : 0;
  /* The viewport's coordinates are those shown: the value gives the
   * content's. */
  GtkWidget *viewport = gtk_scrolled_window_get_child (self->cards_scroll);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->cards_scroll);
  if (frame && (!gtk_widget_get_visible (frame) || h <= 0 ||
                !gtk_widget_translate_coordinates (frame, viewport, 0, 0, NULL, &y)))
    return G_SOURCE_CONTINUE;
  y += gtk_adjustment_get_value (adj);
  if (frame && gtk_adjustment_get_upper (adj) < y + h)
    return G_SOURCE_CONTINUE;
  /* The keyboard's focus goes to the card (unless it is in it already, a
   * click on Show): else the window's first focus, a card at the top,
   * scrolled the list back there. */
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  if (frame && !(focus && gtk_widget_is_ancestor (focus, frame)))
    gtk_widget_grab_focus (GTK_WIDGET (self->cards[self->scroll_to].run_button));
  if (frame)
    gtk_adjustment_clamp_page (adj, y, y + h);
  /* Cards still appearing (and the scroll bar with them) move it: again
   * each frame until it has stayed put for a few. */
  if (frame && (self->reveal_tick || y != self->scroll_last_y))
    self->scroll_still = 0;
  self->scroll_last_y = y;
  if (frame && ++self->scroll_still < 4)
    return G_SOURCE_CONTINUE;
  self->scroll_to = -1;
  self->scroll_tick = 0;
  return G_SOURCE_REMOVE;
}

/* The card of the lesson shown comes into view (once the cards are back
 * where they are folded away). */
static void
scroll_to_shown (MsLessonsPage *self)
{
  if (self->shown < 0)
    return;
  self->scroll_to = self->shown;
  self->scroll_last_y = -1;
  self->scroll_still = 0;
  if (!self->scroll_tick && self->list_shown)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_card, NULL,
                                                      NULL);
}

void
ms_lessons_page_set_list_shown (MsLessonsPage *self, gboolean shown)
{
  /* Without a lesson shown there is nothing to give the page to. */
  shown = shown || self->shown < 0;
  if (shown == self->list_shown)
    return;
  self->list_shown = shown;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  /* The keyboard leaves the cards before they go, for the way back. */
  if (!shown && focus && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->cards_scroll)))
    gtk_widget_grab_focus (GTK_WIDGET (self->list_button));
  gtk_widget_set_visible (GTK_WIDGET (self->cards_scroll), shown);
  update_slide_alone (self);
  if (shown)
    scroll_to_shown (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LIST_SHOWN]);
}

gboolean
ms_lessons_page_get_list_shown (MsLessonsPage *self)
{
  return self->list_shown;
}

/* F9 (data 0) shows or hides the cards, Alt+Left (1) brings them back and
 * Ctrl+D (2) unfolds or folds the caption and settings under the
 * takeaway: wherever the keyboard is, while the page shows a lesson. In
 * front of a class D alone (3) does too, as Details on the slide says:
 * a presenter looks there, not in a tooltip (none is projected). */
static gboolean
on_page_key (GtkWidget *widget, GVariant *args, gpointer data)
{
  MsLessonsPage *self = MS_LESSONS_PAGE (widget);
  GtkExpander *details = self->details_expander;
  int key = GPOINTER_TO_INT (data);
  if (!gtk_widget_get_mapped (widget) || self->shown < 0 || (key == 1 && self->list_shown)
      || (key >= 2 && !gtk_widget_get_visible (GTK_WIDGET (details)))
      || (key >= 3 && (!self->presentation
                       || GTK_IS_EDITABLE (gtk_root_get_focus (gtk_widget_get_root (widget))))))
    return FALSE;
  if (key >= 2)
    gtk_expander_set_expanded (details, !gtk_expander_get_expanded (details));
  else
    ms_lessons_page_set_list_shown (self, key == 1 || !self->list_shown);
  return TRUE;
}

void
ms_lessons_page_show (MsLessonsPage *self, MsLessonTopic t)
{
  g_return_if_fail ((unsigned) t < MS_TOPIC_COUNT);
  if (self->shown >= 0)
    gtk_widget_remove_css_class (self->cards[self->shown].frame, "lesson-shown");
  gtk_widget_add_css_class (self->cards[t].frame, "lesson-shown");
  /* A projected slide never shows the slide before's details: they fold
   * away as the deck moves on (Ctrl+D brings this one's). */
  if (self->presentation && (int) t != self->shown)
    gtk_expander_set_expanded (self->details_expander, FALSE);
  self->shown = t;
  scroll_to_shown (self);
  /* In front of a class the answer takes the page. */
  if (self->presentation)
    ms_lessons_page_set_list_shown (self, FALSE);
  show_detail (self, t);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SHOWN_TOPIC]);
}

gboolean
ms_lessons_page_fold_details (MsLessonsPage *self)
{
  gboolean open = gtk_widget_get_mapped (GTK_WIDGET (self))
                  && gtk_expander_get_expanded (self->details_expander);
  gtk_expander_set_expanded (self->details_expander, FALSE);
  return open;
}

gboolean
ms_lessons_page_open_view (MsLessonsPage *self)
{
  int t = self->shown;
  if (t < 0 || !has_window_view (t, card_run (self, t)))
    return FALSE;
  const MsLessonView *v = &ms_lesson_look (t)->view;
  g_signal_emit (self, signals[SIGNAL_SHOW_VIEW], 0, v->view, v->modes, (int) v->metric,
                 v->log_scale, ms_lesson_answer_exponent (t, card_run (self, t)));
  return TRUE;
}

/* ---- running and opening: the session's work ------------------------------- */

static void
on_lesson_progress (MsLessonsPage *self, int t, double fraction, MsSession *session)
{
  gtk_progress_bar_set_fraction (self->cards[t].progress, fraction);
}

/* The run is in the session already (its runs reach the page first). */
static void
on_lesson_finished (MsLessonsPage *self, int t, MsRun *run, gpointer portable,
                    const char *error, MsSession *session)
{
  MsLessonCard *card = &self->cards[t];
  if (run) {
    g_clear_object (&card->own);
    g_clear_pointer (&card->portable, g_free);
    card->own = g_object_ref (run);
    card->own_is_reference = card->loading_reference;
    if (portable)
      card->portable = g_memdup2 (portable, sizeof (MsPortableResults));
    /* Measured here on two GPUs or more: that, not a file, is the answer. */
    if (portable && card->portable->n_devices >= 2)
      ms_lesson_portable_use (NULL, NULL);
  }
  update_card (self, t);
  if (error) {
    g_autofree char *text =
      run ? g_strdup_printf ("%s (%s)", card->text, error) : g_strdup (error);
    set_card_text (card, text);
    if (!run)
      set_card_status (card, error, error);
  }
  if (run)
    ms_lessons_page_show (self, t);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
  g_signal_emit (self, signals[SIGNAL_LESSON_FINISHED], 0, ms_lesson_topic (t)->name,
                 run ? NULL : error);
}

/* FALSE when there is none to open (the card says so). */
static gboolean
open_reference (MsLessonsPage *self, MsLessonTopic t, MsSession *session)
{
  const char *dir = ms_reference_dir ();
  g_autoptr (GPtrArray) paths = dir ? reference_paths (t, dir) : NULL;
  if (!paths || paths->len <= 1) {
    g_autofree char *why = g_strdup_printf (
      _("No GPU here, and no reference run of this lesson is installed (lesson-%s-samples.csv "
        "in %s)."),
      ms_lesson_topic (t)->name, dir ? dir : _("the reference folder"));
    set_card_text (&self->cards[t], why);
    set_card_status (&self->cards[t], _("No reference run installed"), why);
    return FALSE;
  }
  return session && ms_session_open_lesson_run (session, t, (const char *const *) paths->pdata);
}

void
ms_lessons_page_activate (MsLessonsPage *self, MsLessonTopic t)
{
  g_return_if_fail ((unsigned) t < MS_TOPIC_COUNT);
  MsLessonCard *card = &self->cards[t];
  MsSession *session = ms_page_get_session (MS_PAGE (self));
  if (card_running (self, t)) {
    ms_session_stop_lesson (session, t);
    return;
  }
  card->loading_reference = !self->can_run;
  gboolean started;
  if (self->can_run) {
    /* On the sizes, repetitions and device as the window has them set. */
    gtk_progress_bar_set_fraction (card->progress, 0);
    started = session && ms_session_run_lesson (session, t);
  } else {
    started = open_reference (self, t, session);
  }
  if (started) {
    set_card_text (card, self->can_run ? _("Measuring…") : _("Opening the reference run…"));
    set_card_status (card, card->text, NULL);
    update_card (self, t);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
  }
}

/* ---- cards ---------------------------------------------------------------- */

/* As a card's Show button: not opened yet, the reference run first,
 * which is then shown. */
static void
show_or_open (MsLessonsPage *self, MsLessonTopic t)
{
  /* A lesson answered by another run (the default sweep answers
   * managed-touch) opens its own reference run where one is installed. */
  gboolean other = !card_run (self, t) || (!is_own_run (t, card_run (self, t)) &&
                                          has_reference (self, t, TRUE));
  if (other && !self->can_run && !card_running (self, t))
    ms_lessons_page_activate (self, t);
  else
    ms_lessons_page_show (self, t);
}

/* A card's Run or Show. */
static void
on_card_clicked (GtkButton *button, MsLessonsPage *self)
{
  MsLessonTopic t = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "topic"));
  if (button == self->cards[t].run_button)
    ms_lessons_page_activate (self, t);
  else
    show_or_open (self, t);
}

/* Slide number (1 to the deck's count), as its Show; FALSE if none. */
static gboolean
ms_lessons_page_go (MsLessonsPage *self, int number)
{
  int t = ms_lesson_deck_topic (number);
  if (t < 0)
    return FALSE;
  show_or_open (self, t);
  return TRUE;
}

static gboolean
deck_move (GtkWidget *page, int step, int number)
{
  return step ? ms_lessons_page_step (MS_LESSONS_PAGE (page), step)
              : ms_lessons_page_go (MS_LESSONS_PAGE (page), number);
}

static void
add_list_keys (MsLessonsPage *self)
{
  static const struct {
    guint key;
    GdkModifierType mods;
  } keys[] = { { GDK_KEY_F9, 0 },
               { GDK_KEY_Left, GDK_ALT_MASK },
               { GDK_KEY_d, GDK_CONTROL_MASK },
               { GDK_KEY_d, 0 },
               /* "Details (D)" as the slide writes it: a teacher pressed
                * Shift+D and nothing opened. */
               { GDK_KEY_d, GDK_SHIFT_MASK } };
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutController *shortcuts = GTK_SHORTCUT_CONTROLLER (controller);
  gtk_shortcut_controller_set_scope (shortcuts, GTK_SHORTCUT_SCOPE_GLOBAL);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (
      shortcuts, gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, keys[i].mods),
                                   gtk_callback_action_new (on_page_key, GINT_TO_POINTER (i),
                                                            NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
  ms_lesson_deck_add_keys (GTK_WIDGET (self), deck_move, self->detail_source);
}

gboolean
ms_lessons_page_step (MsLessonsPage *self, int direction)
{
  g_return_val_if_fail (direction == 1 || direction == -1, FALSE);
  /* Nothing shown yet: the first lesson (or the last, stepping back).
   * A lesson this host cannot measure is a slide like the others: it
   * shows what it would on another host, and says so. */
  int number = self->shown >= 0 ? ms_lesson_deck_number (self->shown) + direction
               : direction > 0  ? 1
                                : ms_lesson_deck_count ();
  return ms_lessons_page_go (self, number);
}

static GtkWidget *
card_label (const char *text, const char *css)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* Wrapped by words (GTK's default), not characters: a label's minimum
   * width is then its longest word (showing the page took 12-18 ms of CPU,
   * not 40-47). */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  if (css)
    gtk_widget_add_css_class (label, css);
  return label;
}

static GtkWidget *
card_button (MsLessonsPage *self, MsLessonTopic t, const char *label)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);
  g_object_set_data (G_OBJECT (button), "topic", GINT_TO_POINTER (t));
  g_signal_connect (button, "clicked", G_CALLBACK (on_card_clicked), self);
  /* Every card has the same buttons: the lesson tells them apart. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _(ms_lesson_topic (t)->title), -1);
  return button;
}

/* Measuring the cards' wrapped texts is most of the page's first show
 * (Pango shapes each text again for every width GTK asks about): the
 * first cards come with the page, the others this many a frame after. */
#define CARDS_PER_FRAME 3

static gboolean
reveal_cards (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  MsLessonsPage *self = MS_LESSONS_PAGE (widget);
  /* The frame that shows the page measures the first ones. */
  if (gdk_frame_clock_get_frame_counter (clock) == (gint64) GPOINTER_TO_SIZE (data))
    return G_SOURCE_CONTINUE;
  int end = MIN (MS_TOPIC_COUNT, self->n_cards_shown + CARDS_PER_FRAME);
  for (; self->n_cards_shown < end; self->n_cards_shown++)
    gtk_widget_set_visible (self->cards[self->n_cards_shown].frame,
                            ms_lesson_topic_built (self->n_cards_shown));
  if (self->n_cards_shown < MS_TOPIC_COUNT)
    return G_SOURCE_CONTINUE;
  self->reveal_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
on_page_map (MsLessonsPage *self)
{
  self->slide_alone = FALSE; /* shown again: the slide takes the keyboard */
  update_slide_alone (self);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (self->reveal_tick || self->n_cards_shown >= MS_TOPIC_COUNT || !clock)
    return;
  /* The next frame's counter: that frame shows the page as it is. */
  gint64 first = gdk_frame_clock_get_frame_counter (clock) + 1;
  self->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), reveal_cards,
                                                    GSIZE_TO_POINTER ((gsize) first), NULL);
}

static void
build_card (MsLessonsPage *self, MsLessonTopic t)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (t);
  MsLessonCard *card = &self->cards[t];
  GtkWidget *frame = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  card->frame = frame;
  card->reference = card->own_reference = -1;
  gtk_widget_set_visible (frame, (int) t < CARDS_PER_FRAME && ms_lesson_topic_built (t));
  gtk_widget_add_css_class (frame, "card");
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_box_append (GTK_BOX (frame), box);
  gtk_box_append (GTK_BOX (box), card_label (_(info->title), "heading"));
  gtk_box_append (GTK_BOX (box), card_label (_(info->question), "dim-label"));
  /* The buttons under the question, before the caption: a long caption
   * (a run's answer) no longer pushes them below the window's edge. */
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  card->run_button = GTK_BUTTON (card_button (self, t, _("_Run")));
  gtk_widget_add_css_class (GTK_WIDGET (card->run_button), "suggested-action");
  card->show_button = card_button (self, t, _("_Show"));
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (card->run_button));
  gtk_box_append (GTK_BOX (buttons), card->show_button);
  gtk_box_append (GTK_BOX (box), buttons);
  card->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_visible (GTK_WIDGET (card->progress), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (card->progress));
  card->status = GTK_LABEL (card_label ("", NULL));
  /* One line: the rest is in its tooltip. */
  gtk_label_set_wrap (card->status, FALSE);
  gtk_label_set_ellipsize (card->status, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (card->status));
  gtk_box_append (self->cards_box, frame);
  update_card (self, t);
}

/* What the cards' buttons do, once above them rather than on every card. */
static void
update_cards_note (MsLessonsPage *self)
{
  gtk_label_set_text (self->cards_note,
                      self->can_run
                        ? _("Run measures a lesson on this GPU; Show shows its answer.")
                        : _("Without a GPU, Open Reference Run (or Show) opens the run measured "
                            "for the lesson on a reference GPU."));
}

/* ---- the window's runs ------------------------------------------------------ */

/* The window's run that answers the card: the lesson's own run if one is
 * open, else the first that answers it. */
static MsRun *
shared_run (GPtrArray *runs, MsLessonTopic t)
{
  MsRun *first = NULL;
  for (guint i = 0; runs && i < runs->len; i++) {
    MsRun *r = g_ptr_array_index (runs, i);
    const MsResults *results = ms_run_get_results (r);
    if (is_own_run (t, results))
      return r;
    if (!first && ms_lesson_topic_matches (t, results))
      first = r;
  }
  return first;
}

/* A card without a run of its own captions the first of the session's
 * runs that answers it. */
static void
ms_lessons_page_runs_changed (MsPage *page, GPtrArray *runs)
{
  MsLessonsPage *self = MS_LESSONS_PAGE (page);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    self->cards[t].shared = shared_run (runs, t);
    update_card (self, t);
  }
  if (self->shown >= 0)
    show_detail (self, self->shown);
}

gboolean
ms_lessons_page_open_portable (MsLessonsPage *self, const char *path, GError **error)
{
  char err[1024];
  g_autofree MsPortableFile *file = ms_portable_file_read (path, err, sizeof err);
  if (!file) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err);
    return FALSE;
  }
  if (file->portable.n_devices < 2) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s: a portable run of one GPU has nothing to show"), path);
    return FALSE;
  }
  ms_lesson_portable_use (file, path);
  self->portable_looked = TRUE;
  ms_lessons_page_runs_changed (MS_PAGE (self), ms_page_get_runs (MS_PAGE (self)));
  show_or_open (self, MS_TOPIC_PORTABLE);
  return TRUE;
}

/* ---- GObject ---------------------------------------------------------------- */

/* Run measures the lesson, or opens its reference run. */
static void
can_run_changed (gpointer page)
{
  MsLessonsPage *self = page;
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    update_card (self, t);
  update_cards_note (self);
}

/* Details projected are a card over the slide's foot (under their line
 * they pushed the picture down and shrank it: the class saw another
 * picture than the one rehearsed); in the window, under their line. */
static void
place_details (MsLessonsPage *self)
{
  GtkWidget *text = GTK_WIDGET (self->detail_caption);
  GtkWidget *row = gtk_widget_get_parent (GTK_WIDGET (self->details_expander));
  GtkScrolledWindow *card = GTK_SCROLLED_WINDOW (self->details_card);
  if (self->presentation != (gtk_scrolled_window_get_child (card) != NULL)) {
    g_object_ref (text);
    if (self->presentation)
      gtk_box_remove (GTK_BOX (gtk_widget_get_parent (row)), text);
    gtk_scrolled_window_set_child (card, self->presentation ? text : NULL);
    if (!self->presentation)
      gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (row)), text, row);
    g_object_unref (text);
  }
  gtk_widget_set_visible (text, gtk_expander_get_expanded (self->details_expander));
  gtk_widget_set_visible (self->details_card, self->presentation && gtk_widget_get_visible (text));
}

/* The card across the answer, as tall as its caption (its scrolled window
 * gives no height for a width) up to 3/5 of it: the top stays shown. */
static gboolean
place_card (GtkOverlay *overlay, GtkWidget *card, GdkRectangle *at, MsLessonsPage *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (overlay));
  int height = gtk_widget_get_height (GTK_WIDGET (overlay)), text;
  gtk_widget_measure (GTK_WIDGET (self->detail_caption), GTK_ORIENTATION_VERTICAL, width - 2,
                      NULL, &text, NULL, NULL);
  int tall = MIN (text + 8, height * 3 / 5);
  *at = (GdkRectangle){ 0, height - tall, width, tall };
  return TRUE;
}

static void
presentation_changed (gpointer page)
{
  MsLessonsPage *self = page;
  GtkWidget *slide = gtk_paned_get_end_child (GTK_PANED (self->paned));
  /* Before the cards fold, for the page to take the keyboard as they go:
   * bound (later), a card's fell to the paned, whose Escape ate the first. */
  gtk_widget_set_focusable (GTK_WIDGET (self), self->presentation);
  gtk_widget_set_can_focus (slide, !self->presentation);
  gtk_expander_set_label (self->details_expander,
                          self->presentation ? _("_Details (D)") : _("_Details"));
  place_details (self);
  /* In front of a class the lesson takes the page; after, the cards. */
  ms_lessons_page_set_list_shown (self, !self->presentation);
  /* Presenting from this page with no lesson shown starts the deck at its
   * first slide: a room is never shown the cards and their buttons. */
  if (self->presentation && self->shown < 0 && gtk_widget_get_mapped (GTK_WIDGET (self)))
    ms_lessons_page_go (self, 1);
  /* A slide's timelines leave out rows its takeaway does not compare. */
  if (self->shown >= 0)
    show_detail (self, self->shown);
}

static const char *
shown_topic (MsLessonsPage *self)
{
  return self->shown >= 0 ? ms_lesson_topic (self->shown)->name : NULL;
}

#define PAGE_FIELD(field) MS_PROP_FIELD (MsLessonsPage, field)
#define RO .flags = G_PARAM_READABLE
static const MsProp prop_table[N_PROPS] = {
  [PROP_CAN_RUN] = { "can-run", G_TYPE_BOOLEAN, PAGE_FIELD (can_run), .changed = can_run_changed },
  [PROP_SHOWN_TOPIC] = { "shown-topic", G_TYPE_STRING, MS_PROP_NO_FIELD,
                         .getter = G_CALLBACK (shown_topic), RO },
  [PROP_SHOWN_RUN] = { "shown-run", G_TYPE_OBJECT, MS_PROP_NO_FIELD, .get_type = ms_run_get_type,
                       .getter = G_CALLBACK (ms_lessons_page_get_shown_run), RO },
  [PROP_BUSY] = { "busy", G_TYPE_BOOLEAN, MS_PROP_NO_FIELD,
                  .getter = G_CALLBACK (ms_lessons_page_is_busy), RO },
  [PROP_LIST_SHOWN] = { "list-shown", G_TYPE_BOOLEAN, MS_PROP_NO_FIELD, .def = TRUE,
                        .setter = G_CALLBACK (ms_lessons_page_set_list_shown),
                        .getter = G_CALLBACK (ms_lessons_page_get_list_shown) },
  [PROP_PRESENTATION] = { "presentation", G_TYPE_BOOLEAN, PAGE_FIELD (presentation),
                          .changed = presentation_changed },
};
#undef PAGE_FIELD
#undef RO

static void
ms_lessons_page_dispose (GObject *object)
{
  MsLessonsPage *self = MS_LESSONS_PAGE (object);
  guint ticks[] = { self->reveal_tick, self->scroll_tick };
  for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
    if (ticks[i])
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), ticks[i]);
  self->reveal_tick = self->scroll_tick = 0;
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    g_clear_object (&self->cards[t].own);
    g_clear_pointer (&self->cards[t].portable, g_free);
    g_clear_pointer (&self->cards[t].text, g_free);
    g_clear_pointer (&self->cards[t].takeaway, g_free);
    self->cards[t].shared = NULL;
  }
  ms_widget_dispose_children (GTK_WIDGET (self), MS_TYPE_LESSONS_PAGE);
  G_OBJECT_CLASS (ms_lessons_page_parent_class)->dispose (object);
}

static void
install (GObjectClass *object_class)
{
  ms_props_install (object_class, prop_table, props, N_PROPS);
  GType type = G_TYPE_FROM_CLASS (object_class);
  signals[SIGNAL_SHOW_VIEW] =
    g_signal_new ("show-view", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 5,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT, G_TYPE_BOOLEAN, G_TYPE_INT);
  signals[SIGNAL_LESSON_FINISHED] =
    g_signal_new ("lesson-finished", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                  2, G_TYPE_STRING, G_TYPE_STRING);
}

/* ---- Export Chart -------------------------------------------------------- */

/* Export Chart: the answer shown, as the page draws it (the lesson's
 * picture, the reuse chart or its timelines); the takeaway goes over it
 * and the run's device and settings under it (get_drawing). */
static void
draw_shown (MsPage *page, cairo_t *cr, const MsChartStyle *style, double width, double height)
{
  MsLessonsPage *self = MS_LESSONS_PAGE (page);
  const char *shown = gtk_stack_get_visible_child_name (self->detail_stack);
  if (g_str_equal (shown, "picture"))
    ms_lesson_picture_draw (cr, self->shown, card_run (self, self->shown), style, width, height);
  else if (g_str_equal (shown, "reuse"))
    ms_reuse_view_draw (self->reuse_view, cr, style, width, height);
  else
    ms_timeline_stack_draw (self->timeline_stack, cr, style, width, height);
}

/* Whether the view in front (the detail stack's child shown) draws a
 * slide at the size and text it has on screen. */
static gboolean
shows_slide (MsLessonsPage *self, const char *shown)
{
  MsChartView *view = g_str_equal (shown, "picture") ? MS_CHART_VIEW (self->picture_view)
                      : g_str_equal (shown, "reuse") ? MS_CHART_VIEW (self->reuse_view)
                                                     : MS_CHART_VIEW (self->timeline_stack);
  MsChartStyle style;
  ms_chart_view_get_style (view, &style);
  int height = gtk_widget_get_height (GTK_WIDGET (view));
  return height > 0 && ms_draw_is_slide (&style, height);
}

static char *
ms_lessons_page_get_drawing (MsPage *page, MsPageDrawing *drawing)
{
  MsLessonsPage *self = MS_LESSONS_PAGE (page);
  const char *shown = gtk_stack_get_visible_child_name (self->detail_stack);
  MsRun *run = self->shown >= 0 ? card_run_object (self, self->shown) : NULL;
  if (!run || g_strcmp0 (shown, "empty") == 0)
    return g_strdup (self->shown < 0 ? _("No lesson is shown: show a lesson’s answer first")
                                     : _("This lesson has no run to export yet"));
  drawing->kind = g_str_equal (shown, "picture") ? "lesson-picture"
                  : g_str_equal (shown, "reuse")   ? "lesson-reuse"
                                                   : "lesson-timelines";
  drawing->draw = draw_shown;
  drawing->title = g_strdup (_(ms_lesson_topic (self->shown)->title));
  drawing->headline = g_strdup (self->cards[self->shown].takeaway);
  drawing->slide = shows_slide (self, shown);
  drawing->caption = ms_report_lesson_caption (NULL, ms_run_get_results (run));
  return NULL;
}

static void
ms_lessons_page_class_init (MsLessonsPageClass *klass)
{
  MS_PAGE_CLASS (klass)->scaled_views = "reuse_view picture_view timeline_stack";
  MS_PAGE_CLASS (klass)->runs_changed = ms_lessons_page_runs_changed;
  MS_PAGE_CLASS (klass)->get_drawing = ms_lessons_page_get_drawing;
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_lessons_page_dispose;
  install (object_class);

  g_type_ensure (MS_TYPE_HEADLINE);
  g_type_ensure (MS_TYPE_REUSE_VIEW);
  g_type_ensure (MS_TYPE_LESSON_PICTURE_VIEW);
  g_type_ensure (MS_TYPE_TIMELINE_STACK);
#define CHILD(name) MS_TEMPLATE_CHILD (MsLessonsPage, name)
  static const MsTemplateBind binds[] = {
    CHILD (paned), CHILD (cards_box), CHILD (cards_note), CHILD (cards_scroll),
    CHILD (list_button), CHILD (list_button_label), CHILD (detail_title), CHILD (detail_source),
    CHILD (detail_takeaway), CHILD (details_expander), CHILD (details_card), CHILD (slide_overlay),
    CHILD (detail_caption), CHILD (open_view_button), CHILD (detail_stack), CHILD (reuse_view),
    CHILD (picture_view), CHILD (reuse_bandwidth_check), CHILD (timeline_stack),
    CHILD (setup_check), MS_TEMPLATE_CALLBACK (place_card), MS_TEMPLATE_CALLBACK (place_details),
    MS_TEMPLATE_CALLBACK (ms_lessons_page_open_view)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-lessons-page", binds, G_N_ELEMENTS (binds));
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* A projected slide shows no control and draws no focus ring or
 * selection: its check boxes hide, nothing on it takes the keyboard (the
 * page holds it: presentation_changed), and its labels cannot be
 * selected, by keyboard or pointer. */
static gboolean
still_slide (MsLessonsPage *self)
{
  return self->presentation && !gtk_event_controller_motion_contains_pointer (
                                 GTK_EVENT_CONTROLLER_MOTION (self->card_pointer));
}

static void
bind_projected (MsLessonsPage *self)
{
  const GBindingFlags flags = G_BINDING_SYNC_CREATE;
  const GBindingFlags invert = flags | G_BINDING_INVERT_BOOLEAN;
  /* Nor does it move under a stray wheel or a touchpad's scroll (its
   * timelines zoomed, its pane scrolled), Details aside: views zoom. */
  GtkEventController *wheel =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  gtk_event_controller_set_propagation_phase (wheel, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (wheel, "scroll", G_CALLBACK (still_slide), self);
  gtk_widget_add_controller (gtk_paned_get_end_child (GTK_PANED (self->paned)), wheel);
  self->card_pointer = gtk_event_controller_motion_new ();
  gtk_widget_add_controller (self->details_card, self->card_pointer);
  g_object_bind_property (self, "list-shown", self->list_button, "active",
                          flags | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self, "list-shown", self->list_button_label, "visible", invert);
  g_object_bind_property (self, "presentation", self->setup_check, "visible", invert);
  g_object_bind_property (self, "presentation", self->reuse_bandwidth_check, "visible", invert);
  GObject *labels[] = { G_OBJECT (ms_headline_get_label (self->detail_takeaway)),
                        G_OBJECT (self->detail_caption), G_OBJECT (self->detail_source) };
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    g_object_bind_property (self, "presentation", labels[i], "selectable", invert);
}

static void
ms_lessons_page_init (MsLessonsPage *self)
{
  self->shown = -1;
  self->scroll_to = -1;
  self->list_shown = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  add_list_keys (self);
  update_cards_note (self);
  g_object_bind_property (self->reuse_bandwidth_check, "active", self->reuse_view, "time",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  g_object_bind_property (self->setup_check, "active", self->timeline_stack, "show-setup",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  bind_projected (self);
  place_details (self);
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    build_card (self, t);
  self->n_cards_shown = MIN (CARDS_PER_FRAME, MS_TOPIC_COUNT);
  g_signal_connect (self, "map", G_CALLBACK (on_page_map), NULL);
  /* The session runs the lessons; the cards follow it. */
  ms_page_connect_session (MS_PAGE (self), "lesson-progress", G_CALLBACK (on_lesson_progress));
  ms_page_connect_session (MS_PAGE (self), "lesson-finished", G_CALLBACK (on_lesson_finished));
}

gboolean
ms_lessons_page_show_name (MsLessonsPage *self, const char *name, gboolean run)
{
  MsLessonTopic t = ms_lesson_topic_from_name (name);
  if (t == MS_TOPIC_COUNT)
    return FALSE;
  ms_lessons_page_show (self, t);
  if (run)
    ms_lessons_page_activate (self, t);
  return TRUE;
}

const char *
ms_lessons_page_get_caption (MsLessonsPage *self, MsLessonTopic t)
{
  g_return_val_if_fail ((unsigned) t < MS_TOPIC_COUNT, NULL);
  return self->cards[t].text;
}

MsRun *
ms_lessons_page_get_shown_run (MsLessonsPage *self)
{
  return self->shown >= 0 ? card_run_object (self, self->shown) : NULL;
}

const MsResults *
ms_lessons_page_get_run (MsLessonsPage *self, MsLessonTopic t)
{
  g_return_val_if_fail ((unsigned) t < MS_TOPIC_COUNT, NULL);
  return card_run (self, t);
}

gboolean
ms_lessons_page_is_busy (MsLessonsPage *self)
{
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    if (card_running (self, t))
      return TRUE;
  return FALSE;
}
