/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-meta-sidecar.c: PREFIX-meta.json, a run's metadata beside its CSV
 * files (see ms-meta-sidecar.h). */
#define _GNU_SOURCE
#include "ms-meta-sidecar.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ms-atomic-file.h"
#include "ms-csv-writer.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-input.h"
#include "ms-json.h"
#include "ms-meta.h"
#include "ms-read-file.h"
#include "ms-sha256.h"
#include "ms-utf8.h"

static const char *const csv_suffixes[] = { "-samples.csv", "-summary.csv", ".csv" };

bool
ms_meta_sidecar_path (const char *csv_path, char *out, size_t len)
{
  /* Standard input has nothing beside it. */
  if (strcmp (csv_path, MS_INPUT_STDIN) == 0)
    return false;
  /* X-samples.csv.gz is described by X-meta.json, as X-samples.csv is. */
  size_t n = ms_gzip_stem_len (csv_path);
  for (size_t i = 0; i < sizeof csv_suffixes / sizeof csv_suffixes[0]; i++) {
    size_t s = strlen (csv_suffixes[i]);
    if (n > s && strncmp (csv_path + n - s, csv_suffixes[i], s) == 0) {
      n -= s;
      break;
    }
  }
  return snprintf (out, len, "%.*s%s", (int) n, csv_path, MS_META_SIDECAR_SUFFIX) < (int) len;
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash ? slash + 1 : path;
}

/* Whether a name read from a sidecar is path's file name as the writer
 * wrote it (a byte that is no UTF-8 as U+FFFD), with or without the ".gz"
 * of a compressed copy: the sidecar describes the plain content. */
static bool
same_name (const char *name, const char *path)
{
  char written[1024];
  ms_utf8_make_valid (written, sizeof written, base_name (path));
  if (strcmp (name, written) == 0)
    return true;
  size_t stem = ms_gzip_stem_len (written);
  return ms_gzip_is_name (written) && strlen (name) == stem && strncmp (name, written, stem) == 0;
}

/* ---- writing ------------------------------------------------------------ */

/* value as key's, or where key repeats (um-counts, a fleet node's lines)
 * appended to an array of its values, in the order written. */
static void
add_value (MsJson *object, const char *key, MsJson *value)
{
  MsJson *had = ms_json_member (object, key);
  if (had && !json_object_is_type (had, json_type_array)) {
    MsJson *values = json_object_new_array ();
    json_object_array_add (values, json_object_get (had));
    json_object_object_add (object, key, values);
    had = values;
  }
  if (had)
    json_object_array_add (had, value);
  else
    json_object_object_add (object, key, value);
}

void
ms_meta_sidecar_run_id (const char *meta_lines, uint64_t file_hash, char *run_id)
{
  char hex[20];
  uint64_t hash = MS_FNV1A_BASIS;
  ms_fnv1a (&hash, meta_lines, strlen (meta_lines));
  snprintf (hex, sizeof hex, "%016llx", (unsigned long long) file_hash);
  ms_fnv1a (&hash, hex, 16);
  snprintf (run_id, 32, "%016llx", (unsigned long long) hash);
}

