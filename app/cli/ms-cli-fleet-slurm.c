/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet-slurm.c: the nodes and their GPUs from Slurm, and the wait
 * for the per-node jobs, which gives up on a node that is down. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ms-cli-common.h"
#include "ms-cli-fleet-slurm.h"
#include "ms-i18n.h"

int
ms_fleet_slurm_capture (char **argv, char *out, size_t len)
{
  int fds[2];
  fflush (stdout);
  fflush (stderr);
  if (pipe (fds) != 0)
    return -1;
  pid_t parent = getpid ();
  pid_t pid = fork ();
  if (pid < 0) {
    close (fds[0]);
    close (fds[1]);
    return -1;
  }
  if (pid == 0) {
    /* A fleet ended by a signal takes its Slurm command with it: a stalled
     * sinfo or an sbatch --wait would else run on, orphaned. */
    prctl (PR_SET_PDEATHSIG, SIGTERM);
    if (getppid () != parent)
      _exit (127);
    dup2 (fds[1], 1);
    close (fds[0]);
    close (fds[1]);
    execvp (argv[0], argv);
    ms_cli_error (ms_gettext ("cannot run %s: %s\n"), argv[0], strerror (errno));
    _exit (127);
  }
  close (fds[1]);
  size_t n = 0;
  char sink[4096];
  for (ssize_t got;;) {
    /* Past len the rest is read and dropped, so the child never blocks. */
    char *to = n + 1 < len ? out + n : sink;
    size_t room = n + 1 < len ? len - 1 - n : sizeof sink;
    got = read (fds[0], to, room);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    if (to == out + n)
      n += (size_t) got;
  }
  out[n < len ? n : len - 1] = '\0';
  close (fds[0]);
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* The GPUs a node's GRES string counts: "gpu:8", "gpu:h100:4(S:0-1)",
 * "gpu:a:2,gpu:b:2"; 0 for none or "(null)". */
static int
gres_gpus (const char *gres)
{
  int total = 0;
  for (const char *p = strstr (gres, "gpu:"); p; p = strstr (p, "gpu:")) {
    p += 4;
    const char *count = p;
    /* "gpu:TYPE:N"; "gpu:TYPE" alone is one GPU. */
    size_t token = strcspn (count, ",(");
    if (*count < '0' || *count > '9') {
      const char *colon = memchr (count, ':', token);
      total += colon ? atoi (colon + 1) : 1;
    } else {
      total += atoi (count);
    }
  }
  return total;
}

static bool
add_node (MsFleetExpected **nodes, size_t *n, size_t *cap, const char *name, int gpus)
{
  for (size_t i = 0; i < *n; i++)
    if (strcmp ((*nodes)[i].node, name) == 0) {
      if (gpus > (*nodes)[i].gpus)
        (*nodes)[i].gpus = gpus;
      return true;
    }
  if (*n == *cap) {
    MsFleetExpected *bigger = realloc (*nodes, (*cap = 2 * *cap + 64) * sizeof *bigger);
    if (!bigger)
      return false;
    *nodes = bigger;
  }
  MsFleetExpected *e = &(*nodes)[(*n)++];
  memset (e, 0, sizeof *e);
  snprintf (e->node, sizeof e->node, "%s", name);
  e->gpus = gpus;
  return true;
}

/* "NODE GRES" lines of `sinfo -h -N -o '%N %G'`: the GPUs of each node. */
static int
gpus_of (const char *sinfo, const char *node)
{
  size_t len = strlen (node);
  for (const char *line = sinfo; *line;) {
    const char *eol = strchr (line, '\n');
    if (strncmp (line, node, len) == 0 && line[len] == ' ') {
      char gres[1024];
      size_t n = eol ? (size_t) (eol - line) - len - 1 : strlen (line + len + 1);
      snprintf (gres, sizeof gres, "%.*s", (int) (n < sizeof gres ? n : sizeof gres - 1),
                line + len + 1);
      return gres_gpus (gres);
    }
    if (!eol)
      break;
    line = eol + 1;
  }
  return 0;
}

static char *
slurm_output (char **argv, const char *what)
{
  size_t len = 1 << 20;
  char *out = malloc (len);
  if (!out)
    return NULL;
  int rc = ms_fleet_slurm_capture (argv, out, len);
  if (rc != 0) {
    ms_cli_error (ms_gettext ("%s failed (exit %d)\n"), what, rc);
    free (out);
    return NULL;
  }
  return out;
}

MsFleetExpected *
ms_fleet_slurm_nodes (const char *nodelist, int count, const char *partition, size_t *n)
{
  char part[256];
  snprintf (part, sizeof part, "--partition=%s", partition ? partition : "");
  char *info_argv[] = { "sinfo", "-h", "-N", "-o", "%N %G", partition ? part : NULL, NULL };
  char *listed_argv[] = { "scontrol", "show", "hostnames", (char *) nodelist, NULL };
  char *responding_argv[] = { "sinfo", "-h", "-N", "-r", "-o", "%N",
                              partition ? part : NULL, NULL };
  char *info = slurm_output (info_argv, "sinfo");
  char *names = info ? slurm_output (nodelist ? listed_argv : responding_argv,
                                     nodelist ? "scontrol show hostnames" : "sinfo")
                     : NULL;
  long want = count; /* whole and above 0, or 0 for all (fleet's parser) */
  MsFleetExpected *nodes = NULL;
  size_t cap = 0;
  *n = 0;
  bool ok = names != NULL;
  for (char *save = NULL, *name = names ? strtok_r (names, "\n", &save) : NULL; ok && name;
       name = strtok_r (NULL, "\n", &save))
    if (want <= 0 || (long) *n < want)
      ok = add_node (&nodes, n, &cap, name, gpus_of (info, name));
  if (ok && *n == 0)
    ms_cli_error (ms_gettext ("Slurm lists no node to sweep\n"));
  else if (ok && want > 0 && (long) *n < want)
    ms_cli_error (ms_gettext ("--nodes %ld but only %zu nodes respond: sweeping those\n"),
                  want, *n);
  free (info);
  free (names);
  if (!ok || *n == 0) {
    free (nodes);
    return NULL;
  }
  return nodes;
}

bool
ms_fleet_slurm_answers (const char *partition)
{
  char part[256], out[4096];
  snprintf (part, sizeof part, "--partition=%s", partition ? partition : "");
  char *argv[] = { "sinfo", "-h", "-N", "-o", "%N", partition ? part : NULL, NULL };
  return ms_fleet_slurm_capture (argv, out, sizeof out) == 0;
}

MsFleetExpected *
ms_fleet_slurm_plan_nodes (const char *nodelist, int count, size_t *n)
{
  MsFleetExpected *nodes = NULL;
  size_t cap = 0;
  char name[128];
  bool ok = true;
  *n = 0;
  if (nodelist) {
    /* Names between commas; a range (gpu[001-016]) stays one, as written. */
    int depth = 0;
    size_t len = 0;
    for (const char *p = nodelist;; p++) {
      if (*p == '[' || *p == ']')
        depth += *p == '[' ? 1 : -1;
      if (*p && (*p != ',' || depth > 0)) {
        if (len + 1 < sizeof name)
          name[len++] = *p;
        continue;
      }
      name[len] = '\0';
      if (len > 0)
        ok = ok && add_node (&nodes, n, &cap, name, 0);
      len = 0;
      if (!*p)
        break;
    }
  } else {
    for (int i = 1; ok && i <= (count > 0 ? count : 1); i++) {
      snprintf (name, sizeof name, count > 0 ? "NODE%d" : "NODE", i);
      ok = add_node (&nodes, n, &cap, name, 0);
    }
  }
  if (!ok || *n == 0) {
    free (nodes);
    return NULL;
  }
  return nodes;
}

/* How many of the jobs are still queued, and how many of those only wait
 * for a node that is down, drained or not available. */
static bool
queued (const char *ids, int *left, int *unavailable)
{
  char *argv[] = { "squeue", "-h", "-t", "PD,R,CG,CF,S", "-o", "%i %t %r", (char *) ids, NULL };
  size_t len = 1 << 20;
  char *out = malloc (len);
  if (!out)
    return false;
  /* squeue exits 1 when none of the jobs is known any more. */
  int rc = ms_fleet_slurm_capture (argv, out, len);
  *left = *unavailable = 0;
  for (char *save = NULL, *line = rc == 0 ? strtok_r (out, "\n", &save) : NULL; line;
       line = strtok_r (NULL, "\n", &save)) {
    (*left)++;
    if (strstr (line, " PD ") &&
        (strstr (line, "ReqNodeNotAvail") || strstr (line, "NodeDown") || strstr (line, "DOWN")))
      (*unavailable)++;
  }
  free (out);
  return rc == 0 || rc == 1;
}

/* Every job of this fleet: those already done ignore the cancel. */
static void
cancel_all (const MsFleetExpected *expected, size_t n)
{
  char **argv = calloc (n + 2, sizeof *argv);
  if (!argv)
    return;
  size_t k = 0;
  argv[k++] = "scancel";
  for (size_t i = 0; i < n; i++)
    if (expected[i].job[0])
      argv[k++] = (char *) expected[i].job;
  char sink[256];
  if (k > 1)
    ms_fleet_slurm_capture (argv, sink, sizeof sink);
  free (argv);
}

int
ms_fleet_slurm_wait (const MsFleetExpected *expected, size_t n, double max_minutes)
{
  size_t len = 16 + n * 34;
  char *ids = malloc (len);
  if (!ids)
    return 0;
  snprintf (ids, len, "--jobs=");
  bool any = false;
  for (size_t i = 0; i < n; i++)
    if (expected[i].job[0]) {
      size_t at = strlen (ids);
      snprintf (ids + at, len - at, "%s%s", any ? "," : "", expected[i].job);
      any = true;
    }
  double deadline = ms_cli_now_s () + max_minutes * 60;
  int left = 0, unavailable = 0;
  while (any && queued (ids, &left, &unavailable) && left > 0) {
    if (unavailable == left || ms_cli_now_s () > deadline) {
      ms_cli_error (ms_gettext ("giving up on %d jobs (%d waiting for a node "
                                "that is down or unavailable): cancelled\n"),
                    left, unavailable);
      break;
    }
    sleep (2);
  }
  if (left > 0)
    cancel_all (expected, n);
  free (ids);
  return left;
}
