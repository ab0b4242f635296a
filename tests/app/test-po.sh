#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-po.sh SOURCE_ROOT XGETTEXT_ARGS...: every translation is complete.
# Extracts the strings of po/POTFILES.in afresh (the tree keeps no
# template), merges each language of po/LINGUAS into them and wants no
# untranslated or fuzzy message; and every source file that marks strings
# is listed in POTFILES.in, so that none is missed by the extraction.
src=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

listed=$(grep -v '^#' "$src/po/POTFILES.in" | sed '/^$/d')
for f in $(cd "$src" && grep -rlE '(\b_|\bN_|\bC_|\bNC_|\bngettext|\bms_gettext|\bms_ngettext|\bMS_N_|\bFAIL|\bms_csv_fail) ?\(' \
             --include='*.c' engine app draw ui 2>/dev/null | sort); do
  if ! echo "$listed" | grep -qxF "$f"; then
    echo "FAIL: $f marks strings but is not in po/POTFILES.in"
    fails=$((fails + 1))
  fi
done
for f in $listed; do
  [ -f "$src/$f" ] || { echo "FAIL: po/POTFILES.in lists $f, which does not exist"; fails=$((fails + 1)); }
done

xgettext --directory="$src" --files-from="$src/po/POTFILES.in" --output="$tmp/memsweep.pot" \
  --package-name=memsweep "$@" || exit 1
for lang in $(grep -v '^#' "$src/po/LINGUAS"); do
  msgmerge --quiet --no-fuzzy-matching "$src/po/$lang.po" "$tmp/memsweep.pot" \
    --output-file="$tmp/$lang.po" || exit 1
  stats=$(LC_ALL=C msgfmt --check --statistics --output-file=/dev/null "$tmp/$lang.po" 2>&1)
  echo "$lang: $stats"
  case "$stats" in
  *untranslated* | *fuzzy* | *error*)
    echo "FAIL: $lang is incomplete; these need a translation:"
    msgattrib --untranslated --no-obsolete "$tmp/$lang.po" | grep -A1 '^msgid' | head -40
    fails=$((fails + 1)) ;;
  esac
done
echo "po: $fails failed"
[ $fails = 0 ]
