"""Knuth's estimate of a search (issue 22): on both engines, with bounds (Algorithm M's
tree) too, and within its standard error of the truth on known counts."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest
from helpers import langford, queens
from hypothesis import given
from hypothesis import strategies as st
from strategies import bounded_problems, colored_problems, problems

import dlx
from dlx import engine as engines

ENGINES = ("python", "c") if engines.available() else ("python",)
DATA = Path(__file__).resolve().parent / "data" / "knuth"


def a001499(n: int) -> dlx.ExactCover:
    """n x n 0-1 matrices with two 1s in every row and column (OEIS A001499)."""
    options = {(r, c): [("row", r), ("col", c)] for r in range(n) for c in range(n)}
    return dlx.ExactCover(options, bounds={item: (2, 2) for o in options.values() for item in o})


def within(e: dlx.Estimate, problem: dlx.ExactCover, z: float = 4.5) -> None:
    """The estimate is within z standard errors of the search's nodes and solutions."""
    s = dlx.Stats()
    total = dlx.count(problem, stats=s)
    assert abs(e.solutions - total) <= z * e.solutions_error + 1e-9, (e, total)
    assert abs(e.nodes - s.nodes) <= z * e.nodes_error + 1e-9, (e, s.nodes)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n", [4, 5, 6])
def test_algorithm_ms_tree_is_probed(engine, n):
    """A001499 (90, 2,040, 67,950) by probes of the bounded tree."""
    within(dlx.estimate(a001499(n), samples=4000, seed=n, engine=engine), a001499(n))


@pytest.mark.parametrize("name", ["dlx3-example.dlx", "rc2-5.dlx", "rand-bounds-1.dlx",
                                  "rand-boundscol-3.dlx"])
def test_bounded_instances_of_knuth_are_probed(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.formats.DLXFormatWarning)
        p = dlx.read_dlx((DATA / name).read_text())
    assert p.bounds
    for engine in ENGINES:
        within(dlx.estimate(p, samples=3000, seed=11, engine=engine), p)


def test_a_bounded_langford_problem_is_probed():
    """Langford pairs of 1..n where pair k may be placed once or twice (slots at most
    once): a tree with null choices and tweaks."""
    p = langford(6)
    bounds = {item: (1, 2) for item in p.primary if item[0] == "num"}
    slots = [item for item in p.primary if item[0] == "slot"]
    q = dlx.ExactCover(p.options, primary=list(p.primary), bounds={**bounds,
                       **{s: (0, 1) for s in slots}})
    for engine in ENGINES:
        within(dlx.estimate(q, samples=4000, seed=2, engine=engine), q)


@given(st.one_of(problems(), colored_problems(), bounded_problems()), st.integers(0, 2**64),
       st.sampled_from([None, "first", "sharp"]))
def test_a_seed_gives_the_same_estimate_on_both_engines(p, seed, heuristic):
    made = {engine: dlx.estimate(p, samples=40, seed=seed, heuristic=heuristic, engine=engine)
            for engine in ENGINES}
    assert len(set(made.values())) == 1, made


def test_forced_options_and_their_clash():
    p = queens(8)
    for engine in ENGINES:
        below = dlx.estimate(p, forced=[(0, 0)], samples=2000, seed=1, engine=engine)
        s = dlx.Stats()
        total = dlx.count(p, forced=[(0, 0)], stats=s)
        assert abs(below.solutions - total) <= 4.5 * below.solutions_error
        clash = dlx.estimate(p, forced=[(0, 0), (1, 0)], samples=5, engine=engine)
        assert (clash.nodes, clash.solutions) == (0.0, 0.0)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_estimate_stops_at_its_timeout(engine):
    p = langford(12) if engine == "c" else langford(9)
    began = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as stop:
        dlx.estimate(p, samples=10**9, seed=1, timeout=0.3, engine=engine)
    assert time.monotonic() - began < 10
    made = stop.value.found
    assert made is not None and 0 < made.samples < 10**9
    with pytest.raises(dlx.ExactCoverError, match="timeout"):
        dlx.estimate(p, timeout=-1)
