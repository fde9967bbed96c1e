"""Problem instances and tools shared by the engine tests (plain functions, no state).

The oracles are in oracles.py, the hypothesis strategies in strategies.py.
"""

from __future__ import annotations

from typing import Any

import dlx

TOY = {"o1": ["c", "e"], "o2": ["a", "d", "g"], "o3": ["b", "c", "f"],
       "o4": ["a", "d", "f"], "o5": ["b", "g"], "o6": ["d", "e", "g"]}

#: Nodes and updates of fixed instances on both engines: a heuristic regression
#: (say, choosing the longest item) changes them, though every answer stays right.
PINNED = {"queens8": (1174, 19732), "langford7": (608, 7866), "dominoes4x4": (133, 489)}


def toy() -> dlx.ExactCover:
    """Knuth's toy problem (TAOCP 7.2.2.1), items in Knuth's order a..g."""
    return dlx.ExactCover(TOY, primary="a b c d e f g".split())


def queens(n: int) -> dlx.ExactCover:
    opts = {(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
            for r in range(n) for c in range(n)}
    sec = [("up", k) for k in range(2 * n - 1)] + [("down", k) for k in range(-n + 1, n)]
    return dlx.ExactCover(opts, secondary=sec)


def langford(n: int) -> dlx.ExactCover:
    return dlx.ExactCover({(k, j): [("num", k), ("slot", j), ("slot", j + k + 1)]
                           for k in range(1, n + 1) for j in range(2 * n - k - 1)})


def dominoes(rows: int, cols: int) -> dlx.ExactCover:
    opts = {}
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                opts[(r, c, "h")] = [(r, c), (r, c + 1)]
            if r + 1 < rows:
                opts[(r, c, "v")] = [(r, c), (r + 1, c)]
    return dlx.ExactCover(opts)


def batch_answers(problem: dlx.ExactCover, engines: tuple[str, ...], data: Any
                  ) -> dict[str, list[tuple[Any, ...]]]:
    """Each engine's answers to one batch of forced-option sets drawn by hypothesis's
    ``data`` (what a Sudoku batch asks): found, first, nodes and clash of each."""
    from hypothesis import strategies as st

    from dlx.links import Links
    labels = list(Links.of(problem).labels)
    sets = data.draw(st.lists(st.lists(st.sampled_from(labels), max_size=3, unique=True)
                              if labels else st.just([]), max_size=5))
    return {e: [(a.found, a.first, a.nodes, a.clash)
                for a in dlx.Prepared(problem, engine=e).batch(sets, limit=2)]
            for e in engines}


def pinned_instances() -> dict[str, dlx.ExactCover]:
    return {"queens8": queens(8), "langford7": langford(7), "dominoes4x4": dominoes(4, 4)}


def run_and_interrupt(code: str, after: float = 0.3, timeout: float = 60
                      ) -> tuple[int, str, str, float]:
    """Run ``code`` in a fresh Python, press Ctrl-C (SIGINT) ``after`` seconds after it
    prints its first line, and return (exit code, stdout, stderr, seconds it took to
    stop).  The child restores Python's default SIGINT handler first, so this works
    when the tests themselves run with SIGINT ignored (in the background), and no
    other test's state can swallow the KeyboardInterrupt."""
    import signal
    import subprocess
    import sys
    import time

    prelude = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    child = subprocess.Popen([sys.executable, "-c", prelude + code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    first = child.stdout.readline()
    time.sleep(after)
    start = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=timeout)
    finally:
        child.kill()
    return child.returncode, first + out, err, time.monotonic() - start
