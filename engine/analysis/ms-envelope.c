/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-envelope.c: reference envelopes read from their CSV file and a run
 * judged against them (ms-envelope.h; the file's format in
 * docs/envelopes.md). */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ms-csv-number.h"
#include "ms-envelope.h"
#include "ms-file-kinds.h"
#include "ms-health.h"
#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-names.h"
#include "ms-source-tree.h"
#include "ms-results.h"
#include "ms-rounds.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

#define MS_ENV_MAX_ROWS 4096

typedef struct {
  const char *id, *label, *unit;
  MsMode mode;
  int exponent;
  const char *variant;
  int what; /* 0 copy to device, 1 copy to host, 2 end-to-end latency, 3 duplex */
} FigureDef;

static const FigureDef figures[MS_ENV_N_FIGURES] = {
  [MS_ENV_PINNED_H2D_4M]
  = { "pinned-h2d-4MiB", MS_N_ ("pinned h2d at 4 MiB"), "GB/s", MS_MODE_PINNED, 20, "", 0 },
  [MS_ENV_PINNED_D2H_4M]
  = { "pinned-d2h-4MiB", MS_N_ ("pinned d2h at 4 MiB"), "GB/s", MS_MODE_PINNED, 20, "", 1 },
  [MS_ENV_PINNED_H2D_256M]
  = { "pinned-h2d-256MiB", MS_N_ ("pinned h2d at 256 MiB"), "GB/s", MS_MODE_PINNED, 26, "", 0 },
  [MS_ENV_PINNED_D2H_256M]
  = { "pinned-d2h-256MiB", MS_N_ ("pinned d2h at 256 MiB"), "GB/s", MS_MODE_PINNED, 26, "", 1 },
  [MS_ENV_PAGEABLE_H2D_4M]
  = { "pageable-h2d-4MiB", MS_N_ ("pageable h2d at 4 MiB"), "GB/s", MS_MODE_PAGEABLE, 20, "", 0 },
  [MS_ENV_PAGEABLE_H2D_256M] = { "pageable-h2d-256MiB", MS_N_ ("pageable h2d at 256 MiB"), "GB/s",
                                 MS_MODE_PAGEABLE, 26, "", 0 },
  [MS_ENV_DUPLEX_16M] = { "duplex-16MiB", MS_N_ ("duplex copies at 16 MiB"), "GB/s", MS_MODE_PINNED,
                          22, "copy=duplex", 3 },
  [MS_ENV_PINNED_LATENCY_4K] = { "pinned-latency-4KiB", MS_N_ ("pinned end-to-end at 4 KiB"), "us",
                                 MS_MODE_PINNED, 10, "", 2 },
};

MS_DEFINE_LOOKUP (ms_env_figure_id, const char *, MsEnvFigure, MS_ENV_N_FIGURES, figures[i].id, "")
MS_DEFINE_LOOKUP (ms_env_figure_label, const char *, MsEnvFigure, MS_ENV_N_FIGURES,
                  ms_gettext (figures[i].label), "")
MS_DEFINE_LOOKUP (ms_env_figure_unit, const char *, MsEnvFigure, MS_ENV_N_FIGURES,
                  figures[i].unit, "")

bool
ms_env_figure_value (const MsResults *results, MsEnvFigure f, double *value)
{
  const FigureDef *d = &figures[f];
  const MsCell *c = ms_results_find_variant (results, d->mode, d->exponent, d->variant);
  double v = 0;
  if (!c || (c->status != MS_CELL_OK && c->status != MS_CELL_PARTIAL))
    return false;
  if (d->what <= 1)
    v = ms_cell_copy_gbps (c, d->what == 0);
  else if (c->stats.e2e.n > 0 && c->stats.e2e.median > 0)
    v = d->what == 2 ? c->stats.e2e.median
                     : 2.0 * ms_vector_bytes (c->elements) / c->stats.e2e.median * 1e-3;
  if (!(v > 0))
    return false;
  *value = v;
  return true;
}

/* ---- reading --------------------------------------------------------------- */

/* A row as the file has it, each field as text checked below; a field of
 * FIELD_MAX bytes or more is refused, not cut. */
