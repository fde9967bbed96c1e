"""ExactCover: an exact-cover problem as options (rows) over items (columns).

An *option* (a row of the 0/1 matrix) has a label and a list of *items* (columns).
A solution is a set of options that covers every *primary* item exactly once and
every *secondary* item at most once.  A secondary item may carry a colour in an
option (``Colored(item, colour)``); options that agree on an item's colour may
share it (Knuth's Algorithm C, "exact covering with colours").  A primary item
may instead be given *bounds*: covered between ``u`` and ``v`` times (Knuth's
Algorithm M, "multiplicities"); and options may carry *costs* (Knuth's DLX5),
for :func:`dlx.best` to find the cheapest solutions.

>>> p = ExactCover({"o1": ["a", "b"], "o2": ["b", "c"], "o3": ["c"]}, secondary=["c"])
>>> p.primary, p.secondary
(('a', 'b'), ('c',))
>>> len(p)
3
>>> twice = ExactCover({"x": ["a"], "y": ["a"], "z": ["a"]}, bounds={"a": (2, 2)})
>>> twice.bounds
{'a': (2, 2)}
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from . import arrays
from .errors import (
    ColorError,
    DuplicateItemError,
    ExactCoverError,
    OptionError,
    RepeatedItemError,
    UnknownItemError,
    shown,
)

__all__ = ["Colored", "ExactCover"]

try:
    # the constructor's fast paths: plain options, and arrays (from_csr)
    from ._core import csr as _csr
    from ._core import scan as _scan
except ImportError:                      # the pure engine alone: every check in Python
    _scan = _csr = None


class Colored(NamedTuple):
    """A secondary item with a colour, as it appears inside one option.

    >>> Colored("x", "red")
    Colored(item='x', color='red')
    """

    item: Hashable
    color: Hashable


def _check_hashable(value: Any, what: str) -> None:
    try:
        hash(value)
    except TypeError:
        raise OptionError(f"{what} {shown(value)} is not hashable") from None


def _is_number(value: Any) -> bool:
    """An int, Fraction or finite float (not a bool)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, Fraction)):
        return True
    return isinstance(value, float) and math.isfinite(value)


