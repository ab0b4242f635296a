/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-small-file.c: writing and reading the small result files
 * (ms-small-file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "memsweep.h"

#include "ms-atomic-file.h"
#include "ms-csv-number.h"
#include "ms-csv-private.h"
#include "ms-csv-writer.h"
#include "ms-i18n.h"
#include "ms-meta-sidecar.h"
#include "ms-read-file.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

void
ms_small_file_stamp (char *date, size_t date_len, char *host, size_t host_len, char *version,
                     size_t version_len)
{
  time_t now = time (NULL);
  struct tm tm;
  gmtime_r (&now, &tm);
  strftime (date, date_len, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (gethostname (host, host_len) != 0)
    host[0] = '\0';
  host[host_len - 1] = '\0';
  snprintf (version, version_len, "%s", MS_VERSION);
}

/* What put (f, data) prints, in memory in the C locale; NULL when out of
 * memory. */
static char *
render (const MsSmallFormat *format, bool meta, const void *data, size_t *len)
{
  char *text = NULL;
  FILE *f = open_memstream (&text, len);
  if (!f)
    return NULL;
  locale_t old = ms_csv_enter_c_locale ();
  if (meta) {
    format->put_meta (f, data);
  } else {
    fprintf (f, "%s\n", format->header);
    format->put_rows (f, data);
  }
  ms_csv_leave_c_locale (old);
  bool ok = !ferror (f);
  if (fclose (f) != 0 || !ok) {
    free (text);
    return NULL;
  }
  return text;
}

/* The sidecar of the table at path (table, len bytes) beside it, opened;
 * NULL with a message. */
static MsAtomicFile *
open_sidecar (const char *path, const MsSmallFormat *format, const char *meta, const char *table,
              size_t len, char *err, size_t errlen)
{
  char side_path[4096], run_id[32];
  uint64_t hash = MS_FNV1A_BASIS;
  ms_fnv1a (&hash, table, len);
  ms_meta_sidecar_run_id (meta, hash, run_id);
  MsSidecarFile file = { format->role, path, (long long) len, hash };
  ms_sha256_hex_of (table, len, file.sha256);
  if (!ms_meta_sidecar_path (path, side_path, sizeof side_path)) {
    snprintf (err, errlen, ms_gettext ("%s: cannot write: %s"), path, strerror (ENAMETOOLONG));
    return NULL;
  }
  return ms_meta_sidecar_open (side_path, run_id, meta, &file, 1, err, errlen);
}

bool
ms_small_file_write (const char *path, const MsSmallFormat *format, const void *data,
                     char *err, size_t errlen)
{
  size_t meta_len = 0, len = 0;
  char *meta = render (format, true, data, &meta_len);
  char *table = meta ? render (format, false, data, &len) : NULL;
  MsAtomicFile *out = table ? ms_atomic_file_open (path, err, errlen) : NULL;
  MsAtomicFile *side = NULL;
  bool ok = false;
  if (!table) {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
  } else if (out && !ms_atomic_file_is_file (out)) {
    /* A failed write is kept for the commit, which says why and cleans up. */
    ms_atomic_file_write (out, format->title, strlen (format->title));
    ms_atomic_file_write (out, "\n", 1);
    ms_atomic_file_write (out, meta, meta_len);
    ms_atomic_file_write (out, table, len);
    ok = ms_atomic_file_commit (out, err, errlen);
  } else if (out && !(side = open_sidecar (path, format, meta, table, len, err, errlen))) {
    ms_atomic_file_abort (out);
  } else if (out) {
    /* The table first, the sidecar last: a crash between the renames
     * leaves a table whose sidecar names another size, which the reader
     * says, never a sidecar that claims a file wrongly. */
    MsAtomicFile *files[] = { out, side };
    ms_atomic_file_write (out, table, len);
    ok = ms_atomic_file_commit_group (files, 2, NULL, err, errlen);
  }
  free (meta);
  free (table);
  return ok;
}

bool
ms_small_reader_fail (MsSmallReader *rd, const char *fmt, ...)
{
  if (rd->failed)
    return false;
  char why[320];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  if (rd->line > 0)
    snprintf (rd->err, rd->errlen, "%s:%d: %s", rd->path, rd->line, why);
  else
    snprintf (rd->err, rd->errlen, "%s: %s", rd->path, why);
  rd->failed = true;
  return false;
}

bool
ms_small_parse_gbps (const char *s, double *out)
{
  *out = 0;
  if (!*s)
    return true;
  /* The samples reader's number rule; and a rate the writer's three
   * decimals keep above 0, so that what is read writes back readable. */
  return ms_csv_parse_decimal (s, strlen (s), out) && *out >= 0.001;
}

/* One line of the older form: the title, metadata, the header or a row. */
static void
parse_line (MsSmallReader *rd, char *line, size_t len, bool *have_header,
            const MsSmallFormat *format, void *data)
{
  if (rd->line == 1) {
    if (strcmp (line, format->title) != 0)
      ms_small_reader_fail (rd, ms_gettext ("not a %s file (it starts '%.40s')"),
                            format->title + 2, line);
  } else if (len == 0) {
    return;
  } else if (!*have_header && line[0] == '#') {
    char *value = strstr (line, ": ");
    if (line[1] != ' ' || !value)
      return; /* a comment */
    *value = '\0';
    format->meta (rd, line + 2, value + 2, data);
  } else if (!*have_header && strcmp (line, format->header) == 0) {
    *have_header = true;
  } else if (!*have_header) {
    ms_small_reader_fail (rd, ms_gettext ("no header row"));
  } else {
    format->row (rd, line, len, data);
  }
}

/* Whether a plain file's line 1 is the format's header (a byte order mark
 * an editor added allowed): checked before the sidecar is, so that another
 * kind of file is refused as such, not for its sidecar's keys. */
static bool
plain_header (MsSmallReader *rd, const char *text, const MsSmallFormat *format)
{
  if (strncmp (text, "\xEF\xBB\xBF", 3) == 0)
    text += 3;
  size_t n = strcspn (text, "\r\n");
  rd->line = 1;
  if (n == strlen (format->header) && strncmp (text, format->header, n) == 0)
    return true;
  return ms_small_reader_fail (rd, ms_gettext ("not a %s file: its header is not '%s'"),
                               format->title + 2, format->header);
}

/* One line of a plain file: the header (checked), then rows. */
static void
parse_plain_line (MsSmallReader *rd, char *line, size_t len, bool *have_header,
                  const MsSmallFormat *format, void *data)
{
  if (rd->line == 1)
    *have_header = true;
  else if (len > 0)
    format->row (rd, line, len, data);
}

/* The metadata of a plain file from its sidecar, refusals naming the
 * sidecar; when it is not there or not this file's, none, and rd says why. */
static void
parse_sidecar (MsSmallReader *rd, size_t bytes, const MsSmallFormat *format, void *data)
{
  char side_path[8192], why[1024];
  char *lines = ms_meta_sidecar_lines (rd->path, (long long) bytes, why, sizeof why);
  if (!lines) {
    rd->meta_unknown = true;
    if (rd->why)
      snprintf (rd->why, rd->whylen, "%s", why);
    return;
  }
  /* Refusals name the file, then its sidecar: "NAME.csv: NAME-meta.json: why". */
  const char *path = rd->path;
  size_t n = (size_t) snprintf (side_path, sizeof side_path, "%s: ", path);
  if (n < sizeof side_path)
    ms_meta_sidecar_path (path, side_path + n, sizeof side_path - n);
  rd->path = side_path;
  rd->line = 0;
  for (char *line = lines, *next; line && !rd->failed; line = next) {
    next = strchr (line, '\n');
    if (next)
      *next++ = '\0';
    char *value = strstr (line, ": ");
    if (line[0] != '#' || line[1] != ' ' || !value)
      continue;
    *value = '\0';
    format->meta (rd, line + 2, value + 2, data);
  }
  free (lines);
  rd->path = path; /* a refusal above has named the sidecar already */
}

bool
ms_small_file_parse (MsSmallReader *rd, char *text, const MsSmallFormat *format, void *data)
{
  bool have_header = false;
  bool plain = !ms_meta_sidecar_inline (text, strlen (text));
  char *next;
  locale_t old = ms_csv_enter_c_locale ();
  rd->meta_unknown = false;
  rd->plain = plain;
  if (rd->why && rd->whylen)
    rd->why[0] = '\0';
  if (plain && plain_header (rd, text, format))
    parse_sidecar (rd, strlen (text), format, data);
  rd->line = 0;
  for (char *line = text; line && !rd->failed; line = next) {
    next = strchr (line, '\n');
    if (next)
      *next++ = '\0';
    rd->line++;
    size_t len = strlen (line);
    if (len && line[len - 1] == '\r')
      line[--len] = '\0';
    if (plain)
      parse_plain_line (rd, line, len, &have_header, format, data);
    else
      parse_line (rd, line, len, &have_header, format, data);
  }
  ms_csv_leave_c_locale (old);
  if (!rd->failed && !have_header && (plain || !format->header_optional))
    ms_small_reader_fail (rd, ms_gettext ("no header row"));
  return !rd->failed;
}

bool
ms_small_file_load (MsSmallReader *rd, const MsSmallFormat *format, void *data)
{
  char *text = ms_small_file_read (rd->path, rd->err, rd->errlen);
  bool ok = text && ms_small_file_parse (rd, text, format, data);
  free (text);
  return ok;
}
