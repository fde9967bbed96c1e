"""Partial solutions outside the loop: forced options placed before a search, and
the levels a stopped search takes back.

:func:`place_forced` is X1 with forced options: ``run(..., forced=[...])`` and
:func:`dlx.estimate` commit those options as X4 and X5 would (M5 and M6 under
bounds) before the loop starts.  :func:`unwind` and :func:`unwind_bounded` restore
the links when a search stops between two steps (closed, out of budget or time,
or its ``progress`` callback raised), undoing the levels deepest first as X6 and
X7 (M7 and M8) would; :func:`frontier` lists the subtrees such a stop leaves
unexplored, as forced options, for the parallel driver to hand to other workers.
The core places forced options in ``dlx/_core/loop.c`` (``dlx_place_forced``) and
lists its frontier in ``dlx/_core/search_object.c`` (``Search_frontier``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from .bound import Bound
from .dance import Dance, others
from .links import Links

__all__ = ["place_forced", "available", "frontier", "stopped_at", "pieces", "Stop", "unwind",
           "unwind_bounded"]


def place_forced(dance: Dance, forced: Sequence[int], choose: Callable[[Links], int],
                  x: list[int], first: list[int], score: list[Any], bb: Bound | None
                  ) -> tuple[int, int, str]:
    """X1 with forced options: commit them as X4 and X5 would, levels 0, 1, ...

    The search below them counts, as its root, the step that placed the last one
    (committing its items, with early failure), as the plain search counts trying
    that option; so the last goes in through the item the search would choose
    there.  Returns ``(level, updates before that root step, outcome)``, outcome
    ``"placed"``, ``"clash"`` (a forced option is no longer available: nothing to
    search) or ``"dead end"`` (the root step fails early); the links are restored
    unless placed.
    """
    t = dance.links
    TOP, OPT, CYCLIC = t.TOP, t.OPT, t.cyclic_table()
    level = 0
    if t.multi:
        # Algorithm M: each forced option is taken out of every list and counts once
        # against the bounds of its items (no frontier, so no root step to count)
        for f in forced:
            if not available(t, f):
                unwind_bounded(dance, x, first, level, 0, 0)
                return level, dance.updates, "clash"
            x[level] = f
            dance.tweak(f, True)
            for q in (f, *(CYCLIC[f] or others(t, f))):
                dance.commit_bounded(q)
            if bb is not None:
                score[level + 1] = score[level] + bb.weights[OPT[f]]
            level += 1
        return level, dance.updates, "placed"
    updates0 = dance.updates
    for k, f in enumerate(forced):
        if not available(t, f):
            unwind(dance, x, level, 0, 0)
            return level, updates0, "clash"
        last = k == len(forced) - 1
        if last:
            # through the item the search would choose here (when it has one), so
            # that its commit is the one the plain search makes
            i = 0 if dance.empty else choose(t)
            f = next((q for q in t.ROW[f] if TOP[q] == i), f)
        x[level] = f
        dance.cover(TOP[f])
        if last:
            updates0 = dance.updates
        rest = CYCLIC[f] or others(t, f)
        for done, q in enumerate(rest, 1):
            dance.commit(q)
            if last and dance.empty and dance.dead_end_beyond(rest, done):
                unwind(dance, x, level, TOP[f], done)
                return level, updates0, "dead end"
        if bb is not None:
            score[level + 1] = score[level] + bb.weights[OPT[f]]
        level += 1
    return level, updates0, "placed"


def frontier(t: Links, x: list[int], base: int, level: int, i: int) -> list[tuple[int, ...]]:
    """The subtrees a search stopped at X5 (about to try x[level], an option of item
    i) has not explored, in the order it would have: x[level] and the options after
    it in i's list, then those after x[level-1] in its item's list, and so on up to
    the root.  Each is the forced options (option indices) on the path to it."""
    return pieces(stopped_at(t, x, base, level, i))


#: What :func:`frontier` is made of: the options on the path, and for each level k
#: (deepest first) the options left to try there.
Stop: TypeAlias = tuple[list[int], list[tuple[int, list[int]]]]


def stopped_at(t: Links, x: list[int], base: int, level: int, i: int) -> Stop:
    """What :func:`frontier` is made of, read off the links where the search stopped:
    it costs as many steps as there are subtrees left, where the frontier costs
    that many times the depth (:func:`pieces` makes it when it is asked for)."""
    D, OPT, TOP = t.DLINK, t.OPT, t.TOP
    path = [OPT[q] for q in x[:level]]
    left: list[tuple[int, list[int]]] = []
    for k in range(level, base - 1, -1):
        item = i if k == level else TOP[x[k]]
        q = x[k] if k == level else D[x[k]]
        options = []
        while q != item:
            options.append(OPT[q])
            q = D[q]
        if options:
            left.append((k, options))
    return path, left


def pieces(stop: Stop) -> list[tuple[int, ...]]:
    """The frontier of :func:`stopped_at`'s ``stop``: a tuple of option indices per
    subtree left, the path to it."""
    path, left = stop
    return [(*path[:k], o) for k, options in left for o in options]


def unwind(dance: Dance, x: list[int], level: int, held: int, committed: int) -> None:
    """Restore the links after a stop between two steps: undo the first ``committed``
    commits of x[level], uncover the item ``held`` at this level (0: none), then
    undo levels level-1 .. 0 (X6 and X7 for each)."""
    t = dance.links
    if committed:
        for q in reversed(others(t, x[level])[:committed]):
            dance.uncommit(q)
    if held:
        dance.uncover(held)
    for lev in range(level - 1, -1, -1):
        for q in reversed(others(t, x[lev])):
            dance.uncommit(q)
        dance.uncover(t.TOP[x[lev]])


def unwind_bounded(dance: Dance, x: list[int], first: list[int], level: int, held: int,
                    committed: int) -> None:
    """(M) :func:`unwind` with bounds: undo the first ``committed`` commits of
    x[level] and restore the item ``held`` at this level (0: none), then undo the
    levels below (X6 and X7 for each, or a null choice).  Forced levels (no item
    held) are put back as they were placed."""
    t = dance.links
    if committed:
        for q in reversed(others(t, x[level])[:committed]):
            dance.uncommit_bounded(q)
    if held:
        if t.BOUND[held] == 0 and t.SLACK[held]:
            dance.reactivate(held)
        elif t.BOUND[held] and x[level] == held and t.RLINK[t.LLINK[held]] != held:
            dance.reactivate(held)                      # stopped right after a null choice
        dance.restore_bounded(held, first[level])
    for lev in range(level - 1, -1, -1):
        xl = x[lev]
        if first[lev] == 0:                             # a forced option
            for q in reversed((xl, *others(t, xl))):
                dance.uncommit_bounded(q)
            dance.untweak_option(xl)
            continue
        if xl <= t.N:
            i = xl
            dance.reactivate(i)
        else:
            i = t.TOP[xl]
            for q in reversed(others(t, xl)):
                dance.uncommit_bounded(q)
            if t.BOUND[i] == 0 and t.SLACK[i]:
                dance.reactivate(i)
        dance.restore_bounded(i, first[lev])


def available(t: Links, f: int) -> bool:
    """Can the option of node f still be chosen?  Every node of it must still be in
    its item's list (not hidden by an earlier choice), and every item it covers
    (a node without a colour) must still be uncovered."""
    U, D, LL, RL, COLOR, TOP = t.ULINK, t.DLINK, t.LLINK, t.RLINK, t.COLOR, t.TOP
    for q in t.ROW[f]:
        if D[U[q]] != q:
            return False
        if COLOR[q] == 0 and RL[LL[TOP[q]]] != TOP[q]:
            return False
    return True
