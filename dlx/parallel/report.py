"""What a parallel run's ``progress`` callback receives: a :class:`Report`.

The merged :class:`~dlx.Stats` so far, and how far the run is: the share of the
tree done (each piece counts for its share, Knuth's estimate), the time left at
this run's pace, the pieces done, in flight and left, the workers, the faults,
and the age of the last checkpoint.  The driver (:mod:`.schedule`) makes one at
most every :data:`REPORT_EVERY` seconds, and at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events import Stats

__all__ = ["Report", "REPORT_EVERY", "eta"]

#: ``progress`` is called at most this often (seconds), and once at the end.
REPORT_EVERY = 0.1

@dataclass
class Report(Stats):
    """What ``progress`` receives: the merged :class:`~dlx.Stats` of the pieces done
    so far (and of the nodes above them), and how far the run is.

    ``fraction`` is the estimated share of the tree done (1.0 at the end; each piece
    counts for its share of the tree, Knuth's estimate: one over the number of
    siblings at each level of its path); ``eta`` the seconds left at the pace of
    this run (None before there is a pace); ``pieces_done`` and ``pieces_left``
    (queued or running) count pieces, ``in_flight`` the pieces of the tasks running,
    ``running`` those tasks, ``workers`` the workers seen, ``faults`` the tasks lost
    to a dead worker and run again, ``seconds`` the time since the run (or this
    session of it) began, ``checkpoint_age`` the seconds since the last checkpoint
    was written (None: none yet, or no checkpoint), ``nodes_before`` the nodes of
    earlier sessions of a resumed run (counted in ``nodes``: this session's pace is
    ``(nodes - nodes_before) / seconds``).

    >>> r = Report(nodes=10, updates=40, solutions=2, profile=[1, 3, 6], fraction=0.5,
    ...            pieces_done=3, pieces_left=4, in_flight=2, workers=2)
    >>> print(r)  # doctest: +NORMALIZE_WHITESPACE
    10 nodes, 40 updates, 2 solutions, depth 2; 50% done, 3 pieces done,
    4 left (2 running), 2 workers
    """

    fraction: float = 0.0
    pieces_done: int = 0
    pieces_left: int = 0
    running: int = 0
    workers: int = 0
    faults: int = 0
    seconds: float = 0.0
    in_flight: int = 0
    eta: float | None = None
    checkpoint_age: float | None = None
    nodes_before: int = 0

    @property
    def rate(self) -> float:
        """Nodes a second in this session (a resumed run's earlier nodes left out)."""
        return (self.nodes - self.nodes_before) / self.seconds if self.seconds > 0 else 0.0

    def __str__(self) -> str:
        out = (f"{Stats.__str__(self)}; {self.fraction:.0%} done, {self.pieces_done:,} pieces"
               f" done, {self.pieces_left:,} left ({self.in_flight:,} running),"
               f" {self.workers} worker{'' if self.workers == 1 else 's'}")
        return out + (f", {self.faults} faults" if self.faults else "")


def eta(fraction: float, pace: float) -> float | None:
    """Seconds left with ``fraction`` of the tree done at ``pace`` (shares per second,
    this session's): 0.0 when done, None before there is a pace."""
    if fraction >= 1:
        return 0.0
    return (1 - fraction) / pace if pace > 0 else None
