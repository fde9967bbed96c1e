"""Minimal puzzles: givens removed while the puzzle keeps exactly one solution.

A puzzle is *minimal* when no given can go without a second solution appearing.
:func:`minimize` removes givens in a random order (whole orbits, with a pattern
of givens) while the puzzle stays unique, and :func:`is_minimal` checks one.
:func:`~problems.sudoku.generate` makes its puzzles the same way, from a random
full grid.

How givens go: the full grid's options are the forced options of the shape's
full matrix (:mod:`problems.sudoku.matrix`), and :meth:`dlx.Prepared.minimize`
drops them, orbit by orbit in the order given, while the puzzle keeps exactly
one solution (:mod:`dlx.minimal` says how):

* A given that its peers force back (a naked single: every other digit is in
  its row, column or box; or a hidden single: no other cell of one of its units
  can take the digit) goes with no search at all: the puzzle has exactly the
  solutions it had.  Removing givens never makes a single appear, so the
  givens that fail this test are checked only after the whole pass.
* A given that is the last one left of an *unavoidable set* of the solution
  (cells whose digits can be rearranged into another full grid) stays, with no
  search either: a unique puzzle keeps a given in each.
* The others are searched, against the puzzle as it is then: a given goes when
  no solution of the other givens puts another digit in its cell.  A given
  whose removal gives two solutions can never be removed later (fewer givens
  only allow more solutions), so one pass proves minimality.

For a 9x9 grid about 34 of the 81 givens fail the singles test, the unavoidable
sets keep about 9 of them, and the other 25 are searched, some 12 microseconds
each in the compiled core, which runs the whole pass in one call.

The unavoidable sets used are the cycles of digits between two parallel lines.
In a full grid, take two rows and follow the digits column by column: the digit
above goes to the one below, which is above somewhere else, and so on until the
cycle closes.  Swapping the two rows' digits on the columns of one cycle keeps
every row and column legal; it keeps every other unit legal when the unit holds
the same digits before and after (always, when the unit meets the two rows in
the same columns, as boxes of one band do).  The swap gives a second full grid,
so the cells of the cycle are an unavoidable set.  The pairs of lines, with the
units that meet them unevenly, are a table of the shape
(:attr:`~problems.sudoku.tables.Tables.line_pairs`).

:func:`is_minimal` is the same pass over a puzzle's givens, each alone: the
puzzle is minimal when every given stays.  With a pattern of givens, minimal
means that no whole orbit can be removed; a single given of an orbit might still
be (:func:`is_minimal` checks single givens).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, cast

import dlx

from .errors import SudokuError, _shown, seed_of, whole
from .grid import Grid, PuzzleLike, as_grid
from .matrix import indices, prepared
from .rate import NotUniqueError, unique_solution
from .shapes import Shape
from .symmetry import orbits
from .tables import Tables

__all__ = ["minimize", "is_minimal"]


def minimize(puzzle: PuzzleLike, *, seed: int | None = None, symmetry: str | None = None,
             box: tuple[int, int] | None = None, shape: Shape | None = None,
             max_nodes: int | None | Literal["auto"] = "auto") -> Grid:
    """Remove givens from a unique puzzle, in random order, while it stays unique.

    The result is minimal (:func:`is_minimal`); ``seed`` fixes the order (None:
    a fresh random one).  With ``symmetry``, givens go in orbits (the givens of
    an orbit together), and ``max_nodes`` bounds each check, as in
    :func:`~problems.sudoku.generate`.  Raises :class:`~problems.sudoku.NotUniqueError` (a
    ValueError) unless the puzzle has exactly one solution.

    >>> from problems import sudoku
    >>> p = minimize("1234341221434321", seed=0)
    >>> p.clues, is_minimal(p), sudoku.count(p, limit=2)
    (4, True, 1)
    """
    g = as_grid(puzzle, box, shape)
    rng = random.Random(seed_of(seed))
    groups = orbits(g.size, symmetry)
    budget = _budget(max_nodes, g.size)
    solution = unique_solution(g, "minimize")
    present = [tuple(i for i in o if g.values[i]) for o in groups]
    order = [o for o in present if o]
    rng.shuffle(order)
    values, _ = _minimal(g.shape, g.values, solution.values, order, budget)
    return Grid(values, shape=g.shape)


def is_minimal(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
               shape: Shape | None = None, max_nodes: int | None = None) -> bool:
    """True when the puzzle has one solution and loses it if any single given goes.

    One pass of :meth:`dlx.Prepared.minimize` over the givens, each alone (the
    module docstring says how each is checked): it is minimal when every given
    stays.  With ``max_nodes``, a check that runs out of budget raises
    :class:`dlx.BudgetExceeded` unless some given is known to be removable.

    >>> is_minimal("1..." "..3." ".4.." "...2"), is_minimal("12.." "..3." ".4.." "...2")
    (True, False)
    >>> is_minimal("." * 16)     # not unique
    False
    """
    g = as_grid(puzzle, box, shape)
    whole(max_nodes, "max_nodes", low=1, none=True)
    try:
        solution = unique_solution(g, "is_minimal")
    except NotUniqueError:
        return False
    # A pass that keeps every given checked each one against the whole puzzle; once one
    # goes, the puzzle was not minimal.
    cells = [(i,) for i, v in enumerate(g.values) if v]
    kept, unknown = _minimal(g.shape, g.values, solution.values, cells,
                             _budget(max_nodes, g.size))
    if len(kept) - kept.count(0) < len(cells):
        return False
    if unknown:
        raise dlx.BudgetExceeded(max_nodes or 0, None)
    return True


# --------------------------------------------------------------------------- removing givens


def _minimal(shape: Shape, values: Sequence[int], solution: Sequence[int],
             order: Sequence[tuple[int, ...]], max_nodes: int | None, keep: int = 0,
             timeout: float | None = None) -> tuple[list[int], int]:
    """The givens of the unique puzzle ``values`` (its ``solution``) left when each
    orbit of ``order`` (its cells all given) goes in turn if the puzzle stays unique
    (and keeps at least ``keep`` givens), and how many orbits stayed because their
    check ran out of ``max_nodes``: :meth:`dlx.Prepared.minimize` on the shape's full
    matrix, the givens as forced options, the cycles of the solution (:func:`_cycles`)
    as unavoidable sets.  Out of ``timeout``: :class:`dlx.BudgetExceeded`."""
    ix = indices(shape)
    option = ix.forced(solution)        # each cell's option in the solution
    unavoidable = _cycles(shape, solution, option)
    if len(order) == sum(map(len, order)):          # the givens in order, each alone
        forced, groups = [option[i] for (i,) in order], None
    else:
        forced = [option[i] for i, v in enumerate(values) if v]
        groups = [[option[i] for i in orbit] for orbit in order]
    made = prepared(shape).minimize(forced, groups=groups, unavoidable=unavoidable, keep=keep,
                                    max_nodes=max_nodes, timeout=timeout, indices=True)
    out = [0] * len(values)
    for k in cast("tuple[int, ...]", made.kept):
        out[ix.cell[k]] = ix.digit[k]
    return out, made.unknown


def _budget(max_nodes: int | None | str, n: int) -> int | None:
    """The node budget of each check: ``max_nodes``, checked; "auto": none up to 16x16,
    2,000 from 25x25 up (see :func:`~problems.sudoku.generate`)."""
    if max_nodes == "auto":
        return None if n <= 16 else 2000
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise SudokuError(f"max_nodes must be a positive whole number, None or 'auto',"
                          f" not {_shown(max_nodes)}")
    return max_nodes if not isinstance(max_nodes, str) else None


# --------------------------------------------------------------------------- unavoidable sets


def _cycles(shape: Shape, solution: Sequence[int], name: Sequence[int] | None = None
            ) -> list[list[int]]:
    """The unavoidable sets of ``solution`` from the digit swaps between two lines (see
    the module docstring): the cells of each cycle (both lines' cells on its crossings),
    or with ``name``, ``name[cell]`` for each.

    >>> from problems import sudoku
    >>> grid = sudoku.Grid("1234" "3412" "2143" "4321")
    >>> _cycles(grid.shape, grid.values)[:2]     # rows 1 and 2: 1 3 over 3 1, 2 4 over 4 2
    [[0, 2, 4, 6], [1, 3, 5, 7]]
    """
    lay = shape.tables()
    n = lay.n
    out: list[list[int]] = []
    name = range(n * n) if name is None else name
    column = [0] * (n + 1)                  # digit -> its crossing on the first line
    crossings = range(n)
    for get_one, get_two, one, two, uneven in lay.line_pairs:
        for j, x in enumerate(get_one(solution)):
            column[x] = j
        # the digit below crossing j is on the first line at crossing step[j]
        step = [column[y] for y in get_two(solution)]
        for j in crossings:
            k = step[j]
            if k < 0:                               # on a cycle already
                continue
            on = [j]
            step[j] = -1
            while k != j:
                on.append(k)
                step[k], k = -1, step[k]
            if len(on) == n:                        # both whole lines: too big to help
                break
            if uneven and not _swap_keeps(lay, solution, [(one[i], two[i]) for i in on],
                                          uneven):
                continue
            out.append([name[one[i]] for i in on] + [name[two[i]] for i in on])
    return out


def _swap_keeps(lay: Tables, solution: Sequence[int], pairs: list[tuple[int, int]],
                uneven: tuple[int, ...]) -> bool:
    """Whether each unit of ``uneven`` keeps its digits when the cells of each pair swap."""
    for k in uneven:
        inside = lay.unit_sets[k]
        before: list[int] = []
        after: list[int] = []
        for a, b in pairs:
            if a in inside:
                before.append(solution[a])
                after.append(solution[b])
            if b in inside:
                before.append(solution[b])
                after.append(solution[a])
        if sorted(before) != sorted(after):
            return False
    return True
