#!/bin/sh
# Writes catalog/providers/<provider>.yaml for the clouds read only from SkyPilot feeds, with
# gpuplan catalog import itself: the feed extracts in the shared reference folder, dated the
# day they were read and marked undated (their snapshots' commit dates are unknown), under the
# provider metadata of tools/feed_meta/. Usage (from the repository root, after a build):
#   tools/import_feeds.sh [PRICES_DIR] [GPUPLAN]
set -eu
prices=${1:-../shared/reference/prices}
gpuplan=${2:-build/release/gpuplan}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Shadeform resells other clouds' instances under '<cloud>_<type>' names. The types of clouds
# the catalog carries itself (with their own dated prices) are left out: the broker's undated copy
# of the same product adds only a stale price (docs/methodology.md, "C9d").
resold_carried='^(lambdalabs|nebius|digitalocean|hyperstack|crusoe|verda|paperspace|cudo|scaleway)_'
for provider in runpod vast fluidstack cudo hyperbolic shadeform verda paperspace do; do
    feed="$prices/${provider}_gpu_vms.csv"
    if [ "$provider" = shadeform ]; then
        mkdir -p "$out/feed"
        grep -Ev "$resold_carried" "$feed" >"$out/feed/shadeform_gpu_vms.csv"
        feed="$out/feed/shadeform_gpu_vms.csv"
    fi
    "$gpuplan" catalog import --from skypilot --undated --as-of 2026-12-01 \
        --no-default-catalog --catalog "tools/feed_meta/$provider.yaml" -o "$out" \
        "$feed"
    cp "$out/$provider.yaml" "catalog/providers/$provider.yaml"
done
