"""THE search loop: Knuth's Algorithm C (TAOCP 7.2.2.1), the pure-Python reference.

This module is the readable engine.  :class:`Dance` holds the dance steps,
each written once as Knuth writes it: ``hide``/``unhide`` (7.2.2.1-(13), (15)),
``cover``/``uncover`` ((12), (14)), ``purify``/``unpurify`` and ``commit``/
``uncommit`` (Algorithm C).  :func:`run` is the one loop, with Knuth's steps
named where they happen:

X1 initialise; X2 enter level l (every primary item covered: visit a
solution); X3 choose an item i; X4 cover i; X5 try the option x_l (commit its
other items); X6 try again (uncommit x_l, take the next option of i); X7
backtrack (uncover i); X8 leave level l.

Algorithm X is Algorithm C without colours: every commit is then a cover.
The compiled core (``dlx/_core.c``) runs the same steps in the same order, so
both engines report the same solutions, order and :class:`~dlx.Stats`.

Two refinements, both invisible in the answers and node counts:

* *Early failure* (xcover's lookahead): an uncovered primary item with no
  option left is a dead end.  :class:`Dance` counts such items as it hides and
  unhides; X3 gives up at once when there is one, and X5 stops committing x_l
  as soon as one lies outside the items of x_l still to commit (the try still
  counts as a node, as it would have anyway).  Only link updates are saved.
* *Forced options*: ``run(..., forced=[node, ...])`` first places those options
  as levels 0, 1, ... (X4 and X5 without counting nodes) and searches below
  them, so the search is exactly the subtree under that partial solution.

The search works on the :class:`~dlx.links.Links` it is given and leaves it
exactly as it found it when it ends, is closed, runs out of budget or time, or
its ``progress`` callback raises: every such stop happens between two steps.

>>> from dlx.problem import ExactCover
>>> from dlx.links import Links
>>> links = Links.build(ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]}))
>>> list(run(links, "solutions"))
[('x', 'y'), ('xy',)]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any, Literal, TypeAlias

from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Backtrack, Choose, Cover, Solution, Stats, Try, Uncover
from .links import Links

__all__ = ["run", "Dance", "SignedDance", "SearchState", "Bound", "Memo", "CacheFullWarning",
           "PROGRESS_EVERY", "ENTRY_BYTES", "Heuristic", "Mode"]

#: The ``progress`` callback is called (and the deadline checked) every this many nodes.
PROGRESS_EVERY = 1 << 12

#: How ``run`` reports: label tuples, None per solution, events, or improving ``(score, labels)``.
Mode: TypeAlias = Literal["solutions", "count", "trace", "best"]

#: A user heuristic: given ``[(item, options left), ...]`` for the uncovered primary
#: items, return the index of the item to branch on.
Heuristic: TypeAlias = Callable[[list[tuple[Hashable, int]]], int]

#: The built-in heuristics: Knuth's MRV (the first item of fewest options) and the
#: first uncovered item.
HeuristicName: TypeAlias = Literal["mrv", "first"]

#: The early-failure test of X5 looks at most this many nodes ahead (so that an option
#: of many items costs linear, not quadratic, time); the C core uses the same number.
_LOOKAHEAD = 64


class Dance:
    """The dance steps on one search's links, and the counters they keep.

    The attributes are the links' lists under Knuth's names (the same list
    objects: the steps change ``links`` in place), plus the tables of each
    node's other nodes in primary and in secondary items
    (:meth:`~dlx.links.Links.others_tables`).  ``updates`` counts Knuth's
    updates (a node taken out of an item's list, or an item out of the item
    list); ``empty`` counts the uncovered primary items whose list is empty
    (early failure reads it).  Only primary items keep their lengths up to date:
    no heuristic looks at a secondary item's.
    """

    __slots__ = ("links", "LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP", "COLOR",
                 "OTHERS", "BOUND", "SLACK", "N1", "updates", "empty", "lists")

    def __init__(self, links: Links) -> None:
        self.links = links
        self.LLINK, self.RLINK, self.ULINK, self.DLINK = (
            links.LLINK, links.RLINK, links.ULINK, links.DLINK)
        self.LEN, self.TOP, self.COLOR = links.LEN, links.TOP, links.COLOR
        self.BOUND, self.SLACK = links.BOUND, links.SLACK
        self.OTHERS = links.others_table()
        self.N1 = links.N1
        self.updates = 0
        self.empty = sum(1 for i in links.active_items() if links.LEN[i] == 0)
        # the lists cover and uncover read, fetched in one step
        self.lists = (self.LLINK, self.RLINK, self.ULINK, self.DLINK, self.LEN, self.TOP,
                      self.COLOR, self.OTHERS)

    def cover(self, i: int, color: int = 0) -> None:
        """Cover item i (7.2.2.1-(12)): hide every option in its list, top to bottom,
        then take i out of the item list.

        To hide the option of node p (7.2.2.1-(13), Algorithm C's hide') is to take
        p's other nodes out of their items' lists, leaving purified nodes alone
        (only secondary items are ever purified).

        With a ``color`` > 0, *purify* item i instead (Algorithm C): hide only the
        options that give i another colour, mark those that agree as purified
        (COLOR -1), record the colour in i's header (COLOR[i], as Knuth does), and
        leave i in the item list.  A ``color`` < 0 (the node was
        purified already) does nothing.  So ``cover(TOP[p], COLOR[p])`` is
        Algorithm C's commit of node p, and ``uncover`` the same its uncommit.
        """
        if color < 0:
            return
        L, R, U, D, LEN, TOP, COLOR, OTHERS = self.lists
        updates = 0 if color else 1
        emptied = 0
        p = D[i]
        while p != i:
            if color and COLOR[p] == color:
                COLOR[p] = -1
            else:                                   # hide' the option of node p
                primary, secondary, n = OTHERS[p] or self.links.split_others(p)
                updates += n
                for q in primary:
                    u, d = U[q], D[q]
                    D[u] = d
                    U[d] = u
                    j = TOP[q]
                    left = LEN[j] - 1
                    LEN[j] = left
                    if left == 0:
                        emptied += 1
                for q in secondary:
                    if COLOR[q] >= 0:
                        u, d = U[q], D[q]
                        D[u] = d
                        U[d] = u
                    else:                           # purified: left alone, no update
                        updates -= 1
            p = D[p]
        if color:
            COLOR[i] = color                        # the header records i's colour
        else:
            left, right = L[i], R[i]
            R[left] = right
            L[right] = left
            if LEN[i] == 0 and i <= self.N1:
                emptied -= 1
        if emptied:
            self.empty += emptied
        self.updates += updates

    def uncover(self, i: int, color: int = 0, relink: bool = True) -> None:
        """Undo cover(i, color): put i back in the item list, then unhide its options
        from the bottom up (7.2.2.1-(14), (15)); or unpurify i (Algorithm C).  With
        ``relink`` False, i stays out of the item list (Algorithm M puts it back
        itself)."""
        if color < 0:
            return
        L, R, U, D, LEN, TOP, COLOR, OTHERS = self.lists
        refilled = 0
        if color:
            COLOR[i] = 0
        elif relink:
            left, right = L[i], R[i]
            R[left] = i
            L[right] = i
            if LEN[i] == 0 and i <= self.N1:
                refilled -= 1
        p = U[i]
        while p != i:
            if color and COLOR[p] < 0:
                COLOR[p] = color
            else:                                   # unhide' the option of node p
                primary, secondary, _ = OTHERS[p] or self.links.split_others(p)
                for q in primary:
                    D[U[q]] = q
                    U[D[q]] = q
                    j = TOP[q]
                    had = LEN[j]
                    if had == 0:
                        refilled += 1
                    LEN[j] = had + 1
                for q in secondary:
                    if COLOR[q] >= 0:
                        D[U[q]] = q
                        U[D[q]] = q
            p = U[p]
        if refilled:
            self.empty -= refilled

    # -- Algorithm M: bounds on primary items (TAOCP 7.2.2.1, Knuth's DLX3) ------

    def commit(self, q: int) -> None:
        """Algorithm M's commit of node q: a primary item may be covered BOUND more
        times (cover it when that reaches 0); a secondary item as Algorithm C."""
        i = self.TOP[q]
        if i <= self.N1:
            self.BOUND[i] -= 1
            if self.BOUND[i] == 0:
                self.cover(i)
        else:
            self.cover(i, self.COLOR[q])

    def uncommit(self, q: int) -> None:
        """Undo commit(q)."""
        i = self.TOP[q]
        if i <= self.N1:
            if self.BOUND[i] == 0:
                self.uncover(i)
            self.BOUND[i] += 1
        else:
            self.uncover(i, self.COLOR[q])

    def deactivate(self, i: int) -> None:
        """Take item i out of the item list (it needs no more options)."""
        left, right = self.LLINK[i], self.RLINK[i]
        self.RLINK[left] = right
        self.LLINK[right] = left

    def reactivate(self, i: int) -> None:
        """Undo deactivate(i)."""
        self.RLINK[self.LLINK[i]] = i
        self.LLINK[self.RLINK[i]] = i

    def tweak(self, x: int, block: bool) -> None:
        """Take node x out of its item's list (Knuth's tweak); with ``block``, hide
        the rest of x's option too, so that x can't be chosen again below."""
        U, D, LEN, TOP, COLOR = self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR
        nodes = (x, *(self.links.cyclic_table()[x] or others(self.links, x))) if block else (x,)
        for q in nodes:
            if COLOR[q] >= 0:
                u, d = U[q], D[q]
                D[u] = d
                U[d] = u
                if TOP[q] <= self.N1:
                    LEN[TOP[q]] -= 1
                self.updates += 1

    def untweak_option(self, x: int) -> None:
        """Undo tweak(x, True): put every node of x's option back in its list."""
        U, D, LEN, TOP, COLOR = self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR
        for q in (x, *(self.links.cyclic_table()[x] or others(self.links, x))):
            if COLOR[q] >= 0:
                D[U[q]] = q
                U[D[q]] = q
                if TOP[q] <= self.N1:
                    LEN[TOP[q]] += 1

    def untweak(self, i: int, first: int, block: bool) -> None:
        """Put back the nodes tweaked out of item i's list since ``first`` (the first
        of them), unhiding their options when ``block`` (Knuth's untweak)."""
        U, D, LEN, TOP, COLOR = self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR
        last = D[i]             # the first node still in the list (or i)
        D[i] = first
        above, q = i, first
        while q != last:        # the tweaked nodes still point down to each other
            U[q] = above
            LEN[i] += 1
            if block:
                for r in self.links.cyclic_table()[q] or others(self.links, q):
                    if COLOR[r] >= 0:
                        D[U[r]] = r
                        U[D[r]] = r
                        if TOP[r] <= self.N1:
                            LEN[TOP[r]] += 1
            above, q = q, D[q]
        U[last] = above

    def dead_end_beyond(self, rest: Sequence[int], start: int) -> bool:
        """Early failure: True when some uncovered primary item with no option left is
        not the item of a node in ``rest[start:]`` (the nodes of x_l still to
        commit), so x_l cannot lead to a solution.  Looks at most ``_LOOKAHEAD``
        nodes ahead."""
        if self.empty == 0 or len(rest) - start > _LOOKAHEAD:
            return False
        TOP, LEN, n1 = self.TOP, self.LEN, self.N1
        empty_ahead = 0
        for q in rest[start:]:
            if TOP[q] <= n1 and LEN[TOP[q]] == 0:
                empty_ahead += 1
        return self.empty > empty_ahead


