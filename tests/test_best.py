"""Branch and bound: dlx.best against brute force, and that it prunes."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import BUDGET, bounded_problems, problems

import dlx
from dlx import engine as engines

ENGINES = ("python", "c") if engines.available() else ("python",)


def brute_best(p, w, maximize):
    scores = [sum(w[o] for o in sol) for sol in dlx.solutions(p, max_nodes=BUDGET)]
    if not scores:
        return None
    return max(scores) if maximize else min(scores)


@given(problems(), st.data(), st.booleans())
def test_best_matches_brute_force(p, data, maximize):
    w = {label: data.draw(st.integers(-5, 9)) for label in p.options}
    got = dlx.best(p, w, maximize=maximize, max_nodes=BUDGET)
    want = brute_best(p, w, maximize)
    if want is None:
        assert got is None
    else:
        score, sol = got
        assert score == want and dlx.is_exact_cover(p, sol)
        assert sum(w[o] for o in sol) == score


@pytest.mark.slow
@given(problems(colors=False), st.data())
def test_best_with_float_weights(p, data):
    w = {label: data.draw(st.floats(-3, 3, allow_nan=False)) for label in p.options}
    got = dlx.best(p, w, max_nodes=BUDGET)
    want = brute_best(p, w, True)
    if want is None:
        assert got is None
    else:
        assert got[0] == pytest.approx(want)


def small_pieces(n, m, side=2):
    """Every rectangle with sides up to ``side`` on an n x m board: many covers."""
    opts = {}
    for x in range(n):
        for y in range(m):
            for w in range(1, side + 1):
                for h in range(1, side + 1):
                    if x + w <= n and y + h <= m:
                        opts[(x, y, w, h)] = [(a, b) for a in range(x, x + w)
                                              for b in range(y, y + h)]
    return dlx.ExactCover(opts)


def test_fewest_pieces_matches_enumeration():
    p = small_pieces(4, 4)
    every = list(dlx.solutions(p, max_nodes=BUDGET))
    got = dlx.best(p, lambda k: 1, maximize=False, max_nodes=BUDGET)
    assert got == (4, got[1]) and min(map(len, every)) == 4 and dlx.is_exact_cover(p, got[1])
    area = lambda k: k[2] * k[3]  # noqa: E731
    most = max(sum(area(k) ** 2 for k in sol) for sol in every)
    assert dlx.best(p, lambda k: area(k) ** 2, max_nodes=BUDGET)[0] == most


def test_fewest_pieces_prunes_instead_of_enumerating():
    p = small_pieces(8, 8)
    with pytest.raises(dlx.BudgetExceeded):
        dlx.count(p, max_nodes=100_000)    # far too many covers to enumerate
    s = dlx.Stats()
    got = dlx.best(p, lambda k: 1, maximize=False, stats=s, max_nodes=100_000)
    assert got is not None and got[0] == 16 and dlx.is_exact_cover(p, got[1])
    assert s.nodes < 20_000


def test_bound_hook_is_used_and_respected():
    p = small_pieces(4, 4)
    calls = []

    def cells_left(state):
        calls.append(state.level)
        items = list(state.items())
        assert all(state.length(i) >= 1 for i in items)
        assert all(len(o) == 4 for i in items[:1] for o in state.options(i))
        assert len(state.chosen()) == state.level
        return (len(items) + 3) // 4    # each piece covers at most 4 cells (minimising)

    got = dlx.best(p, lambda k: 1, maximize=False, bound=cells_left, max_nodes=BUDGET)
    assert calls and got == dlx.best(p, lambda k: 1, maximize=False, max_nodes=BUDGET)


def test_best_budget_reports_best_so_far():
    p = small_pieces(8, 8)
    with pytest.raises(dlx.BudgetExceeded) as info:
        dlx.best(p, lambda k: 1, maximize=False, max_nodes=200)
    score, sol = info.value.found
    assert dlx.is_exact_cover(p, sol) and score == len(sol) > 16


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "1", None, True])
def test_bad_weights_are_errors(bad):
    p = dlx.ExactCover({"x": ["a"]})
    with pytest.raises(dlx.ExactCoverError, match="'x'"):
        dlx.best(p, {"x": bad})
    with pytest.raises(dlx.ExactCoverError, match="'x'"):
        dlx.best(p, {})


def test_best_chooses_heaviest_among_all():
    opts = {i: [i % 3, 3 + i // 3] for i in range(9)}  # 3x3 assignment problem
    p = dlx.ExactCover(opts)
    w = {i: (i * 7) % 5 for i in range(9)}
    perms = [sum(w[3 * r + c] for c, r in enumerate(perm))
             for perm in itertools.permutations(range(3))]
    assert dlx.best(p, w)[0] == max(perms)
    assert dlx.best(p, w, maximize=False)[0] == min(perms)


@st.composite
def priced(draw):
    """Small random problems with costs: ints, Fractions or floats."""
    p = draw(problems())
    kind = draw(st.sampled_from(["int", "fraction", "float"]))
    values = {"int": st.integers(0, 9), "fraction": st.fractions(0, 5, max_denominator=4),
              "float": st.floats(0, 10, allow_nan=False)}[kind]
    costs = {label: draw(values) for label in p.options}
    return dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary, costs=costs)


@given(priced(), st.integers(1, 6))
def test_the_k_cheapest_solutions_match_enumerate_and_sort(p, k):
    every = sorted(sum(p.cost(o) for o in sol) for sol in brute_force(p))
    for engine in ENGINES:
        got = dlx.best(p, k=k, engine=engine, max_nodes=BUDGET)
        if any(isinstance(c, float) for c in p.costs.values()):    # sums in another order
            assert [cost for cost, _ in got] == pytest.approx(every[:k])
        else:
            assert [cost for cost, _ in got] == every[:k]
        for cost, sol in got:
            assert dlx.is_exact_cover(p, sol)
            assert sum(p.cost(o) for o in sol) == pytest.approx(cost)


def test_exact_integer_scores_never_lose_a_better_solution():
    # a relative tolerance of 1e-9 once kept A+B (10**10) over C+D (10**10 + 5)
    p = dlx.ExactCover({"A": ["x", "s"], "C": ["x"], "B": ["y"], "D": ["y", "s"]},
                       secondary=["s"])
    w = {"A": 10**10, "B": 0, "C": 0, "D": 10**10 + 5}
    for engine in ENGINES:
        assert dlx.best(p, w, engine=engine) == (10**10 + 5, ("C", "D"))
        # 2**53 and 2**53 + 1 are the same float: ints must not be summed as floats
        w2 = {"A": 2**53, "B": 0, "C": 0, "D": 2**53 + 1}
        assert dlx.best(p, w2, engine=engine)[0] == 2**53 + 1
    # beyond 64 bits, exact on the pure engine (whatever engine= says), and no OverflowError
    assert dlx.best(p, {"A": 10**400, "B": 0, "C": 0, "D": 10**400 + 1})[0] == 10**400 + 1
    assert dlx.best(p, {"A": Fraction(1, 3), "B": Fraction(1, 3), "C": 0,
                        "D": Fraction(2, 3)}) == (Fraction(2, 3), ("A", "B"))
    with pytest.raises(dlx.ExactCoverError, match="too large"):
        dlx.best(p, {"A": 10**400, "B": 0.5, "C": 0, "D": 0})


@st.composite
def bounded_priced(draw):
    """Small random problems with bounds on primary items (Algorithm M), colours, and
    costs: ints, Fractions or floats (dyadic, so that sums in any order are exact)."""
    p = draw(bounded_problems())
    kind = draw(st.sampled_from(["int", "fraction", "float"]))
    costs = {"int": st.integers(0, 9), "fraction": st.fractions(0, 5, max_denominator=4),
             "float": st.sampled_from([0.0, -0.0, 0.5, 1.25, 3.0, 2.5])}[kind]
    weights = {"int": st.integers(-4, 9), "fraction": st.fractions(-2, 5, max_denominator=4),
               "float": st.sampled_from([0.0, -0.0, 0.5, 1.25, -0.75, 3.0, -2.5])}[kind]
    p = dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=p.bounds,
                       costs={label: draw(costs) for label in p.options})
    return p, {label: draw(weights) for label in p.options}


def ranked(p, score, maximize):
    """Every solution's score by brute force (no search), best first."""
    return sorted((score(sol) for sol in brute_force(p)), reverse=maximize)


