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
``seed``
    None: options in the problem's order.  A number: the options in a random
    order drawn from it (Knuth's ``s`` option), so that ``first`` finds other
    solutions, reproducibly; the answers of ``count`` and ``is_unique`` stay.
``engine``
    ``"auto"``, ``"c"`` or ``"python"`` (see :mod:`dlx.engine`).
``executor``
    None: search here.  Any :class:`concurrent.futures.Executor` (a process pool,
    a Dask cluster's): cut the tree into pieces (:func:`dlx.split`) and search
    them there, with the same answers and, run to the end, the same statistics
    (see :mod:`dlx.parallel`; ``solutions`` keeps the serial order, ``first``
    returns the first solution found).  Not for ``trace``, nor ``count`` with ``cache``.

>>> import dlx
>>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
>>> list(dlx.solutions(p)), dlx.count(p), dlx.first(p, forced=["xy"])
([('x', 'y'), ('xy',)], 2, ('xy',))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from . import engine as _engine
from .bound import Bound, Number, SearchState
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Event, Stats
from .links import Links
from .memo import Memo
from .problem import ExactCover
from .search import Heuristic, HeuristicName, run

if TYPE_CHECKING:
    from concurrent.futures import Executor

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
                 stats: Stats | None = None, heuristic: HeuristicName | Heuristic | None = None,
                 progress: Progress | None = None, forced: Iterable[Hashable] = (),
                 engine: str | None = None, python_only: bool = False,
                 seed: int | None = None) -> None:
        if not isinstance(problem, ExactCover):
            raise ExactCoverError(
                f"expected a dlx.ExactCover, got {type(problem).__name__}"
                " (build one with dlx.ExactCover({label: items}))")
        if seed is not None:
            problem = _shuffled(problem, seed)
        _check_positive(limit, "limit")
        _check_positive(max_nodes, "max_nodes")
        if timeout is not None and (isinstance(timeout, bool)
                                    or not isinstance(timeout, (int, float))
                                    or not timeout > 0 or math.isinf(timeout)):
            raise ExactCoverError(f"timeout must be a positive number of seconds or None,"
                                  f" not {shown(timeout)}")
        if stats is not None and not isinstance(stats, Stats):
            raise ExactCoverError(f"stats must be a dlx.Stats or None, not {type(stats).__name__}")
        if progress is not None and not callable(progress):
            raise ExactCoverError("progress must be a callable (taking the Stats) or None")
        if not (heuristic is None or heuristic in ("mrv", "first") or callable(heuristic)):
            raise ExactCoverError(
                f"unknown heuristic {shown(heuristic)}: use 'mrv', 'first' or a callable")
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


def _shuffled(problem: ExactCover, seed: int) -> ExactCover:
    """``problem`` with its options in the random order that ``seed`` draws (cached)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ExactCoverError(f"seed must be a whole number or None, not {shown(seed)}")
    key = ("seed", seed)
    found = problem._derived.get(key)
    if found is None:
        import random

        order = list(problem.options)
        random.Random(seed).shuffle(order)
        found = ExactCover({label: problem.options[label] for label in order},
                           secondary=problem.secondary, primary=problem.primary,
                           bounds=problem.bounds, costs=problem.costs)
        problem._derived[key] = found
    return found


def _seeded(problem: ExactCover, seed: int | None) -> ExactCover:
    """``problem``, or with ``seed`` its options in the order that seed draws."""
    if seed is None or not isinstance(problem, ExactCover):
        return problem
    return _shuffled(problem, seed)


def _check_positive(value: int | None, name: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ExactCoverError(f"{name} must be a positive whole number or None, not {shown(value)}")


def solutions(
    problem: ExactCover,
    *,
    limit: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    seed: int | None = None,
    engine: Engine | None = None,
    executor: Executor | None = None,
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
    if executor is not None:
        from . import parallel

        return parallel.solutions(_seeded(problem, seed), executor, limit=limit,
                                  max_nodes=max_nodes, timeout=timeout, stats=stats,
                                  heuristic=heuristic, progress=progress, forced=forced,
                                  engine=engine)
    req = _Request(problem, limit=limit, max_nodes=max_nodes, timeout=timeout, stats=stats,
                   heuristic=heuristic, progress=progress, forced=forced, engine=engine,
                   seed=seed)
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
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    seed: int | None = None,
    engine: Engine | None = None,
    executor: Executor | None = None,
    cache: bool | int = False,
) -> int:
    """Count the solutions (up to ``limit``), storing none of them.

    When the budget runs out, :class:`~dlx.BudgetExceeded` carries the partial
    count.  The keywords are those of every view (see :mod:`dlx.views`).

    With ``cache`` (True, or the most entries to keep), count by caching, as
    Knuth's DLX6: the number of solutions below each partial solution is kept
    by what is left to solve, and a search that leaves the same again adds it
    without searching.  It counts far more solutions than a search can visit
    (the 12,988,816 domino tilings of an 8 x 8 board take a few thousand
    nodes), with the same answer.  Its memory is bounded in bytes: each entry is a
    128-bit signature of what is left and a count, at most
    :data:`~dlx.memo.ENTRY_BYTES` (200) bytes whatever the depth; a full cache
    stores no more and warns once (:class:`~dlx.memo.CacheFullWarning`).  True
    keeps up to 2**21 entries (at most 400 MiB).  It runs on the pure engine, with
    bounds too (a larger key: see :class:`~dlx.memo.Memo`).
    ``limit`` then caps the answer.

    >>> import dlx
    >>> three = dlx.ExactCover({"x": ["a"], "y": ["a"], "z": ["a"]})
    >>> dlx.count(three), dlx.count(three, limit=2), dlx.count(three, forced=["y"])
    (3, 2, 1)
    >>> board = dlx.ExactCover({(r, c, d): [(r, c), (r + d, c + 1 - d)]
    ...                         for r in range(8) for c in range(8) for d in (0, 1)
    ...                         if r + d < 8 and c + 1 - d < 8})
    >>> dlx.count(board, cache=True)
    12988816
    """
    memo = _memo(problem, cache)
    if executor is not None:
        if memo is not None:
            raise ExactCoverError("counting by caching runs in one process: give cache= or"
                                  " executor=, not both")
        from . import parallel

        return parallel.count(_seeded(problem, seed), executor, limit=limit,
                              max_nodes=max_nodes, timeout=timeout, stats=stats,
                              heuristic=heuristic, progress=progress, forced=forced,
                              engine=engine)
    req = _Request(problem, limit=limit, max_nodes=max_nodes, timeout=timeout, stats=stats,
                   heuristic=heuristic, progress=progress, forced=forced, engine=engine,
                   python_only=memo is not None, seed=seed)
    if req.core:
        try:
            return _engine.count(req)
        except BudgetExceeded as e:
            req.frontier(e)
            raise
    search = req.run("count", memo=memo(req.links) if memo is not None else None)
    n = 0
    try:
        for k in search:
            n += k
            if limit is not None and n >= limit:
                n = limit
                break
    except BudgetExceeded as e:
        e.found = n
        req.frontier(e)
        raise
    finally:
        search.close()
    return n


def _memo(problem: ExactCover, cache: bool | int) -> Callable[[Links], Memo] | None:
    """What ``cache=`` asks for: None, or how to make the cache of a search."""
    if cache is False or cache is None:
        return None
    if cache is True:
        limit = 1 << 21
    elif isinstance(cache, int) and not isinstance(cache, bool) and cache >= 1:
        limit = cache
    else:
        raise ExactCoverError(f"cache must be True, False or a positive number of entries,"
                              f" not {shown(cache)}")
    return lambda links: Memo(links, limit)


def first(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    seed: int | None = None,
    engine: Engine | None = None,
    executor: Executor | None = None,
) -> tuple[Hashable, ...] | None:
    """The first solution (a tuple of option labels), or None when there is none.

    >>> import dlx
    >>> dlx.first(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    ('x', 'y')
    >>> dlx.first(dlx.ExactCover({"x": ["a", "b"], "y": ["b", "c"]})) is None
    True
    """
    if executor is not None:
        from . import parallel

        return parallel.first(_seeded(problem, seed), executor, max_nodes=max_nodes,
                              timeout=timeout, stats=stats, heuristic=heuristic,
                              progress=progress, forced=forced, engine=engine)
    for sol in solutions(problem, limit=1, max_nodes=max_nodes, timeout=timeout, stats=stats,
                         heuristic=heuristic, progress=progress, forced=forced, engine=engine,
                         seed=seed):
        return sol
    return None


def is_unique(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    seed: int | None = None,
    engine: Engine | None = None,
    executor: Executor | None = None,
) -> bool:
    """True when the problem has exactly one solution (the search stops at the second).

    >>> import dlx
    >>> dlx.is_unique(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    True
    """
    return count(problem, limit=2, max_nodes=max_nodes, timeout=timeout, stats=stats,
                 heuristic=heuristic, progress=progress, forced=forced, engine=engine,
                 seed=seed, executor=executor) == 1


def best(
    problem: ExactCover,
    weight: Callable[[Any], Number] | Mapping[Any, Number] | None = None,
    *,
    k: int | None = None,
    maximize: bool | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    bound: Callable[[SearchState], Number] | None = None,
    progress: Progress | None = None,
    forced: Iterable[Hashable] = (),
    seed: int | None = None,
    engine: Engine | None = None,
    executor: Executor | None = None,
) -> Any:
    """The best solution by total weight (or the ``k`` best), by branch and bound.

    Parameters
    ----------
    problem : ExactCover
    weight : callable, mapping or None
        ``weight(label)`` (or ``weight[label]``) is the number of each option (an
        int, Fraction or finite float); a solution's score is the sum over its
        options.  None: the problem's option costs (``ExactCover(costs=...)``,
        Knuth's DLX5), and the smallest total wins.
    k : int or None
        None: return the best solution; a number: return a list of the ``k`` best,
        best first (ties in search order).
    maximize : bool or None
        Largest score or smallest; None means largest for a ``weight``, smallest
        for costs.
    bound : callable or None
        ``bound(state) -> number``: an optimistic estimate (never below the truth
        when maximising, never above when minimising) of the weight the
        uncovered items can still add, given a :class:`~dlx.SearchState`.  The
        default is the generic bound of :class:`dlx.bound.Bound`; a
        problem-specific bound can prune much more.  It always runs on the pure
        engine.
    max_nodes, timeout, stats, heuristic, progress, forced, engine
        As for every view; when the budget runs out, :class:`~dlx.BudgetExceeded`
        carries the best found so far (as the view would have returned it).

    Scores are exact: int and Fraction weights are summed and compared as such
    (no tolerance).  Float weights are summed as floats (if any weight is a float,
    all are taken as floats): a solution better by less than the rounding error
    of the sums can be missed.  Fractions, ints beyond 2**62 and a ``bound`` hook
    run on the pure engine.

    Returns
    -------
    (score, solution) or None; with ``k``, a list of up to k (score, solution)
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

    The cheapest solutions by the problem's costs (DLX5):

    >>> priced = dlx.ExactCover(p.options, costs={"x": 1, "y": 1, "z": 1, "xy": 3, "xyz": 4})
    >>> dlx.best(priced, k=3)
    [(3, ('z', 'x', 'y')), (4, ('z', 'xy')), (4, ('xyz',))]
    """
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ExactCoverError(f"k must be a positive whole number or None, not {shown(k)}")
    if executor is not None:
        from . import parallel

        return parallel.best(_seeded(problem, seed), weight, executor, k=k, maximize=maximize,
                             max_nodes=max_nodes, timeout=timeout, stats=stats,
                             heuristic=heuristic, bound=bound, progress=progress,
                             forced=forced, engine=engine)
    req = _Request(problem, max_nodes=max_nodes, timeout=timeout, stats=stats,
                   heuristic=heuristic, progress=progress, forced=forced, engine=engine,
                   python_only=bound is not None, seed=seed)
    if maximize is None:
        maximize = weight is not None
    sign = 1 if maximize else -1
    weights: list[Number] = [
        sign * w for w in _weights(req.links, problem.cost if weight is None else weight)]
    # exact weights are searched as ints: Fractions times their common denominator
    unit = math.lcm(*(w.denominator for w in weights if isinstance(w, Fraction))) \
        if any(isinstance(w, Fraction) for w in weights) else 1
    if unit > 1:
        weights = [int(w * unit) for w in weights]
    hook = None
    if bound is not None:
        user = bound

        def hook(state: SearchState) -> Number:
            return sign * unit * user(state)

    found, stop = _best(req, weights, hook, k or 1)
    # (0 - score, not -score: a float zero stays 0.0, never -0.0)
    result = [(_unscaled(score if maximize else 0 - score, unit), sol) for score, sol in found]
    answer = result if k is not None else (result[0] if result else None)
    if stop is not None:
        stop.found = answer
        stop.frontier = None          # a branch-and-bound frontier depends on the best so far
        raise stop
    return answer


def _best(req: _Request, weights: list[Number], hook: Callable[[SearchState], Number] | None,
          k: int) -> tuple[list[tuple[Number, tuple[Hashable, ...]]], BudgetExceeded | None]:
    """The k best (score, labels) to maximise, best first, and the stop that cut the
    search short (None when it finished)."""
    if req.core and hook is None and _engine.fits_best(req.links, weights, k):
        return _engine.best(req, weights, k)
    bb = Bound(req.links, weights, hook, k)
    search = req.run("best", bb=bb)
    try:
        for _ in search:
            pass
    except BudgetExceeded as e:
        return bb.found, e
    finally:
        search.close()
    return bb.found, None


def _unscaled(score: Number, unit: int) -> Number:
    if unit == 1:
        return score
    value = Fraction(score, unit)  # type: ignore[arg-type]
    return value.numerator if value.denominator == 1 else value


def _weights(links: Links, weight: Callable[[Any], Number] | Mapping[Any, Number]
             ) -> list[Number]:
    """The weight of every option, in option order, checked to be finite numbers (all
    floats when any is a float)."""
    get = weight.__getitem__ if isinstance(weight, Mapping) else weight
    out: list[Number] = []
    floats = False
    for label in links.labels:
        try:
            w = get(label)
        except Exception as e:  # noqa: BLE001 - report the label whose weight failed
            raise ExactCoverError(
                f"weight of option {shown(label)} could not be computed: {e}") from e
        if isinstance(w, bool) or not isinstance(w, (int, float, Fraction)) or (
                isinstance(w, float) and not math.isfinite(w)):
            raise ExactCoverError(
                f"weight of option {shown(label)} is {shown(w)}, not a finite number")
        floats = floats or isinstance(w, float)
        out.append(w)
    if floats:
        try:
            return [float(w) for w in out]
        except OverflowError:
            raise ExactCoverError("a weight is too large to be added to float weights"
                                  " (use ints or Fractions for exact scores)") from None
    return out


def trace(
    problem: ExactCover,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    forced: Iterable[Hashable] = (),
    seed: int | None = None,
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
                   heuristic=heuristic, forced=forced, engine=engine, python_only=True,
                   seed=seed)
    search: Iterator[Event] = req.run("trace")
    return search
