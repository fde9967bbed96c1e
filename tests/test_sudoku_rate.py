"""Tests of sudoku.rate and solve_steps: levels of known puzzles, and every step sound.

A step is checked against the puzzle's unique solution (a placement agrees with
it, an elimination never removes its digit) and against the candidates the
test tracks itself (a step places on a blank cell and removes only candidates
still there); applying the steps must solve the puzzle.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sudoku_helpers import JIGSAW_9 as JIGSAW
from sudoku_helpers import PE1 as EASY
from sudoku_helpers import SEVENTEEN

import dlx
from problems import sudoku

# Norvig's easy50, line 7 (EASY, Project Euler 96's first puzzle, is its line 1).
X_WING = "043080250600000000000001094900004070000608000010200003820500000000000005034090710"
# One puzzle per level (the hardest technique its solution needs), with where it comes from.
BY_LEVEL = [
    (0, "hidden single", EASY),
    (1, "pointing",         # easy50 line 6
     "100920000524010000000000070050008102000000000402700090060000000000030945000071006"),
    (2, "naked pair",       # easy50 line 10
     "001900003900700160030005007050000009004302600200000070600100030042007006500006800"),
    (3, "x-wing", X_WING),
    (4, "hidden pair",      # top95 line 18
     "45.....3....8.1....9...........5..9.2..7.....8.........1..4..........7.2...6..8.."),
    (5, "naked triple",     # top95 line 15
     "1.....3.8.7.4..............2.3.1...........958.........5.6...7.....8.2...4......."),
    (6, "swordfish",        # made by an early version of sudoku.generate
     "..896............719..2.......5.46..8..1...9..6....7..4..21....5.9...4.1.3....5.."),
    (7, "hidden triple",    # top95 line 78
     "4...7.1....19.46.5.....1......7....2..2.3....847..6....14...8.6.2....3..6...9...."),
    (8, "xy-wing",          # top95 line 47
     "..9.....3.....9...7.....5.6..65..4.....3......28......3..75.6..6...........12.3.8"),
]
# The enjoysudoku forum's HardestDatabase110626 (tdoku data set 6), first lines.
HARDEST = [
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........",
    "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2",
    "........7..4.2.6..8.....31......29...4..9..3...95.6....1......8..6.5.2..7......6.",
    "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8",
]


def check_steps(puzzle: sudoku.Grid, rating: Any) -> None:
    """Every step sound and meaningful; the steps solve the puzzle."""
    n = puzzle.size
    solution = rating.solution
    assert solution.values == sudoku.solve(puzzle).values  # type: ignore[union-attr]
    values = list(puzzle.values)
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for unit in puzzle.shape.units:
        cells = [r * n + c for r, c in unit.cells]
        for i in cells:
            peers[i].update(cells)
    cand = [set() if v else set(range(1, n + 1)) - {values[j] for j in peers[i]}
            for i, v in enumerate(values)]
    for step in rating.steps:
        assert step.technique in sudoku.TECHNIQUES
        assert step.placed or step.eliminated
        assert str(step) == step.text and step.text.startswith(step.technique + ":")
        for r, c, d in step.placed:
            i = r * n + c
            assert solution.values[i] == d, f"{step}: wrong digit"
            assert values[i] == 0 and d in cand[i], f"{step}: not a candidate"
            values[i] = d
            cand[i] = set()
            for j in peers[i]:
                cand[j].discard(d)
        for r, c, d in step.eliminated:
            i = r * n + c
            assert solution.values[i] != d, f"{step}: removes the solution's digit"
            assert d in cand[i], f"{step}: {d} was not a candidate of r{r + 1}c{c + 1}"
            cand[i].discard(d)
    assert values == list(solution.values)
    levels = [s.level for s in rating.steps]
    assert rating.level == max(levels, default=0)
    assert (rating.level == sudoku.Level.SEARCH) == (rating.search is not None)
    if rating.level == sudoku.Level.SEARCH:
        assert [s.technique for s in rating.steps].count("search") == 1
        assert rating.steps[-1].technique == "search"


def test_easy_puzzle_needs_only_singles() -> None:
    r = sudoku.rate(EASY)
    assert r.level == sudoku.Level.SINGLES == 0
    assert r.technique == "hidden single"
    assert {s.technique for s in r.steps} <= {"hidden single", "naked single"}
    assert len(r.steps) == 49 and r.search is None and r.guesses == 0
    assert str(r) == "level 0 (hidden single), 49 steps"
    check_steps(sudoku.Grid(EASY), r)


def test_x_wing_puzzle() -> None:
    r = sudoku.rate(X_WING)
    assert r.level == sudoku.Level.X_WING == 3 and r.technique == "x-wing"
    (step,) = [s for s in r.steps if s.technique == "x-wing"]
    assert step.text == ("x-wing: 6 in row 1 and row 9 lies in column 6 and column 9, "
                         "so r7c6, r4c9 and r7c9 lose 6")
    assert step.eliminated == (sudoku.Placement(6, 5, 6), sudoku.Placement(3, 8, 6),
                               sudoku.Placement(6, 8, 6))
    assert len(step.cells) == 4 and not step.placed
    check_steps(sudoku.Grid(X_WING), r)


@pytest.mark.parametrize("level, technique, puzzle", BY_LEVEL, ids=[t for _, t, _ in BY_LEVEL])
def test_levels_of_known_puzzles(level: int, technique: str, puzzle: str) -> None:
    r = sudoku.rate(puzzle)
    assert (int(r.level), r.technique) == (level, technique)
    assert r.level.name == sudoku.Level(level).name
    assert sudoku.TECHNIQUES[technique] == level
    check_steps(sudoku.Grid(puzzle), r)


@pytest.mark.parametrize("puzzle", HARDEST)
def test_hardest_puzzles_need_search(puzzle: str) -> None:
    r = sudoku.rate(puzzle)
    assert r.level == sudoku.Level.SEARCH and r.technique == "search"
    assert isinstance(r.search, dlx.Stats)
    assert r.search.nodes > 1 and r.guesses >= 1
    last = r.steps[-1]
    assert re.fullmatch(r"search: no technique applies; \d+ cells left, solved by search "
                        r"\(\d+ nodes, branching at \d+ levels\)", last.text)
    blanks_before = sudoku.Grid(puzzle).values.count(0) - sum(len(s.placed)
                                                              for s in r.steps[:-1])
    assert len(last.placed) == blanks_before
    check_steps(sudoku.Grid(puzzle), r)


@pytest.mark.parametrize("puzzle", SEVENTEEN)
def test_seventeen_clue_puzzles_are_rated_soundly(puzzle: str) -> None:
    check_steps(sudoku.Grid(puzzle), sudoku.rate(puzzle))


def test_step_texts() -> None:
    r = sudoku.rate(BY_LEVEL[1][2])
    texts = [s.text for s in r.steps]
    for t in texts:
        assert re.fullmatch(
            r"hidden single: \d in (row|column|box) \d goes to r\dc\d"
            r"|naked single: r\dc\d can only be \d"
            r"|(pointing|claiming): \d in (row|column|box) \d lies in (row|column|box) \d, so "
            r"r\dc\d(, r\dc\d)*( and r\dc\d)? loses? \d", t), t
    assert any(t.startswith("pointing") for t in texts)


def test_rating_is_deterministic() -> None:
    for _, _, puzzle in BY_LEVEL:
        assert sudoku.rate(puzzle) == sudoku.rate(puzzle)
    a, b = sudoku.rate(HARDEST[0]), sudoku.rate(HARDEST[0])
    assert a == b and hash(a) == hash(b) and a.search == b.search


def test_solve_steps() -> None:
    assert sudoku.solve_steps(X_WING) == list(sudoku.rate(X_WING).steps)
    assert sudoku.solve_steps(sudoku.Grid(X_WING)) == list(sudoku.rate(X_WING).steps)


def test_complete_grid_and_other_inputs() -> None:
    solution = sudoku.solve(EASY)
    r = sudoku.rate(solution)
    assert r.level == 0 and r.steps == () and r.technique == "none"
    assert sudoku.rate([int(ch) for ch in EASY]).steps == sudoku.rate(EASY).steps


@pytest.mark.parametrize("puzzle, verdict", [
    ("." * 16, "AMBIGUOUS"), ("11" + "." * 14, "ILLEGAL"),
    ("12345678." + "........9" + "." * 63, "IMPOSSIBLE"),
])
def test_rate_needs_a_unique_puzzle(puzzle: str, verdict: str) -> None:
    with pytest.raises(sudoku.NotUniqueError, match="rate needs exactly one") as info:
        sudoku.rate(puzzle)
    assert isinstance(info.value, ValueError)
    error: Any = info.value
    assert error.verdict == sudoku.Verdict[verdict]


def test_explain_is_unchanged() -> None:
    clashes = sudoku.explain("11" + "." * 79)
    assert [str(c) for c in clashes] == ["digit 1 appears twice in row 1 (r1c1, r1c2)",
                                         "digit 1 appears twice in box 1 (r1c1, r1c2)"]


def test_explain_with_steps() -> None:
    assert sudoku.explain(X_WING) == [] and sudoku.explain(sudoku.Grid(X_WING)) == []
    steps = sudoku.explain(X_WING, steps=True)
    assert steps == list(sudoku.rate(X_WING).steps)
    assert any(str(s).startswith("x-wing: 6 in row 1 and row 9") for s in steps)
    illegal = "11" + "." * 79
    assert sudoku.explain(illegal, steps=True) == sudoku.explain(illegal)
    four = "1." * 8             # 1 twice in every row of a 4x4 grid
    assert sudoku.explain(four, steps=True, box=(2, 2)) == sudoku.explain(four, box=(2, 2))
    assert len(sudoku.explain(four, box=(2, 2))) == 10
    with pytest.raises(sudoku.NotUniqueError, match="has 2 or more solutions"):
        sudoku.explain("." * 16, steps=True)


@pytest.mark.parametrize("text, level", [
    (0, 0), ("9", 9), (" 3 ", 3), ("x-wing", 3), ("X_WING", 3), ("x wing", 3),
    ("Locked candidates", 1), ("pointing", 1), ("claiming", 1), ("naked  pair", 2),
    ("hidden single", 0), ("singles", 0), ("search", 9), ("xy-wing", 8),
    (sudoku.Level.SWORDFISH, 6),
])
def test_level_parse(text: int | str, level: int) -> None:
    assert sudoku.Level.parse(text) == level
    assert isinstance(sudoku.Level.parse(text), sudoku.Level)


@pytest.mark.parametrize("bad, message", [
    (10, "level must be 0..9"), (-1, "level must be 0..9"), (True, "level must be"),
    (2.0, "level must be"), ("guessing", "unknown technique 'guessing'"), ("", "unknown"),
])
def test_level_parse_errors(bad: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sudoku.Level.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("shape", [sudoku.Shape.standard(4), sudoku.Shape.standard(6),
                                   sudoku.Shape.diagonal(9), JIGSAW, sudoku.Shape.standard(12),
                                   sudoku.Shape.diagonal(6)],
                         ids=["4x4", "6x6", "X", "jigsaw", "12x12", "X6"])
def test_rate_other_shapes(shape: sudoku.Shape) -> None:
    for seed in range(3):
        p = sudoku.generate(shape, seed=seed)
        r = sudoku.rate(p)
        check_steps(p, r)
        assert r == sudoku.rate(p)


def test_rate_16x16() -> None:
    p = sudoku.generate(box=(4, 4), seed=0, givens=120, minimal=False)
    check_steps(p, sudoku.rate(p))


def test_units_of_a_jigsaw_name_regions_and_diagonals_name_themselves() -> None:
    seen = set()
    for seed in range(6):
        for s in sudoku.rate(sudoku.generate(JIGSAW, seed=seed)).steps:
            seen.update(re.findall(r"region \d", s.text))
    assert seen
    texts = [s.text for seed in range(6)
             for s in sudoku.rate(sudoku.generate(sudoku.Shape.diagonal(9), seed=seed)).steps]
    assert any("diagonal" in t for t in texts)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_generated_9x9_puzzles_are_rated_soundly(seed: int) -> None:
    p = sudoku.generate(seed=seed)
    check_steps(p, sudoku.rate(p))
