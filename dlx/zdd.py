"""The zero-suppressed decision diagram (ZDD) of all solutions, as Knuth's DLX6 builds it.

A ZDD is a directed acyclic graph with two *sinks*, node 0 (⊥, the empty family)
and node 1 (⊤, the family holding only the empty solution), and *branch nodes*
``(var, lo, hi)``: the family of a branch node is the family of ``lo`` together
with ``{var} ∪ S`` for every S in the family of ``hi``.  ``var`` is an option,
given by its index in :attr:`ZDD.labels`.  A path from the root to ⊤ is a
solution: the options of the nodes whose ``hi`` edge it takes.

Counting by caching (Knuth's DLX6, after Nishino, Yasuda, Minato and Nagata's
"Dancing with decision diagrams") builds the diagram as it searches: at a search
node that chooses item i, whose options are x1..xk, the solutions are those of
x1 and of the partial solution below it, or of x2 and below, and so on.  That is
a chain of branch nodes, one per option that leads to a solution, each node's
``lo`` the chain of the options tried before it and its ``hi`` the diagram below
its option.  States that leave the same to solve share one diagram (the cache).
The diagram is not ordered (an option need not come before another on every
path), but every path names options with disjoint items, so each solution is one
path: counting, listing and sampling work on it as on any ZDD.

Four pairs of points, covered by pairs (three solutions):

>>> import dlx, io
>>> labels = ["ab", "cd", "ac", "bd", "ad", "bc"]
>>> z = dlx.ZDD.from_solutions(labels, [("ab", "cd"), ("bd", "ac"), ("ad", "bc")])
>>> z
<dlx.ZDD: 3 solutions, 8 nodes over 6 options>
>>> z.count(), z.nodes
(3, 8)
>>> list(z)
[('ab', 'cd'), ('ac', 'bd'), ('ad', 'bc')]
>>> z.sample(4, seed=2024)
[('ac', 'bd'), ('ab', 'cd'), ('ad', 'bc'), ('ad', 'bc')]

The same family as DLX6 builds it, choosing item a (options ab, ac, ad), then
the one option left of the other items; :meth:`ZDD.builder` hash-conses the nodes:

>>> b = dlx.ZDD.builder(labels)
>>> chain = 0                                       # no option of a tried yet
>>> for x, y in ((0, 1), (2, 3), (4, 5)):           # (ab, cd), (ac, bd), (ad, bc)
...     below = b.make(y, 0, 1)                     # the chain of the last item: y alone
...     chain = b.make(x, chain, below)
>>> d = b.finish(chain)
>>> d == z, list(d) == list(z)
(True, True)

The text format of :meth:`ZDD.write` and :meth:`ZDD.read` is :mod:`dlx.zdd_file`'s.
"""

from __future__ import annotations

import os
import random
from array import array
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import IO, Any

from . import zdd_file
from .errors import ExactCoverError, FormatError, shown
from .zdd_file import FORMAT, MAX_LINE_LENGTH, VERSION, _bad_node, _hashable

__all__ = ["ZDD", "ZDDBuilder", "FORMAT", "VERSION", "MAX_LINE_LENGTH"]

_Solution = tuple[Hashable, ...]


def _checked_labels(labels: Iterable[Hashable]) -> tuple[Hashable, ...]:
    out = tuple(labels)
    seen: dict[Hashable, int] = {}
    for k, label in enumerate(out):
        try:
            first = seen.setdefault(label, k)
        except TypeError:
            raise ExactCoverError(f"option label {shown(label)} is not hashable") from None
        if first != k:
            raise ExactCoverError(f"option label {shown(label)} appears twice"
                                  f" (at {first} and {k})")
    return out


