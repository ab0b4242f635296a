#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-i18n.sh MEMSWEEP LOCALEDIR [SOURCE_ROOT]: the command line in
# Simplified Chinese and in a comma-decimal locale (de_DE): translated text
# where a person reads it, '.' in every number of the tables and the CSV
# files, and files that read back in any locale; and the uninstalled
# program (as ./run.sh starts it) finding its catalogue with nothing set.
# Skips (77) when neither locale exists.
memsweep=$1
src=${3:-}
export MEMSWEEP_LOCALEDIR=$2
. "$(dirname "$0")/../fixtures/ms-check.sh"
ran=0

have_locale() {
  locale -a 2>/dev/null | grep -qix "$(echo "$1" | sed 's/UTF-8$/utf8/')"
}

# run_in LOCALE OUT ARGS...: memsweep in LOCALE, stdout and stderr to OUT.
run_in() {
  run_loc=$1 run_out=$2
  shift 2
  LANG=$run_loc LC_ALL=$run_loc LANGUAGE= "$memsweep" "$@" >"$run_out" 2>&1
}

# CSV data rows (not '#' metadata) with the header's field count: a decimal
# comma would add fields.
same_field_count() {
  grep -v '^#' "$1" | awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || NR < 2 }'
}

if have_locale zh_CN.UTF-8; then
  ran=1
  zh=zh_CN.UTF-8
  run_in $zh "$tmp/modes" modes
  check "zh_CN: modes explains pinned memory in Chinese" grep -q '^pinned .*页锁定' "$tmp/modes"
  check "zh_CN: modes keeps the identifiers" grep -q '^managed-prefetch ' "$tmp/modes"
  run_in $zh "$tmp/help" --help
  check "zh_CN: --help is translated" grep -q '^用法：memsweep' "$tmp/help"
  check "zh_CN: --help lists the options in Chinese" grep -q -- '--warmup N .*预热' "$tmp/help"
  run_in $zh "$tmp/bad" run --reps 0
  check "zh_CN: validation messages are translated" \
    grep -q -- '--reps：“0”不在 1 到 100000 之间' "$tmp/bad"
  # The reader parses in the C locale (uselocale); its messages must not.
  printf 'mode,elements,rep,phase,host_start_us,host_us,status\npinned,1000,0,h2d,0,1,ok\n' \
    >"$tmp/bad.csv"
  run_in $zh "$tmp/bad" show "$tmp/bad.csv"
  check "zh_CN: reader errors are translated and name file:line" \
    grep -q "bad.csv:2: elements“1000”不是 1 到 2^28 之间的 2 的幂" "$tmp/bad"
  run_in $zh "$tmp/bad" run --modes host --out "$tmp/no-such-folder/x"
  check "zh_CN: writer errors are translated" grep -q '无法写入' "$tmp/bad"
  # From the build tree with no MEMSWEEP_LOCALEDIR: the build's po folder.
  (unset MEMSWEEP_LOCALEDIR; cd "$tmp" && run_in $zh "$tmp/plain" modes)
  check "zh_CN: the uninstalled program finds its catalogue by itself" \
    grep -q '^pinned .*页锁定' "$tmp/plain"
  # ./run.sh builds and starts build/: only when that is the tree tested.
  if [ -n "$src" ] && [ "$memsweep" -ef "$src/build/app/cli/memsweep" ]; then
    (unset MEMSWEEP_LOCALEDIR DISPLAY WAYLAND_DISPLAY
     LANG=$zh LC_ALL= LANGUAGE= "$src/run.sh" cli modes >"$tmp/run.sh.out" 2>&1)
    check "zh_CN: ./run.sh cli modes prints Chinese" grep -q '^pinned .*页锁定' "$tmp/run.sh.out"
  fi
fi

for loc in zh_CN.UTF-8 de_DE.UTF-8; do
  have_locale $loc || { echo "skip $loc: locale not installed"; continue; }
  ran=1
  prefix="$tmp/$loc"
  run_in $loc "$prefix.run" run --modes host --min-exp 10 --max-exp 11 --reps 2 --warmup 0 \
    --quiet --out "$prefix"
  check "$loc: run succeeds" [ $? = 0 ]
  check "$loc: samples CSV numbers use '.'" grep -Eq '^"host",1024,4096,.*[0-9]\.[0-9]{3}' \
    "$prefix-samples.csv"
  check "$loc: samples CSV rows keep their field count" same_field_count "$prefix-samples.csv"
  check "$loc: summary CSV rows keep their field count" same_field_count "$prefix-summary.csv"
  check "$loc: CSV metadata stays untranslated" grep -q '^    "order": "depth",$' "$prefix-meta.json"
  check "$loc: CSV mode and status stay identifiers" grep -q '^"host",1024,4096,"ok",' \
    "$prefix-summary.csv"
  check "$loc: tables print '.'" grep -Eq '^4 KiB +1024 +[0-9]+\.[0-9]{2}$' "$prefix.run"
  check "$loc: no decimal comma in the tables" sh -c "! grep -Eq '[0-9],[0-9]' '$prefix.run'"
  for reader in C.UTF-8 zh_CN.UTF-8 de_DE.UTF-8; do
    have_locale $reader || [ $reader = C.UTF-8 ] || continue
    run_in $reader "$prefix.show" show "$prefix-samples.csv"
    check "$loc file read back in $reader" [ $? = 0 ]
    check "$loc file in $reader: the same 2 sizes" grep -Eq '^8 KiB +2048 +[0-9]+\.[0-9]{2}$' \
      "$prefix.show"
  done
done

if have_locale zh_CN.UTF-8; then
  run_in zh_CN.UTF-8 "$tmp/show" show "$tmp/zh_CN.UTF-8-samples.csv"
  check "zh_CN: show describes the file in Chinese" grep -q '^含 2 个单元：1 种模式' "$tmp/show"
  # Headings are padded by display width (a CJK character takes two
  # columns): the grid's heading is as wide as its rows.
  width() { grep -m1 "$1" "$tmp/show" | LC_ALL=zh_CN.UTF-8 wc -L; }
  check "zh_CN: the grid's heading lines up with its rows" \
    [ "$(width '^大小 ')" = "$(width '^4 KiB ')" ]
fi

[ $ran = 1 ] || { echo "no zh_CN or de_DE locale: skipped"; exit 77; }
echo "i18n: $fails failed"
[ $fails = 0 ]
