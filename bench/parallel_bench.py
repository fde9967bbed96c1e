"""Parallel counting (issues 13 and 23): speed-up on this machine, then a simulation past it.

    .venv/bin/python bench/parallel_bench.py speedup [--rounds 3] [--queens 16] [--local]
    .venv/bin/python bench/parallel_bench.py command [--rounds 3] [--queens 16]
    .venv/bin/python bench/parallel_bench.py driver-cost [--path DIR]
    .venv/bin/python bench/parallel_bench.py measure [--queens 16] [--pieces 10000] [--serial]
    .venv/bin/python bench/parallel_bench.py extrapolate [--queens 22] [--library-queens 17]
    .venv/bin/python bench/parallel_bench.py simulate [--data FILE] [--big FILE]

``speedup``: the same count serially (``dlx.count``, the C core) and with 2 workers
(``dlx.count(p, executor=...)``) on a process pool (``dlx.parallel.executor(jobs=2)``) and
on a Dask cluster started as a user starts one: ``dask scheduler`` and two ``dask worker
--nworkers 1 --nthreads 1`` processes from the command line, on 127.0.0.1, with their
defaults (the workers' profiler on), reached with ``dlx.parallel.executor(scheduler=)``
(``--local``: also a ``LocalCluster``, its scheduler inside this process).  Rounds are
interleaved (serial, processes, Dask, serial, ...), each cell the median; every round
encodes a fresh problem outside the clock, so laying out the links and shipping the
problem are inside it; the pool and the cluster are started and warmed up outside it.
The load average is printed with every round.  Default: N-queens 16 (14,772,512
solutions, about 23 s serially here).

``command``: the same, as a user runs it: ``dlx queens N --count``, ``... --jobs 2``,
``... --scheduler ADDRESS`` (the cluster already running), wall time of the whole command.

``driver-cost``: the driver's CPU time per task (the whole process: its threads that
pickle and wake the pool too; and the main thread's alone), on many small tasks
(``piece_nodes=5000``) of N-queens 13 and pentominoes 6x10 on a 2-process pool.
``--path DIR`` imports dlx from DIR (an older copy, for before/after).

``measure``: cut N-queens 16 into ``--pieces`` pieces with ``dlx.parallel.split`` (timed),
then time each piece alone (``dlx.count(p, forced=piece)``, one after the other on one
core; CPU time of the thread, so that other processes on this shared machine do not
inflate it).  Pieces longer than ``--fine`` seconds are cut one level further and their
children timed, recursively.  Also measured: one split step, the round trip of an empty
task on a 2-process pool and on a command-line Dask cluster, and the driver's CPU time
per task on both.  Writes JSON.

``extrapolate``: the tree of a count of about 1,000 CPU-hours, N-queens 22: the C core's
rate (nodes per CPU second, on queens 16), dlx.parallel's first cut of queens 22 into
16 x W pieces for W = 16 .. 1,024 with each piece's size by Knuth's estimate, and a
library of real frontiers (queens 17 pieces stopped part way, each frontier piece
counted).  Writes JSON.

``simulate``: replays the schedules of ``parallel_sim.py`` on W = 1 .. 1,024 workers and
prints the parallel efficiency T1 / (W x makespan): on the measured queens 16 tree (with
the process pool's and Dask's overheads), and with ``--big`` on the extrapolated queens 22.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if "--path" in sys.argv:                        # driver-cost --path DIR: an older dlx
    sys.path.insert(0, sys.argv[sys.argv.index("--path") + 1])
sys.path.insert(1 if "--path" in sys.argv else 0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import parallel_sim as sim  # noqa: E402

import dlx  # noqa: E402
from dlx import parallel  # noqa: E402
from dlx.options import Options  # noqa: E402
from dlx.parallel import pieces as split_module  # noqa: E402
from dlx.parallel import schedule, sizing  # noqa: E402
from dlx.parallel.answers import CountAnswer  # noqa: E402
from problems import catalog, queens  # noqa: E402

DEFAULT_DATA = Path("/tmp/dlx_parallel_pieces.json")
DEFAULT_BIG = Path("/tmp/dlx_parallel_big.json")
SOLUTIONS = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104}


# ------------------------------------------------------------------- a Dask cluster


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def command_line_cluster(workers=2):
    """``dask scheduler`` and ``workers`` x ``dask worker`` started as a user starts them
    (each in its own session, killed with it at the end): yields (address, their pids)."""
    import distributed

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = str(Path(sys.executable).parent / "dask")
    quiet = {**os.environ, "DASK_DISTRIBUTED__LOGGING__DISTRIBUTED": "error"}
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stderr=subprocess.DEVNULL,
                              start_new_session=True, env=quiet)]
    try:
        for _ in range(workers):
            procs.append(subprocess.Popen(
                [dask, "worker", address, "--nworkers", "1", "--nthreads", "1",
                 "--no-dashboard", "--host", "127.0.0.1"], stderr=subprocess.DEVNULL,
                start_new_session=True, env=quiet))
        deadline = time.monotonic() + 120
        while True:
            try:
                with distributed.Client(address, timeout=5) as client:
                    pids = client.run(os.getpid)
                    if len(pids) >= workers:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the Dask cluster did not start within 120 s")
            time.sleep(0.5)
        yield address, {"scheduler": procs[0].pid, **pids}
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def _cpu_of(pid: int) -> float:
    """CPU seconds so far of process ``pid`` (Linux /proc; all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


# ------------------------------------------------------------------------- speed-up


def _timed(run, n, pids):
    """(wall seconds, CPU seconds of this process, CPU seconds of each other process)."""
    problem = queens.encode(n)
    before = [_cpu_of(pid) for pid in pids]
    c, t = time.process_time(), time.perf_counter()
    found = run(problem)
    seconds, cpu = time.perf_counter() - t, time.process_time() - c
    after = [_cpu_of(pid) for pid in pids]
    assert found == SOLUTIONS[n], (found, n)
    return seconds, cpu, [a - b for a, b in zip(after, before, strict=True)]


def speedup(args) -> None:
    print(f"load average before: {_load()}; cores: {os.cpu_count()}")
    with contextlib.ExitStack() as stack:
        pool = stack.enter_context(parallel.executor(jobs=2))
        address, dask_pids = stack.enter_context(command_line_cluster(2))
        dask = stack.enter_context(parallel.executor(scheduler=address))
        runners = {"serial": (dlx.count, [])}
        assert dlx.count(queens.encode(8), executor=pool) == 92      # start the workers
        runners["2 processes"] = (lambda p: dlx.count(p, executor=pool),
                                  sorted(pool._processes))
        assert dlx.count(queens.encode(8), executor=dask) == 92
        runners["Dask (command line), 2 workers"] = (lambda p: dlx.count(p, executor=dask),
                                                     list(dask_pids.values()))
        if args.local:
            import distributed
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None))
            client = stack.enter_context(distributed.Client(cluster))
            local = client.get_executor(pure=False)
            assert dlx.count(queens.encode(8), executor=local) == 92
            runners["Dask LocalCluster, 2 workers"] = (
                lambda p: dlx.count(p, executor=local),
                list(client.run(os.getpid).values()))
        n = args.queens
        times = collections.defaultdict(list)
        for r in range(args.rounds):
            for who, (run, pids) in runners.items():
                times[who].append(_timed(run, n, pids))
                print(f"  round {r + 1} {who}: {times[who][-1][0]:.2f} s (load {_load()})",
                      flush=True)
        base = statistics.median(t for t, _, _ in times["serial"])
        base_cpu = statistics.median(c for _, c, _ in times["serial"])
        print(f"\nqueens {n} ({SOLUTIONS[n]:,} solutions), median of {args.rounds} rounds;"
              " CPU: this process's (the driver), the others' (workers, scheduler):")
        for who, ts in times.items():
            med = statistics.median(t for t, _, _ in ts)
            line = (f"  {who:32} {med:7.2f} s  {base / med:5.2f}x"
                    f"  (all: {', '.join(f'{t:.2f}' for t, _, _ in ts)})")
            if who == "serial":
                line += f"  CPU {base_cpu:.2f} s"
            else:
                driver = statistics.median(c for _, c, _ in ts)
                others = [statistics.median(o[k] for _, _, o in ts) for k in range(len(ts[0][2]))]
                line += (f"  CPU: driver {driver:.2f} s, others"
                         f" {', '.join(f'{x:.2f}' for x in others)} s")
            print(line)
    print(f"\nload average after: {_load()}")


