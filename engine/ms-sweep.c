/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sweep.c: the sweep description, its defaults and its validation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-i18n.h"
#include "ms-setting-table.h"
#include "ms-modes.h"
#include "ms-names.h"
#include "ms-sweep.h"
#include "ms-variant.h"

/* Every default is the table's (ms-setting-table.c). */
void
ms_sweep_init_default (MsSweep *sweep)
{
  memset (sweep, 0, sizeof *sweep);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    sweep->modes[m] = true;
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    if (!setting->default_is_off)
      ms_setting_set (setting, sweep, setting->def);
  }
}

static void fail_message (char *err, size_t errlen, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Writes the translated message: FAIL is an xgettext keyword (po/meson.build). */
static void
fail_message (char *err, size_t errlen, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  vsnprintf (err, errlen, ms_gettext (format), args);
  va_end (args);
}

#define FAIL(...)                                                             \
  do {                                                                        \
    fail_message (err, errlen, __VA_ARGS__);                                  \
    return false;                                                             \
  } while (0)

/* The adaptive rule's settings; the fixed count is checked with the rest. */
static bool
validate_reps_rule (const MsSweep *sweep, char *err, size_t errlen)
{
  if (sweep->reps_rule != MS_REPS_FIXED && sweep->reps_rule != MS_REPS_ADAPTIVE)
    FAIL ("repetition rule must be fixed or adaptive");
  if (sweep->reps_rule == MS_REPS_FIXED)
    return true;
  if (sweep->min_reps < 1)
    FAIL ("minimum repetitions must be at least 1 (got %d)", sweep->min_reps);
  if (sweep->min_reps > MS_MAX_REPS)
    FAIL ("minimum repetitions must be at most %d (got %d)", MS_MAX_REPS, sweep->min_reps);
  if (!(sweep->ci_target_pct > 0) || sweep->ci_target_pct > MS_MAX_CI_TARGET_PCT)
    FAIL ("confidence interval target must be more than 0%% and at most %g%% of the median "
          "(got %g%%)", MS_MAX_CI_TARGET_PCT, sweep->ci_target_pct);
  if (!(sweep->cell_budget_ms > 0) || sweep->cell_budget_ms > MS_MAX_CELL_BUDGET_MS)
    FAIL ("time budget per cell must be more than 0 ms and at most %.0f ms (got %g ms)",
          MS_MAX_CELL_BUDGET_MS, sweep->cell_budget_ms);
  return true;
}

/* An unset knob needs no mode; a set one at least one that honours it. */
static bool
knob_has_mode (const MsSweep *sweep, MsSweepKnob knob, bool set)
{
  for (int m = 0; set && m < MS_MODE_COUNT; m++)
    if (sweep->modes[m] && ms_sweep_knob_applies (knob, (MsMode) m))
      return true;
  return !set;
}

/* The table's ranges, for a setting whose check above has no message of
 * its own (one added to the table since): those above say it better. */
static bool
validate_table_ranges (const MsSweep *sweep, char *err, size_t errlen)
{
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    double value = ms_setting_get (setting, sweep);
    char got[32], min[32], max[32];
    if ((setting->adaptive_only && sweep->reps_rule != MS_REPS_ADAPTIVE) ||
        (setting->default_is_off && value == 0) || ms_setting_in_range (setting, value))
      continue;
    ms_setting_format (setting, value, got, sizeof got);
    ms_setting_format (setting, setting->min, min, sizeof min);
    ms_setting_format (setting, setting->max, max, sizeof max);
    FAIL ("--%s must be from %s to %s (got %s)", setting->option ? setting->option : setting->key,
          min, max, got);
  }
  return true;
}

/* A whole-number setting's bounds, checked in this order, and what each
 * side says: below with the value, above with the bound and the value. */
typedef struct {
  size_t offset; /* of the int in MsSweep */
  int min, max;
  const char *below, *above;
} CountBound;

static const CountBound count_bounds[] = {
  /* A larger step gives the same single size, and min + step must not
   * overflow while the runner counts up. */
  { offsetof (MsSweep, step), 1, MS_MAX_EXPONENT, MS_N_ ("step must be at least 1 (got %d)"),
    MS_N_ ("step must be at most %d (got %d)") },
  { offsetof (MsSweep, reps), 1, MS_MAX_REPS, MS_N_ ("repetitions must be at least 1 (got %d)"),
    MS_N_ ("repetitions must be at most %d (got %d)") },
  { offsetof (MsSweep, instr_reps), 0, MS_MAX_REPS,
    MS_N_ ("instrumented repetitions must be 0 (every one) or more (got %d)"),
    MS_N_ ("instrumented repetitions must be at most %d (got %d)") },
  { offsetof (MsSweep, warmup), 0, MS_MAX_WARMUP, MS_N_ ("warm-up runs must be 0 or more (got %d)"),
    MS_N_ ("warm-up runs must be at most %d (got %d)") },
  { offsetof (MsSweep, streams), 1, MS_MAX_STREAMS,
    MS_N_ ("stream count K must be at least 1 (got %d)"),
    MS_N_ ("stream count K must be at most %d (got %d)") },
};

