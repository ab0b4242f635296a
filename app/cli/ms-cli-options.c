/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-options.c: the one table of memsweep's commands and their
 * options: what the one parser reads, every --help and each command's
 * parser come from it. The commands read it; the dispatch
 * (memsweep-cli.c) calls the parser it names. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ms-cli-options.h"
#include "ms-cli-output.h"
#include "ms-cli-run-options.h"
#include "ms-i18n.h"
#include "ms-setting-table.h"
#ifdef MS_HAVE_DRAW
#include "ms-cli-draw.h"
#define DRAWN(run) run
#else
#define DRAWN(run) NULL /* memsweep-draw's (ms-cli-draw-helper.h) */
#endif

/* The options of each command: the one list its parser (getopt_long's
 * table, ms_cli_getopt_table), the usage, the man page and the shell
 * completion (`memsweep __options`, tools/ms-cli-docs.py) come from. key is
 * the parser's getopt value. */
/* The kinds (MsCliKind) most lines give: what `memsweep __options` says
 * an option's value is, and how a command that binds it reads it. */
#define OUTPUT .kind = MS_CLI_OUTPUT
#define INPUT .kind = MS_CLI_INPUT
#define CHOICE .kind = MS_CLI_CHOICE
#define PREFIX .kind = MS_CLI_PREFIX
#define NUMBER .kind = MS_CLI_NUMBER
/* Every command that prints progress. */
#define PROGRESS_OPTIONS                                                      \
  { "quiet", NULL, MS_CLI_KEY_QUIET, MS_N_ ("nothing but errors") },          \
  { "verbose", NULL, MS_CLI_KEY_VERBOSE,                                      \
    MS_N_ ("what it is doing, on standard error") }
/* Every command that prints a table takes the same output options
 * (ms-cli-output.h; docs/cli.md, "Output"); its exports' "wrote" lines
 * make it one that prints progress too. --compress acts on the CSV files
 * the command writes: always for those that write their own (run, lesson,
 * calibrate), through the options given as compress_needs for the others. */
#define OUTPUT_OPTIONS OUTPUT_OPTIONS_COMPRESSING (NULL)
#define OUTPUT_OPTIONS_COMPRESSING(compress_needs)                           \
  { "format", "table|json|csv|markdown|text", MS_CLI_KEY_FORMAT,              \
    MS_N_ ("what goes to standard output (default table; text: the same)"), CHOICE }, \
  { "export-json", "FILE", MS_CLI_KEY_EXPORT_JSON,                           \
    MS_N_ ("also write the JSON into FILE (-: standard output)"), MS_CLI_REPEATS, OUTPUT }, \
  { "export-csv", "FILE", MS_CLI_KEY_EXPORT_CSV,                             \
    MS_N_ ("also write the table as CSV into FILE"), MS_CLI_REPEATS, OUTPUT }, \
  { "export-markdown", "FILE", MS_CLI_KEY_EXPORT_MARKDOWN,                   \
    MS_N_ ("also write the table as markdown into FILE"), MS_CLI_REPEATS, OUTPUT }, \
  { "compress", NULL, MS_CLI_KEY_COMPRESS,                                   \
    MS_N_ ("write the CSV files gzip-compressed, their names ending .gz"), 0, \
    compress_needs },                                                         \
  PROGRESS_OPTIONS

static const MsCliOption info_options[] = {
  { "device", "I", 'd', MS_N_ ("the CUDA device to describe (default 0)"), .kind = MS_CLI_COUNT,
    .max = INT_MAX },
  OUTPUT_OPTIONS_COMPRESSING ("export-csv"),
  { NULL },
};
static const MsCliOption modes_options[] = {
  OUTPUT_OPTIONS_COMPRESSING ("export-csv"),
  { NULL },
};
/* run's own options; its sweep settings follow from the engine's setting
 * table (ms-setting-table.c). */
