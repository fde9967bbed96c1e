"""``dlx solve FILE``: an exact-cover problem in Knuth's DLX format, or judge batches.

Every solution is printed on its own line, each option as its items in input
order (``--format jsonl``: one JSON object per solution); ``--count`` prints only
the number.  ``--format hust`` or ``matrix`` reads HUST 1017 or POJ 3740 batches
instead (:mod:`dlx.cli.judges`) and answers each case.

>>> import argparse, io, sys
>>> parser = argparse.ArgumentParser(prog="dlx")
>>> add_parsers(parser.add_subparsers())
>>> args = parser.parse_args(["solve", "-"])
>>> saved, sys.stdin = sys.stdin, io.StringIO("a b\\na\\nb\\na b\\n")
>>> args.func(args)
a; b
a b
0
>>> sys.stdin = saved
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Hashable, Sequence
from typing import cast

import dlx
from dlx.formats import DLXFormatWarning, read_dlx_lines

from .common import (
    EXIT_BUDGET,
    EXIT_FOUND,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NONE,
    error,
    open_input,
    positive_int,
    print_stats,
    search_session,
)

__all__ = ["add_parsers", "run"]


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``solve`` to an argparse sub-parsers object (``func`` = :func:`run`)."""
    solve = subparsers.add_parser(
        "solve", help="solve an exact-cover problem in Knuth's DLX format",
        description="Read Knuth's DLX format (first line: items, primary | secondary; one option"
        " per line; lines starting with | are comments) and print every solution, one per line,"
        " each option as its items in input order. With --format hust or matrix, read judge"
        " batches instead (HUST 1017, POJ 3740) and answer each case.",
    )
    solve.add_argument("file", metavar="FILE", help="input file, or - for standard input")
    solve.add_argument("--count", action="store_true", help="print only the number of solutions")
    solve.add_argument("--limit", type=positive_int, metavar="N", help="stop after N solutions")
    solve.add_argument("--max-nodes", type=positive_int, metavar="N",
                       help="node budget; exit 124 when it runs out")
    solve.add_argument("--stats", action="store_true", help="statistics table on stderr")
    solve.add_argument("--format", choices=["text", "jsonl", "hust", "matrix"], default="text",
                       help="text (default) or jsonl output; hust or matrix judge batches")
    solve.add_argument("-q", "--quiet", action="store_true", help="no progress or warnings")
    solve.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dlx solve`` as ``args`` say; return the exit code."""
    # surrogateescape: a bad byte reaches the reader, which reports its line
    if args.format in ("hust", "matrix"):
        from .judges import solve_batch

        with open_input(args.file, errors="surrogateescape") as (stream, _):
            return solve_batch(args.format, stream, sys.stdout, sys.stderr,
                               max_nodes=args.max_nodes)
    with open_input(args.file, errors="surrogateescape") as (stream, name), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DLXFormatWarning)
        try:
            problem, lines = read_dlx_lines(stream)
        except dlx.FormatError as e:
            error(f"{name}: {e}")
            return EXIT_INPUT
    for w in caught:
        if not args.quiet:
            error(f"{name}: {w.message}")
    stats = dlx.Stats()
    started = time.perf_counter()
    found = 0
    code = EXIT_FOUND
    try:
        with search_session(f"dlx solve {name}", args.quiet) as progress:
            if args.count:
                found = dlx.count(problem, limit=args.limit, max_nodes=args.max_nodes,
                                  stats=stats, progress=progress)
                print(found)
            else:
                for sol in dlx.solutions(problem, limit=args.limit, max_nodes=args.max_nodes,
                                         stats=stats, progress=progress):
                    found += 1
                    _print_solution(problem, lines, sol, found, args.format)
    except dlx.BudgetExceeded as e:
        partial = e.found if isinstance(e.found, int) else len(e.found or ())
        if args.count:
            print(f"{partial}+")
        budget = f"node budget of {e.max_nodes:,}" if e.max_nodes is not None else "budget"
        error(f"{budget} exhausted: {partial:,} solutions so far, search unfinished")
        code = EXIT_BUDGET
    except KeyboardInterrupt:
        error(f"interrupted after {stats.nodes:,} nodes: {stats.solutions:,} solutions so far")
        code = EXIT_INTERRUPTED
    else:
        if found == 0:
            code = EXIT_NONE
            if not args.count and not args.quiet:
                error("no solution")
    if args.stats:
        print_stats(stats, time.perf_counter() - started, f"dlx solve {name}")
    return code


def _print_solution(problem: dlx.ExactCover, lines: Sequence[int], sol: Sequence[Hashable],
                    k: int, fmt: str) -> None:
    chosen = sorted(cast("Sequence[int]", sol), key=lines.__getitem__)  # labels: 0, 1, ...
    if fmt == "jsonl":
        record = {"solution": k, "lines": [lines[o] for o in chosen],
                  "options": [_option_text(problem, o).split() for o in chosen]}
        print(json.dumps(record))
    else:
        print("; ".join(_option_text(problem, o) for o in chosen))


def _option_text(problem: dlx.ExactCover, label: Hashable) -> str:
    """An option as Knuth writes it: its items, ``x:c`` for a coloured one."""
    return " ".join(f"{entry.item}:{entry.color}" if isinstance(entry, dlx.Colored)
                    else str(entry) for entry in problem.options[label])
