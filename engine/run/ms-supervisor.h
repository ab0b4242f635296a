/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-supervisor.h: one policy for every command that starts processes of
 * memsweep (run --grade, compare --live, calibrate, a lesson's isolated
 * parts, fleet-node), so that none of them can lose what its processes
 * measured or leave a process or a folder behind (ms-supervisor.c).
 *
 * - Each child runs in its own process group, so that a Ctrl+C at the
 *   terminal reaches the supervisor alone, which tells the child once; it
 *   dies with the supervisor (PR_SET_PDEATHSIG) and is always reaped.
 * - Its files go to a private folder TMPDIR/memsweep-KIND-PID-XXXXXX,
 *   removed at exit; a folder whose command was SIGKILLed (its PID dead)
 *   is removed by the next command that makes one, unless it holds
 *   measurements (a run's files, a kept folder): those are kept, said.
 * - The first SIGINT, SIGTERM, SIGHUP or SIGQUIT sets the stop flag: the
 *   child is told once (continued too, were it stopped) and writes what
 *   it measured, the command keeps every
 *   finished process and writes the run. A second one does the same at
 *   once: the child is told again and SIGKILLed 2 s later. A command that
 *   supervises no process is ended by a second signal at once, unless a
 *   supervisor started it (MEMSWEEP_SUPERVISED=its pid in its environment): the
 *   same stop often reaches it twice, from its supervisor and from
 *   outside (pkill, systemd, Slurm), and its supervisor decides the rest.
 * - A child its CPU-time limit ended (ulimit -t, which each child gets
 *   afresh) is told apart (MsChildEnd.cpu_limit): its command starts no
 *   further child, as the next would be ended the same way. A supervised
 *   command that such a limit stopped says so to its own supervisor by
 *   its exit status (ms_supervisor_exit_status).
 * - A signal ignored when memsweep started stays ignored (nohup). */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* Installs the stop handlers (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU,
 * SIGUSR1, SIGUSR2, SIGALRM, SIGPWR, SIGPROF, SIGVTALRM, each unless
 * ignored at start) once and
 * returns the stop flag, which the first one sets. A command that
 * supervises nothing gets 2 s after a second to write what finished; at
 * the third, or after those 2 s, at_once runs in the handler before it
 * ends (async-signal-safe: removes temporaries). */
atomic_int *ms_supervisor_catch_stop_signals (void (*at_once) (void));
/* The first stop signal received, or 0. */
int ms_supervisor_stop_signal (void);

/* A private folder TMPDIR/memsweep-KIND-PID-XXXXXX (TMPDIR: $TMPDIR, else
 * /tmp) into path[len], after removing the folders of that form whose
 * command has died (those that hold measurements are kept, said); removed with everything in it at exit unless
 * ms_supervisor_folder_done did so before. This process supervises from
 * then on (a second signal no longer ends it at once). false with
 * errno set when it cannot be made. */
bool ms_supervisor_folder (const char *kind, char *path, size_t len);
/* Removes the folder and what is in it (one level: the files of its
 * processes, and their folders' files); one that holds a child's kept
 * files (memsweep-kept-*, named on stderr by the child) is left where it
 * is, unmarked. */
void ms_supervisor_folder_done (const char *path);
/* Keeps the folder and what is in it, when what its processes measured
 * could not be written anywhere else (a file size limit that the merged
 * run exceeds, a full disk): renamed TMPDIR/memsweep-kept-XXXXXX, which
 * no sweep and no exit removes, its mark gone; where it can be neither
 * renamed nor unmarked (made read-only or immutable), kept where it is,
 * which no sweep removes either as it holds measurements. The folder's
 * path, kept or renamed, in kept; false only when that does not fit. */
bool ms_supervisor_folder_keep (const char *path, char *kept, size_t len);

/* A process started by the supervisor. */
typedef struct {
  pid_t pid;
  int told;       /* how often it was told to stop */
  int resumed;    /* how often it was found stopped by someone else and continued */
  double stopped_at; /* monotonic seconds: found stopped by someone else then; 0 */
  double kill_at; /* monotonic seconds: SIGKILL then, after a second stop */
  double killed_at; /* monotonic seconds: SIGKILLed then; 0 */
  time_t started;   /* wall clock, as files are stamped: spawned then */
} MsChild;

typedef enum {
  MS_CHILD_EXITED,    /* code: its exit status */
  MS_CHILD_KILLED,    /* code: the signal that ended it, not sent by us */
  MS_CHILD_KILLED_BY_US, /* by the stop passed on: SIGKILL 2 s after a second one, or
                          * SIGTERM before its handlers were up */
} MsChildEndKind;

typedef struct {
  MsChildEndKind how;
  int code;
  bool told; /* it was told to stop (by a signal to this process or cancel) */
  /* Its CPU-time limit (ulimit -t) stopped it, or a process of its own
   * (how: an exit 1, its code MS_SUPERVISOR_EXIT_CPU_LIMIT read as 1; or
   * SIGXCPU before its handlers were up). Each process gets that limit
   * afresh: the next would be stopped the same way. */
  bool cpu_limit;
  time_t started; /* the child's MsChild.started; 0 for one never spawned */
} MsChildEnd;

/* Starts the program at path (memsweep itself: /proc/self/exe) with
 * argv and envp (NULL: this environment), standard output /dev/null and
 * standard error into err_path (NULL: both inherited),
 * in its own process group, dying with this process, every signal at its
 * default but those ignored at start. false with errno set. */
bool ms_supervisor_spawn (MsChild *child, const char *path, char *const argv[],
                          char *const envp[], const char *err_path);
/* Waits for the child and reaps it. A stop (the stop flag, or cancel when
 * not NULL) is passed on once; a second stop signal again, then SIGKILL
 * 2 s later, a stopped child continued with each. A child stopped by
 * someone else is said, and continued 10 s later unless someone continued
 * it first; once told to stop, it is continued whenever found stopped:
 * no state of a child is waited on for ever. */
MsChildEnd ms_supervisor_wait (MsChild *child, atomic_int *cancel);
/* This process's environment with NAME=VALUE set (set: "NAME=VALUE", or
 * NULL) and NAME removed (unset, or NULL), into env (room entries, the
 * last one NULL); the strings are environ's and set's. A child's
 * environment is given room for MS_SUPERVISOR_MAX_ENV. */
#define MS_SUPERVISOR_MAX_ENV 1024
char **ms_supervisor_environment (char **env, int room, const char *set, const char *unset);

/* The exit status a supervised command (MEMSWEEP_SUPERVISED=its parent) that its
 * CPU-time limit stopped gives in place of 1 (EXIT_FAILURE): its first
 * stop signal was SIGXCPU, or a child of its own was so stopped. Its
 * supervisor alone sees it, and reads it as 1 with cpu_limit set. */
#define MS_SUPERVISOR_EXIT_CPU_LIMIT 6
/* status, or MS_SUPERVISOR_EXIT_CPU_LIMIT in its place as above: what a
 * command returns from main. */
int ms_supervisor_exit_status (int status);

/* Whether the supervisor was asked to stop (a stop signal, or cancel). */
bool ms_supervisor_stopping (atomic_int *cancel);

/* The exit status a child's end stands for in its parent's words:
 * "exited with status N", "was ended by signal 9 (Killed), not by
 * memsweep", ... into buf. */
const char *ms_supervisor_describe (const MsChildEnd *end, char *buf, size_t len);
/* The first line the child that ended as end wrote to its standard error
 * (err_path, as given to ms_supervisor_spawn) into buf; when it wrote none
 * because it could not (a file size limit, a full disk), that, said, with
 * where it kept what it measured; else "". */
const char *ms_supervisor_child_said (const MsChildEnd *end, const char *err_path, char *buf,
                                      size_t len);
