"""``--engine NAME`` on every command that searches, defined once: the engines' names, and
what the solver engines (``cp-sat``, ``race``) refuse, in one line.

It imports only argparse; the commands import it beside :mod:`dlx.cli.common`.
"""

from __future__ import annotations

import argparse

__all__ = ["ENGINES", "SOLVERS", "add_engine_argument", "one_answer"]


#: The engines of ``--engine`` (``auto`` as ``DLX_ENGINE`` says, else the core when built).
ENGINES = ("auto", "c", "python", "cp-sat", "race")

#: The engines that find one solution at a time (not Dancing Links): they answer a
#: search for a solution, uniqueness and the best, and refuse to list or count.
SOLVERS = ("cp-sat", "race")


def add_engine_argument(parser: argparse.ArgumentParser, what: str = "searches") -> None:
    """``--engine NAME``: which engine ``what`` (one definition for every command)."""
    parser.add_argument(
        "--engine", choices=ENGINES, default=None,
        help=f"which engine {what}: auto (default: the C core when built), c, python,"
             " cp-sat (OR-Tools' CP-SAT: one solution, uniqueness or the best; needs the"
             " cp-sat extra) or race (the core and CP-SAT at once, the first answer wins);"
             " cp-sat and race do not list or count solutions")


def one_answer(args: argparse.Namespace, listing: str) -> str | None:
    """Why ``args`` cannot run on a solver engine (``--engine cp-sat`` or ``race``): a
    message when they ask it to list many solutions or count (``listing`` names the
    flags that do), else None.

    >>> import argparse
    >>> one_answer(argparse.Namespace(engine="race", count=True, limit=None), "--all")
    '--engine race finds one solution at a time: it does not count (--count); use --engine auto'
    >>> one_answer(argparse.Namespace(engine="c", count=True, limit=None), "--all") is None
    True
    """
    engine = getattr(args, "engine", None)
    if engine not in SOLVERS:
        return None
    if getattr(args, "count", False) or getattr(args, "cache", False):
        return (f"--engine {engine} finds one solution at a time: it does not count (--count);"
                " use --engine auto")
    limit = getattr(args, "limit", None)
    if (limit is not None and limit > 1) or getattr(args, "all", False):
        return (f"--engine {engine} finds one solution at a time: it does not list them"
                f" ({listing}); use --engine auto")
    if getattr(args, "zdd", None) is not None or getattr(args, "jobs", None) is not None or \
            getattr(args, "scheduler", None) is not None or \
            getattr(args, "checkpoint", None) is not None:
        return (f"--engine {engine} runs in this process: not with --zdd, --jobs, --scheduler"
                " or --checkpoint")
    if getattr(args, "symmetry", False) or getattr(args, "up_to_symmetry", False):
        return (f"--engine {engine} finds one solution at a time: the symmetry options count"
                " or list (leave them out, or use --engine auto)")
    return None
