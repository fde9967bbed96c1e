"""The dance steps of the pure engine, each written once under Knuth's name (TAOCP 7.2.2.1).

:class:`Dance` holds them: ``hide``/``unhide`` an option (7.2.2.1-(13), (15)),
``cover``/``uncover`` an item ((12), (14)), ``purify``/``unpurify`` a secondary
item and ``commit``/``uncommit`` a node (Algorithm C), and for bounds on items
(Algorithm M, Knuth's DLX3) ``commit_bounded``/``uncommit_bounded`` and
``tweak``/``untweak``/``restore_bounded``.  The choosers of step X3 (M3) are here too: minimum
remaining values (:func:`choose_mrv`), the first item, Algorithm M's branching
degree (:func:`choose_bounded`), dlx2-sharp's (:func:`choose_sharp`), SSXCC's and
SSMCC's weighted choice (:class:`Weighted`, :class:`WeightedBounded`) and minimum
remaining values with ties drawn at random (:class:`RandomTies`, :class:`RandomTiesBounded`);
:mod:`dlx.rules` names them.  The compiled core has the same steps and choosers
under the same names in ``dlx/_core/dance.h`` (the choosers in ``choose.h``).  The
loop that calls them is :mod:`dlx.search`.

>>> from dlx.problem import ExactCover
>>> from dlx.links import Links
>>> links = Links.build(ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]}))
>>> dance = Dance(links)
>>> dance.cover(1); links.active_items(), dance.updates      # a out: x and xy hidden
([2], 2)
>>> dance.uncover(1); links.active_items()
[1, 2]
"""

from __future__ import annotations

from collections.abc import Sequence

from .links import Links

__all__ = ["Dance", "others", "choose_mrv", "choose_first", "choose_bounded", "choose_sharp",
           "choose_bounded_sharp", "Weighted", "WeightedBounded", "RandomTies",
           "RandomTiesBounded", "Rand", "degree", "first_empty", "LOOKAHEAD"]

#: The early-failure test of X5 looks at most this many nodes ahead (so that an option
#: of many items costs linear, not quadratic, time); the C core uses the same number.
LOOKAHEAD = 64


