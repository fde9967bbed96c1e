"""How big is the search?  Knuth's random probes ("Estimating the efficiency of
backtrack programs", 1975), on both engines, with bounds too.

A probe walks one random path down the search tree: at each node it chooses an
item as the search would, notes its number of branches ``d`` (the options of the
item; with bounds, Algorithm M's branching degree, the null choice included) and
follows one of them at random.  With ``D_l`` the product of the ``d`` above level
``l``, the sum of the ``D_l`` along the path is an unbiased estimate of the number
of nodes, and ``D`` at the end of the path (when it ends in a solution; else 0)
one of the number of solutions.  :func:`estimate` averages many probes and gives
the standard error of each mean.

Under bounds (Algorithm M) the k-th branch of a node is the k-th option of its
item with the options before it tweaked out of the item's list (or the null
choice, last), exactly as the search reaches it; so the probe walks the tree
``dlx.count`` searches.  The pure engine and the core draw the same random
numbers (splitmix64), so a seed gives the same estimate on both.

>>> import dlx
>>> board = dlx.ExactCover({(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
...                         for r in range(8) for c in range(8)},
...                        secondary=[("up", k) for k in range(15)]
...                        + [("down", k) for k in range(-7, 8)])
>>> e = dlx.estimate(board, samples=2000, seed=1)
>>> abs(e.solutions - 92) < 4 * e.solutions_error, abs(e.nodes - 1174) < 4 * e.nodes_error
(True, True)
>>> e == dlx.estimate(board, samples=2000, seed=1, engine="python")
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from . import engine as _engine
from .dance import Dance, Rand, degree, first_empty, others
from .errors import BudgetExceeded, ExactCoverError, shown
from .links import Links
from .options import check_seconds
from .partial import place_forced, unwind, unwind_bounded
from .problem import ExactCover
from .rules import HeuristicName, rule

__all__ = ["Estimate", "estimate", "MAX_SAMPLES", "Rand"]

#: The most probes one estimate runs (a billion take hours on the pure engine).
MAX_SAMPLES = 10**9


@dataclass(frozen=True)
class Estimate:
    """Estimates of the size of a search, from ``samples`` random probes.

    ``nodes`` and ``solutions`` are the means of the probes' estimates (floats),
    ``nodes_error`` and ``solutions_error`` the standard errors of those means.
    """

    nodes: float
    solutions: float
    nodes_error: float
    solutions_error: float
    samples: int

    def __str__(self) -> str:
        return (f"about {self.nodes:,.0f} ± {self.nodes_error:,.0f} nodes and"
                f" {self.solutions:,.0f} ± {self.solutions_error:,.0f} solutions"
                f" ({self.samples:,} probes)")


def estimate(problem: ExactCover, *, samples: int = 1000, seed: int | None = None,
             heuristic: HeuristicName | None = None, forced: Iterable[Hashable] = (),
             timeout: float | None = None, engine: str | None = None) -> Estimate:
    """Knuth's estimate of the number of nodes and solutions of ``dlx.count(problem)``.

    Parameters
    ----------
    problem : ExactCover
        With or without bounds on items (Algorithm M's tree is probed as the search
        walks it).
    samples : int
        How many random probes (the error falls as 1 / sqrt(samples)).
    seed : int or None
        For reproducible probes (the same on both engines).
    heuristic, forced, engine
        As for :func:`dlx.count`: the tree probed is the one it searches.
    timeout : float or None
        Seconds: when they run out, :class:`~dlx.BudgetExceeded` is raised, its
        ``found`` the estimate of the probes made by then (None when none was).
    """
    if not isinstance(problem, ExactCover):
        raise ExactCoverError(f"expected a dlx.ExactCover, got {type(problem).__name__}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ExactCoverError(f"samples must be a positive whole number, not {shown(samples)}")
    if samples > MAX_SAMPLES:
        raise ExactCoverError(f"samples must be at most {MAX_SAMPLES:,} probes (the error"
                              " falls only as 1 / sqrt(samples)); this is more")
    timeout = check_seconds(timeout)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ExactCoverError(f"seed must be a whole number or None, not {shown(seed)}")
    chosen = rule(heuristic)            # (its random draws, if any, start from the seed too)
    links = Links.of(problem)
    forced_options = links.forced_options(forced)
    start = _seed(seed)
    deadline = None if timeout is None else time.monotonic() + timeout
    if _engine.select(engine) and _engine.fits(links):
        done, sums = _engine.estimate(links, samples, start, chosen.core_keywords(links),
                                      forced_options, timeout)
    else:
        done, sums = _pure(links.copy(), samples, start, chosen.chooser(links, start),
                           forced_options, deadline)
    made = _made(done, sums)
    if done < samples:
        raise BudgetExceeded(None, made, timeout=timeout)
    assert made is not None
    return made


def _made(done: int, sums: tuple[float, float, float, float]) -> Estimate | None:
    if done == 0:
        return None
    n_mean, n_m2, s_mean, s_m2 = sums
    return Estimate(n_mean, s_mean, _error(n_m2, done), _error(s_m2, done), done)


def _error(m2: float, n: int) -> float:
    """The standard error of a mean of n values whose squared deviations sum to m2."""
    if n < 2:
        return math.inf
    return math.sqrt(max(m2, 0.0) / (n - 1) / n)


def _seed(seed: int | None) -> int:
    """The 64-bit start of the probes' random numbers."""
    if seed is None:
        import os

        return int.from_bytes(os.urandom(8), "little")
    return seed & _MASK


