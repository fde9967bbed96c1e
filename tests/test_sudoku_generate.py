"""Tests of sudoku.generate, minimize, is_minimal and random_grid.

Every generated puzzle is checked by a counter that shares no code with the
library (:func:`brute_count`, a bitmask backtracking search written here), and
its minimality by removing each given (each orbit, with a symmetry) in turn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sudoku_helpers import JIGSAW_9 as JIGSAW
from sudoku_helpers import PE1 as EASY
from sudoku_helpers import SEVENTEEN, rules_hold

import dlx
from problems import sudoku

# --------------------------------------------------------------------------- an independent oracle


def brute_count(values: Sequence[int], shape: sudoku.Shape, limit: int = 2) -> int:
    """Solutions of ``values`` on ``shape`` (up to ``limit``), by plain backtracking.

    It shares no code with the library: units from ``shape.units``, a digit
    mask per unit, and at each node the cell, or the digit of a full unit, with
    the fewest choices.
    """
    n = shape.size
    units = [[r * n + c for r, c in u.cells] for u in shape.units]
    units_of: list[list[int]] = [[] for _ in range(n * n)]
    for k, cells in enumerate(units):
        for i in cells:
            units_of[i].append(k)
    mask = [0] * len(units)
    grid = list(values)
    for k, cells in enumerate(units):
        for i in cells:
            d = grid[i]
            if d:
                if mask[k] >> d & 1:
                    return 0
                mask[k] |= 1 << d
    full = (1 << (n + 1)) - 2
    blanks = [i for i in range(n * n) if not grid[i]]

    full_units = [k for k, cells in enumerate(units) if len(cells) == n]

    def search() -> int:
        # Branch on the cell, or the (full unit, digit), with the fewest choices.
        cand = {}
        best: list[tuple[int, int]] = []
        for i in blanks:
            if not grid[i]:
                seen = 0
                for k in units_of[i]:
                    seen |= mask[k]
                free = full & ~seen
                cand[i] = free
                if not best or bin(free).count("1") < len(best):
                    best = [(i, d) for d in range(1, n + 1) if free >> d & 1]
                    if len(best) <= 1:
                        break
        if not cand:
            return 1
        if len(best) > 1:
            for k in full_units:
                for d in range(1, n + 1):
                    if not mask[k] >> d & 1:
                        spots = [(i, d) for i in units[k] if cand.get(i, 0) >> d & 1]
                        if len(spots) < len(best):
                            best = spots
        found = 0
        for i, d in best:
            grid[i] = d
            for k in units_of[i]:
                mask[k] |= 1 << d
            found += search()
            for k in units_of[i]:
                mask[k] &= ~(1 << d)
            grid[i] = 0
            if found >= limit:
                return limit
        return found

    return search()


def assert_unique_and_minimal(p: sudoku.Grid, orbits: Sequence[Sequence[int]] | None = None
                              ) -> None:
    """One solution, and two or more as soon as any given (orbit of givens) is removed."""
    shape = p.shape
    assert brute_count(p.values, shape) == 1
    n = p.size
    groups = orbits if orbits is not None else [(i,) for i in range(n * n)]
    for orbit in groups:
        cells = [i for i in orbit if p.values[i]]
        if not cells:
            continue
        less = list(p.values)
        for i in cells:
            less[i] = 0
        assert brute_count(less, shape) == 2, f"{p}: cells {cells} can go"


def assert_symmetric(p: sudoku.Grid, symmetry: str | None) -> None:
    for orbit in sudoku.orbits(p.size, symmetry):
        filled = {p.values[i] != 0 for i in orbit}
        assert len(filled) == 1, f"{p}: orbit {orbit} is half given"


# --------------------------------------------------------------------------- generate


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 42])
def test_generate_9x9_unique_minimal_reproducible(seed: int) -> None:
    p = sudoku.generate(box=(3, 3), seed=seed, minimal=True, symmetry=None)
    assert isinstance(p, sudoku.Grid)
    text = str(p)
    assert len(text) == 81 and set(text) <= set(".123456789")
    assert sudoku.count(p, limit=2) == 1
    assert_unique_and_minimal(p)
    assert sudoku.is_minimal(p)
    again = sudoku.generate(box=(3, 3), seed=seed, minimal=True, symmetry=None)
    assert str(again) == text


def test_generate_seeds_differ_and_defaults() -> None:
    puzzles = {str(sudoku.generate(seed=s)) for s in range(6)}
    assert len(puzzles) == 6
    assert sudoku.generate(seed=3) == sudoku.generate(box=(3, 3), seed=3, minimal=True)
    assert sudoku.generate(seed=3) == sudoku.generate(size=9, seed=3)
    assert sudoku.generate().clues < 40                        # seed None: some fresh puzzle


@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "mirror", "diagonal", "antidiagonal"])
def test_generate_9x9_symmetric(symmetry: str) -> None:
    p = sudoku.generate(seed=11, symmetry=symmetry)
    assert_symmetric(p, symmetry)
    assert_unique_and_minimal(p, sudoku.orbits(9, symmetry))
    assert p == sudoku.generate(seed=11, symmetry=symmetry)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), box=st.sampled_from([(2, 2), (2, 3), (3, 2)]),
       symmetry=st.sampled_from([None, "none", "rot180", "rot90", "mirror", "diagonal",
                                 "antidiagonal"]))
def test_generate_small_grids(seed: int, box: tuple[int, int], symmetry: str | None) -> None:
    p = sudoku.generate(box=box, seed=seed, symmetry=symmetry)
    assert p.box == box
    assert_symmetric(p, symmetry)
    assert_unique_and_minimal(p, sudoku.orbits(p.size, symmetry))
    assert p == sudoku.generate(box=box, seed=seed, symmetry=symmetry)


@pytest.mark.parametrize("shape", [sudoku.Shape.diagonal(9), JIGSAW, sudoku.Shape.diagonal(6),
                                   sudoku.Shape.standard(12)], ids=["X", "jigsaw", "X6", "12x12"])
@pytest.mark.slow
def test_generate_other_shapes(shape: sudoku.Shape) -> None:
    p = sudoku.generate(shape, seed=5)
    assert p.shape == shape
    assert sudoku.count(p, limit=2) == 1
    if shape.size <= 9:
        assert_unique_and_minimal(p)
    else:   # the library's own count (the brute force is slow at 12x12)
        for i, v in enumerate(p.values):
            if v:
                less = list(p.values)
                less[i] = 0
                assert sudoku.count(sudoku.Grid(less, shape=shape), limit=2) == 2
    assert sudoku.generate(shape, seed=5) == p


def test_generate_jigsaw_symmetric() -> None:
    p = sudoku.generate(JIGSAW, seed=2, symmetry="rot180")
    assert_symmetric(p, "rot180")
    assert_unique_and_minimal(p, sudoku.orbits(9, "rot180"))


def test_generate_16x16_and_25x25_with_a_givens_target() -> None:
    p = sudoku.generate(box=(4, 4), seed=1, givens=150, minimal=False)
    assert p.clues == 150 and sudoku.count(p, limit=2) == 1
    q = sudoku.generate(box=(5, 5), seed=1, givens=400, minimal=False)
    assert q.size == 25 and q.clues == 400 and sudoku.count(q, limit=2) == 1


def test_generate_givens_target() -> None:
    p = sudoku.generate(seed=4, givens=30)                     # minimal=None: not minimal
    assert p.clues == 30 and brute_count(p.values, p.shape) == 1
    p = sudoku.generate(seed=4, givens=31, symmetry="rot180")   # pairs of givens: 31 or 32
    assert p.clues in (31, 32)
    assert_symmetric(p, "rot180")
    p = sudoku.generate(seed=4, givens=5, minimal=False)        # best effort: minimal instead
    assert p.clues > 5 and sudoku.is_minimal(p)


def test_generate_minimal_with_at_most_givens() -> None:
    p = sudoku.generate(seed=0, givens=23, minimal=True)
    assert p.clues <= 23 and sudoku.is_minimal(p)
    with pytest.raises(sudoku.GenerateError, match="at most 17 givens in 2 tries"):
        sudoku.generate(seed=0, givens=17, minimal=True, tries=2)


def test_generate_by_level() -> None:
    p = sudoku.generate(seed=0, level=1)
    assert sudoku.rate(p).level == 1 and sudoku.is_minimal(p)
    p = sudoku.generate(seed=0, level="naked pair")
    assert sudoku.rate(p).technique == "naked pair"
    p = sudoku.generate(seed=0, level=[2, 3, 4])
    assert sudoku.rate(p).level in (2, 3, 4)
    with pytest.raises(sudoku.GenerateError, match=r"level 9 in 3 tries .*level 0: 3"):
        sudoku.generate(box=(2, 2), seed=0, level=9, tries=3)


@pytest.mark.parametrize("kwargs, message", [
    ({"symmetry": "spiral"}, "unknown symmetry 'spiral'"),
    ({"minimal": False}, "needs givens="),
    ({"givens": -1}, "givens must be"),
    ({"level": 10}, "level must be 0..9"),
    ({"level": "guessing"}, "unknown technique 'guessing'"),
    ({"tries": 0}, "tries must be"),
    ({"max_nodes": 0}, "max_nodes must be"),
    ({"box": (3, 3), "shape": sudoku.Shape.standard(4)}, "does not agree"),
])
def test_generate_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sudoku.generate(seed=0, **kwargs)


def test_generate_with_a_node_budget_stays_unique() -> None:
    p = sudoku.generate(box=(3, 4), seed=1, max_nodes=50)
    assert sudoku.count(p, limit=2) == 1


# --------------------------------------------------------------------------- generate_many


def test_generate_many_is_generate_with_consecutive_seeds() -> None:
    many = list(sudoku.generate_many(12, seed=100))
    assert many == [sudoku.generate(seed=100 + k) for k in range(12)]
    for at_once in (1, 5):
        assert list(sudoku.generate_many(12, seed=100, at_once=at_once)) == many
    small = list(sudoku.generate_many(6, box=(2, 3), seed=3, symmetry="rot180"))
    assert small == [sudoku.generate(box=(2, 3), seed=3 + k, symmetry="rot180")
                     for k in range(6)]
    for p in small:
        assert_unique_and_minimal(p, sudoku.orbits(6, "rot180"))


def test_generate_many_is_lazy_and_endless() -> None:
    stream = sudoku.generate_many(None, box=(2, 2), seed=1, at_once=4)
    first = [next(stream) for _ in range(9)]
    assert first == [sudoku.generate(box=(2, 2), seed=1 + k) for k in range(9)]
    assert list(sudoku.generate_many(0, seed=1)) == []
    assert len({str(p) for p in sudoku.generate_many(5)}) == 5       # seed None: fresh


def test_generate_many_by_level_and_its_errors() -> None:
    got = list(sudoku.generate_many(3, seed=0, level="pointing", at_once=2))
    assert [sudoku.rate(p).level for p in got] == [1, 1, 1]
    assert got[0] == sudoku.generate(seed=0, level=1)
    for kwargs, message in [({"count": -1}, "count must be"), ({"count": 2, "at_once": 0},
                                                                 "at_once must be"),
                            ({"count": 2, "level": "guessing"}, "unknown technique")]:
        with pytest.raises(ValueError, match=message):
            sudoku.generate_many(**kwargs)
    # a puzzle that cannot be made raises GenerateError when its turn comes
    stream = sudoku.generate_many(3, box=(2, 2), seed=0, level=9, tries=2)
    with pytest.raises(sudoku.GenerateError, match="level 9 in 2 tries"):
        next(stream)


def test_generate_many_on_an_executor() -> None:
    alone = list(sudoku.generate_many(10, seed=7))
    with ThreadPoolExecutor(2) as pool:
        assert list(sudoku.generate_many(10, seed=7, executor=pool, chunk=3)) == alone
        stream = sudoku.generate_many(None, seed=7, executor=pool, chunk=2)
        assert [next(stream) for _ in range(5)] == alone[:5]
        stream.close()
        with pytest.raises(sudoku.GenerateError, match="level 9 in 2 tries"):
            list(sudoku.generate_many(3, box=(2, 2), seed=0, level=9, tries=2, executor=pool))
    with ProcessPoolExecutor(2) as processes:
        assert list(sudoku.generate_many(10, seed=7, executor=processes, chunk=4)) == alone
    with pytest.raises(ValueError, match="chunk must be"):
        sudoku.generate_many(3, chunk=0)


# --------------------------------------------------------------------------- unavoidable sets


@pytest.mark.parametrize("shape", [sudoku.Shape.standard(9), sudoku.Shape.diagonal(9), JIGSAW,
                                   sudoku.Shape.standard(6), sudoku.Shape.standard(16)],
                         ids=["9x9", "X", "jigsaw", "6x6", "16x16"])
def test_unavoidable_sets_are_unavoidable(shape: sudoku.Shape) -> None:
    """Each set the generator uses to keep a given without a search is the set of cells
    where a second full grid differs from the solution (checked by the test's own rules),
    and each is found once."""
    from problems.sudoku.generate import _cycles

    n = shape.size
    seen = 0
    for seed in range(3):
        grid = sudoku.random_grid(shape, seed=seed)
        found = _cycles(shape, grid.values)
        sets = {frozenset(cells) for cells in found}
        assert len(sets) == len(found)
        names = [2 * i + 1 for i in range(n * n)]
        assert _cycles(shape, grid.values, names) == [[names[i] for i in c] for c in found]
        for s in sets:
            cells = sorted(s)
            assert len(cells) == len(s) and 4 <= len(cells) < 2 * n
            other = _swapped(grid, cells)
            assert other != list(grid.values) and rules_hold(other, shape)
            if n <= 9:      # the grid without the set has two solutions (and only those)
                blanked = [0 if i in cells else v for i, v in enumerate(grid.values)]
                assert brute_count(blanked, shape, limit=3) == 2
        seen += len(sets)
    assert seen > 0


def _swapped(grid: sudoku.Grid, cells: list[int]) -> list[int]:
    """The grid with the digits of ``cells`` exchanged between the two lines they lie on."""
    n = grid.size
    values = list(grid.values)
    rows = {i // n for i in cells}
    cols = {i % n for i in cells}
    if len(rows) == 2:
        a, b = sorted(rows)
        for c in cols:
            values[a * n + c], values[b * n + c] = values[b * n + c], values[a * n + c]
    else:
        assert len(cols) == 2
        a, b = sorted(cols)
        for r in rows:
            values[r * n + a], values[r * n + b] = values[r * n + b], values[r * n + a]
    return values


# --------------------------------------------------------------------------- random grids


@pytest.mark.parametrize("shape", [sudoku.Shape.standard(4), sudoku.Shape.standard(6),
                                   sudoku.Shape.standard(9), sudoku.Shape.diagonal(9), JIGSAW,
                                   sudoku.Shape.standard(16)])
def test_random_grid(shape: sudoku.Shape) -> None:
    g = sudoku.random_grid(shape, seed=9)
    assert g.is_complete() and sudoku.is_legal(g) and g.shape == shape
    assert g == sudoku.random_grid(shape, seed=9)
    distinct = len({str(sudoku.random_grid(shape, seed=s)) for s in range(5)})
    assert distinct == 5 or (shape.size == 4 and distinct >= 4)   # 4x4: only 288 grids


# --------------------------------------------------------------------------- minimize, is_minimal


def test_minimize_known_puzzle() -> None:
    solution = sudoku.solve(EASY)
    assert solution is not None
    p = sudoku.minimize(EASY, seed=1)
    assert all(v == 0 or v == e for v, e in zip(p.values, sudoku.Grid(EASY).values, strict=True))
    assert p.clues < 32
    assert_unique_and_minimal(p)
    assert sudoku.solve(p) == solution
    assert sudoku.minimize(EASY, seed=1) == p
    assert sudoku.minimize(p, seed=5) == p                      # already minimal: unchanged


def test_minimize_symmetric() -> None:
    # EASY's givens have the half-turn symmetry; minimize keeps it.
    p = sudoku.minimize(EASY, seed=2, symmetry="rot180")
    assert_symmetric(p, "rot180")
    assert_unique_and_minimal(p, sudoku.orbits(9, "rot180"))


@pytest.mark.slow
def test_minimize_full_grid_of_every_shape() -> None:
    for shape in (sudoku.Shape.standard(4), sudoku.Shape.diagonal(9), JIGSAW):
        grid = sudoku.random_grid(shape, seed=3)
        p = sudoku.minimize(grid, seed=3)
        assert_unique_and_minimal(p)


@pytest.mark.parametrize("puzzle, verdict", [
    ("." * 81, "AMBIGUOUS"),
    ("11" + "." * 79, "ILLEGAL"),
    ("12345678." + "........9" + "." * 63, "IMPOSSIBLE"),
])
def test_minimize_needs_a_unique_puzzle(puzzle: str, verdict: str) -> None:
    with pytest.raises(sudoku.NotUniqueError) as info:
        sudoku.minimize(puzzle)
    assert isinstance(info.value, ValueError)
    error: Any = info.value
    assert error.verdict == sudoku.Verdict[verdict]
    assert "minimize needs exactly one" in str(info.value)


def test_minimize_bad_text_is_a_format_error() -> None:
    with pytest.raises(sudoku.SudokuFormatError):
        sudoku.minimize("12x" + "." * 78)


def test_is_minimal_known_cases() -> None:
    for p in SEVENTEEN:
        assert sudoku.is_minimal(p)
    solution = sudoku.solve(SEVENTEEN[0])
    assert solution is not None
    extra = list(sudoku.Grid(SEVENTEEN[0]).values)
    k = extra.index(0)
    extra[k] = solution.values[k]
    assert not sudoku.is_minimal(extra)                 # 18 givens: the added one can go
    assert not sudoku.is_minimal(solution)              # a full grid
    assert not sudoku.is_minimal("." * 81)              # not unique
    assert not sudoku.is_minimal("11" + "." * 79)       # illegal
    assert not sudoku.is_minimal(EASY)                  # 32 givens, minimal ones have fewer


def test_is_minimal_with_a_budget() -> None:
    assert sudoku.is_minimal(SEVENTEEN[0], max_nodes=10**6)
    with pytest.raises(dlx.BudgetExceeded):
        sudoku.is_minimal(SEVENTEEN[0], max_nodes=30)


def test_orbits() -> None:
    assert sudoku.orbits(2, None) == ((0,), (1,), (2,), (3,))
    assert sudoku.orbits(3, "mirror") == ((0, 2), (1,), (3, 5), (4,), (6, 8), (7,))
    assert sudoku.orbits(3, "diagonal") == ((0,), (1, 3), (2, 6), (4,), (5, 7), (8,))
    for n in (4, 5, 9):
        for name in sudoku.SYMMETRIES:
            cells = sorted(i for orbit in sudoku.orbits(n, name) for i in orbit)
            assert cells == list(range(n * n))


def test_brute_count_agrees_with_the_library() -> None:
    rng = random.Random(0)
    shape = sudoku.Shape.standard(4)
    for _ in range(50):
        values = [rng.choice([0, 0, 0, 1, 2, 3, 4]) for _ in range(16)]
        assert brute_count(values, shape, limit=10**6) == sudoku.count(values)


def test_both_engines_make_the_same_puzzles(monkeypatch: pytest.MonkeyPatch) -> None:
    """dlx.Prepared.minimize runs in the core or in the pure reference (DLX_ENGINE): the
    same seeds give the same puzzles, minimal, with a symmetry, to a number of givens."""
    from dlx import engine

    made = {}
    for name in ["python", "c"] if engine.available() else ["python"]:
        monkeypatch.setenv("DLX_ENGINE", name)
        made[name] = ([str(sudoku.generate(box=(2, 3), seed=s, symmetry=sym))
                       for s in range(3) for sym in (None, "rot180")]
                      + [str(sudoku.generate(seed=4)),
                         str(sudoku.generate(seed=5, givens=36, minimal=False)),
                         str(sudoku.minimize(EASY, seed=6))])
    assert len({tuple(puzzles) for puzzles in made.values()}) == 1
    for puzzle in made["python"][-3:]:
        assert brute_count(sudoku.Grid(puzzle).values, sudoku.Grid(puzzle).shape) == 1
