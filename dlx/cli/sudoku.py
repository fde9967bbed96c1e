"""``dlx sudoku solve|count|classify|score``: many Sudoku puzzles in one batch.

Input (a FILE, or ``-`` / nothing for standard input) holds one puzzle per line
(blank lines and ``#`` comments skipped, a line ``end`` stops, as in the AcWing
166 judge format) or grids of N lines separated by blank lines (UVA 10957, NOIP
2009).  One answer per puzzle goes to standard output, in order; a malformed
puzzle is reported on standard error with its line number and the rest are still
answered.  Progress and ``--stats`` go to standard error.

``solve``, ``count`` and ``classify`` hand runs of puzzles to
:func:`problems.sudoku.batch`, the compiled fast path when ``dlx._core`` is built
(the per-puzzle pure engine otherwise, with the same answers): answers come out
in chunks of up to ``MAX_CHUNK`` puzzles (1, 2, 4, ... at the start), one by one
when the input is a terminal.  In ``--format jsonl``, ``nodes`` is what the
per-puzzle search reports (the core counts the givens it places as that search
does), and ``ms`` is the time the batch spent on that puzzle (placing its givens,
the search, undoing it), not counting reading it; ``--stats`` times the batches.
``score`` stays puzzle by puzzle (branch and bound).

Exit codes: 0 success; 1 some puzzle had no solution (``solve``, ``score``);
2 usage error or some puzzle malformed; 3 some puzzle not unique (``solve
--unique``); 124 a node budget (``--max-nodes``) ran out.  Ctrl-C (130) and a
closed output (141) are handled by :func:`dlx.cli.main`.

>>> import argparse, io
>>> parser = argparse.ArgumentParser(prog="dlx")
>>> add_parsers(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["sudoku", "classify", "--cases", "-"])
>>> args.input = io.StringIO("1.....3..4.....2\\n" + "." * 16 + "\\nend\\n")
>>> args.func(args)
Case 1: Unique.
Case 2: Ambiguous.
0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import IO, Any

import dlx
from problems import sudoku

from .common import (
    EXIT_BUDGET,
    EXIT_FOUND,
    EXIT_INPUT,
    EXIT_NONE,
    EXIT_NOT_UNIQUE,
    InputError,
    is_terminal,
    message,
    open_input,
    positive_int,
    print_table,
    progress_wanted,
)

__all__ = ["add_parsers", "run", "MAX_CHUNK"]

COMMANDS = ("solve", "count", "classify", "score")

#: The most puzzles handed to :func:`problems.sudoku.batch` at once.
MAX_CHUNK = 1024


def _box(text: str) -> tuple[int, int]:
    try:
        r, c = (int(x) for x in text.lower().split("x"))
        if r < 1 or c < 1:
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(f"box must look like 3x3 or 3x4, not {text!r}") from None
    return (r, c)


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``sudoku`` command (solve|count|classify|score); ``func`` is :func:`run`."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="puzzles to read; '-' or nothing for standard input")
    common.add_argument("--format", choices=("text", "jsonl"), default="text",
                        help="text (default) or one JSON object per puzzle:"
                             " input, answer, verdict, nodes, ms")
    common.add_argument("--pretty", action="store_true", help="render grids, givens in bold")
    common.add_argument("--cases", action="store_true",
                        help="prefix answers with 'Case k: ' (UVA style)")
    common.add_argument("--stats", action="store_true",
                        help="print a summary table on standard error")
    common.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    common.add_argument("--max-nodes", type=positive_int, metavar="N",
                        help="node budget per puzzle; 'unknown' (exit 124) when it runs out")
    common.add_argument("--box", type=_box, metavar="RxC",
                        help="box shape, e.g. 3x4 for 12x12 grids (also says 4x4 means 16x16)")
    common.add_argument("-x", "--diagonal", action="store_true",
                        help="Sudoku-X: both diagonals hold every digit once")
    common.add_argument("--regions", metavar="FILE",
                        help="jigsaw: a grid of region ids (one character per cell)")

    parser = subparsers.add_parser(
        "sudoku", help="solve, count, classify or score Sudoku puzzles in batch",
        description="Solve, count, classify or score many Sudoku puzzles, one answer per"
        " puzzle, in order. Formats: 81 characters per line ('.' or '0' blank), 9-line grids"
        " with or without spaces, pretty grids, .sdk; sizes 4x4 to 25x25.")
    commands = parser.add_subparsers(dest="sudoku_command", metavar="{solve,count,classify,score}")
    commands.required = True
    p = commands.add_parser("solve", parents=[common], help="print the solved grid of each puzzle",
                            description="Print the solved line of each puzzle, or 'no solution'.")
    p.add_argument("--unique", action="store_true",
                   help="demand a unique solution: print the verdict otherwise (exit 3)")
    p = commands.add_parser("count", parents=[common], help="count the solutions of each puzzle")
    p.add_argument("--limit", type=positive_int, metavar="N", help="stop counting at N")
    commands.add_parser("classify", parents=[common],
                        help="Illegal, Impossible, Unique or Ambiguous (UVA 10957)")
    commands.add_parser("score", parents=[common],
                        help="best NOIP 2009 target score of each puzzle, or -1")
    parser.set_defaults(func=run)


@dataclass
class _Tally:
    puzzles: int = 0
    malformed: int = 0
    unknown: int = 0
    no_solution: int = 0
    not_unique: int = 0
    nodes: int = 0
    max_nodes: int = 0
    seconds: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)


@dataclass
class _Answer:
    text: str                  # the line(s) printed in text mode
    value: Any                 # the JSON answer
    verdict: str | None = None
    outcome: str = ""          # for --stats
    grid: sudoku.Grid | None = None   # what --pretty renders


def run(args: argparse.Namespace) -> int:
    """Run the ``sudoku`` command described by parsed ``args``; return the exit code.

    ``args.input``, when set, is a text stream read instead of FILE (tests, embedding).
    """
    shape = None
    if args.regions:
        try:
            with open(args.regions, encoding="utf-8", errors="replace") as f:
                shape = sudoku.Shape.jigsaw(f.read(), diagonals=args.diagonal)
        except (OSError, ValueError) as e:
            print(message(f"--regions {args.regions}: {e}", "sudoku"), file=sys.stderr)
            return EXIT_INPUT
    with ExitStack() as stack:
        given = getattr(args, "input", None)
        if given is not None:
            stream, name = given, "<input>"
        else:
            try:
                # bad bytes become U+FFFD, reported as non-ASCII with their line and column
                stream, name = stack.enter_context(
                    open_input(args.file, "sudoku", errors="replace"))
            except InputError as e:
                print(message(str(e), e.command), file=sys.stderr)
                return EXIT_INPUT
        return _run(args, stream, name, shape)


def _run(args: argparse.Namespace, stream: IO[str], name: str,
         shape: sudoku.Shape | None) -> int:
    command = args.sudoku_command
    tally = _Tally()
    progress, advance = _progress(args)
    out = sys.stdout   # after the progress display starts: rich may redirect it

    def warn(text: str) -> None:
        if progress is not None:   # above the live display, not through it
            progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=sys.stderr)

    batched = command in ("solve", "count", "classify")
    # Runs of puzzles go to sudoku.batch together (the compiled fast path): up to
    # MAX_CHUNK at a time, starting small so the first answers come at once, and
    # one by one when the input is a terminal (someone typing puzzles).
    interactive = is_terminal(stream)
    pending: list[tuple[int, sudoku.Entry, sudoku.Grid | None, str | None]] = []
    chunk = 1

    def flush() -> None:
        grids = [g for _, _, g, _ in pending if g is not None]
        start = time.perf_counter()
        outcomes = iter(sudoku.batch(grids, _limit(command, args), max_nodes=args.max_nodes))
        tally.seconds += time.perf_counter() - start
        for case, entry, grid, problem in pending:
            if grid is None:
                _report(case, entry, problem)
                continue
            outcome = next(outcomes)
            answer = _answer_from(command, grid, outcome, args, tally)
            _emit(case, entry, grid, answer, outcome.nodes, outcome.seconds * 1000)
        pending.clear()

    def _report(case: int, entry: sudoku.Entry, problem: str | None) -> None:
        tally.malformed += 1
        if problem is not None:     # the grid does not fit the --diagonal shape
            warn(message(f"{name}: line {entry.line}: {problem}", "sudoku"))
        else:
            warn(message(f"{name}: {entry.error}", "sudoku"))
            if args.format == "jsonl":
                _write(out, json.dumps({"case": case, "line": entry.line, "input": entry.text,
                                        "error": str(entry.error)}))
        advance()

    def _emit(case: int, entry: sudoku.Entry, grid: sudoku.Grid, answer: _Answer, nodes: int,
              ms: float) -> None:
        tally.nodes += nodes
        tally.max_nodes = max(tally.max_nodes, nodes)
        tally.outcomes[answer.outcome or str(answer.verdict)] += 1
        if args.format == "jsonl":
            _write(out, json.dumps({
                "case": case, "line": entry.line, "input": str(grid), "answer": answer.value,
                "verdict": answer.verdict, "nodes": nodes, "ms": round(ms, 3)}))
        else:
            _print_text(out, args, case, command, grid, answer)
        advance()

    try:
        entries = sudoku.read_puzzles(stream, box=args.box, shape=shape)
        for case, entry in enumerate(entries, 1):
            tally.puzzles += 1
            grid: sudoku.Grid | None = entry.grid
            problem: str | None = None
            if grid is not None and args.diagonal and shape is None:
                try:
                    grid = sudoku.Grid(grid.values,
                                       shape=sudoku.Shape.diagonal(grid.size, grid.box))
                except ValueError as e:
                    grid, problem = None, str(e)
            if batched:
                pending.append((case, entry, grid, problem))
                if len(pending) >= chunk:
                    flush()
                    chunk = 1 if interactive else min(2 * chunk, MAX_CHUNK)
                continue
            if grid is None:
                _report(case, entry, problem)
                continue
            stats = dlx.Stats()
            start = time.perf_counter()
            try:
                answer = _answer(command, grid, args, stats, tally)
            except dlx.BudgetExceeded:
                tally.unknown += 1
                answer = _Answer("unknown", None, None, "unknown (budget)")
            ms = (time.perf_counter() - start) * 1000
            tally.seconds += ms / 1000
            _emit(case, entry, grid, answer, stats.nodes, ms)
        if pending:
            flush()
    finally:
        if progress is not None:
            progress.stop()
    out.flush()
    if args.stats:
        _print_stats(tally, command)
    if tally.malformed:
        return EXIT_INPUT
    if tally.unknown:
        return EXIT_BUDGET
    if tally.not_unique:
        return EXIT_NOT_UNIQUE
    if tally.no_solution and command in ("solve", "score"):
        return EXIT_NONE
    return EXIT_FOUND


def _limit(command: str, args: argparse.Namespace) -> int | None:
    """How many solutions the batch search looks for."""
    if command == "count":
        return args.limit  # type: ignore[no-any-return]
    if command == "classify" or args.unique:
        return 2
    return 1


def _answer_from(command: str, grid: sudoku.Grid, outcome: sudoku.Outcome,
                 args: argparse.Namespace, tally: _Tally) -> _Answer:
    """The answer of ``command`` from a batch outcome (as :func:`_answer` would give it)."""
    n = outcome.found
    if n is None:
        tally.unknown += 1
        return _Answer("unknown", None, None, "unknown (budget)")
    legal = outcome.legal
    if command == "classify":
        word = outcome.verdict.value  # type: ignore[union-attr]
        return _Answer(word, word, word)
    if command == "count":
        verdict = _count_verdict(legal, n, args.limit)
        return _Answer(str(n), n, verdict, outcome=verdict or "counted")
    solution = outcome.solution
    solved = None
    if solution is not None and args.pretty:
        solved = sudoku.Grid(solution, shape=grid.shape, givens=grid.givens)
    if args.unique:
        if not legal:
            verdict = sudoku.Verdict.ILLEGAL.value
        else:
            verdict = (sudoku.Verdict.IMPOSSIBLE, sudoku.Verdict.UNIQUE,
                       sudoku.Verdict.AMBIGUOUS)[min(n, 2)].value
        if n == 1:
            return _Answer(str(solution), solution, verdict, grid=solved)
        if n:
            tally.not_unique += 1
        else:
            tally.no_solution += 1
        return _Answer(verdict, None, verdict)
    if solution is None:
        tally.no_solution += 1
        verdict = (sudoku.Verdict.ILLEGAL if not legal else sudoku.Verdict.IMPOSSIBLE).value
        return _Answer("no solution", None, verdict)
    return _Answer(solution, solution, None, outcome="solved", grid=solved)


def _count_verdict(legal: bool, n: int, limit: int | None) -> str | None:
    """The verdict a count implies (None when a limit of 1 leaves Unique unproven)."""
    if not legal:
        return sudoku.Verdict.ILLEGAL.value
    if n == 0:
        return sudoku.Verdict.IMPOSSIBLE.value
    if n >= 2:
        return sudoku.Verdict.AMBIGUOUS.value
    if limit is None or limit >= 2:
        return sudoku.Verdict.UNIQUE.value
    return None


def _answer(command: str, grid: sudoku.Grid, args: argparse.Namespace, stats: dlx.Stats,
            tally: _Tally) -> _Answer:
    budget = args.max_nodes
    if command == "classify":
        word = sudoku.classify(grid, max_nodes=budget, stats=stats).value
        return _Answer(word, word, word)
    legal = sudoku.is_legal(grid)
    if command == "count":
        n = sudoku.count(grid, limit=args.limit, max_nodes=budget, stats=stats)
        verdict = _count_verdict(legal, n, args.limit)
        return _Answer(str(n), n, verdict, outcome=verdict or "counted")
    if command == "score":
        best = sudoku.max_score(grid, max_nodes=budget, stats=stats)
        if best is None:
            tally.no_solution += 1
            verdict = (sudoku.Verdict.ILLEGAL if not legal else sudoku.Verdict.IMPOSSIBLE).value
            return _Answer("-1", -1, verdict)
        return _Answer(str(best), best, None, outcome="scored")
    # solve
    if args.unique:
        found = list(sudoku.solutions(grid, limit=2, max_nodes=budget, stats=stats))
        if not legal:
            verdict = sudoku.Verdict.ILLEGAL.value
        else:
            verdict = (sudoku.Verdict.IMPOSSIBLE, sudoku.Verdict.UNIQUE,
                       sudoku.Verdict.AMBIGUOUS)[len(found)].value
        if len(found) == 1:
            return _Answer(str(found[0]), str(found[0]), verdict, grid=found[0])
        if found:
            tally.not_unique += 1
        else:
            tally.no_solution += 1
        return _Answer(verdict, None, verdict)
    solved = sudoku.solve(grid, max_nodes=budget, stats=stats)
    if solved is None:
        tally.no_solution += 1
        verdict = (sudoku.Verdict.ILLEGAL if not legal else sudoku.Verdict.IMPOSSIBLE).value
        return _Answer("no solution", None, verdict)
    return _Answer(str(solved), str(solved), None, outcome="solved", grid=solved)


def _write(out: IO[str], line: str) -> None:
    out.write(line + "\n")


def _print_text(out: IO[str], args: argparse.Namespace, case: int, command: str,
                grid: sudoku.Grid, answer: _Answer) -> None:
    text = answer.text
    if args.cases:
        text = f"Case {case}: {text}" + ("." if command == "classify" else "")
    if not args.pretty:
        _write(out, text)
        return
    if answer.grid is not None:     # a solved grid, givens in bold
        if args.cases:
            _write(out, f"Case {case}:")
        _render(out, answer.grid)
    else:                           # the answer, then the puzzle it is about
        _write(out, text)
        _render(out, grid)
    _write(out, "")


def _render(out: IO[str], grid: sudoku.Grid) -> None:
    try:
        from rich.console import Console
    except ImportError:
        _write(out, grid.pretty())
        return
    out.flush()
    Console(file=out, highlight=False, soft_wrap=True).print(grid)


def _progress(args: argparse.Namespace) -> tuple[Any, Callable[[], None]]:
    """A transient rich progress display on stderr, only for a terminal and without --quiet."""
    def nothing() -> None:
        return None

    if not progress_wanted(args.quiet):
        return None, nothing
    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    progress = Progress(SpinnerColumn(), TextColumn("sudoku {task.description}"), BarColumn(),
                        TextColumn("{task.completed} puzzles"), TimeElapsedColumn(),
                        console=Console(stderr=True), transient=True,
                        # Answers printed to a terminal go above the bar; to a file or
                        # pipe, straight to stdout (never into stderr).
                        redirect_stdout=is_terminal(sys.stdout), redirect_stderr=False)
    task = progress.add_task(args.sudoku_command, total=None)
    progress.start()

    def advance() -> None:
        progress.advance(task)

    return progress, advance


def _print_stats(tally: _Tally, command: str) -> None:
    answered = tally.puzzles - tally.malformed
    rate = answered / tally.seconds if tally.seconds > 0 else 0.0
    rows = [("puzzles", f"{tally.puzzles:,}"), ("malformed", f"{tally.malformed:,}")]
    rows += [(str(k), f"{v:,}") for k, v in sorted(tally.outcomes.items())]
    rows += [
        ("nodes", f"{tally.nodes:,}"),
        ("nodes per puzzle", f"{tally.nodes / answered:,.1f}" if answered else "-"),
        ("most nodes", f"{tally.max_nodes:,}"),
        ("time", f"{tally.seconds:.3f} s"),
        ("puzzles/s", f"{rate:,.1f}" if rate else "-"),
    ]
    print_table(f"dlx sudoku {command}", rows)
