/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-commands.c: the one table of memsweep's commands, the dispatch
 * through it, and the usage lines of the commands beyond one GPU. A new
 * command: its ms-cli-COMMAND.c, a line here, its usage lines. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-cli-commands.h"
#include "ms-cli-compare.h"
#include "ms-cli-info.h"
#include "ms-cli-run.h"
#include "ms-cli-show.h"
#include "ms-i18n.h"
#ifdef MS_HAVE_DRAW
#include "ms-cli-draw.h"
#endif

/* Lessons: docs/lessons.md; __lesson-part is memsweep running itself. */
static int
lesson (int argc, char **argv)
{
  return ms_cli_lesson (argc, argv, false);
}

static int
lesson_part (int argc, char **argv)
{
  return ms_cli_lesson (argc, argv, true);
}

static const struct {
  const char *name;
  int (*run) (int argc, char **argv);
} commands[] = {
  { "info", ms_cli_info },
  { "modes", ms_cli_modes },
  { "run", ms_cli_run },
  { "show", ms_cli_show },
  { "compare", ms_cli_compare },
#ifdef MS_HAVE_DRAW
  { "plot", ms_cli_plot },
  { "report", ms_cli_report },
#endif
  { "multi", ms_cli_multi },
  { "peer", ms_cli_peer },
  { "portable", ms_cli_portable },
  { "fleet", ms_cli_fleet },
  { "fleet-node", ms_cli_fleet_node },
  { "fleet-report", ms_cli_fleet_report },
  { "calibrate", ms_cli_calibrate },
  { "lesson", lesson },
  { "__lesson-part", lesson_part },
};

bool
ms_cli_dispatch (int argc, char **argv, int *rc)
{
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
    if (strcmp (argv[1], commands[i].name) == 0) {
      *rc = commands[i].run (argc - 1, argv + 1);
      return true;
    }
  }
  return false;
}

void
ms_cli_more_commands_usage (FILE *out)
{
  /* TRANSLATORS: keep the command lines; translate what they do. */
  const char *text =
    ms_gettext ("  memsweep multi [--devices LIST|all] [--solo] [--modes LIST] [--min-exp E]\n"
                "                 [--max-exp E] [--step S] [--reps N] [--warmup N] [--out PREFIX]\n"
                "                               the sweep on several GPUs at once\n"
                "  memsweep peer [--devices LIST|all] [--exp E] [--reps N] [--out PREFIX]\n"
                "                               peer copy matrix and topology\n"
                "  memsweep portable [--devices LIST|all] [--exp E] [--reps N]\n"
                "                               portable vs per-GPU vs foreign pinned memory\n"
                "  memsweep fleet --dir DIR [--nodes N] ... [-- RUN OPTIONS]\n"
                "                               a sweep on every node through Slurm\n"
                "  memsweep fleet-node --dir DIR [-- RUN OPTIONS]   one node's part of it\n"
                "  memsweep fleet-report [--threshold PCT] [--outliers] DIR\n"
                "                               nodes x key figures, outliers flagged\n"
                "  memsweep calibrate [--runs N] [--out PROFILE] [RUN OPTIONS]\n"
                "                               this machine's run-to-run spread, which\n"
                "                               later runs' intervals then include\n"
                "  memsweep lesson LIST | NAME [--sizes MIN:MAX[:STEP]] [--reps N] [--out PREFIX]\n"
                "                               the experiments of the teaching material\n");
  fputs (text, out);
}

/* --help of one command: its lines of the usage above, not all of them. */
void
ms_cli_command_usage (FILE *out, const char *command)
{
  char head[64];
  snprintf (head, sizeof head, "  memsweep %s ", command);
  fputs (ms_gettext ("Usage:\n"), out);
  char *text = NULL;
  size_t len = 0;
  FILE *all = open_memstream (&text, &len);
  if (!all)
    return;
  ms_cli_more_commands_usage (all);
  fclose (all);
  bool in = false;
  for (char *line = text; line && *line;) {
    char *eol = strchr (line, '\n');
    size_t n = eol ? (size_t) (eol - line + 1) : strlen (line);
    /* A command's lines: its own, then those indented under it. */
    if (strncmp (line, "  memsweep ", strlen ("  memsweep ")) == 0)
      in = strncmp (line, head, strlen (head)) == 0;
    if (in)
      fwrite (line, 1, n, out);
    line += n;
  }
  free (text);
}
