"""Rate a Sudoku the way a person solves it: the hardest technique it needs.

:func:`rate` solves a puzzle with human techniques, simplest first, the way
QQWing and Sudoku Explainer do: after every step it starts again from the
simplest technique, so the steps are what a careful person would do, and the
puzzle's :class:`Level` is that of the hardest technique it needed.  When no
technique applies, the rest is left to the search (the highest level), whose
:class:`dlx.Stats` say how much guessing it took.

The levels, in Sudoku Explainer's order of difficulty:

====  ==============================  ==========================================
level name                            techniques (``Step.technique``)
====  ==============================  ==========================================
0     ``SINGLES``                     ``hidden single``, ``naked single``
1     ``LOCKED_CANDIDATES``           ``pointing``, ``claiming``, ``locked candidates``
2     ``NAKED_PAIR``                  ``naked pair``
3     ``X_WING``                      ``x-wing``
4     ``HIDDEN_PAIR``                 ``hidden pair``
5     ``NAKED_TRIPLE``                ``naked triple``
6     ``SWORDFISH``                   ``swordfish``
7     ``HIDDEN_TRIPLE``               ``hidden triple``
8     ``XY_WING``                     ``xy-wing``
9     ``SEARCH``                      ``search``
====  ==============================  ==========================================

Units come from the puzzle's :class:`~problems.sudoku.Shape`, so every size,
Sudoku-X and jigsaw are rated with the same code: naked subsets and locked
candidates work in every unit, hidden singles and subsets in the units of N
cells (which must hold every digit), fish on rows and columns.

>>> r = rate("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> r.level, r.technique, len(r.steps)
(<Level.SINGLES: 0>, 'hidden single', 49)
>>> print(r.steps[0])
hidden single: 6 in box 1 goes to r2c2
>>> r.steps[0].placed
(Placement(row=1, col=1, digit=6),)

Steps beyond singles only remove candidates (``Placement`` values meaning "not
this digit here"):

>>> r = rate("043080250600000000000001094900004070000608000010200003820500000000000005034090710")
>>> r.level, r.technique
(<Level.X_WING: 3>, 'x-wing')
>>> for step in r.steps:
...     if step.technique in ("naked pair", "x-wing"):
...         print(step.text.replace("; ", ";\\n    "))
naked pair: r8c1, r8c4 hold {1, 7} in row 8, so r8c2 loses 7;
    r8c3 loses 1, 7;
    r8c5 loses 1;
    r8c6 loses 7
naked pair: r8c2, r8c3 hold {6, 9} in box 7, so r7c3 loses 6, 9
x-wing: 6 in row 1 and row 9 lies in column 6 and column 9, so r7c6, r4c9 and r7c9 lose 6

A puzzle the techniques cannot finish needs search (Arto Inkala's "hardest"):

>>> r = rate("1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1")
>>> r.level, r.technique, r.search.nodes > 0
(<Level.SEARCH: 9>, 'search', True)
>>> print(r.steps[-1])  # doctest: +ELLIPSIS
search: no technique applies; 60 cells left, solved by search (... nodes, branching at ... levels)

:func:`explain` gives the same steps (``steps=True``) beside the clashes of
illegal givens, and :meth:`Level.parse` reads a level from its number or a
name (for command lines and ``generate(level=...)``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from itertools import combinations
from typing import Literal, NamedTuple, overload

import dlx

from .batches import batch
from .encoding import encode
from .errors import SudokuError, _shown, deadline_of
from .grid import Grid, PuzzleLike, as_grid
from .shapes import Placement, Shape, Unit
from .verdicts import Clash, Verdict, is_legal
from .verdicts import explain as _clashes

__all__ = ["Level", "TECHNIQUES", "Step", "Rating", "NotUniqueError", "rate", "solve_steps",
           "explain"]



class Level(IntEnum):
    """How hard a puzzle is: the level of the hardest technique its solution needs."""

    SINGLES = 0
    LOCKED_CANDIDATES = 1
    NAKED_PAIR = 2
    X_WING = 3
    HIDDEN_PAIR = 4
    NAKED_TRIPLE = 5
    SWORDFISH = 6
    HIDDEN_TRIPLE = 7
    XY_WING = 8
    SEARCH = 9

    @classmethod
    def parse(cls, value: int | str) -> Level:
        """The level named by ``value``: a number (``3``, ``"3"``), a level name
        (``"X_WING"``, ``"x-wing"``, ``"locked candidates"``) or a technique name
        (``"pointing"``, see :data:`TECHNIQUES`).  Raises
        :class:`~problems.sudoku.SudokuError` (a ValueError) otherwise.

        >>> Level.parse("x-wing"), Level.parse("Naked pair"), Level.parse("claiming")
        (<Level.X_WING: 3>, <Level.NAKED_PAIR: 2>, <Level.LOCKED_CANDIDATES: 1>)
        >>> Level.parse(9) is Level.parse("9") is Level.parse("search") is Level.SEARCH
        True
        """
        if isinstance(value, str):
            text = value.strip()
            if text.isascii() and text.isdigit():
                if len(text) > 3:               # (int() refuses 4,300 digits and more)
                    raise SudokuError(f"level must be 0..{int(cls.SEARCH)} or a technique"
                                      f" name, not {_shown(value)}")
                value = int(text)
            else:
                key = " ".join(text.lower().replace("_", " ").split())
                if key in TECHNIQUES:
                    return TECHNIQUES[key]
                name = key.replace("-", "_").replace(" ", "_").upper()
                if name in cls.__members__:
                    return cls[name]
                names = sorted({*TECHNIQUES, *(m.lower().replace("_", " ")
                                                for m in cls.__members__)})
                raise SudokuError(f"unknown technique {_shown(value)}; use a level"
                                  f" 0..{int(cls.SEARCH)} or one of {', '.join(names)}")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= cls.SEARCH:
            raise SudokuError(f"level must be 0..{int(cls.SEARCH)} or a technique name,"
                              f" not {_shown(value)}")
        return cls(value)


#: Every technique's name and level (the names ``Step.technique`` uses).
TECHNIQUES: dict[str, Level] = {
    "hidden single": Level.SINGLES,
    "naked single": Level.SINGLES,
    "pointing": Level.LOCKED_CANDIDATES,
    "claiming": Level.LOCKED_CANDIDATES,
    "locked candidates": Level.LOCKED_CANDIDATES,
    "naked pair": Level.NAKED_PAIR,
    "x-wing": Level.X_WING,
    "hidden pair": Level.HIDDEN_PAIR,
    "naked triple": Level.NAKED_TRIPLE,
    "swordfish": Level.SWORDFISH,
    "hidden triple": Level.HIDDEN_TRIPLE,
    "xy-wing": Level.XY_WING,
    "search": Level.SEARCH,
}


#: The level of each finder of :meth:`_Solver.next_step`, in the order they are tried.
_FINDER_LEVELS = (0, 0, 1, 2, 3, 4, 5, 6, 7, 8)


class NotUniqueError(SudokuError):
    """A puzzle that is illegal, impossible or ambiguous was given where one solution is needed.

    ``verdict`` says which (:class:`~problems.sudoku.Verdict`).  It is a
    :class:`ValueError` (through :class:`dlx.ExactCoverError`).

    >>> try:
    ...     rate("." * 16)
    ... except NotUniqueError as e:
    ...     print(e)
    the puzzle has 2 or more solutions; rate needs exactly one
    """

    def __init__(self, verdict: Verdict, what: str) -> None:
        self.verdict = verdict
        reason = {
            Verdict.ILLEGAL: "the givens break a rule (sudoku.explain says which)",
            Verdict.IMPOSSIBLE: "the puzzle has no solution",
            Verdict.AMBIGUOUS: "the puzzle has 2 or more solutions",
        }.get(verdict, f"the puzzle is {verdict}")
        super().__init__(f"{reason}; {what} needs exactly one")


class Step(NamedTuple):
    """One application of one technique: digits placed and candidates eliminated.

    ``placed`` and ``eliminated`` are :class:`~problems.sudoku.Placement` values
    (an eliminated one means "this digit cannot go in this cell"); ``cells`` are
    the ``(row, col)`` cells the reasoning rests on, and ``text`` the one-line
    explanation (also ``str(step)``).
    """

    technique: str
    placed: tuple[Placement, ...]
    eliminated: tuple[Placement, ...]
    cells: tuple[tuple[int, int], ...]
    text: str

    @property
    def level(self) -> Level:
        """The level of the step's technique."""
        return TECHNIQUES[self.technique]

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Rating:
    """What :func:`rate` found: the level, its technique, the steps and the solution.

    ``search`` holds the :class:`dlx.Stats` of the search that finished the
    puzzle (proving the rest unique) when the techniques ran out, else None; it
    takes no part in comparisons and hashing (the search step's text has its
    node count).
    """

    level: Level
    technique: str
    steps: tuple[Step, ...]
    solution: Grid
    search: dlx.Stats | None = field(default=None, compare=False)

    @property
    def guesses(self) -> int:
        """Levels at which the finishing search had to guess (0 when none was needed)."""
        return 0 if self.search is None else branch_levels(self.search)

    @property
    def counts(self) -> Counter[str]:
        """How many steps used each technique."""
        return Counter(s.technique for s in self.steps)

    def __str__(self) -> str:
        return f"level {int(self.level)} ({self.technique}), {_counted(len(self.steps), 'step')}"


