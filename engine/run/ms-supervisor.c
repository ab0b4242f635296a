/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-supervisor.c: the one policy for commands that start processes
 * (ms-supervisor.h): stop signals, private folders, children. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* prctl, unlinkat's AT_REMOVEDIR, dirfd */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-clock.h"
#include "ms-csv-pair.h"
#include "ms-file-kinds.h"
#include "ms-i18n.h"
#include "ms-output-plan.h"
#include "ms-stop-signals.h"
#include "ms-supervisor.h"
#include "ms-stalled-output.h"

extern char **environ;

/* The stop signals: ms-stop-signals.h. SIGPROF is left to a profiler
 * that installed its handler first (gprof). */

static atomic_int cancel_flag;
static atomic_int stop_count;
static atomic_int supervising;
static volatile sig_atomic_t first_signal;
/* By signal number; set for stop signals only. */
static bool ignored_at_start[NSIG];
static bool known_at_start;
static void (*at_once_fn) (void);

/* How long a child may take to end after a second stop. */
#define MS_SUPERVISOR_GRACE_S 2.0
/* How long a child stopped by someone else stays stopped. */
#define MS_SUPERVISOR_STOPPED_S 10.0

/* Set in the environment of every child a supervisor starts, to the
 * supervisor's pid: such a child leaves a second stop to its supervisor
 * (below). A child believes it only while that pid is its parent, so the
 * variable left in a user's own environment changes nothing. */
#define MS_SUPERVISED_NAME "MEMSWEEP_SUPERVISED"
static bool supervised_child;
static char second_said[512], ended_said[512];
static volatile sig_atomic_t second_said_len, ended_said_len, second_signal;

static void
say (const char *text, volatile sig_atomic_t *len)
{
  /* Translated when the handlers were installed (write is
   * async-signal-safe). */
  if (*len > 0)
    ms_stalled_output_say (STDERR_FILENO, text, (unsigned long) *len);
}

#define MS_SUPERVISOR_MAX_FOLDERS 16
static pthread_mutex_t folders_lock = PTHREAD_MUTEX_INITIALIZER;
static char folders[MS_SUPERVISOR_MAX_FOLDERS][PATH_MAX];

/* Ended at once (a third stop) while processes' files were in a folder of
 * this command's (their merge, its final write): the folder stays, as
 * what they measured, and is named, or only the next command's sweep
 * would find it. The sentence is translated when the handlers are
 * installed and said in two parts around the path. */
static char folder_said[2][256];
static size_t folder_said_len[2];

static void
split_folder_said (void)
{
  const char *text = ms_gettext ("what its processes measured is left in %s\n");
  const char *lead = ms_atomic_file_say_lead ();
  const char *at = strstr (text, "%s");
  folder_said_len[1] = 0; /* said only once both parts are there */
  if (!at || strlen (lead) + strlen (text) >= sizeof folder_said[0])
    return;
  memcpy (folder_said[0], lead, strlen (lead));
  memcpy (folder_said[0] + strlen (lead), text, (size_t) (at - text));
  folder_said_len[0] = strlen (lead) + (size_t) (at - text);
  memcpy (folder_said[1], at + 2, strlen (at + 2));
  folder_said_len[1] = strlen (at + 2);
}

/* In a signal handler: write only. */
static void
say_folders_left (void)
{
  for (int i = 0; folder_said_len[1] && i < MS_SUPERVISOR_MAX_FOLDERS; i++) {
    size_t n = strnlen (folders[i], PATH_MAX);
    if (n == 0)
      continue;
    char line[PATH_MAX + sizeof folder_said[0] * 2];
    size_t len = 0;
    memcpy (line, folder_said[0], folder_said_len[0]);
    len += folder_said_len[0];
    memcpy (line + len, folders[i], n);
    len += n;
    memcpy (line + len, folder_said[1], folder_said_len[1]);
    len += folder_said_len[1];
    ms_stalled_output_say (STDERR_FILENO, line, len);
  }
}

/* A third stop, or the grace after the second run out (SIGALRM): ended
 * at once, its temporaries removed, with 128 + the stop signal, and said,
 * so that such an exit is never silent. */
static void
end_at_once (int sig)
{
  int stop = second_signal ? second_signal : sig;
  if (at_once_fn)
    at_once_fn ();
  say (ended_said, &ended_said_len);
  say_folders_left ();
  ms_stalled_output_restore ();
  signal (stop, SIG_DFL);
  raise (stop);
}

