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
