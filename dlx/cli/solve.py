"""``dlx solve [FILE ...]``: exact-cover problems in Knuth's DLX format, or judge batches.

Every solution is printed on its own line, each option as its items in input
order (``--format jsonl``: one JSON object per solution); ``--count`` prints only
the number.  With several FILEs each is a problem of its own, and every answer
line starts with ``FILE: `` (as grep does).  ``--format hust`` or ``matrix`` reads
HUST 1017 or POJ 3740 batches instead (:mod:`dlx.cli.judges`) and answers each
case (``--count``: its number of solutions).

>>> import argparse, io, sys
>>> parser = argparse.ArgumentParser(prog="dlx")
>>> add_parsers(parser.add_subparsers())
>>> args = parser.parse_args(["solve"])
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
import re
import sys
import time
import warnings
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, cast

import dlx
from dlx.formats import DLXFormatWarning, read_dlx_lines
from dlx.rules import DEFAULT, RULES

from .common import (
    EPILOG,
    EXIT_INPUT,
    EXIT_MEMORY,
    Batch,
    Deadline,
    InputError,
    add_checkpoint_arguments,
    add_parallel_arguments,
    checkpointing,
    counted,
    error,
    executor_for,
    input_size,
    interrupted,
    line_cap,
    open_input,
    positive_int,
    print_stats,
    resume_note,
    search_session,
    seconds,
    stopped,
    whole_number,
)
from .engines import SOLVERS, add_engine_argument, one_answer
from .stop import Terminated

__all__ = ["add_parsers", "run", "add_symmetry_arguments", "symmetry_keywords",
           "symmetry_rows"]

#: --best K keeps K solutions in memory: more than 2**31 - 1 could never be held, so a
#: larger K (up to 2**63 - 1, what every count option takes) means the same as this one.
MAX_BEST = 2**31 - 1


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``solve`` to an argparse sub-parsers object (``func`` = :func:`run`)."""
    solve = subparsers.add_parser(
        "solve", help="solve exact-cover problems in Knuth's DLX format (or judge batches)",
        description="Read Knuth's DLX format (first line: items, primary | secondary; one option"
        " per line; x:c gives secondary item x the colour c; lines starting with | are"
        " comments) and print every solution, one per line, each option as its items in input"
        " order. Several FILEs are several problems; each answer line then starts with 'FILE:"
        " '. With --format hust or matrix, read judge batches instead (HUST 1017, POJ 3740)"
        " and answer each case.", epilog=EPILOG)
    solve.add_argument("files", nargs="*", default=["-"], metavar="FILE",
                       help="input files; '-' or none for standard input")
    what = solve.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true",
                      help="print only the number of solutions (per case for judge batches)")
    what.add_argument("--best", type=positive_int, metavar="K",
                      help="print the K cheapest solutions by the options' costs (Knuth's DLX5"
                           " '|n' entries; 0 without), cheapest first, each after its cost")
    what.add_argument("--restarts", action="store_true",
                      help="print one solution, found by randomised restarts (runs of growing"
                           " node budgets, each with its own random choices): a solution, not"
                           " the first in search order; for first solutions with heavy tails")
    solve.add_argument("--seed", type=whole_number, metavar="N",
                       help="with --restarts: the seed of the runs' random choices (default"
                            " 0; the same seed, the same solution)")
    solve.add_argument("--limit", type=positive_int, metavar="N", help="stop after N solutions")
    solve.add_argument("--max-nodes", type=positive_int, metavar="N",
                       help="node budget per problem or case; exit 124 when it runs out")
    solve.add_argument("--timeout", type=seconds, metavar="SECONDS",
                       help="time limit for the whole run; exit 124 when it is reached")
    solve.add_argument("--max-line", type=positive_int, metavar="N",
                       help="longest input line in characters (default: any line of a regular"
                            " file; 1,000,000 from a pipe)")
    solve.add_argument("--stats", action="store_true", help="statistics table on stderr")
    solve.add_argument("--format", choices=["text", "jsonl", "hust", "matrix"], default="text",
                       help="text (default) or jsonl output for DLX input; hust or matrix:"
                            " judge batches in, the judge's answers out")
    solve.add_argument("-q", "--quiet", action="store_true", help="no progress or warnings")
    solve.add_argument("--reduce", action="store_true",
                       help="first take out the options and items no solution needs (Knuth's"
                            " DLX-PRE; the same solutions), saying on stderr what went")
    solve.add_argument("--heuristic", choices=list(RULES), default=DEFAULT.name,
                       help=f"which item to branch on (default {DEFAULT.name}). " + "; ".join(
                           f"{r.name}: {r.about}" for r in RULES.values()))
    solve.add_argument("--cache", action="store_true",
                       help="with --count: count by caching (Knuth's DLX6): states that leave"
                            " the same to solve are counted once")
    solve.add_argument("--zdd", metavar="OUT",
                       help="build the ZDD of all solutions (Knuth's DLX6) and write it to OUT"
                            " ('-': standard output; dlx.ZDD's text format, sealed with its"
                            " digest); prints the count")
    add_symmetry_arguments(solve)
    add_parallel_arguments(solve)
    add_checkpoint_arguments(solve)
    add_engine_argument(solve, "searches (cp-sat and race print one solution, or --best K)")
    solve.set_defaults(func=run)


