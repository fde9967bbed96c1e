"""The puzzle commands of ``dlx``: ``demo``, ``sudoku``, ``queens``, ``rectangles``,
``pentominoes``, ``langford`` and ``dominoes``.

They are added to the ``dlx`` command through the entry-point group ``dlx.commands``
(pyproject.toml: ``problems = "problems.cli:add_parsers"``), the interface that
:mod:`dlx.cli` documents for any package's commands; ``dlx`` itself imports nothing
from :mod:`problems`.  Like the rest of :mod:`problems` they use only the public names
of :mod:`dlx` (``dlx.__all__``), among them the module :mod:`dlx.cli`, through its
own public names (``from dlx import cli``, then ``cli.error``, ``cli.EXIT_INPUT``...:
those of ``dlx.cli.__all__``: exit codes, messages, input, the search session).

The modules::

    demo          dlx demo: a short tour
    sudoku        dlx sudoku solve|count|classify|score|rate|generate -> sudoku_batch, sudoku_gen
    sudoku_batch  the batch verbs' session: read, answer in chunks, print
    sudoku_gen    dlx sudoku generate
    puzzles       dlx queens|rectangles|pentominoes|langford|dominoes
"""

from __future__ import annotations

import argparse

__all__ = ["add_parsers"]


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the puzzle commands to the ``dlx`` parser's sub-parsers (the entry point of
    the group ``dlx.commands``), in the order ``dlx --help`` lists them."""
    from . import demo, puzzles, sudoku

    for family in (demo, sudoku, puzzles):
        family.add_parsers(subparsers)
