/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-run.c: `memsweep run`: a sweep with a progress bar, its files, its
 * table or JSON, and what went wrong; the options are ms-cli-run-options.c's. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-json.h"
#include "ms-cli-output.h"
#include "ms-cli-processes.h"
#include "ms-cli-results-table.h"
#include "ms-cli-run-options.h"
#include "ms-cli-options.h"
#include "ms-cli-tables.h"
#include "ms-engine.h"
#include "ms-i18n.h"

typedef struct {
  bool bar;
  double start_s;
} Progress;

/* --verbose: a line per cell as it finishes, in place of the bar. */
static void
say_cell (int index, int n, const MsCell *cell)
{
  char median[64] = "-";
  if (ms_report_has_numbers (cell))
    snprintf (median, sizeof median, "%.3f us", cell->stats.e2e.median);
  ms_cli_say (ms_gettext ("cell %d/%d: %s 2^%d%s%s: %s, %d repetitions, median %s"), index + 1, n,
              ms_mode_name (cell->mode), cell->exponent, cell->variant[0] ? " " : "",
              cell->variant, ms_cell_status_name (cell->status), cell->n_reps, median);
}

/* A test waits for a process to be at work by a file it makes, not by a
 * guess at the machine: MEMSWEEP_TEST_BUSY_DIR/PID once its first cell
 * is measured (its signal handlers are in place and cells remain). */
static void
say_busy (void)
{
  static bool said;
  const char *dir = getenv ("MEMSWEEP_TEST_BUSY_DIR");
  char path[PATH_MAX];
  if (said || !dir || !*dir)
    return;
  said = true;
  snprintf (path, sizeof path, "%s/%ld", dir, (long) getpid ());
  FILE *f = fopen (path, "w");
  if (f)
    fclose (f);
}

static void
on_progress (int index, int n, const MsCell *cell, void *user)
{
  Progress *p = user;
  say_busy ();
  if (ms_cli_verbose ())
    say_cell (index, n, cell);
  if (!p->bar)
    return;
  double elapsed = ms_cli_now_s () - p->start_s;
  double left = index + 1 < n ? elapsed / (index + 1) * (n - index - 1) : 0;
  const int width = 30;
  int done = (index + 1) * width / n;
  fprintf (stderr, "\r[%.*s%.*s] %d/%d %-16s 2^%-2d  ", done,
           "##############################", width - done,
           "..............................", index + 1, n, ms_mode_name (cell->mode),
           cell->exponent);
  fprintf (stderr, ms_gettext ("%.1fs left"), left);
  fputs ("   ", stderr);
  if (index + 1 == n)
    fputc ('\n', stderr);
  fflush (stderr);
}

/* Whether a cell failed, said on standard error with the first one's
 * reason: the table says every reason, but it may be JSON, an export or
 * nowhere (--quiet), and exit 1 alone tells nothing. */
static bool
any_cell_failed (const MsResults *results)
{
  const MsCell *first = NULL;
  size_t n = 0;
  for (size_t i = 0; i < results->n_cells; i++)
    if (results->cells[i].status == MS_CELL_FAILED ||
        results->cells[i].status == MS_CELL_VERIFY_FAILED) {
      first = first ? first : &results->cells[i];
      n++;
    }
  if (!first)
    return false;
  char clean[4 * sizeof first->message];
  ms_cli_error (ms_ngettext ("%zu of %zu cells failed (%s 2^%d: %s: %s)\n",
                             "%zu of %zu cells failed (the first: %s 2^%d: %s: %s)\n", n),
                n, results->n_cells, ms_mode_name (first->mode), first->exponent,
                ms_cell_status_name (first->status),
                ms_report_clean (first->message, clean, sizeof clean));
  return true;
}

static void
results_text (FILE *f, void *user)
{
  ms_report_header (f, user, true);
  ms_report_table (f, user);
}

/* Files first (a closed stdout must not cost the measurements), then the
 * table and its exports, then what went wrong. */
