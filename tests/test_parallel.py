"""dlx.parallel: the split adds up to the serial search, and so do runs on real executors.

Thread pools carry the property tests (cheap); a real ProcessPoolExecutor and a real
Dask LocalCluster (2 workers on 127.0.0.1) run fixed instances, with workers killed
mid-run; Ctrl-C runs in a subprocess.  Every wait has a timeout.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest
from helpers import langford, queens
from hypothesis import given
from hypothesis import strategies as st
from strategies import BUDGET, colored_problems, problems

import dlx
from dlx import engine as engines
from dlx import parallel

pytestmark = pytest.mark.timeout(120)

ENGINES = ("python", "c") if engines.available() else ("python",)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def counts(s: dlx.Stats) -> tuple:
    return s.nodes, s.updates, s.solutions, list(s.profile)


def add(total: list[int], profile: list[int]) -> list[int]:
    out = total + [0] * max(0, len(profile) - len(total))
    for k, n in enumerate(profile):
        out[k] += n
    return out


def serial(p, engine=None, **kw):
    s = dlx.Stats()
    n = dlx.count(p, stats=s, engine=engine, max_nodes=BUDGET, **kw)
    return n, s


@pytest.fixture(scope="module")
def threads():
    with ThreadPoolExecutor(2) as ex:
        yield ex


@pytest.fixture(scope="module")
def processes():
    with parallel.executor(jobs=2) as ex:
        yield ex


# ------------------------------------------------------------------------ split


def check_split(p, pieces, above, engine, forced=()):
    """The pieces add up to the serial search below ``forced``: solutions in order,
    nodes, updates and profile (with the nodes above them)."""
    whole = dlx.Stats()
    want = list(dlx.solutions(p, stats=whole, engine=engine, max_nodes=BUDGET, forced=forced))
    got: list = []
    nodes, updates, profile = above.nodes, above.updates, list(above.profile)
    assert above.solutions == 0
    for piece in pieces:
        assert tuple(piece[:len(forced)]) == tuple(forced)
        s = dlx.Stats()
        got += dlx.solutions(p, forced=piece, stats=s, engine=engine, max_nodes=BUDGET)
        assert s.nodes >= 1                       # every piece is a node of the tree
        nodes, updates, profile = nodes + s.nodes, updates + s.updates, add(profile, s.profile)
    assert got == want                            # the pieces are in search order
    assert (nodes, updates) == (whole.nodes, whole.updates)
    assert profile == whole.profile + [0] * (len(profile) - len(whole.profile))
    assert not any(profile[len(whole.profile):])


@given(st.one_of(problems(), colored_problems()), st.integers(1, 30), st.sampled_from(ENGINES))
def test_split_into_pieces_adds_up(p, n, engine):
    above = dlx.Stats()
    pieces = parallel.split(p, pieces=n, stats=above, engine=engine)
    check_split(p, pieces, above, engine)
    assert len(set(pieces)) == len(pieces)


@given(st.one_of(problems(), colored_problems()), st.integers(0, 4), st.sampled_from(ENGINES))
def test_split_by_depth_adds_up(p, depth, engine):
    above = dlx.Stats()
    pieces = parallel.split(p, depth=depth, stats=above, engine=engine)
    check_split(p, pieces, above, engine)
    solutions = set(dlx.solutions(p, max_nodes=BUDGET))
    for piece in pieces:                          # at the depth, or a solution above it
        assert len(piece) == depth or piece in solutions


@st.composite
def chained(draw):
    """A random problem below a chain: items c0.. of one option each (chosen first, as
    their lists are shortest), some with dead-end siblings beside them."""
    p = draw(st.one_of(problems(), colored_problems()))
    length = draw(st.integers(1, 40))
    options = {("c", k): [("c", k)] for k in range(length)}
    for k in draw(st.lists(st.integers(0, length - 1), max_size=5, unique=True)):
        options[("dead", k)] = [("c", k), ("never",)]     # ("never",) has no other option
    options.update(p.options)
    primary = [("c", k) for k in range(length)] + list(p.primary)
    if any(label[0] == "dead" for label in options if isinstance(label, tuple)):
        primary.append(("never",))
        options[("never-alone",)] = [("never",), ("c", 0)]
    return dlx.ExactCover(options, secondary=p.secondary, primary=primary)


@pytest.mark.slow
@given(chained(), st.integers(1, 20), st.sampled_from(ENGINES))
def test_split_down_a_chain_adds_up(p, n, engine):
    # issue 20: split walks a chain in searches of doubling size (it was quadratic in
    # the depth); the pieces and the nodes above them still add up exactly
    above = dlx.Stats()
    pieces = parallel.split(p, pieces=n, stats=above, engine=engine)
    check_split(p, pieces, above, engine)


@pytest.mark.slow
def test_a_deep_chain_splits_and_stops_at_the_deadline(tmp_path):
    """A count below a chain of 20,000 levels with --jobs 2 --timeout 2 once ran 46 s:
    the split placed every forced option again at each level.  Now it stops about on
    time (exit 124, what it found so far)."""
    n, depth = 13, 20_000
    items = [f"c{k}" for k in range(depth)] + [f"r{r}" for r in range(n)] + \
        [f"f{c}" for c in range(n)]
    diagonals = [f"u{k}" for k in range(2 * n - 1)] + [f"d{k}" for k in range(2 * n - 1)]
    lines = [" ".join(items) + " | " + " ".join(diagonals)] + items[:depth]
    lines += [f"r{r} f{c} u{r + c} d{r - c + n - 1}" for r in range(n) for c in range(n)]
    path = tmp_path / "deep.dlx"
    path.write_text("\n".join(lines) + "\n")
    began = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "dlx", "solve", str(path), "--count",
                          "--jobs", "2", "--timeout", "2"], capture_output=True, text=True,
                         timeout=60)
    elapsed = time.monotonic() - began
    assert out.returncode in (0, 124), out.stderr
    if out.returncode == 124:
        assert out.stdout.strip().endswith("+") and "time limit" in out.stderr
    assert elapsed < 20, elapsed            # was 46 s; about 2 s plus start-up when quiet


@pytest.mark.slow
@given(problems(), st.data())
def test_split_below_forced_options_adds_up(p, data):
    first = list(dlx.solutions(p, limit=1, max_nodes=BUDGET))
    labels = list(p.options)
    forced = first[0][:1] if first and data.draw(st.booleans()) else (
        [data.draw(st.sampled_from(labels))] if labels and data.draw(st.booleans()) else [])
    if forced and not any(i in p.primary for i in p.item_names(forced[0])):
        forced = []
    above = dlx.Stats()
    pieces = parallel.split(p, pieces=data.draw(st.integers(1, 10)), forced=forced,
                            stats=above)
    check_split(p, pieces, above, None, forced=tuple(forced))


def test_split_with_the_first_heuristic_follows_it():
    p = queens(6)
    above = dlx.Stats()
    pieces = parallel.split(p, pieces=20, heuristic="first", stats=above)
    whole = dlx.Stats()
    assert sum(dlx.count(p, forced=f, heuristic="first") for f in pieces) == dlx.count(p) == 4
    nodes = above.nodes
    for piece in pieces:
        s = dlx.Stats()
        dlx.count(p, forced=piece, heuristic="first", stats=s)
        nodes += s.nodes
    dlx.count(p, heuristic="first", stats=whole)
    assert nodes == whole.nodes
    # the first item is row 0: its options, in order
    assert parallel.split(p, depth=1, heuristic="first") == [((0, c),) for c in range(6)]


def test_split_targets_a_number_of_pieces():
    p = queens(8)
    for n in (1, 2, 10, 50, 200):
        pieces = parallel.split(p, pieces=n)
        assert n <= len(pieces) <= n + 8         # a cut node adds at most 7 more
        assert sum(dlx.count(p, forced=f) for f in pieces) == 92
    assert parallel.split(p, pieces=1) == [()]                     # the root: the whole tree
    assert len(parallel.split(p, depth=1)) == 8                    # MRV: 8 options at the root
    assert parallel.split(p, depth=0) == [()]
    assert parallel.split(p) == parallel.split(p, pieces=64)


def test_split_of_tiny_trees():
    assert parallel.split(dlx.ExactCover({})) == [()]              # the root is the solution
    assert parallel.split(dlx.ExactCover({"x": ["a", "b"], "y": ["b"]}), pieces=5) == [("x",)]
    above = dlx.Stats()
    assert parallel.split(dlx.ExactCover({"x": ["a"]}, primary=["a", "b"]), stats=above) == []
    assert above.nodes == 1                                        # a dead end above the cut
    clash = dlx.ExactCover({"x": ["a"], "y": ["a"]})
    assert parallel.split(clash, forced=["x", "y"], stats=above) == [] and above.nodes == 0


@pytest.mark.parametrize("kw", [{"pieces": 0}, {"pieces": 2, "depth": 1}, {"depth": -1},
                                {"depth": 1.5}, {"forced": ["nope"]}, {"heuristic": "worst"}])
def test_split_rejects_bad_arguments(kw):
    with pytest.raises(dlx.ExactCoverError):
        parallel.split(queens(4), **kw)


# ------------------------------------------------------------------- thread pools


@given(st.one_of(problems(), colored_problems()), st.integers(1, 12), st.integers(1, 8),
       st.sampled_from(ENGINES))
@pytest.mark.slow
def test_parallel_views_match_the_serial_search(threads, p, piece_nodes, pieces, engine):
    """Small pieces and budgets force dynamic splitting on every run."""
    kw = {"piece_nodes": piece_nodes, "pieces": pieces, "engine": engine}
    total, whole = serial(p, engine)
    s = dlx.Stats()
    assert parallel.count(p, threads, stats=s, **kw) == total
    assert counts(s) == counts(whole)
    s = dlx.Stats()
    assert list(parallel.solutions(p, threads, stats=s, **kw)) == list(
        dlx.solutions(p, engine=engine, max_nodes=BUDGET))
    assert counts(s) == counts(whole)
    unordered = list(parallel.solutions(p, threads, ordered=False, **kw))
    assert sorted(map(repr, unordered)) == sorted(map(repr, dlx.solutions(p, max_nodes=BUDGET)))
    found = parallel.first(p, threads, **kw)
    assert (found is None) == (total == 0)
    assert found is None or dlx.is_exact_cover(p, found)
    assert parallel.is_unique(p, threads, **kw) == (total == 1)
    assert parallel.count(p, threads, limit=2, **kw) == min(total, 2)
    assert list(parallel.solutions(p, threads, limit=2, **kw)) == list(
        dlx.solutions(p, limit=2, max_nodes=BUDGET))


@given(problems(), st.data(), st.integers(1, 10))
def test_parallel_best_is_the_serial_best(threads, p, data, piece_nodes):
    w = {label: data.draw(st.integers(-5, 9)) for label in p.options}
    maximize = data.draw(st.booleans())
    assert parallel.best(p, w, threads, maximize=maximize, piece_nodes=piece_nodes) == \
        dlx.best(p, w, maximize=maximize, max_nodes=BUDGET)
    assert parallel.best(p, w, threads, k=3, maximize=maximize, piece_nodes=piece_nodes) == \
        dlx.best(p, w, k=3, maximize=maximize, max_nodes=BUDGET)


@pytest.mark.slow
@given(st.one_of(problems(), colored_problems()), st.integers(1, 60), st.integers(1, 10))
def test_a_node_budget_is_honest(threads, p, budget, piece_nodes):
    """Out of budget: at most max_nodes nodes, and the partial count plus the frontier's
    counts is the whole search, nodes, updates and profile included."""
    total, whole = serial(p)
    s = dlx.Stats()
    try:
        n = parallel.count(p, threads, max_nodes=budget, stats=s, piece_nodes=piece_nodes)
    except dlx.BudgetExceeded as stop:
        assert stop.max_nodes == budget and stop.stats is s and s.nodes <= budget
        n, nodes, updates, profile = stop.found, s.nodes, s.updates, list(s.profile)
        for piece in stop.frontier:
            ps = dlx.Stats()
            n += dlx.count(p, forced=piece, stats=ps, max_nodes=BUDGET)
            nodes, updates, profile = nodes + ps.nodes, updates + ps.updates, add(profile,
                                                                                 ps.profile)
        assert (n, nodes, updates) == (total, whole.nodes, whole.updates)
        assert profile[:len(whole.profile)] == whole.profile
    else:
        assert (n, counts(s)) == (total, counts(whole)) and whole.nodes <= budget


def test_a_stopped_solutions_run_hands_over_what_it_found(threads):
    p = queens(7)
    s = dlx.Stats()
    got = []
    with pytest.raises(dlx.BudgetExceeded) as stop:
        for sol in parallel.solutions(p, threads, max_nodes=200, stats=s, piece_nodes=20):
            got.append(sol)
    found, frontier = stop.value.found, stop.value.frontier
    assert found[:len(got)] == got
    rest = [sol for piece in frontier for sol in dlx.solutions(p, forced=piece)]
    assert sorted(found + rest) == sorted(dlx.solutions(p))
    assert s.nodes <= 200


def test_a_timeout_stops_the_run_and_hands_over_the_rest(threads):
    p = queens(11)                                 # about a second on the pure engine
    total, whole = serial(p)
    s = dlx.Stats()
    with pytest.raises(dlx.BudgetExceeded) as stop:
        parallel.count(p, threads, timeout=0.05, stats=s, engine="python", piece_nodes=200)
    e = stop.value
    assert e.max_nodes is None and e.timeout == 0.05 and e.frontier
    n, nodes = e.found, s.nodes
    for piece in e.frontier:
        ps = dlx.Stats()
        n += dlx.count(p, forced=piece, stats=ps)
        nodes += ps.nodes
    assert (n, nodes) == (total, whole.nodes)


def test_a_timeout_that_is_not_reached_changes_nothing(threads):
    p = queens(8)
    total, whole = serial(p)
    s = dlx.Stats()
    assert parallel.count(p, threads, timeout=60, stats=s, piece_nodes=40) == total
    assert counts(s) == counts(whole)
    assert dlx.is_exact_cover(p, parallel.first(p, threads, timeout=60))


def test_first_out_of_time_hands_over_the_whole_rest(threads):
    p = langford(10)          # no solution: 61,701 nodes, about half a second in Python
    with pytest.raises(dlx.BudgetExceeded) as stop:
        parallel.first(p, threads, timeout=0.05, engine="python", piece_nodes=200)
    assert stop.value.found == [] and stop.value.frontier
    assert stop.value.max_nodes is None and stop.value.timeout == 0.05


def test_closing_solutions_early_cancels_the_rest(threads):
    p = queens(9)
    it = parallel.solutions(p, threads, piece_nodes=50)
    assert next(it) == next(iter(dlx.solutions(p)))
    it.close()
    assert parallel.count(queens(6), threads) == 4     # the executor is still fine


def test_progress_reports_merged_stats_and_the_fraction_done(threads):
    p = langford(8)
    reports: list[parallel.Report] = []
    total, whole = serial(p)
    assert parallel.count(p, threads, piece_nodes=50, progress=reports.append) == total
    last = reports[-1]
    assert isinstance(last, dlx.Stats) and counts(last) == counts(whole)
    assert last.fraction == 1.0 and last.pieces_left == 0 and last.running == 0
    assert last.pieces_done >= 1 and last.workers >= 1 and "100% done" in str(last)
    fractions = [r.fraction for r in reports]
    assert fractions == sorted(fractions) and all(0 <= f <= 1 for f in fractions)
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)


def test_an_error_in_progress_stops_the_run(threads):
    def stop(report):
        raise RuntimeError("enough")
    with pytest.raises(RuntimeError, match="enough"):
        parallel.count(queens(8), threads, piece_nodes=50, progress=stop)


def test_an_error_in_a_piece_propagates(threads):
    def bad(items):
        raise ValueError("no choice")
    with pytest.raises(ValueError, match="no choice"):
        parallel.count(queens(5), threads, heuristic=bad)


@pytest.mark.parametrize("kw", [{"pieces": 0}, {"piece_nodes": -1}, {"max_nodes": 0},
                                {"timeout": -1}, {"progress": 3}, {"forced": ["nope"]}])
def test_bad_arguments_are_refused_before_any_work(threads, kw):
    with pytest.raises(dlx.ExactCoverError):
        parallel.count(queens(4), threads, **kw)


def test_the_executor_helper_checks_its_arguments():
    with pytest.raises(dlx.ExactCoverError):
        parallel.executor(jobs=0)
    with pytest.raises(dlx.ExactCoverError):
        parallel.executor(jobs=2, scheduler="tcp://127.0.0.1:1")


def test_the_executor_must_be_an_executor():
    with pytest.raises(dlx.ExactCoverError, match="Executor"):
        parallel.count(queens(4), "processes")
    with pytest.raises(dlx.ExactCoverError):
        list(parallel.solutions(queens(4), None))


def test_forced_options_run_below_them(threads):
    p = queens(8)
    forced = [(0, 0)]
    total, whole = serial(p, forced=forced)
    s = dlx.Stats()
    assert parallel.count(p, threads, forced=forced, stats=s, piece_nodes=30) == total == 4
    assert counts(s) == counts(whole)
    assert parallel.count(p, threads, forced=[(0, 0), (1, 0)]) == 0       # a clash


def test_importing_the_module_stays_light():
    code = ("import sys, dlx.parallel; bad = [m for m in ('concurrent.futures', 'dask',"
            " 'distributed', 'multiprocessing') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


# ----------------------------------------------------------------- process pools


class CountingPool(ProcessPoolExecutor):
    """A process pool that counts its tasks, those carrying the problem, and those that
    came back because their worker did not have it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tasks = self.blobs = self.missing = 0

    def submit(self, fn, /, *args, **kwargs):
        self.tasks += 1
        self.blobs += isinstance(getattr(args[0], "blob", None), bytes)
        fut = super().submit(fn, *args, **kwargs)
        fut.add_done_callback(self._returned)
        return fut

    def _returned(self, fut):
        if not fut.cancelled() and fut.exception() is None and getattr(
                fut.result(), "missing", False):    # (a ping answers with a name)
            self.missing += 1


