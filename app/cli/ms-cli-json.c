/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-json.c: results as JSON (docs/json.md), for `run --format json`
 * and `show`. */
#define _GNU_SOURCE
#include "ms-cli-json.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-i18n.h"

/* The engine's JSON writers (json-c) escape strings and format numbers, so
 * that the command line's documents and the sidecar write them alike. */
static void
put_string (FILE *f, const char *s)
{
  ms_json_write_string (f, s);
}

static void
put_number (FILE *f, double v)
{
  ms_json_write_number (f, v);
}

void
ms_json_put_string (FILE *f, const char *s)
{
  put_string (f, s);
}

void
ms_json_put_number (FILE *f, double v)
{
  put_number (f, v);
}

/* "key": */
static void
key (FILE *f, const char *k)
{
  put_string (f, k);
  fputc (':', f);
}

static void
put_stat (FILE *f, const MsStat *st, bool present)
{
  if (!present || st->n <= 0) {
    fputs ("null", f);
    return;
  }
  fprintf (f, "{\"n\":%d,\"median_us\":", st->n);
  put_number (f, st->median);
  fputs (",\"min_us\":", f);
  put_number (f, st->min);
  fputs (",\"max_us\":", f);
  put_number (f, st->max);
  fputs (",\"ci95_low_us\":", f);
  put_number (f, st->ci_valid ? st->ci_low : NAN);
  fputs (",\"ci95_high_us\":", f);
  put_number (f, st->ci_valid ? st->ci_high : NAN);
  fputc ('}', f);
}

void
ms_json_put_device (FILE *f, const MsDeviceInfo *d)
{
  char drv[16], rt[16];
  ms_format_version (d->driver_version, drv, sizeof drv);
  ms_format_version (d->runtime_version, rt, sizeof rt);
  key (f, "device");
  fputc ('{', f);
  key (f, "name");
  put_string (f, d->name[0] ? d->name : "none");
  fprintf (f, ",\"index\":%d,\"compute_capability\":\"%d.%d\",\"memory_total_bytes\":%llu,",
           d->index, d->cc_major, d->cc_minor, (unsigned long long) d->total_mem);
  key (f, "cuda_driver");
  put_string (f, drv);
  fputc (',', f);
  key (f, "cuda_runtime");
  put_string (f, rt);
  fputc (',', f);
  key (f, "nvidia_driver");
  if (d->driver_release[0])
    put_string (f, d->driver_release);
  else
    fputs ("null", f);
  if (d->pcie_gen > 0)
    fprintf (f, ",\"pcie\":{\"gen\":%d,\"width\":%d,\"gen_max\":%d,\"width_max\":%d}",
             d->pcie_gen, d->pcie_width, d->pcie_gen_max, d->pcie_width_max);
  else
    fputs (",\"pcie\":null", f);
  fprintf (f, ",\"async_engines\":%d,\"multiprocessors\":%d,\"l2_bytes\":%d}",
           d->async_engine_count, d->multiprocessors, d->l2_bytes);
}

/* The metadata keys whose values a file stated out of their kind or range:
 * the settings above hold defaults in their place. */
static void
put_refused (FILE *f, const char *keys)
{
  fputs (",\"refused\":[", f);
  for (const char *p = keys; *p;) {
    size_t n = strcspn (p, ",");
    char key[64];
    snprintf (key, sizeof key, "%.*s", (int) (n < sizeof key ? n : sizeof key - 1), p);
    put_string (f, key);
    p += n;
    p += strspn (p, ", ");
    if (*p)
      fputc (',', f);
  }
  fputc (']', f);
}