def add_symmetry_arguments(parser: argparse.ArgumentParser) -> None:
    """``--symmetry`` and ``--up-to-symmetry``: counting and listing by the problem's
    symmetries (found with nauty: the ``symmetry`` extra)."""
    parser.add_argument("--symmetry", action="store_true",
                        help="with --count: count by the problem's symmetries (found with"
                             " nauty: pip install 'dancing-links-dlx[symmetry]'): the same"
                             " number, sooner")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="count (--count) or list one solution per orbit: solutions that a"
                             " symmetry of the problem maps onto each other count once")


def symmetry_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The view keywords of ``--symmetry`` and ``--up-to-symmetry`` (an InputError for
    ``--symmetry`` on a listing, which lists every solution)."""
    sym, up = getattr(args, "symmetry", False), getattr(args, "up_to_symmetry", False)
    if not (sym or up):
        return {}
    if sym and not up and not args.count:
        raise InputError("--symmetry goes with --count (to list one solution per orbit:"
                         " --up-to-symmetry)")
    if getattr(args, "checkpoint", None) is not None:
        raise InputError("--checkpoint does not go with --symmetry or --up-to-symmetry")
    return {"symmetry": True, "up_to_symmetry": True} if up else {"symmetry": True}


def symmetry_rows(stats: dlx.Stats) -> list[tuple[str, str]]:
    """The --stats row of a count by symmetry."""
    return [("saved by symmetry", f"{stats.symmetry_saved:,} nodes")] \
        if stats.symmetry_saved else []


def run(args: argparse.Namespace) -> int:
    """Run ``dlx solve`` as ``args`` say; return the exit code."""
    if args.format in ("hust", "matrix") and args.best is not None:
        error(f"--best goes with Knuth's format, not --format {args.format}")
        return EXIT_INPUT
    if args.format in ("hust", "matrix") and args.reduce:
        error(f"--reduce goes with Knuth's format, not --format {args.format}")
        return EXIT_INPUT
    if (args.symmetry or args.up_to_symmetry) and (
            args.format in ("hust", "matrix") or args.best is not None or args.zdd is not None
            or args.cache):
        error("--symmetry and --up-to-symmetry go with Knuth's format, to count or list"
              " (not with --best, --zdd, --cache or judge batches)")
        return EXIT_INPUT
    symmetry_keywords(args)             # (--symmetry on a listing: an input error)
    if args.best is not None and args.limit is not None:
        error("--best K already says how many solutions: leave out --limit")
        return EXIT_INPUT
    if args.cache and not args.count:
        error("--cache goes with --count: it counts by caching (a listing cannot use it)")
        return EXIT_INPUT
    if args.cache and args.format in ("hust", "matrix"):
        error(f"--cache goes with Knuth's format, not --format {args.format}")
        return EXIT_INPUT
    if _restarts_clash(args):
        return EXIT_INPUT
    why = one_answer(args, "--limit N above 1") or (
        f"--engine {args.engine} goes with Knuth's format, not --format {args.format}"
        if args.engine in SOLVERS and args.format in ("hust", "matrix") else None)
    if why is not None:
        error(why)
        return EXIT_INPUT
    checkpointing(args)                 # (--checkpoint-every alone: an input error)
    clash = _clash(args)
    if clash is not None:
        error(clash)
        return EXIT_INPUT
    if args.checkpoint is not None and (len(args.files) > 1 or args.format in ("hust", "matrix")):
        error("--checkpoint FILE goes with one problem in Knuth's format (one FILE)")
        return EXIT_INPUT
    if args.format in ("hust", "matrix") and args.limit is not None and not args.count:
        error(f"--limit goes with --count under --format {args.format} (each case's answer is"
              " one solution or none)")
        return EXIT_INPUT
    deadline = Deadline(args.timeout)
    batch = Batch()
    several = len(args.files) > 1
    for path in args.files:
        if args.format in ("hust", "matrix"):
            code = _judge(path, args, deadline, batch)
        else:
            code = _solve(path, args, deadline, batch, several)
        if code is not None:          # interrupted, or out of memory: stop here
            return code
    return batch.code


def _restarts_clash(args: argparse.Namespace) -> bool:
    """Say so (and return True) when --restarts or --seed comes with what they cannot
    go with."""
    if not args.restarts:
        if args.seed is not None:
            error("--seed goes with --restarts")
            return True
        return False
    clash = [name for name, given in (
        ("--limit", args.limit is not None), (f"--format {args.format}", args.format in
                                              ("hust", "matrix")),
        ("--heuristic", args.heuristic != DEFAULT.name), ("--cache", args.cache),
        ("--zdd", args.zdd is not None), ("--jobs", args.jobs is not None),
        ("--scheduler", args.scheduler is not None),
        ("--checkpoint", args.checkpoint is not None),
        (f"--engine {args.engine}", args.engine in SOLVERS)) if given]
    if clash:
        error(f"--restarts finds one solution in this process, by its own rule: leave out"
              f" {', '.join(clash)}")
        return True
    return False


def _clash(args: argparse.Namespace) -> str | None:
    """Flags that do not go together (never one silently ignored), or where --zdd OUT
    cannot be written: said before anything is read or searched."""
    many = "--jobs" if args.jobs is not None else \
        "--scheduler" if args.scheduler is not None else None
    if args.cache and (many or args.checkpoint is not None):
        return (f"--cache counts in one process, by caching: leave out"
                f" {many or '--checkpoint'} (or --cache)")
    if args.zdd is None:
        return None
    given = [flag for flag, on in (("--checkpoint", args.checkpoint is not None),
                                   ("--jobs", args.jobs is not None),
                                   ("--scheduler", args.scheduler is not None),
                                   ("--best", args.best is not None),
                                   ("--limit", args.limit is not None)) if on]
    if given:
        return (f"--zdd builds the diagram of all solutions in one process and writes it"
                f" whole: it takes no {given[0]}")
    if len(args.files) > 1 or args.format in ("hust", "matrix"):
        return "--zdd OUT goes with one problem in Knuth's format (one FILE)"
    if args.zdd == "-":
        if args.format == "jsonl":
            return "--zdd - writes the diagram to standard output: leave out --format jsonl"
        return None
    from dlx.files import FileError, kind

    try:
        kind(args.zdd, "--zdd")
    except FileError as e:
        return f"cannot write the ZDD: {e}"
    return None


def _judge(path: str, args: argparse.Namespace, deadline: Deadline, batch: Batch) -> int | None:
    """Answer the judge batch in ``path``."""
    from .judges import solve_batch

    stats = dlx.Stats()
    started = time.perf_counter()
    cases = batch.cases
    try:
        # surrogateescape: a bad byte reaches the reader, which reports its line
        with open_input(path, errors="surrogateescape") as (stream, name):
            solve_batch(args.format, stream, sys.stdout, sys.stderr, max_nodes=args.max_nodes,
                        count=args.count, limit=args.limit, deadline=deadline, stats=stats,
                        batch=batch, name=name, max_length=line_cap(stream, args.max_line))
    except InputError as e:
        print(e, file=sys.stderr)
        batch.bad()
        return None
    if args.stats:
        print_stats(stats, time.perf_counter() - started, f"dlx solve {path}",
                    [("cases", f"{batch.cases - cases:,}")])
    return None


class _Counting:
    """A stream that counts the lines read through it (for a message when memory runs out)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.lines = 0

    def readline(self, size: int = -1, /) -> str:
        line = self.stream.readline(size)
        if line.endswith("\n"):
            self.lines += 1
        return line


