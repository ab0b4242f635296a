/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-calibrate.c: `memsweep calibrate`, the run-to-run spread of this
 * machine measured over separate invocations of `memsweep run`.
 *
 * Separate processes, not rounds inside one: on the lent GPUs the spread
 * that rounds inside one process see covers another invocation's median
 * for under half of the cells (docs/measurements). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-engine.h"
#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-json.h"
#include "ms-cli-run-options.h"
#include "ms-i18n.h"
#include "memsweep.h"
#include "ms-cli-output.h"
#include "ms-cli-parse.h"
#include "ms-cli-tables.h"

#define MAX_FORWARDED 64

/* mkdir -p for the folder of path. */
static bool
make_parent (const char *path)
{
  char dir[PATH_MAX];
  if (snprintf (dir, sizeof dir, "%s", path) >= (int) sizeof dir)
    return false;
  char *slash = strrchr (dir, '/');
  if (!slash || slash == dir)
    return true;
  *slash = '\0';
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir (dir, 0755) != 0 && errno != EEXIST)
        return false;
      *p = '/';
    }
  return mkdir (dir, 0755) == 0 || errno == EEXIST;
}

/* One `memsweep run` as a child of the supervisor (ms-supervisor.h), its
 * table thrown away and its messages kept in prefix.log (shown when it
 * fails); how it ended (code -1 when it could not start). */

static MsChildEnd
run_child (const char *dir, const char *prefix, char **forwarded, int n_forwarded,
           atomic_int *cancel)
{
  char log[PATH_MAX + 32];
  snprintf (log, sizeof log, "%s.log", prefix);
  char *argv[MAX_FORWARDED + 8] = { "memsweep", "run", "--quiet", "--no-profile", "--out",
                                    (char *) prefix };
  int n = 6;
  for (int i = 0; i < n_forwarded; i++)
    argv[n++] = forwarded[i];
  argv[n] = NULL;
  /* Its own TMPDIR inside this one's folder: a run that starts processes
   * (--grade) makes its folder there, which goes with this one's even
   * when that run was SIGKILLed after a second stop. */
  char tmpdir[PATH_MAX + 16], *env[MS_SUPERVISOR_MAX_ENV];
  snprintf (tmpdir, sizeof tmpdir, "TMPDIR=%s", dir);
  MsChild child;
  if (!ms_supervisor_spawn (&child, "/proc/self/exe", argv,
                            ms_supervisor_environment (env, MS_SUPERVISOR_MAX_ENV, tmpdir, NULL),
                            log))
    return (MsChildEnd){ MS_CHILD_EXITED, -1, false };
  return ms_supervisor_wait (&child, cancel);
}

static void
show_log (const char *prefix, const MsChildEnd *end)
{
  char log[PATH_MAX + 32], line[1024];
  bool shown = false;
  snprintf (log, sizeof log, "%s.log", prefix);
  FILE *f = fopen (log, "re");
  while (f && fgets (line, sizeof line, f)) {
    fprintf (stderr, "  %s", line);
    shown = true;
  }
  if (f)
    fclose (f);
  /* A run that could not write even its log: why, from here; one that
   * was killed before it said anything: that (the line before ends in a
   * colon). */
  if (!shown && ms_supervisor_child_said (end, log, line, sizeof line)[0])
    fprintf (stderr, "  %s\n", line);
  else if (!shown)
    fprintf (stderr, "  %s\n", ms_gettext ("(it said nothing)"));
}

/* Mode m's interval half-width over the sizes, as +- % of the median;
 * false when the profile has none for it. A mode whose runs gave the
 * same medians is kept, at 0: left out, a quiet host's tiny cells (three
 * runs' medians alike to the microsecond) gave a table of no rows. */
static bool
mode_spread (const MsRunToRun *rr, int m, double *lo, double *hi)
{
  *lo = INFINITY;
  *hi = 0;
  if (ms_run_to_run_mode_sd (rr, (MsMode) m) < 0)
    return false;
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
    double h = ms_run_to_run_half_width (rr, (MsMode) m, e);
    *lo = fmin (*lo, 100 * (exp (h) - 1));
    *hi = fmax (*hi, 100 * (exp (h) - 1));
  }
  return true;
}

