/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-parse.c: the one parser of every command's options, from what
 * the option table gives the command (ms-cli-options.c). One reading for
 * all: an unknown option, an ambiguous abbreviation, a missing value and
 * an option given twice are said in one form, by every command. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-cli-common.h"
#include "ms-cli-parse.h"
#include "ms-i18n.h"

void
ms_cli_args_init (MsCliArgs *a, const char *command, int argc, char **argv)
{
  *a = (MsCliArgs) { .keys = ms_cli_option_keys (command), .argc = argc, .argv = argv,
                     .next = 1, .operand = 1 };
}

int
ms_cli_args_n_operands (const MsCliArgs *a)
{
  return a->argc - a->operand;
}

/* The option "--NAME[=VALUE]" names: the one whose name it is, else the
 * only one whose name it begins; NULL for none, *ambiguous set when it
 * begins several. */
static const MsCliKey *
find_key (const MsCliKey *keys, const char *arg, bool *ambiguous)
{
  size_t len = strcspn (arg + 2, "=");
  const MsCliKey *found = NULL;
  int n = 0;
  for (const MsCliKey *k = keys; k->name; k++) {
    if (strncmp (k->name, arg + 2, len) != 0)
      continue;
    if (strlen (k->name) == len)
      return k;
    n++;
    found = found ? found : k;
  }
  *ambiguous = n > 1;
  return n == 1 ? found : NULL;
}

/* Edits from a to b (a letter added, dropped, changed, or two beside
 * each other swapped); past 64 letters, more than any slip. */
static int
edits (const char *a, size_t na, const char *b)
{
  size_t nb = strlen (b);
  int d[65][65];
  if (na > 64 || nb > 64)
    return 1000;
  for (size_t i = 0; i <= na; i++)
    for (size_t j = 0; j <= nb; j++) {
      int cost = i && j && a[i - 1] != b[j - 1];
      d[i][j] = !i || !j ? (int) (i + j) : d[i - 1][j - 1] + cost;
      if (i && d[i - 1][j] + 1 < d[i][j])
        d[i][j] = d[i - 1][j] + 1;
      if (j && d[i][j - 1] + 1 < d[i][j])
        d[i][j] = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < d[i][j])
        d[i][j] = d[i - 2][j - 2] + 1;
    }
  return d[na][nb];
}

const char *
ms_cli_nearest (const char *word, size_t len, const char *(*name) (int i))
{
  const char *best = NULL;
  int least = (int) (len / 3) > 1 ? (int) (len / 3) : 1;
  for (int i = 0; name (i); i++) {
    int e = edits (word, len, name (i));
    if (*name (i) && e <= least && (!best || e < least))
      best = name (i), least = e;
  }
  return best;
}

static const MsCliKey *nearest_keys;

static const char *
key_name (int i)
{
  return nearest_keys[i].name;
}

/* "--export-json, --export-csv, --export-markdown": the options arg
 * begins, for the message that it is ambiguous. */
static void
candidates (const MsCliKey *keys, const char *arg, char *buf, size_t len)
{
  size_t n = strcspn (arg + 2, "="), used = 0;
  buf[0] = '\0';
  for (const MsCliKey *k = keys; k->name && used < len; k++)
    if (strncmp (k->name, arg + 2, n) == 0)
      used += (size_t) snprintf (buf + used, len - used, "%s--%s", used ? ", " : "", k->name);
}

/* The option read is refused, said in the one form unless a->silent:
 * what is wrong, then how to get help; '?'. */
#define REFUSE(a, ...) (((a)->silent ? (void) 0 : ms_cli_error (__VA_ARGS__)), refused (a))

static int
refused (MsCliArgs *a)
{
  if (!a->silent)
    ms_cli_bad_usage (ms_cli_command ());
  a->ended = true;
  return '?';
}

/* argv[from..to) turned so that its last k come first (the options read
 * go before the operands read, as getopt_long orders them). */
static void
rotate (char **argv, int from, int to, int k)
{
  for (int r = 0; r < k; r++) {
    char *last = argv[to - 1];
    memmove (argv + from + 1, argv + from, (size_t) (to - 1 - from) * sizeof *argv);
    argv[from] = last;
  }
}

/* The option at a->next, k arguments long, goes before the operands. */
static void
take (MsCliArgs *a, int k)
{
  rotate (a->argv, a->operand, a->next + k, k);
  a->operand += k;
  a->next += k;
}

