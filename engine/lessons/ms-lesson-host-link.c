/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-host-link.c: the host-link lesson (docs/lessons.md): the host
 * link under every GPU at once. One GPU cannot show it: the lesson reads a
 * run of `memsweep host-link --out` on a host with several GPUs, shipped
 * in the reference runs' folder or given (ms-lesson-host-link.h), whatever
 * run the card holds. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/ms-reference-dir.h"
#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-host-link.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"

#define NAME "host-link"
#define SUFFIX "-host-link.csv"
/* Shipped runs looked at: a few hosts' at most. */
#define MAX_SHIPPED 8
/* At once below this part of alone summed, the GPUs shared something. */
#define SATURATED 0.9

/* ---- the run in use --------------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static MsLessonShipped given; /* ms_lesson_host_link_use's */
static bool given_set;
/* The shipped ones, read once and kept: what was handed out stays valid. */
static MsLessonShipped shipped[MAX_SHIPPED];
static int n_shipped = -1;

/* The run's GPU model in lower case ("h100"), or "", as the shipped
 * files' names begin. */
static void
run_model (const MsResults *run, char *out, size_t len)
{
  out[0] = '\0';
  if (run && run->device.name[0])
    ms_lesson_gpu_model (run->device.name, out, len);
  for (char *p = out; *p; p++)
    *p = (char) tolower ((unsigned char) *p);
}

/* The shipped run of run's GPU model (h100xN-... for an H100) with the
 * most GPUs, else the one with the most GPUs, the first by name among
 * equals: a run of four, once shipped beside one of two, is the one shown
 * (more GPUs share the host's side more), with no change here. */
static const MsLessonShipped *
pick_shipped (const MsResults *run)
{
  char model[32];
  run_model (run, model, sizeof model);
  size_t n = strlen (model);
  const MsLessonShipped *best = NULL;
  int best_score = -1;
  for (int i = 0; i < n_shipped; i++) {
    bool same = n && strncmp (shipped[i].name, model, n) == 0 && shipped[i].name[n] == 'x';
    const MsHostLinkFile *file = shipped[i].file;
    int score = (same ? MS_MULTI_MAX_DEVICES + 1 : 0) + file->link.n_devices;
    if (score > best_score) {
      best = &shipped[i];
      best_score = score;
    }
  }
  return best;
}

const MsHostLinkFile *
ms_lesson_host_link_shown (const MsResults *run, const char **name)
{
  char err[512];
  pthread_mutex_lock (&lock);
  /* The shipped runs of two GPUs or more, read the first time. */
  if (!given_set && n_shipped < 0)
    n_shipped = ms_lesson_shipped_read (ms_reference_runs_dir (), SUFFIX, &ms_host_link_file_format,
                                        2, shipped, MAX_SHIPPED, err, sizeof err);
  const MsLessonShipped *s = given_set ? (given.file ? &given : NULL) : pick_shipped (run);
  pthread_mutex_unlock (&lock);
  if (name)
    *name = s ? s->name : NULL;
  return s ? s->file : NULL;
}

void
ms_lesson_host_link_use (const MsHostLinkFile *file, const char *path)
{
  pthread_mutex_lock (&lock);
  /* Set from the thread that draws, as the portable lesson's: what was
   * handed out before goes. */
  given_set = file != NULL;
  ms_lesson_shipped_set (&given, file && file->link.n_devices >= 2 ? file : NULL, sizeof *file,
                         path);
  pthread_mutex_unlock (&lock);
}

/* Whether the run shown is a shipped one (a reference run, measured on
 * another machine) rather than one given. */
static bool
is_shipped (void)
{
  pthread_mutex_lock (&lock);
  bool shipped_shown = !given_set;
  pthread_mutex_unlock (&lock);
  return shipped_shown;
}

/* The shown run's GPUs, day and file, and whether it was shipped. */
static bool
elsewhere_host_link (const MsResults *run, MsLessonElsewhere *out)
{
  const char *name;
  const MsHostLinkFile *file = ms_lesson_host_link_shown (run, &name);
  if (!file)
    return false;
  out->n_devices = file->link.n_devices;
  ms_lesson_gpu_model (file->device[0].name, out->model, sizeof out->model);
  snprintf (out->day, sizeof out->day, "%.10s", file->date);
  snprintf (out->name, sizeof out->name, "%s", name);
  out->reference = is_shipped ();
  return true;
}

/* ---- its figures ------------------------------------------------------- */

static void
widen (MsHostLinkRange *r, double v)
{
  r->lo = fmin (r->lo, v);
  r->hi = fmax (r->hi, v);
}

/* One size's figures into f; false where a copy failed. */
static bool
take_size (const MsHostLinkResults *r, int s, MsHostLinkFigures *f)
{
  for (int d = 0; d < MS_HOST_LINK_COUNT; d++) {
    double all = ms_host_link_total (r, d, s, true), alone = ms_host_link_total (r, d, s, false);
    for (int i = 0; i < r->n_devices; i++) {
      if (!(r->together[d][s][i] > 0) || !(r->alone[d][s][i] > 0))
        return false;
      widen (&f->alone[d], r->alone[d][s][i]);
      widen (&f->share[d], r->together[d][s][i] / all);
    }
    widen (&f->total[d], all);
    widen (&f->ratio[d], all / alone);
  }
  return true;
}

