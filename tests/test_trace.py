"""The step trace: a golden trace of Knuth's toy problem, and consistency at every pause."""

from __future__ import annotations

from hypothesis import given
from strategies import BUDGET, problems

import dlx
from dlx.links import Links
from dlx.search import run

TOY = {"ce": ["c", "e"], "adg": ["a", "d", "g"], "bcf": ["b", "c", "f"],
       "adf": ["a", "d", "f"], "bg": ["b", "g"], "deg": ["d", "e", "g"]}

# Knuth's item order a..g; option labels are the options' items.  At "L1 try bcf",
# covering c leaves e without options while f (still to commit) has none either: two
# empty items, one of them outside bcf, so the commit stops there (early failure).
GOLDEN = """\
L0 choose item a (2 options)
L0 cover a
L0 try adg (1 of 2)
L0 cover d
L0 cover g
L1 choose item b (1 option)
L1 cover b
L1 try bcf (1 of 1)
L1 cover c
L1 uncover c
L1 uncover b
L1 backtrack
L0 uncover g
L0 uncover d
L0 try adf (2 of 2)
L0 cover d
L0 cover f
L1 choose item b (1 option)
L1 cover b
L1 try bg (1 of 1)
L1 cover g
L2 choose item c (1 option)
L2 cover c
L2 try ce (1 of 1)
L2 cover e
L3 solution: adf, bg, ce
L3 backtrack
L2 uncover e
L2 uncover c
L2 backtrack
L1 uncover g
L1 uncover b
L1 backtrack
L0 uncover f
L0 uncover d
L0 uncover a
L0 backtrack"""


def test_golden_trace_of_the_toy_problem():
    p = dlx.ExactCover(TOY, primary=list("abcdefg"))
    stats = dlx.Stats()
    got = "\n".join(str(e) for e in dlx.trace(p, stats=stats))
    assert got == GOLDEN
    # the trace is the same loop as count: same statistics
    counted = dlx.Stats()
    dlx.count(p, stats=counted)
    assert stats == counted


def test_event_fields():
    p = dlx.ExactCover(TOY, primary=list("abcdefg"))
    events = list(dlx.trace(p))
    assert events[0] == dlx.Choose(0, "a", 2)
    assert events[2] == dlx.Try(0, "adg", 1, 2)
    sol = [e for e in events if isinstance(e, dlx.Solution)]
    assert len(sol) == 1 and sol[0].options == ("adf", "bg", "ce") and sol[0].level == 3


@given(problems())
def test_links_consistent_at_every_pause_and_events_balance(p):
    links = Links.build(p)
    before = links.snapshot()
    covered = 0
    for event in run(links, "trace", max_nodes=BUDGET):
        links.check()
        if isinstance(event, dlx.Cover):
            covered += 1
        elif isinstance(event, dlx.Uncover):
            covered -= 1
        assert covered >= 0
        if isinstance(event, dlx.Solution):
            assert dlx.is_exact_cover(p, event.options)
            assert links.RLINK[0] == 0
    assert covered == 0 and links.snapshot() == before


@given(problems())
def test_trace_solutions_equal_solutions(p):
    traced = [e.options for e in dlx.trace(p, max_nodes=BUDGET) if isinstance(e, dlx.Solution)]
    assert traced == list(dlx.solutions(p, max_nodes=BUDGET))
