"""The core's bitset representation (dlx/_core/bits.c) against its links and the
reference: the same solutions in the same order, the same Stats (nodes, updates,
profile), the same frontier after a stop, the same batches; which searches it
serves, and that the core chooses it by itself where it pays.

``engine="c-bits"`` asks for the bitsets wherever they serve, ``"c-links"`` never,
``"python"`` is the reference.
"""

from __future__ import annotations

import array
import threading

import pytest
from helpers import batch_answers, queens
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import BUDGET, problems

import dlx
from dlx import engine as engines
from dlx.links import Links

pytestmark = pytest.mark.skipif(not engines.available(), reason="dlx._core is not built")

ENGINES = ("c-bits", "c-links", "python")


def _views(problem, **kw):
    """Every engine's solutions, count and Stats of ``problem``."""
    out = {}
    for e in ENGINES:
        s1, s2 = dlx.Stats(), dlx.Stats()
        try:
            sols = list(dlx.solutions(problem, engine=e, stats=s1, **kw))
            err1 = None
        except dlx.BudgetExceeded as x:
            sols, err1 = x.found, x.frontier
        try:
            n = dlx.count(problem, engine=e, stats=s2, **kw)
            err2 = None
        except dlx.BudgetExceeded as x:
            n, err2 = x.found, x.frontier
        out[e] = (sols, err1, s1, n, err2, s2)
    return out


def _representation(problem, engine="c-bits", **kw) -> str:
    links = Links.of(problem)
    search = engines._core.Search(engines.table(links), links.labels, "count",
                                  bits=engines.representation(engine), **kw)
    return search.representation


@given(problems(max_items=7, max_options=14, colors=False),
       st.sampled_from(["mrv", "first"]), st.sampled_from([None, 1, 3, 8, 40]),
       st.data())
@pytest.mark.slow
@settings(max_examples=150)
def test_the_bitsets_search_as_the_links_do(problem, heuristic, max_nodes, data):
    """Solutions, order, Stats and the frontier after a budget stop: all three
    engines alike, with forced options too."""
    labels = list(Links.of(problem).labels)         # (options with a primary item)
    forced: list = []
    if labels and data.draw(st.booleans()):
        forced = data.draw(st.lists(st.sampled_from(labels), max_size=2, unique=True))
    got = _views(problem, heuristic=heuristic, max_nodes=max_nodes or BUDGET, forced=forced)
    assert got["c-bits"] == got["c-links"] == got["python"]


def test_the_core_says_which_representation_runs():
    plain = queens(6)
    assert _representation(plain, "c-bits") == "bits"
    assert _representation(plain, "c-links") == "links"
    assert _representation(plain, "c") == "bits"          # small and dense: it pays
    colored = dlx.ExactCover({"x": ["a", dlx.Colored("s", "R")], "y": ["b", "s"]},
                             secondary=["s"])
    bounded = dlx.ExactCover({"x": ["a"], "y": ["a"]}, bounds={"a": (1, 2)})
    for declined in (colored, bounded):
        assert _representation(declined, "c-bits") == "links"
    # searches the bitsets do not serve run on the links, whatever is asked
    assert _representation(plain, "c-bits", heuristic=2,
                           sharp=bytes(Links.of(plain).N1 + 1)) == "links"
    assert _representation(plain, "c-bits", cache=1000) == "links"


def test_sparse_options_of_pairs_stay_on_the_links():
    """Thousands of short options among few items: the links touch only the live
    ones, the bitsets every option an item ever had; the core keeps the links."""
    import random

    rng = random.Random(5)
    items = [f"i{k}" for k in range(300)]
    options = {k: rng.sample(items, rng.randint(2, 4)) for k in range(4000)}
    assert _representation(dlx.ExactCover(options), "c") == "links"


@pytest.mark.parametrize("n", [8, 10])
def test_queens_on_the_bitsets(n):
    stats = {e: dlx.Stats() for e in ENGINES}
    counts = {e: dlx.count(queens(n), engine=e, stats=stats[e]) for e in ENGINES}
    assert set(counts.values()) == {[92, 724][n == 10]}
    assert stats["c-bits"] == stats["c-links"] == stats["python"]


