"""THE search loop: Knuth's Algorithms C and M (TAOCP 7.2.2.1), the pure-Python reference.

This module is the readable engine: :func:`run` sets a search up and runs one
of two loops, each with Knuth's steps named where they happen.  The dance steps
they call (cover, purify, commit, tweak, ...) are in :mod:`dlx.dance`, one
method each under Knuth's name.

:func:`_algorithm_c`, Algorithm C (Algorithm X when no item has a colour: every
commit is then a cover): X1 initialise; X2 enter level l (every primary item
covered: visit a solution); X3 choose an item i; X4 cover i; X5 try the option
x_l (commit its other items); X6 try again (uncommit x_l, take the next option
of i); X7 backtrack (uncover i); X8 leave level l.

:func:`_algorithm_m`, Algorithm M (bounds on primary items, Knuth's DLX3): M1
initialise; M2 enter level l; M3 choose i (least branching degree); M4 prepare
to branch on i; M5 possibly tweak x_l; M6 try x_l (the *null choice* closes i);
M7 try again; M8 restore i; M9 leave level l.

The compiled core (``dlx/_core/loop.c``) runs the same steps in the same order in
one loop for both, so both engines report the same solutions, order and
:class:`~dlx.Stats`; ARCHITECTURE.md has a table of the steps in each.

Two refinements, both invisible in the answers and node counts:

* *Early failure* (xcover's lookahead, Algorithm C): an uncovered primary item
  with no option left is a dead end.  :class:`~dlx.dance.Dance` counts such items
  as it hides and unhides; X3 gives up at once when there is one, and X5 stops
  committing x_l as soon as one lies outside the items of x_l still to commit
  (the try still counts as a node, as it would have anyway), and goes on to X6,
  which uncommits what X5 committed.  Only link updates are saved.
* *Forced options*: ``run(..., forced=[node, ...])`` first places those options
  as levels 0, 1, ... (X4 and X5 without counting nodes) and searches below
  them, so the search is exactly the subtree under that partial solution.

The search works on the :class:`~dlx.links.Links` it is given and leaves it
exactly as it found it when it ends, is closed, runs out of budget or time, or
its ``progress`` callback raises: every such stop happens between two steps
(a *pause*: :func:`_pause`).

>>> from dlx.problem import ExactCover
>>> from dlx.links import Links
>>> links = Links.build(ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]}))
>>> list(run(links, "solutions"))
[('x', 'y'), ('xy',)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Hashable, Sequence
from typing import Any, Literal, TypeAlias

from .bound import Bound, SearchState
from .dance import Dance, degree, first_empty, others
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Backtrack, Choose, Cover, Solution, Stats, Try, Uncover
from .links import Links
from .memo import CacheFullWarning, Memo
from .partial import pieces, place_forced, stopped_at, unwind, unwind_bounded
from .rules import HeuristicName, rule

__all__ = ["run", "PROGRESS_EVERY", "Heuristic", "HeuristicName", "Mode",
           # defined in dlx.bound and dlx.memo, named here too for older imports
           "SearchState", "Bound", "Memo", "CacheFullWarning"]

#: The ``progress`` callback is called (and the deadline checked) every this many nodes.
PROGRESS_EVERY = 1 << 12

#: Under a time limit the clock is also read every this many nodes, and every
#: :data:`CLOCK_UPDATES` updates: a node of a big problem can take hundreds of
#: updates (of 90,000 options over 1,200 items, about 200), so PROGRESS_EVERY nodes
#: could take seconds.
CLOCK_EVERY = 1 << 8
CLOCK_UPDATES = 1 << 14

#: How ``run`` reports: label tuples, None per solution, events, or improving ``(score, labels)``.
Mode: TypeAlias = Literal["solutions", "count", "trace", "best"]

#: A user heuristic: given ``[(item, options left), ...]`` for the uncovered primary
#: items, return the index of the item to branch on.
Heuristic: TypeAlias = Callable[[list[tuple[Hashable, int]]], int]

def chooser(heuristic: HeuristicName | Heuristic | None, links: Links, seed: int = 0
            ) -> Callable[[Links], int]:
    """X3's rule for a search of ``links``: a function of the links that gives the item
    to branch on.  A rule named in :data:`dlx.rules.RULES` makes its own (one that
    learns from dead ends has ``ran_dry``; ``seed`` starts a random one's draws); a
    callable gets the uncovered items and their lengths."""
    if heuristic is None or isinstance(heuristic, str):
        return rule(heuristic).chooser(links, seed)
    if callable(heuristic):
        user = heuristic

        def choose_user(links: Links) -> int:
            active = links.active_items()
            k = user([(links.item_names[i], links.LEN[i]) for i in active])
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(active):
                raise ExactCoverError(f"heuristic returned {shown(k)}, not an index into its list")
            return active[k]

        return choose_user
    return rule(heuristic).chooser(links, seed)             # (raises: not a rule)


# ----------------------------------------------------------------------- the loop


def run(
    links: Links,
    mode: Mode = "solutions",
    *,
    stats: Stats | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Callable[[Stats], object] | None = None,
    forced: Sequence[int] = (),
    bb: Bound | None = None,
    memo: Memo | None = None,
    deadline: float | None = None,
    seed: int = 0,
) -> Generator[Any, None, None]:
    """Search ``links`` (changing and then restoring them); yield as ``mode`` says.

    ``"solutions"`` yields a tuple of option labels per solution (in choice
    order), ``"count"`` yields 1 per solution (with a ``memo``, counting by
    caching, the number of solutions below each partial solution met again),
    ``"trace"`` yields an event (:mod:`dlx.events`) between every two steps, and
    ``"best"`` (with ``bb``, weights per option index, maximised) yields
    ``(score, labels)`` each time branch and bound finds one of the ``bb.k`` best
    so far (see :class:`~dlx.bound.Bound`, which keeps them).

    Algorithm C runs (steps X1-X8; Algorithm X when no item has a colour), or,
    when items have bounds, Algorithm M (steps M1-M9).

    ``forced`` are nodes of options to choose first (one node per option); the
    search then explores only below that partial solution, and its statistics
    count that subtree as the whole search would: its root, at level
    ``len(forced)``, is one node, and its updates include committing the last
    forced option (placed through the item the heuristic chooses there).  If a
    forced option clashes with the ones before it, nothing is searched and
    nothing yielded (``stats.nodes`` stays 0).

    Raises :class:`~dlx.BudgetExceeded` (``found`` None: the views fill it in;
    ``frontier`` the unexplored subtrees as option-index tuples) when more than
    ``max_nodes`` nodes would be visited or ``timeout`` seconds have passed, and
    passes on whatever ``progress`` raises; every such stop happens between two
    steps, after the links are restored.  ``deadline`` (``time.monotonic()``
    seconds) is when the time is up, for a caller whose clock started before the
    search did (a view that laid the problem out first); by default ``timeout``
    seconds from now.  ``seed`` starts the random draws of a rule that makes them
    (:mod:`dlx.rules`).
    """
    s = _Search(links, mode, Stats() if stats is None else stats, max_nodes, timeout,
                chooser(heuristic, links, seed), progress, bb, memo, deadline)
    # X1 (M1): initialise.  The links are laid out; place the forced options first.
    placed = s.place(forced)
    if placed == "clash":
        return
    if placed == "dead end":
        # the root is a dead end (early failure): one node, nothing below
        s.profile[s.base + 1] = 1
        s.sync(1, s.base + 1)
        return
    yield from _algorithm_m(s) if links.multi else _algorithm_c(s)


class _Pause:
    """Whether the loop stands where a stop can be undone exactly: at a yield, at the
    budget and time checks, and around calls into user code (a heuristic, a bound
    hook, progress).  Elsewhere a dance step may be half done."""

    __slots__ = ("on",)

    def __init__(self) -> None:
        self.on = True


def _pause(pause: _Pause, value: Any) -> Generator[Any, None, None]:
    """Yield ``value`` (an event, a solution, a count) where the search may stop."""
    pause.on = True
    yield value
    pause.on = False


class _Search:
    """What one run of the loop keeps besides the links: its levels, its counters,
    what it reports and when it must stop.

    ``x[l]`` is the node of the option tried at level l (Algorithm M: or the item,
    for the null choice), ``first[l]`` the first one tried there (M),
    ``branches[l]`` the ways on from the item chosen at l (for the estimate of the
    fraction done), ``score[l]`` the weight of x[0..l-1] (best), ``profile[l]`` the
    nodes at level l, ``memo_key[l]``/``memo_from[l]`` what was left when level l
    was entered and the solutions counted by then (counting by caching)."""

    def __init__(self, links: Links, mode: Mode, stats: Stats, max_nodes: int | None,
                 timeout: float | None, choose: Callable[[Links], int],
                 progress: Callable[[Stats], object] | None, bb: Bound | None,
                 memo: Memo | None, deadline: float | None = None) -> None:
        t = self.links = links
        self.dance = Dance(links) if memo is None else memo.dance(links)
        self.mode, self.stats, self.bb, self.memo = mode, stats, bb, memo
        self.choose, self.progress = choose, progress
        self.max_nodes, self.timeout = max_nodes, timeout
        if deadline is None and timeout is not None:
            deadline = time.monotonic() + timeout
        self.deadline = deadline
        # the node count mask and the updates at which the loop calls check(): with a
        # deadline, more often than progress (see CLOCK_EVERY)
        self.every = (PROGRESS_EVERY if deadline is None else CLOCK_EVERY) - 1
        self.clock_at = CLOCK_UPDATES if deadline is not None else 1 << 62
        self.tracing = mode == "trace"
        # levels: each chooses an option (Algorithm M: or closes an item, the null choice)
        depth = min(sum(t.BOUND[1:t.N1 + 1]), len(t.labels)) + t.N1 if t.multi else t.N1
        levels = depth + 1
        self.x = [0] * levels
        self.first = [0] * levels
        self.branches = [1] * levels
        self.memo_key: list[Any] = [None] * levels
        self.memo_from = [0] * levels
        self.score: list[Any] = [0] * (levels + 1)
        self.profile = [0] * (levels + 1)
        self.state = SearchState(t, self.x)         # what a bound hook sees
        self.zdd = None if memo is None else memo.diagram   # (a ZDD) its builder
        self.zres = [0] * (levels + 1)              # (a ZDD) zres[l]: the diagram at level l
        self.pause = _Pause()
        self.base = self.updates0 = 0
        stats.nodes = stats.updates = stats.solutions = 0
        stats.profile = []
        stats.explored = 1.0            # until the search starts (a clash ends it at once)

    def place(self, forced: Sequence[int]) -> str:
        """X1 with forced options (see :func:`place_forced`); grows the levels."""
        if forced:
            more = len(forced)
            self.x += [0] * more
            self.first += [0] * more
            self.branches += [1] * more
            self.memo_key += [None] * more
            self.memo_from += [0] * more
            self.score += [0] * more
            self.profile += [0] * more
            self.zres += [0] * more
            self.state = SearchState(self.links, self.x)
        level, self.updates0, placed = place_forced(
            self.dance, forced, self.choose, self.x, self.first, self.score, self.bb)
        self.base = level
        if placed == "placed":
            self.profile[level] = 1
            self.stats.explored = 0.0
        return placed

    def sync(self, nodes: int, deepest: int) -> None:
        """Bring ``stats`` up to date."""
        s = self.stats
        s.nodes, s.updates = nodes, self.dance.updates - self.updates0
        s.profile = self.profile[:deepest + 1] if nodes else []

    def visit(self, level: int) -> Any:
        """X2 (M2): what the solution x[0..level-1] yields in this mode (None: nothing,
        a solution that is not among the k best)."""
        self.stats.solutions += 1
        if self.zdd is not None:
            self.zres[level] = 1                    # the family of the empty solution, ⊤
        mode = self.mode
        if mode == "count":
            return 1
        t = self.links
        sol = _labels(t.labels, t.OPT, self.x, level)
        if mode == "solutions":
            return sol
        if mode == "trace":
            return Solution(level, sol)
        bb, score = self.bb, self.score[level]
        assert bb is not None
        return (score, sol) if bb.offer(score, sol) else None

    def recall(self, level: int) -> int | None:
        """Counting by caching: the solutions below what is left, when it was met
        before (else None, and level ``level`` will store its count when left)."""
        memo = self.memo
        assert memo is not None
        key = memo.key(self.dance)
        known = memo.table.get(key)
        if known is None:
            self.memo_key[level], self.memo_from[level] = key, self.stats.solutions
        else:
            self.stats.solutions += known
        if self.zdd is not None:                    # (a ZDD) the diagram met before, or
            self.zres[level] = 0 if known is None else memo.nodes[key]  # a chain to come
        return known

    def remember(self, level: int) -> None:
        """Counting by caching, at X8 (M9): store the solutions found below level (and
        for a ZDD, the diagram: the chain of the options of the level's item)."""
        memo = self.memo
        assert memo is not None
        if self.zdd is not None:
            memo.last = self.zres[level]
        if self.memo_key[level] is not None:
            memo.store(self.memo_key[level], self.stats.solutions - self.memo_from[level],
                       self.zres[level] if self.zdd is not None else None)
            self.memo_key[level] = None

    def join(self, level: int) -> None:
        """(a ZDD) Back at ``level`` from below x_l: add x_l's node to the level's chain,
        its ``hi`` the diagram below it (as DLX6 builds it)."""
        if self.zdd is not None:
            x = self.x[level]
            self.zres[level] = self.zdd.make(self.links.OPT[x], self.zres[level],
                                             self.zres[level + 1])

    def hopeless(self, level: int) -> bool:
        """Branch and bound at X3 (M3): can no completion of x[0..level-1] beat the
        k-th best so far?"""
        assert self.bb is not None
        self.state._level = level
        return self.bb.hopeless(self.score[level], self.state)

    def check(self, nodes: int, deepest: int, level: int, i: int) -> int:
        """At X5 (M6), about to try x_l as node ``nodes + 1``: raise BudgetExceeded
        when the budget is used up; every :data:`PROGRESS_EVERY` nodes, report
        progress and raise when the time is up; in between (under a time limit,
        every :data:`CLOCK_EVERY` nodes and :data:`CLOCK_UPDATES` updates) raise when
        the time is up.  Returns the updates at which to come back."""
        t = self.links
        if nodes == self.max_nodes:
            self.sync(nodes, deepest)
            raise _stopped(BudgetExceeded(self.max_nodes, None, self.stats), t, self.x,
                           self.base, level, i)
        progress = self.progress
        if self.deadline is not None:
            self.clock_at = self.dance.updates + CLOCK_UPDATES
            if (nodes + 1) & (PROGRESS_EVERY - 1):          # only the clock, this time
                if time.monotonic() <= self.deadline:
                    return self.clock_at
                progress = None
        self.sync(nodes + 1, deepest)
        self.stats.explored = _explored(t, self.x, self.first, self.branches, self.base, level)
        _check_point(self.stats, progress, self.deadline, self.timeout, t, self.x,
                     self.base, level, i)
        return self.clock_at


def _algorithm_c(s: _Search) -> Generator[Any, None, None]:
    """Algorithm C (TAOCP 7.2.2.1), steps X2-X8: Algorithm X when no item has a colour."""
    t, dance, pause = s.links, s.dance, s.pause
    RL, D, TOP, COLOR, LEN = t.RLINK, t.DLINK, t.TOP, t.COLOR, t.LEN
    CYCLIC = t.cyclic_table()              # x -> others(t, x), for options not too long
    x, first, branches, profile, score, weights = (
        s.x, s.first, s.branches, s.profile, s.score, None if s.bb is None else s.bb.weights)
    choose, tracing, memo, max_nodes, bb = s.choose, s.tracing, s.memo, s.max_nodes, s.bb
    every, clock_at = s.every, s.clock_at           # when check() is called (see there)
    name = t.item_names
    # Where the search is, for a clean stop: levels 0..level-1 are committed; at
    # `level`, item i is covered while `holding`, and the first `committed` other
    # nodes of x[level] are committed.
    base = level = deepest = s.base
    nodes = 1
    i = committed = 0
    rest: tuple[int, ...] = ()
    holding = False
    commit, uncommit = dance.commit, dance.uncommit
    dry = getattr(choose, "ran_dry", None)      # (weighted) told of each dead end
    turn = getattr(choose, "turn", None)        # (mrv-random) where i's options start
    pause.on = False
    try:
        while True:
            dead = True
            # X2: enter level `level`
            if RL[0] == 0:                                  # a solution
                found = s.visit(level)
                if found is not None:
                    if s.mode != "count":
                        s.sync(nodes, deepest)
                    yield from _pause(pause, found)
            elif memo is not None and (known := s.recall(level)) is not None:
                if known:                                   # what is left was met before
                    yield from _pause(pause, known)
            else:
                # X3: choose an item i (early failure: a primary item with no option left)
                pause.on = True
                i = first_empty(t) if dance.empty else choose(t)
                if dry is not None and LEN[i] == 0:
                    dry(t)                                  # (weighted) i ran dry
                if tracing:
                    yield Choose(level, name[i], LEN[i])
                dead = LEN[i] == 0 or bb is not None and s.hopeless(level)
                pause.on = False
                if not dead:
                    # X4: cover i
                    branches[level] = LEN[i]
                    dance.cover(i)
                    holding = True
                    if turn is not None:                    # (mrv-random) i's options from
                        first[level] = D[i]                 # one drawn at random on
                        dance.start_at(i, turn(t, i))
                    x[level] = D[i]
                    if tracing:
                        yield from _pause(pause, Cover(level, name[i]))
            undo = False
            while True:
                if dead:
                    # X8: leave level `level`
                    if tracing:
                        yield from _pause(pause, Backtrack(level))
                    if memo is not None:
                        s.remember(level)
                    if level == base:
                        pause.on = True
                        s.stats.explored = 1.0
                        return
                    level -= 1
                    if memo is not None:
                        s.join(level)                       # (a ZDD: x_l's chain node)
                    i, holding = TOP[x[level]], True       # back to X6 at the level above
                    rest = CYCLIC[x[level]] or others(t, x[level])
                    committed = len(rest)
                    undo = True
                if undo:
                    # X6: try again: uncommit the `committed` other nodes of x_l (all of
                    # them, or those an early failure in X5 left), right to left
                    for k in range(committed - 1, -1, -1):
                        q = rest[k]
                        uncommit(q)
                        if tracing and COLOR[q] >= 0:
                            committed = k
                            yield from _pause(pause, Uncover(level, name[TOP[q]], _color(t, q)))
                    committed = 0
                    x[level] = D[x[level]]
                    dead = undo = False
                xl = x[level]
                if xl == i:
                    # X7: backtrack: every option of i has been tried; uncover i
                    if turn is not None:
                        dance.start_at(i, first[level])     # (mrv-random) as it was
                    dance.uncover(i)
                    holding = False
                    if tracing:
                        yield from _pause(pause, Uncover(level, name[i]))
                    dead = True
                    continue
                # X5: try x_l: commit its other items, left to right (early failure: stop
                # when an uncovered item outside them has no option left; X6 undoes)
                if nodes == max_nodes or (nodes + 1) & every == 0 or \
                        dance.updates >= clock_at:
                    pause.on = True
                    clock_at = s.check(nodes, deepest, level, i)
                    pause.on = False
                nodes += 1
                profile[level + 1] += 1
                if level == deepest:
                    deepest += 1
                if tracing:
                    yield from _pause(pause, Try(level, t.labels[t.OPT[xl]], _rank(t, xl),
                                                 LEN[i]))
                rest = CYCLIC[xl] or others(t, xl)
                for committed, q in enumerate(rest, 1):
                    commit(q)
                    if tracing and COLOR[q] >= 0:
                        yield from _pause(pause, Cover(level, name[TOP[q]], _color(t, q)))
                    if dance.empty and dance.dead_end_beyond(rest, committed):
                        undo = True
                        if dry is not None:
                            dry(t)                          # (weighted) a list ran dry
                        break
                if undo:
                    continue                                # early failure: to X6
                if weights is not None:
                    score[level + 1] = score[level] + weights[t.OPT[xl]]
                level += 1
                holding, committed = False, 0
                break
    finally:
        s.sync(nodes, deepest)
        if pause.on:
            if turn is not None:            # (mrv-random) the lists as they were first
                for lev in range(base, level + holding):
                    dance.start_at(TOP[x[lev]] if lev < level else i, first[lev])
            unwind(dance, x, level, i if holding else 0, committed)


def _algorithm_m(s: _Search) -> Generator[Any, None, None]:
    """Algorithm M (TAOCP 7.2.2.1, Knuth's DLX3), steps M2-M9: primary item i is
    covered between u and v times (``BOUND[i]`` more choices may cover it, ``SLACK[i]``
    of them may be left out); the *null choice* closes an item with what it has."""
    t, dance, pause = s.links, s.dance, s.pause
    RL, D, TOP, COLOR, BOUND, SLACK, N = t.RLINK, t.DLINK, t.TOP, t.COLOR, t.BOUND, t.SLACK, t.N
    CYCLIC = t.cyclic_table()
    x, first, branches, profile, score, weights = (
        s.x, s.first, s.branches, s.profile, s.score, None if s.bb is None else s.bb.weights)
    choose, tracing, memo, max_nodes, bb = s.choose, s.tracing, s.memo, s.max_nodes, s.bb
    every, clock_at = s.every, s.clock_at           # when check() is called (see there)
    name = t.item_names
    base = level = deepest = s.base
    nodes = 1
    i = committed = 0
    rest: tuple[int, ...] = ()
    holding = False
    dry = getattr(choose, "ran_dry", None)      # (weighted) told of each dead end
    pause.on = False
    try:
        while True:
            dead = True
            # M2: enter level `level`
            if RL[0] == 0:                                  # a solution
                found = s.visit(level)
                if found is not None:
                    if s.mode != "count":
                        s.sync(nodes, deepest)
                    yield from _pause(pause, found)
            elif memo is not None and (known := s.recall(level)) is not None:
                if known:
                    yield from _pause(pause, known)
            else:
                # M3: choose i, of least branching degree (0: a dead end)
                pause.on = True
                i = choose(t)
                if dry is not None and degree(t, i) <= 0:
                    dry(t)                                  # (weighted) i is a dead end
                if tracing:
                    yield Choose(level, name[i], t.LEN[i])
                dead = degree(t, i) <= 0 or bb is not None and s.hopeless(level)
                pause.on = False
                if not dead:
                    # M4: prepare to branch on i: one more choice for i, which is covered
                    # once its bound is used up
                    branches[level] = degree(t, i)
                    BOUND[i] -= 1
                    if BOUND[i] == 0:
                        dance.cover(i)
                    x[level] = first[level] = D[i]
                    holding = True
                    if tracing:
                        yield from _pause(pause, Cover(level, name[i]))
            undo = False
            while True:
                if dead:
                    # M9: leave level `level`
                    if tracing:
                        yield from _pause(pause, Backtrack(level))
                    if memo is not None:
                        s.remember(level)
                    if level == base:
                        pause.on = True
                        s.stats.explored = 1.0
                        return
                    level -= 1
                    if x[level] <= N:                       # after the null choice: to M8
                        i = x[level]
                        dance.reactivate(i)
                        dance.restore_bounded(i, first[level])
                        if tracing:
                            yield from _pause(pause, Uncover(level, name[i]))
                        continue
                    i, holding = TOP[x[level]], True        # to M7
                    rest = CYCLIC[x[level]] or others(t, x[level])
                    committed = len(rest)
                    undo = True
                if undo:
                    # M7: try again: uncommit the other nodes of x_l, right to left
                    for k in range(committed - 1, -1, -1):
                        q = rest[k]
                        dance.uncommit_bounded(q)
                        if tracing and COLOR[q] >= 0:
                            committed = k
                            yield from _pause(pause, Uncover(level, name[TOP[q]], _color(t, q)))
                    committed = 0
                    x[level] = D[x[level]]
                    dead = undo = False
                # M5: possibly tweak x_l; when i has too few options left for its bound,
                # or every option is tried (x_l = i) while it is covered, restore i (M8)
                xl = x[level]
                open_ = bool(BOUND[i] or SLACK[i])
                if xl == i and not open_ or open_ and t.LEN[i] <= BOUND[i] - SLACK[i]:
                    # M8: restore i
                    dance.restore_bounded(i, first[level])
                    holding = False
                    if tracing:
                        yield from _pause(pause, Uncover(level, name[i]))
                    dead = True
                    continue
                # M6: try x_l (the null choice when x_l = i: i keeps what it has)
                if nodes == max_nodes or (nodes + 1) & every == 0 or \
                        dance.updates >= clock_at:
                    pause.on = True
                    clock_at = s.check(nodes, deepest, level, i)
                    pause.on = False
                nodes += 1
                profile[level + 1] += 1
                if level == deepest:
                    deepest += 1
                if tracing:
                    yield from _pause(pause, Try(
                        level, t.labels[t.OPT[xl]] if xl > N else None,
                        _rank(t, xl) if xl > N else t.LEN[i] + 1, t.LEN[i]))
                if open_ and xl != i:
                    dance.tweak(xl, BOUND[i] != 0)          # x_l leaves i's list for good
                elif open_ and BOUND[i]:
                    dance.deactivate(i)                     # the null choice: i is done
                if xl != i:
                    rest = CYCLIC[xl] or others(t, xl)
                    for k, q in enumerate(rest, 1):
                        dance.commit_bounded(q)
                        committed = k
                        if tracing and COLOR[q] >= 0:
                            yield from _pause(pause, Cover(level, name[TOP[q]], _color(t, q)))
                if weights is not None:                     # (the null choice adds none)
                    score[level + 1] = score[level] + (weights[t.OPT[xl]] if xl != i else 0)
                level += 1
                holding, committed = False, 0
                break
    finally:
        s.sync(nodes, deepest)
        if pause.on:
            unwind_bounded(dance, x, first, level, i if holding else 0, committed)



def _explored(t: Links, x: list[int], first: list[int], branches: list[int], base: int,
              level: int) -> float:
    """Knuth's estimate of the fraction of the tree done, from where the search is: at
    each level the k-th of d branches, taking (k - 1) / d of what is left there."""
    done, width = 0.0, 1.0
    for lev in range(base, level + 1):
        xl, d = x[lev], max(branches[lev], 1)
        item = xl if xl <= t.N else t.TOP[xl]
        q, k = (first[lev] if t.multi else t.DLINK[item]), 1
        while q != xl and q != item:
            q, k = t.DLINK[q], k + 1
        width *= d
        done += (min(k, d) - 1) / width
    return done + 0.5 / width


def _check_point(stats: Stats, progress: Callable[[Stats], object] | None,
                 deadline: float | None, timeout: float | None,
                 t: Links, x: list[int], base: int, level: int, i: int) -> None:
    """Every PROGRESS_EVERY nodes (at X5, x_l counted but not yet tried): report
    progress, and stop if the time is up."""
    if progress is not None:
        progress(stats)
    if deadline is not None and time.monotonic() > deadline:
        raise _stopped(BudgetExceeded(None, None, stats, timeout=timeout), t, x, base, level, i)


def _stopped(stop: BudgetExceeded, t: Links, x: list[int], base: int, level: int, i: int
             ) -> BudgetExceeded:
    """``stop`` with the frontier of a search stopped at X5 (:func:`dlx.partial.frontier`;
    none with bounds): what it is made of is read now, before the links are restored,
    and the frontier made from it when first read."""
    if not t.multi:
        stop.frontier = stopped_at(t, x, base, level, i)
        stop.frontier_later(pieces)
    return stop







def _labels(labels: list[Hashable], OPT: list[int], x: list[int], level: int
            ) -> tuple[Hashable, ...]:
    """The labels of the options x[0..level-1] (Algorithm M's null choices, item
    headers with no option, are left out)."""
    return tuple([labels[OPT[q]] for q in x[:level] if OPT[q] >= 0])


def _rank(t: Links, x: int) -> int:
    """(trace) x is the k-th option in its item's current list: k."""
    i = t.TOP[x]
    k, y = 1, t.DLINK[i]
    while y != x:
        k, y = k + 1, t.DLINK[y]
    return k


def _color(t: Links, q: int) -> Hashable:
    """(trace) The colour name of node q, None when it has none."""
    c = t.COLOR[q]
    return t.color_names[c] if c > 0 else None
