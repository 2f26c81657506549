#!/usr/bin/env bash
# Builds the Debian package with CPack into a temporary folder, checks its control fields, unpacks
# it with dpkg-deb -x into a temporary root (nothing is installed onto the machine) and runs the
# unpacked binary. gpuplan has no maintainer of its own: without GPUPLAN_MAINTAINER, DEBFULLNAME
# and DEBEMAIL cpack must stop and say what to set; with DEBFULLNAME and DEBEMAIL the package is
# theirs, in the control file and the changelog, and has no Homepage unless GPUPLAN_HOMEPAGE is
# set. Usage: deb_package.sh CPACK BUILD_DIR
set -euo pipefail
cpack=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
configured=$(sed -n 's/^GPUPLAN_MAINTAINER:STRING=//p' "$build/CMakeCache.txt")
homepage=$(sed -n 's/^GPUPLAN_HOMEPAGE:STRING=//p' "$build/CMakeCache.txt")
if [[ -z $configured ]]; then
    if (cd "$build" && env -u DEBFULLNAME -u DEBEMAIL "$cpack" -G DEB -B "$work/none" \
        >"$work/none.log" 2>&1); then
        cat "$work/none.log"
        echo "FAIL: cpack built a package without a maintainer"
        exit 1
    fi
    # CMake wraps the message: it is read as one line.
    tr -s ' \n' ' ' <"$work/none.log" |
        grep -q "gpuplan: the Debian package needs a maintainer .*or set DEBFULLNAME and DEBEMAIL" ||
        { cat "$work/none.log"; echo "FAIL: no clear message"; exit 1; }
    [[ ! -e $work/none ]] || ! compgen -G "$work/none/*.deb" >/dev/null ||
        { echo "FAIL: a .deb was left in $work/none"; exit 1; }
    maintainer="Test Packager <packager@example.invalid>"
else
    maintainer=$configured
fi
(cd "$build" && DEBFULLNAME="Test Packager" DEBEMAIL=packager@example.invalid \
    "$cpack" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) ||
    { cat "$work/cpack.log"; exit 1; }
deb=$(echo "$work"/out/gpuplan_*.deb)
[[ -f $deb ]] || { echo "FAIL: no .deb in $work/out"; exit 1; }
fields=$(dpkg-deb -f "$deb" Package Version Section Maintainer Homepage Depends Description)
echo "$fields"
for field in "Package: gpuplan" "Section: utils" "Maintainer: $maintainer\$" "Depends: .*libc6" \
    "Depends: .*libyaml-cpp" "Description: plan where"; do
    grep -q "^$field" <<<"$fields" || { echo "FAIL: no '$field' in the control file"; exit 1; }
done
if [[ -z $homepage ]] && grep -q "^Homepage:" <<<"$fields"; then
    echo "FAIL: a Homepage field though GPUPLAN_HOMEPAGE is not set"
    exit 1
fi
dpkg-deb -x "$deb" "$work/root"
for file in usr/bin/gpuplan usr/share/man/man1/gpuplan.1.gz usr/share/doc/gpuplan/copyright \
    usr/share/doc/gpuplan/changelog.Debian.gz usr/share/bash-completion/completions/gpuplan \
    usr/share/zsh/vendor-completions/_gpuplan usr/share/fish/vendor_completions.d/gpuplan.fish; do
    [[ -f $work/root/$file ]] || { echo "FAIL: $file not in the package"; exit 1; }
done
zcat "$work/root/usr/share/doc/gpuplan/changelog.Debian.gz" | grep -qF " -- $maintainer  " ||
    { echo "FAIL: the changelog is not signed by '$maintainer'"; exit 1; }
if grep -rqi "a-seed\|noreply\|github.com/gpuplan" "$work/root/usr/share/doc/gpuplan/copyright"; then
    echo "FAIL: an invented address in the copyright file"
    exit 1
fi
"$work/root/usr/bin/gpuplan" --version
"$work/root/usr/bin/gpuplan" --version | grep -qx 'gpuplan [0-9.]*'
echo ok