static void
on_stop_signal (int sig)
{
  /* The kernel repeats SIGXCPU every second past the soft limit, until
   * the hard one kills: a repeat is no second stop. */
  if (sig == SIGXCPU && atomic_load (&stop_count) > 0)
    return;
  int before = atomic_fetch_add (&stop_count, 1);
  if (before == 0) {
    first_signal = sig;
    atomic_store (&cancel_flag, 1);
    ms_stalled_output_stop_requested ();
    return;
  }
  /* A supervisor's wait passes the second stop on and ends the child
   * itself; dying here would leave the child and its folder behind. A
   * supervised child gets one stop from its supervisor and often the same
   * from outside (pkill, systemd and Slurm signal every process): it
   * writes what it measured, and a supervisor told twice SIGKILLs it. */
  if (atomic_load (&supervising) || supervised_child)
    return;
  if (before > 1) {
    end_at_once (sig);
    return;
  }
  /* The second: a scheduler's stop often reaches a process twice within
   * milliseconds (the job's signal and then its step's), while the first
   * is still writing. What finished is written if that takes at most the
   * grace a supervisor gives its children; a hung write or a third stop
   * ends it at once. */
  second_signal = sig;
  say (second_said, &second_said_len);
  struct sigaction sa = { 0 };
  sa.sa_handler = end_at_once;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
  alarm ((unsigned) MS_SUPERVISOR_GRACE_S);
}

/* Which stop signals were ignored when memsweep started, read once before
 * any handler replaces them. */
static void
note_dispositions (void)
{
  if (known_at_start)
    return;
  for (int k = 0, sig; (sig = ms_stop_signal_nth (k)); k++) {
    struct sigaction old;
    bool read = sigaction (sig, NULL, &old) == 0;
    ignored_at_start[sig] = read && (old.sa_handler == SIG_IGN ||
                                     (sig == SIGPROF && old.sa_handler != SIG_DFL));
  }
  known_at_start = true;
}

static bool
started_by_a_supervisor (void)
{
  const char *mark = getenv (MS_SUPERVISED_NAME);
  char *end;
  if (!mark || !mark[0])
    return false;
  long pid = strtol (mark, &end, 10);
  return *end == '\0' && pid > 1 && pid == (long) getppid ();
}

atomic_int *
ms_supervisor_catch_stop_signals (void (*at_once) (void))
{
  static bool installed;
  at_once_fn = at_once;
  /* Said again on each call: the command, its name in each sentence and
   * the locale are known by the command's call, not by main's first. */
  second_said_len = ended_said_len = 0;
  const char *lead = ms_atomic_file_say_lead ();
  int n = snprintf (second_said, sizeof second_said, "%s", lead);
  n += snprintf (second_said + n, sizeof second_said - (size_t) n,
                 ms_gettext ("a second stop signal: writing what finished; a third, or %g s "
                             "more, ends memsweep at once\n"),
                 MS_SUPERVISOR_GRACE_S);
  second_said_len = n > 0 && n < (int) sizeof second_said ? n : 0;
  n = snprintf (ended_said, sizeof ended_said, "%s%s", lead,
                ms_gettext ("ended at once; a file it had not finished writing is left as it "
                            "was\n"));
  ended_said_len = n > 0 && n < (int) sizeof ended_said ? n : 0;
  split_folder_said ();
  if (installed)
    return &cancel_flag;
  note_dispositions ();
  supervised_child = started_by_a_supervisor ();
  struct sigaction sa = { 0 };
  sa.sa_handler = on_stop_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  sigset_t caught;
  sigemptyset (&caught);
  /* In the list's order: SIGINT, SIGTERM and SIGHUP first. */
  for (int k = 0, sig; (sig = ms_stop_signal_nth (k)); k++)
    /* Ignored at start stays ignored: what nohup (and a batch scheduler
     * that ignores SIGHUP) asked for. */
    if (!ignored_at_start[sig]) {
      sigaction (sig, &sa, NULL);
      sigaddset (&caught, sig);
    }
  /* Blocked at start is not asked for: a program's mask is its parent's
   * (a wrapper, a scheduler's shim), and a stop signal left blocked would
   * wait, unseen, until the work ended. One already pending is taken
   * now. */
  sigprocmask (SIG_UNBLOCK, &caught, NULL);
  /* A pipe nobody reads must not hold a stopped command. */
  ms_stalled_output_watch ();
  installed = true;
  return &cancel_flag;
}

int
ms_supervisor_stop_signal (void)
{
  return first_signal;
}

/* ---- folders ---- */

/* How many folders down a process folder is removed, and looked into
 * for measurements before a dead command's is. */
#define MS_SUPERVISOR_TREE_DEPTH 4

