#!/usr/bin/env python3
"""Checks every #include in include/ and src/ against the layer table of docs/architecture.md.

The table (section "Layers") has one row per layer: its name, the files it holds as glob patterns
(the first row whose pattern matches a file owns it) and the layers it may include directly. A
layer may include its own files, the layers it names and, transitively, what those may include.
Fails (exit 1) on a file no row owns, an include of a file that does not exist, an include that
crosses the table, a public header (include/) that includes a private one (src/), and a cycle in
the table itself.

Usage: check_layers.py SOURCE_DIR
"""

import fnmatch
import pathlib
import re
import sys


def read_table(doc):
    rows = []
    in_section = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            in_section = line.strip() == "## Layers"
            continue
        if not in_section or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("layer", "") or set(cells[0]) <= set("-: "):
            continue
        name = cells[0].strip("`")
        files = re.findall(r"`([^`]+)`", cells[1])
        uses = re.findall(r"`([^`]+)`", cells[2])
        rows.append((name, files, uses))
    return rows


def closure(rows):
    direct = {name: set(uses) for name, _, uses in rows}
    problems = []
    for name, uses in direct.items():
        for use in uses:
            if use not in direct:
                problems.append(f"docs/architecture.md: layer '{name}' uses unknown layer '{use}'")
    allowed = {}
    for name in direct:
        seen, stack = set(), list(direct[name])
        while stack:
            layer = stack.pop()
            if layer in seen or layer not in direct:
                continue
            seen.add(layer)
            stack.extend(direct[layer])
        if name in seen:
            problems.append(f"docs/architecture.md: layer '{name}' depends on itself (a cycle)")
        allowed[name] = seen | {name}
    return allowed, problems


def owner(rows, relative):
    for name, patterns, _ in rows:
        if any(fnmatch.fnmatchcase(relative, pattern) for pattern in patterns):
            return name
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    rows = read_table(root / "docs" / "architecture.md")
    if not rows:
        print("docs/architecture.md: no '## Layers' table found")
        return 1
    allowed, problems = closure(rows)
    files = sorted(
        p for base in ("include", "src") for p in (root / base).rglob("*")
        if p.suffix in (".hpp", ".cpp", ".in") and p.is_file())
    include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for path in files:
        relative = path.relative_to(root).as_posix()
        layer = owner(rows, relative)
        if layer is None:
            problems.append(f"{relative}: no layer of docs/architecture.md holds this file")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = include_re.match(line)
            if not match:
                continue
            name = match.group(1)
            candidates = [root / "include" / name, root / "src" / name, path.parent / name]
            target = next((c for c in candidates if c.is_file()), None)
            if target is None:
                problems.append(f"{relative}:{number}: includes \"{name}\", which is not a file "
                                "of include/ or src/")
                continue
            target_relative = target.resolve().relative_to(root).as_posix()
            if relative.startswith("include/") and target_relative.startswith("src/"):
                problems.append(f"{relative}:{number}: public header includes \"{name}\", a "
                                "private header of src/")
            target_layer = owner(rows, target_relative)
            if target_layer is None:
                continue  # reported as a file of its own
            if target_layer not in allowed.get(layer, set()):
                problems.append(f"{relative}:{number}: layer '{layer}' includes \"{name}\" of "
                                f"layer '{target_layer}', which the table does not let it use")
    for problem in problems:
        print(problem)
    print(f"{len(files)} files checked against {len(rows)} layers: "
          f"{len(problems)} problem{'' if len(problems) == 1 else 's'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
