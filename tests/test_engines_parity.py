"""A selection of the engine tests, run on both engines through one parametrised fixture.

``engine`` is "python" or "c" (the latter skipped when dlx._core is not built).
Each check asserts the known answer on its engine, and ``both`` runs a view on both
engines at once, asserting the same result and the same Stats: one algorithm,
two implementations.  :func:`test_both_engines_walk_the_plain_algorithms_tree`
holds both to the set-based oracle too (``oracles.plain_tree``).
"""

from __future__ import annotations

import warnings

import pytest
from helpers import PINNED, dominoes, langford, pinned_instances, queens, toy
from hypothesis import given
from hypothesis import strategies as st
from oracles import plain_tree
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx
from dlx import engine as engines
from dlx.rules import RULES

QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]

#: dlx.first(restarts=True), seed 0: queens 8's answer and nodes, Langford 7's.
PINNED_RESTARTS = (((0, 6), (1, 1), (2, 3), (4, 7), (5, 4), (6, 2), (7, 5), (3, 0)), 34,
                   ((7, 0), (1, 2), (3, 1), (4, 6), (2, 9), (6, 3), (5, 7)), 8)
ENGINES = ("python", "c") if engines.available() else ("python",)


@pytest.fixture(params=["python", "c"])
def engine(request) -> str:
    if request.param == "c" and not engines.available():
        pytest.skip("dlx._core is not built")
    return request.param


def both(view, *args, **kwargs):
    """Run ``view`` on every engine: the same result and the same Stats on each."""
    out = {}
    for e in ENGINES:
        s = dlx.Stats()
        result = view(*args, stats=s, engine=e, **kwargs)
        if not isinstance(result, (int, tuple, type(None))):
            result = list(result)
        out[e] = (result, (s.nodes, s.updates, s.solutions, list(s.profile)))
    assert len(set(map(repr, out.values()))) == 1, f"the engines disagree: {out}"
    return out["python"][0]


@given(st.one_of(problems(), colored_problems()), st.sampled_from(["mrv", "first"]))
def test_both_engines_walk_the_plain_algorithms_tree(p, heuristic):
    """The solutions in order, the nodes and the profile of each engine are those of
    Algorithm C on Python sets (no links, no shortcuts), not only each other's."""
    want, nodes, profile = plain_tree(p, heuristic)
    got = both(dlx.solutions, p, max_nodes=BUDGET, heuristic=heuristic)
    assert got == want
    for engine in ENGINES:
        s = dlx.Stats()
        dlx.count(p, stats=s, max_nodes=BUDGET, heuristic=heuristic, engine=engine)
        assert (s.nodes, s.profile) == (nodes, profile)


@pytest.mark.parametrize("n, expected", list(enumerate(QUEENS, 1)))
def test_queens_counts(n, expected):
    assert both(dlx.count, queens(n), max_nodes=BUDGET) == expected


@pytest.mark.parametrize("n, expected", [(3, 2), (4, 2), (5, 0), (6, 0), (7, 52), (8, 300)])
def test_langford_counts(n, expected):
    assert both(dlx.count, langford(n), max_nodes=BUDGET) == expected


@pytest.mark.parametrize("rows, cols, expected", [(2, 2, 2), (4, 4, 36), (6, 6, 6728)])
def test_domino_counts(rows, cols, expected):
    assert both(dlx.count, dominoes(rows, cols), max_nodes=BUDGET) == expected


@given(st.one_of(problems(), colored_problems(), bounded_problems()), st.integers(0, 3),
       st.sampled_from(sorted(RULES)))
def test_both_engines_choose_alike_by_every_rule_and_restart_alike(p, seed, heuristic):
    """Every rule of the table, with bounds too: the same solutions, order and Stats;
    and restarts (the random rule's runs): the same answer and summed Stats."""
    both(dlx.solutions, p, max_nodes=BUDGET, heuristic=heuristic, seed=seed)
    found = both(dlx.first, p, max_nodes=BUDGET, restarts=True, seed=seed)
    assert found is None or dlx.is_exact_cover(p, found)


def test_restarts_pinned(engine):
    """Restarts on queens 8 and Langford pairs for n = 7, seed 0: pinned answers and
    nodes (a change to the rule's draws or to the runs' budgets changes them)."""
    s = dlx.Stats()
    assert dlx.first(queens(8), restarts=True, stats=s, engine=engine) == PINNED_RESTARTS[0]
    assert s.nodes == PINNED_RESTARTS[1]
    s = dlx.Stats()
    assert dlx.first(langford(7), restarts=True, stats=s, engine=engine) == PINNED_RESTARTS[2]
    assert s.nodes == PINNED_RESTARTS[3]


