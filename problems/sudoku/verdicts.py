"""Verdicts: legality, clashes, and the searches (solve, solutions, count, classify).

The four UVA 10957 verdicts: Illegal (the givens already break a rule),
Impossible (legal givens, no solution), Unique, Ambiguous.  Illegal givens are
caught before any search.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import Any, NamedTuple

import dlx

from .errors import SudokuError, _shown, seconds, whole
from .grid import Grid, PuzzleLike, as_grid
from .matrix import codes, forced, prepared, values_of
from .shapes import Shape, Unit

__all__ = ["Verdict", "Clash", "explain", "is_legal", "solve", "solutions", "count", "classify"]


class Verdict(str, Enum):
    """The UVA 10957 verdicts on a puzzle."""

    ILLEGAL = "Illegal"        # the givens already break a rule
    UNIQUE = "Unique"          # exactly one solution
    AMBIGUOUS = "Ambiguous"    # two or more solutions
    IMPOSSIBLE = "Impossible"  # legal givens, no solution

    def __str__(self) -> str:
        return self.value


#: The verdict on a legal puzzle by how many solutions a search to 2 found (0, 1, 2).
_BY_COUNT = (Verdict.IMPOSSIBLE, Verdict.UNIQUE, Verdict.AMBIGUOUS)


class Clash(NamedTuple):
    """A digit given more than once in one unit (see :func:`explain`)."""

    digit: int
    unit: Unit
    cells: tuple[tuple[int, int], ...]

    def __str__(self) -> str:
        times = "twice" if len(self.cells) == 2 else f"{len(self.cells)} times"
        where = ", ".join(f"r{r + 1}c{c + 1}" for r, c in self.cells)
        return f"digit {self.digit} appears {times} in {self.unit.title} ({where})"


def explain(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
            shape: Shape | None = None) -> list[Clash]:
    """Every digit given twice or more in one unit (empty when the givens are legal).

    >>> for clash in explain("12.." "2..." "...." "...1"):
    ...     print(clash)
    digit 2 appears twice in box 1 (r1c2, r2c1)
    """
    g = as_grid(puzzle, box, shape)
    n = g.size
    values = g.values
    out: list[Clash] = []
    for unit in g.shape.units:
        where: dict[int, list[tuple[int, int]]] = {}
        for r, c in unit.cells:
            v = values[r * n + c]
            if v:
                where.setdefault(v, []).append((r, c))
        for d in sorted(where):
            if len(where[d]) > 1:
                out.append(Clash(d, unit, tuple(where[d])))
    return out


def is_legal(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
             shape: Shape | None = None) -> bool:
    """True when no unit holds a digit twice (blanks are ignored).

    >>> is_legal("1.2." + "." * 12), is_legal("1.1." + "." * 12)
    (True, False)
    """
    return _legal(as_grid(puzzle, box, shape))


def _legal(g: Grid) -> bool:
    values = g.values
    for cells in g.shape.tables().unit_cells:
        seen = [values[i] for i in cells if values[i]]
        if len(seen) != len(set(seen)):
            return False
    return True


def _solved(solution: tuple[object, ...], puzzle: Grid) -> Grid:
    """The Grid of a solution of the full matrix, with the puzzle's givens marked."""
    values = values_of(solution, puzzle.shape.size)  # type: ignore[arg-type]
    return Grid._make(tuple(values), puzzle.shape, puzzle.givens)


def _check_search(limit: Any, max_nodes: Any, stats: Any, timeout: Any) -> None:
    """Raise :class:`SudokuError` naming the first search argument that is not of its kind."""
    if max_nodes is None and stats is None and timeout is None and (
            limit is None or (type(limit) is int and limit > 0)):
        return                                          # (the common call, at once)
    whole(limit, "limit", low=1, none=True)
    whole(max_nodes, "max_nodes", low=1, none=True)
    seconds(timeout)
    if stats is not None and not isinstance(stats, dlx.Stats):
        raise SudokuError(f"stats must be a dlx.Stats or None, not {_shown(stats)}")


