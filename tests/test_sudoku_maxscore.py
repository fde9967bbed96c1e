"""sudoku.max_score's own branch and bound (problems.sudoku._maxscore), checked against
independent answers: brute force on small grids (tests/test_sudoku.py has more), the
generic branch and bound of dlx.best on the exact-cover encoding, symmetry, and its
all-different filter against enumeration."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
from problems import sudoku
from problems.sudoku import _maxscore

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def by_dlx_best(puzzle, weights):
    """The best score by dlx.best on the puzzle's exact-cover encoding (generic bound)."""
    w = list(weights or sudoku.target_weights(9))
    found = dlx.best(sudoku.encode(puzzle), lambda p: w[9 * p.row + p.col] * p.digit,
                     max_nodes=2_000_000)
    return None if found is None else found[0]


@settings(deadline=None, max_examples=15)
@given(st.sets(st.integers(0, 80), min_size=20, max_size=34), st.integers(0, 3))
def test_max_score_equals_dlx_best_on_well_filled_grids(blanks, which):
    weights = [None, [1] * 81, [(i * 7) % 11 - 3 for i in range(81)],
               [float((i * 5) % 9) / 2 for i in range(81)]][which]
    puzzle = "".join("." if i in blanks else ch for i, ch in enumerate(SOLVED))
    assert sudoku.max_score(puzzle, weights) == by_dlx_best(puzzle, weights)


def rotate(puzzle: str) -> str:
    return "".join(puzzle[9 * (8 - c) + r] for r in range(9) for c in range(9))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sparse_grids_and_their_rotations(seed):
    """Grids with 8 to 16 givens (out of reach of the generic bound) finish, and the
    target weights are symmetric under rotation: a rotated grid scores the same."""
    rng = random.Random(seed)
    givens = set(rng.sample(range(81), 8 + 4 * seed))
    puzzle = "".join(ch if i in givens else "." for i, ch in enumerate(SOLVED))
    best = sudoku.max_score(puzzle)
    assert best is not None and best == sudoku.max_score(rotate(puzzle))
    assert sudoku.score(SOLVED) <= best <= 2906


def test_the_empty_grid():
    stats = dlx.Stats()
    assert sudoku.max_score("." * 81, stats=stats) == 2906       # NOIP 2009's known answer
    assert 0 < stats.nodes < 100_000


def test_a_node_budget_hands_over_the_best_so_far():
    with pytest.raises(dlx.BudgetExceeded) as info:
        sudoku.max_score("." * 81, max_nodes=3)
    found = info.value.found
    if found is not None:
        score, placements = found
        grid = [0] * 81
        for p in placements:
            grid[9 * p.row + p.col] = p.digit
        assert sudoku.count(grid) == 1 and sudoku.score(grid) == score


@settings(deadline=None, max_examples=200)
@given(st.integers(1, 6).flatmap(lambda d: st.tuples(
    st.just(d), st.lists(st.integers(1, (1 << d) - 1), min_size=1, max_size=d))))
def test_the_all_different_filter_keeps_exactly_the_digits_of_some_matching(case):
    digits, masks = case
    keep, found = [0] * len(masks), False
    for perm in itertools.permutations(range(digits), len(masks)):
        if all(m >> d & 1 for m, d in zip(masks, perm, strict=True)):
            found = True
            for j, d in enumerate(perm):
                keep[j] |= 1 << d
    assert _maxscore._alldifferent(masks) == (keep if found else None)
    assert _maxscore._matchable(masks) == found
