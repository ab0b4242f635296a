/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-devices-page.h: the page beyond one GPU: a check list of the GPUs,
 * "Run on all selected at once" (the sweep on every selected GPU together,
 * engine/run/ms-multi.c, on a worker thread: one run per device for the charts),
 * "Peer matrix" (engine/run/ms-peer.c, on a worker), the heat map with method
 * and direction pickers, and the topology diagram. Without a GPU it says
 * why and shows saved peer files (ms_devices_page_open_path). */
#pragma once

#include <gtk/gtk.h>

#include "ms-page.h"

#include "memsweep.h"
#include "ms-matrix-view.h"
#include "ms-topology-view.h"

G_BEGIN_DECLS

#define MS_TYPE_DEVICES_PAGE (ms_devices_page_get_type ())
G_DECLARE_FINAL_TYPE (MsDevicesPage, ms_devices_page, MS, DEVICES_PAGE, MsPage)

/* Properties (read-only): "busy" (a run is under way), "status" (what the
 * page says: why not, what runs, what came out), "n-selected" (GPUs
 * ticked), "peer" (MS_TYPE_PEER_FILE shown); read-write
 * "window-sweeping" (the window's own sweep runs: nothing starts here;
 * bound to the session's "sweeping").
 * From the session (MsPage): the devices found; the page asks it to run
 * the sweep on the GPUs ticked or the peer matrix (ms_session_run_device_job,
 * on the sweep's sizes, repetitions and device) and shows what comes back;
 * a finished multi-GPU sweep's runs, one per device, go into the session.
 * Without a session nothing runs. */

/* The devices found (MsDeviceInfo; entry 0 says why when none is present). */
void ms_devices_page_set_devices (MsDevicesPage *self, GArray *devices);
/* Shows a saved PREFIX-peer.csv, or the GPUs of a PREFIX-multi.csv (each
 * one's samples file beside it becomes a run, as after a run here). */
gboolean ms_devices_page_open_path (MsDevicesPage *self, const char *path, GError **error);
/* The same with the files read on a worker thread; _finish shows them. */
void ms_devices_page_open_path_async (MsDevicesPage *self, const char *path,
                                     GAsyncReadyCallback callback, gpointer user_data);
gboolean ms_devices_page_open_path_finish (MsDevicesPage *self, GAsyncResult *result,
                                          GError **error);

G_END_DECLS
