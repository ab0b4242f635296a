/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-portable.c: the portable lesson (docs/lessons.md): portable
 * pinned memory (cudaHostAllocPortable). A plain sweep of pinned answers
 * it for one GPU, `memsweep portable` with two or more: measured with the
 * run, or a file of it opened or shipped (the run in use, kept here). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"
#include "ms-portable-file.h"

#define NAME "portable"

/* The portable run in use (ms_lesson_portable_use) and its name. */
static MsLessonShipped shown;
/* Whether it is the shipped one (ms_lesson_portable_use_shipped). */
static bool shown_shipped;

/* One GPU: the flag has no second context to pin the buffer for. */
static bool
caption_portable_one (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, "");
    if (!pin || !(pin->stats.h2d_gbps > 0))
      continue;
    char size[32];
    if (r->device.count >= 2)
      snprintf (buf, len,
                ms_gettext ("This host has %d GPUs, but this run used one, the %s: its pinned "
                            "memory is pinned for the one CUDA context the run has."),
                r->device.count, ms_caption_device (r));
    else
      snprintf (buf, len,
                ms_gettext ("With one GPU (%s), pinned memory is pinned for the only CUDA "
                            "context (the GPU's working state in this program) there is."),
                ms_caption_device (r));
    ms_caption_append (
        buf, len,
        ms_gettext ("cudaHostAllocPortable changes nothing here: for that one context a "
                    "portable buffer is the same pinned memory as this run's, whose copies "
                    "reach %.1f GB/s to the device at %s."),
        pin->stats.h2d_gbps, ms_caption_size (pin, size, sizeof size));
    /* Under unified addressing the runtime treats pinned memory as pinned
     * for every GPU in the address space, the flag or not: the textbook's
     * reason for the flag is gone, and only two GPUs can show it. */
    ms_caption_append (
        buf, len,
        r->device.unified_addressing
            ? ms_gettext ("With unified addressing, which this GPU has, CUDA treats memory from "
                          "cudaHostAlloc or cudaMallocHost as pinned for every GPU, the flag or "
                          "not: on two or more GPUs this lesson measures whether a buffer "
                          "pinned by the first runs as fast on the second.")
            : ms_gettext ("Without unified addressing a second GPU would see a buffer pinned "
                          "by the first as pageable unless it was allocated portable: run this "
                          "lesson on two or more GPUs to measure it."));
    return true;
  }
  return false;
}

/* The first GPU other than the first with all three buffers measured, or -1. */
static int
portable_other_gpu (const MsPortableResults *p)
{
  for (int i = 1; i < p->n_devices && i < MS_MULTI_MAX_DEVICES; i++)
    if (p->cell[MS_PORTABLE_PER_DEVICE][i].ok && p->cell[MS_PORTABLE_SHARED][i].ok
        && p->cell[MS_PORTABLE_FOREIGN][i].ok)
      return i;
  return -1;
}

/* The run's GPU in words: the file's first GPU for the file in use. */
static void
gpu_words (const MsResults *run, const MsPortableResults *p, char *out, size_t len)
{
  const MsPortableFile *file = shown.file;
  if (file && p == &file->portable)
    ms_portable_file_gpu_name (file, 0, out, len);
  else
    snprintf (out, len, "%s", run && run->device.name[0] ? run->device.name : ms_gettext ("GPU"));
}

/* p when it has two GPUs or more, else the file in use when it has. */
static const MsPortableResults *
two_gpus (const MsPortableResults *p)
{
  if (p && p->n_devices >= 2)
    return p;
  const MsPortableFile *file = ms_lesson_portable_shown (NULL);
  return file ? &file->portable : NULL;
}

