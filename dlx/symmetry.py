"""The symmetries of an exact-cover problem: :func:`symmetries` and :class:`Symmetries`.

A *symmetry* (an automorphism) of a problem is a permutation of its options and a
permutation of its items that keep everything the search reads: an option holds an
item exactly when its image holds the item's image; primary items go to primary
items with the same bounds, secondary items to secondary items; options go to
options of the same cost; and options that give an item the same colour go to
options that give the image item the same colour (colours may be renamed, item by
item: which options agree is what counts).  A symmetry maps every solution to a
solution, so the solutions fall into *orbits*, the sets of solutions that the
symmetries map onto each other.

:func:`symmetries` finds the group of all of them with nauty (through ``pynauty``,
the ``symmetry`` extra), on the problem's incidence graph: a vertex per option and
per item, and one per colour an item takes, coloured by kind, bounds and costs.
Or give the generators yourself (a board's turns and flips, say): each is checked
to be a symmetry, and nauty is not needed.

>>> import dlx
>>> p = dlx.ExactCover({"ab": ["a", "b"], "bc": ["b", "c"], "cd": ["c", "d"],
...                     "da": ["d", "a"]})          # the 4 sides of a square's corners
>>> flip = {"ab": "cd", "bc": "bc", "cd": "ab", "da": "da"}
>>> turn = {"ab": "bc", "bc": "cd", "cd": "da", "da": "ab"}
>>> g = dlx.symmetries(p, generators=[turn, flip])
>>> g.order, g.option_orbits
(8, [('ab', 'bc', 'cd', 'da')])
>>> g.images(("ab", "cd"))
[('ab', 'cd'), ('bc', 'da')]
>>> g.canonical(("da", "bc"))
('ab', 'cd')
>>> dlx.count(p), dlx.count(p, up_to_symmetry=True, symmetry=g)
(2, 1)

:class:`Symmetries` lists its elements only for groups of at most
:data:`MAX_ELEMENTS` (counting up to symmetry walks through them); its order,
generators and orbits are known for a group of any size.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from . import perms
from .errors import ExactCoverError, shown
from .perms import Perm
from .problem import Colored, ExactCover

__all__ = ["Symmetries", "symmetries", "MAX_ELEMENTS", "Element"]

#: The largest group whose elements are listed (counting up to symmetry and counting
#: by symmetry walk through them).
MAX_ELEMENTS = 10_000

#: A symmetry as the search uses it: the images of the option indices and of the
#: item indices (primary items, then secondary, as :attr:`ExactCover.items`).
Element = tuple[Perm, Perm]


class Incidence:
    """A problem as numbers: each option's items with their colours (None when it
    has none, or when no other option gives the item that colour), the options of
    each item, and the class of each item and option (what a symmetry must keep)."""

    __slots__ = ("problem", "labels", "index", "items", "item_index", "rows", "holders",
                 "n_primary", "item_class", "option_class")

    def __init__(self, problem: ExactCover) -> None:
        if not isinstance(problem, ExactCover):
            raise ExactCoverError(f"expected a dlx.ExactCover, got {type(problem).__name__}")
        self.problem = problem
        self.labels: tuple[Hashable, ...] = tuple(problem.options)
        self.index = {label: o for o, label in enumerate(self.labels)}
        self.items: tuple[Hashable, ...] = problem.items
        self.item_index = {x: i for i, x in enumerate(self.items)}
        self.n_primary = len(problem.primary)
        self.rows: list[tuple[tuple[int, Hashable], ...]] = []
        self.holders: list[list[int]] = [[] for _ in self.items]
        for o, entries in enumerate(problem.options.values()):
            row = []
            for e in entries:
                x, colour = (e.item, e.color) if isinstance(e, Colored) else (e, None)
                i = self.item_index[x]
                row.append((i, colour))
                self.holders[i].append(o)
            self.rows.append(tuple(row))
        # a colour that one option alone gives an item is no colour: that option shares the
        # item with no other, as an option without colour does
        uses: dict[tuple[int, Hashable], int] = {}
        for entries_of in self.rows:
            for i, colour in entries_of:
                if colour is not None:
                    uses[i, colour] = uses.get((i, colour), 0) + 1
        if any(n == 1 for n in uses.values()):
            self.rows = [tuple((i, None if c is not None and uses[i, c] == 1 else c)
                               for i, c in row) for row in self.rows]
        bound = problem.bound
        self.item_class: list[Hashable] = [
            ("primary", bound(x)) if i < self.n_primary else ("secondary",)
            for i, x in enumerate(self.items)]
        self.option_class: list[Hashable] = [problem.cost(label) for label in self.labels]

    def signature(self, i: int, sigma: Sequence[int] | None = None) -> Hashable:
        """What a symmetry keeps of item ``i``: its class, the options that hold it
        (their images under ``sigma``), and which of them agree on its colour."""
        image = (lambda o: o) if sigma is None else sigma.__getitem__
        alone: list[int] = []
        by_colour: dict[Hashable, list[int]] = {}
        for o in self.holders[i]:
            colour = next(c for j, c in self.rows[o] if j == i)
            if colour is None:
                alone.append(image(o))
            else:
                by_colour.setdefault(colour, []).append(image(o))
        return (self.item_class[i], frozenset(alone),
                frozenset(frozenset(group) for group in by_colour.values()))


class Symmetries:
    """A group of symmetries of one problem (see the module's docstring).

    Made by :func:`symmetries`.  ``order`` is the number of distinct permutations
    of the options; ``generators`` are some of them (as dicts, option label ->
    label) that make the whole group; ``item_generators`` the matching maps of
    items.  ``option_orbits`` and ``item_orbits`` list the sets the group maps onto
    themselves, each in the problem's order.

    An *element* is given as a mapping (or callable) option label -> option label:
    one of :meth:`elements` or :attr:`generators`.
    """

    __slots__ = ("problem", "incidence", "_gens", "_order", "_elements")

    def __init__(self, incidence: Incidence, gens: Iterable[Element]) -> None:
        self.incidence = incidence
        self.problem = incidence.problem
        self._gens: list[Element] = [g for g in gens if not perms.is_identity(g[0])]
        self._order: int | None = None
        self._elements: list[Element] | None = None

    def __repr__(self) -> str:
        return (f"Symmetries(order {self.order:,}, {len(self._gens)} generators, "
                f"{len(self.option_orbits)} option orbits)")

    # ------------------------------------------------------------ the group

    @property
    def order(self) -> int:
        """The number of elements (distinct permutations of the options)."""
        if self._order is None:
            self._order = perms.order([g[0] for g in self._gens], len(self.incidence.labels))
        return self._order

    @property
    def is_trivial(self) -> bool:
        """True when the identity is the only symmetry."""
        return not self._gens

    @property
    def generators(self) -> list[dict[Hashable, Hashable]]:
        """Generators of the group as option maps (label -> label, every option)."""
        labels = self.incidence.labels
        return [{labels[o]: labels[j] for o, j in enumerate(g[0])} for g in self._gens]

    @property
    def item_generators(self) -> list[dict[Hashable, Hashable]]:
        """The item maps of :attr:`generators` (item -> item, every item)."""
        items = self.incidence.items
        return [{items[i]: items[j] for i, j in enumerate(g[1])} for g in self._gens]

    @property
    def option_orbits(self) -> list[tuple[Hashable, ...]]:
        """The orbits of the options (singletons included), in the problem's order."""
        labels = self.incidence.labels
        return [tuple(labels[o] for o in orbit)
                for orbit in perms.orbits([g[0] for g in self._gens], len(labels))]

    @property
    def item_orbits(self) -> list[tuple[Hashable, ...]]:
        """The orbits of the items (singletons included), primary items first."""
        items = self.incidence.items
        return [tuple(items[i] for i in orbit)
                for orbit in perms.orbits([g[1] for g in self._gens], len(items))]

    def indexed_elements(self) -> list[Element]:
        """Every element as (option permutation, item permutation), the identity first
        (:class:`~dlx.ExactCoverError` when there are more than :data:`MAX_ELEMENTS`)."""
        if self._elements is None:
            if self.order > MAX_ELEMENTS:
                raise ExactCoverError(
                    f"the symmetry group has {self.order:,} elements: counting and listing"
                    f" up to symmetry walk through them, and at most {MAX_ELEMENTS:,} are"
                    " listed (give a subgroup: dlx.symmetries(problem, generators=...))")
            self._elements = closure(self._gens, len(self.incidence.labels),
                                     len(self.incidence.items))
        return self._elements

    def listed_subgroup(self) -> list[Element]:
        """The elements of the whole group when it has at most :data:`MAX_ELEMENTS`;
        else of a subgroup of at most that many, made by the generators taken in turn
        while it stays that small (enough for counting by symmetry, which any subgroup
        makes faster, not for orbits)."""
        if self.order <= MAX_ELEMENTS:
            return self.indexed_elements()
        m, n = len(self.incidence.labels), len(self.incidence.items)
        kept: list[Element] = []
        listed = closure([], m, n)
        for g in self._gens:
            try:
                listed = closure([*kept, g], m, n, MAX_ELEMENTS)
            except perms.TooLarge:
                continue
            kept.append(g)
        return listed

    def elements(self) -> Iterator[dict[Hashable, Hashable]]:
        """Every element as an option map (label -> label), the identity first."""
        labels = self.incidence.labels
        for sigma, _ in self.indexed_elements():
            yield {labels[o]: labels[j] for o, j in enumerate(sigma)}

    # ----------------------------------------------------------- solutions

    def _indices(self, solution: Iterable[Hashable]) -> list[int]:
        index = self.incidence.index
        out = []
        for label in solution:
            try:
                out.append(index[label])
            except (KeyError, TypeError):
                raise ExactCoverError(f"{shown(label)} is not an option of the problem"
                                      ) from None
        return out

    def apply(self, element: Mapping[Hashable, Hashable] | Callable[[Hashable], Hashable],
              solution: Iterable[Hashable]) -> tuple[Hashable, ...]:
        """The image of ``solution`` (option labels) under ``element`` (a mapping or
        callable label -> label), in the same order."""
        get = element.__getitem__ if isinstance(element, Mapping) else element
        labels = list(solution)
        self._indices(labels)
        return tuple(get(label) for label in labels)

    def images(self, solution: Iterable[Hashable]) -> list[tuple[Hashable, ...]]:
        """The orbit of ``solution``: its distinct images, each as its labels in the
        problem's order, in sorted order of their option positions (the first is
        :meth:`canonical`)."""
        given = self._indices(solution)
        found = {tuple(sorted(sigma[o] for o in given)) for sigma, _ in self.indexed_elements()}
        labels = self.incidence.labels
        return [tuple(labels[o] for o in image) for image in sorted(found)]

    def canonical(self, solution: Iterable[Hashable]) -> tuple[Hashable, ...]:
        """The representative of the orbit of ``solution``: its least image, comparing
        images by their options' positions in the problem, sorted (the labels come in
        the problem's order)."""
        given = self._indices(solution)
        least = min(tuple(sorted(sigma[o] for o in given))
                    for sigma, _ in self.indexed_elements())
        labels = self.incidence.labels
        return tuple(labels[o] for o in least)

    def stabilizer_order(self, solution: Iterable[Hashable]) -> int:
        """How many elements map ``solution`` (as a set of options) onto itself."""
        given = self._indices(solution)
        mine = frozenset(given)
        return sum(1 for sigma, _ in self.indexed_elements()
                   if all(sigma[o] in mine for o in given))


def closure(gens: Sequence[Element], n_options: int, n_items: int, cap: int | None = None
            ) -> list[Element]:
    """Every element made by ``gens`` (one item map per option map), the identity first
    (:class:`~dlx.perms.TooLarge` when there are more than ``cap``)."""
    one = (perms.identity(n_options), perms.identity(n_items))
    seen = {one[0]}
    out = [one]
    k = 0
    while k < len(out):
        sigma, pi = out[k]
        k += 1
        for s, t in gens:
            h = perms.compose(s, sigma)
            if h not in seen:
                seen.add(h)
                out.append((h, perms.compose(t, pi)))
                if cap is not None and len(out) > cap:
                    raise perms.TooLarge(len(out))
    return out


def symmetries(problem: ExactCover, *, generators: Iterable[Any] | None = None
               ) -> Symmetries:
    """The symmetries of ``problem``: all of them (found with nauty), or the group of
    the ``generators`` given.

    Parameters
    ----------
    problem : ExactCover
    generators : iterable or None
        None: find the whole group with nauty (``pip install
        'dancing-links-dlx[symmetry]'``).  Otherwise the generators of the group to
        use, each a mapping or a callable option label -> option label; each is
        checked to be a symmetry (:class:`~dlx.ExactCoverError` naming the first
        that is not, and why), and the items' maps are worked out from it.

    Examples
    --------
    >>> import dlx
    >>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
    >>> g = dlx.symmetries(p, generators=[{"x": "y", "y": "x", "xy": "xy"}])
    >>> g.order, g.item_orbits
    (2, [('a', 'b')])
    >>> try:
    ...     dlx.symmetries(p, generators=[{"x": "xy", "xy": "x", "y": "y"}])
    ... except dlx.ExactCoverError as e:
    ...     print(e)  # doctest: +NORMALIZE_WHITESPACE
    generator 1 is not a symmetry: item 'b' is held by ('y', 'xy'), whose images ('y', 'x')
    hold no item together
    """
    inc = Incidence(problem)
    if generators is None:
        return Symmetries(inc, _detect(inc))
    if isinstance(generators, (Mapping, str, bytes)) or callable(generators):
        raise ExactCoverError("generators must be a list of maps (option label -> label)")
    return Symmetries(inc, [_checked(inc, k, g) for k, g in enumerate(generators, 1)])


def _checked(inc: Incidence, k: int, given: Any) -> Element:
    """Generator ``k`` as an element, checked to be a symmetry of the problem."""
    if isinstance(given, Mapping):
        get: Callable[[Hashable], Any] = lambda label: given.get(label, label)  # noqa: E731
    elif callable(given):
        get = given
    else:
        raise ExactCoverError(f"generator {k} must be a mapping or a callable option label"
                              f" -> option label, not {type(given).__name__}")
    sigma: list[int] = []
    hit: dict[int, Hashable] = {}
    for o, label in enumerate(inc.labels):
        try:
            image = get(label)
        except Exception as e:  # noqa: BLE001 - say which option's image failed
            raise ExactCoverError(f"generator {k} failed on option {shown(label)}: {e}"
                                  ) from e
        j = inc.index.get(image) if _hashable(image) else None
        if j is None:
            raise ExactCoverError(f"generator {k} maps option {shown(label)} to"
                                  f" {shown(image)}, which is not an option")
        if j in hit:
            raise ExactCoverError(f"generator {k} maps options {shown(hit[j])} and"
                                  f" {shown(label)} both to {shown(image)}")
        hit[j] = label
        if inc.option_class[j] != inc.option_class[o]:
            raise ExactCoverError(f"generator {k} is not a symmetry: it maps option"
                                  f" {shown(label)} (cost {shown(inc.option_class[o])}) to"
                                  f" {shown(image)} (cost {shown(inc.option_class[j])})")
        sigma.append(j)
    return tuple(sigma), _item_map(inc, k, sigma)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _item_map(inc: Incidence, k: int, sigma: list[int]) -> Perm:
    """The item permutation that goes with the option permutation ``sigma`` (items
    with the same options are paired in order), or the error saying why there is none."""
    by_signature: dict[Hashable, list[int]] = {}
    for i in range(len(inc.items)):
        by_signature.setdefault(inc.signature(i), []).append(i)
    pi = [0] * len(inc.items)
    for twins in by_signature.values():
        targets = by_signature.get(inc.signature(twins[0], sigma), [])
        if len(targets) != len(twins):
            x = twins[0]
            held = tuple(inc.labels[o] for o in inc.holders[x])
            moved = tuple(inc.labels[sigma[o]] for o in inc.holders[x])
            raise ExactCoverError(
                f"generator {k} is not a symmetry: item {shown(inc.items[x])} is held by"
                f" {shown(held)}, whose images {shown(moved)} hold no item together"
                + ("" if len(held) == 1 or not inc.problem.colored else
                   " (with the same colours)"))
        for i, j in zip(twins, targets, strict=True):
            pi[i] = j
    return tuple(pi)


def _detect(inc: Incidence) -> list[Element]:
    """The generators of the whole group, by nauty on the problem's coloured incidence
    graph (the ``symmetry`` extra)."""
    try:
        import pynauty
    except ImportError:
        raise ExactCoverError(
            "finding a problem's symmetries needs nauty: pip install"
            " 'dancing-links-dlx[symmetry]' (or give generators=[...] yourself)") from None
    m, n = len(inc.labels), len(inc.items)
    if m == 0:
        return []
    adjacency: dict[int, list[int]] = {v: [] for v in range(m + n)}
    colour_vertex: dict[tuple[int, Hashable], int] = {}
    for o, row in enumerate(inc.rows):
        for i, colour in row:
            if colour is None:
                adjacency[o].append(m + i)
                continue
            v = colour_vertex.get((i, colour))
            if v is None:
                v = colour_vertex[(i, colour)] = m + n + len(colour_vertex)
                adjacency[v] = [m + i]
            adjacency[o].append(v)
    cells: list[set[int]] = []
    for classes, offset in ((inc.option_class, 0), (inc.item_class, m)):
        grouped: dict[Hashable, set[int]] = {}
        for v, c in enumerate(classes):
            grouped.setdefault(c, set()).add(offset + v)
        cells += [grouped[c] for c in sorted(grouped, key=_sort_key)]
    if colour_vertex:
        cells.append(set(colour_vertex.values()))
    graph = pynauty.Graph(m + n + len(colour_vertex), directed=False,
                          adjacency_dict=adjacency, vertex_coloring=cells)
    found = pynauty.autgrp(graph)[0]
    return [(tuple(g[:m]), tuple(j - m for j in g[m:m + n])) for g in found]


def _sort_key(value: Hashable) -> tuple[str, str]:
    """A total order of the classes (costs and bounds of any types), for nauty's cells:
    any fixed order will do."""
    return (type(value).__name__, repr(value))
