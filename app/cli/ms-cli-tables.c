/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-tables.c: tables as a teacher would draw them: sizes down, modes
 * across, time in microseconds and bandwidth in GB/s; text measured and
 * padded in terminal columns. printf's "%-12s" pads by bytes: a
 * translated heading of CJK characters (three bytes, two columns each)
 * came out short, and the rows below it no longer lined up. */
#define _XOPEN_SOURCE 700 /* wcswidth */
#include "ms-cli-tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ms-i18n.h"
#include "ms-engine.h"

/* Code points of UTF-8 text: its bytes but continuation bytes. */
static int
code_points (const char *text)
{
  int n = 0;
  for (const char *p = text; *p; p++)
    n += ((unsigned char) *p & 0xc0) != 0x80;
  return n;
}

int
ms_cli_text_width (const char *text)
{
  if (!text || !*text)
    return 0;
  size_t n = mbstowcs (NULL, text, 0);
  if (n == (size_t) -1)
    return code_points (text);
  wchar_t small[256], *wide = n < 256 ? small : malloc ((n + 1) * sizeof *wide);
  if (!wide)
    return code_points (text);
  mbstowcs (wide, text, n + 1);
  int width = wcswidth (wide, n);
  if (wide != small)
    free (wide);
  return width >= 0 ? width : code_points (text);
}

void
ms_cli_put_padded (FILE *out, const char *text, int width)
{
  int pad = abs (width) - ms_cli_text_width (text);
  if (width < 0)
    fputs (text, out);
  for (; pad > 0; pad--)
    fputc (' ', out);
  if (width > 0)
    fputs (text, out);
}

const char *
ms_report_clean (const char *in, char *out, size_t len)
{
  /* Control characters (C0, DEL, and C1 as UTF-8) and bytes that are not
   * UTF-8 become visible escapes, so a file cannot move the cursor,
   * recolour the terminal or garble the line. */
  size_t used = 0, left = strlen (in);
  const unsigned char *p = (const unsigned char *) in;
  if (len == 0)
    return out;
  while (*p && used + 7 < len) {
    size_t n = ms_utf8_char_length ((const char *) p, left);
    if (n == 0 || *p < 0x20 || *p == 0x7f) {
      used += snprintf (out + used, len - used, "\\x%02x", *p);
      n = 1;
    } else if (*p == 0xc2 && p[1] <= 0x9f) {
      used += snprintf (out + used, len - used, "\\u%04x", p[1]);
    } else {
      memcpy (out + used, p, n);
      used += n;
    }
    p += n;
    left -= n;
  }
  out[used] = '\0';
  return out;
}

/* "  label      " with the label in a column of its own. */
static void
put_label (FILE *out, const char *label)
{
  fputs ("  ", out);
  ms_cli_put_padded (out, label, -23);
  fputc (' ', out);
}

/* "13.0", or "unknown" in the reader's language (files keep the English word). */
static void
version_text (int cuda_version, char *buf, size_t len)
{
  if (cuda_version > 0)
    ms_format_version (cuda_version, buf, len);
  else
    snprintf (buf, len, "%s", ms_gettext ("unknown"));
}

static const char *
yes_no (bool v)
{
  return v ? ms_gettext ("yes") : ms_gettext ("no");
}

