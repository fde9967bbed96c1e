"""Sudoku as exact cover: every size, Sudoku-X and jigsaw, verdicts, weighted scores.

An N x N Sudoku is an exact-cover problem with one option (row of the matrix)
``Placement(row, col, digit)`` per candidate and one item (column) per rule: a
digit in every cell ``("cell", r, c)``, every digit once in every row
``("row", r, d)``, column ``("col", c, d)`` and box ``("box", b, d)``, plus
``("unit", k, d)`` for extra units such as the diagonals of Sudoku-X.  Rows,
columns and digits are numbered from 0, 0 and 1.  The unit structure is data
(a :class:`Shape`), so Sudoku-X and jigsaw need no special code.

>>> from problems import sudoku
>>> puzzle = sudoku.Grid.parse(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> print(sudoku.solve(puzzle).pretty())
4 8 3 | 9 2 1 | 6 5 7
9 6 7 | 3 4 5 | 8 2 1
2 5 1 | 8 7 6 | 4 9 3
------+-------+------
5 4 8 | 1 3 2 | 9 7 6
7 2 9 | 5 6 4 | 1 3 8
1 3 6 | 7 9 8 | 2 4 5
------+-------+------
3 7 2 | 6 8 9 | 5 1 4
8 1 4 | 2 5 3 | 7 6 9
6 9 5 | 4 1 7 | 3 8 2
>>> sudoku.classify(puzzle)
<Verdict.UNIQUE: 'Unique'>
>>> sudoku.count("." * 16)              # the empty 4x4 grid
288
>>> print(sudoku.classify("11" + "." * 79))
Illegal
>>> for clash in sudoku.explain("11" + "." * 79):
...     print(clash)
digit 1 appears twice in row 1 (r1c1, r1c2)
digit 1 appears twice in box 1 (r1c1, r1c2)

The NOIP 2009 "target Sudoku" score (weights 6 on the outer ring up to 10 in the
centre) of the best completion, found by branch and bound:

>>> sudoku.max_score('''
... 7 0 0 9 0 0 0 0 1
... 1 0 0 0 0 5 9 0 0
... 0 0 0 2 0 0 0 8 0
... 0 0 5 0 2 0 0 0 3
... 0 0 0 0 0 0 6 4 8
... 4 1 3 0 0 0 0 0 0
... 0 0 7 0 0 2 0 9 0
... 2 0 1 0 6 0 8 0 4
... 0 8 0 5 0 4 0 1 2''')
2829

Files of puzzles go faster through :func:`solve_lines`, :func:`batch`,
:func:`solve_many`, :func:`count_many` and :func:`classify_many`: with the
compiled core, each shape's full matrix is built once and the core places every
puzzle's givens itself (same answers and node counts as the functions above):

>>> solve_lines(["1..." "..3." ".4.." "...2", "11" + "." * 14])
['1324423124133142', None]

The exact-cover problem itself, for stepping through in a notebook:

>>> problem = sudoku.encode(puzzle)
>>> len(problem.primary), len(problem)
(324, 191)
>>> import dlx
>>> sudoku.decode(dlx.first(problem)) == sudoku.solve(puzzle)
True
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from enum import Enum
from functools import cache
from typing import IO, Any, NamedTuple, Union

import dlx
from dlx import engine as _dlx_engine
from dlx.errors import ExactCoverError

__all__ = [
    "Placement", "Unit", "Shape", "Grid", "Verdict", "Clash", "Entry", "SudokuFormatError",
    "encode", "decode", "solve", "solutions", "count", "classify", "explain", "is_legal",
    "max_score", "score", "target_weights", "as_grid", "read_puzzles", "SIZES",
    "Outcome", "batch", "solve_lines", "solve_many", "count_many", "classify_many",
]

#: Grid sizes with a default box shape (rows x columns of one box).
SIZES: dict[int, tuple[int, int]] = {
    4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4), 25: (5, 5),
}
_SIZE_OF_COUNT = {n * n: n for n in SIZES}
_COUNTS_TEXT = "16, 36, 81, 144, 256 or 625"

# Digits in the one-character notation: "." and "0" are blanks, "1"-"9" then "A"...
_CHAR_VALUE: dict[str, int] = {".": 0, "0": 0}
_CHAR_VALUE.update({str(d): d for d in range(1, 10)})
for _k in range(26):
    _CHAR_VALUE[chr(ord("A") + _k)] = 10 + _k
    _CHAR_VALUE[chr(ord("a") + _k)] = 10 + _k
_VALUE_CHAR = ".123456789" + "".join(chr(ord("A") + k) for k in range(26))
_RULE_CHARS = frozenset("-+=|")


class SudokuFormatError(ExactCoverError):
    """A puzzle could not be read: ``line`` and ``column`` (1-based) say where, if known.

    It is a :class:`ValueError` (through :class:`dlx.ExactCoverError`).

    >>> try:
    ...     Grid.parse("1234x" + "." * 76)
    ... except SudokuFormatError as e:
    ...     print(e)
    line 1, column 5: unexpected character 'x' (a 9x9 grid uses 1-9; blank . or 0)
    """

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        if line is None:
            where = ""
        elif column is None:
            where = f"line {line}: "
        else:
            where = f"line {line}, column {column}: "
        super().__init__(where + reason)


# --------------------------------------------------------------------------- labels and units


class Placement(NamedTuple):
    """Option label: ``digit`` (1..N) in the cell at ``row``, ``col`` (0-based)."""

    row: int
    col: int
    digit: int


class Unit(NamedTuple):
    """A set of cells that holds each digit at most once (exactly once when it has N cells).

    ``kind`` and ``number`` name its items ``(kind, number, digit)``; ``cells`` are
    ``(row, col)`` pairs; ``title`` is for people ("row 1", "main diagonal").
    """

    kind: str
    number: int
    cells: tuple[tuple[int, int], ...]
    title: str = ""


class _Tables:
    """Per-shape tables, built once: items and labels of every (cell, digit)."""

    __slots__ = ("n", "primary", "secondary", "labels", "items", "unit_items", "unit_cells",
                 "families", "core")

    def __init__(self, shape: Shape) -> None:
        n = shape.size
        self.n = n
        self.core: dict[str, Any] = {}   # engine -> batch solver (_core_table), built on use
        ncells = n * n
        units_of: list[list[tuple[str, int]]] = [[] for _ in range(ncells)]
        primary: list[Hashable] = [("cell", r, c) for r in range(n) for c in range(n)]
        secondary: list[Hashable] = []
        for unit in shape.units:
            for r, c in unit.cells:
                units_of[r * n + c].append((unit.kind, unit.number))
            names = [(unit.kind, unit.number, d) for d in range(1, n + 1)]
            (primary if len(unit.cells) == n else secondary).extend(names)
        self.primary: tuple[Hashable, ...] = tuple(primary)
        self.secondary: tuple[Hashable, ...] = tuple(secondary)
        # labels[i][d], items[i][d] (cell item first), unit_items[i][d]; index 0 unused
        self.labels: list[list[Placement]] = []
        self.items: list[list[tuple[Hashable, ...]]] = []
        self.unit_items: list[list[tuple[Hashable, ...]]] = []
        for i in range(ncells):
            r, c = divmod(i, n)
            cell = ("cell", r, c)
            lab: list[Placement] = [Placement(r, c, 0)]
            its: list[tuple[Hashable, ...]] = [()]
            uits: list[tuple[Hashable, ...]] = [()]
            for d in range(1, n + 1):
                u = tuple((kind, idx, d) for kind, idx in units_of[i])
                lab.append(Placement(r, c, d))
                its.append((cell, *u))
                uits.append(u)
            self.labels.append(lab)
            self.items.append(its)
            self.unit_items.append(uits)
        self.unit_cells: list[tuple[int, ...]] = [
            tuple(r * n + c for r, c in unit.cells) for unit in shape.units
        ]
        # Families of full units that split the grid into parts (rows, columns, boxes):
        # kind -> cell index -> unit index.  The scoring bound works per family.
        by_kind: dict[str, list[Unit]] = {}
        for unit in shape.units:
            by_kind.setdefault(unit.kind, []).append(unit)
        self.families: dict[str, dict[int, int]] = {}
        for kind, units in by_kind.items():
            owner: dict[int, int] = {}
            if all(len(x.cells) == n for x in units) and len(units) == n:
                for x in units:
                    for r, c in x.cells:
                        owner[r * n + c] = x.number
                if len(owner) == ncells and sorted({x.number for x in units}) == list(range(n)):
                    self.families[kind] = owner


class Shape:
    """The unit structure of a Sudoku variant: its size, box shape and units.

    Every unit is a :class:`Unit`; a unit of N cells holds every digit exactly
    once, a smaller one every digit at most once.  Build shapes with
    :meth:`standard`, :meth:`diagonal` (Sudoku-X), :meth:`jigsaw` or
    :meth:`extend`; the per-shape encoding tables are computed once and cached.

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
    _tables: _Tables | None

    def __init__(self, size: int, units: Iterable[Unit | tuple[Any, ...]],
                 box: tuple[int, int] | None = None, name: str = "custom") -> None:
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 64:
            raise ValueError(f"size must be a whole number from 1 to 64, not {size!r}")
        if box is not None:
            box = _check_box(box, size)
        out: list[Unit] = []
        seen: set[tuple[str, int]] = set()
        for u in units:
            unit = u if isinstance(u, Unit) else Unit(*u)
            kind, number = unit.kind, unit.number
            if (kind, number) in seen:
                raise ValueError(f"unit {kind!r} {number} is defined twice")
            seen.add((kind, number))
            cells = tuple((int(r), int(c)) for r, c in unit.cells)
            if len(set(cells)) != len(cells):
                raise ValueError(f"unit {kind!r} {number} names a cell twice")
            if len(cells) > size:
                raise ValueError(f"unit {kind!r} {number} has {len(cells)} cells, more than {size}")
            for r, c in cells:
                if not (0 <= r < size and 0 <= c < size):
                    raise ValueError(f"unit {kind!r} {number}: cell {(r, c)} is off the grid")
            title = unit.title or f"{kind} {number + 1}"
            out.append(Unit(kind, number, cells, title))
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

    def tables(self) -> _Tables:
        """The encoding tables of this shape (built on first use, then cached)."""
        t = self._tables
        if t is None:
            t = _Tables(self)
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
        n = math.isqrt(len(ids))
        if n * n != len(ids) or n == 0:
            raise SudokuFormatError(f"a jigsaw region grid needs N*N cells, found {len(ids)}")
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
        units = _standard_units(n, None, boxes=False)
        units += [Unit("box", k, tuple(c), f"region {k + 1}") for k, c in enumerate(cells)]
        if diagonals:
            units += [Unit("unit", 0, tuple((k, k) for k in range(n)), "main diagonal"),
                      Unit("unit", 1, tuple((k, n - 1 - k) for k in range(n)), "anti-diagonal")]
        return Shape(n, units, None, "jigsaw")

    def extend(self, cell_groups: Iterable[Iterable[tuple[int, int]]],
               name: str | None = None) -> Shape:
        """This shape plus extra units (items ``("unit", k, d)``), e.g. windoku windows."""
        k0 = 1 + max((u.number for u in self.units if u.kind == "unit"), default=-1)
        extra = [Unit("unit", k0 + k, tuple(cells)) for k, cells in enumerate(cell_groups)]
        return Shape(self.size, self.units + tuple(extra), self.box, name or self.name)


