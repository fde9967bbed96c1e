"""Time limits bound the whole call: the clock starts with it, so laying the problem out
counts, and a stopped search does not build its frontier (the subtrees left) until it
is read; ``dlx dominoes 200x200 --count --timeout 2`` ends on time in little memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from helpers import queens

import dlx
from dlx import engine as engines
from dlx.links import Links

ENGINES = ("python", "c") if engines.available() else ("python",)


def _fresh_queens(n: int) -> dlx.ExactCover:
    """An n-queens problem not laid out yet (its links are built on first use), as
    ``dlx queens N`` encodes it (items from the middle out)."""
    from problems import queens as puzzle

    return puzzle.encode(n)


def _timed(call) -> tuple[float, dlx.BudgetExceeded]:
    began = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as info:
        call()
    return time.monotonic() - began, info.value


SLACK = 1.0          # the harness allows 1.5 s; laying out 300-queens alone took 2 s


@pytest.mark.slow
@pytest.mark.parametrize("view", ["count", "solutions", "best", "best k", "cache", "zdd",
                                  "Prepared.count", "Prepared.batch"])
def test_a_time_limit_holds_on_a_problem_slow_to_lay_out(view):
    # 300-queens on the pure engine: laying it out took 2 s, and 4,096 of its nodes 2.5 s,
    # and count(timeout=0.5) took 5.3 s; the clock now starts with the call
    p = _fresh_queens(300)
    limit = 0.3
    calls = {
        "count": lambda: dlx.count(p, timeout=limit, engine="python"),
        "solutions": lambda: list(dlx.solutions(p, timeout=limit, engine="python")),
        "best": lambda: dlx.best(p, lambda label: label.col, timeout=limit, engine="python"),
        "best k": lambda: dlx.best(p, lambda label: 1, k=3, timeout=limit, engine="python"),
        "cache": lambda: dlx.count(p, cache=True, timeout=limit, engine="python"),
        "zdd": lambda: dlx.zdd(p, timeout=limit, engine="python"),
        # (as the harness times them: Prepared lays the problem out, outside any clock)
        "Prepared.count": lambda: dlx.Prepared(p, engine="python").count(timeout=limit),
        "Prepared.batch": lambda: dlx.Prepared(p, engine="python").batch(
            [[]], limit=None, timeout=limit),
    }
    if view == "Prepared.batch":
        began = time.monotonic()
        answer = calls[view]()[0]
        seconds = time.monotonic() - began
        assert answer.out_of_budget and answer.timed_out
    else:
        seconds, stop = _timed(calls[view])
        assert stop.timeout == limit and stop.max_nodes is None
    assert seconds < limit + SLACK, f"{view}(timeout={limit}) took {seconds:.2f} s"


@pytest.mark.skipif(not engines.available(), reason="the compiled core is not built")
@pytest.mark.parametrize("view", ["count", "solutions"])
def test_a_stopped_deep_search_does_not_build_its_frontier_unasked(view):
    # a 100 x 100 domino board stops some 5,000 levels deep: the paths to the subtrees
    # left (12 million labels, 580 MB) took a second to build after the time was up,
    # and on 200 x 200 gigabytes; the frontier is now made when read
    from problems import dominoes

    # (on X3's scan: the core's choice, its tree, finds this first tiling in a millisecond)
    p = dominoes.encode(100, 100)
    calls = {"count": lambda: dlx.count(p, timeout=0.05, engine="c-links"),
             "solutions": lambda: list(dlx.solutions(p, timeout=0.05, engine="c-links"))}
    seconds, stop = _timed(calls[view])
    assert seconds < 0.5, f"{view}(timeout=0.05) took {seconds:.2f} s"


@pytest.mark.slow
@pytest.mark.skipif(not engines.available(), reason="the compiled core is not built")
def test_the_cores_branch_and_bound_does_not_lay_the_problem_out_in_python():
    # best on the core read each option's share off the Python layout of the problem:
    # 447-queens took 1.7 s with timeout=0.05; the shares now come from ExactCover's
    # numbers, and reading the weights keeps the clock
    p = _fresh_queens(447)
    seconds, stop = _timed(lambda: dlx.best(p, lambda label: label.col, timeout=0.05,
                                            engine="c"))
    assert seconds < 0.05 + SLACK, f"best(timeout=0.05) took {seconds:.2f} s"
    small = _fresh_queens(8)
    assert dlx.best(small, lambda label: label.col * (label.row + 1), engine="c") == \
        dlx.best(small, lambda label: label.col * (label.row + 1), engine="python")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_frontier_made_when_read_is_the_one_a_search_leaves(engine):
    p = queens(8)
    with pytest.raises(dlx.BudgetExceeded) as info:
        dlx.count(p, max_nodes=40, engine=engine)
    stop = info.value
    pieces = stop.frontier
    assert pieces and all(isinstance(piece, tuple) for piece in pieces)
    assert stop.frontier is pieces                      # made once
    assert stop.found + sum(dlx.count(p, forced=piece, engine=engine) for piece in pieces) == 92
    import pickle

    again = pickle.loads(pickle.dumps(stop))             # to another process: made first
    assert (again.frontier, again.found, str(again)) == (pieces, stop.found, str(stop))


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_out_of_time_before_the_search_starts(engine, monkeypatch):
    # the clock runs out while the problem is laid out: nothing found, no nodes, and
    # the whole search (below the forced options) left
    clock = [time.monotonic()]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    real = Links._lay_out

    def slow_lay_out(self, numbered, check=None):
        clock[0] += 1000.0                  # laying out takes "forever"
        return real(self, numbered, check)

    monkeypatch.setattr(Links, "_lay_out", slow_lay_out)
    forced = [(0, 1)]
    stats = dlx.Stats()
    with pytest.raises(dlx.BudgetExceeded) as info:        # (each time a fresh problem)
        dlx.count(_fresh_queens(60), timeout=5, forced=forced, stats=stats, engine="python")
    stop = info.value
    assert (stop.found, stop.timeout, stop.max_nodes, stats.nodes) == (0, 5, None, 0)
    assert stop.frontier == [tuple(forced)]
    with pytest.raises(dlx.BudgetExceeded) as info:
        list(dlx.solutions(_fresh_queens(60), timeout=5, engine="python"))
    assert info.value.found == []
    with pytest.raises(dlx.BudgetExceeded) as info:
        dlx.best(_fresh_queens(60), lambda label: 1, k=2, timeout=5, engine="python")
    assert (info.value.found, info.value.frontier) == ([], None)
    monkeypatch.undo()
    assert dlx.count(_fresh_queens(8), engine=engine) == 92


# ------------------------------------------------------------------------ the command line


def _dlx(*argv: str, memory_kb: int = 2_000_000, timeout: float = 60
         ) -> tuple[float, subprocess.CompletedProcess[str]]:
    code = f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({memory_kb * 1024},) * 2)"
    began = time.monotonic()
    out = subprocess.run([sys.executable, "-c", code + "\nfrom dlx.cli import main\n"
                          "raise SystemExit(main())", *argv],
                         capture_output=True, text=True, timeout=timeout,
                         env={**os.environ, "PYTHONWARNINGS": "error"})
    return time.monotonic() - began, out


@pytest.mark.slow
@pytest.mark.skipif(not engines.available(), reason="the compiled core is not built")
def test_a_domino_count_stopped_by_time_ends_on_time_in_little_memory():
    # dominoes 200x200 --count --timeout 2 took 63 s and 9.3 GB (its frontier: 20,000
    # levels deep), exit 4 under a 2 GB cap
    seconds, out = _dlx("dominoes", "200x200", "--count", "--timeout", "2", "-q")
    assert out.returncode == 124, out.stderr
    assert out.stdout.strip().endswith("+") and "Traceback" not in out.stderr
    assert seconds < 2 + 4, f"took {seconds:.1f} s"
