#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# package-cache.sh root CACHE SUITE MIRROR: prints the path of a pristine
#   minimal root of SUITE (debootstrap --variant=minbase, apt's package
#   lists fetched), made once under CACHE and remade after 30 days.
# package-cache.sh desktop CACHE ROOT PACKAGE...: prints the path of a copy
#   of the pristine ROOT with the named packages installed (the ones the
#   packages under test depend on), made once for each list of names and
#   each ROOT, so that installing the desktop's packages, about a hundred,
#   happens once and not in every run.
# package-cache.sh debs CACHE SOURCE: prints the folder under CACHE
#   holding the Debian packages built (dpkg-buildpackage -nc in
#   CACHE/build, one folder for every clone, kept between builds: what
#   git lists in SOURCE copied over the last build's tree, so that ninja
#   compiles only what changed) with the packages' file lists
#   (contents.txt) and the build's log, time-stamped, beside them; built
#   only when no folder has the key of the same inputs (the tree's files,
#   the build's tools, nvcc's version and the build profiles). After a
#   change to two C files this took 28 to 68 s at a load of 6 to 8 on 2
#   cores, against 4 to 7 min for a build from scratch (a new cache, or
#   the run after a failed build).
# package-cache.sh lintian CACHE DEBS: lintian's output on the packages in
#   DEBS, written there as lintian.txt once (the test runs it beside its
#   installs, as it takes half a minute of CPU).
# The package test (test-package.sh) calls them, so that it builds,
# bootstraps and installs the desktop only when what it checks changed.
# Messages go to stderr; a failure exits 1 with the log's tail.
set -u
what=$1 cache=$2
here=$(dirname "$0")
mkdir -p "$cache"

fail() { echo "FAIL: $*" >&2; exit 1; }
# One writer per cached thing at a time (other clones run this test too):
# the lock is held until this script exits.
lock() { # lock NAME
  exec 9>"$cache/$1.lock"
  flock 9
}

make_root() { # make_root SUITE MIRROR PATH
  rm -rf "$3.new"
  debootstrap --variant=minbase "$1" "$3.new" "$2" >"$3.log" 2>&1 ||
    { tail -20 "$3.log" >&2; fail "debootstrap $1 (log: $3.log)"; }
  # The lists, so that an install needs the network only for packages not
  # yet in the cache; dpkg without fsync, as the root is thrown away.
  chroot "$3.new" apt-get update -qq >>"$3.log" 2>&1 ||
    { tail -20 "$3.log" >&2; fail "apt-get update in the new root (log: $3.log)"; }
  echo force-unsafe-io >"$3.new/etc/dpkg/dpkg.cfg.d/unsafe-io"
  rm -rf "$3" && mv "$3.new" "$3"
}

root() { # root SUITE MIRROR
  path=$cache/$1-minbase stamp="$1 minbase $2"
  if [ "$(cat "$path.stamp" 2>/dev/null)" != "$stamp" ] ||
     [ -n "$(find "$path.stamp" -mtime +30 2>/dev/null)" ]; then
    echo "debootstrap --variant=minbase $1 into $path" >&2
    rm -f "$path.stamp"
    make_root "$1" "$2" "$path" && echo "$stamp" >"$path.stamp" || exit 1
  fi
  echo "$path"
}

# apt in a root of the cache: /proc and the shared package cache mounted
# for it (one apt at a time on that cache), both taken off before the root
# is kept or removed.
apt_in() { # apt_in ROOT LOG ARGS...
  dir=$1 log=$2
  shift 2
  flock "$cache/apt-archives.lock" chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive apt-get -y -qq "$@" >>"$log" 2>&1
}
unmount_in() { # unmount_in ROOT: 0 once nothing is mounted under it
  for m in "$1/var/cache/apt/archives" "$1/proc"; do
    mountpoint -q "$m" 2>/dev/null && umount "$m"
  done
  ! grep -q " $1/" /proc/mounts
}

make_desktop() { # make_desktop PRISTINE PATH PACKAGE...
  from=$1 path=$2
  shift 2
  # Never remove through a mount that stayed (the host's /proc, the cache).
  unmount_in "$path.new" || fail "a mount under $path.new would not come off"
  rm -rf "$path.new"
  cp -a "$from" "$path.new"
  trap 'unmount_in "$path.new"' EXIT
  mkdir -p "$cache/apt-archives/partial"
  mount -t proc proc "$path.new/proc" && mount --bind "$cache/apt-archives" "$path.new/var/cache/apt/archives" ||
    fail "cannot mount /proc and the package cache in $path.new"
  cp /etc/resolv.conf "$path.new/etc/resolv.conf" 2>/dev/null
  : >"$path.log"
  # Lists older than the mirror's packages are fetched again, once.
  apt_in "$path.new" "$path.log" install --no-install-recommends "$@" ||
    { apt_in "$path.new" "$path.log" update &&
        apt_in "$path.new" "$path.log" install --no-install-recommends "$@"; } ||
    { tail -20 "$path.log" >&2; fail "apt-get install in $path.new (log: $path.log)"; }
  unmount_in "$path.new" || fail "a mount under $path.new would not come off"
  trap - EXIT
  rm -rf "$path" && mv "$path.new" "$path"
}

