#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-mime.sh DATA DESKTOP: memsweep's own file type. The type's XML is
# compiled twice: into a folder of its own, before the system's (as
# /usr/local/share or a Flatpak's exports are), and into one mime cache
# with the system's freedesktop.org.xml (as a package in /usr/share is),
# since GIO looks a name up in one cache at a time. In both, every
# reference run is recognised as memsweep's; a CSV of any other program is
# not, under any name, a run's included; and the desktop file claims this
# type, not all CSV.
data=$1 desktop=$2
app_id=io.github.memsweep.Memsweep
type=application/x-memsweep-run
. "$(dirname "$0")/../fixtures/ms-check.sh"

command -v update-mime-database >/dev/null || { echo "skip: no update-mime-database"; exit 77; }
command -v gio >/dev/null || { echo "skip: no gio"; exit 77; }
system_xml=/usr/share/mime/packages/freedesktop.org.xml
[ -f "$system_xml" ] || { echo "skip: no $system_xml (shared-mime-info)"; exit 77; }
mkdir -p "$tmp/apart/mime/packages" "$tmp/same/mime/packages" "$tmp/files"
cp "$data/$app_id.mime.xml" "$tmp/apart/mime/packages/$app_id.xml"
cp "$data/$app_id.mime.xml" "$tmp/same/mime/packages/$app_id.xml"
cp "$system_xml" "$tmp/same/mime/packages/"
# (No fsync of a scratch database: it took seconds on a busy disk.)
for db in apart same; do
  check "the type's XML compiles ($db)" \
    sh -c "PKGSYSTEM_ENABLE_FSYNC=0 update-mime-database '$tmp/$db/mime' 2>/dev/null"
done

# content_types DB FILE...: a line "FILE<TAB>TYPE" each, the type GIO gives
# FILE with only that database (apart: with the system's after it, for
# text/csv), no user one. One gio for every file: two hundred starts of it
# took over 30 s on a busy machine.
content_types() {
  dirs=$tmp/$1
  [ "$1" = apart ] && dirs=$dirs:/usr/share
  shift
  XDG_DATA_HOME=$tmp/none XDG_DATA_DIRS=$dirs gio info -a standard::content-type "$@" 2>/dev/null |
    sed -n -e 's/^local path: //p' -e 's/^ *standard::content-type: //p' | paste - -
}

# The file's first line alone, under a name no pattern knows: a file of
# the inline form (its metadata in '#' lines, as before the sidecar) and a
# plain CSV of today start with memsweep's header.
cp "$(dirname "$0")/../data/old-format/h100-default-samples.csv" "$tmp/files/renamed-inline"
gzip -dc "$data/reference/h100-default-1-samples.csv.gz" | head -1 >"$tmp/files/renamed-samples"
gzip -dc "$data/reference/h100-default-1-summary.csv.gz" | head -1 >"$tmp/files/renamed-summary"
# The reference runs ship gzipped: their plain content is what a user
# saves (its start is what the type's magic reads).
mkdir -p "$tmp/plain"
for f in "$data"/reference/*-samples.csv.gz "$data"/reference/*-summary.csv.gz; do
  gzip -dc "$f" 2>/dev/null | head -c 65536 >"$tmp/plain/$(basename "$f" .gz)"
done
# Other programs' CSV: one under a name of its own, and ones named as
# memsweep names its runs (the name alone must not claim them).
printf 'a,b\n1,2\n' >"$tmp/files/other.csv"
printf 'date,value\n2026-01-01,3\n' >"$tmp/files/other-samples.csv"
printf 'date,value\n2026-01-01,3\n' >"$tmp/files/other-summary.csv"
tab=$(printf '\t')
for db in apart same; do
  content_types $db "$tmp"/plain/*-samples.csv "$tmp"/plain/*-summary.csv "$tmp"/files/* \
    >"$tmp/types-$db"
  for f in "$tmp"/plain/*-samples.csv "$tmp"/plain/*-summary.csv; do
    check "$(basename "$f") is a $type ($db)" grep -qxF "$f$tab$type" "$tmp/types-$db"
  done
  for f in renamed-inline renamed-samples renamed-summary; do
    check "$f, a run under another name, is known by its header ($db)" \
      grep -qxF "$tmp/files/$f$tab$type" "$tmp/types-$db"
  done
  for f in other.csv other-samples.csv other-summary.csv; do
    check "another program's $f is text/csv, not memsweep's ($db)" \
      grep -qxF "$tmp/files/$f${tab}text/csv" "$tmp/types-$db"
  done
done
check "the desktop file claims $type" grep -qx "MimeType=$type;" "$desktop"
check "the desktop file claims no longer every CSV" sh -c "! grep -q 'text/csv' '$desktop'"
check "the symbolic icon is there" \
  test -s "$data/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
