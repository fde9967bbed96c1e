"""ExactCover validation: every bad input is an ExactCoverError naming the option and item."""

from __future__ import annotations

import pytest

import dlx


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
    np = pytest.importorskip("numpy")
    rows = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]])
    p = dlx.ExactCover.from_matrix(rows)
    assert dlx.count(p) == 2 and p.options[0] == (0, 2)
    sparse = pytest.importorskip("scipy.sparse")
    q = dlx.ExactCover.from_matrix(sparse.csr_matrix(rows))
    assert q.options == p.options and q.primary == p.primary
