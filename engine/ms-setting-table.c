/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-setting-table.c: the sweep's settings, one line each. A default or a
 * range is changed here and nowhere else: the command line, the schema
 * (generated at build time), the app's pane and docs/cli.md (checked by
 * the cli-doc test) follow. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-names.h"
#include "ms-setting-table.h"

#define FIELD(f) offsetof (MsSweep, f)

/* Choices are the engine's enums, read and written as int. */
_Static_assert (sizeof (MsIssueOrder) == sizeof (int) && sizeof (MsRepsRule) == sizeof (int) &&
                  sizeof (MsHostStores) == sizeof (int) && sizeof (MsVary) == sizeof (int) &&
                  sizeof (MsHostPrep) == sizeof (int),
                "an enum setting is not int sized");

static const char *const order_names[] = { "depth", "breadth", NULL };
static const char *const rule_names[] = { "fixed", "adaptive", NULL };
const char *const ms_stores_names[] = { "streamed", "ordinary", "fresh", NULL };
const char *const ms_vary_names[] = { "nothing", "placement", NULL };
static const char *const host_prep_names[] = { "every", "once", NULL };

/* In the order of the usage text. */
static const MsSetting settings[] = {
  { .option = "modes", .key = "modes", .kind = MS_SETTING_MODES, .arg = "LIST|all",
    .title = MS_N_ ("Memory modes to sweep"), .help = MS_N_ ("comma-separated modes") },
  { .option = "min-exp", .key = "min-exp", .def = 10, .min = MS_MIN_EXPONENT,
    .max = MS_MAX_EXPONENT, .arg = "K", .offset = FIELD (min_exp),
    .title = MS_N_ ("Smallest size exponent"),
    .help = MS_N_ ("smallest size 2^K float32 elements") },
  { .option = "max-exp", .key = "max-exp", .def = 20, .min = MS_MIN_EXPONENT,
    .max = MS_MAX_EXPONENT, .arg = "K", .offset = FIELD (max_exp),
    .title = MS_N_ ("Largest size exponent"), .help = MS_N_ ("largest size 2^K") },
  { .option = "step", .key = "step", .def = 1, .min = 1, .max = MS_MAX_EXPONENT, .arg = "S",
    .offset = FIELD (step), .title = MS_N_ ("Exponent step"), .help = MS_N_ ("exponent step") },
  { .option = "reps", .key = "reps", .def = 6, .min = 1, .max = MS_MAX_REPS, .arg = "N",
    .chooses_fixed = true, .offset = FIELD (reps), .title = MS_N_ ("Timed repetitions"),
    .help = MS_N_ ("a fixed count of timed repetitions per size, instead\n"
                   "of the adaptive rule below") },
  /* Cheap cells repeat until the median is known to +-2%; expensive or
   * noisy ones stop at the budget, after at least min_reps: 6, the fewest
   * with a 95% interval. In the cells from 2^18 up, which stop there,
   * writing the inputs and checking the result took 9 in 10 of each
   * repetition's time (H100, 2026-11-24); at 10 repetitions, 20 ms and 2
   * warm-ups the default sweep took 3.2 s after CUDA's start. */
  { .key = "reps-rule", .kind = MS_SETTING_CHOICE, .def = MS_REPS_ADAPTIVE,
    .choices = rule_names, .offset = FIELD (reps_rule),
    .title = MS_N_ ("How many repetitions a cell takes"),
    .help = MS_N_ ("adaptive: at least the repetitions set, then until the median's interval "
                   "or the cell's time budget is reached (as memsweep run); fixed: exactly that "
                   "many") },
  { .option = "min-reps", .key = "reps", .def = 6, .min = 1, .max = MS_MAX_REPS,
    .adaptive_only = true, .arg = "N", .offset = FIELD (min_reps),
    .title = MS_N_ ("Minimum repetitions"),
    .help = MS_N_ ("the adaptive rule: at least N repetitions per size") },
  { .option = "ci-target", .key = "ci-target", .kind = MS_SETTING_DOUBLE, .def = 2, .min = 0,
    .max = MS_MAX_CI_TARGET_PCT, .above_min = true, .adaptive_only = true, .arg = "PCT",
    .offset = FIELD (ci_target_pct), .title = MS_N_ ("Interval target (%)"),
    /* xgettext:no-c-format */
    .help = MS_N_ ("the adaptive rule stops once the median's 95%\n"
                   "confidence interval is within this many percent of it") },
  /* 12 ms: at 15 ms the default sweep's whole process took 2.47-3.18 s on
   * the lent H100 (2026-11-24, docs/measurements.md), over 3 s once; a
   * cell's median moves more between processes than a longer budget would
   * narrow it within one, so the shorter budget costs the verdicts little. */
  { .option = "cell-budget", .key = "cell-budget", .kind = MS_SETTING_DOUBLE, .def = 12,
    .min = 0, .max = MS_MAX_CELL_BUDGET_MS, .above_min = true, .adaptive_only = true,
    .arg = "MS", .offset = FIELD (cell_budget_ms), .title = MS_N_ ("Cell budget (ms)"),
    .help = MS_N_ ("the adaptive rule also stops once this many\n"
                   "milliseconds went into the size") },
  /* Phase medians need a few instrumented repetitions, not one per plain
   * one: in the large cells, which stop at min_reps, fill and verify of
   * the extra instrumented repetitions were a third of the sweep's time. */
  { .option = "instrumented-reps", .key = "instrumented-reps", .def = 3, .min = 0,
    .max = MS_MAX_REPS, .arg = "N", .offset = FIELD (instr_reps),
    .title = MS_N_ ("Instrumented repetitions"),
    .help = MS_N_ ("how many repetitions of each size (the first) also\n"
                   "run with timers, for phases and timelines; 0: every one") },
  /* The command line's alone while the lent GPUs compare the two ways
   * (tools/gpu.sh host-prep, issue 59): once writes the inputs a cell's
   * first repetition only where the copy meets them in the same state
   * (MsHostPrep, memsweep.h) and poisons the result while verifying it. */
  { .option = "host-prep", .kind = MS_SETTING_CHOICE, .def = MS_HOST_PREP_EVERY,
    .choices = host_prep_names, .offset = FIELD (host_prep),
    .title = MS_N_ ("The host's work around each repetition"),
    .help = MS_N_ ("every: write the inputs and poison the result before\n"
                   "every repetition; once: write the inputs a GPU reads\n"
                   "in place before a size's first repetition only, and\n"
                   "poison the result while verifying it") },
  /* One warm-up takes a cell's first touch of its buffers out of the
   * timed repetitions; the sweep warms the GPU's clock once at its start. */
  { .option = "warmup", .key = "warmup", .def = 1, .min = 0, .max = MS_MAX_WARMUP, .arg = "N",
    .offset = FIELD (warmup), .title = MS_N_ ("Discarded warm-up runs"),
    .help = MS_N_ ("discarded warm-up runs") },
  { .option = "streams", .key = "streams", .def = 4, .min = 1, .max = MS_MAX_STREAMS, .arg = "K",
    .offset = FIELD (streams), .title = MS_N_ ("Streams of the streams mode"),
    .help = MS_N_ ("chunks and streams of the streams mode") },
  { .option = "order", .key = "order", .kind = MS_SETTING_CHOICE, .def = MS_ORDER_DEPTH_FIRST,
    .choices = order_names, .offset = FIELD (order),
    .title = MS_N_ ("Issue order of the streams mode"),
    .help = MS_N_ ("issue order of the streams mode") },
  { .option = "device", .def = 0, .min = 0, .max = INT_MAX, .arg = "I", .offset = FIELD (device),
    .title = MS_N_ ("CUDA device index"), .help = MS_N_ ("CUDA device index") },
  { .option = "rounds", .key = "rounds", .def = 1, .min = 1, .max = MS_MAX_ROUNDS, .arg = "N",
    .offset = FIELD (rounds), .title = MS_N_ ("Rounds"),
    .help = MS_N_ ("how many times the sweep visits every cell,\ninterleaved") },
  /* The command line's alone: the app sweeps in its own process. */
  { .option = "vary", .kind = MS_SETTING_CHOICE, .def = MS_VARY_NOTHING, .choices = ms_vary_names,
    .offset = FIELD (vary), .title = MS_N_ ("What changes between rounds"),
    .help = MS_N_ ("placement: every round visits the cells in a new\n"
                   "random order, from another CPU, pageable buffers on\n"
                   "fresh pages") },
  /* A compare-grade run (docs/compare.md): rounds of one process cannot
   * show all of what moves between processes, so several are run. */
  { .option = "processes", .def = 1, .min = 1, .max = MS_MAX_PROCESSES, .arg = "P",
    .offset = FIELD (processes), .title = MS_N_ ("Processes"),
    .help = MS_N_ ("run the sweep in P processes one after another and\n"
                   "merge their rounds") },
  /* --grade's stopping rule (MS_GRADE_DEFAULT_TARGET_PCT under --grade);
   * 30 s a side. */
  { .option = "grade-target", .kind = MS_SETTING_DOUBLE, .def = 0, .min = 0, .max = 50,
    .arg = "PCT", .offset = FIELD (grade_target_pct), .title = MS_N_ ("Grade target (%)"),
    /* xgettext:no-c-format */
    .help = MS_N_ ("a compare-grade run adds processes until every cell\n"
                   "from 2^14 has a 95% interval within this many percent\n"
                   "(0: exactly --processes; --grade: 4)") },
  { .option = "grade-budget", .kind = MS_SETTING_DOUBLE, .def = 30, .min = 1, .max = 86400,
    .arg = "S", .offset = FIELD (grade_budget_s), .title = MS_N_ ("Grade budget (s)"),
    .help = MS_N_ ("a compare-grade run with a target starts no process\n"
                   "that would end after this many seconds") },
  /* R = 1 is the plain vector add: the app's default leaves the reuse
   * kernel off; the command line's --reuse 1 asks for it with R = 1. */
  { .option = "reuse", .key = "reuse", .def = 1, .min = 1, .max = MS_MAX_REUSE,
    .default_is_off = true, .arg = "R", .offset = FIELD (knobs.reuse),
    .title = MS_N_ ("Accesses per element R of the kernel (1: the plain vector add)"),
    .help = MS_N_ ("the kernel reads each input R times in pinned,\n"
                   "zero-copy, uva and managed memory (docs/lessons.md)") },
  { .option = "stores", .key = "host-stores", .kind = MS_SETTING_CHOICE, .def = MS_STORES_STREAMED,
    .choices = ms_stores_names, .offset = FIELD (knobs.stores),
    .title = MS_N_ ("How the host writes pinned and write-combined inputs"),
    .help = MS_N_ ("how the host writes pinned and write-combined\ninputs") },
};

