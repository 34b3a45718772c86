#!/usr/bin/env python3
"""Checks proofs_checks/sources/toy_experiments_excerpts.txt against a copy of the authors'
notebook: every excerpt line must occur, verbatim (leading whitespace aside), in the cell its
section names. Usage: scripts/check_notebook_excerpts.py NOTEBOOK.ipynb [EXCERPTS]. Exit 0 when
all lines are found, 1 naming the first that is not, 2 for unreadable input."""
import json
import pathlib
import sys


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    excerpts = pathlib.Path(argv[2] if len(argv) == 3 else
                            pathlib.Path(__file__).resolve().parent.parent / "proofs_checks/sources/toy_experiments_excerpts.txt")
    try:
        cells = json.loads(pathlib.Path(argv[1]).read_text(encoding="utf-8"))["cells"]
        lines = excerpts.read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError, KeyError) as e:
        print(f"check_notebook_excerpts: {e}", file=sys.stderr)
        return 2
    cell = None
    checked = 0
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("== cell "):
            cell = int(line[len("== cell "):])
            continue
        if cell is None or cell >= len(cells):
            print(f"{excerpts}:{n}: no cell {cell} in the notebook", file=sys.stderr)
            return 1
        source = [s.strip() for s in "".join(cells[cell]["source"]).splitlines()]
        if line.strip() not in source:
            print(f"{excerpts}:{n}: not a line of cell {cell}: {line}", file=sys.stderr)
            return 1
        checked += 1
    print(f"check_notebook_excerpts: {checked} lines found verbatim in their cells")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
