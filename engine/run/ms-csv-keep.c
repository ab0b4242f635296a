/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-keep.c: where a run that could not be written at its names is
 * kept (ms_csv_write_pair_or_keep and ms_csv_write_pair, ms-csv-keep.h):
 * the pair in a kept folder near them (as named, then gzipped; a soft
 * file-size limit lifted for it), else what fits of it: the summary
 * alone, the samples gzipped in parts under a hard file-size limit.
 * Every step is said after the reason the write failed. The files
 * themselves are ms-csv-write.c's. */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "ms-csv-keep.h"
#include "ms-csv-writer.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-output-plan-lock.h"
#include "ms-output-plan.h"
#include "ms-part-files.h"

/* path's name in folder, with ".gz" added when gz. A device or a pipe
 * named without the file's own name (a prefix of /dev/full gets every
 * file of the run) adds it (full-samples.csv): the pair needs two names. */
static bool
kept_name (const char *folder, const char *path, const char *own, bool gz, char *out,
           size_t len)
{
  struct stat st;
  size_t n = strlen (path), k = strlen (own);
  bool device = stat (path, &st) == 0 && !S_ISREG (st.st_mode)
                && !(n >= k && strcmp (path + n - k, own) == 0);
  return ms_output_plan_kept_name (folder, path, out, len)
         && (!device || strlen (out) + strlen (own) < len) && (!device || strcat (out, own))
         && (!gz || strlen (out) + sizeof MS_GZIP_SUFFIX <= len)
         && (!gz || strcat (out, MS_GZIP_SUFFIX));
}

/* A run being kept: the names it could not be written at, and where its
 * files went. What is left to keep of a run no folder took whole is made
 * once: the model's summary of it (run), the metadata and its run id
 * (that of the samples written with their metadata inline, which the
 * summary shares). */
typedef struct {
  const MsResults *results;
  const char *samples_path, *summary_path;
  char samples[PATH_MAX], summary[PATH_MAX]; /* the pair kept */
  MsRunSummary *run;
  char *meta;
  char run_id[32];
  char kept[PATH_MAX + 16]; /* the file kept alone: the summary, then the samples */
  int n_parts;
  bool too_many; /* more parts than any folder takes */
  long long limit;
} Keeping;

/* Writes what a kept folder is to hold, into folder, gzipped or not;
 * true when it is all there. */
typedef bool (*KeepInto) (Keeping *k, const char *folder, bool gz);

/* Each kept folder ms_output_plan_keep_folder offers near path, tried as
 * named, then gzipped (a pair over a file size limit or a nearly full
 * disk often fits a fifth of its size); one that takes nothing leaves
 * the plan. */
static bool
keep_in_a_folder (const char *path, KeepInto keep, Keeping *k)
{
  char folder[PATH_MAX];
  for (int attempt = 0; ms_output_plan_keep_folder (path, attempt, folder, sizeof folder);
       attempt++) {
    for (int gz = 0; gz <= !ms_gzip_is_name (path); gz++)
      if (keep (k, folder, gz))
        return true;
    ms_output_plan_drop_kept_folder (folder);
  }
  return false;
}

static bool
keep_pair_into (Keeping *k, const char *folder, bool gz)
{
  char why[512];
  return kept_name (folder, k->samples_path, "-samples.csv", gz, k->samples, sizeof k->samples)
         && kept_name (folder, k->summary_path, "-summary.csv", gz, k->summary, sizeof k->summary)
         && strcmp (k->samples, k->summary) != 0
         && ms_csv_write_pair_at (k->results, k->samples, k->summary, NULL, why, sizeof why);
}

/* A soft file-size limit (ulimit -S -f) too small for any kept file is
 * the user's guard against a runaway file, not a wish to lose what was
 * measured: raised to the hard limit for the keeping alone, then set
 * back. True when what was kept so. */
static bool
lift_file_size_limit (const char *path, KeepInto keep, Keeping *k)
{
  struct rlimit was, lifted;
  if (getrlimit (RLIMIT_FSIZE, &was) != 0 || was.rlim_cur == was.rlim_max)
    return false;
  lifted = (struct rlimit){ was.rlim_max, was.rlim_max };
  if (setrlimit (RLIMIT_FSIZE, &lifted) != 0)
    return false;
  bool kept = keep_in_a_folder (path, keep, k);
  setrlimit (RLIMIT_FSIZE, &was);
  return kept;
}

