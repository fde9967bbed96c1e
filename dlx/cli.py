"""The ``dlx`` command: exact cover from the shell.

``dlx solve FILE`` reads Knuth's DLX format and prints solutions; ``dlx demo``
gives a short tour; ``dlx sudoku``, ``dlx queens`` and friends come from the
:mod:`problems` package.  Output goes to stdout; progress, statistics and errors
go to stderr.  rich is imported only when something is drawn.

Exit codes: 0 found, 1 no solution, 2 bad input or usage, 3 not unique where
uniqueness was demanded, 124 node budget exhausted, 130 interrupted, 141 output
closed early (``dlx solve big.dlx | head -1``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
import warnings
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

from . import __version__
from .errors import BudgetExceeded, ExactCoverError, FormatError
from .search import count, solutions
from .trace import Stats

EXIT_FOUND, EXIT_NONE, EXIT_INPUT, EXIT_NOT_UNIQUE = 0, 1, 2, 3
EXIT_BUDGET, EXIT_INTERRUPTED, EXIT_PIPE = 124, 130, 141


def _err(message: str) -> None:
    print(f"dlx: {message}", file=sys.stderr)


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


# ----------------------------------------------------------------- progress and stops


class Interrupt:
    """Ctrl-C sets a flag; the search stops at its next progress point (between steps)."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: Any) -> None:
        if self.requested:          # a second Ctrl-C: stop right now
            raise KeyboardInterrupt
        self.requested = True


@contextmanager
def search_session(label: str, quiet: bool) -> Iterator[Callable[[Stats], None]]:
    """A progress callback for a search: a live rich line on a terminal, and Ctrl-C handling.

    The line appears only once a search lasts (at its first progress call) and only
    when stderr is a terminal and not ``quiet``.  Ctrl-C sets a flag; the callback
    then raises KeyboardInterrupt, which the search turns into a clean stop between
    two steps.  Shared by every ``dlx`` sub-command.
    """
    interrupt = Interrupt()
    previous = None
    try:
        previous = signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # not in the main thread
        previous = None
    show = not quiet and sys.stderr.isatty() and "NO_PROGRESS" not in os.environ
    live: Any = None
    spinner: Any = None
    started = time.perf_counter()

    def progress(stats: Stats) -> None:
        nonlocal live, spinner
        if interrupt.requested:
            raise KeyboardInterrupt
        if not show:
            return
        rate = stats.nodes / max(time.perf_counter() - started, 1e-9)
        text = (f"{label}: {stats.nodes:,} nodes ({rate:,.0f}/s),"
                f" {stats.solutions:,} solutions, depth {len(stats.profile) - 1}")
        if live is None:
            from rich.console import Console
            from rich.live import Live
            from rich.spinner import Spinner

            # no redirection: solutions keep going to stdout (a file or a pipe)
            spinner = Spinner("dots", text=text)
            live = Live(spinner, console=Console(stderr=True), transient=True,
                        redirect_stdout=False, redirect_stderr=False, refresh_per_second=8)
            live.start()
        spinner.update(text=text)

    try:
        yield progress
    finally:
        if live is not None:
            live.stop()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def print_stats(stats: Stats, seconds: float, title: str = "search",
                extra: Sequence[tuple[str, str]] = ()) -> None:
    """A small statistics table on stderr (rich; plain text when not a terminal)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for what, value in extra:
        table.add_row(what, value)
    table.add_row("solutions", f"{stats.solutions:,}")
    table.add_row("nodes", f"{stats.nodes:,}")
    table.add_row("updates", f"{stats.updates:,}")
    table.add_row("depth", f"{stats.max_level}")
    table.add_row("time", f"{seconds:.3f} s")
    if seconds > 0:
        table.add_row("nodes/s", f"{stats.nodes / seconds:,.0f}")
    profile = " ".join(f"{n:,}" for n in stats.profile[:16])
    table.add_row("nodes per level", profile + (" ..." if len(stats.profile) > 16 else ""))
    Console(stderr=True, no_color="NO_COLOR" in os.environ).print(table)


# ----------------------------------------------------------------------- dlx solve


def _open_input(path: str) -> IO[str]:
    if path == "-":
        return sys.stdin
    return open(path, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115


def cmd_solve(args: argparse.Namespace) -> int:
    if args.format in ("hust", "matrix"):
        from .judges import solve_batch

        with _input(args.file) as stream:
            return solve_batch(args.format, stream, sys.stdout, sys.stderr,
                               max_nodes=args.max_nodes)
    from .formats import DLXFormatWarning, read_dlx_lines

    name = "<stdin>" if args.file == "-" else args.file
    with _input(args.file) as stream, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DLXFormatWarning)
        try:
            problem, lines = read_dlx_lines(stream)
        except FormatError as e:
            _err(f"{name}: {e}")
            return EXIT_INPUT
    for w in caught:
        if not args.quiet:
            _err(f"{name}: {w.message}")
    stats = Stats()
    started = time.perf_counter()
    found = 0
    code = EXIT_FOUND
    try:
        with search_session(f"dlx solve {name}", args.quiet) as progress:
            if args.count:
                found = count(problem, limit=args.limit, max_nodes=args.max_nodes, stats=stats,
                              progress=progress)
                print(found)
            else:
                for sol in solutions(problem, limit=args.limit, max_nodes=args.max_nodes,
                                     stats=stats, progress=progress):
                    found += 1
                    _print_solution(problem, lines, sol, found, args.format)
    except BudgetExceeded as e:
        partial = e.found if isinstance(e.found, int) else len(e.found or ())
        if args.count:
            print(f"{partial}+")
        _err(f"node budget of {e.max_nodes:,} exhausted: {partial:,} solutions so far,"
             " search unfinished")
        code = EXIT_BUDGET
    except KeyboardInterrupt:
        _err(f"interrupted after {stats.nodes:,} nodes: {stats.solutions:,} solutions so far")
        code = EXIT_INTERRUPTED
    else:
        if found == 0:
            code = EXIT_NONE
            if not args.count and not args.quiet:
                _err("no solution")
    if args.stats:
        print_stats(stats, time.perf_counter() - started, f"dlx solve {name}")
    return code


@contextmanager
def _input(path: str) -> Iterator[IO[str]]:
    try:
        stream = _open_input(path)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    try:
        yield stream
    finally:
        if stream is not sys.stdin:
            stream.close()


class InputError(Exception):
    """A file could not be opened or read: reported in one line, exit 2."""


def _print_solution(problem: Any, lines: Sequence[int], sol: Sequence[Any],
                    k: int, fmt: str) -> None:
    chosen = sorted(sol, key=lambda label: lines[label])
    if fmt == "jsonl":
        record = {"solution": k, "lines": [lines[o] for o in chosen],
                  "options": [_option_text(problem, o).split() for o in chosen]}
        print(json.dumps(record))
    else:
        print("; ".join(_option_text(problem, o) for o in chosen))


def _option_text(problem: Any, label: Hashable) -> str:
    from .problem import Colored

    parts = []
    for entry in problem.options[label]:
        if isinstance(entry, Colored):
            parts.append(f"{entry.item}:{entry.color}")
        else:
            parts.append(str(entry))
    return " ".join(parts)


# ------------------------------------------------------------------------ dlx demo




def cmd_demo(args: argparse.Namespace) -> int:
    """A short tour: Knuth's toy problem, a trace, counts from the catalog, a Sudoku."""
    import dlx

    out = sys.stdout
    print(f"dlx {__version__}: exact cover with Dancing Links (engine: {_engine_name()})\n",
          file=out)
    print("Knuth's DLX format (a line starting with | is a comment):\n", file=out)
    from .formats import KNUTH_TOY

    print("    " + KNUTH_TOY.rstrip().replace("\n", "\n    "), file=out)
    read = dlx.read_dlx(KNUTH_TOY)
    # label each option by its text, so the trace reads "try a d f"
    p = dlx.ExactCover({" ".join(items): items for items in read.options.values()},
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
    try:
        from problems import catalog
    except ImportError:
        catalog = None  # type: ignore[assignment]
    if catalog is not None and hasattr(catalog, "demo_entries"):
        print("\nCounts from the problem catalog:", file=out)
        for name, problem, expected in catalog.demo_entries():
            started = time.perf_counter()
            got = dlx.count(problem)
            ms = (time.perf_counter() - started) * 1000
            mark = "ok" if got == expected else f"EXPECTED {expected}"
            print(f"    {name:<28} {got:>8,}  {mark}  ({ms:.0f} ms)", file=out)
    try:
        from problems import sudoku
    except ImportError:
        sudoku = None  # type: ignore[assignment]
    if sudoku is not None and hasattr(sudoku, "solve"):
        puzzle = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4"
                  "......")
        print(f"\nA hard Sudoku: {puzzle}", file=out)
        started = time.perf_counter()
        solved = sudoku.solve(puzzle)
        ms = (time.perf_counter() - started) * 1000
        print(f"solved in {ms:.0f} ms: {solved}", file=out)
        print(f"verdict: {sudoku.classify(puzzle).value}", file=out)
    print("\nMore: dlx solve FILE, dlx sudoku solve FILE, dlx queens 8 --count, dlx --help",
          file=out)
    return EXIT_FOUND


