#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/screenshots.sh [BUILD]: retakes docs/screenshots/ from the built app
# under Xvfb and openbox, driven by keyboard and a few clicks, from the
# bundled reference runs: every view (bandwidth, time, timeline, breakdown,
# table, GPUs with the 2x H200 peer matrix, Lessons with the reuse lesson
# opened, and the H100 and H200 runs compared) as VIEW-1600-light.png
# (1600x1000, the window maximized), VIEW-1024-presentation-light.png and
# VIEW-1024-presentation-dark.png (1024x768, presentation mode, where the
# lesson opened takes the Lessons page). A shot whose window does not fill
# the screen is named at the end, and the script fails.
# tools/screenshots.sh BUILD lessons: the Lessons page of every lesson
# instead, its card run from its reference run (what a class is shown), as
# docs/screenshots/lessons/NAME-1600-light.png and NAME-1024-presentation-
# {light,dark}.png; LESSONS="NAME ..." takes those alone, GPU=h200 from
# that GPU's reference runs alone (NAME-h200-...png, at 1024x768 only), SHOTS=DIR writes
# under DIR instead of docs/screenshots.
# tools/screenshots.sh BUILD gpus: the GPUs page alone, with the 4x H200
# peer matrix (data/reference/h200x4-peer.csv.gz: its diagram and heat
# map of four GPUs), as gpus-h200x4-1600-light.png and
# gpus-h200x4-1024-presentation-{light,dark}.png.
# tools/screenshots.sh BUILD shrink [PNG...]: the step every shot goes
# through, on the PNGs named (default: every PNG under docs/screenshots).
# Needs xvfb, openbox, xdotool, dbus-x11, imagemagick and pngquant (Debian:
# apt-get install xvfb openbox xdotool dbus-x11 imagemagick pngquant);
# zopflipng, else optipng, shrinks the files further where installed.
set -e
build=${1:-build}
what=${2:-views}
src=$(cd "$(dirname "$0")/.." && pwd)
out=${SHOTS:-$src/docs/screenshots}

# shrink PNG...: each shot quantised to a palette of at most 256 colours
# (pngquant), with a quality floor that keeps text and lines as they were
# at 100% (a shot that would fall under it, or grow, stays as it is), then
# recompressed without loss. The tree keeps its screenshots small this way
# (docs/screenshots/ is most of its size).
shrink () {
  for f in "$@"; do
    pngquant --force --skip-if-larger --quality 80-98 --speed 1 --strip --output "$f" "$f" ||
      true
    if command -v zopflipng >/dev/null; then
      zopflipng -y --iterations=5 "$f" "$f" >/dev/null
    elif command -v optipng >/dev/null; then
      optipng -quiet -o2 "$f"
    fi
  done
}

if ! command -v pngquant >/dev/null; then
  echo "screenshots: needs pngquant (apt-get install pngquant): no shot is kept unquantised" >&2
  exit 1
fi
if [ "$what" = shrink ]; then
  shift 2
  [ $# -gt 0 ] || set -- $(find "$out" -name '*.png' | sort)
  shrink "$@"
  echo "screenshots: $# files shrunk"
  exit 0
fi
ref=$src/data/reference
# Settings in a key file of our own, written afresh for each app: every
# window opens maximized, whatever the one before left.
export GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR=$src/$build/data NO_AT_BRIDGE=1
export MEMSWEEP_REFERENCE_DIR=$ref MEMSWEEP_LOCALEDIR=$src/$build/po
export GSK_RENDERER=cairo LANG=C.UTF-8
tmp=$(mktemp -d)
if [ -n "${GPU:-}" ]; then
  mkdir "$tmp/reference"
  # That GPU's runs, and the runs of hosts of several of it (h200x2-*).
  ln -s "$ref/$GPU"-* "$tmp/reference/"
  for f in "$ref/$GPU"x[0-9]*; do [ -e "$f" ] && ln -s "$f" "$tmp/reference/"; done
  export MEMSWEEP_REFERENCE_DIR=$tmp/reference
fi
export XDG_CONFIG_HOME=$tmp/config
xvfb="" wm="" app="" misfits="" taken=""
stop_screen () {
  for p in $app $wm $DBUS_SESSION_BUS_PID $xvfb; do kill "$p" 2>/dev/null || true; done
  for p in $app $wm $xvfb; do wait "$p" 2>/dev/null || true; done
  xvfb="" wm="" app="" DBUS_SESSION_BUS_PID=""
}
trap 'stop_screen; rm -rf "$tmp"' EXIT

# start_screen W H: a display of that size on a free number, a window
# manager and a session bus of its own, so the apps end by their pid.
start_screen () {
  width=$1 height=$2
  Xvfb -displayfd 3 -screen 0 "${width}x${height}x24" 3>"$tmp/display" >/dev/null 2>&1 &
  xvfb=$!
  while [ ! -s "$tmp/display" ]; do sleep 0.2; done
  export DISPLAY=:$(cat "$tmp/display")
  rm -f "$tmp/display"
  openbox >/dev/null 2>&1 &
  wm=$!
  eval "$(dbus-launch --sh-syntax)"
}

# act ACTION: an xdotool key ("alt+3") or a click at a point ("click:X:Y").
act () {
  case $1 in
  click:*) xdotool mousemove $(echo "${1#click:}" | tr ':' ' ') click 1 ;;
  *) xdotool key "$1" ;;
  esac
  sleep 1
}

