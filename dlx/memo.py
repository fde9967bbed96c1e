"""Counting by caching (Knuth's DLX6): the cache of counts below partial solutions.

:class:`Memo` maps a signature of what is left to solve to the number of
solutions below it; :class:`SignedDance` keeps that signature up to date as the
dance covers and purifies items.  :func:`dlx.count` with ``cache=`` uses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dance import Dance
from .links import Links

if TYPE_CHECKING:
    from .zdd import ZDDBuilder

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

    def __init__(self, links: Links, limit: int, diagram: ZDDBuilder | None = None) -> None:
        self.table: dict[int | bytes, int] = {}
        self.limit = limit
        self.full = False
        # (dlx.zdd) the builder of the diagram of all solutions, the diagram of each
        # state stored, and the last one finished (the root's, when the search is over)
        self.diagram = diagram
        self.nodes: dict[int | bytes, int] = {}
        self.last = 0

    def dance(self, links: Links) -> Dance:
        """The dance of a search that uses this cache: one that keeps the signature."""
        return Dance(links) if links.multi else SignedDance(links)

    def key(self, dance: Dance) -> int | bytes:
        """What is left, as a signature: the uncovered primary items, and the uncovered
        secondary items that some option left still uses, with the colours given to
        them (a purified item's header holds its colour, as in Knuth's DLX6: the
        colour decides which options remain even when none of its own are left).  A
        secondary item no option left uses is left out, as DLX6 leaves it out: it
        can no longer tell two states apart.

        With bounds (Algorithm M, which DLX6 does not have), also how many more times
        each uncovered primary item may be covered, and which options are left:
        there the uncovered items do not decide them, since an option tried at a
        level leaves the lists of the options tried after it.  That key is read off
        the links and digested (BLAKE2b, 128 bits), so it costs O(what is left) time
        but still a fixed size."""
        t = dance.links
        RL, COLOR, D = t.RLINK, t.COLOR, t.DLINK
        head = t.N + 1
        if isinstance(dance, SignedDance):
            key = dance.signature
            j = RL[head]
            while j != head:
                if _used(t, j):
                    key ^= dance.hue(j, COLOR[j])
                j = RL[j]
            return key
        OPT, BOUND = t.OPT, t.BOUND
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
        j = RL[head]
        while j != head:
            if _used(t, j):
                parts += (j, COLOR[j])
            j = RL[j]
        parts.append(-1)
        parts += sorted(options)
        return _digest(parts)

    def store(self, key: int | bytes, count: int, node: int | None = None) -> None:
        if len(self.table) < self.limit:
            self.table[key] = count
            if node is not None:
                self.nodes[key] = node
        elif not self.full:
            self.full = True
            import warnings

            warnings.warn(f"the counting cache is full ({self.limit:,} entries): the count"
                          " goes on without storing more (raise cache= to store more)",
                          CacheFullWarning, stacklevel=4)


#: The most memory one cache entry takes: a dict slot, a 128-bit key, a count.
ENTRY_BYTES = 200


def _used(t: Links, j: int) -> bool:
    """Does some option left use secondary item j?  (DLX6 keeps this as j's LEN.)  An
    unpurified item's list holds only options left (a hidden option's nodes leave
    it); a purified item's list keeps the nodes of its colour, purified, whose options
    may have gone since (their nodes outside purified items are unlinked, and their
    primary items covered or unlinked)."""
    D = t.DLINK
    if t.COLOR[j] == 0:
        return D[j] != j
    q = D[j]
    while q != j:
        if t.COLOR[q] < 0 and _left(t, q):
            return True
        q = D[q]
    return False


def _left(t: Links, q: int) -> bool:
    """Is the option of node q still left: every primary item of it uncovered, and its
    nodes there still in their lists?"""
    U, D, RL, LL, TOP, n1 = t.ULINK, t.DLINK, t.RLINK, t.LLINK, t.TOP, t.N1
    for r in t.ROW[q]:
        i = TOP[r]
        if i <= n1 and (D[U[r]] != r or RL[LL[i]] != i):
            return False
    return True


def _digest(parts: list[int]) -> bytes:
    """A 128-bit digest of a list of ints (BLAKE2b).  Ints past 64 bits (a bound of
    2**64: the pure engine takes any) are written whole, each after its length, and
    digested under another personalisation, so that no list of them shares its
    bytes with a list of 64-bit ints.

    >>> _digest([1, 2]) != _digest([1, 2**64]) != _digest([1, 2**64 + 1])
    True
    """
    import hashlib
    from array import array

    try:
        return hashlib.blake2b(array("q", parts).tobytes(), digest_size=16).digest()
    except OverflowError:
        pass
    data = bytearray()
    for n in parts:
        size = n.bit_length() // 8 + 1
        data += size.to_bytes(8, "little")
        data += n.to_bytes(size, "little", signed=True)
    return hashlib.blake2b(bytes(data), digest_size=16, person=b"dlx big ints").digest()


class SignedDance(Dance):
    """The dance steps, keeping Zobrist's signature of the uncovered primary items
    (:class:`Memo`): ``signature`` is the XOR of ``ITEM[i]`` for every primary item i
    in the item list.  In Algorithm C that list changes only in ``cover`` and
    ``uncover``, so those two keep it.  (The secondary items and their colours are
    read off the links when a key is made: an item counts only while some option
    uses it.)  Algorithm C only (with bounds, Memo reads the whole key off the links)."""

    __slots__ = ("signature", "ITEM", "HUE", "rng")

    def __init__(self, links: Links) -> None:
        super().__init__(links)
        import random

        self.rng = random.Random(0x5EED)
        self.ITEM = [self.rng.getrandbits(128) for _ in range(links.N1 + 1)]
        self.HUE: dict[tuple[int, int], int] = {}
        self.signature = 0
        RL = links.RLINK
        i = RL[0]
        while i != 0:
            self.signature ^= self.ITEM[i]
            i = RL[i]

    def hue(self, i: int, color: int) -> int:
        """The random number of secondary item i with colour ``color`` (0: none)."""
        z = self.HUE.get((i, color))
        if z is None:
            z = self.HUE[i, color] = self.rng.getrandbits(128)
        return z

    def cover(self, i: int) -> None:
        super().cover(i)
        if i <= self.N1:
            self.signature ^= self.ITEM[i]          # i left the item list

    def uncover(self, i: int, relink: bool = True) -> None:
        super().uncover(i, relink)
        if relink and i <= self.N1:
            self.signature ^= self.ITEM[i]
