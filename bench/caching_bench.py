"""Counting by caching (Knuth's DLX6, ``dlx.count(p, cache=True)``) against plain counting.

Run by hand: ``.venv/bin/python bench/caching_bench.py [--cap 60]``.

Domino tilings of R x C boards: the cached count on the pure engine (the only one
that caches) beside the plain count on the pure engine and on the C core, each
with a time limit of ``--cap`` seconds ("-" when it ran out).  Same answer where
both finish; the speed-up is what the cache saves.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dlx  # noqa: E402
from problems import dominoes  # noqa: E402


def timed(p: dlx.ExactCover, cap: float, **kw: object) -> tuple[str, str, int | None]:
    stats = dlx.Stats()
    started = time.perf_counter()
    try:
        n = dlx.count(p, timeout=cap, stats=stats, **kw)  # type: ignore[arg-type]
    except dlx.BudgetExceeded:
        return "-", f"{stats.nodes:,}+", None
    return f"{time.perf_counter() - started:.2f}", f"{stats.nodes:,}", n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60, help="seconds per count at most")
    args = parser.parse_args()
    print("| board | tilings | cached (pure) s | nodes | plain pure s | nodes | plain C s | nodes |"
          " cached vs plain C |")
    print("|---|---|---|---|---|---|---|---|---|")
    for rows, cols in ((6, 6), (6, 8), (7, 8), (8, 8), (10, 10)):
        p = dominoes.encode(rows, cols)
        cached = timed(p, args.cap, cache=True)
        pure = timed(p, args.cap, engine="python")
        core = timed(p, args.cap, engine="c")
        answers = {n for n in (cached[2], pure[2], core[2]) if n is not None}
        assert len(answers) <= 1, answers
        ratio = "-"
        if cached[0] != "-" and core[0] != "-":
            ratio = f"{float(core[0]) / max(float(cached[0]), 1e-3):.1f}x"
        elif cached[0] != "-":
            ratio = f"> {args.cap / max(float(cached[0]), 1e-3):.0f}x"
        print(f"| {rows}x{cols} | {next(iter(answers), '?'):,} | {cached[0]} | {cached[1]} |"
              f" {pure[0]} | {pure[1]} | {core[0]} | {core[1]} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
