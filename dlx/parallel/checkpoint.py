"""Checkpoints: the frontier of a long search on disk, so that a run survives any kill.

``dlx.count(p, checkpoint="run.ckpt")`` (and :func:`dlx.solutions`, :func:`dlx.best`,
their parallel forms, ``--checkpoint FILE`` on the command line) runs the search as
the parallel driver does (:mod:`.schedule`; without an executor, on one that runs
each task at once in this thread), and writes its state to ``run.ckpt`` every
``checkpoint_every`` seconds (default :data:`EVERY`), on Ctrl-C (or any other stop:
a budget, an error, a closed iterator) and at the end.  Run the same search again
with the same path and it goes on from there: the answer and the merged
:class:`~dlx.Stats` come out as an uninterrupted run's, nothing counted twice and
nothing lost, however the earlier run ended (SIGKILL included: the work since the
last checkpoint is done again).  A run that had finished answers at once.

The file's format, the fingerprint and the atomic writes are in :mod:`.checkfile`.
A checkpoint whose fingerprint differs is refused (:class:`CheckpointMismatch`,
naming the parts that differ); budgets (``max_nodes``, ``timeout``), the engine and
the executor may change from one session to the next.  One run at a time holds a
checkpoint (a lock on ``PATH.lock``).  :func:`dlx.solutions` also writes its
solutions to ``PATH.solutions.jsonl``, one a line, flushed as they are released; a
resumed run yields those of the file first, then the rest: the whole answer again.

>>> import dlx, os, tempfile
>>> p = dlx.ExactCover({(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
...                     for r in range(6) for c in range(6)},
...                    secondary=[(d, k) for d in ("up", "down") for k in range(-5, 11)])
>>> path = os.path.join(tempfile.mkdtemp(), "run.ckpt")
>>> dlx.count(p, checkpoint=path), dlx.count(p, checkpoint=path)     # the 2nd reads it
(4, 4)
>>> dlx.count(p, checkpoint=path, heuristic="first")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
dlx.parallel.checkpoint.CheckpointMismatch: checkpoint ... heuristic differs ('first' here, ...
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import ExactCoverError, shown
from ..problem import ExactCover
from . import checkfile as cf
from .answers import Answer, BestAnswer, CountAnswer, SolutionsAnswer
from .checkfile import FORMAT, VERSION, fingerprint, read_solutions, solutions_path
from .pieces import Entry, Piece

if TYPE_CHECKING:
    from .schedule import Driver

__all__ = ["Checkpoint", "Spec", "CheckpointError", "CheckpointMismatch", "EVERY", "FORMAT",
           "VERSION", "fingerprint", "read_solutions", "solutions_path"]

#: Seconds between checkpoints, by default.
EVERY = 60.0


class CheckpointError(ExactCoverError):
    """A checkpoint that cannot be read or used (the message says why)."""


class CheckpointMismatch(CheckpointError):
    """A checkpoint written for another problem or other options."""


class Spec(NamedTuple):
    """What the caller asked for: where, how often, and the problem as given (before a
    seed shuffled it), with that seed."""

    path: str
    every: float
    problem: ExactCover
    seed: int | None


def spec(path: Any, every: Any, problem: ExactCover, seed: int | None) -> Spec:
    """The checked arguments ``checkpoint=`` and ``checkpoint_every=`` of a view."""
    if isinstance(path, Spec):
        return path
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise ExactCoverError(f"checkpoint must be a path (a str or os.PathLike), not"
                              f" {shown(path)}")
    path = os.fspath(path)
    if not path or os.path.isdir(path):
        raise ExactCoverError(f"checkpoint must be a file's path, not {shown(path)}")
    if every is None:
        every = EVERY
    if isinstance(every, bool) or not isinstance(every, (int, float)) or not 0 < every < 1e9:
        raise ExactCoverError(f"checkpoint_every must be a positive number of seconds, not"
                              f" {shown(every)}")
    return Spec(str(path), float(every), problem, seed)


class _Guard:
    """Ctrl-C held back while the driver updates its state (only where Python's own
    handler would raise at any moment: the main thread, the default handler): the
    driver raises at its next check, between two tasks, so that what is saved is
    whole.  A second Ctrl-C raises at once, and then the last checkpoint stays."""

    def __init__(self) -> None:
        self.hit = self.unsafe = self.installed = False

    def on(self) -> None:
        if self.installed or threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return
        signal.signal(signal.SIGINT, self._handler)
        self.installed = True

    def off(self) -> None:
        if self.installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self.installed = False

    def _handler(self, signum: int, frame: Any) -> None:
        if self.hit:
            self.unsafe = True
            raise KeyboardInterrupt
        self.hit = True

    def check(self) -> None:
        if self.hit:
            self.hit = False
            raise KeyboardInterrupt


class Checkpoint:
    """The checkpoint of one run of a view (see the module's docstring)."""

    def __init__(self, where: Spec, view: str, answer: Answer, **keywords: Any) -> None:
        self.path, self.every = where.path, where.every
        self.labels = list(where.problem.options)           # for the solutions' numbers
        self._index: dict[Hashable, int] | None = None
        self.view, self.answer = view, answer
        self.parts = fingerprint(where.problem, view, seed=where.seed, **keywords)
        self.fingerprint = cf.digest([json.dumps(self.parts, sort_keys=True)])
        self.stream_path = solutions_path(self.path)
        self.state = self._load()
        self.saved_at: float | None = None                  # time.monotonic()
        self.began = time.monotonic()
        self.stream: Any = None
        self._guard = _Guard()
        self._locked: Any = None

    # ------------------------------------------------------------- reading

    def _load(self) -> dict[str, Any] | None:
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise CheckpointError(f"cannot read checkpoint {self.path}:"
                                  f" {e.strerror or e}") from None
        try:
            state = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise CheckpointError(f"{self.path} is not a dlx checkpoint ({e})") from None
        if not isinstance(state, dict) or state.get("format") != FORMAT:
            raise CheckpointError(f"{self.path} is not a dlx checkpoint")
        if state.get("version") != VERSION:
            raise CheckpointError(f"checkpoint {self.path} has version"
                                  f" {shown(state.get('version'))}; this dlx reads {VERSION}")
        if state.get("fingerprint") != self.fingerprint:
            raise CheckpointMismatch(self._mismatch(state.get("parts")))
        if self.view == "solutions":
            self._check_stream(state)
        return state

    def _check_stream(self, state: dict[str, Any]) -> None:
        """The solutions' file must hold at least what the checkpoint counts on."""
        try:
            size = int(state["answer"]["bytes"])
        except (KeyError, TypeError, ValueError):
            raise CheckpointError(f"checkpoint {self.path} is damaged (no solutions' size)"
                                  ) from None
        try:
            have = os.path.getsize(self.stream_path)
        except OSError:
            have = -1
        if have < size:
            raise CheckpointError(
                f"{self.stream_path} holds {max(have, 0):,} bytes, fewer than the {size:,}"
                f" checkpoint {self.path} counts on: it was changed since; remove the"
                " checkpoint to start again")

    def _mismatch(self, theirs: Any) -> str:
        theirs = theirs if isinstance(theirs, dict) else {}
        differ: list[str] = []
        names = sorted(set(theirs) | set(self.parts))
        if theirs.get("view") != self.parts["view"]:
            names = ["view"]                    # (the other parts are another view's)
        for name in names:
            mine, old = self.parts.get(name), theirs.get(name)
            if mine == old:
                continue
            if name == "problem":
                differ.insert(0, "the problem differs (its items, options, bounds or costs)")
            elif name in ("forced", "weights"):
                differ.append(f"{name} differ")
            else:
                differ.append(f"{name} differs ({shown(mine)} here"
                              + (f", {shown(old)} there)" if name in theirs else ")"))
        why = "; ".join(differ) or "its fingerprint differs"
        return (f"checkpoint {self.path} was written for another search: {why}; give another"
                " path, or remove it to start again")

    @property
    def finished(self) -> bool:
        return bool(self.state is not None and self.state.get("finished"))

    def stored(self) -> Iterator[tuple[Hashable, ...]]:
        """The solutions the stream held at the checkpoint (a resumed run yields them
        first), as label tuples."""
        if self.state is None or self.view != "solutions":
            return
        n = self.state["answer"]["released"]
        labels = self.labels
        with open(self.stream_path, "rb") as f:
            for _ in range(n):
                line = f.readline()
                try:
                    numbers = cf.numbers(json.loads(line), len(labels))
                except (ValueError, TypeError, RecursionError):
                    raise CheckpointError(f"{self.stream_path} is damaged: it does not hold"
                                          f" the {n:,} solutions checkpoint {self.path}"
                                          " counts on") from None
                yield tuple([labels[o] for o in numbers])

    # ------------------------------------------------------------- resuming

    def resume(self, drv: Driver) -> None:
        """Put the saved state into the driver ``drv`` (instead of a first cut)."""
        st = self.state
        assert st is not None
        try:
            s = st["stats"]
            drv.stats.nodes, drv.stats.updates = int(s["nodes"]), int(s["updates"])
            drv.stats.solutions, drv.stats.profile = int(s["solutions"]), list(s["profile"])
            drv.done = drv.done_before = float(st["done"])
            drv.pieces_done = int(st["pieces_done"])
            drv.splittable = bool(st.get("splittable", True))
            top = len(drv.labels)
            batches = [tuple(sorted(Entry(cf.key(k), cf.numbers(p, top), float(w))
                                    for k, p, w in batch)) for batch in st["frontier"]]
            self._restore(drv, st["answer"])
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise CheckpointError(f"checkpoint {self.path} is damaged ({e!r})") from None
        for batch in batches:
            drv.push(batch, new=True)

    def _restore(self, drv: Driver, a: dict[str, Any]) -> None:
        answer, labels = drv.answer, self.labels
        if isinstance(answer, CountAnswer):
            answer.take((), int(a["total"]))
        elif isinstance(answer, SolutionsAnswer):
            answer.released = int(a["released"])
            if answer.limit is not None and answer.released >= answer.limit:
                answer.finished = True
            for key, sols in a["held"]:
                answer.take(cf.key(key), [tuple([labels[o] for o in cf.numbers(sol, len(labels))])
                                        for sol in sols])
        elif isinstance(answer, BestAnswer):
            sign = -1 if answer.maximize else 1
            for key, rank, score, sol in a["kbest"]:
                value = cf.unscore(score)
                answer.kbest.append((sign * value, cf.key(key), int(rank), value,
                                     tuple([labels[o] for o in cf.numbers(sol, len(labels))])))
            answer.kbest.sort(key=lambda t: t[:3])
            answer.partial = [(cf.unscore(score),
                               tuple([labels[o] for o in cf.numbers(sol, len(labels))]))
                              for score, sol in a["partial"]]

    def begin(self, drv: Driver) -> None:
        """The run starts (resumed or new): take the lock, open the solutions' stream,
        cut back to the checkpoint's size, and write a first checkpoint."""
        self._lock()
        self._sweep()
        if self.view == "solutions":
            size = 0 if self.state is None else int(self.state["answer"]["bytes"])
            self.stream = open(self.stream_path, "r+b" if size else "wb")  # noqa: SIM115
            self.stream.truncate(size)
            self.stream.seek(size)
        self.save(drv)

    # ------------------------------------------------------------- writing

    def guard(self) -> _Guard:
        return self._guard

    def due(self) -> bool:
        last = self.began if self.saved_at is None else self.saved_at
        return time.monotonic() - last >= self.every

    def write(self, batch: list[Piece]) -> None:
        """Solutions released: to the stream, flushed."""
        if self.stream is None or not batch:
            return
        index = self._index
        if index is None:
            index = self._index = {label: o for o, label in enumerate(self.labels)}
        self.stream.write("".join(
            [json.dumps([index[label] for label in sol]) + "\n" for sol in batch]).encode())
        self.stream.flush()

    def save(self, drv: Driver, final: bool = False) -> None:
        """Write the driver's state, atomically (a second Ctrl-C leaves the last one)."""
        if self._guard.unsafe:
            return
        finished = final or drv.answer.finished
        stream_bytes = 0
        if self.stream is not None:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            stream_bytes = self.stream.tell()
        now = time.monotonic()
        before = self.state or {}
        s = drv.stats
        state = {
            "format": FORMAT, "version": VERSION, "fingerprint": self.fingerprint,
            "parts": self.parts, "finished": finished,
            "sessions": int(before.get("sessions", 0)) + 1,
            "seconds": float(before.get("seconds", 0.0)) + now - self.began,
            "saved": time.time(),
            "stats": {"nodes": s.nodes, "updates": s.updates, "solutions": s.solutions,
                      "profile": list(s.profile)},
            "done": drv.done,
            "pieces_done": drv.pieces_done, "splittable": drv.splittable,
            "frontier": [] if finished else [[[list(e.key), list(e.piece), e.weight]
                                              for e in batch] for batch in drv.batches()],
            "answer": self._answer(drv.answer, stream_bytes),
        }
        cf.write_atomically(self.path, json.dumps(state, separators=(",", ":")).encode())
        self.saved_at = now

    def _answer(self, answer: Answer, stream_bytes: int) -> dict[str, Any]:
        index = self._index
        if index is None:
            index = self._index = {label: o for o, label in enumerate(self.labels)}
        if isinstance(answer, CountAnswer):
            return {"total": answer.total}
        if isinstance(answer, SolutionsAnswer):
            return {"released": answer.released, "bytes": stream_bytes,
                    "held": [[list(key), [[index[label] for label in sol] for sol in sols]]
                             for key, sols in sorted(answer.ready)]}
        if isinstance(answer, BestAnswer):
            return {"kbest": [[list(key), rank, cf.score(score), [index[x] for x in sol]]
                              for _, key, rank, score, sol in answer.kbest],
                    "partial": [[cf.score(score), [index[x] for x in sol]]
                                for score, sol in answer.partial]}
        raise CheckpointError(f"{type(answer).__name__} has no checkpoint")

    def _sweep(self) -> None:
        """Remove the temporary files of writes that a kill cut short."""
        folder, name = os.path.split(os.path.abspath(self.path))
        try:
            leftovers = [f for f in os.listdir(folder)
                         if f.startswith(f".{name}.") and f.endswith(".tmp")]
        except OSError:
            return
        for f in leftovers:
            try:
                os.unlink(os.path.join(folder, f))
            except OSError:
                pass

    def _lock(self) -> None:
        """One run at a time on a checkpoint (two would write over each other's
        solutions): an exclusive lock on ``PATH.lock``, which the system lets go of
        when the process ends, however it ends."""
        try:
            import fcntl
        except ImportError:                 # (not POSIX: no lock)
            return
        self._locked = open(self.path + ".lock", "a+b")  # noqa: SIM115 - closed in close()
        try:
            fcntl.flock(self._locked.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._locked.close()
            self._locked = None
            raise CheckpointError(f"checkpoint {self.path} is in use by another run (its"
                                  f" lock {self.path}.lock is held)") from None

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        if self._locked is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path + ".lock")
            self._locked.close()            # (and with it the lock)
            self._locked = None


def make(where: Spec | None, view: str, answer: Answer, opts: Any,
         **keywords: Any) -> Checkpoint | None:
    """The checkpoint of a parallel view's run (None without one)."""
    if where is None:
        return None
    return Checkpoint(where, view, answer, heuristic=opts.heuristic, forced=opts.forced,
                      **keywords)

