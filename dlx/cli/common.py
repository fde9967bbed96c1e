"""What every ``dlx`` sub-command shares: exit codes, the batch rule, messages, input, search.

Defined here once and imported by the command modules (:mod:`dlx.cli.solve`,
:mod:`dlx.cli.judges`); the commands of other packages (:mod:`problems.cli`) take
these names from :mod:`dlx.cli`, whose ``__all__`` lists what they may use.  Answers go
to stdout; progress, statistics and errors go to stderr, every error as one line
``dlx: FILE:LINE: message`` (``FILE:LINE:COLUMN`` when the column is known, just
``dlx: message`` when no file is involved).  rich is imported only inside the
functions that draw.

>>> positive_int("3"), seconds("1.5")
(3, 1.5)
>>> try:
...     positive_int("9" * 5000)
... except argparse.ArgumentTypeError as e:
...     print(e)
'99999999999999999999...' (5,000 digits) is too large: at most 9,223,372,036,854,775,807
>>> message("no solution")
'dlx: no solution'
>>> message("unexpected character 'x'", "p.txt", 3, 41)
"dlx: p.txt:3:41: unexpected character 'x'"
>>> status = Batch()
>>> status.none(); status.code
1
>>> status.bad(); status.code
2
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import math
import os
import signal
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

import dlx
from dlx.deadline import Deadline  # the limit of a whole command (--timeout), as dlx.Deadline
from dlx.lines import line_cap

from .stop import STOP

__all__ = [
    "EXIT_FOUND", "EXIT_NONE", "EXIT_INPUT", "EXIT_NOT_UNIQUE", "EXIT_MEMORY", "EXIT_BUDGET",
    "EXIT_INTERRUPTED", "EXIT_PIPE", "EXIT_TERMINATED", "EXIT_CODES", "BATCH_RULE", "EXIT_HELP",
    "EPILOG",
    "Batch", "Deadline", "InputError", "positive_int", "whole_number", "jobs", "max_jobs",
    "seconds", "message", "error", "open_input", "read_small", "line_cap", "input_size",
    "is_terminal", "progress_wanted", "search_session", "slow_engine_note", "print_stats",
    "print_table", "add_stats", "engine_name", "stopped", "interrupted", "DEFAULT_MAX_LINE",
    "add_parallel_arguments", "add_checkpoint_arguments", "checkpointing", "resume_note",
    "MAX_COUNT", "MAX_SECONDS", "counted", "executor_for",
]

EXIT_FOUND = 0          # an answer (every case answered with a solution, for a batch)
EXIT_NONE = 1           # no solution (some case had none, for a batch)
EXIT_INPUT = 2          # bad input or usage (argparse exits with 2 too)
EXIT_NOT_UNIQUE = 3     # more than one solution where uniqueness was demanded
EXIT_MEMORY = 4         # memory ran out (the message says how big the problem was)
EXIT_BUDGET = 124       # the node budget or the time limit ran out: unknown (as `timeout`)
EXIT_INTERRUPTED = 130  # Ctrl-C
EXIT_PIPE = 141         # the reader of stdout went away (`dlx ... | head -1`)
EXIT_TERMINATED = 143   # SIGTERM (stopped as Ctrl-C stops)

#: The exit codes in one sentence, for --help and the README.
EXIT_CODES = (f"Exit codes: {EXIT_FOUND} found, {EXIT_NONE} no solution, {EXIT_INPUT} bad input"
              f" or usage, {EXIT_NOT_UNIQUE} not unique (where demanded), {EXIT_MEMORY} out of"
              f" memory, {EXIT_BUDGET} node budget or time limit reached (the answer is"
              f" unknown), {EXIT_INTERRUPTED} interrupted, {EXIT_PIPE} output closed early,"
              f" {EXIT_TERMINATED} terminated (SIGTERM).")

#: The one rule of every batch command (several FILEs, puzzles or cases).
BATCH_RULE = (f"A batch (several FILEs, puzzles or cases) answers every case it can read and"
              f" exits with the first that applies: {EXIT_INPUT} if any input was bad,"
              f" {EXIT_BUDGET} if any answer is unknown (budget or time), {EXIT_NOT_UNIQUE} if"
              f" any case was not unique where uniqueness was demanded, {EXIT_NONE} if any case"
              f" had no solution, else {EXIT_FOUND}.")

#: The epilog of ``dlx --help``: the exit codes and the batch rule, said once.
EXIT_HELP = EXIT_CODES + " " + BATCH_RULE

#: The epilog of every sub-command's --help: where the exit codes are.
EPILOG = "Exit codes: see dlx --help."

#: The longest input line read from a pipe or a terminal (characters), unless --max-line
#: says otherwise; lines of a regular file may be as long as the file.
DEFAULT_MAX_LINE = dlx.MAX_LINE_LENGTH

#: The largest number a count option takes (--limit, --max-nodes, --best, --max-line):
#: 2**63 - 1, more than any search reaches (292 years at a billion nodes a second).
MAX_COUNT = 2**63 - 1

#: The longest time limit (--timeout), in seconds: about 31 years.
MAX_SECONDS = 1e9

#: A search still running after this many seconds on the pure-Python engine gets a note.
SLOW_SECONDS = 1.0


@dataclass
class Batch:
    """What happened to the cases of a batch, and the exit code of the one batch rule.

    >>> b = Batch(); b.unknown(); b.none(); b.code
    124
    """

    cases: int = 0
    bad_inputs: int = 0
    unknowns: int = 0
    not_uniques: int = 0
    nones: int = 0

    def bad(self) -> None:
        self.bad_inputs += 1

    def unknown(self) -> None:
        self.unknowns += 1

    def not_unique(self) -> None:
        self.not_uniques += 1

    def none(self) -> None:
        self.nones += 1

    @property
    def code(self) -> int:
        """2 if any input was bad, else 124 if any answer is unknown, else 3 if any case
        was not unique where that was demanded, else 1 if any had no solution, else 0."""
        if self.bad_inputs:
            return EXIT_INPUT
        if self.unknowns:
            return EXIT_BUDGET
        if self.not_uniques:
            return EXIT_NOT_UNIQUE
        if self.nones:
            return EXIT_NONE
        return EXIT_FOUND


class InputError(Exception):
    """Input that cannot be used (a FILE that cannot be opened, a bad line): exit 2.

    ``name``, ``line`` and ``column`` say where, for :func:`message`.
    """

    def __init__(self, text: str, name: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(text)
        self.text, self.name, self.line, self.column = text, name, line, column

    def __str__(self) -> str:
        return message(self.text, self.name, self.line, self.column)


def _shown(text: str) -> str:
    """An argument as a message shows it: in quotes, cut to 20 characters.

    >>> _shown("12"), _shown("1" * 30)
    ("'12'", "'11111111111111111111...' (30 digits)")
    """
    if len(text) <= 20:
        return repr(text)
    more = f" ({len(text):,} digits)" if text.isdigit() else ""
    return f"{text[:20]!r}"[:-1] + "...'" + more


def whole_number(text: str) -> int:
    """argparse type: the whole number ``text`` says (a number of more digits than
    Python converts, 4,300, is too large for every option).

    >>> whole_number("-3")
    -3
    """
    try:
        return int(text)
    except ValueError:
        if text.strip().isdigit():
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is too large: at most {MAX_COUNT:,}") from None
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number") from None


def positive_int(text: str) -> int:
    """argparse type: a whole number from 1 to :data:`MAX_COUNT` (2**63 - 1).

    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '0' must be at least 1
    >>> positive_int("9223372036854775807") == MAX_COUNT
    True
    """
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{_shown(text)} must be at least 1")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is too large: at most {MAX_COUNT:,}")
    return value


def max_jobs() -> int:
    """The most processes ``--jobs`` may ask for: :data:`dlx.parallel.MAX_JOBS`, a few
    per CPU.  A search keeps one CPU busy per process, so more processes than CPUs
    only take turns, and thousands (``--jobs 100000`` forked 5,965) exhaust memory."""
    from dlx.parallel import MAX_JOBS

    return MAX_JOBS


def jobs(text: str) -> int:
    """argparse type of ``--jobs``: a whole number from 1 to :func:`max_jobs`."""
    cap = max_jobs()
    try:
        value = whole_number(text)
    except argparse.ArgumentTypeError:
        if not text.strip().isdigit():
            raise
        value = cap + 1             # more digits than Python converts
    if value < 1:
        raise argparse.ArgumentTypeError(f"{_shown(text)} must be at least 1")
    if value > cap:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is too many processes: at most {cap} here (a few per CPU;"
            " more processes than CPUs only take turns)")
    return value


def seconds(text: str) -> float:
    """argparse type: a number of seconds, more than 0, at most :data:`MAX_SECONDS`
    (``--timeout``).

    >>> seconds("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '0' must be a number of seconds above 0
    >>> seconds("1e400")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '1e400' is too long a time: at most 1,000,000,000 seconds
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number of seconds") from None
    if math.isnan(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{_shown(text)} must be a number of seconds above 0")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is too long a time: at most {MAX_SECONDS:,.0f} seconds")
    return value


def message(text: str, name: str | None = None, line: int | None = None,
            column: int | None = None) -> str:
    r"""An error or warning line: ``dlx: text`` or ``dlx: FILE:LINE[:COLUMN]: text``,
    one line whatever the file's name (a newline in it is shown escaped).

    >>> print(message("no such item", "a\nb.dlx", 3))
    dlx: a\nb.dlx:3: no such item
    """
    where = ""
    if name is not None:
        where = name if name.isprintable() else "".join(
            c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in name)
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        where += ": "
    return f"dlx: {where}{text}"


def error(text: str, name: str | None = None, line: int | None = None,
          column: int | None = None) -> None:
    """Print :func:`message` on stderr."""
    print(message(text, name, line, column), file=sys.stderr, flush=True)


def stopped(e: dlx.BudgetExceeded, limit: float | None = None) -> str:
    """What ran out, for a message: ``node budget of 100`` or ``time limit of 2 s``
    (``limit``: the command's ``--timeout``, when the search got what remained of it).

    >>> stopped(dlx.BudgetExceeded(100, 0))
    'node budget of 100'
    >>> stopped(dlx.BudgetExceeded(None, 0, timeout=0.71), 2)
    'time limit of 2 s'
    """
    if e.max_nodes is not None:
        return f"node budget of {e.max_nodes:,}"
    seconds = limit if limit is not None else e.timeout
    return "time limit" if seconds is None else f"time limit of {seconds:g} s"


def interrupted(detail: str = "", name: str | None = None) -> int:
    """Say (once) that the command stopped on Ctrl-C or SIGTERM, ``dlx: [NAME: ]interrupted``
    (``terminated``) and ``detail``; return the exit code, 130 (143).

    >>> import contextlib
    >>> STOP.reported = False                     # (nothing said yet in this process)
    >>> with contextlib.redirect_stderr(sys.stdout):
    ...     interrupted(" after 5 nodes", "p.dlx")
    dlx: p.dlx: interrupted after 5 nodes
    130
    >>> STOP.reported = False
    """
    return STOP.report(detail, name)


# ------------------------------------------------------------------------------ input


@contextmanager
def open_input(path: str, errors: str = "strict") -> Iterator[tuple[IO[str], str]]:
    """The text stream of a FILE argument (``-``: standard input) and its name for messages.

    Files and standard input are read as UTF-8 whatever the locale; ``errors`` says
    what undecodable bytes become (``"strict"``: an error when read, ``"replace"``:
    U+FFFD, ``"surrogateescape"``: lone surrogates a reader can point at).  A file
    that cannot be opened raises :class:`InputError`.  Standard input is left open.
    Callers read with ``readline(limit)`` (a line-length cap, :func:`line_cap`),
    never ``for line in f``.  A Ctrl-C or SIGTERM that came while the last search
    ended stops the command here, before the next input is read.
    """
    STOP.check()
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:          # a text stream put in place of stdin (tests, embedding)
            yield sys.stdin, "<stdin>"
            return
        wrapper = io.TextIOWrapper(buffer, encoding="utf-8", errors=errors)
        try:
            yield wrapper, "<stdin>"
        finally:
            wrapper.detach()        # let go of the buffer without closing sys.stdin
        return
    try:
        stream = open(path, encoding="utf-8", errors=errors)  # noqa: SIM115 - closed below
    except OSError as e:
        raise InputError(f"cannot read it: {e.strerror or e}", path) from None
    with stream:
        yield stream, path


def read_small(path: str, limit: int = DEFAULT_MAX_LINE, what: str = "the file") -> str:
    """The text of a small file (such as ``--regions FILE``), at most ``limit``
    characters, read as UTF-8 with bad bytes as U+FFFD; :class:`InputError` if it
    cannot be read or is longer (``/dev/zero`` is refused at once, not read on)."""
    with open_input(path, errors="replace") as (stream, name):
        try:
            text = stream.read(limit + 1)
        except OSError as e:
            raise InputError(f"cannot read it: {e.strerror or e}", name) from None
    if len(text) > limit:
        raise InputError(f"{what} is longer than {limit:,} characters", name)
    return text


def input_size(stream: object) -> int | None:
    """The size in bytes of a stream reading a regular file, else None (a pipe, a terminal)."""
    try:
        info = os.fstat(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None




# ------------------------------------------------------------------ many cores


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs N`` and ``--scheduler ADDRESS``: where the search runs (and
    ``--connect-timeout SECONDS``: how long to try to reach the scheduler)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=jobs, metavar="N",
                       help="search on N processes of this machine (the tree cut into pieces;"
                            " at most a few per CPU)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="search on a running Dask cluster (its scheduler, such as"
                       " tcp://host:8786; needs the dask extra)")
    parser.add_argument("--connect-timeout", type=seconds, metavar="SECONDS",
                        help="give up on a --scheduler that cannot be reached, or has no"
                             " worker, after SECONDS (default 5; exit 2)")


def add_checkpoint_arguments(parser: argparse.ArgumentParser) -> None:
    """``--checkpoint FILE`` and ``--checkpoint-every SECONDS``: a search that survives
    being stopped or killed (see :mod:`dlx.parallel.checkpoint`)."""
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="save the search's state to FILE (every --checkpoint-every"
                             " seconds, on Ctrl-C and at the end); the same command run again"
                             " resumes from it, with the same answer and statistics as one"
                             " run (listed solutions also go to FILE.solutions.jsonl)")
    parser.add_argument("--checkpoint-every", type=seconds, metavar="SECONDS",
                        help="seconds between checkpoints (default 60)")


def checkpointing(args: argparse.Namespace) -> dict[str, Any]:
    """The view keywords of ``--checkpoint FILE`` and ``--checkpoint-every SECONDS``."""
    path, every = getattr(args, "checkpoint", None), getattr(args, "checkpoint_every", None)
    if path is None:
        if every is not None:
            raise InputError("--checkpoint-every goes with --checkpoint FILE")
        return {}
    return {"checkpoint": path, "checkpoint_every": every}


def resume_note(args: argparse.Namespace, stop: BaseException | None = None,
                hint: bool = False) -> str:
    """What to add to a message about a search that ``stop`` stopped: the checkpoint the
    driver says it wrote (``checkpoint_written`` on the exception: ``"now"``, or an
    ``"earlier"`` one that stays), never one it did not; with ``hint`` and without
    ``--checkpoint``, how to keep such a search for next time."""
    path = getattr(args, "checkpoint", None)
    if path is None:
        return ("; run it with --checkpoint FILE to be able to stop it and resume"
                if hint and hasattr(args, "checkpoint") else "")
    written = getattr(stop, "checkpoint_written", None)
    if written == "now":
        return f"; checkpoint {path} written: run the same command again to resume"
    if written == "earlier":
        return (f"; the checkpoint {path} written earlier stays: run the same command again"
                " to resume from it")
    return ""


@contextmanager
def executor_for(args: argparse.Namespace) -> Iterator[Any]:
    """The executor that ``--jobs`` or ``--scheduler`` asks for, shut down at the end
    (None: search in this process)."""
    jobs, address = getattr(args, "jobs", None), getattr(args, "scheduler", None)
    if jobs is None and address is None:
        yield None
        return
    from dlx import parallel

    try:
        ex = parallel.executor(jobs=jobs) if address is None else \
            parallel.executor(scheduler=address,
                              connect_timeout=getattr(args, "connect_timeout", None))
    except (ImportError, OSError, ValueError) as e:
        raise InputError(f"cannot reach the Dask scheduler {address}: {e}"
                         if address is not None else f"cannot start {jobs} processes: {e}"
                         ) from None
    with ex:
        yield ex


# ---------------------------------------------------------------- the search session


def is_terminal(stream: object) -> bool:
    """Is ``stream`` a terminal? (False for anything without a working ``isatty``.)"""
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def progress_wanted(quiet: bool) -> bool:
    """Draw a live progress display? Only on a terminal, without ``--quiet`` or
    ``NO_PROGRESS`` in the environment (and with rich importable, not imported here)."""
    return (not quiet and is_terminal(sys.stderr) and "NO_PROGRESS" not in os.environ
            and importlib.util.find_spec("rich") is not None)


_noted = False


def slow_engine_note(elapsed: float, quiet: bool) -> str | None:
    """The one-time note for a search that has run :data:`SLOW_SECONDS` on the pure-Python
    engine because the C core is not built (None otherwise, and after the first time)."""
    global _noted
    if _noted or quiet or elapsed < SLOW_SECONDS:
        return None
    from dlx import engine

    if engine.available():
        return None
    _noted = True
    return message("note: this runs on the pure-Python engine because the C core (dlx._core)"
                   " was not built when dlx was installed; with a C compiler present,"
                   " reinstall dlx to build it (searches run 20-50x faster)")


def _bar_characters(stream: object) -> str:
    """``━`` for the progress bar where ``stream``'s encoding has it, else ``#``."""
    try:
        "━".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "#"
    return "━"


def progress_bar(done: float, width: int = 20, bar: str = "━") -> str:
    """A bar of ``width`` cells, ``done`` (0 to 1) of it filled with ``bar``.

    >>> progress_bar(0.5, 10), progress_bar(0.2, 5, "#")
    ('━━━━━     ', '#    ')
    """
    filled = round(max(0.0, min(1.0, done)) * width)
    return bar * filled + " " * (width - filled)


def eta(elapsed: float, done: float) -> str:
    """The time left if the rest goes as fast as what is done (Knuth's estimate of the
    fraction of the tree explored); "?" before there is anything to go on.

    >>> eta(30, 0.25), eta(3600 * 5, 0.5), eta(1, 0.0)
    ('1m30s', '5h00m', '?')
    """
    if done <= 0.0 or done > 1.0:
        return "?"
    left = elapsed * (1.0 - done) / done
    if left < 60:
        return f"{left:.0f}s"
    if left < 3600:
        return f"{int(left // 60)}m{int(left % 60):02d}s"
    if left < 86400 * 3:
        return f"{int(left // 3600)}h{int(left % 3600 // 60):02d}m"
    return f"{left / 86400:,.0f} days"


def _eta(stats: dlx.Stats, elapsed: float, done: float) -> str:
    """A parallel run's own estimate of the time left (the pace of this run: a resumed
    one starts part way), else :func:`eta`."""
    left = getattr(stats, "eta", None)
    if left is None:
        return eta(elapsed, done) if getattr(stats, "workers", None) is None else "?"
    return _duration(left) if left > 0 else "0s"


def _duration(seconds: float) -> str:
    """``seconds`` as :func:`eta` writes a time (``12s``, ``1h01m``)."""
    return eta(seconds, 0.5)


def _pieces(report: Any) -> str:
    """The second line of a parallel run's live display: pieces done and in flight,
    workers, and when the last checkpoint was written (on a line of its own, so that
    a terminal of 80 columns shows it whole).

    >>> from dlx.parallel import Report
    >>> _pieces(Report(pieces_done=1200, in_flight=8, workers=2, checkpoint_age=12.3))
    '  1,200 pieces done, 8 in flight, 2 workers, checkpoint 12s ago'
    """
    workers = report.workers
    text = (f"  {report.pieces_done:,} pieces done, {report.in_flight:,} in flight,"
            f" {workers} worker{'' if workers == 1 else 's'}")
    age = getattr(report, "checkpoint_age", None)
    if age is not None:
        text += f", checkpoint {_duration(age)} ago" if age >= 1 else ", checkpoint just now"
    return text


@contextmanager
def search_session(label: str, quiet: bool) -> Iterator[Callable[[dlx.Stats], None]]:
    """A ``progress=`` callback for a search: a live line on a terminal, and Ctrl-C handling.

    The line (rich, on stderr) appears once a search lasts (at its first progress
    call), and only when :func:`progress_wanted`: a bar of the fraction of the tree
    explored (Knuth's estimate, :attr:`dlx.Stats.explored`; a parallel run's
    merged fraction) with the time left at that pace, the nodes, their rate and the
    solutions so far; for a parallel run, a second line (:func:`_pieces`) with the
    pieces done and in flight, the workers and the last checkpoint's age.  Answers
    printed to a terminal
    meanwhile go above it, and it is gone when the session ends, before anything
    else is printed.  Ctrl-C or SIGTERM meanwhile only sets a flag
    (:meth:`dlx.cli.Stop.deferred`); the callback then raises KeyboardInterrupt
    (:class:`dlx.cli.Terminated` for SIGTERM), which the search turns into a clean
    stop between two steps (a second signal stops at once).  A long search on the
    pure engine gets a note (:func:`slow_engine_note`), once.  The line shows
    ``label`` (a file name) as it is, never as rich markup.
    """
    owned = signal.getsignal(signal.SIGINT) is not STOP   # called without dlx.cli.main
    if owned:
        STOP.install()
    show = progress_wanted(quiet)
    bar = _bar_characters(sys.stderr)
    live: Any = None
    spinner: Any = None
    detail: Any = None                  # a parallel run's second line
    started = time.perf_counter()

    def progress(stats: dlx.Stats) -> None:
        nonlocal live, spinner, detail
        STOP.check()
        elapsed = time.perf_counter() - started
        note = slow_engine_note(elapsed, quiet)
        if note is not None:
            if live is not None:    # above the live line, not through it
                live.console.print(note, markup=False, highlight=False, soft_wrap=True)
            else:
                print(note, file=sys.stderr, flush=True)
        if not show:
            return
        workers = getattr(stats, "workers", None)      # a parallel run's report
        # a resumed run's report counts earlier sessions' nodes: its rate is this one's
        rate = getattr(stats, "rate", None) if workers is not None else None
        if rate is None:
            rate = stats.nodes / max(elapsed, 1e-9)
        done = getattr(stats, "fraction", 0.0) if workers is not None else stats.explored
        text = (f"{label}: {progress_bar(done, bar=bar)} {done:6.1%}"
                f"  ETA {_eta(stats, elapsed, done)}  "
                f"{stats.nodes:,} nodes ({rate:,.0f}/s), {stats.solutions:,} solutions")
        if live is None:
            from rich.console import Console, Group
            from rich.live import Live
            from rich.spinner import Spinner

            # Answers printed to a terminal go above the line (rich redirects stdout
            # while the line shows); to a file or a pipe, straight to stdout.  A
            # parallel run's pieces and workers go on a second line.
            spinner = Spinner("dots", text=_plain(text))
            shown: Any = spinner
            if workers is not None:
                detail = _plain(_pieces(stats))
                shown = Group(spinner, detail)
            live = Live(shown, console=Console(stderr=True, soft_wrap=True), transient=True,
                        redirect_stdout=is_terminal(sys.stdout), redirect_stderr=False,
                        refresh_per_second=8)
            live.start()
        spinner.update(text=_plain(text))
        if detail is not None:
            detail.plain = _pieces(stats)

    try:
        with STOP.deferred():
            try:
                yield progress
            finally:
                if live is not None:
                    live.stop()     # erase the line before any answer or message follows
    finally:
        if owned:
            STOP.uninstall()


def _plain(text: str) -> Any:
    """``text`` as a rich Text: shown as it is, ``[`` and ``:`` included (no markup, no emoji)."""
    from rich.text import Text

    return Text(text)


# ------------------------------------------------------------------------ statistics


def print_table(title: str, rows: Sequence[tuple[str, str]]) -> None:
    """A two-column table on stderr: rich (honouring ``NO_COLOR``), plain text without rich."""
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title, file=sys.stderr)
        for what, value in rows:
            print(f"{what:>18}  {value}", file=sys.stderr)
        return
    # a file name such as "[old]/p.dlx" is shown as it is, never read as markup
    table = Table(title=_plain(title), show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for what, value in rows:
        table.add_row(_plain(what), _plain(value))
    Console(stderr=True, no_color="NO_COLOR" in os.environ).print(table)


def print_stats(stats: dlx.Stats, seconds: float, title: str = "search",
                extra: Sequence[tuple[str, str]] = ()) -> None:
    """The statistics of a search (after the ``extra`` rows) as a table on stderr."""
    rows = [*extra,
            ("solutions", f"{stats.solutions:,}"),
            ("nodes", f"{stats.nodes:,}"),
            ("updates", f"{stats.updates:,}"),
            ("depth", f"{stats.max_level}"),
            ("time", f"{seconds:.3f} s")]
    if seconds > 0:
        rows.append(("nodes/s", f"{stats.nodes / seconds:,.0f}"))
    profile = " ".join(f"{n:,}" for n in stats.profile[:16])
    rows.append(("nodes per level", profile + (" ..." if len(stats.profile) > 16 else "")))
    print_table(title, rows)


def add_stats(total: dlx.Stats, stats: dlx.Stats) -> None:
    """Add the counts of one search of a batch to ``total`` (its profile level by level)."""
    total.nodes += stats.nodes
    total.updates += stats.updates
    total.solutions += stats.solutions
    profile = list(total.profile)
    for level, n in enumerate(stats.profile):
        if level < len(profile):
            profile[level] += n
        else:
            profile.append(n)
    total.profile = profile


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1 (``1 solution``, ``1,013 solutions``).

    >>> counted(1, "solution"), counted(1013, "puzzle")
    ('1 solution', '1,013 puzzles')
    """
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def engine_name() -> str:
    """Which engine searches by default, and why (for ``--version`` and the demo)."""
    from dlx import engine

    return str(engine.describe())
