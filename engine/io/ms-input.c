/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-input.c: every file read as a stream of its plain bytes
 * (ms-input.h).
 *
 * A plain regular file is read with read and pread, bounded by its size
 * when opened. A stream (gzip data, standard input) is produced into a
 * ring of MS_INPUT_WINDOW bytes: reads take from the ring, and the few
 * readers that look a little ahead (the samples reader's scan for a NUL
 * byte) or a little back (the line of that byte) find their bytes there.
 * Standard input is kept on a tape (held bytes, then more from fd 0), so
 * that opening "-" again reads it from its start. */
#define _GNU_SOURCE
#include "ms-input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "ms-atomic-file.h"
#include "ms-i18n.h"

#define RAW_CHUNK (128u << 10)
/* The most a stream produces past what a read asked for. */
#define PRODUCE_STEP (64u << 10)

struct MsInput {
  char path[4096];
  char error[4096 + 512];
  int fd;          /* the file's own descriptor; -1 for standard input */
  bool gz, stream;
  uint64_t raw_limit, raw_read; /* the file's bytes: its size when opened, and read */
  uint64_t size;
  uint64_t pos;                 /* plain bytes read */
  /* A stream's ring: the plain bytes [produced - window, produced). */
  unsigned char *ring;
  uint64_t produced;
  bool eof, failed;
  /* gzip */
  z_stream z;
  bool z_live, member_done, raw_eof;
  const char *gz_error; /* the damage met, said once the bytes before it are taken */
  char gz_why[160];     /* gz_error, where it names a place */
  bool gz_end; /* the last member ended: the inflater's own end, apart
                * from eof, which the reader sets when it takes it */
  unsigned char *zin;
  struct MsInflater *inflater; /* a large file's inflating thread, or NULL */
  unsigned char *head; /* a regular file's first raw bytes (hold_head) */
  size_t head_len;
  unsigned char tail[4]; /* its last, past the head: a gzip file's plain size */
  bool has_tail;
  MsInputTap tap;
  void *tap_data;
  uint64_t tapped; /* the plain bytes the tap has seen */
};

/* ---- what was read of files ------------------------------------------- */

/* What was read of a file, kept while it does not change: found by the
 * file's identity (a kept input's fstat, ms_input_look), not its name. */
typedef struct {
  struct stat st;
  long long tag;
  void *data;
  size_t size;
} Known;