_LINE_OF_WARNING = re.compile(r"line (\d+): (.*)", re.DOTALL)


def _solve(path: str, args: argparse.Namespace, deadline: Deadline, batch: Batch,
           several: bool) -> int | None:
    """Read and search the problem in ``path``; None, or the exit code that stops the run."""
    batch.cases += 1
    try:
        with open_input(path, errors="surrogateescape") as (stream, name), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DLXFormatWarning)
            counting = _Counting(stream)
            cap = line_cap(stream, args.max_line)
            try:
                # names as the file spells them (a name table is for Python, not for here)
                problem, lines = read_dlx_lines(counting, max_line_length=cap,
                                                decode_names=False)
            except dlx.FormatError as e:
                reason = e.reason
                if reason.startswith("line is longer than") and args.max_line is None:
                    reason += "; --max-line N reads longer lines"
                reason += _sudoku_hint(reason, name)
                error(reason, name, e.line, e.column)
                batch.bad()
                return None
            except MemoryError:
                size = input_size(stream)
                of = f" of {size / 1e6:,.1f} MB" if size is not None else ""
                error(f"memory ran out reading the problem, at line {counting.lines + 1:,}{of};"
                      " it needs more memory than this process may use", name)
                return EXIT_MEMORY
    except InputError as e:
        print(e, file=sys.stderr)
        batch.bad()
        return None
    for w in caught:
        if not args.quiet:
            found = _LINE_OF_WARNING.fullmatch(str(w.message))
            if found:
                error(found[2], name, int(found[1]))
            else:
                error(str(w.message), name)
    if deadline.expired():
        error(f"time limit of {args.timeout:g} s reached before this problem was searched",
              name)
        batch.unknown()
        return None
    try:
        return _search(problem, lines, name, args, deadline, batch, several)
    except MemoryError:
        items = len(problem.primary) + len(problem.secondary)
        error(f"memory ran out searching the problem ({items:,} items, {len(problem):,}"
              " options); it needs more memory than this process may use", name)
        return EXIT_MEMORY


