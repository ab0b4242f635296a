#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""check-flatpak.py SOURCE: reads the Flatpak manifest
(build-aux/flatpak/APP_ID.yml) and checks it against the tree: the app id
of the metainfo and desktop file, a GNOME runtime Flathub supports,
the command the desktop file starts, the files the command line may read
and write, pinned archives, the source folder, and meson options that
meson_options.txt declares. flatpak-builder itself
needs the network (the runtime, the archives), so this is what a test can
check here. Exits 77 without PyYAML."""
import pathlib
import re
import sys

try:
    import yaml
except ImportError:
    print('skip: PyYAML is missing (sh tools/deps.sh test installs python3-yaml)')
    sys.exit(77)

src = pathlib.Path(sys.argv[1])
app_id = re.search(r'<id>([^<]+)</id>',
                   next((src / 'data').glob('*.metainfo.xml.in')).read_text()).group(1)
manifest_path = src / 'build-aux' / 'flatpak' / (app_id + '.yml')
failures = []


def check(what, ok):
    print(('ok   ' if ok else 'FAIL: ') + what)
    if not ok:
        failures.append(what)


check(f'the manifest is named after the metainfo\'s id {app_id}', manifest_path.is_file())
if failures:
    sys.exit(1)
manifest = yaml.safe_load(manifest_path.read_text())
desktop = (src / 'data' / (app_id + '.desktop.in')).read_text()
options = set(re.findall(r"option\('([^']+)'", (src / 'meson_options.txt').read_text()))

check('app-id is the metainfo\'s', manifest.get('app-id') == app_id)
check('the runtime and SDK are GNOME\'s',
      manifest.get('runtime') == 'org.gnome.Platform' and manifest.get('sdk') == 'org.gnome.Sdk')
# GNOME 43 is the first runtime with GTK 4.8 and libadwaita 1.2, but Flathub
# keeps a GNOME runtime only about a year: 50 is the oldest it still served
# when this was last checked (November 2026). Raise it when Flathub retires 50.
OLDEST_SUPPORTED_GNOME = 50
check(f'the runtime is one Flathub supports (GNOME {OLDEST_SUPPORTED_GNOME} or later)',
      str(manifest.get('runtime-version', '0')).isdigit() and
      int(manifest['runtime-version']) >= OLDEST_SUPPORTED_GNOME)
exec_line = re.search(r'^Exec=(\S+)', desktop, re.M)
check('command is what the desktop file starts',
      exec_line is not None and manifest.get('command') == exec_line.group(1))
# The command line has no file chooser portal: it reads runs by their paths
# (read-only home) and writes into the documents folder, and no more.
finish_args = manifest.get('finish-args', [])
check('the command line can read the user\'s runs (--filesystem=home:ro)',
      '--filesystem=home:ro' in finish_args)
check('no write access beyond the documents folder',
      not [a for a in finish_args if a.startswith('--filesystem=') and
           a not in ('--filesystem=home:ro', '--filesystem=xdg-documents')])
modules = manifest.get('modules', [])
check('memsweep is the last module', bool(modules) and modules[-1].get('name') == 'memsweep')
for module in modules:
    name = module.get('name')
    check(f'{name}: a build system flatpak-builder knows',
          module.get('buildsystem') in ('meson', 'autotools', 'cmake-ninja', 'simple'))
    for source in module.get('sources', []):
        if source.get('type') == 'archive':
            check(f'{name}: the archive is fetched over https',
                  str(source.get('url', '')).startswith('https://'))
            check(f'{name}: the archive is pinned by its sha256',
                  re.fullmatch(r'[0-9a-f]{64}', str(source.get('sha256', ''))) is not None)
        elif source.get('type') == 'dir':
            folder = (manifest_path.parent / source.get('path', '')).resolve()
            check(f'{name}: the source folder is this tree', folder == src.resolve())
    if module.get('buildsystem') == 'meson':
        for opt in module.get('config-opts', []):
            key = opt[2:].split('=')[0] if opt.startswith('-D') else None
            check(f'{name}: {opt} is an option of meson_options.txt', key in options)
sys.exit(1 if failures else 0)