static const MsCliOption run_options[] = {
  { "out", "PREFIX", 'O', MS_N_ ("write PREFIX-samples.csv and PREFIX-summary.csv"), PREFIX },
  { "profile", "FILE", 'P', MS_N_ ("widen the intervals by this run-to-run profile"), INPUT },
  { "no-profile", NULL, 'N', MS_N_ ("within-run intervals only") },
  { "grade", NULL, 'G', MS_N_ ("a compare-grade run (docs/compare.md)") },
  OUTPUT_OPTIONS,
  { NULL },
};
static const MsCliOption show_options[] = {
  OUTPUT_OPTIONS_COMPRESSING ("export-csv|out"),
  { "out", "FILE", 'o', MS_N_ ("write what standard output would get into FILE alone"), OUTPUT },
  { "envelopes", "FILE", 'e', MS_N_ ("judge the key figures against this envelope file"), INPUT },
  { NULL },
};
/* compare --live's and siblings' --budget: whole seconds, as one rule. */
#define BUDGET_SECONDS .kind = MS_CLI_COUNT, .min = 1, .max = 86400
static const MsCliOption compare_options[] = {
  { "threshold", "PCT", 't', MS_N_ ("the difference that matters, in percent"), NUMBER },
  { "mode", "M", 'm', MS_N_ ("only the cells of memory mode M") },
  { "figure", "F", 'g', MS_N_ ("e2e, h2d, kernel or d2h") },
  OUTPUT_OPTIONS_COMPRESSING ("export-csv|out"),
  { "json", NULL, 'j', MS_N_ ("the same as --format json") },
  { "plot", "FILE", 'p', MS_N_ ("draw the ratio B/A against size into FILE"), OUTPUT },
  { "live", NULL, 'l', MS_N_ ("measure A and B now, a process of each in turn"),
    MS_CLI_STOPS_ON_SIGNALS },
  { "a", "OPTIONS", 'A', MS_N_ ("with --live: A's run options, in one argument"), 0, "live",
    MS_CLI_HANDED_ON },
  { "b", "OPTIONS", 'B', MS_N_ ("with --live: B's run options, in one argument"), 0, "live",
    MS_CLI_HANDED_ON },
  { "a-experiment", "X", 'X', MS_N_ ("with --live: A's experiment switch"), 0, "live" },
  { "b-experiment", "X", 'Y', MS_N_ ("with --live: B's experiment switch"), 0, "live" },
  { "budget", "SECONDS", 'u', MS_N_ ("with --live: the most time to measure"), 0, "live",
    BUDGET_SECONDS },
  { "out", "PREFIX", 'o', MS_N_ ("with --live: keep both runs as PREFIX-a and PREFIX-b"), 0,
    "live", MS_CLI_PREFIX },
  { NULL },
};
/* The drawing commands, in a build with the drawing library or its
 * helper memsweep-draw (ms-cli-draw-helper.h). */
#if defined(MS_HAVE_DRAW) || defined(MS_DRAW_HELPER)
static const MsCliOption plot_options[] = {
  { "view", "VIEW", 'v', MS_N_ ("bandwidth, h2d, d2h, time, breakdown, timeline or lesson") },
  { "format", "png|svg|pdf", 'f', MS_N_ ("the picture's format (default: OUT's extension)"),
    CHOICE },
  { "out", "OUT", 'o', MS_N_ ("the file to write (-: standard output, with --format)"), OUTPUT },
  { "pixels", "WxH", 'p', MS_N_ ("image size in pixels (points for PDF)"), NUMBER },
  { "size", "N", 's', MS_N_ ("the timeline's size (WxH: the same as --pixels)"), NUMBER },
  { "no-caption", NULL, 'n', MS_N_ ("no caption line") },
  { "mode", "M", 'm', MS_N_ ("the timeline's memory mode") },
  /* Text: plot checks it against the cell's repetitions once it is read. */
  { "rep", "R", 'r', MS_N_ ("the timeline's repetition, from 1") },
  { "variant", "V", 'V', MS_N_ ("the timeline's cell with this variant") },
  { "all-phases", NULL, 'a', MS_N_ ("the whole repetition in the timeline") },
  { "lesson", "NAME", 'L', MS_N_ ("with --view lesson: the lesson a plain sweep answers") },
  PROGRESS_OPTIONS,
  { NULL },
};
static const MsCliOption report_options[] = {
  { "out", "REPORT", 'o', MS_N_ ("the report to write, .pdf or .html (-: standard output)"),
    OUTPUT },
  { "format", "pdf|html", 'f', MS_N_ ("the report's format (default: REPORT's extension)"),
    CHOICE },
  { "handout", NULL, 'H', MS_N_ ("one lesson's run as a one-page PDF handout") },
  { "lesson", "NAME", 'L', MS_N_ ("with --handout: the lesson a plain sweep answers"), 0,
    "handout" },
  PROGRESS_OPTIONS,
  { NULL },
};
#endif
/* multi, peer and portable share one parser (ms-cli-multi.c), which reads
 * each command's own list: a sweep's settings are multi's, the one size
 * peer's and portable's. */