enum { FIELD_MAX = 600 };
typedef struct {
  char gpu[FIELD_MAX + 1], link[FIELD_MAX + 1], figure[FIELD_MAX + 1], low[FIELD_MAX + 1],
    high[FIELD_MAX + 1], unit[FIELD_MAX + 1], source[FIELD_MAX + 1];
} EnvFields;

#define ENV_COLUMN(name) { #name, MS_SMALL_TEXT, offsetof (EnvFields, name), FIELD_MAX + 1 }
static const MsSmallColumn env_columns[] = {
  ENV_COLUMN (gpu), ENV_COLUMN (link), ENV_COLUMN (figure), ENV_COLUMN (low),
  ENV_COLUMN (high), ENV_COLUMN (unit), ENV_COLUMN (source),
};
#undef ENV_COLUMN

typedef struct {
  MsEnvelopes *env;
  int cap_rows; /* room in env->rows */
  EnvFields fields; /* the row being read */
} EnvReader;

/* The file's table: its header row is its columns' names. Its rows are
 * read one by one (ms_small_read_row), each refused alone. */
static const MsSmallFormat env_format = {
  MS_SMALL_TABLE (env_columns, EnvFields),
};

/* Notes a refused row, "path:line: why"; returns false. */
static bool
note_refusal (MsEnvelopes *env, const char *entry)
{
  env->n_refused++;
  size_t used = strlen (env->problems);
  if (used + strlen (entry) + 1 < sizeof env->problems)
    snprintf (env->problems + used, sizeof env->problems - used, "%s\n", entry);
  return false;
}

static bool
refuse (MsEnvelopes *env, int line, const char *fmt, ...)
{
  char why[300], entry[900];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  snprintf (entry, sizeof entry, "%s:%d: %s", env->path, line, why);
  return note_refusal (env, entry);
}

/* "gen5 x16" exactly. */
static bool
parse_link (const char *s, int *gen, int *width)
{
  int used = 0;
  return strncmp (s, "gen", 3) == 0 && s[3] >= '1' && s[3] <= '9'
         && sscanf (s, "gen%2d x%2d%n", gen, width, &used) == 2 && s[used] == '\0' && *gen >= 1
         && *gen <= 7 && *width >= 1 && *width <= 32 && strchr (s, '+') == NULL
         && strchr (s + 4, ' ') == strrchr (s, ' ');
}

/* A GPU name: letters, digits, blanks and '-', as in a device's name. */
static bool
valid_gpu (const char *s)
{
  size_t n = strlen (s);
  if (n == 0 || n >= sizeof ((MsEnvRow *)0)->gpu || s[0] == ' ' || s[n - 1] == ' ')
    return false;
  for (const char *p = s; *p; p++)
    if (!isalnum ((unsigned char)*p) && *p != ' ' && *p != '-')
      return false;
  return true;
}

static MS_DEFINE_FROM_NAME (parse_figure, MsEnvFigure, figures, MS_ENV_N_FIGURES)

static bool
parse_value (const char *s, double *v)
{
  return ms_csv_parse_decimal (s, strlen (s), v) && *v >= 0 && *v < 1e7;
}