@cache
def _standard_shape(size: int, box: tuple[int, int]) -> Shape:
    return Shape(size, _standard_units(size, box), box, "standard")


@cache
def _diagonal_shape(n: int, box: tuple[int, int]) -> Shape:
    diagonals = [
        Unit("unit", 0, tuple((k, k) for k in range(n)), "main diagonal"),
        Unit("unit", 1, tuple((k, n - 1 - k) for k in range(n)), "anti-diagonal"),
    ]
    return Shape(n, _standard_units(n, box) + diagonals, box, "diagonal")


def _check_box(box: Any, size: int | None) -> tuple[int, int]:
    try:
        r, c = (operator.index(v) for v in box)
    except (TypeError, ValueError):
        raise ValueError(f"box must be a pair (rows, cols) of whole numbers, not {box!r}") from None
    if r < 1 or c < 1 or (size is not None and r * c != size):
        raise ValueError(f"box {r}x{c} does not fit a {size}x{size} grid")
    return (r, c)


def _default_box(size: int, box: tuple[int, int] | None) -> tuple[int, int]:
    if box is not None:
        return _check_box(box, size)
    if size in SIZES:
        return SIZES[size]
    raise ValueError(f"no default box shape for a {size}x{size} grid; pass box=(rows, cols)")


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


# --------------------------------------------------------------------------- the grid


def _flatten(values: Sequence[Any]) -> Iterator[Any]:
    for v in values:
        if isinstance(v, (list, tuple)) or (isinstance(v, Sequence) and not isinstance(v, str)):
            yield from v
        else:
            yield v


