/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-i18n.h: translating the engine's messages without GLib.
 *
 * glibc's gettext is part of libc, so the engine stays GLib-free. The
 * program binds GETTEXT_PACKAGE to its locale folder (the command line and
 * the app do it in main); without that the messages stay English. Only text
 * a person reads is translated: CSV keys, column names and mode, phase and
 * status identifiers stay as they are so files read back in any locale. */
#pragma once

#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GETTEXT_PACKAGE
#error "GETTEXT_PACKAGE must be defined by the build"
#endif

/* Marks a string for translation where it is stored (tables); translate it
 * with ms_gettext where it is shown. */
#define MS_N_(s) (s)
#define ms_gettext(s) ms_i18n_gettext (s)
#define ms_ngettext(s, p, n) ms_i18n_ngettext (s, p, n)
/* A message in a context, as glib's C_: the catalogue's key is the
 * context, '\004' and the message. */
#define ms_pgettext(ctx, s) ms_i18n_pgettext (ctx "\004" s, s)

/* In the program's language even where the engine has switched this thread
 * to the C locale for numbers (uselocale, as the CSV reader and writer do):
 * that would select the C locale's messages, that is none. */
__attribute__ ((format_arg (1))) static inline const char *
ms_i18n_gettext (const char *msgid)
{
  locale_t thread = uselocale (LC_GLOBAL_LOCALE);
  const char *text = dgettext (GETTEXT_PACKAGE, msgid);
  uselocale (thread);
  return text;
}

/* Untranslated, gettext gives the key back, context and all: then the
 * message alone. */
__attribute__ ((format_arg (2))) static inline const char *
ms_i18n_pgettext (const char *key, const char *msgid)
{
  const char *text = ms_i18n_gettext (key);
  return text == key || strchr (text, '\004') ? msgid : text;
}

__attribute__ ((format_arg (1), format_arg (2))) static inline const char *
ms_i18n_ngettext (const char *msgid, const char *plural, unsigned long n)
{
  locale_t thread = uselocale (LC_GLOBAL_LOCALE);
  const char *text = dngettext (GETTEXT_PACKAGE, msgid, plural, n);
  uselocale (thread);
  return text;
}

/* The catalogue of a program that runs from its meson build tree
 * (build/app/cli/memsweep, build/app/gtk/memsweep-gtk, as ./run.sh starts
 * them): that tree's po folder, where the .mo files are built; found from
 * /proc/self/exe, so nobody has to set anything. False when the program is
 * not in a build tree (installed). */
static inline int
ms_i18n_build_tree_dir (char *dir, size_t size)
{
  char exe[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return 0;
  exe[n] = '\0';
  /* Up from the program's folder, a few levels at most: the first folder
   * with a build.ninja is the build root. */
  for (int level = 0; level < 3; level++) {
    char *slash = strrchr (exe, '/');
    if (!slash || slash == exe)
      return 0;
    *slash = '\0';
    char probe[PATH_MAX + 16];
    snprintf (probe, sizeof probe, "%s/build.ninja", exe);
    if (access (probe, F_OK) == 0)
      return snprintf (dir, size, "%s/po", exe) < (int) size;
  }
  return 0;
}

/* The installed catalogue's folder found from the program's own folder
 * (bin/../share/locale): the same as MS_LOCALEDIR in a plain install, and
 * still right where the installed tree was staged or moved (DESTDIR,
 * a copied prefix). False when that folder does not exist. */
static inline int
ms_i18n_installed_dir (char *dir, size_t size)
{
  char exe[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0 || !*MS_LOCALEDIR_FROM_BINDIR)
    return 0;
  exe[n] = '\0';
  char *slash = strrchr (exe, '/');
  if (!slash)
    return 0;
  *slash = '\0';
  if (snprintf (dir, size, "%s/%s", exe, MS_LOCALEDIR_FROM_BINDIR) >= (int) size)
    return 0;
  return access (dir, F_OK) == 0;
}

/* Binds the catalogue: $MEMSWEEP_LOCALEDIR (tests) when set, else the build
 * tree's when the program runs uninstalled, else the installed one next to
 * the program, else the folder meson installs it to. The program still
 * calls setlocale. */
static inline void
ms_i18n_bind (void)
{
  const char *dir = getenv ("MEMSWEEP_LOCALEDIR");
  char found[PATH_MAX];
  if (!(dir && *dir))
    dir = ms_i18n_build_tree_dir (found, sizeof found) ||
                  ms_i18n_installed_dir (found, sizeof found)
              ? found
              : MS_LOCALEDIR;
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
