/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet.c: a sweep per node of a cluster through Slurm (the nodes
 * and their GPUs from Slurm, one job per node, and the wait for them,
 * which gives up on a node that is down), and the report that compares
 * the nodes.
 *
 *   fleet        submits one job (sbatch --wait) whose single srun step
 *                runs `memsweep fleet-node` once on every node
 *   fleet-node   runs `memsweep run` here and stamps the samples file with
 *                the node name, GPU serials and every GPU's PCIe link
 *   fleet-report reads a folder of those files: nodes x key figures */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-cli-output.h"
#include "ms-cli-run-options.h"
#include "ms-cli-tables.h"
#include "ms-engine.h"
#include "ms-i18n.h"

/* Runs argv with its standard output in out (at most len - 1 bytes, then
 * cut): the exit status, or -1 when it could not start. */
static int
slurm_capture (char **argv, char *out, size_t len)
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
  int rc = slurm_capture (argv, out, len);
  if (rc != 0) {
    ms_cli_error (ms_gettext ("%s failed (exit %d)\n"), what, rc);
    free (out);
    return NULL;
  }
  return out;
}

/* The nodes to sweep and the GPUs each has: nodelist expanded by
 * `scontrol show hostnames`, else the first `count` (all when 0)
 * responding nodes of the partition from sinfo, each with its gpu GRES
 * count. NULL with the reason said on stderr. */
static MsFleetExpected *
slurm_nodes (const char *nodelist, int count, const char *partition, size_t *n)
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

/* Whether Slurm answers (sinfo lists the partition's nodes). */
static bool
slurm_answers (const char *partition)
{
  char part[256], out[4096];
  snprintf (part, sizeof part, "--partition=%s", partition ? partition : "");
  char *argv[] = { "sinfo", "-h", "-N", "-o", "%N", partition ? part : NULL, NULL };
  return slurm_capture (argv, out, sizeof out) == 0;
}

/* The nodes a dry run plans for where Slurm does not answer: nodelist's
 * names as written (a range stays one), else NODE1..NODEcount (NODE when
 * count is 0: all), their GPUs unknown. NULL when out of memory. */
static MsFleetExpected *
slurm_plan_nodes (const char *nodelist, int count, size_t *n)
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
  int rc = slurm_capture (argv, out, len);
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
    slurm_capture (argv, sink, sizeof sink);
  free (argv);
}

/* Waits until no job of expected is pending or running, until every one
 * left is pending for a node that is down or unavailable, or until
 * max_minutes; jobs still queued then are cancelled (scancel). Returns
 * how many were cancelled. */
static int
slurm_wait (const MsFleetExpected *expected, size_t n, double max_minutes)
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

/* 'word' in single quotes, as every POSIX shell reads it back (the one
 * sbatch --wrap uses too). */
static void
put_quoted (FILE *out, const char *word)
{
  fputc ('\'', out);
  for (const char *p = word; *p; p++)
    fputs (*p == '\'' ? "'\\''" : (char[]) { *p, '\0' }, out);
  fputc ('\'', out);
}

/* One word of a command line as a shell reads it back: bare when every
 * character is one no shell treats specially, in single quotes otherwise,
 * and as $'...' with \xHH escapes when it holds a control character (a
 * node name from the command line), which would otherwise reach the
 * terminal raw. */
static void
put_shell_word (FILE *out, const char *word)
{
  static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "_@%+=:,./-";
  bool control = false;
  for (const char *p = word; *p; p++)
    control |= (unsigned char) *p < 0x20 || *p == 0x7f;
  if (*word && strspn (word, safe) == strlen (word)) {
    fputs (word, out);
  } else if (!control) {
    put_quoted (out, word);
  } else {
    fputs ("$'", out);
    for (const unsigned char *p = (const unsigned char *) word; *p; p++) {
      if (*p < 0x20 || *p == 0x7f)
        fprintf (out, "\\x%02x", *p);
      else if (*p == '\'' || *p == '\\')
        fprintf (out, "\\%c", *p);
      else
        fputc (*p, out);
    }
    fputc ('\'', out);
  }
}

