#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-package.sh SOURCE WORK VERSION MEMSWEEP: the Debian packages built
# from the source tree (debian/; a CUDA build where nvcc is here) checked
# as a GPU server and a desktop get them:
# - the split: four packages; memsweep (the command line) depends on no
#   GTK, libadwaita, Cairo, Pango or GLib and its program needs none of
#   them; no file in two packages; memsweep-data, architecture all, holds
#   every reference run of the tree; lintian reports nothing (run in the
#   background while the roots are used, and reported last);
# - memsweep alone installed into a clean Debian 12 root (no GPU, no
#   driver, nothing of the build's): info, run --modes host and show work
#   there, plot says which package draws, and none of the desktop's
#   libraries came with it;
# - then all four installed by apt into a clean root that already holds
#   what they depend on (made once for each list of dependencies by
#   package-cache.sh: the hundred packages of the desktop took most of
#   this test's time when installed in every run): plot through
#   memsweep-draw, every library of the programs found, memsweep-gtk
#   --version, the app's schema compiled by GLib's trigger. The install is
#   real, as what only an install checks lives there: apt resolves the
#   packages' dependencies against Debian 12, dpkg refuses a file that
#   two packages hold and runs the triggers. Until 2026-11-26 the three
#   others went beside memsweep in the first root, the desktop's hundred
#   packages installed in every run; the checks are the same, lintian's
#   moved to the end and "lintian ran" one of them (a lintian that could
#   not run failed the package build).
# The packages and lintian's output, the pristine root and the root with
# the dependencies are cached outside the tree (MEMSWEEP_PACKAGE_CACHE,
# default ~/.cache/memsweep-package-test) by package-cache.sh, keyed by
# their inputs: a second run with the same tree builds nothing, and one
# after a change to a few files compiles those alone (the build's folder
# is kept: 47 to 101 s in all at a load of 6 to 8 on the 2-core
# development machine, against 5 to 7 min when each build started from
# scratch). Where the cache has no clean roots, debootstrap and apt make
# them while the packages build (they wait on the network and dpkg, the
# build on the compilers): the desktop's from the packages that the
# development build's programs need, which apt completes at the install;
# and the packages' C is compiled at -Og (package-cache.sh).
# MEMSWEEP is
# the build's memsweep, whose table of a reference run the installed one
# must print.
src=$1 work=$2 version=$3
# meson names the build's memsweep from the build folder, where it runs us.
built=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
here=$(dirname "$0")
suite=bookworm
mirror=${MEMSWEEP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${MEMSWEEP_PACKAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memsweep-package-test}
started=$(date +%s)
fails=0
# sort and join in one order.
export LC_ALL=C
# The desktop's libraries, which the command line's package must not pull.
desktop='gtk|adwaita|cairo|pango|glib|gdk-pixbuf|libx11|wayland|fontconfig|harfbuzz'

skip() { echo "skip: $*"; exit 77; }
step() { echo "[$(($(date +%s) - started)) s] $*"; }
check() { # check WHAT COMMAND...
  what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL: $what"; fails=$((fails + 1)); return 1; fi
}
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
apt_in_root() { # apt_in_root LOG ARGS...: one apt at a time on the shared cache
  log=$1
  shift
  flock "$cache/apt-archives.lock" chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive apt-get -y -qq "$@" >>"$log" 2>&1
}

[ "$(id -u)" = 0 ] || skip "building a Debian root needs root (debootstrap, chroot, mount)"
for tool in debootstrap dpkg-buildpackage dh git lintian flock; do
  command -v $tool >/dev/null 2>&1 || skip "$tool is missing (sh tools/deps.sh test installs it)"
done
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || skip "$src is not a git checkout (the copy is what git lists)"

mkdir -p "$work" "$cache/apt-archives/partial"
root=$work/$suite-clean upper=$work/$suite-upper
# Mounts first out, then the clean root; the cache stays for the next run.
cleanup() {
  for m in "$root/var/cache/apt/archives" "$root/proc" "$root"; do
    mountpoint -q "$m" 2>/dev/null && umount "$m"
  done
  # Never remove through a mount that stayed (the host's /proc, the cache).
  if grep -q " $root" /proc/mounts; then
    echo "left $root: a mount under it would not come off" >&2
  else
    rm -rf "$root" "$upper"
  fi
}
linting= rooting=
trap 'cleanup; for job in $linting $rooting; do kill $job 2>/dev/null; done' EXIT
trap 'exit 1' INT TERM HUP
cleanup
# enter_root LOWER: $root is LOWER with a layer of its own on top (or a
# copy of it), /proc and the shared package cache mounted, the packages in
# its /tmp.
enter_root() {
  cleanup
  mkdir -p "$root" "$upper/data" "$upper/work"
  mount -t overlay overlay -o "lowerdir=$1,upperdir=$upper/data,workdir=$upper/work" "$root" 2>/dev/null ||
    cp -a "$1/." "$root"
  mount -t proc proc "$root/proc" || skip "cannot mount /proc in the root (no CAP_SYS_ADMIN here)"
  mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives" || skip "cannot bind-mount the package cache"
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
  cp "$debs"/*.deb "$root/tmp/"
}

# What the four packages will depend on, foreseen from the development
# build's programs: the packages that hold the libraries they need, as
# dpkg-shlibdeps names them. What this misses (debhelper's own
# dependencies, such as a GSettings backend) apt adds when the four are
# installed.
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
foreseen=$(for prog in "$built" "$(dirname "$built")/../gtk/memsweep-gtk"; do
    [ -f "$prog" ] && readelf -d "$prog" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'
  done | sort -u | while read -r so; do
    dpkg -S "*/$multiarch/$so" 2>/dev/null | head -1 | cut -d: -f1
  done | sort -u)
# The clean root (debootstrap, a minute or more where the cache has none:
# the network and dpkg more than the CPU), then the root holding what the
# four depend on (the desktop's hundred packages), are made while the
# packages build (the compilers' CPU), not after them.
: >"$work/desktop.path"
{ "$here/package-cache.sh" root "$cache" "$suite" "$mirror" >"$work/pristine.path" &&
    if [ -n "$foreseen" ]; then
      "$here/package-cache.sh" desktop "$cache" "$(cat "$work/pristine.path")" $foreseen \
        >"$work/desktop.path"
    fi; } 2>"$work/roots.log" &
rooting=$!
step "the packages (built when the tree changed)"
debs=$("$here/package-cache.sh" debs "$cache" "$src") || exit 1
deb() { ls "$debs/$1_$version"_*.deb 2>/dev/null | head -1; }
for p in memsweep memsweep-plot memsweep-gtk memsweep-data; do
  check "the package ${p}_${version} is built" test -f "$(deb $p)" || exit 1
done
# lintian takes half a minute of CPU, mostly while apt waits on dpkg.
"$here/package-cache.sh" lintian "$cache" "$debs" >"$work/lintian.log" 2>&1 &
linting=$!

step "the split"
check "memsweep-data is architecture all" \
  test "$(dpkg-deb -f "$(deb memsweep-data)" Architecture)" = all
check "memsweep depends on nothing of the desktop's" \
  sh -c "! dpkg-deb -f '$(deb memsweep)' Depends | grep -E -q '$desktop'"
rm -rf "$work/unpacked" && mkdir -p "$work/unpacked"
dpkg-deb -x "$(deb memsweep)" "$work/unpacked"
readelf -d "$work/unpacked/usr/bin/memsweep" | grep NEEDED >"$work/needed.txt"
check "the program memsweep needs no GTK, Cairo, Pango or GLib (readelf -d)" \
  sh -c "! grep -E -q 'gtk|adwaita|cairo|pango|glib|gobject|gio' '$work/needed.txt'"
# The packages' files, as package-cache.sh listed them: package, mode, path.
awk '$2 !~ /^d/ { print $3 }' "$debs/contents.txt" | sort | uniq -d >"$work/twice.txt"
check "no file is in two packages" test ! -s "$work/twice.txt"
awk '$1 == "memsweep-data" { print $3 }' "$debs/contents.txt" >"$work/data.txt"
check "memsweep-data holds every reference run of the tree" test -z "$(
  cd "$src/data/reference" &&
    for f in *; do grep -qx "./usr/share/memsweep/reference/$f" "$work/data.txt" || echo "$f"; done)"