static void
put_settings (FILE *f, const MsResults *r)
{
  const MsSweep *s = &r->sweep;
  key (f, "settings");
  fputs ("{\"modes\":[", f);
  bool first = true;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (s->modes[m]) {
      fputs (first ? "" : ",", f);
      put_string (f, ms_mode_name (m));
      first = false;
    }
  fprintf (f, "],\"min_exp\":%d,\"max_exp\":%d,\"step\":%d,\"reps_rule\":\"%s\",\"reps\":%d,"
              "\"min_reps\":%d,\"ci_target_pct\":",
           s->min_exp, s->max_exp, s->step, s->reps_rule == MS_REPS_FIXED ? "fixed" : "adaptive",
           s->reps, s->min_reps);
  put_number (f, s->ci_target_pct);
  fputs (",\"cell_budget_ms\":", f);
  put_number (f, s->cell_budget_ms);
  fprintf (f, ",\"instrumented_reps\":%d", s->instr_reps);
  fprintf (f, ",\"warmup\":%d,\"streams\":%d,\"order\":\"%s\",\"rounds\":%d", s->warmup,
           s->streams, s->order == MS_ORDER_BREADTH_FIRST ? "breadth" : "depth", s->rounds);
  if (r->metadata_refused_keys[0])
    put_refused (f, r->metadata_refused_keys);
  fputc ('}', f);
}

static void
put_cell (FILE *f, const MsCell *c)
{
  const MsCellStats *st = &c->stats;
  bool ok = (c->status == MS_CELL_OK || c->status == MS_CELL_PARTIAL) && st->e2e.n > 0;
  fputs ("{\"mode\":", f);
  put_string (f, ms_mode_name (c->mode));
  fprintf (f, ",\"exponent\":%d,\"elements\":%llu,\"bytes_per_vector\":%llu,\"status\":",
           c->exponent, (unsigned long long) c->elements,
           (unsigned long long) (ms_vector_bytes (c->elements)));
  put_string (f, ms_cell_status_name (c->status));
  fputs (",\"message\":", f);
  put_string (f, c->message);
  /* Which knobs or experiment setting the cell ran with ("" for none). */
  fputs (",\"variant\":", f);
  put_string (f, c->variant);
  fputs (",\"e2e\":", f);
  put_stat (f, &st->e2e, ok);
  /* Repetitions in two clusters (ms_two_states_find): each with its share. */
  fputs (",\"two_states\":", f);
  if (ok && st->states.found) {
    fputs ("{\"low_us\":", f);
    put_number (f, st->states.low_us);
    fputs (",\"high_us\":", f);
    put_number (f, st->states.high_us);
    fputs (",\"high_share\":", f);
    put_number (f, st->states.high_share);
    fputc ('}', f);
  } else
    fputs ("null", f);
  fputs (",\"e2e_gbps\":", f);
  put_number (f, ok && st->e2e_gbps > 0 ? st->e2e_gbps : NAN);
  fputs (",\"h2d_gbps\":", f);
  put_number (f, ok && st->h2d_gbps > 0 ? st->h2d_gbps : NAN);
  fputs (",\"d2h_gbps\":", f);
  put_number (f, ok && st->d2h_gbps > 0 ? st->d2h_gbps : NAN);
  /* Instrumented over plain repetitions; null where unknown (older files). */
  double ratio = NAN, diff = NAN;
  bool overhead = ok && ms_cell_instr_overhead (c, &ratio, &diff);
  fputs (",\"e2e_instrumented_median_us\":", f);
  put_number (f, overhead ? st->e2e_instr.median : NAN);
  fputs (",\"instr_overhead_ratio\":", f);
  put_number (f, overhead ? ratio : NAN);
  fputs (",\"instr_overhead_us\":", f);
  put_number (f, overhead ? diff : NAN);
  fputs (",\"phases\":{", f);
  bool first = true;
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    if (!ok || st->phase[p].n <= 0)
      continue;
    fputs (first ? "" : ",", f);
    key (f, ms_phase_name (p));
    put_stat (f, &st->phase[p], true);
    first = false;
  }
  fputs ("}}", f);
}

