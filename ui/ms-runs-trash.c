/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runs-trash.c: deleted runs kept aside until their undo ends; see the
 * header for the rules. Every step inside .trash goes through descriptors
 * opened with O_NOFOLLOW, so that a link put there never leads elsewhere. */
#include "ms-runs-trash.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-engine.h"

#define TRASH ".trash"

struct _MsRunsTrash {
  char *folder;
  int root_fd;    /* .trash, or -1 until the first delete */
  int own_fd;     /* this instance's folder in it, or -1 */
  char *own_name; /* its name in .trash */
  guint last_id;
  GHashTable *items; /* id -> Item */
};

typedef struct {
  /* Where they were; summary and meta (the sidecar) NULL when there was none. */
  char *samples, *summary, *meta;
} Item;

static void
item_free (gpointer data)
{
  Item *item = data;
  g_free (item->samples);
  g_free (item->summary);
  g_free (item->meta);
  g_free (item);
}

MsRunsTrash *
ms_runs_trash_new (const char *folder)
{
  MsRunsTrash *trash = g_new0 (MsRunsTrash, 1);
  trash->folder = g_strdup (folder);
  trash->root_fd = trash->own_fd = -1;
  trash->items = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, item_free);
  return trash;
}

void
ms_runs_trash_free (MsRunsTrash *trash)
{
  if (!trash)
    return;
  ms_runs_trash_purge_all (trash);
  g_hash_table_unref (trash->items);
  g_free (trash->folder);
  g_free (trash);
}

gboolean
ms_runs_errno_error (GError **error, int e, const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", path, g_strerror (e));
  return FALSE;
}