reset_settings () {
  mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
  printf '[io/github/memsweep/Memsweep]\nwindow-maximized=true\n' \
    >"$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
}

# fill_screen: the window over the whole screen (maximized already, unless
# the window manager was slow to take it).
fill_screen () {
  xdotool windowsize "$win" "$width" "$height" windowmove "$win" 0 0 windowactivate "$win" \
    2>/dev/null || true
}

# fills FILE: whether the window covers the screenshot's corners (the
# screen around a smaller window is black).
fills () {
  for at in +0+0 "+$((width - 1))+$((height - 1))"; do
    [ "$(convert "$1" -crop "1x1$at" -format '%[hex:u]' info:)" != 000000 ] || return 1
  done
}

# shoot SCHEME SUFFIX NAME:ACTIONS... -- FILES: one app opening FILES, one
# screenshot NAME-SUFFIX.png after each NAME's comma-separated actions. A
# SUFFIX with "presentation" in it turns presentation mode on first.
shoot () {
  scheme=$1 suffix=$2
  shift 2
  shots=""
  while [ $# -gt 0 ] && [ "$1" != -- ]; do shots="$shots $1"; shift; done
  [ "${1:-}" = -- ] && shift
  reset_settings
  ADW_DEBUG_COLOR_SCHEME=$scheme "$src/$build/app/gtk/memsweep-gtk" "$@" >/dev/null 2>&1 &
  app=$!
  win=$(xdotool search --sync --onlyvisible --name memsweep | tail -n 1)
  # A size set at once could be undone by the window's own first one.
  sleep 1
  fill_screen
  case $suffix in *presentation*) sleep 2; act F11 ;; esac
  # Let the files load and their "Opened" toasts (5 s each) go.
  sleep "${settle:-12}"
  for s in $shots; do
    for a in $(echo "${s#*:}" | tr ',' ' '); do act "$a"; done
    # Away from the charts, so that no readout follows the pointer.
    xdotool mousemove "$((width - 1))" "$((height - 1))"
    sleep 1.5
    file=$out/${s%%:*}-$suffix.png
    import -window root "$file"
    taken="$taken $file"
    if ! fills "$file"; then
      fill_screen
      sleep 2
      import -window root "$file"
      fills "$file" || misfits="$misfits $file"
    fi
  done
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  app=""
}

# views SCHEME SUFFIX GPUS: every view; GPUS is the point of that view
# switcher button in this layout. The Lessons page opens on the reuse
# lesson from the command line (its card's Run opens the reference run
# without a GPU), wherever the cards lie, with the H100 default sweep open,
# whose cells answer the cards that compare modes of a plain sweep.
views () {
  shoot "$1" "$2" bandwidth:alt+1 time:alt+2 timeline:alt+3 breakdown:alt+4 table:alt+5 \
    gpus:alt+7 -- "$ref/h100-default-samples.csv.gz" "$ref/h200x2-peer.csv.gz"
  shoot "$1" "$2" lessons: -- --lesson=reuse --run "$ref/h100-default-samples.csv.gz"
  shoot "$1" "$2" compare:alt+6 -- "$ref/h100-default-samples.csv.gz" "$ref/h200-default-samples.csv.gz"
}

# lessons SCHEME SUFFIX: every lesson's page, its card run from its
# reference run (one file: one toast to wait for).
lessons () {
  # The app names its lessons when asked for one it does not know.
  names=$("$src/$build/app/gtk/memsweep-gtk" --lesson=? 2>&1 | sed 's/.*are://')
  for name in ${LESSONS:-$names}; do
    settle=7 shoot "$1" "$2" "$name${GPU:+-$GPU}": -- --lesson="$name" --run
  done
}

# gpus4 SCHEME SUFFIX GPUS: the GPUs page with the 4x H200 peer matrix.
gpus4 () {
  shoot "$1" "$2" gpus-h200x4:alt+7 -- "$ref/h100-default-samples.csv.gz" \
    "$ref/h200x4-peer.csv.gz"
}

if [ "$what" = gpus ]; then
  start_screen 1600 1000
  gpus4 prefer-light 1600-light 1132:26
  stop_screen
  start_screen 1024 768
  gpus4 prefer-light 1024-presentation-light 761:740
  gpus4 prefer-dark 1024-presentation-dark 761:740
  stop_screen
elif [ "$what" = lessons ]; then
  out=$out/lessons
  mkdir -p "$out"
  # Another GPU's pages at 1024x768 alone: what a class sees, and the
  # tree stays small.
  if [ -z "${GPU:-}" ]; then
    start_screen 1600 1000
    lessons prefer-light 1600-light
    stop_screen
  fi
  start_screen 1024 768
  lessons prefer-light 1024-presentation-light
  lessons prefer-dark 1024-presentation-dark
  stop_screen
else
  start_screen 1600 1000
  views prefer-light 1600-light 1132:26
  stop_screen
  start_screen 1024 768
  views prefer-light 1024-presentation-light 761:740
  views prefer-dark 1024-presentation-dark 761:740
  stop_screen
fi

# The shots taken now, not the others beside them (LESSONS takes a few).
shrink $taken
echo "screenshots: $(ls "$out" | wc -l) files in $out"
if [ -n "$misfits" ]; then
  echo "screenshots: the window does not fill the screen in:$misfits" >&2
  exit 1
fi