@given(problems(max_items=6, max_options=12, colors=False), st.data())
@settings(max_examples=60)
def test_batches_on_the_bitsets(problem, data):
    answers = batch_answers(problem, ENGINES, data)
    assert answers["c-bits"] == answers["c-links"] == answers["python"]


def test_batch_codes_answers_as_batch_does():
    """Rows of codes (a choice per position): the same counts, nodes and first
    solutions as the sets of options they name, on both representations."""
    n = 5
    # a Latin square: position (r, c), code v + 1 = option (r, c, v)
    latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v)]
                            for r in range(n) for c in range(n) for v in range(n)})
    links = Links.of(latin)
    index = {label: k for k, label in enumerate(links.labels)}
    codes = array.array("i", [index[(r, c, v)] for r in range(n) for c in range(n)
                              for v in range(n)]).tobytes()
    rows = [bytes([1, 2, 0, 0, 0] + [0] * 20), bytes([1, 1] + [0] * 23), bytes(25),
            bytes([0] * 24 + [3])]
    table = engines.table(links)
    for bits in (0, 1):
        found, nodes, status, _, sols = table.batch_codes(b"".join(rows), n * n, codes, 2,
                                                          bits=bits)
        found, nodes = array.array("q", found).tolist(), array.array("q", nodes).tolist()
        sets = [[index[(p // n, p % n, v - 1)] for p, v in enumerate(row) if v]
                for row in rows]
        plain = table.batch(sets, 2, bits=bits)
        assert found == [a[0] for a in plain] and nodes == [a[1] for a in plain]
        assert list(status) == [a[3] for a in plain]
        for k, a in enumerate(plain):
            if a[2] is None:
                assert sols[k * n * n:(k + 1) * n * n] == bytes(n * n)
                continue
            want = bytearray(n * n)
            for o in a[2]:
                r, c, v = links.labels[o]
                want[r * n + c] = v + 1
            assert sols[k * n * n:(k + 1) * n * n] == want
    with pytest.raises(ValueError, match="names no option"):
        table.batch_codes(bytes([9] + [0] * 24), n * n, codes)
    with pytest.raises(ValueError, match="whole rows"):
        table.batch_codes(bytes(7), n * n, codes)


def test_a_timeout_stops_a_search_on_the_bitsets():
    with pytest.raises(dlx.BudgetExceeded) as e:
        dlx.count(queens(15), engine="c-bits", timeout=0.2)
    assert e.value.frontier                                 # the subtrees left


def test_searches_on_the_bitsets_share_nothing_across_threads():
    problem = queens(9)
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(dlx.count(problem, engine="c-bits"))
        except Exception as e:  # pragma: no cover - the assertion shows it
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == [352] * 20


@given(st.integers(2, 4), st.data())
@settings(max_examples=40)
def test_prepared_batch_codes_on_every_engine(n, data):
    """Prepared.batch_codes: the same answers on the bitsets, the links and the
    reference, and the same as batch() of the options the codes name."""
    latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v)]
                            for r in range(n) for c in range(n) for v in range(n)})
    table = [[(r, c, v) for v in range(n)] for r in range(n) for c in range(n)]
    rows = data.draw(st.lists(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n),
                              min_size=1, max_size=4))
    blob = bytes(v for row in rows for v in row)
    got = {}
    for e in ENGINES:
        p = dlx.Prepared(latin, engine=e)
        a = p.batch_codes(blob, p.codes(table), limit=3)
        got[e] = (a.found, a.nodes, a.status, a.solutions)
        plain = p.batch([[table[k][v - 1] for k, v in enumerate(row) if v] for row in rows],
                        limit=3)
        assert a.found == [x.found for x in plain] and a.nodes == [x.nodes for x in plain]
        for k, x in enumerate(plain):
            want = bytearray(n * n)
            for r, c, v in x.first or ():
                want[r * n + c] = v + 1
            assert a.solutions[k * n * n:(k + 1) * n * n] == want
    assert got["c-bits"] == got["c-links"] == got["python"]
