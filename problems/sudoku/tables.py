"""Per-shape tables: what the package derives from a shape's units, once per shape.

A :class:`~problems.sudoku.Shape` is data: a size and a list of :class:`Unit`
(sets of cells holding each digit at most once).  Every part of the package
that works cell by cell reads its tables from one :class:`Tables`, cached on the
shape (:meth:`Shape.tables <problems.sudoku.Shape.tables>`).  Each group is built
the first time it is read, so a part pays only for its own:

======================  ======================================================  ==============
group                   tables                                                  read by
======================  ======================================================  ==============
cells and units         ``ncells``, ``unit_cells``, ``unit_sets``, ``full``,    every part
                        ``units_of``, ``full_units_of``, ``peers``, ``name``,
                        ``rc``
the exact cover         ``primary``, ``secondary``, ``labels``, ``items``,      encoding,
                        ``unit_items``; ``core`` (the engine's side: the full   matrix
                        matrix laid out, its indices)
the techniques          ``order``, ``locked``, ``line_of``, ``unit_board``,     rate,
                        ``peer_board``, ``all_digits``; ``line_pairs``          techniques,
                                                                                minimal
the best score          ``score_units``, ``full_score_units``, ``partial``,     _maxscore,
                        ``offsets``, ``overlaps``, ``partitions``               _bounds
======================  ======================================================  ==============

Cells are numbered row-major (``r * N + c``), units by their place in
``Shape.units``, digits from 1.

>>> from problems.sudoku import Shape
>>> t = Shape.standard(4).tables()
>>> t.unit_cells[0], t.units_of[5], t.peers[0]
((0, 1, 2, 3), (1, 5, 8), (1, 2, 3, 4, 5, 8, 12))
>>> t.labels[6][3], t.items[6][3]
(Placement(row=1, col=2, digit=3), (('cell', 1, 2), ('row', 1, 3), ('col', 2, 3), ('box', 1, 3)))
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from functools import cached_property
from operator import itemgetter
from typing import Any, NamedTuple

__all__ = ["Placement", "Unit", "Tables", "LinePair"]


class Placement(NamedTuple):
    """Option label: ``digit`` (1..N) in the cell at ``row``, ``col`` (0-based)."""

    row: int
    col: int
    digit: int


class Unit(NamedTuple):
    """A set of cells that holds each digit at most once (exactly once when it has N cells).

    ``kind`` and ``number`` name its items ``(kind, number, digit)``; ``cells`` are
    ``(row, col)`` pairs; ``title`` is for people ("row 1", "main diagonal").
    """

    kind: str
    number: int
    cells: tuple[tuple[int, int], ...]
    title: str = ""


class LinePair(NamedTuple):
    """Two parallel lines, their cells in the order of the crossing lines, and the other
    units that meet them unevenly (see :attr:`Tables.line_pairs`)."""

    digits_one: itemgetter[Any]       # a grid's digits along each line
    digits_two: itemgetter[Any]
    one: tuple[int, ...]
    two: tuple[int, ...]
    uneven: tuple[int, ...]


class Tables:
    """The tables of the shape of size ``n`` with these ``units`` (see the module docstring).

    Build them with :meth:`Shape.tables <problems.sudoku.Shape.tables>`, which keeps
    them on the shape; every table is read-only once built.
    """

    n: int
    ncells: int
    units: tuple[Unit, ...]
    unit_cells: list[tuple[int, ...]]
    core: dict[str | None, Any]

    def __init__(self, n: int, units: Sequence[Unit]) -> None:
        self.n = n
        self.ncells = n * n
        self.units = tuple(units)
        self.unit_cells = [tuple(r * n + c for r, c in u.cells) for u in self.units]
        self.core = {}   # the engine's side, filled by problems.sudoku.matrix

    # ------------------------------------------------------------------ cells and units

    @cached_property
    def unit_sets(self) -> list[frozenset[int]]:
        """Each unit's cells as a set."""
        return [frozenset(c) for c in self.unit_cells]

    @cached_property
    def full(self) -> list[bool]:
        """Whether each unit has N cells (and so holds every digit exactly once)."""
        return [len(c) == self.n for c in self.unit_cells]

    @cached_property
    def units_of(self) -> list[tuple[int, ...]]:
        """The units of each cell."""
        units_of: list[list[int]] = [[] for _ in range(self.n * self.n)]
        for k, cells in enumerate(self.unit_cells):
            for i in cells:
                units_of[i].append(k)
        return [tuple(u) for u in units_of]

    @cached_property
    def full_units_of(self) -> list[tuple[int, ...]]:
        """The full units of each cell."""
        full = self.full
        return [tuple(k for k in u if full[k]) for u in self.units_of]

    @cached_property
    def unit_board(self) -> list[int]:
        """Each unit's cells as the bits of an int."""
        return [sum(1 << i for i in cells) for cells in self.unit_cells]

    @cached_property
    def peer_board(self) -> list[int]:
        """Each cell and every cell sharing a unit with it, as the bits of an int."""
        out: list[int] = []
        for i, units in enumerate(self.units_of):
            b = 1 << i
            for k in units:
                b |= self.unit_board[k]
            out.append(b)
        return out

    @cached_property
    def peers(self) -> list[tuple[int, ...]]:
        """The cells sharing a unit with each cell, in order."""
        return [tuple(j for j in bits(b) if j != i) for i, b in enumerate(self.peer_board)]

    @cached_property
    def all_digits(self) -> int:
        """Every digit, digit d as bit d (bits 1..N)."""
        return (1 << (self.n + 1)) - 2

    def name(self, i: int) -> str:
        """The cell's name, ``r3c5`` (1-based)."""
        r, c = divmod(i, self.n)
        return f"r{r + 1}c{c + 1}"

    def rc(self, i: int) -> tuple[int, int]:
        """The cell's ``(row, col)``."""
        r, c = divmod(i, self.n)
        return (r, c)

    # ------------------------------------------------------------------ the exact cover

    @cached_property
    def _items(self) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...]]:
        n = self.n
        primary: list[Hashable] = [("cell", r, c) for r in range(n) for c in range(n)]
        secondary: list[Hashable] = []
        for unit in self.units:
            names = [(unit.kind, unit.number, d) for d in range(1, n + 1)]
            (primary if len(unit.cells) == n else secondary).extend(names)
        return tuple(primary), tuple(secondary)

    @cached_property
    def primary(self) -> tuple[Hashable, ...]:
        """The primary items: the cells ``("cell", r, c)``, then ``(kind, number, digit)``
        of each unit of N cells."""
        return self._items[0]

    @cached_property
    def secondary(self) -> tuple[Hashable, ...]:
        """The secondary items: ``(kind, number, digit)`` of each smaller unit."""
        return self._items[1]

    @cached_property
    def _options(self) -> tuple[list[list[Placement]], list[list[tuple[Hashable, ...]]],
                                list[list[tuple[Hashable, ...]]]]:
        n = self.n
        unit_names = [[(self.units[k].kind, self.units[k].number) for k in units]
                      for units in self.units_of]
        labels: list[list[Placement]] = []
        items: list[list[tuple[Hashable, ...]]] = []
        unit_items: list[list[tuple[Hashable, ...]]] = []
        for i in range(n * n):
            r, c = divmod(i, n)
            cell = ("cell", r, c)
            lab: list[Placement] = [Placement(r, c, 0)]
            its: list[tuple[Hashable, ...]] = [()]
            uits: list[tuple[Hashable, ...]] = [()]
            for d in range(1, n + 1):
                u = tuple((kind, idx, d) for kind, idx in unit_names[i])
                lab.append(Placement(r, c, d))
                its.append((cell, *u))
                uits.append(u)
            labels.append(lab)
            items.append(its)
            unit_items.append(uits)
        return labels, items, unit_items

    @cached_property
    def labels(self) -> list[list[Placement]]:
        """``labels[i][d]``: the option label of digit d in cell i (``[i][0]`` unused)."""
        return self._options[0]

    @cached_property
    def items(self) -> list[list[tuple[Hashable, ...]]]:
        """``items[i][d]``: the items of that option, its cell item first."""
        return self._options[1]

    @cached_property
    def unit_items(self) -> list[list[tuple[Hashable, ...]]]:
        """``unit_items[i][d]``: the option's unit items alone."""
        return self._options[2]

    # ------------------------------------------------------------------ the techniques

    @cached_property
    def order(self) -> list[int]:
        """The units in the order the techniques scan them: boxes (regions) first, as
        people look, then rows, columns, the rest."""
        rank = {"box": 0, "row": 1, "col": 2}
        return sorted(range(len(self.units)),
                      key=lambda k: (rank.get(self.units[k].kind, 3), k))

    @cached_property
    def locked(self) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        """Locked candidates: ``(A, B, A & B, A - B, B - A)`` for a full unit A and a unit
        B meeting it in two or more cells, neither inside the other, in scan order."""
        out = []
        for a in self.order:
            if not self.full[a]:
                continue
            sa = set(self.unit_cells[a])
            for b in self.order:
                sb = set(self.unit_cells[b])
                inter = sa & sb
                if b == a or len(inter) < 2 or sb <= sa or sa <= sb:
                    continue
                out.append((a, b, tuple(sorted(inter)), tuple(sorted(sa - sb)),
                            tuple(sorted(sb - sa))))
        return out

    @cached_property
    def line_of(self) -> dict[str, list[int]]:
        """For fish: ``"row"`` and ``"col"``, when their full units split the grid, to
        each cell's unit (absent otherwise)."""
        n = self.n
        out: dict[str, list[int]] = {}
        for kind in ("row", "col"):
            owner = [-1] * (n * n)
            ks = [k for k, u in enumerate(self.units) if u.kind == kind and self.full[k]]
            for k in ks:
                for i in self.unit_cells[k]:
                    owner[i] = k
            if len(ks) == n and -1 not in owner:
                out[kind] = owner
        return out

    @cached_property
    def line_pairs(self) -> list[LinePair]:
        """Pairs of parallel full lines (two rows, or two columns), each line's cells in
        the order of the crossing lines, with the other units that meet the two lines
        unevenly, at most two (the digit swaps between two lines that keep a grid
        legal: :mod:`problems.sudoku.minimal`'s unavoidable sets).  Empty when rows and
        columns do not both split the grid; with lines that do not cross every line
        of the other kind, the pairs found before them."""
        n = self.n
        pairs: list[LinePair] = []
        if "row" not in self.line_of or "col" not in self.line_of:
            return pairs
        unit_sets = self.unit_sets
        for kind, cross in (("row", "col"), ("col", "row")):
            cross_of = self.line_of[cross]
            place = {k: j for j, k in enumerate(sorted(set(cross_of)))}   # crossing line -> j
            lines: list[tuple[int, ...]] = []
            for k, u in enumerate(self.units):
                if u.kind != kind or not self.full[k]:
                    continue
                along = [-1] * n
                for i in self.unit_cells[k]:
                    along[place[cross_of[i]]] = i
                if -1 in along:
                    return pairs
                lines.append(tuple(along))
            others = [k for k, u in enumerate(self.units) if u.kind not in ("row", "col")]
            for a in range(len(lines)):
                for b in range(a + 1, len(lines)):
                    one, two = lines[a], lines[b]
                    uneven = tuple(k for k in others
                                   if any((one[j] in unit_sets[k]) != (two[j] in unit_sets[k])
                                          for j in range(n)))
                    if len(uneven) <= 2:
                        pairs.append(LinePair(itemgetter(*one), itemgetter(*two), one, two,
                                              uneven))
        return pairs

    # ------------------------------------------------------------------ the best score

    @cached_property
    def score_units(self) -> list[tuple[int, ...]]:
        """The units of two cells or more, each once (two units of the same cells are
        one constraint), their cells in order: the constraints of the best-score search."""
        out: list[tuple[int, ...]] = []
        seen: set[tuple[int, ...]] = set()
        for u in self.unit_cells:
            cells = tuple(sorted(u))
            if len(cells) >= 2 and cells not in seen:
                seen.add(cells)
                out.append(cells)
        return out

    @cached_property
    def full_score_units(self) -> list[tuple[int, ...]]:
        """The :attr:`score_units` of N cells."""
        return [u for u in self.score_units if len(u) == self.n]

    @cached_property
    def partial(self) -> list[bool]:
        """Whether each of the :attr:`score_units` has fewer than N cells."""
        return [len(u) < self.n for u in self.score_units]

    @cached_property
    def offsets(self) -> list[tuple[int, ...]]:
        """For each cell, ``k * N`` for each score unit k holding it (where the unit's N
        Lagrange multipliers start, one per digit)."""
        offs: list[list[int]] = [[] for _ in range(self.n * self.n)]
        for k, u in enumerate(self.score_units):
            for i in u:
                offs[i].append(k * self.n)
        return [tuple(o) for o in offs]

    @cached_property
    def overlaps(self) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...],
                                     bool, bool]]:
        """Locked candidates for the best score: ``(A & B, A - B, B - A, A full, B full)``
        for score units A before B sharing two or more cells, one of them full."""
        us, n = self.score_units, self.n
        out = []
        for a in range(len(us)):
            for b in range(a + 1, len(us)):
                common = set(us[a]) & set(us[b])
                if len(common) >= 2:
                    a_full, b_full = len(us[a]) == n, len(us[b]) == n
                    if a_full or b_full:
                        out.append((tuple(sorted(common)), tuple(sorted(set(us[a]) - common)),
                                    tuple(sorted(set(us[b]) - common)), a_full, b_full))
        return out

    @cached_property
    def partitions(self) -> list[list[tuple[int, ...]]]:
        """Ways of splitting the grid into disjoint units, for the cheap bound: greedy
        packings of the full score units (rows, columns, boxes for the standard shape),
        cells left over as groups of one."""
        out = []
        pool = list(self.full_score_units)
        while pool:
            taken: set[int] = set()
            part: list[tuple[int, ...]] = []
            rest = []
            for u in pool:
                if taken.isdisjoint(u):
                    part.append(u)
                    taken.update(u)
                else:
                    rest.append(u)
            part += [(i,) for i in range(self.n * self.n) if i not in taken]
            out.append(part)
            pool = rest
        return out


def bits(b: int) -> Iterator[int]:
    """The positions of the set bits of ``b``, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low
