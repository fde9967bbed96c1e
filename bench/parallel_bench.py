"""Parallel counting (issue 13): speed-up on this machine, then a simulation past it.

    .venv/bin/python bench/parallel_bench.py speedup [--rounds 3] [--quick]
    .venv/bin/python bench/parallel_bench.py measure [--queens 16] [--pieces 10000]
                                                     [--fine 0.025] [--out FILE]
    .venv/bin/python bench/parallel_bench.py simulate [--data FILE]

``speedup``: the same count serially (``dlx.count``, the C core) and with 2 workers
(``dlx.parallel.count``) on a ``ProcessPoolExecutor`` (``dlx.parallel.executor(jobs=2)``)
and on a Dask ``LocalCluster`` (2 worker processes, 1 thread each, on 127.0.0.1, its
statistical profiler off, ``get_executor(pure=False)``), for
N-queens 14 and pentominoes 6x10 (the catalog's instance: 9,356 tilings).  Rounds are
interleaved (serial, processes, Dask, serial, ...) and each cell is the median; every
round encodes a fresh problem outside the clock, so laying out the links (and, in
parallel, shipping the problem to the workers) is inside it.  The pool and the cluster
are started and warmed up outside the clock.  ``--quick``: queens 12 and pentominoes
3x20.

``measure``: cut N-queens 16 into ``--pieces`` pieces with ``dlx.parallel.split`` (timed),
then time each piece alone (``dlx.count(p, forced=piece)``, one after the other on one
core; CPU time of the thread, so that other processes on this shared machine do not
inflate it).  Pieces longer than ``--fine`` seconds are cut one level further
(``split(p, forced=piece, depth=1)``) and their children timed, recursively, so that
the simulation knows the subtrees a dynamic split would hand over.  Also measured: the
cost of one split step (``_expand``), the round trip of an empty task on a 2-process
pool and on the Dask cluster, and the driver's CPU time per task.  Writes JSON.

``simulate``: from those times, the makespan on W = 1 .. 1024 workers of
  * static: the fixed pieces, one task each, handed out in search order to the first
    free worker (``executor.map``), after the split;
  * static, 16 per worker: the first cut of ``dlx.parallel`` alone, no dynamic split;
  * dynamic: ``dlx.parallel``'s policy: a first cut of 16 pieces per worker, tasks of
    consecutive pieces with a budget of ``TASK_SECONDS`` of search; a task that runs out
    hands back the unexplored subtrees (from the measured tree) and its unstarted
    pieces, which go to the front of the queue when the task returns; and "guided",
    with budgets shrinking near the end as the library's do (to a quarter of each
    worker's share of the work left, known exactly here, estimated there);
both with a per-task round trip on the worker and a single driver that spends its
CPU time per task serially.  Prints the parallel efficiency T1 / (W * makespan).
"""

from __future__ import annotations

import argparse
import collections
import heapq
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import dlx  # noqa: E402
from dlx import parallel  # noqa: E402
from dlx.options import Options  # noqa: E402
from dlx.parallel import pieces as split_module  # noqa: E402
from dlx.parallel import schedule, worker  # noqa: E402
from dlx.parallel.answers import CountAnswer  # noqa: E402
from problems import catalog, queens  # noqa: E402

DEFAULT_DATA = Path("/tmp/dlx_parallel_pieces.json")


# ------------------------------------------------------------------------- speed-up


def _instances(quick: bool):
    if quick:
        return [("queens 12", lambda: queens.encode(12), 14200),
                ("pentominoes 3x20", catalog.get("pentominoes-3x20").problem, 8)]
    return [("queens 14", lambda: queens.encode(14), 365596),
            ("pentominoes 6x10", catalog.get("pentominoes-6x10").problem, 9356)]


def _timed(run, make, expected, workers_cpu):
    """(wall seconds, CPU seconds of this process, CPU seconds of each worker)."""
    problem = make()
    before = workers_cpu()
    c, t = time.process_time(), time.perf_counter()
    n = run(problem)
    seconds, cpu = time.perf_counter() - t, time.process_time() - c
    after = workers_cpu()
    assert n == expected, (n, expected)
    return seconds, cpu, [a - b for a, b in zip(after, before, strict=True)]


