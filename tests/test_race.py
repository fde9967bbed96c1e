"""engine="race": the core and CP-SAT side by side; the first definitive answer wins, and
nothing is left running after an answer, an error, the time limit, Ctrl-C, SIGTERM or SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx
from dlx import race

pytest.importorskip("ortools", reason="OR-Tools is in the dev extra (cp-sat)")

RACE = {"engine": "race", "timeout": 30}
any_problem = st.one_of(problems(), colored_problems(), bounded_problems())


def race_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("dlx-")]


def tasks(pid: int | str = "self") -> int:
    """The threads of a process, as the system sees them."""
    return len(os.listdir(f"/proc/{pid}/task"))


def settled(before: int) -> bool:
    """No more threads than ``before`` (an OS thread ends a moment after its join)."""
    deadline = time.monotonic() + 2
    while tasks() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    return tasks() <= before


def langford(n):
    from problems import langford

    return langford.encode(n)


@settings(max_examples=25)
@given(any_problem, st.data())
def test_parity_with_the_core(p, data):
    core = dlx.first(p, max_nodes=BUDGET)
    got = dlx.first(p, **RACE)
    assert (got is None) == (core is None)
    assert got is None or dlx.is_exact_cover(p, got)
    assert dlx.is_unique(p, **RACE) == dlx.is_unique(p, max_nodes=BUDGET)
    w = {label: data.draw(st.integers(-3, 7)) for label in p.options}
    best, want = dlx.best(p, w, k=2, **RACE), dlx.best(p, w, k=2, max_nodes=BUDGET)
    assert [s for s, _ in best] == [s for s, _ in want]
    assert race_threads() == []


def test_no_solution_from_the_core_is_definitive():
    """Langford 10 has none: the core proves it in milliseconds, CP-SAT is stopped."""
    stats = dlx.Stats()
    start = time.monotonic()
    assert dlx.first(langford(10), stats=stats, **RACE) is None
    assert time.monotonic() - start < 10 and stats.explored == 1.0 and stats.updates > 0
    assert race_threads() == []


def test_the_cp_sat_side_can_win(monkeypatch):
    """Core sides that never finish (planted: the plain search and the restarts):
    CP-SAT's answer wins, verified."""
    def endless(problem, opts):
        while True:
            time.sleep(0.01)
            opts.progress(opts.stats)      # the core's check point (raises when stopped)

    monkeypatch.setattr(race.serial, "first", endless)
    monkeypatch.setattr(race.restarts, "first", endless)
    from problems import queens

    p = queens.encode(12)
    stats = dlx.Stats()
    sol = dlx.first(p, stats=stats, **RACE)
    assert dlx.is_exact_cover(p, sol) and stats.solutions == 1 and stats.updates == 0
    assert race_threads() == []


def test_no_thread_left_after_answers():
    from problems import queens

    dlx.first(queens.encode(30), **RACE)        # (OR-Tools' own threads, if any, start)
    before = tasks()
    for n in (8, 20, 30):
        assert dlx.first(queens.encode(n), **RACE) is not None
    assert race_threads() == [] and settled(before)


def test_time_limit_stops_both():
    """Langford 14: neither side answers in a second."""
    before = tasks()
    start = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as caught:
        dlx.first(langford(14), engine="race", timeout=1.0)
    assert time.monotonic() - start < 3
    assert caught.value.max_nodes is None and caught.value.timeout == 1.0
    assert race_threads() == [] and settled(before)


def test_budgets_on_both_sides():
    stats = dlx.Stats()
    with pytest.raises(dlx.BudgetExceeded) as caught:
        dlx.first(langford(14), engine="race", max_nodes=2_000, timeout=30, stats=stats)
    assert caught.value.max_nodes == 2_000 and stats.nodes > 0
    assert race_threads() == []


def test_progress_that_raises_stops_the_race():
    calls = []

    def progress(stats):
        calls.append(stats.nodes)
        if len(calls) == 5:
            raise KeyboardInterrupt

    before = tasks()
    with pytest.raises(KeyboardInterrupt):
        dlx.first(langford(14), engine="race", timeout=30, progress=progress)
    assert len(calls) == 5 and race_threads() == [] and settled(before)


def test_an_error_on_either_side_is_raised():
    with pytest.raises(dlx.ExactCoverError, match="not an option"):
        dlx.first(langford(5), forced=["nope"], **RACE)
    with pytest.raises(dlx.ExactCoverError, match="branches its own way|takes no executor"):
        dlx.first(langford(5), engine="race", executor=object())
    assert race_threads() == []


def test_the_race_s_restarts_find_queens_the_plain_search_does_not():
    """Queens 60: the plain search finds nothing in 10,000 nodes; the race's restarts
    side (dlx.first with restarts=True) does, its Stats adding up over the runs, and
    the same answer again (the same seed)."""
    from problems import queens

    p = queens.encode(60)
    with pytest.raises(dlx.BudgetExceeded):
        dlx.first(p, max_nodes=10_000)
    stats = dlx.Stats()
    sol = race.first_with_restarts(p, dlx.options.Options(stats=stats, max_nodes=10**6))
    assert dlx.is_exact_cover(p, sol) and 0 < stats.nodes <= 10**6
    assert race.first_with_restarts(p, dlx.options.Options(max_nodes=10**6)) == sol
    assert dlx.first(p, restarts=True) == sol


# ------------------------------------------------------------------ the dlx command

_SCRIPT = Path(sys.executable).with_name("dlx")
DLX = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "dlx"]


def session_members(sid: int) -> list[int]:
    """The processes of session ``sid`` still alive (zombies included: not reaped)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[3]) == sid and fields[0] != "Z":     # (state, ppid, pgrp, session)
                out.append(int(entry))
    return out


def racing(*argv: str) -> subprocess.Popen[bytes]:
    """``dlx ARGV`` in its own session, once both sides of its race are running."""
    env = {k: v for k, v in os.environ.items() if k != "NO_PROGRESS"}
    proc = subprocess.Popen([*DLX, *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    # the main thread, the two sides, CP-SAT's solve: four threads at least
    while tasks(proc.pid) < 4:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    return proc


@pytest.mark.parametrize(("signum", "code", "word"), [(signal.SIGINT, 130, "interrupted"),
                                                     (signal.SIGTERM, 143, "terminated")])
def test_ctrl_c_and_sigterm_stop_the_race(signum, code, word):
    proc = racing("langford", "14", "--engine", "race", "--timeout", "100")
    try:
        start = time.monotonic()
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - start
        assert proc.returncode == code, err
        assert err.decode().strip().splitlines()[-1].startswith(f"dlx: {word}")
        assert "Traceback" not in err.decode() and took < 5
        assert session_members(proc.pid) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_sigkill_leaves_nothing_running():
    proc = racing("langford", "14", "--engine", "race", "--timeout", "100")
    try:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        assert session_members(proc.pid) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_time_limit_of_the_command():
    start = time.monotonic()
    out = subprocess.run([*DLX, "langford", "14", "--engine", "race", "--timeout", "1"],
                         capture_output=True, text=True, timeout=60, start_new_session=True)
    assert out.returncode == 124 and "time limit of 1 s reached" in out.stderr
    assert time.monotonic() - start < 6


def test_answer_and_no_solution_from_the_command():
    out = subprocess.run([*DLX, "queens", "40", "--engine", "race", "--format", "jsonl"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    import json

    columns = json.loads(out.stdout)["columns"]
    assert sorted(columns) == list(range(40))
    out = subprocess.run([*DLX, "langford", "9", "--engine", "race"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stderr.strip() == "dlx: no solution"
