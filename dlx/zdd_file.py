"""The text file of a ZDD: what :meth:`dlx.ZDD.write` writes and :meth:`dlx.ZDD.read` reads.

The text format of :meth:`ZDD.write` and :meth:`ZDD.read` (version 2) has one
record a line, each ending with a line feed (a carriage return before it is
accepted when reading), and nothing else (no blank lines, no comments):

- ``dlx-zdd 2``: the format and its version;
- ``labels N``, then N lines: the option labels, index 0 first, each written with
  ``ascii()`` (``repr()``, escaped to ASCII) and read back by ``ast.literal_eval``;
- ``branches M``, then M lines ``id var lo hi``, one per branch node, children
  first: ids are 2, 3, ..., M + 1 in turn, ``0 <= var < N``, ``0 <= lo < id``,
  ``1 <= hi < id`` (the sinks 0 and 1 have no line);
- ``root R``: the root, 0 (no solution), 1 (the empty solution) or a node id;
- ``end sha256 D``: the end marker, D the SHA-256 of the lines before it (each with
  a line feed), as :mod:`dlx.files` seals every file written for later.

:meth:`ZDD.read` checks the end line and the digest before it believes a line: a
file changed anywhere, or cut short, is refused (``changed or damaged``); then
each line, naming the one at fault, and that no path names an option twice.
:meth:`ZDD.write` to a path writes a temporary file in the same folder and renames
it over the old one, so a reader never meets half a file.

>>> import dlx, io
>>> small, out = dlx.ZDD.from_solutions(["x", ("y", 2), 3], [["x", ("y", 2)], [3]]), io.StringIO()
>>> small.write(out)
>>> print(out.getvalue(), end="")  # doctest: +ELLIPSIS
dlx-zdd 2
labels 3
'x'
('y', 2)
3
branches 3
2 1 0 1
3 0 0 2
4 2 3 1
root 4
end sha256 ...
>>> dlx.ZDD.read(io.StringIO(out.getvalue())) == small
True
"""

from __future__ import annotations

import ast
import hashlib
import re
from array import array
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import IO

from .errors import ExactCoverError, FormatError, shown
from .files import END, end_line
from .lines import MAX_LINE_LENGTH, read_lines

__all__ = ["FORMAT", "VERSION", "MAX_LINE_LENGTH", "label_texts", "write", "read", "text"]

#: The first word of the file format's header line, and the version written.
FORMAT = "dlx-zdd"
VERSION = 2

_COUNT = re.compile(r"(0|[1-9][0-9]{0,17})")
_NODE = re.compile(r"([0-9]{1,10}) ([0-9]{1,10}) ([0-9]{1,10}) ([0-9]{1,10})")
# Labels that need no ast.literal_eval: small ints, and strs of printable ASCII without
# quotes or backslashes (in the form ascii() writes them).
_BIG = 10**999
_INT = re.compile(r"-?(0|[1-9][0-9]{0,998})")
_PLAIN = re.compile(r"'[ -&(-\[\]-~]*'")


def label_texts(labels: Iterable[Hashable]) -> list[str]:
    """Each label as the file writes it; ExactCoverError for one that does not read
    back (before anything is written)."""
    return [_label_text(label) for label in labels]


def text(texts: Sequence[str], var: Sequence[int], lo: Sequence[int], hi: Sequence[int],
         root: int) -> Iterator[str]:
    """The lines of a diagram's file, each with its line feed: its labels as
    :func:`label_texts` gave them, its nodes (the two sinks first), its root, and the
    end line with the digest of the lines before it."""
    digest = hashlib.sha256()
    chunk: list[str] = [f"{FORMAT} {VERSION}\n", f"labels {len(texts)}\n"]
    chunk.extend([t + "\n" for t in texts])
    chunk.append(f"branches {len(var) - 2}\n")
    for k in range(2, len(var)):
        chunk.append(f"{k} {var[k]} {lo[k]} {hi[k]}\n")
        if len(chunk) >= 4096:
            part = "".join(chunk)
            digest.update(part.encode("ascii"))
            yield part
            chunk = []
    chunk.append(f"root {root}\n")
    part = "".join(chunk)
    digest.update(part.encode("ascii"))
    yield part
    yield end_line(digest.hexdigest()).decode("ascii")


def write(stream: IO[str], texts: Sequence[str], var: Sequence[int], lo: Sequence[int],
          hi: Sequence[int], root: int) -> None:
    """Write a diagram to a text stream (:func:`text`)."""
    for part in text(texts, var, lo, hi, root):
        stream.write(part)


def _bad_node(var: int, lo: int, hi: int, next_id: int, n_labels: int) -> str:
    if not 0 <= var < n_labels:
        return f"option index {shown(var)} out of range (0 to {n_labels - 1})"
    if not 0 <= lo < next_id:
        return f"lo {shown(lo)} is not a node made before (0 to {next_id - 1})"
    if hi == 0:
        return "hi is 0: such a node is not zero-suppressed"
    return f"hi {shown(hi)} is not a node made before (1 to {next_id - 1})"


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _label_text(label: Hashable) -> str:
    """``ascii(label)``, if ``ast.literal_eval`` reads it back as the same value."""
    if type(label) is str or type(label) is int and -_BIG < label < _BIG:
        return ascii(label)
    try:
        text = ascii(label)
        back = ast.literal_eval(text)
        same = type(back) is type(label) and back == label and ascii(back) == text
    except Exception:  # noqa: BLE001 - any failure means: does not round-trip
        same = False
    if not same:
        raise ExactCoverError(
            f"option label {shown(label)} cannot be written: its repr does not read back"
            " (ast.literal_eval); relabel with str, int, float, tuple, None or bool values")
    return text