bool
ms_sweep_validate (const MsSweep *sweep, char *err, size_t errlen)
{
  if (ms_sweep_n_modes (sweep) == 0)
    FAIL ("no memory mode selected: choose at least one");
  if (sweep->min_exp < MS_MIN_EXPONENT || sweep->min_exp > MS_MAX_EXPONENT)
    FAIL ("minimum exponent %d is out of bounds: use %d..%d", sweep->min_exp, MS_MIN_EXPONENT,
          MS_MAX_EXPONENT);
  if (sweep->max_exp < MS_MIN_EXPONENT || sweep->max_exp > MS_MAX_EXPONENT)
    FAIL ("maximum exponent %d is out of bounds: use %d..%d", sweep->max_exp, MS_MIN_EXPONENT,
          MS_MAX_EXPONENT);
  if (sweep->min_exp > sweep->max_exp)
    FAIL ("empty size range: minimum exponent %d is larger than maximum exponent %d",
          sweep->min_exp, sweep->max_exp);
  for (size_t i = 0; i < sizeof count_bounds / sizeof count_bounds[0]; i++) {
    const CountBound *b = &count_bounds[i];
    int value = *(const int *) ((const char *) sweep + b->offset);
/* The table's formats are not literals; each takes the ints given here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    if (value < b->min)
      FAIL (b->below, value);
    if (value > b->max)
      FAIL (b->above, b->max, value);
#pragma GCC diagnostic pop
  }
  if (knob_has_mode (sweep, MS_KNOB_STREAMS, true) &&
      (1ull << sweep->min_exp) < (unsigned long long) sweep->streams)
    FAIL ("K = %d streams need at least %d elements per chunk set, but the smallest size "
          "2^%d has only %llu: raise the minimum exponent or lower K",
          sweep->streams, sweep->streams, sweep->min_exp, 1ull << sweep->min_exp);
  if (sweep->order != MS_ORDER_DEPTH_FIRST && sweep->order != MS_ORDER_BREADTH_FIRST)
    FAIL ("issue order must be depth or breadth");
  if (sweep->device < 0)
    FAIL ("device index must be 0 or more (got %d)", sweep->device);
  if (sweep->rounds < 1 || sweep->rounds > MS_MAX_ROUNDS)
    FAIL ("rounds must be from 1 to %d (got %d)", MS_MAX_ROUNDS, sweep->rounds);
  /* 0 reads as 1: sweeps made field by field (lessons, readers) leave it. */
  if (sweep->processes < 0 || sweep->processes > MS_MAX_PROCESSES)
    FAIL ("processes must be from 1 to %d (got %d)", MS_MAX_PROCESSES, sweep->processes);
  if (ms_sweep_n_processes (sweep) * sweep->rounds > MS_MAX_ROUNDS)
    FAIL ("processes x rounds must be at most %d (got %d x %d)", MS_MAX_ROUNDS,
          ms_sweep_n_processes (sweep), sweep->rounds);
  if (sweep->vary != MS_VARY_NOTHING && sweep->vary != MS_VARY_PLACEMENT)
    FAIL ("what varies between rounds must be nothing or placement");
  const MsKnobs *k = &sweep->knobs;
  if (k->reuse < 0 || k->reuse > MS_MAX_REUSE)
    FAIL ("accesses per element R must be from 1 to %d (got %d)", MS_MAX_REUSE, k->reuse);
  if ((unsigned) k->access >= MS_ACCESS_COUNT || (unsigned) k->stores >= MS_STORES_COUNT ||
      (unsigned) k->duplex >= MS_DUPLEX_COUNT)
    FAIL ("unknown access, host stores or duplex setting");
  if (!sweep->variant[0] && !knob_has_mode (sweep, MS_KNOB_REUSE, k->reuse > 0))
    FAIL ("accesses per element R apply to pinned, zero-copy, uva and managed memory: "
          "select one of them");
  if (!sweep->variant[0] && !knob_has_mode (sweep, MS_KNOB_STORES, k->stores != MS_STORES_STREAMED))
    FAIL ("how the host writes the inputs applies to pinned and write-combined memory: "
          "select one of them");
  if (!memchr (sweep->variant, '\0', sizeof sweep->variant) || !ms_variant_valid (sweep->variant))
    FAIL ("variant must be key=value pairs joined by '/' of letters, digits and =/._,+:-");
  if (!validate_reps_rule (sweep, err, errlen))
    return false;
  return validate_table_ranges (sweep, err, errlen);
}

bool
ms_sweep_set_modes (MsSweep *sweep, const char *list, char *err, size_t errlen)
{
  bool modes[MS_MODE_COUNT] = { false };

  if (!list || !*list)
    FAIL ("empty mode list: name modes separated by commas, or 'all'");
  if (strcmp (list, "all") == 0) {
    for (int m = 0; m < MS_MODE_COUNT; m++)
      sweep->modes[m] = true;
    return true;
  }
  const char *p = list;
  while (*p) {
    const char *end = strchr (p, ',');
    size_t len = end ? (size_t) (end - p) : strlen (p);
    char name[64];
    if (len == 0)
      FAIL ("empty name in mode list '%s'", list);
    if (len >= sizeof name)
      FAIL ("unknown mode '%.*s': 'memsweep modes' lists them", (int) len, p);
    memcpy (name, p, len);
    name[len] = '\0';
    MsMode mode;
    if (!ms_mode_from_name (name, &mode))
      FAIL ("unknown mode '%s': 'memsweep modes' lists them", name);
    if (modes[mode])
      FAIL ("mode '%s' named twice in '%s'", name, list);
    modes[mode] = true;
    p += len;
    /* "host," names an empty last mode, as ",host" an empty first. */
    if (*p == ',' && !*++p)
      FAIL ("empty name in mode list '%s'", list);
  }
  memcpy (sweep->modes, modes, sizeof modes);
  return true;
}

void
ms_sweep_format_modes (const MsSweep *sweep, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (!sweep->modes[m])
      continue;
    int n = snprintf (buf + used, len - used, "%s%s", used ? "," : "", ms_mode_name (m));
    if (n < 0 || (size_t) n >= len - used)
      break;
    used += n;
  }
}