/* Everything under dir (files, and folders of files), then dir. */
static void
remove_tree_at (int parent, const char *name, int depth)
{
  int fd = openat (parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir (fd) : NULL;
  if (!d) {
    if (fd >= 0)
      close (fd);
    unlinkat (parent, name, 0);
    return;
  }
  for (struct dirent *e; (e = readdir (d)) != NULL;) {
    if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
      continue;
    if (unlinkat (dirfd (d), e->d_name, 0) != 0 && errno == EISDIR &&
        depth < MS_SUPERVISOR_TREE_DEPTH)
      remove_tree_at (dirfd (d), e->d_name, depth + 1);
  }
  closedir (d);
  unlinkat (parent, name, AT_REMOVEDIR);
}

/* This command's own process folder: one that could not be removed (made
 * immutable, its file system remounted read-only) is left, and said, so
 * that no folder memsweep made stays in TMPDIR unnamed. (A dead command's
 * is tried again by the next command's sweep, quietly.) */
static void
remove_own_tree (const char *path)
{
  struct stat st;
  remove_tree_at (AT_FDCWD, path, 0);
  if (lstat (path, &st) != 0)
    return;
  int e = errno;
  ms_atomic_file_say (ms_gettext ("%s: could not be removed (%s): left in place\n"), path,
                      strerror (e ? e : EPERM));
}

/* The PID in "memsweep-KIND-PID-XXXXXX", or 0 when name is not such. */
static pid_t
folder_pid (const char *name)
{
  size_t n = strlen (name);
  if (strncmp (name, "memsweep-", 9) != 0 || n < 9 + 1 + 1 + 1 + 1 + 6 || name[n - 7] != '-')
    return 0;
  const char *end = name + n - 7, *start = end;
  while (start > name + 9 && start[-1] >= '0' && start[-1] <= '9')
    start--;
  if (start == end || start[-1] != '-' || start - 1 == name + 9 || end - start > 9)
    return 0;
  return (pid_t) strtol (start, NULL, 10);
}

/* Each folder made here holds this empty file from its first moment: the
 * sweep removes only folders that hold it, never a folder of the user's
 * that happens to be named like one. */
#define MS_SUPERVISOR_MARK ".memsweep-process-folder"

static bool
has_mark (int dir_fd, const char *name)
{
  char mark[NAME_MAX + sizeof MS_SUPERVISOR_MARK + 2];
  snprintf (mark, sizeof mark, "%s/%s", name, MS_SUPERVISOR_MARK);
  struct stat st;
  return fstatat (dir_fd, mark, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG (st.st_mode) &&
         st.st_size == 0;
}

/* Whether name is a run's file (NAME-samples.csv, NAME-summary.csv, plain
 * or gzipped): what a process of memsweep measured. */
static bool
is_run_file (const char *name)
{
  return ms_csv_name_stem (name, "-samples.csv") > 0 || ms_csv_name_stem (name, "-summary.csv") > 0;
}

/* Whether the folder holds a folder of kept files (memsweep-kept-*), or,
 * with runs, a run's file; a folder that cannot be read, with runs, is
 * taken to hold one: nothing can tell that it does not. */
static bool
holds_at (const char *path, int depth, bool runs)
{
  char sub[PATH_MAX];
  DIR *d = opendir (path);
  bool kept = !d && runs;
  for (struct dirent *e; d && !kept && (e = readdir (d));) {
    kept = strncmp (e->d_name, "memsweep-kept-", 14) == 0 || (runs && is_run_file (e->d_name));
    /* Whatever its name: a profile, a peer matrix, a siblings check... */
    if (!kept && runs && e->d_type == DT_REG &&
        snprintf (sub, sizeof sub, "%s/%s", path, e->d_name) < (int) sizeof sub)
      kept = ms_file_kind_holds_measurements (sub);
    /* A live comparison's sides have a subfolder each (a, b), where
     * their processes write and keep theirs. */
    if (!kept && depth > 0 && e->d_type == DT_DIR && e->d_name[0] != '.' &&
        snprintf (sub, sizeof sub, "%s/%s", path, e->d_name) < (int) sizeof sub)
      kept = holds_at (sub, depth - 1, runs);
  }
  if (d)
    closedir (d);
  return kept;
}

/* The folder at path renamed tmp/memsweep-kept-XXXXXX, its mark removed
 * where it can be; its path, kept or renamed, in kept. A folder that can
 * be neither unmarked nor renamed (made immutable, its file system
 * read-only) stays where it is, and no sweep removes it: it holds
 * measurements (holds_at). */
static bool
keep_in (const char *tmp, const char *path, char *kept, size_t len)
{
  char mark[PATH_MAX + sizeof MS_SUPERVISOR_MARK + 2];
  snprintf (mark, sizeof mark, "%s/%s", path, MS_SUPERVISOR_MARK);
  unlink (mark);
  /* An empty folder made for the name, then replaced by this one: a
   * rename needs no room on a full disk, nor the right to write into the
   * folder (chmod a-w), and a name of its own keeps a later command from
   * taking it for a process folder. */
  if (snprintf (kept, len, "%s/memsweep-kept-XXXXXX", tmp) < (int) len && mkdtemp (kept)) {
    if (rename (path, kept) == 0)
      return true;
    rmdir (kept);
  }
  return snprintf (kept, len, "%s", path) < (int) len;
}

/* A dead command's folder that holds measurements (its finished
 * processes', or what it could not move out: a folder made read-only or
 * immutable under it) is never removed: kept as a kept folder where it
 * can be renamed, else left where it is, and said either way. */
static void
keep_dead_folder (const char *tmp, const char *name)
{
  char path[PATH_MAX], kept[PATH_MAX];
  if (snprintf (path, sizeof path, "%s/%s", tmp, name) >= (int) sizeof path)
    return;
  /* As deep as remove_tree_at goes. */
  if (!holds_at (path, MS_SUPERVISOR_TREE_DEPTH, true)) {
    remove_tree_at (AT_FDCWD, path, 0);
    return;
  }
  keep_in (tmp, path, kept, sizeof kept);
  ms_atomic_file_say (ms_gettext ("%s, the folder of a command that ended without removing it, "
                                  "holds measurements: not removed; they are in %s\n"),
                      path, kept);
}

/* Folders of this form whose command has died (SIGKILLed: nothing of it
 * could remove them), that are this user's and carry the mark. */
static void
sweep_dead_folders (const char *tmp)
{
  DIR *d = opendir (tmp);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir (d)) != NULL;) {
    pid_t pid = folder_pid (e->d_name);
    struct stat st;
    if (pid <= 0 || pid == getpid () || fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR (st.st_mode) || st.st_uid != getuid ())
      continue;
    if (kill (pid, 0) != 0 && errno == ESRCH && has_mark (dirfd (d), e->d_name))
      keep_dead_folder (tmp, e->d_name);
  }
  closedir (d);
}

