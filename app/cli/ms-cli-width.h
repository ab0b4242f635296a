/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-width.h: text measured and padded in terminal columns, so that
 * every text table lines up in every language. Defined in ms-cli-width.c. */
#pragma once

#include <stdio.h>

/* Terminal columns of text in the current locale: wcswidth of its wide
 * characters (a CJK character takes two). Where the text is not valid in
 * the locale's encoding, or holds a character wcswidth cannot place, its
 * code points (UTF-8 lead bytes) are counted instead. */
int ms_cli_text_width (const char *text);

/* text padded with spaces to width terminal columns: right-aligned for
 * width > 0, left-aligned for width < 0 (as "%*s" and "%-*s" do with
 * bytes). Text wider than the column is written whole. */
void ms_cli_put_padded (FILE *out, const char *text, int width);