def _search(problem: dlx.ExactCover, lines: Sequence[int], name: str, args: argparse.Namespace,
            deadline: Deadline, batch: Batch, several: bool) -> int | None:
    stats = dlx.Stats()
    started = time.perf_counter()
    found = 0
    prefix = f"{name}: " if several else ""
    searched = problem          # with --reduce, the reduced problem: the same solutions
    if args.reduce:
        reduced = dlx.reduce(problem)
        searched = reduced.problem
        if not args.quiet:
            error(f"reduced: {reduced}", name)
    limit, budget, timeout = args.limit, args.max_nodes, deadline.remaining()
    rule = {"heuristic": args.heuristic, "engine": args.engine, **symmetry_keywords(args)}
    try:
        if args.zdd is not None:
            return _zdd(searched, name, args, stats, budget, timeout, prefix, batch)
        if args.count:
            with search_session(f"dlx solve {name}", args.quiet) as progress, \
                    executor_for(args) as ex:
                found = dlx.count(searched, limit=limit, max_nodes=budget, timeout=timeout,
                                  stats=stats, progress=progress, executor=ex,
                                  cache=args.cache, **rule, **checkpointing(args))
            # the live line is gone: the answer gets a line of its own
            if args.format == "jsonl":
                print(json.dumps({"file": name, "count": found, "finished": True}))
            else:
                print(f"{prefix}{found}")
        elif args.restarts:
            with search_session(f"dlx solve {name}", args.quiet) as progress:
                sol = dlx.first(searched, restarts=True, seed=args.seed, max_nodes=budget,
                                timeout=timeout, stats=stats, progress=progress)
            if sol is not None:
                found = 1
                _print_solution(problem, lines, sol, found, args.format, name, prefix)
        elif args.best is not None:
            with search_session(f"dlx solve {name}", args.quiet) as progress, \
                    executor_for(args) as ex:
                cheapest = dlx.best(searched, k=min(args.best, MAX_BEST), max_nodes=budget,
                                    timeout=timeout, stats=stats, progress=progress,
                                    executor=ex, **rule, **checkpointing(args))
            for cost, sol in cheapest:
                found += 1
                _print_solution(problem, lines, sol, found, args.format, name, prefix, cost)
        elif args.engine in SOLVERS:        # one solution (one_answer refused the rest)
            with search_session(f"dlx solve {name}", args.quiet) as progress:
                sol = dlx.first(searched, max_nodes=budget, timeout=timeout, stats=stats,
                                progress=progress, **rule)
            if sol is not None:
                found = 1
                _print_solution(problem, lines, sol, found, args.format, name, prefix)
        else:
            with search_session(f"dlx solve {name}", args.quiet) as progress, \
                    executor_for(args) as ex:
                # printed while the live line shows: rich puts them above it
                for sol in dlx.solutions(searched, limit=limit, max_nodes=budget,
                                         timeout=timeout, stats=stats, progress=progress,
                                         executor=ex, **rule, **checkpointing(args)):
                    found += 1
                    _print_solution(problem, lines, sol, found, args.format, name, prefix)
    except dlx.BudgetExceeded as e:
        if args.best is not None:           # the best found so far: not known to be the best
            for cost, sol in e.found or ():
                found += 1
                _print_solution(problem, lines, sol, found, args.format, name, prefix, cost)
        partial = e.found if isinstance(e.found, int) else len(e.found or ())
        if args.count:
            _partial_count(args, name, prefix, partial)
        error(f"{stopped(e, args.timeout)} reached: {counted(partial, 'solution')} so far,"
              f" search unfinished{resume_note(args, e)}", name)
        batch.unknown()
    except KeyboardInterrupt as e:
        # listing: the solutions printed (a parallel run may have found more, unmerged)
        user = not isinstance(e, Terminated)        # Ctrl-C (SIGTERM: a supervisor's)
        if args.count and user:     # as a budget does: the count so far, N+
            found = min(stats.solutions, limit) if limit is not None else stats.solutions
            _partial_count(args, name, prefix, found)
        so_far = f"{counted(found, 'solution')} so far" if args.count and user else \
            f"{counted(stats.solutions, 'solution')} so far" if args.count or args.best else \
            f"{counted(found, 'solution')} printed"
        more = f", search unfinished{resume_note(args, e, hint=True)}" if user else \
            resume_note(args, e)
        return interrupted(f" after {stats.nodes:,} nodes: {so_far}{more}", name)
    else:
        if found == 0:
            batch.none()
            if not args.count and not args.quiet:
                items = problem.primary
                looks = len(problem) == 0 and len(items) == 1 and isinstance(items[0], str)
                error("no solution" + (_sudoku_hint(repr(items[0]), name) if looks else ""),
                      name)
    if args.stats:
        print_stats(stats, time.perf_counter() - started, f"dlx solve {name}",
                    symmetry_rows(stats))
    return None


