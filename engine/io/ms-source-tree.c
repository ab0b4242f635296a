/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-source-tree.c: the source tree's data, for a program run from its
 * build tree (ms-source-tree.h). Found when the program runs, from its
 * own path and the build tree's meson-info/meson-info.json, so that no
 * folder of the machine that built memsweep is compiled into it: an
 * installed program has no build tree above it, and finds none. */
#define _POSIX_C_SOURCE 200809L
#include <json-c/json.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ms-source-tree.h"

/* How far above the program the build tree's top may be: build/bench/,
 * build/app/cli/, build/tests/engine/. */
#define MAX_DEPTH 3
/* The names asked for (a handful), each path made once. */
#define MAX_NAMES 8

static char data_dir[PATH_MAX];
static pthread_once_t data_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  const char *name;
  char *path;
} names[MAX_NAMES];

/* The source folder that the build tree at top was configured from. */
static void
read_source (const char *top)
{
  char info[PATH_MAX + 64];
  snprintf (info, sizeof info, "%s/meson-info/meson-info.json", top);
  if (access (info, R_OK) != 0)
    return;
  json_object *doc = json_object_from_file (info), *dirs, *source;
  if (doc && json_object_object_get_ex (doc, "directories", &dirs) &&
      json_object_object_get_ex (dirs, "source", &source) &&
      json_object_is_type (source, json_type_string) &&
      strlen (json_object_get_string (source)) + sizeof "/data" <= sizeof data_dir)
    snprintf (data_dir, sizeof data_dir, "%s/data", json_object_get_string (source));
  json_object_put (doc);
}

static void
find_data_dir (void)
{
  char dir[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", dir, sizeof dir - 1);
  if (n <= 0)
    return;
  dir[n] = '\0';
  for (int depth = 0; depth <= MAX_DEPTH && !data_dir[0]; depth++) {
    char *slash = strrchr (dir, '/');
    if (!slash || slash == dir)
      return;
    *slash = '\0';
    read_source (dir);
  }
}

const char *
ms_source_data (const char *name)
{
  pthread_once (&data_once, find_data_dir);
  if (!data_dir[0] || !name)
    return NULL;
  const char *path = NULL;
  pthread_mutex_lock (&names_lock);
  int i = 0;
  for (; i < MAX_NAMES && names[i].name && strcmp (names[i].name, name) != 0; i++)
    ;
  if (i < MAX_NAMES && !names[i].name) {
    size_t len = strlen (data_dir) + 1 + strlen (name) + 1;
    names[i].path = malloc (len);
    if (names[i].path) {
      snprintf (names[i].path, len, "%s/%s", data_dir, name);
      names[i].name = names[i].path + strlen (data_dir) + 1;
    }
  }
  if (i < MAX_NAMES)
    path = names[i].path;
  pthread_mutex_unlock (&names_lock);
  return path;
}