/* The bound of multi's whole numbers; the engine checks each range. */
#define WHOLE .kind = MS_CLI_COUNT, .max = 1000000
#define GPUS_OPTIONS                                                          \
  { "devices", "LIST", 'D', MS_N_ ("the GPUs to measure: indices, or all"),   \
    .kind = MS_CLI_DEVICES, .min = 1 },                                       \
  { "reps", "N", 'r', MS_N_ ("repetitions per cell"), WHOLE },                \
  { "out", "PREFIX", 'o', MS_N_ ("where the files go"), PREFIX }
static const MsCliOption multi_options[] = {
  GPUS_OPTIONS,
  { "modes", "LIST", 'm', MS_N_ ("the memory modes to measure") },
  { "min-exp", "E", 'a', MS_N_ ("the smallest size, 2^E elements"), WHOLE },
  { "max-exp", "E", 'b', MS_N_ ("the largest size, 2^E elements"), WHOLE },
  { "step", "S", 's', MS_N_ ("the step between size exponents"), WHOLE },
  { "warmup", "N", 'w', MS_N_ ("warm-up repetitions per cell"), WHOLE },
  { "solo", NULL, 'S', MS_N_ ("also each GPU alone, for the slowdown") },
  OUTPUT_OPTIONS_COMPRESSING ("export-csv"),
  { NULL },
};
static const MsCliOption one_size_options[] = {
  GPUS_OPTIONS,
  { "exp", "E", 'e', MS_N_ ("the one size, 2^E elements"), .kind = MS_CLI_COUNT,
    .max = MS_MAX_EXPONENT },
  OUTPUT_OPTIONS_COMPRESSING ("export-csv"),
  { NULL },
};
static const MsCliOption siblings_options[] = {
  { "devices", "LIST", 'D', MS_N_ ("the GPUs to check: indices, or all (default)"),
    .kind = MS_CLI_DEVICES, .min = 2 },
  { "run", "OPTIONS", 'R', MS_N_ ("each GPU's run options (default: the default sweep)"),
    .kind = MS_CLI_HANDED_ON },
  { "budget", "SECONDS", 'u', MS_N_ ("stop before a turn would overrun it (default 85)"),
    BUDGET_SECONDS },
  { "threshold", "PCT", 't', MS_N_ ("the difference that matters, in percent"), NUMBER },
  { "gpu-experiment", "I:SWITCHES", 'X',
    MS_N_ ("MEMSWEEP_EXPERIMENT on GPU I alone, to prove the check") },
  OUTPUT_OPTIONS_COMPRESSING ("export-csv"),
  { NULL },
};
#define COPY_EXPONENT .kind = MS_CLI_COUNT, .min = 10, .max = 28
static const MsCliOption host_link_options[] = {
  { "devices", "LIST", 'D', MS_N_ ("the GPUs: indices, or all (default)"), .kind = MS_CLI_DEVICES,
    .min = 1 },
  { "min-exp", "E", 'a', MS_N_ ("the smallest copy, 2^E floats (default 22)"), COPY_EXPONENT },
  { "max-exp", "E", 'b', MS_N_ ("the largest copy, 2^E floats (default 28)"), COPY_EXPONENT },
  { "step", "S", 's', MS_N_ ("the step between size exponents (default 2)"), .kind = MS_CLI_COUNT,
    .min = 1, .max = 18 },
  { "out", "PREFIX", 'o', MS_N_ ("also write PREFIX-host-link.csv and its sidecar"), PREFIX },
  PROGRESS_OPTIONS,
  { NULL },
};
/* "all", or a count of a node's GPUs. */
#define GPUS_OF_A_NODE .kind = MS_CLI_COUNT_OR_ALL, .min = 1, .max = 4096
static const MsCliOption fleet_options[] = {
  { "dir", "DIR", 'd', MS_N_ ("the folder every node shares, for the results"), OUTPUT },
  { "nodes", "N", 'N', MS_N_ ("the number of nodes"), .kind = MS_CLI_COUNT, .min = 1,
    .max = 100000 },
  { "nodelist", "LIST", 'w', MS_N_ ("the nodes, as Slurm names them") },
  { "partition", "PARTITION", 'p', MS_N_ ("the Slurm partition") },
  { "gpus-per-node", "N|all", 'g', MS_N_ ("the GPUs of each node to measure (default: all)"),
    GPUS_OF_A_NODE },
  { "time", "MINUTES", 't', MS_N_ ("each job's time limit (default 30)"), .kind = MS_CLI_COUNT,
    .min = 1, .max = 525600 },
  { "wait-max", "MINUTES", 'W', MS_N_ ("how long to wait for the jobs (default: --time + 10)"),
    .kind = MS_CLI_NUMBER, .range = MS_N_ ("minutes over 0") },
  { "sbatch-arg", "ARG", 'x', MS_N_ ("one more argument for sbatch"), MS_CLI_REPEATS,
    .kind = MS_CLI_HANDED_ON },
  { "dry-run", NULL, 'n', MS_N_ ("print the job script, submit nothing") },
  PROGRESS_OPTIONS,
  { NULL },
};
static const MsCliOption fleet_node_options[] = {
  { "dir", "DIR", 'd', MS_N_ ("the fleet's folder"), OUTPUT },
  { "node", "NAME", 'n', MS_N_ ("this node's name (default: the host name)") },
  { "gpus", "N|all", 'g', MS_N_ ("how many of this node's GPUs to measure (default: all)"),
    GPUS_OF_A_NODE },
  PROGRESS_OPTIONS,
  { NULL },
};
static const MsCliOption fleet_report_options[] = {
  { "threshold", "PCT", 't', MS_N_ ("how far from the median flags a node, in percent"),
    .kind = MS_CLI_NUMBER, .max = 100, .range = MS_N_ ("a percentage over 0, under 100") },
  { "outliers", NULL, 'o', MS_N_ ("only the flagged nodes") },
  { "fail-on-outliers", NULL, 'f', MS_N_ ("exit 1 when a node is flagged") },
  OUTPUT_OPTIONS_COMPRESSING ("export-csv"),
  { "openmetrics", "FILE", 'm',
    MS_N_ ("also write the figures as OpenMetrics into FILE (-: standard output)"), OUTPUT },
  { NULL },
};
static const MsCliOption calibrate_options[] = {
  { "runs", "N", 'r', MS_N_ ("how many runs to measure the spread over"), .kind = MS_CLI_COUNT,
    .min = MS_CLI_PROFILE_MIN_RUNS, .max = MS_RR_MAX_RUNS },
  { "out", "PROFILE", 'o', MS_N_ ("where the profile goes (-: standard output)"), OUTPUT },
  { "grade", NULL, 'G', MS_N_ ("the spread of compare-grade runs (docs/compare.md)") },
  OUTPUT_OPTIONS,
  { NULL },
};
static const MsCliOption lesson_options[] = {
  { "sizes", "MIN:MAX[:STEP]", 'z', MS_N_ ("the size exponents") },
  { "reps", "N", 'r', MS_N_ ("repetitions per cell"), .kind = MS_CLI_SETTING },
  { "min-reps", "N", 'R', MS_N_ ("the adaptive rule's least repetitions"), .kind = MS_CLI_SETTING },
  { "warmup", "N", 'w', MS_N_ ("warm-up repetitions per cell"), .kind = MS_CLI_SETTING },
  { "device", "I", 'd', MS_N_ ("the CUDA device"), .kind = MS_CLI_SETTING },
  { "out", "PREFIX", 'O', MS_N_ ("write PREFIX-samples.csv and PREFIX-summary.csv"), PREFIX },
  { "parts", "N", 'P', MS_N_ ("the processes the experiment is split into"), NUMBER },
  { "option", "KEY=VALUE", 'o', MS_N_ ("one of the lesson's own options"), MS_CLI_REPEATS },
  OUTPUT_OPTIONS,
  { NULL },
};

