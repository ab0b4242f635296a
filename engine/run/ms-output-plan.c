/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-output-plan.c: the files one command will write, each checked as it
 * is added; see the header for the rules. */
#define _GNU_SOURCE
#include "ms-output-plan.h"
#include "ms-output-plan-lock.h"
#include "ms-atomic-file.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-meta-sidecar.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_NAMES 8

typedef enum { ROLE_FILE, ROLE_SET, ROLE_SIDECAR, ROLE_FOLDER } Role;

/* One file of the plan: its name as given, where it leads, and what it
 * is once there (a file that exists, a descriptor's open file). */
typedef struct {
  char *name;
  char *given_by;
  char where[2 * PATH_MAX + 16];
  int descriptor; /* this process's descriptor N that it names, or -1 */
  bool known;     /* dev and ino are the file's */
  bool shared;    /* a character device: /dev/null takes any number */
  bool linked;    /* a file with more than one name (hard links) */
  int pipe_fd;    /* a FIFO's write end, held from the check on, or -1 */
  dev_t dev;
  ino_t ino;
  /* The folder's identity: with the name, what a file not yet made will
   * be, whatever other path (a bind mount, another mount of the same file
   * system) leads to that folder. */
  bool folder_known;
  dev_t folder_dev;
  ino_t folder_ino;
  Role role;
} Entry;

static Entry *entries;
static int n_entries;

/* Where path leads: its folder's real path and its name, symbolic links
 * followed (dangling ones too), or /dev/fd/N for a descriptor; e carries
 * the file's identity when there is one. */
static bool
locate (const char *path, Entry *e)
{
  char target[PATH_MAX], folder[PATH_MAX], real[PATH_MAX];
  struct stat st;
  e->descriptor = -1;
  if (strcmp (path, "-") == 0)
    e->descriptor = STDOUT_FILENO;
  else if (!ms_atomic_file_resolve (path, target, sizeof target, &e->descriptor))
    return false;
  if (e->descriptor >= 0) {
    snprintf (e->where, sizeof e->where, "/dev/fd/%d", e->descriptor);
    e->known = fstat (e->descriptor, &st) == 0;
  } else {
    const char *slash = strrchr (target, '/');
    const char *base = slash ? slash + 1 : target;
    snprintf (folder, sizeof folder, "%.*s", slash ? (int) (slash - target) : 1,
              slash ? (slash == target ? "/" : target) : ".");
    if (realpath (folder, real))
      snprintf (e->where, sizeof e->where, "%s/%s", strcmp (real, "/") ? real : "", base);
    else
      snprintf (e->where, sizeof e->where, "%s", target);
    e->folder_known = stat (folder, &st) == 0;
    e->folder_dev = st.st_dev;
    e->folder_ino = st.st_ino;
    e->known = stat (target, &st) == 0;
  }
  if (e->known) {
    e->dev = st.st_dev;
    e->ino = st.st_ino;
    e->shared = S_ISCHR (st.st_mode);
    e->linked = S_ISREG (st.st_mode) && st.st_nlink > 1;
  }
  return true;
}

static const char *
base_name (const Entry *e)
{
  const char *slash = strrchr (e->where, '/');
  return slash ? slash + 1 : e->where;
}

/* One place, by path or by its folder's identity and its name: a file
 * that does not exist yet has no identity of its own to compare. */
static bool
same_place (const Entry *a, const Entry *b)
{
  return strcmp (a->where, b->where) == 0 ||
         (a->folder_known && b->folder_known && a->folder_dev == b->folder_dev &&
          a->folder_ino == b->folder_ino && strcmp (base_name (a), base_name (b)) == 0);
}

static const Entry *
held (const char *where, Role role)
{
  Entry e = { 0 };
  if (!locate (where, &e))
    snprintf (e.where, sizeof e.where, "%s", where);
  for (int i = 0; i < n_entries; i++)
    if (same_place (&entries[i], &e) && (role == ROLE_FILE || entries[i].role == role))
      return &entries[i];
  return NULL;
}

/* Says why into err, with errno EEXIST (the file is there, or one of
 * the plan's): false. */
static bool __attribute__ ((format (printf, 3, 4)))
refuse (char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err, errlen, fmt, ap);
  va_end (ap);
  errno = EEXIST;
  return false;
}

