"""Shapes: the unit structure of a Sudoku variant.

A :class:`Shape` is data (its size, box and :class:`Unit` list), so standard
Sudoku, Sudoku-X, jigsaw and windoku need no special code.  What the package
derives from it (items and :class:`Placement` labels of every cell and digit,
peers, the units the techniques scan, ...) is in one :class:`~.tables.Tables`
per shape (:mod:`problems.sudoku.tables`), built on first use and kept on it.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Hashable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any

from .errors import SudokuError, SudokuFormatError, _shown, whole
from .tables import Placement, Tables, Unit

__all__ = ["SIZES", "MAX_SIZE", "Placement", "Unit", "Shape"]

#: Grid sizes with a default box shape (rows x columns of one box).
SIZES: dict[int, tuple[int, int]] = {
    4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4), 25: (5, 5),
}
_SIZE_OF_COUNT = {n * n: n for n in SIZES}

#: The largest grid (N x N) a :class:`Shape` may have: 64x64, boxes up to 8x8.  Its
#: tables take about a second to build (0.7 s here) and its full matrix 262,144
#: options; a box or size beyond it is refused at once, before anything is built
#: (a 300x300 box would make a 90,000-row grid and run out of memory).
MAX_SIZE = 64
_COUNTS_TEXT = "16, 36, 81, 144, 256 or 625"


class Shape:
    """The unit structure of a Sudoku variant: its size, box shape and units.

    Every unit is a :class:`Unit`; a unit of N cells holds every digit exactly
    once, a smaller one every digit at most once.  Build shapes with
    :meth:`standard`, :meth:`diagonal` (Sudoku-X), :meth:`jigsaw` or
    :meth:`extend`; the tables derived from it are made once and kept (:meth:`tables`).

    >>> Shape.standard(6).box
    (2, 3)
    >>> [u.title for u in Shape.diagonal(9).units[27:]]
    ['main diagonal', 'anti-diagonal']
    >>> jig = Shape.jigsaw('''AABB
    ...                       AABB
    ...                       CCDD
    ...                       CCDD''')
    >>> jig == Shape.standard(4), jig.box
    (False, None)
    """

    __slots__ = ("size", "box", "units", "name", "_key", "_hash", "_tables")

    size: int
    box: tuple[int, int] | None
    units: tuple[Unit, ...]
    name: str
    _key: tuple[Any, ...]
    _hash: int
    _tables: Tables | None

    def __init__(self, size: int, units: Iterable[Unit | tuple[Any, ...]],
                 box: tuple[int, int] | None = None, name: str = "custom") -> None:
        whole(size, "size", low=1, high=MAX_SIZE)
        if box is not None:
            box = _check_box(box, size)
        seen: set[tuple[str, int]] = set()
        out = [_checked_unit(u, size, seen) for u in units]
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "box", box)
        object.__setattr__(self, "units", tuple(out))
        object.__setattr__(self, "name", name)
        key = (size, box, tuple((u.kind, u.number, u.cells) for u in out))
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))
        object.__setattr__(self, "_tables", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Shape is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # The cached standard shapes stay shared (with their tables) across pickling.
        if self.box is not None and self.name in ("standard", "diagonal"):
            make = _standard_shape if self.name == "standard" else _diagonal_shape
            if make(self.size, self.box) == self:
                return (make, (self.size, self.box))
        return (Shape, (self.size, self.units, self.box, self.name))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Shape):
            return NotImplemented
        return bool(self._hash == other._hash and self._key == other._key)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        box = "" if self.box is None else f", box={self.box}"
        return f"<Shape {self.name} {self.size}x{self.size}{box}, {len(self.units)} units>"

    def tables(self) -> Tables:
        """The tables the package derives from this shape (:mod:`problems.sudoku.tables`):
        made on first use and kept, each of its tables built when first read."""
        t = self._tables
        if t is None:
            t = Tables(self.size, self.units)
            object.__setattr__(self, "_tables", t)
        return t

    @staticmethod
    def standard(size: int = 9, box: tuple[int, int] | None = None) -> Shape:
        """Rows, columns and boxes; ``box=(rows, cols)`` overrides the default box shape.

        Shapes are cached: the same arguments give the same object (and tables).
        """
        return _standard_shape(size, _default_box(size, box))

    @staticmethod
    def diagonal(size: int = 9, box: tuple[int, int] | None = None) -> Shape:
        """Sudoku-X: the standard units plus both main diagonals."""
        return _diagonal_shape(size, _default_box(size, box))

    @staticmethod
    def jigsaw(regions: str | Sequence[Any], *, diagonals: bool = False) -> Shape:
        """Rows, columns and irregular regions given as a grid of region ids.

        ``regions`` is text (one character per cell, whitespace ignored) or a flat or
        nested sequence of hashable ids; every region must have N cells.
        """
        if isinstance(regions, str) or all(isinstance(row, str) for row in regions):
            ids: list[Hashable] = [ch for ch in "".join(regions) if not ch.isspace()]
        else:
            ids = list(_flatten(regions))
        if len(ids) > MAX_SIZE ** 2:
            raise SudokuFormatError(f"a jigsaw region grid has at most {MAX_SIZE ** 2:,} cells"
                                    f" ({MAX_SIZE}x{MAX_SIZE}), found {len(ids):,}")
        n = math.isqrt(len(ids))
        if n * n != len(ids) or n == 0:
            raise SudokuFormatError(f"a jigsaw region grid needs N*N cells, found {len(ids)}")
        cells = _region_cells(ids, n)
        units = _standard_units(n, None, boxes=False)
        units += [Unit("box", k, tuple(c), f"region {k + 1}") for k, c in enumerate(cells)]
        if diagonals:
            units += _diagonal_units(n)
        return Shape(n, units, None, "jigsaw")

    def extend(self, cell_groups: Iterable[Iterable[tuple[int, int]]],
               name: str | None = None) -> Shape:
        """This shape plus extra units (items ``("unit", k, d)``), e.g. windoku windows."""
        k0 = 1 + max((u.number for u in self.units if u.kind == "unit"), default=-1)
        extra = [Unit("unit", k0 + k, tuple(cells)) for k, cells in enumerate(cell_groups)]
        return Shape(self.size, self.units + tuple(extra), self.box, name or self.name)


def _checked_unit(u: Unit | tuple[Any, ...], size: int, seen: set[tuple[str, int]]) -> Unit:
    """``u`` as a Unit with int cells and a title, checked against the grid and ``seen``."""
    unit = u if isinstance(u, Unit) else Unit(*u)
    kind, number = unit.kind, unit.number
    if (kind, number) in seen:
        raise SudokuError(f"unit {kind!r} {number} is defined twice")
    seen.add((kind, number))
    cells = tuple((int(r), int(c)) for r, c in unit.cells)
    if len(set(cells)) != len(cells):
        raise SudokuError(f"unit {kind!r} {number} names a cell twice")
    if len(cells) > size:
        raise SudokuError(f"unit {kind!r} {number} has {len(cells)} cells, more than {size}")
    for r, c in cells:
        if not (0 <= r < size and 0 <= c < size):
            raise SudokuError(f"unit {kind!r} {number}: cell {(r, c)} is off the grid")
    title = unit.title or f"{kind} {number + 1}"
    return Unit(kind, number, cells, title)


def _region_cells(ids: list[Hashable], n: int) -> list[list[tuple[int, int]]]:
    """The cells of each region of a jigsaw, in order of first appearance; N of N each."""
    number: dict[Hashable, int] = {}
    cells: list[list[tuple[int, int]]] = []
    for i, rid in enumerate(ids):
        try:
            k = number.setdefault(rid, len(number))
        except TypeError:
            raise SudokuFormatError(f"region id {rid!r} is not hashable") from None
        if k == len(cells):
            cells.append([])
        cells[k].append(divmod(i, n))
    if len(cells) != n or any(len(c) != n for c in cells):
        sizes = ", ".join(f"{rid!r}: {len(cells[k])}" for rid, k in number.items())
        raise SudokuFormatError(
            f"a {n}x{n} jigsaw needs {n} regions of {n} cells each; found {sizes}")
    return cells


@cache
def _standard_shape(size: int, box: tuple[int, int]) -> Shape:
    return Shape(size, _standard_units(size, box), box, "standard")


@cache
def _diagonal_shape(n: int, box: tuple[int, int]) -> Shape:
    return Shape(n, _standard_units(n, box) + _diagonal_units(n), box, "diagonal")


def _diagonal_units(n: int) -> list[Unit]:
    return [Unit("unit", 0, tuple((k, k) for k in range(n)), "main diagonal"),
            Unit("unit", 1, tuple((k, n - 1 - k) for k in range(n)), "anti-diagonal")]


def _check_box(box: Any, size: int | None) -> tuple[int, int]:
    """``box`` as ``(rows, cols)``, whole numbers from 1 whose product is ``size`` (if
    given) and at most :data:`MAX_SIZE`; else :class:`SudokuError` saying why.

    >>> _check_box((3, 4), 12), _check_box([2, 2], None)
    ((3, 4), (2, 2))
    >>> try:
    ...     _check_box((300, 300), None)
    ... except SudokuError as e:
    ...     print(e)
    box 300x300 makes a 90000x90000 grid; the largest grid is 64x64
    """
    try:
        if isinstance(box, (str, bytes)) or len(box) != 2 or \
                any(isinstance(v, bool) for v in box):
            raise TypeError
        r, c = (operator.index(v) for v in box)
    except (TypeError, ValueError):
        shown = repr(box) if len(repr(box)) <= 40 else repr(box)[:37] + "..."
        raise SudokuError(f"box must be a pair (rows, cols) of whole numbers, not {shown}"
                          ) from None
    if r < 1 or c < 1:
        raise SudokuError(f"box must be a pair (rows, cols) of whole numbers from 1 up, not"
                          f" ({_shown(r)}, {_shown(c)})")
    if r * c > MAX_SIZE:
        what = f"box {r}x{c} makes a {r * c}x{r * c} grid" if r * c < 10**9 else \
            f"a box of {_shown(r)} rows and {_shown(c)} columns is too large"
        raise SudokuError(f"{what}; the largest grid is {MAX_SIZE}x{MAX_SIZE}")
    if size is not None and r * c != size:
        raise SudokuError(f"box {r}x{c} does not fit a {size}x{size} grid")
    return (r, c)


def _default_box(size: int, box: tuple[int, int] | None) -> tuple[int, int]:
    whole(size, "size", low=1, high=MAX_SIZE)
    if box is not None:
        return _check_box(box, size)
    if size in SIZES:
        return SIZES[size]
    raise SudokuError(f"no default box shape for a {size}x{size} grid; pass box=(rows, cols)")


def _check_shape(shape: Any) -> None:
    """Raise :class:`SudokuError` unless ``shape`` is a :class:`Shape` or None."""
    if shape is not None and not isinstance(shape, Shape):
        raise SudokuError(f"shape must be a sudoku.Shape or None, not {_shown(shape)}")


def _expected_size(shape: Shape | None, box: tuple[int, int] | None) -> int | None:
    """The grid size that ``shape`` or ``box`` fixes, or None when the cells must tell."""
    _check_shape(shape)
    if shape is not None:
        return shape.size
    if box is not None:
        br, bc = _check_box(box, None)
        return br * bc
    return None


def _standard_units(n: int, box: tuple[int, int] | None, boxes: bool = True) -> list[Unit]:
    units = [Unit("row", r, tuple((r, c) for c in range(n)), f"row {r + 1}") for r in range(n)]
    units += [Unit("col", c, tuple((r, c) for r in range(n)), f"column {c + 1}")
              for c in range(n)]
    if boxes:
        br, bc = _default_box(n, box)
        per_band = n // bc
        for b in range(n):
            r0, c0 = (b // per_band) * br, (b % per_band) * bc
            cells = tuple((r0 + i, c0 + j) for i in range(br) for j in range(bc))
            units.append(Unit("box", b, cells, f"box {b + 1}"))
    return units


def _flatten(values: Sequence[Any]) -> Iterator[Any]:
    for v in values:
        if isinstance(v, (list, tuple)) or (isinstance(v, Sequence) and not isinstance(v, str)):
            yield from v
        else:
            yield v
