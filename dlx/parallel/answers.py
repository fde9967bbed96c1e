"""How each view's answers are found in a piece and merged: one small class per view.

A worker runs :meth:`Answer.search` on each piece of its task (the serial view,
:mod:`dlx.serial`, below the piece's forced options) and merges the answers of its
pieces with :meth:`Answer.combine`; the driver hands each task's answer to
:meth:`Answer.take` with the task's key (the key of its first piece: its place in
search order), and reads the merged answer with :meth:`Answer.result`.

* :class:`CountAnswer` adds counts, up to the limit.
* :class:`SolutionsAnswer` holds solutions back until every earlier piece is done
  (``ordered``), so that they come out in the serial order.
* :class:`FirstAnswer` stops at the first solution any piece finds.
* :class:`BestAnswer` keeps the k best of the pieces' k best, ties to the earlier
  piece: the serial answer.

Each answer saves its own state for a checkpoint (:meth:`Answer.to_state`, solutions
as option numbers) and restores it (:meth:`Answer.restore`), checking every field
(:mod:`.state`) and that it agrees with the saved statistics: a count with the
solutions they counted, each solution an exact cover, each best score its weights'.

>>> a = CountAnswer(limit=None)
>>> a.take((0,), 3); a.take((1,), 4); a.result()
7
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from .. import serial
from ..errors import BudgetExceeded
from ..options import Options
from ..problem import ExactCover
from . import state as saved
from .pieces import Piece
from .state import Context, StateError

#: How a solution is saved: its option numbers.
Code = Callable[[Piece], list[int]]
#: The longest key a saved answer may name (a place in search order: one number a level).
_DEPTH = 1 << 20

__all__ = ["Answer", "CountAnswer", "SolutionsAnswer", "FirstAnswer", "BestAnswer", "KINDS",
           "Job", "WeightedCountAnswer"]

#: The key after every piece's (where the best of pieces cut part way are merged).
_AFTER: tuple[int, ...] = (1 << 62,)


class Job:
    """What a piece's search needs besides its options: the limit left, and for best
    the weights and what to do with them."""

    __slots__ = ("limit", "weights", "k", "maximize", "bound")

    def __init__(self, limit: int | None = None, weights: Mapping[Any, Any] | None = None,
                 k: int = 1, maximize: bool = True, bound: Callable[..., Any] | None = None
                 ) -> None:
        self.limit, self.weights, self.k, self.maximize, self.bound = (
            limit, weights, k, maximize, bound)


class Answer:
    """The merged answer of one parallel run (see the module's docstring)."""

    #: The name a task carries to its worker (which looks the class up in KINDS).
    kind: ClassVar[str]
    #: A task of this view gets this many times the usual node budget.
    budget_factor: ClassVar[int] = 1
    #: Can a piece that ran out of its budget hand back its unexplored subtrees?
    resumable: ClassVar[bool] = True

    finished = False                # nothing more to find (a limit reached, a first found)

    # -- in the worker ---------------------------------------------------------

    @staticmethod
    def search(problem: ExactCover, opts: Options, job: Job) -> Any:
        """The answer below one piece (``opts.forced``)."""
        raise NotImplementedError

    @staticmethod
    def used(r: Any) -> int:
        """How much of the task's limit the piece's answer ``r`` used."""
        return 0

    @staticmethod
    def enough(r: Any) -> bool:
        """Should the task stop, its answer so far being ``r``?"""
        return False

    @staticmethod
    def zero() -> Any:
        """The answer of no piece."""
        return None

    @staticmethod
    def combine(a: Any, b: Any, job: Job) -> Any:
        """The answer of pieces answering ``a`` and then, later in search order, ``b``."""
        raise NotImplementedError

    @staticmethod
    def cut_short(found: Any) -> Any:
        """The answer of what a piece found before it stopped (``BudgetExceeded.found``)."""
        return found

    # -- in the driver ---------------------------------------------------------

    def limit_left(self) -> int | None:
        """The limit a new task gets (None: no limit)."""
        return None

    def take(self, key: tuple[int, ...], r: Any) -> None:
        """Merge the answer ``r`` found under ``key`` (a piece's, or part of one)."""
        raise NotImplementedError

    def keep_partial(self, partial: Any) -> None:
        """A piece stopped part way with no subtrees to hand back (it is run again, cut
        one level down): keep what it found that will not be found again."""

    def opened(self, key: tuple[int, ...]) -> None:
        """A run of pieces starting at ``key`` joined the queue (a batch: the pieces up to
        the next batch's key that are not done)."""

    def closed(self, key: tuple[int, ...]) -> None:
        """The task with ``key`` came back (its answer taken, the rest queued anew)."""

    def release(self) -> Iterator[list[Piece]]:
        """Solutions that may be handed out now (solutions only)."""
        return iter(())

    def so_far(self) -> Any:
        """What was found, for a BudgetExceeded."""
        return None

    def result(self) -> Any:
        """The merged answer."""
        raise NotImplementedError

    # -- in a checkpoint -------------------------------------------------------

    def to_state(self, code: Code) -> dict[str, Any]:
        """The answer so far as JSON values (solutions as option numbers, by ``code``)."""
        raise StateError(f"the answers of {self.kind} are not saved in a checkpoint")

    def restore(self, state: Any, ctx: Context) -> None:
        """Put back what :meth:`to_state` saved, each field checked (:class:`StateError`
        naming the one at fault)."""
        raise StateError(f"the answers of {self.kind} are not saved in a checkpoint")


class _Tally(Answer):
    """A count's total in the driver, held to its limit (the two counts below)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.total = 0

    def add(self, n: int) -> None:
        self.total += n
        if self.limit is not None and self.total >= self.limit:
            self.total = self.limit
            self.finished = True

    def limit_left(self) -> int | None:
        return None if self.limit is None else self.limit - self.total

    def so_far(self) -> int:
        return self.total

    def result(self) -> int:
        return self.total


class CountAnswer(_Tally):
    kind = "count"

    @staticmethod
    def search(problem: ExactCover, opts: Options, job: Job) -> int:
        return serial.count(problem, opts, limit=job.limit)

    @staticmethod
    def used(r: int) -> int:
        return r

    @staticmethod
    def zero() -> int:
        return 0

    @staticmethod
    def combine(a: int, b: int, job: Job) -> int:
        return a + b

    def take(self, key: tuple[int, ...], r: int) -> None:
        self.add(r)

    def to_state(self, code: Code) -> dict[str, Any]:
        return {"total": self.total}

    def restore(self, state: Any, ctx: Context) -> None:
        """The total: what the statistics counted (up to the limit)."""
        a = saved.fields(state, "the answer", ["total"])
        total = saved.whole(a["total"], "the count", 0, self.limit or ctx.found)
        want = ctx.found if self.limit is None else min(ctx.found, self.limit)
        if total != want:
            raise StateError(f"the count is {total:,}, but the statistics count {want:,}"
                             " solutions")
        self.take((), total)


class SolutionsAnswer(Answer):
    kind = "solutions"

    def __init__(self, limit: int | None, ordered: bool = True) -> None:
        self.limit, self.ordered = limit, ordered
        self.released = 0                                   # solutions handed out
        self.ready: list[tuple[tuple[int, ...], list[Piece]]] = []   # held back
        self.open: list[tuple[int, ...]] = []               # keys of pieces not done (heap)
        self.done: set[tuple[int, ...]] = set()

    @staticmethod
    def search(problem: ExactCover, opts: Options, job: Job) -> list[Piece]:
        return list(serial.solutions(problem, opts, limit=job.limit))

    @staticmethod
    def used(r: list[Piece]) -> int:
        return len(r)

    @staticmethod
    def zero() -> list[Piece]:
        return []

    @staticmethod
    def combine(a: list[Piece], b: list[Piece], job: Job) -> list[Piece]:
        a.extend(b)
        return a

    @staticmethod
    def cut_short(found: Any) -> list[Piece]:
        return list(found or ())

    def limit_left(self) -> int | None:
        if self.limit is None:
            return None
        held = sum(len(sols) for _, sols in self.ready) if not self.ordered else 0
        return self.limit - self.released - held

    def take(self, key: tuple[int, ...], r: list[Piece]) -> None:
        if r:
            heapq.heappush(self.ready, (key, r))

    def opened(self, key: tuple[int, ...]) -> None:
        if self.ordered:
            heapq.heappush(self.open, key)

    def closed(self, key: tuple[int, ...]) -> None:
        if self.ordered:
            self.done.add(key)

    def release(self) -> Iterator[list[Piece]]:
        """All the solutions (unordered), or those before the first piece not done."""
        if self.ordered:
            while self.open and self.open[0] in self.done:
                self.done.discard(heapq.heappop(self.open))
        while self.ready and (not self.ordered or not self.open
                              or self.ready[0][0] < self.open[0]):
            _, sols = heapq.heappop(self.ready)
            if self.limit is not None and self.released + len(sols) >= self.limit:
                sols = sols[:self.limit - self.released]
                self.ready.clear()
                self.finished = True
            self.released += len(sols)
            yield sols

    def held(self) -> list[Piece]:
        """The solutions found and not handed out, in search order."""
        return [sol for _, sols in sorted(self.ready) for sol in sols]

    def result(self) -> None:
        return None                 # (handed out by release)

    def to_state(self, code: Code) -> dict[str, Any]:
        return {"released": self.released,
                "held": [[list(k), [code(sol) for sol in sols]]
                         for k, sols in sorted(self.ready)]}

    def restore(self, state: Any, ctx: Context) -> None:
        """The solutions handed out (as many as the stream holds, checked by the
        checkpoint) and those held back, each an exact cover, under distinct keys."""
        a = saved.fields(state, "the answer", ["released", "held"])
        self.released = saved.whole(a["released"], "the solutions released", 0,
                                    self.limit or ctx.found)
        if ctx.streamed is not None and self.released != ctx.streamed:
            raise StateError(f"{self.released:,} solutions released, but the solutions' file"
                             f" holds {ctx.streamed:,}")
        held = 0
        keys: set[tuple[int, ...]] = set()
        for batch in saved.listed(a["held"], "the held solutions"):
            k, sols = saved.row(batch, "a batch of held solutions", 2)
            where = saved.key(k, "the key of held solutions", _DEPTH)
            if where in keys:
                raise StateError(f"held solutions under key {list(where)} are there twice")
            keys.add(where)
            found = [ctx.solution(x, "a held solution") for x in saved.listed(sols, "held")]
            if not found:
                raise StateError("a batch of held solutions holds none")
            held += len(found)
            self.take(where, found)
        if self.released + held > ctx.found or self.limit is None and \
                self.released + held != ctx.found:
            raise StateError(f"{self.released:,} solutions released and {held:,} held, but"
                             f" the statistics count {ctx.found:,}")
        if self.limit is not None and self.released >= self.limit:
            self.finished = True


class FirstAnswer(Answer):
    kind = "first"

    def __init__(self) -> None:
        self.answer: Piece | None = None

    @staticmethod
    def search(problem: ExactCover, opts: Options, job: Job) -> Piece | None:
        return serial.first(problem, opts)

    @staticmethod
    def enough(r: Piece | None) -> bool:
        return r is not None

    @staticmethod
    def combine(a: Piece | None, b: Piece | None, job: Job) -> Piece | None:
        return a if a is not None else b

    @staticmethod
    def cut_short(found: list[Piece] | None) -> Piece | None:
        return found[0] if found else None          # (what solutions() found)

    def take(self, key: tuple[int, ...], r: Piece | None) -> None:
        if r is not None:
            self.answer, self.finished = r, True

    def so_far(self) -> list[Piece]:
        return []

    def result(self) -> Piece | None:
        return self.answer


class BestAnswer(Answer):
    kind = "best"
    budget_factor = 4           # a best piece that runs out is cut and run again: rarely
    resumable = False           # a branch and bound stopped part way has no frontier

    def __init__(self, k: int | None, maximize: bool) -> None:
        self.k, self.maximize = k, maximize
        # (ordering score, key, rank in its piece, score, solution): best first
        self.kbest: list[tuple[Any, tuple[int, ...], int, Any, Piece]] = []
        self.partial: list[tuple[Any, Piece]] = []      # from pieces cut part way

    @staticmethod
    def search(problem: ExactCover, opts: Options, job: Job) -> Any:
        assert job.weights is not None
        return serial.best(problem, job.weights, opts, k=job.k, maximize=job.maximize,
                           bound=job.bound)

    @staticmethod
    def zero() -> list[tuple[Any, Piece]]:
        return []

    @staticmethod
    def combine(a: list[tuple[Any, Piece]], b: list[tuple[Any, Piece]], job: Job
                ) -> list[tuple[Any, Piece]]:
        """The k best of both, ties to ``a`` (the earlier pieces): a stable sort."""
        both = a + b
        both.sort(key=(lambda t: -t[0]) if job.maximize else (lambda t: t[0]))
        return both[:job.k]

    def take(self, key: tuple[int, ...], r: list[tuple[Any, Piece]]) -> None:
        for i, (score, sol) in enumerate(r):
            self.kbest.append((-score if self.maximize else score, key, i, score, sol))
        self.kbest.sort(key=lambda t: t[:3])
        del self.kbest[self.k or 1:]

    def keep_partial(self, partial: list[tuple[Any, Piece]] | None) -> None:
        self.partial.extend(partial or ())

    def so_far(self) -> Any:
        """The k best of the pieces done and of those cut part way."""
        more = [(-score if self.maximize else score, _AFTER, i, score, sol)
                for i, (score, sol) in enumerate(self.partial)]
        found: list[tuple[Any, Piece]] = []
        seen: set[Piece] = set()
        for *_, score, sol in sorted(self.kbest + more, key=lambda t: t[:3]):
            if sol not in seen:
                seen.add(sol)
                found.append((score, sol))
        return found[:self.k] if self.k is not None else (found[0] if found else None)

    def result(self) -> Any:
        found = [(score, sol) for _, _, _, score, sol in self.kbest]
        return found if self.k is not None else (found[0] if found else None)

    def to_state(self, code: Code) -> dict[str, Any]:
        return {"kbest": [[list(k), rank, saved.saved_score(value), code(sol)]
                          for _, k, rank, value, sol in self.kbest],
                "partial": [[saved.saved_score(value), code(sol)]
                            for value, sol in self.partial]}

    def restore(self, state: Any, ctx: Context) -> None:
        """The k best so far (at most k, each place and solution once) and the best of
        pieces cut part way: each an exact cover whose score is its weights' sum."""
        a = saved.fields(state, "the answer", ["kbest", "partial"])
        most = self.k or 1
        seen: set[tuple[tuple[int, ...], int]] = set()
        sols: set[Piece] = set()
        for entry in saved.listed(a["kbest"], "the k best", most):
            k, rank, value, sol = saved.row(entry, "an entry of the k best", 4)
            where = (saved.key(k, "the key of a best solution", _DEPTH),
                     saved.whole(rank, "a rank among the k best", 0, most - 1))
            found = self._checked(value, sol, ctx)
            if where in seen or found[1] in sols:
                raise StateError("the k best name a solution twice")
            seen.add(where)
            sols.add(found[1])
            order = -found[0] if self.maximize else found[0]
            self.kbest.append((order, where[0], where[1], found[0], found[1]))
        self.kbest.sort(key=lambda t: t[:3])
        self.partial = []
        for x in saved.listed(a["partial"], "the best of pieces cut part way"):
            value, sol = saved.row(x, "a best solution of a piece cut part way", 2)
            self.partial.append(self._checked(value, sol, ctx))

    @staticmethod
    def _checked(value: Any, sol: Any, ctx: Context) -> tuple[Any, Piece]:
        """A saved (score, solution) pair, checked: an exact cover, and its score."""
        found = ctx.solution(sol, "a best solution")
        got = saved.score(value, "the score of a best solution")
        if ctx.score is not None:
            want = ctx.score(found)
            same = math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9) if isinstance(
                got, float) or isinstance(want, float) else got == want
            if not same:
                raise StateError(f"a best solution's score is {got}, but its weights add"
                                 f" up to {want}")
        return got, found


