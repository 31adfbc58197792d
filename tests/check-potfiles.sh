#!/bin/sh
# tests/check-potfiles.sh SOURCE_DIR — fails when a file under src/ or data/
# has translatable strings (_( N_( C_( NC_( g_dngettext, translatable="yes",
# or is a desktop file, metainfo or settings schema, which always have some)
# but is not in po/POTFILES.in, or when POTFILES.in names a missing file.
set -eu
cd "$1"

found=$(mktemp) listed=$(mktemp)
trap 'rm -f "$found" "$listed"' EXIT INT TERM

{
  grep -rlIE '(^|[^A-Za-z0-9_])(N?C?_|g_dngettext|ngettext)[ ]?\(' src --include='*.c' \
    | while read -r f; do
        # A mention in a comment only ("marked with N_()") is not a string.
        if sed -e 's|/\*.*\*/||' "$f" | grep -qE '(^|[^A-Za-z0-9_])(N?C?_|g_dngettext|ngettext) ?\("'; then
          echo "$f"
        fi
      done
  grep -rlI 'translatable="yes"' src data --include='*.ui' --include='*.xml' \
    | grep -v '\.gresource\.xml$' || true
  find data -name '*.desktop' -o -name '*.desktop.in' -o -name '*.metainfo.xml' \
    -o -name '*.metainfo.xml.in' -o -name '*.gschema.xml'
} | sed 's|^\./||' | sort -u > "$found"
grep -vE '^[[:space:]]*(#|$)' po/POTFILES.in | sort -u > "$listed"

status=0
for f in $(comm -23 "$found" "$listed"); do
  echo "po/POTFILES.in misses $f, which has translatable strings"
  status=1
done
for f in $(cat "$listed"); do
  [ -f "$f" ] || { echo "po/POTFILES.in lists $f, which does not exist"; status=1; }
done
[ $status -eq 0 ] && echo "POTFILES.in lists all $(wc -l < "$listed") files with translatable strings"
exit $status
