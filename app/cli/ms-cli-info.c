/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-info.c: `memsweep info` (a device's facts and which modes it
 * supports) and `memsweep modes` (every mode with its explanation). */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-json.h"
#include "ms-cli-output.h"
#include "ms-cli-parse.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"
#include "ms-engine.h"

/* Every mode as a JSON object: its name, its explanation and, with a
 * device, whether it supports the mode and why not. */
static MsJson *
modes_json_array (MsBackend *backend, const MsDeviceInfo *info)
{
  MsJson *modes = ms_json_array_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    MsJson *o = ms_json_object_new ();
    ms_json_set_string (o, "name", ms_mode_name (m));
    ms_json_set_string (o, "description", ms_mode_description (m));
    /* What a "GPU cell" is, for whoever counts them (bench/grade-compare.py). */
    ms_json_set_bool (o, "uses_gpu", ms_mode_uses_gpu (m));
    if (backend) {
      char why[256] = "";
      bool sup = ms_backend_supports (backend, info, m, why, sizeof why);
      ms_json_set_bool (o, "supported", sup);
      ms_json_set_string (o, "unsupported_because", sup ? NULL : why);
    }
    ms_json_append (modes, o);
  }
  return modes;
}

/* The options of modes and info (info alone has --device); false after
 * the message. */
static bool
parse_format_option (int argc, char **argv, const char *command, int *device,
                     MsCliOutput *output)
{
  const MsCliBind binds[] = { { 'd', device }, { 0 } };
  MsCliArgs args;
  ms_cli_args_init (&args, command, argc, argv);
  if (ms_cli_args_next_bound (&args, output, binds) != -1)
    return false;
  return ms_cli_output_ready (output) || (ms_cli_bad_usage (command), false);
}

static const MsCliColumn modes_columns[] = {
  { "mode" },
  { "description" },
};

static void
modes_text (FILE *f, void *user)
{
  (void) user;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    fprintf (f, "%-17s %s\n", ms_mode_name (m), ms_mode_description (m));
}

static void
modes_json (FILE *f, void *user)
{
  (void) user;
  MsJson *doc = ms_json_document ("memsweep-modes", 1);
  ms_json_set (doc, "modes", modes_json_array (NULL, NULL));
  ms_json_print (f, doc);
}

int
ms_cli_modes (int argc, char **argv)
{
  MsCliOutput output = { 0 };
  int unused = 0;
  if (!parse_format_option (argc, argv, "modes", &unused, &output))
    return EXIT_USAGE;
  MsCliTable *table = ms_cli_table_new (modes_columns, 2);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    ms_cli_table_add_row (table);
    ms_cli_table_text (table, 0, ms_mode_name (m));
    ms_cli_table_text (table, 1, ms_mode_description (m));
  }
  return ms_cli_output_send (&output, table, modes_text, modes_json, NULL);
}

typedef struct {
  MsBackend *backend;
  MsDeviceInfo info;
  bool ok;
} InfoState;

/* info's document: the device (null when there is none usable, with the
 * reason in "error") and its modes. */
static void
info_json (FILE *f, void *user)
{
  InfoState *st = user;
  MsJson *doc = ms_json_document ("memsweep-info", 1);
  ms_json_set_int (doc, "devices_visible", st->ok ? st->info.count : 0);
  ms_json_set (doc, "device", st->ok ? ms_json_device (&st->info) : NULL);
  ms_json_set_string (doc, "error", st->ok ? NULL : st->info.error);
  ms_json_set (doc, "modes", modes_json_array (st->ok ? st->backend : NULL, &st->info));
  ms_json_print (f, doc);
}

static void
info_text (FILE *f, void *user)
{
  InfoState *st = user;
  ms_report_device (f, &st->info);
  if (!st->ok)
    return;
  fprintf (f, ms_gettext ("\nModes:\n"));
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    char why[256] = "", clean[1024];
    bool sup = ms_backend_supports (st->backend, &st->info, m, why, sizeof why);
    ms_report_clean (why, clean, sizeof clean);
    fprintf (f, "  %-17s %s%s\n", ms_mode_name (m),
             sup ? ms_gettext ("supported") : ms_gettext ("unsupported: "), clean);
  }
}

/* info's table: the modes, and whether the device supports each (empty
 * without a usable device). */
static const MsCliColumn info_columns[] = {
  { "mode" },
  { "supported" },
  { "unsupported_because" },
};

static MsCliTable *
info_table (InfoState *st)
{
  MsCliTable *table = ms_cli_table_new (info_columns, 3);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    char why[256] = "";
    ms_cli_table_add_row (table);
    ms_cli_table_text (table, 0, ms_mode_name (m));
    if (!st->ok)
      continue;
    bool sup = ms_backend_supports (st->backend, &st->info, m, why, sizeof why);
    ms_cli_table_text (table, 1, sup ? "true" : "false");
    ms_cli_table_text (table, 2, sup ? NULL : why);
  }
  return table;
}

int
ms_cli_info (int argc, char **argv)
{
  int device = 0;
  MsCliOutput output = { 0 };
  if (!parse_format_option (argc, argv, "info", &device, &output))
    return EXIT_USAGE;
  /* One GPU: start no other (ms-gpu-start.h). */
  char why[160];
  ms_gpu_start_only (device, why, sizeof why);
  InfoState st = { .backend = ms_backend_new_system () };
  st.ok = ms_backend_query_device (st.backend, device, &st.info);
  int status = ms_cli_output_send (&output, info_table (&st), info_text, info_json, &st);
  ms_backend_free (st.backend);
  if (status != EXIT_OK)
    return status;
  if (!st.ok) {
    char error[1024];
    ms_report_clean (st.info.error, error, sizeof error);
    ms_cli_error (ms_gettext ("no usable CUDA device: %s\n"), error);
    return EXIT_NO_DEVICE;
  }
  return EXIT_OK;
}
