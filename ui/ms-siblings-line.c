/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings-line.c: a sibling check in one line (ms-siblings-line.h). */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-siblings-line.h"

/* "GPU 1 differs: pinned 1.20×, pageable 1.18×": the modes it is named in,
 * with its time over its siblings' mean. */
static void
append_gpu (GString *s, const MsSiblingGpu *gpu)
{
  g_autoptr (GString) modes = g_string_new (NULL);
  for (int m = 0; m < gpu->n_modes; m++) {
    const MsSiblingMode *mode = &gpu->modes[m];
    if (!mode->differs)
      continue;
    if (modes->len)
      g_string_append (modes, _ (", "));
    if (isnan (mode->ratio))
      g_string_append (modes, mode->mode);
    else
      /* TRANSLATORS: a mode and a GPU's time over its siblings', "pinned 1.20×" */
      g_string_append_printf (modes, _ ("%s %.2f×"), mode->mode, mode->ratio);
  }
  if (s->len)
    g_string_append (s, _ ("; "));
  /* No-break spaces: "GPU 1" and "pinned 1.20×" stay whole when the line
   * wraps in the narrow pane. */
  g_string_append_printf (s, _ ("GPU %d differs: %s"), gpu->index, modes->str);
}

static char *
result_text (const MsSiblingsFile *file)
{
  switch (file->result) {
  case MS_SIBLINGS_ALIKE:
    return g_strdup_printf (_ ("alike — every GPU within ±%g%% of its siblings in every GPU mode"),
                            file->threshold_pct);
  case MS_SIBLINGS_DIFFERS: {
    g_autoptr (GString) s = g_string_new (NULL);
    for (int g = 0; g < file->n_gpus; g++)
      if (file->gpus[g].differs)
        append_gpu (s, &file->gpus[g]);
    /* Differs with none named: the GPUs split into groups. */
    return s->len ? g_string_free (g_steal_pointer (&s), FALSE)
                  : g_strdup (_ ("differs — the GPUs split, none stands out"));
  }
  case MS_SIBLINGS_UNDECIDED:
  default:
    /* Version 1 counted pairs of GPUs times modes, version 2 GPUs times
     * modes. */
    if (file->version == 1)
      return g_strdup_printf (ngettext ("undecided: %d comparison of two GPUs still open",
                                        "undecided: %d comparisons of two GPUs still open",
                                        file->modes_undecided),
                              file->modes_undecided);
    return g_strdup_printf (ngettext ("undecided: %d GPU mode still open",
                                      "undecided: %d GPU modes still open",
                                      file->modes_undecided),
                            file->modes_undecided);
  }
}

char *
ms_siblings_line (const MsSiblingsFile *file)
{
  g_autofree char *result = result_text (file);
  int n = file->n_gpus + file->gpus_dropped;
  g_autofree char *gpus = g_strdup_printf (ngettext ("%d GPU", "%d GPUs", n), n);
  /* TRANSLATORS: "Sibling check (4 GPUs, 68 s): alike — ..." */
  g_autofree char *line
      = g_strdup_printf (_ ("Sibling check (%s, %.0f s): %s"), gpus, file->seconds, result);
  /* What the line leaves out is said, not dropped without a word. */
  if (file->gpus_dropped || file->modes_dropped) {
    g_autofree char *shown = g_strdup_printf (
        _ ("%s (only the first %d GPUs and %d modes of each are shown: %d GPUs and %d modes "
           "left out)"),
        line, MS_SIBLINGS_MAX_GPUS, MS_SIBLINGS_MAX_MODES, file->gpus_dropped,
        file->modes_dropped);
    g_free (line);
    line = g_steal_pointer (&shown);
  }
  /* The file's mode names are its own bytes. */
  return g_utf8_make_valid (line, -1);
}
