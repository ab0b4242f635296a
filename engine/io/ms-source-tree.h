/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-source-tree.h: the source tree's data, for a program run from its
 * build tree before it is installed (ms-source-tree.c). */
#pragma once

/* The source tree's data/NAME ("reference", "profiles", "envelopes.csv")
 * when the program runs from a meson build tree, whatever its folder;
 * NULL when it runs installed. Lives as long as the program. */
const char *ms_source_data (const char *name);