#define N_KNOWN 16
static Known known[N_KNOWN];
static unsigned next_known;
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static bool
same_file (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* What was kept under tag for the file st describes (an open file's own
 * fstat: no second look at the path). */
static void *
recall_known (long long tag, const struct stat *st)
{
  void *copy = NULL;
  if (!S_ISREG (st->st_mode))
    return NULL;
  pthread_mutex_lock (&known_lock);
  for (int i = 0; i < N_KNOWN && !copy; i++) {
    const Known *k = &known[i];
    if (k->data && k->tag == tag && same_file (&k->st, st) &&
        (copy = malloc (k->size ? k->size : 1)))
      memcpy (copy, k->data, k->size);
  }
  pthread_mutex_unlock (&known_lock);
  return copy;
}

bool
ms_input_look (const char *path, struct stat *st)
{
  return ms_atomic_file_kept_stat (path, st) || stat (path, st) == 0;
}

void *
ms_file_recall (const char *path, long long tag, struct stat *st)
{
  if (!ms_input_look (path, st))
    memset (st, 0, sizeof *st);
  return recall_known (tag, st);
}

/* A file changed in the last few clock ticks could be replaced, in the same
 * tick, by one of the same inode, size and times (a freed inode is given
 * again at once), which same_file would take for it. File times come from a
 * clock that moves once a tick (10 ms at the coarsest), so a file whose
 * times are older than RACY_NS is told from any later one. */
#define RACY_NS 50000000LL

static bool
racy (const struct stat *st)
{
  struct timespec now;
  clock_gettime (CLOCK_REALTIME, &now);
  long long ns = now.tv_sec * 1000000000LL + now.tv_nsec;
  long long m = st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
  long long c = st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec;
  return ns - (m > c ? m : c) < RACY_NS;
}

void
ms_file_remember (long long tag, const struct stat *st, const void *data, size_t size)
{
  if (!S_ISREG (st->st_mode) || racy (st))
    return;
  pthread_mutex_lock (&known_lock);
  Known *k = &known[next_known++ % N_KNOWN];
  free (k->data);
  *k = (Known) { *st, tag, malloc (size ? size : 1), size };
  if (k->data)
    memcpy (k->data, data, size);
  pthread_mutex_unlock (&known_lock);
}

/* A regular file's first RAW_CHUNK bytes and its last 4 (a gzip file's
 * plain size), kept (ms_file_remember): a command looks at a file's head
 * (its kind, its metadata, its sidecar's check) before and while it reads
 * it, and no look reads the disk again. False on a read error. */
static bool
hold_head (MsInput *in, const struct stat *st)
{
  uint64_t size = (uint64_t) st->st_size;
  size_t want = size < RAW_CHUNK ? (size_t) size : RAW_CHUNK;
  in->head = recall_known (MS_FILE_KNOWN_RAW_HEAD, st);
  if (in->head) {
    in->head_len = want;
    in->has_tail = size >= RAW_CHUNK + sizeof in->tail && in->head[0] == 0x1f && in->head[1] == 0x8b;
    memcpy (in->tail, in->head + want, in->has_tail ? sizeof in->tail : 0);
    return true;
  }
  free (in->head);
  if (!(in->head = malloc (want + sizeof in->tail)))
    return false;
  while (in->head_len < want) {
    ssize_t got = pread (in->fd, in->head + in->head_len, want - in->head_len,
                         (off_t) in->head_len);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return false;
    if (got == 0)
      return true; /* cut since it was opened: the reads end there */
    in->head_len += (size_t) got;
  }
  bool gz = size >= RAW_CHUNK + sizeof in->tail && in->head[0] == 0x1f && in->head[1] == 0x8b;
  in->has_tail = gz && pread (in->fd, in->tail, sizeof in->tail, st->st_size - 4) == 4;
  if (gz && !in->has_tail)
    return true; /* read from the disk as it comes */
  memcpy (in->head + want, in->tail, sizeof in->tail);
  ms_file_remember (MS_FILE_KNOWN_RAW_HEAD, st, in->head, want + sizeof in->tail);
  return true;
}

/* Up to n raw bytes of a regular file at offset: the held head's and
 * tail's, the rest the disk's. */
static ssize_t
file_pread (MsInput *in, unsigned char *buf, size_t n, uint64_t offset)
{
  uint64_t tail_at = in->has_tail ? in->raw_limit - sizeof in->tail : UINT64_MAX;
  size_t done = 0;
  while (done < n) {
    uint64_t at = offset + done;
    size_t k = n - done;
    ssize_t got;
    if (at < in->head_len || at >= tail_at) {
      const unsigned char *held = at < in->head_len ? in->head + at : in->tail + (at - tail_at);
      uint64_t end = at < in->head_len ? in->head_len : in->raw_limit;
      k = end - at < k ? (size_t) (end - at) : k;
      if (k == 0)
        break;
      memcpy (buf + done, held, k);
    } else if ((got = pread (in->fd, buf + done, tail_at - at < k ? (size_t) (tail_at - at) : k,
                             (off_t) at)) > 0) {
      k = (size_t) got;
    } else if (got < 0 && errno == EINTR) {
      k = 0;
    } else {
      return got < 0 && done == 0 ? -1 : (ssize_t) done;
    }
    done += k;
  }
  return (ssize_t) done;
}

/* Hands the tap the plain bytes [at, at + n) just read, past those it
 * saw. A read past them (a gap) ends it: it never sees bytes out of
 * order. */
static void
tap_bytes (MsInput *in, const unsigned char *buf, uint64_t at, size_t n)
{
  if (!in->tap || at + n <= in->tapped)
    return;
  if (at > in->tapped) {
    in->tap = NULL;
    return;
  }
  in->tap (in->tap_data, buf + (in->tapped - at), (size_t) (at + n - in->tapped));
  in->tapped = at + n;
}

/* ---- standard input's tape ---------------------------------------------- */

static struct {
  pthread_mutex_t lock;
  unsigned char *mem;
  size_t mem_len, mem_cap;
  int spill; /* the bytes past mem_len, in an unlinked file in TMPDIR */
  uint64_t total;
  bool eof;
} tape = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, -1, 0, false };

