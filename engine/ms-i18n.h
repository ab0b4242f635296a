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
#include <stdlib.h>

#ifndef GETTEXT_PACKAGE
#error "GETTEXT_PACKAGE must be defined by the build"
#endif

/* Marks a string for translation where it is stored (tables); translate it
 * with ms_gettext where it is shown. */
#define MS_N_(s) (s)
#define ms_gettext(s) dgettext (GETTEXT_PACKAGE, s)
#define ms_ngettext(s, p, n) dngettext (GETTEXT_PACKAGE, s, p, n)

/* Binds the catalogue: $MEMSWEEP_LOCALEDIR (uninstalled builds, tests) or
 * the installed locale folder. The program still calls setlocale. */
static inline void
ms_i18n_bind (void)
{
  const char *dir = getenv ("MEMSWEEP_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, dir && *dir ? dir : MS_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