/* The same file as one already in the plan, or a second document on
 * standard output. */
static bool
check_against_plan (const Entry *e, char *err, size_t errlen)
{
  for (int i = 0; i < n_entries; i++) {
    const Entry *o = &entries[i];
    bool same = same_place (o, e) ||
                (e->known && o->known && !e->shared && !o->shared && o->dev == e->dev &&
                 o->ino == e->ino);
    if (o->descriptor == STDOUT_FILENO && e->descriptor == STDOUT_FILENO)
      return refuse (err, errlen,
                     ms_gettext ("%s %s: standard output holds one document, and %s %s "
                                 "already goes there: nothing written"),
                     e->given_by, e->name, o->given_by, o->name);
    if (same && !(o->shared && e->shared))
      return refuse (err, errlen,
                     ms_gettext ("%s %s: is the same file as %s %s: nothing written; choose "
                                 "another name"),
                     e->given_by, e->name, o->given_by, o->name);
  }
  return true;
}

static bool
ends_with (const char *s, const char *suffix)
{
  size_t n = strlen (s), k = strlen (suffix);
  return n >= k && strcmp (s + n - k, suffix) == 0;
}

/* The existing file at where is a sidecar of memsweep's: another set's
 * metadata (the plan's own sidecar is ms_meta_sidecar_check_targets'). */
static bool
check_not_sidecar (const Entry *e, char *err, size_t errlen)
{
  char names[MAX_NAMES][256];
  struct stat st;
  if (stat (e->where, &st) != 0 || !S_ISREG (st.st_mode))
    return true;
  /* Too large for any reader to tell (MS_META_SIDECAR_MAX_BYTES): kept as
   * one might be. */
  bool unreadable = ends_with (e->where, MS_META_SIDECAR_SUFFIX) &&
                    st.st_size > MS_META_SIDECAR_MAX_BYTES;
  if (!unreadable && ms_meta_sidecar_names (e->where, names, MAX_NAMES) < 0)
    return true;
  return refuse (err, errlen,
                 ms_gettext ("%s %s: holds the metadata of other files: not replaced; choose "
                             "another name"),
                 e->given_by, e->name);
}

/* A file of the command's own (an export, a picture, a report) never
 * replaces measurements of any kind (a run's samples or summary, a
 * profile, a peer matrix, a portable table...), sidecar or none: the kind
 * is known from the content (ms-file-kinds.h). */
static bool
check_not_run_content (const Entry *e, char *err, size_t errlen)
{
  struct stat st;
  if (e->role != ROLE_FILE || stat (e->where, &st) != 0 || !S_ISREG (st.st_mode))
    return true;
  MsFileKind kind = ms_file_kind_of_file (e->where);
  const MsFileKindInfo *info = ms_file_kind_info (kind);
  if (!info || !info->measurements)
    return true;
  return refuse (err, errlen,
                 ms_gettext ("%s %s: holds measurements (%s): not replaced; choose another name"),
                 e->given_by, e->name, ms_file_kind_describe (kind));
}

/* A file and its .gz form are one file to every reader (a run is opened
 * by either name): a run's file whose other form is there and not in the
 * plan would leave two runs under one name, and a file of the command's
 * own is refused where its other form holds a run's measurements. */
static bool
check_other_form (const Entry *e, char *err, size_t errlen)
{
  char other[sizeof e->where];
  struct stat st;
  if (e->role != ROLE_SET && e->role != ROLE_FILE)
    return true;
  if (ms_gzip_is_name (e->where))
    snprintf (other, sizeof other, "%.*s", (int) ms_gzip_stem_len (e->where), e->where);
  else if (snprintf (other, sizeof other, "%s%s", e->where, MS_GZIP_SUFFIX) >= (int) sizeof other)
    return true;
  /* The command's own run and its own export as two forms of one name:
   * readers would take the export for the run. */
  const Entry *twin = held (other, ROLE_FILE);
  if (twin && (twin->role == ROLE_SET) != (e->role == ROLE_SET))
    return refuse (err, errlen,
                   ms_gettext ("%s %s: is the other form (plain or gzip) of %s %s, which this "
                               "command writes too, and every reader takes the two for one "
                               "file: not written; choose another name"),
                   e->given_by, e->name, twin->given_by, twin->name);
  if (lstat (other, &st) != 0 || twin ||
      (e->role == ROLE_FILE && !ms_file_kind_holds_measurements (other)))
    return true;
  return refuse (err, errlen,
                 ms_gettext ("%s %s: %s beside it is its other form (plain or gzip), which every "
                             "reader takes for the same run: not written; choose another name"),
                 e->given_by, e->name, other);
}