class Grid:
    """An immutable N x N Sudoku grid: ``values`` row-major, 0 for a blank.

    Build one from a flat or nested sequence of ints, or from text with
    :meth:`parse` (``Grid(text)`` parses too).  ``str(grid)`` is the one-line
    notation, :meth:`pretty` a multi-line rendering, and the grid is a rich
    renderable with the givens in bold.

    >>> g = Grid([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]])
    >>> g
    Grid('1.....3..4.....2')
    >>> g.size, g.box, g[1, 2], g.values[:4]
    (4, (2, 2), 3, (1, 0, 0, 0))
    >>> print(g.pretty())
    1 . | . .
    . . | 3 .
    ----+----
    . 4 | . .
    . . | . 2
    """

    __slots__ = ("_values", "_shape", "_givens")

    _values: tuple[int, ...]
    _shape: Shape
    _givens: tuple[bool, ...] | None

    def __init__(self, values: str | Sequence[Any], box: tuple[int, int] | None = None, *,
                 shape: Shape | None = None, givens: Iterable[bool] | None = None) -> None:
        if isinstance(values, str):
            g = Grid.parse(values, box, shape=shape)
            vals, shp = g._values, g._shape
        elif isinstance(values, Grid):
            vals, shp = _values_from_sequence(values.values, box, shape or values.shape)
        else:
            vals, shp = _values_from_sequence(values, box, shape)
        object.__setattr__(self, "_values", vals)
        object.__setattr__(self, "_shape", shp)
        gv = None if givens is None else tuple(bool(x) for x in givens)
        if gv is not None and len(gv) != len(vals):
            raise ValueError(f"givens has {len(gv)} entries for {len(vals)} cells")
        object.__setattr__(self, "_givens", gv)

    @classmethod
    def _make(cls, values: tuple[int, ...], shape: Shape,
              givens: tuple[bool, ...] | None = None) -> Grid:
        g = object.__new__(cls)
        object.__setattr__(g, "_values", values)
        object.__setattr__(g, "_shape", shape)
        object.__setattr__(g, "_givens", givens)
        return g

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Grid is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Grid._make, (self._values, self._shape, self._givens))

    @classmethod
    def parse(cls, text: str, box: tuple[int, int] | None = None, *,
              shape: Shape | None = None) -> Grid:
        """Read a puzzle in any common notation; the size follows from the number of cells.

        Accepted: 81 (16, 36, 144, 256, 625) characters on one line with ``.`` or ``0``
        for blanks; one line per row, with or without spaces; pretty grids with
        ``|``, ``-``, ``+`` rules; ``.sdk`` files (``#`` lines are skipped); for
        sizes above 9, ``1``-``9`` then ``A`` for 10 and up, or space-separated
        numbers.  Anything else raises :class:`SudokuFormatError` naming the line
        and column.

        >>> Grid.parse('''
        ... 0 0 3 | 0
        ... 4 0 0 | 0
        ... ------+--
        ... 0 0 0 | 2
        ... 0 1 0 | 0''')
        Grid('..3.4......2.1..')
        >>> Grid.parse(" ".join(["16"] + ["0"] * 255)).size
        16
        """
        if not isinstance(text, str):
            raise SudokuFormatError(f"expected text, got {type(text).__name__}")
        return _parse_lines(list(enumerate(text.splitlines(), 1)), box, shape)

    # -- views
    @property
    def values(self) -> tuple[int, ...]:
        """The cells row by row; 0 is a blank."""
        return self._values

    @property
    def size(self) -> int:
        """N, the number of rows (and columns, and digits)."""
        return self._shape.size

    @property
    def box(self) -> tuple[int, int] | None:
        """Rows and columns of one box, or None for a jigsaw."""
        return self._shape.box

    @property
    def shape(self) -> Shape:
        """The unit structure (standard, diagonal, jigsaw, ...)."""
        return self._shape

    @property
    def givens(self) -> tuple[bool, ...]:
        """Which cells were given in the puzzle (for a parsed puzzle: the filled ones)."""
        if self._givens is not None:
            return self._givens
        return tuple(v != 0 for v in self._values)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The values as a tuple of rows."""
        n = self.size
        v = self._values
        return tuple(v[r * n:(r + 1) * n] for r in range(n))

    @property
    def clues(self) -> int:
        """How many cells are filled."""
        return sum(1 for v in self._values if v)

    def is_complete(self) -> bool:
        """True when no cell is blank."""
        return 0 not in self._values

    def __getitem__(self, rc: tuple[int, int]) -> int:
        r, c = rc
        n = self.size
        if not (0 <= r < n and 0 <= c < n):
            raise IndexError(f"cell {rc!r} is off the {n}x{n} grid")
        return self._values[r * n + c]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self._values == other._values and self._shape == other._shape

    def __hash__(self) -> int:
        return hash((self._values, self._shape))

    def __str__(self) -> str:
        if self.size <= 35:
            return "".join(_VALUE_CHAR[v] for v in self._values)
        return " ".join(map(str, self._values))

    def __repr__(self) -> str:
        shape = self._shape
        standard = shape.size in SIZES and shape == Shape.standard(shape.size)
        extra = "" if standard else f", shape={shape!r}"
        return f"Grid({str(self)!r}{extra})"

    def _cell_texts(self) -> list[str]:
        if self.size <= 35:
            return [_VALUE_CHAR[v] for v in self._values]
        width = len(str(self.size))
        return [(str(v) if v else ".").rjust(width) for v in self._values]

    def pretty(self) -> str:
        """Multi-line rendering with box rules (no rules for a jigsaw)."""
        return "\n".join(line for line, _ in self._pretty_lines())

    def _pretty_lines(self) -> list[tuple[str, list[tuple[int, int, int]]]]:
        """Lines of :meth:`pretty`, each with the (start, end, cell) spans of its cells."""
        n = self.size
        texts = self._cell_texts()
        box = self.box
        br, bc = box if box is not None else (n, n)
        out: list[tuple[str, list[tuple[int, int, int]]]] = []
        rule = ""
        for r in range(n):
            if r and r % br == 0:
                out.append((rule, []))
            parts: list[str] = []
            spans: list[tuple[int, int, int]] = []
            pos = 0
            for c in range(n):
                if c and c % bc == 0:
                    parts.append("| ")
                    pos += 2
                t = texts[r * n + c]
                spans.append((pos, pos + len(t), r * n + c))
                parts.append(t + (" " if c < n - 1 else ""))
                pos += len(t) + 1
            line = "".join(parts)
            if not rule:
                rule = "".join("+" if ch == "|" else "-" for ch in line)
            out.append((line, spans))
        return out

    def __rich__(self) -> Any:
        """A rich ``Text`` of :meth:`pretty` with the givens in bold."""
        from rich.text import Text

        givens = self.givens
        text = Text()
        for k, (line, spans) in enumerate(self._pretty_lines()):
            if k:
                text.append("\n")
            start = len(text)
            text.append(line, style="dim" if not spans else "")
            for a, b, cell in spans:
                if self._values[cell] == 0:
                    text.stylize("dim", start + a, start + b)
                elif givens[cell]:
                    text.stylize("bold", start + a, start + b)
        return text


def _values_from_sequence(values: Sequence[Any], box: tuple[int, int] | None,
                          shape: Shape | None) -> tuple[tuple[int, ...], Shape]:
    try:
        items = list(values)
    except TypeError:
        raise SudokuFormatError(
            f"expected a sequence of ints or text, got {type(values).__name__}") from None
    nested = bool(items) and not isinstance(items[0], int) and hasattr(items[0], "__len__") \
        and not isinstance(items[0], str)
    if nested:
        flat: list[Any] = []
        for r, row in enumerate(items):
            if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
                raise SudokuFormatError(f"row {r + 1} is not a sequence of ints: {row!r}")
            row_values = list(row)
            if len(row_values) != len(items):
                raise SudokuFormatError(
                    f"row {r + 1} has {len(row_values)} cells; a {len(items)}x{len(items)} grid"
                    f" needs {len(items)}")
            flat.extend(row_values)
        items = flat
    count = len(items)
    if shape is not None:
        n = shape.size
    elif box is not None:
        br, bc = _check_box(box, None)
        n = br * bc
    else:
        n = _SIZE_OF_COUNT.get(count, 0)
        if not n:
            raise SudokuFormatError(
                f"found {count} cells; a puzzle has {_COUNTS_TEXT} (or pass box=)")
    if count != n * n:
        raise SudokuFormatError(f"found {count} cells; a {n}x{n} puzzle has {n * n}")
    out: list[int] = []
    for k, v in enumerate(items):
        if isinstance(v, bool):
            raise SudokuFormatError(f"cell {_cell_name(k, n)}: expected an int, got {v!r}")
        try:
            x = operator.index(v)
        except TypeError:
            raise SudokuFormatError(
                f"cell {_cell_name(k, n)}: expected an int, got {v!r}") from None
        if not 0 <= x <= n:
            raise SudokuFormatError(f"cell {_cell_name(k, n)}: value {x} is outside 0..{n}")
        out.append(x)
    if shape is None:
        shape = Shape.standard(n, box)
    return tuple(out), shape


def _cell_name(k: int, n: int) -> str:
    r, c = divmod(k, n)
    return f"r{r + 1}c{c + 1}"


def _is_rule(line: str) -> bool:
    """A separator line of a pretty grid: only ``- + = |`` and spaces, and some dash."""
    s = line.strip()
    return bool(s) and all(ch in _RULE_CHARS or ch.isspace() for ch in s) \
        and any(ch in "-=+" for ch in s)


def _tokens(line: str) -> list[tuple[int, str]]:
    """Whitespace-separated tokens of a content line (``|`` counts as space), with columns."""
    out: list[tuple[int, str]] = []
    start = -1
    for k, ch in enumerate(line):
        if ch.isspace() or ch == "|":
            if start >= 0:
                out.append((start, line[start:k]))
                start = -1
        elif start < 0:
            start = k
    if start >= 0:
        out.append((start, line[start:]))
    return out


def _numbers_mode(tokens: list[str], expect: int | None) -> bool:
    """Read the tokens as space-separated numbers (rather than one character per cell)?"""
    if all(len(t) == 1 for t in tokens) or not all(t.isascii() and t.isdigit() for t in tokens):
        return False
    n_tok, n_chr = len(tokens), sum(len(t) for t in tokens)
    if expect is not None:
        if n_tok == expect * expect:
            return True
        return n_chr != expect * expect and max(len(t) for t in tokens) <= 2
    tok_n, chr_n = _SIZE_OF_COUNT.get(n_tok, 0), _SIZE_OF_COUNT.get(n_chr, 0)
    if tok_n and max(_small_int(t) for t in tokens) <= tok_n:
        return True
    if chr_n:
        return False
    return max(len(t) for t in tokens) <= 2


def _small_int(token: str) -> int:
    """The value of a digit string, capped (so a huge one costs nothing)."""
    return int(token) if len(token) <= 6 else 10**7


def _parse_lines(lines: list[tuple[int, str]], box: tuple[int, int] | None,
                 shape: Shape | None) -> Grid:
    """Parse numbered lines into a Grid (the work behind :meth:`Grid.parse`)."""
    content: list[tuple[int, list[tuple[int, str]]]] = []
    for lineno, line in lines:
        s = line.strip()
        if not s or s.startswith("#") or _is_rule(line):
            continue
        content.append((lineno, _tokens(line)))
    if not content:
        last = lines[-1][0] if lines else 1
        raise SudokuFormatError("no puzzle found (empty input)", last)
    expect = _expected_size(shape, box)
    numbers = _numbers_mode([t for _, toks in content for _, t in toks], expect)
    # cells: (value text, line, column, value or None); per-line cell counts
    cells: list[tuple[int, int, int]] = []   # (value, line, column)
    shown: dict[tuple[int, int], str] = {}   # (line, column) -> the text of a cell
    per_line: list[tuple[int, int]] = []
    for lineno, toks in content:
        before = len(cells)
        for col, tok in toks:
            if numbers:
                if not (tok.isascii() and tok.isdigit()):
                    raise SudokuFormatError(f"expected a number, found {tok!r}", lineno, col + 1)
                if len(tok) > 6:
                    raise SudokuFormatError(f"number {tok[:8]}... is too large", lineno, col + 1)
                cells.append((int(tok), lineno, col + 1))
                shown[lineno, col + 1] = tok
            else:
                for k, ch in enumerate(tok):
                    v = _CHAR_VALUE.get(ch)
                    if v is None:
                        if not ch.isascii():
                            why = f"non-ASCII character {ch!r} (U+{ord(ch):04X})"
                        elif ch.isprintable():
                            why = f"unexpected character {ch!r}"
                        else:
                            why = f"unexpected control character {ch!r}"
                        raise SudokuFormatError(why, lineno, col + k + 1)
                    cells.append((v, lineno, col + k + 1))
                    shown[lineno, col + k + 1] = ch
        per_line.append((lineno, len(cells) - before))
    total = len(cells)
    n = expect if expect is not None else _SIZE_OF_COUNT.get(total, 0)
    if not n or total != n * n:
        _raise_count(total, per_line, n)
    for v, lineno, col in cells:
        if v > n:
            text = shown[lineno, col]
            blank = "blank . or 0"
            if numbers:
                why = f"value {v} is out of range for a {n}x{n} grid (1-{n}; blank 0)"
            elif n <= 9 and text.isalpha():
                why = f"unexpected character {text!r} (a {n}x{n} grid uses 1-{n}; {blank})"
            else:
                top = str(n) if n <= 9 else f"9 then A-{_VALUE_CHAR[n]}"
                why = f"{text!r} ({v}) is out of range for a {n}x{n} grid (1-{top}; {blank})"
            raise SudokuFormatError(why, lineno, col)
    if shape is None:
        try:
            shape = Shape.standard(n, box)
        except ValueError as e:
            raise SudokuFormatError(str(e)) from None
    return Grid._make(tuple(v for v, _, _ in cells), shape)


def _raise_count(total: int, per_line: list[tuple[int, int]], n: int) -> None:
    rows = len(per_line)
    if rows > 1:
        width = n or (rows if rows in SIZES else 0)
        if width:
            for lineno, k in per_line:
                if k != width:
                    raise SudokuFormatError(
                        f"row has {k} cells; a {width}x{width} grid needs {width} per row", lineno)
            if rows != width:
                raise SudokuFormatError(
                    f"found {rows} rows; a {width}x{width} grid needs {width}", per_line[-1][0])
    expected = f"a {n}x{n} puzzle has {n * n}" if n else f"a puzzle has {_COUNTS_TEXT}"
    raise SudokuFormatError(f"found {total} cells; {expected}", per_line[-1][0])


PuzzleLike = Union[Grid, str, Sequence[Any]]  # noqa: UP007 - a runtime alias on 3.10


def as_grid(puzzle: PuzzleLike, box: tuple[int, int] | None = None,
            shape: Shape | None = None) -> Grid:
    """A :class:`Grid` from a Grid, text, or a flat or nested sequence of ints.

    >>> as_grid([0] * 16).size
    4
    """
    if isinstance(puzzle, Grid):
        if (shape is not None and shape != puzzle.shape) or \
                (box is not None and tuple(box) != puzzle.box):
            return Grid(puzzle.values, box, shape=shape)
        return puzzle
    if isinstance(puzzle, str):
        return Grid.parse(puzzle, box, shape=shape)
    return Grid(puzzle, box, shape=shape)


# --------------------------------------------------------------------------- encoding


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


def _encode(g: Grid, cell_order: Sequence[int] | None = None, descending: bool = False,
            item_order: Sequence[int] | None = None) -> dlx.ExactCover:
    """The problem of ``g``: options of cells in ``cell_order`` (digits descending if asked),
    and the cell items in ``item_order`` (the heuristic breaks ties by item order)."""
    t = g.shape.tables()
    n = t.n
    values = g.values
    unit_items = t.unit_items
    used: set[Hashable] = set()
    for i, v in enumerate(values):
        if v:
            used.update(unit_items[i][v])
    digits = range(n, 0, -1) if descending else range(1, n + 1)
    opts: dict[Hashable, tuple[Hashable, ...]] = {}
    isdisjoint = used.isdisjoint
    for i in (range(n * n) if cell_order is None else cell_order):
        v = values[i]
        labels, items = t.labels[i], t.items[i]
        if v:
            opts[labels[v]] = items[v]
        else:
            uits = unit_items[i]
            for d in digits:
                if isdisjoint(uits[d]):
                    opts[labels[d]] = items[d]
    primary = t.primary
    if item_order is not None:
        primary = tuple(primary[i] for i in item_order) + primary[n * n:]
    return dlx.ExactCover(opts, secondary=t.secondary, primary=primary)


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


# --------------------------------------------------------------------------- solving


class Verdict(str, Enum):
    """The UVA 10957 verdicts on a puzzle."""

    ILLEGAL = "Illegal"        # the givens already break a rule
    UNIQUE = "Unique"          # exactly one solution
    AMBIGUOUS = "Ambiguous"    # two or more solutions
    IMPOSSIBLE = "Impossible"  # legal givens, no solution

    def __str__(self) -> str:
        return self.value


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


def _with_givens(solved: Grid, puzzle: Grid) -> Grid:
    return Grid._make(solved.values, puzzle.shape, puzzle.givens)


def solve(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None, shape: Shape | None = None,
          max_nodes: int | None = None, stats: dlx.Stats | None = None) -> Grid | None:
    """The first solution, or None when there is none (it need not be unique).

    >>> print(solve("1..." "..3." ".4.." "...2"))
    1324423124133142
    >>> solve("11" + "." * 14) is None
    True
    """
    g = as_grid(puzzle, box, shape)
    if not _legal(g):
        return None
    sol = dlx.first(_encode(g), max_nodes=max_nodes, stats=stats)
    return None if sol is None else _with_givens(decode(sol, shape=g.shape), g)


def solutions(puzzle: PuzzleLike, limit: int | None = None, *,
              box: tuple[int, int] | None = None, shape: Shape | None = None,
              max_nodes: int | None = None, stats: dlx.Stats | None = None) -> Iterator[Grid]:
    """Every solution as a Grid, lazily (at most ``limit``).

    >>> [str(s) for s in solutions("12.." "34.." "...." "....", limit=2)]
    ['1234341221434321', '1234341223414123']
    """
    g = as_grid(puzzle, box, shape)
    if not _legal(g):
        return
    for sol in dlx.solutions(_encode(g), limit=limit, max_nodes=max_nodes, stats=stats):
        yield _with_givens(decode(sol, shape=g.shape), g)


def count(puzzle: PuzzleLike, limit: int | None = None, *,
          box: tuple[int, int] | None = None, shape: Shape | None = None,
          max_nodes: int | None = None, stats: dlx.Stats | None = None) -> int:
    """How many solutions (stopping at ``limit``); 0 for an illegal puzzle.

    >>> count("1..." "..3." ".4.." "...."), count("." * 81, limit=5)
    (3, 5)
    """
    g = as_grid(puzzle, box, shape)
    if not _legal(g):
        return 0
    return dlx.count(_encode(g), limit=limit, max_nodes=max_nodes, stats=stats)


def classify(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
             shape: Shape | None = None, max_nodes: int | None = None,
             stats: dlx.Stats | None = None) -> Verdict:
    """Illegal (givens clash), Impossible (no solution), Unique, or Ambiguous.

    The search stops at the second solution.

    >>> [classify(p).value for p in ("1..." "..3." ".4.." "...2", "." * 16, "11" + "." * 14)]
    ['Unique', 'Ambiguous', 'Illegal']
    """
    g = as_grid(puzzle, box, shape)
    if not _legal(g):
        return Verdict.ILLEGAL
    found = dlx.count(_encode(g), limit=2, max_nodes=max_nodes, stats=stats)
    return (Verdict.IMPOSSIBLE, Verdict.UNIQUE, Verdict.AMBIGUOUS)[found]


# --------------------------------------------------------------------------- target scores


def target_weights(size: int = 9) -> tuple[int, ...]:
    """The NOIP 2009 target weights, row-major: N+1 in the centre, one less per ring.

    For 9x9: 6 on the outer ring, then 7, 8, 9, and 10 in the centre cell.

    >>> w = target_weights(9)
    >>> w[:9], w[40]
    ((6, 6, 6, 6, 6, 6, 6, 6, 6), 10)
    """
    n = size
    return tuple(n + 1 - max(abs(2 * r - (n - 1)), abs(2 * c - (n - 1))) // 2
                 for r in range(n) for c in range(n))


def _weights(weights: Sequence[Any] | None, n: int) -> tuple[Any, ...]:
    if weights is None:
        return target_weights(n)
    flat = tuple(_flatten(weights))
    if len(flat) != n * n:
        raise ValueError(f"weights has {len(flat)} entries; a {n}x{n} grid needs {n * n}")
    for w in flat:
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
            raise ValueError(f"weight {w!r} is not a finite number")
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


def _score_bound(g: Grid, w: tuple[Any, ...], iterations: int = 400
                 ) -> Callable[[Any], Any] | None:
    """An upper bound on the score still to come, for ``dlx.best(bound=...)``.

    Rows, columns and boxes each split the grid into units whose open cells take
    the unit's missing digits, one each.  Split every cell's weight into three
    shares, one per family (``w = a_row + a_col + a_box``): then the score is the
    sum over the families of share x digit, and within one unit, share x digit
    summed over its cells is at most the sorted shares times the sorted missing
    digits (the rearrangement inequality).  So the sum of those sorted products
    over all units of all families bounds the rest of the score, for any split.

    The split is tuned once, on the puzzle, by subgradient steps (a Lagrangian
    relaxation; 400 steps take about 60 ms for 9x9).  For the empty 9x9 grid the
    bound comes out at 2906.98, i.e. 2906, its true maximum, where rows alone
    give 2980.  Each node then only sums sorted products over its open cells.
    Sound for any weights (negative too) and any shape whose rows, columns or
    regions split the grid; None for a shape with no such family.
    """
    t = g.shape.tables()
    n = t.n
    ncells = n * n
    fams = list(t.families.values())
    k = len(fams)
    if not k:
        return None
    values = g.values
    open_cells = [i for i in range(ncells) if not values[i]]
    # The root problem: per family and unit, its open cells and missing digits.
    units: list[list[tuple[list[int], list[int]]]] = []
    for owner in fams:
        cells_of: list[list[int]] = [[] for _ in range(n)]
        present: list[set[int]] = [set() for _ in range(n)]
        for i in range(ncells):
            (present[owner[i]].add(values[i]) if values[i] else cells_of[owner[i]].append(i))
        units.append([(cells_of[u], [d for d in range(n, 0, -1) if d not in present[u]])
                      for u in range(n)])
    share = [{i: w[i] / k for i in open_cells} for _ in range(k)]
    best_total = math.inf
    best_share = share
    for step in range(iterations):
        total = 0.0
        grad: list[dict[int, int]] = [{} for _ in range(k)]
        for f in range(k):
            a, gf = share[f], grad[f]
            for cells, digits in units[f]:
                for i, d in zip(sorted(cells, key=a.__getitem__, reverse=True), digits,
                                strict=True):
                    total += a[i] * d
                    gf[i] = d
        if total < best_total:
            best_total, best_share = total, [dict(a) for a in share]
        size = 0.1 / math.sqrt(1 + step)
        for i in open_cells:
            mean = sum(grad[f][i] for f in range(k)) / k
            for f in range(k):
                share[f][i] -= size * (grad[f][i] - mean)
    # Per family and unit: its cells in decreasing share, with their shares.
    ordered: list[tuple[tuple[int, float], ...]] = []   # index f * n + u
    for f in range(k):
        a = best_share[f]
        ordered.extend(tuple((i, a[i]) for i in sorted(cells, key=a.__getitem__, reverse=True))
                       for cells, _ in units[f])
    # item -> (slot, x): a cell is (-1, cell index); a digit of unit u of family f is
    # (f * n + u, 1 << digit), to be or-ed into the mask of missing digits of that slot.
    code: dict[Hashable, tuple[int, int]] = {("cell", *divmod(i, n)): (-1, i)
                                             for i in range(ncells)}
    for f, kind in enumerate(t.families):
        for u in range(n):
            for d in range(1, n + 1):
                code[(kind, u, d)] = (f * n + u, 1 << d)
    slots_of = [tuple(f * n + fams[f][i] for f in range(k)) for i in range(ncells)]
    if n <= 12:
        table = [tuple(d for d in range(n, 0, -1) if m >> d & 1) for m in range(2 << n)]
        digits_of: Callable[[int], tuple[int, ...]] = table.__getitem__
    else:
        def digits_of(m: int) -> tuple[int, ...]:
            return tuple(d for d in range(n, 0, -1) if m >> d & 1)
    mul = operator.mul
    slack = 1e-6 * (1 + sum(abs(x) for x in w) * n)
    no_code = (-2, 0)   # items of other kinds (diagonals): not used by the bound

    def bound(state: Any) -> Any:
        is_open = [False] * ncells
        missing = [0] * (k * n)
        total = slack
        get = code.get
        for item in state.items():
            slot, x = get(item, no_code)
            if slot >= 0:
                missing[slot] |= x
            elif slot == -1:
                v = values[x]
                if v:  # a given not yet placed: its score is known
                    total += w[x] * v
                    for s in slots_of[x]:
                        missing[s] &= ~(1 << v)
                else:
                    is_open[x] = True
        for m, cells in zip(missing, ordered, strict=True):
            if m:
                total += sum(map(mul, [a for i, a in cells if is_open[i]], digits_of(m)))
        return total

    return bound


def max_score(puzzle: PuzzleLike, weights: Sequence[Any] | None = None, *,
              box: tuple[int, int] | None = None, shape: Shape | None = None,
              max_nodes: int | None = None,
              stats: dlx.Stats | None = None) -> int | float | None:
    """The best total of weight x digit over all solutions (NOIP 2009 "target Sudoku").

    ``weights`` is a flat or nested N x N sequence of numbers (ints give an int);
    by default :func:`target_weights`.  None when there is no solution.

    Branch and bound with :func:`dlx.best`, not enumeration: the bound splits
    each cell's weight between its row, column and box and applies the
    rearrangement inequality per unit (see ``_score_bound``).  On 80 NOIP-like
    puzzles with 22 givens (up to hundreds of thousands of solutions) this took
    0.4 s on average and 2 s at worst, 61,000 nodes, in pure Python; with 24
    givens 0.16 s and 0.9 s.  The empty grid (maximum 2906) is still out of reach.

    >>> max_score("1..." "..3." ".4.." "...2", weights=[1] * 16)
    40
    >>> max_score("11" + "." * 79) is None
    True
    """
    g = as_grid(puzzle, box, shape)
    n = g.size
    w = _weights(weights, n)
    if not _legal(g):
        return None
    # Options: heaviest cells and largest digits first, so the first dive is good.
    # Items: lightest cells first (the outer ring for the target weights): on 80
    # NOIP-like puzzles with 22 givens this took the mean node count from 18,600
    # to 10,700 and the worst from 90,000 to 61,000 (heaviest first was worse).
    heavy_first = sorted(range(n * n), key=lambda i: -w[i])
    light_first = sorted(range(n * n), key=lambda i: w[i])
    problem = _encode(g, cell_order=heavy_first, descending=True, item_order=light_first)

    def weight(p: Placement) -> Any:
        return w[p.row * n + p.col] * p.digit

    result = dlx.best(problem, weight, maximize=True, bound=_score_bound(g, w),
                      max_nodes=max_nodes, stats=stats)
    return None if result is None else result[0]


# --------------------------------------------------------------------------- many puzzles at once


class Outcome(NamedTuple):
    """What :func:`batch` found for one puzzle.

    ``legal`` is False when the givens put a digit twice in a unit (the puzzle is
    :attr:`Verdict.ILLEGAL`, nothing is searched and ``found`` is 0). ``found`` is
    the number of solutions found, at most the limit, or None when ``max_nodes``
    ran out. ``solution`` is the first solution in the one-line notation (``str``
    of its :class:`Grid`), None when there is none. ``nodes`` is what
    :class:`dlx.Stats` says for :func:`count` on the same puzzle with the same
    limit, and ``seconds`` the time spent on this puzzle.
    """

    legal: bool
    found: int | None
    solution: str | None
    nodes: int
    seconds: float

    @property
    def verdict(self) -> Verdict | None:
        """The verdict, when the search went to a limit of 2 or more (None: budget)."""
        if not self.legal:
            return Verdict.ILLEGAL
        if self.found is None:
            return None
        return (Verdict.IMPOSSIBLE, Verdict.UNIQUE, Verdict.AMBIGUOUS)[min(self.found, 2)]


_CLASH, _OUT_OF_BUDGET = -1, -2     # the core's codes besides counts
# Byte of a one-line notation -> cell value (255: not a cell character).
_CELL_OF_BYTE = bytes(_CHAR_VALUE.get(chr(b), 255) for b in range(256))
# Cell value -> byte of the one-line notation.
_BYTE_OF_VALUE = bytes(ord(_VALUE_CHAR[v]) if v < len(_VALUE_CHAR) else 0 for v in range(256))


class _Group:
    """The puzzles of one shape in a batch: where they came from, their cells as bytes."""

    __slots__ = ("shape", "index", "texts", "extra", "blob", "codes", "nodes", "solutions",
                 "seconds")

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.index: list[int] = []           # batch positions of texts, then of extra
        self.texts: list[str] = []           # one-line puzzles, exactly N*N characters
        self.extra: list[tuple[int, bytes]] = []
        self.blob = b""
        self.codes: list[int] = []           # per puzzle: count, _CLASH or _OUT_OF_BUDGET
        self.nodes: list[int] = []
        self.solutions = b""                 # the first solution of each (else its givens)
        self.seconds: list[float] = []


def _core_table(shape: Shape, engine: str | None = None) -> Any:
    """The batch solver of ``shape`` (the full matrix) on the engine ``engine`` selects:
    the core's ``GridTable`` or the pure ``dlx.grid.GridBatch``, built once per shape."""
    t = shape.tables()
    kind = "c" if _dlx_engine.select(engine) else "python"
    core = t.core.get(kind)
    if core is None:
        n = t.n
        options: dict[Hashable, tuple[Hashable, ...]] = {
            t.labels[i][d]: t.items[i][d] for i in range(n * n) for d in range(1, n + 1)}
        full = dlx.ExactCover(options, secondary=t.secondary, primary=t.primary)

        def cell_digit(p: Any) -> tuple[int, int]:
            return p.row * n + p.col, p.digit

        core = t.core[kind] = _dlx_engine.grid_table(full, n, cell_digit, kind)
    return core


