#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-report-browser.sh MEMSWEEP SAMPLES: the HTML report rendered by a real
# headless browser (Debian's chromium); the screenshot must show the charts:
# not blank, and with the palette's saturated colours over many pixels.
# Skips (77) without a browser.
memsweep=$1 samples=$2
browser=""
for b in chromium chromium-browser google-chrome; do
  command -v "$b" >/dev/null && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "SKIP: no chromium (tools/deps.sh test installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$memsweep" report "$samples" --out "$tmp/r.html" || { echo "FAIL: report"; exit 1; }
# No sandbox: the test may run as root in a container; no network is used.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$tmp/profile" --window-size=900,1300 --screenshot="$tmp/shot.png" \
  "file://$tmp/r.html" >"$tmp/log" 2>&1
[ -s "$tmp/shot.png" ] || { echo "FAIL: no screenshot"; sed 's/^/  | /' "$tmp/log"; exit 1; }
python3 - "$tmp/shot.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), "colour type %d" % ctype
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride = zlib.decompress(idat), w * bpp
prev, rows = bytearray(stride), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
dark = colour = 0
for line in rows:
    for x in range(0, stride, bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        dark += max(r, g, b) < 128
        colour += max(r, g, b) - min(r, g, b) > 90
total = w * h
print("screenshot %dx%d: %.2f%% dark, %.2f%% saturated" % (w, h, 100 * dark / total, 100 * colour / total))
assert dark > total * 0.002, "blank: no text"
assert colour > total * 0.002, "no chart colours"
PY
