#!/usr/bin/env python3
"""Checks that every SVG gpuplan writes is a well-formed standalone SVG document.

Usage: check_svg.py PATH...   (folders are searched recursively for *.svg)
Each file must parse as XML (xml.etree), have an <svg> root in the SVG namespace with width,
height and viewBox, and contain no <script> or external references. Exit 0 when every file
passes and at least one was found, 1 otherwise.
"""

import pathlib
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def problems_of(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return [f"{path}:{e.position[0]}:{e.position[1]}: not well-formed XML: {e}"]
    found = []
    if root.tag != SVG + "svg":
        found.append(f"{path}: root element is {root.tag}, expected svg in the SVG namespace")
    for attribute in ("width", "height", "viewBox"):
        if attribute not in root.attrib:
            found.append(f"{path}: the svg element has no {attribute}")
    for element in root.iter():
        if element.tag == SVG + "script":
            found.append(f"{path}: contains a script")
        for key in element.attrib:
            if key.endswith("href"):
                found.append(f"{path}: contains an external reference ({key})")
    return found


def main(argv):
    files = []
    for arg in argv[1:]:
        path = pathlib.Path(arg)
        files.extend(sorted(path.rglob("*.svg")) if path.is_dir() else [path])
    problems = [p for f in files for p in problems_of(f)]
    if not files:
        problems.append("check_svg: no SVG file found")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"check_svg: {len(files)} SVG files well-formed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
