"""Generate Sudoku puzzles with exactly one solution: minimal, symmetric, rated.

:func:`generate` makes a random full grid, then removes givens in a random
order (whole symmetry orbits at a time when ``symmetry`` is set) while the
puzzle keeps exactly one solution (:mod:`problems.sudoku.minimal` says how).
One pass over every cell gives a *minimal* puzzle: no given can be taken away
without a second solution appearing.  With ``level=``, puzzles are rated
(:func:`~problems.sudoku.rate`) until one of the level turns up, and a 9x9
puzzle of a rare level is steered toward it from a seed puzzle
(:mod:`problems.sudoku.steer`).  The same ``seed`` gives the same puzzle (with
the same library version), and :func:`generate_many` makes many of them faster
than one at a time.

>>> from problems import sudoku
>>> p = generate(box=(3, 3), seed=1)
>>> sudoku.count(p, limit=2), sudoku.is_minimal(p)
(1, True)
>>> p == generate(box=(3, 3), seed=1)
True
>>> q = generate(box=(2, 2), seed=7, symmetry="rot180")
>>> all((v == 0) == (q.values[15 - i] == 0) for i, v in enumerate(q.values))
True
>>> [str(g) for g in generate_many(2, box=(2, 2), seed=7)] == [
...     str(generate(box=(2, 2), seed=7)), str(generate(box=(2, 2), seed=8))]
True

:func:`generate_many` makes several puzzles side by side and sends the searches
that make their full grids to the engine together (one
:meth:`dlx.Prepared.batch`: :mod:`problems.sudoku.drive`); the puzzles are those
:func:`generate` makes with the same seeds.  Up to 16x16 every check of a given
finishes; from 25x25 up the last checks of a minimal puzzle take minutes each,
so by default they get a node budget (``max_nodes``) and a given whose check
runs out stays: the puzzle is unique, but not proven minimal.

Limits.  :func:`generate`, :func:`generate_many` and :func:`random_grid` make
grids up to :data:`MAX_GENERATE_SIZE` (25x25, about a second a puzzle); a bigger
box or shape raises :class:`~problems.sudoku.SudokuError` at once (measured: a
36x36 puzzle takes 2-6 s, a 49x49 35 s, and a 64x64 full grid was not done in
five minutes).  ``timeout=`` (seconds for the whole call) is checked between the
engine's searches (which get what is left of it), between tries, before each
minimizing pass and inside the rating of ``level=``: the call then raises
:class:`dlx.BudgetExceeded`.  A pass of :meth:`dlx.Prepared.minimize` cannot be
stopped part way, so the call stops once the pass in progress ends: at once for
9x9, within half a second at 25x25 (its checks have a node budget), and mostly
within a second at 16x16, whose checks have none (a few passes in a hundred take
seconds there).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator
from concurrent.futures import Executor
from functools import lru_cache
from typing import Literal

import dlx

from .drive import Steps, many, run, spread
from .errors import SudokuError, _shown, deadline_of, seed_of, whole
from .grid import Grid
from .matrix import indices
from .minimal import _budget, _minimal
from .minimal import _cycles as _cycles  # (where the tests of the unavoidable sets reach it)
from .rate import Level, rate
from .shapes import MAX_SIZE, Shape, _check_box, _check_shape
from .steer import can_steer, steered
from .symmetry import SYMMETRIES, orbits

__all__ = ["SYMMETRIES", "MAX_GENERATE_SIZE", "RANDOM_TRIES", "GenerateError", "generate",
           "generate_many", "random_grid", "orbits"]

#: The largest grid (N x N) :func:`generate` and :func:`random_grid` make: 25x25 (a
#: box of at most 25 cells).  See the module docstring for what bigger grids cost.
MAX_GENERATE_SIZE = 25

class GenerateError(SudokuError):
    """No puzzle met the request (its level or number of givens) within the tries allowed.

    It is a :class:`ValueError` (through :class:`dlx.ExactCoverError`).
    """


# --------------------------------------------------------------------------- full grids


def random_grid(shape: Shape | None = None, *, box: tuple[int, int] | None = None,
                seed: int | random.Random | None = None) -> Grid:
    """A random solved grid of ``shape`` (or ``box``; default 9x9).

    Some cells get random digits that break no rule (each box on the main
    diagonal of a standard grid with square boxes a random permutation, else an
    eighth of the cells), and the search completes them (trying again, within a
    node budget, if it cannot).  The grids are varied, but not uniformly
    distributed over all full grids.

    ``seed`` is a whole number, a :class:`random.Random` (which is used) or None;
    grids go up to :data:`MAX_GENERATE_SIZE`.

    >>> from problems import sudoku
    >>> g = random_grid(box=(2, 3), seed=3)
    >>> g.is_complete(), sudoku.is_legal(g), g == random_grid(box=(2, 3), seed=3)
    (True, True, True)
    """
    shape = _shape_of(shape, box)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed_of(seed))
    return Grid(run(shape, _random_solution(shape, rng)), shape=shape)


@lru_cache(maxsize=64)
def _diagonal_boxes(shape: Shape) -> tuple[tuple[int, ...], ...] | None:
    """The cells of the boxes on the main diagonal of a standard grid with square boxes
    (no two share a row, column or box, so any filling of them is legal), else None."""
    if shape.box is None or shape.box[0] != shape.box[1] or shape.size > 16 \
            or shape != Shape.standard(shape.size, shape.box):
        return None
    n, b = shape.size, shape.box[0]
    return tuple(tuple((k * b + r) * n + k * b + c for r in range(b) for c in range(b))
                 for k in range(n // b))


def _random_solution(shape: Shape, rng: random.Random) -> Steps[list[int]]:
    """A random full grid: random digits in some cells, completed by the search.

    Standard grids with square boxes up to 16x16 start from the boxes on the
    diagonal, each filled with a random permutation (always completable for
    9x9); other shapes, or a start the search cannot complete within its
    budget, from an eighth of the cells with random legal digits, relabelled
    after the search."""
    lay = shape.tables()
    n = lay.n
    ix = indices(shape)
    units_of = lay.units_of
    budget = 2000 * n * n
    boxes = _diagonal_boxes(shape)
    if boxes is not None:
        of = ix.of
        forced: list[int] = []                      # the boxes' cells are in cell order
        digits = list(range(1, n + 1))
        for cells in boxes:
            rng.shuffle(digits)
            forced += [of[i][d] for i, d in zip(cells, digits, strict=True)]
        (answer,) = yield [forced], 1, budget
        if answer.first is not None:
            return list(ix.values(answer.first))  # type: ignore[arg-type]
    for attempt in range(100):
        k = max(1, (n * n // 8) >> (attempt // 10))   # fewer random givens after failures
        values = [0] * (n * n)
        mask = [0] * len(lay.unit_cells)
        for i in rng.sample(range(n * n), k):
            seen = 0
            for u in units_of[i]:
                seen |= mask[u]
            free = [d for d in range(1, n + 1) if not seen >> d & 1]
            if not free:
                continue
            d = rng.choice(free)
            values[i] = d
            for u in units_of[i]:
                mask[u] |= 1 << d
        (answer,) = yield [ix.forced(values)], 1, budget
        if answer.first is not None:
            digits = list(range(1, n + 1))
            rng.shuffle(digits)
            return [digits[v - 1] for v in ix.values(answer.first)]  # type: ignore[arg-type]
    raise GenerateError(f"no full grid of {shape!r} found in 100 attempts")  # pragma: no cover


# --------------------------------------------------------------------------- what a call asks


def _shape_of(shape: Shape | None, box: tuple[int, int] | None,
              size: int | None = None) -> Shape:
    """The shape to generate: ``shape``, or the standard one of ``box`` or ``size``
    (default 9x9), checked, and at most :data:`MAX_GENERATE_SIZE`."""
    _check_shape(shape)
    if box is not None:
        box = _check_box(box, None)
    if size is not None:
        whole(size, "size", low=1, high=MAX_SIZE)
    if shape is not None:
        if box is not None and shape.box != box:
            raise SudokuError(f"box={box!r} does not agree with shape={shape!r}")
        if size is not None and shape.size != size:
            raise SudokuError(f"size={size!r} does not agree with shape={shape!r}")
    elif box is not None:
        if size is not None and box[0] * box[1] != size:
            raise SudokuError(f"box={box!r} does not agree with size={size!r}")
        shape = Shape.standard(box[0] * box[1], box)
    else:
        shape = Shape.standard(9 if size is None else size)
    n = shape.size
    if n > MAX_GENERATE_SIZE:
        raise SudokuError(f"puzzles are made up to {MAX_GENERATE_SIZE}x{MAX_GENERATE_SIZE}"
                          f" (a box of at most {MAX_GENERATE_SIZE} cells), not {n}x{n}: a"
                          " bigger grid takes seconds to minutes per puzzle")
    return shape


def _levels(level: int | str | Collection[int | str] | None) -> frozenset[int] | None:
    if level is None:
        return None
    if isinstance(level, (int, str)):
        wanted = [level]
    elif isinstance(level, (bytes, bytearray)) or not hasattr(level, "__iter__"):
        raise SudokuError(f"level must be a level (0..9 or a technique name) or a collection"
                          f" of them, not {_shown(level)}")
    else:
        wanted = list(level)
    try:
        return frozenset(int(Level.parse(x)) for x in wanted)
    except ValueError as e:
        raise SudokuError(str(e)) from None


def _options(shape: Shape | None, box: tuple[int, int] | None, size: int | None,
             givens: int | None, symmetry: str | None, minimal: bool | None,
             level: int | str | Collection[int | str] | None, tries: int,
             max_nodes: int | None | Literal["auto"]) -> _Plan:
    """Check the arguments of :func:`generate` once: what every puzzle of the call needs."""
    shape = _shape_of(shape, box, size)
    if minimal is not None and not isinstance(minimal, bool):
        raise SudokuError(f"minimal must be True, False or None, not {_shown(minimal)}")
    if minimal is None:
        minimal = givens is None
    if not minimal and givens is None:
        raise SudokuError("minimal=False needs givens= (how many givens to keep)")
    whole(givens, "givens", high=shape.size ** 2, none=True)
    whole(tries, "tries", low=1)
    return _Plan(shape, givens, minimal, _levels(level), tries, _budget(max_nodes, shape.size),
                 orbits(shape.size, symmetry), symmetry)


#: How many random puzzles :func:`generate` makes for a ``level`` before it steers
#: toward the level from a seed (:mod:`problems.sudoku.steer`), when it can.
RANDOM_TRIES = 8


class _Plan:
    """The checked arguments of a :func:`generate` call."""

    __slots__ = ("shape", "givens", "minimal", "wanted", "tries", "budget", "groups", "steer",
                 "steer_pattern")

    def __init__(self, shape: Shape, givens: int | None, minimal: bool,
                 wanted: frozenset[int] | None, tries: int, budget: int | None,
                 groups: tuple[tuple[int, ...], ...], symmetry: str | None) -> None:
        self.shape, self.givens, self.minimal, self.wanted = shape, givens, minimal, wanted
        self.tries, self.budget, self.groups = tries, budget, groups
        # the levels wanted that can be steered toward (only minimal puzzles: a steered
        # one is as small as its level allows, never a number of givens aimed at)
        self.steer = [] if wanted is None or not minimal else \
            [level for level in sorted(wanted) if can_steer(shape, symmetry, level)]
        self.steer_pattern = symmetry

    def steered(self, rng: random.Random, deadline: dlx.Deadline) -> tuple[Grid, int]:
        """A puzzle steered toward one of the levels wanted, and its level."""
        level = rng.choice(self.steer)
        try:
            puzzle = steered(self.shape, level, self.steer_pattern, rng, deadline)
            return puzzle, int(rate(puzzle, timeout=deadline.remaining()).level)
        except dlx.BudgetExceeded:
            raise deadline.exceeded() from None

    def make(self, seed: int | random.Random | None, deadline: dlx.Deadline) -> Steps[Grid]:
        """One puzzle in the making (see :func:`generate`), from ``seed``; the ``deadline``
        is checked between tries and before each long step.  With ``level``, the first
        :data:`RANDOM_TRIES` tries are random puzzles, the others steered toward the level
        when it can be (:mod:`problems.sudoku.steer`)."""
        shape, givens, wanted = self.shape, self.givens, self.wanted
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        seen: dict[int, int] = {}
        fewest = shape.size ** 2
        for attempt in range(self.tries):
            deadline.check()
            if self.steer and attempt >= RANDOM_TRIES:
                puzzle, got = self.steered(rng, deadline)
                if got in wanted and (givens is None or puzzle.clues <= givens):   # type: ignore[operator]
                    return puzzle
                seen[got] = seen.get(got, 0) + 1
                continue
            solution = yield from _random_solution(shape, rng)
            deadline.check()
            groups, key = self.groups, rng.random
            keys = [key() for _ in groups]                       # a random order
            order = [groups[k] for k in sorted(range(len(groups)), key=keys.__getitem__)]
            try:
                values, _ = _minimal(shape, solution, solution, order, self.budget,
                                     0 if self.minimal or givens is None else givens,
                                     deadline.remaining())
            except dlx.BudgetExceeded:      # minimizing ran out of the time left
                raise deadline.exceeded() from None
            puzzle = Grid._make(tuple(values), shape)
            clues = puzzle.clues
            fewest = min(fewest, clues)
            if self.minimal and givens is not None and clues > givens:
                continue
            if wanted is None:
                return puzzle
            try:
                got = int(rate(puzzle, timeout=deadline.remaining()).level)
            except dlx.BudgetExceeded:      # the rating's share of the time ran out
                raise deadline.exceeded() from None
            if got in wanted:
                return puzzle
            seen[got] = seen.get(got, 0) + 1
        n = shape.size
        if wanted is not None:
            levels = ", ".join(f"level {k}: {v}" for k, v in sorted(seen.items())) or "none rated"
            names = ", ".join(str(int(x)) for x in sorted(wanted))
            raise GenerateError(f"no {n}x{n} puzzle of level {names} in {self.tries}"
                                f" tries (seed {seed!r}; {levels}); raise tries= or ask another"
                                " level" + ("" if self.steer else
                                            " (only standard 9x9 puzzles are steered toward a"
                                            " level: other shapes are tried at random)"))
        raise GenerateError(f"no minimal {n}x{n} puzzle with at most {givens} givens in"
                            f" {self.tries} tries (seed {seed!r}; the fewest was {fewest});"
                            " raise tries= or givens=")


def generate(shape: Shape | None = None, *, box: tuple[int, int] | None = None,
             size: int | None = None, seed: int | random.Random | None = None,
             givens: int | None = None, symmetry: str | None = None,
             minimal: bool | None = None, level: int | str | Collection[int | str] | None = None,
             tries: int = 200, max_nodes: int | None | Literal["auto"] = "auto",
             timeout: float | None = None) -> Grid:
    """A random puzzle with exactly one solution.

    Parameters
    ----------
    shape, box, size : Shape, (rows, cols) or int
        The kind of grid: a :class:`~problems.sudoku.Shape` (standard, Sudoku-X,
        jigsaw, ...), or a standard grid with this box, or of this size
        (default 9x9); at most :data:`MAX_GENERATE_SIZE` (25x25).
    seed : int, random.Random or None
        The same seed gives the same puzzle; None: a fresh random one (a Random is
        used as it is).
    givens : int or None
        Without ``minimal``: stop removing givens at this many (never fewer).  It
        is best effort: a puzzle that cannot lose that many keeps more (it is
        then minimal).  With ``minimal=True``: an upper bound, so attempts go on
        (up to ``tries``) until a minimal puzzle with at most that many turns up.
    symmetry : "rot180", "rot90", "mirror", "diagonal", "antidiagonal", "none" or None
        Givens are removed in orbits, so the pattern of givens has this symmetry.
    minimal : bool or None
        True: no given (no orbit, with ``symmetry``) can be removed without
        losing uniqueness.  None (default): True unless ``givens`` is given.
    level : int, name, or a collection of them
        The :func:`~problems.sudoku.rate` level(s) wanted, as numbers, technique
        names ("x-wing" is level 3) or level names ("X_WING"; see
        :meth:`~problems.sudoku.Level.parse`); attempts go on, up to ``tries``,
        until a puzzle of such a level turns up.
    tries : int
        How many puzzles to make before giving up on ``level`` or ``givens``
        (then :class:`GenerateError`, which says what the tries gave).
    max_nodes : int, None or "auto"
        Node budget of each uniqueness check.  A given whose check runs out
        stays: the puzzle is still unique, but then perhaps not minimal.  None: no
        budget (every check finishes, the puzzle is minimal).  "auto" (default):
        no budget up to 16x16; 2,000 nodes from 25x25 up, where the last checks
        of a minimal puzzle run for minutes each (a 25x25 takes about a second,
        with some 270 givens, most of them not proven necessary).
    timeout : float or None
        Seconds for the whole call; when they run out, :class:`dlx.BudgetExceeded`
        (as soon as the step in progress ends: see the module docstring).  The
        puzzle made in time is the one made without it.

    Returns
    -------
    Grid
        The puzzle (``str`` of it is the one-line notation).

    >>> p = generate(box=(2, 2), seed=4)
    >>> print(p.pretty())
    . . | 2 .
    . 3 | . .
    ----+----
    . . | . .
    3 4 | . .
    >>> generate(seed=5, level="pointing").clues >= 17
    True
    """
    deadline = deadline_of(timeout)
    if not isinstance(seed, random.Random):
        seed_of(seed)
    plan = _options(shape, box, size, givens, symmetry, minimal, level, tries, max_nodes)
    return run(plan.shape, plan.make(seed, deadline), deadline)


def generate_many(count: int | None, shape: Shape | None = None, *,
                  box: tuple[int, int] | None = None, size: int | None = None,
                  seed: int | None = None, givens: int | None = None,
                  symmetry: str | None = None, minimal: bool | None = None,
                  level: int | str | Collection[int | str] | None = None, tries: int = 200,
                  max_nodes: int | None | Literal["auto"] = "auto",
                  at_once: int = 32, executor: Executor | None = None,
                  chunk: int = 64, timeout: float | None = None) -> Iterator[Grid]:
    """Puzzles of :func:`generate`, lazily: puzzle ``k`` (from 0) is the one
    ``generate(..., seed=seed + k)`` makes.

    ``count`` puzzles (None: without end); the other arguments are those of
    :func:`generate`, checked before the first puzzle.  ``seed`` None picks a
    fresh random starting seed.  Up to ``at_once`` puzzles are made side by
    side, their searches sent to the engine together, which is faster than one
    puzzle at a time; they come out in order, each as soon as it and those
    before it are done (so a caller can show progress).  A puzzle that cannot
    be made (see ``level`` and ``givens``) raises :class:`GenerateError` in its
    turn.

    With an ``executor`` (any :class:`concurrent.futures.Executor`: a
    ``ProcessPoolExecutor`` uses every core), runs of ``chunk`` puzzles go to
    its workers, twice as many runs as there are cores at a time; the puzzles
    and their order are the same.

    ``timeout`` is seconds from this call for all the puzzles: the puzzles made
    in time come out, then :class:`dlx.BudgetExceeded` is raised in the turn of
    the first that was not (see :func:`generate`; with an ``executor``, its
    workers stop their runs by then too).

    >>> puzzles = list(generate_many(3, box=(2, 2), seed=10))
    >>> puzzles[2] == generate(box=(2, 2), seed=12)
    True
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:
    ...     list(generate_many(3, box=(2, 2), seed=10, executor=pool, chunk=2)) == puzzles
    True
    """
    deadline = deadline_of(timeout)
    whole(count, "count", none=True)
    whole(at_once, "at_once", low=1)
    whole(chunk, "chunk", low=1)
    seed_of(seed)
    if executor is not None and not isinstance(executor, Executor):
        raise SudokuError(f"executor must be a concurrent.futures.Executor or None,"
                          f" not {_shown(executor)}")
    plan = _options(shape, box, size, givens, symmetry, minimal, level, tries, max_nodes)
    first = random.randrange(2 ** 63) if seed is None else seed
    if executor is None:
        return many(plan, count, first, at_once, deadline)
    return spread(plan, count, first, at_once, executor, chunk, deadline)
