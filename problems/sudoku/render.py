"""Rendering: the multi-line pretty grid, a rich ``Text`` of it with the givens in bold,
and a picture (:func:`figure`, drawn with :mod:`dlx.viz`: the ``viz`` extra).

The functions take a grid's values, size and box (not a Grid), so that
:class:`~problems.sudoku.Grid` can call them without an import cycle; :func:`figure`
reads a Grid's ``values``, ``givens`` and ``box`` by name.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from .errors import SudokuError
from .notations import _VALUE_CHAR

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["figure"]

#: A line of the pretty grid and the (start, end, cell index) span of each of its cells.
_Line = tuple[str, list[tuple[int, int, int]]]


def _cell_texts(values: tuple[int, ...], n: int) -> list[str]:
    if n <= 35:
        return [_VALUE_CHAR[v] for v in values]
    width = len(str(n))
    return [(str(v) if v else ".").rjust(width) for v in values]


def _pretty(values: tuple[int, ...], n: int, box: tuple[int, int] | None) -> str:
    """Multi-line rendering with box rules (no rules without a box)."""
    return "\n".join(line for line, _ in _pretty_lines(values, n, box))


def _pretty_lines(values: tuple[int, ...], n: int, box: tuple[int, int] | None) -> list[_Line]:
    """Lines of :func:`_pretty`, each with the (start, end, cell) spans of its cells."""
    texts = _cell_texts(values, n)
    br, bc = box if box is not None else (n, n)
    out: list[_Line] = []
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


def _rich_text(values: tuple[int, ...], n: int, box: tuple[int, int] | None,
               givens: tuple[bool, ...]) -> Any:
    """A rich ``Text`` of :func:`_pretty`: givens in bold, blanks and rules dim."""
    from rich.text import Text

    text = Text()
    for k, (line, spans) in enumerate(_pretty_lines(values, n, box)):
        if k:
            text.append("\n")
        start = len(text)
        text.append(line, style="dim" if not spans else "")
        for a, b, cell in spans:
            if values[cell] == 0:
                text.stylize("dim", start + a, start + b)
            elif givens[cell]:
                text.stylize("bold", start + a, start + b)
    return text


def figure(grid: Any, givens: Any = None, *, box: tuple[int, int] | None = None,
           regions: Sequence[Hashable] | None = None, title: str | None = None) -> Figure:
    """A Sudoku grid as a matplotlib figure: givens in black, filled digits in blue, thick
    lines between boxes.

    ``grid`` is an 81-character string (``.`` or ``0`` blank), a flat or nested list
    of numbers, or any object with ``values`` (such as :class:`~problems.sudoku.Grid`,
    whose ``givens`` and ``box`` are used too).  ``givens`` is the puzzle (same
    forms) or a list of booleans; by default every filled cell is a given.  The
    puzzle's digits must be the grid's in their cells (the grid is the puzzle
    solved, or partly): ``figure(solution, puzzle)``, not the other way round; a
    puzzle that does not agree raises :class:`~problems.sudoku.SudokuError`
    naming the first cell that differs.  ``regions`` (one region name per cell)
    draws jigsaw outlines instead of boxes.  Without matplotlib, raises
    :class:`dlx.viz.MissingExtraError` (an ImportError) saying
    ``pip install 'dancing-links-dlx[viz]'``.
    """
    from dlx import viz

    values = _cell_values(grid)
    n = math.isqrt(len(values))
    if n * n != len(values) or n == 0:
        raise ValueError(f"a Sudoku grid needs a square number of cells, not {len(values)}")
    if givens is None:
        given_flags = getattr(grid, "givens", None)
        flags = [bool(v) for v in values] if given_flags is None else [bool(g) for g in given_flags]
    elif isinstance(givens, Sequence) and givens and all(isinstance(g, bool) for g in givens):
        flags = list(givens)
    else:
        puzzle = _cell_values(givens)
        if len(puzzle) == n * n:
            _check_agrees(values, puzzle, n)
        flags = [bool(v) for v in puzzle]
    if len(flags) != n * n:
        raise ValueError(f"givens has {len(flags)} cells for a {n}x{n} grid")
    viz.require("sudoku.figure")
    if regions is None:
        if box is None:
            box = getattr(grid, "box", None)
        if box is None:
            b = math.isqrt(n)
            box = (b, n // b) if b * (n // b) == n else (1, n)
        br, bc = box
        regions = [(r // br, c // bc) for r in range(n) for c in range(n)]
    fig, ax = viz.new_figure(min(0.5 * n + 0.6, 10), min(0.5 * n + 0.8, 10))
    for r in range(n):
        for c in range(n):
            v, given = values[r * n + c], flags[r * n + c]
            if v:
                ax.text(c + 0.5, r + 0.5, str(v), ha="center", va="center",
                        fontsize=max(7, 16 - n // 3), color=viz.INK["given" if given else "found"],
                        fontweight="bold" if given else "normal",
                        gid="given" if given else "filled")
    viz.outlines(ax, {(r, c): regions[r * n + c] for r in range(n) for c in range(n)},
                 inner=viz.INK["grid"], linewidth=2.2)
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    filled = sum(1 for v, g in zip(values, flags, strict=True) if v and not g)
    ax.set_title(title if title is not None else
                 f"{sum(flags)} givens, {filled} filled, {values.count(0)} blank", fontsize=10)
    return fig


def _check_agrees(values: list[int], puzzle: list[int], n: int) -> None:
    """Raise :class:`~problems.sudoku.SudokuError` unless every digit of ``puzzle`` (the
    ``givens`` of :func:`figure`) is the digit of ``values`` (its ``grid``) in its cell.

    >>> _check_agrees([1, 2, 2, 1], [1, 0, 0, 0], 2)
    >>> _check_agrees([1, 0, 0, 0], [1, 2, 2, 1], 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    problems.sudoku.errors.SudokuError: figure(grid, givens): ... are they swapped? ...
    """
    wrong = [k for k, (v, p) in enumerate(zip(values, puzzle, strict=True)) if p and v != p]
    if not wrong:
        return
    k = wrong[0]
    r, c = divmod(k, n)
    has = values[k] if values[k] else "a blank"
    given = sum(1 for p in puzzle if p)
    differ = "1 of its digits differs" if len(wrong) == 1 else \
        f"{len(wrong)} of its {given} digits differ"
    swapped = all(v == p for v, p in zip(values, puzzle, strict=True) if v)
    raise SudokuError(f"figure(grid, givens): givens has {puzzle[k]} at r{r + 1}c{c + 1} where the"
                      f" grid has {has} ({differ}): givens must be the puzzle the grid was solved"
                      " from" + ("; are they swapped? The grid to draw comes first, then its"
                                 " puzzle: figure(solution, puzzle)" if swapped else ""))


def _cell_values(grid: Any) -> list[int]:
    """A grid (text, flat or nested numbers, an object with ``values``) as ints, 0 blank."""
    values = getattr(grid, "values", None)
    if values is not None and not callable(values):
        return [int(v) for v in values]
    if isinstance(grid, str):
        out = []
        for ch in grid:
            if ch.isspace() or ch in "|+-":
                continue
            if ch in ".0_":
                out.append(0)
            elif ch.isdigit():
                out.append(int(ch))
            elif ch.isalpha():
                out.append(ord(ch.upper()) - ord("A") + 10)
            else:
                raise ValueError(f"unexpected character {ch!r} in a Sudoku grid")
        return out
    flat: list[int] = []
    for v in grid:
        if isinstance(v, Sequence) and not isinstance(v, str):
            flat.extend(int(x or 0) for x in v)
        else:
            flat.append(0 if v in (None, ".", "") else int(v))
    return flat
