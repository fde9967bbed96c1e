"""Exact maximum of sum(weight x digit) over the completions of a Sudoku grid.

This is the NOIP 2009 "target Sudoku" problem (weights 6 on the outer ring of a
9x9 grid up to 10 in the centre) for any N x N Sudoku-like shape and any
weights, solved exactly by branch and bound in pure Python (standard library
only).  On 9x9 target weights every grid tried, the empty one included, takes
well under the 10 s budget (the empty grid 0.2-0.4 s); ``bench/bench_maxscore.py``
measures it.

The method, in four parts:

1. **Weight reduction.**  In a complete grid every full unit (row, column, box,
   ...) holds each digit once, so its digits sum to N(N+1)/2.  Subtracting a
   constant from the weights of one full unit changes every completion's score by
   the same amount.  Coordinate descent on the sum of absolute weights (each step
   moves one unit's weights by their median) makes most weights zero: the 9x9
   target weights become 2745 + the four corners twice + the twelve other cells
   of the four corner 2x2 blocks + the centre, so only 17 cells carry weight.

2. **Search over the weighted cells only**, fewest candidates first, the digit of
   the Lagrangian relaxation's solution first.  Once every weighted cell is
   placed the score is known and only the feasibility of the rest is left, which
   a small depth-first solver settles (three strategies taking turns under a
   doubling node budget, because each has rare heavy tails; the last adds
   all-different filtering to the propagation).  With one weighted cell left,
   feasibility is checked before branching on it.

3. **Propagation** at every node: naked and hidden singles, locked candidates
   (two units overlapping in two or more cells) and a Hall test (the empty cells
   of every unit must still match distinct candidate digits).  The Hall test is
   what makes the high-scoring but impossible corner patterns fail at once
   instead of after thousands of nodes.

4. **Bounds.**  A cheap one first: for each way of packing the full units into
   disjoint groups (rows; columns; boxes), the sum over units of the best
   distinct-digit assignment of their weighted cells; the smallest sum.  Then a
   Lagrangian bound of LP strength: relax every "digit d once in unit u"
   constraint with a multiplier mu[u, d]; what is left lets each empty cell
   take its best candidate d for weight*d - sum of mu[u, d] over its units, and
   the bound is the sum of those plus the sum of mu over the open (unit, digit)
   pairs.  Its best value is the LP relaxation's (candidates respected), which
   on 9x9 target weights is within about 1.5 points of the optimum at the root.
   The multipliers are tuned by deflected subgradient steps (momentum 0.7,
   Polyak step sizes aimed below the incumbent, halved after 10 steps without
   progress): up to 200 at the root, 20 at each node warm-started from the
   parent, and 30 more at a node whenever a child improved the incumbent.  A
   step whose cells happen to use every open (unit, digit) pair once is a valid
   grid, hence a solution.

The entry point is :func:`best_completion`; :func:`problems.sudoku.max_score` calls it
with the shape's tables (:mod:`problems.sudoku.tables`: the units, each cell's peers,
the overlapping units, the packings of the full units).  Here are the search (part
2) and the propagation (part 3); the weight reduction (part 1) and the bounds (part
4) are in :mod:`problems.sudoku._bounds`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import NamedTuple, cast

from ._bounds import Bounds, reduce_weights
from .tables import Tables

__all__ = ["best_completion", "SearchStats", "Completion", "SearchLimitReached"]

_INF = math.inf


class SearchStats:
    """Counters of one search (pass an instance to :func:`best_completion`)."""

    __slots__ = ("nodes", "leaves", "feasibility_nodes", "lagrange_calls",
                 "lagrange_iterations", "root_bound", "weighted_cells", "improvements",
                 "seconds")

    def __init__(self) -> None:
        self.nodes = 0                 # nodes of the weighted-cell search
        self.leaves = 0                # nodes where every weighted cell was placed
        self.feasibility_nodes = 0     # nodes of the completion (feasibility) solver
        self.lagrange_calls = 0
        self.lagrange_iterations = 0   # subgradient steps
        self.root_bound: float | None = None   # Lagrangian bound at the root (true score)
        self.weighted_cells = 0        # cells left with a non-zero weight by the reduction
        self.improvements: list[tuple[float, float, int]] = []  # (score, seconds, nodes)
        self.seconds = 0.0

    def __repr__(self) -> str:
        root = "None" if self.root_bound is None else f"{self.root_bound:.3f}"
        return (f"SearchStats(nodes={self.nodes}, leaves={self.leaves}, "
                f"feasibility_nodes={self.feasibility_nodes}, "
                f"lagrange_calls={self.lagrange_calls}, "
                f"lagrange_iterations={self.lagrange_iterations}, root_bound={root}, "
                f"weighted_cells={self.weighted_cells}, seconds={self.seconds:.3f})")


class Completion(NamedTuple):
    """A best completion: its score (under the original weights) and its digits."""

    score: float
    grid: tuple[int, ...]


class SearchLimitReached(Exception):
    """``max_nodes`` or ``time_limit`` ran out (``what`` says which); ``found`` is the best
    completion so far."""

    def __init__(self, message: str, found: Completion | None, what: str = "max_nodes"
                 ) -> None:
        super().__init__(message)
        self.found = found
        self.what = what


def _matching(masks: list[int]) -> list[int] | None:
    """A distinct digit (as a bit) for every mask (a set of digits as bits), or None."""
    owner: dict[int, int] = {}      # digit bit -> index of the mask holding it

    def augment(j: int, seen: list[int]) -> bool:
        m = masks[j] & ~seen[0]
        while m:
            b = m & -m
            m ^= b
            seen[0] |= b
            k = owner.get(b)
            if k is None or augment(k, seen):
                owner[b] = j
                return True
        return False

    taken = 0
    for j, m in enumerate(masks):
        free = m & ~taken
        if free:                    # fast path: a digit nobody holds yet
            b = free & -free
            owner[b] = j
            taken |= b
        elif augment(j, [0]):
            taken = 0
            for b in owner:
                taken |= b
        else:
            return None
    match = [0] * len(masks)
    for b, j in owner.items():
        match[j] = b
    return match


def _matchable(masks: list[int]) -> bool:
    """Can every mask get a distinct digit of its own (Hall's condition)?"""
    return _matching(masks) is not None


def _alldifferent(masks: list[int]) -> list[int] | None:
    """Régin's filtering for "all different": each mask keeps only the digits it
    takes in some matching of all the masks to distinct digits; None if none.

    With a matching found, merge each mask with its matched digit into one node;
    node j points to node k when mask j holds k's digit.  Mask j may take k's
    digit iff the chain can close: k reaches j (a cycle) or k reaches a mask
    holding a digit nobody is matched to.  Digits nobody is matched to stay.
    """
    match = _matching(masks)
    if match is None:
        return None
    k = len(masks)
    node_of = {b: j for j, b in enumerate(match)}
    used = 0
    for b in match:
        used |= b
    reach = [0] * k                 # reach[j]: nodes reachable from j (bit set)
    frees = 0                       # nodes whose mask holds an unmatched digit
    for j, m in enumerate(masks):
        if m & ~used:
            frees |= 1 << j
        r = 0
        x = m & used & ~match[j]
        while x:
            b = x & -x
            x ^= b
            r |= 1 << node_of[b]
        reach[j] = r
    for mid in range(k):            # transitive closure (Warshall on bit sets)
        bit = 1 << mid
        rm = reach[mid]
        for j in range(k):
            if reach[j] & bit:
                reach[j] |= rm
    out = list(masks)
    for j, m in enumerate(masks):
        x = m & used & ~match[j]
        while x:
            b = x & -x
            x ^= b
            t = node_of[b]
            if not (reach[t] >> j & 1 or (reach[t] | 1 << t) & frees):
                out[j] &= ~b
    return out


class _OutOfBudget(Exception):
    """A completion attempt used up its node budget (see ``_Solver._complete``)."""


def best_completion(values: Sequence[int], weights: Sequence[float], tables: Tables, *,
                    stats: SearchStats | None = None,
                    max_nodes: int | None = None, time_limit: float | None = None,
                    root_iterations: int = 200, node_iterations: int = 20,
                    retune_iterations: int = 30) -> Completion | None:
    """The completion of a grid with the greatest sum of weight x digit, or None.

    ``values`` are the N*N cells, row-major (0 blank); ``weights`` N*N finite
    numbers; ``tables`` the shape's (:meth:`Shape.tables
    <problems.sudoku.Shape.tables>`: its full units hold every digit once, smaller
    ones at most once), so that standard, Sudoku-X and jigsaw shapes all work.  Raises
    :class:`SearchLimitReached` when ``max_nodes`` search nodes or ``time_limit``
    seconds run out.  Ties go to the first best completion found.  The iteration
    counts tune the Lagrangian bound only, never the answer.

    >>> from problems.sudoku import Shape
    >>> best_completion([1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2], [1] * 16,
    ...                 Shape.standard(4).tables()).score
    40
    """
    vals0 = [int(v) for v in values]
    n, ncells = tables.n, tables.ncells
    if len(vals0) != ncells:
        raise ValueError(f"{len(vals0)} cells for a {n}x{n} grid")
    w = list(weights)
    if len(w) != ncells:
        raise ValueError(f"{len(w)} weights for {ncells} cells")
    if any(not 0 <= v <= n for v in vals0):
        raise ValueError(f"a digit is out of range 1..{n}")
    started = time.perf_counter()        # the time limit counts the tables too
    solver = _Solver(tables, w, stats, max_nodes, time_limit, started,
                     root_iterations, node_iterations, retune_iterations)
    return solver.run(vals0)


class _Solver:
    """One branch-and-bound run (see the module docstring)."""

    def __init__(self, t: Tables, w: list[float], stats: SearchStats | None,
                 max_nodes: int | None, time_limit: float | None, started: float,
                 root_iterations: int, node_iterations: int, retune_iterations: int) -> None:
        self.t = t
        self.w = w
        self.st = stats if stats is not None else SearchStats()
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.root_iterations = root_iterations
        self.node_iterations = node_iterations
        self.retune_iterations = retune_iterations
        self.check_open = 1            # check completability with this few weighted cells open
        n = t.n
        self.every = (1 << n) - 1      # every digit, digit d as bit d - 1
        self.wr, self.const = reduce_weights(w, n, t.full_score_units)
        self.integral = all(isinstance(x, int) for x in w)
        # Integer weights with a common factor (10**400 times the target weights) are
        # searched divided by it: the same completions win, and the floats of the
        # bound stay small.  Scores in the search are in these units.
        self.scale = 1
        if self.integral:
            ints = cast("list[int]", self.wr)
            self.scale = math.gcd(*ints) or 1
            self.wr = [x // self.scale for x in ints]
        # Prune when bound <= incumbent + margin: with integer weights a node must
        # promise at least one more point; with floats allow for rounding.
        if self.integral:
            self.margin = 1 - 1e-6
        else:
            self.margin = -1e-9 * (1 + sum(abs(x) for x in w) * n)
        self.weighted = [i for i in range(t.ncells) if self.wr[i]]
        self.st.weighted_cells = len(self.weighted)
        self.bounds = Bounds(t, self.wr, self.st)
        self._budget = 0                # nodes left to the current completion attempt
        self.incumbent = -_INF          # best reduced score so far
        self.best_grid: list[int] | None = None
        self.t0 = started

    # ------------------------------------------------------------------ state

    def _assign(self, cand: list[int], vals: list[int], i: int, b: int) -> None:
        vals[i] = b.bit_length()
        cand[i] = 0
        nb = ~b
        for p in self.t.peers[i]:
            cand[p] &= nb

    def _propagate(self, cand: list[int], vals: list[int], strong: bool = False) -> bool:
        """Singles, locked candidates and the Hall test; False on a contradiction.

        ``strong`` replaces the Hall test by all-different filtering (Régin),
        which also removes the candidates no matching of their unit can use:
        about twenty times the cost of a node, for far smaller proofs on the rare
        positions where the cheap rules leave the search thousands of nodes.
        """
        t = self.t
        ncells, full, peers = t.ncells, self.every, t.peers
        while True:
            progress = True
            while progress:                     # naked singles
                progress = False
                for i in range(ncells):
                    if not vals[i]:
                        m = cand[i]
                        if not m & (m - 1):
                            if not m:
                                return False
                            vals[i] = m.bit_length()
                            cand[i] = 0
                            nb = ~m
                            for p in peers[i]:
                                cand[p] &= nb
                            progress = True
            for cells in t.full_score_units:          # hidden singles
                once = twice = placed = 0
                for i in cells:
                    v = vals[i]
                    if v:
                        placed |= 1 << (v - 1)
                    else:
                        m = cand[i]
                        twice |= once & m
                        once |= m
                need = full & ~placed
                if need & ~once:
                    return False
                h = need & ~twice
                while h:
                    b = h & -h
                    h ^= b
                    for i in cells:
                        if cand[i] & b:
                            self._assign(cand, vals, i, b)
                            break
                    else:
                        return False
                    progress = True
            if progress:
                continue
            for common, a_rest, b_rest, a_full, b_full in t.overlaps:   # locked candidates
                mi = 0
                for i in common:
                    mi |= cand[i]
                if not mi:
                    continue
                ma = 0
                for i in a_rest:
                    ma |= cand[i]
                mb = 0
                for i in b_rest:
                    mb |= cand[i]
                if a_full:
                    x = mi & ~ma & mb       # A must put these in the overlap
                    if x:
                        nx = ~x
                        for i in b_rest:
                            cand[i] &= nx
                        progress = True
                if b_full:
                    y = mi & ~mb & ma
                    if y:
                        ny = ~y
                        for i in a_rest:
                            cand[i] &= ny
                        progress = True
            if progress:
                continue
            if not strong:
                return self._hall(cand, vals)
            for cells in t.score_units:               # all-different filtering
                idx = [i for i in cells if not vals[i]]
                if len(idx) > 1:
                    masks = [cand[i] for i in idx]
                    kept = _alldifferent(masks)
                    if kept is None:
                        return False
                    for i, m, k in zip(idx, masks, kept, strict=True):
                        if k != m:
                            cand[i] = k
                            progress = True
            if not progress:
                return True

    def _hall(self, cand: list[int], vals: list[int]) -> bool:
        """Can the empty cells of every unit still take distinct candidates?"""
        for cells in self.t.score_units:
            masks = [cand[i] for i in cells if not vals[i]]
            if len(masks) > 1 and not _matchable(masks):
                return False
        return True

    # ------------------------------------------------------------------ feasibility

    def _complete(self, cand: list[int], vals: list[int]) -> list[int] | None:
        """Some completion of the position, or None when it has none.

        Three depth-first strategies take turns under a node budget that doubles
        every round (64, 128, ...) until one of them finishes: branching on the
        cell with fewest candidates; branching on whichever of a cell or a (unit,
        digit) pair has fewest choices, as exact cover does; and the first with
        all-different filtering added to the propagation.  Each of the first two
        is sometimes thousands of times slower than the other (a feasible
        position near the empty grid: 73,000 nodes by (unit, digit), under 50 by
        cells; an impossible one: 65,000 by cells, 11 by (unit, digit)), and a
        few impossible positions took both over 15,000 nodes where the filtering
        needs about 40.  Taking turns costs a small factor over the best.
        """
        budget = 64
        while True:
            for by_units, strong in ((False, False), (True, False), (False, True)):
                self._budget = budget
                try:
                    return self._dfs(cand[:], vals[:], by_units, strong)
                except _OutOfBudget:
                    pass
            budget *= 2

    def _dfs(self, cand: list[int], vals: list[int], by_units: bool, strong: bool
             ) -> list[int] | None:
        """One depth-first completion attempt (see :meth:`_complete`)."""
        st = self.st
        st.feasibility_nodes += 1
        if self.max_nodes is not None and st.feasibility_nodes + st.nodes > self.max_nodes:
            self._limit("max_nodes")
        self.check_time()
        self._budget -= 1
        if self._budget < 0:
            raise _OutOfBudget
        if not self._propagate(cand, vals, strong):
            return None
        t = self.t
        pop = int.bit_count
        best_k = 1 << 30
        cell = -1
        for i in range(t.ncells):
            if not vals[i]:
                k = pop(cand[i])
                if k < best_k:
                    best_k, cell = k, i
                    if k == 2:
                        break
        if cell < 0:
            return vals
        if by_units and best_k > 2:
            places: list[int] | None = None
            digit = 0
            full = self.every
            for cells in t.full_score_units:
                placed = 0
                for i in cells:
                    if vals[i]:
                        placed |= 1 << (vals[i] - 1)
                need = full & ~placed
                while need:
                    b = need & -need
                    need ^= b
                    pl = [i for i in cells if cand[i] & b]
                    if len(pl) < best_k:
                        best_k, places, digit = len(pl), pl, b
                if best_k == 2:
                    break
            if places is not None:
                for i in places:
                    c2, v2 = cand[:], vals[:]
                    self._assign(c2, v2, i, digit)
                    r = self._dfs(c2, v2, by_units, strong)
                    if r is not None:
                        return r
                return None
        m = cand[cell]
        while m:
            b = 1 << (m.bit_length() - 1)
            m ^= b
            c2, v2 = cand[:], vals[:]
            self._assign(c2, v2, cell, b)
            r = self._dfs(c2, v2, by_units, strong)
            if r is not None:
                return r
        return None

    # ------------------------------------------------------------------ search

    def offer(self, score: float, grid: list[int]) -> None:
        if score > self.incumbent:
            self.incumbent = score
            self.best_grid = grid
            true = sum(x * v for x, v in zip(self.w, grid, strict=True))   # exact
            self.st.improvements.append((true, time.perf_counter() - self.t0, self.st.nodes))

    def _found(self) -> Completion | None:
        if self.best_grid is None:
            return None
        grid = tuple(self.best_grid)
        return Completion(sum(x * v for x, v in zip(self.w, grid, strict=True)), grid)

    def _limit(self, what: str) -> None:
        raise SearchLimitReached(f"max_score: {what} ran out", self._found(), what)

    def check_time(self) -> None:
        """Stop (:class:`SearchLimitReached`) once ``time_limit`` has passed: called at
        every node of both searches and every step of the bound, each well under 50 ms
        up to 64x64 grids."""
        if self.time_limit is not None and time.perf_counter() - self.t0 > self.time_limit:
            self._limit("time_limit")

    def _search(self, cand: list[int], vals: list[int], mu: list[float],
                iterations: int, witness: list[int] | None) -> None:
        st = self.st
        st.nodes += 1
        if self.max_nodes is not None and st.nodes + st.feasibility_nodes > self.max_nodes:
            self._limit("max_nodes")
        self.check_time()
        if not self._propagate(cand, vals):
            return
        wr = self.wr
        cur = 0.0
        open_w = []
        for i in self.weighted:
            v = vals[i]
            if v:
                cur += wr[i] * v
            else:
                open_w.append(i)
        if not open_w:
            if cur > self.incumbent:
                st.leaves += 1
                grid = self._complete(cand[:], vals[:])
                if grid is not None:
                    self.offer(cur, grid)
            return
        if cur + self.bounds.cheap(cand, vals) <= self.incumbent + self.margin:
            return
        bound, mu, sol = self.bounds.lagrange(self, cand, vals, cur, mu, iterations)
        if st.nodes == 1:
            try:
                st.root_bound = bound * self.scale + self.const
            except OverflowError:       # a float cannot hold it: the statistic is left out
                st.root_bound = None
        if bound <= self.incumbent + self.margin:
            return
        # With few weighted cells left, make sure the rest can be completed before
        # branching on them (one check instead of one per digit of each cell).
        if len(open_w) <= self.check_open and (
                witness is None or any(v and v != witness[i] for i, v in enumerate(vals))):
            witness = self._complete(cand[:], vals[:])
            if witness is None:
                return
            self.offer(sum(wr[i] * witness[i] for i in self.weighted), witness)
            if bound <= self.incumbent + self.margin:
                return
        # Branch on the weighted cell with fewest candidates (heaviest on ties);
        # the relaxation's digit first, then from the best digit down.
        cell = min(open_w, key=lambda i: (cand[i].bit_count(), -abs(wr[i])))
        m = cand[cell]
        digits = []
        while m:
            b = 1 << (m.bit_length() - 1) if wr[cell] > 0 else m & -m
            m ^= b
            digits.append(b)
        if sol:
            for i, d in sol:
                if i == cell:
                    b = 1 << (d - 1)
                    if b in digits:
                        digits.remove(b)
                        digits.insert(0, b)
                    break
        tuned_for = self.incumbent
        for b in digits:
            if self.incumbent > tuned_for:     # a better incumbent: tighten this bound
                tuned_for = self.incumbent
                if bound > self.incumbent + self.margin:
                    bound, mu, _ = self.bounds.lagrange(self, cand, vals, cur, mu,
                                                        self.retune_iterations)
            if bound <= self.incumbent + self.margin:
                return
            c2, v2 = cand[:], vals[:]
            self._assign(c2, v2, cell, b)
            self._search(c2, v2, mu, self.node_iterations, witness)

    def run(self, vals0: list[int]) -> Completion | None:
        t = self.t
        cand = [self.every] * t.ncells
        vals = [0] * t.ncells
        try:
            for i, v in enumerate(vals0):
                if v:
                    b = 1 << (v - 1)
                    if not cand[i] & b:
                        return None        # a given clashes with another
                    self._assign(cand, vals, i, b)
            # One completion first: it settles solvability and gives an incumbent.
            witness = self._complete(cand[:], vals[:])
            if witness is None:
                return None
            self.offer(sum(self.wr[i] * witness[i] for i in self.weighted), witness)
            self._search(cand, vals, [0.0] * (len(t.score_units) * t.n), self.root_iterations,
                         witness)
        finally:
            self.st.seconds = time.perf_counter() - self.t0
        return self._found()
