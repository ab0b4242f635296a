/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-variant-text.c: variant parts in words. */
#include "ms-variant-text.h"

#include <glib/gi18n.h>
#include <string.h>

/* Parts whose whole text ("stores=fresh") has a meaning. */
static const struct {
  const char *part, *text;
} parts[] = {
  { "stores=streamed",
    N_ ("the host writes the inputs with streaming stores, past the CPU cache") },
  { "stores=ordinary",
    N_ ("the host writes the inputs with ordinary stores: dirty lines stay in the CPU cache") },
  { "stores=fresh", N_ ("pinned buffers allocated anew for every repetition") },
  { "stores=kept",
    N_ ("the inputs written before the first repetition only, then sent again as they are") },
  { "read=wc", N_ ("the GPU reads write-combined host memory (not cached by the CPU)") },
  { "read=zero-copy", N_ ("the GPU reads host memory directly, without a copy") },
  { "wc=yes", N_ ("write-combined host memory") },
  { "wc=no", N_ ("ordinary (cached) pinned host memory") },
  { "copy=h2d", N_ ("copies to the GPU only") },
  { "copy=d2h", N_ ("copies back to the host only") },
  { "copy=duplex", N_ ("copies both ways at once") },
  { "copy=d2d", N_ ("a copy within the GPU's memory") },
  { "copy=h2h", N_ ("a copy within host memory") },
  { "mem=pinned", N_ ("page-locked (pinned) host memory") },
  { "mem=pageable", N_ ("ordinary (pageable) host memory") },
  { "streams=one", N_ ("all work on one stream") },
  { "streams=many", N_ ("one stream per kernel") },
  { "touch=first", N_ ("the first touch: pages migrate on demand") },
  { "touch=resident", N_ ("pages already on the GPU") },
  { "access=read", N_ ("the kernel only reads the data") },
  { "access=write", N_ ("the kernel only writes the data") },
  { "access=write-in-kernel", N_ ("one kernel writes each element R times in a row") },
  { "around=plain", N_ ("no instrumented repetition between the timed ones") },
  { "around=kept", N_ ("the inputs not rewritten before every repetition") },
  { "call=each", N_ ("one API call per copy") },
  { "call=batch", N_ ("the copies in one batched call") },
  { "queue=default", N_ ("on the default stream") },
  { "order=breadth", N_ ("issued breadth first: each step for every stream in turn") },
  { "order=depth", N_ ("issued depth first: one stream's steps, then the next's") },
  { "stream=legacy", N_ ("the legacy default stream, shared by all threads") },
  { "stream=per-thread", N_ ("a default stream per host thread") },
  { "host=work", N_ ("the host does work of its own meanwhile") },
};

/* Keys whose value is a number said as it is ("K=4"). */
static char *
key_text (const char *key, const char *value)
{
  if (g_str_equal (key, "K"))
    /* TRANSLATORS: %s is a number from a variant ("K=4"). */
    return g_strdup_printf (_("%s streams or kernels side by side"), value);
  if (g_str_equal (key, "R"))
    /* TRANSLATORS: %s is a number from a variant ("R=16"). */
    return g_strdup_printf (_("each input byte reused %s times by the kernel"), value);
  if (g_str_equal (key, "F"))
    /* TRANSLATORS: %s is a number from a variant ("F=64"). */
    return g_strdup_printf (_("%s operations per element (arithmetic intensity)"), value);
  if (g_str_equal (key, "n"))
    /* TRANSLATORS: %s is a number from a variant ("n=256"). */
    return g_strdup_printf (_("%s copies"), value);
  if (g_str_equal (key, "threads"))
    /* TRANSLATORS: %s is a number from a variant ("threads=2"). */
    return g_strdup_printf (_("%s host threads"), value);
  return NULL;
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
    const char *text = NULL;
    g_autofree char *made = NULL;
    for (guint j = 0; j < G_N_ELEMENTS (parts) && !text; j++)
      if (g_str_equal (part, parts[j].part))
        text = _(parts[j].text);
    char *eq = strchr (part, '=');
    if (!text && eq) {
      g_autofree char *key = g_strndup (part, eq - part);
      text = made = key_text (key, eq + 1);
    }
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