/* The environment variables memsweep reads, the files it reads and
 * writes, and examples of its use, each said once: `memsweep --help`
 * prints them and `memsweep __options` hands them to the man page's
 * ENVIRONMENT, FILES and EXAMPLES (tools/cli-docs.py). */
const MsCliNote ms_cli_environment[] = {
  { "MEMSWEEP_EXPERIMENT",
    MS_N_ ("experiment switches for a run, comma-separated (inject=P adds a known change of P percent; "
           "docs/compare.md); recorded in the files, never on by default") },
  { "MEMSWEEP_PROFILES_DIR",
    MS_N_ ("the folder of the GPU models' run-to-run profiles, instead of the installed one") },
  { "MEMSWEEP_REFERENCE_DIR", MS_N_ ("the folder of the reference runs, instead of the installed one") },
  { "MEMSWEEP_ENVELOPES", MS_N_ ("the file of expected ranges, instead of the installed envelopes.csv") },
  { "MEMSWEEP_LOCALEDIR", MS_N_ ("the folder of the translations, instead of the installed one") },
  { "XDG_DATA_HOME", MS_N_ ("where the runs library and this machine's run-to-run profiles are "
                            "kept (default ~/.local/share)") },
  { "TMPDIR", MS_N_ ("where the processes of a compare-grade run or of compare --live keep their "
                     "files while they run (default /tmp)") },
  { "MEMSWEEP_SUPERVISED, MEMSWEEP_KEEP_DIR",
    MS_N_ ("set by memsweep for the processes it starts: such a process leaves a second stop "
           "signal to memsweep, and keeps what it measured in that folder (the command's own) "
           "where TMPDIR cannot hold it") },
  { "CUDA_VISIBLE_DEVICES", MS_N_ ("which GPUs CUDA shows memsweep; --device counts among them") },
  { "CUDA_DEVICE_MAX_CONNECTIONS",
    MS_N_ ("the hardware queues CUDA gives a process; the issue-order lesson sets it for its "
           "own processes") },
  { "CUDA_LAUNCH_BLOCKING", MS_N_ ("makes every launch wait; the sync-async lesson sets it for "
                                   "its own processes") },
  { "SLURMD_NODENAME", MS_N_ ("the node's name in a fleet run (fleet-node), when --node is not "
                              "given") },
  { "LC_ALL, LANGUAGE", MS_N_ ("the language of messages; files are written the same in every "
                               "locale") },
  { NULL, NULL },
};

