"""How the search tree is cut into pieces: :func:`split`, and the cuts the driver makes.

A *piece* is a tuple of option labels: the forced options on the path from the
root to one node of the serial search tree.  ``dlx.count(problem, forced=piece)``
searches exactly the subtree below that node, and counts it as the whole search
does, so the subtrees of a *frontier* (a set of nodes that cuts every root-to-leaf
path once) add up to the serial search: solutions, nodes, updates, per-level
profile.

:func:`split` walks the serial tree from the root (or from ``forced=``), choosing
items with the same heuristic as the serial search, and expands first the pieces
that look biggest: Knuth's estimate, a child's share of its parent is one over
the number of its siblings.  It stops at about ``pieces`` pieces (or at
``depth``).  A solution met above the cut is a piece of its own (of one node); a
dead end met above it is not a piece at all.  ``stats=`` receives the counts of
the nodes above the pieces, so that they plus the pieces' add up exactly.

Each piece travels with its place in search order (a *key*: lexicographic order
of keys is the serial order) and its estimated share of the tree (an
:class:`Entry`).
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, NamedTuple

from .. import serial
from ..errors import BudgetExceeded, ExactCoverError, shown
from ..events import Stats
from ..options import Engine, Options, check_positive
from ..problem import ExactCover
from ..search import Heuristic, HeuristicName

__all__ = ["Piece", "Entry", "Cut", "split", "cut", "expand", "shares", "add", "counts"]

#: A piece: the labels of the forced options on the path to a node of the search tree.
Piece = tuple[Hashable, ...]

_CHAIN_START = 16               # nodes of the first search down a chain (then doubling)


class Entry(NamedTuple):
    """A piece with its place in search order (``key``: lexicographic order of the
    keys is the serial order) and its estimated share of the tree (``weight``).  The
    piece is a tuple of labels here, and of option numbers (positions in the
    problem's links) in a parallel run's driver and tasks."""

    key: tuple[int, ...]
    piece: tuple[Any, ...]
    weight: float


class Cut(NamedTuple):
    entries: list[Entry]       # the pieces, in search order
    above: Stats                # the nodes above them (dead ends included)
    done: float                 # the estimated share of the tree above them
    whole: bool                 # a piece could not be cut (the search has no frontier)


def expand(problem: ExactCover, piece: Piece, heuristic: HeuristicName | Heuristic | None,
            engine: Engine | None) -> tuple[int, list[Piece] | None, Stats]:
    """Visit the node ``piece`` alone: ``(1 if it is a solution, its children in
    search order or None when it has none, the statistics of that one node)``;
    ``(-1, None, ...)`` when the search cannot hand over its children (a search
    with bounds, Algorithm M, has no frontier).

    It is a forced search with a budget of one node: the search stops as it is
    about to try its first child and hands over every child as its frontier."""
    s = Stats()
    try:
        n = serial.count(problem, Options(forced=piece, max_nodes=1, stats=s,
                                          heuristic=heuristic, engine=engine), limit=None)
    except BudgetExceeded as e:
        if e.frontier is None:
            return -1, None, s
        return 0, list(e.frontier), s
    return n, None, s


def _follow(problem: ExactCover, piece: Piece, heuristic: HeuristicName | Heuristic | None,
            engine: Engine | None, nodes: int, timeout: float | None
            ) -> tuple[list[Piece], Stats] | None:
    """Search below ``piece`` for at most ``nodes`` nodes, where the tree is a chain:
    ``(what is left, the statistics of the nodes visited)`` when the search met no
    solution and left at most one subtree (dead ends beside the path are visited
    and counted); None when it met a solution or left several subtrees (then the
    caller visits ``piece`` alone).

    A deep chain (each node with one child, or one besides dead ends) is walked in
    one search this way, instead of one search per level placing every forced
    option again: that made :func:`split` quadratic in the depth."""
    s = Stats()
    try:
        n = serial.count(problem, Options(forced=piece, max_nodes=nodes, timeout=timeout,
                                          stats=s, heuristic=heuristic, engine=engine), limit=1)
    except BudgetExceeded as e:
        if e.found or e.frontier is None or len(e.frontier) != 1:
            return None
        return [tuple(e.frontier[0])], s
    return (None if n else ([], s))


def add(into: Stats, nodes: int, updates: int, solutions: int, profile: Sequence[int]) -> None:
    """Add one search's counts to ``into`` (profiles add level by level)."""
    into.nodes += nodes
    into.updates += updates
    into.solutions += solutions
    mine = into.profile
    if len(mine) < len(profile):
        mine.extend([0] * (len(profile) - len(mine)))
    for level, n in enumerate(profile):
        if n:
            mine[level] += n


def counts(s: Stats) -> tuple[int, int, int, tuple[int, ...]]:
    return s.nodes, s.updates, s.solutions, tuple(s.profile)


def cut(problem: ExactCover, root: Piece, *, pieces: int | None, depth: int | None,
         heuristic: HeuristicName | Heuristic | None, engine: Engine | None,
         max_nodes: int | None = None, deadline: float | None = None) -> Cut:
    """The frontier of the serial tree below ``root``: about ``pieces`` pieces,
    biggest-looking first, or every node at ``depth`` levels below ``root``
    (solutions above the cut are pieces too).  At most ``max_nodes`` nodes are
    visited above the cut, and the cut stops at ``deadline`` (``time.monotonic()``).

    Its time is linear in the depth of the tree: a node with a single child is
    not cut one level at a time, but followed down in searches of doubling size
    (:func:`_follow`) until the tree branches."""
    base = len(root)
    above = Stats()
    done = 0.0
    kept: list[Entry] = []                       # solutions above the cut
    whole = False
    # the open pieces as (rank, key, piece, share): biggest share first, or with a
    # depth, shallowest first; keys are unique, so pieces are never compared
    heap: list[tuple[float, tuple[int, ...], Piece, float]] = [(-1.0, (), root, 1.0)]
    while heap:
        if depth is None and pieces is not None and len(heap) + len(kept) >= pieces:
            break
        if max_nodes is not None and above.nodes >= max_nodes:
            break
        if depth is not None and len(heap[0][2]) - base >= depth:
            break
        if deadline is not None and time.monotonic() >= deadline:
            break
        _, key, piece, weight = heapq.heappop(heap)
        n, children, s = expand(problem, piece, heuristic, engine)
        if children is None and n:
            # a solution (a piece of one node), or a piece that cannot be cut
            kept.append(Entry(key, piece, weight))
            whole = whole or n < 0
            continue
        add(above, *counts(s))
        stride = _CHAIN_START
        while depth is None and children is not None and len(children) == 1:
            # a chain: walk down it in one search, not one search per level
            room = stride if max_nodes is None else min(stride, max_nodes - above.nodes)
            left = None if deadline is None else deadline - time.monotonic()
            if room < 2 or left is not None and left <= 0:
                break
            walked = _follow(problem, children[0], heuristic, engine, room, left)
            if walked is None:
                break                   # the tree branches (or a solution) within reach
            children, s = walked
            add(above, *counts(s))
            key, stride = (*key, 0), 2 * stride
        if not children:
            done += weight                              # a dead end (or a clash)
            continue
        share = weight / len(children)
        rank = -share if depth is None else float(len(piece) + 1 - base)
        for j, child in enumerate(children):
            heapq.heappush(heap, (rank, (*key, j), child, share))
    entries = kept + [Entry(key, piece, weight) for _, key, piece, weight in heap]
    entries.sort()
    return Cut(entries, above, done, whole)


def split(
    problem: ExactCover,
    pieces: int | None = None,
    *,
    depth: int | None = None,
    forced: Iterable[Hashable] = (),
    heuristic: HeuristicName | Heuristic | None = None,
    stats: Stats | None = None,
    engine: Engine | None = None,
) -> list[Piece]:
    """Cut the serial search tree into pieces: a list of tuples of forced options.

    Each piece is the path (option labels) to a node of the serial search's tree,
    found with the same ``heuristic``; searching each alone with ``forced=piece``
    and adding up gives the serial search's count, and their nodes, updates and
    profile plus those of the nodes above them (``stats``) give the serial
    search's.  The pieces come in search order.

    Parameters
    ----------
    problem : ExactCover
    pieces : int or None
        About how many pieces (default 64): the pieces that look biggest are cut
        further first (a child's share of its parent is one over the number of its
        siblings).  Fewer when the tree is smaller; a few more when the last node
        cut had many children.
    depth : int or None
        Instead, every node this many levels below the root (solutions and dead
        ends above that depth end their branch).
    forced : labels
        Split the subtree below these options instead of the whole tree.
    heuristic, engine
        As for every view (:mod:`dlx.options`).
    stats : Stats or None
        Filled with the counts of the nodes above the pieces (the dead ends there
        included): their sum with the pieces' counts is the whole search's.

    Examples
    --------
    >>> import dlx
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"], "z": ["a"]})
    >>> dlx.split(p, depth=1)        # item b has the fewest options
    [('y',), ('xy',)]
    >>> above = dlx.Stats()
    >>> pieces = dlx.split(p, pieces=10, stats=above)
    >>> pieces, above.nodes                     # the root and ('y',) are above the cut
    ([('y', 'x'), ('y', 'z'), ('xy',)], 2)
    >>> sum(dlx.count(p, forced=piece) for piece in pieces), dlx.count(p)
    (3, 3)
    """
    req = serial.Request(problem, Options.of("split", {"stats": stats, "heuristic": heuristic,
                                                       "forced": forced, "engine": engine}))
    if pieces is not None and depth is not None:
        raise ExactCoverError("give split() pieces= or depth=, not both")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                              or depth < 0):
        raise ExactCoverError(f"depth must be a whole number >= 0 or None, not {shown(depth)}")
    check_positive(pieces, "pieces")
    if pieces is None and depth is None:
        pieces = 64
    labels = req.links.labels
    root = tuple(labels[o] for o in req.forced)
    made = cut(problem, root, pieces=pieces, depth=depth, heuristic=heuristic, engine=engine)
    if stats is not None:
        stats.nodes = stats.updates = stats.solutions = 0
        stats.profile = []
        add(stats, *counts(made.above))
    return [e.piece for e in made.entries]


def shares(e: Entry, frontier: Sequence[Piece]) -> list[Entry]:
    """The frontier of piece ``e`` as entries: keys after the part of ``e`` already
    searched (``e.key + (0,)``), in order; shares by Knuth's estimate along the path
    where it stopped (each level's node counts as one more sibling of those left)."""
    base = len(e.piece)
    siblings = Counter(len(piece) - base for piece in frontier)
    share, at_level = e.weight, {}
    for level in range(1, max(siblings, default=0) + 1):
        share /= siblings[level] + 1
        at_level[level] = share
    return [Entry((*e.key, j + 1), piece, at_level[len(piece) - base])
            for j, piece in enumerate(frontier)]
