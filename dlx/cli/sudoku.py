"""``dlx sudoku solve|count|classify|score|rate|generate``: many Sudoku puzzles in one batch.

Input (FILEs, or ``-`` / nothing for standard input) holds one puzzle per line
(blank lines and ``#`` comments skipped, a line ``end`` stops, as in the AcWing
166 judge format; a first line holding one number is the number of puzzles) or
grids of N lines separated by blank lines (UVA 10957, NOIP 2009); the size of a
grid comes from its lines (16 lines of 16 numbers: one 16x16 puzzle).  One
answer per puzzle goes to standard output, in order; a malformed puzzle is
reported on standard error as ``dlx: FILE:LINE:COLUMN: what is wrong`` and the
rest are still answered.  Progress and ``--stats`` go to standard error.

``solve``, ``count`` and ``classify`` hand runs of puzzles to
:func:`problems.sudoku.batch`, the compiled fast path when ``dlx._core`` is built
(the per-puzzle pure engine otherwise, with the same answers): answers come out
in chunks of up to ``MAX_CHUNK`` puzzles (1, 2, 4, ... at the start), one by one
when the input is a terminal.  In ``--format jsonl``, ``nodes`` is what the
per-puzzle search reports (the core counts the givens it places as that search
does), and ``ms`` is the time the batch spent on that puzzle (placing its givens,
the search, undoing it), not counting reading it; ``--stats`` times the batches.
``score`` and ``rate`` go puzzle by puzzle.  ``generate`` writes new puzzles,
one per line.

``--max-nodes`` is a budget per puzzle; ``--timeout`` limits the whole run: the
batch verbs stop inside a search, ``score`` and ``rate`` inside the puzzle they
are on (it is ``unknown``), ``generate`` between the engine's searches, and the
reading of the input too (a flood of blank lines).  Once it has passed, the
puzzles not yet answered get no answer and the exit code is 124; every answer
finished before it has been printed.

Every input is read a line at a time with the line cap of ``dlx solve``
(:func:`dlx.cli.common.line_cap`, ``--max-line``): a line longer than that
(``/dev/zero`` has no end) ends its input with ``dlx: FILE:LINE: line is longer
than N characters`` (exit 2); a ``--regions`` FILE may hold that many characters
in all, and at most :data:`problems.sudoku.MAX_SIZE` squared region ids.

Exit codes follow the batch rule of :data:`dlx.cli.common.BATCH_RULE`: 2 if any
input was bad (including an input with no puzzles), else 124 if any answer is
unknown, else 3 if some puzzle was not unique (``solve --unique``), else 1 if
some puzzle had no solution (Illegal and Impossible ones included), else 0.
Ctrl-C (130) and a closed output (141) are handled by :func:`dlx.cli.main`.

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
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import dlx
from problems import sudoku

from .common import (
    EPILOG,
    EXIT_BUDGET,
    EXIT_INPUT,
    Batch,
    Deadline,
    InputError,
    is_terminal,
    line_cap,
    message,
    open_input,
    positive_int,
    print_table,
    progress_wanted,
    seconds,
    slow_engine_note,
)

__all__ = ["add_parsers", "run", "MAX_CHUNK"]

COMMANDS = ("solve", "count", "classify", "score", "rate", "generate")

#: The most puzzles handed to :func:`problems.sudoku.batch` at once.
MAX_CHUNK = 1024

#: With a time limit, a chunk grows only while a chunk takes less than this (seconds),
#: so that the limit is checked often.
CHUNK_SECONDS = 0.05

_FORMATS = ("Formats: 81 characters per line ('.' or '0' blank), 9-line grids with or without"
            " spaces, pretty grids with | - +, .sdk; sizes 4x4 to 25x25 (12x12 with --box 3x4);"
            " 16x16 as 16 lines of 16 numbers (0 blank), or a character per cell: 1-9A-G"
            " (blank . or 0) or 0-9A-F (blank .).")


def _box(text: str) -> tuple[int, int]:
    """argparse type of ``--box``: ``RxC``, whole numbers from 1, a grid of at most
    :data:`problems.sudoku.MAX_SIZE` (64x64).

    >>> _box("3x4")
    (3, 4)
    >>> _box("300x300")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: box 300x300 makes a 90000x90000 grid; the largest is 64x64 (8x8)
    """
    short = text if len(text) <= 20 else text[:20] + "..."
    try:
        r, c = (int(x) for x in text.lower().split("x"))
        if r < 1 or c < 1:
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(f"box must look like 3x3 or 3x4, not {short!r}"
                                         ) from None
    most, side = sudoku.MAX_SIZE, math.isqrt(sudoku.MAX_SIZE)
    if r * c > most:
        grid = f"a {r * c}x{r * c} grid" if r * c < 10**9 else "too large a grid"
        raise argparse.ArgumentTypeError(f"box {short} makes {grid}; the largest is"
                                         f" {most}x{most} ({side}x{side})")
    return (r, c)


def _shape_options(parser: argparse.ArgumentParser, largest: str, reads: str) -> None:
    parser.add_argument("--box", type=_box, metavar="RxC",
                        help="box shape, e.g. 3x4 for 12x12 grids (also says 4x4 means 16x16);"
                             f" grids up to {largest}")
    parser.add_argument("-x", "--diagonal", action="store_true",
                        help="Sudoku-X: both diagonals hold every digit once")
    parser.add_argument("--regions", metavar="FILE",
                        help="jigsaw: a grid of region ids (one character per cell)")
    parser.add_argument("--max-line", type=positive_int, metavar="N",
                        help=f"longest {reads} in characters (default: as long as a regular"
                             " file; 1,000,000 from a pipe)")


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``sudoku`` command (solve|count|classify|score|rate|generate); ``func`` is
    :func:`run`."""
    reading = argparse.ArgumentParser(add_help=False)
    reading.add_argument("files", nargs="*", default=["-"], metavar="FILE",
                         help="puzzles to read; '-' or none for standard input")
    reading.add_argument("--format", choices=("text", "jsonl"), default="text",
                         help="text (default) or one JSON object per puzzle")
    reading.add_argument("--cases", action="store_true",
                         help="prefix answers with 'Case k: ' (UVA style)")
    reading.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    reading.add_argument("--timeout", type=seconds, metavar="SECONDS",
                         help="time limit for the whole run (a search in progress stops);"
                              " unanswered puzzles then give exit 124")
    _shape_options(reading, f"{sudoku.MAX_SIZE}x{sudoku.MAX_SIZE}",
                   "input line, and longest --regions file,")
    common = argparse.ArgumentParser(add_help=False, parents=[reading])
    common.add_argument("--pretty", action="store_true", help="render grids, givens in bold")
    common.add_argument("--stats", action="store_true",
                        help="print a summary table on standard error")
    common.add_argument("--max-nodes", type=positive_int, metavar="N",
                        help="node budget per puzzle; 'unknown' (exit 124) when it runs out")

    parser = subparsers.add_parser(
        "sudoku", help="solve, count, classify, score, rate or generate Sudoku puzzles",
        description="Solve, count, classify, score or rate many Sudoku puzzles, one answer per"
        " puzzle, in order; or generate new ones. " + _FORMATS, epilog=EPILOG)
    commands = parser.add_subparsers(dest="sudoku_command", metavar="{" + ",".join(COMMANDS)
                                     + "}")
    commands.required = True
    jsonl = " In jsonl: input, answer, verdict, nodes, ms, file, line."
    p = commands.add_parser(
        "solve", parents=[common], help="print the solved grid of each puzzle", epilog=EPILOG,
        description="Print the solution of each puzzle as one line (--pretty: a grid), or 'no"
        " solution'. With --unique, print the verdict instead unless there is exactly one"
        " solution." + jsonl + " " + _FORMATS)
    p.add_argument("--unique", action="store_true",
                   help="demand a unique solution: print the verdict otherwise (exit 3)")
    p = commands.add_parser(
        "count", parents=[common], help="count the solutions of each puzzle", epilog=EPILOG,
        description="Print the number of solutions of each puzzle (at most --limit). A puzzle"
        " with none gives exit 1." + jsonl + " " + _FORMATS)
    p.add_argument("--limit", type=positive_int, metavar="N", help="stop counting at N")
    commands.add_parser(
        "classify", parents=[common], epilog=EPILOG,
        help="Illegal, Impossible, Unique or Ambiguous (UVA 10957)",
        description="Print the verdict of each puzzle, as UVA 10957 asks: Illegal (the givens"
        " break a rule), Impossible (no solution), Unique or Ambiguous (two or more). Illegal"
        " and Impossible puzzles have no solution: exit 1." + jsonl + " " + _FORMATS)
    commands.add_parser(
        "score", parents=[common], epilog=EPILOG,
        help="best NOIP 2009 target score of each puzzle, or -1",
        description="Print the best NOIP 2009 'target Sudoku' score of each 9x9 puzzle: the"
        " largest sum over the cells of digit x weight (6 on the outer ring up to 10 in the"
        " centre) over all solutions, found by branch and bound; -1 when it has no solution."
        + jsonl + " " + _FORMATS)
    p = commands.add_parser(
        "rate", parents=[reading], epilog=EPILOG,
        help="how hard each puzzle is for a person, and its human solution",
        description="Solve each puzzle with human techniques, simplest first (singles, locked"
        " candidates, pairs, X-wing, triples, swordfish, XY-wing, then search), and print its"
        " level (0 = singles only ... 9 = search needed) and hardest technique; --steps"
        " prints the step-by-step solution. A puzzle without exactly one solution is bad"
        " input (exit 2). " + _FORMATS)
    p.add_argument("--steps", "--explain", action="store_true", dest="steps",
                   help="print every step of the human solution after the rating")
    p = commands.add_parser(
        "generate", epilog=EPILOG, help="make new puzzles with exactly one solution",
        description="Write N new puzzles (--count N), one per line, each with exactly one"
        " solution and (by default) minimal: no given can be removed without losing that. The"
        " same --seed gives the same puzzles; puzzle k is made from seed S + k. Grids go up to"
        f" {sudoku.MAX_GENERATE_SIZE}x{sudoku.MAX_GENERATE_SIZE} (--box 5x5; bigger ones take"
        " seconds to minutes each). A progress bar shows on a terminal for more than one"
        " puzzle.")
    p.add_argument("--count", type=positive_int, default=1, metavar="N",
                   help="how many puzzles (default 1)")
    p.add_argument("--seed", type=int, metavar="S", help="seed of the first puzzle (default:"
                   " a random one, printed on stderr)")
    p.add_argument("--symmetry", metavar="NAME",
                   choices=("rot180", "rot90", "mirror", "diagonal", "antidiagonal", "none"),
                   help="pattern of the givens: rot180, rot90, mirror, diagonal, antidiagonal"
                        " or none")
    p.add_argument("--givens", type=positive_int, metavar="K",
                   help="aim for K givens (not minimal then, unless --minimal)")
    p.add_argument("--minimal", action="store_true", default=None,
                   help="minimal even with --givens (then K is an upper bound)")
    p.add_argument("--rating", "--level", metavar="LEVEL", action="append", dest="rating",
                   help="only puzzles of this rate level: 0-9 or a technique name such as"
                        " x-wing (repeat for several)")
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="text (one puzzle per line, default) or JSON with seed and rating")
    p.add_argument("--pretty", action="store_true", help="render grids, not one-line puzzles")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--timeout", type=seconds, metavar="SECONDS",
                   help="time limit for the whole run; exit 124 when it is reached (the"
                        " puzzles made by then are printed)")
    _shape_options(p, f"{sudoku.MAX_GENERATE_SIZE}x{sudoku.MAX_GENERATE_SIZE}",
                   "--regions file")
    parser.set_defaults(func=run)


