"""A second back-end: OR-Tools' CP-SAT solver behind the same model (``engine="cp-sat"``).

Dancing Links enumerates, counts and refutes; some searches for *a* solution,
though, have heavy tails that a solver with clause learning and restarts cuts
short (the page "Which engine?" has measured cases).  ``engine="cp-sat"`` hands
:func:`dlx.first`, :func:`dlx.is_unique` and :func:`dlx.best` to CP-SAT (the ``cp-sat`` extra:
``pip install 'dancing-links-dlx[cp-sat]'``; OR-Tools is imported only then).
It cannot list or count solutions (it finds one at a time, and each further one
costs a solve that excludes those before), so :func:`dlx.count` and
:func:`dlx.solutions` refuse it.

The model, one Boolean per option:

* a primary item: exactly one of its options (``AddExactlyOne``); with bounds
  ``(u, v)``, ``u <= sum <= v``;
* a secondary item: at most one of its options; with colours, one Boolean per
  (item, colour), implied by each option that gives the item that colour, at
  most one of them and the options that use the item without a colour, and true
  only when one of its options is chosen (so a solution is one assignment);
* an option without a primary item: false (Dancing Links never chooses it);
* ``forced=`` options: true;
* ``best``: the objective, the weights scaled to exact integers (ints as they
  are; Fractions and floats by the least common multiple of their denominators,
  refused when the scaled sum could pass 2**62: CP-SAT adds 64-bit integers).

How the keywords map: ``timeout`` is CP-SAT's ``max_time_in_seconds`` (what is
left of the call's limit, model building included); ``max_nodes`` is its
``max_number_of_conflicts`` (a conflict is a dead end that teaches a clause, the
nearest thing it has to a node budget), spent over all the solves of one call;
``seed`` is its ``random_seed``; ``heuristic`` must be the default (CP-SAT
chooses its own branching); ``progress`` is called about ten times a second
from the calling thread while CP-SAT works, and what it raises stops the solver
(Ctrl-C in the ``dlx`` command).  :class:`~dlx.Stats`: ``nodes`` counts CP-SAT's
branches, ``solutions`` the answers it found, ``explored`` is 1.0 when the search
finished; ``updates`` and ``profile`` are not kept (0, []).

Every answer is checked by :func:`dlx.why_not` (which shares no code with either
engine) before it is returned.  When a limit stops CP-SAT before it knows the
answer, :class:`~dlx.BudgetExceeded` is raised, as the other engines raise it
(without a ``frontier``).

>>> import dlx
>>> p = dlx.ExactCover({"x": ["a"], "y": ["b"], "xy": ["a", "b"]})
>>> cols = Columns.of(p)
>>> [(item, cols.users[k]) for k, item in enumerate(cols.items)]
[('a', [0, 2]), ('b', [1, 2])]
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any

from .bound import checked_weight
from .errors import BudgetExceeded, ExactCoverError, shown
from .events import Stats
from .options import Options
from .problem import Colored, ExactCover
from .rules import DEFAULT
from .verify import why_not

__all__ = ["EXTRA", "PARAMETERS", "Columns", "cp_model", "first", "is_unique", "best",
           "Solve", "scaled_weights", "check_keywords"]

#: The extra that brings OR-Tools.
EXTRA = "cp-sat"

#: CP-SAT's parameters for every solve: one worker (one core, reproducible runs), and
#: no symmetry detection, which cost more than it saved on the large grid problems of
#: bench/hard.py (empty 36 x 36: 5.6 s of CPU with it, 1.9 s without; 49 x 49: 25 s of
#: wall clock with it, 9 s without).
PARAMETERS: dict[str, Any] = {"num_workers": 1, "symmetry_level": 0}

#: How often (seconds) the calling thread wakes while CP-SAT works: to call
#: ``progress``, to notice the time limit, and to let Ctrl-C in.
POLL = 0.05

#: The largest sum of scaled weights CP-SAT is given (it adds 64-bit integers).
MAX_SCALED = 1 << 62


def cp_model() -> Any:
    """OR-Tools' ``cp_model`` module, or one line saying which extra to install."""
    try:
        from ortools.sat.python import cp_model as module
    except ImportError:
        raise ExactCoverError(f"engine='cp-sat' needs OR-Tools, which is not installed: pip"
                              f" install 'dancing-links-dlx[{EXTRA}]'") from None
    return module


