#!/bin/sh
# tests/with-keyring.sh PROGRAM [ARGS…] — runs PROGRAM on a session bus of
# its own with a real GNOME Keyring (Secret Service) unlocked in a fresh
# home folder, so that the test's keys never meet the user's keyring.
# Exit status 77 (skipped) when dbus-run-session or gnome-keyring-daemon
# is missing (Debian packages dbus and gnome-keyring).
set -eu

command -v dbus-run-session >/dev/null 2>&1 || exit 77
command -v gnome-keyring-daemon >/dev/null 2>&1 || exit 77

home=$(mktemp -d "${TMPDIR:-/tmp}/komi-keyring-XXXXXX")
trap 'rm -rf "$home"' EXIT INT TERM
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
  XDG_CACHE_HOME="$home/cache" XDG_RUNTIME_DIR="$home/run"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
export KOMI_TEST_REAL_KEYRING=1

# The login keyring is created, unlocked, with a throwaway password read
# from stdin; the daemon lives as long as the session bus.
exec dbus-run-session -- sh -c '
  echo komi-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 77
  exec "$@"' sh "$@"
