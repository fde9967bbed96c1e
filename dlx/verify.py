"""An independent checker: is a list of option labels an exact cover?

It shares no code with the search or the links: it just counts.

>>> from dlx.problem import ExactCover
>>> p = ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]})
>>> is_exact_cover(p, ["x", "z"]), is_exact_cover(p, ["x", "y"])
(True, False)
>>> why_not(p, ["x", "y"])
"item 'a' is covered twice (by options 'x' and 'y'), not once"
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from .errors import shown
from .problem import Colored, ExactCover

__all__ = ["is_exact_cover", "why_not"]


def why_not(problem: ExactCover, solution: Iterable[Hashable]) -> str | None:
    """None when ``solution`` is an exact cover of ``problem``, else the first reason why
    not, naming the item and the options of ``solution`` that break the rule.

    >>> p = ExactCover({"x": ["a", "s"], "y": ["a", "s"], "z": ["b"]}, secondary=["s"])
    >>> print(why_not(p, ["x"]))
    item 'b' is not covered (it must be covered once)
    >>> print(why_not(p, ["x", "x", "z"]))
    option 'x' is used twice
    >>> c = ExactCover({"x": ["a", Colored("s", "red")], "y": ["b", Colored("s", "blue")],
    ...                 "z": ["b", "s"]}, secondary=["s"])
    >>> print(why_not(c, ["x", "z"]))
    secondary item 's' is given a colour (by option 'x') and none (by option 'z')
    >>> print(why_not(c, ["x", "y"]))
    secondary item 's' is given different colours: 'blue' by option 'y', 'red' by option 'x'
    """
    labels = list(solution)
    if len(set(labels)) != len(labels):
        twice = next(label for label in labels if labels.count(label) > 1)
        return f"option {shown(twice)} is used {_times(labels.count(twice))}"
    users: dict[Hashable, list[Hashable]] = {}
    colors: dict[Hashable, dict[Hashable, list[Hashable]]] = {}     # item -> colour -> options
    for label in labels:
        if label not in problem.options:
            return f"{shown(label)} is not an option of the problem"
        for entry in problem.options[label]:
            if isinstance(entry, Colored):
                colors.setdefault(entry.item, {}).setdefault(entry.color, []).append(label)
                users.setdefault(entry.item, [])
            else:
                users.setdefault(entry, []).append(label)
    for item in problem.primary:
        by = users.get(item, [])
        u, v = problem.bound(item)
        if not u <= len(by) <= v:
            need = _times(u) if u == v else f"at most {_times(v)}" if u == 0 else \
                f"{u:,} to {v:,} times"
            if not by:
                return f"item {shown(item)} is not covered (it must be covered {need})"
            return f"item {shown(item)} is covered {_times(len(by))} ({_by(by)}), not {need}"
    for item in problem.secondary:
        plain = users.get(item, [])
        hues = colors.get(item, {})
        if len(plain) > 1:
            return (f"secondary item {shown(item)} is covered {_times(len(plain))}"
                    f" ({_by(plain)}); without a colour it may be covered at most once")
        if plain and hues:
            given = next(iter(hues.values()))
            return (f"secondary item {shown(item)} is given a colour ({_by(given[:1])}) and"
                    f" none ({_by(plain[:1])})")
        if len(hues) > 1:
            each = sorted(f"{shown(hue)} {_by(by[:1])}" for hue, by in hues.items())
            return f"secondary item {shown(item)} is given different colours: {', '.join(each)}"
    return None


def _times(n: int) -> str:
    """``once``, ``twice``, ``3 times``.

    >>> _times(1), _times(2), _times(0), _times(1000)
    ('once', 'twice', '0 times', '1,000 times')
    """
    return {1: "once", 2: "twice"}.get(n, f"{n:,} times")


def _by(labels: list[Hashable]) -> str:
    """``by option 'x'``, ``by options 'x' and 'y'``, ``by options 'x', 'y' and 'z'``
    (the first ten, then how many more)."""
    names = [shown(label) for label in labels[:10]]
    if len(labels) > 10:
        names[-1] = f"{len(labels) - 9:,} more"
    if len(names) == 1:
        return f"by option {names[0]}"
    return f"by options {', '.join(names[:-1])} and {names[-1]}"


def is_exact_cover(problem: ExactCover, solution: Iterable[Hashable]) -> bool:
    """True when ``solution`` covers every primary item once (or within its bounds) and every
    secondary item at most once (or with a single colour)."""
    return why_not(problem, solution) is None
