"""A problem laid out once, searched many times under different forced options.

Many instances of a family share one exact-cover matrix and differ only in a
partial solution given up front: a grid puzzle's givens are forced options of
the full (cell, digit) matrix of its shape; a piece of a parallel search is the
forced options on the path to its subtree.  :class:`Prepared` lays the matrix
out once (the links, and the compiled core's copy of them) and searches it under
each set of *forced* options: the search then explores only below that partial
solution, exactly as ``dlx.count(problem, forced=...)`` does, with the same
answers, node counts and budgets.  Forced options that clash with each other
give "no solution" for that instance, not an error.

:meth:`Prepared.batch` runs many instances in the compiled core without the
GIL, on one copy of the links.  :meth:`Prepared.batch_codes` does the same for
instances given as rows of small codes, a choice per position (a grid puzzle's
digit per cell), and answers with codes too: no Python object per instance.

>>> import dlx
>>> latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v), ("col", c, v)]
...                         for r in range(3) for c in range(3) for v in range(3)})
>>> p = dlx.Prepared(latin)
>>> p.count(), p.count(forced=[(0, 0, 0)]), p.count(forced=[(0, 0, 0), (0, 1, 0)])
(12, 4, 0)
>>> [a.found for a in p.batch([[(0, 0, 0)], [(0, 0, 1), (1, 1, 1)], []], limit=10)]
[4, 2, 10]
"""

from __future__ import annotations

import array
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, cast

from . import engine as _engine
from . import minimal
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Stats
from .links import Links
from .minimal import Minimized
from .options import Engine, check_positive, check_seconds
from .problem import ExactCover
from .search import run
from .views import count, first, is_unique, solutions

__all__ = ["Prepared", "Answer", "Minimized", "Codes", "CodedAnswers"]


class Answer(NamedTuple):
    """What :meth:`Prepared.batch` found for one set of forced options.

    ``found`` is the number of solutions found, at most the limit; ``first`` the
    first solution (its option labels in choice order, the forced ones first) or
    None; ``nodes`` the nodes of the search below the forced options (0 after a
    clash); ``clash`` is True when the forced options clash (nothing searched);
    ``out_of_budget`` is True when ``max_nodes`` or the batch's ``timeout`` ran
    out first, so that ``found`` is only what was found by then: the answer is
    unknown (``timed_out`` says it was the time).  ``seconds`` is the time this
    instance took.
    """

    found: int
    first: tuple[Hashable, ...] | None
    nodes: int
    clash: bool = False
    out_of_budget: bool = False
    seconds: float = 0.0
    timed_out: bool = False


class Codes:
    """A choice per position, as small codes, for :meth:`Prepared.batch_codes`: code
    ``c`` (1, 2, ...) at position ``p`` names the option ``table[p][c - 1]`` (an
    option index; None: no option has that code there); code 0 names none.  Made by
    :meth:`Prepared.codes`."""

    __slots__ = ("width", "k", "table", "blob", "where")

    def __init__(self, table: list[list[int | None]], n_options: int) -> None:
        self.width = len(table)
        self.k = max((len(row) for row in table), default=0)
        if not 1 <= self.k <= 255:
            raise ExactCoverError(f"codes: each position needs 1 to 255 codes, not {self.k}")
        self.table = [list(row) + [None] * (self.k - len(row)) for row in table]
        self.blob = array.array("i", [-1 if o is None else o for row in self.table
                                      for o in row]).tobytes()
        self.where: dict[int, tuple[int, int]] = {}      # option -> (position, code)
        for p, row in enumerate(self.table):
            for c, o in enumerate(row, 1):
                if o is not None:
                    if not 0 <= o < n_options:
                        raise ExactCoverError(f"codes: {shown(o)} at position {p}, code {c},"
                                              " is not an option index")
                    self.where[o] = (p, c)


