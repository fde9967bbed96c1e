"""dlx.Prepared: a problem laid out once, searched under many forced-option sets.

A batch's answers, node counts and budgets are those of the per-instance views
with ``forced=``; a clash among forced options is "no solution", not an error.
"""

from __future__ import annotations

import threading
import time

import pytest
from helpers import queens, run_and_interrupt, toy
from hypothesis import assume, given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import BUDGET, bounded_problems, colored_problems, problems

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
    stats = dlx.Stats()
    whole = dlx.count(p, engine=engine, stats=stats)
    answers = dlx.Prepared(p, engine=engine).batch([[]] * 400, limit=None, timeout=0.3)
    done = [a for a in answers if not a.out_of_budget]
    assert all(a.found == whole and a.nodes == stats.nodes for a in done)
    assert len(done) < len(answers)
    assert all(a.out_of_budget for a in answers[len(done):])
    # the set the time ran out in stopped part way (under load that may be the first)
    assert answers[len(done)].nodes < stats.nodes


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


# --------------------------------------------------------------------------- minimize


@st.composite
def puzzles(draw, strategy):
    """A problem with a solution, that solution's options (shuffled) as forced options,
    and groups: some of them, in random order, in random groups."""
    p = draw(strategy)
    sols = sorted((sorted(s) for s in brute_force(p)), key=lambda s: (len(s), s))
    assume(sols)
    solution = draw(st.sampled_from(sols))
    forced = draw(st.permutations(solution))
    # unavoidable sets: what another solution replaces of this one (and sets holding it)
    others = [sorted(set(solution) - set(t)) for t in sols if set(t) != set(solution)]
    unavoidable = [sorted(set(d) | set(draw(st.lists(st.sampled_from(solution), max_size=2))))
                   for d in draw(st.lists(st.sampled_from(others), max_size=4))
                   if d] if others else []
    if draw(st.booleans()):
        return p, forced, None, unavoidable
    grouped = draw(st.permutations(draw(st.lists(st.sampled_from(forced), unique=True)
                                        if forced else st.just([]))))
    groups, at = [], 0
    while at < len(grouped):
        size = draw(st.integers(1, 3))
        groups.append(grouped[at:at + size])
        at += size
    return p, forced, groups, unavoidable


@given(st.one_of(puzzles(problems()), puzzles(colored_problems()),
                 puzzles(bounded_problems())),
       st.sampled_from([None, 1, 4]), st.sampled_from([0, 0, 1, 2, 3]))
@pytest.mark.slow
def test_minimize_leaves_one_solution_and_drops_every_group_it_can(case, max_nodes, keep):
    """Against every solution (brute force): the options kept have exactly one solution;
    a group dropped is gone whole, an option in no group stays; and every group kept
    (unless its search ran out of budget) would let a second solution in.  Both engines
    keep the same options with the same searches and nodes; unavoidable sets (true ones)
    change the searches, never what is kept.  With ``keep``, never fewer than that are
    left, and a group is kept unproven only when dropping it would go below."""
    p, forced, groups, unavoidable = case
    sols = brute_force(p)

    def solutions_with(given):
        return [s for s in sols if given <= s]

    outcomes = []
    for e in ENGINES:
        prepared = dlx.Prepared(p, engine=e)
        before = prepared._links.snapshot()
        try:
            outcomes.append(prepared.minimize(forced, groups=groups, max_nodes=max_nodes,
                                              unavoidable=unavoidable, keep=keep))
        except dlx.BudgetExceeded:
            outcomes.append("budget")
        except dlx.ExactCoverError as error:
            assert "exactly one solution" in str(error)
            outcomes.append("not a puzzle")
        assert prepared._links.snapshot() == before         # the layout is only read
    assert all(o == outcomes[0] for o in outcomes), outcomes
    m = outcomes[0]
    if m == "budget":
        assert max_nodes is not None
        return
    if m == "not a puzzle":             # under bounds, a solution can have supersets
        assert len(solutions_with(set(forced))) > 1
        return
    kept = set(m.kept)
    assert list(m.kept) == [o for o in forced if o in kept]
    assert len(solutions_with(kept)) == 1
    tried = [[o] for o in forced] if groups is None else groups
    for group in tried:
        assert set(group) <= kept or not set(group) & kept     # whole groups only
    assert set(forced) - {o for g in tried for o in g} <= kept
    assert len(kept) >= min(keep, len(forced))
    needed = [g for g in tried if set(g) <= kept and len(kept) - len(g) >= keep]
    proven = [g for g in needed if len(solutions_with(kept - set(g))) > 1]
    assert len(needed) - len(proven) <= m.unknown
    if max_nodes is None:
        assert m.unknown == 0
        plain = dlx.Prepared(p).minimize(forced, groups=groups, keep=keep)
        assert plain.kept == m.kept and plain.searches >= m.searches


@pytest.mark.parametrize("engine", ENGINES)
def test_minimize_makes_a_critical_set_of_a_latin_square(engine):
    latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v)]
                            for r in range(4) for c in range(4) for v in range(4)})
    square = [(r, c, (r + c) % 4) for r in range(4) for c in range(4)]
    m = dlx.Prepared(latin, engine=engine).minimize(square)
    assert dlx.count(latin, forced=m.kept, limit=2) == 1
    for o in m.kept:
        assert dlx.count(latin, forced=[x for x in m.kept if x != o], limit=2) == 2
    assert m.unknown == 0 and m.searches >= 1 and len(m.kept) < 16


