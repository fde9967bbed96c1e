"""Permutation groups on ``0 .. n-1``: what :mod:`dlx.symmetry` computes with.

A permutation is a tuple ``p`` with ``p[i]`` the image of ``i``; ``compose(p, q)``
is ``p`` after ``q``.  A group is given by generators.  Its order comes from
Schreier and Sims's stabiliser chain (:func:`order`), which works for groups of
any size; the other functions list a group's elements (:func:`closure`), which
is meant for the small groups that symmetry-aware counting walks through.

>>> r = (1, 2, 3, 0)                # a quarter turn of the square's corners
>>> f = (3, 2, 1, 0)                # a reflection
>>> order([r, f], 4), len(closure([r, f], 4))
(8, 8)
>>> orbits([(1, 0, 2, 3)], 4)
[[0, 1], [2], [3]]
>>> [len(c) for c in conjugacy_classes(closure([r, f], 4), [r, f])]
[1, 2, 2, 1, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

__all__ = ["Perm", "identity", "compose", "inverse", "is_identity", "closure", "order",
           "orbits", "conjugacy_classes", "TooLarge"]

#: A permutation of ``0 .. n-1``: entry ``i`` is the image of ``i``.
Perm = tuple[int, ...]


class TooLarge(Exception):
    """A group has more elements than the caller allowed (:func:`closure`'s ``cap``)."""


def identity(n: int) -> Perm:
    return tuple(range(n))


def compose(p: Perm, q: Perm) -> Perm:
    """``p`` after ``q``: ``i -> p[q[i]]``."""
    return tuple([p[j] for j in q])


def inverse(p: Perm) -> Perm:
    out = [0] * len(p)
    for i, j in enumerate(p):
        out[j] = i
    return tuple(out)


def is_identity(p: Sequence[int]) -> bool:
    return all(i == j for i, j in enumerate(p))


def closure(gens: Iterable[Perm], n: int, cap: int | None = None) -> list[Perm]:
    """Every element of the group the generators make, the identity first, then in
    the order a breadth-first walk over the generators meets them; :class:`TooLarge`
    when there are more than ``cap``."""
    gens = [g for g in gens if not is_identity(g)]
    one = identity(n)
    seen = {one}
    out = [one]
    k = 0
    while k < len(out):
        g = out[k]
        k += 1
        for s in gens:
            h = compose(s, g)
            if h not in seen:
                seen.add(h)
                out.append(h)
                if cap is not None and len(out) > cap:
                    raise TooLarge(len(out))
    return out


def orbits(gens: Iterable[Sequence[int]], n: int) -> list[list[int]]:
    """The orbits of ``0 .. n-1`` under the generators, each sorted, in order of their
    least points."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for g in gens:
        for i, j in enumerate(g):
            a, b = root(i), root(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def conjugacy_classes(elements: Sequence[Perm], gens: Sequence[Perm]) -> list[list[Perm]]:
    """The conjugacy classes of the group whose ``elements`` are listed (made by
    ``gens``), in order of their first elements: a class is closed under
    ``g -> s g s^-1`` for each generator ``s``."""
    pairs = [(s, inverse(s)) for s in gens]
    done: set[Perm] = set()
    out: list[list[Perm]] = []
    for g in elements:
        if g in done:
            continue
        done.add(g)
        cls = [g]
        k = 0
        while k < len(cls):
            h = cls[k]
            k += 1
            for s, t in pairs:
                c = compose(s, compose(h, t))
                if c not in done:
                    done.add(c)
                    cls.append(c)
        out.append(cls)
    return out


def _orbit(point: int, gens: Sequence[Perm], n: int) -> dict[int, Perm]:
    """The orbit of ``point`` under ``gens``, with a transversal: for each point of the
    orbit, an element of the group taking ``point`` there."""
    found = {point: identity(n)}
    todo = [point]
    while todo:
        b = todo.pop()
        u = found[b]
        for s in gens:
            c = s[b]
            if c not in found:
                found[c] = compose(s, u)
                todo.append(c)
    return found


def _moved(g: Perm) -> int:
    return next(i for i, j in enumerate(g) if i != j)


def order(gens: Iterable[Perm], n: int) -> int:
    """The number of elements of the group the generators make: the product of the
    orbit sizes along a stabiliser chain (Schreier and Sims's algorithm in its
    deterministic form, as in Holt's Handbook of Computational Group Theory, 4.4.2:
    every Schreier generator of every level is sifted through the levels below it)."""
    strong = [g for g in gens if not is_identity(g)]
    base: list[int] = []
    for g in strong:
        if all(g[b] == b for b in base):
            base.append(_moved(g))
    # level k: the strong generators fixing base[:k], and the orbit of base[k]
    level_gens = [[g for g in strong if all(g[b] == b for b in base[:k])]
                  for k in range(len(base))]
    level_orbit = [_orbit(base[k], level_gens[k], n) for k in range(len(base))]

    def sift(g: Perm, start: int) -> tuple[Perm, int]:
        for k in range(start, len(base)):
            u = level_orbit[k].get(g[base[k]])
            if u is None:
                return g, k
            g = compose(inverse(u), g)
        return g, len(base)

    k = len(base) - 1
    while k >= 0:
        new = _schreier_failure(k, base, level_gens, level_orbit, sift)
        if new is None:
            k -= 1
            continue
        rest, j = new
        if j == len(base):
            base.append(_moved(rest))
            level_gens.append([])
            level_orbit.append({})
        for m in range(k + 1, j + 1):
            level_gens[m].append(rest)
            level_orbit[m] = _orbit(base[m], level_gens[m], n)
        k = j
    total = 1
    for found in level_orbit:
        total *= len(found)
    return total


def _schreier_failure(k: int, base: list[int], level_gens: list[list[Perm]],
                      level_orbit: list[dict[int, Perm]],
                      sift: Callable[[Perm, int], tuple[Perm, int]]
                      ) -> tuple[Perm, int] | None:
    """A Schreier generator of level ``k`` that does not sift to the identity through
    the levels below (what is left of it and where it stopped), or None when the
    level is complete."""
    found = level_orbit[k]
    for u in list(found.values()):
        for s in level_gens[k]:
            su = compose(s, u)
            h = compose(inverse(found[su[base[k]]]), su)
            if is_identity(h):
                continue
            rest, j = sift(h, k + 1)
            if not is_identity(rest):
                return rest, j
    return None
