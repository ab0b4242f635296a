#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-mime.sh DATA DESKTOP: memsweep's own file type. The type's XML is
# compiled into a folder of its own, as a system's database would be, and
# every reference run is recognised as it; a CSV of any other program is
# not, and the desktop file claims this type, not all CSV.
data=$1 desktop=$2
app_id=io.github.memsweep.Memsweep
type=application/x-memsweep-run
. "$(dirname "$0")/../fixtures/ms-check.sh"

command -v update-mime-database >/dev/null || { echo "skip: no update-mime-database"; exit 77; }
command -v gio >/dev/null || { echo "skip: no gio"; exit 77; }
mkdir -p "$tmp/share/mime/packages"
cp "$data/$app_id.mime.xml" "$tmp/share/mime/packages/$app_id.xml"
check "the type's XML compiles" sh -c "update-mime-database '$tmp/share/mime' 2>/dev/null"

# Only this database (and the system's for text/csv), no user one.
content_type() {
  XDG_DATA_HOME=$tmp/none XDG_DATA_DIRS=$tmp/share:/usr/share \
    gio info -a standard::content-type "$1" 2>/dev/null |
    sed -n 's/^ *standard::content-type: //p'
}

for f in "$data"/reference/*-samples.csv "$data"/reference/*-summary.csv; do
  check "$(basename "$f") is a $type" test "$(content_type "$f")" = "$type"
done
# The file's first line alone, under a name no pattern knows: a file of
# the inline form (its metadata in '#' lines, as before the sidecar) starts
# with memsweep's header; a plain CSV of today is known by its name.
cp "$(dirname "$0")/../data/old-format/h100-default-samples.csv" "$tmp/renamed"
check "a samples file under another name is known by its header" \
  test "$(content_type "$tmp/renamed")" = "$type"
printf 'a,b\n1,2\n' >"$tmp/other.csv"
check "another program's CSV is not memsweep's" \
  test "$(content_type "$tmp/other.csv")" != "$type"
check "the desktop file claims $type" grep -qx "MimeType=$type;" "$desktop"
check "the desktop file claims no longer every CSV" sh -c "! grep -q 'text/csv' '$desktop'"
check "the symbolic icon is there" \
  test -s "$data/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
