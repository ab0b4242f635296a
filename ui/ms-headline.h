/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-headline.h: a slide's one line (a lesson's takeaway), which gives up
 * some of its size, down to a floor a class can still read, rather than
 * wrap; past the floor it wraps. Its font comes from its CSS classes
 * (the label inside inherits them). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MS_TYPE_HEADLINE (ms_headline_get_type ())
G_DECLARE_FINAL_TYPE (MsHeadline, ms_headline, MS, HEADLINE, GtkWidget)

/* The least share of its CSS font size a headline shrinks to. */
#define MS_HEADLINE_FLOOR 0.8

void ms_headline_set_text (MsHeadline *self, const char *text);
/* The label that shows the text (selectable, wrapping past the floor). */
GtkLabel *ms_headline_get_label (MsHeadline *self);
/* The share of its CSS font size the text is drawn at (1 when it fits). */
double ms_headline_get_scale (MsHeadline *self);
/* Whether the size drawn was fitted to the width it has now. */
gboolean ms_headline_is_fitted (MsHeadline *self);

G_END_DECLS
