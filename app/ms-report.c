/* ms-report.c: tables as a teacher would draw them: sizes down, modes
 * across, time in microseconds and bandwidth in GB/s. */
#include "ms-report.h"

#include <math.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at p (shortest form, no
 * surrogates, at most U+10FFFF), or 0 when p does not start one. */
static int
utf8_sequence_length (const unsigned char *p)
{
  int n = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
                        : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80)
      return 0;
  if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
      (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
    return 0;
  return n;
}

const char *
ms_report_clean (const char *in, char *out, size_t len)
{
  /* Control characters (C0, DEL, and C1 as UTF-8) and bytes that are not
   * UTF-8 become visible escapes, so a file cannot move the cursor,
   * recolour the terminal or garble the line. */
  size_t used = 0;
  const unsigned char *p = (const unsigned char *) in;
  if (len == 0)
    return out;
  while (*p && used + 7 < len) {
    int n = utf8_sequence_length (p);
    if (n == 0 || *p < 0x20 || *p == 0x7f) {
      used += snprintf (out + used, len - used, "\\x%02x", *p);
      p++;
    } else if (*p == 0xc2 && p[1] <= 0x9f) {
      used += snprintf (out + used, len - used, "\\u%04x", p[1]);
      p += 2;
    } else {
      memcpy (out + used, p, n);
      used += n;
      p += n;
    }
  }
  out[used] = '\0';
  return out;
}

static const char *
yes_no (bool v)
{
  return v ? "yes" : "no";
}

void
ms_report_device (FILE *out, const MsDeviceInfo *d)
{
  char total[32], freeb[32], drv[16], rt[16], name[1024], error[1024];
  ms_format_version (d->driver_version, drv, sizeof drv);
  ms_format_version (d->runtime_version, rt, sizeof rt);
  ms_report_clean (d->name, name, sizeof name);
  ms_report_clean (d->error[0] ? d->error : "unknown", error, sizeof error);
  if (!d->present) {
    fprintf (out, "Device %d: none (%s)\n", d->index, error);
    fprintf (out, "CUDA driver %s, runtime %s\n", drv, rt);
    return;
  }
  ms_format_bytes (d->total_mem, total, sizeof total);
  ms_format_bytes (d->free_mem, freeb, sizeof freeb);
  fprintf (out, "Device %d of %d: %s\n", d->index, d->count, name);
  fprintf (out, "  compute capability      %d.%d\n", d->cc_major, d->cc_minor);
  fprintf (out, "  memory                  %s total, %s free\n", total, freeb);
  fprintf (out, "  CUDA driver / runtime   %s / %s (NVIDIA driver %s)\n", drv, rt,
           d->driver_release[0] ? d->driver_release : "unknown");
  if (d->pcie_gen > 0)
    fprintf (out, "  PCIe link               gen%d x%d now, gen%d x%d max (%.1f GB/s per direction)\n",
             d->pcie_gen, d->pcie_width, d->pcie_gen_max, d->pcie_width_max,
             ms_pcie_theoretical_gbps (d->pcie_gen_max ? d->pcie_gen_max : d->pcie_gen,
                                       d->pcie_width_max ? d->pcie_width_max : d->pcie_width));
  else
    fprintf (out, "  PCIe link               unknown (NVML not available)\n");
  fprintf (out, "  PCI bus id              %s\n", d->pci_bus_id[0] ? d->pci_bus_id : "unknown");
  fprintf (out, "  canMapHostMemory        %s\n", yes_no (d->can_map_host_memory));
  fprintf (out, "  concurrentManagedAccess %s\n", yes_no (d->concurrent_managed_access));
  fprintf (out, "  pageableMemoryAccess    %s\n", yes_no (d->pageable_memory_access));
  fprintf (out, "  unifiedAddressing       %s\n", yes_no (d->unified_addressing));
  fprintf (out, "  asyncEngineCount        %d\n", d->async_engine_count);
  fprintf (out, "  multiprocessors         %d, L2 %d MiB\n", d->multiprocessors,
           d->l2_bytes >> 20);
  fprintf (out, "  host CPUs (affinity)    %s\n", d->host_cpu_affinity);
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
    if (c->exponent >= 0 && c->exponent <= MS_MAX_EXPONENT && !size_seen[c->exponent]) {
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
    fprintf (out, "holds no cells\n");
    return;
  }
  fprintf (out, "holds %zu cells: %d mode%s, %d size%s from 2^%d to 2^%d, ", r->n_cells, n_modes,
           n_modes == 1 ? "" : "s", n_sizes, n_sizes == 1 ? "" : "s", lo, hi);
  if (reps_hi == 0)
    fprintf (out, "no repetitions\n");
  else if (reps_lo == reps_hi)
    fprintf (out, "%d repetition%s per cell with data\n", reps_hi, reps_hi == 1 ? "" : "s");
  else
    fprintf (out, "%d to %d repetitions per cell with data\n", reps_lo, reps_hi);
}

