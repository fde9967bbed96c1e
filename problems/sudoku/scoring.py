"""Scoring: weighted scores of grids, and the best score by branch and bound (NOIP 2009).

:func:`max_score` runs the solver of :mod:`problems.sudoku._maxscore`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import dlx

from . import _maxscore
from .errors import SudokuError, _shown, seconds, whole
from .grid import PuzzleLike, as_grid
from .shapes import MAX_SIZE, Placement, Shape, _flatten
from .verdicts import _legal

__all__ = ["target_weights", "score", "max_score"]

def target_weights(size: int = 9) -> tuple[int, ...]:
    """The NOIP 2009 target weights, row-major: N+1 in the centre, one less per ring.

    For 9x9: 6 on the outer ring, then 7, 8, 9, and 10 in the centre cell.

    >>> w = target_weights(9)
    >>> w[:9], w[40]
    ((6, 6, 6, 6, 6, 6, 6, 6, 6), 10)
    """
    n = whole(size, "size", low=1, high=MAX_SIZE)
    return tuple(n + 1 - max(abs(2 * r - (n - 1)), abs(2 * c - (n - 1))) // 2
                 for r in range(n) for c in range(n))


def _weights(weights: Sequence[Any] | None, n: int) -> tuple[Any, ...]:
    """The weights as a flat tuple of N*N numbers: ints (any size), Fractions or finite
    floats; else :class:`SudokuError` naming the first that is not."""
    if weights is None:
        return target_weights(n)
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__iter__"):
        raise SudokuError(f"weights must be a flat or nested sequence of {n * n} numbers,"
                          f" not {_shown(weights)}")
    flat = tuple(_flatten(weights))
    if len(flat) != n * n:
        raise SudokuError(f"weights has {len(flat)} entries; a {n}x{n} grid needs {n * n}")
    for w in flat:
        if isinstance(w, bool) or not isinstance(w, (int, float, Fraction)) or \
                isinstance(w, float) and not math.isfinite(w):
            raise SudokuError(f"weight {_shown(w)} is not a finite number (an int, a Fraction"
                              " or a finite float)")
    return flat


def score(grid: PuzzleLike, weights: Sequence[Any] | None = None, *,
          box: tuple[int, int] | None = None, shape: Shape | None = None) -> Any:
    """The sum of weight x digit over the cells (blanks count 0).

    >>> score("483921657967345821251876493548132976729564138136798245372689514814253769695417382")
    2861
    """
    g = as_grid(grid, box, shape)
    w = _weights(weights, g.size)
    return sum(wi * v for wi, v in zip(w, g.values, strict=True))


def max_score(puzzle: PuzzleLike, weights: Sequence[Any] | None = None, *,
              box: tuple[int, int] | None = None, shape: Shape | None = None,
              max_nodes: int | None = None, stats: dlx.Stats | None = None,
              timeout: float | None = None) -> int | float | Fraction | None:
    """The best total of weight x digit over all solutions (NOIP 2009 "target Sudoku").

    ``weights`` is a flat or nested N x N sequence of numbers (ints give an int);
    by default :func:`target_weights`.  None when there is no solution.

    A branch and bound of its own (:mod:`problems.sudoku._maxscore`), not
    enumeration: the weights are first moved between units (every full unit sums
    to the same), which leaves 17 weighted cells of 81 for the target weights;
    the search branches on those only, propagates singles, locked candidates and
    a matching test per unit, and prunes by a Lagrangian bound as strong as the
    linear relaxation.  Every shape works (its units are given to the solver).
    The empty 9x9 grid takes a fraction of a second, and every grid tried with
    0 to 30 givens under about two seconds (``bench/bench_maxscore.py``).
    ``max_nodes`` counts the solver's nodes (and ``stats.nodes`` gets them), and
    ``timeout`` is seconds for the whole call (checked at every node of the search
    and every step of its bound, at most a tenth of a second apart even on 64x64
    grids, whose tables take about a second to build first): when either runs out,
    :class:`dlx.BudgetExceeded` carries the best ``(score, placements)`` so far.
    The score is exact for ints and Fractions (an int for ints); weights whose
    float bound would overflow raise :class:`~problems.sudoku.SudokuError`.

    >>> max_score("1..." "..3." ".4.." "...2", weights=[1] * 16)
    40
    >>> max_score("." * 81)
    2906
    >>> max_score("11" + "." * 79) is None
    True
    """
    started = time.perf_counter()
    whole(max_nodes, "max_nodes", low=1, none=True)
    limit = seconds(timeout)
    if stats is not None and not isinstance(stats, dlx.Stats):
        raise SudokuError(f"stats must be a dlx.Stats or None, not {_shown(stats)}")
    g = as_grid(puzzle, box, shape)
    n = g.size
    w = _weights(weights, n)
    if not _legal(g):
        return None
    counts = _maxscore.SearchStats()
    left = None if limit is None else max(limit - (time.perf_counter() - started), 1e-6)
    try:
        best = _maxscore.best_completion(g.values, w, g.shape.tables(), stats=counts,
                                         max_nodes=max_nodes, time_limit=left)
    except _maxscore.SearchLimitReached as e:
        found = None
        if e.found is not None:
            found = (e.found.score, tuple(Placement(i // n, i % n, d)
                                          for i, d in enumerate(e.found.grid)))
        if e.what == "time_limit":
            raise dlx.BudgetExceeded(None, found, stats, timeout=limit) from None
        raise dlx.BudgetExceeded(max_nodes, found, stats) from None
    except OverflowError:
        raise SudokuError("the weights are too large for max_score's bound (it works in"
                          " floats): scale them down") from None
    finally:
        if stats is not None:
            stats.nodes += counts.nodes + counts.feasibility_nodes
    return None if best is None else best.score
