/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-probes.cu: a probe lesson's sample handed to its file (the CUDA
 * backend picks the file's sample by the lesson's id), and what the probes
 * share (ms-k-probe.cuh). */
#include <mutex>
#include <string.h>

#include "ms-k-probe.cuh"

MsKStatus
kp_fail (MsKProbe *p, const char *what, cudaError_t e)
{
  snprintf (p->error, sizeof p->error, "%s: %s (%s)", what, cudaGetErrorString (e),
            cudaGetErrorName (e));
  cudaGetLastError ();
  return MS_K_FAILED;
}

MsKStatus
kp_unsupported (MsKProbe *p, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (p->error, sizeof p->error, fmt, ap);
  va_end (ap);
  return MS_K_UNSUPPORTED;
}

__global__ void
kp_spin_kernel (unsigned long long ns, unsigned long long *stamps)
{
  unsigned long long start = kp_globaltimer ();
  unsigned long long now = start;
  while (now - start < ns)
    now = kp_globaltimer ();
  if (stamps && blockIdx.x == 0 && threadIdx.x == 0) {
    stamps[0] = start;
    stamps[1] = now;
  }
}

cudaError_t
kp_spin (cudaStream_t stream, double us, unsigned blocks, unsigned threads, size_t smem,
         unsigned long long *stamps)
{
  if (smem > 48 * 1024) {
    cudaError_t e = cudaFuncSetAttribute (kp_spin_kernel,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (e != cudaSuccess)
      return e;
  }
  kp_spin_kernel<<<blocks, threads, smem, stream>>> ((unsigned long long) (us * 1000), stamps);
  return cudaGetLastError ();
}

#define KP_MAX_DEVICES 64
#define KP_STAMPS 1024

KpStamps *
kp_stamps (int device)
{
  static KpStamps kept[KP_MAX_DEVICES];
  if (device < 0 || device >= KP_MAX_DEVICES)
    return NULL;
  KpStamps *s = &kept[device];
  if (s->host)
    return s;
  if (cudaHostAlloc ((void **) &s->host, KP_STAMPS * sizeof *s->host, cudaHostAllocMapped) !=
      cudaSuccess)
    return NULL;
  if (cudaHostGetDevicePointer ((void **) &s->dev, s->host, 0) != cudaSuccess) {
    cudaFreeHost (s->host);
    s->host = NULL;
    return NULL;
  }
  s->n = KP_STAMPS;
  return s;
}

__global__ void
kp_now_kernel (unsigned long long *slot)
{
  *slot = kp_globaltimer ();
}

cudaError_t
kp_origin (KpOrigin *o, cudaStream_t stream, KpStamps *st, cudaEvent_t ref)
{
  /* The last slot: the lessons use the others from 0. */
  unsigned long long *slot = st->dev + st->n - 1;
  o->host_us = kp_now_us ();
  kp_now_kernel<<<1, 1, 0, stream>>> (slot);
  /* Right behind the stamp on its stream, so that the event completes a
   * microsecond or two after it: recorded before the launch, the event
   * lay 10-76 us ahead of the stamp, and every kernel drawn against it
   * began before the copy ahead of it on its stream had ended. */
  cudaError_t e = ref ? cudaEventRecord (ref, stream) : cudaSuccess;
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (stream);
  o->gpu_ns = st->host[st->n - 1];
  return e;
}

void
kp_event (MsKProbe *p, int phase, int lane, double host_start_us, double host_us,
          double gpu_start_us, double gpu_us, uint64_t bytes)
{
  if (p->n_events >= MS_K_PROBE_MAX_EVENTS)
    return;
  /* A file holds one row per (phase, lane, chunk) of a repetition: the
   * chunk numbers an operation repeated on one lane. */
  int chunk = 0;
  for (int i = 0; i < p->n_events; i++)
    chunk += p->events[i].phase == phase && p->events[i].lane == lane;
  if (chunk >= KP_MAX_CHUNKS)
    return;
  MsKEvent *e = &p->events[p->n_events++];
  memset (e, 0, sizeof *e);
  e->phase = phase;
  e->lane = lane;
  e->chunk = chunk;
  e->host_start_us = host_start_us > 0 ? host_start_us : 0;
  e->host_us = host_us;
  e->gpu_start_us = gpu_start_us;
  e->gpu_us = gpu_us;
  e->bytes = bytes;
}

MsKStatus
ms_k_probe_run (MsKProbe *p, MsKLessonSample sample)
{
  p->value_us = -1;
  p->n_events = 0;
  p->error[0] = '\0';
  cudaError_t e = cudaSetDevice (p->device);
  if (e != cudaSuccess)
    return kp_fail (p, "cudaSetDevice", e);
  return sample (p);
}

/* The lessons' release functions (kp_on_release), for the whole process. */
#define KP_MAX_RELEASES 32
static void (*releases[KP_MAX_RELEASES]) (void);
static int n_releases;
static std::mutex releases_lock;

void
kp_on_release (void (*release) (void))
{
  std::lock_guard<std::mutex> hold (releases_lock);
  for (int i = 0; i < n_releases; i++)
    if (releases[i] == release)
      return;
  if (n_releases < KP_MAX_RELEASES)
    releases[n_releases++] = release;
}

void
ms_k_probe_release (void)
{
  std::lock_guard<std::mutex> hold (releases_lock);
  for (int i = 0; i < n_releases; i++)
    releases[i] ();
}