/* The pair could not be written at its names, for whatever reason (a full,
 * read-only or vanished folder, a pipe nobody reads, a device that refuses
 * it): kept under them in a new folder (keep_in_a_folder), and said after
 * err's reason. Only the command's own standard output is left alone: a
 * reader that stopped reading asked for nothing more. */
static bool
keep_pair (Keeping *k, char *err, size_t errlen)
{
  size_t used = strlen (err);
  if (ms_output_plan_is_stdout (k->samples_path) || ms_output_plan_is_stdout (k->summary_path))
    return false;
  bool lifted = false;
  if (!keep_in_a_folder (k->samples_path, keep_pair_into, k)
      && !(lifted = lift_file_size_limit (k->samples_path, keep_pair_into, k)))
    return false;
  snprintf (err + used, errlen - used, ms_gettext ("; what was measured is kept in %s and %s"),
            k->samples, k->summary);
  if (lifted) {
    used = strlen (err);
    snprintf (err + used, errlen - used, "%s",
              ms_gettext (", over the file-size limit (ulimit -S -f), which memsweep raised to "
                          "its hard limit for them alone"));
  }
  return true;
}

static bool
keep_summary_into (Keeping *k, const char *folder, bool gz)
{
  char why[512];
  return kept_name (folder, k->summary_path, "-summary.csv", gz, k->kept, sizeof k->kept)
         && ms_csv_write_summary_alone (k->results, k->run, k->kept, k->meta, k->run_id, why,
                                        sizeof why);
}

/* The summary alone (every cell's statistics, a few KiB), with its
 * sidecar, where no folder takes the samples (a file size limit below
 * even their gzipped size): its path in kept, or false. */
static bool
keep_summary_alone (Keeping *k, char *kept, size_t kept_len)
{
  /* Under a soft limit the summary alone may fit the hard one, as the
   * pair did not (ulimit -S -f 1 under -H -f 4). */
  bool ok = keep_in_a_folder (k->summary_path, keep_summary_into, k)
            || lift_file_size_limit (k->summary_path, keep_summary_into, k);
  snprintf (kept, kept_len, "%s", ok ? k->kept : "");
  return ok;
}

static bool
part_put (void *parts, const void *data, size_t n)
{
  return ms_part_files_write (parts, data, n);
}

static bool
count_put (void *count, const void *data, size_t n)
{
  (void)data;
  *(long long *)count += (long long)n;
  return true;
}

/* The samples in parts in folder (the gzipped pass adds nothing: parts
 * are gzipped already). One part is the gzipped file whole: kept under
 * its own name (n_parts 1; -1 where it could not be renamed). */
static bool
keep_parts_into (Keeping *k, const char *folder, bool gz)
{
  char err[512], first[PATH_MAX + 16];
  if (gz || k->too_many ||
      !kept_name (folder, k->samples_path, "-samples.csv", true, k->kept, sizeof k->kept))
    return false;
  MsPartFiles *parts = ms_part_files_new (k->kept, k->limit);
  bool ok = parts && ms_csv_write_samples_gzipped (k->results, k->run, k->run_id, part_put, parts)
            && ms_part_files_finish (parts, err, sizeof err);
  k->n_parts = ok ? ms_part_files_count (parts) : 0;
  k->too_many = parts && ms_part_files_too_many (parts);
  if (k->n_parts == 1) {
    ms_part_files_name (parts, 1, first, sizeof first);
    if (rename (first, k->kept) != 0) {
      snprintf (k->kept, sizeof k->kept, "%s", first);
      k->n_parts = -1;
    }
  }
  ms_part_files_free (parts);
  return ok;
}

/* Under a hard file-size limit (ulimit -H -f, a batch system's) smaller
 * than the samples even gzipped, no folder takes them whole: they are kept
 * gzipped in parts of the limit's size, beside the summary kept alone
 * (summary, or NULL) else in a kept folder of their own, which `cat` joins
 * into a samples file every reader opens, paired with the summary by its
 * run id. The number of parts (their name in k->kept), or 0. */