int
ms_sweep_n_sizes (const MsSweep *sweep)
{
  if (sweep->step < 1 || sweep->min_exp > sweep->max_exp)
    return 0;
  return (sweep->max_exp - sweep->min_exp) / sweep->step + 1;
}

int
ms_sweep_n_modes (const MsSweep *sweep)
{
  int n = 0;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    n += sweep->modes[m] ? 1 : 0;
  return n;
}

bool
ms_sweep_uses_gpu (const MsSweep *sweep)
{
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (sweep->modes[m] && ms_mode_uses_gpu ((MsMode) m))
      return true;
  return false;
}

int
ms_sweep_n_processes (const MsSweep *sweep)
{
  return sweep->processes > 1 ? sweep->processes : 1;
}

MS_DEFINE_LOOKUP (ms_vary_name, const char *, MsVary, MS_VARY_PLACEMENT + 1, ms_vary_names[i],
                  "nothing")
MS_DEFINE_LOOKUP (ms_sweep_stores_name, const char *, MsHostStores, MS_STORES_COUNT,
                  ms_stores_names[i], "")

void
ms_sweep_cell_knobs (const MsSweep *sweep, MsMode mode, MsKnobs *knobs, char *variant,
                     size_t len)
{
  *knobs = sweep->knobs;
  /* A lesson's part names its own variant and sets its knobs to match. */
  if (sweep->variant[0]) {
    snprintf (variant, len, "%s", sweep->variant);
    return;
  }
  /* A plain sweep: each knob where it applies, named in the cell's variant
   * so that the files say what ran. */
  variant[0] = '\0';
  if (knobs->reuse > 0 && ms_sweep_knob_applies (MS_KNOB_REUSE, mode))
    snprintf (variant, len, "R=%d", knobs->reuse);
  else
    knobs->reuse = 0;
  if (knobs->stores != MS_STORES_STREAMED && ms_sweep_knob_applies (MS_KNOB_STORES, mode)) {
    size_t used = strlen (variant);
    snprintf (variant + used, len - used, "%sstores=%s", used ? "/" : "",
              ms_stores_names[knobs->stores]);
  } else {
    knobs->stores = MS_STORES_STREAMED;
  }
}

int
ms_sweep_n_cells (const MsSweep *sweep)
{
  return ms_sweep_n_sizes (sweep) * ms_sweep_n_modes (sweep);
}
