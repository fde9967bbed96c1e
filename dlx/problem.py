"""ExactCover: an exact-cover problem as options (rows) over items (columns).

An *option* (a row of the 0/1 matrix) has a label and a list of *items* (columns).
A solution is a set of options that covers every *primary* item exactly once and
every *secondary* item at most once.  A secondary item may carry a colour in an
option (``Colored(item, colour)``); options that agree on an item's colour may
share it (Knuth's Algorithm C, "exact covering with colours").

>>> p = ExactCover({"o1": ["a", "b"], "o2": ["b", "c"], "o3": ["c"]}, secondary=["c"])
>>> p.primary, p.secondary
(('a', 'b'), ('c',))
>>> len(p)
3
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from .errors import (
    ColorError,
    DuplicateItemError,
    ExactCoverError,
    OptionError,
    RepeatedItemError,
    UnknownItemError,
)

__all__ = ["Colored", "ExactCover"]


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
        raise OptionError(f"{what} {value!r} is not hashable") from None


class ExactCover:
    """An exact-cover problem: labelled options over primary and secondary items.

    Parameters
    ----------
    options : Mapping[Hashable, Iterable[Hashable]]
        Option label -> its items.  Labels and items are any hashable values
        (tuples such as ``("row", 3)`` included).  A secondary item may be given as
        ``Colored(item, colour)``.  Insertion order is kept and decides the order of
        solutions and traces.
    secondary : Iterable[Hashable]
        Items that must be covered at most once (rather than exactly once).
    primary : Iterable[Hashable] or None
        The items that must be covered exactly once.  ``None`` means every item
        named by an option that is not secondary, in order of first appearance.
        When given, an option naming an item that is neither primary nor secondary
        is an error.

    Raises
    ------
    ExactCoverError
        A subclass naming the option and the item at fault: an item repeated in an
        option, an unknown item, an item declared twice or both primary and
        secondary, a colour on a primary item, a string given as an item list.

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

    __slots__ = ("options", "primary", "secondary", "_colored", "_table", "__weakref__")

    options: dict[Hashable, tuple[Hashable, ...]]
    primary: tuple[Hashable, ...]
    secondary: tuple[Hashable, ...]

    def __init__(
        self,
        options: Mapping[Hashable, Iterable[Hashable]],
        secondary: Iterable[Hashable] = (),
        primary: Iterable[Hashable] | None = None,
    ) -> None:
        if not isinstance(options, Mapping):
            raise ExactCoverError(
                f"options must be a mapping from label to items, not {type(options).__name__}"
                " (for a list of rows, use dict(enumerate(rows)))"
            )
        sec = self._declared(secondary, "secondary")
        sec_set = set(sec)
        prim: list[Hashable] | None = None
        if primary is not None:
            prim = self._declared(primary, "primary")
            for item in prim:
                if item in sec_set:
                    raise DuplicateItemError(f"item {item!r} is both primary and secondary")
        prim_set = set(prim) if prim is not None else None
        seen_primary: dict[Hashable, None] = {}
        opts: dict[Hashable, tuple[Hashable, ...]] = {}
        colored = False
        for label, items in options.items():
            _check_hashable(label, "option label")
            if isinstance(items, (str, bytes)):
                raise OptionError(
                    f"option {label!r}: items must be a list such as {list(str(items).split())!r},"
                    f" not the string {items!r}"
                )
            try:
                item_list = tuple(items)
            except TypeError:
                raise OptionError(
                    f"option {label!r}: items must be iterable, not {type(items).__name__}"
                ) from None
            names: set[Hashable] = set()
            for entry in item_list:
                if isinstance(entry, Colored):
                    item = entry.item
                    _check_hashable(item, f"option {label!r}: item")
                    _check_hashable(entry.color, f"option {label!r}: colour of item")
                    if item not in sec_set:
                        raise ColorError(
                            f"option {label!r}: item {item!r} has a colour but is not secondary"
                        )
                    colored = True
                else:
                    item = entry
                try:
                    repeated = item in names     # (this also tests that item is hashable)
                except TypeError:
                    raise OptionError(f"option {label!r}: item {item!r} is not hashable") from None
                if repeated:
                    raise RepeatedItemError(f"option {label!r}: item {item!r} appears twice")
                names.add(item)
                if item in sec_set:
                    continue
                if prim_set is not None and item not in prim_set:
                    raise UnknownItemError(
                        f"option {label!r}: item {item!r} is neither primary nor secondary"
                    )
                seen_primary[item] = None
            opts[label] = item_list
        self.options = opts
        self.primary = tuple(prim) if prim is not None else tuple(seen_primary)
        self.secondary = tuple(sec)
        self._colored = colored
        self._table: Any = None

    @staticmethod
    def _declared(items: Iterable[Hashable], kind: str) -> list[Hashable]:
        if isinstance(items, (str, bytes)):
            raise ExactCoverError(f"{kind} items must be a list, not the string {items!r}")
        out: list[Hashable] = []
        seen: set[Hashable] = set()
        for item in items:
            _check_hashable(item, f"{kind} item")
            if item in seen:
                raise DuplicateItemError(f"{kind} item {item!r} is declared twice")
            seen.add(item)
            out.append(item)
        return out

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
        return (
            f"ExactCover({len(self.options)} options, {len(self.primary)} primary items,"
            f" {len(self.secondary)} secondary items)"
        )

    def item_names(self, label: Hashable) -> tuple[Hashable, ...]:
        """The items of option ``label`` without their colours.

        >>> ExactCover({"r": ["a", Colored("x", 1)]}, secondary=["x"]).item_names("r")
        ('a', 'x')
        """
        return tuple(e.item if isinstance(e, Colored) else e for e in self.options[label])
