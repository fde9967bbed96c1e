"""Our compiled core against the compiled Python exact-cover packages, in one run (issue 6).

    .venv/bin/python bench/core.py [--quick] [--repeat 3] [--timeout S] [--no-cold]

Peers: exact-cover 1.5.0 (C), xcover 0.2.6 (numba), exact-cover-py 0.1.2 (numba), each in
its venv under /work/peers, through ``bench/peers.py`` in one serving process per peer, so its
import and numba cache load (and exact-cover-py's per-process compile) happen once, outside
the times, and are reported apart. ``--cold`` compile times (a fresh numba cache) are
measured once at the end unless ``--no-cold``.

Tasks (``--quick``: smaller ones):
  queens 12, 13         counts (14,200; 73,712), problems.queens's rows (quick: 9, 10)
  pentominoes 6x10      count, X restricted: 2,339 (quick: 3x20, 2)
  planted               count of a random exact cover with 3 planted solutions and secondary
                        columns, ``common.planted(60, 400, n_secondary=8, size=(3, 6),
                        plants=3, seed=2)``; its solutions are listed and checked first
  sudoku <set> solve    first solution of each puzzle, every grid checked
  sudoku <set> unique   solve and prove uniqueness (search stops at a second solution)
Sudoku sets (one puzzle per line, from /work/shared/data/sudoku): 17-clue = every 2nd line of
tdoku_17_clue_sample2000.txt (1,000 puzzles); forum-hardest = every 2nd line of
tdoku_forum_hardest_1905_11plus_sample2000.txt (1,000); forum-hardest-1106 = all 375 lines
of tdoku_forum_hardest_1106.txt. ``--quick``: the first 50 of each.

What is timed, both sides: reading the instance (the matrix file, or the puzzle file and
parsing each line), building the solver's input (our ``ExactCover``, links and core arrays;
the peers' matrices) and the search. Our counting problems use our encoders
(``problems.queens``, ``problems.polyominoes``); the peers get the very same rows in the same
item order as a matrix file written beforehand (untimed). For Sudoku, ours is
``problems.sudoku``'s batch path (``solve_lines`` and ``batch(lines, 2)``; the per-puzzle
functions if the module has no batch path), the peers use the shared encoding of
``common.sudoku_rows``. Exact-cover and
exact-cover-py have no secondary columns: they get Knuth's slack rows.

Targets printed at the end (issue 6): at least 3x the fastest peer's puzzles per second on
both Sudoku sets; at most 0.8x xcover's time on queens 13 and pentominoes; not slower than any
peer anywhere.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import common  # noqa: E402
import harness  # noqa: E402
from harness import Ours, Peer  # noqa: E402

import dlx  # noqa: E402

OURS = "ours (c)"
PEERS = ("exact_cover", "xcover", "exact_cover_py")

from problems import polyominoes  # noqa: E402
from problems import queens as queens_mod  # noqa: E402
from problems import sudoku as sudoku_mod  # noqa: E402

SUDOKU_SETS = [  # (name, file, take every k-th line)
    ("17-clue", "tdoku_17_clue_sample2000.txt", 2),
    ("forum-hardest", "tdoku_forum_hardest_1905_11plus_sample2000.txt", 2),
    ("forum-hardest-1106", "tdoku_forum_hardest_1106.txt", 1),
]
PENTOMINO_COUNTS = {(10, 6): 2339, (20, 3): 2}


# ------------------------------------------------------------------------------ our side


def queens_problem(n: int) -> dlx.ExactCover:
    return queens_mod.encode(n)


def ours_matrix(path, engine="c") -> int:
    rows, p, s = common.read_matrix(path)
    options, secondary = common.as_options(rows, p, s)
    return dlx.count(dlx.ExactCover(options, secondary=secondary), engine=engine)


class SudokuSide:
    """Our Sudoku runs: ``problems.sudoku.solve_lines`` (first solution of each line) and
    ``problems.sudoku.batch(lines, 2)`` (count up to 2 and the first solution), both on
    one prepared matrix per shape with the C core, per puzzle with the pure engine."""

    how = "problems.sudoku.solve_lines(lines, engine=...)"
    how_unique = "problems.sudoku.batch(lines, 2, engine=...)"

    def __init__(self, engine: str):
        self.engine = engine

    def solve(self, path):
        """(puzzles, first solution of each: a str or None)."""
        puzzles = common.load_sudoku(path)
        return puzzles, sudoku_mod.solve_lines(puzzles, engine=self.engine)

    def unique(self, path):
        """(puzzles, (solutions found up to 2 or None if unknown, first solution) of each)."""
        puzzles = common.load_sudoku(path)
        outcomes = sudoku_mod.batch(puzzles, 2, engine=self.engine)
        return puzzles, [(o.found, o.solution) for o in outcomes]

    @staticmethod
    def check_solved(raw) -> int:
        puzzles, grids = raw
        return sum(common.sudoku_ok(q, None if g is None else str(g))
                   for q, g in zip(puzzles, grids, strict=True))

    @staticmethod
    def check_unique(raw) -> int:
        puzzles, found = raw
        return sum(n == 1 and common.sudoku_ok(q, str(first))
                   for q, (n, first) in zip(puzzles, found, strict=True))


def sudoku_files(tmp: Path, quick: bool) -> list[tuple[str, Path, int]]:
    """Write each set's puzzles (every k-th line; --quick: the first 50) to a file."""
    out = []
    for name, file, k in SUDOKU_SETS:
        try:
            lines = common.load_sudoku(file)
        except FileNotFoundError:
            continue
        lines = lines[::k][:50] if quick else lines[::k]
        path = tmp / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n")
        out.append((name, path, len(lines)))
    return out