def _expected_size(shape: Shape | None, box: tuple[int, int] | None) -> int | None:
    """The grid size that ``shape`` or ``box`` fixes, or None when the cells must tell."""
    if shape is not None:
        return shape.size
    if box is not None:
        br, bc = _check_box(box, None)
        return br * bc
    return None


def _group_puzzles(puzzles: Iterable[PuzzleLike], box: tuple[int, int] | None,
                   shape: Shape | None) -> tuple[int, list[_Group]]:
    """Sort the puzzles by shape, with one-line text taking a fast path (no Grid)."""
    expect = _expected_size(shape, box)
    groups: dict[Shape, _Group] = {}
    by_size: dict[int, _Group] = {}         # fast path: text of N*N characters
    total = 0
    for k, p in enumerate(puzzles):
        total = k + 1
        if isinstance(p, str):
            s = p.strip()
            size = len(s)
            n = expect if expect is not None else _SIZE_OF_COUNT.get(size, 0)
            if n and size == n * n and n <= 35:
                group = by_size.get(n)
                if group is None:
                    sh = shape if shape is not None else _standard_of(n, box, k)
                    group = by_size[n] = groups.setdefault(sh, _Group(sh))
                group.texts.append(s)
                group.index.append(k)
                continue
        g = _grid_of(p, box, shape, k)
        group = groups.setdefault(g.shape, _Group(g.shape))
        group.extra.append((k, bytes(g.values)))
    # Texts with a character that is not a cell of their size: the parser decides
    # (it raises the error naming the puzzle, or reads another notation).
    for group in list(groups.values()):
        n = group.shape.size
        blob = "".join(group.texts).encode("ascii", "replace").translate(_CELL_OF_BYTE)
        valid = bytes(range(n + 1))
        if blob.translate(None, valid):
            m = n * n
            keep = [j for j in range(len(group.texts))
                    if not blob[j * m:(j + 1) * m].translate(None, valid)]
            for j in sorted(set(range(len(group.texts))) - set(keep)):
                k = group.index[j]
                g = _grid_of(group.texts[j], box, shape, k)
                groups.setdefault(g.shape, _Group(g.shape)).extra.append((k, bytes(g.values)))
            group.texts = [group.texts[j] for j in keep]
            group.index = [group.index[j] for j in keep]
            blob = b"".join(blob[j * m:(j + 1) * m] for j in keep)
        group.blob = blob
    for group in groups.values():
        group.index += [k for k, _ in group.extra]
        group.blob += b"".join(b for _, b in group.extra)
    return total, list(groups.values())


