"""The views of a search: ``solutions``, ``count``, ``first``, ``is_unique``, ``best``, ``trace``.

Each is a few lines over one search loop: :func:`dlx.search.run` on a private
copy of the problem's links (the pure engine), or its twin in the compiled core
(:mod:`dlx.engine`).  Both give the same solutions in the same order, with the
same :class:`~dlx.Stats`.  Every view takes the same keywords:

``max_nodes``, ``timeout``
    A node budget and a wall-clock limit in seconds; when either runs out the
    answer is *unknown*: :class:`~dlx.BudgetExceeded`, carrying what was found.
``forced``
    Option labels to choose first: the search explores only below that partial
    solution (a clash among them means no solution).  Its statistics count that
    subtree as the whole search counts it: its root, at level ``len(forced)``, is
    one node, and the updates of committing the last forced option are its own.
    When a budget stops a search, :attr:`~dlx.BudgetExceeded.frontier` lists the
    unexplored subtrees as such forced tuples: searching them adds up exactly.
``stats``, ``progress``
    A :class:`~dlx.Stats` filled in place, and a callback called with it every
    :data:`~dlx.search.PROGRESS_EVERY` nodes (an exception it raises stops the
    search cleanly).
``heuristic``
    ``"mrv"`` (default: the first item of fewest options), ``"first"``, or a
    callable ``f([(item, options left), ...]) -> index``.
``engine``
    ``"auto"``, ``"c"`` or ``"python"`` (see :mod:`dlx.engine`).

>>> import dlx
>>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
>>> list(dlx.solutions(p)), dlx.count(p), dlx.first(p, forced=["xy"])
([('x', 'y'), ('xy',)], 2, ('xy',))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any, Literal, TypeAlias

from . import engine as _engine
from .errors import BudgetExceeded, ExactCoverError
from .events import Event, Stats
from .links import Links
from .problem import ExactCover
from .search import Heuristic, SearchState, run

__all__ = ["solutions", "count", "first", "is_unique", "best", "trace", "Engine"]

#: The values of ``engine=``.
Engine: TypeAlias = Literal["auto", "c", "python"]
Progress: TypeAlias = Callable[[Stats], object]


class _Request:
    """The checked arguments of one view call (checked before any search starts)."""

    __slots__ = ("problem", "links", "limit", "max_nodes", "timeout", "stats", "heuristic",
                 "progress", "forced", "core")

    def __init__(self, problem: ExactCover, *, limit: int | None = None,
                 max_nodes: int | None = None, timeout: float | None = None,
                 stats: Stats | None = None, heuristic: str | Heuristic | None = None,
                 progress: Progress | None = None, forced: Iterable[Hashable] = (),
                 engine: str | None = None, python_only: bool = False) -> None:
        if not isinstance(problem, ExactCover):
            raise ExactCoverError(
                f"expected a dlx.ExactCover, got {type(problem).__name__}"
                " (build one with dlx.ExactCover({label: items}))")
        _check_positive(limit, "limit")
        _check_positive(max_nodes, "max_nodes")
        if timeout is not None and (isinstance(timeout, bool)
                                    or not isinstance(timeout, (int, float))
                                    or not timeout > 0 or math.isinf(timeout)):
            raise ExactCoverError(f"timeout must be a positive number of seconds or None,"
                                  f" not {timeout!r}")
        if stats is not None and not isinstance(stats, Stats):
            raise ExactCoverError(f"stats must be a dlx.Stats or None, not {type(stats).__name__}")
        if progress is not None and not callable(progress):
            raise ExactCoverError("progress must be a callable (taking the Stats) or None")
        if not (heuristic is None or heuristic in ("mrv", "first") or callable(heuristic)):
            raise ExactCoverError(
                f"unknown heuristic {heuristic!r}: use 'mrv', 'first' or a callable")
        self.problem = problem
        self.links = Links.of(problem)
        self.limit = limit
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.stats = Stats() if stats is None else stats
        self.heuristic = heuristic
        self.progress = progress
        self.forced = self.links.forced_options(forced)     # option indices
        use_core = _engine.select(engine)
        self.core = (use_core and not python_only and not callable(heuristic)
                     and _engine.fits(self.links))

    def frontier(self, e: BudgetExceeded) -> None:
        """Turn the option indices of ``e.frontier`` into labels."""
        if e.frontier is not None:
            labels = self.links.labels
            e.frontier = [tuple([labels[o] for o in piece]) for piece in e.frontier]

    def run(self, mode: Any, **extra: Any) -> Any:
        """The pure engine's search on a private copy of the links."""
        return run(self.links.copy(), mode, stats=self.stats, max_nodes=self.max_nodes,
                   timeout=self.timeout, heuristic=self.heuristic, progress=self.progress,
                   forced=self.links.first_primary(self.forced), **extra)


