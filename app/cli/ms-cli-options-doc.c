/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-options-doc.c: `memsweep __options`: the command table with
 * every option as JSON (data/schema/memsweep-options.json). The build turns
 * it into the man page and the bash and zsh completion
 * (tools/ms-cli-docs.py), so they name what the parsers take: the commands'
 * own options (ms-cli-options.c) and run's sweep settings (the engine's
 * setting table). The help is left untranslated, as the man page is. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-cli-entries.h"
#include "ms-cli-environment.h"
#include "ms-cli-options.h"
#include "ms-cli-common.h"
#include "ms-cli-json.h"
#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-setting-table.h"

#define OPTIONS_SCHEMA_VERSION 1

/* What an option's value is, read from its name and value in the table,
 * for a program that generates command lines (the hostile test): "flag"
 * (none), "output" (a file the command writes: --out, --plot, an export),
 * "prefix" (a name for several files), "input" (a file it reads),
 * "choice" (one of the words in the value), "number" or "text". */
static const char *
value_kind (const char *name, const char *value)
{
  static const char *const outputs[] = { "out", "plot", "openmetrics", "dir" };
  static const char *const numbers[] = { "N", "K", "R", "E", "I", "S", "P", "X", "F", "V",
                                         "MS", "PCT", "MINUTES", "SECONDS", "N|all", "WxH" };
  if (!value)
    return "flag";
  if (strcmp (value, "PREFIX") == 0)
    return "prefix";
  for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++)
    if (strcmp (name, outputs[i]) == 0)
      return "output";
  if (strncmp (name, "export-", 7) == 0)
    return "output";
  if (strcmp (value, "FILE") == 0 || strcmp (value, "PROFILE") == 0)
    return "input";
  for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
    if (strcmp (value, numbers[i]) == 0)
      return "number";
  return strchr (value, '|') ? "choice" : "text";
}

static void
put_option (bool first, const MsCliOption *o, const char *name, const char *value,
            const char *help, const char *const *choices)
{
  fputs (first ? "\n  {\"name\":" : ",\n  {\"name\":", stdout);
  ms_json_put_string (stdout, name);
  fputs (",\"value\":", stdout);
  if (value)
    ms_json_put_string (stdout, value);
  else
    fputs ("null", stdout);
  fputs (",\"kind\":", stdout);
  ms_json_put_string (stdout, value_kind (name, value));
  fputs (",\"help\":", stdout);
  ms_json_put_string (stdout, help);
  fputs (",\"choices\":[", stdout);
  for (int i = 0; choices && choices[i]; i++) {
    fputs (i ? "," : "", stdout);
    ms_json_put_string (stdout, choices[i]);
  }
  /* Given, it makes the command stop on signals (compare --live). */
  if (o && (o->flags & MS_CLI_STOPS_ON_SIGNALS))
    fputs ("],\"stops_on_signals\":true}", stdout);
  else
    fputs ("]}", stdout);
}

/* A setting's value in the usage: its name (N, K) or its choices. */
static void
setting_value (const MsSetting *setting, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  if (setting->arg || !setting->choices) {
    snprintf (buf, len, "%s", setting->arg ? setting->arg : "VALUE");
    return;
  }
  for (int i = 0; setting->choices[i] && used < len; i++)
    used += (size_t) snprintf (buf + used, len - used, "%s%s", i ? "|" : "",
                               setting->choices[i]);
}

/* The setting's help on one line. */
static void
setting_help (const MsSetting *setting, char *buf, size_t len)
{
  snprintf (buf, len, "%s", setting->help);
  for (char *p = buf; *p; p++)
    if (*p == '\n')
      *p = ' ';
}

/* The values an option of a command takes where they are names the
 * engine knows (modes, figures): NULL for any other, whose value is free
 * or its choices are in the value itself ("png|svg|pdf"). */