def _standard_of(n: int, box: tuple[int, int] | None, k: int) -> Shape:
    try:
        return Shape.standard(n, box)
    except ValueError as e:
        raise SudokuFormatError(f"puzzle {k + 1}: {e}") from None


def _grid_of(p: PuzzleLike, box: tuple[int, int] | None, shape: Shape | None, k: int) -> Grid:
    try:
        return as_grid(p, box, shape)
    except SudokuFormatError as e:
        raise SudokuFormatError(f"puzzle {k + 1}: {e}") from None
    except ValueError as e:
        raise SudokuFormatError(f"puzzle {k + 1}: {e}") from None


def _run_groups(groups: list[_Group], limit: int | None, max_nodes: int | None,
                engine: str | None) -> None:
    """Solve every group on its prepared matrix (the core's, or the pure engine's)."""
    lim = -1 if limit is None else limit
    budget = -1 if max_nodes is None or max_nodes >= 1 << 62 else max_nodes
    for group in groups:
        if group.shape.size <= 255:
            core = _core_table(group.shape, engine)
            group.codes, group.nodes, group.solutions, group.seconds = core.batch(
                group.blob, limit=lim, max_nodes=budget)
        else:
            _run_pure(group, limit, max_nodes, engine)


def _run_pure(group: _Group, limit: int | None, max_nodes: int | None,
              engine: str | None) -> None:
    """The per-puzzle path (grids too big for the byte-per-cell batch): :func:`count`'s."""
    shape = group.shape
    m = shape.size * shape.size
    out = bytearray(group.blob)
    clock = time.perf_counter
    for j in range(len(group.blob) // m):
        start = clock()
        g = Grid._make(tuple(group.blob[j * m:(j + 1) * m]), shape)
        code, nodes = _CLASH, 0
        if _legal(g):
            stats = dlx.Stats()
            code = 0
            try:
                for sol in dlx.solutions(_encode(g), limit=limit, max_nodes=max_nodes,
                                         stats=stats, engine=engine):
                    code += 1
                    if code == 1:
                        out[j * m:(j + 1) * m] = bytes(decode(sol, shape=shape).values)
            except dlx.BudgetExceeded:
                code = _OUT_OF_BUDGET
            nodes = stats.nodes
        group.codes.append(code)
        group.nodes.append(nodes)
        group.seconds.append(clock() - start)
    group.solutions = bytes(out)


def _solution_texts(group: _Group, unique: bool = False) -> list[str | None]:
    """The first solution of each puzzle of the group in the one-line notation, or None."""
    n = group.shape.size
    m = n * n
    codes = group.codes
    if n <= 35:
        text = group.solutions.translate(_BYTE_OF_VALUE).decode("ascii")
        if unique:
            return [text[j * m:(j + 1) * m] if c == 1 else None for j, c in enumerate(codes)]
        return [text[j * m:(j + 1) * m] if c > 0 else None for j, c in enumerate(codes)]
    sols = group.solutions
    return [" ".join(map(str, sols[j * m:(j + 1) * m])) if c > 0 and (c == 1 or not unique)
            else None for j, c in enumerate(codes)]


def batch(puzzles: Iterable[PuzzleLike], limit: int | None = 1, *,
          box: tuple[int, int] | None = None, shape: Shape | None = None,
          max_nodes: int | None = None, engine: str | None = None) -> list[Outcome]:
    """Search many puzzles at once: an :class:`Outcome` per puzzle, in order.

    The fast path for files of puzzles: the full exact-cover matrix of each shape
    is built once, and every puzzle's givens are placed on it before its search
    (up to ``limit`` solutions; None: all); no per-puzzle encoding.  With the
    compiled core (``engine`` "auto" or "c", as in :mod:`dlx.engine`) that all
    happens in C (``GridTable``); on the pure engine, :class:`dlx.grid.GridBatch`
    copies the links, places the givens and runs the pure search.  One-line text
    puzzles are read without making a :class:`Grid`.

    The results are those of the per-puzzle functions: the solutions of
    :func:`encode`'s problem, the first one being :func:`solve`'s (the core's
    search meets them in the same order), and the same node counts and budgets
    (``max_nodes`` applies to each puzzle). Why they agree: once the core has
    chosen the givens' options, what is left is exactly :func:`encode`'s problem
    minus the givens' forced options, in the same order; the core counts those
    forced choices as nodes where the per-puzzle search would make them (see
    ``GridTable`` in ``dlx/_core.c`` and :mod:`dlx.grid`). Illegal givens are caught there too: a
    given whose option an earlier given has already removed shares a unit and
    digit with it, which is exactly what :func:`is_legal` rejects.

    A malformed puzzle raises :class:`SudokuFormatError` naming it ("puzzle 3:
    ...") before any search.

    >>> [o.found for o in batch(["1..." "..3." ".4.." "...2", "." * 16, "11" + "." * 14], 2)]
    [1, 2, 0]
    >>> batch(["1..." "..3." ".4.." "...2"])[0].solution
    '1324423124133142'
    >>> batch(["11" + "." * 14])[0].verdict
    <Verdict.ILLEGAL: 'Illegal'>
    """
    _check_limit(limit)
    total, groups = _group_puzzles(puzzles, box, shape)
    _run_groups(groups, limit, max_nodes, engine)
    out: list[Outcome] = [None] * total   # type: ignore[list-item]
    for group in groups:
        texts = _solution_texts(group)
        for k, code, nodes, text, secs in zip(group.index, group.codes, group.nodes, texts,
                                              group.seconds, strict=True):
            out[k] = Outcome(code != _CLASH, None if code == _OUT_OF_BUDGET else max(code, 0),
                             text, nodes, secs)
    return out


def _check_limit(limit: int | None) -> None:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise ValueError(f"limit must be a positive whole number or None, not {limit!r}")


def _budget_check(groups: list[_Group], max_nodes: int | None, answers: list[Any]) -> None:
    """Raise BudgetExceeded (``found``: the answers, None where unknown) if a budget ran out."""
    if any(c == _OUT_OF_BUDGET for group in groups for c in group.codes):
        raise dlx.BudgetExceeded(max_nodes or 0, answers)


def solve_lines(lines: Iterable[str], *, unique: bool = False,
                box: tuple[int, int] | None = None, shape: Shape | None = None,
                max_nodes: int | None = None, engine: str | None = None) -> list[str | None]:
    """The solved line of each one-line puzzle, or None: the fastest way through a file.

    No :class:`Grid` is made for a clean one-line puzzle. With ``unique=True`` the
    search looks for a second solution and a puzzle without exactly one gives
    None. Raises :class:`SudokuFormatError` for a malformed line (its number among
    ``lines``, from 1) and :class:`dlx.BudgetExceeded` when ``max_nodes`` runs out
    on some puzzle (``found`` then holds the answers, None for that one).

    >>> solve_lines(["1..." "..3." ".4.." "...2", "11" + "." * 14, "." * 16])
    ['1324423124133142', None, '1234341221434321']
    >>> solve_lines(["." * 16], unique=True)
    [None]
    """
    total, groups = _group_puzzles(lines, box, shape)
    _run_groups(groups, 2 if unique else 1, max_nodes, engine)
    out: list[str | None] = [None] * total
    for group in groups:
        for k, text in zip(group.index, _solution_texts(group, unique), strict=True):
            out[k] = text
    _budget_check(groups, max_nodes, out)
    return out


def solve_many(puzzles: Iterable[PuzzleLike], *, box: tuple[int, int] | None = None,
               shape: Shape | None = None, max_nodes: int | None = None,
               engine: str | None = None) -> list[Grid | None]:
    """:func:`solve` for many puzzles (see :func:`batch`): a Grid or None for each.

    >>> [str(g) for g in solve_many(["1..." "..3." ".4.." "...2", [0] * 16])]
    ['1324423124133142', '1234341221434321']
    """
    total, groups = _group_puzzles(puzzles, box, shape)
    _run_groups(groups, 1, max_nodes, engine)
    out: list[Grid | None] = [None] * total
    for group in groups:
        m = group.shape.size ** 2
        blob, sols = group.blob, group.solutions
        for j, (k, code) in enumerate(zip(group.index, group.codes, strict=True)):
            if code > 0:
                givens = tuple(v != 0 for v in blob[j * m:(j + 1) * m])
                out[k] = Grid._make(tuple(sols[j * m:(j + 1) * m]), group.shape, givens)
    _budget_check(groups, max_nodes, out)
    return out


def count_many(puzzles: Iterable[PuzzleLike], limit: int | None = None, *,
               box: tuple[int, int] | None = None, shape: Shape | None = None,
               max_nodes: int | None = None, engine: str | None = None) -> list[int]:
    """:func:`count` for many puzzles (see :func:`batch`); 0 for an illegal one.

    >>> count_many(["." * 16, "1..." "..3." ".4.." "...."], limit=100)
    [100, 3]
    """
    _check_limit(limit)
    total, groups = _group_puzzles(puzzles, box, shape)
    _run_groups(groups, limit, max_nodes, engine)
    out: list[int] = [0] * total
    for group in groups:
        for k, code in zip(group.index, group.codes, strict=True):
            out[k] = max(code, 0)
    _budget_check(groups, max_nodes,
                  [None if c == _OUT_OF_BUDGET else max(c, 0) for c in _in_order(groups, total)])
    return out


def _in_order(groups: list[_Group], total: int) -> list[int]:
    codes = [0] * total
    for group in groups:
        for k, code in zip(group.index, group.codes, strict=True):
            codes[k] = code
    return codes


def classify_many(puzzles: Iterable[PuzzleLike], *, box: tuple[int, int] | None = None,
                  shape: Shape | None = None, max_nodes: int | None = None,
                  engine: str | None = None) -> list[Verdict]:
    """:func:`classify` for many puzzles (see :func:`batch`).

    >>> [v.value for v in classify_many(["1..." "..3." ".4.." "...2", "." * 16, "11" + "." * 14])]
    ['Unique', 'Ambiguous', 'Illegal']
    """
    total, groups = _group_puzzles(puzzles, box, shape)
    _run_groups(groups, 2, max_nodes, engine)
    verdicts = (Verdict.IMPOSSIBLE, Verdict.UNIQUE, Verdict.AMBIGUOUS)
    codes = _in_order(groups, total)
    out = [Verdict.ILLEGAL if c == _CLASH else verdicts[min(c, 2)] for c in codes]
    _budget_check(groups, max_nodes,
                  [None if c == _OUT_OF_BUDGET else v for c, v in zip(codes, out, strict=True)])
    return out


# --------------------------------------------------------------------------- batches


class Entry(NamedTuple):
    """One puzzle of a batch: the line it starts on, its text, and a Grid or the error."""

    line: int
    text: str
    grid: Grid | None
    error: SudokuFormatError | None


#: The longest line :func:`read_puzzles` reads whole (longer ones are reported, not stored).
MAX_LINE = 1 << 16


def _numbered_lines(source: IO[str] | Iterable[str]) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, too long?) with a length cap when reading a file."""
    readline = getattr(source, "readline", None)
    if readline is None:
        for k, line in enumerate(source, 1):  # type: ignore[arg-type]
            yield k, line[:MAX_LINE], len(line) > MAX_LINE
        return
    k = 0
    while True:
        line = readline(MAX_LINE)
        if not line:
            return
        k += 1
        long = len(line) >= MAX_LINE and not line.endswith("\n")
        if long:  # skip the rest of the line without storing it
            while True:
                rest = readline(MAX_LINE)
                if not rest or rest.endswith("\n"):
                    break
        yield k, line, long


def _line_cells(s: str) -> int:
    toks = [t for _, t in _tokens(s)]
    if _numbers_mode(toks, None):
        return len(toks)
    return sum(len(t) for t in toks)


def read_puzzles(source: IO[str] | Iterable[str] | str, *, box: tuple[int, int] | None = None,
                 shape: Shape | None = None) -> Iterator[Entry]:
    """Puzzles of a batch: one per line, or grids of N lines separated by blank lines.

    Blank lines and ``#`` comments are skipped, and a line ``end`` ends the input
    (the AcWing 166 judge format).  A malformed puzzle gives an Entry with the
    error (its line number included); reading goes on with the next puzzle.
    A 16-character line is a 4x4 puzzle unless ``box``/``shape`` say 16x16.

    >>> text = '''# two puzzles
    ... 1.....3..4.....2
    ... 1 0 0 0
    ... 0 0 3 0
    ... 0 4 0 0
    ... 0 0 0 2
    ... end
    ... 1234'''
    >>> [(e.line, str(e.grid)) for e in read_puzzles(text)]
    [(2, '1.....3..4.....2'), (3, '1.....3..4.....2')]
    """
    if isinstance(source, str):
        source = source.splitlines(keepends=True)
    expect = _expected_size(shape, box)
    shapes: dict[int, Shape] = {}   # size -> standard shape, for one-line puzzles
    block: list[tuple[int, str]] = []
    want = 0      # rows the current block needs
    have = 0      # content rows in it so far

    def finish() -> Entry:
        text = "\n".join(line for _, line in block)
        try:
            return Entry(block[0][0], text, _parse_lines(block, box, shape), None)
        except SudokuFormatError as e:
            return Entry(block[0][0], text, None, e)
        except ValueError as e:
            return Entry(block[0][0], text, None, SudokuFormatError(str(e), block[0][0]))

    for lineno, raw, too_long in _numbered_lines(source):
        line = raw.rstrip("\r\n")
        s = line.strip()
        if too_long:
            if block:
                yield Entry(block[0][0], "\n".join(x for _, x in block), None, SudokuFormatError(
                    f"grid broken by an over-long line {lineno}", block[0][0]))
                block, have = [], 0
            yield Entry(lineno, s[:80], None,
                        SudokuFormatError(f"line longer than {MAX_LINE} characters", lineno))
            continue
        if s.lower() == "end":
            break
        if not s:
            if block:
                yield Entry(block[0][0], "\n".join(x for _, x in block), None, SudokuFormatError(
                    f"grid ends after {have} of {want} rows", block[0][0]))
                block, have = [], 0
            continue
        if s.startswith("#"):
            continue
        if _is_rule(line):
            if block:
                block.append((lineno, line))
            continue
        if block:
            block.append((lineno, line))
            have += 1
            if have == want:
                yield finish()
                block, have = [], 0
            continue
        # The common case first: one puzzle on one line, every character a cell.
        n = expect if expect is not None else _SIZE_OF_COUNT.get(len(s), 0)
        if n and len(s) == n * n and n <= 35:
            cells = s.encode("ascii", "replace").translate(_CELL_OF_BYTE)
            if not cells.translate(None, bytes(range(n + 1))):
                fast = shape if shape is not None else shapes.get(n)
                if fast is None:
                    try:
                        fast = shapes[n] = Shape.standard(n, box)
                    except ValueError:
                        fast = None
                if fast is not None:
                    yield Entry(lineno, line, Grid._make(tuple(cells), fast), None)
                    continue
        k = _line_cells(s)
        if expect is not None:
            one_line = k == expect * expect or k != expect
            rows = expect
        else:
            one_line = k in _SIZE_OF_COUNT or k not in SIZES
            rows = k
        if one_line or rows <= 1:
            block = [(lineno, line)]
            yield finish()
            block = []
        else:
            block, want, have = [(lineno, line)], rows, 1
    if block:
        yield Entry(block[0][0], "\n".join(x for _, x in block), None, SudokuFormatError(
            f"grid ends after {have} of {want} rows", block[0][0]))
