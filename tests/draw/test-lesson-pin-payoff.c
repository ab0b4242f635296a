/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-pin-payoff.c: the pin-payoff lesson (engine/lessons/ms-lesson-pin-payoff.c):
 * its options, its cells, the break-even N from a model where pinning pays
 * off (against fresh pageable pages and against a reused heap, and for a
 * host memory pool) and from one where its copies are no faster, a size
 * skipped for memory named in the caption, a driver without host pools
 * named in the caption, the variants through the samples file, the
 * second part's figures against the share of memory held pinned, and its
 * picture. */
#include <math.h>

#include "ms-lesson-pin-payoff.h"
#include "ms-lesson-picture-test.h"
#include "lessons/ms-lesson-table.h"
#include "lessons/ms-run-read.h"
#include "model/ms-results.h"
#include "ms-sweep.h"

#define NAME "pin-payoff"

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options (NAME, "max-exp=28,max-pinned-pct=10", err, sizeof err));
  ms_test_option_refused (NAME, "max-exp=30", "outside");
  ms_test_option_refused (NAME, "max-exp=12", "outside");
  ms_test_option_refused (NAME, "max-pinned-pct=51", "outside");
  ms_test_option_refused (NAME, "max-pinned-pct=ten", "whole number");
  ms_test_option_refused (NAME, "pct=10", "no option");
  ms_test_option_refused (NAME, "max-exp=20,max-exp=22", "twice");
}

static void
test_cells (void)
{
  MsProbeCell cells[MS_PROBE_MAX_CELLS];
  int n = ms_test_lesson_cells (NAME, "", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 7 * 6 * 3); /* exponents 14..26 step 2, six kinds, three steps */
  ms_test_cells_unique (cells, n);
  g_assert_cmpint (cells[0].exponent, ==, 14);
  g_assert_cmpstr (cells[0].variant, ==, "mode=pageable/step=setup");
  g_assert_cmpstr (cells[5].variant, ==, "mode=pinned/step=copy");
  g_assert_cmpint (cells[5].mode, ==, MS_MODE_PINNED);
  g_assert_cmpint (cells[5].arg[0], ==, 2);  /* copy */
  g_assert_cmpint (cells[5].arg[1], ==, 25); /* max-pinned-pct */
  g_assert_cmpint (cells[5].arg[2], ==, 1);  /* pinned */
  g_assert_cmpstr (cells[9].variant, ==, "mode=pageable-reused/step=setup");
  g_assert_cmpint (cells[9].mode, ==, MS_MODE_PAGEABLE);
  g_assert_cmpint (cells[9].arg[2], ==, MS_PIN_PAGEABLE_REUSED);
  g_assert_cmpstr (cells[12].variant, ==, "mode=pool-first/step=setup");
  g_assert_cmpint (cells[12].arg[2], ==, MS_PIN_POOL_FIRST);
  g_assert_cmpint (cells[n - 1].exponent, ==, 26);
  g_assert_cmpint (cells[n - 1].mode, ==, MS_MODE_PINNED);
  g_assert_cmpstr (cells[n - 1].variant, ==, "mode=pool-kept/step=copy");
  n = ms_test_lesson_cells (NAME, "max-exp=28,max-pinned-pct=5", cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 8 * 18);
  g_assert_cmpint (cells[n - 1].arg[1], ==, 5);
  /* Part 1: five shares up to held-max-pct, an allocation and a copy each. */
  MsSweep s;
  ms_sweep_init_default (&s);
  g_strlcpy (s.options, "held-max-pct=20", sizeof s.options);
  n = ms_lesson_record_find (NAME)->cells (&s, 1, cells, MS_PROBE_MAX_CELLS);
  g_assert_cmpint (n, ==, 10);
  ms_test_cells_unique (cells, n);
  g_assert_cmpstr (cells[0].variant, ==, "held-permille=0/step=pinned-alloc");
  g_assert_cmpstr (cells[3].variant, ==, "held-permille=50/step=pageable-copy");
  g_assert_cmpint (cells[3].arg[3], ==, 50);
  g_assert_cmpint (cells[n - 1].arg[3], ==, 200);
  g_assert_cmpint (cells[n - 1].exponent, ==, 24);
}

