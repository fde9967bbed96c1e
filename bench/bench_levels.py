"""Generating Sudoku puzzles of a requested level (issue 24): success rate and time per
puzzle, level by level, for this checkout and (``--old PATH``) another one.

    python bench/bench_levels.py [--seeds 50] [--symmetry rot180] [--levels 0,3,6]
                                 [--old /path/to/old/checkout]

Each puzzle is ``sudoku.generate(level=L, seed=s, symmetry=...)`` for s = 1..N, in a
fresh process per checkout (so that each imports its own code); a failure is the
GenerateError of a level not met within the default tries.  The time is wall time
per puzzle, failures included (a failure costs its whole run of tries).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
from problems import sudoku
levels, seeds, symmetry = json.loads(sys.argv[1])
for level in levels:
    ok, start, worst = 0, time.perf_counter(), 0.0
    for s in range(1, seeds + 1):
        t = time.perf_counter()
        try:
            p = sudoku.generate(level=level, seed=s, symmetry=symmetry)
            ok += int(sudoku.rate(p).level) == level
        except sudoku.GenerateError:
            pass
        worst = max(worst, time.perf_counter() - t)
    print(json.dumps([level, ok, (time.perf_counter() - start) / seeds, worst]), flush=True)
"""


def run(root: Path, levels: list[int], seeds: int, symmetry: str | None) -> dict[int, list]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps([levels, seeds, symmetry])],
                          capture_output=True, text=True, env=env, cwd=root, check=True)
    return {row[0]: row[1:] for row in map(json.loads, done.stdout.splitlines())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--symmetry", default=None)
    ap.add_argument("--levels", default="0,1,2,3,4,5,6,7,8,9")
    ap.add_argument("--old", type=Path, help="another checkout to measure beside this one")
    ns = ap.parse_args()
    levels = [int(x) for x in ns.levels.split(",")]
    rows = {"new": run(ROOT, levels, ns.seeds, ns.symmetry)}
    if ns.old is not None:
        rows["old"] = run(ns.old, levels, ns.seeds, ns.symmetry)
    print(f"symmetry {ns.symmetry or 'none'}, {ns.seeds} seeds per level"
          f" ({time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f})\n")
    head = "| level |" + "".join(f" {k}: made | {k}: s/puzzle | {k}: slowest |" for k in rows)
    print(head)
    print("|---|" + "---|---|---|" * len(rows))
    for level in levels:
        cells = "".join(f" {r[level][0]}/{ns.seeds} | {r[level][1]:.2f} | {r[level][2]:.2f} |"
                        for r in rows.values())
        print(f"| {level} |{cells}")


if __name__ == "__main__":
    main()