desktop() { # desktop PRISTINE PACKAGE...
  from=$1
  shift
  # A new pristine root (a month old, or another mirror) makes a new one.
  key=$({ echo "$*"; cat "$from.stamp"; stat -c %Y "$from.stamp"; } | sha256sum | cut -c1-16)
  path=$from-desktop-$key
  if [ ! -f "$path.stamp" ]; then
    echo "the packages' dependencies installed into $path" >&2
    make_desktop "$from" "$path" "$@" && echo "$*" >"$path.stamp" || exit 1
    # The two latest stay (two trees being tested with other dependencies).
    ls -dt "$from"-desktop-*/ | tail -n +3 | while read -r old; do
      rm -rf "${old%/}" "${old%/}.stamp" "${old%/}.log"
    done
  fi
  echo "$path"
}

# git COMMAND over what goes into a package: the tree less the documents
# (docs/, *.md), the Flatpak, the GPU machine's scripts and the tests and
# benchmarks (of which the package build reads the meson.build files
# alone: it builds only what is installed), so that a change to them builds
# nothing; this script, which builds, counts.
git_packaged() { # git_packaged SOURCE COMMAND...
  src=$1
  shift
  git -C "$src" "$@" -- . ':(exclude)docs' ':(exclude,glob)**/*.md' ':(exclude)build-aux' \
    ':(exclude)tests' ':(exclude)bench' ':(exclude)tools/gpu.sh' ':(exclude)tools/package-needs.sh'
  git -C "$src" "$@" -- ':(glob)tests/**/meson.build' ':(glob)bench/**/meson.build' \
    tests/package/package-cache.sh tests/package/sync-tree.py
}

# What goes into a package, named by content without reading it all: the
# index's blob ids and modes, and git's hash of each file changed since or
# not yet tracked.
key_tree() { # key_tree SOURCE
  git_packaged "$1" ls-files -s
  { git_packaged "$1" diff --name-only --diff-filter=d
    git_packaged "$1" ls-files --others --exclude-standard
  } | sort -u >"$cache/changed.$$"
  cat "$cache/changed.$$"
  (cd "$1" && git hash-object --stdin-paths <"$cache/changed.$$")
  rm -f "$cache/changed.$$"
}

nvcc_version() {
  for n in nvcc /usr/local/cuda/bin/nvcc; do
    command -v $n >/dev/null 2>&1 && { $n --version | tail -1; return; }
  done
}

# The package test builds the kernels for one architecture, sm_90 (the
# H100 and H200), where a user's package build keeps meson's default
# (sm_75, sm_80 and sm_90 with PTX): each architecture is another device
# compile of every .cu file, and the test checks the packaging (memsweep
# holds GPU code, its libraries, the split, the installs), not nvcc.
test_gencode=-Dgpu_gencode=-gencode=arch=compute_90,code=sm_90
# and compiles the C at -Og, appended to dpkg-buildflags' -O2 (a user's
# build keeps -O2): the same packages, libraries and hardening (-Og still
# optimises, so _FORTIFY_SOURCE still fortifies and lintian finds the
# fortified calls) for less of the compiler's time: from scratch on the
# loaded 2-core machine the .debs took 134 s of CPU against 159 s at -O2
# (docs/measurements/2026-11-27-hostile-and-package-times). The suite's
# own build tests the code at the build's level.
test_cflags=-Og
inputs_key() { # inputs_key SOURCE
  { key_tree "$1"
    nvcc_version
    echo "${DEB_BUILD_PROFILES:-} ${DEB_BUILD_OPTIONS:-} ${MEMSWEEP_MESON_OPTIONS:-} $test_gencode"
    echo "$test_cflags ${DEB_CFLAGS_APPEND:-}"
    dpkg-query -W debhelper meson lintian libcsv-dev libjson-c-dev libgsl-dev libgtk-4-dev \
      libadwaita-1-dev 2>/dev/null
  } | sha256sum | cut -c1-16
}

