"""The search loop and its views, against a brute-force oracle and the reference engine."""

from __future__ import annotations

import itertools

import pytest
from conftest import BUDGET, colored_problems, problems
from hypothesis import given
from hypothesis import strategies as st

import dlx
from dlx.links import Links
from dlx.reference import reference_solutions
from dlx.search import run

TOY = {"o1": ["c", "e"], "o2": ["a", "d", "g"], "o3": ["b", "c", "f"],
       "o4": ["a", "d", "f"], "o5": ["b", "g"], "o6": ["d", "e", "g"]}


def toy() -> dlx.ExactCover:
    return dlx.ExactCover(TOY, primary="a b c d e f g".split())


def brute_force(problem: dlx.ExactCover) -> set[frozenset]:
    """Every subset of options that is an exact cover (checked by dlx.verify)."""
    labels = list(problem.options)
    out = set()
    for r in range(len(labels) + 1):
        for combo in itertools.combinations(labels, r):
            # options without a primary item can never be chosen by Algorithm X
            if any(not any(i in problem.primary for i in problem.item_names(c)) for c in combo):
                continue
            if dlx.is_exact_cover(problem, combo):
                out.add(frozenset(combo))
    return out


def test_toy_problem_views():
    p = toy()
    assert dlx.first(p) == ("o2", "o5", "o1") or set(dlx.first(p)) == {"o1", "o4", "o5"}
    assert set(dlx.first(p)) == {"o1", "o4", "o5"}
    assert dlx.count(p) == 1
    assert dlx.is_unique(p)
    sols = list(dlx.solutions(p, limit=5))
    assert len(sols) == 1 and dlx.is_exact_cover(p, sols[0])


def test_toy_node_and_update_counts():
    # Pinned: a heuristic regression (say, choosing the longest item) changes these.
    s = dlx.Stats()
    assert dlx.count(toy(), stats=s) == 1
    assert (s.nodes, s.updates, s.solutions, s.profile) == (6, 27, 1, [1, 2, 2, 1])


@given(problems())
def test_solutions_match_brute_force(p):
    got = list(dlx.solutions(p, max_nodes=BUDGET))
    assert len(got) == len(set(map(frozenset, got))), "a solution was reported twice"
    for sol in got:
        assert dlx.why_not(p, sol) is None
    assert set(map(frozenset, got)) == brute_force(p)
    assert dlx.count(p, max_nodes=BUDGET) == len(got)
    assert set(map(frozenset, got)) == set(reference_solutions(p))


@given(colored_problems())
def test_colours_match_brute_force(p):
    got = list(dlx.solutions(p, max_nodes=BUDGET))
    for sol in got:
        assert dlx.why_not(p, sol) is None
    assert sorted(map(sorted, got)) == sorted(map(sorted, brute_force(p)))
    assert set(map(frozenset, got)) == set(reference_solutions(p))


@given(colored_problems(), st.integers(0, 80))
def test_colours_links_restored_after_stopping_anywhere(p, stop_after):
    links = Links.build(p)
    before = links.snapshot()
    search = run(links, "trace", max_nodes=BUDGET)
    for k, _event in enumerate(search):
        links.check()
        if k == stop_after:
            break
    search.close()
    assert links.snapshot() == before


def test_colour_regression_purified_item_is_not_covered_again():
    p = dlx.ExactCover({1: ["a", dlx.Colored("x", "red")], 2: ["b", dlx.Colored("x", "red")],
                        3: ["b", dlx.Colored("x", "blue")]}, secondary=["x"])
    assert list(dlx.solutions(p)) == [(1, 2)]


@given(problems(), st.integers(1, 4))
def test_limit_and_first(p, limit):
    every = list(dlx.solutions(p, max_nodes=BUDGET))
    assert list(dlx.solutions(p, limit=limit, max_nodes=BUDGET)) == every[:limit]
    assert dlx.count(p, limit=limit, max_nodes=BUDGET) == min(limit, len(every))
    assert dlx.first(p, max_nodes=BUDGET) == (every[0] if every else None)
    assert dlx.is_unique(p, max_nodes=BUDGET) == (len(every) == 1)


