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

The file's format, the fingerprint and the sealed, atomic writes are in
:mod:`.checkfile`.  A checkpoint whose fingerprint differs is refused
(:class:`CheckpointMismatch`, naming the parts that differ); budgets (``max_nodes``,
``timeout``), the engine and the executor may change from one session to the next.
One run at a time holds a checkpoint (a lock on ``PATH.lock``).  :func:`dlx.solutions`
also writes its solutions to ``PATH.solutions.jsonl``, one a line, flushed as they
are released; a resumed run yields those of the file first, then the rest: the
whole answer again.

*What is checked* before a resumed run believes anything: the paths (the checkpoint,
its lock and its solutions' file must be regular files or missing, in a folder that
exists: a FIFO, a directory, a device is refused at once, never waited on), the
digest of the file and its format and version, the fingerprint, then every field by
its owner (the driver: its statistics, its share done, its frontier, each piece's
options, key and share, the pieces distinct and disjoint, the shares adding up with
what is done to the whole tree; the answer: see :meth:`.answers.Answer.restore`),
and for a listing, the solutions' file against the checkpoint's record, each
solution read back checked as an exact cover before it is yielded.  Anything else is
a :class:`CheckpointError` naming the file.

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
dlx.parallel.checkfile.CheckpointMismatch: checkpoint ... heuristic differs ('first' here, ...
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Hashable, Iterator
from typing import Any, NamedTuple, Protocol

from ..errors import ExactCoverError, shown
from ..files import FileError, kind, open_regular, sweep
from ..problem import ExactCover
from . import checkfile as cf
from .checkfile import (
    FORMAT,
    VERSION,
    CheckpointError,
    CheckpointMismatch,
    fingerprint,
    read_solutions,
    solutions_path,
)
from .pieces import Piece
from .state import StateError, fields, flag, numbers, whole

__all__ = ["Checkpoint", "Spec", "CheckpointError", "CheckpointMismatch", "EVERY", "FORMAT",
           "VERSION", "fingerprint", "read_solutions", "solutions_path"]

#: Seconds between checkpoints, by default.
EVERY = 60.0

#: The most sessions and seconds a checkpoint may count (about 30,000 years of runs).
_MOST_SESSIONS, _MOST_SECONDS = 2**31 - 1, 1e12


class Spec(NamedTuple):
    """What the caller asked for: where, how often, and the problem as given (before a
    seed shuffled it), with that seed."""

    path: str
    every: float
    problem: ExactCover
    seed: int | None


class Run(Protocol):
    """What a checkpoint saves: a run of the parallel driver
    (:class:`dlx.parallel.schedule.Driver`), which saves and restores its own state."""

    @property
    def finished(self) -> bool: ...

    def to_state(self, code: Any, finished: bool) -> dict[str, Any]: ...


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

    def __init__(self, where: Spec, view: str, **keywords: Any) -> None:
        self.path, self.every = where.path, where.every
        self.problem = where.problem
        self.labels = list(where.problem.options)           # for the solutions' numbers
        self._index: dict[Hashable, int] | None = None
        self.view = view
        self.parts = fingerprint(where.problem, view, seed=where.seed, **keywords)
        self.fingerprint = cf.digest([json.dumps(self.parts, sort_keys=True)])
        self.stream_path = solutions_path(self.path)
        self.stream: cf.Stream | None = None
        self.state = self._load()
        self.saved_at: float | None = None                  # time.monotonic()
        self.saved_now = False                              # at the last stop
        self.began = time.monotonic()
        self._guard = _Guard()
        self._locked: int | None = None

    # ------------------------------------------------------------- reading

    def _load(self) -> dict[str, Any] | None:
        """The saved state, checked as far as the checkpoint can (the paths, the digest,
        the format, the fingerprint, its own fields and the solutions' file); the run's
        fields are the driver's to check (:attr:`saved_run`)."""
        try:
            kind(self.path, "checkpoint")
            kind(self.path + ".lock", "checkpoint lock")
            if self.view == "solutions":
                kind(self.stream_path, "solutions' file")
        except FileError as e:
            raise CheckpointError(str(e)) from None
        state = cf.load(self.path)
        if state is None:
            return None
        if state.get("fingerprint") != self.fingerprint:
            raise CheckpointMismatch(self._mismatch(state.get("parts")))
        try:
            names = ["format", "version", "fingerprint", "parts", "finished", "sessions",
                     "seconds", "saved", "run"]
            fields(state, "the checkpoint", names + (["stream"] if self.view == "solutions"
                                                     else []))
            flag(state["finished"], "finished")
            whole(state["sessions"], "the sessions", 1, _MOST_SESSIONS)
            for name, most in (("seconds", _MOST_SECONDS), ("saved", _MOST_SECONDS)):
                value = state[name]
                if type(value) not in (int, float) or not 0 <= value <= most:
                    raise StateError(f"{name} is {shown(value)}, not a number of seconds")
            if self.view == "solutions":
                self.stream = cf.Stream(self.stream_path, state["stream"], state["finished"],
                                        self.path)
        except StateError as e:
            raise self.damaged(e) from None
        return state

    def damaged(self, e: Exception) -> CheckpointError:
        """The error of a field that is not what a run writes."""
        return CheckpointError(f"checkpoint {self.path} is damaged: {e}; remove it to start"
                               " again")

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
        return bool(self.state is not None and self.state["finished"])

    @property
    def saved_run(self) -> Any:
        """The driver's saved state (None for a new run): its to check and restore."""
        return None if self.state is None else self.state["run"]

    @property
    def streamed(self) -> int | None:
        """How many solutions the solutions' file holds (None: no such file here)."""
        return None if self.stream is None or self.state is None else self.stream.lines

    def solution(self, x: Any, what: str) -> Piece:
        """Saved option numbers as a solution (labels), checked as an exact cover."""
        from ..verify import why_not

        labels = self.labels
        sol = tuple([labels[o] for o in numbers(x, len(labels), what)])
        why = why_not(self.problem, sol)
        if why is not None:
            raise StateError(f"{what} {[self._number(x) for x in sol]} is not an exact cover:"
                             f" {why}")
        return sol

    def _number(self, label: Hashable) -> int:
        index = self._index
        if index is None:
            index = self._index = {label: o for o, label in enumerate(self.labels)}
        return index[label]

    def code(self, sol: Piece) -> list[int]:
        """A solution as it is saved: its option numbers (in the problem as given)."""
        return [self._number(label) for label in sol]

    def stored(self) -> Iterator[Piece]:
        """The solutions the stream held at the checkpoint (a resumed run yields them
        first), as label tuples, each checked as an exact cover first."""
        if self.stream is not None and self.state is not None:
            yield from self.stream.stored(self.solution)

    # ------------------------------------------------------------- writing

    def begin(self, run: Run) -> None:
        """The run starts (resumed or new): take the lock, open the solutions' stream,
        cut back to the checkpoint's record, and write a first checkpoint."""
        self._lock()
        sweep(self.path)
        if self.view == "solutions":
            if self.stream is None:
                self.stream = cf.Stream(self.stream_path, None, False, self.path)
            self.stream.open()
        self.save(run)

    def guard(self) -> _Guard:
        return self._guard

    def due(self) -> bool:
        last = self.began if self.saved_at is None else self.saved_at
        return time.monotonic() - last >= self.every

    def write(self, batch: list[Piece]) -> None:
        """Solutions released: to the stream, flushed."""
        if self.stream is None or self.stream.file is None or not batch:
            return
        self.stream.write([json.dumps(self.code(sol)).encode() + b"\n" for sol in batch])

    def save(self, run: Run, final: bool = False) -> None:
        """Write the run's state, atomically (a second Ctrl-C leaves the last one)."""
        self.saved_now = False
        if self._guard.unsafe:
            return
        finished = final or run.finished
        now = time.monotonic()
        before = self.state or {"sessions": 0, "seconds": 0.0}
        state: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "fingerprint": self.fingerprint,
            "parts": self.parts, "finished": finished,
            "sessions": before["sessions"] + 1,
            "seconds": float(before["seconds"]) + now - self.began,
            "saved": time.time(),
            "run": run.to_state(self.code, finished),
        }
        if self.stream is not None and self.stream.file is not None:
            state["stream"] = self.stream.record(finished)
        cf.dump(self.path, state)
        self.saved_at, self.saved_now = now, True

    def tell(self, e: BaseException) -> None:
        """Say on the exception that stops the run what is on disk: ``checkpoint_written``
        is ``"now"`` (its state at the stop), ``"earlier"`` (the last one written) or
        absent (none)."""
        if self.saved_now:
            e.checkpoint_written = "now"  # type: ignore[attr-defined]
        elif self.saved_at is not None or self.state is not None:
            e.checkpoint_written = "earlier"  # type: ignore[attr-defined]

    def _lock(self) -> None:
        """One run at a time on a checkpoint (two would write over each other's
        solutions): an exclusive lock on ``PATH.lock``, which the system lets go of
        when the process ends, however it ends."""
        try:
            import fcntl
        except ImportError:                 # (not POSIX: no lock)
            return
        try:
            fd = open_regular(self.path + ".lock", "checkpoint lock", os.O_RDWR | os.O_CREAT)
        except FileError as e:
            raise CheckpointError(str(e)) from None
        assert fd is not None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise CheckpointError(f"checkpoint {self.path} is in use by another run (its"
                                  f" lock {self.path}.lock is held)") from None
        self._locked = fd

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
        if self._locked is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path + ".lock")
            os.close(self._locked)          # (and with it the lock)
            self._locked = None


def make(where: Spec | None, view: str, opts: Any, **keywords: Any) -> Checkpoint | None:
    """The checkpoint of a parallel view's run (None without one)."""
    if where is None:
        return None
    return Checkpoint(where, view, heuristic=opts.heuristic, forced=opts.forced, **keywords)