build_debs() { # build_debs SOURCE OUT
  # Built in one folder for every clone and every run, kept between runs:
  # the tree is copied over the last one's (sync-tree.py: a file whose
  # bytes did not change keeps its time), debhelper's leftovers go, and
  # dpkg-buildpackage -nc (no clean) leaves the configured debian/build to
  # debian/rules, which reuses it, so that ninja rebuilds only what
  # changed, nvcc's objects included; one build at a time in it. A failed
  # build takes the folder with it: the next starts from scratch.
  exec 8>"$cache/build.lock"
  flock 8
  # debhelper (compat 13) gives the build a HOME of its own, empty, where
  # ccache would keep a cache that dies with the build: the user's instead.
  if command -v ccache >/dev/null 2>&1; then
    CCACHE_DIR=${CCACHE_DIR:-$(ccache -k cache_dir)}
    export CCACHE_DIR
  fi
  rm -rf "$2.new" "$cache"/build/*.deb "$cache"/build/*.buildinfo "$cache"/build/*.changes
  mkdir -p "$cache/build/memsweep" "$2.new"
  # Each line of the log is stamped with the time it came (ninja's as they
  # end; debhelper's, buffered, in bursts).
  { synced=$(git -C "$1" ls-files -z --cached --others --exclude-standard |
      python3 "$here/sync-tree.py" "$1" "$cache/build/memsweep" debian/build 2>&1) ||
      { echo "sync-tree.py failed: $synced"; echo 1 >"$2.new/build.rc"; exit; }
    echo "sync-tree.py: $synced"
    # xz -1 and not dpkg-deb's -6 for the three packages of programs: the
    # same files, packed in 3 s and not 9 (what the test checks is inside;
    # a user's build keeps dpkg-deb's default). The kernels for sm_90
    # alone ($test_gencode), as in the development build; the C at -Og
    # ($test_cflags).
    (cd "$cache/build/memsweep" &&
       DEB_BUILD_OPTIONS="parallel=$(nproc) noautodbgsym" DPKG_DEB_COMPRESSOR_LEVEL=1 \
         DEB_CFLAGS_APPEND="${DEB_CFLAGS_APPEND:-} $test_cflags" \
         MEMSWEEP_MESON_OPTIONS="${MEMSWEEP_MESON_OPTIONS:-} $test_gencode" \
         dpkg-buildpackage -us -uc -b -nc 2>&1)
    echo $? >"$2.new/build.rc"
  } | awk '{ print strftime("%T"), $0; fflush() }' >"$2.new/build.log"
  [ "$(cat "$2.new/build.rc")" = 0 ] ||
    { rm -rf "$cache/build/memsweep/debian/build"
      tail -30 "$2.new/build.log" >&2; fail "dpkg-buildpackage (log: $2.new/build.log)"; }
  rm -f "$2.new/build.rc" "$cache"/build/*.buildinfo "$cache"/build/*.changes
  mv "$cache"/build/*.deb "$2.new/"
  # Each package's files (package, mode, path a line), read once here: the
  # data package's listing means unpacking it.
  for deb in "$2.new"/*.deb; do
    dpkg-deb -c "$deb" | awk -v p="$(dpkg-deb -f "$deb" Package)" '{ print p, $1, $6 }'
  done >"$2.new/contents.txt"
  rm -rf "$2" && mv "$2.new" "$2"
  flock -u 8
  # The eight latest builds stay (a build for each clone at work here).
  ls -dt "$(dirname "$2")"/*/ | tail -n +9 | xargs -r rm -rf
}

debs() { # debs SOURCE
  key=$(inputs_key "$1")
  out=$cache/debs/$key
  mkdir -p "$cache/debs"
  lock "debs/$key"
  if [ ! -f "$out/contents.txt" ]; then
    echo "dpkg-buildpackage into $out" >&2
    build_debs "$1" "$out" || exit 1
  fi
  touch "$out"
  echo "$out"
}

# lintian's verdict is the packages', so it is kept with them; one that
# could not check them keeps nothing. The test runs it in the background
# and may stop it: lintian goes with it.
lintian_of() { # lintian_of DEBS
  lock "debs/$(basename "$1").lintian"
  [ -f "$1/lintian.txt" ] && return
  lintian --allow-root --display-info --tag-display-limit 0 --fail-on none "$1"/*.deb \
    >"$1/lintian.new" 2>&1 &
  checker=$!
  trap 'kill $checker 2>/dev/null; rm -f "$1/lintian.new"; exit 1' INT TERM HUP
  wait $checker || { cat "$1/lintian.new" >&2; rm -f "$1/lintian.new"; fail "lintian did not run"; }
  mv "$1/lintian.new" "$1/lintian.txt"
}

case $what in
  root) lock root && root "$3" "$4" ;;
  desktop) shift 2 && lock desktop && desktop "$@" ;;
  debs) debs "$3" ;;
  lintian) lintian_of "$3" ;;
  *) fail "package-cache.sh root|desktop|debs|lintian ..." ;;
esac
