/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-describe.c: a run in words: its streams settings (a plain sweep
 * has one stream count and order, its metadata; an experiment's cells carry
 * theirs in their variants) and its date, in the one form every view uses. */
#include <glib/gi18n.h>

#include "ms-engine.h"
#include "ms-run-describe.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  int k_min, k_max;
  gboolean order[2]; /* depth, breadth */
  gboolean queue[2]; /* default, single */
  gboolean any;
} StreamSettings;

static void
scan_variants (const MsResults *run, StreamSettings *s)
{
  for (gsize i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    char value[16];
    int k;
    if (!ms_sweep_knob_applies (MS_KNOB_STREAMS, c->mode))
      continue;
    if (ms_variant_get_int (c->variant, "K", &k) && k > 0) {
      s->k_min = s->k_min ? MIN (s->k_min, k) : k;
      s->k_max = MAX (s->k_max, k);
      s->any = TRUE;
    }
    if (ms_variant_get (c->variant, "order", value, sizeof value)) {
      s->order[g_str_equal (value, "breadth")] = TRUE;
      s->any = TRUE;
    }
    if (ms_variant_get (c->variant, "queue", value, sizeof value))
      s->queue[g_str_equal (value, "single")] = TRUE;
  }
}

static const char *
order_text (MsIssueOrder order)
{
  return order == MS_ORDER_BREADTH_FIRST ? _("breadth-first") : _("depth-first");
}

char *
ms_run_describe_streams (const MsResults *run)
{
  gboolean streams = FALSE;
  for (gsize i = 0; run && i < run->n_cells && !streams; i++)
    streams = ms_sweep_knob_applies (MS_KNOB_STREAMS, run->cells[i].mode);
  if (!streams)
    return NULL;
  StreamSettings s = { 0 };
  scan_variants (run, &s);
  if (!s.any) {
    int k = run->sweep.streams;
    return g_strdup_printf (ngettext ("%d stream, %s", "%d streams, %s", k), k,
                            order_text (run->sweep.order));
  }
  if (!s.k_max)
    s.k_min = s.k_max = run->sweep.streams;
  GString *text = g_string_new (NULL);
  if (s.k_min == s.k_max)
    g_string_append_printf (text, ngettext ("%d stream", "%d streams", s.k_max),
                            s.k_max);
  else
    /* TRANSLATORS: a range of stream counts, "1–16 streams". */
    g_string_append_printf (text, _("%d–%d streams"), s.k_min, s.k_max);
  if (s.order[0] && s.order[1])
    g_string_append_printf (text, ", %s", _("depth-first and breadth-first"));
  else
    g_string_append_printf (text, ", %s",
                            order_text (s.order[1]   ? MS_ORDER_BREADTH_FIRST
                                        : s.order[0] ? MS_ORDER_DEPTH_FIRST
                                                     : run->sweep.order));
  if (s.queue[0] && s.queue[1])
    g_string_append_printf (text, ", %s", _("one hardware queue and the default queues"));
  else if (s.queue[1])
    g_string_append_printf (text, ", %s", _("one hardware queue"));
  return g_string_free (text, FALSE);
}

char *
ms_run_describe_date (const char *iso)
{
  int y, mo, d, h, mi;
  char t, z = 0;
  /* Seconds and the zone letter are optional; anything else stays as is. */
  if (!iso || sscanf (iso, "%4d-%2d-%2d%c%2d:%2d", &y, &mo, &d, &t, &h, &mi) != 6 ||
      (t != 'T' && t != ' '))
    return g_strdup (iso ? iso : "");
  const char *zone = strpbrk (iso + 16, "Z+-");
  if (zone)
    z = *zone;
  return g_strdup_printf ("%04d-%02d-%02d %02d:%02d%s", y, mo, d, h, mi,
                          z == 'Z' ? " UTC" : "");
}

