"""Two builds of the compiled core in one process, interleaved count by count (issue 22).

    .venv/bin/python bench/ab_inproc.py A.so B.so [--pairs 15] [--only queens13 ...]

Loads both builds (as ``dlx._core`` and as a second module of the same code), reads each
workload (bench/knuth_bench.py's, and a few more) once per build, and counts it with A
then B, B then A, ... (``time.process_time``), so that both see the same load on a shared
machine. Prints per workload the medians and the median of the paired ratios B / A
(pairs adjacent in time) and of the fastest runs, and checks that the two builds' Stats agree.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def load(so: str, name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, so)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


#: Workloads of bench/core.py's kind: pentominoes (count, X restricted) and a Sudoku
#: batch (problems.sudoku.batch(lines, 2): a Prepared batch, batch.c).
EXTRA = ("pent6x10", "pent3x20", "sudoku-hardest200", "planted", "planted-big")


def run_extra(name: str, a, b, pairs: int) -> None:  # type: ignore[no-untyped-def]
    import dlx
    import dlx.engine as engine
    from problems import polyominoes, sudoku
    if name.startswith("planted"):
        import common
        n, r, s, seed = (50, 300, 6, 1) if name == "planted" else (60, 400, 8, 2)
        inst = common.planted(n, r, n_secondary=s, seed=seed, size=(3, 6), plants=3)
        options, secondary = common.as_options(inst["rows"], inst["primary"], inst["secondary"])

        def work() -> object:
            return dlx.count(dlx.ExactCover(options, secondary=secondary), engine="c")
    elif name.startswith("pent"):
        h, w = (6, 10) if name == "pent6x10" else (3, 20)

        def work() -> object:
            return polyominoes.count(rows=h, cols=w, reduce=True, engine="c")
    else:
        path = Path("/work/shared/data/sudoku/tdoku_forum_hardest_1905_11plus_sample2000.txt")
        lines = path.read_text().split()[:200]

        def work() -> object:
            return [(r.found, r.solution, r.nodes) for r in sudoku.batch(lines, 2, engine="c")]
    times: dict[str, list[float]] = {"A": [], "B": []}
    seen = {}
    for k in range(pairs):
        for who in ("A", "B") if k % 2 == 0 else ("B", "A"):
            engine._core = a if who == "A" else b
            started = time.process_time()
            seen[who] = work()
            times[who].append(time.process_time() - started)
    engine._core = a
    ratios = [tb / ta for ta, tb in zip(times["A"], times["B"], strict=True)]
    print(f"| {name} | {statistics.median(times['A']):.4f} | "
          f"{statistics.median(times['B']):.4f} | {statistics.median(ratios):.3f} | "
          f"{min(times['B']) / min(times['A']):.3f} | "
          f"{'yes' if seen['A'] == seen['B'] else 'NO'} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--only", nargs="+", default=["queens13", "langford11", "mcc-6.4M"])
    args = parser.parse_args()
    import dlx
    a = load(args.a, "dlx._core")
    dlx._core = a  # type: ignore[attr-defined]
    b = load(args.b, "abx_b._core")
    from ab_core import texts

    import dlx.engine as engine
    every = texts()
    print("| workload | A (s, median CPU) | B | median of B / A per pair | min B / min A |"
          " stats agree |")
    print("|---|---:|---:|---:|---:|---|")
    for name in args.only:
        if name in EXTRA:
            run_extra(name, a, b, args.pairs)
            continue
        text, cache = every[name]
        problems = {}
        for who, module in (("A", a), ("B", b)):
            engine._core = module
            problems[who] = dlx.read_dlx(text)
            dlx.count(problems[who], cache=cache, engine="c")
        times: dict[str, list[float]] = {"A": [], "B": []}
        seen: dict[str, tuple[object, ...]] = {}
        for k in range(args.pairs):
            for who in ("A", "B") if k % 2 == 0 else ("B", "A"):
                engine._core = a if who == "A" else b
                stats = dlx.Stats()
                started = time.process_time()
                n = dlx.count(problems[who], cache=cache, engine="c", stats=stats)
                times[who].append(time.process_time() - started)
                seen[who] = (n, stats.nodes, stats.updates, tuple(stats.profile))
        engine._core = a
        ratios = [tb / ta for ta, tb in zip(times["A"], times["B"], strict=True)]
        print(f"| {name} | {statistics.median(times['A']):.4f} | "
              f"{statistics.median(times['B']):.4f} | {statistics.median(ratios):.3f} | "
              f"{min(times['B']) / min(times['A']):.3f} | "
              f"{'yes' if seen['A'] == seen['B'] else 'NO'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
