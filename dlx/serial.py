"""The searches in this process: what the views run when no ``executor`` is given, and
what every parallel worker runs on its pieces.

Each function takes a problem and checked :class:`~dlx.options.Options`, and runs
one search: on the compiled core when it is built and can hold the problem
(:mod:`dlx.engine`), else on the pure engine, :func:`dlx.search.run`, over a
private copy of the problem's links.  Both give the same solutions in the same
order, with the same :class:`~dlx.Stats`.

>>> import dlx
>>> from dlx.options import Options
>>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
>>> count(p, Options(), limit=None), list(solutions(p, Options(forced=("xy",)), limit=None))
(2, [('xy',)])
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from . import engine as _engine
from .bound import Bound, Number, SearchState, checked_weight
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Event, Stats
from .links import Links
from .memo import Memo
from .options import Options, check_positive
from .problem import ExactCover
from .rules import draws
from .search import run

if TYPE_CHECKING:
    from .zdd import ZDD

__all__ = ["Request", "solutions", "count", "first", "best", "trace", "zdd", "weights_of",
           "seeded"]


class Request:
    """One search's problem (shuffled by the seed), links, forced options (as option
    indices), statistics, and which engine runs it.

    Its clock starts here: the time limit bounds the whole call, laying the problem
    out included (90,000 options take longer to lay out on the pure engine than a
    second of search).  When the time is up before the search starts,
    :class:`~dlx.BudgetExceeded` is raised as a search raises it, with ``nothing``
    found, no nodes, and the whole search (the forced options) as the frontier."""

    __slots__ = ("problem", "links", "limit", "opts", "stats", "forced", "core", "deadline",
                 "nothing", "resumable")

    def __init__(self, problem: ExactCover, opts: Options, *, limit: int | None = None,
                 python_only: bool = False, nothing: Any = None, resumable: bool = True
                 ) -> None:
        self.deadline = None if opts.timeout is None else time.monotonic() + opts.timeout
        self.opts = opts
        self.nothing = nothing
        self.resumable = resumable          # (has a frontier when stopped: not best)
        self.stats = Stats() if opts.stats is None else opts.stats
        problem = seeded(problem, opts.seed)
        check_positive(limit, "limit")
        self.problem = problem
        self.limit = limit
        on_time = None if self.deadline is None else self.on_time
        self.links = Links.of(problem, on_time)
        self.forced = self.links.forced_options(opts.forced)     # option indices
        use_core = _engine.select(opts.engine)
        self.core = (use_core and not python_only and not callable(opts.heuristic)
                     and _engine.fits(self.links))
        if not self.core:
            self.links.lay_out(on_time)     # (the core lays out its own copy)
        self.on_time()

    def on_time(self) -> None:
        """Raise BudgetExceeded, as a search that has not started would, when the time
        is up (called while the problem is laid out, and before the search starts)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            stats = self.stats
            stats.nodes = stats.updates = stats.solutions = 0
            stats.profile = []
            nothing = self.nothing
            raise BudgetExceeded(None, list(nothing) if isinstance(nothing, list) else nothing,
                                 stats, timeout=self.opts.timeout,
                                 frontier=[self.opts.forced] if self.resumable
                                 and not self.problem.bounds else None)

    def left(self) -> float | None:
        """The seconds the search has (None: no limit; when they ran out since
        :meth:`on_time` was asked, a moment: the search stops at its first check)."""
        if self.deadline is None:
            return None
        return max(self.deadline - time.monotonic(), 1e-6)

    @property
    def max_nodes(self) -> int | None:
        return self.opts.max_nodes

    @property
    def timeout(self) -> float | None:
        return self.opts.timeout

    @property
    def heuristic(self) -> Any:
        return self.opts.heuristic

    @property
    def progress(self) -> Any:
        return self.opts.progress

    def frontier(self, e: BudgetExceeded) -> None:
        """Have the option indices of ``e.frontier`` turned into labels (when it is
        read: see :meth:`dlx.BudgetExceeded.frontier_later`)."""
        labels = self.links.labels

        def named(pieces: list[tuple[int, ...]]) -> list[tuple[Hashable, ...]]:
            return [tuple([labels[o] for o in piece]) for piece in pieces]

        e.frontier_later(named)

    def run(self, mode: Any, **extra: Any) -> Any:
        """The pure engine's search on a private copy of the links."""
        o = self.opts
        self.on_time()
        return run(self.links.copy(), mode, stats=self.stats, max_nodes=o.max_nodes,
                   timeout=o.timeout, heuristic=o.heuristic, progress=o.progress,
                   forced=self.links.first_primary(self.forced), deadline=self.deadline,
                   seed=draws(o.seed), **extra)


def seeded(problem: ExactCover, seed: int | None) -> ExactCover:
    """``problem``, or with a ``seed`` its options in the random order that seed draws
    (made once per seed and kept with the problem)."""
    if not isinstance(problem, ExactCover):
        raise ExactCoverError(
            f"expected a dlx.ExactCover, got {type(problem).__name__}"
            " (build one with dlx.ExactCover({label: items}))")
    if seed is None:
        return problem
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


def solutions(problem: ExactCover, opts: Options, *, limit: int | None
              ) -> Iterator[tuple[Hashable, ...]]:
    """:func:`dlx.solutions` here (checked now, searched lazily)."""
    req = Request(problem, opts, limit=limit, nothing=[])
    search = _engine.solutions(req) if req.core else req.run("solutions")
    return _collect(search, req)