static void (*notice_fn) (const char *sentence);
static atomic_bool holding_failed;

void
ms_input_set_notice (void (*notice) (const char *sentence))
{
  notice_fn = notice;
}

static bool (*stopped_fn) (void);

void
ms_input_set_stop (bool (*stopped) (void))
{
  stopped_fn = stopped;
}

/* Standard input has bytes, or its end, to read. A stop signal's handler
 * restarts a read (SA_RESTART), so a writer that stalls would hold a
 * command past its stops: with a stop test set, the wait looks at it
 * every 100 ms. False (ECANCELED) once stopped. */
static bool
stdin_ready (void)
{
  struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
  while (stopped_fn) {
    if (stopped_fn ()) {
      errno = ECANCELED;
      return false;
    }
    int r = poll (&p, 1, 100);
    if (r > 0 || (r < 0 && errno != EINTR))
      break;
  }
  return true;
}

bool
ms_input_holding_failed (void)
{
  return atomic_load (&holding_failed);
}

static const char *
temporary_folder (void)
{
  const char *dir = getenv ("TMPDIR");
  return dir && dir[0] ? dir : "/tmp";
}

/* An unlinked file in TMPDIR, open for reading and writing. */
static int
spill_file (void)
{
  const char *dir = temporary_folder ();
  int fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
    return fd;
  char name[4096];
  if (snprintf (name, sizeof name, "%s/memsweep-stdin-XXXXXX", dir) >= (int) sizeof name) {
    errno = ENAMETOOLONG;
    return -1;
  }
  fd = mkostemp (name, O_CLOEXEC);
  if (fd >= 0)
    unlink (name);
  return fd;
}

static bool
pwrite_all (int fd, const unsigned char *p, size_t n, off_t at)
{
  while (n > 0) {
    ssize_t w = pwrite (fd, p, n, at);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0)
        errno = ENOSPC;
      return false;
    }
    p += w;
    n -= (size_t) w;
    at += w;
  }
  return true;
}

/* Keeps n bytes just read from standard input; false with errno. */
static bool
tape_hold (const unsigned char *p, size_t n)
{
  if (tape.spill < 0 && tape.mem_len + n <= MS_INPUT_HELD_MEMORY) {
    if (tape.mem_len + n > tape.mem_cap) {
      size_t cap = tape.mem_cap ? tape.mem_cap : RAW_CHUNK;
      while (cap < tape.mem_len + n)
        cap *= 2;
      unsigned char *mem = realloc (tape.mem, cap);
      if (!mem)
        return false;
      tape.mem = mem;
      tape.mem_cap = cap;
    }
    memcpy (tape.mem + tape.mem_len, p, n);
    tape.mem_len += n;
    return true;
  }
  if (tape.spill < 0) {
    if ((tape.spill = spill_file ()) < 0)
      return false;
    char sentence[4096 + 256];
    snprintf (sentence, sizeof sentence,
              ms_gettext ("standard input is held in TMPDIR (%s) beyond its first %u MiB, to be "
                          "read again: it needs as much room there as its size beyond that"),
              temporary_folder (), MS_INPUT_HELD_MEMORY >> 20);
    if (notice_fn)
      notice_fn (sentence);
  }
  return pwrite_all (tape.spill, p, n, (off_t) (tape.total - tape.mem_len));
}

/* Copies held bytes [at, at + n) out; false with errno. */
static bool
tape_copy (uint64_t at, unsigned char *buf, size_t n)
{
  size_t from_mem = at < tape.mem_len ? tape.mem_len - (size_t) at : 0;
  if (from_mem > n)
    from_mem = n;
  if (from_mem)
    memcpy (buf, tape.mem + at, from_mem);
  for (size_t done = from_mem; done < n;) {
    ssize_t r = pread (tape.spill, buf + done, n - done, (off_t) (at + done - tape.mem_len));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      errno = r == 0 ? EIO : errno;
      return false;
    }
    done += (size_t) r;
  }
  return true;
}

