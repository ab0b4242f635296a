#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/package-needs.sh ROOT DEBS: what each of memsweep's packages needs
# that the system in ROOT lacks (a root made with debootstrap
# --variant=minbase, its package lists fetched: docs/install.md says how),
# as apt would install it with --no-install-recommends. DEBS is the folder
# of the built packages. For each package: its own size, then the count,
# download size and installed size of the other packages it brings (the
# memsweep packages it depends on are given to apt with it and not
# counted), then their names. apt only simulates: ROOT is left as it was
# but for the packages copied to its /tmp and removed again. Needs root
# (chroot).
set -eu
root=$1 debs=$2
export LC_ALL=C

mb() { awk '{ s += $1 } END { printf "%.2f", s / 1048576 }'; }

# The packages apt would install beside the given files, one name a line.
needs() { # needs FILE...
  chroot "$root" apt-get install -s --no-install-recommends "$@" 2>/dev/null |
    awk '$1 == "Inst" { print $2 }' | grep -v '^memsweep' || true
}

# Download and installed size (MB) of the named packages, from the lists.
sizes() { # sizes NAME...
  [ $# -gt 0 ] || { echo "0.00 0.00"; return; }
  chroot "$root" apt-cache show --no-all-versions "$@" | awk '
    $1 == "Size:" { d += $2 } $1 == "Installed-Size:" { i += $2 * 1024 }
    END { printf "%.2f %.2f\n", d / 1048576, i / 1048576 }'
}

cp "$debs"/memsweep*.deb "$root/tmp/"
trap 'rm -f "$root"/tmp/memsweep*.deb' EXIT
echo "# $(. "$root/etc/os-release" && echo "$PRETTY_NAME"), $(chroot "$root" dpkg-query -W | wc -l) packages installed"
echo "# package: own .deb, installed | count of packages it brings, their download, installed | names"
for p in memsweep memsweep-plot memsweep-gtk memsweep-data all; do
  case $p in
    memsweep) files="$root/tmp/memsweep_*.deb" ;;
    memsweep-data) files="$root/tmp/memsweep-data_*.deb" ;;
    all) files="$root/tmp/memsweep*.deb" ;;
    *) files="$root/tmp/memsweep_*.deb $root/tmp/${p}_*.deb" ;;
  esac
  inside=$(for f in $files; do echo "/tmp/$(basename "$f")"; done)
  names=$(needs $inside)
  own=$(ls "$root"/tmp/${p}_*.deb 2>/dev/null | head -1)
  if [ -n "$own" ]; then
    deb_mb=$(stat -c %s "$own" | mb)
    inst_mb=$(echo $(($(dpkg-deb -f "$own" Installed-Size) * 1024)) | mb)
  else
    deb_mb=$(cat $files | wc -c | mb)
    inst_mb=$(for f in $files; do echo $(($(dpkg-deb -f "$f" Installed-Size) * 1024)); done | mb)
  fi
  count=$(printf '%s' "$names" | grep -c . || true)
  # shellcheck disable=SC2086
  set -- $(sizes $names)
  down=$1 inst=$2
  echo "$p: ${deb_mb} MB, ${inst_mb} MB | $count, $down MB, $inst MB | $(echo $names)"
done
