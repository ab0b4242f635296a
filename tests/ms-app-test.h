/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-app-test.h: what the tests that drive the whole app under Xvfb wait
 * for (with ms_test_wait_until of ms-widget-test.h). */
#pragma once

#include "ms-widget-test.h"
#include "ms-window.h"

static inline gboolean
ms_test_is_not_sweeping (gpointer win)
{
  return !ms_window_is_sweeping (win);
}

/* Device discovery has ended and Run is enabled. */
static inline gboolean
ms_test_can_run (gpointer win)
{
  g_autofree char *blocker = ms_window_dup_run_blocker (win);
  return blocker == NULL;
}

/* *pointer_to_pointer has been cleared (a weak pointer to a window gone). */
static inline gboolean
ms_test_is_null (gpointer pointer_to_pointer)
{
  return *(gpointer *) pointer_to_pointer == NULL;
}