def command(args) -> None:
    """The counts as a user runs them, wall time of the whole command."""
    n = args.queens
    exe = [sys.executable, "-m", "dlx", "queens", str(n), "--count", "-q"]
    env = {**os.environ, "NO_PROGRESS": "1"}
    print(f"load average before: {_load()}")
    with command_line_cluster(2) as (address, _):
        runs = {"serial": exe, "--jobs 2": exe + ["--jobs", "2"],
                "--scheduler (2 workers)": exe + ["--scheduler", address]}
        times = collections.defaultdict(list)
        for r in range(args.rounds):
            for who, argv in runs.items():
                t = time.perf_counter()
                done = subprocess.run(argv, capture_output=True, text=True, env=env,
                                      timeout=3600, cwd=HERE.parent)
                times[who].append(time.perf_counter() - t)
                assert done.stdout.strip() == str(SOLUTIONS[n]), done
                print(f"  round {r + 1} {who}: {times[who][-1]:.2f} s (load {_load()})",
                      flush=True)
    base = statistics.median(times["serial"])
    print(f"\ndlx queens {n} --count, median of {args.rounds} rounds (whole command):")
    for who, ts in times.items():
        med = statistics.median(ts)
        print(f"  {who:24} {med:7.2f} s  {base / med:5.2f}x  (all: "
              f"{', '.join(f'{t:.2f}' for t in ts)})")
    print(f"load average after: {_load()}")