bool
ms_lesson_portable_caption (const MsResults *run, const MsPortableResults *p, char *buf, size_t len)
{
  if (!buf || len == 0)
    return false;
  buf[0] = '\0';
  p = two_gpus (p);
  if (!p)
    return ms_caption_run (caption_portable_one, ms_lesson_portable.missing, run, -1, buf, len);
  int i = portable_other_gpu (p);
  if (i < 0)
    return ms_caption_missing (
        buf, len,
        ms_gettext ("The portable experiment measured no second GPU with all three "
                    "buffers."));
  const MsPortableCell *own = &p->cell[MS_PORTABLE_PER_DEVICE][i];
  const MsPortableCell *shared = &p->cell[MS_PORTABLE_SHARED][i];
  const MsPortableCell *foreign = &p->cell[MS_PORTABLE_FOREIGN][i];
  char size[32], gpu[256];
  ms_format_bytes (p->bytes, size, sizeof size);
  gpu_words (run, p, gpu, sizeof gpu);
  snprintf (buf, len,
            ms_gettext ("With %d GPUs (%s), copies of %s to the second GPU reach %.1f GB/s from "
                        "a portable buffer, %.1f GB/s from a buffer pinned for it and %.1f GB/s "
                        "from one pinned by the first GPU only."),
            p->n_devices, gpu, size, shared->h2d_gbps, own->h2d_gbps, foreign->h2d_gbps);
  ms_caption_append (
      buf, len,
      foreign->pinned_path
          ? ms_gettext ("The runtime treats the first GPU's buffer as pinned for the second "
                        "too, so the flag changes nothing on this system.")
          : ms_gettext ("The runtime does not treat the first GPU's buffer as pinned for the "
                        "second: that is what cudaHostAllocPortable is for."));
  return true;
}

/* A rate as the picture shows it (one decimal), so that a ratio quoted
 * divides out from the figures on the slide. */
static double
shown_gbps (double gbps)
{
  return round (gbps * 10) / 10;
}

/* Whether every buffer measured copied as fast to every GPU (within 5 per
 * cent of the slowest), with the rates as the picture shows them: the
 * slowest and fastest, rounded to whole GB/s, in words ("55 GB/s", "54
 * to 56 GB/s"). */
static bool
all_as_fast (const MsPortableResults *p, char *rate, size_t len)
{
  double lo = INFINITY, hi = 0;
  for (int b = 0; b < MS_PORTABLE_COUNT; b++)
    for (int i = 0; i < p->n_devices && i < MS_MULTI_MAX_DEVICES; i++) {
      const MsPortableCell *c = &p->cell[b][i];
      if (!c->ok || !(c->h2d_gbps > 0))
        continue;
      lo = fmin (lo, shown_gbps (c->h2d_gbps));
      hi = fmax (hi, shown_gbps (c->h2d_gbps));
    }
  if (!(hi > 0) || hi > lo * 1.05)
    return false;
  if (round (lo) == round (hi))
    snprintf (rate, len, ms_gettext ("%.0f GB/s"), lo);
  else
    /* TRANSLATORS: the slowest and fastest copy rates, e.g. "54 to 56 GB/s". */
    snprintf (rate, len, ms_gettext ("%.0f to %.0f GB/s"), lo, hi);
  return true;
}

/* The finding where every buffer copied as fast to every GPU it was
 * tried on: that even the first GPU's own pinned buffer serves the
 * others, which makes the portable flag moot here. Scoped to the pairs
 * measured: the first GPU is not tried with another's buffer, and "every
 * buffer gave both GPUs" claimed that pair too. */
static void
any_buffer_line (const MsPortableResults *p, bool borrowed, const char *rate, char *buf,
                 size_t len)
{
  char there[256], there_short[64];
  if (!borrowed) {
    /* TRANSLATORS: one projected line, e.g. "Portable or not, every buffer
     * and GPU pair tried gave 55 GB/s". */
    snprintf (buf, len, ms_gettext ("Portable or not, every buffer and GPU pair tried gave %s"),
              rate);
    return;
  }
  /* Another host's rate, said in the headline itself: beside the deck's
   * own GPU's rates on other slides, a class read it as that GPU's. */
  ms_portable_file_gpu_name (shown.file, 0, there, sizeof there);
  ms_lesson_gpu_model (there, there_short, sizeof there_short);
  /* TRANSLATORS: one projected line, e.g. "Yes on 2 × H200: portable or
   * not, each bar shows 55 GB/s" (of the pairs drawn: "every buffer",
   * "every buffer tried" and "each pair tried" were each read as the pair
   * not tried too). */
  snprintf (buf, len, ms_gettext ("Yes on %d × %s: portable or not, each bar shows %s"),
            p->n_devices, there_short, rate);
}

