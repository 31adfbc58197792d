# npm-cache.sh — sourced by the tests that run a package from npm
# (test-sabaki.sh, test-publish-browser.sh).
#
# Copyright 2026 The Komi authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# npm_cached PACKAGE VERSION sets npm_modules to a node_modules folder that
# holds PACKAGE at exactly VERSION, installing it from the npm registry on
# first use. The install is kept outside any build directory, one folder
# per package and version, so that a new build directory (or a second
# worktree) does not download it again:
#
#   $KOMI_TEST_NPM_CACHE, else $XDG_CACHE_HOME/komi/test-npm,
#   else ~/.cache/komi/test-npm
#
# A first run installs straight into the cache: no slower than installing
# into the build directory was. Two tests installing the same package at
# once each install into a folder of their own and the first to finish
# keeps its copy (a rename), so the suite may run them in parallel.
# Without npm or the registry the caller's skip function says why.

npm_cached () {
  npm_package=$1
  npm_version=$2
  npm_key=$(printf '%s@%s' "$npm_package" "$npm_version" | tr '/' '+')
  npm_cache=${KOMI_TEST_NPM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/komi/test-npm}
  npm_modules=$npm_cache/$npm_key/node_modules
  if [ -f "$npm_modules/$npm_package/package.json" ]; then
    return 0
  fi
  command -v npm >/dev/null 2>&1 || skip "npm is not installed (package npm)"
  if ! mkdir -p "$npm_cache" 2>/dev/null || [ ! -w "$npm_cache" ]; then
    # A read-only home: the build directory, as before.
    npm_cache=${KOMI_BUILD_DIR:?}/npm-cache
    npm_modules=$npm_cache/$npm_key/node_modules
    [ -f "$npm_modules/$npm_package/package.json" ] && return 0
    mkdir -p "$npm_cache"
  fi
  npm_tmp=$(mktemp -d "$npm_cache/.$npm_key.XXXXXX")
  chmod 755 "$npm_tmp"
  if ! npm install --prefix "$npm_tmp" --no-audit --no-fund --no-save \
       "$npm_package@$npm_version" >"$npm_tmp/install.log" 2>&1; then
    npm_log=$npm_cache/$npm_key.install.log
    mv "$npm_tmp/install.log" "$npm_log"
    rm -rf "$npm_tmp"
    tail -n 5 "$npm_log"
    skip "npm could not install $npm_package@$npm_version (is the npm registry reachable?);" \
         "log in $npm_log"
  fi
  # Another test may have finished the same install first: keep its copy.
  mv -T "$npm_tmp" "$npm_cache/$npm_key" 2>/dev/null || rm -rf "$npm_tmp"
  [ -f "$npm_modules/$npm_package/package.json" ] \
    || skip "npm installed $npm_package@$npm_version but $npm_modules has no $npm_package"
}