/* Costs in µs for b bytes: step 0 setup, 1 release, 2 copy; kinds in
 * MsPinKind's order (fresh pageable, pinned, registered, reused heap,
 * pool's first allocation, kept pool). */
static double
cost (int kind, int step, double b, bool pays)
{
  static const double once[MS_PIN_KIND_COUNT][2]
      = { { 1, 1 }, { 100, 50 }, { 50, 20 }, { 0.5, 0.5 }, { 80, 40 }, { 5, 5 } };
  static const double per_byte[MS_PIN_KIND_COUNT][2]
      = { { 1 / 4e3, 0 },  { 1 / 1e3, 0 },   { 1 / 2e3, 0 },
          { 1 / 40e3, 0 }, { 1 / 1.5e3, 0 }, { 0, 0 } };
  bool pageable = kind == MS_PIN_PAGEABLE || kind == MS_PIN_PAGEABLE_REUSED;
  if (step == 2)
    return b / (pageable || !pays ? 10e3 : 25e3);
  return once[kind][step] + per_byte[kind][step] * b;
}

/* The second part: allocating gets slower and copies slower as more is
 * held (a model, not a claim about any machine). */
static double
held_alloc_us (int permille)
{
  return 20000 + 100.0 * permille;
}

static double
held_copy_gbps (int permille)
{
  return 8 - 0.01 * permille;
}

#define NO_POOLS "unsupported: this device and driver have no host memory pools"

static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, bool pays, bool pools)
{
  if (a->arg[0] >= 3) {
    out->value_us = a->arg[0] == 3 ? held_alloc_us (a->arg[3])
                                   : (double)a->bytes / held_copy_gbps (a->arg[3]) * 1e-3;
    return MS_CELL_OK;
  }
  if (a->bytes > (64u << 20)) {
    snprintf (out->error, sizeof out->error, "skipped: %u MiB is more than 25%% of MemAvailable",
              (unsigned)(a->bytes >> 20));
    return MS_CELL_UNSUPPORTED;
  }
  if (!pools && (a->arg[2] == MS_PIN_POOL_FIRST || a->arg[2] == MS_PIN_POOL_KEPT)) {
    snprintf (out->error, sizeof out->error, NO_POOLS);
    return MS_CELL_UNSUPPORTED;
  }
  out->value_us = cost (a->arg[2], a->arg[0], (double)a->bytes, pays);
  return MS_CELL_OK;
}

static MsCellStatus
model_pays (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  return model (a, out, true, true);
}

static MsCellStatus
model_no_pools (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  return model (a, out, true, false);
}

static MsCellStatus
model_never (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  return model (a, out, false, true);
}

/* Registering pins a fresh pageable buffer, whose cost it carries. */
static double
expected_n (int kind, int base_kind, double b)
{
  double fresh = cost (0, 0, b, true) + cost (0, 1, b, true);
  double base = cost (base_kind, 0, b, true) + cost (base_kind, 1, b, true);
  double once = cost (kind, 0, b, true) + cost (kind, 1, b, true) + (kind == 2 ? fresh : 0);
  return fmax (1, ceil ((once - base) / (cost (base_kind, 2, b, true) - cost (kind, 2, b, true))));
}

/* The caption's item for a line of the chart (from its name to the next
 * ';' or '.') holds want. */
static void
assert_item_has (const char *caption, const char *line, const char *want)
{
  const char *at = strstr (caption, line);
  g_assert_nonnull (at);
  g_autofree char *item = g_strndup (at, strcspn (at, ";."));
  if (!strstr (item, want))
    g_error ("'%s' lacks '%s'", item, want);
}

