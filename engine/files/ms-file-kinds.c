/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-file-kinds.c: the table of file kinds, and telling a file's kind
 * from its bytes (ms-file-kinds.h). */
#define _GNU_SOURCE
#include "ms-file-kinds.h"

#include <stdlib.h>
#include <string.h>

#include "ms-csv-reader.h"
#include "ms-i18n.h"
#include "ms-host-link-file.h"
#include "ms-input.h"
#include "ms-json.h"
#include "ms-meta-sidecar.h"
#include "ms-multi-file.h"
#include "ms-peer-file.h"
#include "ms-portable-file.h"
#include "ms-run-to-run-file.h"

/* Where in a file its kind shows: its first lines, past a note or inline
 * metadata. */
#define HEAD_BYTES (64 * 1024)

#define RUN_COMMANDS MS_N_ ("memsweep show, compare, plot and report, and the app")

static const MsFileKindInfo kinds[] = {
  { MS_FILE_KIND_SAMPLES, "samples", MS_N_ ("a run's samples"), "# memsweep samples file",
    "mode,elements,bytes_per_vector,rep,", NULL, "memsweep-samples.tableschema.json", 0,
    true, true, RUN_COMMANDS },
  { MS_FILE_KIND_SUMMARY, "summary", MS_N_ ("a run's summary"), "# memsweep summary file",
    "mode,elements,bytes_per_vector,status,", NULL, "memsweep-summary.tableschema.json", 0,
    true, true, RUN_COMMANDS },
  /* The small files: their titles and header rows are their tables'. */
  { MS_FILE_KIND_PEER, "peer", MS_N_ ("a peer matrix"), NULL, NULL, NULL,
    "memsweep-peer.tableschema.json", 0, true, false,
    MS_N_ ("the app's Devices page (memsweep-gtk FILE)"), &ms_peer_file_format },
  { MS_FILE_KIND_MULTI, "multi", MS_N_ ("a sweep on several GPUs"), NULL, NULL, NULL,
    "memsweep-multi.tableschema.json", 0, true, false,
    MS_N_ ("the app's Devices page (memsweep-gtk FILE)"), &ms_multi_file_format },
  { MS_FILE_KIND_PORTABLE, "portable", MS_N_ ("a portable pinned memory run"), NULL, NULL, NULL,
    "memsweep-portable.tableschema.json", 0, true, false,
    MS_N_ ("the portable lesson: the app's Lessons page (memsweep-gtk FILE)"),
    &ms_portable_file_format },
  { MS_FILE_KIND_HOST_LINK, "host-link", MS_N_ ("a host link run on several GPUs"), NULL, NULL,
    NULL, "memsweep-host-link.tableschema.json", 0, true, false,
    MS_N_ ("the host-link lesson, from the reference runs' folder (data/reference)"),
    &ms_host_link_file_format },
  { MS_FILE_KIND_PROFILE, "profile", MS_N_ ("a run-to-run profile"), NULL, NULL, NULL,
    "memsweep-profile.tableschema.json", 0, true, false,
    MS_N_ ("memsweep run and compare-grade runs (--profile FILE)"),
    &ms_run_to_run_profile_format },
  { MS_FILE_KIND_ENVELOPES, "envelopes", MS_N_ ("a file of expected ranges"), NULL,
    MS_ENVELOPES_HEADER, NULL, NULL, 0, true, false,
    MS_N_ ("memsweep show and report (--envelopes FILE)") },
  { MS_FILE_KIND_SIDECAR, "sidecar", MS_N_ ("a sidecar of run metadata"), NULL, NULL,
    MS_META_SIDECAR_FORMAT, "memsweep-meta.schema.json", MS_META_SIDECAR_VERSION, false,
    false,
    MS_N_ ("every reader of the file it describes, beside it") },
  { MS_FILE_KIND_RESULTS_JSON, "results-json", MS_N_ ("a results document (JSON)"), NULL, NULL,
    "memsweep-results", "memsweep-results.json", 1, false, false,
    MS_N_ ("JSON tools (jq, pandas); memsweep writes it with show --format json") },
  /* Any change of the document's fields is a new version, with a schema of
   * its own in data/schema/ (5: decided_after_s and the method turns; 4 is
   * memsweep-compare-v4.json, 3 memsweep-compare-v3.json). */
  { MS_FILE_KIND_COMPARE_JSON, "compare-json", MS_N_ ("a comparison document (JSON)"), NULL, NULL,
    "memsweep-compare", "memsweep-compare.json", 5, false, false,
    MS_N_ ("JSON tools (jq, pandas); memsweep writes it with compare --format json") },
  { MS_FILE_KIND_FLEET_JSON, "fleet-report-json", MS_N_ ("a fleet report (JSON)"), NULL, NULL,
    "memsweep-fleet-report", "memsweep-fleet-report.json", 2, false, false,
    MS_N_ ("JSON tools (jq, pandas); memsweep writes it with fleet-report --format json") },
  { MS_FILE_KIND_SIBLINGS_JSON, "siblings-json", MS_N_ ("a check of a host's GPUs (JSON)"), NULL,
    NULL, "memsweep-siblings", "memsweep-siblings.json", 2, true, false,
    MS_N_ ("JSON tools (jq, pandas); memsweep writes it with siblings --format json") },
  /* Tables for other tools, made from runs: their header rows' starts. */
  { MS_FILE_KIND_RESULTS_TABLE, "results-table", MS_N_ ("a table of a run's figures (CSV)"),
    NULL, "mode,variant,elements,bytes_per_vector,status,", NULL, NULL, 0, false, false,
    MS_N_ ("dataframe tools (pandas, polars, DuckDB); memsweep writes it with show --format csv") },
  { MS_FILE_KIND_VERDICTS, "verdicts", MS_N_ ("a table of compare's verdicts (CSV)"), NULL,
    "mode,exponent,bytes_per_vector,variant,figure,", NULL, NULL, 0, false, false,
    MS_N_ ("dataframe tools (pandas, polars, DuckDB); memsweep writes it with compare --format "
           "csv") },
};