/* @pkgdatadir@: the folder of the data memsweep ships, which the build
 * configures (its prefix and datadir): the man page names it as
 * configured (tools/cli-docs.py). */
const MsCliNote ms_cli_files[] = {
  { "PREFIX-samples.csv, PREFIX-summary.csv",
    MS_N_ ("a run: every repetition's phases, and a row per cell (docs/csv.md)") },
  { "PREFIX-meta.json", MS_N_ ("the run's metadata, a sidecar that belongs to those two files "
                               "(their names and hashes)") },
  { "$XDG_DATA_HOME/memsweep/runs/", MS_N_ ("the app's runs library: every sweep and lesson "
                                            "run, as it ends or stops") },
  { "$XDG_DATA_HOME/memsweep/run-to-run-*.csv",
    MS_N_ ("this machine's run-to-run profiles, one a GPU (calibrate)") },
  { "@pkgdatadir@/profiles/", MS_N_ ("the GPU models' run-to-run profiles shipped with "
                                     "memsweep") },
  { "@pkgdatadir@/reference/", MS_N_ ("runs recorded on an H100 and an H200, to open "
                                      "and compare without a GPU") },
  { "@pkgdatadir@/envelopes.csv", MS_N_ ("each key figure's expected range per GPU "
                                         "model and link") },
  { NULL, NULL },
};

const MsCliNote ms_cli_examples[] = {
  { "memsweep run", MS_N_ ("the default sweep of every mode: a table, two CSV files and their "
                           "metadata") },
  { "memsweep run --modes host", MS_N_ ("the CPU baseline alone, without a GPU") },
  { "memsweep lesson concurrent", MS_N_ ("one lesson: K kernels on one stream against K "
                                         "streams") },
  { "memsweep compare --live --b '--device 1'",
    MS_N_ ("two GPUs of one host measured in turn until every cell is decided") },
  { "memsweep run --grade --out before", MS_N_ ("a compare-grade run, to compare with one made "
                                                "after a change") },
  { "memsweep compare before-samples.csv after-samples.csv",
    MS_N_ ("what changed between two runs, cell by cell") },
  { "memsweep show run-samples.csv --format json", MS_N_ ("a run's figures as JSON") },
  { NULL, NULL },
};

static void
print_notes (FILE *out, const char *title, const MsCliNote *notes)
{
  fprintf (out, "%s\n", title);
  for (const MsCliNote *n = notes; n->name; n++)
    fprintf (out, "  %s\n      %s\n", n->name, ms_gettext (n->help));
}

void
ms_cli_print_environment (FILE *out)
{
  print_notes (out, ms_gettext ("Environment:"), ms_cli_environment);
  fputc ('\n', out);
  print_notes (out, ms_gettext ("Examples:"), ms_cli_examples);
}

