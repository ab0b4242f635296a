/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health-meta.c: the link under load and the PCIe counters in a
 * samples file's metadata (the format is in ms-health.h). The link lines
 * come before the rows that make the cells, so the reader keeps them until
 * the cells exist, as it does the unified-memory counts. */
#include <stdlib.h>
#include <string.h>

#include "ms-health-meta.h"
#include "ms-health.h"
#include "ms-meta.h"
#include "ms-modes.h"

typedef struct {
  bool whole_run; /* the run's line: every GPU cell's rounds */
  MsMode mode;
  int exponent;
  char variant[MS_VARIANT_LEN];
  int round;
  int gen, width; /* 0: unknown */
} MsLinkLine;

static void
print_link (FILE *f, int gen, int width)
{
  if (gen > 0 && width > 0)
    fprintf (f, "gen%d x%d", gen, width);
  else
    fputs ("unknown", f);
}

static void
write_counter (FILE *f, MsMetaId id, const MsLinkCounter *c)
{
  if (c->state == MS_COUNTER_NOT_READABLE)
    ms_meta_printf (f, id, "not readable");
  else if (c->state == MS_COUNTER_READ)
    ms_meta_printf (f, id, "%llu before, %llu after", (unsigned long long)c->before,
                    (unsigned long long)c->after);
}

void
ms_health_write_metadata (FILE *f, const MsResults *results, const MsHealth *h)
{
  if (h->n_gpu_cells > 0) {
    fprintf (f, "# %s: ", ms_meta_table (MS_META_PCIE_LINK_UNDER_LOAD)->key);
    print_link (f, h->gen, h->width);
    if (h->gen_max > 0 && h->width_max > 0)
      fprintf (f, " of gen%d x%d", h->gen_max, h->width_max);
    fputc ('\n', f);
  }
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (!ms_mode_uses_gpu (c->mode) || c->n_reps == 0)
      continue;
    for (int k = 0; k < c->n_rounds; k++) {
      const MsCellRound *r = &c->rounds[k];
      if (r->link_gen == h->gen && r->link_width == h->width)
        continue;
      fprintf (f, "# %s: %s %llu %s %d ", ms_meta_table (MS_META_PCIE_LINK_UNDER_LOAD_CELL)->key,
               ms_mode_name (c->mode), (unsigned long long)c->elements,
               c->variant[0] ? c->variant : "-", r->round);
      print_link (f, r->link_gen, r->link_width);
      fputc ('\n', f);
    }
  }
  write_counter (f, MS_META_PCIE_CORRECTABLE_ERRORS, &results->aer_correctable);
  write_counter (f, MS_META_PCIE_REPLAYS, &results->replays);
}

bool
ms_health_read_metadata (MsResults *results, const char *key, const char *value)
{
  MsLinkCounter *c;
  switch (ms_meta_lookup (key)) {
  case MS_META_PCIE_CORRECTABLE_ERRORS:
    c = &results->aer_correctable;
    break;
  case MS_META_PCIE_REPLAYS:
    c = &results->replays;
    break;
  default:
    return false;
  }
  /* "N before, M after" or "not readable"; anything else is refused. */
  unsigned long long before, after;
  int used = 0;
  if (strcmp (value, "not readable") == 0)
    *c = (MsLinkCounter){ .state = MS_COUNTER_NOT_READABLE };
  else if (value[0] < '0' || value[0] > '9' || !strstr (value, " before, ")
           || sscanf (value, "%20llu before, %20llu after%n", &before, &after, &used) != 2
           || value[used] != '\0' || strchr (value, '-'))
    ms_meta_refuse (results, key);
  else
    *c = (MsLinkCounter){ .state = MS_COUNTER_READ, .before = before, .after = after };
  return true;
}

/* "gen5 x16" (then the end or a blank) or "unknown"; the rest after it in
 * *end. */
static bool
parse_link (const char *s, int *gen, int *width, const char **end)
{
  int used = 0;
  if (strncmp (s, "unknown", 7) == 0) {
    *gen = *width = 0;
    *end = s + 7;
    return true;
  }
  if (strncmp (s, "gen", 3) != 0 || s[3] < '1' || s[3] > '9'
      || sscanf (s, "gen%2d x%2d%n", gen, width, &used) != 2 || *gen < 1 || *gen > 7 || *width < 1
      || *width > 32 || (s[used] != '\0' && s[used] != ' '))
    return false;
  *end = s + used;
  return true;
}

/* "MODE ELEMENTS VARIANT ROUND LINK"; false when malformed. */
static bool
parse_cell_line (const char *value, MsLinkLine *out)
{
  char mode[24], variant[MS_VARIANT_LEN], elements[24];
  int used = 0;
  const char *end;
  if (sscanf (value, "%23s %23s %47s %3d %n", mode, elements, variant, &out->round, &used) != 4
      || !ms_mode_from_name (mode, &out->mode)
      || strspn (elements, "0123456789") != strlen (elements) || strlen (elements) > 19
      || out->round < 0 || out->round >= MS_MAX_ROUNDS)
    return false;
  out->exponent = ms_exponent_of_elements (strtoull (elements, NULL, 10));
  snprintf (out->variant, sizeof out->variant, "%s", strcmp (variant, "-") ? variant : "");
  return out->exponent >= 0 && parse_link (value + used, &out->gen, &out->width, &end)
         && *end == '\0';
}

bool
ms_link_pending_take (MsMetaPending *pending, MsMetaId id, const char *value)
{
  const char *end;
  bool whole_run = id == MS_META_PCIE_LINK_UNDER_LOAD;
  if (!whole_run && id != MS_META_PCIE_LINK_UNDER_LOAD_CELL)
    return false;
  MsLinkLine l = { .whole_run = whole_run };
  if (whole_run ? parse_link (value, &l.gen, &l.width, &end) : parse_cell_line (value, &l))
    ms_meta_pending_add (pending, &l, sizeof l);
  return true;
}

static void
attach_line (const MsLinkLine *l, MsResults *results)
{
  for (size_t i = 0; i < results->n_cells; i++) {
    MsCell *c = &results->cells[i];
    if (!ms_mode_uses_gpu (c->mode)
        || (!l->whole_run
            && (c->mode != l->mode || c->exponent != l->exponent
                || strcmp (c->variant, l->variant) != 0)))
      continue;
    for (int k = 0; k < c->n_rounds; k++)
      if (l->whole_run || c->rounds[k].round == l->round) {
        c->rounds[k].link_gen = l->gen;
        c->rounds[k].link_width = l->width;
      }
  }
}

void
ms_link_pending_attach (const MsMetaPending *pending, MsResults *results)
{
  const MsLinkLine *lines = pending->items;
  /* The run's line first: the cells' lines are its exceptions. */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < pending->n; i++)
      if (lines[i].whole_run == (pass == 0))
        attach_line (&lines[i], results);
}
