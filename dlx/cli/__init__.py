"""The ``dlx`` command: exact cover from the shell, one module per command family.

``dlx solve FILE`` reads Knuth's DLX format (or judge batches) and prints
solutions; ``dlx demo`` gives a short tour; ``dlx sudoku``, ``dlx queens`` and
friends encode puzzles with the :mod:`problems` package.  Output goes to stdout;
progress, statistics and errors go to stderr.  rich is imported only when
something is drawn.

The modules, each importing only those below it (and :mod:`problems`, which
never imports this package)::

    main      the parser, the dispatch, BrokenPipe / Ctrl-C / input errors
    solve     dlx solve (Knuth's format)     -> judges, common
    judges    HUST 1017 and POJ 3740 batches -> common
    sudoku    dlx sudoku solve|count|classify|score -> common
    puzzles   dlx queens|langford|dominoes|pentominoes|rectangles -> common
    demo      dlx demo                       -> common
    common    exit codes, positive_int, messages, input, the search session, stats

Exit codes: 0 found, 1 no solution, 2 bad input or usage, 3 not unique where
uniqueness was demanded, 124 node budget exhausted, 130 interrupted, 141 output
closed early (``dlx solve big.dlx | head -1``).
"""

from .main import main

__all__ = ["main"]
