/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-startup-probe.h: with MEMSWEEP_FIRST_FRAME=1, memsweep-gtk prints
 * when its window was built, mapped and first drawn, from process start
 * (the kernel's start time in /proc/self/stat, 10 ms resolution) and from
 * main(), with the main thread's CPU time: for the benchmark in docs/measurements.md
 * and bench/bench-app-open.sh; MEMSWEEP_FIRST_FRAME=exit also ends the
 * process there. On a busy machine the wall times grow with the load, the
 * CPU times much less.
 *
 * Built only with -Dprofiling=true (MS_PROFILING); otherwise the shipped
 * app reads no such variable. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#ifdef MS_PROFILING
/* main_start: g_get_monotonic_time () when main() began. */
void ms_startup_probe_watch (GApplication *app, gint64 main_start);
#else
static inline void
ms_startup_probe_watch (GApplication *app, gint64 main_start)
{
}
#endif

G_END_DECLS
