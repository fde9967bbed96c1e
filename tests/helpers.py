"""Problems and oracles shared by the engine tests (plain functions, no state).

``plain_tree`` is an independent oracle for the *search tree*: Algorithm C on
Python sets, with no links, no early failure and no shortcuts, choosing items by
the same rule as the engines (the first uncovered primary item of fewest
options, or the first one).  Its node counts, per-level profile and solution
order are what both engines must report.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable

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


def pinned_instances() -> dict[str, dlx.ExactCover]:
    return {"queens8": queens(8), "langford7": langford(7), "dominoes4x4": dominoes(4, 4)}


def brute_force(problem: dlx.ExactCover) -> set[frozenset[Hashable]]:
    """Every subset of options that is an exact cover (checked by dlx.verify)."""
    labels = list(problem.options)
    out = set()
    for r in range(len(labels) + 1):
        for combo in itertools.combinations(labels, r):
            # options without a primary item can never be chosen by Algorithm X
            if any(not any(i in problem.primary for i in problem.item_names(c)) for c in combo):
                continue
            if dlx.is_exact_cover(problem, combo):
                out.add(frozenset(combo))
    return out


def plain_tree(problem: dlx.ExactCover, heuristic: str = "mrv",
               forced: tuple[Hashable, ...] = ()
               ) -> tuple[list[tuple[Hashable, ...]], int, list[int]]:
    """(solutions in search order, nodes, profile) of Algorithm C on sets.

    The search below ``forced`` (options chosen first): its root is one node at
    level ``len(forced)``; a clash among them gives ([], 0, []).
    """
    primary = list(problem.primary)
    entries = {label: [(e.item, e.color) if isinstance(e, dlx.Colored) else (e, None)
                       for e in items]
               for label, items in problem.options.items()
               if any(i in problem.primary for i in problem.item_names(label))}
    order = list(entries)

    def available(label: Hashable, covered: set[Hashable], colours: dict) -> bool:
        for item, colour in entries[label]:
            if item in covered:
                return False
            if item in colours and (colour is None or colours[item] != colour):
                return False
        return True

    def choose(label: Hashable, covered: set[Hashable], colours: dict) -> tuple[set, dict]:
        covered, colours = set(covered), dict(colours)
        for item, colour in entries[label]:
            if colour is None:
                covered.add(item)
            else:
                colours[item] = colour
        return covered, colours

    covered: set[Hashable] = set()
    colours: dict[Hashable, Hashable] = {}
    for label in forced:
        if label not in entries or not available(label, covered, colours):
            return [], 0, []
        covered, colours = choose(label, covered, colours)
    solutions: list[tuple[Hashable, ...]] = []
    profile = [0] * len(forced) + [1]
    nodes = 1

    def search(covered: set, colours: dict, chosen: tuple) -> None:
        nonlocal nodes
        active = [i for i in primary if i not in covered]
        if not active:
            solutions.append(chosen)
            return
        options_of = {i: [o for o in order if available(o, covered, colours)
                          and any(item == i for item, _ in entries[o])] for i in active}
        if any(not options_of[i] for i in active):
            return                                    # a dead end, whatever the heuristic
        item = active[0]
        if heuristic == "mrv":
            item = min(active, key=lambda i: len(options_of[i]))   # first on ties
        for o in options_of[item]:
            nodes += 1
            level = len(chosen) + 1
            while len(profile) <= level:
                profile.append(0)
            profile[level] += 1
            search(*choose(o, covered, colours), chosen + (o,))

    search(covered, colours, tuple(forced))
    return solutions, nodes, profile


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
