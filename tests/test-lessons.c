/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lessons.c: each lesson's bookkeeping on the test backend: which
 * parts it runs with which settings, the variants its cells carry, the
 * isolated parts handed to the front end grouped by environment, the
 * merged result and its metadata, and the costs table. */
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-test.h"

static void
base_sweep (MsSweep *s)
{
  ms_sweep_init_default (s);
  s->min_exp = 16;
  s->max_exp = 18;
  s->step = 2;
  s->reps = 3;
  s->reps_rule = MS_REPS_FIXED;
  s->warmup = 0;
}

static MsResults *
run_lesson (const char *name, MsBackend *b, MsIsolatedFunc isolated, void *user)
{
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  base_sweep (&s);
  MsRunStatus st = ms_lesson_run (name, &s, b, isolated, user, NULL, NULL, NULL, &r, err,
                                  sizeof err);
  MS_CHECK (st == MS_RUN_OK && r, "%s: %s", name, err);
  if (r)
    MS_CHECK_STR (r->experiment, name);
  return r;
}

static double
e2e (const MsResults *r, MsMode mode, int e, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, e, variant);
  MS_CHECK (c && c->status == MS_CELL_OK, "%s 2^%d %s", ms_mode_name (mode), e, variant);
  return c ? c->stats.e2e.median : -1;
}

static void
test_reuse (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("reuse", b, NULL, NULL);
  if (r) {
    /* 5 R x (4 modes + 2 zero-copy variants) x 2 sizes. */
    MS_CHECK (r->n_cells == 5 * 6 * 2, "cells %zu", r->n_cells);
    /* In the model zero-copy pays every access, pinned none. */
    MS_CHECK (e2e (r, MS_MODE_ZERO_COPY, 18, "R=16") > 4 * e2e (r, MS_MODE_ZERO_COPY, 18, "R=1"),
              "zero-copy grows with R");
    MS_CHECK_NEAR (e2e (r, MS_MODE_PINNED, 18, "R=16"), e2e (r, MS_MODE_PINNED, 18, "R=1"), 1e-6);
    MS_CHECK (e2e (r, MS_MODE_ZERO_COPY, 18, "R=4/access=read") > 0 &&
                e2e (r, MS_MODE_ZERO_COPY, 18, "R=4/access=write") > 0,
              "access variants");
    MS_CHECK (ms_results_find_variant (r, MS_MODE_PINNED, 18, "R=4/access=read") == NULL,
              "access variants are zero-copy's only");
    MS_CHECK (r->sweep.modes[MS_MODE_UVA] && !r->sweep.modes[MS_MODE_STREAMS], "modes union");
    MS_CHECK (r->sweep.knobs.reuse == 0 && r->sweep.variant[0] == '\0', "base sweep plain");
  }
  ms_results_free (r);
  ms_backend_free (b);
}

static void
test_duplex (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("duplex", b, NULL, NULL);
  if (r) {
    const MsCell *both = ms_results_find_variant (r, MS_MODE_PINNED, 18, "copy=duplex");
    const MsCell *h2d = ms_results_find_variant (r, MS_MODE_PINNED, 18, "copy=h2d");
    MS_CHECK (both && h2d && both->stats.phase[MS_PHASE_H2D].n == 3 &&
                both->stats.phase[MS_PHASE_D2H].n == 3 && h2d->stats.phase[MS_PHASE_D2H].n == 0,
              "phases per variant");
    /* Overlapping in the model: both together take as long as one. */
    MS_CHECK_NEAR (e2e (r, MS_MODE_PINNED, 18, "copy=duplex"),
                   e2e (r, MS_MODE_PINNED, 18, "copy=h2d"), 1e-6);
    MS_CHECK (r->n_cells == 3 * 2, "cells %zu", r->n_cells);
  }
  ms_results_free (r);
  ms_backend_free (b);
}

/* The front end's side of isolated parts, recorded: runs them here. */
typedef struct {
  MsBackend *backend;
  int calls;
  int parts;
  char first_variant[MS_VARIANT_LEN];
} Isolated;

static MsResults *
fake_isolated (const char *name, const MsSweep *base, const int *parts, int n_parts, void *user,
               char *err, size_t errlen)
{
  Isolated *iso = user;
  MsLessonPart all[MS_LESSON_MAX_PARTS];
  int n = ms_lesson_parts (name, base, all, MS_LESSON_MAX_PARTS);
  for (int i = 0; i < n_parts; i++)
    MS_CHECK (parts[i] < n && all[parts[i]].isolated &&
                (all[parts[i]].env == all[parts[0]].env) &&
                all[parts[i]].env_unset == all[parts[0]].env_unset,
              "one environment per call");
  if (iso->calls++ == 0)
    snprintf (iso->first_variant, sizeof iso->first_variant, "%s", all[parts[0]].sweep.variant);
  iso->parts += n_parts;
  MsResults *r = NULL;
  ms_lesson_run_parts (name, base, parts, n_parts, iso->backend, NULL, NULL, NULL, &r, err,
                       errlen);
  return r;
}