def test_toy_stats(engine):
    s = dlx.Stats()
    assert dlx.count(toy(), stats=s, engine=engine) == 1
    assert (s.nodes, s.updates, s.solutions, s.profile) == (6, 27, 1, [1, 2, 2, 1])
    assert dlx.first(toy(), engine=engine) == ("o4", "o5", "o1")
    assert dlx.is_unique(toy(), engine=engine)


def test_pinned_node_counts(engine):
    counts = {}
    for name, p in pinned_instances().items():
        s = dlx.Stats()
        dlx.count(p, stats=s, max_nodes=BUDGET, engine=engine)
        counts[name] = (s.nodes, s.updates)
    assert counts == PINNED


def test_queens_solutions_in_the_same_order():
    sols = both(dlx.solutions, queens(7), max_nodes=BUDGET)
    assert len(sols) == 40 and all(dlx.is_exact_cover(queens(7), s) for s in sols)


def test_heuristic_first():
    assert both(dlx.count, queens(6), heuristic="first") == 4


def test_budget_exceeded_carries_partial_results(engine):
    p = queens(8)
    with pytest.raises(dlx.BudgetExceeded) as info:
        dlx.count(p, max_nodes=300, engine=engine)
    assert 0 <= info.value.found < 92 and info.value.stats.nodes == 300
    with pytest.raises(dlx.BudgetExceeded) as info:
        list(dlx.solutions(p, max_nodes=300, engine=engine))
    assert all(dlx.is_exact_cover(p, s) for s in info.value.found)
    assert dlx.count(p, engine=engine) == 92


def test_abandoned_generator_leaves_problem_reusable(engine):
    p = queens(6)
    gen = dlx.solutions(p, engine=engine)
    first = next(gen)
    other = list(dlx.solutions(p, engine=engine))
    assert first == other[0] and len(other) == 4
    assert next(gen) == other[1]
    del gen
    assert dlx.count(p, engine=engine) == 4


def test_long_solution_needs_no_recursion(engine):
    n = 10_000
    p = dlx.ExactCover({k: [k] for k in range(n)})
    sol = dlx.first(p, max_nodes=n + 1, engine=engine)
    assert sol is not None and len(sol) == n and sorted(sol) == list(range(n))


def test_no_primary_items_has_one_empty_solution(engine):
    p = dlx.ExactCover({"x": ["s"]}, secondary=["s"])
    assert list(dlx.solutions(p, engine=engine)) == [()]


def test_best(engine):
    p = dlx.ExactCover({"x": ["a"], "y": ["b"], "z": ["c"], "xy": ["a", "b"],
                        "xyz": ["a", "b", "c"]})
    assert dlx.best(p, lambda label: 1, maximize=False, engine=engine) == (1, ("xyz",))
    assert dlx.best(p, {"x": 5, "y": 1, "z": 1, "xy": 2, "xyz": 4}, engine=engine) == \
        (7, ("z", "x", "y"))
    assert both(dlx.best, queens(8), lambda q: q[0] * q[1]) is not None


def test_colours(engine):
    red, blue = dlx.Colored("x", "red"), dlx.Colored("x", "blue")
    p = dlx.ExactCover({"a": ["a", red], "b": ["b", red], "b'": ["b", blue]}, secondary=["x"])
    assert both(dlx.solutions, p) == [("a", "b")]


def test_early_failure_stops_a_commit():
    """Choosing a covers a and hides `big` from c and the y's; committing `big` then
    covers c, which leaves b without options, and b is not in `big`: the commit stops
    there (1 + 11 updates for a, 2 for c) instead of covering the ten y's."""
    ys = [f"y{k}" for k in range(10)]
    p = dlx.ExactCover({"big": ["a", "c", *ys], "bc": ["b", "c"]},
                       primary=["a", "b", "c", *ys])
    assert both(dlx.count, p) == 0
    s = dlx.Stats()
    dlx.count(p, stats=s)
    assert (s.nodes, s.updates) == (2, 14)


@pytest.mark.parametrize("n", [60, 100, 1000])
def test_early_failure_on_long_options_agrees(n):
    """Options of many items: both engines stop (or not) at the same point, and never
    make more updates than covering everything would."""
    ys = [f"y{k}" for k in range(n)]
    p = dlx.ExactCover({"big": ["a", "c", *ys], "bc": ["b", "c"]},
                       primary=["a", "b", "c", *ys])
    assert both(dlx.count, p) == 0
    s = dlx.Stats()
    dlx.count(p, stats=s)
    assert s.nodes == 2 and s.updates <= 1 + (n + 1) + 2 + n


