#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""png-diff.py A.png B.png: how two drawings of the same size differ, pixel
by pixel (8-bit RGB or RGBA PNGs such as bench-ui --png writes). Prints
how many pixels differ at all, by more than 8 and 64 levels of 255 in
some channel, the largest difference, the mean per channel and where the
first few lie. Python's standard library only."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def load(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    at, idat = 8, b""
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        at += 12 + n
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                sys.exit(f"{path}: only 8-bit RGB or RGBA")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw, stride = zlib.decompress(idat), w * bpp
    out, prev, at = bytearray(), bytearray(stride), 0
    for _ in range(h):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            c = prev[x - bpp] if x >= bpp else 0
            b = prev[x]
            pred = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
            line[x] = (line[x] + pred) & 255
        out += line
        prev = line
    return w, h, bpp, out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: png-diff.py A.png B.png")
    wa, ha, bpp, a = load(sys.argv[1])
    wb, hb, bppb, b = load(sys.argv[2])
    if (wa, ha, bpp) != (wb, hb, bppb):
        sys.exit("the two images differ in size or channels")
    differ = over8 = over64 = largest = total = 0
    first = []
    for i in range(0, len(a), bpp):
        d = [abs(a[i + k] - b[i + k]) for k in range(bpp)]
        most = max(d)
        if most:
            differ += 1
            total += sum(d)
            if len(first) < 5:
                first.append((i // bpp % wa, i // bpp // wa, most))
        over8 += most > 8
        over64 += most > 64
        largest = max(largest, most)
    print(f"{wa}x{ha}: {differ} pixels differ, {over8} by more than 8 levels, "
          f"{over64} by more than 64, largest {largest}, "
          f"mean {total / (wa * ha * bpp):.4f} per channel; first (x, y, most): {first}")


main()
