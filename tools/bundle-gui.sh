#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/bundle-gui.sh DIR: copies memsweep-gtk and bench-ui (from build/), Xvfb, xwd and
# the libraries, keymaps, fonts and schema they need into DIR, so that the
# app can run on a GPU machine that has no GTK (tools/gpu.sh gui there).
# Development aid only; what it copies comes from this machine's packages.
set -e
out=${1:-.gtk}
rm -rf "$out"
mkdir -p "$out/lib" "$out/bin" "$out/fonts" "$out/schemas"
# bench-ui too, for tools/gpu.sh scale.
cp build/app/gtk/memsweep-gtk build/bench/bench-ui "$(command -v Xvfb)" "$(command -v xkbcomp)" "$(command -v xwd)" "$out/bin/"
for b in "$out"/bin/*; do ldd "$b" | awk '/=>/ {print $3}'; done | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*|libgcc_s.so.*|libstdc++.so.*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done
cp -r /usr/share/X11/xkb "$out/xkb"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$out/fonts/"
cp build/data/gschemas.compiled "$out/schemas/"
cat >"$out/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir prefix="relative">fonts</dir><cachedir>/tmp/fc-cache</cachedir></fontconfig>
CONF
du -sh "$out"
