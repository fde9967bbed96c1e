"""Shared data and helpers of the Sudoku tests (test modules import this, never each other).

Solutions are checked by `rules_ok`, a rules checker written here from scratch
(plain loops over rows, columns and boxes): it shares no code with the encoder.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from problems import sudoku
from problems.sudoku import Grid

DATA = Path(__file__).parent / "data" / "sudoku"
#: Every search in the tests gets a budget, so a link bug fails instead of hanging.
BUDGET = 200_000

PE1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
PE1_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# Legal givens (no digit twice in a unit, every cell has a candidate), yet no solution.
IMPOSSIBLE = "..4.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
NOIP_1 = (DATA / "noip2009_1.txt").read_text()
NOIP_2 = (DATA / "noip2009_2.txt").read_text()
# Gordon Royle's 17-clue puzzles (tdoku data set 2), first lines: each has one solution and is
# minimal, since no 16-clue puzzle has a single solution (McGuire, Tugemann and Civario, 2012).
SEVENTEEN = [
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ".................1....23..........2...14....536.....7....8.......415.....7....36.",
    ".................1....23.4........2....5.......51.6..7..4.8.....2....3...8.7....5",
    ".................1....23.4......453...6.......178........1....72...5....3......9.",
]
#: A 9x9 jigsaw: the standard boxes with two cells of boxes 1, 2, 4 and 5 traded.
JIGSAW_9 = sudoku.Shape.jigsaw("""
    AAABBBCCC
    AAABBBCCC
    AADBBECCC
    DDAEEBFFF
    DDDEEEFFF
    DDDEEEFFF
    GGGHHHIII
    GGGHHHIII
    GGGHHHIII""")


# --------------------------------------------------------------------------- an independent checker


def rules_ok(values: Sequence[int], n: int = 9, box: tuple[int, int] | None = None,
             extra_units: Sequence[Sequence[tuple[int, int]]] = (),
             regions: Sequence[Any] | None = None) -> bool:
    """True when ``values`` (row-major) is a complete, valid grid.  No encoder code used."""
    values = list(values)
    if len(values) != n * n:
        return False
    digits = set(range(1, n + 1))
    groups = []
    for r in range(n):
        groups.append([values[r * n + c] for c in range(n)])
    for c in range(n):
        groups.append([values[r * n + c] for r in range(n)])
    if regions is not None:
        ids = sorted(set(regions))
        for rid in ids:
            groups.append([values[i] for i in range(n * n) if regions[i] == rid])
    else:
        br, bc = box or {4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4), 25: (5, 5)}[n]
        for r0 in range(0, n, br):
            for c0 in range(0, n, bc):
                groups.append([values[(r0 + i) * n + c0 + j] for i in range(br) for j in range(bc)])
    for cells in extra_units:
        groups.append([values[r * n + c] for r, c in cells])
    return all(sorted(g) == sorted(digits) for g in groups)


def agrees(puzzle: Sequence[int], solution: Sequence[int]) -> bool:
    """Every given of the puzzle is kept by the solution."""
    return all(p == 0 or p == s for p, s in zip(puzzle, solution, strict=True))


def data_puzzles() -> list[Grid]:
    """Every puzzle of tests/data/sudoku (read as the command reads them)."""
    grids = []
    for path in sorted(DATA.glob("*.txt")):
        grids += [e.grid for e in sudoku.read_puzzles(path.read_text()) if e.grid is not None]
    return grids


def known_unique() -> list[str]:
    """The puzzles of tests/data/sudoku/unique.txt (each has exactly one solution)."""
    lines = (DATA / "unique.txt").read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


@functools.cache
def all_4x4_latin_squares() -> tuple[tuple[int, ...], ...]:
    """Every 4x4 Latin square, row-major (brute force, independent of dlx)."""
    return tuple(_latin_squares())


def _latin_squares() -> Iterator[tuple[int, ...]]:
    rows = list(itertools.permutations(range(1, 5)))
    for a in rows:
        for b in rows:
            if any(x == y for x, y in zip(a, b, strict=True)):
                continue
            for c in rows:
                if any(x == y for x, y in zip(a, c, strict=True)) or \
                        any(x == y for x, y in zip(b, c, strict=True)):
                    continue
                d = tuple(10 - x - y - z for x, y, z in zip(a, b, c, strict=True))
                yield a + b + c + d


def rules_hold(values: Sequence[int], shape: sudoku.Shape) -> bool:
    """Every unit of ``shape`` holds distinct digits 1..N (a full grid)."""
    n = shape.size
    if sorted(set(values)) != list(range(1, n + 1)):
        return False
    for unit in shape.units:
        digits = [values[r * n + c] for r, c in unit.cells]
        if len(set(digits)) != len(digits):
            return False
    return True
