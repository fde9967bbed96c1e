"""Big sparse instances: the first domino tiling of an n x n board, and what each phase costs.

    .venv/bin/python bench/big.py [--sizes 200 300 400 500 1000] [--scan-upto 300]
                                  [--peers miniexact xcover] [--peer-timeout 300]
                                  [--peer-memory-gb 4] [--per-node] [--crossover] [--reps 3]

A board of n x n squares has n^2 primary items (its squares) and 2n(n-1) options (its
dominoes); the first solution takes n^2/2 + 1 nodes and no backtracking, so the work is
linear in n^2 while X3's scan of every active item at every node is quadratic.  For each n:

* ``dlx.first`` on the problem laid out once (a warm-up call lays it out), on the core's
  choice (``engine="c"``: the tree, ``dlx/_core/tree.h``) and, up to ``--scan-upto``, on
  the scan (``engine="c-links"``);
* the user's call with the encoding: ``problems.dominoes.first(n, n)`` from nothing;
* the phases of that call: reading (``dominoes.encode``: the ExactCover), layout (the
  first search's extra time over the second: Links and the core's Table), search
  (``dlx.count(..., limit=1)``, which stops at the first solution without answering),
  answer (``dlx.first`` over that count: the labels of the solution);
* the peers (``bench/peers.py PEER dominoes n`` in their venvs: ``bash
  bench/setup_peers.sh xcover miniexact``), each under ``ulimit -v`` (``--peer-memory-gb``)
  and a time limit, with their peak memory.

``--per-node``: the search's time per node and per link update against the number of
items (10^3 .. 10^6), on the tree and on the scan (the scan up to 10^5 items).
``--crossover``: the tree's CPU time over the scan's on problems of growing size
(dominoes, random covers with planted solutions, empty Sudoku grids), the measurement
behind the core's choice (``TREE_MIN_ITEMS`` in ``dlx/_core/loop.c``).

Times are wall-clock seconds (``time.perf_counter``), medians of ``--reps``; the peers'
are their own (``seconds`` of peers.py: building their input and the search); the load
average is printed beside them.  The targets: n = 500 within 0.5 s laid out, n = 1000
within 3 s and within 5x the n = 500 time.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import common  # noqa: E402

import dlx  # noqa: E402
from problems import dominoes  # noqa: E402


def _median(f: Callable[[], Any], reps: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def laid_out(n: int, reps: int, scan_upto: int) -> dict[str, Any]:
    """One board: the phases of the user's call, and the search on a problem laid out."""
    row = _phases(n, reps, scan_upto)
    t0 = time.perf_counter()                # (the problem above is gone)
    assert dominoes.first(n, n) is not None
    row["user"] = time.perf_counter() - t0
    return row