/* The picture's costs table shows us as the caption would write it. */
static void
assert_picture_time (const MsTestPicture *p, double us)
{
  char t[32];
  ms_caption_time (us, t, sizeof t);
  for (guint i = 0; i < p->texts->len; i++)
    if (g_str_equal (g_ptr_array_index (p->texts, i), t))
      return;
  g_error ("the picture lacks %s", t);
}

static void
test_pays (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "", model_pays);
  g_assert_cmpuint (r->n_cells, ==, 126 + 10);
  MsPinHeld lv[8];
  g_assert_cmpint (ms_pin_payoff_held (r, lv, 8), ==, 5);
  for (int i = 0; i < 5; i++) {
    g_assert_cmpfloat_with_epsilon (lv[i].held_pct, 2.5 * i, 1e-9);
    g_assert_cmpfloat_with_epsilon (lv[i].alloc_us, held_alloc_us (25 * i), 1e-6);
    g_assert_cmpfloat_with_epsilon (lv[i].copy_gbps, held_copy_gbps (25 * i), 1e-6);
  }
  double n = 0;
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, 14, &n), ==, 1);
  g_assert_cmpfloat (n, ==, expected_n (MS_PIN_PINNED, MS_PIN_PAGEABLE, 65536));
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_REGISTERED, MS_PIN_PAGEABLE, 20, &n), ==, 1);
  g_assert_cmpfloat (n, ==, expected_n (MS_PIN_REGISTERED, MS_PIN_PAGEABLE, 4 << 20));
  /* Against a heap that hands back what it kept, pinning comes back
   * later: the pageable buffer costs less to get. */
  double fresh_n = 0;
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, 14, &n), ==,
                   1);
  ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, 14, &fresh_n);
  g_assert_cmpfloat (n, ==, expected_n (MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, 65536));
  g_assert_cmpfloat (n, >, fresh_n);
  /* A pool that kept its memory costs less to get than one that starts
   * empty, and pays off sooner. */
  MsPinCost first, kept;
  g_assert_true (ms_pin_payoff_cost (r, MS_PIN_POOL_FIRST, 20, &first));
  g_assert_true (ms_pin_payoff_cost (r, MS_PIN_POOL_KEPT, 20, &kept));
  g_assert_cmpfloat (kept.once_us, <, first.once_us);
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_POOL_KEPT, MS_PIN_PAGEABLE_REUSED, 14, &n),
                   ==, 1);
  g_assert_cmpfloat (n, ==, expected_n (MS_PIN_POOL_KEPT, MS_PIN_PAGEABLE_REUSED, 65536));
  g_assert_null (ms_pin_payoff_pool_missing (r));
  /* The skipped size has no break-even and says why. */
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, 26, &n), ==, -1);
  char buf[4096] = "", want[128];
  g_assert_true (ms_lesson_caption (MS_TOPIC_PIN_PAYOFF, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  /* The caption: each line of the chart in a few words, with its
   * count at the smallest size. */
  g_snprintf (want, sizeof want, "after %.0f copies at 64 KiB",
              expected_n (MS_PIN_PINNED, MS_PIN_PAGEABLE, 65536));
  assert_item_has (buf, "Pinned vs fresh pageable paid off", want);
  g_snprintf (want, sizeof want, "after %.0f copies at 64 KiB",
              expected_n (MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, 65536));
  assert_item_has (buf, "pinned vs reused heap paid off", want);
  /* One that pays off at once from some size up quotes the most any
   * smaller size took: here the one smaller size. */
  g_snprintf (want, sizeof want, "after up to %.0f copies at smaller sizes (at 64 KiB)",
              expected_n (MS_PIN_POOL_KEPT, MS_PIN_PAGEABLE_REUSED, 65536));
  assert_item_has (buf, "host pool (kept) vs reused heap paid off", want);
  g_assert_null (strstr (buf, "host memory pool was not measured"));
  g_assert_nonnull (strstr (buf, "skipped: 256 MiB is more than 25% of MemAvailable"));
  /* The costs and the held part are the picture's, not the caption's. */
  g_assert_null (strstr (buf, "held pinned"));
  g_assert_null (strstr (buf, "host pool, kept memory"));
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_PIN_PAYOFF, r, FALSE, 1);
  g_assert_true (ms_test_picture_has_text (&p, "Get and release one 64 MiB buffer"));
  for (int k = 0; k < MS_PIN_KIND_COUNT; k++)
    g_assert_true (ms_test_picture_has_text (&p, ms_pin_payoff_kind_label (k)));
  const double mib64 = 64 << 20;
  assert_picture_time (&p, cost (MS_PIN_PAGEABLE, 0, mib64, true)
                               + cost (MS_PIN_PAGEABLE, 1, mib64, true));
  assert_picture_time (&p, cost (MS_PIN_PINNED, 2, mib64, true));
  g_assert_true (ms_test_picture_has_text (&p, "from pinned memory"));
  g_assert_true (ms_test_picture_has_text (&p, "Up to 10% held pinned, the allocation changed"));
  ms_test_picture_clear (&p);
  ms_test_variants_round_trip (r);
  ms_test_picture_renders (MS_TOPIC_PIN_PAYOFF, r);
  ms_results_free (r);
}

