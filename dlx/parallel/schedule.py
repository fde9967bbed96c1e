"""How pieces are scheduled: the driver of one parallel run.

:class:`Driver` cuts the first pieces (:func:`~dlx.parallel.pieces.cut`), queues
them in search order, and keeps every worker busy with tasks (runs of
consecutive pieces under one node budget).  When a task comes back it merges the
answers (an :class:`~dlx.parallel.answers.Answer`), queues the unexplored
subtrees of a piece that ran out of budget, and runs again the pieces of a task
whose worker died.  It stops when the queue is empty, the answer is complete (a
limit, a first solution), the budget or the time runs out, or Ctrl-C.

*Task budgets.*  A task's node budget aims at :data:`TASK_SECONDS` of search,
measured as the run goes, and is smaller near the end: a quarter of each worker's
share of what is left, as the pieces' shares estimate it.  So a heavy subtree is
cut up while it runs and never holds the whole run, and a cancelled run stops
within one task.

*Progress.*  ``progress`` is called (at most every :data:`REPORT_EVERY` seconds,
and at the end) with a :class:`Report`.
"""

from __future__ import annotations

import heapq
import os
import queue
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import BudgetExceeded, ExactCoverError
from ..events import Stats
from ..options import Options, check_positive
from ..problem import ExactCover
from ..serial import Request
from .answers import Answer
from .executors import fresh_pool, is_fault, width
from .pieces import Entry, Piece, add, counts, cut, expand, shares
from .worker import Local, Outcome, Task, work

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

__all__ = ["Driver", "Report", "RETRIES", "REPORT_EVERY", "TASK_SECONDS"]

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


_KEYS: weakref.WeakKeyDictionary[ExactCover, str] = weakref.WeakKeyDictionary()


def _problem_key(problem: ExactCover) -> str:
    """A name for ``problem`` in the workers' caches (the same for every run on it)."""
    key = _KEYS.get(problem)
    if key is None:
        key = _KEYS[problem] = os.urandom(12).hex()
    return key


class _Flight(NamedTuple):
    entries: list[Entry]
    budget: int | None
    executor: Executor


