/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-siblings-file.c: a sibling check's document read back: the shipped
 * version 1 reference (data/reference/h200x4-siblings.json) and a version
 * 2 document whose GPU 1 differs; anything else is refused. */
#include <glib.h>
#include <math.h>

#include "ms-siblings-file.h"

#define REFERENCE MS_TESTS_DATA_DIR "/../../data/reference/h200x4-siblings.json"

static void
test_v1_reference (void)
{
  MsSiblingsFile f;
  char err[512] = "";
  g_assert_true (ms_siblings_file_read (REFERENCE, &f, err, sizeof err));
  g_assert_cmpint (f.version, ==, 1);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_UNDECIDED);
  g_assert_cmpfloat (f.threshold_pct, ==, 10);
  g_assert_cmpint (f.processes_per_gpu, ==, 3);
  g_assert_cmpfloat_with_epsilon (f.seconds, 49.459, 0.001);
  g_assert_cmpint (f.modes_undecided, ==, 30);
  g_assert_cmpint (f.n_gpus, ==, 4);
  g_assert_cmpstr (f.gpus[1].bus_id, ==, "0000:00:07.0");
  g_assert_cmpint (f.gpus[3].n_modes, ==, 11);
  g_assert_cmpstr (f.gpus[3].modes[6].mode, ==, "managed");
  g_assert_cmpint (f.gpus[3].modes[6].verdict, ==, MS_VERDICT_COUNT);
  g_assert_cmpfloat_with_epsilon (f.gpus[3].modes[6].ratio, 1.0825, 0.0001);
}

static const char v2[] =
    "{\"schema\":\"memsweep-siblings\",\"schema_version\":2,\"result\":\"differs\","
    "\"run_options\":\"\",\"threshold_pct\":10,\"processes_per_gpu\":3,\"seconds\":68.2,"
    "\"decided_after_s\":40.1,\"looks\":5,\"gpu_modes_undecided\":0,\"host\":null,"
    "\"experiment\":null,\"gpus\":[{\"index\":1,\"name\":\"NVIDIA H100\",\"bus_id\":"
    "\"0000:00:07.0\",\"differs\":true,\"modes\":[{\"mode\":\"pinned\",\"verdict\":\"slower\","
    "\"differs\":true,\"ratio\":1.2,\"ratio_low\":1.15,\"ratio_high\":1.25,"
    "\"decided_after_s\":12.5},{\"mode\":\"uva\",\"verdict\":\"ambiguous\",\"differs\":false,"
    "\"ratio\":null,\"ratio_low\":null,\"ratio_high\":null,\"decided_after_s\":null}]}],"
    "\"split_modes\":[]}";

static void
test_v2 (void)
{
  MsSiblingsFile f;
  char err[512] = "";
  g_assert_true (ms_siblings_file_parse (v2, &f, err, sizeof err));
  g_assert_cmpint (f.version, ==, 2);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_cmpfloat (f.seconds, ==, 68.2);
  g_assert_cmpint (f.n_gpus, ==, 1);
  g_assert_cmpint (f.gpus[0].index, ==, 1);
  g_assert_true (f.gpus[0].differs);
  g_assert_cmpint (f.gpus[0].modes[0].verdict, ==, MS_VERDICT_SLOWER);
  g_assert_true (f.gpus[0].modes[0].differs);
  g_assert_cmpfloat (f.gpus[0].modes[0].ratio, ==, 1.2);
  g_assert_cmpint (f.gpus[0].modes[1].verdict, ==, MS_VERDICT_AMBIGUOUS);
  g_assert_true (isnan (f.gpus[0].modes[1].ratio));
  g_assert_false (ms_siblings_file_parse ("{\"schema\":\"memsweep-compare\"}", &f, err,
                                          sizeof err));
  g_assert_false (ms_siblings_file_parse ("[", &f, err, sizeof err));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/siblings-file/v1-reference", test_v1_reference);
  g_test_add_func ("/siblings-file/v2", test_v2);
  return g_test_run ();
}
