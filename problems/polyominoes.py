"""Polyomino tilings: cover a board with pieces, each used once, turned and flipped at will.

One option ``Placement(piece, cells)`` per way to put a piece on the board covers
the item ``("piece", name)`` and the items ``("cell", row, col)`` of its squares;
all are primary, so every piece is used once and every square covered once.  The
board is a rectangle of ``rows`` x ``cols`` squares (rows first, as in every
problem and command: ``dlx pentominoes 3x20`` is 3 rows of 20), minus any
``holes``.  The twelve pentominoes (F I L N P T U V W X Y Z) are the default pieces.
The sizes used to be ``(width, height)``: that order still works, positionally or
as ``width=``, ``height=``, with a :class:`DeprecationWarning`.

Every tiling of a symmetric board comes with its rotations and reflections.
``reduce=True`` keeps one tiling of each such family.  Knuth keeps the X
pentomino in one quadrant of the 6 x 10 box; in general we pick a piece none of
whose placements is its own image under a symmetry of the board (the one with
the fewest placements), and keep one placement out of each set that the
symmetries map onto each other.  Then exactly one tiling of each family is
left.  For 6 x 10 the piece is X; for 5 x 12, 4 x 15 and 3 x 20, where an X on
the middle line would be its own mirror image, it is V.

>>> from problems import polyominoes
>>> for tiling in polyominoes.solutions(rows=3, cols=20, reduce=True):  # 2 of the 8
...     print(tiling)
...     print()
VVVNNNFTWYYYYZPPPXUU
VLNNFFFTWWYZZZPPXXXU
VLLLLFTTTWWZIIIIIXUU
<BLANKLINE>
VVVZWWTTTFLLLLPPPXUU
VZZZYWWTFFFNNLPPXXXU
VZYYYYWTFNNNIIIIIXUU
<BLANKLINE>

``polyominoes.figure(tiling)`` draws a tiling with matplotlib (the ``viz`` extra).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import dlx

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["PENTOMINOES", "Placement", "Tiling", "shape", "orientations", "encode", "decode",
           "solutions", "count", "first", "figure"]

Cell = tuple[int, int]
Shape = tuple[Cell, ...]
Pieces = Mapping[str, str | Iterable[Cell]]

#: The twelve pentominoes with their usual letters (Golomb, Conway).
PENTOMINOES: dict[str, str] = {
    "F": ".FF/FF./.F.", "I": "IIIII", "L": "LLLL/L...", "N": "NN../.NNN",
    "P": "PP/PP/P.", "T": "TTT/.T./.T.", "U": "U.U/UUU", "V": "V../V../VVV",
    "W": "W../WW./.WW", "X": ".X./XXX/.X.", "Y": "YYYY/.Y..", "Z": "ZZ./.Z./.ZZ",
}

#: The 8 rotations and reflections of the square grid, as (row, col) -> (row, col).
_MAPS: list[Callable[[int, int], tuple[int, int]]] = [
         lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c),
         lambda r, c: (-c, r), lambda r, c: (r, -c), lambda r, c: (-c, -r),
         lambda r, c: (-r, c), lambda r, c: (c, r)]


class Placement(NamedTuple):
    """Piece ``piece`` on the board squares ``cells`` (row, col), sorted."""

    piece: str
    cells: Shape


class Tiling(dict[Cell, str]):
    """A tiling as (row, col) -> piece name; ``str()`` draws it as letters, Jupyter as SVG."""

    def __str__(self) -> str:
        rows = range(1 + max((r for r, _ in self), default=-1))
        cols = range(1 + max((c for _, c in self), default=-1))
        return "\n".join("".join(self.get((r, c), ".")[:1] for c in cols) for r in rows)

    def _repr_svg_(self) -> str:
        k, height = 20, 1 + max((r for r, _ in self), default=0)
        width = 1 + max((c for _, c in self), default=0)
        names = sorted(set(self.values()))
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * k + 2}" '
               f'height="{height * k + 2}">']
        for (r, c), name in self.items():
            hue = 360 * names.index(name) // max(len(names), 1)
            out.append(f'<rect x="{c * k + 1}" y="{r * k + 1}" width="{k}" height="{k}" '
                       f'fill="hsl({hue},60%,70%)" stroke="hsl({hue},60%,70%)"/>')
            for dr, dc, x1, y1, x2, y2 in ((-1, 0, 0, 0, 1, 0), (1, 0, 0, 1, 1, 1),
                                           (0, -1, 0, 0, 0, 1), (0, 1, 1, 0, 1, 1)):
                if self.get((r + dr, c + dc)) != name:
                    out.append(f'<line x1="{(c + x1) * k + 1}" y1="{(r + y1) * k + 1}" '
                               f'x2="{(c + x2) * k + 1}" y2="{(r + y2) * k + 1}" '
                               'stroke="black" stroke-width="2"/>')
        return "\n".join(out + ["</svg>"])


def _normal(cells: Iterable[Cell]) -> Shape:
    cells = list(cells)
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def shape(picture: str | Iterable[Cell]) -> Shape:
    """A piece from a picture (rows split by ``/`` or newlines, ``.`` or blank = empty).

    >>> shape("XX/.X")
    ((0, 0), (0, 1), (1, 1))
    """
    if isinstance(picture, str):
        rows = picture.replace("/", "\n").split("\n")
        picture = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                   if ch not in ". "]
    cells = list(picture)
    if not cells:
        raise ValueError("a piece must have at least one square")
    return _normal(cells)


def orientations(piece: str | Iterable[Cell]) -> list[Shape]:
    """Every distinct rotation and reflection of a piece (8 for F, 1 for X).

    >>> [len(orientations(PENTOMINOES[name])) for name in "FILNPTUVWXYZ"]
    [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]
    """
    base = shape(piece)
    return list(dict.fromkeys(_normal(f(r, c) for r, c in base) for f in _MAPS))


def _rows_cols(what: str, width: int | None, height: int | None, rows: int | None,
               cols: int | None) -> tuple[int, int]:
    """The board's ``(rows, cols)``: from ``rows=`` and ``cols=`` (rows first, as everywhere),
    or from the old ``(width, height)`` order, with a DeprecationWarning.

    >>> _rows_cols("encode", None, None, 3, 20)
    (3, 20)
    """
    if rows is not None or cols is not None:
        if width is not None or height is not None:
            raise TypeError(f"polyominoes.{what}: give rows= and cols=, without width and"
                            " height")
        if rows is None or cols is None:
            raise TypeError(f"polyominoes.{what}: give both rows= and cols=")
        return rows, cols
    if width is None or height is None:
        raise TypeError(f"polyominoes.{what}() needs the board's size: rows= and cols=")
    warnings.warn(f"polyominoes.{what}(width, height) is deprecated: write"
                  f" {what}(rows={height!r}, cols={width!r}); sizes are rows x columns in"
                  " every problem and command", DeprecationWarning, stacklevel=3)
    return height, width


def _board(rows: int, cols: int, holes: Iterable[Cell]) -> list[Cell]:
    for value, what in ((rows, "rows"), (cols, "cols")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"the board's {what} must be a whole number >= 0, not {value!r}")
    cells = {(r, c): None for r in range(rows) for c in range(cols)}
    for hole in holes:
        if hole not in cells:
            raise ValueError(f"hole {hole!r} is not a (row, col) square of the "
                             f"{rows} x {cols} board ({rows} rows, {cols} columns)")
        del cells[hole]
    return list(cells)


def _symmetries(board: list[Cell]) -> list[dict[Cell, Cell]]:
    """The rotations and reflections that map the board onto itself (identity first),
    each as a table square -> image square."""
    if not board:
        return [{}]
    target = set(board)
    out: list[dict[Cell, Cell]] = []
    r0, c0 = min(r for r, _ in board), min(c for _, c in board)
    for f in _MAPS:
        image = [f(r, c) for r, c in board]
        dr, dc = r0 - min(r for r, _ in image), c0 - min(c for _, c in image)
        moved = {cell: (r + dr, c + dc) for cell, (r, c) in zip(board, image, strict=True)}
        if set(moved.values()) == target:
            out.append(moved)
    return out


def _placements(board: list[Cell], piece: Shape) -> list[Shape]:
    cells = set(board)
    return [tuple(sorted((r + dr, c + dc) for r, c in form))
            for form in orientations(piece) for dr, dc in board
            if all((r + dr, c + dc) in cells for r, c in form)]


def _reduced(board: list[Cell], places: dict[str, list[Shape]]) -> dict[str, list[Shape]]:
    """Keep one placement per symmetry class of one piece (see the module docstring)."""
    group = _symmetries(board)
    best: tuple[int, str, list[Shape]] | None = None
    for name, spots in places.items():
        classes = [{tuple(sorted(map(g.__getitem__, spot))) for g in group} for spot in spots]
        if all(len(orbit) == len(group) for orbit in classes):
            kept = [spot for spot, orbit in zip(spots, classes, strict=True) if spot == min(orbit)]
            if best is None or len(kept) < best[0]:
                best = (len(kept), name, kept)
    if best is None:
        raise ValueError("no piece can break the board's symmetry exactly: use reduce=False")
    return {**places, best[1]: best[2]}


def encode(width: int | None = None, height: int | None = None, pieces: Pieces | None = None,
           *, rows: int | None = None, cols: int | None = None, holes: Iterable[Cell] = (),
           reduce: bool = False) -> dlx.ExactCover:
    """The exact-cover problem of tiling a ``rows`` x ``cols`` board with every piece once.

    (``width``, ``height``: the old order, deprecated; see the module docstring.)

    >>> encode(rows=6, cols=10)
    ExactCover(2056 options, 72 primary items, 0 secondary items)
    """
    rows, cols = _rows_cols("encode", width, height, rows, cols)
    return _encode(rows, cols, pieces, holes, reduce)


def _encode(rows: int, cols: int, pieces: Pieces | None, holes: Iterable[Cell],
            reduce: bool) -> dlx.ExactCover:
    board = _board(rows, cols, holes)
    shapes = {str(name): shape(p) for name, p in (PENTOMINOES if pieces is None
                                                   else pieces).items()}
    places = {name: _placements(board, piece) for name, piece in shapes.items()}
    if reduce:
        places = _reduced(board, places)
    options: dict[Hashable, list[Hashable]] = {
        Placement(name, spot): [("piece", name)] + [("cell", r, c) for r, c in spot]
        for name, spots in places.items() for spot in spots}
    primary = [("piece", name) for name in shapes] + [("cell", r, c) for r, c in board]
    return dlx.ExactCover(options, primary=primary)


def decode(solution: Iterable[Placement]) -> Tiling:
    """The tiling as a mapping (row, col) -> piece name."""
    return Tiling({cell: p.piece for p in solution for cell in p.cells})


def solutions(width: int | None = None, height: int | None = None,
              pieces: Pieces | None = None, *, rows: int | None = None,
              cols: int | None = None, holes: Iterable[Cell] = (), reduce: bool = False,
              **search: Any) -> Iterator[Tiling]:
    """Every tiling of a ``rows`` x ``cols`` board, lazily (one per symmetry class with
    ``reduce=True``).

    ``search`` holds the keywords of :func:`dlx.solutions` (limit, max_nodes, stats, ...).
    """
    rows, cols = _rows_cols("solutions", width, height, rows, cols)
    return _solutions(_encode(rows, cols, pieces, holes, reduce), search)


def _solutions(problem: dlx.ExactCover, search: dict[str, Any]) -> Iterator[Tiling]:
    for sol in dlx.solutions(problem, **search):
        yield decode(cast("tuple[Placement, ...]", sol))


def count(width: int | None = None, height: int | None = None, pieces: Pieces | None = None,
          *, rows: int | None = None, cols: int | None = None, holes: Iterable[Cell] = (),
          reduce: bool = False, **search: Any) -> int:
    """How many tilings a ``rows`` x ``cols`` board has (one per symmetry class with
    ``reduce=True``).

    >>> count(rows=3, cols=20)
    8
    """
    rows, cols = _rows_cols("count", width, height, rows, cols)
    return dlx.count(_encode(rows, cols, pieces, holes, reduce), **search)


def first(width: int | None = None, height: int | None = None, pieces: Pieces | None = None,
          *, rows: int | None = None, cols: int | None = None, holes: Iterable[Cell] = (),
          reduce: bool = False, **search: Any) -> Tiling | None:
    """The first tiling of a ``rows`` x ``cols`` board found, or None."""
    rows, cols = _rows_cols("first", width, height, rows, cols)
    return next(_solutions(_encode(rows, cols, pieces, holes, reduce), {**search, "limit": 1}),
                None)


def figure(tiling: Any, *, title: str | None = None, letters: bool = True,
           rows: int | None = None, cols: int | None = None) -> Figure:
    """A tiling as a matplotlib figure: each piece in its own colour, thick outlines
    between pieces.

    ``tiling`` is a mapping ``(row, col) -> piece`` (such as a :class:`Tiling`), a
    mapping ``piece -> cells``, a list of strings (one character per cell, ``.`` or a
    space for a hole, as ``["FFLL", ...]``), or an iterable of ``(piece, cells)``
    pairs.  Pieces are coloured in sorted order of their names, so pictures are
    deterministic.  Without matplotlib, raises :class:`dlx.viz.MissingExtraError` (an
    ImportError) saying ``pip install 'dancing-links-dlx[viz]'``.
    """
    from dlx import viz

    viz.require("polyominoes.figure")
    from matplotlib.patches import Rectangle

    cells = _cells_of(tiling)
    if not cells:
        raise ValueError("the tiling has no cells")
    height = rows if rows is not None else max(r for r, _ in cells) + 1
    width = cols if cols is not None else max(c for _, c in cells) + 1
    pieces = sorted(set(cells.values()), key=lambda x: (type(x).__name__, str(x)))
    color = dict(zip(pieces, viz.palette(len(pieces)), strict=True))
    fig, ax = viz.new_figure(min(0.42 * width + 0.6, 12), min(0.42 * height + 0.8, 10))
    for (r, c), piece in sorted(cells.items()):
        ax.add_patch(Rectangle((c, r), 1, 1, facecolor=color[piece], edgecolor="none",
                               gid="cell"))
    viz.outlines(ax, cells)
    if letters:
        for piece in pieces:
            members = [cell for cell, p in cells.items() if p == piece]
            cr = sum(r for r, _ in members) / len(members)
            cc = sum(c for _, c in members) / len(members)
            r, c = min(members, key=lambda m: ((m[0] - cr) ** 2 + (m[1] - cc) ** 2, m))
            ax.text(c + 0.5, r + 0.5, viz.text_of(piece), ha="center", va="center", fontsize=9,
                    fontweight="bold", color=viz.INK["line"], gid="piece-label")
    ax.set_xlim(-0.1, width + 0.1)
    ax.set_ylim(height + 0.1, -0.1)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title if title is not None else f"{len(pieces)} pieces, {len(cells)} cells",
                 fontsize=10)
    return fig


def _cells_of(tiling: Any) -> dict[Cell, Hashable]:
    """(row, col) -> piece for a mapping, a list of strings, or (piece, cells) pairs."""
    if isinstance(tiling, Mapping):
        cells: dict[Cell, Hashable] = {}
        for key, value in tiling.items():
            if _is_cell(key):
                cells[(int(key[0]), int(key[1]))] = value
            else:
                for cell in value:
                    cells[(int(cell[0]), int(cell[1]))] = key
        return cells
    tiling = list(tiling)
    if tiling and all(isinstance(line, str) for line in tiling):
        return {(r, c): ch for r, line in enumerate(tiling) for c, ch in enumerate(line)
                if ch not in ". "}
    cells = {}
    for piece, members in tiling:
        for cell in members:
            cells[(int(cell[0]), int(cell[1]))] = piece
    return cells


def _is_cell(x: Any) -> bool:
    return (isinstance(x, tuple) and len(x) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in x))