void
ms_report_device (FILE *out, const MsDeviceInfo *d)
{
  char total[32], freeb[32], drv[16], rt[16], name[1024], error[1024];
  version_text (d->driver_version, drv, sizeof drv);
  version_text (d->runtime_version, rt, sizeof rt);
  ms_report_clean (d->name, name, sizeof name);
  ms_report_clean (d->error[0] ? d->error : ms_gettext ("unknown"), error, sizeof error);
  if (!d->present) {
    fprintf (out, ms_gettext ("Device %d: none (%s)\n"), d->index, error);
    fprintf (out, ms_gettext ("CUDA driver %s, runtime %s\n"), drv, rt);
    return;
  }
  ms_format_bytes (d->total_mem, total, sizeof total);
  ms_format_bytes (d->free_mem, freeb, sizeof freeb);
  /* A run read back from a file may not know how many GPUs its host had. */
  if (d->count > d->index)
    fprintf (out, ms_gettext ("Device %d of %d: %s\n"), d->index, d->count, name);
  else
    fprintf (out, ms_gettext ("Device %d: %s\n"), d->index, name);
  put_label (out, ms_gettext ("compute capability"));
  fprintf (out, "%d.%d\n", d->cc_major, d->cc_minor);
  /* TRANSLATORS: the device's own memory (VRAM). */
  put_label (out, ms_gettext ("memory"));
  fprintf (out, ms_gettext ("%s total, %s free\n"), total, freeb);
  put_label (out, ms_gettext ("CUDA driver / runtime"));
  fprintf (out, ms_gettext ("%s / %s (NVIDIA driver %s)\n"), drv, rt,
           d->driver_release[0] ? d->driver_release : ms_gettext ("unknown"));
  put_label (out, ms_gettext ("PCIe link"));
  if (d->pcie_gen > 0)
    fprintf (out, ms_gettext ("gen%d x%d now, gen%d x%d max (%.1f GB/s per direction)\n"),
             d->pcie_gen, d->pcie_width, d->pcie_gen_max, d->pcie_width_max,
             ms_pcie_theoretical_gbps (d->pcie_gen_max ? d->pcie_gen_max : d->pcie_gen,
                                       d->pcie_width_max ? d->pcie_width_max : d->pcie_width));
  else
    fprintf (out, ms_gettext ("unknown (NVML not available)\n"));
  put_label (out, ms_gettext ("PCI bus id"));
  fprintf (out, "%s\n", d->pci_bus_id[0] ? d->pci_bus_id : ms_gettext ("unknown"));
  /* CUDA's attribute names, as in its documentation. */
  fprintf (out, "  canMapHostMemory        %s\n", yes_no (d->can_map_host_memory));
  fprintf (out, "  concurrentManagedAccess %s\n", yes_no (d->concurrent_managed_access));
  fprintf (out, "  pageableMemoryAccess    %s\n", yes_no (d->pageable_memory_access));
  fprintf (out, "  unifiedAddressing       %s\n", yes_no (d->unified_addressing));
  fprintf (out, "  asyncEngineCount        %d\n", d->async_engine_count);
  fprintf (out, "  concurrentKernels       %d\n", d->concurrent_kernels);
  fprintf (out, "  stream priorities       %d (least) .. %d (greatest)\n", d->priority_least,
           d->priority_greatest);
  put_label (out, ms_gettext ("multiprocessors"));
  fprintf (out, "%d, L2 %d MiB\n", d->multiprocessors, d->l2_bytes >> 20);
  put_label (out, ms_gettext ("host CPUs (affinity)"));
  fprintf (out, "%s\n", d->host_cpu_affinity);
}

/* What the cells hold, whatever the settings said: sizes, modes and
 * repetitions as they are in the data. */
static void
report_contents (FILE *out, const MsResults *r)
{
  int lo = -1, hi = -1, n_sizes = 0, reps_lo = 0, reps_hi = 0, n_modes = 0;
  bool size_seen[MS_MAX_EXPONENT + 1] = { false }, mode_seen[MS_MODE_COUNT] = { false };
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    /* A probe lesson's cell of one element is a setting, not a size. */
    if (c->exponent > 0 && c->exponent <= MS_MAX_EXPONENT && !size_seen[c->exponent]) {
      size_seen[c->exponent] = true;
      n_sizes++;
      lo = lo < 0 || c->exponent < lo ? c->exponent : lo;
      hi = c->exponent > hi ? c->exponent : hi;
    }
    if ((int) c->mode >= 0 && c->mode < MS_MODE_COUNT && !mode_seen[c->mode]) {
      mode_seen[c->mode] = true;
      n_modes++;
    }
    if (c->n_reps > 0) {
      reps_lo = reps_lo == 0 || c->n_reps < reps_lo ? c->n_reps : reps_lo;
      reps_hi = c->n_reps > reps_hi ? c->n_reps : reps_hi;
    }
  }
  if (r->n_cells == 0) {
    fprintf (out, ms_gettext ("holds no cells\n"));
    return;
  }
  fprintf (out, ms_ngettext ("holds %zu cell: ", "holds %zu cells: ", r->n_cells), r->n_cells);
  fprintf (out, ms_ngettext ("%d mode, ", "%d modes, ", n_modes), n_modes);
  if (n_sizes > 0)
    fprintf (out,
             ms_ngettext ("%d size from 2^%d to 2^%d, ", "%d sizes from 2^%d to 2^%d, ", n_sizes),
             n_sizes, lo, hi);
  if (reps_hi == 0)
    fprintf (out, ms_gettext ("no repetitions\n"));
  else if (reps_lo == reps_hi)
    fprintf (out, ms_ngettext ("%d repetition per cell with data\n",
                               "%d repetitions per cell with data\n", reps_hi), reps_hi);
  else
    fprintf (out, ms_gettext ("%d to %d repetitions per cell with data\n"), reps_lo, reps_hi);
}

