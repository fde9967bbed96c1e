"""Minimal puzzles: drop forced options while the problem keeps exactly one solution.

A *puzzle* of an exact-cover problem is a set of forced options under which it
has exactly one solution: a grid puzzle's givens are forced options of its full
(cell, digit) matrix.  A puzzle is *minimal* when no forced option can go
without a second solution appearing.  :meth:`dlx.Prepared.minimize` makes a
puzzle minimal: it goes through ``groups`` of its forced options in order and
drops each group whose removal leaves exactly one solution (a group goes as a
whole or not at all: for a symmetric pattern of givens).  Starting from a whole
solution with groups in random order, it makes random minimal puzzles.

This module is the reference (the pure engine runs it; the compiled core's
``Table.minimize`` does the same steps, with the same searches and node
counts, and places the forced options of its checks more cleverly).  What
makes it cheap:

* Removing forced options only ever adds solutions.  So a group whose removal
  gives two solutions can never go later, and one pass over the groups proves
  the result minimal.
* **Propagation** (phase 1, no search).  An option outside the forced set is
  *implied* by it when one of its primary items has no other option that could
  join the forced options (each clashes with one of them: a primary item, or a
  secondary item where the colours disagree).  Every solution then holds it.
  So a group goes when its options, taken out, come back one by one as implied:
  the solutions are unchanged.  Taking options away never makes an option
  implied, so a group that fails this once is left to phase 2.  (In a grid
  puzzle: naked and hidden singles.)  Not used under bounds (Algorithm M).
* **Unavoidable sets**, when the caller knows some: sets of options of the
  solution that another solution replaces, keeping the rest (a grid
  puzzle's unavoidable sets, a Latin square's trades).  A puzzle keeps an option of
  each, so a group that would leave one without stays, with no search.
* **Search** (phase 2), each remaining group in order, against the puzzle as it
  is then.  A single option ``o`` goes when no solution of the other forced
  options avoids it: search them with ``o`` excluded from the problem, to a
  first solution.  (A second solution cannot hold ``o``: it would hold every
  forced option, so it would be the first.)  A group of several options goes
  when the options left have exactly one solution: search to a second.

A search that runs out of ``max_nodes`` leaves its group in place: the puzzle
is unique, but then not proven minimal (``unknown`` counts them).  With
``keep``, a group whose removal would leave fewer forced options than that
stays, unsearched (a puzzle with a number of givens, not a minimal one).

>>> import dlx
>>> latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v)]
...                         for r in range(3) for c in range(3) for v in range(3)})
>>> square = [(r, c, (r + c) % 3) for r in range(3) for c in range(3)]
>>> m = dlx.Prepared(latin).minimize(square)
>>> m.kept, m.searches
(((1, 2, 0), (2, 1, 0), (2, 2, 1)), 4)
>>> dlx.count(latin, forced=m.kept)
1
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple

from .errors import ExactCoverError, shown
from .links import Links

__all__ = ["Minimized"]

#: A search of the reference: (forced option indices, limit, excluded option or None)
#: -> (solutions found, nodes, out of budget).
Search = Callable[[Sequence[int], int, "int | None"], tuple[int, int, bool]]

DONE, NOT_ONE, BUDGET, TIMEOUT = 0, 1, 2, 3    # how it ended (as the core says it)


class Minimized(NamedTuple):
    """What :meth:`dlx.Prepared.minimize` made.

    ``kept`` holds the forced options left (labels, or option indices with
    ``indices=True``), in the order they were given; ``searches`` counts the
    searches (the first checks that the forced options have one solution),
    ``nodes`` their nodes; ``unknown`` counts the groups kept because their
    search ran out of ``max_nodes`` (0: the puzzle is minimal for these groups).
    """

    kept: tuple[Hashable, ...]
    searches: int
    nodes: int
    unknown: int


def check_groups(forced: Sequence[int], groups: Sequence[Sequence[int]] | None,
                 name: Callable[[int], Hashable]) -> list[tuple[int, ...]]:
    """The groups as tuples of option indices (default: each forced option alone);
    ExactCoverError for a repeated option, an empty group, or one not forced."""
    seen: set[int] = set()
    for o in forced:
        if o in seen:
            raise ExactCoverError(f"option {shown(name(o))} is forced twice")
        seen.add(o)
    if groups is None:
        return [(o,) for o in forced]
    out: list[tuple[int, ...]] = []
    grouped: set[int] = set()
    for group in groups:
        members = tuple(group)
        if not members:
            raise ExactCoverError("a group of options to drop is empty")
        for o in members:
            if o not in seen:
                raise ExactCoverError(f"option {shown(name(o))} of a group is not forced")
            if o in grouped:
                raise ExactCoverError(f"option {shown(name(o))} is in two groups")
            grouped.add(o)
        out.append(members)
    return out


class _Forced:
    """The forced options as the items see them: how many hold each item (``cov``)
    and, at a secondary item, their colour there (``hue``)."""

    def __init__(self, links: Links) -> None:
        self.links = links
        self.cov = [0] * (links.N + 2)
        self.hue = [0] * (links.N + 2)

    def add(self, o: int) -> None:
        links = self.links
        for x in links.option_nodes[o]:
            i = links.TOP[x]
            if self.cov[i] == 0:
                self.hue[i] = links.COLOR[x]
            self.cov[i] += 1

    def remove(self, o: int) -> None:
        for x in self.links.option_nodes[o]:
            self.cov[self.links.TOP[x]] -= 1

    def clashes(self, o: int) -> bool:
        """Could option ``o`` not join the forced options?"""
        links, cov, hue = self.links, self.cov, self.hue
        for x in links.option_nodes[o]:
            i, c = links.TOP[x], links.COLOR[x]
            if cov[i] and (i <= links.N1 or c == 0 or c != hue[i]):
                return True
        return False

    def implied(self, o: int) -> bool:
        """Is option ``o`` (not forced) in every solution: has one of its primary items
        no other option that could join the forced options?"""
        links = self.links
        for x in links.option_nodes[o]:
            i = links.TOP[x]
            if i <= links.N1 and all(self.clashes(k) for k in links.active_options(i)
                                     if k != o):
                return True
        return False


def minimize(links: Links, forced: Sequence[int], groups: Sequence[Sequence[int]],
             search: Search, unavoidable: Sequence[Sequence[int]] = (), keep: int = 0,
             deadline: float | None = None) -> tuple[int, int, list[int], int, int, int]:
    """The reference of ``Table.minimize``: ``(status, found, kept, searches, nodes,
    unknown)``.  ``links`` is the problem's table as laid out (it is only read);
    ``search`` runs one search (see :data:`Search`), and stops at ``deadline``
    (``time.monotonic()``) too: then the status is TIMEOUT, and every group not yet
    decided is kept."""
    def late() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    # The forced options must have exactly one solution.
    found, nodes, out = search(forced, 2, None)
    searches = 1
    if out:
        return TIMEOUT if late() else BUDGET, found, list(forced), searches, nodes, 0
    if found != 1:
        return NOT_ONE, found, list(forced), searches, nodes, 0
    kept = dict.fromkeys(forced)            # in order
    # Phase 1: groups whose options, taken out, are implied by the rest go.
    hard: list[Sequence[int]] = []
    state = _Forced(links)
    for o in forced:
        state.add(o)
    for group in groups:
        if links.multi:
            hard.append(group)
            continue
        if len(kept) - len(group) < keep:   # it would leave too few: it stays
            continue
        for o in group:
            state.remove(o)
        pending = list(group)
        progress = True
        while pending and progress:
            progress = False
            for o in list(pending):
                if state.implied(o):
                    state.add(o)
                    pending.remove(o)
                    progress = True
        if pending:                         # the group stays
            for o in pending:
                state.add(o)
            hard.append(group)
        else:                               # it goes
            for o in group:
                state.remove(o)
                del kept[o]
    # Phase 2: each other group, against the puzzle as it is now: it stays when an
    # unavoidable set that meets it keeps no option outside it, else it is searched.
    sets_of: dict[int, list[Sequence[int]]] = {}
    for s in unavoidable:
        for o in s:
            sets_of.setdefault(o, []).append(s)
    unknown = 0
    for group in hard:
        rest = [o for o in kept if o not in group]
        left = set(rest)
        if len(rest) < keep or any(not any(x in left for x in s)
                                   for o in group for s in sets_of.get(o, ())):
            continue
        if late():
            return TIMEOUT, 1, list(kept), searches, nodes, unknown
        if len(group) == 1:
            found, n, out = search(rest, 1, group[0])
            unique = found == 0
        else:
            found, n, out = search(rest, 2, None)
            unique = found == 1
        searches += 1
        nodes += n
        if out and late():
            return TIMEOUT, 1, list(kept), searches, nodes, unknown
        if out:
            unknown += 1
        elif unique:
            for o in group:
                del kept[o]
    return DONE, 1, list(kept), searches, nodes, unknown
