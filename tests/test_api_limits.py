"""Issue 20: numbers too big for the core, for a list or for a message, given to the API.

Each case once raised a raw error (OverflowError, TypeError, ValueError from Python's
int-to-string limit) or crashed the core's path; now it runs where it fits, or is
refused with an :class:`dlx.ExactCoverError` that says what is wrong.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import toy
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import bounded_problems

import dlx
from dlx import engine as engines

ENGINES = ("python", "c") if engines.available() else ("python",)
HUGE = 10**5000             # more digits than Python will turn into a string


def small() -> dlx.ExactCover:
    return dlx.ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]})


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("v", [2**30, 3 * 10**9, 2**63, 2**64 + 1, HUGE],
                         ids=["2^30", "3e9", "2^63", "2^64+1", "10^5000"])
def test_bounds_beyond_the_cores_counters_run_on_the_pure_engine(engine, v):
    p = dlx.ExactCover({"x": ["a"], "y": ["a"], "xy": ["a", "b"]}, bounds={"a": (1, v)},
                       secondary=["b"])
    s = dlx.Stats()
    assert dlx.count(p, engine=engine, stats=s) == 7      # every nonempty set of the three
    want = dlx.Stats()
    dlx.count(p, engine="python", stats=want)
    assert s == want
    assert dlx.best(p, {"x": 1, "y": 2, "xy": -4}, engine=engine) == (3, ("x", "y"))
    assert dlx.Prepared(p, engine=engine).batch([[]], limit=None)[0].found == 7


def test_a_huge_bound_in_a_text_file_is_answered(tmp_path):
    path = tmp_path / "big.dlx"
    path.write_text("a 1:3000000000|b\nb\na b\n")
    out = subprocess.run([sys.executable, "-m", "dlx", "solve", str(path), "--count"],
                         capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stdout.strip()) == (0, "2"), out.stderr
    assert "Traceback" not in out.stderr


def test_secondary_none_means_no_secondary_items():
    assert dlx.ExactCover({"x": ["a"]}, secondary=None).secondary == ()
    with pytest.raises(dlx.ExactCoverError, match="secondary items must be a list"):
        dlx.ExactCover({"x": ["a"]}, secondary=5)    # type: ignore[arg-type]


def test_more_probes_than_can_run_are_refused():
    with pytest.raises(dlx.ExactCoverError, match="at most"):
        dlx.estimate(small(), samples=10**400)
    assert dlx.estimate(small(), samples=3, seed=1).samples == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_budgets_beyond_64_bits_mean_none(engine):
    prepared = dlx.Prepared(small(), engine=engine)
    for big in (2**62, 2**63, 10**30):
        assert prepared.batch([[]], limit=big)[0].found == 2
        assert prepared.batch([[]], max_nodes=big)[0].found == 1
        assert prepared.minimize([0, 2], indices=True, max_nodes=big).unknown == 0
        assert dlx.count(small(), max_nodes=big, limit=big, engine=engine) == 2
    assert dlx.best(small(), {"x": 1, "y": 1, "z": 2}, k=2**63, engine=engine) == [
        (3, ("x", "z")), (1, ("y",))]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bool_is_not_an_option_index(engine):
    prepared = dlx.Prepared(small(), engine=engine)
    for bad in (True, False):
        with pytest.raises(dlx.ExactCoverError, match="True|False"):
            prepared.batch([[bad]], indices=True)
    assert prepared.batch([[1]], indices=True)[0].first == (1,)


@pytest.mark.parametrize("call", [
    lambda: dlx.count(small(), limit=-HUGE),
    lambda: dlx.count(small(), max_nodes=-HUGE),
    lambda: dlx.best(small(), k=-HUGE),
    lambda: dlx.best(small(), {"x": HUGE, "y": 0.5, "z": 0}),
    lambda: dlx.count(small(), cache=-HUGE),
    lambda: dlx.ExactCover({"x": ["a"]}, bounds={"a": (2, -HUGE)}),
    lambda: dlx.ExactCover({"x": ["a"]}, bounds={"a": (HUGE, 1)}),
    lambda: dlx.ExactCover({"x": ["a"]}, costs={"x": -HUGE}),
    lambda: dlx.ExactCover({HUGE: ["a", "a"]}),
    lambda: dlx.Prepared(small()).batch([[HUGE]], indices=True),
    lambda: dlx.split(small(), depth=-HUGE),
    lambda: dlx.estimate(small(), samples=-HUGE),
])
def test_a_message_about_a_huge_number_is_still_a_message(call):
    with pytest.raises(dlx.ExactCoverError) as info:
        call()
    assert any(word in str(info.value) for word in ("digits", "bits", "at most", "too large"))


# ----------------------------------------------------------- bounds and caches of any size


HUGE_BOUNDS = [2**62, 2**63, 2**64, 2**64 + 1, 10**30]


@pytest.mark.slow
@given(bounded_problems(), st.data())
def test_counting_by_caching_takes_bounds_of_any_size(p, data):
    # a bound past what the core holds runs on the pure engine, whose cache key is a
    # digest of the bounds left: it must take ints of any size (it overflowed at 2**63)
    huge = {item: (u, data.draw(st.sampled_from(HUGE_BOUNDS)) if data.draw(st.booleans())
                   else v) for item, (u, v) in p.bounds.items()}
    q = dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=huge)
    want = len(brute_force(q))
    for engine in ENGINES:
        assert dlx.count(q, cache=True, engine=engine) == want
        assert dlx.count(q, engine=engine) == want


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("entries", [2**62, 2**63, 2**64, 10**400])
def test_a_cache_larger_than_any_memory_means_no_limit(engine, entries):
    # as budgets of 2**62 or more mean none (dlx.engine.budget)
    p = dlx.ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"], "w": ["b"]})
    assert dlx.count(p, cache=entries, engine=engine) == 3
    assert dlx.count(dlx.ExactCover({"x": ["a"]}, primary=["a", "e"], bounds={"e": (0, 2**64)}),
                     cache=True, engine=engine) == 1
    assert dlx.zdd(p, cache=entries, engine=engine).count() == 3


# ---------------------------------------------------------- timeouts too large for a float


TOY_SOLUTION = ["o4", "o5", "o1"]          # its option indices: 3, 4, 0


def _calls():
    from concurrent.futures import ThreadPoolExecutor

    p = toy()
    return {
        "count": lambda t: dlx.count(p, timeout=t),
        "count(cache)": lambda t: dlx.count(p, cache=True, timeout=t),
        "solutions": lambda t: list(dlx.solutions(p, timeout=t)),
        "first": lambda t: dlx.first(p, timeout=t),
        "is_unique": lambda t: dlx.is_unique(p, timeout=t),
        "best": lambda t: dlx.best(p, {label: 1 for label in p.options}, timeout=t),
        "trace": lambda t: list(dlx.trace(p, timeout=t)),
        "zdd": lambda t: dlx.zdd(p, timeout=t).count(),
        "estimate": lambda t: dlx.estimate(p, samples=3, timeout=t).samples,
        "executor": lambda t: dlx.count(p, executor=ThreadPoolExecutor(1), timeout=t),
        "Prepared.count": lambda t: dlx.Prepared(p).count(timeout=t),
        "Prepared.first": lambda t: dlx.Prepared(p).first(timeout=t),
        "Prepared.solutions": lambda t: list(dlx.Prepared(p).solutions(timeout=t)),
        "Prepared.is_unique": lambda t: dlx.Prepared(p).is_unique(timeout=t),
        "Prepared.batch": lambda t: dlx.Prepared(p).batch([[]], timeout=t)[0].found,
        "Prepared.minimize": lambda t: dlx.Prepared(p).minimize(TOY_SOLUTION,
                                                                timeout=t).searches,
    }


@pytest.mark.parametrize("name", list(_calls()))
def test_every_entry_point_refuses_a_timeout_too_large_for_a_float(name):
    call = _calls()[name]
    for huge in (10**400, 2**1024, float("inf")):
        with pytest.raises(dlx.ExactCoverError, match="timeout must be a positive number"):
            call(huge)
    assert call(1e308) is not None                   # the largest float: no limit in practice
    assert call(10**300) is not None
