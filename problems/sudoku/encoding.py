"""Encoding: a puzzle as an exact-cover problem, and a solution back to a grid.

One option ``Placement(row, col, digit)`` per candidate; items ``("cell", r, c)``
and ``(kind, number, digit)`` for every unit (row, col, box, extra units).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

import dlx

from .grid import Grid, PuzzleLike, as_grid
from .shapes import Placement, Shape

__all__ = ["encode", "decode", "Placement"]


def encode(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
           shape: Shape | None = None) -> dlx.ExactCover:
    """The exact-cover problem of a puzzle: one ``Placement`` option per candidate.

    A given cell keeps only its own option, and every option that shares a
    unit and digit with a given is dropped.  Every item of the shape is primary
    (units smaller than N make secondary items), so a cell with no candidate
    left makes the problem unsolvable rather than silently ignored.

    >>> p = encode("1..." + "." * 12)
    >>> p.options[Placement(0, 0, 1)]
    (('cell', 0, 0), ('row', 0, 1), ('col', 0, 1), ('box', 0, 1))
    >>> len(p), len(p.primary)
    (54, 64)
    """
    return _encode(as_grid(puzzle, box, shape))


def _encode(g: Grid) -> dlx.ExactCover:
    """The problem of ``g``: the options of each cell in cell order, digits in order."""
    t = g.shape.tables()
    n = t.n
    values = g.values
    unit_items = t.unit_items
    used: set[Hashable] = set()
    for i, v in enumerate(values):
        if v:
            used.update(unit_items[i][v])
    opts: dict[Hashable, tuple[Hashable, ...]] = {}
    isdisjoint = used.isdisjoint
    for i in range(n * n):
        v = values[i]
        labels, items = t.labels[i], t.items[i]
        if v:
            opts[labels[v]] = items[v]
        else:
            uits = unit_items[i]
            for d in range(1, n + 1):
                if isdisjoint(uits[d]):
                    opts[labels[d]] = items[d]
    return dlx.ExactCover(opts, secondary=t.secondary, primary=t.primary)


def decode(solution: Iterable[Any], *, shape: Shape | None = None,
           box: tuple[int, int] | None = None) -> Grid:
    """The grid of a solution (an iterable of :class:`Placement` labels).

    Without ``shape`` the size follows from the number of placements (N*N); with
    it, a partial solution leaves the other cells blank.

    >>> decode([Placement(0, 0, 1), Placement(0, 1, 2), Placement(1, 0, 2), Placement(1, 1, 1)],
    ...        box=(1, 2))
    Grid('1221', shape=<Shape standard 2x2, box=(1, 2), 6 units>)
    """
    sol = list(solution)
    if shape is None:
        n = math.isqrt(len(sol))
        if n * n != len(sol) or n == 0:
            raise ValueError(f"{len(sol)} placements do not fill a square grid;"
                             " pass shape= to decode part of one")
        shape = Shape.standard(n, box)
    n = shape.size
    values = [0] * (n * n)
    for p in sol:
        r, c, d = p
        if not (0 <= r < n and 0 <= c < n and 1 <= d <= n):
            raise ValueError(f"placement {p!r} does not fit a {n}x{n} grid")
        values[r * n + c] = d
    return Grid._make(tuple(values), shape)
