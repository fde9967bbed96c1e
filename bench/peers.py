"""Run one benchmark task on one peer library, in that peer's own venv; print one JSON line.

    /work/peers/<venv>/bin/python bench/peers.py [--repeat R] [--cold] <peer> <task> <args...>

Peers (venv names, see setup_peers.sh): dlx104, xcover, exact_cover, exact_cover_py, py_sudoku,
miniexact.
Tasks:
    queens N        count N-queens solutions through the peer's exact-cover API
                    (rows = placements; primary = board rows + columns; secondary = diagonals,
                    or Knuth's slack rows where the peer has no secondary columns: see "note")
    matrix FILE     count the solutions of {"rows": [[cols]], "primary": n, "secondary": m}
    sudoku FILE N   solve the first N puzzles of a one-per-line file (a path, or a name under
                    shared/data/sudoku); result = number solved and checked
    sudoku_unique FILE N
                    solve and check uniqueness (search stops at a second solution); result =
                    number of puzzles with exactly one solution, that solution checked
    sudoku_generate N SEED
                    make N 9x9 puzzles the peer's way (py-sudoku: Sudoku(3, seed=SEED + k)
                    .difficulty(0.5), half the cells blanked, not always unique); result =
                    how many of them have exactly one solution (the peer's own check)
    sudoku_generate_minimal N SEED
                    make N minimal unique 9x9 puzzles with the peer's public API (its solved
                    grid, cells removed in a random order while it says "one solution");
                    result = N, "givens" = their numbers of givens
    dominoes N      the first domino tiling of an N x N board (rows = dominoes, primary = the
                    cells; bench/big.py's big sparse instance); result = the dominoes of the
                    first solution, checked to tile the board after the clock stops
    toy             Knuth's toy problem (count; expect 1)
    selftest        only the warm-up checks (toy, 4-queens, one Sudoku where supported): "ok"
    serve           load and warm up once, then answer requests, one JSON object per stdin line
                    ({"task": "queens", "args": ["12"], "repeat": 1}), one JSON line each; the
                    first line out is {"task": "serve", "result": "ready", "warmup_seconds": ...}

Output keys: peer, task, args, result, seconds (min over --repeat runs), all_seconds,
cpu_seconds (process CPU time of that same run), peak_mb (the process's peak resident
memory, Linux's VmHWM), load_seconds (reading/generating the
instance, part of seconds), warmup_seconds (import plus a first call on the toy problem,
measured before and outside `seconds`: for numba peers that is the JIT compile or the cache
load, see "numba_cache"), import_seconds, version, note.
On failure: "error" and "result": null, exit status 1. Usage errors exit 2.

Times are time.perf_counter() around the whole task (instance generation or file parsing,
conversion to the peer's input form, the search) and exclude interpreter start-up, imports
and the warm-up. Checking the peer's answers (sudoku grids) happens after the clock stops.

This file imports only the standard library, bench/common.py and the peer itself.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import sys
import tempfile
import time
from importlib import metadata
from itertools import islice

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import common  # noqa: E402

SLACK_NOTE = ("no secondary columns in this peer: Knuth's slack trick, one extra row per "
              "secondary column (now primary); counts are unchanged")


# ---------------------------------------------------------------------------------------------
# Peer adapters: count(rows, p, s) -> int, first(rows, p, s) -> list[int] | None
# ---------------------------------------------------------------------------------------------


class Peer:
    name = ""
    dist = ""           # PyPI distribution, for the version
    jit = False         # numba-compiled
    secondary = True    # supports secondary columns natively
    exact_cover = True  # has an exact-cover API (py-sudoku does not)

    def load(self):
        """Import the peer (timed as import_seconds)."""

    def count(self, rows, p, s) -> int:
        raise NotImplementedError

    def first(self, rows, p, s):
        raise NotImplementedError

    def upto(self, rows, p, s, limit: int) -> list[list[int]]:
        """At most ``limit`` solutions (lists of row indices); the search stops there."""
        raise NotImplementedError

    def sudoku(self, puzzle: str) -> str | None:
        """Default: through the exact-cover API with the shared encoding (common.sudoku_rows)."""
        rows, labels, p = common.sudoku_rows(puzzle)
        chosen = self.first(rows, p, 0)
        if chosen is None:
            return None
        return common.sudoku_decode(labels, chosen, round(len(puzzle) ** 0.5))

    def generate(self, seed: int):
        """One puzzle made by the peer's own generator: (board, has exactly one solution)."""
        raise NotImplementedError(f"{self.name} has no Sudoku generator")

    def generate_minimal(self, seed: int) -> int:
        """One minimal unique puzzle made with the peer's API; returns its givens."""
        raise NotImplementedError(f"{self.name} has no Sudoku generator")

    def sudoku_upto(self, puzzle: str, limit: int = 2) -> list[str]:
        """Up to ``limit`` solved grids (solve + uniqueness when limit is 2), shared encoding."""
        rows, labels, p = common.sudoku_rows(puzzle)
        size = round(len(puzzle) ** 0.5)
        return [common.sudoku_decode(labels, sol, size) for sol in self.upto(rows, p, 0, limit)]