const MsFileKindInfo *
ms_file_kind_info (MsFileKind kind)
{
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (kinds[i].kind == kind)
      return &kinds[i];
  return NULL;
}

static bool
starts (const char *line, const char *end, const char *prefix)
{
  size_t n = strlen (prefix);
  return (size_t) (end - line) >= n && memcmp (line, prefix, n) == 0;
}

/* A header row, quoted or not ("mode","elements",... is how some tools
 * save it): the kind whose header it starts with. */
static MsFileKind
kind_of_header (const char *line, const char *end)
{
  char plain[512];
  size_t n = 0;
  for (const char *p = line; p < end && n + 1 < sizeof plain; p++)
    if (*p != '"')
      plain[n++] = *p;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    char table[512];
    const char *header = kinds[i].table ? ms_small_format_header (kinds[i].table, table,
                                                                  sizeof table)
                                        : kinds[i].header;
    if (header && starts (plain, plain + n, header))
      return kinds[i].kind;
  }
  /* The samples reader takes its columns by name, in any order. */
  return starts (plain, plain + n, "mode,elements,") ? MS_FILE_KIND_SAMPLES : MS_FILE_KIND_UNKNOWN;
}

/* A JSON document: the kind whose schema its head names. */
static MsFileKind
kind_of_json (const char *head, size_t len)
{
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    if (!kinds[i].schema)
      continue;
    char quoted[128];
    snprintf (quoted, sizeof quoted, "\"%s\"", kinds[i].schema);
    /* As a value: after a colon, not as a file's name. */
    for (const char *at = memmem (head, len, quoted, strlen (quoted)); at;
         at = memmem (at + 1, len - (size_t) (at + 1 - head), quoted, strlen (quoted))) {
      const char *p = at;
      while (p > head && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r'))
        p--;
      if (p > head && p[-1] == ':')
        return kinds[i].kind;
    }
  }
  return MS_FILE_KIND_UNKNOWN;
}

