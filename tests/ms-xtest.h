/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-xtest.h: real input through the X server's XTest extension (as
 * xdotool sends it), for the app tests that press keys and click under
 * Xvfb: libXtst is opened at run time, so the tests skip without it. */
#pragma once

#include <dlfcn.h>
#include <gdk/x11/gdkx.h>
#include <gtk/gtk.h>

typedef int (*MsFakeKeyFunc) (Display *, unsigned int, Bool, unsigned long);
typedef int (*MsFakeMotionFunc) (Display *, int, int, int, unsigned long);
typedef int (*MsFakeButtonFunc) (Display *, unsigned int, Bool, unsigned long);

static MsFakeKeyFunc ms_fake_key;
static MsFakeMotionFunc ms_fake_motion;
static MsFakeButtonFunc ms_fake_button;

/* FALSE where there is no X11 display or no libXtst: the test skips. */
static inline gboolean
ms_xtest_load (void)
{
  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return FALSE;
  void *xtst = dlopen ("libXtst.so.6", RTLD_NOW);
  ms_fake_key = xtst ? (MsFakeKeyFunc)dlsym (xtst, "XTestFakeKeyEvent") : NULL;
  ms_fake_motion = xtst ? (MsFakeMotionFunc)dlsym (xtst, "XTestFakeMotionEvent") : NULL;
  ms_fake_button = xtst ? (MsFakeButtonFunc)dlsym (xtst, "XTestFakeButtonEvent") : NULL;
  return ms_fake_key && ms_fake_motion && ms_fake_button;
}

static inline Display *
ms_xtest_display (GtkWidget *widget)
{
  return gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
}

/* Presses modifier (0 for none) + key. */
static inline void
ms_xtest_press (GtkWidget *widget, KeySym modifier, KeySym key)
{
  Display *dpy = ms_xtest_display (widget);
  KeyCode mod = XKeysymToKeycode (dpy, modifier), k = XKeysymToKeycode (dpy, key);
  if (modifier)
    ms_fake_key (dpy, mod, True, 0);
  ms_fake_key (dpy, k, True, 0);
  ms_fake_key (dpy, k, False, 0);
  if (modifier)
    ms_fake_key (dpy, mod, False, 0);
  XFlush (dpy);
}

/* Moves the pointer over point (x, y) of widget, in its window. */
static inline void
ms_xtest_point_at (GtkWidget *widget, double x, double y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  Display *dpy = ms_xtest_display (widget);
  double sx, sy;
  gtk_native_get_surface_transform (native, &sx, &sy);
  graphene_point_t p;
  g_assert_true (
      gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &p));
  int rx, ry;
  Window child;
  XTranslateCoordinates (dpy, gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                         DefaultRootWindow (dpy), (int)(p.x + sx), (int)(p.y + sy), &rx, &ry,
                         &child);
  ms_fake_motion (dpy, -1, rx, ry, 0);
  XFlush (dpy);
}

/* A left click where the pointer is. */
static inline void
ms_xtest_click (GtkWidget *widget)
{
  Display *dpy = ms_xtest_display (widget);
  ms_fake_button (dpy, 1, True, 0);
  ms_fake_button (dpy, 1, False, 0);
  XFlush (dpy);
}
