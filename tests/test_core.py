"""The compiled core (dlx._core) against the pure engine: same solutions, same Stats.

Differential tests on random problems (primary, secondary and coloured items),
budgets, branch and bound, progress callbacks, Ctrl-C, threads, laziness, and the
package without the extension.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from helpers import dominoes, langford, queens, run_and_interrupt, toy
from hypothesis import given
from hypothesis import strategies as st
from oracles import reference_solutions
from strategies import BUDGET, problems

import dlx
from dlx import engine
from dlx.links import Links

needs_core = pytest.mark.skipif(not engine.available(), reason="dlx._core is not built")
ROOT = Path(__file__).resolve().parent.parent


def stats_of(s: dlx.Stats) -> tuple:
    return (s.nodes, s.updates, s.solutions, list(s.profile))


def both(view, *args, **kwargs):
    """Run ``view`` on both engines: ((result, stats), (result, stats)), errors as results."""
    out = []
    for name in ("python", "c"):
        s = dlx.Stats()
        try:
            got = view(*args, stats=s, engine=name, **kwargs)
            if not isinstance(got, (int, tuple, type(None))):
                got = list(got)
        except dlx.BudgetExceeded as e:
            got = ("budget", e.found, e.max_nodes, stats_of(e.stats))
        out.append((got, stats_of(s)))
    return out


# ------------------------------------------------------------------ differential


@pytest.mark.slow
@needs_core
@given(problems(), st.sampled_from([None, "mrv", "first"]))
def test_solutions_and_stats_agree(p, heuristic):
    py, c = both(dlx.solutions, p, max_nodes=BUDGET, heuristic=heuristic)
    assert c == py
    py, c = both(dlx.count, p, max_nodes=BUDGET, heuristic=heuristic)
    assert c == py


@pytest.mark.slow
@needs_core
@given(problems(max_items=7, max_options=12))
def test_core_matches_the_oracle(p):
    got = list(dlx.solutions(p, max_nodes=BUDGET, engine="c"))
    assert len(set(map(frozenset, got))) == len(got)
    assert set(map(frozenset, got)) == set(reference_solutions(p))
    assert all(dlx.why_not(p, sol) is None for sol in got)


@needs_core
@given(problems(), st.integers(1, 4))
def test_limits_first_unique_agree(p, limit):
    py, c = both(dlx.solutions, p, limit=limit, max_nodes=BUDGET)
    assert c == py
    py, c = both(dlx.count, p, limit=limit, max_nodes=BUDGET)
    assert c == py
    py, c = both(dlx.first, p, max_nodes=BUDGET)
    assert c == py
    py, c = both(dlx.is_unique, p, max_nodes=BUDGET)
    assert c == py


@needs_core
@given(problems(), st.integers(1, 40), st.sampled_from([None, "first"]))
def test_budgets_agree(p, budget, heuristic):
    py, c = both(dlx.solutions, p, max_nodes=budget, heuristic=heuristic)
    assert c == py
    py, c = both(dlx.count, p, max_nodes=budget, heuristic=heuristic)
    assert c == py
    if isinstance(c[0], tuple) and c[0][0] == "budget":
        assert c[1][0] == budget


@pytest.mark.slow
@needs_core
@given(problems(), st.data(), st.booleans())
def test_best_agrees(p, data, maximize):
    w = {label: data.draw(st.integers(-5, 9)) for label in p.options}
    py, c = both(dlx.best, p, w, maximize=maximize, max_nodes=BUDGET)
    assert c == py
    budget = data.draw(st.integers(1, 30))
    py, c = both(dlx.best, p, w, maximize=maximize, max_nodes=budget)
    assert c == py


@pytest.mark.slow
@needs_core
@given(problems(colors=False), st.data(), st.sampled_from([None, "first"]))
def test_best_with_float_weights_agrees(p, data, heuristic):
    w = {label: data.draw(st.floats(-3, 3, allow_nan=False)) for label in p.options}
    py, c = both(dlx.best, p, w, max_nodes=BUDGET, heuristic=heuristic)
    assert c == py


@needs_core
@pytest.mark.parametrize("side", [4, 6])
def test_best_prunes_the_same(side):
    from test_best import small_pieces

    p = small_pieces(side, side)
    py, c = both(dlx.best, p, lambda k: 1, maximize=False, max_nodes=BUDGET)
    assert c == py and c[0][0] == (side * side) // 4
    py, c = both(dlx.best, p, lambda k: k[2] * k[3] ** 2, max_nodes=BUDGET)
    assert c == py


@needs_core
def test_best_first_heuristic_with_an_empty_item():
    # regression: the pure engine once took math.floor(-inf) here
    p = dlx.ExactCover({"A1": ["a", "b", "c"], "A2": ["a"], "B1": ["b"]})
    assert dlx.best(p, lambda k: 1, heuristic="first", engine="c") == (1, ("A1",))
    assert dlx.best(p, lambda k: 1, heuristic="first", engine="python") == (1, ("A1",))


@needs_core
def test_shared_colour_three_ways():
    # Three options share x:red; committing an already purified node must do nothing.
    red = dlx.Colored("x", "red")
    p = dlx.ExactCover({"A": ["p", red], "B": ["q", red], "C": ["r", red],
                        "D": ["r", dlx.Colored("x", "blue")]}, secondary=["x"])
    py, c = both(dlx.solutions, p)
    assert c == py and c[0] == [("A", "B", "C")]


@needs_core
def test_progress_sees_the_same_stats():
    seen: dict[str, list] = {"python": [], "c": []}
    for name in seen:
        def progress(s, name=name):
            seen[name].append(stats_of(s))
        dlx.count(queens(10), progress=progress, engine=name)
    assert seen["c"] == seen["python"] and len(seen["c"]) >= 3
    assert all(n % dlx.search.PROGRESS_EVERY == 0 for n, *_ in seen["c"])


@needs_core
def test_progress_raising_stops_cleanly():
    for name in ("python", "c"):
        s = dlx.Stats()

        def stop(stats):
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            dlx.count(queens(9), progress=stop, stats=s, engine=name)
        # stopped at the check point before trying its node: that node is not counted
        assert s.nodes == dlx.search.PROGRESS_EVERY - 1
        gen = dlx.solutions(queens(9), progress=stop, engine=name)
        with pytest.raises(KeyboardInterrupt):
            list(gen)
    assert dlx.count(queens(9), engine="c") == 352


# ------------------------------------------------------------------ engine choice


def test_engine_names_are_checked(monkeypatch):
    with pytest.raises(dlx.ExactCoverError, match="engine="):
        dlx.count(toy(), engine="fortran")
    monkeypatch.setenv("DLX_ENGINE", "fortran")
    with pytest.raises(dlx.ExactCoverError, match="DLX_ENGINE"):
        dlx.count(toy())
    assert engine.active() == "python"
    monkeypatch.setenv("DLX_ENGINE", "python")
    assert engine.active() == "python" and dlx.count(toy()) == 1
    assert "DLX_ENGINE" in engine.describe()


def test_engine_c_without_the_core_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(engine, "_core", None)
    monkeypatch.delenv("DLX_ENGINE", raising=False)
    assert not engine.available() and engine.active() == "python"
    assert dlx.count(toy(), engine="auto") == 1
    with pytest.raises(dlx.ExactCoverError, match="not available"):
        dlx.count(toy(), engine="c")
    with pytest.raises(dlx.ExactCoverError, match="not available"):
        dlx.solutions(toy(), engine="c")
    monkeypatch.setenv("DLX_ENGINE", "c")
    with pytest.raises(dlx.ExactCoverError, match="not available"):
        dlx.first(toy())
    assert engine.active() == "python"


@needs_core
def test_auto_uses_the_core(monkeypatch):
    monkeypatch.delenv("DLX_ENGINE", raising=False)
    assert engine.active() == "c" and engine.describe() == "C core (dlx._core)"
    monkeypatch.setenv("DLX_ENGINE", "C ")
    assert engine.active() == "c"


@needs_core
def test_python_only_requests_fall_back():
    longest = lambda items: max(range(len(items)), key=lambda k: items[k][1])  # noqa: E731
    py, c = both(dlx.count, queens(6), heuristic=longest)
    assert c == py and c[0] == 4
    calls = []

    def bound(state):
        calls.append(1)
        return 100

    got = dlx.best(queens(6), lambda k: k[1], bound=bound, engine="c")
    assert calls and got == dlx.best(queens(6), lambda k: k[1], engine="python")
    assert [str(e) for e in dlx.trace(toy(), engine="c")] == [str(e) for e in dlx.trace(toy())]
    with pytest.raises(dlx.ExactCoverError, match="heuristic"):
        dlx.count(toy(), heuristic="fastest", engine="c")


def test_package_works_without_the_extension():
    code = r"""
