/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-variant-text.h: a lesson's variant ("stores=streamed/read=wc") in
 * words, for tooltips and filters; files keep the ids. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One line per part of the variant, each "part: what it means"; a part
 * without a known meaning comes as it is. */
char *ms_variant_describe (const char *variant);

G_END_DECLS
