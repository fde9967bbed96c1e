"""``dlx sudoku generate``: new puzzles with exactly one solution, one per line.

See :mod:`problems.cli.sudoku` for the command; :func:`problems.sudoku.generate_many`
makes the puzzles (puzzle k from seed S + k).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import dlx
from dlx import cli
from problems import sudoku

from .sudoku_batch import progress_display, render, write

__all__ = ["add_generate_parser", "generate"]


def add_generate_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser],
                        shape_options: Callable[[argparse.ArgumentParser, str, str], None]
                        ) -> None:
    """Add ``generate`` to the verbs of ``dlx sudoku`` (``shape_options`` adds --box,
    -x, --regions and --max-line)."""
    p = commands.add_parser(
        "generate", epilog=cli.EPILOG, help="make new puzzles with exactly one solution",
        description="Write N new puzzles (--number N), one per line, each with exactly one"
        " solution and (by default) minimal: no given can be removed without losing that. The"
        " same --seed gives the same puzzles; puzzle k is made from seed S + k. Grids go up to"
        f" {sudoku.MAX_GENERATE_SIZE}x{sudoku.MAX_GENERATE_SIZE} (--box 5x5; bigger ones take"
        " seconds to minutes each). With --rating, a 9x9 puzzle of a rare level is made from"
        " a puzzle known to need the technique (moved, given other givens; minimal for its"
        " level); a puzzle that cannot be made is said on stderr, the others are still made"
        " (exit 1). --jobs N makes them on N processes, the same puzzles. A progress bar"
        " shows on a terminal for more than one puzzle.")
    p.add_argument("-n", "--number", type=cli.positive_int, metavar="N",
                   help="how many puzzles (default 1)")
    # the old spelling of --number, kept working with a note: everywhere else --count
    # means "count the solutions"
    p.add_argument("--count", type=cli.positive_int, dest="old_number", metavar="N",
                   help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, metavar="S", help="seed of the first puzzle (default:"
                   " a random one, printed on stderr)")
    p.add_argument("--symmetry", metavar="NAME",
                   choices=("rot180", "rot90", "mirror", "diagonal", "antidiagonal", "none"),
                   help="pattern of the givens: rot180, rot90, mirror, diagonal, antidiagonal"
                        " or none")
    p.add_argument("--givens", type=cli.positive_int, metavar="K",
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
    p.add_argument("--tries", type=cli.positive_int, default=200, metavar="N",
                   help="with --rating or --givens: puzzles made at most, per puzzle asked"
                        " for, before giving that one up (default 200; a 9x9 puzzle is"
                        " steered toward a rare level after 8, so it rarely needs more)")
    p.add_argument("--timeout", type=cli.seconds, metavar="SECONDS",
                   help="time limit for the whole run; exit 124 when it is reached (the"
                        " puzzles made by then are printed)")
    cli.add_parallel_arguments(p)
    for action in p._actions:           # here they make whole puzzles, not pieces of a tree
        if action.dest == "jobs":
            action.help = "make the puzzles on N processes of this machine (the same puzzles)"
        elif action.dest == "scheduler":
            action.help = ("make the puzzles on a running Dask cluster (its scheduler, such as"
                           " tcp://host:8786; needs the dask extra)")
    shape_options(p, f"{sudoku.MAX_GENERATE_SIZE}x{sudoku.MAX_GENERATE_SIZE}",
                   "--regions file")


def generate(args: argparse.Namespace, shape: sudoku.Shape | None) -> int:
    """``dlx sudoku generate``: COUNT puzzles, one per line (or JSON, or grids).

    A puzzle that cannot be made (no puzzle of the level asked in ``--tries``) is said
    on stderr (in jsonl, as a record with ``error``) and the others are still made:
    exit 1 then, by the batch rule.
    """
    import random

    args.number = _number(args)
    seed = args.seed
    if seed is None:
        seed = random.randrange(2 ** 32)
        if not args.quiet:
            print(cli.message(f"seed {seed}"), file=sys.stderr)
    levels = None if not args.rating else [_level(x) for x in args.rating]
    box = args.box
    if shape is None and args.diagonal:
        shape = sudoku.Shape.diagonal(box[0] * box[1] if box else 9, box)
    if shape is not None:
        box = None
    deadline = cli.Deadline(args.timeout)
    out = _Output(args, seed, levels, deadline)
    batch = cli.Batch()
    try:
        with cli.executor_for(args) as ex:
            while out.made < args.number:        # a puzzle that cannot be made: go on after it
                k = out.made
                puzzles = sudoku.generate_many(
                    args.number - k, shape, box=box, seed=seed + k, givens=args.givens,
                    symmetry=args.symmetry, minimal=args.minimal, level=levels,
                    tries=args.tries, timeout=deadline.remaining(), executor=ex)
                try:
                    for puzzle in puzzles:
                        out.puzzle(puzzle)
                        if out.late or out.made < args.number and deadline.expired():
                            raise dlx.BudgetExceeded(None, None, timeout=args.timeout)
                except sudoku.GenerateError as e:
                    out.failed(e)
                    batch.none()
        return batch.code
    except dlx.BudgetExceeded:
        if args.timeout is None:        # (only the time limit stops generate_many)
            raise
    finally:
        out.close()
    print(cli.message(f"time limit of {args.timeout:g} s reached after {out.made:,} of"
                      f" {args.number:,} puzzles"), file=sys.stderr, flush=True)
    return cli.EXIT_BUDGET


class _Output:
    """Where the puzzles go: stdout (one per line, JSON or grids), with a progress bar
    on a terminal for more than one puzzle."""

    def __init__(self, args: argparse.Namespace, seed: int, levels: list[int] | None,
                 deadline: cli.Deadline) -> None:
        self.args, self.seed, self.levels, self.deadline = args, seed, levels, deadline
        self.progress: Any = None
        self.advance: Callable[[], None] = lambda: None
        if args.number > 1:
            self.progress, self.advance = progress_display(args, "generate", args.number)
        self.made = 0               # puzzles made or given up on
        self.late = False           # the time ran out while the last puzzle was rated again
        self.started = time.perf_counter()

    def puzzle(self, puzzle: sudoku.Grid) -> None:
        args = self.args
        if args.format == "jsonl":
            record: dict[str, Any] = {"seed": self.seed + self.made, "puzzle": str(puzzle),
                                      "givens": puzzle.clues}
            if self.levels is not None:
                try:
                    rating = sudoku.rate(puzzle, timeout=self.deadline.remaining())
                    record["level"], record["technique"] = (int(rating.level),
                                                            rating.technique)
                except dlx.BudgetExceeded:      # the puzzle is made: it is not lost
                    record["level"] = record["technique"] = None
                    self.late = True
            write(sys.stdout, json.dumps(record))
        elif args.pretty:
            render(sys.stdout, puzzle)
            write(sys.stdout, "")
        else:
            write(sys.stdout, str(puzzle))
        sys.stdout.flush()
        self.next()

    def failed(self, e: sudoku.GenerateError) -> None:
        """Puzzle ``made`` could not be made: one line on stderr (a record in jsonl)."""
        text = str(e).replace("raise tries=", "raise --tries")
        seed = self.seed + self.made
        if self.args.format == "jsonl":
            write(sys.stdout, json.dumps({"seed": seed, "puzzle": None, "error": text}))
            sys.stdout.flush()
        _say(self.progress, cli.message(f"puzzle {self.made + 1:,} (seed {seed}): {text}"))
        self.next()

    def next(self) -> None:
        self.made += 1
        self.advance()
        note = cli.slow_engine_note(time.perf_counter() - self.started, self.args.quiet)
        if note is not None:
            _say(self.progress, note)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _say(progress: Any, text: str) -> None:
    if progress is not None:
        progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        print(text, file=sys.stderr, flush=True)


def _number(args: argparse.Namespace) -> int:
    """How many puzzles: ``--number N`` (``-n N``), default 1.  ``--count N``, its old
    spelling, still works, with a note on stderr (everywhere else ``--count`` counts
    solutions); both at once are refused."""
    if args.old_number is None:
        return int(args.number or 1)
    if args.number is not None:
        raise cli.InputError("--count N is the old spelling of --number N: give only --number")
    print(cli.message("note: --count N is now --number N (or -n N); elsewhere --count counts"
                      " solutions"), file=sys.stderr, flush=True)
    return int(args.old_number)


def _level(text: str) -> int:
    try:
        return int(sudoku.Level.parse(text))
    except ValueError as e:
        raise dlx.ExactCoverError(f"--rating: {e}") from None

