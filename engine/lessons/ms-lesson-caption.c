/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-caption.c: what the lessons' captions share
 * (ms-lesson-caption-private.h): finding a measured cell, writing sizes,
 * times and speeds as every caption writes them, appending sentences.
 * Every number in a caption comes from the results; where the results
 * lack a cell the sentence says so instead. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-compare-options.h"
#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-modes.h"
#include "ms-results.h"
#include "ms-utf8.h"

bool
ms_caption_apart (const MsCell *a, const MsCell *b)
{
  return a->stats.e2e.ci_high < b->stats.e2e.ci_low || b->stats.e2e.ci_high < a->stats.e2e.ci_low;
}

/* Both figures come from one run and one process, so the between-process
 * spread is taken as none (known, zero): the verdict rests on the medians'
 * 95% intervals and needs 6 repetitions a side. */
MsJudgement
ms_caption_judge (const MsStat *a, const MsStat *b)
{
  MsInterval ia = { a->median, a->ci_low, a->ci_high, a->ci_valid, true, 0, 0, false };
  MsInterval ib = { b->median, b->ci_low, b->ci_high, b->ci_valid, true, 0, 0, false };
  double threshold = ms_compare_threshold_fraction (MS_COMPARE_DEFAULT_THRESHOLD_PCT);
  return ms_verdict_judgement (&ia, &ib, threshold, true);
}

const MsCell *
ms_caption_measured (const MsResults *r, MsMode mode, int exp, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, exp, variant);
  if (!c || (c->status != MS_CELL_OK && c->status != MS_CELL_PARTIAL) || c->n_reps < 1
      || !(c->stats.e2e.median > 0))
    return NULL;
  return c;
}

int
ms_caption_copy_pair (const MsResults *r, int exponent, MsMode a, MsMode b, const MsCell **ca,
                      const MsCell **cb)
{
  FOR_EACH_EXP (e, exponent)
  {
    *ca = ms_caption_measured (r, a, e, "");
    *cb = ms_caption_measured (r, b, e, "");
    if (*ca && *cb && (*ca)->stats.h2d_gbps > 0 && (*cb)->stats.h2d_gbps > 0)
      return e;
  }
  return -1;
}

const char *
ms_caption_size (const MsCell *c, char *buf, size_t len)
{
  ms_format_bytes (ms_vector_bytes (c->elements), buf, len);
  return buf;
}

/* A time to three figures, or four where fine. */
static const char *
time_text (double us, bool fine, char *buf, size_t len)
{
  /* Milliseconds from 1 ms so that two times in one sentence rarely mix
   * "5000 µs" with "33.9 ms". */
  if (us >= 1000)
    snprintf (buf, len, "%.*f ms", (us >= 10000 ? 1 : 2) + fine, us / 1000);
  else if (us >= (fine ? 100 : 10))
    snprintf (buf, len, "%.*f µs", (int) fine, us);
  else
    snprintf (buf, len, "%.2f µs", us);
  return buf;
}

const char *
ms_caption_time (double us, char *buf, size_t len)
{
  return time_text (us, false, buf, len);
}

const char *
ms_caption_time_fine (double us, char *buf, size_t len)
{
  return time_text (us, true, buf, len);
}

/* us as format writes it, read back. */
static double
as_written (double us, const char *(*format) (double, char *, size_t))
{
  char text[32], *end;
  format (us, text, sizeof text);
  double v = strtod (text, &end);
  return strstr (end, "ms") ? v * 1000 : v;
}

double
ms_caption_time_as_written (double us)
{
  return as_written (us, ms_caption_time);
}

double
ms_caption_time_fine_as_written (double us)
{
  return as_written (us, ms_caption_time_fine);
}

const char *
ms_caption_device (const MsResults *r)
{
  return r->device.name[0] ? r->device.name : ms_gettext ("GPU");
}

void
ms_caption_append (char *buf, size_t len, const char *format, ...)
{
  size_t used = strlen (buf);
  if (used + 2 >= len)
    return;
  if (used)
    buf[used++] = ' ', buf[used] = '\0';
  va_list ap;
  va_start (ap, format);
  vsnprintf (buf + used, len - used, format, ap);
  va_end (ap);
}

void
ms_caption_append_line (char *buf, size_t len, const char *format, ...)
{
  size_t used = strlen (buf);
  if (used + 1 >= len)
    return;
  va_list ap;
  va_start (ap, format);
  vsnprintf (buf + used, len - used, format, ap);
  va_end (ap);
}

double
ms_finding_median (const MsResults *r, MsMode mode, int e, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, e, variant);
  return c && c->status == MS_CELL_OK ? c->stats.e2e.median : -1;
}

static const MsCell *
finding_cell (const MsResults *r, MsMode mode, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, r->sweep.max_exp, variant);
  return c && c->status == MS_CELL_OK ? c : NULL;
}

double
ms_finding_phase (const MsResults *r, MsMode mode, const char *variant, MsPhase p)
{
  const MsCell *c = finding_cell (r, mode, variant);
  return c ? c->stats.phase[p].median : -1;
}

double
ms_finding_h2d_gbps (const MsResults *r, MsMode mode, const char *variant)
{
  const MsCell *c = finding_cell (r, mode, variant);
  return c ? c->stats.h2d_gbps : -1;
}

const char *
ms_caption_speed (double ratio, int digits, char *buf, size_t len)
{
  double scale = pow (10, digits);
  if (round (ratio * scale) == scale)
    snprintf (buf, len, "%s", ms_gettext ("equally fast"));
  else if (ratio > 1)
    snprintf (buf, len, ms_gettext ("%.*f× faster"), digits, ratio);
  else
    snprintf (buf, len, ms_gettext ("%.*f× slower"), digits, 1 / ratio);
  return buf;
}

