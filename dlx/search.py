"""THE search loop (Knuth's Algorithm X/C, TAOCP 7.2.2.1) and the views built on it.

:func:`run` is the only search in the package: an explicit stack, no recursion,
each branch commented with Knuth's step name.  It works on its own copy of the
links, so abandoning it, stopping it with a budget or running two at once never
corrupts a problem.  What it yields depends on the *mode*:

=========== =========================================================
"solutions"  a tuple of option labels for every solution
"count"      None for every solution (nothing is stored)
"trace"      a :mod:`dlx.trace` event between every two steps
"best"       ``(score, labels)`` whenever a better solution is found
=========== =========================================================

The views (:func:`solutions`, :func:`count`, :func:`first`, :func:`is_unique`,
:func:`best`, :func:`trace`) are a few lines each on top of it.

Steps, as in Knuth's Algorithm X: X1 initialise; X2 enter level l (all primary
items covered: visit a solution); X3 choose an item i; X4 cover i; X5 try the
option x_l; X6 try again (undo x_l, go to the next option of i); X7 backtrack
(uncover i); X8 leave level l.  With colours, covering the other items of x_l is
Algorithm C's *commit* (cover an uncoloured item, *purify* a coloured one).

Early failure (xcover's lookahead), in both engines: a partial solution with an
uncovered primary item that has no option left is a dead end.  X5 stops
committing x_l as soon as such an item is not among the items of x_l still to
commit (undoing what it committed, then on to the next option: the try counts
as a node, as it would anyway); X3 treats an empty item as a dead end whatever
the heuristic.  Solutions, their order and node counts are those of the plain
algorithm; only the number of link updates is smaller.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Hashable, Iterator, Mapping, Sequence
from typing import Any

from . import engine as _engine
from .errors import BudgetExceeded, ExactCoverError
from .links import Links
from .problem import ExactCover
from .trace import Backtrack, Choose, Cover, Event, Solution, Stats, Try, Uncover

__all__ = [
    "run", "solutions", "count", "first", "is_unique", "best", "trace", "SearchState",
    "PROGRESS_EVERY",
]

#: The ``progress`` callback is called every this many nodes.
PROGRESS_EVERY = 1 << 12

Heuristic = Callable[[list[tuple[Hashable, int]]], int]


class SearchState:
    """A read-only view of a paused search, handed to ``bound`` hooks and trace readers.

    ``items()`` yields the primary items not yet covered, ``options(item)`` the
    labels of the options still available for that item, ``chosen()`` the labels
    chosen so far, and ``links`` the live :class:`~dlx.links.Links` table (read only!).
    """

    __slots__ = ("links", "_x", "_level")

    def __init__(self, links: Links, x: list[int]) -> None:
        self.links = links
        self._x = x
        self._level = 0

    @property
    def level(self) -> int:
        """How many options are chosen."""
        return self._level

    def items(self) -> Iterator[Hashable]:
        names = self.links.item_names
        return (names[i] for i in self.links.active_items())

    def options(self, item: Hashable) -> list[Hashable]:
        t = self.links
        return [t.labels[o] for o in t.active_options(t.item_number(item))]

    def length(self, item: Hashable) -> int:
        """How many options remain for ``item``."""
        t = self.links
        return t.LEN[t.item_number(item)]

    def chosen(self) -> tuple[Hashable, ...]:
        t = self.links
        return tuple(t.labels[t.OPT[x]] for x in self._x[: self._level])


def _chosen(labels: list[Hashable], OPT: list[int], x: list[int], level: int
            ) -> tuple[Hashable, ...]:
    """The labels of the options x[0..level-1]."""
    return tuple([labels[OPT[q]] for q in x[:level]])


#: The early-failure test of a commit (X5) is made while at most this many nodes of
#: the option remain to commit (so a huge option costs linear time, not quadratic).
EARLY_SPAN = 64


def _empty_among(items: tuple[int, ...], LEN: list[int], N1: int) -> int:
    """How many of ``items`` are primary items whose list is empty."""
    n = 0
    for i in items:
        if i <= N1 and LEN[i] == 0:
            n += 1
    return n


def _fails(z: int, rest: tuple[int, ...], LEN: list[int], N1: int) -> bool | None:
    """Early failure (xcover's lookahead) during a commit: with z > 0 uncovered primary
    items empty and ``rest`` the items still to commit, True when some empty item lies
    outside the option, which then cannot lead anywhere; None (not tested) while more
    than EARLY_SPAN items remain.  The same rule as the C core's."""
    if len(rest) > EARLY_SPAN:
        return None
    return z > _empty_among(rest, LEN, N1)


def _ratios(links: Links, weights: list[float]) -> list[float]:
    """Per node: its option's weight divided by the option's number of primary items."""
    T, n1 = links.TOP, links.N1
    ratio = [0.0] * len(T)
    for o, onodes in enumerate(links.option_nodes):
        share = weights[o] / sum(1 for q in onodes if T[q] <= n1)
        for q in onodes:
            ratio[q] = share
    return ratio


def run(
    links: Links,
    mode: str = "solutions",
    *,
    stats: Stats | None = None,
    max_nodes: int | None = None,
    heuristic: str | Heuristic | None = None,
    weights: list[float] | None = None,
    bound: Callable[[SearchState], float] | None = None,
    integral: bool = False,
    progress: Callable[[Stats], object] | None = None,
    deferred: tuple[Sequence[int], int] | None = None,
    restore: bool = True,
    early: bool = True,
) -> Generator[Any, None, None]:
    """Search ``links`` (which it changes and restores); yield according to ``mode``.

    ``weights`` (per option index, maximised) switches on branch and bound: a
    node is abandoned when its score plus an optimistic bound on the rest cannot
    beat the best solution so far.  The bound is ``bound(state)`` when given, else
    the sum, over the uncovered primary items, of the best ``weight / primary
    items`` ratio among the options still available for the item: admissible,
    because every completion splits its score exactly that way.  With
    ``integral`` weights the bound is rounded down.

    Raises BudgetExceeded (with ``found=None``; views fill it in) when more than
    ``max_nodes`` nodes would be visited, and passes on anything ``progress``
    raises; either way only between two steps, after restoring the links
    (``restore=False`` skips that restoring, for a throwaway copy).

    ``early=False`` leaves out the early-failure test during commits (see the
    module docstring): the same solutions and nodes, more updates; for callers
    that report no updates and whose problems rarely fail that way (Sudoku).

    ``deferred = (before, g)`` is for searches that start after ``g`` forced
    choices were made outside (the givens of a puzzle, see :mod:`dlx.grid`): it
    counts them as nodes where the plain search, which would have had them in
    the problem as options alone in their items, would have made them.  MRV takes
    such an item as soon as it is the first of length 1, so when the search
    chooses item ``i`` of length 1 the plain search has first made ``before[i]``
    of them, and otherwise (a longer list, or a solution) all ``g``.
    """
    if stats is None:
        stats = Stats()
    tracing = mode == "trace"
    want_labels = mode in ("solutions", "best")
    bb = weights is not None
    T = links.TOP
    LL, RL, U, D, LEN, COL = (
        links.LLINK, links.RLINK, links.ULINK, links.DLINK, links.LEN, links.COLOR,
    )
    ROW, OPT, SIZE1 = links.ROW, links.OPT, links.SIZE1
    labels, names = links.labels, links.item_names
    budget = -1 if max_nodes is None else max_nodes
    N1 = links.N1

    # The general path: Algorithm C's hide', cover', purify and their inverses
    # (7.2.2.1, Algorithm C).  Without colours every COLOR is 0 and they are
    # Algorithm X's hide, cover (7.2.2.1-(12)) and uncover (7.2.2.1-(14)).
    # Z[0] counts the uncovered primary items whose list is empty (both paths keep
    # it): MRV can stop at the first item of length 1, and a commit can stop early.
    Z = [_empty_among(tuple(links.active_items()), LEN, N1)]

    def hide_c(p: int, ROW=ROW, COL=COL, U=U, D=D, LEN=LEN, T=T, Z=Z, N1=N1) -> int:
        """Hide option p, leaving purified nodes (COLOR < 0) alone (Algorithm C's hide')."""
        k = 0
        for q in ROW[p]:
            if q != p and COL[q] >= 0:
                u = U[q]
                d = D[q]
                D[u] = d
                U[d] = u
                t = T[q]
                n = LEN[t] - 1
                LEN[t] = n
                if n == 0 and t <= N1:
                    Z[0] += 1
                k += 1
        return k

    def unhide_c(p: int, ROW=ROW, COL=COL, U=U, D=D, LEN=LEN, T=T, Z=Z, N1=N1) -> None:
        for q in ROW[p]:
            if q != p and COL[q] >= 0:
                U[D[q]] = q
                D[U[q]] = q
                t = T[q]
                n = LEN[t]
                LEN[t] = n + 1
                if n == 0 and t <= N1:
                    Z[0] -= 1

    def cover_c(i: int, D=D, LL=LL, RL=RL, LEN=LEN, Z=Z, N1=N1, hide_c=hide_c) -> int:
        """Algorithm C's cover'(i)."""
        k = 1
        p = D[i]
        while p != i:
            k += hide_c(p)
            p = D[p]
        left = LL[i]
        right = RL[i]
        RL[left] = right
        LL[right] = left
        if i <= N1 and LEN[i] == 0:
            Z[0] -= 1
        return k

    def uncover_c(i: int, U=U, LL=LL, RL=RL, LEN=LEN, Z=Z, N1=N1, unhide_c=unhide_c) -> None:
        left = LL[i]
        right = RL[i]
        RL[left] = i
        LL[right] = i
        if i <= N1 and LEN[i] == 0:
            Z[0] += 1
        p = U[i]
        while p != i:
            unhide_c(p)
            p = U[p]

    def purify(p: int, COL=COL, T=T, D=D, hide_c=hide_c) -> int:
        """Keep only the options that agree with node p's colour on its item."""
        c = COL[p]
        i = T[p]
        k = 0
        q = D[i]
        while q != i:
            if COL[q] == c:
                COL[q] = -1
            else:
                k += hide_c(q)
            q = D[q]
        return k

    def unpurify(p: int, COL=COL, T=T, U=U, unhide_c=unhide_c) -> None:
        c = COL[p]
        i = T[p]
        q = U[i]
        while q != i:
            if COL[q] < 0:
                COL[q] = c
            else:
                unhide_c(q)
            q = U[q]

    # The fast path (no colours, not tracing): per-node tables of the other nodes
    # split by kind, so no `q != p` test, and no LEN upkeep for secondary items,
    # whose LEN the search never reads.  Tracing and colours take the general path,
    # which keeps every LEN exact for pictures and checks.
    # (In the functions below, the names bound as default arguments are fast locals.)
    cover_many: Callable[[tuple[int, ...], bool], int]
    uncover_many: Callable[[tuple[int, ...]], None]
    choose: Callable[[], int]
    fast = None if tracing else links.fast_tables()
    if fast is not None:
        # The fast path covers a tuple of items per call: the other items of x_l at X5
        # (OI[x_l]) and the same reversed at X6 (RI[x_l]); like the general path, (i,)
        # at X4 and X7 (ONE[i]).
        OP, OS, OI, RI = fast

        def uncover_s(items: tuple[int, ...], D=D, U=U, T=T, LEN=LEN, LL=LL, RL=RL, OP=OP,
                      OS=OS, Z=Z, N1=N1) -> None:
            """uncover(i) for each i of ``items``, in that order."""
            for i in items:
                left = LL[i]
                right = RL[i]
                RL[left] = i
                LL[right] = i
                if i <= N1 and not LEN[i]:
                    Z[0] += 1
                p = U[i]
                while p != i:
                    for q in OP[p]:
                        U[D[q]] = q
                        D[U[q]] = q
                        t = T[q]
                        n = LEN[t]
                        LEN[t] = n + 1
                        if not n:
                            Z[0] -= 1
                    for q in OS[p]:
                        U[D[q]] = q
                        D[U[q]] = q
                    p = U[p]

        def cover_s(items: tuple[int, ...], check: bool = False, D=D, U=U, T=T, LEN=LEN,
                    LL=LL, RL=RL, OP=OP, OS=OS, Z=Z, SIZE1=SIZE1, N1=N1,
                    uncover_s=uncover_s) -> int:
            """cover(i) for each i of ``items`` on the fast path: the same unlinks.

            With ``check`` (a commit, X5), stop as soon as a primary item that is not
            among the items still to cover has no option left: undo what was covered
            and return ~updates (negative), the early failure.  (The test is needed
            only after the first item and after a cover that emptied an item: otherwise
            the empty items outside the option are those of the last test, none.)"""
            k = 0
            fresh = True
            for i in items:
                k += 1
                p = D[i]
                while p != i:
                    for q in OP[p]:
                        u = U[q]
                        d = D[q]
                        D[u] = d
                        U[d] = u
                        t = T[q]
                        n = LEN[t] - 1
                        LEN[t] = n
                        if not n:
                            Z[0] += 1
                            fresh = True
                    for q in OS[p]:
                        u = U[q]
                        d = D[q]
                        D[u] = d
                        U[d] = u
                    k += SIZE1[p]
                    p = D[p]
                left = LL[i]
                right = RL[i]
                RL[left] = right
                LL[right] = left
                if i <= N1 and not LEN[i]:
                    Z[0] -= 1
                if check and fresh and Z[0]:
                    at = items.index(i) + 1
                    failed = _fails(Z[0], items[at:], LEN, N1)
                    if failed:
                        uncover_s(items[at - 1::-1])
                        return ~k
                    fresh = failed is None
            return k

        cover_many, uncover_many = cover_s, uncover_s
        primary_only, s1 = links.fast_shape()
        if primary_only and s1 >= 0:
            # Every option has s1 + 1 nodes, all of primary items: no secondary loops,
            # and cover(i) makes 1 + s1 * LEN[i] updates.
            def uncover_u(items: tuple[int, ...], D=D, U=U, T=T, LEN=LEN, LL=LL, RL=RL,
                          OP=OP, Z=Z) -> None:
                """uncover_s when every option has s1 + 1 primary items."""
                for i in items:
                    left = LL[i]
                    right = RL[i]
                    RL[left] = i
                    LL[right] = i
                    if not LEN[i]:
                        Z[0] += 1
                    p = U[i]
                    while p != i:
                        for q in OP[p]:
                            U[D[q]] = q
                            D[U[q]] = q
                            t = T[q]
                            n = LEN[t]
                            LEN[t] = n + 1
                            if not n:
                                Z[0] -= 1
                        p = U[p]

            def cover_u(items: tuple[int, ...], check: bool = False, D=D, U=U, T=T, LEN=LEN,
                        LL=LL, RL=RL, OP=OP, Z=Z, s1=s1, N1=N1, uncover_u=uncover_u) -> int:
                """cover_s when every option has s1 + 1 primary items."""
                k = 0
                fresh = True
                for i in items:
                    m = LEN[i]
                    k += m
                    p = D[i]
                    while p != i:
                        for q in OP[p]:
                            u = U[q]
                            d = D[q]
                            D[u] = d
                            U[d] = u
                            t = T[q]
                            n = LEN[t] - 1
                            LEN[t] = n
                            if not n:
                                Z[0] += 1
                                fresh = True
                        p = D[p]
                    left = LL[i]
                    right = RL[i]
                    RL[left] = right
                    LL[right] = left
                    if not m:
                        Z[0] -= 1
                    if check and fresh and Z[0]:       # as in cover_s
                        at = items.index(i) + 1
                        failed = _fails(Z[0], items[at:], LEN, N1)
                        if failed:
                            uncover_u(items[at - 1::-1])
                            return ~(at + s1 * k)
                        fresh = failed is None
                return len(items) + s1 * k

            cover_many, uncover_many = cover_u, uncover_u
            Q = links.quads()
            if Q is not None:
                # Options of four primary items (Sudoku's shape): cover_u and uncover_u
                # with the loop over the three other nodes unrolled, and their items
                # read from the same tuple (10% faster on Sudoku in CPython 3.11).
                def uncover_4(items: tuple[int, ...], D=D, U=U, LEN=LEN, LL=LL, RL=RL,
                              Q=Q, Z=Z) -> None:
                    """uncover_u when every option has 4 primary items."""
                    for i in items:
                        left = LL[i]
                        right = RL[i]
                        RL[left] = i
                        LL[right] = i
                        if not LEN[i]:
                            Z[0] += 1
                        p = U[i]
                        while p != i:
                            a, b, c, ta, tb, tc = Q[p]
                            U[D[a]] = a
                            D[U[a]] = a
                            n = LEN[ta]
                            LEN[ta] = n + 1
                            if not n:
                                Z[0] -= 1
                            U[D[b]] = b
                            D[U[b]] = b
                            n = LEN[tb]
                            LEN[tb] = n + 1
                            if not n:
                                Z[0] -= 1
                            U[D[c]] = c
                            D[U[c]] = c
                            n = LEN[tc]
                            LEN[tc] = n + 1
                            if not n:
                                Z[0] -= 1
                            p = U[p]

                def cover_4(items: tuple[int, ...], check: bool = False, D=D, U=U, LEN=LEN,
                            LL=LL, RL=RL, Q=Q, Z=Z, N1=N1, uncover_4=uncover_4) -> int:
                    """cover_u when every option has 4 primary items."""
                    k = 0
                    fresh = True
                    for i in items:
                        m = LEN[i]
                        k += m
                        p = D[i]
                        while p != i:
                            a, b, c, ta, tb, tc = Q[p]
                            u = U[a]
                            d = D[a]
                            D[u] = d
                            U[d] = u
                            n = LEN[ta] - 1
                            LEN[ta] = n
                            if not n:
                                Z[0] += 1
                                fresh = True
                            u = U[b]
                            d = D[b]
                            D[u] = d
                            U[d] = u
                            n = LEN[tb] - 1
                            LEN[tb] = n
                            if not n:
                                Z[0] += 1
                                fresh = True
                            u = U[c]
                            d = D[c]
                            D[u] = d
                            U[d] = u
                            n = LEN[tc] - 1
                            LEN[tc] = n
                            if not n:
                                Z[0] += 1
                                fresh = True
                            p = D[p]
                        left = LL[i]
                        right = RL[i]
                        RL[left] = right
                        LL[right] = left
                        if not m:
                            Z[0] -= 1
                        if check and fresh and Z[0]:       # as in cover_s
                            at = items.index(i) + 1
                            failed = _fails(Z[0], items[at:], LEN, N1)
                            if failed:
                                uncover_4(items[at - 1::-1])
                                return ~(at + 3 * k)
                            fresh = failed is None
                    return len(items) + 3 * k

                cover_many, uncover_many = cover_4, uncover_4

    else:
        def cover_many_c(items: tuple[int, ...], check: bool = False, cover_c=cover_c) -> int:
            k = 0
            for i in items:
                k += cover_c(i)
            return k

        def uncover_many_c(items: tuple[int, ...], uncover_c=uncover_c) -> None:
            for i in items:
                uncover_c(i)

        cover_many, uncover_many = cover_many_c, uncover_many_c
    ONE = links.singles()

    is_fast = fast is not None
    if fast is not None:
        LEN[0] = -1       # the sentinel of the fast MRV scan; 0 again when the search ends

    def choose_mrv(RL=RL, LEN=LEN) -> int:
        """Minimum remaining values: the first item of shortest list."""
        i = j = RL[0]
        s = LEN[j]
        while s > 0:
            j = RL[j]
            if j == 0:
                break
            t = LEN[j]
            if t < s:
                s = t
                i = j
        return i

    # Early failure at X3 (see the module docstring): an uncovered primary item with
    # no option left makes the partial solution a dead end, whatever the heuristic
    # would pick.  MRV finds such an item by itself; the others look for it first.
    def empty_item(RL=RL, LEN=LEN) -> int:
        j = RL[0]
        while j != 0:
            if LEN[j] == 0:
                return j
            j = RL[j]
        return 0

    if heuristic is None or heuristic == "mrv":
        choose = choose_mrv
    elif heuristic == "first":
        def choose_first(RL=RL, empty_item=empty_item) -> int:
            return empty_item() or RL[0]

        choose = choose_first
    elif callable(heuristic):
        user = heuristic

        def choose_user(LEN=LEN, names=names, links=links, user=user,
                        empty_item=empty_item) -> int:
            dead_end = empty_item()
            if dead_end:
                return dead_end
            active = links.active_items()
            k = user([(names[i], LEN[i]) for i in active])
            if not isinstance(k, int) or not 0 <= k < len(active):
                raise ExactCoverError(f"heuristic returned {k!r}, not an index into its list")
            return active[k]

        choose = choose_user
    else:
        raise ExactCoverError(f"unknown heuristic {heuristic!r}: use 'mrv', 'first' or a callable")

    mrv_fast = is_fast and choose is choose_mrv    # MRV inlined in the loop (X3)
    x = [0] * (N1 + 1)        # x[l]: the node of the option tried at level l
    rows: list[tuple[int, ...]] = [()] * (N1 + 1)  # the other nodes of x[l], in commit order
    lens = [0] * (N1 + 1)     # (trace) the chosen item's list length at level l
    state = SearchState(links, x)
    ratio: list[float] = []
    if bb:
        assert weights is not None
        score = [0.0] * (N1 + 2)   # score[l]: total weight of x[0..l-1]
        ratio = _ratios(links, weights)
        best_score = -math.inf
        eps = 1e-9

    def optimistic(level: int, RL=RL, D=D, state=state, bound=bound, ratio=ratio) -> float:
        """Upper bound on the weight still to come (see run's docstring)."""
        if bound is not None:
            state._level = level
            return bound(state)
        total = 0.0
        j = RL[0]
        while j:
            m = -math.inf
            p = D[j]
            while p != j:
                r = ratio[p]
                if r > m:
                    m = r
                p = D[p]
            total += m
            j = RL[j]
        return total

    nodes = 1
    updates = 0
    # profile[l]: nodes at level l.  Levels fill from 0 without gaps and a search is
    # at most N1 deep, so the first 0 (there is always one) ends the real profile.
    profile = [1] + [0] * (N1 + 1)
    if deferred is not None:
        before, n_deferred = deferred
        gp = [0] * (N1 + 2)    # gp[l]: the deferred choices counted on the path to level l
    level = 0
    i = 0
    dead = False
    held = False    # is the item chosen at `level` covered (between X4 and X7)?
    part = 0        # (trace) how many other items of x[level] are committed now
    paused = False  # True only at the pauses between steps, where unwinding is safe

    def sync(nodes: int, updates: int, profile: list[int], stats: Stats = stats) -> None:
        stats.nodes, stats.updates, stats.profile = nodes, updates, profile[:profile.index(0)]

    stats.solutions = 0
    try:
        # X1: initialise (the links are already laid out; level 0)
        while True:
            # X2: enter level `level`
            if RL[0] == 0:
                if deferred is not None and gp[level] < n_deferred:
                    nodes += n_deferred - gp[level]
                    if 0 <= budget < nodes:
                        nodes = budget       # the deferred choices up to the budget
                        paused = True
                        raise BudgetExceeded(budget, None, stats)
                stats.solutions += 1
                paused = True
                if tracing:
                    sync(nodes, updates, profile)
                    yield Solution(level, _chosen(labels, OPT, x, level))
                elif bb:
                    if score[level] > best_score:
                        best_score = score[level]
                        sync(nodes, updates, profile)
                        yield best_score, _chosen(labels, OPT, x, level)
                elif want_labels:
                    sync(nodes, updates, profile)
                    yield _chosen(labels, OPT, x, level)
                else:
                    yield None
                paused = False
                dead = True
            else:
                # X3: choose an item i
                if mrv_fast:
                    # choose_mrv on the fast path, inlined (the loop's most frequent call).
                    # With the empty-item count Z, no item is shorter than 1 once Z[0]
                    # is 0, so the scan stops at the first item of length 1 (the same
                    # choice), and LEN[0] = -1 makes the head look "shorter": the scan
                    # tests for it only when a length drops.
                    if Z[0]:
                        i = 0
                    else:
                        i = j = RL[0]
                        s = LEN[j]
                        if s != 1:
                            while True:
                                j = RL[j]
                                t = LEN[j]
                                if t < s:
                                    if not j:
                                        break
                                    i = j
                                    if t == 1:
                                        break
                                    s = t
                else:
                    i = choose()
                if tracing:
                    lens[level] = LEN[i]
                    paused = True
                    yield Choose(level, names[i], LEN[i])
                    paused = False
                if LEN[i] <= 0:
                    dead = True          # no option can cover i: a dead end
                elif deferred is not None:
                    have = gp[level]
                    if have < n_deferred:
                        want = before[i] if LEN[i] == 1 else n_deferred
                        if want > have:
                            nodes += want - have
                            if 0 <= budget < nodes:
                                nodes = budget
                                paused = True
                                raise BudgetExceeded(budget, None, stats)
                            have = want
                    gp[level + 1] = have
                    dead = False
                elif bb and best_score > -math.inf:
                    room = optimistic(level)
                    if room == -math.inf:
                        dead = True      # some uncovered item has no option left
                    else:
                        if integral:
                            room = math.floor(room + eps)
                        dead = score[level] + room <= best_score + eps * (1 + abs(best_score))
                else:
                    dead = False
                if not dead:
                    # X4: cover i
                    updates += cover_many(ONE[i])
                    held = True
                    x[level] = D[i]
                    if tracing:
                        paused = True
                        yield Cover(level, names[i])
                        paused = False
            while True:
                if dead:
                    # X8: leave level `level`
                    if tracing:
                        paused = True
                        yield Backtrack(level)
                        paused = False
                    if level == 0:
                        return
                    level -= 1
                    # X6: try again: undo x_l (other items in reverse order), next option
                    xl = x[level]
                    i = T[xl]
                    held = True
                    if is_fast:
                        uncover_many(RI[xl])
                        x[level] = D[xl]
                        dead = False
                        continue
                    if tracing:
                        part = len(rows[level])
                    for q in reversed(rows[level]):
                        c = COL[q]        # uncommit (Algorithm C): c < 0 means nothing to undo
                        if c == 0:
                            uncover_c(T[q])
                        elif c > 0:
                            unpurify(q)
                        if tracing:
                            part -= 1
                            if c >= 0:
                                paused = True
                                yield Uncover(level, names[T[q]], links.color_names[c])
                                paused = False
                    x[level] = D[xl]
                    dead = False
                xl = x[level]
                if xl != i:
                    # X5: try x_l
                    if nodes == budget:
                        paused = True
                        raise BudgetExceeded(budget, None, stats)
                    nodes += 1
                    if progress is not None and nodes & (PROGRESS_EVERY - 1) == 0:
                        sync(nodes, updates, profile)
                        paused = True
                        progress(stats)
                        paused = False
                    profile[level + 1] += 1
                    if is_fast:
                        k = cover_many(OI[xl], early)
                        if k < 0:
                            # early failure: an item outside x_l has no option left, and
                            # the commit has undone itself; try the next option
                            updates += ~k
                            x[level] = D[xl]
                            continue
                        updates += k
                        if bb:
                            score[level + 1] = score[level] + weights[OPT[xl]]  # type: ignore
                        level += 1
                        held = False
                        break
                    row = ROW[xl]
                    at = row.index(xl)
                    others = row[at + 1:] + row[:at]
                    rows[level] = others
                    if tracing:
                        kth, y = 1, D[i]
                        while y != xl:
                            kth, y = kth + 1, D[y]
                        paused = True
                        yield Try(level, labels[OPT[xl]], kth, lens[level])
                        paused = False
                    failed = False
                    for q in others:
                        c = COL[q]        # commit (Algorithm C): c < 0 means already purified
                        if c == 0:
                            updates += cover_c(T[q])
                        elif c > 0:
                            updates += purify(q)
                        part += 1
                        if tracing and c >= 0:
                            paused = True
                            yield Cover(level, names[T[q]], links.color_names[c])
                            paused = False
                        if early and Z[0] and len(others) - part <= EARLY_SPAN and _fails(
                                Z[0], tuple(map(T.__getitem__, others[part:])), LEN, N1):
                            failed = True     # early failure, as on the fast path
                            break
                    if failed:
                        for q in reversed(others[:part]):
                            c = COL[q]
                            if c == 0:
                                uncover_c(T[q])
                            elif c > 0:
                                unpurify(q)
                            part -= 1
                            if tracing and c >= 0:
                                paused = True
                                yield Uncover(level, names[T[q]], links.color_names[c])
                                paused = False
                        x[level] = D[xl]
                        continue
                    if bb:
                        score[level + 1] = score[level] + weights[OPT[xl]]  # type: ignore[index]
                    level += 1
                    held = False
                    part = 0
                    break
                # X7: backtrack: every option of i has been tried
                uncover_many(ONE[i])
                held = False
                if tracing:
                    paused = True
                    yield Uncover(level, names[i])
                    paused = False
                dead = True
    finally:
        sync(nodes, updates, profile)
        if fast is not None:
            LEN[0] = 0
        if paused and restore:
            # Stopped between two steps (closed, budget, progress raised): undo every
            # cover so this table is exactly as it was before the search.
            def undo(i: int, uncover_many=uncover_many, ONE=ONE) -> None:
                uncover_many(ONE[i])

            def uncommit(q: int, COL=COL, T=T, undo=undo, unpurify=unpurify) -> None:
                if COL[q] == 0:
                    undo(T[q])
                elif COL[q] > 0:
                    unpurify(q)

            for q in reversed(rows[level][:part]):
                uncommit(q)
            if held:
                undo(i)
            for lev in range(level - 1, -1, -1):
                if fast is not None:
                    uncover_many(RI[x[lev]])
                else:
                    for q in reversed(rows[lev]):
                        uncommit(q)
                undo(T[x[lev]])


# --------------------------------------------------------------------------- views


def _master(problem: ExactCover) -> Links:
    if not isinstance(problem, ExactCover):
        raise ExactCoverError(
            f"expected a dlx.ExactCover, got {type(problem).__name__}"
            " (build one with dlx.ExactCover({label: items}))"
        )
    return Links.of(problem)


def _links(problem: ExactCover) -> Links:
    return _master(problem).copy()


def _check_positive(value: int | None, name: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ExactCoverError(f"{name} must be a positive whole number or None, not {value!r}")


def solutions(
    problem: ExactCover,
    *,
    limit: int | None = None,
    max_nodes: int | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    progress: Callable[[Stats], object] | None = None,
    engine: str | None = None,
) -> Iterator[tuple[Hashable, ...]]:
    """Yield solutions lazily, each a fresh tuple of option labels in choice order.

    Parameters
    ----------
    problem : ExactCover
    limit : int or None
        Stop after this many solutions.
    max_nodes : int or None
        Node budget; when it runs out, :class:`~dlx.BudgetExceeded` is raised with
        ``found`` = the list of solutions yielded so far.
    stats : Stats or None
        Filled in place (nodes, updates, solutions, per-level profile).
    heuristic : "mrv" (default), "first", or callable
        How to choose the next item: minimum remaining values (first shortest
        list), the first uncovered item, or ``f([(item, length), ...]) -> index``.
    progress : callable or None
        Called with the stats every :data:`PROGRESS_EVERY` nodes; an exception it
        raises stops the search cleanly (between two steps).
    engine : "auto", "c", "python" or None
        The compiled core or the pure engine (same results); None: as the
        ``DLX_ENGINE`` environment variable says, else "auto".  See :mod:`dlx.engine`.

    Examples
    --------
    >>> import dlx
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
    >>> list(dlx.solutions(p))
    [('x', 'y'), ('xy',)]
    >>> list(dlx.solutions(p, limit=1))
    [('x', 'y')]
    """
    _check_positive(limit, "limit")
    _check_positive(max_nodes, "max_nodes")
    master = _master(problem)
    if _engine.select(engine) and _engine.supports(heuristic, problem):
        return _engine.solutions(problem, limit, max_nodes, stats, heuristic, progress)
    return _solutions(master.copy(), limit, max_nodes, stats, heuristic, progress)


def _solutions(links: Links, limit: int | None, max_nodes: int | None, stats: Stats | None,
               heuristic: str | Heuristic | None,
               progress: Callable[[Stats], object] | None) -> Iterator[tuple[Hashable, ...]]:
    found: list[tuple[Hashable, ...]] = []
    if limit is not None and limit < 1:
        return
    search = run(links, "solutions", stats=stats, max_nodes=max_nodes, heuristic=heuristic,
                 progress=progress)
    try:
        for sol in search:
            found.append(sol)
            yield sol
            if limit is not None and len(found) >= limit:
                return
    except BudgetExceeded as e:
        e.found = found
        raise
    finally:
        search.close()


def count(
    problem: ExactCover,
    *,
    limit: int | None = None,
    max_nodes: int | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    progress: Callable[[Stats], object] | None = None,
    engine: str | None = None,
) -> int:
    """Count the solutions (up to ``limit``), storing none of them.

    Raises :class:`~dlx.BudgetExceeded` with ``found`` = the partial count when
    ``max_nodes`` runs out.  The other keywords are those of :func:`solutions`.

    >>> import dlx
    >>> dlx.count(dlx.ExactCover({"x": ["a"], "y": ["a"], "z": ["a"]}))
    3
    >>> dlx.count(dlx.ExactCover({"x": ["a"], "y": ["a"], "z": ["a"]}), limit=2)
    2
    """
    _check_positive(limit, "limit")
    _check_positive(max_nodes, "max_nodes")
    master = _master(problem)
    if _engine.select(engine) and _engine.supports(heuristic, problem):
        return _engine.count(problem, limit, max_nodes, stats, heuristic, progress)
    search = run(master.copy(), "count", stats=stats, max_nodes=max_nodes,
                 heuristic=heuristic, progress=progress)
    n = 0
    try:
        for _ in search:
            n += 1
            if n == limit:
                break
    except BudgetExceeded as e:
        e.found = n
        raise
    finally:
        search.close()
    return n


def first(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    engine: str | None = None,
) -> tuple[Hashable, ...] | None:
    """The first solution (a tuple of option labels), or None when there is none.

    >>> import dlx
    >>> dlx.first(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    ('x', 'y')
    >>> dlx.first(dlx.ExactCover({"x": ["a", "b"], "y": ["b", "c"]})) is None
    True
    """
    for sol in solutions(problem, limit=1, max_nodes=max_nodes, stats=stats, heuristic=heuristic,
                         engine=engine):
        return sol
    return None


def is_unique(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    engine: str | None = None,
) -> bool:
    """True when the problem has exactly one solution (the search stops at the second).

    >>> import dlx
    >>> dlx.is_unique(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    True
    """
    return count(problem, limit=2, max_nodes=max_nodes, stats=stats, heuristic=heuristic,
                 engine=engine) == 1


def best(
    problem: ExactCover,
    weight: Callable[[Any], float] | Mapping[Any, float],
    *,
    maximize: bool = True,
    max_nodes: int | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    bound: Callable[[SearchState], float] | None = None,
    progress: Callable[[Stats], object] | None = None,
    engine: str | None = None,
) -> tuple[float, tuple[Hashable, ...]] | None:
    """The solution of greatest (or least) total weight, by branch and bound.

    Parameters
    ----------
    problem : ExactCover
    weight : callable or mapping
        ``weight(label)`` (or ``weight[label]``) is the number of each option; a
        solution's score is the sum over its options.
    maximize : bool
        Largest score (default) or smallest.
    bound : callable or None
        ``bound(state) -> number``: an optimistic estimate (never below the truth
        when maximising, never above when minimising) of the weight the
        uncovered items can still add, given a :class:`SearchState`.  The default
        is the generic bound described in :func:`run`; a problem-specific bound
        can prune much more.
    max_nodes : int or None
        Node budget; :class:`~dlx.BudgetExceeded` then carries the best
        ``(score, solution)`` found so far (or None) as ``found``.
    engine : "auto", "c", "python" or None
        As for :func:`solutions`; a ``bound`` hook always runs on the pure engine.

    Returns
    -------
    (score, solution) or None
        The first best solution in search order; None when there is no solution.

    Examples
    --------
    Fewest options: minimise the count (weight 1 each).

    >>> import dlx
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "z": ["c"], "xy": ["a", "b"],
    ...                     "xyz": ["a", "b", "c"]})
    >>> dlx.best(p, lambda label: 1, maximize=False)
    (1, ('xyz',))
    >>> dlx.best(p, {"x": 5, "y": 1, "z": 1, "xy": 2, "xyz": 4})
    (7, ('z', 'x', 'y'))
    """
    _check_positive(max_nodes, "max_nodes")
    links = _master(problem)
    use_core = _engine.select(engine) and _engine.supports(heuristic, problem) and bound is None
    get = weight.__getitem__ if isinstance(weight, Mapping) else weight
    sign = 1 if maximize else -1
    weights: list[float] = []
    for label in links.labels:
        try:
            w = get(label)
        except Exception as e:  # noqa: BLE001 - report the label whose weight failed
            raise ExactCoverError(f"weight of option {label!r} could not be computed: {e}") from e
        if isinstance(w, bool) or not isinstance(w, (int, float)) or math.isnan(w) or math.isinf(w):
            raise ExactCoverError(f"weight of option {label!r} is {w!r}, not a finite number")
        weights.append(sign * w)
    integral = all(isinstance(w, int) for w in weights)
    if use_core:
        if stats is None:
            stats = Stats()
        found, out_of_budget = _engine.best(problem, weights, integral, max_nodes, stats,
                                            heuristic, progress)
        signed = None if found is None else _signed(found, sign, integral)
        if out_of_budget:
            raise BudgetExceeded(max_nodes, signed, stats)  # type: ignore[arg-type]
        return signed
    links = links.copy()
    user_bound = None
    if bound is not None:
        def user_bound(state: SearchState) -> float:
            return float(sign * bound(state))
    result: tuple[float, tuple[Hashable, ...]] | None = None
    search = run(links, "best", stats=stats, max_nodes=max_nodes, heuristic=heuristic,
                 weights=weights, bound=user_bound, integral=integral, progress=progress)
    try:
        for score, sol in search:
            result = (score, sol)
    except BudgetExceeded as e:
        e.found = None if result is None else _signed(result, sign, integral)
        raise
    finally:
        search.close()
    return None if result is None else _signed(result, sign, integral)


def _signed(result: tuple[float, tuple[Hashable, ...]], sign: int,
            integral: bool) -> tuple[float, tuple[Hashable, ...]]:
    score = sign * result[0]
    return (int(score) if integral else score), result[1]


def trace(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    engine: str | None = None,
) -> Iterator[Event]:
    """Yield an :mod:`event <dlx.trace>` between every two steps of the search.

    The links are consistent at every pause (no cover is half done).  Tracing
    always runs on the pure engine; ``engine`` is checked (``"c"`` still needs the
    core to be built) so that every view takes the same keywords.

    >>> import dlx
    >>> for event in dlx.trace(dlx.ExactCover({"x": ["a", "b"], "y": ["b"]})):
    ...     print(event)
    L0 choose item a (1 option)
    L0 cover a
    L0 try x (1 of 1)
    L0 cover b
    L1 solution: x
    L1 backtrack
    L0 uncover b
    L0 uncover a
    L0 backtrack
    """
    _check_positive(max_nodes, "max_nodes")
    _engine.select(engine)
    return run(_links(problem), "trace", stats=stats, max_nodes=max_nodes, heuristic=heuristic)
