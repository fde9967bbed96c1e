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
>>> pieces = dlx.parallel.split(p, pieces=8)
>>> sum(dlx.count(p, forced=piece) for piece in pieces) == dlx.count(p) == 4
True
>>> serial, merged = dlx.Stats(), dlx.Stats()
>>> with ThreadPoolExecutor(2) as ex:
...     parallel.count(p, ex, stats=merged), dlx.count(p, stats=serial)
(4, 4)
>>> merged == serial          # nodes, updates, solutions and profile, exactly
True

The pieces
----------
:func:`split` walks the serial tree from the root (or from ``forced=``), choosing
items with the same heuristic as the serial search, and expands first the pieces
that look biggest: Knuth's estimate, a child's share of its parent is one over
the number of its siblings.  It stops at about ``pieces`` pieces (or at
``depth``).  A solution met above the cut is a piece of its own (of one node); a
dead end met above it is not a piece at all.  ``stats=`` receives the counts of
the nodes above the pieces, so that they plus the pieces' add up exactly.

Running on an Executor
----------------------
``executor`` is any :class:`concurrent.futures.Executor`:

* ``ThreadPoolExecutor(n)``: the compiled core releases the GIL while it
  searches, so threads run in parallel (the pure engine does not).
* ``ProcessPoolExecutor(n)``, or :func:`executor` (``jobs=n``), which also makes
  the workers ignore Ctrl-C so that only the caller handles it.
* a Dask cluster: ``distributed.Client(address).get_executor(pure=False)`` (no
  hashing of the arguments: every task differs), or :func:`executor`
  (``scheduler=address``), which closes its client on shutdown.  Dask is the
  optional extra ``dancing-links-dlx[dask]``.  Dask's per-task cost is some
  milliseconds (against about half of one for a process pool), and its workers run
  tasks in a thread beside their event loop: turning off the workers' statistical
  profiler (``distributed.worker.profile.enabled: false``) helps.

The problem travels once per worker (pickled; a worker process keeps the last
few problems it was given, so the pieces that follow travel alone: a tuple of
labels each).  Labels, items and a callable ``heuristic`` must therefore be
picklable for a process pool or a cluster (a thread pool shares them).

