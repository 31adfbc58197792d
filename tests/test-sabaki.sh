#!/bin/sh
# test-sabaki.sh KOMI-CLI FAKE-GTP-ENGINE
#
# Copyright 2026 The Komi authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Exported games open in Sabaki: a short series and an imported game are
# reviewed with GNU Go, exported as SGF, and read back by Sabaki's parser
# @sabaki/sgf (sabaki-sgf.js), which compares them with Komi's record.
# @sabaki/sgf, at the version named below, comes from the npm registry on
# the first run into a cache outside the build and source trees, kept for
# the next build directory (npm-cache.sh); without node, npm or the
# registry the test is skipped (exit status 77) and says why.
set -eu

cli=$1
fake=${2:?give the fake GTP engine as the second argument}
src=${KOMI_SOURCE_DIR:?}
build=${KOMI_BUILD_DIR:?}

skip () {
  echo "SKIP: $*"
  exit 77
}

command -v node >/dev/null 2>&1 || skip "node is not installed (package nodejs)"
. "$src/tests/npm-cache.sh"
npm_cached @sabaki/sgf 3.4.7

work=$(mktemp -d "$build/test-sabaki.XXXXXX")
trap 'rm -rf "$work"' EXIT
db=$work/library.db

# A series of two short games, reviewed two at a time: GNU Go level 1
# against the tests' fake engine, which plays five moves along the top
# edge and then passes; GNU Go passes soon after (games of 13 and 18
# moves, each with blunders marked, ended by two passes and judged by
# GNU Go). The review's time goes to GNU Go's play-out of each position:
# two whole games of GNU Go against itself (73 and 71 moves) took six
# times as long.
cat >"$work/series.json" <<EOF
{"name": "sabaki-export", "protocol": 1, "subject": "gnugo:1",
 "opponents": ["gtp:$fake --pass-after 5"],
 "pairs": 1, "seed": 5, "referee": "gnugo", "jobs": 2}
EOF
"$cli" run --db "$db" "$work/series.json" >"$work/run.txt"
# An imported game: a record another tool wrote (with Sabaki's header).
# Short and settled early (two walls, then the line between them), so
# that GNU Go's play-out of each position, where the review's time goes,
# ends soon; its opening moves are still marked as blunders.
cat >"$work/imported.sgf" <<EOF
(;GM[1]FF[4]CA[UTF-8]AP[Sabaki:0.52.2]SZ[9]KM[7]RU[Chinese]DT[2026-11-30]
PB[Alice]PW[Bob]RE[W+6]
;B[da];W[fa];B[db];W[fb];B[dc];W[fc];B[dd];W[fd];B[de];W[fe];B[df];W[ff];B[dg];W[fg]
;B[dh];W[fh];B[di];W[fi];B[ea];W[eb];B[ec];W[ed];B[ee];W[ef];B[eg];W[eh];B[ei];W[];B[])
EOF
"$cli" import --db "$db" "$work/imported.sgf" >/dev/null

"$cli" analyse --db "$db" --series sabaki-export --engine gnugo:1 --jobs 2 \
  >"$work/table.txt" 2>/dev/null
"$cli" analyse --db "$db" --game 3 --engine gnugo:1 >>"$work/table.txt" 2>/dev/null
"$cli" export --db "$db" --sgf "$work/sgf" >/dev/null

NODE_PATH="$npm_modules" \
  node "$src/tests/sabaki-sgf.js" "$work/table.txt" "$work"/sgf/*.sgf