class ZDDBuilder:
    """Makes the nodes of a ZDD one by one, children first; :meth:`finish` gives the ZDD.

    Node ids are ints: 0 and 1 are the sinks, every :meth:`make` returns 0, 1 or
    the id of a branch node made before (ids grow from 2), so children always have
    smaller ids than their parents and the diagram can have no cycle.
    """

    __slots__ = ("labels", "_var", "_lo", "_hi", "_unique")

    def __init__(self, labels: Iterable[Hashable]) -> None:
        self.labels = _checked_labels(labels)
        self._var = array("i", (-1, -1))
        self._lo = array("i", (0, 1))
        self._hi = array("i", (0, 1))
        self._unique: dict[tuple[int, int, int], int] = {}

    def make(self, var: int, lo: int, hi: int) -> int:
        """The node of the family ``lo`` ∪ {{var} ∪ S : S in ``hi``}: ``lo`` itself
        when ``hi`` is 0 (the zero-suppression rule), the node made before for the
        same ``(var, lo, hi)`` (hash-consing), else a new node.

        ``var`` is an option's index in ``labels``; ``lo`` and ``hi`` are ids that
        :meth:`make` returned, or the sinks 0 and 1.
        """
        if hi == 0:
            return lo
        key = (var, lo, hi)
        z = self._unique.get(key)
        if z is None:
            z = len(self._var)
            if not (0 <= var < len(self.labels) and 0 <= lo < z and 0 < hi < z):
                raise ExactCoverError(_bad_node(var, lo, hi, z, len(self.labels)))
            self._var.append(var)
            self._lo.append(lo)
            self._hi.append(hi)
            self._unique[key] = z
        return z

    @property
    def made(self) -> int:
        """How many branch nodes were made so far (ids 2 to ``made + 1``)."""
        return len(self._var) - 2

    def finish(self, root: int) -> ZDD:
        """The diagram of the node ``root``: only the nodes it reaches are kept (renumbered
        in the order they were made).  The builder may go on making nodes."""
        if isinstance(root, bool) or not isinstance(root, int) or not 0 <= root < len(self._var):
            raise ExactCoverError(f"the root must be a node id (0 to {len(self._var) - 1}),"
                                  f" not {shown(root)}")
        return _finished(self.labels, self._var, self._lo, self._hi, root)


def _finished(labels: tuple[Hashable, ...], var: array[int], lo: array[int], hi: array[int],
              root: int) -> ZDD:
    """The ZDD of ``root`` in arrays made the builder's way (shared nodes, children
    first, sinks at 0 and 1): the nodes it reaches, renumbered in order (no copy when
    it reaches all)."""
    keep = _reachable(lo, hi, root)
    if all(keep[2:]):
        return ZDD._new(labels, var[:], lo[:], hi[:], root)
    new = [0, 1] + [0] * (len(var) - 2)
    v2, l2, h2 = array("i", (-1, -1)), array("i", (0, 1)), array("i", (0, 1))
    for k in range(2, len(var)):
        if keep[k]:
            new[k] = len(v2)
            v2.append(var[k])
            l2.append(new[lo[k]])
            h2.append(new[hi[k]])
    return ZDD._new(labels, v2, l2, h2, new[root])


def from_core(labels: tuple[Hashable, ...], var: bytes, lo: bytes, hi: bytes, root: int,
              forced: Iterable[int] = ()) -> ZDD:
    """The ZDD the core built (its arrays as bytes of int32, made the builder's way),
    with the forced options wrapped around its root, first first."""
    arrays = []
    for data in (var, lo, hi):
        a = array("i")
        a.frombytes(data)
        arrays.append(a)
    b = ZDDBuilder(labels)
    b._var, b._lo, b._hi = arrays
    b._unique = {(v, lo_, hi_): k for k, (v, lo_, hi_) in
                 enumerate(zip(*arrays, strict=True)) if k >= 2} if forced else {}
    for f in reversed(list(forced)):
        root = b.make(f, 0, root)
    return b.finish(root)


def _reachable(lo: Sequence[int], hi: Sequence[int], root: int) -> bytearray:
    """Which nodes ``root`` reaches (children have smaller ids: one backward pass)."""
    keep = bytearray(len(lo))
    keep[root] = 1
    for k in range(len(lo) - 1, 1, -1):
        if keep[k]:
            keep[lo[k]] = keep[hi[k]] = 1
    return keep


