"""Checking a saved state field by field: what a checkpoint's reader believes, and only that.

A digest (:mod:`dlx.files`) catches a file changed by accident; a file written by
hand, or by another program, can hold anything JSON spells.  So every field a run
restores is checked for its type and range before it is used, by the owner of the
field (:meth:`dlx.parallel.schedule.Driver.restore`, each answer's
:meth:`~dlx.parallel.answers.Answer.restore`), with these helpers: counts are whole
numbers from 0 to 2**63 - 1 (never a bool, a float, a string or a number of 4,000
digits), shares of the tree are in (0, 1], scores are whole numbers, finite floats
or fractions with a non-zero denominator, option numbers are those of the problem.
A field that is not is a :class:`StateError` naming it.

>>> whole(5, "total"), share(0.25, "a share"), score({"fraction": [1, 3]}, "a score")
(5, 0.25, Fraction(1, 3))
>>> whole(True, "total")
Traceback (most recent call last):
...
dlx.parallel.state.StateError: total is True, not a whole number from 0 to 9,223,372,036,854,775,807
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from ..errors import shown as _shown

__all__ = ["StateError", "Context", "MAX_COUNT", "whole", "share", "ratio", "flag", "listed",
           "row", "fields", "key", "numbers", "score", "saved_score", "prefix_free"]

#: The largest count a state may hold (nodes, solutions, pieces): 2**63 - 1.
MAX_COUNT = 2**63 - 1


def shown(x: Any) -> str:
    """``x`` for a message: a huge whole number by its size."""
    if type(x) is int and x.bit_length() > 64:
        return f"a number of about {round(x.bit_length() * math.log10(2)):,} digits"
    return _shown(x)


class StateError(ValueError):
    """A field of a saved state that is not what a run writes (the message names it)."""


class Context(NamedTuple):
    """What an answer needs to restore itself besides its own fields: ``solution`` turns
    option numbers into a solution (labels), checked to be an exact cover of the
    problem; ``score`` gives a solution's score (best); ``found`` is how many solutions
    the saved statistics count, and ``streamed`` how many the solutions' file holds
    (None: no such file), which the answer must agree with."""

    solution: Callable[[Any, str], tuple[Hashable, ...]]
    score: Callable[[tuple[Hashable, ...]], Any] | None
    found: int
    streamed: int | None = None


def whole(x: Any, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """``x``, a whole number from ``low`` to ``high`` (not a bool)."""
    if type(x) is not int or not low <= x <= high:
        raise StateError(f"{what} is {shown(x)}, not a whole number from {low:,} to {high:,}")
    return x


def share(x: Any, what: str) -> float:
    """``x``, a share of the search tree: a number above 0, at most 1."""
    if type(x) not in (int, float) or not 0 < x <= 1:
        raise StateError(f"{what} is {shown(x)}, not a share of the tree (above 0, at most 1)")
    return float(x)


def ratio(x: Any, what: str, slack: float = 1e-6) -> float:
    """``x``, a number from 0 to 1 (the share of the tree done: a sum of floats, which
    may pass 1 by ``slack``)."""
    if type(x) not in (int, float) or not 0 <= x <= 1 + slack:
        raise StateError(f"{what} is {shown(x)}, not a number from 0 to 1")
    return float(x)


def flag(x: Any, what: str) -> bool:
    if type(x) is not bool:
        raise StateError(f"{what} is {shown(x)}, not true or false")
    return x


def listed(x: Any, what: str, most: int | None = None) -> list[Any]:
    """``x``, a list (of at most ``most`` entries)."""
    if type(x) is not list:
        raise StateError(f"{what} is {shown(x)}, not a list")
    if most is not None and len(x) > most:
        raise StateError(f"{what} holds {len(x):,} entries, more than {most:,}")
    return x


def row(x: Any, what: str, n: int) -> list[Any]:
    """``x``, a list of exactly ``n`` parts."""
    if type(x) is not list or len(x) != n:
        raise StateError(f"{what} is {shown(x)}, not a list of {n}")
    return x


def fields(x: Any, what: str, names: Sequence[str]) -> dict[str, Any]:
    """``x``, a JSON object with exactly the fields ``names``."""
    if type(x) is not dict:
        raise StateError(f"{what} is {shown(x)}, not an object")
    missing = [n for n in names if n not in x]
    extra = sorted(set(x) - set(names))
    if missing or extra:
        raise StateError(f"{what} " + (f"lacks {', '.join(missing)}" if missing else
                                       f"has fields no run writes: {', '.join(extra)}"))
    return x


def key(x: Any, what: str, depth: int) -> tuple[int, ...]:
    """A place in search order: a list of at most ``depth`` whole numbers."""
    return tuple([whole(v, f"a part of {what}", 0, MAX_COUNT)
                  for v in listed(x, what, depth)])


def numbers(x: Any, top: int, what: str) -> tuple[int, ...]:
    """Option numbers: a list of distinct whole numbers from 0 to ``top - 1``."""
    out = tuple([whole(v, f"an option number of {what}", 0, top - 1)
                 for v in listed(x, what, top)])
    if len(set(out)) != len(out):
        raise StateError(f"{what} names an option twice")
    return out


def score(x: Any, what: str) -> int | float | Fraction:
    """A score: a whole number, a finite float, or ``{"fraction": [n, d]}`` with d > 0."""
    if type(x) is int:
        return x
    if type(x) is float:
        if not math.isfinite(x):
            raise StateError(f"{what} is {shown(x)}, not a finite number")
        return x
    if type(x) is dict and list(x) == ["fraction"] and type(x["fraction"]) is list \
            and len(x["fraction"]) == 2 and all(type(v) is int for v in x["fraction"]):
        n, d = x["fraction"]
        if d <= 0:
            raise StateError(f"{what} is the fraction {n}/{d}: its denominator must be"
                             " above 0")
        return Fraction(n, d)
    raise StateError(f"{what} is {shown(x)}, not a score (a whole number, a finite number"
                     " or {\"fraction\": [n, d]})")


def saved_score(x: Any) -> Any:
    """A score as a state holds it (a Fraction as ``{"fraction": [n, d]}``)."""
    return {"fraction": [x.numerator, x.denominator]} if isinstance(x, Fraction) else x


def prefix_free(rows: Sequence[tuple[int, ...]], what: str) -> None:
    """No row is another's, or the start of another's (for pieces: no subtree holds
    another; for keys: no place in search order is inside another)."""
    ordered = sorted(rows)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if b[:len(a)] == a:
            raise StateError(f"{what} {list(a)} " + ("is there twice" if a == b else
                                                       f"holds {list(b)} (the same subtree"
                                                       " twice)"))