/* Up to n bytes of standard input from at: held ones, else new ones
 * (held as they come). -1 with errno. */
static ssize_t
tape_read (uint64_t at, unsigned char *buf, size_t n)
{
  pthread_mutex_lock (&tape.lock);
  ssize_t got = -1;
  if (at < tape.total) {
    size_t k = tape.total - at < n ? (size_t) (tape.total - at) : n;
    got = tape_copy (at, buf, k) ? (ssize_t) k : -1;
  } else if (tape.eof) {
    got = 0;
  } else {
    if (!stdin_ready ())
      got = -1;
    else
      while ((got = read (STDIN_FILENO, buf, n)) < 0 && errno == EINTR)
        ;
    if (got == 0)
      tape.eof = true;
    if (got > 0 && !tape_hold (buf, (size_t) got)) {
      atomic_store (&holding_failed, true);
      got = -2;
    }
    if (got > 0)
      tape.total += (uint64_t) got;
  }
  pthread_mutex_unlock (&tape.lock);
  return got;
}

/* ---- errors and raw bytes ------------------------------------------------ */

/* Set on the inflating thread (inflate_ahead), whose errors wait in
 * its own buffer until the reader takes them. */
static _Thread_local char *thread_error;

static ssize_t
fail (MsInput *in, const char *why)
{
  if (thread_error) {
    snprintf (thread_error, sizeof in->error, "%s: %.500s", in->path, why);
    return -1;
  }
  if (!in->failed)
    snprintf (in->error, sizeof in->error, "%s: %.500s", in->path, why);
  in->failed = true;
  return -1;
}

static ssize_t
fail_errno (MsInput *in, int e)
{
  return fail (in, strerror (e ? e : EIO));
}

/* The file's own bytes (compressed ones for gzip data), in order. */
static ssize_t
raw_read (MsInput *in, unsigned char *buf, size_t n)
{
  ssize_t got;
  if (in->fd < 0) {
    got = tape_read (in->raw_read, buf, n);
    if (got == -2) {
      char why[4096 + 256];
      snprintf (why, sizeof why,
                ms_gettext ("standard input could not be held in TMPDIR (%s): %s"),
                temporary_folder (), strerror (errno));
      return fail (in, why);
    }
  } else {
    uint64_t left = in->raw_limit - in->raw_read;
    if (left < n)
      n = (size_t) left;
    /* At its own offset: a descriptor shared with another reader
     * (ms_atomic_file_kept) shares the file's offset. */
    got = file_pread (in, buf, n, in->raw_read);
  }
  if (got < 0)
    return fail_errno (in, errno);
  in->raw_read += (uint64_t) got;
  return got;
}

/* ---- gzip ----------------------------------------------------------------- */

static bool
refill (MsInput *in)
{
  size_t keep = in->z.avail_in;
  /* Before the first read next_in is NULL, which memmove may not take. */
  if (keep)
    memmove (in->zin, in->z.next_in, keep);
  ssize_t got = raw_read (in, in->zin + keep, RAW_CHUNK - keep);
  if (got < 0)
    return false;
  in->raw_eof = got == 0;
  in->z.next_in = in->zin;
  in->z.avail_in = (uInt) (keep + (size_t) got);
  return true;
}

/* After a member's end: another member follows (as gzip -d reads them
 * all), or the data ends. Bytes that start no member (garbage, zeros) are
 * refused, where gzip -d warns and ignores them: a data tool does not
 * read a file that holds more than its data says (docs/csv.md). */
static bool
next_member (MsInput *in)
{
  while (in->z.avail_in < 2 && !in->raw_eof)
    if (!refill (in))
      return false;
  if (in->z.avail_in == 0) {
    in->gz_end = true;
    return true;
  }
  if (in->z.avail_in < 2 || in->z.next_in[0] != 0x1f || in->z.next_in[1] != 0x8b) {
    snprintf (in->gz_why, sizeof in->gz_why,
              ms_gettext ("data after the end of the gzip stream at byte %llu"),
              (unsigned long long) (in->raw_read - in->z.avail_in));
    in->gz_error = in->gz_why;
    return true;
  }
  inflateReset (&in->z);
  in->member_done = false;
  return true;
}