class Columns:
    """The problem read by item: for each item (primary first) the options that hold
    it, and for a secondary item the options by colour.  CP-SAT's model and the
    DIMACS export (:mod:`dlx.dimacs`) are written from it.

    ``labels[o]`` is option ``o``; ``users[k]`` the options holding item ``items[k]``
    without a colour; ``colors[k]`` maps each colour of item k to its options;
    ``bounds[k]`` is ``(u, v)`` for a primary item, None for a secondary one;
    ``idle`` lists the options without a primary item (never chosen)."""

    __slots__ = ("labels", "items", "users", "colors", "bounds", "idle", "index")

    def __init__(self, problem: ExactCover, check: Callable[[], object] | None = None
                 ) -> None:
        labels = list(problem.options)
        items = list(problem.primary) + list(problem.secondary)
        where = {item: k for k, item in enumerate(items)}
        users: list[list[int]] = [[] for _ in items]
        colors: list[dict[Hashable, list[int]]] = [{} for _ in items]
        n1 = len(problem.primary)
        idle = []
        for o, label in enumerate(labels):
            if check is not None and not o & 4095:
                check()
            primary = False
            for entry in problem.options[label]:
                if isinstance(entry, Colored):
                    colors[where[entry.item]].setdefault(entry.color, []).append(o)
                else:
                    k = where[entry]
                    users[k].append(o)
                    primary = primary or k < n1
            if not primary:
                idle.append(o)
        self.labels, self.items, self.users, self.colors = labels, items, users, colors
        self.bounds = [problem.bound(item) for item in problem.primary] + \
            [None] * len(problem.secondary)
        self.idle = idle
        self.index = {label: o for o, label in enumerate(labels)}

    @classmethod
    def of(cls, problem: ExactCover, check: Callable[[], object] | None = None) -> Columns:
        """The columns of ``problem``, made once and kept with it."""
        found = problem._derived.get("columns")
        if found is None:
            found = problem._derived["columns"] = cls(problem, check)
        return found

    def forced(self, labels: tuple[Hashable, ...]) -> list[int]:
        """The option numbers of ``forced=`` labels (ExactCoverError as the search says it)."""
        out = []
        idle = set(self.idle)
        for label in labels:
            try:
                o = self.index[label]
            except KeyError:
                raise ExactCoverError(f"forced option {shown(label)} is not an option of the"
                                      " problem") from None
            except TypeError:
                raise ExactCoverError(f"forced option {shown(label)} is not hashable") from None
            if o in idle:
                raise ExactCoverError(f"option {shown(label)} has no primary item, so it is"
                                      " never chosen and cannot be forced")
            out.append(o)
        return out


def check_keywords(opts: Options, view: str) -> None:
    """Refuse what CP-SAT cannot honour: an executor, a heuristic of its own."""
    if opts.executor is not None:
        raise ExactCoverError(f"engine={opts.engine!r} runs in this process: {view}() takes no"
                              " executor with it")
    if opts.heuristic not in (None, DEFAULT.name) and opts.engine == "cp-sat":
        raise ExactCoverError("heuristic= chooses the item Dancing Links branches on; CP-SAT"
                              " branches its own way: leave it out with engine='cp-sat'")


# ------------------------------------------------------------------ the model


class Model:
    """CP-SAT's model of a problem (see the module's docstring) and its solves."""

    def __init__(self, problem: ExactCover, opts: Options,
                 check: Callable[[], object] | None = None) -> None:
        if check is not None:
            check()
        cp = cp_model()
        self.cp = cp
        self.problem = problem
        cols = self.cols = Columns.of(problem, check)
        m = self.model = cp.CpModel()
        new = m.new_bool_var
        x: list[Any] = []
        self.x = x
        for start in range(0, len(cols.labels), 4096):
            if check is not None:
                check()
            x.extend(new("") for _ in range(start, min(start + 4096, len(cols.labels))))
        self.impossible = False
        for k, users in enumerate(cols.users):
            if check is not None and not k & 1023:
                check()
            lits = [x[o] for o in users]
            bound = cols.bounds[k]
            if bound is None:
                hues = cols.colors[k]
                if hues:
                    lits.extend(self._colors(hues))
                if len(lits) > 1:
                    m.add_at_most_one(lits)
            elif bound == (1, 1):
                if not lits:
                    self.impossible = True
                else:
                    m.add_exactly_one(lits)
            else:
                u, v = bound
                if len(lits) < u:
                    self.impossible = True
                elif u > 0 or v < len(lits):
                    m.add_linear_constraint(sum(lits), u, v)
        for o in cols.idle:
            m.add(x[o] == 0)
        for o in cols.forced(opts.forced):
            m.add(x[o] == 1)

    def _colors(self, hues: dict[Hashable, list[int]]) -> list[Any]:
        """One Boolean per colour of a secondary item: implied by each of its options,
        and false unless one of them is chosen."""
        m, x = self.model, self.x
        out = []
        for users in hues.values():
            y = m.new_bool_var("")
            for o in users:
                m.add_implication(x[o], y)
            m.add_bool_or([y.Not()] + [x[o] for o in users])
            out.append(y)
        return out

    def exclude(self, chosen: list[int]) -> None:
        """Exclude the assignment of one solution (its options, and none other)."""
        inside = set(chosen)
        x = self.x
        self.model.add_bool_or([x[o].Not() for o in chosen]
                               + [x[o] for o in range(len(x)) if o not in inside])

    def objective(self, scaled: list[int], maximize: bool) -> None:
        expr = sum(w * v for w, v in zip(scaled, self.x, strict=True) if w)
        if maximize:
            self.model.maximize(expr)
        else:
            self.model.minimize(expr)


