/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gpu-start.c: a command that uses one GPU narrows the process to it
 * (ms-gpu-start.h): CUDA's own index when the user set no list, the
 * index-th entry of a CUDA_VISIBLE_DEVICES the user set, the user's index
 * kept and mapped to CUDA's 0, the count before kept where known, the
 * narrowing handed to child processes; MEMSWEEP_ALL_GPUS=1 and an index
 * past the list leave the process as it was. Each case in a process of
 * its own: the narrowing is the process's. */
#include <glib.h>
#include <stdlib.h>

#include "ms-gpu-start.h"

static void
clean_env (void)
{
  g_unsetenv ("MEMSWEEP_NARROWED");
  g_unsetenv ("MEMSWEEP_ALL_GPUS");
}

static void
list_entry (void)
{
  char why[160];
  clean_env ();
  g_setenv ("CUDA_VISIBLE_DEVICES", "3,GPU-1234,2", TRUE);
  g_assert_true (ms_gpu_start_only (1, why, sizeof why));
  g_assert_cmpstr (g_getenv ("CUDA_VISIBLE_DEVICES"), ==, "GPU-1234");
  g_assert_cmpint (ms_gpu_cuda_index (1), ==, 0);
  g_assert_cmpint (ms_gpu_cuda_index (0), ==, -1);
  g_assert_cmpint (ms_gpu_count_before (), ==, 3);
  g_assert_cmpstr (g_getenv ("MEMSWEEP_NARROWED"), ==, "1 3");
}

static void
own_index (void)
{
  char why[160];
  clean_env ();
  g_unsetenv ("CUDA_VISIBLE_DEVICES");
  g_assert_false (ms_gpu_narrowed ());
  g_assert_true (ms_gpu_start_only (2, why, sizeof why));
  g_assert_true (ms_gpu_narrowed ());
  g_assert_cmpstr (g_getenv ("CUDA_VISIBLE_DEVICES"), ==, "2");
  g_assert_cmpint (ms_gpu_cuda_index (2), ==, 0);
  g_assert_cmpint (ms_gpu_cuda_index (0), ==, -1);
  /* The host's count comes from NVML later (ms_nvml_query). */
  g_assert_cmpint (ms_gpu_count_before (), ==, -1);
  g_assert_cmpstr (g_getenv ("MEMSWEEP_NARROWED"), ==, "2 0");
}

static void
inherited (void)
{
  char why[160];
  clean_env ();
  /* What a narrowed parent hands its child: the child's --device 2 is
   * its CUDA 0. */
  g_setenv ("CUDA_VISIBLE_DEVICES", "GPU-abcd", TRUE);
  g_setenv ("MEMSWEEP_NARROWED", "2 4", TRUE);
  g_assert_true (ms_gpu_start_only (2, why, sizeof why));
  g_assert_cmpstr (g_getenv ("CUDA_VISIBLE_DEVICES"), ==, "GPU-abcd");
  g_assert_cmpint (ms_gpu_cuda_index (2), ==, 0);
  g_assert_cmpint (ms_gpu_count_before (), ==, 4);
}

static void
left_alone (void)
{
  char why[160];
  clean_env ();
  g_setenv ("CUDA_VISIBLE_DEVICES", "0,1", TRUE);
  g_assert_false (ms_gpu_start_only (5, why, sizeof why));
  g_assert_cmpstr (g_getenv ("CUDA_VISIBLE_DEVICES"), ==, "0,1");
  g_assert_cmpint (ms_gpu_cuda_index (1), ==, 1);
  g_assert_cmpint (ms_gpu_count_before (), ==, -1);
  g_assert_false (ms_gpu_narrowed ());
  g_setenv ("MEMSWEEP_ALL_GPUS", "1", TRUE);
  g_assert_false (ms_gpu_start_only (1, why, sizeof why));
  g_assert_cmpstr (why, ==, "MEMSWEEP_ALL_GPUS=1");
  g_assert_cmpstr (g_getenv ("CUDA_VISIBLE_DEVICES"), ==, "0,1");
  g_assert_cmpint (ms_gpu_cuda_index (1), ==, 1);
}

static void
in_child (gconstpointer data)
{
  if (g_test_subprocess ()) {
    ((void (*) (void)) data) ();
    return;
  }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/gpu-start/own-index", own_index, in_child);
  g_test_add_data_func ("/gpu-start/list-entry", list_entry, in_child);
  g_test_add_data_func ("/gpu-start/inherited", inherited, in_child);
  g_test_add_data_func ("/gpu-start/left-alone", left_alone, in_child);
  return g_test_run ();
}
