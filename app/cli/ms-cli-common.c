/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-common.c: what the command line's commands share: stopping on
 * signals, option values, the state of standard output. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-engine.h"
#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"
#include "ms-setting-table.h"

/* "SIGRTMIN+3" or "SIGRTMAX-2", as kill -l names them. */
static const char *
rt_name (int sig)
{
  static char names[64][16];
  int k = sig - SIGRTMIN, m = SIGRTMAX - sig;
  if (k < 0 || k >= 64)
    return "SIGRT";
  if (k <= (SIGRTMAX - SIGRTMIN) / 2)
    snprintf (names[k], sizeof names[k], k ? "SIGRTMIN+%d" : "SIGRTMIN", k);
  else
    snprintf (names[k], sizeof names[k], m ? "SIGRTMAX-%d" : "SIGRTMAX", m);
  return names[k];
}

const char *
ms_cli_signal_name (int sig)
{
  return sig == SIGINT    ? "SIGINT"
         : sig == SIGTERM ? "SIGTERM"
         : sig == SIGHUP  ? "SIGHUP"
         : sig == SIGQUIT ? "SIGQUIT"
         : sig == SIGXCPU ? "SIGXCPU"
         : sig == SIGUSR1 ? "SIGUSR1"
         : sig == SIGUSR2 ? "SIGUSR2"
         : sig == SIGALRM ? "SIGALRM"
         : sig == SIGPWR  ? "SIGPWR"
         : sig == SIGPROF ? "SIGPROF"
         : sig == SIGVTALRM ? "SIGVTALRM"
         : sig == SIGIO ? "SIGIO"
         : sig == SIGSTKFLT ? "SIGSTKFLT"
         : sig >= SIGRTMIN && sig <= SIGRTMAX ? rt_name (sig)
                          : ms_gettext ("a signal");
}

/* A command that supervises no process writes what finished within 2 s
 * of a second signal; a third ends it at once, without leaving a
 * temporary file behind (ms-supervisor.h). */
static bool
told_to_stop (void)
{
  return ms_supervisor_stop_signal () != 0;
}

atomic_int *
ms_cli_stop_on_signals (void)
{
  /* A stalled standard input (--profile -) must not outlast a stop. */
  ms_input_set_stop (told_to_stop);
  return ms_supervisor_catch_stop_signals (ms_atomic_file_remove_temporaries);
}

double
ms_cli_now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

bool
ms_cli_stopped_before_any_cell (MsRunStatus st, const MsResults *results, const char *run_err)
{
  if (st != MS_RUN_CANCELLED)
    return false;
  for (size_t i = 0; results && i < results->n_cells; i++)
    if (results->cells[i].n_reps > 0)
      return false;
  int sig = ms_supervisor_stop_signal ();
  ms_cli_say_stopped_before_any_cell (sig ? ms_cli_signal_name (sig) : run_err);
  return true;
}

void
ms_cli_say_stopped_before_any_cell (const char *why)
{
  ms_cli_error (ms_gettext ("%s: stopped before any cell was measured: nothing written\n"), why);
}

bool
ms_cli_stdout_not_input (void)
{
  fflush (stdout);
  if (!ms_atomic_file_is_input_fd (STDOUT_FILENO))
    return true;
  ms_cli_error ("%s", ms_gettext ("standard output is one of the inputs: nothing written\n"));
  return false;
}

/* Whether a binary format may go to standard output: not to a terminal,
 * where it is refused with a message (the caller exits 2). */
static bool
binary_stdout_ok (const char *format)
{
  /* A PDF's or PNG's bytes on a terminal garble it and help nobody: the
   * user meant a file or a pipe (curl refuses the same). */
  if (!isatty (STDOUT_FILENO))
    return true;
  ms_cli_error (ms_gettext ("--out - --format %s: standard output is a terminal; "
                            "send it to a file or a program (> FILE.%s), or give "
                            "--out FILE.%s\n"),
                format, format, format);
  return false;
}

