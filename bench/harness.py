"""What the benchmark scripts share: interleaved rounds, medians, checked results, one table.

Used by ``engine.py``, ``problems_bench.py``, ``core.py`` and ``sudoku_bench.py`` (run them
from our venv: ``.venv/bin/python bench/<script>.py``). Standard library only; ``dlx`` is
imported by the scripts, not here.

How a task is measured
----------------------
A task has *entries*: ours (a Python callable run in this process) and peers (a task of
``peers.py`` run in the peer's venv). Each peer runs in one long-lived ``peers.py <peer>
serve`` process, loaded and warmed up once (its warm-up, i.e. import plus numba cache load or
compile, is reported apart), then asked for one run at a time. Every round runs every entry
once, in an order rotated from round to round, so ours and the peers' runs alternate and see
the same machine load; the table shows the median over the rounds, with every run listed.

What is timed: for ours, ``time.perf_counter()`` around the callable (the scripts put reading
and building the instance inside it, as ``peers.py`` does for the peers); for a peer, the
``seconds`` its ``peers.py`` measured around the task. Checking the answers happens outside
the clock on both sides. A result that differs from the expected one is printed as
``MISMATCH`` in the table and in a summary at the end, and the script exits with status 1.
"""

from __future__ import annotations

import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import common


def loadavg() -> str:
    try:
        one, five, fifteen = os.getloadavg()
        return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"
    except OSError:  # pragma: no cover - not on this platform
        return "load average unknown"


# ---------------------------------------------------------------------------------------------
# A peer as a server process (bench/peers.py <peer> serve)
# ---------------------------------------------------------------------------------------------


class PeerServer:
    """One ``peers.py <peer> serve`` process; ``ask()`` runs one task in it.

    The process is started on first use. On a timeout it is killed (only this process, by its
    own pid) and started again on the next request.
    """

    def __init__(self, peer: str):
        self.peer = peer
        self.proc: subprocess.Popen | None = None
        self.ready: dict = {}
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr = tempfile.TemporaryFile(mode="w+")

    def _reader(self, stream) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def start(self, timeout: float = 600.0) -> dict:
        py = common.peer_python(self.peer)
        if not py.exists():
            self.ready = {"peer": self.peer, "result": None,
                          "error": f"no venv at {py.parent.parent}; run bench/setup_peers.sh"}
            return self.ready
        self.lines = queue.Queue()
        self.proc = subprocess.Popen([str(py), str(common.PEERS_PY), self.peer, "serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, bufsize=1)
        threading.Thread(target=self._reader, args=(self.proc.stdout,), daemon=True).start()
        self.ready = self._answer(timeout)
        if self.ready.get("result") != "ready":
            self.stop()
        return self.ready

    def _answer(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.stop()
                return {"peer": self.peer, "result": None, "error": f"timeout after {timeout} s"}
            if line is None:
                self.stop()
                self.stderr.seek(0)
                tail = (self.stderr.read().strip().splitlines() or ["no output"])[-1]
                return {"peer": self.peer, "result": None, "error": f"peer exited: {tail}"}
            if line.startswith("{"):
                return json.loads(line)

    def ask(self, task: str, args: Sequence[Any], timeout: float) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            ready = self.start()
            if ready.get("result") != "ready":
                return ready
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"task": task, "args": [str(a) for a in args]}) + "\n")
        self.proc.stdin.flush()
        return self._answer(timeout)

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()  # our own child, by its pid
            self.proc.wait()
            self.proc = None


# ---------------------------------------------------------------------------------------------
# Entries, rows, the bench
# ---------------------------------------------------------------------------------------------


@dataclass
class Ours:
    """One of our runs: ``run()`` is timed; ``check(raw)`` (untimed) gives the result."""

    label: str
    run: Callable[[], Any]
    check: Callable[[Any], Any] = lambda raw: raw
    repeat: int | None = None  # None: the bench's repeat
    items: int | None = None   # None: the task's
    expected: Any = None       # None: the task's


@dataclass
class Peer:
    """A task of bench/peers.py in the peer's venv."""

    peer: str
    task: str
    args: Sequence[Any] = ()
    repeat: int | None = None
    label: str = ""
    items: int | None = None
    expected: Any = None