class Dance:
    """The dance steps on one search's links, and the counters they keep.

    Each step is written once, under Knuth's name (TAOCP 7.2.2.1): ``hide`` and
    ``unhide`` an option, ``cover`` and ``uncover`` an item, ``purify`` and
    ``unpurify`` a secondary item, ``commit`` and ``uncommit`` a node (Algorithm
    C); with bounds (Algorithm M), ``commit_bounded``, ``uncommit_bounded``,
    ``tweak`` and ``untweak``.  The C core (``dlx/_core/dance.h``) has the same
    steps under the same names.

    The attributes are the links' lists under Knuth's names (the same list
    objects: the steps change ``links`` in place), plus the tables of each
    node's other nodes in primary and in secondary items
    (:meth:`~dlx.links.Links.others_table`).  ``updates`` counts Knuth's
    updates (a node taken out of an item's list, or an item out of the item
    list); ``empty`` counts the uncovered primary items whose list is empty
    (early failure reads it).  Only primary items keep their lengths up to date:
    no heuristic looks at a secondary item's.
    """

    __slots__ = ("links", "LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP", "COLOR",
                 "OTHERS", "BOUND", "SLACK", "N1", "updates", "empty")

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

    def hide(self, p: int) -> None:
        """Hide the option of node p (7.2.2.1-(13), Algorithm C's hide'): take p's
        other nodes out of their items' lists, leaving purified nodes alone (only
        secondary items are ever purified)."""
        U, D, LEN, TOP, COLOR = self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR
        primary, secondary, n = self.OTHERS[p] or self.links.split_others(p)
        for q in primary:
            u, d = U[q], D[q]
            D[u] = d
            U[d] = u
            j = TOP[q]
            LEN[j] -= 1
            if LEN[j] == 0:
                self.empty += 1
        for q in secondary:
            if COLOR[q] >= 0:
                u, d = U[q], D[q]
                D[u] = d
                U[d] = u
            else:                                   # purified: left alone, no update
                n -= 1
        self.updates += n

    def unhide(self, p: int) -> None:
        """Undo hide(p) (7.2.2.1-(15))."""
        U, D, LEN, TOP, COLOR = self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR
        primary, secondary, _ = self.OTHERS[p] or self.links.split_others(p)
        for q in primary:
            D[U[q]] = q
            U[D[q]] = q
            j = TOP[q]
            if LEN[j] == 0:
                self.empty -= 1
            LEN[j] += 1
        for q in secondary:
            if COLOR[q] >= 0:
                D[U[q]] = q
                U[D[q]] = q

    def cover(self, i: int) -> None:
        """Cover item i (7.2.2.1-(12)): hide every option in its list, top to bottom,
        then take i out of the item list.

        The hides are :meth:`hide` written out: this loop is where the pure engine
        spends its time, and a call per option cost a fifth of it."""
        U, D, LEN, TOP, COLOR, OTHERS = (self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR,
                                         self.OTHERS)
        updates, emptied = 1, 0
        p = D[i]
        while p != i:
            primary, secondary, n = OTHERS[p] or self.links.split_others(p)    # hide(p)
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
                else:
                    updates -= 1
            p = D[p]
        left_item, right_item = self.LLINK[i], self.RLINK[i]               # deactivate(i)
        self.RLINK[left_item] = right_item
        self.LLINK[right_item] = left_item
        if LEN[i] == 0 and i <= self.N1:
            emptied -= 1
        self.empty += emptied
        self.updates += updates

    def uncover(self, i: int, relink: bool = True) -> None:
        """Undo cover(i) (7.2.2.1-(14)): put i back in the item list, then unhide its
        options from the bottom up (:meth:`unhide` written out, as in cover).  With
        ``relink`` False, i stays out of the item list (Algorithm M puts it back
        itself)."""
        U, D, LEN, TOP, COLOR, OTHERS = (self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR,
                                         self.OTHERS)
        refilled = 0
        if relink:
            self.RLINK[self.LLINK[i]] = i                                   # reactivate(i)
            self.LLINK[self.RLINK[i]] = i
            if LEN[i] == 0 and i <= self.N1:
                refilled -= 1
        p = U[i]
        while p != i:
            primary, secondary, _ = OTHERS[p] or self.links.split_others(p)  # unhide(p)
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
        self.empty -= refilled

    def purify(self, p: int) -> None:
        """Purify the item of node p, which gives it colour c (Algorithm C): hide the
        options that give it another colour, mark those that agree as purified
        (COLOR -1), and record c in the item's header (COLOR[i], as Knuth does); the
        item stays in the item list."""
        D, COLOR = self.DLINK, self.COLOR
        i, c = self.TOP[p], COLOR[p]
        q = D[i]
        while q != i:
            if COLOR[q] == c:
                COLOR[q] = -1
            else:
                self.hide(q)
            q = D[q]
        COLOR[i] = c

    def unpurify(self, p: int) -> None:
        """Undo purify(p), bottom up."""
        U, COLOR = self.ULINK, self.COLOR
        i = self.TOP[p]
        c = COLOR[i]
        COLOR[i] = 0
        q = U[i]
        while q != i:
            if COLOR[q] < 0:
                COLOR[q] = c
            else:
                self.unhide(q)
            q = U[q]

    def commit(self, q: int) -> None:
        """Algorithm C's commit of node q: cover its item when q has no colour, purify
        it when it has one; a node already purified (COLOR -1) needs nothing."""
        c = self.COLOR[q]
        if c == 0:
            self.cover(self.TOP[q])
        elif c > 0:
            self.purify(q)

    def uncommit(self, q: int) -> None:
        """Undo commit(q)."""
        c = self.COLOR[q]
        if c == 0:
            self.uncover(self.TOP[q])
        elif c > 0:
            self.unpurify(q)

    def start_at(self, i: int, q: int) -> None:
        """Make node q the first option of item i's list, keeping the list's cyclic
        order: the header moves to sit above q (a random rule's first option to try,
        :meth:`RandomTies.turn`).  Nothing leaves a list: no update.  ``start_at(i,
        old first)`` undoes it; while i is covered nothing else changes its list."""
        U, D = self.ULINK, self.DLINK
        if D[i] == q:
            return
        U[D[i]] = U[i]                  # the header out of the circle
        D[U[i]] = D[i]
        above = U[q]                    # and back in, above q
        U[i], D[i] = above, q
        D[above] = i
        U[q] = i

    def deactivate(self, i: int) -> None:
        """Take item i out of the item list (it needs no more options)."""
        left, right = self.LLINK[i], self.RLINK[i]
        self.RLINK[left] = right
        self.LLINK[right] = left

    def reactivate(self, i: int) -> None:
        """Undo deactivate(i)."""
        self.RLINK[self.LLINK[i]] = i
        self.LLINK[self.RLINK[i]] = i

    # -- Algorithm M: bounds on primary items (TAOCP 7.2.2.1, Knuth's DLX3) ------

    def commit_bounded(self, q: int) -> None:
        """Algorithm M's commit of node q: a primary item may be covered BOUND more
        times (cover it when that reaches 0); a secondary item as Algorithm C."""
        i = self.TOP[q]
        if i <= self.N1:
            self.BOUND[i] -= 1
            if self.BOUND[i] == 0:
                self.cover(i)
        else:
            self.commit(q)

    def uncommit_bounded(self, q: int) -> None:
        """Undo commit_bounded(q)."""
        i = self.TOP[q]
        if i <= self.N1:
            if self.BOUND[i] == 0:
                self.uncover(i)
            self.BOUND[i] += 1
        else:
            self.uncommit(q)

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

    def restore_bounded(self, i: int, first: int) -> None:
        """M8, restore i: undo its cover, or put back the options tweaked out of its
        list since ``first``; then give the choice back to its bound."""
        if self.BOUND[i] == 0 and self.SLACK[i] == 0:
            self.uncover(i)
        else:
            self.untweak(i, first, self.BOUND[i] != 0)
            if self.BOUND[i] == 0:
                self.uncover(i, relink=False)
        self.BOUND[i] += 1

    def dead_end_beyond(self, rest: Sequence[int], start: int) -> bool:
        """Early failure: True when some uncovered primary item with no option left is
        not the item of a node in ``rest[start:]`` (the nodes of x_l still to
        commit), so x_l cannot lead to a solution.  Looks at most ``LOOKAHEAD``
        nodes ahead."""
        if self.empty == 0 or len(rest) - start > LOOKAHEAD:
            return False
        TOP, LEN, n1 = self.TOP, self.LEN, self.N1
        empty_ahead = 0
        for q in rest[start:]:
            if TOP[q] <= n1 and LEN[TOP[q]] == 0:
                empty_ahead += 1
        return self.empty > empty_ahead