def _collect(search: Iterator[tuple[Hashable, ...]], req: Request
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


def first(problem: ExactCover, opts: Options) -> tuple[Hashable, ...] | None:
    """:func:`dlx.first` here."""
    for sol in solutions(problem, opts, limit=1):
        return sol
    return None


def count(problem: ExactCover, opts: Options, *, limit: int | None,
          cache: bool | int = False) -> int:
    """:func:`dlx.count` here (with ``cache``, counting by caching)."""
    entries = cache_entries(cache)
    req = Request(problem, opts, limit=limit, nothing=0)
    if req.core:
        try:
            n = _engine.count(req, cache=entries)
        except BudgetExceeded as e:
            req.frontier(e)
            raise
        if n is not None:
            return n if limit is None else min(n, limit)
        # (None: a count past the core's 128 bits: the pure engine's ints go on)
    memo = None if entries is None else Memo(req.links, entries)
    search = req.run("count", memo=memo)
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


#: ``cache=True`` keeps up to this many entries (at most ENTRY_BYTES each).
CACHE_ENTRIES = 1 << 21

#: A cache of more entries than this can never fill (2**62 entries of ENTRY_BYTES
#: each is more memory than exists, and more than the core's 64-bit counters hold):
#: a larger ``cache=`` means this, no limit in practice, as budgets of 2**62 or more
#: mean none (:func:`dlx.engine.budget`).
MAX_CACHE_ENTRIES = 1 << 62


def cache_entries(cache: bool | int) -> int | None:
    """What ``cache=`` asks for: None (no caching), or the most entries to keep.

    >>> cache_entries(False), cache_entries(True), cache_entries(2**63) == MAX_CACHE_ENTRIES
    (None, 2097152, True)
    """
    if cache is False or cache is None:
        return None
    if cache is True:
        return CACHE_ENTRIES
    if isinstance(cache, int) and not isinstance(cache, bool) and cache >= 1:
        return min(cache, MAX_CACHE_ENTRIES)
    raise ExactCoverError(f"cache must be True, False or a positive number of entries,"
                          f" not {shown(cache)}")


def best(problem: ExactCover, weight: Callable[[Any], Number] | Mapping[Any, Number] | None,
         opts: Options, *, k: int | None, maximize: bool | None,
         bound: Callable[[SearchState], Number] | None) -> Any:
    """:func:`dlx.best` here."""
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ExactCoverError(f"k must be a positive whole number or None, not {shown(k)}")
    req = Request(problem, opts, python_only=bound is not None,
                  nothing=None if k is None else [], resumable=False)
    problem = req.problem
    if maximize is None:
        maximize = weight is not None
    sign = 1 if maximize else -1
    weights: list[Number] = [
        sign * w for w in weights_of(req.links, problem.cost if weight is None else weight,
                                     None if req.deadline is None else req.on_time)]
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

    req.on_time()                       # (reading the weights took some of the time)
    found, stop = _best(req, weights, hook, k or 1)
    # (0 - score, not -score: a float zero stays 0.0, never -0.0)
    result = [(_unscaled(score if maximize else 0 - score, unit), sol) for score, sol in found]
    answer = result if k is not None else (result[0] if result else None)
    if stop is not None:
        stop.found = answer
        stop.frontier = None          # a branch-and-bound frontier depends on the best so far
        raise stop
    return answer


def _best(req: Request, weights: list[Number], hook: Callable[[SearchState], Number] | None,
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


def weights_of(links: Links, weight: Callable[[Any], Number] | Mapping[Any, Number],
               check: Callable[[], object] | None = None) -> list[Number]:
    """The weight of every option, in option order, checked to be finite numbers (all
    floats when any is a float).  ``check`` is called every few thousand options (what
    it raises, a time limit running out, stops the reading)."""
    get = weight.__getitem__ if isinstance(weight, Mapping) else weight
    out: list[Number] = []
    floats = False
    every = Links.CHECK_EVERY - 1 if check is not None else -1
    for o, label in enumerate(links.labels):
        if o & every == every:
            check()                         # type: ignore[misc]  # (every is -1 without)
        w = checked_weight(get, label)
        floats = floats or isinstance(w, float)
        out.append(w)
    if floats:
        try:
            return [float(w) for w in out]
        except OverflowError:
            raise ExactCoverError("a weight is too large to be added to float weights"
                                  " (use ints or Fractions for exact scores)") from None
    return out


def zdd(problem: ExactCover, opts: Options, *, cache: bool | int = True) -> ZDD:
    """:func:`dlx.zdd` here: counting by caching, building the diagram as it goes."""
    from .zdd import ZDDBuilder, from_core

    entries = cache_entries(cache) or CACHE_ENTRIES
    req = Request(problem, opts)
    links = req.links
    if links.multi:
        raise ExactCoverError("the ZDD of a problem with bounds on items is not built (Knuth's"
                              " DLX6 has none either); count it with dlx.count(cache=True)")
    if req.core:
        made = _engine.zdd(req, entries)
        if made is not None:
            return from_core(tuple(links.labels), *made, forced=req.forced)
    builder = ZDDBuilder(links.labels)
    memo = Memo(links, entries, builder)
    search = req.run("count", memo=memo)
    try:
        for _ in search:
            pass
    except BudgetExceeded as e:
        e.frontier = None           # (the diagram is not half built: there is none)
        raise
    finally:
        search.close()
    root = memo.last if req.stats.nodes else 0      # (forced options that clash: none)
    for f in reversed(req.forced):                  # the forced options come first
        root = builder.make(f, 0, root)
    return builder.finish(root)


def trace(problem: ExactCover, opts: Options) -> Iterator[Event]:
    """:func:`dlx.trace` (the pure engine's loop, always)."""
    req = Request(problem, opts, python_only=True)
    search: Iterator[Event] = req.run("trace")
    return search
