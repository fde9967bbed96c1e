"""The ``dlx`` command: exact cover from the shell, one module per command family.

``dlx solve FILE`` reads Knuth's DLX format (or judge batches) and prints
solutions; ``dlx demo`` gives a short tour; ``dlx sudoku``, ``dlx queens`` and
friends encode puzzles with the :mod:`problems` package.  Output goes to stdout;
progress, statistics and errors go to stderr, errors as one line ``dlx: FILE:LINE:
message``.  rich is imported only when something is drawn.

The modules, each importing only those below it (and :mod:`problems`, which
never imports this package)::

    app       the parser, the dispatch, BrokenPipe / Ctrl-C / input errors / memory
    solve     dlx solve (Knuth's format)     -> judges, common
    judges    HUST 1017 and POJ 3740 batches -> common
    sudoku    dlx sudoku solve|count|classify|score|generate|rate -> sudoku_batch, sudoku_gen
    sudoku_batch  the batch verbs' session: read, answer in chunks, print -> common
    sudoku_gen    dlx sudoku generate -> sudoku_batch, common
    puzzles   dlx queens|langford|dominoes|pentominoes|rectangles -> common
    demo      dlx demo                       -> common
    common    exit codes, the batch rule, messages, input, the search session, stats
    engines   --engine, defined once, and what cp-sat and race refuse

This package itself imports nothing heavy (and ``import dlx`` loads nothing
either): :func:`main` first puts the handlers of :data:`STOP` in place for Ctrl-C
(SIGINT) and SIGTERM, then imports the command modules, so that a signal from the
first moments on ends with one line and exit 130 (143 for SIGTERM), never a
traceback.

Exit codes: 0 found, 1 no solution, 2 bad input or usage, 3 not unique where
uniqueness was demanded, 4 out of memory, 124 node budget or time limit reached,
130 interrupted, 141 output closed early (``dlx solve big.dlx | head -1``), 143
terminated (SIGTERM).  A batch (several FILEs, puzzles or cases) exits with the
first that applies of 2, 124, 3, 1, else 0: see :data:`dlx.cli.common.BATCH_RULE`.
"""

import sys

from .stop import STOP, Stop, Terminated

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["main", "STOP", "Stop", "Terminated"]


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
