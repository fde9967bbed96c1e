"""Which engine runs a search: the compiled core (``dlx._core``) or the pure loop.

Both engines run the same algorithm (:func:`dlx.search.run`, and its C twin in
``dlx/_core.c``) and give the same solutions in the same order with the same
:class:`~dlx.Stats`.  The views (:func:`dlx.count`, :func:`dlx.solutions`, ...)
take ``engine="auto" | "c" | "python"``; when it is not given, the environment
variable ``DLX_ENGINE`` decides, and then ``"auto"``.

* ``"auto"``: the core when it was built, else the pure engine.
* ``"c"``: the core; :class:`~dlx.ExactCoverError` when it was not built.
* ``"python"``: the pure engine.

Whatever the choice, a few requests always run on the pure engine, because they
call back into Python at every step: :func:`dlx.trace`, a callable
``heuristic=`` and a ``bound=`` hook for :func:`dlx.best`; so do problems too big
for the core's 32-bit node offsets (over ``_core.MAX_NODES`` nodes, about 134
million, which is far more than fits in memory as Python lists anyway).

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

import os
import weakref
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from .errors import BudgetExceeded, ExactCoverError
from .links import Links
from .problem import ExactCover
from .trace import Stats

try:
    from . import _core
except ImportError:  # not built (no compiler), or blocked on purpose
    _core = None

__all__ = ["ENGINES", "available", "active", "describe", "select", "grid_table"]

#: The values of ``engine=`` and of the ``DLX_ENGINE`` environment variable.
ENGINES = ("auto", "c", "python")

def available() -> bool:
    """True when the compiled core ``dlx._core`` can be imported."""
    return _core is not None


def _requested(engine: str | None) -> str:
    if engine is None:
        engine = os.environ.get("DLX_ENGINE", "").strip().lower() or "auto"
        where = "the DLX_ENGINE environment variable"
    else:
        where = "engine="
    if engine not in ENGINES:
        raise ExactCoverError(f"{where} must be 'auto', 'c' or 'python', not {engine!r}")
    return engine


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
        if engine == "c":
            raise ExactCoverError(
                "the compiled core dlx._core is not available (it is built by"
                " `pip install` when a C compiler is present); use engine='python' or 'auto'"
            )
        return False
    return True


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

_tables: weakref.WeakKeyDictionary[ExactCover, Any] = weakref.WeakKeyDictionary()


def table(problem: ExactCover) -> Any:
    """The core's copy of the master links of ``problem``, built once and cached."""
    t = _tables.get(problem)
    if t is None:
        links = Links.of(problem)
        assert _core is not None
        t = _core.Table(links.N1, links.N, links.LLINK, links.RLINK, links.ULINK, links.DLINK,
                        links.LEN, links.TOP, links.COLOR, links.OPT, len(links.labels))
        _tables[problem] = t
    return t


def _budget(max_nodes: int | None) -> int:
    # Budgets and limits beyond 2**62 can never be reached: treat them as none (-1).
    return -1 if max_nodes is None or max_nodes >= 1 << 62 else max_nodes


def _heuristic(heuristic: object) -> int:
    return 1 if heuristic == "first" else 0


def supports(heuristic: object, problem: ExactCover | None = None) -> bool:
    """True when the core implements ``heuristic`` (None, "mrv" or "first") and can
    hold ``problem`` (the core addresses at most ``_core.MAX_NODES`` nodes, about
    134 million; beyond that the pure engine searches)."""
    if not (heuristic is None or (isinstance(heuristic, str) and heuristic in ("mrv", "first"))):
        return False
    return problem is None or _core is None or len(Links.of(problem).TOP) <= _core.MAX_NODES