/* GPU i's copies to the device from the portable buffer and from the first
 * GPU's, each against those from its own buffer: "as fast" within 5 per
 * cent, else the share of its own rate. */
static void
portable_line (const MsPortableResults *p, int i, char *buf, size_t len)
{
  double own = shown_gbps (p->cell[MS_PORTABLE_PER_DEVICE][i].h2d_gbps);
  double shared = 100 * shown_gbps (p->cell[MS_PORTABLE_SHARED][i].h2d_gbps) / own;
  double foreign = 100 * shown_gbps (p->cell[MS_PORTABLE_FOREIGN][i].h2d_gbps) / own;
  bool same_shared = fabs (shared - 100) <= 5, same_foreign = fabs (foreign - 100) <= 5;
  int gpu = p->devices[i], first = p->devices[0];
  if (gpu == first) /* a result without its CUDA indices: the slots */
    gpu = i, first = 0;
  if (same_shared && same_foreign)
    snprintf (buf, len,
              ms_gettext ("GPU %d copies as fast from the portable and GPU %d's buffers as its "
                          "own"),
              gpu, first);
  else if (same_shared)
    snprintf (buf, len, ms_gettext ("GPU %d: portable buffer as fast as its own, GPU %d's at %.0f%%"),
              gpu, first, foreign);
  else if (same_foreign)
    snprintf (buf, len, ms_gettext ("GPU %d: portable buffer at %.0f%% of its own, GPU %d's as fast"),
              gpu, shared, first);
  else
    snprintf (buf, len,
              ms_gettext ("GPU %d: portable buffer at %.0f%% of its own, GPU %d's at %.0f%%"),
              gpu, shared, first, foreign);
}

/* The run in use has one GPU, and the slide draws a run of two or more
 * from a host that has them: a class reads any figure on it as this
 * GPU's unless the line says where it was measured, in the one clause it
 * has. "On another host's 2 × H200" puzzled a class whose GPU was an
 * H200 too: the line says plainly where, the picture why (the lesson
 * needs two GPUs). */
static void
borrowed_line (const MsResults *run, const MsPortableResults *p, int i, char *buf, size_t len)
{
  (void)run;
  char there[256], there_short[64];
  ms_portable_file_gpu_name (shown.file, 0, there, sizeof there);
  ms_lesson_gpu_model (there, there_short, sizeof there_short);
  double own = shown_gbps (p->cell[MS_PORTABLE_PER_DEVICE][i].h2d_gbps);
  double shared = 100 * shown_gbps (p->cell[MS_PORTABLE_SHARED][i].h2d_gbps) / own;
  if (fabs (shared - 100) <= 5)
    /* TRANSLATORS: the count of GPUs and the GPU of the host the run
     * shown was measured on ("Measured on 2 × H200: ..."): a
     * buffer allocated portable against one pinned for each GPU. */
    snprintf (buf, len,
              ms_gettext ("Measured on %d × %s: portable copied as fast as per-GPU pinned"),
              p->n_devices, there_short);
  else
    snprintf (buf, len,
              ms_gettext ("Measured on %d × %s: portable copied at %.0f%% of per-GPU "
                          "pinned"),
              p->n_devices, there_short, shared);
}

