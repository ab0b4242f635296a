/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-variant-text.c: variant parts in words, as the lessons' looks
 * (draw/ms-picture-NAME.c) say them. */
#include "ms-variant-text.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ms-drawing.h"

/* What part means, or NULL: a whole part's words ("stores=fresh"), or a
 * key's with its value where the words hold %s ("K=4"). */
static char *
part_text (const char *part)
{
  const MsVariantWords *w = ms_lesson_variant_words (part);
  if (!w)
    return NULL;
  if (strchr (w->part, '='))
    return g_strdup (_(w->words));
  GString *text = g_string_new (_(w->words));
  g_string_replace (text, "%s", strchr (part, '=') + 1, 1);
  return g_string_free (text, FALSE);
}

char *
ms_variant_describe (const char *variant)
{
  g_auto (GStrv) split = g_strsplit (variant ? variant : "", "/", -1);
  GString *out = g_string_new (NULL);
  for (guint i = 0; split[i]; i++) {
    if (!split[i][0])
      continue;
    g_autofree char *part = g_utf8_make_valid (split[i], -1);
    g_autofree char *text = part_text (part);
    if (out->len)
      g_string_append_c (out, '\n');
    if (text)
      /* TRANSLATORS: a variant's part and what it means. */
      g_string_append_printf (out, C_ ("variant part", "%s: %s"), part, text);
    else
      g_string_append (out, part);
  }
  return g_string_free (out, FALSE);
}