class Dlx104(Peer):
    """dlx 1.0.4 (Sebastian Raaphorst, 2008): pure Python, recursive generator search.

    DLX([(name, DLX.PRIMARY|DLX.SECONDARY), ...]); appendRows(rows, rowNames) takes column
    *indices*; solve() yields lists of node indices, one node of each chosen row (not always
    the row's first node, which appendRows returns), so read the row back as d.N[node].
    Column choice: smallestColumnSelector (MRV) by default.
    """

    name, dist = "dlx104", "dlx"

    def load(self):
        from dlx import DLX
        self.DLX = DLX

    def _build(self, rows, p, s):
        DLX = self.DLX
        cols = [(c, DLX.PRIMARY) for c in range(p)] + [(c, DLX.SECONDARY)
                                                      for c in range(p, p + s)]
        d = DLX(cols)
        d.appendRows(rows, list(range(len(rows))))  # row names = our row indices
        return d

    def count(self, rows, p, s):
        return sum(1 for _ in self._build(rows, p, s).solve())

    def first(self, rows, p, s):
        d = self._build(rows, p, s)
        sol = next(d.solve(), None)  # an abandoned generator leaves d covered: d is thrown away
        # solve() yields the node reached in each row, not the row's first node: d.N names it.
        return None if sol is None else [d.N[node] for node in sol]

    def upto(self, rows, p, s, limit):
        d = self._build(rows, p, s)
        # read each solution's rows before resuming the generator (it reuses its list)
        return [[d.N[node] for node in sol] for sol in islice(d.solve(), limit)]


class XCover(Peer):
    """xcover (John F. Rudge): numba, Knuth's dancing cells (Algorithm C), MRV.

    covers(options, primary=[...], secondary=[...]) yields lists of option indices; items may be
    any hashables. algorithm_c has an explicit signature and cache=True: it is compiled when
    xcover is imported (about 10 s cold) and loaded from site-packages/__pycache__ afterwards.
    """

    name, dist, jit = "xcover", "xcover", True

    def load(self):
        from xcover import covers
        self.covers = covers

    def _gen(self, rows, p, s):
        return self.covers(rows, primary=list(range(p)), secondary=list(range(p, p + s)))

    def count(self, rows, p, s):
        return sum(1 for _ in self._gen(rows, p, s))

    def first(self, rows, p, s):
        return next(self._gen(rows, p, s), None)

    def upto(self, rows, p, s, limit):
        return [list(sol) for sol in islice(self._gen(rows, p, s), limit)]


