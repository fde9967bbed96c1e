"""``dlx queens``, ``langford``, ``dominoes``, ``pentominoes``, ``rectangles``: puzzles.

Each command encodes its puzzle with the :mod:`problems` package, searches, and
prints the first solution (``--all``: every one, ``--limit K``: at most K,
``--count``: their number) as text, or as one JSON object per line with
``--format jsonl``.  Exit codes are those of :mod:`dlx.cli`.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="dlx")
>>> add_parsers(parser.add_subparsers())
>>> args = parser.parse_args(["queens", "8", "--count"])
>>> args.func(args)
92
0
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Hashable
from typing import IO, Any, cast

import dlx
from dlx import FormatError, cli
from problems import dominoes, langford, polyominoes, queens, rectangles

__all__ = ["add_parsers"]

#: The most options a command builds (a guard against typing 100000 for 100).
MAX_OPTIONS = 200_000


def _size(text: str) -> tuple[int, int]:
    found = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", text)
    if not found:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a size like 6x10")
    return cli.whole_number(found[1]), cli.whole_number(found[2])


def _common(listing: bool = True) -> argparse.ArgumentParser:
    """The options every puzzle command shares; ``listing``: the commands that list
    solutions (--all, --limit, and --jobs/--scheduler, which cut one search into pieces),
    not ``rectangles``, which answers each case with one number."""
    common = argparse.ArgumentParser(add_help=False)
    what = common.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="print only the number of solutions")
    if listing:
        what.add_argument("--all", action="store_true", help="print every solution")
        what.add_argument("--restarts", action="store_true",
                          help="print one solution, found by randomised restarts: a solution,"
                               " not the first in search order (for large boards)")
        common.add_argument("--limit", type=cli.positive_int, metavar="K",
                            help="print (or count) at most K solutions; default: print the"
                                 " first")
    else:
        common.add_argument("--limit", type=cli.positive_int, metavar="K",
                            help="with --count: count at most K exact covers per case")
    common.add_argument("--max-nodes", type=cli.positive_int, metavar="N",
                        help="node budget (per case); exit 124 when it runs out")
    common.add_argument("--timeout", type=cli.seconds, metavar="SECONDS",
                        help="time limit for the whole run; exit 124 when it is reached")
    common.add_argument("--stats", action="store_true", help="statistics table on stderr")
    common.add_argument("--format", choices=["text", "jsonl"], default="text",
                        help="text (default) or one JSON object per line")
    common.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    if listing:
        cli.add_symmetry_arguments(common)
        cli.add_parallel_arguments(common)
        cli.add_engine_argument(common)
    return common


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the sub-commands queens, rectangles, pentominoes, langford and dominoes."""
    common = [_common()]
    cases = [_common(listing=False)]
    p = subparsers.add_parser("queens", parents=common, help="n queens, none attacking another",
                              description="Place N queens on an N x N board, none attacking"
                              " another (OEIS A000170 counts them).", epilog=cli.EPILOG)
    p.add_argument("n", type=cli.whole_number, metavar="N", help="board size (N x N, N queens)")
    cli.add_checkpoint_arguments(p)
    p.set_defaults(func=_queens)
    p = subparsers.add_parser(
        "rectangles", parents=cases, help="fewest rectangles covering a board (ZOJ 3209)",
        description="Read ZOJ 3209 input (T; then per case 'n m p' and p lines 'x1 y1 x2 y2';"
        " T may be left out) and print, per case, the fewest pieces covering the n x m board"
        " exactly, or -1 (--count: the number of exact covers, N+ when a budget or the time"
        " limit stops the count). A malformed case is reported on stderr and the rest are"
        " still answered. The cases are small: each runs in this process (no --jobs).",
        epilog=cli.EPILOG)
    p.add_argument("files", nargs="*", default=["-"], metavar="FILE",
                   help="input files; '-' or none for standard input")
    p.add_argument("--max-line", type=cli.positive_int, metavar="N",
                   help="longest input line in characters (default: any line of a regular"
                        " file; 1,000,000 from a pipe)")
    p.set_defaults(func=_rectangles)
    p = subparsers.add_parser(
        "pentominoes", parents=common, help="tile an R x C box with the 12 pentominoes",
        description="Tile a box of R rows and C columns with the twelve pentominoes, each once"
        " (R * C = 60 for a full set: 6x10, 5x12, 4x15, 3x20). Sizes are rows x columns, as"
        " for dominoes and --box: 3x20 prints 3 rows of 20.", epilog=cli.EPILOG)
    p.add_argument("size", type=_size, metavar="RxC",
                   help="box size, rows x columns, such as 6x10")
    p.add_argument("--distinct", action="store_true",
                   help="one tiling per family of rotations and reflections of the box")
    cli.add_checkpoint_arguments(p)
    p.set_defaults(func=_pentominoes)
    p = subparsers.add_parser("langford", parents=common, help="Langford pairs L(2, N)",
                              description="Arrange 1, 1, ..., N, N in a row with k numbers"
                              " between the two k's (both mirror images are counted; there"
                              " are solutions only for N = 0 or 3 mod 4).", epilog=cli.EPILOG)
    p.add_argument("n", type=cli.whole_number, metavar="N",
                   help="the largest number: the row holds two of each of 1..N")
    cli.add_checkpoint_arguments(p)
    p.set_defaults(func=_langford)
    p = subparsers.add_parser("dominoes", parents=common, help="domino tilings of an R x C board",
                              description="Tile an R x C board with dominoes.", epilog=cli.EPILOG)
    p.add_argument("size", type=_size, metavar="RxC", help="board size, such as 8x8")
    cli.add_checkpoint_arguments(p)
    p.set_defaults(func=_dominoes)


