/* SPDX-License-Identifier: GPL-3.0-or-later */
/* palette-colours: proposes a mode's colours, light and dark, that pass
 * every rule of the palette (tests/fixtures/ms-palette-rules.h, the rules
 * the render-layout test holds draw/ms-palette.c to) against the other
 * modes' colours as the palette has them now.
 *
 *   palette-colours [--levels N] [--show K] [MODE]
 *
 * With MODE (its name, as in files): new colours for that mode, the
 * others kept (a colour change, or a new mode whose line holds a
 * placeholder). Without: colours for one mode more than the palette
 * holds. Searches an N-level sRGB grid (32 by default) in each style,
 * pairs light and dark colours of one hue, and prints the K best pairs
 * (5), best first, by the least distance to any other mode, as the line
 * draw/ms-palette.c takes (with MODE, whole: its marker and dash as its
 * line has them, so a placeholder's line is replaced by one of these). Exit status 0 when a pair passes every rule, 1
 * when none does (the nearest miss is printed with the rule it breaks), 2
 * on a usage error. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-modes.h"
#include "ms-palette-rules.h"

typedef struct {
  MsColor color;
  double hue, chroma; /* CIELAB, normal vision */
  double least;       /* the least distance (normal vision) to another mode */
  double slack;       /* the smallest margin over any rule of its style; < 0 fails */
} Candidate;

typedef struct {
  const Candidate *light, *dark;
  double slack, least;
} Pair;

/* The other modes' colours of one style: every mode but skip. */
static GArray *
others (gboolean dark, int skip)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (MsColor));
  for (guint i = 0; i < ms_chart_palette_size (); i++) {
    MsColor c;
    if ((int) i == skip)
      continue;
    ms_chart_palette_color (i, dark, &c);
    g_array_append_val (out, c);
  }
  return out;
}

/* How far c keeps from every other mode, as the margin over the pair rule
 * with every vision; *least the distance with normal vision. */
static double
pair_slack (const MsColor *c, gboolean dark, const GArray *rest, double *least)
{
  double slack = G_MAXDOUBLE;
  *least = G_MAXDOUBLE;
  for (guint i = 0; i < rest->len; i++)
    for (int vision = 0; vision < MS_PALETTE_VISIONS; vision++) {
      double de = ms_palette_distance (c, &g_array_index (rest, MsColor, i), vision);
      slack = MIN (slack, de - ms_palette_min_pair_distance (dark, vision));
      if (vision == 0)
        *least = MIN (*least, de);
    }
  return slack;
}

static int
by_slack (gconstpointer a, gconstpointer b)
{
  double x = ((const Candidate *) a)->slack, y = ((const Candidate *) b)->slack;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Level i of n as the 8-bit channel a LOOK_ line can hold: a colour is
 * checked as it will be pasted (on an unrounded grid, a proposed line could
 * fail render-layout's hue rule by the rounding of its hex digits). */
static double
channel (int i, int levels)
{
  return (double) lround ((double) i * 255 / (levels - 1)) / 255;
}

/* Every colour of the grid that stands apart from its background, best
 * first. */
static GArray *
candidates (gboolean dark, int skip, int levels)
{
  GArray *rest = others (dark, skip);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Candidate));
  char why[160];
  for (int r = 0; r < levels; r++)
    for (int g = 0; g < levels; g++)
      for (int b = 0; b < levels; b++) {
        Candidate k = { .color = { channel (r, levels), channel (g, levels),
                                   channel (b, levels), 1 } };
        if (!ms_palette_rule_background (&k.color, dark, why, sizeof why))
          continue;
        double lab[3];
        ms_test_lab (&k.color, 0, lab);
        k.hue = atan2 (lab[2], lab[1]);
        k.chroma = hypot (lab[1], lab[2]);
        k.slack = pair_slack (&k.color, dark, rest, &k.least);
        g_array_append_val (out, k);
      }
  g_array_sort (out, by_slack);
  g_array_unref (rest);
  return out;
}