class Solve:
    """One call's solves on a model: the limits (a deadline, conflicts left), the
    progress callback, the statistics, and a stop from another thread (the race's)."""

    def __init__(self, opts: Options, deadline: float | None,
                 stop: threading.Event | None = None) -> None:
        self.opts = opts
        self.deadline = deadline
        self.conflicts_left = opts.max_nodes
        self.stats = Stats() if opts.stats is None else opts.stats
        self.stats.nodes = self.stats.updates = self.stats.solutions = 0
        self.stats.profile = []
        self.stats.explored = 0.0
        self.stop = stop
        self.limited = False        # the last solve stopped on a limit

    def check(self) -> None:
        """Raise when the time is up or a stop was asked (while the model is built)."""
        if self.stop is not None and self.stop.is_set():
            raise Stopped
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.out_of_budget(None)

    def out_of_budget(self, found: Any) -> BudgetExceeded:
        opts = self.opts
        if self.deadline is not None and (self.conflicts_left is None
                                          or time.monotonic() >= self.deadline - 0.01):
            return BudgetExceeded(None, found, self.stats, timeout=opts.timeout)
        return BudgetExceeded(opts.max_nodes, found, self.stats, timeout=opts.timeout)

    def run(self, model: Model) -> list[int] | None:
        """Solve once: the options of the answer, or None when there is none; raises
        BudgetExceeded (``found`` None: the caller sets it) when a limit stopped it."""
        if model.impossible:
            self.stats.explored = 1.0
            return None
        cp = model.cp
        solver = cp.CpSolver()
        params = solver.parameters
        for name, value in PARAMETERS.items():
            setattr(params, name, value)
        if self.opts.seed is not None:
            params.random_seed = self.opts.seed % (1 << 31)
        if self.deadline is not None:
            params.max_time_in_seconds = max(self.deadline - time.monotonic(), 1e-3)
        if self.conflicts_left is not None:
            params.max_number_of_conflicts = self.conflicts_left
        status = self._watched(solver, model)
        self.stats.nodes += solver.num_branches
        if self.conflicts_left is not None:
            self.conflicts_left = max(self.conflicts_left - solver.num_conflicts, 0)
        if status == cp.INFEASIBLE:
            self.stats.explored = 1.0
            return None
        if status in (cp.OPTIMAL, cp.FEASIBLE):
            values = solver.response_proto.solution
            chosen = [o for o, v in enumerate(values) if v and o < len(model.x)]
            self.limited = status == cp.FEASIBLE
            self.stats.solutions += 1
            labels = model.cols.labels
            reason = why_not(model.problem, [labels[o] for o in chosen])
            if reason is not None:      # never seen: a bug in the model, not the problem
                raise RuntimeError(f"CP-SAT's answer is not an exact cover: {reason}")
            if status == cp.OPTIMAL:
                self.stats.explored = 1.0
            return chosen
        if status == cp.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT refused the model: {model.model.validate()}")
        if self.stop is not None and self.stop.is_set():
            raise Stopped
        self.limited = True
        raise self.out_of_budget(None)

    def _watched(self, solver: Any, model: Model) -> Any:
        """CP-SAT's ``solve`` in a thread of its own (it releases the GIL), while this
        thread calls ``progress``, watches the deadline and a stop, and takes signals;
        whatever stops this thread stops the solver first, and waits for it."""
        result: list[Any] = []

        def solve() -> None:
            try:
                result.append(solver.solve(model.model))
            except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
                result.append(e)

        worker = threading.Thread(target=solve, name="dlx-cp-sat", daemon=True)
        progress = self.opts.progress
        worker.start()
        try:
            while worker.is_alive():
                worker.join(POLL)
                if self.stop is not None and self.stop.is_set():
                    solver.stop_search()
                if progress is not None and worker.is_alive():
                    progress(self.stats)
        finally:
            if worker.is_alive():
                solver.stop_search()
                while worker.is_alive():        # (a second Ctrl-C must not leave it)
                    try:
                        worker.join()
                    except KeyboardInterrupt:
                        solver.stop_search()
        if isinstance(result[0], BaseException):
            raise result[0]
        return result[0]


class Stopped(Exception):
    """A solve stopped from another thread (the race has an answer)."""


# ------------------------------------------------------------------ the views


