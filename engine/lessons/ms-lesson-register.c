/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-register.c: the register-allocate lesson (docs/lessons.md):
 * registering existing memory (cudaHostRegister) against allocating
 * pinned memory (cudaMallocHost). A plain sweep of both answers it; the
 * caption says from how many repetitions allocating once is cheaper. */
#include <math.h>
#include <stdio.h>

#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"

#define NAME "register-allocate"

int
ms_register_cheaper_from (double reg_us, double reg_e2e_us, double alloc_us, double pin_e2e_us,
                          double *cross)
{
  /* What each repetition costs more registered than pinned. */
  double per_rep = reg_us + reg_e2e_us - pin_e2e_us;
  if (!(per_rep > 0) || !(alloc_us >= 0))
    return 0;
  if (cross)
    *cross = alloc_us / per_rep;
  return (int)floor (alloc_us / per_rep) + 1;
}

static bool
caption_register (const MsResults *r, int exponent, char *buf, size_t len)
{
  FOR_EACH_EXP (e, exponent)
  {
    const MsCell *reg = ms_caption_measured (r, MS_MODE_REGISTERED, e, "");
    const MsCell *pin = ms_caption_measured (r, MS_MODE_PINNED, e, "");
    if (!reg || !pin || !(reg->stats.h2d_gbps > 0) || !(pin->stats.h2d_gbps > 0))
      continue;
    char size[32], total[32], t_reg[32], t_alloc[32], t_e2e[32];
    const MsStat *st_reg = &reg->stats.phase_host[MS_PHASE_REGISTER];
    const MsStat *st_alloc = &pin->stats.phase_host[MS_PHASE_ALLOC];
    /* Both modes hold three vectors of the cell's size. */
    ms_format_bytes (3 * pin->elements * sizeof (float), total, sizeof total);
    snprintf (buf, len,
              ms_gettext ("At %s, copies to the device from registered memory run at %.1f "
                          "GB/s against %.1f GB/s from cudaMallocHost memory (medians of the "
                          "copies alone)."),
              ms_caption_size (pin, size, sizeof size), reg->stats.h2d_gbps, pin->stats.h2d_gbps);
    /* The two costs come at different times (registered memory is pinned
     * and unpinned in every repetition, pinned buffers allocated once per
     * cell) and the pin-payoff lesson times one buffer: the sentence says
     * which and how much memory, so that no figure is read as another. */
    if (st_reg->n > 0 && st_alloc->n > 0)
      ms_caption_append (
          buf, len,
          ms_gettext ("Registering the three %s buffers (%s) took %s in every repetition, "
                      "before and on top of its %s end to end (copies and kernel); "
                      "allocating pinned ones took %s once, for %s of pinned host "
                      "memory and as much device memory."),
          size, total, ms_caption_time (st_reg->median, t_reg, sizeof t_reg),
          ms_caption_time (reg->stats.e2e.median, t_e2e, sizeof t_e2e),
          ms_caption_time (st_alloc->median, t_alloc, sizeof t_alloc), total);
    /* The picture's crossing, from the same medians. */
    int from = st_reg->n > 0 && st_alloc->n > 0
                   ? ms_register_cheaper_from (st_reg->median, reg->stats.e2e.median,
                                               st_alloc->median, pin->stats.e2e.median, NULL)
                   : 0;
    if (from > 0)
      ms_caption_append (
          buf, len,
          ms_gettext ("Registering anew in every repetition costs more than allocating "
                      "once from n = %d repetitions; buffers registered once and reused "
                      "pay the %s only once."),
          from, t_reg);
    return true;
  }
  return ms_caption_missing (
      buf, len,
      ms_gettext ("This run has no registered and pinned copies of the same size "
                  "to compare."));
}

const MsLesson ms_lesson_register = {
  .card = { .name = NAME,
            .experiment = "",
            .modes = "registered,pinned",
            .plain = true,
            .title = MS_N_ ("Register against allocate"),
            .question = MS_N_ ("Is pinning existing memory with cudaHostRegister as good as "
                               "cudaMallocHost?") },
  .caption = caption_register,
};
