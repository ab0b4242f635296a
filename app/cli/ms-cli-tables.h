/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-tables.h: the plain-text tables of the command line, and text
 * measured and padded in terminal columns, so that every text table lines
 * up in every language (ms-cli-tables.c). */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "memsweep.h"

void ms_report_device (FILE *out, const MsDeviceInfo *info);
/* The run's device and what its cells hold; with_settings adds the sweep
 * settings (a file's metadata may lack them). */
void ms_report_header (FILE *out, const MsResults *results, bool with_settings);
void ms_report_table (FILE *out, const MsResults *results);
/* Whether a cell's statistics are shown: an ok cell's, and a partial
 * one's (the repetitions it finished). */
bool ms_report_has_numbers (const MsCell *cell);

/* Text from a file or a device, with control characters and invalid UTF-8
 * escaped, into OUT; returns OUT. */
const char *ms_report_clean (const char *in, char *out, size_t len);

/* Terminal columns of text in the current locale: wcswidth of its wide
 * characters (a CJK character takes two). Where the text is not valid in
 * the locale's encoding, or holds a character wcswidth cannot place, its
 * code points (UTF-8 lead bytes) are counted instead. */
int ms_cli_text_width (const char *text);

/* text padded with spaces to width terminal columns: right-aligned for
 * width > 0, left-aligned for width < 0 (as "%*s" and "%-*s" do with
 * bytes). Text wider than the column is written whole. */
void ms_cli_put_padded (FILE *out, const char *text, int width);
