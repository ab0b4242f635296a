/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-duplex.c: the duplex lesson (docs/lessons.md): copies in both
 * directions at once against one direction alone. */
#include <stdio.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"

#define NAME "duplex"

static void
duplex_parts (MsPartList *l)
{
  static const char *const names[] = { NULL, "copy=h2d", "copy=d2h", "copy=duplex" };
  for (int d = MS_DUPLEX_H2D; d <= MS_DUPLEX_BOTH; d++) {
    MsLessonPart *p = ms_lesson_add_part (l, "pinned", names[d]);
    if (p)
      p->sweep.knobs.duplex = (MsDuplex) d;
  }
}

static bool
caption_duplex (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *h2d = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=h2d");
    const MsCell *d2h = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=d2h");
    const MsCell *both = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=duplex");
    if (!h2d || !d2h || !both)
      continue;
    char size[32], t_both[32], t_turns[32], t_h2d[32], t_d2h[32], speed[64];
    double turns = h2d->stats.e2e.median + d2h->stats.e2e.median;
    /* One after the other is the sum of the two copies measured alone
     * (the rows above the one of both at once), said so, so that the sum
     * is read from the figures shown. */
    snprintf (buf, len,
              ms_gettext ("At %s, a copy each way at once takes %s, against %s for the two "
                          "copies one after the other (%s to the GPU alone plus %s back "
                          "alone): %s."),
              ms_caption_size (both, size, sizeof size),
              ms_caption_time (both->stats.e2e.median, t_both, sizeof t_both),
              ms_caption_time (turns, t_turns, sizeof t_turns),
              ms_caption_time (h2d->stats.e2e.median, t_h2d, sizeof t_h2d),
              ms_caption_time (d2h->stats.e2e.median, t_d2h, sizeof t_d2h),
              ms_caption_speed (turns / both->stats.e2e.median, 2, speed, sizeof speed));
    return true;
  }
  return false;
}

/* The command line's finding: both directions at once against the two
 * alone. */
/* Both at once against the two copies' sum, the caption's figures. */
static MsTakeaway
takeaway_duplex (const MsResults *r, char *buf, size_t len)
{
  FOR_EACH_EXP (e, -1)
  {
    const MsCell *h2d = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=h2d");
    const MsCell *d2h = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=d2h");
    const MsCell *both = ms_caption_measured (r, MS_MODE_PINNED, e, "copy=duplex");
    if (!h2d || !d2h || !both)
      continue;
    char size[32], speed[64];
    /* From the times as the picture's bars are labelled, so that their
     * sum over the time at once divides out to the line's figure. */
    double ratio = (ms_caption_time_as_written (h2d->stats.e2e.median) +
                    ms_caption_time_as_written (d2h->stats.e2e.median)) /
                   ms_caption_time_as_written (both->stats.e2e.median);
    /* TRANSLATORS: one projected line, e.g. "At 16 MiB, both ways at once:
     * 1.78× faster than in turn". */
    snprintf (buf, len, ms_gettext ("At %s, both ways at once: %s than in turn"),
              ms_caption_size (both, size, sizeof size),
              ms_caption_speed (ratio, 2, speed, sizeof speed));
    return MS_TAKEAWAY_DECIDED;
  }
  return MS_TAKEAWAY_MISSING;
}

static void
finding_duplex (const MsResults *r, char *buf, size_t len)
{
  int e = r->sweep.max_exp;
  double both = ms_finding_median (r, MS_MODE_PINNED, e, "copy=duplex");
  double h2d = ms_finding_median (r, MS_MODE_PINNED, e, "copy=h2d");
  double d2h = ms_finding_median (r, MS_MODE_PINNED, e, "copy=d2h");
  if (both > 0 && h2d > 0 && d2h > 0)
    ms_caption_append_line (
        buf, len,
        ms_gettext ("Both directions at once take %.2f of the time of the two copies "
                    "one after the other (1.0: no overlap, 0.5: full duplex).\n"),
        both / (h2d + d2h));
}

const MsLesson ms_lesson_duplex = {
  .card = { .name = NAME,
            .modes = "pinned",
            .title = MS_N_ ("Copies in both directions"),
            .question = MS_N_ ("Do host-to-device and device-to-host copies run at the same time?"),
            .reason = MS_N_ ("PCIe carries both directions at once: a copy each way on two streams "
                             "takes about as long as one alone when the GPU has two copy engines. "
                             "This is why zero-copy, which reads and writes at the same time, can "
                             "pass the per-direction line.") },
  .settings = "pinned: one vector to the device, to the host, and both at once",
  .parts = duplex_parts,
  .caption = caption_duplex,
  .missing = MS_N_ ("This run lacks one of the copies to the device, to the host and both at "
                    "once of the same size."),
  .takeaway = takeaway_duplex,
  .finding = finding_duplex,
};