void
ms_report_header (FILE *out, const MsResults *r, bool with_settings)
{
  char drv[16], rt[16], version[128], date[128], name[1024];
  ms_format_version (r->device.driver_version, drv, sizeof drv);
  ms_format_version (r->device.runtime_version, rt, sizeof rt);
  ms_report_clean (r->version, version, sizeof version);
  ms_report_clean (r->date, date, sizeof date);
  ms_report_clean (r->device.name[0] ? r->device.name : "no GPU", name, sizeof name);
  fprintf (out, "memsweep %s  %s  %s (driver %s, runtime %s", version, date, name, drv, rt);
  if (r->device.pcie_gen > 0)
    fprintf (out, ", PCIe gen%d x%d", r->device.pcie_gen, r->device.pcie_width);
  fprintf (out, ")\n");
  report_contents (out, r);
  if (with_settings) {
    char reps[160];
    if (r->sweep.reps_rule == MS_REPS_FIXED)
      snprintf (reps, sizeof reps, "%d repetitions", r->sweep.reps);
    else
      snprintf (reps, sizeof reps,
                "at least %d repetitions until the median's 95%% interval is within +-%g%% or "
                "%g ms are spent,", r->sweep.min_reps, r->sweep.ci_target_pct,
                r->sweep.cell_budget_ms);
    fprintf (out, "settings: sizes 2^%d..2^%d step %d, %s after %d warm-up, streams K=%d "
                  "%s-first\n",
             r->sweep.min_exp, r->sweep.max_exp, r->sweep.step, reps, r->sweep.warmup,
             r->sweep.streams, r->sweep.order == MS_ORDER_BREADTH_FIRST ? "breadth" : "depth");
  }
}

static const char *
short_name (MsMode m)
{
  static const char *names[MS_MODE_COUNT] = {
    "pageable", "pinned", "registered", "wc", "zero-copy", "uva",
    "managed", "mgd+pf", "streams", "device", "host",
  };
  return names[m];
}

/* Modes that appear in the results, in mode order. */
static int
present_modes (const MsResults *r, MsMode *modes)
{
  int n = 0;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (size_t i = 0; i < r->n_cells; i++)
      if ((int) r->cells[i].mode == m) {
        modes[n++] = m;
        break;
      }
  return n;
}

static int
present_exponents (const MsResults *r, int *exps)
{
  int n = 0;
  for (int e = 0; e <= MS_MAX_EXPONENT; e++)
    for (size_t i = 0; i < r->n_cells; i++)
      if (r->cells[i].exponent == e) {
        exps[n++] = e;
        break;
      }
  return n;
}

