/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-schema-keys TEMPLATE OUTPUT: the app's GSettings schema, with the
 * sweep's keys written from the engine's setting table
 * (engine/ms-setting-table.c) where the template says @SWEEP_KEYS@. Run
 * by the build (data/meson.build), so a default or a range has one home. */
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-modes.h"
#include "ms-setting-table.h"

static void
put_escaped (FILE *out, const char *text)
{
  for (const char *c = text; *c; c++) {
    switch (*c) {
    case '&': fputs ("&amp;", out); break;
    case '<': fputs ("&lt;", out); break;
    case '>': fputs ("&gt;", out); break;
    case '\n': fputc (' ', out); break;
    default: fputc (*c, out);
    }
  }
}

/* A double as GVariant text: always with a point, so it reads as "d". */
static void
put_number (FILE *out, const MsSetting *setting, double value)
{
  char text[64];
  snprintf (text, sizeof text, "%.17g", value);
  fputs (text, out);
  if (setting->kind == MS_SETTING_DOUBLE && !strpbrk (text, ".e"))
    fputs (".0", out);
}

static void
put_range_and_default (FILE *out, const MsSetting *setting)
{
  switch (setting->kind) {
  case MS_SETTING_MODES:
    fputs ("      <default>[", out);
    for (int m = 0; m < MS_MODE_COUNT; m++)
      fprintf (out, "%s'%s'", m ? ", " : "", ms_mode_name (m));
    fputs ("]</default>\n", out);
    break;
  case MS_SETTING_CHOICE:
    fputs ("      <choices>\n", out);
    for (int i = 0; setting->choices[i]; i++)
      fprintf (out, "        <choice value=\"%s\"/>\n", setting->choices[i]);
    fprintf (out, "      </choices>\n      <default>'%s'</default>\n",
             setting->choices[(int) setting->def]);
    break;
  default:
    fputs ("      <range min=\"", out);
    put_number (out, setting, setting->min);
    fputs ("\" max=\"", out);
    put_number (out, setting, setting->max);
    fputs ("\"/>\n      <default>", out);
    put_number (out, setting, setting->def);
    fputs ("</default>\n", out);
  }
}

static const char *
key_type (const MsSetting *setting)
{
  switch (setting->kind) {
  case MS_SETTING_DOUBLE: return "d";
  case MS_SETTING_CHOICE: return "s";
  case MS_SETTING_MODES: return "as";
  default: return "i";
  }
}

/* The first setting of a key defines it (reps and min-reps share one). */
static bool
first_of_key (int i)
{
  for (int j = 0; j < i; j++)
    if (ms_setting_nth (j)->key && strcmp (ms_setting_nth (j)->key, ms_setting_nth (i)->key) == 0)
      return false;
  return true;
}

static void
put_sweep_keys (FILE *out)
{
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    if (!setting->key || !first_of_key (i))
      continue;
    fprintf (out, "    <key name=\"%s\" type=\"%s\">\n", setting->key, key_type (setting));
    put_range_and_default (out, setting);
    fputs ("      <summary>", out);
    put_escaped (out, setting->title);
    fputs ("</summary>\n", out);
    /* The help of a command line option reads as part of the usage text;
     * a setting of the app alone is written for the schema. */
    if (!setting->option) {
      fputs ("      <description>", out);
      put_escaped (out, setting->help);
      fputs ("</description>\n", out);
    }
    fputs ("    </key>\n", out);
  }
}

int
main (int argc, char **argv)
{
  if (argc != 3) {
    fprintf (stderr, "usage: ms-schema-keys TEMPLATE OUTPUT\n");
    return 2;
  }
  FILE *in = fopen (argv[1], "r"), *out = fopen (argv[2], "w");
  if (!in || !out) {
    perror ("ms-schema-keys");
    return 1;
  }
  char line[4096];
  while (fgets (line, sizeof line, in)) {
    if (strstr (line, "@SWEEP_KEYS@"))
      put_sweep_keys (out);
    else
      fputs (line, out);
  }
  fclose (in);
  return fclose (out) == 0 ? 0 : 1;
}
