"""The arrays of :meth:`dlx.ExactCover.from_csr`: integer buffers, their checks, and the
options read from them.

:func:`ints` takes any buffer of integers (NumPy's arrays, ``array.array``) or a list
of ints without copying what it need not; :func:`numbers` is the pure engine's twin
of ``dlx._core.csr`` (the check and numbering of the arrays in one pass), and
:func:`fault` the error of what either found; :class:`Numbered` is the problem's
``options``, which makes an option's tuple of items only when it is looked at.

>>> from array import array
>>> entries, starts, skipped, primary, n = numbers(
...     ints([0, 2, 3], "indptr"), ints([0, 1, 1], "indices"), -1, ints([1], "secondary"))
>>> memoryview(entries).cast("i").tolist(), skipped, n
([2, 1, 2, 1, 2], [1], 2)
>>> options = Numbered(entries, starts, (None, "a", "x"), range(2))
>>> options
{0: ('a', 'x'), 1: ('x',)}
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, ItemsView, Iterator, Mapping, Sequence, ValuesView
from typing import Any

from .errors import (
    DuplicateItemError,
    ExactCoverError,
    OptionError,
    RepeatedItemError,
    UnknownItemError,
    shown,
)

__all__ = ["MAX_ITEMS", "Numbered", "fault", "ints", "labels_of", "numbers"]

#: The most items from_csr takes (the core numbers them in 32 bits, with room to spare).
MAX_ITEMS = (2**31 - 1) // 4

_INT_FORMATS = frozenset("bBhHiIlLqQnN")


def ints(values: Any, name: str) -> memoryview:
    """``values`` as a 1-D buffer of native integers (a list of ints is copied into one)."""
    if isinstance(values, str):
        raise ExactCoverError(f"{name} must be integers, not the string {shown(values)}")
    try:
        view = memoryview(values)
    except TypeError:
        try:
            view = memoryview(array("q", values))
        except (TypeError, OverflowError, ValueError):
            raise ExactCoverError(f"{name} must be an array of integers (or a sequence of"
                                  f" ints), not {shown(values)}") from None
    fmt = view.format[1:] if view.format.startswith("@") else view.format
    if view.ndim != 1 or fmt not in _INT_FORMATS:
        raise ExactCoverError(
            f"{name} must be a 1-D array of integers in the machine's byte order, not one"
            f" of {view.ndim} dimensions and format {view.format!r} (for NumPy:"
            f" numpy.ascontiguousarray({name}, dtype=numpy.int64))")
    if not view.c_contiguous:
        view = memoryview(array("q", view.tolist()))
    return view


def labels_of(labels: Any, n: int) -> tuple[Hashable, ...]:
    """The labels of from_csr's ``n`` options: hashable, one each, no two alike."""
    if isinstance(labels, (str, bytes)):
        raise ExactCoverError(f"labels must be a list of labels, not the string {shown(labels)}")
    out = tuple(labels)
    if len(out) != n:
        raise ExactCoverError(f"labels: {len(out):,} labels for {n:,} options")
    try:
        if len(set(out)) == n:
            return out
    except TypeError:
        pass
    seen: dict[Hashable, int] = {}
    for o, label in enumerate(out):
        try:
            hash(label)
        except TypeError:
            raise OptionError(f"option label {shown(label)} is not hashable") from None
        if label in seen:
            raise OptionError(f"labels: {shown(label)} labels options {seen[label]} and {o}")
        seen[label] = o
    return out


def numbers(indptr: memoryview, indices: memoryview, n_items: int, secondary: memoryview
                 ) -> tuple[Any, ...]:
    """What ``dlx._core.csr`` returns, in Python (the pure engine's from_csr)."""
    ip, ix, sec = indptr.tolist(), indices.tolist(), secondary.tolist()
    if n_items < 0:             # (as the core: an index past 2**63 is out of range below)
        top = max((k for k in ix + sec if k < 1 << 63), default=-1)
        if top >= MAX_ITEMS:
            return ("item large", top, MAX_ITEMS, 0)
        n_items = top + 1
    codes = [0] * n_items
    for j, k in enumerate(sec):
        if not 0 <= k < n_items:
            return ("secondary range", j, k, n_items)
        if codes[k]:
            return ("secondary twice", j, k, 0)
        codes[k] = -(j + 1)
    n1 = 0
    for k in range(n_items):
        if codes[k] < 0:
            codes[k] = n_items - len(sec) - codes[k]
        else:
            n1 += 1
            codes[k] = n1
    if not ip:
        return ("indptr empty", 0, 0, 0)
    if ip[0] != 0:
        return ("indptr start", ip[0], 0, 0)
    for o in range(len(ip) - 1):
        if ip[o + 1] < ip[o]:
            return ("indptr order", o, ip[o], ip[o + 1])
        if ip[o + 1] > len(ix):
            return ("indptr past", o, ip[o + 1], len(ix))
    if ip[-1] != len(ix):
        return ("indptr short", ip[-1], len(ix), 0)
    entries, starts, skipped = array("i"), array("q"), []
    for o in range(len(ip) - 1):
        starts.append(len(entries))
        entries.append(ip[o + 1] - ip[o])
        seen: set[int] = set()
        for j in range(ip[o], ip[o + 1]):
            k = ix[j]
            if not 0 <= k < n_items:
                return ("item range", o, j - ip[o], k)
            if k in seen:
                return ("item twice", o, j - ip[o], k)
            seen.add(k)
            entries.append(codes[k])
        if all(c > n1 for c in entries[starts[-1] + 1:]):
            skipped.append(o)
    starts.append(len(entries))
    primary = array("i", [k for k in range(n_items) if codes[k] <= n1])
    return entries.tobytes(), starts.tobytes(), skipped, primary.tobytes(), n_items


