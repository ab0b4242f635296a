/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-run-options.c: the options of `memsweep run`: their help, their
 * parsing and checks before anything is measured, and the same checks for
 * the run options that calibrate, fleet and fleet-node hand on to run. */
/* memfd_create: a piped profile is read again by its path. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-engine.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-cli-common.h"
#include "ms-cli-run-options.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"
#include "ms-setting-table.h"

static const char *const stop_note =
  MS_N_ ("Ctrl+C, SIGTERM, SIGHUP or SIGQUIT (or a CPU-time limit's SIGXCPU, or\n"
         "any other signal whose default would end memsweep: SIGUSR1, SIGALRM,\n"
         "SIGPWR, the real-time signals...) stops the sweep and writes what was\n"
         "measured (exit status 1); after a second one it has 2 s to write, and\n"
         "a third ends memsweep at once.\n");

/* Every sweep setting of the table with an option, then the bound the
 * processes' rounds share (from the engine's constant) and how a stop
 * signal ends a sweep, translated. */
void
ms_cli_run_settings_usage (FILE *out)
{
  char line[2048];
  for (int i = 0; i < ms_setting_count (); i++)
    if (ms_setting_nth (i)->option) {
      ms_setting_usage (ms_setting_nth (i), line, sizeof line);
      fputs (line, out);
    }
  fprintf (out, ms_gettext ("\n--processes x --rounds: at most %d rounds in all.\n%s"),
           MS_MAX_ROUNDS, ms_gettext (stop_note));
}

/* "depth or breadth", "streamed, ordinary or fresh". */
static void
list_choices (const MsSetting *setting, char *buf, size_t len)
{
  int n = ms_setting_n_choices (setting);
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used < len; i++)
    used += (size_t) snprintf (buf + used, len - used, "%s%s",
                               i == 0 ? "" : i == n - 1 ? ms_gettext (" or ") : ", ",
                               setting->choices[i]);
}

static bool
parse_choice (const MsSetting *setting, const char *arg, double *value)
{
  char list[256];
  *value = ms_setting_choice (setting, arg);
  if (*value >= 0)
    return true;
  list_choices (setting, list, sizeof list);
  if (ms_setting_n_choices (setting) == 2)
    ms_cli_error (ms_gettext ("--%s: '%s' is neither %s nor %s\n"), setting->option, arg,
                  setting->choices[0], setting->choices[1]);
  else
    ms_cli_error (ms_gettext ("--%s: '%s' is not %s\n"), setting->option, arg, list);
  return false;
}

/* A number within the setting's range (the table's), or false after a
 * message naming the option, the value and the range; the engine checks
 * what depends on other settings with the rest (ms_sweep_validate). */
static bool
setting_in_range (const MsSetting *setting, const char *opt, const char *arg, double value)
{
  char min[32], max[32];
  if (ms_setting_in_range (setting, value))
    return true;
  ms_setting_format (setting, setting->min, min, sizeof min);
  ms_setting_format (setting, setting->max, max, sizeof max);
  if (setting->above_min)
    ms_cli_error (ms_gettext ("%s: '%s' is not over %s, up to %s\n"), opt, arg, min, max);
  else
    ms_cli_error (ms_gettext ("%s: '%s' is not from %s to %s\n"), opt, arg, min, max);
  return false;
}