# ------------------------------------------------------------------ shared machinery


def _emit(args: argparse.Namespace, text: str, record: dict[str, Any], out: IO[str]) -> None:
    print(json.dumps(record) if args.format == "jsonl" else text, file=out, flush=True)


def _search(args: argparse.Namespace, command: str, problem: dlx.ExactCover,
            show: Callable[[tuple[Hashable, ...]], tuple[str, dict[str, Any]]]) -> int:
    """Count or print the solutions of ``problem`` as the options say; return the exit code."""
    stats = dlx.Stats()
    started = time.perf_counter()
    found = 0
    timeout = args.timeout
    saving = {**cli.checkpointing(args), **cli.symmetry_keywords(args)}
    if args.restarts and (args.limit or args.jobs or args.scheduler or saving
                          or args.engine in cli.SOLVERS):
        cli.error("--restarts finds one solution in this process, on the core: leave out --limit,"
                  " --jobs, --scheduler, --checkpoint, the symmetry options and --engine"
                  f" {args.engine}" if args.engine in cli.SOLVERS else
                  "--restarts finds one solution in this process: leave out --limit, --jobs,"
                  " --scheduler, --checkpoint and the symmetry options")
        return cli.EXIT_INPUT
    why = cli.one_answer(args, "--all, --limit K")
    if why is not None:
        cli.error(why)
        return cli.EXIT_INPUT
    engine: dict[str, Any] = {"engine": args.engine}
    try:
        if args.restarts or args.engine in cli.SOLVERS:     # one solution (the rest refused)
            with cli.search_session(command, args.quiet) as progress:
                sol = dlx.first(problem, max_nodes=args.max_nodes, timeout=timeout,
                                stats=stats, progress=progress, restarts=args.restarts,
                                **engine)
            if sol is not None:
                found = 1
                _emit(args, *show(sol), sys.stdout)
            elif not args.quiet:
                cli.error("no solution")
        elif args.count:
            with cli.search_session(command, args.quiet) as progress, cli.executor_for(args) as ex:
                found = dlx.count(problem, limit=args.limit, max_nodes=args.max_nodes,
                                  timeout=timeout, stats=stats, progress=progress,
                                  executor=ex, **saving, **engine)
            # the live line is gone: the answer gets a line of its own
            _emit(args, str(found), {"count": found, "finished": True}, sys.stdout)
        else:
            with cli.search_session(command, args.quiet) as progress, cli.executor_for(args) as ex:
                limit = args.limit or (None if args.all else 1)
                # printed while the live line shows: rich puts them above it
                for sol in dlx.solutions(problem, limit=limit, max_nodes=args.max_nodes,
                                         timeout=timeout, stats=stats, progress=progress,
                                         executor=ex, **saving, **engine):
                    if found and args.format == "text":
                        print()
                    found += 1
                    text, record = show(sol)
                    _emit(args, text, record, sys.stdout)
            if not found and not args.quiet:
                cli.error("no solution")
    except dlx.BudgetExceeded as e:
        # as dlx solve: what was found is kept (a count says N+, listed solutions stay)
        if args.count:
            found = e.found if isinstance(e.found, int) else 0
            _emit(args, f"{found}+", {"count": found, "finished": False}, sys.stdout)
        cli.error(f"{cli.stopped(e, args.timeout)} reached: {cli.counted(found, 'solution')}"
                  f" so far, search unfinished{cli.resume_note(args, e)}")
        return cli.EXIT_BUDGET
    except KeyboardInterrupt as e:
        if not args.count or isinstance(e, cli.Terminated):     # (SIGTERM: a supervisor's)
            return cli.interrupted(cli.resume_note(args, e))
        # Ctrl-C, as a budget does: the count so far (N+), and how to keep the search
        found = stats.solutions if args.limit is None else min(stats.solutions, args.limit)
        _emit(args, f"{found}+", {"count": found, "finished": False}, sys.stdout)
        return cli.interrupted(f": {cli.counted(found, 'solution')} so far, search unfinished"
                               + cli.resume_note(args, e, hint=True))
    finally:
        if args.stats:
            cli.print_stats(stats, time.perf_counter() - started, f"dlx {command}",
                            cli.symmetry_rows(stats))
    return cli.EXIT_FOUND if found else cli.EXIT_NONE