void
ms_meta_sidecar_write (FILE *f, const char *run_id, const char *meta_lines,
                       const MsSidecarFile *files, int n_files)
{
  MsJson *root = json_object_new_object ();
  MsJson *described = json_object_new_object ();
  json_object_object_add (root, "format", json_object_new_string (MS_META_SIDECAR_FORMAT));
  json_object_object_add (root, "format-version", json_object_new_int (MS_META_SIDECAR_VERSION));
  json_object_object_add (root, "run-id", ms_json_string_new (run_id));
  /* One entry a file, kept on one line: its SHA-256, or the FNV-1a of one
   * kept from a version-1 sidecar, which had no other. */
  for (int i = 0; i < n_files; i++) {
    const MsSidecarFile *file = &files[i];
    char hash[20];
    MsJson *entry = json_object_new_object ();
    json_object_object_add (entry, "name", ms_json_string_new (base_name (file->path)));
    json_object_object_add (entry, "bytes", json_object_new_int64 (file->bytes));
    if (file->sha256[0]) {
      json_object_object_add (entry, "sha256", json_object_new_string (file->sha256));
    } else {
      snprintf (hash, sizeof hash, "%016" PRIx64, file->fnv1a);
      json_object_object_add (entry, "fnv1a-64", json_object_new_string (hash));
    }
    json_object_object_add (described, file->role,
                            ms_json_keep_text (entry, ms_json_text (entry, MS_JSON_ONE_LINE)));
  }
  json_object_object_add (root, "files", described);
  /* The '# key: value' lines of the writer's text as members; title lines
   * and the run id (a member of its own) left out. */
  char *copy = strdup (meta_lines ? meta_lines : "");
  MsJson *raw = json_object_new_object (), *meta = json_object_new_object ();
  for (char *line = copy && raw ? strtok (copy, "\n") : NULL; line; line = strtok (NULL, "\n")) {
    char *key, *value = ms_meta_split (line, &key);
    /* Numbers of the table's numeric kinds as written, everything else a
     * string. */
    const MsMetaKey *k = value ? ms_meta_table (ms_meta_lookup (key)) : NULL;
    bool numeric = k && (k->type == MS_META_INT || k->type == MS_META_FLAG ||
                         k->type == MS_META_COUNT || k->type == MS_META_NUMBER);
    if (value && strcmp (key, ms_meta_table (MS_META_RUN_ID)->key) != 0)
      add_value (raw, key,
                 numeric && ms_json_is_number (value) ? ms_json_number_new_text (value)
                                                      : ms_json_string_new (value));
  }
  /* Each key as the writers write a name that is not UTF-8 (U+FFFD). */
  for (const MsJsonMember *m = ms_json_first_member (raw); meta && m; m = ms_json_next_member (m)) {
    MsJson *name = ms_json_string_new (ms_json_member_name (m));
    if (name)
      json_object_object_add (meta, ms_json_string (name),
                              json_object_get (ms_json_member_value (m)));
    ms_json_free (name);
  }
  ms_json_free (raw);
  free (copy);
  /* json-c lays an empty object out over two lines. */
  json_object_object_add (root, "metadata", json_object_object_length (meta) > 0
                                              ? meta
                                              : ms_json_keep_text (meta, "{}"));
  fputs (ms_json_text (root, MS_JSON_INDENTED), f);
  fputc ('\n', f);
  ms_json_free (root);
}

/* ---- reading ------------------------------------------------------------ */

static MsJson *read_sidecar (const char *path, bool as_input, char *err, size_t errlen);

bool
ms_meta_sidecar_inline (const char *text, size_t len)
{
  size_t bom = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  return len > bom && text[bom] == '#';
}

/* The digests of a file's bytes a sidecar may record: [0] of the bytes,
 * [1] of the same with every CR read as LF (a file whose line ends a tool
 * made CR, which the readers take as the same rows). */
typedef struct {
  uint64_t fnv1a[2];
  char sha256[2][MS_SHA256_HEX_LEN];
} Digests;

typedef struct {
  uint64_t fnv1a[2];
  MsSha256 sha256[2];
  bool cr_seen; /* sha256[1] is sha256[0] until the first CR */
  bool want_sha256;
} Hashing;

/* The digests of a CSV file's bytes, taken as an input is read (the
 * reader's own read: ms_input_tap), kept for the sidecar's check. */
struct MsSidecarHash {
  char path[4096];
  struct stat st;
  long long tag, bytes;
  uint64_t skip, left; /* a byte order mark to pass over, the bytes still to hash */
  Hashing h;
  bool on_trust; /* lines were given before the check (ms_meta_sidecar_lines_on_trust) */
};

static void
hash_tap (void *data, const void *bytes, size_t n)
{
  MsSidecarHash *s = data;
  Hashing *h = &s->h;
  size_t pass = s->skip < n ? (size_t) s->skip : n;
  const char *buf = (const char *) bytes + pass;
  s->skip -= pass;
  n = n - pass < s->left ? n - pass : (size_t) s->left;
  s->left -= n;
  const char *cr = memchr (buf, '\r', n);
  /* The two SHA-256 part at the first CR. */
  if (cr && h->want_sha256 && !h->cr_seen)
    h->sha256[1] = h->sha256[0];
  h->cr_seen = h->cr_seen || cr != NULL;
  ms_fnv1a (&h->fnv1a[0], buf, n);
  if (h->want_sha256)
    ms_sha256_update (&h->sha256[0], buf, n);
  /* The bytes are the reader's: their CRs read as LF in a copy. */
  char lf[1 << 12];
  for (size_t at = 0, k; at < n; at += k) {
    k = n - at < sizeof lf ? n - at : sizeof lf;
    const char *part = buf + at;
    if (cr && memchr (part, '\r', k)) {
      memcpy (lf, part, k);
      for (char *c = lf; (c = memchr (c, '\r', (size_t) (lf + k - c)));)
        *c = '\n';
      part = lf;
    }
    ms_fnv1a (&h->fnv1a[1], part, k);
    if (h->want_sha256 && h->cr_seen)
      ms_sha256_update (&h->sha256[1], part, k);
  }
}

/* Hashes the first bytes bytes of in, after a byte order mark an editor
 * added; NULL when their digests are known already or in cannot be
 * tapped. */
