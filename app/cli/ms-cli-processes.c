/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-processes.c: a compare-grade run (`memsweep run --processes P`):
 * the sweep run by P processes of memsweep itself, one after another, and
 * their rounds merged into one run. A process is the unit that varies
 * most on the lent GPUs (PITFALLS 28); only several of them let a run's
 * interval hold that (engine/model/ms-grade.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-processes.h"
#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-cli-tables.h"
#include "ms-setting-table.h"

/* The most arguments a process gets: two per setting and a few more. */
#define MS_CHILD_MAX_ARGS 96

/* Arguments for one process: the same sweep with one process, placed
 * as the parent's settings say, its files under prefix. */
typedef struct {
  char *argv[MS_CHILD_MAX_ARGS];
  char store[MS_CHILD_MAX_ARGS][256]; /* --modes lists up to every mode */
  int n;
} MsChildArgs;

static void
add_arg (MsChildArgs *a, const char *text)
{
  if (a->n >= MS_CHILD_MAX_ARGS - 1)
    return;
  snprintf (a->store[a->n], sizeof a->store[a->n], "%s", text);
  a->argv[a->n] = a->store[a->n];
  a->n++;
  a->argv[a->n] = NULL;
}

/* Whether the setting is one the child is given: the other repetition
 * rule's settings and settings left off stay out, as run would refuse or
 * read them. */
static bool
passes_on (const MsSetting *s, const MsSweep *sweep)
{
  if (!s->option)
    return false;
  if (s->adaptive_only && sweep->reps_rule != MS_REPS_ADAPTIVE)
    return false;
  if (s->chooses_fixed && sweep->reps_rule != MS_REPS_FIXED)
    return false;
  return !(s->default_is_off && ms_setting_get (s, sweep) == 0);
}

static void
child_args (const MsSweep *sweep, const char *prefix, MsChildArgs *a)
{
  char value[256], option[64];
  a->n = 0;
  add_arg (a, "memsweep");
  add_arg (a, "run");
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *s = ms_setting_nth (i);
    if (!passes_on (s, sweep))
      continue;
    if (s->kind == MS_SETTING_MODES)
      ms_sweep_format_modes (sweep, value, sizeof value);
    else if (strcmp (s->option, "processes") == 0)
      snprintf (value, sizeof value, "1");
    else
      ms_setting_format (s, ms_setting_get (s, sweep), value, sizeof value);
    snprintf (option, sizeof option, "--%s", s->option);
    add_arg (a, option);
    add_arg (a, value);
  }
  add_arg (a, "--quiet");
  add_arg (a, "--no-profile");
  add_arg (a, "--out");
  /* The prefix is a path, longer than a setting's value can be. */
  a->argv[a->n++] = (char *) prefix;
  a->argv[a->n] = NULL;
}

/* A process wrote its files and they could not be read back: the
 * processes' folder is kept whatever else happens. */
static bool unread;
/* Whether a process measured and could not write its files: what it said
 * (kept where, or lost) stands; nobody may say that nothing was
 * measured. */
static bool not_written;

/* A process's files: once merged they stay until the run is written
 * (ms_cli_processes_done), as what it measured, should that fail. */
static void
remove_files (const char *dir, int p)
{
  static const char *const suffixes[] = { "-samples.csv", "-summary.csv", "-meta.json", ".err" };
  char path[PATH_MAX + 32];
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
    snprintf (path, sizeof path, "%s/p%d%s", dir, p, suffixes[i]);
    unlink (path);
  }
}

/* What a process that exited 0 or 1 wrote, merged into *merged (the
 * first one read becomes *merged); false when it wrote nothing readable
 * (why in why) or memory ran out (err). */
