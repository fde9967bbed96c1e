"""The ``dlx`` command: exact cover from the shell, and the interface for adding commands.

``dlx solve FILE`` reads Knuth's DLX format (or judge batches) and prints
solutions.  Other packages add commands: ``dlx demo``, ``dlx sudoku``, ``dlx
queens`` and friends come from :mod:`problems.cli`, registered as described below;
this package imports nothing from :mod:`problems`.  Output goes to stdout;
progress, statistics and errors go to stderr, errors as one line ``dlx: FILE:LINE:
message``.  rich is imported only when something is drawn.

The modules, each importing only those below it::

    app       the parser, the dispatch, the commands of other packages, BrokenPipe /
              Ctrl-C / input errors / memory
    solve     dlx solve (Knuth's format)     -> judges, common
    judges    HUST 1017 and POJ 3740 batches -> common
    common    exit codes, the batch rule, messages, input, the search session, stats
    engines   --engine, defined once, and what cp-sat and race refuse
    stop      what Ctrl-C and SIGTERM do (:data:`STOP`)

This package itself imports nothing heavy (and ``import dlx`` loads nothing
either): :func:`main` first puts the handlers of :data:`STOP` in place for Ctrl-C
(SIGINT) and SIGTERM, then imports the command modules, so that a signal from the
first moments on ends with one line and exit 130 (143 for SIGTERM), never a
traceback.

Exit codes: 0 found, 1 no solution, 2 bad input or usage, 3 not unique where
uniqueness was demanded, 4 out of memory, 124 node budget or time limit reached,
130 interrupted, 141 output closed early (``dlx solve big.dlx | head -1``), 143
terminated (SIGTERM).  A batch (several FILEs, puzzles or cases) exits with the
first that applies of 2, 124, 3, 1, else 0: see :data:`BATCH_RULE`.

Adding commands
---------------
A package adds sub-commands to ``dlx`` through the entry-point group
``dlx.commands`` (:data:`COMMANDS`) of its distribution's metadata::

    [project.entry-points."dlx.commands"]
    puzzles = "problems.cli:add_parsers"

The object named is a function taking the ``dlx`` parser's sub-parsers (what
``argparse.ArgumentParser.add_subparsers`` returns); it adds its commands'
parsers and sets ``func`` on each, a function of the parsed arguments that
returns the exit code::

    def add_parsers(subparsers):
        p = subparsers.add_parser("hello", help="say hello", epilog=EPILOG)
        p.add_argument("--count", action="store_true")
        p.set_defaults(func=lambda args: print("hello") or EXIT_FOUND)

(:data:`EPILOG` points to the exit codes, which ``dlx --help`` lists once.)

``dlx`` loads the providers only when the command asked for is not its own
(``dlx solve`` never loads them), in the order of their entry points' names; a
provider that cannot be loaded costs one warning line, not the other commands.
A command raises :class:`InputError` for bad input (one line, exit 2), and may
let ``KeyboardInterrupt`` and ``BrokenPipeError`` escape: :func:`main` turns them
into one line and 130, or 141.

What a command may use is the rest of :data:`__all__` (loaded on first use): the
exit codes, :class:`Batch` (the batch rule), :class:`Deadline`, the argparse types
(:func:`positive_int`, :func:`whole_number`, :func:`seconds`), messages
(:func:`message`, :func:`error`, :func:`counted`, :func:`stopped`,
:func:`interrupted`), input read under a line cap (:func:`open_input`,
:func:`line_cap`), the parallel and checkpoint options (:func:`add_parallel_arguments`,
:func:`executor_for`, :func:`add_checkpoint_arguments`, :func:`checkpointing`,
:func:`resume_note`), the live progress line and Ctrl-C handling
(:func:`search_session`, :data:`STOP`, :func:`progress_wanted`, :func:`is_terminal`,
:func:`slow_engine_note`), and statistics tables (:func:`print_stats`,
:func:`print_table`, :func:`add_stats`), :func:`engine_name` (which engine
searches, for a banner), and the symmetry options of the counting and listing commands
(:func:`add_symmetry_arguments`, :func:`symmetry_keywords`, :func:`symmetry_rows`), and
``--engine`` (:func:`add_engine_argument`; :data:`SOLVERS`, the engines that find one
solution at a time, and :func:`one_answer`, what they refuse).
Nothing else of ``dlx.cli`` is promised.
"""