static void
test_never (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "max-exp=20", model_never);
  double n = 0;
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE, 16, &n), ==, 0);
  char buf[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_PIN_PAYOFF, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  assert_item_has (buf, "Pinned vs fresh pageable ", "never paid off at any size from 64 KiB to 4 MiB");
  g_assert_nonnull (strstr (buf, "Never: its copies were not faster."));
  /* A kept pool's buffer costs less to get than a heap's, its copies no
   * more: it pays off at once; the others never. */
  assert_item_has (buf, "host pool (kept) vs reused heap ", "paid off after one copy");
  char *pool = strstr (buf, "host pool (kept) vs reused heap");
  *pool = '\0';
  g_assert_null (strstr (buf, "one copy"));
  ms_test_picture_renders (MS_TOPIC_PIN_PAYOFF, r);
  ms_results_free (r);
}

/* A driver without host pools: the pool's cells say so, the caption and
 * the picture name the reason, and the other kinds are measured. */
static void
test_no_pools (void)
{
  MsResults *r = ms_test_lesson_run (NAME, "max-exp=20", model_no_pools);
  double n = 0;
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_POOL_KEPT, MS_PIN_PAGEABLE, 16, &n), ==, -1);
  g_assert_cmpint (ms_pin_payoff_break_even (r, MS_PIN_PINNED, MS_PIN_PAGEABLE_REUSED, 16, &n), ==,
                   1);
  g_assert_cmpstr (ms_pin_payoff_pool_missing (r), ==, NO_POOLS);
  char buf[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_PIN_PAYOFF, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "The host memory pool was not measured: " NO_POOLS "."));
  g_assert_null (strstr (buf, "Not every size was measured"));
  g_assert_null (strstr (buf, "host pool (kept)"));
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_PIN_PAYOFF, r, FALSE, 1);
  g_assert_false (ms_test_picture_has_text (&p, "host pool, kept memory"));
  g_assert_true (ms_test_picture_has_text (&p, "pinned (cudaMallocHost)"));
  ms_test_picture_clear (&p);
  ms_test_picture_renders (MS_TOPIC_PIN_PAYOFF, r);
  ms_results_free (r);
}

/* The sums in the details, from their figures as printed: each
 * quotient as printed at its digits, and rounded up (at least 1) the count
 * printed after it ((11.4 − 9.51) ÷ 1.88 gave 1.005, printed "1.0" beside
 * a count of 1). Returns the count of sums checked. */
