"""Counting by caching (Knuth's DLX6): the cache of counts below partial solutions.

:class:`Memo` maps a signature of what is left to solve to the number of
solutions below it; :class:`SignedDance` keeps that signature up to date as the
dance covers and purifies items.  :func:`dlx.count` with ``cache=`` uses it.
"""

from __future__ import annotations

from .dance import Dance
from .links import Links

__all__ = ["Memo", "SignedDance", "CacheFullWarning", "ENTRY_BYTES"]


class CacheFullWarning(UserWarning):
    """A counting cache reached its size limit and stores nothing more (the count goes
    on, right but slower)."""


class Memo:
    """The cache of counting by caching (Knuth's DLX6): the number of solutions below
    each partial solution, keyed by what is left to solve.

    What is left is fixed by the uncovered primary items, the uncovered secondary
    items and the colours given to them: those decide which options remain.  Two
    partial solutions that leave the same have as many completions, so the search
    below the second is skipped.

    A key is a 128-bit *signature* of what is left, not a list of it, so that every
    entry has the same small size whatever the depth (a list would cost O(items)
    per entry, and a deep search O(depth**2) in all).  Without bounds it is Zobrist's:
    the XOR of a random 128-bit number per uncovered item and per colour given,
    kept up to date by :class:`SignedDance` as items are covered and purified, so a
    key costs O(1).  Two different states share a signature with probability
    2**-128 per pair: below 2**-80 for any cache that fits in memory.  At most
    ``limit`` entries are kept (then a :class:`CacheFullWarning`, and no more are
    stored); each costs at most :data:`ENTRY_BYTES`.
    """

    def __init__(self, links: Links, limit: int) -> None:
        self.table: dict[int | bytes, int] = {}
        self.limit = limit
        self.full = False

    def dance(self, links: Links) -> Dance:
        """The dance of a search that uses this cache: one that keeps the signature."""
        return Dance(links) if links.multi else SignedDance(links)

    def key(self, dance: Dance) -> int | bytes:
        """What is left, as a signature: the uncovered items and the colours given to
        them (a purified item's header holds its colour, as in Knuth's DLX6: the colour
        decides which options remain even when none of its own are left).

        With bounds (Algorithm M, which DLX6 does not have), also how many more times
        each uncovered primary item may be covered, and which options are left:
        there the uncovered items do not decide them, since an option tried at a
        level leaves the lists of the options tried after it.  That key is read off
        the links and digested (BLAKE2b, 128 bits), so it costs O(what is left) time
        but still a fixed size."""
        if isinstance(dance, SignedDance):
            return dance.signature
        t = dance.links
        RL, COLOR, D, OPT, BOUND = t.RLINK, t.COLOR, t.DLINK, t.OPT, t.BOUND
        parts: list[int] = []
        options: set[int] = set()
        j = RL[0]
        while j != 0:
            parts += (j, BOUND[j])
            q = D[j]
            while q != j:
                options.add(OPT[q])
                q = D[q]
            j = RL[j]
        parts.append(-1)
        head = t.N + 1
        j = RL[head]
        while j != head:
            parts += (j, COLOR[j])
            j = RL[j]
        parts.append(-1)
        parts += sorted(options)
        return _digest(parts)

    def store(self, key: int | bytes, count: int) -> None:
        if len(self.table) < self.limit:
            self.table[key] = count
        elif not self.full:
            self.full = True
            import warnings

            warnings.warn(f"the counting cache is full ({self.limit:,} entries): the count"
                          " goes on without storing more (raise cache= to store more)",
                          CacheFullWarning, stacklevel=4)


#: The most memory one cache entry takes: a dict slot, a 128-bit key, a count.
ENTRY_BYTES = 200


def _digest(parts: list[int]) -> bytes:
    """A 128-bit digest of a list of ints (BLAKE2b)."""
    import hashlib
    from array import array

    return hashlib.blake2b(array("q", parts).tobytes(), digest_size=16).digest()


class SignedDance(Dance):
    """The dance steps, keeping Zobrist's signature of the uncovered items and the
    colours given to them (:class:`Memo`): ``signature`` is the XOR of ``ITEM[i]``
    for every item i in the item list and of ``hue(i, c)`` for every secondary item i
    purified with colour c.  In Algorithm C the item list changes only in ``cover``
    and ``uncover``, and colours only in ``purify`` and ``unpurify``, so those four
    keep it.  Algorithm C only (with bounds, Memo reads the links)."""

    __slots__ = ("signature", "ITEM", "HUE", "rng")

    def __init__(self, links: Links) -> None:
        super().__init__(links)
        import random

        self.rng = random.Random(0x5EED)
        self.ITEM = [self.rng.getrandbits(128) for _ in range(links.N + 1)]
        self.HUE: dict[tuple[int, int], int] = {}
        self.signature = 0
        RL, head = links.RLINK, links.N + 1
        for first, end in ((RL[0], 0), (RL[head], head)):      # primary, then secondary
            i = first
            while i != end:
                self.signature ^= self.ITEM[i]
                i = RL[i]

    def hue(self, i: int, color: int) -> int:
        """The random number of item i purified with colour ``color``."""
        z = self.HUE.get((i, color))
        if z is None:
            z = self.HUE[i, color] = self.rng.getrandbits(128)
        return z

    def cover(self, i: int) -> None:
        super().cover(i)
        self.signature ^= self.ITEM[i]              # i left the item list

    def uncover(self, i: int, relink: bool = True) -> None:
        super().uncover(i, relink)
        if relink:
            self.signature ^= self.ITEM[i]

    def purify(self, p: int) -> None:
        super().purify(p)
        self.signature ^= self.hue(self.TOP[p], self.COLOR[self.TOP[p]])

    def unpurify(self, p: int) -> None:
        i = self.TOP[p]
        self.signature ^= self.hue(i, self.COLOR[i])
        super().unpurify(p)