def _sealed(stream: IO[str] | str, name: str) -> list[tuple[int, str]]:
    """The lines of a ZDD file (``stream``, or its text) before its end line, once the end
    line and the digest are checked: FormatError naming the line otherwise."""
    lines = list(read_lines(stream, reader="ZDD.read"))
    last = lines[-1][1] if lines else ""
    if not last.startswith(END.decode("ascii")):
        first = lines[0][1].removeprefix("\ufeff") if lines else ""
        if first == f"{FORMAT} 1":
            raise FormatError(f"{name} is a ZDD file of version 1, written without a digest;"
                              f" this dlx reads version {VERSION} (write the diagram again)", 1)
        raise FormatError(f"{name} was changed or damaged: it does not end with its digest"
                          " line (it was cut short, or not written whole)", max(len(lines), 1))
    digest = hashlib.sha256()
    for _, line in lines[:-1]:
        digest.update(line.encode("utf-8", "surrogatepass") + b"\n")
    if last.encode("ascii", "replace") + b"\n" != end_line(digest.hexdigest()):
        raise FormatError(f"{name} was changed or damaged: its contents do not match the"
                          " digest on its last line", len(lines))
    return lines[:-1]


class _Reader:
    """The lines of a ZDD file, one expected record at a time."""

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.lines, self.number = iter(lines), 0

    def next(self, what: str) -> str:
        line = next(self.lines, None)
        if line is None:
            raise FormatError(f"the file ends where {what} was expected", self.number + 1)
        self.number, text = line
        return text

    def fail(self, message: str) -> FormatError:
        return FormatError(message, self.number)

    def counted(self, word: str) -> int:
        text = self.next(f"'{word} <count>'")
        head, _, tail = text.partition(" ")
        found = _COUNT.fullmatch(tail)
        if head != word or not found:
            raise self.fail(f"expected '{word} <count>', found {shown(text)}")
        return int(found.group())


def read(stream: IO[str] | str, name: str = "the ZDD file"
         ) -> tuple[list[Hashable], array[int], array[int], array[int], int]:
    """The labels, the nodes (var, lo, hi: the two sinks first) and the root of the
    diagram in ``stream`` (or its text), named ``name`` in messages; FormatError naming
    the line at fault."""
    r = _Reader(_sealed(stream, name))
    header = r.next("the header").removeprefix("\ufeff").split(" ")
    if header[0] != FORMAT or len(header) != 2 or not _COUNT.fullmatch(header[1]):
        raise r.fail(f"not a ZDD file: the first line must be '{FORMAT} {VERSION}'")
    if int(header[1]) != VERSION:
        raise r.fail(f"unsupported version {header[1]} (this reads version {VERSION})")
    labels: list[Hashable] = []
    seen: dict[Hashable, int] = {}
    for _ in range(r.counted("labels")):
        text = r.next("a label")
        try:
            label = int(text) if _INT.fullmatch(text) else text[1:-1] \
                if _PLAIN.fullmatch(text) else ast.literal_eval(text)
        except Exception as e:  # noqa: BLE001 - SyntaxError, ValueError, MemoryError...
            raise r.fail(f"the label does not read ({type(e).__name__}): {shown(text)}") \
                from None
        if not _hashable(label):
            raise r.fail(f"the label {shown(text)} is not hashable")
        if seen.setdefault(label, r.number) != r.number:
            raise r.fail(f"the label {shown(text)} repeats line {seen[label]}")
        labels.append(label)
    var, lo, hi = array("i", (-1, -1)), array("i", (0, 1)), array("i", (0, 1))
    where = [0, 0]                                  # the line of each node
    for k in range(2, r.counted("branches") + 2):
        text = r.next(f"node {k}")
        found = _NODE.fullmatch(text)
        if not found:
            raise r.fail(f"expected a node 'id var lo hi', found {shown(text)}")
        z, v, low, high = map(int, found.groups())
        if z != k:
            raise r.fail(f"expected node {k} (nodes are numbered 2, 3, ... in turn),"
                         f" found {z}")
        if not (v < len(labels) and low < k and 0 < high < k):
            raise r.fail(f"node {k}: " + _bad_node(v, low, high, k, len(labels)))
        var.append(v)
        lo.append(low)
        hi.append(high)
        where.append(r.number)
    text = r.next("'root <id>'")
    found = _COUNT.fullmatch(text[5:]) if text.startswith("root ") else None
    if not found or int(found.group()) >= len(var):
        raise r.fail(f"expected 'root <id>' with an id from 0 to {len(var) - 1},"
                     f" found {shown(text)}")
    extra = next(r.lines, None)
    if extra is not None:
        raise FormatError(f"unexpected line after the root: {shown(extra[1])}", extra[0])
    _no_repeats(labels, var, lo, hi, where)
    return labels, var, lo, hi, int(found.group())


def _no_repeats(labels: Sequence[Hashable], var: Sequence[int], lo: Sequence[int],
                hi: Sequence[int], lines: Sequence[int]) -> None:
    """No path names an option twice: the option of a node is none of those below its
    ``hi`` child (every node below is on some path: a branch node's family is never
    empty).  The options below each node are a bitset, kept until its last parent is
    made (children come first)."""
    last = list(range(len(var)))           # the last parent of each node
    for k in range(2, len(var)):
        last[lo[k]] = last[hi[k]] = k
    below: dict[int, int] = {0: 0, 1: 0}
    for k in range(2, len(var)):
        v, high = var[k], below[hi[k]]
        if high >> v & 1:
            raise FormatError(f"node {k} names option {v} ({shown(labels[v])}), and so does a"
                              f" node below its hi child {hi[k]}: a path would name it twice",
                              lines[k])
        below[k] = below[lo[k]] | high | 1 << v
        for child in (lo[k], hi[k]):
            if child > 1 and last[child] == k:
                below.pop(child, None)
