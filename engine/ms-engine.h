/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-engine.h: the engine's front door for what lies in its rooms: the
 * part of files/, model/, analysis/ and run/ that the drawing library, the
 * app and the command line use. With memsweep.h (the vocabulary),
 * ms-setting-table.h (the settings), ms-lessons.h (the lessons) and
 * ms-i18n.h (translations) it is all they may include of the engine: their
 * include path holds engine/'s top folder only, and the `front-doors` test
 * (tools/front-doors.py) counts what they include. Each header below says
 * which file defines what it declares. */
#pragma once

#include "memsweep.h"

/* files/: atomic writes, CSV pairs, JSON, metadata and sidecars, peer and
 * multi files, the reference runs' folder, UTF-8 */
#include "files/ms-atomic-file.h"
#include "files/ms-csv-pair.h"
#include "files/ms-json.h"
#include "files/ms-meta-sidecar.h"
#include "files/ms-meta.h"
#include "files/ms-multi-file.h"
#include "files/ms-output-plan.h"
#include "files/ms-peer-file.h"
#include "files/ms-reference-dir.h"
#include "files/ms-utf8.h"
/* model/: link and clock health */
#include "model/ms-health.h"
/* analysis/: verdicts between runs, envelopes */
#include "analysis/ms-compare.h"
#include "analysis/ms-compare-pool.h"
#include "analysis/ms-envelope.h"
/* run/: the experiment switches, the sweep on several GPUs and peers,
 * fleets, the supervisor of the processes a command starts */
#include "run/ms-experiment.h"
#include "run/ms-fleet.h"
#include "run/ms-multi.h"
#include "run/ms-supervisor.h"
