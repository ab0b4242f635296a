/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet.c: a sweep per node of a cluster through Slurm, and the
 * report that compares the nodes.
 *
 *   fleet        submits one job (sbatch --wait) whose single srun step
 *                runs `memsweep fleet-node` once on every node
 *   fleet-node   runs `memsweep run` here and stamps the samples file with
 *                the node name, GPU serials and every GPU's PCIe link
 *   fleet-report reads a folder of those files: nodes x key figures */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-commands.h"
#include "ms-cli-run-options.h"
#include "ms-fleet.h"
#include "ms-i18n.h"
#include "ms-multi.h"

/* This program, for the commands that start it again (on each node). */
static bool
self_path (char *buf, size_t len)
{
  ssize_t n = readlink ("/proc/self/exe", buf, len - 1);
  if (n <= 0)
    return false;
  buf[n] = '\0';
  return true;
}

/* Runs argv and waits; the exit status, or -1 when it could not start. */
static int
spawn_wait (char **argv)
{
  fflush (stdout);
  fflush (stderr);
  pid_t pid = fork ();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    execvp (argv[0], argv);
    fprintf (stderr, ms_gettext ("memsweep: cannot run %s: %s\n"), argv[0], strerror (errno));
    _exit (127);
  }
  int status;
  while (waitpid (pid, &status, 0) < 0) {
    if (errno != EINTR)
      return -1;
  }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* Appends 'arg' to buf, quoted for the shell that sbatch --wrap uses. */
static bool
append_quoted (char *buf, size_t len, const char *arg)
{
  size_t n = strlen (buf);
  if (n + 3 >= len)
    return false;
  buf[n++] = ' ';
  buf[n++] = '\'';
  for (const char *p = arg; *p; p++) {
    const char *piece = *p == '\'' ? "'\\''" : NULL;
    size_t plen = piece ? strlen (piece) : 1;
    if (n + plen + 2 >= len)
      return false;
    if (piece)
      memcpy (buf + n, piece, plen);
    else
      buf[n] = *p;
    n += plen;
  }
  buf[n++] = '\'';
  buf[n] = '\0';
  return true;
}

static void
fleet_usage (FILE *out)
{
  const char *text =
    ms_gettext ("Usage: memsweep fleet --dir DIR [--nodes N] [--nodelist LIST] [--partition P]\n"
                "                      [--time MINUTES] [--sbatch-arg ARG]... [--dry-run]\n"
                "                      [-- RUN OPTIONS]\n"
                "Submits one Slurm job (sbatch --wait, one task per node, nodes exclusive) "
                "that\nruns 'memsweep fleet-node --dir DIR -- RUN OPTIONS' on every node, then "
                "prints\n'memsweep fleet-report DIR'. DIR must be on a file system every node "
                "shares.\n");
  fputs (text, out);
}

typedef struct {
  const char *dir;
  const char *nodes;
  const char *nodelist;
  const char *partition;
  const char *time;
  const char *extra[16];
  int n_extra;
  bool dry_run;
} FleetArgs;

static int
parse_fleet_args (int argc, char **argv, FleetArgs *a)
{
  const struct option *opts = ms_cli_getopt_table ("fleet");
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "+", opts, NULL)) != -1) {
    switch (c) {
    case 'd': a->dir = optarg; break;
    case 'N': a->nodes = optarg; break;
    case 'w': a->nodelist = optarg; break;
    case 'p': a->partition = optarg; break;
    case 't': a->time = optarg; break;
    case 'n': a->dry_run = true; break;
    case 'x':
      if (a->n_extra == 16) {
        fprintf (stderr, ms_gettext ("memsweep fleet: at most 16 --sbatch-arg\n"));
        return 2;
      }
      a->extra[a->n_extra++] = optarg;
      break;
    case 'h': fleet_usage (stdout); return 0;
    default: fleet_usage (stderr); return 2;
    }
  }
  if (!a->dir) {
    fprintf (stderr, ms_gettext ("memsweep fleet: --dir DIR is required\n"));
    return 2;
  }
  return -1;
}

/* A folder that already holds a node's results would mix an earlier job's
 * nodes into this job's report: refused. */
static bool
folder_is_fresh (const char *dir)
{
  DIR *d = opendir (dir);
  size_t s = strlen ("-samples.csv");
  for (struct dirent *e; d && (e = readdir (d));) {
    size_t n = strlen (e->d_name);
    if (n > s && strcmp (e->d_name + n - s, "-samples.csv") == 0) {
      fprintf (stderr, ms_gettext ("memsweep fleet: %s already holds results (%s): give a new "
                                   "or empty folder\n"), dir, e->d_name);
      closedir (d);
      return false;
    }
  }
  if (d)
    closedir (d);
  return true;
}