def _add(total: list[int], profile: list[int]) -> list[int]:
    out = total + [0] * max(0, len(profile) - len(total))
    for k, n in enumerate(profile):
        out[k] += n
    return out


@given(st.one_of(problems(), colored_problems()), st.integers(1, 40))
def test_a_stopped_search_hands_over_its_frontier(p, budget):
    """Out of budget, a search lists the subtrees it has not explored (forced-option
    tuples); searching them adds up exactly to the whole search: solutions, nodes,
    updates, profile.  The same on both engines."""
    for e in ENGINES:
        whole = dlx.Stats()
        total = dlx.count(p, stats=whole, engine=e, max_nodes=BUDGET)
        s = dlx.Stats()
        try:
            found = dlx.count(p, stats=s, max_nodes=budget, engine=e)
            assert (found, s.nodes) == (total, whole.nodes)
            continue
        except dlx.BudgetExceeded as stop:
            found, frontier = stop.found, stop.frontier
        nodes, updates, profile = s.nodes, s.updates, list(s.profile)
        for piece in frontier:
            ps = dlx.Stats()
            found += dlx.count(p, forced=piece, stats=ps, engine=e, max_nodes=BUDGET)
            nodes, updates = nodes + ps.nodes, updates + ps.updates
            profile = _add(profile, ps.profile)
        assert (found, nodes, updates) == (total, whole.nodes, whole.updates)
        assert profile[:len(whole.profile)] == whole.profile and not any(
            profile[len(whole.profile):])


@st.composite
def bounded(draw) -> dlx.ExactCover:
    p = draw(colored_problems())
    bounds = {}
    for item in p.primary:
        u = draw(st.integers(0, 2))
        bounds[item] = (u, max(1, u + draw(st.integers(0, 2))))
    return dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=bounds)


@given(bounded(), st.sampled_from([None, "first"]), st.integers(1, 60))
def test_bounds_on_both_engines(p, heuristic, budget):
    """Algorithm M: the same solutions, order and statistics on both engines, budgets
    included."""
    assert both(dlx.solutions, p, heuristic=heuristic, max_nodes=BUDGET) is not None
    assert both(dlx.count, p, heuristic=heuristic, max_nodes=BUDGET) >= 0
    outcomes = set()
    for e in ENGINES:
        s = dlx.Stats()
        try:
            n = dlx.count(p, max_nodes=budget, stats=s, engine=e)
        except dlx.BudgetExceeded as stop:
            n = ("budget", stop.found)
        outcomes.add((repr(n), s.nodes, s.updates, tuple(s.profile)))
    assert len(outcomes) == 1


def test_progress_reports_the_fraction_explored():
    """Knuth's estimate of the fraction done: rising, within [0, 1], 1.0 at the end, and
    the same on both engines at every progress call."""
    seen = {}
    for e in ENGINES:
        s = dlx.Stats()
        got: list[float] = []
        dlx.count(queens(9), engine=e, stats=s,
                  progress=lambda st, got=got: got.append(st.explored))
        seen[e] = got
        assert got == sorted(got) and all(0 < f < 1 for f in got) and s.explored == 1.0
    assert len({tuple(v) for v in seen.values()}) == 1


@given(st.one_of(problems(), colored_problems(), bounded()), st.integers(1, 30))
def test_counting_by_caching_on_both_engines(p, entries):
    """Issue 22: the core counts by caching too, with the pure engine's counts, nodes,
    updates and profile, a full cache included (it warns on both)."""
    assert both(dlx.count, p, cache=True, max_nodes=BUDGET) == dlx.count(p, max_nodes=BUDGET)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.search.CacheFullWarning)
        both(dlx.count, p, cache=entries, max_nodes=BUDGET)
    labels = [o for o in p.options if any(i in p.primary for i in p.item_names(o))]
    if labels:
        both(dlx.count, p, cache=True, forced=labels[:1], max_nodes=BUDGET)
        both(dlx.count, p, cache=True, limit=2, max_nodes=BUDGET)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_cache_warns_on_each_engine(engine):
    with pytest.warns(dlx.search.CacheFullWarning):
        assert dlx.count(dominoes(6, 6), cache=100, engine=engine) == 6728


@pytest.mark.slow
@given(bounded(), st.data(), st.integers(1, 3))
def test_branch_and_bound_under_bounds_on_both_engines(p, data, k):
    """Issue 22: the core runs best() on problems with bounds (Algorithm M; it handed
    them to the pure loop before): the same k best, in order, with the same Stats."""
    w = {label: data.draw(st.integers(-3, 6)) for label in p.options}
    both(dlx.best, p, w, k=k, max_nodes=BUDGET)
    both(dlx.best, p, w, k=k, maximize=False, max_nodes=BUDGET)