# -------------------------------------------------------------------- driver cost


def _driver_cost(ex, p, piece_nodes):
    """The driver's CPU seconds per task (the process's, and its main thread's)."""
    drv = schedule.Driver(p, ex, CountAnswer(None), Options(), piece_nodes=piece_nodes)
    tasks = 0
    submit = drv._submit

    def counting(*a, **k):
        nonlocal tasks
        tasks += 1
        return submit(*a, **k)
    drv._submit = counting
    t, th = time.process_time(), time.thread_time()
    for _ in drv.run():
        pass
    return (time.process_time() - t) / tasks, (time.thread_time() - th) / tasks, tasks


def driver_cost(args) -> None:
    print(f"dlx from {Path(dlx.__file__).parent}; load average {_load()}")
    cases = [("queens 13", queens.encode(13)),
             ("pentominoes 6x10", catalog.get("pentominoes-6x10").problem())]
    with parallel.executor(jobs=2) as pool:
        _driver_cost(pool, queens.encode(8), 2000)
        for name, p in cases:
            rows = [_driver_cost(pool, p, 5000) for _ in range(args.rounds)]
            proc = statistics.median(r[0] for r in rows)
            main = statistics.median(r[1] for r in rows)
            print(f"  {name}, 2 processes: {proc * 1e3:.3f} ms per task (main thread"
                  f" {main * 1e3:.3f} ms), {rows[0][2]} tasks; medians of {args.rounds}")
    if args.dask:
        with command_line_cluster(2) as (address, _), \
                parallel.executor(scheduler=address) as dask:
            for name, p in cases:
                rows = [_driver_cost(dask, p, 5000) for _ in range(args.rounds)]
                proc = statistics.median(r[0] for r in rows)
                main = statistics.median(r[1] for r in rows)
                print(f"  {name}, Dask: {proc * 1e3:.3f} ms per task (main thread"
                      f" {main * 1e3:.3f} ms), {rows[0][2]} tasks")
    print(f"load average after: {_load()}")


# -------------------------------------------------------------------------- measure


def _time_piece(p, piece):
    """CPU seconds (this thread's: other processes on the machine do not count) and nodes."""
    s = dlx.Stats()
    t = time.thread_time()
    dlx.count(p, forced=piece, stats=s)
    return time.thread_time() - t, s.nodes


def _refine(p, piece, fine, out):
    """Time the children of a long piece (recursively): the tree a dynamic split meets."""
    children = parallel.split(p, depth=1, forced=piece)
    rows = []
    for child in children:
        t, n = _time_piece(p, child)
        rows.append({"path": [repr(x) for x in child], "seconds": t, "nodes": n})
        if t > fine and len(child) > len(piece):
            _refine(p, child, fine, out)
    out.extend(rows)