def solutions(problem: ExactCover, limit: int | None, max_nodes: int | None,
              stats: Stats | None, heuristic: object,
              progress: Callable[[Stats], object] | None) -> Iterator[tuple[Hashable, ...]]:
    """The core's :func:`dlx.solutions`: one solution per call into C, so it stays lazy."""
    t = table(problem)
    labels = Links.of(problem).labels
    return _solutions(t, labels, limit, max_nodes, stats, heuristic, progress)


def _solutions(t: Any, labels: list[Hashable], limit: int | None, max_nodes: int | None,
               stats: Stats | None, heuristic: object,
               progress: Callable[[Stats], object] | None) -> Iterator[tuple[Hashable, ...]]:
    if stats is None:
        stats = Stats()
    assert _core is not None
    search = _core.Search(t, labels, "solutions", max_nodes=_budget(max_nodes),
                          heuristic=_heuristic(heuristic), progress=progress, stats=stats)
    found: list[tuple[Hashable, ...]] = []
    while True:
        sol = search.next()
        if sol is None:
            if search.status == "budget":
                raise BudgetExceeded(max_nodes, found, stats)  # type: ignore[arg-type]
            return
        found.append(sol)
        yield sol
        if limit is not None and len(found) >= limit:
            return


def count(problem: ExactCover, limit: int | None, max_nodes: int | None, stats: Stats | None,
          heuristic: object, progress: Callable[[Stats], object] | None) -> int:
    """The core's :func:`dlx.count`."""
    if stats is None:
        stats = Stats()
    assert _core is not None
    search = _core.Search(table(problem), Links.of(problem).labels, "count",
                          max_nodes=_budget(max_nodes), limit=_budget(limit),
                          heuristic=_heuristic(heuristic), progress=progress, stats=stats)
    n: int = search.count()
    if search.status == "budget":
        raise BudgetExceeded(max_nodes, n, stats)  # type: ignore[arg-type]
    return n


def best(problem: ExactCover, weights: list[float], integral: bool, max_nodes: int | None,
         stats: Stats | None, heuristic: object,
         progress: Callable[[Stats], object] | None
         ) -> tuple[tuple[float, tuple[Hashable, ...]] | None, bool]:
    """The core's branch and bound: ``(best so far or None, budget ran out?)``.

    ``weights`` are per option index, already signed to be maximised; the ratios
    of the generic bound are computed here exactly as :func:`dlx.search.run` does.
    """
    if stats is None:
        stats = Stats()
    links = Links.of(problem)
    top, n1 = links.TOP, links.N1
    ratios = [w / sum(1 for q in nodes if top[q] <= n1)
              for w, nodes in zip(weights, links.option_nodes, strict=True)]
    assert _core is not None
    search = _core.Search(table(problem), links.labels, "best", max_nodes=_budget(max_nodes),
                          heuristic=_heuristic(heuristic), progress=progress, stats=stats,
                          weights=weights, ratios=ratios, integral=integral)
    result = search.best()
    return result, search.status == "budget"


def grid_table(problem: ExactCover, n: int,
               cell_digit: Callable[[Hashable], tuple[int, int]],
               engine: str | None = None) -> Any:
    """A batch solver for a grid puzzle family: the core's ``_core.GridTable`` or,
    when ``engine`` (as in :func:`select`) says the pure engine, :class:`dlx.grid.GridBatch`.

    ``problem`` is the full matrix of an n x n grid: one option per (cell, digit),
    ``cell_digit(label)`` says which (cell ``0..n*n-1``, digit ``1..n``), and each
    option's first item is its cell's item, the cells being the first ``n*n``
    primary items in cell order.  ``.batch(puzzles, limit, max_nodes)`` then places
    the givens of each puzzle and searches the rest (see ``problems.sudoku.batch``);
    both give the same answers and node counts.
    """
    if not select(engine):
        from .grid import GridBatch
        return GridBatch(problem, n, cell_digit)
    assert _core is not None
    pairs = [cell_digit(label) for label in Links.of(problem).labels]
    return _core.GridTable(table(problem), n, [c for c, _ in pairs], [d for _, d in pairs])