/* The last process's messages (its standard error), by a descriptor of
 * the supervisor's own: still readable when its file is gone with the
 * folder (TMPDIR removed while it measured). One at a time, so that a
 * command starting many processes holds one descriptor for them. */
static int last_log_fd = -1;
static char last_log_path[PATH_MAX];

static void
forget_log (void)
{
  if (last_log_fd >= 0)
    close (last_log_fd);
  last_log_fd = -1;
  last_log_path[0] = '\0';
}

static void
remove_folders_at_exit (void)
{
  /* The last process's log is in one of them, and under a descriptor
   * limit its descriptor may be the one the removal needs. */
  forget_log ();
  pthread_mutex_lock (&folders_lock);
  for (int i = 0; i < MS_SUPERVISOR_MAX_FOLDERS; i++)
    if (folders[i][0]) {
      remove_own_tree (folders[i]);
      folders[i][0] = '\0';
    }
  pthread_mutex_unlock (&folders_lock);
}

bool
ms_supervisor_folder (const char *kind, char *path, size_t len)
{
  static bool registered;
  const char *tmp = getenv ("TMPDIR");
  if (!tmp || !*tmp)
    tmp = "/tmp";
  sweep_dead_folders (tmp);
  if (snprintf (path, len, "%s/memsweep-%s-%ld-XXXXXX", tmp, kind, (long) getpid ()) >= (int) len) {
    errno = ENAMETOOLONG;
    return false;
  }
  if (!mkdtemp (path))
    return false;
  char mark[PATH_MAX + sizeof MS_SUPERVISOR_MARK + 2];
  snprintf (mark, sizeof mark, "%s/%s", path, MS_SUPERVISOR_MARK);
  int fd = open (mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    int e = errno;
    rmdir (path);
    errno = e;
    return false;
  }
  close (fd);
  pthread_mutex_lock (&folders_lock);
  if (!registered)
    atexit (remove_folders_at_exit);
  registered = true;
  for (int i = 0; i < MS_SUPERVISOR_MAX_FOLDERS; i++)
    if (!folders[i][0]) {
      snprintf (folders[i], PATH_MAX, "%s", path);
      break;
    }
  pthread_mutex_unlock (&folders_lock);
  return true;
}

static void
forget_folder (const char *path)
{
  pthread_mutex_lock (&folders_lock);
  for (int i = 0; i < MS_SUPERVISOR_MAX_FOLDERS; i++)
    if (strcmp (folders[i], path) == 0)
      folders[i][0] = '\0';
  pthread_mutex_unlock (&folders_lock);
}

void
ms_supervisor_folder_done (const char *path)
{
  forget_log ();
  forget_folder (path);
  /* A child that could not write its files kept them in a folder of its
   * own here (TMPDIR is this folder to it) and named it: that folder, and
   * so this one, stays where the child said, unmarked so that no later
   * command takes it for a process folder to remove. */
  if (holds_at (path, 1, false)) {
    char mark[PATH_MAX + sizeof MS_SUPERVISOR_MARK + 2];
    snprintf (mark, sizeof mark, "%s/%s", path, MS_SUPERVISOR_MARK);
    unlink (mark);
    return;
  }
  remove_own_tree (path);
  ms_output_plan_forget_folder (path);
}

bool
ms_supervisor_folder_keep (const char *path, char *kept, size_t len)
{
  const char *tmp = getenv ("TMPDIR");
  forget_folder (path);
  return keep_in (tmp && *tmp ? tmp : "/tmp", path, kept, len);
}

/* ---- children ---- */