class ExactCoverC(Peer):
    """exact_cover 1.5 (Moy Easwaran, Jack Grahl): C extension over a dense numpy bool matrix.

    get_solution_count(M) -> int (a C int: overflows past 2**31 - 1); get_exact_cover(M) ->
    int32 array of row indices, raises exact_cover.error.NoSolution when there is none.
    No secondary columns: slack rows. Recursive C search, column with fewest entries.
    """

    name, dist, secondary = "exact_cover", "exact-cover", False

    def load(self):
        import exact_cover
        import numpy as np
        from exact_cover.error import NoSolution
        self.np, self.ec, self.NoSolution = np, exact_cover, NoSolution

    def _matrix(self, rows, n_cols):
        m = self.np.zeros((len(rows), n_cols), dtype=bool)
        for i, r in enumerate(rows):
            m[i, r] = True
        return m

    def count(self, rows, p, s):
        allrows, n = common.slack_rows(rows, p, s)
        return int(self.ec.get_solution_count(self._matrix(allrows, n)))

    def first(self, rows, p, s):
        allrows, n = common.slack_rows(rows, p, s)
        try:
            sol = self.ec.get_exact_cover(self._matrix(allrows, n))
        except self.NoSolution:
            return None
        return [int(i) for i in sol if i < len(rows)]

    def upto(self, rows, p, s, limit):
        allrows, n = common.slack_rows(rows, p, s)
        try:  # get_all_solutions(M, k) stops after k solutions; returns a set of tuples
            sols = self.ec.get_all_solutions(self._matrix(allrows, n), limit)
        except self.NoSolution:
            return []
        return [[int(i) for i in sol if i < len(rows)] for sol in sols]


class ExactCoverPy(Peer):
    """exact_cover_py 0.1.2 (Thierry Parmentelat): numba, Knuth's DLX flat arrays, MRV.

    exact_covers(bool_matrix) yields lists of row indices. Node indices are int16: a problem
    with more than 32767 nodes (1 + columns + entries + rows + 1) silently overflows, so we
    refuse it. init() is compiled lazily on first call (not cached); algorithm_x is compiled
    at import with cache=True. No secondary columns: slack rows.
    """

    name, dist, jit, secondary = "exact_cover_py", "exact-cover-py", True, False
    MAX_NODES = 2 ** 15 - 1

    def load(self):
        import numpy as np
        from exact_cover_py import exact_covers
        self.np, self.exact_covers = np, exact_covers

    def _gen(self, rows, p, s):
        allrows, n = common.slack_rows(rows, p, s)
        nodes = 1 + n + sum(map(len, allrows)) + len(allrows) + 1
        if nodes > self.MAX_NODES:
            raise OverflowError(f"{nodes} nodes > {self.MAX_NODES}: exact_cover_py uses int16")
        m = self.np.zeros((len(allrows), n), dtype=bool)
        for i, r in enumerate(allrows):
            m[i, r] = True
        return self.exact_covers(m), len(rows)

    def count(self, rows, p, s):
        gen, _ = self._gen(rows, p, s)
        return sum(1 for _ in gen)

    def first(self, rows, p, s):
        gen, n_real = self._gen(rows, p, s)
        sol = next(gen, None)
        return None if sol is None else [int(i) for i in sol if i < n_real]

    def upto(self, rows, p, s, limit):
        gen, n_real = self._gen(rows, p, s)
        return [[int(i) for i in sol if i < n_real] for sol in islice(gen, limit)]


class PySudoku(Peer):
    """py-sudoku 2.0.0 (module `sudoku`): a Sudoku-only backtracking solver (MRV on cells).

    Sudoku(3, 3, board=[[int or None]*9]*9).solve() returns a new Sudoku; on no solution its
    board is all None (difficulty -2). No exact-cover API: queens/matrix are unsupported.
    """

    name, dist, exact_cover = "py_sudoku", "py-sudoku", False

    def load(self):
        from sudoku import Sudoku
        self.Sudoku = Sudoku

    def sudoku(self, puzzle):
        box, cells = common.parse_sudoku(puzzle)
        size = box * box
        board = [[cells[r * size + c] or None for c in range(size)] for r in range(size)]
        solved = self.Sudoku(box, box, board=board).solve()
        out = []
        for row in solved.board:
            for v in row:
                if not v:
                    return None
                out.append(common.SYMBOLS[v - 1])
        return "".join(out)

    def count(self, rows, p, s):
        raise NotImplementedError("py-sudoku has no exact-cover API (Sudoku only)")

    first = count

    def sudoku_upto(self, puzzle, limit=2):
        raise NotImplementedError("py-sudoku cannot look for a second solution")

    def generate(self, seed):
        # difficulty(0.5) solves the seeded board, blanks half the cells at random, and
        # marks the puzzle with difficulty -3 when has_multiple_solutions() says so
        p = self.Sudoku(3, seed=seed).difficulty(0.5)
        return p.board, p.get_difficulty() != -3

    def generate_minimal(self, seed):
        import random
        board = [row[:] for row in self.Sudoku(3, seed=seed).solve().board]
        cells = list(range(81))
        random.Random(seed).shuffle(cells)
        for i in cells:
            r, c = divmod(i, 9)
            v, board[r][c] = board[r][c], None
            if self.Sudoku(3, 3, board=board).has_multiple_solutions():
                board[r][c] = v
        return sum(x is not None for row in board for x in row)


