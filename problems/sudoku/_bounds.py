"""The bounds of the best-score search (:mod:`problems.sudoku._maxscore`, parts 1 and 4).

Part 1, :func:`reduce_weights`: moving weight between the cells of a full unit
changes every completion's score by the same amount, so the weights are first
made as sparse as coordinate descent finds.  Part 4, :class:`Bounds`: a cheap
bound (per packing of the full units into disjoint groups, the best
distinct-digit assignment of each group's weighted cells) and a Lagrangian bound
of LP strength (each "digit d once in unit u" relaxed with a price mu[u, d],
tuned by deflected subgradient steps); the module docstring of
:mod:`~problems.sudoku._maxscore` says how they serve the search.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

from .tables import Tables

__all__ = ["reduce_weights", "Bounds", "Search", "Counters"]

_INF = math.inf


def reduce_weights(weights: Sequence[float], n: int, units: Sequence[Sequence[int]]
                   ) -> tuple[list[float], float]:
    """Equivalent weights with as many zeros as coordinate descent finds.

    ``units`` must be full units (n cells, every digit exactly once).  Returns
    ``(reduced, constant)`` with ``sum(weights[i] * d[i]) == constant +
    sum(reduced[i] * d[i])`` for every complete valid grid ``d``.  Each step
    subtracts the (lower) median of a unit's reduced weights from them, which
    minimises their sum of absolute values over that unit's offset; integer
    weights stay integers.  (With float weights, reduced weights within 1e-12
    of the largest weight of zero are set to zero, so the identity then holds
    to that precision.)

    >>> from problems.sudoku import Shape, target_weights
    >>> units = Shape.standard(9).tables().unit_cells
    >>> w, c = reduce_weights(target_weights(9), 9, units)
    >>> c, sum(1 for x in w if x), w[:9]
    (2745, 17, [2, 1, 0, 0, 0, 0, 0, 1, 2])
    """
    res = list(weights)
    const: float = 0
    digit_sum = n * (n + 1) // 2
    for _ in range(100):
        changed = False
        for u in units:
            v = sorted(res[i] for i in u)
            m = v[(len(v) - 1) // 2]
            if m:
                changed = True
                const += m * digit_sum
                for i in u:
                    res[i] -= m
        if not changed:
            break
    if not all(isinstance(x, int) for x in weights):
        # Float rounding leaves dust such as 5e-17 where a weight should be 0.
        tol = 1e-12 * max([1.0] + [abs(x) for x in weights])
        res = [0 if abs(x) < tol else x for x in res]
    return res, const


class Counters(Protocol):
    """The statistics the bounds count (``_maxscore.SearchStats``)."""

    lagrange_calls: int
    lagrange_iterations: int


class Search(Protocol):
    """What the Lagrangian bound reads of the search it serves, and tells it."""

    @property
    def incumbent(self) -> float:
        """The best reduced score so far (-inf before the first)."""

    @property
    def margin(self) -> float:
        """A node is pruned when its bound is at most ``incumbent + margin``."""

    def offer(self, score: float, grid: list[int]) -> None:
        """A complete grid found by the bound (its reduced ``score``)."""

    def check_time(self) -> None:
        """Raise when the search's time is up (called at every step)."""


