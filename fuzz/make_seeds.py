#!/usr/bin/env python3
"""Regenerates the seed corpora under fuzz/corpus/<target>/ from shipped files and fixtures.

Usage: fuzz/make_seeds.py [--bundle-tool BUILD/gpuplan_bundle]

Seeds stay small: long files are cut to their first lines (libFuzzer mutates short inputs
faster, and the shape of a file shows in its head). The bundle seed needs the gpuplan_bundle
tool of a build; without --bundle-tool that corpus is left as it is.
"""
import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
MAX_LINES = 80

# target -> glob patterns (relative to the repository root) of files that are seeds as they are.
FILE_SEEDS = {
    "catalog": ["catalog/gpus.yaml", "catalog/providers/*.yaml", "catalog/self_built.yaml",
                "catalog/fx.yaml", "catalog/benchmarks.yaml", "tests/fixtures/catalog/*.yaml"],
    "workload": ["catalog/presets/*.yaml", "examples/*.yaml", "tests/fixtures/workload/*.yaml",
                 "tests/fixtures/workloads/*.yaml"],
    "rules": ["catalog/decision_tree.yaml", "tests/fixtures/rules/*tree*.yaml"],
    "plan": ["tests/fixtures/plans/*.json", "tests/fixtures/check/**/*.json",
             "tests/fixtures/gate/**/*.json"],
    "csv": ["tests/fixtures/feeds/**/*.csv", "tests/fixtures/csv/**/*.csv", "tools/*.csv"],
}

# The decision tree of the bundle seed: every kind of GPU check, over the minimal catalog's model.
SEED_TREE = """schema_version: 1
root: big
nodes:
  - id: big
    test: {any: [{fact: params, ge: 1B}, {not: {fact: gpu_models, contains: a100-80gb}}]}
    why: Large models need memory.
    then: {gpus: {prefer: [a100-80gb]}, purchase: {exclude: [spot]}, why: Memory.}
    else: {gpus: {exclude: [A100-80GB]}, why: Small.}
    missing: {interconnect: {nvlink: true, min_network_gbps: 100}, why: Unknown.}
"""

# Value syntaxes the units parsers see, harvested from YAML values and test string literals.
UNIT_SOURCES = ["catalog/**/*.yaml", "tests/fixtures/**/*.yaml", "tests/unit/test_units.cpp"]
UNIT_VALUE = re.compile(r"^[-+0-9.][-+0-9.eE]*\s*[A-Za-z%]{0,4}$")


def head(path):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    return b"\n".join(lines[:MAX_LINES]) + (b"\n" if len(lines) > MAX_LINES else b"")


def write_seed(target, data, name=None):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    name = name or hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def matches(patterns):
    found = set()
    for pattern in patterns:
        found.update(glob.glob(os.path.join(ROOT, pattern), recursive=True))
    return sorted(p for p in found if os.path.isfile(p) and "/bad/" not in p)


def unit_values():
    values = set()
    for path in matches(UNIT_SOURCES):
        text = open(path, encoding="utf-8", errors="replace").read()
        if path.endswith(".cpp"):
            candidates = re.findall(r'"([^"\\]{1,24})"', text)
        else:
            candidates = re.findall(r":\s*([^\s#{}\[\],][^#{}\[\],]{0,23})\s*(?:[,}\]]|$)", text,
                                    re.M)
        values.update(c.strip() for c in candidates if UNIT_VALUE.match(c.strip()))
    values.update(["2026-11-29", "2024-02-29", "7B", "30d", "250000 USD", "15%", "90min"])
    # One value per shape (digits collapsed), so that the corpus stays small.
    by_shape = {}
    for value in sorted(values):
        by_shape.setdefault(re.sub(r"[0-9]+", "9", value), value)
    return sorted(by_shape.values())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle-tool")
    args = parser.parse_args()
    for target, patterns in FILE_SEEDS.items():
        shutil.rmtree(os.path.join(CORPUS, target), ignore_errors=True)
        for path in matches(patterns):
            rel = os.path.relpath(path, ROOT).replace("/", "_")
            write_seed(target, head(path), rel)
    shutil.rmtree(os.path.join(CORPUS, "units"), ignore_errors=True)
    for value in unit_values():
        write_seed("units", value.encode())
    if args.bundle_tool:
        shutil.rmtree(os.path.join(CORPUS, "bundle"), ignore_errors=True)
        fixture = os.path.join(ROOT, "tests", "fixtures", "catalog", "minimal.yaml")
        with tempfile.TemporaryDirectory() as tmp:
            # The minimal catalog and a small tree over its one GPU model: the bundle then holds
            # a compiled tree, so the fuzzer reaches the tree decoder too.
            shutil.copy(fixture, os.path.join(tmp, "minimal.yaml"))
            with open(os.path.join(tmp, "decision_tree.yaml"), "w") as tree:
                tree.write(SEED_TREE)
            out = os.path.join(tmp, "minimal.bundle")
            subprocess.run([args.bundle_tool, out, tmp, os.path.join(tmp, "decision_tree.yaml"),
                            os.path.join(tmp, "minimal.yaml")], check=True)
            write_seed("bundle", open(out, "rb").read(), "minimal.bundle")
    for target in sorted(os.listdir(CORPUS)):
        folder = os.path.join(CORPUS, target)
        files = os.listdir(folder)
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in files)
        print(f"{target}: {len(files)} seeds, {size} bytes")


if __name__ == "__main__":
    main()
