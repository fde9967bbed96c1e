"""Generate Sudoku puzzles with exactly one solution: minimal, symmetric, rated.

:func:`generate` makes a random full grid, then removes givens in a random
order (whole symmetry orbits at a time when ``symmetry`` is set) while the
puzzle keeps exactly one solution.  One pass over every cell gives a *minimal*
puzzle: no given can be taken away without a second solution appearing.  The
same ``seed`` gives the same puzzle (with the same library version), and
:func:`generate_many` makes many of them faster than one at a time.

>>> from problems import sudoku
>>> p = generate(box=(3, 3), seed=1)
>>> sudoku.count(p, limit=2), is_minimal(p)
(1, True)
>>> p == generate(box=(3, 3), seed=1)
True
>>> q = generate(box=(2, 2), seed=7, symmetry="rot180")
>>> all((v == 0) == (q.values[15 - i] == 0) for i, v in enumerate(q.values))
True
>>> [str(g) for g in generate_many(2, box=(2, 2), seed=7)] == [
...     str(generate(box=(2, 2), seed=7)), str(generate(box=(2, 2), seed=8))]
True

How a minimal puzzle is made: the full grid's options are the forced options
of the shape's full matrix (:mod:`problems.sudoku.matrix`), and
:meth:`dlx.Prepared.minimize` drops them, orbit by orbit in the random order,
while the puzzle keeps exactly one solution (:mod:`dlx.minimal` says how):

* A given that its peers force back (a naked single: every other digit is in
  its row, column or box; or a hidden single: no other cell of one of its units
  can take the digit) goes with no search at all: the puzzle has exactly the
  solutions it had.  Removing givens never makes a single appear, so the
  givens that fail this test are checked only after the whole pass.
* A given that is the last one left of an *unavoidable set* of the solution
  (cells whose digits can be rearranged into another full grid: here the cycles
  of digits between two rows of a band, or two columns of a stack) stays, with
  no search either: a unique puzzle keeps a given in each.
* The others are searched, against the puzzle as it is then: a given goes when
  no solution of the other givens puts another digit in its cell.  A given
  whose removal gives two solutions can never be removed later (fewer givens
  only allow more solutions), so one pass proves minimality.

For a 9x9 grid about 34 of the 81 givens fail the singles test, the unavoidable
sets keep about 9 of them, and the other 25 are searched, some 12 microseconds
each in the compiled core, which runs the whole pass in one call.
:func:`generate_many` makes several puzzles side by side and sends the searches
that make their full grids to the engine together (one
:meth:`dlx.Prepared.batch`); the puzzles are those :func:`generate` makes with
the same seeds.  Up to 16x16 every check finishes; from 25x25 up the last
checks of a minimal puzzle take minutes each, so by default they get a node
budget (``max_nodes``) and a given whose check runs out stays: the puzzle is
unique, but not proven minimal.

:func:`is_minimal` is the same pass over a puzzle's givens, each alone: the
puzzle is minimal when every given stays.

With ``symmetry``, minimal means that no whole orbit can be removed; a single
given of an orbit might still be (:func:`is_minimal` checks single givens).

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

import collections
import itertools
import os
import random
from collections.abc import Collection, Generator, Iterator, Sequence
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FutureTimeout
from functools import lru_cache
from operator import itemgetter
from typing import Any, Literal, NamedTuple, TypeVar, cast

import dlx

from .errors import SudokuError, _shown, deadline_of, seed_of, whole
from .grid import Grid, PuzzleLike, as_grid
from .matrix import indices, prepared
from .rate import Layout, Level, NotUniqueError, layout, rate, unique_solution
from .shapes import MAX_SIZE, Shape, _check_box, _check_shape
from .steer import can_steer, steered
from .symmetry import SYMMETRIES, orbits

__all__ = ["SYMMETRIES", "MAX_GENERATE_SIZE", "GenerateError", "generate", "generate_many",
           "minimize", "is_minimal", "random_grid", "orbits"]

#: The largest grid (N x N) :func:`generate` and :func:`random_grid` make: 25x25 (a
#: box of at most 25 cells).  See the module docstring for what bigger grids cost.
MAX_GENERATE_SIZE = 25

#: What a puzzle in the making asks the engine: forced sets (option indices of the
#: shape's full matrix), the limit and the node budget of their searches.
_Request = tuple[list[list[int]], int, "int | None"]
_T = TypeVar("_T")
#: A puzzle in the making: it yields requests and is sent back their answers.
_Steps = Generator[_Request, list[dlx.Answer], _T]


class GenerateError(SudokuError):
    """No puzzle met the request (its level or number of givens) within the tries allowed.

    It is a :class:`ValueError` (through :class:`dlx.ExactCoverError`).
    """


# --------------------------------------------------------------------------- the engine's side


def _drive(shape: Shape, tasks: Iterator[_Steps[_T]], at_once: int = 1,
           deadline: dlx.Deadline | None = None
           ) -> Iterator[tuple[int, _T | None, Exception | None]]:
    """Run puzzles in the making side by side: ``(position, result, error)`` as each ends.

    Up to ``at_once`` tasks are live.  Each round sends every live task's
    request to the engine, those with the same limit and budget in one
    :meth:`dlx.Prepared.batch`, and hands each task its answers.  A task's result
    does not depend on the others (its answers are those of its own searches),
    so a task run alone ends the same way.  A new task starts only while it is
    less than ``4 * at_once`` places ahead of the first unfinished one.  Each round's
    searches get what is left of the ``deadline``; once it has passed, this raises
    :class:`dlx.BudgetExceeded` (the live tasks are dropped).
    """
    deadline = deadline if deadline is not None else dlx.Deadline(None)
    full = prepared(shape)
    live: list[tuple[int, _Steps[_T], _Request]] = []
    started, unfinished, more = 0, 0, True
    ended: set[int] = set()

    def end(k: int) -> None:
        nonlocal unfinished
        ended.add(k)
        while unfinished in ended:
            ended.discard(unfinished)
            unfinished += 1

    def advance(k: int, task: _Steps[_T], answers: list[dlx.Answer] | None
                ) -> tuple[int, _T | None, Exception | None] | None:
        """Give task k its answers (None: start it); None while it goes on (it is live
        again), else its ``(position, result, error)``."""
        try:
            live.append((k, task, next(task) if answers is None else task.send(answers)))
            return None
        except StopIteration as stop:
            end(k)
            return k, stop.value, None
        except Exception as error:
            end(k)
            return k, None, error

    while True:
        while more and len(live) < at_once and started < unfinished + 4 * at_once:
            task = next(tasks, None)
            if task is None:
                more = False
                break
            k, started = started, started + 1
            done = advance(k, task, None)
            if done is not None:
                yield done
        if not live:
            return
        deadline.check()
        groups: dict[tuple[int, int | None], list[tuple[int, _Steps[_T], list[list[int]]]]] = {}
        for k, task, (sets, limit, budget) in live:
            groups.setdefault((limit, budget), []).append((k, task, sets))
        live = []
        for (limit, budget), asks in groups.items():
            answers = full.batch([s for _, _, sets in asks for s in sets], limit=limit,
                                 max_nodes=budget, timeout=deadline.remaining(), indices=True)
            if any(a.timed_out for a in answers):
                raise deadline.exceeded()
            at = 0
            for k, task, sets in asks:
                mine = answers[at:at + len(sets)]
                at += len(sets)
                done = advance(k, task, mine)
                if done is not None:
                    yield done


def _run(shape: Shape, task: _Steps[_T], deadline: dlx.Deadline | None = None) -> _T:
    """Run one puzzle in the making to its end (raising what it raises)."""
    for _, result, error in _drive(shape, iter([task]), 1, deadline):
        if error is not None:
            raise error
        return result  # type: ignore[return-value]
    raise AssertionError("unreachable")  # pragma: no cover


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
    return Grid(_run(shape, _random_solution(shape, rng)), shape=shape)


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


def _random_solution(shape: Shape, rng: random.Random) -> _Steps[list[int]]:
    """A random full grid: random digits in some cells, completed by the search.

    Standard grids with square boxes up to 16x16 start from the boxes on the
    diagonal, each filled with a random permutation (always completable for
    9x9); other shapes, or a start the search cannot complete within its
    budget, from an eighth of the cells with random legal digits, relabelled
    after the search."""
    lay = layout(shape)
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


# --------------------------------------------------------------------------- unavoidable sets


class _LinePair(NamedTuple):
    """Two lines, their cells in the order of the crossing lines, and their uneven units."""

    digits_one: itemgetter[Any]       # the grid's digits along each line
    digits_two: itemgetter[Any]
    one: tuple[int, ...]
    two: tuple[int, ...]
    uneven: tuple[int, ...]


class _LinePairs:
    """Pairs of parallel lines (two rows, or two columns) along which digits can be swapped.

    In a full grid, take two rows and follow the digits column by column: the
    digit above goes to the one below, which is above somewhere else, and so on
    until the cycle closes.  Swapping the two rows' digits on the columns of one
    cycle keeps every row and column legal; it keeps every other unit legal when
    the unit holds the same digits before and after (always, when the unit meets
    the two rows in the same columns, as boxes of one band do).  The swap gives
    a second full grid, so the cells of the cycle are an *unavoidable set*: a
    puzzle with a single solution has a given among them.

    Here are the pairs of lines, with the units that meet them unevenly (at most
    two: a pair with more rarely has a legal swap).
    """

    def __init__(self, lay: Layout) -> None:
        n = lay.n
        self.pairs: list[_LinePair] = []
        if "row" not in lay.line_of or "col" not in lay.line_of:
            return
        for kind, cross in (("row", "col"), ("col", "row")):
            cross_of = lay.line_of[cross]
            place = {k: j for j, k in enumerate(sorted(set(cross_of)))}   # crossing line -> j
            lines: list[tuple[int, ...]] = []
            for k, u in enumerate(lay.units):
                if u.kind != kind or not lay.full[k]:
                    continue
                along = [-1] * n
                for i in lay.unit_cells[k]:
                    along[place[cross_of[i]]] = i
                if -1 in along:     # lines that do not cross every line of the other kind
                    return
                lines.append(tuple(along))
            others = [k for k, u in enumerate(lay.units) if u.kind not in ("row", "col")]
            for a in range(len(lines)):
                for b in range(a + 1, len(lines)):
                    one, two = lines[a], lines[b]
                    uneven = tuple(k for k in others
                                   if any((one[j] in lay.unit_sets[k])
                                          != (two[j] in lay.unit_sets[k]) for j in range(n)))
                    if len(uneven) <= 2:
                        self.pairs.append(_LinePair(itemgetter(*one), itemgetter(*two), one,
                                                    two, uneven))


@lru_cache(maxsize=64)
def _line_pairs(shape: Shape) -> _LinePairs:
    return _LinePairs(layout(shape))


def _cycles(shape: Shape, solution: Sequence[int], name: Sequence[int] | None = None
            ) -> list[list[int]]:
    """The unavoidable sets of ``solution`` from the digit swaps between two lines (see
    :class:`_LinePairs`): the cells of each cycle (both lines' cells on its crossings),
    or with ``name``, ``name[cell]`` for each."""
    lay = layout(shape)
    n = lay.n
    out: list[list[int]] = []
    name = range(n * n) if name is None else name
    column = [0] * (n + 1)                  # digit -> its crossing on the first line
    crossings = range(n)
    for get_one, get_two, one, two, uneven in _line_pairs(shape).pairs:
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


def _swap_keeps(lay: Layout, solution: Sequence[int], pairs: list[tuple[int, int]],
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


def _budget(max_nodes: int | None | str, n: int) -> int | None:
    if max_nodes == "auto":
        return None if n <= 16 else 2000
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise SudokuError(f"max_nodes must be a positive whole number, None or 'auto',"
                          f" not {_shown(max_nodes)}")
    return max_nodes if not isinstance(max_nodes, str) else None


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

    def make(self, seed: int | random.Random | None, deadline: dlx.Deadline) -> _Steps[Grid]:
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
    return _run(plan.shape, plan.make(seed, deadline), deadline)


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
        return _many(plan, count, first, at_once, deadline)
    return _spread(plan, count, first, at_once, executor, chunk, deadline)


def _many(plan: _Plan, count: int | None, first: int, at_once: int,
          deadline: dlx.Deadline) -> Iterator[Grid]:
    """The puzzles of seeds ``first``, ``first + 1``, ... made ``at_once`` side by side,
    handed out in order (until the ``deadline``)."""
    numbers = range(count) if count is not None else itertools.count()
    tasks = (plan.make(first + k, deadline) for k in numbers)
    done: dict[int, tuple[Grid | None, Exception | None]] = {}
    nxt = 0
    for k, grid, error in _drive(plan.shape, tasks, at_once, deadline):
        done[k] = (grid, error)
        while nxt in done:
            grid, error = done.pop(nxt)
            nxt += 1
            if error is not None:
                raise error
            assert grid is not None
            yield grid


def _run_of(plan: _Plan, first: int, n: int, at_once: int, timeout: float | None
            ) -> tuple[list[Grid], Exception | None]:
    """A run of ``n`` puzzles in a worker (within ``timeout`` seconds of its start):
    those made, and the error that stopped it."""
    made: list[Grid] = []
    try:
        made.extend(_many(plan, n, first, at_once, dlx.Deadline(timeout)))
    except Exception as error:          # handed back, to be raised in its turn
        return made, error
    return made, None


def _spread(plan: _Plan, count: int | None, first: int, at_once: int, executor: Executor,
            chunk: int, deadline: dlx.Deadline) -> Iterator[Grid]:
    """The puzzles of :func:`_many`, made in runs of ``chunk`` by ``executor``'s workers
    (each run gets what is left of the ``deadline``, which is also how long a run's
    answer is waited for)."""
    starts = itertools.count(0, chunk) if count is None else range(0, count, chunk)
    ahead = 2 * (os.cpu_count() or 2)
    pending: collections.deque[Future[tuple[list[Grid], Exception | None]]] = \
        collections.deque()
    try:
        for start in starts:
            n = chunk if count is None else min(chunk, count - start)
            deadline.check()
            pending.append(executor.submit(_run_of, plan, first + start, n, at_once,
                                           deadline.remaining()))
            while len(pending) >= ahead:
                yield from _handed(pending.popleft(), deadline)
        while pending:
            yield from _handed(pending.popleft(), deadline)
    finally:                            # stopped early: runs not started are dropped
        for future in pending:
            future.cancel()


def _handed(future: Future[tuple[list[Grid], Exception | None]],
            deadline: dlx.Deadline) -> Iterator[Grid]:
    try:
        made, error = future.result(timeout=deadline.remaining())
    except FutureTimeout:
        raise deadline.exceeded() from None
    yield from made
    if error is not None:
        raise error


def minimize(puzzle: PuzzleLike, *, seed: int | None = None, symmetry: str | None = None,
             box: tuple[int, int] | None = None, shape: Shape | None = None,
             max_nodes: int | None | Literal["auto"] = "auto") -> Grid:
    """Remove givens from a unique puzzle, in random order, while it stays unique.

    The result is minimal (:func:`is_minimal`); ``seed`` fixes the order (None:
    a fresh random one).  With ``symmetry``, givens go in orbits (the givens of
    an orbit together), and ``max_nodes`` bounds each check, as in
    :func:`generate`.  Raises :class:`~problems.sudoku.NotUniqueError` (a
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

    One pass of :meth:`dlx.Prepared.minimize` over the givens, each alone (see
    :func:`generate` for how each is checked): it is minimal when every given
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