@st.composite
def uniform_problems(draw, size: int | None = None) -> dlx.ExactCover:
    """Every option has the same number of items (``size`` if given), all primary: the
    leanest fast path (with four items, Sudoku's shape, its unrolled variant)."""
    prim = [f"p{k}" for k in range(draw(st.integers(size or 1, 8)))]
    if size is None:
        size = draw(st.integers(1, min(4, len(prim))))
    options = {f"o{o}": draw(st.lists(st.sampled_from(prim), unique=True, min_size=size,
                                      max_size=size))
               for o in range(draw(st.integers(0, 14)))}
    return dlx.ExactCover(options, primary=prim)


@given(st.one_of(problems(), uniform_problems(size=4)))
def test_links_restored_after_full_search(p):
    links = Links.build(p)
    before = links.snapshot()
    for _ in run(links, "solutions", max_nodes=BUDGET):
        links.check()
    assert links.snapshot() == before
    links.check()


@given(problems(), st.integers(0, 60))
def test_links_restored_after_stopping_anywhere(p, stop_after):
    """Close a trace after any number of events: the unwinding restores every link."""
    links = Links.build(p)
    before = links.snapshot()
    search = run(links, "trace", max_nodes=BUDGET)
    for k, _event in enumerate(search):
        links.check()  # consistent at every pause
        if k == stop_after:
            break
    search.close()
    assert links.snapshot() == before


@given(st.one_of(problems(), uniform_problems(size=4)), st.integers(1, 30))
def test_budget_stop_restores_links_and_reports_partial(p, budget):
    links = Links.build(p)
    before = links.snapshot()
    stats = dlx.Stats()
    try:
        n = sum(1 for _ in run(links, "count", max_nodes=budget, stats=stats))
    except dlx.BudgetExceeded:
        assert stats.nodes == budget
    else:
        assert stats.nodes <= budget
        assert n == dlx.count(p, max_nodes=BUDGET)
    assert links.snapshot() == before


def test_budget_exceeded_carries_partial_results():
    p = queens(8)
    with pytest.raises(dlx.BudgetExceeded) as info:
        dlx.count(p, max_nodes=300)
    assert 0 <= info.value.found < 92 and info.value.stats.nodes == 300
    with pytest.raises(dlx.BudgetExceeded) as info:
        list(dlx.solutions(p, max_nodes=300))
    assert all(dlx.is_exact_cover(p, s) for s in info.value.found)
    # "no solution" and "unknown" are never confused: the problem is still fine
    assert dlx.count(p) == 92


def test_abandoned_generator_leaves_problem_reusable():
    p = queens(6)
    gen = dlx.solutions(p)
    first = next(gen)
    other = list(dlx.solutions(p))          # a second search while the first is paused
    assert first == other[0] and len(other) == 4
    assert next(gen) == other[1]
    del gen
    assert dlx.count(p) == 4


def test_interleaved_generators_are_independent():
    p = queens(8)
    a, b = dlx.solutions(p), dlx.solutions(p)
    got_a, got_b = [], []
    for x, y in zip(a, b, strict=True):
        got_a.append(x)
        got_b.append(y)
    assert len(got_a) == len(got_b) == 92 and got_a == got_b


def test_progress_callback_can_stop_cleanly():
    p = queens(9)
    calls = []

    def progress(stats):
        calls.append(stats.nodes)
        raise KeyboardInterrupt

    links = Links.build(p)
    before = links.snapshot()
    with pytest.raises(KeyboardInterrupt):
        for _ in run(links, "count", progress=progress):
            pass
    assert calls == [dlx.search.PROGRESS_EVERY]
    assert links.snapshot() == before


