"""The checkpoint's file: what is in it, the fingerprint, and how it is written and read.

:mod:`.checkpoint` runs a search with a checkpoint; this module holds what it puts on
disk and reads back: the format (below), the fingerprint of a search (the same in
every process: not Python's salted ``hash()``, never a memory address), the file
itself (sealed and atomic, :mod:`dlx.files`) and the solutions' stream.

*The file* is one line of JSON, then the end line ``end sha256 D`` (D: the SHA-256 of
the line before it), written to a temporary file in the same folder, flushed and
``fsync``-ed, then renamed over the old one: a reader sees the old checkpoint or the
new one, never a mix, and believes nothing before the digest is checked.  JSON that
no run writes is refused too: ``NaN``, ``Infinity``, a field twice.

``format``, ``version``
    ``"dlx-checkpoint"``, 2.  A checkpoint of version 1 is refused by name.
``fingerprint``, ``parts``
    A SHA-256 of ``parts``: the view, a digest of the problem (its items, its options
    in order with their labels and items, bounds and costs, written canonically), and
    what changes the tree or the answer: ``heuristic``, ``forced``, ``seed``,
    ``limit``, ``ordered``, and for ``best`` the weights, ``k``, ``maximize``, ``bound``.
    A checkpoint whose fingerprint differs is refused
    (:class:`CheckpointMismatch`, naming the parts that differ); budgets
    (``max_nodes``, ``timeout``), the engine and the executor may change from one
    session to the next.
``run``
    The driver's state (:meth:`dlx.parallel.schedule.Driver.to_state`): ``frontier``,
    the pieces not done, in search order, in *batches* (runs of pieces with nothing
    done between them; a piece is ``[key, piece, share]``: its place in search
    order, its option numbers in the driver's problem, its share of the tree);
    ``stats``, ``done``, ``pieces_done``, ``splittable``: the merged statistics of
    everything done, its share of the tree, its pieces; ``answer``, the view's
    (:meth:`dlx.parallel.answers.Answer.to_state`): ``count`` the total; ``best`` the
    best so far (scores as numbers, Fractions as ``{"fraction": [n, d]}``);
    ``solutions`` how many were released and those held back.
``stream``
    (``solutions`` only) the solutions' file as the checkpoint saw it: ``lines``,
    ``bytes`` and the ``sha256`` of those bytes.
``finished``, ``sessions``, ``seconds``, ``saved``
    Whether the search is over; how many runs, and how many seconds, it has taken;
    when this was written (Unix time).

*Solutions* also go to ``PATH.solutions.jsonl``, one solution a line (a JSON list of
option numbers: positions in ``problem.options``), in the order the view yields
them, flushed as they are released; when the run finishes, a last line
``{"end": N, "sha256": D}`` (N solutions, D the digest of the lines before it) ends
it.  A resumed run checks the lines the checkpoint counts on against its record
(their number and digest) before it believes one, checks each solution it reads
back as an exact cover before it yields it, and cuts the file back to that record
(dropping what came after the checkpoint, found again), so the file ends as an
uninterrupted run's: no line twice, none missing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Hashable, Iterable, Iterator
from fractions import Fraction
from typing import IO, Any

from ..errors import ExactCoverError, shown
from ..files import FileError, open_regular, read_regular, seal, unseal, write_atomically
from ..problem import Colored, ExactCover
from .state import StateError, fields, whole

__all__ = ["FORMAT", "VERSION", "CheckpointError", "CheckpointMismatch", "fingerprint",
           "digest", "problem_digest", "solutions_path", "read_solutions", "load", "dump",
           "loads", "Stream"]

FORMAT, VERSION = "dlx-checkpoint", 2

#: How every checkpoint starts.
_HEAD = b'{"format":"' + FORMAT.encode() + b'"'
#: How many bytes of the solutions' stream are read at a time (checking its digest).
_CHUNK = 1 << 20


class CheckpointError(ExactCoverError):
    """A checkpoint that cannot be read or used (the message says why)."""


class CheckpointMismatch(CheckpointError):
    """A checkpoint written for another problem or other options."""


# ----------------------------------------------------------------- the fingerprint


def _canon(x: Any) -> str:
    """``x`` written the same way in every process (not Python's salted ``hash()``, not a
    set's iteration order, never a memory address)."""
    t = type(x)
    if t is str or t is int or t is float or t is bool or x is None:
        return repr(x)
    if isinstance(x, tuple):
        inner = ",".join([_canon(e) for e in x])
        return f"({inner})" if t is tuple else f"{t.__module__}.{t.__qualname__}({inner})"
    if isinstance(x, (frozenset, set)):
        return "{" + ",".join(sorted(_canon(e) for e in x)) + "}"
    if isinstance(x, list):
        return "[" + ",".join([_canon(e) for e in x]) + "]"
    if isinstance(x, Fraction):
        return f"Fraction({x.numerator},{x.denominator})"
    if isinstance(x, (int, float, str, bytes)):
        return f"{t.__qualname__}:{x!r}"
    text = repr(x)
    if " at 0x" in text:
        raise ExactCoverError(f"a checkpoint needs labels and items that read the same in"
                              f" every run; {type(x).__name__} has no such repr: {text}")
    return f"{t.__module__}.{t.__qualname__}:{text}"


def digest(parts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()


def problem_digest(problem: ExactCover) -> str:
    """A digest of everything that shapes the search tree of ``problem``."""
    found = problem._derived.get("checkpoint-digest")
    if found is None:

        def parts() -> Iterator[str]:
            yield "primary" + _canon(problem.primary)
            yield "secondary" + _canon(problem.secondary)
            for label, items in problem.options.items():
                yield _canon(label) + ":" + ",".join(
                    [f"{_canon(e.item)}:{_canon(e.color)}" if isinstance(e, Colored)
                     else _canon(e) for e in items])
            yield "bounds" + _canon([(i, problem.bounds[i]) for i in problem.primary
                                     if i in problem.bounds])
            yield "costs" + _canon([(label, problem.costs[label]) for label in problem.options
                                    if label in problem.costs])
        found = problem._derived["checkpoint-digest"] = digest(parts())
    return str(found)


def _name(f: Any) -> str | None:
    if f is None or isinstance(f, str):
        return f
    return f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', type(f).__name__)}"


def fingerprint(problem: ExactCover, view: str, **keywords: Any) -> dict[str, Any]:
    """The parts of a search's fingerprint: the view, the problem's digest and the
    keywords that change its tree or answer (callables by their qualified names)."""
    parts: dict[str, Any] = {"view": view, "problem": problem_digest(problem)}
    for name, value in sorted(keywords.items()):
        if name == "forced":
            parts[name] = digest([_canon(tuple(value))]) if value else None
        elif name == "weights":
            parts[name] = None if value is None else digest(
                [_canon(label) + "=" + _canon(value[label]) for label in problem.options
                 if label in value])
        elif callable(value):
            parts[name] = _name(value)
        else:
            parts[name] = value
    return parts


# ------------------------------------------------------------------- the file


def loads(payload: bytes, name: str) -> Any:
    """The JSON of a checkpoint's first line, as strict as a run writes it: no NaN or
    Infinity, no number of a thousand digits for a float, no field twice."""

    def constant(text: str) -> Any:
        raise StateError(f"{text} is not a number a run writes")

    def number(text: str) -> float:
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise StateError(f"{text[:20]} is too large a number")
        return value

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise StateError(f"the field {k!r} is there twice")
            out[k] = v
        return out

    try:
        return json.loads(payload, parse_constant=constant, parse_float=number,
                          object_pairs_hook=pairs)
    except StateError as e:
        raise CheckpointError(f"checkpoint {name} is damaged: {e}") from None
    except (ValueError, RecursionError) as e:
        raise CheckpointError(f"{name} is not a dlx checkpoint ({e})") from None


def load(path: str) -> dict[str, Any] | None:
    """The state in the checkpoint ``path`` (None when there is none), its digest, format
    and version checked: :class:`CheckpointError` otherwise, naming the file."""
    try:
        data = read_regular(path, "checkpoint")
    except FileError as e:
        raise CheckpointError(str(e)) from None
    if data is None:
        return None
    try:
        payload = unseal(data, f"checkpoint {path}")
    except FileError as e:
        old = _old_version(data)
        if old is not None:
            raise CheckpointError(
                f"checkpoint {path} has version {shown(old)}, written by an earlier dlx; this"
                f" dlx reads version {VERSION}: remove it (and its .solutions.jsonl) to start"
                " again") from None
        if not data.startswith(_HEAD):
            why = str(e).partition(": ")[2]
            raise CheckpointError(f"{path} is not a dlx checkpoint, or it was changed or"
                                  f" damaged: {why}") from None
        raise CheckpointError(str(e)) from None
    state = loads(payload, path)
    if type(state) is not dict or state.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not a dlx checkpoint")
    if state.get("version") != VERSION:
        raise CheckpointError(f"checkpoint {path} has version {shown(state.get('version'))};"
                              f" this dlx reads version {VERSION}")
    return state


def _old_version(data: bytes) -> Any:
    """The version of a checkpoint written before checkpoints were sealed (None if it is
    not one)."""
    try:
        state = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if type(state) is dict and state.get("format") == FORMAT and state.get("version") != VERSION:
        return state.get("version")
    return None


def dump(path: str, state: dict[str, Any]) -> None:
    """Write ``state`` to the checkpoint ``path``: sealed, atomically."""
    data = json.dumps(state, separators=(",", ":"), allow_nan=False).encode()
    try:
        write_atomically(path, seal(data + b"\n"), "checkpoint")
    except FileError as e:
        raise CheckpointError(str(e)) from None


# ------------------------------------------------------------------ the solutions


def solutions_path(path: str) -> str:
    """Where a checkpointed :func:`dlx.solutions` writes its solutions."""
    return f"{path}.solutions.jsonl"


def _end(lines: int, hexdigest: str) -> bytes:
    return json.dumps({"end": lines, "sha256": hexdigest}).encode() + b"\n"


class Stream:
    """The solutions' file of a checkpointed :func:`dlx.solutions`: checked against the
    checkpoint's record before a line is believed, read back (each solution checked),
    then written on."""

    def __init__(self, path: str, record: Any, finished: bool, owner: str) -> None:
        """The stream at ``path`` as the checkpoint ``owner``'s ``record`` says it is
        (checked here), or a new one (``record`` None)."""
        self.path, self.owner = path, owner
        self.lines = self.bytes = 0
        self.digest: Any = hashlib.sha256()
        self.file: IO[bytes] | None = None
        if record is None:
            return
        r = fields(record, "the record of the solutions' file", ["lines", "bytes", "sha256"])
        self.lines = whole(r["lines"], "the solutions on file")
        self.bytes = whole(r["bytes"], "the size of the solutions' file")
        if type(r["sha256"]) is not str or len(r["sha256"]) != 64:
            raise StateError(f"the digest of the solutions' file is {shown(r['sha256'])}")
        self._check(r["sha256"], finished)

    def _changed(self, why: str) -> CheckpointError:
        return CheckpointError(f"{self.path} was changed or damaged since checkpoint"
                               f" {self.owner} was written: {why}; remove the checkpoint to"
                               " start again")

    def _check(self, want: str, finished: bool) -> None:
        """The first ``bytes`` bytes hold ``lines`` whole lines of digest ``want``; a
        finished run's file ends with its end line."""
        try:
            fd = open_regular(self.path, "solutions' file")
        except FileError as e:
            raise CheckpointError(str(e)) from None
        if fd is None:
            if self.bytes:
                raise self._changed("it is missing")
            return
        with os.fdopen(fd, "rb") as f:
            left, lines, last = self.bytes, 0, b"\n"
            while left:
                chunk = f.read(min(left, _CHUNK))
                if not chunk:
                    raise self._changed(f"it holds {self.bytes - left:,} bytes, fewer than the"
                                        f" {self.bytes:,} the checkpoint counts on")
                self.digest.update(chunk)
                lines += chunk.count(b"\n")
                left -= len(chunk)
                last = chunk[-1:]
            tail = f.read(len(_end(self.lines, want)) + 1) if finished else b""
        if self.digest.hexdigest() != want or lines != self.lines or last != b"\n":
            raise self._changed("its lines do not match the digest the checkpoint holds")
        if finished and tail != _end(self.lines, want):
            raise self._changed("its end line is missing or wrong")

    def stored(self, solution: Callable[[Any, str], tuple[Hashable, ...]]
               ) -> Iterator[tuple[Hashable, ...]]:
        """The solutions on file that the checkpoint counts on, each an exact cover
        (``solution`` checks it) before it is yielded."""
        if not self.lines:
            return
        again = hashlib.sha256()
        with open(self.path, "rb") as f:
            for _ in range(self.lines):
                line = f.readline(self.bytes + 1)
                again.update(line)
                try:
                    numbers = loads(line, self.path)
                except CheckpointError:
                    raise self._changed("a line is not a solution") from None
                try:
                    yield solution(numbers, "a solution on file")
                except StateError as e:
                    raise self._changed(str(e)) from None
        if again.hexdigest() != self.digest.hexdigest():
            raise self._changed("its lines changed while they were read")

    def open(self) -> None:
        """Cut the file back to the checkpoint's record and write on from there."""
        try:
            fd = open_regular(self.path, "solutions' file", os.O_RDWR | os.O_CREAT)
        except FileError as e:
            raise CheckpointError(str(e)) from None
        assert fd is not None
        self.file = os.fdopen(fd, "r+b")
        self.file.truncate(self.bytes)
        self.file.seek(self.bytes)

    def write(self, lines: Iterable[bytes]) -> None:
        assert self.file is not None
        data = b"".join(lines)
        self.file.write(data)
        self.file.flush()
        self.digest.update(data)
        self.bytes += len(data)
        self.lines += data.count(b"\n")

    def record(self, finished: bool) -> dict[str, Any]:
        """On disk now (flushed, synced); with ``finished``, the end line after it."""
        assert self.file is not None
        self.file.flush()
        done = {"lines": self.lines, "bytes": self.bytes, "sha256": self.digest.hexdigest()}
        if finished and self.file.tell() == self.bytes:
            self.file.write(_end(self.lines, done["sha256"]))
            self.file.flush()
        os.fsync(self.file.fileno())
        return done

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def read_solutions(path: Any, problem: ExactCover) -> Iterator[tuple[Hashable, ...]]:
    """The solutions a checkpointed :func:`dlx.solutions` wrote next to checkpoint
    ``path``, as label tuples: those the checkpoint counts on (all of them once the run
    finished), checked against its record and each an exact cover of ``problem``."""
    from ..verify import why_not

    path = os.fspath(path)
    state = load(path)
    if state is None:
        raise CheckpointError(f"there is no checkpoint {path}")
    parts = state.get("parts")
    if type(parts) is not dict or parts.get("view") != "solutions" or \
            parts.get("problem") != problem_digest(problem):
        raise CheckpointMismatch(f"checkpoint {path} is not a listing of this problem's"
                                 " solutions")
    try:
        stream = Stream(solutions_path(path), state.get("stream"), state.get("finished") is True,
                        path)
    except StateError as e:
        raise CheckpointError(f"checkpoint {path} is damaged: {e}") from None
    labels = list(problem.options)

    def solution(x: Any, what: str) -> tuple[Hashable, ...]:
        from .state import numbers

        sol = tuple([labels[o] for o in numbers(x, len(labels), what)])
        why = why_not(problem, sol)
        if why is not None:
            raise StateError(f"{what} is not an exact cover: {why}")
        return sol

    yield from stream.stored(solution)