/* A setting's value as given. */
static bool
parse_setting (MsCliRunOptions *o, const MsSetting *setting, const char *arg)
{
  char err[512], opt[64];
  double value = 0;
  int whole;
  bool ok;
  snprintf (opt, sizeof opt, "--%s", setting->option);
  switch (setting->kind) {
  case MS_SETTING_MODES:
    if (ms_sweep_set_modes (&o->sweep, arg, err, sizeof err))
      return true;
    ms_cli_error ("--modes: %s\n", err);
    return false;
  case MS_SETTING_CHOICE: ok = parse_choice (setting, arg, &value); break;
  case MS_SETTING_DOUBLE: ok = ms_cli_parse_double (opt, arg, &value); break;
  default:
    /* (0 would read as "off" (--reuse): the range refuses it.) */
    ok = ms_cli_parse_int (opt, arg, &whole);
    value = whole;
    break;
  }
  if (!ok || !setting_in_range (setting, opt, arg, value))
    return false;
  ms_setting_set (setting, &o->sweep, value);
  if (setting->chooses_fixed) {
    o->sweep.reps_rule = MS_REPS_FIXED;
    o->fixed_opt = setting->option;
  }
  if (setting->adaptive_only)
    o->adaptive_opt = setting->option;
  /* --reps, or the adaptive rule's options: one kind or the other. */
  if (o->fixed_opt && o->adaptive_opt) {
    ms_cli_error (ms_gettext ("--%s sets a fixed count, --%s belongs to the "
                              "adaptive rule: give one or the other\n"),
                  o->fixed_opt, o->adaptive_opt);
    return false;
  }
  return true;
}

_Static_assert (MS_CLI_MAX_SETTINGS >= 24, "room for the settings");

/* --grade's settings, each where the command line gave none: 5 rounds a
 * process (processes, not rounds, carry most of the spread: bench-turns
 * prints it), at least 4 processes and then more, of the modes still wide,
 * until every cell from 2^14 is within +-4% or the budget (30 s) is spent,
 * 3 repetitions a round (the rounds' medians carry the verdict, not the
 * repetitions within one), one of them with timers for the phases'
 * figures. Measured on the lent H100 and H200 (docs/compare.md). */
static void
apply_grade (MsCliRunOptions *o)
{
  static const struct {
    const char *option;
    double value;
  } grade[] = { { "processes", 4 }, { "grade-target", MS_GRADE_DEFAULT_TARGET_PCT }, { "rounds", 5 },
                { "vary", MS_VARY_PLACEMENT }, { "reps", 3 }, { "instrumented-reps", 1 } };
  for (size_t i = 0; i < sizeof grade / sizeof *grade; i++)
    for (int k = 0; k < ms_setting_count (); k++) {
      const MsSetting *s = ms_setting_nth (k);
      if (!s->option || strcmp (s->option, grade[i].option) != 0 || o->given[k])
        continue;
      /* The fixed count, unless the adaptive rule was asked for. */
      if (s->chooses_fixed && o->adaptive_opt)
        continue;
      ms_setting_set (s, &o->sweep, grade[i].value);
      if (s->chooses_fixed)
        o->sweep.reps_rule = MS_REPS_FIXED;
    }
}

/* A profile piped in as `calibrate --out -` writes it, its table alone as
 * in its file (its sidecar stays behind): read again, from the bytes
 * standard input gave (held), after the lines a sidecar-less table lacks:
 * of no known GPU (used as this one's) and of the fewest runs calibrate
 * measures from, whose wider intervals cannot understate the spread.
 * Said on standard error. */
static bool
read_plain_profile (MsCliRunOptions *o, char *err, size_t errlen)
{
  size_t len = 0;
  bool too_large = false;
  MsInput *in = ms_input_open (MS_INPUT_STDIN, true, err, errlen);
  char *text = in ? ms_input_read_all (in, 1 << 20, &len, &too_large, err, errlen) : NULL;
  int fd = text && !too_large ? memfd_create ("memsweep-profile", MFD_CLOEXEC) : -1;
  char path[64];
  bool ok = fd >= 0 &&
            dprintf (fd, "%s\n# device: -\n# %s: %d runs, unknown\n",
                     ms_run_to_run_profile_format.title,
                     ms_meta_table (MS_META_RUN_TO_RUN)->key, MS_CLI_PROFILE_MIN_RUNS) > 0 &&
            write (fd, text, len) == (ssize_t) len;
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  ok = ok && ms_run_to_run_read_profile (&o->profile_rr, path, o->profile_device,
                                         sizeof o->profile_device, err, errlen);
  /* Its refusal names what the user gave. */
  size_t n = strlen (path);
  if (!ok && fd >= 0 && strncmp (err, path, n) == 0) {
    memmove (err + 1, err + n, strlen (err + n) + 1);
    err[0] = '-';
  }
  if (fd >= 0)
    close (fd);
  free (text);
  if (in)
    ms_input_close (in);
  o->profile_device[0] = '\0'; /* unknown: apply_profile */
  if (ok && !ms_cli_quiet ())
    ms_cli_error (ms_gettext ("--profile -: a profile without its sidecar: its GPU "
                              "is taken for this one and its runs for %d, the fewest "
                              "calibrate measures from (the widest intervals)\n"),
                  MS_CLI_PROFILE_MIN_RUNS);
  return ok;
}