/* NAME-meta.json beside NAME-samples.csv, NAME-summary.csv or NAME.csv
 * (or their .gz forms) that the plan does not write would become their
 * metadata. */
static bool
check_not_sidecar_name (const Entry *e, char *err, size_t errlen)
{
  static const char *const csv[] = { "-samples.csv", "-summary.csv", ".csv" };
  char path[PATH_MAX + 32];
  struct stat st;
  if (!ends_with (e->where, MS_META_SIDECAR_SUFFIX))
    return true;
  int stem = (int) (strlen (e->where) - strlen (MS_META_SIDECAR_SUFFIX));
  for (int i = 0; i < 6; i++) {
    snprintf (path, sizeof path, "%.*s%s%s", stem, e->where, csv[i % 3], i < 3 ? "" : ".gz");
    if (lstat (path, &st) != 0 || held (path, ROLE_SET))
      continue;
    return refuse (err, errlen,
                   ms_gettext ("%s %s: is the name of the metadata of %s beside it: not written; "
                               "choose another name"),
                   e->given_by, e->name, path);
  }
  return true;
}

/* Whether a file of a sidecar's set is the entry's file: by its name, or
 * by its device and inode (a hard link beside it). */
static bool
is_not_entry (const char *path, void *data)
{
  const Entry *e = data;
  struct stat st;
  return strcmp (path, e->where) != 0 &&
         !(e->known && stat (path, &st) == 0 && st.st_dev == e->dev && st.st_ino == e->ino);
}

/* Whether the sidecar at path names the entry's file (or its other form,
 * plain or gzip), existing or not: a file made under that name would be
 * read as that run's (its metadata found by name), as a copy would. */
static bool
names_entry (const char *path, const Entry *e)
{
  char names[MAX_NAMES][256];
  const char *base = base_name (e);
  size_t stem = ms_gzip_stem_len (base);
  int n = ms_meta_sidecar_names (path, names, MAX_NAMES);
  for (int i = 0; i < n; i++)
    if (ms_gzip_stem_len (names[i]) == stem && strncmp (names[i], base, stem) == 0)
      return true;
  return false;
}

/* Whether the entry's file (plain or gzip) is one of the pair the
 * sidecar at path would be found for by its own name, STEM-meta.json:
 * STEM-samples.csv or STEM-summary.csv, whatever names it holds (a run
 * renamed after it was written names its old ones). A sidecar of one
 * file (X.csv's X-meta.json) implies no pair. */
static bool
implied_by_name (const char *path, const Entry *e)
{
  static const char *const csv[] = { "-samples.csv", "-summary.csv" };
  char name[PATH_MAX + 32], names[MAX_NAMES][256];
  size_t stem = strlen (path) - strlen (MS_META_SIDECAR_SUFFIX);
  size_t len = ms_gzip_stem_len (e->where);
  if (ms_meta_sidecar_names (path, names, MAX_NAMES) < 2)
    return false;
  for (size_t i = 0; i < sizeof csv / sizeof *csv; i++)
    if (snprintf (name, sizeof name, "%.*s%s", (int) stem, path, csv[i]) < (int) sizeof name &&
        strlen (name) == len && strncmp (name, e->where, len) == 0)
      return true;
  return false;
}

/* Whether the sidecar at path holds the entry's file in its set
 * (ms_meta_sidecar_each_file), would be found for it by its own name, or
 * describes it by its size and hash (renamed since); the plan's own
 * sidecars are its business. */
