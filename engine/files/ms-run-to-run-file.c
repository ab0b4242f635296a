/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-to-run-file.c: the run-to-run spread as files: its metadata lines
 * in a results file, the profile `memsweep calibrate` writes, and where
 * the profiles are found (this machine's, then the shipped ones of its
 * GPU model). The spread itself and its interval: model/ms-run-to-run.c. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-csv-number.h"
#include "ms-i18n.h"
#include "ms-meta.h"
#include "ms-modes.h"
#include "ms-number.h"
#include "ms-run-to-run-file.h"
#include "ms-source-tree.h"
#include "ms-run-to-run.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

static void
write_runs_line (const MsRunToRun *rr, FILE *f)
{
  ms_meta_printf (f, MS_META_RUN_TO_RUN, "%d runs, %s", rr->runs, rr->date);
}

/* "# run-to-run-sd-MODE: 10=0.0213 11=0.0190 ...", one line per mode. */
void
ms_run_to_run_write_metadata (const MsRunToRun *rr, FILE *f)
{
  if (!rr->valid)
    return;
  write_runs_line (rr, f);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (ms_run_to_run_mode_sd (rr, (MsMode) m) < 0)
      continue;
    fprintf (f, "# %s%s:", ms_meta_table (MS_META_RUN_TO_RUN_SD)->key,
             ms_mode_name ((MsMode) m));
    for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++)
      if (rr->sd[m][e] >= 0)
        fprintf (f, " %d=%.4f", e, rr->sd[m][e]);
    fputc ('\n', f);
  }
}

static bool
parse_sd_list (MsRunToRun *rr, MsMode mode, const char *value)
{
  /* "E=SD" pairs as written: E digits, SD digits with a point (the
   * samples reader's number rule). */
  const char *p = value;
  while (*p) {
    size_t n = strspn (p, "0123456789");
    long e;
    char exp[4];
    if (n == 0 || n >= sizeof exp || p[n] != '=')
      return false;
    memcpy (exp, p, n);
    exp[n] = '\0';
    if (!ms_parse_long (exp, MS_MIN_EXPONENT, MS_MAX_EXPONENT, &e))
      return false;
    p += n + 1;
    size_t len = strcspn (p, " ");
    double sd;
    if (!ms_csv_parse_decimal (p, len, &sd) || sd > 10)
      return false;
    rr->sd[mode][e] = sd;
    p += len;
    while (*p == ' ')
      p++;
  }
  return true;
}

bool
ms_run_to_run_read_metadata (MsRunToRun *rr, const char *key, const char *value)
{
  MsMetaId id = ms_meta_lookup (key);
  if (id == MS_META_RUN_TO_RUN) {
    int runs;
    char date[40];
    if (sscanf (value, "%2d runs, %39s", &runs, date) == 2 && runs >= 3 &&
        runs <= MS_RR_MAX_RUNS) {
      rr->runs = runs;
      ms_utf8_copy (rr->date, sizeof rr->date, date);
      rr->date[ms_utf8_prefix (rr->date, strlen (rr->date))] = '\0'; /* %39s cuts bytes */
      rr->valid = true;
    }
    return true;
  }
  if (id != MS_META_RUN_TO_RUN_SD)
    return false;
  MsMode mode;
  const char *name = key + strlen (ms_meta_table (id)->key);
  if (ms_mode_from_name (name, &mode) && !parse_sd_list (rr, mode, value))
    for (int e = 0; e <= MS_MAX_EXPONENT; e++)
      rr->sd[mode][e] = -1; /* a damaged line is dropped whole */
  return true;
}

/* A profile: its device and how many runs when in its sidecar, one row
 * per (mode, size) with the standard deviation of ln(median) between the
 * runs; the form before the sidecar had them all as metadata lines. */
typedef struct {
  const MsRunToRun *rr;
  const MsResults *like;
} ProfileText;

typedef struct {
  MsRunToRun *rr;
  char *device;
  size_t device_len;
} ProfileReader;

static void
write_profile_metadata (FILE *f, const void *data)
{
  const ProfileText *p = data;
  fprintf (f, "# device: %s\n# pci-bus-id: %s\n",
           p->like->device.name[0] ? p->like->device.name : "none", p->like->device.pci_bus_id);
  if (p->rr->valid)
    write_runs_line (p->rr, f);
}

/* One row of a profile. */
typedef struct {
  MsMode mode;
  long exponent;
  double sd;
} ProfileRow;

