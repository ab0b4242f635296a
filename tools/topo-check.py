#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/topo-check.py: memsweep's topology against `nvidia-smi topo -m`,
pair by pair, GPUs matched by PCI address.

    tools/topo-check.py TOPO.txt BUS.csv PEER.txt

TOPO.txt is `nvidia-smi topo -m`, BUS.csv `nvidia-smi
--query-gpu=index,pci.bus_id --format=csv,noheader`, PEER.txt `memsweep
peer`'s output (its "gpu I NAME, BUS" and "to gpu J: CODE, ..." lines).
Prints one line per ordered pair and "N of M pairs match"; exit 1 when
any differs or none was compared.
"""
import re
import sys


def bus_key(bus):
    dom, b, rest = bus.strip().split(":")
    dev, fn = rest.split(".")
    return (int(dom, 16), int(b, 16), int(dev, 16), int(fn, 16))


def smi_matrix(path):
    rows = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        cols = line.split()
        if len(cols) > 1 and re.fullmatch(r"GPU\d+", cols[0]):
            rows[int(cols[0][3:])] = cols[1:]
    n = len(rows)
    return {(i, j): rows[i][j] for i in rows for j in range(n)}


def smi_buses(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        if "," in line:
            index, bus = line.split(",", 1)
            out[bus_key(bus)] = int(index)
    return out


def memsweep_pairs(path):
    pairs, cuda_bus, current = {}, {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"  gpu (\d+) .*?, ([0-9A-Fa-f]+:[0-9A-Fa-f]+:[0-9A-Fa-f]+\.\d), ", line)
        if m:
            current = int(m.group(1))
            cuda_bus[current] = bus_key(m.group(2))
            continue
        m = re.match(r"    to gpu (\d+): ([A-Z]+\d*|\?),", line)
        if m and current is not None:
            pairs[(current, int(m.group(1)))] = m.group(2)
    return pairs, cuda_bus


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    smi, smi_index = smi_matrix(argv[1]), smi_buses(argv[2])
    pairs, cuda_bus = memsweep_pairs(argv[3])
    same = 0
    for (a, b), code in sorted(pairs.items()):
        i, j = smi_index.get(cuda_bus.get(a)), smi_index.get(cuda_bus.get(b))
        want = smi.get((i, j), "missing")
        same += want == code
        print(f"cuda {a}->{b} (nvidia-smi GPU{i}->GPU{j}): memsweep {code}, nvidia-smi {want}"
              f"{'' if want == code else '  DIFFERS'}")
    print(f"{same} of {len(pairs)} pairs match nvidia-smi topo -m")
    return 0 if pairs and same == len(pairs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
