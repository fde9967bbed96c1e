"""Randomised restarts (``dlx.first(p, restarts=True)``, :mod:`dlx.restarts`).

Held to: a solution exactly when one exists (the brute force), every answer a
verified exact cover; the same seed, the same answer and Stats, on both engines;
the runs Luby's budgets in the module's unit, the plain search among them, made
here by hand with the pure loop (``dlx.search.run``) and summed, which the views'
Stats must equal; node
budgets spent to the node, time limits and Ctrl-C obeyed; the problem laid out
once however many runs.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from helpers import langford, queens
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx
from dlx import engine as engines
from dlx import restarts
from dlx.dance import Rand
from dlx.links import Links
from dlx.rules import RESTARTS, draws
from dlx.search import run

ENGINES = ("python", "c") if engines.available() else ("python",)
ANY = st.one_of(problems(), colored_problems(), bounded_problems())


def stats_of(s: dlx.Stats) -> tuple[int, int, int, list[int]]:
    return s.nodes, s.updates, s.solutions, list(s.profile)


def by_hand(p: dlx.ExactCover, seed: int | None = None, max_nodes: int | None = None,
            forced: list = ()):
    """The runs as dlx.restarts describes them, made with the pure loop (the plain
    rule in runs 1, 3, 7, ..., the random one in the others): (answer, the summed
    nodes, updates, solutions and profile, the budgets of the runs); the answer is
    "budget" when max_nodes ran out."""
    links = Links.build(p)
    step, seeds = restarts.unit(links), Rand(draws(seed))
    placed = links.first_primary(links.forced_options(forced))
    nodes = updates = solutions = 0
    profile: list[int] = []
    budgets = []
    left = max_nodes
    for k in itertools.count(1):
        budget = restarts.luby(k) * step if left is None else min(restarts.luby(k) * step, left)
        budgets.append(budget)
        s = dlx.Stats()
        rule = "mrv" if k in (1, 3, 7, 15, 31, 63, 127) else RESTARTS.name
        search = run(links, "solutions", stats=s, max_nodes=budget, heuristic=rule,
                     seed=seeds.next(), forced=placed)
        stopped = False
        try:
            found = next(search, None)
        except dlx.BudgetExceeded:
            found, stopped = None, True
        finally:
            search.close()
        nodes, updates, solutions = nodes + s.nodes, updates + s.updates, solutions + s.solutions
        profile = [a + b for a, b in itertools.zip_longest(profile, s.profile, fillvalue=0)]
        summed = (nodes, updates, solutions, profile)
        if not stopped:
            return found, summed, budgets
        if left is not None:
            left -= budget
            if left == 0:
                return "budget", summed, budgets
    raise AssertionError


@given(ANY, st.integers(0, 5))
def test_restarts_find_a_solution_exactly_when_there_is_one(p, seed):
    want = brute_force(p)
    for engine in ENGINES:
        found = dlx.first(p, restarts=True, seed=seed, engine=engine, max_nodes=BUDGET)
        if want:
            assert found is not None and frozenset(found) in want
            assert dlx.is_exact_cover(p, found)
        else:
            assert found is None


@given(ANY, st.one_of(st.none(), st.integers(0, 2**70)), st.booleans())
def test_both_engines_make_the_same_runs_and_the_runs_add_up(p, seed, forced_first):
    """The answer and the summed Stats of each engine are those of the runs made by
    hand: Luby's budgets in the unit, each run's seed drawn from seed=, the
    forced options placed in each."""
    primary = set(p.primary)
    placeable = [label for label, items in p.options.items()
                 if any(not isinstance(e, dlx.Colored) and e in primary for e in items)]
    forced = placeable[:1] if forced_first else []
    want = by_hand(p, seed, forced=forced)
    seen = set()
    for engine in ENGINES:
        s = dlx.Stats()
        found = dlx.first(p, restarts=True, seed=seed, engine=engine, stats=s, forced=forced,
                          max_nodes=BUDGET)
        seen.add(repr((found, stats_of(s))))
        assert (found, stats_of(s)) == want[:2]
        again = dlx.Stats()
        assert dlx.first(p, restarts=True, seed=seed, engine=engine, stats=again,
                         forced=forced, max_nodes=BUDGET) == found
        assert stats_of(again) == stats_of(s)
    assert len(seen) == 1, seen


@pytest.mark.parametrize("engine", ENGINES)
def test_a_node_budget_is_spent_to_the_node(engine):
    """Langford pairs for n = 9 have no solution: the runs go on until max_nodes is
    spent, exactly, the last run cut to what is left; for n = 6, a run searches the
    whole tree at last."""
    p = langford(9)
    for budget in (1, 7, 100, 1000):
        s = dlx.Stats()
        with pytest.raises(dlx.BudgetExceeded) as stop:
            dlx.first(p, restarts=True, max_nodes=budget, stats=s, engine=engine)
        assert stop.value.max_nodes == budget and stop.value.found is None
        assert s.nodes == budget == sum(s.profile) and stop.value.stats is s
        answer, summed, budgets = by_hand(p, max_nodes=budget)
        assert answer == "budget" and summed == stats_of(s) and sum(budgets) == budget
    s = dlx.Stats()
    p = langford(6)
    assert dlx.first(p, restarts=True, stats=s, engine=engine, max_nodes=BUDGET) is None
    assert (None, stats_of(s)) == by_hand(p)[:2]       # a run searched the whole tree


@pytest.mark.parametrize("engine", ENGINES)
def test_a_time_limit_stops_the_runs(engine):
    p = langford(10 if engine == "python" else 14)     # no solution, a large tree
    s = dlx.Stats()
    started = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as stop:
        dlx.first(p, restarts=True, timeout=0.3, stats=s, engine=engine)
    assert time.monotonic() - started < 10
    assert stop.value.max_nodes is None and stop.value.timeout == 0.3
    assert stop.value.frontier is None and s.nodes > 0 and sum(s.profile) == s.nodes


@pytest.mark.parametrize("engine", ENGINES)
def test_progress_sees_the_sums_and_can_stop_the_runs(engine):
    p = langford(9 if engine == "python" else 13)         # no solution
    seen = []

    def progress(s: dlx.Stats) -> None:
        seen.append(s.nodes)
        if len(seen) == 3:
            raise KeyboardInterrupt

    s = dlx.Stats()
    with pytest.raises(KeyboardInterrupt):
        dlx.first(p, restarts=True, stats=s, progress=progress, engine=engine)
    # (the stop comes at X5, the node counted but not tried: it is taken back)
    assert seen == sorted(seen) and s.nodes >= seen[-1] - 1 and seen[-1] > seen[0] > 0
    assert sum(s.profile) == s.nodes


@pytest.mark.parametrize("engine", ENGINES)
def test_the_problem_is_laid_out_once(engine, monkeypatch):
    """Many runs, one layout: one core search restarted, or one copy of the links."""
    made = []
    if engine == "c":
        real = engines.restartable
        monkeypatch.setattr(engines, "restartable", lambda *a, **k: made.append(1) or real(*a, **k))
    else:
        real_copy = Links.copy
        monkeypatch.setattr(Links, "copy", lambda self: made.append(1) or real_copy(self))
    p = langford(9)                                     # no solution
    with pytest.raises(dlx.BudgetExceeded):
        dlx.first(p, restarts=True, engine=engine, max_nodes=5000)
    assert len(by_hand(p, max_nodes=5000)[2]) > 10     # many runs
    assert made == [1]


def test_restarts_reach_large_boards_in_few_nodes():
    """MRV with its first options in the problem's order sinks into a subtree of
    queens 80 without a solution; after the plain first run, the random choices of
    the restarts go through in about a node a queen (pinned: seeds 0 and 1)."""
    p = queens(80)
    with pytest.raises(dlx.BudgetExceeded):
        dlx.first(p, max_nodes=20_000)
    for seed, nodes in ((0, 248), (1, 242)):    # (the first run, the plain one: 161)
        for engine in ENGINES:
            s = dlx.Stats()
            found = dlx.first(p, restarts=True, seed=seed, stats=s, engine=engine,
                              max_nodes=BUDGET)
            assert dlx.is_exact_cover(p, found) and s.nodes == nodes


def test_restarts_refuse_what_they_cannot_do():
    p = queens(4)
    with pytest.raises(dlx.ExactCoverError, match="first"):
        dlx.count(p, restarts=True)
    with pytest.raises(dlx.ExactCoverError, match="heuristic"):
        dlx.first(p, restarts=True, heuristic="weighted")
    with pytest.raises(dlx.ExactCoverError, match="True or False"):
        dlx.first(p, restarts="yes")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as ex, pytest.raises(dlx.ExactCoverError, match="executor"):
        dlx.first(p, restarts=True, executor=ex)
    assert dlx.first(p, restarts=False) == dlx.first(p)
    assert dlx.is_exact_cover(p, dlx.first(p, restarts=True, heuristic=RESTARTS.name))


# ----------------------------------------------------------------- the command line


def dlx_command(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dlx", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_the_command_line_restarts(tmp_path):
    path = tmp_path / "p.dlx"
    path.write_text("a b c\na\nb\nc\na b\nb c\n")
    done = dlx_command("solve", str(path), "--restarts", "--seed", "3", "--stats")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.strip().split("; ")]
    assert sorted(item for row in rows for item in row) == ["a", "b", "c"]
    assert "nodes" in done.stderr
    none = tmp_path / "none.dlx"
    none.write_text("a b c\na b\nb c\n")
    assert dlx_command("solve", str(none), "--restarts").returncode == 1
    budget = dlx_command("langford", "6", "--restarts", "--max-nodes", "50")
    assert budget.returncode == 124 and "50" in budget.stderr
    for bad in (["--restarts", "--limit", "2"], ["--seed", "1"],
                ["--restarts", "--heuristic", "first"], ["--restarts", "--count"]):
        wrong = dlx_command("solve", str(path), *bad)
        assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
        assert wrong.stderr.strip().splitlines()[-1].startswith("dlx")   # (after a usage)
    board = dlx_command("queens", "40", "--restarts", "--format", "jsonl")
    assert board.returncode == 0, board.stderr
    import json

    columns = json.loads(board.stdout)["columns"]
    assert sorted(columns) == list(range(40))
    assert len({r + c for r, c in enumerate(columns)}) == 40
    assert len({r - c for r, c in enumerate(columns)}) == 40
    grid = dlx_command("sudoku", "solve", "--restarts", "--box", "4x4", stdin="." * 256 + "\n")
    assert grid.returncode == 0, grid.stderr
    from problems import sudoku

    assert sudoku.is_legal(grid.stdout.strip()) and "." not in grid.stdout


def test_ctrl_c_stops_restarts_on_the_command_line():
    """SIGINT during a long run of restarts (Langford pairs for n = 14 have none): exit
    130 and a line on stderr, at once."""
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import signal, sys
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from dlx.cli import main
        print("started", flush=True)
        sys.exit(main(["langford", "14", "--restarts", "--quiet"]))
        """)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "started"
        time.sleep(1.0)
        os.kill(child.pid, signal.SIGINT)
        started = time.monotonic()
        out, err = child.communicate(timeout=60)
        assert time.monotonic() - started < 10
        assert child.returncode == 130, err
        assert "interrupted" in err and "Traceback" not in err
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)


def test_a_prepared_problem_restarts_on_its_one_layout():
    latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v)]
                            for r in range(5) for c in range(5) for v in range(5)})
    prepared = dlx.Prepared(latin)
    for seed in (None, 3):
        found = prepared.first([(0, 0, 1)], restarts=True, seed=seed)
        assert found == dlx.first(latin, forced=[(0, 0, 1)], restarts=True, seed=seed)
        assert found[0] == (0, 0, 1) and dlx.is_exact_cover(latin, found)