static const MsSmallColumn profile_columns[] = {
  { "mode", MS_SMALL_MODE, offsetof (ProfileRow, mode) },
  { "exponent", MS_SMALL_INT, offsetof (ProfileRow, exponent), .min = MS_MIN_EXPONENT,
    .max = MS_MAX_EXPONENT },
  /* Ten is far beyond any spread between runs: a larger one is damage. */
  { "sd_ln_median", MS_SMALL_DECIMAL, offsetof (ProfileRow, sd), .max = 10, .digits = 4 },
};

static void
write_profile_rows (FILE *f, const MsSmallFormat *format, const void *data)
{
  const MsRunToRun *rr = ((const ProfileText *) data)->rr;
  for (int m = 0; rr->valid && m < MS_MODE_COUNT; m++)
    for (int e = MS_MIN_EXPONENT; ms_run_to_run_mode_sd (rr, (MsMode) m) >= 0 && e <= MS_MAX_EXPONENT; e++)
      if (rr->sd[m][e] >= 0)
        ms_small_put_row (f, format, &(ProfileRow) { (MsMode) m, e, rr->sd[m][e] });
}

static bool
parse_profile_meta (MsSmallReader *rd, const char *key, const char *value, void *data)
{
  ProfileReader *p = data;
  (void) rd;
  if (strcmp (key, "device") == 0)
    ms_utf8_copy (p->device, p->device_len, value);
  else
    ms_run_to_run_read_metadata (p->rr, key, value);
  return true;
}

static bool
take_profile_row (MsSmallReader *rd, const void *data_row, void *data)
{
  const ProfileRow *row = data_row;
  (void) rd;
  ((ProfileReader *) data)->rr->sd[row->mode][row->exponent] = row->sd;
  return true;
}

const MsSmallFormat ms_run_to_run_profile_format = {
  .title = "# memsweep run-to-run profile",
  .role = "profile",
  .header_optional = true,
  MS_SMALL_TABLE (profile_columns, ProfileRow),
  .meta = parse_profile_meta,
  .take = take_profile_row,
  .put_meta = write_profile_metadata,
  .put_rows = write_profile_rows,
};

bool
ms_run_to_run_write_profile (const MsRunToRun *rr, const MsResults *like, const char *path,
                             char *err, size_t errlen)
{
  /* In the C locale, whole, through atomic files (ms-small-file.c). */
  ProfileText text = { rr, like };
  return ms_small_file_write (path, &ms_run_to_run_profile_format, &text, err, errlen);
}

bool
ms_run_to_run_read_profile (MsRunToRun *rr, const char *path, char *device, size_t device_len,
                            char *err, size_t errlen)
{
  ms_run_to_run_clear (rr);
  device[0] = '\0';
  char why[512] = "";
  ProfileReader p = { rr, device, device_len };
  MsSmallReader rd = {
    .path = path, .err = err, .errlen = errlen, .why = why, .whylen = sizeof why
  };
  bool ok = ms_small_file_load (&rd, &ms_run_to_run_profile_format, &p), spread = false;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    spread = spread || ms_run_to_run_mode_sd (rr, (MsMode) m) >= 0;
  /* Without its sidecar a profile is of no GPU and no number of runs. */
  if (ok && !rr->valid && rd.meta_unknown)
    snprintf (err, errlen, "%s: %s", path, why);
  else if (ok && !rr->valid)
    snprintf (err, errlen, ms_gettext ("%s: not a memsweep run-to-run profile"), path);
  /* calibrate writes a row per cell measured: a profile with none (cut
   * before its rows, in its metadata lines) would widen nothing. */
  else if (ok && !spread)
    snprintf (err, errlen, ms_gettext ("%s: no rows: the profile holds no spread (a cut file?)"),
              path);
  else if (ok)
    return true;
  ms_run_to_run_clear (rr);
  device[0] = '\0';
  return false;
}

/* host NULL: the name before profiles were keyed by host, still read. */
static bool
profile_path (const MsDeviceInfo *device, const char *host, char *buf, size_t len)
{
  const char *data = getenv ("XDG_DATA_HOME"), *home = getenv ("HOME");
  char id[40 + 256];
  snprintf (id, sizeof id, "%s%s%s", host ? host : "", host ? "-" : "",
            device->pci_bus_id[0] ? device->pci_bus_id : "host");
  /* One name: no '/', and no ':' (bus ids have them, and some file
   * systems and tools refuse them). */
  for (char *p = id; (p = strpbrk (p, ":/"));)
    *p = '-';
  int n;
  if (data && data[0] == '/')
    n = snprintf (buf, len, "%s/memsweep/run-to-run-%s.csv", data, id);
  else if (home && home[0] == '/')
    n = snprintf (buf, len, "%s/.local/share/memsweep/run-to-run-%s.csv", home, id);
  else
    return false;
  return n > 0 && (size_t) n < len;
}

