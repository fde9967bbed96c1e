"""Checkpoints against SIGKILL (issue 23): kill a checkpointed search at random moments,
resume it each time, and check that the answer and the Stats are an uninterrupted run's.

    .venv/bin/python bench/checkpoint_kill.py [--kills 25] [--seed 1] [--modes ...]

Each *mode* is a search run by a child process (in its own session; ``os.killpg`` with
SIGKILL kills it and any pool it has), started again and again with the same checkpoint
(written every 0.1 s) until ``--kills`` kills have found it running, then run to its
end.  The modes:

* ``count``: ``dlx.count(queens 15)`` in the child's own thread (no executor);
* ``count-pool``: the same on ``--jobs 2`` (the pool dies with the driver);
* ``solutions-pool``: ``dlx.solutions(queens 13)`` on 2 processes: the 73,712 solutions,
  and the ``.solutions.jsonl`` file, against the serial list, line for line;
* ``best``: ``dlx.best(queens 16, k=3)`` in the child's thread (the answer only: a
  branch and bound's node counts depend on how the tree is cut);
* ``worker``: one pool worker SIGKILLed at a random moment, then the driver, again and
  again (Stats too);
* ``command``: ``dlx queens 15 --count --checkpoint FILE`` as a user runs it (stdout);
* ``dask``: ``dlx.count(queens 15)`` on a Dask cluster started from the command line
  (``dask scheduler``, 2 ``dask worker``); the driver killed, the cluster kept.

Prints one line per mode (kills landed, runs, whether the answer and the Stats were
exact, time) and a total; exits 1 if any answer was wrong.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import dlx  # noqa: E402
from dlx.parallel import checkfile, checkpoint  # noqa: E402
from problems import queens  # noqa: E402

CHILD = """
import contextlib, json, os, sys
import dlx
from dlx import parallel
from problems import queens
view, path, n, where = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
p = queens.encode(n)
s = dlx.Stats()
told = []
if where == "here":
    ex = None
elif where.startswith("jobs"):
    ex = parallel.executor(jobs=int(where[4:]))
else:
    ex = parallel.executor(scheduler=where)
def progress(report):
    if not told:
        told.append(1)
        pids = list(getattr(ex, "_processes", None) or ())
        print("running", *pids, flush=True)
with ex or contextlib.nullcontext():
    kw = dict(checkpoint=path, checkpoint_every=0.1, stats=s, executor=ex, progress=progress)
    if view == "count":
        answer = dlx.count(p, **kw)
    elif view == "solutions":
        answer = sum(1 for _ in dlx.solutions(p, **kw))
    else:
        w = {label: label.row * label.col * 13 % 7 for label in p.options}
        answer = [list(x) for x in dlx.best(p, w, k=3, **kw)]
print("answer", json.dumps([answer, [s.nodes, s.updates, s.solutions, s.profile]]),
      flush=True)