/* The srun step every node runs, as one shell word list for --wrap. */
static bool
build_wrap (char *wrap, size_t len, const char *self, const char *dir, int argc, char **argv)
{
  snprintf (wrap, len, "srun --ntasks-per-node=1");
  bool ok = append_quoted (wrap, len, self) && append_quoted (wrap, len, "fleet-node") &&
            append_quoted (wrap, len, "--dir") && append_quoted (wrap, len, dir) &&
            append_quoted (wrap, len, "--");
  for (int i = optind; i < argc && ok; i++)
    ok = append_quoted (wrap, len, argv[i]);
  return ok;
}

int
ms_cli_fleet (int argc, char **argv)
{
  FleetArgs a = { 0 };
  int rc = parse_fleet_args (argc, argv, &a);
  if (rc >= 0)
    return rc;
  char self[PATH_MAX], dir[PATH_MAX], wrap[8192], opt[8192 + 16];
  if (mkdir (a.dir, 0777) != 0 && errno != EEXIST) {
    fprintf (stderr, "memsweep fleet: %s: %s\n", a.dir, strerror (errno));
    return 1;
  }
  if (!self_path (self, sizeof self) || !realpath (a.dir, dir)) {
    fprintf (stderr, ms_gettext ("memsweep fleet: cannot resolve %s or this program's path\n"),
             a.dir);
    return 1;
  }
  if (!build_wrap (wrap, sizeof wrap, self, dir, argc, argv)) {
    fprintf (stderr, ms_gettext ("memsweep fleet: run options too long\n"));
    return 2;
  }
  /* Every node would fail the same way: say so before submitting. */
  char check[PATH_MAX + 16];
  snprintf (check, sizeof check, "%s/node", dir);
  if (!ms_cli_prefix_ok ("fleet", "--dir", check))
    return 2;
  rc = ms_cli_check_run_options ("fleet", check, true, argc - optind, argv + optind);
  if (rc >= 0)
    return rc;
  if (!folder_is_fresh (dir))
    return 2;
  char *sb[48] = { "sbatch", "--wait", "--job-name=memsweep-fleet", "--ntasks-per-node=1",
                   "--exclusive" };
  int n = 5;
  char nodes[64], out[PATH_MAX + 32], part[256], time_arg[64], list[1024];
  snprintf (out, sizeof out, "--output=%s/fleet-%%j.out", dir);
  sb[n++] = out;
  if (a.nodes)
    sb[n++] = (snprintf (nodes, sizeof nodes, "--nodes=%s", a.nodes), nodes);
  if (a.nodelist)
    sb[n++] = (snprintf (list, sizeof list, "--nodelist=%s", a.nodelist), list);
  if (a.partition)
    sb[n++] = (snprintf (part, sizeof part, "--partition=%s", a.partition), part);
  if (a.time)
    sb[n++] = (snprintf (time_arg, sizeof time_arg, "--time=%s", a.time), time_arg);
  for (int i = 0; i < a.n_extra; i++)
    sb[n++] = (char *) a.extra[i];
  snprintf (opt, sizeof opt, "--wrap=%s", wrap);
  sb[n++] = opt;
  sb[n] = NULL;
  if (a.dry_run) {
    for (int i = 0; i < n; i++)
      printf ("%s%s", i ? " " : "", sb[i]);
    printf ("\n");
    return 0;
  }
  rc = spawn_wait (sb);
  if (rc != 0) {
    fprintf (stderr,
             ms_gettext ("memsweep fleet: sbatch %s (exit %d); the job log is %s/fleet-JOB.out\n"),
             rc < 0 ? ms_gettext ("could not start") : ms_gettext ("failed"), rc, dir);
    return 1;
  }
  char *report[] = { argv[0], (char *) dir, NULL };
  return ms_cli_fleet_report (2, report);
}