def _partial_count(args: argparse.Namespace, name: str, prefix: str, n: int) -> None:
    """The count of a search stopped part way: ``N+`` (or its JSON line)."""
    if args.format == "jsonl":
        print(json.dumps({"file": name, "count": n, "finished": False}), flush=True)
    else:
        print(f"{prefix}{n}+", flush=True)


_SUDOKU_NAME = re.compile(r"'([0-9.]{16,}|[0.])'")


def _sudoku_hint(reason: str, name: str) -> str:
    """What to add to a message about a file that reads as a Sudoku, not Knuth's format
    (a line of digits and dots taken for an item, or the item '0' of a grid of numbers).

    >>> _sudoku_hint("unknown item '4.....8.5.3.....' (not in the item line)", "p.txt")
    '; this looks like Sudoku puzzles, not an exact-cover problem: try dlx sudoku solve p.txt'
    """
    found = _SUDOKU_NAME.search(reason)
    if found is None or ("duplicate item" not in reason and len(found[1]) == 1):
        return ""
    where = name if name != "<stdin>" else "-"
    return ("; this looks like Sudoku puzzles, not an exact-cover problem: try dlx sudoku"
            f" solve {where}")


def _print_solution(problem: dlx.ExactCover, lines: Sequence[int], sol: Sequence[Hashable],
                    k: int, fmt: str, name: str, prefix: str, cost: Any = None) -> None:
    chosen = sorted(cast("Sequence[int]", sol), key=lines.__getitem__)  # labels: 0, 1, ...
    if fmt == "jsonl":
        record: dict[str, Any] = {"file": name, "solution": k}
        if cost is not None:
            record["cost"] = cost
        record.update({"lines": [lines[o] for o in chosen],
                       "options": [_option_text(problem, o).split() for o in chosen]})
        with _any_digits(cost):
            text = json.dumps(record)
    else:
        with _any_digits(cost):
            head = "" if cost is None else f"{cost}: "
        text = prefix + head + "; ".join(_option_text(problem, o) for o in chosen)
    print(text)