/* Inflates up to n plain bytes into out; 0 at the end, -1 on an error. */
static ssize_t
inflate_some (MsInput *in, unsigned char *out, size_t n)
{
  in->z.next_out = out;
  in->z.avail_out = (uInt) n;
  while (in->z.avail_out == n && !in->gz_end && !in->gz_error) {
    if (in->member_done) {
      if (!next_member (in))
        return -1;
      continue;
    }
    if (in->z.avail_in == 0 && !in->raw_eof && !refill (in))
      return -1;
    int rc = inflate (&in->z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END)
      in->member_done = true;
    else if (rc == Z_BUF_ERROR && in->z.avail_in == 0 && in->raw_eof)
      in->gz_error = ms_gettext ("the compressed data ends early (a cut-off .gz file)");
    else if (rc != Z_OK && rc != Z_BUF_ERROR)
      in->gz_error = ms_gettext ("damaged compressed data: not a readable .gz file");
    /* The bytes inflated before the damage are given first: a reader
     * that looks at a file's start (its kind) sees them. */
    if (in->gz_error)
      break;
  }
  if (in->gz_error && in->z.avail_out == n)
    return fail (in, in->gz_error);
  return (ssize_t) (n - in->z.avail_out);
}

/* ---- inflating ahead ------------------------------------------------------ */

/* A large gzip file is inflated on a thread of its own, a few chunks
 * ahead of the reader, so that inflating overlaps parsing (the samples
 * reader parses on the other cores meanwhile): 2 MiB ahead, so that a
 * block of the reader's (256 KiB) seldom waits for it. The thread alone
 * touches the z_stream and the file; its error is taken over by the
 * reader. */
#define AHEAD_CHUNKS 8
#define AHEAD_BYTES (256u << 10)
#define AHEAD_FROM_BYTES (1u << 20) /* compressed: smaller files inflate inline */

typedef struct MsInflater {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  unsigned char *chunk[AHEAD_CHUNKS];
  size_t len[AHEAD_CHUNKS];
  int head, count;
  size_t taken; /* of the head chunk */
  bool done, stop, failed;
  char error[4096 + 512]; /* the thread's "path: why" */
} MsInflater;

static void *
inflate_ahead (void *data)
{
  MsInput *in = data;
  MsInflater *f = in->inflater;
  thread_error = f->error;
  for (int slot = 0;; slot = (slot + 1) % AHEAD_CHUNKS) {
    pthread_mutex_lock (&f->lock);
    while (f->count == AHEAD_CHUNKS && !f->stop)
      pthread_cond_wait (&f->changed, &f->lock);
    bool stop = f->stop;
    pthread_mutex_unlock (&f->lock);
    if (stop)
      break;
    ssize_t got = inflate_some (in, f->chunk[slot], AHEAD_BYTES);
    pthread_mutex_lock (&f->lock);
    f->len[slot] = got > 0 ? (size_t) got : 0;
    f->count += got > 0;
    f->failed = got < 0;
    f->done = got <= 0;
    pthread_cond_broadcast (&f->changed);
    pthread_mutex_unlock (&f->lock);
    if (got <= 0)
      break;
  }
  return NULL;
}

static bool
start_inflater (MsInput *in)
{
  MsInflater *f = calloc (1, sizeof *f);
  for (int i = 0; f && i < AHEAD_CHUNKS; i++)
    if (!(f->chunk[i] = malloc (AHEAD_BYTES)))
      break;
  if (!f || !f->chunk[AHEAD_CHUNKS - 1]) {
    for (int i = 0; f && i < AHEAD_CHUNKS; i++)
      free (f->chunk[i]);
    free (f);
    return false;
  }
  pthread_mutex_init (&f->lock, NULL);
  pthread_cond_init (&f->changed, NULL);
  in->inflater = f;
  /* No signal is this thread's to take: the command's handlers run on
   * the thread that reads. */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, &old);
  bool started = pthread_create (&f->thread, NULL, inflate_ahead, in) == 0;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (!started) {
    in->inflater = NULL;
    for (int i = 0; i < AHEAD_CHUNKS; i++)
      free (f->chunk[i]);
    free (f);
  }
  return started;
}

