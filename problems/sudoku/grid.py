"""The grid: an immutable N x N Sudoku grid, and :func:`as_grid` for every puzzle form."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Union, overload

from .errors import SudokuFormatError, _shown
from .notations import _CELL_OF_BYTE, _one_line, _parse_cells
from .render import _pretty, _rich_text
from .shapes import _COUNTS_TEXT, _SIZE_OF_COUNT, SIZES, Shape, _check_box, _check_shape

__all__ = ["Grid", "PuzzleLike", "as_grid"]


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

    A grid also reads as its text, the line it prints: it compares equal to
    exactly that line (blanks as ``.``; another notation of the same grid is
    other text: parse it), hashes as it does, and ``len``, ``in``, iteration,
    an index and a slice are those of the line.  ``grid[r, c]`` is the digit
    in a cell (an int), ``grid.values`` the digits.

    >>> g == "1.....3..4.....2", g != "1000003004000002"
    (True, True)
    >>> g[:4], g[4:8], len(g), "3." in g
    ('1...', '..3.', 16, True)
    >>> {g: "a puzzle"}["1.....3..4.....2"]
    'a puzzle'

    Two grids are equal when they have the same digits and the same shape, so
    a Sudoku-X grid and a standard grid of the same digits are not equal to each
    other, though each is equal to the line.  Above 35x35 the line is the cells'
    numbers with a space between them (``len`` counts its characters).
    """

    __slots__ = ("_values", "_shape", "_givens")

    _values: tuple[int, ...]
    _shape: Shape
    _givens: tuple[int, ...] | None     # true where given (the puzzle's values will do)

    def __init__(self, values: str | Sequence[Any], box: tuple[int, int] | None = None, *,
                 shape: Shape | None = None, givens: Iterable[bool] | None = None) -> None:
        _check_shape(shape)
        if box is not None:
            _check_box(box, None)
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
              givens: tuple[int, ...] | None = None) -> Grid:
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
        _check_shape(shape)
        if box is not None:
            _check_box(box, None)
        quick = _one_line_values(text, box, shape)
        if quick is not None:
            return cls._make(*quick)
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
        return tuple(map(bool, self._values if self._givens is None else self._givens))

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The values as a tuple of rows."""
        n = self.size
        v = self._values
        return tuple(v[r * n:(r + 1) * n] for r in range(n))

    @property
    def clues(self) -> int:
        """How many cells are filled."""
        return len(self._values) - self._values.count(0)

    def is_complete(self) -> bool:
        """True when no cell is blank."""
        return 0 not in self._values

    @overload
    def __getitem__(self, key: tuple[int, int]) -> int: ...

    @overload
    def __getitem__(self, key: int | slice) -> str: ...

    def __getitem__(self, key: tuple[int, int] | int | slice) -> int | str:
        """``grid[r, c]``: the digit in row r, column c (0-based; 0 blank).  ``grid[i]``
        and ``grid[i:j]``: that character or slice of the line (``str(grid)``)."""
        if not isinstance(key, tuple):
            if isinstance(key, (int, slice)):
                return str(self)[key]
            raise TypeError(f"a Grid is indexed by (row, col), an int or a slice of its line,"
                            f" not {type(key).__name__}")
        r, c = key
        n = self.size
        if not (0 <= r < n and 0 <= c < n):
            raise IndexError(f"cell {key!r} is off the {n}x{n} grid")
        return self._values[r * n + c]

    def __len__(self) -> int:
        """The length of the line (``str(grid)``): the number of cells up to 35x35."""
        return len(str(self))

    def __iter__(self) -> Iterator[str]:
        """The characters of the line (``str(grid)``)."""
        return iter(str(self))

    def __contains__(self, text: object) -> bool:
        """Is ``text`` part of the line (``str(grid)``)?"""
        if not isinstance(text, str):
            raise TypeError(f"'in <Grid>' looks for text in the grid's line, not"
                            f" {type(text).__name__} (the digits are grid.values)")
        return text in str(self)

    def __eq__(self, other: object) -> bool:
        """Equal to a grid of the same digits and shape, and to the line it prints."""
        if isinstance(other, str):
            return str(self) == other
        if not isinstance(other, Grid):
            return NotImplemented
        return self._values == other._values and self._shape == other._shape

    def __hash__(self) -> int:
        # that of the line, which the grid equals (grids of two shapes with the same
        # digits share it, and differ)
        return hash(str(self))

    def __str__(self) -> str:
        return _one_line(self._values, self.size)

    def __repr__(self) -> str:
        shape = self._shape
        standard = shape.size in SIZES and shape == Shape.standard(shape.size)
        extra = "" if standard else f", shape={shape!r}"
        return f"Grid({str(self)!r}{extra})"

    def pretty(self) -> str:
        """Multi-line rendering with box rules (no rules for a jigsaw)."""
        return _pretty(self._values, self.size, self.box)

    def __rich__(self) -> Any:
        """A rich ``Text`` of :meth:`pretty` with the givens in bold."""
        return _rich_text(self._values, self.size, self.box, self.givens)


def _one_line_values(text: str, box: tuple[int, int] | None,
                     shape: Shape | None) -> tuple[tuple[int, ...], Shape] | None:
    """The common case fast: one line of exactly N*N cell characters (N at most 35).
    None for anything else, which the full parser reads (or reports)."""
    s = text.strip()
    n = shape.size if shape is not None else _SIZE_OF_COUNT.get(len(s), 0)
    if not n or n > 35 or len(s) != n * n or not s.isascii() or (n == 16 and "0" in s):
        return None                         # (16x16 with 0s: the parser tells the notation)
    cells = s.encode("ascii").translate(_CELL_OF_BYTE)
    if cells.translate(None, bytes(range(n + 1))):
        return None                         # a character that is no cell of this size
    if shape is None:
        try:
            shape = Shape.standard(n, box)
        except ValueError:
            return None                     # the full parser says why
    elif box is not None and tuple(box) != shape.box:
        return None
    return tuple(cells), shape


def _parse_lines(lines: list[tuple[int, str]], box: tuple[int, int] | None,
                 shape: Shape | None) -> Grid:
    """Parse numbered lines into a Grid (the work behind :meth:`Grid.parse`)."""
    return Grid._make(*_parse_cells(lines, box, shape))


def _values_from_sequence(values: Sequence[Any], box: tuple[int, int] | None,
                          shape: Shape | None) -> tuple[tuple[int, ...], Shape]:
    """The cells of a board: a flat or nested sequence of ints, of one-character strings
    (``"5"``, ``"."``), of row strings, or an array with ``tolist()`` (numpy)."""
    rows = _board_rows(values)
    if rows is not None:
        return _values_from_text(rows, box, shape)
    items = _flat_items(values)
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
    out = [_cell_value(k, v, n) for k, v in enumerate(items)]
    if shape is None:
        shape = Shape.standard(n, box)
    return tuple(out), shape


def _listed(values: Any) -> list[Any]:
    """``values`` as a list: an array's ``tolist()`` (numpy, never imported here), or
    ``list(values)``."""
    tolist = getattr(values, "tolist", None)
    if callable(tolist) and not isinstance(values, (list, tuple)):
        values = tolist()
        if not isinstance(values, list):
            raise SudokuFormatError("expected a board, got a single value")
    try:
        return list(values)
    except TypeError:
        raise SudokuFormatError(
            f"expected a sequence of ints or text, got {type(values).__name__}") from None


def _board_rows(values: Sequence[Any]) -> list[str] | None:
    """A board with text in it as lines of text for the parser (None: a board of ints).

    Row strings (``"53..7...."``) are lines as they are; one-character strings
    (``"5"``, ``"."``) in a flat list make one line; rows of cells (strings, or ints
    beside strings) become lines of space-separated cells.
    """
    items = _listed(values)
    if items and all(isinstance(x, str) for x in items):
        if all(len(x) == 1 for x in items):
            return ["".join(items)]
        return items
    if not items or isinstance(items[0], (str, bytes, int)) or \
            not hasattr(items[0], "__iter__"):
        return None
    rows = [_listed(row) if not isinstance(row, (str, bytes)) else [row] for row in items]
    if not any(isinstance(v, str) for row in rows for v in row):
        return None
    cells = [[_cell_text(v, r, c) for c, v in enumerate(row)] for r, row in enumerate(rows)]
    if any(len(t) > 1 for row in cells for t in row):      # numbers: blanks are 0
        cells = [["0" if t == "." else t for t in row] for row in cells]
    return [" ".join(row) for row in cells]


def _cell_text(v: Any, r: int, c: int) -> str:
    """A board cell as text: ``"5"``, ``"."`` for an empty string, ``"12"`` for the int 12."""
    if isinstance(v, str):
        t = v.strip() or "."
        if len(t.split()) == 1:
            return t
    elif isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    raise SudokuFormatError(f"cell r{r + 1}c{c + 1}: expected a digit, '.' or an int, got"
                            f" {v!r}")


def _values_from_text(rows: list[str], box: tuple[int, int] | None,
                      shape: Shape | None) -> tuple[tuple[int, ...], Shape]:
    """Parse the lines of a board (:func:`_board_rows`); errors name the row."""
    lines = list(enumerate(rows, 1))
    try:
        return _parse_cells(lines, box, shape)
    except SudokuFormatError as e:
        if len(rows) == 1 or e.line is None:
            raise
        raise SudokuFormatError(f"row {e.line}: {e.reason}") from None


def _flat_items(values: Sequence[Any]) -> list[Any]:
    """The cells of a flat sequence, or of a nested one (rows of equal length, checked)."""
    items = _listed(values)
    nested = bool(items) and not isinstance(items[0], int) and hasattr(items[0], "__len__") \
        and not isinstance(items[0], str)
    if not nested:
        return items
    flat: list[Any] = []
    for r, row in enumerate(items):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
            raise SudokuFormatError(f"row {r + 1} is not a sequence of ints: {row!r}")
        row_values = _listed(row)
        if len(row_values) != len(items):
            raise SudokuFormatError(
                f"row {r + 1} has {len(row_values)} cells; a {len(items)}x{len(items)} grid"
                f" needs {len(items)}")
        flat.extend(row_values)
    return flat


def _cell_value(k: int, v: Any, n: int) -> int:
    """Cell ``k``'s value ``v`` as an int in 0..n, or a SudokuFormatError naming the cell."""
    if isinstance(v, bool):
        raise SudokuFormatError(f"cell {_cell_name(k, n)}: expected an int, got {_shown(v)}")
    try:
        x = operator.index(v)
    except TypeError:
        raise SudokuFormatError(
            f"cell {_cell_name(k, n)}: expected an int, got {_shown(v)}") from None
    if not 0 <= x <= n:
        raise SudokuFormatError(f"cell {_cell_name(k, n)}: value {_shown(x)} is outside 0..{n}")
    return x


