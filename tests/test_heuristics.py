"""Knuth's other choice rules, on both engines: dlx2-sharp's preference for items named
``#...``, SSXCC's weighted choice (and SSMCC's, under bounds), and minimum remaining
values with its ties and first options drawn at random (what restarts use); and the
table that names them (:mod:`dlx.rules`).

A choice rule changes the tree, never the answers: every solution once, checked by
brute force; and the two engines walk the same tree (nodes, updates, profile, the
order of the solutions).  The sharp rule's nodes are those of Knuth's dlx2-sharp
on the instances whose output tests/data/knuth/answers.json records.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx
from dlx import engine as engines
from dlx.dance import Rand, degree
from dlx.links import Links
from dlx.rules import RULES
from dlx.search import run

ENGINES = ("python", "c") if engines.available() else ("python",)
DATA = Path(__file__).resolve().parent / "data" / "knuth"
ANSWERS = json.loads((DATA / "answers.json").read_text())["instances"]


@st.composite
def sharpened(draw, base=None):
    """A random problem whose primary items are renamed, some to ``#...`` (sharp)."""
    p = draw(base if base is not None else st.one_of(problems(), colored_problems()))
    sharp = {item: draw(st.booleans()) for item in p.primary}
    name = {item: ("#" if sharp[item] else "") + str(item) for item in p.primary}

    def renamed(entry):
        if isinstance(entry, dlx.Colored):
            return entry
        return name.get(entry, entry)

    options = {label: [renamed(e) for e in items] for label, items in p.options.items()}
    bounds = {name[i]: b for i, b in p.bounds.items()}
    return dlx.ExactCover(options, secondary=p.secondary,
                          primary=[name[i] for i in p.primary], bounds=bounds)


def walk(p, heuristic, engine):
    s = dlx.Stats()
    sols = list(dlx.solutions(p, heuristic=heuristic, engine=engine, stats=s,
                              max_nodes=BUDGET))
    return sols, (s.nodes, s.updates, s.solutions, list(s.profile))


@given(st.one_of(sharpened(), sharpened(bounded_problems())), st.sampled_from(["sharp"]))
def test_sharp_finds_every_solution_once_on_both_engines(p, heuristic):
    want = brute_force(p)
    seen = {}
    for engine in ENGINES:
        sols, stats = walk(p, heuristic, engine)
        assert len(sols) == len(want) and set(map(frozenset, sols)) == want
        seen[engine] = (sols, stats)
    assert len({repr(v) for v in seen.values()}) == 1, seen


@pytest.mark.slow
@given(sharpened())
def test_weighted_finds_every_solution_once_on_both_engines(p):
    want = brute_force(p)
    seen = {}
    for engine in ENGINES:
        sols, stats = walk(p, "weighted", engine)
        assert len(sols) == len(want) and set(map(frozenset, sols)) == want
        seen[engine] = (sols, stats)
        s = dlx.Stats()
        assert dlx.count(p, heuristic="weighted", engine=engine, stats=s,
                         max_nodes=BUDGET) == len(want)
        assert (s.nodes, s.updates) == stats[:2]
    assert len({repr(v) for v in seen.values()}) == 1, seen


@pytest.mark.parametrize("name", sorted(n for n in ANSWERS if "sharp" in ANSWERS[n]))
def test_sharp_visits_dlx2_sharps_nodes(name):
    import warnings

    want = ANSWERS[name]["sharp"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.formats.DLXFormatWarning)
        p = dlx.read_dlx((DATA / name).read_text())
    for engine in ENGINES:
        s = dlx.Stats()
        assert dlx.count(p, heuristic="sharp", engine=engine, stats=s) == want["count"]
        assert s.nodes == want["nodes"]