bool
ms_cli_drawn_format (const char *command, const char *out, const char *format, char *word)
{
  const char *words = ms_cli_option_value (command, "format");
  if (strcmp (out, MS_CLI_STDIO) == 0) {
    if (!format)
      ms_cli_error (ms_gettext ("--out -: give --format %s for standard output\n"), words);
    bool text = format && (!strcmp (format, "svg") || !strcmp (format, "html"));
    strcpy (word, format ? format : "");
    return format && (text || binary_stdout_ok (format)) && ms_cli_stdout_not_input ();
  }
  /* .htm is an HTML page's other extension. */
  const char *dot = strrchr (out, '.');
  const char *ext = !dot ? "" : strcasecmp (dot, ".htm") == 0 ? "html" : dot + 1;
  size_t n = strlen (ext);
  for (const char *p = words; n > 0 && *p; p += strcspn (p, "|"), p += *p == '|') {
    if (strcspn (p, "|") != n || strncasecmp (p, ext, n) != 0
        || (format && strcasecmp (format, ext)))
      continue;
    snprintf (word, n + 1, "%s", p);
    return true;
  }
  if (format)
    ms_cli_error (ms_gettext ("--out: '%s' must end in .%s, as --format says\n"), out, format);
  else
    ms_cli_error (ms_gettext ("--out: '%s' must end in the extension of a format: %s\n"), out,
                  words);
  return false;
}

int
ms_cli_output_status (bool files_written)
{
  int out = ms_cli_stdout_status ();
  return !files_written ? EXIT_WRITE : out;
}

/* Whether standard output is a pipe or socket whose reader has gone: poll
 * says so (POLLERR) whatever write found it first and whatever errno has
 * become since. */