def test_a_process_pool_gives_the_serial_answers():
    p = langford(8)
    dlx.count(p)                                   # a searched problem still pickles
    total, whole = serial(p)
    with CountingPool(2) as ex:
        s = dlx.Stats()
        assert parallel.count(p, ex, stats=s, piece_nodes=200) == total
        assert counts(s) == counts(whole)
        # the problem travels with the first task per worker, and again only with a
        # task that came back from a worker without it (which worker takes which task
        # is the pool's choice, so how often that happens is not fixed)
        assert ex.tasks > 20 and ex.blobs == 2 + ex.missing
        assert ex.tasks - ex.blobs > 10            # most tasks travel without it
        assert list(parallel.solutions(p, ex, piece_nodes=200)) == list(dlx.solutions(p))
        found = parallel.first(p, ex)
        assert dlx.is_exact_cover(p, found)
        w = {label: (label[0] * 7 + label[1]) % 5 for label in p.options}
        assert parallel.best(p, w, ex, piece_nodes=100) == dlx.best(p, w)


def test_the_views_take_an_executor():
    """dlx.count/solutions/first/is_unique/best(..., executor=ex) and dlx.split: the
    public names, on a plain ProcessPoolExecutor."""
    p = queens(8)
    pieces = dlx.split(p, pieces=12)
    assert sum(dlx.count(p, forced=piece) for piece in pieces) == dlx.count(p) == 92
    whole = dlx.Stats()
    dlx.count(p, stats=whole)
    with ProcessPoolExecutor(2) as ex:
        s = dlx.Stats()
        assert dlx.count(p, executor=ex, stats=s) == 92
        assert counts(s) == counts(whole)
        assert list(dlx.solutions(p, executor=ex)) == list(dlx.solutions(p))
        assert dlx.is_exact_cover(p, dlx.first(p, executor=ex))
        assert dlx.is_unique(p, executor=ex) is False
        assert dlx.count(p, seed=5, executor=ex) == 92
        w = {label: (label[0] * 7 + label[1]) % 5 for label in p.options}
        assert dlx.best(p, w, executor=ex, k=3) == dlx.best(p, w, k=3)
        with pytest.raises(dlx.ExactCoverError, match="cache"):
            dlx.count(p, cache=True, executor=ex)


