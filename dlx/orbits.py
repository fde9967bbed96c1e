"""Counting and listing up to symmetry, and counting faster by symmetry.

Given a group of symmetries (:mod:`dlx.symmetry`), the solutions fall into orbits.

*Roots* (:func:`roots`).  Above the search, the partial solutions of the first
levels are listed up to the group, as in McKay's canonical augmentation: at a
partial solution P fixed (as a set) by a group H, take a set I of uncovered items
(by default the H-orbit of the item the search would choose), list every way E of
covering I, and keep one E out of each set that H maps onto each other, with the
size of that set as its *weight*; go on below P + E with the stabiliser of E, until
the group left is trivial.  Every solution below P covers I by exactly one E, and
two E's that H maps onto each other have as many solutions below them, so the
count below P is the sum over the E's kept of weight times the count below
P + E.  Each root is then counted by an ordinary forced search
(``forced=root``), on either engine or on an executor: the loops never see the
group.  Taking I as the whole orbit gains about the group's order; taking the
chosen item alone (orbital branching, ``rule="item"``) gains only what that
item's options have in common under the group.

*Orbits* (:func:`count_orbits`).  By Burnside's lemma the number of orbits is the
mean over the group of the number of solutions each element g fixes, and a
solution fixed by g is a union of g's cycles of options: the exact covers of the
*quotient* problem whose options are those cycles (:func:`quotient`).  The
identity's term is the whole count, counted from the roots.  (Where a cycle
would cover an item with bounds more than once, the orbits are counted from the
solutions below the roots instead, each weighed by its stabiliser.)

*Representatives* (:func:`representatives`).  Below the roots each orbit of
solutions is met as an orbit of the root's own (small, mostly trivial) group, and
the least of those is kept; what is yielded is the orbit's least image under the
whole group (options compared by their positions in the problem).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, NamedTuple

from . import perms, serial
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Stats
from .options import Options
from .problem import Colored, ExactCover
from .symmetry import Element, Incidence, Symmetries

__all__ = ["Root", "roots", "count", "solutions", "group_of", "count_by_symmetry",
           "count_orbits", "representatives", "quotient", "RULES", "MAX_ROOTS",
           "MAX_EXTENSIONS"]

#: The choices of the items covered at each level above the search.
RULES = ("orbit", "item")

#: Seconds between two reports to ``progress`` between the roots' searches.
REPORT_EVERY = 0.1

#: At most this many roots (more and the reduction stops where it is).
MAX_ROOTS = 20_000

#: The first level lists at most this many ways to cover an orbit of items (more, and
#: it takes the chosen item alone).
MAX_EXTENSIONS = 100_000

#: A level below the first lists at most as many ways as the first did, or this many:
#: the subtrees below it are smaller than the whole tree, and listing more there costs
#: more than the group saves (beyond, it takes the chosen item alone).
MIN_BELOW = 1_000

_STALLS = 4         # levels in a row that break no symmetry before the reduction stops


class Root(NamedTuple):
    """A partial solution above the search: its options (indices, in the order placed),
    how many partial solutions it stands for, and the group that fixes it."""

    options: tuple[int, ...]
    weight: int
    group: list[Element]


class _Partial:
    """A partial solution built option by option, as bit masks of options: ``killed``
    holds the options that no longer fit (they share an item covered exactly once with
    a placed option, an item without colour or of another colour, or an item with
    bounds that is full), so that an item's options that fit are its ``holders``
    less ``killed``."""

    def __init__(self, inc: Incidence) -> None:
        self.inc = inc
        np = inc.n_primary
        bound = inc.problem.bound
        self.upper = [bound(x)[1] for x in inc.items[:np]]
        self.exact = [bound(x) == (1, 1) for x in inc.items[:np]]
        self.covered = [0] * np
        self.holders = [sum(1 << o for o in held) for held in inc.holders]
        self.primary = [tuple(i for i, _ in row if i < np) for row in inc.rows]
        self.bounded = [tuple(i for i in items if not self.exact[i]) for items in self.primary]
        self.conflict = [self._conflict(o) for o in range(len(inc.rows))]
        self.killed = 0
        self.undo: list[int] = []

    def _conflict(self, o: int) -> int:
        """The options that cannot be in a solution with option ``o``."""
        inc, mask = self.inc, 0
        for i, colour in inc.rows[o]:
            if i < inc.n_primary:
                if self.exact[i]:
                    mask |= self.holders[i]
            elif colour is None:
                mask |= self.holders[i]
            else:
                mask |= sum(1 << p for p in inc.holders[i]
                            if next(c for j, c in inc.rows[p] if j == i) != colour)
        return mask | 1 << o

    def fits(self, o: int) -> bool:
        return not self.killed >> o & 1

    def place(self, o: int) -> None:
        self.undo.append(self.killed)
        killed = self.killed | self.conflict[o]
        covered = self.covered
        for i in self.primary[o]:
            covered[i] += 1
        for i in self.bounded[o]:
            if covered[i] >= self.upper[i]:
                killed |= self.holders[i]
        self.killed = killed

    def unplace(self, o: int) -> None:
        self.killed = self.undo.pop()
        for i in self.primary[o]:
            self.covered[i] -= 1

    def length(self, i: int) -> int:
        """How many options of primary item ``i`` fit."""
        return (self.holders[i] & ~self.killed).bit_count()

    def live(self, i: int) -> list[int]:
        """The options of primary item ``i`` that fit, in order."""
        mask = self.holders[i] & ~self.killed
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out


def _stabiliser(group: Sequence[Element], chosen: Sequence[int]) -> list[Element]:
    mine = frozenset(chosen)
    return [g for g in group if all(g[0][o] in mine for o in chosen)]


class _Roots:
    """The walk above the search that makes the roots (see the module's docstring)."""

    def __init__(self, inc: Incidence, rule: str, max_roots: int, max_nodes: int | None,
                 deadline: float | None) -> None:
        if rule not in RULES:
            raise ExactCoverError(f"unknown rule {shown(rule)}: use one of {RULES}")
        self.state = _Partial(inc)
        self.rule, self.max_roots = rule, max_roots
        self.max_nodes, self.deadline = max_nodes, deadline
        self.found: list[Root] = []
        self.above = Stats()
        self.cap = MAX_EXTENSIONS           # (for the levels below the first: see visit)

    def node(self, level: int) -> None:
        s = self.above
        if self.max_nodes is not None and s.nodes >= self.max_nodes:
            raise BudgetExceeded(self.max_nodes, None, s)
        if self.deadline is not None and not s.nodes & 255 and time.monotonic() > self.deadline:
            raise BudgetExceeded(None, None, s, timeout=0.0)
        s.nodes += 1
        if len(s.profile) <= level:
            s.profile.extend([0] * (level + 1 - len(s.profile)))
        s.profile[level] += 1

    def visit(self, chosen: tuple[int, ...], group: list[Element], weight: int,
              stalls: int) -> None:
        if len(group) == 1 or stalls >= _STALLS or len(self.found) >= self.max_roots:
            self.found.append(Root(chosen, weight, group))
            return
        cover = self.choose(group)
        if cover is None:
            self.found.append(Root(chosen, weight, group))
            return
        self.node(len(chosen))
        cap = self.cap
        extensions = self.extensions(cover, len(chosen), cap)
        if extensions is None:                       # too many: the item alone
            extensions = self.extensions(cover[:1], len(chosen), cap)
            assert extensions is not None
        if cap == MAX_EXTENSIONS:                    # the first level sets the scale
            self.cap = max(MIN_BELOW, len(extensions))
        listed = set(map(frozenset, extensions))
        seen: set[frozenset[int]] = set()
        state = self.state
        for ext in extensions:
            key = frozenset(ext)
            if key in seen:
                continue
            images = [frozenset([g[0][o] for o in ext]) for g in group]
            members = listed.intersection(images)
            seen |= members
            below = [g for g, image in zip(group, images, strict=True) if image == key]
            if len(below) == 1 or len(self.found) >= self.max_roots:
                self.found.append(Root(chosen + ext, weight * len(members), below))
                continue
            for o in ext:
                state.place(o)
            self.visit(chosen + ext, below, weight * len(members),
                       stalls + 1 if len(below) == len(group) else 0)
            for o in reversed(ext):
                state.unplace(o)

    def choose(self, group: list[Element]) -> list[int] | None:
        """The items to cover next; None when every primary item covered exactly once
        is covered.  Among the uncovered ones with the fewest options that fit (the
        search's choice and its ties), rule "item" takes the first; rule "orbit"
        takes the smallest orbit under ``group`` of one of them, and of those the one
        whose options leave the fewest others (the most constrained: its ways of
        covering are the fewest, and the trees below them the smallest)."""
        state = self.state
        lengths: dict[int, int] = {}
        for i, exact in enumerate(state.exact):
            if exact and not state.covered[i]:
                lengths[i] = state.length(i)
        if not lengths:
            return None
        fewest = min(lengths.values())
        first = next(i for i, n in lengths.items() if n == fewest)
        if self.rule == "item" or fewest == 0:
            return [first]
        best: tuple[int, float, int] | None = None
        done: set[int] = set()
        for i, n in lengths.items():
            if n != fewest or i in done:
                continue
            orbit = {g[1][i] for g in group}
            done |= orbit
            left = sum((state.conflict[o] & ~state.killed).bit_count() for o in state.live(i))
            key = (len(orbit), -left / n, i)
            if best is None or key < best:
                best = key
        assert best is not None
        i = best[2]
        return [i, *sorted({g[1][i] for g in group} - {i})]

    def extensions(self, cover: list[int], level: int, cap: int
                   ) -> list[tuple[int, ...]] | None:
        """Every way of covering the items ``cover`` with options that fit (None when
        there are more than ``cap``), in the order of a search that branches on the
        item of ``cover`` with the fewest options."""
        state = self.state
        if len(cover) == 1:
            return [(o,) for o in state.live(cover[0])]
        out: list[tuple[int, ...]] = []
        chosen: list[int] = []
        # an explicit stack of (options to try, next one) per level of this small search
        stack: list[tuple[list[int], int]] = []
        todo = self._next(cover)
        while True:
            if todo is None:                     # every item of cover is covered
                out.append(tuple(chosen))
                if len(out) > cap:
                    for o in reversed(chosen):
                        state.unplace(o)
                    return None
            elif todo:
                stack.append((todo, 0))
            while stack:
                options, k = stack.pop()
                if k:
                    state.unplace(chosen.pop())
                if k < len(options):
                    o = options[k]
                    stack.append((options, k + 1))
                    state.place(o)
                    chosen.append(o)
                    break
            else:
                return out
            todo = self._next(cover)
            if todo is not None:
                self.node(level + len(chosen))

    def _next(self, cover: list[int]) -> list[int] | None:
        """The options that fit the item of ``cover`` with the fewest (empty: a dead
        end), or None when every item of ``cover`` is covered."""
        state = self.state
        best: tuple[int, int] | None = None
        for i in cover:
            if not state.covered[i]:
                n = state.length(i)
                if best is None or n < best[0]:
                    best = (n, i)
                    if not n:
                        break
        return None if best is None else state.live(best[1])


def roots(sym: Symmetries, forced: Sequence[int] = (), *, rule: str = "orbit",
          max_roots: int = MAX_ROOTS, max_nodes: int | None = None,
          deadline: float | None = None, whole: bool = True) -> tuple[list[Root], Stats]:
    """The roots below the partial solution ``forced`` (option indices): partial
    solutions, one per orbit, with their weights, in search order; and the nodes
    visited above them.  None of them when the forced options clash.
    :class:`~dlx.BudgetExceeded` (with those nodes) when they are more than
    ``max_nodes``, or at ``deadline`` (``time.monotonic()``).  With ``whole`` False,
    a group too large to list is replaced by a subgroup
    (:meth:`~dlx.Symmetries.listed_subgroup`): the weights still add up to the count."""
    inc = sym.incidence
    walk = _Roots(inc, rule, max_roots, max_nodes, deadline)
    state = walk.state
    for o in forced:
        if not state.fits(o):
            return [], walk.above
        state.place(o)
    listed = sym.indexed_elements() if whole else sym.listed_subgroup()
    walk.visit(tuple(forced), _stabiliser(listed, forced), 1, 0)
    return walk.found, walk.above


def _roots_within(sym: Symmetries, opts: Options, budget: _Budget, rule: str = "orbit",
                  nothing: Any = None, whole: bool = True) -> tuple[list[Root], Stats]:
    """:func:`roots` under the budgets of ``opts`` (the nodes above them added to the
    run's statistics; when the budget runs out, the stop says so)."""
    try:
        found, above = roots(sym, _forced(sym, opts), rule=rule, max_nodes=opts.max_nodes,
                             deadline=budget.deadline, whole=whole)
    except BudgetExceeded as e:
        _add(budget.stats, e.stats)
        raise budget.stop(nothing) from None
    _add(budget.stats, above)
    budget.pieces = max(len(found), 1)
    return found, above


# --------------------------------------------------------------------- views


def _forced(sym: Symmetries, opts: Options) -> tuple[int, ...]:
    index = sym.incidence.index
    out = []
    for label in opts.forced:
        try:
            out.append(index[label])
        except (KeyError, TypeError):
            raise ExactCoverError(f"forced option {shown(label)} is not an option of the"
                                  " problem") from None
    return tuple(out)


def _add(into: Stats, s: Stats) -> None:
    into.nodes += s.nodes
    into.updates += s.updates
    into.solutions += s.solutions
    if len(into.profile) < len(s.profile):
        into.profile.extend([0] * (len(s.profile) - len(into.profile)))
    for level, n in enumerate(s.profile):
        into.profile[level] += n


class _Budget:
    """The budgets of a run of many searches: the nodes and the time left for the
    next one, and the progress reported over all of them (as the searches report it,
    and after each search, at most every :data:`REPORT_EVERY` seconds)."""

    def __init__(self, opts: Options, stats: Stats, pieces: int) -> None:
        self.opts, self.stats, self.pieces = opts, stats, max(pieces, 1)
        self.deadline = None if opts.timeout is None else time.monotonic() + opts.timeout
        self.done = 0
        self.reported = time.monotonic()

    def piece(self, labels: tuple[Hashable, ...], found: Any) -> tuple[Options, Stats]:
        """The options of the next search (below ``labels``) and its Stats; the stop
        (with ``found``) when no budget is left for it."""
        o = self.opts
        s = Stats()
        max_nodes = None if o.max_nodes is None else o.max_nodes - self.stats.nodes
        timeout = None if self.deadline is None else self.deadline - time.monotonic()
        if max_nodes is not None and max_nodes < 1 or timeout is not None and timeout <= 0:
            raise self.stop(found)
        progress = None
        if o.progress is not None:
            user, whole, share = o.progress, self.stats, self.done / self.pieces

            def progress(now: Stats) -> object:
                seen = Stats(whole.nodes + now.nodes, whole.updates + now.updates,
                             whole.solutions + now.solutions, list(whole.profile))
                seen.explored = share + now.explored / self.pieces
                return user(seen)

        return o.but(forced=labels, stats=s, max_nodes=max_nodes, timeout=timeout,
                     progress=progress, seed=None), s

    def finished(self) -> None:
        """One more search done: tell ``progress`` (if it is time to, or the last)."""
        self.done += 1
        user = self.opts.progress
        now = time.monotonic()
        if user is not None and (self.done == self.pieces or now - self.reported
                                 >= REPORT_EVERY):
            self.reported = now
            self.stats.explored = self.done / self.pieces
            user(self.stats)

    def stop(self, found: Any = None) -> BudgetExceeded:
        o = self.opts
        if o.max_nodes is not None and self.stats.nodes >= o.max_nodes:
            return BudgetExceeded(o.max_nodes, found, self.stats)
        return BudgetExceeded(None, found, self.stats, timeout=o.timeout)


def group_of(problem: ExactCover, symmetry: Any) -> Symmetries:
    """The group that ``symmetry=`` names: True (or None) finds it; a
    :class:`~dlx.Symmetries` of this problem is used as it is."""
    if symmetry is True or symmetry is None or symmetry is False:
        from .symmetry import symmetries

        return symmetries(problem)
    if not isinstance(symmetry, Symmetries):
        raise ExactCoverError(f"symmetry must be True, False or a dlx.Symmetries (from"
                              f" dlx.symmetries(problem)), not {type(symmetry).__name__}")
    inc = symmetry.incidence
    if symmetry.problem is not problem and (inc.labels != tuple(problem.options)
                                            or inc.items != problem.items):
        raise ExactCoverError("symmetry= holds the symmetries of another problem (other"
                              " options or items)")
    return symmetry


def count(problem: ExactCover, opts: Options, *, symmetry: Any, up_to_symmetry: bool,
          limit: int | None, cache: bool | int, checkpoint: Any) -> int:
    """:func:`dlx.count` with ``symmetry`` or ``up_to_symmetry``."""
    if checkpoint is not None:
        raise ExactCoverError("a count by symmetry keeps no checkpoint: give checkpoint= or"
                              " symmetry=/up_to_symmetry=, not both")
    if opts.executor is not None and serial.cache_entries(cache) is not None:
        raise ExactCoverError("counting by caching runs in one process: give cache= or"
                              " executor=, not both")
    sym = group_of(problem, symmetry)
    if up_to_symmetry:
        return count_orbits(problem, sym, opts, limit=limit, cache=cache)
    return count_by_symmetry(problem, sym, opts, limit=limit, cache=cache)


def solutions(problem: ExactCover, opts: Options, *, symmetry: Any, limit: int | None,
              checkpoint: Any) -> Iterator[tuple[Hashable, ...]]:
    """:func:`dlx.solutions` with ``up_to_symmetry`` (checked now, searched lazily)."""
    if checkpoint is not None:
        raise ExactCoverError("solutions up to symmetry keep no checkpoint: give"
                              " checkpoint= or up_to_symmetry=, not both")
    if opts.executor is not None:
        raise ExactCoverError("solutions up to symmetry are listed in one process: give"
                              " executor= or up_to_symmetry=, not both")
    if limit is not None:
        from .options import check_positive

        check_positive(limit, "limit")
    sym = group_of(problem, symmetry)
    sym.indexed_elements()                       # (too large a group: said now)
    _forced(sym, opts)
    return representatives(problem, sym, opts, limit=limit)


def count_by_symmetry(problem: ExactCover, sym: Symmetries, opts: Options, *,
                      limit: int | None = None, cache: bool | int = False,
                      rule: str = "orbit") -> int:
    """:func:`dlx.count` with ``symmetry=``: the roots' counts, each times its weight."""
    stats = opts.stats if opts.stats is not None else Stats()
    stats.nodes = stats.updates = stats.solutions = stats.symmetry_saved = 0
    stats.profile = []
    if limit is not None:
        from .options import check_positive

        check_positive(limit, "limit")
    budget = _Budget(opts, stats, 1)
    if opts.executor is None:
        found, above = _roots_within(sym, opts, budget, rule, nothing=0, whole=False)
    else:
        found, above = roots(sym, _forced(sym, opts), rule=rule, whole=False)
    labels = sym.incidence.labels
    if opts.executor is not None:
        from .parallel import roots as parallel_roots

        weighted = [(tuple(labels[o] for o in r.options), r.weight) for r in found]
        try:
            n, saved = parallel_roots.count(serial.seeded(problem, opts.seed), opts.executor,
                                            opts.but(stats=stats), weighted, above,
                                            limit=limit)
        except BudgetExceeded as e:
            e.frontier = None           # (its pieces stand for several each)
            raise
        stats.symmetry_saved = saved
        return n
    total = 0
    searched = serial.seeded(problem, opts.seed)
    for root in found:
        piece, s = budget.piece(tuple(labels[o] for o in root.options), total)
        try:
            n = serial.count(searched, piece, limit=None, cache=cache)
        except BudgetExceeded as e:
            _add(stats, s)
            raise budget.stop(total + root.weight * (e.found or 0)) from None
        _add(stats, s)
        stats.symmetry_saved += (root.weight - 1) * s.nodes
        total += root.weight * n
        budget.finished()
        if limit is not None and total >= limit:
            return limit
    stats.explored = 1.0
    return total


def _solutions_below(problem: ExactCover, sym: Symmetries, opts: Options, stats: Stats
                     ) -> Iterator[tuple[Root, tuple[int, ...]]]:
    """Every solution below the roots (as option indices) with its root."""
    budget = _Budget(opts, stats, 1)
    found, _ = _roots_within(sym, opts, budget)
    inc = sym.incidence
    searched = serial.seeded(problem, opts.seed)
    for root in found:
        piece, s = budget.piece(tuple(inc.labels[o] for o in root.options), None)
        try:
            for sol in serial.solutions(searched, piece, limit=None):
                yield root, tuple(inc.index[label] for label in sol)
        except BudgetExceeded:
            _add(stats, s)
            raise budget.stop() from None
        _add(stats, s)
        budget.finished()


def representatives(problem: ExactCover, sym: Symmetries, opts: Options, *,
                    limit: int | None = None) -> Iterator[tuple[Hashable, ...]]:
    """:func:`dlx.solutions` with ``up_to_symmetry``: the least image of each orbit (its
    labels in the problem's order), in the order the roots' searches meet them."""
    stats = opts.stats if opts.stats is not None else Stats()
    stats.nodes = stats.updates = stats.solutions = stats.symmetry_saved = 0
    stats.profile = []
    group = _stabiliser(sym.indexed_elements(), _forced(sym, opts))
    labels = sym.incidence.labels
    yielded: list[tuple[Hashable, ...]] = []
    try:
        for root, sol in _solutions_below(problem, sym, opts, stats):
            mine = sorted(sol)
            if len(root.group) > 1 and any(sorted(g[0][o] for o in sol) < mine
                                           for g in root.group):
                continue            # another image of it below this root is the one kept
            least = min(sorted(g[0][o] for o in sol) for g in group)
            yielded.append(tuple(labels[o] for o in least))
            yield yielded[-1]
            if len(yielded) == limit:
                return
    except BudgetExceeded as e:
        e.found = yielded
        raise
    stats.explored = 1.0


def count_orbits(problem: ExactCover, sym: Symmetries, opts: Options, *,
                 limit: int | None = None, cache: bool | int = False) -> int:
    """:func:`dlx.count` with ``up_to_symmetry``: the number of orbits, by Burnside's
    lemma over the conjugacy classes (see the module's docstring)."""
    forced = _forced(sym, opts)
    group = _stabiliser(sym.indexed_elements(), forced)
    sigmas = [g[0] for g in group]
    if len(group) == 1:
        n = count_by_symmetry(problem, sym, opts, cache=cache)
        return n if limit is None else min(n, limit)
    gens = [g[0] for g in sym._gens] if not forced else sigmas
    classes = perms.conjugacy_classes(sigmas, gens)
    quotients = []
    for cls in classes[1:]:
        made = quotient(sym.incidence, cls[0], forced)
        if made is None:
            return _orbits_by_listing(problem, sym, opts, group, limit)
        quotients.append((len(cls), made))
    deadline = None if opts.timeout is None else time.monotonic() + opts.timeout
    stats = opts.stats if opts.stats is not None else Stats()
    total = count_by_symmetry(problem, sym, opts.but(stats=stats), cache=cache)
    whole = Stats()
    _add(whole, stats)
    saved = stats.symmetry_saved
    for size, (q, qforced) in quotients:
        s = Stats()
        left = None if opts.max_nodes is None else opts.max_nodes - whole.nodes
        seconds = None if deadline is None else deadline - time.monotonic()
        if left is not None and left < 1 or seconds is not None and seconds <= 0:
            raise BudgetExceeded(opts.max_nodes if seconds is None else None, None, whole,
                                 timeout=opts.timeout)
        try:
            fixed = serial.count(q, opts.but(forced=qforced, stats=s, max_nodes=left, seed=None,
                                             timeout=seconds, progress=None, executor=None),
                                 limit=None, cache=cache)
        except BudgetExceeded as e:
            _add(whole, s)
            e.found, e.stats, e.frontier = None, whole, None
            raise
        _add(whole, s)
        total += size * fixed
    assert total % len(group) == 0, (total, len(group))
    whole.symmetry_saved = saved
    if opts.stats is not None:
        _copy(opts.stats, whole)
    n = total // len(group)
    return n if limit is None else min(n, limit)


def _copy(into: Stats, s: Stats) -> None:
    into.nodes, into.updates, into.solutions = s.nodes, s.updates, s.solutions
    into.profile, into.symmetry_saved, into.explored = list(s.profile), s.symmetry_saved, 1.0


def _orbits_by_listing(problem: ExactCover, sym: Symmetries, opts: Options,
                       group: list[Element], limit: int | None) -> int:
    """The number of orbits as the sum over the solutions of one over their orbit's
    size (each weighed by its root's weight)."""
    stats = opts.stats if opts.stats is not None else Stats()
    stats.nodes = stats.updates = stats.solutions = stats.symmetry_saved = 0
    stats.profile = []
    total = 0
    for root, sol in _solutions_below(problem, sym, opts, stats):
        mine = frozenset(sol)
        fixing = sum(1 for g in group if all(g[0][o] in mine for o in sol))
        total += root.weight * fixing
    assert total % len(group) == 0, (total, len(group))
    stats.explored = 1.0
    n = total // len(group)
    return n if limit is None else min(n, limit)


def quotient(inc: Incidence, sigma: Sequence[int], forced: Sequence[int] = ()
             ) -> tuple[ExactCover, tuple[int, ...]] | None:
    """The problem whose exact covers are the solutions fixed by ``sigma`` (an option
    permutation), and the options forced there (the cycles of ``forced``).

    An option of the quotient is a cycle of ``sigma`` (labelled by its number) that
    could be in a solution: its options together hold every primary item at most as
    often as allowed, and agree on each secondary item's colour (an item without
    colour at most once).  None when some cycle holds an item with bounds more than
    once: the quotient would need an option to count twice."""
    problem = inc.problem
    np = inc.n_primary
    cycle_of = [-1] * len(sigma)
    options: dict[Hashable, list[Hashable]] = {}
    for start in range(len(sigma)):
        if cycle_of[start] >= 0:
            continue
        cycle = [start]
        cycle_of[start] = start
        o = sigma[start]
        while o != start:
            cycle_of[o] = start
            cycle.append(o)
            o = sigma[o]
        items = _union(inc, cycle, np)
        if items is _TWICE:
            return None
        if items is not None:
            options[start] = items
    for o in forced:
        if cycle_of[o] not in options:
            return _NOTHING, ()
    q = ExactCover(options, secondary=problem.secondary, primary=problem.primary,
                   bounds=problem.bounds)
    return q, tuple(dict.fromkeys(cycle_of[o] for o in forced))


_TWICE = object()

#: A problem with no solution (a forced option's cycle cannot be in one).
_NOTHING = ExactCover({}, primary=["(an item no option holds)"])


def _union(inc: Incidence, cycle: list[int], np: int) -> Any:
    """The items of the options of ``cycle`` together (None when they cannot all be in
    one solution; _TWICE when they hold an item with bounds twice)."""
    problem = inc.problem
    held: dict[int, Any] = {}
    twice = False
    for o in cycle:
        for i, c in inc.rows[o]:
            if i not in held:
                held[i] = c
                continue
            if i < np:
                u, v = problem.bound(inc.items[i])
                if v == 1:
                    return None
                twice = True
            elif c is None or held[i] is None or held[i] != c:
                return None
    if twice:
        return _TWICE
    return [inc.items[i] if i < np or c is None else Colored(inc.items[i], c)
            for i, c in held.items()]
