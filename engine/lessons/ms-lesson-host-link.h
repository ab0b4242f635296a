/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-host-link.h: what the host-link lesson's caption and its
 * picture (draw/ms-picture-host-link.c) both read (ms-lesson-host-link.c):
 * the run of several GPUs in use, a shipped `memsweep host-link --out`
 * file (data/reference/NAMExN-host-link.csv.gz) or one a caller gives,
 * and its figures over the sizes it measured. */
#pragma once

#include "files/ms-host-link-file.h"
#include "memsweep.h"

/* The least and most of a figure over the sizes (and GPUs) of a run. */
typedef struct {
  double lo, hi;
} MsHostLinkRange;

/* A host-link run's figures, per direction (MsHostLinkDirection). */
typedef struct {
  int shown; /* the size slot the takeaway and the picture show: the largest */
  MsHostLinkRange total[MS_HOST_LINK_COUNT];      /* all at once, in all, GB/s */
  MsHostLinkRange ratio[MS_HOST_LINK_COUNT];      /* that / each alone summed */
  MsHostLinkRange alone[MS_HOST_LINK_COUNT];      /* one GPU alone, GB/s */
  MsHostLinkRange share[MS_HOST_LINK_COUNT];      /* a GPU's part of the total */
} MsHostLinkFigures;

/* The figures of file; false where it has fewer than two GPUs or a
 * size with a copy that failed. */
bool ms_lesson_host_link_figures (const MsHostLinkFile *file, MsHostLinkFigures *out);

/* The run the lesson shows beside run (its GPU picks among the shipped
 * ones: an H100 run's h100xN file first, that of the most GPUs first
 * among them), and its name
 * ("h200x4-host-link"; NULL where there is none): the one given to
 * ms_lesson_host_link_use, else the shipped one in the reference runs'
 * folder (ms_reference_runs_dir). NULL where there is none with two GPUs
 * or more. */
const MsHostLinkFile *ms_lesson_host_link_shown (const MsResults *run, const char **name);

/* Shows file (copied; path names it) in place of the shipped runs; NULL
 * goes back to them. One for the process: set it from the thread that
 * draws (the file shown before is freed). */
void ms_lesson_host_link_use (const MsHostLinkFile *file, const char *path);
