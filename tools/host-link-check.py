#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/host-link-check.py: `memsweep host-link`'s totals against
bench/plain-host-to-all.cu's (the copies of nvbandwidth's
host_to_device_memcpy_ce, host_to_all_memcpy_ce and all_to_host_memcpy_ce)
at the plain program's size, and, given nvbandwidth's own totals, against
them.

    tools/host-link-check.py MEMSWEEP.txt PLAIN.txt[,PLAIN2.txt...] [H2A A2H]

Several plain runs (the plain program before and after memsweep, say):
memsweep is held to their mean, and each is printed. Prints one line per
figure with the ratio; exit 1 when memsweep is more than 5 % from the
plain program, or more than 10 % from H2A / A2H.
"""
import re
import sys


def memsweep_totals(path):
    """{(exp, direction): (all_at_once, alone_summed)}"""
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"2\^(\d+) floats \(\d+ MiB\) (\w+)\s+all at once\s+([\d.]+) GB/s, "
                     r"alone summed\s+([\d.]+)", line)
        if m:
            out[(int(m.group(1)), m.group(2))] = (float(m.group(3)), float(m.group(4)))
    return out


def plain_totals(path):
    out, mib = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.search(r"(\d+) MiB a copy", line)
        if m:
            mib = int(m.group(1))
        m = re.match(r"(\w+): .* SUM ([\d.]+) GB/s", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out, mib


def main(argv):
    if len(argv) not in (3, 5):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ms = memsweep_totals(argv[1])
    runs = [plain_totals(path) for path in argv[2].split(",")]
    mib = runs[0][1]
    plain = {}
    for test in runs[0][0]:
        values = [r[0][test] for r in runs if test in r[0]]
        plain[test] = sum(values) / len(values)
        print(f"plain {test}: " + ", ".join(f"{v:.1f}" for v in values) + " GB/s")
    exp = (mib * 2 ** 20 // 4).bit_length() - 1 if mib else None
    checks = [("host_to_all_memcpy_ce", "h2d", 0), ("all_to_host_memcpy_ce", "d2h", 0),
              ("host_to_device_memcpy_ce", "h2d", 1)]
    bad = 0
    for test, direction, which in checks:
        if test not in plain or (exp, direction) not in ms:
            print(f"{test}: missing (plain {test in plain}, memsweep 2^{exp} {direction})")
            bad += 1
            continue
        ours, theirs = ms[(exp, direction)][which], plain[test]
        ratio = ours / theirs
        ok = abs(ratio - 1) <= 0.05
        bad += not ok
        print(f"{test} at 2^{exp} floats: memsweep {ours:.1f} GB/s, plain {theirs:.1f}, "
              f"ratio {ratio:.3f} {'ok' if ok else 'OUTSIDE 5%'}")
    if len(argv) == 5:
        for test, direction, ref in (("host_to_all", "h2d", float(argv[3])),
                                     ("all_to_host", "d2h", float(argv[4]))):
            ours = ms.get((exp, direction), (0, 0))[0]
            ratio = ours / ref
            ok = abs(ratio - 1) <= 0.10
            bad += not ok
            print(f"{test} against nvbandwidth's {ref} GB/s: memsweep {ours:.1f}, ratio "
                  f"{ratio:.3f} {'ok' if ok else 'OUTSIDE 10%'}")
    print("host-link check: " + ("ok" if bad == 0 else f"{bad} outside"))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
