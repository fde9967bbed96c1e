"""The checkpoint's file: what is in it, the fingerprint, and how it is written.

:mod:`.checkpoint` runs a search with a checkpoint; this module holds what it puts on
disk and reads back: the format (below), the fingerprint of a search (the same in
every process: not Python's salted ``hash()``, never a memory address), the encoding
of scores and option numbers, atomic writes, and the solutions' stream.

*What is saved* (JSON, written to a temporary file in the same folder, flushed and
``fsync``-ed, then renamed over the old one: a reader sees the old checkpoint or the
new one, never a mix):

``format``, ``version``
    ``"dlx-checkpoint"``, 1.
``fingerprint``, ``parts``
    A SHA-256 of ``parts``: the view, a digest of the problem (its items, its options
    in order with their labels and items, bounds and costs, written canonically), and
    what changes the tree or the answer: ``heuristic``, ``forced``, ``seed``,
    ``limit``, ``ordered``, and for ``best`` the weights, ``k``, ``maximize``, ``bound``.
    A checkpoint whose fingerprint differs is refused
    (:class:`~.checkpoint.CheckpointMismatch`, naming the parts that differ); budgets
    (``max_nodes``, ``timeout``), the engine and the executor may change from one
    session to the next.
``frontier``
    The pieces not done, in search order, in *batches*: runs of pieces with nothing
    done between them (a task takes pieces from one batch, so that the solutions it
    finds are in order; between two batches, pieces done may hold solutions back).
    A piece is ``[key, piece, share]``: its place in search order, the piece as
    option numbers (positions in the problem's options, those with a primary item),
    and its share of the tree (Knuth's estimate).  The pieces that were running
    count as not done.
``stats``, ``done``, ``pieces_done``
    The merged statistics of everything done, its share of the tree, its pieces.
``answer``
    ``count``: the total; ``best``: the best so far (scores as numbers, Fractions as
    ``{"fraction": [n, d]}``); ``solutions``: how many were written to the stream
    and its size then, and the solutions found but held back (a later piece's, while
    an earlier one runs).
``finished``, ``sessions``, ``seconds``, ``saved``
    Whether the search is over; how many runs, and how many seconds, it has taken;
    when this was written (Unix time).

*Solutions* also go to ``PATH.solutions.jsonl``, one solution a line (a JSON list of
option numbers: positions in ``problem.options``), in the order the view yields
them, flushed as they are released.  The checkpoint records its size: a resumed run
cuts it back to that size (dropping what came after the checkpoint, found again) and
goes on, so the file ends as an uninterrupted run's, no line twice, none missing.  A
resumed :func:`dlx.solutions` yields the solutions of the file first, then the rest:
the whole answer again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Hashable, Iterable, Iterator
from fractions import Fraction
from typing import Any

from ..errors import ExactCoverError
from ..problem import Colored, ExactCover

__all__ = ["FORMAT", "VERSION", "fingerprint", "digest", "problem_digest", "solutions_path",
           "read_solutions", "write_atomically", "score", "unscore", "numbers", "key"]

FORMAT, VERSION = "dlx-checkpoint", 1


def solutions_path(path: str) -> str:
    """Where a checkpointed :func:`dlx.solutions` writes its solutions."""
    return f"{path}.solutions.jsonl"


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


# --------------------------------------------------------------------- numbers


def score(x: Any) -> Any:
    return {"fraction": [x.numerator, x.denominator]} if isinstance(x, Fraction) else x


def unscore(x: Any) -> Any:
    if isinstance(x, dict):
        n, d = x["fraction"]
        return Fraction(n, d)
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return x
    raise ValueError(f"not a score: {x!r}")


def numbers(x: Any, top: int) -> tuple[int, ...]:
    out = tuple(x)
    if not all(type(v) is int and 0 <= v < top for v in out):
        raise ValueError("option numbers out of range")
    return out


def key(x: Any) -> tuple[int, ...]:
    out = tuple(x)
    if not all(type(v) is int for v in out):
        raise ValueError("a key holds whole numbers")
    return out



def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one whole:
    a temporary file in the same folder, flushed and fsync-ed, renamed over it."""
    import tempfile

    folder, name = os.path.split(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        d = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(d)                     # the rename itself, on disk
    except OSError:
        pass
    finally:
        os.close(d)


def read_solutions(path: Any, problem: ExactCover) -> Iterator[tuple[Hashable, ...]]:
    """The solutions a checkpointed :func:`dlx.solutions` wrote next to checkpoint
    ``path``, as label tuples (the whole lines only: after a kill, a line may be cut)."""
    labels = list(problem.options)
    with open(solutions_path(os.fspath(path)), "rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                return
            yield tuple([labels[o] for o in numbers(json.loads(line), len(labels))])

