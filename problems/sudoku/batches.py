"""Batches: many puzzles at once, with the same answers as the per-puzzle functions.

The puzzles are grouped by shape (one-line text takes a fast path, no Grid), each
group is searched on its shape's prepared matrix (the engine code, in one place
below), and the answers come back in the puzzles' order.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, Literal, NamedTuple

import dlx

from .errors import SudokuFormatError, seconds, whole
from .grid import Grid, PuzzleLike, as_grid
from .matrix import codes, prepared
from .notations import _BYTE_OF_VALUE, _CELL_OF_BYTE
from .shapes import _SIZE_OF_COUNT, Shape, _expected_size
from .verdicts import _BY_COUNT, Verdict

__all__ = ["Outcome", "batch", "solve_lines", "solve_many", "count_many", "classify_many"]


class Outcome(NamedTuple):
    """What :func:`batch` found for one puzzle.

    ``legal`` is False when the givens put a digit twice in a unit (the puzzle is
    :attr:`Verdict.ILLEGAL`, nothing is searched and ``found`` is 0). ``found`` is
    the number of solutions found, at most the limit, or None when ``max_nodes``
    or the batch's ``timeout`` ran out (the answer is unknown). ``solution`` is the
    first solution in the one-line notation (``str`` of its :class:`Grid`), None
    when there is none. ``nodes`` is what
    :class:`dlx.Stats` says for :func:`count` on the same puzzle with the same
    limit, and ``seconds`` the time spent on this puzzle.  ``so_far`` is the number
    of solutions found before the budget or the time ran out (``found`` None), else
    ``found``: a count that stopped says at least that many.
    """

    legal: bool
    found: int | None
    solution: str | None
    nodes: int
    seconds: float
    so_far: int = 0

    @property
    def verdict(self) -> Verdict | None:
        """The verdict, when the search went to a limit of 2 or more (None: budget)."""
        if not self.legal:
            return Verdict.ILLEGAL
        if self.found is None:
            return None
        return _BY_COUNT[min(self.found, 2)]


_CLASH, _OUT_OF_BUDGET = -1, -2     # the core's codes besides counts
#: The engine names that dlx's searches take (``engine=``).
_Engine = Literal["auto", "c", "python"]


class _Group:
    """The puzzles of one shape in a batch: where they came from, their cells as bytes."""

    __slots__ = ("shape", "index", "texts", "extra", "blob", "codes", "nodes", "solutions",
                 "seconds", "timed_out", "found")

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
        self.found: list[int] = []           # solutions found (before a budget ran out)
        self.timed_out = False               # the batch's time ran out in this group


# --------------------------------------------------------------------------- the public verbs


def batch(puzzles: Iterable[PuzzleLike], limit: int | None = 1, *,
          box: tuple[int, int] | None = None, shape: Shape | None = None,
          max_nodes: int | None = None, engine: _Engine | None = None,
          timeout: float | None = None) -> list[Outcome]:
    """Search many puzzles at once: an :class:`Outcome` per puzzle, in order.

    The fast path for files of puzzles: each shape's full exact-cover matrix is
    laid out once (:mod:`problems.sudoku.matrix`), and every puzzle is searched
    on it with its givens as forced options (up to ``limit`` solutions; None:
    all), in one :meth:`dlx.Prepared.batch` per shape: with the compiled core,
    without the GIL.  One-line text puzzles are read without making a
    :class:`Grid`.

    The results are those of the per-puzzle functions (:func:`solve`,
    :func:`count`, which search the same matrix): the same solutions in the same
    order, node counts and budgets (``max_nodes`` applies to each puzzle;
    ``timeout`` is seconds for the whole batch, after which the puzzles left are
    unknown).
    Illegal givens are caught there too: a given whose option an earlier given
    has already removed shares a unit and digit with it, which is exactly what
    :func:`is_legal` rejects.

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
    _run_groups(groups, limit, max_nodes, engine, timeout)
    out: list[Outcome] = [None] * total   # type: ignore[list-item]
    for group in groups:
        texts = _solution_texts(group)
        for k, code, nodes, text, secs, so_far in zip(group.index, group.codes, group.nodes,
                                                      texts, group.seconds, group.found,
                                                      strict=True):
            out[k] = Outcome(code != _CLASH, None if code == _OUT_OF_BUDGET else max(code, 0),
                             text, nodes, secs, so_far)
    return out


def solve_lines(lines: Iterable[str], *, unique: bool = False,
                box: tuple[int, int] | None = None, shape: Shape | None = None,
                max_nodes: int | None = None, engine: _Engine | None = None,
                timeout: float | None = None) -> list[str | None]:
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
    _run_groups(groups, 2 if unique else 1, max_nodes, engine, timeout)
    out: list[str | None] = [None] * total
    for group in groups:
        for k, text in zip(group.index, _solution_texts(group, unique), strict=True):
            out[k] = text
    _budget_check(groups, max_nodes, timeout, out)
    return out