class Bounds:
    """The bounds of one search: the shape's tables ``t`` and the reduced weights ``wr``.

    ``groups`` are the weighted cells of each packing of the full units (the cheap
    bound's groups); ``momentum`` and ``stall_limit`` tune the subgradient steps
    (momentum of the last direction; halve the step after that many steps without
    progress).
    """

    def __init__(self, t: Tables, wr: list[float], counters: Counters,
                 momentum: float = 0.7, stall_limit: int = 10) -> None:
        self.t = t
        self.wr = wr
        self.counters = counters
        self.momentum = momentum
        self.stall_limit = stall_limit
        self.groups = [[g for g in ([i for i in u if wr[i]] for u in part) if g]
                       for part in t.partitions]

    def _group_best(self, cells: list[int], cand: list[int], vals: list[int]) -> float:
        """Best distinct-digit assignment of the empty cells among ``cells``."""
        wr = self.wr
        items = sorted(((wr[i], cand[i]) for i in cells if not vals[i]),
                       key=lambda x: -abs(x[0]))
        k = len(items)
        if not k:
            return 0
        if k == 1:
            a, m = items[0]
            return a * (m.bit_length() if a > 0 else (m & -m).bit_length())
        opt = [0.0] * (k + 1)
        for j in range(k - 1, -1, -1):
            a, m = items[j]
            opt[j] = opt[j + 1] + a * (m.bit_length() if a > 0 else (m & -m).bit_length())
        best = -_INF

        def rec(j: int, taken: int, acc: float) -> None:
            nonlocal best
            if j == k:
                if acc > best:
                    best = acc
                return
            if acc + opt[j] <= best:
                return
            a, m = items[j]
            m &= ~taken
            while m:
                b = 1 << (m.bit_length() - 1) if a > 0 else m & -m
                m ^= b
                rec(j + 1, taken | b, acc + a * b.bit_length())

        rec(0, 0, 0)
        return best

    def cheap(self, cand: list[int], vals: list[int]) -> float:
        """Min over the partitions of the sum of per-unit best assignments.

        Exact per unit by a small depth-first search: meant for the few weighted
        cells per unit left by the reduction; with many weighted cells per unit
        it is skipped (inf) in favour of the Lagrangian bound.
        """
        res = _INF
        for groups in self.groups:
            total = 0.0
            for g in groups:
                if len(g) > 6:
                    total = _INF
                    break
                total += self._group_best(g, cand, vals)
                if total >= res:
                    break
            if total < res:
                res = total
        return res

    def lagrange(self, search: Search, cand: list[int], vals: list[int], cur: float,
                 mu: list[float], iterations: int
                 ) -> tuple[float, list[float], list[tuple[int, int]] | None]:
        """Lagrangian bound on the reduced score of the best completion.

        ``cur`` is the reduced score of the placed cells and ``mu[k*n + d-1]`` the
        price of digit d in unit k (see :mod:`~problems.sudoku._maxscore`, part 4).  Runs up
        to ``iterations`` subgradient steps, stopping once the bound prunes.
        Returns (bound, the multipliers of the best bound, that step's digit of
        every empty cell as (cell, digit) pairs).
        """
        st = self.counters
        st.lagrange_calls += 1
        t = self.t
        n, wr = t.n, self.wr
        mu = mu[:]
        open_pairs: list[int] = []
        for k, u in enumerate(t.score_units):
            placed = 0
            for i in u:
                if vals[i]:
                    placed |= 1 << (vals[i] - 1)
            base = k * n
            open_pairs.extend(base + d for d in range(n) if not placed >> d & 1)
        nonneg = [x for x in open_pairs if t.partial[x // n]]
        # Per empty cell: its options as (a*d, mu indices...), and the digits.
        # Per empty cell: (cell, options, digits); an option is (weight*digit, then
        # the mu index of that digit in each unit of the cell).  Cells in exactly
        # three units (all of them in the standard shape) take a faster path.
        cells3: list[tuple[int, list[tuple[float, int, int, int]], list[int]]] = []
        cells_other: list[tuple[int, list[tuple[float, tuple[int, ...]]], list[int]]] = []
        for i in range(t.ncells):
            if not vals[i]:
                m = cand[i]
                a = wr[i]
                offs = t.offsets[i]
                digits = [d for d in range(1, n + 1) if m >> (d - 1) & 1]
                if len(offs) == 3:
                    o1, o2, o3 = offs
                    cells3.append((i, [(a * d, o1 + d - 1, o2 + d - 1, o3 + d - 1)
                                       for d in digits], digits))
                else:
                    cells_other.append((i, [(a * d, tuple(o + d - 1 for o in offs))
                                            for d in digits], digits))
        order = [(i, digits) for i, _, digits in cells3]
        order += [(i, digits) for i, _, digits in cells_other]
        best_bound = _INF
        best_mu = mu
        best_sol: list[int] | None = None
        threshold = search.incumbent + search.margin
        theta = 1.0
        stall = 0
        direction = [0.0] * len(mu)
        momentum = self.momentum
        get: Callable[[int], float] = mu.__getitem__
        for _ in range(iterations):
            st.lagrange_iterations += 1
            search.check_time()
            total = cur + sum(map(get, open_pairs))
            count = [0] * len(mu)
            choice: list[int] = []
            for _i, opts, _d in cells3:
                xs = [ad - mu[j1] - mu[j2] - mu[j3] for ad, j1, j2, j3 in opts]
                best = max(xs)
                total += best
                k = xs.index(best)
                _, j1, j2, j3 = opts[k]
                count[j1] += 1
                count[j2] += 1
                count[j3] += 1
                choice.append(k)
            for _i, opts2, _d in cells_other:
                xs = [ad - sum(map(get, js)) for ad, js in opts2]
                best = max(xs)
                total += best
                k = xs.index(best)
                for j in opts2[k][1]:
                    count[j] += 1
                choice.append(k)
            if total < best_bound - 1e-9:
                best_bound, best_mu, best_sol = total, mu[:], choice
                stall = 0
            else:
                stall += 1
                if stall >= self.stall_limit:
                    theta *= 0.5
                    stall = 0
            if best_bound <= threshold:
                break
            # Deflected subgradient: the subgradient plus momentum x the last direction.
            norm2 = 0.0
            tight = True
            for x in open_pairs:
                c = 1 - count[x]
                if c:
                    tight = False
                g = c + momentum * direction[x]
                direction[x] = g
                norm2 += g * g
            if tight:
                # Every open (unit, digit) pair is used once: the cells form a valid grid.
                grid = vals[:]
                score = cur
                for (i, digits), k in zip(order, choice, strict=True):
                    grid[i] = digits[k]
                    score += wr[i] * digits[k]
                search.offer(score, grid)
                threshold = search.incumbent + search.margin
                if best_bound <= threshold:
                    break
            if not norm2:
                break
            # Polyak step towards a target below the incumbent (or below this value).
            target = search.incumbent - 1 if search.incumbent > -_INF else total - 1
            step = theta * max(total - target, 0.1) / norm2
            for x in open_pairs:
                mu[x] -= step * direction[x]
            for x in nonneg:
                if mu[x] < 0:
                    mu[x] = 0.0
        sol: list[tuple[int, int]] | None = None
        if best_sol is not None:
            sol = [(i, digits[k])
                   for (i, digits), k in zip(order, best_sol, strict=True)]
        return best_bound, best_mu, sol
