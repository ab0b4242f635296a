/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-to-run-file.h: run-to-run profiles on disk: written, read,
 * shipped, found by device, and their metadata lines. Defined in
 * ms-run-to-run-file.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "memsweep.h"
#include "ms-small-file.h"

/* A profile's table (its columns, whose names make the header row: how it
 * is told from other files), its reader and its writer. */
extern const MsSmallFormat ms_run_to_run_profile_format;

/* The shipped profile of the GPU model named device (data/profiles/, or
 * MEMSWEEP_PROFILES_DIR): true with rr filled and rr->source set. */
bool ms_run_to_run_load_shipped (MsRunToRun *rr, const char *device);

bool ms_run_to_run_write_profile (const MsRunToRun *rr, const MsResults *like, const char *path,
                                  char *err, size_t errlen);

/* device: the profile's device name, so callers can refuse a mismatch. */
bool ms_run_to_run_read_profile (MsRunToRun *rr, const char *path, char *device, size_t device_len,
                                 char *err, size_t errlen);

/* The per-device default: $XDG_DATA_HOME/memsweep (or ~/.local/share/memsweep)
 * /run-to-run-<host name>-<PCI bus id>.csv; false when no home is known.
 * Loading falls back to the older run-to-run-<PCI bus id>.csv. */
bool ms_run_to_run_default_path (const MsDeviceInfo *device, char *buf, size_t len);

/* The device's default profile when there is one and it names the same
 * GPU; false (rr cleared) otherwise. path gets the file's name. */
bool ms_run_to_run_load_default (MsRunToRun *rr, const MsDeviceInfo *device, char *path,
                                 size_t len);

/* Samples and summary metadata lines, and their reading. */
void ms_run_to_run_write_metadata (const MsRunToRun *rr, FILE *f);

bool ms_run_to_run_read_metadata (MsRunToRun *rr, const char *key, const char *value);
