"""dlx.Prepared: a problem laid out once, searched under many forced-option sets.

A batch's answers, node counts and budgets are those of the per-instance views
with ``forced=``; a clash among forced options is "no solution", not an error.
"""

from __future__ import annotations

import threading

import pytest
from conftest import BUDGET, bounded_problems, colored_problems, problems
from helpers import queens
from hypothesis import given
from hypothesis import strategies as st

import dlx
from dlx import engine as engines

ENGINES = ["python", "c"] if engines.available() else ["python"]


def per_instance(p, forced, limit, max_nodes, engine):
    """(found, first, nodes, clash, out_of_budget) from the views, one set at a time."""
    s = dlx.Stats()
    try:
        found = dlx.count(p, forced=forced, limit=limit, max_nodes=max_nodes, stats=s,
                          engine=engine)
        out = False
    except dlx.BudgetExceeded as stop:
        found, out = stop.found, True
    first = None
    if found:
        first = dlx.first(p, forced=forced, max_nodes=BUDGET, engine=engine)
    clash = not out and s.nodes == 0 and not found
    return found, first, s.nodes, clash, out


@st.composite
def batches(draw, strategy):
    p = draw(strategy)
    chosen = [label for label in p.options
              if any(item in p.primary for item in p.item_names(label))]
    sets = draw(st.lists(st.lists(st.sampled_from(chosen), unique=True, max_size=3)
                         if chosen else st.just([]), max_size=5))
    return p, sets


@given(st.one_of(batches(problems()), batches(colored_problems()), batches(bounded_problems())),
       st.sampled_from([1, 2, None]), st.sampled_from([None, 1, 3, 10]))
def test_a_batch_answers_as_the_views_do(case, limit, max_nodes):
    p, sets = case
    for e in ENGINES:
        prepared = dlx.Prepared(p, engine=e)
        answers = prepared.batch(sets, limit=limit, max_nodes=max_nodes or BUDGET)
        assert len(answers) == len(sets)
        for forced, a in zip(sets, answers, strict=True):
            found, first, nodes, clash, out = per_instance(p, forced, limit, max_nodes or BUDGET,
                                                           e)
            assert (a.found, a.nodes, a.out_of_budget) == (found, nodes, out), (e, forced)
            assert a.clash == clash
            if not out:
                assert a.first == first
            if a.first is not None:
                assert dlx.is_exact_cover(p, a.first)
                assert list(a.first[:len(forced)]) == list(forced)


@given(batches(problems()))
def test_indices_name_the_same_options(case):
    p, sets = case
    for e in ENGINES:
        prepared = dlx.Prepared(p, engine=e)
        index = {label: k for k, label in enumerate(prepared.labels)}
        by_label = prepared.batch(sets, limit=None)
        by_index = prepared.batch([[index[x] for x in s] for s in sets], limit=None,
                                  indices=True)
        for a, b in zip(by_label, by_index, strict=True):
            assert (a.found, a.nodes, a.clash) == (b.found, b.nodes, b.clash)
            assert a.first == (None if b.first is None
                               else tuple(prepared.labels[k] for k in b.first))


def test_the_per_instance_views_take_forced_options():
    q = dlx.Prepared(queens(6))
    assert q.count() == 4 and q.count([(0, 1)]) == 1 and q.count([(0, 0)]) == 0
    assert q.first([(0, 1)])[0] == (0, 1) and q.is_unique([(0, 1)])
    assert list(q.solutions([(0, 1)])) == list(dlx.solutions(queens(6), forced=[(0, 1)]))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_batch_timeout_leaves_the_rest_unknown(engine):
    """The batch's time runs out during one set: that set and those after it are out
    of budget (unknown), the sets before it are answered."""
    p = queens(10 if engine == "python" else 12)
    whole = dlx.count(p, engine=engine)
    answers = dlx.Prepared(p, engine=engine).batch([[]] * 400, limit=None, timeout=0.3)
    done = [a for a in answers if not a.out_of_budget]
    assert all(a.found == whole for a in done)
    assert len(done) < len(answers)
    assert all(a.out_of_budget for a in answers[len(done):])
    assert answers[len(done)].nodes < answers[0].nodes


@pytest.mark.skipif(not engines.available(), reason="the C core is not built")
def test_batches_in_threads_give_the_same_answers():
    """The core searches a batch without the GIL; concurrent batches share the laid-out
    problem and nothing else."""
    p = dlx.Prepared(queens(8), engine="c")
    sets = [[(0, c)] for c in range(8)] + [[(0, 0), (1, 1)], []]
    expect = p.batch(sets, limit=None)
    got: list[list[dlx.Answer]] = []
    threads = [threading.Thread(target=lambda: got.append(p.batch(sets, limit=None)))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    strip = [(a.found, a.first, a.nodes, a.clash) for a in expect]
    assert len(got) == 4 and all([(a.found, a.first, a.nodes, a.clash) for a in g] == strip
                                 for g in got)
    assert sum(a.found for a in expect[:8]) == 92


@pytest.mark.parametrize("kw, words", [
    (dict(limit=0), "limit"), (dict(max_nodes=-1), "max_nodes"), (dict(timeout=0), "timeout"),
    (dict(timeout=True), "timeout"),
])
def test_bad_batch_arguments(kw, words):
    with pytest.raises(dlx.ExactCoverError, match=words):
        dlx.Prepared(queens(4)).batch([[]], **kw)


@pytest.mark.parametrize("engine", ENGINES)
def test_bad_forced_options_are_named(engine):
    p = dlx.Prepared(queens(4), engine=engine)
    with pytest.raises(dlx.ExactCoverError, match="not an option"):
        p.batch([[(9, 9)]])
    with pytest.raises(dlx.ExactCoverError, match="99"):
        p.batch([[99]], indices=True)