typedef struct {
  const MsRunToRun *rr;
  int runs;
  const char *path;
} ProfileView;

/* Per mode, the interval's half-width over the sizes, as +- %. */
static void
profile_text (FILE *f, void *user)
{
  const ProfileView *v = user;
  double lo, hi;
  fprintf (f, ms_gettext ("95%% interval for another run's median, +- %% of it (over the "
                          "sizes):\n"));
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (mode_spread (v->rr, m, &lo, &hi))
      fprintf (f, "  %-18s %5.1f .. %5.1f\n", ms_mode_name ((MsMode) m), lo, hi);
}

/* The same as a table: a mode a row. */
static const MsCliColumn profile_columns[] = {
  { "mode" },
  { "half_width_pct_min", true },
  { "half_width_pct_max", true },
};

static MsCliTable *
profile_table (const MsRunToRun *rr)
{
  double lo, hi;
  MsCliTable *t = ms_cli_table_new (profile_columns, 3);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (!mode_spread (rr, m, &lo, &hi))
      continue;
    ms_cli_table_add_row (t);
    ms_cli_table_text (t, 0, ms_mode_name ((MsMode) m));
    ms_cli_table_number (t, 1, lo, -1);
    ms_cli_table_number (t, 2, hi, -1);
  }
  return t;
}

/* The same as JSON, with where the profile went. */
static void
profile_json (FILE *f, void *user)
{
  const ProfileView *v = user;
  double lo, hi;
  MsJson *doc = ms_json_document ("memsweep-calibration", 1);
  ms_json_set_int (doc, "runs", v->runs);
  ms_json_set_string (doc, "profile", v->path);
  MsJson *modes = ms_json_array_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (!mode_spread (v->rr, m, &lo, &hi))
      continue;
    MsJson *mode = ms_json_object_new ();
    ms_json_set_string (mode, "name", ms_mode_name ((MsMode) m));
    ms_json_set_number (mode, "half_width_pct_min", lo);
    ms_json_set_number (mode, "half_width_pct_max", hi);
    ms_json_append (modes, mode);
  }
  ms_json_set (doc, "modes", modes);
  ms_json_print (f, doc);
}

/* The profile could not be written at path, for whatever reason (a full,
 * read-only or vanished folder, a pipe nobody reads, a device, standard
 * output full or closed by its reader): what was measured is kept under
 * its name (standard output's as profile.csv, from the current folder
 * on) in a new folder (ms_output_plan_keep_folder), and said. False when
 * it could not be kept either. */
static bool
keep_profile (const MsRunToRun *rr, const MsResults *like, const char *path)
{
  char folder[PATH_MAX], kept[PATH_MAX], err[PATH_MAX + 256], clean[4 * PATH_MAX];
  if (ms_output_plan_is_stdout (path))
    path = "profile.csv";
  for (int attempt = 0; ms_output_plan_keep_folder (path, attempt, folder, sizeof folder);
       attempt++) {
    if (ms_output_plan_kept_name (folder, path, kept, sizeof kept) &&
        ms_run_to_run_write_profile (rr, like, kept, err, sizeof err)) {
      ms_cli_error (ms_gettext ("what was measured is kept in %s\n"),
                    ms_report_clean (kept, clean, sizeof clean));
      return true;
    }
    ms_output_plan_drop_kept_folder (folder);
  }
  return false;
}

/* Where the profile goes (path, PATH_MAX + 32): --out, standard output or
 * this GPU's default profile. False after a message. */
static bool
profile_path (const char *out, const MsResults *first, const char *dir, char *path, size_t len)
{
  if (out && strcmp (out, MS_CLI_STDIO) == 0)
    snprintf (path, len, "%s/profile.csv", dir); /* then copied: to_stdout */
  else if (out)
    snprintf (path, len, "%s", out);
  else if (first->device.present && !first->device.pci_bus_id[0]) {
    /* Files from before they kept the bus id: a default path keyed by
     * none would never be found by the run it is meant for. */
    ms_cli_error (ms_gettext ("%s/run1-samples.csv names no PCI bus id "
                              "(an older file); give --out\n"),
                  dir);
    return false;
  } else if (!ms_run_to_run_default_path (&first->device, path, len) || !make_parent (path)) {
    ms_cli_error (ms_gettext ("no folder for the profile; give --out\n"));
    return false;
  }
  return true;
}