*Dynamic balance.*  A task is a run of consecutive pieces with a node budget
(``piece_nodes``; by default about :data:`TASK_SECONDS` of search, measured as the
run goes, and smaller near the end: a quarter of each worker's share of what is
left, as the pieces' shares estimate it).  When a task runs out of budget, its
worker hands back the frontier of the piece it stopped in
(:attr:`dlx.BudgetExceeded.frontier`) and the pieces it did not start; they go
back into the queue.  So a heavy subtree is cut up while it runs and never holds
the whole run, and a task never runs long: a cancelled run stops within one task.
(A search with bounds, Algorithm M, hands over no frontier: its tree is one piece.)

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
plus the estimated fraction of the tree done and the pieces done and left.

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

    ex = parallel.executor(scheduler=address) if address else parallel.executor(jobs=n)
    with ex:
        total = parallel.count(problem, ex, stats=stats,
                               progress=lambda r: bar.update(task, completed=r.fraction))

KeyboardInterrupt comes out of ``count`` (exit 130), BudgetExceeded out of a
``max_nodes`` or ``timeout`` run (exit 124), each with the partial answer.
"""

from __future__ import annotations

import heapq
import os
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from . import views
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Stats
from .problem import ExactCover
from .search import Heuristic, HeuristicName, SearchState

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

__all__ = ["split", "count", "solutions", "first", "is_unique", "best", "Report", "executor",
           "RETRIES", "REPORT_EVERY", "MAX_JOBS"]

#: A piece: the labels of the forced options on the path to a node of the search tree.
Piece = tuple[Hashable, ...]

#: A piece that failed this many times (its worker died each time) raises the error.
RETRIES = 3

#: ``progress`` is called at most this often (seconds), and once at the end.
REPORT_EVERY = 0.1

#: The default node budget of a task aims at this many seconds of search.
TASK_SECONDS = 0.1

_FIRST_BUDGET = 20_000          # nodes per task until the search rate is measured
_MIN_BUDGET, _MAX_BUDGET = 1_000, 50_000_000
_PIECES_PER_WORKER = 16         # the first split's target, per worker
_MAX_CHUNK = 64                 # pieces per task at most
_GRACE = 5.0                    # seconds to wait for running tasks after a timeout
_HEARTBEAT = 0.5                # seconds between checks while waiting
_CHAIN_START = 16               # nodes of the first search down a chain (then doubling)
_ORPHAN_CHECK = 0.2             # seconds between a pool worker's looks at its parent

#: The most worker processes :func:`executor` starts: more than a few per core only
#: costs memory and start-up time (the search is CPU-bound).
MAX_JOBS = max(32, 4 * (os.cpu_count() or 1))


# ----------------------------------------------------------------------- the split


class _Entry(NamedTuple):
    """A piece with its place in search order (``key``: lexicographic order of the
    keys is the serial order) and its estimated share of the tree (``weight``)."""

    key: tuple[int, ...]
    piece: Piece
    weight: float


class _Cut(NamedTuple):
    entries: list[_Entry]       # the pieces, in search order
    above: Stats                # the nodes above them (dead ends included)
    done: float                 # the estimated share of the tree above them
    whole: bool                 # a piece could not be cut (the search has no frontier)


def _expand(problem: ExactCover, piece: Piece, heuristic: HeuristicName | Heuristic | None,
            engine: views.Engine | None) -> tuple[int, list[Piece] | None, Stats]:
    """Visit the node ``piece`` alone: ``(1 if it is a solution, its children in
    search order or None when it has none, the statistics of that one node)``;
    ``(-1, None, ...)`` when the search cannot hand over its children (a search
    with bounds, Algorithm M, has no frontier).

    It is a forced search with a budget of one node: the search stops as it is
    about to try its first child and hands over every child as its frontier."""
    s = Stats()
    try:
        n = views.count(problem, forced=piece, max_nodes=1, stats=s, heuristic=heuristic,
                        engine=engine)
    except BudgetExceeded as e:
        if e.frontier is None:
            return -1, None, s
        return 0, list(e.frontier), s
    return n, None, s


def _follow(problem: ExactCover, piece: Piece, heuristic: HeuristicName | Heuristic | None,
            engine: views.Engine | None, nodes: int, timeout: float | None
            ) -> tuple[list[Piece], Stats] | None:
    """Search below ``piece`` for at most ``nodes`` nodes, where the tree is a chain:
    ``(what is left, the statistics of the nodes visited)`` when the search met no
    solution and left at most one subtree (dead ends beside the path are visited
    and counted); None when it met a solution or left several subtrees (then the
    caller visits ``piece`` alone).

    A deep chain (each node with one child, or one besides dead ends) is walked in
    one search this way, instead of one search per level placing every forced
    option again: that made :func:`split` quadratic in the depth."""
    s = Stats()
    try:
        n = views.count(problem, forced=piece, max_nodes=nodes, timeout=timeout, stats=s,
                        heuristic=heuristic, engine=engine, limit=1)
    except BudgetExceeded as e:
        if e.found or e.frontier is None or len(e.frontier) != 1:
            return None
        return [tuple(e.frontier[0])], s
    return (None if n else ([], s))


def _add(into: Stats, nodes: int, updates: int, solutions: int, profile: Sequence[int]) -> None:
    """Add one search's counts to ``into`` (profiles add level by level)."""
    into.nodes += nodes
    into.updates += updates
    into.solutions += solutions
    mine = into.profile
    if len(mine) < len(profile):
        mine.extend([0] * (len(profile) - len(mine)))
    for level, n in enumerate(profile):
        if n:
            mine[level] += n


def _counts(s: Stats) -> tuple[int, int, int, tuple[int, ...]]:
    return s.nodes, s.updates, s.solutions, tuple(s.profile)


def _cut(problem: ExactCover, root: Piece, *, pieces: int | None, depth: int | None,
         heuristic: HeuristicName | Heuristic | None, engine: views.Engine | None,
         max_nodes: int | None = None, deadline: float | None = None) -> _Cut:
    """The frontier of the serial tree below ``root``: about ``pieces`` pieces,
    biggest-looking first, or every node at ``depth`` levels below ``root``
    (solutions above the cut are pieces too).  At most ``max_nodes`` nodes are
    visited above the cut, and the cut stops at ``deadline`` (``time.monotonic()``).

    Its time is linear in the depth of the tree: a node with a single child is
    not cut one level at a time, but followed down in searches of doubling size
    (:func:`_follow`) until the tree branches."""
    base = len(root)
    above = Stats()
    done = 0.0
    kept: list[_Entry] = []                       # solutions above the cut
    whole = False
    # the open pieces as (rank, key, piece, share): biggest share first, or with a
    # depth, shallowest first; keys are unique, so pieces are never compared
    heap: list[tuple[float, tuple[int, ...], Piece, float]] = [(-1.0, (), root, 1.0)]
    while heap:
        if depth is None and pieces is not None and len(heap) + len(kept) >= pieces:
            break
        if max_nodes is not None and above.nodes >= max_nodes:
            break
        if depth is not None and len(heap[0][2]) - base >= depth:
            break
        if deadline is not None and time.monotonic() >= deadline:
            break
        _, key, piece, weight = heapq.heappop(heap)
        n, children, s = _expand(problem, piece, heuristic, engine)
        if children is None and n:
            # a solution (a piece of one node), or a piece that cannot be cut
            kept.append(_Entry(key, piece, weight))
            whole = whole or n < 0
            continue
        _add(above, *_counts(s))
        stride = _CHAIN_START
        while depth is None and children is not None and len(children) == 1:
            # a chain: walk down it in one search, not one search per level
            room = stride if max_nodes is None else min(stride, max_nodes - above.nodes)
            left = None if deadline is None else deadline - time.monotonic()
            if room < 2 or left is not None and left <= 0:
                break
            walked = _follow(problem, children[0], heuristic, engine, room, left)
            if walked is None:
                break                   # the tree branches (or a solution) within reach
            children, s = walked
            _add(above, *_counts(s))
            key, stride = (*key, 0), 2 * stride
        if not children:
            done += weight                              # a dead end (or a clash)
            continue
        share = weight / len(children)
        rank = -share if depth is None else float(len(piece) + 1 - base)
        for j, child in enumerate(children):
            heapq.heappush(heap, (rank, (*key, j), child, share))
    entries = kept + [_Entry(key, piece, weight) for _, key, piece, weight in heap]
    entries.sort()
    return _Cut(entries, above, done, whole)


def split(
    problem: ExactCover,
    pieces: int | None = None,
    *,
    depth: int | None = None,
    forced: Iterable[Hashable] = (),
    heuristic: HeuristicName | Heuristic | None = None,
    stats: Stats | None = None,
    engine: views.Engine | None = None,
) -> list[Piece]:
    """Cut the serial search tree into pieces: a list of tuples of forced options.

    Each piece is the path (option labels) to a node of the serial search's tree,
    found with the same ``heuristic``; searching each alone with ``forced=piece``
    and adding up gives the serial search's count, and their nodes, updates and
    profile plus those of the nodes above them (``stats``) give the serial
    search's.  The pieces come in search order.

    Parameters
    ----------
    problem : ExactCover
    pieces : int or None
        About how many pieces (default 64): the pieces that look biggest are cut
        further first (a child's share of its parent is one over the number of its
        siblings).  Fewer when the tree is smaller; a few more when the last node
        cut had many children.
    depth : int or None
        Instead, every node this many levels below the root (solutions and dead
        ends above that depth end their branch).
    forced : labels
        Split the subtree below these options instead of the whole tree.
    heuristic, engine
        As for every view (:mod:`dlx.views`).
    stats : Stats or None
        Filled with the counts of the nodes above the pieces (the dead ends there
        included): their sum with the pieces' counts is the whole search's.

    Examples
    --------
    >>> import dlx
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"], "z": ["a"]})
    >>> dlx.parallel.split(p, depth=1)        # item b has the fewest options
    [('y',), ('xy',)]
    >>> above = dlx.Stats()
    >>> pieces = dlx.parallel.split(p, pieces=10, stats=above)
    >>> pieces, above.nodes                     # the root and ('y',) are above the cut
    ([('y', 'x'), ('y', 'z'), ('xy',)], 2)
    >>> sum(dlx.count(p, forced=piece) for piece in pieces), dlx.count(p)
    (3, 3)
    """
    req = views._Request(problem, stats=stats, heuristic=heuristic, forced=forced,
                         engine=engine)
    if pieces is not None and depth is not None:
        raise ExactCoverError("give split() pieces= or depth=, not both")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                              or depth < 0):
        raise ExactCoverError(f"depth must be a whole number >= 0 or None, not {shown(depth)}")
    views._check_positive(pieces, "pieces")
    if pieces is None and depth is None:
        pieces = 64
    labels = req.links.labels
    root = tuple(labels[o] for o in req.forced)
    cut = _cut(problem, root, pieces=pieces, depth=depth, heuristic=heuristic, engine=engine)
    if stats is not None:
        stats.nodes = stats.updates = stats.solutions = 0
        stats.profile = []
        _add(stats, *_counts(cut.above))
    return [e.piece for e in cut.entries]


