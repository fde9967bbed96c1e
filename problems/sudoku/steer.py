"""Puzzles of a given level: start from a puzzle known to need the technique.

Most levels are rare among random minimal puzzles.  Of 30,000 random minimal 9x9
puzzles, :func:`~problems.sudoku.rate` put 47% at level 0 (singles), 10% at 1,
3.6% at 2, 1.7% at 4, 4.5% at 8 and 33% at 9 (search), but only 0.2% at 3
(x-wing), 0.23% at 5, 0.09% at 7 and 0.02% at 6 (swordfish: 1 in 5,000).  Trying
random puzzles until one has the level takes seconds to minutes for those.

So :func:`steered` starts from a *seed*: a puzzle of the level found once by that
random search (:func:`seeds`, a dozen per level and pattern of givens, from
different grids, kept in the data file ``seeds.txt`` beside this module).  It
makes a new puzzle out of it in three moves, each of which keeps the level:

1. A random transformation of the grid that keeps every rule: new digits, rows
   swapped within a band, bands swapped, the same for columns, the transpose.
   The level is what the techniques can do, and they do the same on the moved
   grid (checked on 3,345 transformed puzzles: not one changed level).  With a
   pattern of givens (``symmetry``), only the moves that keep the pattern.
2. Givens of the solution added in random order (whole orbits with a pattern),
   each kept only if the techniques below the level still get stuck: the puzzle
   still needs its technique.
3. Givens removed in random order while the techniques up to the level still
   solve the puzzle (and so prove it unique).  Removing givens never makes a
   puzzle easier, so the level stays.

The result has exactly one solution and is *minimal for its level*: removing any
given loses uniqueness or needs a harder technique.  About half of its givens
are not those of the seed.  The level is checked once more by
:func:`~problems.sudoku.rate` before a puzzle is handed out.

>>> import random
>>> from problems import sudoku
>>> p = steered(sudoku.Shape.standard(9), 3, "none", random.Random(7))
>>> int(sudoku.rate(p).level), sudoku.count(p, limit=2)
(3, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import dlx

from .errors import SudokuFormatError
from .grid import Grid
from .rate import layout, unique_solution
from .shapes import Shape
from .symmetry import orbits
from .tables import Tables
from .techniques import Solver

__all__ = ["SEEDS_FILE", "seeds", "can_steer", "steered", "solves_within"]

#: A permutation of the 81 cells: ``p[i]`` is where cell ``i`` goes.
_Perm = tuple[int, ...]

#: Givens added (at most, in cells) before the removal pass: more makes the result
#: differ more from the seed, and costs more checks.
ADDED = 30


#: The data file of the seeds, package data beside this module: one puzzle a line,
#: ``pattern level puzzle``, and ``#`` comments that say where the puzzles come from.
SEEDS_FILE = "seeds.txt"


@cache
def seeds() -> dict[str, dict[int, tuple[str, ...]]]:
    """The seed puzzles: pattern of givens -> level -> one-line puzzles (read from
    :data:`SEEDS_FILE` on first use; also ``steer.SEEDS``).

    >>> sorted(seeds()), len(seeds()["rot180"][6])
    (['antidiagonal', 'diagonal', 'mirror', 'none', 'rot180', 'rot90'], 12)
    """
    text = resources.files("problems.sudoku").joinpath(SEEDS_FILE).read_text(encoding="ascii")
    out: dict[str, dict[int, list[str]]] = {}
    for k, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 3 or fields[0] not in _PATTERN or fields[1] not in tuple("12345678") \
                or len(fields[2]) != 81:
            raise SudokuFormatError(f"{SEEDS_FILE}, line {k}: expected 'pattern level puzzle'"
                                    " (a pattern of givens, a level 1-8, 81 cells)")
        out.setdefault(fields[0], {}).setdefault(int(fields[1]), []).append(fields[2])
    return {name: {level: tuple(p) for level, p in levels.items()}
            for name, levels in out.items()}


def __getattr__(name: str) -> Any:
    if name == "SEEDS":                 # read when first asked for, not on import
        return seeds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def can_steer(shape: Shape, symmetry: str | None, level: int) -> bool:
    """Are there seeds for puzzles of this shape, pattern and level?  (Standard 9x9.)"""
    return shape == Shape.standard(9) and level in seeds().get(symmetry or "none", {})


def solves_within(lay: Tables, values: Sequence[int], level: int,
                  deadline: dlx.Deadline | None = None) -> bool:
    """Do the techniques of ``level`` or less solve the puzzle ``values``?"""
    return Solver(lay, values, deadline).solves(level)


def steered(shape: Shape, level: int, symmetry: str | None, rng: random.Random,
            deadline: dlx.Deadline | None = None) -> Grid:
    """A new puzzle of ``level`` from one of the :func:`seeds` (see the module docstring).

    ``shape`` must be the standard 9x9 (:func:`can_steer`).  Its givens have the
    pattern ``symmetry``.  ``deadline`` is checked inside every solve.
    """
    name = symmetry or "none"
    lay = layout(shape)
    seed = Grid(rng.choice(seeds()[name][level]), shape=shape)
    moved = _moved(seed.values, _transform(name, rng), rng)
    solution = unique_solution(Grid(moved, shape=shape), "steered", deadline).values
    groups = orbits(9, symmetry)
    values = list(moved)
    blank = [o for o in groups if not values[o[0]]]
    rng.shuffle(blank)
    added = 0
    for orbit in blank:                 # 2. add givens while the level holds
        if added >= ADDED:
            break
        for i in orbit:
            values[i] = solution[i]
        if level and solves_within(lay, values, level - 1, deadline):
            for i in orbit:
                values[i] = 0
        else:
            added += len(orbit)
    given = [o for o in groups if values[o[0]]]
    rng.shuffle(given)
    for orbit in given:                 # 3. remove givens while the level holds
        for i in orbit:
            values[i] = 0
        if not solves_within(lay, values, level, deadline):
            for i in orbit:
                values[i] = solution[i]
    return Grid(values, shape=shape)


# --------------------------------------------------------------------------- moving grids


def _moved(values: Sequence[int], perm: _Perm, rng: random.Random) -> list[int]:
    """``values`` with cell ``i`` moved to ``perm[i]`` and the digits relabelled at random."""
    digits = list(range(1, 10))
    rng.shuffle(digits)
    label = [0, *digits]
    out = [0] * 81
    for i, v in enumerate(values):
        out[perm[i]] = label[v]
    return out


def _transform(symmetry: str, rng: random.Random, steps: int = 40) -> _Perm:
    """A random product of the grid's moves that keep the pattern ``symmetry``."""
    moves = _moves(symmetry)
    perm: _Perm = tuple(range(81))
    for _ in range(steps):
        move = rng.choice(moves)
        perm = tuple(move[j] for j in perm)
    return perm