MsTakeaway
ms_lesson_portable_takeaway (const MsResults *run, const MsPortableResults *p, char *buf,
                             size_t len)
{
  if (!buf || len == 0)
    return MS_TAKEAWAY_MISSING;
  buf[0] = '\0';
  const MsPortableResults *own = p;
  p = two_gpus (p);
  const MsPortableFile *file = shown.file;
  bool borrowed = p && p != own && file && p == &file->portable;
  if (!p) {
    /* The flag is about a second GPU: one GPU's run cannot show it, and
     * the pinned copies beside it must not read as its effect. */
    char caption[1024];
    if (!ms_lesson_portable_caption (run, NULL, caption, sizeof caption)) {
      ms_takeaway_from_caption (caption, buf, len);
      return MS_TAKEAWAY_MISSING;
    }
    /* What a class takes away from one GPU, in one line: the flag is
     * about a second GPU's context ("about a second" read as a time). */
    snprintf (buf, len, "%s",
              ms_gettext ("With one GPU a portable buffer is plain pinned memory: nothing to "
                          "show"));
    return MS_TAKEAWAY_UNDECIDED;
  }
  int i = portable_other_gpu (p);
  if (i < 0)
    return ms_lesson_portable_caption (run, p, buf, len), MS_TAKEAWAY_MISSING;
  char rate[64];
  if (all_as_fast (p, rate, sizeof rate))
    any_buffer_line (p, borrowed, rate, buf, len);
  else if (borrowed && run)
    borrowed_line (run, p, i, buf, len);
  else
    portable_line (p, i, buf, len);
  return MS_TAKEAWAY_DECIDED;
}

static MsTakeaway
takeaway_portable_one (const MsResults *r, char *buf, size_t len)
{
  return ms_lesson_portable_takeaway (r, NULL, buf, len);
}

/* The record's caption: the file in use where there is one, else the
 * run's one GPU. */
static bool
caption_portable (const MsResults *r, int exponent, char *buf, size_t len)
{
  if (ms_lesson_portable_shown (NULL))
    return ms_lesson_portable_caption (r, NULL, buf, len);
  return caption_portable_one (r, exponent, buf, len);
}

/* ---- the portable run in use ------------------------------------------ */

void
ms_lesson_portable_use (const MsPortableFile *file, const char *path)
{
  shown_shipped = false;
  ms_lesson_shipped_set (&shown, file, sizeof *file, path);
}

const MsPortableFile *
ms_lesson_portable_shown (const char **name)
{
  const MsPortableFile *file = shown.file;
  file = file && file->portable.n_devices >= 2 ? file : NULL;
  if (name)
    *name = file ? shown.name : NULL;
  return file;
}

bool
ms_lesson_portable_use_shipped (const char *dir, char *err, size_t errlen)
{
  ms_lesson_portable_use (NULL, NULL);
  /* The first by name that reads. */
  shown_shipped = ms_lesson_shipped_read (dir, "-portable.csv", &ms_portable_file_format, 1, &shown,
                                          1, err, errlen)
                  > 0;
  if (!shown_shipped && !err[0])
    snprintf (err, errlen, ms_gettext ("no *-portable.csv in %s"), dir ? dir : "?");
  return shown_shipped;
}

static bool
elsewhere_portable (const MsResults *run, MsLessonElsewhere *out)
{
  (void) run;
  const char *name;
  const MsPortableFile *file = ms_lesson_portable_shown (&name);
  if (!file)
    return false;
  out->n_devices = file->portable.n_devices;
  ms_lesson_gpu_model (file->device[0].name, out->model, sizeof out->model);
  snprintf (out->day, sizeof out->day, "%.10s", file->date);
  snprintf (out->name, sizeof out->name, "%s", name);
  /* A shipped run was measured on another machine: the slide says so, as
   * every other slide drawn from a reference run does. */
  out->reference = shown_shipped;
  return true;
}

const MsLesson ms_lesson_portable = {
  .card = { .name = NAME,
            .modes = "pinned",
            .plain = true,
            .title = MS_N_ ("Portable pinned memory (cudaHostAllocPortable)"),
            .question = MS_N_ ("Does one pinned buffer serve every GPU as well as a buffer pinned "
                               "for each?") },
  .caption = caption_portable,
  .missing = MS_N_ ("This run has no pinned copies to speak of the portable flag with."),
  .takeaway = takeaway_portable_one,
  .multi_gpu = true,
  .elsewhere = elsewhere_portable,
};
