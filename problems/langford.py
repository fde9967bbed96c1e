"""Langford pairs L(2, n): arrange 1, 1, 2, 2, ..., n, n so that k numbers separate the two k's.

One option ``Pair(k, j)`` per way to place the two copies of k, at slots j and
j + k + 1 (slots numbered from 0), covers three items: the number ``("num", k)``
and the two slots ``("slot", j)`` and ``("slot", j + k + 1)``.  Every item is
primary: each number is placed once and each of the 2n slots is filled.
Solutions exist only when n mod 4 is 0 or 3, and come in mirror-image pairs,
both of which are counted (OEIS A014552 counts each pair once).

``reduce=True`` keeps one of each pair by hand, as Knuth does: the largest odd
number k may only start in the left half (an odd k is never its own mirror image,
so exactly one of each pair is left).  The generic encoding finds the same with
``dlx.count(..., up_to_symmetry=True)``, its mirror found by itself.

>>> from problems import langford
>>> langford.count(3), langford.count(7), langford.count(5)
(2, 52, 0)
>>> langford.count(7, reduce=True), langford.count(7, up_to_symmetry=True)
(26, 26)
>>> langford.first(4)
(4, 1, 3, 1, 2, 4, 3, 2)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any, NamedTuple, cast

import dlx

__all__ = ["Pair", "COUNTS", "encode", "decode", "solutions", "count", "first", "is_solution"]

#: The number of Langford sequences (both mirror images) for n = 1..12.
COUNTS = {1: 0, 2: 0, 3: 2, 4: 2, 5: 0, 6: 0, 7: 52, 8: 300, 9: 0, 10: 0, 11: 35584,
          12: 216288}


class Pair(NamedTuple):
    """The two copies of number k at slots j and j + k + 1."""

    k: int
    j: int


def encode(n: int, *, reduce: bool = False) -> dlx.ExactCover:
    """The exact-cover problem of the Langford sequences of 1..n (with ``reduce``, one
    of each mirror-image pair).

    >>> encode(3)
    ExactCover(9 options, 9 primary items, 0 secondary items)
    >>> encode(3, reduce=True)
    ExactCover(8 options, 9 primary items, 0 secondary items)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number >= 1, not {n!r}")
    odd = n if n % 2 else n - 1             # Pair(k, j)'s mirror image is Pair(k, 2n-k-2-j)
    options: dict[Hashable, list[Hashable]] = {
        Pair(k, j): [("num", k), ("slot", j), ("slot", j + k + 1)]
        for k in range(1, n + 1) for j in range(2 * n - k - 1)
        if not (reduce and k == odd and j > 2 * n - k - 2 - j)}
    primary = [("num", k) for k in range(1, n + 1)] + [("slot", j) for j in range(2 * n)]
    return dlx.ExactCover(options, primary=primary)


def decode(solution: Iterable[Pair]) -> tuple[int, ...]:
    """The sequence, slot by slot.

    >>> decode([Pair(1, 1), Pair(2, 2), Pair(3, 0)])
    (3, 1, 2, 1, 3, 2)
    """
    pairs = list(solution)
    seq = [0] * (2 * len(pairs))
    for k, j in pairs:
        seq[j] = seq[j + k + 1] = k
    return tuple(seq)


def solutions(n: int, *, reduce: bool = False, **search: Any) -> Iterator[tuple[int, ...]]:
    """Every Langford sequence of 1..n, lazily (one of each mirror-image pair with
    ``reduce``)."""
    for sol in dlx.solutions(encode(n, reduce=reduce), **search):
        yield decode(cast("tuple[Pair, ...]", sol))


def count(n: int, *, reduce: bool = False, **search: Any) -> int:
    """How many Langford sequences of 1..n there are (mirror images counted, unless
    ``reduce``)."""
    return dlx.count(encode(n, reduce=reduce), **search)


def first(n: int, *, reduce: bool = False, **search: Any) -> tuple[int, ...] | None:
    """The first sequence found, or None."""
    return next(solutions(n, reduce=reduce, limit=1, **search), None)


def is_solution(seq: tuple[int, ...]) -> bool:
    """Independent check: each k in 1..n twice, with k numbers between the two.

    >>> is_solution((2, 3, 1, 2, 1, 3)), is_solution((1, 1, 2, 2, 3, 3))
    (True, False)
    """
    n = len(seq) // 2
    where: dict[int, list[int]] = {}
    for slot, k in enumerate(seq):
        where.setdefault(k, []).append(slot)
    return (len(seq) == 2 * n and set(where) == set(range(1, n + 1))
            and all(len(s) == 2 and s[1] - s[0] == k + 1 for k, s in where.items()))
