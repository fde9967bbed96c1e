"""The problem library on both our engines, beside dlx 1.0.4 and xcover, in one run (issue 4).

    .venv/bin/python bench/problems_bench.py [--quick] [--skip-slow] [--slow-repeat 1]
                                              [--repeat 3] [--timeout S]

Tasks, all counting every solution:
  queens 12 and 13         problems.queens (rows and columns primary in Knuth's organ-pipe
                           order, diagonals secondary): 14,200 and 73,712
  pentominoes 6x10         problems.polyominoes, 12 pentominoes on a board 10 wide and 6 high,
                           the X piece restricted (reduce=True): 2,339
  dominoes 8x8             problems.dominoes: 12,988,816 (minutes on a pure-Python engine)
``--quick``: queens 8 and 9, pentominoes 3x20 (2), dominoes 6x6 (6,728).

Contestants: ours with the pure engine (``engine="python"``) and with the compiled core
(``engine="c"``), dlx 1.0.4 and xcover 0.2.6 (their venvs under /work/peers, through
``bench/peers.py``). The peers solve exactly our rows: each instance is written once, untimed,
as a matrix file (our option order, our item order), and the peer's timed part reads and parses
that file, builds its own structure and searches. Our timed part is the module's
``count(...)``: encoding the problem (``ExactCover`` with its validation, the links, the
core's arrays) and the search. Imports and warm-up calls are outside the clock on both sides.

Dominoes 8x8 on the two pure-Python contestants (ours, dlx 1.0.4) takes minutes: it runs
``--slow-repeat`` times (default 1, so no median), or not at all with ``--skip-slow``.
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

PY, C = "ours (python)", "ours (c)"

from problems import dominoes, polyominoes  # noqa: E402
from problems import queens as queens_mod  # noqa: E402

DOMINO_COUNTS = {(4, 4): 36, (6, 6): 6728, (6, 8): 167089, (8, 8): 12988816}
PENTOMINO_COUNTS = {(10, 6): 2339, (12, 5): 1010, (15, 4): 368, (20, 3): 2}  # X restricted


def queens_problem(n: int) -> dlx.ExactCover:
    return queens_mod.encode(n)


def queens_count(n: int, engine: str) -> int:
    return queens_mod.count(n, engine=engine)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke test in seconds")
    ap.add_argument("--skip-slow", action="store_true",
                    help="no dominoes 8x8 on the pure-Python contestants")
    ap.add_argument("--slow-repeat", type=int, default=1,
                    help="rounds of dominoes 8x8 on the pure-Python contestants (default 1)")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds (median shown)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per peer run")
    ns = ap.parse_args(argv)
    if not dlx.engine.available():
        print("dlx._core is not built: the 'ours (c)' rows will show errors", file=sys.stderr)

    bench = harness.Bench("problems", repeat=ns.repeat, timeout=ns.timeout)
    print(f"# bench/problems_bench.py: problems on our two engines vs dlx 1.0.4 and xcover "
          f"(python {sys.version.split()[0]}, medians of {ns.repeat} interleaved rounds"
          f"{', --quick' if ns.quick else ''}{', --skip-slow' if ns.skip_slow else ''})")
    print(f"# {bench.load_start} at start")
    for engine in ("python", "c") if dlx.engine.available() else ("python",):
        queens_count(4, engine)          # warm-up: imports, first calls
    tmp = tempfile.TemporaryDirectory(prefix="dlx-bench-")
    d = Path(tmp.name)

    def four(task, ours_fn, path, expected, slow=False):
        """Ours on both engines, then dlx104 and xcover on the matrix file."""
        rep = ns.slow_repeat if slow else None
        entries = [Ours(PY, lambda: ours_fn("python"), repeat=rep),
                   Ours(C, lambda: ours_fn("c")),
                   Peer("dlx104", "matrix", [path], repeat=rep),
                   Peer("xcover", "matrix", [path])]
        skip = {}
        if slow and ns.skip_slow:
            skip = {PY: "--skip-slow", "dlx104": "--skip-slow"}
            entries = [e for e in entries if not (isinstance(e, Ours) and e.label == PY)
                       and not (isinstance(e, Peer) and e.peer == "dlx104")]
        bench.measure(task, entries, expected, skip=skip)

    try:
        for n in ((8, 9) if ns.quick else (12, 13)):
            path = d / f"queens{n}.json"
            harness.write_problem_matrix(queens_problem(n), path)
            four(f"queens {n}", lambda e, n=n: queens_count(n, e), path, common.QUEENS_COUNTS[n])

        w, h = (20, 3) if ns.quick else (10, 6)
        task = f"pentominoes {h}x{w}"
        path = d / "pento.json"
        problem = polyominoes.encode(rows=h, cols=w, reduce=True)
        r, p, s = harness.write_problem_matrix(problem, path)
        bench.notes.append(f"{task}: {r} options over {p} items (X restricted).")
        four(task, lambda e: polyominoes.count(rows=h, cols=w, reduce=True, engine=e), path,
             PENTOMINO_COUNTS[(w, h)])

        m = 6 if ns.quick else 8
        task = f"dominoes {m}x{m}"
        path = d / "dominoes.json"
        harness.write_problem_matrix(dominoes.encode(m, m), path)
        four(task, lambda e: dominoes.count(m, m, engine=e), path, DOMINO_COUNTS[(m, m)],
             slow=not ns.quick)
        if not ns.quick and not ns.skip_slow and ns.slow_repeat == 1:
            bench.notes.append(f"{task}: one run each for ours (python) and dlx104 "
                               "(--slow-repeat 1), so their time is not a median.")
    finally:
        bench.close()
    print()
    bench.print_table([PY, C])
    status = bench.print_footer()
    print("\nRatios, peer time / our time (> 1: ours is faster; issue 4 sets no numeric "
          "target):")
    for task in bench.tasks:
        for peer, ref in (("dlx104", PY), ("xcover", PY), ("xcover", C)):
            x = bench.ratio(task, peer, ref)
            if x is not None:
                print(f"  {task}: {peer} / {ref} = {x:.2f}")
    tmp.cleanup()
    return status


if __name__ == "__main__":
    sys.exit(main())