int
ms_setting_count (void)
{
  return (int) (sizeof settings / sizeof *settings);
}

MS_DEFINE_LOOKUP (ms_setting_nth, const MsSetting *, int, ms_setting_count (), &settings[i], NULL)

const MsSetting *
ms_setting_find (const char *name)
{
  for (int i = 0; name && i < ms_setting_count (); i++)
    if ((settings[i].option && strcmp (settings[i].option, name) == 0) ||
        (settings[i].key && strcmp (settings[i].key, name) == 0))
      return &settings[i];
  return NULL;
}

/* Enums are stored as int (the engine's count from 0, C11 makes them int
 * sized here: checked in the table's test). */
double
ms_setting_get (const MsSetting *setting, const MsSweep *sweep)
{
  const char *field = (const char *) sweep + setting->offset;
  if (setting->kind == MS_SETTING_MODES)
    return 0;
  if (setting->kind == MS_SETTING_DOUBLE)
    return *(const double *) field;
  return *(const int *) field;
}

void
ms_setting_set (const MsSetting *setting, MsSweep *sweep, double value)
{
  char *field = (char *) sweep + setting->offset;
  if (setting->kind == MS_SETTING_DOUBLE)
    *(double *) field = value;
  else if (setting->kind != MS_SETTING_MODES)
    *(int *) field = (int) value;
}

