"""X3's tree in the core (dlx/_core/tree.h) against the scan and the reference: the
same choices, so the same solutions in the same order, the same Stats (nodes,
updates, profile), the same frontier after a budget stop, the same batches and
estimates; under bounds (Algorithm M), with colours, forced options and seeds; and
which searches it serves, and that the core keeps it by itself for big problems.

``engine="c-tree"`` asks for the tree wherever it serves, ``"c-links"`` for the
scan, ``"python"`` is the reference.
"""

from __future__ import annotations

import pytest
from helpers import batch_answers, dominoes, queens
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import BUDGET, colored_problems, problems

import dlx
from dlx import engine as engines
from dlx.links import Links

pytestmark = pytest.mark.skipif(not engines.available(), reason="dlx._core is not built")

ENGINES = ("c-tree", "c-links", "python")


def _outcome(view, problem, engine, **kw):
    """What a view says on one engine: its answer (or the budget stop's found and
    frontier) and the Stats."""
    s = dlx.Stats()
    try:
        got = view(problem, engine=engine, stats=s, **kw)
        got = list(got) if not isinstance(got, (int, tuple, type(None))) else got
        stop = None
    except dlx.BudgetExceeded as e:
        got, stop = e.found, e.frontier
    return repr(got), repr(stop), s.nodes, s.updates, s.solutions, list(s.profile)


def _alike(view, problem, **kw):
    """The view's outcome on every engine: all the same."""
    seen = {e: _outcome(view, problem, e, **kw) for e in ENGINES}
    assert seen["c-tree"] == seen["c-links"] == seen["python"], seen
    return seen["python"]


def _representation(problem, engine="c-tree", **kw) -> str:
    links = Links.of(problem)
    search = engines._core.Search(engines.table(links), links.labels, "count",
                                  bits=engines.representation(engine), **kw)
    return search.representation


@st.composite
def wider(draw) -> dlx.ExactCover:
    """Problems with more items than the shared strategies draw (a tree of several
    levels), options of one to four primary items; half of them with a few secondary
    items, some coloured (Algorithm C's dance), half without (the cyclic walks)."""
    n = draw(st.integers(1, 14))
    prim = [f"p{k}" for k in range(n)]
    sec = ["s0", "s1"] if draw(st.booleans()) else []
    options = {}
    for o in range(draw(st.integers(1, 30))):
        items: list = draw(st.lists(st.sampled_from(prim), unique=True, min_size=1,
                                    max_size=min(4, n)))
        if sec and draw(st.booleans()):
            s = draw(st.sampled_from(sec))
            colour = draw(st.sampled_from(["R", "G", None]))
            items.append(s if colour is None else dlx.Colored(s, colour))
        options[f"o{o}"] = items
    return dlx.ExactCover(options, secondary=sec, primary=prim)


@st.composite
def bounded(draw) -> dlx.ExactCover:
    """Problems whose primary items have bounds (Algorithm M), some colours."""
    p = draw(st.one_of(colored_problems(), wider(), problems(max_items=5, max_options=9)))
    bounds = {}
    for item in p.primary:
        u = draw(st.integers(0, 2))
        bounds[item] = (u, max(1, u + draw(st.integers(0, 2))))
    return dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=bounds)


def _forced(problem, data) -> list:
    labels = list(Links.of(problem).labels)         # (options with a primary item)
    if not labels or not data.draw(st.booleans()):
        return []
    return data.draw(st.lists(st.sampled_from(labels), max_size=2, unique=True))


@given(st.one_of(problems(), colored_problems(), wider()), st.sampled_from([None, 1, 3, 9, 40]),
       st.sampled_from([None, 0, 7]), st.data())
@settings(max_examples=200)
def test_the_tree_chooses_as_the_scan_does(problem, max_nodes, seed, data):
    """Algorithms X and C: solutions, order, Stats, and the frontier after a budget
    stop, on all three engines, with forced options and seeds."""
    forced = _forced(problem, data)
    kw = {"max_nodes": max_nodes or BUDGET, "forced": forced, "seed": seed}
    _alike(dlx.solutions, problem, **kw)
    _alike(dlx.count, problem, **kw)
    _alike(dlx.first, problem, **kw)