class ExactCover:
    """An exact-cover problem: labelled options over primary and secondary items.

    Parameters
    ----------
    options : Mapping[Hashable, Iterable[Hashable]]
        Option label -> its items.  Labels and items are any hashable values
        (tuples such as ``("row", 3)`` included).  A secondary item may be given as
        ``Colored(item, colour)``.  Insertion order is kept and decides the order of
        solutions and traces.  (For a 0-1 matrix, see :meth:`from_matrix`; for integer
        arrays, :meth:`from_csr`.)
    secondary : Iterable[Hashable] or None
        Items that must be covered at most once (rather than exactly once); None
        means none.
    primary : Iterable[Hashable] or None
        The items that must be covered exactly once.  ``None`` means every item
        named by an option that is not secondary, in order of first appearance.
        When given, an option naming an item that is neither primary nor secondary
        is an error.
    bounds : Mapping[Hashable, tuple[int, int]] or None
        Primary item -> ``(u, v)``: the item must be covered at least ``u`` and at
        most ``v`` times (``0 <= u <= v``, ``v >= 1``; Knuth's Algorithm M).  Items
        not named keep ``(1, 1)``.
    costs : Mapping[Hashable, number] or None
        Option label -> its cost, a non-negative int, Fraction or float (Knuth's
        DLX5); options not named cost 0.  :func:`dlx.best` with ``k=`` finds the
        cheapest solutions.

    Raises
    ------
    ExactCoverError
        A subclass naming the option and the item at fault: an item repeated in an
        option, an unknown item, an item declared twice or both primary and
        secondary, a colour on a primary item, a string given as an item list,
        bounds on a secondary or unknown item, a bad bound or cost.

    Examples
    --------
    Knuth's toy problem (TAOCP 7.2.2.1):

    >>> p = ExactCover({"ce": "c e".split(), "adg": "a d g".split(), "bcf": "b c f".split(),
    ...                 "adf": "a d f".split(), "bg": "b g".split(), "deg": "d e g".split()})
    >>> p.primary
    ('c', 'e', 'a', 'd', 'g', 'b', 'f')
    >>> p.options["bg"]
    ('b', 'g')
    """

    __slots__ = ("options", "primary", "secondary", "bounds", "costs", "_colored", "_table",
                 "_derived", "_scanned", "__weakref__")

    options: Mapping[Hashable, tuple[Hashable, ...]]
    primary: tuple[Hashable, ...]
    secondary: tuple[Hashable, ...]
    bounds: dict[Hashable, tuple[int, int]]
    costs: dict[Hashable, int | float | Fraction]

    def __init__(
        self,
        options: Mapping[Any, Iterable[Hashable]],
        secondary: Iterable[Hashable] | None = (),
        primary: Iterable[Hashable] | None = None,
        *,
        bounds: Mapping[Any, tuple[int, int]] | None = None,
        costs: Mapping[Any, int | float | Fraction] | None = None,
    ) -> None:
        if not isinstance(options, Mapping):
            hint = (" (for a list of item lists, use dict(enumerate(rows)); for a 0-1 matrix,"
                    " dlx.ExactCover.from_matrix(rows))" if hasattr(options, "__len__") else "")
            raise ExactCoverError(
                f"options must be a mapping from label to items, not {type(options).__name__}"
                + hint)
        sec = [] if secondary is None else self._declared(secondary, "secondary")
        sec_set = set(sec)
        prim: list[Hashable] | None = None
        if primary is not None:
            prim = self._declared(primary, "primary")
            for item in prim:
                if item in sec_set:
                    raise DuplicateItemError(f"item {shown(item)} is both primary and secondary")
        self.secondary = tuple(sec)
        self._scanned: tuple[bytes, frozenset[int]] | None = None
        colored = False
        scanned = None if _scan is None else _scan(
            options, self.secondary, None if prim is None else tuple(prim), Colored)
        if scanned is not None:
            # the compiled fast path checked and numbered plain options in one pass
            self.options, self.primary, entries, skipped = scanned
            self._scanned = (entries, frozenset(skipped))
        else:
            prim_set = set(prim) if prim is not None else None
            opts: dict[Hashable, tuple[Hashable, ...]] = {}
            for label, items in options.items():
                item_list, has_color = _option(label, items, sec_set, prim_set)
                opts[label] = item_list
                colored = colored or has_color
            self.options = opts
            if prim is None:
                # every item of an option that is not secondary, in order of first appearance
                firsts = dict.fromkeys(e.item if isinstance(e, Colored) else e
                                       for entries in opts.values() for e in entries)
                self.primary = tuple(item for item in firsts if item not in sec_set)
            else:
                self.primary = tuple(prim)
        self.bounds = _bounds(bounds, self.primary, sec_set)
        self.costs = _costs(costs, self.options)
        self._colored = colored
        self._table: Any = None
        self._derived: dict[Any, Any] = {}

    @classmethod
    def from_matrix(cls, rows: Any, *, secondary: Iterable[int] = (),
                    primary: Iterable[int] | None = None) -> ExactCover:
        """The problem of a 0-1 matrix: option ``k`` is row ``k``, its items the column
        indices of its 1s.

        ``rows`` is a sequence of 0-1 rows (lists, tuples, or a 2-D numpy array) or a
        scipy.sparse matrix; neither numpy nor scipy is imported here.  ``secondary``
        names secondary columns; every other column is primary, in column order
        (an all-zero primary column has no solution).

        >>> p = ExactCover.from_matrix([[1, 0, 1], [0, 1, 0], [1, 1, 1]])
        >>> p.options, p.primary
        ({0: (0, 2), 1: (1,), 2: (0, 1, 2)}, (0, 1, 2))
        >>> import dlx
        >>> dlx.count(p)
        2
        """
        sec = list(secondary)
        if hasattr(rows, "tocoo"):                       # scipy.sparse
            coo = rows.tocoo()
            nrows, ncols = coo.shape
            cols: list[list[int]] = [[] for _ in range(nrows)]
            for r, c, v in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist(),
                               strict=True):
                if v not in (0, 1):
                    raise ExactCoverError(f"row {r}, column {c}: {shown(v)} is not 0 or 1")
                if v:
                    cols[r].append(c)
            options = {k: tuple(sorted(set(cs))) for k, cs in enumerate(cols)}
        else:
            if isinstance(rows, (str, bytes)) or not hasattr(rows, "__len__"):
                raise ExactCoverError("from_matrix needs a sequence of 0-1 rows (or an array)")
            options = {}
            ncols = 0
            for k, row in enumerate(rows):
                values = list(row)
                ncols = max(ncols, len(values))
                for c, v in enumerate(values):
                    if v not in (0, 1):
                        raise ExactCoverError(f"row {k}, column {c}: {shown(v)} is not 0 or 1")
                options[k] = tuple(c for c, v in enumerate(values) if v)
        for c in sec:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < max(ncols, 1):
                raise ExactCoverError(f"secondary column {shown(c)} is not a column index")
        sec_set = set(sec)
        prim = list(primary) if primary is not None else [
            c for c in range(ncols) if c not in sec_set]
        return cls(options, secondary=sec, primary=prim)

    @classmethod
    def from_csr(cls, indptr: Any, indices: Any, *, items: Sequence[Hashable] | int | None = None,
                 labels: Sequence[Hashable] | None = None, secondary: Any = (),
                 bounds: Mapping[Hashable, tuple[int, int]] | None = None,
                 costs: Mapping[Hashable, int | float | Fraction] | None = None) -> ExactCover:
        """The problem of integer arrays in CSR form (compressed sparse rows): option
        ``o`` holds the items of indices ``indices[indptr[o]:indptr[o + 1]]``.

        For a problem generated by a program: the arrays go to the core as they are
        (NumPy arrays, ``array.array``, any buffer of integers, or lists), checked and
        numbered in one pass, and the options are never Python lists or tuples.
        ``p.options`` is a read-only mapping that makes an option's tuple of items
        when it is looked at; it equals the dict the dict form would hold.

        Colours are for the dict form (``Colored`` entries): arrays hold none.  What
        the dict form checks is checked here, and named the same way: an index out
        of range, an item twice in an option, a secondary item declared twice, and
        arrays that are not CSR.  An option with no primary item is kept, and never
        chosen, as in the dict form.

        Parameters
        ----------
        indptr, indices : arrays of integers
            ``indptr`` has one entry more than there are options: 0, then where
            each option ends in ``indices``.  ``indices`` holds item indices.
        items : sequence, int or None
            The names of the items, item ``k`` being ``items[k]``; an int ``n``: the
            items are ``0..n-1``; None (default): ``0..`` the largest index named.
        labels : sequence or None
            One label (any hashable, no two alike) per option; None: the option
            numbers ``0, 1, ...``.
        secondary : array or sequence of integers
            The indices of the secondary items (in this order); every other item is
            primary, in index order.
        bounds, costs
            As for the dict form: item name -> ``(u, v)``, label -> cost.

        Examples
        --------
        Knuth's toy problem, items ``a``..``g`` as indices 0..6:

        >>> from array import array
        >>> p = ExactCover.from_csr(array("i", [0, 2, 5, 8, 11, 13, 16]),
        ...                         array("i", [2, 4, 0, 3, 6, 1, 2, 5, 0, 3, 5, 1, 6, 3, 4, 6]),
        ...                         items=list("abcdefg"))
        >>> p.options[3], len(p)
        (('a', 'd', 'f'), 6)
        >>> import dlx
        >>> dlx.first(p)
        (3, 4, 0)
        """
        if isinstance(items, bool) or (isinstance(items, int) and items < 0):
            raise ExactCoverError(f"items must be names or a number of items, not {shown(items)}")
        names: Sequence[Hashable] | None = None if items is None or isinstance(items, int) \
            else cls._declared(items, "from_csr's")
        ip, ix = arrays.ints(indptr, "indptr"), arrays.ints(indices, "indices")
        sec = arrays.ints(secondary, "secondary")
        n_items = -1 if items is None else items if isinstance(items, int) else len(names or ())
        if n_items > arrays.MAX_ITEMS:
            raise ExactCoverError(f"{n_items:,} items: from_csr takes at most"
                                  f" {arrays.MAX_ITEMS:,}")
        numbered = (arrays.numbers if _csr is None else _csr)(ip, ix, n_items, sec)
        label_list: Sequence[Hashable] = range(len(ip) - 1) if labels is None else \
            arrays.labels_of(labels, len(ip) - 1)
        if isinstance(numbered[0], str):
            raise arrays.fault(numbered, ip, ix, sec, n_items, names, label_list)
        entries, starts, skipped, prim, n_items = numbered
        if names is None:
            names = range(n_items)
        primary = tuple(map(names.__getitem__, memoryview(prim).cast("i").tolist()))
        p = cls.__new__(cls)
        p.primary = primary
        p.secondary = tuple(map(names.__getitem__, sec.tolist()))
        p.options = arrays.Numbered(entries, starts, (None, *primary, *p.secondary), label_list)
        p.bounds = _bounds(bounds, p.primary, set(p.secondary))
        p.costs = _costs(costs, p.options)
        p._colored = False
        p._scanned = (entries, frozenset(skipped))
        p._table = None
        p._derived = {}
        return p

    @classmethod
    def _read(cls, options: dict[Hashable, tuple[Hashable, ...]], primary: Sequence[Hashable],
              secondary: Sequence[Hashable], bounds: Mapping[Hashable, tuple[int, int]],
              costs: Mapping[Hashable, int | float | Fraction], numbers: bytes | None
              ) -> ExactCover:
        """The problem :func:`dlx.read_dlx` read, every check of the constructor made line
        by line (naming the line and column): kept as it is.  ``numbers`` are each
        option's length and item numbers (as ``dlx._core.scan`` gives them; every option
        has a primary item), None when an option has a colour."""
        p = cls.__new__(cls)
        p.options, p.primary, p.secondary = options, tuple(primary), tuple(secondary)
        p.bounds = _bounds(bounds, p.primary, set(p.secondary))
        p.costs = _costs(costs, options)
        p._colored = numbers is None
        p._scanned = None if numbers is None else (numbers, frozenset())
        p._table = None
        p._derived = {}
        return p

    @staticmethod
    def _declared(items: Iterable[Hashable], kind: str) -> list[Hashable]:
        if isinstance(items, (str, bytes)):
            raise ExactCoverError(f"{kind} items must be a list, not the string {shown(items)}")
        try:
            listed = list(items)
        except TypeError:
            raise ExactCoverError(f"{kind} items must be a list of items, not"
                                  f" {type(items).__name__}") from None
        try:
            if len(set(listed)) == len(listed):
                return listed
        except TypeError:
            pass                       # an unhashable item: named below
        out: list[Hashable] = []
        seen: set[Hashable] = set()
        for item in listed:
            _check_hashable(item, f"{kind} item")
            if item in seen:
                raise DuplicateItemError(f"{kind} item {shown(item)} is declared twice")
            seen.add(item)
            out.append(item)
        return out

    def __getstate__(self) -> dict[str, Any]:
        # what a worker process needs: not the laid-out links (they are rebuilt there)
        return {"options": self.options, "primary": self.primary, "secondary": self.secondary,
                "bounds": self.bounds, "costs": self.costs, "colored": self._colored,
                "scanned": self._scanned}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.options, self.primary = state["options"], state["primary"]
        self.secondary, self.bounds = state["secondary"], state["bounds"]
        self.costs, self._colored = state["costs"], state["colored"]
        self._table = None
        self._scanned = state.get("scanned")
        self._derived = {}

    @property
    def colored(self) -> bool:
        """True when some option gives a secondary item a colour."""
        return self._colored

    @property
    def items(self) -> tuple[Hashable, ...]:
        """Primary items, then secondary items."""
        return self.primary + self.secondary

    def __len__(self) -> int:
        return len(self.options)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.options)

    def __repr__(self) -> str:
        extra = f", {len(self.bounds)} with bounds" if self.bounds else ""
        return (
            f"ExactCover({len(self.options)} options, {len(self.primary)} primary items"
            f"{extra}, {len(self.secondary)} secondary items)"
        )

    def item_names(self, label: Hashable) -> tuple[Hashable, ...]:
        """The items of option ``label`` without their colours.

        >>> ExactCover({"r": ["a", Colored("x", 1)]}, secondary=["x"]).item_names("r")
        ('a', 'x')
        """
        return tuple(e.item if isinstance(e, Colored) else e for e in self.options[label])

    def bound(self, item: Hashable) -> tuple[int, int]:
        """``(u, v)``: how many times primary item ``item`` must be covered, at least and
        at most.

        >>> ExactCover({"x": ["a", "b"]}, bounds={"a": (0, 2)}).bound("a")
        (0, 2)
        """
        return self.bounds.get(item, (1, 1))

    def cost(self, label: Hashable) -> int | float | Fraction:
        """The cost of option ``label`` (0 unless ``costs`` named it)."""
        return self.costs.get(label, 0)


