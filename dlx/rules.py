"""The choice rules of step X3 (M3): which item to branch on, one table.

Each :class:`Rule` is one entry of :data:`RULES`: its name (what ``heuristic=``
and ``--heuristic`` take), its chooser in the pure engine (:mod:`dlx.dance`; one
for problems with bounds on items, Algorithm M's, when it works there), its code
in the compiled core (``dlx/_core/choose.h``'s ``H_`` codes, whose chooser has the
same name), what it needs of the problem, and a line saying what it does.
Everything else reads this table: the check of ``heuristic=``
(:class:`dlx.options.Options`), the command line's choices and help, the search's
:func:`dlx.search.chooser`, :func:`dlx.estimate`, and what :mod:`dlx.engine`
hands the core.  Adding a rule is an entry here and its two choosers, one in
``dlx/dance.py`` and one in ``dlx/_core/choose.h`` (its code in the ``H_`` enum,
in the order of this table), held to each other by the parity tests.

>>> for r in RULES.values():
...     print(f"{r.name:10} {r.code}  {r.about}")
mrv        0  fewest options left (Knuth's MRV; under bounds, Algorithm M's least degree)
first      1  the first item left
sharp      2  mrv among the items named #... (Knuth's dlx2-sharp), others only when forced
weighted   3  fewest options per weight, an item's weight growing at its dead ends (SSXCC, SSMCC)
mrv-random 4  mrv, its ties and each item's first option drawn at random (from the seed)
>>> rule("weighted").needs, rule("mrv-random").needs, rule("sharp").bounded is not None
((), ('seed',), True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from .dance import (
    RandomTies,
    RandomTiesBounded,
    Weighted,
    WeightedBounded,
    choose_bounded,
    choose_bounded_sharp,
    choose_first,
    choose_mrv,
    choose_sharp,
)
from .errors import ExactCoverError, shown
from .links import Links

__all__ = ["Rule", "RULES", "HeuristicName", "rule", "names", "draws", "DEFAULT",
           "RESTARTS"]

#: A chooser of X3: a function of the links giving the item to branch on, or a class
#: made once per search (it keeps state: weights, random numbers).
Chooser: TypeAlias = Callable[[Links], int] | type

#: The names of the rules, for type checkers (the same as :data:`RULES`' keys: a test
#: holds them together).
HeuristicName: TypeAlias = Literal["mrv", "first", "sharp", "weighted", "mrv-random"]

#: What a rule may need, and what each means.
NEEDS = {
    "sharp": "the items named #... (Links.sharp; without any, it is mrv)",
    "seed": "a seed for its random draws (seed=; 0 when None)",
}


@dataclass(frozen=True)
class Rule:
    """One choice rule: its name, its choosers, its code in the core, what it needs."""

    name: HeuristicName
    code: int                   # choose.h's H_ code
    plain: Chooser              # without bounds (dlx.dance)
    bounded: Chooser | None     # under bounds (Algorithm M); None: not there
    needs: tuple[str, ...]      # keys of NEEDS
    about: str                  # one line: what it chooses

    def check(self, links: Links) -> None:
        """ExactCoverError when this rule cannot choose in a search of ``links``."""
        if links.multi and self.bounded is None:
            fit = ", ".join(repr(r.name) for r in RULES.values() if r.bounded is not None)
            raise ExactCoverError(f"heuristic={self.name!r} is for problems without bounds"
                                  f" on items; use one of {fit}")

    def chooser(self, links: Links, seed: int = 0) -> Callable[[Links], int]:
        """The chooser of a search of ``links`` (a new one for a rule that keeps state;
        ``seed`` starts its random draws)."""
        self.check(links)
        made = self.bounded if links.multi else self.plain
        if not isinstance(made, type):
            return made  # type: ignore[return-value]
        return made(links, seed) if "seed" in self.needs else made(links)  # type: ignore[no-any-return]

    def core_keywords(self, links: Links, seed: int | None = None) -> dict[str, Any]:
        """What the core's ``Search`` (with the ``seed`` of its draws) and
        ``Table.estimate`` (which draws from its own) take for this rule."""
        self.check(links)
        keywords: dict[str, Any] = {"heuristic": self.code}
        if seed is not None:
            keywords["seed"] = seed
        if "sharp" in self.needs:
            keywords["sharp"] = bytes(links.sharp())
        return keywords


RULES: dict[str, Rule] = {r.name: r for r in (
    Rule("mrv", 0, choose_mrv, choose_bounded, (),
         "fewest options left (Knuth's MRV; under bounds, Algorithm M's least degree)"),
    Rule("first", 1, choose_first, choose_first, (), "the first item left"),
    Rule("sharp", 2, choose_sharp, choose_bounded_sharp, ("sharp",),
         "mrv among the items named #... (Knuth's dlx2-sharp), others only when forced"),
    Rule("weighted", 3, Weighted, WeightedBounded, (),
         "fewest options per weight, an item's weight growing at its dead ends (SSXCC, SSMCC)"),
    Rule("mrv-random", 4, RandomTies, RandomTiesBounded, ("seed",),
         "mrv, its ties and each item's first option drawn at random (from the seed)"),
)}

#: The rule of ``heuristic=None``.
DEFAULT = RULES["mrv"]

#: The rule randomised restarts choose by (:mod:`dlx.restarts`).
RESTARTS = RULES["mrv-random"]


def rule(name: str | None) -> Rule:
    """The rule named ``name`` (None: the default); ExactCoverError naming the rules
    for any other name."""
    if name is None:
        return DEFAULT
    found = RULES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ExactCoverError(f"unknown heuristic {shown(name)}: use one of {names()}")
    return found


def names() -> str:
    """The rules' names, quoted, for messages: ``'mrv', 'first', ...``."""
    return ", ".join(repr(n) for n in RULES)


def draws(seed: int | None) -> int:
    """The 64-bit seed of a search's random draws, from ``seed=`` (0 when None)."""
    return 0 if seed is None else seed & ((1 << 64) - 1)

