"""A tiny dict-of-sets Algorithm X: the oracle the dancing-links engine is tested against.

It shares no code with :mod:`dlx.search`: items map to the set of options that
contain them (Ali Assaf's formulation of Knuth's Algorithm X), recursion instead
of an explicit stack, and colours handled by "an item is taken by one colour".
Solutions come out as frozensets of labels (order-free), which is what an oracle
should compare.

>>> from dlx.problem import ExactCover
>>> p = ExactCover({"ce": ["c", "e"], "adg": ["a", "d", "g"], "bcf": ["b", "c", "f"],
...                 "adf": ["a", "d", "f"], "bg": ["b", "g"], "deg": ["d", "e", "g"]})
>>> reference_solutions(p) == [frozenset({"adf", "bg", "ce"})]
True
"""

from __future__ import annotations

from collections.abc import Hashable

from .problem import Colored, ExactCover

__all__ = ["reference_solutions"]


def reference_solutions(problem: ExactCover) -> list[frozenset[Hashable]]:
    """Every solution of ``problem`` as a frozenset of labels (small problems only)."""
    opts = {label: dict(_entries(items)) for label, items in problem.options.items()}
    primary = set(problem.primary)
    holders: dict[Hashable, set[Hashable]] = {i: set() for i in primary}
    for label, items in opts.items():
        for item in items:
            if item in holders:
                holders[item].add(label)
    out: list[frozenset[Hashable]] = []

    def compatible(label: Hashable, taken: dict[Hashable, Hashable]) -> bool:
        for item, color in opts[label].items():
            if item in taken and (color is None or taken[item] != color):
                return False
        return True

    def solve(open_items: set[Hashable], chosen: list[Hashable],
              taken: dict[Hashable, Hashable]) -> None:
        if not open_items:
            out.append(frozenset(chosen))
            return
        item = min(open_items, key=lambda i: len(holders[i]))
        for label in holders[item]:
            if not compatible(label, taken):
                continue
            new_taken = dict(taken)
            new_taken.update(opts[label])
            solve(open_items - opts[label].keys(), chosen + [label], new_taken)

    solve(primary, [], {})
    return out


def _entries(items: tuple[Hashable, ...]) -> list[tuple[Hashable, Hashable]]:
    """(item, colour or None) pairs; uncoloured items get a fresh unshareable marker."""
    out: list[tuple[Hashable, Hashable]] = []
    for entry in items:
        if isinstance(entry, Colored):
            out.append((entry.item, ("colour", entry.color)))
        else:
            out.append((entry, None))
    return out
