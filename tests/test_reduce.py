"""dlx.reduce, the preprocessor (Knuth's DLX-PRE and stronger rules): exactly the same
solutions with the same labels, under colours and bounds; at least what DLX-PRE removes
from Knuth's inputs; ``dlx solve --reduce``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx

KNUTH = Path(__file__).parent / "data" / "knuth"
#: What Knuth's DLX-PRE removes from the files it reads (bench/dlx_pre_compare.py --record).
PRE = json.loads((KNUTH / "pre.json").read_text())["instances"]


def read(name: str) -> dlx.ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # options without a primary item, skipped
        return dlx.read_dlx((KNUTH / name).read_text())


def solution_set(problem: dlx.ExactCover) -> set[frozenset]:
    return {frozenset(s) for s in dlx.solutions(problem, max_nodes=BUDGET)}


def check(p: dlx.ExactCover) -> dlx.Reduced:
    """Everything reduce promises, on one problem."""
    r = dlx.reduce(p)
    q = r.problem
    # every label is kept or removed, and the kept ones stay in their order
    assert set(q.options).isdisjoint(r.removed_options)
    assert set(q.options) | set(r.removed_options) == set(p.options)
    assert list(q.options) == [label for label in p.options if label in q.options]
    assert r.removed_options == [label for label in p.options if label not in q.options]
    # a kept option is its original entries (colours and all), less some items
    for label, entries in q.options.items():
        rest = iter(p.options[label])
        assert all(e in rest for e in entries)
        assert any(i in q.primary for i in q.item_names(label))
    # every item is kept or removed; bounds and costs stay with what stays
    assert set(q.items).isdisjoint(r.removed_items)
    assert set(q.items) | set(r.removed_items) == set(p.items)
    assert set(q.primary) <= set(p.primary) and set(q.secondary) <= set(p.secondary)
    assert {i: q.bound(i) for i in q.primary} == {i: p.bound(i) for i in q.primary}
    assert q.costs == {label: c for label, c in p.costs.items() if label in q.options}
    # the same solutions, by brute force and by the search
    want = brute_force(p)
    assert brute_force(q) == want
    assert solution_set(q) == want
    assert not set().union(*want) & set(r.removed_options)
    # a fixed point: reducing again removes nothing
    again = dlx.reduce(q)
    assert again.removed_options == [] and again.removed_items == []
    assert again.problem.options == q.options
    return r


@st.composite
def with_costs(draw, inner):
    p = draw(inner)
    costs = {label: draw(st.integers(0, 9)) for label in p.options if draw(st.booleans())}
    return dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary,
                          bounds=p.bounds, costs=costs)


@st.composite
def heavy_bounds(draw):
    """Bounds up to (3, 5) on up to 11 options: rule 2 with counting."""
    p = draw(problems(max_items=5, max_options=11))
    bounds = {}
    for item in p.primary:
        u = draw(st.integers(0, 3))
        bounds[item] = (u, max(1, u + draw(st.integers(0, 2))))
    return dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=bounds)


@given(problems())
def test_same_solutions(p):
    check(p)


@pytest.mark.slow
@given(colored_problems())
def test_same_solutions_with_colours(p):
    check(p)


@given(bounded_problems())
def test_same_solutions_with_bounds(p):
    check(p)


@pytest.mark.slow
@given(heavy_bounds())
def test_same_solutions_with_larger_bounds(p):
    check(p)


@given(with_costs(st.one_of(problems(), bounded_problems())))
def test_costs_stay_with_their_options(p):
    q = check(p).problem
    assert ([c for c, _ in dlx.best(p, k=3, max_nodes=BUDGET)]
            == [c for c, _ in dlx.best(q, k=3, max_nodes=BUDGET)])


# -- each rule on its own --------------------------------------------------------------

def test_rule_1_options_without_a_primary_item_go():
    r = check(dlx.ExactCover({"x": ["s"], "a": ["a", "s"], "b": ["a"]}, secondary=["s"]))
    assert r.removed_options == ["x"] and str(r) == "removed 1 option and 1 item"


def test_rule_2_an_option_that_blocks_an_item_goes():
    # "ab" clashes with both options of c; with it gone, a and b always come together
    r = check(dlx.ExactCover({"ab": ["a", "b"], "ac": ["a", "c"], "bc": ["b", "c"],
                              "b": ["b"]}))
    assert r.removed_options == ["ab", "bc"] and r.problem.options == {"ac": ("c",),
                                                                       "b": ("b",)}


def test_rule_2_with_colours_dlx2s_example():
    # DLX2's example: "A B X:0 Y:0" leaves C uncoverable (Knuth's documentation)
    r = check(read("dlx2-color-example.dlx"))
    assert r.removed_options == [0, 3]
    # DLX-PRE keeps "A X:1 Y:1" and "B X:1", and drops C (always with A); we drop A or C,
    # and also X and Y: given one colour only, they never stop two options from going together
    assert r.problem.secondary == () and len(r.removed_items) == 3
    assert r.problem.options[2] == ("B",) and r.problem.options[1] in (("A",), ("C",))


def test_rule_2_with_bounds_counts_the_options_needed():
    # p must be covered twice: both its options are needed, and "x" clashes with one
    r = check(dlx.ExactCover({"o1": ["p"], "o2": ["p", "x"], "x": ["x"], "y": ["y"]},
                             bounds={"p": (2, 2)}))
    assert r.removed_options == ["x"]


def test_rule_2_forcing_keeps_the_forced_option():
    r = check(dlx.ExactCover({"f": ["a", "b"], "g": ["b", "c"], "h": ["c"]}))
    assert "f" in r.problem.options and r.removed_options == ["g"]


def test_rule_3_implied_item_knuths_toy():
    r = check(read("toy.dlx"))
    assert (len(r.removed_options), len(r.removed_items)) == (3, 4)
    assert all(len(items) == 1 for items in r.problem.options.values())


def test_rule_4_redundant_secondary_items():
    # s and t always come together: one of them says it all
    r = check(dlx.ExactCover({"o1": ["a", "s", "t"], "o2": ["b", "s", "t"], "o3": ["a"],
                              "o4": ["b"]}, secondary=["s", "t"]))
    assert r.removed_items == ["s"] and r.removed_options == []
    # one colour only: never a clash
    r = check(dlx.ExactCover({"o1": ["a", dlx.Colored("s", 1)], "o2": ["b", dlx.Colored("s", 1)],
                              "o3": ["a"]}, secondary=["s"]))
    assert r.removed_items == ["s"]


def test_rule_5_slack_primary_items():
    p = dlx.ExactCover({"o1": ["a", "b"], "o2": ["c", "b"], "o3": ["a"], "o4": ["c"]},
                       bounds={"b": (0, 2)})
    assert check(p).removed_items == ["b"]
    # not when an option would be left without a primary item
    p = dlx.ExactCover({"o1": ["a", "b"], "o2": ["b"], "o3": ["a"]}, bounds={"b": (0, 2)})
    assert check(p).removed_items == []


def test_rule_6_an_item_with_too_few_options_means_no_solution():
    r = check(dlx.ExactCover({"o1": ["a", "b"], "o2": ["b"]}, primary=["a", "b", "c"]))
    assert r.problem.primary == ("c",) and not r.problem.options
    assert r.removed_options == ["o1", "o2"] and r.removed_items == ["a", "b"]
    r = check(dlx.ExactCover({"o1": ["a"], "o2": ["b"]}, bounds={"a": (2, 3)}))
    assert r.problem.primary == ("a",) and r.problem.bounds == {"a": (2, 3)}


def test_twin_options_both_stay():
    r = check(dlx.ExactCover({"x": ["a", "b"], "y": ["a", "b"]}))
    assert r.removed_options == [] and dlx.count(r.problem) == 2


def test_nothing_to_do():
    r = check(dlx.ExactCover({}))
    assert str(r) == "removed 0 options and 0 items" and dlx.count(r.problem) == 1


# -- against Knuth's DLX-PRE ---------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(PRE))
def test_at_least_what_dlx_pre_removes(name):
    p = read(name)
    r = dlx.reduce(p)
    pre = PRE[name]
    assert len(r.removed_options) >= pre["options"]
    assert len(r.removed_items) >= pre["items"]
    assert set(r.problem.options) <= set(pre["kept"])      # every option DLX-PRE drops goes
    assert dlx.count(r.problem, max_nodes=BUDGET) == dlx.count(p, max_nodes=BUDGET)


def test_stronger_than_dlx_pre_somewhere():
    more = [name for name in PRE
            if len(dlx.reduce(read(name)).removed_options) > PRE[name]["options"]]
    assert "rand-colour-7.dlx" in more      # a clash through a colour that DLX-PRE misses


def test_a_bigger_instance():
    from problems import polyominoes

    p = polyominoes.encode(rows=6, cols=10)            # 2,056 options
    r = dlx.reduce(p)
    assert len(r.removed_options) == 144               # DLX-PRE removes the same 144
    assert not r.removed_items


# -- dlx solve --reduce ----------------------------------------------------------------------

def _dlx(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "dlx", *argv], capture_output=True, text=True,
                          env=env, timeout=120)


def test_solve_reduce_says_what_it_removed():
    path = str(KNUTH / "toy.dlx")
    plain, reduced = _dlx("solve", path), _dlx("solve", path, "--reduce")
    assert reduced.returncode == plain.returncode == 0
    assert reduced.stdout == plain.stdout                  # options printed whole
    assert reduced.stderr == f"dlx: {path}: reduced: removed 3 options and 4 items\n"
    quiet = _dlx("solve", path, "--reduce", "--quiet")
    assert quiet.stdout == plain.stdout and quiet.stderr == ""


@pytest.mark.parametrize("extra", [["--count"], ["--best", "3"], ["--limit", "5"],
                                   ["--count", "--jobs", "2"], ["--format", "jsonl"]])
@pytest.mark.slow
def test_solve_reduce_composes(extra):
    for name in ("costs-colours.dlx", "pent6x5.dlx"):
        path = str(KNUTH / name)
        plain, reduced = _dlx("solve", path, *extra), _dlx("solve", path, "--reduce", *extra)
        assert reduced.returncode == plain.returncode == 0
        if "--limit" in extra:
            assert len(reduced.stdout.splitlines()) == len(plain.stdout.splitlines()) == 5
        elif "--best" in extra:
            costs = [line.split(":")[0] for line in reduced.stdout.splitlines()]
            assert costs == [line.split(":")[0] for line in plain.stdout.splitlines()]
        elif "jsonl" in extra:                 # the same records, maybe in another order
            def records(out: str) -> list[str]:
                return sorted(json.dumps({**json.loads(line), "solution": None})
                              for line in out.splitlines())
            assert records(reduced.stdout) == records(plain.stdout)
        else:
            assert sorted(reduced.stdout.splitlines()) == sorted(plain.stdout.splitlines())
        assert "reduced: removed" in reduced.stderr


def test_solve_reduce_is_for_knuths_format():
    done = _dlx("solve", "--reduce", "--format", "hust", str(KNUTH / "toy.dlx"))
    assert done.returncode == 2 and "--reduce goes with Knuth's format" in done.stderr
