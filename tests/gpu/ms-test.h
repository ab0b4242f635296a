/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-test.h: the gpu suite's assertion helper (test-gpu-multi.c,
 * test-gpu-lessons.c). Every other test uses GLib's g_test; these build on
 * GPU servers that have no GLib (tools/gpu.sh), so they stay plain C. */
#pragma once

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ms_test_failures;
static int ms_test_checks;

#define MS_CHECK(cond, ...)                                                   \
  do {                                                                        \
    ms_test_checks++;                                                         \
    if (!(cond)) {                                                            \
      ms_test_failures++;                                                     \
      fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);        \
      fprintf (stderr, __VA_ARGS__);                                          \
      fprintf (stderr, "\n");                                                 \
    }                                                                         \
  } while (0)

#define MS_CHECK_STR(got, want)                                               \
  MS_CHECK (strcmp ((got), (want)) == 0, "got '%s', want '%s'", (got), (want))

#define MS_CHECK_NEAR(got, want, tol)                                         \
  MS_CHECK (fabs ((double) (got) - (double) (want)) <= (tol), "got %.9g, want %.9g", \
            (double) (got), (double) (want))

#define MS_RUN(fn)                                                            \
  do {                                                                        \
    int before_ = ms_test_failures;                                           \
    fn ();                                                                    \
    printf ("%s %s\n", ms_test_failures == before_ ? "ok  " : "FAIL", #fn);  \
  } while (0)

static inline int
ms_test_finish (void)
{
  printf ("%d checks, %d failed\n", ms_test_checks, ms_test_failures);
  return ms_test_failures ? 1 : 0;
}
