"""Counting and listing up to symmetry, and counting faster by symmetry.

Given a group of symmetries (:mod:`dlx.symmetry`), the solutions fall into orbits.

*Counting by symmetry* (:func:`count_by_symmetry`).  The roots above the search
(:mod:`dlx.augment`: one partial solution per orbit, with the orbit's size as its
weight) are each counted by an ordinary forced search (``forced=root``), on either
engine or on an executor (:mod:`dlx.parallel.roots`), and the counts added times
their weights: the loops never see the group.

*Orbits* (:func:`count_orbits`).  By Burnside's lemma the number of orbits is the
mean over the group of the number of solutions each element g fixes, and a
solution fixed by g is a union of g's cycles of options: the exact covers of the
*quotient* problem whose options are those cycles (:func:`quotient`).  The
identity's term is the whole count, counted from the roots.  (Where a cycle
would cover an item with bounds more than once, the orbits are counted from the
solutions below the roots instead, each weighed by its stabiliser.)

*Representatives* (:func:`representatives`).  The roots are made covering whole
orbits of items only (rule "strict"): then each orbit of solutions is met below one
root alone, as an orbit of that root's own (small, mostly trivial) group, and the
least of those is kept; what is yielded is the orbit's least image under the whole
group (options compared by their positions in the problem).  (Covering one item
alone would not do: two roots could then hold images of one solution.)
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from . import perms, serial
from .augment import Root, roots, stabiliser
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Stats
from .options import Options
from .problem import Colored, ExactCover
from .symmetry import Element, Incidence, Symmetries

__all__ = ["Root", "roots", "count", "solutions", "group_of", "count_by_symmetry",
           "count_orbits", "representatives", "quotient", "REPORT_EVERY"]

#: Seconds between two reports to ``progress`` between the roots' searches.
REPORT_EVERY = 0.1


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
    found, above = _roots_within(sym, opts, budget, rule, nothing=0, whole=False)
    labels = sym.incidence.labels
    if opts.executor is not None:
        from .parallel import roots as parallel_roots

        weighted = [(tuple(labels[o] for o in r.options), r.weight) for r in found]
        left = None if budget.deadline is None else max(budget.deadline - time.monotonic(),
                                                         1e-3)
        try:
            n, saved = parallel_roots.count(serial.seeded(problem, opts.seed), opts.executor,
                                            opts.but(stats=stats, timeout=left), weighted,
                                            above, limit=limit)
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
    found, _ = _roots_within(sym, opts, budget, "strict")
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
    group = stabiliser(sym.indexed_elements(), _forced(sym, opts))
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
    group = stabiliser(sym.indexed_elements(), forced)
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
