"""Domino tilings of a rows x cols board.

One option ``Domino(row, col, vertical)`` per way to lay a domino, with its top
left half on square (row, col), covers the two squares ``("cell", r, c)`` it
lies on; every square is a primary item.  The counts are OEIS A004003 for
square boards (Kasteleyn; Temperley and Fisher).

>>> from problems import dominoes
>>> dominoes.count(4, 4), dominoes.count(3, 3)
(36, 0)
>>> print(dominoes.render(dominoes.first(2, 3)))
<>^
<>v
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any, NamedTuple, cast

import dlx

__all__ = ["Domino", "encode", "decode", "solutions", "count", "first", "render",
           "is_tiling"]


class Domino(NamedTuple):
    """A domino on (row, col) and its right neighbour, or the square below if vertical."""

    row: int
    col: int
    vertical: bool

    @property
    def cells(self) -> tuple[tuple[int, int], tuple[int, int]]:
        r, c = self.row, self.col
        return (r, c), ((r + 1, c) if self.vertical else (r, c + 1))


def _size(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"the number of {what} must be a whole number >= 0, not {value!r}")
    return value


def encode(rows: int, cols: int) -> dlx.ExactCover:
    """The exact-cover problem of the domino tilings of a rows x cols board.

    >>> encode(2, 3)
    ExactCover(7 options, 6 primary items, 0 secondary items)
    """
    rows, cols = _size(rows, "rows"), _size(cols, "columns")
    options: dict[Hashable, list[Hashable]] = {}
    for r in range(rows):
        for c in range(cols):
            for d in (Domino(r, c, False), Domino(r, c, True)):
                (r2, c2) = d.cells[1]
                if r2 < rows and c2 < cols:
                    options[d] = [("cell", r, c), ("cell", r2, c2)]
    primary = [("cell", r, c) for r in range(rows) for c in range(cols)]
    return dlx.ExactCover(options, primary=primary)


def decode(solution: Iterable[Domino]) -> tuple[Domino, ...]:
    """The dominoes in reading order."""
    return tuple(sorted(solution))


def solutions(rows: int, cols: int, **search: Any) -> Iterator[tuple[Domino, ...]]:
    """Every tiling as a tuple of dominoes, lazily."""
    for sol in dlx.solutions(encode(rows, cols), **search):
        yield decode(cast("tuple[Domino, ...]", sol))


def count(rows: int, cols: int, **search: Any) -> int:
    """How many domino tilings the board has."""
    return dlx.count(encode(rows, cols), **search)


def first(rows: int, cols: int, **search: Any) -> tuple[Domino, ...] | None:
    """The first tiling found, or None."""
    return next(solutions(rows, cols, limit=1, **search), None)


def render(tiling: Iterable[Domino]) -> str:
    """The tiling as text: ``<>`` for a horizontal domino, ``^`` above ``v`` for a vertical one.

    >>> print(render([Domino(0, 0, False), Domino(1, 0, False)]))
    <>
    <>
    """
    marks: dict[tuple[int, int], str] = {}
    for d in tiling:
        a, b = d.cells
        marks[a], marks[b] = ("^", "v") if d.vertical else ("<", ">")
    if not marks:
        return ""
    rows = 1 + max(r for r, _ in marks)
    cols = 1 + max(c for _, c in marks)
    return "\n".join("".join(marks.get((r, c), ".") for c in range(cols)) for r in range(rows))


def is_tiling(tiling: Iterable[Domino], rows: int, cols: int) -> bool:
    """Independent check: the dominoes lie on the board and cover each square once.

    >>> is_tiling([Domino(0, 0, True), Domino(0, 1, True)], 2, 2)
    True
    """
    covered = [cell for d in tiling for cell in d.cells]
    board = {(r, c) for r in range(rows) for c in range(cols)}
    return len(covered) == len(board) and set(covered) == board
