/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write-pair.c: files of the current format without a GPU, for the
 * data-tool test.
 *   write-pair SAMPLES PREFIX: reads a samples file and writes it again as
 *     a run writes its files (PREFIX-samples.csv, PREFIX-summary.csv and
 *     PREFIX-meta.json);
 *   write-pair SAMPLES samples|summary: writes one of them to standard
 *     output, where no sidecar can be: every column, metadata inline;
 *   write-pair peer|multi|profile|portable FROM TO: reads a peer matrix, a
 *     sweep on several GPUs, a run-to-run profile or a portable pinned
 *     memory run (either form) and writes it
 *     again as memsweep writes it now (TO and its sidecar, or inline where
 *     TO is standard output);
 *   write-pair graded SAMPLES PREFIX: a compare-grade run written again as
 *     memsweep keeps one now, its cells in the modes' order (how the
 *     shipped grade runs, recorded in their first round's visit order, were
 *     rewritten);
 *   write-pair plain SAMPLES SUMMARY PREFIX: a run of the older form (its
 *     metadata in '#' lines) in the plain form: its rows as they are, less
 *     the columns empty in every row, its metadata (the summary's lines:
 *     the samples' and the fit's) in PREFIX-meta.json. How the shipped
 *     reference runs of the older form were made plain; a plain pair keeps
 *     its sidecar's metadata and run id (how the shipped runs written
 *     before empty time columns were left out lost theirs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files/ms-csv-io.h"
#include "files/ms-run-to-run-file.h"
#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-csv-keep.h"
#include "ms-csv-writer.h"
#include "ms-meta-sidecar.h"
#include "ms-multi-file.h"
#include "ms-peer-file.h"
#include "ms-portable-file.h"
#include "ms-read-file.h"

static bool
write_files (const MsResults *r, const char *target, char *err, size_t errlen)
{
  char samples[4096], summary[4096];
  if (strcmp (target, "samples") == 0)
    return ms_csv_write_samples (r, "/dev/stdout", err, errlen);
  if (strcmp (target, "summary") == 0)
    return ms_csv_write_summary (r, "/dev/stdout", err, errlen);
  snprintf (samples, sizeof samples, "%s-samples.csv", target);
  snprintf (summary, sizeof summary, "%s-summary.csv", target);
  return ms_csv_write_pair (r, samples, summary, err, errlen);
}

static bool
rewrite_peer (const char *from, const char *to, char *err, size_t errlen)
{
  MsPeerFile *file = ms_peer_file_read (from, err, errlen);
  bool ok = file && ms_peer_file_write (file, to, err, errlen);
  free (file);
  return ok;
}

static bool
rewrite_multi (const char *from, const char *to, char *err, size_t errlen)
{
  MsMultiFile *file = ms_multi_file_read (from, err, errlen);
  bool ok = file && ms_multi_file_write (file, to, err, errlen);
  free (file);
  return ok;
}

static bool
rewrite_portable (const char *from, const char *to, char *err, size_t errlen)
{
  MsPortableFile *file = ms_portable_file_read (from, err, errlen);
  bool ok = file && ms_portable_file_write (file, to, err, errlen);
  free (file);
  return ok;
}

static bool
rewrite_profile (const char *from, const char *to, char *err, size_t errlen)
{
  MsRunToRun rr;
  MsResults *like = ms_results_new (NULL, NULL);
  bool ok = like && ms_run_to_run_read_profile (&rr, from, like->device.name,
                                                sizeof like->device.name, err, errlen) &&
            ms_run_to_run_write_profile (&rr, like, to, err, errlen);
  ms_results_free (like);
  return ok;
}

/* The text of path split at its first line that is no metadata line:
 * *body is the rows (header first); NULL when it cannot be read. */
static char *
read_split (const char *path, char **body)
{
  char err[1024];
  char *text = ms_small_file_read (path, err, sizeof err);
  if (!text) {
    fprintf (stderr, "write-pair: %s\n", err);
    return NULL;
  }
  for (*body = text; **body == '#' && strchr (*body, '\n');)
    *body = strchr (*body, '\n') + 1;
  return text;
}