def fault(fault: tuple[Any, ...], indptr: memoryview, indices: memoryview,
               secondary: memoryview, n_items: int, names: Sequence[Hashable] | None,
               labels: Sequence[Hashable]) -> ExactCoverError:
    """The error of a fault that ``dlx._core.csr`` found (``n_items`` -1: the items are
    the indices named), with the values read from the arrays."""
    kind, a, b, c = fault

    def name(k: int) -> str:
        return shown(k if names is None else names[k])

    if kind == "item large":
        return ExactCoverError(f"item index {a:,} is too large: from_csr takes at most {b:,}"
                               " items")
    if kind == "secondary range":
        top = f"0..{c - 1}" if c else "none: there are no items"
        return UnknownItemError(f"secondary[{a}] = {secondary[a]} is not an item index ({top})")
    if kind == "secondary twice":
        return DuplicateItemError(f"secondary item {name(b)} is declared twice")
    if kind == "indptr empty":
        return ExactCoverError("indptr is empty: it holds 0, then where each option ends in"
                               " indices (one entry more than there are options)")
    if kind == "indptr start":
        return ExactCoverError(f"indptr[0] is {indptr[0]}, not 0")
    if kind == "indptr order":
        return ExactCoverError(f"indptr decreases at option {shown(labels[a])}: indptr[{a}] ="
                               f" {indptr[a]}, indptr[{a + 1}] = {indptr[a + 1]}")
    if kind == "indptr past":
        return ExactCoverError(f"indptr[{a + 1}] = {indptr[a + 1]} is past the end of indices"
                               f" ({len(indices):,} entries)")
    if kind == "indptr short":
        return ExactCoverError(f"indptr ends at {indptr[len(indptr) - 1]}, but indices has"
                               f" {len(indices):,} entries")
    at = indptr[a] + b
    if kind == "item range":
        k = indices[at]
        why = "negative" if k < 0 else "too large" if n_items < 0 else \
            f"not an item (0..{n_items - 1})" if n_items else "not an item (there are none)"
        return UnknownItemError(f"option {shown(labels[a])}: item index {k} (indices[{at}])"
                                f" is {why}")
    return RepeatedItemError(f"option {shown(labels[a])}: item {name(indices[at])} appears twice")


class Numbered(Mapping[Hashable, tuple[Hashable, ...]]):
    """The options of a problem made from arrays (:meth:`ExactCover.from_csr`), read
    from its numbered form as they are looked at: an option's tuple of items is made
    when it is asked for, so that a million options are never a million tuples.
    Read-only; equal to the dict of the same options, and printed as it."""

    __slots__ = ("_entries", "_starts", "_numbers", "_at", "_names", "_labels", "_index")

    def __init__(self, entries: bytes, starts: bytes, names: tuple[Hashable, ...],
                 labels: Sequence[Hashable]) -> None:
        self._entries, self._starts = entries, starts
        self._numbers = memoryview(entries).cast("i")
        self._at = memoryview(starts).cast("q")
        self._names, self._labels = names, labels        # names: item number -> name
        self._index: dict[Hashable, int] | None = None

    def _option(self, o: int) -> tuple[Hashable, ...]:
        at = self._at[o]
        return tuple(map(self._names.__getitem__, self._numbers[at + 1:self._at[o + 1]].tolist()))

    def __getitem__(self, label: Hashable) -> tuple[Hashable, ...]:
        labels = self._labels
        if type(label) is int and isinstance(labels, range):
            if 0 <= label < len(labels):
                return self._option(label)
            raise KeyError(label)
        if self._index is None:
            self._index = {name: o for o, name in enumerate(labels)}
        return self._option(self._index[label])

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._labels)

    def __len__(self) -> int:
        return len(self._labels)

    def values(self) -> ValuesView[tuple[Hashable, ...]]:
        return _Values(self)

    def items(self) -> ItemsView[Hashable, tuple[Hashable, ...]]:
        return _Items(self)

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._entries, self._starts, self._names, self._labels))


class _Values(ValuesView[tuple[Hashable, ...]]):
    """The options of a :class:`Numbered`, in order (not looked up by label)."""

    _mapping: Numbered

    def __iter__(self) -> Iterator[tuple[Hashable, ...]]:
        return map(self._mapping._option, range(len(self._mapping)))


class _Items(ItemsView[Hashable, tuple[Hashable, ...]]):
    """The labels and options of a :class:`Numbered`, in order."""

    _mapping: Numbered

    def __iter__(self) -> Iterator[tuple[Hashable, tuple[Hashable, ...]]]:
        return zip(self._mapping, _Values(self._mapping), strict=True)