def _phases(n: int, reps: int, scan_upto: int) -> dict[str, Any]:
    row: dict[str, Any] = {"n": n, "items": n * n, "options": 2 * n * (n - 1)}
    t0 = time.perf_counter()
    p = dominoes.encode(n, n)
    row["reading"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    stats = dlx.Stats()
    sol = dlx.first(p, stats=stats)
    first_call = time.perf_counter() - t0
    assert sol is not None and dominoes.is_tiling(sol, n, n)
    row["nodes"], row["updates"] = stats.nodes, stats.updates
    row["first"], _ = _median(lambda: dlx.first(p), reps)
    row["layout"] = max(first_call - row["first"], 0.0)
    row["search"], _ = _median(lambda: dlx.count(p, limit=1), reps)
    row["answer"] = max(row["first"] - row["search"], 0.0)
    if n <= scan_upto:
        row["scan"], _ = _median(lambda: dlx.first(p, engine="c-links"), 1)
    return row


def peer_run(peer: str, n: int, timeout: float, memory_gb: float) -> dict[str, Any]:
    """bench/peers.py PEER dominoes n in the peer's venv, under ulimit -v and a time limit;
    its answer, and the peak memory of its process."""
    py = common.peer_python(peer)
    if not py.exists():
        return {"error": "no venv (bash bench/setup_peers.sh xcover miniexact)"}
    kb = int(memory_gb * 1024 * 1024)
    cmd = ["bash", "-c", f'ulimit -v {kb}; exec "$0" "$@"', str(py), str(common.PEERS_PY),
           peer, "dominoes", str(n)]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        peak = 0.0
        while proc.poll() is None:      # (a peer killed at the time limit says nothing)
            peak = max(peak, _hwm_gb(proc.pid))
            time.sleep(0.2)
        timer.cancel()
        out.seek(0)
        err.seek(0)
        text, problem = out.read(), err.read()
    lines = [ln for ln in text.splitlines() if ln.startswith("{")]
    got = json.loads(lines[-1]) if lines else {}
    if got.get("peak_mb"):
        peak = max(peak, got["peak_mb"] / 1024)
    if proc.returncode == -signal.SIGKILL:
        return {"error": f"over {timeout:.0f} s", "peak_gb": peak}
    if not lines:
        last = (problem.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        return {"error": last[:120], "peak_gb": peak}
    if got.get("error"):
        return {"error": got["error"][:120], "peak_gb": peak}
    return {"seconds": got["seconds"], "result": got["result"], "peak_gb": peak}


def _hwm_gb(pid: int) -> float:
    """The peak resident memory of process pid so far (Linux's VmHWM), in GB; 0 if gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    return 0.0


def boards(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    print(f"## Domino tilings, first solution ({_load()})\n")
    print("| n | items | options | nodes | updates | reading | layout | search | answer |"
          " `dlx.first` laid out | on the scan | user's call |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in args.sizes:
        r = laid_out(n, args.reps, args.scan_upto)
        rows.append(r)
        scan = f"{r['scan']:.2f} s" if "scan" in r else "-"
        print(f"| {n} | {r['items']:,} | {r['options']:,} | {r['nodes']:,} | {r['updates']:,} |"
              f" {r['reading']:.2f} s | {r['layout']:.2f} s | {r['search']:.3f} s |"
              f" {r['answer']:.3f} s | {r['first']:.3f} s | {scan} | {r['user']:.2f} s |",
              flush=True)
    by_n = {r["n"]: r for r in rows}
    print(f"\n({_load()})\n")
    if 500 in by_n:
        t = by_n[500]["first"]
        print(f"- n = 500 laid out: {t:.3f} s (target 0.5 s): {'met' if t <= 0.5 else 'NOT met'}")
    if 1000 in by_n:
        t = by_n[1000]["first"]
        print(f"- n = 1000 laid out: {t:.3f} s (target 3 s): {'met' if t <= 3 else 'NOT met'}")
        if 500 in by_n:
            ratio = t / by_n[500]["first"]
            print(f"- n = 1000 / n = 500: {ratio:.2f}x (target 5x, for 4x the options):"
                  f" {'met' if ratio <= 5 else 'NOT met'}")
    return rows


def peers(args: argparse.Namespace) -> None:
    print(f"\n## The peers, same boards (each under ulimit -v {args.peer_memory_gb:g} GB and"
          f" {args.peer_timeout:.0f} s; {_load()})\n")
    print("| n | " + " | ".join(args.peers) + " |")
    print("|---|" + "---:|" * len(args.peers))
    failed: set[str] = set()
    for n in args.sizes:
        cells = []
        for peer in args.peers:
            if peer in failed:          # it failed on a smaller board: not tried again
                cells.append("(not tried)")
                continue
            got = peer_run(peer, n, args.peer_timeout, args.peer_memory_gb)
            if "error" in got:
                failed.add(peer)
            if "error" in got:
                cells.append(f"failed ({got['peak_gb']:.1f} GB): {got['error']}"
                             if "peak_gb" in got else f"failed: {got['error']}")
            else:
                cells.append(f"{got['seconds']:.2f} s, {got['peak_gb']:.2f} GB")
        print(f"| {n} | " + " | ".join(cells) + " |", flush=True)


def per_node(args: argparse.Namespace) -> None:
    """The first solution's search on the core, split into its setup (the search's own
    copy of the links, and the tree built) and its loop, per node and per update."""
    from dlx import engine
    from dlx.links import Links
    print(f"\n## Time per node and per update against the items ({_load()})\n")
    print("| items | nodes | updates | tree: setup | loop | loop, ns per node |"
          " ns per update | setup, ns per node | scan: loop | ns per node | ns per update |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in (32, 100, 316, 1000):
        p = dominoes.encode(n, n)
        links = Links.of(p)
        table, labels = engine.table(links), engine._labels(links)
        cells = []
        for rep in (2, 0) if n * n <= 100_000 else (2,):
            best: tuple[float, float, int, int] | None = None
            for _ in range(args.reps if rep == 2 else 1):
                t0 = time.perf_counter()
                search = engine._core.Search(table, labels, "count", limit=1, bits=rep)
                t1 = time.perf_counter()
                search.count()
                t2 = time.perf_counter()
                got = (t1 - t0, t2 - t1, search.nodes, search.updates)
                best = got if best is None or got[0] + got[1] < best[0] + best[1] else best
                del search
            assert best is not None
            setup, loop, nodes, updates = best
            if rep == 2:
                cells += [f"{nodes:,}", f"{updates:,}", f"{setup:.4f} s", f"{loop:.4f} s",
                          f"{loop / nodes * 1e9:.0f}", f"{loop / updates * 1e9:.0f}",
                          f"{setup / nodes * 1e9:.0f}"]
            else:
                cells += [f"{loop:.4f} s", f"{loop / nodes * 1e9:.0f}",
                          f"{loop / updates * 1e9:.0f}"]
        cells += ["-"] * (10 - len(cells))
        print(f"| {n * n:,} | " + " | ".join(cells) + " |", flush=True)


def _cpu(f: Callable[[], Any], reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        f()
        times.append(time.process_time() - t0)
    return min(times)


def _empty_sudoku(box: int) -> dlx.ExactCover:
    """The empty Sudoku grid of boxes box x box: options (row, col, digit) over the
    items cell, row-digit, col-digit, box-digit."""
    n = box * box
    return dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v),
                                       ("box", r // box * box + c // box, v)]
                           for r in range(n) for c in range(n) for v in range(n)})


def _budgeted(p: dlx.ExactCover, engine: str, max_nodes: int, limit: int | None) -> None:
    try:
        dlx.count(p, engine=engine, max_nodes=max_nodes, limit=limit)
    except dlx.BudgetExceeded:
        pass


def crossover(args: argparse.Namespace) -> None:
    """The tree's CPU time over the scan's, interleaved, on problems of growing size: the
    first solution (or 50,000 nodes of its search), or 20,000 nodes of a count."""
    print(f"\n## Where the tree pays: its CPU time over the scan's ({_load()})\n")
    print("| problem | primary items | search | tree / scan |")
    print("|---|---:|---|---:|")
    first, some = "first solution", "count, 20,000 nodes"
    cases: list[tuple[str, dlx.ExactCover, str]] = []
    for k in (16, 22, 32, 46, 64, 90):
        cases.append((f"dominoes {k}x{k}", dominoes.encode(k, k), first))
    for n in (256, 512, 1024, 2048, 4096, 8192):
        inst = common.planted(n, 4 * n, seed=1, size=(2, 5), plants=2)
        options, _ = common.as_options(inst["rows"], n, 0)
        cases.append((f"random cover, {4 * n:,} options of 2-5 items", dlx.ExactCover(options),
                      some))
    for box in (3, 4, 5, 6, 7, 8):
        cases.append((f"empty Sudoku {box * box}x{box * box}", _empty_sudoku(box), first))
    for name, p, what in cases:
        def run(e: str, p: dlx.ExactCover = p, what: str = what) -> None:
            _budgeted(p, e, 20_000 if what == some else 50_000, None if what == some else 1)
        run("c-links")
        run("c-tree")
        ratios = []
        for k in range(args.reps * 2):
            order = ("c-links", "c-tree") if k % 2 == 0 else ("c-tree", "c-links")
            t = {e: _cpu(lambda e=e: run(e), 1) for e in order}
            ratios.append(t["c-tree"] / max(t["c-links"], 1e-9))
        print(f"| {name} | {len(p.primary):,} | {what} | {statistics.median(ratios):.2f} |",
              flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 300, 400, 500, 1000])
    parser.add_argument("--scan-upto", type=int, default=300,
                        help="also time the scan (engine='c-links') up to this n")
    parser.add_argument("--peers", nargs="*", default=["miniexact", "xcover"],
                        help="the peers to run (none: --peers with no name)")
    parser.add_argument("--peer-timeout", type=float, default=300.0)
    parser.add_argument("--peer-memory-gb", type=float, default=4.0)
    parser.add_argument("--per-node", action="store_true")
    parser.add_argument("--crossover", action="store_true")
    parser.add_argument("--no-boards", action="store_true")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    if not args.no_boards:
        boards(args)
    if args.peers:
        peers(args)
    if args.per_node:
        per_node(args)
    if args.crossover:
        crossover(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
