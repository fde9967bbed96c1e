"""The parallel count by symmetry: a driver whose first pieces are given roots, each
standing for as many partial solutions as its weight.

:mod:`dlx.orbits` lists the roots above the search (one partial solution per orbit
under the problem's symmetries, with the size of its orbit); here they become the
driver's first batch, and every piece cut below a root is counted times that root's
weight (:class:`~dlx.parallel.answers.WeightedCountAnswer`).  The rest is the
ordinary driver: tasks sized to the executor, pieces cut where they run, faults,
budgets, progress.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from ..events import Stats
from ..options import Options
from ..problem import ExactCover
from .answers import WeightedCountAnswer
from .pieces import Entry, add, counts
from .schedule import Driver

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["count"]


class _RootsDriver(Driver):
    """A driver that starts from the roots instead of cutting the tree from its top."""

    def __init__(self, problem: ExactCover, executor: Executor, answer: WeightedCountAnswer,
                 opts: Options, found: Sequence[tuple[tuple[Hashable, ...], int]],
                 above: Stats, **keywords: Any) -> None:
        super().__init__(problem, executor, answer, opts,
                         weights={labels: weight for labels, weight in found}, **keywords)
        self.found, self.above = found, above

    def _start(self) -> None:
        add(self.stats, *counts(self.above))
        self.spent += self.above.nodes
        number, share = self.number, 1.0 / max(len(self.found), 1)
        self.push(tuple([Entry((j,), tuple([number(label) for label in labels]), share)
                         for j, (labels, _) in enumerate(self.found)]), new=True)


def count(problem: ExactCover, executor: Executor, opts: Options,
          found: Sequence[tuple[tuple[Hashable, ...], int]], above: Stats, *,
          limit: int | None = None, pieces: int | None = None,
          piece_nodes: int | None = None) -> tuple[int, int]:
    """The weighted count of the roots ``found`` (labels, weight) on ``executor``, and
    the nodes their weights saved; ``above`` holds the nodes visited above them.
    ``opts.stats`` ends with the nodes of the roots' searches and of ``above``."""
    answer = WeightedCountAnswer(limit)
    drv = _RootsDriver(problem, executor, answer, opts.but(executor=None, seed=None),
                       found, above, pieces=pieces, piece_nodes=piece_nodes)
    for _ in drv.run():
        pass
    return answer.result(), answer.saved
