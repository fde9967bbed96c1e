"""The compiled core against the pure engine, in one run: same answers, how much faster.

    .venv/bin/python bench/core_vs_python.py [--repeat 3] [--puzzles 200] [--queens 10 11 12]

Prints, for each task, the median wall time of ``--repeat`` runs on each engine and
the ratio.  Tasks: N-queens counts, and 9x9 Sudoku (first solution + uniqueness, i.e.
``dlx.count(limit=2)``) on the 17-clue and forum-hardest samples of the shared data,
encoding timed apart from searching (the core does not make encoding faster).
Both engines must agree on every answer and every node count, or the script fails.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import common  # noqa: E402

import dlx  # noqa: E402
from dlx import engine as engines  # noqa: E402
from dlx.links import Links  # noqa: E402

SUDOKU_SETS = {"17-clue": "tdoku_17_clue_sample2000.txt",
               "forum-hardest": "tdoku_forum_hardest_1905_11plus_sample2000.txt"}


def queens(n: int) -> dlx.ExactCover:
    rows, n_primary, n_secondary = common.queens_rows(n)
    options, secondary = common.as_options(rows, n_primary, n_secondary)
    return dlx.ExactCover(options, secondary=secondary)


def sudoku(puzzle: str) -> dlx.ExactCover:
    rows, labels, _ = common.sudoku_rows(puzzle)
    return dlx.ExactCover(dict(zip(labels, rows, strict=True)))


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def line(task: str, t_py: float, t_c: float, unit: str = "s") -> None:
    print(f"{task:<34} python {t_py:>9.4f} {unit}   c {t_c:>9.4f} {unit}   "
          f"c is {t_py / t_c:>5.1f}x faster")


def count_with_stats(p: dlx.ExactCover, engine: str) -> tuple[int, int, int]:
    s = dlx.Stats()
    return dlx.count(p, stats=s, engine=engine), s.nodes, s.updates


def solve_all(problems: list[dlx.ExactCover], engine: str) -> list[tuple[int, int]]:
    """Solve and check uniqueness (stop at a second solution); (solutions, nodes) each."""
    out = []
    for p in problems:
        s = dlx.Stats()
        out.append((dlx.count(p, limit=2, stats=s, engine=engine), s.nodes))
    return out


def bench_queens(ns: list[int], repeat: int) -> None:
    for n in ns:
        p = queens(n)
        Links.of(p)                               # lay out the links once
        engines.table(p)
        results = {name: timed(partial(count_with_stats, p, name), repeat)
                   for name in ("python", "c")}
        (t_py, got_py), (t_c, got_c) = results["python"], results["c"]
        assert got_c == got_py, results
        assert got_c[0] == common.QUEENS_COUNTS[n]  # type: ignore[index]
        line(f"queens {n} count ({got_c[1]:,} nodes)", t_py, t_c)  # type: ignore[index]


def bench_sudoku(n_puzzles: int, repeat: int) -> None:
    for set_name, file_name in SUDOKU_SETS.items():
        try:
            puzzles = common.load_sudoku(file_name, n_puzzles)
        except FileNotFoundError as e:
            print(f"sudoku {set_name}: skipped ({e})")
            continue
        start = time.perf_counter()
        problems = [sudoku(g) for g in puzzles]
        t_encode = time.perf_counter() - start
        # Lay out the links (both engines) and the core's arrays once, timed apart.
        start = time.perf_counter()
        for p in problems:
            Links.of(p)
        t_links = time.perf_counter() - start
        start = time.perf_counter()
        for p in problems:
            engines.table(p)
        t_table = time.perf_counter() - start
        results = {name: timed(partial(solve_all, problems, name), repeat)
                   for name in ("python", "c")}
        (t_py, got_py), (t_c, got_c) = results["python"], results["c"]
        assert got_c == got_py
        assert all(k == 1 for k, _ in got_c), "every puzzle has one solution"  # type: ignore
        per = 1e6 / len(puzzles)
        print(f"sudoku {set_name} x{len(puzzles)}: per puzzle, encoding {t_encode * per:.0f} us"
              f" + links {t_links * per:.0f} us (both engines) + C arrays {t_table * per:.0f} us")
        line("  solve + unique, per puzzle", t_py * per, t_c * per, "us")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--queens", type=int, nargs="*", default=[10, 11, 12])
    args = ap.parse_args(argv)
    if not engines.available():
        print("dlx._core is not built: nothing to compare", file=sys.stderr)
        return 1
    print(f"python {sys.version.split()[0]}, medians of {args.repeat} runs")
    bench_queens(args.queens, args.repeat)
    bench_sudoku(args.puzzles, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
