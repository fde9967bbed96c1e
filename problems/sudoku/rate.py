"""Rate a Sudoku the way a person solves it: the hardest technique it needs.

:func:`rate` solves a puzzle with human techniques, simplest first, the way
QQWing and Sudoku Explainer do: after every step it starts again from the
simplest technique, so the steps are what a careful person would do, and the
puzzle's :class:`Level` is that of the hardest technique it needed.  When no
technique applies, the rest is left to the search (the highest level), whose
:class:`dlx.Stats` say how much guessing it took.

The levels, in Sudoku Explainer's order of difficulty:

====  ==============================  ==========================================
level name                            techniques (``Step.technique``)
====  ==============================  ==========================================
0     ``SINGLES``                     ``hidden single``, ``naked single``
1     ``LOCKED_CANDIDATES``           ``pointing``, ``claiming``, ``locked candidates``
2     ``NAKED_PAIR``                  ``naked pair``
3     ``X_WING``                      ``x-wing``
4     ``HIDDEN_PAIR``                 ``hidden pair``
5     ``NAKED_TRIPLE``                ``naked triple``
6     ``SWORDFISH``                   ``swordfish``
7     ``HIDDEN_TRIPLE``               ``hidden triple``
8     ``XY_WING``                     ``xy-wing``
9     ``SEARCH``                      ``search``
====  ==============================  ==========================================

Units come from the puzzle's :class:`~problems.sudoku.Shape`, so every size,
Sudoku-X and jigsaw are rated with the same code: naked subsets and locked
candidates work in every unit, hidden singles and subsets in the units of N
cells (which must hold every digit), fish on rows and columns.

>>> r = rate("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> r.level, r.technique, len(r.steps)
(<Level.SINGLES: 0>, 'hidden single', 49)
>>> print(r.steps[0])
hidden single: 6 in box 1 goes to r2c2
>>> r.steps[0].placed
(Placement(row=1, col=1, digit=6),)

Steps beyond singles only remove candidates (``Placement`` values meaning "not
this digit here"):

>>> r = rate("043080250600000000000001094900004070000608000010200003820500000000000005034090710")
>>> r.level, r.technique
(<Level.X_WING: 3>, 'x-wing')
>>> for step in r.steps:
...     if step.technique in ("naked pair", "x-wing"):
...         print(step.text.replace("; ", ";\\n    "))
naked pair: r8c1, r8c4 hold {1, 7} in row 8, so r8c2 loses 7;
    r8c3 loses 1, 7;
    r8c5 loses 1;
    r8c6 loses 7
naked pair: r8c2, r8c3 hold {6, 9} in box 7, so r7c3 loses 6, 9
x-wing: 6 in row 1 and row 9 lies in column 6 and column 9, so r7c6, r4c9 and r7c9 lose 6

A puzzle the techniques cannot finish needs search (Arto Inkala's "hardest"):

>>> r = rate("1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1")
>>> r.level, r.technique, r.search.nodes > 0
(<Level.SEARCH: 9>, 'search', True)
>>> print(r.steps[-1])  # doctest: +ELLIPSIS
search: no technique applies; 60 cells left, solved by search (... nodes, branching at ... levels)

:func:`explain` gives the same steps (``steps=True``) beside the clashes of
illegal givens, and :meth:`Level.parse` reads a level from its number or a
name (for command lines and ``generate(level=...)``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal, overload

import dlx

from .batches import batch
from .errors import SudokuError, deadline_of
from .grid import Grid, PuzzleLike, as_grid
from .shapes import Shape
from .tables import Tables
from .techniques import TECHNIQUES, Level, Solver, Step, branch_levels, counted
from .verdicts import Clash, Verdict, is_legal
from .verdicts import explain as _clashes

__all__ = ["Level", "TECHNIQUES", "Step", "Rating", "NotUniqueError", "rate", "solve_steps",
           "explain", "layout", "unique_solution"]


class NotUniqueError(SudokuError):
    """A puzzle that is illegal, impossible or ambiguous was given where one solution is needed.

    ``verdict`` says which (:class:`~problems.sudoku.Verdict`).  It is a
    :class:`ValueError` (through :class:`dlx.ExactCoverError`).

    >>> try:
    ...     rate("." * 16)
    ... except NotUniqueError as e:
    ...     print(e)
    the puzzle has 2 or more solutions; rate needs exactly one
    """

    def __init__(self, verdict: Verdict, what: str) -> None:
        self.verdict = verdict
        reason = {
            Verdict.ILLEGAL: "the givens break a rule (sudoku.explain says which)",
            Verdict.IMPOSSIBLE: "the puzzle has no solution",
            Verdict.AMBIGUOUS: "the puzzle has 2 or more solutions",
        }.get(verdict, f"the puzzle is {verdict}")
        super().__init__(f"{reason}; {what} needs exactly one")


@dataclass(frozen=True)
class Rating:
    """What :func:`rate` found: the level, its technique, the steps and the solution.

    ``search`` holds the :class:`dlx.Stats` of the search that finished the
    puzzle (proving the rest unique) when the techniques ran out, else None; it
    takes no part in comparisons and hashing (the search step's text has its
    node count).
    """

    level: Level
    technique: str
    steps: tuple[Step, ...]
    solution: Grid
    search: dlx.Stats | None = field(default=None, compare=False)

    @property
    def guesses(self) -> int:
        """Levels at which the finishing search had to guess (0 when none was needed)."""
        return 0 if self.search is None else branch_levels(self.search)

    @property
    def counts(self) -> Counter[str]:
        """How many steps used each technique."""
        return Counter(s.technique for s in self.steps)

    def __str__(self) -> str:
        return f"level {int(self.level)} ({self.technique}), {counted(len(self.steps), 'step')}"


def layout(shape: Shape) -> Tables:
    """The tables the techniques read: the shape's own (:meth:`Shape.tables`)."""
    return shape.tables()


