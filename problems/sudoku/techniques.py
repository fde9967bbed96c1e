"""The human techniques: their levels, the steps they make, and the finders.

:class:`Solver` keeps a puzzle's candidates (a bit set per cell, digit d as bit
d) and has one finder per technique, each returning the first :class:`Step` it
finds (the units scanned in the shape's order: boxes, rows, columns, the rest)
or None; :meth:`Solver.next_step` tries them simplest first, which is what
:func:`~problems.sudoku.rate` repeats until the grid is full or no technique
applies.  The tables it reads (units, peers, the pairs of units that lock
candidates, the lines of fish) are the shape's (:mod:`problems.sudoku.tables`).

>>> from problems import sudoku
>>> g = sudoku.Grid("1..." "..3." ".4.." "...2")
>>> solver = Solver(g.shape.tables(), g.values)
>>> print(solver.next_step())
hidden single: 3 in box 1 goes to r1c2
>>> solver.solves(Level.SINGLES)
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from enum import IntEnum
from itertools import combinations
from typing import NamedTuple

import dlx

from .encoding import encode
from .errors import SudokuError, _shown
from .grid import Grid
from .tables import Placement, Tables, bits

__all__ = ["Level", "TECHNIQUES", "Step", "Solver", "branch_levels", "counted"]


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


#: The level of each finder of :meth:`Solver.next_step`, in the order they are tried.
_FINDER_LEVELS = (0, 0, 1, 2, 3, 4, 5, 6, 7, 8)


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


def branch_levels(stats: dlx.Stats) -> int:
    """How many levels of a search tree had a node with two or more children (guesses).

    A level holds more nodes than the one above it exactly when some node there branched.
    """
    p = stats.profile
    return sum(1 for a, b in zip(p, p[1:], strict=False) if b > a)


def counted(n: int, word: str) -> str:
    """``1 step``, ``49 steps``.

    >>> counted(1, "step"), counted(49, "step")
    ('1 step', '49 steps')
    """
    return f"{n} {word}{'' if n == 1 else 's'}"


def _and(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _digits(mask: int) -> str:
    return ", ".join(map(str, bits(mask)))


# --------------------------------------------------------------------------- the finders


class Solver:
    """Candidates of a puzzle, and one finder per technique (each returns a Step or None).

    The finders that may scan long (subsets, fish, wings: seconds on a 64x64 grid)
    check the ``deadline`` as they go, unit by unit or digit by digit."""

    def __init__(self, lay: Tables, values: Sequence[int],
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
                out.extend(Placement(r, c, d) for d in bits(hit))
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
            for d in bits(confined):
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
                for d in bits(cand[i]):
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
                chosen = [cells[p] for p in bits(spots)]
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
                targets = [j for j in bits(both) if j not in (a, b, p)]
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
        """The step that finishes the puzzle by search (proving the rest unique), placing
        the rest of ``solution``, and that search's statistics."""
        lay = self.lay
        n = lay.n
        grid = Grid(self.values, shape=solution.shape)
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
        text = (f"search: no technique applies; {counted(len(blanks), 'cell')} left, solved by"
                f" search ({counted(stats.nodes, 'node')}, branching at"
                f" {counted(branch_levels(stats), 'level')})")
        return Step("search", placed, (), (), text), stats