/* In the child, between fork and exec: async-signal-safe calls only. */
static void
become_child (pid_t parent, const char *path, char *const argv[], char *const envp[], int log_fd)
{
  struct sigaction dfl = { 0 };
  sigset_t none;
  dfl.sa_handler = SIG_DFL;
  setpgid (0, 0);
  /* Dies with its parent, and not started at all when that is gone. */
  if (prctl (PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid () != parent)
    _exit (127);
  for (int sig = 1; sig < NSIG; sig++)
    if (!ignored_at_start[sig] && sig != SIGKILL && sig != SIGSTOP)
      sigaction (sig, &dfl, NULL);
  /* In a process group of its own it is in the terminal's background: a
   * write to the terminal under `stty tostop` stopped it with SIGTTOU
   * each time it was continued, a read with SIGTTIN. Ignored, the write
   * goes through and the read fails (EIO), as for any background job
   * that expects neither. */
  struct sigaction ign = { 0 };
  ign.sa_handler = SIG_IGN;
  sigaction (SIGTTOU, &ign, NULL);
  sigaction (SIGTTIN, &ign, NULL);
  if (log_fd >= 0) {
    /* Its messages first, then its output into /dev/null on the number
     * standard output frees: no descriptor more than the parent held, so
     * that under a descriptor limit (ulimit -n 4) the loader can still
     * open the libraries, or say in the log why it could not. */
    dup2 (log_fd, STDERR_FILENO);
    close (STDOUT_FILENO);
    int out = open ("/dev/null", O_WRONLY);
    if (out < 0)
      _exit (127);
    if (out != STDOUT_FILENO) {
      dup2 (out, STDOUT_FILENO);
      close (out);
    }
  }
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  execve (path, argv, envp);
  _exit (127);
}

/* An ignored SIGCHLD, which exec passes on, has the kernel reap the
 * children itself: waitpid then fails with ECHILD, and a process that
 * measured and wrote its files would be taken for one that measured
 * nothing and its files thrown away. The supervisor waits for its
 * children, so it takes the default back before its first one. */
static void
take_back_sigchld (void)
{
  struct sigaction sa;
  if (sigaction (SIGCHLD, NULL, &sa) != 0)
    return;
  if (sa.sa_handler != SIG_IGN && !(sa.sa_flags & SA_NOCLDWAIT))
    return;
  if (sa.sa_handler == SIG_IGN)
    sa.sa_handler = SIG_DFL;
  sa.sa_flags &= ~SA_NOCLDWAIT;
  sigaction (SIGCHLD, &sa, NULL);
}

/* Whether entry is NAME=... for the NAME that text starts with (up to its
 * '=' or its end). */
static bool
same_name (const char *entry, const char *text)
{
  size_t n = strcspn (text, "=");
  return strncmp (entry, text, n) == 0 && entry[n] == '=';
}

static int
open_log (const char *err_path)
{
  forget_log ();
  int fd = open (err_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0 && snprintf (last_log_path, sizeof last_log_path, "%s", err_path) <
                     (int) sizeof last_log_path)
    last_log_fd = fd;
  else if (fd >= 0)
    last_log_path[0] = '\0';
  return fd;
}

/* The first line of the file at err_path into buf: by the kept descriptor
 * when it is the last process's. */
static void
first_line (const char *err_path, char *buf, size_t len)
{
  buf[0] = '\0';
  if (last_log_fd >= 0 && strcmp (err_path, last_log_path) == 0) {
    ssize_t n = pread (last_log_fd, buf, len - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
  } else {
    FILE *f = fopen (err_path, "re");
    if (f && !fgets (buf, (int) len, f))
      buf[0] = '\0';
    if (f)
      fclose (f);
  }
  buf[strcspn (buf, "\n")] = '\0';
}

/* envp with MS_SUPERVISED_NAME=this pid in it (in mark), and the folder of this command's own
 * files as the place its process keeps what it measured when its TMPDIR
 * cannot (MS_OUTPUT_PLAN_KEEP_ENV, where the plan knows one): a new array
 * of envp's strings and keep's, to free; NULL without memory. */
static char **
marked_environment (char *const envp[], char *mark, size_t mark_len, char *keep, size_t keep_len)
{
  size_t n = 0;
  while (envp[n])
    n++;
  char **env = calloc (n + 3, sizeof *env);
  if (!env)
    return NULL;
  const char *home = ms_output_plan_first_set_folder ();
  bool keep_set = home[0] && snprintf (keep, keep_len, "%s=%s", MS_OUTPUT_PLAN_KEEP_ENV, home) <
                                 (int) keep_len;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!same_name (envp[i], MS_SUPERVISED_NAME "=") &&
        !(keep_set && same_name (envp[i], MS_OUTPUT_PLAN_KEEP_ENV "=")))
      env[k++] = envp[i];
  snprintf (mark, mark_len, "%s=%ld", MS_SUPERVISED_NAME, (long) getpid ());
  env[k++] = mark;
  if (keep_set)
    env[k] = keep;
  return env;
}

/* A spawn that started no child: counted no more. */
static bool
forget_spawn (void)
{
  atomic_fetch_sub (&supervising, 1);
  return false;
}

bool
ms_supervisor_spawn (MsChild *child, const char *path, char *const argv[], char *const envp[],
                     const char *err_path)
{
  sigset_t all, old;
  note_dispositions ();
  take_back_sigchld ();
  /* Counted until waited for: while none lives, a second stop is
   * handled as by a command without children (ms_supervisor_wait). */
  atomic_fetch_add (&supervising, 1);
  *child = (MsChild){ .pid = -1, .started = time (NULL) };
  char keep[PATH_MAX + 32], mark[64];
  char **env = marked_environment (envp ? envp : environ, mark, sizeof mark, keep, sizeof keep);
  if (!env)
    return forget_spawn ();
  int log_fd = err_path ? open_log (err_path) : -1;
  if (err_path && log_fd < 0) {
    free (env);
    return forget_spawn ();
  }
  pid_t parent = getpid ();
  fflush (NULL);
  /* No handler of this process may run in the child before exec. */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  pid_t pid = fork ();
  if (pid == 0)
    become_child (parent, path, argv, env, log_fd);
  int e = errno;
  if (pid > 0)
    setpgid (pid, pid); /* as the child does: whichever runs first */
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  free (env);
  if (pid < 0 && log_fd >= 0)
    forget_log ();
  if (pid < 0) {
    errno = e;
    return forget_spawn ();
  }
  child->pid = pid;
  return true;
}

char **
ms_supervisor_environment (char **env, int room, const char *set, const char *unset)
{
  int n = 0;
  for (char **e = environ; *e && n < room - 2; e++)
    if (!(set && same_name (*e, set)) && !(unset && same_name (*e, unset)))
      env[n++] = *e;
  if (set)
    env[n++] = (char *) set;
  env[n] = NULL;
  return env;
}

bool
ms_supervisor_stopping (atomic_int *cancel)
{
  return atomic_load (&cancel_flag) || (cancel && atomic_load (cancel));
}

/* The signal a child is told to stop with: one of the stop signals it
 * does not ignore (it keeps those ignored at start: under a runner that
 * ignores SIGTERM, a SIGTERM would never reach it); SIGKILL when it
 * ignores them all, as nothing else could stop it. */
static int
tell_signal (void)
{
  /* The signal memsweep was stopped with, so that the child names the
   * one the user sent (three SIGHUPs were reported as SIGINT); not a
   * CPU-time limit's, which the child would take for its own limit. */
  int first = first_signal;
  if (first > 0 && first < NSIG && first != SIGXCPU && !ignored_at_start[first])
    return first;
  for (int k = 0, sig; (sig = ms_stop_signal_nth (k)); k++)
    if (!ignored_at_start[sig])
      return sig;
  return SIGKILL;
}

/* Tells the child's process group to stop, as many times as asked. A
 * stopped child (SIGSTOP, SIGTSTP from someone else) would hold the
 * signal pending for ever: it is continued after each. */
static void
pass_on (MsChild *child, atomic_int *cancel)
{
  int wanted = ms_supervisor_stopping (cancel) ? 1 : 0;
  if (atomic_load (&stop_count) >= 2)
    wanted = 2;
  while (child->told < wanted) {
    kill (-child->pid, tell_signal ());
    kill (-child->pid, SIGCONT);
    child->stopped_at = 0;
    child->told++;
    if (child->told == 2)
      child->kill_at = ms_now_s () + MS_SUPERVISOR_GRACE_S;
  }
  /* Told, it must run to end: stopped again by anyone since (a SIGSTOP
   * that took effect after the SIGCONT above, or whose report came
   * after it), it would wait for the 10 s of a stop by someone else, or
   * for ever where no report comes. A SIGCONT to a running process does
   * nothing, so it is sent on every poll rather than on a report. */
  if (child->told > 0)
    kill (-child->pid, SIGCONT);
  /* A third stop leaves the child the rest of its grace: SIGKILLed at
   * once, a process that had measured for seconds lost it all, and its
   * command said nothing had been measured (Ctrl+C three times). */
  if (child->told >= 2 && ms_now_s () >= child->kill_at && child->kill_at > 0) {
    kill (-child->pid, SIGKILL);
    child->kill_at = -1;
    child->killed_at = ms_now_s ();
  }
}

/* A child stopped by someone else (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU:
 * its process group is not the terminal's): said at once, and continued
 * MS_SUPERVISOR_STOPPED_S later unless someone continued it first or a
 * stop (which continues it) came: whoever stopped it may mean to signal
 * it, but a child nobody continues would be waited on for ever. */
static void
note_stopped (MsChild *child, int sig)
{
  if (child->told > 0)
    return; /* continued at once (pass_on) */
  child->stopped_at = ms_now_s ();
  ms_atomic_file_say (ms_gettext ("process %ld was stopped by signal %d (%s), not by memsweep: "
                                  "it is continued in %.0f s unless it is continued before\n"),
                      (long) child->pid, sig, strsignal (sig), MS_SUPERVISOR_STOPPED_S);
}

/* Continued: by someone else when memsweep had not (stopped_at is
 * cleared wherever memsweep continues it), which is said as memsweep's
 * own continuing is, since the pause was timed all the same. */
static void
note_continued (MsChild *child)
{
  if (child->stopped_at > 0)
    ms_atomic_file_say (ms_gettext ("process %ld was continued, not by memsweep; the repetition "
                                    "it was in timed the pause\n"),
                        (long) child->pid);
  child->stopped_at = 0;
}

static void
continue_stopped (MsChild *child)
{
  if (child->stopped_at <= 0 || ms_now_s () < child->stopped_at + MS_SUPERVISOR_STOPPED_S)
    return;
  kill (-child->pid, SIGCONT);
  child->stopped_at = 0;
  child->resumed++;
  ms_atomic_file_say (ms_gettext ("process %ld continued; the repetition it was in timed the "
                                  "pause\n"),
                      (long) child->pid);
}

/* A child its CPU-time limit ended, or this process's own limit: a
 * supervised process then says so to its supervisor by its exit status. */
static atomic_int cpu_limit_seen;

int
ms_supervisor_exit_status (int status)
{
  bool limit = first_signal == SIGXCPU || atomic_load (&cpu_limit_seen);
  return supervised_child && status == EXIT_FAILURE && limit ? MS_SUPERVISOR_EXIT_CPU_LIMIT
                                                             : status;
}

/* Whether the child's end is its CPU-time limit's: its word for it (an
 * exit status its parent reads as 1), or SIGXCPU's default before its
 * handlers were up. Nothing but that limit sends SIGXCPU as a rule, and
 * its supervisor tells a child with SIGXCPU only where it ignores the
 * other stop signals (told). */
static void
note_cpu_limit (MsChildEnd *end, int status)
{
  if (WIFEXITED (status) && end->code == MS_SUPERVISOR_EXIT_CPU_LIMIT) {
    end->code = EXIT_FAILURE;
    end->cpu_limit = true;
  } else {
    end->cpu_limit = WIFSIGNALED (status) && end->code == SIGXCPU;
  }
  if (end->cpu_limit)
    atomic_store (&cpu_limit_seen, 1);
}

/* A child SIGKILLed that has not ended within the grace after: frozen
 * (a cgroup freezer holds even SIGKILL until it thaws) or stuck in the
 * kernel. It is waited on no longer, and said; it ends when it can,
 * SIGKILL pending. */
static bool
abandoned (MsChild *child, MsChildEnd *end)
{
  if (child->killed_at <= 0 || ms_now_s () - child->killed_at < MS_SUPERVISOR_GRACE_S)
    return false;
  ms_atomic_file_say (ms_gettext ("process %ld did not end %.0f s after SIGKILL (frozen, "
                                  "or stuck in the kernel): no longer waited for\n"),
                      (long) child->pid, MS_SUPERVISOR_GRACE_S);
  *end = (MsChildEnd){ MS_CHILD_KILLED_BY_US, SIGKILL, true, false, child->started };
  child->pid = -1;
  atomic_fetch_sub (&supervising, 1);
  return true;
}

MsChildEnd
ms_supervisor_wait (MsChild *child, atomic_int *cancel)
{
  MsChildEnd end = { MS_CHILD_EXITED, -1, false, false, child->started };
  for (;;) {
    int status;
    pid_t got = waitpid (child->pid, &status, WNOHANG | WUNTRACED | WCONTINUED);
    if (got == child->pid && (WIFSTOPPED (status) || WIFCONTINUED (status))) {
      if (WIFSTOPPED (status))
        note_stopped (child, WSTOPSIG (status));
      else
        note_continued (child);
      continue;
    }
    if (got == child->pid) {
      end.told = child->told > 0;
      if (WIFEXITED (status)) {
        end.code = WEXITSTATUS (status);
      } else {
        end.code = WTERMSIG (status);
        /* Told to stop before its handlers were up, or SIGKILLed after a
         * second stop: ended by us, not by someone else. */
        bool ours = (end.code == SIGKILL && child->kill_at < 0) ||
                    (end.code == tell_signal () && child->told > 0);
        end.how = ours ? MS_CHILD_KILLED_BY_US : MS_CHILD_KILLED;
      }
      note_cpu_limit (&end, status);
      /* What the child started in its group goes with it. */
      kill (-child->pid, SIGKILL);
      child->pid = -1;
      atomic_fetch_sub (&supervising, 1);
      return end;
    }
    if (got < 0 && errno != EINTR) {
      end.code = -1;
      atomic_fetch_sub (&supervising, 1);
      return end;
    }
    pass_on (child, cancel);
    continue_stopped (child);
    if (abandoned (child, &end))
      return end;
    nanosleep (&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
  }
}

const char *
ms_supervisor_describe (const MsChildEnd *end, char *buf, size_t len)
{
  if (end->how == MS_CHILD_EXITED)
    snprintf (buf, len, ms_gettext ("exited with status %d"), end->code);
  else if (end->how == MS_CHILD_KILLED_BY_US)
    snprintf (buf, len, ms_gettext ("was ended by memsweep's stop before it wrote anything"));
  else
    snprintf (buf, len, ms_gettext ("was ended by signal %d (%s), not by memsweep"), end->code,
              strsignal (end->code));
  return buf;
}

/* Why a child wrote nothing to err_path when it could not: a file size
 * limit of 0 (ulimit -f 0, which children inherit) or a full disk takes
 * its error messages too, and only the parent is left to say so. Any
 * other limit would have let at least part of a message through. */
static void
why_silent (const char *err_path, char *buf, size_t len)
{
  struct rlimit lim;
  struct statvfs fs;
  if (getrlimit (RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur == 0)
    snprintf (buf, len,
              ms_gettext ("the file size limit is 0 (ulimit -f 0), so it could not write even "
                          "its error messages"));
  /* Less than a page or so: a message needs a block, which a nearly full
   * disk (a small tmpfs) has no longer, whatever f_bavail still counts. */
  else if (statvfs (err_path, &fs) == 0 && (double) fs.f_bavail * fs.f_frsize < 64 * 1024)
    snprintf (buf, len,
              ms_gettext ("the disk is full, so it could not write even its error messages"));
}

/* Whether name is PREFIX-summary.csv, plain or gzipped (prefix n bytes);
 * any run's file where prefix is NULL. */
static bool
is_summary_of (const char *name, const char *prefix, int n)
{
  if (!prefix)
    return is_run_file (name);
  const char *rest = strncmp (name, prefix, (size_t) n) == 0 ? name + n : "";
  return strcmp (rest, "-summary.csv") == 0 || strcmp (rest, "-summary.csv.gz") == 0;
}

/* Whether folder holds such a file changed at or after since. */
static bool
holds_summary (const char *folder, const char *prefix, int n, time_t since)
{
  char path[PATH_MAX];
  struct stat st;
  DIR *d = opendir (folder);
  bool found = false;
  for (struct dirent *e; d && !found && (e = readdir (d));)
    found = is_summary_of (e->d_name, prefix, n) &&
            snprintf (path, sizeof path, "%s/%s", folder, e->d_name) < (int) sizeof path &&
            stat (path, &st) == 0 && st.st_mtime >= since;
  if (d)
    closedir (d);
  return found;
}

/* A kept folder in home holding the files of the process whose messages
 * are at err_path (PREFIX.err or PREFIX.log: PREFIX-summary.csv), made
 * since that process started (since: not the log's own times, which each
 * write bumps on a full disk though it fails); its path in kept. With any, a folder of any
 * run's files: a process of a process (calibrate's grade run, whose own
 * processes keep theirs as pK) whose words were lost as well. */
/* The file system stamps the kept files, this host's clock the start: a
 * server's clock a little behind, or times kept to 2 s (vfat), must not
 * hide them. */
enum { KEPT_CLOCK_SLACK_S = 2 };

static bool
kept_in (const char *home, const char *err_path, time_t since, bool any, char *kept, size_t len)
{
  const char *base = strrchr (err_path, '/');
  base = base ? base + 1 : err_path;
  int n = (int) strcspn (base, ".");
  DIR *d = home && home[0] ? opendir (home) : NULL;
  bool found = false;
  for (struct dirent *e; d && !found && (e = readdir (d));)
    found = strncmp (e->d_name, "memsweep-kept-", 14) == 0 &&
            snprintf (kept, len, "%s/%s", home, e->d_name) < (int) len &&
            holds_summary (kept, any ? NULL : base, n, since - KEPT_CLOCK_SLACK_S);
  if (d)
    closedir (d);
  return found;
}

/* Where a process that could not write its files kept them: the folders
 * it tries (ms_output_plan_keep_folder): beside them, in its own process
 * folder (a soft file-size limit it lifted for them), then, its TMPDIR
 * failing, the command's own (MS_OUTPUT_PLAN_KEEP_ENV, as its processes
 * were given), then the last resorts (ms_output_plan_last_resort). Its
 * own files first, then any run's. */
static bool
kept_by (const char *err_path, time_t since, char *kept, size_t len)
{
  char place[PATH_MAX], here[PATH_MAX];
  const char *slash = strrchr (err_path, '/');
  snprintf (here, sizeof here, "%.*s", slash ? (int) (slash - err_path) : 1,
            slash ? err_path : ".");
  for (int any = 0; any < 2; any++) {
    if (kept_in (here, err_path, since, any, kept, len) ||
        kept_in (ms_output_plan_first_set_folder (), err_path, since, any, kept, len))
      return true;
    for (int i = 0; i < MS_OUTPUT_PLAN_LAST_RESORTS; i++) {
      const char *p = ms_output_plan_last_resort (i);
      if (p && realpath (p, place) && kept_in (place, err_path, since, any, kept, len))
        return true;
    }
  }
  return false;
}

const char *
ms_supervisor_child_said (const MsChildEnd *end, const char *err_path, char *buf, size_t len)
{
  char kept[PATH_MAX];
  first_line (err_path, buf, len);
  /* Said inside its parent's message, which has a lead of its own: the
   * child's ("memsweep run: ") goes. */
  const char *p = buf + (strncmp (buf, "memsweep", 8) == 0 ? 8 : 0);
  if (p != buf && *p == ' ')
    p += 1 + strcspn (p + 1, " :");
  if (p != buf && p[0] == ':' && p[1] == ' ')
    memmove (buf, p + 2, strlen (p + 2) + 1);
  if (buf[0])
    return buf;
  why_silent (err_path, buf, len);
  /* Its words are lost, not what it kept: where, found from here. */
  size_t used = strlen (buf);
  if (end->started && kept_by (err_path, end->started, kept, sizeof kept))
    snprintf (buf + used, len - used, ms_gettext ("; what it measured is kept in %s"), kept);
  else if (used)
    snprintf (buf + used, len - used, "%s",
              ms_gettext ("; whatever it measured could not be kept anywhere: lost"));
  return buf;
}