# Built with nvcc (debian/rules finds it on PATH or in /usr/local/cuda/bin)
# memsweep holds the CUDA backend with the runtime linked in: the GPU code
# in the program, no toolkit library among what it needs at load time, and
# the driver's libcuda recommended, loaded only at run time.
cuda=false
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  cuda=true
  check "memsweep is a CUDA build (the program holds GPU code)" \
    sh -c "readelf -SW '$work/unpacked/usr/bin/memsweep' | grep -q '\.nv_fatbin'"
  check "no CUDA library is NEEDED by memsweep (the runtime is linked in)" \
    sh -c "! grep -q -i -e cuda -e cupti '$work/needed.txt'"
  check "memsweep recommends the driver's libcuda1" \
    sh -c "dpkg-deb -f '$(deb memsweep)' Recommends | grep -q '^libcuda1'"
fi

step "memsweep alone into a clean $suite root"
wait $rooting || { cat "$work/roots.log"; exit 1; }
rooting=
cat "$work/roots.log"
pristine=$(cat "$work/pristine.path")
enter_root "$pristine"
in_root dpkg-query -W -f '${Package}\n' | sort >"$work/before.txt"
# The cached lists may name packages the mirror has replaced since: then
# the lists are fetched again and the install tried once more.
install() { # install PACKAGE...
  apt_in_root "$work/apt.log" install --no-install-recommends "$@" ||
    { apt_in_root "$work/apt.log" update && apt_in_root "$work/apt.log" install --no-install-recommends "$@"; }
}
: >"$work/apt.log"
install "/tmp/$(basename "$(deb memsweep)")" || {
  tail -30 "$work/apt.log"
  echo "FAIL: apt-get install memsweep in the clean root (log: $work/apt.log)"
  exit 1
}
in_root dpkg-query -W -f '${Package} ${Installed-Size}\n' | sort >"$work/after.txt"
join -v 2 "$work/before.txt" "$work/after.txt" | grep -v '^memsweep ' >"$work/pulled.txt"
step "memsweep pulled $(wc -l <"$work/pulled.txt") packages, $(awk '{ s += $2 } END { print s }' "$work/pulled.txt") kB installed: $(cut -d' ' -f1 "$work/pulled.txt" | tr '\n' ' ')"
check "installing memsweep pulled nothing of the desktop's" \
  sh -c "! grep -E -q '$desktop' '$work/pulled.txt'"
