#!/bin/sh
# run-fuzz.sh
#
# Copyright 2026 The Komi authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds the SGF fuzz target with clang (libFuzzer, ASan, UBSan) in its own
# build directory and runs it for a fixed number of inputs from a fixed seed,
# starting from the fixtures in tests/sgf/. Exits non-zero on any crash,
# leak, sanitizer report or failed check; the crashing input is kept.
#
# Needs clang and its runtime: on Debian 12, apt-get install clang libclang-rt-14-dev.
#
# Environment: FUZZ_RUNS (default 200000), FUZZ_SEED (default 1),
# FUZZ_BUILDDIR (default _build-fuzz in the source tree).

set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=${FUZZ_BUILDDIR:-$srcdir/_build-fuzz}
runs=${FUZZ_RUNS:-200000}
seed=${FUZZ_SEED:-1}

if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz-sgf: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi

# The libraries are instrumented too (fuzzer-no-link), or libFuzzer would
# see no coverage inside the parser it is meant to explore.
if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" "$srcdir" \
    -Dfuzzing=true \
    -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined \
    -Db_lundef=false \
    -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer"
fi
meson compile -C "$builddir" tests/fuzz/fuzz-sgf

# libFuzzer adds what it finds to its first corpus directory: use a copy so
# the source tree stays clean.
corpus=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-sgf-corpus.XXXXXX")
trap 'rm -rf "$corpus"' EXIT
cp "$srcdir"/tests/sgf/*.sgf "$corpus"/

log="$builddir/fuzz-sgf.log"
status=0
"$builddir/tests/fuzz/fuzz-sgf" \
  -runs="$runs" -seed="$seed" \
  -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  -dict="$srcdir/tests/fuzz/sgf.dict" \
  -artifact_prefix="$builddir/" \
  "$corpus" >"$log" 2>&1 || status=$?

if [ "$status" -ne 0 ]; then
  tail -n 40 "$log" >&2
  echo "fuzz-sgf: crash after at most $runs runs (exit $status); input saved in $builddir/, log in $log" >&2
  exit 1
fi
done_runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
echo "fuzz-sgf: ${done_runs:-$runs} runs, no crash"

# The providers' response decoders, briefly (FUZZ_WIRE_RUNS, default 50000), from a
# few canned bodies of each API.
meson compile -C "$builddir" tests/fuzz/fuzz-wire
wire_corpus=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-wire-corpus.XXXXXX")
trap 'rm -rf "$corpus" "$wire_corpus"' EXIT
printf '%s' '{"model":"m","choices":[{"message":{"content":"{\"answer\":\"pass\"}","refusal":null},"finish_reason":"stop","logprobs":{"content":[{"token":"pass","logprob":-0.1,"top_logprobs":[{"token":"B9","logprob":-2}]}]}}],"usage":{"prompt_tokens":1}}' >"$wire_corpus/chat"
printf '%s' '{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"message","content":[{"type":"output_text","text":"B9","logprobs":[]},{"type":"refusal","refusal":"no"}]}]}' >"$wire_corpus/responses"
printf '%s' '{"type":"message","model":"c","content":[{"type":"tool_use","input":{"answer":"C9"}}],"stop_reason":"refusal","stop_details":{"category":"cyber"},"usage":{"input_tokens":3}}' >"$wire_corpus/anthropic"
printf '%s' '{"candidates":[{"content":{"parts":[{"text":"C8","thought":false}]},"finishReason":"STOP","logprobsResult":{"chosenCandidates":[{"token":"C8","logProbability":-0.5}],"topCandidates":[{"candidates":[{"token":"C9","logProbability":-1}]}]}}],"error":{"code":429,"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"2s"}]}}' >"$wire_corpus/gemini"
wire_log="$builddir/fuzz-wire.log"
"$builddir/tests/fuzz/fuzz-wire" -runs="${FUZZ_WIRE_RUNS:-50000}" -seed="$seed" \
  -max_len=4096 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$builddir/" \
  "$wire_corpus" >"$wire_log" 2>&1 || {
  tail -n 40 "$wire_log" >&2
  echo "fuzz-wire: crash; input saved in $builddir/, log in $wire_log" >&2
  exit 1
}
echo "fuzz-wire: $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$wire_log" | tail -n 1) runs, no crash"
