#!/usr/bin/env bash
# `cmake --install BUILD --prefix DIR` (and with DESTDIR) yields the binary, gpuplan(1), the
# three completion files, the schemas and the docs, and the installed binary runs.
# Usage: install_tree.sh CMAKE BUILD_DIR
set -euo pipefail
cmake=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
DESTDIR=$work/root "$cmake" --install "$build" --prefix /opt/gpuplan >/dev/null
for root in "$work/prefix" "$work/root/opt/gpuplan"; do
    for file in bin/gpuplan share/man/man1/gpuplan.1* share/bash-completion/completions/gpuplan \
        share/zsh/vendor-completions/_gpuplan share/fish/vendor_completions.d/gpuplan.fish \
        share/gpuplan/schema/recommend.schema.json share/doc/gpuplan/cli.md \
        share/doc/gpuplan/copyright; do
        # shellcheck disable=SC2086
        [[ -f $(echo $root/$file) ]] || { echo "FAIL: $root/$file missing"; exit 1; }
    done
done
"$work/prefix/bin/gpuplan" --version | grep -qx 'gpuplan [0-9.]*' || { echo "FAIL: --version"; exit 1; }
man -l "$work/prefix"/share/man/man1/gpuplan.1* 2>/dev/null | grep -q 'gpuplan recommend' ||
    { echo "FAIL: man -l of the installed page"; exit 1; }
echo ok
