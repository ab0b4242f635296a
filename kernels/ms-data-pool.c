/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-data-pool.c: a measuring thread's helpers for fill and verify.
 *
 * Started once and parked on a condition variable between calls, because
 * a compare-grade process fills and checks about 10^4 vectors of up to
 * 4 MiB: starting threads for each call cost as much as the threads
 * saved. Parked helpers sleep through the timed windows, so they take no
 * CPU from the measuring thread there. Each measuring thread (one per GPU
 * in engine/run/ms-multi.c) has its own pool; it ends with the thread.
 *
 * A helper's first touch places a fresh page, so helpers take the
 * caller's memory policy before each call where it changed (the NUMA
 * lesson binds the buffers to a node; cpu-fixed prefers one): a page lands
 * where the caller's own touch would have put it. */
#define _GNU_SOURCE
#include "ms-data-pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct MsDataPool MsDataPool;

/* Bits of a node mask: more nodes than any kernel is built for. */
#define MS_POLICY_NODES 1024

typedef struct {
  int mode; /* with its flags, as get_mempolicy gives them */
  unsigned long nodes[MS_POLICY_NODES / (8 * sizeof (unsigned long))];
} MsDataPolicy;

typedef struct {
  MsDataPool *pool;
  int index;                 /* the item it runs: 1 and up */
  unsigned long policy_seen; /* the pool's policy_generation it has taken */
} MsDataHelper;

struct MsDataPool {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  pthread_t threads[MS_DATA_POOL_MAX];
  MsDataHelper helpers[MS_DATA_POOL_MAX];
  int n_started; /* helpers 1 .. n_started */
  unsigned long generation;
  int n_items;
  int n_busy; /* helpers still running their item */
  void *(*fn) (void *);
  char *items;
  size_t item_size;
  bool quit;
  bool cannot_start; /* a helper failed to start: no more are tried */
  cpu_set_t cpus;
  bool have_cpus, cpus_changed;
  MsDataPolicy policy; /* the caller's, at its last call */
  unsigned long policy_generation;
};

/* The key whose destructor ends a thread's pool, made once under a mutex
 * rather than pthread_once: the sweeps of several GPUs start their pools
 * at once, and a race checker (helgrind) follows a mutex. */
static pthread_mutex_t pool_key_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t pool_key;
static bool pool_key_made;
static _Thread_local MsDataPool *thread_pool;

static void *
helper_main (void *data)
{
  MsDataHelper *h = data;
  MsDataPool *p = h->pool;
  unsigned long seen = 0;
  pthread_mutex_lock (&p->lock);
  for (;;) {
    while (!p->quit && p->generation == seen)
      pthread_cond_wait (&p->wake, &p->lock);
    if (p->quit)
      break;
    seen = p->generation;
    if (h->index >= p->n_items)
      continue;
    void *(*fn) (void *) = p->fn;
    void *item = p->items + (size_t) h->index * p->item_size;
    bool new_policy = h->policy_seen != p->policy_generation;
    MsDataPolicy policy = p->policy;
    h->policy_seen = p->policy_generation;
    pthread_mutex_unlock (&p->lock);
    if (new_policy)
      syscall (SYS_set_mempolicy, policy.mode, policy.nodes, (unsigned long) MS_POLICY_NODES);
    fn (item);
    pthread_mutex_lock (&p->lock);
    p->n_busy--;
  }
  pthread_mutex_unlock (&p->lock);
  return NULL;
}

/* At the measuring thread's end: its helpers stop and are joined. */
static void
pool_free (void *data)
{
  MsDataPool *p = data;
  pthread_mutex_lock (&p->lock);
  p->quit = true;
  pthread_cond_broadcast (&p->wake);
  pthread_mutex_unlock (&p->lock);
  for (int i = 1; i <= p->n_started; i++)
    pthread_join (p->threads[i], NULL);
  pthread_mutex_destroy (&p->lock);
  pthread_cond_destroy (&p->wake);
  free (p);
  /* A later destructor of this thread that fills starts afresh. */
  thread_pool = NULL;
}

/* Ties p to the calling thread's end; false where no key can be made. */
static bool
pool_set_key (MsDataPool *p)
{
  pthread_mutex_lock (&pool_key_lock);
  if (!pool_key_made)
    pool_key_made = pthread_key_create (&pool_key, pool_free) == 0;
  bool made = pool_key_made && pthread_setspecific (pool_key, p) == 0;
  pthread_mutex_unlock (&pool_key_lock);
  return made;
}