static MsSidecarHash *
hash_begin (MsInput *in, const char *path, long long bytes, bool want_sha256)
{
  MsSidecarHash *s = calloc (1, sizeof *s);
  if (!s)
    return NULL;
  snprintf (s->path, sizeof s->path, "%s", path);
  s->tag = bytes * 2 + want_sha256;
  Digests *known = ms_file_recall (path, s->tag, &s->st);
  char bom[3];
  /* Left out where the file holds it beside the bytes described. */
  if (ms_input_pread (in, bom, 3, 0) == 3 && memcmp (bom, "\xEF\xBB\xBF", 3) == 0 &&
      (ms_input_is_stream (in) || ms_input_size (in) >= (uint64_t) bytes + 3))
    s->skip = 3;
  s->bytes = bytes;
  s->left = (uint64_t) bytes;
  s->h = (Hashing) { { MS_FNV1A_BASIS, MS_FNV1A_BASIS }, .want_sha256 = want_sha256 };
  ms_sha256_init (&s->h.sha256[0]);
  if (known || !ms_input_tap (in, hash_tap, s)) {
    free (known);
    free (s);
    return NULL;
  }
  return s;
}

/* Ends hashing in: the digests, kept for the file when every byte
 * described was seen; false when not. */
static bool
hash_end (MsInput *in, MsSidecarHash *s, Digests *out)
{
  ms_input_tap (in, NULL, NULL);
  bool ok = s->left == 0;
  memcpy (out->fnv1a, s->h.fnv1a, sizeof out->fnv1a);
  ms_sha256_hex (&s->h.sha256[0], out->sha256[0]);
  ms_sha256_hex (&s->h.sha256[s->h.cr_seen], out->sha256[1]);
  if (ok)
    ms_file_remember (s->tag, &s->st, out, sizeof *out);
  free (s);
  return ok;
}

/* The digests of the first bytes bytes of the file at path, after a byte
 * order mark an editor added (SHA-256 only with want_sha256: FNV-1a alone
 * for a version-1 sidecar), in a read of their own where no reader took
 * them. False when it cannot be read or is shorter. */
static bool
hash_of_file (const char *path, long long bytes, bool want_sha256, Digests *out)
{
  struct stat st;
  Digests *kept = ms_file_recall (path, bytes * 2 + want_sha256, &st);
  if (kept) {
    *out = *kept;
    free (kept);
    return true;
  }
  char buf[1 << 16], err[64];
  /* A compressed file's hash is its plain content's. */
  MsInput *in = ms_input_open (path, false, err, sizeof err);
  MsSidecarHash *s = in ? hash_begin (in, path, bytes, want_sha256) : NULL;
  while (s && s->left > 0 && ms_input_read (in, buf, sizeof buf) > 0)
    ;
  bool ok = s && hash_end (in, s, out);
  ms_input_close (in);
  return ok;
}

/* Whether a parsed sidecar is of memsweep's format. */
static bool
is_ours (const MsJson *root)
{
  const char *format = ms_json_string (ms_json_member (root, "format"));
  return format && strcmp (format, MS_META_SIDECAR_FORMAT) == 0;
}

/* Whether a files entry has the size given, and (digests not NULL) one of
 * the two digests of its kind: SHA-256, or a version-1 entry's FNV-1a. */
static bool
entry_is (const MsJson *entry, long long bytes, const Digests *digests)
{
  const char *size = ms_json_number_text (ms_json_member (entry, "bytes"));
  const char *sha = ms_json_string (ms_json_member (entry, "sha256"));
  const char *fnv = ms_json_string (ms_json_member (entry, "fnv1a-64"));
  char hex[2][20];
  if (!size || strtoll (size, NULL, 10) != bytes)
    return false;
  if (!digests)
    return true;
  if (sha)
    return strcmp (sha, digests->sha256[0]) == 0 || strcmp (sha, digests->sha256[1]) == 0;
  for (int i = 0; i < 2; i++)
    snprintf (hex[i], sizeof hex[i], "%016llx", (unsigned long long) digests->fnv1a[i]);
  return fnv && (strcmp (fnv, hex[0]) == 0 || strcmp (fnv, hex[1]) == 0);
}

typedef enum { DESCRIBED, OTHER_FILES, OTHER_BYTES } Description;

/* Whether an entry has the file's size: only then is it hashed (a file
 * of another size, a summary of 4 GiB with no line end, is not read at
 * all); and *want_sha256, whether such an entry records a SHA-256. */
static bool
sized_entries (const MsJson *root, long long csv_bytes, bool *want_sha256)
{
  bool any_sized = false;
  *want_sha256 = false;
  const MsJson *files = ms_json_member (root, "files");
  for (const MsJsonMember *m = ms_json_first_member (files); m; m = ms_json_next_member (m)) {
    bool is_sized = entry_is (ms_json_member_value (m), csv_bytes, NULL);
    any_sized = any_sized || is_sized;
    *want_sha256 = *want_sha256 || (is_sized && ms_json_member (ms_json_member_value (m), "sha256"));
  }
  return any_sized;
}

