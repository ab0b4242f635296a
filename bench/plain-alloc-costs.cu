/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plain-alloc-costs.cu: the allocation costs of three lessons done
 * plainly, to check their figures with the fewest CUDA calls that do the
 * same work, the host clock around each call and nothing else.
 *
 *   plain-alloc-costs register EXP REPS
 *   plain-alloc-costs pin-payoff MIN_EXP MAX_EXP REPS
 *   plain-alloc-costs device-pool MIN_EXP MAX_EXP REPS
 *   plain-alloc-costs implicit-sync KERNEL_US KIB REPS
 *
 * register: the register-allocate lesson at 2^EXP floats per vector: three
 * malloc'd buffers registered, c = a + b with its copies, unregistered, in
 * every repetition; three cudaMallocHost buffers allocated once, the same
 * work in every repetition. Prints every cost and the crossing.
 * pin-payoff: per size (64 KiB steps of 4x) and kind, getting a buffer,
 * releasing it and one host-to-device copy from it: fresh pageable pages
 * (mmap, first touch, munmap), a reused heap (malloc, a write to every
 * page, free, after the same once), cudaMallocHost, and a host memory pool
 * (a new one's first allocation, and one that kept the size).
 * device-pool: per size, cudaMalloc and cudaFree against cudaMallocAsync
 * and cudaFreeAsync from the device's default pool with its release
 * threshold at 0 and at "keep everything": the first allocation and the
 * steady state.
 * device-pool-steps MIN_EXP MAX_EXP REPS [RESETS]: the same pool figures
 * three ways, to find what memsweep's per-sample steps add: "kept" (one
 * stream for all samples, as device-pool), "stream" (a new non-blocking
 * stream per sample, destroyed after it) and "like" (memsweep's sample:
 * the pool support and free memory asked, the threshold set, the pool
 * trimmed, a new stream, one untimed allocation and free unless first,
 * the timed pair, the pool's attributes read, the stream destroyed, the
 * threshold reset to 0 and the pool trimmed again). RESETS (0): first
 * that many cudaDeviceReset and new contexts, as the costs lesson's
 * context cells leave the process before its pool cells.
 * implicit-sync: two kernels of KERNEL_US on two streams (blocking, then
 * non-blocking), nothing, cudaMalloc, cudaFree, cudaMallocAsync or
 * cudaFreeAsync (on a third stream) of KIB KiB between their launches, the
 * host clock from the first launch to a cudaDeviceSynchronize; and one
 * kernel alone. CUDA_DEVICE_MAX_CONNECTIONS, as the caller sets it, names
 * the queues (q=1 or q=def), as the lesson's variants do.
 * Medians in µs, one line per figure. */
#include <sys/mman.h>
#include <unistd.h>

#include "plain-common.cuh"

/* The host clock in µs (plain-common.cuh). */
#define now_us plain_now_us