/* Up to n bytes the thread inflated; 0 at the end, -1 on its error. */
static ssize_t
take_inflated (MsInput *in, unsigned char *out, size_t n)
{
  MsInflater *f = in->inflater;
  pthread_mutex_lock (&f->lock);
  while (f->count == 0 && !f->done)
    pthread_cond_wait (&f->changed, &f->lock);
  ssize_t got = 0;
  if (f->count > 0) {
    size_t left = f->len[f->head] - f->taken;
    size_t k = left < n ? left : n;
    memcpy (out, f->chunk[f->head] + f->taken, k);
    f->taken += k;
    if (f->taken == f->len[f->head]) {
      f->taken = 0;
      f->head = (f->head + 1) % AHEAD_CHUNKS;
      f->count--;
      pthread_cond_broadcast (&f->changed);
    }
    got = (ssize_t) k;
  } else if (f->failed) {
    got = -1;
  }
  pthread_mutex_unlock (&f->lock);
  if (got < 0 && !in->failed) {
    memcpy (in->error, f->error, sizeof in->error);
    in->failed = true;
  }
  return got;
}

static void
stop_inflater (MsInput *in)
{
  MsInflater *f = in->inflater;
  if (!f)
    return;
  pthread_mutex_lock (&f->lock);
  f->stop = true;
  pthread_cond_broadcast (&f->changed);
  pthread_mutex_unlock (&f->lock);
  pthread_join (f->thread, NULL);
  for (int i = 0; i < AHEAD_CHUNKS; i++)
    free (f->chunk[i]);
  pthread_mutex_destroy (&f->lock);
  pthread_cond_destroy (&f->changed);
  free (f);
  in->inflater = NULL;
}

/* Plain bytes of a stream: from the thread, inflated here, or as read. */
static ssize_t
stream_bytes (MsInput *in, unsigned char *out, size_t n)
{
  if (in->inflater)
    return take_inflated (in, out, n);
  return in->gz ? inflate_some (in, out, n) : raw_read (in, out, n);
}

/* ---- the ring ------------------------------------------------------------- */

/* Produces plain bytes into the ring until it holds `upto` (or the end),
 * never over those from `keep` on, which the caller is about to take.
 * False on an error. */
static bool
produce (MsInput *in, uint64_t keep, uint64_t upto)
{
  while (in->produced < upto && !in->eof) {
    size_t slot = (size_t) (in->produced % MS_INPUT_WINDOW);
    size_t room = MS_INPUT_WINDOW - slot;
    uint64_t free_bytes = keep + MS_INPUT_WINDOW - in->produced;
    if (free_bytes < room)
      room = (size_t) free_bytes;
    /* Not far past what was asked: the ring keeps the bytes just behind
     * it for the readers that look back (and those of other positions). */
    uint64_t want = upto - in->produced < PRODUCE_STEP ? PRODUCE_STEP : upto - in->produced;
    if (want < room)
      room = (size_t) want;
    if (room == 0) {
      errno = ESPIPE;
      return false;
    }
    ssize_t got = stream_bytes (in, in->ring + slot, room);
    if (got < 0)
      return false;
    if (got == 0)
      in->eof = true;
    tap_bytes (in, in->ring + slot, in->produced, (size_t) got);
    in->produced += (uint64_t) got;
  }
  return true;
}

/* Copies ring bytes [at, at + n), all produced and still held. */
static void
ring_copy (const MsInput *in, unsigned char *buf, uint64_t at, size_t n)
{
  size_t slot = (size_t) (at % MS_INPUT_WINDOW);
  size_t first = MS_INPUT_WINDOW - slot < n ? MS_INPUT_WINDOW - slot : n;
  memcpy (buf, in->ring + slot, first);
  memcpy (buf + first, in->ring, n - first);
}