/* A plain sweep's knobs (run --reuse, --stores) name the cells they
 * reached: say which, since the tables show modes only. */
static void
report_knobs (FILE *out, const MsResults *r)
{
  if (r->experiment[0])
    return;
  bool any = false;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    const char *names[2];
    if (ms_results_variants (r, (MsMode) m, names, 2) != 1 || !names[0][0])
      continue;
    char clean[256];
    fprintf (out, "%s%s %s", any ? ", " : ms_gettext ("knobs: "), ms_mode_name ((MsMode) m),
             ms_report_clean (names[0], clean, sizeof clean));
    any = true;
  }
  if (any)
    fputc ('\n', out);
}

void
ms_report_header (FILE *out, const MsResults *r, bool with_settings)
{
  char drv[16], rt[16], version[128], date[128], name[1024];
  version_text (r->device.driver_version, drv, sizeof drv);
  version_text (r->device.runtime_version, rt, sizeof rt);
  ms_report_clean (r->version, version, sizeof version);
  ms_report_clean (r->date, date, sizeof date);
  /* A file whose metadata could not be read says so (its warning says
   * why), rather than claim a run without a GPU; a run without one says
   * so in the reader's language (the file's "none" is its identifier). */
  bool named = r->device.name[0] && (r->device.present || strcmp (r->device.name, "none"));
  const char *device = named                           ? r->device.name
                       : ms_results_device_unknown (r) ? ms_gettext ("device unknown")
                                                       : ms_gettext ("no GPU");
  ms_report_clean (device, name, sizeof name);
  fprintf (out, ms_gettext ("memsweep %s  %s  %s (driver %s, runtime %s"), version, date, name,
           drv, rt);
  if (r->device.pcie_gen > 0)
    fprintf (out, ", PCIe gen%d x%d", r->device.pcie_gen, r->device.pcie_width);
  fprintf (out, ")\n");
  report_contents (out, r);
  /* Settings no metadata records are unknown, not the defaults. */
  if (with_settings && r->metadata_unknown[0]) {
    fputs (ms_gettext ("settings: unknown (no metadata records them)\n"), out);
  } else if (with_settings) {
    char reps[160];
    if (r->sweep.reps_rule == MS_REPS_FIXED)
      snprintf (reps, sizeof reps, ms_gettext ("%d repetitions"), r->sweep.reps);
    else
      snprintf (reps, sizeof reps,
                ms_gettext ("at least %d repetitions until the median's 95%% interval is within "
                            "+-%g%% or %g ms are spent,"), r->sweep.min_reps,
                r->sweep.ci_target_pct, r->sweep.cell_budget_ms);
    /* A lesson sets sizes and streams per cell (its variants): its sweep
     * settings describe only its first part. */
    if (r->experiment[0])
      fprintf (out, ms_gettext ("settings: %s after %d warm-up; sizes and streams as the lesson "
                                "sets them per cell\n"), reps, r->sweep.warmup);
    else
      /* TRANSLATORS: the last %s is "depth-first" or "breadth-first". */
      fprintf (out, ms_gettext ("settings: sizes 2^%d..2^%d step %d, %s after %d warm-up, "
                                "streams K=%d %s\n"),
               r->sweep.min_exp, r->sweep.max_exp, r->sweep.step, reps, r->sweep.warmup,
               r->sweep.streams, r->sweep.order == MS_ORDER_BREADTH_FIRST
                                   ? ms_gettext ("breadth-first")
                                   : ms_gettext ("depth-first"));
  }
  report_knobs (out, r);
}

