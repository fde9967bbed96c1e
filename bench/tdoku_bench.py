"""Sudoku at the compiled limit: ours against tdoku, in one interleaved run (issue 25).

    .venv/bin/python bench/tdoku_bench.py --tdoku /path/to/libtdoku_shared.so
        [--rounds 5] [--puzzles 1000] [--generic]

tdoku (https://github.com/t-dillon/tdoku) is built outside this repository; this
machine's copy was made with::

    git clone https://github.com/t-dillon/tdoku && cd tdoku
    g++ -O3 -march=native -std=c++14 -fPIC -shared -o libtdoku_shared.so \\
        src/solver_dpll_triad_simd.cc src/util.cc

and is called through ctypes, one call a puzzle (``TdokuSolverDpllTriadSimd`` with
limit 1), as its own ``example/solve.py`` does.

Sets (from the shared data, one puzzle a line): 17-clue = the first ``--puzzles`` lines
of tdoku_17_clue_sample2000.txt; forum-hardest = the first ``--puzzles`` of
tdoku_forum_hardest_1905_11plus_sample2000.txt.

Entries, all timed from the puzzle text to the solved text, each round running every
entry once in turn (interleaved), the best round kept:

  tdoku          ctypes, one call a puzzle
  solve_lines    ``problems.sudoku.solve_lines(lines)``: the batch, one call
  solve          ``str(problems.sudoku.solve(line))`` for each line: the call a user makes

Every answer is checked against tdoku's after the clock stops.  The targets of issue 25
are printed with the ratios: ``solve_lines`` at most 3x tdoku's time on 17-clue and 4x
on forum-hardest; ``solve`` one by one at most 1.3x ``solve_lines``.

``--generic`` also times counting 6x10 pentominoes (2,339 with X restricted) and queens
13 (73,712) on every core representation (``engine="c"``: the automatic choice, and each
one forced), best of ``--rounds``, so that a change for small problems can be seen not
to cost the big ones.
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import common  # noqa: E402

import dlx  # noqa: E402
from dlx import engine as _engine  # noqa: E402
from problems import polyominoes, queens, sudoku  # noqa: E402

SETS = {"17-clue": ("tdoku_17_clue_sample2000.txt", 3.0),
        "forum-hardest": ("tdoku_forum_hardest_1905_11plus_sample2000.txt", 4.0)}
ONE_BY_ONE_TARGET = 1.3


class Tdoku:
    """tdoku's solver through ctypes: the solved line of a puzzle, or None."""

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        self.fn = lib.TdokuSolverDpllTriadSimd
        self.fn.restype = ctypes.c_size_t
        self.fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32,
                            ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]
        self.out = ctypes.create_string_buffer(82)
        self.guesses = ctypes.c_size_t()

    def solve_all(self, lines: list[bytes]) -> list[str | None]:
        fn, out, guesses = self.fn, self.out, ctypes.byref(self.guesses)
        return [out.raw[:81].decode() if fn(p, 1, 0, out, guesses) else None for p in lines]


def read_set(name: str, n: int) -> list[str]:
    return [line.split()[0] for line in common.load_sudoku(SETS[name][0], n)]


def one_by_one(lines: list[str]) -> list[str | None]:
    out: list[str | None] = []
    for line in lines:
        grid = sudoku.solve(line)
        out.append(None if grid is None else str(grid))
    return out


def best_of(rounds: int, entries: dict[str, Callable[[], object]]
            ) -> dict[str, tuple[float, object]]:
    """Each round runs every entry once, in turn; the best time of each, and its answer."""
    best: dict[str, tuple[float, object]] = {}
    for _ in range(rounds):
        for name, fn in entries.items():
            start = time.perf_counter()
            answer = fn()
            secs = time.perf_counter() - start
            if name not in best or secs < best[name][0]:
                best[name] = (secs, answer)
    return best


