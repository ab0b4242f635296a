#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-widths.py MEMSWEEP LOCALEDIR REFERENCE_DIR: the text tables of
show (a sweep and a lesson) and compare line up in Simplified Chinese,
where a heading's character takes two terminal columns and three bytes.

Widths are counted here independently of memsweep, with Python's
unicodedata: East Asian Wide and Fullwidth characters take two columns,
combining marks none, every other character one (glibc's wcwidth counts
the ambiguous ones, such as µ and ×, as one too).

A table is its heading line and the lines under it up to a blank line.
Its columns are the display columns where every row has a word start
(left-aligned columns) or a word end (right-aligned numbers). Each of the
heading's phrases (words joined by single spaces) must start or end on
one of them, so that each column starts at the same display column in
every row. The verdicts of compare's pooled list must all start at one
column too. Exits 77 without the zh_CN.UTF-8 locale or its catalogue."""
import gettext
import locale
import os
import subprocess
import sys
import unicodedata

memsweep, localedir, reference = sys.argv[1:4]
failures = []


def check(what, ok):
    print(('ok   ' if ok else 'FAIL: ') + what)
    if not ok:
        failures.append(what)


def char_width(ch):
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in 'WF' else 1


def words(line):
    """(start, end) in display columns of each run of characters but spaces."""
    out, col, start = [], 0, None
    for ch in line:
        if ch == ' ':
            if start is not None:
                out.append((start, col))
                start = None
        elif start is None:
            start = col
        col += char_width(ch)
    if start is not None:
        out.append((start, col))
    return out


def phrases(line):
    """Words joined where a single space parts them: one heading each."""
    out = []
    for start, end in words(line):
        if out and start - out[-1][1] == 1:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def table_under(lines, heading):
    """The heading line that starts with heading and the rows under it."""
    for i, line in enumerate(lines):
        if line.startswith(heading):
            rows = []
            for row in lines[i + 1:]:
                if not row.strip():
                    break
                rows.append(row)
            return line, rows
    return None, []


def check_table(what, head, rows):
    if head is None or len(rows) < 2:
        check(f'{what}: the table is there', False)
        return
    starts = set.intersection(*({s for s, _ in words(r)} for r in rows))
    ends = set.intersection(*({e for _, e in words(r)} for r in rows))
    # A heading past the end of most rows (a column this run leaves empty)
    # has nothing to line up with.
    reach = sorted(words(r)[-1][1] for r in rows)[len(rows) // 2]
    heads = [(s, e) for s, e in phrases(head) if s < reach]
    off = [f'{s}..{e}' for s, e in heads if s not in starts and e not in ends]
    check(f'{what}: each of its {len(heads)} headings starts or ends on a column of its '
          f'{len(rows)} rows' + (f' (not: {", ".join(off)})' if off else ''),
          len(heads) >= 3 and not off)


def run(*args, ok=(0,)):
    env = dict(os.environ, LANGUAGE='zh_CN', LANG='zh_CN.UTF-8', LC_ALL='zh_CN.UTF-8',
               MEMSWEEP_LOCALEDIR=localedir)
    p = subprocess.run([memsweep, *args], capture_output=True, text=True, env=env)
    check(f'memsweep {" ".join(os.path.basename(a) for a in args)} exits {p.returncode}',
          p.returncode in ok)
    return p.stdout.splitlines()


try:
    locale.setlocale(locale.LC_ALL, 'zh_CN.UTF-8')
    zh = gettext.translation('memsweep', localedir, ['zh_CN'])
except (locale.Error, OSError) as e:
    print(f'skip: no zh_CN.UTF-8 locale or catalogue ({e})')
    sys.exit(77)
_ = zh.gettext
check('the catalogue translates the headings into CJK characters',
      any(char_width(ch) == 2 for ch in _('size') + _('mode')))

ref = lambda name: os.path.join(reference, name)
show = run('show', ref('h100-default-summary.csv.gz'))
grids = [i for i, line in enumerate(show) if line.startswith(_('size'))]
check('show prints its grids (sizes down, modes across)', len(grids) >= 3)
for n, i in enumerate(grids):
    check_table(f'show: grid {n + 1}', *table_under(show[i:], _('size')))
check_table('show: the fit table', *table_under(show, _('mode')))

lesson = run('show', ref('h100-lesson-batched-summary.csv.gz'))
check_table('show of a lesson: its table', *table_under(lesson, _('mode')))

# Exit 1: some of these cells are AMBIGUOUS.
compare = run('compare', ref('h100-default-1-summary.csv.gz'), ref('h100-default-2-summary.csv.gz'),
              ok=(0, 1))
check_table('compare: the cells', *table_under(compare, _('mode')))
head, pooled = table_under(compare, _('Verdict per mode, its sizes pooled:'))
verdict_starts = {words(line)[1][0] for line in pooled if len(words(line)) > 1}
check(f'compare: the {len(pooled)} pooled verdicts (the whole run\'s too) start at one column',
      len(pooled) >= 3 and any(_('whole run') in line for line in pooled) and
      len(verdict_starts) == 1)

if failures:
    print(f'{len(failures)} check(s) failed')
    sys.exit(1)