def test_weights_grow_where_lists_run_dry():
    """On pentominoes in a 6 x 5 box the weighted rule branches elsewhere than MRV (its
    tree differs), with the same 56 tilings; a fresh search starts from weights 1."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.formats.DLXFormatWarning)
        p = dlx.read_dlx((DATA / "pent6x5.dlx").read_text())
    plain, weighted = dlx.Stats(), dlx.Stats()
    assert dlx.count(p, stats=plain) == dlx.count(p, heuristic="weighted", stats=weighted) == 56
    assert weighted.nodes != plain.nodes
    again = dlx.Stats()
    dlx.count(p, heuristic="weighted", stats=again)
    assert again.nodes == weighted.nodes


def test_the_rules_are_named_in_errors():
    p = dlx.ExactCover({"x": ["a"]}, bounds={"a": (0, 1)})
    with pytest.raises(dlx.ExactCoverError, match="'sharp', 'weighted'"):
        dlx.count(p, heuristic="sharpest")
    with pytest.raises(dlx.ExactCoverError, match="'mrv', 'first'"):
        dlx.estimate(p, heuristic="sharpest")


@given(st.one_of(problems(), colored_problems(), bounded_problems()),
       st.sampled_from(sorted(RULES)), st.integers(0, 3))
def test_every_rule_finds_every_solution_once_on_both_engines(p, heuristic, seed):
    """Each rule of the table, with and without bounds: the brute force's solutions,
    once each, and the same tree on both engines (a random rule draws the same
    numbers from the same seed on both)."""
    want = brute_force(p)
    seen = {}
    for engine in ENGINES:
        s = dlx.Stats()
        sols = list(dlx.solutions(p, heuristic=heuristic, engine=engine, stats=s, seed=seed,
                                  max_nodes=BUDGET))
        assert len(sols) == len(want) and set(map(frozenset, sols)) == want
        seen[engine] = (sols, (s.nodes, s.updates, s.solutions, list(s.profile)))
    assert len({repr(v) for v in seen.values()}) == 1, seen


@given(st.one_of(problems(), colored_problems(), bounded_problems()),
       st.sampled_from(sorted(RULES)), st.integers(0, 3))
def test_every_rule_estimates_alike_on_both_engines(p, heuristic, seed):
    estimates = {dlx.estimate(p, samples=20, seed=seed, heuristic=heuristic, engine=engine)
                 for engine in ENGINES}
    assert len(estimates) == 1


@given(st.one_of(problems(), colored_problems()), st.integers(0, 3), st.integers(0, 40))
def test_random_first_options_are_put_back_wherever_a_search_stops(p, seed, stop_after):
    """The random rule starts an item's list at a drawn option (moving its header):
    after a stop anywhere (budget, a closed search), every link is back."""
    links = Links.build(p)
    before = links.snapshot()
    search = run(links, "trace", heuristic="mrv-random", seed=seed, max_nodes=BUDGET)
    for k, _event in enumerate(search):
        links.check()
        if k == stop_after:
            break
    search.close()
    assert links.snapshot() == before
    for budget in (1, 2, 5, 9):
        try:
            for _ in run(links, "solutions", heuristic="mrv-random", seed=seed, max_nodes=budget):
                pass
        except dlx.BudgetExceeded:
            pass
        assert links.snapshot() == before


def test_weighted_choice_under_bounds_learns_from_dead_ends():
    """SSMCC's weighted choice: under bounds the weighted tree differs from Algorithm
    M's, with the same count, and a fresh search starts from weights 1 again; the
    first item of degree 0 (the one chosen) gains the weight."""
    p = dlx.ExactCover({(k, j): [("num", k), ("slot", j), ("slot", j + k + 1)]
                        for k in range(1, 6) for j in range(2 * 5 - k - 1)},
                       bounds={("num", k): (0, 1) for k in range(1, 3)})
    plain, weighted = dlx.Stats(), dlx.Stats()
    counts = {dlx.count(p, stats=plain), dlx.count(p, heuristic="weighted", stats=weighted)}
    assert len(counts) == 1
    assert weighted.nodes != plain.nodes
    again = dlx.Stats()
    dlx.count(p, heuristic="weighted", stats=again)
    assert again.nodes == weighted.nodes
    links = Links.build(p)
    chooser = RULES["weighted"].chooser(links)
    links.BOUND[2] = 50                 # item 2 cannot be covered 50 times: a dead end
    assert degree(links, 1) > 0 and degree(links, 2) <= 0
    assert chooser(links) == 2
    chooser.ran_dry(links)
    assert chooser.weight[2] == 2 and sum(chooser.weight) == len(chooser.weight) + 1


def test_the_random_rule_breaks_ties_only_and_draws_like_the_core():
    """Among the items of fewest options, the k-th (k drawn by splitmix64, as the
    core's); an item with one option is taken with no draw; its options are tried
    from a drawn one on."""
    links = Links.build(dlx.ExactCover({"x": ["a"], "y": ["b"], "z": ["b"], "w": ["c"]}))
    chooser = RULES["mrv-random"].chooser(links, seed=5)
    assert chooser(links) == 1 and chooser.rng.state == Rand(5).state     # a: one, no draw
    links = Links.build(dlx.ExactCover({"x": ["a"], "x2": ["a"], "y": ["b"], "z": ["b"],
                                        "w": ["c"], "v": ["c"], "u": ["c"]}))
    chooser = RULES["mrv-random"].chooser(links, seed=5)
    draws = Rand(5)
    i = [1, 2][draws.below(2)]                  # a and b tie at 2; c has 3
    assert chooser(links) == i
    x = links.DLINK[i]
    for _ in range(draws.below(2)):
        x = links.DLINK[x]
    assert chooser.turn(links, i) == x
