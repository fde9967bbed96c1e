"""How big a task is: the node budget a task of the driver gets, and how many pieces.

A task's node budget aims at a task time (the search's pace, nodes per second, is
measured as the run goes) of at least :data:`TASK_SECONDS`, :data:`ROUND_TRIPS` times
the executor's round trip (measured once, at the start, with empty tasks: about a
second on Dask, 0.1 s on a process pool) and :data:`DRIVER_SHARE` times the driver's
own CPU time per task times the workers (measured as the run goes: some tenths of a
millisecond on a process pool, one or two on Dask, whose client does the work), so
that the one driver never holds up the workers, however many.  Near the end budgets
are smaller: a quarter of each worker's share of what is left, as the pieces' shares
(Knuth's estimate) tell it, so that no worker is left with a long last task while
the others wait; but never under 20 round trips, nor so small that the driver could
not keep up.  A task takes as many pieces as its budget should cover, by their
shares, and at most a fair part of the work queued.

:class:`TaskSizing` holds these measurements and rules; the driver
(:class:`~dlx.parallel.schedule.Driver`) is one.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, NamedTuple

from .worker import Task, ping, work

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from .answers import Answer
    from .pieces import Entry

__all__ = ["TaskSizing", "TASK_SECONDS", "ROUND_TRIPS", "DRIVER_SHARE"]

#: The shortest task time the budgets aim at (seconds).
TASK_SECONDS = 0.1

#: A task aims at lasting at least this many round trips of its executor.
ROUND_TRIPS = 250

#: A task lasts at least this many times the driver's CPU time per task, times the
#: workers: the driver is busy at most a quarter of the time.
DRIVER_SHARE = 4

_DRIVER_GUESS = 0.25e-3         # the driver's CPU time per task, until measured
_MAX_TASK = 30.0                # and at most this many seconds
_FIRST_BUDGET = 20_000          # nodes per task until the search rate is measured
_MIN_BUDGET, _MAX_BUDGET = 1_000, 1 << 40
_MAX_CHUNK = 1 << 12            # pieces per task at most
_PINGS = 8                      # empty tasks that measure the round trip, at most
_PING_WAIT = 10.0               # seconds to wait for them


class _Timed(NamedTuple):
    future: Any
    back: list[float]               # when it came back (perf_counter), once it has


class TaskSizing:
    """The pace of a run (search rate, round trip, driver cost per task) and the task
    sizes it gives (see the module's docstring).  The driver sets the run's state it
    reads: the answer, the executor, the share of the tree done, the nodes spent."""

    # the pace, measured here
    rate: float                     # nodes per second
    round_trip: float               # seconds, measured at the start
    cost: float                     # the driver's CPU seconds per task
    landings: int                   # tasks taken in
    cpu_began: float                # process_time() when the cost was last measured
    task_seconds: float             # what a budget aims at
    # the run's state, kept by the driver
    width: int
    local: bool
    executor: Executor
    answer: Answer
    key: str
    nonce: int
    blobs_sent: int
    workers: set[str]
    splittable: bool
    piece_nodes: int | None
    done: float
    done_before: float
    spent: int
    queued: int
    queued_share: float

    def _pace(self) -> None:
        """The pace before anything is measured."""
        self.rate = self.round_trip = 0.0
        self.cost = 0.0 if self.local else _DRIVER_GUESS
        self.landings = 0
        self.cpu_began = time.process_time()
        self.task_seconds = self._task_seconds()

    if TYPE_CHECKING:
        def _pickled(self) -> bytes: ...
        def _replace(self, e: BaseException) -> None: ...

    def _task_seconds(self) -> float:
        """What a task's budget aims at, in seconds (see the module's docstring)."""
        return min(_MAX_TASK, max(TASK_SECONDS, ROUND_TRIPS * self.round_trip,
                                  DRIVER_SHARE * self.cost * self.width))

    def _cost(self) -> None:
        """Measure the driver's CPU time per task (this process's, whose other threads
        pickle, send and receive for the executor), over every 64 tasks."""
        self.landings += 1
        if self.local or self.landings % 64:
            return
        now = time.process_time()
        cost = (now - self.cpu_began) / 64
        self.cpu_began = now
        self.cost = cost if self.landings == 64 else 0.5 * (self.cost + cost)
        self.task_seconds = self._task_seconds()

    # ------------------------------------------------------ the round trip

    def _ping(self) -> list[tuple[float, _Timed]]:
        """Empty tasks, one per worker (at most :data:`_PINGS`), bringing the problem
        while the first cut is made here."""
        from concurrent.futures import BrokenExecutor

        if self.local:
            return []
        try:
            return [self._send_ping(blob=True) for _ in range(min(self.width, _PINGS))]
        except BrokenExecutor as broken:          # (a pool broken by an earlier run)
            self._replace(broken)
            return [self._send_ping(blob=True) for _ in range(min(self.width, _PINGS))]

    def _send_ping(self, blob: bool) -> tuple[float, _Timed]:
        """An empty task: with ``blob``, one that brings the problem (to a worker that
        has not got it yet); else one that does nothing at all."""
        self.nonce += 1
        fut: Future[Any]
        if blob and self.blobs_sent < self.width:
            self.blobs_sent += 1
            task = Task(self.key, self._pickled(), self.answer.kind, (), None, None, None,
                        None, None, True, 1, None, self.nonce)
            sent = time.perf_counter()
            fut = self.executor.submit(work, task)
        else:
            sent = time.perf_counter()
            fut = self.executor.submit(ping, self.nonce)
        back: list[float] = []
        fut.add_done_callback(lambda _: back.append(time.perf_counter()))
        return sent, _Timed(fut, back)

    def _measure(self, first: list[tuple[float, _Timed]]) -> None:
        """The round trip: the quickest of a second round of empty tasks (the first
        round also started the workers and brought them the problem)."""
        from concurrent.futures import wait

        if not first:
            return
        def fine(f: Any) -> bool:
            return bool(f.future.done() and not f.future.cancelled()
                        and f.future.exception() is None)

        wait([f.future for _, f in first], timeout=_PING_WAIT)
        if not all(fine(f) for _, f in first):
            return                  # (busy or failing workers: the tasks will tell)
        second = [self._send_ping(blob=False) for _ in range(len(first))]
        wait([f.future for _, f in second], timeout=_PING_WAIT)
        trips = [f.back[0] - sent for sent, f in second if fine(f) and f.back]
        for _, f in first + second:
            if fine(f):
                got = f.future.result()
                self.workers.add(got if isinstance(got, str) else got.worker)
        if trips:
            self.round_trip = min(trips)
            self.task_seconds = self._task_seconds()

    # --------------------------------------------------------- budgets

    def _budget(self) -> int | None:
        if not self.splittable:
            return None         # a piece that ran out could be neither cut nor resumed
        factor = self.answer.budget_factor
        if self.piece_nodes is not None:
            return self.piece_nodes * factor
        if not self.rate:
            return int(_FIRST_BUDGET * self.task_seconds / TASK_SECONDS) * factor
        b = self.rate * self.task_seconds
        per_share = self._per_share()
        if per_share and 0.1 <= self.done < 1:
            # guided: near the end, smaller tasks (a quarter of each worker's share of
            # what is left, as the shares estimate it), but never so small that the
            # round trips or the driver would take the time
            floor = self.rate * max(20 * self.round_trip, self.cost * self.width)
            b = min(b, max(floor, per_share * (1 - self.done) / (4 * self.width)))
        return int(min(max(b, _MIN_BUDGET), _MAX_BUDGET)) * factor

    def _per_share(self) -> float:
        """Nodes per unit of share (the whole tree's size, estimated from this session)."""
        share = self.done - self.done_before
        return self.spent / share if share > 1e-9 and self.spent else 0.0

    def _chunk(self, batch: tuple[Entry, ...], budget: int | None) -> tuple[int, float]:
        """How many of the first pieces of ``batch`` a task takes, and their share: as
        many as ``budget`` should cover by their shares, but no more than a fair part of
        the work queued (a 2 x workers'th of its share), and at least one."""
        per_share = self._per_share()
        taken = 0.0
        if per_share:
            want = self.queued_share / (2 * self.width)
            if budget is not None:
                want = min(want, budget / per_share)
            size = min(len(batch), _MAX_CHUNK)
            for j in range(size):
                taken += batch[j].weight
                if taken >= want:
                    return j + 1, taken
            return size, taken
        size = min(max(1, self.queued // (2 * self.width)), _MAX_CHUNK, len(batch))
        return size, sum([e.weight for e in batch[:size]])