def test_the_problem_is_sent_again_to_a_worker_without_it(processes):
    from dlx.options import Options
    from dlx.parallel.answers import CountAnswer
    from dlx.parallel.schedule import _KEYS, Driver

    p = queens(7)
    _KEYS[p] = "a key no worker has seen"
    answer = CountAnswer(None)
    drv = Driver(p, processes, answer, Options())
    drv.blobs_sent = drv.width                     # as if every worker had it already
    for _ in drv.run():
        pass
    assert answer.result() == 40


def kill_one_worker(executor: Executor):
    """A progress callback that kills one worker process of ``executor`` at its first call
    with tasks still running (under load the first report may come when they are all
    back, and a pool with nothing pending never notices a dead worker)."""
    killed: list[int] = []

    def progress(report):
        if not killed and report.running:
            pid = next(iter(executor._processes))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    return progress, killed


def test_a_killed_worker_costs_only_its_pieces():
    p = queens(11)
    total, whole = serial(p)
    with ProcessPoolExecutor(2) as ex:
        progress, killed = kill_one_worker(ex)
        reports: list[parallel.Report] = []
        s = dlx.Stats()

        def both(report):
            progress(report)
            reports.append(report)
        assert parallel.count(p, ex, stats=s, piece_nodes=300, progress=both) == total
    assert killed and reports[-1].faults >= 1
    assert counts(s) == counts(whole)              # nothing counted twice, nothing lost