def others(links: Links, x: int) -> tuple[int, ...]:
    """The other nodes of x's option in Knuth's cyclic order: x+1, ..., then from
    the option's first node up to x-1."""
    row = links.ROW[x]
    at = x - row[0]
    return row[at + 1:] + row[:at]


class SearchState:
    """A read-only view of a paused search, handed to ``bound`` hooks.

    ``items()`` yields the primary items not yet covered, ``options(item)`` the
    labels of the options still available for that item, ``length(item)`` how
    many, ``chosen()`` the labels chosen so far, and ``links`` the live
    :class:`~dlx.links.Links` table (read only!).
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
        return t.length(t.item_number(item))

    def chosen(self) -> tuple[Hashable, ...]:
        t = self.links
        return tuple(t.labels[t.OPT[x]] for x in self._x[: self._level])


# ----------------------------------------------------------------------- X3: choosing


def choose_mrv(links: Links) -> int:
    """Minimum remaining values: the first uncovered primary item of shortest list.

    Called when no uncovered primary item is empty, so the scan may stop at the
    first item of length 1: nothing is shorter."""
    RL, LEN = links.RLINK, links.LEN
    best = RL[0]
    shortest = LEN[best]
    j = RL[best]
    while j != 0 and shortest > 1:
        if LEN[j] < shortest:
            best, shortest = j, LEN[j]
        j = RL[j]
    return best


def choose_first(links: Links) -> int:
    """The first uncovered primary item."""
    return links.RLINK[0]


def choose_bounded(links: Links) -> int:
    """Algorithm M's choice (Knuth's DLX3): the item of smallest *branching degree*
    ``LEN + s - BOUND + 1``, where ``s = min(SLACK, BOUND)`` (the number of ways to
    go on from it, counting the null choice); ties go to the smaller s, then the
    longer list, then the first.  A degree below 1 is a dead end.  Without
    bounds the degree is LEN: this is then minimum remaining values."""
    RL, LEN, BOUND, SLACK = links.RLINK, links.LEN, links.BOUND, links.SLACK
    best, key = 0, (0, 0, 0)
    j = RL[0]
    while j != 0:
        s = min(SLACK[j], BOUND[j])
        this = (LEN[j] + s - BOUND[j] + 1, s, -LEN[j])
        if best == 0 or this < key:
            best, key = j, this
        j = RL[j]
    return best


def degree(links: Links, i: int) -> int:
    """The branching degree of item i (see :func:`choose_bounded`)."""
    s = min(links.SLACK[i], links.BOUND[i])
    return links.LEN[i] + s - links.BOUND[i] + 1


def _chooser(heuristic: HeuristicName | Heuristic | None, multi: bool = False
             ) -> Callable[[Links], int]:
    if heuristic is None or heuristic == "mrv":
        return choose_bounded if multi else choose_mrv
    if heuristic == "first":
        return choose_first
    if callable(heuristic):
        user = heuristic

        def choose_user(links: Links) -> int:
            active = links.active_items()
            k = user([(links.item_names[i], links.LEN[i]) for i in active])
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(active):
                raise ExactCoverError(f"heuristic returned {shown(k)}, not an index into its list")
            return active[k]

        return choose_user
    raise ExactCoverError(f"unknown heuristic {shown(heuristic)}: use 'mrv', 'first' or a callable")


# ----------------------------------------------------------------- branch and bound


Number: TypeAlias = "int | float | Fraction"


class Bound:
    """Branch and bound for ``mode="best"``: option weights (maximised), the ``k``
    best solutions found so far, and an optimistic estimate of what the uncovered
    items can still add.

    The default estimate is, for each uncovered primary item, the best share
    ``weight / primary items`` among the options left in its list: every
    completion splits its score over the items exactly that way, so the sum is
    never below the truth.  Int weights are compared exactly: the shares are
    scaled by the least common multiple ``scale`` of the options' sizes, so they
    are whole numbers too, and the estimate is rounded down (scores are whole).
    Float weights are compared as the rounded floats they are.  With bounds on
    items (Algorithm M) there is no default estimate (every branch is explored).
    A node is cut when its score plus the estimate cannot beat the k-th best so
    far.
    """

    def __init__(self, links: Links, weights: Sequence[Number],
                 hook: Callable[[SearchState], Number] | None, k: int = 1) -> None:
        self.weights = weights
        self.hook = hook
        self.k = k
        self.found: list[tuple[Number, tuple[Hashable, ...]]] = []   # the best, best first
        self.scale, self.share = shares(links, weights)

    @property
    def threshold(self) -> Number | None:
        """The score to beat: the k-th best so far (None while fewer are known)."""
        return self.found[-1][0] if len(self.found) == self.k else None

    def offer(self, score: Number, labels: tuple[Hashable, ...]) -> bool:
        """Keep a solution if it is among the k best so far (ties: the first found)."""
        worst = self.threshold
        if worst is not None and not score > worst:
            return False
        at = len(self.found)
        while at and score > self.found[at - 1][0]:
            at -= 1
        self.found.insert(at, (score, labels))
        del self.found[self.k:]
        return True

    def optimistic(self, state: SearchState) -> Number | None:
        """An upper bound on what the uncovered items can still add (None: some item
        can't be covered any more); with int weights, a whole number (the sum adds
        whole numbers, so it can't add more than the bound rounded down)."""
        if self.hook is not None:
            room = self.hook(state)
            return room if self.scale == 0 else math.floor(room)
        t = state.links
        RL, D, share = t.RLINK, t.DLINK, self.share
        total: Number = 0
        j = RL[0]
        while j != 0:
            p = D[j]
            if p == j:
                return None
            top = share[p]
            p = D[p]
            while p != j:
                if share[p] > top:
                    top = share[p]
                p = D[p]
            total += top
            j = RL[j]
        return total if self.scale == 0 else total // self.scale

    def hopeless(self, score: Number, state: SearchState) -> bool:
        """True when no completion of this partial solution can beat the k-th best."""
        worst = self.threshold
        if worst is None or (state.links.multi and self.hook is None):
            return False
        room = self.optimistic(state)
        return room is None or not score + room > worst


def shares(links: Links, weights: Sequence[Number]) -> tuple[int, list[Number]]:
    """``(scale, share)``: per node, its option's weight divided by its number of
    primary items, times ``scale``; for int weights ``scale`` is the least common
    multiple of those numbers (every share a whole number), for floats 0 (the
    shares are the float quotients)."""
    TOP, n1 = links.TOP, links.N1
    sizes = [sum(1 for q in nodes if TOP[q] <= n1) for nodes in links.option_nodes]
    exact = not any(isinstance(w, float) for w in weights)
    scale = (math.lcm(*sizes) if sizes else 1) if exact else 0
    share: list[Number] = [0] * len(TOP)
    for o, nodes in enumerate(links.option_nodes):
        w = weights[o]
        value = w * (scale // sizes[o]) if exact else w / sizes[o]
        for q in nodes:
            share[q] = value
    return scale, share


class CacheFullWarning(UserWarning):
    """A counting cache reached its size limit and stores nothing more (the count goes
    on, right but slower)."""


class Memo:
    """The cache of counting by caching (Knuth's DLX6): the number of solutions below
    each partial solution, keyed by what is left to solve.

    What is left is fixed by the uncovered primary items, the uncovered secondary
    items and the colours given to them: those decide which options remain.  Two
    partial solutions that leave the same have as many completions, so the search
    below the second is skipped.

    A key is a 128-bit *signature* of what is left, not a list of it, so that every
    entry has the same small size whatever the depth (a list would cost O(items)
    per entry, and a deep search O(depth**2) in all).  Without bounds it is Zobrist's:
    the XOR of a random 128-bit number per uncovered item and per colour given,
    kept up to date by :class:`SignedDance` as items are covered and purified, so a
    key costs O(1).  Two different states share a signature with probability
    2**-128 per pair: below 2**-80 for any cache that fits in memory.  At most
    ``limit`` entries are kept (then a :class:`CacheFullWarning`, and no more are
    stored); each costs at most :data:`ENTRY_BYTES`.
    """

    def __init__(self, links: Links, limit: int) -> None:
        self.table: dict[int | bytes, int] = {}
        self.limit = limit
        self.full = False

    def dance(self, links: Links) -> Dance:
        """The dance of a search that uses this cache: one that keeps the signature."""
        return Dance(links) if links.multi else SignedDance(links)

    def key(self, dance: Dance) -> int | bytes:
        """What is left, as a signature: the uncovered items and the colours given to
        them (a purified item's header holds its colour, as in Knuth's DLX6: the colour
        decides which options remain even when none of its own are left).

        With bounds (Algorithm M, which DLX6 does not have), also how many more times
        each uncovered primary item may be covered, and which options are left:
        there the uncovered items do not decide them, since an option tried at a
        level leaves the lists of the options tried after it.  That key is read off
        the links and digested (BLAKE2b, 128 bits), so it costs O(what is left) time
        but still a fixed size."""
        if isinstance(dance, SignedDance):
            return dance.signature
        t = dance.links
        RL, COLOR, D, OPT, BOUND = t.RLINK, t.COLOR, t.DLINK, t.OPT, t.BOUND
        parts: list[int] = []
        options: set[int] = set()
        j = RL[0]
        while j != 0:
            parts += (j, BOUND[j])
            q = D[j]
            while q != j:
                options.add(OPT[q])
                q = D[q]
            j = RL[j]
        parts.append(-1)
        head = t.N + 1
        j = RL[head]
        while j != head:
            parts += (j, COLOR[j])
            j = RL[j]
        parts.append(-1)
        parts += sorted(options)
        return _digest(parts)

    def store(self, key: int | bytes, count: int) -> None:
        if len(self.table) < self.limit:
            self.table[key] = count
        elif not self.full:
            self.full = True
            import warnings

            warnings.warn(f"the counting cache is full ({self.limit:,} entries): the count"
                          " goes on without storing more (raise cache= to store more)",
                          CacheFullWarning, stacklevel=4)


#: The most memory one cache entry takes: a dict slot, a 128-bit key, a count.
ENTRY_BYTES = 200


def _digest(parts: list[int]) -> bytes:
    """A 128-bit digest of a list of ints (BLAKE2b)."""
    import hashlib
    from array import array

    return hashlib.blake2b(array("q", parts).tobytes(), digest_size=16).digest()


class SignedDance(Dance):
    """The dance steps, keeping Zobrist's signature of the uncovered items and the
    colours given to them (:class:`Memo`): ``signature`` is the XOR of ``ITEM[i]``
    for every item i in the item list and of ``hue(i, c)`` for every secondary item i
    purified with colour c.  Algorithm C only (with bounds, Memo reads the links)."""

    __slots__ = ("signature", "ITEM", "HUE", "rng")

    def __init__(self, links: Links) -> None:
        super().__init__(links)
        import random

        self.rng = random.Random(0x5EED)
        self.ITEM = [self.rng.getrandbits(128) for _ in range(links.N + 1)]
        self.HUE: dict[tuple[int, int], int] = {}
        self.signature = 0
        RL, head = links.RLINK, links.N + 1
        for first, end in ((RL[0], 0), (RL[head], head)):      # primary, then secondary
            i = first
            while i != end:
                self.signature ^= self.ITEM[i]
                i = RL[i]

    def hue(self, i: int, color: int) -> int:
        """The random number of item i purified with colour ``color``."""
        z = self.HUE.get((i, color))
        if z is None:
            z = self.HUE[i, color] = self.rng.getrandbits(128)
        return z

    def cover(self, i: int, color: int = 0) -> None:
        super().cover(i, color)
        if color == 0:
            self.signature ^= self.ITEM[i]          # i left the item list
        elif color > 0:
            self.signature ^= self.hue(i, color)    # i has a colour now

    def uncover(self, i: int, color: int = 0, relink: bool = True) -> None:
        super().uncover(i, color, relink)
        if color == 0:
            self.signature ^= self.ITEM[i]
        elif color > 0:
            self.signature ^= self.hue(i, color)


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
) -> Generator[Any, None, None]:
    """Search ``links`` (changing and then restoring them); yield as ``mode`` says.

    ``"solutions"`` yields a tuple of option labels per solution (in choice
    order), ``"count"`` yields 1 per solution (with a ``memo``, counting by
    caching, the number of solutions below each partial solution met again),
    ``"trace"`` yields an event (:mod:`dlx.events`) between every two steps, and
    ``"best"`` (with ``bb``, weights per option index, maximised) yields
    ``(score, labels)`` each
    time branch and bound finds one of the ``bb.k`` best so far (see :class:`Bound`,
    which keeps them).

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
    steps, after the links are restored.
    """
    if stats is None:
        stats = Stats()
    dance = Dance(links) if memo is None else memo.dance(links)
    t = links
    RL, D, TOP, COLOR, labels, OPT = t.RLINK, t.DLINK, t.TOP, t.COLOR, t.labels, t.OPT
    CYCLIC = t.cyclic_table()              # x -> others(t, x), for options not too long
    multi, BOUND, SLACK = t.multi, t.BOUND, t.SLACK     # Algorithm M when items have bounds
    choose = _chooser(heuristic, multi)
    tracing = mode == "trace"
    deadline = None if timeout is None else time.monotonic() + timeout
    # levels: each chooses an option (Algorithm M: or closes an item, the null choice)
    depth = min(sum(BOUND[1:t.N1 + 1]), len(labels)) + t.N1 if multi else t.N1
    x = [0] * (depth + len(forced) + 1)    # x[l]: the node of the option tried at level l
    first = [0] * len(x)                   # (M) first[l]: the first option tried at level l
    branches = [1] * len(x)                # branches[l]: the ways on from the item chosen at l
    memo_key: list[Any] = [None] * len(x)  # (memo) what was left when level l was entered
    memo_from = [0] * len(x)               # (memo) the solutions counted by then
    score: list[Any] = [0] * (len(x) + 1)  # (best) score[l]: total weight of x[0..l-1]
    profile = [0] * (len(x) + 1)           # profile[l]: nodes at level l
    state = SearchState(t, x)              # (best) what a bound hook sees
    nodes = updates0 = deepest = 0
    stats.nodes = stats.updates = stats.solutions = 0
    stats.profile = []
    stats.explored = 1.0            # until the search starts (a clash ends it at once)

    def sync() -> None:
        stats.nodes, stats.updates = nodes, dance.updates - updates0
        stats.profile = profile[:deepest + 1] if nodes else []

    # Where the search is, for a clean stop: levels 0..level-1 are committed; at
    # `level`, item i is covered while `holding`, and the first `committed` other
    # nodes of x[level] are committed.  `paused` is True only where a stop can be
    # undone exactly: at a yield, at the budget and time checks, and around calls
    # into user code.
    level = i = committed = 0
    holding = False
    paused = True

    # X1: initialise.  The links are laid out; place the forced options first.
    level, updates0, placed = _place_forced(dance, forced, choose, x, first, score, bb)
    if placed == "clash":
        return
    if placed == "dead end":
        # the root is a dead end (early failure): one node, nothing below
        nodes, deepest = 1, level + 1
        profile[deepest] = 1
        sync()
        return
    base = deepest = level
    nodes = profile[base] = 1
    stats.explored = 0.0
    paused = False
    try:
        while True:
            # X2: enter level `level`
            if RL[0] == 0:
                stats.solutions += 1
                paused = True
                found = _solution(mode, t, x, level, score, bb)
                if found is not None:
                    if mode != "count":
                        sync()
                    yield found
                paused = False
                dead = True
            elif memo is not None and (known := memo.table.get(key := memo.key(dance))) is not None:
                # counting by caching: what is left was met before, with `known` solutions
                if known:
                    stats.solutions += known
                    paused = True
                    yield known
                    paused = False
                dead = True
            else:
                if memo is not None:
                    memo_key[level], memo_from[level] = key, stats.solutions
                # X3: choose an item i (a primary item with no option left: a dead end;
                # with bounds, one whose branching degree is 0)
                paused = True
                if multi or not dance.empty:
                    i = choose(t)
                else:
                    i = _first_empty(t)
                if tracing:
                    yield Choose(level, t.item_names[i], t.LEN[i])
                dead = degree(t, i) <= 0 if multi else t.LEN[i] == 0
                if bb is not None and not dead:
                    state._level = level
                    dead = bb.hopeless(score[level], state)
                paused = False
                if not dead:
                    # X4: cover i (with bounds: one more choice for i, which is covered
                    # once its bound is used up, and otherwise tweaked option by option)
                    branches[level] = degree(t, i) if multi else t.LEN[i]
                    if multi:
                        BOUND[i] -= 1
                        if BOUND[i] == 0:
                            dance.cover(i)
                        first[level] = D[i]
                    else:
                        dance.cover(i)
                    holding = True
                    x[level] = D[i]
                    if tracing:
                        paused = True
                        yield Cover(level, t.item_names[i])
                        paused = False
            undo = False
            while True:
                if dead:
                    # X8: leave level `level`
                    if tracing:
                        paused = True
                        yield Backtrack(level)
                        paused = False
                    if memo is not None and memo_key[level] is not None:
                        memo.store(memo_key[level], stats.solutions - memo_from[level])
                        memo_key[level] = None
                    if level == base:
                        paused = True
                        stats.explored = 1.0
                        return
                    level -= 1
                    # X6: try again with the next option of the item chosen at this level
                    xl = x[level]
                    holding = True
                    if xl <= t.N:           # (M) after the null choice: i is active again
                        i = xl
                        dance.reactivate(i)
                        _restore_bounded(dance, i, first[level])
                        holding = False
                        if tracing:
                            paused = True
                            yield Uncover(level, t.item_names[i])
                            paused = False
                        dead = True
                        continue
                    i = TOP[xl]
                    rest = CYCLIC[xl] or others(t, xl)
                    committed, undo = len(rest), True
                if undo:
                    # X6 (also after an early failure in X5): uncommit the `committed`
                    # other nodes of x_l, right to left, and go on to the next option of i
                    for k in range(committed - 1, -1, -1):
                        q = rest[k]
                        if multi:
                            dance.uncommit(q)
                        else:
                            dance.uncover(TOP[q], COLOR[q])     # uncommit q (Algorithm C)
                        if tracing and COLOR[q] >= 0:
                            committed, paused = k, True
                            yield Uncover(level, t.item_names[TOP[q]], _color(t, q))
                            paused = False
                    committed = 0
                    x[level] = D[xl]
                    dead = undo = False
                xl = x[level]
                if multi and (BOUND[i] or SLACK[i]):
                    # (M) i is not covered: stop when it has too few options left for
                    # its bound; the null choice (xl == i) closes it, keeping what it has
                    if t.LEN[i] <= BOUND[i] - SLACK[i]:
                        xl = i
                        give_up = True
                    else:
                        give_up = False
                else:
                    give_up = xl == i
                if give_up:
                    # X7: backtrack: every option of i has been tried
                    if multi:
                        _restore_bounded(dance, i, first[level])
                    else:
                        dance.uncover(i)
                    holding = False
                    if tracing:
                        paused = True
                        yield Uncover(level, t.item_names[i])
                        paused = False
                    dead = True
                    continue
                # X5: try x_l
                if nodes == max_nodes:
                    paused = True
                    sync()
                    raise BudgetExceeded(max_nodes, None, stats,
                                         frontier=None if multi else
                                         _frontier(t, x, base, level, i))
                nodes += 1
                if nodes & (PROGRESS_EVERY - 1) == 0:
                    paused = True
                    sync()
                    stats.explored = _explored(t, x, first, branches, base, level)
                    try:
                        _check_point(stats, progress, deadline, timeout, t, x, base, level, i)
                    except BaseException:
                        nodes -= 1          # stopped before trying x_l after all
                        raise
                    paused = False
                profile[level + 1] += 1
                if level == deepest:
                    deepest += 1
                if tracing:
                    paused = True
                    yield Try(level, labels[OPT[xl]] if xl > t.N else None,
                              _rank(t, xl) if xl > t.N else t.LEN[i] + 1, t.LEN[i])
                    paused = False
                if multi and (BOUND[i] or SLACK[i]):
                    if xl != i:
                        dance.tweak(xl, BOUND[i] != 0)      # xl leaves i's list for good
                    elif BOUND[i]:
                        dance.deactivate(i)                 # the null choice: i is done
                if xl <= t.N:                               # (M) the null choice
                    if bb is not None:
                        score[level + 1] = score[level]     # it adds no option
                    level += 1
                    holding, committed = False, 0
                    break
                rest = CYCLIC[xl] or others(t, xl)
                for committed, q in enumerate(rest, 1):
                    if multi:
                        dance.commit(q)
                    else:
                        dance.cover(TOP[q], COLOR[q])       # commit q (Algorithm C)
                    if tracing and COLOR[q] >= 0:
                        paused = True
                        yield Cover(level, t.item_names[TOP[q]], _color(t, q))
                        paused = False
                    if not multi and dance.empty and dance.dead_end_beyond(rest, committed):
                        break
                else:
                    if bb is not None:
                        score[level + 1] = score[level] + bb.weights[OPT[xl]]
                    level += 1
                    holding, committed = False, 0
                    break
                undo = True         # early failure: X6 undoes the commits made so far
    finally:
        sync()
        if paused and multi:
            _unwind_bounded(dance, x, first, level, i if holding else 0, committed)
        elif paused:
            _unwind(dance, x, level, i if holding else 0, committed)


def _solution(mode: Mode, t: Links, x: list[int], level: int, score: list[Any],
              bb: Bound | None) -> Any:
    """What X2 yields for the solution x[0..level-1] in ``mode`` (None: nothing)."""
    if mode == "count":
        return 1
    sol = _labels(t.labels, t.OPT, x, level)
    if mode == "solutions":
        return sol
    if mode == "trace":
        return Solution(level, sol)
    assert bb is not None
    return (score[level], sol) if bb.offer(score[level], sol) else None


def _place_forced(dance: Dance, forced: Sequence[int], choose: Callable[[Links], int],
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
    TOP, COLOR, OPT, CYCLIC = t.TOP, t.COLOR, t.OPT, t.cyclic_table()
    level = 0
    if t.multi:
        # Algorithm M: each forced option is taken out of every list and counts once
        # against the bounds of its items (no frontier, so no root step to count)
        for f in forced:
            if not _available(t, f):
                _unwind_bounded(dance, x, first, level, 0, 0)
                return level, dance.updates, "clash"
            x[level] = f
            dance.tweak(f, True)
            for q in (f, *(CYCLIC[f] or others(t, f))):
                dance.commit(q)
            if bb is not None:
                score[level + 1] = score[level] + bb.weights[OPT[f]]
            level += 1
        return level, dance.updates, "placed"
    updates0 = dance.updates
    for k, f in enumerate(forced):
        if not _available(t, f):
            _unwind(dance, x, level, 0, 0)
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
            dance.cover(TOP[q], COLOR[q])
            if last and dance.empty and dance.dead_end_beyond(rest, done):
                _unwind(dance, x, level, TOP[f], done)
                return level, updates0, "dead end"
        if bb is not None:
            score[level + 1] = score[level] + bb.weights[OPT[f]]
        level += 1
    return level, updates0, "placed"


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
        raise BudgetExceeded(None, None, stats, timeout=timeout,
                             frontier=None if t.multi else _frontier(t, x, base, level, i))


def _frontier(t: Links, x: list[int], base: int, level: int, i: int) -> list[tuple[int, ...]]:
    """The subtrees a search stopped at X5 (about to try x[level], an option of item
    i) has not explored, in the order it would have: x[level] and the options after
    it in i's list, then those after x[level-1] in its item's list, and so on up to
    the root.  Each is the forced options (option indices) on the path to it."""
    D, OPT, TOP = t.DLINK, t.OPT, t.TOP
    path = [OPT[q] for q in x[:level]]
    pieces: list[tuple[int, ...]] = []
    for k in range(level, base - 1, -1):
        item = i if k == level else TOP[x[k]]
        q = x[k] if k == level else D[x[k]]
        while q != item:
            pieces.append((*path[:k], OPT[q]))
            q = D[q]
    return pieces


def _unwind(dance: Dance, x: list[int], level: int, held: int, committed: int) -> None:
    """Restore the links after a stop between two steps: undo the first ``committed``
    commits of x[level], uncover the item ``held`` at this level (0: none), then
    undo levels level-1 .. 0 (X6 and X7 for each)."""
    t = dance.links
    if committed:
        for q in reversed(others(t, x[level])[:committed]):
            dance.uncover(t.TOP[q], t.COLOR[q])
    if held:
        dance.uncover(held)
    for lev in range(level - 1, -1, -1):
        for q in reversed(others(t, x[lev])):
            dance.uncover(t.TOP[q], t.COLOR[q])
        dance.uncover(t.TOP[x[lev]])


def _restore_bounded(dance: Dance, i: int, first: int) -> None:
    """(M) X7 for item i: undo its cover, or put back the options tweaked out of its
    list since ``first``; then give the choice back to its bound."""
    t = dance.links
    if t.BOUND[i] == 0 and t.SLACK[i] == 0:
        dance.uncover(i)
    else:
        dance.untweak(i, first, t.BOUND[i] != 0)
        if t.BOUND[i] == 0:
            dance.uncover(i, relink=False)
    t.BOUND[i] += 1


def _unwind_bounded(dance: Dance, x: list[int], first: list[int], level: int, held: int,
                    committed: int) -> None:
    """(M) :func:`_unwind` with bounds: undo the first ``committed`` commits of
    x[level] and restore the item ``held`` at this level (0: none), then undo the
    levels below (X6 and X7 for each, or a null choice).  Forced levels (no item
    held) are put back as they were placed."""
    t = dance.links
    if committed:
        for q in reversed(others(t, x[level])[:committed]):
            dance.uncommit(q)
    if held:
        if t.BOUND[held] == 0 and t.SLACK[held]:
            dance.reactivate(held)
        elif t.BOUND[held] and x[level] == held and t.RLINK[t.LLINK[held]] != held:
            dance.reactivate(held)                      # stopped right after a null choice
        _restore_bounded(dance, held, first[level])
    for lev in range(level - 1, -1, -1):
        xl = x[lev]
        if first[lev] == 0:                             # a forced option
            for q in reversed((xl, *others(t, xl))):
                dance.uncommit(q)
            dance.untweak_option(xl)
            continue
        if xl <= t.N:
            i = xl
            dance.reactivate(i)
        else:
            i = t.TOP[xl]
            for q in reversed(others(t, xl)):
                dance.uncommit(q)
            if t.BOUND[i] == 0 and t.SLACK[i]:
                dance.reactivate(i)
        _restore_bounded(dance, i, first[lev])


def _available(t: Links, f: int) -> bool:
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


def _first_empty(t: Links) -> int:
    """The first uncovered primary item with no option left."""
    RL, LEN = t.RLINK, t.LEN
    j = RL[0]
    while LEN[j] != 0:
        j = RL[j]
    return j


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