/* .trash itself, never through a link. */
static int
open_root (MsRunsTrash *trash, GError **error)
{
  g_autofree char *path = g_build_filename (trash->folder, TRASH, NULL);
  int folder_fd = open (trash->folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder_fd < 0) {
    ms_runs_errno_error (error, errno, trash->folder);
    return -1;
  }
  if (mkdirat (folder_fd, TRASH, 0700) != 0 && errno != EEXIST) {
    ms_runs_errno_error (error, errno, path);
    close (folder_fd);
    return -1;
  }
  struct stat st;
  int fd = -1;
  if (fstatat (folder_fd, TRASH, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR (st.st_mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                 _("%s is not a folder: deleted runs are not put there"), path);
  else if ((fd = openat (folder_fd, TRASH, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    ms_runs_errno_error (error, errno, path);
  close (folder_fd);
  return fd;
}

/* This instance's own folder in .trash, made the first time. */
static gboolean
open_own (MsRunsTrash *trash, GError **error)
{
  if (trash->own_fd >= 0)
    return TRUE;
  if (trash->root_fd < 0 && (trash->root_fd = open_root (trash, error)) < 0)
    return FALSE;
  for (int attempt = 0; attempt < 100; attempt++) {
    g_autofree char *name = g_strdup_printf ("%d-%08x", (int) getpid (), g_random_int ());
    if (mkdirat (trash->root_fd, name, 0700) != 0) {
      if (errno == EEXIST)
        continue;
      g_autofree char *path = g_build_filename (trash->folder, TRASH, name, NULL);
      return ms_runs_errno_error (error, errno, path);
    }
    trash->own_fd = openat (trash->root_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (trash->own_fd < 0) {
      g_autofree char *path = g_build_filename (trash->folder, TRASH, name, NULL);
      return ms_runs_errno_error (error, errno, path);
    }
    trash->own_name = g_steal_pointer (&name);
    return TRUE;
  }
  return ms_runs_errno_error (error, EEXIST, trash->folder);
}

/* rename that never replaces what is at to (renameat2's RENAME_NOREPLACE,
 * or a look first where the file system has no such rename). */
static int
move_no_replace (int from_fd, const char *from, int to_fd, const char *to)
{
  if (renameat2 (from_fd, from, to_fd, to, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
  struct stat st;
  if (fstatat (to_fd, to, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    errno = EEXIST;
    return -1;
  }
  return renameat (from_fd, from, to_fd, to);
}

static char *
trash_name (guint id, const char *kind)
{
  return g_strdup_printf ("%u-%s.csv", id, kind);
}

/* Whether a file (or a link) is at path. */
static gboolean
is_there (const char *path)
{
  struct stat st;
  return lstat (path, &st) == 0;
}

/* Moves a run's files, from[k] (by from_fd) to to[k] (by to_fd), those
 * named on both sides (the samples, the summary, the metadata); all or
 * nothing: never a split run, what was moved goes back. */
static gboolean
move_run (int from_fd, const char *const from[3], int to_fd, const char *const to[3],
          GError **error)
{
  for (int k = 0; k < 3; k++) {
    if (!from[k] || !to[k] || move_no_replace (from_fd, from[k], to_fd, to[k]) == 0)
      continue;
    int e = errno;
    const char *named = from_fd == AT_FDCWD ? from[k] : to[k];
    for (int back = k - 1; back >= 0; back--)
      if (from[back] && to[back])
        move_no_replace (to_fd, to[back], from_fd, from[back]);
    return ms_runs_errno_error (error, e, named);
  }
  return TRUE;
}

guint
ms_runs_trash_put (MsRunsTrash *trash, const char *samples, GError **error)
{
  char summary[4096], meta[4096];
  if (!open_own (trash, error))
    return 0;
  guint id = trash->last_id + 1;
  g_autofree char *samples_name = trash_name (id, "samples");
  g_autofree char *summary_name = trash_name (id, "summary");
  g_autofree char *meta_name = g_strdup_printf ("%u-meta.json", id);
  gboolean paired = ms_csv_pair_summary_path (samples, summary, sizeof summary) &&
                    is_there (summary);
  /* The run's metadata (PREFIX-meta.json) goes with it, or nothing does. */
  gboolean with_meta = ms_meta_sidecar_path (samples, meta, sizeof meta) && is_there (meta);
  const char *const from[] = { samples, paired ? summary : NULL, with_meta ? meta : NULL };
  const char *const to[] = { samples_name, summary_name, meta_name };
  if (!move_run (AT_FDCWD, from, trash->own_fd, to, error))
    return 0;
  Item *item = g_new0 (Item, 1);
  item->samples = g_strdup (samples);
  item->summary = paired ? g_strdup (summary) : NULL;
  item->meta = with_meta ? g_strdup (meta) : NULL;
  trash->last_id = id;
  g_hash_table_insert (trash->items, GUINT_TO_POINTER (id), item);
  return id;
}

gboolean
ms_runs_trash_restore (MsRunsTrash *trash, guint id, GError **error)
{
  Item *item = g_hash_table_lookup (trash->items, GUINT_TO_POINTER (id));
  if (!item)
    return ms_runs_errno_error (error, ENOENT, trash->folder);
  g_autofree char *samples_name = trash_name (id, "samples");
  g_autofree char *summary_name = trash_name (id, "summary");
  g_autofree char *meta_name = g_strdup_printf ("%u-meta.json", id);
  const char *const from[] = { samples_name, summary_name, meta_name };
  const char *const to[] = { item->samples, item->summary, item->meta };
  if (!move_run (trash->own_fd, from, AT_FDCWD, to, error))
    return FALSE;
  g_hash_table_remove (trash->items, GUINT_TO_POINTER (id));
  return TRUE;
}

void
ms_runs_trash_purge (MsRunsTrash *trash, guint id)
{
  Item *item = g_hash_table_lookup (trash->items, GUINT_TO_POINTER (id));
  if (!item)
    return;
  g_autofree char *samples_name = trash_name (id, "samples");
  g_autofree char *summary_name = trash_name (id, "summary");
  unlinkat (trash->own_fd, samples_name, 0);
  if (item->summary)
    unlinkat (trash->own_fd, summary_name, 0);
  if (item->meta) {
    g_autofree char *meta_name = g_strdup_printf ("%u-meta.json", id);
    unlinkat (trash->own_fd, meta_name, 0);
  }
  g_hash_table_remove (trash->items, GUINT_TO_POINTER (id));
}

void
ms_runs_trash_purge_all (MsRunsTrash *trash)
{
  g_autoptr (GList) ids = g_hash_table_get_keys (trash->items);
  for (GList *l = ids; l; l = l->next)
    ms_runs_trash_purge (trash, GPOINTER_TO_UINT (l->data));
  if (trash->own_fd >= 0) {
    close (trash->own_fd);
    /* Fails, leaving it, if anything but what this instance put is there. */
    unlinkat (trash->root_fd, trash->own_name, AT_REMOVEDIR);
    trash->own_fd = -1;
    g_clear_pointer (&trash->own_name, g_free);
  }
  if (trash->root_fd >= 0) {
    close (trash->root_fd);
    trash->root_fd = -1;
    /* .trash too once nobody's runs are left in it (a link stays). */
    int folder_fd = open (trash->folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder_fd >= 0) {
      unlinkat (folder_fd, TRASH, AT_REMOVEDIR);
      close (folder_fd);
    }
  }
}