static guint
sums_check (const char *all)
{
  g_autoptr (GRegex) re = g_regex_new ("\\(([0-9.]+) − ([0-9.]+)\\) ÷ \\(([0-9.]+) − ([0-9.]+)\\) "
                                       "= ([0-9.]+), rounded up: ([0-9]+)",
                                       0, 0, NULL);
  g_autoptr (GMatchInfo) m = NULL;
  guint n = 0;
  for (g_regex_match (re, all, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL)) {
    double f[6];
    for (int k = 0; k < 6; k++) {
      g_autofree char *t = g_match_info_fetch (m, k + 1);
      f[k] = g_ascii_strtod (t, NULL);
    }
    g_autofree char *q = g_match_info_fetch (m, 5);
    int digits = 0;
    for (const char *c = q; *c; c++)
      digits += g_ascii_isdigit (*c) && (digits > 0 || *c != '0');
    char again[32];
    g_snprintf (again, sizeof again, "%.*g", digits, (f[0] - f[1]) / (f[2] - f[3]));
    g_test_message ("%s from the figures: %s, rounded up %g", q, again, f[5]);
    g_assert_cmpstr (again, ==, q);
    g_assert_cmpfloat (MAX (1, ceil (f[4])), ==, f[5]);
    n++;
  }
  return n;
}

/* A slide's line sum, "11.37 ms once + n × 352.8 µs", in µs. */
static gboolean
parse_sum (const char *text, double *once, double *use)
{
  char u1[8], u2[8];
  if (sscanf (text, "%lf %7s once + n × %lf %7s", once, u1, use, u2) != 4)
    return FALSE;
  *once *= strcmp (u1, "ms") ? 1 : 1000;
  *use *= strcmp (u2, "ms") ? 1 : 1000;
  return TRUE;
}

/* Each GPU's reference run: the chart rings the two points the takeaway
 * names, the copies against fresh pages at its size and against a reused
 * heap there, the dots' medians ("N = 1" and "N = 9" on the H100, as the
 * line says "Pinning 16 MiB pays back in 1 copy, or 9 if malloc reuses memory"); no ring
 * on a figure the line leaves out ("144 copies" on the H100). */