def _pure(links: Links, samples: int, seed: int, choose: Callable[[Links], int],
          forced: list[int], deadline: float | None
          ) -> tuple[int, tuple[float, float, float, float]]:
    """The probes on the pure engine (``links`` a private copy, ``choose`` the rule's
    chooser, whose random draws, if any, are its own): how many were made, and
    Welford's sums of their estimates."""
    dance = Dance(links)
    rng = Rand(seed)
    levels = len(forced) + 1
    x, first, score = [0] * levels, [0] * levels, [0] * (levels + 1)
    _, _, placed = place_forced(dance, links.first_primary(forced), choose, x, first, score,
                                 None)
    probe = _probe_bounded if links.multi else _probe
    nodes, sols = _Mean(), _Mean()
    for k in range(samples):
        if deadline is not None and k % 64 == 0 and time.monotonic() >= deadline:
            break
        if placed == "clash":
            n, s = 0.0, 0.0             # no search at all
        elif placed == "dead end":
            n, s = 1.0, 0.0             # its root is a dead end
        else:
            n, s = probe(dance, choose, rng)
        nodes.add(n)
        sols.add(s)
    return nodes.n, (nodes.mean, nodes.m2, sols.mean, sols.m2)


_MASK = (1 << 64) - 1


def _probe(dance: Dance, choose: object, rng: Rand) -> tuple[float, float]:
    """One random path of Algorithm C's tree, below the forced options placed: (its
    estimate of the nodes, of the solutions)."""
    t = dance.links
    D = t.DLINK
    path: list[int] = []
    size = 1.0          # D_l: the nodes at this level of the path, estimated
    total = 1.0
    solutions = 0.0
    while True:
        if t.RLINK[0] == 0:
            solutions = size
            break
        i = first_empty(t) if dance.empty else choose(t)  # type: ignore[operator]
        d = t.LEN[i]
        if d == 0:
            break
        x = D[i]
        for _ in range(rng.below(d)):
            x = D[x]
        size *= d
        total += size
        dance.cover(i)
        for q in others(t, x):
            dance.commit(q)
        path.append(x)
    unwind(dance, path, len(path), 0, 0)              # undo the path, deepest first
    return total, solutions


def _probe_bounded(dance: Dance, choose: object, rng: Rand) -> tuple[float, float]:
    """One random path of Algorithm M's tree: at each node, the k-th of its d branches
    as the search reaches it (M4, then M5 and M7 for the k branches before it, M6)."""
    t = dance.links
    D, BOUND, SLACK, N = t.DLINK, t.BOUND, t.SLACK, t.N
    x: list[int] = []                   # as the loop keeps them: the choice at each
    first: list[int] = []               # level, and the first option tried there
    size = total = 1.0
    solutions = 0.0
    while True:
        if t.RLINK[0] == 0:
            solutions = size
            break
        i = choose(t)  # type: ignore[operator]
        d = degree(t, i)
        if d <= 0:
            break
        k = rng.below(d)
        size *= d
        total += size
        BOUND[i] -= 1                                   # M4
        if BOUND[i] == 0:
            dance.cover(i)
        xl = D[i]
        x.append(xl)
        first.append(xl)
        if BOUND[i] or SLACK[i]:
            for _ in range(k):                          # M5, M6 and M7 of earlier branches
                dance.tweak(xl, BOUND[i] != 0)
                xl = D[xl]
            if xl != i:
                dance.tweak(xl, BOUND[i] != 0)          # M5 for this one
            elif BOUND[i]:
                dance.deactivate(i)                     # the null choice
        else:
            for _ in range(k):
                xl = D[xl]
        x[-1] = xl
        if xl > N:                                      # M6: an option (not the null choice)
            for q in others(t, xl):
                dance.commit_bounded(q)
    unwind_bounded(dance, x, first, len(x), 0, 0)
    return total, solutions


class _Mean:
    """A running mean and its sum of squared deviations (Welford's updates: memory does
    not grow with the number of samples; the core adds in the same order)."""

    __slots__ = ("n", "mean", "m2")

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)