bool
ms_caption_missing (char *buf, size_t len, const char *sentence)
{
  snprintf (buf, len, "%s", sentence);
  return false;
}

/* A summary holds statistics only: a lesson that it cannot answer says
 * which file would, rather than that the run lacks the lesson's cells. */
static void
summary_cannot_answer (const MsResults *results, char *buf, size_t len)
{
  static const char suffix[] = "-summary.csv";
  size_t n = strlen (results->label), k = sizeof suffix - 1;
  /* Named as it lies beside the summary: gzipped where the summary was. */
  if (n > k && strcmp (results->label + n - k, suffix) == 0)
    snprintf (buf, len,
              ms_gettext ("A summary file cannot answer this lesson: open its samples file, "
                          "%.*s-samples.csv%s."),
              (int) (n - k), results->label, results->label_gzipped ? ".gz" : "");
  else
    snprintf (buf, len, "%s",
              ms_gettext ("A summary file cannot answer this lesson: open the samples file "
                          "beside it."));
}

bool
ms_caption_run (MsCaptionFunc caption, const char *missing, const MsResults *results, int exponent,
                char *buf, size_t len)
{
  buf[0] = '\0';
  if (!results || results->n_cells == 0)
    return ms_caption_missing (buf, len, ms_gettext ("No run to describe yet."));
  if (exponent > MS_MAX_EXPONENT)
    exponent = -1;
  bool stated = caption (results, exponent, buf, len);
  if (!stated && results->from_summary)
    summary_cannot_answer (results, buf, len);
  else if (!stated && !buf[0] && missing)
    ms_caption_missing (buf, len, ms_gettext (missing));
  /* A sentence longer than buf was cut: before a character, never inside
   * one (translations hold many multi-byte characters). */
  buf[ms_utf8_prefix (buf, strlen (buf))] = '\0';
  return stated;
}

/* ---- takeaways ------------------------------------------------------------ */

/* Whether the text at p ends a sentence: ". " or "." at its end, or a
 * full stop of Chinese. */
static size_t
sentence_end (const char *p)
{
  if (p[0] == '.' && (p[1] == ' ' || p[1] == '\0'))
    return 1;
  if (strncmp (p, "。", strlen ("。")) == 0)
    return strlen ("。");
  return 0;
}

/* The length of an opening (1) or closing (-1) parenthesis at p, ASCII
 * or full-width, else 0. */
static size_t
parenthesis (const char *p, int *step)
{
  static const struct {
    const char *text;
    int step;
  } marks[] = { { "(", 1 }, { ")", -1 }, { "（", 1 }, { "）", -1 } };
  for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
    if (strncmp (p, marks[i].text, strlen (marks[i].text)) == 0) {
      *step = marks[i].step;
      return strlen (marks[i].text);
    }
  return 0;
}

/* A takeaway reads in five seconds: one line of a projected slide at a
 * back row's size, in columns (about 65 at 1024x768; the line fitted to
 * the slide is the app's, ui/ms-headline.c). */
#define TAKEAWAY_COLUMNS 70

/* Whether code point c is wide (East Asian: Chinese, Japanese, Korean
 * and their full-width forms), about twice a Latin letter's width. */
static bool
wide (unsigned c)
{
  return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF)
         || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF)
         || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60)
         || (c >= 0xFFE0 && c <= 0xFFE6);
}

/* The columns text takes: one a character, two a wide one. */
static size_t
utf8_columns (const char *text)
{
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if ((*p & 0xC0) == 0x80)
      continue;
    unsigned c = *p;
    if ((*p & 0xF0) == 0xE0 && p[1] && p[2])
      c = (unsigned)(*p & 0x0F) << 12 | (unsigned)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
    n += wide (c) ? 2 : 1;
  }
  return n;
}

/* Cuts a line longer than a slide's at its last "; ", else at its last
 * ": " (a sentence's answer comes before the figures that back it), as
 * long as some words are left. */
static void
shorten_to_slide (char *buf)
{
  static const char *const cuts[] = { "; ", "；", ": ", "：" };
  for (size_t c = 0; c < sizeof cuts / sizeof cuts[0] && utf8_columns (buf) > TAKEAWAY_COLUMNS;) {
    char *last = NULL;
    for (char *p = strstr (buf, cuts[c]); p; p = strstr (p + 1, cuts[c]))
      if (p - buf >= 24)
        last = p;
    if (last)
      *last = '\0';
    else
      c++;
  }
}

void
ms_takeaway_from_caption (const char *caption, char *buf, size_t len)
{
  size_t used = 0;
  int depth = 0;
  if (len == 0)
    return;
  for (const char *p = caption; *p && used + 1 < len;) {
    int step = 0;
    size_t mark = parenthesis (p, &step);
    if (depth == 0 && sentence_end (p))
      break;
    if (mark) {
      /* The space before an aside goes with it. */
      if (step > 0 && depth == 0 && used > 0 && buf[used - 1] == ' ')
        used--;
      depth = depth + step < 0 ? 0 : depth + step;
      p += mark;
      continue;
    }
    if (depth == 0)
      buf[used++] = *p;
    p++;
  }
  buf[used] = '\0';
  /* A sentence whose last words were an aside ends without the colon or
   * comma that led into it. */
  while (used > 0 && (buf[used - 1] == ':' || buf[used - 1] == ',' || buf[used - 1] == ' '))
    buf[--used] = '\0';
  buf[ms_utf8_prefix (buf, strlen (buf))] = '\0';
  shorten_to_slide (buf);
}
