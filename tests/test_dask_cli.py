"""Dask as a user starts it: ``dask scheduler`` and two ``dask worker`` processes from the
command line, and ``dlx ... --scheduler ADDRESS``: the serial answers, checkpoints, a lost
worker, and an unreachable scheduler reported within seconds.

The cluster runs on 127.0.0.1, each process in its own session, killed with its group
at the end whatever happens; every wait has a timeout.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from helpers import langford

import dlx

pytest.importorskip("distributed")
pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
QUIET = {**os.environ, "NO_PROGRESS": "1", "DASK_DISTRIBUTED__LOGGING__DISTRIBUTED": "error"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([os.path.join(BIN, "dask"), *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, env=QUIET)


def killpg(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


def workers_of(address: str) -> dict[str, int]:
    """Worker address -> pid, asked of the scheduler (empty if it does not answer)."""
    import distributed

    try:
        with distributed.Client(address, timeout=5) as client:
            return dict(client.run(os.getpid))
    except OSError:
        return {}


@pytest.fixture(scope="module")
def cluster():
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [spawn("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")]
    try:
        for _ in range(2):
            procs.append(spawn("worker", address, "--nworkers", "1", "--nthreads", "1",
                               "--no-dashboard", "--host", "127.0.0.1"))
        deadline = time.monotonic() + 120
        while len(workers_of(address)) < 2:
            assert time.monotonic() < deadline, "the cluster did not start within 120 s"
            time.sleep(0.5)
        yield address, procs
    finally:
        for proc in procs:
            killpg(proc)


def dlx_command(*argv: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dlx", *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env=QUIET)


@pytest.mark.slow
def test_the_commands_give_the_serial_answers_on_a_command_line_cluster(cluster, tmp_path):
    address, _ = cluster
    p = langford(8)

    def name(item):
        return "_".join(map(str, item))
    q = dlx.ExactCover({name(label): [name(i) for i in items]
                        for label, items in p.options.items()})
    path = tmp_path / "langford.dlx"
    path.write_text(dlx.write_dlx(q))
    serial = dlx_command("solve", str(path), "--count", "--stats")
    on_dask = dlx_command("solve", str(path), "--count", "--stats", "--scheduler", address)
    assert on_dask.returncode == 0, on_dask.stderr
    assert on_dask.stdout == serial.stdout == f"{dlx.count(q)}\n"

    def table(text):                # the statistics, but the time
        return [line for line in text.splitlines() if "nodes" in line and "/s" not in line
                or "updates" in line]
    assert table(on_dask.stderr) == table(serial.stderr)
    listing = dlx_command("queens", "8", "--all", "--format", "jsonl", "--scheduler", address)
    assert listing.returncode == 0 and listing.stdout == dlx_command(
        "queens", "8", "--all", "--format", "jsonl").stdout
    best = dlx_command("solve", str(path), "--best", "3", "--scheduler", address)
    assert best.returncode == 0 and best.stdout == dlx_command("solve", str(path), "--best",
                                                               "3").stdout


@pytest.mark.slow
def test_a_checkpointed_count_on_the_cluster_resumes(cluster, tmp_path):
    address, _ = cluster
    ckpt = tmp_path / "c.ckpt"
    first = dlx_command("queens", "11", "--count", "--max-nodes", "20000", "--checkpoint",
                        str(ckpt), "--scheduler", address)
    assert first.returncode == 124, first.stderr
    done = dlx_command("queens", "11", "--count", "--checkpoint", str(ckpt), "--scheduler",
                       address)
    assert done.returncode == 0 and done.stdout == "2680\n"
    here = dlx_command("queens", "11", "--count", "--checkpoint", str(ckpt))
    assert here.stdout == "2680\n"                   # finished: answered at once, anywhere


@pytest.mark.slow
def test_a_lost_worker_costs_only_its_tasks(cluster):
    """SIGKILL a dask worker while it runs a task: Dask runs its tasks again, the count is
    exact, and a fresh worker takes its place for the next tests."""
    import distributed

    address, procs = cluster
    pids = workers_of(address)
    run = subprocess.Popen([sys.executable, "-m", "dlx", "queens", "15", "--count",
                            "--scheduler", address], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, env=QUIET,
                           start_new_session=True)
    killed = None
    try:
        with distributed.Client(address, timeout=10) as client:
            deadline = time.monotonic() + 60
            while killed is None and run.poll() is None and time.monotonic() < deadline:
                busy = [w for w, tasks in client.processing().items()
                        if any("work" in str(t) for t in tasks)]
                if busy:
                    time.sleep(0.5)             # part way into its task
                    killed = pids[busy[0]]
                    os.kill(killed, signal.SIGKILL)
                time.sleep(0.05)
        out, err = run.communicate(timeout=240)
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert killed is not None, "no task was seen running"
    assert run.returncode == 0, err
    assert out == "2279184\n"
    procs.append(spawn("worker", address, "--nworkers", "1", "--nthreads", "1",
                       "--no-dashboard", "--host", "127.0.0.1"))
    deadline = time.monotonic() + 120
    while len(workers_of(address)) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.5)


def test_an_unreachable_scheduler_is_reported_within_five_seconds():
    began = time.monotonic()
    done = dlx_command("queens", "8", "--count", "--scheduler", f"tcp://127.0.0.1:{free_port()}",
                       timeout=60)
    took = time.monotonic() - began
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cannot reach the Dask scheduler" in done.stderr
    assert took < 5, took


@pytest.mark.slow
@pytest.mark.parametrize("given", [None, 2])
def test_a_scheduler_that_never_answers_is_given_up_after_the_connect_timeout(given):
    """Something listens but never speaks Dask (the kernel accepts, nobody answers):
    the command gives up after 5 s by default, after ``--connect-timeout`` seconds when
    given (and never sooner), with one line that says so."""
    wait = 5 if given is None else given
    more = [] if given is None else ["--connect-timeout", str(given)]
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        began = time.monotonic()
        done = dlx_command("queens", "8", "--count", "--scheduler", f"tcp://127.0.0.1:{port}",
                           *more, timeout=60)
        took = time.monotonic() - began
    assert done.returncode == 2 and "cannot reach the Dask scheduler" in done.stderr
    assert f"no answer within {wait} s" in done.stderr and done.stderr.count("\n") == 1
    assert wait <= took < wait + 4, took    # (the command and Dask take a second to load)


@pytest.mark.slow
def test_a_scheduler_without_workers_is_reported(tmp_path):
    port = free_port()
    scheduler = spawn("scheduler", "--host", "127.0.0.1", "--port", str(port),
                      "--no-dashboard")
    try:
        address = f"tcp://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.3)
        done = dlx_command("queens", "8", "--count", "--scheduler", address,
                           "--connect-timeout", "2", timeout=60)
    finally:
        killpg(scheduler)
    assert done.returncode == 2 and "no worker" in done.stderr
