"""An independent checker: is a list of option labels an exact cover?

It shares no code with the search or the links: it just counts.

>>> from dlx.problem import ExactCover
>>> p = ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]})
>>> is_exact_cover(p, ["x", "z"]), is_exact_cover(p, ["x", "y"])
(True, False)
>>> why_not(p, ["x", "y"])
"item 'a' is covered 2 times (by 'x', 'y'), not once"
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from .errors import shown
from .problem import Colored, ExactCover

__all__ = ["is_exact_cover", "why_not"]


def why_not(problem: ExactCover, solution: Iterable[Hashable]) -> str | None:
    """None when ``solution`` is an exact cover of ``problem``, else the first reason why not."""
    labels = list(solution)
    if len(set(labels)) != len(labels):
        return "an option is used twice"
    users: dict[Hashable, list[Hashable]] = {}
    colors: dict[Hashable, set[Hashable]] = {}
    for label in labels:
        if label not in problem.options:
            return f"{shown(label)} is not an option of the problem"
        for entry in problem.options[label]:
            if isinstance(entry, Colored):
                colors.setdefault(entry.item, set()).add(entry.color)
                users.setdefault(entry.item, [])
            else:
                users.setdefault(entry, []).append(label)
    for item in problem.primary:
        n = len(users.get(item, ()))
        u, v = problem.bound(item)
        if not u <= n <= v:
            by = ", ".join(repr(u) for u in users.get(item, ()))
            need = "once" if (u, v) == (1, 1) else f"{u} to {v} times" if u < v else f"{u} times"
            return (f"item {shown(item)} is covered {n} times" + (f" (by {by})" if by else "")
                    + f", not {need}")
    for item in problem.secondary:
        plain = users.get(item, [])
        hues = colors.get(item, set())
        if len(plain) > 1:
            by = ", ".join(repr(u) for u in plain)
            return f"item {shown(item)} is covered {len(plain)} times (by {by})"
        if plain and hues:
            return f"secondary item {shown(item)} is used both with and without a colour"
        if len(hues) > 1:
            return f"secondary item {shown(item)} gets different colours {sorted(map(repr, hues))}"
    return None


def is_exact_cover(problem: ExactCover, solution: Iterable[Hashable]) -> bool:
    """True when ``solution`` covers every primary item once (or within its bounds) and every
    secondary item at most once (or with a single colour)."""
    return why_not(problem, solution) is None
