/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-files.c: libFuzzer targets for the readers beside the samples
 * reader: the summary, a run's sidecar (PREFIX-meta.json), the peer
 * matrix, the multi-GPU aggregate and the run-to-run profile, the
 * envelopes. MS_FUZZ_READER picks one (summary, sidecar, peer, multi,
 * profile, envelopes). Every input is read from a file, as users' files are; whatever
 * is accepted must write back and read again. Also built without libFuzzer
 * as fuzz-files-regress, which replays each reader's corpus and crash
 * inputs (the first argument names the reader). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files/ms-csv-io.h"
#include "files/ms-run-to-run-file.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "model/ms-run-to-run.h"
#include "ms-envelope.h"
#include "ms-multi-file.h"
#include "ms-peer-file.h"
#include "ms-tmp-test.h"

int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);


static void
die (const char *what, const char *err)
{
  fprintf (stderr, "%s: %s\n", what, err);
  abort ();
}

static void
check_error (const char *path, const char *err)
{
  /* Every rejection names the file. */
  if (strncmp (err, path, strlen (path)) != 0)
    die ("error does not name the file", err);
}

static void
fuzz_summary (const char *path, const char *out)
{
  char err[512] = "";
  MsResults *r = ms_csv_read_summary (path, err, sizeof err);
  if (!r) {
    check_error (path, err);
    return;
  }
  if (!ms_csv_write_summary (r, out, err, sizeof err))
    die ("accepted summary did not write back", err);
  MsResults *back = ms_csv_read_summary (out, err, sizeof err);
  if (!back)
    die ("accepted summary did not read back", err);
  if (back->n_cells != r->n_cells)
    die ("round trip changed the cells", out);
  for (size_t i = 0; i < r->n_cells; i++)
    if (back->cells[i].mode != r->cells[i].mode ||
        back->cells[i].exponent != r->cells[i].exponent ||
        back->cells[i].status != r->cells[i].status ||
        strcmp (back->cells[i].variant, r->cells[i].variant) != 0)
      die ("round trip changed a cell", out);
  ms_results_free (back);
  ms_results_free (r);
}

/* The input is the sidecar of a small plain summary, which must open
 * whatever its sidecar holds: the metadata read, or unknown with the
 * sidecar named. What is read writes back and reads again. */
static void
fuzz_sidecar (const char *path, const char *out)
{
  static const char summary[] = "mode,elements,bytes_per_vector,status,reps,e2e_median_us\n"
                                "\"pinned\",1024,4096,\"ok\",6,10.000\n";
  char csv[600], meta[600], err[512] = "";
  snprintf (csv, sizeof csv, "%s/s-summary.csv", ms_test_tmp_dir ());
  snprintf (meta, sizeof meta, "%s/s-meta.json", ms_test_tmp_dir ());
  FILE *f = fopen (csv, "w");
  if (!f || fputs (summary, f) < 0 || fclose (f) != 0 || rename (path, meta) != 0)
    die ("cannot set up", csv);
  MsResults *r = ms_csv_read_summary (csv, err, sizeof err);
  if (!r)
    die ("a summary did not open for its sidecar", err);
  if (r->metadata_unknown[0] && !strstr (r->metadata_unknown, meta))
    die ("the unknown metadata does not name the sidecar", r->metadata_unknown);
  if (!ms_csv_write_summary (r, out, err, sizeof err))
    die ("accepted sidecar did not write back", err);
  MsResults *back = ms_csv_read_summary (out, err, sizeof err);
  if (!back || back->metadata_unknown[0])
    die ("what was written did not read back", back ? back->metadata_unknown : err);
  /* No device at all is written as "none", and read back as that name. */
  if ((r->device.name[0] && strcmp (back->device.name, r->device.name) != 0) ||
      back->sweep.reps != r->sweep.reps ||
      strcmp (back->kept_metadata, r->kept_metadata) != 0)
    die ("round trip changed the metadata", out);
  ms_results_free (back);
  ms_results_free (r);
}

static void
fuzz_peer (const char *path, const char *out)
{
  char err[512] = "";
  MsPeerFile *p = ms_peer_file_read (path, err, sizeof err);
  if (!p) {
    check_error (path, err);
    return;
  }
  if (!ms_peer_file_write (p, out, err, sizeof err))
    die ("accepted peer file did not write back", err);
  MsPeerFile *back = ms_peer_file_read (out, err, sizeof err);
  if (!back)
    die ("accepted peer file did not read back", err);
  if (back->peer.n_devices != p->peer.n_devices)
    die ("round trip changed the devices", out);
  free (back);
  free (p);
}

