"""The patterns of givens a generated puzzle may have: orbits of the grid's cells.

>>> orbits(3, "rot180")
((0, 8), (1, 7), (2, 6), (3, 5), (4,))
"""

from __future__ import annotations

from functools import lru_cache

from .errors import SudokuError, _shown, whole
from .shapes import MAX_SIZE

__all__ = ["SYMMETRIES", "orbits"]

#: The symmetries of the pattern of givens :func:`generate` knows.
SYMMETRIES: tuple[str, ...] = ("none", "rot180", "rot90", "mirror", "diagonal", "antidiagonal")

def orbits(n: int, symmetry: str | None) -> tuple[tuple[int, ...], ...]:
    """The cells of an N x N grid (row-major numbers) grouped in orbits of ``symmetry``.

    ``rot180``: a half turn; ``rot90``: quarter turns; ``mirror``: left-right;
    ``diagonal``: the main diagonal (transpose); ``antidiagonal``; ``none`` or None.

    >>> orbits(3, "rot180")
    ((0, 8), (1, 7), (2, 6), (3, 5), (4,))
    >>> orbits(2, "rot90")
    ((0, 1, 2, 3),)
    """
    whole(n, "n", low=1, high=MAX_SIZE)
    name = "none" if symmetry is None else symmetry
    if not isinstance(name, str) or name not in SYMMETRIES:
        raise SudokuError(f"unknown symmetry {_shown(symmetry)}; use one of"
                          f" {', '.join(SYMMETRIES)}")
    return _orbits(n, name)


@lru_cache(maxsize=64)
def _orbits(n: int, name: str) -> tuple[tuple[int, ...], ...]:
    """The orbits of :func:`orbits` (its arguments checked)."""
    m = n - 1

    def images(r: int, c: int) -> list[tuple[int, int]]:
        if name == "rot180":
            return [(m - r, m - c)]
        if name == "rot90":
            return [(c, m - r), (m - r, m - c), (m - c, r)]
        if name == "mirror":
            return [(r, m - c)]
        if name == "diagonal":
            return [(c, r)]
        if name == "antidiagonal":
            return [(m - c, m - r)]
        return []

    seen: set[int] = set()
    out: list[tuple[int, ...]] = []
    for i in range(n * n):
        if i in seen:
            continue
        r, c = divmod(i, n)
        orbit = {i} | {a * n + b for a, b in images(r, c)}
        seen |= orbit
        out.append(tuple(sorted(orbit)))
    return tuple(out)