/* --profile FILE, read once before the sweep; "-" is standard input
 * (with no sidecar: the profile's inline form, or its table alone).
 * False after a message. */
static bool
read_profile (MsCliRunOptions *o)
{
  char err[PATH_MAX + 256], clean[4 * sizeof err];
  const char *path = ms_cli_input_path (o->profile);
  if (!path)
    return false;
  bool from_stdin = strcmp (path, MS_CLI_STDIO) == 0;
  bool ok = ms_run_to_run_read_profile (&o->profile_rr, path, o->profile_device,
                                        sizeof o->profile_device, err, sizeof err);
  if (!ok && ms_supervisor_stop_signal ()) {
    ms_cli_say_stopped_before_any_cell (ms_cli_signal_name (ms_supervisor_stop_signal ()));
    return false;
  }
  /* Standard input brings no sidecar: without metadata lines of its own a
   * profile piped in is of no known GPU. */
  bool no_sidecar =
    !ok && from_stdin &&
    strstr (err, ms_gettext ("the run's device, driver, link and settings are unknown"));
  if (no_sidecar)
    ok = read_plain_profile (o, err, sizeof err);
  if (!ok)
    ms_cli_error ("--profile: %s\n", ms_report_clean (err, clean, sizeof clean));
  return ok;
}

