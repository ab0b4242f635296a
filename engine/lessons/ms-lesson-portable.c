/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-portable.c: the portable lesson (docs/lessons.md): portable
 * pinned memory (cudaHostAllocPortable). A plain sweep of pinned answers
 * it for one GPU, `memsweep portable` with two or more. */
#include <stdio.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-modes.h"

#define NAME "portable"

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

bool
ms_lesson_portable_caption (const MsResults *run, const MsPortableResults *p, char *buf, size_t len)
{
  if (!buf || len == 0)
    return false;
  buf[0] = '\0';
  if (!p || p->n_devices < 2)
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
  char size[32];
  ms_format_bytes (p->bytes, size, sizeof size);
  snprintf (buf, len,
            ms_gettext ("With %d GPUs (%s), copies of %s to the second GPU reach %.1f GB/s from "
                        "a portable buffer, %.1f GB/s from a buffer pinned for it and %.1f GB/s "
                        "from one pinned by the first GPU only."),
            p->n_devices, run && run->device.name[0] ? run->device.name : ms_gettext ("GPU"), size,
            shared->h2d_gbps, own->h2d_gbps, foreign->h2d_gbps);
  ms_caption_append (
      buf, len,
      foreign->pinned_path
          ? ms_gettext ("The runtime treats the first GPU's buffer as pinned for the second "
                        "too, so the flag changes little on this system.")
          : ms_gettext ("The runtime does not treat the first GPU's buffer as pinned for the "
                        "second: that is what cudaHostAllocPortable is for."));
  return true;
}

MsTakeaway
ms_lesson_portable_takeaway (const MsResults *run, const MsPortableResults *p, char *buf,
                             size_t len)
{
  if (!buf || len == 0)
    return MS_TAKEAWAY_MISSING;
  buf[0] = '\0';
  if (!p || p->n_devices < 2) {
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
  const MsPortableCell *own = &p->cell[MS_PORTABLE_PER_DEVICE][i];
  const MsPortableCell *foreign = &p->cell[MS_PORTABLE_FOREIGN][i];
  snprintf (buf, len,
            foreign->pinned_path
                ? ms_gettext ("GPU %d: %.1f GB/s from GPU 0's pinned buffer, %.1f GB/s from "
                              "its own")
                : ms_gettext ("GPU %d: only %.1f GB/s from GPU 0's buffer, %.1f GB/s from its "
                              "own"),
            i, foreign->h2d_gbps, own->h2d_gbps);
  return MS_TAKEAWAY_DECIDED;
}

static MsTakeaway
takeaway_portable_one (const MsResults *r, char *buf, size_t len)
{
  return ms_lesson_portable_takeaway (r, NULL, buf, len);
}

const MsLesson ms_lesson_portable = {
  .card = { .name = NAME,
            .modes = "pinned",
            .plain = true,
            .title = MS_N_ ("Portable pinned memory (cudaHostAllocPortable)"),
            .question = MS_N_ ("Does one pinned buffer serve every GPU as well as a buffer pinned "
                               "for each?") },
  .caption = caption_portable_one,
  .missing = MS_N_ ("This run has no pinned copies to speak of the portable flag with."),
  .takeaway = takeaway_portable_one,
  .multi_gpu = true,
};
