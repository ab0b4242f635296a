#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-package.sh SOURCE WORK VERSION: builds the Debian package (debian/)
# from a copy of the source tree (a CUDA build where nvcc is here), installs
# it with its dependencies into a clean Debian 12 root and runs the
# installed programs there: what a user of the .deb gets on a machine with
# no GPU, no driver and nothing of the build's.
# WORK keeps a pristine root (made once with debootstrap, remade when its
# stamp is older than 30 days) and the downloaded packages between runs.
src=$1 work=$2 version=$3
suite=bookworm
mirror=${MEMSWEEP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
reference=h100-default-1-summary.csv.gz
started=$(date +%s)
fails=0

skip() { echo "skip: $*"; exit 77; }
step() { echo "[$(($(date +%s) - started)) s] $*"; }
check() { # check WHAT COMMAND...
  what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL: $what"; fails=$((fails + 1)); return 1; fi
}
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

[ "$(id -u)" = 0 ] || skip "building a Debian root needs root (debootstrap, chroot, mount)"
for tool in debootstrap dpkg-buildpackage dh git wget; do
  command -v $tool >/dev/null 2>&1 || skip "$tool is missing (sh tools/deps.sh test installs it)"
done
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || skip "$src is not a git checkout (the copy is what git lists)"
wget -q --spider "$mirror/dists/$suite/Release" || skip "the Debian mirror $mirror cannot be reached"

mkdir -p "$work"
pristine=$work/$suite-minbase root=$work/$suite-clean archives=$work/apt-archives
# Mounts first out, then the clean root; the pristine root and the
# downloaded packages stay for the next run.
cleanup() {
  for m in "$root/var/cache/apt/archives" "$root/proc"; do
    mountpoint -q "$m" 2>/dev/null && umount "$m"
  done
  # Never remove through a mount that stayed (the host's /proc, the cache).
  if grep -q " $root/" /proc/mounts; then
    echo "left $root: a mount under it would not come off" >&2
  else
    rm -rf "$root"
  fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cleanup

stamp="$suite minbase $mirror"
if [ "$(cat "$pristine.stamp" 2>/dev/null)" != "$stamp" ] ||
   [ -n "$(find "$pristine.stamp" -mtime +30 2>/dev/null)" ]; then
  step "debootstrap --variant=minbase $suite"
  rm -rf "$pristine" "$pristine.new" "$pristine.stamp"
  if ! debootstrap --variant=minbase "$suite" "$pristine.new" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -20 "$work/debootstrap.log"
    echo "FAIL: debootstrap (log: $work/debootstrap.log)"
    exit 1
  fi
  mv "$pristine.new" "$pristine" && echo "$stamp" >"$pristine.stamp"
fi

step "dpkg-buildpackage from a copy of the source tree"
rm -rf "$work/src"
mkdir -p "$work/src/memsweep"
# What git tracks or would track: the source, not the build trees in it.
git -C "$src" ls-files -z --cached --others --exclude-standard |
  tar -C "$src" --null -T - --no-recursion --ignore-failed-read -cf - 2>/dev/null |
  tar -xf - -C "$work/src/memsweep"
if ! (cd "$work/src/memsweep" &&
      DEB_BUILD_OPTIONS="parallel=$(nproc) noautodbgsym" dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
  tail -30 "$work/build.log"
  echo "FAIL: dpkg-buildpackage (log: $work/build.log)"
  exit 1
fi
deb=$(ls "$work"/src/memsweep_"$version"_*.deb 2>/dev/null | head -1)
check "the package memsweep_${version}_*.deb is built" test -f "$deb"
[ -f "$deb" ] || exit 1

step "install into a clean $suite root"
cp -a "$pristine" "$root"
mkdir -p "$archives/partial"
mount -t proc proc "$root/proc" || skip "cannot mount /proc in the root (no CAP_SYS_ADMIN here)"
mount --bind "$archives" "$root/var/cache/apt/archives" || skip "cannot bind-mount the package cache"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cp "$deb" "$root/tmp/"
if ! in_root apt-get update -qq >"$work/apt.log" 2>&1 ||
   ! in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       "/tmp/$(basename "$deb")" >>"$work/apt.log" 2>&1; then
  tail -30 "$work/apt.log"
  echo "FAIL: apt-get install of the package in the clean root (log: $work/apt.log)"
  exit 1
fi

step "run the installed programs"
check "the installed package is version $version" \
  test "$(in_root dpkg-query -W -f '${Version}' memsweep)" = "$version"
check "no CUDA library in the root" \
  test -z "$(find "$root" -xdev \( -name 'libcudart*' -o -name 'libcupti*' -o -name 'libcuda.so*' \) -print -quit)"
# Built with nvcc (debian/rules finds it on PATH or in /usr/local/cuda/bin)
# the package holds the CUDA backend with the runtime linked in: the GPU
# code in the program, no toolkit library among what it needs at load time,
# and the driver's libcuda recommended, loaded only at run time.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  check "the package is a CUDA build (the program holds GPU code)" \
    sh -c "readelf -SW '$root/usr/bin/memsweep' | grep -q '\.nv_fatbin'"
  check "no CUDA library is NEEDED by the programs (the runtime is linked in)" \
    sh -c "! readelf -d '$root/usr/bin/memsweep' '$root/usr/bin/memsweep-gtk' | grep NEEDED | grep -q -i -e cuda -e cupti"
  check "the package recommends the driver's libcuda1" \
    sh -c "dpkg-deb -f '$deb' Recommends | grep -q '^libcuda1'"
  # With no driver in the root, info says so and exits 3, and the CPU
  # baseline still runs.
  in_root memsweep info >"$work/info.out" 2>&1
  check "memsweep info without a driver exits 3" test $? -eq 3
  check "memsweep info without a driver says there is no usable CUDA device" \
    grep -q "no usable CUDA device" "$work/info.out"
  in_root sh -c 'cd /tmp && memsweep run --modes host --max-exp 11 --quiet' >"$work/run.out" 2>&1
  check "memsweep run --modes host runs without a driver" \
    test -s "$root/tmp/memsweep-summary.csv"
fi
in_root ldd /usr/bin/memsweep /usr/bin/memsweep-gtk >"$work/ldd.out" 2>&1
check "every library of the programs resolves" test -z "$(grep 'not found' "$work/ldd.out")"
in_root memsweep show "/usr/share/memsweep/reference/$reference" >"$work/show.out" 2>&1
check "memsweep show of the installed $reference exits 0" test $? -eq 0
# The installed program reads the installed run as the built one reads the
# tree's: the same table, the file's path aside.
env -i PATH=/usr/bin:/bin LANG=C.UTF-8 "$work/src/memsweep/debian/build/app/cli/memsweep" show "$src/data/reference/$reference" 2>&1 |
  sed "s|$src/data/reference|/usr/share/memsweep/reference|g" >"$work/show.built"
check "memsweep show prints the table of the built program" cmp -s "$work/show.out" "$work/show.built" ||
  diff "$work/show.built" "$work/show.out" | head -20
check "memsweep show prints rows" test "$(wc -l <"$work/show.out")" -gt 3
check "memsweep-gtk --version prints memsweep-gtk $version" \
  test "$(in_root memsweep-gtk --version 2>&1)" = "memsweep-gtk $version"
# Everything `meson install` installs is in the package (man pages and
# docs as dh_compress left them, gzipped).
in_root dpkg -L memsweep | sed -E 's#^(/usr/share/(man|doc|info)/.*)\.gz$#\1#' | sort >"$work/packaged"
meson introspect --installed "$work/src/memsweep/debian/build" |
  python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin).values()))' |
  sort >"$work/installed"
check "the package holds every file meson installs" \
  test -z "$(comm -13 "$work/packaged" "$work/installed" | tee "$work/unpackaged")"
check "the package holds every reference run of the tree" test -z "$(
  cd "$src/data/reference" &&
    for f in *.csv.gz; do grep -qx "/usr/share/memsweep/reference/$f" "$work/packaged" || echo "$f"; done)"
# The schema's trigger (libglib2.0-0) compiled the app's settings in.
check "the installed schema is compiled in the root" \
  grep -q io.github.memsweep.Memsweep "$root/usr/share/glib-2.0/schemas/gschemas.compiled"
step "done"
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
