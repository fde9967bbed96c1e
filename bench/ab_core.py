"""Two builds of the compiled core, A against B, in alternating processes (issue 22).

    .venv/bin/python bench/ab_core.py A.so B.so [--rounds 5] [--reps 3] [--only queens13 ...]

Each process loads one build as ``dlx._core`` (before anything imports it), reads
each workload of ``bench/knuth_bench.py`` (and a few of our own) once, counts once
untimed (the core's table is then built and cached), then counts ``--reps`` times and
prints the CPU times (``time.process_time``) of the search alone, with the Stats of the
last count. Rounds alternate the order (A first, then B first, ...); the table shows per
workload the median CPU time of each build, B / A, and whether the Stats agree.
Build a core into a folder with ``python setup.py -q build_ext --inplace`` run in a
copy of ``setup.py`` and ``dlx/_core/`` (``git show HEAD:...`` gives the old sources).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def load_core(so: str) -> None:
    """Make ``so`` the module ``dlx._core`` (dlx imports it lazily, on first use)."""
    sys.path.insert(0, str(ROOT))
    import dlx
    spec = importlib.util.spec_from_file_location("dlx._core", so)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dlx._core"] = module
    spec.loader.exec_module(module)
    dlx._core = module  # type: ignore[attr-defined]


def texts() -> dict[str, tuple[str, bool]]:
    """name -> (DLX text, cache?)."""
    sys.path.insert(0, str(HERE))
    import knuth_bench as kb
    out = {w.name: (w.text(), w.kind == "cache") for w in kb.WORKLOADS}
    out["queens12"] = (kb.queens(12), False)
    out["langford12"] = (kb.langford(12), False)
    return out


def child(so: str, names: list[str], reps: int) -> None:
    load_core(so)
    import dlx
    from dlx.engine import table
    from dlx.links import Links
    every = texts()
    result = {}
    for name in names:
        text, cache = every[name]
        problem = dlx.read_dlx(text)
        table(Links.of(problem))
        dlx.count(problem, cache=cache, engine="c")
        times = []
        for _ in range(reps):
            stats = dlx.Stats()
            started = time.process_time()
            n = dlx.count(problem, cache=cache, engine="c", stats=stats)
            times.append(time.process_time() - started)
        result[name] = {"times": times, "count": n, "nodes": stats.nodes,
                        "updates": stats.updates, "profile": stats.profile}
    print(json.dumps(result))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--only", nargs="+", default=["queens13", "langford11", "mcc-6.4M"])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.a, args.only, args.reps)
        return 0
    runs: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}
    seen: dict[str, dict[str, object]] = {}
    agree = {name: True for name in args.only}
    for r in range(args.rounds):
        order = [("A", args.a), ("B", args.b)]
        if r % 2:
            order.reverse()
        for who, so in order:
            out = subprocess.run([sys.executable, __file__, so, so, "--child", "--reps",
                                  str(args.reps), "--only", *args.only],
                                 capture_output=True, text=True, check=True)
            for name, got in json.loads(out.stdout).items():
                runs[who].setdefault(name, []).extend(got.pop("times"))
                if name in seen and seen[name] != got:
                    agree[name] = False
                seen.setdefault(name, got)
        print(f"round {r + 1} done", file=sys.stderr, flush=True)
    print("| workload | A (s, median CPU) | B | B / A | stats agree |")
    print("|---|---:|---:|---:|---|")
    for name in args.only:
        a, b = statistics.median(runs["A"][name]), statistics.median(runs["B"][name])
        print(f"| {name} | {a:.4f} | {b:.4f} | {b / a:.3f} | {'yes' if agree[name] else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