class Driver:
    """One parallel run: the queue of pieces, the tasks in flight, the merged answer."""

    def __init__(self, problem: ExactCover, executor: Executor, answer: Answer,
                 opts: Options, *, pieces: int | None = None, piece_nodes: int | None = None,
                 weights: Mapping[Any, Any] | None = None, k: int = 1, maximize: bool = True,
                 bound: Callable[..., Any] | None = None) -> None:
        from concurrent.futures import Executor, ThreadPoolExecutor

        req = Request(problem, opts)
        if not isinstance(executor, Executor):
            raise ExactCoverError(f"executor must be a concurrent.futures.Executor, not"
                                  f" {type(executor).__name__}")
        check_positive(pieces, "pieces")
        check_positive(piece_nodes, "piece_nodes")
        self.problem, self.answer, self.opts = problem, answer, opts
        self.executor = executor
        self.own: list[Executor] = []                   # executors made here (after faults)
        self.width = width(executor)
        self.max_nodes, self.timeout = opts.max_nodes, opts.timeout
        self.stats = req.stats
        self.root = tuple(req.links.labels[o] for o in req.forced)
        self.first_pieces = pieces or _PIECES_PER_WORKER * self.width
        self.piece_nodes = piece_nodes
        self.rate = 0.0                                 # nodes per second, measured
        self.splittable = True                          # can a piece be cut?
        self.weights, self.k, self.maximize, self.bound = weights, k, maximize, bound
        self.local = isinstance(executor, ThreadPoolExecutor)
        self.key = _problem_key(problem) if weights is None else os.urandom(12).hex()
        self._blob: bytes | None = None
        self.blobs_sent = 0                             # to the current executor
        self.nonce = 0
        # the state of the run
        self.pending: list[Entry] = []                  # a heap: search order
        self.flights: dict[Future[Outcome], _Flight] = {}
        self.landed: queue.SimpleQueue[Future[Outcome]] = queue.SimpleQueue()  # done ones
        self.attempts: dict[tuple[int, ...], int] = {}
        self.spent = 0                                  # nodes reported (for max_nodes)
        self.reserved = 0                               # the budgets of tasks in flight
        self.done = 0.0                                 # the share of the tree done
        self.pieces_done = self.faults = 0
        self.workers: set[str] = set()
        self.began = time.monotonic()
        self.deadline = None if opts.timeout is None else self.began + opts.timeout
        self.last_report = -REPORT_EVERY

    # ---------------------------------------------------------------- the loop

    def run(self) -> Iterator[list[Piece]]:
        """Run to the end, yielding batches of solutions (for solutions) as they may be
        released; raise BudgetExceeded when a budget runs out."""
        s = self.stats
        s.nodes = s.updates = s.solutions = 0
        s.profile = []
        try:
            self._start()
            while not self.answer.finished:
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    yield from self._time_is_up()
                self._fill()
                if not self.flights:
                    if self.pending:
                        raise self._out_of_budget()
                    break
                for fut in self._wait():
                    if fut in self.flights:
                        self._land(fut)
                        if self.answer.finished:
                            break
                yield from self.answer.release()
                self._report()
            yield from self.answer.release()
            self._report(final=True)
        finally:
            self._cancel()

    def _wait(self) -> list[Future[Outcome]]:
        """The tasks that finished (each future puts itself in ``landed`` when done:
        waiting costs nothing per task in flight); none after a heartbeat."""
        wait_for = _HEARTBEAT
        if self.deadline is not None:
            wait_for = max(0.0, min(wait_for, self.deadline - time.monotonic()))
        try:
            done = [self.landed.get(timeout=wait_for)]
        except queue.Empty:
            return []
        while True:
            try:
                done.append(self.landed.get_nowait())
            except queue.Empty:
                return done

    def _start(self) -> None:
        o = self.opts
        made = cut(self.problem, self.root, pieces=self.first_pieces, depth=None,
                   heuristic=o.heuristic, engine=o.engine, max_nodes=self.max_nodes,
                   deadline=self.deadline)
        add(self.stats, *counts(made.above))
        self.splittable = not made.whole
        self.spent += made.above.nodes
        self.done += made.done
        for e in made.entries:
            self._queue(e, new=True)

    def _queue(self, e: Entry, new: bool = False) -> None:
        heapq.heappush(self.pending, e)
        if new:
            self.answer.opened(e.key)

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
        return b * self.answer.budget_factor

    def _fill(self) -> None:
        """Submit tasks until every worker has two (or the budget is all reserved)."""
        while self.pending and len(self.flights) < 2 * self.width and not self.answer.finished:
            budget = self._budget()
            if self.max_nodes is not None:
                room = self.max_nodes - self.spent - self.reserved
                if room <= 0:
                    return
                budget = room if budget is None else min(budget, room)
            size = min(max(1, len(self.pending) // (2 * self.width)), _MAX_CHUNK)
            entries = [heapq.heappop(self.pending) for _ in range(min(size, len(self.pending)))]
            self._submit(entries, budget)

    def _submit(self, entries: list[Entry], budget: int | None, blob: bool = False) -> None:
        from concurrent.futures import BrokenExecutor

        if self.local:
            payload: bytes | Local | None = Local(self.problem, self.weights)
        elif blob or self.blobs_sent < self.width:
            payload = self._pickled()
            self.blobs_sent += 1
        else:
            payload = None
        self.nonce += 1
        o = self.opts
        task = Task(self.key, payload, self.answer.kind, tuple(e.piece for e in entries), budget,
                    None if self.deadline is None else time.time() + self._time_left(),
                    self.answer.limit_left(), o.heuristic, o.engine, self.maximize,
                    self.k, self.bound, self.nonce)
        try:
            fut = self.executor.submit(work, task)
        except BrokenExecutor as broken:
            self._replace(broken)
            fut = self.executor.submit(work, task._replace(blob=self._pickled()))
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
        new = fresh_pool(self.executor) if len(self.own) < RETRIES else None
        if new is None:
            raise e
        self.own.append(new)
        self.executor = new
        self.blobs_sent = 0

    # ------------------------------------------------------------ the results

    def _land(self, fut: Future[Outcome]) -> None:
        """Take in the outcome of a finished task."""
        flight = self.flights.pop(fut)
        self.reserved -= flight.budget or 0
        try:
            out = fut.result()
        except BaseException as lost:
            if not is_fault(lost):
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
        add(self.stats, *out.counts)
        entries = flight.entries
        for e, r in zip(entries, out.found, strict=False):
            self.pieces_done += 1
            self.done += e.weight
            self.answer.closed(e.key)
            self.answer.take(e.key, r)
        after = len(out.found)
        if out.stopped:
            self._stopped(entries[after], out)
            after += 1
        for e in entries[after:]:
            self._queue(e)

    def _stopped(self, e: Entry, out: Outcome) -> None:
        """Piece ``e`` ran out of budget (or time) part way."""
        if out.frontier is None:
            self._cut_again(e, out)
            return
        add(self.stats, *out.stop_counts)
        self.pieces_done += 1
        self.answer.closed(e.key)
        self.answer.take_partial((*e.key, 0), out.partial)
        rest = shares(e, out.frontier)
        self.done += e.weight - sum(c.weight for c in rest)
        for c in rest:
            self._queue(c, new=True)

    def _cut_again(self, e: Entry, out: Outcome) -> None:
        """A piece with no frontier to hand back (best, or bounds) ran out: cut it one
        level down and run its children instead (or, when it cannot be cut, run it
        again whole, without a budget)."""
        self.answer.keep_partial(out.partial)
        room = None if self.max_nodes is None else self.max_nodes - self.spent - self.reserved
        if out.timed_out or room is not None and room <= 0:
            self._queue(e)                      # not done: it is part of the frontier
            return
        o = self.opts
        n, below, s = expand(self.problem, e.piece, o.heuristic, o.engine)
        if n < 0:
            self.splittable = False
            self._queue(e)
            return
        self.pieces_done += 1
        self.answer.closed(e.key)
        add(self.stats, *counts(s))
        self.spent += s.nodes
        if not below:
            self.done += e.weight
            return
        for j, child in enumerate(below):
            self._queue(Entry((*e.key, j), child, e.weight / len(below)), new=True)

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

    def _report(self, final: bool = False) -> None:
        progress = self.opts.progress
        if progress is None:
            return
        now = time.monotonic()
        if not final and now - self.last_report < REPORT_EVERY:
            return
        self.last_report = now
        s = self.stats
        left = len(self.pending) + sum(len(f.entries) for f in self.flights.values())
        fraction = 1.0 if final and not left else min(self.done, 1.0)
        progress(Report(s.nodes, s.updates, s.solutions, list(s.profile), fraction=fraction,
                        pieces_done=self.pieces_done, pieces_left=left,
                        running=len(self.flights), workers=len(self.workers),
                        faults=self.faults, seconds=now - self.began))

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
        if self.answer.finished or not self.pending:
            return                                          # it all finished in time
        yield from self.answer.release()
        raise self._out_of_budget()

    def _out_of_budget(self) -> BudgetExceeded:
        frontier = [e.piece for e in sorted(self.pending)]
        found = self.answer.so_far()
        if self.timeout is not None and self.deadline is not None \
                and time.monotonic() >= self.deadline:
            return BudgetExceeded(None, found, self.stats, timeout=self.timeout,
                                  frontier=frontier)
        return BudgetExceeded(self.max_nodes, found, self.stats, frontier=frontier)

    def _cancel(self) -> None:
        """Cancel every task still queued; let go of the executors made here."""
        for fut in self.flights:
            fut.cancel()
        self.flights.clear()
        for ex in self.own:
            ex.shutdown(wait=False, cancel_futures=True)