@dataclass
class Row:
    task: str
    label: str
    kind: str  # "ours" or "peer"
    times: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    results: list[Any] = field(default_factory=list)
    error: str = ""
    note: str = ""
    expected: Any = None
    items: int | None = None  # e.g. puzzles: for a per-second column

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def cpu(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def ok(self) -> bool:
        return not self.error and bool(self.results) and all(
            r == self.expected for r in self.results)

    @property
    def mismatch(self) -> bool:
        return any(r != self.expected for r in self.results)


class Bench:
    def __init__(self, title: str, repeat: int = 3, timeout: float = 900.0,
                 verbose: bool = True):
        self.title = title
        self.repeat = repeat
        self.timeout = timeout
        self.verbose = verbose
        self.servers: dict[str, PeerServer] = {}
        self.rows: list[Row] = []
        self.tasks: list[str] = []
        self.notes: list[str] = []
        self.load_start = loadavg()
        self.started = time.perf_counter()
        self.versions: dict[str, str] = {}
        self.warmups: dict[str, float] = {}

    def log(self, msg: str) -> None:
        if self.verbose:
            print(msg, file=sys.stderr, flush=True)

    def server(self, peer: str) -> PeerServer:
        if peer not in self.servers:
            s = PeerServer(peer)
            r = s.start()
            if r.get("result") == "ready":
                self.versions[peer] = r.get("version") or "?"
                self.warmups[peer] = r.get("warmup_seconds", float("nan"))
                self.log(f"  [{peer} {self.versions[peer]} ready: warm-up "
                         f"{self.warmups[peer]:.2f} s]")
            self.servers[peer] = s
        return self.servers[peer]

    def peer_label(self, p: Peer) -> str:
        if p.label:
            return p.label
        v = self.versions.get(p.peer)
        return f"{p.peer} {v}" if v else p.peer

    def measure(self, task: str, entries: Sequence[Ours | Peer], expected: Any,
                items: int | None = None, skip: dict[str, str] | None = None) -> list[Row]:
        """Run every entry ``repeat`` times (its own ``repeat`` if set), rounds interleaved.

        ``skip`` maps labels of entries not run to the reason, shown in the table.
        """
        self.tasks.append(task)
        self.log(f"{task}  ({loadavg()})")
        rows: list[Row] = []
        for e in entries:
            exp = expected if e.expected is None else e.expected
            n = items if e.items is None else e.items
            if isinstance(e, Peer):
                srv = self.server(e.peer)
                row = Row(task, self.peer_label(e), "peer", expected=exp, items=n)
                if srv.ready.get("result") != "ready":
                    row.error = srv.ready.get("error", "not ready")
            else:
                row = Row(task, e.label, "ours", expected=exp, items=n)
            rows.append(row)
        n_rounds = max((e.repeat or self.repeat) for e in entries) if entries else 0
        for rnd in range(n_rounds):
            k = rnd % len(entries)
            order = list(range(len(entries)))[k:] + list(range(len(entries)))[:k]
            for i in order:
                e, row = entries[i], rows[i]
                if row.error or rnd >= (e.repeat or self.repeat):
                    continue
                if isinstance(e, Peer):
                    r = self.servers[e.peer].ask(e.task, e.args, self.timeout)
                    if r.get("error"):
                        row.error = r["error"]
                        if "no exact-cover API" in row.error or "cannot" in row.error:
                            row.note = "n/a"
                    else:
                        row.times.append(r["seconds"])
                        row.cpus.append(r.get("cpu_seconds", float("nan")))
                        row.results.append(r["result"])
                        if r.get("note") and "slack" in r["note"]:
                            row.note = "slack rows"
                        if r.get("unsolved"):
                            row.note = f"unsolved/wrong: {r['unsolved'][:5]}"
                else:
                    c0 = time.process_time()
                    t0 = time.perf_counter()
                    try:
                        raw = e.run()
                    except Exception as exc:  # report it in the table, keep going
                        row.error = f"{type(exc).__name__}: {exc}"
                        continue
                    row.times.append(time.perf_counter() - t0)
                    row.cpus.append(time.process_time() - c0)
                    row.results.append(e.check(raw))
                last = f"{row.times[-1]:.4f} s" if row.times and not row.error else row.error
                self.log(f"  round {rnd + 1}: {row.label:<24} {last}")
        for label, why in (skip or {}).items():
            rows.append(Row(task, label, "skipped", error=why, expected=expected))
        for row in rows:
            if row.mismatch:
                self.log(f"  !!! MISMATCH: {row.label} on {task}: got {row.results}, "
                         f"expected {row.expected}")
        self.rows.extend(rows)
        return rows

    # -------------------------------------------------------------- looking results up

    def row(self, task: str, label_prefix: str) -> Row | None:
        for r in self.rows:  # "exact_cover" must not find "exact_cover_py 0.1.2"
            if r.task == task and (r.label == label_prefix
                                   or r.label.startswith(label_prefix + " ")):
                return r
        return None

    def ratio(self, task: str, their: str, ours: str, cpu: bool = False) -> float | None:
        """their median time / our median time (> 1: we are faster), None if unmeasured.

        Per item (puzzle) when the two rows solved different numbers of items. With ``cpu``,
        the medians of process CPU time instead of wall time.
        """
        a, b = self.row(task, their), self.row(task, ours)
        if not a or not b or not a.ok or not b.ok:
            return None
        ta, tb = (a.cpu, b.cpu) if cpu else (a.median, b.median)
        if not ta or not tb:
            return None
        if a.items and b.items and a.items != b.items:
            return (ta / a.items) / (tb / b.items)
        return ta / tb

    # -------------------------------------------------------------- printing

    def print_table(self, refs: Sequence[str], unit: str = "", file=None) -> None:
        """One Markdown table; ``refs`` are label prefixes of our entries to compare against.

        The ratio column ``x vs REF`` is (this entry's median time) / (REF's median time):
        above 1 means REF, ours, is that many times faster; ``cpu x`` is the same ratio of
        process CPU times, which the machine's load disturbs less.
        """
        out = file or sys.stdout
        head = ["task", "who", "median s", "runs s", "cpu s"]
        if unit:
            head.append(f"{unit}/s")
        head += ["result", "check"]
        for r in refs:
            head += [f"x vs {r}", "cpu x"]
        print("| " + " | ".join(head) + " |", file=out)
        print("|" + "---|" * len(head), file=out)
        for task in self.tasks:
            for r in (x for x in self.rows if x.task == task):
                med = f"{r.median:.4f}" if r.median is not None else "-"
                runs = " ".join(f"{t:.3g}" for t in r.times) or "-"
                cpu = f"{r.cpu:.3f}" if r.cpu is not None else "-"
                cells = [task, r.label, med, runs, cpu]
                if unit:
                    cells.append(f"{r.items / r.median:,.0f}" if r.items and r.median else "-")
                res = ", ".join(sorted({f"{x:,}" if isinstance(x, int) else str(x)
                                        for x in r.results})) or "-"
                if r.kind == "skipped":
                    check = f"skipped: {r.error}"
                elif r.error:
                    check = r.note if r.note == "n/a" else f"ERROR: {r.error[:70]}"
                elif r.mismatch:
                    check = f"**MISMATCH** (expected {r.expected:,})" if isinstance(
                        r.expected, int) else f"**MISMATCH** (expected {r.expected})"
                else:
                    check = "ok" + (f" ({r.note})" if r.note else "")
                cells += [res, check]
                for ref in refs:
                    for cpu in (False, True):
                        x = self.ratio(task, r.label, ref, cpu)
                        cells.append("-" if x is None or r.label == ref else f"{x:.2f}")
                print("| " + " | ".join(cells) + " |", file=out)

    def print_footer(self, file=None) -> int:
        """Warm-ups, load averages, notes, mismatches; returns the exit status."""
        out = file or sys.stdout
        if self.warmups:
            print("\nPeer warm-up (import + first calls, once per serving process, outside "
                  "the times): " + ", ".join(f"{p} {self.versions[p]} {w:.2f} s"
                                             for p, w in self.warmups.items()), file=out)
        for n in self.notes:
            print(n, file=out)
        print(f"\nAt start: {self.load_start}; at end: {loadavg()} ({os.cpu_count()} "
              f"cores); wall time of the whole run "
              f"{time.perf_counter() - self.started:.0f} s.", file=out)
        bad = [r for r in self.rows if r.mismatch]
        errors = [r for r in self.rows if r.error and r.kind != "skipped" and r.note != "n/a"]
        for r in bad:
            print(f"!!! MISMATCH: {r.label} on {r.task}: got {r.results}, expected {r.expected}",
                  file=out)
        for r in errors:
            print(f"!!! not measured: {r.label} on {r.task}: {r.error}", file=out)
        return 1 if bad else 0

    def close(self) -> None:
        for s in self.servers.values():
            s.stop()


def verdict(name: str, value: float | None, target: float, better: str = "higher") -> str:
    """One line of a target check: ``name: 2.31x (target >= 2x): MET``."""
    if value is None:
        return f"{name}: not measured (target {'>=' if better == 'higher' else '<='} {target}x)"
    met = value >= target if better == "higher" else value <= target
    sign = ">=" if better == "higher" else "<="
    return f"{name}: {value:.2f}x (target {sign} {target}x): {'MET' if met else 'NOT MET'}"


def write_problem_matrix(problem, path) -> tuple[int, int, int]:
    """Write an ``ExactCover``'s options as a matrix file for ``peers.py matrix``.

    Columns are numbered in our item order (primary items first, as listed, then secondary),
    rows in our option order, so a peer solves exactly our rows and, with a first-shortest
    heuristic, breaks ties as we do. Returns (rows, primary, secondary).
    """
    items = list(problem.primary) + list(problem.secondary)
    index = {item: i for i, item in enumerate(items)}
    rows = [[index[item] for item in its] for its in problem.options.values()]
    common.write_matrix(path, rows, len(problem.primary), len(problem.secondary))
    return len(rows), len(problem.primary), len(problem.secondary)
