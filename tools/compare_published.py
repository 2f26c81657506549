#!/usr/bin/env python3
"""Compares published training and inference runs with gpuplan's own estimates.

Runs `gpuplan estimate FILE --format json` for every row of examples/published/runs.yaml,
converts the estimate to the metric the publication reports, and prints one table with the
deviation (gpuplan - published) / published, in-sample and out-of-sample rows apart, and the
median absolute deviation of each group and of all rows (docs/methodology.md, "Comparison with
published runs"). Exits 1 when an out-of-sample row is off by more than 50 % without a reason.

Rows with `group: serving` (inference serving: batch-1 decode across tensor-parallel degrees,
first-token latencies, in-flight batching throughput) are printed with `--group serving`; the
default prints the rows without a group.

Usage: compare_published.py [--gpuplan PATH] [--markdown] [--group serving]
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "examples" / "published"
LIMIT = 0.50
SERVING_LIMIT = 0.40


def estimate(gpuplan, path):
    out = subprocess.run([gpuplan, "estimate", str(path), "--format", "json"],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    doc = json.loads(out)
    return doc["workload"], doc["estimates"][0]


def metric_value(metric, workload, e):
    gpus = max(1, e["gpu_count"])
    tput = e["throughput"]
    seq = workload["model"]["seq_len"] or 1
    values = {
        "gpu_hours": lambda: e["gpu_hours"],
        "wall_hours": lambda: e["wall_hours"],
        "wall_days": lambda: e["wall_hours"] / 24.0,
        "total_flops": lambda: e["total_flops"],
        "tokens_per_second_per_gpu": lambda: tput["tokens_per_second"] / gpus,
        "samples_per_second_per_gpu": lambda: tput["samples_per_second"] / gpus,
        "sequences_per_second_per_gpu": lambda: tput["tokens_per_second"] / gpus / seq,
        "seconds_per_iteration": lambda: workload["data"]["tokens"] / tput["tokens_per_second"],
        "model_flops_per_second": lambda: e["total_flops"] / (e["wall_hours"] * 3600.0),
        "decode_tokens_per_second": lambda: tput["decode_tokens_per_second"],
        "first_token_ms": lambda: 1000.0 * workload["inference"]["input_tokens"]
        / tput["prefill_tokens_per_second"],
        "seconds_per_sample": lambda: gpus / tput["requests_per_second_capacity"],
        "output_tokens_per_second": lambda: tput["requests_per_second_capacity"]
        * workload["inference"]["output_tokens"],
    }
    return values[metric]()


def layout(e):
    p = e["parallelism"]
    text = f"{e['gpu_count']} {e['gpu']} t{p['tensor']} pp{p['pipeline']}"
    if p.get("context", 1) > 1:
        text += f" cp{p['context']}"
    if p.get("expert", 1) > 1:
        text += f" ep{p['expert']}"
    text += f" d{p['data']}"
    if p.get("zero", "none") != "none":
        text += f" {p['zero']}"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpuplan", default=str(ROOT / "build" / "release" / "gpuplan"))
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--group", default="", help="print the rows of this group (serving)")
    args = parser.parse_args()
    runs = [run for run in
            yaml.safe_load((PUBLISHED / "runs.yaml").read_text(encoding="utf-8"))["runs"]
            if run.get("group", "") == args.group]
    rows = []
    for run in runs:
        workload, e = estimate(args.gpuplan, PUBLISHED / run["file"])
        run["published"] = float(run["published"])
        value = metric_value(run["metric"], workload, e)
        deviation = (value - run["published"]) / run["published"]
        rows.append((run, value, deviation, layout(e)))
    failed = False
    limit = SERVING_LIMIT if args.group == "serving" else LIMIT
    for group in ("in", "out"):
        chosen = [r for r in rows if r[0]["sample"] == group]
        print(f"\n{group}-of-sample ({len(chosen)} runs)" if group == "out"
              else f"\nin-sample ({len(chosen)} runs)")
        if args.markdown:
            print("\n| # | run | metric | published | gpuplan | deviation | layout | source |")
            print("|---|---|---|---:|---:|---:|---|---|")
        for run, value, deviation, where in chosen:
            flag = ""
            if (group == "out" or args.group) and abs(deviation) > limit:
                flag = " (reason: " + run["reason"] + ")" if run.get("reason") else " NO REASON"
                failed = failed or not run.get("reason")
            if args.markdown:
                print(f"| {run['row']} | `{run['file']}` | {run['metric']} | {run['published']:.4g} "
                      f"| {value:.4g} | {deviation:+.1%} | {where} | {run['source']} |{flag}")
            else:
                print(f"{str(run['row']):>4}  {run['file']:<34} {run['metric']:<29} "
                      f"{run['published']:>11.4g} {value:>11.4g} {deviation:>+8.1%}  {where}{flag}")
        print(f"median absolute deviation ({group}): "
              f"{statistics.median(abs(r[2]) for r in chosen):.1%}")
    print(f"\nall {len(rows)} runs: median absolute deviation "
          f"{statistics.median(abs(r[2]) for r in rows):.1%}, within 15 %: "
          f"{sum(abs(r[2]) <= 0.15 for r in rows)} of {len(rows)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