def _cell_name(k: int, n: int) -> str:
    r, c = divmod(k, n)
    return f"r{r + 1}c{c + 1}"


PuzzleLike = Union[Grid, str, Sequence[Any]]  # noqa: UP007 - a runtime alias on 3.10


def as_grid(puzzle: PuzzleLike, box: tuple[int, int] | None = None,
            shape: Shape | None = None) -> Grid:
    """A :class:`Grid` from a Grid, text, or a board: a flat or nested sequence of ints,
    of one-character strings (LeetCode 37's ``"5"`` and ``"."``), of row strings, or a
    numpy array of either (read through its ``tolist()``).

    >>> as_grid([0] * 16).size
    4
    >>> as_grid([["1", ".", ".", "."], [".", ".", "3", "."], [".", "4", ".", "."],
    ...          [".", ".", ".", "2"]])
    Grid('1.....3..4.....2')
    >>> as_grid(["1...", "..3.", ".4..", "...2"]) == as_grid([[1, 0, 0, 0], [0, 0, 3, 0],
    ...                                                      [0, 4, 0, 0], [0, 0, 0, 2]])
    True
    """
    _check_shape(shape)
    if box is not None:
        box = _check_box(box, None)
    if isinstance(puzzle, Grid):
        if (shape is not None and shape != puzzle.shape) or \
                (box is not None and tuple(box) != puzzle.box):
            return Grid(puzzle.values, box, shape=shape)
        return puzzle
    if isinstance(puzzle, str):
        return Grid.parse(puzzle, box, shape=shape)
    return Grid(puzzle, box, shape=shape)