def _round_trip(ex, n=100):
    """Seconds per task of an empty task, one at a time."""
    from dlx.parallel import worker

    ex.submit(worker.ping, 0).result()
    t = time.perf_counter()
    for k in range(n):
        ex.submit(worker.ping, k).result()
    return (time.perf_counter() - t) / n


def measure(args) -> None:
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
        if k % 2000 == 1999:
            print(f"  {k + 1} pieces timed, {time.perf_counter() - t0:.1f} s", flush=True)
    print(f"pieces: {sum(r['seconds'] for r in rows):.2f} s in all,"
          f" longest {max(r['seconds'] for r in rows):.3f} s")
    for r, piece in zip(rows, pieces, strict=True):
        if r["seconds"] > args.fine:
            _refine(p, piece, args.fine, fine_rows)
    print(f"refined: {len(fine_rows)} sub-pieces timed below the pieces over {args.fine} s")
    serial_seconds = None
    if args.serial:
        t = time.perf_counter()
        dlx.count(p)
        serial_seconds = time.perf_counter() - t
        print(f"serial count: {serial_seconds:.2f} s")
    with parallel.executor(jobs=2) as pool:
        pool_trip = _round_trip(pool, 200)
        pool_driver = statistics.median(_driver_cost(pool, queens.encode(13), 5000)[0]
                                        for _ in range(3))
    with command_line_cluster(2) as (address, _), \
            parallel.executor(scheduler=address) as dask:
        dask_trip = _round_trip(dask)
        dask_driver = statistics.median(_driver_cost(dask, queens.encode(13), 5000)[0]
                                        for _ in range(3))
    print(f"one split step {expand_seconds * 1e6:.0f} us; empty task round trip:"
          f" processes {pool_trip * 1e3:.2f} ms, Dask {dask_trip * 1e3:.2f} ms;"
          f" driver CPU per task {pool_driver * 1e3:.3f} ms (processes),"
          f" {dask_driver * 1e3:.3f} ms (Dask)")
    data = {"problem": f"queens-{args.queens}", "split_seconds": split_seconds,
            "expand_seconds": expand_seconds, "serial_seconds": serial_seconds,
            "pool_round_trip": pool_trip, "dask_round_trip": dask_trip,
            "driver_per_task": pool_driver, "dask_driver_per_task": dask_driver,
            "fine": args.fine, "pieces": rows, "refined": fine_rows, "load": os.getloadavg()}
    Path(args.out).write_text(json.dumps(data))
    print(f"written to {args.out}")


# -------------------------------------------------------------------- extrapolate


def _library(n, samples, seed):
    """Real frontiers of queens ``n`` pieces stopped part way (see parallel_sim.py)."""
    p = queens.encode(n)
    pieces = parallel.split(p, pieces=2000)
    rng = random.Random(seed)
    rows = []
    while len(rows) < samples:
        piece = rng.choice(pieces)
        s = dlx.Stats()
        dlx.count(p, forced=piece, stats=s)
        if s.nodes < 1000:
            continue
        budget = max(1, int(s.nodes * rng.uniform(0.02, 0.98)))
        try:
            dlx.count(p, forced=piece, max_nodes=budget)
            continue
        except dlx.BudgetExceeded as e:
            frontier = e.frontier
        sizes = []
        for fp in frontier:
            f = dlx.Stats()
            dlx.count(p, forced=fp, stats=f)
            sizes.append(f.nodes)
        weights = split_module.shares(split_module.Entry((), piece, 1.0), frontier)
        rest = sum(sizes)
        if not rest:
            continue
        rows.append({"f": budget / s.nodes, "t": [x / rest for x in sizes],
                     "w": [e.weight for e in weights]})
        if len(rows) % 50 == 0:
            print(f"  {len(rows)} frontiers", flush=True)
    return rows


