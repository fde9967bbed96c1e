"""Search statistics and the step events of :func:`dlx.trace` (module ``dlx.events``).

A *node* is a partial solution the search visits: the root, plus one for every
option it tries.  An *update* is one link change that removes a node from an item
list (or an item from the item list), as in Knuth's "updates" count.  Both are
deterministic for a given problem and heuristic.

Events are small frozen records, each with a one-line ``str``:

>>> print(Try(level=0, option="adf", k=1, d=2))
L0 try adf (1 of 2)
>>> print(Choose(level=1, item="b", length=1))
L1 choose item b (1 option)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

__all__ = [
    "Stats", "Event", "Choose", "Cover", "Try", "Uncover", "Solution", "Backtrack",
]


@dataclass
class Stats:
    """Counters of one search, filled in place when passed as ``stats=``.

    ``nodes``: partial solutions visited (root included); ``updates``: link
    removals; ``solutions``: solutions reached; ``profile[l]``: nodes at level l
    (level = number of options chosen); ``explored``: the fraction of the search
    tree done, estimated from where the search is as Knuth's DLX programs do (the
    k-th of d branches at a level counts (k - 1) / d of what is left there, as if
    the tree were uniform): 1.0 when the search is over, and what ``progress``
    callbacks show meanwhile.  (It is left out of comparisons of Stats.)
    ``symmetry_saved``: in a count by symmetry (``count(..., symmetry=True)``), the
    nodes not visited because a symmetric image's count stood in for them: each
    subtree counted once for its whole orbit is taken as large as the one searched.

    >>> import dlx
    >>> s = dlx.Stats()
    >>> dlx.count(dlx.ExactCover({"x": ["a"], "y": ["a"]}), stats=s)
    2
    >>> s.nodes, s.solutions, s.profile
    (3, 2, [1, 2])
    """

    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    profile: list[int] = field(default_factory=list)
    explored: float = field(default=0.0, compare=False)
    symmetry_saved: int = 0

    @property
    def max_level(self) -> int:
        """The deepest level reached."""
        return len(self.profile) - 1

    def __str__(self) -> str:
        return (f"{_plural(self.nodes, 'node')}, {_plural(self.updates, 'update')},"
                f" {_plural(self.solutions, 'solution')}, depth {self.max_level}")


def _plural(n: int, word: str) -> str:
    """``1 node``, ``2 nodes``, ``1,024 nodes``."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


class Event:
    """Base class of the events yielded by :func:`dlx.trace`."""

    __slots__ = ()
    level: int


def _name(x: Hashable) -> str:
    return x if isinstance(x, str) else repr(x)


@dataclass(frozen=True, slots=True)
class Choose(Event):
    """Step X3: the search picks ``item``, which has ``length`` options left."""

    level: int
    item: Hashable
    length: int

    def __str__(self) -> str:
        s = "" if self.length == 1 else "s"
        return f"L{self.level} choose item {_name(self.item)} ({self.length} option{s})"


@dataclass(frozen=True, slots=True)
class Cover(Event):
    """Item ``item`` was covered (or, with ``color``, purified to that colour)."""

    level: int
    item: Hashable
    color: Hashable = None

    def __str__(self) -> str:
        if self.color is not None:
            return f"L{self.level} purify {_name(self.item)}:{_name(self.color)}"
        return f"L{self.level} cover {_name(self.item)}"


@dataclass(frozen=True, slots=True)
class Try(Event):
    """Step X5: try ``option``, the ``k``-th of the ``d`` options of the chosen item."""

    level: int
    option: Hashable
    k: int
    d: int

    def __str__(self) -> str:
        if self.option is None:     # Algorithm M's null choice: no option, the item is done
            return f"L{self.level} try no option: the item is done"
        return f"L{self.level} try {_name(self.option)} ({self.k} of {self.d})"


@dataclass(frozen=True, slots=True)
class Uncover(Event):
    """Item ``item`` was uncovered (or, with ``color``, unpurified)."""

    level: int
    item: Hashable
    color: Hashable = None

    def __str__(self) -> str:
        if self.color is not None:
            return f"L{self.level} unpurify {_name(self.item)}:{_name(self.color)}"
        return f"L{self.level} uncover {_name(self.item)}"


@dataclass(frozen=True, slots=True)
class Solution(Event):
    """Step X2: every primary item is covered; ``options`` is the solution."""

    level: int
    options: tuple[Hashable, ...]

    def __str__(self) -> str:
        return f"L{self.level} solution: " + ", ".join(_name(o) for o in self.options)


@dataclass(frozen=True, slots=True)
class Backtrack(Event):
    """Step X8: nothing more to try at ``level``; return to the level above."""

    level: int

    def __str__(self) -> str:
        return f"L{self.level} backtrack"
