#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/pageable-rounds.py DIR: the pageable-rounds step's table
(tools/gpu.sh). DIR/round-R/ holds one round: the cache-state lesson's
summary (cache-state-summary.csv) and bench/plain-pageable.cu's lines
(plain-pageable.txt). Per size, for each of memsweep's input states and
the plain program's, the end-to-end median of every round (each its own
process), the median over the rounds and their max/min: a state's effect
is real where it is larger than the spread between rounds."""
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
plain_lessons = __import__('plain-lessons')

MEMSWEEP = ('streamed', 'ordinary', 'kept')
PLAIN = ('none', 'c-only', 'streamed', 'ordinary', 'streamed+v')


def rounds(d):
    out = []
    for r in sorted(pathlib.Path(d).glob('round-*'), key=lambda p: int(p.name.split('-')[1])):
        ms = plain_lessons.summary(r, 'cache-state')
        plain = {}
        for row in plain_lessons.pairs(r, 'plain-pageable.txt'):
            if 'exp' in row:
                plain[(int(row['exp']), row['state'])] = plain_lessons.num(row.get('e2e_us'))
        out.append((ms, plain))
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    data = rounds(sys.argv[1])
    exps = sorted({k[0] for _, plain in data for k in plain})
    print('Pageable end to end, us, round by round (each round: the lesson, then the plain '
          'program, each in a process of its own)')
    print('%-5s %-22s %s %10s %8s' % ('size', 'who, state',
                                      ' '.join('%9s' % ('round %d' % (i + 1)) for i in range(len(data))),
                                      'median', 'max/min'))
    for e in exps:
        lines = [('memsweep ' + s, [ms.get(('pageable', 1 << e, 'stores=' + s)) for ms, _ in data])
                 for s in MEMSWEEP]
        lines += [('plain ' + s, [plain.get((e, s)) for _, plain in data]) for s in PLAIN]
        for who, values in lines:
            known = [v for v in values if v]
            cells = ' '.join('%9s' % plain_lessons.fmt(v) for v in values)
            med = statistics.median(known) if known else None
            spread = max(known) / min(known) if known else None
            print('%-5s %-22s %s %10s %8s' % ('2^%d' % e, who, cells, plain_lessons.fmt(med),
                                            plain_lessons.fmt(spread, 3)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