static double
median (std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  size_t n = v.size ();
  return n == 0 ? -1 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
touch (char *b, size_t bytes)
{
  long page = sysconf (_SC_PAGESIZE);
  for (size_t i = 0; i < bytes; i += (size_t) (page > 0 ? page : 4096))
    b[i] = 1;
}

__global__ void
add (const float *a, const float *b, float *c, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}

/* c = a + b with its copies, one synchronisation: a repetition's work. */
static double
work (float **h, float **d, size_t n)
{
  size_t bytes = n * sizeof (float);
  double t0 = now_us ();
  CHECK (cudaMemcpyAsync (d[0], h[0], bytes, cudaMemcpyHostToDevice, 0));
  CHECK (cudaMemcpyAsync (d[1], h[1], bytes, cudaMemcpyHostToDevice, 0));
  add<<<1024, 256>>> (d[0], d[1], d[2], n);
  CHECK (cudaMemcpyAsync (h[2], d[2], bytes, cudaMemcpyDeviceToHost, 0));
  CHECK (cudaStreamSynchronize (0));
  return now_us () - t0;
}

static void
init (float **h, size_t n)
{
  for (int i = 0; i < 2; i++)
    for (size_t j = 0; j < n; j++)
      h[i][j] = (float) (j % 97);
  memset (h[2], 0, n * sizeof (float));
}

static void
run_register (int exp, int reps)
{
  size_t n = (size_t) 1 << exp, bytes = n * sizeof (float);
  float *h[3], *d[3];
  std::vector<double> reg, unreg, reg_e2e, pin_e2e, reg_alloc, reg_free, pin_alloc, pin_free;
  for (int cell = 0; cell < 3; cell++) {
    /* Registered: allocated once a cell, registered in every repetition. */
    double t0 = now_us ();
    for (int i = 0; i < 3; i++) {
      h[i] = (float *) malloc (bytes);
      CHECK (cudaMalloc (&d[i], bytes));
    }
    reg_alloc.push_back (now_us () - t0);
    for (int r = 0; r < reps; r++) {
      init (h, n);
      t0 = now_us ();
      for (int i = 0; i < 3; i++)
        CHECK (cudaHostRegister (h[i], bytes, cudaHostRegisterDefault));
      reg.push_back (now_us () - t0);
      reg_e2e.push_back (work (h, d, n));
      t0 = now_us ();
      for (int i = 0; i < 3; i++)
        CHECK (cudaHostUnregister (h[i]));
      unreg.push_back (now_us () - t0);
    }
    t0 = now_us ();
    for (int i = 0; i < 3; i++) {
      free (h[i]);
      CHECK (cudaFree (d[i]));
    }
    reg_free.push_back (now_us () - t0);
    /* Pinned: allocated once a cell. */
    t0 = now_us ();
    for (int i = 0; i < 3; i++) {
      CHECK (cudaMallocHost ((void **) &h[i], bytes));
      CHECK (cudaMalloc (&d[i], bytes));
    }
    pin_alloc.push_back (now_us () - t0);
    for (int r = 0; r < reps; r++) {
      init (h, n);
      pin_e2e.push_back (work (h, d, n));
    }
    t0 = now_us ();
    for (int i = 0; i < 3; i++) {
      CHECK (cudaFreeHost (h[i]));
      CHECK (cudaFree (d[i]));
    }
    pin_free.push_back (now_us () - t0);
  }
  double k[8] = { median (reg), median (unreg), median (reg_e2e), median (reg_alloc),
                  median (reg_free), median (pin_alloc), median (pin_free), median (pin_e2e) };
  static const char *names[8] = { "register", "unregister", "registered-e2e", "registered-alloc",
                                  "registered-free", "pinned-alloc", "pinned-free", "pinned-e2e" };
  for (int i = 0; i < 8; i++)
    printf ("register bytes=%zu %s %.3f\n", bytes, names[i], k[i]);
  /* The lesson's crossing (engine/lessons/ms-lesson-register.c). */
  double per_rep = k[0] + k[1] + k[2] - k[7], once = k[5] + k[6] - k[3] - k[4];
  if (per_rep > 0)
    printf ("register bytes=%zu crossing %d\n", bytes, (int) (std::max (0.0, once / per_rep)) + 1);
}

enum { FRESH, REUSED, PINNED, POOL_FIRST, POOL_KEPT, N_KINDS };
static const char *kind_names[N_KINDS] = { "pageable", "pageable-reused", "pinned", "pool-first",
                                           "pool-kept" };

static cudaMemPool_t
host_pool (unsigned long long threshold)
{
  cudaMemPoolProps props;
  memset (&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeHost;
  cudaMemPool_t pool;
  CHECK (cudaMemPoolCreate (&pool, &props));
  cudaMemAccessDesc access;
  memset (&access, 0, sizeof access);
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK (cudaMemPoolSetAccess (pool, &access, 1));
  CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  return pool;
}

/* One sample of one kind: getting, releasing and one copy, each timed. */
static void
sample (int kind, size_t bytes, void *dev, cudaStream_t s, double out[3])
{
  char *b = NULL;
  cudaMemPool_t pool = NULL;
  double t0;
  if (kind == REUSED) { /* the heap has served the size once */
    char *w = (char *) malloc (bytes);
    touch (w, bytes);
    free (w);
  }
  if (kind == POOL_FIRST || kind == POOL_KEPT) {
    pool = host_pool (kind == POOL_KEPT ? ~0ull : 0);
    if (kind == POOL_KEPT) {
      CHECK (cudaMallocFromPoolAsync ((void **) &b, bytes, pool, s));
      CHECK (cudaFreeAsync (b, s));
      CHECK (cudaStreamSynchronize (s));
    }
  }
  t0 = now_us ();
  if (kind == FRESH) {
    b = (char *) mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    touch (b, bytes);
  } else if (kind == REUSED) {
    b = (char *) malloc (bytes);
    touch (b, bytes);
  } else if (kind == PINNED) {
    CHECK (cudaMallocHost ((void **) &b, bytes));
  } else {
    CHECK (cudaMallocFromPoolAsync ((void **) &b, bytes, pool, s));
    CHECK (cudaStreamSynchronize (s));
  }
  out[0] = now_us () - t0;
  CHECK (cudaDeviceSynchronize ());
  t0 = now_us ();
  CHECK (cudaMemcpy (dev, b, bytes, cudaMemcpyHostToDevice));
  CHECK (cudaDeviceSynchronize ());
  out[2] = now_us () - t0;
  t0 = now_us ();
  if (kind == FRESH)
    munmap (b, bytes);
  else if (kind == REUSED)
    free (b);
  else if (kind == PINNED)
    CHECK (cudaFreeHost (b));
  else {
    CHECK (cudaFreeAsync (b, s));
    CHECK (cudaStreamSynchronize (s));
  }
  out[1] = now_us () - t0;
  if (pool)
    CHECK (cudaMemPoolDestroy (pool));
}

static void
run_pin_payoff (int min_exp, int max_exp, int reps)
{
  int pools = 0;
  CHECK (cudaDeviceGetAttribute (&pools, cudaDevAttrHostMemoryPoolsSupported, 0));
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  for (int e = min_exp; e <= max_exp; e += 2) {
    size_t bytes = ((size_t) 1 << e) * sizeof (float);
    void *dev;
    CHECK (cudaMalloc (&dev, bytes));
    for (int k = 0; k < N_KINDS; k++) {
      if ((k == POOL_FIRST || k == POOL_KEPT) && !pools) {
        printf ("pin-payoff bytes=%zu %s unsupported\n", bytes, kind_names[k]);
        continue;
      }
      std::vector<double> v[3];
      for (int r = 0; r < reps; r++) {
        double t[3];
        sample (k, bytes, dev, s, t);
        for (int i = 0; i < 3; i++)
          v[i].push_back (t[i]);
      }
      printf ("pin-payoff bytes=%zu %s setup %.3f\n", bytes, kind_names[k], median (v[0]));
      printf ("pin-payoff bytes=%zu %s release %.3f\n", bytes, kind_names[k], median (v[1]));
      printf ("pin-payoff bytes=%zu %s copy %.3f\n", bytes, kind_names[k], median (v[2]));
    }
    CHECK (cudaFree (dev));
  }
  CHECK (cudaStreamDestroy (s));
}

/* cudaMalloc/cudaFree, then the default pool at a release threshold:
 * first allocation (after a trim to nothing) and the steady state. */
static void
run_device_pool (int min_exp, int max_exp, int reps)
{
  cudaMemPool_t pool;
  CHECK (cudaDeviceGetDefaultMemPool (&pool, 0));
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  for (int e = min_exp; e <= max_exp; e += 2) {
    size_t bytes = ((size_t) 1 << e) * sizeof (float);
    std::vector<double> a, f;
    void *p;
    for (int r = 0; r < reps; r++) {
      double t0 = now_us ();
      CHECK (cudaMalloc (&p, bytes));
      a.push_back (now_us () - t0);
      t0 = now_us ();
      CHECK (cudaFree (p));
      f.push_back (now_us () - t0);
    }
    printf ("device-pool bytes=%zu malloc alloc %.3f\n", bytes, median (a));
    printf ("device-pool bytes=%zu malloc free %.3f\n", bytes, median (f));
    for (int keep = 0; keep < 2; keep++) {
      unsigned long long threshold = keep ? ~0ull : 0;
      CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold));
      std::vector<double> first, steady, fr;
      for (int r = 0; r < reps; r++) {
        CHECK (cudaMemPoolTrimTo (pool, 0));
        double t0 = now_us ();
        CHECK (cudaMallocAsync (&p, bytes, s));
        CHECK (cudaStreamSynchronize (s));
        first.push_back (now_us () - t0);
        CHECK (cudaFreeAsync (p, s));
        CHECK (cudaStreamSynchronize (s));
        t0 = now_us ();
        CHECK (cudaMallocAsync (&p, bytes, s));
        CHECK (cudaStreamSynchronize (s));
        steady.push_back (now_us () - t0);
        t0 = now_us ();
        CHECK (cudaFreeAsync (p, s));
        CHECK (cudaStreamSynchronize (s));
        fr.push_back (now_us () - t0);
      }
      const char *name = keep ? "pool-keep" : "pool-0";
      printf ("device-pool bytes=%zu %s first %.3f\n", bytes, name, median (first));
      printf ("device-pool bytes=%zu %s alloc %.3f\n", bytes, name, median (steady));
      printf ("device-pool bytes=%zu %s free %.3f\n", bytes, name, median (fr));
    }
    unsigned long long zero = 0;
    CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &zero));
    CHECK (cudaMemPoolTrimTo (pool, 0));
  }
  CHECK (cudaStreamDestroy (s));
}