class WeightedCountAnswer(_Tally):
    """A count by symmetry (:mod:`dlx.parallel.roots`): each piece's count times the
    weight of the root it lies below, how many partial solutions that root stands for.
    The roots' weights travel to the workers as the job's ``weights`` (root labels ->
    weight: a count has no weights of its own).  A piece's answer is (its count times
    the weight, the nodes the weight saved: the weight less one times its nodes)."""

    kind = "weighted-count"

    def __init__(self, limit: int | None) -> None:
        super().__init__(limit)
        self.saved = 0

    @staticmethod
    def search(problem: ExactCover, opts: Options, job: Job) -> tuple[int, int]:
        assert job.weights is not None and opts.stats is not None
        forced = opts.forced
        weight = next(job.weights[forced[:k]] for k in range(len(forced), -1, -1)
                      if forced[:k] in job.weights)
        limit = None if job.limit is None else -(-job.limit // weight)
        try:
            n = serial.count(problem, opts, limit=limit)
        except BudgetExceeded as e:
            e.found = ((e.found or 0) * weight, (weight - 1) * opts.stats.nodes)
            raise
        return n * weight, (weight - 1) * opts.stats.nodes

    @staticmethod
    def used(r: tuple[int, int]) -> int:
        return r[0]

    @staticmethod
    def zero() -> tuple[int, int]:
        return 0, 0

    @staticmethod
    def combine(a: tuple[int, int], b: tuple[int, int], job: Job) -> tuple[int, int]:
        return a[0] + b[0], a[1] + b[1]

    @staticmethod
    def cut_short(found: Any) -> tuple[int, int]:
        return found if found else (0, 0)

    def take(self, key: tuple[int, ...], r: tuple[int, int]) -> None:
        self.saved += r[1]
        self.add(r[0])


#: The answer classes by the name a task carries.
KINDS: dict[str, type[Answer]] = {cls.kind: cls for cls in
                                  (CountAnswer, SolutionsAnswer, FirstAnswer, BestAnswer,
                                   WeightedCountAnswer)}
