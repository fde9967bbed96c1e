"""How pieces are scheduled: the driver of one parallel run.

:class:`Driver` cuts the first pieces (:func:`~dlx.parallel.pieces.cut`), queues
them in search order as one *batch* (a run of consecutive pieces), and keeps every
worker busy with tasks: the first pieces of the first batch, under one node budget.
A task comes back with its merged answer and *the rest*, what it did not finish, cut
where it ran (:mod:`.worker`): the driver merges the answer and queues the rest as
one batch.  So its work per task is a few heap operations, whatever the pieces and
their subtrees look like, and a heavy subtree is cut up while it runs, by the worker
that meets it.  It runs again the pieces of a task whose worker died, and stops when
nothing is left, the answer is complete (a limit, a first solution), the budget or
the time runs out, or Ctrl-C.

*Task budgets* (:mod:`.sizing`): sized to the executor's round trip, the
driver's own cost per task and the search's pace, smaller near the end.

*Checkpoints* (:mod:`.checkpoint`): the pending batches and the pieces in flight
are the frontier; with the merged answer and statistics they are saved every so
often, on Ctrl-C and at the end (:meth:`Driver.to_state`), and a run resumes from
them (:meth:`Driver.restore`, which checks every field before it believes one).

*Progress.*  ``progress`` is called (at most every
:data:`~dlx.parallel.report.REPORT_EVERY` seconds, and at the end) with a
:class:`~dlx.parallel.report.Report`.
"""

from __future__ import annotations

import heapq
import os
import queue
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from itertools import count as numbering
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..errors import BudgetExceeded, ExactCoverError, shown
from ..options import Options, check_positive
from ..problem import Colored, ExactCover
from ..serial import Request
from . import state as saved
from .answers import Answer
from .executors import fresh_pool, is_fault, is_inline, width
from .pieces import Entry, Piece, add, counts, cut
from .report import REPORT_EVERY, Report, eta
from .sizing import DRIVER_SHARE, ROUND_TRIPS, TASK_SECONDS, TaskSizing
from .state import Context, StateError
from .worker import Local, Outcome, Task, work

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

__all__ = ["Driver", "Report", "RETRIES", "REPORT_EVERY", "TASK_SECONDS", "ROUND_TRIPS",
           "DRIVER_SHARE"]

#: A piece that failed this many times (its worker died each time) raises the error.
RETRIES = 3

_PIECES_PER_WORKER = 16         # the first split's target, per worker
_MAX_FIRST_PIECES = 1 << 14     # ... at most
_GRACE = 5.0                    # seconds to wait for running tasks after a timeout
_HEARTBEAT = 0.5                # seconds between checks while waiting

_KEYS: weakref.WeakKeyDictionary[ExactCover, str] = weakref.WeakKeyDictionary()

#: How far the shares of a saved frontier and what was done may be from the whole tree
#: (they are sums of floats: a piece's share is a product of 1/siblings).
_SHARE_SLACK = 1e-6


class Guard(Protocol):
    def on(self) -> None: ...
    def off(self) -> None: ...
    def check(self) -> None: ...


class Keeper(Protocol):
    """What the driver asks of a checkpoint (:class:`dlx.parallel.checkpoint.Checkpoint`):
    the run it saved, and saving this one."""

    saved_at: float | None

    @property
    def saved_run(self) -> Any: ...
    @property
    def finished(self) -> bool: ...
    @property
    def streamed(self) -> int | None: ...
    def solution(self, x: Any, what: str) -> Piece: ...
    def code(self, sol: Piece) -> list[int]: ...
    def damaged(self, e: Exception) -> Exception: ...
    def guard(self) -> Guard: ...
    def due(self) -> bool: ...
    def begin(self, run: Any) -> None: ...
    def save(self, run: Any, final: bool = False) -> None: ...
    def write(self, batch: list[Piece]) -> None: ...
    def tell(self, e: BaseException) -> None: ...
    def close(self) -> None: ...


class _Saved(NamedTuple):
    """A saved run, checked (:meth:`Driver.restore`), to be put in place at the start."""

    counts: tuple[int, int, int, list[int]]
    done: float
    pieces_done: int
    splittable: bool
    batches: list[tuple[Entry, ...]]


def _problem_key(problem: ExactCover) -> str:
    """A name for ``problem`` in the workers' caches (the same for every run on it)."""
    key = _KEYS.get(problem)
    if key is None:
        key = _KEYS[problem] = os.urandom(12).hex()
    return key


class _Flight(NamedTuple):
    entries: tuple[Entry, ...]
    share: float                    # theirs
    budget: int | None
    executor: Executor
    may_cut: bool