static int
keep_samples_in_parts (Keeping *k, const char *summary)
{
  struct rlimit was, lifted;
  char folder[PATH_MAX];
  long long size = 0;
  /* (A limit of 0 takes no part at all.) */
  if (getrlimit (RLIMIT_FSIZE, &was) != 0 || was.rlim_max == RLIM_INFINITY || was.rlim_max == 0)
    return 0;
  k->limit = (long long)was.rlim_max;
  /* Counted first: more parts than any folder takes are not begun. */
  k->too_many = !ms_csv_write_samples_gzipped (k->results, k->run, k->run_id, count_put, &size)
                || (size + k->limit - 1) / k->limit > MS_PART_FILES_MAX;
  lifted = (struct rlimit){ was.rlim_max, was.rlim_max };
  if (k->too_many || setrlimit (RLIMIT_FSIZE, &lifted) != 0)
    return 0;
  bool beside = summary && snprintf (folder, sizeof folder, "%s", summary) < (int)sizeof folder;
  if (!(beside && keep_parts_into (k, dirname (folder), false)))
    keep_in_a_folder (k->samples_path, keep_parts_into, k);
  setrlimit (RLIMIT_FSIZE, &was);
  return k->n_parts;
}

/* The parts said with how to join them, naming them once: a process's
 * message reaches its supervisor cut at a length. n -1: one part that
 * kept its part's name. */
static void
say_parts (const char *name, int n, char *err, size_t errlen)
{
  size_t used = strlen (err);
  const char *base = strrchr (name, '/');
  if (n == 1 || n == -1)
    snprintf (err + used, errlen - used,
              ms_gettext ("; the samples file alone, gzipped, is kept in %s"), name);
  else
    snprintf (err + used, errlen - used,
              ms_gettext ("; the samples file, over the file-size limit (ulimit -f), is kept in "
                          "%d gzipped parts, which `cat %s.part-* > %s` joins"),
              n, name, base ? base + 1 : name);
}

/* What fits of a run no folder took whole, kept and said after err's
 * reason: the summary, the samples in parts; true when the samples are
 * kept, in whatever form. */
static bool
keep_what_fits (Keeping *k, char *err, size_t errlen)
{
  char why[512], summary[PATH_MAX + 16];
  size_t used = strlen (err);
  k->run = ms_csv_write_summarize (k->results, k->summary_path, why, sizeof why);
  if (k->run) {
    k->meta = ms_csv_write_metadata_text (k->results, k->run);
    ms_csv_write_run_id (k->results, k->run, k->run_id);
  }
  bool summary_kept = k->run && keep_summary_alone (k, summary, sizeof summary);
  int n_parts = k->run ? keep_samples_in_parts (k, summary_kept ? summary : NULL) : 0;
  if (n_parts != 0 && summary_kept)
    snprintf (err + used, errlen - used,
              ms_gettext ("; no folder could keep the samples file whole (TMPDIR included): "
                          "the summary (each cell's statistics) is kept in %s"),
              summary);
  else if (n_parts != 0)
    snprintf (err + used, errlen - used, "%s",
              ms_gettext ("; no folder could keep the samples file whole, nor the summary "
                          "(TMPDIR included)"));
  else if (summary_kept)
    snprintf (err + used, errlen - used,
              ms_gettext ("; no folder could keep the samples file either (TMPDIR included), "
                          "only the summary (each cell's statistics), kept in %s"),
              summary);
  else
    snprintf (err + used, errlen - used, "%s",
              ms_gettext ("; no folder could keep it either (TMPDIR included): what was "
                          "measured is lost"));
  if (n_parts != 0)
    say_parts (k->kept, n_parts, err, errlen);
  free (k->meta);
  free (k->run);
  return n_parts != 0;
}

bool
ms_csv_write_pair_or_keep (const MsResults *results, const char *samples_path,
                           const char *summary_path, bool *kept, char *err, size_t errlen)
{
  Keeping k = { results, samples_path, summary_path };
  *kept = false;
  if (ms_csv_write_pair_at (results, samples_path, summary_path, NULL, err, errlen))
    return true;
  /* Out of descriptors (a limit lowered midway): the holds give theirs
   * to the kept folder's files. */
  if (errno == EMFILE || errno == ENFILE)
    ms_output_lock_release_all ();
  /* Lost, then, if nothing fits, and said so: never a write error alone. */
  *kept = keep_pair (&k, err, errlen) || keep_what_fits (&k, err, errlen);
  return false;
}

bool
ms_csv_write_pair (const MsResults *results, const char *samples_path, const char *summary_path,
                   char *err, size_t errlen)
{
  bool kept;
  return ms_csv_write_pair_or_keep (results, samples_path, summary_path, &kept, err, errlen);
}