/* --out -: the profile written as --out F writes it (in the runs'
 * folder), its table then copied to standard output byte for byte, so
 * that what a pipe gets is the file every CSV reader reads (the inline
 * form's comment lines before the header were read by DuckDB and polars'
 * scan_csv as no rows or as rows of their own); its sidecar stays behind.
 * A reader that left is a quiet success, as for every command's output;
 * any other failure keeps the profile, said. */
static int
to_stdout (const MsRunToRun *rr, const MsResults *like, const char *path)
{
  char buf[8192], clean[4 * PATH_MAX];
  FILE *f = fopen (path, "rbe");
  for (size_t n; f && (n = fread (buf, 1, sizeof buf, f)) > 0;)
    fwrite (buf, 1, n, stdout);
  bool whole = f && !ferror (f);
  if (!whole)
    ms_cli_error ("%s: %s\n", ms_report_clean (path, clean, sizeof clean), strerror (errno));
  if (f)
    fclose (f);
  if (whole && ms_cli_stdout_ok ())
    return EXIT_OK;
  return keep_profile (rr, like, MS_CLI_STDIO) ? EXIT_WRITE : -1;
}

/* The profile of the finished runs, written; the exit status. *lost: the
 * profile could be written nowhere, so the runs' files must stay. */
static int
measure_and_write (const char *dir, MsResults **results, int runs, const char *out,
                   const MsCliOutput *output, bool *lost)
{
  char path[PATH_MAX + 32], err[PATH_MAX + 256];
  MsRunToRun rr;
  *lost = false;
  if (!ms_run_to_run_measure (&rr, results, runs, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    return EXIT_RUNTIME;
  }
  if (!profile_path (out, results[0], dir, path, sizeof path)) {
    *lost = true;
    return EXIT_WRITE;
  }
  if (!ms_run_to_run_write_profile (&rr, results[0], path, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    *lost = !keep_profile (&rr, results[0], path);
    return EXIT_WRITE;
  }
  bool piped = out && strcmp (out, MS_CLI_STDIO) == 0;
  int copied = piped ? to_stdout (&rr, results[0], path) : EXIT_OK;
  *lost = copied < 0;
  if (copied != EXIT_OK)
    return EXIT_WRITE;
  /* A status line: standard output holds the result alone. */
  if (!piped)
    ms_cli_wrote (path);
  ProfileView view = { &rr, runs, out ? out : path };
  return ms_cli_output_send (output, profile_table (&rr), profile_text, profile_json, &view);
}

/* Whether a profile's name is no run's file name: X-samples.csv or
 * X-summary.csv (plain or gzip) gives it the sidecar X-meta.json, the
 * name of run X's, and run --out X would then take the profile for its
 * own set; false after a message. */
static bool
profile_name_not_a_run (const char *out)
{
  static const char *const run_files[] = { "-samples.csv", "-summary.csv" };
  char clean[4 * PATH_MAX];
  size_t n = ms_gzip_stem_len (out);
  for (size_t i = 0; i < 2; i++) {
    size_t k = strlen (run_files[i]);
    if (n > k && strncmp (out + n - k, run_files[i], k) == 0) {
      ms_cli_error (ms_gettext ("--out %s: is named as a run's file, and its "
                                "sidecar would have that run's name (%.*s-meta.json): not written; "
                                "choose another name\n"),
                    ms_report_clean (out, clean, sizeof clean), (int) (n - k), out);
      return false;
    }
  }
  return true;
}

/* Whether the profile can be written: --out, else the default profile's
 * folder, made now (as it would be after the runs) and checked like --out. */
static bool
profile_target_ok (const char *out)
{
  char path[PATH_MAX], err[PATH_MAX + 256];
  MsDeviceInfo none = { 0 };
  if (out && strcmp (out, MS_CLI_STDIO) == 0)
    return ms_cli_plan_file ("--out", out);
  /* The profile is CSV, whatever the name: a name that says another
   * format is refused. */
  if (out)
    return ms_cli_name_is_format ("--out", out, MS_CLI_FORMAT_CSV, NULL) &&
           profile_name_not_a_run (out) && ms_cli_outputs_ok ("--out", &out, &(MsFileKind) { MS_FILE_KIND_PROFILE }, 1);
  if (!ms_run_to_run_default_path (&none, path, sizeof path)) {
    ms_cli_error (ms_gettext ("no folder for the profile (neither "
                              "XDG_DATA_HOME nor HOME is set); give --out\n"));
    return false;
  }
  if (!make_parent (path)) {
    int e = errno;
    ms_cli_error (ms_gettext ("no folder for the profile: %s: %s; give --out\n"),
                  path, strerror (e));
    return false;
  }
  const char *paths[] = { path };
  if (!ms_output_plan_add_set ("--out", paths, &(MsFileKind) { MS_FILE_KIND_PROFILE }, 1, err,
                               sizeof err)) {
    ms_cli_error (ms_gettext ("the profile cannot be written: %s; give --out\n"), err);
    return false;
  }
  return true;
}

typedef struct {
  char *forwarded[MAX_FORWARDED];
  char names[MAX_FORWARDED][64]; /* the run options' whole names */
  int n_forwarded, runs;
  const char *out;
  MsCliOutput output;
} CalibrateOptions;

/* A run option, by its whole name (the parser took its abbreviation),
 * handed on to every run; false after a message. */
static bool
forward (CalibrateOptions *o, const char *name, const char *value)
{
  if (o->n_forwarded + 2 > MAX_FORWARDED) {
    ms_cli_error (ms_gettext ("too many options\n"));
    return false;
  }
  snprintf (o->names[o->n_forwarded], sizeof o->names[0], "--%s", name);
  o->forwarded[o->n_forwarded] = o->names[o->n_forwarded];
  o->n_forwarded++;
  if (value)
    o->forwarded[o->n_forwarded++] = (char *) value;
  return true;
}

/* calibrate's own options, or run's to hand on; -1 to go on, else the
 * exit status. */
static int
read_calibrate_options (CalibrateOptions *o, int argc, char **argv)
{
  const MsCliBind binds[] = { { 'o', &o->out }, { 'r', &o->runs }, { 0 } };
  MsCliArgs args;
  int c;
  ms_cli_args_init (&args, "calibrate", argc, argv);
  while ((c = ms_cli_args_next_bound (&args, &o->output, binds)) != -1)
    if (c == '?' || !forward (o, args.name, args.value))
      return EXIT_USAGE;
  if (args.operand < argc) {
    ms_cli_error (ms_gettext ("unexpected argument '%s'\n"), argv[args.operand]);
    return ms_cli_bad_usage ("calibrate");
  }
  return -1;
}

/* calibrate's own options in either form, the rest for run; then the run
 * options and where the profile goes, all checked before the first run.
 * -1 to go on, else the exit status. */
static int
parse_calibrate (CalibrateOptions *o, int argc, char **argv, const char *tmp)
{
  o->runs = 5;
  int rc = read_calibrate_options (o, argc, argv);
  if (rc >= 0)
    return rc;
  char check[PATH_MAX];
  /* The runs' folder first: its failure is TMPDIR's, not --out's. */
  if (!ms_cli_tmp_folder_ok ("calibrate"))
    return EXIT_USAGE;
  snprintf (check, sizeof check, "%s/memsweep-calibrate-check", tmp);
  if (!ms_cli_prefix_ok ("TMPDIR", check))
    return EXIT_USAGE;
  rc = ms_cli_check_run_options ("calibrate", check, false, o->n_forwarded, o->forwarded);
  if (rc >= 0)
    return rc;
  /* --out -: standard output holds the profile alone (the plan refuses
   * an export there too); /dev/stdout and /dev/fd/1 are its other names. */
  if (o->out && ms_output_plan_is_stdout (o->out))
    o->out = MS_CLI_STDIO;
  if (o->out && strcmp (o->out, MS_CLI_STDIO) == 0) {
    if (o->output.format != MS_CLI_FORMAT_TEXT) {
      ms_cli_error (ms_gettext ("--out - puts the profile on standard output, "
                                "which holds one document: export the spread into a file\n"));
      return EXIT_USAGE;
    }
    o->output.stdout_off = true;
  }
  /* --compress: PROFILE.gz (the default profile, which runs look for by
   * its name, stays plain). */
  if (o->out)
    o->out = ms_cli_compressed_name (o->out);
  if (!profile_target_ok (o->out) || !ms_cli_output_ready (&o->output))
    return EXIT_USAGE;
  return -1;
}

/* Whether the folder of path (a run's prefix in the process folder) is
 * still there. */
static bool
folder_of_exists (const char *path)
{
  char folder[PATH_MAX];
  struct stat st;
  const char *slash = strrchr (path, '/');
  snprintf (folder, sizeof folder, "%.*s", slash ? (int) (slash - path) : 1, slash ? path : ".");
  return stat (folder, &st) == 0 && S_ISDIR (st.st_mode);
}

/* Why run i of runs ended without a whole sweep, said; the exit status it
 * stands for. *go_on: the next runs may still be measured (someone else
 * stopped or ended this one, or a cell failed in it). */
static int
say_child_end (const MsChildEnd *end, int i, int runs, const char *prefix, bool *go_on)
{
  char how[256];
  *go_on = false;
  if (end->told) {
    ms_cli_error (ms_gettext ("%s: stopped in run %d of %d\n"),
                  ms_cli_signal_name (ms_supervisor_stop_signal ()), i, runs);
    return EXIT_RUNTIME;
  }
  /* Its folder in TMPDIR removed by someone else, before the run could
   * make its log there or after (it then refused its files): not written,
   * however the removal met the start (a busy machine showed both). */
  int why = errno; /* the start's, before the look below */
  bool gone = !folder_of_exists (prefix);
  if (gone && end->how == MS_CHILD_EXITED && (end->code < 0 || end->code == EXIT_USAGE)) {
    ms_cli_error (ms_gettext ("run %d of %d could not start: its folder in TMPDIR was removed\n"),
                  i, runs);
    return EXIT_WRITE;
  }
  if (end->how == MS_CHILD_EXITED && end->code < 0) {
    ms_cli_error (ms_gettext ("run %d could not start: %s\n"), i, strerror (why));
    /* Its log could not be made in TMPDIR (full, out of inodes): a file
     * not written, as in every command. */
    bool no_room = why == ENOSPC || why == EDQUOT || why == EFBIG || why == EROFS;
    return no_room ? EXIT_WRITE : EXIT_RUNTIME;
  }
  bool fatal = end->how == MS_CHILD_EXITED &&
               (end->code == EXIT_USAGE || end->code == EXIT_NO_DEVICE || end->code == EXIT_WRITE);
  *go_on = !fatal;
  ms_cli_error (fatal       ? ms_gettext ("run %d of %d %s:\n")
                : i == runs ? ms_gettext ("run %d of %d %s, so it is not "
                                          "counted:\n")
                            : ms_gettext ("run %d of %d %s, so it is not counted; "
                                          "the next runs go on:\n"),
                i, runs, ms_supervisor_describe (end, how, sizeof how));
  show_log (prefix, end);
  return fatal ? end->code : EXIT_RUNTIME;
}

/* Run i of runs ended by its CPU-time limit (ulimit -t), which every run
 * inherits afresh and would reach too: no run after it, said in one
 * line; the exit status it stands for. */
static int
cpu_limit_reached (int i, int runs)
{
  ms_cli_error (ms_gettext ("a CPU-time limit (ulimit -t) stopped run %d "
                            "of %d: no further run started\n"),
                i, runs);
  return EXIT_RUNTIME;
}

/* A whole run's samples, read back at once; its files stay in the
 * folder until the profile is written (kept there if it cannot be). */
static MsResults *
read_run (const char *prefix)
{
  char path[PATH_MAX + 32], err[PATH_MAX + 256];
  snprintf (path, sizeof path, "%s-samples.csv", prefix);
  /* The runs' own files are no inputs: protected, each would stay open. */
  bool was = ms_atomic_file_protect_reads (false);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  ms_atomic_file_protect_reads (was);
  if (!r)
    ms_cli_error ("%s\n", err);
  return r;
}

/* The folder, beside the whole runs, that holds the partial ones. */
#define PARTIAL_FOLDER "partial"

/* A run that ended with files but is not counted (stopped, or a cell
 * failed): measured work all the same, moved with its sidecar into
 * dir/partial/ under its own names, so that no reader takes it for a
 * whole run. Whether it had any. */
static bool
keep_partial (const char *dir, const char *prefix)
{
  static const char *const files[] = { "-samples.csv", "-samples.csv.gz", "-summary.csv",
                                       "-summary.csv.gz", "-meta.json", ".log" };
  char from[PATH_MAX + 32], to[PATH_MAX + 64], folder[PATH_MAX + 16];
  const char *name = strrchr (prefix, '/') + 1;
  struct stat st;
  snprintf (from, sizeof from, "%s-samples.csv", prefix);
  if (stat (from, &st) != 0 && (strcat (from, ".gz"), stat (from, &st) != 0))
    return false;
  snprintf (folder, sizeof folder, "%s/%s", dir, PARTIAL_FOLDER);
  if (mkdir (folder, 0700) != 0 && errno != EEXIST)
    return true; /* where it is, then: kept with the folder all the same */
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf (from, sizeof from, "%s%s", prefix, files[i]);
    snprintf (to, sizeof to, "%s/%s%s", folder, name, files[i]);
    rename (from, to);
  }
  return true;
}

/* The runs, one process each, until all are done, a stop, or one that
 * ends in a way the next would repeat (its CPU-time limit among them);
 * a run someone else stopped or
 * ended is said and not counted. The whole runs read into results; how
 * many, with the exit status of what went wrong in *rc. *unread: a whole
 * run whose files could not be read back (too many open files): its
 * files are measurements all the same, so the folder must be kept, as
 * for the *partial runs that wrote files but are not counted. */
static int
measure_runs (const CalibrateOptions *o, const char *dir, atomic_int *cancel, MsResults **results,
              int *rc, bool *unread, int *partial)
{
  char prefix[PATH_MAX + 16];
  int done = 0;
  *rc = EXIT_OK;
  for (int i = 1; i <= o->runs; i++) {
    if (ms_supervisor_stopping (cancel)) {
      if (i == 1)
        ms_cli_error (ms_gettext ("%s: stopped before its first run: nothing was measured\n"),
                      ms_cli_signal_name (ms_supervisor_stop_signal ()));
      else
        ms_cli_error (ms_gettext ("%s: stopped after run %d of %d\n"),
                      ms_cli_signal_name (ms_supervisor_stop_signal ()), i - 1, o->runs);
      *rc = EXIT_RUNTIME;
      return done;
    }
    if (!ms_cli_quiet ())
      ms_cli_error (ms_gettext ("run %d of %d\n"), i, o->runs);
    snprintf (prefix, sizeof prefix, "%s/run%d", dir, i);
    ms_cli_say (ms_gettext ("calibrate: run %d into %s-samples.csv"), i, prefix);
    MsChildEnd end = run_child (dir, prefix, (char **) o->forwarded, o->n_forwarded, cancel);
    bool go_on = false;
    if (end.how == MS_CHILD_EXITED && end.code == EXIT_OK && !end.told) {
      if ((results[done] = read_run (prefix)) != NULL) {
        done++;
        continue;
      }
      *unread = true;
      *rc = EXIT_WRITE;
      return done;
    }
    *rc = end.cpu_limit && !end.told ? cpu_limit_reached (i, o->runs)
                                     : say_child_end (&end, i, o->runs, prefix, &go_on);
    bool had_files = keep_partial (dir, prefix);
    *partial += had_files;
    /* Stopped, with no files in its folder: where TMPDIR could not take
     * them (full), the run kept them elsewhere; its log, or a look from
     * here (ms_supervisor_child_said), says where. */
    if (end.told && !had_files)
      show_log (prefix, &end);
    if (!go_on)
      return done;
  }
  return done;
}

/* The folder's files, where no profile could be written or a run ended
 * partial: kept and said. */
static void
keep_runs (const char *dir, int done, int partial)
{
  char kept[PATH_MAX], clean[4 * PATH_MAX];
  if (access (dir, F_OK) != 0)
    ms_cli_error (ms_ngettext ("the folder of %d finished run in TMPDIR (%s) was "
                               "removed by someone else: what it measured is gone\n",
                               "the folder of the %d finished runs in TMPDIR (%s) "
                               "was removed by someone else: what they measured is gone\n",
                               done),
                  done, ms_report_clean (dir, clean, sizeof clean));
  else if (!ms_supervisor_folder_keep (dir, kept, sizeof kept))
    ms_cli_error (ms_ngettext ("the finished run could not be kept anywhere: "
                               "what it measured is lost\n",
                               "the %d finished runs could not be kept "
                               "anywhere: what they measured is lost\n",
                               done),
                  done);
  else if (partial > 0)
    ms_cli_error (ms_gettext ("kept in %s: finished runs: %d; partial "
                              "runs, not counted: %d (in %s/)\n"),
                  ms_report_clean (kept, clean, sizeof clean), done, partial, PARTIAL_FOLDER);
  else
    ms_cli_error (ms_ngettext ("%d run's samples file is kept in %s\n",
                               "the %d runs' samples files are kept in %s\n", done),
                  done, ms_report_clean (kept, clean, sizeof clean));
}

int
ms_cli_calibrate (int argc, char **argv)
{
  CalibrateOptions o = { 0 };
  const char *tmp = ms_cli_tmp_folder ();
  /* Before the runs start, so that a signal ignored at start (nohup)
   * stays ignored and a stop keeps the finished runs. */
  atomic_int *cancel = ms_cli_stop_on_signals ();
  int rc = parse_calibrate (&o, argc, argv, tmp);
  if (rc >= 0)
    return rc;
  char dir[PATH_MAX];
  if (!ms_supervisor_folder ("calibrate", dir, sizeof dir)) {
    ms_cli_error ("TMPDIR: %s: %s\n", tmp, strerror (errno));
    return EXIT_WRITE;
  }
  if (!ms_cli_plan_folder ("TMPDIR", dir)) {
    ms_supervisor_folder_done (dir);
    return EXIT_USAGE;
  }
  MsResults *results[MS_RR_MAX_RUNS] = { 0 };
  bool unread = false;
  int partial = 0;
  int done = measure_runs (&o, dir, cancel, results, &rc, &unread, &partial);
  bool lost = false;
  /* The finished runs are kept: enough of them still make a profile. */
  if (done == o.runs || (done >= MS_CLI_PROFILE_MIN_RUNS && rc == EXIT_RUNTIME)) {
    if (done < o.runs)
      ms_cli_error (ms_gettext ("the profile is measured from the %d finished runs\n"), done);
    int written = measure_and_write (dir, results, done, o.out, &o.output, &lost);
    rc = rc == EXIT_OK ? written : written == EXIT_OK ? rc : written;
  } else if (rc == EXIT_RUNTIME) {
    ms_cli_error (ms_ngettext ("%d run finished, fewer than the %d a spread "
                               "needs: no profile written\n",
                               "%d runs finished, fewer than the %d a spread "
                               "needs: no profile written\n",
                               done),
                  done, MS_CLI_PROFILE_MIN_RUNS);
    /* Too few for a spread, but each is a whole run show and compare read. */
    lost = done > 0;
  } else if (done > 0) {
    /* A run that could not write its files (a full TMPDIR, a limit): the
     * finished ones are measurements too, kept and said. */
    lost = true;
  }
  for (int i = 0; i < done; i++)
    ms_results_free (results[i]);
  if (lost || unread || partial > 0)
    keep_runs (dir, done + unread, partial);
  else
    ms_supervisor_folder_done (dir);
  return rc;
}