bool
ms_lesson_host_link_figures (const MsHostLinkFile *file, MsHostLinkFigures *out)
{
  const MsHostLinkResults *r = &file->link;
  MsHostLinkFigures f = { 0 };
  for (int d = 0; d < MS_HOST_LINK_COUNT; d++)
    f.total[d] = f.ratio[d] = f.alone[d] = f.share[d] = (MsHostLinkRange) { INFINITY, 0 };
  if (r->n_devices < 2 || r->n_sizes < 1)
    return false;
  for (int s = 0; s < r->n_sizes; s++) {
    if (!take_size (r, s, &f))
      return false;
    if (r->exps[s] > r->exps[f.shown])
      f.shown = s;
  }
  *out = f;
  return true;
}

/* ---- its words ---------------------------------------------------------- */

/* lo to hi as the caption says it: "55 GB/s", "154 to 159 GB/s". */
static const char *
rate_range (MsHostLinkRange r, char *buf, size_t len)
{
  if (round (r.lo) == round (r.hi))
    snprintf (buf, len, ms_gettext ("%.0f GB/s"), r.lo);
  else
    snprintf (buf, len, ms_gettext ("%.0f to %.0f GB/s"), r.lo, r.hi);
  return buf;
}

/* "0.71", "0.70 to 0.72" (of the sum alone); "24 to 26%" (shares). */
static const char *
ratio_range (MsHostLinkRange r, char *buf, size_t len)
{
  if (round (r.lo * 100) == round (r.hi * 100))
    snprintf (buf, len, "%.2f", r.lo);
  else
    /* TRANSLATORS: the least and most of a ratio, "0.70 to 0.72". */
    snprintf (buf, len, ms_gettext ("%.2f to %.2f"), r.lo, r.hi);
  return buf;
}

static const char *
share_range (MsHostLinkRange r, char *buf, size_t len)
{
  if (round (r.lo * 100) == round (r.hi * 100))
    snprintf (buf, len, ms_gettext ("%.0f%%"), 100 * r.lo);
  else
    snprintf (buf, len, ms_gettext ("%.0f to %.0f%%"), 100 * r.lo, 100 * r.hi);
  return buf;
}

/* Whether all at once moved clearly less than each alone summed, one way
 * (to the GPUs or back) at every size. */
static bool
saturated (const MsHostLinkFigures *f)
{
  return f->ratio[MS_HOST_LINK_H2D].hi < SATURATED || f->ratio[MS_HOST_LINK_D2H].hi < SATURATED;
}

/* The first sentences: whose run, and the copies to the GPUs. */
static void
caption_where (const MsHostLinkFile *file, const MsHostLinkFigures *f, char *buf, size_t len)
{
  const MsHostLinkResults *r = &file->link;
  char model[64], alone[64], total[64], ratio[64], small[32], large[32], day[16];
  ms_lesson_gpu_model (file->device[0].name, model, sizeof model);
  snprintf (day, sizeof day, "%.10s", file->date[0] ? file->date : "?");
  int lo = 0, hi = 0;
  for (int s = 0; s < r->n_sizes; s++) {
    lo = r->exps[s] < r->exps[lo] ? s : lo;
    hi = r->exps[s] > r->exps[hi] ? s : hi;
  }
  ms_format_bytes ((uint64_t) 4 << r->exps[lo], small, sizeof small);
  ms_format_bytes ((uint64_t) 4 << r->exps[hi], large, sizeof large);
  /* A shipped run was measured on another machine, and says so. */
  snprintf (buf, len,
            is_shipped () ? ms_gettext ("A reference run, measured on another host with %d × %s "
                                        "(%s): each GPU alone copied %s from its own pinned "
                                        "memory to its memory.")
                          : ms_gettext ("A run on a host with %d × %s (%s): each GPU alone "
                                        "copied %s from its own pinned memory to its memory."),
            r->n_devices, model, day, rate_range (f->alone[MS_HOST_LINK_H2D], alone, sizeof alone));
  ms_caption_append (buf, len,
                     ms_gettext ("The %d GPUs at once moved %s in all, %s of each alone summed, "
                                 "at every size from %s to %s."),
                     r->n_devices, rate_range (f->total[MS_HOST_LINK_H2D], total, sizeof total),
                     ratio_range (f->ratio[MS_HOST_LINK_H2D], ratio, sizeof ratio), small, large);
}

