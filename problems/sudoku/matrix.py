"""The full matrix of a shape, laid out once, and a puzzle's givens as forced options.

Every puzzle of one shape is the same exact-cover problem, the shape's full
matrix (an option per cell and digit), searched under a partial solution given
up front: the options of its givens.  :func:`prepared` lays that matrix out once
per shape (:class:`dlx.Prepared`, cached on the shape); :func:`forced` gives a
puzzle's givens as its forced options.  A given whose option an earlier given
has removed shares a unit and digit with it: the forced options clash, which is
exactly what :func:`~problems.sudoku.is_legal` rejects.

The statistics of a search are those of the search below the givens: its root
is the partial solution of the givens (one node, at the level of their number).

>>> from problems.sudoku.shapes import Shape
>>> shape = Shape.standard(4)
>>> p = prepared(shape)
>>> p.count(forced(shape, bytes([1, 0, 0, 0] + [0] * 12)))
72
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Literal, cast

import dlx

from .shapes import Placement, Shape

__all__ = ["full_problem", "prepared", "forced", "values_of", "Indices", "codes"]

_Engine = Literal["auto", "c", "python"]


def full_problem(shape: Shape) -> dlx.ExactCover:
    """The shape's whole matrix: an option per cell and digit, cells in order."""
    t = shape.tables()
    n = t.n
    options: dict[Hashable, tuple[Hashable, ...]] = {
        t.labels[i][d]: t.items[i][d] for i in range(n * n) for d in range(1, n + 1)}
    return dlx.ExactCover(options, secondary=t.secondary, primary=t.primary)


def prepared(shape: Shape, engine: _Engine | None = None) -> dlx.Prepared:
    """The full matrix of ``shape`` laid out for searches under givens, built once per
    shape and engine (``engine`` as for every dlx view; None: ``DLX_ENGINE``, else auto)."""
    cache = shape.tables().core
    found = cache.get(engine)
    if found is None:
        found = cache[engine] = dlx.Prepared(full_problem(shape), engine=engine)
    return found


class Indices:
    """The full matrix's option indices (:attr:`dlx.Prepared.labels`) by cell and digit,
    for batches that pass indices instead of labels (no label is made or looked up).

    >>> from problems.sudoku.shapes import Shape
    >>> ix = Indices(Shape.standard(4))
    >>> ix.forced(bytes([0, 3] + [0] * 14)), ix.cell[6], ix.digit[6]
    ([6], 1, 3)
    """

    __slots__ = ("n", "of", "base", "cell", "digit", "cell_major")

    def __init__(self, shape: Shape) -> None:
        n = self.n = shape.size
        labels = prepared(shape).labels
        self.of = [[0] * (n + 1) for _ in range(n * n)]     # of[cell][digit] -> index
        self.cell = [0] * len(labels)                        # index -> cell
        self.digit = bytearray(len(labels))                  # index -> digit
        for k, label in enumerate(labels):
            r, c, d = cast(Placement, label)
            self.of[r * n + c][d] = k
            self.cell[k] = r * n + c
            self.digit[k] = d
        # options in cell order, digits in order: the index of (cell, d) is base[cell] + d,
        # and a solution's indices, sorted, are its cells in order
        self.base = [of[1] - 1 for of in self.of]
        self.cell_major = all(self.of[i][d] == self.base[i] + d
                              for i in range(n * n) for d in range(1, n + 1))

    def forced(self, values: Sequence[int]) -> list[int]:
        """The option indices of the givens in ``values``, in cell order."""
        if self.cell_major:
            return [b + v for b, v in zip(self.base, values, strict=True) if v]
        of = self.of
        return [of[i][v] for i, v in enumerate(values) if v]

    def values(self, solution: Iterable[int]) -> bytes:
        """The cell values of a solution of the full matrix, given as option indices."""
        if self.cell_major:
            return bytes(map(self.digit.__getitem__, sorted(solution)))
        out = bytearray(self.n * self.n)
        for k in solution:
            out[self.cell[k]] = self.digit[k]
        return bytes(out)


def indices(shape: Shape) -> Indices:
    """The :class:`Indices` of ``shape``, built once."""
    cache = shape.tables().core
    found = cache.get("indices")
    if found is None:
        found = cache["indices"] = Indices(shape)
    return found


def codes(shape: Shape) -> dlx.Codes:
    """The full matrix's options as :class:`dlx.Codes`: at each cell, digit d is code d,
    so a puzzle's cell values (0 blank) are its row for :meth:`dlx.Prepared.batch_codes`
    and a solution comes back as its values.  Built once per shape.

    >>> from problems.sudoku.shapes import Shape
    >>> shape = Shape.standard(4)
    >>> a = prepared(shape).batch_codes(bytes([1, 0, 0, 0, 0, 0, 3, 0,
    ...                                        0, 4, 0, 0, 0, 0, 0, 2]), codes(shape))
    >>> a.found, list(a.solutions)
    ([1], [1, 3, 2, 4, 4, 2, 3, 1, 2, 4, 1, 3, 3, 1, 4, 2])
    """
    cache = shape.tables().core
    found = cache.get("codes")
    if found is None:
        of = indices(shape).of
        found = cache["codes"] = prepared(shape).codes([row[1:] for row in of], indices=True)
    return cast(dlx.Codes, found)


def forced(shape: Shape, values: Sequence[int]) -> list[Placement]:
    """The options of the givens in ``values`` (a value per cell, 0 blank), in cell order."""
    labels = shape.tables().labels
    return [labels[i][v] for i, v in enumerate(values) if v]


def values_of(solution: Iterable[Placement], n: int) -> list[int]:
    """The cell values of a solution of the full matrix (a digit per cell)."""
    values = [0] * (n * n)
    for r, c, d in solution:
        values[r * n + c] = d
    return values
