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
    sudoku    dlx sudoku solve|count|classify|score|generate|rate -> common
    puzzles   dlx queens|langford|dominoes|pentominoes|rectangles -> common
    demo      dlx demo                       -> common
    common    exit codes, the batch rule, messages, input, the search session, stats

This package itself imports nothing heavy: :func:`main` imports the command
modules (the parser, :mod:`problems`, ...) inside a ``try``, so a Ctrl-C while
they load ends quietly with exit 130 instead of a traceback.

Exit codes: 0 found, 1 no solution, 2 bad input or usage, 3 not unique where
uniqueness was demanded, 4 out of memory, 124 node budget or time limit reached,
130 interrupted, 141 output closed early (``dlx solve big.dlx | head -1``).  A
batch (several FILEs, puzzles or cases) exits with the first that applies of 2,
124, 3, 1, else 0: see :data:`dlx.cli.common.BATCH_RULE`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``dlx`` command line ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    This is the console script's entry point.  The command modules are imported
    here, after the cheap part of start-up, so that a Ctrl-C during their import
    says ``dlx: interrupted`` and gives 130, as it does during a search.
    """
    try:
        from .app import main as run
    except KeyboardInterrupt:
        print("dlx: interrupted", file=sys.stderr)
        return 130
    return run(argv)
