"""dlx.verify: why_not's reasons name the item and the options that break the rule, in
plain English (never "1 times"); is_exact_cover agrees with why_not, and among every
subset of the toy problem's options finds its one cover."""

from __future__ import annotations

import itertools
import re

from hypothesis import given
from hypothesis import strategies as st
from strategies import bounded_problems, colored_problems, problems

import dlx
from dlx import Colored, ExactCover


@given(st.one_of(problems(), colored_problems(), bounded_problems()), st.data())
def test_every_reason_is_plain_english_and_names_what_breaks_the_rule(p, data):
    labels = list(p.options)
    picked = data.draw(st.lists(st.sampled_from(labels), max_size=5)) if labels else []
    reason = dlx.why_not(p, picked)
    assert (reason is None) == dlx.is_exact_cover(p, picked)
    if reason is None:
        return
    assert not re.search(r"\b1 times\b|\b[02-9] time\b", reason), reason
    if "covered" in reason and "not covered" not in reason:
        # "covered twice (by options 'x' and 'y')": the options are named
        assert re.search(r"\(by options? ", reason), reason
    if "colour" in reason:
        assert "by option" in reason, reason


def test_the_reasons_one_by_one():
    p = ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"], "w": ["a", "b"]})
    assert dlx.why_not(p, ["x"]) == "item 'b' is not covered (it must be covered once)"
    assert dlx.why_not(p, ["x", "y"]) == \
        "item 'a' is covered twice (by options 'x' and 'y'), not once"
    assert dlx.why_not(p, ["x", "y", "w"]) == \
        "item 'a' is covered 3 times (by options 'x', 'y' and 'w'), not once"
    assert dlx.why_not(p, ["z", "z"]) == "option 'z' is used twice"
    assert dlx.why_not(p, ["q"]) == "'q' is not an option of the problem"
    bounded = ExactCover({"x": ["a"], "y": ["a"], "z": ["a"]}, bounds={"a": (2, 2)})
    assert dlx.why_not(bounded, ["x"]) == "item 'a' is covered once (by option 'x'), not twice"
    ranged = ExactCover({"x": ["a"], "y": ["a"], "z": ["a"]}, bounds={"a": (0, 1)})
    assert dlx.why_not(ranged, ["x", "y"]) == \
        "item 'a' is covered twice (by options 'x' and 'y'), not at most once"
    s = ExactCover({"x": ["a", "s"], "y": ["b", "s"]}, secondary=["s"])
    assert dlx.why_not(s, ["x", "y"]) == ("secondary item 's' is covered twice (by options 'x'"
                                          " and 'y'); without a colour it may be covered at"
                                          " most once")
    c = ExactCover({"x": ["a", Colored("s", 1)], "y": ["b", Colored("s", 2)], "z": ["b", "s"]},
                   secondary=["s"])
    assert dlx.why_not(c, ["x", "y"]) == \
        "secondary item 's' is given different colours: 1 by option 'x', 2 by option 'y'"


def test_many_options_are_named_ten_at_most():
    p = ExactCover({k: ["a"] for k in range(30)})
    reason = dlx.why_not(p, list(range(30)))
    assert reason == ("item 'a' is covered 30 times (by options 0, 1, 2, 3, 4, 5, 6, 7, 8 and"
                      " 21 more), not once")


def test_is_exact_cover_is_the_brute_force_s_answer():
    p = ExactCover({o: o.split() for o in ("c e", "a d g", "b c f", "a d f", "b g", "d e g")})
    covers = [set(s) for k in range(7) for s in itertools.combinations(p.options, k)
              if dlx.is_exact_cover(p, s)]
    assert covers == [{"a d f", "b g", "c e"}]
