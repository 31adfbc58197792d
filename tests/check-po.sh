#!/bin/sh
# tests/check-po.sh SOURCE_DIR — every catalogue in po/LINGUAS exists, passes
# `msgfmt --check` (format strings agree in number, order and type; a
# mnemonic or a trailing newline kept), and translates every message the
# sources have now: each .po is merged with a template freshly extracted
# with the keywords of meson's glib preset, and the merge may have no
# untranslated and no fuzzy message.
set -eu
cd "$1/po"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

xgettext --files-from=POTFILES.in --directory=.. --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_prefix_error:2:c-format \
  -o "$tmp/komi.pot"

status=0
for lang in $(grep -vE '^[[:space:]]*(#|$)' LINGUAS); do
  if [ ! -f "$lang.po" ]; then
    echo "$lang is in LINGUAS but $lang.po is missing"; status=1; continue
  fi
  msgfmt --check -o /dev/null "$lang.po" || { echo "$lang.po: msgfmt --check failed"; status=1; }
  msgmerge --quiet --no-fuzzy-matching -o "$tmp/$lang.po" "$lang.po" "$tmp/komi.pot"
  stats=$(msgfmt --check --statistics -o /dev/null "$tmp/$lang.po" 2>&1)
  echo "$lang: $stats"
  case $stats in
    *untranslated*|*fuzzy*) echo "$lang.po does not translate every message"; status=1 ;;
  esac
done
exit $status
