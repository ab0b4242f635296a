#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-desktop-metadata.sh DESKTOP METAINFO: the desktop file and the
# metainfo as built. desktop-file-validate says nothing, not even a hint
# (two main categories are only a hint); the desktop file names exactly one
# main category of the Desktop Menu Specification; the metainfo names its
# developer the AppStream 1.0 way (<developer id><name>), not with the
# deprecated <developer_name>, and appstreamcli finds nothing, pedantic
# remarks included. A validator that is not installed is skipped, the
# checks of our own are not.
desktop=$1 metainfo=$2
. "$(dirname "$0")/../fixtures/ms-check.sh"

main="AudioVideo Audio Video Development Education Game Graphics Network Office Science Settings System Utility"
categories=$(sed -n 's/^Categories=//p' "$desktop" | tr ';' ' ')
n=0
for c in $categories; do
  for m in $main; do [ "$c" = "$m" ] && n=$((n + 1)); done
done
check "one main category ($categories)" test "$n" -eq 1
check "a <developer> with an id and a <name>" \
  grep -qE '<developer id="[^"]+">' "$metainfo"
check "the <developer> has a <name>" sh -c "sed -n '/<developer /,/<\/developer>/p' '$metainfo' | grep -q '<name>'"
check "no deprecated <developer_name>" sh -c "! grep -q '<developer_name' '$metainfo'"

if command -v desktop-file-validate >/dev/null; then
  out=$(desktop-file-validate "$desktop" 2>&1)
  rc=$?
  [ -n "$out" ] && echo "$out"
  check "desktop-file-validate: no error, warning or hint" test "$rc" -eq 0 -a -z "$out"
else
  echo "skip: no desktop-file-validate"
fi
if command -v appstreamcli >/dev/null; then
  check "appstreamcli validate --pedantic" \
    sh -c "appstreamcli validate --no-net --pedantic --explain '$metainfo'"
else
  echo "skip: no appstreamcli"
fi
echo "desktop-metadata: $fails failed"
[ "$fails" -eq 0 ]
