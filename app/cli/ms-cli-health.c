/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-health.c: a run's health and envelope verdicts as text (see
 * ms-cli-health.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-cli-common.h"
#include "ms-cli-health.h"
#include "ms-cli-tables.h"
#include "ms-engine.h"
#include "ms-i18n.h"

MsEnvelopes *
ms_cli_load_envelopes (const char *path, char *why, size_t whylen)
{
  char fallback[1024];
  if (!path) {
    if (!ms_envelopes_default_path (fallback, sizeof fallback)) {
      snprintf (why, whylen, "%s", ms_gettext ("no envelope file installed"));
      return NULL;
    }
    path = fallback;
  }
  /* "-": standard input, read as a file is (ms-input.h). */
  const char *read = ms_cli_input_path (path);
  if (!read) {
    snprintf (why, whylen, "%s", ms_gettext ("-: standard input could not be read"));
    return NULL;
  }
  MsEnvelopes *env = ms_envelopes_read (read, why, whylen);
  if (env && env->n_refused) {
    char problems[sizeof env->problems], clean[4 * sizeof env->problems];
    snprintf (problems, sizeof problems, "%s", env->problems);
    /* One warning per refused row; the rest of the file is used. */
    for (char *line = strtok (problems, "\n"); line; line = strtok (NULL, "\n"))
      ms_cli_error (ms_gettext ("warning: %s\n"), ms_report_clean (line, clean, sizeof clean));
  }
  return env;
}

const char *
ms_cli_envelopes_named (const char *option)
{
  const char *chosen = getenv ("MEMSWEEP_ENVELOPES");
  return option ? "--envelopes" : chosen && chosen[0] ? "MEMSWEEP_ENVELOPES" : NULL;
}

bool
ms_cli_envelopes_usable (const char *option)
{
  const char *named = ms_cli_envelopes_named (option);
  if (!named)
    return true;
  char why[1024], clean[4096];
  MsEnvelopes *env = ms_cli_load_envelopes (option, why, sizeof why);
  if (env) {
    ms_envelopes_free (env);
    return true;
  }
  ms_cli_error ("%s: %s\n", named, ms_report_clean (why, clean, sizeof clean));
  return false;
}

void
ms_cli_health (FILE *out, const MsResults *results, const MsEnvelopes *env, const char *env_why)
{
  char text[1024], clean[4096];
  ms_health_describe (results, text, sizeof text);
  fprintf (out, "\n%s\n  %s\n", ms_gettext ("Health"), ms_report_clean (text, clean, sizeof clean));

  MsEnvJudgement j;
  ms_envelope_judge (env, results, &j);
  fprintf (out, "\n%s\n", ms_gettext ("Envelope"));
  if (!env)
    fprintf (out, "  %s\n", ms_report_clean (env_why, clean, sizeof clean));
  fprintf (out, "  %s\n", ms_report_clean (j.summary, clean, sizeof clean));
  char missing[512] = "";
  for (int f = 0; f < MS_ENV_N_FIGURES; f++) {
    const MsEnvVerdict *v = &j.v[f];
    if (v->kind == MS_ENV_NOT_MEASURED) {
      size_t used = strlen (missing);
      snprintf (missing + used, sizeof missing - used, "%s%s", used ? ", " : "",
                ms_env_figure_label (v->figure));
      continue;
    }
    fprintf (out, "  %s\n", ms_report_clean (v->text, clean, sizeof clean));
  }
  if (missing[0])
    fprintf (out, ms_gettext ("  not in this run: %s\n"), missing);
}
