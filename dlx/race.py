"""``engine="race"``: Dancing Links and CP-SAT side by side; the first answer wins.

Neither engine wins everywhere (the page "Which engine?" has the measured table).
Dancing Links finds a solution of some problems with a million options in seconds,
and refutes some without a solution in seconds, where CP-SAT does not finish in
minutes; CP-SAT fills some large grids in seconds where Dancing Links does not
finish in hours.  The race runs both at once and returns the first *definitive*
answer: a solution, or "no solution" (any side's proof will do), or for
:func:`dlx.is_unique` and :func:`dlx.best` the finished answer.  A side that runs
out of its budget (``max_nodes``: the core's nodes, CP-SAT's conflicts) leaves the
race to the others; when all have, :class:`~dlx.BudgetExceeded` is raised.

The sides, each a thread: the core's plain search (``is_unique``: its count up to
two; ``best``: its branch and bound) and CP-SAT; for ``first`` also the core's
restarts (:func:`first_with_restarts`), which escape the heavy tails of the plain
order, while the plain search keeps its work (it refutes, and some instances it
solves at once are beyond the restarts).  The two core searches take turns on one
core (:class:`_Share`: :data:`PLAIN_SHARE` check points of the plain search to one
of the restarts), CP-SAT has the other.  The restarts start once the plain search is
searching (the problem is laid out once, for both); CP-SAT :data:`GRACE` seconds
after that: a problem the core finishes sooner (the restarts too: their runs are
short) never pays for OR-Tools' import and model, which hold the GIL for long.

The losers are stopped at once (the core at its next check point, every 4,096
nodes; CP-SAT by ``StopSearch``; a model being built or a problem being laid out
between two of its steps) and waited for: after an answer, an error, a
``progress`` callback that raises (Ctrl-C in the ``dlx`` command), or the time
limit, no thread of the race is left running.

Threads, not processes (measured by ``bench/hard.py --transport``): every side
releases the GIL while it searches (the core after its first few thousand
updates, CP-SAT for its whole ``solve``), a thread starts in a fraction of a
millisecond where a process must import OR-Tools again (0.4 s alone, seconds on a
busy machine) or be forked from a process that has threads, and a problem needs no
shipping: a million-option problem pickles to 63 MB, which costs seconds each way.
Threads also die with the process when it is killed (SIGKILL), where a child
process would be left running.  What threads cost: the Python of the sides
(laying problems out, importing OR-Tools, building the model) shares the GIL, and
a core search takes the GIL at each check point; so Python's switch interval is
:data:`SWITCH` during a race, and a search waiting for the GIL waits little.  (Two
cores are needed: on a machine so busy that the race's process gets one core's
share, its sides split that share.)

:class:`~dlx.Stats` are the winner's; ``progress`` is called about ten times a
second with the plain search's statistics.
"""

from __future__ import annotations

import importlib.util
import queue
import sys
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from . import cpsat, restarts, serial
from .errors import BudgetExceeded, ExactCoverError
from .events import Stats
from .options import Options
from .problem import ExactCover
from .verify import why_not

__all__ = ["first", "is_unique", "best", "check_keywords", "first_with_restarts", "GRACE"]

#: CP-SAT's side starts this many seconds after the core's plain search is searching
#: (past its layout, which the restarts share): a search the core finishes sooner never
#: pays for OR-Tools' import (0.4 s, holding the GIL) nor for waiting until that import
#: is over.  (Counted from the race's start, a big layout ate the grace: on a problem of
#: a million options the race then took 1.22 s where the restarts alone take 0.40 s.)
GRACE = 0.5

#: Python's switch interval during a race (seconds; 0.005 otherwise): the core's search
#: takes the GIL at each check point (every 4,096 nodes, a few milliseconds), and while
#: another side runs Python (OR-Tools' import, the model) it waits up to an interval
#: for it: 5 ms cost the search two thirds of its speed, 0.5 ms a small part.
SWITCH = 0.0005


