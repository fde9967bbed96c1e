"""ExactCover validation: every bad input is an ExactCoverError naming the option and item."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
import dlx.problem
from dlx.links import Links


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(options={"o": ["a", "a"]}), dlx.RepeatedItemError, ["'o'", "'a'", "twice"]),
    (dict(options={"o": ["a", dlx.Colored("x", 1), "x"]}, secondary=["x"]),
     dlx.RepeatedItemError, ["'x'"]),
    (dict(options={"o": ["a", "z"]}, primary=["a"]), dlx.UnknownItemError, ["'o'", "'z'"]),
    (dict(options={"o": ["a"]}, primary=["a", "a"]), dlx.DuplicateItemError, ["'a'", "twice"]),
    (dict(options={"o": ["a"]}, secondary=["x", "x"]), dlx.DuplicateItemError, ["'x'"]),
    (dict(options={"o": ["a"]}, primary=["a"], secondary=["a"]), dlx.DuplicateItemError,
     ["both"]),
    (dict(options={"o": [dlx.Colored("a", 1)]}), dlx.ColorError, ["'a'", "not secondary"]),
    (dict(options={"o": "a b"}), dlx.OptionError, ["string", "['a', 'b']"]),
    (dict(options={"o": 3}), dlx.OptionError, ["iterable"]),
    (dict(options={"o": [["a"]]}), dlx.OptionError, ["hashable"]),
    (dict(options={"o": [dlx.Colored("x", [1])]}, secondary=["x"]), dlx.OptionError,
     ["colour"]),
    (dict(options=[["a"], ["b"]]), dlx.ExactCoverError, ["mapping", "dict(enumerate"]),
    (dict(options={"o": ["a"]}, secondary="x"), dlx.ExactCoverError, ["string"]),
])
def test_bad_problems(kwargs, error, words):
    with pytest.raises(error) as info:
        dlx.ExactCover(**kwargs)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value)


def test_items_are_any_hashable_and_order_is_kept():
    p = dlx.ExactCover({("opt", 2): [("row", 3), 7, None], frozenset({1}): [7]},
                       secondary=[None])
    assert p.primary == (("row", 3), 7) and p.secondary == (None,)
    assert list(p) == [("opt", 2), frozenset({1})]
    assert list(dlx.solutions(p)) == [(("opt", 2),)]


def test_primary_given_declares_order_and_unused_items():
    p = dlx.ExactCover({"o": ["b"]}, primary=["a", "b"])
    assert p.primary == ("a", "b") and dlx.first(p) is None


def test_option_with_only_secondary_items_is_never_chosen():
    p = dlx.ExactCover({"s": ["x"], "a": ["a"]}, secondary=["x"])
    assert list(dlx.solutions(p)) == [("a",)]
    empty = dlx.ExactCover({"nothing": [], "a": ["a"]})
    assert list(dlx.solutions(empty)) == [("a",)]


def test_colored_flag_and_item_names():
    p = dlx.ExactCover({"o": ["a", dlx.Colored("x", "red")]}, secondary=["x"])
    assert p.colored and p.item_names("o") == ("a", "x")
    assert not dlx.ExactCover({"o": ["a"]}).colored
    assert "1 options" in repr(p)


def test_bounds_costs_and_pickling():
    import pickle

    p = dlx.ExactCover({"x": ["a", "b"], "y": ["a"], "z": ["b"]}, bounds={"a": (0, 2), "b": (1, 1)},
                       costs={"x": 3, "y": 1.5})
    assert p.bounds == {"a": (0, 2)} and p.bound("a") == (0, 2) and p.bound("b") == (1, 1)
    assert p.cost("x") == 3 and p.cost("z") == 0
    # b exactly once, a at most twice: {x}, {x, y}, {z}, {y, z}
    assert sorted(map(sorted, dlx.solutions(p))) == [["x"], ["x", "y"], ["y", "z"], ["z"]]
    q = pickle.loads(pickle.dumps(p))
    assert (q.options, q.primary, q.secondary, q.bounds, q.costs) == \
        (p.options, p.primary, p.secondary, p.bounds, p.costs)
    assert dlx.count(q) == dlx.count(p)


def test_from_matrix():
    p = dlx.ExactCover.from_matrix([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]],
                                   secondary=[3])
    assert p.primary == (0, 1, 2) and p.secondary == (3,)
    assert p.options == {0: (0, 2), 1: (1, 3), 2: (0, 1), 3: (2, 3)}
    assert sorted(map(sorted, dlx.solutions(p))) == [[0, 1], [2, 3]]
    with pytest.raises(dlx.ExactCoverError, match="not 0 or 1"):
        dlx.ExactCover.from_matrix([[0, 2]])
    with pytest.raises(dlx.ExactCoverError, match="secondary column"):
        dlx.ExactCover.from_matrix([[0, 1]], secondary=[5])
    # an all-zero column is a primary item nobody covers: no solution
    assert dlx.count(dlx.ExactCover.from_matrix([[1, 0], [1, 0]])) == 0


def test_from_matrix_takes_numpy_and_scipy():
    # numpy and scipy are in the dev extra: this test never skips
    import numpy as np
    from scipy import sparse

    rows = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]])
    p = dlx.ExactCover.from_matrix(rows)
    assert dlx.count(p) == 2 and p.options[0] == (0, 2)
    q = dlx.ExactCover.from_matrix(sparse.csr_matrix(rows))
    assert q.options == p.options and q.primary == p.primary


# -- the constructor's compiled fast path (dlx._core.scan) against the Python checks

_item = st.one_of(st.integers(0, 6), st.sampled_from("abcxyz"),
                  st.tuples(st.sampled_from("rc"), st.integers(0, 2)), st.just([1]))


@st.composite
def _raw_problems(draw):
    options = draw(st.dictionaries(
        st.one_of(st.integers(0, 20), st.text("pq", max_size=2)),
        st.one_of(st.lists(_item, max_size=4), st.lists(_item, max_size=4).map(tuple),
                  st.just("ab"), st.just(7),
                  st.lists(_item, max_size=3).map(lambda xs: [dlx.Colored(x, 1) for x in xs]
                                                  if all(not isinstance(x, list) for x in xs)
                                                  else xs)),
        max_size=6))
    hashable = st.one_of(st.integers(0, 6), st.sampled_from("abcxyz"))
    secondary = draw(st.lists(hashable, max_size=3))
    primary = draw(st.one_of(st.none(), st.lists(hashable, max_size=5)))
    return options, secondary, primary


def _built(options, secondary, primary):
    try:
        p = dlx.ExactCover(options, secondary=secondary, primary=primary)
    except dlx.ExactCoverError as e:
        return type(e), str(e)
    return p


@settings(deadline=None)
@given(_raw_problems())
def test_the_fast_path_builds_what_the_python_checks_build(raw):
    """Same options, items, errors (type and message), layout and search either way."""
    fast = _built(*raw)
    with _python_checks():
        slow = _built(*raw)
    if isinstance(slow, tuple):
        assert fast == slow
        return
    assert (fast.options, fast.primary, fast.secondary, fast.colored) == (
        slow.options, slow.primary, slow.secondary, slow.colored)
    assert list(map(type, fast.options.values())) == [tuple] * len(fast.options)
    a, b = Links.of(fast), Links.of(slow)
    for name in ("labels", "skipped", "TOP", "OPT", "ROW", "option_nodes", "color_names"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.snapshot() == b.snapshot()
    assert Links.of(fast).node_count() == len(b.TOP)
    for engine in ("python", "c") if dlx.engine.available() else ("python",):
        fs, ss = dlx.Stats(), dlx.Stats()
        assert (list(dlx.solutions(_built(*raw), engine=engine, stats=fs))
                == list(dlx.solutions(slow, engine=engine, stats=ss)))
        assert (fs.nodes, fs.updates) == (ss.nodes, ss.updates)


@contextlib.contextmanager
def _python_checks():
    """ExactCover checks every option in Python inside this block."""
    saved = dlx.problem._scan
    dlx.problem._scan = None
    try:
        yield
    finally:
        dlx.problem._scan = saved