def solve_many(puzzles: Iterable[PuzzleLike], *, box: tuple[int, int] | None = None,
               shape: Shape | None = None, max_nodes: int | None = None,
               engine: _Engine | None = None, timeout: float | None = None
               ) -> list[Grid | None]:
    """:func:`solve` for many puzzles (see :func:`batch`): a Grid or None for each.

    >>> [str(g) for g in solve_many(["1..." "..3." ".4.." "...2", [0] * 16])]
    ['1324423124133142', '1234341221434321']
    """
    total, groups = _group_puzzles(puzzles, box, shape)
    _run_groups(groups, 1, max_nodes, engine, timeout)
    out: list[Grid | None] = [None] * total
    for group in groups:
        m = group.shape.size ** 2
        blob, sols = group.blob, group.solutions
        for j, (k, code) in enumerate(zip(group.index, group.codes, strict=True)):
            if code > 0:
                givens = tuple(v != 0 for v in blob[j * m:(j + 1) * m])
                out[k] = Grid._make(tuple(sols[j * m:(j + 1) * m]), group.shape, givens)
    _budget_check(groups, max_nodes, timeout, out)
    return out


def count_many(puzzles: Iterable[PuzzleLike], limit: int | None = None, *,
               box: tuple[int, int] | None = None, shape: Shape | None = None,
               max_nodes: int | None = None, engine: _Engine | None = None,
               timeout: float | None = None) -> list[int]:
    """:func:`count` for many puzzles (see :func:`batch`); 0 for an illegal one.

    >>> count_many(["." * 16, "1..." "..3." ".4.." "...."], limit=100)
    [100, 3]
    """
    _check_limit(limit)
    total, groups = _group_puzzles(puzzles, box, shape)
    _run_groups(groups, limit, max_nodes, engine, timeout)
    out: list[int] = [0] * total
    for group in groups:
        for k, code in zip(group.index, group.codes, strict=True):
            out[k] = max(code, 0)
    _budget_check(groups, max_nodes, timeout,
                  [None if c == _OUT_OF_BUDGET else max(c, 0) for c in _in_order(groups, total)])
    return out


def classify_many(puzzles: Iterable[PuzzleLike], *, box: tuple[int, int] | None = None,
                  shape: Shape | None = None, max_nodes: int | None = None,
                  engine: _Engine | None = None, timeout: float | None = None
                  ) -> list[Verdict]:
    """:func:`classify` for many puzzles (see :func:`batch`).

    >>> [v.value for v in classify_many(["1..." "..3." ".4.." "...2", "." * 16, "11" + "." * 14])]
    ['Unique', 'Ambiguous', 'Illegal']
    """
    total, groups = _group_puzzles(puzzles, box, shape)
    _run_groups(groups, 2, max_nodes, engine, timeout)
    codes = _in_order(groups, total)
    out = [Verdict.ILLEGAL if c == _CLASH else _BY_COUNT[min(c, 2)] for c in codes]
    _budget_check(groups, max_nodes, timeout,
                  [None if c == _OUT_OF_BUDGET else v for c, v in zip(codes, out, strict=True)])
    return out


# --------------------------------------------------------------------------- answers


def _check_limit(limit: int | None) -> None:
    whole(limit, "limit", low=1, none=True)


def _budget_check(groups: list[_Group], max_nodes: int | None, timeout: float | None,
                  answers: list[Any]) -> None:
    """Raise BudgetExceeded (``found``: the answers, None where unknown) if a node budget
    or the time ran out."""
    if any(group.timed_out for group in groups):
        raise dlx.BudgetExceeded(None, answers, timeout=timeout)
    if any(c == _OUT_OF_BUDGET for group in groups for c in group.codes):
        raise dlx.BudgetExceeded(max_nodes or 0, answers)


def _in_order(groups: list[_Group], total: int) -> list[int]:
    codes = [0] * total
    for group in groups:
        for k, code in zip(group.index, group.codes, strict=True):
            codes[k] = code
    return codes


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


# --------------------------------------------------------------------------- grouping


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
            # (16x16 text with a 0 may be the 0-9A-F notation: the parser decides)
            if n and size == n * n and n <= 35 and not (n == 16 and "0" in s):
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
    for group in list(groups.values()):
        _texts_to_blob(group, groups, box, shape)
    for group in groups.values():
        group.index += [k for k, _ in group.extra]
        group.blob += b"".join(b for _, b in group.extra)
    return total, list(groups.values())


def _texts_to_blob(group: _Group, groups: dict[Shape, _Group], box: tuple[int, int] | None,
                   shape: Shape | None) -> None:
    """Set the group's blob from its one-line texts.

    Texts with a character that is not a cell of their size: the parser decides
    (it raises the error naming the puzzle, or reads another notation), and the
    grid joins the ``extra`` puzzles of its shape's group.
    """
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


# --------------------------------------------------------------------------- the search


def _run_groups(groups: list[_Group], limit: int | None, max_nodes: int | None,
                engine: _Engine | None, timeout: float | None = None) -> None:
    """Search every group on its shape's full matrix (:func:`matrix.prepared`), the
    givens of each puzzle forced, in one batch per group (``timeout``: seconds for
    all of them)."""
    whole(max_nodes, "max_nodes", low=1, none=True)
    timeout = seconds(timeout)
    deadline = None if timeout is None else time.monotonic() + timeout
    for group in groups:
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-9)
        shape = group.shape
        # the cell values are the rows of codes (digit d at a cell: code d): no list of
        # options is made per puzzle, and the first solutions come back as values
        a = prepared(shape, engine).batch_codes(group.blob, codes(shape), limit=limit,
                                                max_nodes=max_nodes, timeout=left)
        group.timed_out = 3 in a.status
        group.codes = [_CLASH if st == 1 else _OUT_OF_BUDGET if st else found
                       for found, st in zip(a.found, a.status, strict=True)]
        group.nodes = a.nodes
        group.seconds = a.seconds
        group.found = a.found
        group.solutions = a.solutions
