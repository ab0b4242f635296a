#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/fuzz/bombs.py: makes the decompression bombs of docs/csv.md,
"Limits", as small gzip files: none is committed, each is generated.

    bombs.py DIR [NAME...]

Writes DIR/NAME-samples.csv.gz (and DIR/NAME-summary.csv.gz) for each
bomb (all of them when no NAME is given):

  field   a quoted field of 1 GiB of line breaks after a row's start
  blank   1 GiB of blank lines after the header
  line    a line of 2 GiB without an end, after the header
  zeros   1 GiB of zero bytes (a gzip inflating about 1,000 times)

A block of repeated bytes is deflated once, flushed to a byte boundary,
and written again and again: a stream of valid gzip whatever its inflated
size, made in about a second per GiB (the CRC is computed as it goes)."""
import os
import struct
import sys
import zlib

GIB = 1 << 30
BLOCK = 1 << 20

SAMPLES_HEADER = (b"mode,elements,bytes_per_vector,rep,phase,lane,chunk,host_start_us,"
                  b"host_us,gpu_start_us,gpu_us,bytes,verified,status,mismatches,"
                  b"first_mismatch,message,round\n")
SUMMARY_HEADER = b"mode,elements,bytes_per_vector,status,reps,e2e_median_us,message\n"

# What each bomb holds: a head, then `size` bytes made of `unit`, then a tail.
BOMBS = {
    "field": (b'"pageable",1024,4096,0,"e2e",0,0,1,2,,,0,1,"ok",0,0,"', b"\n", GIB, b'",0\n'),
    "blank": (b"", b"\n", GIB, b""),
    "line": (b"", b"x", 2 * GIB, b""),
    "zeros": (None, b"\0", GIB, b""),
}


def gzip_bomb(path, head, unit, size, tail):
    """Writes head + unit * size + tail as one gzip member."""
    crc = zlib.crc32(head)
    block = unit * (BLOCK // len(unit))
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    with open(path, "wb") as out:
        out.write(b"\x1f\x8b\x08\x00\0\0\0\0\0\xff")
        first = zlib.compressobj(9, zlib.DEFLATED, -15)
        out.write(first.compress(head) + first.flush(zlib.Z_FULL_FLUSH))
        # The head's stream is not ended: the blocks continue it, since a
        # full flush leaves no reference to the bytes before.
        for _ in range(size // len(block)):
            out.write(deflated)
            crc = zlib.crc32(block, crc)
        last = zlib.compressobj(9, zlib.DEFLATED, -15)
        out.write(last.compress(tail) + last.flush(zlib.Z_FINISH))
        crc = zlib.crc32(tail, crc)
        total = len(head) + size // len(block) * len(block) + len(tail)
        out.write(struct.pack("<II", crc & 0xFFFFFFFF, total & 0xFFFFFFFF))


def make(directory, names):
    """The bombs' paths, made in directory."""
    paths = []
    for name in names:
        head, unit, size, tail = BOMBS[name]
        for kind, header in (("samples", SAMPLES_HEADER), ("summary", SUMMARY_HEADER)):
            path = os.path.join(directory, "%s-%s.csv.gz" % (name, kind))
            gzip_bomb(path, b"" if head is None else header + head, unit, size, tail)
            paths.append(path)
    return paths


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in make(sys.argv[1], sys.argv[2:] or list(BOMBS)):
        print(p)