/* One sample of a pool allocation and free, the way variant says
 * (device-pool-steps above); first: timed right after a trim. */
static void
pool_sample (cudaMemPool_t pool, cudaStream_t kept, const char *variant, bool keep, bool first,
             size_t bytes, double out[2])
{
  bool like = strcmp (variant, "like") == 0, fresh = like || strcmp (variant, "stream") == 0;
  unsigned long long threshold = keep ? ~0ull : 0, zero = 0, attr[2];
  cudaStream_t s = kept;
  void *p;
  if (like) {
    int pools = 0;
    size_t free_b = 0, total_b = 0;
    CHECK (cudaDeviceGetAttribute (&pools, cudaDevAttrMemoryPoolsSupported, 0));
    CHECK (cudaMemGetInfo (&free_b, &total_b));
    CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK (cudaMemPoolTrimTo (pool, 0));
  }
  if (fresh)
    CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  if (!like && first)
    CHECK (cudaMemPoolTrimTo (pool, 0));
  if (!first) {
    CHECK (cudaMallocAsync (&p, bytes, s));
    CHECK (cudaFreeAsync (p, s));
    CHECK (cudaStreamSynchronize (s));
  }
  double t0 = now_us ();
  CHECK (cudaMallocAsync (&p, bytes, s));
  CHECK (cudaStreamSynchronize (s));
  out[0] = now_us () - t0;
  t0 = now_us ();
  CHECK (cudaFreeAsync (p, s));
  CHECK (cudaStreamSynchronize (s));
  out[1] = now_us () - t0;
  if (like) {
    CHECK (cudaMemPoolGetAttribute (pool, cudaMemPoolAttrReservedMemCurrent, &attr[0]));
    CHECK (cudaMemPoolGetAttribute (pool, cudaMemPoolAttrUsedMemCurrent, &attr[1]));
  }
  if (fresh)
    CHECK (cudaStreamDestroy (s));
  if (like) {
    CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &zero));
    CHECK (cudaMemPoolTrimTo (pool, 0));
  }
}

