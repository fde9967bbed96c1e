"""What every ``dlx`` sub-command shares: exit codes, messages, input, the search session, stats.

Defined here once and imported by the command modules (:mod:`dlx.cli.solve`,
:mod:`dlx.cli.sudoku`, :mod:`dlx.cli.puzzles`, :mod:`dlx.cli.demo`).  Answers go
to stdout; progress, statistics and errors go to stderr, errors as one line
``dlx: ...`` or ``dlx COMMAND: ...``.  rich is imported only inside the
functions that draw, and the command still works (in plain text) without it.

>>> positive_int("3")
3
>>> message("no solution", "queens")
'dlx queens: no solution'
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import IO, Any

import dlx

__all__ = [
    "EXIT_FOUND", "EXIT_NONE", "EXIT_INPUT", "EXIT_NOT_UNIQUE", "EXIT_BUDGET",
    "EXIT_INTERRUPTED", "EXIT_PIPE", "EXIT_CODES", "InputError", "positive_int", "message",
    "error", "open_input", "is_terminal", "progress_wanted", "search_session", "print_stats",
    "print_table", "engine_name",
]

EXIT_FOUND = 0          # an answer (every answer, for a batch)
EXIT_NONE = 1           # no solution
EXIT_INPUT = 2          # bad input or usage (argparse exits with 2 too)
EXIT_NOT_UNIQUE = 3     # more than one solution where uniqueness was demanded
EXIT_BUDGET = 124       # the node budget ran out: the answer is unknown (as `timeout`)
EXIT_INTERRUPTED = 130  # Ctrl-C
EXIT_PIPE = 141         # the reader of stdout went away (`dlx ... | head -1`)

#: The exit codes in one sentence, for --help.
EXIT_CODES = (f"Exit codes: {EXIT_FOUND} found, {EXIT_NONE} no solution, {EXIT_INPUT} bad input"
              f" or usage, {EXIT_NOT_UNIQUE} not unique, {EXIT_BUDGET} node budget exhausted,"
              f" {EXIT_INTERRUPTED} interrupted, {EXIT_PIPE} output closed early.")


class InputError(Exception):
    """A FILE argument could not be opened: one line on stderr, exit 2.

    ``command`` names the sub-command for the message (None: plain ``dlx:``).
    """

    def __init__(self, text: str, command: str | None = None) -> None:
        super().__init__(text)
        self.command = command


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1.

    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '0' must be at least 1
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def message(text: str, command: str | None = None) -> str:
    """An error or warning line: ``dlx: text``, or ``dlx COMMAND: text``."""
    return f"dlx {command}: {text}" if command else f"dlx: {text}"


def error(text: str, command: str | None = None) -> None:
    """Print :func:`message` on stderr."""
    print(message(text, command), file=sys.stderr)


# ------------------------------------------------------------------------------ input


@contextmanager
def open_input(path: str, command: str | None = None,
               errors: str = "strict") -> Iterator[tuple[IO[str], str]]:
    """The text stream of a FILE argument (``-``: standard input) and its name for messages.

    Files and standard input are read as UTF-8 whatever the locale; ``errors`` says
    what undecodable bytes become (``"strict"``: an error when read, ``"replace"``:
    U+FFFD, ``"surrogateescape"``: lone surrogates a reader can point at).  A file
    that cannot be opened raises :class:`InputError`.  Standard input is left open.
    Callers read with ``readline(limit)`` (a line-length cap), never ``for line in f``.
    """
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
        raise InputError(f"cannot read {path}: {e.strerror or e}", command) from None
    with stream:
        yield stream, path


# ---------------------------------------------------------------- the search session


class _Interrupt:
    """Ctrl-C sets a flag; the search stops at its next progress point (between steps)."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:          # a second Ctrl-C: stop right now
            raise KeyboardInterrupt
        self.requested = True


def is_terminal(stream: object) -> bool:
    """Is ``stream`` a terminal? (False for anything without a working ``isatty``.)"""
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def progress_wanted(quiet: bool) -> bool:
    """Draw a live progress display? Only on a terminal, without ``--quiet`` or
    ``NO_PROGRESS`` in the environment, and with rich installed (not imported here)."""
    return (not quiet and is_terminal(sys.stderr) and "NO_PROGRESS" not in os.environ
            and importlib.util.find_spec("rich") is not None)


@contextmanager
def search_session(label: str, quiet: bool) -> Iterator[Callable[[dlx.Stats], None]]:
    """A ``progress=`` callback for a search: a live line on a terminal, and Ctrl-C handling.

    The line (rich, on stderr) appears once a search lasts (at its first progress
    call), and only when :func:`progress_wanted`; answers printed to a terminal
    meanwhile go above it, and it is gone when the session ends.  Ctrl-C sets a
    flag; the callback then raises KeyboardInterrupt, which the search turns into a
    clean stop between two steps (a second Ctrl-C stops at once).
    """
    interrupt = _Interrupt()
    try:
        previous = signal.signal(signal.SIGINT, interrupt)
    except ValueError:              # not in the main thread: Ctrl-C stays as it was
        previous = None
    show = progress_wanted(quiet)
    live: Any = None
    spinner: Any = None
    started = time.perf_counter()

    def progress(stats: dlx.Stats) -> None:
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

            # Answers printed to a terminal go above the line (rich redirects stdout
            # while the line shows); to a file or a pipe, straight to stdout.
            spinner = Spinner("dots", text=text)
            live = Live(spinner, console=Console(stderr=True, soft_wrap=True), transient=True,
                        redirect_stdout=is_terminal(sys.stdout), redirect_stderr=False,
                        refresh_per_second=8)
            live.start()
        spinner.update(text=text)

    try:
        yield progress
    finally:
        if live is not None:
            live.stop()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


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
    table = Table(title=title, show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for what, value in rows:
        table.add_row(what, value)
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


def engine_name() -> str:
    """Which engine searches by default, and why (for ``--version`` and the demo)."""
    from dlx import engine

    return str(engine.describe())