class MiniExact(Peer):
    """miniexact 1.6.1 (Max Heisinger): Knuth's Algorithms X, C and M in C (his layout,
    other memory), through SWIG.

    miniexacts_x() (no secondary items) or miniexacts_c(): primary(name) and secondary(name)
    return item ids (the names are looked up among those defined: building is quadratic in
    the items), add([ids]) adds an option, solve() returns 10 at each next solution (20 when
    there is none left), selected_options() the chosen options numbered from 1. MRV.
    """

    name, dist = "miniexact", "miniexact"

    def load(self):
        import miniexact
        self.m = miniexact

    def _solutions(self, rows, p, s):
        x = self.m.miniexacts_c() if s else self.m.miniexacts_x()
        ids = [x.primary(f"p{c}") for c in range(p)] + [x.secondary(f"s{c}") for c in range(s)]
        for r in rows:
            x.add([ids[c] for c in r])
        while x.solve() == 10:
            yield [o - 1 for o in x.selected_options()]

    def count(self, rows, p, s):
        return sum(1 for _ in self._solutions(rows, p, s))

    def first(self, rows, p, s):
        return next(self._solutions(rows, p, s), None)

    def upto(self, rows, p, s, limit):
        return list(islice(self._solutions(rows, p, s), limit))


PEERS = {cls.name: cls for cls in (Dlx104, XCover, ExactCoverC, ExactCoverPy, PySudoku,
                                    MiniExact)}


# ---------------------------------------------------------------------------------------------
# Tasks: each returns (result, load_seconds, extra dict); the caller times the whole call
# ---------------------------------------------------------------------------------------------


def task_selftest(peer):
    return "ok", 0.0, {}  # main() has already run warm_up(), which asserts the answers


def task_toy(peer):
    return peer.count(common.TOY_ROWS, common.TOY_PRIMARY, 0), 0.0, {}


def task_queens(peer, n):
    t0 = time.perf_counter()
    rows, p, s = common.queens_rows(int(n))
    load = time.perf_counter() - t0
    return peer.count(rows, p, s), load, _slack_note(peer, s)


def dominoes_rows(n: int) -> list[list[int]]:
    """The dominoes of an n x n board as rows over its cells r * n + c (both halves),
    in problems/dominoes.py's order: for each cell, the horizontal domino then the
    vertical one."""
    rows = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                rows.append([r * n + c, r * n + c + 1])
            if r + 1 < n:
                rows.append([r * n + c, (r + 1) * n + c])
    return rows


def task_dominoes(peer, n):
    t0 = time.perf_counter()
    n = int(n)
    rows = dominoes_rows(n)
    load = time.perf_counter() - t0
    chosen = peer.first(rows, n * n, 0)
    return (chosen, rows, n), load, {}


def task_matrix(peer, path):
    t0 = time.perf_counter()
    rows, p, s = common.read_matrix(path)
    load = time.perf_counter() - t0
    return peer.count(rows, p, s), load, _slack_note(peer, s)


def task_sudoku(peer, path, n):
    t0 = time.perf_counter()
    puzzles = common.load_sudoku(path, int(n))
    load = time.perf_counter() - t0
    answers = [peer.sudoku(q) for q in puzzles]
    return answers, load, {"puzzles": len(puzzles), "_puzzles": puzzles}