KILL_FLAG = "DLX_TEST_KILL_FLAG"
TEST_PID = os.getpid()          # (the split runs here, with the same heuristic: spare us)


def mrv_or_die(items):
    """MRV, but the first call in a worker that finds the flag file removes it and
    kills its process."""
    flag = os.environ.get(KILL_FLAG)
    if flag and os.getpid() != TEST_PID and os.path.exists(flag):
        try:
            os.remove(flag)
        except FileNotFoundError:
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return min(range(len(items)), key=lambda k: items[k][1])


def test_a_piece_that_kills_its_worker_is_run_again(tmp_path, monkeypatch):
    flag = tmp_path / "kill-once"
    flag.write_text("")
    monkeypatch.setenv(KILL_FLAG, str(flag))
    p = langford(7)
    total, whole = serial(p)
    s = dlx.Stats()
    with ProcessPoolExecutor(2) as ex:
        assert parallel.count(p, ex, stats=s, heuristic=mrv_or_die, piece_nodes=50) == total
        assert list(parallel.solutions(p, ex, heuristic=mrv_or_die)) == list(dlx.solutions(p))
    assert not flag.exists()                       # a worker did die
    assert counts(s) == counts(whole)


def test_a_piece_that_always_kills_its_worker_gives_up(tmp_path, monkeypatch):
    monkeypatch.setenv(KILL_FLAG, str(tmp_path / "flag"))
    with ProcessPoolExecutor(1) as ex:
        with pytest.raises(BrokenProcessPool):
            parallel.count(queens(5), ex, heuristic=always_die)


