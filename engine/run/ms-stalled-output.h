/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-stalled-output.h: after a stop signal, a standard output or error
 * that is a pipe or a socket nobody reads no longer holds memsweep. A
 * watcher (a thread started with the stop handlers) wakes at the first
 * stop; where such a descriptor then accepts nothing for
 * MS_STALLED_OUTPUT_S seconds, it is made non-blocking and the threads
 * waiting in a write to it are woken, so that the write fails (EAGAIN)
 * and the command goes on to its end: the files first, the views after.
 * A reader that keeps reading, however slowly, is waited for. The flags
 * are set back at exit. Plain C with pthreads, no GLib. */
#pragma once

#include <stdbool.h>

#define MS_STALLED_OUTPUT_S 3

/* Starts the watcher (once); false where no thread could be started. */
bool ms_stalled_output_watch (void);

/* The first stop: the watcher begins (async-signal-safe). */
void ms_stalled_output_stop_requested (void);

/* Writes len bytes of text to fd only where the write cannot block on
 * a full pipe (async-signal-safe): what a signal handler says. */
void ms_stalled_output_say (int fd, const char *text, unsigned long len);

/* Standard output's and error's flags as they were (async-signal-safe). */
void ms_stalled_output_restore (void);

/* Whether fd was given up as stalled: its writes fail with EAGAIN. */
bool ms_stalled_output_given_up (int fd);