@contextmanager
def _any_digits(number: object) -> Iterator[None]:
    """Let ``number`` be written out whole.  Python refuses to write an int of more than
    4,300 digits (the guard against slow conversions; the reader refuses such a cost),
    but a sum of the file's costs may have a few more."""
    if not isinstance(number, int) or abs(number).bit_length() < 14_000:   # < 4,215 digits
        yield
        return
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def _option_text(problem: dlx.ExactCover, label: Hashable) -> str:
    """An option as Knuth writes it: its items, ``x:c`` for a coloured one."""
    return " ".join(f"{entry.item}:{entry.color}" if isinstance(entry, dlx.Colored)
                    else str(entry) for entry in problem.options[label])


def _zdd(problem: dlx.ExactCover, name: str, args: argparse.Namespace, stats: dlx.Stats,
         budget: int | None, timeout: float | None, prefix: str, batch: Batch) -> int | None:
    """--zdd OUT: build the diagram of all solutions, write it to OUT (``-``: standard
    output, and the count goes to stderr), print the count."""
    if problem.bounds:
        error("--zdd builds no diagram for a problem with bounds on items (Knuth's DLX6"
              " builds none either); --count --cache counts its solutions", name)
        batch.bad()
        return None
    with search_session(f"dlx solve {name}", args.quiet) as progress:
        z = dlx.zdd(problem, max_nodes=budget, timeout=timeout, stats=stats,
                    progress=progress, heuristic=args.heuristic)
    to_stdout = args.zdd == "-"
    where = "standard output" if to_stdout else args.zdd
    try:
        z.write(sys.stdout if to_stdout else args.zdd)
    except OSError as e:
        error(f"cannot write the ZDD to {where}: {e.strerror or e}", name)
        batch.bad()
        return None
    except dlx.ExactCoverError as e:            # a label its text format cannot hold
        error(f"cannot write the ZDD: {e}", name)
        batch.bad()
        return None
    n = z.count()
    if to_stdout:
        if not args.quiet:
            error(f"{counted(n, 'solution')}; ZDD of {z.nodes:,} nodes written to {where}",
                  name)
    else:
        if args.format == "jsonl":
            print(json.dumps({"file": name, "count": n, "zdd": args.zdd, "nodes": z.nodes}))
        else:
            print(f"{prefix}{n}")
        if not args.quiet:
            error(f"ZDD of {z.nodes:,} nodes written to {where}", name)
    if n == 0:
        batch.none()
    return None
