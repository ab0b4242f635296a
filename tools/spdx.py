#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/spdx.py [--fix]: every source file (C, CUDA, headers, meson,
shell, Python, .ui, CSS) names its licence with an SPDX line near the top.
Without --fix it lists the files that lack one and exits 1 (a test); with
--fix it adds the line in the file's comment syntax."""
import pathlib, re, subprocess, sys

TAG = 'SPDX-License-Identifier: GPL-3.0-or-later'
STYLES = {'.c': '/* {} */', '.h': '/* {} */', '.cu': '/* {} */', '.cuh': '/* {} */',
          '.css': '/* {} */', '.sh': '# {}', '.py': '# {}', '.build': '# {}',
          '.txt': '# {}', '.ui': '<!-- {} -->', '.xml': '<!-- {} -->'}
SKIP = re.compile(r'^(tests/fuzz/(corpus|crashes)/|data/reference/|docs/|po/)')


def wanted(path):
    p = pathlib.Path(path)
    if SKIP.match(path):
        return None
    if p.name in ('meson.build', 'meson_options.txt'):
        return '# {}'
    if p.name in ('run', 'run.sh', 'test.sh') or path.startswith('.ci/'):
        return '# {}'
    return STYLES.get(p.suffix)


def fix(path, style):
    lines = pathlib.Path(path).read_text().split('\n')
    line = style.format(TAG)
    at = 0
    if lines and lines[0].startswith('#!'):
        at = 1
    if lines and lines[0].startswith('<?xml'):
        at = 1
    lines.insert(at, line)
    pathlib.Path(path).write_text('\n'.join(lines))


def main():
    do_fix = '--fix' in sys.argv
    root = subprocess.run(['git', 'rev-parse', '--show-toplevel'], capture_output=True,
                          text=True, check=True).stdout.strip()
    files = subprocess.run(['git', '-C', root, 'ls-files'], capture_output=True, text=True,
                           check=True).stdout.split('\n')
    missing = []
    for f in files:
        style = wanted(f) if f else None
        path = pathlib.Path(root) / f
        if not style or not path.is_file():
            continue
        head = path.read_text(errors='replace').split('\n')[:5]
        if not any('SPDX-License-Identifier:' in l for l in head):
            missing.append(f)
            if do_fix:
                fix(path, style)
    for f in missing:
        print(('added: ' if do_fix else 'no SPDX line: ') + f)
    print(f'{len(missing)} files without an SPDX line' + (' (fixed)' if do_fix else ''))
    return 0 if do_fix or not missing else 1


sys.exit(main())
