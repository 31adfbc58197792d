#!/bin/sh
# test-publish-browser.sh KOMI-CLI POSITION-HELPER
#
# Copyright 2026 The Komi authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The published site in a real browser: the demo's model games are
# published, then Debian's Chromium, headless and driven by puppeteer-core
# (publish-browser.js), opens the index from file:// and replays a game
# with the keyboard; see that file for what is checked. puppeteer-core, at
# the version named below, comes from the npm registry on the first run
# into a cache outside the build and source trees, kept for the next build
# directory (npm-cache.sh). Without Chromium, node, npm or the registry the
# test is skipped (exit status 77) and says why.
# KOMI_SCREENSHOTS=DIR also writes the screenshots of data/screenshots.
set -eu

cli=$1
helper=$2
src=${KOMI_SOURCE_DIR:?}
build=${KOMI_BUILD_DIR:?}

skip () {
  echo "SKIP: $*"
  exit 77
}

chromium=${KOMI_CHROMIUM:-}
if [ -z "$chromium" ]; then
  chromium=$(command -v chromium || command -v chromium-browser || true)
fi
[ -n "$chromium" ] && [ -x "$chromium" ] || skip "Chromium is not installed (package chromium)"
command -v node >/dev/null 2>&1 || skip "node is not installed (package nodejs)"
. "$src/tests/npm-cache.sh"
npm_cached puppeteer-core 24.43.1

work=$(mktemp -d "$build/test-publish-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT
db=$work/library.db

# Two model games against GNU Go level 1, every call recorded.
"$cli" demo --db "$db" --seed 3 --quiet --delay 0 --latency-ms 0 >"$work/demo.txt"
"$cli" publish --db "$db" --out "$work/site" >"$work/publish.txt"
cat "$work/publish.txt"
# The first game; its first model move from move 9 on with a point chosen.
"$helper" "$db" 1 9 >"$work/expected.json"

HOME=$work NODE_PATH="$npm_modules" \
  node "$src/tests/publish-browser.js" "$chromium" "$work/site" "$work/expected.json" 1 \
  ${KOMI_SCREENSHOTS:-}
