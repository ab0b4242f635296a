/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-toast-queue.c: toasts given to an overlay one at a time, timed on its
 * frame clock.
 *
 * libadwaita 1.2 (Debian 12 has 1.2.2) frees a toast's record when the
 * toast's exit animation ends, while its entrance animation may still be
 * running; that one's end then writes through the freed record (fixed in
 * libadwaita 1.3: "toast-overlay: Prevent show_done from firing after
 * hide_done"). app-smoke died of it under load, SIGSEGV in g_object_unref
 * under adw_animation_skip, the freed record full of MALLOC_PERTURB_'s
 * byte. A toast goes before its entrance has ended when its own timeout
 * (a GLib timer) fires while the window's frames are held back, as on a
 * loaded machine, when one that replaced another (a 500 ms entrance then)
 * is dismissed within 200 ms, or when it is dismissed (Escape, Undo, its
 * close button) before a frame has ended its entrance. So the overlay
 * here holds one toast at a time, given to it on a frame once the one
 * before has left; a toast goes only once a frame has ended its entrance
 * (a dismissal before that waits for it); a timed toast is dismissed on a
 * frame when its time on the frame clock is up. */
#include "ms-toast-queue.h"

/* libadwaita 1.2's exit animation takes 300 ms: the next toast enters
 * after it, not as a replacement. */
#define EXIT_US (400 * G_TIME_SPAN_MILLISECOND)
/* The longest entrance is 500 ms: a toast goes (or gives its place to one
 * of high priority) only on a frame past that. */
#define ENTRANCE_US (600 * G_TIME_SPAN_MILLISECOND)

typedef struct {
  AdwToastOverlay *overlay; /* not held: this is its data */
  GQueue waiting;           /* held, not yet given to the overlay */
  AdwToast *shown;          /* given to the overlay, not yet dismissed; held */
  gboolean entered;         /* a frame has ended its entrance */
  gboolean dismiss_asked;   /* dismissed before that: it goes then */
  guint seconds;            /* the shown toast's timeout */
  gint64 shown_at, left_at; /* frame times */
  guint tick, wake;
} ToastQueue;

static gint64
frame_time (ToastQueue *q)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (q->overlay));
  return clock ? gdk_frame_clock_get_frame_time (clock) : g_get_monotonic_time ();
}

static gboolean on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data);

static void
ensure_ticking (ToastQueue *q)
{
  g_clear_handle_id (&q->wake, g_source_remove);
  if (!q->tick)
    q->tick = gtk_widget_add_tick_callback (GTK_WIDGET (q->overlay), on_tick, q, NULL);
}

static gboolean
on_wake (gpointer data)
{
  ToastQueue *q = data;
  q->wake = 0;
  ensure_ticking (q);
  return G_SOURCE_REMOVE;
}

/* The frame time from which the shown toast may go, or 0: it stays until
 * dismissed. */
static gint64
shown_until (ToastQueue *q)
{
  AdwToast *next = g_queue_peek_head (&q->waiting);
  gint64 until = q->seconds ? q->shown_at + q->seconds * G_TIME_SPAN_SECOND : 0;
  if (next && adw_toast_get_priority (next) == ADW_TOAST_PRIORITY_HIGH
      && (!until || until > q->shown_at + ENTRANCE_US))
    until = q->shown_at + ENTRANCE_US;
  return until;
}

/* Connected before the overlay's own handler: a dismissal during the
 * entrance stops here and is done again once a frame has ended it (by
 * emitting the signal: the toast's own handler, which runs first, has
 * let go of the overlay, so adw_toast_dismiss would do nothing). An
 * overlay not on screen has no entrance running. */