/* The exit statuses: each command's list, from these lines (docs/cli.md,
 * "Exit status"). */
#define EXIT_OK_LINE { 0, MS_N_ ("success") }
#define EXIT_RUNTIME_LINE                                                       \
  { 1, MS_N_ ("runtime failure (a failed cell, or a stop by a signal, included)") }
#define EXIT_USAGE_LINE { 2, MS_N_ ("bad usage or bad input file") }
#define EXIT_NO_DEVICE_LINE { 3, MS_N_ ("no usable CUDA device, and nothing else") }
#define EXIT_WRITE_LINE                                                         \
  { 4, MS_N_ ("an output could not be written (a file or standard output)") }
#define EXIT_SIGNAL_LINE                                                        \
  { MS_CLI_EXIT_SIGNAL, MS_N_ ("ended at once by a third stop signal N (143: SIGTERM)") }
#define EXIT_END { 0, NULL }

/* Those every command shares, for memsweep --help; a command that
 * measures and stops on signals has them all (run, calibrate, lesson). */
static const MsCliExit shared_exits[] = {
  EXIT_OK_LINE, EXIT_RUNTIME_LINE, EXIT_USAGE_LINE, EXIT_NO_DEVICE_LINE, EXIT_WRITE_LINE,
  EXIT_SIGNAL_LINE, EXIT_END,
};
/* One that measures without stopping on signals (multi, peer, host-link). */
static const MsCliExit gpu_exits[] = {
  EXIT_OK_LINE, EXIT_RUNTIME_LINE, EXIT_USAGE_LINE, EXIT_NO_DEVICE_LINE, EXIT_WRITE_LINE,
  EXIT_END,
};
static const MsCliExit info_exits[] = {
  EXIT_OK_LINE, EXIT_USAGE_LINE, EXIT_NO_DEVICE_LINE, EXIT_WRITE_LINE, EXIT_END,
};
/* Reading files, no GPU (modes, show). */
static const MsCliExit reading_exits[] = {
  EXIT_OK_LINE, EXIT_USAGE_LINE, EXIT_WRITE_LINE, EXIT_END,
};
/* Drawing: 1 where the fonts or the drawing failed (plot, report). */
static const MsCliExit drawing_exits[] = {
  EXIT_OK_LINE, { 1, MS_N_ ("runtime failure (no fonts to draw with)") }, EXIT_USAGE_LINE,
  EXIT_WRITE_LINE, EXIT_END,
};
static const MsCliExit compare_exits[] = {
  { 0, MS_N_ ("no cell faster or slower") },
  { 1, MS_N_ ("a difference found") },
  { 2, MS_N_ ("bad input (a file that cannot be read, files of different kinds, no cell in "
              "common, a bad option)") },
  { 3, MS_N_ ("with --live: no usable CUDA device") },
  { 4, MS_N_ ("the plot or standard output could not be written") },
  { 5, MS_N_ ("no cell could be decided (every cell AMBIGUOUS), or a side of unknown "
              "metadata left cells outside the threshold undecided") },
  { MS_CLI_EXIT_SIGNAL, MS_N_ ("with --live: ended at once by a third stop signal N") },
  EXIT_END,
};
static const MsCliExit siblings_exits[] = {
  { 0, MS_N_ ("alike: every GPU the same as its siblings in every GPU mode") },
  { 1, MS_N_ ("a GPU differs, or a runtime failure") },
  EXIT_USAGE_LINE, EXIT_NO_DEVICE_LINE, EXIT_WRITE_LINE,
  { 5, MS_N_ ("undecided: no GPU named, some GPU mode still open (a longer --budget decides "
              "more)") },
  EXIT_SIGNAL_LINE, EXIT_END,
};
static const MsCliExit fleet_exits[] = {
  EXIT_OK_LINE, { 1, MS_N_ ("a node's job failed, was not submitted or did not finish") },
  EXIT_USAGE_LINE, EXIT_WRITE_LINE, EXIT_END,
};
static const MsCliExit fleet_report_exits[] = {
  { 0, MS_N_ ("every node's results read (with --fail-on-outliers: none flagged or "
              "missing)") },
  { 1, MS_N_ ("a file of the folder left out as unreadable (with --fail-on-outliers: also a "
              "node flagged or missing)") },
  { 2, MS_N_ ("bad usage, or no node's results could be read") },
  EXIT_WRITE_LINE, EXIT_END,
};