# ----------------------------------------------------------------------- the workers


class _Local(NamedTuple):
    """The problem itself, handed to threads of this process (nothing is pickled)."""

    problem: ExactCover
    weights: Mapping[Hashable, Any] | None


class _Task(NamedTuple):
    """What a worker runs: consecutive pieces of one problem, under one node budget."""

    key: str                        # the problem's name in the worker's cache
    blob: bytes | _Local | None     # the problem, when the worker may not have it yet
    mode: str                       # "count", "solutions", "first" or "best"
    pieces: tuple[Piece, ...]
    budget: int | None              # nodes for the whole task
    deadline: float | None          # time.time() at which to stop
    limit: int | None               # solutions wanted at most (count, solutions)
    heuristic: HeuristicName | Heuristic | None
    engine: views.Engine | None
    maximize: bool
    k: int                          # best: how many best solutions
    bound: Callable[[SearchState], Any] | None
    nonce: int                      # every submission differs (Dask caches equal calls)


class _Outcome(NamedTuple):
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


def _lookup(key: str, blob: bytes | _Local | None
            ) -> tuple[ExactCover, Mapping[Hashable, Any] | None] | None:
    """The problem (and weights) of ``key`` in this worker: from the task, from the
    cache, or None when the worker does not have it (the task must bring it)."""
    if isinstance(blob, _Local):
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


def _work(task: _Task) -> _Outcome:
    """Run a task's pieces in order until they are done or its budget or time runs out."""
    began, cpu = time.perf_counter(), time.thread_time()
    entry = _lookup(task.key, task.blob)
    if entry is None:
        return _Outcome(missing=True, worker=_worker_name())
    problem, weights = entry
    done, stop = Stats(), Stats()
    found: list[Any] = []
    left = task.budget
    wanted = task.limit
    stopped = timed_out = False
    partial: Any = None
    frontier: tuple[Piece, ...] | None = None
    for piece in task.pieces:
        if left is not None and left <= 0 or wanted is not None and wanted <= 0:
            break
        timeout = None
        if task.deadline is not None:
            timeout = task.deadline - time.time()
            if timeout <= 0:
                break
        s = Stats()
        kw: dict[str, Any] = {"forced": piece, "max_nodes": left, "timeout": timeout,
                              "stats": s, "heuristic": task.heuristic, "engine": task.engine}
        try:
            if task.mode == "count":
                r: Any = views.count(problem, limit=wanted, **kw)
            elif task.mode == "solutions":
                r = list(views.solutions(problem, limit=wanted, **kw))
            elif task.mode == "first":
                r = views.first(problem, **kw)
            else:
                assert weights is not None
                r = views.best(problem, weights, k=task.k, maximize=task.maximize,
                               bound=task.bound, **kw)
        except BudgetExceeded as e:
            stopped, timed_out = True, e.max_nodes is None
            partial = e.found
            frontier = None if e.frontier is None else tuple(e.frontier)
            _add(stop, *_counts(s))
            break
        _add(done, *_counts(s))
        found.append(r)
        if left is not None:
            left -= s.nodes
        if wanted is not None:
            wanted -= r if task.mode == "count" else len(r)
        if task.mode == "first" and r is not None:
            break
    return _Outcome(False, tuple(found), stopped, timed_out, partial, frontier,
                    _counts(done), _counts(stop), time.perf_counter() - began,
                    time.thread_time() - cpu, _worker_name())


def _worker_name() -> str:
    import socket
    return f"{socket.gethostname()}:{os.getpid()}"


