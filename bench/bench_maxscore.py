"""max_score (NOIP 2009 target Sudoku) on sparse grids: issue 15's speed check.

Run by hand: ``.venv/bin/python bench/bench_maxscore.py [--grids 3] [--cap 20]``.

For 0, 8, 12, 16 and 20 givens (taken at random, seeded, from solved grids of
``/work/shared/data/sudoku``'s 17-clue sample), the CPU seconds and nodes of
``problems.sudoku.max_score`` (its own branch and bound), beside the generic
``dlx.best`` branch and bound on the exact-cover encoding with a node cap (``--cap``
seconds, about; "-" when it did not finish).  Target: every 9x9 grid under 10 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dlx  # noqa: E402
from problems import sudoku  # noqa: E402

DATA = Path("/work/shared/data/sudoku/tdoku_17_clue_sample2000.txt")


def solved_grids(k: int) -> list[str]:
    lines = [line.strip() for line in DATA.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return [str(sudoku.solve(line)) for line in lines[:k]]


def generic(puzzle: str, cap_nodes: int) -> tuple[float, int] | None:
    w = sudoku.target_weights(9)
    stats = dlx.Stats()
    started = time.process_time()
    try:
        dlx.best(sudoku.encode(puzzle), lambda p: w[9 * p.row + p.col] * p.digit,
                 max_nodes=cap_nodes, stats=stats)
    except dlx.BudgetExceeded:
        return None
    return time.process_time() - started, stats.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=3, help="grids per number of givens")
    parser.add_argument("--cap", type=float, default=20,
                        help="about how many seconds the generic search may take per grid")
    args = parser.parse_args()
    rng = random.Random(2009)
    full = solved_grids(args.grids)
    cap_nodes = int(args.cap * 40_000)          # the core runs well over 40,000 nodes/s here
    print("| givens | score | max_score s | nodes | dlx.best s | dlx.best nodes |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for givens in (0, 8, 12, 16, 20):
        for solved in full:
            keep = set(rng.sample(range(81), givens))
            puzzle = "".join(ch if i in keep else "." for i, ch in enumerate(solved))
            stats = dlx.Stats()
            started = time.process_time()
            best = sudoku.max_score(puzzle, stats=stats)
            took = time.process_time() - started
            worst = max(worst, took)
            other = generic(puzzle, cap_nodes)
            gen = ("-", "-") if other is None else (f"{other[0]:.2f}", f"{other[1]:,}")
            print(f"| {givens} | {best} | {took:.2f} | {stats.nodes:,} | {gen[0]} | {gen[1]} |",
                  flush=True)
            if givens == 0:
                break                                 # one empty grid
    print(f"\nslowest max_score: {worst:.2f} s (target: under 10 s)")


if __name__ == "__main__":
    main()
