/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-option-check.c: a command's options checked against the option
 * table (ms-cli-options.c), read as getopt_long reads them, before the
 * command's parser sees them: the parsers differ (getopt, by hand), and
 * their messages for an unknown option did too. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ms-cli-common.h"
#include "ms-cli-option-check.h"
#include "ms-cli-run-options.h"
#include "ms-i18n.h"

enum { MAX_CHECKED_OPTIONS = 2 * MS_CLI_MAX_OPTIONS + 64 };

/* The command's options; a command that takes run's settings also run's
 * own options and settings (calibrate forwards them to run). */
static const struct option *
checked_table (const MsCliCommand *c)
{
  static struct option table[MAX_CHECKED_OPTIONS];
  int n = 0;
  for (const struct option *o = ms_cli_getopt_table (c->name); o && o->name; o++)
    table[n++] = *o;
  if (c->flags & MS_CLI_RUN_SETTINGS)
    for (const struct option *o = ms_cli_run_getopt_table (); o->name && n < MAX_CHECKED_OPTIONS - 1;
         o++)
      table[n++] = *o;
  table[n] = (struct option) { NULL, 0, NULL, 0 };
  return table;
}

/* The option "--NAME[=VALUE]" names: the one whose name it is, else the
 * one whose name it abbreviates; NULL for none, *ambiguous set when it
 * abbreviates several (as getopt_long reads it). */
static const struct option *
find_option (const struct option *table, const char *arg, bool *ambiguous)
{
  size_t len = strcspn (arg + 2, "=");
  const struct option *found = NULL;
  int n = 0;
  *ambiguous = false;
  for (const struct option *o = table; o->name; o++) {
    if (strncmp (o->name, arg + 2, len) != 0)
      continue;
    if (strlen (o->name) == len)
      return o;
    /* One name twice (calibrate's --out and run's) is one option. */
    if (!found || strcmp (found->name, o->name) != 0)
      n++;
    found = found ? found : o;
  }
  *ambiguous = n > 1;
  return n == 1 ? found : NULL;
}

typedef enum { UNKNOWN, AMBIGUOUS, NO_VALUE_TAKEN, VALUE_NEEDED } OptionError;

/* The one form of the messages: "memsweep: CMD: ...", then how to get
 * help. */
static bool
option_error (const char *command, OptionError error, const char *arg)
{
  switch (error) {
  case UNKNOWN:
    fprintf (stderr, ms_gettext ("memsweep: %s: unknown option '%s'\n"), command, arg);
    break;
  case AMBIGUOUS:
    fprintf (stderr, ms_gettext ("memsweep: %s: option '%s' is ambiguous\n"), command, arg);
    break;
  case NO_VALUE_TAKEN:
    fprintf (stderr, ms_gettext ("memsweep: %s: option '%s' takes no value\n"), command, arg);
    break;
  case VALUE_NEEDED:
    fprintf (stderr, ms_gettext ("memsweep: %s: option '%s' needs a value\n"), command, arg);
    break;
  }
  ms_cli_bad_usage (command);
  return false;
}

/* Whether the option called name is among given[0..n). */
static bool
is_given (const char *const *given, int n, const char *name, size_t len)
{
  for (int k = 0; k < n; k++)
    if (strlen (given[k]) == len && strncmp (given[k], name, len) == 0)
      return true;
  return false;
}

/* An option given without every option it acts through (its needs in the
 * table) would do nothing: refused, not ignored (info --compress). */
static bool
options_act (const MsCliCommand *c, const char *const *given, int n)
{
  for (const MsCliOption *o = c->options; o && o->name; o++) {
    if (!o->needs || !is_given (given, n, o->name, strlen (o->name)))
      continue;
    bool acts = false;
    for (const char *p = o->needs; *p && !acts; p += strcspn (p, "|"), p += *p == '|')
      acts = is_given (given, n, p, strcspn (p, "|"));
    if (acts)
      continue;
    char through[128] = "";
    for (const char *p = o->needs; *p; p += strcspn (p, "|"), p += *p == '|') {
      size_t at = strlen (through);
      snprintf (through + at, sizeof through - at, "%s--%.*s", at ? ms_gettext (" or ") : "",
                (int) strcspn (p, "|"), p);
    }
    /* TRANSLATORS: "memsweep: info: --compress does nothing without
     * --export-csv" */
    fprintf (stderr, ms_gettext ("memsweep: %s: --%s does nothing without %s\n"), c->name,
             o->name, through);
    ms_cli_bad_usage (c->name);
    return false;
  }
  return true;
}

/* getopt_long's reading, without its state (the parsers' getopt_long
 * calls start afresh after this) and without its messages. */
bool
ms_cli_options_known (const MsCliCommand *c, int argc, char **argv)
{
  const struct option *table = checked_table (c);
  const char *given[MAX_CHECKED_OPTIONS];
  int n_given = 0;
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++) {
    const char *arg = argv[i];
    if (arg[0] != '-' || !arg[1])
      continue; /* an operand, or - for standard input */
    if (arg[1] != '-') {
      /* No command takes a short option (-h is --help, said before). */
      char text[3] = { '-', arg[1], '\0' };
      return option_error (c->name, UNKNOWN, text);
    }
    bool ambiguous;
    const struct option *o = find_option (table, arg, &ambiguous);
    bool has_value = strchr (arg, '=') != NULL;
    if (!o)
      return option_error (c->name, ambiguous ? AMBIGUOUS : UNKNOWN, arg);
    if (o->has_arg == no_argument && has_value)
      return option_error (c->name, NO_VALUE_TAKEN, arg);
    if (o->has_arg == required_argument && !has_value && ++i >= argc)
      return option_error (c->name, VALUE_NEEDED, arg);
    if (n_given < MAX_CHECKED_OPTIONS)
      given[n_given++] = o->name;
  }
  return options_act (c, given, n_given);
}