class Driver(TaskSizing):
    """One parallel run: the batches queued, the tasks in flight, the merged answer."""

    def __init__(self, problem: ExactCover, executor: Executor, answer: Answer,
                 opts: Options, *, pieces: int | None = None, piece_nodes: int | None = None,
                 weights: Mapping[Any, Any] | None = None, k: int = 1, maximize: bool = True,
                 bound: Callable[..., Any] | None = None,
                 checkpoint: Keeper | None = None) -> None:
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
        self.labels = req.links.labels                  # option number -> label
        self.number = req.links.option_index            # label -> option number
        self.root = tuple(req.forced)
        self.first_pieces = pieces or min(_PIECES_PER_WORKER * self.width, _MAX_FIRST_PIECES)
        self.piece_nodes = piece_nodes
        self.weights, self.k, self.maximize, self.bound = weights, k, maximize, bound
        self.inline = is_inline(executor)
        self.local = self.inline or isinstance(executor, ThreadPoolExecutor)
        self.slots = 1 if self.inline else 2 * self.width   # tasks in flight at most
        self.key = _problem_key(problem) if weights is None else os.urandom(12).hex()
        self.checkpoint = checkpoint
        self._blob: bytes | None = None
        self.blobs_sent = 0                             # to the current executor
        self.nonce = 0
        self._pace()                                    # (nothing measured yet)
        self.splittable = True                          # can a piece be cut?
        # the state of the run
        # the batches queued: a heap of (first key, a number, entries, their share)
        self.pending: list[tuple[tuple[int, ...], int, tuple[Entry, ...], float]] = []
        self.queued = 0                                 # pieces in them
        self.queued_share = 0.0                         # their share of the tree
        self.seq = numbering()
        self.flights: dict[Future[Outcome], _Flight] = {}
        self.in_flight = 0                              # pieces in flight
        self.landed: queue.SimpleQueue[Future[Outcome]] = queue.SimpleQueue()  # done ones
        self.attempts: dict[tuple[int, ...], int] = {}
        self.spent = 0                                  # nodes reported (for max_nodes)
        self.reserved = 0                               # the budgets of tasks in flight
        self.done = 0.0                                 # the share of the tree done
        self.done_before = 0.0                          # ... by earlier sessions
        self.pieces_done = self.faults = 0
        self.workers: set[str] = set()
        self.began = time.monotonic()
        self.deadline = None if opts.timeout is None else self.began + opts.timeout
        self.last_report = -REPORT_EVERY
        self.begun = False
        self.nodes_before = 0                           # by earlier sessions
        self._saved: _Saved | None = None
        if checkpoint is not None and checkpoint.saved_run is not None:
            try:
                self.restore(checkpoint.saved_run, checkpoint)
            except StateError as e:
                raise checkpoint.damaged(e) from None

    # ---------------------------------------------------------------- the loop

    def run(self) -> Iterator[list[Piece]]:
        """Run to the end, yielding batches of solutions (for solutions) as they may be
        released; raise BudgetExceeded when a budget runs out."""
        s = self.stats
        s.nodes = s.updates = s.solutions = 0
        s.profile = []
        ck = self.checkpoint
        guard = ck.guard() if ck is not None else None
        try:
            if guard is not None:
                guard.on()
            self._begin()
            while not self.answer.finished:
                if guard is not None:
                    guard.check()
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
                yield from self._release()
                self._report()
                if ck is not None and ck.due():
                    ck.save(self)
            yield from self._release()
            self._report(final=True)
            if ck is not None:
                ck.save(self, final=True)
        except BaseException as e:
            if ck is not None and self.begun:
                try:
                    ck.save(self)
                except Exception as failed:  # noqa: BLE001 - the first error matters more
                    note = getattr(e, "add_note", None)         # (Python 3.11)
                    if note is not None:
                        note(f"(the checkpoint could not be written: {failed})")
                ck.tell(e)
            raise
        finally:
            if guard is not None:
                guard.off()
            if ck is not None:
                ck.close()
            self._cancel()

    def _release(self) -> Iterator[list[Piece]]:
        """The solutions that may be handed out now, written to the checkpoint's stream
        first; a deferred Ctrl-C is lifted while the caller has them."""
        ck = self.checkpoint
        for batch in self.answer.release():
            if ck is None:
                yield batch
                continue
            ck.write(batch)
            ck.guard().off()
            try:
                yield batch
            finally:
                ck.guard().on()

    def _begin(self) -> None:
        pings = self._ping()
        ck = self.checkpoint
        if self._saved is not None:
            self._resume(self._saved)
        else:
            self._start()
        if ck is not None:
            ck.begin(self)          # (the lock first: what is saved from now on is ours)
        self.begun = True
        self._measure(pings)
        self.cpu_began = time.process_time()

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

    # ------------------------------------------------------- the saved state

    @property
    def finished(self) -> bool:
        """Is the answer complete (a limit reached, a first found)?"""
        return self.answer.finished

    def to_state(self, code: Callable[[Piece], list[int]], finished: bool) -> dict[str, Any]:
        """The run's state as JSON values, for a checkpoint: the merged statistics, the
        share of the tree done, the frontier in batches (none once ``finished``) and the
        answer (its solutions as option numbers, by ``code``)."""
        s = self.stats
        return {
            "stats": {"nodes": s.nodes, "updates": s.updates, "solutions": s.solutions,
                      "profile": list(s.profile)},
            "done": self.done, "pieces_done": self.pieces_done, "splittable": self.splittable,
            "frontier": [] if finished else [[[list(e.key), list(e.piece), e.weight]
                                              for e in batch] for batch in self.batches()],
            "answer": self.answer.to_state(code),
        }

    def restore(self, state: Any, keeper: Keeper) -> None:
        """Check a saved run field by field (:class:`StateError` names the one at fault),
        restore the answer, and keep the rest for the start (:meth:`_resume`).

        The statistics are counts (their profile adds up to the nodes); the frontier's
        pieces are distinct and disjoint (none holds another's subtree), each a path
        from the forced options of the search, in search order, with a share of the
        tree; those shares and the share done add up to the whole tree (unless the
        run finished with its frontier empty); the answer agrees with the statistics
        (:meth:`Answer.restore`)."""
        r = saved.fields(state, "the run", ["stats", "done", "pieces_done", "splittable",
                                            "frontier", "answer"])
        st = saved.fields(r["stats"], "the statistics", ["nodes", "updates", "solutions",
                                                         "profile"])
        top = len(self.labels)
        depth = top + len(self.problem.primary) + 2
        nodes, updates, solutions = (saved.whole(st[name], f"the {name} counted")
                                     for name in ("nodes", "updates", "solutions"))
        profile = [saved.whole(n, "a level of the profile")
                   for n in saved.listed(st["profile"], "the profile", depth)]
        if sum(profile) != nodes:
            raise StateError(f"the profile adds up to {sum(profile):,} nodes, not {nodes:,}")
        done = saved.ratio(r["done"], "the share done")
        batches = [self._batch(b, top, depth) for b in saved.listed(r["frontier"],
                                                                   "the frontier")]
        entries = [e for batch in batches for e in batch]
        keys = [e.key for e in entries]
        saved.prefix_free([e.piece for e in entries], "the piece")
        saved.prefix_free(keys, "the place in search order")
        if keys != sorted(keys):
            raise StateError("the frontier is not in search order")
        if keeper.finished and entries:
            raise StateError("the run finished, but its frontier is not empty")
        left = sum([e.weight for e in entries])
        if entries and abs(done + left - 1) > _SHARE_SLACK:
            raise StateError(f"the frontier's shares ({left:.9f}) and the share done"
                             f" ({done:.9f}) do not make the whole tree")
        weights = self.weights
        score = None if weights is None else (lambda sol: sum([weights[x] for x in sol]))
        self.answer.restore(r["answer"], Context(keeper.solution, score, solutions,
                                                 keeper.streamed))
        if not entries and not self.answer.finished and abs(done - 1) > _SHARE_SLACK:
            raise StateError(f"the frontier is empty, but only {done:.9f} of the tree is"
                             " done")
        self._saved = _Saved((nodes, updates, solutions, profile), done,
                             saved.whole(r["pieces_done"], "the pieces done"),
                             saved.flag(r["splittable"], "splittable"), batches)

    def _batch(self, batch: Any, top: int, depth: int) -> tuple[Entry, ...]:
        """A saved batch of the frontier, checked: ``[key, piece, share]`` entries."""
        out = []
        root = self.root
        for x in saved.listed(batch, "a batch of the frontier"):
            k, piece, share = saved.row(x, "a piece of the frontier", 3)
            e = Entry(saved.key(k, "the place of a piece in search order", depth),
                      saved.numbers(piece, top, "a piece of the frontier"),
                      saved.share(share, "the share of a piece"))
            if e.piece[:len(root)] != root:
                raise StateError(f"the piece {list(e.piece)} does not start with the forced"
                                 " options")
            clash = self._clash(e.piece)
            if clash is not None:
                raise StateError(f"the piece {list(e.piece)} is no path of the search tree:"
                                 f" {clash}")
            out.append(e)
        if not out:
            raise StateError("a batch of the frontier is empty")
        return tuple(out)

    def _clash(self, piece: tuple[int, ...]) -> str | None:
        """Why the options of ``piece`` cannot all be in one solution (None if they can):
        an item covered more often than its bound, a secondary item given twice or in
        two colours."""
        p, labels = self.problem, self.labels
        covered: dict[Any, int] = {}
        colours: dict[Any, Any] = {}
        for o in piece:
            for e in p.options[labels[o]]:
                if isinstance(e, Colored):
                    item, colour = e.item, e.color
                else:
                    item, colour = e, None
                    covered[item] = covered.get(item, 0) + 1
                if colours.setdefault(item, colour) != colour or colour is None and \
                        covered[item] > p.bound(item)[1]:
                    return f"its options clash on item {shown(item)}"
        return None

    def _resume(self, state: _Saved) -> None:
        """Put a checked saved run in place (instead of a first cut)."""
        s = self.stats
        s.nodes, s.updates, s.solutions, s.profile = state.counts
        self.nodes_before = s.nodes
        self.done = self.done_before = state.done
        self.pieces_done, self.splittable = state.pieces_done, state.splittable
        for batch in state.batches:
            self.push(batch, new=True)

    # ------------------------------------------------------------ the first cut

    def _start(self) -> None:
        o = self.opts
        made = cut(self.problem, tuple(self.labels[i] for i in self.root),
                   pieces=self.first_pieces, depth=None, heuristic=o.heuristic,
                   engine=o.engine, max_nodes=self.max_nodes, deadline=self.deadline)
        add(self.stats, *counts(made.above))
        self.splittable = not made.whole
        self.spent += made.above.nodes
        self.done += made.done
        number = self.number
        self.push(tuple([Entry(e.key, tuple([number(label) for label in e.piece]), e.weight)
                         for e in made.entries]), new=True)

    def push(self, entries: tuple[Entry, ...], new: bool = False,
             share: float | None = None) -> None:
        """Queue a batch of consecutive entries (``new``: its first key is not open yet;
        ``share``: theirs, when known: the driver does not go through them)."""
        if not entries:
            return
        if share is None:
            share = sum([e.weight for e in entries])
        heapq.heappush(self.pending, (entries[0].key, next(self.seq), entries, share))
        self.queued += len(entries)
        self.queued_share += share
        if new:
            self.answer.opened(entries[0].key)

    def _fill(self) -> None:
        """Submit tasks until every worker has two (or the budget is all reserved)."""
        while self.pending and len(self.flights) < self.slots and not self.answer.finished:
            budget = self._budget()
            may_cut = True
            if self.max_nodes is not None:
                room = self.max_nodes - self.spent - self.reserved
                if room <= 0:
                    return
                if budget is None or budget >= room:
                    budget, may_cut = room, False       # (a cut would pass max_nodes)
            entries, share = self._take(budget)
            self._submit(entries, share, budget, may_cut)

    def _take(self, budget: int | None) -> tuple[tuple[Entry, ...], float]:
        """The first pieces of the first batch, as many as :meth:`_chunk` says, and their
        share; the others go back to the queue.  (Its work is the pieces it takes, not
        the batch's.)"""
        _, _, batch, share = heapq.heappop(self.pending)
        size, taken = self._chunk(batch, budget)
        take, leave = batch[:size], batch[size:]
        self.queued -= len(batch)
        self.queued_share -= share
        self.push(leave, new=True, share=max(0.0, share - taken))
        return take, taken

    def _submit(self, entries: tuple[Entry, ...], share: float, budget: int | None,
                may_cut: bool = True, blob: bool = False) -> None:
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
        task = Task(self.key, payload, self.answer.kind, entries, budget,
                    None if self.deadline is None else time.time() + self._time_left(),
                    self.answer.limit_left(), o.heuristic, o.engine, self.maximize,
                    self.k, self.bound, self.nonce, may_cut)
        try:
            try:
                fut = self.executor.submit(work, task)
            except BrokenExecutor as broken:
                self._replace(broken)
                fut = self.executor.submit(work, task._replace(blob=self._pickled()))
                self.blobs_sent += 1
        except BaseException:
            self.push(entries, share=share)     # not lost: still part of the frontier
            raise
        self.flights[fut] = _Flight(entries, share, budget, self.executor, may_cut)
        self.in_flight += len(entries)
        self.reserved += budget or 0
        fut.add_done_callback(self.landed.put)

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
        """Take in the outcome of a finished task: merge its answer and statistics, and
        queue the rest it hands back as one batch."""
        flight = self.flights.pop(fut)
        self.reserved -= flight.budget or 0
        self.in_flight -= len(flight.entries)
        try:
            out = fut.result()
        except BaseException as lost:
            if not is_fault(lost):
                self.push(flight.entries, share=flight.share)   # still part of the frontier
                raise
            self._fault(flight, lost)
            return
        if out.missing:                 # the worker had not got the problem: bring it
            self._submit(flight.entries, flight.share, flight.budget, flight.may_cut,
                         blob=True)
            return
        self.workers.add(out.worker)
        self._cost()
        self.spent += out.nodes
        if out.seconds > 0 and out.nodes > 100:
            rate = out.nodes / out.seconds
            self.rate = rate if not self.rate else 0.7 * self.rate + 0.3 * rate
        add(self.stats, *out.counts)
        self.pieces_done += out.done
        self.done += out.weight
        if out.whole:
            self.splittable = False
        if out.partial is not None:
            self.answer.keep_partial(out.partial)
        key, rest = flight.entries[0].key, out.rest
        if rest and rest[0].key == key:         # nothing was done: the same batch again
            self.push(rest, share=out.rest_share)
            return
        self.answer.closed(key)
        self.answer.take(key, out.answer)
        self.push(rest, new=True, share=out.rest_share)

    def _fault(self, flight: _Flight, e: BaseException) -> None:
        """A task was lost with its worker: run its pieces again."""
        from concurrent.futures import BrokenExecutor

        self.faults += 1
        if isinstance(e, BrokenExecutor) and flight.executor is self.executor:
            self._replace(e)
        self.push(flight.entries, share=flight.share)
        for entry in flight.entries:
            n = self.attempts[entry.key] = self.attempts.get(entry.key, 0) + 1
            if n > RETRIES:
                raise e

    def _report(self, final: bool = False) -> None:
        progress = self.opts.progress
        if progress is None:
            return
        now = time.monotonic()
        if not final and now - self.last_report < REPORT_EVERY:
            return
        self.last_report = now
        s = self.stats
        left = self.queued + self.in_flight
        fraction = 1.0 if final and not left else min(self.done, 1.0)
        pace = (self.done - self.done_before) / max(now - self.began, 1e-9)
        ck = self.checkpoint
        age = None if ck is None or ck.saved_at is None else now - ck.saved_at
        progress(Report(s.nodes, s.updates, s.solutions, list(s.profile), fraction=fraction,
                        pieces_done=self.pieces_done, pieces_left=left,
                        running=len(self.flights), workers=len(self.workers),
                        faults=self.faults, seconds=now - self.began,
                        in_flight=self.in_flight, eta=eta(fraction, pace),
                        checkpoint_age=age, nodes_before=self.nodes_before))

    # --------------------------------------------------------------- stopping

    def _time_is_up(self) -> Iterator[list[Piece]]:
        """The deadline has passed: cancel the queued tasks, take in those that come
        back within a grace period (they stop at the deadline too), raise."""
        from concurrent.futures import wait

        for fut, flight in list(self.flights.items()):
            if fut.cancel():
                self._drop(fut, flight)
        grace = time.monotonic() + _GRACE
        while self.flights and time.monotonic() < grace:
            done, _ = wait(list(self.flights), timeout=max(0.0, grace - time.monotonic()))
            for fut in done:
                if fut in self.flights:
                    self._land(fut)
        for fut, flight in list(self.flights.items()):      # abandoned: not counted
            self._drop(fut, flight)
        if self.answer.finished or not self.pending:
            return                                          # it all finished in time
        yield from self._release()
        raise self._out_of_budget()

    def _drop(self, fut: Future[Outcome], flight: _Flight) -> None:
        del self.flights[fut]
        self.reserved -= flight.budget or 0
        self.in_flight -= len(flight.entries)
        self.push(flight.entries, share=flight.share)

    def batches(self) -> list[tuple[Entry, ...]]:
        """The pieces not done, queued or in flight, in search order, in batches (runs
        with nothing done between their pieces)."""
        batches = [batch for _, _, batch, _ in self.pending]
        batches += [flight.entries for flight in self.flights.values()]
        batches.sort(key=lambda batch: batch[0].key)
        return batches

    def frontier(self) -> list[Entry]:
        """Every piece not done, in search order: those queued and those in flight."""
        return [e for batch in self.batches() for e in batch]

    def _out_of_budget(self) -> BudgetExceeded:
        labels = self.labels
        frontier = [tuple([labels[o] for o in e.piece]) for e in self.frontier()]
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