def _search(g: Grid, limit: int | None, max_nodes: int | None, stats: dlx.Stats | None,
            timeout: float | None = None) -> tuple[int, Grid | None]:
    """Search ``g`` up to ``limit`` solutions: (how many, the first as a Grid or None).

    Without ``stats`` this is a batch of one on the prepared matrix (a row of codes,
    no label made): the per-puzzle call costs little more than a puzzle of a batch."""
    _check_search(limit, max_nodes, stats, timeout)
    shape = g.shape
    if stats is None:
        # the cell values are the puzzle's row of codes (dlx.Prepared.batch_codes)
        a = prepared(shape).batch_codes(bytes(g.values), codes(shape), limit=limit,
                                        max_nodes=max_nodes, timeout=timeout)
        found, status = a.found[0], a.status[0]
        if status == 3:
            raise dlx.BudgetExceeded(None, found, timeout=timeout)
        if status == 2:
            raise dlx.BudgetExceeded(max_nodes, found)
        # (the puzzle's values say which cells were given)
        first = Grid._make(tuple(a.solutions), shape, g._givens or g._values) if found else None
        return found, first
    found, grid = 0, None
    for sol in prepared(shape).solutions(forced(shape, g.values), limit=limit,
                                         max_nodes=max_nodes, timeout=timeout, stats=stats):
        found += 1
        if grid is None:
            grid = _solved(sol, g)
    return found, grid


def solve(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None, shape: Shape | None = None,
          max_nodes: int | None = None, stats: dlx.Stats | None = None,
          timeout: float | None = None) -> Grid | None:
    """The first solution, or None when there is none (it need not be unique).

    Every search of this module runs on the shape's full matrix, laid out once,
    with the givens as forced options (:mod:`problems.sudoku.matrix`); ``stats``
    describe the search below the givens.  Givens that clash (an illegal puzzle)
    are forced options that clash: no solution, and nothing is searched.
    ``max_nodes`` and ``timeout`` (seconds) bound the search, as for every
    :mod:`dlx` view: :class:`dlx.BudgetExceeded` when one runs out.

    >>> print(solve("1..." "..3." ".4.." "...2"))
    1324423124133142
    >>> solve("11" + "." * 14) is None
    True
    """
    return _search(as_grid(puzzle, box, shape), 1, max_nodes, stats, timeout)[1]


def solutions(puzzle: PuzzleLike, limit: int | None = None, *,
              box: tuple[int, int] | None = None, shape: Shape | None = None,
              max_nodes: int | None = None, stats: dlx.Stats | None = None,
              timeout: float | None = None) -> Iterator[Grid]:
    """Every solution as a Grid, lazily (at most ``limit``).

    >>> [str(s) for s in solutions("12.." "34.." "...." "....", limit=2)]
    ['1234341221434321', '1234341223414123']
    """
    _check_search(limit, max_nodes, stats, timeout)
    g = as_grid(puzzle, box, shape)
    for sol in prepared(g.shape).solutions(forced(g.shape, g.values), limit=limit,
                                           max_nodes=max_nodes, timeout=timeout, stats=stats):
        yield _solved(sol, g)


def count(puzzle: PuzzleLike, limit: int | None = None, *,
          box: tuple[int, int] | None = None, shape: Shape | None = None,
          max_nodes: int | None = None, stats: dlx.Stats | None = None,
          timeout: float | None = None) -> int:
    """How many solutions (stopping at ``limit``); 0 for an illegal puzzle.

    >>> count("1..." "..3." ".4.." "...."), count("." * 81, limit=5)
    (3, 5)
    """
    return _search(as_grid(puzzle, box, shape), limit, max_nodes, stats, timeout)[0]


def classify(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
             shape: Shape | None = None, max_nodes: int | None = None,
             stats: dlx.Stats | None = None, timeout: float | None = None) -> Verdict:
    """Illegal (givens clash), Impossible (no solution), Unique, or Ambiguous.

    The search stops at the second solution.

    >>> [classify(p).value for p in ("1..." "..3." ".4.." "...2", "." * 16, "11" + "." * 14)]
    ['Unique', 'Ambiguous', 'Illegal']
    """
    g = as_grid(puzzle, box, shape)
    found = _search(g, 2, max_nodes, stats, timeout)[0]
    if found == 0 and not _legal(g):
        return Verdict.ILLEGAL
    return _BY_COUNT[found]