def planted_instance(path: Path, quick: bool) -> tuple[int, str]:
    """Write the planted instance; list and check its solutions (untimed) with our core."""
    args = (50, 300, 6, 1) if quick else (60, 400, 8, 2)
    n, r, s, seed = args
    inst = common.planted(n, r, n_secondary=s, seed=seed, size=(3, 6), plants=3)
    common.write_matrix(path, inst["rows"], inst["primary"], inst["secondary"])
    rows, p, s_ = common.read_matrix(path)
    options, secondary = common.as_options(rows, p, s_)
    sols = [sorted(x) for x in dlx.solutions(dlx.ExactCover(options, secondary=secondary))]
    assert all(common.is_exact_cover(rows, p, s_, x) for x in sols), "invalid solution"
    assert any(set(x) <= set(inst["planted"]) for x in sols), "no planted solution found"
    return len(sols), (f"planted({n}, {r}, n_secondary={s}, size=(3, 6), plants=3, "
                       f"seed={seed}): {len(rows)} rows, {p}+{s_} columns, {len(sols)} "
                       "solutions, each checked by common.is_exact_cover")


# ------------------------------------------------------------------------------ main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke test in seconds")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds (median shown)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per peer run")
    ap.add_argument("--no-cold", action="store_true",
                    help="skip measuring the numba peers' cold compile time")
    ns = ap.parse_args(argv)
    if not dlx.engine.available():
        print("dlx._core is not built: nothing to benchmark", file=sys.stderr)
        return 1

    bench = harness.Bench("core", repeat=ns.repeat, timeout=ns.timeout)
    print(f"# bench/core.py: our C core vs exact-cover, xcover, exact-cover-py (python "
          f"{sys.version.split()[0]}, medians of {ns.repeat} interleaved rounds"
          f"{', --quick' if ns.quick else ''})")
    print(f"# {bench.load_start} at start")
    sudoku_side = SudokuSide("c")
    # warm-up outside the clock: imports, first calls (as the peers' warm-up does)
    dlx.count(queens_problem(4), engine="c")
    easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    tmp = tempfile.TemporaryDirectory(prefix="dlx-bench-")
    d = Path(tmp.name)
    (d / "easy.txt").write_text(easy + "\n")
    assert sudoku_side.check_solved(sudoku_side.solve(d / "easy.txt")) == 1
    assert sudoku_side.check_unique(sudoku_side.unique(d / "easy.txt")) == 1

    def peers(task, *args):
        return [Peer(p, task, list(args)) for p in PEERS]

    try:
        for n in ((9, 10) if ns.quick else (12, 13)):
            path = d / f"queens{n}.json"
            harness.write_problem_matrix(queens_problem(n), path)
            ours = Ours(OURS, lambda n=n: queens_mod.count(n, engine="c"))
            bench.measure(f"queens {n}", [ours, *peers("matrix", path)],
                          common.QUEENS_COUNTS[n])

        w, h = (20, 3) if ns.quick else (10, 6)
        pento = f"pentominoes {h}x{w}"
        path = d / "pento.json"
        harness.write_problem_matrix(polyominoes.encode(rows=h, cols=w, reduce=True), path)
        bench.measure(pento, [Ours(OURS, lambda: polyominoes.count(rows=h, cols=w, reduce=True,
                                                                    engine="c")),
                              *peers("matrix", path)], PENTOMINO_COUNTS[(w, h)])

        path = d / "planted.json"
        expected, desc = planted_instance(path, ns.quick)
        bench.notes.append(f"planted: {desc}.")
        bench.measure("planted", [Ours(OURS, lambda: ours_matrix(path)),
                                  *peers("matrix", path)], expected)

        sets = sudoku_files(d, ns.quick)
        for name, path, n in sets:
            bench.measure(f"sudoku {name} x{n} solve",
                          [Ours(OURS, lambda p=path: sudoku_side.solve(p),
                                sudoku_side.check_solved),
                           *peers("sudoku", path, n)], n, items=n)
            bench.measure(f"sudoku {name} x{n} unique",
                          [Ours(OURS, lambda p=path: sudoku_side.unique(p),
                                sudoku_side.check_unique),
                           *peers("sudoku_unique", path, n)], n, items=n)
        bench.notes.append(f"Our Sudoku side: solve = {sudoku_side.how}; unique = "
                           f"{sudoku_side.how_unique}; engine 'c'. The "
                           "peers: common.sudoku_rows per puzzle, then their exact-cover API.")
    finally:
        bench.close()

    if not ns.no_cold and not ns.quick:
        for p in ("xcover", "exact_cover_py"):
            print(f"cold compile: {p} ...", file=sys.stderr, flush=True)
            r = common.run_peer(p, "selftest", timeout=ns.timeout, options=("--cold",))
            if r.get("error"):
                bench.notes.append(f"Cold compile of {p}: not measured ({r['error']}).")
            else:
                bench.notes.append(
                    f"Cold compile of {p} (fresh NUMBA_CACHE_DIR; import + first calls): "
                    f"{r['warmup_seconds']:.1f} s (import alone {r['import_seconds']:.1f} s).")

    print()
    bench.print_table([OURS], unit="puzzles")
    status = bench.print_footer()

    print("\nTargets (issue 6):")
    for name, _, n in sets:
        for mode in ("solve", "unique"):
            task = f"sudoku {name} x{n} {mode}"
            ratios = {p: bench.ratio(task, p, OURS) for p in PEERS}
            measured = {p: x for p, x in ratios.items() if x is not None}
            if measured:
                fastest = min(measured, key=measured.get)
                print("  " + harness.verdict(
                    f"{task}: our puzzles/s / fastest peer's ({fastest})",
                    measured[fastest], 3.0))
            else:
                print(f"  {task}: no peer measured")
    for task in [t for t in bench.tasks if t.startswith(("queens 13", "queens 10", "pento"))]:
        x = bench.ratio(task, "xcover", OURS)
        print("  " + harness.verdict(f"{task}: our time / xcover's", None if x is None else 1 / x,
                                     0.8, better="lower"))
    slower = []
    for task in bench.tasks:
        for p in PEERS:
            x = bench.ratio(task, p, OURS)
            if x is not None and x < 1:
                slower.append(f"{task} vs {p} ({1 / x:.2f}x its time)")
    if slower:
        print("  not slower than any peer anywhere: NOT MET, slower on " + "; ".join(slower))
    else:
        print("  not slower than any peer anywhere: MET (on every task measured)")
    tmp.cleanup()
    return status


if __name__ == "__main__":
    sys.exit(main())
