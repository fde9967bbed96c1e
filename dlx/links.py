"""The dancing-links table: Knuth's DLX1/DLX2 layout in flat integer lists.

This module and :mod:`dlx.search` are the only places that use Knuth's one-letter
names.  Everywhere else we say *item* (a column of the 0/1 matrix) and *option*
(a row).

Symbol table (TAOCP 7.2.2.1, "Dancing links", and Knuth's programs DLX1/DLX2)::

    N1      number of primary items; they are numbered 1..N1
    N       number of items; secondary items are N1+1..N
    LLINK   left link of an item header in the circular item list; list heads are
    RLINK   0 (primary items) and N+1 (secondary items, never chosen)
    LEN     LEN[i] = how many options are still in item i's list
    TOP     TOP[x] = the item of node x; TOP[x] <= 0 marks a spacer node
    ULINK   up link of node x in its item's vertical circular list
    DLINK   down link; item i's header is node i, so DLINK[i] is its first option
    COLOR   COLOR[x] = colour code of node x (0 none; -1 while "purified", Algorithm C)

Node layout: nodes 1..N are the item headers; node N+1 is the first spacer; each
option's nodes follow in order, then a spacer.  As in DLX1, ``ULINK`` of a spacer
points at the first node of the option before it and ``DLINK`` at the last node
of the option after it.

Python adaptation: an option's horizontal links never change during the search
(options are never unlinked sideways), so instead of walking ``x+1, x+2, ...`` and
jumping at spacers, each node also knows the tuple of nodes of its option
(``ROW[x]``, one tuple shared by all nodes of an option, so memory stays linear).
A ``for`` loop over that tuple is about twice as fast in CPython as Knuth's
index arithmetic with spacer tests, and the spacers are still there for
:meth:`Links.check` and for anyone reading the arrays.

>>> from dlx.problem import ExactCover
>>> t = Links.build(ExactCover({"o1": ["a", "b"], "o2": ["b"]}))
>>> t.N1, t.N, t.LEN[1:3]
(2, 2, [1, 2])
>>> t.check()
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from .problem import Colored, ExactCover

__all__ = ["Links"]


class Links:
    """One dancing-links table for an :class:`~dlx.problem.ExactCover` problem.

    ``build`` makes the master table once per problem (cached on it); every search
    works on :meth:`copy`, so concurrent or abandoned searches never share state.
    The dynamic lists are ``LLINK, RLINK, ULINK, DLINK, LEN, COLOR``; the static
    ones (``TOP, ROW, OPT, SIZE1``, names and labels) are shared between copies.
    """

    __slots__ = (
        "N1", "N", "LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP", "COLOR",
        "ROW", "OPT", "SIZE1", "item_names", "labels", "option_nodes", "colored",
        "color_names", "skipped", "_shared",
    )

    N1: int
    N: int
    LLINK: list[int]
    RLINK: list[int]
    ULINK: list[int]
    DLINK: list[int]
    LEN: list[int]
    TOP: list[int]
    COLOR: list[int]
    ROW: list[tuple[int, ...]]
    OPT: list[int]
    SIZE1: list[int]
    item_names: list[Hashable]
    labels: list[Hashable]
    option_nodes: list[tuple[int, ...]]
    colored: bool
    color_names: list[Hashable]
    skipped: list[Hashable]
    _shared: dict[str, Any]

    #: Per-node "other nodes" tables hold about k*(k-1) entries per option of k nodes;
    #: above this many in all, the pure engine walks the shared option tuples instead.
    FAST_TABLE_LIMIT = 4_000_000

    @classmethod
    def build(cls, problem: ExactCover) -> Links:
        """Lay out ``problem`` in Knuth's arrays (options with no primary item are skipped)."""
        t = cls.__new__(cls)
        primary = problem.primary
        items = list(primary) + list(problem.secondary)
        n1 = len(primary)
        n = len(items)
        index = {item: k + 1 for k, item in enumerate(items)}
        t.N1, t.N = n1, n
        t.item_names = [None, *items]
        # Item header lists: head 0 for primary items, head N+1 for secondary ones.
        llink = [0] * (n + 2)
        rlink = [0] * (n + 2)
        for k in range(1, n + 1):
            llink[k] = k - 1
            rlink[k] = k + 1
        llink[0], rlink[0] = n1, (1 if n1 else 0)
        if n1:
            rlink[n1] = 0
        head = n + 1
        if n > n1:
            llink[n1 + 1] = head
            llink[head], rlink[head] = n, n1 + 1
            rlink[n] = head
        else:
            llink[head] = rlink[head] = head
        t.LLINK, t.RLINK = llink, rlink
        # Nodes: headers 1..N (TOP = 0 unused, U/D point to self), spacer N+1, options.
        top = [0] * (n + 2)
        ulink = list(range(n + 2))
        dlink = list(range(n + 2))
        color = [0] * (n + 2)
        length = [0] * (n + 1)
        row: list[tuple[int, ...]] = [()] * (n + 2)
        opt = [-1] * (n + 2)
        size1 = [0] * (n + 2)
        color_codes: dict[Hashable, int] = {}
        t.color_names = [None]
        labels: list[Hashable] = []
        option_nodes: list[tuple[int, ...]] = []
        skipped: list[Hashable] = []
        last_spacer = n + 1
        top[last_spacer] = 0
        first_of_prev = 0
        colored = problem.colored
        for label, entries in problem.options.items():
            if colored:
                ks: list[int] = []
                cs: list[int] = []
                for entry in entries:
                    if isinstance(entry, Colored):
                        c = color_codes.get(entry.color)
                        if c is None:
                            c = color_codes[entry.color] = len(color_codes) + 1
                            t.color_names.append(entry.color)
                        ks.append(index[entry.item])
                        cs.append(c)
                    else:
                        ks.append(index[entry])
                        cs.append(0)
            else:
                ks = [index[entry] for entry in entries]
                cs = [0] * len(ks)
            if not ks or min(ks) > n1:
                skipped.append(label)      # no primary item: never chosen
                continue
            o = len(labels)
            labels.append(label)
            first = len(top)
            k_nodes = len(ks)
            nodes = tuple(range(first, first + k_nodes))
            # the new nodes: TOP, COLOR, DLINK (each at the bottom of its item's list)
            top += ks
            color += cs
            dlink += ks
            for k, x in zip(ks, nodes, strict=True):
                u = ulink[k]
                ulink.append(u)
                dlink[u] = x
                ulink[k] = x
                length[k] += 1
            row += [nodes] * k_nodes
            opt += [o] * k_nodes
            size1 += [k_nodes - 1] * k_nodes
            option_nodes.append(nodes)
            # finish the spacer before this option and add the one after it
            ulink[last_spacer] = first_of_prev
            dlink[last_spacer] = nodes[-1]
            first_of_prev = first
            last_spacer = len(top)
            top.append(-len(labels))
            ulink.append(0)
            dlink.append(0)
            color.append(0)
            row.append(())
            opt.append(-1)
            size1.append(0)
        ulink[last_spacer] = first_of_prev
        dlink[last_spacer] = 0
        t.ULINK, t.DLINK, t.LEN, t.TOP, t.COLOR = ulink, dlink, length, top, color
        t.ROW, t.OPT, t.SIZE1 = row, opt, size1
        t.labels, t.option_nodes, t.skipped = labels, option_nodes, skipped
        t.colored = bool(color_codes)
        t._shared = {}
        return t

    @classmethod
    def of(cls, problem: ExactCover) -> Links:
        """The master table of ``problem``, built on first use and cached on it."""
        table = problem._table
        if table is None:
            table = problem._table = cls.build(problem)
        return table  # type: ignore[no-any-return]

    def copy(self) -> Links:
        """A table with its own dynamic lists and shared static ones."""
        t = Links.__new__(Links)
        for name in self.__slots__:
            setattr(t, name, getattr(self, name))
        t.LLINK, t.RLINK = self.LLINK[:], self.RLINK[:]
        t.ULINK, t.DLINK = self.ULINK[:], self.DLINK[:]
        t.LEN, t.COLOR = self.LEN[:], self.COLOR[:]
        return t

    def fast_tables(self) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]],
                                   list[tuple[int, ...]], list[tuple[int, ...]]] | None:
        """Per-node tables for the pure engine's fast path, or None when it can't be used.

        For node p: ``OP[p]`` the other nodes of its option whose items are primary,
        ``OS[p]`` those whose items are secondary, ``OI[p]`` the items of the other
        nodes in Knuth's cyclic order (p+1, ..., then wrapping to the option's start),
        ``RI[p]`` the same items reversed (the order of uncovering them).  Built once
        per problem (shared by every copy) and only for problems without colours whose
        tables fit in :data:`FAST_TABLE_LIMIT` entries.
        """
        if "fast" not in self._shared:
            tables = None
            size = sum(len(nodes) * (len(nodes) - 1) for nodes in self.option_nodes)
            if not self.colored and size <= self.FAST_TABLE_LIMIT:
                top, n1 = self.TOP, self.N1
                op: list[tuple[int, ...]] = [()] * len(top)
                os_: list[tuple[int, ...]] = [()] * len(top)
                oi: list[tuple[int, ...]] = [()] * len(top)
                ri: list[tuple[int, ...]] = [()] * len(top)
                for nodes in self.option_nodes:
                    items = tuple([top[q] for q in nodes])
                    mixed = max(items) > n1
                    for at, p in enumerate(nodes):
                        others = nodes[at + 1:] + nodes[:at]
                        oi[p] = items[at + 1:] + items[:at]
                        ri[p] = oi[p][::-1]
                        if mixed:
                            op[p] = tuple([q for q in others if top[q] <= n1])
                            os_[p] = tuple([q for q in others if top[q] > n1])
                        else:
                            op[p] = others
                tables = (op, os_, oi, ri)
                sizes = {len(nodes) for nodes in self.option_nodes}
                self._shared["fast_shape"] = (
                    not any(os_),                                    # no secondary nodes
                    sizes.pop() - 1 if len(sizes) == 1 else -1,      # common size - 1
                )
            self._shared["fast"] = tables
        return self._shared["fast"]  # type: ignore[no-any-return]

    def quads(self) -> list[tuple[int, ...]] | None:
        """For problems whose options all have exactly four items, all primary
        (Sudoku's shape), per node p: ``(a, b, c, TOP[a], TOP[b], TOP[c])``, the
        other nodes of its option in ``OP[p]``'s order and then their items; else
        None (also when there are no fast tables).  The fast path unrolls its loops
        over it."""
        if "quads" not in self._shared:
            quads = None
            fast = self.fast_tables()
            if fast is not None and self.fast_shape() == (True, 3):
                top = self.TOP
                quads = [others + (top[others[0]], top[others[1]], top[others[2]])
                         if others else () for others in fast[0]]
            self._shared["quads"] = quads
        return self._shared["quads"]  # type: ignore[no-any-return]

    def singles(self) -> list[tuple[int]]:
        """``[(0,), (1,), ..., (N + 1,)]``, built once: the search covers tuples of items."""
        ones = self._shared.get("singles")
        if ones is None:
            ones = self._shared["singles"] = [(i,) for i in range(self.N + 2)]
        return ones  # type: ignore[no-any-return]

    def fast_shape(self) -> tuple[bool, int]:
        """``(no secondary nodes, common option size - 1 or -1)``: lets the fast path
        skip empty secondary loops and count a cover's updates from LEN alone.
        Valid once :meth:`fast_tables` returned tables."""
        return self._shared["fast_shape"]  # type: ignore[no-any-return]

    def choose(self, nodes: Sequence[int]) -> bool:
        """Choose an option before a search: cover each of its items, left to right.

        ``nodes`` are the option's nodes (an entry of ``option_nodes``).  Returns
        False, changing nothing, when one of its items is already covered (an
        earlier choice conflicts with it).  Every LEN stays exact.  No colours.
        """
        llink, rlink, ulink, dlink = self.LLINK, self.RLINK, self.ULINK, self.DLINK
        top, length = self.TOP, self.LEN
        for q in nodes:
            i = top[q]
            if rlink[llink[i]] != i:
                return False
        fast = self._shared.get("fast")
        # the other nodes of each option: from the fast path's tables when built
        others = fast[0] if fast is not None and self.fast_shape()[0] else self._others()
        for q in nodes:
            i = top[q]
            # cover(i), 7.2.2.1-(12)
            p = dlink[i]
            while p != i:
                for r in others[p]:
                    u, d = ulink[r], dlink[r]
                    dlink[u] = d
                    ulink[d] = u
                    length[top[r]] -= 1
                p = dlink[p]
            left, right = llink[i], rlink[i]
            rlink[left] = right
            llink[right] = left
        return True

    def _others(self) -> list[tuple[int, ...]]:
        """Per node: the other nodes of its option (built once)."""
        others = self._shared.get("others")
        if others is None:
            others = [tuple([r for r in nodes if r != p]) for p, nodes in enumerate(self.ROW)]
            self._shared["others"] = others
        return others  # type: ignore[no-any-return]

    def snapshot(self) -> tuple[tuple[int, ...], ...]:
        """The dynamic lists as tuples, to compare a table before and after a search."""
        return tuple(
            tuple(a) for a in (self.LLINK, self.RLINK, self.ULINK, self.DLINK, self.LEN, self.COLOR)
        )

    # -- reading the current state (for traces, bounds and pictures) -------------

    def active_items(self) -> list[int]:
        """Primary items still in the item list, in list order."""
        out = []
        rlink = self.RLINK
        i = rlink[0]
        while i != 0:
            out.append(i)
            i = rlink[i]
        return out

    def active_options(self, i: int) -> list[int]:
        """Option indices still in item i's list, top to bottom."""
        out = []
        dlink, opt = self.DLINK, self.OPT
        x = dlink[i]
        while x != i:
            out.append(opt[x])
            x = dlink[x]
        return out

    def item_number(self, item: Hashable) -> int:
        """The number (1..N) of item ``item`` (KeyError if there is none)."""
        index = self._shared.get("index")
        if index is None:
            index = self._shared["index"] = {
                name: k for k, name in enumerate(self.item_names) if k}
        return index[item]  # type: ignore[no-any-return]

    def check(self) -> None:
        """Walk every list and raise AssertionError at the first inconsistency.

        Checks the item list's doubly linked circle, each active item's vertical
        circle (ULINK/DLINK agree, TOP names the item, a primary item's LEN is its true
        length) and
        the spacer layout.  Knuth: "the totals should agree".
        """
        llink, rlink, ulink, dlink = self.LLINK, self.RLINK, self.ULINK, self.DLINK
        for head in (0, self.N + 1):
            i, steps = head, 0
            while True:
                r = rlink[i]
                if llink[r] != i:
                    raise AssertionError(f"item list broken between {i} and {r}")
                i = r
                steps += 1
                if i == head:
                    break
                if steps > self.N + 1:
                    raise AssertionError("item list does not close")
        for i in range(1, self.N + 1):
            x, count, steps = dlink[i], 0, 0
            if ulink[dlink[i]] != i:
                raise AssertionError(f"item {self.item_names[i]!r}: header links broken")
            while x != i:
                if self.TOP[x] != i:
                    raise AssertionError(f"node {x} in the list of item {i} has TOP {self.TOP[x]}")
                if ulink[dlink[x]] != x:
                    raise AssertionError(f"node {x}: DLINK/ULINK disagree")
                count += 1
                x = dlink[x]
                steps += 1
                if steps > len(self.TOP):
                    raise AssertionError(f"item {i}: list does not close")
            # The fast path leaves a secondary item's LEN alone (the search never reads
            # it), so only primary items' LEN must equal their list length.
            if count != self.LEN[i] and i <= self.N1:
                raise AssertionError(
                    f"item {self.item_names[i]!r}: LEN {self.LEN[i]} but {count} nodes in its list"
                )
        for o, nodes in enumerate(self.option_nodes):
            if self.TOP[nodes[-1] + 1] != -(o + 1):
                raise AssertionError(f"option {o}: spacer missing after node {nodes[-1]}")

    def describe(self, solution: Sequence[int]) -> list[Any]:
        """Labels of the options whose nodes are in ``solution``."""
        return [self.labels[self.OPT[x]] for x in solution]
