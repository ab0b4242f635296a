/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings-file.c: a sibling check's JSON document read back
 * (ms-siblings-file.h). */
#include "ms-siblings-file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-file-kinds.h"
#include "ms-i18n.h"
#include "ms-json.h"
#include "ms-read-file.h"

static double
number (const MsJson *v, double fallback)
{
  const char *text = ms_json_number_text (v);
  return text ? strtod (text, NULL) : fallback;
}

/* Every number given is range-checked before it is kept, the counts
 * before they become ints: a value no check can hold names its member in
 * *bad. An absent member is its fallback, as before. */
static double
checked (const MsJson *parent, const char *name, double lo, double hi, double fallback,
         const char **bad)
{
  double v = number (ms_json_member (parent, name), fallback);
  bool ok = (v >= lo && v <= hi) || (!ms_json_member (parent, name) && v == fallback);
  if (!ok && !*bad)
    *bad = name;
  return ok ? v : fallback;
}

static int
count (const MsJson *parent, const char *name, int lo, int hi, int fallback, const char **bad)
{
  double v = checked (parent, name, lo, hi, fallback, bad);
  if (v != floor (v) && !*bad)
    *bad = name;
  return v == floor (v) ? (int) v : fallback;
}

static void
copy (char *to, size_t size, const char *from)
{
  snprintf (to, size, "%s", from ? from : "");
}

static void
read_gpu (const MsJson *g, MsSiblingGpu *gpu, MsSiblingsFile *file, const char **bad)
{
  gpu->index = count (g, "index", 0, 4095, -1, bad);
  copy (gpu->bus_id, sizeof gpu->bus_id, ms_json_string (ms_json_member (g, "bus_id")));
  gpu->differs = json_object_get_boolean (ms_json_member (g, "differs"));
  MsJson *modes = ms_json_member (g, "modes");
  size_t n = json_object_is_type (modes, json_type_array) ? json_object_array_length (modes) : 0;
  for (size_t i = 0; i < n && gpu->n_modes < MS_SIBLINGS_MAX_MODES; i++) {
    const MsJson *m = json_object_array_get_idx (modes, i);
    MsSiblingMode *mode = &gpu->modes[gpu->n_modes++];
    copy (mode->mode, sizeof mode->mode, ms_json_string (ms_json_member (m, "mode")));
    mode->verdict = MS_VERDICT_COUNT;
    ms_verdict_from_key (ms_json_string (ms_json_member (m, "verdict")), &mode->verdict);
    mode->differs = json_object_get_boolean (ms_json_member (m, "differs"));
    /* null where not measured; otherwise a ratio of two times. */
    mode->ratio = ms_json_number_text (ms_json_member (m, "ratio"))
                      ? checked (m, "ratio", 1e-6, 1e6, NAN, bad)
                      : NAN;
  }
  if (n > MS_SIBLINGS_MAX_MODES)
    file->modes_dropped += (int) (n - MS_SIBLINGS_MAX_MODES);
}

bool
ms_siblings_file_parse (const char *text, MsSiblingsFile *file, char *err, size_t errlen)
{
  memset (file, 0, sizeof *file);
  MsJson *root = ms_json_parse (text, strlen (text), err, errlen);
  if (!root)
    return false;
  const char *schema = ms_json_string (ms_json_member (root, "schema"));
  double version = number (ms_json_member (root, "schema_version"), 0);
  file->version = version == 1 || version == 2 ? (int) version : 0;
  bool known = ms_siblings_result_from_key (ms_json_string (ms_json_member (root, "result")),
                                            &file->result);
  MsJson *gpus = ms_json_member (root, "gpus");
  const char *siblings = ms_file_kind_info (MS_FILE_KIND_SIBLINGS_JSON)->schema;
  if (!schema || strcmp (schema, siblings) != 0 || file->version < 1 || file->version > 2 ||
      !known || !json_object_is_type (gpus, json_type_array)) {
    snprintf (err, errlen, "%s", ms_gettext ("not a sibling check of version 1 or 2"));
    ms_json_free (root);
    return false;
  }
  const char *bad = NULL;
  file->threshold_pct = checked (root, "threshold_pct", 1e-6, 1000, 0, &bad);
  file->processes_per_gpu = count (root, "processes_per_gpu", 1, 1 << 20, 0, &bad);
  file->seconds = checked (root, "seconds", 0, 1e9, 0, &bad);
  /* Version 1 counted its open GPU pairs; version 2 counts GPUs times modes. */
  file->modes_undecided = count (
      root, file->version == 1 ? "pairs_undecided" : "gpu_modes_undecided", 0, 1 << 20, 0, &bad);
  size_t n = json_object_array_length (gpus);
  for (size_t i = 0; i < n && file->n_gpus < MS_SIBLINGS_MAX_GPUS; i++)
    read_gpu (json_object_array_get_idx (gpus, i), &file->gpus[file->n_gpus++], file, &bad);
  file->gpus_dropped = n > MS_SIBLINGS_MAX_GPUS ? (int) (n - MS_SIBLINGS_MAX_GPUS) : 0;
  ms_json_free (root);
  /* A check of its GPUs has GPUs: none is no finding. */
  if (bad || n == 0) {
    snprintf (err, errlen, ms_gettext ("%s: a value no sibling check can hold"),
              bad ? bad : "gpus");
    return false;
  }
  return true;
}

bool
ms_siblings_file_read (const char *path, MsSiblingsFile *file, char *err, size_t errlen)
{
  char why[256];
  char *text = ms_small_file_read (path, err, errlen);
  if (!text)
    return false;
  bool ok = ms_siblings_file_parse (text, file, why, sizeof why);
  free (text);
  if (!ok)
    snprintf (err, errlen, "%s: %s", path, why);
  return ok;
}
