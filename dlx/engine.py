"""Which engine runs a search: the compiled core (``dlx._core``) or the pure loop.

Both engines run the same algorithm (:func:`dlx.search.run`, and its C twin in
``dlx/_core/``) and give the same solutions in the same order with the same
:class:`~dlx.Stats`.  The views (:func:`dlx.count`, :func:`dlx.solutions`, ...)
take ``engine="auto" | "c" | "python"``; when it is not given, the environment
variable ``DLX_ENGINE`` decides, and then ``"auto"``.

* ``"auto"``: the core when it was built, else the pure engine.
* ``"c"``: the core; :class:`~dlx.ExactCoverError` when it was not built.
* ``"python"``: the pure engine.
* ``"c-links"``, ``"c-bits"``, ``"c-tree"``: the core, on one of its
  representations (for tests and benchmarks; ``"c"`` chooses).  The core searches
  a small problem on bitsets of live options (``dlx/_core/bits.c``) when they pay,
  by its size and density; a big one (thousands of primary items) on the links
  with a tournament tree of the items (``dlx/_core/tree.h``), which makes X3's
  choice in about O(log items) per link update instead of a scan of every item at
  every node; and the rest on the links with the scan (``"c-links"``).  All give
  the same solutions in the same order and the same Stats.  The bitsets serve
  problems without colours or bounds under the rules ``"mrv"`` and ``"first"``,
  not counting by caching and not :func:`dlx.best`; the tree serves the rule
  ``"mrv"`` (Algorithm M's under bounds), not counting by caching: ``"first"``
  needs no scan, and ``"sharp"``, ``"weighted"`` keep theirs.  Anything a
  representation does not serve runs on the links with the scan, whatever is
  asked.

Two more names are not Dancing Links (:data:`SOLVERS`): ``"cp-sat"`` hands
:func:`dlx.first`, :func:`dlx.is_unique` and :func:`dlx.best` to OR-Tools' CP-SAT
(:mod:`dlx.cpsat`), and ``"race"`` runs the core and CP-SAT side by side
(:mod:`dlx.race`); every other request refuses them, saying why (:func:`refusal`),
and ``DLX_ENGINE`` does not take them.

Whatever the choice, a few requests always run on the pure engine, because they
call back into Python at every step: :func:`dlx.trace`, a callable
``heuristic=`` and a ``bound=`` hook for :func:`dlx.best`; so do problems too big
for the core's 32-bit counters (over ``_core.MAX_NODES`` nodes, about 134
million, which is far more than fits in memory as Python lists anyway, or a
bound over :data:`MAX_BOUND`).

The core copies the problem's links into C arrays of its own for every search
(the static part is built once per problem and cached), so searches share no
state.  :func:`dlx.solutions` stays lazy: each ``next()`` runs the C loop up to
the next solution and pauses there.  A search releases the GIL after its first
few thousand link updates, so other threads run meanwhile; every
:data:`~dlx.search.PROGRESS_EVERY` nodes it takes the GIL back to call
``progress`` and to run signal handlers (Ctrl-C raises KeyboardInterrupt there,
in the main thread).

>>> from dlx import engine
>>> engine.active() in ("c", "python")
True
>>> engine.select("python")
False
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Iterator
from typing import Any

from .errors import BudgetExceeded, ExactCoverError, shown
from .links import Links
from .rules import draws, rule

try:
    # (unbuilt, ``dlx._core`` is the folder of its C sources, a namespace package with
    # no Search in it: that is "not built" too)
    from . import _core
    from ._core import Search as _Search  # noqa: F401
except ImportError:  # not built (no compiler), or blocked on purpose
    _core = None

__all__ = ["ENGINES", "SOLVERS", "refusal", "MAX_BOUND", "available", "active", "describe",
           "select", "fits",
           "representation",
           "engine_for",
           "fits_best", "table", "budget", "restartable"]

#: The values of ``engine=`` and of the ``DLX_ENGINE`` environment variable.
ENGINES = ("auto", "c", "python", "c-links", "c-bits", "c-tree")

#: The back-ends that are not Dancing Links: they answer ``first``, ``is_unique`` and
#: ``best`` (:mod:`dlx.cpsat`, :mod:`dlx.race`), and every other request refuses them.
SOLVERS = ("cp-sat", "race")

def available() -> bool:
    """True when the compiled core ``dlx._core`` can be imported."""
    return _core is not None


def _requested(engine: str | None) -> str:
    if engine is None:
        engine = os.environ.get("DLX_ENGINE", "").strip().lower() or "auto"
        where = "the DLX_ENGINE environment variable"
    else:
        where = "engine="
    if engine in SOLVERS:
        raise ExactCoverError(refusal(engine) if where == "engine=" else
                              f"{where} names a Dancing Links engine ('auto', 'c' or"
                              f" 'python'); give engine={engine!r} to first, is_unique or best")
    if engine not in ENGINES:
        raise ExactCoverError(f"{where} must be 'auto', 'c' or 'python' (or 'c-links',"
                              f" 'c-bits', 'c-tree', 'cp-sat', 'race'), not {shown(engine)}")
    return engine


def refusal(engine: str, view: str = "this search") -> str:
    """Why ``engine`` (a solver, :data:`SOLVERS`) cannot serve ``view``.

    >>> refusal("cp-sat", "count")  # doctest: +ELLIPSIS
    "engine='cp-sat' cannot do count: CP-SAT finds one solution per solve; ..."
    """
    return (f"engine={engine!r} cannot do {view}: CP-SAT finds one solution per solve;"
            " listing or counting them is Dancing Links' work (engine='auto', 'c' or"
            " 'python'); engine='cp-sat' and 'race' serve first, is_unique and best")


def select(engine: str | None = None) -> bool:
    """True when a search asked for with ``engine`` should run on the core.

    ``None`` means "as ``DLX_ENGINE`` says, else auto".  Raises
    :class:`~dlx.ExactCoverError` for an unknown name, or for ``"c"`` when the core
    was not built.
    """
    engine = _requested(engine)
    if engine == "python":
        return False
    if _core is None:
        if engine.startswith("c"):
            raise ExactCoverError(
                "the compiled core dlx._core is not available (it is built by"
                " `pip install` when a C compiler is present); use engine='python' or 'auto'"
            )
        return False
    return True


def engine_for(problem: Any = None, *, engine: str | None = None) -> str:
    """Which engine a search runs on, ``"c"`` or ``"python"``: the compiled core when
    it is built, ``engine=`` (or ``DLX_ENGINE``) allows it, and it can hold
    ``problem`` (an :class:`~dlx.ExactCover`, or None: any problem it can hold).
    Whatever this says, :func:`dlx.trace`, a callable ``heuristic`` and a ``bound=``
    hook run on the pure engine.  Raises ExactCoverError for an unknown engine, or
    ``"c"`` when the core was not built.

    >>> import dlx
    >>> dlx.engine_for(engine="python")
    'python'
    >>> dlx.engine_for(dlx.ExactCover({"x": ["a"]})) == dlx.engine_for()
    True
    """
    if not select(engine):
        return "python"
    if problem is not None:
        from .problem import ExactCover

        if not isinstance(problem, ExactCover):
            raise ExactCoverError(f"expected a dlx.ExactCover, got {type(problem).__name__}")
        if not fits(Links.of(problem)):
            return "python"
    return "c"


def representation(engine: str | None = None) -> int:
    """The core's code for the representation ``engine`` asks for: 0 the links with
    X3's scan (``"c-links"``), 1 the bitsets where they serve (``"c-bits"``), 2 the
    links with X3's tree where it serves (``"c-tree"``), -1 the core's choice
    (anything else)."""
    return {"c-links": 0, "c-bits": 1, "c-tree": 2}.get(_requested(engine), -1)


def active() -> str:
    """The engine a search uses by default: ``"c"`` or ``"python"`` (never raises)."""
    try:
        return "c" if select(None) else "python"
    except ExactCoverError:
        return "python"


def describe() -> str:
    """One line for ``dlx --version`` and ``dlx demo``: the default engine and why.

    >>> describe().startswith(("C core", "pure Python"))
    True
    """
    try:
        use = select(None)
    except ExactCoverError as e:
        return f"pure Python ({e})"
    if use:
        return "C core (dlx._core)"
    if _core is None:
        return "pure Python (dlx._core not built)"
    return "pure Python (chosen by DLX_ENGINE)"


# ------------------------------------------------------------------ the core's views


def table(links: Links) -> Any:
    """The core's copy of the master links ``links`` (static arrays, node layout and
    option walks), built once and cached on them."""
    t = links._shared.get("core")
    if t is None:
        assert _core is not None
        bound, slack = links.BOUND[:links.N1 + 1], links.SLACK[:links.N1 + 1]
        source = links._source          # (read once: another thread may lay them out)
        if source is not None:
            # numbered by ExactCover's fast path: the core lays them out itself
            t = _core.Table.from_entries(links.N1, links.N, source[0], bound, slack)
        else:
            t = _core.Table(
                links.N1, links.N, links.LLINK, links.RLINK, links.ULINK, links.DLINK,
                links.LEN, links.TOP, links.COLOR, links.OPT, len(links.labels), bound, slack)
        links._shared["core"] = t
    return t


def _labels(links: Links) -> tuple[Hashable, ...]:
    """The option labels as the core's searches take them (a tuple, made once per
    problem: a million labels cost a search 10 ms to copy and the collector more)."""
    labels: tuple[Hashable, ...] | None = links._shared.get("labels")
    if labels is None:
        labels = links._shared["labels"] = tuple(links.labels)
    return labels


#: The largest bound ``v`` (of an item's bounds ``(u, v)``) the core holds in its 32-bit
#: counters; a problem with a larger one runs on the pure engine, whose ints are unbounded.
MAX_BOUND = (1 << 30) - 1


def fits(links: Links) -> bool:
    """True when the core can hold ``links``: at most ``_core.MAX_NODES`` nodes (about
    134 million) and bounds of at most :data:`MAX_BOUND`; otherwise the pure engine
    searches (the same answers, only slower).

    >>> import dlx
    >>> from dlx.links import Links
    >>> huge = dlx.ExactCover({"x": ["a"], "y": ["a"]}, bounds={"a": (1, 3 * 10**9)})
    >>> fits(Links.of(huge)), dlx.count(huge)
    (False, 3)
    """
    if _core is None or links.node_count() > _core.MAX_NODES:
        return False
    return not links.multi or max(links.BOUND) <= MAX_BOUND


def _search(req: Any, mode: str, **extra: Any) -> Any:
    """A core search for a view's checked request (see :mod:`dlx.views`); ``extra``
    adds to (or overrides) what the request says."""
    assert _core is not None
    limit = req.limit if mode == "count" else None
    links = req.links
    keywords = rule(req.heuristic).core_keywords(links, draws(req.opts.seed))
    keywords.update(max_nodes=budget(req.max_nodes), limit=budget(limit), timeout=_left(req),
                    progress=req.progress, stats=req.stats, forced=req.forced,
                    bits=representation(req.opts.engine))
    keywords.update(extra)
    return _core.Search(table(links), _labels(links), mode, **keywords)


def restartable(req: Any, **run: Any) -> Any:
    """The core's search for :mod:`dlx.restarts`: ``req``'s, with the first run's
    ``seed``, ``max_nodes``, ``timeout``, ``stats`` and ``progress``; its ``restart``
    runs the next from the same links."""
    return _search(req, "solutions", **run)


def _left(req: Any) -> float:
    """The core's ``timeout=`` for a view's request: the seconds left of its time limit
    (its clock started before the problem was laid out), -1.0 for none."""
    left = req.left()
    return -1.0 if left is None else float(left)


def budget(n: int | None) -> int:
    """A budget or limit as the core takes it: -1 for none.  Values of 2**62 or more can
    never be reached (nor held in its 64-bit counters): they mean none too.

    >>> budget(None), budget(5), budget(2**63)
    (-1, 5, -1)
    """
    return -1 if n is None or n >= 1 << 62 else n


def _out_of_budget(req: Any, search: Any, found: Any) -> BudgetExceeded:
    if search.status == "timeout":
        stop = BudgetExceeded(None, found, req.stats, timeout=req.timeout, frontier=search)
    else:
        stop = BudgetExceeded(req.max_nodes, found, req.stats, frontier=search)
    # made when read: the frontier holds the path to each subtree left (gigabytes for a
    # search 20,000 levels deep), which a caller who does not read it should not wait for
    stop.frontier_later(lambda stopped: stopped.frontier())
    return stop


def estimate(links: Links, samples: int, seed: int, rule: dict[str, Any],
             forced: list[int], timeout: float | None
             ) -> tuple[int, tuple[float, float, float, float]]:
    """The core's probes for :func:`dlx.estimate` (``rule``: the choice rule's
    :meth:`~dlx.rules.Rule.core_keywords`): how many were made, and Welford's sums
    of their estimates (the pure engine's, number for number)."""
    done, *sums = table(links).estimate(
        samples, seed, forced=forced, timeout=-1.0 if timeout is None else float(timeout),
        **rule)
    return done, (sums[0], sums[1], sums[2], sums[3])


def solutions(req: Any) -> Iterator[tuple[Hashable, ...]]:
    """The core's :func:`dlx.solutions`: one solution per call into C, so it stays lazy."""
    search = _search(req, "solutions")
    while True:
        sol = search.next()
        if sol is None:
            if search.status in ("budget", "timeout"):
                raise _out_of_budget(req, search, None)
            return
        yield sol


def count(req: Any, cache: int | None = None) -> int | None:
    """The core's :func:`dlx.count`; with ``cache``, counting by caching with at most
    that many entries (None when a count grew past the core's 128 bits)."""
    search = _search(req, "count", cache=cache or 0)
    n: int = search.count()
    if cache is not None and not _cache_held(search, cache):
        return None
    if search.status in ("budget", "timeout"):
        raise _out_of_budget(req, search, n)
    return n


def zdd(req: Any, cache: int) -> tuple[bytes, bytes, bytes, int] | None:
    """The core's :func:`dlx.zdd`: the diagram's arrays and root, built by counting by
    caching with at most ``cache`` entries (None when a count grew past 128 bits: the
    pure engine builds it)."""
    search = _search(req, "count", cache=cache, zdd=True)
    search.count()
    if not _cache_held(search, cache):
        return None
    if search.status in ("budget", "timeout"):
        stop = _out_of_budget(req, search, None)
        stop.frontier = None
        raise stop
    made: tuple[bytes, bytes, bytes, int] = search.zdd()
    return made


def _cache_held(search: Any, entries: int) -> bool:
    """After a search that counted by caching: False when a count grew past the core's
    128 bits (the pure engine must do it); a warning when the cache filled up."""
    state = search.cache
    if state["overflow"]:
        return False
    if state["full"]:
        _cache_full(entries)
    return True


def _cache_full(entries: int) -> None:
    import warnings

    from .memo import CacheFullWarning

    warnings.warn(f"the counting cache is full ({entries:,} entries): the count went on"
                  " without storing more (raise cache= to store more)", CacheFullWarning,
                  stacklevel=5)


#: The core adds int weights in 64 bits: the sum of the largest |weight| over a solution
#: of at most N1 options must stay below this.
_INT_LIMIT = 1 << 62


#: The core keeps the k best solutions in an array of k x levels ints, allocated when
#: the search starts: a larger k runs on the pure engine, which keeps only those found.
_MAX_BEST_CELLS = 1 << 24


def fits_best(links: Links, weights: list[Any], k: int = 1) -> bool:
    """Can the core run branch and bound on these weights exactly: all ints small
    enough for 64-bit sums, or all floats (Fractions: no);
    and room for the ``k`` best."""
    if k * _levels(links) > _MAX_BEST_CELLS:
        return False
    if all(isinstance(w, float) for w in weights):
        return True
    if not all(isinstance(w, int) for w in weights):
        return False
    sizes = links.primary_sizes()
    scale = math.lcm(*set(sizes)) if sizes else 1
    top = max((abs(w) for w in weights), default=0)
    return top * max(scale, 1) * _levels(links) < _INT_LIMIT


def _levels(links: Links) -> int:
    """The most options a solution can have, plus one (Algorithm M: bounded by the
    bounds and the options)."""
    if links.multi:
        return min(sum(links.BOUND[1:links.N1 + 1]), len(links.labels)) + 1
    return links.N1 + 1


def best(req: Any, weights: list[Any], k: int
         ) -> tuple[list[tuple[Any, tuple[Hashable, ...]]], BudgetExceeded | None]:
    """The core's branch and bound: the k best ``(score, labels)`` to maximise, best
    first, and the stop that cut it short (None).  The shares of the default bound
    are those of :func:`dlx.bound.shares`, computed here."""
    from .bound import option_shares

    scale, per_option = option_shares(req.links, weights)
    integral = not any(isinstance(w, float) for w in weights)
    search = _search(req, "best", weights=weights, ratios=per_option, k=k, integral=integral,
                     scale=max(scale, 1))
    found = search.best()
    stop = None
    if search.status in ("budget", "timeout"):
        stop = _out_of_budget(req, search, None)
    return found, stop
