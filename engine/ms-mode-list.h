/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-mode-list.h: every memory mode once, in the order of the charts'
 * legends and the files' rows: the one table that MsMode, the modes' names
 * and explanations, the CUDA backend's kernels and the build are all made
 * from. A line is
 *
 *   X (ID, cname, KIND, FILE, "name", "short", title, explanation, to_device,
 *      to_host)
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
 *             10 characters);
 * title and explanation, marked for translation;
 * to_device, to_host  the phase that moves the data each way, or
 *             MS_PHASE_COUNT where none does (the kernel works on host
 *             memory, or the data never leaves one side).
 *
 * Only preprocessor data, so that each layer expands it for itself: the
 * engine (memsweep.h, ms-modes.c) and the CUDA backend
 * (engine/run/ms-backend.c). A GPU mode missing its ms_k_mode_CNAME fails
 * to link. HACKING.md: "Add a memory mode". */
#pragma once

#define MS_MODE_LIST(X)                                                                      \
  X (PAGEABLE, pageable, GPU, pageable, "pageable", "pageable",                              \
     MS_N_ ("Pageable"),                                                                     \
     MS_N_ ("malloc'd host buffers; cudaMemcpy stages them through a hidden pinned buffer; " \
            "a and b rewritten with streaming stores before every repetition"),               \
     MS_PHASE_H2D, MS_PHASE_D2H)                                                             \
  X (PINNED, pinned, GPU, pinned, "pinned", "pinned",                                        \
     MS_N_ ("Pinned"),                                                                       \
     MS_N_ ("cudaMallocHost (page-locked) host buffers; cudaMemcpyAsync copies, one "        \
            "synchronise at the end"),                                                       \
     MS_PHASE_H2D, MS_PHASE_D2H)                                                             \
  X (REGISTERED, registered, GPU, registered, "registered", "registered",                    \
     MS_N_ ("Registered"),                                                                   \
     MS_N_ ("malloc'd buffers pinned with cudaHostRegister and unpinned in every "           \
            "repetition; register and unregister are timed"),                               \
     MS_PHASE_H2D, MS_PHASE_D2H)                                                             \
  X (WRITE_COMBINED, write_combined, GPU, write-combined, "write-combined", "wc",                  \
     MS_N_ ("Write-combined"),                                                               \
     MS_N_ ("inputs in write-combined pinned memory (host writes only); the output in "      \
            "normal pinned memory because the host reads it"),                               \
     MS_PHASE_H2D, MS_PHASE_D2H)                                                             \
  X (ZERO_COPY, zero_copy, GPU, zero-copy, "zero-copy", "zero-copy",                         \
     MS_N_ ("Zero-copy"),                                                                    \
     MS_N_ ("mapped pinned memory; the kernel reads and writes host memory across PCIe "     \
            "via cudaHostGetDevicePointer, no copies"),                                      \
     MS_PHASE_COUNT, MS_PHASE_COUNT)                                                         \
  X (UVA, uva, GPU, uva, "uva", "uva",                                                       \
     MS_N_ ("UVA"),                                                                          \
     MS_N_ ("pinned memory whose host pointers the kernel uses directly (unified virtual "   \
            "addressing)"),                                                                  \
     MS_PHASE_COUNT, MS_PHASE_COUNT)                                                         \
  X (MANAGED, managed, GPU, managed, "managed", "managed",                                   \
     MS_N_ ("Managed"),                                                                      \
     MS_N_ ("cudaMallocManaged; the kernel faults inputs over on demand, the host read "     \
            "faults the result back"),                                                       \
     MS_PHASE_COUNT, MS_PHASE_D2H)                                                           \
  X (MANAGED_PREFETCH, managed_prefetch, GPU, managed, "managed-prefetch", "mgd+pf",         \
                                                                                             \
     MS_N_ ("Managed + prefetch"),                                                           \
     MS_N_ ("cudaMallocManaged with cudaMemPrefetchAsync to the device before the kernel "   \
            "and back to the host after it"),                                                \
     MS_PHASE_PREFETCH, MS_PHASE_D2H)                                                        \
  X (STREAMS, streams, GPU, streams, "streams", "streams",                                   \
     MS_N_ ("Streams"),                                                                      \
     MS_N_ ("pinned buffers in K chunks on K streams so copies and kernels overlap (depth- " \
            "or breadth-first issue)"),                                                      \
     MS_PHASE_H2D, MS_PHASE_D2H)                                                             \
  X (DEVICE, device, GPU, device, "device", "device",                                        \
     MS_N_ ("Device only"),                                                                  \
     MS_N_ ("data already in device memory, only the kernel is timed (GPU baseline; small "  \
            "sizes are L2-resident)"),                                                       \
     MS_PHASE_COUNT, MS_PHASE_COUNT)                                                         \
  X (HOST, host, CPU, -, "host", "host",                                                     \
     MS_N_ ("Host CPU"),                                                                     \
     MS_N_ ("the CPU computes c = a + b (the no-GPU baseline)"), MS_PHASE_COUNT,             \
     MS_PHASE_COUNT)
