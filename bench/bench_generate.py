"""Generating 9x9 puzzles: ours against py-sudoku's generator, measured in the same run (issue 15).

    .venv/bin/python bench/bench_generate.py [--count 300] [--peer-count 300]
                                              [--peer-minimal 5] [--repeat 3] [--quick]

Tasks (puzzles per second; medians of interleaved rounds, see harness.py):

* ``minimal``: our minimal unique puzzles, ``generate_many(N, seed=S)`` (puzzles made side by
  side, the searches for their full grids batched, each one's uniqueness checks one
  ``dlx.Prepared.minimize`` call; the same puzzles as ``generate(seed=S + k)``),
  ``generate(seed=s)`` one at a time, and ``generate_many`` on a ``ProcessPoolExecutor`` with
  a worker per core (the pool started and warmed up outside the clock; its CPU time column
  counts only this process); py-sudoku 2.0's generator,
  ``Sudoku(3, seed=s).difficulty(0.5)``, which blanks half the cells at random and does not
  promise one solution (its result column: how many of the N have exactly one).
* ``minimal, py-sudoku's API``: the same product as ours (unique and minimal) made with
  py-sudoku's public API: its solved grid, cells removed in random order while
  ``has_multiple_solutions()`` says False (a few puzzles: seconds each).
* ``41 givens``: our unique puzzles with 41 givens, ``generate_many(N, givens=41)`` (not
  minimal), the number of givens ``difficulty(0.5)`` leaves, beside ``difficulty(0.5)``.

py-sudoku runs in its venv through ``bench/peers.py py_sudoku serve`` (tasks
``sudoku_generate`` and ``sudoku_generate_minimal``); ours runs here, after a warm-up puzzle
(the 9x9 tables). Every puzzle of ours is checked outside the clock: one solution
(``count_many``) and, for the minimal ones, ``is_minimal``.

The issue's target: our rate of minimal unique puzzles at least 10x py-sudoku's generator
rate (``difficulty(0.5)`` puzzles/s), in the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import harness  # noqa: E402
from harness import Ours, Peer  # noqa: E402

from problems import sudoku  # noqa: E402

MANY = "ours generate_many"
ONE = "ours generate"
CORES = os.cpu_count() or 1
POOL = f"ours generate_many, {CORES} processes"
TARGET = 10.0


def checked(puzzles: list[sudoku.Grid], minimal: bool, givens: int | None = None) -> int:
    """How many puzzles are unique (and minimal, or with ``givens`` givens): checked, untimed."""
    counts = sudoku.count_many([str(p) for p in puzzles], limit=2)
    good = 0
    for p, c in zip(puzzles, counts, strict=True):
        ok = c == 1 and p.size == 9
        if minimal:
            ok = ok and sudoku.is_minimal(p)
        if givens is not None:
            ok = ok and p.clues == givens
        good += ok
    return good


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=300, help="puzzles of ours per run")
    ap.add_argument("--peer-count", type=int, default=300,
                    help="py-sudoku difficulty(0.5) puzzles per run")
    ap.add_argument("--peer-minimal", type=int, default=5,
                    help="minimal puzzles made with py-sudoku's API per run (0: skip)")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds (median shown)")
    ap.add_argument("--quick", action="store_true", help="small counts: a smoke test")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per peer run")
    ns = ap.parse_args(argv)
    if ns.quick:
        ns.count, ns.peer_count, ns.peer_minimal = 40, 40, 1
    n, m, k = ns.count, ns.peer_count, ns.peer_minimal

    bench = harness.Bench("generate", repeat=ns.repeat, timeout=ns.timeout)
    print(f"# bench/bench_generate.py: generating 9x9 puzzles, ours vs py-sudoku (python "
          f"{sys.version.split()[0]}, medians of {ns.repeat} interleaved rounds)")
    print(f"# {bench.load_start} at start")
    sudoku.generate(seed=10**9)                 # warm-up: the 9x9 tables, outside the clock
    clues: list[int] = []

    def minimal_many() -> list[sudoku.Grid]:
        return list(sudoku.generate_many(n, box=(3, 3), seed=0, minimal=True))

    def minimal_one() -> list[sudoku.Grid]:
        return [sudoku.generate(box=(3, 3), seed=s, minimal=True) for s in range(n)]

    def check_minimal(puzzles: list[sudoku.Grid]) -> int:
        clues.extend(p.clues for p in puzzles)
        return checked(puzzles, minimal=True)

    pool = ProcessPoolExecutor(CORES)
    list(sudoku.generate_many(4 * CORES, seed=10**9, executor=pool, chunk=4))   # warm-up

    def minimal_pool() -> list[sudoku.Grid]:
        return list(sudoku.generate_many(n, box=(3, 3), seed=0, minimal=True, executor=pool))

    try:
        # py-sudoku's result is how many of its puzzles are unique: deterministic for its
        # seeds, so a first, untimed run gives the expected value
        probe = bench.server("py_sudoku").ask("sudoku_generate", [m, 0], ns.timeout)
        unique = probe.get("result")
        bench.measure(f"minimal x{n}", [
            Ours(MANY, minimal_many, check_minimal),
            Ours(ONE, minimal_one, check_minimal),
            Ours(POOL, minimal_pool, check_minimal),
            Peer("py_sudoku", "sudoku_generate", [m, 0], label="py-sudoku difficulty(0.5)",
                 items=m, expected=unique),
        ], n, items=n)
        if k:
            bench.measure(f"minimal, py-sudoku's API x{k}", [
                Ours(MANY, minimal_many, check_minimal, items=n, expected=n),
                Peer("py_sudoku", "sudoku_generate_minimal", [k, 0],
                     label="py-sudoku minimal", repeat=1),
            ], k, items=k)
        bench.measure(f"41 givens x{n}", [
            Ours(MANY, lambda: list(sudoku.generate_many(n, seed=0, givens=41, minimal=False)),
                 lambda ps: checked(ps, minimal=False, givens=41)),
            Peer("py_sudoku", "sudoku_generate", [m, 0], label="py-sudoku difficulty(0.5)",
                 items=m, expected=unique),
        ], n, items=n)
    finally:
        bench.close()
        pool.shutdown()
    print()
    bench.print_table([MANY], unit="puzzles")
    if isinstance(unique, int) and m:
        bench.notes.append(f"py-sudoku difficulty(0.5): 41 givens; {unique} of its {m} puzzles"
                           f" ({100 * unique / m:.0f}%) have exactly one solution (the result"
                           " column).")
    if clues:
        bench.notes.append(f"Ours, minimal: {sum(clues) / len(clues):.1f} givens on average "
                           f"({min(clues)}-{max(clues)}); every puzzle checked unique and "
                           "minimal.")
    status = bench.print_footer()

    print(f"\nTarget (issue 15): minimal unique puzzles/s, ours / py-sudoku difficulty(0.5)"
          f" puzzles/s, at least {TARGET:g}x")
    task = f"minimal x{n}"
    for label in (MANY, ONE, POOL):
        for cpu in (False, True) if label != POOL else (False,):
            x = bench.ratio(task, "py-sudoku difficulty(0.5)", label, cpu=cpu)
            print("  " + harness.verdict(f"{label} ({'cpu' if cpu else 'wall'} time)", x,
                                         TARGET))
    return status


if __name__ == "__main__":
    sys.exit(main())
