/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-detail.c: how each lesson's answer is shown beside its card:
 * the settings it applies to the views, and its timelines (the rows of
 * draw/ms-lesson-rows.c) in the stack. */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-lesson-detail.h"
#include "ms-drawing.h"
#include "ms-variant-text.h"

typedef struct {
  MsTimelineStack *stack;
  GString *variants; /* the rows' variants in words, for the tooltip */
} Filling;

static gboolean
add_to_stack (const MsCell *cell, int rep, const char *title, gpointer data)
{
  Filling *f = data;
  if (!ms_timeline_stack_add (f->stack, cell, rep, title))
    return FALSE;
  /* The rows' titles carry the variant as the files have it
   * ("stores=ordinary"): the tooltip says what each one means. */
  if (cell->variant[0]) {
    g_autofree char *words = ms_variant_describe (cell->variant);
    if (!strstr (f->variants->str, words))
      g_string_append_printf (f->variants, "%s%s", f->variants->len ? "\n" : "", words);
  }
  return TRUE;
}

int
ms_lesson_detail_fill_rows (MsTimelineStack *stack, MsLessonTopic topic, const MsResults *run,
                            gboolean slide)
{
  Filling f = { stack, g_string_new (NULL) };
  ms_timeline_stack_clear (stack);
  /* The look the pictures' rows get (the handout's, a test's). */
  ms_timeline_stack_set_lesson_look (stack, topic);
  ms_lesson_rows_each_for (topic, run, slide, add_to_stack, &f);
  gtk_widget_set_tooltip_text (GTK_WIDGET (stack), f.variants->len ? f.variants->str : NULL);
  g_string_free (f.variants, TRUE);
  return ms_timeline_stack_get_n_rows (stack);
}

const MsLessonView *
ms_lesson_detail_view (MsLessonTopic topic)
{
  const MsLessonLook *look = ms_lesson_look (topic);
  return look ? &look->view : NULL;
}
