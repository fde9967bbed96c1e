"""Branch and bound for :func:`dlx.best`: the k best so far and the default optimistic bound.

:class:`Bound` keeps the ``k`` best solutions the search has met and says when a
partial solution cannot beat the k-th of them (:meth:`Bound.hopeless`);
:class:`SearchState` is what a user's ``bound`` hook sees of a paused search.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from typing import TypeAlias

from .errors import ExactCoverError, shown
from .links import Links


def checked_weight(get: Callable[[Hashable], object], label: Hashable) -> Number:
    """The weight ``get(label)`` of one option, as :func:`dlx.best` takes it: an int, a
    Fraction or a finite float (not a bool); ExactCoverError naming the option when
    ``get`` fails or gives anything else."""
    try:
        w = get(label)
    except Exception as e:  # noqa: BLE001 - report the label whose weight failed
        raise ExactCoverError(
            f"weight of option {shown(label)} could not be computed: {e}") from e
    if isinstance(w, bool) or not isinstance(w, (int, float, Fraction)) or (
            isinstance(w, float) and not math.isfinite(w)):
        raise ExactCoverError(
            f"weight of option {shown(label)} is {shown(w)}, not a finite number")
    return w

__all__ = ["Bound", "SearchState", "Number", "shares", "option_shares"]


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
    scale, per_option = option_shares(links, weights)
    share: list[Number] = [0] * len(links.TOP)
    for nodes, value in zip(links.option_nodes, per_option, strict=True):
        for q in nodes:
            share[q] = value
    return scale, share


def option_shares(links: Links, weights: Sequence[Number]) -> tuple[int, list[Number]]:
    """``(scale, share)`` as :func:`shares` gives them, one share per option (what each
    of its nodes gets): the core's branch and bound reads these, and they are made
    without laying the problem out in Python (:meth:`~dlx.links.Links.primary_sizes`)."""
    sizes = links.primary_sizes()
    exact = not any(isinstance(w, float) for w in weights)
    scale = (math.lcm(*set(sizes)) if sizes else 1) if exact else 0
    if exact:
        return scale, [w * (scale // size) for w, size in zip(weights, sizes, strict=True)]
    return scale, [w / size for w, size in zip(weights, sizes, strict=True)]