/* Every command: its name, what follows its name, what it does, its
 * options, its exit statuses and its parser. Hidden ones are memsweep
 * running itself. */
static const MsCliCommand commands[] = {
  { "info", NULL, MS_N_ ("device facts and which modes it supports"), info_options,
    .exits = info_exits, .run = ms_cli_info },
  { "modes", NULL, MS_N_ ("each memory mode with a one-line explanation"),
    modes_options, .exits = reading_exits, .run = ms_cli_modes },
  { "run", NULL, MS_N_ ("run a sweep, print a table, write CSV files"), run_options,
    MS_CLI_RUN_SETTINGS | MS_CLI_STOPS_ON_SIGNALS, shared_exits, .run = ms_cli_run },
  { "show", "FILE", MS_N_ ("print the summary of a samples CSV (no GPU needed)"),
    show_options, .exits = reading_exits, .run = ms_cli_show },
  { "compare", "A B",
    MS_N_ ("two runs cell by cell: same, faster, slower or ambiguous"), compare_options,
    .exits = compare_exits, .run = ms_cli_compare },
#if defined(MS_HAVE_DRAW) || defined(MS_DRAW_HELPER)
  { "plot", "FILE...", MS_N_ ("one of the app's views into a PNG, SVG or PDF file"),
    plot_options, .exits = drawing_exits, .run = DRAWN (ms_cli_plot) },
  { "report", "FILE...", MS_N_ ("a PDF or HTML report of one or more runs"),
    report_options, .exits = drawing_exits, .run = DRAWN (ms_cli_report) },
#endif
  { "multi", NULL, MS_N_ ("the sweep on several GPUs at once"), multi_options,
    .exits = gpu_exits, .run = ms_cli_multi },
  { "peer", NULL, MS_N_ ("peer copy matrix and topology"), one_size_options,
    .exits = gpu_exits, .run = ms_cli_peer },
  { "portable", NULL,
    MS_N_ ("portable vs per-GPU vs foreign pinned memory"), one_size_options,
    .exits = gpu_exits, .run = ms_cli_portable },
  { "siblings", NULL, MS_N_ ("the GPU that differs from the host's others"), siblings_options,
    MS_CLI_STOPS_ON_SIGNALS, siblings_exits, .run = ms_cli_siblings },
  { "host-link", NULL, MS_N_ ("the host link under every GPU at once, copies only"),
    host_link_options, .exits = gpu_exits, .run = ms_cli_host_link },
  { "fleet", "[-- RUN OPTIONS]", MS_N_ ("a sweep on every node through Slurm"),
    fleet_options, MS_CLI_HANDS_ON_RUN_OPTIONS, fleet_exits, .run = ms_cli_fleet },
  { "fleet-node", "[-- RUN OPTIONS]", MS_N_ ("one node's part of a fleet"),
    fleet_node_options, MS_CLI_STOPS_ON_SIGNALS | MS_CLI_HANDS_ON_RUN_OPTIONS, shared_exits,
    .run = ms_cli_fleet_node },
  { "fleet-report", "DIR",
    MS_N_ ("nodes x key figures, outliers flagged"), fleet_report_options,
    .exits = fleet_report_exits, .run = ms_cli_fleet_report },
  { "calibrate", "[RUN OPTIONS]",
    MS_N_ ("this machine's run-to-run spread"), calibrate_options,
    MS_CLI_RUN_SETTINGS | MS_CLI_STOPS_ON_SIGNALS, shared_exits, .run = ms_cli_calibrate },
  { "lesson", "LIST|NAME", MS_N_ ("the experiments of the teaching material"),
    lesson_options, MS_CLI_STOPS_ON_SIGNALS, shared_exits, .run = ms_cli_lesson },
  { "__lesson-part", NULL, NULL, lesson_options, MS_CLI_HIDDEN | MS_CLI_STOPS_ON_SIGNALS,
    .run = ms_cli_lesson_part },
  { "__options", NULL, NULL, NULL, MS_CLI_HIDDEN, .run = ms_cli_options_document },
};

const MsCliCommand *
ms_cli_command_nth (int i)
{
  if (i < 0 || i >= (int) (sizeof commands / sizeof *commands))
    return NULL;
  return &commands[i];
}

const MsCliCommand *
ms_cli_command_find (const char *name)
{
  for (const MsCliCommand *c = commands; c < commands + sizeof commands / sizeof *commands; c++)
    if (strcmp (c->name, name) == 0)
      return c;
  return NULL;
}

