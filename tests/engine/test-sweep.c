/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sweep.c: sweep validation, table-driven, with the exact messages. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-modes.h"
#include "ms-sweep.h"

typedef struct {
  const char *what;
  void (*change) (MsSweep *s);
  const char *message;
} Case;

static void no_modes (MsSweep *s) { memset (s->modes, 0, sizeof s->modes); }
static void min_neg (MsSweep *s) { s->min_exp = -1; }
static void min_big (MsSweep *s) { s->min_exp = 29; }
static void max_big (MsSweep *s) { s->max_exp = 29; }
static void max_huge (MsSweep *s) { s->max_exp = 2000000000; }
static void empty_range (MsSweep *s) { s->min_exp = 20; s->max_exp = 10; }
static void step_zero (MsSweep *s) { s->step = 0; }
static void step_neg (MsSweep *s) { s->step = -3; }
static void step_huge (MsSweep *s) { s->step = 2147483647; }
static void reps_zero (MsSweep *s) { s->reps = 0; }
static void reps_huge (MsSweep *s) { s->reps = 100001; }
static void warm_neg (MsSweep *s) { s->warmup = -1; }
static void warm_huge (MsSweep *s) { s->warmup = 1001; }
static void k_zero (MsSweep *s) { s->streams = 0; }
static void k_huge (MsSweep *s) { s->streams = 65; }
static void k_chunks (MsSweep *s) { s->min_exp = 2; s->streams = 8; }
static void bad_order (MsSweep *s) { s->order = (MsIssueOrder) 7; }
static void bad_device (MsSweep *s) { s->device = -1; }

static const Case cases[] = {
  { "no modes", no_modes, "no memory mode selected: choose at least one" },
  { "min < 0", min_neg, "minimum exponent -1 is out of bounds: use 0..28" },
  { "min > 28", min_big, "minimum exponent 29 is out of bounds: use 0..28" },
  { "max > 28", max_big, "maximum exponent 29 is out of bounds: use 0..28" },
  { "max huge", max_huge, "maximum exponent 2000000000 is out of bounds: use 0..28" },
  { "empty range", empty_range,
    "empty size range: minimum exponent 20 is larger than maximum exponent 10" },
  { "step 0", step_zero, "step must be at least 1 (got 0)" },
  { "step < 0", step_neg, "step must be at least 1 (got -3)" },
  { "step overflows", step_huge, "step must be at most 28 (got 2147483647)" },
  { "reps 0", reps_zero, "repetitions must be at least 1 (got 0)" },
  { "reps huge", reps_huge, "repetitions must be at most 100000 (got 100001)" },
  { "warm-up < 0", warm_neg, "warm-up runs must be 0 or more (got -1)" },
  { "warm-up huge", warm_huge, "warm-up runs must be at most 1000 (got 1001)" },
  { "K < 1", k_zero, "stream count K must be at least 1 (got 0)" },
  { "K > 64", k_huge, "stream count K must be at most 64 (got 65)" },
  { "K > chunk elements", k_chunks,
    "K = 8 streams need at least 8 elements per chunk set, but the smallest size 2^2 has only "
    "4: raise the minimum exponent or lower K" },
  { "order", bad_order, "issue order must be depth or breadth" },
  { "device < 0", bad_device, "device index must be 0 or more (got -1)" },
};

static void
test_default_is_valid (void)
{
  MsSweep s;
  char err[256] = "";
  ms_sweep_init_default (&s);
  g_assert_true (ms_sweep_validate (&s, err, sizeof err));
  g_assert_cmpint (ms_sweep_n_sizes (&s), ==, 11);
  g_assert_cmpint (ms_sweep_n_modes (&s), ==, MS_MODE_COUNT);
  g_assert_cmpint (ms_sweep_n_cells (&s), ==, 11 * MS_MODE_COUNT);
  s.min_exp = 0;
  s.max_exp = 28;
  s.step = 5;
  s.modes[MS_MODE_STREAMS] = false;
  g_assert_true (ms_sweep_validate (&s, err, sizeof err));
  g_assert_cmpint (ms_sweep_n_sizes (&s), ==, 6);
  /* The largest step that validates counts sizes without overflow. */
  s.step = 28;
  g_assert_true (ms_sweep_validate (&s, err, sizeof err));
  g_assert_cmpint (ms_sweep_n_sizes (&s), ==, 2);
  s.min_exp = s.max_exp = 28;
  g_assert_cmpint (ms_sweep_n_sizes (&s), ==, 1);
}

static void
test_invalid_table (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    MsSweep s;
    char err[256] = "";
    ms_sweep_init_default (&s);
    cases[i].change (&s);
    g_assert_false (ms_sweep_validate (&s, err, sizeof err));
    g_assert_cmpstr (err, ==, cases[i].message);
  }
}