int
ms_setting_n_choices (const MsSetting *setting)
{
  int n = 0;
  while (setting->choices && setting->choices[n])
    n++;
  return n;
}

bool
ms_setting_in_range (const MsSetting *setting, double value)
{
  switch (setting->kind) {
  case MS_SETTING_MODES: return true;
  case MS_SETTING_CHOICE: return value >= 0 && value < ms_setting_n_choices (setting);
  default:
    return (setting->above_min ? value > setting->min : value >= setting->min) &&
           value <= setting->max;
  }
}

int
ms_setting_choice (const MsSetting *setting, const char *name)
{
  return MS_NAME_INDEX (setting->choices, ms_setting_n_choices (setting), name);
}

void
ms_setting_format (const MsSetting *setting, double value, char *buf, size_t len)
{
  if (setting->kind == MS_SETTING_MODES)
    snprintf (buf, len, "all");
  else if (setting->kind == MS_SETTING_CHOICE && ms_setting_in_range (setting, value))
    snprintf (buf, len, "%s", setting->choices[(int) value]);
  else
    snprintf (buf, len, "%.15g", value);
}

/* "depth|breadth" for a choice, else the table's placeholder. */
static void
format_arg (const MsSetting *setting, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  if (setting->kind != MS_SETTING_CHOICE) {
    snprintf (buf, len, "%s", setting->arg ? setting->arg : "");
    return;
  }
  for (int i = 0; setting->choices[i] && used < len; i++)
    used += (size_t) snprintf (buf + used, len - used, "%s%s", i ? "|" : "", setting->choices[i]);
}

