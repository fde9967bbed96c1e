"""Benchmark instances as plain row lists, shared by our engine's side and the peers' side.

Standard library only: this module is imported both by our own venv and by every peer venv
(``/work/peers/<venv>/bin/python bench/peers.py ...``), so it must not import ``dlx``.

An instance is ``(rows, n_primary, n_secondary)``: ``rows`` is a list of lists of integer
columns (item = column, option = row); columns ``0 .. n_primary-1`` are primary (covered exactly
once) and ``n_primary .. n_primary+n_secondary-1`` are secondary (covered at most once).

>>> rows, p, s = queens_rows(4)
>>> len(rows), p, s
(16, 8, 14)
>>> options, secondary = as_options(rows, p, s)
>>> options[0], secondary[:3]
([0, 4, 8, 18], [8, 9, 10])
>>> grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
>>> rows, labels, p = sudoku_rows(grid)
>>> p, len(rows) < 729
(324, True)
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

Rows = list[list[int]]

HERE = Path(__file__).resolve().parent
PEERS_PY = HERE / "peers.py"
PEERS_DIR = Path(os.environ.get("DLX_PEERS_DIR", "/work/peers"))

# shared/ sits beside the checkout (/work/main and /work/shared; in CI: the clone and shared/).
_SUDOKU_CANDIDATES = [
    os.environ.get("DLX_SUDOKU_DATA", ""),
    str(HERE.parent.parent / "shared" / "data" / "sudoku"),
    "/work/shared/data/sudoku",
]

# Peer name -> venv directory under PEERS_DIR (see setup_peers.sh).
PEER_VENVS = {
    "dlx104": "dlx104",
    "xcover": "xcover",
    "exact_cover": "exact_cover",
    "exact_cover_py": "exact_cover_py",
    "py_sudoku": "py_sudoku",
    "miniexact": "miniexact",
}

# Knuth's toy problem (TAOCP 7.2.2.1): items a..g = 0..6, unique solution rows {0, 3, 4}.
TOY_ROWS: Rows = [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]]
TOY_PRIMARY = 7


# ---------------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------------


def queens_rows(n: int) -> tuple[Rows, int, int]:
    """N-queens as exact cover: one row per placement (r, c), in row-major order.

    Primary columns: board row r -> r, board column c -> n + c.
    Secondary columns: diagonal r + c -> 2n + (r + c), anti-diagonal r - c -> 2n + (2n - 1) +
    (r - c + n - 1). The labels of row ``r * n + c`` are ``(r, c)``.

    >>> rows, p, s = queens_rows(8)
    >>> len(rows), p, s
    (64, 16, 30)
    """
    d0 = 2 * n
    a0 = d0 + 2 * n - 1
    rows = [[r, n + c, d0 + r + c, a0 + r - c + n - 1] for r in range(n) for c in range(n)]
    return rows, 2 * n, 2 * (2 * n - 1)


QUEENS_COUNTS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724,
                 11: 2680, 12: 14200, 13: 73712, 14: 365596}


def slack_rows(rows: Rows, n_primary: int, n_secondary: int) -> tuple[Rows, int]:
    """Knuth's slack trick for solvers without secondary columns.

    Every secondary column becomes primary and gets a one-entry row of its own; each solution
    of the original problem extends in exactly one way (add the slack rows of the secondary
    columns it leaves uncovered), so counts agree. Slack rows are appended after the real rows,
    so indices ``>= len(rows)`` in a solution are slack.

    >>> slack_rows([[0, 1]], 1, 2)
    ([[0, 1], [1], [2]], 3)
    """
    n = n_primary + n_secondary
    return rows + [[c] for c in range(n_primary, n)], n


def planted(n_primary: int, n_rows: int, n_secondary: int = 0, seed: int = 0,
            size: tuple[int, int] = (2, 5), secondary_per_row: int = 1,
            plants: int = 1) -> dict:
    """A random exact-cover instance with at least ``plants`` solutions planted in it.

    The primary columns are shuffled and cut into blocks of ``size[0]..size[1]`` columns: those
    blocks are the planted rows (``plants`` times, each with its own shuffle). The other
    ``n_rows - len(planted)`` rows are random sets of ``size`` primary columns. With secondary
    columns, each row also gets up to ``secondary_per_row`` random secondary columns, distinct
    among the rows of one planted solution so that solution stays valid. Rows are shuffled;
    ``"planted"`` lists their indices. Deterministic for a given seed (``plants=1`` gives the
    instances of earlier versions). Returns the JSON shape read by ``read_matrix``.

    >>> inst = planted(20, 60, n_secondary=5, seed=1)
    >>> inst["primary"], inst["secondary"], len(inst["rows"])
    (20, 5, 60)
    >>> sorted(c for i in inst["planted"] for c in inst["rows"][i] if c < 20) == list(range(20))
    True
    """
    rng = random.Random(seed)
    lo, hi = size
    solutions: list[Rows] = []
    for _ in range(plants):
        cols = list(range(n_primary))
        rng.shuffle(cols)
        one: Rows = []
        i = 0
        while i < n_primary:
            k = rng.randint(lo, hi)
            if n_primary - (i + k) < lo:  # don't leave a stub shorter than lo
                k = n_primary - i
            one.append(sorted(cols[i:i + k]))
            i += k
        solutions.append(one)
    for one in solutions:
        free_secondary = list(range(n_primary, n_primary + n_secondary))
        rng.shuffle(free_secondary)
        if n_secondary:
            for row in one:
                for _ in range(rng.randint(0, secondary_per_row)):
                    if free_secondary:
                        row.append(free_secondary.pop())
    plant: Rows = []
    seen: set[tuple[int, ...]] = set()
    for row in (r for one in solutions for r in one):
        if tuple(row) not in seen:  # two plants may share a row
            seen.add(tuple(row))
            plant.append(row)
    extra: Rows = []
    while len(plant) + len(extra) < n_rows:
        row = sorted(rng.sample(range(n_primary), min(n_primary, rng.randint(lo, hi))))
        if n_secondary:
            row += sorted(rng.sample(range(n_primary, n_primary + n_secondary),
                                     min(n_secondary, rng.randint(0, secondary_per_row))))
        if tuple(row) not in seen:
            seen.add(tuple(row))
            extra.append(row)
    tagged = [(r, True) for r in plant] + [(r, False) for r in extra]
    rng.shuffle(tagged)
    return {
        "rows": [r for r, _ in tagged],
        "primary": n_primary,
        "secondary": n_secondary,
        "planted": [i for i, (_, p) in enumerate(tagged) if p],
    }


def as_options(rows: Rows, n_primary: int, n_secondary: int) -> tuple[dict[int, list[int]],
                                                                     list[int]]:
    """Rows as our API's input: ``dlx.ExactCover(options, secondary=secondary)``.

    Labels are row indices and items are the integer columns.
    """
    return ({i: list(r) for i, r in enumerate(rows)},
            list(range(n_primary, n_primary + n_secondary)))


def is_exact_cover(rows: Rows, n_primary: int, n_secondary: int, chosen) -> bool:
    """Check a solution (row indices) without trusting any solver.

    >>> is_exact_cover(TOY_ROWS, TOY_PRIMARY, 0, [0, 3, 4])
    True
    >>> is_exact_cover(TOY_ROWS, TOY_PRIMARY, 0, [0, 3])
    False
    """
    seen: set[int] = set()
    for i in chosen:
        for c in rows[i]:
            if c in seen:
                return False
            seen.add(c)
    return all(c in seen for c in range(n_primary))


# ---------------------------------------------------------------------------------------------
# Matrix files: {"rows": [[cols...], ...], "primary": n, "secondary": m}
# ---------------------------------------------------------------------------------------------


def write_matrix(path, rows: Rows, n_primary: int, n_secondary: int = 0, **extra) -> None:
    data = {"rows": rows, "primary": n_primary, "secondary": n_secondary, **extra}
    Path(path).write_text(json.dumps(data, separators=(",", ":")) + "\n")


def read_matrix(path) -> tuple[Rows, int, int]:
    """Read and validate a matrix file; returns ``(rows, n_primary, n_secondary)``."""
    data = json.loads(Path(path).read_text())
    p, s = int(data["primary"]), int(data.get("secondary", 0))
    rows = [[int(c) for c in r] for r in data["rows"]]
    for i, r in enumerate(rows):
        if len(set(r)) != len(r):
            raise ValueError(f"{path}: row {i} repeats a column: {r}")
        if any(not 0 <= c < p + s for c in r):
            raise ValueError(f"{path}: row {i} has a column outside 0..{p + s - 1}: {r}")
        if not any(c < p for c in r):
            raise ValueError(f"{path}: row {i} has no primary column: {r}")
    return rows, p, s


# ---------------------------------------------------------------------------------------------
# Sudoku
# ---------------------------------------------------------------------------------------------

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def sudoku_dir() -> Path:
    for cand in _SUDOKU_CANDIDATES:
        if cand and Path(cand).is_dir():
            return Path(cand)
    raise FileNotFoundError("no sudoku data directory; set DLX_SUDOKU_DATA")


def sudoku_path(name) -> Path:
    """A path as given if it exists, else a file name under the shared sudoku data dir."""
    p = Path(name)
    return p if p.exists() else sudoku_dir() / p.name


def load_sudoku(name, n: int | None = None) -> list[str]:
    """The first ``n`` puzzles (all if None) of a one-per-line file, as stripped strings."""
    out: list[str] = []
    with open(sudoku_path(name)) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            out.append(line)
            if n is not None and len(out) >= n:
                break
    return out


def parse_sudoku(puzzle: str) -> tuple[int, list[int]]:
    """``(box, cells)``: box side (3 for 9x9) and cell values, 0 for blank ('.' or '0').

    >>> box, cells = parse_sudoku("1" + "." * 80)
    >>> box, cells[:3]
    (3, [1, 0, 0])
    """
    size = round(len(puzzle) ** 0.5)
    box = round(size ** 0.5)
    if box * box != size or size * size != len(puzzle):
        raise ValueError(f"not a square sudoku of 81/256/625 cells: {len(puzzle)} chars")
    cells = []
    for ch in puzzle:
        if ch in ".0":
            cells.append(0)
        else:
            v = SYMBOLS.find(ch.upper()) + 1
            if not 1 <= v <= size:
                raise ValueError(f"bad sudoku character {ch!r}")
            cells.append(v)
    return box, cells


def sudoku_rows(puzzle: str) -> tuple[Rows, list[tuple[int, int, int]], int]:
    """Sudoku as exact cover, givens applied by dropping incompatible options.

    Columns (for an S x S grid, S = box^2): cell (r, c) -> r*S + c; digit d in row r ->
    S^2 + r*S + d-1; in column c -> 2S^2 + c*S + d-1; in box b -> 3S^2 + b*S + d-1; all primary.
    A given cell keeps only its given digit; a blank cell keeps the digits no given in its row,
    column or box already uses. Returns ``(rows, labels, n_primary)``; labels are (r, c, d).
    """
    box, cells = parse_sudoku(puzzle)
    s = box * box
    s2 = s * s
    used_r = [set() for _ in range(s)]
    used_c = [set() for _ in range(s)]
    used_b = [set() for _ in range(s)]
    for i, v in enumerate(cells):
        if v:
            r, c = divmod(i, s)
            used_r[r].add(v)
            used_c[c].add(v)
            used_b[(r // box) * box + c // box].add(v)
    rows: Rows = []
    labels: list[tuple[int, int, int]] = []
    for i, v in enumerate(cells):
        r, c = divmod(i, s)
        b = (r // box) * box + c // box
        if v:
            digits = [v]
        else:
            taken = used_r[r] | used_c[c] | used_b[b]
            digits = [d for d in range(1, s + 1) if d not in taken]
        for d in digits:
            rows.append([i, s2 + r * s + d - 1, 2 * s2 + c * s + d - 1, 3 * s2 + b * s + d - 1])
            labels.append((r, c, d))
    return rows, labels, 4 * s2


def sudoku_decode(labels, chosen, size: int = 9) -> str:
    """Row indices of a solution -> the solved grid as a string."""
    grid = ["."] * (size * size)
    for i in chosen:
        if i < len(labels):
            r, c, d = labels[i]
            grid[r * size + c] = SYMBOLS[d - 1]
    return "".join(grid)


def sudoku_ok(puzzle: str, solution: str | None) -> bool:
    """Is ``solution`` a complete valid grid that agrees with the givens of ``puzzle``?"""
    if not solution or len(solution) != len(puzzle):
        return False
    box, given = parse_sudoku(puzzle)
    _, cells = parse_sudoku(solution)
    s = box * box
    if any(g and g != v for g, v in zip(given, cells, strict=True)) or 0 in cells:
        return False
    full = set(range(1, s + 1))
    for k in range(s):
        if {cells[k * s + j] for j in range(s)} != full:
            return False
        if {cells[j * s + k] for j in range(s)} != full:
            return False
        br, bc = (k // box) * box, (k % box) * box
        if {cells[(br + i) * s + bc + j] for i in range(box) for j in range(box)} != full:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Calling the peers (from our venv, or any python): one subprocess per measurement
# ---------------------------------------------------------------------------------------------


def peer_python(peer: str, peers_dir: Path | None = None) -> Path:
    return Path(peers_dir or PEERS_DIR) / PEER_VENVS[peer] / "bin" / "python"


def available_peers(peers_dir: Path | None = None) -> list[str]:
    """Peers whose venv exists (run ``bash bench/setup_peers.sh`` to make them)."""
    return [p for p in PEER_VENVS if peer_python(p, peers_dir).exists()]


def run_peer(peer: str, task: str, *args, timeout: float | None = None,
             options: tuple[str, ...] = (), peers_dir: Path | None = None) -> dict:
    """Run ``bench/peers.py`` in the peer's venv and return its JSON line as a dict.

    ``options`` are extra flags for peers.py (``--repeat 3``, ``--cold``). On a timeout, a
    crash or a missing venv the dict has an ``"error"`` key and ``"result": None``.

    >>> r = run_peer("exact_cover", "queens", 8)            # doctest: +SKIP
    >>> r["result"], r["seconds"] < 1                       # doctest: +SKIP
    (92, True)
    """
    py = peer_python(peer, peers_dir)
    base = {"peer": peer, "task": task, "args": [str(a) for a in args], "result": None}
    if not py.exists():
        return {**base, "error": f"no venv at {py.parent.parent}; run bench/setup_peers.sh"}
    cmd = [str(py), str(PEERS_PY), *options, peer, task, *map(str, args)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {**base, "error": f"timeout after {timeout} s"}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        err = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {**base, "error": f"exit {proc.returncode}: {err}"}
    return json.loads(lines[-1])


if __name__ == "__main__":  # pragma: no cover - tiny smoke test
    import doctest

    sys.exit(doctest.testmod().failed)
