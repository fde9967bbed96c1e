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
    The choice rule of step X3, by name: one of :data:`dlx.rules.RULES` (``"mrv"``
    by default, the item of fewest options; the table says what each does and
    needs), or a callable ``f([(item, options left), ...]) -> index``.
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
    solutions, reproducibly; the answers of ``count`` and ``is_unique`` stay.  A
    rule that draws random numbers draws them from it too (0 when None).
``restarts``
    (:func:`dlx.first` only) True: search by randomised restarts, runs of growing
    node budgets, most choosing with random draws of their own, until one finds a
    solution (see :mod:`dlx.restarts`): *a* solution, not the first in search
    order.  The seed then seeds the draws only (the options keep their order).
``engine``
    ``"auto"``, ``"c"`` or ``"python"``; ``"c-links"``, ``"c-bits"`` and ``"c-tree"``
    pick one of the core's representations, for tests and benchmarks (see
    :mod:`dlx.engine`).  ``"c-tree"`` keeps X3's choice in a tree, for big problems:
    under ``"mrv"`` (and Algorithm M's rule), while ``"sharp"`` and ``"weighted"``
    keep their scan of every item.
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
from .rules import RESTARTS, RULES, HeuristicName, names

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from .search import Heuristic

__all__ = ["Keywords", "SearchKeywords", "Options", "Engine", "Progress", "check_positive",
           "check_seconds"]

#: The values of ``engine=``.
Engine: TypeAlias = Literal["auto", "c", "python", "c-links", "c-bits", "c-tree", "cp-sat",
                          "race"]

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
    restarts: bool


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
    restarts: bool = False

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
        if not (h is None or isinstance(h, str) and h in RULES or callable(h)):
            raise ExactCoverError(f"unknown heuristic {shown(h)}: use one of {names()}, or a"
                                  " callable")
        if opts.restarts is not False:
            _check_restarts(view, opts)
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


def _check_restarts(view: str, opts: Options) -> None:
    """``restarts=`` is True or False, for ``first``, searched here by the random rule."""
    if not isinstance(opts.restarts, bool):
        raise ExactCoverError(f"restarts must be True or False, not {shown(opts.restarts)}")
    if view != "first":
        raise ExactCoverError(f"restarts= is for first(): {view}() searches the whole tree")
    if opts.executor is not None:
        raise ExactCoverError("restarts run in one process: give restarts= or executor=,"
                              " not both")
    if opts.heuristic is not None and opts.heuristic != RESTARTS.name:
        raise ExactCoverError(f"restarts choose by the rule {RESTARTS.name!r} (ties drawn at"
                              " random): leave heuristic= out")


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
