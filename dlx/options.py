"""The keywords every view takes, written once.

:class:`Keywords` names them for type checkers (the views take ``**keywords:
Unpack[Keywords]``), and :class:`Options` holds them checked, for the searches:

``max_nodes``, ``timeout``
    A node budget and a wall-clock limit in seconds; when either runs out the
    answer is *unknown*: :class:`~dlx.BudgetExceeded`, carrying what was found.
``stats``, ``progress``
    A :class:`~dlx.Stats` filled in place, and a callback called with it every
    :data:`~dlx.search.PROGRESS_EVERY` nodes (an exception it raises stops the
    search cleanly).
``heuristic``
    ``"mrv"`` (default: the first item of fewest options), ``"first"``, ``"sharp"``
    (Knuth's dlx2-sharp: the fewest options among the items named ``#...``, another
    item only when it has one option left), ``"weighted"`` (Knuth's SSXCC variant:
    the fewest options divided by a weight that grows each time the item's list runs
    dry; not with bounds), or a callable ``f([(item, options left), ...]) -> index``.
``forced``
    Option labels to choose first: the search explores only below that partial
    solution (a clash among them means no solution).  Its statistics count that
    subtree as the whole search counts it: its root, at level ``len(forced)``, is
    one node, and the updates of committing the last forced option are its own.
    When a budget stops a search, :attr:`~dlx.BudgetExceeded.frontier` lists the
    unexplored subtrees as such forced tuples: searching them adds up exactly.
``seed``
    None: options in the problem's order.  A number: the options in a random
    order drawn from it (Knuth's ``s`` option), so that ``first`` finds other
    solutions, reproducibly; the answers of ``count`` and ``is_unique`` stay.
``engine``
    ``"auto"``, ``"c"`` or ``"python"``; ``"c-links"`` and ``"c-bits"`` pick one of the
    core's two representations, for tests and benchmarks (see :mod:`dlx.engine`).
    ``"cp-sat"`` (OR-Tools' CP-SAT, :mod:`dlx.cpsat`) and ``"race"`` (the core and
    CP-SAT side by side, :mod:`dlx.race`) serve ``first``, ``is_unique`` and ``best``.
``executor``
    None: search here.  Any :class:`concurrent.futures.Executor` (a process pool,
    a Dask cluster's): cut the tree into pieces (:func:`dlx.split`) and search
    them there (see :mod:`dlx.parallel`).

>>> Options.of("count", {"max_nodes": 10, "forced": ["x"]})
Options(max_nodes=10, forced=('x',))
>>> Options.of("count", {"max_node": 10})
Traceback (most recent call last):
    ...
TypeError: count() got an unexpected keyword argument 'max_node'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypedDict

from .errors import ExactCoverError, shown
from .events import Stats

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from .search import Heuristic, HeuristicName

__all__ = ["Keywords", "SearchKeywords", "Options", "Engine", "Progress", "check_positive",
           "check_seconds"]

#: The values of ``engine=``.
Engine: TypeAlias = Literal["auto", "c", "python", "c-links", "c-bits", "cp-sat", "race"]

#: A ``progress`` callback: called with the Stats (or a parallel run's Report).
Progress: TypeAlias = Callable[[Stats], object]


class SearchKeywords(TypedDict, total=False):
    """The keywords of one search, wherever it runs (the parallel views take these)."""

    max_nodes: int | None
    timeout: float | None
    stats: Stats | None
    heuristic: HeuristicName | Heuristic | None
    progress: Progress | None
    forced: Iterable[Hashable]
    engine: Engine | None


class Keywords(SearchKeywords, total=False):
    """The keywords every view takes (see the module's docstring for each)."""

    seed: int | None
    executor: Executor | None


@dataclass(frozen=True)
class Options:
    """The keywords of one view call, checked (before any search starts)."""

    max_nodes: int | None = None
    timeout: float | None = None
    stats: Stats | None = None
    heuristic: HeuristicName | Heuristic | None = None
    progress: Progress | None = None
    forced: tuple[Hashable, ...] = ()
    seed: int | None = None
    engine: Engine | None = None
    executor: Executor | None = None

    def __repr__(self) -> str:
        given = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                          if getattr(self, f.name) != f.default)
        return f"Options({given})"

    @classmethod
    def of(cls, view: str, keywords: Mapping[str, Any]) -> Options:
        """Check the ``keywords`` given to ``view`` (a TypeError for an unknown one, as
        Python gives, and an ExactCoverError for a bad value)."""
        for name in keywords:
            if name not in _NAMES:
                raise TypeError(f"{view}() got an unexpected keyword argument {name!r}")
        opts = cls(**keywords)
        check_positive(opts.max_nodes, "max_nodes")
        check_seconds(opts.timeout, "timeout")
        if opts.stats is not None and not isinstance(opts.stats, Stats):
            raise ExactCoverError(f"stats must be a dlx.Stats or None, not"
                                  f" {type(opts.stats).__name__}")
        if opts.progress is not None and not callable(opts.progress):
            raise ExactCoverError("progress must be a callable (taking the Stats) or None")
        h = opts.heuristic
        if not (h is None or h in ("mrv", "first", "sharp", "weighted") or callable(h)):
            raise ExactCoverError(f"unknown heuristic {shown(h)}: use 'mrv', 'first', 'sharp',"
                                  " 'weighted' or a callable")
        if opts.seed is not None and (isinstance(opts.seed, bool)
                                      or not isinstance(opts.seed, int)):
            raise ExactCoverError(f"seed must be a whole number or None, not {shown(opts.seed)}")
        forced = opts.forced
        if isinstance(forced, (str, bytes)) or not isinstance(forced, Iterable):
            raise ExactCoverError(f"forced must be a list of option labels, not"
                                  f" {shown(forced)}")
        return opts if isinstance(forced, tuple) else replace(opts, forced=tuple(forced))

    def but(self, **changes: Any) -> Options:
        """These options with some changed (not checked again)."""
        return replace(self, **changes)


_NAMES = frozenset(SearchKeywords.__annotations__) | frozenset(Keywords.__annotations__)


def check_seconds(value: float | None, name: str = "timeout") -> float | None:
    """``value`` as seconds (a float), or None (no limit); ExactCoverError unless it is
    None or a number above 0 that a float holds (not inf or nan, nor an int too large
    for a float: as for ``float("inf")``, no deadline can be set so far off).

    >>> check_seconds(2), check_seconds(None)
    (2.0, None)
    >>> check_seconds(10**400)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dlx.errors.ExactCoverError: timeout must be ... not 1000...000... (too large for a float)
    """
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            seconds = float(value)
        except OverflowError:
            raise ExactCoverError(f"{name} must be a positive number of seconds or None, not"
                                  f" {shown(value)} (too large for a float)") from None
        if 0 < seconds < math.inf:
            return seconds
    raise ExactCoverError(f"{name} must be a positive number of seconds or None, not"
                          f" {shown(value)}")


def check_positive(value: int | None, name: str) -> None:
    """Raise ExactCoverError unless ``value`` is None or a whole number >= 1."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ExactCoverError(f"{name} must be a positive whole number or None, not {shown(value)}")
