/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-rows.c: the cells each lesson compares on one time axis:
 * pageable against pinned, managed memory's touches, the copy directions,
 * the issue orders on one queue and on many. */
#include "ms-lesson-rows.h"

#include <glib/gi18n.h>

#define MS_TIMELINE_MAX_ROWS_SPEC 8

typedef struct {
  MsMode mode;
  char variant[MS_VARIANT_LEN];
  /* A short title in place of the mode, size and variant, or NULL: four
   * rows of seventeen lanes have room for one line of title each. */
  const char *label;
  /* What the variant means, said in place of its ids, or NULL. */
  const char *words;
} RowSpec;

static int
issue_order_rows (const MsResults *run, RowSpec *rows)
{
  /* The most streams measured in both orders. */
  int best = 0;
  for (gsize i = 0; i < run->n_cells; i++) {
    int k;
    char host[16];
    const MsCell *c = &run->cells[i];
    if (c->mode == MS_MODE_STREAMS && ms_variant_get_int (c->variant, "K", &k) && k > best
        && !ms_variant_get (c->variant, "host", host, sizeof host))
      best = k;
  }
  static const char *const labels[2][2] = {
    { N_ ("default queues, depth-first"), N_ ("default queues, breadth-first") },
    { N_ ("one queue, depth-first"), N_ ("one queue, breadth-first") },
  };
  int n = 0;
  for (int single = 1; single >= 0 && best; single--)
    for (int o = MS_ORDER_DEPTH_FIRST; o <= MS_ORDER_BREADTH_FIRST; o++) {
      rows[n].mode = MS_MODE_STREAMS;
      rows[n].label = _ (labels[single][o == MS_ORDER_BREADTH_FIRST]);
      rows[n].words = NULL;
      ms_lesson_streams_variant (rows[n++].variant, MS_VARIANT_LEN, single, o, best);
    }
  return n;
}

static int
topic_rows (MsLessonTopic topic, const MsResults *run, RowSpec *rows)
{
  static const struct {
    MsLessonTopic topic;
    MsMode mode;
    const char *variant;
    const char *words;
  } table[] = {
    { MS_TOPIC_PINNED_PAGEABLE, MS_MODE_PAGEABLE, "", NULL },
    { MS_TOPIC_PINNED_PAGEABLE, MS_MODE_PINNED, "", NULL },
    { MS_TOPIC_REGISTER, MS_MODE_REGISTERED, "", NULL },
    { MS_TOPIC_REGISTER, MS_MODE_PINNED, "", NULL },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED, "", NULL },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED_PREFETCH, "", NULL },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED, "touch=first", N_ ("first touch") },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED, "touch=resident", N_ ("pages already on the GPU") },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED_PREFETCH, "touch=first", N_ ("first touch") },
    { MS_TOPIC_DUPLEX, MS_MODE_PINNED, "copy=h2d", N_ ("to the GPU alone") },
    { MS_TOPIC_DUPLEX, MS_MODE_PINNED, "copy=d2h", N_ ("back to the host alone") },
    { MS_TOPIC_DUPLEX, MS_MODE_PINNED, "copy=duplex", N_ ("both ways at once") },
    { MS_TOPIC_REUSE, MS_MODE_PINNED, "R=16", N_ ("R = 16 accesses per element") },
    { MS_TOPIC_REUSE, MS_MODE_ZERO_COPY, "R=1", N_ ("R = 1 access per element") },
    { MS_TOPIC_REUSE, MS_MODE_ZERO_COPY, "R=16", N_ ("R = 16 accesses per element") },
    { MS_TOPIC_PORTABLE, MS_MODE_PINNED, "", NULL },
  };
  if (topic == MS_TOPIC_ISSUE_ORDER)
    return issue_order_rows (run, rows);
  int n = 0;
  for (guint i = 0; i < G_N_ELEMENTS (table) && n < MS_TIMELINE_MAX_ROWS_SPEC; i++)
    if (table[i].topic == topic) {
      rows[n].mode = table[i].mode;
      rows[n].label = NULL;
      rows[n].words = table[i].words;
      g_snprintf (rows[n++].variant, MS_VARIANT_LEN, "%s", table[i].variant);
    }
  return n;
}

/* The largest size with a cell of any row that has events. */
static int
rows_exponent (const MsResults *run, const RowSpec *rows, int n)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--)
    for (int i = 0; i < n; i++) {
      const MsCell *c = ms_results_find_variant (run, rows[i].mode, e, rows[i].variant);
      if (c && c->n_events > 0)
        return e;
    }
  return -1;
}

/* The repetition nearest the median (ms_timeline_rows_typical_rep, else a
 * middle one), titled with the mode and the size of each vector; the rows
 * add its figures and which repetition it is (ms_timeline_rows_title). */
static gboolean
add_row (const MsCell *c, const RowSpec *spec, MsLessonRowFunc add, gpointer data)
{
  char size[32];
  int rep = ms_timeline_rows_typical_rep (c);
  ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
  /* Translators: a lesson timeline's title: the mode and the size of
   * each vector, e.g. "Pinned · 4 MiB per vector". */
  g_autofree char *what
      = g_strdup_printf (C_ ("timeline row", "%s · %s per vector"), ms_mode_title (c->mode), size);
  g_autoptr (GString) title = g_string_new (spec->label ? spec->label : what);
  if (c->variant[0] && !spec->label)
    g_string_append_printf (title, " · %s", spec->words ? _ (spec->words) : c->variant);
  if (rep >= 0 && add (c, rep, title->str, data))
    return TRUE;
  return add (c, c->n_reps / 2, title->str, data) || add (c, 0, title->str, data);
}

int
ms_lesson_rows_each (MsLessonTopic topic, const MsResults *run, MsLessonRowFunc add, gpointer data)
{
  RowSpec rows[MS_TIMELINE_MAX_ROWS_SPEC];
  if (!run)
    return 0;
  int n = topic_rows (topic, run, rows), added = 0;
  int e = rows_exponent (run, rows, n);
  for (int i = 0; i < n && e >= 0 && added < MS_TIMELINE_MAX_ROWS; i++) {
    const MsCell *c = ms_results_find_variant (run, rows[i].mode, e, rows[i].variant);
    if (c && add_row (c, &rows[i], add, data))
      added++;
  }
  return added;
}

static gboolean
add_to_rows (const MsCell *cell, int rep, const char *title, gpointer rows)
{
  return ms_timeline_rows_add (rows, cell, rep, title);
}

int
ms_lesson_rows_fill (MsTimelineRows *rows, MsLessonTopic topic, const MsResults *run)
{
  ms_timeline_rows_clear (rows);
  return ms_lesson_rows_each (topic, run, add_to_rows, rows);
}