static bool
merge_process (const char *samples, int p, MsResults **merged, char *why, size_t whylen,
               char *err, size_t errlen)
{
  /* A process's own files are no inputs: protected, each would stay
   * open, and the descriptors held would grow with the processes. */
  bool was = ms_atomic_file_protect_reads (false);
  MsResults *r = ms_run_read_samples (samples, why, whylen);
  ms_atomic_file_protect_reads (was);
  if (!r)
    return false;
  if (!*merged) {
    r->sweep.processes = 1;
    /* Not in the random order its first round visited them. */
    ms_results_sort_cells (r);
    /* The reader named it after the first process's file: the run is
     * named by whoever saves it. */
    r->label[0] = '\0';
    *merged = r;
    return true;
  }
  bool ok = ms_results_append_process (*merged, r, p);
  ms_results_free (r);
  if (!ok)
    snprintf (err, errlen, ms_gettext ("out of memory for the results"));
  return ok;
}

/* "process 3 of 4" where of is the count asked, "process 3 of at most
 * 32" where it is a cap (-of: run --grade with a target, compare --live's
 * budget): "of 32" would be a count nobody asked for. */
static const char *
process_name (int p, int of, char *name, size_t len)
{
  if (of < 0)
    snprintf (name, len, ms_gettext ("process %d of at most %d"), p + 1, -of);
  else
    snprintf (name, len, ms_gettext ("process %d of %d"), p + 1, of);
  return name;
}

/* The end of a process that wrote nothing, in the parent's words. */
static MsCliProcessEnd
lost_process (const MsChildEnd *end, const char *err_path, int p, int of, char *err,
              size_t errlen)
{
  char why[1024], how[256], name[96];
  process_name (p, of, name, sizeof name);
  ms_supervisor_child_said (end, err_path, why, sizeof why);
  if (end->how == MS_CHILD_EXITED && end->code == EXIT_NO_DEVICE) {
    snprintf (err, errlen, "%s", why[0] ? why : ms_gettext ("no usable CUDA device"));
    return MS_CLI_PROCESS_NO_DEVICE;
  }
  if (end->how == MS_CHILD_EXITED && end->code == EXIT_WRITE) {
    not_written = true;
    snprintf (err, errlen, ms_gettext ("%s could not write its files in TMPDIR: %s"), name, why);
    return MS_CLI_PROCESS_NOT_WRITTEN;
  }
  if (end->how == MS_CHILD_KILLED_BY_US || (end->told && end->how == MS_CHILD_EXITED) ||
      end->cpu_limit) {
    snprintf (err, errlen, ms_gettext ("%s was stopped before it measured anything"), name);
    return MS_CLI_PROCESS_STOPPED;
  }
  snprintf (err, errlen, ms_gettext ("%s %s and measured nothing%s%s"), name,
            ms_supervisor_describe (end, how, sizeof how), why[0] ? ": " : "", why);
  return MS_CLI_PROCESS_LOST;
}

/* A process its CPU-time limit ended (ulimit -t, which every process
 * inherits afresh): the command's limit, which the next process would
 * reach too. Said in one line; the process counts as stopped. */
static MsCliProcessEnd
cpu_limit_reached (const MsChildEnd *end, int p, MsCliProcessEnd result)
{
  if (!end->cpu_limit || end->told || result != MS_CLI_PROCESS_STOPPED)
    return result;
  ms_cli_error (ms_gettext ("a CPU-time limit (ulimit -t) stopped process %d: no "
                            "further process started\n"),
                p + 1);
  return MS_CLI_PROCESS_STOPPED;
}

/* One process of sweep (as one process of `memsweep run`), started by the
 * supervisor (ms-supervisor.h), with the experiment switch
 * MEMSWEEP_EXPERIMENT set to experiment unless NULL, its files in dir as
 * pP, read back and merged into *merged as process P (the first one read
 * becomes *merged); of: how many processes the message counts, or -N
 * where N is a cap, not a count asked for ("of at most N"). A message
 * in err unless MEASURED or KEPT (said on standard error). */