def queens(n: int) -> dlx.ExactCover:
    opts = {(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
            for r in range(n) for c in range(n)}
    sec = [("up", k) for k in range(2 * n - 1)] + [("down", k) for k in range(-n + 1, n)]
    return dlx.ExactCover(opts, secondary=sec)


@pytest.mark.parametrize("n, expected", list(enumerate([1, 0, 0, 2, 10, 4, 40, 92, 352, 724], 1)))
def test_queens_counts(n, expected):
    p = queens(n)
    assert dlx.count(p, max_nodes=BUDGET) == expected


def test_queens_solutions_verified():
    p = queens(7)
    sols = list(dlx.solutions(p, max_nodes=BUDGET))
    assert len(sols) == 40 and all(dlx.is_exact_cover(p, s) for s in sols)


def langford(n: int) -> dlx.ExactCover:
    return dlx.ExactCover({(k, j): [("num", k), ("slot", j), ("slot", j + k + 1)]
                           for k in range(1, n + 1) for j in range(2 * n - k - 1)})


@pytest.mark.parametrize("n, expected", [(3, 2), (4, 2), (5, 0), (6, 0), (7, 52), (8, 300)])
def test_langford_counts(n, expected):
    assert dlx.count(langford(n), max_nodes=BUDGET) == expected


def dominoes(rows: int, cols: int) -> dlx.ExactCover:
    opts = {}
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                opts[(r, c, "h")] = [(r, c), (r, c + 1)]
            if r + 1 < rows:
                opts[(r, c, "v")] = [(r, c), (r + 1, c)]
    return dlx.ExactCover(opts)


@pytest.mark.parametrize("rows, cols, expected", [(2, 2, 2), (4, 4, 36), (6, 6, 6728)])
def test_domino_counts(rows, cols, expected):
    assert dlx.count(dominoes(rows, cols), max_nodes=BUDGET) == expected


def test_pinned_node_counts():
    # Node counts for fixed instances catch heuristic regressions.
    counts = {}
    for name, p in [("queens8", queens(8)), ("langford7", langford(7)),
                    ("dominoes4x4", dominoes(4, 4))]:
        s = dlx.Stats()
        dlx.count(p, stats=s, max_nodes=BUDGET)
        counts[name] = (s.nodes, s.updates)
    assert counts == PINNED


PINNED = {"queens8": (1174, 19732), "langford7": (608, 7866), "dominoes4x4": (133, 489)}


def test_long_solution_needs_no_recursion():
    # 10,000 options in every solution: a recursive search would hit the limit at 1,000.
    n = 10_000
    p = dlx.ExactCover({k: [k] for k in range(n)})
    sol = dlx.first(p, max_nodes=n + 1)
    assert sol is not None and len(sol) == n and sorted(sol) == list(range(n))
    chain = dlx.ExactCover({("pair", k): [k, k + 1] for k in range(0, 2 * n, 2)})
    assert dlx.count(chain) == 1


def test_no_primary_items_has_one_empty_solution():
    p = dlx.ExactCover({"x": ["s"]}, secondary=["s"])
    assert list(dlx.solutions(p)) == [()]


def test_heuristics():
    p = queens(6)
    assert dlx.count(p, heuristic="first") == 4
    s_first, s_mrv = dlx.Stats(), dlx.Stats()
    dlx.count(p, heuristic="first", stats=s_first)
    dlx.count(p, stats=s_mrv)
    assert s_first.nodes != s_mrv.nodes
    # a callable: pick the longest list (a bad idea, but it must stay correct)
    longest = lambda items: max(range(len(items)), key=lambda k: items[k][1])  # noqa: E731
    assert dlx.count(p, heuristic=longest) == 4
    with pytest.raises(dlx.ExactCoverError):
        dlx.count(p, heuristic="fastest")
    with pytest.raises(dlx.ExactCoverError):
        dlx.count(p, heuristic=lambda items: 99)


@pytest.mark.parametrize("bad", [0, -1, 1.5, "3", True])
def test_bad_limits_are_errors(bad):
    with pytest.raises(dlx.ExactCoverError):
        dlx.count(toy(), limit=bad)
    with pytest.raises(dlx.ExactCoverError):
        dlx.count(toy(), max_nodes=bad)


def test_views_reject_non_problems():
    with pytest.raises(dlx.ExactCoverError, match="ExactCover"):
        dlx.count({"x": ["a"]})  # type: ignore[arg-type]


def test_lookahead_with_the_first_item_heuristic():
    # An uncovered primary item with no option left ends the branch whatever the
    # heuristic (xcover's early-failure lookahead): pinned counts, and the branch
    # is cut before the heuristic's own item is even tried.
    s = dlx.Stats()
    assert dlx.count(langford(7), heuristic="first", stats=s, engine="python") == 52
    assert (s.nodes, s.updates) == (1201, 13066)
    p = dlx.ExactCover({"A1": ["a", "b", "c"], "A2": ["a"], "B1": ["b"]})
    events = [str(e) for e in dlx.trace(p, heuristic="first")]
    assert "L1 choose item c (0 options)" in events   # c is empty once A2 is tried


@given(st.data())
def test_planted_solutions_are_found(data):
    """Cut the items into a planted solution, add random decoys: the plant is always found."""
    n_items = data.draw(st.integers(1, 12))
    items = list(range(n_items))
    order = data.draw(st.permutations(items))
    cuts = sorted(data.draw(st.sets(st.integers(1, n_items - 1), max_size=n_items - 1))
                  if n_items > 1 else set())
    parts = [order[a:b] for a, b in zip([0, *cuts], [*cuts, n_items], strict=True)]
    options = {("plant", k): part for k, part in enumerate(parts)}
    for k in range(data.draw(st.integers(0, 12))):
        options[("decoy", k)] = data.draw(st.lists(st.sampled_from(items), min_size=1,
                                                   max_size=4, unique=True))
    p = dlx.ExactCover(options)
    found = list(dlx.solutions(p, max_nodes=BUDGET))
    planted = frozenset(("plant", k) for k in range(len(parts)))
    assert planted in set(map(frozenset, found))
    assert all(dlx.is_exact_cover(p, sol) for sol in found)
    assert dlx.count(p, max_nodes=BUDGET) == len(found) >= 1


def traced_stats(p: dlx.ExactCover) -> tuple[list, tuple]:
    """Solutions and stats of the general path (a trace never takes a fast path)."""
    s = dlx.Stats()
    sols = [e.options for e in dlx.trace(p, stats=s, max_nodes=BUDGET)
            if isinstance(e, dlx.Solution)]
    return sols, (s.nodes, s.updates, s.solutions, s.profile)


@given(st.one_of(uniform_problems(), uniform_problems(size=4), problems(colors=False),
                 problems(colors=False, secondary=False)))
def test_fast_paths_agree_with_the_general_path(p):
    """The pure engine's fast paths (with or without secondary items, uniform option
    sizes) give the general path's solutions, in order, and its node and update counts."""
    want, want_stats = traced_stats(p)
    s = dlx.Stats()
    got = list(dlx.solutions(p, stats=s, max_nodes=BUDGET, engine="python"))
    assert got == want
    assert (s.nodes, s.updates, s.solutions, s.profile) == want_stats
    assert {frozenset(x) for x in got} == brute_force(p)


def test_links_choose_covers_an_option_or_refuses_a_conflict():
    p = toy()
    links = Links.of(p).copy()
    o4 = links.option_nodes[list(TOY).index("o4")]
    o2 = links.option_nodes[list(TOY).index("o2")]
    assert links.choose(o4)
    links.check()
    # o3 (with f) and o2, o6 (with a, d) are gone: b, c, e, g keep one option each
    assert [links.LEN[links.item_number(i)] for i in "bceg"] == [1, 1, 1, 1]
    assert links.active_items() == [links.item_number(i) for i in "bceg"]
    before = links.snapshot()
    assert not links.choose(o2)           # o2 shares a and d with o4
    assert links.snapshot() == before
    # what is left is the problem without o4's items: one way to finish
    assert [tuple(sol) for sol in run(links, "solutions")] == [("o5", "o1")]


def test_quads_only_for_options_of_four_primary_items():
    """Links.quads: per node, its option's three other nodes and their items."""
    p = dlx.ExactCover({"x": [*"abcd"], "y": [*"bcde"], "z": [*"aefg"]})
    links = Links.of(p)
    assert links.fast_tables() is not None
    quads = links.quads()
    assert quads is not None
    for nodes in links.option_nodes:
        for at, q in enumerate(nodes):
            others = nodes[at + 1:] + nodes[:at]
            assert quads[q] == others + tuple(links.TOP[r] for r in others)
    for other in (dlx.ExactCover({"x": [*"abcd"], "y": [*"bce"]}),                  # not uniform
                  dlx.ExactCover({"x": [*"abcd"], "y": [*"bcde"]}, secondary=["e"]),  # secondary
                  dlx.ExactCover({"x": [*"abc"], "y": [*"bcd"]})):                  # three items
        links = Links.of(other)
        assert links.fast_tables() is not None and links.quads() is None


@given(st.one_of(problems(), uniform_problems(), uniform_problems(size=4),
                 colored_problems()))
def test_early_failure_changes_only_the_update_count(p):
    """run(early=False) leaves out the commit-time early-failure test: the same
    solutions in the same order and the same nodes, never fewer updates."""
    got = {}
    for early in (True, False):
        s = dlx.Stats()
        links = Links.of(p).copy()
        sols = list(run(links, "solutions", stats=s, max_nodes=BUDGET, early=early))
        got[early] = (sols, s.nodes, s.profile, s.updates)
        links.check()
    assert got[True][:3] == got[False][:3]
    assert got[True][3] <= got[False][3]
