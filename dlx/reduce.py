"""Preprocessing: take out the options and items that no solution needs (Knuth's DLX-PRE).

:func:`reduce` returns a smaller problem with exactly the same solutions: the same
sets of option labels.  Options that can be in no solution go; so do items whose
constraint the other items already enforce.  The options that stay keep their
labels, their costs and the order of their items (less the items taken out), so a
solution of the reduced problem *is* a solution of the original, as it stands.

Two options *clash* when they can't both be in a solution: they share an item that
takes one option only (a secondary item, or a primary item covered at most once)
and don't give it the same colour.  Every rule below keeps this relation as it was,
and each keeps every solution:

1. **No primary item.**  An option without a primary item is never chosen (the
   search reaches options through their primary items), so it goes.
2. **Blocked option** (DLX-PRE's main rule).  If a primary item ``p`` must be
   covered at least ``u`` times and fewer than ``u`` options of ``p`` are compatible
   with option ``r`` (counting ``r`` itself once when it holds ``p``), then choosing
   ``r`` leaves ``p`` short: ``r`` is in no solution, and goes.  With ``u = 1`` and
   ``p`` not in ``r``: ``r`` clashes with every option of ``p``.  This covers
   forcing: an item with one option keeps it, and everything that clashes with it
   goes.
3. **Implied item** (DLX-PRE's other rule).  If every option of a primary item
   ``p`` (covered exactly once) holds item ``c`` without a colour, and ``c`` takes one
   option only, then the option that covers ``p`` covers ``c`` too: the options with
   ``c`` but not ``p`` clash with it and go (rule 2 says so too), and ``c``, now
   covered exactly when ``p`` is, goes from the options that remain.
4. **Redundant secondary item** (stronger than DLX-PRE).  A secondary item in at
   most one option, or one that all of its options give the same colour, never
   stops two options from going together; nor does one whose options all hold
   another one-option item ``q`` without a colour (any two of them clash at ``q``
   already).  It goes from its options.
5. **Slack primary item** (stronger than DLX-PRE, for bounds).  A primary item that
   may be left uncovered (``u = 0``) and can't be covered too often (no more than
   ``v`` options hold it, or ``v = 1`` and its options clash pairwise as in rule 4)
   constrains nothing: it goes from its options, if each of them keeps another
   primary item.
6. **Empty item.**  An item in no option goes; but a primary item that must be
   covered ``u`` times and is in fewer than ``u`` options means there is no solution:
   every option goes, and every item but that one.

The rules run to a fixed point: an item is looked at again whenever it loses an
option, the only change that can make a rule apply anew.  What they never do is
merge or drop options that *could* be chosen: two options with the same items are
two different solutions, so both stay; and an option that must be chosen stays,
with its label.

Every option that DLX-PRE removes goes here too, and more may: rule 2 tries every
option against every clash, where DLX-PRE never tries an option whose first item has
a colour (its documentation says so) and, when that first item is secondary, misses
the options that colour it; rules 4 and 5 are new.  Where an item is implied by
another that implies it back, either may be the one to go.

Knuth's toy problem (TAOCP 7.2.2.1) shrinks to its solution:

>>> import dlx
>>> toy = dlx.ExactCover({"ce": ["c", "e"], "adg": ["a", "d", "g"], "bcf": ["b", "c", "f"],
...                       "adf": ["a", "d", "f"], "bg": ["b", "g"], "deg": ["d", "e", "g"]})
>>> r = dlx.reduce(toy)
>>> print(r)
removed 3 options and 4 items
>>> r.problem.options
{'ce': ('e',), 'adf': ('f',), 'bg': ('b',)}
>>> r.removed_options, r.removed_items
(['adg', 'bcf', 'deg'], ['c', 'a', 'd', 'g'])
>>> sorted(dlx.first(r.problem))
['adf', 'bg', 'ce']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Iterator
from typing import NamedTuple

from .problem import Colored, ExactCover

__all__ = ["Reduced", "reduce"]


class Reduced(NamedTuple):
    """What :func:`reduce` made of a problem.

    ``problem`` has the same solutions as the original, with the same labels;
    ``removed_options`` are the labels of the options taken out (in the original
    order), ``removed_items`` the items (primary first, then secondary).
    """

    problem: ExactCover
    removed_options: list[Hashable]
    removed_items: list[Hashable]

    def __str__(self) -> str:
        n, m = len(self.removed_options), len(self.removed_items)
        return (f"removed {n:,} option{'' if n == 1 else 's'} and {m:,}"
                f" item{'' if m == 1 else 's'}")


def reduce(problem: ExactCover) -> Reduced:
    """Take out of ``problem`` the options and items that no solution needs.

    The rules (see the module's documentation) are Knuth's DLX-PRE's, made exact
    under colours and bounds, and some stronger ones; they run until none applies.

    Parameters
    ----------
    problem : ExactCover
        Any problem: colours, bounds and costs are kept.

    Returns
    -------
    Reduced
        ``.problem``, an :class:`~dlx.ExactCover` whose solutions are exactly those of
        ``problem`` (the same label sets), and ``.removed_options`` and
        ``.removed_items``.

    Examples
    --------
    Option ``bc`` clashes with both options of item ``a``, so it goes.  That leaves
    item ``c`` one option, ``ac``; option ``ab`` clashes with it and goes; and item
    ``a``, now always covered with ``c``, goes too:

    >>> import dlx
    >>> p = dlx.ExactCover({"ab": ["a", "b"], "ac": ["a", "c"], "bc": ["b", "c"], "b": ["b"]})
    >>> r = dlx.reduce(p)
    >>> r.problem.options, r.removed_options, r.removed_items
    ({'ac': ('c',), 'b': ('b',)}, ['ab', 'bc'], ['a'])
    >>> sorted(dlx.first(r.problem)), dlx.count(r.problem), dlx.count(p)
    (['ac', 'b'], 1, 1)
    """
    work = _Reduction(problem)
    work.run()
    return work.result()


def _bitset(members: Iterable[int], size: int) -> int:
    """The int whose bits ``members`` are set (built in one go: no quadratic shifting)."""
    bits = bytearray((size >> 3) + 1)
    for k in members:
        bits[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(bits, "little")


def _members_of(bits: int) -> Iterator[int]:
    """The positions of the bits set in ``bits``, lowest first."""
    text = bin(bits)[:1:-1]           # bit 0 first
    k = text.find("1")
    while k >= 0:
        yield k
        k = text.find("1", k + 1)


class _Reduction:
    """The problem being reduced: options and items by number, and who holds what.

    Option ``o`` holds ``rows[o]`` (item -> its colour, None without one) while it is
    alive; ``holders[i]`` is the set of living options that hold item ``i``.  The
    bitsets ``mask[i]`` (options that ever held ``i``) and ``tint[i, colour]`` are
    never updated: every use intersects them with ``live``, and an item taken out of
    its options never mattered to the clash relation anyway (see the module's
    documentation).  Rule 2 is then a few big-integer ANDs per option of an item (a
    32,000-option problem reduces in well under a second); the price is one bit per
    option per item.
    """

    def __init__(self, problem: ExactCover) -> None:
        self.problem = problem
        self.labels = list(problem.options)
        self.items = problem.primary + problem.secondary
        self.n_primary = n_primary = len(problem.primary)
        index = {item: k for k, item in enumerate(self.items)}
        self.lower = [problem.bound(i)[0] for i in problem.primary] + [0] * len(problem.secondary)
        upper = [problem.bound(i)[1] for i in problem.primary] + [1] * len(problem.secondary)
        self.upper = upper
        # single[i]: two options that hold item i clash there (unless they agree on a colour)
        self.single = [v == 1 for v in upper]
        self.rows: list[dict[int, Hashable | None]] = []
        self.holders: list[set[int]] = [set() for _ in self.items]
        hues: dict[tuple[int, Hashable], list[int]] = {}
        for o, label in enumerate(self.labels):
            row: dict[int, Hashable | None] = {}
            for entry in problem.options[label]:
                if isinstance(entry, Colored):
                    i = index[entry.item]
                    row[i] = entry.color
                    hues.setdefault((i, entry.color), []).append(o)
                else:
                    row[index[entry]] = None
            self.rows.append(row)
            for i in row:
                self.holders[i].add(o)
        n = len(self.labels)
        self.mask = [_bitset(h, n) for h in self.holders]
        self.tint = {key: _bitset(h, n) for key, h in hues.items()}
        self.alive = [True] * n
        self.live = (1 << n) - 1
        self.gone = [False] * len(self.items)     # taken out of every option
        self.stuck: int | None = None             # a primary item that can't be covered
        self.queue: deque[int] = deque()
        self.queued = [False] * len(self.items)
        # rule 1: no primary item
        self.remove([o for o, row in enumerate(self.rows) if not any(i < n_primary for i in row)])
        for i in range(len(self.items)):
            self.touch(i)

    # -- the changes -----------------------------------------------------------------

    def touch(self, i: int) -> None:
        """Look at item ``i`` again: its options changed."""
        if not self.queued[i] and not self.gone[i]:
            self.queued[i] = True
            self.queue.append(i)

    def remove(self, options: list[int]) -> None:
        """Take out options (rules 1 to 3), noting any primary item left short (rule 6)."""
        if not options:
            return
        self.live &= ~_bitset(options, len(self.labels))
        for o in options:
            self.alive[o] = False
            for i in self.rows[o]:
                held = self.holders[i]
                held.discard(o)
                if len(held) < self.lower[i] and self.stuck is None:
                    self.stuck = i
                self.touch(i)

    def drop(self, i: int) -> None:
        """Take item ``i`` out of every option (rules 3 to 6)."""
        for o in self.holders[i]:
            del self.rows[o][i]
        self.holders[i] = set()
        self.gone[i] = True

    # -- the rules ---------------------------------------------------------------------

    def clashes(self, o: int) -> int:
        """The options that clash with option ``o`` (and maybe ``o`` itself), as bits."""
        out = 0
        for i, colour in self.rows[o].items():
            if self.single[i]:
                out |= self.mask[i] if colour is None else self.mask[i] ^ self.tint[i, colour]
        return out

    def blocked(self, p: int) -> int:
        """Rule 2: the living options that leave primary item ``p`` short, as bits."""
        u, live = self.lower[p], self.live
        outside = live & ~self.mask[p]
        if u == 1:                    # DLX-PRE's case: r clashes with every option of p
            for o in self.holders[p]:
                outside &= self.clashes(o)
                if not outside:
                    break
            return outside
        # at_least[j]: the options compatible with at least j of p's options so far
        inside = live & self.mask[p]
        at_least = [live] + [0] * u
        for o in self.holders[p]:
            fits = live & ~(self.clashes(o) | 1 << o)
            for j in range(u, 0, -1):
                at_least[j] |= at_least[j - 1] & fits
            if not (outside & ~at_least[u] or inside & ~at_least[u - 1]):
                return 0
        return outside & ~at_least[u] | inside & ~at_least[u - 1]

    def pinned(self, options: Iterable[int], not_this: int) -> set[int]:
        """The one-option items other than ``not_this`` that every one of ``options``
        holds without a colour."""
        common: set[int] | None = None
        for o in options:
            here = {i for i, colour in self.rows[o].items()
                    if colour is None and self.single[i] and i != not_this}
            common = here if common is None else common & here
            if not common:
                return set()
        return common or set()

    def implied(self, p: int) -> None:
        """Rule 3: take out the items that every option of ``p`` holds."""
        for c in sorted(self.pinned(self.holders[p], p)):
            self.remove(sorted(self.holders[c] - self.holders[p]))
            self.drop(c)

    def redundant(self, i: int) -> bool:
        """Rules 4 and 5: item ``i`` never stops two options from going together."""
        held = self.holders[i]
        if len(held) <= self.upper[i]:
            return True
        if self.upper[i] > 1:
            return False
        colours = {self.rows[o][i] for o in held}
        if len(colours) == 1 and None not in colours:
            return True
        return bool(self.pinned(held, i))

    def look(self, i: int) -> None:
        """Apply every rule that item ``i`` is the key of."""
        held = self.holders[i]
        if not held:
            if self.lower[i] == 0:
                self.gone[i] = True       # rule 6 (a primary one short is stuck already)
            return
        if i >= self.n_primary:
            if self.redundant(i):
                self.drop(i)              # rule 4
            return
        u = self.lower[i]
        if u == 0:
            if self.redundant(i) and all(
                    any(k < self.n_primary and k != i for k in self.rows[o]) for o in held):
                self.drop(i)              # rule 5
            return
        blocked = self.blocked(i)
        if blocked:
            self.remove(list(_members_of(blocked)))       # rule 2
        if self.stuck is None and (u, self.upper[i]) == (1, 1):
            self.implied(i)               # rule 3

    def run(self) -> None:
        """Apply the rules until none applies (or no solution is left)."""
        for i, held in enumerate(self.holders):
            if len(held) < self.lower[i]:
                self.stuck = i
                break
        while self.queue and self.stuck is None:
            i = self.queue.popleft()
            self.queued[i] = False
            if not self.gone[i]:
                self.look(i)

    # -- the answer ----------------------------------------------------------------------

    def result(self) -> Reduced:
        """The reduced problem, and what was taken out."""
        p = self.problem
        if self.stuck is not None:       # rule 6: no solution; keep the item that says so
            item = self.items[self.stuck]
            bounds = {item: p.bounds[item]} if item in p.bounds else None
            return Reduced(ExactCover({}, primary=[item], bounds=bounds), list(self.labels),
                           [i for i in self.items if i != item])
        index = {item: k for k, item in enumerate(self.items)}
        options: dict[Hashable, tuple[Hashable, ...]] = {}
        present: set[int] = set()
        for o, label in enumerate(self.labels):
            if self.alive[o]:
                row, entries = self.rows[o], p.options[label]
                options[label] = entries if len(row) == len(entries) else tuple(
                    e for e in entries if index[e.item if isinstance(e, Colored) else e] in row)
                present.update(row)
        kept = [i in present for i in range(len(self.items))]
        primary = [item for k, item in enumerate(p.primary) if kept[k]]
        secondary = [item for k, item in enumerate(p.secondary, self.n_primary) if kept[k]]
        reduced = ExactCover(
            options, secondary=secondary, primary=primary,
            bounds={item: b for item, b in p.bounds.items() if kept[index[item]]},
            costs={label: c for label, c in p.costs.items() if label in options})
        return Reduced(reduced,
                       [label for o, label in enumerate(self.labels) if not self.alive[o]],
                       [item for k, item in enumerate(self.items) if not kept[k]])