/* *lost: the pair could be written neither at its names nor kept. */
static int
save_and_report (const MsCliRunOptions *o, const MsResults *results, MsRunStatus st,
                 const char *run_err, bool *lost)
{
  char err[PATH_MAX + 256], clean[4 * sizeof err];
  int rc = EXIT_OK, stop_signal;
  /* Nothing to write: an empty pair would look like a run (and replace an
   * earlier one of the prefix). */
  if (ms_cli_stopped_before_any_cell (st, results, run_err))
    return EXIT_RUNTIME;
  bool kept = false;
  bool saved = ms_csv_write_pair_or_keep (results, o->samples_path, o->summary_path, &kept, err,
                                          sizeof err);
  *lost = !saved && !kept;
  if (!saved) {
    ms_cli_error ("%s\n", ms_report_clean (err, clean, sizeof clean));
    rc = EXIT_WRITE;
  }
  if (saved)
    ms_cli_wrote_pair (o->samples_path, o->summary_path);
  MsCliTable *table = ms_cli_results_table (results);
  MsCliDocument doc = { results_text, ms_json_write, table, (void *) results };
  if (!ms_cli_output_write (&o->output, &doc))
    rc = EXIT_WRITE;
  ms_cli_table_free (table);
  /* A file not written says more than standard output not written: both
   * are EXIT_WRITE, and neither hides the other. */
  if (!ms_cli_stdout_ok ())
    rc = EXIT_WRITE;
  stop_signal = ms_supervisor_stop_signal ();
  if (st == MS_RUN_CANCELLED) {
    if (stop_signal)
      ms_cli_error (ms_gettext ("%s: %s; partial results kept\n"), ms_cli_signal_name (stop_signal),
                    run_err);
    else
      ms_cli_error (ms_gettext ("%s; partial results kept\n"), run_err);
    rc = rc == EXIT_OK ? EXIT_RUNTIME : rc;
  } else if (stop_signal) {
    ms_cli_error (ms_gettext ("%s after the sweep had finished; results kept\n"),
                  ms_cli_signal_name (stop_signal));
    rc = EXIT_RUNTIME;
  }
  return rc == EXIT_OK && any_cell_failed (results) ? EXIT_RUNTIME : rc;
}

/* Whether a file stands at the run's samples name (or its other form,
 * plain or gzip): what "left as it was" speaks of. */
static bool
earlier_run (const MsCliRunOptions *o)
{
  char other[PATH_MAX + 8];
  struct stat st;
  const char *path = o->samples_path;
  if (ms_gzip_is_name (path))
    snprintf (other, sizeof other, "%.*s", (int) ms_gzip_stem_len (path), path);
  else
    snprintf (other, sizeof other, "%s%s", path, MS_GZIP_SUFFIX);
  return stat (path, &st) == 0 || stat (other, &st) == 0;
}

/* No process of a grade run measured anything (stopped, or lost): said,
 * and nothing written, as save_and_report does for an empty run. */
static int
nothing_measured (const MsCliRunOptions *o, const char *run_err, int rc)
{
  char clean[4 * PATH_MAX];
  int sig = ms_supervisor_stop_signal ();
  if (run_err[0])
    ms_cli_error ("%s\n", run_err);
  /* A process kept what it measured, or the part that fitted, where it
   * could (said above): a kept folder is named, in any language, and a
   * stop after it changes nothing of that. An earlier run at the name is
   * said to be there still; no file, no word of it. */
  if (strstr (run_err, "memsweep-kept-") && earlier_run (o))
    ms_cli_error (ms_gettext ("no run to write (%s left as it was): what the "
                              "processes measured is kept where said above\n"),
                  ms_report_clean (o->samples_path, clean, sizeof clean));
  else if (strstr (run_err, "memsweep-kept-"))
    ms_cli_error (ms_gettext ("no run to write: what the processes measured is kept "
                              "where said above\n"));
  /* Files written and not read back: their folder is kept, and named
   * next (ms_cli_processes_done). */
  else if (ms_cli_processes_unread ())
    ms_cli_error (ms_gettext ("no run to write: what the processes measured is kept "
                              "in their folder, named below\n"));
  /* A process measured, and could neither write nor keep it (said
   * above, with why): not "nothing was measured". */
  else if (ms_cli_processes_not_written ())
    ms_cli_error (ms_gettext ("no run to write: what the processes measured could "
                              "not be written or kept, as said above\n"));
  else if (sig)
    ms_cli_say_stopped_before_any_cell (ms_cli_signal_name (sig));
  else if (earlier_run (o))
    ms_cli_error (ms_gettext ("nothing was measured: nothing written (%s left as it was)\n"),
                  ms_report_clean (o->samples_path, clean, sizeof clean));
  else
    ms_cli_error (ms_gettext ("nothing was measured: nothing written\n"));
  return rc == EXIT_OK ? EXIT_RUNTIME : rc;
}

