/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-setting-table.h: every setting of a sweep, once (ms-setting-table.c):
 * its name on the command line and in the app's GSettings schema, its
 * default, its range and its help. ms_sweep_init_default takes the
 * defaults from it, ms_sweep_validate checks its ranges; `memsweep run`
 * builds its options, usage text and checks from it; the build writes the
 * schema's sweep keys from it (ms-schema-keys); the app's settings pane
 * binds each control by key and takes its range from it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

typedef enum {
  MS_SETTING_INT,
  MS_SETTING_DOUBLE,
  MS_SETTING_CHOICE, /* an enum, stored as int, named by choices[value] */
  MS_SETTING_MODES,  /* the memory modes: "all" or a comma-separated list */
} MsSettingKind;

typedef struct {
  /* `memsweep run --OPTION`; NULL where the command line has none (the
   * repetition rule follows from --reps or the adaptive options). */
  const char *option;
  /* The app's GSettings key; NULL where the app sets the value elsewhere
   * (the device: the Devices page). Two settings may share a key: the
   * app's one count is --reps under the fixed rule, --min-reps under the
   * adaptive one. */
  const char *key;
  MsSettingKind kind;
  double def, min, max;
  bool above_min;       /* min itself is refused: more than min, up to max */
  bool default_is_off;  /* the app's default leaves the field at 0, "off" */
  bool adaptive_only;   /* read (and checked) under MS_REPS_ADAPTIVE only */
  bool chooses_fixed;   /* the count of MS_REPS_FIXED: giving it chooses that rule */
  const char *const *choices; /* MS_SETTING_CHOICE: names by value, NULL-ended */
  const char *arg;      /* the value in the usage text: "N", "K"; choices: NULL */
  const char *title;    /* short, for the schema's summary; MS_N_ */
  const char *help;     /* the usage text's line(s), '\n' between; MS_N_ */
  size_t offset;        /* of the MsSweep field: int, double or an enum */
  /* The field's check in ms_sweep_validate has its own message; the others
   * get one from the table. */
} MsSetting;

/* The names of the host stores and of what a sweep varies, by value. */
extern const char *const ms_stores_names[], *const ms_vary_names[];

int ms_setting_count (void);
const MsSetting *ms_setting_nth (int i);
/* By option or key; NULL when none has that name. */
const MsSetting *ms_setting_find (const char *name);

/* The field's value, and setting it as is (no range check). */
double ms_setting_get (const MsSetting *setting, const MsSweep *sweep);
void ms_setting_set (const MsSetting *setting, MsSweep *sweep, double value);
/* Whether value is within the setting's range (a choice: one of them). */
bool ms_setting_in_range (const MsSetting *setting, double value);
/* The value of a choice's name, or -1. */
int ms_setting_choice (const MsSetting *setting, const char *name);
/* How many choices the setting has. */
int ms_setting_n_choices (const MsSetting *setting);
/* A value as the command line writes it: "10", "2", "depth", "all". */
void ms_setting_format (const MsSetting *setting, double value, char *buf, size_t len);
/* The usage text's lines of one setting, translated, with its range and
 * default: "  --step S             exponent step, 1..28 (default 1)\n". */
void ms_setting_usage (const MsSetting *setting, char *buf, size_t len);