def sudoku_table(tdoku: Tdoku, rounds: int, n: int) -> bool:
    ok = True
    rep = _representation(sudoku.matrix.prepared(sudoku.Shape.standard(9)))
    print(f"Sudoku, {n} puzzles a set, best of {rounds} interleaved rounds "
          f"(9x9 on the core's {rep})")
    print(f"| set | tdoku | solve_lines | solve one by one | batch / tdoku (target) "
          f"| one by one / batch (target {ONE_BY_ONE_TARGET}x) |")
    print("|---|---|---|---|---|---|")
    sudoku.solve_lines(read_set("17-clue", 10))          # the 9x9 matrix, laid out once
    for name, (_, target) in SETS.items():
        lines = read_set(name, n)
        raw = [line.encode() for line in lines]
        best = best_of(rounds, {
            "tdoku": lambda raw=raw: tdoku.solve_all(raw),
            "solve_lines": lambda lines=lines: sudoku.solve_lines(lines),
            "solve": lambda lines=lines: one_by_one(lines),
        })
        theirs = best["tdoku"][1]
        for entry in ("solve_lines", "solve"):
            if best[entry][1] != theirs:
                print(f"  WRONG: {entry} differs from tdoku on {name}")
                ok = False
        us = {k: v[0] / len(lines) * 1e6 for k, v in best.items()}
        batch_ratio = us["solve_lines"] / us["tdoku"]
        one_ratio = us["solve"] / us["solve_lines"]
        hit1 = "ok" if batch_ratio <= target else "MISSED"
        hit2 = "ok" if one_ratio <= ONE_BY_ONE_TARGET else "MISSED"
        print(f"| {name} | {us['tdoku']:.1f} µs | {us['solve_lines']:.1f} µs "
              f"| {us['solve']:.1f} µs | {batch_ratio:.2f}x ({target:g}x: {hit1}) "
              f"| {one_ratio:.2f}x ({hit2}) |")
    return ok


def _representation(prepared: dlx.Prepared) -> str:
    """Which representation the core takes for a prepared problem by default."""
    from dlx import _core
    search = _core.Search(_engine.table(prepared._links), prepared.labels, "count")
    return "bitsets" if search.representation == "bits" else "links"


ENGINES = ("c", "c-links", "c-bits")


def generic_table(rounds: int) -> bool:
    ok = True
    pento = polyominoes.encode(rows=6, cols=10, reduce=True)
    workloads = {"pentominoes 6x10": (pento, 2339), "queens 13": (queens.encode(13), 73712),
                 "queens 12": (queens.encode(12), 14200)}
    print(f"\nGeneric counts, best of {rounds} interleaved rounds (seconds; c = the"
          " automatic choice)")
    print("| workload | " + " | ".join(ENGINES) + " | bits / links |")
    print("|---|" + "---:|" * (len(ENGINES) + 1))
    for name, (problem, expected) in workloads.items():
        stats = {e: dlx.Stats() for e in ENGINES}
        best = best_of(rounds, {e: (lambda e=e, p=problem, s=stats: dlx.count(
            p, engine=e, stats=s[e])) for e in ENGINES})
        for e in ENGINES:
            if best[e][1] != expected:
                print(f"  WRONG: {name} on {e}: {best[e][1]} (expected {expected})")
                ok = False
        if len({stats[e].nodes for e in ENGINES}) > 1:
            print(f"  WRONG: {name}: node counts differ {[stats[e].nodes for e in ENGINES]}")
            ok = False
        cells = [f"{best[e][0]:.3f}" for e in ENGINES]
        print(f"| {name} ({stats['c'].nodes:,} nodes) | " + " | ".join(cells)
              + f" | {best['c-bits'][0] / best['c-links'][0]:.2f}x |")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tdoku", required=True, help="path of libtdoku_shared.so")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--puzzles", type=int, default=1000)
    ap.add_argument("--generic", action="store_true")
    args = ap.parse_args()
    ok = sudoku_table(Tdoku(args.tdoku), args.rounds, args.puzzles)
    if args.generic:
        ok = generic_table(args.rounds) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
