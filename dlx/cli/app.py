"""The ``dlx`` parser, the dispatch to a command, and the stops every command shares.

Each command family adds its sub-parsers (``add_parsers``) and sets ``func(args)
-> exit code``; :func:`main` parses, runs ``func``, and turns what may escape it
into one line and an exit code: a closed output (``dlx solve big.dlx | head -1``)
into 141 without a traceback, Ctrl-C into 130, an unreadable file or a bad
problem into 2, memory running out into 4.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

import dlx

from . import demo, puzzles, solve, sudoku
from .common import (
    EPILOG,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_MEMORY,
    EXIT_PIPE,
    InputError,
    engine_name,
    error,
)

__all__ = ["build_parser", "main"]


class _Version(argparse.Action):
    """``--version``: the engine is looked up only when asked (``dlx --help`` stays fast)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"dlx {dlx.__version__} (engine: {engine_name()})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The ``dlx`` parser with every command's sub-parser."""
    parser = argparse.ArgumentParser(
        prog="dlx", description="Exact cover with Knuth's Dancing Links. Every command reads"
        " its FILEs, or standard input when there is none or for '-'.", epilog=EPILOG)
    parser.add_argument("--version", action=_Version, help="show the version and the engine")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for family in (solve, demo, sudoku, puzzles):
        family.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``dlx`` command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help(sys.stderr)
            return EXIT_INPUT
        code = int(func(args))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away: leave quietly, and let the exit's flush of stdout
        # write into /dev/null instead of raising again.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        return EXIT_PIPE
    except InputError as e:
        print(str(e), file=sys.stderr)
        return EXIT_INPUT
    except dlx.ExactCoverError as e:
        error(str(e))
        return EXIT_INPUT
    except KeyboardInterrupt:
        error("interrupted")
        return EXIT_INTERRUPTED
    except MemoryError:
        error("memory ran out")
        return EXIT_MEMORY
    return code
