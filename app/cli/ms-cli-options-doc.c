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
#include "ms-cli-json.h"
#include "ms-cli-options.h"
#include "ms-cli-common.h"
#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-lessons.h"
#include "ms-setting-table.h"
#if defined(MS_HAVE_DRAW) || defined(MS_DRAW_HELPER)
#include "ms-report-view-names.h"
#endif

#define OPTIONS_SCHEMA_VERSION 3 /* 3: repeats and exit statuses; 2 and 1: data/schema/memsweep-options-v2.json, -v1.json */

/* [{"code":"0","meaning":...},...]: a command's exit statuses, or (NULL)
 * those every command shares, for the man page and docs/cli.md. */
static MsJson *
exits_json (const MsCliCommand *c)
{
  MsJson *list = ms_json_array_new ();
  for (const MsCliExit *e = ms_cli_exits (c); e->meaning; e++) {
    char code[16];
    MsJson *o = ms_json_object_new ();
    ms_cli_exit_code (e, code, sizeof code);
    ms_json_set_string (o, "code", code);
    ms_json_set_string (o, "meaning", e->meaning);
    ms_json_append (list, o);
  }
  return list;
}

/* What an option's value is, for a program that generates command lines
 * (the hostile test): its kind in the table, in the document's words. */
static const char *const kind_words[] = {
  [MS_CLI_TEXT] = "text",       [MS_CLI_INPUT] = "input",    [MS_CLI_OUTPUT] = "output",
  [MS_CLI_PREFIX] = "prefix",   [MS_CLI_HANDED_ON] = "text", [MS_CLI_CHOICE] = "choice",
  [MS_CLI_COUNT] = "number",    [MS_CLI_COUNT_OR_ALL] = "number",
  [MS_CLI_DEVICES] = "text",    [MS_CLI_SETTING] = "number", [MS_CLI_NUMBER] = "number",
};

static void
add_option (MsJson *options, const MsCliOption *opt, const char *name, const char *value,
            const char *kind, const char *help, const char *const *choices)
{
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "name", name);
  ms_json_set_string (o, "value", value);
  ms_json_set_string (o, "kind", value ? kind : "flag");
  ms_json_set_string (o, "help", help);
  MsJson *list = ms_json_array_new ();
  for (int i = 0; choices && choices[i]; i++)
    ms_json_append (list, ms_json_string_new (choices[i]));
  ms_json_set (o, "choices", list);
  /* LIST in the value names a comma-separated list (--modes pinned,uva):
   * the shells complete each of its items. */
  if (value && strncmp (value, "LIST", 4) == 0)
    ms_json_set_bool (o, "comma_list", true);
  /* Given, it makes the command stop on signals (compare --live). */
  if (opt && (opt->flags & MS_CLI_STOPS_ON_SIGNALS))
    ms_json_set_bool (o, "stops_on_signals", true);
  /* It may be given more than once (each export); any other is refused
   * given twice. */
  if (opt && (opt->flags & MS_CLI_REPEATS))
    ms_json_set_bool (o, "repeats", true);
  /* The options it acts through: given without them it is refused. */
  if (opt && opt->needs) {
    MsJson *needs = ms_json_array_new ();
    for (const char *p = opt->needs; *p; p += strcspn (p, "|"), p += *p == '|') {
      char other[64];
      snprintf (other, sizeof other, "%.*s", (int) strcspn (p, "|"), p);
      ms_json_append (needs, ms_json_string_new (other));
    }
    ms_json_set (o, "needs", needs);
  }
  ms_json_append (options, o);
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

/* The values an option of a command takes where they are names that
 * memsweep knows (modes, figures, views, lessons), from the lists the
 * parsers read: NULL for any other, whose value is free or its choices
 * are in the value itself ("png|svg|pdf"). */
static const char *const *
named_values (const char *option)
{
  /* --modes takes "all" too; --mode one mode. */
  static const char *modes[MS_MODE_COUNT + 2], *mode[MS_MODE_COUNT + 1];
  static const char *figures[MS_FIGURE_COUNT + 1];
  static const char *lessons[MS_TOPIC_COUNT + 1];
  for (int m = 0; m < MS_MODE_COUNT; m++)
    modes[m] = mode[m] = ms_mode_name ((MsMode) m);
  modes[MS_MODE_COUNT] = "all";
  for (int f = 0; f < MS_FIGURE_COUNT; f++)
    figures[f] = ms_figure_name ((MsFigure) f);
  /* plot's and report's --lesson: every lesson, a plain sweep's too */
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    lessons[t] = ms_lesson_topic ((MsLessonTopic) t)->name;
  if (strcmp (option, "mode") == 0)
    return mode;
  if (strcmp (option, "modes") == 0)
    return modes;
  if (strcmp (option, "figure") == 0)
    return figures;
  if (strcmp (option, "lesson") == 0)
    return lessons;
#if defined(MS_HAVE_DRAW) || defined(MS_DRAW_HELPER)
  /* plot's views: the drawing library's and a lesson's picture */
  static const char *views[] = { MS_REPORT_VIEW_LIST (MS_REPORT_VIEW_NAME_ITEM) MS_CLI_LESSON_VIEW,
                                 NULL };
  if (strcmp (option, "view") == 0)
    return views;
#endif
  return NULL;
}