/* One data row: kept (true), or refused with why. */
static bool
take_row (EnvReader *er, char *line, size_t len, int lineno)
{
  MsEnvelopes *env = er->env;
  MsEnvRow row = { .line = lineno };
  size_t bad;
  EnvFields *ef = &er->fields;
  char entry[900];
  MsSmallReader rd = { .path = env->path, .line = lineno, .err = entry, .errlen = sizeof entry };
  if (!ms_small_read_row (&rd, &env_format, line, len, ef))
    return note_refusal (env, entry);
  char *f[] = { ef->gpu, ef->link, ef->figure, ef->low, ef->high, ef->unit, ef->source };
  bool too_long = false;
  for (int i = 0; i < 7; i++)
    too_long = too_long || strlen (f[i]) >= FIELD_MAX;
  if (too_long || !ms_utf8_valid (line, len, &bad))
    return refuse (env, lineno, ms_gettext ("a field is too long or not UTF-8"));
  if (!valid_gpu (f[0]))
    return refuse (env, lineno,
                   ms_gettext ("GPU '%.40s' is not a name (letters, digits, "
                               "blanks, '-')"),
                   f[0]);
  if (!parse_link (f[1], &row.gen, &row.width))
    return refuse (env, lineno, ms_gettext ("link '%.40s' is not of the form gen5 x16"), f[1]);
  if (!parse_figure (f[2], &row.figure))
    return refuse (env, lineno, ms_gettext ("'%.40s' is not a figure memsweep knows"), f[2]);
  if (!parse_value (f[3], &row.low) || !parse_value (f[4], &row.high) || row.high <= 0
      || row.low > row.high)
    return refuse (env, lineno,
                   ms_gettext ("the range '%.20s'..'%.20s' is not two numbers "
                               "with low <= high"),
                   f[3], f[4]);
  if (strcmp (f[5], figures[row.figure].unit) != 0)
    return refuse (env, lineno, ms_gettext ("unit '%.20s' where %s is in %s"), f[5],
                   figures[row.figure].id, figures[row.figure].unit);
  for (int i = 0; i < env->n_rows; i++) {
    const MsEnvRow *o = &env->rows[i];
    if (o->figure == row.figure && o->gen == row.gen && o->width == row.width
        && strcasecmp (o->gpu, f[0]) == 0)
      return refuse (env, lineno,
                     ms_gettext ("a second row for %s on gen%d x%d %s (first on "
                                 "line %d)"),
                     f[0], row.gen, row.width, figures[row.figure].id, o->line);
  }
  if (env->n_rows >= MS_ENV_MAX_ROWS)
    return refuse (env, lineno, ms_gettext ("more than %d rows"), MS_ENV_MAX_ROWS);
  snprintf (row.gpu, sizeof row.gpu, "%s", f[0]);
  for (char *p = f[6]; *p; p++)
    if ((unsigned char)*p < ' ')
      *p = ' ';
  ms_utf8_copy (row.source, sizeof row.source, f[6]);
  if (env->n_rows == er->cap_rows) {
    int cap = er->cap_rows ? 2 * er->cap_rows : 32;
    MsEnvRow *grown = realloc (env->rows, (size_t)cap * sizeof *grown);
    if (!grown)
      return refuse (env, lineno, ms_gettext ("out of memory"));
    env->rows = grown;
    er->cap_rows = cap;
  }
  env->rows[env->n_rows++] = row;
  return true;
}

static bool
parse_text (EnvReader *er, char *text, char *err, size_t errlen)
{
  MsEnvelopes *env = er->env;
  bool have_header = false;
  int lineno = 0;
  char *next;
  for (char *line = text; line; line = next) {
    next = strchr (line, '\n');
    if (next)
      *next++ = '\0';
    lineno++;
    size_t len = strlen (line);
    if (len && line[len - 1] == '\r')
      line[--len] = '\0';
    if (len == 0 || line[0] == '#')
      continue;
    if (!have_header) {
      /* A file of another kind is refused whole: its rows mean nothing here. */
      if (strcmp (line, MS_ENVELOPES_HEADER) != 0) {
        snprintf (err, errlen,
                  ms_gettext ("%s:%d: not an envelope file: the header row must be %s"), env->path,
                  lineno, MS_ENVELOPES_HEADER);
        return false;
      }
      have_header = true;
      continue;
    }
    take_row (er, line, len, lineno);
  }
  if (!have_header) {
    snprintf (err, errlen, ms_gettext ("%s:%d: not an envelope file: no header row"), env->path,
              lineno);
    return false;
  }
  return true;
}

MsEnvelopes *
ms_envelopes_read (const char *path, char *err, size_t errlen)
{
  char *text = ms_small_file_read (path, err, errlen);
  if (!text)
    return NULL;
  MsEnvelopes *env = calloc (1, sizeof *env);
  EnvReader *er = calloc (1, sizeof *er);
  bool ok = env && er;
  if (!ok)
    snprintf (err, errlen, ms_gettext ("out of memory"));
  else {
    ms_utf8_copy (env->path, sizeof env->path, path);
    er->env = env;
    ok = parse_text (er, text, err, errlen);
  }
  free (er);
  free (text);
  if (!ok) {
    ms_envelopes_free (env);
    return NULL;
  }
  return env;
}

void
ms_envelopes_free (MsEnvelopes *env)
{
  if (!env)
    return;
  free (env->rows);
  free (env);
}