static void
put_fits (FILE *f, const MsResults *r)
{
  key (f, "fits");
  fputc ('{', f);
  bool first = true;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    MsFit fit = ms_results_fit (r, m, MS_PHASE_COUNT);
    if (!fit.valid)
      continue;
    fputs (first ? "" : ",", f);
    key (f, ms_mode_name (m));
    fprintf (f, "{\"points\":%d,\"latency_us\":", fit.n_points);
    put_number (f, fit.latency_us);
    fputs (",\"bandwidth_gbps\":", f);
    put_number (f, fit.bandwidth_gbps > 0 ? fit.bandwidth_gbps : NAN);
    fputs (",\"r2\":", f);
    put_number (f, fit.r2);
    fprintf (f, ",\"describes_data\":%s}", fit.describes_data ? "true" : "false");
    first = false;
  }
  fputc ('}', f);
}

/* Numbers in JSON use '.', whatever the user's locale; the command line
 * writes from one thread. */
static locale_t
enter_c_locale (void)
{
  static locale_t c_locale;
  if (!c_locale)
    c_locale = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
  return c_locale ? uselocale (c_locale) : (locale_t) 0;
}

void *
ms_json_begin (void)
{
  return enter_c_locale ();
}

void
ms_json_end (void *state)
{
  if (state)
    uselocale ((locale_t) state);
}

static void
put_counter (FILE *f, const char *name, const MsLinkCounter *c)
{
  static const char *const states[] = { "not-recorded", "not-readable", "read" };
  fprintf (f, "\"%s\":{\"state\":\"%s\"", name, states[c->state]);
  if (c->state == MS_COUNTER_READ)
    fprintf (f, ",\"before\":%llu,\"after\":%llu", (unsigned long long) c->before,
             (unsigned long long) c->after);
  fputc ('}', f);
}

/* The link under load, the clocks and the PCIe counters (ms-health.h). */
static void
put_health (FILE *f, const MsResults *r)
{
  MsHealth h;
  char text[1024];
  ms_health_compute (r, &h);
  ms_health_describe (r, text, sizeof text);
  fprintf (f, "\"health\":{\"link_under_load\":");
  if (h.gen > 0)
    fprintf (f, "{\"gen\":%d,\"width\":%d}", h.gen, h.width);
  else
    fputs ("null", f);
  fprintf (f, ",\"cells_with_link\":%d,\"cells_below_maximum\":%d,\"gpu_cells\":%d,"
              "\"cells_throttled\":%d,\"cells_clock_moved\":%d,\"warn\":%s,",
           h.n_link_known, h.n_below, h.n_gpu_cells, h.n_throttled, h.n_clock_moved,
           ms_health_warns (&h) ? "true" : "false");
  put_counter (f, "pcie_correctable_errors", &r->aer_correctable);
  fputc (',', f);
  put_counter (f, "pcie_replays", &r->replays);
  fputc (',', f);
  key (f, "text");
  put_string (f, text);
  fputc ('}', f);
}

