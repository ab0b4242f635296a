/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-toast-queue.c: toasts through ms_toast_queue_add in the ways that
 * made libadwaita 1.2 write through a toast's freed record (SIGSEGV in
 * app-smoke under load; ms-toast-queue.c says why): a toast that replaced
 * another dismissed at once, a timeout that fires while no frame is drawn,
 * a toast dismissed during its entrance, a toast of high priority, the
 * overlay going with toasts not yet shown.
 * meson.build runs it with MALLOC_PERTURB_ and glibc's per-thread cache
 * off, so that freed memory reads as garbage at once: given straight to
 * the overlay (adw_toast_overlay_add_toast), the first case crashes every
 * time. */
#include "ms-toast-queue.h"
#include "ms-widget-test.h"

static void
spin (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;
  while (g_get_monotonic_time () < end) {
    g_main_context_iteration (NULL, FALSE);
    g_usleep (1000);
  }
}

static AdwToastOverlay *
new_overlay (void)
{
  AdwToastOverlay *overlay = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (overlay, gtk_label_new ("page"));
  ms_test_show (GTK_WIDGET (overlay), 480, 320);
  return overlay;
}

static void
count_dismissed (AdwToast *toast, guint *count)
{
  (*count)++;
}

/* A toast of the test's own (it keeps a reference) given to overlay; its
 * dismissals counted. */
static AdwToast *
add_toast (AdwToastOverlay *overlay, const char *title, guint timeout, guint *dismissed)
{
  AdwToast *toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, timeout);
  ms_toast_queue_add (overlay, g_object_ref (toast));
  g_signal_connect (toast, "dismissed", G_CALLBACK (count_dismissed), dismissed);
  return toast;
}

typedef struct {
  GtkWidget *root;
  const char *text;
} Shown;

static gboolean
shows (gpointer data)
{
  Shown *s = data;
  GtkWidget *label = ms_test_find_label (s->root, s->text);
  return label && gtk_widget_get_mapped (label);
}

static void
wait_shown (AdwToastOverlay *overlay, const char *text)
{
  Shown s = { GTK_WIDGET (overlay), text };
  g_autofree char *what = g_strdup_printf ("the toast %s shows", text);
  ms_test_wait_until (shows, &s, what);
}

static gboolean
is_nonzero (gpointer count)
{
  return *(guint *)count > 0;
}

static void
destroy (AdwToastOverlay *overlay)
{
  GtkWindow *window = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (overlay)));
  gtk_window_destroy (window);
  spin (100);
}

/* A toast that comes as another leaves, dismissed (Undo, the close button)
 * right after it shows. Straight to the overlay it entered as the other's
 * replacement, for 500 ms, and its 300 ms exit ended first. */
static void
test_replaced_then_dismissed (void)
{
  AdwToastOverlay *overlay = new_overlay ();
  guint gone_a = 0, gone_b = 0;
  g_autoptr (AdwToast) a = add_toast (overlay, "first", 0, &gone_a);
  g_autoptr (AdwToast) b = add_toast (overlay, "second", 0, &gone_b);
  wait_shown (overlay, "first");
  spin (600);
  adw_toast_dismiss (a);
  wait_shown (overlay, "second");
  spin (50);
  adw_toast_dismiss (b);
  ms_test_wait_until (is_nonzero, &gone_b, "the second toast goes");
  spin (1000);
  g_assert_cmpuint (gone_a, ==, 1);
  g_assert_cmpuint (gone_b, ==, 1);
  destroy (overlay);
}

static void
hold_frames (AdwToast *toast, gpointer unused)
{
  g_usleep (500 * G_TIME_SPAN_MILLISECOND);
}

/* A loaded machine: no frame for longer than the toast's timeout, nor for
 * a while after it goes. It goes on a frame, after its time on screen. */
static void
test_timeout_without_frames (void)
{
  AdwToastOverlay *overlay = new_overlay ();
  guint gone = 0;
  g_autoptr (AdwToast) toast = add_toast (overlay, "timed", 1, &gone);
  g_signal_connect (toast, "dismissed", G_CALLBACK (hold_frames), NULL);
  g_usleep (1500 * G_TIME_SPAN_MILLISECOND);
  ms_test_wait_until (is_nonzero, &gone, "the timed toast goes");
  spin (1000);
  g_assert_cmpuint (gone, ==, 1);
  destroy (overlay);
}

/* A toast of high priority (the runs library's failure) takes the place
 * of the one shown, which goes, and stays until dismissed. */
static void
test_high_priority (void)
{
  AdwToastOverlay *overlay = new_overlay ();
  guint gone_a = 0, gone_h = 0;
  g_autoptr (AdwToast) a = add_toast (overlay, "ordinary", 0, &gone_a);
  wait_shown (overlay, "ordinary");
  AdwToast *urgent = adw_toast_new ("urgent");
  adw_toast_set_timeout (urgent, 0);
  adw_toast_set_priority (urgent, ADW_TOAST_PRIORITY_HIGH);
  ms_toast_queue_add (overlay, urgent);
  g_signal_connect (urgent, "dismissed", G_CALLBACK (count_dismissed), &gone_h);
  wait_shown (overlay, "urgent");
  g_assert_cmpuint (gone_a, ==, 1);
  spin (300);
  g_assert_cmpuint (gone_h, ==, 0);
  destroy (overlay);
  g_assert_cmpuint (gone_h, ==, 1);
}

/* The overlay goes with a toast shown and one waiting: both are dismissed
 * once (an undo offered in the waiting one ends too). */
static void
test_overlay_goes (void)
{
  AdwToastOverlay *overlay = new_overlay ();
  guint gone_a = 0, gone_b = 0;
  g_autoptr (AdwToast) a = add_toast (overlay, "shown", 0, &gone_a);
  g_autoptr (AdwToast) b = add_toast (overlay, "waiting", 0, &gone_b);
  wait_shown (overlay, "shown");
  spin (300);
  g_assert_cmpuint (gone_a + gone_b, ==, 0);
  destroy (overlay);
  g_assert_cmpuint (gone_a, ==, 1);
  g_assert_cmpuint (gone_b, ==, 1);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/toast-queue/replaced-then-dismissed", test_replaced_then_dismissed);
  g_test_add_func ("/toast-queue/timeout-without-frames", test_timeout_without_frames);
  g_test_add_func ("/toast-queue/high-priority", test_high_priority);
  g_test_add_func ("/toast-queue/overlay-goes", test_overlay_goes);
  return g_test_run ();
}
