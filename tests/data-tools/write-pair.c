/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write-pair.c: files of the current format without a GPU, for the
 * data-tool test.
 *   write-pair SAMPLES PREFIX: reads a samples file and writes it again as
 *     a run writes its files (PREFIX-samples.csv, PREFIX-summary.csv and
 *     PREFIX-meta.json);
 *   write-pair SAMPLES samples|summary: writes one of them to standard
 *     output, where no sidecar can be: every column, metadata inline;
 *   write-pair peer|multi|profile FROM TO: reads a peer matrix, a sweep on
 *     several GPUs or a run-to-run profile (either form) and writes it
 *     again as memsweep writes it now (TO and its sidecar, or inline where
 *     TO is standard output). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-pair.h"
#include "ms-multi-file.h"
#include "ms-peer-file.h"

static bool
write_files (const MsResults *r, const char *target, char *err, size_t errlen)
{
  char samples[4096], summary[4096];
  if (strcmp (target, "samples") == 0)
    return ms_csv_write_samples (r, "/dev/stdout", err, errlen);
  if (strcmp (target, "summary") == 0)
    return ms_csv_write_summary (r, "/dev/stdout", err, errlen);
  snprintf (samples, sizeof samples, "%s-samples.csv", target);
  snprintf (summary, sizeof summary, "%s-summary.csv", target);
  return ms_csv_write_pair (r, samples, summary, err, errlen);
}

static bool
rewrite_peer (const char *from, const char *to, char *err, size_t errlen)
{
  MsPeerFile *file = ms_peer_file_read (from, err, errlen);
  bool ok = file && ms_peer_file_write (file, to, err, errlen);
  free (file);
  return ok;
}

static bool
rewrite_multi (const char *from, const char *to, char *err, size_t errlen)
{
  MsMultiFile *file = ms_multi_file_read (from, err, errlen);
  bool ok = file && ms_multi_file_write (file, to, err, errlen);
  free (file);
  return ok;
}

static bool
rewrite_profile (const char *from, const char *to, char *err, size_t errlen)
{
  MsRunToRun rr;
  MsResults *like = ms_results_new (NULL, NULL);
  bool ok = like && ms_run_to_run_read_profile (&rr, from, like->device.name,
                                                sizeof like->device.name, err, errlen) &&
            ms_run_to_run_write_profile (&rr, like, to, err, errlen);
  ms_results_free (like);
  return ok;
}

/* write-pair KIND FROM TO */
static int
rewrite (char **argv)
{
  static const struct {
    const char *kind;
    bool (*rewrite) (const char *from, const char *to, char *err, size_t errlen);
  } kinds[] = {
    { "peer", rewrite_peer }, { "multi", rewrite_multi }, { "profile", rewrite_profile }
  };
  char err[1024] = "";
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp (argv[1], kinds[i].kind) == 0) {
      if (kinds[i].rewrite (argv[2], argv[3], err, sizeof err))
        return 0;
      fprintf (stderr, "write-pair: %s\n", err);
      return 1;
    }
  fprintf (stderr, "write-pair: unknown kind %s\n", argv[1]);
  return 2;
}

int
main (int argc, char **argv)
{
  char err[1024];
  if (argc == 4)
    return rewrite (argv);
  if (argc != 3) {
    fprintf (stderr, "usage: write-pair SAMPLES PREFIX|samples|summary\n"
                     "       write-pair peer|multi|profile FROM TO\n");
    return 2;
  }
  MsResults *r = ms_csv_read_samples (argv[1], err, sizeof err);
  if (!r || !write_files (r, argv[2], err, sizeof err)) {
    fprintf (stderr, "write-pair: %s\n", err);
    ms_results_free (r);
    return 1;
  }
  ms_results_free (r);
  return 0;
}
