#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/deps.sh [build|test|test-system|python]: installs what memsweep
# needs on Debian 12 or Ubuntu 24.04 when it is missing, and nothing when
# it is all there. Uses sudo when not run as root. test is test-system (the
# system's packages and locales the tests need) then python (the data-tool
# test's packages from PyPI); ./test.sh runs the two apart, the second
# beside the build, as it downloads rather than computes. The CUDA toolkit is not installed: it is used
# when nvcc is on PATH or in /usr/local/cuda/bin.
set -e
what=${1:-build}
case $what in
  build | test | test-system | python) ;;
  *) echo "usage: tools/deps.sh [build|test|test-system|python]" >&2; exit 2 ;;
esac
system=true python=false
[ "$what" = python ] && system=false
[ "$what" = test ] || [ "$what" = python ] && python=true
[ "$what" = test-system ] && what=test
want="build-essential meson ninja-build pkg-config libcsv-dev libjson-c-dev zlib1g-dev libgsl-dev libgtk-4-dev libadwaita-1-dev
  libglib2.0-bin desktop-file-utils appstream gettext fonts-wqy-microhei"
if [ "$what" = test ]; then
  # poppler-utils: the report tests read PDFs (pdftotext, pdfinfo); chromium
  # renders the HTML report headless; libxtst6: the keyboard test presses
  # real keys through XTest; python3-venv: the data-tool test's environment.
  # python3-jsonschema checks the JSON documents against data/schema/;
  # man-db, zsh, libxml2-utils and shared-mime-info check the man pages, the
  # zsh completion, the file type's XML and what it matches; debootstrap,
  # dpkg-dev, debhelper, lintian and python3-yaml: the package tests build
  # the .debs, check them and install them into a clean Debian 12 root, and
  # read the Flatpak manifest. lld links the test programs (tools/configure.sh
  # uses it where it is installed).
  want="$want lld xvfb xauth dbus dbus-x11 locales slurm-wlm munge poppler-utils chromium libxtst6
    python3-venv python3-jsonschema man-db zsh libxml2-utils shared-mime-info
    debootstrap dpkg-dev debhelper lintian python3-yaml"
fi
missing=""
for p in $want; do
  $system || break
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "deps: installing$missing" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# A comma-decimal locale lets the tests prove CSV ignores the user's locale;
# zh_CN proves the translation is used.
for loc in de_DE zh_CN; do
  if $system && [ "$what" = test ] && ! locale -a 2>/dev/null | grep -qi "^$loc.utf8\$"; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo localedef -i $loc -f UTF-8 $loc.UTF-8 2>/dev/null || echo "deps: no $loc locale (its tests will be skipped)" >&2
  fi
done
$python || exit 0
# The data-tool test (tests/data-tools) reads memsweep's files with pandas,
# polars and DuckDB as their users do, and validates them against their
# Table Schemas with frictionless: from PyPI, into .deps/python (a
# virtual environment of this checkout). Without network or venv the test
# is skipped and says so. Beside it an older frictionless (5.18.1, which
# knows no Table Schema v2 fieldsMatch; Debian 12 packages none): the test
# validates with both, and says so when this one is missing. The two
# environments download at once.
if ! .deps/python/bin/python3 -c 'import pandas, polars, duckdb, jsonschema, frictionless' 2>/dev/null; then
  { { python3 -m venv .deps/python && .deps/python/bin/pip install -q pandas polars duckdb jsonschema frictionless; } >&2 ||
    echo "deps: pandas, polars, duckdb, jsonschema or frictionless not installed (the data-tool test will be skipped)" >&2; } &
fi
if ! .deps/frictionless-5.18/bin/python3 -c 'import frictionless' 2>/dev/null; then
  { { python3 -m venv .deps/frictionless-5.18 && .deps/frictionless-5.18/bin/pip install -q frictionless==5.18.1; } >&2 ||
    echo "deps: frictionless 5.18.1 not installed (the data-tool test checks with the current one only)" >&2; } &
fi
wait
exit 0
