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

static void
copy (char *to, size_t size, const char *from)
{
  snprintf (to, size, "%s", from ? from : "");
}

static void
read_gpu (const MsJson *g, MsSiblingGpu *gpu)
{
  gpu->index = (int) number (ms_json_member (g, "index"), -1);
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
    mode->ratio = number (ms_json_member (m, "ratio"), NAN);
  }
}

bool
ms_siblings_file_parse (const char *text, MsSiblingsFile *file, char *err, size_t errlen)
{
  memset (file, 0, sizeof *file);
  MsJson *root = ms_json_parse (text, strlen (text), err, errlen);
  if (!root)
    return false;
  const char *schema = ms_json_string (ms_json_member (root, "schema"));
  file->version = (int) number (ms_json_member (root, "schema_version"), 0);
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
  file->threshold_pct = number (ms_json_member (root, "threshold_pct"), 0);
  file->processes_per_gpu = (int) number (ms_json_member (root, "processes_per_gpu"), 0);
  file->seconds = number (ms_json_member (root, "seconds"), 0);
  /* Version 1 counted its open GPU pairs; version 2 counts GPUs times modes. */
  file->modes_undecided = (int) number (
      ms_json_member (root, file->version == 1 ? "pairs_undecided" : "gpu_modes_undecided"), 0);
  size_t n = json_object_array_length (gpus);
  for (size_t i = 0; i < n && file->n_gpus < MS_SIBLINGS_MAX_GPUS; i++)
    read_gpu (json_object_array_get_idx (gpus, i), &file->gpus[file->n_gpus++]);
  ms_json_free (root);
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
