"""The search loop and its views, against a brute-force oracle and the reference engine."""

from __future__ import annotations

import warnings

import pytest
from helpers import PINNED, dominoes, langford, pinned_instances, queens, toy
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force, plain_tree, reference_solutions
from strategies import BUDGET, bounded_problems, colored_problems, problems, uniform_problems

import dlx
from dlx.links import Links
from dlx.search import PROGRESS_EVERY, run


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


@pytest.mark.slow
@given(problems())
def test_solutions_match_brute_force(p):
    got = list(dlx.solutions(p, max_nodes=BUDGET))
    assert len(got) == len(set(map(frozenset, got))), "a solution was reported twice"
    for sol in got:
        assert dlx.why_not(p, sol) is None
    assert set(map(frozenset, got)) == brute_force(p)
    assert dlx.count(p, max_nodes=BUDGET) == len(got)
    assert set(map(frozenset, got)) == set(reference_solutions(p))


@pytest.mark.slow
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
    assert calls == [PROGRESS_EVERY]
    assert links.snapshot() == before


@pytest.mark.parametrize("n, expected", list(enumerate([1, 0, 0, 2, 10, 4, 40, 92, 352, 724], 1)))
def test_queens_counts(n, expected):
    p = queens(n)
    assert dlx.count(p, max_nodes=BUDGET) == expected


def test_queens_solutions_verified():
    p = queens(7)
    sols = list(dlx.solutions(p, max_nodes=BUDGET))
    assert len(sols) == 40 and all(dlx.is_exact_cover(p, s) for s in sols)


@pytest.mark.parametrize("n, expected", [(3, 2), (4, 2), (5, 0), (6, 0), (7, 52), (8, 300)])
def test_langford_counts(n, expected):
    assert dlx.count(langford(n), max_nodes=BUDGET) == expected


@pytest.mark.parametrize("rows, cols, expected", [(2, 2, 2), (4, 4, 36), (6, 6, 6728)])
def test_domino_counts(rows, cols, expected):
    assert dlx.count(dominoes(rows, cols), max_nodes=BUDGET) == expected


def test_pinned_node_counts():
    # Node counts for fixed instances catch heuristic regressions.
    counts = {}
    for name, p in pinned_instances().items():
        s = dlx.Stats()
        dlx.count(p, stats=s, max_nodes=BUDGET)
        counts[name] = (s.nodes, s.updates)
    assert counts == PINNED


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
    """Solutions and stats of a trace: the same loop, emitting events."""
    s = dlx.Stats()
    sols = [e.options for e in dlx.trace(p, stats=s, max_nodes=BUDGET)
            if isinstance(e, dlx.Solution)]
    return sols, (s.nodes, s.updates, s.solutions, s.profile)


@given(st.one_of(problems(), colored_problems(), uniform_problems(size=4)),
       st.sampled_from(["mrv", "first"]))
def test_the_search_tree_is_the_plain_algorithms(p, heuristic):
    """Early failure and every other shortcut leave the tree alone: the solutions, in
    order, the nodes and the profile are those of Algorithm C on sets (helpers.plain_tree)."""
    want, nodes, profile = plain_tree(p, heuristic)
    s = dlx.Stats()
    got = list(dlx.solutions(p, stats=s, max_nodes=BUDGET, heuristic=heuristic,
                             engine="python"))
    assert got == want
    assert (s.nodes, s.profile) == (nodes, profile)
    traced, stats = traced_stats(p) if heuristic == "mrv" else (got, None)
    assert traced == got
    if stats is not None:
        assert stats == (s.nodes, s.updates, s.solutions, s.profile)


@pytest.mark.slow
@given(st.one_of(problems(), colored_problems()), st.data())
def test_forced_options_search_exactly_the_subtree_below_them(p, data):
    """forced=: the search below that partial solution, as if chosen first: the plain
    algorithm's subtree (its root at level len(forced)), and no solution on a clash."""
    labels = [o for o in p.options if any(i in p.primary for i in p.item_names(o))]
    forced = tuple(data.draw(st.lists(st.sampled_from(labels), max_size=3))) if labels else ()
    want, nodes, profile = plain_tree(p, forced=forced)
    links = Links.build(p)
    before = links.snapshot()
    s = dlx.Stats()
    got = list(run(links, "solutions", stats=s, max_nodes=BUDGET,
                   forced=links.first_primary(links.forced_options(forced))))
    assert got == want and (s.nodes, s.profile) == (nodes, profile)
    assert links.snapshot() == before
    assert dlx.count(p, forced=forced, max_nodes=BUDGET) == len(want)
    assert all(dlx.is_exact_cover(p, sol) for sol in got)


def test_forced_options_on_the_toy_problem():
    p = toy()
    s = dlx.Stats()
    assert list(dlx.solutions(p, forced=["o4"], stats=s)) == [("o4", "o5", "o1")]
    assert (s.nodes, s.profile) == (3, [0, 1, 1, 1])
    s = dlx.Stats()
    assert dlx.count(p, forced=["o4", "o2"], stats=s) == 0      # o2 shares a and d with o4
    assert (s.nodes, s.profile) == (0, [])
    assert dlx.first(p, forced=["o4", "o4"]) is None            # an option twice: a clash
    with pytest.raises(dlx.ExactCoverError, match="not an option"):
        dlx.count(p, forced=["o9"])
    with pytest.raises(dlx.ExactCoverError, match="list of option labels"):
        dlx.count(p, forced="o4")
    skipped = dlx.ExactCover({"x": ["a"], "s": ["t"]}, secondary=["t"])
    with pytest.raises(dlx.ExactCoverError, match="no primary item"):
        dlx.count(skipped, forced=["s"])