static void
add_run_settings (MsJson *options)
{
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    char value[256], help[512];
    if (!setting->option)
      continue;
    setting_value (setting, value, sizeof value);
    setting_help (setting, help, sizeof help);
    bool chosen = setting->kind == MS_SETTING_CHOICE || setting->kind == MS_SETTING_MODES;
    add_option (options, NULL, setting->option, value, chosen ? "choice" : "number", help,
                setting->choices ? setting->choices : named_values (setting->option));
  }
}

/* The lessons' names, for `memsweep lesson NAME`, and the word that
 * lists them. */
static MsJson *
operand_choices (const MsCliCommand *c)
{
  MsJson *list = ms_json_array_new ();
  if (strcmp (c->name, "lesson") == 0)
    ms_json_append (list, ms_json_string_new (MS_CLI_LESSON_LIST));
  for (int i = 0; strcmp (c->name, "lesson") == 0 && i < ms_lesson_count (); i++)
    ms_json_append (list, ms_json_string_new (ms_lesson_nth (i)->name));
  return list;
}

static MsJson *
command_json (const MsCliCommand *c)
{
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "name", c->name);
  ms_json_set_string (o, "operands", c->operands);
  ms_json_set_string (o, "summary", c->summary);
  /* Whether its first SIGINT, SIGTERM or SIGHUP stops the work and keeps
   * what was measured (docs/cli.md), as main installs the handlers. */
  ms_json_set_bool (o, "stops_on_signals", c->flags & MS_CLI_STOPS_ON_SIGNALS);
  ms_json_set (o, "operand_choices", operand_choices (c));
  MsJson *options = ms_json_array_new ();
  add_option (options, NULL, "help", NULL, NULL, "print this command's usage and exit", NULL);
  add_option (options, NULL, "version", NULL, NULL, "print memsweep's version and exit", NULL);
  for (const MsCliOption *opt = c->options; opt && opt->name; opt++)
    add_option (options, opt, opt->name, opt->value, kind_words[opt->kind], opt->help,
                named_values (opt->name));
  if (c->flags & MS_CLI_RUN_SETTINGS)
    add_run_settings (options);
  ms_json_set (o, "options", options);
  ms_json_set (o, "exit_statuses", exits_json (c));
  return o;
}

/* [{"name":...,"help":...},...] for the man page's sections. */
static MsJson *
notes_json (const MsCliNote *notes)
{
  MsJson *list = ms_json_array_new ();
  for (const MsCliNote *n = notes; n->name; n++) {
    MsJson *o = ms_json_object_new ();
    ms_json_set_string (o, "name", n->name);
    ms_json_set_string (o, "help", n->help);
    ms_json_append (list, o);
  }
  return list;
}

int
ms_cli_options_document (int argc, char **argv)
{
  (void) argv;
  if (argc != 1) {
    fprintf (stderr, "memsweep __options takes no arguments\n");
    return EXIT_USAGE;
  }
  MsJson *doc = ms_json_document ("memsweep-options", OPTIONS_SCHEMA_VERSION);
  ms_json_set_string (doc, "program", "memsweep");
  ms_json_set_string (doc, "version", MS_VERSION);
  MsJson *commands = ms_json_array_new ();
  for (int i = 0; ms_cli_command_nth (i); i++) {
    const MsCliCommand *c = ms_cli_command_nth (i);
    if (!(c->flags & MS_CLI_HIDDEN))
      ms_json_append (commands, command_json (c));
  }
  ms_json_set (doc, "commands", commands);
  ms_json_set (doc, "exit_statuses", exits_json (NULL));
  ms_json_set (doc, "environment", notes_json (ms_cli_environment));
  ms_json_set (doc, "files", notes_json (ms_cli_files));
  ms_json_set (doc, "examples", notes_json (ms_cli_examples));
  ms_json_print (stdout, doc);
  return ms_cli_stdout_status ();
}
