"""``dlx demo``: a short tour (Knuth's toy problem, a trace, catalog counts, a Sudoku)."""

from __future__ import annotations

import argparse
import sys
import time

import dlx
from dlx import cli
from problems import catalog, sudoku

__all__ = ["add_parsers", "run"]

#: A hard 17-clue Sudoku the tour solves.
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo`` to an argparse sub-parsers object (``func`` = :func:`run`)."""
    demo = subparsers.add_parser(
        "demo", help="a short tour",
        description="A short tour: Knuth's toy problem in his format, its solution and the"
        " first steps of the dance, counts of a few catalogued problems, and a hard Sudoku.")
    demo.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A short tour: Knuth's toy problem, a trace, counts from the catalog, a Sudoku."""
    out = sys.stdout
    print(f"dlx {dlx.__version__}: exact cover with Dancing Links (engine: {cli.engine_name()})\n",
          file=out)
    print("Knuth's DLX format (a line starting with | is a comment):\n", file=out)
    print("    " + dlx.KNUTH_TOY.rstrip().replace("\n", "\n    "), file=out)
    read = dlx.read_dlx(dlx.KNUTH_TOY)
    # label each option by its text, so the trace reads "try a d f"
    p = dlx.ExactCover({" ".join(map(str, items)): items for items in read.options.values()},
                       primary=read.primary)
    sol = dlx.first(p)
    assert sol is not None
    order = list(p.options)
    shown = "; ".join(str(o) for o in sorted(sol, key=order.index))
    print(f"\nsolution: {shown}    (count: {dlx.count(p)}, unique: {dlx.is_unique(p)})",
          file=out)
    print("\nThe first steps of the dance (dlx.trace):", file=out)
    for k, event in enumerate(dlx.trace(p)):
        if k == 12:
            print("    ...", file=out)
            break
        print(f"    {event}", file=out)
    print("\nCounts from the problem catalog:", file=out)
    for name, problem, expected in catalog.demo_entries():
        started = time.perf_counter()
        got = dlx.count(problem)
        ms = (time.perf_counter() - started) * 1000
        mark = "ok" if got == expected else f"EXPECTED {expected}"
        print(f"    {name:<28} {got:>8,}  {mark}  ({ms:.0f} ms)", file=out)
    print(f"\nA hard Sudoku: {PUZZLE}", file=out)
    started = time.perf_counter()
    solved = sudoku.solve(PUZZLE)
    ms = (time.perf_counter() - started) * 1000
    print(f"solved in {ms:.0f} ms: {solved}", file=out)
    print(f"verdict: {sudoku.classify(PUZZLE).value}", file=out)
    print("\nMore: dlx solve FILE, dlx sudoku solve FILE, dlx queens 8 --count, dlx --help",
          file=out)
    return cli.EXIT_FOUND