/* The modes and sizes that appear in the results, in their order. */
static void
present_cells (const MsResults *r, MsMode *modes, int *n_modes, int *exps, int *n_exps)
{
  bool mode[MS_MODE_COUNT] = { false }, size[MS_MAX_EXPONENT + 1] = { false };
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if ((int) c->mode >= 0 && c->mode < MS_MODE_COUNT)
      mode[c->mode] = true;
    if (c->exponent >= 0 && c->exponent <= MS_MAX_EXPONENT)
      size[c->exponent] = true;
  }
  *n_modes = *n_exps = 0;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (mode[m])
      modes[(*n_modes)++] = (MsMode) m;
  for (int e = 0; e <= MS_MAX_EXPONENT; e++)
    if (size[e])
      exps[(*n_exps)++] = e;
}

typedef enum {
  GRID_TIME,     /* median e2e time */
  GRID_CI,       /* its 95% interval as +- % */
  GRID_RR,       /* the interval with the run-to-run spread, as +- % */
  GRID_GBPS,     /* e2e bandwidth */
  GRID_RESIDUAL, /* the fit's relative residual */
  GRID_OVERHEAD, /* instrumented / plain median e2e */
} GridKind;

/* The interval as the larger of its two sides, in percent of the median;
 * '*' when n < 6 allows no 95% interval and min..max stands in. */
static void
ci_text (const MsStat *st, char *buf, size_t len)
{
  double side = fmax (st->median - st->ci_low, st->ci_high - st->median);
  double pct = st->median > 0 ? 100.0 * side / st->median : 0;
  snprintf (buf, len, pct < 10 ? "+-%.1f%s" : "+-%.0f%s", pct, st->ci_valid ? "" : "*");
}

/* The wider side of [lo, hi] around the median, in percent of it. */
static void
rr_text (const MsResults *r, const MsCell *c, char *buf, size_t len)
{
  double lo, hi, m = c->stats.e2e.median;
  if (!ms_run_to_run_interval (&r->run_to_run, c, &lo, &hi) || !(m > 0)) {
    snprintf (buf, len, "-");
    return;
  }
  double pct = 100.0 * fmax (m - lo, hi - m) / m;
  snprintf (buf, len, pct < 10 ? "+-%.1f" : "+-%.0f", pct);
}

/* Instrumented over plain, with the difference in us: "1.49×+8.3" (the
 * ratio sign of the captions; ms_cli_put_padded pads by display width). */
static void
overhead_text (const MsCell *c, char *buf, size_t len)
{
  double ratio, diff;
  if (!ms_cell_instr_overhead (c, &ratio, &diff))
    snprintf (buf, len, "-");
  else
    snprintf (buf, len, fabs (diff) < 100 ? "%.2f×%+.1f" : "%.2f×%+.0f", ratio, diff);
}

static bool
has_overhead (const MsResults *r)
{
  for (size_t i = 0; i < r->n_cells; i++)
    if (ms_cell_instr_overhead (&r->cells[i], NULL, NULL))
      return true;
  return false;
}

bool
ms_report_has_numbers (const MsCell *c)
{
  /* A cell stopped part-way keeps the statistics of the repetitions it
   * finished (docs/csv.md): they are shown, its note says it stopped. */
  return c->status == MS_CELL_OK || (c->status == MS_CELL_PARTIAL && c->stats.e2e.n > 0);
}

static void
cell_text (const MsResults *r, const MsCell *c, GridKind kind, const MsFit *fit, char *buf,
           size_t len)
{
  double resid;
  if (!c) {
    buf[0] = '\0';
    return;
  }
  switch (ms_report_has_numbers (c) ? MS_CELL_OK : c->status) {
  case MS_CELL_OK:
    if (kind == GRID_GBPS)
      snprintf (buf, len, "%.2f", c->stats.e2e_gbps);
    else if (kind == GRID_CI)
      ci_text (&c->stats.e2e, buf, len);
    else if (kind == GRID_RR)
      rr_text (r, c, buf, len);
    else if (kind == GRID_RESIDUAL && ms_fit_residual_at (fit, c->exponent, &resid))
      snprintf (buf, len, "%+.1f%%", 100.0 * resid);
    else if (kind == GRID_RESIDUAL)
      snprintf (buf, len, "-");
    else if (kind == GRID_OVERHEAD)
      overhead_text (c, buf, len);
    else
      snprintf (buf, len, c->stats.e2e.median < 100 ? "%.2f" : "%.1f", c->stats.e2e.median);
    break;
  /* TRANSLATORS: table cells without a number, at most 10 columns wide. */
  case MS_CELL_UNSUPPORTED: snprintf (buf, len, "%s", ms_gettext ("n/a")); break;
  case MS_CELL_VERIFY_FAILED: snprintf (buf, len, "%s", ms_gettext ("WRONG")); break;
  case MS_CELL_CANCELLED:
  case MS_CELL_PARTIAL: snprintf (buf, len, "-"); break;
  default: snprintf (buf, len, "%s", ms_gettext ("FAIL")); break;
  }
}