@dataclass
class _Tally:
    puzzles: int = 0
    malformed: int = 0
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


#: (case number, file name, the entry, its grid or None, why the grid does not fit -x)
_Pending = tuple[int, str, sudoku.Entry, "sudoku.Grid | None", "str | None"]


def run(args: argparse.Namespace) -> int:
    """Run the ``sudoku`` command described by parsed ``args``; return the exit code.

    ``args.input``, when set, is a text stream read instead of the FILEs (tests,
    embedding).
    """
    shape = None
    if args.regions:
        try:
            text = _read_regions(args.regions, args.max_line)
            shape = sudoku.Shape.jigsaw(text, diagonals=args.diagonal)
        except InputError as e:
            print(message(f"--regions: {e.text}", e.name, e.line), file=sys.stderr)
            return EXIT_INPUT
        except ValueError as e:
            print(message(f"--regions: {e}", args.regions), file=sys.stderr)
            return EXIT_INPUT
    if args.sudoku_command == "generate":
        return _generate(args, shape)
    session = _Session(args, shape)
    try:
        given = getattr(args, "input", None)
        if given is not None:
            session.feed(given, "<input>")
        else:
            for path in args.files:
                try:
                    # bad bytes become U+FFFD, reported as non-ASCII with their line and column
                    with open_input(path, errors="replace") as (stream, name):
                        if not session.feed(stream, name):
                            break
                except InputError as e:
                    session.warn(str(e))
                    session.batch.bad()
    finally:
        session.close()
    if getattr(args, "stats", False):
        _print_stats(session.tally, args.sudoku_command)
    return session.batch.code


