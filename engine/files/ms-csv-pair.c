/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-pair.c: whether a samples file and the summary beside it were
 * written together (the run id in both files' metadata). */
#include "ms-csv-pair.h"
#include "ms-atomic-file.h"
#include "ms-file-kinds.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-meta-sidecar.h"
#include "ms-meta.h"
#include "ms-input.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SAMPLES_SUFFIX "-samples.csv"
#define SUMMARY_SUFFIX "-summary.csv"
/* Metadata sits at the top; no need to read a large file to its end, nor
 * a line without an end (a 4 GiB one took 24 s): this many bytes at most. */
#define MAX_META_BYTES (256 * 1024)
/* The runs library's look at a samples file: every metadata line memsweep
 * writes, with room to spare. */
#define SAMPLES_HEAD_BYTES (64 * 1024)

/* Keeps of text (len bytes, a CSV file's head) its '#' lines up to its
 * column header, each ending in '\n' without a CR, NUL-terminated; false
 * when the head ends before that header (the lines up to there kept). */
static bool
keep_head_lines (char *text, size_t len)
{
  size_t bom = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  char *out = text;
  for (char *p = text + bom, *eol; (eol = memchr (p, '\n', (size_t) (text + len - p)));
       p = eol + 1) {
    if (*p != '#') {
      *out = '\0';
      return true;
    }
    size_t n = (size_t) (eol - p) - (eol > p && eol[-1] == '\r');
    memmove (out, p, n);
    out += n;
    *out++ = '\n';
  }
  *out = '\0';
  return false;
}

/* A file without metadata lines: its sidecar's, when the sidecar
 * describes it (plain: the file's plain size, as the reader gives it, a
 * gzip file's recorded one); NULL otherwise. */
static char *
sidecar_lines (const char *path, uint64_t plain, bool bom)
{
  char why[1024];
  /* A byte order mark an editor added is no change to the data. */
  long long size = (long long) plain - (bom ? 3 : 0);
  return ms_meta_sidecar_lines (path, size, why, sizeof why);
}

char *
ms_csv_meta_lines (const char *path)
{
  char why[1024], first[4];
  size_t len = 0;
  bool more = false;
  /* Only a regular file, as the samples reader opens, and a compressed
   * one as its plain content: a FIFO or a device standing where a summary
   * would be must not block or never end. Its head is the input's, kept:
   * a file whose metadata is in its sidecar is not read here. */
  MsInput *in = ms_input_open (path, true, why, sizeof why);
  ssize_t n = in ? ms_input_pread (in, first, sizeof first, 0) : -1;
  bool bom = n >= 3 && memcmp (first, "\xEF\xBB\xBF", 3) == 0;
  bool inline_meta = n <= 0 || ms_meta_sidecar_inline (first, (size_t) n);
  char *head = in && inline_meta ? ms_input_read_all (in, MAX_META_BYTES, &len, &more, why,
                                                      sizeof why)
                                 : NULL;
  uint64_t plain = in ? ms_input_size (in) : 0;
  ms_input_close (in);
  if (in && !inline_meta)
    return sidecar_lines (path, plain, bom);
  /* A line may end in a CR alone, which the readers take as LF. */
  for (char *cr = head; cr && (cr = memchr (cr, '\r', (size_t) (head + len - cr))); cr++)
    if (cr + 1 < head + len && cr[1] != '\n')
      *cr = '\n';
  if (head)
    keep_head_lines (head, len);
  return head;
}

bool
ms_csv_meta_value (const char *path, const char *key, char *value, size_t len)
{
  char *lines = ms_csv_meta_lines (path), *save = NULL;
  bool found = false;
  for (char *l = lines ? strtok_r (lines, "\n", &save) : NULL; l && !found;
       l = strtok_r (NULL, "\n", &save)) {
    char *k, *v = ms_meta_split (l, &k);
    found = v && strcmp (k, key) == 0 && snprintf (value, len, "%s", v) >= 0;
  }
  free (lines);
  return found;
}

bool
ms_csv_samples_meta (const char *path, char **lines, char *why, size_t whylen)
{
  char err[1024], last = 0;
  size_t len = 0;
  bool more = false;
  *lines = NULL;
  MsInput *in = ms_input_open (path, false, err, sizeof err);
  char *head = in ? ms_input_read_all (in, SAMPLES_HEAD_BYTES, &len, &more, err, sizeof err)
                  : NULL;
  /* The plain size: a gzip file's recorded one, as the sidecar describes
   * the plain content. */
  uint64_t size = in ? ms_input_size (in) : 0;
  /* Compressed, its end is checked by the reader that inflates it all. */
  bool cut = head && !ms_input_is_stream (in) && size > 0 &&
             (ms_input_pread (in, &last, 1, size - 1) != 1 || last != '\n');
  ms_input_close (in);
  if (!head) {
    snprintf (why, whylen, ms_gettext ("cannot be read: %s"), err);
    return false;
  }
  bool bom = len >= 3 && memcmp (head, "\xEF\xBB\xBF", 3) == 0;
  bool inline_meta = ms_meta_sidecar_inline (head, len);
  const char *reason = NULL;
  if (ms_file_kind_of_head (head, len) != MS_FILE_KIND_SAMPLES)
    reason = ms_gettext ("not a memsweep samples file");
  else if (inline_meta && !keep_head_lines (head, len))
    reason = more ? ms_gettext ("damaged: the header does not end")
                  : ms_gettext ("damaged: the file ends inside its header");
  else if (cut)
    reason = ms_gettext ("damaged: cut short (its last line is incomplete)");
  if (reason)
    snprintf (why, whylen, "%s", reason);
  else
    *lines = inline_meta ? head : sidecar_lines (path, size, bom);
  if (*lines != head)
    free (head);
  return !reason;
}

size_t
ms_csv_name_stem (const char *name, const char *suffix)
{
  size_t n = ms_gzip_stem_len (name), s = strlen (suffix);
  return n > s && strncmp (name + n - s, suffix, s) == 0 ? n - s : 0;
}

static bool
is_regular (const char *path)
{
  struct stat st;
  return ms_input_look (path, &st) && S_ISREG (st.st_mode);
}

/* Whether path is a regular file, opened once as an input. */
static bool
protected_regular (const char *path)
{
  struct stat st;
  ms_atomic_file_protect (path);
  return ms_atomic_file_kept_stat (path, &st) && S_ISREG (st.st_mode);
}

/* path with its ending from replaced by to into out; false when path does
 * not end so or out is too short. A compressed file's partner is the
 * compressed one beside it, else the plain one if only that is there (and
 * the other way round): the pair may be compressed one file at a time.
 * *there: a regular file is at out (NULL: not asked), as found by look. */
static bool
swap_suffix (const char *path, const char *from, const char *to, char *out, size_t len,
             bool *there, bool (*look) (const char *path))
{
  size_t n = ms_gzip_stem_len (path), s = strlen (from);
  bool gz = ms_gzip_is_name (path);
  if (n < s || strncmp (path + n - s, from, s) != 0)
    return false;
  for (int other = 0; other < 2; other++) {
    bool with_gz = other ? !gz : gz;
    if (snprintf (out, len, "%.*s%s%s", (int) (n - s), path, to, with_gz ? MS_GZIP_SUFFIX : "") >=
        (int) len)
      return false;
    if (look (out))
      return !there || (*there = true);
  }
  return snprintf (out, len, "%.*s%s%s", (int) (n - s), path, to, gz ? MS_GZIP_SUFFIX : "") <
         (int) len;
}

bool
ms_csv_pair_summary_path (const char *samples_path, char *out, size_t len)
{
  return swap_suffix (samples_path, SAMPLES_SUFFIX, SUMMARY_SUFFIX, out, len, NULL, is_regular);
}

bool
ms_csv_pair_samples_path (const char *summary_path, char *out, size_t len)
{
  return swap_suffix (summary_path, SUMMARY_SUFFIX, SAMPLES_SUFFIX, out, len, NULL, is_regular);
}

void
ms_csv_pair_protect (const char *path)
{
  char other[4096];
  ms_atomic_file_protect (path);
  /* The partner's form that is there, then the sidecar: each opened once,
   * here, and read from what was opened. */
  if ((swap_suffix (path, SAMPLES_SUFFIX, SUMMARY_SUFFIX, other, sizeof other, NULL,
                    protected_regular) ||
       swap_suffix (path, SUMMARY_SUFFIX, SAMPLES_SUFFIX, other, sizeof other, NULL,
                    protected_regular)) &&
      ms_meta_sidecar_path (path, other, sizeof other))
    ms_atomic_file_protect (other);
}

bool
ms_csv_pair_check (const char *samples_path, char *err, size_t errlen)
{
  char a[64] = "";
  ms_csv_meta_value (samples_path, ms_meta_table (MS_META_RUN_ID)->key, a, sizeof a);
  return ms_csv_pair_check_id (samples_path, a, err, errlen);
}

bool
ms_csv_pair_check_id (const char *samples_path, const char *a, char *err, size_t errlen)
{
  char summary[4096], b[64] = "";
  bool there = false;
  /* Only a regular file beside the samples can be their summary. */
  swap_suffix (samples_path, SAMPLES_SUFFIX, SUMMARY_SUFFIX, summary, sizeof summary, &there,
               is_regular);
  if (!there)
    return true;
  bool has_a = a[0], has_b = ms_csv_meta_value (summary, ms_meta_table (MS_META_RUN_ID)->key, b,
                                                sizeof b);
  if (has_a == has_b && strcmp (a, b) == 0)
    return true;
  snprintf (err, errlen,
            ms_gettext ("%s and %s are not from the same run (run id %s and %s): the summary "
                        "does not describe these samples"), samples_path, summary,
           has_a ? a : ms_gettext ("none"), has_b ? b : ms_gettext ("none"));
  return false;
}