/* device-pool-steps: the variants side by side, sample by sample in
 * turn, so that drift falls on all alike. */
static void
run_device_pool_steps (int min_exp, int max_exp, int reps, int resets)
{
  static const char *const variants[] = { "kept", "stream", "like" };
  for (int i = 0; i < resets; i++) {
    CHECK (cudaDeviceReset ());
    CHECK (cudaFree (0));
  }
  cudaMemPool_t pool;
  CHECK (cudaDeviceGetDefaultMemPool (&pool, 0));
  cudaStream_t kept;
  CHECK (cudaStreamCreateWithFlags (&kept, cudaStreamNonBlocking));
  for (int e = min_exp; e <= max_exp; e += 2) {
    size_t bytes = ((size_t) 1 << e) * sizeof (float);
    for (int keep = 0; keep < 2; keep++) {
      unsigned long long threshold = keep ? ~0ull : 0;
      std::vector<double> t[3][3]; /* variant; first, alloc, free */
      for (int r = 0; r < reps; r++)
        for (int v = 0; v < 3; v++) {
          double first[2], steady[2];
          CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold));
          pool_sample (pool, kept, variants[v], keep, true, bytes, first);
          CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &threshold));
          pool_sample (pool, kept, variants[v], keep, false, bytes, steady);
          t[v][0].push_back (first[0]);
          t[v][1].push_back (steady[0]);
          t[v][2].push_back (steady[1]);
        }
      const char *name = keep ? "pool-keep" : "pool-0";
      for (int v = 0; v < 3; v++)
        printf ("device-pool-steps bytes=%zu variant=%s%s %s first %.3f alloc %.3f free %.3f\n",
                bytes, variants[v], resets ? "+resets" : "", name, median (t[v][0]),
                median (t[v][1]), median (t[v][2]));
    }
    unsigned long long zero = 0;
    CHECK (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &zero));
    CHECK (cudaMemPoolTrimTo (pool, 0));
  }
  CHECK (cudaStreamDestroy (kept));
}

