/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-experiment.c: the run-to-run experiment switches (ms-experiment.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-experiment.h"
#include "ms-i18n.h"
#include "ms-names.h"

#define MS_EXPERIMENT_ENV "MEMSWEEP_EXPERIMENT"

static const char *const order_names[] = { "size", "mode", "shuffle" };

static bool
parse_word (const char *word, MsExperiment *x)
{
  if (strcmp (word, "thp") == 0)
    x->hugepages = true;
  else if (strcmp (word, "cpu-fixed") == 0)
    x->fixed_cpu = true;
  else if (strcmp (word, "buffers-per-size") == 0)
    x->keep_buffers = true;
  else if (strcmp (word, "copy-warm") == 0)
    x->copy_warm = true;
  else if (strcmp (word, "one-thread-prep") == 0)
    x->one_thread_prep = true;
  else if (strncmp (word, "inject=", 7) == 0) {
    const char *digits = word + 7;
    size_t n = strspn (digits, "0123456789");
    x->inject_pct = n > 0 && n <= 3 && digits[n] == '\0' ? atoi (digits) : 0;
    return x->inject_pct >= 1 && x->inject_pct <= 100;
  } else if (strncmp (word, "order=", 6) == 0) {
    int i = MS_NAME_INDEX (order_names, 3, word + 6);
    x->order = i >= 0 ? (MsCellOrder) i : x->order;
    return i >= 0;
  } else
    return false;
  return true;
}

bool
ms_experiment_parse (const char *text, MsExperiment *out, char *err, size_t errlen)
{
  char copy[256];
  memset (out, 0, sizeof *out);
  if (!text || !text[0])
    return true;
  if (strlen (text) >= sizeof copy) {
    snprintf (err, errlen, ms_gettext ("%s is too long"), MS_EXPERIMENT_ENV);
    return false;
  }
  snprintf (copy, sizeof copy, "%s", text);
  /* Every item a switch, each once: "inject=5,inject=10" or "thp," is a
   * slip, not a choice. seen: ",key,key,". */
  char seen[sizeof copy + 2] = ",", key[sizeof copy + 2];
  for (char *w = copy, *next; w; w = next) {
    if ((next = strchr (w, ',')))
      *next++ = '\0';
    snprintf (key, sizeof key, ",%.*s,", (int) strcspn (w, "="), w);
    if (!*w || strstr (seen, key)) {
      snprintf (err, errlen, ms_gettext ("%s: '%.40s' names a switch twice, or an empty one"),
                MS_EXPERIMENT_ENV, text);
      memset (out, 0, sizeof *out);
      return false;
    }
    strcat (seen, key + 1);
    if (!parse_word (w, out)) {
      snprintf (err, errlen,
                ms_gettext ("%s: unknown switch '%.40s' (known: thp, cpu-fixed, "
                            "buffers-per-size, copy-warm, one-thread-prep, order=size|mode|shuffle, "
                            "inject=1..100)"),
                MS_EXPERIMENT_ENV, w);
      memset (out, 0, sizeof *out);
      return false;
    }
  }
  return true;
}

static MsExperiment env_switches;
static bool env_read, env_valid;
static char env_error[256];
/* A mutex rather than pthread_once: the sweep threads of several GPUs ask
 * at once, and a race checker (helgrind) can follow a mutex. */
static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;

const MsExperiment *
ms_experiment_get (char *err, size_t errlen)
{
  pthread_mutex_lock (&env_lock);
  if (!env_read) {
    env_valid = ms_experiment_parse (getenv (MS_EXPERIMENT_ENV), &env_switches, env_error,
                                     sizeof env_error);
    env_read = true;
  }
  bool valid = env_valid;
  if (!valid && err)
    snprintf (err, errlen, "%s", env_error);
  pthread_mutex_unlock (&env_lock);
  return valid ? &env_switches : NULL;
}

void
ms_experiment_format (const MsExperiment *x, char *buf, size_t len)
{
  snprintf (buf, len, "%s%s%s%s%s%s%s", x->hugepages ? ",thp" : "",
            x->fixed_cpu ? ",cpu-fixed" : "", x->keep_buffers ? ",buffers-per-size" : "",
            x->copy_warm ? ",copy-warm" : "", x->one_thread_prep ? ",one-thread-prep" : "",
            x->order != MS_ORDER_CELLS_SIZE_MAJOR ? ",order=" : "",
            x->order != MS_ORDER_CELLS_SIZE_MAJOR ? order_names[x->order] : "");
  if (x->inject_pct > 0) {
    size_t used = strlen (buf);
    snprintf (buf + used, len > used ? len - used : 0, ",inject=%d", x->inject_pct);
  }
  if (buf[0] == ',')
    memmove (buf, buf + 1, strlen (buf));
}
