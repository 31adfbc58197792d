#!/bin/sh
# tests/test-install.sh BUILD_DIR — `meson install` into a temporary
# DESTDIR gives a working application: the binary, the compiled schema, the
# icons, the desktop file and metainfo with their translations merged, and
# the catalogues; then the installed komi is started under Xvfb in German
# (KOMI_SMOKE_TEST: it quits once its first window is on screen) and must
# read its catalogue from the installed locale folder, be listed as an app
# grid lists it (desktop entry and icon), and open with the preferences an
# earlier desktop session kept (dconf).
# Exit status 77 (skipped) without xvfb-run.
set -eu
build=$(cd "$1" && pwd)
command -v xvfb-run >/dev/null 2>&1 || exit 77

tmp=$(mktemp -d "${TMPDIR:-/tmp}/komi-install-XXXXXX")
tmp=$(cd "$tmp" && pwd -P)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail () { echo "FAIL: $*"; exit 1; }

meson install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log"; fail "meson install"; }

bin=$(find "$tmp/root" -path '*/bin/komi' -type f | head -n 1)
[ -n "$bin" ] || fail "no bin/komi installed"
prefix=$(dirname "$(dirname "$bin")")
share=$prefix/share
echo "installed under $prefix"

for f in applications/io.github.komigo.Komi.desktop \
         metainfo/io.github.komigo.Komi.metainfo.xml \
         glib-2.0/schemas/io.github.komigo.Komi.gschema.xml \
         icons/hicolor/scalable/apps/io.github.komigo.Komi.svg \
         icons/hicolor/symbolic/apps/io.github.komigo.Komi-symbolic.svg \
         locale/de/LC_MESSAGES/komi.mo locale/zh_CN/LC_MESSAGES/komi.mo; do
  [ -f "$share/$f" ] || fail "$f is not installed"
done
grep -q '^GenericName\[de\]=' "$share/applications/io.github.komigo.Komi.desktop" \
  || fail "the installed desktop file has no German"
grep -q 'xml:lang="zh_CN"' "$share/metainfo/io.github.komigo.Komi.metainfo.xml" \
  || fail "the installed metainfo has no Chinese"
if command -v desktop-file-validate >/dev/null 2>&1; then
  desktop-file-validate "$share/applications/io.github.komigo.Komi.desktop"
fi

# What gnome.post_install does on a real install (it is skipped under a
# DESTDIR): compile the schemas, and the settings keys are all there.
glib-compile-schemas --strict "$share/glib-2.0/schemas"
GSETTINGS_SCHEMA_DIR=$share/glib-2.0/schemas gsettings list-keys io.github.komigo.Komi \
  | grep -qx default-jobs || fail "the installed schema lacks default-jobs"

home=$tmp/home
mkdir -p "$home/run" "$home/chosen" && chmod 700 "$home/run"
desktop_env () {
  env -u LC_ALL -u LANG -u LC_MESSAGES -u GSETTINGS_BACKEND HOME="$home" \
    XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
    XDG_RUNTIME_DIR="$home/run" XDG_DATA_DIRS="$share:/usr/share" \
    GSETTINGS_SCHEMA_DIR="$share/glib-2.0/schemas" PATH="$prefix/bin:$PATH" "$@"
}

# Preferences are kept as a desktop keeps them: with the default backend
# (dconf where it is installed, as on every GNOME desktop) on a session
# bus of its own. One session sets two preferences and ends; the installed
# komi, started in a second session, opens with them.
if command -v dbus-run-session >/dev/null 2>&1 \
   && ls /usr/lib/*/gio/modules/libdconfsettings.so >/dev/null 2>&1; then
  desktop_env dbus-run-session -- sh -c "
    gsettings set io.github.komigo.Komi library-path '$home/chosen/library.db' &&
    gsettings set io.github.komigo.Komi window-width 1010 &&
    gsettings set io.github.komigo.Komi window-height 640" \
    || fail "gsettings could not keep a preference"
  [ -f "$home/config/dconf/user" ] || fail "the preferences were not written to disk"
  backend="dbus-run-session --"
  kept=yes
else
  echo "no dconf here: the preferences check is left out"
  backend="env GSETTINGS_BACKEND=memory"
  kept=no
fi

out=$(desktop_env LANGUAGE=de KOMI_SMOKE_TEST=1 GSK_RENDERER=cairo GTK_A11Y=none \
        timeout 120 xvfb-run -a -s '-screen 0 1366x768x24' $backend "$bin" 2>"$tmp/stderr") \
  || { cat "$tmp/stderr"; fail "the installed komi did not start and quit cleanly"; }
echo "$out"
echo "$out" | grep -qx 'komi smoke test: window mapped' || fail "no window was mapped"
echo "$out" | grep -qx "locale dir: $share/locale" || fail "the catalogues were not read from $share/locale"
echo "$out" | grep -qx 'Series: Serien' || fail "the installed komi is not German"
echo "$out" | grep -qx 'icon: found' || fail "the icon theme has no io.github.komigo.Komi"
# What an app grid does: the entry on XDG_DATA_DIRS, shown, its Exec on
# PATH (as the prefix's bin is on a real install), with its icon.
echo "$out" | grep -qx "desktop entry: $share/applications/io.github.komigo.Komi.desktop" \
  || fail "a desktop shell would not list komi (no shown desktop entry)"
echo "$out" | grep -qx 'desktop entry icon: found' || fail "the desktop entry's icon is not found"
if [ "$kept" = yes ]; then
  echo "$out" | grep -qx "library: $home/chosen/library.db" \
    || fail "the library chosen in an earlier session was not opened"
  echo "$out" | grep -qx 'window size: 1010x640' \
    || fail "the window size kept in an earlier session was not used"
fi
echo "the installed komi starts, in German, listed with its icon; preferences kept: $kept"
