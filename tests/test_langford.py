"""Langford pairs: known counts, the n mod 4 rule, every sequence checked independently."""

from __future__ import annotations

import itertools

import pytest
from strategies import BUDGET

import dlx
from problems import langford


def langford_ok(seq: tuple[int, ...]) -> bool:
    """Independent rule: each k in 1..n occurs twice, the copies k + 1 slots apart."""
    n = len(seq) // 2
    return sorted(seq) == sorted(list(range(1, n + 1)) * 2) and all(
        seq.index(k) + k + 1 < len(seq) and seq[seq.index(k) + k + 1] == k
        for k in range(1, n + 1))


def brute_force(n: int) -> set[tuple[int, ...]]:
    return {p for p in set(itertools.permutations(sorted(list(range(1, n + 1)) * 2)))
            if langford_ok(p)}


@pytest.mark.parametrize("n, expected", [(1, 0), (2, 0), (3, 2), (4, 2), (5, 0), (6, 0),
                                         (7, 52), (8, 300), (9, 0), (10, 0)])
def test_counts(n, expected):
    assert langford.count(n, max_nodes=BUDGET) == expected == langford.COUNTS[n]
    if n % 4 in (1, 2):
        assert expected == 0


@pytest.mark.parametrize("n", [3, 4])
def test_matches_brute_force(n):
    assert set(langford.solutions(n, max_nodes=BUDGET)) == brute_force(n)


@pytest.mark.parametrize("n", [7, 8])
def test_every_solution_verified_and_mirrors_paired(n):
    problem = langford.encode(n)
    labels = list(dlx.solutions(problem, max_nodes=BUDGET))
    assert all(dlx.is_exact_cover(problem, sol) for sol in labels)
    seqs = [langford.decode(sol) for sol in labels]
    assert all(langford_ok(s) and langford.is_solution(s) for s in seqs)
    assert len(set(seqs)) == len(seqs) == langford.COUNTS[n]
    assert {s[::-1] for s in seqs} == set(seqs)    # both mirror images are there


def test_first_and_shape():
    assert langford.first(3, max_nodes=BUDGET) in {(2, 3, 1, 2, 1, 3), (3, 1, 2, 1, 3, 2)}
    assert langford.first(5, max_nodes=BUDGET) is None
    p = langford.encode(4)
    assert len(p.primary) == 4 + 8 and len(p) == sum(2 * 4 - k - 1 for k in range(1, 5))
    assert p.options[langford.Pair(2, 1)] == (("num", 2), ("slot", 1), ("slot", 4))
    assert not langford.is_solution((1, 2, 1, 2)) and not langford.is_solution((1, 1))


@pytest.mark.parametrize("bad", [0, -3, 2.0, "4"])
def test_bad_n(bad):
    with pytest.raises(ValueError, match="n must be"):
        langford.encode(bad)