/* For each light colour, the best dark colour of its hue (the rule's). */
static GArray *
pairs (const GArray *light, const GArray *dark)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Pair));
  char why[160];
  for (guint i = 0; i < light->len; i++) {
    const Candidate *l = &g_array_index (light, Candidate, i);
    for (guint j = 0; j < dark->len; j++) {
      const Candidate *d = &g_array_index (dark, Candidate, j);
      if (!ms_palette_rule_hue (&l->color, &d->color, why, sizeof why))
        continue;
      Pair p = { l, d, MIN (l->slack, d->slack), MIN (l->least, d->least) };
      g_array_append_val (out, p);
      break; /* dark is sorted: the first of this hue is its best */
    }
  }
  return out;
}

static int
by_pair (gconstpointer a, gconstpointer b)
{
  const Pair *x = a, *y = b;
  if (x->slack != y->slack)
    return x->slack < y->slack ? 1 : -1;
  return x->least < y->least ? 1 : x->least > y->least ? -1 : 0;
}

static guint32
hex (const MsColor *c)
{
  return (guint32) lround (c->red * 255) << 16 | (guint32) lround (c->green * 255) << 8
         | (guint32) lround (c->blue * 255);
}

/* The rule a pair breaks, or "" when it passes. */
static void
broken_rule (const Pair *p, int skip, char *why, size_t len)
{
  *why = '\0';
  for (int dark = 0; dark < 2 && !*why; dark++) {
    const MsColor *c = dark ? &p->dark->color : &p->light->color;
    GArray *rest = others (dark, skip);
    for (guint i = 0; i < rest->len && !*why; i++)
      if (!ms_palette_rule_pair (c, &g_array_index (rest, MsColor, i), dark, why, len))
        break;
    g_array_unref (rest);
  }
}

/* As draw/ms-palette.c's line: for a named mode with the marker and dash
 * its line has now (a new mode's placeholder keeps them), so that the
 * line can replace it whole; for a new mode without them. */
static void
print_pair (const Pair *p, const char *id, int mode)
{
  char shape_dash[32] = "";
  if (mode >= 0) {
    guint color, shape, dash;
    ms_mode_look ((MsMode) mode, &color, &shape, &dash);
    g_snprintf (shape_dash, sizeof shape_dash, ", %u, %u", shape, dash);
  }
  printf ("#define LOOK_%-16s 0x%06X, 0x%06X%s  /* least distance light %.1f, dark %.1f */\n",
          id, hex (&p->light->color), hex (&p->dark->color), shape_dash, p->light->least,
          p->dark->least);
}

static int
usage (void)
{
  fputs ("Usage: palette-colours [--levels N] [--show K] [MODE]\n", stderr);
  return 2;
}

int
main (int argc, char **argv)
{
  int levels = 32, show = 5, skip = -1;
  const char *name = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--levels") == 0 && i + 1 < argc)
      levels = atoi (argv[++i]);
    else if (strcmp (argv[i], "--show") == 0 && i + 1 < argc)
      show = atoi (argv[++i]);
    else if (argv[i][0] != '-' && !name)
      name = argv[i];
    else
      return usage ();
  }
  MsMode mode;
  if (levels < 2 || levels > 256 || show < 1 || (name && !ms_mode_from_name (name, &mode)))
    return usage ();
  if (name)
    skip = (int) mode;
  GArray *light = candidates (FALSE, skip, levels), *dark = candidates (TRUE, skip, levels);
  GArray *found = pairs (light, dark);
  g_array_sort (found, by_pair);
  g_autofree char *id = g_ascii_strup (name ? name : "NEW_MODE", -1);
  g_strdelimit (id, "-", '_');
  printf ("%s: %u light and %u dark colours stand apart from their background "
          "(%d levels a channel)\n", name ? name : "a new mode", light->len, dark->len, levels);
  int rc = 1;
  for (guint i = 0; i < found->len && (int) i < show; i++) {
    const Pair *p = &g_array_index (found, Pair, i);
    char why[160];
    broken_rule (p, skip, why, sizeof why);
    if (*why && i == 0)
      printf ("No pair passes every rule; the nearest miss breaks: %s\n", why);
    if (*why)
      break;
    rc = 0;
    print_pair (p, id, skip);
  }
  if (rc != 0 && found->len)
    print_pair (&g_array_index (found, Pair, 0), id, skip);
  g_array_unref (found);
  g_array_unref (light);
  g_array_unref (dark);
  return rc;
}