/* Past the title line, whether a line is one the readers pass over
 * (blank, or a note or inline metadata) before the header row. */
/* The first byte from p on that is not blank (end where none is): a
 * head is not NUL-terminated, so no strspn. */
static const char *
skip_blank (const char *p, const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p;
}

static bool
passed_over (const char *line, const char *end)
{
  return skip_blank (line, end) >= end || *line == '#';
}

/* The kind a head shows; *passed: whether all its lines are ones the
 * readers pass over (its title's too), so its header may lie further on. */
static MsFileKind
kind_of_text (const char *head, size_t len, bool *passed)
{
  *passed = false;
  const char *p = head, *end = head + len;
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  const char *first = skip_blank (p, end);
  if (first < end && *first == '{')
    return kind_of_json (first, (size_t) (end - first));
  /* The title is line 1; a header may follow blank lines, a note or inline
   * metadata, which the readers skip too. Lines end as the readers take
   * them: at LF, or at CR alone in files from classic Mac OS tools. */
  char eol_char = ms_csv_line_end (head, len);
  for (bool line_one = true; p < end; line_one = false) {
    const char *eol = memchr (p, eol_char, (size_t) (end - p));
    const char *stop = eol ? eol : end;
    /* The title of a kind, its line's trailing CR and spaces left out. */
    size_t n = (size_t) (stop - p);
    while (line_one && n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' '))
      n--;
    for (size_t i = 0; line_one && i < sizeof kinds / sizeof kinds[0]; i++) {
      const char *title = kinds[i].table ? kinds[i].table->title : kinds[i].title;
      if (title && n == strlen (title) && memcmp (p, title, n) == 0)
        return kinds[i].kind;
    }
    if (!passed_over (p, stop))
      return kind_of_header (p, stop);
    if (!eol)
      break;
    p = eol + 1;
  }
  *passed = true;
  return MS_FILE_KIND_UNKNOWN;
}

MsFileKind
ms_file_kind_of_head (const char *head, size_t len)
{
  bool passed;
  return kind_of_text (head, len, &passed);
}

/* A JSON document is known by its parsed top-level "schema" (a
 * sidecar's "format"), wherever
 * its members lie; one that does not parse (cut short, or larger than
 * this) by the schema values its bytes name. */
#define JSON_MAX_BYTES (256u << 20)

static MsFileKind
kind_of_json_input (MsInput *in, const char *head, size_t len)
{
  size_t rest_len = 0;
  bool too_large = false;
  char err[64];
  char *rest = ms_input_read_all (in, JSON_MAX_BYTES, &rest_len, &too_large, err, sizeof err);
  char *all = malloc (len + rest_len + 1);
  MsFileKind kind = MS_FILE_KIND_UNKNOWN;
  if (all) {
    memcpy (all, head, len);
    if (rest)
      memcpy (all + len, rest, rest_len);
    all[len + rest_len] = '\0';
    MsJson *root = rest && !too_large ? ms_json_parse (all, len + rest_len, err, sizeof err)
                                      : NULL;
    /* A sidecar names its kind as "format". */
    const char *schema = ms_json_string (ms_json_member (root, "schema"));
    schema = schema ? schema : ms_json_string (ms_json_member (root, "format"));
    for (size_t i = 0; schema && i < sizeof kinds / sizeof kinds[0]; i++)
      if (kinds[i].schema && strcmp (kinds[i].schema, schema) == 0)
        kind = kinds[i].kind;
    if (!root)
      kind = ms_file_kind_of_head (all, len + rest_len);
    ms_json_free (root);
  }
  free (all);
  free (rest);
  return kind;
}

/* A CSV file whose head is all lines the readers pass over: its header
 * lies further on. The lines past the head are read as they come (up to
 * `limit` bytes in), kept no longer than a header's start, up to the
 * readers' own bound on lines without data, so a run is known whatever
 * its notes push its rows past. */
