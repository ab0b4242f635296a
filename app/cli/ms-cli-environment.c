/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-environment.c: the environment variables memsweep reads, the
 * files it reads and writes, and examples of its use, each said once:
 * `memsweep --help` prints them and `memsweep __options` hands them to
 * the man page's ENVIRONMENT, FILES and EXAMPLES (tools/cli-docs.py). */
#include <stdio.h>

#include "ms-cli-environment.h"
#include "ms-i18n.h"

const MsCliNote ms_cli_environment[] = {
  { "MEMSWEEP_EXPERIMENT",
    MS_N_ ("experiment switches for a run, comma-separated (inject=P adds a known change of P percent; "
           "docs/compare.md); recorded in the files, never on by default") },
  { "MEMSWEEP_PROFILES_DIR",
    MS_N_ ("the folder of the GPU models' run-to-run profiles, instead of the installed one") },
  { "MEMSWEEP_REFERENCE_DIR", MS_N_ ("the folder of the reference runs, instead of the installed one") },
  { "MEMSWEEP_ENVELOPES", MS_N_ ("the file of expected ranges, instead of the installed envelopes.csv") },
  { "MEMSWEEP_LOCALEDIR", MS_N_ ("the folder of the translations, instead of the installed one") },
  { "XDG_DATA_HOME", MS_N_ ("where the runs library and this machine's run-to-run profiles are "
                            "kept (default ~/.local/share)") },
  { "TMPDIR", MS_N_ ("where the processes of a compare-grade run or of compare --live keep their "
                     "files while they run (default /tmp)") },
  { "MEMSWEEP_SUPERVISED, MEMSWEEP_KEEP_DIR",
    MS_N_ ("set by memsweep for the processes it starts: such a process leaves a second stop "
           "signal to memsweep, and keeps what it measured in that folder (the command's own) "
           "where TMPDIR cannot hold it") },
  { "CUDA_VISIBLE_DEVICES", MS_N_ ("which GPUs CUDA shows memsweep; --device counts among them") },
  { "CUDA_DEVICE_MAX_CONNECTIONS",
    MS_N_ ("the hardware queues CUDA gives a process; the issue-order lesson sets it for its "
           "own processes") },
  { "CUDA_LAUNCH_BLOCKING", MS_N_ ("makes every launch wait; the sync-async lesson sets it for "
                                   "its own processes") },
  { "SLURMD_NODENAME", MS_N_ ("the node's name in a fleet run (fleet-node), when --node is not "
                              "given") },
  { "LC_ALL, LANGUAGE", MS_N_ ("the language of messages; files are written the same in every "
                               "locale") },
  { NULL, NULL },
};

/* @pkgdatadir@: the folder of the data memsweep ships, which the build
 * configures (its prefix and datadir): the man page names it as
 * configured (tools/cli-docs.py). */
const MsCliNote ms_cli_files[] = {
  { "PREFIX-samples.csv, PREFIX-summary.csv",
    MS_N_ ("a run: every repetition's phases, and a row per cell (docs/csv.md)") },
  { "PREFIX-meta.json", MS_N_ ("the run's metadata, a sidecar that belongs to those two files "
                               "(their names and hashes)") },
  { "$XDG_DATA_HOME/memsweep/runs/", MS_N_ ("the app's runs library: every sweep and lesson "
                                            "run, as it ends or stops") },
  { "$XDG_DATA_HOME/memsweep/run-to-run-*.csv",
    MS_N_ ("this machine's run-to-run profiles, one a GPU (calibrate)") },
  { "@pkgdatadir@/profiles/", MS_N_ ("the GPU models' run-to-run profiles shipped with "
                                     "memsweep") },
  { "@pkgdatadir@/reference/", MS_N_ ("runs recorded on an H100 and an H200, to open "
                                      "and compare without a GPU") },
  { "@pkgdatadir@/envelopes.csv", MS_N_ ("each key figure's expected range per GPU "
                                         "model and link") },
  { NULL, NULL },
};

const MsCliNote ms_cli_examples[] = {
  { "memsweep run", MS_N_ ("the default sweep of every mode: a table, two CSV files and their "
                           "metadata") },
  { "memsweep run --modes host", MS_N_ ("the CPU baseline alone, without a GPU") },
  { "memsweep lesson concurrent", MS_N_ ("one lesson: K kernels on one stream against K "
                                         "streams") },
  { "memsweep compare --live --b '--device 1'",
    MS_N_ ("two GPUs of one host measured in turn until every cell is decided") },
  { "memsweep run --grade --out before", MS_N_ ("a compare-grade run, to compare with one made "
                                                "after a change") },
  { "memsweep compare before-samples.csv after-samples.csv",
    MS_N_ ("what changed between two runs, cell by cell") },
  { "memsweep show run-samples.csv --format json", MS_N_ ("a run's figures as JSON") },
  { NULL, NULL },
};

static void
print_notes (FILE *out, const char *title, const MsCliNote *notes)
{
  fprintf (out, "%s\n", title);
  for (const MsCliNote *n = notes; n->name; n++)
    fprintf (out, "  %s\n      %s\n", n->name, ms_gettext (n->help));
}

void
ms_cli_print_environment (FILE *out)
{
  print_notes (out, ms_gettext ("Environment:"), ms_cli_environment);
  fputc ('\n', out);
  print_notes (out, ms_gettext ("Examples:"), ms_cli_examples);
}
