"""Hard first-solution searches: Dancing Links (mrv), restarts, CP-SAT and the race.

Every cell runs in a process of its own (``python bench/hard.py --cell ROW ENGINE``),
with the library's ``timeout=`` of 60 s (``--limit``) and a kill 15 s after that.  A
cell's time is the ``dlx.first`` call's wall clock, and in brackets the process's CPU
time over it (all its threads): laying the problem out, building CP-SAT's model and
importing OR-Tools included; encoding the puzzle not.  Every answer is checked with
``dlx.why_not`` in the cell.

    python bench/hard.py --save rows.jsonl   # the whole table (about 30 minutes)
    python bench/hard.py --rows queens       # rows whose name contains 'queens'
    python bench/hard.py --render rows.jsonl # the table again, from the saved rows
    python bench/hard.py --transport         # threads or processes for the race: the costs

The targets: the race within 1.3x (plus 0.5 s of start-up) of the fastest of the
other columns on every row, and within 10 s on the empty 49 x 49 Sudoku.

The race needs two cores.  On a machine busy with other sessions, Linux shares the
CPU between sessions (autogroups), so the race's process gets what a one-thread
engine gets, and its sides split it.  So the table also gives the CPU time of each
side of the race (its threads, sampled from /proc), and from it an estimate of the
race on two free cores: the core's two searches share one core (their CPU added
up), CP-SAT has the other and starts ``dlx.race.GRACE`` seconds in; that estimate
is held to 1.3x + 0.5 s of the fastest other column's CPU time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import pickle
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import dlx  # noqa: E402
from dlx import race  # noqa: E402

ENGINES = ("dlx", "restarts", "cp-sat", "race")
HEADS = {"dlx": "DLX (mrv)", "restarts": "restarts", "cp-sat": "cp-sat", "race": "race"}


# ------------------------------------------------------------------ the instances


def solved_grid(box: int, seed: int) -> list[int]:
    """A random solved Sudoku of ``box * box`` rows: the pattern grid with its digits,
    bands, stacks, rows and columns shuffled."""
    n = box * box
    rng = random.Random(seed)

    def shuffled_lines() -> list[int]:
        bands = rng.sample(range(box), box)
        return [b * box + r for b in bands for r in rng.sample(range(box), box)]

    rows, cols, digits = shuffled_lines(), shuffled_lines(), rng.sample(range(1, n + 1), n)
    return [digits[(box * (r % box) + r // box + c) % n] for r in rows for c in cols]


def sudoku(box: int, given: float = 0.0, seed: int = 1) -> dlx.ExactCover:
    from problems import sudoku as s

    n = box * box
    grid = solved_grid(box, seed)
    keep = set(random.Random(seed + 1).sample(range(n * n), round(given * n * n)))
    values = [v if k in keep else 0 for k, v in enumerate(grid)]
    return s.encode(s.Grid(values, box=(box, box)))


def steiner(v: int) -> dlx.ExactCover:
    """Steiner triple systems on ``v`` points: every pair of points in exactly one
    chosen triple (items: the pairs; options: the triples)."""
    return dlx.ExactCover({t: [pair for pair in itertools.combinations(t, 2)]
                           for t in itertools.combinations(range(v), 3)})


def queens(n: int) -> dlx.ExactCover:
    from problems import queens as q

    return q.encode(n)


def langford(n: int) -> dlx.ExactCover:
    from problems import langford as lf

    return lf.encode(n)


def pentominoes(rows: int, cols: int) -> dlx.ExactCover:
    from problems import polyominoes

    return polyominoes.encode(rows=rows, cols=cols)


ROWS: dict[str, Callable[[], dlx.ExactCover]] = {
    "Sudoku 36x36, empty": lambda: sudoku(6),
    "Sudoku 49x49, empty": lambda: sudoku(7),
    "Sudoku 64x64, empty": lambda: sudoku(8),
    "49x49, 30% of a solved grid given": lambda: sudoku(7, 0.3),
    "49x49, 60% given": lambda: sudoku(7, 0.6),
    "queens 200": lambda: queens(200),
    "queens 500": lambda: queens(500),
    "queens 1000": lambda: queens(1000),
    "Langford 14 (no solution)": lambda: langford(14),
    "Steiner triple systems, 45 points": lambda: steiner(45),
    "pentominoes 3x20": lambda: pentominoes(3, 20),
}


# ------------------------------------------------------------------ one cell


def restarts_first(problem: dlx.ExactCover, timeout: float) -> tuple | None:
    """``dlx.first(problem, restarts=True)``: runs of Luby's budgets on one layout."""
    return dlx.first(problem, restarts=True, timeout=timeout)


def cell(row: str, engine: str, limit: float) -> dict[str, object]:
    result = _cell(row, engine, limit)
    result["cpu"] = time.process_time() - _CPU[0]
    return result


_CPU = [0.0]


