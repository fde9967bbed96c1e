"""Scoring: weighted scores of grids, and the best score by branch and bound (NOIP 2009).

:func:`max_score` runs :func:`dlx.best` with ``_score_bound``, an upper bound on
the score still to come that splits each cell's weight between its row, column
and box and applies the rearrangement inequality per unit.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import dlx

from .encoding import _encode
from .grid import Grid, PuzzleLike, as_grid
from .shapes import Placement, Shape, _flatten, _Tables
from .verdicts import _legal

__all__ = ["target_weights", "score", "max_score"]

#: Per family of units, per unit: its open cells and its missing digits (largest first).
_Units = list[list[tuple[list[int], list[int]]]]


def target_weights(size: int = 9) -> tuple[int, ...]:
    """The NOIP 2009 target weights, row-major: N+1 in the centre, one less per ring.

    For 9x9: 6 on the outer ring, then 7, 8, 9, and 10 in the centre cell.

    >>> w = target_weights(9)
    >>> w[:9], w[40]
    ((6, 6, 6, 6, 6, 6, 6, 6, 6), 10)
    """
    n = size
    return tuple(n + 1 - max(abs(2 * r - (n - 1)), abs(2 * c - (n - 1))) // 2
                 for r in range(n) for c in range(n))


def _weights(weights: Sequence[Any] | None, n: int) -> tuple[Any, ...]:
    if weights is None:
        return target_weights(n)
    flat = tuple(_flatten(weights))
    if len(flat) != n * n:
        raise ValueError(f"weights has {len(flat)} entries; a {n}x{n} grid needs {n * n}")
    for w in flat:
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
            raise ValueError(f"weight {w!r} is not a finite number")
    return flat


def score(grid: PuzzleLike, weights: Sequence[Any] | None = None, *,
          box: tuple[int, int] | None = None, shape: Shape | None = None) -> Any:
    """The sum of weight x digit over the cells (blanks count 0).

    >>> score("483921657967345821251876493548132976729564138136798245372689514814253769695417382")
    2861
    """
    g = as_grid(grid, box, shape)
    w = _weights(weights, g.size)
    return sum(wi * v for wi, v in zip(w, g.values, strict=True))


def max_score(puzzle: PuzzleLike, weights: Sequence[Any] | None = None, *,
              box: tuple[int, int] | None = None, shape: Shape | None = None,
              max_nodes: int | None = None,
              stats: dlx.Stats | None = None) -> int | float | None:
    """The best total of weight x digit over all solutions (NOIP 2009 "target Sudoku").

    ``weights`` is a flat or nested N x N sequence of numbers (ints give an int);
    by default :func:`target_weights`.  None when there is no solution.

    Branch and bound with :func:`dlx.best`, not enumeration: the bound splits
    each cell's weight between its row, column and box and applies the
    rearrangement inequality per unit (see ``_score_bound``).  On 80 NOIP-like
    puzzles with 22 givens (up to hundreds of thousands of solutions) this took
    0.4 s on average and 2 s at worst, 61,000 nodes, in pure Python; with 24
    givens 0.16 s and 0.9 s.  The empty grid (maximum 2906) is still out of reach.

    >>> max_score("1..." "..3." ".4.." "...2", weights=[1] * 16)
    40
    >>> max_score("11" + "." * 79) is None
    True
    """
    g = as_grid(puzzle, box, shape)
    n = g.size
    w = _weights(weights, n)
    if not _legal(g):
        return None
    # Options: heaviest cells and largest digits first, so the first dive is good.
    # Items: lightest cells first (the outer ring for the target weights): on 80
    # NOIP-like puzzles with 22 givens this took the mean node count from 18,600
    # to 10,700 and the worst from 90,000 to 61,000 (heaviest first was worse).
    heavy_first = sorted(range(n * n), key=lambda i: -w[i])
    light_first = sorted(range(n * n), key=lambda i: w[i])
    problem = _encode(g, cell_order=heavy_first, descending=True, item_order=light_first)

    def weight(p: Placement) -> Any:
        return w[p.row * n + p.col] * p.digit

    result = dlx.best(problem, weight, maximize=True, bound=_score_bound(g, w),
                      max_nodes=max_nodes, stats=stats)
    return None if result is None else result[0]


def _score_bound(g: Grid, w: tuple[Any, ...], iterations: int = 400
                 ) -> Callable[[Any], Any] | None:
    """An upper bound on the score still to come, for ``dlx.best(bound=...)``.

    Rows, columns and boxes each split the grid into units whose open cells take
    the unit's missing digits, one each.  Split every cell's weight into three
    shares, one per family (``w = a_row + a_col + a_box``): then the score is the
    sum over the families of share x digit, and within one unit, share x digit
    summed over its cells is at most the sorted shares times the sorted missing
    digits (the rearrangement inequality).  So the sum of those sorted products
    over all units of all families bounds the rest of the score, for any split.

    The split is tuned once, on the puzzle, by subgradient steps (a Lagrangian
    relaxation; 400 steps take about 60 ms for 9x9).  For the empty 9x9 grid the
    bound comes out at 2906.98, i.e. 2906, its true maximum, where rows alone
    give 2980.  Each node then only sums sorted products over its open cells.
    Sound for any weights (negative too) and any shape whose rows, columns or
    regions split the grid; None for a shape with no such family.
    """
    t = g.shape.tables()
    n = t.n
    ncells = n * n
    fams = list(t.families.values())
    k = len(fams)
    if not k:
        return None
    values = g.values
    open_cells = [i for i in range(ncells) if not values[i]]
    units = _root_units(values, fams, n)
    best_share = _tuned_shares(units, open_cells, w, iterations)
    # Per family and unit: its cells in decreasing share, with their shares.
    ordered: list[tuple[tuple[int, float], ...]] = []   # index f * n + u
    for f in range(k):
        a = best_share[f]
        ordered.extend(tuple((i, a[i]) for i in sorted(cells, key=a.__getitem__, reverse=True))
                       for cells, _ in units[f])
    code = _item_codes(t)
    slots_of = [tuple(f * n + fams[f][i] for f in range(k)) for i in range(ncells)]
    digits_of = _digits_of_mask(n)
    mul = operator.mul
    slack = 1e-6 * (1 + sum(abs(x) for x in w) * n)
    no_code = (-2, 0)   # items of other kinds (diagonals): not used by the bound

    def bound(state: Any) -> Any:
        is_open = [False] * ncells
        missing = [0] * (k * n)
        total = slack
        get = code.get
        for item in state.items():
            slot, x = get(item, no_code)
            if slot >= 0:
                missing[slot] |= x
            elif slot == -1:
                v = values[x]
                if v:  # a given not yet placed: its score is known
                    total += w[x] * v
                    for s in slots_of[x]:
                        missing[s] &= ~(1 << v)
                else:
                    is_open[x] = True
        for m, cells in zip(missing, ordered, strict=True):
            if m:
                total += sum(map(mul, [a for i, a in cells if is_open[i]], digits_of(m)))
        return total

    return bound


def _root_units(values: tuple[int, ...], fams: list[dict[int, int]], n: int) -> _Units:
    """The root problem: per family and unit, its open cells and missing digits."""
    units: _Units = []
    for owner in fams:
        cells_of: list[list[int]] = [[] for _ in range(n)]
        present: list[set[int]] = [set() for _ in range(n)]
        for i in range(n * n):
            (present[owner[i]].add(values[i]) if values[i] else cells_of[owner[i]].append(i))
        units.append([(cells_of[u], [d for d in range(n, 0, -1) if d not in present[u]])
                      for u in range(n)])
    return units


def _tuned_shares(units: _Units, open_cells: list[int], w: tuple[Any, ...],
                  iterations: int) -> list[dict[int, float]]:
    """The split of each open cell's weight among the families with the lowest bound
    found by ``iterations`` subgradient steps (the shares of a cell sum to its weight)."""
    k = len(units)
    share = [{i: w[i] / k for i in open_cells} for _ in range(k)]
    best_total = math.inf
    best_share = share
    for step in range(iterations):
        total = 0.0
        grad: list[dict[int, int]] = [{} for _ in range(k)]
        for f in range(k):
            a, gf = share[f], grad[f]
            for cells, digits in units[f]:
                for i, d in zip(sorted(cells, key=a.__getitem__, reverse=True), digits,
                                strict=True):
                    total += a[i] * d
                    gf[i] = d
        if total < best_total:
            best_total, best_share = total, [dict(a) for a in share]
        size = 0.1 / math.sqrt(1 + step)
        for i in open_cells:
            mean = sum(grad[f][i] for f in range(k)) / k
            for f in range(k):
                share[f][i] -= size * (grad[f][i] - mean)
    return best_share


def _item_codes(t: _Tables) -> dict[Hashable, tuple[int, int]]:
    """item -> (slot, x): a cell is (-1, cell index); a digit of unit u of family f is
    (f * n + u, 1 << digit), to be or-ed into the mask of missing digits of that slot."""
    n = t.n
    code: dict[Hashable, tuple[int, int]] = {("cell", *divmod(i, n)): (-1, i)
                                             for i in range(n * n)}
    for f, kind in enumerate(t.families):
        for u in range(n):
            for d in range(1, n + 1):
                code[(kind, u, d)] = (f * n + u, 1 << d)
    return code


def _digits_of_mask(n: int) -> Callable[[int], tuple[int, ...]]:
    """The digits of a mask (bit d for digit d), largest first; a lookup table up to 12x12."""
    if n <= 12:
        table = [tuple(d for d in range(n, 0, -1) if m >> d & 1) for m in range(2 << n)]
        return table.__getitem__

    def digits_of(m: int) -> tuple[int, ...]:
        return tuple(d for d in range(n, 0, -1) if m >> d & 1)

    return digits_of
