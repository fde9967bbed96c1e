"""The views of a search: ``solutions``, ``count``, ``first``, ``is_unique``, ``best``, ``trace``.

Each view checks its arguments, then hands the search to :mod:`dlx.serial` (in
this process: the compiled core or the pure engine, :mod:`dlx.engine`), or, given
an ``executor``, to :mod:`dlx.parallel`, which cuts the tree into pieces and has
the executor's workers run :mod:`dlx.serial` on them.  Every way gives the same
solutions, in the same order, with the same :class:`~dlx.Stats` (a parallel run
to its end).

Every view takes the same keywords, defined once in :mod:`dlx.options`:
``max_nodes``, ``timeout``, ``stats``, ``progress``, ``heuristic``, ``forced``,
``seed``, ``engine`` and ``executor`` (not for ``trace``, nor ``count`` with
``cache``).  The views of long searches, ``count``, ``solutions`` and ``best``,
also take ``checkpoint=PATH`` and ``checkpoint_every=SECONDS``: the search then
runs as a parallel one does (on the ``executor``, or without one here, a task at a
time) and saves its frontier and answer so far to PATH, from which a later call
resumes (see :mod:`dlx.parallel.checkpoint`).

>>> import dlx
>>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
>>> list(dlx.solutions(p)), dlx.count(p), dlx.first(p, forced=["xy"])
([('x', 'y'), ('xy',)], 2, ('xy',))
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from . import parallel, restarts, serial
from .bound import Number, SearchState
from .engine import SOLVERS, refusal
from .errors import ExactCoverError
from .events import Event
from .options import Engine, Keywords, Options, check_positive
from .problem import ExactCover

if TYPE_CHECKING:
    from typing import Unpack

    from .symmetry import Symmetries
    from .zdd import ZDD

__all__ = ["solutions", "count", "first", "is_unique", "best", "trace", "zdd", "Engine"]

#: (kept for older imports: the check every positive whole-number argument gets)
_check_positive = check_positive


def solutions(problem: ExactCover, *, limit: int | None = None,
              checkpoint: str | os.PathLike[str] | None = None,
              checkpoint_every: float | None = None, up_to_symmetry: bool = False,
              symmetry: bool | Symmetries = False,
              **keywords: Unpack[Keywords]) -> Iterator[tuple[Hashable, ...]]:
    """Yield solutions lazily, each a tuple of option labels in the order chosen.

    Parameters
    ----------
    problem : ExactCover
    limit : int or None
        Stop after this many solutions.
    checkpoint, checkpoint_every : path, seconds
        Save the search's state to the file ``checkpoint`` every ``checkpoint_every``
        seconds (60), on Ctrl-C and at the end, and resume from it when it exists;
        the solutions also go to ``checkpoint + ".solutions.jsonl"``, and a resumed
        search yields those first (:mod:`dlx.parallel.checkpoint`).
    up_to_symmetry, symmetry : bool, Symmetries
        With ``up_to_symmetry=True``, one solution per orbit under the problem's
        symmetries (:func:`dlx.symmetries`, or the group given as ``symmetry``): the
        orbit's least image (its options' positions in the problem, sorted, compared
        as tuples), its labels in the problem's order (:mod:`dlx.orbits`).
    **keywords
        As for every view (:mod:`dlx.options`).  When the budget runs out,
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
    opts = Options.of("solutions", keywords)
    _not_on_solver(opts, "solutions")
    if symmetry is not False and not up_to_symmetry:
        raise ExactCoverError("solutions() takes symmetry= with up_to_symmetry=True (the"
                              " group to list one solution per orbit of)")
    if up_to_symmetry:
        from . import orbits

        _no_every(checkpoint_every)
        return orbits.solutions(problem, opts, symmetry=symmetry, limit=limit,
                                checkpoint=checkpoint)
    if opts.executor is not None or checkpoint is not None:
        return parallel.solutions(serial.seeded(problem, opts.seed), _executor(opts),
                                  limit=limit, **_rest(opts),
                                  **_checkpoint(checkpoint, checkpoint_every, problem, opts))
    _no_every(checkpoint_every)
    return serial.solutions(problem, opts, limit=limit)


