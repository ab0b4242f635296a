/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-multi-table.c: multi's, peer's and portable's results as tables
 * (ms-cli-multi-table.h): long form, a row per measured thing, as data
 * tools read them. */
#include <math.h>

#include "ms-cli-multi-table.h"
#include "ms-engine.h"

static const MsCliColumn multi_columns[] = {
  { "gpu", true },      { "mode" },           { "exponent", true },
  { "bytes_per_vector", true }, { "run" },    { "status" },
  { "h2d_gbps", true }, { "d2h_gbps", true }, { "e2e_gbps", true },
  { "message" },
};

static void
put_multi_row (MsCliTable *t, int gpu, MsMode mode, int e, const char *run, const MsCell *c)
{
  bool ok = c && c->status == MS_CELL_OK;
  ms_cli_table_add_row (t);
  ms_cli_table_integer (t, 0, gpu);
  ms_cli_table_text (t, 1, ms_mode_name (mode));
  ms_cli_table_integer (t, 2, e);
  ms_cli_table_integer (t, 3, (long long) ms_exponent_bytes (e));
  ms_cli_table_text (t, 4, run);
  ms_cli_table_text (t, 5, c ? ms_cell_status_name (c->status) : NULL);
  ms_cli_table_number (t, 6, ok ? c->stats.h2d_gbps : NAN, 3);
  ms_cli_table_number (t, 7, ok ? c->stats.d2h_gbps : NAN, 3);
  ms_cli_table_number (t, 8, ok ? c->stats.e2e_gbps : NAN, 3);
  ms_cli_table_text (t, 9, c && !ok ? c->message : NULL);
}

const MsCell *
ms_cli_multi_cell (const MsMultiResults *r, int slot, MsMode mode, int e)
{
  return r && r->per_device[slot] ? ms_results_find (r->per_device[slot], mode, e) : NULL;
}

MsCliTable *
ms_cli_multi_table (const MsSweep *s, const MsMultiResults *together,
                    MsMultiResults *const *alone)
{
  MsCliTable *t = ms_cli_table_new (multi_columns, sizeof multi_columns / sizeof *multi_columns);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = s->min_exp; s->modes[m] && e <= s->max_exp; e += s->step)
      for (int i = 0; together && i < together->n_devices; i++) {
        put_multi_row (t, together->devices[i], (MsMode) m, e, "together",
                       ms_cli_multi_cell (together, i, (MsMode) m, e));
        if (alone)
          put_multi_row (t, together->devices[i], (MsMode) m, e, "alone",
                         ms_cli_multi_cell (alone[i], 0, (MsMode) m, e));
      }
  return t;
}

static const MsCliColumn peer_columns[] = {
  { "method" }, { "direction" }, { "src_gpu", true }, { "dst_gpu", true },
  { "gbps", true }, { "note" },
};

static void
put_peer_row (MsCliTable *t, const char *method, const char *direction, int src, int dst,
              double gbps, const char *note)
{
  ms_cli_table_add_row (t);
  ms_cli_table_text (t, 0, method);
  ms_cli_table_text (t, 1, direction);
  ms_cli_table_integer (t, 2, src);
  ms_cli_table_integer (t, 3, dst);
  ms_cli_table_number (t, 4, gbps > 0 ? gbps : NAN, 2);
  ms_cli_table_text (t, 5, note);
}

MsCliTable *
ms_cli_peer_table (const MsPeerResults *r)
{
  MsCliTable *t = ms_cli_table_new (peer_columns, sizeof peer_columns / sizeof *peer_columns);
  for (int m = 0; m <= MS_PEER_METHOD_COUNT; m++)
    for (int i = 0; i < r->n_devices; i++)
      for (int j = 0; j < r->n_devices; j++)
        for (int bi = 0; i != j && bi <= (m < MS_PEER_METHOD_COUNT); bi++) {
          const MsPeerCell *c = m < MS_PEER_METHOD_COUNT ? &r->cell[m][i][j] : NULL;
          put_peer_row (t, c ? ms_peer_method_name ((MsPeerMethod) m) : "reference",
                        bi ? "bidirectional" : "unidirectional", r->devices[i], r->devices[j],
                        ms_peer_file_value (r, m, bi, i, j), c && !c->ok ? c->note : NULL);
        }
  return t;
}

static const MsCliColumn portable_columns[] = {
  { "case" }, { "gpu", true }, { "ok" }, { "h2d_gbps", true }, { "d2h_gbps", true },
  { "note" },
};

MsCliTable *
ms_cli_portable_table (const MsPortableResults *r)
{
  MsCliTable *t =
    ms_cli_table_new (portable_columns, sizeof portable_columns / sizeof *portable_columns);
  for (int k = 0; k < MS_PORTABLE_COUNT; k++)
    for (int i = 0; i < r->n_devices; i++) {
      const MsPortableCell *c = &r->cell[k][i];
      ms_cli_table_add_row (t);
      ms_cli_table_text (t, 0, ms_portable_case_name ((MsPortableCase) k));
      ms_cli_table_integer (t, 1, r->devices[i]);
      ms_cli_table_text (t, 2, c->ok ? "true" : "false");
      ms_cli_table_number (t, 3, c->ok ? c->h2d_gbps : NAN, 2);
      ms_cli_table_number (t, 4, c->ok ? c->d2h_gbps : NAN, 2);
      ms_cli_table_text (t, 5, c->note);
    }
  return t;
}