/* A front end whose second child fails. */
static MsResults *
failing_isolated (const char *name, const MsSweep *base, const int *parts, int n_parts,
                  void *user, char *err, size_t errlen)
{
  Isolated *iso = user;
  if (iso->calls == 1) {
    snprintf (err, errlen, "child failed");
    return NULL;
  }
  return fake_isolated (name, base, parts, n_parts, user, err, errlen);
}

static void
test_child_fails (void)
{
  Isolated iso = { .backend = ms_backend_new_test (NULL) };
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  base_sweep (&s);
  MsRunStatus st = ms_lesson_run ("issue-order", &s, iso.backend, failing_isolated, &iso, NULL,
                                  NULL, NULL, &r, err, sizeof err);
  /* The first child's cells stay, the run says it stopped and why. */
  MS_CHECK (st == MS_RUN_CANCELLED && r && r->n_cells == 20 * 2 && strstr (err, "child failed"),
            "status %d, %zu cells, %s", st, r ? r->n_cells : 0, err);
  ms_results_free (r);
  ms_backend_free (iso.backend);
}

static void
test_issue_order (void)
{
  Isolated iso = { .backend = ms_backend_new_test (NULL) };
  MsResults *r = run_lesson ("issue-order", iso.backend, fake_isolated, &iso);
  /* queue=single (the variable set, plain and with per-step timers), then
   * the default (removed), with the host-work parts in the same process as
   * the default ones. */
  MS_CHECK (iso.calls == 2 && iso.parts == 32, "calls %d parts %d", iso.calls, iso.parts);
  MS_CHECK_STR (iso.first_variant, "queue=single/order=depth/K=1");
  if (r) {
    MS_CHECK (r->n_cells == 32 * 2, "cells %zu", r->n_cells);
    /* The timers cells' end-to-end times are the instrumented ones: no
     * plain repetition beside them, so no overhead of their own. */
    const MsCell *timed = ms_results_find_variant (
      r, MS_MODE_STREAMS, 18, "queue=single/order=breadth/K=16/timers=per-step");
    const MsCell *plain = ms_results_find_variant (r, MS_MODE_STREAMS, 18,
                                                   "queue=single/order=breadth/K=16");
    MS_CHECK (timed && plain && timed->n_events == plain->n_events &&
                !ms_cell_instr_overhead (timed, NULL, NULL) &&
                ms_cell_instr_overhead (plain, NULL, NULL),
              "timers=per-step cell");
    const MsCell *c = ms_results_find_variant (r, MS_MODE_STREAMS, 18,
                                               "queue=single/order=breadth/K=16");
    int lanes = 0;
    for (size_t i = 0; c && i < c->n_events; i++)
      lanes = c->events[i].lane > lanes ? c->events[i].lane : lanes;
    MS_CHECK (lanes == 16, "K=16 runs 16 streams (%d)", lanes);
    MS_CHECK (ms_results_find_variant (r, MS_MODE_STREAMS, 16,
                                       "queue=default/order=depth/K=4/host=work") != NULL,
              "host work part");
  }
  MsLessonPart parts[MS_LESSON_MAX_PARTS];
  MsSweep s;
  base_sweep (&s);
  int n = ms_lesson_parts ("issue-order", &s, parts, MS_LESSON_MAX_PARTS);
  MS_CHECK (n == 32 && parts[0].env && strcmp (parts[0].env, "CUDA_DEVICE_MAX_CONNECTIONS=1") == 0,
            "first part sets the variable");
  MS_CHECK (parts[n - 1].sweep.knobs.host_work && parts[n - 1].env_unset, "last: host work");
  ms_results_free (r);
  ms_backend_free (iso.backend);
}