def check_keywords(opts: Options, view: str) -> None:
    """What ``engine="cp-sat"`` and ``"race"`` refuse (see :func:`dlx.cpsat.check_keywords`),
    and a missing OR-Tools, said before anything starts."""
    cpsat.check_keywords(opts, view)
    try:
        missing = importlib.util.find_spec("ortools") is None
    except ValueError:                  # (in sys.modules as None: blocked on purpose)
        missing = True
    if missing:
        cpsat.cp_model()                # (raises its one line naming the extra)


def _checked(problem: Any) -> ExactCover:
    if not isinstance(problem, ExactCover):
        raise ExactCoverError(f"expected a dlx.ExactCover, got {type(problem).__name__}"
                              " (build one with dlx.ExactCover({label: items}))")
    return problem


# ------------------------------------------------------------------ the views


def first(problem: ExactCover, opts: Options) -> tuple[Hashable, ...] | None:
    """:func:`dlx.first` on ``opts.engine``: ``"cp-sat"``, or ``"race"`` (the core's plain
    search and its restarts, sharing a core, against CP-SAT)."""
    problem = _checked(problem)
    if opts.engine == "cp-sat":
        return cpsat.first(problem, opts)
    return _race(problem, opts, "first",  # type: ignore[no-any-return]
                 lambda o: serial.first(problem, o),
                 lambda o, stop, deadline: cpsat.first(problem, o, stop, deadline),
                 lambda o, stop, setting_up: first_with_restarts(problem, o, stop, setting_up))


def is_unique(problem: ExactCover, opts: Options) -> bool:
    """:func:`dlx.is_unique` on ``opts.engine``: ``"cp-sat"``, or ``"race"`` (the core
    counting up to two against CP-SAT's two solves)."""
    problem = _checked(problem)
    if opts.engine == "cp-sat":
        return cpsat.is_unique(problem, opts)
    return bool(_race(problem, opts, "is_unique",
                      lambda o: serial.count(problem, o, limit=2) == 1,
                      lambda o, stop, deadline: cpsat.is_unique(problem, o, stop, deadline)))


def best(problem: ExactCover, weight: Callable[[Any], Any] | Mapping[Any, Any] | None,
         opts: Options, *, k: int | None, maximize: bool | None) -> Any:
    """:func:`dlx.best` on ``opts.engine``: ``"cp-sat"``, or ``"race"`` (the core's branch
    and bound against CP-SAT's objective; ties may come in either's order)."""
    problem = _checked(problem)
    if opts.engine == "cp-sat":
        return cpsat.best(problem, weight, opts, k=k, maximize=maximize)
    return _race(problem, opts, "best",
                 lambda o: serial.best(problem, weight, o, k=k, maximize=maximize, bound=None),
                 lambda o, stop, deadline: cpsat.best(problem, weight, o, k=k,
                                                      maximize=maximize, stop=stop,
                                                      deadline=deadline))


# ------------------------------------------------------------------ the Dancing Links side


def first_with_restarts(problem: ExactCover, opts: Options,
                        stop: threading.Event | None = None,
                        before_run: Callable[[], object] | None = None
                        ) -> tuple[Hashable, ...] | None:
    """The race's restarts for ``first``: :func:`dlx.first` with ``restarts=True``
    (:mod:`dlx.restarts`: runs of Luby's node budgets on one layout of the problem).

    ``before_run`` is called first: the restarts are away while they lay the problem
    out (the plain search has the core to itself meanwhile); ``stop`` is looked at
    before that, and at every check point through ``opts.progress``.
    """
    if stop is not None and stop.is_set():
        raise cpsat.Stopped
    if before_run is not None:
        before_run()
    return restarts.first(problem, opts.but(restarts=True))