def _pool_cpu(pool):
    """CPU seconds so far of each worker process of a process pool (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")

    def cpu():
        out = []
        for pid in sorted(pool._processes):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out.append((int(fields[11]) + int(fields[12])) / tick)
        return out
    return cpu


def _dask_cpu(client):
    def cpu():
        return [v for _, v in sorted(client.run(time.process_time).items())]
    return cpu


def speedup(args) -> None:
    import dask
    import distributed

    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    # Dask's statistical profiler samples every worker thread every 10 ms: off, as for a
    # compute-bound cluster
    with dask.config.set({"distributed.worker.profile.enabled": False}), \
            parallel.executor(jobs=2) as pool, distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        dask = client.get_executor(pure=False)
        for ex in (pool, dask):                       # start and warm up the workers
            assert parallel.count(queens.encode(8), ex) == 92
        runners = {
            "serial": (lambda p: dlx.count(p), list),
            "2 processes": (lambda p: parallel.count(p, pool), _pool_cpu(pool)),
            "Dask, 2 workers": (lambda p: parallel.count(p, dask), _dask_cpu(client)),
        }
        for name, make, expected in _instances(args.quick):
            times = collections.defaultdict(list)
            for _ in range(args.rounds):
                for who, (run, cpu) in runners.items():
                    times[who].append(_timed(run, make, expected, cpu))
            base = statistics.median(t for t, _, _ in times["serial"])
            base_cpu = statistics.median(c for _, c, _ in times["serial"])
            print(f"\n{name} ({expected:,} solutions), median of {args.rounds} rounds;"
                  " CPU: the driver's, the workers' (the busiest), and the speed-up the"
                  " busiest worker's CPU time allows (serial CPU / busiest worker):")
            for who, ts in times.items():
                med = statistics.median(t for t, _, _ in ts)
                driver = statistics.median(c for _, c, _ in ts)
                workers = [sum(w) for _, _, w in ts]
                busiest = [max(w) if w else c for _, c, w in ts]
                line = (f"  {who:16} {med:7.3f} s  {base / med:5.2f}x  "
                        f"(all: {', '.join(f'{t:.3f}' for t, _, _ in ts)})")
                if who != "serial":
                    line += (f"  CPU: driver {driver:.3f} s, workers"
                             f" {statistics.median(workers):.3f} s (busiest"
                             f" {statistics.median(busiest):.3f} s): CPU-bound speed-up"
                             f" {base_cpu / statistics.median(busiest):.2f}x")
                else:
                    line += f"  CPU {base_cpu:.3f} s"
                print(line)
    print(f"\nload average after: {os.getloadavg()}")


# -------------------------------------------------------------------------- measure


def _time_piece(p, piece):
    """CPU seconds (this thread's: other processes on the machine do not count) and nodes."""
    s = dlx.Stats()
    t = time.thread_time()
    dlx.count(p, forced=piece, stats=s)
    return time.thread_time() - t, s.nodes


def _refine(p, piece, seconds, nodes, fine, out):
    """Time the children of a long piece (recursively): the tree a dynamic split meets."""
    children = parallel.split(p, depth=1, forced=piece)
    rows = []
    for child in children:
        t, n = _time_piece(p, child)
        rows.append({"path": [repr(x) for x in child], "seconds": t, "nodes": n})
        if t > fine and len(child) > len(piece):
            _refine(p, child, t, n, fine, out)
    out.extend(rows)


def _round_trip(ex, n=200):
    """Seconds per task of an empty task (a piece of a tiny problem), one at a time."""
    p = queens.encode(4)
    parallel.count(p, ex)
    t = time.perf_counter()
    for _ in range(n):
        ex.submit(worker.work, worker.Task(
            schedule._problem_key(p), None, "count", ((),), None, None, None, None, None,
            True, 1, None, 0)).result()
    return (time.perf_counter() - t) / n


def _driver_cost(ex):
    """The driver's CPU seconds per task, on many small tasks."""
    p = queens.encode(12)
    drv = schedule.Driver(p, ex, CountAnswer(None), Options(), piece_nodes=2000)
    tasks = 0
    submit = drv._submit

    def counting(*a, **k):
        nonlocal tasks
        tasks += 1
        return submit(*a, **k)
    drv._submit = counting
    t = time.process_time()
    for _ in drv.run():
        pass
    return (time.process_time() - t) / tasks, tasks


def measure(args) -> None:
    import distributed

    p = queens.encode(args.queens)
    t = time.perf_counter()
    pieces = parallel.split(p, pieces=args.pieces, stats=(above := dlx.Stats()))
    split_seconds = time.perf_counter() - t
    print(f"queens {args.queens}: {len(pieces)} pieces in {split_seconds:.2f} s"
          f" ({above.nodes} nodes above them)")
    t = time.perf_counter()
    for _ in range(200):
        split_module.expand(p, pieces[0][:2], None, None)
    expand_seconds = (time.perf_counter() - t) / 200
    rows, fine_rows = [], []
    t0 = time.perf_counter()
    for k, piece in enumerate(pieces):
        seconds, nodes = _time_piece(p, piece)
        rows.append({"path": [repr(x) for x in piece], "seconds": seconds, "nodes": nodes})
        if k % 1000 == 999:
            print(f"  {k + 1} pieces timed, {time.perf_counter() - t0:.1f} s", flush=True)
    print(f"pieces: {sum(r['seconds'] for r in rows):.2f} s in all,"
          f" longest {max(r['seconds'] for r in rows):.3f} s")
    for r, piece in zip(rows, pieces, strict=True):
        if r["seconds"] > args.fine:
            _refine(p, piece, r["seconds"], r["nodes"], args.fine, fine_rows)
    print(f"refined: {len(fine_rows)} sub-pieces timed below the pieces over {args.fine} s")
    serial_seconds = None
    if args.serial:
        t = time.perf_counter()
        dlx.count(p)
        serial_seconds = time.perf_counter() - t
        print(f"serial count: {serial_seconds:.2f} s")
    with parallel.executor(jobs=2) as pool:
        pool_trip = _round_trip(pool)
        driver, tasks = _driver_cost(pool)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dask_trip = _round_trip(client.get_executor(), 100)
    print(f"one split step {expand_seconds * 1e6:.0f} us; empty task round trip:"
          f" processes {pool_trip * 1e3:.2f} ms, Dask {dask_trip * 1e3:.2f} ms;"
          f" driver CPU per task {driver * 1e3:.3f} ms ({tasks} tasks)")
    data = {"problem": f"queens-{args.queens}", "split_seconds": split_seconds,
            "expand_seconds": expand_seconds, "serial_seconds": serial_seconds,
            "pool_round_trip": pool_trip, "dask_round_trip": dask_trip,
            "driver_per_task": driver, "fine": args.fine, "pieces": rows,
            "refined": fine_rows, "load": os.getloadavg()}
    Path(args.out).write_text(json.dumps(data))
    print(f"written to {args.out}")


# ------------------------------------------------------------------------- simulate


class Node:
    """A subtree: its time (a leaf's measured time, else the sum of its children's)."""

    __slots__ = ("time", "children", "path")

    def __init__(self, path):
        self.path = path
        self.time = 0.0
        self.children = None


def build_tree(data):
    """The split's tree: every prefix of a piece is a node; the measured pieces and the
    refined sub-pieces are the leaves."""
    nodes = {(): Node(())}

    def node(path):
        if path not in nodes:
            parent = node(path[:-1])
            if parent.children is None:
                parent.children = []
            nodes[path] = Node(path)
            parent.children.append(nodes[path])
        return nodes[path]

    for r in data["pieces"]:
        node(tuple(r["path"])).time = r["seconds"]
    leaves_of_pieces = [nodes[tuple(r["path"])] for r in data["pieces"]]
    for r in data["refined"]:
        node(tuple(r["path"])).time = r["seconds"]

    measured = {id(nodes[tuple(r["path"])]) for r in data["pieces"] + data["refined"]}

    def scale(n, factor):
        n.time *= factor
        for c in n.children or ():
            scale(c, factor)

    def total(n):
        """A node's time: the sum of its children's, which are scaled to its own
        measured time when it was timed too (a piece cut further for the simulation)."""
        if n.children:
            s = sum(total(c) for c in n.children)
            if id(n) in measured and s > 0:
                for c in n.children:
                    scale(c, n.time / s)
            else:
                n.time = s
        return n.time
    total(nodes[()])
    return nodes[()], leaves_of_pieces


def consume(node, budget):
    """Run ``node`` for at most ``budget`` seconds (a leaf runs whole): (seconds spent,
    the unexplored subtrees in search order: its frontier)."""
    if node.children is None or node.time <= budget:
        return node.time, []
    spent, rest = 0.0, []
    for c in node.children:
        if spent >= budget:
            rest.append(c)
        else:
            s, r = consume(c, budget - spent)
            spent += s
            rest.extend(r)
    return spent, rest


def first_cut(root, target):
    """dlx.parallel's first split, on the measured tree: biggest estimated share first
    (one over the number of siblings), until about ``target`` pieces.  Returns the
    pieces in search order and the number of split steps."""
    heap = [(-1.0, (), root)]
    kept, steps = [], 0
    while heap and len(heap) + len(kept) < target:
        share, key, n = heapq.heappop(heap)
        if not n.children:
            kept.append((key, n))               # a measured leaf: not cut further
            continue
        steps += 1
        for k, c in enumerate(n.children):
            heapq.heappush(heap, (share / len(n.children), (*key, k), c))
    pieces = sorted(kept + [(key, n) for _, key, n in heap], key=lambda kn: kn[0])
    return [n for _, n in pieces], steps


def static_makespan(times, workers, trip, driver):
    """Each piece one task, in order, to the first free worker; a single driver."""
    free = [0.0] * workers
    driver_t = 0.0
    end = 0.0
    for t in times:
        w = heapq.heappop(free)
        driver_t = max(driver_t, w) + driver
        finish = driver_t + trip + t
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def dynamic_makespan(root, workers, trip, driver, task_seconds, first_pieces, expand,
                     guided=0.0):
    """dlx.parallel's loop, simulated (see the module docstring).  With ``guided`` (the
    shortest budget, seconds), budgets shrink near the end to a quarter of each worker's
    share of the work left (known exactly here; the library estimates it)."""
    pieces, steps = first_cut(root, first_pieces)
    done = 0.0
    start = steps * expand                              # the first cut runs on the driver
    queue = collections.deque(pieces)
    events = []                                         # (finish, seq, handed back)
    idle = workers
    now = driver_t = start
    seq = 0
    while queue or events:
        while idle and queue:
            size = min(max(1, len(queue) // (2 * workers)), 64)
            chunk = [queue.popleft() for _ in range(min(size, len(queue)))]
            budget = task_seconds
            if guided:
                budget = min(budget, max(guided, (root.time - done) / (4 * workers)))
            left, back = budget, []
            for k, n in enumerate(chunk):
                if left <= 0:
                    back.extend(chunk[k:])
                    break
                s, rest = consume(n, left)
                left -= s
                back.extend(rest)
            driver_t = max(driver_t, now) + driver
            finish = driver_t + trip + (budget - left)
            heapq.heappush(events, (finish, seq, back, budget - left))
            seq += 1
            idle -= 1
        if not events:
            break
        now, _, back, spent = heapq.heappop(events)
        done += spent
        idle += 1
        queue.extendleft(reversed(back))
    return max(now, start)


def simulate(args) -> None:
    data = json.loads(Path(args.data).read_text())
    root, pieces = build_tree(data)
    times = [n.time for n in pieces]
    total = root.time
    split_s, expand = data["split_seconds"], data["expand_seconds"]
    print(f"{data['problem']}: {len(times)} pieces, {total:.1f} s of search in all"
          f" (serial count: {data['serial_seconds'] or float('nan'):.1f} s), longest piece"
          f" {max(times):.3f} s; split {split_s:.2f} s; refined leaves below {data['fine']} s:"
          f" {len(data['refined'])}")
    ordered = sorted(times)
    print(f"piece times: median {ordered[len(ordered) // 2] * 1e3:.2f} ms, 99th percentile"
          f" {ordered[int(len(ordered) * 0.99)] * 1e3:.1f} ms, mean"
          f" {total / len(times) * 1e3:.2f} ms")
    nodes = sum(r["nodes"] for r in data["pieces"])
    shortest = schedule._MIN_BUDGET * total / nodes     # the smallest budget, in seconds
    settings = [("processes", data["pool_round_trip"], data["driver_per_task"]),
                ("Dask", data["dask_round_trip"], data["driver_per_task"])]
    for name, trip, driver in settings:
        print(f"\n{name}: round trip {trip * 1e3:.2f} ms per task, driver"
              f" {driver * 1e3:.3f} ms per task; T1 = {total:.1f} s; makespan (efficiency)")
        print(f"| workers | static, {len(times)} pieces | static, 16 per worker |"
              f" dynamic, {parallel.TASK_SECONDS} s tasks | dynamic, guided (dlx.parallel) |")
        print("|---:|---:|---:|---:|---:|")
        w = 1
        while w <= 1024:
            cells = [split_s + static_makespan(times, w, trip, driver)]
            coarse, steps = first_cut(root, 16 * w)
            cells.append(steps * expand + static_makespan([n.time for n in coarse], w, trip,
                                                          driver))
            tau = parallel.TASK_SECONDS
            cells.append(dynamic_makespan(root, w, trip, driver, tau, 16 * w, expand))
            cells.append(dynamic_makespan(root, w, trip, driver, tau, 16 * w, expand,
                                          guided=shortest))
            print(f"| {w} | " + " | ".join(f"{m:.2f} s ({total / (w * m):.0%})" for m in cells)
                  + " |")
            w *= 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("speedup")
    sp.add_argument("--rounds", type=int, default=3)
    sp.add_argument("--quick", action="store_true")
    me = sub.add_parser("measure")
    me.add_argument("--queens", type=int, default=16)
    me.add_argument("--pieces", type=int, default=10_000)
    me.add_argument("--fine", type=float, default=0.025)
    me.add_argument("--serial", action="store_true", help="also time the whole serial count")
    me.add_argument("--out", default=str(DEFAULT_DATA))
    si = sub.add_parser("simulate")
    si.add_argument("--data", default=str(DEFAULT_DATA))
    args = ap.parse_args(argv)
    {"speedup": speedup, "measure": measure, "simulate": simulate}[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
