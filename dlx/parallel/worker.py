"""What a worker does: run a task's pieces, each a serial search below its forced options.

A *task* (:class:`Task`) is a run of consecutive pieces of one problem with one
node budget; :func:`work` runs it in a worker (a process of a pool, a thread, a
Dask worker) and hands back an :class:`Outcome`: the answers of the pieces it
finished, and for the piece it stopped in, what that piece found and its
unexplored subtrees (:attr:`dlx.BudgetExceeded.frontier`).  The problem travels
once per worker (pickled); a worker process keeps the last few it was given, so
the tasks that follow carry pieces alone.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, NamedTuple

from ..errors import BudgetExceeded
from ..events import Stats
from ..options import Engine, Options
from ..problem import ExactCover
from ..search import Heuristic, HeuristicName, SearchState
from .answers import KINDS, Job
from .pieces import Piece, add, counts

__all__ = ["Task", "Outcome", "Local", "work", "quiet", "ORPHAN_CHECK"]

ORPHAN_CHECK = 0.2              # seconds between a pool worker's looks at its parent


class Local(NamedTuple):
    """The problem itself, handed to threads of this process (nothing is pickled)."""

    problem: ExactCover
    weights: Mapping[Hashable, Any] | None


class Task(NamedTuple):
    """What a worker runs: consecutive pieces of one problem, under one node budget."""

    key: str                        # the problem's name in the worker's cache
    blob: bytes | Local | None     # the problem, when the worker may not have it yet
    kind: str                       # the view: "count", "solutions", "first" or "best"
    pieces: tuple[Piece, ...]
    budget: int | None              # nodes for the whole task
    deadline: float | None          # time.time() at which to stop
    limit: int | None               # solutions wanted at most (count, solutions)
    heuristic: HeuristicName | Heuristic | None
    engine: Engine | None
    maximize: bool
    k: int                          # best: how many best solutions
    bound: Callable[[SearchState], Any] | None
    nonce: int                      # every submission differs (Dask caches equal calls)


class Outcome(NamedTuple):
    """What a worker hands back.  The first ``len(found)`` pieces are done (each
    with its answer); when ``stopped``, the next one ran out of budget or time:
    ``partial`` is what it found, ``frontier`` its unexplored subtrees (None for
    ``best``, whose pieces are cut again instead).  The pieces after it were not
    started."""

    missing: bool = False           # the worker did not have the problem
    found: tuple[Any, ...] = ()
    stopped: bool = False
    timed_out: bool = False
    partial: Any = None
    frontier: tuple[Piece, ...] | None = None
    counts: tuple[int, int, int, tuple[int, ...]] = (0, 0, 0, ())       # the done pieces
    stop_counts: tuple[int, int, int, tuple[int, ...]] = (0, 0, 0, ())  # the stopped one
    seconds: float = 0.0            # wall-clock time of the task in the worker
    cpu: float = 0.0                # CPU time of the worker's thread on it
    worker: str = ""


# A worker process keeps the last few problems it was given (a Dask worker is long-lived).
_CACHE: OrderedDict[str, tuple[ExactCover, Mapping[Hashable, Any] | None]] = OrderedDict()
_CACHE_SIZE = 4
_CACHE_LOCK: Any = None


def _lookup(key: str, blob: bytes | Local | None
            ) -> tuple[ExactCover, Mapping[Hashable, Any] | None] | None:
    """The problem (and weights) of ``key`` in this worker: from the task, from the
    cache, or None when the worker does not have it (the task must bring it)."""
    if isinstance(blob, Local):
        return blob.problem, blob.weights
    global _CACHE_LOCK
    if _CACHE_LOCK is None:
        import _thread
        _CACHE_LOCK = _thread.allocate_lock()
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
        if entry is not None:
            _CACHE.move_to_end(key)
            return entry
    if blob is None:
        return None
    import pickle
    problem, weights = pickle.loads(blob)
    with _CACHE_LOCK:
        _CACHE[key] = (problem, weights)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return problem, weights


def work(task: Task) -> Outcome:
    """Run a task's pieces in order until they are done or its budget or time runs out."""
    began, cpu = time.perf_counter(), time.thread_time()
    entry = _lookup(task.key, task.blob)
    if entry is None:
        return Outcome(missing=True, worker=_worker_name())
    problem, weights = entry
    answer = KINDS[task.kind]
    job = Job(task.limit, weights, task.k, task.maximize, task.bound)
    done, stop = Stats(), Stats()
    found: list[Any] = []
    left = task.budget
    stopped = timed_out = False
    partial: Any = None
    frontier: tuple[Piece, ...] | None = None
    for piece in task.pieces:
        if left is not None and left <= 0 or job.limit is not None and job.limit <= 0:
            break
        timeout = None
        if task.deadline is not None:
            timeout = task.deadline - time.time()
            if timeout <= 0:
                break
        s = Stats()
        opts = Options(forced=piece, max_nodes=left, timeout=timeout, stats=s,
                       heuristic=task.heuristic, engine=task.engine)
        try:
            r = answer.search(problem, opts, job)
        except BudgetExceeded as e:
            stopped, timed_out = True, e.max_nodes is None
            partial = e.found
            frontier = None if e.frontier is None else tuple(e.frontier)
            add(stop, *counts(s))
            break
        add(done, *counts(s))
        found.append(r)
        if left is not None:
            left -= s.nodes
        if job.limit is not None:
            job.limit -= answer.used(r)
        if answer.enough(r):
            break
    return Outcome(False, tuple(found), stopped, timed_out, partial, frontier,
                   counts(done), counts(stop), time.perf_counter() - began,
                   time.thread_time() - cpu, _worker_name())


def _worker_name() -> str:
    import socket
    return f"{socket.gethostname()}:{os.getpid()}"


def quiet(parent: int | None = None) -> None:
    """A worker process's initializer: leave Ctrl-C to the process that waits on it, and
    exit when that process is gone (a killed parent must not leave its pool running:
    a watchdog thread looks every :data:`ORPHAN_CHECK` seconds whether this process
    still has the parent ``parent``, its pid when the pool was made)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is None:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK)
        os._exit(1)                     # the parent died: nobody waits for our answers

    threading.Thread(target=watch, name="dlx-orphan-watchdog", daemon=True).start()