bool
ms_envelopes_default_path (char *buf, size_t len)
{
  const char *env = getenv ("MEMSWEEP_ENVELOPES");
  const char *candidates[] = {
    env && env[0] ? env : NULL,
#ifdef MS_ENVELOPES_PATH
    MS_ENVELOPES_PATH,
#endif
    ms_source_data ("envelopes.csv"),
  };
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
    if (candidates[i] && (candidates[i] == env || access (candidates[i], R_OK) == 0)) {
      snprintf (buf, len, "%s", candidates[i]);
      return true;
    }
  return false;
}

/* ---- judging ------------------------------------------------------------- */

/* Whether name holds gpu as a word ("H100" in "NVIDIA H100 80GB HBM3",
 * not in "H1000"), ignoring case. */
static bool
name_holds (const char *name, const char *gpu)
{
  size_t n = strlen (gpu);
  for (const char *p = name; (p = strcasestr (p, gpu)); p++) {
    bool start = p == name || !isalnum ((unsigned char)p[-1]);
    bool end = !isalnum ((unsigned char)p[n]);
    if (start && end)
      return true;
  }
  return false;
}

/* The envelope's GPU name that matches the device best (the longest). */
static const char *
match_gpu (const MsEnvelopes *env, const char *device)
{
  const char *best = NULL;
  for (int i = 0; env && i < env->n_rows; i++)
    if (name_holds (device, env->rows[i].gpu)
        && (!best || strlen (env->rows[i].gpu) > strlen (best)))
      best = env->rows[i].gpu;
  return best;
}

static const MsEnvRow *
find_row (const MsEnvelopes *env, const char *gpu, int gen, int width, MsEnvFigure f)
{
  for (int i = 0; env && gpu && i < env->n_rows; i++) {
    const MsEnvRow *r = &env->rows[i];
    if (r->figure == f && r->gen == gen && r->width == width && strcasecmp (r->gpu, gpu) == 0)
      return r;
  }
  return NULL;
}

static bool
has_rows (const MsEnvelopes *env, const char *gpu, int gen, int width)
{
  for (int f = 0; f < MS_ENV_N_FIGURES; f++)
    if (find_row (env, gpu, gen, width, (MsEnvFigure)f))
      return true;
  return false;
}

static void
format_value (MsEnvFigure f, double v, char *buf, size_t len)
{
  snprintf (buf, len, "%.1f %s", v, strcmp (figures[f].unit, "us") == 0 ? "us" : "GB/s");
}

static void
judge_one (const MsEnvJudgement *j, const MsEnvRow *row, const MsResults *r, MsEnvVerdict *v)
{
  char value[48], link[32];
  const char *label = ms_env_figure_label (v->figure);
  ms_health_format_link (j->gen, j->width, link, sizeof link);
  if (!ms_env_figure_value (r, v->figure, &v->value)) {
    v->kind = MS_ENV_NOT_MEASURED;
    snprintf (v->text, sizeof v->text, ms_gettext ("%s: not in this run"), label);
    return;
  }
  format_value (v->figure, v->value, value, sizeof value);
  v->row = row;
  if (!row) {
    v->kind = MS_ENV_NO_ENVELOPE;
    snprintf (v->text, sizeof v->text,
              ms_gettext ("%s %s: no envelope for this GPU (%s) on "
                          "PCIe %s"),
              label, value, r->device.name, link);
    return;
  }
  /* TRANSLATORS: the figure's expected range, "53.0–57.0". */
  char range[64];
  snprintf (range, sizeof range, "%.1f–%.1f", row->low, row->high);
  if (v->value < row->low) {
    v->kind = MS_ENV_LOW;
    v->off_pct = 100.0 * (row->low - v->value) / row->low;
    snprintf (v->text, sizeof v->text,
              ms_gettext ("%s %s: low, %.0f %% below the expected %s for %s on PCIe %s"), label,
              value, v->off_pct, range, row->gpu, link);
  } else if (v->value > row->high) {
    v->kind = MS_ENV_HIGH;
    v->off_pct = 100.0 * (v->value - row->high) / row->high;
    snprintf (v->text, sizeof v->text,
              ms_gettext ("%s %s: high, %.0f %% above the expected %s for %s on PCIe %s"), label,
              value, v->off_pct, range, row->gpu, link);
  } else {
    v->kind = MS_ENV_NORMAL;
    snprintf (v->text, sizeof v->text, ms_gettext ("%s %s: normal for %s on PCIe %s (expected %s)"),
              label, value, row->gpu, link, range);
  }
}

