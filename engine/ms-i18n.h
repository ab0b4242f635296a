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
#include <locale.h>
#include <stdlib.h>

#ifndef GETTEXT_PACKAGE
#error "GETTEXT_PACKAGE must be defined by the build"
#endif

/* Marks a string for translation where it is stored (tables); translate it
 * with ms_gettext where it is shown. */
#define MS_N_(s) (s)
#define ms_gettext(s) ms_i18n_gettext (s)
#define ms_ngettext(s, p, n) ms_i18n_ngettext (s, p, n)

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

__attribute__ ((format_arg (1), format_arg (2))) static inline const char *
ms_i18n_ngettext (const char *msgid, const char *plural, unsigned long n)
{
  locale_t thread = uselocale (LC_GLOBAL_LOCALE);
  const char *text = dngettext (GETTEXT_PACKAGE, msgid, plural, n);
  uselocale (thread);
  return text;
}

/* Binds the catalogue: $MEMSWEEP_LOCALEDIR (uninstalled builds, tests) or
 * the installed locale folder. The program still calls setlocale. */
static inline void
ms_i18n_bind (void)
{
  const char *dir = getenv ("MEMSWEEP_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, dir && *dir ? dir : MS_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