import sys
sys.modules["dlx._core"] = None          # as if it had not been built
import dlx
from dlx import engine
assert not engine.available() and engine.active() == "python", engine.describe()
q = {(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
     for r in range(6) for c in range(6)}
p = dlx.ExactCover(q, secondary=[("up", k) for k in range(11)]
                   + [("down", k) for k in range(-5, 6)])
assert dlx.count(p) == 4
assert len(list(dlx.solutions(p))) == 4 and dlx.first(p) is not None
assert dlx.best(p, lambda label: label[1]) is not None
r = dlx.read_dlx("a b | x\na x:A\nb x:A |2\nb\n")
assert dlx.count(r) == 2 and r.costs == {1: 2} and r.colored
c = dlx.ExactCover.from_csr([0, 2, 3], [0, 2, 1], items=["a", "b", "x"], secondary=[2])
assert dlx.count(c) == 1 and c.options[0] == ("a", "x")
try:
    dlx.count(p, engine="c")
except dlx.ExactCoverError as e:
    print("ok:", e)
else:
    raise SystemExit("engine='c' should have failed")
"""
    env = {k: v for k, v in os.environ.items() if k != "DLX_ENGINE"}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: the compiled core")


# ------------------------------------------------------------------ safety


@needs_core
def test_ctrl_c_stops_a_long_count_promptly():
    code = """
import sys, time
sys.path.insert(0, "tests")
import dlx
from helpers import queens
s = dlx.Stats()
print("ready", flush=True)
try:
    dlx.count(queens(16), stats=s, engine="c")      # hours of work
except KeyboardInterrupt:
    print("interrupted", s.nodes > 1, dlx.count(queens(8), engine="c"))
"""
    code_, out, err, seconds = run_and_interrupt(code)
    assert "interrupted True 92" in out, err
    assert seconds < 10, f"took {seconds:.1f} s to answer Ctrl-C"


@pytest.mark.slow
@needs_core
def test_ctrl_c_stops_a_lazy_search():
    code = """
import sys
sys.path.insert(0, "tests")
import dlx
from helpers import queens
gen = dlx.solutions(queens(16), engine="c")
next(gen)
print("ready", flush=True)
try:
    for _ in gen:
        pass
except KeyboardInterrupt:
    print("interrupted", dlx.count(queens(7), engine="c"))
"""
    code_, out, err, seconds = run_and_interrupt(code)
    assert "interrupted 40" in out, err
    assert seconds < 10


@needs_core
def test_two_threads_search_two_problems_at_once():
    jobs = {"queens10": (queens(10), 724), "langford8": (langford(8), 300),
            "queens9": (queens(9), 352), "dominoes6": (dominoes(6, 6), 6728)}
    want_stats = {}
    for name, (p, _) in jobs.items():
        s = dlx.Stats()
        dlx.count(p, stats=s, engine="python")
        want_stats[name] = stats_of(s)
    results: dict[str, object] = {}

    def work(name):
        p, _ = jobs[name]
        for _ in range(3):
            s = dlx.Stats()
            n = dlx.count(p, stats=s, engine="c")
            sols = list(dlx.solutions(p, engine="c", limit=50))
            results.setdefault(name, []).append((n, stats_of(s), len(sols)))  # type: ignore

    threads = [threading.Thread(target=work, args=(name,)) for name in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for name, (_, n) in jobs.items():
        assert results[name] == [(n, want_stats[name], min(n, 50))] * 3


@needs_core
def test_the_gil_is_released_during_long_searches():
    ticks = 0
    done = threading.Event()

    def search():
        dlx.count(queens(13), engine="c")
        done.set()

    t = threading.Thread(target=search)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert ticks >= 5    # the main thread kept running while the core searched


@needs_core
def test_same_problem_from_two_threads_and_interleaved():
    p = queens(8)
    a, b = dlx.solutions(p, engine="c"), dlx.solutions(p, engine="c")
    got = [(x, y) for x, y in zip(a, b, strict=True)]
    assert len(got) == 92 and all(x == y for x, y in got)
    assert got[0][0] == dlx.first(p, engine="python")


# ------------------------------------------------------------------ laziness, memory


@needs_core
def test_solutions_are_lazy():
    s = dlx.Stats()
    first = dlx.first(queens(20), stats=s, engine="c")   # billions of solutions
    assert first is not None and s.nodes < 1000 and s.solutions == 1
    s_py = dlx.Stats()
    assert dlx.first(queens(20), stats=s_py, engine="python") == first
    assert stats_of(s) == stats_of(s_py)
    gen = dlx.solutions(queens(20), engine="c")
    assert [next(gen) for _ in range(3)][0] == first
    gen.close()


@pytest.mark.slow
@needs_core
def test_abandoned_iterators_do_not_leak():
    p = queens(10)
    list(dlx.solutions(p, limit=1, engine="c"))          # warm the caches
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(300):
            gen = dlx.solutions(p, engine="c")
            next(gen)
            del gen
            s = dlx.Stats()
            dlx.count(p, limit=3, stats=s, engine="c")
            dlx.best(p, lambda k: k[0], engine="c")
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 200_000, f"{grown} bytes kept after 300 abandoned searches"


@needs_core
def test_the_table_is_cached_per_problem_and_released_with_it():
    import weakref

    p = queens(6)
    t = engine.table(Links.of(p))
    assert engine.table(Links.of(p)) is t and t.nodes == len(Links.of(p).TOP)
    assert dlx.count(p, engine="c") == 4
    gone = weakref.ref(p)           # nothing but the problem holds its links and table
    del p, t
    gc.collect()
    assert gone() is None


# ------------------------------------------------------------------ odd inputs


@needs_core
@pytest.mark.parametrize("p, want", [
    (dlx.ExactCover({}), [()]),
    (dlx.ExactCover({}, primary=["a"]), []),
    (dlx.ExactCover({"x": ["s"]}, secondary=["s"]), [()]),
    (dlx.ExactCover({"x": ["a"], "y": ["s"]}, secondary=["s"]), [("x",)]),
    (dlx.ExactCover({"x": ["a"]}, primary=["a", "b"]), []),
])
def test_small_and_empty_problems(p, want):
    py, c = both(dlx.solutions, p)
    assert c == py and c[0] == want


@pytest.mark.slow
@needs_core
def test_ten_thousand_levels_and_huge_options():
    n = 10_000
    p = dlx.ExactCover({k: [k] for k in range(n)})
    py, c = both(dlx.first, p, max_nodes=n + 1)
    assert c == py and len(c[0]) == n
    chain = dlx.ExactCover({("pair", k): [k, k + 1] for k in range(0, 2 * n, 2)})
    assert dlx.count(chain, engine="c") == 1
    big = dlx.ExactCover({"all": list(range(100_000)), "half": list(range(50_000)),
                          "rest": list(range(50_000, 100_000))})
    py, c = both(dlx.solutions, big)
    assert c == py and c[0] == [("all",), ("half", "rest")]


@needs_core
def test_huge_budget_and_limit_values():
    assert dlx.count(queens(6), max_nodes=10**30, limit=10**30, engine="c") == 4


@needs_core
@given(st.data())
def test_malformed_tables_are_refused_not_crashed_on(data):
    from dlx import _core

    p = data.draw(problems())
    t = Links.build(p)
    arrays = {name: list(getattr(t, name)) for name in
              ("LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP", "COLOR", "OPT")}
    name = data.draw(st.sampled_from(sorted(arrays)))
    if arrays[name]:
        k = data.draw(st.integers(0, len(arrays[name]) - 1))
        arrays[name][k] = data.draw(st.integers(-3, len(t.TOP) + 2))
    try:
        table = _core.Table(t.N1, t.N, *arrays.values(), len(t.labels))
    except ValueError:
        return
    search = _core.Search(table, t.labels, "count", max_nodes=10_000)
    search.count()               # a valid table (the change kept it valid): no crash


@needs_core
@given(st.data())
def test_malformed_entries_are_refused_not_crashed_on(data):
    """Table.from_entries checks the numbers it lays out (in range, no item twice in an
    option, lengths that fit): a changed buffer is refused, or searched safely."""
    from array import array

    from dlx import _core

    p = data.draw(problems(colors=False))
    if p._scanned is None:
        return
    numbers = array("i", p._scanned[0])
    if numbers:
        k = data.draw(st.integers(0, len(numbers) - 1))
        numbers[k] = data.draw(st.integers(-2, len(p.items) + 2))
    numbers = numbers[:data.draw(st.integers(0, len(numbers)))]
    try:
        table = _core.Table.from_entries(len(p.primary), len(p.items), numbers.tobytes())
    except ValueError:
        return
    kept, k = 0, 0                                   # the options with a primary item
    while k < len(numbers):
        kept += any(0 < x <= len(p.primary) for x in numbers[k + 1:k + 1 + numbers[k]])
        k += numbers[k] + 1
    search = _core.Search(table, list(range(kept)), "count", max_nodes=10_000)
    search.count()


def test_from_entries_refuses_an_item_twice_in_an_option():
    from dlx import _core

    if not engine.available():
        pytest.skip("the C core is not built")
    ok = array_bytes([2, 1, 2, 1, 1])
    assert _core.Table.from_entries(2, 2, ok).nodes == 2 + 2 + 2 + 1 + 2
    for bad in ([2, 1, 1], [2, 1, 3], [2, 0, 1], [3, 1, 2], [-1]):
        with pytest.raises(ValueError, match="not a buffer of numbered options"):
            _core.Table.from_entries(2, 2, array_bytes(bad))


def array_bytes(values):
    from array import array

    return array("i", values).tobytes()


@needs_core
def test_core_objects_check_their_arguments():
    from dlx import _core

    t = Links.of(toy())
    table = engine.table(t)
    with pytest.raises(ValueError):
        _core.Search(table, t.labels, "trace")
    with pytest.raises(ValueError):
        _core.Search(table, t.labels[:2], "count")
    with pytest.raises(ValueError):
        _core.Search(table, t.labels, "best")
    with pytest.raises(TypeError):
        _core.Search(table, t.labels, "count", progress=3)
    with pytest.raises(ValueError):
        _core.Table(t.N1, t.N, t.LLINK, t.RLINK, t.ULINK, t.DLINK, t.LEN, t.TOP[:-1],
                    t.COLOR, t.OPT, len(t.labels))
    with pytest.raises(ValueError, match="not in 0..5"):
        _core.Search(table, t.labels, "count", forced=[len(t.labels)])
    with pytest.raises(TypeError):
        _core.Search(table, t.labels, "count", forced=3)
    with pytest.raises(ValueError, match="-1 is not in 0..5"):
        table.batch([[-1]])
    search = _core.Search(table, t.labels, "count")
    with pytest.raises(RuntimeError):
        search.next()
    assert search.count() == 1 and search.status == "done" and search.count() == 1


def test_core_is_built_where_ci_requires_it():
    # .ci/run sets DLX_REQUIRE_CORE=1: a silently failed build there would otherwise only
    # skip the core's tests and leave CI green.
    if os.environ.get("DLX_REQUIRE_CORE") == "1":
        assert engine.available(), "dlx._core did not build (DLX_REQUIRE_CORE=1)"


@needs_core
def test_problems_beyond_the_cores_node_limit_run_on_the_pure_engine(monkeypatch):
    """The core addresses at most _core.MAX_NODES nodes; bigger problems are searched
    by the pure engine, whatever engine= says, with the same answers."""
    p = dlx.ExactCover({f"q{r}{c}": [f"r{r}", f"c{c}"] for r in range(4) for c in range(4)})
    want = dlx.count(p, engine="c"), dlx.first(p, engine="c"), dlx.best(p, len, engine="c")
    assert engine.fits(Links.of(p))
    monkeypatch.setattr(engine._core, "MAX_NODES", 10)
    assert not engine.fits(Links.of(p))

    def refuse(*args, **kwargs):
        raise AssertionError("the core must not be asked")

    for view in ("count", "solutions", "best"):
        monkeypatch.setattr(engine, view, refuse)
    assert (dlx.count(p, engine="c"), dlx.first(p, engine="c"),
            dlx.best(p, len, engine="c")) == want == (24, ("q00", "q11", "q22", "q33"),
                                                      (12, ("q00", "q11", "q22", "q33")))
