/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-json.c: results as JSON (docs/json.md), for `run --format json`
 * and `show`. */
#include "ms-cli-json.h"

#include <math.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-i18n.h"

/* Every document is a json-c tree (ms-json.h): strings escaped and numbers
 * formatted by one writer, the sidecar's. */

static MsJson *
stat_json (const MsStat *st, bool present)
{
  if (!present || st->n <= 0)
    return NULL;
  MsJson *o = ms_json_object_new ();
  ms_json_set_int (o, "n", st->n);
  ms_json_set_number (o, "median_us", st->median);
  ms_json_set_number (o, "min_us", st->min);
  ms_json_set_number (o, "max_us", st->max);
  ms_json_set_number (o, "ci95_low_us", st->ci_valid ? st->ci_low : NAN);
  ms_json_set_number (o, "ci95_high_us", st->ci_valid ? st->ci_high : NAN);
  return o;
}

MsJson *
ms_json_document (const char *schema, int version)
{
  MsJson *doc = ms_json_object_new ();
  ms_json_set_string (doc, "schema", schema);
  ms_json_set_int (doc, "schema_version", version);
  return doc;
}

void
ms_json_set_text (MsJson *o, const char *key, const char *text)
{
  ms_json_set_string (o, key, text && text[0] ? text : NULL);
}

MsJson *
ms_json_device (const MsDeviceInfo *d)
{
  char drv[16], rt[16], cc[16];
  ms_format_version (d->driver_version, drv, sizeof drv);
  ms_format_version (d->runtime_version, rt, sizeof rt);
  snprintf (cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "name", d->name[0] ? d->name : "none");
  ms_json_set_int (o, "index", d->index);
  ms_json_set_string (o, "compute_capability", cc);
  ms_json_set_int (o, "memory_total_bytes", (long long) d->total_mem);
  ms_json_set_string (o, "cuda_driver", drv);
  ms_json_set_string (o, "cuda_runtime", rt);
  ms_json_set_text (o, "nvidia_driver", d->driver_release);
  MsJson *pcie = NULL;
  if (d->pcie_gen > 0) {
    pcie = ms_json_object_new ();
    ms_json_set_int (pcie, "gen", d->pcie_gen);
    ms_json_set_int (pcie, "width", d->pcie_width);
    ms_json_set_int (pcie, "gen_max", d->pcie_gen_max);
    ms_json_set_int (pcie, "width_max", d->pcie_width_max);
  }
  ms_json_set (o, "pcie", pcie);
  ms_json_set_int (o, "async_engines", d->async_engine_count);
  ms_json_set_int (o, "multiprocessors", d->multiprocessors);
  ms_json_set_int (o, "l2_bytes", d->l2_bytes);
  return o;
}

/* The metadata keys whose values a file stated out of their kind or range:
 * the settings above hold defaults in their place. */
static MsJson *
refused_json (const char *keys)
{
  MsJson *a = ms_json_array_new ();
  for (const char *p = keys; *p;) {
    size_t n = strcspn (p, ",");
    char key[64];
    snprintf (key, sizeof key, "%.*s", (int) (n < sizeof key ? n : sizeof key - 1), p);
    ms_json_append (a, ms_json_string_new (key));
    p += n;
    p += strspn (p, ", ");
  }
  return a;
}

static MsJson *
settings_json (const MsResults *r)
{
  const MsSweep *s = &r->sweep;
  MsJson *o = ms_json_object_new ();
  MsJson *modes = ms_json_array_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (s->modes[m])
      ms_json_append (modes, ms_json_string_new (ms_mode_name (m)));
  ms_json_set (o, "modes", modes);
  ms_json_set_int (o, "min_exp", s->min_exp);
  ms_json_set_int (o, "max_exp", s->max_exp);
  ms_json_set_int (o, "step", s->step);
  ms_json_set_string (o, "reps_rule", s->reps_rule == MS_REPS_FIXED ? "fixed" : "adaptive");
  ms_json_set_int (o, "reps", s->reps);
  ms_json_set_int (o, "min_reps", s->min_reps);
  ms_json_set_number (o, "ci_target_pct", s->ci_target_pct);
  ms_json_set_number (o, "cell_budget_ms", s->cell_budget_ms);
  ms_json_set_int (o, "instrumented_reps", s->instr_reps);
  ms_json_set_int (o, "warmup", s->warmup);
  ms_json_set_int (o, "streams", s->streams);
  ms_json_set_string (o, "order", s->order == MS_ORDER_BREADTH_FIRST ? "breadth" : "depth");
  ms_json_set_int (o, "rounds", s->rounds);
  if (r->metadata_refused_keys[0])
    ms_json_set (o, "refused", refused_json (r->metadata_refused_keys));
  return o;
}