def _check_positive(value: int | None, name: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ExactCoverError(f"{name} must be a positive whole number or None, not {value!r}")


def solutions(
    problem: ExactCover,
    *,
    limit: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    engine: Engine | None = None,
) -> Iterator[tuple[Hashable, ...]]:
    """Yield solutions lazily, each a tuple of option labels in the order chosen.

    Parameters
    ----------
    problem : ExactCover
    limit : int or None
        Stop after this many solutions.
    max_nodes, timeout, stats, heuristic, progress, forced, engine
        As for every view (see :mod:`dlx.views`).  When the budget runs out,
        :class:`~dlx.BudgetExceeded` carries the solutions yielded so far.

    Examples
    --------
    >>> import dlx
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
    >>> list(dlx.solutions(p))
    [('x', 'y'), ('xy',)]
    >>> list(dlx.solutions(p, limit=1))
    [('x', 'y')]
    """
    req = _Request(problem, limit=limit, max_nodes=max_nodes, timeout=timeout, stats=stats,
                   heuristic=heuristic, progress=progress, forced=forced, engine=engine)
    search = _engine.solutions(req) if req.core else req.run("solutions")
    return _collect(search, req)


def _collect(search: Iterator[tuple[Hashable, ...]], req: _Request
             ) -> Iterator[tuple[Hashable, ...]]:
    found: list[tuple[Hashable, ...]] = []
    try:
        for sol in search:
            found.append(sol)
            yield sol
            if len(found) == req.limit:
                return
    except BudgetExceeded as e:
        e.found = found
        req.frontier(e)
        raise
    finally:
        close = getattr(search, "close", None)
        if close is not None:
            close()


def count(
    problem: ExactCover,
    *,
    limit: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    engine: Engine | None = None,
) -> int:
    """Count the solutions (up to ``limit``), storing none of them.

    When the budget runs out, :class:`~dlx.BudgetExceeded` carries the partial
    count.  The keywords are those of every view (see :mod:`dlx.views`).

    >>> import dlx
    >>> three = dlx.ExactCover({"x": ["a"], "y": ["a"], "z": ["a"]})
    >>> dlx.count(three), dlx.count(three, limit=2), dlx.count(three, forced=["y"])
    (3, 2, 1)
    """
    req = _Request(problem, limit=limit, max_nodes=max_nodes, timeout=timeout, stats=stats,
                   heuristic=heuristic, progress=progress, forced=forced, engine=engine)
    if req.core:
        try:
            return _engine.count(req)
        except BudgetExceeded as e:
            req.frontier(e)
            raise
    search = req.run("count")
    n = 0
    try:
        for _ in search:
            n += 1
            if n == limit:
                break
    except BudgetExceeded as e:
        e.found = n
        req.frontier(e)
        raise
    finally:
        search.close()
    return n


def first(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    engine: Engine | None = None,
) -> tuple[Hashable, ...] | None:
    """The first solution (a tuple of option labels), or None when there is none.

    >>> import dlx
    >>> dlx.first(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    ('x', 'y')
    >>> dlx.first(dlx.ExactCover({"x": ["a", "b"], "y": ["b", "c"]})) is None
    True
    """
    for sol in solutions(problem, limit=1, max_nodes=max_nodes, timeout=timeout, stats=stats,
                         heuristic=heuristic, progress=progress, forced=forced, engine=engine):
        return sol
    return None


def is_unique(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    engine: Engine | None = None,
) -> bool:
    """True when the problem has exactly one solution (the search stops at the second).

    >>> import dlx
    >>> dlx.is_unique(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    True
    """
    return count(problem, limit=2, max_nodes=max_nodes, timeout=timeout, stats=stats,
                 heuristic=heuristic, progress=progress, forced=forced, engine=engine) == 1


def best(
    problem: ExactCover,
    weight: Callable[[Any], float] | Mapping[Any, float],
    *,
    maximize: bool = True,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    bound: Callable[[SearchState], float] | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    engine: Engine | None = None,
) -> tuple[float, tuple[Hashable, ...]] | None:
    """The solution of greatest (or least) total weight, by branch and bound.

    Parameters
    ----------
    problem : ExactCover
    weight : callable or mapping
        ``weight(label)`` (or ``weight[label]``) is the number of each option; a
        solution's score is the sum over its options.
    maximize : bool
        Largest score (default) or smallest.
    bound : callable or None
        ``bound(state) -> number``: an optimistic estimate (never below the truth
        when maximising, never above when minimising) of the weight the
        uncovered items can still add, given a :class:`~dlx.SearchState`.  The
        default is the generic bound of :class:`dlx.search.Bound`; a
        problem-specific bound can prune much more.  It always runs on the pure
        engine.
    max_nodes, timeout, stats, heuristic, progress, forced, engine
        As for every view; when the budget runs out, :class:`~dlx.BudgetExceeded`
        carries the best ``(score, solution)`` found so far (or None).

    Returns
    -------
    (score, solution) or None
        The first best solution in search order; None when there is no solution.

    Examples
    --------
    Fewest options: minimise the count (weight 1 each).

    >>> import dlx
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "z": ["c"], "xy": ["a", "b"],
    ...                     "xyz": ["a", "b", "c"]})
    >>> dlx.best(p, lambda label: 1, maximize=False)
    (1, ('xyz',))
    >>> dlx.best(p, {"x": 5, "y": 1, "z": 1, "xy": 2, "xyz": 4})
    (7, ('z', 'x', 'y'))
    """
    req = _Request(problem, max_nodes=max_nodes, timeout=timeout, stats=stats,
                   heuristic=heuristic, progress=progress, forced=forced, engine=engine,
                   python_only=bound is not None)
    sign = 1 if maximize else -1
    weights = [sign * w for w in _weights(req.links, weight)]
    integral = all(isinstance(w, int) for w in weights)
    if req.core:
        found, out_of_budget = _engine.best(req, weights, integral)
        signed = None if found is None else _signed(found, sign, integral)
        if out_of_budget:
            raise BudgetExceeded(max_nodes, signed, req.stats, timeout=timeout)
        return signed
    hook = None
    if bound is not None:
        user = bound

        def hook(state: SearchState) -> float:
            return float(sign * user(state))
    result: tuple[float, tuple[Hashable, ...]] | None = None
    search = req.run("best", weights=weights, bound=hook, integral=integral)
    try:
        for score, sol in search:
            result = (score, sol)
    except BudgetExceeded as e:
        e.found = None if result is None else _signed(result, sign, integral)
        e.frontier = None           # a branch-and-bound frontier depends on the best so far
        raise
    finally:
        search.close()
    return None if result is None else _signed(result, sign, integral)


def _weights(links: Links, weight: Callable[[Any], float] | Mapping[Any, float]) -> list[float]:
    """The weight of every option, in option order, checked to be finite numbers."""
    get = weight.__getitem__ if isinstance(weight, Mapping) else weight
    out: list[float] = []
    for label in links.labels:
        try:
            w = get(label)
        except Exception as e:  # noqa: BLE001 - report the label whose weight failed
            raise ExactCoverError(f"weight of option {label!r} could not be computed: {e}") from e
        if isinstance(w, bool) or not isinstance(w, (int, float)) or math.isnan(w) \
                or math.isinf(w):
            raise ExactCoverError(f"weight of option {label!r} is {w!r}, not a finite number")
        out.append(w)
    return out


def _signed(result: tuple[float, tuple[Hashable, ...]], sign: int,
            integral: bool) -> tuple[float, tuple[Hashable, ...]]:
    score = sign * result[0]
    return (int(score) if integral else score), result[1]


def trace(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: str | Heuristic | None = None,
    forced: Iterable[Hashable] = (),
    engine: Engine | None = None,
) -> Iterator[Event]:
    """Yield an event (:mod:`dlx.events`) between every two steps of the search.

    The links are consistent at every pause (no cover is half done).  Tracing
    is the pure engine's loop emitting events; ``engine`` is checked (``"c"``
    still needs the core to be built) so that every view takes the same keywords.

    >>> import dlx
    >>> for event in dlx.trace(dlx.ExactCover({"x": ["a", "b"], "y": ["b"]})):
    ...     print(event)
    L0 choose item a (1 option)
    L0 cover a
    L0 try x (1 of 1)
    L0 cover b
    L1 solution: x
    L1 backtrack
    L0 uncover b
    L0 uncover a
    L0 backtrack
    """
    req = _Request(problem, max_nodes=max_nodes, timeout=timeout, stats=stats,
                   heuristic=heuristic, forced=forced, engine=engine, python_only=True)
    search: Iterator[Event] = req.run("trace")
    return search