/* Spins for us microseconds on the GPU's global timer. */
__global__ void
spin (double us)
{
  unsigned long long t0, t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do
    asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  while ((double) (t - t0) < us * 1e3);
}

static void
run_implicit_sync (double kernel_us, size_t kib, int reps)
{
  static const char *const ops[] = { "alone", "none", "malloc", "free", "mallocasync",
                                     "freeasync" };
  const char *conn = getenv ("CUDA_DEVICE_MAX_CONNECTIONS");
  const char *q = conn && strcmp (conn, "1") == 0 ? "1" : "def";
  size_t bytes = kib * 1024;
  for (int nb = 0; nb < 2; nb++)
    for (int op = 0; op < 6; op++) {
      if (op == 0 && nb)
        continue;
      std::vector<double> t;
      for (int r = 0; r < reps + 1; r++) {
        cudaStream_t st[3];
        for (int i = 0; i < 3; i++)
          CHECK (cudaStreamCreateWithFlags (&st[i], nb ? cudaStreamNonBlocking : cudaStreamDefault));
        void *old = NULL, *fresh = NULL;
        if (op == 3)
          CHECK (cudaMalloc (&old, bytes));
        if (op == 5)
          CHECK (cudaMallocAsync (&old, bytes, st[2]));
        CHECK (cudaDeviceSynchronize ());
        double t0 = now_us ();
        spin<<<1, 64, 0, st[0]>>> (kernel_us);
        if (op == 2)
          CHECK (cudaMalloc (&fresh, bytes));
        else if (op == 3)
          CHECK (cudaFree (old));
        else if (op == 4)
          CHECK (cudaMallocAsync (&fresh, bytes, st[2]));
        else if (op == 5)
          CHECK (cudaFreeAsync (old, st[2]));
        if (op != 0)
          spin<<<1, 64, 0, st[1]>>> (kernel_us);
        CHECK (cudaDeviceSynchronize ());
        if (r > 0) /* the first is a warm-up */
          t.push_back (now_us () - t0);
        if (fresh)
          CHECK (cudaFree (fresh));
        for (int i = 0; i < 3; i++)
          CHECK (cudaStreamDestroy (st[i]));
      }
      printf ("implicit-sync bytes=0 op=%s/s=%s/q=%s %.3f\n", ops[op], nb ? "nonblock" : "block",
              q, median (t));
    }
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "register") == 0)
    run_register (atoi (argv[2]), atoi (argv[3]));
  else if (argc == 5 && strcmp (argv[1], "pin-payoff") == 0)
    run_pin_payoff (atoi (argv[2]), atoi (argv[3]), atoi (argv[4]));
  else if (argc == 5 && strcmp (argv[1], "device-pool") == 0)
    run_device_pool (atoi (argv[2]), atoi (argv[3]), atoi (argv[4]));
  else if ((argc == 5 || argc == 6) && strcmp (argv[1], "device-pool-steps") == 0)
    run_device_pool_steps (atoi (argv[2]), atoi (argv[3]), atoi (argv[4]),
                           argc == 6 ? atoi (argv[5]) : 0);
  else if (argc == 5 && strcmp (argv[1], "implicit-sync") == 0)
    run_implicit_sync (atof (argv[2]), (size_t) atoi (argv[3]), atoi (argv[4]));
  else {
    fprintf (stderr,
             "usage: %s register EXP REPS | pin-payoff|device-pool MIN MAX REPS | "
             "device-pool-steps MIN MAX REPS [RESETS] | "
             "implicit-sync KERNEL_US KIB REPS\n",
             argv[0]);
    return 2;
  }
  return 0;
}