def _deadline(opts: Options) -> float | None:
    return None if opts.timeout is None else time.monotonic() + opts.timeout


def first(problem: ExactCover, opts: Options, stop: threading.Event | None = None,
          deadline: float | None = None) -> tuple[Hashable, ...] | None:
    """:func:`dlx.first` on CP-SAT: a solution (not the first in Dancing Links' order).
    (``stop``, ``deadline``: the race's, see :class:`Solve`.)"""
    run = Solve(opts, deadline if deadline is not None else _deadline(opts), stop)
    model = Model(problem, opts, run.check)
    chosen = run.run(model)
    return None if chosen is None else _labels(model, chosen)


def is_unique(problem: ExactCover, opts: Options, stop: threading.Event | None = None,
              deadline: float | None = None) -> bool:
    """:func:`dlx.is_unique` on CP-SAT: a solution, then a second solve excluding it."""
    run = Solve(opts, deadline if deadline is not None else _deadline(opts), stop)
    model = Model(problem, opts, run.check)
    chosen = run.run(model)
    if chosen is None:
        return False
    model.exclude(chosen)
    try:
        return run.run(model) is None
    except BudgetExceeded as e:
        e.found = 1                     # as count(limit=2) says it: one solution so far
        raise


def best(problem: ExactCover, weight: Callable[[Any], Any] | Mapping[Any, Any] | None,
         opts: Options, *, k: int | None, maximize: bool | None,
         stop: threading.Event | None = None, deadline: float | None = None) -> Any:
    """:func:`dlx.best` on CP-SAT: the best by the objective; ``k`` best by successive
    exclusion (ties in CP-SAT's order, not the search order of Dancing Links)."""
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ExactCoverError(f"k must be a positive whole number or None, not {shown(k)}")
    if maximize is None:
        maximize = weight is not None
    run = Solve(opts, deadline if deadline is not None else _deadline(opts), stop)
    weights = _weights(problem, weight)
    scaled, unit = scaled_weights(weights)
    model = Model(problem, opts, run.check)
    model.objective(scaled, maximize)
    floats = any(isinstance(w, float) for w in weights)
    found: list[tuple[Any, tuple[Hashable, ...]]] = []
    for _ in range(k or 1):
        try:
            chosen = run.run(model)
        except BudgetExceeded as e:
            e.found = found if k is not None else (found[0] if found else None)
            raise
        if chosen is None:
            break
        total = sum(scaled[o] for o in chosen)
        score = Fraction(total, unit)
        found.append((_number(score, floats), _labels(model, chosen)))
        if run.limited:                 # a solution, but not known to be the best
            raise run.out_of_budget(found if k is not None else found[0])
        model.exclude(chosen)
    if k is not None:
        return found
    return found[0] if found else None


def _labels(model: Model, chosen: list[int]) -> tuple[Hashable, ...]:
    labels = model.cols.labels
    return tuple(labels[o] for o in chosen)


def _number(score: Fraction, floats: bool) -> Any:
    if floats:
        return float(score)
    return score.numerator if score.denominator == 1 else score


def _weights(problem: ExactCover, weight: Callable[[Any], Any] | Mapping[Any, Any] | None
             ) -> list[Any]:
    """Each option's weight, checked as :func:`dlx.best` checks it."""
    get: Callable[[Any], Any]
    if weight is None:
        get = problem.cost
    elif isinstance(weight, Mapping):
        get = weight.__getitem__
    else:
        get = weight
    return [checked_weight(get, label) for label in problem.options]


def scaled_weights(weights: list[Any]) -> tuple[list[int], int]:
    """The weights as exact integers and their unit (the common denominator): ints as
    they are, Fractions and floats (each exactly the binary fraction it holds) times
    the least common multiple of their denominators.  ExactCoverError when the
    scaled weights could add up past 2**62.

    >>> scaled_weights([1, Fraction(1, 3), 0.5])
    ([6, 2, 3], 6)
    >>> scaled_weights([0.1, 1e-300])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dlx.errors.ExactCoverError: weights cannot be scaled to exact integers CP-SAT can add ...
    """
    exact = [Fraction(w) for w in weights]
    unit = math.lcm(*(w.denominator for w in exact)) if exact else 1
    scaled = [int(w * unit) for w in exact]
    if sum(abs(w) for w in scaled) >= MAX_SCALED:
        worst = max(zip(exact, weights, strict=True), key=lambda p: p[0].denominator)[1]
        raise ExactCoverError(
            "weights cannot be scaled to exact integers CP-SAT can add (their common"
            f" denominator is about 2**{unit.bit_length() - 1}, from weights such as"
            f" {shown(worst)}, and their scaled sum passes 2**62); give ints or Fractions"
            " with small denominators, or use another engine")
    return scaled, unit
