/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-siblings-file.c: a sibling check's document read back: the shipped
 * version 1 reference (data/reference/h200x4-siblings.json) and a version
 * 2 document whose GPU 1 differs; anything else is refused. */
#include <glib.h>
#include <math.h>
#include <string.h>

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

/* The class: any number outside what a check can hold is refused, naming
 * its member, before it reaches an int or a line (a count past INT_MAX,
 * a negative count, a non-finite or non-positive figure, no GPUs). */
static void
test_out_of_range (void)
{
  static const char *const cases[][2] = {
    { "\"gpu_modes_undecided\":0", "\"gpu_modes_undecided\":1e30" },
    { "\"gpu_modes_undecided\":0", "\"gpu_modes_undecided\":-5" },
    { "\"gpu_modes_undecided\":0", "\"gpu_modes_undecided\":2.5" },
    { "\"processes_per_gpu\":3", "\"processes_per_gpu\":4294967296" },
    { "\"processes_per_gpu\":3", "\"processes_per_gpu\":0" },
    { "\"seconds\":68.2", "\"seconds\":NaN" },
    { "\"seconds\":68.2", "\"seconds\":-1" },
    { "\"threshold_pct\":10", "\"threshold_pct\":Infinity" },
    { "\"index\":1", "\"index\":-2147483649" },
    { "\"ratio\":1.2", "\"ratio\":-1.2" },
    { "\"schema_version\":2", "\"schema_version\":1e300" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autoptr (GString) doc = g_string_new (v2);
    g_assert_cmpuint (g_string_replace (doc, cases[i][0], cases[i][1], 1), ==, 1);
    MsSiblingsFile f;
    char err[512] = "";
    g_assert_false (ms_siblings_file_parse (doc->str, &f, err, sizeof err));
    g_autofree char *member = g_strndup (cases[i][0] + 1, strcspn (cases[i][0] + 1, "\""));
    if (!g_str_equal (member, "schema_version"))
      g_assert_nonnull (strstr (err, member));
  }
  MsSiblingsFile f;
  char err[512] = "";
  g_autoptr (GString) none = g_string_new (v2);
  g_string_replace (none, "\"gpus\":[{", "\"gpus\":[],\"x\":[{", 1);
  g_assert_false (ms_siblings_file_parse (none->str, &f, err, sizeof err));
}

/* GPUs and modes past what the reader keeps are counted, so that a
 * reader can say they were left out. */
static void
test_dropped (void)
{
  g_autoptr (GString) doc = g_string_new (NULL);
  g_string_append (doc, "{\"schema\":\"memsweep-siblings\",\"schema_version\":2,"
                        "\"result\":\"alike\",\"threshold_pct\":10,\"processes_per_gpu\":3,"
                        "\"seconds\":1,\"gpu_modes_undecided\":0,\"gpus\":[");
  for (int g = 0; g < MS_SIBLINGS_MAX_GPUS + 2; g++) {
    g_string_append_printf (doc, "%s{\"index\":%d,\"differs\":false,\"modes\":[", g ? "," : "",
                            g);
    for (int m = 0; m < (g == 0 ? MS_SIBLINGS_MAX_MODES + 3 : 1); m++)
      g_string_append_printf (doc, "%s{\"mode\":\"m%d\",\"ratio\":1}", m ? "," : "", m);
    g_string_append (doc, "]}");
  }
  g_string_append (doc, "]}");
  MsSiblingsFile f;
  char err[512] = "";
  g_assert_true (ms_siblings_file_parse (doc->str, &f, err, sizeof err));
  g_assert_cmpint (f.n_gpus, ==, MS_SIBLINGS_MAX_GPUS);
  g_assert_cmpint (f.gpus_dropped, ==, 2);
  g_assert_cmpint (f.modes_dropped, ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/siblings-file/v1-reference", test_v1_reference);
  g_test_add_func ("/siblings-file/v2", test_v2);
  g_test_add_func ("/siblings-file/out-of-range", test_out_of_range);
  g_test_add_func ("/siblings-file/dropped", test_dropped);
  return g_test_run ();
}