static void
print_grid (FILE *out, const MsResults *r, const MsMode *modes, const MsFit *fits, int n_modes,
            const int *exps, int n_exps, GridKind kind)
{
  char buf[32], size[32];
  ms_cli_put_padded (out, ms_gettext ("size"), -9);
  fputc (' ', out);
  ms_cli_put_padded (out, ms_gettext ("elements"), 9);
  for (int j = 0; j < n_modes; j++)
    fprintf (out, " %10s", ms_mode_short_name (modes[j]));
  fputc ('\n', out);
  for (int i = 0; i < n_exps; i++) {
    ms_format_bytes (ms_exponent_bytes (exps[i]), size, sizeof size);
    fprintf (out, "%-9s %9llu", size, 1ull << exps[i]);
    for (int j = 0; j < n_modes; j++) {
      cell_text (r, ms_results_find (r, modes[j], exps[i]), kind, &fits[j], buf, sizeof buf);
      fputc (' ', out);
      ms_cli_put_padded (out, buf, 10);
    }
    fputc ('\n', out);
  }
}

/* The fit table's headings, padded by display width. */
static void
print_fit_heading (FILE *out)
{
  /* TRANSLATORS: fit table headings; keep each within its column (10, 10,
   * 12, 12, 10, 6 and 8 terminal columns; a CJK character counts two). */
  const char *headings[] = {
    ms_gettext ("h2d GB/s"),   ms_gettext ("d2h GB/s"), ms_gettext ("e2e p50 us"),
    ms_gettext ("latency us"), ms_gettext ("fit GB/s"), "R^2",
    ms_gettext ("max res"),
  };
  static const int widths[] = { 10, 10, 12, 12, 10, 6, 8 };
  ms_cli_put_padded (out, ms_gettext ("mode"), -17);
  for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
    fputc (' ', out);
    ms_cli_put_padded (out, headings[i], widths[i]);
  }
  fprintf (out, "  %s\n", ms_gettext ("fit"));
}

static void
print_fit_table (FILE *out, const MsResults *r, const MsMode *modes, const MsFit *fits,
                 int n_modes, int last)
{
  char size[32];
  ms_format_bytes (ms_exponent_bytes (last), size, sizeof size);
  fprintf (out, ms_gettext ("\nPer mode: copy bandwidth at 2^%d (%s per vector) and the fit "
                            "time = latency + bytes / bandwidth over all sizes (end-to-end,\n"
                            "latency >= 0); the fit describes the data when R^2 >= %.2f and "
                            "every point lies within %.0f%% of it, else its figures are in "
                            "parentheses\n"),
           last, size, MS_FIT_MIN_R2, 100.0 * MS_FIT_MAX_RESIDUAL);
  print_fit_heading (out);
  for (int j = 0; j < n_modes; j++) {
    const MsCell *c = ms_results_find (r, modes[j], last);
    const MsFit *fit = &fits[j];
    char h2d[16] = "-", d2h[16] = "-", e2e[16] = "-", lat[16] = "-", bw[16] = "-", r2[16] = "-",
         res[16] = "-";
    const char *verdict = "-";
    if (c && ms_report_has_numbers (c)) {
      if (c->stats.h2d_gbps > 0)
        snprintf (h2d, sizeof h2d, "%.2f", c->stats.h2d_gbps);
      if (c->stats.d2h_gbps > 0)
        snprintf (d2h, sizeof d2h, "%.2f", c->stats.d2h_gbps);
      snprintf (e2e, sizeof e2e, "%.1f", c->stats.e2e.median);
    }
    if (fit->valid) {
      /* Parentheses: a number from a line that does not follow the points. */
      const char *open = fit->describes_data ? "" : "(", *close = fit->describes_data ? "" : ")";
      snprintf (lat, sizeof lat, "%s%.1f%s", open, fit->latency_us, close);
      if (fit->bandwidth_gbps > 0)
        snprintf (bw, sizeof bw, "%s%.2f%s", open, fit->bandwidth_gbps, close);
      snprintf (r2, sizeof r2, "%.3f", fit->r2);
      snprintf (res, sizeof res, "%.1f%%", 100.0 * fit->max_abs_residual);
      verdict = fit->describes_data ? ms_gettext ("describes the data")
                                    : ms_gettext ("does not describe the data");
    }
    fprintf (out, "%-17s %10s %10s %12s %12s %10s %6s %8s  %s%s\n", ms_mode_name (modes[j]), h2d,
             d2h, e2e, lat, bw, r2, res, verdict,
             fit->valid && fit->at_bound ? ms_gettext (" (latency held at 0)") : "");
  }
}

