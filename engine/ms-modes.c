/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-modes.c: the modes' records (ms-mode-list.h) read field by field; the
 * names of phases and statuses. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-names.h"
#include "ms-i18n.h"
#include "ms-mode-list.h"
#include "ms-modes.h"

/* A mode's record: its line of ms-mode-list.h, by field name. */
typedef struct {
  const char *name;
  const char *short_name;
  bool uses_gpu;
  const char *title;
  const char *explanation;
  MsPhase to_device;
  MsPhase to_host;
  MsModeMemory memory;
  MsModeNeed need;
  unsigned takes; /* MS_TAKES (knob) bits */
} MsModeRecord;

#define MS_MODE_RECORD(id, cname, kind, file, name, short_name, ...)                               \
  [MS_MODE_##id] = { name, short_name, MS_MODE_USES_##kind, __VA_ARGS__ },
#define MS_MODE_USES_GPU true
#define MS_MODE_USES_CPU false
static const MsModeRecord records[MS_MODE_COUNT] = { MS_MODE_LIST (MS_MODE_RECORD) };

/* MsMode comes from ms-mode-ids.h, which meson writes from this list: the
 * same ids in the same order, or the build is stale. */
#define MS_MODE_LIST_PLACE(id, ...) MS_MODE_LIST_AT_##id,
enum { MS_MODE_LIST (MS_MODE_LIST_PLACE) MS_MODE_LIST_COUNT };
#define MS_MODE_SAME_PLACE(id, ...)                                                                \
  _Static_assert ((int) MS_MODE_LIST_AT_##id == (int) MS_MODE_##id,                                \
                  "ms-mode-ids.h disagrees with the list");
MS_MODE_LIST (MS_MODE_SAME_PLACE)
_Static_assert ((int) MS_MODE_LIST_COUNT == (int) MS_MODE_COUNT,
                "ms-mode-ids.h disagrees with the list");

/* The command line's tables give a mode's short name ten columns. */
#define MS_MODE_SHORT_FITS(id, cname, kind, file, name, short_name, ...)                           \
  _Static_assert (sizeof (short_name) <= 11, "the short name of " name " fits ten columns");
MS_MODE_LIST (MS_MODE_SHORT_FITS)

/* A phase's name in the files and what it is, in a few words. */
static const struct {
  const char *name;
  const char *description;
} phases[MS_PHASE_COUNT] = {
  [MS_PHASE_ALLOC] = { "alloc", "allocating the buffers" },
  [MS_PHASE_INIT] = { "init", "filling the input vectors on the host" },
  [MS_PHASE_REGISTER] = { "register", "registering host memory (cudaHostRegister)" },
  [MS_PHASE_PREFETCH] = { "prefetch", "prefetching managed memory" },
  [MS_PHASE_H2D] = { "h2d", "copies host to device" },
  [MS_PHASE_KERNEL] = { "kernel", "the add kernel on the GPU" },
  [MS_PHASE_D2H] = { "d2h", "copies device to host" },
  [MS_PHASE_VERIFY] = { "verify", "checking the result on the host" },
  [MS_PHASE_UNREGISTER] = { "unregister", "unregistering host memory" },
  [MS_PHASE_FREE] = { "free", "freeing the buffers" },
  [MS_PHASE_LAUNCH] = { "launch", "the kernel launch call on the host" },
  [MS_PHASE_HOST_FUNC] = { "host-func", "a host function run by the stream" },
  [MS_PHASE_CALL] = { "call", "the call a lesson times" },
};

static const char *status_names[MS_CELL_STATUS_COUNT] = {
  [MS_CELL_OK] = "ok",
  [MS_CELL_FAILED] = "failed",
  [MS_CELL_VERIFY_FAILED] = "verify-failed",
  [MS_CELL_UNSUPPORTED] = "unsupported",
  [MS_CELL_CANCELLED] = "cancelled",
  [MS_CELL_PARTIAL] = "partial",
};

MS_DEFINE_LOOKUP (ms_mode_name, const char *, MsMode, MS_MODE_COUNT, records[i].name, "?")
MS_DEFINE_LOOKUP (ms_mode_short_name, const char *, MsMode, MS_MODE_COUNT, records[i].short_name,
                  "?")
MS_DEFINE_LOOKUP (ms_mode_title, const char *, MsMode, MS_MODE_COUNT,
                  ms_gettext (records[i].title), "?")
MS_DEFINE_LOOKUP (ms_mode_description, const char *, MsMode, MS_MODE_COUNT,
                  ms_gettext (records[i].explanation), "")
MS_DEFINE_FROM_NAME (ms_mode_from_name, MsMode, records, MS_MODE_COUNT)
MS_DEFINE_LOOKUP (ms_mode_uses_gpu, bool, MsMode, MS_MODE_COUNT, records[i].uses_gpu, false)
MS_DEFINE_LOOKUP (ms_mode_memory, MsModeMemory, MsMode, MS_MODE_COUNT, records[i].memory,
                  MS_MEMORY_COPIED)
MS_DEFINE_LOOKUP (ms_mode_need, MsModeNeed, MsMode, MS_MODE_COUNT, records[i].need,
                  MS_NEED_NOTHING)

/* Before the first repetition only where nothing but the GPU reads the
 * inputs (copies from page-locked memory, a kernel across the link): a
 * repetition leaves them as it found them. Not pageable memory, whose
 * copies the driver stages through the CPU's cache (the cache-state
 * lesson: kept inputs took 0.71 of the time of rewritten ones at 4 MiB on
 * the H100), nor managed memory, whose pages the kernel moves to the GPU,
 * nor the host mode, whose CPU reads them. */
MsModeInputs
ms_mode_inputs_written (MsMode mode)
{
  switch (ms_mode_memory (mode)) {
  case MS_MEMORY_DEVICE:
    return MS_INPUTS_NONE;
  case MS_MEMORY_COPIED:
  case MS_MEMORY_MAPPED:
    return mode == MS_MODE_PAGEABLE ? MS_INPUTS_EVERY_REP : MS_INPUTS_FIRST_REP;
  case MS_MEMORY_MANAGED:
  case MS_MEMORY_HOST:
  default:
    return MS_INPUTS_EVERY_REP;
  }
}

bool
ms_sweep_knob_applies (MsSweepKnob knob, MsMode mode)
{
  return (unsigned) mode < MS_MODE_COUNT && (records[mode].takes & (1u << knob));
}

MS_DEFINE_LOOKUP (ms_mode_to_device_phase, MsPhase, MsMode, MS_MODE_COUNT, records[i].to_device,
                  MS_PHASE_COUNT)
MS_DEFINE_LOOKUP (ms_mode_to_host_phase, MsPhase, MsMode, MS_MODE_COUNT, records[i].to_host,
                  MS_PHASE_COUNT)
MS_DEFINE_LOOKUP (ms_phase_name, const char *, MsPhase, MS_PHASE_COUNT, phases[i].name, "?")
MS_DEFINE_LOOKUP (ms_phase_description, const char *, MsPhase, MS_PHASE_COUNT,
                  phases[i].description, "?")
MS_DEFINE_FROM_NAME (ms_phase_from_name, MsPhase, phases, MS_PHASE_COUNT)
MS_DEFINE_LOOKUP (ms_cell_status_name, const char *, MsCellStatus, MS_CELL_STATUS_COUNT,
                  status_names[i], "?")
MS_DEFINE_FROM_NAME (ms_cell_status_from_name, MsCellStatus, status_names, MS_CELL_STATUS_COUNT)

void
ms_format_unit_once (char *first, const char *second)
{
  char *unit = strrchr (first, ' ');
  const char *unit2 = strrchr (second, ' ');
  if (unit && unit2 && strcmp (unit, unit2) == 0)
    *unit = '\0';
}

void
ms_format_bytes (uint64_t bytes, char *buf, size_t len)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  double value = (double) bytes;
  int u = 0;
  while (value >= 1024 && u < 4) {
    value /= 1024;
    u++;
  }
  if (value == floor (value))
    snprintf (buf, len, "%.0f %s", value, units[u]);
  else
    snprintf (buf, len, "%.1f %s", value, units[u]);
}

double
ms_pcie_theoretical_gbps (int gen, int width)
{
  /* Per lane and direction, after line coding (8b/10b up to gen 2,
   * 128b/130b from gen 3; gen 6 FLIT ~ 242/256). Packet headers cost a
   * further ~10-15% in practice; this is the link's ceiling. */
  static const double lane_gbps[] = { 0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563 };
  if (gen < 1 || gen > 6 || width < 1)
    return 0;
  return lane_gbps[gen] * width;
}

void
ms_format_version (int cuda_version, char *buf, size_t len)
{
  if (cuda_version <= 0)
    snprintf (buf, len, "unknown");
  else
    snprintf (buf, len, "%d.%d", cuda_version / 1000, (cuda_version % 1000) / 10);
}
