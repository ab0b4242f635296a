/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-output.h: the command line's one output convention (docs/cli.md,
 * "Output"): --format table|json|csv|markdown on standard output,
 * --export-json|csv|markdown FILE beside it, --quiet and --verbose; and
 * the one writer per format of a table (MsCliTable), which every command
 * that prints a table fills. GLib-free. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "ms-cli-parse.h"

/* text (the table for people) is MS_CLI_FORMAT_TEXT: --format table, and
 * text, its older name. */
typedef enum {
  MS_CLI_FORMAT_TEXT,
  MS_CLI_FORMAT_JSON,
  MS_CLI_FORMAT_CSV,
  MS_CLI_FORMAT_MARKDOWN,
} MsCliFormat;

/* The getopt values of the output options, the same in every command
 * (beyond any character and run's setting options). */
enum {
  MS_CLI_KEY_FORMAT = 0x1000,
  MS_CLI_KEY_EXPORT_JSON,
  MS_CLI_KEY_EXPORT_CSV,
  MS_CLI_KEY_EXPORT_MARKDOWN,
  MS_CLI_KEY_QUIET,
  MS_CLI_KEY_VERBOSE,
  MS_CLI_KEY_COMPRESS,
};

/* A table as the command describes it once: named columns, rows of
 * values. Every format is written from it. */
typedef struct {
  const char *name; /* the CSV header, JSON key and heading */
  bool number;      /* right-aligned, unquoted in JSON, left out of CSV when empty in every row */
} MsCliColumn;

typedef struct MsCliTable MsCliTable;

/* columns stays the caller's (static tables). */
MsCliTable *ms_cli_table_new (const MsCliColumn *columns, int n_columns);
void ms_cli_table_free (MsCliTable *table);
/* A new last row, every value empty. */
void ms_cli_table_add_row (MsCliTable *table);
/* A value of the last row: text as given (NULL: empty), a number in the
 * C locale with that many decimals (-1: ten significant digits; not
 * finite: empty), a whole number. */
void ms_cli_table_text (MsCliTable *table, int column, const char *text);
void ms_cli_table_number (MsCliTable *table, int column, double value, int decimals);
void ms_cli_table_integer (MsCliTable *table, int column, long long value);

/* The table in one format into f: aligned text with a heading line; JSON
 * as an array of objects, one per row (empty: null); CSV with a header
 * line (text quoted and a formula made inert, as in every CSV written:
 * ms-csv-field.h; numbers bare; a number column empty in every row left
 * out, so that data tools type each column from its values); markdown
 * as a pipe table (numbers right-aligned, '|' escaped). Control
 * characters in values are written as spaces in text and markdown, where
 * a line break would break the row; CSV and JSON keep values whole
 * (quoted, escaped). False when a write failed. */
bool ms_cli_table_write (FILE *f, const MsCliTable *table, MsCliFormat format);

/* What a command prints, for every format: text for people and the JSON
 * document of its schema (data/schema/) by their own writers where the
 * command has them, else the table's; CSV and markdown always the
 * table's. */
typedef struct {
  void (*text) (FILE *f, void *user);
  void (*json) (FILE *f, void *user);
  const MsCliTable *table;
  void *user;
} MsCliDocument;

#define MS_CLI_MAX_EXPORTS 8

/* The output options a command was given; zeroed: the table on
 * standard output, no exports. */
typedef struct {
  const char *command; /* NULL: the command that runs (ms_cli_command) */
  MsCliFormat format;
  bool format_given; /* --format was: a file's name may not contradict it */
  bool stdout_off; /* show --out FILE: the document goes into FILE alone */
  bool own_csv;    /* CSV files of its own beside the exports (compare --live --out) */
  int n_exports;
  struct {
    MsCliFormat format;
    const char *path;   /* "-": standard output */
    const char *option; /* as messages name it: --export-json, show's --out */
  } exports[MS_CLI_MAX_EXPORTS];
} MsCliOutput;

/* A command's option bound to its field, read as the table's kind says;
 * a list ends with key 0. */
typedef struct {
  int key;
  void *field;
} MsCliBind;
/* The next key of the command's own options (with a->value), its output
 * options (out NULL: its progress options alone) taken here and each
 * option of binds stored in its field: the key of the next one not bound,
 * -1 at the end, '?' after a message (with the Try line where the parser
 * or an output option refused it). */
