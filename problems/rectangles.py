"""Exact covers of a board by given rectangles, and the fewest pieces that do it (ZOJ 3209).

The board is n x m: unit squares (x, y) with 0 <= x < n and 0 <= y < m.  A piece
(x1, y1, x2, y2) is the rectangle between those corners; it covers the squares
with x1 <= x < x2 and y1 <= y < y2.  One option ``Piece(number, x1, y1, x2, y2)``
per piece covers the items ``("cell", x, y)`` of its squares, all primary.

ZOJ 3209 "Treasure Map" asks for the fewest pieces that cover the board exactly
(no gaps, no overlaps), or -1: :func:`min_cover` answers it by branch and bound
(:func:`dlx.best`, every piece weighing 1, minimised), pruning a branch when the
squares left need too many more pieces (:func:`area_bound`).

>>> from problems import rectangles
>>> pieces = [(0, 0, 30, 10), (0, 10, 30, 20), (0, 20, 30, 30), (0, 0, 15, 30),
...           (15, 0, 30, 30)]
>>> rectangles.min_cover(30, 30, pieces)
[3, 4]
>>> rectangles.count(30, 30, pieces)
2
>>> rectangles.min_cover(5, 5, [(0, 0, 3, 5), (2, 0, 5, 5)]) is None
True

``rectangles.figure(pieces, 30, 30, chosen=[3, 4])`` draws a cover with matplotlib
(the ``viz`` extra).
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import dlx
from dlx import FormatError

from ._lines import read_lines

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["Piece", "Case", "encode", "decode", "solutions", "count", "count_covers",
           "min_cover", "area_bound", "read_cases", "read_batch", "random_pieces", "figure"]

Rect = Sequence[int]


class Piece(NamedTuple):
    """Piece ``number`` (from 0, in input order): the rectangle from (x1, y1) to (x2, y2)."""

    number: int
    x1: int
    y1: int
    x2: int
    y2: int

    @property
    def area(self) -> int:
        return (self.x2 - self.x1) * (self.y2 - self.y1)


MAX_SQUARES = 1_000_000
"""The largest board (n * m squares) accepted."""


def _board(n: int, m: int) -> None:
    for value, what in ((n, "n"), (m, "m")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"the board size {what} must be a whole number >= 0, not {value!r}")
    if n * m > MAX_SQUARES:
        raise ValueError(f"the board is {n} x {m}: more than {MAX_SQUARES:,} squares")


def _piece(k: int, rect: Rect, n: int, m: int) -> Piece:
    if isinstance(rect, Piece):
        rect = rect[1:]
    try:
        x1, y1, x2, y2 = (operator.index(v) for v in rect)
    except (TypeError, ValueError):
        raise ValueError(f"piece {k}: expected four whole numbers x1 y1 x2 y2,"
                         f" not {rect!r}") from None
    if not (x1 < x2 and y1 < y2):
        raise ValueError(f"piece {k} ({x1} {y1} {x2} {y2}) is empty: it needs"
                         " x1 < x2 and y1 < y2")
    if x1 < 0 or y1 < 0 or x2 > n or y2 > m:
        raise ValueError(f"piece {k} ({x1} {y1} {x2} {y2}) is outside the {n} x {m}"
                         f" board (0 <= x <= {n}, 0 <= y <= {m})")
    return Piece(k, x1, y1, x2, y2)


def _pieces(n: int, m: int, pieces: Iterable[Rect]) -> list[Piece]:
    _board(n, m)
    return [_piece(k, rect, n, m) for k, rect in enumerate(pieces)]


def encode(n: int, m: int, pieces: Iterable[Rect], *, merge: bool = True) -> dlx.ExactCover:
    """The exact-cover problem of covering the n x m board with some of the pieces.

    With ``merge``, squares covered by exactly the same pieces are one item (named
    after the first of them): they are covered together or not at all, so the
    solutions are the same, and the search moves far fewer links.

    >>> encode(2, 1, [(0, 0, 1, 1), (1, 0, 2, 1), (0, 0, 2, 1)])
    ExactCover(3 options, 2 primary items, 0 secondary items)
    >>> encode(30, 30, [(0, 0, 30, 10), (0, 10, 30, 30)])
    ExactCover(2 options, 2 primary items, 0 secondary items)
    """
    return _encode(n, m, _pieces(n, m, pieces), merge)


def _encode(n: int, m: int, pieces: list[Piece], merge: bool = True,
            largest_first: bool = False) -> dlx.ExactCover:
    if largest_first:
        # The search then meets covers with few pieces early, and branch and bound
        # prunes more; the solutions are the same, found in another order.
        pieces = sorted(pieces, key=lambda p: -p.area)
    cells = [("cell", x, y) for x in range(n) for y in range(m)]
    name = {cell: cell for cell in cells}
    if merge:
        covers: dict[tuple[str, int, int], list[int]] = {cell: [] for cell in cells}
        for p in pieces:
            for x in range(p.x1, p.x2):
                for y in range(p.y1, p.y2):
                    covers[("cell", x, y)].append(p.number)
        first: dict[tuple[int, ...], tuple[str, int, int]] = {}
        name = {cell: first.setdefault(tuple(covers[cell]), cell) for cell in cells}
    options: dict[Hashable, list[Hashable]] = {
        p: list(dict.fromkeys(name[("cell", x, y)] for x in range(p.x1, p.x2)
                              for y in range(p.y1, p.y2))) for p in pieces}
    return dlx.ExactCover(options, primary=list(dict.fromkeys(name.values())))


def decode(solution: Iterable[Piece]) -> list[int]:
    """The indices of the chosen pieces, ascending."""
    return sorted(p.number for p in solution)


def solutions(n: int, m: int, pieces: Iterable[Rect], **search: Any) -> Iterator[list[int]]:
    """Every exact cover as a sorted list of piece indices, lazily."""
    for sol in dlx.solutions(encode(n, m, pieces), **search):
        yield decode(cast("tuple[Piece, ...]", sol))


def count(n: int, m: int, pieces: Iterable[Rect], **search: Any) -> int:
    """How many subsets of the pieces cover the board exactly."""
    return dlx.count(encode(n, m, pieces), **search)


count_covers = count


def area_bound(n: int, m: int, pieces: Iterable[Rect]) -> Callable[[dlx.SearchState], int]:
    """A ``bound=`` for :func:`dlx.best`: how many more pieces the squares left need at least.

    Two lower bounds from the pieces still available (those overlapping no chosen
    piece), taking the larger: the fewest of them whose areas add up to the
    squares left, and the sum over the squares left of 1 / (the largest area of
    an available piece on that square).  One pass over the pieces, largest
    first, with bitmasks of squares.
    """
    ps = _pieces(n, m, pieces)
    masks = {p: sum(1 << (x * m + y) for x in range(p.x1, p.x2) for y in range(p.y1, p.y2))
             for p in ps}
    by_area = sorted(((p.area, masks[p]) for p in ps), key=lambda am: -am[0])
    board = (1 << (n * m)) - 1

    def bound(state: dlx.SearchState) -> int:
        covered = 0
        for p in state.chosen():
            covered |= masks[p]  # type: ignore[index]
        left = board & ~covered
        need = left.bit_count()
        k = total = 0
        seen, share = 0, 0.0
        for area, mask in by_area:
            if mask & covered:
                continue
            if total < need:
                k += 1
                total += area
            fresh = mask & ~seen
            if fresh:
                seen |= fresh
                share += fresh.bit_count() / area
                if seen == left and total >= need:
                    break
        if seen != left:
            return len(ps) + 1      # a square no available piece covers: prune
        return max(k, math.ceil(share - 1e-9))

    return bound


def min_cover(n: int, m: int, pieces: Iterable[Rect], *, bound: str = "auto",
              **search: Any) -> list[int] | None:
    """The indices of a smallest set of pieces covering the board exactly, or None.

    ``bound="area"`` prunes with :func:`area_bound` (on the pure-Python engine,
    since the hook calls back into Python); ``"generic"`` with :func:`dlx.best`'s
    own bound (a similar sum over the items left, computed inside the engine, so
    it can run on the compiled core when that is built); ``"auto"`` picks
    "generic" when the search will run on the core, else "area".  ``search``
    holds the keywords of :func:`dlx.best` (max_nodes, stats, engine, ...).
    """
    if bound not in ("auto", "area", "generic"):
        raise ValueError(f"bound must be 'auto', 'area' or 'generic', not {bound!r}")
    if bound == "auto":
        bound = "generic" if _on_core(search.get("engine")) else "area"
    ps = _pieces(n, m, pieces)
    hook = area_bound(n, m, ps) if bound == "area" else None
    problem = _encode(n, m, ps, largest_first=True)
    found = dlx.best(problem, lambda p: 1, maximize=False, bound=hook, **search)
    return None if found is None else decode(cast("tuple[Piece, ...]", found[1]))


def _on_core(engine: str | None) -> bool:
    """Will a search with this ``engine=`` run on the compiled core (if dlx has one)?"""
    try:
        return dlx.engine_for(engine=engine) == "c"
    except dlx.ExactCoverError:
        return False


def random_pieces(n: int, m: int, p: int, *, covers: int = 3, grain: int = 1,
                  seed: int | None = None) -> list[tuple[int, int, int, int]]:
    """p pieces like a judge's test: ``covers`` random partitions of the board, plus noise.

    Each partition cuts the board recursively (a guillotine cut while a part is
    bigger than a random size), so the instance has several exact covers of
    different sizes; random rectangles fill up to ``p`` pieces, and all are shuffled.
    Cuts at multiples of ``grain`` make the partitions share edges, so pieces of
    different partitions combine into many more covers: a harder search.

    >>> pieces = random_pieces(30, 30, 500, seed=1)
    >>> len(pieces), min_cover(30, 30, pieces, max_nodes=10**6) is not None
    (500, True)
    """
    rng = random.Random(seed)
    out: list[tuple[int, int, int, int]] = []

    def cut(x1: int, y1: int, x2: int, y2: int, size: int) -> None:
        w, h = x2 - x1, y2 - y1
        xs = [x for x in range(x1 + 1, x2) if x % grain == 0]
        ys = [y for y in range(y1 + 1, y2) if y % grain == 0]
        if w * h <= size or not (xs or ys):
            out.append((x1, y1, x2, y2))
        elif xs and (w >= h or not ys):
            x = rng.choice(xs)
            cut(x1, y1, x, y2, size)
            cut(x, y1, x2, y2, size)
        else:
            y = rng.choice(ys)
            cut(x1, y1, x2, y, size)
            cut(x1, y, x2, y2, size)

    for _ in range(covers):
        if n and m:
            cut(0, 0, n, m, rng.randint(max(1, n * m // 64), max(1, n * m // 4)))
    while n and m and len(out) < p:
        x1, x2 = sorted(rng.sample(range(n + 1), 2))
        y1, y2 = sorted(rng.sample(range(m + 1), 2))
        out.append((x1, y1, x2, y2))
    rng.shuffle(out)
    return out[:p] if len(out) > p else out


def figure(rectangles: Any, width: int | None = None, height: int | None = None, *,
           chosen: Iterable[Hashable] | None = None, title: str | None = None) -> Figure:
    """Rectangles on a board, as a matplotlib figure: the chosen ones filled and
    numbered, the others dashed.

    Each rectangle is ``(x1, y1, x2, y2)``, the corners of the squares ``x1 <= x < x2``,
    ``y1 <= y < y2`` (x across, y down), or an object with those attributes (such as
    :class:`Piece`); ``rectangles`` is a list (named by position) or a mapping name ->
    rectangle.  ``chosen`` names the rectangles of a cover (by default all of them);
    they must not overlap.  The others are outlined (in colour and numbered when none
    is chosen, to show what is on offer).  On a ``width`` x ``height`` board, squares
    the chosen rectangles leave uncovered are hatched.  Without matplotlib, raises
    :class:`dlx.viz.MissingExtraError` (an ImportError) saying
    ``pip install 'dancing-links-dlx[viz]'``.
    """
    from dlx import viz

    viz.require("rectangles.figure")
    from matplotlib.patches import Rectangle

    ink = viz.INK
    named = (list(rectangles.items()) if isinstance(rectangles, Mapping)
             else list(enumerate(rectangles)))
    corners = {name: _corners(rect) for name, rect in named}
    picked = list(corners) if chosen is None else list(chosen)
    for name in picked:
        if name not in corners:
            raise ValueError(f"no rectangle named {name!r}")
    owner: dict[tuple[int, int], Hashable] = {}
    for name in picked:
        x1, y1, x2, y2 = corners[name]
        for x in range(x1, x2):
            for y in range(y1, y2):
                if (x, y) in owner:
                    raise ValueError(f"rectangles {owner[x, y]!r} and {name!r} overlap at"
                                     f" {(x, y)}")
                owner[x, y] = name
    n = width if width is not None else max((c[2] for c in corners.values()), default=0)
    m = height if height is not None else max((c[3] for c in corners.values()), default=0)
    if n <= 0 or m <= 0:
        raise ValueError("no rectangles and no board")
    scale = min(10 / max(n, m), 0.5)
    fig, ax = viz.new_figure(n * scale + 1, m * scale + 1)
    color = dict(zip(corners, viz.palette(len(corners)), strict=True))  # same piece, same colour
    for name in picked:
        x1, y1, x2, y2 = corners[name]
        ax.add_patch(Rectangle((x1, y1), x2 - x1, y2 - y1, facecolor=color[name],
                               edgecolor=ink["line"], linewidth=2, zorder=2, gid="rectangle"))
        ax.text((x1 + x2) / 2, (y1 + y2) / 2, viz.text_of(name), ha="center", va="center",
                fontsize=9, fontweight="bold", color=ink["line"], zorder=4,
                gid="rectangle-label")
    others = [name for name in corners if name not in set(picked)]
    tint = dict(zip(others, viz.palette(len(others), strong=True), strict=True))
    for k, name in enumerate(others):
        # inset by a little more for each piece, so outlines on a shared edge stay apart
        x1, y1, x2, y2 = corners[name]
        d = 0.05 + 0.045 * (k % 6)
        ax.add_patch(Rectangle((x1 + d, y1 + d), x2 - x1 - 2 * d, y2 - y1 - 2 * d, fill=False,
                               edgecolor=tint[name] if not picked else ink["faint"],
                               linestyle="-" if not picked else "--", linewidth=1.3,
                               zorder=1.5, gid="offered"))
    if not picked and len(others) <= 60:
        _corner_labels(ax, {name: corners[name] for name in others}, tint, scale)
    if width is not None and height is not None:
        if picked:
            for x in range(n):
                for y in range(m):
                    if (x, y) not in owner:
                        ax.add_patch(Rectangle((x, y), 1, 1, facecolor="white", linewidth=0,
                                               edgecolor=ink["alert"], hatch="///", zorder=1,
                                               gid="uncovered"))
        ax.add_patch(Rectangle((0, 0), n, m, fill=False, edgecolor=ink["line"], linewidth=2.5,
                               zorder=5, gid="board"))
    ax.set_xlim(-0.2, n + 0.2)
    ax.set_ylim(m + 0.2, -0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title if title is not None else
                 f"{len(picked)} of {len(corners)} rectangles, {len(owner)} squares covered",
                 fontsize=10)
    return fig


def _corners(rect: Any) -> tuple[int, int, int, int]:
    """(x1, y1, x2, y2) of a rectangle given by corners or by attributes of those names."""
    if all(hasattr(rect, f) for f in ("x1", "y1", "x2", "y2")):
        x1, y1, x2, y2 = rect.x1, rect.y1, rect.x2, rect.y2
    else:
        x1, y1, x2, y2 = rect
    if not (x1 < x2 and y1 < y2):
        raise ValueError(f"rectangle {rect!r} is empty: it needs x1 < x2 and y1 < y2")
    return int(x1), int(y1), int(x2), int(y2)


def _corner_labels(ax: Axes, corners: Mapping[Hashable, tuple[int, int, int, int]],
                   tint: Mapping[Hashable, Any], scale: float) -> None:
    """Name each rectangle at its top-left corner; names of rectangles sharing a corner go
    side by side (wrapping inside the narrowest of them), so that none covers another."""
    from dlx import viz

    size = 7                                    # points
    char = size * 0.62 / 72 / scale             # a character's width, in board squares
    line = size * 1.3 / 72 / scale              # a line's height
    at: dict[tuple[int, int], list[Hashable]] = {}
    for name, (x1, y1, _, _) in corners.items():
        at.setdefault((x1, y1), []).append(name)
    for (x1, y1), names in at.items():
        right = x1 + min(corners[n][2] - x1 for n in names) - 0.05
        x, y = x1 + 0.12, y1 + 0.1
        for name in names:
            text = viz.text_of(name)
            width = len(text) * char
            if x > x1 + 0.12 and x + width > right:
                x, y = x1 + 0.12, y + line
            ax.text(x, y, text, ha="left", va="top", fontsize=size, color=tint[name], zorder=4,
                    gid="offered-label",
                    bbox={"boxstyle": "square,pad=0.05", "fc": "white", "ec": "none",
                          "alpha": 0.85})
            x += width + char


class Case(NamedTuple):
    """One case of a ZOJ 3209 input: the board, the pieces, and the line it starts on."""

    line: int
    n: int
    m: int
    pieces: list[tuple[int, int, int, int]]


def _numbers(number: int, tokens: list[str], what: str) -> list[int]:
    want = len(what.split())
    if len(tokens) != want:
        raise FormatError(f"expected {what}, got {len(tokens)} items", number)
    try:
        values = [int(t) for t in tokens]
    except ValueError:
        raise FormatError(f"expected whole numbers {what}, got {' '.join(tokens)[:60]!r}",
                          number) from None
    if any(v < 0 for v in values):
        raise FormatError(f"{what} must not be negative, got {' '.join(tokens)}", number)
    return values


def read_cases(stream: Any) -> Iterator[Case]:
    """Read a ZOJ 3209 input: T, then per case ``n m p`` and p lines ``x1 y1 x2 y2``.

    ``stream`` is a text file or a list of lines.  Cases are yielded as they are
    read; a malformed one raises :class:`dlx.FormatError` (a ValueError) naming its
    line.  The first line ``T`` may be left out (cases then run to the end of the
    input); :func:`read_batch` reads on past a malformed case.

    >>> [len(case.pieces) for case in read_cases(["2\\n", "1 1 1\\n", "0 0 1 1\\n",
    ...                                           "1 1 0\\n"])]
    [1, 0]
    >>> list(read_cases(["1\\n", "5 5 2\\n", "0 0 5 6\\n"]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dlx.errors.FormatError: line 3: piece 0 (0 0 5 6) is outside the 5 x 5 board ...
    """
    for case in read_batch(stream):
        if isinstance(case, FormatError):
            raise case
        yield case


def read_batch(stream: Any, *, max_length: int | None = None
               ) -> Iterator[Case | FormatError]:
    """The cases of a ZOJ 3209 input, a malformed one as its :class:`dlx.FormatError`.

    Reading goes on past a malformed case whenever the input says where the next
    one starts (a bad piece line, a board too big); a fault that leaves the rest
    unreadable (a bad ``n m p`` line, the input ending early) is the last thing
    yielded.  A first line of one number ``T`` announces the cases (checked); a
    first line of three numbers starts the first case, and cases then run to the
    end of the input.  ``max_length`` caps the length of a line (characters).

    >>> for case in read_batch(["5 5 1\\n", "0 0 6 5\\n", "1 1 1\\n", "0 0 1 1\\n"]):
    ...     print(case)  # doctest: +ELLIPSIS
    line 2: piece 0 (0 0 6 5) is outside the 5 x 5 board ...
    Case(line=3, n=1, m=1, pieces=[(0, 0, 1, 1)])
    """
    kw = {} if max_length is None else {"max_length": max_length}
    lines = read_lines(stream, **kw)
    try:
        got = next(lines, None)
        if got is None:
            yield FormatError("the input is empty: expected the number of cases T, or a case",
                              1)
            return
        head, tokens = got
        t: int | None = None
        pending: tuple[int, list[str]] | None = None
        if len(tokens) == 1:
            (t,) = _numbers(head, tokens, "T")
        else:
            pending = got
        k = 0
        while t is None or k < t:
            got = pending if pending is not None else next(lines, None)
            pending = None
            if got is None:
                if t is not None:
                    yield FormatError(f"line {head} announces {t} cases, but the input ends"
                                      f" after {k}", head)
                return
            k += 1
            start, tokens = got
            n, m, p = _numbers(start, tokens, "n m p")
            fault: FormatError | None = None
            try:
                _board(n, m)
            except ValueError as e:
                fault = FormatError(str(e), start)
            pieces = []
            for j in range(p):
                got = next(lines, None)
                if got is None:
                    if fault is not None:
                        yield fault
                    yield FormatError(f"case {k} announces {p} pieces, but the input ends"
                                      f" after {j}", start)
                    return
                number, tokens = got
                if fault is not None:
                    continue
                try:
                    x1, y1, x2, y2 = _numbers(number, tokens, "x1 y1 x2 y2")
                    _piece(j, (x1, y1, x2, y2), n, m)
                except FormatError as e:
                    fault = e
                    continue
                except ValueError as e:
                    fault = FormatError(str(e), number)
                    continue
                pieces.append((x1, y1, x2, y2))
            yield fault if fault is not None else Case(start, n, m, pieces)
        extra = next(lines, None)
        if extra is not None:
            yield FormatError(f"unexpected text after the {t} cases announced on line {head}",
                              extra[0])
    except FormatError as e:        # a bad T or n m p line, an unreadable or too long line
        yield e