class _Session:
    """One run of a batch verb over the puzzles of every input."""

    def __init__(self, args: argparse.Namespace, shape: sudoku.Shape | None) -> None:
        self.args = args
        self.shape = shape
        self.command: str = args.sudoku_command
        self.tally = _Tally()
        self.batch = Batch()
        self.deadline = Deadline(args.timeout)
        self.progress, self.advance = _progress(args, self.command)
        self.out = sys.stdout     # after the progress display starts: rich may redirect it
        self.pending: list[_Pending] = []
        self.chunk = 1
        self.case = 0
        self.answered = 0         # puzzles answered or reported so far
        self.started = time.perf_counter()

    # -- messages
    def warn(self, text: str) -> None:
        if self.progress is not None:   # above the live display, not through it
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=sys.stderr, flush=True)

    def note_if_slow(self) -> None:
        note = slow_engine_note(time.perf_counter() - self.started, self.args.quiet)
        if note is not None:
            self.warn(note)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
        self.out.flush()

    def out_of_time(self) -> bool:
        """Has the time limit passed? Then :meth:`stop` the run and say True."""
        if not self.deadline.expired():
            return False
        self.stop()
        return True

    def stop(self) -> None:
        """The time limit has passed: say so, and count an unknown answer; the puzzles
        not answered yet get none."""
        self.warn(message(f"time limit of {self.args.timeout:g} s reached after"
                          f" {self.answered:,} puzzles: the rest get no answer"))
        self.batch.unknown()
        self.pending.clear()

    # -- reading
    def feed(self, stream: IO[str], name: str) -> bool:
        """Answer the puzzles of one input; False when the time limit stops the run."""
        args = self.args
        batched = self.command in ("solve", "count", "classify")
        # Runs of puzzles go to sudoku.batch together (the compiled fast path): up to
        # MAX_CHUNK at a time, starting small so the first answers come at once, and
        # one by one when the input is a terminal (someone typing puzzles).
        interactive = is_terminal(stream)
        seen = 0
        cap = line_cap(stream, args.max_line)
        source: Any = stream if self.deadline.limit is None else _Timed(stream, self.deadline)
        try:
            for entry in sudoku.read_puzzles(source, box=args.box, shape=self.shape,
                                             max_line=cap):
                seen += 1
                if not self.take(entry, name, batched, interactive):
                    return False
        except _TimeUp:
            self.stop()
            return False
        if self.pending:
            if self.out_of_time():
                return False
            self.flush()
        if seen == 0:
            self.warn(message("no puzzles", name))
            self.batch.bad()
        return True

    def take(self, entry: sudoku.Entry, name: str, batched: bool, interactive: bool) -> bool:
        """Answer one entry (a batch verb queues it, and answers the queue when it is
        full); False when the time limit stops the run."""
        args = self.args
        self.case += 1
        self.tally.puzzles += 1
        grid: sudoku.Grid | None = entry.grid
        problem: str | None = None
        if grid is not None and args.diagonal and self.shape is None:
            try:
                grid = sudoku.Grid(grid.values, shape=sudoku.Shape.diagonal(grid.size, grid.box))
            except ValueError as e:
                grid, problem = None, str(e)
        if batched:
            self.pending.append((self.case, name, entry, grid, problem))
            if len(self.pending) >= self.chunk:
                if self.out_of_time():
                    return False
                took = self.flush()
                grow = self.deadline.limit is None or took < CHUNK_SECONDS
                self.chunk = 1 if interactive else min(2 * self.chunk, MAX_CHUNK) \
                    if grow else self.chunk
            return True
        if self.out_of_time():
            return False
        if grid is None:
            self.report(self.case, name, entry, problem)
        elif not self.one(self.case, name, entry, grid):
            self.stop()
            return False
        return True

    def flush(self) -> float:
        """Answer the pending puzzles with one sudoku.batch call; return its seconds."""
        grids = [g for _, _, _, g, _ in self.pending if g is not None]
        start = time.perf_counter()
        outcomes = iter(sudoku.batch(grids, _limit(self.command, self.args),
                                     max_nodes=self.args.max_nodes,
                                     timeout=self.deadline.remaining()))
        took = time.perf_counter() - start
        self.tally.seconds += took
        for case, name, entry, grid, problem in self.pending:
            if grid is None:
                self.report(case, name, entry, problem)
                continue
            outcome = next(outcomes)
            answer = self.answer_from(grid, outcome)
            self.emit(case, name, entry, grid, answer, outcome.nodes, outcome.seconds * 1000)
        self.pending.clear()
        self.note_if_slow()
        return took

    def one(self, case: int, name: str, entry: sudoku.Entry, grid: sudoku.Grid) -> bool:
        """Answer one puzzle on its own (score, rate); False when the time limit ran out
        on it (its answer is then ``unknown``, and for ``score`` the best score found so
        far is said on stderr)."""
        stats = dlx.Stats()
        start = time.perf_counter()
        in_time = True
        try:
            answer = self.answer(grid, stats)
        except dlx.BudgetExceeded as e:
            self.batch.unknown()
            answer = _Answer("unknown", None, None, "unknown (budget)")
            in_time = e.max_nodes is not None
            if not in_time and self.command == "score" and e.found is not None:
                self.warn(message(f"the best score found before the time limit is"
                                  f" {e.found[0]} (not proven best)", name, entry.line))
        except sudoku.NotUniqueError as e:
            self.tally.malformed += 1
            self.batch.bad()
            self.warn(message(str(e), name, entry.line))
            if self.args.format == "jsonl":
                _write(self.out, json.dumps({"case": case, "file": name, "line": entry.line,
                                             "input": str(grid), "error": str(e)}))
            self.answered += 1
            self.advance()
            return True
        ms = (time.perf_counter() - start) * 1000
        self.tally.seconds += ms / 1000
        self.emit(case, name, entry, grid, answer, stats.nodes, ms)
        self.note_if_slow()
        return in_time

    # -- answers
    def report(self, case: int, name: str, entry: sudoku.Entry, problem: str | None) -> None:
        """A puzzle that could not be read (or does not fit the --diagonal shape)."""
        self.tally.malformed += 1
        self.batch.bad()
        if problem is not None:
            self.warn(message(problem, name, entry.line))
            error = problem
        else:
            e = entry.error
            assert e is not None
            error = e.reason
            if error.startswith("line is longer than") and self.args.max_line is None:
                error += "; --max-line N reads longer lines"      # the input ends there
            self.warn(message(error, name, e.line, e.column))
        if self.args.format == "jsonl":
            _write(self.out, json.dumps({"case": case, "file": name, "line": entry.line,
                                         "input": entry.text, "error": error}))
        self.answered += 1
        self.advance()

    def emit(self, case: int, name: str, entry: sudoku.Entry, grid: sudoku.Grid,
             answer: _Answer, nodes: int, ms: float) -> None:
        tally = self.tally
        tally.nodes += nodes
        tally.max_nodes = max(tally.max_nodes, nodes)
        tally.outcomes[answer.outcome or str(answer.verdict)] += 1
        if self.args.format == "jsonl":
            record = {"case": case, "file": name, "line": entry.line, "input": str(grid),
                      "answer": answer.value, "verdict": answer.verdict, "nodes": nodes,
                      "ms": round(ms, 3)}
            if self.command == "rate":
                record["steps"] = answer.text.splitlines()[1:]
                del record["verdict"]
            _write(self.out, json.dumps(record))
        else:
            _print_text(self.out, self.args, case, self.command, grid, answer)
        self.answered += 1
        self.advance()

    def answer_from(self, grid: sudoku.Grid, outcome: sudoku.Outcome) -> _Answer:
        """The answer of a batch verb from a batch outcome."""
        command, args, batch = self.command, self.args, self.batch
        n = outcome.found
        if n is None:
            batch.unknown()
            return _Answer("unknown", None, None, "unknown (budget)")
        legal = outcome.legal
        if command == "classify":
            word = outcome.verdict.value  # type: ignore[union-attr]
            if n == 0:
                batch.none()
            return _Answer(word, word, word)
        if command == "count":
            if n == 0:
                batch.none()
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
                batch.not_unique()
            else:
                batch.none()
            return _Answer(verdict, None, verdict)
        if solution is None:
            batch.none()
            verdict = (sudoku.Verdict.ILLEGAL if not legal else sudoku.Verdict.IMPOSSIBLE).value
            return _Answer("no solution", None, verdict)
        return _Answer(solution, solution, None, outcome="solved", grid=solved)

    def answer(self, grid: sudoku.Grid, stats: dlx.Stats) -> _Answer:
        """The answer of ``score`` or ``rate`` for one puzzle."""
        if self.command == "rate":
            rating = sudoku.rate(grid, timeout=self.deadline.remaining())
            if rating.search is not None:
                stats.nodes = rating.search.nodes
            level = int(rating.level)
            text = f"{level} {rating.technique}"
            if self.args.steps:
                text += "".join(f"\n  {step}" for step in rating.steps)
            value = {"level": level, "technique": rating.technique,
                     "solution": str(rating.solution)}
            return _Answer(text, value, None, outcome=f"level {level}")
        best = sudoku.max_score(grid, max_nodes=self.args.max_nodes, stats=stats,
                                timeout=self.deadline.remaining())
        if best is None:
            self.batch.none()
            legal = sudoku.is_legal(grid)
            verdict = (sudoku.Verdict.ILLEGAL if not legal else sudoku.Verdict.IMPOSSIBLE).value
            return _Answer("-1", -1, verdict)
        return _Answer(str(best), best, None, outcome="scored")