class ZDD:
    """The zero-suppressed decision diagram of a family of solutions.

    Built by :meth:`builder` (as the search does), :meth:`from_solutions`, :meth:`read`,
    or from arrays (``ZDD(labels, var, lo, hi, root)``, checked).  Immutable.

    Parameters
    ----------
    labels : Sequence[Hashable]
        The option labels, distinct; a node's ``var`` is an index into them.
    var, lo, hi : Sequence[int]
        Node k (k >= 2) is ``(var[k], lo[k], hi[k])``, with ``0 <= lo[k] < k`` and
        ``1 <= hi[k] < k``; entries 0 and 1 (the sinks) are not read.
    root : int
        The node of the whole family.

    Notes
    -----
    The nodes are hash-consed and those ``root`` does not reach dropped, so the ids
    may change.  Iterating gives every solution once, as a tuple of labels in path
    order; there is no ``len()``, since :meth:`count` may exceed ``sys.maxsize``.

    Attributes
    ----------
    labels : tuple
        The option labels.
    root : int
        The root's id: 0 (no solution), 1 (only the empty solution) or a branch node.
    nodes : int
        The number of nodes, sinks included: the branch nodes, plus ⊤ and ⊥ where the
        root reaches them.  This is how DLX6 counts its "ZDD nodes" (it starts at 2
        for the sinks, and reports 1 when there is no branch node), so with the same
        choices the two agree, or this is fewer (hash-consing shares equal nodes).
    branch_nodes : int
        The number of branch nodes, with ids 2 to ``branch_nodes + 1``.
    """

    __slots__ = ("labels", "root", "nodes", "_var", "_lo", "_hi", "_counts")

    labels: tuple[Hashable, ...]
    root: int
    nodes: int

    def __init__(self, labels: Iterable[Hashable], var: Sequence[int], lo: Sequence[int],
                 hi: Sequence[int], root: int) -> None:
        b = ZDDBuilder(labels)
        n, m = len(var), len(b.labels)
        if len(lo) != n or len(hi) != n or n < 2:
            raise ExactCoverError("var, lo and hi must have the same length, at least 2"
                                  " (entries 0 and 1 stand for the sinks)")
        for k in range(2, n):
            v, low, high = var[k], lo[k], hi[k]
            if not (0 <= v < m and 0 <= low < k and 0 < high < k):
                raise ExactCoverError(f"node {k}: " + _bad_node(v, low, high, k, m))
        if isinstance(root, bool) or not isinstance(root, int) or not 0 <= root < n:
            raise ExactCoverError(f"the root must be a node id (0 to {n - 1}), not {shown(root)}")
        z = _shared(b, var, lo, hi, root)
        self._set(z.labels, z._var, z._lo, z._hi, z.root)

    @classmethod
    def _new(cls, labels: tuple[Hashable, ...], var: array[int], lo: array[int],
             hi: array[int], root: int) -> ZDD:
        """A ZDD of checked, hash-consed arrays that ``root`` reaches (no copy)."""
        z = cls.__new__(cls)
        z._set(labels, var, lo, hi, root)
        return z

    def _set(self, labels: tuple[Hashable, ...], var: array[int], lo: array[int],
             hi: array[int], root: int) -> None:
        self.labels, self._var, self._lo, self._hi, self.root = labels, var, lo, hi, root
        self._counts: list[int] | None = None
        # the branch nodes, ⊤ and ⊥ if a lo edge goes there; or one sink
        self.nodes = len(var) - 1 + (0 in lo[2:]) if root > 1 else 1

    @staticmethod
    def builder(labels: Iterable[Hashable]) -> ZDDBuilder:
        """A :class:`ZDDBuilder` over these option labels: ``make(var, lo, hi)`` nodes,
        children first, then ``finish(root)``."""
        return ZDDBuilder(labels)

    @classmethod
    def from_solutions(cls, labels: Iterable[Hashable],
                       solutions: Iterable[Iterable[Hashable]]) -> ZDD:
        """The diagram of a family of solutions, each a collection of distinct labels.

        Order within a solution does not matter, nor do repeated solutions.  The
        diagram has DLX6's shape, branching each time on which option comes first (in
        the order of ``labels``): a chain over the possible first options, each node's
        ``lo`` the options before it.  So one family makes one diagram, node for node,
        which lists the solutions in the order of their sorted option indices.

        >>> z = ZDD.from_solutions("abc", ["ab", "c", "ba"])
        >>> z.count(), list(z)
        (2, [('a', 'b'), ('c',)])
        """
        b = ZDDBuilder(labels)
        index = {label: k for k, label in enumerate(b.labels)}
        rows: set[tuple[int, ...]] = set()
        for number, solution in enumerate(solutions):
            row: list[int] = []
            for label in solution:
                k = index.get(label) if _hashable(label) else None
                if k is None:
                    raise ExactCoverError(f"solution {number} names {shown(label)},"
                                          " which is not a label")
                row.append(k)
            row.sort()
            if any(row[j] == row[j + 1] for j in range(len(row) - 1)):
                raise ExactCoverError(f"solution {number} names an option twice")
            rows.add(tuple(row))
        return b.finish(_ordered(b, sorted(rows)))

    # --- what a ZDD tells -------------------------------------------------------------

    @property
    def branch_nodes(self) -> int:
        return len(self._var) - 2

    def node(self, k: int) -> tuple[int, int, int]:
        """Branch node k as ``(var, lo, hi)``: an option index and two node ids."""
        if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k < len(self._var):
            raise ExactCoverError(f"no branch node {shown(k)} (they are 2 to"
                                  f" {len(self._var) - 1})")
        return self._var[k], self._lo[k], self._hi[k]

    def _all_counts(self) -> list[int]:
        """The number of solutions below every node (children first, no recursion)."""
        if self._counts is None:
            lo, hi = self._lo, self._hi
            counts = [0, 1]
            for k in range(2, len(lo)):
                counts.append(counts[lo[k]] + counts[hi[k]])
            self._counts = counts
        return self._counts

    def count(self) -> int:
        """The number of solutions (paths from the root to ⊤), exact.

        >>> ZDD.from_solutions([], [()]).count(), ZDD.from_solutions("a", []).count()
        (1, 0)
        """
        return self._all_counts()[self.root]

    def __iter__(self) -> Iterator[_Solution]:
        """Every solution once, lazily: depth first, a node's ``lo`` before its ``hi``.

        On a diagram built as DLX6 builds it (each chain's ``lo`` the options tried
        before), that is the order in which the search finds them; on one made by
        :meth:`from_solutions`, the order of their sorted option indices."""
        labels, var, lo, hi = self.labels, self._var, self._lo, self._hi
        stack = [(self.root, 0)] if self.root else []      # (node, depth); -node: its hi
        path: list[int] = []
        while stack:
            z, depth = stack.pop()
            del path[depth:]
            if z < 0:                   # take the hi edge of node -z
                path.append(var[-z])
                depth += 1
                z = hi[-z]
            while z > 1:                # down the lo edges, leaving each hi for later
                stack.append((-z, depth))
                z = lo[z]
            if z == 1:
                yield tuple(labels[v] for v in path)

    def solution(self, index: int) -> _Solution:
        """Solution number ``index`` (from 0) in the order of iteration.

        >>> z = ZDD.from_solutions("abcd", ["ab", "cd", "ac", "d"])
        >>> [z.solution(k) for k in range(z.count())] == list(z)
        True
        """
        counts = self._all_counts()
        if isinstance(index, bool) or not isinstance(index, int) or \
                not 0 <= index < counts[self.root]:
            raise ExactCoverError(f"no solution number {shown(index)}: there are"
                                  f" {counts[self.root]}")
        var, lo, hi = self._var, self._lo, self._hi
        z, path = self.root, []
        while z > 1:
            before = counts[lo[z]]
            if index < before:
                z = lo[z]
            else:
                index -= before
                path.append(self.labels[var[z]])
                z = hi[z]
        return tuple(path)

    def sample(self, n: int, seed: int | None = None) -> list[_Solution]:
        """``n`` solutions drawn uniformly at random, independently (with replacement).

        Each draw is a whole number below :meth:`count` (exact: ``randrange`` on ints,
        however big), and the solution of that number.  The same ``seed`` gives the
        same draws.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ExactCoverError(f"n must be a whole number >= 0, not {shown(n)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ExactCoverError(f"seed must be a whole number or None, not {shown(seed)}")
        total = self.count()
        if n and not total:
            raise ExactCoverError("the diagram has no solution to sample")
        rng = random.Random(seed)
        return [self.solution(rng.randrange(total)) for _ in range(n)]

    # --- pictures and files ----------------------------------------------------------

    def to_dot(self) -> str:
        """The diagram in Graphviz's DOT language: ``lo`` edges dashed, ``hi`` edges
        solid, the sinks as boxes, branch nodes labelled with their option's repr.

        >>> print(ZDD.from_solutions(['say "hi"'], [['say "hi"']]).to_dot())
        digraph ZDD {
          node [shape=circle];
          1 [shape=box, label="⊤"];
          2 [label="'say \\"hi\\"'"];
          2 -> 0 [style=dashed];
          2 -> 1;
          0 [shape=box, label="⊥"];
        }
        """
        var, lo, hi = self._var, self._lo, self._hi
        out = ["digraph ZDD {", "  node [shape=circle];"]
        if self.root:
            out.append('  1 [shape=box, label="⊤"];')
        for k in range(2, len(var)):
            text = shown(self.labels[var[k]])
            text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
            out.append(f'  {k} [label="{text}"];')
            out.append(f"  {k} -> {lo[k]} [style=dashed];")
            out.append(f"  {k} -> {hi[k]};")
        if self.root == 0 or 0 in lo[2:]:
            out.append('  0 [shape=box, label="⊥"];')
        out.append("}")
        return "\n".join(out)

    def write(self, file: str | os.PathLike[str] | IO[str]) -> None:
        """Write the diagram in the text format of :mod:`dlx.zdd_file` to a path or a text
        stream: its lines, then an end line with their digest (SHA-256).  To a path, the
        file is written whole or not at all (a temporary file in the same folder,
        flushed, synced and renamed over the old one).

        Raises
        ------
        ExactCoverError
            A label whose ``ascii()`` does not read back equal by ``ast.literal_eval``
            (such as a NamedTuple or a frozenset; ``relabel`` to plain tuples first).
            Nothing is written then.
        dlx.files.FileError
            The path is not a regular file (a directory, a FIFO, a device), or its
            folder does not exist: before anything is written.
        """
        texts = zdd_file.label_texts(self.labels)
        parts = (texts, self._var, self._lo, self._hi, self.root)
        if isinstance(file, (str, os.PathLike)):
            from .files import write_atomically

            def out(f: IO[bytes]) -> None:
                for part in zdd_file.text(*parts):
                    f.write(part.encode("ascii"))

            write_atomically(os.fspath(file), out, "ZDD file")
        else:
            zdd_file.write(file, *parts)

    @classmethod
    def read(cls, file: str | os.PathLike[str] | IO[str]) -> ZDD:
        """A diagram written by :meth:`write`, from a path or a text stream.

        The end line and its digest are checked before any other line is believed;
        then each line.  Its nodes are hash-consed and those the root does not reach
        dropped, as by the constructor (a file :meth:`write` wrote reads back equal).
        Only a regular file is read (a FIFO or a device is refused at once).

        Raises
        ------
        FormatError
            Naming the line at fault: a file changed or damaged since it was written
            (its digest differs, or its end line is missing: cut short), a file of
            version 1 (without a digest), a bad header, a label that does not read or
            is not hashable or repeats, a node out of order or naming a node not yet
            defined, an option named twice on a path, a line longer than the cap.
        dlx.files.FileError
            The path is not a regular file, or its folder does not exist.
        FileNotFoundError
            There is no such file.
        """
        if isinstance(file, (str, os.PathLike)):
            from .files import read_regular

            path = os.fspath(file)
            data = read_regular(path, "ZDD file")
            if data is None:
                raise FileNotFoundError(2, "No such file or directory", path)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as e:
                line = data.count(b"\n", 0, e.start) + 1
                raise FormatError(f"{path} is not valid utf-8 text ({e.reason}) at or after"
                                  " this line", line) from None
            labels, var, lo, hi, root = zdd_file.read(text, f"ZDD file {path}")
        else:
            name = getattr(file, "name", None)
            labels, var, lo, hi, root = zdd_file.read(
                file, f"ZDD file {name}" if isinstance(name, str) else "the ZDD file")
        return _shared(ZDDBuilder(labels), var, lo, hi, root)

    def relabel(self, labels: Iterable[Hashable]) -> ZDD:
        """The same diagram over new labels (as many, distinct): ``labels[k]`` names
        option k."""
        new = _checked_labels(labels)
        if len(new) != len(self.labels):
            raise ExactCoverError(f"relabel needs {len(self.labels)} labels, not {len(new)}")
        return ZDD._new(new, self._var, self._lo, self._hi, self.root)

    # --- the object protocol ----------------------------------------------------------

    def __repr__(self) -> str:
        return (f"<dlx.ZDD: {self.count()} solution{'' if self.count() == 1 else 's'},"
                f" {self.nodes} node{'' if self.nodes == 1 else 's'}"
                f" over {len(self.labels)} options>")

    def __eq__(self, other: object) -> bool:
        """Structural equality: the same labels and the same nodes with the same ids
        (two diagrams of one family built in different ways may differ)."""
        if not isinstance(other, ZDD):
            return NotImplemented
        return (self.root == other.root and self.labels == other.labels
                and self._var == other._var and self._lo == other._lo
                and self._hi == other._hi)

    def __hash__(self) -> int:
        return hash((self.root, len(self._var), self.labels))

    def __reduce__(self) -> tuple[Any, ...]:
        # the arrays were checked when this was made: no need to check them again
        return (ZDD._new, (self.labels, self._var, self._lo, self._hi, self.root))


def _shared(b: ZDDBuilder, var: Sequence[int], lo: Sequence[int], hi: Sequence[int],
            root: int) -> ZDD:
    """The diagram of checked arrays made again through ``b``: equal nodes shared, the
    nodes ``root`` does not reach dropped."""
    keep = _reachable(lo, hi, root)
    new = [0, 1] + [0] * (len(var) - 2)
    for k in range(2, len(var)):
        if keep[k]:
            new[k] = b.make(var[k], new[lo[k]], new[hi[k]])
    return b.finish(new[root])


def _ordered(b: ZDDBuilder, rows: list[tuple[int, ...]]) -> int:
    """The diagram of ``rows`` (sorted tuples of option indices, sorted and distinct)
    made through ``b`` as DLX6 would, choosing the first option left; an explicit
    stack, no recursion.

    A frame is the rows ``[start, end)`` that share their first ``depth`` options: its
    family holds the empty set if one of them ends there (it sorts first), and for
    each next option x, in increasing order, x with the family of the rows going on
    with x: a chain of nodes, each one's ``lo`` the chain of the options before it.
    """
    if not rows:
        return 0
    stack: list[_Frame] = [_Frame(rows, 0, len(rows), 0)]
    done = -1                           # the node of the frame just finished
    while stack:
        frame = stack[-1]
        if done >= 0:
            frame.chain = b.make(frame.groups[frame.next - 1][0], frame.chain, done)
            done = -1
        if frame.next < len(frame.groups):
            _, start, end = frame.groups[frame.next]
            frame.next += 1
            stack.append(_Frame(rows, start, end, frame.depth + 1))
        else:
            stack.pop()
            done = frame.chain
    return done


class _Frame:
    __slots__ = ("depth", "chain", "groups", "next")

    def __init__(self, rows: list[tuple[int, ...]], start: int, end: int, depth: int) -> None:
        self.depth = depth
        empty = len(rows[start]) == depth
        self.chain = 1 if empty else 0                      # the node of the options so far
        self.groups: list[tuple[int, int, int]] = []      # (option, start, end)
        self.next = 0
        for k in range(start + empty, end):
            x = rows[k][depth]
            if self.groups and self.groups[-1][0] == x:
                self.groups[-1] = (x, self.groups[-1][1], k + 1)
            else:
                self.groups.append((x, k, k + 1))
