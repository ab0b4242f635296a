/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-rows.c: the cells each lesson compares on one time axis:
 * pageable against pinned, the host stores settings, the copy directions,
 * the issue orders on one queue and on many. */
#include "ms-lesson-rows.h"

#define MS_TIMELINE_MAX_ROWS_SPEC 8

typedef struct {
  MsMode mode;
  char variant[MS_VARIANT_LEN];
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
    if (c->mode == MS_MODE_STREAMS && ms_variant_get_int (c->variant, "K", &k) && k > best &&
        !ms_variant_get (c->variant, "host", host, sizeof host))
      best = k;
  }
  int n = 0;
  for (int single = 1; single >= 0 && best; single--)
    for (int o = MS_ORDER_DEPTH_FIRST; o <= MS_ORDER_BREADTH_FIRST; o++) {
      rows[n].mode = MS_MODE_STREAMS;
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
  } table[] = {
    { MS_TOPIC_PINNED_PAGEABLE, MS_MODE_PAGEABLE, "" },
    { MS_TOPIC_PINNED_PAGEABLE, MS_MODE_PINNED, "" },
    { MS_TOPIC_REGISTER, MS_MODE_REGISTERED, "" },
    { MS_TOPIC_REGISTER, MS_MODE_PINNED, "" },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED, "" },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED_PREFETCH, "" },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED, "touch=first" },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED, "touch=resident" },
    { MS_TOPIC_MANAGED, MS_MODE_MANAGED_PREFETCH, "touch=first" },
    /* The caption's three pinned states, then the write-combined buffer
     * read back by the CPU (its verification, under All phases). */
    { MS_TOPIC_CACHE_STATE, MS_MODE_PINNED, "stores=streamed" },
    { MS_TOPIC_CACHE_STATE, MS_MODE_PINNED, "stores=ordinary" },
    { MS_TOPIC_CACHE_STATE, MS_MODE_PINNED, "stores=fresh" },
    { MS_TOPIC_CACHE_STATE, MS_MODE_WRITE_COMBINED, "stores=streamed/read=wc" },
    { MS_TOPIC_DUPLEX, MS_MODE_PINNED, "copy=h2d" },
    { MS_TOPIC_DUPLEX, MS_MODE_PINNED, "copy=d2h" },
    { MS_TOPIC_DUPLEX, MS_MODE_PINNED, "copy=duplex" },
    { MS_TOPIC_REUSE, MS_MODE_PINNED, "R=16" },
    { MS_TOPIC_REUSE, MS_MODE_ZERO_COPY, "R=1" },
    { MS_TOPIC_REUSE, MS_MODE_ZERO_COPY, "R=16" },
    { MS_TOPIC_PORTABLE, MS_MODE_PINNED, "" },
  };
  if (topic == MS_TOPIC_ISSUE_ORDER)
    return issue_order_rows (run, rows);
  int n = 0;
  for (guint i = 0; i < G_N_ELEMENTS (table) && n < MS_TIMELINE_MAX_ROWS_SPEC; i++)
    if (table[i].topic == topic) {
      rows[n].mode = table[i].mode;
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

/* A middle repetition: the first carries the allocation. */
static gboolean
add_row (const MsCell *c, MsLessonRowFunc add, gpointer data)
{
  char size[32];
  ms_format_bytes (c->elements * sizeof (float), size, sizeof size);
  g_autofree char *title =
    c->variant[0] ? g_strdup_printf ("%s · %s · %s", ms_mode_title (c->mode), size, c->variant)
                  : g_strdup_printf ("%s · %s", ms_mode_title (c->mode), size);
  return add (c, c->n_reps / 2, title, data) || add (c, 0, title, data);
}

int
ms_lesson_rows_each (MsLessonTopic topic, const MsResults *run, MsLessonRowFunc add,
                     gpointer data)
{
  RowSpec rows[MS_TIMELINE_MAX_ROWS_SPEC];
  if (!run)
    return 0;
  int n = topic_rows (topic, run, rows), added = 0;
  int e = rows_exponent (run, rows, n);
  for (int i = 0; i < n && e >= 0 && added < MS_TIMELINE_MAX_ROWS; i++) {
    const MsCell *c = ms_results_find_variant (run, rows[i].mode, e, rows[i].variant);
    if (c && add_row (c, add, data))
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