def task_sudoku_unique(peer, path, n):
    t0 = time.perf_counter()
    puzzles = common.load_sudoku(path, int(n))
    load = time.perf_counter() - t0
    answers = [peer.sudoku_upto(q, 2) for q in puzzles]
    return answers, load, {"puzzles": len(puzzles), "_puzzles": puzzles}


def task_sudoku_generate(peer, n, seed):
    made = [peer.generate(int(seed) + k) for k in range(int(n))]
    return sum(unique for _, unique in made), 0.0, {"puzzles": int(n)}


def task_sudoku_generate_minimal(peer, n, seed):
    givens = [peer.generate_minimal(int(seed) + k) for k in range(int(n))]
    return int(n), 0.0, {"givens": givens}


def _slack_note(peer, n_secondary) -> dict:
    return {"note": SLACK_NOTE} if n_secondary and not peer.secondary else {}


TASKS = {"selftest": (task_selftest, 0), "toy": (task_toy, 0), "queens": (task_queens, 1),
         "dominoes": (task_dominoes, 1),
         "matrix": (task_matrix, 1), "sudoku": (task_sudoku, 2),
         "sudoku_unique": (task_sudoku_unique, 2), "sudoku_generate": (task_sudoku_generate, 2),
         "sudoku_generate_minimal": (task_sudoku_generate_minimal, 2)}
#: The tasks a peer without an exact-cover API (py-sudoku) can run.
SUDOKU_TASKS = ("sudoku", "sudoku_unique", "sudoku_generate", "sudoku_generate_minimal",
                "selftest")


def warm_up(peer) -> None:
    """First calls on tiny inputs, so that JIT compilation is not inside the timed task.

    They double as a self-test: a wrong answer raises (and is reported as the task's error).
    """
    def check(what, got, want):
        if got != want:
            raise RuntimeError(f"warm-up {what}: got {got!r}, want {want!r}")

    if peer.exact_cover:
        check("toy count", peer.count(common.TOY_ROWS, common.TOY_PRIMARY, 0), 1)
        check("toy first", sorted(peer.first(common.TOY_ROWS, common.TOY_PRIMARY, 0) or []),
              [0, 3, 4])
        check("4-queens count", peer.count(*common.queens_rows(4)), 2)
        check("3-queens first", peer.first(*common.queens_rows(3)), None)
    easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    check("easy sudoku", common.sudoku_ok(easy, peer.sudoku(easy)), True)


def run_task(peer, task: str, args: list[str], repeat: int = 1) -> dict:
    """Run one task ``repeat`` times on a loaded, warmed-up peer: the JSON keys of a result.

    Raises whatever the peer raises (the callers turn it into ``"error"``).
    """
    func, _ = TASKS[task]
    times, cpus, loads = [], [], []
    for _ in range(max(1, repeat)):
        c0 = time.process_time()
        t0 = time.perf_counter()
        result, load, extra = func(peer, *args)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        loads.append(load)
    out: dict = {}
    if task == "dominoes":  # check the tiling after the clock has stopped
        chosen, rows, n = result
        cells = sorted(c for k in (chosen or []) for c in rows[k])
        if cells != list(range(n * n)):
            raise RuntimeError("the first solution does not tile the board")
        result = len(chosen)
    if task in ("sudoku", "sudoku_unique"):  # check the grids after the clock has stopped
        puzzles = extra.pop("_puzzles")
        if task == "sudoku":
            ok = [common.sudoku_ok(q, a) for q, a in zip(puzzles, result, strict=True)]
        else:  # exactly one solution, and it checks
            ok = [len(a) == 1 and common.sudoku_ok(q, a[0])
                  for q, a in zip(puzzles, result, strict=True)]
        result = sum(ok)
        bad = [i for i, good in enumerate(ok) if not good]
        if bad:
            extra["unsolved"] = bad[:20]
    out.update(extra)
    out["result"] = result
    best = times.index(min(times))
    out["seconds"] = round(times[best], 6)
    out["cpu_seconds"] = round(cpus[best], 6)
    out["load_seconds"] = round(loads[best], 6)
    if len(times) > 1:
        out["all_seconds"] = [round(t, 6) for t in times]
    return out