@pytest.mark.slow
@given(bounded_problems())
def test_bounds_match_brute_force(p):
    """Algorithm M: every subset of options within every primary item's bounds, once."""
    got = list(dlx.solutions(p, max_nodes=BUDGET))
    assert len(got) == len(set(map(frozenset, got))), "a solution was reported twice"
    assert all(dlx.why_not(p, sol) is None for sol in got)
    assert set(map(frozenset, got)) == brute_force(p)


@pytest.mark.slow
@given(bounded_problems(), st.integers(1, 30))
def test_bounds_links_restored_after_stopping_anywhere(p, stop_after):
    links = Links.build(p)
    before = links.snapshot()
    search = run(links, "trace", max_nodes=BUDGET)
    for k, _event in enumerate(search):
        links.check()
        if k == stop_after:
            break
    search.close()
    assert links.snapshot() == before
    for _ in run(links, "solutions", max_nodes=BUDGET):
        pass
    assert links.snapshot() == before


def test_counting_by_caching_keys_a_colour_even_when_no_option_of_it_is_left():
    """After o0, s0 is R (and o3, s0:G, is gone); after o1, s1 is R (o3 stays).  Both
    leave p1, s0, s1, s2 uncovered with no R option of s0/s1 left: only the colours
    on the items tell the two apart (as Knuth's DLX6 keys them)."""
    C = dlx.Colored
    p = dlx.ExactCover({"o0": ["p0", C("s0", "R")], "o1": ["p0", C("s1", "R")],
                        "o2": ["p1", C("s2", "R")], "o3": ["p1", C("s0", "G")]},
                       secondary=["s0", "s1", "s2"])
    assert dlx.count(p, cache=True) == dlx.count(p) == 3


@pytest.mark.slow
@given(st.one_of(problems(), colored_problems(), bounded_problems()), st.integers(1, 50))
def test_counting_by_caching_gives_the_plain_count(p, limit):
    plain = dlx.count(p, max_nodes=BUDGET)
    s = dlx.Stats()
    assert dlx.count(p, cache=True, stats=s, max_nodes=BUDGET) == plain == s.solutions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.search.CacheFullWarning)
        assert dlx.count(p, cache=limit, max_nodes=BUDGET) == plain    # a small cache too
    some = [o for o in p.options if any(i in p.primary for i in p.item_names(o))][:1]
    assert dlx.count(p, cache=True, forced=some, max_nodes=BUDGET) == \
        dlx.count(p, forced=some, max_nodes=BUDGET)


def test_counting_by_caching_counts_what_no_search_can_visit():
    board = dominoes(8, 8)
    s = dlx.Stats()
    assert dlx.count(board, cache=True, stats=s) == 12_988_816
    assert s.nodes < 10_000                     # the plain search visits 50,102,176 nodes
    with pytest.warns(dlx.search.CacheFullWarning):
        assert dlx.count(dominoes(6, 6), cache=100) == 6728
    with pytest.raises(dlx.ExactCoverError, match="cache"):
        dlx.count(board, cache=-1)


@pytest.mark.slow
def test_a_counting_cache_grows_linearly_with_depth():
    """Issue 20: keys were lists of what is left, so a chain of n one-item options took
    O(n**2) memory (8,000 levels 267 MB, 100,000 ran out of 24 GB).  A signature has a
    fixed size: the peak grows about as n, not n**2."""
    import tracemalloc

    def peak(n):
        chain = dlx.ExactCover({k: [k] for k in range(n)})
        tracemalloc.start()
        try:
            assert dlx.count(chain, cache=True, engine="python") == 1
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, big = peak(2_000), peak(8_000)
    assert big < 6 * small                      # 4x the depth; n**2 would be 16x
    assert big < 8_000 * 1_000                  # about a kilobyte a level, all in


def test_a_seed_shuffles_the_options_reproducibly():
    p = queens(8)
    firsts = {dlx.first(p, seed=s) for s in range(6)}
    assert len(firsts) > 1                                      # other solutions first
    assert dlx.first(p, seed=3) == dlx.first(p, seed=3)        # reproducibly
    assert all(dlx.is_exact_cover(p, sol) for sol in firsts)
    assert {dlx.count(p, seed=s) for s in range(4)} == {92}
    for e in ("python", "c") if dlx.engine.available() else ("python",):
        assert dlx.first(p, seed=3, engine=e) == dlx.first(p, seed=3)
    with pytest.raises(dlx.ExactCoverError, match="seed"):
        dlx.count(p, seed="x")


def test_estimates_of_the_tree_size():
    p = langford(7)
    s = dlx.Stats()
    total = dlx.count(p, stats=s)
    e = dlx.estimate(p, samples=3000, seed=7)
    assert abs(e.solutions - total) < 5 * e.solutions_error
    assert abs(e.nodes - s.nodes) < 5 * e.nodes_error
    assert e == dlx.estimate(p, samples=3000, seed=7)          # reproducible
    one = dlx.estimate(dlx.ExactCover({"x": ["a"]}), samples=10, seed=1)
    assert (one.nodes, one.solutions, one.nodes_error) == (2.0, 1.0, 0.0)   # exact: no spread
    assert "nodes" in str(e)
    with pytest.raises(dlx.ExactCoverError):
        dlx.estimate(p, samples=0)
