#!/usr/bin/env bash
# The Debian packages gpuplan's build reads headers from are all in packaging/debian-build-deps
# (or installed by one of them): the list README's first line, .ci/run and the CI templates
# install. Derived from the build itself: every system header the objects of gpuplan (not of the
# tests) were compiled against (`ninja -t deps`), mapped to its package by `dpkg -S`, must be in
# the dependency closure of the list (`apt-cache depends --recurse`). Each consumer of the list
# must install it. Usage: build_deps.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1
source_dir=$2
list=$source_dir/packaging/debian-build-deps
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# System headers of the objects gpuplan is linked from (test and fuzz binaries left out).
headers=$(cd "$build" && ninja -t deps | awk '
    /^[^ ]/ { keep = ($0 !~ /gpuplan_tests\.dir|gpuplan_golden\.dir|fuzz/) }
    keep && /^ +\/usr\/include\// { print $1 }' | sort -u)
[[ -n $headers ]] || fail "no system header found in $build's dependency log (build it first)"
packages=$(xargs dpkg -S <<<"$headers" 2>/dev/null | cut -d: -f1 | tr ',' '\n' | sed 's/ //g' | sort -u)
[[ -n $packages ]] || fail "dpkg -S found no package for the build's headers"
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances $(cat "$list") 2>/dev/null |
    sed -n 's/^ *\(Pre\)\{0,1\}Depends: //p; /^[a-z0-9]/p' | sed 's/[<>]//g; s/:.*//' | sort -u)
for package in $packages; do
    grep -qxF -- "$package" <<<"$closure" ||
        fail "the build reads headers of $package, which packaging/debian-build-deps does not install"
done
echo "$(wc -l <<<"$headers") system headers from: $(tr '\n' ' ' <<<"$packages")"

# Every consumer installs the list: README's first line, .ci/run and each CI template, by
# reading the file or by naming each package.
readme_line1=$(awk '/^#+ *Quick start/{q=1} q&&/^```(sh|bash)/{f=1;next} f&&/^```/{exit} f' \
    "$source_dir/README.md" | sed -n 1p)
for consumer in README:"$readme_line1" .ci/run:"$(cat "$source_dir/.ci/run")" \
    $(cd "$source_dir" && ls examples/ci/*.yml); do
    name=${consumer%%:*}
    if [[ $consumer == *:* ]]; then text=${consumer#*:}; else name=$consumer; text=$(cat "$source_dir/$consumer"); fi
    grep -q 'packaging/debian-build-deps' <<<"$text" && continue
    for package in $(cat "$list"); do
        grep -qw -- "$package" <<<"$text" || fail "$name does not install $package"
    done
done
# The second line installs the tests' packages.
readme_line2=$(awk '/^#+ *Quick start/{q=1} q&&/^```(sh|bash)/{f=1;next} f&&/^```/{exit} f' \
    "$source_dir/README.md" | sed -n 2p)
grep -q 'packaging/debian-test-deps' <<<"$readme_line2" || fail "README's second line does not install packaging/debian-test-deps"
grep -q 'packaging/debian-test-deps' "$source_dir/.ci/run" || fail ".ci/run does not install packaging/debian-test-deps"
[[ $failures == 0 ]] && echo "ok: the build's packages are listed and installed"
exit $((failures > 0))