static MsFileKind
kind_past_head (MsInput *in, const char *head, size_t len, uint64_t limit)
{
  char eol_char = ms_csv_line_end (head, len), line[512], chunk[16384];
  const char *last = memrchr (head, eol_char, len);
  size_t n = last ? len - (size_t) (last + 1 - head) : len;
  uint32_t lines = 0;
  memcpy (line, last ? last + 1 : head, n < sizeof line ? n : sizeof line);
  n = n < sizeof line ? n : sizeof line;
  for (const char *p = head; (p = memchr (p, eol_char, (size_t) (head + len - p))); p++)
    lines++;
  ssize_t got;
  for (uint64_t at = len; at < limit && (got = ms_input_pread (in, chunk, sizeof chunk, at)) > 0;
       at += (uint64_t) got) {
    for (const char *c = chunk, *end = chunk + got; c < end; c++) {
      if (*c != eol_char) {
        if (n < sizeof line)
          line[n++] = *c;
        continue;
      }
      if (!passed_over (line, line + n))
        return kind_of_header (line, line + n);
      if (++lines > MS_CSV_MAX_EMPTY_LINES)
        return MS_FILE_KIND_UNKNOWN;
      n = 0;
    }
  }
  return n && !passed_over (line, line + n) ? kind_of_header (line, line + n)
                                             : MS_FILE_KIND_UNKNOWN;
}

MsFileKind
ms_file_kind_of_input (MsInput *in, const char *head, size_t len, uint64_t limit)
{
  bool passed;
  MsFileKind kind = kind_of_text (head, len, &passed);
  if (kind == MS_FILE_KIND_UNKNOWN && passed)
    kind = kind_past_head (in, head, len, limit);
  return kind;
}

static MsFileKind
kind_at (const char *path, bool as_input)
{
  char err[64];
  MsInput *in = ms_input_open (path, as_input, err, sizeof err);
  if (!in)
    return MS_FILE_KIND_UNREADABLE;
  char *head = malloc (HEAD_BYTES);
  size_t len = 0;
  ssize_t n = 1;
  while (head && len < HEAD_BYTES && (n = ms_input_read (in, head + len, HEAD_BYTES - len)) > 0)
    len += (size_t) n;
  /* A file cut short (a .gz whose end is gone) still shows its kind by
   * the bytes that could be read before the cut. */
  bool text = head && !(n < 0 && len == 0) && !memchr (head, '\0', len);
  MsFileKind kind = !head || (n < 0 && len == 0) ? MS_FILE_KIND_UNREADABLE : MS_FILE_KIND_UNKNOWN;
  size_t bom = len >= 3 && memcmp (head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  const char *first = text ? skip_blank (head + bom, head + len) : NULL;
  if (first && first < head + len && *first == '{')
    kind = kind_of_json_input (in, head, len);
  else if (text)
    kind = ms_file_kind_of_input (in, head, len, UINT64_MAX);
  ms_input_close (in);
  free (head);
  return kind;
}

MsFileKind
ms_file_kind (const char *path)
{
  return kind_at (path, true);
}

const char *
ms_file_kind_describe (MsFileKind kind)
{
  const MsFileKindInfo *info = ms_file_kind_info (kind);
  if (info)
    return ms_gettext (info->what);
  return kind == MS_FILE_KIND_UNREADABLE ? ms_gettext ("unreadable")
                                         : ms_gettext ("not a memsweep file");
}

MsFileKind
ms_file_kind_of_file (const char *path)
{
  return kind_at (path, false);
}

bool
ms_file_kind_holds_measurements (const char *path)
{
  /* A look at a file about to be replaced: not one of the inputs. */
  const MsFileKindInfo *info = ms_file_kind_info (kind_at (path, false));
  return info && info->measurements;
}

void
ms_file_kind_stamp (MsJson *doc, MsFileKind kind)
{
  const MsFileKindInfo *info = ms_file_kind_info (kind);
  ms_json_set_string (doc, "schema", info->schema);
  ms_json_set_int (doc, "schema_version", info->schema_version);
}