import sys

from .stop import STOP, Stop, Terminated

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType as _ModuleType

    from .app import COMMANDS
    from .common import (
        BATCH_RULE,
        EPILOG,
        EXIT_BUDGET,
        EXIT_CODES,
        EXIT_FOUND,
        EXIT_INPUT,
        EXIT_INTERRUPTED,
        EXIT_MEMORY,
        EXIT_NONE,
        EXIT_NOT_UNIQUE,
        EXIT_PIPE,
        EXIT_TERMINATED,
        Batch,
        Deadline,
        InputError,
        add_checkpoint_arguments,
        add_parallel_arguments,
        add_stats,
        checkpointing,
        counted,
        engine_name,
        error,
        executor_for,
        interrupted,
        is_terminal,
        line_cap,
        message,
        open_input,
        positive_int,
        print_stats,
        print_table,
        progress_wanted,
        resume_note,
        search_session,
        seconds,
        slow_engine_note,
        stopped,
        whole_number,
    )
    from .engines import SOLVERS, add_engine_argument, one_answer
    from .solve import add_symmetry_arguments, symmetry_keywords, symmetry_rows
else:
    _ModuleType = type(sys)
del TYPE_CHECKING

__all__ = [
    "main", "STOP", "Stop", "Terminated", "COMMANDS",
    # for the commands of other packages (see "Adding commands" above)
    "EXIT_FOUND", "EXIT_NONE", "EXIT_INPUT", "EXIT_NOT_UNIQUE", "EXIT_MEMORY", "EXIT_BUDGET",
    "EXIT_INTERRUPTED", "EXIT_PIPE", "EXIT_TERMINATED", "EXIT_CODES", "BATCH_RULE", "EPILOG",
    "Batch", "Deadline", "InputError", "positive_int", "whole_number", "seconds", "message",
    "error", "counted", "stopped", "interrupted", "open_input", "line_cap",
    "add_parallel_arguments", "executor_for", "add_checkpoint_arguments", "checkpointing",
    "resume_note", "search_session", "progress_wanted", "is_terminal", "slow_engine_note",
    "print_stats", "print_table", "add_stats", "engine_name",
    "add_symmetry_arguments", "symmetry_keywords", "symmetry_rows",
    "SOLVERS", "add_engine_argument", "one_answer",
]

# The module of each name above but the first four, loaded on first use (PEP 562), so
# that ``import dlx.cli`` (the console script's first import) loads only :mod:`.stop`.
_HOME = {name: "common" for name in __all__[5:]} | {"COMMANDS": "app"} | {
    name: "solve" for name in ("add_symmetry_arguments", "symmetry_keywords", "symmetry_rows")} | {
    name: "engines" for name in ("SOLVERS", "add_engine_argument", "one_answer")}


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module 'dlx.cli' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(n for n in globals() if not n.startswith("_") or n[:2] == "__")})


def _escaping_output() -> None:
    """Write what the terminal's encoding cannot take as backslash escapes (an item
    named ``é`` on an ASCII terminal prints as ``\\xe9``) instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the ``dlx`` command line ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    This is the console script's entry point.  The handlers of :data:`STOP` come
    first, then the command modules are imported, so that a signal during their
    import ends as during a search: ``dlx: interrupted`` and 130 (143 for SIGTERM).
    Called without ``argv`` (as the program) the handlers stay until the process
    exits, and after the last answer is flushed a signal ends the process without
    running Python code; called with ``argv`` (from Python), the caller's handlers
    are put back.
    """
    program = argv is None
    code = 130
    try:
        STOP.install()
        _escaping_output()
        with STOP.deferred():       # a signal while the modules load stops right after
            from .app import main as run
        STOP.check()
        code = run(argv)
    except KeyboardInterrupt:
        # before the command could catch it (its imports), or a second signal
        STOP.let_go()
        code = STOP.report()
    finally:
        if program:
            STOP.let_go()
        else:
            STOP.uninstall()
    return code
