/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-toast-queue.h: toasts given to an AdwToastOverlay one at a time and
 * timed on its frame clock, so that libadwaita 1.2 never frees a toast
 * whose entrance is still animating (ms-toast-queue.c says how it did). */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Shows toast on overlay after the toasts before it, for its timeout (in
 * seconds of the overlay's frame clock; 0: until dismissed); a toast of
 * high priority comes next, and shortens the one shown. Takes the toast,
 * as adw_toast_overlay_add_toast does. Its "dismissed" is emitted once,
 * also for a toast the overlay never got to show; connect to it after
 * this call (a dismissal during the toast's entrance is stopped before
 * later handlers and done again once the entrance has ended). */
void ms_toast_queue_add (AdwToastOverlay *overlay, AdwToast *toast);

G_END_DECLS