typedef struct {
  const char *dir;
  int nodes; /* 0: every responding node */
  const char *nodelist;
  const char *partition;
  int time;        /* minutes */
  int gpus;        /* per node, or MS_CLI_ALL */
  double wait_max; /* minutes; 0: the time limit and ten more */
  const char *extra[16];
  int n_extra;
  bool dry_run;
  int run_options; /* where the run options begin in argv */
} FleetArgs;

/* Whether c may stand in a node's name as Slurm's host lists write it. */
static bool
host_char (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

/* --nodelist: host names and ranges (gpu[001-016,020]) between commas.
 * A name becomes a file name, a job's --output pattern (where '%' is
 * Slurm's) and words of a shell line: a character of no host name, an
 * empty name, one that starts with '.' or '-', or one too long to keep
 * whole is refused, naming it, before anything is submitted. */
static bool
nodelist_ok (const char *list)
{
  int depth = 0;
  size_t len = 0;
  const char *start = list, *why = NULL;
  for (const char *p = list; !why; p++) {
    if (*p == '[' || *p == ']') {
      depth += *p == '[' ? 1 : -1;
      why = depth < 0 || depth > 1 ? ms_gettext ("unbalanced brackets") : NULL;
    } else if (*p && (*p != ',' || depth > 0)) {
      why = host_char (*p) || (depth > 0 && *p == ',')
              ? NULL
              : ms_gettext ("only letters, digits, '-', '_' and '.' make a host name");
    } else {
      why = len == 0                          ? ms_gettext ("an empty name")
            : *start == '.' || *start == '-' ? ms_gettext ("a name may not start with '.' or '-'")
            : len > 100                      ? ms_gettext ("a name longer than 100 characters")
            : depth != 0                     ? ms_gettext ("unbalanced brackets")
                                              : NULL;
      if (!*p || why)
        break;
      start = p + 1;
      len = 0;
      continue;
    }
    len++;
  }
  if (!why)
    return true;
  char clean[4 * 256 + 16];
  ms_cli_error (ms_gettext ("--nodelist '%s': %s\n"), ms_report_clean (list, clean, sizeof clean),
                why);
  return false;
}

/* -1 to go on, or the exit status: nothing is made or submitted before.
 * 0 GPUs would submit a job with no GPU request that measures every GPU
 * the node has: refused, as a count must be one or more. */
static int
parse_fleet_args (int argc, char **argv, FleetArgs *a)
{
  const MsCliBind binds[] = { { 'd', &a->dir },       { 'N', &a->nodes },   { 'w', &a->nodelist },
                              { 'p', &a->partition }, { 't', &a->time },    { 'g', &a->gpus },
                              { 'W', &a->wait_max },  { 'n', &a->dry_run }, { 0 } };
  MsCliArgs args;
  int c;
  a->time = 30;
  a->gpus = MS_CLI_ALL;
  ms_cli_args_init (&args, "fleet", argc, argv);
  args.first_operand_ends = true;
  while ((c = ms_cli_args_next_bound (&args, NULL, binds)) != -1) {
    if (c != 'x')
      return 2; /* '?' */
    if (a->n_extra == 16) {
      ms_cli_error (ms_gettext ("at most 16 --sbatch-arg\n"));
      return 2;
    }
    a->extra[a->n_extra++] = args.value;
  }
  if (a->nodelist && !nodelist_ok (a->nodelist))
    return 2;
  a->run_options = args.operand;
  if (!a->dir) {
    ms_cli_error (ms_gettext ("--dir DIR is required\n"));
    return ms_cli_bad_usage ("fleet");
  }
  if (a->wait_max == 0)
    a->wait_max = a->time + 10;
  return -1;
}

/* A folder that already holds a node's results, or an earlier fleet's
 * list of nodes, would mix an earlier job's nodes into this job's report:
 * refused. */
static bool
folder_is_fresh (const char *dir)
{
  DIR *d = opendir (dir);
  for (struct dirent *e; d && (e = readdir (d));) {
    if (ms_csv_name_stem (e->d_name, "-samples.csv") ||
        strcmp (e->d_name, MS_FLEET_EXPECTED_FILE) == 0) {
      ms_cli_error (ms_gettext ("%s already holds results (%s): give a new or empty folder\n"),
                    dir, e->d_name);
      closedir (d);
      return false;
    }
  }
  if (d)
    closedir (d);
  return true;
}

/* The srun step a node runs, as one shell word list for --wrap: one task,
 * which measures the node's GPUs one after another. */
static bool
build_wrap (char *wrap, size_t len, const char *self, const char *dir, const MsFleetExpected *node,
            int argc, char **argv)
{
  char gpus[16];
  snprintf (gpus, sizeof gpus, "%d", node->gpus);
  const char *words[] = { self,     "fleet-node", "--dir", dir, "--node", node->node,
                          "--gpus", node->gpus > 0 ? gpus : "all", "--" };
  int n = (int) (sizeof words / sizeof *words);
  FILE *f = fmemopen (wrap, len, "w");
  if (!f)
    return false;
  fputs ("srun --ntasks=1", f);
  for (int i = 0; i < n + argc; i++) {
    fputc (' ', f);
    put_quoted (f, i < n ? words[i] : argv[i - n]);
  }
  /* A line that filled the buffer was cut. */
  bool ok = !ferror (f) && ftell (f) < (long) len - 1;
  return fclose (f) == 0 && ok;
}

/* One node's job: submitted (its id in node->job), or printed for
 * --dry-run. False when sbatch failed. */
static bool
submit_node (const FleetArgs *a, const char *dir, const char *wrap, MsFleetExpected *node)
{
  char *sb[48] = { "sbatch", "--parsable", "--job-name=memsweep-fleet", "--nodes=1",
                   "--ntasks=1", "--exclusive" };
  int n = 6;
  char out[PATH_MAX + 200], part[256], time_arg[64], list[200], gres[64], opt[8192 + 16];
  snprintf (out, sizeof out, "--output=%s/fleet-%s-%%j.out", dir, node->node);
  sb[n++] = out;
  sb[n++] = (snprintf (list, sizeof list, "--nodelist=%s", node->node), list);
  sb[n++] = (snprintf (time_arg, sizeof time_arg, "--time=%d", a->time), time_arg);
  if (a->partition)
    sb[n++] = (snprintf (part, sizeof part, "--partition=%s", a->partition), part);
  if (node->gpus > 0)
    sb[n++] = (snprintf (gres, sizeof gres, "--gres=gpu:%d", node->gpus), gres);
  for (int i = 0; i < a->n_extra; i++)
    sb[n++] = (char *) a->extra[i];
  snprintf (opt, sizeof opt, "--wrap=%s", wrap);
  sb[n++] = opt;
  sb[n] = NULL;
  if (a->dry_run || ms_cli_verbose ()) {
    /* What a user can paste into a shell. */
    FILE *to = a->dry_run ? stdout : stderr;
    for (int i = 0; i < n; i++) {
      if (i)
        fputc (' ', to);
      put_shell_word (to, sb[i]);
    }
    fputc ('\n', to);
  }
  if (a->dry_run)
    return true;
  char id[256];
  int rc = slurm_capture (sb, id, sizeof id);
  id[strcspn (id, ";\n")] = '\0';
  if (rc != 0 || !id[0]) {
    ms_cli_error (ms_gettext ("sbatch for node %s failed (exit %d)\n"), node->node, rc);
    return false;
  }
  /* --parsable answers a job id, "ID" or "ID;CLUSTER": anything else (a
   * wrapper's words) would be waited on as a job that never ends. */
  if (strspn (id, "0123456789") != strlen (id) || strlen (id) >= sizeof node->job) {
    char clean[1024];
    ms_cli_error (ms_gettext ("sbatch for node %s answered '%s', not a job "
                              "id: not submitted, or not as memsweep can follow\n"),
                  node->node, ms_report_clean (id, clean, sizeof clean));
    return false;
  }
  snprintf (node->job, sizeof node->job, "%s", id);
  return true;
}

/* Every node's job, the list of what was expected, the wait; the number
 * of nodes whose job was not submitted or did not finish. */
static int
submit_all (const FleetArgs *a, const char *self, const char *dir, MsFleetExpected *nodes,
            size_t n, int argc, char **argv)
{
  char wrap[8192], err[512];
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    if (a->gpus != MS_CLI_ALL)
      nodes[i].gpus = a->gpus;
    if (!build_wrap (wrap, sizeof wrap, self, dir, &nodes[i], argc, argv)) {
      ms_cli_error (ms_gettext ("run options too long\n"));
      return -1;
    }
    failed += !submit_node (a, dir, wrap, &nodes[i]);
  }
  if (a->dry_run)
    return 0;
  char expected[PATH_MAX + 64];
  snprintf (expected, sizeof expected, "%s/%s", dir, MS_FLEET_EXPECTED_FILE);
  if (!ms_cli_plan_file ("--dir", expected))
    return -1;
  if (!ms_fleet_write_expected (dir, nodes, n, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    return -1;
  }
  if (!ms_cli_quiet ())
    ms_cli_error (ms_gettext ("%zu jobs submitted, waiting at most %.0f minutes\n"),
                  n - (size_t) failed, a->wait_max);
  return failed + slurm_wait (nodes, n, a->wait_max);
}

/* The fleet's folder --dir, resolved into dir (PATH_MAX): made now, or
 * with --dry-run, which makes nothing, only where it would be (*made
 * false when it is not there yet). A folder whose parent is missing, or a
 * file there, is the user's to fix: false after a message (exit 2). */
static bool
fleet_folder (const char *given, bool dry_run, char *dir, bool *made)
{
  struct stat st;
  *made = stat (given, &st) == 0;
  if (*made && S_ISDIR (st.st_mode) && realpath (given, dir))
    return true;
  if (*made || errno != ENOENT) {
    ms_cli_error ("--dir: %s: %s\n", given, strerror (*made ? ENOTDIR : errno));
    return false;
  }
  char parent[PATH_MAX], resolved[PATH_MAX];
  snprintf (parent, sizeof parent, "%s", given);
  char *slash = strrchr (parent, '/');
  const char *base = slash ? slash + 1 : given;
  if (slash)
    slash == parent ? (void) (parent[1] = '\0') : (void) (*slash = '\0');
  else
    snprintf (parent, sizeof parent, ".");
  if (!*base || !realpath (parent, resolved) || stat (resolved, &st) != 0 ||
      !S_ISDIR (st.st_mode)) {
    ms_cli_error (ms_gettext ("--dir: %s: its folder %s does not exist\n"), given, parent);
    return false;
  }
  if (dry_run) {
    if (snprintf (dir, PATH_MAX, "%s/%s", strcmp (resolved, "/") ? resolved : "", base) <
        PATH_MAX)
      return true;
    ms_cli_error ("--dir: %s: %s\n", given, strerror (ENAMETOOLONG));
    return false;
  }
  if ((mkdir (given, 0777) != 0 && errno != EEXIST) || !realpath (given, dir)) {
    ms_cli_error ("--dir: %s: %s\n", given, strerror (errno));
    return false;
  }
  *made = true;
  return true;
}

int
ms_cli_fleet (int argc, char **argv)
{
  FleetArgs a = { 0 };
  int rc = parse_fleet_args (argc, argv, &a);
  if (rc >= 0)
    return rc;
  char self[PATH_MAX], dir[PATH_MAX];
  bool made = false;
  if (!fleet_folder (a.dir, a.dry_run, dir, &made))
    return 2;
  if (!self_path (self, sizeof self)) {
    ms_cli_error (ms_gettext ("cannot resolve %s or this program's path\n"), a.dir);
    return 1;
  }
  /* Every node would fail the same way: say so before submitting. A
   * folder --dry-run leaves unmade is checked as a name in its parent. */
  char check[PATH_MAX + 16];
  snprintf (check, sizeof check, made ? "%s/node" : "%s-node", dir);
  if (!ms_cli_prefix_ok ("--dir", check))
    return 2;
  int first = a.run_options;
  rc = ms_cli_check_run_options ("fleet", check, true, argc - first, argv + first);
  if (rc >= 0)
    return rc;
  if (!folder_is_fresh (dir))
    return 2;
  size_t n;
  MsFleetExpected *nodes;
  if (a.dry_run && !slurm_answers (a.partition)) {
    /* The plan is what would be submitted: it needs no cluster to print. */
    if (!ms_cli_quiet ())
      ms_cli_error (ms_gettext ("--dry-run: Slurm does not answer here (sinfo "
                                "failed): the plan for the nodes as named, each with the "
                                "GPUs Slurm would report\n"));
    nodes = slurm_plan_nodes (a.nodelist, a.nodes, &n);
  } else {
    nodes = slurm_nodes (a.nodelist, a.nodes, a.partition, &n);
  }
  if (!nodes)
    return 1;
  int missing = submit_all (&a, self, dir, nodes, n, argc - first, argv + first);
  free (nodes);
  if (missing < 0)
    return 1;
  if (a.dry_run)
    return 0;
  char *report[] = { argv[0], (char *) dir, NULL };
  rc = ms_cli_fleet_report (2, report);
  return rc == 0 && missing > 0 ? 1 : rc;
}

/* The serial and link of GPU gpu for the stamp, or of every GPU this node
 * has when gpu is -1; its PCI bus id in bus_id; the GPUs seen. */
static int
gather_stamp (MsFleetStamp *stamp, int gpu, char *bus_id, size_t bus_len)
{
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  int count = ms_backend_query_device (backend, 0, &info) ? info.count : 0;
  bool first = true;
  for (int i = gpu < 0 ? 0 : gpu; i < (gpu < 0 ? count : gpu + 1) && i < count; i++) {
    if (!ms_backend_query_device (backend, i, &info))
      continue;
    char serial[64] = "", link[32] = "unknown";
    if (!ms_nvml_serial (info.pci_bus_id, serial, sizeof serial))
      snprintf (serial, sizeof serial, "unknown");
    if (info.pcie_gen > 0)
      snprintf (link, sizeof link, "gen%dx%d", info.pcie_gen, info.pcie_width);
    size_t ns = strlen (stamp->serials), nl = strlen (stamp->links);
    snprintf (stamp->serials + ns, sizeof stamp->serials - ns, "%s%s", first ? "" : ",", serial);
    snprintf (stamp->links + nl, sizeof stamp->links - nl, "%s%s", first ? "" : ",", link);
    if (bus_id)
      snprintf (bus_id, bus_len, "%s", info.pci_bus_id);
    first = false;
  }
  ms_backend_free (backend);
  return count;
}

/* The samples file's identity, to tell a new one from one left before. */
static void
file_identity (const char *path, struct stat *st)
{
  if (stat (path, st) != 0)
    memset (st, 0, sizeof *st);
}

/* DIR/NODE for the node's one run, DIR/NODE-BUSID (the bus id's ':' as
 * '-') or DIR/NODE-gpuK for GPU K. */
static void
node_prefix (char *prefix, size_t len, const char *dir, const char *node, int gpu)
{
  char bus_id[32] = "";
  if (gpu >= 0) {
    gather_stamp (&(MsFleetStamp) { 0 }, gpu, bus_id, sizeof bus_id);
    for (char *p = bus_id; *p; p++)
      *p = *p == ':' || *p == '/' ? '-' : *p;
    if (!bus_id[0])
      snprintf (bus_id, sizeof bus_id, "gpu%d", gpu);
  }
  snprintf (prefix, len, "%s/%s%s%s", dir, node, bus_id[0] ? "-" : "", bus_id);
}

/* A node's (or its GPU's) pair and sidecar, which its run writes and
 * fleet-node then stamps: in the plan, as run's own. */
static bool
plan_node_files (const char *dir, const char *node, int gpu)
{
  char prefix[PATH_MAX + 256], samples[PATH_MAX], summary[PATH_MAX];
  node_prefix (prefix, sizeof prefix, dir, node, gpu);
  /* Under --compress (a run option, parsed by then) run writes the .gz
   * names: the plan, and the stamp after the run, name those. */
  return ms_cli_pair_ok ("--dir, --node", prefix, samples, summary);
}
/* The run's files under prefix, each form, whose temporaries a killed
 * run leaves behind. */
static void
remove_run_temporaries (const char *prefix)
{
  static const char *const suffixes[] = { "-samples.csv", "-summary.csv", "-meta.json",
                                          "-samples.csv.gz", "-summary.csv.gz" };
  char path[PATH_MAX];
  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
    if (snprintf (path, sizeof path, "%s%s", prefix, suffixes[i]) < (int) sizeof path)
      ms_atomic_file_remove_stale (path);
}

/* Whether the node's run options give run's option name, by any
 * abbreviation, as run's parser reads them. */
static bool
run_gives (int argc, char **argv, const char *name)
{
  char **words = calloc ((size_t) argc + 2, sizeof *words);
  bool given = words && (words[0] = (char *) "run",
                         memcpy (words + 1, argv, (size_t) argc * sizeof *words),
                         ms_cli_side_gives (words, argc + 1, name));
  free (words);
  return given;
}

/* One `memsweep run` (on GPU gpu, or as the options say when -1) and the
 * stamp of its samples file: run's exit status, or 1 when it wrote none. */
static int
sweep_one (const char *self, const char *dir, const char *node, int gpu, int argc, char **argv)
{
  char prefix[PATH_MAX + 256], path[PATH_MAX + 300], device[16], err[512];
  node_prefix (prefix, sizeof prefix, dir, node, gpu);
  char *run[56] = { (char *) self, "run", "--instrumented-reps=0", "--out", prefix };
  int n = 5;
  /* Quiet unless the node's own options ask for the run's progress:
   * --quiet beside their --verbose would refuse the run. */
  if (!run_gives (argc, argv, "verbose"))
    run[n++] = "--quiet";
  if (gpu >= 0) {
    snprintf (device, sizeof device, "%d", gpu);
    run[n++] = "--device";
    run[n++] = device;
  }
  /* The fleet compares nodes on the copies' own times, which only
   * instrumented repetitions have: every repetition is one here (the
   * node's own options, after it, may still say otherwise). */
  for (int i = 0; i < argc; i++)
    run[n++] = argv[i];
  run[n] = NULL;
  struct stat before, after;
  ms_cli_output_name (prefix, "-samples.csv", path, sizeof path);
  ms_cli_say (ms_gettext ("fleet-node: %s: measuring GPU %s into %s"), node,
              gpu >= 0 ? device : "-", path);
  file_identity (path, &before);
  /* Supervised (ms-supervisor.h): a stop reaches the run once, which
   * writes what it measured, stamped below as any other. */
  MsChild child;
  MsChildEnd end = { MS_CHILD_EXITED, -1, false };
  if (ms_supervisor_spawn (&child, self, run, NULL, NULL))
    end = ms_supervisor_wait (&child, ms_cli_stop_on_signals ());
  int rc = end.how == MS_CHILD_EXITED ? end.code : 128 + end.code;
  file_identity (path, &after);
  /* A failed cell (exit 1) still leaves a file worth comparing; a file an
   * earlier sweep left is not this one's (each write is a new file). */
  bool fresh = after.st_ino != 0 && (after.st_ino != before.st_ino || after.st_dev != before.st_dev);
  /* Killed by someone else, the run could not take away what it was
   * writing in the fleet's folder. */
  if (end.how != MS_CHILD_EXITED)
    remove_run_temporaries (prefix);
  if (!fresh) {
    /* How it ended in words: a signal by its name, not as 128 + N, which
     * no run exits with. */
    char how[256];
    ms_cli_error (ms_gettext ("%s: memsweep run %s and wrote no samples file (%s)\n"),
                  node, ms_supervisor_describe (&end, how, sizeof how), path);
    /* A run's own statuses pass through; a death by a signal is a failure
     * of the run (1), not fleet-node's own death. */
    return rc >= 1 && rc <= 4 ? rc : EXIT_RUNTIME;
  }
  MsFleetStamp stamp = { 0 };
  if (rc > 4)
    rc = EXIT_RUNTIME;
  snprintf (stamp.node, sizeof stamp.node, "%s", node);
  if (gpu >= 0)
    snprintf (stamp.gpu, sizeof stamp.gpu, "%d", gpu);
  gather_stamp (&stamp, gpu, stamp.bus_id, sizeof stamp.bus_id);
  if (!ms_fleet_stamp (path, &stamp, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    /* A run that could not write its files kept them, and said where:
     * its status stands. */
    return rc == EXIT_WRITE ? EXIT_WRITE : EXIT_RUNTIME;
  }
  return rc;
}

/* A node's name is data that ends up in a file name, the sidecar (JSON)
 * and fleet-report's tables and OpenMetrics labels: NODE-samples.csv must
 * be a file of DIR that fleet-report lists (no '/', no leading '.': ".",
 * ".." and hidden files it skips), and the name must read the same
 * everywhere (UTF-8, no control characters such as a line break or a
 * tab). False after saying why. */
static bool
node_name_ok (const char *node)
{
  const char *why = NULL;
  if (strchr (node, '/') || node[0] == '.')
    why = ms_gettext ("a node's name may not contain '/' or start with '.'");
  else if (!ms_utf8_valid (node, strlen (node), NULL) || ms_utf8_has_control (node))
    why = ms_gettext ("a node's name must be UTF-8 text without control characters");
  if (!why)
    return true;
  char clean[4 * 256 + 16];
  ms_cli_error (ms_gettext ("bad node name '%s': %s\n"),
                ms_report_clean (node, clean, sizeof clean), why);
  return false;
}

int
ms_cli_fleet_node (int argc, char **argv)
{
  const char *dir = NULL, *node = getenv ("SLURMD_NODENAME");
  char host[256] = "";
  int gpus = MS_CLI_ALL;
  const MsCliBind binds[] = { { 'd', &dir }, { 'n', &node }, { 'g', &gpus }, { 0 } };
  MsCliArgs args;
  ms_cli_args_init (&args, "fleet-node", argc, argv);
  args.first_operand_ends = true;
  if (ms_cli_args_next_bound (&args, NULL, binds) != -1)
    return 2;
  int first = args.operand;
  if (!dir) {
    ms_cli_error (ms_gettext ("--dir DIR is required\n"));
    return ms_cli_bad_usage ("fleet-node");
  }
  if (!node || !*node)
    node = gethostname (host, sizeof host - 1) == 0 ? host : "unknown";
  if (!node_name_ok (node))
    return 2;
  char self[PATH_MAX], prefix[PATH_MAX + 256];
  snprintf (prefix, sizeof prefix, "%s/%s", dir, node);
  /* Every node may get here first. */
  if (mkdir (dir, 0777) != 0 && errno != EEXIST) {
    int why = errno;
    /* Before any run: a measuring command that exits 4 says whether
     * anything measured is lost (docs/cli.md). */
    ms_cli_error (ms_gettext ("%s: %s: nothing was measured\n"), dir, strerror (why));
    /* A --dir under no folder is the user's to fix; one that could not
     * be made (no space, no inodes, read-only) an output not written. */
    return why == ENOENT || why == ENOTDIR ? EXIT_USAGE : EXIT_WRITE;
  }
  if (!self_path (self, sizeof self) || argc - first > 40) {
    ms_cli_error ("%s", ms_gettext ("cannot find this program, or too many options\n"));
    return 1;
  }
  if (!ms_cli_prefix_ok ("--dir, --node", prefix))
    return 2;
  int rc = ms_cli_check_run_options ("fleet-node", prefix, true, argc - first, argv + first);
  if (rc >= 0)
    return rc;
  /* GPUs to measure one by one: --gpus N, or every GPU this node shows
   * for "all"; 0 for one run as the options say (no GPU seen). */
  int n_gpus = gpus == MS_CLI_ALL ? gather_stamp (&(MsFleetStamp) { 0 }, -1, NULL, 0) : gpus;
  /* The run option it sets itself per GPU. */
  if (n_gpus > 0 && run_gives (argc - first, argv + first, "device")) {
    ms_cli_error (ms_gettext ("--device is set by fleet-node itself for "
                              "each GPU, not a run option\n"));
    return 2;
  }
  /* The files each GPU's run leaves, which this command stamps. */
  for (int gpu = n_gpus > 0 ? 0 : -1; gpu < n_gpus; gpu++)
    if (!plan_node_files (dir, node, gpu))
      return 2;
  /* Each GPU alone, one after another: the fleet compares GPUs, not how
   * a node's GPUs share its host (`memsweep multi` measures that). */
  /* Without GPUs, one sweep (gpu -1). A stop that came as the last run
   * was finishing its files (or while this process was stopped) found
   * nothing left to stop: said, and exit 1 all the same, as run does. */
  int worst = 0;
  atomic_int *cancel = ms_cli_stop_on_signals ();
  for (int gpu = n_gpus > 0 ? 0 : -1; gpu < n_gpus && !ms_supervisor_stopping (cancel); gpu++) {
    rc = sweep_one (self, dir, node, gpu, argc - first, argv + first);
    worst = rc > worst ? rc : worst;
  }
  if (ms_supervisor_stopping (cancel) && worst == 0) {
    ms_cli_error (ms_gettext ("%s after its runs had finished; their files are written\n"),
                  ms_cli_signal_name (ms_supervisor_stop_signal ()));
    return EXIT_RUNTIME;
  }
  return worst;
}