def extrapolate(args) -> None:
    rate_p = queens.encode(16)
    s = dlx.Stats()
    t = time.thread_time()
    dlx.count(rate_p, stats=s)
    rate = s.nodes / (time.thread_time() - t)
    p = queens.encode(args.queens)
    whole = dlx.estimate(p, samples=100_000, seed=1)
    print(f"C core: {rate:,.0f} nodes per CPU second (queens 16); queens {args.queens}:"
          f" {whole}; about {whole.nodes / rate / 3600:,.0f} CPU-hours", flush=True)
    cuts = {}
    for w in args.workers:
        t = time.perf_counter()
        made = split_module.cut(p, (), pieces=16 * w, depth=None, heuristic=None,
                                engine=None)
        cut_seconds = time.perf_counter() - t
        est = [dlx.estimate(p, forced=e.piece, samples=args.samples, seed=k).nodes
               for k, e in enumerate(made.entries)]
        cuts[str(w)] = {"cut_seconds": cut_seconds, "done": made.done,
                        "above_nodes": made.above.nodes,
                        "pieces": [[e.weight, n / rate] for e, n in
                                   zip(made.entries, est, strict=True)]}
        print(f"  W = {w}: {len(made.entries)} pieces cut in {cut_seconds:.2f} s,"
              f" {sum(est) / rate / 3600:,.0f} CPU-hours by their estimates", flush=True)
    library = _library(args.library_queens, args.frontiers, 1)
    data = {"problem": f"queens-{args.queens}", "rate": rate, "nodes": whole.nodes,
            "nodes_error": whole.nodes_error, "cuts": cuts, "library": library,
            "library_problem": f"queens-{args.library_queens}", "load": os.getloadavg()}
    Path(args.out).write_text(json.dumps(data))
    print(f"written to {args.out}")


# ------------------------------------------------------------------------- simulate


def _row(w, cells, total):
    return f"| {w} | " + " | ".join(f"{m:.2f} s ({total / (w * m):.0%})" for m in cells) + " |"


def simulate(args) -> None:
    if args.data and Path(args.data).exists():
        _simulate_measured(json.loads(Path(args.data).read_text()))
    if args.big:
        _simulate_big(json.loads(Path(args.big).read_text()), args)


def _simulate_measured(data) -> None:
    root, leaves = sim.build_tree(data)
    times = [n.time for n in leaves]
    total = root.time
    split_s, expand = data["split_seconds"], data["expand_seconds"]
    print(f"{data['problem']}: {len(times)} pieces, {total:.1f} s of search in all"
          f" (serial count: {data['serial_seconds'] or float('nan'):.1f} s), longest piece"
          f" {max(times):.3f} s; split {split_s:.2f} s; refined leaves below {data['fine']} s:"
          f" {len(data['refined'])}")
    nodes = sum(r["nodes"] for r in data["pieces"])
    shortest = sizing._MIN_BUDGET * total / nodes     # the smallest old budget, seconds
    settings = [("processes", data["pool_round_trip"], data["driver_per_task"]),
                ("Dask", data["dask_round_trip"], data.get("dask_driver_per_task",
                                                           data["driver_per_task"]))]
    for name, trip, driver in settings:
        print(f"\n{name}: round trip {trip * 1e3:.2f} ms per task, driver"
              f" {driver * 1e3:.3f} ms per task; T1 = {total:.1f} s; makespan (efficiency)")
        print(f"| workers | static, {len(times)} pieces | static, 16 per worker |"
              f" before (0.1 s tasks, guided) | now (batches, sized tasks) |")
        print("|---:|---:|---:|---:|---:|")
        w = 1
        while w <= 1024:
            cells = [split_s + sim.static_makespan(times, w, trip, driver)]
            coarse, steps = sim.first_cut(root, 16 * w)
            cells.append(steps * expand + sim.static_makespan(
                [n.time for n, _ in coarse], w, trip, driver))
            pieces = [(n.time, share, n) for n, share in coarse]
            cells.append(sim.old_makespan(pieces, w, trip, driver, sim.stop_in_tree,
                                          shortest, start=steps * expand, total=total))
            span, _ = sim.batched_makespan(pieces, w, trip, driver, sim.stop_in_tree,
                                           start=steps * expand + 2 * trip,
                                           first=shortest * 20, done=0.0)
            cells.append(span)
            print(_row(w, cells, total), flush=True)
            w *= 2