check "the installed memsweep is version $version" \
  test "$(in_root dpkg-query -W -f '${Version}' memsweep)" = "$version"
check "no CUDA library in the root" \
  test -z "$(find "$root/usr" -xdev \( -name 'libcudart*' -o -name 'libcupti*' -o -name 'libcuda.so*' \) -print -quit)"
in_root ldd /usr/bin/memsweep >"$work/ldd.out" 2>&1
check "every library of memsweep resolves" test -z "$(grep 'not found' "$work/ldd.out")"
# With no driver in the root, info says so and exits 3 (without CUDA: 0),
# and the CPU baseline runs.
in_root memsweep info >"$work/info.out" 2>&1
rc=$?
if $cuda; then
  check "memsweep info without a driver exits 3" test $rc -eq 3
  check "memsweep info without a driver says there is no usable CUDA device" \
    grep -q "no usable CUDA device" "$work/info.out"
else
  check "memsweep info exits 0" test $rc -eq 0
fi
in_root sh -c 'cd /tmp && memsweep run --modes host --max-exp 11 --quiet' >"$work/run.out" 2>&1
check "memsweep run --modes host runs and writes its summary" \
  test -s "$root/tmp/memsweep-summary.csv"
# The installed program reads a reference run as the build's does.
run=$(cd "$src/data/reference" && ls | grep -m1 -- '-summary\.csv')
cp "$src/data/reference/$run" "$root/tmp/$run"
in_root memsweep show "/tmp/$run" >"$work/show.out" 2>&1
check "memsweep show of $run exits 0" test $? -eq 0
env -i PATH=/usr/bin:/bin LANG=C.UTF-8 "$built" show "$root/tmp/$run" 2>&1 |
  sed "s|$root/tmp|/tmp|g" >"$work/show.built"