/* Repetitions in two clusters (ms_two_states_find): each with its share. */
static MsJson *
two_states_json (const MsCellStats *st, bool ok)
{
  if (!ok || !st->states.found)
    return NULL;
  MsJson *o = ms_json_object_new ();
  ms_json_set_number (o, "low_us", st->states.low_us);
  ms_json_set_number (o, "high_us", st->states.high_us);
  ms_json_set_number (o, "high_share", st->states.high_share);
  return o;
}

static MsJson *
cell_json (const MsCell *c)
{
  const MsCellStats *st = &c->stats;
  bool ok = (c->status == MS_CELL_OK || c->status == MS_CELL_PARTIAL) && st->e2e.n > 0;
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "mode", ms_mode_name (c->mode));
  ms_json_set_int (o, "exponent", c->exponent);
  ms_json_set_int (o, "elements", (long long) c->elements);
  ms_json_set_int (o, "bytes_per_vector", (long long) ms_vector_bytes (c->elements));
  ms_json_set_string (o, "status", ms_cell_status_name (c->status));
  ms_json_set_string (o, "message", c->message);
  /* Which knobs or experiment setting the cell ran with ("" for none). */
  ms_json_set_string (o, "variant", c->variant);
  ms_json_set (o, "e2e", stat_json (&st->e2e, ok));
  ms_json_set (o, "two_states", two_states_json (st, ok));
  ms_json_set_number (o, "e2e_gbps", ok && st->e2e_gbps > 0 ? st->e2e_gbps : NAN);
  ms_json_set_number (o, "h2d_gbps", ok && st->h2d_gbps > 0 ? st->h2d_gbps : NAN);
  ms_json_set_number (o, "d2h_gbps", ok && st->d2h_gbps > 0 ? st->d2h_gbps : NAN);
  /* Instrumented over plain repetitions; null where unknown (older files). */
  double ratio = NAN, diff = NAN;
  bool overhead = ok && ms_cell_instr_overhead (c, &ratio, &diff);
  ms_json_set_number (o, "e2e_instrumented_median_us", overhead ? st->e2e_instr.median : NAN);
  ms_json_set_number (o, "instr_overhead_ratio", overhead ? ratio : NAN);
  ms_json_set_number (o, "instr_overhead_us", overhead ? diff : NAN);
  MsJson *phases = ms_json_object_new ();
  for (int p = 0; p < MS_PHASE_COUNT; p++)
    if (ok && st->phase[p].n > 0)
      ms_json_set (phases, ms_phase_name (p), stat_json (&st->phase[p], true));
  ms_json_set (o, "phases", phases);
  return o;
}

static MsJson *
fits_json (const MsResults *r)
{
  MsJson *o = ms_json_object_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    MsFit fit = ms_results_fit (r, m, MS_PHASE_COUNT);
    if (!fit.valid)
      continue;
    MsJson *f = ms_json_object_new ();
    ms_json_set_int (f, "points", fit.n_points);
    ms_json_set_number (f, "latency_us", fit.latency_us);
    ms_json_set_number (f, "bandwidth_gbps", fit.bandwidth_gbps > 0 ? fit.bandwidth_gbps : NAN);
    ms_json_set_number (f, "r2", fit.r2);
    ms_json_set_bool (f, "describes_data", fit.describes_data);
    ms_json_set (o, ms_mode_name (m), f);
  }
  return o;
}

static MsJson *
counter_json (const MsLinkCounter *c)
{
  static const char *const states[] = { "not-recorded", "not-readable", "read" };
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "state", states[c->state]);
  if (c->state == MS_COUNTER_READ) {
    ms_json_set_int (o, "before", (long long) c->before);
    ms_json_set_int (o, "after", (long long) c->after);
  }
  return o;
}

MsJson *
ms_json_link (int gen, int width)
{
  MsJson *o = ms_json_object_new ();
  ms_json_set_int (o, "gen", gen);
  ms_json_set_int (o, "width", width);
  return o;
}

