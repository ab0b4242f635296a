#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-install.sh BUILD PREFIX BINDIR DATADIR GUI MANDIR SOURCE: installs the
# build tree into a staging folder (DESTDIR) and checks what a packager
# gets: the command line runs and finds its installed catalogue (from its
# own folder, nothing set), its man page, completions, JSON schemas and the
# reference runs are there; when GUI is true, the app, its GSettings schema,
# desktop file, metainfo, icons and file type are there and it starts, and
# when GUI is false none of them is (a build without GTK installs nothing
# of the app's); no installed file names the source folder SOURCE or the
# build folder.
build=$1 prefix=$2 bindir=$3 datadir=$4 gui=$5 mandir=${6:-share/man} source=$7
app_id=io.github.memsweep.Memsweep
. "$(dirname "$0")/../fixtures/ms-check.sh"

if ! meson install -C "$build" --destdir "$tmp" --no-rebuild --quiet >"$tmp.log" 2>&1; then
  cat "$tmp.log"
  rm -f "$tmp.log"
  echo "FAIL: meson install"
  exit 1
fi
rm -f "$tmp.log"
root=$tmp$prefix
case $bindir in /*) bin=$tmp$bindir ;; *) bin=$root/$bindir ;; esac
case $datadir in /*) data=$tmp$datadir ;; *) data=$root/$datadir ;; esac
case $mandir in /*) man=$tmp$mandir ;; *) man=$root/$mandir ;; esac

# Nothing of the build tree's: no catalogue folder, no reference folder.
unset MEMSWEEP_LOCALEDIR MEMSWEEP_REFERENCE_DIR GSETTINGS_SCHEMA_DIR
check "memsweep is installed" test -x "$bin/memsweep"
check "memsweep modes exits 0" "$bin/memsweep" modes >"$tmp/modes.out" 2>&1
if locale -a 2>/dev/null | grep -qix zh_cn.utf8; then
  LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 LANGUAGE= "$bin/memsweep" modes >"$tmp/modes.zh" 2>&1
  check "the installed memsweep finds the installed catalogue (zh_CN)" \
    grep -q '^pinned .*页锁定' "$tmp/modes.zh"
else
  echo "skip zh_CN: locale not available"
fi
check "the zh_CN catalogue is installed" \
  test -f "$data/locale/zh_CN/LC_MESSAGES/memsweep.mo"
for f in "$(dirname "$0")"/../../data/schema/*.json; do
  check "schema $(basename "$f") is installed" cmp -s "$f" "$data/memsweep/schema/$(basename "$f")"
done
check "memsweep's man page is installed" test -s "$man/man1/memsweep.1"
check "the bash completion is installed" test -s "$data/bash-completion/completions/memsweep"
check "the zsh completion is installed" test -s "$data/zsh/site-functions/_memsweep"
check "the fish completion is installed" test -s "$data/fish/vendor_completions.d/memsweep.fish"
check "the JSON schemas are installed" test -s "$data/memsweep/schema/memsweep-results.json"
for f in "$(dirname "$0")"/../../data/reference/*.csv.gz; do
  check "reference run $(basename "$f") is installed" \
    cmp -s "$f" "$data/memsweep/reference/$(basename "$f")"
done
# The app's files, each named once: present with the app, absent without.
set -- "$bin/memsweep-gtk" "$man/man1/memsweep-gtk.1" \
  "$data/glib-2.0/schemas/$app_id.gschema.xml" "$data/applications/$app_id.desktop" \
  "$data/metainfo/$app_id.metainfo.xml" "$data/icons/hicolor/scalable/apps/$app_id.svg" \
  "$data/icons/hicolor/symbolic/apps/$app_id-symbolic.svg" "$data/mime/packages/$app_id.xml"
if [ "$gui" = true ]; then
  for f; do
    check "${f#"$tmp"} is installed" test -s "$f"
  done
  check "memsweep-gtk is installed" test -x "$bin/memsweep-gtk"
  # The post-install step leaves compiling to the packager's triggers when
  # DESTDIR is set: compile here, as they would.
  check "the installed schemas compile" \
    glib-compile-schemas --strict "$data/glib-2.0/schemas"
  check "the compiled schema holds the app's" \
    gsettings --schemadir "$data/glib-2.0/schemas" list-keys "$app_id"
  GSETTINGS_SCHEMA_DIR=$data/glib-2.0/schemas GSETTINGS_BACKEND=memory \
    "$bin/memsweep-gtk" --help >"$tmp/gtk.out" 2>&1
  check "memsweep-gtk --help starts with the installed schema" \
    grep -q -- '--help' "$tmp/gtk.out"
else
  for f; do
    check "without the app, ${f#"$tmp"} is not installed" test ! -e "$f"
  done
fi
# Neither the source nor the build folder in any installed file (the
# programs' debug information and __FILE__ included): they are the
# building machine's, not the user's.
build_abs=$(cd "$build" && pwd -P)
source_abs=$(cd "${source:-$build/..}" && pwd -P)
named=$(find "$tmp" -mindepth 2 -type f -exec grep -l -a -F -e "$source_abs" -e "$build_abs" {} + |
  sed "s|^$tmp||")
check "the programs to look into are installed" test -x "$bin/memsweep"
check "no installed file names the source or the build folder${named:+: }$(echo $named)" \
  test -z "$named"
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