static const char *const *
named_values (const char *option)
{
  /* --modes takes "all" too; --mode one mode. */
  static const char *modes[MS_MODE_COUNT + 2], *mode[MS_MODE_COUNT + 1];
  static const char *figures[MS_FIGURE_COUNT + 1];
  for (int m = 0; m < MS_MODE_COUNT; m++)
    modes[m] = mode[m] = ms_mode_name ((MsMode) m);
  modes[MS_MODE_COUNT] = "all";
  for (int f = 0; f < MS_FIGURE_COUNT; f++)
    figures[f] = ms_figure_name ((MsFigure) f);
  if (strcmp (option, "mode") == 0)
    return mode;
  if (strcmp (option, "modes") == 0)
    return modes;
  if (strcmp (option, "figure") == 0)
    return figures;
  return NULL;
}

static void
put_run_settings (void)
{
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    char value[256], help[512];
    if (!setting->option)
      continue;
    setting_value (setting, value, sizeof value);
    setting_help (setting, help, sizeof help);
    put_option (false, NULL, setting->option, value, help,
                setting->choices ? setting->choices : named_values (setting->option));
  }
}

/* The lessons' names, for `memsweep lesson NAME`. */
static void
put_operand_choices (const MsCliCommand *c)
{
  fputs (",\"operand_choices\":[", stdout);
  for (int i = 0; strcmp (c->name, "lesson") == 0 && i < ms_lesson_count (); i++) {
    fputs (i ? "," : "", stdout);
    ms_json_put_string (stdout, ms_lesson_nth (i)->name);
  }
  fputc (']', stdout);
}

static void
put_command (const MsCliCommand *c)
{
  fputs ("{\"name\":", stdout);
  ms_json_put_string (stdout, c->name);
  fputs (",\"operands\":", stdout);
  if (c->operands)
    ms_json_put_string (stdout, c->operands);
  else
    fputs ("null", stdout);
  fputs (",\"summary\":", stdout);
  ms_json_put_string (stdout, c->summary);
  /* Whether its first SIGINT, SIGTERM or SIGHUP stops the work and keeps
   * what was measured (docs/cli.md), as main installs the handlers. */
  printf (",\"stops_on_signals\":%s", c->flags & MS_CLI_STOPS_ON_SIGNALS ? "true" : "false");
  put_operand_choices (c);
  fputs (",\"options\":[", stdout);
  put_option (true, NULL, "help", NULL, "print this command's usage and exit", NULL);
  for (const MsCliOption *o = c->options; o && o->name; o++)
    put_option (false, o, o->name, o->value, o->help, named_values (o->name));
  if (c->flags & MS_CLI_RUN_SETTINGS)
    put_run_settings ();
  fputs ("]}", stdout);
}

/* ,"key":[{"name":...,"help":...},...] for the man page's sections. */
static void
put_notes (const char *key, const MsCliNote *notes)
{
  printf (",\n\"%s\":[", key);
  for (const MsCliNote *n = notes; n->name; n++) {
    fputs (n == notes ? "{\"name\":" : ",{\"name\":", stdout);
    ms_json_put_string (stdout, n->name);
    fputs (",\"help\":", stdout);
    ms_json_put_string (stdout, n->help);
    fputc ('}', stdout);
  }
  fputc (']', stdout);
}

int
ms_cli_options_document (int argc, char **argv)
{
  (void) argv;
  if (argc != 1) {
    fprintf (stderr, "memsweep __options takes no arguments\n");
    return EXIT_USAGE;
  }
  void *state = ms_json_begin ();
  printf ("{\"schema\":\"memsweep-options\",\"schema_version\":%d,\"program\":\"memsweep\","
          "\"version\":\"%s\",\"commands\":[\n",
          OPTIONS_SCHEMA_VERSION, MS_VERSION);
  bool first = true;
  for (int i = 0; ms_cli_command_nth (i); i++) {
    const MsCliCommand *c = ms_cli_command_nth (i);
    if (c->flags & MS_CLI_HIDDEN)
      continue;
    fputs (first ? "" : ",\n", stdout);
    put_command (c);
    first = false;
  }
  fputs ("]", stdout);
  put_notes ("environment", ms_cli_environment ());
  put_notes ("files", ms_cli_files ());
  put_notes ("examples", ms_cli_examples ());
  fputs ("}\n", stdout);
  ms_json_end (state);
  return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
}
