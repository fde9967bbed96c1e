"""The ``dlx`` parser, the dispatch to a command, and the stops every command shares.

Each command family adds its sub-parsers (``add_parsers``) and sets ``func(args)
-> exit code``: ``dlx solve`` here, the commands of other packages through the
entry-point group :data:`COMMANDS` (see :mod:`dlx.cli`, "Adding commands").
:func:`main` parses, runs ``func``, and turns what may escape it
into one line and an exit code: a closed output (``dlx solve big.dlx | head -1``)
into 141 without a traceback, Ctrl-C into 130 and SIGTERM into 143 (see
:data:`dlx.cli.STOP`), an unreadable file or a bad problem into 2, memory running
out into 4.
"""

from __future__ import annotations

import argparse
import difflib
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, cast

import dlx

from . import solve
from .common import (
    EXIT_HELP,
    EXIT_INPUT,
    EXIT_MEMORY,
    EXIT_PIPE,
    InputError,
    engine_name,
    error,
    interrupted,
)
from .stop import STOP

__all__ = ["COMMANDS", "build_parser", "command_parser", "providers", "main"]

#: The entry-point group through which other packages add commands to ``dlx``: each
#: entry point names a function ``add_parsers(subparsers)`` (see :mod:`dlx.cli`).
COMMANDS = "dlx.commands"

#: The commands of this package, which need no other package's.
OWN = ("solve",)


class _Version(argparse.Action):
    """``--version``: the engine is looked up only when asked (``dlx --help`` stays fast)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"dlx {dlx.__version__} (engine: {engine_name()})")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse's parser, which says ``did you mean: solve?`` for a choice mistyped
    (``dlx sovle``, ``dlx sudoku slove``, ``--format jsnol``).  The sub-parsers are of
    this class too (argparse makes them of their parent's)."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices and isinstance(value, str):
            close = difflib.get_close_matches(value, [str(c) for c in choices], n=2)
            if close:
                raise argparse.ArgumentError(action, f"invalid choice: {value!r}; did you"
                                             f" mean: {' or '.join(close)}?")
        super()._check_value(action, value)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``dlx`` parser with every command's sub-parser: this package's, then those
    of the :func:`providers` (unless ``command``, the command asked for, is one of
    this package's, :data:`OWN`: ``dlx solve`` loads no other package)."""
    parser = _Parser(
        prog="dlx", description="Exact cover with Knuth's Dancing Links. Every command reads"
        " its FILEs, or standard input when there is none or for '-'.", epilog=EXIT_HELP)
    parser.add_argument("--version", action=_Version, help="show the version and the engine")
    # (the sub-parsers are _Parsers: argparse makes them of their parent's class)
    sub = cast("argparse._SubParsersAction[argparse.ArgumentParser]",
               parser.add_subparsers(dest="command", metavar="COMMAND"))
    solve.add_parsers(sub)
    if command not in OWN:
        for name, add_parsers in providers():
            try:
                add_parsers(sub)
            except Exception as e:          # (argparse.ArgumentError: a name taken already)
                error(f"warning: the commands of {name} were not added: {e}")
    return parser


def providers() -> list[tuple[str, Callable[[Any], None]]]:
    """The functions of the entry-point group :data:`COMMANDS` (name, function), in the
    order of their names; one that cannot be loaded is left out after a warning line.

    A signal while they load is held until they are loaded, as for this package's
    command modules (see :func:`dlx.cli.main`).
    """
    from importlib.metadata import entry_points

    found = []
    with STOP.deferred():
        points = sorted(entry_points(group=COMMANDS), key=lambda p: (p.name, p.value))
        if not points:      # (an install older than its metadata: the puzzle commands too)
            error(f"warning: no installed package adds commands to dlx (the entry-point group"
                  f" {COMMANDS} is empty): reinstall dancing-links-dlx for its puzzle commands")
        for point in points:
            try:
                found.append((f"{point.name} ({point.value})", point.load()))
            except Exception as e:
                error(f"warning: the commands of {point.name} ({point.value}) could not be"
                      f" loaded: {type(e).__name__}: {e}")
    STOP.check()
    return found


def _command(argv: Sequence[str] | None) -> str | None:
    """The command ``argv`` asks for: its first argument, unless that is an option
    (``dlx --help solve`` shows every command).

    >>> _command(["solve", "-"]), _command(["--help", "solve"]), _command([])
    ('solve', None, None)
    """
    args = sys.argv[1:] if argv is None else argv
    return args[0] if args and not args[0].startswith("-") else None


def command_parser(parser: argparse.ArgumentParser,
                   args: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost sub-parser that ``args`` went through (``dlx sudoku solve``'s for
    ``dlx sudoku solve --bogus``), so that an error shows that command's usage.

    >>> parser = build_parser()
    >>> command_parser(parser, parser.parse_args(["sudoku", "solve"])).prog
    'dlx sudoku solve'
    """
    while True:
        found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not found:
            return parser
        name = getattr(args, found[0].dest, None)
        sub = found[0].choices.get(name) if name is not None else None
        if sub is None:
            return parser
        parser = sub


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``dlx`` command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    try:
        parser = build_parser(_command(argv))
        args, extra = parser.parse_known_args(argv)
        if extra:       # the usage of the command that was given them, not dlx's
            command_parser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help(sys.stderr)
            return EXIT_INPUT
        code = int(func(args))
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
        return EXIT_PIPE
    except InputError as e:
        print(str(e), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        STOP.let_go()               # stopping already: a second signal ends it at once
        return _stopped()
    except MemoryError:
        error("memory ran out")
        return EXIT_MEMORY
    except dlx.ExactCoverError as e:
        if STOP.signum is not None:
            return _stopped()
        error(str(e))
        return EXIT_INPUT
    except Exception:
        if STOP.signum is None:
            raise
        return _stopped()           # what a stop broke (a pool whose workers got SIGTERM)
    if STOP.signum is not None:     # it came as the last search ended: not acted on yet
        return _stopped()
    return code


def _stopped() -> int:
    """After Ctrl-C or SIGTERM: what was printed goes out, whole lines; one line says
    so (if the command did not); 130 or 143."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
    except (OSError, ValueError):
        pass
    return interrupted()


def _drop_stdout() -> None:
    """The reader went away: leave quietly, and let the exit's flush of stdout write
    into /dev/null instead of raising again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
