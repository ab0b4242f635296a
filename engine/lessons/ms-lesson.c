/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson.c: the lessons' experiments by name, with the reason each is
 * measured (docs/lessons.md). Their titles and questions are those of the
 * lesson topics (ms-lesson-caption.c), the app's cards: one set. */
#include <string.h>

#include "memsweep.h"
#include "ms-i18n.h"
#include "ms-lesson-private.h"

static const MsLessonInfo lessons[] = {
  { "reuse",
    MS_N_ ("The kernel reads its inputs R times. Zero-copy and UVA cross PCIe on every access, "
           "managed memory faults its pages over once, pinned copies them once: zero-copy "
           "suits data touched once, and the crossover R shows where that ends.") },
  { "duplex",
    MS_N_ ("PCIe carries both directions at once: a copy each way on two streams takes about as "
           "long as one alone when the GPU has two copy engines. This is why zero-copy, which "
           "reads and writes at the same time, can pass the per-direction line.") },
  { "issue-order",
    MS_N_ ("The teaching material says that with one hardware work queue "
           "(CUDA_DEVICE_MAX_CONNECTIONS=1) the issue order decides what overlaps. This run "
           "measures it plainly (no timers between the steps) at K = 1 to 16 streams, on one "
           "queue and on the default ones, and again on one queue with an event pair around "
           "every step, as a per-phase timer records them: the caption says which of the two "
           "made a difference on this GPU. Also host work overlapping the copies.") },
  { "cache-state",
    MS_N_ ("The host writes the inputs with streaming stores, with ordinary stores (dirty lines "
           "in the CPU cache) or into freshly allocated pinned buffers (first use). The CPU "
           "reading write-combined memory, which the material warns against, is timed as the "
           "verify phase of its own variant.") },
  { "managed-touch",
    MS_N_ ("Fresh managed buffers fault every page on first touch; buffers already on the "
           "device run without faults; prefetching moves the pages in bulk before the kernel "
           "needs them. Where CUPTI allows, its unified-memory counters count the page faults "
           "and the bytes migrated each way in one extra repetition after the timed ones, "
           "since counting slows the faults down: the times come from repetitions without "
           "counters.") },
  { "costs",
    MS_N_ ("A profile shows these calls beside the copies: creating the context, the first "
           "cudaMalloc, cudaMallocHost against malloc, cudaHostRegister and the frees, per "
           "call and per MiB.") },
};

#define N_SWEEP_LESSONS ((int) (sizeof lessons / sizeof lessons[0]))

/* The sweep lessons, then the probe lessons (ms-lesson-probes.c). */
int
ms_lesson_count (void)
{
  return N_SWEEP_LESSONS + ms_probe_lesson_count ();
}

const MsLessonInfo *
ms_lesson_nth (int index)
{
  if (index >= 0 && index < N_SWEEP_LESSONS)
    return &lessons[index];
  const MsProbeLesson *probe = ms_probe_lesson_nth (index - N_SWEEP_LESSONS);
  return probe ? &probe->info : NULL;
}

const MsLessonInfo *
ms_lesson_find (const char *name)
{
  for (int i = 0; name && i < ms_lesson_count (); i++)
    if (strcmp (ms_lesson_nth (i)->name, name) == 0)
      return ms_lesson_nth (i);
  return NULL;
}

const char *
ms_lesson_reason (const char *name)
{
  const MsLessonInfo *lesson = ms_lesson_find (name);
  return lesson ? lesson->reason : NULL;
}
