"""Issue 22's table: our engine against Knuth's own programs, one interleaved run.

Run by hand (it builds nothing: /work/knuth/README.txt says how Knuth's programs were
built; use the "fast" builds, whose mem counters do nothing)::

    .venv/bin/python bench/knuth_bench.py --knuth /work/knuth/bin [--rounds 3] [--skip-slow]
    .venv/bin/python bench/knuth_bench.py --knuth /work/knuth/bin --only queens13 langford11
    .venv/bin/python bench/knuth_bench.py --knuth /work/knuth/bin --write /tmp/instances

Every workload is one DLX text, generated here (standard library only) and given
unchanged to Knuth's programs on stdin and to us. *Ours* is the call a user makes in a
warm interpreter: ``dlx.count(dlx.read_dlx(text))`` (``cache=True`` for the caching
rows), the reading included. *Theirs* is the wall time of the program's process,
``<prog>-fast < file``, from fork to exit (reading included; a process costs a
millisecond or so, DLX6's more: each program's time on Knuth's toy problem is printed as
its floor). Rounds
alternate the order (ours first, then theirs first, ...); the table shows medians.
``--clock cpu`` times CPU seconds instead (ours: ``time.process_time`` around the same
call; theirs: the child's user + system time), which a loaded machine disturbs less.
Every count is checked: Knuth's programs, ours and the expected number must agree.

Workloads (issue 22). The issue named the last six by their counts; their instances
were not found in bench/, so these stand in (counts near the issue's):

- ``queens13``: 13 queens, rows and columns primary, diagonals secondary (DLX1, SSXCC):
  73,712 solutions.
- ``langford11``: Langford pairs of 1..11, digits ``dK`` and slots ``sJ`` (both mirror
  images; DLX1, SSXCC): 35,584 solutions.
- ``mcc-6.4M`` (the issue's "about 6.5 M"): 0-1 matrices of 4 rows and 6 columns, row
  sums 1..3 and column sums 0..3 (bounds on primary items ``rI``, ``cJ``), each 1
  coloured ``a`` or ``b`` so that every row and every column is one colour (secondary
  items ``RI``, ``CJ`` take the colour): 6,353,240 (DLX3, SSMCC); DLX3 visits 23.0 M nodes.
- ``mcc-34M`` (the issue's "about 33.8 M"): the same with 4 rows and 7 columns, the last
  column's sum 0..2: 34,018,024 (DLX3, SSMCC); DLX3 visits 122 M nodes.
- ``cache-dominoes8x8``: domino tilings of the 8x8 board, cells ``RC`` in row order
  (DLX6): 12,988,816; DLX6 and we visit 2,317 nodes.
- ``cache-bricks2x3x10`` (the issue's "about 427 M"): tilings of a 2x3x10 box by
  1x1x2 bricks, cells ``XYZ`` listed with the long axis innermost (DLX6): 422,983,905 in
  107,954 nodes.
- ``cache-dominoes4x14`` (the issue's "about 1.19 M"): domino tilings of a 4x14 board,
  cells ``R_CC`` in row order (DLX6): 1,174,500 in 15,852 nodes.

  The item order matters to counting by caching (MRV breaks ties by it): with the long
  axis outermost DLX6 visits 931 and 230 nodes, and its time is its process start-up.

Targets (issue 22), printed against each row: XC and XCC at most 0.6x the fastest
Knuth program; MCC at most 0.8x DLX3; counting by caching at most 0.5x DLX6. The
caching rows are marked slow (our core did not count by caching when this was written,
so they may run on the pure engine); ``--skip-slow`` leaves them out.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dlx  # noqa: E402

# --- the instances, as Knuth's DLX text ----------------------------------------------

def queens(n: int) -> str:
    """N queens: ``Rr`` ``Cc`` primary, diagonals ``Ad`` ``Bd`` secondary."""
    lines = [" ".join([f"R{r}" for r in range(n)] + [f"C{c}" for c in range(n)]) + " | "
             + " ".join([f"A{d}" for d in range(2 * n - 1)] + [f"B{d}" for d in range(2 * n - 1)])]
    lines += [f"R{r} C{c} A{r + c} B{n - 1 - r + c}" for r in range(n) for c in range(n)]
    return "\n".join(lines) + "\n"


def langford(n: int) -> str:
    """Langford pairs of 1..n: digit ``dk`` at slots ``sj`` and ``s(j+k+1)``."""
    lines = [" ".join([f"d{k}" for k in range(1, n + 1)]
                      + [f"s{j}" for j in range(1, 2 * n + 1)])]
    lines += [f"d{k} s{j} s{j + k + 1}" for k in range(1, n + 1) for j in range(1, 2 * n - k)]
    return "\n".join(lines) + "\n"


def coloured_matrices(row_sums: list[tuple[int, int]], col_sums: list[tuple[int, int]],
                      colours: str) -> str:
    """0-1 matrices with each row and column sum within its bounds, each 1 coloured, every
    row and column of one colour: primary ``rI`` ``cJ`` (bounds), secondary ``RI`` ``CJ``."""
    def bound(lo: int, hi: int, name: str) -> str:
        return f"{lo}|{name}" if lo == hi else f"{lo}:{hi}|{name}"
    rows, cols = len(row_sums), len(col_sums)
    lines = [" ".join([bound(*b, f"r{i}") for i, b in enumerate(row_sums)]
                      + [bound(*b, f"c{j}") for j, b in enumerate(col_sums)]) + " | "
             + " ".join([f"R{i}" for i in range(rows)] + [f"C{j}" for j in range(cols)])]
    lines += [f"r{i} c{j} R{i}:{k} C{j}:{k}"
              for i in range(rows) for j in range(cols) for k in colours]
    return "\n".join(lines) + "\n"


def bricks(dims: tuple[int, ...], sep: str = "") -> str:
    """Tilings of a box by 2-cell bricks (dominoes when 2-D): one item per cell."""
    cells = [()]  # type: list[tuple[int, ...]]
    for d in reversed(dims):
        cells = [(i, *rest) for i in range(d) for rest in cells]

    def name(cell: tuple[int, ...]) -> str:
        return sep.join(f"{i}" if d <= 10 else f"{i:02d}" for i, d in zip(cell, dims, strict=True))
    lines = [" ".join(name(c) for c in cells)]
    for c in cells:
        for axis in range(len(dims)):
            if c[axis] + 1 < dims[axis]:
                other = c[:axis] + (c[axis] + 1,) + c[axis + 1:]
                lines.append(f"{name(c)} {name(other)}")
    return "\n".join(lines) + "\n"


MCC_SMALL = ([(1, 3)] * 4, [(0, 3)] * 6, "ab")
MCC_BIG = ([(1, 3)] * 4, [(0, 3)] * 6 + [(0, 2)], "ab")


@dataclass
class Workload:
    name: str
    kind: str                   # "xc", "mcc" or "cache"
    text: Callable[[], str]
    count: int
    knuth: tuple[str, ...]
    slow: bool = False
    times: dict[str, list[float]] = field(default_factory=dict)
    nodes: dict[str, int] = field(default_factory=dict)


WORKLOADS = [
    Workload("queens13", "xc", lambda: queens(13), 73_712, ("dlx1", "ssxcc")),
    Workload("langford11", "xc", lambda: langford(11), 35_584, ("dlx1", "ssxcc")),
    Workload("mcc-6.4M", "mcc", lambda: coloured_matrices(*MCC_SMALL), 6_353_240,
             ("dlx3", "ssmcc")),
    Workload("mcc-34M", "mcc", lambda: coloured_matrices(*MCC_BIG), 34_018_024,
             ("dlx3", "ssmcc")),
    Workload("cache-dominoes8x8", "cache", lambda: bricks((8, 8)), 12_988_816, ("dlx6",),
             slow=True),
    Workload("cache-bricks2x3x10", "cache", lambda: bricks((2, 3, 10)), 422_983_905,
             ("dlx6",), slow=True),
    Workload("cache-dominoes4x14", "cache", lambda: bricks((4, 14), "_"), 1_174_500,
             ("dlx6",), slow=True),
]

#: kind -> (target ratio, which Knuth time it is measured against)
TARGETS = {"xc": (0.6, "fastest"), "mcc": (0.8, "dlx3"), "cache": (0.5, "dlx6")}


# --- running ----------------------------------------------------------------------------

class Mismatch(RuntimeError):
    pass


#: "wall" (the default) or "cpu": what a run's seconds are (``--clock``).
CLOCK = "wall"


def children_cpu() -> float:
    """User + system seconds of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def knuth_run(binary: Path, text: bytes, cap: float) -> tuple[float, int | None, int | None]:
    """(seconds, count, nodes) of one run of a Knuth program; count None when out of time.
    With ``--clock cpu`` the seconds are the process's CPU time (user + system)."""
    started, cpu = time.perf_counter(), children_cpu()
    try:
        ran = subprocess.run([str(binary)], input=text, capture_output=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - started, None, None
    seconds = time.perf_counter() - started if CLOCK == "wall" else children_cpu() - cpu
    line = next((ln for ln in ran.stderr.decode().splitlines()
                 if ln.startswith("Altogether")), None)
    if ran.returncode != 0 or line is None:
        raise Mismatch(f"{binary.name} failed ({ran.returncode}): {ran.stderr[-300:]!r}")
    words = line.replace(",", "").split()
    count = int(words[1])
    nodes = int(words[words.index("search") - 1]) if "search" in words else \
        int(words[words.index("nodes") - 1])
    return seconds, count, nodes


def ours_run(text: str, cache: bool, cap: float, engine: str | None = None
             ) -> tuple[float, int | None]:
    """(seconds, count) of read_dlx + count, as a user calls them; None when out of time."""
    keywords = {"engine": engine} if engine else {}
    gc.collect()
    clock = time.perf_counter if CLOCK == "wall" else time.process_time
    started = clock()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if cache:
                n = dlx.count(dlx.read_dlx(text), cache=True, timeout=cap, **keywords)
            else:
                n = dlx.count(dlx.read_dlx(text), timeout=cap, **keywords)
    except dlx.BudgetExceeded:
        return clock() - started, None
    return clock() - started, n


def check(w: Workload, who: str, count: int | None) -> None:
    if count is not None and count != w.count:
        raise Mismatch(f"{w.name}: {who} counts {count:,}, expected {w.count:,}")


def measure(workloads: list[Workload], bin_dir: Path, suffix: str, rounds: int,
            cap: float, engine: str | None = None) -> dict[str, list[float]]:
    texts = {w.name: w.text() for w in workloads}
    programs = sorted({who for w in workloads for who in w.knuth})
    floors: dict[str, list[float]] = {who: [] for who in programs}
    toy = dlx.formats.KNUTH_TOY.encode()
    ours_run(dlx.formats.KNUTH_TOY, False, cap, engine)       # warm the interpreter and core
    ours_run(dlx.formats.KNUTH_TOY, True, cap, engine)
    for r in range(rounds):
        for who in programs:
            floors[who].append(knuth_run(bin_dir / f"{who}{suffix}", toy, cap)[0])
        for w in workloads:
            contestants = ["ours", *w.knuth]
            if r % 2:
                contestants.reverse()
            for who in contestants:
                if who == "ours":
                    seconds, count = ours_run(texts[w.name], w.kind == "cache", cap, engine)
                else:
                    seconds, count, nodes = knuth_run(bin_dir / f"{who}{suffix}",
                                                      texts[w.name].encode(), cap)
                    if nodes is not None:
                        w.nodes[who] = nodes
                check(w, who, count)
                w.times.setdefault(who, []).append(seconds if count is not None
                                                   else float("inf"))
                took = f"{seconds:.3f} s" if count is not None else "out of time"
                print(f"round {r + 1}: {w.name} {who} {took}", file=sys.stderr, flush=True)
    return floors


def shown(seconds: float) -> str:
    return "-" if seconds == float("inf") else f"{seconds:.3f} s"


def table(workloads: list[Workload], floors: dict[str, list[float]], rounds: int) -> str:
    out = ["| workload | solutions | Knuth (fast builds) | ours | ours / reference |"
           " target | verdict |", "|---|---:|---|---:|---:|---|---|"]
    for w in workloads:
        med = {who: statistics.median(ts) for who, ts in w.times.items()}
        theirs = ", ".join(f"{who.upper()} {shown(med[who])}" for who in w.knuth)
        target, against = TARGETS[w.kind]
        ref_name = min(w.knuth, key=lambda who: med[who]) if against == "fastest" else against
        ref = med[ref_name]
        ratio = med["ours"] / ref if ref not in (0, float("inf")) else float("inf")
        verdict = "met" if ratio <= target else "not met"
        out.append(f"| {w.name} | {w.count:,} | {theirs} | {shown(med['ours'])} | "
                   f"{ratio:.2f}x {ref_name.upper()} | <= {target}x | {verdict} |")
    out.append("")
    out.append(f"Medians of {rounds} interleaved round(s), {CLOCK} time. A Knuth process's"
               " floor (its time on Knuth's toy problem): " + ", ".join(
                   f"{who.upper()} {statistics.median(ts) * 1000:.1f} ms"
                   for who, ts in floors.items()) + ".")
    nodes = [f"{w.name}: " + ", ".join(f"{who if who == 'ours' else who.upper()} {n:,}"
                                         for who, n in w.nodes.items())
             for w in workloads if w.nodes]
    if nodes:
        out.append("Search nodes: " + "; ".join(nodes) + ".")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--knuth", type=Path, required=True,
                        help="directory of Knuth's binaries (dlx1-fast, ssxcc-fast, ...)")
    parser.add_argument("--suffix", default="-fast",
                        help="binary name suffix: '-fast' (default) or '' for the checked builds")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cap", type=float, default=600, help="seconds per run at most")
    parser.add_argument("--skip-slow", action="store_true", help="leave out the caching rows")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these workloads only")
    parser.add_argument("--engine", choices=["c", "python"],
                        help="our engine (default: dlx's own choice, the C core when built)")
    parser.add_argument("--nodes", action="store_true",
                        help="after the timed rounds, count once more with dlx.Stats to show "
                             "our search nodes beside Knuth's")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="wall time (default), or CPU time (user + system: ours in this "
                             "process, theirs of the child), steadier on a loaded machine")
    parser.add_argument("--write", type=Path, metavar="DIR",
                        help="write the instances as DIR/<name>.dlx and stop")
    args = parser.parse_args()
    global CLOCK
    CLOCK = args.clock
    chosen = [w for w in WORKLOADS if (not args.only or w.name in args.only)
              and not (args.skip_slow and w.slow)]
    if args.only and len(chosen) != len(args.only):
        parser.error(f"unknown workload; choose from {[w.name for w in WORKLOADS]}")
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
        for w in chosen:
            (args.write / f"{w.name}.dlx").write_text(w.text())
        return 0
    missing = [f"{who}{args.suffix}" for w in chosen for who in w.knuth
               if not (args.knuth / f"{who}{args.suffix}").exists()]
    if missing:
        parser.error(f"not in {args.knuth}: {sorted(set(missing))}")
    try:
        floors = measure(chosen, args.knuth, args.suffix, args.rounds, args.cap, args.engine)
    except Mismatch as e:
        print(f"COUNTS DIFFER: {e}", file=sys.stderr)
        return 1
    if args.nodes:
        for w in chosen:
            stats = dlx.Stats()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                check(w, "ours", dlx.count(dlx.read_dlx(w.text()), cache=w.kind == "cache",
                                           stats=stats, **({"engine": args.engine}
                                                           if args.engine else {})))
            w.nodes["ours"] = stats.nodes
    print(table(chosen, floors, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