/* The link under load, the clocks and the PCIe counters (ms-health.h). */
static MsJson *
health_json (const MsResults *r)
{
  MsHealth h;
  char text[1024];
  ms_health_compute (r, &h);
  ms_health_describe (r, text, sizeof text);
  MsJson *o = ms_json_object_new ();
  ms_json_set (o, "link_under_load", h.gen > 0 ? ms_json_link (h.gen, h.width) : NULL);
  ms_json_set_int (o, "cells_with_link", h.n_link_known);
  ms_json_set_int (o, "cells_below_maximum", h.n_below);
  ms_json_set_int (o, "gpu_cells", h.n_gpu_cells);
  ms_json_set_int (o, "cells_throttled", h.n_throttled);
  ms_json_set_int (o, "cells_clock_moved", h.n_clock_moved);
  ms_json_set_bool (o, "warn", ms_health_warns (&h));
  ms_json_set (o, "pcie_correctable_errors", counter_json (&r->aer_correctable));
  ms_json_set (o, "pcie_replays", counter_json (&r->replays));
  ms_json_set_string (o, "text", text);
  return o;
}

static MsJson *
figure_json (const MsEnvVerdict *v)
{
  static const char *const kinds[] = { "not-measured", "no-envelope", "normal", "low", "high" };
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "figure", ms_env_figure_id (v->figure));
  ms_json_set_string (o, "unit", ms_env_figure_unit (v->figure));
  ms_json_set_string (o, "verdict", kinds[v->kind]);
  ms_json_set_number (o, "value", v->kind == MS_ENV_NOT_MEASURED ? NAN : v->value);
  ms_json_set_number (o, "low", v->row ? v->row->low : NAN);
  ms_json_set_number (o, "high", v->row ? v->row->high : NAN);
  ms_json_set_string (o, "source", v->row ? v->row->source : "");
  ms_json_set_string (o, "text", v->text);
  return o;
}

/* Each key figure against its envelope; null when none was read. */
static MsJson *
envelope_json (const MsResults *r, const MsEnvelopes *env)
{
  MsEnvJudgement j;
  if (!env)
    return NULL;
  ms_envelope_judge (env, r, &j);
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "gpu", j.gpu);
  MsJson *link = ms_json_link (j.gen, j.width);
  ms_json_set_bool (link, "at_maximum", j.at_maximum);
  ms_json_set (o, "link", link);
  MsJson *ran = ms_json_link (j.ran_gen, j.ran_width);
  ms_json_set_bool (ran, "under_load", j.link_under_load);
  ms_json_set (o, "ran_at", ran);
  ms_json_set_number (o, "link_theory_gbps", j.theory_gbps);
  ms_json_set_string (o, "summary", j.summary);
  MsJson *figures = ms_json_array_new ();
  for (int i = 0; i < MS_ENV_N_FIGURES; i++)
    ms_json_append (figures, figure_json (&j.v[i]));
  ms_json_set (o, "figures", figures);
  return o;
}

void
ms_json_write (FILE *f, void *results)
{
  ms_json_write_judged (f, results, NULL);
}

bool
ms_json_write_judged (FILE *f, const MsResults *r, const MsEnvelopes *env)
{
  MsJson *doc = ms_json_object_new ();
  ms_file_kind_stamp (doc, MS_FILE_KIND_RESULTS_JSON);
  ms_json_set_string (doc, "memsweep_version", r->version[0] ? r->version : MS_VERSION);
  ms_json_set_string (doc, "date", r->date);
  ms_json_set_string (doc, "label", r->label);
  ms_json_set_string (doc, "source", r->from_summary ? "summary" : "samples");
  if (r->metadata_unknown[0]) {
    /* No sidecar or metadata line says what was measured how: unknown,
     * not the defaults the reader started from. */
    ms_json_set (doc, "device", NULL);
    ms_json_set (doc, "settings", NULL);
    ms_json_set_string (doc, "metadata_unknown", r->metadata_unknown);
  } else {
    ms_json_set (doc, "device", ms_json_device (&r->device));
    ms_json_set (doc, "settings", settings_json (r));
  }
  MsJson *cells = ms_json_array_new ();
  for (size_t i = 0; i < r->n_cells; i++)
    ms_json_append (cells, cell_json (&r->cells[i]));
  ms_json_set (doc, "cells", cells);
  ms_json_set (doc, "fits", fits_json (r));
  ms_json_set (doc, "health", health_json (r));
  ms_json_set (doc, "envelope", envelope_json (r, env));
  return ms_json_print (f, doc) && !ferror (f);
}
