"""engine="cp-sat": the same answers as the core (first verified, is_unique and best scores
equal, no solution agreed), the limits, the refusals, the extra."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx
from dlx import cpsat

pytest.importorskip("ortools", reason="OR-Tools is in the dev extra (cp-sat)")

CP = {"engine": "cp-sat", "timeout": 20}

any_problem = st.one_of(problems(), colored_problems(), bounded_problems())


@st.composite
def weighted(draw):
    """A problem and a weight per option: ints, or Fractions."""
    p = draw(any_problem)
    number = st.one_of(st.integers(-6, 9), st.fractions(-4, 4, max_denominator=6))
    return p, {label: draw(number) for label in p.options}


@given(any_problem, st.data())
def test_first_parity(p, data):
    core = dlx.first(p, max_nodes=BUDGET)
    got = dlx.first(p, **CP)
    assert (got is None) == (core is None)
    if got is not None:
        assert dlx.why_not(p, got) is None
    if core:                                # forcing part of a solution: still found
        forced = data.draw(st.lists(st.sampled_from(core), unique=True))
        got = dlx.first(p, forced=forced, **CP)
        assert got is not None and set(forced) <= set(got) and dlx.is_exact_cover(p, got)


@given(any_problem)
def test_is_unique_parity(p):
    assert dlx.is_unique(p, **CP) == dlx.is_unique(p, max_nodes=BUDGET)


@given(weighted(), st.booleans(), st.sampled_from([None, 1, 3]))
def test_best_parity(pw, maximize, k):
    p, w = pw
    core = dlx.best(p, w, maximize=maximize, k=k, max_nodes=BUDGET)
    got = dlx.best(p, w, maximize=maximize, k=k, **CP)
    if k is None:
        assert (got is None) == (core is None)
        if got is not None:
            assert got[0] == core[0] and dlx.is_exact_cover(p, got[1])
            assert sum(w[o] for o in got[1]) == got[0]
    else:
        assert [score for score, _ in got] == [score for score, _ in core]
        assert len({frozenset(sol) for _, sol in got}) == len(got)
        for score, sol in got:
            assert dlx.is_exact_cover(p, sol) and sum(w[o] for o in sol) == score


@given(bounded_problems(), st.data())
def test_costs_parity(p, data):
    costs = {label: data.draw(st.integers(0, 5)) for label in p.options}
    priced = dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary,
                            bounds=p.bounds, costs=costs)
    core = dlx.best(priced, k=2, max_nodes=BUDGET)
    got = dlx.best(priced, k=2, **CP)
    assert [s for s, _ in got] == [s for s, _ in core]


def test_toy_problem():
    p = dlx.ExactCover({"ce": ["c", "e"], "adg": ["a", "d", "g"], "bcf": ["b", "c", "f"],
                        "adf": ["a", "d", "f"], "bg": ["b", "g"], "deg": ["d", "e", "g"]})
    stats = dlx.Stats()
    assert set(dlx.first(p, stats=stats, **CP)) == {"ce", "bg", "adf"}
    assert stats.solutions == 1 and stats.explored == 1.0
    assert dlx.is_unique(p, **CP)
    assert dlx.best(p, {label: len(label) for label in p.options}, **CP)[0] == 7


def test_fractions_and_floats_are_exact():
    p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
    thirds = {"x": Fraction(1, 3), "y": Fraction(1, 3), "xy": Fraction(2, 3) + Fraction(1, 10**9)}
    assert dlx.best(p, thirds, **CP) == (thirds["xy"], ("xy",))
    assert dlx.best(p, thirds, maximize=False, **CP) == (Fraction(2, 3), ("x", "y"))
    halves = {"x": 0.5, "y": 0.25, "xy": 0.75}         # a tie: either order
    got = dlx.best(p, halves, k=3, **CP)
    assert [s for s, _ in got] == [s for s, _ in dlx.best(p, halves, k=3)] == [0.75, 0.75]
    assert {sol for _, sol in got} == {("x", "y"), ("xy",)} and isinstance(got[0][0], float)


def test_floats_that_cannot_be_scaled_are_refused():
    p = dlx.ExactCover({"x": ["a"], "y": ["a"]})
    with pytest.raises(dlx.ExactCoverError, match="cannot be scaled to exact integers"):
        dlx.best(p, {"x": 0.1, "y": 1e-300}, **CP)


def test_no_solution_and_impossible_items():
    assert dlx.first(dlx.ExactCover({"x": ["a", "b"], "y": ["b", "c"]}), **CP) is None
    assert dlx.first(dlx.ExactCover({}, primary=["a"]), **CP) is None
    assert not dlx.is_unique(dlx.ExactCover({}, primary=["a"]), **CP)
    assert dlx.best(dlx.ExactCover({}, primary=["a"]), k=2, **CP) == []
    bounded = dlx.ExactCover({"x": ["a"]}, bounds={"a": (2, 3)})
    assert dlx.first(bounded, **CP) is None


def test_options_without_primary_item_are_never_chosen():
    p = dlx.ExactCover({"x": ["a"], "lone": ["s"]}, secondary=["s"])
    assert dlx.first(p, **CP) == ("x",)
    assert dlx.best(p, {"x": 1, "lone": 5}, **CP) == (1, ("x",))
    assert dlx.is_unique(p, **CP)
    with pytest.raises(dlx.ExactCoverError, match="never chosen"):
        dlx.first(p, forced=["lone"], **CP)
    with pytest.raises(dlx.ExactCoverError, match="not an option"):
        dlx.first(p, forced=["nope"], **CP)


@pytest.mark.parametrize("view", ["count", "solutions", "trace", "zdd"])
def test_count_and_solutions_are_refused(view):
    p = dlx.ExactCover({"x": ["a"]})
    with pytest.raises(dlx.ExactCoverError) as caught:
        result = getattr(dlx, view)(p, engine="cp-sat")
        list(result)
    text = str(caught.value)
    assert "cp-sat" in text and "'auto', 'c' or 'python'" in text
    if view in ("count", "solutions"):
        assert f"cannot do {view}" in text and "one solution per solve" in text


def test_refused_keywords():
    p = dlx.ExactCover({"x": ["a"]})
    with pytest.raises(dlx.ExactCoverError, match="branches its own way"):
        dlx.first(p, engine="cp-sat", heuristic="sharp")
    with pytest.raises(dlx.ExactCoverError, match="no bound= hook"):
        dlx.best(p, {"x": 1}, engine="cp-sat", bound=lambda s: 0)


def langford(n):
    from problems import langford

    return langford.encode(n)


def test_time_limit():
    """Langford 14 has no solution, which CP-SAT does not prove in a second."""
    stats = dlx.Stats()
    with pytest.raises(dlx.BudgetExceeded) as caught:
        dlx.first(langford(14), engine="cp-sat", timeout=0.5, stats=stats)
    assert caught.value.max_nodes is None and caught.value.timeout == 0.5
    assert caught.value.found is None and stats.nodes > 0 and stats.explored == 0.0


def test_conflict_budget():
    with pytest.raises(dlx.BudgetExceeded) as caught:
        dlx.first(langford(14), engine="cp-sat", max_nodes=50, timeout=20)
    assert caught.value.max_nodes == 50
    with pytest.raises(dlx.BudgetExceeded) as caught:
        dlx.is_unique(langford(11), engine="cp-sat", max_nodes=5, timeout=20)
    assert caught.value.found in (None, 1)


def test_best_stopped_keeps_the_best_so_far():
    from problems import queens

    p = queens.encode(30)
    weight = {label: label.row * label.col for label in p.options}
    with pytest.raises(dlx.BudgetExceeded) as caught:
        dlx.best(p, weight, engine="cp-sat", max_nodes=1, timeout=20)
    found = caught.value.found
    assert found is None or dlx.is_exact_cover(p, found[1])


def test_progress_is_called_and_stops_the_solver():
    calls = []

    def progress(stats):
        calls.append(stats.nodes)
        if len(calls) == 3:
            raise KeyboardInterrupt

    import threading

    before = threading.active_count()
    with pytest.raises(KeyboardInterrupt):
        dlx.first(langford(14), engine="cp-sat", timeout=30, progress=progress)
    assert len(calls) == 3 and threading.active_count() == before


def test_every_answer_is_verified(monkeypatch):
    monkeypatch.setattr(cpsat, "why_not", lambda problem, labels: "a planted fault")
    with pytest.raises(RuntimeError, match="not an exact cover: a planted fault"):
        dlx.first(dlx.ExactCover({"x": ["a"]}), **CP)


def test_seed_is_reproducible():
    from problems import queens

    p = queens.encode(12)
    assert dlx.first(p, seed=3, **CP) == dlx.first(p, seed=3, **CP)


def test_import_dlx_does_not_load_ortools():
    code = ("import sys, dlx; dlx.first(dlx.ExactCover({'x': ['a']})); "
            "print('ortools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("engine", ["cp-sat", "race"])
def test_missing_extra_is_one_line(engine):
    code = ("import sys; sys.modules['ortools'] = None\n"
            "import dlx\n"
            "try:\n"
            f"    dlx.first(dlx.ExactCover({{'x': ['a']}}), engine={engine!r})\n"
            "except dlx.ExactCoverError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout == ("engine='cp-sat' needs OR-Tools, which is not installed: pip install"
                          " 'dancing-links-dlx[cp-sat]'\n"), out.stderr


def test_dlx_engine_variable_names_dancing_links_only(monkeypatch):
    monkeypatch.setenv("DLX_ENGINE", "cp-sat")
    with pytest.raises(dlx.ExactCoverError, match="DLX_ENGINE.*give engine='cp-sat'"):
        dlx.count(dlx.ExactCover({"x": ["a"]}))


# ------------------------------------------------------------------ the dlx command

TOY = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def dlx_cmd(*argv, stdin=""):
    from pathlib import Path

    script = Path(sys.executable).with_name("dlx")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "dlx"]
    return subprocess.run([*cmd, *argv], input=stdin, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("engine", ["cp-sat", "race"])
def test_command_line_engines(engine):
    out = dlx_cmd("solve", "--engine", engine, stdin=TOY)
    assert out.returncode == 0, out.stderr
    assert sorted(out.stdout.strip().split("; ")) == ["a d f", "b g", "c e"]
    priced = "a b\na |1\nb |2\na b |4\n"
    out = dlx_cmd("solve", "--engine", engine, "--best", "2", stdin=priced)
    assert out.returncode == 0 and [line.split(":")[0] for line in out.stdout.splitlines()] \
        == ["3", "4"], out.stderr
    out = dlx_cmd("sudoku", "solve", "--unique", "--engine", engine, stdin=PUZZLE + "\n")
    assert out.returncode == 0 and out.stdout.startswith("4839216579673458"), out.stderr
    out = dlx_cmd("sudoku", "classify", "--engine", engine, stdin="." * 81 + "\n")
    assert out.returncode == 0 and out.stdout == "Ambiguous\n", out.stderr


@pytest.mark.parametrize(("argv", "says"), [
    (["solve", "--count"], "does not count (--count)"),
    (["solve", "--limit", "2"], "does not list them (--limit N above 1)"),
    (["solve", "--jobs", "2"], "runs in this process"),
    (["queens", "8", "--all"], "does not list them (--all, --limit K)"),
    (["langford", "7", "--count"], "does not count"),
    (["sudoku", "count"], "does not count"),
])
def test_command_line_refusals(argv, says):
    out = dlx_cmd(*argv, "--engine", "cp-sat", stdin=TOY)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and says in out.stderr, out.stderr
