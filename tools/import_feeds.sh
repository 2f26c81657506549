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
for provider in runpod vast fluidstack cudo hyperbolic shadeform verda paperspace do; do
    "$gpuplan" catalog import --from skypilot --undated --as-of 2026-12-01 \
        --no-default-catalog --catalog "tools/feed_meta/$provider.yaml" -o "$out" \
        "$prices/${provider}_gpu_vms.csv"
    cp "$out/$provider.yaml" "catalog/providers/$provider.yaml"
done
