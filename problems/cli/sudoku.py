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
(:func:`dlx.cli.line_cap`, ``--max-line``): a line longer than that
(``/dev/zero`` has no end) ends its input with ``dlx: FILE:LINE: line is longer
than N characters`` (exit 2); a ``--regions`` FILE may hold that many characters
in all, and at most :data:`problems.sudoku.MAX_SIZE` squared region ids.

Exit codes follow the batch rule of :data:`dlx.cli.BATCH_RULE`: 2 if any
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
import math
import sys

from dlx import cli
from problems import sudoku

from .sudoku_batch import MAX_CHUNK, Session, print_sudoku_stats
from .sudoku_gen import add_generate_parser, generate

__all__ = ["add_parsers", "run", "MAX_CHUNK"]

COMMANDS = ("solve", "count", "classify", "score", "rate", "generate")

#: The most puzzles handed to :func:`problems.sudoku.batch` at once.


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
    parser.add_argument("--max-line", type=cli.positive_int, metavar="N",
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
    reading.add_argument("--timeout", type=cli.seconds, metavar="SECONDS",
                         help="time limit for the whole run (a search in progress stops);"
                              " unanswered puzzles then give exit 124")
    _shape_options(reading, f"{sudoku.MAX_SIZE}x{sudoku.MAX_SIZE}",
                   "input line, and longest --regions file,")
    common = argparse.ArgumentParser(add_help=False, parents=[reading])
    common.add_argument("--pretty", action="store_true", help="render grids, givens in bold")
    common.add_argument("--stats", action="store_true",
                        help="print a summary table on standard error")
    common.add_argument("--max-nodes", type=cli.positive_int, metavar="N",
                        help="node budget per puzzle; 'unknown' (exit 124) when it runs out")

    parser = subparsers.add_parser(
        "sudoku", help="solve, count, classify, score, rate or generate Sudoku puzzles",
        description="Solve, count, classify, score or rate many Sudoku puzzles, one answer per"
        " puzzle, in order; or generate new ones. " + _FORMATS, epilog=cli.EPILOG)
    commands = parser.add_subparsers(dest="sudoku_command", metavar="{" + ",".join(COMMANDS)
                                     + "}")
    commands.required = True
    jsonl = " In jsonl: input, answer, verdict, nodes, ms, file, line."
    p = commands.add_parser(
        "solve", parents=[common], help="print the solved grid of each puzzle", epilog=cli.EPILOG,
        description="Print the solution of each puzzle as one line (--pretty: a grid), or 'no"
        " solution'. With --unique, print the verdict instead unless there is exactly one"
        " solution." + jsonl + " " + _FORMATS)
    how = p.add_mutually_exclusive_group()
    how.add_argument("--unique", action="store_true",
                     help="demand a unique solution: print the verdict otherwise (exit 3)")
    how.add_argument("--restarts", action="store_true",
                     help="search each puzzle on its own by randomised restarts (for large"
                          " empty or sparse grids): a solution, not the first in search order")
    cli.add_engine_argument(p, "solves (cp-sat and race: one puzzle at a time)")
    p = commands.add_parser(
        "count", parents=[common], help="count the solutions of each puzzle", epilog=cli.EPILOG,
        description="Print the number of solutions of each puzzle (at most --limit). A puzzle"
        " with none gives exit 1." + jsonl + " " + _FORMATS)
    p.add_argument("--limit", type=cli.positive_int, metavar="N", help="stop counting at N")
    cli.add_engine_argument(p, "counts (auto, c or python: cp-sat and race do not count)")
    p = commands.add_parser(
        "classify", parents=[common], epilog=cli.EPILOG,
        help="Illegal, Impossible, Unique or Ambiguous (UVA 10957)",
        description="Print the verdict of each puzzle, as UVA 10957 asks: Illegal (the givens"
        " break a rule), Impossible (no solution), Unique or Ambiguous (two or more). Illegal"
        " and Impossible puzzles have no solution: exit 1." + jsonl + " " + _FORMATS)
    cli.add_engine_argument(p, "classifies (cp-sat and race: a solution, then a second solve"
                           " excluding it, one puzzle at a time)")
    commands.add_parser(
        "score", parents=[common], epilog=cli.EPILOG,
        help="best NOIP 2009 target score of each puzzle, or -1",
        description="Print the best NOIP 2009 'target Sudoku' score of each 9x9 puzzle: the"
        " largest sum over the cells of digit x weight (6 on the outer ring up to 10 in the"
        " centre) over all solutions, found by branch and bound; -1 when it has no solution."
        + jsonl + " " + _FORMATS)
    p = commands.add_parser(
        "rate", parents=[reading], epilog=cli.EPILOG,
        help="how hard each puzzle is for a person, and its human solution",
        description="Solve each puzzle with human techniques, simplest first (singles, locked"
        " candidates, pairs, X-wing, triples, swordfish, XY-wing, then search), and print its"
        " level (0 = singles only ... 9 = search needed) and hardest technique; --steps"
        " prints the step-by-step solution. A puzzle without exactly one solution is bad"
        " input (exit 2). " + _FORMATS)
    p.add_argument("--steps", "--explain", action="store_true", dest="steps",
                   help="print every step of the human solution after the rating")
    add_generate_parser(commands, _shape_options)
    parser.set_defaults(func=run)


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
        except cli.InputError as e:
            print(cli.message(f"--regions: {e.text}", e.name, e.line), file=sys.stderr)
            return cli.EXIT_INPUT
        except ValueError as e:
            print(cli.message(f"--regions: {e}", args.regions), file=sys.stderr)
            return cli.EXIT_INPUT
    if args.sudoku_command == "generate":
        return generate(args, shape)
    if args.sudoku_command == "count" and args.engine in cli.SOLVERS:
        print(cli.message(f"--engine {args.engine} finds one solution at a time: it does not"
                          " count; use --engine auto"), file=sys.stderr)
        return cli.EXIT_INPUT
    session = Session(args, shape)
    try:
        given = getattr(args, "input", None)
        if given is not None:
            session.feed(given, "<input>")
        else:
            for path in args.files:
                try:
                    # bad bytes become U+FFFD, reported as non-ASCII with their line and column
                    with cli.open_input(path, errors="replace") as (stream, name):
                        if not session.feed(stream, name):
                            break
                except cli.InputError as e:
                    session.warn(str(e))
                    session.batch.bad()
    finally:
        session.close()
    if getattr(args, "stats", False):
        print_sudoku_stats(session.tally, args.sudoku_command)
    return session.batch.code


def _read_regions(path: str, max_line: int | None) -> str:
    """The text of a ``--regions`` FILE, read a piece at a time: at most as many
    characters in all as :func:`~dlx.cli.line_cap` allows a line (``--max-line``)
    and at most ``sudoku.MAX_SIZE`` squared region ids, so that ``/dev/zero`` or an
    endless pipe ends at once with :class:`InputError` naming the line."""
    most = sudoku.MAX_SIZE ** 2
    with cli.open_input(path, errors="replace") as (stream, name):
        cap = cli.line_cap(stream, max_line)
        pieces: list[str] = []
        total = ids = 0
        line = 1
        while True:
            try:
                piece = stream.readline(1 << 16)
            except OSError as e:
                raise cli.InputError(f"cannot read it: {e.strerror or e}", name, line) from None
            if not piece:
                return "".join(pieces)
            total += len(piece)
            ids += len("".join(piece.split()))         # what Shape.jigsaw reads as ids
            if ids > most:
                raise cli.InputError(f"more than {most:,} region ids: the largest jigsaw is"
                                     f" {sudoku.MAX_SIZE}x{sudoku.MAX_SIZE}", name, line)
            if total > cap:
                hint = "" if max_line is not None else "; --max-line N reads more"
                raise cli.InputError(f"longer than {cap:,} characters{hint}", name, line)
            pieces.append(piece)
            line += piece.endswith("\n")
