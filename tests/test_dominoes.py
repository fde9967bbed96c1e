"""Domino tilings: counts against an independent transfer-matrix count, tilings checked."""

from __future__ import annotations

from functools import cache

import pytest
from strategies import BUDGET

import dlx
from problems import dominoes


def transfer_count(rows: int, cols: int) -> int:
    """Count tilings column by column over bitmask profiles (shares nothing with dlx)."""
    if rows * cols % 2:
        return 0

    @cache
    def fill(col: int, row: int, cur: int, nxt: int) -> int:
        # cur: squares of column `col` already covered; nxt: those of column col + 1
        if col == cols:
            return 1 if cur == 0 else 0
        if row == rows:
            return fill(col + 1, 0, nxt, 0)
        if cur >> row & 1:
            return fill(col, row + 1, cur, nxt)
        total = 0
        if col + 1 < cols:                                   # horizontal domino
            total += fill(col, row + 1, cur | 1 << row, nxt | 1 << row)
        if row + 1 < rows and not cur >> (row + 1) & 1:      # vertical domino
            total += fill(col, row + 2, cur | 3 << row, nxt)
        return total

    return fill(0, 0, 0, 0)


@pytest.mark.parametrize("rows, cols, expected", [(2, 2, 2), (4, 4, 36), (6, 6, 6728),
                                                  (3, 4, 11), (2, 10, 89), (1, 1, 0),
                                                  (0, 5, 1)])
def test_known_counts(rows, cols, expected):
    assert dominoes.count(rows, cols, max_nodes=BUDGET) == expected
    assert transfer_count(rows, cols) == expected


@pytest.mark.parametrize("rows", range(1, 6))
@pytest.mark.parametrize("cols", range(1, 7))
def test_counts_match_transfer_matrix(rows, cols):
    assert dominoes.count(rows, cols, max_nodes=BUDGET) == transfer_count(rows, cols)
    assert dominoes.count(cols, rows, max_nodes=BUDGET) == dominoes.count(rows, cols,
                                                                         max_nodes=BUDGET)


def independent_check(tiling, rows, cols) -> bool:
    seen = set()
    for d in tiling:
        (r1, c1), (r2, c2) = d.cells
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            return False
        for r, c in d.cells:
            if not (0 <= r < rows and 0 <= c < cols) or (r, c) in seen:
                return False
            seen.add((r, c))
    return len(seen) == rows * cols


def test_every_tiling_verified():
    problem = dominoes.encode(4, 5)
    labels = list(dlx.solutions(problem, max_nodes=BUDGET))
    assert len(labels) == transfer_count(4, 5) == 95
    assert all(dlx.is_exact_cover(problem, sol) for sol in labels)
    tilings = list(dominoes.solutions(4, 5, max_nodes=BUDGET))
    assert len(set(tilings)) == 95
    assert all(independent_check(t, 4, 5) and dominoes.is_tiling(t, 4, 5) for t in tilings)


def test_render_and_first():
    tiling = dominoes.first(2, 2, max_nodes=BUDGET)
    assert tiling is not None
    assert dominoes.render(tiling) in ("<>\n<>", "^^\nvv")
    assert dominoes.render([dominoes.Domino(0, 0, True), dominoes.Domino(0, 1, False)]) \
        == "^<>\nv.."
    assert dominoes.render([]) == ""
    assert dominoes.first(3, 3, max_nodes=BUDGET) is None
    assert not dominoes.is_tiling([dominoes.Domino(0, 0, False)], 2, 2)


@pytest.mark.parametrize("rows, cols", [(-1, 2), (2, -1), (2.5, 2), ("2", 2)])
def test_bad_sizes(rows, cols):
    with pytest.raises(ValueError, match="whole number"):
        dominoes.encode(rows, cols)