/* The run-to-run spread measured by `memsweep calibrate` widens the
 * intervals (ms-run-to-run.c): the one given, or this device's default when
 * it exists and names the same GPU (ms_run_to_run_load_default, as the
 * window does). */
static void
apply_profile (const MsCliRunOptions *o, MsResults *results)
{
  char path[PATH_MAX], clean[4 * PATH_MAX];
  const char *expected = results->device.present ? results->device.name : "none";
  if (!o->profile) {
    if (!ms_run_to_run_load_default (&results->run_to_run, &results->device, path, sizeof path))
      return;
  } else {
    /* Read and checked by ms_cli_run_options_parse, before the sweep. */
    snprintf (path, sizeof path, "%s", o->profile);
    if (o->profile_device[0] && strcmp (o->profile_device, expected) != 0) {
      ms_cli_error (ms_gettext ("%s was measured on %s, not %s: not used\n"),
                    ms_report_clean (path, clean, sizeof clean), o->profile_device, expected);
      return;
    }
    results->run_to_run = o->profile_rr;
  }
  if (ms_cli_quiet ())
    return;
  ms_cli_error (ms_gettext ("intervals include the run-to-run spread of %s (%d runs, %s)\n"),
                ms_report_clean (path, clean, sizeof clean), results->run_to_run.runs,
                results->run_to_run.date);
}

int
ms_cli_run (int argc, char **argv)
{
  MsCliRunOptions o;
  char err[512];
  /* Before anything else, so that only the process start is unguarded. */
  atomic_int *cancel = ms_cli_stop_on_signals ();
  int rc = ms_cli_run_options_parse (&o, argc, argv);
  if (rc >= 0)
    return rc;

  Progress progress = { .bar = !ms_cli_quiet () && !ms_cli_verbose () && isatty (STDERR_FILENO),
                        .start_s = ms_cli_now_s () };
  MsResults *results = NULL;
  MsRunStatus st;
  int processes_rc = EXIT_OK;
  char dir[PATH_MAX] = "";
  bool lost = false;
  err[0] = '\0';
  /* One GPU: start no other (ms-gpu-start.h); where that cannot be made
   * certain, every GPU starts as before. */
  char why[160];
  if (ms_sweep_uses_gpu (&o.sweep))
    ms_gpu_start_only (o.sweep.device, why, sizeof why);
  if (o.sweep.processes > 1) {
    st = ms_cli_run_processes (&o.sweep, cancel, progress.bar, &results, &processes_rc, dir, err,
                               sizeof err);
  } else {
    MsBackend *backend = ms_backend_new_system ();
    st = ms_sweep_run (&o.sweep, backend, on_progress, &progress, cancel, &results, err,
                       sizeof err);
    ms_backend_free (backend);
  }
  if (results && !o.no_profile)
    apply_profile (&o, results);

  if (st == MS_RUN_INVALID || st == MS_RUN_NO_DEVICE) {
    ms_cli_error ("%s\n", err);
    if (st == MS_RUN_NO_DEVICE)
      ms_cli_error (ms_gettext ("'memsweep run --modes host' still runs the CPU baseline\n"));
    ms_results_free (results);
    ms_cli_processes_done (dir, false);
    return st == MS_RUN_INVALID ? EXIT_USAGE : EXIT_NO_DEVICE;
  }
  if (progress.bar && st == MS_RUN_CANCELLED)
    fputc ('\n', stderr);
  if (st == MS_RUN_CANCELLED && !results)
    rc = nothing_measured (&o, err, processes_rc);
  else
    rc = save_and_report (&o, results, st, err, &lost);
  ms_results_free (results);
  ms_cli_processes_done (dir, lost);
  /* A process that could not write, or was lost, says so in the status
   * even when the finished ones were written. */
  if (processes_rc == EXIT_WRITE || (rc == EXIT_OK && processes_rc != EXIT_OK))
    rc = processes_rc;
  return rc;
}