def _build(make: Callable[[], dlx.ExactCover], options: int = 0) -> dlx.ExactCover | None:
    """The problem, or None after one line on stderr (bad or too large input)."""
    if options > MAX_OPTIONS:
        size = f"about {options:,} options" if options < 10**15 else \
            "more options than any memory holds"
        cli.error(f"that would be {size}; the limit is {MAX_OPTIONS:,}")
        return None
    try:
        return make()
    except ValueError as e:
        cli.error(str(e))
        return None


# ------------------------------------------------------------------------ commands


def _queens(args: argparse.Namespace) -> int:
    problem = _build(lambda: queens.encode(args.n), args.n ** 2)
    if problem is None:
        return cli.EXIT_INPUT

    def show(sol: tuple[Hashable, ...]) -> tuple[str, dict[str, Any]]:
        board = queens.decode(cast("tuple[queens.Queen, ...]", sol))
        return queens.render(board), {"columns": list(board)}

    return _search(args, "queens", problem, show)


def _langford(args: argparse.Namespace) -> int:
    problem = _build(lambda: langford.encode(args.n), 2 * args.n ** 2)
    if problem is None:
        return cli.EXIT_INPUT

    def show(sol: tuple[Hashable, ...]) -> tuple[str, dict[str, Any]]:
        seq = langford.decode(cast("tuple[langford.Pair, ...]", sol))
        return " ".join(map(str, seq)), {"sequence": list(seq)}

    return _search(args, "langford", problem, show)


def _dominoes(args: argparse.Namespace) -> int:
    rows, cols = args.size
    problem = _build(lambda: dominoes.encode(rows, cols), 2 * rows * cols)
    if problem is None:
        return cli.EXIT_INPUT

    def show(sol: tuple[Hashable, ...]) -> tuple[str, dict[str, Any]]:
        tiling = dominoes.decode(cast("tuple[dominoes.Domino, ...]", sol))
        record = [[d.row, d.col, "v" if d.vertical else "h"] for d in tiling]
        return dominoes.render(tiling), {"dominoes": record}

    return _search(args, "dominoes", problem, show)


