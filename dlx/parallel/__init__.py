"""Parallel search: cut the search tree into pieces and run them on any Executor.

A *piece* is a tuple of option labels: the forced options on the path from the
root to one node of the serial search tree.  ``dlx.count(p, forced=piece)``
searches exactly the subtree below that node, and counts it as the whole search
does, so the subtrees of a *frontier* (a set of nodes that cuts every root-to-leaf
path once) add up to the serial search: solutions, nodes, updates, per-level
profile.  :func:`split` finds such a frontier; :func:`count`, :func:`solutions`,
:func:`first`, :func:`is_unique` and :func:`best` hand its pieces to any
:class:`concurrent.futures.Executor` and merge the answers.

>>> import dlx
>>> from dlx import parallel
>>> from concurrent.futures import ThreadPoolExecutor
>>> p = dlx.ExactCover({(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
...                     for r in range(6) for c in range(6)},
...                    secondary=[(d, k) for d in ("up", "down") for k in range(-5, 11)])
>>> pieces = dlx.split(p, pieces=8)
>>> sum(dlx.count(p, forced=piece) for piece in pieces) == dlx.count(p) == 4
True
>>> serial, merged = dlx.Stats(), dlx.Stats()
>>> with ThreadPoolExecutor(2) as ex:
...     parallel.count(p, ex, stats=merged), dlx.count(p, stats=serial)
(4, 4)
>>> merged == serial          # nodes, updates, solutions and profile, exactly
True

Where things are
----------------
=====================  ==========================================================
:mod:`.pieces`         how pieces are cut (:func:`split`, the driver's first cut)
:mod:`.schedule`       how they are scheduled: the driver, batches, faults, deadlines
:mod:`.sizing`         how big a task is: budgets sized to the round trip and driver
:mod:`.report`         what ``progress`` receives (:class:`Report`: fraction, ETA)
:mod:`.worker`         what a worker does with a task (and how it cuts the rest)
:mod:`.answers`        how each view finds and merges answers (a class per view)
:mod:`.executors`      which executors are supported, how faults look
:mod:`.checkpoint`     the frontier and the answer so far on disk, and resuming
:mod:`.checkfile`      the checkpoint's file: format, fingerprint, atomic writes
=====================  ==========================================================

``executor`` is any :class:`concurrent.futures.Executor`: a thread pool (the
core releases the GIL), a process pool or :func:`executor` (``jobs=n``), or a
Dask cluster's (``scheduler=address``; the ``dask`` extra).  Dask's per-task cost
is some milliseconds (against about half of one for a process pool), and its
workers run tasks in a thread beside their event loop: turning off the workers'
statistical profiler (``distributed.worker.profile.enabled: false``) helps.

The problem travels once per worker (pickled; a worker process keeps the last
few problems it was given, so the pieces that follow travel alone: a tuple of
labels each).  Labels, items and a callable ``heuristic`` must therefore be
picklable for a process pool or a cluster (a thread pool shares them).

*Dynamic balance.*  A task is a run of consecutive pieces with a node budget
(``piece_nodes``; by default about a task time sized to the executor: at least
:data:`TASK_SECONDS`, and :data:`ROUND_TRIPS` times its round trip, measured at the
start: about a second on Dask).  When a task runs out of budget, its worker cuts
what it did not finish where it runs: the frontier of the piece it stopped in
(:attr:`dlx.BudgetExceeded.frontier`), keyed and weighed there, and the pieces it did
not start, handed back as one batch that goes back into the queue.  So a heavy
subtree is cut up while it runs and never holds the whole run, the driver's work
per task stays a few operations, and a task never runs long: a cancelled run stops
within one task.  (A search with bounds, Algorithm M, hands over no frontier: its
tree is one piece.)

*Checkpoints.*  ``checkpoint=PATH`` (:func:`count`, :func:`solutions`,
:func:`best`) saves the frontier and the answer so far every ``checkpoint_every``
seconds, on Ctrl-C and at the end, and resumes from them when run again: see
:mod:`.checkpoint`.

*Order.*  :func:`solutions` yields the serial search's order by default
(``ordered=True``, holding back solutions of later pieces until the earlier ones
are done); ``ordered=False`` yields them as they arrive.  :func:`first` returns
the first solution *found*, not the serial first; the rest is cancelled.

*Statistics.*  ``stats=`` is filled as in a serial run: for :func:`count` and
:func:`solutions` run to the end, nodes, updates, solutions and profile equal the
serial search's.  With ``limit``, :func:`first` and :func:`best`, it counts the
tree the pieces explored (a parallel search runs ahead of the serial one, and
each piece of :func:`best` prunes with its own best score).  Work redone after a
fault is not counted twice.

*Budgets.*  ``max_nodes`` counts every node the pieces and the split visited
(never more than ``max_nodes``); ``timeout`` is wall-clock seconds.  When one runs
out, :class:`~dlx.BudgetExceeded` carries the partial answer (``found``),
the merged ``stats``, and the ``frontier``: the pieces not yet searched, in
search order.  Searching them with ``forced=`` adds up exactly to the rest.

*Faults.*  A task whose worker dies is run again, and its pieces count once: a
broken process pool is replaced by a fresh one of the same size (and shut down at
the end); a lost Dask worker's tasks are resubmitted (Dask also reschedules them
by itself).  A piece that fails :data:`RETRIES` times raises the error.  Any
other error of a piece, and Ctrl-C (KeyboardInterrupt), cancel every piece still
queued and propagate; tasks already running finish within their budget.

*Progress.*  ``progress`` is called (at most every :data:`REPORT_EVERY` seconds,
and at the end) with a :class:`Report`: the merged :class:`~dlx.Stats` so far
plus the estimated fraction of the tree done (Knuth's estimate: each piece counts
for its share of the tree), the time left at this run's pace, the pieces done, in
flight and left, the workers, and when the last checkpoint was written.

>>> seen = []
>>> with ThreadPoolExecutor(2) as ex:
...     n = parallel.count(p, ex, piece_nodes=5, progress=seen.append)
>>> n, seen[-1].fraction, seen[-1].nodes == serial.nodes
(4, 1.0, True)
>>> with ThreadPoolExecutor(2) as ex:
...     list(parallel.solutions(p, ex, piece_nodes=5)) == list(dlx.solutions(p))
True

For the command line (``--jobs N``, ``--scheduler ADDRESS``), :func:`executor`
makes the executor and a ``progress`` callback drives a display::

    ex = parallel.executor(scheduler=address, connect_timeout=5) if address \
        else parallel.executor(jobs=n)
    with ex:
        total = parallel.count(problem, ex, stats=stats,
                               progress=lambda r: bar.update(task, completed=r.fraction))

KeyboardInterrupt comes out of ``count`` (exit 130), BudgetExceeded out of a
``max_nodes`` or ``timeout`` run (exit 124), each with the partial answer.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Hashable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .. import serial
from ..errors import BudgetExceeded, ExactCoverError, shown
from ..options import Engine, Options, SearchKeywords
from ..problem import ExactCover
from ..search import SearchState
from .answers import BestAnswer, CountAnswer, FirstAnswer, SolutionsAnswer
from .executors import CONNECT_TIMEOUT, MAX_JOBS, executor, inline
from .pieces import Piece, split
from .report import REPORT_EVERY, Report
from .schedule import RETRIES, Driver
from .sizing import ROUND_TRIPS, TASK_SECONDS

if TYPE_CHECKING:
    from concurrent.futures import Executor
    from typing import Unpack

    from .checkpoint import Checkpoint, Spec

__all__ = ["split", "count", "solutions", "first", "is_unique", "best", "Report", "executor",
           "inline", "RETRIES", "REPORT_EVERY", "TASK_SECONDS", "ROUND_TRIPS", "MAX_JOBS",
           "CONNECT_TIMEOUT", "Piece", "Engine"]



def _options(view: str, keywords: Mapping[str, Any]) -> Options:
    """The checked keywords of a parallel view (the executor is an argument here, and a
    seed is applied to the problem by :mod:`dlx.views` before it comes here)."""
    opts = Options.of(f"parallel.{view}", keywords)
    if opts.executor is not None or opts.seed is not None:
        raise ExactCoverError(f"parallel.{view} takes the executor as its second argument"
                              " and no seed (dlx.{view}(..., executor=, seed=) takes both)")
    return opts


def _run(drv: Driver) -> None:
    for _ in drv.run():
        pass


def _checkpoint(where: Any, every: float | None, problem: ExactCover, view: str,
                opts: Options, **keywords: Any) -> Checkpoint | None:
    """The checkpoint of a run (None without ``checkpoint=``); json and hashlib are
    imported only then."""
    if where is None:
        if every is not None:
            raise ExactCoverError("checkpoint_every goes with checkpoint=PATH")
        return None
    from . import checkpoint

    return checkpoint.make(checkpoint.spec(where, every, problem, None), view, opts,
                           **keywords)


def count(
    problem: ExactCover,
    executor: Executor,
    *,
    limit: int | None = None,
    pieces: int | None = None,
    piece_nodes: int | None = None,
    checkpoint: str | os.PathLike[str] | Spec | None = None,
    checkpoint_every: float | None = None,
    **keywords: Unpack[SearchKeywords],
) -> int:
    """Count the solutions on ``executor`` (up to ``limit``): :func:`dlx.count` in parallel.

    Parameters
    ----------
    problem : ExactCover
    executor : concurrent.futures.Executor
    limit, **keywords
        As for :func:`dlx.count` (but ``executor``, the argument, and ``seed``);
        ``stats`` ends equal to the serial search's (when no ``limit`` stops it).
        Out of budget, :class:`~dlx.BudgetExceeded` carries the partial count and
        the pieces left (``frontier``).  ``progress`` is called with a
        :class:`Report` (the merged Stats, the fraction done).
    pieces : int or None
        How many pieces the first split makes (default 16 per worker).
    piece_nodes : int or None
        The node budget of a task (default: about a task time sized to the executor).
    checkpoint : path or None
        Save the frontier and the count so far there every ``checkpoint_every``
        seconds (default 60), on Ctrl-C and at the end, and resume from it when it
        exists (:mod:`dlx.parallel.checkpoint`).

    Examples
    --------
    >>> import dlx
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> p = dlx.ExactCover({(k, j): [("num", k), ("slot", j), ("slot", j + k + 1)]
    ...                     for k in range(1, 8) for j in range(2 * 7 - k - 1)})
    >>> with ThreadPoolExecutor(2) as ex:
    ...     dlx.parallel.count(p, ex), dlx.parallel.count(p, ex, limit=10)
    (52, 10)
    """
    answer = CountAnswer(limit)
    opts = _options("count", keywords)
    ck = _checkpoint(checkpoint, checkpoint_every, problem, "count", opts, limit=limit)
    _run(Driver(problem, executor, answer, opts, pieces=pieces, piece_nodes=piece_nodes,
                checkpoint=ck))
    return answer.result()


def is_unique(
    problem: ExactCover,
    executor: Executor,
    *,
    pieces: int | None = None,
    piece_nodes: int | None = None,
    **keywords: Unpack[SearchKeywords],
) -> bool:
    """True when the problem has exactly one solution: :func:`count` with ``limit=2``.

    >>> import dlx
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as ex:
    ...     dlx.parallel.is_unique(dlx.ExactCover({"x": ["a"], "y": ["b"]}), ex)
    True
    """
    return count(problem, executor, limit=2, pieces=pieces, piece_nodes=piece_nodes,
                 **keywords) == 1


def solutions(
    problem: ExactCover,
    executor: Executor,
    *,
    limit: int | None = None,
    ordered: bool = True,
    pieces: int | None = None,
    piece_nodes: int | None = None,
    checkpoint: str | os.PathLike[str] | Spec | None = None,
    checkpoint_every: float | None = None,
    **keywords: Unpack[SearchKeywords],
) -> Iterator[tuple[Hashable, ...]]:
    """Yield the solutions found on ``executor``: :func:`dlx.solutions` in parallel.

    With ``ordered=True`` (the default) they come in the serial search's order;
    with ``ordered=False`` as the pieces finish.  The arguments are checked at once;
    the search starts at the first ``next()``, and closing the iterator cancels
    the pieces still queued.  Out of budget, :class:`~dlx.BudgetExceeded`'s
    ``found`` lists the solutions yielded, then those found but not yet yielded (in
    search order); its ``frontier`` holds the pieces not searched.  With a
    ``checkpoint``, the solutions also go to ``PATH.solutions.jsonl`` as they are
    yielded, and a resumed run yields those of the file first (the whole answer
    again), then the rest.  The other arguments are those of :func:`count`.

    >>> import dlx
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
    >>> with ThreadPoolExecutor(2) as ex:
    ...     list(dlx.parallel.solutions(p, ex))
    [('x', 'y'), ('xy',)]
    """
    answer = SolutionsAnswer(limit, ordered)
    opts = _options("solutions", keywords)
    ck = _checkpoint(checkpoint, checkpoint_every, problem, "solutions", opts,
                     limit=limit, ordered=ordered)
    drv = Driver(problem, executor, answer, opts, pieces=pieces, piece_nodes=piece_nodes,
                 checkpoint=ck)
    return _yield(drv, answer, limit, ck)


def _yield(drv: Driver, answer: SolutionsAnswer, limit: int | None, ck: Checkpoint | None
           ) -> Iterator[tuple[Hashable, ...]]:
    found: list[tuple[Hashable, ...]] = []
    if ck is not None:
        for sol in ck.stored():                   # what a resumed run had yielded
            found.append(sol)
            yield sol
            if len(found) == limit:
                return
    run = drv.run()
    assert isinstance(run, Generator)
    try:
        for batch in run:
            for sol in batch:
                found.append(sol)
                yield sol
                if len(found) == limit:
                    return
    except BudgetExceeded as e:
        e.found = found + answer.held()
        raise
    finally:
        run.close()


def first(
    problem: ExactCover,
    executor: Executor,
    *,
    pieces: int | None = None,
    piece_nodes: int | None = None,
    **keywords: Unpack[SearchKeywords],
) -> tuple[Hashable, ...] | None:
    """The first solution any worker finds (None when there is none); the other
    pieces are cancelled.  It need not be the serial search's first solution: use
    ``next(solutions(...))`` for that.  The arguments are those of :func:`count`.

    >>> import dlx
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
    >>> with ThreadPoolExecutor(2) as ex:
    ...     dlx.parallel.first(p, ex) in [("x", "y"), ("xy",)]
    True
    """
    answer = FirstAnswer()
    _run(Driver(problem, executor, answer, _options("first", keywords), pieces=pieces,
                piece_nodes=piece_nodes))
    return answer.result()


def best(
    problem: ExactCover,
    weight: Callable[[Any], Any] | Mapping[Any, Any] | None,
    executor: Executor,
    *,
    k: int | None = None,
    maximize: bool | None = None,
    bound: Callable[[SearchState], Any] | None = None,
    pieces: int | None = None,
    piece_nodes: int | None = None,
    checkpoint: str | os.PathLike[str] | Spec | None = None,
    checkpoint_every: float | None = None,
    **keywords: Unpack[SearchKeywords],
) -> Any:
    """The best solution by total weight (or the ``k`` best): :func:`dlx.best` in parallel.

    Each piece runs its own branch and bound for its ``k`` best; the answers are
    merged, equal scores going to the earlier piece, so the answer is the serial
    one: the best solutions, ties in search order.  A piece that runs out of its
    node budget is cut one level down and its children run instead (a branch and
    bound stopped part way has no frontier).  ``weight`` is read here, once (None:
    the problem's costs, smallest first); ``bound`` and ``heuristic`` must be
    picklable for worker processes.  Out of budget, :class:`~dlx.BudgetExceeded`
    carries the best found so far and the pieces not finished.  The arguments
    are those of :func:`dlx.best` and :func:`count`.

    >>> import dlx
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "z": ["c"], "xy": ["a", "b"],
    ...                     "xyz": ["a", "b", "c"]})
    >>> with ThreadPoolExecutor(2) as ex:
    ...     dlx.parallel.best(p, {"x": 5, "y": 1, "z": 1, "xy": 2, "xyz": 4}, ex)
    (7, ('z', 'x', 'y'))
    """
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ExactCoverError(f"k must be a positive whole number or None, not {shown(k)}")
    opts = _options("best", keywords)
    links = serial.Request(problem, opts).links
    if maximize is None:
        maximize = weight is not None
    values = serial.weights_of(links, problem.cost if weight is None else weight)
    weights = dict(zip(links.labels, values, strict=True))
    answer = BestAnswer(k, maximize)
    ck = _checkpoint(checkpoint, checkpoint_every, problem, "best", opts,
                     weights=weights, k=k, maximize=maximize, bound=bound)
    _run(Driver(problem, executor, answer, opts, pieces=pieces, piece_nodes=piece_nodes,
                weights=weights, k=k or 1, maximize=maximize, bound=bound, checkpoint=ck))
    return answer.result()
