#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/plain-lessons.py DIR: the reuse, cache-state and issue-order lessons
against the minimal programs doing the same work, as tables with ratios,
from what `tools/gpu.sh plain-lessons` left in DIR: the lessons' summary
files (reuse-summary.csv, cache-state-summary.csv, issue-order-summary.csv)
and the programs' output (plain-writes.txt, plain-pageable.txt,
plain-issue-order.txt, lines of key=value pairs). A figure missing from the
logs prints as '?'; nothing is typed in by hand."""
import csv
import io
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import run_files  # noqa: E402 (beside this script)


def summary(d, name):
    """{(mode, elements, variant): e2e median in us} of one summary file."""
    p = pathlib.Path(d) / f'{name}-summary.csv'
    if not run_files.existing(p):
        return {}
    lines = [l for l in run_files.read_text(p).splitlines() if not l.startswith('#')]
    cells = {}
    for row in csv.DictReader(io.StringIO('\n'.join(lines))):
        try:
            cells[(row['mode'], int(row['elements']), row.get('variant', ''))] = float(row['e2e_median_us'])
        except (KeyError, ValueError):
            pass
    return cells


def pairs(d, name):
    """The key=value lines of a program's output, as dicts."""
    p = pathlib.Path(d) / name
    rows = []
    for line in (p.read_text(errors='replace').splitlines() if p.exists() else []):
        if line.startswith('#') or '=' not in line:
            continue
        rows.append(dict(f.split('=', 1) for f in line.split() if '=' in f))
    return rows


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def fmt(x, digits=1):
    return '?' if x is None else f'{x:.{digits}f}'


def ratio(a, b):
    return a / b if a and b else None


def link(d):
    """The reuse run's pcie-link metadata as written (its rate per direction
    is in the lesson's caption and the chart's link line)."""
    p = pathlib.Path(d) / 'reuse-summary.csv'
    for line in run_files.read_text(p).splitlines():
        if line.startswith('# pcie-link:'):
            return line[len('# pcie-link:'):].strip()
    return '?'


def table(title, head, rows):
    print(f'\n{title}')
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)] if rows else [len(h) for h in head]
    for r in [head] + rows:
        print('  '.join(str(x).rjust(w) for x, w in zip(r, widths)))


def writes(d):
    ms = summary(d, 'reuse')
    plain = {(r.get('access'), int(r['R'])): r for r in pairs(d, 'plain-writes.txt') if 'R' in r}
    rows = []
    elements = sorted({k[1] for k in ms if k[0] == 'zero-copy'}, reverse=True)
    n = elements[0] if elements else None
    for r in (1, 2, 4, 8, 16):
        p = plain.get(('write', r), {})
        m_k = ms.get(('zero-copy', n, f'R={r}/access=write'))
        m_1 = ms.get(('zero-copy', n, f'R={r}/access=write-in-kernel'))
        p_k, p_1 = num(p.get('kernels_us')), num(p.get('one_kernel_us'))
        rate = lambda t: r * n * 4 / t * 1e-3 if t and n else None
        rows.append([r, fmt(m_k), fmt(p_k), fmt(ratio(m_k, p_k), 3), fmt(rate(m_k)),
                     fmt(m_1), fmt(p_1), fmt(ratio(m_1, p_1), 3), fmt(rate(m_1))])
    table(f'Writes only, zero-copy c of {n * 4 / 1048576 if n else "?"} MiB (memsweep reuse against '
          f'plain-writes; GB/s = R x c over the time; link {link(d)}; its rate per direction is in the lesson caption)',
          ['R', 'ms R-kernels us', 'plain us', 'ms/plain', 'GB/s',
           'ms one-kernel us', 'plain us', 'ms/plain', 'GB/s'], rows)
    rows = []
    for r in (1, 2, 4, 8, 16):
        p = plain.get(('read', r), {})
        rows.append([r, p.get('kernels_us', '?'), p.get('kernels_gbps', '?'), p.get('one_kernel_us', '?'),
                     p.get('one_kernel_gbps', '?')])
    table('Reads only in plain-writes (a and b read R times; GB/s = R x (a + b) over the time): '
          'above the link, the GPU kept lines it read',
          ['R', 'R kernels us', 'GB/s', 'one kernel us', 'GB/s'], rows)