static void
test_cache_state_and_managed (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("cache-state", b, NULL, NULL);
  MS_CHECK (r && r->n_cells == (3 * 2 + 1) * 2, "cache-state cells %zu", r ? r->n_cells : 0);
  MS_CHECK (r && ms_results_find_variant (r, MS_MODE_WRITE_COMBINED, 16,
                                          "stores=streamed/read=wc"), "read=wc cell");
  ms_results_free (r);
  r = run_lesson ("managed-touch", b, NULL, NULL);
  MS_CHECK (r && r->n_cells == 3 * 2, "managed cells %zu", r ? r->n_cells : 0);
  if (r)
    MS_CHECK (e2e (r, MS_MODE_MANAGED, 18, "touch=resident") <
                e2e (r, MS_MODE_MANAGED, 18, "touch=first"),
              "resident pages fault no more");
  ms_results_free (r);
  ms_backend_free (b);
}

/* The fields a file must keep of a cell's unified-memory counts. */
static bool
same_um (const MsUmCounts *a, const MsUmCounts *b)
{
  return a->state == b->state && a->gpu_faults == b->gpu_faults &&
         a->cpu_faults == b->cpu_faults && a->h2d_bytes == b->h2d_bytes &&
         a->d2h_bytes == b->d2h_bytes && strcmp (a->reason, b->reason) == 0;
}

/* Writes r as samples, reads it back and compares the counts cell by
 * cell. (The summary file carries the same metadata lines, but its reader
 * keeps no variants, so a lesson's summary does not read back.) */
static void
check_um_round_trip (const MsResults *r)
{
  char path[64], err[256] = "";
  snprintf (path, sizeof path, "/tmp/test-lessons-um-%d.csv", (int) getpid ());
  MS_CHECK (ms_csv_write_samples (r, path, err, sizeof err), "%s", err);
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (back, "%s", err);
  for (size_t i = 0; back && i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    const MsCell *b = ms_results_find_variant (back, c->mode, c->exponent, c->variant);
    MS_CHECK (b && same_um (&b->um, &c->um), "%s 2^%d %s: counts kept", ms_mode_name (c->mode),
              c->exponent, c->variant);
  }
  ms_results_free (back);
  unlink (path);
}

static void
test_managed_counts (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("managed-touch", b, NULL, NULL);
  for (int e = 16; r && e <= 18; e += 2) {
    uint64_t vec = (1ull << e) * sizeof (float);
    const MsCell *first = ms_results_find_variant (r, MS_MODE_MANAGED, e, "touch=first");
    const MsCell *res = ms_results_find_variant (r, MS_MODE_MANAGED, e, "touch=resident");
    const MsCell *pre = ms_results_find_variant (r, MS_MODE_MANAGED_PREFETCH, e, "touch=first");
    MS_CHECK (first && res && pre, "three managed cells at 2^%d", e);
    if (!first || !res || !pre)
      continue;
    MS_CHECK (first->um.state == MS_UM_COUNTED && res->um.state == MS_UM_COUNTED &&
                pre->um.state == MS_UM_COUNTED, "every managed cell counted");
    /* The model's counts reach the cells unchanged. */
    MS_CHECK (first->um.gpu_faults == 2 * vec / 65536 && first->um.h2d_bytes == 2 * vec &&
                first->um.d2h_bytes == vec && first->um.cpu_faults == vec / 4096,
              "first touch %llu faults %llu bytes", (unsigned long long) first->um.gpu_faults,
              (unsigned long long) first->um.h2d_bytes);
    MS_CHECK (res->um.gpu_faults == 0 && res->um.h2d_bytes == 0, "resident: no faults");
    MS_CHECK (pre->um.gpu_faults == 0 && pre->um.h2d_bytes == 2 * vec, "prefetch moves");
    /* Counting is one extra repetition: the timed ones stay as many. */
    MS_CHECK (first->n_reps == 3, "reps %d", first->n_reps);
  }
  if (r)
    check_um_round_trip (r);
  ms_results_free (r);

  /* Other lessons and plain sweeps ask for no counts. */
  r = run_lesson ("duplex", b, NULL, NULL);
  for (size_t i = 0; r && i < r->n_cells; i++)
    MS_CHECK (r->cells[i].um.state == MS_UM_NONE, "duplex cell counted");
  ms_results_free (r);
  ms_backend_free (b);

  /* CUPTI refusing: the cells say why, and the times are still there. */
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.um_unavailable = true;
  cfg.um_reason = "CUPTI cannot count here: CUPTI_ERROR_NOT_SUPPORTED";
  b = ms_backend_new_test (&cfg);
  r = run_lesson ("managed-touch", b, NULL, NULL);
  const MsCell *c = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 18, "touch=first") : NULL;
  MS_CHECK (c && c->um.state == MS_UM_UNAVAILABLE && strcmp (c->um.reason, cfg.um_reason) == 0 &&
              c->status == MS_CELL_OK && c->n_reps == 3,
            "unavailable with the reason");
  if (r)
    check_um_round_trip (r);
  ms_results_free (r);
  ms_backend_free (b);
}

