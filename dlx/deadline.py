"""``Deadline``: one time limit shared by many searches.

A view's ``timeout=`` bounds one search.  Work made of many searches (a command
over a file of problems, a generator that makes puzzle after puzzle) holds one
:class:`Deadline` for the whole: each search gets what :meth:`~Deadline.remaining`
says, and :meth:`~Deadline.check` between them raises the
:class:`~dlx.BudgetExceeded` a view raises when its time runs out.

>>> import dlx
>>> deadline = dlx.Deadline(5)
>>> p = dlx.ExactCover({"o1": ["a"], "o2": ["a"]})
>>> [dlx.count(p, timeout=deadline.remaining()) for _ in range(3)]
[2, 2, 2]
>>> deadline.check()                  # passes: time is left
>>> dlx.Deadline(None).remaining() is None
True
"""

from __future__ import annotations

import time
from typing import Any

from .errors import BudgetExceeded
from .options import check_seconds

__all__ = ["Deadline"]


class Deadline:
    """The end of a time limit: ``limit`` seconds from when it is made (None: no end).

    ``limit`` is checked as every ``timeout=`` is (a number of seconds above 0, or
    None).  :meth:`remaining` is what is left, for the next search's ``timeout=``;
    :meth:`check` raises :class:`~dlx.BudgetExceeded` (its ``timeout`` the whole
    ``limit``) once the time is up, and :meth:`exceeded` is that error, for a caller
    that adds what it made by then.

    >>> Deadline(None).expired(), 0 < Deadline(5).remaining() <= 5
    (False, True)
    >>> Deadline(0.5).exceeded(found=3).found
    3
    """

    __slots__ = ("limit", "end")

    limit: float | None
    end: float | None

    def __init__(self, limit: float | None) -> None:
        self.limit = check_seconds(limit, "timeout")
        self.end = None if self.limit is None else time.monotonic() + self.limit

    def remaining(self) -> float | None:
        """Seconds left (a tiny positive number once past the end), or None: no limit."""
        if self.end is None:
            return None
        return max(self.end - time.monotonic(), 1e-6)

    def expired(self) -> bool:
        """Has the time run out?"""
        return self.end is not None and time.monotonic() >= self.end

    def check(self) -> None:
        """Raise :class:`~dlx.BudgetExceeded` if the time is up."""
        if self.expired():
            raise self.exceeded()

    def exceeded(self, found: Any = None) -> BudgetExceeded:
        """The error that says the time ran out (``found``: what was made by then)."""
        return BudgetExceeded(None, found, timeout=self.limit)

    def __repr__(self) -> str:
        if self.limit is None:
            return "Deadline(None)"
        return f"Deadline({self.limit:g}, {self.remaining():.3g} s left)"
