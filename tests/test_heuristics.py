"""Knuth's other choice rules (issue 22): dlx2-sharp's preference for items named ``#...``
and SSXCC's weighted choice, on both engines.

A choice rule changes the tree, never the answers: every solution once, checked by
brute force; and the two engines walk the same tree (nodes, updates, profile, the
order of the solutions).  The sharp rule's nodes are those of Knuth's dlx2-sharp
on the instances whose output tests/data/knuth/answers.json records.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx
from dlx import engine as engines

ENGINES = ("python", "c") if engines.available() else ("python",)
DATA = Path(__file__).resolve().parent / "data" / "knuth"
ANSWERS = json.loads((DATA / "answers.json").read_text())["instances"]


@st.composite
def sharpened(draw, base=None):
    """A random problem whose primary items are renamed, some to ``#...`` (sharp)."""
    p = draw(base if base is not None else st.one_of(problems(), colored_problems()))
    sharp = {item: draw(st.booleans()) for item in p.primary}
    name = {item: ("#" if sharp[item] else "") + str(item) for item in p.primary}

    def renamed(entry):
        if isinstance(entry, dlx.Colored):
            return entry
        return name.get(entry, entry)

    options = {label: [renamed(e) for e in items] for label, items in p.options.items()}
    bounds = {name[i]: b for i, b in p.bounds.items()}
    return dlx.ExactCover(options, secondary=p.secondary,
                          primary=[name[i] for i in p.primary], bounds=bounds)


def walk(p, heuristic, engine):
    s = dlx.Stats()
    sols = list(dlx.solutions(p, heuristic=heuristic, engine=engine, stats=s,
                              max_nodes=BUDGET))
    return sols, (s.nodes, s.updates, s.solutions, list(s.profile))


@given(st.one_of(sharpened(), sharpened(bounded_problems())), st.sampled_from(["sharp"]))
def test_sharp_finds_every_solution_once_on_both_engines(p, heuristic):
    want = brute_force(p)
    seen = {}
    for engine in ENGINES:
        sols, stats = walk(p, heuristic, engine)
        assert len(sols) == len(want) and set(map(frozenset, sols)) == want
        seen[engine] = (sols, stats)
    assert len({repr(v) for v in seen.values()}) == 1, seen


@pytest.mark.slow
@given(sharpened())
def test_weighted_finds_every_solution_once_on_both_engines(p):
    want = brute_force(p)
    seen = {}
    for engine in ENGINES:
        sols, stats = walk(p, "weighted", engine)
        assert len(sols) == len(want) and set(map(frozenset, sols)) == want
        seen[engine] = (sols, stats)
        s = dlx.Stats()
        assert dlx.count(p, heuristic="weighted", engine=engine, stats=s,
                         max_nodes=BUDGET) == len(want)
        assert (s.nodes, s.updates) == stats[:2]
    assert len({repr(v) for v in seen.values()}) == 1, seen


@pytest.mark.parametrize("name", sorted(n for n in ANSWERS if "sharp" in ANSWERS[n]))
def test_sharp_visits_dlx2_sharps_nodes(name):
    import warnings

    want = ANSWERS[name]["sharp"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.formats.DLXFormatWarning)
        p = dlx.read_dlx((DATA / name).read_text())
    for engine in ENGINES:
        s = dlx.Stats()
        assert dlx.count(p, heuristic="sharp", engine=engine, stats=s) == want["count"]
        assert s.nodes == want["nodes"]


def test_weights_grow_where_lists_run_dry():
    """On pentominoes in a 6 x 5 box the weighted rule branches elsewhere than MRV (its
    tree differs), with the same 56 tilings; a fresh search starts from weights 1."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.formats.DLXFormatWarning)
        p = dlx.read_dlx((DATA / "pent6x5.dlx").read_text())
    plain, weighted = dlx.Stats(), dlx.Stats()
    assert dlx.count(p, stats=plain) == dlx.count(p, heuristic="weighted", stats=weighted) == 56
    assert weighted.nodes != plain.nodes
    again = dlx.Stats()
    dlx.count(p, heuristic="weighted", stats=again)
    assert again.nodes == weighted.nodes


def test_the_rules_are_named_in_errors():
    p = dlx.ExactCover({"x": ["a"]}, bounds={"a": (0, 1)})
    for engine in ENGINES:
        with pytest.raises(dlx.ExactCoverError, match="without bounds"):
            dlx.count(p, heuristic="weighted", engine=engine)
    with pytest.raises(dlx.ExactCoverError, match="'sharp', 'weighted'"):
        dlx.count(p, heuristic="sharpest")


@pytest.mark.slow
def test_the_command_line_takes_the_rules_a_cache_and_writes_a_zdd(tmp_path):
    import subprocess
    import sys

    def dlx_solve(*args):
        return subprocess.run([sys.executable, "-m", "dlx", "solve", *args], capture_output=True,
                              text=True, timeout=120)

    sharp = dlx_solve(str(DATA / "pent6x5-sharp.dlx"), "--count", "--heuristic", "sharp",
                      "--stats", "--format", "jsonl")
    assert sharp.returncode == 0, sharp.stderr
    assert '"count": 56' in sharp.stdout and "4,871" in sharp.stderr      # dlx2-sharp's nodes
    cached = dlx_solve(str(DATA / "dominoes6x6.dlx"), "--count", "--cache")
    assert (cached.returncode, cached.stdout.strip()) == (0, "6728")
    out = tmp_path / "d.zdd"
    made = dlx_solve(str(DATA / "dominoes6x6.dlx"), "--zdd", str(out))
    assert (made.returncode, made.stdout.strip()) == (0, "6728"), made.stderr
    assert dlx.ZDD.read(out).count() == 6728 and "written to" in made.stderr
    bad = dlx_solve(str(DATA / "dominoes6x6.dlx"), "--zdd", str(tmp_path / "no" / "d.zdd"))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