def pageable(d):
    ms = summary(d, 'cache-state')
    plain = {}
    for r in pairs(d, 'plain-pageable.txt'):
        if 'exp' in r:
            plain[(int(r['exp']), r['state'])] = num(r.get('e2e_us'))
    rows = []
    for e in sorted({k[0] for k in plain}):
        n = 1 << e
        m = {s: ms.get(('pageable', n, f'stores={s}')) for s in ('streamed', 'ordinary', 'kept')}
        p = {s: plain.get((e, s)) for s in ('none', 'c-only', 'streamed', 'ordinary', 'streamed+v')}
        rows.append([f'2^{e}', fmt(m['streamed']), fmt(m['ordinary']), fmt(m['kept']),
                     fmt(p['none']), fmt(p['c-only']), fmt(p['streamed']), fmt(p['ordinary']),
                     fmt(p['streamed+v']),
                     fmt(ratio(m['streamed'], p['streamed+v']), 3), fmt(ratio(m['streamed'], p['none']), 3),
                     fmt(ratio(m['ordinary'], p['ordinary']), 3), fmt(ratio(m['kept'], p['c-only']), 3),
                     fmt(ratio(m['kept'], p['none']), 3)])
    table('Pageable end to end, us (memsweep cache-state stores=... against plain-pageable states)',
          ['size', 'ms streamed', 'ms ordinary', 'ms kept', 'pl none', 'pl c-only', 'pl streamed',
           'pl ordinary', 'pl streamed+v', 'ms str/pl str+v', 'ms str/pl none', 'ms ord/pl ord',
           'ms kept/pl c-only', 'ms kept/pl none'], rows)


def issue_order(d):
    ms = summary(d, 'issue-order')
    plain = pairs(d, 'plain-issue-order.txt')
    rows = []
    # The size the plain program ran at, else the lesson's smallest.
    mib = num(plain[0].get('mib')) if plain else None
    sizes = sorted(k[1] for k in ms if k[0] == 'streams' and 'K=16' in k[2])
    n = int(mib * 1048576 / 4) if mib else (sizes[0] if sizes else None)
    for label, tail in (('memsweep, as measured', ''), ('memsweep, around=plain', '/around=plain'),
                        ('memsweep, around=kept', '/around=kept'),
                        ('memsweep, timers=per-step', '/timers=per-step')):
        dd = ms.get(('streams', n, f'queue=single/order=depth/K=16{tail}'))
        bb = ms.get(('streams', n, f'queue=single/order=breadth/K=16{tail}'))
        rows.append([label, 'single', fmt(dd), fmt(bb), fmt(ratio(dd, bb), 3)])
    dd = ms.get(('streams', n, 'queue=default/order=depth/K=16'))
    bb = ms.get(('streams', n, 'queue=default/order=breadth/K=16'))
    rows.append(['memsweep, as measured', 'default', fmt(dd), fmt(bb), fmt(ratio(dd, bb), 3)])
    for r in plain:
        if 'variant' in r:
            rows.append([f'plain, {r["variant"]}', r.get('queues', '?'), r.get('depth_us', '?'),
                         r.get('breadth_us', '?'), r.get('depth_over_breadth', '?')])
    table(f'Issue order at K = 16, {n * 4 / 1048576 if n else "?"} MiB (depth / breadth: above 1, '
          'breadth-first is faster)', ['run', 'queues', 'depth us', 'breadth us', 'depth/breadth'], rows)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    writes(sys.argv[1])
    pageable(sys.argv[1])
    issue_order(sys.argv[1])
    return 0


if __name__ == '__main__':
    sys.exit(main())
