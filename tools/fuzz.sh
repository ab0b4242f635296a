#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/fuzz.sh [SECONDS] [READER]: builds a reader's libFuzzer target with
# ASan and UBSan (clang) and runs it. READER is samples (the default:
# tests/fuzz/fuzz-csv.c, seeded with tests/fuzz/corpus plus a generated
# 10^6-column file), or summary, sidecar, peer, multi, profile or envelopes
# (tests/fuzz/fuzz-files.c, seeded with tests/fuzz/corpus-READER). New crash
# inputs land in tests/fuzz/crashes/ (crashes-READER/ for the others), which
# the fuzz-regress tests replay forever after. FUZZ_TIMEOUT: seconds an input
# may take (10; more on a loaded machine, where a slow input is not a hang).
# FUZZ_BUILD: a configured meson build folder (build), for the headers
# meson writes (ms-config.h, the lessons' headers).
set -e
cd "$(dirname "$0")/.."
secs=${1:-600}
reader=${2:-samples}
out=${FUZZ_OUT:-build-fuzz}/$reader
gen=${FUZZ_BUILD:-build}
[ -f "$gen/ms-config.h" ] || { echo "fuzz: no $gen/ms-config.h: run tools/configure.sh $gen first" >&2; exit 1; }
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
  -D_POSIX_C_SOURCE=200809L -DGETTEXT_PACKAGE=\"memsweep\" -DMS_LOCALEDIR=\"/usr/share/locale\" -DMS_LOCALEDIR_FROM_BINDIR=\"../share/locale\"
  -DMS_REFERENCE_DIR=\"/usr/share/memsweep/reference\"
  -Iengine -Iengine/io -Iengine/run -Iengine/devices -Iengine/model -Iengine/files -Iengine/analysis -Iengine/lessons
  -Ikernels -Itests/fixtures
  -I$gen -I$gen/engine"
mkdir -p "$out/corpus"
if [ "$reader" = samples ]; then
  crashes=tests/fuzz/crashes
  mkdir -p $crashes
  clang $flags engine/*.c engine/*/*.c kernels/ms-data.c kernels/ms-host-mem.c tests/fuzz/fuzz-csv.c -lcsv -ljson-c -lgsl -lgslcblas -lz -lm -ldl -lpthread \
    -o "$out/fuzz"
  cp tests/fuzz/corpus/* "$out/corpus/"
  python3 -c "print(','.join('c%d' % i for i in range(1000000)))" >"$out/corpus/million-columns.csv"
else
  crashes=tests/fuzz/crashes-$reader
  mkdir -p $crashes
  clang $flags -DMS_FUZZ_READER="\"$reader\"" engine/*.c engine/*/*.c kernels/ms-data.c kernels/ms-host-mem.c tests/fuzz/fuzz-files.c \
    -lcsv -ljson-c -lgsl -lgslcblas -lz -lm -ldl -lpthread -o "$out/fuzz"
  cp tests/fuzz/corpus-"$reader"/* "$out/corpus/"
fi
"$out/fuzz" -max_total_time="$secs" -max_len=65536 -timeout=${FUZZ_TIMEOUT:-10} -rss_limit_mb=4096 \
  -artifact_prefix=$crashes/ -print_final_stats=1 "$out/corpus" 2>&1 | tail -25
