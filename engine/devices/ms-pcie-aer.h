/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-pcie-aer.h: a GPU's corrected PCIe errors from sysfs, one of the
 * link counters read around a run (model/ms-health.h). Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* TOTAL_ERR_COR of root/<bus id>/aer_dev_correctable (root NULL: the
 * system's /sys/bus/pci/devices); false when it cannot be read. */
bool ms_aer_read_correctable (const char *root, const char *pci_bus_id, uint64_t *count);