/* "1..28", "over 0, up to 100", or nothing (choices, modes, a range
 * without an upper end). */
static void
format_range (const MsSetting *setting, char *buf, size_t len)
{
  char min[32], max[32];
  buf[0] = '\0';
  if (setting->kind == MS_SETTING_MODES || setting->kind == MS_SETTING_CHOICE ||
      setting->max >= INT_MAX)
    return;
  ms_setting_format (setting, setting->min, min, sizeof min);
  ms_setting_format (setting, setting->max, max, sizeof max);
  if (setting->above_min)
    snprintf (buf, len, ms_gettext ("over %s, up to %s"), min, max);
  else
    snprintf (buf, len, "%s..%s", min, max);
}

/* "1..28 (default 1)" or "(default depth)", translated; whether it has a
 * range. */
static bool
format_tail (const MsSetting *setting, char *buf, size_t len)
{
  char range[96], def[32];
  format_range (setting, range, sizeof range);
  ms_setting_format (setting, setting->def, def, sizeof def);
  if (range[0])
    snprintf (buf, len, ms_gettext ("%s (default %s)"), range, def);
  else
    snprintf (buf, len, ms_gettext ("(default %s)"), def);
  return range[0] != '\0';
}

void
ms_setting_usage (const MsSetting *setting, char *buf, size_t len)
{
  enum { HELP_COLUMN = 23, WIDTH = 80 };
  char arg[64], head[128], tail[160];
  format_arg (setting, arg, sizeof arg);
  bool has_range = format_tail (setting, tail, sizeof tail);
  int n = snprintf (head, sizeof head, "  --%s %s", setting->option, arg);
  /* The help starts at its column, or two spaces after a long option. */
  int pad = n + 2 > HELP_COLUMN ? 2 : HELP_COLUMN - n;
  size_t used = (size_t) snprintf (buf, len, "%s%*s", head, pad, "");
  size_t line_start = 0;
  /* Lines after the first start at the help's column too. */
  for (const char *line = ms_gettext (setting->help); *line && used < len;) {
    size_t line_len = strcspn (line, "\n");
    used += (size_t) snprintf (buf + used, len - used, "%.*s", (int) line_len, line);
    line += line_len;
    if (*line == '\n' && used < len) {
      line++;
      line_start = used + 1;
      used += (size_t) snprintf (buf + used, len - used, "\n%*s", HELP_COLUMN, "");
    }
  }
  if (used >= len)
    return;
  /* The range and default end the last line, after ", " (or " " before
   * a bare default), or go on a line of their own. */
  const char *sep = has_range ? ", " : " ";
  if (used - line_start + strlen (sep) + strlen (tail) > WIDTH)
    snprintf (buf + used, len - used, "\n%*s%s\n", HELP_COLUMN, "", tail);
  else
    snprintf (buf + used, len - used, "%s%s\n", sep, tail);
}