def others(links: Links, x: int) -> tuple[int, ...]:
    """The other nodes of x's option in Knuth's cyclic order: x+1, ..., then from
    the option's first node up to x-1 (kept in ``links.cyclic_table()`` for the
    next time, when the option is short)."""
    return links.cyclic(x)



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


#: Added to the key of an item that is not sharp (:func:`choose_sharp`): more than any LEN.
_UNSHARP = 1 << 40


def choose_sharp(links: Links) -> int:
    """Knuth's dlx2-sharp: minimum remaining values among the *sharp* items (named
    ``#...``: :meth:`~dlx.links.Links.sharp`), where an item that is not sharp wins
    only with at most one option left; the first on ties.  (Called when no
    uncovered primary item is empty, as :func:`choose_mrv`.)"""
    RL, LEN, SHARP = links.RLINK, links.LEN, links.sharp()
    best = key = 0
    j = RL[0]
    while j != 0:
        n = LEN[j]
        this = n if n <= 1 or SHARP[j] else n + _UNSHARP
        if best == 0 or this < key:
            best, key = j, this
            if key <= 1:
                break                   # nothing shorter can come
        j = RL[j]
    return best


def choose_bounded_sharp(links: Links) -> int:
    """:func:`choose_bounded` with dlx3-sharp's preference: the degree of an item that
    is not sharp counts as more than any other unless it is at most 1."""
    RL, LEN, BOUND, SLACK, SHARP = links.RLINK, links.LEN, links.BOUND, links.SLACK, links.sharp()
    best, key = 0, (0, 0, 0)
    j = RL[0]
    while j != 0:
        s = min(SLACK[j], BOUND[j])
        t = LEN[j] + s - BOUND[j] + 1
        this = (t if t <= 1 or SHARP[j] else t + _UNSHARP, s, -LEN[j])
        if best == 0 or this < key:
            best, key = j, this
        j = RL[j]
    return best


