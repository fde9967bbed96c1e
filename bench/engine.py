"""Our pure-Python engine against dlx 1.0.4, in one run (issues 2 and 11).

    .venv/bin/python bench/engine.py [--quick] [--repeat 3] [--timeout S]

Tasks, all counting every solution: N-queens 8..12 (``--quick``: 6..9), Knuth's toy problem,
and a random exact cover with three planted solutions (``common.planted(50, 300,
n_secondary=6, size=(3, 6), plants=3, seed=1)``: 3 solutions; ``--quick``: a smaller one).
Both sides get exactly the same rows, in the same order, from ``bench/common.py``.

Ours: ``dlx.count(dlx.ExactCover(options, secondary=...), engine="python")``. The timed part
builds the instance the way the peer's does: generating the N-queens rows (or reading the
planted instance's JSON file), turning them into our options, building the ``ExactCover``
(its validation and the links included) and the search. dlx 1.0.4 runs in its own venv
(``/work/peers/dlx104``, through ``bench/peers.py``): generating or reading the rows, building
its ``DLX`` object, the search. Imports and a warm-up call are outside the clock on both sides.

Prints one table (medians of ``--repeat`` interleaved rounds, each run listed) with the ratio
dlx104 time / our time, then the target: issue 11 made the pure engine the readable reference,
with a floor of 1x dlx 1.0.4 on N-queens 12 (issue 2 had asked 2x; issue 11 withdrew that).
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

OURS = "ours (python)"


def count_rows(rows, n_primary, n_secondary, engine="python") -> int:
    options, secondary = common.as_options(rows, n_primary, n_secondary)
    return dlx.count(dlx.ExactCover(options, secondary=secondary), engine=engine)


def ours_queens(n: int) -> int:
    return count_rows(*common.queens_rows(n))


def ours_toy() -> int:
    return count_rows(common.TOY_ROWS, common.TOY_PRIMARY, 0)


def ours_matrix(path: str) -> int:
    return count_rows(*common.read_matrix(path))


def planted_instance(path: Path, quick: bool) -> tuple[int, str]:
    """Write the planted instance; return its verified number of solutions and a description.

    Every solution our engine lists is checked by ``common.is_exact_cover`` (which shares no
    code with dlx), and the planted solutions must be among them.
    """
    n, rows, s = (40, 250, 6) if quick else (50, 300, 6)
    inst = common.planted(n, rows, n_secondary=s, seed=1, size=(3, 6), plants=3)
    common.write_matrix(path, inst["rows"], inst["primary"], inst["secondary"])
    rows_, p, s_ = common.read_matrix(path)
    options, secondary = common.as_options(rows_, p, s_)
    sols = [sorted(sol) for sol in dlx.solutions(dlx.ExactCover(options, secondary=secondary))]
    assert all(common.is_exact_cover(rows_, p, s_, sol) for sol in sols), "invalid solution"
    planted_set = set(inst["planted"])
    # the planted rows split into 3 solutions; each must be one of the solutions found
    found = sum(1 for sol in sols if set(sol) <= planted_set)
    assert found >= 1, "no planted solution found"
    desc = (f"planted({n}, {rows}, n_secondary={s}, size=(3, 6), plants=3, seed=1): "
            f"{len(rows_)} rows, {p}+{s_} columns, {len(sols)} solutions, all checked")
    return len(sols), desc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke test in seconds")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds (median shown)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per peer run")
    ns = ap.parse_args(argv)

    bench = harness.Bench("engine", repeat=ns.repeat, timeout=ns.timeout)
    print(f"# bench/engine.py: pure-Python engine vs dlx 1.0.4 (python {sys.version.split()[0]},"
          f" medians of {ns.repeat} interleaved rounds{', --quick' if ns.quick else ''})")
    print(f"# {bench.load_start} at start")
    ours_toy()                      # warm-up outside the clock, as the peer's
    ours_queens(4)
    tmp = tempfile.TemporaryDirectory(prefix="dlx-bench-")
    try:
        queens = range(6, 10) if ns.quick else range(8, 13)
        for n in queens:
            bench.measure(f"queens {n}", [Ours(OURS, lambda n=n: ours_queens(n)),
                                          Peer("dlx104", "queens", [n])],
                          expected=common.QUEENS_COUNTS[n])
        bench.measure("toy", [Ours(OURS, ours_toy), Peer("dlx104", "toy")], expected=1)
        path = Path(tmp.name) / "planted.json"
        expected, desc = planted_instance(path, ns.quick)
        bench.notes.append(f"Planted instance: {desc}.")
        bench.measure("planted", [Ours(OURS, lambda: ours_matrix(str(path))),
                                  Peer("dlx104", "matrix", [path])], expected=expected)
    finally:
        bench.close()
    print()
    bench.print_table([OURS])
    status = bench.print_footer()
    q = "queens 12" if not ns.quick else "queens 9"
    print("\nFloor (issue 11): " + harness.verdict(f"dlx104 time / our pure time on {q}",
                                                    bench.ratio(q, "dlx104", OURS), 1.0))
    tmp.cleanup()
    return status


if __name__ == "__main__":
    sys.exit(main())