static int
read_option (MsCliArgs *a, const char *arg)
{
  bool ambiguous = false;
  char list[512];
  if (arg[1] != '-') {
    /* No command takes a short option (-h is --help, said before). */
    char text[3] = { '-', arg[1], '\0' };
    return REFUSE (a, ms_gettext ("unknown option '%s'\n"), text);
  }
  const MsCliKey *k = find_key (a->keys, arg, &ambiguous);
  const char *equals = strchr (arg, '=');
  if (!k && ambiguous) {
    candidates (a->keys, arg, list, sizeof list);
    /* TRANSLATORS: "option '--export' is ambiguous: --export-json,
     * --export-csv, --export-markdown" */
    return REFUSE (a, ms_gettext ("option '%s' is ambiguous: %s\n"), arg, list);
  }
  nearest_keys = a->keys;
  const char *near = k ? NULL : ms_cli_nearest (arg + 2, strcspn (arg + 2, "="), key_name);
  /* TRANSLATORS: "unknown option '--fromat' (did you mean --format?)" */
  if (near)
    return REFUSE (a, ms_gettext ("unknown option '%s' (did you mean --%s?)\n"), arg, near);
  if (!k)
    return REFUSE (a, ms_gettext ("unknown option '%s'\n"), arg);
  if (!k->takes_value && equals)
    return REFUSE (a, ms_gettext ("option '%s' takes no value\n"), arg);
  if (k->takes_value && !equals && a->next + 1 >= a->argc)
    return REFUSE (a, ms_gettext ("option '%s' needs a value\n"), arg);
  const char *value = !k->takes_value ? NULL : equals ? equals + 1 : a->argv[a->next + 1];
  /* An empty name or number is none (--out '' would write "-samples.csv"). */
  if (value && !*value && !(k->option && k->option->kind == MS_CLI_HANDED_ON))
    return REFUSE (a, ms_gettext ("option '--%s' needs a value, not an empty one\n"), k->name);
  unsigned char *given = &a->given[k - a->keys];
  /* A flag said twice says the same; a value given twice would have to
   * choose between them (fleet-node adds --quiet to a node's own). */
  if (*given && !k->repeats && k->takes_value) {
    /* TRANSLATORS: "option '--reps' is given twice: give it once" */
    return REFUSE (a, ms_gettext ("option '--%s' is given twice: give it once\n"), k->name);
  }
  *given += *given < 255;
  a->name = k->name;
  a->option = k->option;
  a->value = value;
  take (a, k->takes_value && !equals ? 2 : 1);
  return k->key;
}

int
ms_cli_args_next (MsCliArgs *a)
{
  while (!a->ended && a->next < a->argc) {
    const char *arg = a->argv[a->next];
    if (strcmp (arg, "--") == 0) {
      /* Everything after it is an operand. */
      take (a, 1);
      a->ended = true;
      break;
    }
    if (arg[0] == '-' && arg[1])
      return read_option (a, arg);
    /* An operand, or - for standard input or output. */
    if (a->first_operand_ends)
      a->ended = true;
    else
      a->next++;
  }
  a->ended = true;
  return -1;
}

/* An option given without every option it acts through (its needs in the
 * table) would do nothing: refused, not ignored (info --compress). */
static bool
options_act (const MsCliArgs *a)
{
  for (const MsCliKey *k = a->keys; k->name; k++) {
    if (!k->needs || !a->given[k - a->keys])
      continue;
    char through[128] = "";
    bool acts = false;
    for (const char *p = k->needs; *p; p += strcspn (p, "|"), p += *p == '|') {
      size_t at = strlen (through), n = strcspn (p, "|");
      for (const MsCliKey *o = a->keys; o->name; o++)
        acts |= strlen (o->name) == n && strncmp (o->name, p, n) == 0 && a->given[o - a->keys];
      snprintf (through + at, sizeof through - at, "%s--%.*s", at ? ms_gettext (" or ") : "",
                (int) n, p);
    }
    if (acts)
      continue;
    /* TRANSLATORS: "memsweep info: --compress does nothing without
     * --export-csv" */
    ms_cli_error (ms_gettext ("--%s does nothing without %s\n"), k->name, through);
    ms_cli_bad_usage (ms_cli_command ());
    return false;
  }
  return true;
}

bool
ms_cli_options_known (const MsCliCommand *c, int argc, char **argv)
{
  MsCliArgs a;
  int key;
  ms_cli_args_init (&a, c->name, argc, argv);
  /* What follows fleet's "--" or first operand is run's, read by run. */
  a.first_operand_ends = (c->flags & MS_CLI_HANDS_ON_RUN_OPTIONS) != 0;
  while ((key = ms_cli_args_next (&a)) != -1)
    if (key == '?')
      return false;
  if (!options_act (&a))
    return false;
  /* A command the table gives no operands refuses one here, alike. */
  if (!c->operands && a.operand < argc) {
    ms_cli_error (ms_gettext ("unexpected argument '%s'\n"), argv[a.operand]);
    ms_cli_bad_usage (c->name);
    return false;
  }
  return true;
}

bool
ms_cli_args_give (const MsCliCommand *c, int argc, char **argv, int key)
{
  MsCliArgs a;
  int got;
  bool given = false;
  /* On a copy: the parser reorders what it reads. */
  char **copy = calloc ((size_t) argc + 1, sizeof *copy);
  if (!copy)
    return false;
  memcpy (copy, argv, (size_t) argc * sizeof *copy);
  ms_cli_args_init (&a, c->name, argc, copy);
  a.first_operand_ends = (c->flags & MS_CLI_HANDS_ON_RUN_OPTIONS) != 0;
  a.silent = true;
  while (!given && (got = ms_cli_args_next (&a)) != -1 && got != '?')
    given = got == key;
  free (copy);
  return given;
}

/* The key of the command's option that makes it stop on signals, or 0. */
static int
stopping_key (const MsCliCommand *c)
{
  for (const MsCliOption *o = c->options; o && o->name; o++)
    if (o->flags & MS_CLI_STOPS_ON_SIGNALS)
      return o->key;
  return 0;
}

bool
ms_cli_stops_on_signals (int argc, char **argv)
{
  const MsCliCommand *c = argc > 1 ? ms_cli_command_find (argv[1]) : NULL;
  int key = c ? stopping_key (c) : 0;
  if (!c || (c->flags & MS_CLI_STOPS_ON_SIGNALS) || !key)
    return c && (c->flags & MS_CLI_STOPS_ON_SIGNALS);
  /* Silent: the command says what is wrong when it reads its options. */
  return ms_cli_args_give (c, argc - 1, argv + 1, key);
}