def _engine_name() -> str:
    from . import engine

    return str(engine.describe())


# ------------------------------------------------------------------------ the parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dlx",
        description="Exact cover with Knuth's Dancing Links.",
        epilog="Exit codes: 0 found, 1 no solution, 2 bad input or usage, 3 not unique,"
        " 124 node budget exhausted, 130 interrupted.",
    )
    parser.add_argument("--version", action="version",
                        version=f"dlx {__version__} (engine: {_engine_name()})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    solve = sub.add_parser(
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
    solve.set_defaults(func=cmd_solve)

    demo = sub.add_parser("demo", help="a short tour")
    demo.set_defaults(func=cmd_demo)

    _add_problem_commands(sub)
    return parser


def _add_problem_commands(sub: Any) -> None:
    """Sub-commands of the problems package (Sudoku, queens, tilings, ...), when present."""
    try:
        from problems import sudoku_cli
    except ImportError:
        pass
    else:
        sudoku_cli.add_parser(sub)
        if "sudoku" in sub.choices and hasattr(sudoku_cli, "run"):
            sub.choices["sudoku"].set_defaults(func=sudoku_cli.run)
    try:
        from problems import cli as problems_cli
    except ImportError:
        pass
    else:
        problems_cli.add_parsers(sub)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return EXIT_INPUT
    try:
        code = int(func(args))
        sys.stdout.flush()
    except BrokenPipeError:
        # `dlx solve big.dlx | head -1`: the reader went away; leave quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_PIPE
    except InputError as e:
        _err(str(e))
        return EXIT_INPUT
    except ExactCoverError as e:
        _err(str(e))
        return EXIT_INPUT
    except KeyboardInterrupt:
        _err("interrupted")
        return EXIT_INTERRUPTED
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
