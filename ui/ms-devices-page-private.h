/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-devices-page-private.h: what the devices page's files share
 * (ms-devices-page.c: the list, pickers, views and files;
 * ms-devices-jobs.c: the runs on worker threads). */
#pragma once

#include <stdatomic.h>

#include "ms-devices-page.h"
#include "ms-job.h"

G_BEGIN_DECLS

#define MS_DEVICES_PEER_EXPONENT 26 /* 256 MiB copies, as `memsweep peer` by default */
#define MS_DEVICES_PEER_REPS 11
#define MS_DEVICES_METHOD_RUNS (MS_PEER_METHOD_COUNT + 1) /* the picker's last entry */

/* The backend and the peer function, shared with the jobs: the page may go
 * while a job still runs. */
typedef struct {
  MsBackend *backend;
  MsDevicesPeerFunc peer_run;
} Engine;

/* An MsJob's data: the worker's own copy, and its results. */
typedef struct {
  Engine *engine;
  gboolean peer;
  MsSweep sweep;
  int devices[MS_MULTI_MAX_DEVICES];
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES];
  int n;
  /* Results, filled on the worker. */
  MsMultiResults *multi;
  MsRunStatus status;
  MsPeerFile *file;
  gboolean peer_ok;
  char err[512];
} Job;

struct _MsDevicesPage {
  MsPage parent_instance;
  GtkListBox *device_list;
  GtkCheckButton *all_check;
  GtkWidget *multi_button, *peer_button, *stop_button;
  GtkSpinner *spinner;
  GtkLabel *title_label; /* whose GPUs the page shows */
  GtkLabel *status_label;
  GtkLabel *why_label; /* why nothing can run here */
  GtkLabel *error_label; /* and what CUDA said, in small */
  GtkDropDown *method_dropdown, *direction_dropdown;
  MsMatrixView *matrix_view;
  MsTopologyView *topology_view;

  GArray *devices; /* MsDeviceInfo */
  GPtrArray *checks; /* GtkCheckButton per present device, in order */
  Engine *engine;
  MsJob *job;      /* the job running, followed with g_signal_connect_object */
  gboolean job_is_peer;
  GPtrArray *runs; /* of the last multi-GPU sweep */
  MsPeerFile *peer;
  char *status;
  gboolean updating_all;
  gboolean window_sweeping; /* the window's own sweep holds the GPU */
};

/* ms-devices-page.c */
void ms_devices_page_set_status (MsDevicesPage *self, const char *text);
/* Buttons, ticks and notifications after any change. */
void ms_devices_page_update (MsDevicesPage *self);
void ms_devices_page_notify_busy (MsDevicesPage *self);
void ms_devices_page_show_peer (MsDevicesPage *self, MsPeerFile *file);
void ms_devices_page_show_runs (MsDevicesPage *self, GPtrArray *runs);
guint ms_devices_page_n_selected (MsDevicesPage *self);
int ms_devices_page_device_of (GtkCheckButton *check);

/* ms-devices-jobs.c */
Engine *ms_devices_engine_new (MsBackend *backend, MsDevicesPeerFunc peer_run);
void ms_devices_engine_unref (Engine *engine);
void ms_devices_page_run_multi (MsDevicesPage *self);
void ms_devices_page_run_peer (MsDevicesPage *self);

G_END_DECLS
