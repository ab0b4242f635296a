/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-mode-list.h: every memory mode once, in the order of the charts'
 * legends and the files' rows: the one record of each mode, from which
 * MsMode, the modes' names, explanations and facts (ms-modes.c), the CUDA
 * backend's kernels and the build are all made. How a mode looks in a
 * drawing is the drawing library's (draw/ms-palette.c, one line per mode,
 * checked to cover every mode). A line is
 *
 *   X (ID, cname, KIND, FILE, "name", "short", .field = value, ...)
 *
 * ID          its id, MS_MODE_ID (memsweep.h);
 * cname       the C name of its kernels: ms_k_mode_CNAME, defined in
 * FILE        kernels/mode-FILE.cu (a dash for the CPU baseline, which has
 *             none; meson reads this column, so keep the line's first four
 *             fields on its first line);
 * KIND        GPU: the CUDA backend runs it; CPU: the host does;
 * "name"      its name in files, options and settings (never change it:
 *             old files are read by it);
 * "short"     its name in the command line's narrow table columns (at most
 *             10 characters, checked when it compiles);
 * and then its record's fields, by name (MsModeRecord, ms-modes.c):
 * .title, .explanation  marked for translation;
 * .to_device, .to_host  the phase that moves the data each way, or
 *             MS_PHASE_COUNT where none does (the kernel works on host
 *             memory, or the data never leaves one side);
 * .memory     where the kernel finds its data (MsModeMemory, memsweep.h):
 *             what the backend allocates, what the breakdown says of the
 *             kernel's bar, whether unified-memory counts apply;
 * .need       the device capability it cannot run without (MsModeNeed;
 *             none where left out): ms_backend_supports says why not;
 * .takes      the sweep's knobs it honours (MsSweepKnob), as
 *             MS_TAKES (REUSE) | ...; none where left out. A knob reaches
 *             the modes its lesson measured (docs/lessons.md, "Two knobs
 *             in any sweep"): the reuse kernel runs in pinned, zero-copy,
 *             uva and managed memory; the host's stores matter where it
 *             writes pinned or write-combined inputs.
 *
 * Only preprocessor data, so that each layer expands it for itself: the
 * engine (memsweep.h, ms-modes.c) and the CUDA backend
 * (engine/run/ms-backend.c). A GPU mode missing its ms_k_mode_CNAME fails
 * to link. HACKING.md: "Add a memory mode". */
#pragma once

/* A knob of MsSweepKnob in a record's .takes. */
#define MS_TAKES(knob) (1u << MS_KNOB_##knob)

#define MS_MODE_LIST(X)                                                                            \
  X (PAGEABLE, pageable, GPU, pageable, "pageable", "pageable",                                    \
     .title = MS_N_ ("Pageable"),                                                                  \
     .explanation = MS_N_ ("malloc'd host buffers; cudaMemcpy stages them through a hidden "       \
                           "pinned buffer; a and b rewritten with streaming stores before "        \
                           "every repetition"),                                                    \
     .to_device = MS_PHASE_H2D, .to_host = MS_PHASE_D2H, .memory = MS_MEMORY_COPIED)               \
  X (PINNED, pinned, GPU, pinned, "pinned", "pinned",                                              \
     .title = MS_N_ ("Pinned"),                                                                    \
     .explanation = MS_N_ ("cudaMallocHost (page-locked) host buffers; cudaMemcpyAsync "           \
                           "copies, one synchronise at the end"),                                  \
     .to_device = MS_PHASE_H2D, .to_host = MS_PHASE_D2H, .memory = MS_MEMORY_COPIED,               \
     .takes = MS_TAKES (REUSE) | MS_TAKES (STORES))                                                \
  X (REGISTERED, registered, GPU, registered, "registered", "registered",                          \
     .title = MS_N_ ("Registered"),                                                                \
     .explanation = MS_N_ ("malloc'd buffers pinned with cudaHostRegister and unpinned in "        \
                           "every repetition; register and unregister are timed"),                 \
     .to_device = MS_PHASE_H2D, .to_host = MS_PHASE_D2H, .memory = MS_MEMORY_COPIED)               \
  X (WRITE_COMBINED, write_combined, GPU, write-combined, "write-combined", "wc",                  \
     .title = MS_N_ ("Write-combined"),                                                            \
     .explanation = MS_N_ ("inputs in write-combined pinned memory (host writes only); the "       \
                           "output in normal pinned memory because the host reads it"),            \
     .to_device = MS_PHASE_H2D, .to_host = MS_PHASE_D2H, .memory = MS_MEMORY_COPIED,               \
     .takes = MS_TAKES (STORES))                                                                   \
  X (ZERO_COPY, zero_copy, GPU, zero-copy, "zero-copy", "zero-copy",                               \
     .title = MS_N_ ("Zero-copy"),                                                                 \
     .explanation = MS_N_ ("mapped pinned memory; the kernel reads and writes host memory "        \
                           "across PCIe via cudaHostGetDevicePointer, no copies"),                 \
     .to_device = MS_PHASE_COUNT, .to_host = MS_PHASE_COUNT, .memory = MS_MEMORY_MAPPED,           \
     .need = MS_NEED_MAP_HOST_MEMORY, .takes = MS_TAKES (REUSE))                                   \
  X (UVA, uva, GPU, uva, "uva", "uva",                                                             \
     .title = MS_N_ ("UVA"),                                                                       \
     .explanation = MS_N_ ("pinned memory whose host pointers the kernel uses directly "           \
                           "(unified virtual addressing)"),                                        \
     .to_device = MS_PHASE_COUNT, .to_host = MS_PHASE_COUNT, .memory = MS_MEMORY_MAPPED,           \
     .need = MS_NEED_UNIFIED_ADDRESSING, .takes = MS_TAKES (REUSE))                                \
  X (MANAGED, managed, GPU, managed, "managed", "managed",                                         \
     .title = MS_N_ ("Managed"),                                                                   \
     .explanation = MS_N_ ("cudaMallocManaged; the kernel faults inputs over on demand, "          \
                           "the host read faults the result back"),                                \
     .to_device = MS_PHASE_COUNT, .to_host = MS_PHASE_D2H, .memory = MS_MEMORY_MANAGED,            \
     .need = MS_NEED_MANAGED_MEMORY, .takes = MS_TAKES (REUSE))                                    \
  X (MANAGED_PREFETCH, managed_prefetch, GPU, managed, "managed-prefetch", "mgd+pf",               \
     .title = MS_N_ ("Managed + prefetch"),                                                        \
     .explanation = MS_N_ ("cudaMallocManaged with cudaMemPrefetchAsync to the device "            \
                           "before the kernel and back to the host after it"),                     \
     .to_device = MS_PHASE_PREFETCH, .to_host = MS_PHASE_D2H, .memory = MS_MEMORY_MANAGED,         \
     .need = MS_NEED_CONCURRENT_MANAGED_ACCESS)                                                    \
  X (STREAMS, streams, GPU, streams, "streams", "streams",                                         \
     .title = MS_N_ ("Streams"),                                                                   \
     .explanation = MS_N_ ("pinned buffers in K chunks on K streams so copies and kernels "        \
                           "overlap (depth- or breadth-first issue)"),                             \
     .to_device = MS_PHASE_H2D, .to_host = MS_PHASE_D2H, .memory = MS_MEMORY_COPIED,               \
     .takes = MS_TAKES (STREAMS))                                                                  \
  X (DEVICE, device, GPU, device, "device", "device",                                              \
     .title = MS_N_ ("Device only"),                                                               \
     .explanation = MS_N_ ("data already in device memory, only the kernel is timed (GPU "         \
                           "baseline; small sizes are L2-resident)"),                              \
     .to_device = MS_PHASE_COUNT, .to_host = MS_PHASE_COUNT, .memory = MS_MEMORY_DEVICE)           \
  X (HOST, host, CPU, -, "host", "host",                                                           \
     .title = MS_N_ ("Host CPU"),                                                                  \
     .explanation = MS_N_ ("the CPU computes c = a + b (the no-GPU baseline)"),                    \
     .to_device = MS_PHASE_COUNT, .to_host = MS_PHASE_COUNT, .memory = MS_MEMORY_HOST)