bool
ms_cli_stdout_reader_gone (void)
{
  struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };
  return poll (&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/* Why standard output failed, where the write that failed was an earlier
 * flush of the stream and its errno is gone: a device says it again to a
 * write of nothing (/dev/full), a file is past its size limit or on a
 * full file system; else an I/O error. */
static int
stdout_error (void)
{
  struct stat st;
  struct statvfs fs;
  struct rlimit limit;
  if (write (STDOUT_FILENO, "", 0) < 0)
    return errno;
  if (fstat (STDOUT_FILENO, &st) != 0 || !S_ISREG (st.st_mode))
    return EIO;
  if (getrlimit (RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      (rlim_t) st.st_size >= limit.rlim_cur)
    return EFBIG;
  return fstatvfs (STDOUT_FILENO, &fs) == 0 && fs.f_bavail == 0 ? ENOSPC : EIO;
}

/* Output that did not arrive is a failure: a full disk, an I/O error.
 * Said once, however often it is asked. A reader that stopped reading
 * (`show F | head`) is not: the output went as far as it was wanted, so
 * that is a quiet success, as for cat and grep with SIGPIPE's default. */
bool
ms_cli_stdout_ok (void)
{
  static bool said;
  errno = 0;
  if (fflush (stdout) == 0 && !ferror (stdout))
    return true;
  if (errno == EPIPE || ms_cli_stdout_reader_gone ())
    return true;
  if (!said && ms_stalled_output_given_up (STDOUT_FILENO))
    ms_cli_error (ms_gettext ("standard output took nothing for %d s after the stop "
                              "signal: the rest of what goes there is not written\n"),
                  MS_STALLED_OUTPUT_S);
  else if (!said)
    ms_cli_error (ms_gettext ("standard output: %s\n"), strerror (errno ? errno : stdout_error ()));
  said = true;
  return false;
}

/* Standard output that could not be written is an output not written, as
 * a file is: one status for it in every command (compare's 1 is a
 * difference found, so it could not be 1 there). */
int
ms_cli_stdout_status (void)
{
  return ms_cli_stdout_ok () ? EXIT_OK : EXIT_WRITE;
}

static const char *current_command;
/* "memsweep CMD: ", which begins every message. */
static char lead[64] = "memsweep: ";

void
ms_cli_set_command (const char *name)
{
  current_command = name;
  snprintf (lead, sizeof lead, "memsweep%s%s: ", name ? " " : "", name ? name : "");
  /* The engine's own messages, of files and processes, begin the same. */
  ms_atomic_file_set_say (ms_cli_error_v, lead);
}

const char *
ms_cli_command (void)
{
  return current_command;
}

void
ms_cli_error_v (const char *format, va_list args)
{
  /* A name or value given with a newline or an escape sequence in it goes
   * out escaped (\x0a, \x1b): one message a line, no terminal control.
   * A message's own line ends only its last. The whole message goes out
   * in one write: the stop watcher's words, written meanwhile, fall
   * between messages, never inside one. */
  va_list again;
  va_copy (again, args);
  int n = vsnprintf (NULL, 0, format, args);
  size_t lead_len = strlen (lead), used = lead_len;
  char *text = n >= 0 ? malloc ((size_t) n + 1) : NULL;
  char *out = text ? malloc (lead_len + 4 * (size_t) n + 1) : NULL;
  n = out ? vsnprintf (text, (size_t) n + 1, format, again) : -1;
  va_end (again);
  if (out)
    memcpy (out, lead, lead_len);
  for (int i = 0; i < n; i++) {
    unsigned char c = (unsigned char) text[i];
    if ((c < 0x20 && c != '\t' && !(c == '\n' && i == n - 1)) || c == 0x7f)
      used += (size_t) snprintf (out + used, 5, "\\x%02x", c);
    else
      out[used++] = (char) c;
  }
  fwrite (out ? out : lead, 1, out ? used : lead_len, stderr);
  free (out);
  free (text);
}

void
ms_cli_error (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  ms_cli_error_v (format, args);
  va_end (args);
}

int
ms_cli_bad_usage (const char *command)
{
  fprintf (stderr, ms_gettext ("Try 'memsweep %s --help'.\n"), command);
  return EXIT_USAGE;
}

/* Decimal digits after an optional '-', nothing else: strtol and strtod
 * would also take leading blanks, a '+', hexadecimal, "inf" and "nan". */
static bool
is_decimal (const char *value, const char *allowed)
{
  const char *digits = value + (*value == '-');
  return *digits >= '0' && *digits <= '9' && strspn (digits, allowed) == strlen (digits);
}

bool
ms_cli_whole_number (const char *text, long long min, long long max, long long *out)
{
  char *end;
  errno = 0;
  if (!is_decimal (text, "0123456789"))
    return false;
  long long v = strtoll (text, &end, 10);
  /* "-0" is no way to write 0 (the file readers refuse it too). */
  if (errno || *end || v < min || v > max || (v == 0 && text[0] == '-'))
    return false;
  *out = v;
  return true;
}

int
ms_cli_whole_number_list (const char *text, char sep, int max, int hi, int *out)
{
  int n = 0;
  for (const char *p = text;; p++) {
    const char *end = strchr (p, sep);
    size_t len = end ? (size_t) (end - p) : strlen (p);
    char piece[24];
    long long v;
    if (n == max || len == 0 || len >= sizeof piece)
      return -1;
    memcpy (piece, p, len);
    piece[len] = '\0';
    if (!ms_cli_whole_number (piece, 0, hi, &v))
      return -1;
    out[n++] = (int) v;
    if (!end)
      return n;
    p = end;
  }
}

bool
ms_cli_parse_int (const char *opt, const char *value, int *out)
{
  long long v;
  if (!ms_cli_whole_number (value, INT_MIN, INT_MAX, &v)) {
    ms_cli_error (ms_gettext ("%s: '%s' is not a whole number\n"), opt, value);
    return false;
  }
  *out = (int) v;
  return true;
}

bool
ms_cli_parse_count (const char *opt, const char *value, int min, int max, int *out)
{
  long long v;
  if (!ms_cli_whole_number (value, min, max, &v)) {
    ms_cli_error (ms_gettext ("%s: '%s' is not a whole number from %d to %d\n"),
             opt, value, min, max);
    return false;
  }
  *out = (int) v;
  return true;
}

bool
ms_cli_parse_double (const char *opt, const char *value, double *out)
{
  char *end = (char *) value;
  errno = 0;
  /* '.5' is a number too; an exponent (1e3) is not, as in every number
   * the command line reads. */
  bool decimal = is_decimal (value[0] == '.' ? value + 1 : value, "0123456789.");
  double v = decimal ? strtod (value, &end) : 0;
  if (!decimal || end == value || *end) {
    ms_cli_error (ms_gettext ("%s: '%s' is not a number in digits, with a '.' for a fraction "
                              "(1000, 2.5; no exponent)\n"),
                  opt, value);
    return false;
  }
  if (errno == ERANGE) {
    ms_cli_error (ms_gettext ("%s: '%s' is out of range\n"), opt, value);
    return false;
  }
  *out = v;
  return true;
}

bool
ms_cli_devices_ok (const char *opt, const char *list, int min)
{
  int devices[MS_MULTI_MAX_DEVICES + 1];
  int n = strcmp (list, "all") == 0 ? MS_MULTI_MAX_DEVICES
                                    : ms_cli_whole_number_list (list, ',', MS_MULTI_MAX_DEVICES + 1,
                                                                INT_MAX, devices);
  /* One GPU named twice would be measured beside itself. */
  for (int i = 0; i < n && n != MS_MULTI_MAX_DEVICES; i++)
    for (int j = 0; j < i; j++)
      if (devices[i] == devices[j]) {
        ms_cli_error (ms_gettext ("%s: '%s' names GPU %d twice\n"), opt, list, devices[i]);
        return false;
      }
  if (n >= min)
    return true;
  if (n > 0)
    ms_cli_error (ms_ngettext ("%s: '%s' names %d GPU: at least %d are needed\n",
                               "%s: '%s' names %d GPUs: at least %d are needed\n", n),
                  opt, list, n, min);
  else
    ms_cli_error (ms_gettext ("%s: '%s' is not 'all' or indices separated by commas\n"), opt, list);
  return false;
}

int
ms_cli_resolve_devices (const char *who, const char *list, int min, int *devices, int *n,
                        MsDeviceInfo *first)
{
  MsDeviceInfo gpu0;
  first = first ? first : &gpu0;
  MsBackend *backend = ms_backend_new_system ();
  bool any = ms_backend_query_device (backend, 0, first);
  char err[256] = "";
  ms_backend_free (backend);
  if (!any) {
    ms_cli_error (ms_gettext ("no usable CUDA device: %s\n"), first->error);
    return EXIT_NO_DEVICE;
  }
  if (ms_multi_parse_devices (list ? list : "all", first->count, devices, n, err, sizeof err)
      && *n >= min)
    return -1;
  fprintf (stderr, "%s: %s\n", who, err[0] ? err : ms_gettext ("two or more GPUs are needed"));
  return EXIT_USAGE;
}

void
ms_cli_query_devices (const int *devices, int n, MsDeviceInfo *info)
{
  MsBackend *backend = ms_backend_new_system ();
  for (int i = 0; i < n; i++)
    ms_backend_query_device (backend, devices[i], &info[i]);
  ms_backend_free (backend);
}

void
ms_cli_protect_envelopes (const char *option)
{
  char path[PATH_MAX];
  /* "-": standard input, which may be the envelope file itself. */
  if (option && strcmp (option, MS_CLI_STDIO) == 0)
    ms_csv_pair_protect ("/dev/stdin");
  else if (option)
    ms_atomic_file_protect (option);
  else if (ms_envelopes_default_path (path, sizeof path))
    ms_atomic_file_protect (path);
}

bool
ms_cli_prefix_ok (const char *given_by, const char *prefix)
{
  char samples[PATH_MAX], summary[PATH_MAX], err[PATH_MAX + 256], clean[4 * sizeof err];
  const char *paths[] = { samples, summary };
  if (!ms_atomic_file_output_name (prefix, "-samples.csv", samples, sizeof samples) ||
      !ms_atomic_file_output_name (prefix, "-summary.csv", summary, sizeof summary))
    snprintf (err, sizeof err, "%s-samples.csv: %s", prefix, strerror (ENAMETOOLONG));
  else if (ms_meta_sidecar_check_targets (paths, 2, err, sizeof err))
    return true;
  ms_cli_error ("%s: %s\n", given_by, ms_report_clean (err, clean, sizeof clean));
  return false;
}

/* The longest name below TMPDIR a process writes, "/" included:
 * "/memsweep-calibrate-PID-XXXXXX/memsweep-kept-XXXXXX/" and
 * "runNN-samples.csv.gz.part-NNNN.memsweep-XXXXXX", with room to spare. */
#define MS_CLI_TMP_NAMES_MAX 192

const char *
ms_cli_tmp_folder (void)
{
  const char *tmp = getenv ("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

bool
ms_cli_experiment_ok (const char *option, const char *text)
{
  char err[512], clean[4 * sizeof err];
  MsExperiment x;
  bool ok = option ? ms_experiment_parse (text, &x, err, sizeof err)
                   : ms_experiment_get (err, sizeof err) != NULL;
  if (!ok)
    ms_cli_error ("%s%s%s\n", option ? option : "", option ? ": " : "",
                  ms_report_clean (err, clean, sizeof clean));
  return ok;
}

bool
ms_cli_tmp_folder_ok (const char *command)
{
  struct stat st;
  const char *tmp = ms_cli_tmp_folder ();
  int e = stat (tmp, &st) != 0 ? errno : !S_ISDIR (st.st_mode) ? ENOTDIR
                                      : access (tmp, W_OK | X_OK) != 0 ? errno : 0;
  /* Room for the longest name a process writes below it (its folder, a
   * kept folder, a part of a kept file, a temporary or a hold), so that
   * no process refuses its own files after the work has begun. */
  if (e == 0 && strlen (tmp) + MS_CLI_TMP_NAMES_MAX >= PATH_MAX)
    e = ENAMETOOLONG;
  if (e == 0)
    return true;
  fprintf (stderr, ms_gettext ("memsweep %s: TMPDIR: %s: no folder for the runs: %s\n"), command,
           tmp, strerror (e));
  return false;
}

/* While a command checks the run options it hands on (calibrate's and
 * fleet's runs, compare --live's sides), their outputs are the runs' own,
 * not the command's: checked, not planned. */
static int plan_paused;

void
ms_cli_plan_pause (bool pause)
{
  plan_paused += pause ? 1 : -1;
}

static bool
planned (bool ok, const char *err)
{
  char clean[4 * (PATH_MAX + 512)];
  if (!ok)
    ms_cli_error ("%s\n", ms_report_clean (err, clean, sizeof clean));
  return ok;
}

bool
ms_cli_plan_file (const char *option, const char *path)
{
  char err[PATH_MAX + 512], why[PATH_MAX + 256];
  if (!plan_paused)
    return planned (ms_output_plan_add (option, path, err, sizeof err), err);
  bool ok = strcmp (path, MS_CLI_STDIO) == 0 || ms_atomic_file_check (path, why, sizeof why);
  snprintf (err, sizeof err, "%s: %s", option, why);
  return planned (ok, err);
}

bool
ms_cli_outputs_ok (const char *option, const char *const *paths, const MsFileKind *kinds, int n)
{
  char err[PATH_MAX + 512], why[PATH_MAX + 256];
  if (!plan_paused)
    return planned (ms_output_plan_add_set (option, paths, kinds, n, err, sizeof err), err);
  bool ok = ms_meta_sidecar_check_targets (paths, n, why, sizeof why);
  snprintf (err, sizeof err, "%s: %s", option, why);
  return planned (ok, err);
}

bool
ms_cli_plan_folder (const char *option, const char *path)
{
  char err[PATH_MAX + 512];
  return plan_paused || planned (ms_output_plan_add_folder (option, path, err, sizeof err), err);
}

const char *
ms_cli_input_path (const char *path)
{
  static bool stdin_taken;
  if (strcmp (path, MS_CLI_STDIO) != 0) {
    ms_csv_pair_protect (path);
    return path;
  }
  if (stdin_taken) {
    ms_cli_error (ms_gettext ("-: standard input is read once: name the other file\n"));
    return NULL;
  }
  stdin_taken = true;
  /* Standard input may be a file, which no output may replace or grow. */
  ms_csv_pair_protect ("/dev/stdin");
  return path;
}

bool
ms_cli_is_run (const char *path)
{
  MsFileKind kind = ms_file_kind (path);
  const MsFileKindInfo *info = ms_file_kind_info (kind);
  /* Not a kind memsweep writes, or unreadable: the reader says why. */
  if (!info || info->run)
    return true;
  char clean[4 * 4096];
  ms_cli_error (ms_gettext ("%s is %s, not a run: it is read by %s\n"),
                ms_report_clean (path, clean, sizeof clean), ms_file_kind_describe (kind),
                ms_gettext (info->read_by));
  return false;
}

/* Whether a and b name one file; standard input given twice is
 * ms_cli_input_path's to refuse (it is read once). */
static bool
same_input (const char *a, const char *b)
{
  struct stat sa, sb;
  if (strcmp (a, MS_CLI_STDIO) == 0 || strcmp (b, MS_CLI_STDIO) == 0)
    return false;
  return strcmp (a, b) == 0 || (ms_input_look (a, &sa) && ms_input_look (b, &sb) &&
                                sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

void
ms_cli_note_same_inputs (char *const *paths, int n)
{
  char clean_a[4 * PATH_MAX], clean_b[4 * PATH_MAX];
  /* Protected first: each opened once, then told apart by what was opened. */
  for (int i = 0; i < n; i++)
    if (strcmp (paths[i], MS_CLI_STDIO) != 0)
      ms_csv_pair_protect (paths[i]);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (same_input (paths[i], paths[j]))
        ms_cli_error (ms_gettext ("note: %s and %s are the same file: that run is read "
                                  "twice, as if it were two\n"),
                      ms_report_clean (paths[i], clean_a, sizeof clean_a),
                      ms_report_clean (paths[j], clean_b, sizeof clean_b));
}

#ifdef MS_HAVE_DRAW
static void
free_results (gpointer r)
{
  ms_results_free (r);
}

/* The run of a samples or summary file, "-" standard input; NULL after
 * "memsweep CMD: why". */
static MsResults *
read_run (const char *path)
{
  char err[1024], clean[4096];
  const char *file = ms_cli_input_path (path);
  if (!file || !ms_cli_is_run (file))
    return NULL;
  MsResults *r = ms_run_read_samples (file, err, sizeof err);
  if (!r)
    ms_cli_error ("%s\n", ms_report_clean (err, clean, sizeof clean));
  return r;
}

GPtrArray *
ms_cli_load_runs (char **paths, int n)
{
  ms_cli_note_same_inputs (paths, n);
  GPtrArray *runs = g_ptr_array_new_with_free_func (free_results);
  for (int i = 0; i < n; i++) {
    MsResults *r = read_run (paths[i]);
    if (!r) {
      g_ptr_array_unref (runs);
      return NULL;
    }
    g_ptr_array_add (runs, r);
  }
  return runs;
}

void
ms_cli_print_error (const GError *error)
{
  /* A file name may hold control characters: escaped, as everywhere. */
  size_t len = 4 * strlen (error->message) + 1;
  g_autofree char *clean = g_malloc (len);
  ms_cli_error ("%s\n", ms_report_clean (error->message, clean, len));
}
#endif