def _quiet(parent: int | None = None) -> None:
    """A worker process's initializer: leave Ctrl-C to the process that waits on it, and
    exit when that process is gone (a killed parent must not leave its pool running:
    a watchdog thread looks every :data:`_ORPHAN_CHECK` seconds whether this process
    still has the parent ``parent``, its pid when the pool was made)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is None:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_ORPHAN_CHECK)
        os._exit(1)                     # the parent died: nobody waits for our answers

    threading.Thread(target=watch, name="dlx-orphan-watchdog", daemon=True).start()


# ------------------------------------------------------------------------- progress


@dataclass
class Report(Stats):
    """What ``progress`` receives: the merged :class:`~dlx.Stats` of the pieces done
    so far (and of the nodes above them), and how far the run is.

    ``fraction`` is the estimated share of the tree done (1.0 at the end; each piece
    counts for its share of the tree, as :func:`split` estimates it);
    ``pieces_done`` and ``pieces_left`` (queued or running) count pieces,
    ``running`` the tasks submitted and not yet back, ``workers`` the workers seen,
    ``faults`` the tasks lost to a dead worker and run again, ``seconds`` the
    time since the run began.

    >>> print(Report(nodes=10, updates=40, solutions=2, profile=[1, 3, 6], fraction=0.5,
    ...              pieces_done=3, pieces_left=4, workers=2))
    10 nodes, 40 updates, 2 solutions, depth 2; 50% done, 3 pieces done, 4 left, 2 workers
    """

    fraction: float = 0.0
    pieces_done: int = 0
    pieces_left: int = 0
    running: int = 0
    workers: int = 0
    faults: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        out = (f"{Stats.__str__(self)}; {self.fraction:.0%} done, {self.pieces_done:,} pieces"
               f" done, {self.pieces_left:,} left, {self.workers} worker"
               f"{'' if self.workers == 1 else 's'}")
        return out + (f", {self.faults} faults" if self.faults else "")


# ------------------------------------------------------------------------ the driver


_KEYS: weakref.WeakKeyDictionary[ExactCover, str] = weakref.WeakKeyDictionary()


def _problem_key(problem: ExactCover) -> str:
    """A name for ``problem`` in the workers' caches (the same for every run on it)."""
    key = _KEYS.get(problem)
    if key is None:
        key = _KEYS[problem] = os.urandom(12).hex()
    return key


def _width(executor: Executor) -> int:
    """How many tasks ``executor`` runs at once (its workers), as far as it tells."""
    n = getattr(executor, "_max_workers", None)
    if isinstance(n, int) and n > 0:
        return n
    client = getattr(executor, "_client", None)         # Dask's ClientExecutor
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # noqa: BLE001 - a cluster that cannot say: guess
            pass
    return os.cpu_count() or 1


def _is_fault(e: BaseException) -> bool:
    """Did the task fail because its worker was lost (rather than by an error of its own)?"""
    from concurrent.futures import BrokenExecutor, CancelledError
    if isinstance(e, (BrokenExecutor, CancelledError, EOFError, ConnectionError)):
        return True
    return type(e).__name__ in ("KilledWorker", "CommClosedError", "FutureCancelledError")


class _Flight(NamedTuple):
    entries: list[_Entry]
    budget: int | None
    executor: Executor