#: In a race for ``first``: check points (4,096 nodes each) of the plain search for each
#: check point of the restarts, on the core they share.  (The restarts' runs are short
#: and most of their answers come within a check point or two; a refutation comes from
#: the plain search alone, which keeps eight ninths of the core: measured on a search of
#: 14 seconds that ends in no answer, with four to one the race took 1.52x the plain
#: search's time.)
PLAIN_SHARE = 8


class _Share:
    """One core's time between the race's two Dancing Links searches for ``first``:
    :data:`PLAIN_SHARE` check points of the plain search, then one of the restarts, and
    so on (a search waits for its turn inside its progress callback, so the core's
    loop is paused between two steps).  A search that is away (not started, laying a
    problem out, or finished) leaves the core to the other.

    Why both: the plain search never loses its work (it refutes, and finds some
    solutions at once that no random order finds), the restarts escape the heavy
    tails the plain order falls into; eight ninths of the core for the plain one
    keeps it within 1.15x of its time alone."""

    def __init__(self, stop: threading.Event, deadline: float | None) -> None:
        self.cond = threading.Condition()
        self.turn, self.left = _PLAIN, PLAIN_SHARE
        self.away = {_RESTARTS}
        self.stop, self.deadline = stop, deadline

    def tick(self, who: str) -> None:
        """At a check point of ``who``: count it, and wait while it is the other's turn."""
        with self.cond:
            self.away.discard(who)
            if self.turn == who:
                self.left -= 1
                if self.left <= 0:
                    self._pass(who)
            other = _RESTARTS if who == _PLAIN else _PLAIN
            while self.turn != who and other not in self.away and not self.stop.is_set() \
                    and (self.deadline is None or time.monotonic() < self.deadline):
                self.cond.wait(cpsat.POLL)

    def leave(self, who: str) -> None:
        """``who`` is away (laying a problem out, or finished)."""
        with self.cond:
            self.away.add(who)
            if self.turn == who:
                self._pass(who)

    def _pass(self, who: str) -> None:
        self.turn = _RESTARTS if who == _PLAIN else _PLAIN
        self.left = PLAIN_SHARE if self.turn == _PLAIN else 1
        self.cond.notify_all()


# ------------------------------------------------------------------ the race


_PLAIN, _RESTARTS, _SAT = "dancing links", "restarts", "cp-sat"


