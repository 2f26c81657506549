#!/usr/bin/env python3
"""docs/methodology.md's comparison tables are `gpuplan validate examples/published/runs.yaml
--format markdown`: every table row and summary line of that output must appear in the page.

Usage: check_methodology_table.py GPUPLAN SOURCE_DIR
"""

import pathlib
import subprocess
import sys


def main():
    gpuplan, root = sys.argv[1], pathlib.Path(sys.argv[2])
    out = subprocess.run([gpuplan, "validate", "examples/published/runs.yaml", "--format",
                          "markdown"], check=True, capture_output=True, text=True, cwd=root).stdout
    page = set((root / "docs" / "methodology.md").read_text(encoding="utf-8").split("\n"))
    missing = [line for line in out.split("\n") if line and line not in page]
    for line in missing:
        print(f"docs/methodology.md lacks: {line}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