/* Keyed by host as well as bus id: identical nodes of a cluster share a
 * home, and their GPUs often the same bus ids. */
bool
ms_run_to_run_default_path (const MsDeviceInfo *device, char *buf, size_t len)
{
  char host[256] = "";
  if (gethostname (host, sizeof host - 1) != 0 || !host[0])
    snprintf (host, sizeof host, "unknown");
  return profile_path (device, host, buf, len);
}

bool
ms_run_to_run_load_default (MsRunToRun *rr, const MsDeviceInfo *device, char *path, size_t len)
{
  char name[256], err[256];
  const char *expected = device->present ? device->name : "none";
  /* A profile written before the host was in the name still counts until
   * one is written under the new name. */
  bool named = ms_run_to_run_default_path (device, path, len) &&
               (access (path, F_OK) == 0 || profile_path (device, NULL, path, len));
  if (!named || !ms_run_to_run_read_profile (rr, path, name, sizeof name, err, sizeof err) ||
      strcmp (name, expected) != 0) {
    ms_run_to_run_clear (rr);
    return false;
  }
  return true;
}

static bool
load_shipped_from (MsRunToRun *rr, const char *dir, const char *device)
{
  DIR *d = dir ? opendir (dir) : NULL;
  bool found = false;
  for (struct dirent *ent; d && !found && (ent = readdir (d));) {
    size_t len = strlen (ent->d_name);
    if (len < 5 || strcmp (ent->d_name + len - 4, ".csv") != 0)
      continue;
    char path[4096], name[256], err[256];
    snprintf (path, sizeof path, "%s/%s", dir, ent->d_name);
    found = ms_run_to_run_read_profile (rr, path, name, sizeof name, err, sizeof err) &&
            strcmp (name, device) == 0;
    if (found)
      snprintf (rr->source, sizeof rr->source,
                ms_gettext ("profile of the %s shipped with memsweep (%d runs, %s)"), device,
                rr->runs, rr->date);
  }
  if (d)
    closedir (d);
  if (!found)
    ms_run_to_run_clear (rr);
  return found;
}

/* The Compare page judges anew at every change of its threshold: the
 * folder is read once per folder and GPU model, not each time. */
#define SHIPPED_CACHE 4
static struct {
  char dir[512], device[256];
  bool found;
  MsRunToRun rr;
} shipped_cache[SHIPPED_CACHE];
static int shipped_next;
static pthread_mutex_t shipped_lock = PTHREAD_MUTEX_INITIALIZER;

bool
ms_run_to_run_load_shipped (MsRunToRun *rr, const char *device)
{
  /* The shipped profiles' folder: the environment's, the installed one
   * where it is there, else the source tree's. */
  const char *dir = getenv ("MEMSWEEP_PROFILES_DIR");
#ifdef MS_PROFILES_DIR
  DIR *installed = dir && dir[0] ? NULL : opendir (MS_PROFILES_DIR);
  if (installed) {
    closedir (installed);
    dir = MS_PROFILES_DIR;
  }
#endif
  if (!dir || !dir[0])
    dir = ms_source_data ("profiles");
  const char *key = dir ? dir : "-";
  bool found = false, cached = false;
  pthread_mutex_lock (&shipped_lock);
  for (int i = 0; i < SHIPPED_CACHE && !cached; i++)
    if (strcmp (shipped_cache[i].dir, key) == 0 &&
        strcmp (shipped_cache[i].device, device) == 0) {
      cached = true;
      found = shipped_cache[i].found;
      *rr = shipped_cache[i].rr;
    }
  pthread_mutex_unlock (&shipped_lock);
  if (cached)
    return found;
  found = load_shipped_from (rr, dir, device);
  /* Names too long for the cache are read each time. */
  if (strlen (key) < sizeof shipped_cache[0].dir &&
      strlen (device) < sizeof shipped_cache[0].device) {
    pthread_mutex_lock (&shipped_lock);
    int i = shipped_next++ % SHIPPED_CACHE;
    snprintf (shipped_cache[i].dir, sizeof shipped_cache[i].dir, "%s", key);
    snprintf (shipped_cache[i].device, sizeof shipped_cache[i].device, "%s", device);
    shipped_cache[i].found = found;
    shipped_cache[i].rr = *rr;
    pthread_mutex_unlock (&shipped_lock);
  }
  return found;
}