def count(problem: ExactCover, *, limit: int | None = None, cache: bool | int = False,
          checkpoint: str | os.PathLike[str] | None = None,
          checkpoint_every: float | None = None, symmetry: bool | Symmetries = False,
          up_to_symmetry: bool = False, **keywords: Unpack[Keywords]) -> int:
    """Count the solutions (up to ``limit``), storing none of them.

    When the budget runs out, :class:`~dlx.BudgetExceeded` carries the partial
    count.  The keywords are those of every view (see :mod:`dlx.options`).

    With ``cache`` (True, or the most entries to keep), count by caching, as
    Knuth's DLX6: the number of solutions below each partial solution is kept
    by what is left to solve, and a search that leaves the same again adds it
    without searching.  It counts far more solutions than a search can visit
    (the 12,988,816 tilings of an 8 x 8 board by 2 x 1 pieces take a few thousand
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

    With ``checkpoint`` (a file's path), the state of the search (its frontier and
    the count so far) is saved there every ``checkpoint_every`` seconds (60), on
    Ctrl-C and at the end, and a call with the same path and the same search goes on
    from it: see :mod:`dlx.parallel.checkpoint`.

    With ``symmetry=True`` (or a :class:`~dlx.Symmetries`), the same count, found
    faster: the first levels are listed up to the problem's symmetries and each
    partial solution kept is counted once for its whole orbit (on either engine,
    and on an ``executor``); ``stats.symmetry_saved`` says how many nodes that
    saved.  With ``up_to_symmetry=True``, the number of orbits: solutions that a
    symmetry maps onto each other count once, exactly also when some solutions are
    their own images (Burnside's lemma; :mod:`dlx.orbits`).

    >>> square = dlx.ExactCover({(r, c): [("row", r), ("col", c)]
    ...                          for r in range(3) for c in range(3)})
    >>> g = dlx.symmetries(square, generators=[
    ...     lambda rc: (rc[1], rc[0]), lambda rc: (2 - rc[0], rc[1])])
    >>> dlx.count(square), dlx.count(square, symmetry=g)
    (6, 6)
    >>> dlx.count(square, up_to_symmetry=True, symmetry=g)
    2
    """
    opts = Options.of("count", keywords)
    _not_on_solver(opts, "count")
    if symmetry is not False or up_to_symmetry:
        from . import orbits

        _no_every(checkpoint_every)
        return orbits.count(problem, opts, symmetry=symmetry, up_to_symmetry=up_to_symmetry,
                            limit=limit, cache=cache, checkpoint=checkpoint)
    if opts.executor is not None or checkpoint is not None:
        if serial.cache_entries(cache) is not None:
            raise ExactCoverError("counting by caching runs in one process: give cache= or"
                                  " executor=, not both")
        return parallel.count(serial.seeded(problem, opts.seed), _executor(opts), limit=limit,
                              **_rest(opts),
                              **_checkpoint(checkpoint, checkpoint_every, problem, opts))
    _no_every(checkpoint_every)
    return serial.count(problem, opts, limit=limit, cache=cache)


def first(problem: ExactCover, **keywords: Unpack[Keywords]) -> tuple[Hashable, ...] | None:
    """The first solution (a tuple of option labels), or None when there is none.

    With ``restarts=True``, search by randomised restarts (:mod:`dlx.restarts`):
    runs of growing node budgets, most choosing with random draws of their own (and
    now and then the plain search, with a budget larger each time), until one finds
    a solution or one searches its whole tree (then None).  The
    answer is then *a* solution, not the first in search order; the same ``seed=``
    (0 when None) gives the same one, on either engine.  ``max_nodes`` and
    ``timeout`` bound all the runs together, and the :class:`~dlx.Stats` add up
    over them.  Restarts pay on searches with heavy tails, where the plain search
    can sink into a large subtree without a solution near the root.

    >>> import dlx
    >>> dlx.first(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    ('x', 'y')
    >>> dlx.first(dlx.ExactCover({"x": ["a", "b"], "y": ["b", "c"]})) is None
    True
    >>> p = dlx.ExactCover({"x0": ["c", "d"], "y1": ["b", "d"], "z2": ["a"], "x3": ["a", "b", "d"],
    ...                     "y4": ["b", "c"], "z5": ["c"], "x6": ["a", "b", "d"]})
    >>> dlx.first(p), dlx.first(p, restarts=True), dlx.first(p, restarts=True, seed=1)
    (('z5', 'y1', 'z2'), ('z5', 'x6'), ('z5', 'x3'))
    """
    opts = Options.of("first", keywords)
    if opts.engine in SOLVERS:
        if opts.restarts:
            raise ExactCoverError(f"restarts=True searches on the core: engine={opts.engine!r}"
                                  " runs its own search (leave out one of them)")
        sol: tuple[Hashable, ...] | None = _solver(opts, "first").first(problem, opts)
        return sol
    if opts.restarts:
        return restarts.first(problem, opts)
    if opts.executor is not None:
        return parallel.first(serial.seeded(problem, opts.seed), opts.executor, **_rest(opts))
    return serial.first(problem, opts)


def is_unique(problem: ExactCover, **keywords: Unpack[Keywords]) -> bool:
    """True when the problem has exactly one solution (the search stops at the second).

    >>> import dlx
    >>> dlx.is_unique(dlx.ExactCover({"x": ["a"], "y": ["b"]}))
    True
    """
    if keywords.get("engine") in SOLVERS:
        opts = Options.of("is_unique", keywords)
        return bool(_solver(opts, "is_unique").is_unique(problem, opts))
    return count(problem, limit=2, **keywords) == 1


