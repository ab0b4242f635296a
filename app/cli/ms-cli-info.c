/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-info.c: `memsweep info` (a device's facts and which modes it
 * supports) and `memsweep modes` (every mode with its explanation). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-cli-options.h"
#include "ms-cli-common.h"
#include "ms-cli-info.h"
#include "ms-cli-json.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"

/* The documents' names and version (data/schema/memsweep-modes.json and
 * memsweep-info.json). */
#define MODES_SCHEMA "memsweep-modes"
#define INFO_SCHEMA "memsweep-info"
#define INFO_SCHEMA_VERSION 1

/* Every mode as a JSON object: its name, its explanation and, with a
 * device, whether it supports the mode and why not. */
static void
put_modes_json (MsBackend *backend, const MsDeviceInfo *info)
{
  fputs ("\"modes\":[", stdout);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    fputs (m ? ",\n{\"name\":" : "\n{\"name\":", stdout);
    ms_json_put_string (stdout, ms_mode_name (m));
    fputs (",\"description\":", stdout);
    ms_json_put_string (stdout, ms_mode_description (m));
    if (backend) {
      char why[256] = "";
      bool sup = ms_backend_supports (backend, info, m, why, sizeof why);
      printf (",\"supported\":%s,\"unsupported_because\":", sup ? "true" : "false");
      if (sup)
        fputs ("null", stdout);
      else
        ms_json_put_string (stdout, why);
    }
    fputc ('}', stdout);
  }
  fputs ("]", stdout);
}

/* The options of modes and info (info alone has --device). */
static bool
parse_format_option (int argc, char **argv, const char *command, int *device,
                     MsCliFormat *format)
{
  const struct option *opts = ms_cli_getopt_table (command);
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    if (c == 'f' && ms_cli_parse_table_format (optarg, format))
      continue;
    if (c == 'd' && ms_cli_parse_int ("--device", optarg, device))
      continue;
    return false;
  }
  if (optind < argc) {
    fprintf (stderr, ms_gettext ("memsweep: %s: unexpected argument '%s'\n"), command,
             argv[optind]);
    return false;
  }
  return true;
}

static bool
is_help (int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--help") == 0)
      return true;
  return false;
}

int
ms_cli_modes (int argc, char **argv)
{
  MsCliFormat format = MS_CLI_FORMAT_TEXT;
  if (is_help (argc, argv)) {
    printf (ms_gettext ("Usage: memsweep modes [--format text|json|csv]\n\nLists every memory "
                        "mode with a one-line explanation.\n%s"), ms_cli_exit_status ());
    return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
  }
  int unused = 0;
  if (!parse_format_option (argc, argv, "modes", &unused, &format))
    return ms_cli_bad_usage ("modes");
  if (format == MS_CLI_FORMAT_CSV) {
    fputs ("mode,description\n", stdout);
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      ms_cli_csv_field (stdout, ms_mode_name (m));
      fputc (',', stdout);
      ms_cli_csv_field (stdout, ms_mode_description (m));
      fputc ('\n', stdout);
    }
    return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
  }
  if (format == MS_CLI_FORMAT_JSON) {
    void *state = ms_json_begin ();
    printf ("{\"schema\":\"" MODES_SCHEMA "\",\"schema_version\":%d,", INFO_SCHEMA_VERSION);
    put_modes_json (NULL, NULL);
    fputs ("}\n", stdout);
    ms_json_end (state);
    return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
  }
  for (int m = 0; m < MS_MODE_COUNT; m++)
    printf ("%-17s %s\n", ms_mode_name (m), ms_mode_description (m));
  return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
}

/* info's document: the device (null when there is none usable, with the
 * reason in "error") and its modes. */
static void
info_json (MsBackend *backend, const MsDeviceInfo *info, bool ok)
{
  void *state = ms_json_begin ();
  printf ("{\"schema\":\"" INFO_SCHEMA "\",\"schema_version\":%d,\"devices_visible\":%d,\n",
          INFO_SCHEMA_VERSION, ok ? info->count : 0);
  if (ok) {
    ms_json_put_device (stdout, info);
    fputs (",\"error\":null,\n", stdout);
  } else {
    fputs ("\"device\":null,\"error\":", stdout);
    ms_json_put_string (stdout, info->error);
    fputs (",\n", stdout);
  }
  put_modes_json (ok ? backend : NULL, info);
  fputs ("}\n", stdout);
  ms_json_end (state);
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
  MsCliFormat format = MS_CLI_FORMAT_TEXT;
  if (is_help (argc, argv)) {
    printf (ms_gettext ("Usage: memsweep info [--device I] [--format text|json]\n\nPrints the "
                        "facts of CUDA device I (default 0) and which memory modes it supports.\n"
                        "%s"),
            ms_cli_exit_status ());
    return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
  }
  if (!parse_format_option (argc, argv, "info", &device, &format))
    return ms_cli_bad_usage ("info");
  if (format == MS_CLI_FORMAT_CSV) {
    fprintf (stderr, ms_gettext ("memsweep: info: --format csv: a device's facts are no table; "
                                 "give text or json\n"));
    return ms_cli_bad_usage ("info");
  }
  bool json = format == MS_CLI_FORMAT_JSON;
  if (device < 0) {
    fprintf (stderr, ms_gettext ("memsweep: device index must be 0 or more (got %d)\n"), device);
    return EXIT_USAGE;
  }
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  bool ok = ms_backend_query_device (backend, device, &info);
  if (json) {
    info_json (backend, &info, ok);
  } else {
    ms_report_device (stdout, &info);
    if (ok)
      report_modes (backend, &info);
  }
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
