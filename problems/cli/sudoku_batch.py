"""The batch verbs of ``dlx sudoku`` (solve, count, classify, score, rate): one
:class:`Session` reads every input, queues the puzzles, answers them in chunks through
:func:`problems.sudoku.batch` (score and rate one by one) and prints the answers in order.

See :mod:`problems.cli.sudoku` for the command itself: its options, input and exit codes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import dlx
from dlx import cli
from problems import sudoku

__all__ = ["MAX_CHUNK", "CHUNK_SECONDS", "Session", "print_sudoku_stats", "write", "render",
           "progress_display"]

#: The most puzzles handed to :func:`problems.sudoku.batch` at once.
MAX_CHUNK = 1024

#: With a time limit, a chunk grows only while a chunk takes less than this (seconds),
#: so that the limit is checked often.
CHUNK_SECONDS = 0.05


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
    finished: bool = True      # False: a count stopped by a budget (the count so far)


#: (case number, file name, the entry, its grid or None, why the grid does not fit -x)
_Pending = tuple[int, str, sudoku.Entry, "sudoku.Grid | None", "str | None"]




class Session:
    """One run of a batch verb over the puzzles of every input."""

    def __init__(self, args: argparse.Namespace, shape: sudoku.Shape | None) -> None:
        self.args = args
        self.shape = shape
        self.command: str = args.sudoku_command
        self.restarts: bool = getattr(args, "restarts", False)     # (solve --restarts)
        self.tally = _Tally()
        self.batch = cli.Batch()
        self.deadline = cli.Deadline(args.timeout)
        self.progress, self.advance = progress_display(args, self.command)
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
        note = cli.slow_engine_note(time.perf_counter() - self.started, self.args.quiet)
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
        self.warn(cli.message(f"time limit of {self.args.timeout:g} s reached after"
                              f" {self.answered:,} puzzles: the rest get no answer"))
        self.batch.unknown()
        self.pending.clear()

    # -- reading
    def feed(self, stream: IO[str], name: str) -> bool:
        """Answer the puzzles of one input; False when the time limit stops the run."""
        args = self.args
        batched = self.command in ("solve", "count", "classify") and not self.restarts
        # Runs of puzzles go to sudoku.batch together (the compiled fast path): up to
        # MAX_CHUNK at a time, starting small so the first answers come at once, and
        # one by one when the input is a terminal (someone typing puzzles).
        interactive = cli.is_terminal(stream)
        seen = 0
        cap = cli.line_cap(stream, args.max_line)
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
            self.warn(cli.message("no puzzles", name))
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
        engine = getattr(self.args, "engine", None)
        search: Any = _one_by_one if engine in cli.SOLVERS else sudoku.batch
        outcomes = iter(search(grids, _limit(self.command, self.args),
                               max_nodes=self.args.max_nodes,
                               timeout=self.deadline.remaining(), engine=engine))
        took = time.perf_counter() - start
        self.tally.seconds += took
        for case, name, entry, grid, problem in self.pending:
            if grid is None:
                self.report(case, name, entry, problem)
                continue
            outcome = next(outcomes)
            answer = self.answer_from(grid, outcome)
            if outcome.found is None:
                self.warn(cli.message(self.unfinished(outcome), name, entry.line))
            self.emit(case, name, entry, grid, answer, outcome.nodes, outcome.seconds * 1000)
        self.pending.clear()
        self.note_if_slow()
        return took

    def unfinished(self, outcome: sudoku.Outcome) -> str:
        """Why a batch search stopped (its budget or the time), and what it had found."""
        budget = self.args.max_nodes
        if budget is not None and outcome.nodes >= budget:
            what = f"node budget of {budget:,}"
        else:
            what = f"time limit of {self.args.timeout:g} s"
        if self.command == "count":
            return (f"{what} reached: {cli.counted(outcome.so_far, 'solution')} so far, count"
                    " unfinished")
        return f"{what} reached before the search finished: the answer is unknown"

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
                self.warn(cli.message(f"the best score found before the time limit is"
                                      f" {e.found[0]} (not proven best)", name, entry.line))
        except sudoku.NotUniqueError as e:
            self.tally.malformed += 1
            self.batch.bad()
            reason = _not_unique(e, grid, self.command)
            self.warn(cli.message(reason, name, entry.line))
            if self.args.format == "jsonl":
                write(self.out, json.dumps({"case": case, "file": name, "line": entry.line,
                                             "input": str(grid), "error": reason}))
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
            self.warn(cli.message(problem, name, entry.line))
            error = problem
        else:
            e = entry.error
            assert e is not None
            error = e.reason
            if error.startswith("line is longer than") and self.args.max_line is None:
                error += "; --max-line N reads longer lines"      # the input ends there
            self.warn(cli.message(error, name, e.line, e.column))
        if self.args.format == "jsonl":
            write(self.out, json.dumps({"case": case, "file": name, "line": entry.line,
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
            elif self.command == "count":
                record["finished"] = answer.finished
            write(self.out, json.dumps(record))
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
            if command == "count":      # as dlx solve: the count so far, N+
                so_far = outcome.so_far
                return _Answer(f"{so_far}+", so_far, None, "unknown (budget)",
                               finished=False)
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
        """The answer of ``score`` or ``rate`` for one puzzle (or ``solve --restarts``)."""
        if self.restarts:
            found = dlx.first(sudoku.encode(grid), restarts=True, max_nodes=self.args.max_nodes,
                              stats=stats, timeout=self.deadline.remaining())
            if found is None:
                self.batch.none()
                legal = sudoku.is_legal(grid)
                return _Answer("no solution", None, (sudoku.Verdict.ILLEGAL if not legal
                                                     else sudoku.Verdict.IMPOSSIBLE).value)
            text = str(sudoku.decode(found, shape=grid.shape))
            solved = sudoku.Grid(text, shape=grid.shape, givens=grid.givens) \
                if self.args.pretty else None
            return _Answer(text, text, None, outcome="solved", grid=solved)
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



def _one_by_one(grids: list[sudoku.Grid], limit: int | None, *, max_nodes: int | None,
                timeout: float | None, engine: str) -> list[sudoku.Outcome]:
    """What :func:`problems.sudoku.batch` answers, a puzzle at a time on a solver engine
    (``--engine cp-sat`` or ``race``): a solution, and with a limit of 2 whether it is
    the only one (``nodes``: the engine's Stats)."""
    deadline = cli.Deadline(timeout)
    out = []
    for grid in grids:
        start = time.perf_counter()
        if not sudoku.is_legal(grid):
            out.append(sudoku.Outcome(False, 0, None, 0, 0.0))
            continue
        problem = sudoku.encode(grid)
        stats = dlx.Stats()
        sol = None
        found: int | None
        try:
            sol = dlx.first(problem, engine=engine, max_nodes=max_nodes,  # type: ignore[arg-type]
                            timeout=deadline.remaining(), stats=stats)
            found = 0 if sol is None else 1
            if sol is not None and limit is not None and limit >= 2 and not dlx.is_unique(
                    problem, engine=engine, max_nodes=max_nodes,  # type: ignore[arg-type]
                    timeout=deadline.remaining()):
                found = 2
        except dlx.BudgetExceeded:
            found = None
        text = None if sol is None else str(sudoku.decode(sol, shape=grid.shape))
        out.append(sudoku.Outcome(True, found, text, stats.nodes, time.perf_counter() - start,
                                  found or 0))
    return out


def _not_unique(e: sudoku.NotUniqueError, grid: sudoku.Grid, command: str) -> str:
    """Why ``command`` cannot take the puzzle, for a command-line user: illegal givens
    are named (the Python API says to call sudoku.explain).

    >>> print(_not_unique(sudoku.NotUniqueError(sudoku.Verdict.ILLEGAL, "rate"),
    ...                   sudoku.Grid("11" + "." * 14), "rate"))  # doctest: +NORMALIZE_WHITESPACE
    the givens break a rule: digit 1 appears twice in row 1 (r1c1, r1c2), and 1 more clash;
    rate needs exactly one solution (dlx sudoku classify says Illegal)
    """
    if e.verdict is not sudoku.Verdict.ILLEGAL:
        return str(e)
    clashes = sudoku.explain(grid)
    more = len(clashes) - 1
    first = f": {clashes[0]}" if clashes else ""
    also = f", and {more} more clash{'es' if more > 1 else ''}" if more > 0 else ""
    return (f"the givens break a rule{first}{also}; {command} needs exactly one solution (dlx"
            " sudoku classify says Illegal)")


class _TimeUp(Exception):
    """The time limit passed while the input was being read (see :class:`_Timed`)."""


class _Timed:
    """A text stream whose ``readline`` raises :class:`_TimeUp` once ``deadline`` has
    passed (looked at every 256 lines), so that reading endless input that holds no
    puzzle (blank lines, comments) keeps the time limit too."""

    def __init__(self, stream: IO[str], deadline: cli.Deadline) -> None:
        self.stream, self.deadline, self.lines = stream, deadline, 0

    def readline(self, size: int = -1, /) -> str:
        self.lines += 1
        if not self.lines & 255 and self.deadline.expired():
            raise _TimeUp
        return self.stream.readline(size)



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


def write(out: IO[str], line: str) -> None:
    out.write(line + "\n")


def _print_text(out: IO[str], args: argparse.Namespace, case: int, command: str,
                grid: sudoku.Grid, answer: _Answer) -> None:
    text = answer.text
    if args.cases:
        first, sep, rest = text.partition("\n")
        text = f"Case {case}: {first}" + ("." if command == "classify" else "") + sep + rest
    if not getattr(args, "pretty", False):
        write(out, text)
        return
    if answer.grid is not None:     # a solved grid, givens in bold
        if args.cases:
            write(out, f"Case {case}:")
        render(out, answer.grid)
    else:                           # the answer, then the puzzle it is about
        write(out, text)
        render(out, grid)
    write(out, "")


def render(out: IO[str], grid: sudoku.Grid) -> None:
    try:
        from rich.console import Console
    except ImportError:
        write(out, grid.pretty())
        return
    out.flush()
    Console(file=out, highlight=False, soft_wrap=True).print(grid)


def progress_display(args: argparse.Namespace, what: str,
              total: int | None = None) -> tuple[Any, Callable[[], None]]:
    """A transient rich progress display on stderr, only for a terminal and without --quiet."""
    def nothing() -> None:
        return None

    if not cli.progress_wanted(args.quiet):
        return None, nothing
    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    progress = Progress(SpinnerColumn(), TextColumn("sudoku {task.description}"), BarColumn(),
                        TextColumn("{task.completed} puzzles"), TimeElapsedColumn(),
                        console=Console(stderr=True), transient=True,
                        # Answers printed to a terminal go above the bar; to a file or
                        # pipe, straight to stdout (never into stderr).
                        redirect_stdout=cli.is_terminal(sys.stdout), redirect_stderr=False)
    task = progress.add_task(what, total=total)
    progress.start()

    def advance() -> None:
        progress.advance(task)

    return progress, advance


def print_sudoku_stats(tally: _Tally, command: str) -> None:
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
    cli.print_table(f"dlx sudoku {command}", rows)
