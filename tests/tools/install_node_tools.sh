#!/bin/sh
# Installs tests/tools/package-lock.json into CACHE_DIR (a build folder) with `npm ci`, only when
# CACHE_DIR/node_modules is missing or the lock file changed, so later runs work offline.
# Usage: install_node_tools.sh CACHE_DIR
set -eu
tools=$(cd "$(dirname "$0")" && pwd)
cache=$1
mkdir -p "$cache"
cp "$tools/check_mermaid.mjs" "$cache/"
if [ -d "$cache/node_modules" ] && cmp -s "$tools/package-lock.json" "$cache/package-lock.json"; then
  echo "install_node_tools: $cache/node_modules is up to date"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "install_node_tools: error: npm not found (apt-get install nodejs npm)" >&2
  exit 1
fi
cp "$tools/package.json" "$tools/package-lock.json" "$cache/"
cd "$cache"
npm ci --no-audit --no-fund --loglevel=error