/* Whether a files entry describes the CSV file: the entry of its name,
 * else (the files were renamed or copied together) one of its size; either
 * way the size and the hash of the bytes must be the file's. A size that
 * matches over other bytes is another file of the same size (another run's
 * samples of the same cells), never this one's metadata. trusted: the
 * bytes are being hashed as they are read (ms_meta_sidecar_hash_begin),
 * taken as described until checked. */
static Description
describes (const MsJson *root, const char *csv_path, long long csv_bytes, bool trusted)
{
  const MsJson *named = NULL;
  bool sized = false, hashed = false, want_sha256;
  Digests digests;
  const Digests *read = !trusted && sized_entries (root, csv_bytes, &want_sha256) &&
                            hash_of_file (csv_path, csv_bytes, want_sha256, &digests)
                          ? &digests
                          : NULL;
  const MsJson *files = ms_json_member (root, "files");
  for (const MsJsonMember *m = ms_json_first_member (files); m; m = ms_json_next_member (m)) {
    const MsJson *entry = ms_json_member_value (m);
    const char *name = ms_json_string (ms_json_member (entry, "name"));
    if (name && same_name (name, csv_path))
      named = entry;
    else if (entry_is (entry, csv_bytes, NULL)) {
      sized = true;
      hashed = hashed || ((read || trusted) && entry_is (entry, csv_bytes, read));
    }
  }
  if (named && !entry_is (named, csv_bytes, NULL))
    return OTHER_FILES;
  if (named)
    return (read || trusted) && entry_is (named, csv_bytes, read) ? DESCRIBED : OTHER_BYTES;
  return hashed ? DESCRIBED : sized ? OTHER_BYTES : OTHER_FILES;
}

static char *
lines_of (const MsJson *root)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  if (!f)
    return NULL;
  const char *run_id = ms_json_string (ms_json_member (root, "run-id"));
  if (run_id)
    ms_meta_put (f, ms_meta_table (MS_META_RUN_ID)->key, "%s", run_id);
  const MsJson *meta = ms_json_member (root, "metadata");
  /* A line for each member's value, or one for each of its values (an
   * array); what is no string or number, none. A key that would not read
   * back as one (a line end, ": ") is dropped. */
  for (const MsJsonMember *m = ms_json_first_member (meta); m; m = ms_json_next_member (m)) {
    const char *key = ms_json_member_name (m);
    const MsJson *value = ms_json_member_value (m);
    bool array = json_object_is_type (value, json_type_array);
    for (size_t i = 0; key[0] && !strpbrk (key, "\r\n") && !strstr (key, ": ") &&
                       i < (array ? json_object_array_length (value) : 1);
         i++) {
      const MsJson *one = array ? json_object_array_get_idx (value, i) : value;
      const char *said = ms_json_string (one) ? ms_json_string (one) : ms_json_number_text (one);
      if (said)
        ms_meta_put (f, key, "%s", said);
    }
  }
  if (fclose (f) != 0) {
    free (text);
    return NULL;
  }
  return text;
}

/* Why a parsed sidecar is not this file's; NULL when it is. */
static const char *
refusal (const MsJson *root, const char *csv_path, long long csv_bytes, bool trusted)
{
  const char *version = ms_json_number_text (ms_json_member (root, "format-version"));
  if (!is_ours (root))
    return ms_gettext ("not a memsweep metadata file");
  /* Every version memsweep wrote: 1 (FNV-1a), 2 (SHA-256), 3 (host-link). */
  if (!version || !version[0] || version[1] || version[0] < '1' || version[0] > '3')
    return ms_gettext ("a format version this memsweep does not read");
  Description d = describes (root, csv_path, csv_bytes, trusted);
  if (d == OTHER_FILES)
    return ms_gettext ("it describes another run's files, or the file was changed since");
  if (d == OTHER_BYTES)
    return ms_gettext ("its metadata is from another file: this file's bytes are not those it "
                       "describes (another run's file of the same size, or changed since)");
  return NULL;
}

/* as_input: the sidecar is one of the command's inputs from then on (not
 * to be written over); a writer that rewrites it reads it without.
 * trusted: as describes takes it. */