static bool
write_text (const char *path, const char *text, size_t len, MsSidecarFile *file)
{
  FILE *f = fopen (path, "w");
  bool ok = f && fwrite (text, 1, len, f) == len;
  ok = f && fclose (f) == 0 && ok;
  file->path = path;
  file->bytes = (long long) len;
  file->fnv1a = MS_FNV1A_BASIS;
  ms_fnv1a (&file->fnv1a, text, len);
  ms_sha256_hex_of (text, len, file->sha256);
  return ok;
}

/* The metadata lines before body in text, less the run id the sidecar
 * gives, into out. */
static void
metadata_lines (const char *text, const char *body, char *out, size_t len)
{
  size_t n = 0;
  for (const char *p = text; p < body; p = strchr (p, '\n') + 1) {
    size_t line = (size_t) (strchr (p, '\n') + 1 - p);
    if (strncmp (p, "# run-id: ", 10) != 0 && n + line < len) {
      memcpy (out + n, p, line);
      n += line;
    }
  }
  out[n] = '\0';
}

/* The end of the field that starts at p: its ',' or '\n', or end. */
static const char *
field_end (const char *p, const char *end)
{
  bool quoted = false;
  for (; p < end; p++) {
    if (*p == '"')
      quoted = !quoted;
    else if (!quoted && (*p == ',' || *p == '\n'))
      return p;
  }
  return end;
}

static bool
is_kept (const char *name, size_t len, const char *const *keep)
{
  for (; keep && *keep; keep++)
    if (strlen (*keep) == len && memcmp (*keep, name, len) == 0)
      return true;
  return false;
}

/* Marks in used[] the columns kept by name or with something in them in
 * the rows after the header, every one where there are no such rows;
 * returns the number of columns of the header. */
static size_t
find_used (const char *text, const char *end, const char *const *keep, bool **used_out)
{
  size_t n = 1;
  for (const char *e = text; (e = field_end (e, end)) < end && *e == ','; e++)
    n++;
  bool *used = calloc (n, sizeof *used), rows = false;
  *used_out = used;
  if (!used)
    return 0;
  for (const char *p = text; p < end;) {
    bool header = p == text;
    rows |= !header;
    for (size_t c = 0;; c++) {
      const char *e = field_end (p, end);
      if (c < n && (header ? is_kept (p, (size_t) (e - p), keep) : e > p))
        used[c] = true;
      p = e + 1;
      if (e >= end || *e == '\n')
        break;
    }
  }
  for (size_t c = 0; !rows && c < n; c++)
    used[c] = true;
  return n;
}

/* Removes in place the columns of text (a header row and data rows as
 * memsweep writes them) empty in every data row, but those named in keep
 * (NULL-terminated); returns the new length. A text without data rows is
 * left as it is. */
static size_t
drop_empty_columns (char *text, size_t len, const char *const *keep)
{
  const char *end = text + len;
  bool *used = NULL;
  size_t n = find_used (text, end, keep, &used);
  if (!used)
    return len;
  char *out = text;
  for (const char *p = text; p < end;) {
    bool first = true;
    for (size_t c = 0;; c++) {
      const char *e = field_end (p, end);
      /* Columns past the header's (a malformed row) are kept. */
      if (c >= n || used[c]) {
        if (!first)
          *out++ = ',';
        memmove (out, p, (size_t) (e - p));
        out += e - p;
        first = false;
      }
      p = e + 1;
      if (e >= end || *e == '\n') {
        if (e < end)
          *out++ = '\n';
        break;
      }
    }
  }
  free (used);
  return (size_t) (out - text);
}

