#!/usr/bin/env python3
"""Prints docs/methodology.md's "Presets through gpuplan estimate" table from gpuplan's output.

Runs `gpuplan estimate --preset NAME --gpu A100-80GB --gpu H100 --format json` for every shipped
preset and prints one markdown row per preset. Usage: preset_table.py [--gpuplan PATH]
"""
import json
import subprocess
import sys


def wall(estimate, task):
    hours = estimate["wall_hours"]
    if task == "inference":
        return f"{hours:.0f} h/mo"
    return f"{hours:.1f} h" if hours < 48 else f"{hours / 24:.1f} d"


def gpu_hours(value):
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def main():
    binary = "build/release/gpuplan"
    if len(sys.argv) == 3 and sys.argv[1] == "--gpuplan":
        binary = sys.argv[2]
    presets = json.loads(subprocess.run([binary, "presets", "--format", "json"], check=True,
                                        capture_output=True, text=True).stdout)
    names = [p["name"] for p in presets["presets"]]
    print("| preset | task | A100-80GB: GPUs, wall, GPU-h | H100: GPUs, wall, GPU-h | notes |")
    print("|---|---|---|---|---|")
    for name in names:
        out = json.loads(subprocess.run(
            [binary, "estimate", "--preset", name, "--gpu", "A100-80GB", "--gpu", "H100",
             "--format", "json"], check=True, capture_output=True, text=True).stdout)
        task = out["workload"]["task"]
        by_gpu = {e["gpu"]: e for e in out["estimates"]}
        cells = []
        codes = []
        for gpu in ("A100-80GB", "H100"):
            e = by_gpu[gpu]
            cells.append(f"{e['gpu_count']}, {wall(e, task)}, {gpu_hours(e['gpu_hours'])}")
            for note in e.get("notes", []):
                code = note.split(":", 1)[0]
                if code not in codes:
                    codes.append(code)
        print(f"| `{name}` | {task} | {cells[0]} | {cells[1]} | {', '.join(codes) or '–'} |")


if __name__ == "__main__":
    main()