"""

MODES = {                   # view, queens, where, kill window (s), compare the Stats?
    "count": ("count", 15, "here", (0.3, 3.0), True),
    "count-pool": ("count", 15, "jobs2", (0.5, 3.0), True),
    "solutions-pool": ("solutions", 13, "jobs2", (0.5, 3.0), True),
    "best": ("best", 16, "here", (0.3, 2.5), False),
    "worker": ("count", 15, "jobs2", (0.5, 3.0), True),
    "command": ("command", 15, "here", (0.3, 3.0), False),
    "dask": ("count", 15, "dask", (1.5, 5.0), True),
}


def _start(view, path, n, where):
    if view == "command":
        argv = [sys.executable, "-m", "dlx", "queens", str(n), "--count", "--checkpoint",
                str(path), "--checkpoint-every", "0.1", "-q"]
    else:
        argv = [sys.executable, "-c", CHILD, view, str(path), str(n), where]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, start_new_session=True,
                            env={**os.environ, "NO_PROGRESS": "1"})


def _killpg(proc):
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def _answer(view, out):
    if view == "command":
        return int(out.strip())
    line = [x for x in out.splitlines() if x.startswith("answer ")][0]
    return json.loads(line[len("answer "):])


def _serial(view, n):
    p = queens.encode(n)
    s = dlx.Stats()
    if view in ("count", "command"):
        answer = dlx.count(p, stats=s)
    elif view == "solutions":
        answer = sum(1 for _ in dlx.solutions(p, stats=s))
    else:
        w = {label: label.row * label.col * 13 % 7 for label in p.options}
        answer = [list(x) for x in dlx.best(p, w, k=3, stats=s)]
    if view == "command":
        return answer
    return json.loads(json.dumps([answer, [s.nodes, s.updates, s.solutions, s.profile]]))


def run_mode(name, kills, rng, folder, address=None):
    view, n, where, window, stats = MODES[name]
    if where == "dask":
        where = address
    path = Path(folder) / f"{name}.ckpt"
    landed = runs = 0
    began = time.monotonic()
    while landed < kills:
        runs += 1
        proc = _start(view, path, n, where)
        try:
            if name == "worker":
                landed += _kill_a_worker_then_the_driver(proc, rng, window)
            else:
                time.sleep(rng.uniform(*window))
                landed += proc.poll() is None
            _killpg(proc)
            proc.wait(timeout=60)
        finally:
            _killpg(proc)
        if path.exists() and checkfile.load(str(path))["finished"]:
            for leftover in (path, Path(checkpoint.solutions_path(str(path)))):
                leftover.unlink(missing_ok=True)      # it ended first: start again
    proc = _start(view, path, n, where)
    try:
        out, err = proc.communicate(timeout=3600)
    finally:
        _killpg(proc)
    if proc.returncode != 0:
        return {"mode": name, "landed": landed, "runs": runs + 1, "exact": False,
                "error": err.strip().splitlines()[-1:]}
    got, want = _answer(view, out), _serial(view, n)
    if view == "command" or not stats:
        exact = (got == want) if view == "command" else got[0] == want[0]
    else:
        exact = got == want
    if view == "solutions":
        p = queens.encode(n)
        exact = exact and list(checkpoint.read_solutions(path, p)) == list(dlx.solutions(p))
    return {"mode": name, "landed": landed, "runs": runs + 1, "exact": exact,
            "seconds": time.monotonic() - began}


def _kill_a_worker_then_the_driver(proc, rng, window):
    """Wait for the run to start, SIGKILL one pool worker at a random moment, then the
    driver a little later: 1 if the driver was still running when killed."""
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    if not ready:
        return 0
    words = proc.stdout.readline().split()
    if not words or words[0] != "running" or len(words) < 2:
        return 0
    time.sleep(rng.uniform(0.1, window[1] / 2))
    with contextlib.suppress(ProcessLookupError):
        os.kill(int(rng.choice(words[1:])), signal.SIGKILL)
    time.sleep(rng.uniform(0.2, window[1] / 2))
    return int(proc.poll() is None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=25, help="kills that land, per mode")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"load average: {os.getloadavg()}", flush=True)
    results = []
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        address = None
        if "dask" in args.modes:
            from parallel_bench import command_line_cluster

            address, _ = stack.enter_context(command_line_cluster(2))
        for name in args.modes:
            r = run_mode(name, args.kills, rng, folder, address)
            results.append(r)
            print(f"  {name:15} {r['landed']} kills landed in {r['runs']} runs:"
                  f" {'exact' if r['exact'] else 'WRONG'}"
                  f" ({r.get('seconds', 0):.0f} s){' ' + str(r['error']) if 'error' in r else ''}",
                  flush=True)
    total = sum(r["landed"] for r in results)
    good = sum(r["landed"] for r in results if r["exact"])
    print(f"{total} kills in all; {good} survived with exact answers"
          f" ({sum(r['exact'] for r in results)} of {len(results)} modes exact);"
          f" load average {os.getloadavg()}")
    return 0 if all(r["exact"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