class _TimeUp(Exception):
    """The time limit passed while the input was being read (see :class:`_Timed`)."""


class _Timed:
    """A text stream whose ``readline`` raises :class:`_TimeUp` once ``deadline`` has
    passed (looked at every 256 lines), so that reading endless input that holds no
    puzzle (blank lines, comments) keeps the time limit too."""

    def __init__(self, stream: IO[str], deadline: Deadline) -> None:
        self.stream, self.deadline, self.lines = stream, deadline, 0

    def readline(self, size: int = -1, /) -> str:
        self.lines += 1
        if not self.lines & 255 and self.deadline.expired():
            raise _TimeUp
        return self.stream.readline(size)


def _read_regions(path: str, max_line: int | None) -> str:
    """The text of a ``--regions`` FILE, read a piece at a time: at most as many
    characters in all as :func:`~dlx.cli.common.line_cap` allows a line (``--max-line``)
    and at most ``sudoku.MAX_SIZE`` squared region ids, so that ``/dev/zero`` or an
    endless pipe ends at once with :class:`InputError` naming the line."""
    most = sudoku.MAX_SIZE ** 2
    with open_input(path, errors="replace") as (stream, name):
        cap = line_cap(stream, max_line)
        pieces: list[str] = []
        total = ids = 0
        line = 1
        while True:
            try:
                piece = stream.readline(1 << 16)
            except OSError as e:
                raise InputError(f"cannot read it: {e.strerror or e}", name, line) from None
            if not piece:
                return "".join(pieces)
            total += len(piece)
            ids += len("".join(piece.split()))         # what Shape.jigsaw reads as ids
            if ids > most:
                raise InputError(f"more than {most:,} region ids: the largest jigsaw is"
                                 f" {sudoku.MAX_SIZE}x{sudoku.MAX_SIZE}", name, line)
            if total > cap:
                hint = "" if max_line is not None else "; --max-line N reads more"
                raise InputError(f"longer than {cap:,} characters{hint}", name, line)
            pieces.append(piece)
            line += piece.endswith("\n")