class Weighted:
    """The weighted choice of Knuth's SSXCC variant (after Boussemart, Hemery,
    Lecoutre and Sais's dom/wdeg): each primary item has a weight, 1 at first, that
    grows by 1 each time its list runs dry (:meth:`ran_dry`, called by the loop at
    a dead end); choose the first item with one option left, else the item of
    smallest LEN / weight, the first on ties.  Weights are exact (compared as
    LEN x weight products).  One per search: its weights are the search's memory."""

    __slots__ = ("weight",)

    def __init__(self, links: Links) -> None:
        self.weight = [1] * (links.N1 + 1)

    def __call__(self, links: Links) -> int:
        RL, LEN, w = links.RLINK, links.LEN, self.weight
        best = n_best = 0
        j = RL[0]
        while j != 0:
            n = LEN[j]
            if n <= 1:
                return j                # forced
            if best == 0 or n * w[best] < n_best * w[j]:
                best, n_best = j, n
            j = RL[j]
        return best

    def ran_dry(self, links: Links) -> None:
        """A dead end: the first uncovered primary item with no option left gains weight."""
        self.weight[first_empty(links)] += 1


class WeightedBounded(Weighted):
    """The weighted choice under bounds, as Knuth's SSMCC-WTD makes it: the score of an
    item is its branching degree d (:func:`degree`) divided by its weight; the first
    item of degree 1 is forced (taken at once); else the item of least d / weight,
    ties to the smaller ``s = min(SLACK, BOUND)``, then the longer list, then the
    first (Algorithm M's tie-breaks, :func:`choose_bounded`).  An item of degree 0 or
    less is a dead end: the first one is chosen, and gains weight
    (:meth:`ran_dry`).  Scores are compared exactly, as products."""

    __slots__ = ()

    def __call__(self, links: Links) -> int:
        RL, LEN, BOUND, SLACK, w = links.RLINK, links.LEN, links.BOUND, links.SLACK, self.weight
        best = forced = best_d = best_s = best_len = 0
        j = RL[0]
        while j != 0:
            n, b = LEN[j], BOUND[j]
            s = min(SLACK[j], b)
            d = n + s - b + 1
            if d <= 0:
                return j                # a dead end, whatever else is forced
            if d == 1:
                if forced == 0:
                    forced = j
            elif forced == 0 and (best == 0 or d * w[best] < best_d * w[j] or (
                    d * w[best] == best_d * w[j]
                    and (s < best_s or s == best_s and n > best_len))):
                best, best_d, best_s, best_len = j, d, s, n
            j = RL[j]
        return forced or best

    def ran_dry(self, links: Links) -> None:
        """A dead end: the first uncovered primary item of degree 0 or less (the one
        chosen) gains weight."""
        j = links.RLINK[0]
        while degree(links, j) > 0:
            j = links.RLINK[j]
        self.weight[j] += 1


_MASK = (1 << 64) - 1