static bool
sidecar_holds (const char *path, const Entry *e)
{
  struct stat st;
  /* Read as every reader reads it, up to MS_META_SIDECAR_MAX_BYTES. */
  if (held (path, ROLE_SIDECAR) || stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return false;
  return !ms_meta_sidecar_each_file (path, is_not_entry, (void *) e) ||
         names_entry (path, e) || implied_by_name (path, e) ||
         ms_meta_sidecar_describes (path, e->where);
}

/* A file of a sidecar's set beside it (or a hard link to one) is that
 * set's. */
static bool
check_not_named (const Entry *e, char *err, size_t errlen)
{
  char folder[PATH_MAX], path[PATH_MAX + 256];
  const char *slash = strrchr (e->where, '/');
  if (!slash)
    return true;
  snprintf (folder, sizeof folder, "%.*s", slash == e->where ? 1 : (int) (slash - e->where),
            e->where);
  DIR *d = opendir (folder);
  bool ok = true;
  for (struct dirent *de; ok && d && (de = readdir (d));) {
    if (!ends_with (de->d_name, MS_META_SIDECAR_SUFFIX) ||
        snprintf (path, sizeof path, "%s/%s", strcmp (folder, "/") ? folder : "", de->d_name) >=
          (int) sizeof path ||
        strcmp (path, e->where) == 0)
      continue;
    ok = !sidecar_holds (path, e);
  }
  if (d)
    closedir (d);
  if (ok)
    return true;
  return refuse (err, errlen,
                 ms_gettext ("%s %s: is a file of another run, named by %s: not replaced; choose "
                             "another name"),
                 e->given_by, e->name, path);
}

/* Where a descriptor's open file has a name that leads to it (`3>>F`),
 * that name; else the entry stays a descriptor's (a pipe, a terminal, a
 * file with no name in reach, as in a chroot). */
static bool
descriptor_file (const Entry *e, Entry *as_file)
{
  char link[64], name[PATH_MAX];
  struct stat st;
  snprintf (link, sizeof link, "/proc/self/fd/%d", e->descriptor);
  ssize_t n = readlink (link, name, sizeof name - 1);
  if (n <= 0 || !e->known || e->shared)
    return false;
  name[n] = '\0';
  if (name[0] != '/' || stat (name, &st) != 0 || !S_ISREG (st.st_mode) || st.st_dev != e->dev ||
      st.st_ino != e->ino)
    return false;
  *as_file = *e;
  snprintf (as_file->where, sizeof as_file->where, "%s", name);
  return true;
}

/* Another run's files: its sidecar, its sidecar's name, a file its
 * sidecar names. */
static bool
check_other_runs (const Entry *e, char *err, size_t errlen)
{
  Entry file;
  /* The plan's own sidecar was checked with its set
   * (ms_meta_sidecar_check_targets: it replaces no other set's). */
  if (e->role == ROLE_SIDECAR || e->role == ROLE_FOLDER)
    return true;
  if (e->descriptor >= 0 && !descriptor_file (e, &file))
    return true;
  /* Written into where it stands, a file with other names (a hard link
   * in another folder) changes under each of them, and only the name the
   * descriptor gives can be checked. By a name, a file is written anew
   * and renamed over it: the other names keep theirs. */
  if (e->descriptor >= 0 && e->linked)
    return refuse (err, errlen,
                   ms_gettext ("%s %s: its file has other names (hard links), which cannot all be "
                               "checked: not written into; give a file name"),
                   e->given_by, e->name);
  const Entry *f = e->descriptor >= 0 ? &file : e;
  return check_not_sidecar (f, err, errlen) && check_not_sidecar_name (f, err, errlen) &&
         check_not_named (f, err, errlen) && check_not_run_content (f, err, errlen) &&
         check_other_form (f, err, errlen);
}

/* A FIFO at a name is written into where it stands, at the end of the
 * work: one that nothing reads then could only fail after the work. So
 * it must have a reader now, and its write end is held from here on: the
 * reader meets no end of file before the command has written (and ended),
 * and the write finds it still there. */
static bool
check_pipe (Entry *e, char *err, size_t errlen)
{
  struct stat st;
  e->pipe_fd = -1;
  if (e->descriptor >= 0 || e->role == ROLE_FOLDER || stat (e->where, &st) != 0 ||
      !S_ISFIFO (st.st_mode))
    return true;
  e->pipe_fd = open (e->where, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (e->pipe_fd >= 0)
    return true;
  if (errno != ENXIO)
    return refuse (err, errlen, "%s %s: %s", e->given_by, e->name, strerror (errno));
  return refuse (err, errlen,
                 ms_gettext ("%s %s: is a pipe (FIFO) that nothing reads: refused before any "
                             "work; start its reader first, or give a file's name"),
                 e->given_by, e->name);
}

/* A file written by a name through a temporary and a rename: what one
 * command can lose to another's rename. A descriptor, a device or a pipe
 * is written where it stands; a folder is made new. */
static bool
lockable (const Entry *e)
{
  struct stat st;
  return e->role != ROLE_FOLDER && e->descriptor < 0 &&
         (stat (e->where, &st) != 0 || S_ISREG (st.st_mode));
}

/* The name of memsweep's lock of another file: its holder removes it. */
static bool
check_lock_name (const Entry *e, char *err, size_t errlen)
{
  if (!ms_output_lock_is_name (e->where))
    return true;
  return refuse (err, errlen,
                 ms_gettext ("%s %s: is the name of the file by which memsweep holds another file "
                             "while it writes it: not written; choose another name"),
                 e->given_by, e->name);
}

static bool
add (const char *given_by, const char *path, Role role, char *err, size_t errlen)
{
  Entry e = { .role = role, .pipe_fd = -1 };
  e.name = (char *) path;
  e.given_by = (char *) given_by;
  if (!locate (path, &e)) {
    snprintf (err, errlen, "%s %s: %s", given_by, path, strerror (errno));
    return false;
  }
  /* Standard output appended to an input (`show F >> F`) is the command
   * line's to say, as cat does; by another name it is refused here. */
  bool input = e.descriptor >= 0 && ms_atomic_file_is_input_fd (e.descriptor);
  if (input && strcmp (path, "-") != 0)
    return refuse (err, errlen, ms_gettext ("%s %s: is one of the inputs: nothing written"),
                   given_by, path);
  if (!check_against_plan (&e, err, errlen) || !check_lock_name (&e, err, errlen))
    return false;
  /* Held from here to the command's end: a second command writing the
   * same file at once is refused now, not left to lose this one's (or its
   * own) work at the last rename. */
  bool locked = false;
  if (lockable (&e) && !ms_output_lock_take (given_by, path, e.where, &locked, err, errlen))
    return false;
  if ((!input && !check_other_runs (&e, err, errlen)) || !check_pipe (&e, err, errlen)) {
    if (locked)
      ms_output_lock_release (e.where);
    return false;
  }
  Entry *bigger = realloc (entries, (size_t) (n_entries + 1) * sizeof *entries);
  if (!bigger || !(e.name = strdup (path)) || !(e.given_by = strdup (given_by))) {
    if (bigger)
      entries = bigger;
    if (e.pipe_fd >= 0)
      close (e.pipe_fd);
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
    return false;
  }
  entries = bigger;
  entries[n_entries++] = e;
  return true;
}

bool
ms_output_plan_stdout_closed (void)
{
  int flags = fcntl (STDOUT_FILENO, F_GETFL);
  return flags < 0 || (flags & O_ACCMODE) == O_RDONLY;
}

bool
ms_output_plan_add (const char *given_by, const char *path, char *err, size_t errlen)
{
  char why[PATH_MAX + 256];
  /* Standard output is written as it stands: no file to check, but it
   * must be open for writing (closed at start, main holds it with
   * /dev/null read-only), or what goes there would be lost after the
   * work. */
  if (strcmp (path, "-") == 0 && ms_output_plan_stdout_closed ()) {
    snprintf (err, errlen, ms_gettext ("%s -: standard output is closed"), given_by);
    return false;
  }
  if (strcmp (path, "-") != 0 && !ms_atomic_file_check (path, why, sizeof why)) {
    snprintf (err, errlen, "%s: %s", given_by, why);
    return false;
  }
  return add (given_by, path, ROLE_FILE, err, errlen);
}

bool
ms_output_plan_check_file (const char *given_by, const char *path, char *err, size_t errlen)
{
  char why[PATH_MAX + 256];
  Entry e = { .role = ROLE_FILE, .name = (char *) path, .given_by = (char *) given_by };
  if (!ms_atomic_file_check (path, why, sizeof why)) {
    snprintf (err, errlen, "%s: %s", given_by, why);
    return false;
  }
  if (!locate (path, &e)) {
    snprintf (err, errlen, "%s %s: %s", given_by, path, strerror (errno));
    return false;
  }
  return check_other_runs (&e, err, errlen);
}

/* The folder of the first set of files the command writes, made absolute
 * (empty until one is added): where its processes keep what they
 * measured when nowhere else will take it. */
static char first_set_folder[PATH_MAX];

static void
note_first_set_folder (const char *path)
{
  char parent[PATH_MAX];
  const char *slash = strrchr (path, '/');
  if (first_set_folder[0] || ms_atomic_file_in_place (path))
    return;
  snprintf (parent, sizeof parent, "%.*s", slash ? (int) (slash - path) : 1,
            slash ? (slash == path ? "/" : path) : ".");
  if (!realpath (parent, first_set_folder))
    first_set_folder[0] = '\0';
}

/* A set's file replaces measurements only of the kind it writes there:
 * calibrate --out X.csv replaces the profile X.csv, never a peer matrix of
 * that name with its sidecar (a sidecar's set is replaced whole by names
 * alone: the kind is the content's). */
static bool
check_same_kind (const char *given_by, const char *path, MsFileKind kind, char *err,
                 size_t errlen)
{
  struct stat st;
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return true;
  MsFileKind there = ms_file_kind_of_file (path);
  const MsFileKindInfo *info = ms_file_kind_info (there);
  if (!info || !info->measurements || there == kind)
    return true;
  return refuse (err, errlen,
                 ms_gettext ("%s %s: holds measurements (%s), and this command would write %s "
                             "there: not replaced; choose another name"),
                 given_by, path, ms_file_kind_describe (there), ms_file_kind_describe (kind));
}

bool
ms_output_plan_add_set (const char *given_by, const char *const *paths, const MsFileKind *kinds,
                        int n, char *err, size_t errlen)
{
  char why[PATH_MAX + 256], sidecar[PATH_MAX];
  bool any_file = false;
  if (!ms_meta_sidecar_check_targets (paths, n, why, sizeof why)) {
    snprintf (err, errlen, "%s: %s", given_by, why);
    return false;
  }
  for (int i = 0; i < n; i++)
    any_file = any_file || !ms_atomic_file_in_place (paths[i]);
  /* The sidecar first: the set's own files are named by it. */
  if (any_file && ms_meta_sidecar_path (paths[0], sidecar, sizeof sidecar) &&
      !add (given_by, sidecar, ROLE_SIDECAR, err, errlen))
    return false;
  for (int i = 0; i < n; i++)
    if (!add (given_by, paths[i], ROLE_SET, err, errlen) ||
        !check_same_kind (given_by, paths[i], kinds[i], err, errlen))
      return false;
  note_first_set_folder (paths[0]);
  return true;
}

bool
ms_output_plan_add_folder (const char *given_by, const char *path, char *err, size_t errlen)
{
  return add (given_by, path, ROLE_FOLDER, err, errlen);
}

static bool
make_kept_folder (const char *parent, char *folder, size_t len)
{
  char err[PATH_MAX + 256];
  if (snprintf (folder, len, "%s/memsweep-kept-XXXXXX", parent) >= (int) len || !mkdtemp (folder))
    return false;
  if (add ("kept", folder, ROLE_FOLDER, err, sizeof err))
    return true;
  rmdir (folder);
  return false;
}

const char *
ms_output_plan_last_resort (int i)
{
  return i == 0 ? "." : i == 1 ? getenv ("HOME") : NULL;
}

bool
ms_output_plan_keep_folder (const char *near, int attempt, char *folder, size_t len)
{
  char parent[PATH_MAX];
  const char *slash = strrchr (near, '/');
  const char *tmp = getenv ("TMPDIR");
  snprintf (parent, sizeof parent, "%.*s", slash ? (int) (slash - near) : 1,
            slash ? (slash == near ? "/" : near) : ".");
  /* A folder that cannot be made beside (read-only, removed or renamed
   * while measuring) must not end the search: TMPDIR is still tried, then
   * the folder of the supervising command's own files (a process whose
   * TMPDIR is full or removed, while the user's folder has room), then
   * the current folder and the home folder: measurements are lost only
   * where none of them takes a folder. */
  /* Beside a device or a pipe (`--out /dev/full`) is no folder of the
   * user's files: /dev would take it, and nobody would look there. */
  struct stat st;
  bool beside = stat (near, &st) != 0 || S_ISREG (st.st_mode);
  const char *places[] = { beside ? parent : NULL, tmp && *tmp ? tmp : "/tmp",
                           getenv (MS_OUTPUT_PLAN_KEEP_ENV),
                           ms_output_plan_last_resort (0), ms_output_plan_last_resort (1) };
  for (size_t i = (size_t) (attempt > 0 ? attempt : 0); i < sizeof places / sizeof *places; i++)
    if (places[i] && *places[i] && make_kept_folder (places[i], folder, len))
      return true;
  return false;
}

const char *
ms_output_plan_first_set_folder (void)
{
  return first_set_folder;
}

void
ms_output_plan_drop_kept_folder (const char *folder)
{
  rmdir (folder);
  ms_output_plan_forget_folder (folder);
}

void
ms_output_plan_forget_folder (const char *folder)
{
  /* Its inode is free again: the next folder made may get it, and must
   * not be taken for this one. */
  for (int i = n_entries - 1; i >= 0; i--)
    if (entries[i].role == ROLE_FOLDER && strcmp (entries[i].name, folder) == 0) {
      if (entries[i].pipe_fd >= 0)
        close (entries[i].pipe_fd);
      free (entries[i].name);
      free (entries[i].given_by);
      entries[i] = entries[--n_entries];
      return;
    }
}

bool
ms_output_plan_kept_name (const char *folder, const char *path, char *out, size_t len)
{
  const char *slash = strrchr (path, '/');
  return snprintf (out, len, "%s/%s", folder, slash ? slash + 1 : path) < (int) len;
}

bool
ms_output_plan_is_stdout (const char *path)
{
  Entry e = { 0 };
  return strcmp (path, "-") == 0 || (locate (path, &e) && e.descriptor == STDOUT_FILENO);
}

/* Whether the plan holds the file at path, or a file inside a folder it
 * holds. */
static bool
plan_holds (const char *path)
{
  Entry e = { 0 };
  if (!locate (path, &e))
    return false;
  for (int i = 0; i < n_entries; i++) {
    size_t n = strlen (entries[i].where);
    if (same_place (&entries[i], &e) ||
        (entries[i].role == ROLE_FOLDER && strncmp (entries[i].where, e.where, n) == 0 &&
         e.where[n] == '/'))
      return true;
  }
  return false;
}

static bool
gate (const char *name, const char *target, int descriptor, char *err, size_t errlen)
{
  (void) target, (void) descriptor;
  if (plan_holds (name))
    return true;
  snprintf (err, errlen,
            ms_gettext ("%s: is not among the files this command said it would write: not "
                        "written"),
            name);
  errno = EPERM;
  return false;
}

/* Whether the folder at a planned file's path is another than the one
 * planned: moved away and another given its name (a process started by
 * memsweep holds no locks of its own, its supervisor's being in the
 * folder moved away, and wrote over the run in the one put there). */
static bool
folder_replaced (const Entry *now)
{
  for (int i = 0; i < n_entries; i++)
    if (strcmp (entries[i].where, now->where) == 0 && entries[i].folder_known &&
        now->folder_known)
      return entries[i].folder_dev != now->folder_dev || entries[i].folder_ino != now->folder_ino;
  return false;
}

/* Just before a planned file is renamed into place: its folder is the one
 * planned and its hold is still ours, or another command may have written
 * it meanwhile. */
static bool
still_held (const char *name, const char *target, int descriptor, char *err, size_t errlen)
{
  Entry e = { 0 };
  (void) descriptor;
  if (!locate (target, &e))
    return true;
  if (folder_replaced (&e)) {
    snprintf (err, errlen,
              ms_gettext ("%s: its folder was moved away meanwhile and another now has its "
                          "name: not written there"),
              name);
    errno = EBUSY;
    return false;
  }
  return ms_output_lock_still_held (name, e.where, err, errlen);
}

void
ms_output_plan_start (void)
{
  ms_output_lock_start ();
  ms_atomic_file_set_gate (gate);
  ms_atomic_file_set_commit_gate (still_held);
}
