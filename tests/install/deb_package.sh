#!/usr/bin/env bash
# Builds the Debian package with CPack into a temporary folder, checks its control fields, unpacks
# it with dpkg-deb -x into a temporary root (nothing is installed onto the machine) and runs the
# unpacked binary. Usage: deb_package.sh CPACK BUILD_DIR
set -euo pipefail
cpack=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && "$cpack" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) ||
    { cat "$work/cpack.log"; exit 1; }
deb=$(echo "$work"/out/gpuplan_*.deb)
[[ -f $deb ]] || { echo "FAIL: no .deb in $work/out"; exit 1; }
fields=$(dpkg-deb -f "$deb" Package Version Section Maintainer Depends Description)
echo "$fields"
for field in "Package: gpuplan" "Section: utils" "Maintainer: " "Depends: .*libc6" \
    "Depends: .*libyaml-cpp" "Description: plan where"; do
    grep -q "^$field" <<<"$fields" || { echo "FAIL: no '$field' in the control file"; exit 1; }
done
dpkg-deb -x "$deb" "$work/root"
for file in usr/bin/gpuplan usr/share/man/man1/gpuplan.1.gz usr/share/doc/gpuplan/copyright \
    usr/share/doc/gpuplan/changelog.Debian.gz usr/share/bash-completion/completions/gpuplan \
    usr/share/zsh/vendor-completions/_gpuplan usr/share/fish/vendor_completions.d/gpuplan.fish; do
    [[ -f $work/root/$file ]] || { echo "FAIL: $file not in the package"; exit 1; }
done
"$work/root/usr/bin/gpuplan" --version
"$work/root/usr/bin/gpuplan" --version | grep -qx 'gpuplan [0-9.]*'
echo ok