/* write-pair plain SAMPLES SUMMARY PREFIX */
static int
make_plain (char **argv)
{
  char *samples_body, *summary_body, paths[3][4096], meta[1 << 16], run_id[32];
  char *samples = read_split (argv[2], &samples_body);
  char *summary = samples ? read_split (argv[3], &summary_body) : NULL;
  if (!summary) {
    free (samples);
    return 1;
  }
  /* A plain pair's metadata and run id are its sidecar's; they stay. */
  char why[1024], *sidecar = NULL;
  run_id[0] = '\0';
  if (summary_body == summary) {
    sidecar = ms_meta_sidecar_lines (argv[3], (long long) strlen (summary), why, sizeof why);
    if (!sidecar || sscanf (sidecar, "# run-id: %31s", run_id) != 1) {
      fprintf (stderr, "write-pair: %s\n", sidecar ? "no run id" : why);
      free (sidecar);
      free (samples);
      free (summary);
      return 1;
    }
  }
  metadata_lines (sidecar ? sidecar : summary, sidecar ? sidecar + strlen (sidecar) : summary_body,
                  meta, sizeof meta);
  free (sidecar);
  /* The reader's columns stay, as the summary writer keeps them. */
  const char *keep[MS_N_SUMMARY_COLUMNS + 1];
  int n_keep = 0;
  for (int i = 0; i < MS_N_SUMMARY_COLUMNS; i++)
    if (ms_summary_columns[i].always)
      keep[n_keep++] = ms_summary_columns[i].name;
  keep[n_keep] = NULL;
  size_t n_samples = drop_empty_columns (samples_body, strlen (samples_body), NULL);
  size_t n_summary = drop_empty_columns (summary_body, strlen (summary_body), keep);
  MsSidecarFile files[2] = { { .role = "samples" }, { .role = "summary" } };
  snprintf (paths[0], sizeof paths[0], "%s-samples.csv", argv[4]);
  snprintf (paths[1], sizeof paths[1], "%s-summary.csv", argv[4]);
  snprintf (paths[2], sizeof paths[2], "%s-meta.json", argv[4]);
  bool ok = write_text (paths[0], samples_body, n_samples, &files[0]) &&
            write_text (paths[1], summary_body, n_summary, &files[1]);
  if (!run_id[0])
    ms_meta_sidecar_run_id (meta, files[0].fnv1a, run_id);
  FILE *f = ok ? fopen (paths[2], "w") : NULL;
  if (f)
    ms_meta_sidecar_write (f, run_id, meta, files, 2);
  ok = f && fclose (f) == 0;
  free (samples);
  free (summary);
  if (!ok)
    fprintf (stderr, "write-pair: %s: cannot write\n", argv[4]);
  return ok ? 0 : 1;
}

/* write-pair KIND FROM TO */
static int
rewrite (char **argv)
{
  static const struct {
    const char *kind;
    bool (*rewrite) (const char *from, const char *to, char *err, size_t errlen);
  } kinds[] = {
    { "peer", rewrite_peer }, { "multi", rewrite_multi }, { "profile", rewrite_profile },
    { "portable", rewrite_portable },
  };
  char err[1024] = "";
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp (argv[1], kinds[i].kind) == 0) {
      if (kinds[i].rewrite (argv[2], argv[3], err, sizeof err))
        return 0;
      fprintf (stderr, "write-pair: %s\n", err);
      return 1;
    }
  fprintf (stderr, "write-pair: unknown kind %s\n", argv[1]);
  return 2;
}

int
main (int argc, char **argv)
{
  char err[1024];
  if (argc == 5 && strcmp (argv[1], "plain") == 0)
    return make_plain (argv);
  if (argc == 4 && strcmp (argv[1], "graded") == 0) {
    /* A compare-grade run as memsweep now keeps one: its cells in the
     * modes' order (ms_results_sort_cells), rows and metadata as read. */
    MsResults *g = ms_run_read_samples (argv[2], err, sizeof err);
    if (g)
      ms_results_sort_cells (g);
    bool ok = g && write_files (g, argv[3], err, sizeof err);
    if (!ok)
      fprintf (stderr, "write-pair: %s\n", err);
    ms_results_free (g);
    return ok ? 0 : 1;
  }
  if (argc == 4)
    return rewrite (argv);
  if (argc != 3) {
    fprintf (stderr, "usage: write-pair SAMPLES PREFIX|samples|summary\n"
                     "       write-pair peer|multi|profile|portable FROM TO\n"
                     "       write-pair plain SAMPLES SUMMARY PREFIX\n"
                     "       write-pair graded SAMPLES PREFIX\n");
    return 2;
  }
  MsResults *r = ms_run_read_samples (argv[1], err, sizeof err);
  if (!r || !write_files (r, argv[2], err, sizeof err)) {
    fprintf (stderr, "write-pair: %s\n", err);
    ms_results_free (r);
    return 1;
  }
  ms_results_free (r);
  return 0;
}