static char *
sidecar_lines (const char *csv_path, long long csv_bytes, bool as_input, bool trusted,
               char *why, size_t whylen)
{
  char path[4096], err[1024];
  struct stat st;
  const char *unknown = ms_gettext ("the run's device, driver, link and settings are unknown");
  if (!ms_meta_sidecar_path (csv_path, path, sizeof path)) {
    snprintf (why, whylen, "%s: %s", csv_path, unknown);
    return NULL;
  }
  if (!ms_input_look (path, &st) && errno == ENOENT) {
    snprintf (why, whylen, ms_gettext ("%s: not found: %s"), path, unknown);
    errno = 0;
    return NULL;
  }
  errno = 0;
  MsJson *root = read_sidecar (path, as_input, err, sizeof err);
  /* Why it could not be read, for the caller (errno): a limit of the
   * process (no descriptor, no memory) is no property of the run. */
  int read_errno = root ? 0 : errno;
  const char *refused = root ? refusal (root, csv_path, csv_bytes, trusted) : NULL;
  char *lines = root && !refused ? lines_of (root) : NULL;
  if (!root && strncmp (err, path, strlen (path)) == 0)
    snprintf (why, whylen, "%s: %s", err, unknown); /* the reader's "path: why" */
  else if (!root || refused)
    snprintf (why, whylen, "%s: %s: %s", path, root ? refused : err, unknown);
  ms_json_free (root);
  errno = lines ? 0 : read_errno;
  return lines;
}

bool
ms_meta_sidecar_unread (const char *csv_path, char *err, size_t errlen)
{
  char path[4096];
  int e = errno;
  if (e != EMFILE && e != ENFILE && e != ENOMEM)
    return false;
  if (!ms_meta_sidecar_path (csv_path, path, sizeof path))
    snprintf (path, sizeof path, "%s", csv_path);
  snprintf (err, errlen,
            ms_gettext ("%s: cannot be read: %s; the run's metadata is there, not unknown: "
                        "nothing shown"),
            path, strerror (e));
  return true;
}

char *
ms_meta_sidecar_lines (const char *csv_path, long long csv_bytes, char *why, size_t whylen)
{
  return sidecar_lines (csv_path, csv_bytes, true, false, why, whylen);
}