/* Malformed or foreign "# um-counts:" lines are ignored; the file reads. */
static void
test_bad_um_lines (void)
{
  static const char *const lines[] = {
    "# um-counts: managed 65536 touch=first counted 1 2 3\n",          /* short */
    "# um-counts: nosuch 65536 touch=first counted 1 2 3 4\n",         /* mode */
    "# um-counts: managed 65535 touch=first counted 1 2 3 4\n",        /* size */
    "# um-counts: managed 65536 touch=none counted 1 2 3 4\n",         /* no cell */
    "# um-counts: managed 65536 touch=first maybe 1 2 3 4\n",          /* state */
    "# um-counts: managed 65536 touch=first counted -1 2 3 4\n",       /* sign */
    "# um-counts: managed 65536 touch=first counted 1 2 3 18446744073709551616\n", /* 2^64 */
    "# um-counts: managed 65536 touch=first counted 123456789012345678901 2 3\n",  /* long */
    "# um-counts: managed 65536 touch=first counted 1 2 3 4 5\n",      /* extra */
    "# um-counts: managed 65536 touch=first counted 1 2 3 4x\n",       /* junk */
    "# um-counts: managed -65536 touch=first counted 1 2 3 4\n",       /* size sign */
    "# um-counts: managed 262144 touch=first unavailable told so\n",    /* valid */
  };
  char path[64], err[256] = "";
  snprintf (path, sizeof path, "/tmp/test-lessons-bad-um-%d.csv", (int) getpid ());
  /* A lesson's file without counts, the lines put after its first line. */
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *orig = run_lesson ("managed-touch", b, NULL, NULL);
  ms_backend_free (b);
  for (size_t i = 0; orig && i < orig->n_cells; i++)
    orig->cells[i].um.state = MS_UM_NONE;
  MS_CHECK (orig && ms_csv_write_samples (orig, path, err, sizeof err), "%s", err);
  ms_results_free (orig);
  FILE *f = fopen (path, "r");
  static char text[1 << 20];
  size_t n = f ? fread (text, 1, sizeof text - 1, f) : 0;
  if (f)
    fclose (f);
  text[n] = '\0';
  char *rest = strchr (text, '\n');
  f = rest ? fopen (path, "w") : NULL;
  MS_CHECK (f != NULL, "%s", path);
  if (!f)
    return;
  fwrite (text, 1, (size_t) (rest + 1 - text), f);
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
    fputs (lines[i], f);
  fputs (rest + 1, f);
  fclose (f);
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (r != NULL, "%s", err);
  const MsCell *small = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 16, "touch=first") : NULL;
  const MsCell *big = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 18, "touch=first") : NULL;
  MS_CHECK (small && small->um.state == MS_UM_NONE, "malformed lines give no counts");
  MS_CHECK (big && big->um.state == MS_UM_UNAVAILABLE && strcmp (big->um.reason, "told so") == 0,
            "the valid line reaches its cell");
  ms_results_free (r);
  unlink (path);
}

/* A managed-touch file from before the counts (the H100 reference run of
 * session 7, kept in tests/data/old-format) reads with none. */
static void
test_old_managed_file (void)
{
  char err[256] = "";
  MsResults *r = ms_csv_read_samples (MS_OLD_FORMAT_DIR "/h100-lesson-managed-touch-"
                                      "samples.csv", err, sizeof err);
  MS_CHECK (r && r->n_cells > 0, "%s", err);
  for (size_t i = 0; r && i < r->n_cells; i++)
    MS_CHECK (r->cells[i].um.state == MS_UM_NONE, "old cell without counts");
  ms_results_free (r);
}

/* The bundled reference runs carry the counts their GPUs measured: faults
 * and migration on first touch, none once resident. */
static void
test_reference_counts (void)
{
  const char *files[] = { MS_REFERENCE_DIR "/h100-lesson-managed-touch-samples.csv",
                          MS_REFERENCE_DIR "/h200-lesson-managed-touch-samples.csv" };
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char err[256] = "";
    MsResults *r = ms_csv_read_samples (files[f], err, sizeof err);
    MS_CHECK (r != NULL, "%s", err);
    const MsCell *first = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 22, "touch=first") : NULL;
    const MsCell *res = r ? ms_results_find_variant (r, MS_MODE_MANAGED, 22, "touch=resident") : NULL;
    MS_CHECK (first && first->um.state == MS_UM_COUNTED && first->um.gpu_faults > 0 &&
                first->um.h2d_bytes > 0,
              "%s: first touch counted with faults", files[f]);
    MS_CHECK (res && res->um.state == MS_UM_COUNTED && res->um.gpu_faults == 0,
              "%s: resident counted without faults", files[f]);
    ms_results_free (r);
  }
}