@given(bounded_priced(), st.integers(1, 5), st.booleans())
def test_best_with_bounds_colours_and_costs_matches_brute_force(case, k, maximize):
    # issue 20: the null choice of Algorithm M (and forced options under bounds) kept a
    # stale score, so best() was wrong whenever items had bounds
    p, weight = case
    costs = sorted(map(p.cost, p.options))
    by_cost = ranked(p, lambda sol: sum(p.cost(o) for o in sol), False)
    by_weight = ranked(p, lambda sol: sum(weight[o] for o in sol), maximize)
    for engine in ENGINES:
        one = dlx.best(p, engine=engine, max_nodes=BUDGET)
        assert (one is None) == (not by_cost)
        if one is not None:
            assert one[0] == by_cost[0] and dlx.is_exact_cover(p, one[1])
            assert sum(p.cost(o) for o in one[1]) == one[0]
        several = dlx.best(p, k=k, engine=engine, max_nodes=BUDGET)
        assert [score for score, _ in several] == by_cost[:k]
        assert len({frozenset(sol) for _, sol in several}) == len(several)
        for score, sol in several:
            assert dlx.is_exact_cover(p, sol) and sum(p.cost(o) for o in sol) == score
        got = dlx.best(p, weight, k=k, maximize=maximize, engine=engine, max_nodes=BUDGET)
        assert [score for score, _ in got] == by_weight[:k]
        for score, sol in got:
            assert dlx.is_exact_cover(p, sol) and sum(weight[o] for o in sol) == score
            assert not (isinstance(score, float) and math.copysign(1, score) < 0 and score == 0)
    assert costs == sorted(map(p.cost, p.options))      # the problem is left as it was


@pytest.mark.parametrize("engine", ENGINES)
def test_best_under_bounds_the_issue_examples(engine):
    p = dlx.ExactCover({"a": ["x"], "b": ["x"]}, bounds={"x": (1, 2)}, costs={"a": 5, "b": 3})
    assert dlx.best(p, engine=engine) == (3, ("b",))
    assert dlx.best(p, k=3, engine=engine) == [(3, ("b",)), (5, ("a",)), (8, ("a", "b"))]
    assert dlx.best(p, forced=["a"], engine=engine) == (5, ("a",))
    one = dlx.ExactCover({"o": ["x"]}, bounds={"x": (1, 2)}, costs={"o": 7})
    assert dlx.best(one, engine=engine) == (7, ("o",))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_float_zero_score_is_not_negative_zero(engine):
    for cost in (0.0, -0.0):
        score, _ = dlx.best(dlx.ExactCover({"o": ["x"]}, costs={"o": cost}), engine=engine)
        assert score == 0 and math.copysign(1, score) == 1
