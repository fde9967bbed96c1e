"""The oracles the engine tests check against, in one place: each finds the answer
with no dancing links, sharing no code with the search.

* :func:`brute_force`: every subset of options that is an exact cover, checked by
  the independent verifier :func:`dlx.is_exact_cover` (bounds and colours too).
* :func:`plain_tree`: the *search tree* of Algorithm C on Python sets, choosing items
  by the engines' rule; its solutions, node counts and per-level profile are what
  both engines must report.
* :func:`reference_solutions`: a dict-of-sets Algorithm X (``dlx.reference``, also
  notebook 01's), solutions as frozensets.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable

import dlx
from dlx.reference import reference_solutions

__all__ = ["brute_force", "plain_tree", "reference_solutions"]


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
