"""The dancing-links table: Knuth's DLX1/DLX2 layout in flat integer lists.

Knuth's one-letter names (this table) are used by the modules that work on the
arrays: this one, :mod:`dlx.dance` (the steps), :mod:`dlx.search` (the loop),
:mod:`dlx.bound`, :mod:`dlx.memo` and :mod:`dlx.estimate` (which read the links
of a paused search), :mod:`dlx.engine` (which hands them to the core),
:mod:`dlx.viz` (which draws them) and the core, ``dlx/_core/``.  Everywhere else we
say *item* (a column of the 0/1 matrix) and *option* (a row).

Symbol table (TAOCP 7.2.2.1, "Dancing links", and Knuth's programs DLX1/DLX2)::

    N1      number of primary items; they are numbered 1..N1
    BOUND   BOUND[i] = how many more times primary item i may be covered (Algorithm M;
    SLACK   SLACK[i] = v - u for its bounds (u, v); both 1 and 0 without bounds)
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
:meth:`Links.check`, for the compiled core and for anyone reading the arrays.

>>> from dlx.problem import ExactCover
>>> t = Links.build(ExactCover({"o1": ["a", "b"], "o2": ["b"]}))
>>> t.N1, t.N, t.LEN[1:3]
(2, 2, [1, 2])
>>> t.check()
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from .errors import ExactCoverError, shown
from .problem import Colored, ExactCover

__all__ = ["Links"]


class Links:
    """One dancing-links table for an :class:`~dlx.problem.ExactCover` problem.

    ``build`` makes the master table once per problem (cached on it); every search
    works on :meth:`copy`, so concurrent or abandoned searches never share state.
    The dynamic lists are ``LLINK, RLINK, ULINK, DLINK, LEN, COLOR``; the static
    ones (``TOP, ROW, OPT``, names and labels) are shared between copies.
    """

    __slots__ = (
        "N1", "N", "LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP", "COLOR",
        "ROW", "OPT", "BOUND", "SLACK", "multi", "item_names", "labels", "option_nodes", "colored",
        "color_names", "skipped", "_shared", "_source", "_lock",
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
    BOUND: list[int]
    SLACK: list[int]
    multi: bool
    item_names: list[Hashable]
    labels: list[Hashable]
    option_nodes: list[tuple[int, ...]]
    colored: bool
    color_names: list[Hashable]
    skipped: list[Hashable]
    _shared: dict[str, Any]
    _source: tuple[bytes, Mapping[Hashable, Any]] | None
    _lock: threading.Lock

    @classmethod
    def build(cls, problem: ExactCover, check: Callable[[], object] | None = None) -> Links:
        """Lay out ``problem`` in Knuth's arrays (options with no primary item are skipped).

        ``check`` is called every :data:`CHECK_EVERY` options laid out; what it raises
        stops the layout (a view's time limit: see :meth:`lay_out`)."""
        t = cls.__new__(cls)
        t._lock = threading.Lock()
        primary = problem.primary
        items = list(primary) + list(problem.secondary)
        n1 = len(primary)
        n = len(items)
        t.N1, t.N = n1, n
        t.item_names = [None, *items]
        t._shared = {}
        # Algorithm M: the bounds of the primary items (1 and 0 for (1, 1))
        t.BOUND = [1] * (n + 1)
        t.SLACK = [0] * (n + 1)
        if problem.bounds:
            index = {item: k + 1 for k, item in enumerate(primary)}
            for item, (u, v) in problem.bounds.items():
                t.BOUND[index[item]], t.SLACK[index[item]] = v, v - u
        t.multi = bool(problem.bounds)
        scanned = problem._scanned
        if scanned is None:
            t._source = None
            t._lay_out(t._numbered(problem), check)
        else:
            # ExactCover's fast path numbered the items already (dlx._core.scan); the
            # arrays are laid out from those numbers when first read (see __getattr__),
            # and the core builds its own copy from them without them.
            entries, skipped = scanned
            t._source = (entries, problem.options)
            t.colored, t.color_names = False, [None]
            if skipped:
                t.skipped = [label for k, label in enumerate(problem.options) if k in skipped]
                t.labels = [label for k, label in enumerate(problem.options)
                            if k not in skipped]
            else:
                t.skipped, t.labels = [], list(problem.options)
        return t

    #: The arrays :meth:`_lay_out` makes, read through ``__getattr__`` when the
    #: layout waits for its first use.
    _LAID_OUT = frozenset({"LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP", "COLOR", "ROW",
                           "OPT", "option_nodes"})

    #: ``check`` (of :meth:`build` and :meth:`lay_out`) is called every this many options.
    CHECK_EVERY = 1 << 12

    def __getattr__(self, name: str) -> Any:
        # Only reached for an attribute not set yet: the arrays of a deferred layout.
        if name in Links._LAID_OUT:
            self.lay_out()
            try:
                return object.__getattribute__(self, name)
            except AttributeError:
                pass
        raise AttributeError(f"'Links' object has no attribute {name!r}")

    def lay_out(self, check: Callable[[], object] | None = None) -> None:
        """Lay out the arrays now, if ExactCover's fast path left them for their first
        use (see :meth:`build`).  ``check`` is called every :data:`CHECK_EVERY`
        options; what it raises (a view's time limit running out) stops the layout,
        and the next use starts it again.

        Safe under threads: the first thread lays the arrays out under a lock and
        publishes them when all are made; the others wait for it."""
        if self._source is None:
            return
        with self._lock:
            source = self._source
            if source is not None:
                self._lay_out(self._from_entries(*source), check)

    def _numbered(self, problem: ExactCover
                  ) -> Iterator[tuple[Hashable, list[int], list[Hashable] | None]]:
        """Each option of ``problem`` as (label, its item numbers, its colours or None)."""
        index = {item: k for k, item in enumerate(self.item_names) if k}
        for label, entries in problem.options.items():
            if problem.colored:
                yield (label,
                       [index[e.item] if isinstance(e, Colored) else index[e] for e in entries],
                       [e.color if isinstance(e, Colored) else None for e in entries])
            else:
                yield label, [index[e] for e in entries], None

    @staticmethod
    def _from_entries(entries: bytes, options: Mapping[Hashable, Any]
                      ) -> Iterator[tuple[Hashable, list[int], None]]:
        """Each option as (label, its item numbers, None), read from the numbers that
        ``dlx._core.scan`` gave: per option its length, then its item numbers."""
        numbers = memoryview(entries).cast("i").tolist()
        at = 0
        for label in options:
            size = numbers[at]
            yield label, numbers[at + 1:at + 1 + size], None
            at += size + 1

    def _lay_out(self, numbered: Iterable[tuple[Hashable, list[int], list[Hashable] | None]],
                 check: Callable[[], object] | None = None) -> None:
        """Knuth's arrays for the options given as (label, item numbers, colours).  They
        are all made before any is set (another thread may read the ones set), and
        ``_source`` is cleared last; ``check`` is called every CHECK_EVERY options."""
        n1, n = self.N1, self.N
        every = self.CHECK_EVERY - 1 if check is not None else -1
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
        # Nodes: headers 1..N (TOP = 0 unused, U/D point to self), spacer N+1, options.
        top = [0] * (n + 2)
        ulink = list(range(n + 2))
        dlink = list(range(n + 2))
        color = [0] * (n + 2)
        length = [0] * (n + 1)
        row: list[tuple[int, ...]] = [()] * (n + 2)
        opt = [-1] * (n + 2)
        color_codes: dict[Hashable, int] = {}
        color_names: list[Hashable] = [None]
        labels: list[Hashable] = []
        option_nodes: list[tuple[int, ...]] = []
        skipped: list[Hashable] = []
        last_spacer = n + 1
        top[last_spacer] = 0
        first_of_prev = 0
        for label, ks, colors in numbered:
            if colors is None:
                cs = [0] * len(ks)
            else:
                cs = []
                for c in colors:
                    if c is not None and c not in color_codes:
                        color_codes[c] = len(color_codes) + 1
                        color_names.append(c)
                    cs.append(0 if c is None else color_codes[c])
            if not ks or min(ks) > n1:
                skipped.append(label)      # no primary item: never chosen
                continue
            o = len(labels)
            if o & every == every:
                check()                     # type: ignore[misc]  # (every is -1 without)
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
        ulink[last_spacer] = first_of_prev
        dlink[last_spacer] = 0
        self.LLINK, self.RLINK = llink, rlink
        self.ULINK, self.DLINK, self.LEN, self.TOP, self.COLOR = ulink, dlink, length, top, color
        self.ROW, self.OPT = row, opt
        self.labels, self.option_nodes, self.skipped = labels, option_nodes, skipped
        self.color_names, self.colored = color_names, bool(color_codes)
        self._source = None                 # published: every array above is set

    def node_count(self) -> int:
        """How many nodes the layout has (headers, spacers and option nodes)."""
        source = self._source
        if source is not None and not self.skipped:
            return self.N + 2 + len(source[0]) // 4    # per option: its nodes and a spacer
        return len(self.TOP)

    @classmethod
    def of(cls, problem: ExactCover, check: Callable[[], object] | None = None) -> Links:
        """The master table of ``problem``, built on first use and cached on it (once
        built: two threads may both build it, and one table is kept).  ``check`` is as
        for :meth:`build`."""
        table = problem._table
        if table is None:
            table = problem._table = cls.build(problem, check)
        return table  # type: ignore[no-any-return]

    def copy(self) -> Links:
        """A table with its own dynamic lists and shared static ones."""
        t = Links.__new__(Links)
        for name in self.__slots__:
            setattr(t, name, getattr(self, name))
        t.LLINK, t.RLINK = self.LLINK[:], self.RLINK[:]
        t.ULINK, t.DLINK = self.ULINK[:], self.DLINK[:]
        t.LEN, t.COLOR = self.LEN[:], self.COLOR[:]
        t.BOUND = self.BOUND[:]
        return t

    #: Options of at most this many nodes get per-node tables of their other nodes
    #: (see :meth:`others_table`); longer ones are split on the fly (the memory would
    #: grow with the square of their length).
    TABLED_OPTION = 16

    def others_table(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int] | None]:
        """For each node x, :meth:`split_others` of x: the other nodes of x's option
        in primary and in secondary items, and how many.  The pure engine's hide walks them
        (primary items keep a length, secondary ones may be purified).  One table per
        problem (shared by every copy), filled in as the searches first meet each
        node (:meth:`split_others` stores what it makes), so that a search pays only
        for the nodes it visits, within its time limit; None for a node not met yet,
        for the nodes of options longer than :data:`TABLED_OPTION`, and for headers
        and spacers."""
        table = self._shared.get("others")
        if table is None:
            table = self._shared.setdefault("others", [None] * len(self.TOP))
        return table  # type: ignore[no-any-return]

    def cyclic_table(self) -> list[tuple[int, ...]]:
        """For each node x, the other nodes of x's option in Knuth's cyclic order (x+1,
        ..., then the option's first node, ...): the order in which the search commits
        them.  One table per problem, filled in as the searches meet each node
        (:meth:`cyclic` stores what it makes); empty for a node not met yet and for
        the nodes of options longer than :data:`TABLED_OPTION`, which the search
        slices from :attr:`ROW` each time (:func:`dlx.dance.others`)."""
        table = self._shared.get("cyclic")
        if table is None:
            table = self._shared.setdefault("cyclic", [()] * len(self.TOP))
        return table  # type: ignore[no-any-return]

    def cyclic(self, x: int) -> tuple[int, ...]:
        """The other nodes of x's option in Knuth's cyclic order: x+1, ..., then from
        the option's first node up to x-1 (kept in :meth:`cyclic_table`)."""
        row = self.ROW[x]
        at = x - row[0]
        rest = row[at + 1:] + row[:at]
        if len(row) <= self.TABLED_OPTION:
            self.cyclic_table()[x] = rest
        return rest

    def sharp(self) -> list[bool]:
        """For each primary item, whether it is *sharp*: named by a string that begins
        with ``#`` (Knuth's dlx2-sharp prefers such items; ``heuristic="sharp"``).
        Built once per problem."""
        table = self._shared.get("sharp")
        if table is None:
            table = [False] + [isinstance(name, str) and name.startswith("#")
                               for name in self.item_names[1:self.N1 + 1]]
            self._shared["sharp"] = table
        return table

    def split_others(self, x: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The other nodes of x's option whose items are primary, and those whose items
        are secondary, each in Knuth's cyclic order (x+1, ..., then the option's first
        node, ...); and how many other nodes there are (the updates of hiding them all)."""
        row = self.ROW[x]
        at = x - row[0]
        cyclic = row[at + 1:] + row[:at]
        top, n1 = self.TOP, self.N1
        split = (tuple([q for q in cyclic if top[q] <= n1]),
                 tuple([q for q in cyclic if top[q] > n1]), len(cyclic))
        if len(row) <= self.TABLED_OPTION:
            self.others_table()[x] = split
        return split

    def option_index(self, label: Hashable) -> int:
        """The index of the option labelled ``label`` (ExactCoverError when there is none,
        or when it has no primary item and so can never be chosen)."""
        index = self._shared.get("options")
        if index is None:
            index = self._shared["options"] = {name: o for o, name in enumerate(self.labels)}
        try:
            return index[label]  # type: ignore[no-any-return]
        except KeyError:
            pass
        except TypeError:
            raise ExactCoverError(f"forced option {shown(label)} is not hashable") from None
        if label in self.skipped:
            raise ExactCoverError(f"option {shown(label)} has no primary item, so it is never"
                                  " chosen and cannot be forced")
        raise ExactCoverError(f"forced option {shown(label)} is not an option of the problem")

    def forced_options(self, labels: Iterable[Hashable]) -> list[int]:
        """The option index of each label (ExactCoverError for a label that is not an
        option with a primary item, or for a string instead of a list)."""
        if isinstance(labels, (str, bytes)):
            raise ExactCoverError(f"forced must be a list of option labels, not the string"
                                  f" {shown(labels)}")
        try:
            chosen = list(labels)
        except TypeError:
            raise ExactCoverError(f"forced must be a list of option labels, not"
                                  f" {type(labels).__name__}") from None
        index = self.option_index
        return [index(label) for label in chosen]

    def first_primary(self, options: Iterable[int]) -> list[int]:
        """For each option index, its first node in a primary item: where the search
        places a forced option (as if it had chosen that item).  Kept per option as
        it is asked for."""
        first = self._shared.get("first_primary")
        if first is None:
            first = self._shared.setdefault("first_primary", {})
        out = []
        for o in options:
            node = first.get(o)
            if node is None:
                top, n1 = self.TOP, self.N1
                node = first[o] = next(q for q in self.option_nodes[o] if top[q] <= n1)
            out.append(node)
        return out

    def primary_sizes(self) -> list[int]:
        """For each option (index), how many primary items it has.  Read off ExactCover's
        numbers when the arrays wait for their first use (the core's branch and bound
        needs these, not the Python layout).  Built once per problem."""
        sizes = self._shared.get("sizes")
        if sizes is None:
            source, n1 = self._source, self.N1
            if source is not None and not self.skipped:
                numbers = memoryview(source[0]).cast("i").tolist()
                sizes, at, end = [], 0, len(numbers)
                while at < end:
                    k = numbers[at]
                    sizes.append(k if n1 == self.N else
                                 len([e for e in numbers[at + 1:at + 1 + k] if e <= n1]))
                    at += k + 1
            else:
                top = self.TOP
                sizes = [len([q for q in nodes if top[q] <= n1]) for nodes in self.option_nodes]
            self._shared["sizes"] = sizes
        return sizes

    def exclude(self, option: int) -> None:
        """Take option index ``option`` out of its items' lists, as if the problem did
        not have it (on a :meth:`copy`, before a search; nothing puts it back)."""
        ulink, dlink, top, length = self.ULINK, self.DLINK, self.TOP, self.LEN
        for x in self.option_nodes[option]:
            u, d = ulink[x], dlink[x]
            dlink[u], ulink[d] = d, u
            length[top[x]] -= 1

    def snapshot(self) -> tuple[tuple[int, ...], ...]:
        """The dynamic lists as tuples, to compare a table before and after a search."""
        return tuple(
            tuple(a) for a in (self.LLINK, self.RLINK, self.ULINK, self.DLINK, self.LEN,
                               self.COLOR, self.BOUND)
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

    def length(self, i: int) -> int:
        """How many options are in item i's list now (walking it)."""
        n, x, dlink = 0, self.DLINK[i], self.DLINK
        while x != i:
            n, x = n + 1, dlink[x]
        return n

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

        Checks the item lists' doubly linked circles, each item's vertical circle
        (ULINK/DLINK agree, TOP names the item, a primary item's LEN is its true
        length) and the spacer layout.  Knuth: "the totals should agree".  (The pure
        engine keeps LEN for primary items only: no heuristic reads a secondary
        item's; :meth:`length` counts any item's list.)
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