class _Sides:
    """The CPU time of each side of a race (its thread), sampled every 20 ms from
    /proc/self/task (a thread's entry is gone once it is joined)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.done = threading.Event()
        self.tick = os.sysconf("SC_CLK_TCK")
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        while not self.done.wait(0.02):
            for t in threading.enumerate():
                if t.name.startswith("dlx-") and t.native_id is not None:
                    try:
                        stat = Path(f"/proc/self/task/{t.native_id}/stat").read_text()
                    except OSError:
                        continue
                    fields = stat.rsplit(")", 1)[1].split()
                    self.cpu[t.name] = (int(fields[11]) + int(fields[12])) / self.tick

    def stop(self) -> dict[str, float]:
        self.done.set()
        self.thread.join()
        return self.cpu


def _cell(row: str, engine: str, limit: float) -> dict[str, object]:
    problem = ROWS[row]()
    sides = _Sides() if engine == "race" else None
    try:
        result = _timed(problem, engine, limit)
    finally:
        if sides is not None:
            result_sides = sides.stop()
    if sides is not None:
        result["sides"] = result_sides
    return result


def _timed(problem: dlx.ExactCover, engine: str, limit: float) -> dict[str, object]:
    _CPU[0] = time.process_time()
    start = time.perf_counter()
    stats = dlx.Stats()
    try:
        if engine == "dlx":
            sol = dlx.first(problem, engine="c", timeout=limit)
        elif engine == "restarts":
            sol = restarts_first(problem, limit)
        else:
            sol = dlx.first(problem, engine=engine, timeout=limit,  # type: ignore[arg-type]
                            stats=stats)
    except dlx.BudgetExceeded:
        return {"outcome": "unknown", "seconds": time.perf_counter() - start}
    took = time.perf_counter() - start
    if sol is not None and dlx.why_not(problem, sol) is not None:
        return {"outcome": "WRONG", "seconds": took}
    # (the race's Stats are its winner's: CP-SAT's have no updates)
    winner = "cp-sat" if engine == "race" and stats.updates == 0 and sol is not None \
        else "core"
    return {"outcome": "found" if sol is not None else "none", "seconds": took,
            "winner": winner}


def run_cell(row: str, engine: str, limit: float) -> dict[str, object]:
    """One cell in a process of its own, killed 15 s after its limit."""
    cmd = [sys.executable, __file__, "--cell", row, engine, "--limit", str(limit)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 15)
    except subprocess.TimeoutExpired:
        return {"outcome": "killed", "seconds": limit + 15}
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]
    except (IndexError, json.JSONDecodeError):
        return {"outcome": "failed: " + out.stderr.strip()[-200:], "seconds": math.nan}


def shown(result: dict[str, object], limit: float) -> str:
    seconds = float(result["seconds"])  # type: ignore[arg-type]
    cpu = result.get("cpu")
    outcome = result["outcome"]
    of = f" ({float(cpu):.2f})" if cpu is not None else ""  # type: ignore[arg-type]
    if outcome == "found":
        return f"{seconds:.2f} s{of}"
    if outcome == "none":
        return f"{seconds:.2f} s{of}, none"
    if outcome in ("unknown", "killed"):
        return f"unknown after {limit:g} s"
    return str(outcome)


# ------------------------------------------------------------------ the table


def table(rows: list[str], limit: float, save: str | None) -> None:
    """Run every cell of ``rows`` (saving each row's results as a JSON line to ``save``),
    then print the table."""
    loads = [os.getloadavg()]
    done = []
    for row in rows:
        results = {e: run_cell(row, e, limit) for e in ENGINES}
        done.append({"row": row, "results": results})
        print(f"{row}: " + ", ".join(f"{e} {shown(results[e], limit)}" for e in ENGINES),
              file=sys.stderr, flush=True)
        if save is not None:
            with open(save, "a") as out:
                out.write(json.dumps(done[-1]) + "\n")
    loads.append(os.getloadavg())
    render(done, limit, loads)


def render(done: list[dict[str, object]], limit: float,
           loads: list[tuple[float, float, float]] | None = None) -> None:
    """The Markdown table of the rows in ``done`` (see the module's docstring)."""
    if loads:
        print("load average (1, 5, 15 min) at the start: "
              + ", ".join(f"{x:.1f}" for x in loads[0])
              + "; at the end: " + ", ".join(f"{x:.1f}" for x in loads[-1]))
        print()
    print("| instance (first solution) | " + " | ".join(HEADS[e] for e in ENGINES)
          + " | race: CPU of each side (plain / restarts / cp-sat) | race on two free cores"
          " (estimate) | race: 1.3x + 0.5 s |")
    print("|---|" + "---|" * (len(ENGINES) + 3))
    for entry in done:
        row, results = entry["row"], entry["results"]
        assert isinstance(row, str) and isinstance(results, dict)
        cpu = side_cpu(results["race"])
        estimate = two_cores(results, cpu)
        print(f"| {row} | " + " | ".join(shown(results[e], limit) for e in ENGINES)
              + " | " + " / ".join(f"{c:.2f}" for c in cpu)
              + f" | {estimate} | {target(row, results, limit)} |")


def side_cpu(race_result: dict[str, object]) -> tuple[float, float, float]:
    """The CPU seconds of the plain search, the restarts and CP-SAT (its model's thread
    and its solve's) in a race cell."""
    sides = race_result.get("sides") or {}
    assert isinstance(sides, dict)
    return (sides.get("dlx-race-dancing-links", 0.0), sides.get("dlx-race-restarts", 0.0),
            sides.get("dlx-race-cp-sat", 0.0) + sides.get("dlx-cp-sat", 0.0))


def two_cores(results: dict[str, dict[str, object]], cpu: tuple[float, float, float]) -> str:
    """What the race would take on two free cores, from its sides' CPU: the core's two
    searches share one core (their CPU added up), CP-SAT has the other and starts
    GRACE seconds in.  Against the CPU time of the fastest other column."""
    race_result = results["race"]
    if race_result["outcome"] not in ("found", "none"):
        return "no answer"
    if race_result.get("winner") == "cp-sat":
        mine = race.GRACE + cpu[2]
    else:
        mine = cpu[0] + cpu[1]
    others = [float(results[e]["cpu"]) for e in ENGINES  # type: ignore[arg-type]
              if e != "race" and results[e]["outcome"] in ("found", "none")]
    if not others:
        return f"{mine:.2f} s (no other engine answered)"
    best = min(others)
    verdict = "met" if mine <= 1.3 * best + 0.5 else "missed"
    return f"{mine:.2f} s vs {best:.2f} s of CPU alone: {verdict}"


def target(row: str, results: dict[str, dict[str, object]], limit: float) -> str:
    """Met or not, in wall-clock time on this machine: the race within 1.3x + 0.5 s of
    the fastest other column (and within 10 s on the empty 49 x 49)."""
    def secs(e: str) -> float:
        r = results[e]
        return float(r["seconds"]) if r["outcome"] in ("found", "none") else math.inf  # type: ignore[arg-type]

    fastest = min(secs(e) for e in ENGINES if e != "race")
    mine = secs("race")
    if math.isinf(fastest):
        text = "no engine answered" if math.isinf(mine) else "met: only the race answered"
    elif math.isinf(mine):
        text = f"missed: no answer (fastest {fastest:.2f} s)"
    else:
        bound = 1.3 * fastest + 0.5
        text = (f"{'met' if mine <= bound else 'missed'}: {mine / fastest:.2f}x of"
                f" {fastest:.2f} s")
    if row.startswith("Sudoku 49x49"):
        text += f"; 10 s: {'met' if mine <= 10 else 'missed'}"
    return text


# ------------------------------------------------------------------ threads or processes


def transport() -> None:
    """What a race side costs to start as a thread and as a process, and what shipping a
    million-option problem (queens 1000) to a process costs."""
    import multiprocessing as mp

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    start = time.perf_counter()
    for _ in range(100):
        t = threading.Thread(target=lambda: None)
        t.start()
        t.join()
    print(f"thread start and join: {(time.perf_counter() - start) * 10:.3f} ms")
    for method in ("fork", "spawn"):
        ctx = mp.get_context(method)
        start = time.perf_counter()
        p = ctx.Process(target=_import_ortools)
        p.start()
        p.join()
        print(f"process ({method}) start, import OR-Tools, exit:"
              f" {time.perf_counter() - start:.2f} s")
    problem = queens(1000)
    start = time.perf_counter()
    data = pickle.dumps(problem, protocol=pickle.HIGHEST_PROTOCOL)
    dumped = time.perf_counter() - start
    start = time.perf_counter()
    pickle.loads(data)
    loaded = time.perf_counter() - start
    print(f"queens 1000 ({len(problem):,} options): pickled {len(data) / 1e6:.0f} MB in"
          f" {dumped:.2f} s, unpickled in {loaded:.2f} s")


def _import_ortools() -> None:
    from ortools.sat.python import cp_model  # noqa: F401


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cell", nargs=2, metavar=("ROW", "ENGINE"))
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per cell (60)")
    ap.add_argument("--rows", help="only the rows whose name contains this")
    ap.add_argument("--transport", action="store_true")
    ap.add_argument("--save", metavar="FILE", help="append each row's results (JSON lines)")
    ap.add_argument("--render", metavar="FILE", help="print the table of saved rows")
    args = ap.parse_args()
    if args.render:
        with open(args.render) as saved:
            render([json.loads(line) for line in saved], args.limit)
        return
    if args.cell:
        print(json.dumps(cell(args.cell[0], args.cell[1], args.limit)))
    elif args.transport:
        transport()
    else:
        rows = [r for r in ROWS if args.rows is None or args.rows.lower() in r.lower()]
        table(rows, args.limit, args.save)


if __name__ == "__main__":
    main()
