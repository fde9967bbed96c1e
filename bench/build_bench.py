"""The natural call is the fast call (issue 11, point 10): one puzzle at a time.

Run by hand: ``.venv/bin/python bench/build_bench.py [--puzzles 300] [--repeat 5]``.

Per puzzle, on the first ``--puzzles`` lines of the 17-clue sample, in one run:

* ``ExactCover+first``: ``dlx.first(dlx.ExactCover(options))``, ``options`` the dict a
  user writes for the puzzle (``common.sudoku_rows``, the shared encoding: 324 items,
  one option per candidate left by the givens), built before the clock starts;
* ``encode+ExactCover+first``: the same with building that dict on the clock;
* ``sudoku.solve``: ``problems.sudoku.solve(line)``, the documented one-puzzle call;
* ``sudoku.solve_lines``: the batch path, per puzzle;
* exact-cover-py 0.1.2 (numba), per call through ``bench/peers.py`` (the shared encoding,
  its ``get_exact_cover``, decoding), the fastest per-call Python peer of issue 10.

Targets: ExactCover+first at most 0.25 ms and at least 2x faster than exact-cover-py's call;
sudoku.solve at most 2x the batch path per puzzle.  Minimum of ``--repeat`` rounds
(CPU time), interleaved.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import common  # noqa: E402

import dlx  # noqa: E402
from problems import sudoku  # noqa: E402

DATA = Path("/work/shared/data/sudoku/tdoku_17_clue_sample2000.txt")


def options_of(line: str) -> dict[int, list[int]]:
    rows, _, _ = common.sudoku_rows(line)
    return dict(enumerate(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    lines = [line.strip() for line in DATA.read_text().splitlines()
             if line.strip() and not line.startswith("#")][:args.puzzles]
    prebuilt = [options_of(line) for line in lines]
    sudoku.solve(lines[0])
    sudoku.solve_lines(lines[:2])
    tasks = {
        "ExactCover+first": lambda: [dlx.first(dlx.ExactCover(o)) for o in prebuilt],
        "encode+ExactCover+first": lambda: [dlx.first(dlx.ExactCover(options_of(line)))
                                            for line in lines],
        "sudoku.solve": lambda: [sudoku.solve(line) for line in lines],
        "sudoku.solve_lines": lambda: sudoku.solve_lines(lines),
    }
    best = {name: float("inf") for name in tasks}
    for _ in range(args.repeat):
        for name, task in tasks.items():
            started = time.process_time()
            task()
            best[name] = min(best[name], time.process_time() - started)
    with open(HERE / "_build_bench_puzzles.txt", "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        peer = common.run_peer("exact_cover_py", "sudoku", HERE / "_build_bench_puzzles.txt",
                               len(lines), options=("--repeat", str(args.repeat)), timeout=900)
    finally:
        (HERE / "_build_bench_puzzles.txt").unlink()
    per = {name: seconds / len(lines) * 1e3 for name, seconds in best.items()}
    if peer.get("seconds") is not None:
        per["exact-cover-py per call"] = peer["seconds"] / len(lines) * 1e3
    print(f"{len(lines)} 17-clue puzzles, ms per puzzle (CPU, best of {args.repeat}):")
    for name, ms in per.items():
        print(f"  {name:26s} {ms:8.3f} ms")
    if "error" in peer:
        print(f"  exact-cover-py: {peer['error']}")
    print(f"ExactCover+first: {per['ExactCover+first']:.3f} ms (target <= 0.25 ms)")
    if "exact-cover-py per call" in per:
        print(f"exact-cover-py per call / ExactCover+first:"
              f" {per['exact-cover-py per call'] / per['ExactCover+first']:.1f}x (target >= 2x)")
    print(f"sudoku.solve / solve_lines per puzzle:"
          f" {per['sudoku.solve'] / per['sudoku.solve_lines']:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
