"""Named exact-cover instances with their known solution counts, for tests, demos and benches.

Each :class:`Instance` builds its problem on demand and knows how many solutions
it has (from OEIS, Knuth, or the puzzle literature).  ``size`` says how long the
pure-Python engine takes to count them on one core: ``"small"`` (well under a
second: unit tests and ``dlx demo``), ``"medium"`` (seconds) and ``"large"``
(a benchmark: tens of seconds or more).

>>> from problems import catalog
>>> inst = catalog.get("queens-8")
>>> inst.expected, inst.size
(92, 'small')
>>> import dlx
>>> dlx.count(inst.problem()) == inst.expected
True
>>> [i.name for i in catalog.instances("large")][:3]
['queens-13', 'queens-14', 'langford-12']
>>> inst.orbits, dlx.count(inst.problem(), up_to_symmetry=True)
(12, 12)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import NamedTuple

import dlx

from . import dominoes, langford, polyominoes, queens, rectangles

__all__ = ["Instance", "CATALOG", "get", "instances", "demo_entries", "ZOJ_SAMPLE"]

#: The three cases of ZOJ 3209's sample input, and their answers (fewest pieces).
ZOJ_SAMPLE = """3
5 5 1
0 0 5 5
5 5 2
0 0 3 5
2 0 5 5
30 30 5
0 0 30 10
0 10 30 20
0 20 30 30
0 0 15 30
15 0 30 30
"""


class Instance(NamedTuple):
    """A named problem: ``problem()`` builds it; it has ``expected`` solutions, and
    ``orbits`` of them up to its symmetries (``dlx.count(..., up_to_symmetry=True)``)
    where that number is published (None otherwise)."""

    name: str
    problem: Callable[[], dlx.ExactCover]
    expected: int
    size: str
    source: str
    demo: bool = False
    orbits: int | None = None


def _toy() -> dlx.ExactCover:
    return dlx.ExactCover({"c e": ["c", "e"], "a d g": ["a", "d", "g"], "b c f": ["b", "c", "f"],
                           "a d f": ["a", "d", "f"], "b g": ["b", "g"], "d e g": ["d", "e", "g"]})


def _build() -> dict[str, Instance]:
    out: list[Instance] = [Instance("toy", _toy, 1, "small", "Knuth, TAOCP 7.2.2.1 (6)", True)]
    for n, c in enumerate(queens.COUNTS[1:], 1):
        size = "small" if n <= 10 else "medium" if n <= 12 else "large"
        out.append(Instance(f"queens-{n}", partial(queens.encode, n), c, size,
                            "OEIS A000170 (up to symmetry: A002562)", n == 8,
                            queens.ORBITS[n]))
    for n, c in langford.COUNTS.items():
        size = "small" if n <= 10 else "medium" if n == 11 else "large"
        out.append(Instance(f"langford-{n}", partial(langford.encode, n), c, size,
                            "OEIS A014552 (times 2: both mirror images)", n == 8, c // 2))
        out.append(Instance(f"langford-{n}-reduced", partial(langford.encode, n, reduce=True),
                            c // 2, size, "the same, one of each mirror-image pair"))
    for (r, c), k, size in [((2, 2), 2, "small"), ((4, 4), 36, "small"),
                            ((6, 6), 6728, "small"), ((6, 8), 167089, "medium"),
                            ((8, 8), 12988816, "large")]:
        out.append(Instance(f"dominoes-{r}x{c}", partial(dominoes.encode, r, c), k, size,
                            "OEIS A004003 / A099390", (r, c) == (6, 6)))
    for (r, c), total, size in [((3, 20), 8, "medium"), ((4, 15), 1472, "large"),
                                ((5, 12), 4040, "large"), ((6, 10), 9356, "large")]:
        out.append(Instance(f"pentominoes-{r}x{c}", partial(polyominoes.encode, rows=r, cols=c),
                            total, size, "Haselgrove 1960; Knuth, Dancing Links (2000)",
                            orbits=total // 4))
        out.append(Instance(f"pentominoes-{r}x{c}-reduced",
                            partial(polyominoes.encode, rows=r, cols=c, reduce=True),
                            total // 4, size, "the same, one tiling per family of 4 reflections",
                            (r, c) == (3, 20)))
    sample = list(rectangles.read_cases(ZOJ_SAMPLE.splitlines(keepends=True)))[2]
    out.append(Instance("rectangles-zoj3209-sample",
                        partial(rectangles.encode, sample.n, sample.m, sample.pieces), 2, "small",
                        "ZOJ 3209 sample case 3 (answer: 2 pieces)", True))
    return {i.name: i for i in out}


#: Every instance by name.
CATALOG: dict[str, Instance] = _build()


def get(name: str) -> Instance:
    """The instance called ``name`` (KeyError listing the names otherwise)."""
    try:
        return CATALOG[name]
    except KeyError:
        raise KeyError(f"no instance {name!r}; known: {', '.join(CATALOG)}") from None


def instances(size: str | None = None) -> list[Instance]:
    """The instances of one size ("small", "medium", "large"), or all of them."""
    if size not in (None, "small", "medium", "large"):
        raise ValueError(f"size must be 'small', 'medium', 'large' or None, not {size!r}")
    return [i for i in CATALOG.values() if size is None or i.size == size]


def demo_entries() -> Iterator[tuple[str, dlx.ExactCover, int]]:
    """(name, problem, expected count) for the few instances ``dlx demo`` counts."""
    for inst in CATALOG.values():
        if inst.demo:
            yield inst.name, inst.problem(), inst.expected
