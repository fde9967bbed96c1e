"""How big is the search?  Knuth's random probes ("Estimating the efficiency of
backtrack programs", 1975), on the pure engine.

A probe walks one random path down the search tree: at each node it chooses an
item as the search would, notes its number of options ``d`` and follows one of
them at random.  With ``D_l`` the product of the ``d`` above level ``l``, the sum
of the ``D_l`` along the path is an unbiased estimate of the number of nodes, and
``D`` at the end of the path (when it ends in a solution; else 0) one of the
number of solutions.  :func:`estimate` averages many probes and gives the
standard error of each mean.

>>> import dlx
>>> board = dlx.ExactCover({(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
...                         for r in range(8) for c in range(8)},
...                        secondary=[("up", k) for k in range(15)]
...                        + [("down", k) for k in range(-7, 8)])
>>> e = dlx.estimate(board, samples=2000, seed=1)
>>> abs(e.solutions - 92) < 4 * e.solutions_error, abs(e.nodes - 1174) < 4 * e.nodes_error
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .dance import Dance, first_empty, others
from .errors import ExactCoverError, shown
from .links import Links
from .problem import ExactCover
from .search import HeuristicName, _chooser

__all__ = ["Estimate", "estimate", "MAX_SAMPLES"]

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
             heuristic: HeuristicName | None = None, forced: Iterable[Hashable] = ()) -> Estimate:
    """Knuth's estimate of the number of nodes and solutions of ``dlx.count(problem)``.

    Parameters
    ----------
    problem : ExactCover
        Without bounds on items (Algorithm M's tree is not probed).
    samples : int
        How many random probes (the error falls as 1 / sqrt(samples)).
    seed : int or None
        For reproducible probes.
    heuristic, forced
        As for :func:`dlx.count`: the tree probed is the one it searches.
    """
    if not isinstance(problem, ExactCover):
        raise ExactCoverError(f"expected a dlx.ExactCover, got {type(problem).__name__}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ExactCoverError(f"samples must be a positive whole number, not {shown(samples)}")
    if samples > MAX_SAMPLES:
        raise ExactCoverError(f"samples must be at most {MAX_SAMPLES:,} probes (the error"
                              " falls only as 1 / sqrt(samples)); this is more")
    if problem.bounds:
        raise ExactCoverError("estimate needs a problem without bounds on items")
    master = Links.of(problem)
    links = master.copy()
    dance = Dance(links)
    choose = _chooser(heuristic, links)
    rng = random.Random(seed)
    base = links.first_primary(links.forced_options(forced))
    nodes, sols = _Mean(), _Mean()
    for _ in range(samples):
        n, s = _probe(dance, choose, rng, base)
        nodes.add(n)
        sols.add(s)
    return Estimate(nodes.mean, sols.mean, nodes.error, sols.error, samples)


def _probe(dance: Dance, choose: object, rng: random.Random, forced: list[int]
           ) -> tuple[float, float]:
    """One random path: (its estimate of the nodes, of the solutions)."""
    t = dance.links
    TOP, D = t.TOP, t.DLINK
    path: list[int] = []
    for f in forced:                                 # the root: below the forced options
        path.append(f)
        dance.cover(TOP[f])
        for q in others(t, f):
            dance.commit(q)
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
        for _ in range(rng.randrange(d)):
            x = D[x]
        size *= d
        total += size
        dance.cover(i)
        for q in others(t, x):
            dance.commit(q)
        path.append(x)
    for x in reversed(path):                       # undo the path, deepest first
        for q in reversed(others(t, x)):
            dance.uncommit(q)
        dance.uncover(TOP[x])
    return total, solutions


class _Mean:
    """A running mean and the standard error of it (Welford's updates: memory does not
    grow with the number of samples)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0          # the sum of squared deviations from the mean

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (value - self.mean)

    @property
    def error(self) -> float:
        if self.n < 2:
            return math.inf
        return math.sqrt(max(self._m2, 0.0) / (self.n - 1) / self.n)