static void
test_costs (void)
{
  MsBackend *b = ms_backend_new_test (NULL);
  MsResults *r = run_lesson ("costs", b, NULL, NULL);
  /* context-first once, context 3 times, five per-size calls x 2 sizes x 3. */
  MS_CHECK (ms_test_backend_cost_calls (b) == 1 + 3 + 5 * 2 * 3, "calls %ld",
            ms_test_backend_cost_calls (b));
  if (r) {
    MS_CHECK (r->n_cells == 2 + 5 * 2, "cells %zu", r->n_cells);
    const MsCell *first = ms_results_find_variant (r, MS_MODE_DEVICE, 16, "cost=context-first");
    const MsCell *reg = ms_results_find_variant (r, MS_MODE_REGISTERED, 18, "cost=register");
    MS_CHECK (first && first->n_reps == 1, "first context once");
    MS_CHECK (reg && reg->stats.phase[MS_PHASE_REGISTER].n == 3 &&
                reg->stats.phase[MS_PHASE_UNREGISTER].n == 3 &&
                reg->stats.phase[MS_PHASE_ALLOC].n == 0,
              "register filed under its phases");
    MS_CHECK (ms_results_find_variant (r, MS_MODE_PAGEABLE, 18, "cost=malloc") &&
                ms_results_find_variant (r, MS_MODE_DEVICE, 18, "cost=malloc"),
              "malloc and cudaMalloc apart by mode");
    /* Through the CSV and back, as the app reads it. */
    char err[256], path[] = "/tmp/ms-test-lessons-XXXXXX";
    int fd = mkstemp (path);
    close (fd);
    MS_CHECK (ms_csv_write_samples (r, path, err, sizeof err), "%s", err);
    MsResults *back = ms_csv_read_samples (path, err, sizeof err);
    MS_CHECK (back && back->n_cells == r->n_cells && strcmp (back->experiment, "costs") == 0,
              "%s", err);
    ms_results_free (back);
    remove (path);
  }
  ms_results_free (r);
  /* Without a device the first context fails and says why. */
  MsTestBackendConfig cfg;
  ms_test_backend_config_init (&cfg);
  cfg.no_device = true;
  MsBackend *none = ms_backend_new_test (&cfg);
  MsSweep s;
  char err[256] = "";
  base_sweep (&s);
  r = NULL;
  MS_CHECK (ms_lesson_run ("costs", &s, none, NULL, NULL, NULL, NULL, NULL, &r, err,
                           sizeof err) == MS_RUN_NO_DEVICE, "no device: %s", err);
  MS_CHECK (r && r->n_cells == 1 && r->cells[0].status == MS_CELL_FAILED, "first cell failed");
  ms_results_free (r);
  ms_backend_free (none);
  ms_backend_free (b);
}

static void
test_unknown_and_invalid (void)
{
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  base_sweep (&s);
  MsBackend *b = ms_backend_new_test (NULL);
  MS_CHECK (ms_lesson_run ("nope", &s, b, NULL, NULL, NULL, NULL, NULL, &r, err, sizeof err) ==
              MS_RUN_INVALID && strstr (err, "nope"), "%s", err);
  /* K = 16 streams need 16 elements: every part is checked before any runs. */
  s.min_exp = 2;
  s.max_exp = 2;
  MS_CHECK (ms_lesson_run ("issue-order", &s, b, NULL, NULL, NULL, NULL, NULL, &r, err,
                           sizeof err) == MS_RUN_INVALID && r == NULL, "%s", err);
  MS_CHECK (ms_test_backend_steps (b) == 0, "nothing ran");
  for (int i = 0; i < ms_lesson_count (); i++)
    MS_CHECK (ms_lesson_settings (ms_lesson_nth (i)->name) != NULL, "settings of each lesson");
  ms_backend_free (b);
}

int
main (void)
{
  MS_RUN (test_reuse);
  MS_RUN (test_duplex);
  MS_RUN (test_issue_order);
  MS_RUN (test_child_fails);
  MS_RUN (test_cache_state_and_managed);
  MS_RUN (test_managed_counts);
  MS_RUN (test_old_managed_file);
  MS_RUN (test_reference_counts);
  MS_RUN (test_bad_um_lines);
  MS_RUN (test_costs);
  MS_RUN (test_unknown_and_invalid);
  return ms_test_finish ();
}