static void
test_ring_as_takeaway (void)
{
  const char *gpus[] = { "h100", "h200" };
  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++) {
    g_autofree char *file = g_strdup_printf ("%s-lesson-pin-payoff-samples.csv.gz", gpus[g]);
    g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), file, NULL);
    char err[512], line[512];
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_nonnull (r);
    g_assert_cmpint (ms_lesson_takeaway (MS_TOPIC_PIN_PAYOFF, r, line, sizeof line), ==,
                     MS_TAKEAWAY_DECIDED);
    g_autoptr (GMatchInfo) m = NULL;
    g_autoptr (GRegex) re
        = g_regex_new (" pays back in (1) cop(y), or ([0-9]+) if malloc reuses memory$", 0, 0, NULL);
    g_assert_true (g_regex_match (re, line, 0, &m));
    g_autofree char *n1 = g_match_info_fetch (m, 1);
    g_autofree char *n = g_match_info_fetch (m, 3);
    g_autofree char *fresh = g_strdup_printf ("N = %s", n1);
    g_autofree char *reused = g_strdup_printf ("N = %s", n);
    MsTestPicture p;
    ms_test_picture_draw (&p, MS_TOPIC_PIN_PAYOFF, r, FALSE, 1);
    guint rings = 0;
    for (guint i = 0; i < p.texts->len; i++) {
      const char *text = g_ptr_array_index (p.texts, i);
      rings += g_regex_match_simple ("^N = [0-9]+$", text, 0, 0);
    }
    g_test_message ("%s: %s; rings \"%s\", \"%s\"", gpus[g], line, fresh, reused);
    g_assert_true (ms_test_picture_has_text (&p, fresh));
    g_assert_true (ms_test_picture_has_text (&p, reused));
    g_assert_cmpuint (rings, ==, 2);
    ms_test_picture_clear (&p);
    /* The sums in the details, as the card gets them; a slide's chart
     * says what the rings count in words (the picture's height on one). */
    char details[MS_LESSON_CAPTION_MAX];
    g_assert_true (ms_lesson_caption (MS_TOPIC_PIN_PAYOFF, r, -1, details, sizeof details));
    g_test_message ("%s", details);
    g_assert_cmpuint (sums_check (details), ==, 2);
    MsChartStyle st;
    ms_chart_style_init_light (&st);
    st.text_scale = 1.6;
    st.slide = TRUE;
    ms_test_picture_draw_at (&p, MS_TOPIC_PIN_PAYOFF, r, &st, 1024, 620);
    /* A slide's lines cross where the takeaway's copies, the next whole
     * n, say, which each mark gives after its arrow: "n = 0.7 → 1" and
     * "n = 7.6 → 8" for "1 copy, or 8" on the H200. */
    guint crossings = 0;
    for (guint i = 0; i < p.texts->len; i++) {
      const char *text = g_ptr_array_index (p.texts, i);
      const char *at = strstr (text, "n = "), *arrow = strstr (text, "→ ");
      if (!at || !arrow
          || !g_regex_match_simple ("^(lines cross at )?n = [0-9]+\\.[0-9]+ → [0-9]+$", text, 0, 0))
        continue;
      int want = atoi (crossings++ ? n : n1);
      g_assert_cmpfloat (ceil (g_ascii_strtod (at + 4, NULL)), ==, want);
      g_assert_cmpint (atoi (arrow + strlen ("→ ")), ==, want);
    }
    g_assert_cmpuint (crossings, ==, 2);
    /* Worked out from the sums the slide prints, as a reader does, the
     * crossings round up to the same copies (at three figures the H100's
     * 0.99 came to 1.007). */
    double once[3], use[3];
    guint sums = 0;
    for (guint i = 0; i < p.texts->len && sums < 3; i++)
      sums += parse_sum (g_ptr_array_index (p.texts, i), &once[sums], &use[sums]);
    g_assert_cmpuint (sums, ==, 3);
    /* Pinned memory's line: the cheapest copy. */
    guint pin = use[0] < use[1] && use[0] < use[2] ? 0 : use[1] < use[2] ? 1 : 2;
    guint copies[2], k = 0;
    for (guint i = 0; i < 3; i++)
      if (i != pin)
        copies[k++] = (guint) ceil ((once[pin] - once[i]) / (use[i] - use[pin]));
    guint fresh_n = (guint) atoi (n1), reused_n = (guint) atoi (n);
    g_assert_true ((copies[0] == fresh_n && copies[1] == reused_n)
                   || (copies[0] == reused_n && copies[1] == fresh_n));
    /* The smaller sizes' most copies, which the headline's size leaves
     * out, as the details give them ("after up to 162 copies at smaller
     * sizes (at 64 KiB)" on the H200). */
    g_autoptr (GRegex) most_re = g_regex_new (
        "Pinned vs fresh pageable paid off after one copy from [^;]* and after up to ([0-9]+) "
        "copies at smaller sizes \\(at ([^)]+)\\)",
        0, 0, NULL);
    g_autoptr (GMatchInfo) most_m = NULL;
    g_assert_true (g_regex_match (most_re, details, 0, &most_m));
    g_autofree char *most_n = g_match_info_fetch (most_m, 1);
    g_autofree char *most_at = g_match_info_fetch (most_m, 2);
    g_autofree char *smaller
        = g_strdup_printf ("Smaller buffers take more copies: up to %s against new pages (at %s).",
                           most_n, most_at);
    gboolean said = FALSE;
    for (guint i = 0; i < p.texts->len && !said; i++)
      said = strstr (g_ptr_array_index (p.texts, i), smaller) != NULL;
    g_assert_true (said);
    ms_test_picture_clear (&p);
    ms_results_free (r);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/pin-payoff/options", test_options);
  g_test_add_func ("/lesson/pin-payoff/cells", test_cells);
  g_test_add_func ("/lesson/pin-payoff/pays", test_pays);
  g_test_add_func ("/lesson/pin-payoff/never", test_never);
  g_test_add_func ("/lesson/pin-payoff/no-pools", test_no_pools);
  g_test_add_func ("/lesson/pin-payoff/ring-as-takeaway", test_ring_as_takeaway);
  return g_test_run ();
}