int ms_cli_args_next_bound (MsCliArgs *a, MsCliOutput *out, const MsCliBind *binds);
/* show --out FILE: what standard output would get into FILE alone,
 * messages naming --out, in the format FILE's name says (.json, .csv,
 * .csv.gz, .md), else the --format given (set before); -1 after a message
 * where --format says another than the name. */
int ms_cli_output_only_to (MsCliOutput *out, const char *option, const char *path);
/* Whether path's name fits format, the one option writes there: its
 * extension (its .gz aside), where it says a kind of file, is the
 * format's own, .json, .csv, .md, or .txt for the text table
 * (--export-json X.csv, --export-json plot.svg, calibrate --out X.json,
 * show --out p.png: no); a name without one or with one that says no
 * kind (X.out), standard output, a device, a pipe or a descriptor is
 * taken as given. writes is what the refusal says the option writes
 * (NULL: the format's name). False after a message. */
bool ms_cli_name_is_format (const char *option, const char *path, MsCliFormat format,
                            const char *writes);
/* Whether prefix (NULL: none given), to which the files' own names are
 * added (first: the first file's, "-samples.csv"), names files: not
 * standard output, which cannot hold several, not a folder's name, and
 * ending in none of a file's (X.csv.gz would give a plain
 * X.csv.gz-samples.csv); false after a message naming option, the file
 * the prefix would give and what does what it asks. */
bool ms_cli_prefix_names_files (const char *option, const char *prefix, const char *first);
/* After the options, before any work: every export can be written
 * (ms_atomic_file_check), no file is named twice, standard output takes
 * one document (at most one export to "-", which then replaces the
 * --format output: --export-csv - is --format csv). False after a
 * message naming the option. */
bool ms_cli_output_ready (MsCliOutput *out);
/* The document on standard output in the --format chosen and into every
 * export (each through an atomic file, "memsweep CMD: wrote FILE" unless
 * --quiet); false when something was not written (said). */
bool ms_cli_output_write (const MsCliOutput *out, const MsCliDocument *doc);
/* The document of text, json and table (freed after) for user, written as
 * ms_cli_output_write writes it: the command's status for its outputs
 * (ms_cli_output_status). */
int ms_cli_output_send (const MsCliOutput *out, MsCliTable *table, void (*text) (FILE *, void *),
                        void (*json) (FILE *, void *), void *user);

/* --quiet: nothing but errors; --verbose: what the command does, on
 * standard error. One process runs one command, so the level is the
 * process's, for the code under a command that prints progress. */
bool ms_cli_quiet (void);
bool ms_cli_verbose (void);
/* --compress: the CSV files the command names (run's and lesson's --out
 * files, calibrate's --out, the CSV exports) are written gzip-compressed,
 * their names ending in .gz (docs/cli.md). The process's, as the level. */
bool ms_cli_compress (void);
/* path as the command writes it: with ".gz" added under --compress, unless
 * it ends so already or is standard output or a device (written in place).
 * The string lives as long as the process. */
const char *ms_cli_compressed_name (const char *path);
/* ms_atomic_file_output_name's PREFIX SUFFIX, a CSV suffix getting ".gz"
 * under --compress. */
bool ms_cli_output_name (const char *prefix, const char *suffix, char *out, size_t len);
/* A run's pair under prefix, so named, into samples and summary (PATH_MAX
 * each; a device or a pipe as the prefix, /dev/null, gets both), checked
 * as ms_cli_outputs_ok checks a set; false after "memsweep CMD: OPTION:
 * why". */
bool ms_cli_pair_ok (const char *option, const char *prefix, char *samples, char *summary);
/* A line on standard error with --verbose, "memsweep COMMAND: " first. */
void ms_cli_say (const char *format, ...) __attribute__ ((format (printf, 1, 2)));
/* "memsweep CMD: wrote FILE" on standard error; under --quiet held, and said
 * when a later write of the command fails, so that an exit 4 never hides
 * where the measurements are. */
void ms_cli_wrote (const char *path);
/* ms_cli_wrote (path) and EXIT_OK where written (ok), else "memsweep:
 * ERR" and EXIT_WRITE. */
int ms_cli_wrote_or_say (bool ok, const char *path, const char *err);
/* "memsweep CMD: wrote SAMPLES and SUMMARY": a run's pair, as ms_cli_wrote. */
void ms_cli_wrote_pair (const char *samples, const char *summary);