def always_die(items):
    """MRV here; in a worker, death."""
    if os.getpid() != TEST_PID:
        os.kill(os.getpid(), signal.SIGKILL)
    return min(range(len(items)), key=lambda k: items[k][1])


CTRL_C = """
import faulthandler, sys
faulthandler.dump_traceback_later(40, exit=True)   # a hang shows where, on stderr
from dlx import parallel
from problems import queens
started = []
def progress(report):
    if not started:
        started.append(1)
        print("running", flush=True)
try:
    with parallel.executor(jobs=2) as ex:
        parallel.count(queens.encode(17), ex, progress=progress)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


def test_ctrl_c_cancels_every_piece():
    """SIGINT to the whole process group, as a terminal sends it: the workers ignore
    it, the caller cancels the queued pieces, and everything exits within seconds."""
    proc = subprocess.Popen([sys.executable, "-c", CTRL_C], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "the run did not start within 60 s"
        assert proc.stdout.readline().strip() == "running"   # the run is under way
        began = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        stopped = time.monotonic() - began
        deadline = time.monotonic() + 10            # no worker left behind
        while time.monotonic() < deadline and _group_alive(proc.pid):
            time.sleep(0.05)
        leftover = _group_alive(proc.pid)
    finally:
        if proc.poll() is None:
            proc.kill()
        if _group_alive(proc.pid):  # whatever happened, leave no process behind
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert out.strip() == "interrupted" and "Traceback" not in err
    assert stopped < 10
    assert not leftover, "worker processes outlived the interrupted run"


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


ORPHANS = """
import os, sys, time
from concurrent.futures import wait
import dlx
from dlx import parallel
sys.path.insert(0, "tests")
from helpers import queens
ex = parallel.executor(jobs=2)
futures = [ex.submit(time.sleep, 0.5) for _ in range(2)]    # the workers start
wait(futures)
print(" ".join(str(pid) for pid in ex._processes), flush=True)
dlx.parallel.count(queens(14), ex)                          # long: it is killed first
"""


@pytest.mark.slow
def test_pool_workers_exit_when_their_parent_is_killed():
    """Issue 20: after SIGTERM (or SIGKILL) to the parent, its pool workers lived on for
    10-60 s (thousands of them with --jobs 100000).  They now notice within a second."""
    proc = subprocess.Popen([sys.executable, "-c", ORPHANS], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        workers = [int(pid) for pid in proc.stdout.readline().split()]
        assert len(workers) == 2
        time.sleep(0.3)
        proc.kill()                         # SIGKILL: no clean-up code runs in the parent
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        alive = set(workers)
        while alive and time.monotonic() < deadline:
            for pid in list(alive):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    alive.discard(pid)
            time.sleep(0.05)
        left = time.monotonic() - (deadline - 10)
        assert not alive, f"workers {sorted(alive)} outlived their parent"
        assert left < 5, left
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_jobs_are_capped():
    with pytest.raises(dlx.ExactCoverError, match="at most"):
        parallel.executor(jobs=parallel.MAX_JOBS + 1)
    with pytest.raises(dlx.ExactCoverError, match="at most"):
        parallel.executor(jobs=10**5000)


# ------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        yield cluster, client
    finally:
        client.close()
        cluster.close()


@pytest.mark.slow
def test_a_dask_cluster_gives_the_serial_answers(dask_cluster):
    cluster, client = dask_cluster
    ex = client.get_executor()
    p = langford(8)
    total, whole = serial(p)
    s = dlx.Stats()
    assert parallel.count(p, ex, stats=s, piece_nodes=300) == total
    assert counts(s) == counts(whole)
    assert list(parallel.solutions(p, ex, piece_nodes=300)) == list(dlx.solutions(p))
    assert dlx.is_exact_cover(p, parallel.first(p, ex))
    w = {label: (label[0] * 7 + label[1]) % 5 for label in p.options}
    assert parallel.best(p, w, ex, k=2, piece_nodes=100) == dlx.best(p, w, k=2)


@pytest.mark.slow
def test_the_command_runs_on_processes_and_on_a_dask_scheduler(dask_cluster, tmp_path):
    """``--jobs N`` and ``--scheduler ADDRESS``: the serial answers, from a real command."""
    cluster, _ = dask_cluster
    path = tmp_path / "langford.dlx"
    q = langford(7)
    def name(item):
        return "_".join(map(str, item))

    p = dlx.ExactCover({name(label): [name(i) for i in items]
                        for label, items in q.options.items()})
    path.write_text(dlx.write_dlx(p))

    def dlx_command(*argv):
        done = subprocess.run([sys.executable, "-m", "dlx", *argv], capture_output=True,
                              text=True, timeout=240, env={**os.environ, "NO_PROGRESS": "1"})
        assert done.returncode == 0, done.stderr
        return done.stdout

    serial = dlx_command("solve", str(path), "--count")
    assert serial == f"{dlx.count(p)}\n"
    assert dlx_command("solve", str(path), "--count", "--jobs", "2") == serial
    assert dlx_command("solve", str(path), "--jobs", "2", "--limit", "3") == dlx_command(
        "solve", str(path), "--limit", "3")
    assert dlx_command("queens", "8", "--count", "--jobs", "2") == "92\n"
    assert dlx_command("langford", "7", "--count", "--scheduler",
                       cluster.scheduler_address) == serial
    assert dlx_command("solve", str(path), "--count", "--scheduler",
                       cluster.scheduler_address) == serial


@pytest.mark.slow
def test_a_lost_dask_worker_costs_only_its_pieces(dask_cluster):
    cluster, client = dask_cluster
    client.wait_for_workers(2, timeout=60)
    pids = client.run(os.getpid)
    ex = client.get_executor()
    p = queens(10)
    total, whole = serial(p)
    killed: list[int] = []

    def progress(report):
        if not killed:
            pid = next(iter(pids.values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    s = dlx.Stats()
    assert parallel.count(p, ex, stats=s, piece_nodes=300, progress=progress) == total
    assert killed and counts(s) == counts(whole)
    client.wait_for_workers(2, timeout=60)          # the nanny restarts it


def test_the_executor_helper_reaches_a_dask_scheduler(dask_cluster):
    cluster, _ = dask_cluster
    with parallel.executor(scheduler=cluster.scheduler_address) as ex:
        assert parallel.count(queens(8), ex) == 92


def test_a_search_with_bounds_is_not_cut_but_still_runs(threads):
    """A search with bounds (Algorithm M) hands over no frontier: the tree is one piece,
    run whole (no task budget), and the answers are the serial ones."""
    p = dlx.ExactCover({"x": ["a", "b"], "y": ["a"], "z": ["a", "c"], "w": ["b"], "v": ["c"]},
                       bounds={"a": (1, 2)})
    above = dlx.Stats()
    assert parallel.split(p, pieces=8, stats=above) == [()] and above.nodes == 0
    total, whole = serial(p)
    s = dlx.Stats()
    assert parallel.count(p, threads, stats=s, piece_nodes=2) == total == 6
    assert counts(s) == counts(whole)
    assert list(parallel.solutions(p, threads, piece_nodes=2)) == list(dlx.solutions(p))
    with pytest.raises(dlx.BudgetExceeded) as stop:
        parallel.count(p, threads, max_nodes=3)
    assert stop.value.found == 0 and stop.value.frontier == [()]


# ------------------------------------------------------ tasks that cut their own rest


def test_a_task_cuts_what_it_did_not_finish_where_it_runs():
    """A task out of budget hands back its rest already cut: the unexplored subtrees of
    the piece it stopped in (keyed after the part searched, weighed as Knuth's shares)
    and the pieces it did not start; the answer so far plus the rest's adds up."""
    from dlx.links import Links
    from dlx.parallel.pieces import Entry
    from dlx.parallel.worker import Local, Task, work

    p = langford(8)
    total, whole = serial(p)
    number = Links.of(p).option_index
    pieces = parallel.split(p, pieces=6)
    entries = tuple(Entry((k,), tuple(number(label) for label in piece), 1 / len(pieces))
                    for k, piece in enumerate(pieces))
    task = Task("k", Local(p, None), "count", entries, 500, None, None, None, None, True, 1,
                None, 0)
    out = work(task)
    assert out.stopped and 0 < out.done < len(entries) + 5
    keys = [e.key for e in out.rest]
    assert keys == sorted(keys) and keys[0] > entries[0].key
    assert abs(out.weight + sum(e.weight for e in out.rest) - 1.0) < 1e-9
    labels = Links.of(p).labels
    rest = 0
    for e in out.rest:
        rest += dlx.count(p, forced=[labels[o] for o in e.piece])
    assert out.answer + rest == total
    assert out.nodes >= 500


def test_a_piece_whose_time_runs_out_before_its_search_begins_goes_back_whole(monkeypatch):
    """The deadline can pass while a worker lays out the problem for a piece: the search
    then stops before its first node, with the piece itself as its frontier.  The task
    hands it back as it is, not done (it once failed with KeyError in the worker)."""
    from dlx import serial as serial_module
    from dlx.links import Links
    from dlx.parallel.pieces import Entry
    from dlx.parallel.worker import Local, Task, work

    real = serial_module.Request.on_time

    def late(request):              # as if the layout had taken the time left
        if request.deadline is not None:
            request.deadline = time.monotonic() - 1
        real(request)
    monkeypatch.setattr(serial_module.Request, "on_time", late)
    p = queens(8)
    number = Links.of(p).option_index
    pieces = parallel.split(p, pieces=4)
    entries = tuple(Entry((k,), tuple(number(label) for label in piece), 1 / len(pieces))
                    for k, piece in enumerate(pieces))
    out = work(Task("late", Local(p, None), "count", entries, None, time.time() + 60, None,
                    None, None, True, 1, None, 0))
    assert out.stopped and out.timed_out and out.done == 0 and out.weight == 0
    assert out.rest == entries and out.answer == 0 and out.counts == (0, 0, 0, ())


def test_the_inline_executor_runs_tasks_here():
    p = queens(9)
    total, whole = serial(p)
    s = dlx.Stats()
    assert parallel.count(p, parallel.inline(), stats=s, piece_nodes=200) == total
    assert counts(s) == counts(whole)
    assert list(parallel.solutions(p, parallel.inline(), piece_nodes=100)) == list(
        dlx.solutions(p))


def test_tasks_are_sized_to_the_executor_and_the_driver():
    """A task lasts at least ROUND_TRIPS round trips and DRIVER_SHARE x the driver's CPU
    per task x the workers: about a second on Dask, 0.1 s on a process pool."""
    from dlx.options import Options
    from dlx.parallel.answers import CountAnswer
    from dlx.parallel.schedule import DRIVER_SHARE, ROUND_TRIPS, TASK_SECONDS, Driver

    with ThreadPoolExecutor(2) as ex:
        drv = Driver(queens(6), ex, CountAnswer(None), Options())
        assert drv._task_seconds() == TASK_SECONDS
        drv.round_trip = 4e-3
        assert drv._task_seconds() == pytest.approx(ROUND_TRIPS * 4e-3)
        drv.round_trip, drv.cost, drv.width = 0.0, 1e-3, 1024
        assert drv._task_seconds() == pytest.approx(DRIVER_SHARE * 1e-3 * 1024)


def test_an_unreachable_scheduler_is_refused_at_once():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    began = time.monotonic()
    with pytest.raises(OSError):
        parallel.executor(scheduler=f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - began < 3
    with pytest.raises(dlx.ExactCoverError, match="connect_timeout"):
        parallel.executor(scheduler=f"tcp://127.0.0.1:{port}", connect_timeout=0)


# ----------------------------------------------------------- workers killed, pools stopped


def _capped_dlx(*argv: str, memory_kb: int = 2_000_000, timeout: float = 60
                ) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run the dlx command under a cap on its address space, warnings as errors; return
    how long it took and what it did."""
    code = f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({memory_kb * 1024},) * 2)"
    began = time.monotonic()
    out = subprocess.run([sys.executable, "-c", code + "\nfrom dlx.cli import main\n"
                          "raise SystemExit(main())", *argv],
                         capture_output=True, text=True, timeout=timeout,
                         env={**os.environ, "PYTHONWARNINGS": "error"})
    return time.monotonic() - began, out


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
        seconds, out = _capped_dlx("pentominoes", "6x10", "--all", "-q", "--jobs", "2",
                            "--timeout", "0.5")
        assert out.returncode == 124, out.stderr
        assert "Traceback" not in out.stderr and "Exception ignored" not in out.stderr, \
            out.stderr