@given(bounded(), st.sampled_from([None, 1, 4, 30]), st.sampled_from([None, 3]), st.data())
@settings(max_examples=200)
def test_the_tree_chooses_by_the_branching_degree_under_bounds(problem, max_nodes, seed, data):
    """Algorithm M: the degree, its ties (smaller slack, longer list, first) and the
    first dead end, as the scan; with forced options, seeds and budgets."""
    forced = _forced(problem, data)
    kw = {"max_nodes": max_nodes or BUDGET, "forced": forced, "seed": seed}
    _alike(dlx.solutions, problem, **kw)
    _alike(dlx.count, problem, **kw)


@pytest.mark.slow
@given(st.one_of(wider(), bounded()), st.data(), st.integers(1, 3))
@settings(max_examples=80)
def test_branch_and_bound_on_the_tree(problem, data, k):
    w = {label: data.draw(st.integers(-3, 6)) for label in problem.options}
    for maximize in (True, False):
        def best(p, maximize=maximize, **kw):
            return dlx.best(p, w, k=k, maximize=maximize, **kw)
        seen = {e: _outcome(best, problem, e, max_nodes=BUDGET) for e in ENGINES}
        assert seen["c-tree"] == seen["c-links"] == seen["python"]


@given(wider(), st.data())
@settings(max_examples=60)
def test_batches_on_the_tree(problem, data):
    answers = batch_answers(problem, ENGINES, data)
    assert answers["c-tree"] == answers["c-links"] == answers["python"]


@given(st.one_of(wider(), bounded()), st.integers(0, 2**32))
@settings(max_examples=60)
def test_probes_on_the_tree(problem, seed):
    """Knuth's random probes (dlx.estimate) walk the same paths with the tree: the
    same sums, number for number, and those of the pure engine."""
    links = Links.of(problem)
    table = engines.table(links)
    scan, tree = (table.estimate(50, seed, bits=bits) for bits in (0, 2))
    assert scan == tree
    assert dlx.estimate(problem, samples=50, seed=seed).nodes == pytest.approx(
        dlx.estimate(problem, samples=50, seed=seed, engine="python").nodes)


@pytest.mark.parametrize("n", [8, 9])
def test_queens_on_the_tree(n):
    """Queens (secondary diagonals, the cyclic walks): every solution in order."""
    _alike(dlx.solutions, queens(n))


def test_dominoes_far_from_a_corner():
    """A board of 900 items, first solution and a budget stop mid-way: the tree's
    many levels, every LEN change on its path."""
    board = dominoes(30, 30)
    _alike(dlx.first, board)
    _alike(dlx.count, board, max_nodes=700)


def test_the_core_says_which_representation_runs():
    plain = queens(6)
    assert _representation(plain, "c-tree") == "tree"
    assert _representation(plain, "c-links") == "links"
    assert _representation(plain, "c") == "bits"            # small and dense
    bounded_one = dlx.ExactCover({"x": ["a"], "y": ["a"]}, bounds={"a": (1, 2)})
    assert _representation(bounded_one, "c-tree") == "tree"
    # the rules that keep a scan, and counting by caching, run on the links
    n1 = Links.of(plain).N1
    assert _representation(plain, "c-tree", heuristic=1) == "links"
    assert _representation(plain, "c-tree", heuristic=2, sharp=bytes(n1 + 1)) == "links"
    assert _representation(plain, "c-tree", heuristic=3) == "links"
    assert _representation(plain, "c-tree", cache=1000) == "links"


def _empty_sudoku(box: int) -> dlx.ExactCover:
    n = box * box
    return dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v),
                                       ("box", r // box * box + c // box, v)]
                           for r in range(n) for c in range(n) for v in range(n)})


def test_the_core_keeps_the_tree_where_it_pays():
    """From 1,024 primary items, when they are 40 times the link updates of a cover
    (options per item x items per option) or more: bench/big.py --crossover."""
    assert _representation(dominoes(20, 20), "c") == "links"       # 400 items: the scan
    assert _representation(dominoes(50, 50), "c") == "tree"        # 2,500, u = 7.8
    assert _representation(dominoes(50, 50), "c-links") == "links"
    assert _representation(_empty_sudoku(5), "c") == "links"       # 2,500, u = 100
    assert _representation(_empty_sudoku(7), "c") == "tree"        # 9,604, u = 196


def test_c_tree_is_an_engine_name():
    assert "c-tree" in engines.ENGINES
    assert dlx.count(queens(6), engine="c-tree") == 4
    with pytest.raises(dlx.ExactCoverError, match="c-tree"):
        dlx.count(queens(6), engine="c-forest")
