"""Issue 20, second pass: the faults the fuzzing harness still found.

Each test failed before its fix: a raw AttributeError, TypeError or OverflowError
where a clean :class:`dlx.ExactCoverError` belongs; time limits that did not bound
the call (the laying out of the problem and the frontier of a stopped search were
outside the clock); and the links of a problem shared by threads read half laid out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
from helpers import queens, toy
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import bounded_problems

import dlx
from dlx import engine as engines
from dlx.links import Links

ENGINES = ("python", "c") if engines.available() else ("python",)
TOY_SOLUTION = ["o4", "o5", "o1"]          # its option indices: 3, 4, 0


# ------------------------------------------------------- 1. write_dlx of something else


@pytest.mark.parametrize("bad", [5, None, "a b\na\n", {"x": ["a"]}, object()])
def test_write_dlx_refuses_what_is_not_a_problem(bad):
    with pytest.raises(dlx.ExactCoverError, match="write_dlx writes a dlx.ExactCover") as info:
        dlx.write_dlx(bad)
    assert isinstance(info.value, TypeError)          # as read_dlx(1.5): both


# ----------------------------------------- 2. Prepared's lists that are not lists


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("call, name", [
    (lambda P: P.batch(None), "forced_sets must be a list"),
    (lambda P: P.batch(5, indices=True), "forced_sets must be a list"),
    (lambda P: P.batch("ab"), "forced_sets must be a list"),
    (lambda P: P.batch([5]), "each of forced_sets"),
    (lambda P: P.batch([None], indices=True), "forced_sets"),
    (lambda P: P.minimize(TOY_SOLUTION, groups=5), "groups must be a list"),
    (lambda P: P.minimize([3, 4, 0], groups=5, indices=True), "groups must be a list"),
    (lambda P: P.minimize(TOY_SOLUTION, groups=[5]), "each of groups"),
    (lambda P: P.minimize(TOY_SOLUTION, unavoidable=5), "unavoidable must be a list"),
    (lambda P: P.minimize([3, 4, 0], unavoidable=None, indices=True),
     "unavoidable must be a list"),
    (lambda P: P.minimize(TOY_SOLUTION, unavoidable=[5]), "each of unavoidable"),
    (lambda P: P.minimize(None), "forced must be a list"),
    (lambda P: P.minimize(5, indices=True), "forced must be a list"),
], ids=["batch(None)", "batch(5)", "batch('ab')", "batch([5])", "batch([None])",
        "groups=5", "groups=5 indices", "groups=[5]", "unavoidable=5",
        "unavoidable=None indices", "unavoidable=[5]", "minimize(None)", "minimize(5)"])
def test_prepared_names_the_argument_that_is_not_a_list(engine, call, name):
    with pytest.raises(dlx.ExactCoverError, match=name.replace("(", r"\(")):
        call(dlx.Prepared(toy(), engine=engine))


@pytest.mark.parametrize("engine", ENGINES)
def test_prepared_still_takes_any_iterable(engine):
    prepared = dlx.Prepared(toy(), engine=engine)
    assert [a.found for a in prepared.batch(iter([iter(["o4"]), ()]), limit=None)] == [1, 1]
    kept = prepared.minimize(iter(TOY_SOLUTION), groups=iter([["o4"], ("o5",)]),
                             unavoidable=iter([]))
    assert set(kept.kept) <= set(TOY_SOLUTION)


# ------------------------------------------ 3. bounds and caches of any size


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


# ------------------------------------------------- 4. timeouts too large for a float


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


# ------------------------------------------- 5. the time limit bounds the whole call


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


def test_the_layout_calls_its_check_every_few_thousand_options():
    n = 3 * Links.CHECK_EVERY + 5
    p = dlx.ExactCover({k: ["a", ("s", k)] for k in range(n)},
                       secondary=[("s", k) for k in range(n)])
    calls = []
    links = Links.build(p, check=lambda: calls.append(1))
    links.lay_out(check=lambda: calls.append(1))
    assert len(calls) == 3
    links.check()

    class Late(Exception):
        pass

    def stop():
        raise Late

    q = dlx.ExactCover({k: [k] for k in range(n)})
    with pytest.raises(Late):       # (laid out when built, or when first used)
        Links.of(q, stop).lay_out(stop)
    Links.of(q).check()             # the next use lays it out whole
    assert dlx.count(q, engine="python") == 1


# --------------------------------------------------------- 6. the command line


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


# --------------------------------------------------------- 7. threads


@pytest.mark.slow
def test_threads_sharing_a_problem_never_see_it_half_laid_out():
    # a problem shared by threads is laid out on first use: a thread that came second
    # read the arrays while the first was making them ("'Links' object has no attribute
    # 'TOP'"); many fresh problems, four threads each, started together
    n = 20_000
    faults: list[str] = []
    for rep in range(12):
        p = dlx.ExactCover({("o", rep, i): ["a", ("s", i)] for i in range(n)},
                           secondary=[("s", i) for i in range(n)])
        barrier = threading.Barrier(4)

        def search(k: int, p: dlx.ExactCover = p, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                if k == 3 and engines.available():
                    got = dlx.Prepared(p, engine="python").batch([[]], limit=3)[0].found
                else:
                    got = dlx.count(p, limit=3, engine="python" if k < 2 else "auto")
                if got != 3:
                    faults.append(f"thread {k}: {got} solutions, not 3")
            except Exception as e:  # noqa: BLE001 - any exception in a thread is the fault
                faults.append(f"thread {k}: {type(e).__name__}: {e}")

        pool = [threading.Thread(target=search, args=(k,)) for k in range(4)]
        for t in pool:
            t.start()
        for t in pool:
            t.join(60)
        assert not faults, faults[:3]
        Links.of(p).check()


# --------------------------------------------------------------- 8. workers killed


def test_a_dead_pools_broken_pipe_is_a_lost_worker_not_the_tasks_error():
    # a pool's feeder thread writing to the pipe of killed workers hands the task
    # OSError(EBADF) instead of BrokenProcessPool; it was raised as the task's own
    # error, a traceback from `dlx queens 15 --count --jobs 2` (fuzzing, stress #270)
    import errno

    from dlx.parallel.executors import is_fault

    assert is_fault(OSError(errno.EBADF, "Bad file descriptor"))
    assert is_fault(OSError(errno.EPIPE, "Broken pipe"))
    assert not is_fault(OSError(errno.ENOENT, "No such file"))
    assert not is_fault(ValueError("a task's own error"))


@pytest.mark.slow
@pytest.mark.skipif(not engines.available(), reason="the compiled core is not built")
def test_a_pool_stopped_by_its_time_limit_exits_without_a_word_from_python():
    # Python's exit wakes every process pool's manager thread; one that closed its
    # wake-up pipe at that moment printed "Exception ignored in: <module 'threading'>
    # ... OSError: [Errno 9] Bad file descriptor" (in about one run of five here)
    for _ in range(8):
        seconds, out = _dlx("pentominoes", "6x10", "--all", "-q", "--jobs", "2",
                            "--timeout", "0.5")
        assert out.returncode == 124, out.stderr
        assert "Traceback" not in out.stderr and "Exception ignored" not in out.stderr, \
            out.stderr