static MsCliProcessEnd
run_process (const MsSweep *sweep, const char *experiment, const char *dir, int p, int of,
             atomic_int *cancel, MsResults **merged, char *err, size_t errlen)
{
  char prefix[PATH_MAX + 16], err_path[PATH_MAX + 32], samples[PATH_MAX + 32], why[512];
  char *env[MS_SUPERVISOR_MAX_ENV], setting[256];
  MsChildArgs a;
  MsChild child;
  MsChildEnd end = { MS_CHILD_EXITED, -1, false };
  snprintf (prefix, sizeof prefix, "%s/p%d", dir, p);
  snprintf (err_path, sizeof err_path, "%s.err", prefix);
  snprintf (samples, sizeof samples, "%s-samples.csv", prefix);
  child_args (sweep, prefix, &a);
  /* This environment with the experiment switch (ms-experiment.h) where
   * one is given: a side of a live comparison differs by that alone. */
  snprintf (setting, sizeof setting, "MEMSWEEP_EXPERIMENT=%s", experiment ? experiment : "");
  ms_supervisor_environment (env, MS_SUPERVISOR_MAX_ENV, experiment ? setting : NULL, NULL);
  if (!ms_supervisor_spawn (&child, "/proc/self/exe", a.argv, env, err_path)) {
    snprintf (err, errlen, ms_gettext ("%s could not start: %s"),
              process_name (p, of, why, sizeof why), strerror (errno));
    return MS_CLI_PROCESS_LOST;
  }
  end = ms_supervisor_wait (&child, cancel);
  MsCliProcessEnd result;
  err[0] = '\0';
  why[0] = '\0';
  bool wrote = end.how == MS_CHILD_EXITED && (end.code == EXIT_OK || end.code == EXIT_RUNTIME);
  if (wrote && merge_process (samples, p, merged, why, sizeof why, err, errlen)) {
    result = end.told || end.cpu_limit ? MS_CLI_PROCESS_STOPPED
             : end.code != EXIT_OK         ? MS_CLI_PROCESS_KEPT
                                           : MS_CLI_PROCESS_MEASURED;
    cpu_limit_reached (&end, p, result);
    /* Stopped by someone else's signal, or a cell failed: kept, and said. */
    if (result == MS_CLI_PROCESS_KEPT) {
      ms_supervisor_child_said (&end, err_path, why, sizeof why);
      char name[96];
      ms_cli_error (ms_gettext ("%s exited with status %d (%s); what it measured is kept\n"),
                    process_name (p, of, name, sizeof name), end.code, why);
    }
    unlink (err_path);
    return result;
  }
  struct stat st;
  if (wrote && !err[0] && why[0] && stat (samples, &st) == 0) {
    /* It wrote its files, which could not be read back (too many open
     * files): measurements all the same, kept with the folder. (A process
     * stopped before any cell exits 1 having written nothing: no file.) */
    char name[96];
    unread = true;
    snprintf (err, errlen, ms_gettext ("%s wrote its files, which could not be read back (%s)"),
              process_name (p, of, name, sizeof name), why);
    return MS_CLI_PROCESS_NOT_WRITTEN;
  }
  if (err[0])
    result = MS_CLI_PROCESS_LOST; /* out of memory */
  else
    result = cpu_limit_reached (&end, p, lost_process (&end, err_path, p, of, err, errlen));
  remove_files (dir, p);
  return result;
}

MsCliProcessEnd
ms_cli_run_turn (const MsCliTurnSide *side, int index, int r, bool first, const bool *open,
                 const bool *also, atomic_int *cancel, MsResults **run, MsTurns *t, char *err,
                 size_t errlen)
{
  MsSweep sweep = *side->sweep;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    sweep.modes[m] = sweep.modes[m] && (open[m] || (also && also[m]));
  MsCliProcessEnd end = run_process (&sweep, side->experiment, side->dir, r, -MS_MAX_PROCESSES,
                                     cancel, run, err, errlen);
  if (end != MS_CLI_PROCESS_MEASURED && end != MS_CLI_PROCESS_KEPT)
    return end;
  double v[MS_MAX_PROCESSES];
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (open[m] && sweep.modes[m] &&
        ms_turns_process_values (*run, (MsMode) m, side->figure, v) > r)
      ms_turns_add (t, (MsMode) m, index, v[r], first);
  return end;
}