static MsDataPool *
pool_get (void)
{
  if (thread_pool)
    return thread_pool;
  MsDataPool *p = calloc (1, sizeof *p);
  if (!p)
    return NULL;
  /* Adaptive: the caller's polls and the helpers' updates meet briefly,
   * and a short spin beats a sleep on either side. */
  pthread_mutexattr_t attr;
  pthread_mutexattr_init (&attr);
  pthread_mutexattr_settype (&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
  pthread_mutex_init (&p->lock, &attr);
  pthread_mutexattr_destroy (&attr);
  pthread_cond_init (&p->wake, NULL);
  /* Without the key its helpers would outlive the thread: none then. */
  if (!pool_set_key (p)) {
    pthread_mutex_destroy (&p->lock);
    pthread_cond_destroy (&p->wake);
    free (p);
    return NULL;
  }
  thread_pool = p;
  return p;
}

/* The set the helpers run on: the one given, else the caller's own. */
static bool
pool_cpus (MsDataPool *p, cpu_set_t *set)
{
  if (p->have_cpus) {
    *set = p->cpus;
    return true;
  }
  return pthread_getaffinity_np (pthread_self (), sizeof *set, set) == 0;
}

/* The helpers started so far onto the pool's CPUs, where those changed. */
static void
pool_move (MsDataPool *p, const cpu_set_t *set)
{
  if (p->cpus_changed && set)
    for (int i = 1; i <= p->n_started; i++)
      pthread_setaffinity_np (p->threads[i], sizeof *set, set);
  p->cpus_changed = false;
}

/* One more helper, on set (NULL: the caller's CPUs). It blocks every
 * signal, so that a signal meant for the process reaches the thread that
 * blocks it around its work (memsweep run's renames), not a parked
 * helper; its stack holds two blocks of floats. */
static bool
pool_start_one (MsDataPool *p, const cpu_set_t *set)
{
  int i = p->n_started + 1;
  pthread_attr_t attr;
  sigset_t all, old;
  if (pthread_attr_init (&attr) != 0)
    return false;
  pthread_attr_setstacksize (&attr, 256 * 1024);
  if (set)
    pthread_attr_setaffinity_np (&attr, sizeof *set, set);
  /* Its first call takes the policy, whatever generation it is. */
  p->helpers[i] = (MsDataHelper) { p, i, p->policy_generation - 1 };
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  int rc = pthread_create (&p->threads[i], &attr, helper_main, &p->helpers[i]);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_attr_destroy (&attr);
  if (rc == 0)
    p->n_started = i;
  return rc == 0;
}

/* Helpers up to n - 1, on the pool's CPUs. One that cannot start is not
 * tried again: the caller does its share, now and later, rather than
 * retry before every timed window. */
static void
pool_grow (MsDataPool *p, int n)
{
  cpu_set_t set;
  /* The usual call, before a timed window: nothing to do. */
  if (!p->cpus_changed && (p->cannot_start || p->n_started >= n - 1))
    return;
  bool have_set = pool_cpus (p, &set);
  pool_move (p, have_set ? &set : NULL);
  while (!p->cannot_start && p->n_started < n - 1)
    p->cannot_start = !pool_start_one (p, have_set ? &set : NULL);
}

static inline void
pool_relax (void)
{
#if defined(__x86_64__)
  __builtin_ia32_pause ();
#endif
}

/* Read under the lock, which also orders the helpers' stores before the
 * caller's next reads (and lets a race checker see that it does). */
static bool
pool_busy (MsDataPool *p)
{
  pthread_mutex_lock (&p->lock);
  bool busy = p->n_busy > 0;
  pthread_mutex_unlock (&p->lock);
  return busy;
}

/* The caller's memory policy into the pool, a new generation when it
 * changed; a policy that cannot be read is taken as the default. */
static void
pool_take_policy (MsDataPool *p)
{
  MsDataPolicy now;
  memset (&now, 0, sizeof now);
  if (syscall (SYS_get_mempolicy, &now.mode, now.nodes, (unsigned long) MS_POLICY_NODES, NULL,
               0UL) != 0)
    memset (&now, 0, sizeof now);
  if (now.mode != p->policy.mode || memcmp (now.nodes, p->policy.nodes, sizeof now.nodes) != 0) {
    p->policy = now;
    p->policy_generation++;
  }
}

void
ms_data_pool_run (void *(*fn) (void *), void *items, size_t item_size, int n)
{
  MsDataPool *p = n > 1 ? pool_get () : NULL;
  int helped = 0;
  if (p) {
    pool_grow (p, n);
    helped = p->n_started < n - 1 ? p->n_started : n - 1;
    pthread_mutex_lock (&p->lock);
    pool_take_policy (p);
    p->fn = fn;
    p->items = items;
    p->item_size = item_size;
    p->n_items = helped + 1;
    p->n_busy = helped;
    p->generation++;
    pthread_cond_broadcast (&p->wake);
    pthread_mutex_unlock (&p->lock);
  }
  fn (items);
  /* Items no helper took, here. */
  for (int i = helped + 1; i < n; i++)
    fn ((char *) items + (size_t) i * item_size);
  /* The caller spins rather than sleeps, so that its next timed window
   * does not start on a core just woken from idle: while it slept, cells
   * of 2^16 elements read 2-10% slower on a lent H100. */
  while (helped > 0 && pool_busy (p))
    for (int i = 0; i < 64; i++)
      pool_relax ();
}

int
ms_data_pool_width (void)
{
  cpu_set_t set;
  MsDataPool *p = thread_pool;
  int width;
  if (p && p->have_cpus)
    width = CPU_COUNT (&p->cpus) + 1;
  else if (pthread_getaffinity_np (pthread_self (), sizeof set, &set) == 0)
    width = CPU_COUNT (&set);
  else
    width = 1;
  return width < MS_DATA_POOL_MAX ? width : MS_DATA_POOL_MAX;
}

void
ms_data_pool_set_cpus (const void *cpu_set, size_t size)
{
  MsDataPool *p = cpu_set || thread_pool ? pool_get () : NULL;
  if (!p)
    return;
  p->have_cpus =
    cpu_set && size >= sizeof p->cpus && CPU_COUNT ((const cpu_set_t *) cpu_set) > 0;
  if (p->have_cpus)
    memcpy (&p->cpus, cpu_set, sizeof p->cpus);
  p->cpus_changed = true;
}