MsSidecarHash *
ms_meta_sidecar_hash_begin (MsInput *in, const char *csv_path)
{
  char path[4096], err[1024], head[4];
  struct stat st;
  uint64_t size = ms_input_size (in);
  ssize_t n = ms_input_pread (in, head, sizeof head, 0);
  if (n <= 0 || ms_meta_sidecar_inline (head, (size_t) n) || size == MS_INPUT_SIZE_UNKNOWN ||
      !ms_meta_sidecar_path (csv_path, path, sizeof path) || !ms_input_look (path, &st))
    return NULL;
  /* A byte order mark an editor added is no change to the data. */
  long long bytes = (long long) size - (n >= 3 && memcmp (head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0);
  MsJson *root = read_sidecar (path, true, err, sizeof err);
  bool want_sha256, sized = root && is_ours (root) && sized_entries (root, bytes, &want_sha256);
  ms_json_free (root);
  return sized ? hash_begin (in, csv_path, bytes, want_sha256) : NULL;
}

char *
ms_meta_sidecar_lines_on_trust (MsSidecarHash *pending, char *why, size_t whylen)
{
  char *lines = sidecar_lines (pending->path, pending->bytes, true, true, why, whylen);
  pending->on_trust = lines != NULL;
  return lines;
}

bool
ms_meta_sidecar_hash_end (MsInput *in, MsSidecarHash *pending)
{
  Digests digests;
  char path[4096], why[64];
  if (!pending)
    return true;
  long long bytes = pending->bytes;
  bool on_trust = pending->on_trust;
  snprintf (path, sizeof path, "%s", pending->path);
  /* A read stopped early has its own refusal: nothing to take back. */
  if (!hash_end (in, pending, &digests) || !on_trust)
    return true;
  char *lines = sidecar_lines (path, bytes, true, false, why, sizeof why);
  free (lines);
  return lines != NULL;
}

/* The sidecar at path, parsed. */
static MsJson *
read_sidecar (const char *path, bool as_input, char *err, size_t errlen)
{
  /* The look at the path that finds what was kept of it is the one that
   * sizes it. Read again for writing: it is about to be rewritten. */
  struct stat id;
  char *text = as_input ? ms_file_recall (path, MS_FILE_KNOWN_TEXT, &id) : NULL;
  if (!as_input && stat (path, &id) != 0)
    id.st_size = 0;
  /* One size rule for every reader of a sidecar (MS_META_SIDECAR_MAX_BYTES). */
  if (id.st_size > MS_META_SIDECAR_MAX_BYTES) {
    free (text);
    snprintf (err, errlen, ms_gettext ("%s: larger than %d MiB: too large for a sidecar"), path,
              MS_META_SIDECAR_MAX_BYTES >> 20);
    return NULL;
  }
  if (!text && as_input && (text = ms_small_file_read (path, err, errlen)))
    ms_file_remember (MS_FILE_KNOWN_TEXT, &id, text, strlen (text) + 1);
  /* Not as an input: a regular file, whole (its size checked above). */
  FILE *f = as_input ? NULL : fopen (path, "r");
  if (f && fstat (fileno (f), &id) == 0 && S_ISREG (id.st_mode) &&
      id.st_size <= MS_META_SIDECAR_MAX_BYTES && (text = calloc (1, (size_t) id.st_size + 1)) &&
      fread (text, 1, (size_t) id.st_size, f) != (size_t) id.st_size) {
    free (text);
    text = NULL;
  }
  if (!text && !as_input)
    snprintf (err, errlen, "%s: %s", path, strerror (errno ? errno : EINVAL));
  if (f)
    fclose (f);
  if (!text)
    return NULL;
  MsJson *root = ms_json_parse (text, strlen (text), err, errlen);
  free (text);
  return root;
}

int
ms_meta_sidecar_kept (const char *sidecar_path, const char *run_id, const char *role,
                      MsSidecarFile *out, char (*names)[256], int max)
{
  char err[1024];
  MsJson *root = read_sidecar (sidecar_path, false, err, sizeof err);
  const char *id = ms_json_string (ms_json_member (root, "run-id"));
  const MsJson *files = ms_json_member (root, "files");
  int n = 0;
  for (const MsJsonMember *m = ms_json_first_member (files); m && id && strcmp (id, run_id) == 0;
       m = ms_json_next_member (m)) {
    const char *key = ms_json_member_name (m);
    const MsJson *f = ms_json_member_value (m);
    const char *name = ms_json_string (ms_json_member (f, "name"));
    const char *bytes = ms_json_number_text (ms_json_member (f, "bytes"));
    const char *hash = ms_json_string (ms_json_member (f, "fnv1a-64"));
    const char *sha = ms_json_string (ms_json_member (f, "sha256"));
    if (n == max || strcmp (key, role) == 0 || !name || !bytes || (!hash && !sha)
        || (strcmp (key, "samples") != 0 && strcmp (key, "summary") != 0))
      continue;
    MsSidecarFile *k = &out[n];
    k->role = strcmp (key, "samples") == 0 ? "samples" : "summary";
    snprintf (names[n], 256, "%s", name);
    k->path = names[n++];
    k->bytes = strtoll (bytes, NULL, 10);
    k->fnv1a = hash ? strtoull (hash, NULL, 16) : 0;
    snprintf (k->sha256, sizeof k->sha256, "%s", sha ? sha : "");
  }
  ms_json_free (root);
  return n;
}

/* ---- a sidecar belongs to its file set ---------------------------------- */

bool
ms_meta_sidecar_describes (const char *sidecar_path, const char *path)
{
  char err[1024];
  struct stat st;
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return false;
  MsJson *root = read_sidecar (sidecar_path, false, err, sizeof err);
  bool ours = is_ours (root) && describes (root, path, (long long) st.st_size, false) == DESCRIBED;
  ms_json_free (root);
  return ours;
}

int
ms_meta_sidecar_names (const char *sidecar_path, char (*names)[256], int max)
{
  char err[1024];
  MsJson *root = read_sidecar (sidecar_path, false, err, sizeof err);
  int n = is_ours (root) ? 0 : -1;
  for (const MsJsonMember *m = ms_json_first_member (ms_json_member (root, "files"));
       m && n >= 0 && n < max; m = ms_json_next_member (m)) {
    const char *name = ms_json_string (ms_json_member (ms_json_member_value (m), "name"));
    if (name)
      snprintf (names[n++], 256, "%s", name);
  }
  ms_json_free (root);
  return n;
}

static bool
beside (const char *sidecar_path, const char *name, char *out, size_t len)
{
  const char *slash = strrchr (sidecar_path, '/');
  int dir = slash ? (int) (slash - sidecar_path + 1) : 0;
  return snprintf (out, len, "%.*s%s", dir, sidecar_path, name) < (int) len;
}

/* Calls fn for name beside the sidecar, its .gz form and its plain form,
 * each that exists; false when fn stopped. */
static bool
each_form (const char *sidecar_path, const char *name, MsSidecarFileFunc fn, void *data)
{
  char form[1024], path[4096];
  struct stat st;
  size_t len = strlen (name), stem = ms_gzip_stem_len (name);
  for (int i = 0; i < 2; i++) {
    /* The name; then a .gz name's plain form, or a plain name's .gz form. */
    snprintf (form, sizeof form, "%.*s%s", (int) (i == 0 ? len : stem), name,
              i == 1 && stem == len ? MS_GZIP_SUFFIX : "");
    if (beside (sidecar_path, form, path, sizeof path) && lstat (path, &st) == 0 &&
        !fn (path, data))
      return false;
  }
  return true;
}

/* The files beside the sidecar that its name would make it describe
 * (STEM.csv, STEM-samples.csv, STEM-summary.csv, plain or gzipped), as
 * each_form gives them. */
static bool
each_named_after (const char *sidecar_path, MsSidecarFileFunc fn, void *data)
{
  const char *base = base_name (sidecar_path);
  size_t n = strlen (base), k = strlen (MS_META_SIDECAR_SUFFIX);
  if (n <= k || strcmp (base + n - k, MS_META_SIDECAR_SUFFIX) != 0)
    return true;
  for (size_t i = 0; i < sizeof csv_suffixes / sizeof csv_suffixes[0]; i++) {
    char name[1024];
    snprintf (name, sizeof name, "%.*s%s", (int) (n - k), base, csv_suffixes[i]);
    if (!each_form (sidecar_path, name, fn, data))
      return false;
  }
  return true;
}

/* The set of a parsed sidecar, as ms_meta_sidecar_each_file gives it. */
static bool
each_file (const MsJson *root, const char *sidecar_path, MsSidecarFileFunc fn, void *data)
{
  if (!is_ours (root))
    return true;
  for (const MsJsonMember *m = ms_json_first_member (ms_json_member (root, "files")); m;
       m = ms_json_next_member (m)) {
    const char *name = ms_json_string (ms_json_member (ms_json_member_value (m), "name"));
    if (name && !strchr (name, '/') && !each_form (sidecar_path, name, fn, data))
      return false;
  }
  return each_named_after (sidecar_path, fn, data);
}

bool
ms_meta_sidecar_each_file (const char *sidecar_path, MsSidecarFileFunc fn, void *data)
{
  char err[1024];
  MsJson *root = read_sidecar (sidecar_path, false, err, sizeof err);
  bool all = !root || each_file (root, sidecar_path, fn, data);
  ms_json_free (root);
  return all;
}

typedef struct {
  const MsSidecarFile *files;
  int n;
  char other[1024];
} OtherFile;

/* A file of the set that is none of the writer's (by its name beside
 * them: a set's files share the sidecar's folder). */
static bool
is_written (const char *path, void *data)
{
  OtherFile *o = data;
  for (int k = 0; k < o->n; k++)
    if (strcmp (base_name (path), base_name (o->files[k].path)) == 0)
      return true;
  snprintf (o->other, sizeof o->other, "%s", base_name (path));
  return false;
}

/* The first file of the parsed sidecar's set that is not among o's
 * files and not of run_id's run (whose other file a writer keeps):
 * writing over the sidecar would take that file's metadata. A name with a
 * folder in it is never the writer's. */
static const char *
other_file (const MsJson *root, const char *sidecar_path, const char *run_id, OtherFile *o)
{
  const char *id = ms_json_string (ms_json_member (root, "run-id"));
  if (run_id && id && strcmp (id, run_id) == 0)
    return NULL;
  for (const MsJsonMember *m = ms_json_first_member (ms_json_member (root, "files")); m;
       m = ms_json_next_member (m)) {
    const char *name = ms_json_string (ms_json_member (ms_json_member_value (m), "name"));
    if (name && strchr (name, '/'))
      return name;
  }
  return each_file (root, sidecar_path, is_written, o) ? NULL : o->other;
}

/* Whether the sidecar at path may be replaced by the writer of files[0..n)
 * for run_id (NULL before the work, when the id is not known): a file or a
 * new name, and where it is a sidecar, nothing it names but these files,
 * or their run's, lies beside it. What names no file (a damaged sidecar, a
 * file of another kind) is replaced as the CSV files at their names are. */
static bool
may_replace (const char *path, const MsSidecarFile *files, int n, const char *run_id, char *err,
             size_t errlen)
{
  char why[1024];
  struct stat st;
  if (!ms_atomic_file_check_regular (path, err, errlen))
    return false;
  if (lstat (path, &st) != 0)
    return true;
  /* Written through, a link would replace whatever it points at (another
   * run's sidecar elsewhere), which nothing beside it here describes. */
  if (S_ISLNK (st.st_mode)) {
    snprintf (err, errlen,
              ms_gettext ("%s: is a symbolic link: a sidecar is never written through one; not "
                          "replaced; remove the link or choose another name"),
              path);
    errno = EEXIST;
    return false;
  }
  /* No sidecar memsweep writes is that large: someone else's file. */
  if (st.st_size > MS_META_SIDECAR_MAX_BYTES) {
    snprintf (err, errlen,
              ms_gettext ("%s: larger than %d MiB, so no sidecar of memsweep's: not replaced; "
                          "choose another name, or remove it"),
              path, MS_META_SIDECAR_MAX_BYTES >> 20);
    errno = EEXIST;
    return false;
  }
  MsJson *root = read_sidecar (path, false, why, sizeof why);
  OtherFile o = { files, n, "" };
  /* What cannot be read as a sidecar (damaged, too large, another
   * program's JSON) is replaced only where no file beside it that it
   * would describe is left out of this write: else it may be that file's
   * metadata (a profile's, another run's). */
  bool readable = is_ours (root);
  const char *other = readable ? other_file (root, path, run_id, &o)
                      : each_named_after (path, is_written, &o) ? NULL : o.other;
  if (other && readable)
    snprintf (err, errlen,
              ms_gettext ("%s: holds the metadata of %s, which this command does not write: not "
                          "replaced; choose another name"),
              path, other);
  else if (other)
    snprintf (err, errlen,
              ms_gettext ("%s: is not a sidecar this memsweep can read (%s), and may be the "
                          "metadata of %s beside it: not replaced; choose another name, or "
                          "remove it"),
              path, root ? ms_gettext ("not a memsweep metadata file") : why, other);
  ms_json_free (root);
  if (other)
    errno = EEXIST;
  return !other;
}

bool
ms_meta_sidecar_check_targets (const char *const *paths, int n, char *err, size_t errlen)
{
  MsSidecarFile files[MS_SIDECAR_MAX_FILES] = { { 0 } };
  char sidecar[4096];
  bool any_file = false;
  for (int i = 0; i < n; i++) {
    if (!ms_atomic_file_check (paths[i], err, errlen))
      return false;
    /* A pipe or a device keeps its metadata inline: no sidecar. */
    any_file = any_file || !ms_atomic_file_in_place (paths[i]);
    if (i < MS_SIDECAR_MAX_FILES)
      files[i].path = paths[i];
  }
  if (!any_file || n == 0)
    return true;
  if (!ms_meta_sidecar_path (paths[0], sidecar, sizeof sidecar)) {
    snprintf (err, errlen, "%s: %s", paths[0], strerror (ENAMETOOLONG));
    return false;
  }
  return may_replace (sidecar, files, n < MS_SIDECAR_MAX_FILES ? n : MS_SIDECAR_MAX_FILES, NULL,
                      err, errlen);
}

MsAtomicFile *
ms_meta_sidecar_open (const char *path, const char *run_id, const char *meta_lines,
                      const MsSidecarFile *files, int n_files, char *err, size_t errlen)
{
  char *text = NULL;
  size_t len = 0;
  if (!may_replace (path, files, n_files, run_id, err, errlen))
    return NULL;
  FILE *f = open_memstream (&text, &len);
  MsAtomicFile *side = NULL;
  if (f)
    ms_meta_sidecar_write (f, run_id, meta_lines, files, n_files);
  if (!f || fclose (f) != 0)
    snprintf (err, errlen, ms_gettext ("%s: out of memory"), path);
  else if ((side = ms_atomic_file_open (path, err, errlen)))
    ms_atomic_file_write (side, text, len); /* a failure is the commit's to say */
  free (text);
  return side;
}

bool
ms_meta_sidecar_restamp (const char *csv_path, const char *const *drop, int n_drop,
                         const char *add, char *err, size_t errlen)
{
  char path[4096], run_id[64] = "", why[256];
  char names[MS_SIDECAR_MAX_FILES][256];
  /* The size the sidecar describes: a compressed file's plain content's
   * (its recorded size, ms-input.h). */
  MsInput *in = ms_input_open (csv_path, false, why, sizeof why);
  uint64_t size = in ? ms_input_size (in) : 0;
  ms_input_close (in);
  if (!in || !ms_meta_sidecar_path (csv_path, path, sizeof path)) {
    snprintf (err, errlen, "%s", !in ? why : strerror (ENAMETOOLONG));
    return false;
  }
  char *lines = sidecar_lines (csv_path, (long long) size, false, false, err, errlen);
  if (!lines)
    return false;
  sscanf (lines, "# run-id: %63s", run_id);
  MsSidecarFile described[MS_SIDECAR_MAX_FILES];
  int n = ms_meta_sidecar_kept (path, run_id, "", described, names, MS_SIDECAR_MAX_FILES);
  /* The lines that start with none of drop[], then add. */
  char *meta = malloc (strlen (lines) + strlen (add) + 1), *end = meta;
  for (const char *p = lines, *eol; meta && (eol = strchr (p, '\n')); p = eol + 1) {
    bool dropped = false;
    for (int k = 0; k < n_drop && !dropped; k++)
      dropped = strncmp (p, drop[k], strlen (drop[k])) == 0;
    if (!dropped)
      end = mempcpy (end, p, (size_t) (eol - p) + 1);
  }
  if (meta)
    strcpy (end, add);
  MsAtomicFile *file = NULL;
  if (!meta)
    snprintf (err, errlen, ms_gettext ("%s: out of memory"), path);
  else
    file = ms_meta_sidecar_open (path, run_id, meta, described, n, err, errlen);
  bool ok = file && ms_atomic_file_commit (file, err, errlen);
  free (lines), free (meta);
  return ok;
}