static ssize_t
stream_pread (MsInput *in, unsigned char *buf, size_t n, uint64_t at)
{
  if (in->produced > MS_INPUT_WINDOW && at < in->produced - MS_INPUT_WINDOW) {
    errno = ESPIPE;
    return -1;
  }
  if (n > MS_INPUT_WINDOW)
    n = MS_INPUT_WINDOW;
  /* Bytes produced before a failure (damaged gzip data further on) are
   * given first; the failure is said when a read finds nothing before it.
   * Out of the ring's reach, the stream itself is fine. */
  bool ok = in->failed || produce (in, at, at + n);
  if (at >= in->produced)
    return in->failed || !ok ? -1 : 0;
  size_t k = in->produced - at < n ? (size_t) (in->produced - at) : n;
  ring_copy (in, buf, at, k);
  return (ssize_t) k;
}

/* ---- opening -------------------------------------------------------------- */

static int
open_file (MsInput *in, bool as_input, struct stat *st)
{
  /* A file the command opened already (ms_atomic_file_kept) is not
   * opened again; O_NONBLOCK: opening a FIFO for reading would wait for a
   * writer. */
  int fd = ms_atomic_file_kept (in->path);
  if (fd < 0)
    fd = open (in->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0 || fstat (fd, st) != 0) {
    snprintf (in->error, sizeof in->error, ms_gettext ("%s: cannot open: %s"), in->path,
              strerror (errno));
    if (fd >= 0)
      close (fd);
    return -1;
  }
  if (!S_ISREG (st->st_mode)) {
    snprintf (in->error, sizeof in->error, ms_gettext ("%s: not a regular file (%s)"), in->path,
              S_ISDIR (st->st_mode) ? ms_gettext ("a folder")
              : S_ISFIFO (st->st_mode) ? ms_gettext ("a pipe")
              : S_ISCHR (st->st_mode) || S_ISBLK (st->st_mode)
                ? ms_gettext ("a device")
                : ms_gettext ("a socket or special file"));
    /* A pipe is read once, as it comes: standard input is where memsweep
     * takes one (and holds it where it must read it twice). */
    size_t n = strlen (in->error);
    if (S_ISFIFO (st->st_mode))
      snprintf (in->error + n, sizeof in->error - n, "%s",
                ms_gettext ("; give a pipe as standard input: ... | memsweep CMD -"));
    close (fd);
    return -1;
  }
  /* Regular files never block; reads should wait for slow disks as usual. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  if (as_input)
    ms_atomic_file_note_input (fd, in->path);
  return fd;
}

/* The plain size a gzip file's last member records. */
static uint64_t
gzip_recorded_size (MsInput *in, off_t size)
{
  unsigned char t[4];
  if (size < 18 || file_pread (in, t, 4, (uint64_t) size - 4) != 4)
    return MS_INPUT_SIZE_UNKNOWN;
  return (uint64_t) t[0] | (uint64_t) t[1] << 8 | (uint64_t) t[2] << 16 | (uint64_t) t[3] << 24;
}

static bool
start_stream (MsInput *in)
{
  in->stream = true;
  in->ring = malloc (MS_INPUT_WINDOW);
  if (!in->ring)
    return false;
  if (!in->gz)
    return true;
  in->zin = malloc (RAW_CHUNK);
  /* 15 + 32: a gzip (or zlib) header, recognised by its bytes. */
  in->z_live = in->zin && inflateInit2 (&in->z, 15 + 32) == Z_OK;
  return in->z_live;
}

MsInput *
ms_input_open (const char *path, bool as_input, char *err, size_t errlen)
{
  MsInput *in = calloc (1, sizeof *in);
  if (!in) {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
    return NULL;
  }
  snprintf (in->path, sizeof in->path, "%s", path);
  in->fd = -1;
  unsigned char magic[2] = { 0, 0 };
  bool ok;
  if (strcmp (path, MS_INPUT_STDIN) == 0) {
    if (as_input)
      ms_atomic_file_note_read (STDIN_FILENO);
    ssize_t got = tape_read (0, magic, 2);
    in->gz = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    in->size = MS_INPUT_SIZE_UNKNOWN;
    ok = got >= 0 || (fail_errno (in, errno), false);
    ok = ok && start_stream (in);
  } else {
    struct stat st;
    in->fd = open_file (in, as_input, &st);
    in->raw_limit = in->fd >= 0 ? (uint64_t) st.st_size : 0;
    ok = in->fd >= 0 && hold_head (in, &st);
    in->gz = ok && file_pread (in, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    in->size = in->gz ? gzip_recorded_size (in, st.st_size) : in->raw_limit;
    ok = ok && (!in->gz || start_stream (in));
    /* A large file inflates ahead; without the thread, inline. */
    if (ok && in->gz && in->raw_limit >= AHEAD_FROM_BYTES)
      start_inflater (in);
  }
  if (!ok) {
    if (!in->error[0])
      snprintf (in->error, sizeof in->error, "%s: %s", path, strerror (ENOMEM));
    snprintf (err, errlen, "%s", in->error);
    ms_input_close (in);
    return NULL;
  }
  return in;
}

ssize_t
ms_input_pread (MsInput *in, void *buf, size_t n, uint64_t offset)
{
  if (in->stream)
    return stream_pread (in, buf, n, offset);
  if (offset >= in->raw_limit)
    return 0;
  if (in->raw_limit - offset < n)
    n = (size_t) (in->raw_limit - offset);
  ssize_t got = file_pread (in, buf, n, offset);
  if (got < 0)
    fail_errno (in, errno);
  else
    tap_bytes (in, buf, offset, (size_t) got);
  return got;
}

bool
ms_input_tap (MsInput *in, MsInputTap tap, void *data)
{
  /* A stream's first bytes may be produced already (a look at its head):
   * the tap sees them from the ring while it holds them. */
  if (tap && in->stream && in->produced > MS_INPUT_WINDOW)
    return false;
  in->tap = tap;
  in->tap_data = data;
  in->tapped = 0;
  if (tap && in->stream && in->produced > 0)
    tap_bytes (in, in->ring, 0, (size_t) in->produced);
  return true;
}

ssize_t
ms_input_read (MsInput *in, void *buf, size_t n)
{
  ssize_t got = ms_input_pread (in, buf, n, in->pos);
  if (got > 0)
    in->pos += (uint64_t) got;
  else if (got < 0 && !in->failed)
    fail_errno (in, errno);
  return got;
}

char *
ms_input_read_all (MsInput *in, size_t max, size_t *len, bool *too_large, char *err,
                   size_t errlen)
{
  size_t cap = 0, n = 0;
  char *text = NULL;
  ssize_t got = 1;
  *too_large = false;
  while (got > 0 && n <= max) {
    if (n + 1 >= cap) {
      size_t grown = cap ? cap * 2 : 64 * 1024;
      char *bigger = realloc (text, grown > max + 2 ? max + 2 : grown);
      if (!bigger) {
        snprintf (err, errlen, "%s: %s", in->path, strerror (ENOMEM));
        free (text);
        return NULL;
      }
      text = bigger;
      cap = grown > max + 2 ? max + 2 : grown;
    }
    got = ms_input_read (in, text + n, cap - 1 - n);
    n += got > 0 ? (size_t) got : 0;
  }
  *too_large = n > max;
  if (got < 0) {
    snprintf (err, errlen, "%s", in->error);
    free (text);
    return NULL;
  }
  n = *too_large ? max : n;
  text[n] = '\0';
  *len = n;
  return text;
}

uint64_t
ms_input_size (const MsInput *in)
{
  return in->size;
}

bool
ms_input_is_stream (const MsInput *in)
{
  return in->stream;
}

bool
ms_input_inflates_ahead (const MsInput *in)
{
  return in->inflater != NULL;
}

const char *
ms_input_error (const MsInput *in)
{
  return in->error;
}

const char *
ms_input_why (const MsInput *in)
{
  size_t n = strlen (in->path);
  return in->failed && strncmp (in->error, in->path, n) == 0 && in->error[n] == ':'
           ? in->error + n + 2
           : in->error;
}

void
ms_input_close (MsInput *in)
{
  if (!in)
    return;
  stop_inflater (in);
  if (in->z_live)
    inflateEnd (&in->z);
  if (in->fd >= 0)
    close (in->fd);
  free (in->zin);
  free (in->ring);
  free (in->head);
  free (in);
}