typedef enum {
  GRID_TIME,     /* median e2e time */
  GRID_CI,       /* its 95% interval as +- % */
  GRID_GBPS,     /* e2e bandwidth */
  GRID_RESIDUAL, /* the fit's relative residual */
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

static void
cell_text (const MsCell *c, GridKind kind, const MsFit *fit, char *buf, size_t len)
{
  double resid;
  if (!c) {
    buf[0] = '\0';
    return;
  }
  switch (c->status) {
  case MS_CELL_OK:
    if (kind == GRID_GBPS)
      snprintf (buf, len, "%.2f", c->stats.e2e_gbps);
    else if (kind == GRID_CI)
      ci_text (&c->stats.e2e, buf, len);
    else if (kind == GRID_RESIDUAL && ms_fit_residual_at (fit, c->exponent, &resid))
      snprintf (buf, len, "%+.1f%%", 100.0 * resid);
    else if (kind == GRID_RESIDUAL)
      snprintf (buf, len, "-");
    else
      snprintf (buf, len, c->stats.e2e.median < 100 ? "%.2f" : "%.1f", c->stats.e2e.median);
    break;
  case MS_CELL_UNSUPPORTED: snprintf (buf, len, "n/a"); break;
  case MS_CELL_VERIFY_FAILED: snprintf (buf, len, "WRONG"); break;
  case MS_CELL_CANCELLED:
  case MS_CELL_PARTIAL: snprintf (buf, len, "-"); break;
  default: snprintf (buf, len, "FAIL"); break;
  }
}

static void
print_grid (FILE *out, const MsResults *r, const MsMode *modes, const MsFit *fits, int n_modes,
            const int *exps, int n_exps, GridKind kind)
{
  char buf[32], size[32];
  fprintf (out, "%-9s %9s", "size", "elements");
  for (int j = 0; j < n_modes; j++)
    fprintf (out, " %10s", short_name (modes[j]));
  fputc ('\n', out);
  for (int i = 0; i < n_exps; i++) {
    ms_format_bytes ((1ull << exps[i]) * sizeof (float), size, sizeof size);
    fprintf (out, "%-9s %9llu", size, 1ull << exps[i]);
    for (int j = 0; j < n_modes; j++) {
      cell_text (ms_results_find (r, modes[j], exps[i]), kind, &fits[j], buf, sizeof buf);
      fprintf (out, " %10s", buf);
    }
    fputc ('\n', out);
  }
}

static void
print_fit_table (FILE *out, const MsResults *r, const MsMode *modes, const MsFit *fits,
                 int n_modes, int last)
{
  char size[32];
  ms_format_bytes ((1ull << last) * sizeof (float), size, sizeof size);
  fprintf (out, "\nPer mode: copy bandwidth at 2^%d (%s per vector) and the fit "
                "time = latency + bytes / bandwidth over all sizes (end-to-end,\n"
                "latency >= 0); the fit describes the data when R^2 >= %.2f and every "
                "point lies within %.0f%% of it, else its figures are in parentheses\n",
           last, size, MS_FIT_MIN_R2, 100.0 * MS_FIT_MAX_RESIDUAL);
  fprintf (out, "%-17s %10s %10s %12s %12s %10s %6s %7s  %s\n", "mode", "h2d GB/s", "d2h GB/s",
           "e2e p50 us", "latency us", "fit GB/s", "R^2", "max res", "fit");
  for (int j = 0; j < n_modes; j++) {
    const MsCell *c = ms_results_find (r, modes[j], last);
    const MsFit *fit = &fits[j];
    char h2d[16] = "-", d2h[16] = "-", e2e[16] = "-", lat[16] = "-", bw[16] = "-", r2[16] = "-",
         res[16] = "-";
    const char *verdict = "-";
    if (c && c->status == MS_CELL_OK) {
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
      verdict = fit->describes_data ? "describes the data" : "does not describe the data";
    }
    fprintf (out, "%-17s %10s %10s %12s %12s %10s %6s %7s  %s%s\n", ms_mode_name (modes[j]), h2d,
             d2h, e2e, lat, bw, r2, res, verdict,
             fit->valid && fit->at_bound ? " (latency held at 0)" : "");
  }
}

void
ms_report_table (FILE *out, const MsResults *r)
{
  MsMode modes[MS_MODE_COUNT];
  MsFit fits[MS_MODE_COUNT];
  int exps[MS_MAX_EXPONENT + 1];
  int n_modes = present_modes (r, modes);
  int n_exps = present_exponents (r, exps);

  if (n_modes == 0) {
    fprintf (out, "\n(no results)\n");
    return;
  }
  for (int j = 0; j < n_modes; j++)
    fits[j] = ms_results_fit (r, modes[j], MS_PHASE_COUNT);
  fprintf (out, "\nEnd-to-end time, median in us (first data movement to result readable on "
                "the host); size is per vector\n");
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_TIME);
  fprintf (out, "\nEnd-to-end time, 95%% confidence interval of the median as +- %% of it "
                "(the wider side); * : fewer than 6 repetitions, min..max instead\n");
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_CI);
  fprintf (out, "\nEnd-to-end bandwidth in GB/s (3 vectors x 4 bytes x N / median time)\n");
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_GBPS);
  print_fit_table (out, r, modes, fits, n_modes, exps[n_exps - 1]);
  fprintf (out, "\nFit residuals, (measured - fit) / measured end-to-end time\n");
  print_grid (out, r, modes, fits, n_modes, exps, n_exps, GRID_RESIDUAL);

  /* Why cells have no number: one line per distinct reason and mode. */
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
      fprintf (out, "\nCells without a number:\n");
      header = true;
    }
    char message[4 * sizeof c->message];
    ms_report_clean (c->message, message, sizeof message);
    fprintf (out, "  %s 2^%d%s: %s: %s\n", ms_mode_name (c->mode), c->exponent,
             c->status == MS_CELL_UNSUPPORTED ? " (and every size)" : "",
             ms_cell_status_name (c->status), message);
  }
}