bool
ms_cli_processes_unread (void)
{
  return unread;
}

bool
ms_cli_processes_not_written (void)
{
  return not_written;
}

/* n < 0: as many as the run needs. */
static void
say_progress (bool bar, int p, int n)
{
  if (!bar)
    return;
  fputc ('\r', stderr);
  if (n < 0)
    fprintf (stderr, ms_gettext ("process %d (until every cell is within the target)"), p + 1);
  else
    fprintf (stderr, ms_gettext ("process %d of %d"), p + 1, n);
  fputs (p + 1 == n ? "\n" : "   ", stderr);
  fflush (stderr);
}

/* The most processes a run may have: its rounds must fit MS_MAX_ROUNDS. */
static int
max_processes (const MsSweep *sweep)
{
  int by_rounds = MS_MAX_ROUNDS / (sweep->rounds > 0 ? sweep->rounds : 1);
  int cap = by_rounds < MS_MAX_PROCESSES ? by_rounds : MS_MAX_PROCESSES;
  return sweep->grade_target_pct > 0 ? cap : sweep->processes;
}

/* Whether a run with a target is done after p processes: every cell from
 * 2^14 within it, or no time for one more process of the mean length. */
static bool
grade_done (const MsSweep *sweep, const MsResults *merged, int p, double elapsed_s)
{
  if (sweep->grade_target_pct <= 0 || p < sweep->processes)
    return p >= sweep->processes;
  if (ms_grade_wide_cells (merged, sweep->grade_target_pct / 100, MS_GRADE_SURE_EXP, NULL, 0)
      == 0)
    return true;
  return elapsed_s + elapsed_s / p > sweep->grade_budget_s;
}

/* The sweep of the next process of a run with a target, past its first
 * --processes: only the modes with a cell still wider than the target,
 * from 2^14 (the sizes the target is for), so that the budget goes where
 * an interval is still open. */
static MsSweep
still_wide (const MsSweep *sweep, const MsResults *merged, int p)
{
  MsSweep s = *sweep;
  if (sweep->grade_target_pct <= 0 || p < sweep->processes || !merged)
    return s;
  size_t n = merged->n_cells;
  MsGradeWide *wide = malloc (sizeof *wide * (n + 1));
  if (!wide)
    return s;
  int k = ms_grade_wide_cells (merged, sweep->grade_target_pct / 100, MS_GRADE_SURE_EXP, wide,
                               (int) n);
  bool open[MS_MODE_COUNT] = { false };
  for (int i = 0; i < k && i < (int) n; i++)
    open[wide[i].mode] = true;
  free (wide);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    s.modes[m] = s.modes[m] && open[m];
  while (s.step > 0 && s.min_exp < MS_GRADE_SURE_EXP && s.min_exp + s.step <= s.max_exp)
    s.min_exp += s.step;
  return s;
}

/* "MODE SIZE +-X%; ..." for the cells still wider than the target. */
static void
describe_wide (MsResults *merged)
{
  MsGradeWide wide[16];
  char size[32];
  size_t used = 0, len = sizeof merged->grade_wide;
  int n = ms_grade_wide_cells (merged, merged->sweep.grade_target_pct / 100, MS_GRADE_SURE_EXP,
                               wide, 16);
  merged->grade_wide[0] = '\0';
  for (int i = 0; i < n && i < 16 && used < len; i++) {
    ms_format_bytes (4ull << wide[i].exponent, size, sizeof size);
    used += (size_t) snprintf (merged->grade_wide + used, len - used,
                               isfinite (wide[i].half_width) ? "%s%s %s +-%.1f%%" : "%s%s %s",
                               i ? "; " : "", ms_mode_name (wide[i].mode), size,
                               100 * wide[i].half_width);
  }
  if (n > 16 && used < len)
    snprintf (merged->grade_wide + used, len - used, ms_gettext ("; and %d more"), n - 16);
}