class CodedAnswers(NamedTuple):
    """What :meth:`Prepared.batch_codes` found, a list (or bytes) entry per row:
    ``found`` solutions (at most the limit), the ``nodes`` searched, ``status`` (a
    byte per row: 0 done, 1 the row's options clash, 2 out of ``max_nodes``, 3 out
    of the batch's time: unknown), ``seconds``, and ``solutions``: the codes of each
    row's first solution (``width`` bytes a row; 0 at a position no option of the
    solution has a code for, and a row of zeros when there is no solution)."""

    found: list[int]
    nodes: list[int]
    status: bytes
    seconds: list[float]
    solutions: bytes


class Prepared:
    """An exact-cover problem laid out once, for many searches under forced options.

    Parameters
    ----------
    problem : ExactCover
    engine : "auto", "c", "python" or None
        Which engine searches (see :mod:`dlx.engine`); checked here.

    Notes
    -----
    The per-instance views (:meth:`count`, :meth:`first`, :meth:`solutions`,
    :meth:`is_unique`) take the keywords of the module-level views
    (:mod:`dlx.views`); :meth:`batch` runs many instances at once.
    """

    def __init__(self, problem: ExactCover, *, engine: Engine | None = None) -> None:
        if not isinstance(problem, ExactCover):
            raise ExactCoverError(f"Prepared needs a dlx.ExactCover, not {type(problem).__name__}")
        self.problem = problem
        self.engine = engine
        self._links = Links.of(problem)
        if self._on_core():
            _engine.table(self._links)          # laid out now, not at the first search
        # (on the pure engine, by the first search, on its clock: it may have a time
        # limit; the tables of each node's other nodes fill in as searches meet them)

    def _on_core(self) -> bool:
        """Will a search run on the compiled core?  (Asked at every search, so that
        DLX_ENGINE and the core's presence are read as the views read them.)"""
        return _engine.select(self.engine) and _engine.fits(self._links)

    def __repr__(self) -> str:
        where = "the C core" if self._on_core() else "the pure engine"
        return f"Prepared({self.problem!r}, on {where})"

    def count(self, forced: Iterable[Hashable] = (), *, limit: int | None = None,
              max_nodes: int | None = None, timeout: float | None = None,
              stats: Stats | None = None) -> int:
        """:func:`dlx.count` under ``forced``."""
        return count(self.problem, forced=forced, limit=limit, max_nodes=max_nodes,
                     timeout=timeout, stats=stats, engine=self.engine)

    def first(self, forced: Iterable[Hashable] = (), *, max_nodes: int | None = None,
              timeout: float | None = None, stats: Stats | None = None,
              restarts: bool = False, seed: int | None = None
              ) -> tuple[Hashable, ...] | None:
        """:func:`dlx.first` under ``forced`` (with ``restarts``, by randomised restarts
        from ``seed``, on the layout made once here)."""
        if restarts:
            return first(self.problem, forced=forced, max_nodes=max_nodes, timeout=timeout,
                         stats=stats, engine=self.engine, restarts=True, seed=seed)
        return first(self.problem, forced=forced, max_nodes=max_nodes, timeout=timeout,
                     stats=stats, engine=self.engine)

    def solutions(self, forced: Iterable[Hashable] = (), *, limit: int | None = None,
                  max_nodes: int | None = None, timeout: float | None = None,
                  stats: Stats | None = None) -> Iterator[tuple[Hashable, ...]]:
        """:func:`dlx.solutions` under ``forced``."""
        return solutions(self.problem, forced=forced, limit=limit, max_nodes=max_nodes,
                         timeout=timeout, stats=stats, engine=self.engine)

    def is_unique(self, forced: Iterable[Hashable] = (), *, max_nodes: int | None = None,
                  timeout: float | None = None, stats: Stats | None = None) -> bool:
        """:func:`dlx.is_unique` under ``forced``."""
        return is_unique(self.problem, forced=forced, max_nodes=max_nodes, timeout=timeout,
                         stats=stats, engine=self.engine)

    @property
    def labels(self) -> tuple[Hashable, ...]:
        """The labels of the options a search can choose (those with a primary item),
        in order: option index k of :meth:`batch` with ``indices=True`` is label
        ``labels[k]``."""
        labels = self._links._shared.get("label_tuple")
        if labels is None:
            labels = self._links._shared["label_tuple"] = tuple(self._links.labels)
        return labels

    def batch(self, forced_sets: Iterable[Iterable[Hashable]], *, limit: int | None = 1,
              max_nodes: int | None = None, timeout: float | None = None,
              indices: bool = False) -> list[Answer]:
        """Search under every set of forced options: an :class:`Answer` each, in order.

        ``limit`` solutions at most per set (None: all); ``max_nodes`` is a node
        budget per set (its :attr:`Answer.out_of_budget` says when it ran out);
        ``timeout`` is seconds for the whole batch: the set running when it ends and
        the sets after it are out of budget too (unknown, not "no solution").
        With ``indices=True`` the sets hold option indices (positions in
        :attr:`labels`) and :attr:`Answer.first` gives option indices too: no
        label is looked up.  On the compiled core the whole batch runs without the
        GIL; Ctrl-C stops it (KeyboardInterrupt).  The answers, node counts and
        budgets are those of :func:`dlx.count` with ``forced=`` each set.

        >>> import dlx
        >>> p = dlx.Prepared(dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]}))
        >>> for answer in p.batch([[], ["y"], ["x", "xy"]], limit=None):  # doctest: +ELLIPSIS
        ...     print(answer)
        Answer(found=2, first=('x', 'y'), nodes=4, clash=False, out_of_budget=False, seconds=...)
        Answer(found=1, first=('y', 'x'), nodes=2, clash=False, out_of_budget=False, seconds=...)
        Answer(found=0, first=None, nodes=0, clash=True, out_of_budget=False, seconds=...)
        >>> p.labels, p.batch([[2]], indices=True)[0].first
        (('x', 'y', 'xy'), (2,))
        """
        check_positive(limit, "limit")
        check_positive(max_nodes, "max_nodes")
        timeout = check_seconds(timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        links = self._links
        given_sets = _listed(forced_sets, "forced_sets", "sets of forced options")
        if indices:
            option_sets = given_sets        # (the core checks them; _search_pure too)
        else:
            option_sets = [self._options(labels, "forced_sets", False)
                           for labels in given_sets]
        if self._on_core():
            table = _engine.table(links)
            # (the time limit counts from the call: reading the sets took some of it)
            seconds = -1.0 if deadline is None else max(deadline - time.monotonic(), 1e-6)
            try:
                answers = table.batch(
                    option_sets, limit=_engine.budget(limit),
                    max_nodes=_engine.budget(max_nodes),
                    labels=None if indices else self.labels, timeout=seconds,
                    bits=_engine.representation(self.engine))
            except (TypeError, ValueError) as e:        # a bad option index
                raise ExactCoverError(str(e)) from None
            return [Answer(found, first, nodes, status == 1, status >= 2, seconds, status == 3)
                    for found, nodes, first, status, seconds in answers]
        try:
            links.lay_out(_clock(deadline))
        except _Late:
            return [Answer(0, None, 0, False, True, 0.0, True) for _ in option_sets]
        out = []
        for given in option_sets:
            options = self._options(given, "forced_sets", True)
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                out.append(Answer(0, None, 0, False, True, 0.0, True))  # out of time: not searched
                continue
            out.append(self._search_pure(options, limit, max_nodes, indices, left))
        return out

    def codes(self, table: Sequence[Sequence[Hashable | None]], *, indices: bool = False
              ) -> Codes:
        """The :class:`Codes` of ``table``: for each position, the options its codes
        1, 2, ... name (labels, or option indices with ``indices=True``; None where a
        code names no option).

        >>> import dlx
        >>> latin = dlx.ExactCover({(r, c, v): [("cell", r, c), ("row", r, v),
        ...                                     ("col", c, v)]
        ...                         for r in range(2) for c in range(2) for v in range(2)})
        >>> p = dlx.Prepared(latin)
        >>> codes = p.codes([[(r, c, v) for v in range(2)] for r in range(2) for c in range(2)])
        >>> a = p.batch_codes(bytes([1, 0, 0, 0, 2, 2, 0, 0]), codes)
        >>> a.found, a.status, a.solutions        # the second row clashes
        ([1, 0], b'\\x00\\x01', b'\\x01\\x02\\x02\\x01\\x00\\x00\\x00\\x00')
        """
        links = self._links
        rows: list[list[int | None]] = [
            [None if o is None else cast(int, o) if indices else links.option_index(o)
             for o in row] for row in table]
        return Codes(rows, len(links.labels))

    def batch_codes(self, rows: bytes, codes: Codes, *, limit: int | None = 1,
                    max_nodes: int | None = None, timeout: float | None = None
                    ) -> CodedAnswers:
        """:meth:`batch` for instances given as rows of codes: ``rows`` holds
        ``codes.width`` bytes per instance, the code of each position (0: nothing
        forced there), and each row's forced options are those its codes name, in
        the order of their positions.  The answers (a :class:`CodedAnswers`) are the
        batch's, with each first solution as a row of codes.  On the compiled core
        nothing is made per row but the answers' numbers.  Raises ExactCoverError
        when ``rows`` is not whole rows or a code names no option."""
        check_positive(limit, "limit")
        check_positive(max_nodes, "max_nodes")
        timeout = check_seconds(timeout)
        if not isinstance(codes, Codes):
            raise ExactCoverError(f"codes must be made by Prepared.codes, not {shown(codes)}")
        if not isinstance(rows, (bytes, bytearray, memoryview)):
            raise ExactCoverError(f"rows must be bytes, not {type(rows).__name__}")
        width = codes.width
        if len(rows) % width:
            raise ExactCoverError(f"rows: {len(rows)} bytes are not whole rows of {width}")
        engine = _engine._requested(self.engine)        # (DLX_ENGINE read once)
        if _engine.select(engine) and _engine.fits(self._links):
            try:
                found, nodes, status, seconds, sols = _engine.table(self._links).batch_codes(
                    rows, width, codes.blob, limit=_engine.budget(limit),
                    max_nodes=_engine.budget(max_nodes),
                    timeout=-1.0 if timeout is None else float(timeout),
                    bits=_engine.representation(engine))
            except ValueError as e:
                raise ExactCoverError(str(e).replace("batch_codes: ", "")) from None
            return CodedAnswers(array.array("q", found).tolist(), array.array("q", nodes).tolist(),
                                status, array.array("d", seconds).tolist(), sols)
        sets = []
        for at in range(0, len(rows), width):
            row = rows[at:at + width]
            opts = []
            for p, c in enumerate(row):
                o = codes.table[p][c - 1] if 0 < c <= codes.k else None
                if c and o is None:
                    raise ExactCoverError(f"row {at // width}, position {p}: code {c} names"
                                          " no option")
                if c:
                    opts.append(o)
            sets.append(opts)
        answers = self.batch(sets, limit=limit, max_nodes=max_nodes, timeout=timeout,
                             indices=True)
        out = bytearray(len(rows))
        for k, a in enumerate(answers):
            for q in a.first or ():
                p, c = codes.where.get(cast(int, q), (-1, 0))
                if p >= 0:
                    out[k * width + p] = c
        status = bytes(1 if a.clash else 3 if a.timed_out else 2 if a.out_of_budget else 0
                       for a in answers)
        return CodedAnswers([a.found for a in answers], [a.nodes for a in answers], status,
                            [a.seconds for a in answers], bytes(out))

    def minimize(self, forced: Iterable[Hashable], *,
                 groups: Iterable[Iterable[Hashable]] | None = None,
                 unavoidable: Iterable[Iterable[Hashable]] = (), keep: int = 0,
                 max_nodes: int | None = None, timeout: float | None = None,
                 indices: bool = False) -> Minimized:
        """Drop forced options while the problem under the rest has exactly one solution.

        ``forced`` must have exactly one solution (a puzzle; a whole solution is
        one).  The ``groups`` of forced options (default: each alone, in order) are
        tried in order, and each group goes, as a whole, when the problem under the
        options left still has one solution; options in no group stay.  One pass
        proves the result minimal (see :mod:`dlx.minimal`, which says how it is
        checked cheaply): with ``groups`` in random order, it makes random minimal
        puzzles.  ``max_nodes`` is a node budget per search: a group whose search
        runs out stays (:attr:`Minimized.unknown` counts them).  With
        ``indices=True``, options are option indices (see :attr:`labels`).

        ``unavoidable`` sets spare searches: each is a set of options of the one
        solution that another solution replaces, keeping all its other options (a
        grid puzzle's unavoidable sets, a Latin square's trades).  A puzzle keeps an
        option of each, so a group whose removal would leave one of them with none
        stays, unsearched.  They are trusted, not checked: a set that is not
        unavoidable can keep a group that could go (the puzzle is still unique).

        ``keep`` stops early: a group whose removal would leave fewer than ``keep``
        forced options stays, unsearched (a puzzle with a number of givens; it is
        then minimal only if none was kept so).

        ``timeout`` is seconds for the whole pass: when it runs out,
        :class:`dlx.BudgetExceeded` is raised, its ``found`` the :class:`Minimized`
        so far (the groups not yet decided are kept, so the puzzle is unique but
        perhaps not minimal), or None when it ran out checking the forced options.

        Raises ExactCoverError when ``forced`` does not have exactly one solution
        (or a group is empty, or holds an option that is not forced or already in
        another group), and :class:`dlx.BudgetExceeded` when checking that runs out
        of ``max_nodes``.

        >>> import dlx
        >>> p = dlx.Prepared(dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]}))
        >>> p.minimize(["x", "y"])
        Minimized(kept=('y',), searches=2, nodes=3, unknown=0)
        """
        check_positive(max_nodes, "max_nodes")
        timeout = check_seconds(timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
            raise ExactCoverError(f"keep must be a whole number, not {shown(keep)}")
        links = self._links
        labels = self.labels
        on_core = self._on_core()
        checked: Sequence[Sequence[int]] | None         # None: each forced option alone
        sets: Sequence[Sequence[int]]
        what = "option indices" if indices else "option labels"
        if indices and on_core:             # the core checks indices and groups itself
            options = cast("list[int]", _listed(forced, "forced", what))
            checked = None if groups is None else cast(
                "list[list[int]]", _listed(groups, "groups", f"lists of {what}"))
            sets = cast("list[list[int]]",
                        _listed(unavoidable, "unavoidable", f"lists of {what}"))
        else:
            options = self._options(forced, "forced", indices, inner=False)
            checked = minimal.check_groups(
                options, None if groups is None else [
                    self._options(g, "groups", indices)
                    for g in _listed(groups, "groups", f"lists of {what}")],
                labels.__getitem__)
            sets = [self._options(u, "unavoidable", indices)
                    for u in _listed(unavoidable, "unavoidable", f"lists of {what}")]
        if on_core:
            try:
                status, found, kept, searches, nodes, unknown = _engine.table(links).minimize(
                    options, checked, _engine.budget(max_nodes), sets,
                    min(keep, len(options) + 1), -1.0 if timeout is None else float(timeout))
            except (TypeError, ValueError) as e:        # a bad option index or group
                raise ExactCoverError(str(e)) from None
        else:
            try:
                links.lay_out(_clock(deadline))
            except _Late:
                raise BudgetExceeded(None, None, timeout=timeout) from None

            def search(opts: Sequence[int], limit: int, excluded: int | None
                       ) -> tuple[int, int, bool]:
                left = None if deadline is None else max(deadline - time.monotonic(), 1e-9)
                a = self._search_pure(opts, limit, max_nodes, True, left, excluded=excluded)
                return a.found, a.nodes, a.out_of_budget

            status, found, kept, searches, nodes, unknown = minimal.minimize(
                links, options, checked or [], search, sets, keep, deadline)
        if status == minimal.TIMEOUT:
            done = None if found != 1 else Minimized(
                tuple(kept) if indices else tuple(labels[o] for o in kept), searches, nodes,
                unknown)
            raise BudgetExceeded(None, done, timeout=timeout)
        if status == minimal.BUDGET:
            raise BudgetExceeded(max_nodes or 0, None)
        if status == minimal.NOT_ONE:
            raise ExactCoverError(f"minimize needs forced options with exactly one solution;"
                                  f" these have {'none' if found == 0 else 'more than one'}")
        out = tuple(kept) if indices else tuple(labels[o] for o in kept)
        return Minimized(out, searches, nodes, unknown)

    def _options(self, given: object, name: str, indices: bool, inner: bool = True
                 ) -> list[int]:
        """One set of options the caller gave (``inner``: one of those listed as the
        argument ``name``; else that argument): option indices (``indices``) or
        labels, checked, as option indices."""
        listed = _listed(given, name, "option indices" if indices else "option labels",
                         inner)
        return self._indices(listed) if indices else self._links.forced_options(listed)

    def _indices(self, options: Iterable[Hashable]) -> list[int]:
        """Option indices given by the caller, checked."""
        n = len(self._links.labels)
        if isinstance(options, (str, bytes)):
            raise ExactCoverError(f"expected a list of option indices, not {shown(options)}")
        out: list[int] = []
        for o in options:
            if isinstance(o, bool) or not isinstance(o, int) or not 0 <= o < n:
                raise ExactCoverError(f"forced option index {shown(o)} is not in 0..{n - 1}")
            out.append(o)
        return out

    def _search_pure(self, options: Sequence[int], limit: int | None, max_nodes: int | None,
                     indices: bool, timeout: float | None = None,
                     excluded: int | None = None) -> Answer:
        began = time.perf_counter()
        stats = Stats()
        found = 0
        sol: tuple[Hashable, ...] | None = None
        links = self._links
        table = links.copy()
        if excluded is not None:
            table.exclude(excluded)
        search = run(table, "solutions", stats=stats, max_nodes=max_nodes,
                     timeout=timeout, forced=links.first_primary(options))
        try:
            for labels in search:
                found += 1
                if sol is None:
                    sol = tuple([links.option_index(x) for x in labels]) if indices else labels
                if found == limit:
                    break
        except BudgetExceeded as stop:
            return Answer(found, sol, stats.nodes, False, True, time.perf_counter() - began,
                          stop.max_nodes is None)
        finally:
            search.close()
        return Answer(found, sol, stats.nodes, stats.nodes == 0, False,
                      time.perf_counter() - began)


class _Late(Exception):
    """The deadline passed while the problem was laid out (see :func:`_clock`)."""


def _clock(deadline: float | None) -> Callable[[], None] | None:
    """The ``check`` of :meth:`dlx.links.Links.lay_out` for a deadline: _Late when past."""
    if deadline is None:
        return None

    def check() -> None:
        if time.monotonic() > deadline:
            raise _Late

    return check


def _listed(value: object, name: str, what: str, inner: bool = False) -> list[Any]:
    """The argument ``name`` (a list of ``what``) as a list; ExactCoverError naming it
    when it is not one (None, a number, a string).  ``inner``: it is one of the sets
    that the argument lists."""
    if isinstance(value, list):
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        where = f"each of {name}" if inner else name
        raise ExactCoverError(f"{where} must be a list of {what}, not {shown(value)}")
    return list(value)
