"""Many grid puzzles on one prepared matrix: the pure engine's batch path.

The twin of the core's ``GridTable`` (``dlx/_core.c``), for when the core is not
used.  A grid family (Sudoku of one shape, say) has one full exact-cover matrix:
an option per (cell, digit), the cell items first.  :class:`GridBatch` lays it
out once; for each puzzle it then

1. copies the links (a few list copies) and chooses the option of every given,
   in cell order, by covering its items (:meth:`dlx.links.Links.choose`).  A
   given whose option is already gone shares a unit and digit with an earlier
   given: the puzzle is *contradictory*;
2. runs :func:`dlx.search.run`, the one search loop, on what is left, up to
   ``limit`` solutions, keeping the digits of the first one.  It leaves out the
   early-failure test of commits (``early=False``): on Sudoku it saves about 2% of
   the link updates but costs more than that in Python, and a batch reports nodes,
   which it does not change, not updates (the core's batch leaves it out too).

What is left after step 1 is the problem that ``problems.sudoku.encode`` builds
for the puzzle, minus the givens' forced options, with everything in the same
order; so the search meets the same solutions in the same order.  The givens
are counted as nodes where the per-puzzle search would have chosen them
(``deferred=`` of :func:`dlx.search.run`), so the node counts and budgets are
those of ``dlx.count(encode(puzzle))`` too, and those of the core's batch.

>>> from dlx import ExactCover
>>> cells = [(c, d) for c in range(4) for d in (1, 2)]     # a 2x2 Latin square
>>> p = ExactCover({(c, d): [("cell", c), ("row", c // 2, d), ("col", c % 2, d)]
...                 for c, d in cells},
...                primary=[("cell", c) for c in range(4)]
...                + [(u, k, d) for u in ("row", "col") for k in (0, 1) for d in (1, 2)])
>>> g = GridBatch(p, 2, lambda label: label)
>>> codes, nodes, sols, _ = g.batch(bytes([1, 0, 0, 0, 0, 0, 0, 0]), limit=-1)
>>> codes, list(sols[:4]), list(sols[4:])
([1, 2], [1, 2, 2, 1], [1, 2, 2, 1])
>>> g.batch(bytes([1, 1, 0, 0]))[0]          # two 1s in row 0: contradictory
[-1]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

from .errors import BudgetExceeded
from .links import Links
from .problem import ExactCover
from .search import run
from .trace import Stats

__all__ = ["GridBatch", "CLASH", "OUT_OF_BUDGET"]

#: The codes :meth:`GridBatch.batch` gives besides solution counts (as the core's).
CLASH, OUT_OF_BUDGET = -1, -2


class GridBatch:
    """The full matrix of an ``n`` x ``n`` grid family, laid out once for many puzzles.

    ``problem`` has one option per (cell ``0..n*n-1``, digit ``1..n``), which
    ``cell_digit(label)`` names, and each option's first item is its cell's item,
    the cells being the first ``n*n`` primary items in cell order (ValueError
    otherwise).  No colours.
    """

    def __init__(self, problem: ExactCover, n: int,
                 cell_digit: Callable[[Hashable], tuple[int, int]]) -> None:
        if not 1 <= n <= 255:
            raise ValueError("GridBatch: n must be 1..255")
        links = Links.of(problem)
        ncells = n * n
        if links.colored or links.N1 < ncells or len(links.labels) != ncells * n:
            raise ValueError("GridBatch: the matrix must have one option per (cell, digit),"
                             " cell items first, and no colours")
        first: list[tuple[int, ...]] = [()] * (ncells * n)
        cell_of = [0] * len(links.labels)
        digit_of = [0] * len(links.labels)
        for o, (label, nodes) in enumerate(zip(links.labels, links.option_nodes, strict=True)):
            c, d = cell_digit(label)
            if not (0 <= c < ncells and 1 <= d <= n) or first[c * n + d - 1] \
                    or links.TOP[nodes[0]] != c + 1:
                raise ValueError("GridBatch: every (cell, digit) needs one option, whose first"
                                 " item is its cell's item (cell + 1)")
            first[c * n + d - 1] = nodes
            cell_of[o], digit_of[o] = c, d
        links.fast_tables()     # built once here, shared by every puzzle's copy
        self.n = n
        self._links = links
        self._first = first
        self._cell_of = cell_of
        self._digit_of = digit_of
        self._index = {label: o for o, label in enumerate(links.labels)}

    def batch(self, puzzles: bytes, limit: int = 1, max_nodes: int = -1
              ) -> tuple[list[int], list[int], bytes, list[float]]:
        """Search every puzzle of ``puzzles`` (``n*n`` bytes each, 0 for a blank).

        Returns, per puzzle: the number of solutions found (up to ``limit``; a
        ``limit`` below 1 means all), :data:`CLASH` or :data:`OUT_OF_BUDGET`; its
        node count (0 when contradictory, ``max_nodes`` when out of budget); the
        cells of its first solution (else its givens), all in one bytes object; and
        the seconds it took.  ``max_nodes`` below 1 means no budget.
        """
        n = self.n
        m = n * n
        if len(puzzles) % m:
            raise ValueError(f"batch: {len(puzzles)} bytes is not a whole number of {m}-cell"
                             " puzzles")
        for k, v in enumerate(puzzles):
            if v > n:
                raise ValueError(f"batch: puzzle {k // m}, cell {k % m}: value {v} is not 0..{n}")
        lim = None if limit < 1 else limit
        budget = None if max_nodes < 1 else max_nodes
        master, first = self._links, self._first
        index, cell_of, digit_of = self._index, self._cell_of, self._digit_of
        n1 = master.N1
        out = bytearray(puzzles)
        codes: list[int] = []
        nodes_of: list[int] = []
        seconds: list[float] = []
        clock = time.perf_counter
        for start in range(0, len(puzzles), m):
            t0 = clock()
            values = puzzles[start:start + m]
            links = master.copy()
            # 1. the givens, in cell order; before[i]: givens in the cells before item i's
            before = [0] * (n1 + 1)
            g = 0
            clash = False
            for c in range(m):
                before[c + 1] = g
                v = values[c]
                if v:
                    g += 1
                    if not clash and not links.choose(first[c * n + v - 1]):
                        clash = True
            if clash:
                codes.append(CLASH)
                nodes_of.append(0)
                seconds.append(clock() - t0)
                continue
            before[m + 1:] = [g] * (n1 - m)
            # 2. the search
            stats = Stats()
            found = 0
            search = run(links, "solutions", stats=stats, max_nodes=budget,
                         deferred=(before, g), restore=False, early=False)
            try:
                for sol in search:
                    found += 1
                    if found == 1:
                        for label in sol:
                            o = index[label]
                            out[start + cell_of[o]] = digit_of[o]
                    if found == lim:
                        break
            except BudgetExceeded:
                found = OUT_OF_BUDGET
            finally:
                search.close()
            codes.append(found)
            nodes_of.append(stats.nodes)
            seconds.append(clock() - t0)
        return codes, nodes_of, bytes(out), seconds
