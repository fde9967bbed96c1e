"""A fuzzing harness for dlx: hostile cases, each run and classified.

This is a library, not a test module: ``tests/test_fuzz.py`` runs a few hundred
cases of it (the quick form) and ``bench/fuzz.py`` tens of thousands (the long
form).  A *case* is one thing a hostile user might try; every case ends in one
*outcome kind*:

==================  =========================================================================
answer              an answer, checked (against a brute-force oracle, the verifier
                    :func:`dlx.is_exact_cover`, the other engine, or a known count)
clean error         an :class:`~dlx.ExactCoverError` from the API (or the user's own
                    exception passed on); from the command line, exit 2 with ``dlx: ...``
budget              :class:`~dlx.BudgetExceeded`, or exit 124, on time
interrupted         exit 130 (SIGINT) or 143 (SIGTERM), stdout ending in a complete line
raw traceback       any other exception from the API; "Traceback" on the command's stderr
wrong answer        disagrees with the oracle, the verifier, the other engine or the
                    other reader; an invalid argument accepted
bad output          the command exits with a code the case does not allow, or its
                    stderr/stdout is malformed (a Python warning, markup eaten, a cut line)
hang                over the case's time allowance, or a time limit not kept
crash               death by a signal (a segfault, or a SIGTERM not handled)
runaway             resources out of bounds: memory under a cap that should suffice,
                    more worker processes than a cap, processes left behind
==================  =========================================================================

The families (:data:`FAMILIES`), a module each: ``random`` (small random problems
on both engines against the oracle), ``arguments`` (malformed arguments to the API),
``text`` (malformed DLX files, read by :func:`dlx.read_dlx` and ``dlx solve``),
``cli`` (hostile command lines), ``signals`` (SIGINT and SIGTERM at random
moments), ``deadlines`` (time limits on long searches, API and command), ``files``
(the files written for later, checkpoints, solutions' streams and ZDD files, changed
and resumed) and, in the long form only, ``stress`` (worker SIGKILLs, threads,
memory caps).

=====================  ==========================================================
:mod:`.core`           outcome kinds, results, values as source, attempts, the oracle
:mod:`.commands`       running ``dlx`` as a case does, and judging what it printed
:mod:`.runner`         making and running cases on watched workers; the reports
``family_*``           the families
=====================  ==========================================================

Everything is deterministic: case ``index`` of ``family`` under ``seed`` draws from
``random.Random(f"{family}/{seed}/{index}")``, and ``python bench/fuzz.py
--family F --seed S --case I`` runs it again.  Every search gets a node budget
(:data:`BUDGET`) or a time limit, so a bug fails instead of hanging; cases run in
worker processes (:func:`run_cases`) watched by a timer, so a hang or a crash in
the compiled core is an outcome too.

>>> toy = Spec({"o1": ["c", "e"], "o2": ["a", "d", "g"], "o3": ["b", "c", "f"],
...             "o4": ["a", "d", "f"], "o5": ["b", "g"], "o6": ["d", "e", "g"]})
>>> [sorted(s) for s in oracle(toy)]
[['o1', 'o4', 'o5']]
>>> run_case("random", 1, 0).kind in KINDS
True
"""

from __future__ import annotations

from dlx import Colored

from .core import BUDGET, FAILURES, KINDS, Result, Spec, oracle
from .runner import (
    FAMILIES,
    HARNESS_ERROR,
    QUICK,
    SHARES,
    failures_report,
    make_case,
    plan,
    run_case,
    run_cases,
    table,
)

__all__ = [
    "KINDS", "FAILURES", "FAMILIES", "QUICK", "SHARES", "BUDGET", "HARNESS_ERROR", "Result",
    "Spec", "Colored", "run_case", "run_cases", "make_case", "plan", "table",
    "failures_report", "oracle",
]