class _Driver:
    """One parallel run: the queue of pieces, the tasks in flight, the merged answer."""

    def __init__(self, problem: ExactCover, executor: Executor, mode: str, *,
                 limit: int | None = None, max_nodes: int | None = None,
                 timeout: float | None = None, stats: Stats | None = None,
                 heuristic: HeuristicName | Heuristic | None = None,
                 progress: Callable[[Report], object] | None = None,
                 forced: Iterable[Hashable] = (), engine: views.Engine | None = None,
                 pieces: int | None = None, piece_nodes: int | None = None,
                 ordered: bool = True, weights: Mapping[Hashable, Any] | None = None,
                 k: int | None = None, maximize: bool = True,
                 bound: Callable[[SearchState], Any] | None = None) -> None:
        import queue
        from concurrent.futures import Executor, ThreadPoolExecutor

        req = views._Request(problem, limit=limit, max_nodes=max_nodes, timeout=timeout,
                             stats=stats, heuristic=heuristic, forced=forced, engine=engine)
        if progress is not None and not callable(progress):
            raise ExactCoverError("progress must be a callable (taking a Report) or None")
        if not isinstance(executor, Executor):
            raise ExactCoverError(f"executor must be a concurrent.futures.Executor, not"
                                  f" {type(executor).__name__}")
        views._check_positive(pieces, "pieces")
        views._check_positive(piece_nodes, "piece_nodes")
        self.problem, self.mode = problem, mode
        self.executor = executor
        self.own: list[Executor] = []                   # executors made here (after faults)
        self.width = _width(executor)
        self.limit, self.max_nodes, self.timeout = limit, max_nodes, timeout
        self.stats = req.stats
        self.heuristic, self.engine = heuristic, engine
        self.progress = progress
        self.root = tuple(req.links.labels[o] for o in req.forced)
        self.first_pieces = pieces or _PIECES_PER_WORKER * self.width
        self.piece_nodes = piece_nodes
        self.rate = 0.0                                 # nodes per second, measured
        self.splittable = True                          # can a piece be cut?
        self.ordered = ordered
        self.weights, self.k, self.maximize, self.bound = weights, k, maximize, bound
        self.local = isinstance(executor, ThreadPoolExecutor)
        self.key = _problem_key(problem) if weights is None else os.urandom(12).hex()
        self._blob: bytes | None = None
        self.blobs_sent = 0                             # to the current executor
        self.nonce = 0
        # the state of the run
        self.pending: list[_Entry] = []                 # a heap: search order
        self.flights: dict[Future[_Outcome], _Flight] = {}
        self.landed: queue.SimpleQueue[Future[_Outcome]] = queue.SimpleQueue()   # done ones
        self.attempts: dict[tuple[int, ...], int] = {}
        self.spent = 0                                  # nodes reported (for max_nodes)
        self.reserved = 0                               # the budgets of tasks in flight
        self.done = 0.0                                 # the share of the tree done
        self.pieces_done = self.faults = 0
        self.workers: set[str] = set()
        self.began = time.monotonic()
        self.deadline = None if timeout is None else self.began + timeout
        self.last_report = -REPORT_EVERY
        # the answer
        self.total = 0                                  # count
        self.released = 0                               # solutions handed out
        self.ready: list[tuple[tuple[int, ...], list[Piece]]] = []   # solutions held back
        self.open: list[tuple[int, ...]] = []           # keys of pieces not done (a heap)
        self.closed: set[tuple[int, ...]] = set()
        self.answer: Any = None                         # first: a solution
        self.kbest: list[tuple[Any, tuple[int, ...], int, Any, Piece]] = []   # best
        self.partial: list[tuple[Any, Piece]] = []      # best: from pieces cut again
        self.finished = False

    # ---------------------------------------------------------------- the loop

    def run(self) -> Iterator[list[Piece]]:
        """Run to the end, yielding batches of solutions (mode "solutions") as they
        may be released; raise BudgetExceeded when a budget runs out."""
        import queue

        s = self.stats
        s.nodes = s.updates = s.solutions = 0
        s.profile = []
        try:
            self._start()
            while not self.finished:
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    yield from self._time_is_up()
                self._fill()
                if not self.flights:
                    if self.pending:
                        raise self._out_of_budget()
                    break
                wait_for = _HEARTBEAT
                if self.deadline is not None:
                    wait_for = max(0.0, min(wait_for, self.deadline - time.monotonic()))
                # the tasks that finished (each future puts itself in `landed` when
                # done: waiting costs nothing per task in flight)
                try:
                    done = [self.landed.get(timeout=wait_for)]
                except queue.Empty:
                    continue
                while True:
                    try:
                        done.append(self.landed.get_nowait())
                    except queue.Empty:
                        break
                for fut in done:
                    if fut in self.flights:
                        self._land(fut)
                        if self.finished:
                            break
                yield from self._release()
                self._report()
            yield from self._release()
            self._report(final=True)
        finally:
            self._cancel()

    def _start(self) -> None:
        cut = _cut(self.problem, self.root, pieces=self.first_pieces, depth=None,
                   heuristic=self.heuristic, engine=self.engine, max_nodes=self.max_nodes,
                   deadline=self.deadline)
        _add(self.stats, *_counts(cut.above))
        self.splittable = not cut.whole
        self.spent += cut.above.nodes
        self.done += cut.done
        for e in cut.entries:
            self._queue(e, new=True)

    def _queue(self, e: _Entry, new: bool = False) -> None:
        heapq.heappush(self.pending, e)
        if new and self.mode == "solutions" and self.ordered:
            heapq.heappush(self.open, e.key)

    def _close(self, key: tuple[int, ...]) -> None:
        if self.mode == "solutions" and self.ordered:
            self.closed.add(key)

    def _budget(self) -> int | None:
        if not self.splittable:
            return None         # a piece that ran out could be neither cut nor resumed
        if self.piece_nodes is not None:
            b = self.piece_nodes
        elif self.rate:
            b = int(min(max(self.rate * TASK_SECONDS, _MIN_BUDGET), _MAX_BUDGET))
            if 0.1 <= self.done < 1:
                # guided: near the end, smaller tasks (a quarter of each worker's share
                # of what is left, as the shares estimate it), so that no worker is
                # left with a long last task while the others wait
                left = self.spent * (1 - self.done) / self.done
                b = int(min(b, max(_MIN_BUDGET, left / (4 * self.width))))
        else:
            b = _FIRST_BUDGET
        if self.mode == "best":
            b *= 4              # a best piece that runs out is cut and run again: rarely
        return b

    def _fill(self) -> None:
        """Submit tasks until every worker has two (or the budget is all reserved)."""
        while self.pending and len(self.flights) < 2 * self.width and not self.finished:
            budget = self._budget()
            if self.max_nodes is not None:
                room = self.max_nodes - self.spent - self.reserved
                if room <= 0:
                    return
                budget = room if budget is None else min(budget, room)
            size = min(max(1, len(self.pending) // (2 * self.width)), _MAX_CHUNK)
            entries = [heapq.heappop(self.pending) for _ in range(min(size, len(self.pending)))]
            self._submit(entries, budget)

    def _limit_left(self) -> int | None:
        if self.limit is None:
            return None
        if self.mode == "count":
            return self.limit - self.total
        if self.mode == "solutions":
            held = sum(len(sols) for _, sols in self.ready) if not self.ordered else 0
            return self.limit - self.released - held
        return None

    def _submit(self, entries: list[_Entry], budget: int | None, blob: bool = False) -> None:
        from concurrent.futures import BrokenExecutor

        if self.local:
            payload: bytes | _Local | None = _Local(self.problem, self.weights)
        elif blob or self.blobs_sent < self.width:
            payload = self._pickled()
            self.blobs_sent += 1
        else:
            payload = None
        self.nonce += 1
        task = _Task(self.key, payload, self.mode, tuple(e.piece for e in entries), budget,
                     None if self.timeout is None else time.time() + self._time_left(),
                     self._limit_left(), self.heuristic, self.engine, self.maximize,
                     self.k or 1, self.bound, self.nonce)
        try:
            fut = self.executor.submit(_work, task)
        except BrokenExecutor as broken:
            self._replace(broken)
            fut = self.executor.submit(_work, task._replace(blob=self._pickled()))
            self.blobs_sent += 1
        self.flights[fut] = _Flight(entries, budget, self.executor)
        fut.add_done_callback(self.landed.put)
        self.reserved += budget or 0

    def _time_left(self) -> float:
        assert self.deadline is not None
        return self.deadline - time.monotonic()

    def _pickled(self) -> bytes:
        if self._blob is None:
            import pickle
            try:
                self._blob = pickle.dumps((self.problem, self.weights),
                                          protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as e:  # noqa: BLE001 - say what must be picklable
                raise ExactCoverError(
                    f"the problem must be picklable to run on {type(self.executor).__name__}"
                    f" (its labels, items and weights): {e}") from e
        return self._blob

    def _replace(self, e: BaseException) -> None:
        """Swap a broken process pool for a fresh one of the same shape."""
        from concurrent.futures import ProcessPoolExecutor

        old = self.executor
        if not isinstance(old, ProcessPoolExecutor) or len(self.own) >= RETRIES:
            raise e
        new = ProcessPoolExecutor(max_workers=getattr(old, "_max_workers", None),
                                  mp_context=getattr(old, "_mp_context", None),
                                  initializer=getattr(old, "_initializer", None),
                                  initargs=getattr(old, "_initargs", ()))
        self.own.append(new)
        self.executor = new
        self.blobs_sent = 0

    # ------------------------------------------------------------ the results

    def _land(self, fut: Future[_Outcome]) -> None:
        """Take in the outcome of a finished task."""
        flight = self.flights.pop(fut)
        self.reserved -= flight.budget or 0
        try:
            out = fut.result()
        except BaseException as lost:
            if not _is_fault(lost):
                raise
            self._fault(flight, lost)
            return
        if out.missing:                 # the worker had not got the problem: bring it
            self._submit(flight.entries, flight.budget, blob=True)
            return
        self.workers.add(out.worker)
        worked = out.counts[0] + out.stop_counts[0]
        self.spent += worked
        if out.seconds > 0 and worked > 100:
            rate = worked / out.seconds
            self.rate = rate if not self.rate else 0.7 * self.rate + 0.3 * rate
        _add(self.stats, *out.counts)
        entries = flight.entries
        for e, r in zip(entries, out.found, strict=False):
            self._finished(e, r)
        after = len(out.found)
        if out.stopped:
            self._stopped(entries[after], out)
            after += 1
        for e in entries[after:]:
            self._queue(e)

    def _finished(self, e: _Entry, r: Any) -> None:
        """Piece ``e`` is done: its answer is ``r``."""
        self.pieces_done += 1
        self.done += e.weight
        self._close(e.key)
        self._take(e.key, r)

    def _take(self, key: tuple[int, ...], r: Any) -> None:
        """Merge an answer found under ``key`` (a piece's, or part of one)."""
        if self.mode == "count":
            self.total += r
            if self.limit is not None and self.total >= self.limit:
                self.total = self.limit
                self.finished = True
        elif self.mode == "solutions":
            if r:
                heapq.heappush(self.ready, (key, r))
        elif self.mode == "first":
            if r is not None:
                self.answer, self.finished = r, True
        else:
            # each piece's k best, best first; equal scores go to the earlier piece
            for i, (score, sol) in enumerate(r):
                self.kbest.append((-score if self.maximize else score, key, i, score, sol))
            self.kbest.sort(key=lambda t: t[:3])
            del self.kbest[self.k or 1:]

    def best(self) -> Any:
        """The answer of :func:`best`: the k best, or the best (None when none)."""
        found = [(score, sol) for _, _, _, score, sol in self.kbest]
        return found if self.k is not None else (found[0] if found else None)

    def _stopped(self, e: _Entry, out: _Outcome) -> None:
        """Piece ``e`` ran out of budget (or time) part way."""
        if out.frontier is None:    # best (or bounds): cut it one level and start again
            if self.mode == "best":
                self.partial.extend(out.partial or ())
            room = None if self.max_nodes is None else self.max_nodes - self.spent - self.reserved
            if out.timed_out or room is not None and room <= 0:
                self._queue(e)                  # not done: it is part of the frontier
                return
            n, below, s = _expand(self.problem, e.piece, self.heuristic, self.engine)
            if n < 0:
                self.splittable = False         # run it again, whole, without a budget
                self._queue(e)
                return
            self.pieces_done += 1
            self._close(e.key)
            _add(self.stats, *_counts(s))
            self.spent += s.nodes
            if not below:
                self.done += e.weight
                return
            for j, child in enumerate(below):
                self._queue(_Entry((*e.key, j), child, e.weight / len(below)), new=True)
            return
        _add(self.stats, *out.stop_counts)
        self.pieces_done += 1
        self._close(e.key)
        partial = out.partial
        if self.mode == "first":                # (a list of what solutions() found)
            partial = partial[0] if partial else None
        self._take((*e.key, 0), partial)
        rest = _shares(e, out.frontier)
        self.done += e.weight - sum(c.weight for c in rest)
        for c in rest:
            self._queue(c, new=True)

    def _fault(self, flight: _Flight, e: BaseException) -> None:
        """A task was lost with its worker: run its pieces again."""
        from concurrent.futures import BrokenExecutor

        self.faults += 1
        if isinstance(e, BrokenExecutor) and flight.executor is self.executor:
            self._replace(e)
        for entry in flight.entries:
            n = self.attempts[entry.key] = self.attempts.get(entry.key, 0) + 1
            if n > RETRIES:
                raise e
            self._queue(entry)

    def _release(self) -> Iterator[list[Piece]]:
        """Hand out the solutions that may go: all (unordered), or those before the
        first piece not done yet (ordered)."""
        if self.mode != "solutions":
            return
        if self.ordered:
            while self.open and self.open[0] in self.closed:
                self.closed.discard(heapq.heappop(self.open))
        while self.ready and (not self.ordered or not self.open
                              or self.ready[0][0] < self.open[0]):
            _, sols = heapq.heappop(self.ready)
            self.released += len(sols)
            yield sols

    def held(self) -> list[Piece]:
        """The solutions found and not handed out, in search order."""
        return [sol for _, sols in sorted(self.ready) for sol in sols]

    def _report(self, final: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if not final and now - self.last_report < REPORT_EVERY:
            return
        self.last_report = now
        s = self.stats
        left = len(self.pending) + sum(len(f.entries) for f in self.flights.values())
        fraction = 1.0 if final and not left else min(self.done, 1.0)
        self.progress(Report(s.nodes, s.updates, s.solutions, list(s.profile),
                             fraction=fraction, pieces_done=self.pieces_done,
                             pieces_left=left, running=len(self.flights),
                             workers=len(self.workers), faults=self.faults,
                             seconds=now - self.began))

    # --------------------------------------------------------------- stopping

    def _time_is_up(self) -> Iterator[list[Piece]]:
        """The deadline has passed: cancel the queued tasks, take in those that come
        back within a grace period (they stop at the deadline too), raise."""
        from concurrent.futures import wait

        for fut, flight in list(self.flights.items()):
            if fut.cancel():
                del self.flights[fut]
                self.reserved -= flight.budget or 0
                for e in flight.entries:
                    self._queue(e)
        grace = time.monotonic() + _GRACE
        while self.flights and time.monotonic() < grace:
            done, _ = wait(list(self.flights), timeout=max(0.0, grace - time.monotonic()))
            for fut in done:
                if fut in self.flights:
                    self._land(fut)
        for fut, flight in list(self.flights.items()):      # abandoned: not counted
            del self.flights[fut]
            for e in flight.entries:
                self._queue(e)
        if self.finished or not self.pending:
            return                                          # it all finished in time
        yield from self._release()
        raise self._out_of_budget()

    def _out_of_budget(self) -> BudgetExceeded:
        frontier = [e.piece for e in sorted(self.pending)]
        found: Any
        if self.mode == "count":
            found = self.total
        elif self.mode == "solutions":
            found = None                                    # filled in by solutions()
        elif self.mode == "first":
            found = []
        else:
            found = self._best_so_far()
        if self.timeout is not None and self.deadline is not None \
                and time.monotonic() >= self.deadline:
            return BudgetExceeded(None, found, self.stats, timeout=self.timeout,
                                  frontier=frontier)
        return BudgetExceeded(self.max_nodes, found, self.stats, frontier=frontier)

    def _best_so_far(self) -> Any:
        """best, stopped: the k best of the pieces done and of those cut part way."""
        key: tuple[int, ...] = (1 << 62,)       # after every piece
        more = [(-score if self.maximize else score, key, i, score, sol)
                for i, (score, sol) in enumerate(self.partial)]
        found: list[tuple[Any, Piece]] = []
        seen: set[Piece] = set()
        for *_, score, sol in sorted(self.kbest + more, key=lambda t: t[:3]):
            if sol not in seen:
                seen.add(sol)
                found.append((score, sol))
        return found[:self.k] if self.k is not None else (found[0] if found else None)

    def _cancel(self) -> None:
        """Cancel every task still queued; let go of the executors made here."""
        for fut in self.flights:
            fut.cancel()
        self.flights.clear()
        for ex in self.own:
            ex.shutdown(wait=False, cancel_futures=True)


def _shares(e: _Entry, frontier: Sequence[Piece]) -> list[_Entry]:
    """The frontier of piece ``e`` as entries: keys after the part of ``e`` already
    searched (``e.key + (0,)``), in order; shares by Knuth's estimate along the path
    where it stopped (each level's node counts as one more sibling of those left)."""
    base = len(e.piece)
    siblings = Counter(len(piece) - base for piece in frontier)
    share, shares = e.weight, {}
    for level in range(1, max(siblings, default=0) + 1):
        share /= siblings[level] + 1
        shares[level] = share
    return [_Entry((*e.key, j + 1), piece, shares[len(piece) - base])
            for j, piece in enumerate(frontier)]


# ------------------------------------------------------------------------ the views


def count(
    problem: ExactCover,
    executor: Executor,
    *,
    limit: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Callable[[Report], object] | None = None,
    forced: Iterable[Hashable] = (),
    engine: views.Engine | None = None,
    pieces: int | None = None,
    piece_nodes: int | None = None,
) -> int:
    """Count the solutions on ``executor`` (up to ``limit``): :func:`dlx.count` in parallel.

    Parameters
    ----------
    problem : ExactCover
    executor : concurrent.futures.Executor
    limit, max_nodes, timeout, stats, heuristic, forced, engine
        As for :func:`dlx.count`; ``stats`` ends equal to the serial search's (when
        no ``limit`` stops it).  Out of budget, :class:`~dlx.BudgetExceeded` carries
        the partial count and the pieces left (``frontier``).
    progress : callable or None
        Called with a :class:`Report` (the merged Stats, the fraction done).
    pieces : int or None
        How many pieces the first split makes (default 16 per worker).
    piece_nodes : int or None
        The node budget of a task (default: about :data:`TASK_SECONDS` of search).

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
    drv = _Driver(problem, executor, "count", limit=limit, max_nodes=max_nodes,
                  timeout=timeout, stats=stats, heuristic=heuristic, progress=progress,
                  forced=forced, engine=engine, pieces=pieces, piece_nodes=piece_nodes)
    for _ in drv.run():
        pass
    return drv.total


def is_unique(
    problem: ExactCover,
    executor: Executor,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Callable[[Report], object] | None = None,
    forced: Iterable[Hashable] = (),
    engine: views.Engine | None = None,
    pieces: int | None = None,
    piece_nodes: int | None = None,
) -> bool:
    """True when the problem has exactly one solution: :func:`count` with ``limit=2``.

    >>> import dlx
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as ex:
    ...     dlx.parallel.is_unique(dlx.ExactCover({"x": ["a"], "y": ["b"]}), ex)
    True
    """
    return count(problem, executor, limit=2, max_nodes=max_nodes, timeout=timeout,
                 stats=stats, heuristic=heuristic, progress=progress, forced=forced,
                 engine=engine, pieces=pieces, piece_nodes=piece_nodes) == 1


def solutions(
    problem: ExactCover,
    executor: Executor,
    *,
    limit: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Callable[[Report], object] | None = None,
    forced: Iterable[Hashable] = (),
    engine: views.Engine | None = None,
    ordered: bool = True,
    pieces: int | None = None,
    piece_nodes: int | None = None,
) -> Iterator[tuple[Hashable, ...]]:
    """Yield the solutions found on ``executor``: :func:`dlx.solutions` in parallel.

    With ``ordered=True`` (the default) they come in the serial search's order;
    with ``ordered=False`` as the pieces finish.  The arguments are checked at once;
    the search starts at the first ``next()``, and closing the iterator cancels
    the pieces still queued.  Out of budget, :class:`~dlx.BudgetExceeded`'s
    ``found`` lists the solutions yielded, then those found but not yet yielded (in
    search order); its ``frontier`` holds the pieces not searched.  The other
    arguments are those of :func:`count`.

    >>> import dlx
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
    >>> with ThreadPoolExecutor(2) as ex:
    ...     list(dlx.parallel.solutions(p, ex))
    [('x', 'y'), ('xy',)]
    """
    drv = _Driver(problem, executor, "solutions", limit=limit, max_nodes=max_nodes,
                  timeout=timeout, stats=stats, heuristic=heuristic, progress=progress,
                  forced=forced, engine=engine, pieces=pieces, piece_nodes=piece_nodes,
                  ordered=ordered)
    return _yield(drv, limit)


def _yield(drv: _Driver, limit: int | None) -> Iterator[tuple[Hashable, ...]]:
    found: list[tuple[Hashable, ...]] = []
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
        e.found = found + drv.held()
        raise
    finally:
        run.close()


def first(
    problem: ExactCover,
    executor: Executor,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    progress: Callable[[Report], object] | None = None,
    forced: Iterable[Hashable] = (),
    engine: views.Engine | None = None,
    pieces: int | None = None,
    piece_nodes: int | None = None,
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
    drv = _Driver(problem, executor, "first", max_nodes=max_nodes, timeout=timeout,
                  stats=stats, heuristic=heuristic, progress=progress, forced=forced,
                  engine=engine, pieces=pieces, piece_nodes=piece_nodes)
    for _ in drv.run():
        pass
    return drv.answer  # type: ignore[no-any-return]


def best(
    problem: ExactCover,
    weight: Callable[[Any], Any] | Mapping[Any, Any] | None,
    executor: Executor,
    *,
    k: int | None = None,
    maximize: bool | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    stats: Stats | None = None,
    heuristic: HeuristicName | Heuristic | None = None,
    bound: Callable[[SearchState], Any] | None = None,
    progress: Callable[[Report], object] | None = None,
    forced: Iterable[Hashable] = (),
    engine: views.Engine | None = None,
    pieces: int | None = None,
    piece_nodes: int | None = None,
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
    req = views._Request(problem, engine=engine)
    if maximize is None:
        maximize = weight is not None
    values = views._weights(req.links, problem.cost if weight is None else weight)
    weights = dict(zip(req.links.labels, values, strict=True))
    drv = _Driver(problem, executor, "best", max_nodes=max_nodes, timeout=timeout,
                  stats=stats, heuristic=heuristic, progress=progress, forced=forced,
                  engine=engine, pieces=pieces, piece_nodes=piece_nodes, weights=weights,
                  k=k, maximize=maximize, bound=bound)
    for _ in drv.run():
        pass
    return drv.best()


# ------------------------------------------------------------------- executors


def executor(jobs: int | None = None, *, scheduler: str | None = None) -> Executor:
    """An Executor for the command line: ``jobs`` worker processes on this machine
    (default: one per core; at most :data:`MAX_JOBS`), or the Dask cluster whose
    scheduler is at ``scheduler`` (``"tcp://host:8786"``; needs the ``dask`` extra).

    Use it in a ``with`` block: leaving it shuts the pool down (or closes the Dask
    client).  The processes ignore Ctrl-C, which the caller handles: every piece
    still queued is cancelled and KeyboardInterrupt propagates.  They exit within
    a fraction of a second when the process that made them dies (even by SIGKILL).

    >>> import dlx
    >>> with dlx.parallel.executor(jobs=1) as ex:
    ...     dlx.parallel.count(dlx.ExactCover({"x": ["a"], "y": ["a"]}), ex)
    2
    """
    if scheduler is not None:
        if jobs is not None:
            raise ExactCoverError("give jobs= or scheduler=, not both")
        return _dask(scheduler)
    views._check_positive(jobs, "jobs")
    if jobs is not None and jobs > MAX_JOBS:
        raise ExactCoverError(f"jobs must be at most {MAX_JOBS} ({os.cpu_count() or 1} cores"
                              f" here), not {shown(jobs)}")
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(max_workers=jobs or os.cpu_count() or 1, initializer=_quiet,
                               initargs=(os.getpid(),))


def _dask(address: str) -> Executor:
    """The executor of a Dask cluster, closing its client when shut down."""
    from concurrent.futures import Executor

    try:
        import distributed
    except ImportError:
        raise ExactCoverError("a Dask scheduler needs the dask extra:"
                              " pip install 'dancing-links-dlx[dask]'") from None
    make: Any = distributed.Client                 # (distributed is not typed)
    client = make(address)

    class DaskExecutor(Executor):
        """Dask's ``Client.get_executor()``, which also closes the client on shutdown."""

        def __init__(self) -> None:
            self._client = client
            # pure=False: no hashing of the arguments (every task differs anyway)
            self._inner = client.get_executor(pure=False)

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            return self._inner.submit(fn, *args, **kwargs)

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            self._inner.shutdown(wait=wait)
            self._client.close()

    return DaskExecutor()