def serve(peer, head: dict) -> int:
    """Answer task requests, one JSON object per stdin line, one JSON line each on stdout.

    A request is ``{"task": "queens", "args": ["12"], "repeat": 1}``; the answer has the keys
    of a one-shot run (``seconds``, ``result``, ``error``, ...). The peer is loaded and warmed
    up once, before the first line ``{"task": "serve", "result": "ready", ...}``, so a
    benchmark can interleave its own runs with this peer's without paying the import, the
    numba cache load or exact_cover_py's per-process compile again for every run.
    """
    print(json.dumps({**head, "task": "serve", "result": "ready"}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        out = {"peer": head["peer"], "version": head.get("version"), "result": None}
        try:
            req = json.loads(line)
            task, args = req["task"], [str(a) for a in req.get("args", [])]
            out.update(task=task, args=args)
            if task not in TASKS or task == "serve":
                raise ValueError(f"unknown task {task!r}")
            if len(args) != TASKS[task][1]:
                raise ValueError(f"task {task} takes {TASKS[task][1]} argument(s), got {args}")
            if not peer.exact_cover and task not in SUDOKU_TASKS:
                raise NotImplementedError(f"{head['peer']} has no exact-cover API (Sudoku only)")
            out.update(run_task(peer, task, args, int(req.get("repeat", 1))))
        except Exception as exc:  # report and keep serving
            out["error"] = f"{type(exc).__name__}: {exc}"
        print(json.dumps(out), flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="run the task R times, report min")
    ap.add_argument("--cold", action="store_true",
                    help="numba peers: compile into a fresh NUMBA_CACHE_DIR, so warmup_seconds "
                         "is the real compile time (not a cache load)")
    ap.add_argument("peer", choices=sorted(PEERS))
    ap.add_argument("task", choices=sorted(TASKS) + ["serve"])
    ap.add_argument("args", nargs="*")
    ns = ap.parse_args(argv)
    nargs = 0 if ns.task == "serve" else TASKS[ns.task][1]
    if len(ns.args) != nargs:
        ap.error(f"task {ns.task} takes {nargs} argument(s), got {ns.args}")

    peer = PEERS[ns.peer]()
    out: dict = {"peer": ns.peer, "task": ns.task, "args": ns.args, "result": None}
    try:
        out["version"] = metadata.version(peer.dist)
    except metadata.PackageNotFoundError:
        out["version"] = None
    out["python"] = sys.version.split()[0]
    if peer.jit:
        if ns.cold:
            cache = tempfile.mkdtemp(prefix="numba-cold-")
            atexit.register(shutil.rmtree, cache, True)
            os.environ["NUMBA_CACHE_DIR"] = cache
        out["numba_cache"] = "cold" if ns.cold else "default (site-packages __pycache__)"

    status = 0
    try:
        if not peer.exact_cover and ns.task not in (*SUDOKU_TASKS, "serve"):
            raise NotImplementedError(f"{ns.peer} has no exact-cover API (Sudoku only)")
        t0 = time.perf_counter()
        peer.load()
        t1 = time.perf_counter()
        warm_up(peer)
        t2 = time.perf_counter()
        out["import_seconds"] = round(t1 - t0, 6)
        out["warmup_seconds"] = round(t2 - t0, 6)
        if ns.task == "serve":
            return serve(peer, out)
        out.update(run_task(peer, ns.task, ns.args, ns.repeat))
    except Exception as exc:  # report, don't crash: the caller compares JSON lines
        out["error"] = f"{type(exc).__name__}: {exc}"
        status = 1
    out["peak_mb"] = _peak_mb()
    print(json.dumps(out), flush=True)
    return status


def _peak_mb() -> float | None:
    """This process's peak resident memory in MB (Linux's VmHWM: of this program only,
    not of the process that started it), or None where /proc has no such line."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


if __name__ == "__main__":
    sys.exit(main())
