/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-multi.h: plain C interface to the multi-GPU experiments of
 * ms-multi.cu (peer copies, portable pinned memory). Every function returns
 * a median over `reps` samples after one warm-up, each sample one copy
 * timed with CUDA events; GB/s = 1e9 bytes per second, bytes per
 * direction, both directions added for a bidirectional figure. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Mirrors MsPeerMethod in engine/run/ms-multi.h (checked there). */
enum {
  MS_K_PEER_COPY_ENABLED,
  MS_K_PEER_COPY_DISABLED,
  MS_K_PEER_KERNEL_READ,
  MS_K_PEER_STAGED,
  MS_K_PEER_METHOD_COUNT
};

/* cudaDeviceCanAccessPeer (a can read b's memory): 1, 0, or -1 with err. */
int ms_k_peer_can_access (int a, int b, char *err, size_t errlen);

/* GB/s of method from src to dst (and back at once when bidirectional);
 * 0 with err set when it fails. Leaves peer access as the method needs it
 * (enabled, or disabled for MS_K_PEER_COPY_DISABLED). */
double ms_k_peer_gbps (int method, int src, int dst, uint64_t bytes, int bidirectional,
                       int reps, char *err, size_t errlen);

/* The reference: peer access enabled, ten cudaMemcpyPeerAsync back to back
 * between one event pair per sample, nothing else; GB/s, 0 with err. */
double ms_k_peer_reference_gbps (int src, int dst, uint64_t bytes, int reps, char *err,
                                 size_t errlen);

/* Mirrors MsPortableCase. */
enum {
  MS_K_PORTABLE_PER_DEVICE,
  MS_K_PORTABLE_SHARED,
  MS_K_PORTABLE_FOREIGN
};

/* Copies between a host buffer allocated as `kind` says (on `owner` for
 * the shared and foreign cases) and device `device`'s memory: h2d and d2h
 * GB/s, and whether the runtime reports the buffer as pinned host memory
 * when asked from `device`. 0 with err on failure. */
int ms_k_portable_gbps (int kind, int owner, int device, uint64_t bytes, int reps,
                        double *h2d_gbps, double *d2h_gbps, int *pinned, char *note,
                        size_t notelen);

#ifdef __cplusplus
}
#endif