def _race(problem: ExactCover, opts: Options, view: str,
          plain: Callable[[Options], Any],
          sat: Callable[[Options, threading.Event, float | None], Any],
          restarts: Callable[[Options, threading.Event, Callable[[], object]], Any]
          | None = None) -> Any:
    """Run the sides in threads; return the first definitive answer (see the module)."""
    begun = time.monotonic()
    deadline = None if opts.timeout is None else begun + opts.timeout
    stop = threading.Event()
    searching = threading.Event()           # the plain search is past its layout
    searched: list[float] = []              # (when it was first seen searching)
    share = _Share(stop, deadline)
    results: queue.Queue[tuple[str, bool, Any]] = queue.Queue()
    stats = {_PLAIN: Stats(), _RESTARTS: Stats(), _SAT: Stats()}

    def side(name: str, run: Callable[[], Any]) -> Callable[[], None]:
        def body() -> None:
            try:
                answer = run()
            except BaseException as e:  # noqa: BLE001 - handed to the race's thread
                if not isinstance(e, (BudgetExceeded, cpsat.Stopped)):
                    stop.set()              # (an error ends the race: stop the others now)
                results.put((name, False, e))
            else:
                stop.set()                  # a definitive answer: the others stop now
                results.put((name, True, answer))
            finally:
                if name == _PLAIN:
                    searching.set()
                if name != _SAT:
                    share.leave(name)
        return body

    def checkpoint(who: str) -> Callable[[Stats], None]:
        def check(_: Stats) -> None:
            if who == _PLAIN:
                searching.set()
            if restarts is not None:
                share.tick(who)
            if stop.is_set():
                raise cpsat.Stopped
        return check

    def started(grace: float) -> None:
        """Wait for the plain search to be searching, and then ``grace`` seconds more."""
        while True:
            if stop.is_set():
                raise cpsat.Stopped
            if searching.is_set():
                if not searched:
                    searched.append(time.monotonic())
                if time.monotonic() >= searched[0] + grace:
                    return
            (stop if searching.is_set() else searching).wait(cpsat.POLL)

    def run_plain() -> Any:
        return plain(opts.but(stats=stats[_PLAIN], progress=checkpoint(_PLAIN), engine=None))

    def run_sat() -> Any:
        started(GRACE)
        return sat(opts.but(stats=stats[_SAT], progress=None), stop, deadline)

    def run_restarts() -> Any:
        assert restarts is not None
        started(0.0)                    # (the problem laid out: the restarts reuse it)

        return restarts(opts.but(stats=stats[_RESTARTS], progress=checkpoint(_RESTARTS),
                                 engine=None), stop, lambda: share.leave(_RESTARTS))

    sides = [(_PLAIN, run_plain), (_SAT, run_sat)]
    if restarts is not None:
        sides.append((_RESTARTS, run_restarts))
    threads = [threading.Thread(target=side(name, run), name=f"dlx-race-{name}".replace(
        " ", "-"), daemon=True) for name, run in sides]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(min(switch, SWITCH))
    for t in threads:
        t.start()
    try:
        return _referee(problem, opts, view, results, stats, len(threads))
    finally:
        sys.setswitchinterval(switch)
        stop.set()
        for t in threads:
            while t.is_alive():         # (a second Ctrl-C must not leave it running)
                try:
                    t.join()
                except KeyboardInterrupt:
                    stop.set()


def _referee(problem: ExactCover, opts: Options, view: str,
             results: queue.Queue[tuple[str, bool, Any]], stats: dict[str, Stats],
             sides: int) -> Any:
    """Wait for the sides; the first answer wins (its Stats become the caller's)."""
    progress = opts.progress
    stopped: list[BudgetExceeded] = []
    while len(stopped) < sides:
        try:
            side, ok, outcome = results.get(timeout=cpsat.POLL)
        except queue.Empty:
            if progress is not None:
                progress(stats[_PLAIN])
            continue
        if ok:
            _verified(problem, view, outcome)
            _report(opts, stats[side])
            return outcome
        if isinstance(outcome, BudgetExceeded):
            stopped.append(outcome)
            continue
        if isinstance(outcome, cpsat.Stopped):  # (the other side's error or answer comes)
            sides -= 1
            continue
        raise outcome
    # all ran out: the core's stop says it (a time limit rather than a budget if either)
    timed = [e for e in stopped if e.max_nodes is None]
    e = timed[0] if timed else stopped[0]
    e.frontier = None
    _report(opts, e.stats if isinstance(e.stats, Stats) else Stats())
    e.stats = opts.stats if opts.stats is not None else e.stats
    raise e


def _verified(problem: ExactCover, view: str, answer: Any) -> None:
    """Check every solution in an answer: a solution (``first``), a (score, solution)
    or a list of them (``best``); ``is_unique``'s bool has none."""
    if view == "first":
        sols = [] if answer is None else [answer]
    elif view == "best":
        pairs = answer if isinstance(answer, list) else [] if answer is None else [answer]
        sols = [sol for _, sol in pairs]
    else:
        sols = []
    for sol in sols:
        reason = why_not(problem, sol)
        if reason is not None:
            raise RuntimeError(f"the race's answer is not an exact cover: {reason}")


def _report(opts: Options, stats: Stats) -> None:
    out = opts.stats
    if out is not None and out is not stats:
        out.nodes, out.updates, out.solutions = stats.nodes, stats.updates, stats.solutions
        out.profile, out.explored = list(stats.profile), stats.explored