class Rand:
    """splitmix64 (Steele, Lea and Flood): the random numbers of the pure engine, the
    same in the core (``dlx/_core/choose.h``), so that a seed draws the same numbers
    on both (:class:`RandomTies`, :func:`dlx.estimate`).

    >>> r = Rand(1)
    >>> [r.below(10) for _ in range(8)]
    [5, 9, 0, 5, 1, 8, 5, 3]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform whole number in 0..n-1 (draws below 2**64 mod n are rejected: no
        bias)."""
        low = (1 << 64) % n
        while True:
            z = self.next()
            if z >= low:
                return z % n


class RandomTies:
    """Minimum remaining values with ties drawn at random: among the uncovered primary
    items of shortest list, the k-th in the item list, k drawn uniformly by
    :class:`Rand` from ``seed`` (Knuth's SSXCC randomises its choice so); an item
    with one option left is taken at once, as :func:`choose_mrv` takes it, with no
    draw.  Called when no uncovered primary item is empty.  Its options are tried
    from one drawn at random (:meth:`turn`; without bounds), so that runs from
    different seeds differ in the options they try as well as in the items.  One
    per search: its random numbers are the search's; the core draws the same ones."""

    __slots__ = ("rng",)

    def __init__(self, links: Links, seed: int) -> None:
        self.rng = Rand(seed)

    def __call__(self, links: Links) -> int:
        RL, LEN = links.RLINK, links.LEN
        best = RL[0]
        shortest, ties = LEN[best], 1
        j = RL[best]
        while j != 0 and shortest > 1:
            n = LEN[j]
            if n < shortest:
                best, shortest, ties = j, n, 1
            elif n == shortest:
                ties += 1
            j = RL[j]
        if shortest <= 1 or ties == 1:
            return best
        k = self.rng.below(ties)
        j = best                        # the k-th tie from the first one on
        while LEN[j] != shortest or k > 0:
            if LEN[j] == shortest:
                k -= 1
            j = RL[j]
        return j

    def turn(self, links: Links, i: int) -> int:
        """X4: the option of item i to try first, drawn at random (its list is then
        tried cyclically from there: :meth:`Dance.start_at`); no draw when it has one."""
        D, n = links.DLINK, links.LEN[i]
        x = D[i]
        for _ in range(self.rng.below(n) if n > 1 else 0):
            x = D[x]
        return x


class RandomTiesBounded(RandomTies):
    """:class:`RandomTies` under bounds: Algorithm M's choice (:func:`choose_bounded`),
    its ties (the same degree, ``s`` and length) drawn at random.  An item of degree
    0 or less is a dead end: the first one is chosen, with no draw."""

    __slots__ = ()

    def __call__(self, links: Links) -> int:
        RL, LEN, BOUND, SLACK = links.RLINK, links.LEN, links.BOUND, links.SLACK
        best, key, ties = 0, (0, 0, 0), 0
        j = RL[0]
        while j != 0:
            s = min(SLACK[j], BOUND[j])
            this = (LEN[j] + s - BOUND[j] + 1, s, -LEN[j])
            if this[0] <= 0:
                return j                # a dead end
            if best == 0 or this < key:
                best, key, ties = j, this, 1
            elif this == key:
                ties += 1
            j = RL[j]
        if ties <= 1:
            return best
        k = self.rng.below(ties)
        j = best
        while True:
            s = min(SLACK[j], BOUND[j])
            if (LEN[j] + s - BOUND[j] + 1, s, -LEN[j]) == key:
                if k == 0:
                    return j
                k -= 1
            j = RL[j]


def degree(links: Links, i: int) -> int:
    """The branching degree of item i (see :func:`choose_bounded`)."""
    s = min(links.SLACK[i], links.BOUND[i])
    return links.LEN[i] + s - links.BOUND[i] + 1


def first_empty(t: Links) -> int:
    """The first uncovered primary item with no option left."""
    RL, LEN = t.RLINK, t.LEN
    j = RL[0]
    while LEN[j] != 0:
        j = RL[j]
    return j
