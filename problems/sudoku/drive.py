"""Puzzles in the making, run side by side: the engine's side of making puzzles.

A puzzle in the making is a generator (:data:`Steps`): it yields requests (sets
of forced options of the shape's full matrix, with the limit and the node budget
of their searches) and is sent back their answers, until it returns what it
made.  :func:`drive` runs many side by side and sends each round's requests to
the engine together (one :meth:`dlx.Prepared.batch` per limit and budget);
:func:`run` runs one.  :func:`many` hands out the puzzles of consecutive seeds in
order, and :func:`spread` has them made in runs on an executor's workers.  What
a puzzle asks is :mod:`problems.sudoku.generate`'s business, how givens go
:mod:`problems.sudoku.minimal`'s.
"""

from __future__ import annotations

import collections
import itertools
import os
from collections.abc import Generator, Iterator
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Protocol, TypeVar

import dlx

from .grid import Grid
from .matrix import prepared
from .shapes import Shape

__all__ = ["Request", "Steps", "Maker", "drive", "run", "many", "spread"]

#: What a puzzle in the making asks the engine: forced sets (option indices of the
#: shape's full matrix), the limit and the node budget of their searches.
Request = tuple[list[list[int]], int, "int | None"]
_T = TypeVar("_T")
#: A puzzle in the making: it yields requests and is sent back their answers.
Steps = Generator[Request, list[dlx.Answer], _T]


class Maker(Protocol):
    """What makes the puzzles of a call: their shape, and the puzzle of a seed in the
    making (``generate``'s checked arguments)."""

    @property
    def shape(self) -> Shape: ...

    def make(self, seed: int, deadline: dlx.Deadline) -> Steps[Grid]: ...


def drive(shape: Shape, tasks: Iterator[Steps[_T]], at_once: int = 1,
          deadline: dlx.Deadline | None = None
          ) -> Iterator[tuple[int, _T | None, Exception | None]]:
    """Run puzzles in the making side by side: ``(position, result, error)`` as each ends.

    Up to ``at_once`` tasks are live.  Each round sends every live task's
    request to the engine, those with the same limit and budget in one
    :meth:`dlx.Prepared.batch`, and hands each task its answers.  A task's result
    does not depend on the others (its answers are those of its own searches),
    so a task run alone ends the same way.  A new task starts only while it is
    less than ``4 * at_once`` places ahead of the first unfinished one.  Each round's
    searches get what is left of the ``deadline``; once it has passed, this raises
    :class:`dlx.BudgetExceeded` (the live tasks are dropped).
    """
    deadline = deadline if deadline is not None else dlx.Deadline(None)
    full = prepared(shape)
    live: list[tuple[int, Steps[_T], Request]] = []
    started, unfinished, more = 0, 0, True
    ended: set[int] = set()

    def end(k: int) -> None:
        nonlocal unfinished
        ended.add(k)
        while unfinished in ended:
            ended.discard(unfinished)
            unfinished += 1

    def advance(k: int, task: Steps[_T], answers: list[dlx.Answer] | None
                ) -> tuple[int, _T | None, Exception | None] | None:
        """Give task k its answers (None: start it); None while it goes on (it is live
        again), else its ``(position, result, error)``."""
        try:
            live.append((k, task, next(task) if answers is None else task.send(answers)))
            return None
        except StopIteration as stop:
            end(k)
            return k, stop.value, None
        except Exception as error:
            end(k)
            return k, None, error

    while True:
        while more and len(live) < at_once and started < unfinished + 4 * at_once:
            task = next(tasks, None)
            if task is None:
                more = False
                break
            k, started = started, started + 1
            done = advance(k, task, None)
            if done is not None:
                yield done
        if not live:
            return
        deadline.check()
        groups: dict[tuple[int, int | None], list[tuple[int, Steps[_T], list[list[int]]]]] = {}
        for k, task, (sets, limit, budget) in live:
            groups.setdefault((limit, budget), []).append((k, task, sets))
        live = []
        for (limit, budget), asks in groups.items():
            answers = full.batch([s for _, _, sets in asks for s in sets], limit=limit,
                                 max_nodes=budget, timeout=deadline.remaining(), indices=True)
            if any(a.timed_out for a in answers):
                raise deadline.exceeded()
            at = 0
            for k, task, sets in asks:
                mine = answers[at:at + len(sets)]
                at += len(sets)
                done = advance(k, task, mine)
                if done is not None:
                    yield done


def run(shape: Shape, task: Steps[_T], deadline: dlx.Deadline | None = None) -> _T:
    """Run one puzzle in the making to its end (raising what it raises)."""
    for _, result, error in drive(shape, iter([task]), 1, deadline):
        if error is not None:
            raise error
        return result  # type: ignore[return-value]
    raise AssertionError("unreachable")  # pragma: no cover


def many(plan: Maker, count: int | None, first: int, at_once: int,
         deadline: dlx.Deadline) -> Iterator[Grid]:
    """The puzzles of seeds ``first``, ``first + 1``, ... made ``at_once`` side by side,
    handed out in order (until the ``deadline``)."""
    numbers = range(count) if count is not None else itertools.count()
    tasks = (plan.make(first + k, deadline) for k in numbers)
    done: dict[int, tuple[Grid | None, Exception | None]] = {}
    nxt = 0
    for k, grid, error in drive(plan.shape, tasks, at_once, deadline):
        done[k] = (grid, error)
        while nxt in done:
            grid, error = done.pop(nxt)
            nxt += 1
            if error is not None:
                raise error
            assert grid is not None
            yield grid


def _run_of(plan: Maker, first: int, n: int, at_once: int, timeout: float | None
            ) -> tuple[list[Grid], Exception | None]:
    """A run of ``n`` puzzles in a worker (within ``timeout`` seconds of its start):
    those made, and the error that stopped it."""
    made: list[Grid] = []
    try:
        made.extend(many(plan, n, first, at_once, dlx.Deadline(timeout)))
    except Exception as error:          # handed back, to be raised in its turn
        return made, error
    return made, None


def spread(plan: Maker, count: int | None, first: int, at_once: int, executor: Executor,
           chunk: int, deadline: dlx.Deadline) -> Iterator[Grid]:
    """The puzzles of :func:`many`, made in runs of ``chunk`` by ``executor``'s workers
    (each run gets what is left of the ``deadline``, which is also how long a run's
    answer is waited for)."""
    starts = itertools.count(0, chunk) if count is None else range(0, count, chunk)
    ahead = 2 * (os.cpu_count() or 2)
    pending: collections.deque[Future[tuple[list[Grid], Exception | None]]] = \
        collections.deque()
    try:
        for start in starts:
            n = chunk if count is None else min(chunk, count - start)
            deadline.check()
            pending.append(executor.submit(_run_of, plan, first + start, n, at_once,
                                           deadline.remaining()))
            while len(pending) >= ahead:
                yield from _handed(pending.popleft(), deadline)
        while pending:
            yield from _handed(pending.popleft(), deadline)
    finally:                            # stopped early: runs not started are dropped
        for future in pending:
            future.cancel()


def _handed(future: Future[tuple[list[Grid], Exception | None]],
            deadline: dlx.Deadline) -> Iterator[Grid]:
    """The puzzles of a run, when it ends (within the ``deadline``), then its error."""
    try:
        made, error = future.result(timeout=deadline.remaining())
    except FutureTimeout:
        raise deadline.exceeded() from None
    yield from made
    if error is not None:
        raise error