def _limit(command: str, args: argparse.Namespace) -> int | None:
    """How many solutions the batch search looks for."""
    if command == "count":
        return args.limit  # type: ignore[no-any-return]
    if command == "classify" or args.unique:
        return 2
    return 1


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


def _write(out: IO[str], line: str) -> None:
    out.write(line + "\n")


def _print_text(out: IO[str], args: argparse.Namespace, case: int, command: str,
                grid: sudoku.Grid, answer: _Answer) -> None:
    text = answer.text
    if args.cases:
        first, sep, rest = text.partition("\n")
        text = f"Case {case}: {first}" + ("." if command == "classify" else "") + sep + rest
    if not getattr(args, "pretty", False):
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


def _progress(args: argparse.Namespace, what: str,
              total: int | None = None) -> tuple[Any, Callable[[], None]]:
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
    task = progress.add_task(what, total=total)
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


# ------------------------------------------------------------------------- generate


def _generate(args: argparse.Namespace, shape: sudoku.Shape | None) -> int:
    """``dlx sudoku generate``: COUNT puzzles, one per line (or JSON, or grids)."""
    import random

    seed = args.seed
    if seed is None:
        seed = random.randrange(2 ** 32)
        if not args.quiet:
            print(message(f"seed {seed}"), file=sys.stderr)
    levels = None if not args.rating else [_level(x) for x in args.rating]
    box = args.box
    if shape is None and args.diagonal:
        shape = sudoku.Shape.diagonal(box[0] * box[1] if box else 9, box)
    if shape is not None:
        box = None
    deadline = Deadline(args.timeout)
    puzzles = sudoku.generate_many(args.count, shape, box=box, seed=seed, givens=args.givens,
                                   symmetry=args.symmetry, minimal=args.minimal, level=levels,
                                   timeout=args.timeout)
    progress, advance = (_progress(args, "generate", args.count) if args.count > 1
                         else (None, lambda: None))
    made = 0
    started = time.perf_counter()
    late = False                # the time ran out while the last puzzle was rated again
    try:
        for puzzle in puzzles:
            if args.format == "jsonl":
                record: dict[str, Any] = {"seed": seed + made, "puzzle": str(puzzle),
                                          "givens": puzzle.clues}
                if levels is not None:
                    try:
                        rating = sudoku.rate(puzzle, timeout=deadline.remaining())
                        record["level"], record["technique"] = (int(rating.level),
                                                                rating.technique)
                    except dlx.BudgetExceeded:      # the puzzle is made: it is not lost
                        record["level"] = record["technique"] = None
                        late = True
                _write(sys.stdout, json.dumps(record))
            elif args.pretty:
                _render(sys.stdout, puzzle)
                _write(sys.stdout, "")
            else:
                _write(sys.stdout, str(puzzle))
            sys.stdout.flush()
            made += 1
            advance()
            note = slow_engine_note(time.perf_counter() - started, args.quiet)
            if note is not None:
                _say(progress, note)
            if late or made < args.count and deadline.expired():
                break
        else:
            return 0
    except dlx.BudgetExceeded:
        if args.timeout is None:        # (only the time limit stops generate_many)
            raise
    finally:
        if progress is not None:
            progress.stop()
    print(message(f"time limit of {args.timeout:g} s reached after {made:,} of"
                  f" {args.count:,} puzzles"), file=sys.stderr, flush=True)
    return EXIT_BUDGET


def _say(progress: Any, text: str) -> None:
    if progress is not None:
        progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        print(text, file=sys.stderr, flush=True)


def _level(text: str) -> int:
    try:
        return int(sudoku.Level.parse(text))
    except ValueError as e:
        raise dlx.ExactCoverError(f"--rating: {e}") from None
