"""What a worker does: run a task's pieces, each a serial search below its forced options,
and cut what it could not finish where it runs.

A *task* (:class:`Task`) is a run of consecutive entries (pieces, with their keys and
shares) of one problem under one node budget.  :func:`work` runs it in a worker (a
process of a pool, a thread, a Dask worker, or the calling thread) and hands back an
:class:`Outcome`: the merged answer and statistics of what it finished, and *the rest*,
the entries it did not finish, already cut, keyed and weighed here: when the budget runs
out inside a piece, its unexplored subtrees (:attr:`dlx.BudgetExceeded.frontier`; for a
branch and bound, which has none, the piece's children), then the pieces it did not
start.  So the driver's work per task is a few operations, whatever the subtree's shape:
it merges one answer and queues the rest as one batch.

Pieces travel as option numbers (the positions in the problem's links), not labels: a
worker maps them to labels and back with the problem it caches.  The problem travels
once per worker (pickled); a worker process keeps the last few it was given, so the
tasks that follow carry entries alone.  A task with no entries only brings the problem
(the driver's first round, which also measures the round trip).
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, NamedTuple

from ..errors import BudgetExceeded
from ..events import Stats
from ..links import Links
from ..options import Engine, Options
from ..problem import ExactCover
from ..search import Heuristic, HeuristicName, SearchState
from .answers import KINDS, Answer, Job
from .pieces import Entry, add, counts, expand, shares

__all__ = ["Task", "Outcome", "Local", "work", "ping", "known", "quiet", "ORPHAN_CHECK"]

ORPHAN_CHECK = 0.2              # seconds between a pool worker's looks at its parent


class Local(NamedTuple):
    """The problem itself, handed to threads of this process (nothing is pickled)."""

    problem: ExactCover
    weights: Mapping[Hashable, Any] | None


class Task(NamedTuple):
    """What a worker runs: consecutive entries of one problem, under one node budget."""

    key: str                        # the problem's name in the worker's cache
    blob: bytes | Local | None     # the problem, when the worker may not have it yet
    kind: str                       # the view: "count", "solutions", "first" or "best"
    entries: tuple[Entry, ...]      # (key, option numbers, share), in search order
    budget: int | None              # nodes for the whole task
    deadline: float | None          # time.time() at which to stop
    limit: int | None               # solutions wanted at most (count, solutions)
    heuristic: HeuristicName | Heuristic | None
    engine: Engine | None
    maximize: bool
    k: int                          # best: how many best solutions
    bound: Callable[[SearchState], Any] | None
    nonce: int                      # every submission differs (Dask caches equal calls)
    cut: bool = True                # may a piece with no frontier be cut here (best)?


class Outcome(NamedTuple):
    """What a worker hands back: ``answer`` merges the answers of the ``done`` first
    entries (and what the entry it stopped in found before it was cut), ``weight`` is
    their share of the tree, ``rest`` what is left in search order (cut here), ``counts``
    the statistics to merge and ``nodes`` every node visited (the budget's measure)."""

    missing: bool = False           # the worker did not have the problem
    answer: Any = None
    done: int = 0                   # entries finished, or cut into the rest
    weight: float = 0.0
    rest: tuple[Entry, ...] = ()
    rest_share: float = 0.0         # the share of the rest
    stopped: bool = False           # the budget or the time ran out inside an entry
    timed_out: bool = False
    whole: bool = False             # an entry could not be cut (bounds): it leads the rest
    partial: Any = None             # best: what an entry cut again had found
    counts: tuple[int, int, int, tuple[int, ...]] = (0, 0, 0, ())
    nodes: int = 0
    seconds: float = 0.0            # wall-clock time of the task in the worker
    cpu: float = 0.0                # CPU time of the worker's thread on it
    worker: str = ""


class _Known(NamedTuple):
    problem: ExactCover
    weights: Mapping[Hashable, Any] | None
    labels: Sequence[Hashable]      # option number -> label
    number: Callable[[Hashable], int]   # label -> option number


# A worker process keeps the last few problems it was given (a Dask worker is long-lived).
_CACHE: OrderedDict[str, _Known] = OrderedDict()
_CACHE_SIZE = 4
_CACHE_LOCK: Any = None


def known(problem: ExactCover, weights: Mapping[Hashable, Any] | None) -> _Known:
    links = Links.of(problem)
    return _Known(problem, weights, links.labels, links.option_index)


def _lookup(key: str, blob: bytes | Local | None) -> _Known | None:
    """The problem (and weights) of ``key`` in this worker: from the task, from the
    cache, or None when the worker does not have it (the task must bring it)."""
    if isinstance(blob, Local):
        return known(blob.problem, blob.weights)
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
    entry = known(problem, weights)
    with _CACHE_LOCK:
        _CACHE[key] = entry
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return entry


def work(task: Task) -> Outcome:
    """Run a task's entries in order until they are done or its budget or time runs
    out; cut the entry it stopped in (see the module's docstring)."""
    began, cpu = time.perf_counter(), time.thread_time()
    entry = _lookup(task.key, task.blob)
    if entry is None:
        return Outcome(missing=True, worker=_worker_name())
    run = _Run(task, entry)
    run.go()
    return Outcome(False, run.answer, run.done, run.weight, run.rest,
                   sum([e.weight for e in run.rest]), run.stopped, run.timed_out, run.whole,
                   run.partial, counts(run.merged), run.nodes, time.perf_counter() - began,
                   time.thread_time() - cpu, _worker_name())


class _Run:
    """One task in a worker."""

    def __init__(self, task: Task, entry: _Known) -> None:
        self.task, self.known = task, entry
        self.kind: type[Answer] = KINDS[task.kind]
        self.job = Job(task.limit, entry.weights, task.k, task.maximize, task.bound)
        self.answer: Any = self.kind.zero()
        self.merged = Stats()
        self.nodes = self.done = 0
        self.weight = 0.0
        self.rest: tuple[Entry, ...] = ()
        self.stopped = self.timed_out = self.whole = False
        self.partial: Any = None

    def go(self) -> None:
        task, kind, job = self.task, self.kind, self.job
        labels = self.known.labels
        left = task.budget
        entries = task.entries
        for i, e in enumerate(entries):
            if (left is not None and left <= 0 or job.limit is not None and job.limit <= 0
                    or kind.enough(self.answer)):
                self.rest = entries[i:]
                return
            timeout = None
            if task.deadline is not None:
                timeout = task.deadline - time.time()
                if timeout <= 0:
                    self.rest = entries[i:]
                    return
            s = Stats()
            opts = Options(forced=tuple([labels[o] for o in e.piece]), max_nodes=left,
                           timeout=timeout, stats=s, heuristic=task.heuristic,
                           engine=task.engine)
            try:
                r = kind.search(self.known.problem, opts, job)
            except BudgetExceeded as stop:
                self.nodes += s.nodes
                self.stopped, self.timed_out = True, stop.max_nodes is None
                if stop.frontier is None:
                    self._cut_again(i, stop)
                else:
                    self._hand_back(i, stop, s)
                return
            self.nodes += s.nodes
            add(self.merged, *counts(s))
            self.answer = kind.combine(self.answer, r, job)
            self.done += 1
            self.weight += e.weight
            if left is not None:
                left -= s.nodes
            if job.limit is not None:
                job.limit -= kind.used(r)

    def _hand_back(self, i: int, stop: BudgetExceeded, s: Stats) -> None:
        """Entry ``i`` stopped part way: keep what it found, and hand back its unexplored
        subtrees (keyed after the part searched, with their shares) before the entries
        not started."""
        entries = self.task.entries
        e = entries[i]
        number = self.known.number
        frontier = [tuple([number(label) for label in piece]) for piece in stop.frontier]
        if frontier == [e.piece]:
            # the time ran out before its search began (while the problem was laid
            # out): nothing of it was done, it leads the rest as it is
            self.rest = entries[i:]
            return
        add(self.merged, *counts(s))
        self.answer = self.kind.combine(self.answer, self.kind.cut_short(stop.found), self.job)
        children = shares(e, frontier)
        self.weight += e.weight - sum(c.weight for c in children)
        self.done += 1
        self.rest = (*children, *entries[i + 1:])

    def _cut_again(self, i: int, stop: BudgetExceeded) -> None:
        """Entry ``i`` stopped with no frontier to hand back (a branch and bound, or a
        search with bounds): cut it one level down here, its children to be run instead
        (or hand it back whole when it cannot be cut, or may not be now)."""
        task, entries = self.task, self.task.entries
        e = entries[i]
        self.partial = stop.found
        if self.timed_out or not task.cut:
            self.rest = entries[i:]             # not done: it is part of the frontier
            return
        labels, number = self.known.labels, self.known.number
        n, below, s = expand(self.known.problem, tuple([labels[o] for o in e.piece]),
                             task.heuristic, task.engine)
        if n < 0:
            self.whole = True
            self.rest = entries[i:]
            return
        if below is None and n:
            self.rest = entries[i:]             # a solution node: run it again whole
            return
        self.nodes += s.nodes
        add(self.merged, *counts(s))
        self.done += 1
        if not below:
            self.weight += e.weight
            self.rest = entries[i + 1:]
            return
        share = e.weight / len(below)
        self.rest = (*[Entry((*e.key, j), tuple([number(label) for label in child]), share)
                       for j, child in enumerate(below)], *entries[i + 1:])


def ping(nonce: int) -> str:
    """A task that does nothing (the round trip's measure): the worker's name."""
    return _worker_name()


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