def _pentominoes(args: argparse.Namespace) -> int:
    rows, cols = args.size
    if rows * cols != 60:
        cli.error(f"a {rows}x{cols} box has {rows * cols} squares;"
                  " the twelve pentominoes need 60")
        return cli.EXIT_INPUT
    problem = _build(lambda: polyominoes.encode(rows=rows, cols=cols, reduce=args.distinct))
    if problem is None:
        return cli.EXIT_INPUT

    def show(sol: tuple[Hashable, ...]) -> tuple[str, dict[str, Any]]:
        text = str(polyominoes.decode(cast("tuple[polyominoes.Placement, ...]", sol)))
        return text, {"rows": text.splitlines()}

    return _search(args, "pentominoes", problem, show)


def _rectangles(args: argparse.Namespace) -> int:
    if args.limit is not None and not args.count:
        cli.error("--limit goes with --count (each case's answer is its fewest pieces)")
        return cli.EXIT_INPUT
    total = dlx.Stats()
    started = time.perf_counter()
    batch = cli.Batch()
    deadline = cli.Deadline(args.timeout)
    try:
        with cli.search_session("rectangles", args.quiet) as progress:
            for path in args.files:
                try:
                    # surrogateescape: a bad byte is a bad number, reported with its line
                    with cli.open_input(path, errors="surrogateescape") as (stream, name):
                        if not _rectangle_cases(args, stream, name, batch, deadline, total,
                                                progress):
                            break
                except cli.InputError as e:
                    print(e, file=sys.stderr)
                    batch.bad()
    except KeyboardInterrupt:
        return cli.interrupted()
    finally:
        if args.stats:
            cli.print_stats(total, time.perf_counter() - started, "dlx rectangles",
                            [("cases", f"{batch.cases:,}")])
    return batch.code


def _rectangle_cases(args: argparse.Namespace, stream: IO[str], name: str, batch: cli.Batch,
                     deadline: cli.Deadline, total: dlx.Stats,
                     progress: Callable[[dlx.Stats], None]) -> bool:
    """Answer the cases of one file; False when the time limit stops the run."""
    k = 0
    cases = rectangles.read_batch(stream, max_length=cli.line_cap(stream, args.max_line))
    while True:
        with cli.STOP.immediate():      # waiting for input: a signal stops at once
            case = next(cases, None)
        if case is None:
            break
        k += 1
        batch.cases += 1
        if isinstance(case, FormatError):
            case_of = f"case {k}: " if "case" not in case.reason else ""
            reason = case.reason
            if reason.startswith("line is longer than") and args.max_line is None:
                reason += "; --max-line N reads longer lines"
            cli.error(case_of + reason, name, case.line)
            batch.bad()
            continue
        if deadline.expired():
            cli.error(f"time limit of {args.timeout:g} s reached: case {k} and the rest are not"
                      " answered", name)
            batch.unknown()
            return False
        stats = dlx.Stats()
        search: dict[str, Any] = {"max_nodes": args.max_nodes, "timeout": deadline.remaining(),
                                  "stats": stats, "progress": progress}
        try:
            if args.count:
                n = rectangles.count(case.n, case.m, case.pieces, limit=args.limit, **search)
                _emit(args, str(n), {"file": name, "case": k, "count": n, "finished": True},
                      sys.stdout)
                covered = n > 0
            else:
                best = rectangles.min_cover(case.n, case.m, case.pieces, **search)
                text = "-1" if best is None else str(len(best))
                record = {"file": name, "case": k, "min": -1 if best is None else len(best),
                          "pieces": best}
                _emit(args, text, record, sys.stdout)
                covered = best is not None
        except dlx.BudgetExceeded as e:
            if args.count:      # as dlx solve: the count so far, marked unfinished
                n = e.found if isinstance(e.found, int) else 0
                _emit(args, f"{n}+", {"file": name, "case": k, "count": n, "finished": False},
                      sys.stdout)
                cli.error(f"case {k}: {cli.stopped(e, args.timeout)} reached:"
                          f" {cli.counted(n, 'exact cover')} so far, count unfinished", name,
                          case.line)
            else:
                cli.error(f"case {k}: {cli.stopped(e, args.timeout)} reached before the search"
                          " finished: the answer is unknown", name, case.line)
            batch.unknown()
        else:
            if not covered:
                batch.none()
        cli.add_stats(total, stats)
    return True