/* Serials and links of every GPU this node has, for the stamp. */
static void
gather_stamp (MsFleetStamp *stamp)
{
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  int count = ms_backend_query_device (backend, 0, &info) ? info.count : 0;
  for (int i = 0; i < count; i++) {
    if (i > 0 && !ms_backend_query_device (backend, i, &info))
      continue;
    char serial[64] = "", link[32] = "unknown";
    if (!ms_nvml_serial (info.pci_bus_id, serial, sizeof serial))
      snprintf (serial, sizeof serial, "unknown");
    if (info.pcie_gen > 0)
      snprintf (link, sizeof link, "gen%dx%d", info.pcie_gen, info.pcie_width);
    size_t ns = strlen (stamp->serials), nl = strlen (stamp->links);
    snprintf (stamp->serials + ns, sizeof stamp->serials - ns, "%s%s", i ? "," : "", serial);
    snprintf (stamp->links + nl, sizeof stamp->links - nl, "%s%s", i ? "," : "", link);
  }
  ms_backend_free (backend);
}

static int
fleet_node_usage (FILE *out, int rc)
{
  fputs (ms_gettext ("Usage: memsweep fleet-node --dir DIR [--node NAME] [-- RUN OPTIONS]\n"),
         out);
  return rc;
}

/* The samples file's identity, to tell a new one from one left before. */
static void
file_identity (const char *path, struct stat *st)
{
  if (stat (path, st) != 0)
    memset (st, 0, sizeof *st);
}

int
ms_cli_fleet_node (int argc, char **argv)
{
  const struct option *opts = ms_cli_getopt_table ("fleet-node");
  const char *dir = NULL, *node = getenv ("SLURMD_NODENAME");
  char host[256] = "";
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "+", opts, NULL)) != -1) {
    if (c == 'd')
      dir = optarg;
    else if (c == 'n')
      node = optarg;
    else if (c == 'h')
      return fleet_node_usage (stdout, 0);
    else
      return fleet_node_usage (stderr, 2);
  }
  if (!dir)
    return fleet_node_usage (stderr, 2);
  if (!node || !*node)
    node = gethostname (host, sizeof host - 1) == 0 ? host : "unknown";
  /* NODE-samples.csv must be a file of DIR that fleet-report lists: no
   * '/', and no leading '.' (".", ".." and hidden files it skips). */
  if (strchr (node, '/') || node[0] == '.') {
    fprintf (stderr, ms_gettext ("memsweep fleet-node: bad node name '%s': a node's name may "
                                 "not contain '/' or start with '.'\n"),
             node);
    return 2;
  }
  char self[PATH_MAX], prefix[PATH_MAX + 256], path[PATH_MAX + 300], err[512];
  snprintf (prefix, sizeof prefix, "%s/%s", dir, node);
  /* Every node may get here first. */
  if (mkdir (dir, 0777) != 0 && errno != EEXIST) {
    fprintf (stderr, "memsweep fleet-node: %s: %s\n", dir, strerror (errno));
    return 1;
  }
  if (!self_path (self, sizeof self) || argc - optind > 40) {
    fputs (ms_gettext ("memsweep fleet-node: cannot find this program, or too many options\n"),
           stderr);
    return 1;
  }
  if (!ms_cli_prefix_ok ("fleet-node", "--dir, --node", prefix))
    return 2;
  int rc = ms_cli_check_run_options ("fleet-node", prefix, true, argc - optind, argv + optind);
  if (rc >= 0)
    return rc;
  /* The fleet compares nodes on the copies' own times, which only
   * instrumented repetitions have: every repetition is one here (the
   * node's own options, after it, may still say otherwise). */
  char *run[48] = { self, "run", "--quiet", "--instrumented-reps=0", "--out", prefix };
  int n = 6;
  for (int i = optind; i < argc; i++)
    run[n++] = argv[i];
  run[n] = NULL;
  struct stat before, after;
  snprintf (path, sizeof path, "%s-samples.csv", prefix);
  file_identity (path, &before);
  rc = spawn_wait (run);
  file_identity (path, &after);
  /* A failed cell (exit 1) still leaves a file worth comparing; a file an
   * earlier sweep left is not this one's (each write is a new file). */
  bool fresh = after.st_ino != 0 && (after.st_ino != before.st_ino || after.st_dev != before.st_dev);
  if (!fresh) {
    fprintf (stderr, ms_gettext ("memsweep fleet-node: %s: memsweep run exited %d and wrote no "
                                 "samples file\n"), node, rc);
    return rc > 0 ? rc : 1;
  }
  MsFleetStamp stamp = { 0 };
  snprintf (stamp.node, sizeof stamp.node, "%s", node);
  gather_stamp (&stamp);
  if (!ms_fleet_stamp (path, &stamp, err, sizeof err)) {
    fprintf (stderr, "memsweep fleet-node: %s\n", err);
    return 1;
  }
  return rc;
}