void
ms_cli_processes_done (const char *dir, bool lost)
{
  char kept[PATH_MAX], clean[4 * PATH_MAX];
  if (!dir[0])
    return;
  if (!lost && !unread)
    ms_supervisor_folder_done (dir);
  else if (ms_supervisor_folder_keep (dir, kept, sizeof kept))
    ms_cli_error (ms_gettext ("what each process measured is kept in %s "
                              "(pN-samples.csv and pN-summary.csv, a run of process N)\n"),
                  ms_report_clean (kept, clean, sizeof clean));
}

MsRunStatus
ms_cli_run_processes (const MsSweep *sweep, atomic_int *cancel, bool bar, MsResults **out,
                      int *rc, char *dir, char *err, size_t errlen)
{
  *out = NULL;
  dir[0] = '\0';
  *rc = EXIT_OK;
  if (!ms_supervisor_folder ("grade", dir, PATH_MAX)) {
    dir[0] = '\0';
    snprintf (err, errlen, ms_gettext ("cannot make a folder for the processes' files: %s"),
              strerror (errno));
    *rc = EXIT_WRITE;
    return MS_RUN_CANCELLED;
  }
  MsRunStatus st = MS_RUN_OK;
  int max = max_processes (sweep), p = 0;
  double t0 = ms_cli_now_s ();
  for (bool done = false; p < max && st == MS_RUN_OK && !done; p++) {
    say_progress (bar, p, sweep->grade_target_pct > 0 ? -1 : sweep->processes);
    /* With a target, max is a cap, not a count asked for. */
    int of = sweep->grade_target_pct > 0 ? -max : max;
    MsSweep next = still_wide (sweep, *out, p);
    MsCliProcessEnd end = run_process (&next, NULL, dir, p, of, cancel, out, err, errlen);
    /* Kept and said: the run goes on, and exits 1 as a failed cell does. */
    if (end == MS_CLI_PROCESS_KEPT) {
      end = MS_CLI_PROCESS_MEASURED;
      *rc = EXIT_RUNTIME;
    }
    if (end == MS_CLI_PROCESS_NO_DEVICE && !*out)
      st = MS_RUN_NO_DEVICE;
    else if (end != MS_CLI_PROCESS_MEASURED)
      st = MS_RUN_CANCELLED;
    if (end == MS_CLI_PROCESS_NOT_WRITTEN || *rc == EXIT_WRITE)
      *rc = EXIT_WRITE;
    else if (end != MS_CLI_PROCESS_MEASURED)
      *rc = EXIT_RUNTIME;
    if (end == MS_CLI_PROCESS_MEASURED && ms_supervisor_stopping (cancel) && p + 1 < max) {
      snprintf (err, errlen, ms_gettext ("cancelled after %d processes"), p + 1);
      st = MS_RUN_CANCELLED;
      *rc = EXIT_RUNTIME;
    } else if (end == MS_CLI_PROCESS_STOPPED && *out) {
      snprintf (err, errlen, ms_gettext ("stopped in process %d; the finished processes and what "
                                         "it measured are kept"),
                p + 1);
    }
    done = st == MS_RUN_OK && grade_done (sweep, *out, p + 1, ms_cli_now_s () - t0);
  }
  if (*out && sweep->grade_target_pct > 0) {
    (*out)->sweep.grade_target_pct = sweep->grade_target_pct;
    (*out)->sweep.grade_budget_s = sweep->grade_budget_s;
    describe_wide (*out);
  }
  return st;
}
