#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/fuzz.sh [SECONDS]: builds the CSV reader's libFuzzer target with
# ASan and UBSan (clang) and runs it, seeded with tests/fuzz/corpus plus a
# generated 10^6-column file. New crash inputs land in tests/fuzz/crashes/,
# which the fuzz-regress test replays forever after.
set -e
cd "$(dirname "$0")/.."
secs=${1:-600}
out=${FUZZ_OUT:-build-fuzz}
mkdir -p "$out/corpus" tests/fuzz/crashes
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -D_POSIX_C_SOURCE=200809L -DGETTEXT_PACKAGE='"memsweep"' -DMS_LOCALEDIR='"/usr/share/locale"' \
  -Iengine -Ikernels \
  engine/*.c kernels/ms-data.c tests/fuzz/fuzz-csv.c -lcsv -lm -ldl -lpthread -o "$out/fuzz-csv"
cp tests/fuzz/corpus/* "$out/corpus/"
python3 -c "print(','.join('c%d' % i for i in range(1000000)))" >"$out/corpus/million-columns.csv"
"$out/fuzz-csv" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix=tests/fuzz/crashes/ -print_final_stats=1 "$out/corpus" 2>&1 | tail -25