static void
summarise (MsEnvJudgement *j, const MsResults *r)
{
  char link[160], theory[64] = "";
  ms_health_format_link (j->gen, j->width, link, sizeof link);
  if (j->at_maximum) {
    char ran[32];
    size_t used = strlen (link);
    ms_health_format_link (j->ran_gen, j->ran_width, ran, sizeof ran);
    snprintf (link + used, sizeof link - used, ms_gettext (", the link's maximum (it ran at %s)"),
              ran);
  } else if (j->gen > 0 && !j->link_under_load) {
    size_t used = strlen (link);
    snprintf (link + used, sizeof link - used, " %s", ms_gettext ("(as queried, not under load)"));
  }
  if (j->theory_gbps > 0)
    snprintf (theory, sizeof theory, ms_gettext ("; link theory %.1f GB/s per direction"),
              j->theory_gbps);
  if (ms_results_device_unknown (r))
    snprintf (j->summary, sizeof j->summary, "%s",
              ms_gettext ("The run's device is unknown (its metadata was not read): no "
                          "envelope to hold it against"));
  else if (!r->device.name[0] || strcmp (r->device.name, "none") == 0)
    /* A host-only run (or one without a GPU) has nothing to hold against
     * an envelope of GPUs. */
    snprintf (j->summary, sizeof j->summary, "%s",
              ms_gettext ("No GPU in this run: the envelopes describe GPUs and their links"));
  else if (!j->gpu[0])
    snprintf (j->summary, sizeof j->summary,
              ms_gettext ("No envelope for this GPU (%s) on PCIe %s%s"), r->device.name, link,
              theory);
  else if (j->n_judged == 0)
    snprintf (j->summary, sizeof j->summary,
              ms_gettext ("Against the %s envelope on PCIe %s%s: none of its key figures is in "
                          "this run"),
              j->gpu, link, theory);
  else
    snprintf (j->summary, sizeof j->summary,
              ms_gettext ("Against the %s envelope on PCIe %s%s: %d normal, %d low, %d high of "
                          "%d figures in this run"),
              j->gpu, link, theory, j->n_normal, j->n_low, j->n_high, j->n_judged);
}

void
ms_envelope_judge (const MsEnvelopes *env, const MsResults *r, MsEnvJudgement *j)
{
  MsHealth h;
  memset (j, 0, sizeof *j);
  ms_health_compute (r, &h);
  j->link_under_load = h.gen > 0;
  j->gen = j->ran_gen = h.gen > 0 ? h.gen : r->device.pcie_gen;
  j->width = j->ran_width = h.gen > 0 ? h.width : r->device.pcie_width;
  j->theory_gbps = ms_pcie_theoretical_gbps (j->gen, j->width);
  const char *gpu = match_gpu (env, r->device.name);
  /* A link that trained down has no envelope of its own: the figures are
   * held against what the device should reach at its maximum. */
  int max_gen = r->device.pcie_gen_max, max_width = r->device.pcie_width_max;
  if (gpu && !has_rows (env, gpu, j->gen, j->width) && has_rows (env, gpu, max_gen, max_width)) {
    j->gen = max_gen;
    j->width = max_width;
    j->at_maximum = true;
  }
  bool any_row = false;
  for (int f = 0; f < MS_ENV_N_FIGURES; f++) {
    MsEnvVerdict *v = &j->v[f];
    v->figure = (MsEnvFigure)f;
    const MsEnvRow *row = find_row (env, gpu, j->gen, j->width, v->figure);
    any_row = any_row || row;
    judge_one (j, row, r, v);
    j->n_normal += v->kind == MS_ENV_NORMAL;
    j->n_low += v->kind == MS_ENV_LOW;
    j->n_high += v->kind == MS_ENV_HIGH;
  }
  j->n_judged = j->n_normal + j->n_low + j->n_high;
  if (gpu && any_row)
    snprintf (j->gpu, sizeof j->gpu, "%s", gpu);
  summarise (j, r);
}
