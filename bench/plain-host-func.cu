/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-host-func.cu: the host-function lesson done plainly, to check its
 * figures and whether pinning the calling thread to one core (as the
 * engine does) changes them. CUDA runs host functions on a thread of its
 * own; if that thread inherits a one-core affinity it shares the core with
 * the caller spinning in cudaStreamSynchronize.
 *
 *   plain-host-func free|pin-before|pin-ctx|pin-after|pin-unpin [reps]
 *
 * free: no pinning; pin-before: the thread pinned to one core before the
 * context exists; pin-ctx: after the context, before the first host
 * function; pin-after: after a first host function; pin-unpin: pinned
 * before the context, its first affinity given back before measuring. Prints medians and ranges (µs) of: the latency from a 100 µs
 * kernel's end to the host function's start, a 1 ms host function alone
 * (call to stream drained), a kernel after it on the same and on another
 * stream, and the function's own length in the other-stream case. */
#include <sched.h>

#include "plain-common.cuh"

/* The host clock in µs (plain-common.cuh). */
#define now_us plain_now_us

struct Func {
  double busy_us, start_us, end_us;
  int cpus, cpu;
};

static void CUDART_CB
host_func (void *data)
{
  Func *f = (Func *) data;
  f->start_us = now_us ();
  cpu_set_t set;
  f->cpus = sched_getaffinity (0, sizeof set, &set) == 0 ? CPU_COUNT (&set) : -1;
  f->cpu = sched_getcpu ();
  double t = f->start_us;
  while (t - f->start_us < f->busy_us)
    t = now_us ();
  f->end_us = t;
}

static __device__ unsigned long long
gtimer (void)
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Spins us microseconds; stamps its end in slot[0]. */
static __global__ void
spin (double us, volatile unsigned long long *slot)
{
  unsigned long long t0 = gtimer ();
  while (gtimer () - t0 < (unsigned long long) (us * 1e3))
    ;
  if (slot)
    slot[0] = gtimer ();
}

static __global__ void
handshake (volatile unsigned long long *s)
{
  s[1] = 1;
  __threadfence_system ();
  while (s[2] == 0)
    ;
  s[3] = gtimer ();
}

static void
pin_one (void)
{
  cpu_set_t one;
  CPU_ZERO (&one);
  CPU_SET (sched_getcpu (), &one);
  sched_setaffinity (0, sizeof one, &one);
}

static void
report (const char *what, std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  size_t n = v.size ();
  double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  printf ("  %-34s median %9.1f  min %9.1f  max %9.1f  (n=%zu)\n", what, med, v[0], v[n - 1], n);
}

int
main (int argc, char **argv)
{
  const char *how = argc > 1 ? argv[1] : "free";
  int reps = argc > 2 ? atoi (argv[2]) : 20;
  cpu_set_t first;
  sched_getaffinity (0, sizeof first, &first);
  if (!strcmp (how, "pin-before") || !strcmp (how, "pin-unpin"))
    pin_one ();
  CHECK (cudaFree (0));
  if (!strcmp (how, "pin-ctx"))
    pin_one ();
  cudaStream_t a, b;
  CHECK (cudaStreamCreateWithFlags (&a, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&b, cudaStreamNonBlocking));
  unsigned long long *h, *d;
  CHECK (cudaHostAlloc ((void **) &h, 64, cudaHostAllocMapped));
  CHECK (cudaHostGetDevicePointer ((void **) &d, h, 0));
  Func f = { 0, 0, 0, 0, 0 };
  CHECK (cudaLaunchHostFunc (a, host_func, &f));
  CHECK (cudaStreamSynchronize (a));
  if (!strcmp (how, "pin-after"))
    pin_one ();
  if (!strcmp (how, "pin-unpin"))
    sched_setaffinity (0, sizeof first, &first);
  cpu_set_t mine;
  sched_getaffinity (0, sizeof mine, &mine);
  printf ("%s: caller on %d CPU(s), host-function thread on %d CPU(s)\n", how, CPU_COUNT (&mine),
          f.cpus);

  std::vector<double> lat, alone, same, other, other_len, same_len;
  int shared = 0;
  for (int r = 0; r < reps; r++) {
    /* Latency: the GPU clock placed on the host's by a handshake. */
    volatile unsigned long long *s = h;
    s[1] = s[2] = 0;
    handshake<<<1, 1, 0, a>>> (d);
    while (s[1] == 0)
      ;
    double host0 = now_us ();
    s[2] = 1;
    CHECK (cudaStreamSynchronize (a));
    unsigned long long gpu0 = s[3];
    f.busy_us = 0;
    spin<<<1, 1, 0, a>>> (100, d);
    CHECK (cudaLaunchHostFunc (a, host_func, &f));
    CHECK (cudaStreamSynchronize (a));
    double kernel_end = host0 + (double) (s[0] - gpu0) * 1e-3;
    lat.push_back (f.start_us - kernel_end);
    shared += f.cpu == sched_getcpu ();

    f.busy_us = 1000;
    double t0 = now_us ();
    CHECK (cudaLaunchHostFunc (a, host_func, &f));
    CHECK (cudaStreamSynchronize (a));
    alone.push_back (now_us () - t0);

    t0 = now_us ();
    CHECK (cudaLaunchHostFunc (a, host_func, &f));
    spin<<<1, 1, 0, a>>> (100, NULL);
    CHECK (cudaStreamSynchronize (a));
    same.push_back (now_us () - t0);
    CHECK (cudaDeviceSynchronize ());
    same_len.push_back (f.end_us - f.start_us);

    t0 = now_us ();
    CHECK (cudaLaunchHostFunc (a, host_func, &f));
    spin<<<1, 1, 0, b>>> (100, NULL);
    CHECK (cudaStreamSynchronize (b));
    other.push_back (now_us () - t0);
    CHECK (cudaDeviceSynchronize ());
    other_len.push_back (f.end_us - f.start_us);
  }
  report ("kernel end -> host function start", lat);
  report ("1 ms host function alone (e2e)", alone);
  report ("then a kernel, same stream (e2e)", same);
  report ("  the function's length there", same_len);
  report ("kernel on another stream (e2e)", other);
  report ("  the function's length there", other_len);
  printf ("  host function ran on the caller's core in %d of %d latency reps\n", shared, reps);
  return 0;
}