/* Each key figure against its envelope; null when none was read. */
static void
put_envelope (FILE *f, const MsResults *r, const MsEnvelopes *env)
{
  static const char *const kinds[] = { "not-measured", "no-envelope", "normal", "low", "high" };
  MsEnvJudgement j;
  if (!env) {
    fputs ("\"envelope\":null", f);
    return;
  }
  ms_envelope_judge (env, r, &j);
  fputs ("\"envelope\":{", f);
  key (f, "gpu");
  put_string (f, j.gpu);
  fprintf (f, ",\"link\":{\"gen\":%d,\"width\":%d,\"at_maximum\":%s},", j.gen, j.width,
           j.at_maximum ? "true" : "false");
  fprintf (f, "\"ran_at\":{\"gen\":%d,\"width\":%d,\"under_load\":%s},", j.ran_gen,
           j.ran_width, j.link_under_load ? "true" : "false");
  key (f, "link_theory_gbps");
  put_number (f, j.theory_gbps);
  fputc (',', f);
  key (f, "summary");
  put_string (f, j.summary);
  fputs (",\"figures\":[", f);
  for (int i = 0; i < MS_ENV_N_FIGURES; i++) {
    const MsEnvVerdict *v = &j.v[i];
    fprintf (f, "%s{\"figure\":\"%s\",\"unit\":\"%s\",\"verdict\":\"%s\",", i ? "," : "",
             ms_env_figure_id (v->figure), ms_env_figure_unit (v->figure), kinds[v->kind]);
    key (f, "value");
    put_number (f, v->kind == MS_ENV_NOT_MEASURED ? NAN : v->value);
    fputc (',', f);
    key (f, "low");
    put_number (f, v->row ? v->row->low : NAN);
    fputc (',', f);
    key (f, "high");
    put_number (f, v->row ? v->row->high : NAN);
    fputc (',', f);
    key (f, "source");
    put_string (f, v->row ? v->row->source : "");
    fputc (',', f);
    key (f, "text");
    put_string (f, v->text);
    fputc ('}', f);
  }
  fputs ("]}", f);
}

bool
ms_json_write (FILE *f, const MsResults *r)
{
  return ms_json_write_judged (f, r, NULL);
}

bool
ms_json_write_judged (FILE *f, const MsResults *r, const MsEnvelopes *env)
{
  locale_t old = enter_c_locale ();
  fprintf (f, "{\"schema\":\"memsweep-results\",\"schema_version\":%d,", MS_JSON_SCHEMA_VERSION);
  key (f, "memsweep_version");
  put_string (f, r->version[0] ? r->version : MS_VERSION);
  fputc (',', f);
  key (f, "date");
  put_string (f, r->date);
  fputc (',', f);
  key (f, "label");
  put_string (f, r->label);
  fprintf (f, ",\"source\":\"%s\",\n", r->from_summary ? "summary" : "samples");
  if (r->metadata_unknown[0]) {
    /* No sidecar or metadata line says what was measured how: unknown,
     * not the defaults the reader started from. */
    fputs ("\"device\":null,\"settings\":null,", f);
    key (f, "metadata_unknown");
    put_string (f, r->metadata_unknown);
  } else {
    ms_json_put_device (f, &r->device);
    fputs (",\n", f);
    put_settings (f, r);
  }
  fputs (",\n\"cells\":[\n", f);
  for (size_t i = 0; i < r->n_cells; i++) {
    put_cell (f, &r->cells[i]);
    fputs (i + 1 < r->n_cells ? ",\n" : "\n", f);
  }
  fputs ("],\n", f);
  put_fits (f, r);
  fputs (",\n", f);
  put_health (f, r);
  fputs (",\n", f);
  put_envelope (f, r, env);
  fputs ("}\n", f);
  if (old)
    uselocale (old);
  return !ferror (f);
}

bool
ms_json_write_file (const char *path, const MsResults *results, char *err, size_t errlen)
{
  return ms_json_write_file_judged (path, results, NULL, err, errlen);
}

bool
ms_json_write_file_judged (const char *path, const MsResults *results, const MsEnvelopes *env,
                           char *err, size_t errlen)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream (&buf, &len);
  if (!mem) {
    snprintf (err, errlen, ms_gettext ("%s: out of memory"), path);
    return false;
  }
  bool ok = ms_json_write_judged (mem, results, env);
  ok = fclose (mem) == 0 && ok;
  if (!ok) {
    snprintf (err, errlen, ms_gettext ("%s: out of memory"), path);
    free (buf);
    return false;
  }
  MsAtomicFile *file = ms_atomic_file_open (path, err, errlen);
  ok = file != NULL;
  if (file) {
    /* A failed write is kept for the commit's message. */
    ms_atomic_file_write (file, buf, len);
    ok = ms_atomic_file_commit (file, err, errlen);
  }
  free (buf);
  return ok;
}
