"""What reading and laying out a big problem cost: time, peak memory, bytes per node.

    .venv/bin/python bench/layout_big.py [--quick] [--repeat 3] [--queens N] [--dominoes N]

Each measurement runs in a fresh process (so its peak resident size is its own), and
prints one line; times are CPU seconds (``time.process_time``, the best of ``--repeat``
interleaved runs), which a shared machine disturbs less than the wall clock.

reading      ``dlx.read_dlx`` on the DLX text of the domino tilings of an n x n board
             (default n = 300: 179,400 options of 2 items, 90,000 items, names such as
             ``c12_34``), from a str and from a text stream (as the command line reads a
             file), against ``[line.split() for line in io.StringIO(text)]`` ("split":
             Python reading the same lines and splitting them; ``text.splitlines()``
             instead is shown too, "splitlines").  Target: at most about 3x "split".
layout       queens n (default 1000: 1,000,000 options of 4 items, 2,000 primary and
             3,998 secondary items) from the dict of lists an encoder makes (built before
             the clock starts): ``ExactCover(...)`` (checking and numbering), the core's
             Table (``dlx.engine.table``), and the first search's set-up (``dlx.first``
             with ``max_nodes=1``: the search's own copy of the links).  Peak resident
             size before and after, and the layout's own peak (tracemalloc, in a run of
             its own).  Target: the layout within about 1 s.
csr          the same queens n through ``ExactCover.from_csr`` from integer arrays
             (NumPy's when it is installed, else ``array.array``): the same phases.
bytes        the core's bytes per node: the Table (static arrays, node layout, walks)
             and one search's copy of the dynamic arrays (tracemalloc).
phases       dominoes n from its DLX text to its first solution: reading, layout,
             search and answer (the labels' options as text), each timed once.

``--quick``: queens 300, dominoes 100.  ``--only NAME`` runs one of them.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import dlx  # noqa: E402
from dlx import engine  # noqa: E402
from dlx.links import Links  # noqa: E402


def cpu() -> float:
    return time.process_time()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def domino_text(n: int) -> str:
    """The DLX text of the domino tilings of an n x n board, plain names."""
    lines = [" ".join(f"c{r}_{c}" for r in range(n) for c in range(n))]
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                lines.append(f"c{r}_{c} c{r}_{c + 1}")
            if r + 1 < n:
                lines.append(f"c{r}_{c} c{r + 1}_{c}")
    return "\n".join(lines) + "\n"


def queens_items(n: int) -> tuple[list[Any], list[Any]]:
    """problems.queens.encode's primary items (in its order) and secondary items."""
    middle = sorted(range(n), key=lambda k: (abs(2 * k - (n - 1)), k))
    primary = [(kind, k) for k in middle for kind in ("row", "col")]
    secondary = [("up", k) for k in range(2 * n - 1)] + [("down", k) for k in range(1 - n, n)]
    return primary, secondary