def unique_solution(g: Grid, what: str, deadline: dlx.Deadline | None = None) -> Grid:
    """The one solution of ``g``, or :class:`NotUniqueError` naming ``what`` needs it
    (:class:`dlx.BudgetExceeded` when the ``deadline`` passes first)."""
    if not is_legal(g):
        raise NotUniqueError(Verdict.ILLEGAL, what)
    left = None if deadline is None else deadline.remaining()
    out = batch([g], 2, shape=g.shape, timeout=left)[0]
    if out.found is None:
        raise (deadline or dlx.Deadline(None)).exceeded()
    if out.found != 1 or out.solution is None:
        verdict = Verdict.IMPOSSIBLE if not out.found else Verdict.AMBIGUOUS
        raise NotUniqueError(verdict, what)
    return Grid(out.solution, shape=g.shape)


def rate(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
         shape: Shape | None = None, timeout: float | None = None) -> Rating:
    """Solve ``puzzle`` step by step with human techniques and rate it by the hardest one.

    Parameters
    ----------
    puzzle : Grid, text or sequence of ints
        A puzzle with exactly one solution (any shape: ``box=`` or ``shape=`` as
        in :func:`~problems.sudoku.as_grid`).

    Returns
    -------
    Rating
        ``level`` (a :class:`Level`, an int: 0 singles only ... 9 search needed),
        ``technique`` (the name of the first step at that level), ``steps`` (one
        :class:`Step` per technique application, in order; when search was needed
        the last step places every remaining digit), ``solution`` and ``search``
        (the :class:`dlx.Stats` of that search, else None).

    timeout : float or None
        Seconds for the whole rating (checked before every step, and unit by unit
        or digit by digit inside the long ones); None: no limit.

    Raises
    ------
    NotUniqueError
        When the puzzle is illegal, impossible or ambiguous.
    dlx.BudgetExceeded
        When ``timeout`` runs out first (``found`` is None).

    The rating is deterministic: techniques are tried simplest first, and each
    scans the units in a fixed order (boxes, rows, columns, other units).

    >>> r = rate("1..." "..3." ".4.." "...2")
    >>> r.level, [s.text for s in r.steps][:2]
    (<Level.SINGLES: 0>, ['hidden single: 3 in box 1 goes to r1c2', \
'hidden single: 4 in box 1 goes to r2c1'])
    """
    deadline = deadline_of(timeout)
    g = as_grid(puzzle, box, shape)
    solution = unique_solution(g, "rate", deadline)
    solver = Solver(layout(g.shape), g.values, deadline)
    steps: list[Step] = []
    stats: dlx.Stats | None = None
    while 0 in solver.values:
        deadline.check()
        step = solver.next_step()
        if step is None:
            step, stats = solver.search(solution)
        steps.append(step)
        solver.apply(step)
    if not steps:
        return Rating(Level.SINGLES, "none", (), solution)
    level = max(s.level for s in steps)
    technique = next(s.technique for s in steps if s.level == level)
    return Rating(level, technique, tuple(steps), solution, stats)


def solve_steps(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
                shape: Shape | None = None, timeout: float | None = None) -> list[Step]:
    """The human solution of ``puzzle``: :func:`rate`'s steps (see there, ``timeout`` too).

    >>> for step in solve_steps("1..." "..3." ".4.." "...2")[:3]:
    ...     print(step)
    hidden single: 3 in box 1 goes to r1c2
    hidden single: 4 in box 1 goes to r2c1
    hidden single: 2 in box 1 goes to r2c2
    """
    return list(rate(puzzle, box=box, shape=shape, timeout=timeout).steps)


@overload
def explain(puzzle: PuzzleLike, *, steps: Literal[False] = False,
            box: tuple[int, int] | None = None, shape: Shape | None = None) -> list[Clash]: ...


@overload
def explain(puzzle: PuzzleLike, *, steps: bool,
            box: tuple[int, int] | None = None, shape: Shape | None = None
            ) -> list[Clash] | list[Step]: ...


def explain(puzzle: PuzzleLike, *, steps: bool = False, box: tuple[int, int] | None = None,
            shape: Shape | None = None) -> list[Clash] | list[Step]:
    """What is wrong with the givens, or, with ``steps=True``, how a person solves the puzzle.

    Without ``steps``: every digit given twice or more in one unit
    (:class:`~problems.sudoku.Clash`; empty when the givens are legal).  With
    ``steps=True``: the same clashes for illegal givens, else the human
    solution, :func:`rate`'s steps (raising :class:`NotUniqueError` when the
    puzzle has no solution or several).  Either way ``str`` of each item is
    one line for people.

    >>> for line in explain("12.." "2..." "...." "...1"):
    ...     print(line)
    digit 2 appears twice in box 1 (r1c2, r2c1)
    >>> for line in explain("1..." "..3." ".4.." "...2", steps=True)[:2]:
    ...     print(line)
    hidden single: 3 in box 1 goes to r1c2
    hidden single: 4 in box 1 goes to r2c1
    >>> explain("11" + "." * 14, steps=True) == explain("11" + "." * 14)
    True
    """
    g = as_grid(puzzle, box, shape)
    clashes = _clashes(g)
    if clashes or not steps:
        return clashes
    return list(rate(g).steps)