check "memsweep show prints the table of the build's memsweep" cmp -s "$work/show.out" "$work/show.built" ||
  diff "$work/show.built" "$work/show.out" | head -20
in_root memsweep plot "/tmp/$run" --view bandwidth --out /tmp/plot.png >"$work/plot-alone.out" 2>&1
rc=$?
check "memsweep plot without memsweep-plot exits 2, naming the package" \
  sh -c "test $rc -eq 2 && grep -q memsweep-plot '$work/plot-alone.out'"

step "the four packages together into a clean $suite root holding what they depend on"
# The root made beside the build; without a development build to foresee
# from, one made now from what the four depend on, by name (the first of
# alternatives, as apt takes it), less themselves: the versions are apt's
# to check below.
desktop_root=$(cat "$work/desktop.path")
if [ -z "$desktop_root" ]; then
  needs=$(for p in memsweep memsweep-plot memsweep-gtk memsweep-data; do
    dpkg-deb -f "$(deb $p)" Depends | tr ',' '\n'
  done | sed -e 's/|.*//' -e 's/(.*//' -e 's/:any//' -e 's/[[:space:]]//g' | grep -v -e '^$' -e '^memsweep' | sort -u)
  desktop_root=$("$here/package-cache.sh" desktop "$cache" "$pristine" $needs) || exit 1
fi
enter_root "$desktop_root"
install "/tmp/$(basename "$(deb memsweep)")" "/tmp/$(basename "$(deb memsweep-plot)")" \
  "/tmp/$(basename "$(deb memsweep-gtk)")" "/tmp/$(basename "$(deb memsweep-data)")" || {
  tail -30 "$work/apt.log"
  echo "FAIL: apt-get install of the four packages (log: $work/apt.log)"
  exit 1
}
in_root memsweep plot "/usr/share/memsweep/reference/$run" --view bandwidth --out /tmp/plot.png >"$work/plot.out" 2>&1
rc=$?
check "memsweep plot draws through memsweep-draw" \
  sh -c "test $rc -eq 0 && test -s '$root/tmp/plot.png'"
in_root ldd /usr/libexec/memsweep/memsweep-draw /usr/bin/memsweep-gtk >"$work/ldd.out" 2>&1
check "every library of memsweep-draw and memsweep-gtk resolves" test -z "$(grep 'not found' "$work/ldd.out")"
check "memsweep-gtk --version prints memsweep-gtk $version" \
  test "$(in_root memsweep-gtk --version 2>&1)" = "memsweep-gtk $version"
# The schema's trigger (libglib2.0-0) compiled the app's settings in.
check "the installed schema is compiled in the root" \
  grep -q io.github.memsweep.Memsweep "$root/usr/share/glib-2.0/schemas/gschemas.compiled"

step "lintian's verdict"
wait $linting
rc=$?
linting=
cat "$work/lintian.log"
rm -f "$work/lintian.txt"
cp "$debs/lintian.txt" "$work/lintian.txt" 2>/dev/null
check "lintian ran on the four packages" test $rc -eq 0 -a -f "$work/lintian.txt"
check "lintian reports nothing on the four packages ($work/lintian.txt)" \
  test -z "$(grep -E '^[EWI]: ' "$work/lintian.txt")" || head -20 "$work/lintian.txt"
step "done"
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
