/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-width.c: text measured and padded in terminal columns. printf's
 * "%-12s" pads by bytes: a translated heading of CJK characters (three
 * bytes, two columns each) came out short, and the rows below it no longer
 * lined up. */
#define _XOPEN_SOURCE 700 /* wcswidth */
#include "ms-cli-width.h"

#include <stdlib.h>
#include <wchar.h>

/* Code points of UTF-8 text: its bytes but continuation bytes. */
static int
code_points (const char *text)
{
  int n = 0;
  for (const char *p = text; *p; p++)
    n += ((unsigned char) *p & 0xc0) != 0x80;
  return n;
}

int
ms_cli_text_width (const char *text)
{
  if (!text || !*text)
    return 0;
  size_t n = mbstowcs (NULL, text, 0);
  if (n == (size_t) -1)
    return code_points (text);
  wchar_t small[256], *wide = n < 256 ? small : malloc ((n + 1) * sizeof *wide);
  if (!wide)
    return code_points (text);
  mbstowcs (wide, text, n + 1);
  int width = wcswidth (wide, n);
  if (wide != small)
    free (wide);
  return width >= 0 ? width : code_points (text);
}

void
ms_cli_put_padded (FILE *out, const char *text, int width)
{
  int pad = abs (width) - ms_cli_text_width (text);
  if (width < 0)
    fputs (text, out);
  for (; pad > 0; pad--)
    fputc (' ', out);
  if (width > 0)
    fputs (text, out);
}
