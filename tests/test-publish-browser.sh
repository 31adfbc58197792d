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
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
db=$work/library.db

# Two model games against GNU Go level 1, every call recorded.
"$cli" demo --db "$db" --seed 3 --quiet --delay 0 --latency-ms 0 >"$work/demo.txt"
"$cli" publish --db "$db" --out "$work/site" >"$work/publish.txt"
cat "$work/publish.txt"
# The first game; its first model move from move 9 on with a point chosen.
"$helper" "$db" 1 9 >"$work/expected.json"

# A second site for what a reader must see apart: the rehearsal model
# against random with a 500 (a transport fault, retried) on its 5th request
# and three invalid answers in a row from its 31st (a forfeit), then a
# game played to the protocol's turn limit.
# The file exists before the server's shell opens it: the loop below may
# read it first, and a failed sed would end the script (set -e).
: >"$work/rehearse.txt"
"$cli" rehearse --port 0 --seed 4 --faults "500@5,invalid@31,invalid@32,invalid@33" \
  >"$work/rehearse.txt" 2>&1 &
server=$!
url=
for _ in $(seq 100); do
  url=$(sed -n 's/^Rehearsal provider at \(http[^ ]*\).*/\1/p' "$work/rehearse.txt")
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { cat "$work/rehearse.txt"; echo "the rehearsal server did not start"; exit 1; }
cat >"$work/model.json" <<JSON
{"name": "rehearsal", "api": "openai-chat", "base_url": "$url/v1", "model": "rehearsal-model",
 "retry_base_ms": 10, "retry_cap_ms": 50, "price_input_per_mtok": 2.5, "price_output_per_mtok": 10}
JSON
cat >"$work/series.json" <<JSON
{"name": "Faults", "protocol": 1, "subject": "model:$work/model.json", "opponents": ["random"],
 "pairs": 1, "seed": 5, "referee": "none", "jobs": 1}
JSON
"$cli" run "$work/series.json" --db "$work/faults.db" >"$work/run.txt" 2>&1 \
  || { cat "$work/run.txt"; exit 1; }
kill "$server"; server=
# A raw response of 200,000 characters (a server's long answer, under the
# size cap) on the first invalid answer: the page shows its start.
python3 - "$work/faults.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
body = '{"choices":[{"message":{"content":"' + 'Z9 ' * 66666 + 'Z9"}}]}'
db.execute("UPDATE calls SET response_body = CAST(? AS BLOB) WHERE id = "
           "(SELECT min(id) FROM calls WHERE outcome = 'invalid-option')", (body,))
db.commit()
PY
"$cli" publish --db "$work/faults.db" --out "$work/faults-site" >"$work/publish-faults.txt"

HOME=$work NODE_PATH="$npm_modules" \
  node "$src/tests/publish-browser.js" "$chromium" "$work/site" "$work/expected.json" 1 \
  "$work/faults-site" "${KOMI_SCREENSHOTS:-}"