def queens_dict(n: int) -> tuple[dict[Any, list[Any]], list[Any], list[Any]]:
    """problems.queens.encode's options, items and order, as the encoder makes them."""
    options = {(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
               for r in range(n) for c in range(n)}
    return (options, *queens_items(n))


def queens_csr(n: int) -> tuple[Any, Any, list[Any], list[int], str]:
    """The same problem as CSR arrays: item k of ``items``; items 0..2n-1 primary in
    the organ-pipe order, then the diagonals (secondary)."""
    primary, secondary = queens_items(n)
    items = primary + secondary
    index = {item: k for k, item in enumerate(items)}
    try:
        import numpy as np
    except ImportError:
        from array import array

        flat = array("i")
        for r in range(n):
            for c in range(n):
                flat.extend((index["row", r], index["col", c], index["up", r + c],
                             index["down", r - c]))
        return (array("q", range(0, 4 * n * n + 1, 4)), flat, items,
                list(range(2 * n, len(items))), "array.array")
    r, c = np.divmod(np.arange(n * n), n)
    row = np.array([index["row", k] for k in range(n)])
    col = np.array([index["col", k] for k in range(n)])
    up = np.array([index["up", k] for k in range(2 * n - 1)])
    down = np.array([index["down", k] for k in range(1 - n, n)])
    indices = np.stack([row[r], col[c], up[r + c], down[r - c + n - 1]], axis=1).ravel()
    return (np.arange(0, 4 * n * n + 1, 4), indices.astype(np.int32), items,
            list(range(2 * n, len(items))), "numpy")


# ------------------------------------------------------------------ the measurements


def run_reading(args: argparse.Namespace) -> dict[str, Any]:
    text = domino_text(args.dominoes)
    best: dict[str, float] = {"split": 1e9, "splitlines": 1e9, "read_dlx(str)": 1e9,
                              "read_dlx(stream)": 1e9}
    jobs = {
        "split": lambda: [line.split() for line in io.StringIO(text)],
        "splitlines": lambda: [line.split() for line in text.splitlines()],
        "read_dlx(str)": lambda: dlx.read_dlx(text),
        "read_dlx(stream)": lambda: dlx.read_dlx(io.StringIO(text)),
    }
    options = 0
    for _ in range(args.repeat):
        for name, job in jobs.items():
            gc.collect()
            start = cpu()
            out = job()
            best[name] = min(best[name], cpu() - start)
            if name.startswith("read"):
                options = len(out)
            del out
    return {"options": options, **best,
            "ratio(str)": best["read_dlx(str)"] / best["split"],
            "ratio(stream)": best["read_dlx(stream)"] / best["split"]}


def _phases(make: Any, repeat: int) -> dict[str, float]:
    """Best CPU times of making the problem, its Table and a search's set-up."""
    best = {"problem": 1e9, "table": 1e9, "search set-up": 1e9}
    dlx.first(dlx.ExactCover({0: [0]}))          # the views' modules, imported untimed
    for _ in range(repeat):
        gc.collect()
        start = cpu()
        p = make()
        made = cpu()
        engine.table(Links.of(p))
        tabled = cpu()
        try:
            dlx.first(p, max_nodes=1)
        except dlx.BudgetExceeded:
            pass
        done = cpu()
        for name, t in zip(best, (made - start, tabled - made, done - tabled), strict=True):
            best[name] = min(best[name], t)
        del p
    best["layout"] = best["problem"] + best["table"]
    best["layout + set-up"] = best["layout"] + best["search set-up"]
    return best


def run_layout(args: argparse.Namespace) -> dict[str, Any]:
    options, primary, secondary = queens_dict(args.queens)
    gc.collect()
    before = peak_mb()
    out = _phases(lambda: dlx.ExactCover(options, secondary=secondary, primary=primary),
                  args.repeat)
    return {"options": len(options), **out, "peak MB before": before, "peak MB": peak_mb()}


def run_csr(args: argparse.Namespace) -> dict[str, Any]:
    if not hasattr(dlx.ExactCover, "from_csr"):
        return {"skipped": "no ExactCover.from_csr"}
    indptr, indices, items, secondary, kind = queens_csr(args.queens)
    gc.collect()
    before = peak_mb()
    out = _phases(lambda: dlx.ExactCover.from_csr(indptr, indices, items=items,
                                                  secondary=secondary), args.repeat)
    return {"arrays": kind, "options": len(indptr) - 1, **out, "peak MB before": before,
            "peak MB": peak_mb()}


def run_memory(args: argparse.Namespace) -> dict[str, Any]:
    """The layout's own peak, by tracemalloc (what Python's and the core's allocators hold)."""
    import tracemalloc

    out: dict[str, Any] = {}
    options, primary, secondary = queens_dict(args.queens)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    p = dlx.ExactCover(options, secondary=secondary, primary=primary)
    engine.table(Links.of(p))
    now, peak = tracemalloc.get_traced_memory()
    out["dict: kept MB"] = (now - base) / 1e6
    out["dict: peak MB"] = (peak - base) / 1e6
    del p, options
    gc.collect()
    if hasattr(dlx.ExactCover, "from_csr"):
        indptr, indices, items, sec, kind = queens_csr(args.queens)
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        p = dlx.ExactCover.from_csr(indptr, indices, items=items, secondary=sec)
        engine.table(Links.of(p))
        now, peak = tracemalloc.get_traced_memory()
        out["csr: input MB"] = (getattr(indptr, "nbytes", 0) + getattr(indices, "nbytes", 0)
                                or len(memoryview(indices).cast("B")) + 8 * len(indptr)) / 1e6
        out["csr: kept MB"] = (now - base) / 1e6
        out["csr: peak MB"] = (peak - base) / 1e6
    tracemalloc.stop()
    return out


def run_bytes(args: argparse.Namespace) -> dict[str, Any]:
    import tracemalloc

    options, primary, secondary = queens_dict(args.queens)
    p = dlx.ExactCover(options, secondary=secondary, primary=primary)
    del options
    links = Links.of(p)
    links.lay_out() if hasattr(links, "lay_out") else None
    labels = links.labels
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    table = engine.table(links)
    after_table = tracemalloc.get_traced_memory()[0]
    search = engine._core.Search(table, labels, "solutions")
    after_search = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    nodes = table.nodes
    del search
    return {"nodes": nodes, "table bytes/node": (after_table - base) / nodes,
            "search bytes/node": (after_search - after_table) / nodes}


def run_phases(args: argparse.Namespace) -> dict[str, Any]:
    text = domino_text(args.phases)
    dlx.first(dlx.read_dlx("a\na\n"))             # the modules, imported untimed
    start = cpu()
    p = dlx.read_dlx(text)
    read = cpu()
    engine.table(Links.of(p))
    laid = cpu()
    sol = dlx.first(p)
    searched = cpu()
    assert sol is not None
    answer = "\n".join(" ".join(p.options[label]) for label in sol)
    answered = cpu()
    return {"options": len(p), "reading": read - start, "layout": laid - read,
            "search": searched - laid, "answer": answered - searched,
            "answer chars": len(answer), "peak MB": peak_mb()}


JOBS = {"reading": run_reading, "layout": run_layout, "csr": run_csr, "memory": run_memory,
        "bytes": run_bytes, "phases": run_phases}


def show(name: str, out: dict[str, Any]) -> str:
    parts = []
    for key, value in out.items():
        if isinstance(value, float):
            parts.append(f"{key} {value:,.3f}" if value < 100 else f"{key} {value:,.0f}")
        else:
            parts.append(f"{key} {value:,}" if isinstance(value, int) else f"{key} {value}")
    return f"{name:8} " + ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--queens", type=int, default=None)
    ap.add_argument("--dominoes", type=int, default=None)
    ap.add_argument("--phases", type=int, default=None, help="the dominoes of the phases")
    ap.add_argument("--only", choices=sorted(JOBS), action="append")
    ap.add_argument("--job", choices=sorted(JOBS), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.queens = args.queens or (300 if args.quick else 1000)
    args.dominoes = args.dominoes or (100 if args.quick else 300)
    args.phases = args.phases or (100 if args.quick else 300)
    if args.job:
        print(json.dumps(JOBS[args.job](args)))
        return 0
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"load average {load}; core: {engine.available()}")
    results: dict[str, dict[str, Any]] = {}
    for name in args.only or JOBS:
        cmd = [sys.executable, __file__, "--job", name, "--repeat", str(args.repeat),
               "--queens", str(args.queens), "--dominoes", str(args.dominoes),
               "--phases", str(args.phases)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"{name:8} failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        results[name] = json.loads(done.stdout)
        print(show(name, results[name]), flush=True)
    return targets(results, args)


#: (part, value, at most, what): the targets, and the bytes per node held where they are.
TARGETS = [("reading", "ratio(str)", 3.0, "read_dlx within about 3x str.split"),
           ("layout", "layout", 1.0, "queens 1000 laid out (dict form) within about 1 s"),
           ("csr", "layout", 1.0, "queens 1000 laid out from CSR arrays within about 1 s"),
           ("bytes", "table bytes/node", 40.0, "the core's Table: at most 40 bytes per node"),
           ("bytes", "search bytes/node", 24.0, "a search's copy: at most 24 bytes per node")]


def targets(results: dict[str, dict[str, Any]], args: argparse.Namespace) -> int:
    """Print each target met or missed (the full sizes only); 1 if one is missed."""
    if args.quick:
        return 0
    missed = 0
    for part, key, most, what in TARGETS:
        value = results.get(part, {}).get(key)
        if value is None:
            continue
        ok = value <= most
        missed += not ok
        print(f"{'met   ' if ok else 'MISSED'} {what}: {value:.3f} (at most {most})")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