int
ms_cli_run_options_parse (MsCliRunOptions *o, int argc, char **argv)
{
  char err[PATH_MAX + 256];
  MsCliArgs args;
  int c;
  /* Every field from nothing on each parse: calibrate, fleet-node and
   * compare --live parse into a struct on their stack, once per check. */
  memset (o, 0, sizeof *o);
  ms_sweep_init_default (&o->sweep);
  o->prefix = "memsweep";
  o->output.command = "run"; /* its options handed on too */
  const MsCliBind binds[] = {
    { 'O', &o->prefix }, { 'P', &o->profile }, { 'N', &o->no_profile }, { 'G', &o->grade }, { 0 }
  };
  ms_cli_args_init (&args, "run", argc, argv);
  while ((c = ms_cli_args_next_bound (&args, &o->output, binds)) != -1) {
    int i = c - MS_CLI_KEY_SETTING (0); /* the other keys are sweep settings */
    if (i < 0 || i >= ms_setting_count ())
      return EXIT_USAGE; /* '?' */
    o->given[i] = true;
    if (!parse_setting (o, ms_setting_nth (i), args.value))
      return EXIT_USAGE;
  }
  if (args.operand < argc) {
    ms_cli_error (ms_gettext ("unexpected argument '%s'\n"), argv[args.operand]);
    return ms_cli_bad_usage (ms_cli_command ());
  }
  /* The one would undo the other without a word. */
  if (o->profile && o->no_profile) {
    ms_cli_error (ms_gettext ("--profile and --no-profile say the opposite: give one\n"));
    return ms_cli_bad_usage (ms_cli_command ());
  }
  if (o->grade)
    apply_grade (o);
  if (!ms_sweep_validate (&o->sweep, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    return EXIT_USAGE;
  }
  /* The switches every process measures under, before the first starts. */
  if (!ms_cli_experiment_ok (NULL, NULL))
    return EXIT_USAGE;
  /* Several processes write their files there first: refused now, not
   * after the first process has measured for nothing. */
  if (o->sweep.processes > 1 && !ms_cli_tmp_folder_ok ("run"))
    return EXIT_USAGE;
  /* The CPU baseline touches no GPU: say so rather than ignore the index. */
  if (o->sweep.device != 0 && !ms_sweep_uses_gpu (&o->sweep) && !ms_cli_quiet ())
    ms_cli_error (ms_gettext ("note: --device %d has no effect: the host mode runs "
                              "on the CPU only\n"),
                  o->sweep.device);
  if (o->profile && !read_profile (o))
    return ms_supervisor_stop_signal () ? EXIT_RUNTIME : EXIT_USAGE;
  /* The table goes there after the sweep: said before it. */
  if (!ms_cli_stdout_not_input ())
    return EXIT_USAGE;
  if (!ms_cli_prefix_names_files ("--out", o->prefix, "-samples.csv") ||
      !ms_cli_output_ready (&o->output))
    return EXIT_USAGE;
  /* A sweep can take minutes: find a missing folder, a bad name or a
   * sidecar of other files (a profile's, P.csv beside P-meta.json) now. */
  return ms_cli_pair_ok ("--out", o->prefix, o->samples_path, o->summary_path) ? -1 : EXIT_USAGE;
}

/* Whether an option handed on to run is a run option there; false after
 * a message: what the command sets itself, --help, and --profile where
 * each run reads its own or none. */
static bool
handed_on (const char *command, int key, const char *value, bool allow_profile)
{
  switch (key) {
  case '?': return false;
  case 'h':
    ms_cli_error (ms_gettext ("--help is no run option here: see 'memsweep %s --help'\n"), command);
    return false;
  case 'O':
    ms_cli_error (ms_gettext ("--out is set by %s itself, not a run option\n"), command);
    return false;
  case 'P':
  case 'N':
    if (!allow_profile) {
      ms_cli_error (ms_gettext ("--%s belongs to run, not to %s\n"),
                    key == 'P' ? "profile" : "no-profile", command);
      return false;
    }
    /* Standard input is read once, by the run the command starts. */
    if (key == 'P' && strcmp (value, MS_CLI_STDIO) == 0) {
      ms_cli_error (ms_gettext ("--profile -: each of its runs reads its own profile; give a "
                                "file\n"));
      return false;
    }
    return true;
  default: return true;
  }
}

int
ms_cli_check_run_options (const char *command, const char *prefix, bool allow_profile, int argc,
                          char **argv)
{
  enum { MAX_RUN_ARGS = 64 };
  char *args[MAX_RUN_ARGS + 2] = { "run" };
  const char *fixed[] = { "run", "--out", prefix, NULL };
  MsCliRunOptions o;
  MsCliArgs handed;
  int key;
  if (argc > MAX_RUN_ARGS) {
    ms_cli_error (ms_gettext ("too many run options\n"));
    return EXIT_USAGE;
  }
  /* Read once as they are, before the profile is: what only the command
   * may set is said as such, not as an option given twice. */
  memcpy (args + 1, argv, (size_t) argc * sizeof *argv);
  ms_cli_args_init (&handed, "run", argc + 1, args);
  while ((key = ms_cli_args_next (&handed)) != -1)
    if (!handed_on (command, key, handed.value, allow_profile))
      return EXIT_USAGE;
  int rc = ms_cli_side_parse (fixed, args, argc + 1, &o);
  return rc < 0 ? -1 : rc == EXIT_OK ? EXIT_USAGE : rc;
}

/* text's words into words (room for strlen (text) / 2 + 1) and buf (room
 * for strlen (text) + 1); their count, or -1 at an unclosed quote. */
static int
split_words (const char *text, char **words, char *buf)
{
  int n = 0;
  for (const char *p = text; *p;) {
    p += strspn (p, " \t\n");
    if (!*p)
      break;
    words[n++] = buf;
    for (char quote = 0; *p && (quote || !strchr (" \t\n", *p)); p++) {
      if (!quote && (*p == '\'' || *p == '"'))
        quote = *p;
      else if (quote && *p == quote)
        quote = 0;
      else if (*p == '\\' && quote != '\'' && p[1] &&
               (!quote || strchr ("\"\\$`", p[1])))
        *buf++ = *++p;
      else
        *buf++ = *p;
      if (!p[1] && quote)
        return -1;
    }
    *buf++ = '\0';
  }
  return n;
}

/* Each option among words (words[0] "run") in turn, read silently by
 * run's parser: its whole name, or NULL at the end or where run refuses. */
static const char *
next_side_option (MsCliArgs *a, int *key)
{
  *key = ms_cli_args_next (a);
  return *key == -1 || *key == '?' ? NULL : a->name;
}

static bool
side_words_ok (const char *option, char **words, int n, const char *const *reserved)
{
  MsCliArgs a;
  int key;
  ms_cli_args_init (&a, "run", n, words);
  a.silent = true;
  for (const char *name; (name = next_side_option (&a, &key));) {
    bool own = false;
    for (const char *const *r = reserved; *r; r++)
      own |= strcmp (*r, name) == 0;
    if (own) {
      /* TRANSLATORS: "--a: --processes is set by compare itself" */
      ms_cli_error (ms_gettext ("%s: --%s is set by %s itself\n"), option, name, ms_cli_command ());
      return false;
    }
    if (key < MS_CLI_KEY_SETTING (0) || key >= MS_CLI_KEY_SETTING (ms_setting_count ())) {
      ms_cli_error (ms_gettext ("%s: --%s is not a sweep setting: a side's processes take "
                                "only those (memsweep run --help)\n"),
                    option, name);
      return false;
    }
  }
  /* What run refuses, it says when the caller reads the words. */
  return true;
}

char **
ms_cli_side_words (const char *option, const char *text, const char *const *reserved, int *n)
{
  size_t len = strlen (text ? text : "");
  char **words = malloc ((len / 2 + 3) * sizeof *words + len + 1);
  if (!words) {
    ms_cli_error ("%s: %s\n", option, strerror (ENOMEM));
    return NULL;
  }
  words[0] = "run";
  *n = 1 + split_words (text ? text : "", words + 1, (char *) (words + len / 2 + 3));
  if (*n == 0) {
    ms_cli_error (ms_gettext ("%s: a quote is not closed\n"), option);
    free (words);
    return NULL;
  }
  words[*n] = NULL;
  /* Read on a copy: the parser reorders what it reads. */
  char **copy = malloc ((size_t) (*n + 1) * sizeof *copy);
  bool ok = copy && (memcpy (copy, words, (size_t) (*n + 1) * sizeof *copy),
                     side_words_ok (option, copy, *n, reserved));
  free (copy);
  if (!ok) {
    free (words);
    return NULL;
  }
  return words;
}

bool
ms_cli_side_gives (char **words, int n, const char *name)
{
  const MsCliKey *k = ms_cli_option_keys ("run");
  while (k->name && strcmp (k->name, name) != 0)
    k++;
  return k->name && ms_cli_args_give (ms_cli_command_find ("run"), n, words, k->key);
}

int
ms_cli_side_parse (const char *const *fixed, char **words, int n, MsCliRunOptions *o)
{
  int n_fixed = 0;
  while (fixed[n_fixed])
    n_fixed++;
  char **argv = calloc ((size_t) (n_fixed + n), sizeof *argv);
  if (!argv)
    return EXIT_USAGE;
  memcpy (argv, fixed, (size_t) n_fixed * sizeof *argv);
  memcpy (argv + n_fixed, words + 1, (size_t) (n - 1) * sizeof *argv);
  ms_cli_plan_pause (true);
  int rc = ms_cli_run_options_parse (o, n_fixed + n - 1, argv);
  ms_cli_plan_pause (false);
  free (argv);
  return rc;
}