/* Cells whose repetitions fell into two states: their median is neither,
 * so each state is named with its share. */
static void
print_two_states (FILE *out, const MsResults *r)
{
  bool any = false;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    const MsTwoStates *s = &c->stats.states;
    if (!s->found)
      continue;
    if (!any)
      fprintf (out, "%s", ms_gettext ("\nTwo states: these cells' repetitions fell into two "
                                      "clusters, and the median above is neither\n"));
    any = true;
    char size[32];
    ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
    fprintf (out, ms_gettext ("  %-16s %9s  %.2f us (%.0f%%) and %.2f us (%.0f%%)\n"),
             ms_mode_name (c->mode), size, s->low_us, 100 * (1 - s->high_share), s->high_us,
             100 * s->high_share);
  }
}

void
ms_report_table (FILE *out, const MsResults *r)
{
  MsMode modes[MS_MODE_COUNT];
  MsFit fits[MS_MODE_COUNT];
  int exps[MS_MAX_EXPONENT + 1];
  int n_modes, n_exps;
  present_cells (r, modes, &n_modes, exps, &n_exps);

  if (n_modes == 0) {
    fprintf (out, ms_gettext ("\n(no results)\n"));
    return;
  }
  for (int j = 0; j < n_modes; j++)
    fits[j] = ms_results_fit (r, modes[j], MS_PHASE_COUNT);
  fprintf (out, ms_gettext ("\nEnd-to-end time, median in us (first data movement to result "
                            "readable on the host); size is per vector\n"));
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_TIME);
  fprintf (out, ms_gettext ("\nEnd-to-end time, 95%% confidence interval of the median as +- %% "
                            "of it (the wider side); * : fewer than 6 repetitions, min..max "
                            "instead\n"));
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_CI);
  if (r->run_to_run.valid) {
    fprintf (out,
             ms_gettext ("\nEnd-to-end time, 95%% interval for another run's median as +- %% "
                         "(the wider side): the interval above widened by the run-to-run "
                         "spread of %d separate runs (memsweep calibrate, %s)\n"),
             r->run_to_run.runs, r->run_to_run.date);
    print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_RR);
  }
  print_two_states (out, r);
  fprintf (out,
           ms_gettext ("\nEnd-to-end bandwidth in GB/s (3 vectors x 4 bytes x N / median time)\n"));
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_GBPS);
  print_fit_table (out, r, modes, fits, n_modes, exps[n_exps - 1]);
  fprintf (out, ms_gettext ("\nFit residuals, (measured - fit) / measured end-to-end time\n"));
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_RESIDUAL);
  if (has_overhead (r)) {
    fprintf (out, ms_gettext ("\nInstrumentation overhead: median end-to-end time of the "
                              "instrumented repetitions (latch, an event pair around every "
                              "step) / that of the plain ones, and the difference in us\n"));
    print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_OVERHEAD);
  }

  /* Why cells have no number (or fewer repetitions): one line per distinct
   * reason and mode. */
  bool header = false;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->status == MS_CELL_OK)
      continue;
    bool seen = false;
    for (size_t k = 0; k < i && !seen; k++)
      seen = r->cells[k].mode == c->mode && r->cells[k].status == c->status &&
             strcmp (r->cells[k].message, c->message) == 0;
    if (seen)
      continue;
    if (!header) {
      fprintf (out, ms_gettext ("\nCells without a number, or stopped part-way:\n"));
      header = true;
    }
    char message[4 * sizeof c->message];
    ms_report_clean (c->message, message, sizeof message);
    fprintf (out, "  %s 2^%d%s: %s: %s\n", ms_mode_name (c->mode), c->exponent,
             c->status == MS_CELL_UNSUPPORTED ? ms_gettext (" (and every size)") : "",
             ms_cell_status_name (c->status), message);
  }
}
