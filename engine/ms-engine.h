/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-engine.h: the engine's front door: the explicit list of its public
 * headers, the part of its rooms that the drawing library, the app and the
 * command line use. With memsweep.h (the vocabulary: types only),
 * ms-setting-table.h (the settings), ms-lessons.h (the lessons' captions
 * and pictures) and ms-i18n.h (translations) it is all they may include of
 * the engine: their include path holds engine/'s top folder only, and the
 * `front-doors` test (tools/front-doors.py) counts what they include. Each
 * header below says which file defines what it declares; a room's other
 * headers, and its -private.h ones, are its own. */
#pragma once

#include "memsweep.h"

/* the top room: modes and phases by name, the sweep's description,
 * variants */
#include "ms-modes.h"
#include "ms-sweep.h"
#include "ms-variant.h"
#include "ms-verdict.h"
/* io/: bytes in and out, knowing no kind of file: the input stream,
 * atomic writes, gzip names, JSON, the reference runs' folder, UTF-8 */
#include "io/ms-atomic-file.h"
#include "io/ms-gzip-file.h"
#include "io/ms-input.h"
#include "io/ms-json.h"
#include "io/ms-reference-dir.h"
#include "io/ms-utf8.h"
/* devices/: only the GPU a command uses is started */
#include "devices/ms-gpu-start.h"
/* model/: results and cells, statistics, rounds, fit, run-to-run spread,
 * link and clock health */
#include "model/ms-fit.h"
#include "model/ms-health.h"
#include "model/ms-results.h"
#include "model/ms-rounds.h"
#include "model/ms-run-to-run.h"
#include "model/ms-stats.h"
/* files/: memsweep's kinds of file: CSV files and pairs, the table of
 * kinds, metadata and sidecars, the output plan, peer, portable and multi
 * files, run-to-run profiles, sibling checks */
#include "files/ms-csv-field.h"
#include "files/ms-csv-io.h"
#include "files/ms-csv-pair.h"
#include "files/ms-file-kinds.h"
#include "files/ms-meta-sidecar.h"
#include "files/ms-meta.h"
#include "files/ms-multi-file.h"
#include "files/ms-peer-file.h"
#include "files/ms-host-link-file.h"
#include "files/ms-portable-file.h"
#include "files/ms-run-to-run-file.h"
#include "files/ms-siblings-file.h"
/* analysis/: verdicts between runs and their options (the threshold),
 * envelopes */
#include "analysis/ms-compare-options.h"
#include "analysis/ms-compare.h"
#include "analysis/ms-compare-columns.h"
#include "analysis/ms-compare-pool.h"
#include "analysis/ms-setup-differences.h"
#include "analysis/ms-envelope.h"
#include "analysis/ms-siblings.h"
/* run/: backends, the runner, the experiment switches, the sweep on
 * several GPUs and peers, fleets, the supervisor of the processes a
 * command starts */
#include "run/ms-backend.h"
#include "run/ms-csv-keep.h"
#include "run/ms-experiment.h"
#include "run/ms-fleet.h"
#include "run/ms-multi.h"
#include "run/ms-output-plan.h"
#include "run/ms-peer-doubt.h"
#include "run/ms-host-link.h"
#include "run/ms-runner.h"
#include "run/ms-stalled-output.h"
#include "run/ms-supervisor.h"
/* lessons/: the lessons by name, their parts and runs, a run read from
 * its file (their captions and pictures: ms-lessons.h) */
#include "lessons/ms-lesson-run.h"
#include "lessons/ms-lesson-table.h"
#include "lessons/ms-run-read.h"