def _cell_map(f: Callable[[int, int], tuple[int, int]]) -> _Perm:
    return tuple(9 * f(i // 9, i % 9)[0] + f(i // 9, i % 9)[1] for i in range(81))


_PATTERN: dict[str, Callable[[int, int], tuple[int, int]]] = {
    "none": lambda r, c: (r, c),
    "rot180": lambda r, c: (8 - r, 8 - c),
    "rot90": lambda r, c: (c, 8 - r),
    "mirror": lambda r, c: (r, 8 - c),
    "diagonal": lambda r, c: (c, r),
    "antidiagonal": lambda r, c: (8 - c, 8 - r),
}


@lru_cache(maxsize=8)
def _moves(symmetry: str) -> tuple[_Perm, ...]:
    """The moves of the 9x9 grid that keep every rule and map the orbits of ``symmetry``
    onto orbits: each elementary move (two rows of a band, two bands, the same for
    columns, the transpose) if it does, and its product with its images under the
    pattern's own map (two mirrored swaps at once) if that does."""
    def swap_rows(a: int, b: int) -> _Perm:
        return _cell_map(lambda r, c: ({a: b, b: a}.get(r, r), c))

    def swap_bands(a: int, b: int) -> _Perm:
        return _cell_map(lambda r, c: (3 * {a: b, b: a}.get(r // 3, r // 3) + r % 3, c))

    transpose = _cell_map(lambda r, c: (c, r))
    rows = [swap_rows(3 * b + i, 3 * b + j) for b in range(3) for i, j in ((0, 1), (0, 2), (1, 2))]
    rows += [swap_bands(a, b) for a, b in ((0, 1), (0, 2), (1, 2))]
    cols = [_conjugate(m, transpose) for m in rows]
    pattern = _cell_map(_PATTERN[symmetry])
    powers = [pattern]
    while powers[-1] != tuple(range(81)):
        powers.append(tuple(pattern[j] for j in powers[-1]))
    groups = orbits(9, symmetry)
    orbit_sets = {frozenset(o) for o in groups}

    def keeps(m: _Perm) -> bool:
        return all(frozenset(m[i] for i in o) in orbit_sets for o in groups)

    out: list[_Perm] = []
    for move in [*rows, *cols, transpose]:
        product = move
        for p in powers[:-1]:
            product = _product(product, _conjugate(move, p))
        for m in (move, product):
            if keeps(m) and m not in out and m != tuple(range(81)):
                out.append(m)
    return tuple(out)


def _product(a: _Perm, b: _Perm) -> _Perm:
    """First ``a``, then ``b``."""
    return tuple(b[j] for j in a)


def _conjugate(move: _Perm, by: _Perm) -> _Perm:
    """``by`` o ``move`` o ``by``^-1: the same move, seen through the map ``by``."""
    back = [0] * 81
    for i, j in enumerate(by):
        back[j] = i
    return tuple(by[move[back[i]]] for i in range(81))