@pytest.mark.parametrize("engine", ENGINES)
def test_minimize_refuses_what_is_not_a_puzzle(engine):
    p = dlx.Prepared(queens(6), engine=engine)
    with pytest.raises(dlx.ExactCoverError, match="exactly one solution; these have more"):
        p.minimize([])
    with pytest.raises(dlx.ExactCoverError, match="these have none"):
        p.minimize([(0, 0)])
    sol = dlx.first(queens(6))
    for groups, words in [([[]], "empty"), ([[sol[0]], [sol[0]]], "two groups"),
                          ([[(5, 5)]], "not forced")]:
        with pytest.raises(dlx.ExactCoverError, match=words):
            p.minimize(sol, groups=groups)
    with pytest.raises(dlx.ExactCoverError, match="forced twice"):
        p.minimize([sol[0], *sol])
    with pytest.raises(dlx.ExactCoverError, match="max_nodes"):
        p.minimize(sol, max_nodes=0)
    with pytest.raises(dlx.ExactCoverError, match="999"):
        p.minimize([999], indices=True)
    with pytest.raises(dlx.BudgetExceeded):
        p.minimize(sol[:1], max_nodes=1)


@pytest.mark.parametrize("engine", ENGINES)
def test_minimize_takes_option_indices(engine):
    p = dlx.Prepared(queens(6), engine=engine)
    sol = dlx.first(queens(6))
    index = {label: k for k, label in enumerate(p.labels)}
    by_label = p.minimize(sol)
    by_index = p.minimize([index[o] for o in sol], indices=True)
    assert by_index.kept == tuple(index[o] for o in by_label.kept)
    assert by_index[1:] == by_label[1:]


@pytest.mark.slow
@pytest.mark.skipif(not engines.available(), reason="the C core is not built")
def test_ctrl_c_stops_a_long_minimize_in_the_core():
    """A 25x25 puzzle with no node budget takes minutes: Ctrl-C stops it within a check
    point, and the core is usable afterwards."""
    code = """
from problems import sudoku
print("ready", flush=True)
try:
    sudoku.generate(box=(5, 5), seed=3, max_nodes=None)
    print("finished")
except KeyboardInterrupt:
    print("interrupted", sudoku.count(sudoku.generate(box=(2, 2), seed=1), limit=2))
"""
    code_, out, err, seconds = run_and_interrupt(code, after=1.5)
    assert "interrupted 1" in out, (out, err)
    assert seconds < 10


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["python", "c"] if dlx.engine.available() else ["python"])
def test_minimize_stops_at_its_timeout(engine):
    """Issue 20: minimize had no time limit (a 16x16 generate ran seconds past its
    --timeout).  Out of time it raises, with what it made so far: unique, not minimal."""
    n = 30
    latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v)]
                            for r in range(n) for c in range(n) for v in range(n)})
    square = dlx.first(latin)
    began = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as info:
        dlx.Prepared(latin, engine=engine).minimize(square, timeout=0.2)
    assert time.monotonic() - began < 10            # 0.2 s and a little, when quiet
    made = info.value.found
    assert info.value.timeout == 0.2 and info.value.max_nodes is None
    if made is not None:
        assert dlx.count(latin, forced=made.kept, limit=2) == 1
    with pytest.raises(dlx.ExactCoverError, match="timeout"):
        dlx.Prepared(latin, engine=engine).minimize(square, timeout=-1)


# ---------------------------------------------------------------- lists that are not lists


TOY_SOLUTION = ["o4", "o5", "o1"]          # its option indices: 3, 4, 0


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("call, name", [
    (lambda P: P.batch(None), "forced_sets must be a list"),
    (lambda P: P.batch(5, indices=True), "forced_sets must be a list"),
    (lambda P: P.batch("ab"), "forced_sets must be a list"),
    (lambda P: P.batch([5]), "each of forced_sets"),
    (lambda P: P.batch([None], indices=True), "forced_sets"),
    (lambda P: P.minimize(TOY_SOLUTION, groups=5), "groups must be a list"),
    (lambda P: P.minimize([3, 4, 0], groups=5, indices=True), "groups must be a list"),
    (lambda P: P.minimize(TOY_SOLUTION, groups=[5]), "each of groups"),
    (lambda P: P.minimize(TOY_SOLUTION, unavoidable=5), "unavoidable must be a list"),
    (lambda P: P.minimize([3, 4, 0], unavoidable=None, indices=True),
     "unavoidable must be a list"),
    (lambda P: P.minimize(TOY_SOLUTION, unavoidable=[5]), "each of unavoidable"),
    (lambda P: P.minimize(None), "forced must be a list"),
    (lambda P: P.minimize(5, indices=True), "forced must be a list"),
], ids=["batch(None)", "batch(5)", "batch('ab')", "batch([5])", "batch([None])",
        "groups=5", "groups=5 indices", "groups=[5]", "unavoidable=5",
        "unavoidable=None indices", "unavoidable=[5]", "minimize(None)", "minimize(5)"])
def test_prepared_names_the_argument_that_is_not_a_list(engine, call, name):
    with pytest.raises(dlx.ExactCoverError, match=name.replace("(", r"\(")):
        call(dlx.Prepared(toy(), engine=engine))


@pytest.mark.parametrize("engine", ENGINES)
def test_prepared_still_takes_any_iterable(engine):
    prepared = dlx.Prepared(toy(), engine=engine)
    assert [a.found for a in prepared.batch(iter([iter(["o4"]), ()]), limit=None)] == [1, 1]
    kept = prepared.minimize(iter(TOY_SOLUTION), groups=iter([["o4"], ("o5",)]),
                             unavoidable=iter([]))
    assert set(kept.kept) <= set(TOY_SOLUTION)