static void
on_dismissed (AdwToast *toast, ToastQueue *q)
{
  if (toast == q->shown && !q->entered && gtk_widget_get_mapped (GTK_WIDGET (q->overlay))) {
    g_signal_stop_emission_by_name (toast, "dismissed");
    q->dismiss_asked = TRUE;
    ensure_ticking (q);
    return;
  }
  g_signal_handlers_disconnect_by_func (toast, on_dismissed, q);
  if (toast != q->shown)
    return;
  q->shown = NULL;
  /* The time libadwaita's exit animation starts from. */
  q->left_at = frame_time (q);
  if (!g_queue_is_empty (&q->waiting))
    ensure_ticking (q);
  g_object_unref (toast);
}

static void
show_next (ToastQueue *q, gint64 now)
{
  AdwToast *toast = g_queue_pop_head (&q->waiting);
  q->shown = toast;
  q->shown_at = now;
  q->entered = q->dismiss_asked = FALSE;
  /* The overlay's own timer would dismiss it off the frame clock. */
  q->seconds = adw_toast_get_timeout (toast);
  adw_toast_set_timeout (toast, 0);
  adw_toast_overlay_add_toast (q->overlay, g_object_ref (toast));
}

/* On a frame: the shown toast goes when its time is up; the next comes
 * once the last one has left. Between frames a timer waits for the next
 * thing to do, so that a toast on screen keeps no frames coming. */
static gboolean
on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  ToastQueue *q = data;
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  if (q->shown && !q->entered) {
    if (now - q->shown_at < ENTRANCE_US)
      return G_SOURCE_CONTINUE;
    q->entered = TRUE;
  }
  gint64 until = q->shown ? shown_until (q) : 0;
  if (q->shown && (q->dismiss_asked || (until && now >= until)))
    g_signal_emit_by_name (q->shown, "dismissed");
  if (!q->shown && !g_queue_is_empty (&q->waiting)) {
    if (now - q->left_at < EXIT_US)
      return G_SOURCE_CONTINUE;
    show_next (q, now);
  }
  q->tick = 0;
  until = q->shown ? shown_until (q) : 0;
  if (until)
    q->wake = g_timeout_add (MAX (until - now, 0) / G_TIME_SPAN_MILLISECOND + 1, on_wake, q);
  return G_SOURCE_REMOVE;
}

/* The overlay goes: toasts it never showed are dismissed too, as the ones
 * it holds are (an undo offered in one ends). */
static void
on_destroy (AdwToastOverlay *overlay, ToastQueue *q)
{
  g_clear_handle_id (&q->wake, g_source_remove);
  if (q->tick)
    gtk_widget_remove_tick_callback (GTK_WIDGET (overlay), q->tick);
  q->tick = 0;
  /* Dismissed during its entrance, it has not gone yet. */
  if (q->shown)
    g_signal_emit_by_name (q->shown, "dismissed");
  AdwToast *toast;
  while ((toast = g_queue_pop_head (&q->waiting))) {
    g_signal_emit_by_name (toast, "dismissed");
    g_object_unref (toast);
  }
}

static ToastQueue *
queue_of (AdwToastOverlay *overlay)
{
  ToastQueue *q = g_object_get_data (G_OBJECT (overlay), "ms-toast-queue");
  if (!q) {
    q = g_new0 (ToastQueue, 1);
    q->overlay = overlay;
    g_object_set_data_full (G_OBJECT (overlay), "ms-toast-queue", q, g_free);
    g_signal_connect (overlay, "destroy", G_CALLBACK (on_destroy), q);
  }
  return q;
}

void
ms_toast_queue_add (AdwToastOverlay *overlay, AdwToast *toast)
{
  g_return_if_fail (ADW_IS_TOAST_OVERLAY (overlay) && ADW_IS_TOAST (toast));
  ToastQueue *q = queue_of (overlay);
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_dismissed), q);
  if (adw_toast_get_priority (toast) == ADW_TOAST_PRIORITY_HIGH)
    g_queue_push_head (&q->waiting, toast);
  else
    g_queue_push_tail (&q->waiting, toast);
  ensure_ticking (q);
}