static void
fuzz_multi (const char *path, const char *out)
{
  char err[512] = "";
  MsMultiFile *m = ms_multi_file_read (path, err, sizeof err);
  if (!m) {
    check_error (path, err);
    return;
  }
  if (!ms_multi_file_write (m, out, err, sizeof err))
    die ("accepted multi file did not write back", err);
  MsMultiFile *back = ms_multi_file_read (out, err, sizeof err);
  if (!back)
    die ("accepted multi file did not read back", err);
  if (back->n_rows != m->n_rows || back->n_devices != m->n_devices)
    die ("round trip changed the rows", out);
  free (back);
  free (m);
}

static void
fuzz_profile (const char *path, const char *out)
{
  char err[512] = "", device[256];
  MsRunToRun rr = { 0 };
  if (!ms_run_to_run_read_profile (&rr, path, device, sizeof device, err, sizeof err)) {
    check_error (path, err);
    ms_run_to_run_clear (&rr);
    return;
  }
  MsResults *like = ms_results_new (NULL, NULL);
  snprintf (like->device.name, sizeof like->device.name, "%s", device);
  if (!ms_run_to_run_write_profile (&rr, like, out, err, sizeof err))
    die ("accepted profile did not write back", err);
  MsRunToRun back = { 0 };
  if (!ms_run_to_run_read_profile (&back, out, device, sizeof device, err, sizeof err))
    die ("accepted profile did not read back", err);
  ms_run_to_run_clear (&back);
  ms_run_to_run_clear (&rr);
  ms_results_free (like);
}

/* Envelopes are read, never written: whatever is kept must be whole and
 * refusals must name the file and line. */
static void
fuzz_envelopes (const char *path, const char *out)
{
  char err[512] = "";
  (void) out;
  MsEnvelopes *env = ms_envelopes_read (path, err, sizeof err);
  if (!env) {
    check_error (path, err);
    return;
  }
  for (int i = 0; i < env->n_rows; i++) {
    const MsEnvRow *r = &env->rows[i];
    if (!(r->low <= r->high) || r->figure >= MS_ENV_N_FIGURES || r->gen < 1 || !r->gpu[0])
      die ("a kept envelope row is not whole", path);
  }
  if (env->n_refused && strncmp (env->problems, path, strlen (path)) != 0)
    die ("a refused row does not name the file", env->problems);
  MsResults *r = ms_results_new (NULL, NULL);
  MsEnvJudgement j;
  snprintf (r->device.name, sizeof r->device.name, "NVIDIA H100 80GB HBM3");
  ms_envelope_judge (env, r, &j);
  ms_results_free (r);
  ms_envelopes_free (env);
}

typedef struct {
  const char *name;
  void (*fuzz) (const char *path, const char *out);
} Reader;

static const Reader readers[] = {
  { "summary", fuzz_summary },
  { "sidecar", fuzz_sidecar },
  { "peer", fuzz_peer },
  { "multi", fuzz_multi },
  { "profile", fuzz_profile },
  { "envelopes", fuzz_envelopes },
};

static const Reader *reader;

static const Reader *
find_reader (const char *name)
{
  for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
    if (strcmp (readers[i].name, name) == 0)
      return &readers[i];
  return NULL;
}

int
LLVMFuzzerTestOneInput (const unsigned char *data, size_t size)
{
  char path[600], out[600];
#ifdef MS_FUZZ_READER
  if (!reader)
    reader = find_reader (MS_FUZZ_READER);
#endif
  if (!reader)
    abort ();
  snprintf (path, sizeof path, "%s/in.csv", ms_test_tmp_dir ());
  snprintf (out, sizeof out, "%s/out.csv", ms_test_tmp_dir ());
  FILE *f = fopen (path, "wb");
  if (!f)
    abort ();
  fwrite (data, 1, size, f);
  fclose (f);
  reader->fuzz (path, out);
  return 0;
}

#ifdef MS_FUZZ_REPLAY
int
main (int argc, char **argv)
{
  int n = 0;
  if (argc < 2 || !(reader = find_reader (argv[1]))) {
    fprintf (stderr, "usage: %s summary|sidecar|peer|multi|profile|envelopes FILE...\n",
             argv[0]);
    return 2;
  }
  for (int i = 2; i < argc; i++) {
    FILE *f = fopen (argv[i], "rb");
    if (!f) {
      perror (argv[i]);
      return 1;
    }
    fseek (f, 0, SEEK_END);
    long len = ftell (f);
    fseek (f, 0, SEEK_SET);
    unsigned char *buf = malloc (len > 0 ? len : 1);
    if (fread (buf, 1, len, f) != (size_t) len)
      return 1;
    fclose (f);
    LLVMFuzzerTestOneInput (buf, len);
    free (buf);
    n++;
  }
  printf ("replayed %d %s inputs\n", n, reader->name);
  return 0;
}
#endif