def _simulate_big(data, args) -> None:
    rate = data["rate"]
    library = sim.Library(data["library"], seed=1)
    stop = sim.stop_by_library(library)
    trip = args.trip
    print(f"\n{data['problem']}: about {data['nodes']:,.0f} nodes (Knuth's estimate), at"
          f" {rate:,.0f} nodes per CPU second: {data['nodes'] / rate / 3600:,.0f} CPU-hours;"
          f" frontiers from {len(data['library'])} stopped pieces of"
          f" {data['library_problem']}; round trip {trip * 1e3:.1f} ms, driver"
          f" {args.driver * 1e3:.2f} ms per task")
    print("| workers | pieces | T1 | makespan | efficiency | tasks | driver busy |"
          + (" before: makespan (efficiency) |" if args.old else ""))
    print("|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if args.old else ""))
    for w in sorted(int(k) for k in data["cuts"]):
        cut = data["cuts"][str(w)]
        pieces = [(t, share, None) for share, t in cut["pieces"]]
        total = sum(t for t, _, _ in pieces) + cut["above_nodes"] / rate
        t0 = time.perf_counter()
        span, tasks = sim.batched_makespan(
            pieces, w, trip, args.driver, stop, start=cut["cut_seconds"] + 2 * trip,
            first=20_000 / rate, done=cut["done"])
        busy = tasks * args.driver / span
        line = (f"| {w} | {len(pieces):,} | {total / 3600:,.0f} h | {span / 3600:,.2f} h |"
                f" {total / (w * span):.1%} | {tasks:,} | {busy:.0%} |")
        if args.old:            # 0.1 s tasks: T1 / 0.1 s of them (slow to simulate)
            old = sim.old_makespan(pieces, w, trip, args.driver, stop, 1000 / rate,
                                   start=cut["cut_seconds"], total=total)
            line += f" {old / 3600:,.2f} h ({total / (w * old):.1%}) |"
        print(line + f" <!-- {time.perf_counter() - t0:.0f} s to simulate -->", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("speedup")
    sp.add_argument("--rounds", type=int, default=3)
    sp.add_argument("--queens", type=int, default=16)
    sp.add_argument("--local", action="store_true", help="also a Dask LocalCluster")
    co = sub.add_parser("command")
    co.add_argument("--rounds", type=int, default=3)
    co.add_argument("--queens", type=int, default=16)
    dc = sub.add_parser("driver-cost")
    dc.add_argument("--path", help="import dlx from this folder (an older copy)")
    dc.add_argument("--rounds", type=int, default=3)
    dc.add_argument("--dask", action="store_true", help="also on a command-line Dask cluster")
    me = sub.add_parser("measure")
    me.add_argument("--queens", type=int, default=16)
    me.add_argument("--pieces", type=int, default=10_000)
    me.add_argument("--fine", type=float, default=0.025)
    me.add_argument("--serial", action="store_true", help="also time the whole serial count")
    me.add_argument("--out", default=str(DEFAULT_DATA))
    ex = sub.add_parser("extrapolate")
    ex.add_argument("--queens", type=int, default=22)
    ex.add_argument("--workers", type=int, nargs="+", default=[16, 64, 128, 256, 512, 1024])
    ex.add_argument("--samples", type=int, default=200, help="probes per piece")
    ex.add_argument("--library-queens", type=int, default=17)
    ex.add_argument("--frontiers", type=int, default=300)
    ex.add_argument("--out", default=str(DEFAULT_BIG))
    si = sub.add_parser("simulate")
    si.add_argument("--data", default=str(DEFAULT_DATA))
    si.add_argument("--big", nargs="?", const=str(DEFAULT_BIG), default=None)
    si.add_argument("--trip", type=float, default=4.2e-3, help="round trip (big tree), s")
    si.add_argument("--driver", type=float, default=1.86e-3,
                    help="driver CPU per task (big tree), s")
    si.add_argument("--old", action="store_true",
                    help="also the schedule before issue 23 (big tree; slow)")
    args = ap.parse_args(argv)
    {"speedup": speedup, "command": command, "driver-cost": driver_cost, "measure": measure,
     "extrapolate": extrapolate, "simulate": simulate}[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