static void
test_mode_lists (void)
{
  MsSweep s;
  char err[256] = "", buf[256];
  ms_sweep_init_default (&s);
  g_assert_true (ms_sweep_set_modes (&s, "pinned,managed-prefetch", err, sizeof err));
  ms_sweep_format_modes (&s, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "pinned,managed-prefetch");
  g_assert_false (ms_sweep_set_modes (&s, "pinned,bogus", err, sizeof err));
  g_assert_cmpstr (err, ==, "unknown mode 'bogus': 'memsweep modes' lists them");
  ms_sweep_format_modes (&s, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "pinned,managed-prefetch"); /* unchanged on error */
  g_assert_false (ms_sweep_set_modes (&s, "", err, sizeof err));
  g_assert_false (ms_sweep_set_modes (&s, "pinned,,host", err, sizeof err));
  g_assert_cmpstr (err, ==, "empty name in mode list 'pinned,,host'");
  /* A list's empty last item and a repeat are slips, refused like ",host". */
  g_assert_false (ms_sweep_set_modes (&s, "host,", err, sizeof err));
  g_assert_cmpstr (err, ==, "empty name in mode list 'host,'");
  g_assert_false (ms_sweep_set_modes (&s, "host,pinned,host", err, sizeof err));
  g_assert_cmpstr (err, ==, "mode 'host' named twice in 'host,pinned,host'");
  g_assert_true (ms_sweep_set_modes (&s, "all", err, sizeof err));
  g_assert_cmpint (ms_sweep_n_modes (&s), ==, MS_MODE_COUNT);
}

static void
test_names_round_trip (void)
{
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    MsMode back;
    g_assert_true (ms_mode_from_name (ms_mode_name (m), &back));
    g_assert_true (back == (MsMode)m);
    g_assert_true (strlen (ms_mode_description (m)) > 20);
  }
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    MsPhase back;
    g_assert_true (ms_phase_from_name (ms_phase_name (p), &back));
    g_assert_true (back == (MsPhase)p);
  }
  char buf[32];
  ms_format_bytes (4096, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "4 KiB");
  ms_format_bytes (4u << 20, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "4 MiB");
  ms_format_bytes (1536, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "1.5 KiB");
  g_assert_cmpfloat (fabs ((double)(ms_pcie_theoretical_gbps (4, 16)) - (double)(31.504)), <=,
                     0.01);
  g_assert_cmpfloat (fabs ((double)(ms_pcie_theoretical_gbps (5, 16)) - (double)(63.008)), <=,
                     0.01);
  g_assert_true (ms_pcie_theoretical_gbps (0, 16) == 0);
}

/* The facts each mode's record gives (ms-mode-list.h), which the backend,
 * the sweep's checks and the drawings read instead of naming modes. */
static void
test_mode_records (void)
{
  static const struct {
    const char *name;
    MsModeMemory memory;
    MsModeNeed need;
    bool reuse, stores, streams;
  } facts[] = {
    { "pageable", MS_MEMORY_COPIED, MS_NEED_NOTHING, false, false, false },
    { "pinned", MS_MEMORY_COPIED, MS_NEED_NOTHING, true, true, false },
    { "registered", MS_MEMORY_COPIED, MS_NEED_NOTHING, false, false, false },
    { "write-combined", MS_MEMORY_COPIED, MS_NEED_NOTHING, false, true, false },
    { "zero-copy", MS_MEMORY_MAPPED, MS_NEED_MAP_HOST_MEMORY, true, false, false },
    { "uva", MS_MEMORY_MAPPED, MS_NEED_UNIFIED_ADDRESSING, true, false, false },
    { "managed", MS_MEMORY_MANAGED, MS_NEED_MANAGED_MEMORY, true, false, false },
    { "managed-prefetch", MS_MEMORY_MANAGED, MS_NEED_CONCURRENT_MANAGED_ACCESS, false, false,
      false },
    { "streams", MS_MEMORY_COPIED, MS_NEED_NOTHING, false, false, true },
    { "device", MS_MEMORY_DEVICE, MS_NEED_NOTHING, false, false, false },
    { "host", MS_MEMORY_HOST, MS_NEED_NOTHING, false, false, false },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (facts); i++) {
    MsMode m;
    g_assert_true (ms_mode_from_name (facts[i].name, &m));
    g_assert_cmpint (ms_mode_memory (m), ==, facts[i].memory);
    g_assert_cmpint (ms_mode_need (m), ==, facts[i].need);
    g_assert_cmpint (ms_sweep_knob_applies (MS_KNOB_REUSE, m), ==, facts[i].reuse);
    g_assert_cmpint (ms_sweep_knob_applies (MS_KNOB_STORES, m), ==, facts[i].stores);
    g_assert_cmpint (ms_sweep_knob_applies (MS_KNOB_STREAMS, m), ==, facts[i].streams);
  }
  /* What holds of any mode, one added later too. */
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    MsModeMemory memory = ms_mode_memory (m);
    MsPhase to_device = ms_mode_to_device_phase (m), to_host = ms_mode_to_host_phase (m);
    g_assert_cmpuint (strlen (ms_mode_short_name (m)), <=, 10);
    g_assert_cmpstr (ms_mode_title (m), !=, "");
    g_assert_cmpint (ms_mode_uses_gpu (m), ==, memory != MS_MEMORY_HOST);
    if (memory == MS_MEMORY_COPIED)
      g_assert_true (to_device == MS_PHASE_H2D && to_host == MS_PHASE_D2H);
    if (memory == MS_MEMORY_MAPPED || memory == MS_MEMORY_DEVICE || memory == MS_MEMORY_HOST)
      g_assert_true (to_device == MS_PHASE_COUNT && to_host == MS_PHASE_COUNT);
    if (!ms_mode_uses_gpu (m))
      g_assert_cmpint (ms_mode_need (m), ==, MS_NEED_NOTHING);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sweep/default-is-valid", test_default_is_valid);
  g_test_add_func ("/sweep/invalid-table", test_invalid_table);
  g_test_add_func ("/sweep/mode-lists", test_mode_lists);
  g_test_add_func ("/sweep/names-round-trip", test_names_round_trip);
  g_test_add_func ("/sweep/mode-records", test_mode_records);
  int rc = g_test_run ();
  return rc;
}
