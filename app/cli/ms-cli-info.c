/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-info.c: `memsweep info` (a device's facts and which modes it
 * supports) and `memsweep modes` (every mode with its explanation). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-info.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"

int
ms_cli_modes (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "--help") == 0) {
    printf (ms_gettext ("Usage: memsweep modes\n\nLists every memory mode with a one-line "
                        "explanation.\n%s"), ms_cli_exit_status ());
    return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
  }
  if (argc != 1) {
    fprintf (stderr, ms_gettext ("memsweep: modes takes no arguments\n"));
    return ms_cli_bad_usage ("modes");
  }
  for (int m = 0; m < MS_MODE_COUNT; m++)
    printf ("%-17s %s\n", ms_mode_name (m), ms_mode_description (m));
  return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
}

static void
report_modes (MsBackend *backend, const MsDeviceInfo *info)
{
  printf (ms_gettext ("\nModes:\n"));
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    char why[256] = "", clean[1024];
    bool sup = ms_backend_supports (backend, info, m, why, sizeof why);
    ms_report_clean (why, clean, sizeof clean);
    printf ("  %-17s %s%s\n", ms_mode_name (m),
            sup ? ms_gettext ("supported") : ms_gettext ("unsupported: "), clean);
  }
}

int
ms_cli_info (int argc, char **argv)
{
  int device = 0;
  static const struct option opts[] = { { "device", required_argument, NULL, 'd' },
                                        { "help", no_argument, NULL, 'h' },
                                        { NULL, 0, NULL, 0 } };
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    if (c == 'h') {
      printf (ms_gettext ("Usage: memsweep info [--device I]\n\nPrints the facts of CUDA device I "
                          "(default 0) and which memory modes it supports.\n%s"),
              ms_cli_exit_status ());
      return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
    }
    if (c != 'd')
      return ms_cli_bad_usage ("info");
    if (!ms_cli_parse_int ("--device", optarg, &device))
      return EXIT_USAGE;
  }
  if (optind < argc) {
    fprintf (stderr, ms_gettext ("memsweep: info: unexpected argument '%s'\n"), argv[optind]);
    return ms_cli_bad_usage ("info");
  }
  if (device < 0) {
    fprintf (stderr, ms_gettext ("memsweep: device index must be 0 or more (got %d)\n"), device);
    return EXIT_USAGE;
  }
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  bool ok = ms_backend_query_device (backend, device, &info);
  ms_report_device (stdout, &info);
  if (ok)
    report_modes (backend, &info);
  ms_backend_free (backend);
  if (!ms_cli_stdout_ok ())
    return EXIT_RUNTIME;
  if (!ok) {
    char error[1024];
    ms_report_clean (info.error, error, sizeof error);
    fprintf (stderr, ms_gettext ("memsweep: no usable CUDA device: %s\n"), error);
    return EXIT_NO_DEVICE;
  }
  return EXIT_OK;
}