/* The last sentences: what the host's side kept up with, and what not. */
static void
caption_why (const MsHostLinkFile *file, const MsHostLinkFigures *f, char *buf, size_t len)
{
  char share[64];
  if (saturated (f)) {
    /* All of the run's GPUs at once, no fewer: a run of two H200s kept up
     * one way (data/reference/h200x2-host-link). */
    ms_caption_append (buf, len,
                       ms_gettext ("Each GPU got %s of the total: with all %d copying at once, "
                                   "the host side they share saturates, not each card's own "
                                   "link."),
                       share_range (f->share[MS_HOST_LINK_H2D], share, sizeof share),
                       file->link.n_devices);
    return;
  }
  ms_caption_append (buf, len,
                     ms_gettext ("One way at a time, every GPU copied about as fast at once as "
                                 "alone: this host's side kept up with the %d links."),
                     file->link.n_devices);
  /* Both ways at once may still be more than the host's side moves. */
  if (f->ratio[MS_HOST_LINK_BOTH].lo < SATURATED)
    ms_caption_append (buf, len,
                       ms_gettext ("Both ways at once it did not: the GPUs together got as little "
                                   "as %.2f of each alone summed."),
                       f->ratio[MS_HOST_LINK_BOTH].lo);
}

static bool
caption_host_link (const MsResults *run, int exponent, char *buf, size_t len)
{
  (void) exponent;
  const MsHostLinkFile *file = ms_lesson_host_link_shown (run, NULL);
  MsHostLinkFigures f;
  if (!file || !ms_lesson_host_link_figures (file, &f))
    return false;
  caption_where (file, &f, buf, len);
  char d2h[64], d2h_ratio[64], both[64], both_ratio[64];
  ms_caption_append (buf, len,
                     ms_gettext ("Back to the host: %s in all (%s of alone); both ways at once: "
                                 "%s (%s)."),
                     rate_range (f.total[MS_HOST_LINK_D2H], d2h, sizeof d2h),
                     ratio_range (f.ratio[MS_HOST_LINK_D2H], d2h_ratio, sizeof d2h_ratio),
                     rate_range (f.total[MS_HOST_LINK_BOTH], both, sizeof both),
                     ratio_range (f.ratio[MS_HOST_LINK_BOTH], both_ratio, sizeof both_ratio));
  caption_why (file, &f, buf, len);
  return true;
}

static MsTakeaway
takeaway_host_link (const MsResults *run, char *buf, size_t len)
{
  const MsHostLinkFile *file = ms_lesson_host_link_shown (run, NULL);
  MsHostLinkFigures f;
  if (!file || !ms_lesson_host_link_figures (file, &f)) {
    snprintf (buf, len, "%s", ms_gettext ("No run of two or more GPUs at once to show here"));
    return MS_TAKEAWAY_MISSING;
  }
  const MsHostLinkResults *r = &file->link;
  char model[64];
  ms_lesson_gpu_model (file->device[0].name, model, sizeof model);
  int s = f.shown, n = r->n_devices;
  /* The figures as the picture draws them, at its size: one way, or both
   * ways where one way kept up and both did not. */
  MsHostLinkDirection d = saturated (&f) ? MS_HOST_LINK_H2D : MS_HOST_LINK_BOTH;
  double all = ms_host_link_total (r, d, s, true), alone = ms_host_link_total (r, d, s, false);
  if (saturated (&f)) {
    /* The shares of the three directions, as the bars' labels give them:
     * one way's alone read as the whole loss (issue 92). */
    double lo = 1, hi = 0;
    for (int k = 0; k < MS_HOST_LINK_COUNT; k++) {
      double q = ms_host_link_total (r, k, s, true) / ms_host_link_total (r, k, s, false);
      lo = fmin (lo, q), hi = fmax (hi, q);
    }
    /* TRANSLATORS: the host-link slide's headline, e.g. "No: 4 × H200
     * (another host) at once got 40–77% of one at a time": the answer, then
     * the shares of the three directions as the bars of all at once give
     * them; %s: " (another host)" for a reference run, whose rates beside
     * the deck's own read as this GPU's, or nothing; 63 characters at most. */
    snprintf (buf, len, ms_gettext ("No: %d × %s%s at once got %.0f–%.0f%% of one at a time"), n,
              model, is_shipped () ? ms_gettext (" (another host)") : "", 100 * lo, 100 * hi);
  } else if (all < SATURATED * alone)
    /* TRANSLATORS: the host-link slide's headline where one way kept up
     * and both ways did not, e.g. "2 × H200 at once: as fast as alone one
     * way; both ways 136 GB/s, not 188". */
    snprintf (buf, len,
              ms_gettext ("%d × %s at once: as fast as alone one way; both ways %.0f GB/s, "
                          "not %.0f"),
              n, model, all, alone);
  else
    snprintf (buf, len, ms_gettext ("%d × %s at once: each GPU copied as fast as alone"), n,
              model);
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_host_link = {
  .card = { .name = NAME,
            .modes = "pinned",
            .plain = true,
            .title = MS_N_ ("The host link under every GPU"),
            .question = MS_N_ ("Do GPUs copying at once each get their own link’s speed?") },
  .caption = caption_host_link,
  .missing = MS_N_ ("No run of two or more GPUs copying at once is shipped or open: memsweep "
                    "host-link --out PREFIX on such a host makes one."),
  .takeaway = takeaway_host_link,
  .elsewhere = elsewhere_host_link,
};
