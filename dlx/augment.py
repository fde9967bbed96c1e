"""Above the search: the partial solutions of the first levels, one per orbit (the roots).

Given a group of symmetries (:mod:`dlx.symmetry`), the partial solutions of the
first levels are listed up to the group, as in McKay's canonical augmentation: at a
partial solution P fixed (as a set) by a group H, take a set I of uncovered items
(by default an H-orbit of items the search would choose), list every way E of
covering I, and keep one E out of each set that H maps onto each other, with the
size of that set as its *weight*; go on below P + E with the stabiliser of E, until
the group left is trivial.  Every solution below P covers I by exactly one E, and
two E's that H maps onto each other have as many solutions below them, so the
count below P is the sum over the E's kept of weight times the count below
P + E.  Each root is then counted by an ordinary forced search
(``forced=root``, :mod:`dlx.orbits`), on either engine or on an executor: the
loops never see the group.  Taking I as the whole orbit gains about the group's
order; taking the chosen item alone (orbital branching, ``rule="item"``) gains only
what that item's options have in common under the group.

The partial solutions are held as bit masks of the options that no longer fit
(:class:`_Partial`), so that an item's options that fit are counted with one
``int.bit_count``.

>>> import dlx
>>> square = dlx.ExactCover({(r, c): [("row", r), ("col", c)]
...                          for r in range(3) for c in range(3)})
>>> g = dlx.symmetries(square, generators=[
...     lambda rc: (rc[1], rc[0]), lambda rc: (2 - rc[0], rc[1])])
>>> found, above = roots(g)           # 6 solutions: one family of 4, one of 2
>>> [(root.options, root.weight) for root in found]
[((1, 3, 8), 4), ((4, 0, 8), 2)]
>>> labels = g.incidence.labels
>>> sum(r.weight * dlx.count(square, forced=[labels[o] for o in r.options]) for r in found)
6
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import NamedTuple

from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Stats
from .symmetry import Element, Incidence, Symmetries

__all__ = ["Root", "roots", "stabiliser", "RULES", "MAX_ROOTS", "MAX_EXTENSIONS",
           "MIN_BELOW"]

#: The choices of the items covered at each level above the search: "orbit" (the
#: default) covers an orbit of items, or the chosen item alone where the orbit has too
#: many ways of being covered; "strict" only whole orbits (it stops there instead), so
#: that two roots never hold images of one solution (what listing one solution per
#: orbit needs); "item" the chosen item alone (orbital branching).
RULES = ("orbit", "strict", "item")

#: At most this many roots (more and the reduction stops where it is).
MAX_ROOTS = 20_000

#: The first level lists at most this many ways to cover an orbit of items (more, and
#: it takes the chosen item alone).
MAX_EXTENSIONS = 100_000

#: A level below the first lists at most as many ways as the first did, or this many:
#: the subtrees below it are smaller than the whole tree, and listing more there costs
#: more than the group saves (beyond, it takes the chosen item alone).
MIN_BELOW = 1_000

_STALLS = 4         # levels in a row that break no symmetry before the reduction stops


class Root(NamedTuple):
    """A partial solution above the search: its options (indices, in the order placed),
    how many partial solutions it stands for, and the group that fixes it."""

    options: tuple[int, ...]
    weight: int
    group: list[Element]


class _Partial:
    """A partial solution built option by option, as bit masks of options: ``killed``
    holds the options that no longer fit (they share an item covered exactly once with
    a placed option, an item without colour or of another colour, or an item with
    bounds that is full), so that an item's options that fit are its ``holders``
    less ``killed``."""

    def __init__(self, inc: Incidence) -> None:
        self.inc = inc
        np = inc.n_primary
        bound = inc.problem.bound
        self.upper = [bound(x)[1] for x in inc.items[:np]]
        self.exact = [bound(x) == (1, 1) for x in inc.items[:np]]
        self.covered = [0] * np
        self.holders = [sum(1 << o for o in held) for held in inc.holders]
        self.primary = [tuple(i for i, _ in row if i < np) for row in inc.rows]
        self.bounded = [tuple(i for i in items if not self.exact[i]) for items in self.primary]
        self.conflict = [self._conflict(o) for o in range(len(inc.rows))]
        self.killed = 0
        self.undo: list[int] = []

    def _conflict(self, o: int) -> int:
        """The options that cannot be in a solution with option ``o``."""
        inc, mask = self.inc, 0
        for i, colour in inc.rows[o]:
            if i < inc.n_primary:
                if self.exact[i]:
                    mask |= self.holders[i]
            elif colour is None:
                mask |= self.holders[i]
            else:
                mask |= sum(1 << p for p in inc.holders[i]
                            if next(c for j, c in inc.rows[p] if j == i) != colour)
        return mask | 1 << o

    def fits(self, o: int) -> bool:
        return not self.killed >> o & 1

    def place(self, o: int) -> None:
        self.undo.append(self.killed)
        killed = self.killed | self.conflict[o]
        covered = self.covered
        for i in self.primary[o]:
            covered[i] += 1
        for i in self.bounded[o]:
            if covered[i] >= self.upper[i]:
                killed |= self.holders[i]
        self.killed = killed

    def unplace(self, o: int) -> None:
        self.killed = self.undo.pop()
        for i in self.primary[o]:
            self.covered[i] -= 1

    def length(self, i: int) -> int:
        """How many options of primary item ``i`` fit."""
        return (self.holders[i] & ~self.killed).bit_count()

    def live(self, i: int) -> list[int]:
        """The options of primary item ``i`` that fit, in order."""
        mask = self.holders[i] & ~self.killed
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out


def stabiliser(group: Sequence[Element], chosen: Sequence[int]) -> list[Element]:
    mine = frozenset(chosen)
    return [g for g in group if all(g[0][o] in mine for o in chosen)]


class _Roots:
    """The walk above the search that makes the roots (see the module's docstring)."""

    def __init__(self, inc: Incidence, rule: str, max_roots: int, max_nodes: int | None,
                 deadline: float | None) -> None:
        if rule not in RULES:
            raise ExactCoverError(f"unknown rule {shown(rule)}: use one of {RULES}")
        self.state = _Partial(inc)
        self.rule, self.max_roots = rule, max_roots
        self.max_nodes, self.deadline = max_nodes, deadline
        self.found: list[Root] = []
        self.above = Stats()
        self.cap = MAX_EXTENSIONS           # (for the levels below the first: see visit)

    def node(self, level: int) -> None:
        s = self.above
        if self.max_nodes is not None and s.nodes >= self.max_nodes:
            raise BudgetExceeded(self.max_nodes, None, s)
        if self.deadline is not None and not s.nodes & 255 and time.monotonic() > self.deadline:
            raise BudgetExceeded(None, None, s, timeout=0.0)
        s.nodes += 1
        if len(s.profile) <= level:
            s.profile.extend([0] * (level + 1 - len(s.profile)))
        s.profile[level] += 1

    def visit(self, chosen: tuple[int, ...], group: list[Element], weight: int,
              stalls: int) -> None:
        if len(group) == 1 or stalls >= _STALLS or len(self.found) >= self.max_roots:
            self.found.append(Root(chosen, weight, group))
            return
        cover = self.choose(group)
        if cover is None:
            self.found.append(Root(chosen, weight, group))
            return
        cap = self.cap
        extensions = self.extensions(cover, len(chosen), cap)
        if extensions is None:                       # too many
            if self.rule == "strict":                # whole orbits only: stop here
                self.found.append(Root(chosen, weight, group))
                return
            extensions = self.extensions(cover[:1], len(chosen), cap)    # the item alone
            assert extensions is not None
        self.node(len(chosen))
        if cap == MAX_EXTENSIONS:                    # the first level sets the scale
            self.cap = max(MIN_BELOW, len(extensions))
        listed = set(map(frozenset, extensions))
        seen: set[frozenset[int]] = set()
        state = self.state
        for ext in extensions:
            key = frozenset(ext)
            if key in seen:
                continue
            images = [frozenset([g[0][o] for o in ext]) for g in group]
            members = listed.intersection(images)
            seen |= members
            below = [g for g, image in zip(group, images, strict=True) if image == key]
            if len(below) == 1 or len(self.found) >= self.max_roots:
                self.found.append(Root(chosen + ext, weight * len(members), below))
                continue
            for o in ext:
                state.place(o)
            self.visit(chosen + ext, below, weight * len(members),
                       stalls + 1 if len(below) == len(group) else 0)
            for o in reversed(ext):
                state.unplace(o)

    def choose(self, group: list[Element]) -> list[int] | None:
        """The items to cover next; None when every primary item covered exactly once
        is covered.  Among the uncovered ones with the fewest options that fit (the
        search's choice and its ties), rule "item" takes the first; rule "orbit"
        takes the smallest orbit under ``group`` of one of them, and of those the one
        whose options leave the fewest others (the most constrained: its ways of
        covering are the fewest, and the trees below them the smallest)."""
        state = self.state
        lengths: dict[int, int] = {}
        for i, exact in enumerate(state.exact):
            if exact and not state.covered[i]:
                lengths[i] = state.length(i)
        if not lengths:
            return None
        fewest = min(lengths.values())
        first = next(i for i, n in lengths.items() if n == fewest)
        if self.rule == "item" or fewest == 0:
            return [first]
        best: tuple[int, float, int] | None = None
        done: set[int] = set()
        for i, n in lengths.items():
            if n != fewest or i in done:
                continue
            orbit = {g[1][i] for g in group}
            done |= orbit
            left = sum((state.conflict[o] & ~state.killed).bit_count() for o in state.live(i))
            key = (len(orbit), -left / n, i)
            if best is None or key < best:
                best = key
        assert best is not None
        i = best[2]
        return [i, *sorted({g[1][i] for g in group} - {i})]

    def extensions(self, cover: list[int], level: int, cap: int
                   ) -> list[tuple[int, ...]] | None:
        """Every way of covering the items ``cover`` with options that fit (None when
        there are more than ``cap``), in the order of a search that branches on the
        item of ``cover`` with the fewest options."""
        state = self.state
        if len(cover) == 1:
            return [(o,) for o in state.live(cover[0])]
        out: list[tuple[int, ...]] = []
        chosen: list[int] = []
        # an explicit stack of (options to try, next one) per level of this small search
        stack: list[tuple[list[int], int]] = []
        todo = self._next(cover)
        while True:
            if todo is None:                     # every item of cover is covered
                out.append(tuple(chosen))
                if len(out) > cap:
                    for o in reversed(chosen):
                        state.unplace(o)
                    return None
            elif todo:
                stack.append((todo, 0))
            while stack:
                options, k = stack.pop()
                if k:
                    state.unplace(chosen.pop())
                if k < len(options):
                    o = options[k]
                    stack.append((options, k + 1))
                    state.place(o)
                    chosen.append(o)
                    break
            else:
                return out
            todo = self._next(cover)
            if todo is not None:
                self.node(level + len(chosen))

    def _next(self, cover: list[int]) -> list[int] | None:
        """The options that fit the item of ``cover`` with the fewest (empty: a dead
        end), or None when every item of ``cover`` is covered."""
        state = self.state
        best: tuple[int, int] | None = None
        for i in cover:
            if not state.covered[i]:
                n = state.length(i)
                if best is None or n < best[0]:
                    best = (n, i)
                    if not n:
                        break
        return None if best is None else state.live(best[1])


def roots(sym: Symmetries, forced: Sequence[int] = (), *, rule: str = "orbit",
          max_roots: int = MAX_ROOTS, max_nodes: int | None = None,
          deadline: float | None = None, whole: bool = True) -> tuple[list[Root], Stats]:
    """The roots below the partial solution ``forced`` (option indices): partial
    solutions, one per orbit, with their weights, in search order; and the nodes
    visited above them.  None of them when the forced options clash.
    :class:`~dlx.BudgetExceeded` (with those nodes) when they are more than
    ``max_nodes``, or at ``deadline`` (``time.monotonic()``).  With ``whole`` False,
    a group too large to list is replaced by a subgroup
    (:meth:`~dlx.Symmetries.listed_subgroup`): the weights still add up to the count."""
    inc = sym.incidence
    walk = _Roots(inc, rule, max_roots, max_nodes, deadline)
    state = walk.state
    for o in forced:
        if not state.fits(o):
            return [], walk.above
        state.place(o)
    listed = sym.indexed_elements() if whole else sym.listed_subgroup()
    walk.visit(tuple(forced), stabiliser(listed, forced), 1, 0)
    return walk.found, walk.above
