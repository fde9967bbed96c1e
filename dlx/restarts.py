"""A first solution by randomised restarts: :func:`dlx.first` with ``restarts=True``.

Some first-solution searches have heavy tails: one unlucky choice near the root
leaves a subtree that does not end, where another choice finds a solution at
once.  Restarts cut such runs short.  Run k searches from the root with a node
budget of ``luby(k) * unit`` nodes (:func:`luby`: 1, 1, 2, 1, 1, 2, 4, ...), Luby,
Sinclair and Zuckerman's universal sequence, which spends within a logarithmic
factor of the best fixed budget whatever the distribution of run lengths.  Most
runs choose by the rule ``mrv-random`` of :mod:`dlx.rules` (minimum remaining
values, its ties and each item's first option drawn at random) with draws of their
own: run k's seed is the k-th number :class:`~dlx.dance.Rand` draws from ``seed=``
(0 when None), so the same seed gives the same runs and the same answer, on both
engines.  The plain search (``mrv``, options in the problem's order) is one of the
runs too: the first, and each run whose budget is a new largest (runs 1, 3, 7, 15,
...: :func:`plain`), so that whatever it finds within B nodes restarts find within
a few times B log B, on the problems where the order given is a good one.  Runs go
on until one finds a solution, or one searches its whole tree (there is none), or
the node budget (``max_nodes``, over all runs) or the time runs out.

The unit is one more than the most levels a solution can have (:func:`unit`: the
primary items, as each option covers at least one; under bounds, what Algorithm
M can stack): the shortest run that can reach any solution, a node per level,
the root included.  A smaller unit wastes the first runs, which cannot reach a
deep solution at all; a larger one lets the first runs sink into the subtrees
restarts are for.  (Where each option covers two primary items, a solution is
half as deep as the unit, and a lucky run reaches it with the unit half spent.)

The answer is *a* solution, not the first in search order: which one depends on
the seed.  The problem is laid out once and every run starts from the same links
(the core undoes the levels a stopped run left, which costs what reaching them
cost, where copying the links again would cost their size).  The
:class:`~dlx.Stats` add up over the runs: nodes, updates, solutions and the
profile; ``progress`` sees the sums as they grow, every
:data:`~dlx.search.PROGRESS_EVERY` nodes or so (inside a long run, or between
short ones), and what it raises (Ctrl-C on the command line) stops the runs.

>>> import dlx
>>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"], "z": ["c"]})
>>> s = dlx.Stats()
>>> sorted(dlx.first(p, restarts=True, stats=s)), s.solutions
(['x', 'y', 'z'], 1)
>>> dlx.first(dlx.ExactCover({"x": ["a", "b"], "y": ["b", "c"]}), restarts=True) is None
True
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Hashable
from typing import Any

from . import engine as _engine
from .dance import Rand
from .errors import BudgetExceeded
from .events import Stats
from .links import Links
from .options import Options
from .problem import ExactCover
from .rules import DEFAULT, RESTARTS, Rule, draws
from .search import PROGRESS_EVERY, run
from .serial import Request

__all__ = ["first", "luby", "unit", "plain"]


def luby(k: int) -> int:
    """The k-th term (k = 1, 2, ...) of Luby's sequence.

    >>> [luby(k) for k in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    while True:
        top = k.bit_length()            # 2**(top-1) <= k < 2**top
        if k == (1 << top) - 1:
            return 1 << (top - 1)
        k -= (1 << (top - 1)) - 1


def plain(k: int) -> bool:
    """Whether run k (from 1) is the plain search: the first run, and each run whose
    budget is a new largest, k = 2**j - 1.

    >>> [k for k in range(1, 20) if plain(k)]
    [1, 3, 7, 15]
    """
    return k & (k + 1) == 0


def unit(links: Links) -> int:
    """The node budget of Luby's 1: one more than the most levels a solution can have
    (the root is a node too).  Without bounds, each level covers a primary item;
    with bounds, Algorithm M stacks up to the bounds' sum (or the options) and a
    null choice per item.

    >>> import dlx
    >>> unit(Links.of(dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})))
    3
    """
    t = links
    if t.multi:
        return min(sum(t.BOUND[1:t.N1 + 1]), len(t.labels)) + t.N1 + 1
    return t.N1 + 1


def first(problem: ExactCover, opts: Options) -> tuple[Hashable, ...] | None:
    """:func:`dlx.first` with ``restarts=True``: *a* solution (see the module), or None
    when a run searched its whole tree and found none."""
    # (the seed seeds the runs' draws only: the options keep their order, and the
    # problem is laid out as it is, once)
    req = Request(problem, opts.but(heuristic=RESTARTS.name, seed=None), resumable=False)
    total, shown = Stats(), req.stats
    progress = opts.progress

    reported = 0                # the nodes at the last progress call

    def report(s: Stats) -> None:
        nonlocal reported
        _add(shown, total, s)
        reported = shown.nodes
        if progress is not None:
            progress(shown)

    runs: _CoreRuns | _PureRuns = _CoreRuns(req, report) if req.core else _PureRuns(req, report)
    seeds = Rand(draws(opts.seed))
    left = opts.max_nodes
    step = unit(req.links)
    try:
        for k in itertools.count(1):
            if req.deadline is not None and time.monotonic() > req.deadline:
                raise BudgetExceeded(None, None, shown, timeout=opts.timeout)
            budget = luby(k) * step if left is None else min(luby(k) * step, left)
            outcome, found = runs.run(seeds.next(), budget, DEFAULT if plain(k) else RESTARTS)
            _add(total, total, runs.stats)
            runs.stats.nodes = runs.stats.updates = runs.stats.solutions = 0
            runs.stats.profile = []
            if outcome == "time":
                raise BudgetExceeded(None, None, shown, timeout=opts.timeout)
            if outcome != "budget":                     # a solution, or none at all
                total.explored = 1.0
                return found
            if left is not None:
                left -= budget
                if left == 0:
                    raise BudgetExceeded(opts.max_nodes, None, shown)
            if total.nodes - reported >= PROGRESS_EVERY:
                report(Stats())     # (runs shorter than a check point's nodes: between them)
    finally:
        _add(shown, total, runs.stats)      # (and the run a stop cut short)
    raise AssertionError("unreachable")  # pragma: no cover


def _add(into: Stats, done: Stats, run: Stats) -> None:
    """``into`` = ``done`` + ``run``, counter by counter and level by level."""
    into.nodes = done.nodes + run.nodes
    into.updates = done.updates + run.updates
    into.solutions = done.solutions + run.solutions
    a, b = done.profile, run.profile
    into.profile = [x + y for x, y in itertools.zip_longest(a, b, fillvalue=0)]
    into.explored = done.explored


#: How a run ended: with a solution ("found"), its whole tree searched ("none"), out of
#: its node budget ("budget") or out of time ("time").
Outcome = str


class _CoreRuns:
    """The runs on the compiled core: one search, restarted (its levels undone) for each."""

    def __init__(self, req: Request, report: Callable[[Stats], None]) -> None:
        self.req, self.report = req, report
        self.search: Any = None
        self.stats = Stats()            # the core writes each run's here

    def run(self, seed: int, budget: int, rule: Rule
            ) -> tuple[Outcome, tuple[Hashable, ...] | None]:
        left = self.req.left()
        timeout = -1.0 if left is None else float(left)
        if self.search is None:                         # (on the links: bits=0)
            self.search = _engine.restartable(self.req, seed=seed, max_nodes=budget,
                                              timeout=timeout, stats=self.stats,
                                              progress=self.report, heuristic=rule.code,
                                              bits=0)
        else:
            self.search.restart(seed, max_nodes=budget, timeout=timeout, heuristic=rule.code)
        found = self.search.next()
        status = self.search.status
        outcome = {"paused": "found", "done": "none", "budget": "budget"}.get(status, "time")
        return outcome, found


class _PureRuns:
    """The runs on the pure engine: one copy of the links, which each run restores."""

    def __init__(self, req: Request, report: Callable[[Stats], None]) -> None:
        self.req, self.report = req, report
        self.links = req.links.copy()
        self.forced = req.links.first_primary(req.forced)
        self.stats = Stats()

    def run(self, seed: int, budget: int, rule: Rule
            ) -> tuple[Outcome, tuple[Hashable, ...] | None]:
        req = self.req
        search = run(self.links, "solutions", stats=self.stats, max_nodes=budget,
                     timeout=req.timeout, heuristic=rule.name, progress=self.report,
                     forced=self.forced, deadline=req.deadline, seed=seed)
        try:
            found = next(search, None)
        except BudgetExceeded as e:
            return ("time" if e.max_nodes is None else "budget"), None
        finally:
            search.close()
        return ("none" if found is None else "found"), found