def _option(label: Hashable, items: Iterable[Hashable], sec_set: set[Hashable],
            prim_set: set[Hashable] | None) -> tuple[tuple[Hashable, ...], bool]:
    """Check one option; return its items as a tuple and whether it has a colour."""
    _check_hashable(label, "option label")
    if isinstance(items, (str, bytes)):
        raise OptionError(
            f"option {shown(label)}: items must be a list such as"
            f" {shown(list(str(items).split()))},"
            f" not the string {shown(items)}")
    try:
        item_list = tuple(items)
    except TypeError:
        raise OptionError(
            f"option {shown(label)}: items must be iterable, not {type(items).__name__}") from None
    colored = False
    names: set[Hashable] = set()
    for entry in item_list:
        item = entry.item if isinstance(entry, Colored) else entry
        try:
            hash(item)
        except TypeError:
            raise OptionError(
                f"option {shown(label)}: item {shown(item)} is not hashable") from None
        if isinstance(entry, Colored):
            _check_hashable(entry.color, f"option {shown(label)}: colour of item")
            if item not in sec_set:
                raise ColorError(
                    f"option {shown(label)}: item {shown(item)} has a colour but is not secondary")
            colored = True
        if item in names:
            raise RepeatedItemError(f"option {shown(label)}: item {shown(item)} appears twice")
        names.add(item)
        if prim_set is not None and item not in sec_set and item not in prim_set:
            raise UnknownItemError(
                f"option {shown(label)}: item {shown(item)} is neither primary nor secondary")
    return item_list, colored