def best(problem: ExactCover,
         weight: Callable[[Any], Number] | Mapping[Any, Number] | None = None, *,
         k: int | None = None, maximize: bool | None = None,
         bound: Callable[[SearchState], Number] | None = None,
         checkpoint: str | os.PathLike[str] | None = None,
         checkpoint_every: float | None = None,
         **keywords: Unpack[Keywords]) -> Any:
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
    checkpoint, checkpoint_every : path, seconds
        As for :func:`count`: the best so far and the pieces left are saved, and a
        later call resumes.
    **keywords
        As for every view (:mod:`dlx.options`); when the budget runs out,
        :class:`~dlx.BudgetExceeded` carries the best found so far (as the view
        would have returned it).

    Notes
    -----
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
    opts = Options.of("best", keywords)
    if opts.engine in SOLVERS:
        if bound is not None or checkpoint is not None or checkpoint_every is not None:
            raise ExactCoverError(f"engine={opts.engine!r} takes no bound= hook nor checkpoint")
        return _solver(opts, "best").best(problem, weight, opts, k=k, maximize=maximize)
    if opts.executor is not None or checkpoint is not None:
        return parallel.best(serial.seeded(problem, opts.seed), weight, _executor(opts), k=k,
                             maximize=maximize, bound=bound, **_rest(opts),
                             **_checkpoint(checkpoint, checkpoint_every, problem, opts))
    _no_every(checkpoint_every)
    return serial.best(problem, weight, opts, k=k, maximize=maximize, bound=bound)


def trace(problem: ExactCover, **keywords: Unpack[Keywords]) -> Iterator[Event]:
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
    opts = Options.of("trace", keywords)
    if opts.executor is not None:
        raise ExactCoverError("trace runs in one process: it takes no executor")
    return serial.trace(problem, opts)


def zdd(problem: ExactCover, *, cache: bool | int = True,
        **keywords: Unpack[Keywords]) -> ZDD:
    """The zero-suppressed decision diagram (:class:`~dlx.ZDD`) of all solutions.

    Counting by caching (``cache``: True, or the most entries to keep, as for
    :func:`count`) builds it as Knuth's DLX6 does: a chain of nodes for the options
    of each item chosen, shared by the states that leave the same to solve.  The
    diagram then counts, lists and samples the solutions without searching again,
    however many there are.  The keywords are those of every view (a node budget
    or a time limit that runs out raises :class:`~dlx.BudgetExceeded`; ``forced``
    options come first in every solution); not ``executor``: the diagram is built
    in one process.  Items with bounds are not supported (DLX6 has none).

    >>> import dlx
    >>> board = dlx.ExactCover({(r, c, d): [(r, c), (r + d, c + 1 - d)]
    ...                         for r in range(4) for c in range(4) for d in (0, 1)
    ...                         if r + d < 4 and c + 1 - d < 4})
    >>> z = dlx.zdd(board)
    >>> z.count(), z.count() == dlx.count(board), len(z.sample(3, seed=1))
    (36, True, 3)
    >>> list(z)[:2] == list(dlx.solutions(board, limit=2))
    True
    """
    opts = Options.of("zdd", keywords)
    if opts.executor is not None:
        raise ExactCoverError("the ZDD is built in one process: it takes no executor")
    return serial.zdd(problem, opts, cache=cache)


def _solver(opts: Options, view: str) -> Any:
    """The module that runs ``engine="cp-sat"`` and ``engine="race"`` (loaded when asked)."""
    from . import race

    race.check_keywords(opts, view)
    return race


def _not_on_solver(opts: Options, view: str) -> None:
    if opts.engine in SOLVERS:
        raise ExactCoverError(refusal(opts.engine, view))


def _rest(opts: Options) -> dict[str, Any]:
    """The keywords of a parallel view: all but the executor (an argument there) and
    the seed (applied to the problem before it travels)."""
    return {name: getattr(opts, name) for name in ("max_nodes", "timeout", "stats",
                                                    "heuristic", "progress", "forced",
                                                    "engine")}


def _executor(opts: Options) -> Any:
    """The executor of a parallel or checkpointed search: the one given, or one that
    runs each task at once in this thread."""
    return opts.executor if opts.executor is not None else parallel.inline()


def _checkpoint(path: Any, every: float | None, problem: ExactCover, opts: Options
                ) -> dict[str, Any]:
    """``checkpoint=`` for a parallel view: the path, how often, and the problem as given
    (with its seed), which the checkpoint's fingerprint and solutions' numbers follow."""
    if path is None:
        _no_every(every)
        return {}
    from .parallel import checkpoint

    return {"checkpoint": checkpoint.spec(path, every, problem, opts.seed)}


def _no_every(every: float | None) -> None:
    if every is not None:
        raise ExactCoverError("checkpoint_every goes with checkpoint=PATH")