/* Whether an option called name is among t[0..n). */
static bool
has_name (const MsCliKey *t, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (strcmp (t[i].name, name) == 0)
      return true;
  return false;
}

static int
add_keys (MsCliKey *t, int n, const MsCliOption *options)
{
  for (const MsCliOption *o = options; o && o->name && n < MS_CLI_MAX_OPTIONS - 1; o++)
    if (!has_name (t, n, o->name))
      t[n++] = (MsCliKey){ o->name, o->value != NULL, (o->flags & MS_CLI_REPEATS) != 0, o->key,
                           o->needs, o };
  return n;
}

const MsCliKey *
ms_cli_option_keys (const char *name)
{
  /* One table per command, made once. */
  static MsCliKey tables[sizeof commands / sizeof *commands][MS_CLI_MAX_OPTIONS];
  static bool made[sizeof commands / sizeof *commands];
  const MsCliCommand *c = ms_cli_command_find (name);
  if (!c)
    return NULL;
  MsCliKey *t = tables[c - commands];
  if (made[c - commands])
    return t;
  int n = add_keys (t, 0, c->options);
  if (c->flags & MS_CLI_RUN_SETTINGS) {
    n = add_keys (t, n, run_options);
    for (int i = 0; i < ms_setting_count () && n < MS_CLI_MAX_OPTIONS - 2; i++)
      if (ms_setting_nth (i)->option)
        t[n++] = (MsCliKey) { ms_setting_nth (i)->option, true, false, MS_CLI_KEY_SETTING (i) };
  }
  t[n++] = (MsCliKey) { "help", false, false, 'h' };
  t[n++] = (MsCliKey) { "version", false, false, MS_CLI_KEY_VERSION };
  t[n] = (MsCliKey) { NULL };
  made[c - commands] = true;
  return t;
}

const char *
ms_cli_option_value (const char *command, const char *name)
{
  const MsCliKey *k = ms_cli_option_keys (command);
  while (k && k->name && strcmp (k->name, name) != 0)
    k++;
  return k && k->name && k->option ? k->option->value : NULL;
}

/* An option's line: its head, then its help at the column the sweep
 * settings' lines use (ms_setting_usage), or two blanks after a long head. */
static void
option_line (FILE *out, const MsCliOption *o)
{
  enum { HELP_COLUMN = 23 };
  int n = fprintf (out, "  --%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
  fprintf (out, "%*s%s\n", n + 2 > HELP_COLUMN ? 2 : HELP_COLUMN - n, "", ms_gettext (o->help));
}

void
ms_cli_options_usage (FILE *out, const MsCliCommand *c)
{
  for (const MsCliOption *o = c->options; o && o->name; o++)
    option_line (out, o);
}

void
ms_cli_command_synopsis (FILE *out, const MsCliCommand *c)
{
  fprintf (out, ms_gettext ("Usage: memsweep %s [OPTIONS]%s%s\n"), c->name,
           c->operands ? " " : "", c->operands ? c->operands : "");
  fprintf (out, "%s\n", ms_gettext (c->summary));
}

void
ms_cli_exits_usage (FILE *out, const MsCliCommand *c)
{
  fputs (ms_gettext ("\nExit status:\n"), out);
  for (const MsCliExit *e = ms_cli_exits (c); e->meaning; e++) {
    char code[16];
    ms_cli_exit_code (e, code, sizeof code);
    fprintf (out, "  %-5s  ", code);
    /* Wrapped at the blanks before column 79, under the meaning. */
    const char *text = ms_gettext (e->meaning);
    int column = 9;
    while (*text) {
      size_t word = strcspn (text, " ");
      if (column > 9 && column + 1 + (int) word > 79) {
        fputs ("\n         ", out);
        column = 9;
      } else if (column > 9) {
        fputc (' ', out);
        column++;
      }
      fwrite (text, 1, word, out);
      column += (int) word;
      text += word;
      text += *text == ' ';
    }
    fputc ('\n', out);
  }
}

const MsCliExit *
ms_cli_exits (const MsCliCommand *c)
{
  return c && c->exits ? c->exits : shared_exits;
}

void
ms_cli_exit_code (const MsCliExit *e, char *buf, size_t len)
{
  if (e->code == MS_CLI_EXIT_SIGNAL)
    snprintf (buf, len, "128+N");
  else
    snprintf (buf, len, "%d", e->code);
}
