"""The n-queens problem as exact cover: n queens, no two attacking.

One option (row of the matrix) ``Queen(row, col)`` per square covers four
items (columns): its board row ``("row", r)`` and column ``("col", c)``, both
primary (exactly one queen each), and its two diagonals ``("up", r + c)`` and
``("down", r - c)``, secondary (at most one queen each, so no slack options are
needed).  The primary items are listed from the middle of the board outwards,
Knuth's "organ-pipe" order: on ties the search branches on a central row or
column first, which visits fewer nodes.  The counts are OEIS A000170.

>>> from problems import queens
>>> queens.count(8)
92
>>> board = queens.first(6)
>>> board
(4, 2, 0, 5, 3, 1)
>>> print(queens.render(board))
. . . . Q .
. . Q . . .
Q . . . . .
. . . . . Q
. . . Q . .
. Q . . . .

``queens.figure(6, board)`` draws the board with matplotlib (the ``viz`` extra).

The board's turns and flips map solutions to solutions: ``dlx.count(encode(8),
up_to_symmetry=True)`` finds the 12 placements that are really different (OEIS
A002562), the group found by itself, or given as the board's geometry
(:func:`symmetries`).

>>> import dlx
>>> dlx.count(encode(8), up_to_symmetry=True, symmetry=symmetries(8))
12
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import dlx

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["Queen", "COUNTS", "ORBITS", "encode", "decode", "solutions", "count", "first",
           "render", "figure", "gallery", "is_solution", "symmetries"]

#: OEIS A000170: the number of ways to place n non-attacking queens, n = 0..14.
COUNTS = (1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596)

#: OEIS A002562: the placements up to the board's turns and flips, n = 0..14.
ORBITS = (1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752)


class Queen(NamedTuple):
    """A queen on square (row, col), both numbered from 0."""

    row: int
    col: int


def _check(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"the board size must be a whole number >= 0, not {n!r}")
    return n


def _organ_pipe(n: int) -> list[int]:
    """0..n-1 from the middle outwards: for n = 5, [2, 1, 3, 0, 4]."""
    return sorted(range(n), key=lambda k: (abs(2 * k - (n - 1)), k))


def encode(n: int) -> dlx.ExactCover:
    """The exact-cover problem whose solutions are the n-queens placements.

    >>> encode(4)
    ExactCover(16 options, 8 primary items, 14 secondary items)
    """
    n = _check(n)
    options: dict[Hashable, list[Hashable]] = {
        Queen(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
        for r in range(n) for c in range(n)}
    primary = [(kind, k) for k in _organ_pipe(n) for kind in ("row", "col")]
    secondary = ([("up", k) for k in range(2 * n - 1)]
                 + [("down", k) for k in range(1 - n, n)])
    return dlx.ExactCover(options, secondary=secondary, primary=primary)


def symmetries(n: int) -> dlx.Symmetries:
    """The board's 8 turns and flips as the group of :func:`encode` (``n``), given by
    two generators (a quarter turn and a flip), so that nauty is not needed.

    >>> symmetries(8).order, symmetries(1).order
    (8, 1)
    """
    n = _check(n)
    return dlx.symmetries(encode(n), generators=[
        lambda q: Queen(q.col, n - 1 - q.row), lambda q: Queen(q.row, n - 1 - q.col)])


def decode(solution: Iterable[Queen]) -> tuple[int, ...]:
    """The board as a tuple: entry r is the column of the queen in row r."""
    queens = sorted(solution)
    return tuple(q.col for q in queens)


def solutions(n: int, **search: Any) -> Iterator[tuple[int, ...]]:
    """Every placement of n queens as a tuple of columns, lazily.

    >>> list(solutions(4))
    [(2, 0, 3, 1), (1, 3, 0, 2)]
    """
    for sol in dlx.solutions(encode(n), **search):
        yield decode(cast("tuple[Queen, ...]", sol))


def count(n: int, **search: Any) -> int:
    """How many ways n non-attacking queens fit on an n x n board (A000170)."""
    return dlx.count(encode(n), **search)


def first(n: int, **search: Any) -> tuple[int, ...] | None:
    """The first placement found, or None (n = 2, 3)."""
    return next(solutions(n, limit=1, **search), None)


def render(board: tuple[int, ...]) -> str:
    """The board as text, ``Q`` for a queen and ``.`` for an empty square."""
    n = len(board)
    return "\n".join(" ".join("Q" if c == col else "." for c in range(n)) for col in board)


def figure(n: int, solution: Any = (), *, title: str | None = None) -> Figure:
    """An n x n board with queens on it, as a matplotlib figure.

    ``solution`` is a tuple of columns (entry r = the column of row r's queen, as
    :func:`solutions` gives), or an iterable of ``(row, col)`` pairs (such as
    :class:`Queen` labels).  Rows are numbered from the top.  Without matplotlib,
    raises :class:`dlx.viz.MissingExtraError` (an ImportError) saying
    ``pip install 'dancing-links-dlx[viz]'``.
    """
    from dlx import viz

    viz.require("queens.figure")
    squares = _on_board(n, solution)
    fig, ax = viz.new_figure(min(0.45 * n + 0.6, 9), min(0.45 * n + 0.8, 9))
    _draw(ax, n, squares, title if title is not None else f"{len(squares)} queens on {n}x{n}")
    return fig


def gallery(n: int, solutions: Any, *, cols: int = 4, titles: Any = None) -> Figure:
    """Several n x n boards side by side, ``cols`` to a row, as one matplotlib figure.

    ``solutions`` holds boards as :func:`figure` takes them; ``titles`` (optional) one
    title per board.  Without matplotlib, raises :class:`dlx.viz.MissingExtraError`.
    """
    from dlx import viz

    viz.require("queens.gallery")
    boards = [_on_board(n, sol) for sol in solutions]
    names = [None] * len(boards) if titles is None else list(titles)
    if len(names) != len(boards):
        raise ValueError(f"{len(names)} titles for {len(boards)} boards")
    cols = max(1, min(cols, len(boards)))
    rows = max(1, -(-len(boards) // cols))
    size = min(0.22 * n + 0.5, 3.0)
    fig, first = viz.new_figure(size * cols, (size + 0.3) * rows)
    fig.delaxes(first)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax, squares, name in zip(axes, boards, names, strict=False):
        _draw(ax, n, squares, name, font=0.6 * 72 * size / n)
    for ax in axes[len(boards):]:
        ax.set_axis_off()
    return fig


def _on_board(n: int, solution: Any) -> list[tuple[int, int]]:
    squares = _squares(solution)
    for r, c in squares:
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"queen at ({r}, {c}) is off the {n}x{n} board")
    return squares


def _draw(ax: Any, n: int, squares: list[tuple[int, int]], title: str | None,
          font: float | None = None) -> None:
    """One board with its queens on the axes ``ax`` (``font``: the queens' size, points)."""
    import numpy as np
    from matplotlib.colors import ListedColormap

    from dlx import viz

    board = np.indices((n, n)).sum(axis=0) % 2
    ax.imshow(board, cmap=ListedColormap(["#f0d9b5", "#b58863"]), extent=(0, n, n, 0),
              interpolation="nearest")
    for r, c in squares:
        ax.text(c + 0.5, r + 0.5, "\u265b", ha="center", va="center",
                fontsize=max(8, 26 - n) if font is None else font, color=viz.INK["mark"],
                gid="queen")
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    if title is not None:
        ax.set_title(title, fontsize=10 if font is None else 8)


def _squares(solution: Any) -> list[tuple[int, int]]:
    """(row, col) of each queen: from a tuple of columns, Queen labels or pairs."""
    squares = []
    for r, q in enumerate(solution):
        if isinstance(q, int):
            squares.append((r, q))
        elif hasattr(q, "row") and hasattr(q, "col"):
            squares.append((int(q.row), int(q.col)))
        else:
            row, col = q
            squares.append((int(row), int(col)))
    return squares


def is_solution(board: tuple[int, ...]) -> bool:
    """Independent check: one queen per row and column, none sharing a diagonal.

    >>> is_solution((1, 3, 0, 2)), is_solution((0, 1, 2, 3))
    (True, False)
    """
    n = len(board)
    return (sorted(board) == list(range(n))
            and len({r + c for r, c in enumerate(board)}) == n
            and len({r - c for r, c in enumerate(board)}) == n)