# --------------------------------------------------------------------------- per-shape tables


class Layout:
    """Cell and unit tables of a shape, from its public ``Shape.units`` (built once per shape).

    Cells are numbered row-major (``r * N + c``).  Shared with the generator.
    """

    def __init__(self, shape: Shape) -> None:
        n = shape.size
        self.n = n
        self.shape = shape
        self.units: tuple[Unit, ...] = shape.units
        self.unit_cells: list[tuple[int, ...]] = [
            tuple(r * n + c for r, c in u.cells) for u in shape.units]
        self.unit_sets: list[frozenset[int]] = [frozenset(c) for c in self.unit_cells]
        self.full: list[bool] = [len(c) == n for c in self.unit_cells]
        units_of: list[list[int]] = [[] for _ in range(n * n)]
        for k, cells in enumerate(self.unit_cells):
            for i in cells:
                units_of[i].append(k)
        self.units_of: list[tuple[int, ...]] = [tuple(u) for u in units_of]
        self.full_units_of: list[tuple[int, ...]] = [
            tuple(k for k in u if self.full[k]) for u in units_of]
        self.unit_board: list[int] = [sum(1 << i for i in cells) for cells in self.unit_cells]
        peer_board: list[int] = []
        for i in range(n * n):
            b = 0
            for k in units_of[i]:
                b |= self.unit_board[k]
            peer_board.append(b | (1 << i))
        self.peer_board = peer_board          # the cell itself and every cell sharing a unit
        self.peers: list[tuple[int, ...]] = [
            tuple(j for j in _bits(b) if j != i) for i, b in enumerate(peer_board)]
        self.all_digits = (1 << (n + 1)) - 2  # bits 1..n
        # Scan order: boxes (regions) first, as people look, then rows, columns, the rest.
        rank = {"box": 0, "row": 1, "col": 2}
        self.order: list[int] = sorted(
            range(len(self.units)), key=lambda k: (rank.get(self.units[k].kind, 3), k))
        # Locked candidates: (A full, B, A&B, A-B, B-A) for units meeting in 2+ cells.
        self.locked: list[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        for a in self.order:
            if not self.full[a]:
                continue
            sa = set(self.unit_cells[a])
            for b in self.order:
                sb = set(self.unit_cells[b])
                inter = sa & sb
                if b == a or len(inter) < 2 or sb <= sa or sa <= sb:
                    continue
                self.locked.append((a, b, tuple(sorted(inter)), tuple(sorted(sa - sb)),
                                    tuple(sorted(sb - sa))))
        # Fish: rows and columns that partition the grid (cell -> unit index).
        self.line_of: dict[str, list[int]] = {}
        for kind in ("row", "col"):
            owner = [-1] * (n * n)
            ks = [k for k, u in enumerate(self.units) if u.kind == kind and self.full[k]]
            for k in ks:
                for i in self.unit_cells[k]:
                    owner[i] = k
            if len(ks) == n and -1 not in owner:
                self.line_of[kind] = owner

    def name(self, i: int) -> str:
        """The cell's name, ``r3c5`` (1-based)."""
        r, c = divmod(i, self.n)
        return f"r{r + 1}c{c + 1}"

    def rc(self, i: int) -> tuple[int, int]:
        """The cell's ``(row, col)``."""
        r, c = divmod(i, self.n)
        return (r, c)


@lru_cache(maxsize=64)
def layout(shape: Shape) -> Layout:
    """The :class:`Layout` of a shape (cached)."""
    return Layout(shape)


def _bits(b: int) -> Iterator[int]:
    """The positions of the set bits of ``b``, lowest first."""
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low


def branch_levels(stats: dlx.Stats) -> int:
    """How many levels of a search tree had a node with two or more children (guesses).

    A level holds more nodes than the one above it exactly when some node there branched.
    """
    p = stats.profile
    return sum(1 for a, b in zip(p, p[1:], strict=False) if b > a)


def _counted(n: int, word: str) -> str:
    """``1 step``, ``49 steps``.

    >>> _counted(1, "step"), _counted(49, "step")
    ('1 step', '49 steps')
    """
    return f"{n} {word}{'' if n == 1 else 's'}"


def _and(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _digits(mask: int) -> str:
    return ", ".join(map(str, _bits(mask)))


def unique_solution(g: Grid, what: str, deadline: dlx.Deadline | None = None) -> Grid:
    """The one solution of ``g``, or :class:`NotUniqueError` naming ``what`` needs it
    (:class:`dlx.BudgetExceeded` when the ``deadline`` passes first)."""
    if not is_legal(g):
        raise NotUniqueError(Verdict.ILLEGAL, what)
    left = None if deadline is None else deadline.remaining()
    out = batch([g], 2, shape=g.shape, timeout=left)[0]
    if out.found is None:
        raise (deadline or dlx.Deadline(None)).exceeded()
    if out.found != 1 or out.solution is None:
        verdict = Verdict.IMPOSSIBLE if not out.found else Verdict.AMBIGUOUS
        raise NotUniqueError(verdict, what)
    return Grid(out.solution, shape=g.shape)


# --------------------------------------------------------------------------- the solver


class _Solver:
    """Candidates of a puzzle, and one finder per technique (each returns a Step or None).

    The finders that may scan long (subsets, fish, wings: seconds on a 64x64 grid)
    check the ``deadline`` as they go, unit by unit or digit by digit."""

    def __init__(self, lay: Layout, values: Sequence[int],
                 deadline: dlx.Deadline | None = None) -> None:
        self.lay = lay
        self.deadline = deadline if deadline is not None else dlx.Deadline(None)
        self.values = list(values)
        n = lay.n
        unit_mask = [0] * len(lay.unit_cells)
        for k, cells in enumerate(lay.unit_cells):
            for i in cells:
                if self.values[i]:
                    unit_mask[k] |= 1 << self.values[i]
        self.cand = [0] * (n * n)
        for i, v in enumerate(self.values):
            if not v:
                seen = 0
                for k in lay.units_of[i]:
                    seen |= unit_mask[k]
                self.cand[i] = lay.all_digits & ~seen

    # -- applying a step
    def apply(self, step: Step) -> None:
        n = self.lay.n
        for r, c, d in step.placed:
            i = r * n + c
            self.values[i] = d
            self.cand[i] = 0
            bit = ~(1 << d)
            for j in self.lay.peers[i]:
                self.cand[j] &= bit
        for r, c, d in step.eliminated:
            self.cand[r * n + c] &= ~(1 << d)

    def _elims(self, cells: Sequence[int], mask: int) -> tuple[Placement, ...]:
        """The candidates in ``mask`` of ``cells``, as eliminations."""
        out: list[Placement] = []
        for i in cells:
            hit = self.cand[i] & mask
            if hit:
                r, c = self.lay.rc(i)
                out.extend(Placement(r, c, d) for d in _bits(hit))
        return tuple(out)

    def _loses(self, elims: Sequence[Placement]) -> str:
        """``r3c5, r7c5 lose 7`` (one digit), else ``r8c3 loses 1, 7; r8c5 loses 1``."""
        digits = {d for _, _, d in elims}
        if len(digits) == 1:
            cells = [f"r{r + 1}c{c + 1}" for r, c, _ in elims]
            verb = "loses" if len(cells) == 1 else "lose"
            return f"{_and(cells)} {verb} {digits.pop()}"
        by_cell: dict[tuple[int, int], list[int]] = {}
        for r, c, d in elims:
            by_cell.setdefault((r, c), []).append(d)
        return "; ".join(f"r{r + 1}c{c + 1} loses {', '.join(map(str, ds))}"
                         for (r, c), ds in by_cell.items())

    def _cells(self, cells: Sequence[int]) -> tuple[tuple[int, int], ...]:
        return tuple(self.lay.rc(i) for i in cells)

    # -- level 0
    def hidden_single(self) -> Step | None:
        lay, cand = self.lay, self.cand
        for k in lay.order:
            if not lay.full[k]:
                continue
            once = twice = 0
            cells = lay.unit_cells[k]
            for i in cells:
                m = cand[i]
                twice |= once & m
                once |= m
            only = once & ~twice
            if only:
                d = (only & -only).bit_length() - 1
                i = next(j for j in cells if cand[j] >> d & 1)
                r, c = lay.rc(i)
                text = f"hidden single: {d} in {lay.units[k].title} goes to {lay.name(i)}"
                return Step("hidden single", (Placement(r, c, d),), (), ((r, c),), text)
        return None

    def naked_single(self) -> Step | None:
        for i, m in enumerate(self.cand):
            if m and not m & (m - 1):
                d = m.bit_length() - 1
                r, c = self.lay.rc(i)
                text = f"naked single: {self.lay.name(i)} can only be {d}"
                return Step("naked single", (Placement(r, c, d),), (), ((r, c),), text)
        return None

    # -- level 1
    def locked_candidates(self) -> Step | None:
        lay, cand = self.lay, self.cand
        for a, b, inter, a_only, b_only in lay.locked:
            inside = 0
            for i in inter:
                inside |= cand[i]
            if not inside:
                continue
            outside = 0
            for i in a_only:
                outside |= cand[i]
            confined = inside & ~outside
            if not confined:
                continue
            for d in _bits(confined):
                elims = self._elims(b_only, 1 << d)
                if elims:
                    ua, ub = lay.units[a], lay.units[b]
                    if ua.kind == "box" and ub.kind in ("row", "col"):
                        name = "pointing"
                    elif ua.kind in ("row", "col") and ub.kind == "box":
                        name = "claiming"
                    else:
                        name = "locked candidates"
                    pattern = [i for i in inter if cand[i] >> d & 1]
                    text = (f"{name}: {d} in {ua.title} lies in {ub.title}, so "
                            f"{self._loses(elims)}")
                    return Step(name, (), elims, self._cells(pattern), text)
        return None

    # -- subsets
    def naked_subset(self, k: int) -> Step | None:
        lay, cand = self.lay, self.cand
        name = ("naked pair", "naked triple", "naked quad")[k - 2]
        for u in lay.order:
            self.deadline.check()
            cells = lay.unit_cells[u]
            small = [i for i in cells if 1 < cand[i].bit_count() <= k]
            if len(small) < k:
                continue
            for combo in combinations(small, k):
                union = 0
                for i in combo:
                    union |= cand[i]
                if union.bit_count() != k:
                    continue
                elims = self._elims([i for i in cells if i not in combo], union)
                if elims:
                    where = ", ".join(lay.name(i) for i in combo)
                    text = (f"{name}: {where} hold {{{_digits(union)}}} in {lay.units[u].title},"
                            f" so {self._loses(elims)}")
                    return Step(name, (), elims, self._cells(combo), text)
        return None

    def hidden_subset(self, k: int) -> Step | None:
        lay, cand = self.lay, self.cand
        name = ("hidden pair", "hidden triple", "hidden quad")[k - 2]
        for u in lay.order:
            if not lay.full[u]:
                continue
            self.deadline.check()
            cells = lay.unit_cells[u]
            where: dict[int, int] = {}     # digit -> bitset of positions in the unit
            for p, i in enumerate(cells):
                for d in _bits(cand[i]):
                    where[d] = where.get(d, 0) | (1 << p)
            few = [d for d in sorted(where) if 1 < where[d].bit_count() <= k]
            if len(few) < k:
                continue
            for combo in combinations(few, k):
                spots = 0
                for d in combo:
                    spots |= where[d]
                if spots.bit_count() != k:
                    continue
                keep = sum(1 << d for d in combo)
                chosen = [cells[p] for p in _bits(spots)]
                elims = self._elims(chosen, lay.all_digits & ~keep)
                if elims:
                    text = (f"{name}: {_digits(keep)} in {lay.units[u].title} only at "
                            f"{', '.join(lay.name(i) for i in chosen)}, so {self._loses(elims)}")
                    return Step(name, (), elims, self._cells(chosen), text)
        return None

    # -- fish
    def fish(self, k: int) -> Step | None:
        lay, cand = self.lay, self.cand
        name = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}[k]
        for base, cover in (("row", "col"), ("col", "row")):
            if base not in lay.line_of or cover not in lay.line_of:
                continue
            base_of, cover_of = lay.line_of[base], lay.line_of[cover]
            bases = [u for u in lay.order if lay.units[u].kind == base and lay.full[u]]
            for d in range(1, lay.n + 1):
                self.deadline.check()
                bit = 1 << d
                spots: list[tuple[int, frozenset[int]]] = []
                for u in bases:
                    covers = frozenset(cover_of[i] for i in lay.unit_cells[u] if cand[i] & bit)
                    if 1 < len(covers) <= k:
                        spots.append((u, covers))
                for combo in combinations(spots, k):
                    union = frozenset().union(*(c for _, c in combo))
                    if len(union) != k:
                        continue
                    used = {u for u, _ in combo}
                    targets = [i for c in sorted(union) for i in lay.unit_cells[c]
                               if base_of[i] not in used]
                    elims = self._elims(targets, bit)
                    if elims:
                        b_titles = _and([lay.units[u].title for u, _ in combo])
                        c_titles = _and([lay.units[c].title for c in sorted(union)])
                        pattern = [i for u, _ in combo for i in lay.unit_cells[u]
                                   if cand[i] & bit]
                        text = (f"{name}: {d} in {b_titles} lies in {c_titles}, so "
                                f"{self._loses(elims)}")
                        return Step(name, (), elims, self._cells(pattern), text)
        return None

    # -- wings
    def xy_wing(self) -> Step | None:
        lay, cand = self.lay, self.cand
        pairs = [i for i, m in enumerate(cand) if m.bit_count() == 2]
        is_pair = set(pairs)
        for p in pairs:
            self.deadline.check()
            pm = cand[p]
            wings = [j for j in lay.peers[p] if j in is_pair and cand[j] != pm
                     and (cand[j] & pm).bit_count() == 1]
            for a, b in combinations(wings, 2):
                za, zb = cand[a] & ~pm, cand[b] & ~pm
                if za != zb or (cand[a] & cand[b] & pm):
                    continue
                both = lay.peer_board[a] & lay.peer_board[b]
                targets = [j for j in _bits(both) if j not in (a, b, p)]
                elims = self._elims(targets, za)
                if elims:
                    z = za.bit_length() - 1
                    text = (f"xy-wing: {lay.name(p)} {{{_digits(pm)}}} with {lay.name(a)} "
                            f"{{{_digits(cand[a])}}} and {lay.name(b)} {{{_digits(cand[b])}}}: "
                            f"one of the wings is {z}, so {self._loses(elims)}")
                    return Step("xy-wing", (), elims, self._cells((p, a, b)), text)
        return None

    def next_step(self, up_to: int = Level.XY_WING) -> Step | None:
        """The first step of the simplest technique that applies, or None (only the
        techniques of level ``up_to`` or less)."""
        finders: tuple[Callable[[], Step | None], ...] = (
                   self.hidden_single, self.naked_single, self.locked_candidates,
                   lambda: self.naked_subset(2), lambda: self.fish(2),
                   lambda: self.hidden_subset(2), lambda: self.naked_subset(3),
                   lambda: self.fish(3), lambda: self.hidden_subset(3), self.xy_wing)
        for level, find in zip(_FINDER_LEVELS, finders, strict=True):
            if level > up_to:
                return None
            step = find()
            if step is not None:
                return step
        return None

    def solves(self, up_to: int) -> bool:
        """Do the techniques of level ``up_to`` or less fill every cell?  (Then the
        puzzle has exactly one solution: each step is a sound deduction.)"""
        while 0 in self.values:
            self.deadline.check()
            step = self.next_step(up_to)
            if step is None:
                return False
            self.apply(step)
        return True

    # -- the search that finishes what the techniques leave
    def search(self, solution: Grid) -> tuple[Step, dlx.Stats]:
        lay = self.lay
        n = lay.n
        grid = Grid(self.values, shape=lay.shape)
        problem = encode(grid)
        # Only the blank cells' surviving candidates: the placed cells' options and the
        # items they cover leave the problem, so levels count blank cells.
        options: dict[Hashable, Sequence[Hashable]] = {}
        done: set[Hashable] = set()
        for label, items in problem.options.items():
            assert isinstance(label, Placement)
            i = label.row * n + label.col
            if self.values[i]:
                done.update(items)
            elif self.cand[i] >> label.digit & 1:
                options[label] = items
        left = dlx.ExactCover(options, secondary=[x for x in problem.secondary if x not in done],
                              primary=[x for x in problem.primary if x not in done])
        stats = dlx.Stats()
        try:
            dlx.count(left, limit=2, stats=stats, timeout=self.deadline.remaining())
        except dlx.BudgetExceeded:
            raise self.deadline.exceeded() from None
        blanks = [i for i, v in enumerate(self.values) if not v]
        placed = tuple(Placement(*lay.rc(i), solution.values[i]) for i in blanks)
        text = (f"search: no technique applies; {_counted(len(blanks), 'cell')} left, solved by"
                f" search ({_counted(stats.nodes, 'node')}, branching at"
                f" {_counted(branch_levels(stats), 'level')})")
        return Step("search", placed, (), (), text), stats


def rate(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
         shape: Shape | None = None, timeout: float | None = None) -> Rating:
    """Solve ``puzzle`` step by step with human techniques and rate it by the hardest one.

    Parameters
    ----------
    puzzle : Grid, text or sequence of ints
        A puzzle with exactly one solution (any shape: ``box=`` or ``shape=`` as
        in :func:`~problems.sudoku.as_grid`).

    Returns
    -------
    Rating
        ``level`` (a :class:`Level`, an int: 0 singles only ... 9 search needed),
        ``technique`` (the name of the first step at that level), ``steps`` (one
        :class:`Step` per technique application, in order; when search was needed
        the last step places every remaining digit), ``solution`` and ``search``
        (the :class:`dlx.Stats` of that search, else None).

    timeout : float or None
        Seconds for the whole rating (checked before every step, and unit by unit
        or digit by digit inside the long ones); None: no limit.

    Raises
    ------
    NotUniqueError
        When the puzzle is illegal, impossible or ambiguous.
    dlx.BudgetExceeded
        When ``timeout`` runs out first (``found`` is None).

    The rating is deterministic: techniques are tried simplest first, and each
    scans the units in a fixed order (boxes, rows, columns, other units).

    >>> r = rate("1..." "..3." ".4.." "...2")
    >>> r.level, [s.text for s in r.steps][:2]
    (<Level.SINGLES: 0>, ['hidden single: 3 in box 1 goes to r1c2', \
'hidden single: 4 in box 1 goes to r2c1'])
    """
    deadline = deadline_of(timeout)
    g = as_grid(puzzle, box, shape)
    solution = unique_solution(g, "rate", deadline)
    solver = _Solver(layout(g.shape), g.values, deadline)
    steps: list[Step] = []
    stats: dlx.Stats | None = None
    while 0 in solver.values:
        deadline.check()
        step = solver.next_step()
        if step is None:
            step, stats = solver.search(solution)
        steps.append(step)
        solver.apply(step)
    if not steps:
        return Rating(Level.SINGLES, "none", (), solution)
    level = max(s.level for s in steps)
    technique = next(s.technique for s in steps if s.level == level)
    return Rating(level, technique, tuple(steps), solution, stats)


def solve_steps(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
                shape: Shape | None = None, timeout: float | None = None) -> list[Step]:
    """The human solution of ``puzzle``: :func:`rate`'s steps (see there, ``timeout`` too).

    >>> for step in solve_steps("1..." "..3." ".4.." "...2")[:3]:
    ...     print(step)
    hidden single: 3 in box 1 goes to r1c2
    hidden single: 4 in box 1 goes to r2c1
    hidden single: 2 in box 1 goes to r2c2
    """
    return list(rate(puzzle, box=box, shape=shape, timeout=timeout).steps)


@overload
def explain(puzzle: PuzzleLike, *, steps: Literal[False] = False,
            box: tuple[int, int] | None = None, shape: Shape | None = None) -> list[Clash]: ...


@overload
def explain(puzzle: PuzzleLike, *, steps: bool,
            box: tuple[int, int] | None = None, shape: Shape | None = None
            ) -> list[Clash] | list[Step]: ...


def explain(puzzle: PuzzleLike, *, steps: bool = False, box: tuple[int, int] | None = None,
            shape: Shape | None = None) -> list[Clash] | list[Step]:
    """What is wrong with the givens, or, with ``steps=True``, how a person solves the puzzle.

    Without ``steps``: every digit given twice or more in one unit
    (:class:`~problems.sudoku.Clash`; empty when the givens are legal).  With
    ``steps=True``: the same clashes for illegal givens, else the human
    solution, :func:`rate`'s steps (raising :class:`NotUniqueError` when the
    puzzle has no solution or several).  Either way ``str`` of each item is
    one line for people.

    >>> for line in explain("12.." "2..." "...." "...1"):
    ...     print(line)
    digit 2 appears twice in box 1 (r1c2, r2c1)
    >>> for line in explain("1..." "..3." ".4.." "...2", steps=True)[:2]:
    ...     print(line)
    hidden single: 3 in box 1 goes to r1c2
    hidden single: 4 in box 1 goes to r2c1
    >>> explain("11" + "." * 14, steps=True) == explain("11" + "." * 14)
    True
    """
    g = as_grid(puzzle, box, shape)
    clashes = _clashes(g)
    if clashes or not steps:
        return clashes
    return list(rate(g).steps)