def _bounds(bounds: Mapping[Hashable, tuple[int, int]] | None, primary: Sequence[Hashable],
            sec_set: set[Hashable]) -> dict[Hashable, tuple[int, int]]:
    """The checked bounds that differ from (1, 1), in the primary items' order."""
    if not bounds:
        return {}
    if not isinstance(bounds, Mapping):
        raise ExactCoverError(f"bounds must be a mapping item -> (u, v), not"
                              f" {type(bounds).__name__}")
    prim_set = set(primary)
    out: dict[Hashable, tuple[int, int]] = {}
    for item, pair in bounds.items():
        _check_hashable(item, "bounds: item")
        if item in sec_set:
            raise ExactCoverError(f"bounds: item {shown(item)} is secondary; only primary items"
                                  " have bounds")
        if item not in prim_set:
            raise UnknownItemError(f"bounds: item {shown(item)} is not a primary item")
        try:
            u, v = pair
        except (TypeError, ValueError):
            raise ExactCoverError(f"bounds: item {shown(item)}: expected a pair (u, v), got"
                                  f" {shown(pair)}") from None
        for x in (u, v):
            if isinstance(x, bool) or not isinstance(x, int):
                raise ExactCoverError(
                    f"bounds: item {shown(item)}: {shown(x)} is not a whole number")
        if not 0 <= u <= v:
            raise ExactCoverError(
                f"bounds: item {shown(item)}: need 0 <= u <= v, got ({shown(u)}, {shown(v)})")
        if v == 0:
            raise ExactCoverError(f"bounds: item {shown(item)}: the upper bound is 0 (as in Knuth's"
                                  " DLX3, an item must allow at least one option; leave out"
                                  " the options that hold it instead)")
        if (u, v) != (1, 1):
            out[item] = (u, v)
    return {item: out[item] for item in primary if item in out}


def _costs(costs: Mapping[Hashable, int | float | Fraction] | None,
           options: Mapping[Hashable, Any]) -> dict[Hashable, int | float | Fraction]:
    """The checked costs of the options that have one."""
    if not costs:
        return {}
    if not isinstance(costs, Mapping):
        raise ExactCoverError(f"costs must be a mapping label -> cost, not"
                              f" {type(costs).__name__}")
    out: dict[Hashable, int | float | Fraction] = {}
    for label, cost in costs.items():
        try:
            known = label in options
        except TypeError:
            raise ExactCoverError(f"costs: label {shown(label)} is not hashable") from None
        if not known:
            raise ExactCoverError(f"costs: {shown(label)} is not an option label")
        if not _is_number(cost):
            raise ExactCoverError(
                f"costs: option {shown(label)}: {shown(cost)} is not a finite number")
        if cost < 0:
            raise ExactCoverError(
                f"costs: option {shown(label)}: the cost {shown(cost)} is negative")
        out[label] = cost
    return out

