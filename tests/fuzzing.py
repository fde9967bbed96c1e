"""A fuzzing harness for dlx: hostile cases, each run and classified (issue 20).

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

The families (:data:`FAMILIES`): ``random`` (small random problems on both
engines against the oracle), ``arguments`` (malformed arguments to the API),
``text`` (malformed DLX files, read by :func:`dlx.read_dlx` and ``dlx solve``),
``cli`` (hostile command lines), ``signals`` (SIGINT and SIGTERM at random
moments), ``deadlines`` (time limits on long searches, API and command) and,
in the long form only, ``stress`` (worker SIGKILLs, threads, memory caps).

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

import atexit
import contextlib
import io
import itertools
import json
import math
import multiprocessing
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from pathlib import Path
from typing import Any

import dlx
from dlx import Colored

__all__ = [
    "KINDS", "FAILURES", "FAMILIES", "QUICK", "BUDGET", "Result", "run_case", "run_cases",
    "plan", "table", "failures_report", "oracle",
]

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

# ------------------------------------------------------------------------ outcome kinds

ANSWER, CLEAN, BUDGET_RAN_OUT, INTERRUPTED = "answer", "clean error", "budget", "interrupted"
RAW, WRONG, BAD_OUTPUT, HANG, CRASH, RUNAWAY = (
    "raw traceback", "wrong answer", "bad output", "hang", "crash", "runaway")
#: Every outcome kind, the clean ones first.
KINDS = (ANSWER, CLEAN, BUDGET_RAN_OUT, INTERRUPTED, RAW, WRONG, BAD_OUTPUT, HANG, CRASH, RUNAWAY)
#: The kinds that are faults.
FAILURES = (RAW, WRONG, BAD_OUTPUT, HANG, CRASH, RUNAWAY)

#: The node budget of every search on a small problem: a link bug fails instead of hanging.
BUDGET = 100_000
#: The address space (KiB) of every command run, so that an unbounded read cannot take
#: the machine down with it; ``ulimit -v`` as in tests/test_cli.py.
MEMORY_KB = 2_000_000
#: A command with ``--timeout T`` must be done by T + this (start-up included).
CLI_SLACK = 3.0
#: An API call with ``timeout=T`` must be done by T + this.
API_SLACK = 1.5


@dataclass(frozen=True)
class Result:
    """What one case did: its outcome ``kind``, a ``key`` that groups failures of the
    same cause, a ``detail`` line and a ``repro`` (Python or shell) to see it by hand."""

    family: str
    seed: int
    index: int
    kind: str
    title: str
    key: str = ""
    detail: str = ""
    repro: str = ""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.kind in FAILURES

    @property
    def rerun(self) -> str:
        return f"python bench/fuzz.py --family {self.family} --seed {self.seed} --case {self.index}"

    def report(self) -> str:
        """The failure as a few lines: what, why, and how to see it again."""
        return (f"[{self.kind}] {self.family} #{self.index}: {self.title}\n"
                f"  {self.detail}\n  rerun: {self.rerun}\n"
                + "".join(f"  | {line}\n" for line in self.repro.splitlines()))


class Verdict(Exception):
    """Raised by a check to end its case with a failure outcome."""

    def __init__(self, kind: str, key: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {key}: {detail}")
        self.kind, self.key, self.detail = kind, key, detail or key


class HostileError(Exception):
    """What the hostile callables raise: the user's own exception, which dlx may pass on."""


@dataclass
class Case:
    """One hostile thing to try: ``run()`` returns (kind, key, detail) or raises Verdict."""

    family: str
    seed: int
    index: int
    title: str
    repro: str
    run: Callable[[], tuple[str, str, str]]
    allowance: float = 30.0       # seconds before the runner calls it a hang


def _short(text: object, n: int = 240) -> str:
    s = str(text).replace("\n", "\\n")
    return s if len(s) <= n else s[: n - 3] + "..."


# -------------------------------------------------------------------- values as source

#: Big numbers written as the expression a person would type.
_NAMED = {2**k: f"2**{k}" for k in (30, 31, 32, 53, 62, 63, 64, 70, 100, 1000)}
_NAMED.update({10**k: f"10**{k}" for k in (18, 25, 30, 100, 400, 5000)})


class Src(str):
    """Python source standing for a value (as it is written in a reproducer)."""


def src(value: Any) -> str:
    """``value`` as Python source that rebuilds it (the prelude's names: dlx, Colored,
    Fraction)."""
    if isinstance(value, Src):
        return str(value)
    if value is None or isinstance(value, (bool, str, bytes)):
        return repr(value)
    if isinstance(value, int):
        if value in _NAMED:
            return _NAMED[value]
        if -value in _NAMED:
            return "-" + _NAMED[-value]
        if value.bit_length() > 10_000:
            return f"int({str(value)[:20]!r}...)"       # not rebuilt: never generated
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "float('nan')"
        if math.isinf(value):
            return "float('inf')" if value > 0 else "-float('inf')"
        return repr(value)
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, Colored):
        return f"Colored({src(value.item)}, {src(value.color)})"
    if isinstance(value, tuple):
        inner = ", ".join(src(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(src(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{src(k)}: {src(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no source for {type(value).__name__}")


PRELUDE = "import dlx\nfrom dlx import Colored\nfrom fractions import Fraction\nBUDGET = 100_000\n"

#: Helpers a case may use; a reproducer defines those it uses.
HELPERS = {
    "HostileError": "class HostileError(Exception):\n    pass",
    "boom": "def boom(*args):\n    raise HostileError('a hostile callable')",
    "threads": ("def threads(call, n=2):\n    from concurrent.futures import ThreadPoolExecutor\n"
                "    with ThreadPoolExecutor(n) as ex:\n        return call(ex)"),
    "io": "import io",
    "sudoku": "from problems import sudoku",
    "random": "import random",
    "Decimal": "from decimal import Decimal",
}


def boom(*args: Any) -> Any:
    raise HostileError("a hostile callable")


def threads(call: Callable[[Any], Any], n: int = 2) -> Any:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(n) as ex:
        return call(ex)


def _namespace(engine: str) -> dict[str, Any]:
    from decimal import Decimal

    from problems import sudoku

    return {"dlx": dlx, "Colored": Colored, "Fraction": Fraction, "BUDGET": BUDGET,
            "ENGINE": engine, "HostileError": HostileError, "boom": boom, "threads": threads,
            "io": io, "sudoku": sudoku, "random": random, "Decimal": Decimal,
            "probe": probe, "split_total": split_total}


def reproducer(setup: str, expr: str, engines: Sequence[str] = ("c",)) -> str:
    """The Python a person runs to see a case: the prelude, the helpers used, ``setup``
    and ``expr`` (with ENGINE set to the first engine that misbehaved)."""
    code = setup + "\n" + expr
    lines = [PRELUDE.rstrip()]
    for name, definition in HELPERS.items():
        if re.search(rf"\b{name}\b", code):
            lines.append(definition)
    if "ENGINE" in code:
        lines.append(f"ENGINE = {engines[0]!r}" + ("  # or 'python'" if engines[0] == "c" else ""))
    if setup.strip():
        lines.append(setup.rstrip())
    lines.append(f"print({expr})")
    return "\n".join(lines)


@dataclass
class Attempt:
    """How one call ended: ``status`` answer | clean | budget | raw | memory."""

    status: str
    value: Any = None
    error: BaseException | None = None
    seconds: float = 0.0

    def describe(self) -> str:
        if self.error is None:
            return f"{self.status}: {_short(repr(self.value), 160)}"
        return f"{self.status}: {describe_exception(self.error)}"


def describe_exception(e: BaseException) -> str:
    """``Type: message (at file:line in function)``, the innermost frame of dlx/ or problems/."""
    where = ""
    frames = traceback.extract_tb(e.__traceback__)
    ours = [f for f in frames if "/dlx/" in f.filename or "/problems/" in f.filename]
    if ours or frames:
        f = (ours or frames)[-1]
        name = f.filename.split("/dlx/")[-1] if "/dlx/" in f.filename else Path(f.filename).name
        where = f" (at {name}:{f.lineno} in {f.name})"
    return f"{type(e).__name__}: {_short(e, 160)}{where}"


def exception_key(e: BaseException) -> str:
    """What groups raw tracebacks of one cause: the type and the innermost function."""
    frames = traceback.extract_tb(e.__traceback__)
    ours = [f for f in frames if "/dlx/" in f.filename or "/problems/" in f.filename]
    f = (ours or frames or [None])[-1]
    return f"{type(e).__name__} in {f.name}" if f is not None else type(e).__name__


def attempt(setup: str, expr: str, engine: str = "c",
            extra: dict[str, Any] | None = None) -> Attempt:
    """Run ``setup`` then evaluate ``expr`` in a fresh namespace (with ``extra`` names in
    it); say how it ended."""
    ns = _namespace(engine)
    ns.update(extra or {})
    started = time.monotonic()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if setup:
                exec(setup, ns)
            started = time.monotonic()          # the time of the call itself
            value = eval(expr, ns)
    except dlx.BudgetExceeded as e:
        return Attempt("budget", None, e, time.monotonic() - started)
    except (dlx.ExactCoverError, HostileError) as e:
        return Attempt("clean", None, e, time.monotonic() - started)
    except MemoryError as e:
        return Attempt("memory", None, e, time.monotonic() - started)
    except Exception as e:  # noqa: BLE001 - the point: anything else is a raw traceback
        return Attempt("raw", None, e, time.monotonic() - started)
    return Attempt("answer", value, None, time.monotonic() - started)


def engines() -> tuple[str, ...]:
    """The engines to compare: both when the core is built."""
    from dlx import engine

    return ("c", "python") if engine.available() else ("python",)


# ------------------------------------------------------------------ the brute-force oracle


@dataclass
class Spec:
    """A problem as plain data, from which the oracle works (never from dlx's tables)."""

    options: dict[Hashable, list[Hashable]]
    secondary: list[Hashable] = field(default_factory=list)
    primary: list[Hashable] | None = None
    bounds: dict[Hashable, tuple[int, int]] = field(default_factory=dict)
    costs: dict[Hashable, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, p: dlx.ExactCover) -> Spec:
        """The spec of a problem dlx accepted (its public attributes only)."""
        return cls({k: list(v) for k, v in p.options.items()}, list(p.secondary),
                   list(p.primary), dict(p.bounds), dict(p.costs))

    def source(self, name: str = "p") -> str:
        args = [src(self.options)]
        if self.secondary:
            args.append(f"secondary={src(self.secondary)}")
        if self.primary is not None:
            args.append(f"primary={src(self.primary)}")
        if self.bounds:
            args.append(f"bounds={src(self.bounds)}")
        if self.costs:
            args.append(f"costs={src(self.costs)}")
        return f"{name} = dlx.ExactCover({', '.join(args)})"

    def primary_items(self) -> list[Hashable]:
        if self.primary is not None:
            return list(self.primary)
        sec = set(self.secondary)
        seen: dict[Hashable, None] = {}
        for entries in self.options.values():
            for e in entries:
                item = e.item if isinstance(e, Colored) else e
                if item not in sec:
                    seen.setdefault(item)
        return list(seen)

    def eligible(self) -> list[Hashable]:
        """Options with a primary item: the only ones a search can choose."""
        prim = set(self.primary_items())
        return [label for label, entries in self.options.items()
                if any(not isinstance(e, Colored) and e in prim for e in entries)]

    def cost(self, label: Hashable) -> Any:
        return self.costs.get(label, 0)

    def build(self) -> dlx.ExactCover:
        """The problem itself (built once)."""
        built = self.__dict__.get("_built")
        if built is None:
            built = self.__dict__["_built"] = dlx.ExactCover(
                self.options, secondary=self.secondary, primary=self.primary,
                bounds=self.bounds, costs=self.costs)
        return built


def oracle(spec: Spec) -> list[frozenset[Hashable]]:
    """Every solution of ``spec`` as a set of labels, by enumerating subsets of the options.

    A subset is a solution when every primary item is covered between its bounds
    (``(1, 1)`` by default) and every secondary item at most once without a colour,
    or any number of times with one colour.  Supersets of a subset that covers an item
    too often are skipped (they can only cover it more), which is still every subset.
    """
    prim = spec.primary_items()
    bounds = {i: spec.bounds.get(i, (1, 1)) for i in prim}
    sec = set(spec.secondary)
    labels = spec.eligible()
    found: list[frozenset[Hashable]] = []
    used: Counter[Hashable] = Counter()          # plain uses of every item
    hues: dict[Hashable, Counter[Hashable]] = {s: Counter() for s in sec}

    def fits(label: Hashable) -> bool:
        for e in spec.options[label]:
            if isinstance(e, Colored):
                others = [c for c, n in hues[e.item].items() if n and c != e.color]
                if used[e.item] or others:
                    return False
            elif e in sec:
                if used[e] or any(hues[e].values()):
                    return False
            elif used[e] + 1 > bounds[e][1]:
                return False
        return True

    def take(label: Hashable, step: int) -> None:
        for e in spec.options[label]:
            if isinstance(e, Colored):
                hues[e.item][e.color] += step
            else:
                used[e] += step

    def extend(k: int, chosen: list[Hashable]) -> None:
        if k == len(labels):
            if all(u <= used[i] <= v for i, (u, v) in bounds.items()):
                found.append(frozenset(chosen))
            return
        extend(k + 1, chosen)                     # without option k
        label = labels[k]
        if fits(label):                           # with option k
            take(label, 1)
            chosen.append(label)
            extend(k + 1, chosen)
            chosen.pop()
            take(label, -1)

    extend(0, [])
    return found


def score(spec: Spec, solution: Iterable[Hashable], weight: Callable[[Hashable], Any]) -> Any:
    """The exact total of a solution: ints and Fractions summed exactly, floats by fsum."""
    values = [weight(label) for label in solution]
    if any(isinstance(w, float) for w in values):
        try:
            return math.fsum(float(w) for w in values)
        except OverflowError:                   # past the largest float: inf, as a sum is
            return sum(float(w) for w in values)
    return sum(values, 0)


def _close(a: Any, b: Any, scale: float) -> bool:
    """Equal for exact numbers; within rounding for floats."""
    if a == b:
        return True
    if isinstance(a, float) or isinstance(b, float):
        return abs(float(a) - float(b)) <= 1e-9 * max(1.0, scale)
    return bool(a == b)


# ------------------------------------------------------------- the family "random"

_PRIMARY_NAMES: list[Hashable] = ["a", "b", "c", "d", "e", "f", ("cell", 0, 1), 7, "ü", "",
                                  "a b", -1]
_SECONDARY_NAMES: list[Hashable] = ["x", "y", "z", ("s", 1), "ß"]
_COLOURS: list[Hashable] = ["R", "G", 0, ("c", 1)]
_LABELS: list[Hashable] = [f"o{k}" for k in range(12)] + list(range(12)) + [
    (k, "r") for k in range(12)] + [None, "", ("o", None)]
_BIG_V = [2**30 - 1, 2**30, 2**31, 2**62, 2**64, 10**30]


def _number(rng: random.Random, kind: str, signed: bool) -> Any:
    """A weight or cost of ``kind`` int | fraction | float | mixed."""
    if kind == "mixed":
        kind = rng.choice(["int", "fraction", "float"])
    if kind == "int":
        x = rng.choice([0, 1, 2, 3, 5, 8, 13, rng.randrange(100), 2**62, 2**63 + 1, 10**25])
    elif kind == "fraction":
        x = Fraction(rng.randrange(0, 30), rng.choice([1, 2, 3, 7, 10**20]))
    else:
        x = rng.choice([0.0, -0.0, 0.5, 1.25, 1e-9, 3.0e6, 0.1, rng.uniform(0, 100)])
    if signed and rng.random() < 0.4:
        x = -x
    return x


def random_spec(rng: random.Random, max_options: int = 9) -> Spec:
    """A small random problem: primary and secondary items, colours, bounds, costs."""
    prim = rng.sample(_PRIMARY_NAMES, rng.choice([0, 1, 2, 3, 3, 4, 4, 5, 5, 6]))
    sec = rng.sample(_SECONDARY_NAMES, rng.choice([0, 0, 1, 2, 3]))
    labels = rng.sample(_LABELS, rng.randrange(0, max_options + 1))
    options: dict[Hashable, list[Hashable]] = {}
    for label in labels:
        entries: list[Hashable] = rng.sample(prim, rng.randrange(0 if rng.random() < 0.1 else 1,
                                                                 min(3, len(prim)) + 1)
                                             if prim else 0)
        for s in rng.sample(sec, rng.randrange(0, min(2, len(sec)) + 1)):
            entries.append(Colored(s, rng.choice(_COLOURS)) if rng.random() < 0.5 else s)
        rng.shuffle(entries)
        options[label] = entries
    spec = Spec(options, sec)
    if rng.random() < 0.4:
        declared = Spec(options, sec).primary_items()
        if rng.random() < 0.3:
            extra = [n for n in _PRIMARY_NAMES if n not in declared and n not in sec]
            declared.append(rng.choice(extra))       # an item no option covers
        rng.shuffle(declared)
        spec.primary = declared
    if rng.random() < 0.4:
        for item in spec.primary_items():
            if rng.random() < 0.7:
                u = rng.choice([0, 0, 1, 1, 2, 3])
                v = max(u, 1) + rng.choice([0, 0, 1, 2])
                if rng.random() < 0.15:
                    v = rng.choice(_BIG_V)
                if rng.random() < 0.03:
                    u = v
                spec.bounds[item] = (u, v)
    if rng.random() < 0.4:
        kind = rng.choice(["int", "int", "fraction", "float", "mixed"])
        for label in labels:
            if rng.random() < 0.7:
                spec.costs[label] = abs(_number(rng, kind, False)) if rng.random() < 0.9 \
                    else -0.0
    return spec


def _forced(rng: random.Random, spec: Spec, chance: float = 0.3) -> list[Hashable]:
    eligible = spec.eligible()
    if not eligible or rng.random() >= chance:
        return []
    return rng.sample(eligible, min(len(eligible), rng.choice([1, 1, 2])))


def _keywords(rng: random.Random, spec: Spec, forced: list[Hashable], *,
              limit: bool = True) -> tuple[str, int | None]:
    """Random common keywords (as source) and the limit they set."""
    kw = []
    n = None
    if forced:
        kw.append(f"forced={src(forced)}")
    if rng.random() < 0.2:
        kw.append(f"heuristic={rng.choice(['first', 'mrv'])!r}")
    if rng.random() < 0.2:
        kw.append(f"seed={rng.randrange(1000)}")
    if limit and rng.random() < 0.3:
        n = rng.randrange(1, 5)
        kw.append(f"limit={n}")
    return "".join(", " + k for k in kw), n


class _Trial:
    """One call, evaluated once per engine and checked against the oracle."""

    def __init__(self, title: str, setup: str, expr: str,
                 check: Callable[[str, Any], None], *, engines_: Sequence[str] | None = None,
                 may_refuse: Callable[[BaseException], bool] | None = None) -> None:
        self.title, self.setup, self.expr, self.check = title, setup, expr, check
        self.engines = tuple(engines_ or engines())
        self.may_refuse = may_refuse

    def __call__(self) -> tuple[str, str, str]:
        results: dict[str, Attempt] = {}
        faults: list[Verdict] = []
        for engine in self.engines:
            a = results[engine] = attempt(self.setup, self.expr, engine)
            try:
                self._judge(engine, a)
            except Verdict as v:
                faults.append(Verdict(v.kind, v.key, f"engine={engine}: {v.detail}"))
        if faults:
            raise worst(faults)
        answered = [a for a in results.values() if a.status == "answer"]
        if answered and len(answered) < len(results):
            raise Verdict(WRONG, f"{self.title}: one engine refused, the other answered",
                          "; ".join(f"{e}: {a.describe()}" for e, a in results.items()))
        return (ANSWER if answered else CLEAN), "", ""

    def _judge(self, engine: str, a: Attempt) -> None:
        if a.status == "raw":
            raise Verdict(RAW, exception_key(a.error), f"{self.title}: {a.describe()}")
        if a.status == "memory":
            raise Verdict(RUNAWAY, f"{self.title}: MemoryError", a.describe())
        if a.status == "budget":
            raise Verdict(HANG, f"{self.title}: node budget ran out on a tiny problem",
                          a.describe())
        if a.status == "clean":
            if self.may_refuse is None or not self.may_refuse(a.error):
                raise Verdict(WRONG, f"{self.title}: refused a valid call", a.describe())
            return
        self.check(engine, a.value)


#: The failure kinds from the most serious down: a case with several reports the first.
SEVERITY = (WRONG, CRASH, HANG, RAW, RUNAWAY, BAD_OUTPUT)


def worst(faults: Sequence[Verdict]) -> Verdict:
    """The most serious of a case's faults (the others are named in its detail)."""
    first = min(faults, key=lambda v: SEVERITY.index(v.kind))
    others = [f"{v.kind}: {v.key}" for v in faults if v is not first]
    if others:
        return Verdict(first.kind, first.key, first.detail + " (also " + "; ".join(others) + ")")
    return first


def _wrong(title: str, what: str, detail: str) -> Verdict:
    return Verdict(WRONG, f"{title}: {what}", detail)


def _check_solution(title: str, spec: Spec, expected: set[frozenset[Hashable]],
                    forced: Iterable[Hashable], sol: Any) -> frozenset[Hashable]:
    if not isinstance(sol, tuple):
        raise _wrong(title, "a solution is not a tuple", repr(sol))
    s = frozenset(sol)
    if len(s) != len(sol):
        raise _wrong(title, "an option twice in a solution", repr(sol))
    if s not in expected:
        raise _wrong(title, "a solution the oracle does not have",
                     f"{sol!r}; the oracle has {len(expected)}")
    if not set(forced) <= s:
        raise _wrong(title, "a solution without its forced options", repr(sol))
    if not dlx.is_exact_cover(spec.build(), sol):
        raise _wrong(title, "the verifier rejects a solution", repr(sol))
    return s


def _random_trial(rng: random.Random, spec: Spec, sols: list[frozenset[Hashable]]) -> _Trial:
    """One view of ``spec`` with random keywords, checked against the oracle's ``sols``."""
    setup = spec.source()
    bounded = any(b != (1, 1) for b in spec.bounds.values())
    view = rng.choices(["solutions", "count", "first", "is_unique", "best", "costs", "estimate",
                        "cache", "batch", "split", "executor"],
                       [3, 3, 2, 1, 4, 3, 1, 2, 2, 1, 1])[0]
    forced = _forced(rng, spec)
    under = [s for s in sols if set(forced) <= s]
    expected = set(under)
    n = len(under)
    tag = f"{view}{' (bounds)' if bounded else ''}"

    def valid(sol: Any) -> frozenset[Hashable]:
        return _check_solution(tag, spec, expected, forced, sol)

    if view == "solutions":
        kw, limit = _keywords(rng, spec, forced)
        expr = f"list(dlx.solutions(p{kw}, max_nodes=BUDGET, engine=ENGINE))"
        order: dict[str, Any] = {}

        def check(engine: str, value: Any) -> None:
            got = [valid(s) for s in value]
            if len(set(got)) != len(got):
                raise _wrong(tag, "a solution twice", repr(value))
            want = n if limit is None else min(limit, n)
            if len(got) != want:
                raise _wrong(tag, "wrong number of solutions", f"{len(got)}, oracle {want}")
            order[engine] = value
            if len(order) == 2 and len(set(map(repr, order.values()))) == 2:
                raise _wrong(tag, "the engines give different orders", repr(order))
        return _Trial(tag, setup, expr, check)
    if view in ("count", "is_unique"):
        kw, limit = _keywords(rng, spec, forced, limit=view == "count")
        expr = f"dlx.{view}(p{kw}, max_nodes=BUDGET, engine=ENGINE)"
        want: Any = (n if limit is None else min(limit, n)) if view == "count" else n == 1

        def check(engine: str, value: Any) -> None:
            if value != want or type(value) is not type(want):
                raise _wrong(tag, f"{view} differs from the oracle", f"{value!r}, oracle {want!r}")
        return _Trial(tag, setup, expr, check)
    if view == "first":
        kw, _ = _keywords(rng, spec, forced, limit=False)
        expr = f"dlx.first(p{kw}, max_nodes=BUDGET, engine=ENGINE)"

        def check(engine: str, value: Any) -> None:
            if value is None:
                if n:
                    raise _wrong(tag, "None with solutions", f"the oracle has {n}")
            else:
                valid(value)
        return _Trial(tag, setup, expr, check)
    if view in ("best", "costs"):
        return _best_trial(rng, spec, view, tag, setup, forced, under)
    if view == "estimate":
        samples = rng.choice([1, 2, 10, 50])
        kw, _ = _keywords(rng, spec, forced, limit=False)
        kw = re.sub(r", seed=\d+", "", kw)
        expr = f"dlx.estimate(p{kw}, samples={samples}, seed={rng.randrange(100)})"

        def check(engine: str, e: Any) -> None:
            fields = (e.nodes, e.solutions, e.nodes_error, e.solutions_error)
            if not all(isinstance(x, float) and (x >= 0) for x in fields) \
                    or not all(math.isfinite(x) for x in fields[:2]):
                raise _wrong(tag, "an estimate out of range", repr(e))
            if n == 0 and e.solutions != 0:
                raise _wrong(tag, "solutions estimated where there are none", repr(e))
            if e.samples != samples:
                raise _wrong(tag, "the wrong number of samples", repr(e))
        return _Trial(tag, setup, expr, check, engines_=("python",),
                      may_refuse=lambda e: bounded and "bounds" in str(e))
    if view == "cache":
        kw, limit = _keywords(rng, spec, forced)
        kw = re.sub(r", seed=\d+", "", kw)
        cache = rng.choice(["True", "True", "1", "3", "1000"])
        expr = f"dlx.count(p{kw}, cache={cache}, max_nodes=BUDGET, engine=ENGINE)"
        want = n if limit is None else min(limit, n)

        def check(engine: str, value: Any) -> None:
            if value != want:
                raise _wrong(tag, "count(cache=) differs from the oracle",
                             f"{value!r}, oracle {want}")
        return _Trial(tag, setup, expr, check)
    if view == "batch":
        return _batch_trial(rng, spec, tag, setup, sols)
    if view == "split":
        how = rng.choice([f"pieces={rng.randrange(1, 12)}", f"depth={rng.randrange(0, 4)}"])
        fsrc = f", forced={src(forced)}" if forced else ""
        expr = (f"sum(dlx.count(p, forced=piece, max_nodes=BUDGET, engine=ENGINE)"
                f" for piece in dlx.split(p, {how}{fsrc}, engine=ENGINE))")

        def check(engine: str, value: Any) -> None:
            if value != n:
                raise _wrong(tag, "the pieces of split do not add up",
                             f"{value!r}, oracle {n}")
        return _Trial(tag, setup, expr, check)
    # executor: the parallel path on threads
    which = rng.choice(["count", "first", "best", "solutions"])
    fsrc = f", forced={src(forced)}" if forced else ""
    if which == "count":
        expr = (f"threads(lambda ex: dlx.count(p{fsrc}, executor=ex, max_nodes=BUDGET,"
                " engine=ENGINE))")

        def check(engine: str, value: Any) -> None:
            if value != n:
                raise _wrong(tag + " count", "differs from the oracle", f"{value!r}, oracle {n}")
    elif which == "solutions":
        expr = (f"threads(lambda ex: list(dlx.solutions(p{fsrc}, executor=ex, max_nodes=BUDGET,"
                " engine=ENGINE)))")

        def check(engine: str, value: Any) -> None:
            got = {valid(s) for s in value}
            if len(got) != len(value) or got != expected:
                raise _wrong(tag + " solutions", "differ from the oracle",
                             f"{len(value)} solutions, oracle {n}")
    elif which == "first":
        expr = (f"threads(lambda ex: dlx.first(p{fsrc}, executor=ex, max_nodes=BUDGET,"
                " engine=ENGINE))")

        def check(engine: str, value: Any) -> None:
            if (value is None) != (n == 0):
                raise _wrong(tag + " first", "differs from the oracle", f"{value!r}, oracle {n}")
            if value is not None:
                valid(value)
    else:
        return _best_trial(rng, spec, "costs", tag + " best", setup, forced, under,
                           executor=True)
    return _Trial(tag + f" {which}", setup, expr, check)


def _best_trial(rng: random.Random, spec: Spec, view: str, tag: str, setup: str,
                forced: list[Hashable], under: list[frozenset[Hashable]],
                executor: bool = False) -> _Trial:
    """``best`` by a weight (map or callable) or by the costs, with k or not."""
    labels = list(spec.options)
    k = rng.choice([None, None, 1, 2, 3, 5])
    kw = f", k={k}" if k is not None else ""
    if forced:
        kw += f", forced={src(forced)}"
    if view == "best":
        kind = rng.choice(["int", "int", "fraction", "float", "mixed"])
        weights = {label: _number(rng, kind, True) for label in labels}
        setup += f"\nW = {src(weights)}"
        wsrc = rng.choice(["W", "lambda label: W[label]"])
        maximize = rng.choice([None, True, False])
        kw = f", {wsrc}" + kw + (f", maximize={maximize}" if maximize is not None else "")
        biggest = maximize is not False

        def weight(label: Hashable) -> Any:
            return weights[label]
    else:
        maximize = rng.choice([None, None, False, True])
        kw += f", maximize={maximize}" if maximize is not None else ""
        biggest = maximize is True
        weights = {label: spec.cost(label) for label in labels}
        weight = spec.cost
    floats = any(isinstance(w, float) for w in weights.values())
    scale = sum(abs(float(w)) for w in weights.values())
    ranked = sorted((score(spec, s, weight) for s in under), reverse=biggest)
    if executor:
        expr = (f"threads(lambda ex: dlx.best(p{kw}, executor=ex, max_nodes=BUDGET,"
                " engine=ENGINE))")
    else:
        expr = f"dlx.best(p{kw}, max_nodes=BUDGET, engine=ENGINE)"
    expected = set(under)

    def one(pair: Any) -> tuple[Any, frozenset[Hashable]]:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise _wrong(tag, "not a (score, solution) pair", repr(pair))
        value, sol = pair
        s = _check_solution(tag, spec, expected, forced, sol)
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise _wrong(tag, "a score that is not a number", repr(pair))
        if not floats and isinstance(value, float):
            raise _wrong(tag, "a float score from exact weights", repr(pair))
        if isinstance(value, float) and value == 0 and math.copysign(1.0, value) < 0:
            raise _wrong(tag, "a score of -0.0", repr(pair))
        if not _close(value, score(spec, s, weight), scale):
            raise _wrong(tag, "a score that is not the solution's total",
                         f"{pair!r}: its total is {score(spec, s, weight)!r}")
        return value, s

    def check(engine: str, value: Any) -> None:
        if k is None:
            if value is None:
                if ranked:
                    raise _wrong(tag, "None with solutions", f"the oracle's best is {ranked[0]!r}")
                return
            got, _ = one(value)
            if not ranked or not _close(got, ranked[0], scale):
                raise _wrong(tag, "not the best score", f"{value!r}; the oracle's best is"
                             f" {ranked[0] if ranked else None!r}")
            return
        if not isinstance(value, list):
            raise _wrong(tag, "k= did not give a list", repr(value))
        pairs = [one(v) for v in value]
        if len({s for _, s in pairs}) != len(pairs):
            raise _wrong(tag, "a solution twice among the k best", repr(value))
        want = ranked[:k]
        if len(pairs) != len(want) or not all(_close(a, b, scale) for (a, _), b in
                                              zip(pairs, want, strict=True)):
            raise _wrong(tag, "not the k best scores",
                         f"{[v for v, _ in pairs]!r}; the oracle's are {want!r}")

    def may_refuse(e: BaseException) -> bool:
        return floats and "too large" in str(e)

    return _Trial(tag, setup, expr, check, may_refuse=may_refuse)


def _batch_trial(rng: random.Random, spec: Spec, tag: str, setup: str,
                 sols: list[frozenset[Hashable]]) -> _Trial:
    """``Prepared.batch`` under a few forced sets, by labels or by indices."""
    eligible = spec.eligible()
    sets = [rng.sample(eligible, min(len(eligible), rng.choice([0, 1, 1, 2])))
            for _ in range(rng.randrange(1, 4))]
    indices = bool(eligible) and rng.random() < 0.4
    limit = rng.choice([None, 1, 2, 5])
    given = [[eligible.index(x) for x in s] for s in sets] if indices else sets
    setup += "\nP = dlx.Prepared(p, engine=ENGINE)"
    expr = f"P.batch({src(given)}, limit={limit}, max_nodes=BUDGET, indices={indices})"

    def check(engine: str, answers: Any) -> None:
        if len(answers) != len(sets):
            raise _wrong(tag, "not one answer per set", repr(answers))
        for forced, a in zip(sets, answers, strict=True):
            under = {s for s in sols if set(forced) <= s}
            want = len(under) if limit is None else min(limit, len(under))
            if a.found != want or a.out_of_budget:
                raise _wrong(tag, "found differs from the oracle",
                             f"forced {forced!r}: {a!r}, oracle {want}")
            if (a.first is None) != (want == 0):
                raise _wrong(tag, "first does not match found", f"forced {forced!r}: {a!r}")
            if a.first is not None:
                first = tuple(eligible[i] for i in a.first) if indices else a.first
                _check_solution(tag, spec, under, forced, first)
    return _Trial(tag, setup, expr, check)


def _case_random(rng: random.Random, case: Case) -> None:
    spec = random_spec(rng)
    trial = _random_trial(rng, spec, oracle(spec))
    case.title = trial.title
    case.repro = reproducer(trial.setup, trial.expr)
    case.run = trial
    case.allowance = 30.0


# ---------------------------------------------------------- the family "arguments"

#: Values for a parameter, as source: (must work, may work or be refused, must be refused).
Pool = tuple[list[str], list[str], list[str]]

_NOT_INTS = ["True", "False", "1.5", "1.0", "float('nan')", "float('inf')", "'3'", "b'3'",
             "[3]", "(3,)", "object()", "Fraction(3, 1)", "3j", "Decimal(3)"]
_HUGE = ["2**31", "2**62", "2**63", "2**64", "10**18", "10**400"]
_NOT_SECONDS = ["0", "0.0", "-0.0", "-1", "float('nan')", "float('inf')", "-float('inf')",
                "True", "'1'", "[1]", "object()", "3j"]


def _pools(spec: Spec) -> dict[str, Pool]:
    """The hostile values of every kind of parameter, for a base problem ``spec``."""
    eligible = spec.eligible()
    label = src(eligible[0]) if eligible else "'o1'"
    other = src(eligible[-1]) if eligible else "'o2'"
    idle = [x for x in spec.options if x not in eligible]
    return {
        "count": (["1", "2", "3"], _HUGE, ["0", "-1", "-2**63", *_NOT_INTS]),
        "count?": (["None", "1", "2", "3"], _HUGE, ["0", "-1", "-2**63", *_NOT_INTS]),
        "keep?": (["None", "0", "1", "2", "3"], _HUGE, ["-1", "-2**63", *_NOT_INTS]),
        "budget?": (["None", "1", "5", "1000"], _HUGE, ["0", "-1", *_NOT_INTS]),
        "seconds?": (["None", "0.5", "5", "30"],
                     ["1e-9", "1e-300", "10**400", "2**63", "1e308", "Fraction(1, 2)"],
                     _NOT_SECONDS),
        "engine": (["'c'", "'python'", "'auto'", "None"], ["'C'", "' c '"],
                   ["''", "'fast'", "1", "True", "['c']", "b'c'", "object()"]),
        "heuristic": (["'mrv'", "'first'", "None", "lambda pairs: 0",
                       "lambda pairs: len(pairs) - 1"],
                      ["lambda pairs: -1", "lambda pairs: True", "lambda pairs: 99",
                       "lambda pairs: None", "lambda pairs: 'a'", "lambda pairs: 0.0",
                       "lambda pairs: 10**400", "lambda pairs: -10**400", "boom"],
                      ["'MRV'", "''", "1", "True", "['mrv']", "object()"]),
        # estimate takes a heuristic by name only
        "named heuristic": (["'mrv'", "'first'", "None"], ["lambda pairs: 0", "boom"],
                            ["'MRV'", "''", "1", "True", "['mrv']", "object()"]),
        "forced": (["[]", "()", f"[{label}]", f"iter([{label}])"],
                   [f"[{label}, {label}]", f"[{label}, {other}]", f"{{{label}: 1}}", "[None]",
                    *([f"[{src(idle[0])}]"] if idle else []), "range(0)"],
                   ["None", "5", "[[1]]", "['no such label']", "[{}]", "object()"]),
        "seed": (["None", "0", "1", "-1", "2**63"], ["10**400", "-10**400"],
                 ["1.5", "'x'", "True", "[1]", "float('nan')", "b'x'", "object()"]),
        "stats": (["None", "dlx.Stats()"], [], ["{}", "1", "'x'", "dlx.Stats", "object()"]),
        "progress": (["None", "lambda stats: None"], ["boom"], ["1", "'x'", "object()"]),
        "maximize": (["True", "False", "None"], ["1", "0", "'no'", "float('nan')", "[]"], []),
        "weight": (["W", "lambda label: 1", "lambda label: -1", "lambda label: Fraction(1, 3)",
                    "lambda label: 0.5", "lambda label: 10**400", "lambda label: -0.0",
                    "lambda label: 0.0", "None"],
                   ["lambda label: 2**63", "{}", "boom", "lambda label: 1e308",
                    "lambda label: -1e308", "lambda label: 5e-324"],
                   ["lambda label: float('nan')", "lambda label: float('inf')",
                    "lambda label: True", "lambda label: '1'", "lambda label: None",
                    "lambda label: 1j", "lambda label: [1]", "[]", "5", "'W'",
                    f"lambda label: 10**400 if label == {label} else 0.5"]),
        "cache": (["True", "False", "None", "1", "100"], ["2**63", "10**400"],
                  ["0", "-1", "1.5", "'x'", "[]", "float('nan')"]),
        "flag": (["True", "False"], ["1", "0", "'yes'", "None", "''"], []),
        "indices": (["True"], ["1", "'yes'", "0", "None", "''", "False"], []),
        "sets": (["[[]]", f"[[{label}]]", "[]", f"[[{label}], [{other}]]"],
                 [f"[[{label}, {label}]]", f"[iter([{label}])]", f"iter([[{label}]])",
                  f"[({label},)]", f"[{{{label}}}]"],
                 ["[['no such label']]", "[None]", "None", "[5]", "[[[1]]]", "5"]),
        "index sets": (["[[0]]", "[[]]", "[]"] + (["[[0, 1]]"] if len(eligible) > 1 else []),
                       ["[[0, 0]]", "[range(1)]", "[(0,)]"],
                       ["[[True]]", "[[False]]", "[[-1]]", "[[2**63]]", "[[10**400]]",
                        "[[-2**63]]", "[[1.0]]", "[[999]]", "[['0']]", "[None]", "[[None]]",
                        "None", "'0'"]),
        "samples": (["1", "10", "100"], ["2**63", "10**400"], ["0", "-1", *_NOT_INTS]),
        "depth?": (["None", "0", "1", "3"], _HUGE, ["-1", *_NOT_INTS]),
        "keep": (["0", "1", "5"], _HUGE, ["-1", *_NOT_INTS]),
        "groups": (["None", "[[x] for x in S]", "[S]"], ["[S[:1]]", "[]"],
                   ["[[]]", "[S[:1], S[:1]]", "5", "[[('no', 'such')]]", "'ab'"]),
        "unavoidable": (["()", "[S[:2]]"], ["[[]]", "[S]"], ["None", "5", "[[('no',)]]"]),
        "minimize forced": (["S"], ["S[:5]", "S + S[:1]", "[]"],
                            ["None", "5", "[('no', 'such')]", "'ab'"]),
    }


_BASES = {
    "toy": Spec({"o1": ["c", "e"], "o2": ["a", "d", "g"], "o3": ["b", "c", "f"],
                 "o4": ["a", "d", "f"], "o5": ["b", "g"], "o6": ["d", "e", "g"]}),
    "mixed": Spec({"x": ["a", "u"], "y": ["b", Colored("v", "R")], "xy": ["a", "b"],
                   "z": ["a", Colored("v", "R")], "w": ["u"]}, ["u", "v"],
                  costs={"x": 2, "y": 1, "xy": 4, "z": 1}),
    "bounded": Spec({"x": ["a"], "y": ["a", "b"], "z": ["a"], "w": ["b"]},
                    bounds={"a": (1, 2)}, costs={"x": 1, "y": 3, "z": 2, "w": 1}),
}


@dataclass
class _Slot:
    """A parameter of an API call: where the hostile value goes and how to check an answer."""

    name: str
    setup: str
    call: str                   # with {v} where the value goes
    pool: str
    sanity: str                 # which answers are right: see _sane
    run_on: str = "engine"      # "engine": ENGINE in the call; "env": DLX_ENGINE; "one"


def _view_slots() -> list[_Slot]:
    slots = []
    views = {"count": "dlx.count(p, max_nodes=BUDGET, engine=ENGINE{kw})",
             "solutions": "list(dlx.solutions(p, max_nodes=BUDGET, engine=ENGINE{kw}))",
             "first": "dlx.first(p, max_nodes=BUDGET, engine=ENGINE{kw})",
             "is_unique": "dlx.is_unique(p, max_nodes=BUDGET, engine=ENGINE{kw})",
             "best": "dlx.best(p, W, max_nodes=BUDGET, engine=ENGINE{kw})"}
    common = {"limit": "count?", "timeout": "seconds?", "forced": "forced", "seed": "seed",
              "stats": "stats", "heuristic": "heuristic", "progress": "progress"}
    for view, call in views.items():
        for kw, pool in common.items():
            if kw == "limit" and view not in ("count", "solutions"):
                continue
            slots.append(_Slot(f"dlx.{view}({kw}=)", "",
                               call.replace("{kw}", f", {kw}={{v}}"), pool, view))
        plain = call.replace("{kw}", "")
        slots.append(_Slot(f"dlx.{view}(max_nodes=)", "",
                           plain.replace("max_nodes=BUDGET", "max_nodes={v}"), "budget?", view))
        slots.append(_Slot(f"dlx.{view}(engine=)", "",
                           plain.replace("engine=ENGINE", "engine={v}"), "engine", view, "one"))
    slots += [
        _Slot("dlx.best(weight)", "", "dlx.best(p, {v}, max_nodes=BUDGET, engine=ENGINE)",
              "weight", "best"),
        _Slot("dlx.best(k=)", "", "dlx.best(p, W, k={v}, max_nodes=BUDGET, engine=ENGINE)",
              "count?", "best"),
        _Slot("dlx.best(maximize=)", "",
              "dlx.best(p, W, maximize={v}, max_nodes=BUDGET, engine=ENGINE)", "maximize",
              "best"),
        _Slot("dlx.best(costs, k=)", "", "dlx.best(p, k={v}, max_nodes=BUDGET, engine=ENGINE)",
              "count?", "best"),
        _Slot("dlx.count(cache=)", "", "dlx.count(p, cache={v}, max_nodes=BUDGET, engine=ENGINE)",
              "cache", "count"),
        _Slot("dlx.estimate(samples=)", "", "dlx.estimate(p, samples={v}, seed=1)", "samples",
              "estimate", "one"),
        _Slot("dlx.estimate(seed=)", "", "dlx.estimate(p, samples=20, seed={v})", "seed",
              "estimate", "one"),
        _Slot("dlx.estimate(heuristic=)", "", "dlx.estimate(p, samples=20, heuristic={v})",
              "named heuristic", "estimate", "one"),
        _Slot("dlx.estimate(forced=)", "", "dlx.estimate(p, samples=20, forced={v})", "forced",
              "estimate", "one"),
        _Slot("dlx.split(pieces=)", "", "split_total(dlx.split(p, pieces={v}, engine=ENGINE), p)",
              "count?", "split"),
        _Slot("dlx.split(depth=)", "", "split_total(dlx.split(p, depth={v}, engine=ENGINE), p)",
              "depth?", "split"),
        _Slot("dlx.split(forced=)", "",
              "split_total(dlx.split(p, forced={v}, engine=ENGINE), p, {v})", "forced", "split"),
        _Slot("dlx.split(heuristic=)", "",
              "split_total(dlx.split(p, heuristic={v}, engine=ENGINE), p)", "heuristic", "split"),
        _Slot("dlx.Prepared(engine=)", "", "dlx.Prepared(p, engine={v}).count(max_nodes=BUDGET)",
              "engine", "count", "one"),
        _Slot("Prepared.batch(sets)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.batch({v}, max_nodes=BUDGET)", "sets", "batch"),
        _Slot("Prepared.batch(indices=True)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.batch({v}, max_nodes=BUDGET, indices=True)", "index sets", "batch indices"),
        _Slot("Prepared.batch(limit=)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.batch([[]], limit={v}, max_nodes=BUDGET)", "count?", "batch"),
        _Slot("Prepared.batch(max_nodes=)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.batch([[]], max_nodes={v})", "budget?", "batch"),
        _Slot("Prepared.batch(timeout=)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.batch([[]], timeout={v}, max_nodes=BUDGET)", "seconds?", "batch"),
        _Slot("Prepared.batch(indices=)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.batch([[0]], indices={v}, max_nodes=BUDGET)", "indices", "batch any"),
        _Slot("Prepared.count(forced=)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.count({v}, max_nodes=BUDGET)", "forced", "count"),
        _Slot("Prepared.first(timeout=)", "P = dlx.Prepared(p, engine=ENGINE)",
              "P.first(timeout={v}, max_nodes=BUDGET)", "seconds?", "first"),
    ]
    return slots


_LATIN = ("L = dlx.ExactCover({(r, c, v): [('cell', r, c), ('row', r, v), ('col', c, v)]"
          " for r in range(3) for c in range(3) for v in range(3)})\n"
          "P = dlx.Prepared(L, engine=ENGINE)\nS = list(dlx.first(L))")


def _minimize_slots() -> list[_Slot]:
    calls = {"forced": ("P.minimize({v}, max_nodes=BUDGET)", "minimize forced"),
             "groups": ("P.minimize(S, groups={v}, max_nodes=BUDGET)", "groups"),
             "unavoidable": ("P.minimize(S, unavoidable={v}, max_nodes=BUDGET)", "unavoidable"),
             "keep": ("P.minimize(S, keep={v}, max_nodes=BUDGET)", "keep"),
             "max_nodes": ("P.minimize(S, max_nodes={v})", "budget?"),
             "indices": ("P.minimize([P.labels.index(x) for x in S], indices={v},"
                         " max_nodes=BUDGET)", "indices")}
    return [_Slot(f"Prepared.minimize({name}=)", _LATIN, call, pool, "minimize")
            for name, (call, pool) in calls.items()]


_OPTIONS_POOL: Pool = (
    ["{}", "{'x': ['a'], 'y': iter(['a'])}", "{'x': {'a'}, 'y': ('a', 'b')}",
     "{'x': [None], 'y': [float('nan')]}", "{'x': range(3)}", "{i: [i] for i in range(300)}",
     "{'x': ['a'], None: ['b']}", "{'x': []}"],
    ["{'x': ['a'] * 3}", "{'x': ['a', Colored('a', 1)]}", "{'x': [Colored('a', 'R')]}",
     "{i: [i, i + 1] for i in range(2000)}", "{'x': 5}", "{'x': None}", "{'x': 'ab'}",
     "{'x': b'ab'}", "{'x': [['a']]}", "{'x': [{}]}", "{'x': [Colored(['u'], 1)]}",
     "{'x': [[]]}", "{'x': ['a', 1, 1.0, True]}"],
    ["None", "[]", "[['a']]", "'ab'", "5", "object()"])
_SECONDARY_POOL: Pool = (
    ["()", "['u']", "iter(['u'])", "{'u'}", "['u', 'v', None]", "['u', 'a']", "{'u': 1}"],
    ["['u', 1, 1.0]"],
    ["None", "'uv'", "b'uv'", "['u', 'u']", "[['u']]", "5", "object()", "[{}]"])
_PRIMARY_POOL: Pool = (
    ["None", "['a', 'b']", "['b', 'a', 'c']", "('a', 'b')"],
    ["[]", "['a']", "['a', 'b', 'u']"],
    ["'ab'", "['a', 'a']", "5", "[['a']]", "object()", "['a', 'b', {}]"])
_BOUNDS_POOL: Pool = (
    ["None", "{}", "{'a': (1, 2)}", "{'a': (0, 1), 'b': (2, 3)}", "{'a': (1, 1)}",
     "{'a': [0, 2]}"],
    ["{'a': (0, 2**30)}", "{'a': (0, 2**30 - 1)}", "{'a': (0, 2**31)}", "{'a': (0, 2**63)}",
     "{'a': (2**30, 2**30)}", "{'a': (1, 10**400)}", "{'a': (2**63, 2**64)}", "0", "[]",
     "{'a': range(1, 3)}"],
    ["{'a': (2, 1)}", "{'a': (0, 0)}", "{'a': (-1, 1)}", "{'a': (True, 2)}", "{'a': (1.0, 2)}",
     "{'a': (1, float('inf'))}", "{'a': (float('nan'), 1)}", "{'a': 2}", "{'a': (1, 2, 3)}",
     "{'a': '12'}", "{'zz': (1, 2)}", "{'u': (1, 2)}", "[('a', (1, 2))]", "{'a': None}",
     "{'a': (None, 1)}", "{'a': ('1', 2)}", "{(): (1, 2)}"])
_COSTS_POOL: Pool = (
    ["None", "{}", "{'x': 1}", "{'x': 0.0}", "{'x': -0.0}", "{'x': Fraction(1, 3)}",
     "{'x': 10**400}", "{'x': 2**63, 'y': 2**63}", "{'x': 0.5, 'y': 2**62}"],
    ["{'x': 1e308, 'y': 1e308, 'xy': 1e308}", "{'x': 5e-324}", "{'x': 10**400, 'y': 0.5}",
     "0", "[]"],
    ["{'x': -1}", "{'x': float('nan')}", "{'x': float('inf')}", "{'x': True}", "{'x': '1'}",
     "{'nope': 1}", "[1]", "{'x': None}", "{'x': 1j}", "{'x': -Fraction(1, 2)}", "5"])


def _constructor_slots() -> list[_Slot]:
    base = {"options": "{'x': ['a', 'u'], 'y': ['b'], 'xy': ['a', 'b'], 'z': ['a']}",
            "secondary": "['u']", "primary": "None", "bounds": "None", "costs": "None"}
    pools = {"options": "ctor options", "secondary": "ctor secondary",
             "primary": "ctor primary", "bounds": "ctor bounds", "costs": "ctor costs"}
    slots = []
    for name in pools:
        args = [base["options"] if name != "options" else "{v}"]
        for kw in ("secondary", "primary", "bounds", "costs"):
            args.append(f"{kw}={'{v}' if kw == name else base[kw]}")
        if name == "options":
            args[1] = "secondary=()"
        setup = f"p = dlx.ExactCover({', '.join(args)})"
        slots.append(_Slot(f"dlx.ExactCover({name}=)", "", f"probe(({setup[4:]}), ENGINE)",
                           pools[name], "problem"))
    return slots


def probe(p: dlx.ExactCover, engine: str) -> tuple[Any, ...]:
    """What a problem dlx accepted answers: (p, count, solutions, cheapest)."""
    return (p, dlx.count(p, max_nodes=BUDGET, engine=engine),
            list(dlx.solutions(p, max_nodes=BUDGET, engine=engine)),
            dlx.best(p, max_nodes=BUDGET, engine=engine))


def split_total(pieces: Any, p: dlx.ExactCover, forced: Any = ()) -> tuple[int, int]:
    """The solutions under the pieces of a split, added up, and the count they cut."""
    total = sum(dlx.count(p, forced=piece, max_nodes=BUDGET) for piece in pieces)
    return total, dlx.count(p, forced=forced, max_nodes=BUDGET)


HELPERS["probe"] = (
    "def probe(p, engine):\n    return (p, dlx.count(p, max_nodes=BUDGET, engine=engine),\n"
    "            list(dlx.solutions(p, max_nodes=BUDGET, engine=engine)),\n"
    "            dlx.best(p, max_nodes=BUDGET, engine=engine))")
HELPERS["split_total"] = (
    "def split_total(pieces, p, forced=()):\n"
    "    total = sum(dlx.count(p, forced=piece, max_nodes=BUDGET) for piece in pieces)\n"
    "    return total, dlx.count(p, forced=forced, max_nodes=BUDGET)")

_EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
_SMALL = "1.....3..4.....2"
_PUZZLE_POOL: Pool = (
    [repr(_EASY), repr(_SMALL), f"sudoku.Grid({_SMALL!r})", "[[1, 0, 0, 0], [0, 0, 3, 0],"
     " [0, 4, 0, 0], [0, 0, 0, 2]]", f"list({_SMALL!r}.replace('.', '0'))"],
    ["''", "'.' * 80", "'.' * 82", "'1' * 81", "'x' * 81", "'.' * 10**6", "'.' * 1296",
     "'.' * 81 + '\\x00'", "'\\udcff' * 81", "'\\u0663' + '.' * 80", "[[1] * 9] * 9",
     "[[0] * 9] * 9", "[['5'] * 9]", "list(range(81))", "[[None] * 4] * 4",
     "[[float('nan')] * 4] * 4", "[[True] * 4] * 4", "[[10**400] * 4] * 4", "[]", "[[]]",
     "[[[]]]", "'.' * 625", "[[-1] * 4] * 4", "[[1.5] * 4] * 4", "'1.2.' * 4"],
    ["None", "1.5", "10**400", "b'.' * 81", "object()", "5"])
_BOX_POOL: Pool = (["None", "(2, 2)"],
                   ["(3, 3)", "(2, 3)", "[2, 2]", "(1, 4)", "(4, 1)", "(2**63, 2)",
                    "(10**400, 1)", "(1, 1)", "(2**31, 2**31)"],
                   ["(2, 2, 2)", "(0, 3)", "(-1, 3)", "(True, 2)", "(1.5, 2)", "'2x2'", "(2,)",
                    "5", "(None, 2)", "(float('nan'), 2)", "((2,), 2)"])
_SHAPE_POOL: Pool = (["None", "sudoku.Shape.standard(4)"],
                     ["sudoku.Shape.diagonal(4)", "sudoku.Shape.standard(9)"],
                     ["'standard'", "4", "object()", "(2, 2)"])
_SUDOKU_SEED_POOL: Pool = (["None", "0", "1", "2**63", "-1", "random.Random(1)"],
                           ["10**400", "1.5", "'x'", "True", "float('nan')", "b'x'"],
                           ["[1]", "{}", "object()"])
_READ_POOL: Pool = (
    [f"io.StringIO({_SMALL!r})", f"[{_SMALL!r}]", f"{_SMALL!r}", f"iter([{_SMALL!r}, 'end'])",
     f"({_SMALL!r} + '\\n') * 3"],
    ["''", "[]", "['\\x00' * 16]", "['.' * 10**6]", "io.StringIO('2\\n' + '.' * 16)",
     "'#' * 10**5", "['.' * 16 + '\\n'] * 3", "['1 2 3 4'] * 4", "['.' * 81, '.' * 16]",
     "[' '] * 1000", "['end', '.' * 16]", "io.StringIO('\\n' * 10**5)", "['9' * 5000]",
     "'\\ud800' * 16", "[b'.' * 16]", "[1, 2]", "iter([None])", "b'.' * 16",
     "io.BytesIO(b'.' * 16)"],
    ["None", "1.5", "5", "object()"])
_WEIGHTS_POOL: Pool = (
    ["None", "[1] * 81", "[[1] * 9] * 9", "list(range(81))", "[-1] * 81", "[0.5] * 81",
     "[Fraction(1, 3)] * 81", "[10**400] * 81", "[0.0] * 81", "[-0.0] * 81",
     "[-0.5] * 81"],
    ["[1e308] * 81", "[0] * 81", "[True] * 81", "[2**63] * 81"],
    ["[1] * 80", "[float('nan')] * 81", "['1'] * 81", "5", "[None] * 81", "[[1] * 9]",
     "[float('inf')] * 81", "[[1] * 8] * 9", "'1' * 81"])


def _sudoku_slots() -> list[_Slot]:
    one = "max_nodes=BUDGET"
    slots = []
    for fn in ("solve", "count", "classify"):
        call = f"sudoku.{fn}({{puzzle}}, {one}{{kw}})"

        def fill(puzzle: str, kw: str = "", call: str = call) -> str:
            return call.replace("{puzzle}", puzzle).replace("{kw}", kw)
        slots += [
            _Slot(f"sudoku.{fn}(puzzle)", "", fill("{v}"), "puzzle", f"sudoku {fn}", "env"),
            _Slot(f"sudoku.{fn}(box=)", "", fill(repr(_SMALL), ", box={v}"), "box",
                  f"sudoku {fn}", "env"),
            _Slot(f"sudoku.{fn}(shape=)", "", fill(repr(_SMALL), ", shape={v}"), "shape",
                  f"sudoku {fn}", "env"),
            _Slot(f"sudoku.{fn}(max_nodes=)", "",
                  f"sudoku.{fn}({_EASY!r}, max_nodes={{v}})", "budget?", f"sudoku {fn}", "env"),
            _Slot(f"sudoku.{fn}(timeout=)", "", fill(repr(_EASY), ", timeout={v}"), "seconds?",
                  f"sudoku {fn}", "env"),
        ]
    slots += [
        _Slot("sudoku.count(limit=)", "", f"sudoku.count('.' * 16, limit={{v}}, {one})",
              "count?", "sudoku count", "env"),
        _Slot("sudoku.rate(puzzle)", "", "sudoku.rate({v})", "puzzle", "rate", "env"),
        _Slot("sudoku.rate(box=)", "", f"sudoku.rate({_SMALL!r}, box={{v}})", "box", "rate",
              "env"),
        # (a node of a 25x25 grid's search costs milliseconds: the budget alone is minutes)
        _Slot("sudoku.max_score(puzzle)", "", "sudoku.max_score({v}, max_nodes=BUDGET,"
              " timeout=10)",
              "puzzle", "max_score", "env"),
        _Slot("sudoku.max_score(weights)", "", f"sudoku.max_score({_EASY!r}, {{v}},"
              " max_nodes=BUDGET)", "weights", "max_score", "env"),
        _Slot("sudoku.max_score(max_nodes=)", "", f"sudoku.max_score({_EASY!r}, max_nodes={{v}})",
              "budget?", "max_score", "env"),
        _Slot("sudoku.random_grid(box=)", "", "sudoku.random_grid(box={v}, seed=1)", "box",
              "grid", "env"),
        _Slot("sudoku.random_grid(seed=)", "", "sudoku.random_grid(box=(2, 2), seed={v})",
              "sudoku seed", "grid", "env"),
        _Slot("sudoku.random_grid(shape=)", "", "sudoku.random_grid({v}, seed=1)", "shape",
              "grid", "env"),
        _Slot("sudoku.read_puzzles(source)", "", "list(sudoku.read_puzzles({v}))", "read",
              "entries", "one"),
        _Slot("sudoku.read_puzzles(box=)", "", f"list(sudoku.read_puzzles([{_SMALL!r}],"
              " box={v}))", "box", "entries", "one"),
    ]
    gen = {"size": ("size", "sudoku.generate(size={v}, seed=1)"),
           "box": ("box", "sudoku.generate(box={v}, seed=1)"),
           "seed": ("sudoku seed", "sudoku.generate(size=4, seed={v})"),
           # (givens=0 without minimal: remove every given that can go; never refused)
           "givens": ("keep?", "sudoku.generate(size=4, seed=1, givens={v})"),
           "symmetry": ("symmetry", "sudoku.generate(size=4, seed=1, symmetry={v})"),
           "minimal": ("minimal", "sudoku.generate(size=4, seed=1, minimal={v})"),
           "level": ("level", "sudoku.generate(size=4, seed=1, level={v}, tries=20)"),
           "tries": ("tries", "sudoku.generate(size=4, seed=1, tries={v})"),
           "max_nodes": ("auto budget", "sudoku.generate(size=4, seed=1, max_nodes={v})")}
    slots += [_Slot(f"sudoku.generate({name}=)", "", call,
                    "small box" if pool == "box" else pool, "puzzle", "env")
              for name, (pool, call) in gen.items()]
    return slots


_EXTRA_POOLS: dict[str, Pool] = {
    "ctor options": _OPTIONS_POOL, "ctor secondary": _SECONDARY_POOL,
    "ctor primary": _PRIMARY_POOL, "ctor bounds": _BOUNDS_POOL, "ctor costs": _COSTS_POOL,
    "puzzle": _PUZZLE_POOL, "box": _BOX_POOL, "shape": _SHAPE_POOL,
    # generating a big puzzle takes minutes: only boxes that are small or refused
    "small box": (_BOX_POOL[0], [b for b in _BOX_POOL[1] if b != "(3, 3)"],
                  _BOX_POOL[2]),
    "sudoku seed": _SUDOKU_SEED_POOL, "read": _READ_POOL, "weights": _WEIGHTS_POOL,
    "symmetry": (["None", "'rot180'", "'none'", "'mirror'"], ["'ROT180'", "''"],
                 ["'bogus'", "1", "True", "['rot180']", "object()"]),
    "level": (["None", "0", "'singles'", "[0, 1]"],
              ["'x-wing'", "9", "'[/red]'", "{}", "[0, 'bogus']", "-1", "99", "'bogus'",
               "10**400"], ["1.5", "object()", "[[0]]"]),
    "tries": (["1", "20"], ["2**63"], ["0", "-1", *_NOT_INTS]),
    "size": (["None", "4", "9"], ["1", "2", "6", "2**63", "10**400", "0", "-1"],
             _NOT_INTS),
    "minimal": (["True", "None"], ["False", "1", "0", "'yes'"], []),
    "auto budget": (["'auto'", "None", "1000"], ["1", "2**63", "10**400", "'AUTO'"],
                    ["0", "-1", "1.5", "'x'", "True"]),
    "read dlx": ([repr(dlx.formats.KNUTH_TOY), "io.StringIO('a b\\na\\nb\\n')",
                  "'a\\n' * 3", "'a b | x\\na x:1\\nb x:1\\n'"],
                 ["''", "'\\x00'", "'|' * 10", "'a\\n' + 'a ' * 10**6",
                  "' '.join(map(str, range(10**5))) + '\\n0\\n'", "'a\\r\\na\\r\\n'",
                  "'\\ufeffa\\na\\n'", "'a\\n\\udcff\\n'", "'1:2|a\\na\\na\\n'",
                  "'a\\na |' + '9' * 5000 + '\\n'", "'2:' + '9' * 5000 + '|a\\na\\n'",
                  "io.StringIO('a\\n' * 10**5)"],
                 ["None", "1.5", "b'a\\na\\n'", "io.BytesIO(b'a\\na\\n')", "['a\\n', 'a\\n']",
                  "5", "object()"]),
    "line length": (["1_000_000", "100", "2**31"], ["2**63", "10**400"],
                    ["0", "-1", *_NOT_INTS]),
}


def _io_slots() -> list[_Slot]:
    return [
        _Slot("dlx.read_dlx(source)", "", "dlx.read_dlx({v})", "read dlx", "read", "one"),
        _Slot("dlx.read_dlx(max_line_length=)", "",
              "dlx.read_dlx('a b\\na\\nb\\n', max_line_length={v})", "line length", "read",
              "one"),
        _Slot("dlx.write_dlx(problem)", "", "dlx.write_dlx({v})", "write", "write", "one"),
        _Slot("dlx.write_dlx(labels_as_comments=)", "",
              "dlx.write_dlx(dlx.read_dlx(dlx.formats.KNUTH_TOY), labels_as_comments={v})",
              "flag", "write", "one"),
    ]


_EXTRA_POOLS["write"] = (
    ["dlx.ExactCover({'x': ['a']}, costs={'x': 3})", "dlx.ExactCover({('t', 1): ['a']})"],
    ["p", "dlx.ExactCover({'x': [('t', 1)]})", "dlx.ExactCover({'x': ['a b']})",
     "dlx.ExactCover({'x': ['a']}, costs={'x': 0.5})",
     "dlx.ExactCover({'x': ['a']}, costs={'x': -0.0})",
     "dlx.ExactCover({'x': ['a']}, costs={'x': Fraction(1, 2)})",
     "dlx.ExactCover({'x': ['a']}, bounds={'a': (0, 2**63)})", "dlx.ExactCover({})",
     "dlx.ExactCover({'x': ['a', 'u']}, secondary=['u', 'a\\nb'])",
     "dlx.ExactCover({'\\n': ['a']})", "dlx.ExactCover({'x': ['\\ufeffa']})"],
    ["None", "'a b\\na\\n'", "5", "object()", "{'x': ['a']}"])

_SLOTS: list[_Slot] | None = None


def _all_slots() -> list[_Slot]:
    global _SLOTS
    if _SLOTS is None:
        _SLOTS = (_view_slots() + _minimize_slots() + _constructor_slots() + _sudoku_slots()
                  + _io_slots())
    return _SLOTS


def _grid_ok(grid: Any, complete: bool) -> str | None:
    """Why ``grid`` is not a legal Sudoku grid (own check: rows, columns, boxes), or None."""
    from problems import sudoku

    if not isinstance(grid, sudoku.Grid):
        return f"not a Grid: {grid!r}"
    n = grid.size
    values = grid.values
    if complete and 0 in values:
        return "not complete"
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    shape = grid.shape
    for unit in getattr(shape, "units", ()):
        cells = getattr(unit, "cells", None)
        if cells is not None:
            units.append([cell if isinstance(cell, int) else cell[0] * n + cell[1]
                          for cell in cells])
    for unit in units:
        seen = [values[k] for k in unit if values[k]]
        if len(seen) != len(set(seen)) or any(not 1 <= x <= n for x in seen):
            return f"a unit repeats a digit: {grid}"
    return None


def _sane(what: str, value: Any, spec: Spec, ns_p: Any = None) -> None:
    """Check an answer that a hostile call gave: raise Verdict when it cannot be right."""
    sols = set(oracle(spec)) if len(spec.eligible()) <= 14 else None

    def solution(sol: Any) -> None:
        if not isinstance(sol, tuple) or len(set(sol)) != len(sol):
            raise _wrong(what, "not a solution", repr(sol))
        if sols is not None and frozenset(sol) not in sols:
            raise _wrong(what, "a solution the oracle does not have", repr(sol))

    def number(x: Any) -> None:
        if isinstance(x, bool) or not isinstance(x, (int, float, Fraction)):
            raise _wrong(what, "a score that is not a number", repr(x))
        if isinstance(x, float) and (math.isnan(x) or (x == 0 and math.copysign(1, x) < 0)):
            raise _wrong(what, "a score of nan or -0.0", repr(x))

    if what == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or \
                (sols is not None and value > len(sols)):
            raise _wrong(what, "a count out of range", f"{value!r}; the oracle has"
                         f" {len(sols) if sols is not None else '?'}")
    elif what == "is_unique":
        if not isinstance(value, bool):
            raise _wrong(what, "not a bool", repr(value))
    elif what == "first":
        if value is not None:
            solution(value)
    elif what == "solutions":
        for sol in value:
            solution(sol)
        if len(set(map(frozenset, value))) != len(value):
            raise _wrong(what, "a solution twice", repr(value))
    elif what == "best":
        for pair in (value if isinstance(value, list) else [] if value is None else [value]):
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise _wrong(what, "not a (score, solution) pair", repr(pair))
            number(pair[0])
            solution(pair[1])
    elif what == "estimate":
        if not isinstance(value, dlx.Estimate) or not all(
                isinstance(x, float) and x >= 0 for x in (value.nodes, value.solutions)):
            raise _wrong(what, "not an estimate", repr(value))
    elif what == "split":
        total, whole = value
        if total != whole:
            raise _wrong(what, "the pieces do not add up", f"{total} under the pieces, {whole}"
                         " in all")
    elif what.startswith("batch"):
        if not isinstance(value, list) or not all(isinstance(a, dlx.Answer) for a in value):
            raise _wrong(what, "not a list of Answers", repr(value))
        for a in value:
            if isinstance(a.found, bool) or not isinstance(a.found, int) or a.found < 0:
                raise _wrong(what, "found out of range", repr(a))
            if a.first is not None and what == "batch":
                solution(a.first)
    elif what == "problem":
        p, n, listed, cheapest = value
        got = Spec.of(p)
        if len(got.eligible()) > 14:
            if n != len(listed):
                raise _wrong(what, "count and solutions disagree", f"{n} and {len(listed)}")
            return
        truth = oracle(got)
        if n != len(truth) or {frozenset(s) for s in listed} != set(truth) or \
                len(listed) != len(truth):
            raise _wrong(what, "the accepted problem's answers differ from the oracle",
                         f"count {n}, {len(listed)} solutions; the oracle has {len(truth)}")
        for sol in listed:
            if not dlx.is_exact_cover(p, sol):
                raise _wrong(what, "the verifier rejects a solution", repr(sol))
        if (cheapest is None) != (not truth):
            raise _wrong(what, "best and count disagree", repr(cheapest))
        if cheapest is not None:
            number(cheapest[0])
            least = min(score(got, s, got.cost) for s in truth)
            if not _close(cheapest[0], least, sum(abs(float(c)) for c in got.costs.values())):
                raise _wrong(what + " (bounds)" if got.bounds else what,
                             "best is not the cheapest", f"{cheapest!r}; the oracle's {least!r}")
    elif what == "minimize":
        if not isinstance(value, dlx.Minimized):
            raise _wrong(what, "not a Minimized", repr(value))
    elif what == "sudoku count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _wrong(what, "a count out of range", repr(value))
    elif what in ("sudoku solve", "grid"):
        if value is not None:
            why = _grid_ok(value, complete=True)
            if why:
                raise _wrong(what, "not a legal full grid", why)
    elif what == "puzzle":
        why = _grid_ok(value, complete=False)
        if why:
            raise _wrong(what, "not a legal puzzle", why)
    elif what == "sudoku classify":
        from problems import sudoku

        if not isinstance(value, sudoku.Verdict):
            raise _wrong(what, "not a Verdict", repr(value))
    elif what == "max_score":
        if value is not None:
            number(value)
    elif what == "read":
        if not isinstance(value, dlx.ExactCover):
            raise _wrong(what, "not an ExactCover", repr(value))
    elif what == "write":
        if not isinstance(value, str):
            raise _wrong(what, "not a str", repr(value))


def _normal(value: Any) -> Any:
    """A value as the engines are compared: Answers without their seconds."""
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if isinstance(value, dlx.Answer):
        return (value.found, value.first, value.nodes, value.clash, value.out_of_budget)
    if isinstance(value, tuple) and value and isinstance(value[0], dlx.ExactCover):
        return value[1:]
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return repr(value)


def _case_arguments(rng: random.Random, case: Case) -> None:
    slot = rng.choice(_all_slots())
    bases = [b for b in _BASES if slot.sanity != "estimate" or not _BASES[b].bounds]
    spec = _BASES[rng.choice(bases)]
    if rng.random() < 0.3:
        spec = random_spec(rng, 6)
        while len(spec.eligible()) < 2 or (slot.sanity == "estimate" and spec.bounds):
            spec = random_spec(rng, 6)
    pools = _pools(spec)
    pools.update(_EXTRA_POOLS)
    ok, edge, bad = pools[slot.pool]
    group = rng.choices(["ok", "edge", "bad"], [1, 2, 2] if bad else [1, 2, 0])[0]
    choices = {"ok": ok, "edge": edge or ok, "bad": bad}[group]
    value = rng.choice(choices)
    expr = slot.call.replace("{v}", value)
    setup = slot.setup
    if "p" in re.findall(r"\b\w+\b", expr + setup) and not slot.name.startswith("dlx.ExactCover"):
        setup = spec.source() + ("\n" + setup if setup else "")
    if re.search(r"\bW\b", expr):
        weights = {label: rng.choice([1, 2, -3, Fraction(1, 2), 0.5])
                   for label in spec.options}
        setup += f"\nW = {src(weights)}"
    if group == "ok" and value not in ok:
        group = "edge"
    title = f"{slot.name} {group}: {_short(value, 60)}"
    on = engines() if slot.run_on in ("engine", "env") else ("c",)

    def run() -> tuple[str, str, str]:
        results: dict[str, Attempt] = {}
        for engine in on:
            if slot.run_on == "env":
                saved = os.environ.get("DLX_ENGINE")
                os.environ["DLX_ENGINE"] = engine
                try:
                    results[engine] = attempt(setup, expr, engine)
                finally:
                    if saved is None:
                        os.environ.pop("DLX_ENGINE", None)
                    else:
                        os.environ["DLX_ENGINE"] = saved
            else:
                results[engine] = attempt(setup, expr, engine)
        both = "; ".join(f"{e}: {a.describe()}" for e, a in results.items())
        for engine, a in results.items():
            if a.status == "raw":
                raise Verdict(RAW, exception_key(a.error),
                              f"{slot.name}, engine={engine}: {a.describe()}")
            if a.status == "memory":
                raise Verdict(RUNAWAY, f"{slot.name}: MemoryError", f"engine={engine}")
        statuses = {a.status for a in results.values()}
        # a time limit of a few microseconds may run out on one engine and not on the
        # other (each looks at the clock at its own moments): either is right
        moment = _a_moment(slot.name, value)
        if len(statuses) > 1:
            if moment and statuses == {"answer", "budget"}:
                return BUDGET_RAN_OUT, "", ""
            raise Verdict(WRONG, f"{slot.name}: the engines disagree", both)
        status = statuses.pop()
        if status == "answer":
            if group == "bad":
                raise Verdict(WRONG, f"{slot.name}: an invalid argument accepted", both)
            values = [a.value for a in results.values()]
            if len({json.dumps(_normal(v), default=repr) for v in values}) > 1 \
                    and slot.run_on != "env" and "seed=None" not in expr and not moment:
                raise Verdict(WRONG, f"{slot.name}: the engines give different answers", both)
            for engine, a in results.items():
                try:
                    _sane(slot.sanity, a.value, spec)
                except Verdict as v:
                    raise Verdict(v.kind, f"{slot.name}: {v.key}",
                                  f"engine={engine}: {v.detail}") from None
            return ANSWER, "", ""
        if status == "clean" and group == "ok":
            raise Verdict(WRONG, f"{slot.name}: a valid argument refused", both)
        if status == "budget" and value in ("10**400", "2**63", "1e308", "None", "30"):
            raise Verdict(WRONG, f"{slot.name}: a search of a tiny problem stopped as out of"
                          " time", both)
        return (BUDGET_RAN_OUT if status == "budget" else CLEAN), "", ""

    case.title = title
    case.repro = reproducer(setup, expr)
    case.run = run
    case.allowance = 30.0


# ------------------------------------------------------------- running the command

_FORK_GUARD = """\
# Written by tests/fuzzing.py: a command may fork at most DLX_FUZZ_MAX_FORKS processes.
import os

_limit = int(os.environ.get("DLX_FUZZ_MAX_FORKS") or 0)
if _limit:
    _forks = [0]

    def _count():
        _forks[0] += 1
        if _forks[0] > _limit:
            os.write(2, b"fuzz guard: more than %d processes forked\\n" % _limit)
            os._exit(99)

    os.register_at_fork(before=_count)
"""
#: How many processes a command may fork (``--jobs N`` forks N): more is a runaway.
MAX_FORKS = 64
_GUARD_MARK = b"fuzz guard: more than"

_state: dict[str, Any] = {}     # this process's scratch directory and fork guard


def _scratch() -> Path:
    """This process's scratch directory (named after its pid, so that the runner can remove
    a killed worker's), removed at exit."""
    if "scratch" not in _state:
        _state["scratch"] = Path(tempfile.mkdtemp(prefix=f"dlx-fuzz-{os.getpid()}-"))
        atexit.register(shutil.rmtree, _state["scratch"], True)
    return _state["scratch"]


def _remove_scratch(pid: int) -> None:
    for path in Path(tempfile.gettempdir()).glob(f"dlx-fuzz-{pid}-*"):
        shutil.rmtree(path, ignore_errors=True)


def _guard_dir() -> Path:
    guard = _scratch() / "guard"
    if not guard.exists():
        guard.mkdir()
        (guard / "sitecustomize.py").write_text(_FORK_GUARD)
    return guard


def _case_dir(case: Case) -> Path:
    d = _scratch() / f"{case.family}-{case.index}"
    if d.exists():
        shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    _state["case dir"] = d
    return d


def _report_child(pgid: int, done: bool = False) -> None:
    """Tell the runner about a command's process group (it kills it if this worker hangs)."""
    report = _state.get("report")
    if report is not None:
        with contextlib.suppress(OSError, ValueError):
            report(("child", pgid, done))


@dataclass
class Ran:
    """How a command ended: ``code`` None when it was killed after its allowance."""

    argv: list[Any]
    code: int | None
    out: bytes
    err: bytes
    seconds: float
    leftovers: bool = False
    signalled: float | None = None      # seconds after the start a signal was sent
    early: bool = False                 # it came before the interpreter caught that signal

    @property
    def stderr(self) -> str:
        return self.err.decode("utf-8", "replace")

    @property
    def stdout(self) -> str:
        return self.out.decode("utf-8", "replace")


def _default_signals() -> None:
    """In a command's process before it starts: SIGINT and SIGTERM as a shell leaves them
    (a runner started in the background, or this harness's workers, ignore SIGINT, and
    Python keeps an ignored SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Command:
    """A ``dlx`` command started in its own session, its output read as it comes."""

    def __init__(self, argv: Sequence[Any], *, cwd: Path, stdin: Any = None,
                 env: dict[str, str] | None = None, memory_kb: int | None = MEMORY_KB,
                 guard: bool = False, python: Sequence[str] | None = None) -> None:
        full = os.environ.copy()
        for name in ("DLX_ENGINE", "COLUMNS", "LINES", "NO_COLOR", "PYTHONIOENCODING",
                     "PYTHONWARNINGS", "DLX_FUZZ_MAX_FORKS", "PYTHONSTARTUP"):
            full.pop(name, None)
        full.update(env or {})
        if guard or any(isinstance(a, str) and a == "--jobs" for a in argv):
            full["PYTHONPATH"] = os.pathsep.join(
                [str(_guard_dir())] + [p for p in [os.environ.get("PYTHONPATH")] if p])
            full["DLX_FUZZ_MAX_FORKS"] = str(MAX_FORKS)
        cmd = [*(python or [sys.executable, "-m", "dlx"]), *argv]
        if memory_kb:
            cmd = ["bash", "-c", f'ulimit -v {memory_kb}; exec "$@"', "bash", *cmd]
        self.argv = list(argv)
        self.started = time.monotonic()
        if isinstance(stdin, Path):
            stdin_file: Any = open(stdin, "rb")  # noqa: SIM115 - closed in finish()
        else:
            stdin_file = subprocess.PIPE if stdin is not None else subprocess.DEVNULL
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=full, stdin=stdin_file,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True, preexec_fn=_default_signals)
        if isinstance(stdin, Path):
            stdin_file.close()
        _report_child(self.proc.pid)
        self.chunks: dict[str, list[bytes]] = {"out": [], "err": []}
        self.readers = [threading.Thread(target=self._read, args=(stream, key), daemon=True)
                        for stream, key in ((self.proc.stdout, "out"), (self.proc.stderr, "err"))]
        for reader in self.readers:
            reader.start()
        if isinstance(stdin, (bytes, str)):
            data = stdin.encode("utf-8", "surrogateescape") if isinstance(stdin, str) else stdin
            threading.Thread(target=self._feed, args=(data,), daemon=True).start()
        self.signalled: float | None = None
        self.early = False

    def _read(self, stream: Any, key: str) -> None:
        while True:
            chunk = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
            if not chunk:
                return
            self.chunks[key].append(chunk)

    def _feed(self, data: bytes) -> None:
        with contextlib.suppress(OSError, ValueError):
            assert self.proc.stdin is not None
            self.proc.stdin.write(data)
            self.proc.stdin.close()

    def send(self, signum: int, group: bool = False) -> bool:
        """Send a signal (to the whole session when ``group``); False when already done."""
        if self.proc.poll() is not None:
            return False
        if self.signalled is None:
            self.signalled = time.monotonic() - self.started
            self.early = not _catches(self.proc.pid, signum)
        try:
            if group:
                os.killpg(self.proc.pid, signum)
            else:
                self.proc.send_signal(signum)
        except ProcessLookupError:
            return False
        return True

    def children(self) -> list[int]:
        """The process ids of the command's children (its worker processes)."""
        pid = self.proc.pid
        try:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        except OSError:
            return []
        return [int(x) for x in text.split()]

    def finish(self, timeout: float) -> Ran:
        """Wait up to ``timeout`` seconds; kill the session if it is still running."""
        try:
            code: int | None = self.proc.wait(timeout=max(timeout, 0.01))
        except subprocess.TimeoutExpired:
            code = None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        seconds = time.monotonic() - self.started
        leftovers = False
        if code is not None:
            # the command is gone: anything left in its session was left behind
            for _ in range(20):
                try:
                    os.killpg(self.proc.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
            else:
                leftovers = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        for reader in self.readers:
            reader.join(5)
        _report_child(self.proc.pid, done=True)
        return Ran(self.argv, code, b"".join(self.chunks["out"]), b"".join(self.chunks["err"]),
                   seconds, leftovers, self.signalled, self.early)


def _cap_lifted(argv: Sequence[Any]) -> bool:
    """Was the line cap raised past what the memory cap holds (``--max-line`` of more
    than a billion characters)?"""
    words = [str(w) for w in argv]
    return any(w == "--max-line" and k + 1 < len(words) and words[k + 1].isdigit()
               and len(words[k + 1]) > 9 for k, w in enumerate(words))


def _catches(pid: int, signum: int) -> bool:
    """Does process ``pid`` catch ``signum`` yet (its SigCgt in /proc)?  True when unknown."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    except OSError:
        pass
    return True


def run_dlx(argv: Sequence[Any], *, cwd: Path, stdin: Any = None,
            env: dict[str, str] | None = None, timeout: float = 30.0,
            memory_kb: int | None = MEMORY_KB) -> Ran:
    """Run ``python -m dlx ARGV`` in its own session under a memory cap; see :class:`Ran`."""
    return _Command(argv, cwd=cwd, stdin=stdin, env=env, memory_kb=memory_kb).finish(timeout)


def shell_line(argv: Sequence[Any], env: dict[str, str] | None = None, stdin: Any = None,
               memory_kb: int | None = MEMORY_KB) -> str:
    """A shell line that runs the command as the harness did."""
    words = [shlex.quote(os.fsdecode(a) if isinstance(a, bytes) else a) for a in argv]
    words = [w if len(w) <= 80 else w[:40] + "...'" for w in words]
    prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in (env or {}).items())
    line = f"{prefix}python -m dlx {' '.join(words)}"
    if isinstance(stdin, Path):
        line += f" < {stdin}"
    elif stdin is not None:
        line += " < input"
    if memory_kb:
        line = f"(ulimit -v {memory_kb}; {line})"
    return line


def _files_script(files: dict[str, bytes]) -> str:
    """Shell lines that make a case's files (long ones described, not spelled out)."""
    lines = []
    for name, data in files.items():
        if data is None:
            lines.append(f"mkdir -p {shlex.quote(name)}")
            continue
        parent = os.path.dirname(name)
        if parent:
            lines.append(f"mkdir -p {shlex.quote(parent)}")
        if len(data) <= 300 and data.isascii() and b"\x00" not in data:
            lines.append(f"printf %s {shlex.quote(data.decode())} > {shlex.quote(name)}")
        elif len(data) <= 300:
            write = f"import sys; sys.stdout.buffer.write({data!r})"
            lines.append(f"python -c {shlex.quote(write)} > {shlex.quote(name)}")
        else:
            lines.append(f"# {name}: {len(data):,} bytes, starting {data[:60]!r}"
                         " (rerun the case to see it)")
    return "\n".join(lines)


_TRACEBACK = "Traceback (most recent call last)"
_WARNING_LINE = re.compile(r"\.py:\d+: \w*Warning: ")
_EXCEPTION_LINE = re.compile(r"^(\w+\.)*\w+(Error|Exception|Interrupt)(: |$)")
_ARGPARSE = re.compile(r"^(usage: |dlx( \w+)*: error: |\s)")
_MARKUP = re.compile(r"\[/?[a-z #0-9]*\]")


def _traceback_key(err: str) -> str:
    """``Type in function`` from a traceback on stderr: its last frame of dlx/ or problems/."""
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', err)
    ours = [f for f in frames if "/dlx/" in f[0] or "/problems/" in f[0]]
    frame = (ours or frames or [("", "?")])[-1]
    last = [line for line in err.splitlines() if _EXCEPTION_LINE.match(line)]
    kind = last[-1].split(":")[0] if last else "?"
    return f"{kind} in {frame[1]}"


def cli_verdict(ran: Ran, what: str, *, allowed: Iterable[int] = (0, 1, 2, 124),
                timeout: float | None = None, paths: Iterable[str] = (),
                stats: bool = False) -> tuple[str, str, str]:
    """Classify a finished command; raise :class:`Verdict` for a failure.

    ``allowed`` are the exit codes the case allows, ``timeout`` the ``--timeout`` it was
    given (it must end by then, plus :data:`CLI_SLACK`), ``paths`` the file names on its
    command line (rich must not eat their markup), ``stats`` whether it printed tables.
    """
    err = ran.stderr
    last = err.strip().splitlines()[-1:] or [""]
    if ran.code is None:
        raise Verdict(HANG, f"{what}: still running after {ran.seconds:.0f} s",
                      f"killed after {ran.seconds:.1f} s; stderr: {_short(err, 160)}")
    if ran.code < 0:
        name = signal.Signals(-ran.code).name
        sent = name in ("SIGINT", "SIGTERM") and ran.signalled is not None
        if sent and ran.early:
            # sent while the interpreter was still starting, before it handles the
            # signal at all: the default action is the only possible answer
            return INTERRUPTED, "", ""
        raise Verdict(CRASH, f"killed by the {name} it was sent" if sent else
                      f"{what}: killed by {name}", f"{what}: stderr: {_short(err, 200)}")
    if _TRACEBACK in err:
        raise Verdict(RAW, f"{what}: {_traceback_key(err)}", _short(last[0], 240))
    if ran.code == 99 and _GUARD_MARK in ran.err:
        raise Verdict(RUNAWAY, f"{what}: more than {MAX_FORKS} processes forked",
                      f"{ran.argv!r}")
    if ran.leftovers:
        raise Verdict(RUNAWAY, f"{what}: processes left behind after it exited",
                      f"exit {ran.code}")
    allowed = set(allowed)
    if _cap_lifted(ran.argv):
        allowed.add(4)      # a line without end, read whole as asked: memory runs out
    if ran.code == 4 and 4 not in allowed:
        raise Verdict(RUNAWAY, f"{what}: memory ran out under a cap of {MEMORY_KB // 1000} MB",
                      _short(err, 200))
    if ran.code not in allowed:
        raise Verdict(BAD_OUTPUT, f"{what}: exit {ran.code}",
                      f"exit {ran.code} (allowed {sorted(allowed)}); stderr: {_short(err, 200)}")
    lines = [line for line in err.splitlines() if line.strip()]
    if any(_WARNING_LINE.search(line) or line.startswith("Exception ignored") for line in lines):
        bad = next(line for line in lines
                   if _WARNING_LINE.search(line) or line.startswith("Exception ignored"))
        raise Verdict(BAD_OUTPUT, f"{what}: a Python warning on stderr", _short(bad))
    if ran.code == 2:
        ours = [line for line in lines if line.startswith("dlx: ") or _ARGPARSE.match(line)]
        if not ours:
            raise Verdict(BAD_OUTPUT, f"{what}: exit 2 without a 'dlx: ' message",
                          _short(err, 200))
        if not stats and not any(line.startswith("usage: ") for line in lines):
            strays = [line for line in lines if not (line.startswith("dlx: ")
                                                     or _ARGPARSE.match(line))]
            if strays:
                raise Verdict(BAD_OUTPUT, f"{what}: a stray line with an error",
                              _short(strays[0]))
    for path in paths:
        if _MARKUP.search(path):
            eaten = _MARKUP.sub("", path)
            if eaten and eaten in err and path not in err:
                raise Verdict(BAD_OUTPUT, f"{what}: rich markup in a file name eaten",
                              f"{path!r} shown as {eaten!r}: {_short(err, 200)}")
    if timeout is not None and ran.seconds > timeout + CLI_SLACK:
        raise Verdict(HANG, f"{what}: the time limit not kept",
                      f"--timeout {timeout:g} but it ran {ran.seconds:.1f} s (exit {ran.code})")
    if ran.code == 124:
        return BUDGET_RAN_OUT, "", ""
    if ran.code == 2:
        return CLEAN, "", ""
    if ran.code in (130, 143):
        return INTERRUPTED, "", ""
    return ANSWER, "", ""


# ------------------------------------------------------------------ the family "text"

_DLX_PRIMARY = ["a", "b", "c", "d", "e", "f", "A1", "é", "日本", "x_y", "#1", "a.b"]
_DLX_SECONDARY = ["s", "t", "u", "ü", "v9"]
_DLX_COLOURS = ["R", "G", "0", "blue", "é"]


def random_dlx(rng: random.Random) -> tuple[str, Spec]:
    """A valid DLX file (items, bounds, secondary items, colours, costs, comments) and the
    problem it describes, written from first principles (not by :func:`dlx.write_dlx`)."""
    prim = rng.sample(_DLX_PRIMARY, rng.randrange(1, 6))
    sec = rng.sample(_DLX_SECONDARY, rng.choice([0, 0, 1, 2, 3]))
    bounds: dict[Hashable, tuple[int, int]] = {}
    words = []
    for name in prim:
        if rng.random() < 0.25:
            u = rng.choice([0, 1, 2])
            v = max(u, 1) + rng.choice([0, 1, 2])
            if rng.random() < 0.1:
                v = rng.choice(_BIG_V[:4])
            words.append(f"{v}|{name}" if u == v and rng.random() < 0.5 else f"{u}:{v}|{name}")
            if (u, v) != (1, 1):
                bounds[name] = (u, v)
        else:
            words.append(name)
    line = " ".join(words)
    if sec:
        line += rng.choice([" | ", " |", "  |  "]) + " ".join(sec)
    lines = [line]
    if rng.random() < 0.3:
        lines.insert(0, rng.choice(["| a comment", "|", "   | indented comment", ""]))
    options: dict[Hashable, list[Hashable]] = {}
    costs: dict[Hashable, Any] = {}
    for _ in range(rng.randrange(1, 9)):
        entries: list[Hashable] = rng.sample(prim, rng.randrange(0 if rng.random() < 0.1 else 1,
                                                                 min(3, len(prim)) + 1))
        for s in rng.sample(sec, rng.randrange(0, min(2, len(sec)) + 1)):
            entries.append(Colored(s, rng.choice(_DLX_COLOURS)) if rng.random() < 0.5 else s)
        rng.shuffle(entries)
        tokens = [f"{e.item}:{e.color}" if isinstance(e, Colored) else str(e) for e in entries]
        cost = 0
        if tokens and rng.random() < 0.3:
            for _ in range(rng.choice([1, 1, 2])):
                c = rng.choice([0, 1, 2, 7, 10, 99, 2**31, 2**63])
                tokens.insert(rng.randrange(1, len(tokens) + 1), f"|{c}")
                cost += c
        if not tokens:
            continue
        lines.append(rng.choice([" ", " ", " ", "  ", "\t"]).join(tokens))
        if any(not isinstance(e, Colored) and e in prim for e in entries):
            label = len(options)
            options[label] = entries
            if cost:
                costs[label] = cost
        if rng.random() < 0.15:
            lines.append(rng.choice(["| comment", "", "   ", "|x y z"]))
    text = "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")
    return text, Spec(options, sec, prim, bounds, costs)


_BAD_BOUNDS = ["a", "b:1", "3:2", "0", "0:0", ":1", "1:", "", "-1", "+1", "1_0", "\u0661",
               "\u0661:\u0662", "1:2:3", "0x10", "1e3", "\u00b2", "1 :2", "99999999999999999999",
               "1:" + "9" * 5000, "9" * 4301, "2:2", "0:1"]
_COST_TOKENS = ["|", "|-1", "|1.5", "|+1", "|1_000", "|\u00b2", "|\u0663", "||1", "|0", "|00",
                "|" + "9" * 30, "|1|2", "|a", "|" + "9" * 4301, "|" + "9" * 5000, "| 1"]
_JUNK = ["\x00", "\x01", "\x7f", "\x85", "\u2028", "\ufeff", "\udcff", "\t", "\x0b", "\x0c",
         "\r", "\x1c", "\u00a0", "\u3000", "\u200b", "\ud800", "\x1b[31m", "[/red]"]
_BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xef\xbb\xbf", b"\xfe\xff",
              b"\xf4\x90\x80\x80"]


def _mutate(rng: random.Random, text: str, spec: Spec) -> tuple[str, list[str]]:
    """Some hostile edits of a DLX file's text; returns the text and what was done."""
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        lines = text.split("\n")
        what = rng.choice(["truncate", "bounds", "huge", "cost", "colour", "junk", "long",
                           "duplicate", "delete", "swap", "bars", "newlines", "many", "digits",
                           "empty", "items"])
        k = rng.randrange(len(lines))
        opt = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        if what == "truncate":
            text = text[:rng.randrange(len(text) + 1)]
        elif what == "bounds":
            target = rng.choice(spec.primary or ["a"])
            bad = f"{rng.choice(_BAD_BOUNDS)}|{target}"
            pattern = rf"(^|\s)(\S*\|)?{re.escape(target)}(?=\s|$)"
            lines[0] = re.sub(pattern, lambda m, bad=bad: m.group(1) + bad, lines[0], count=1)
            text = "\n".join(lines)
        elif what == "huge":
            digits = "9" * rng.choice([19, 20, 64, 400, 4301, 5000])
            if re.search(r"\d+", text) and rng.random() < 0.6:
                spots = list(re.finditer(r"(?<=[|:])\d+|\d+(?=[:|])", text))
                if spots:
                    m = rng.choice(spots)
                    text = text[:m.start()] + digits + text[m.end():]
                else:
                    text = text.replace("|", f"|{digits}", 1)
            else:
                lines[opt] = lines[opt] + f" |{digits}"
                text = "\n".join(lines)
        elif what == "cost":
            words = lines[opt].split(" ")
            words.insert(rng.randrange(len(words) + 1), rng.choice(_COST_TOKENS))
            lines[opt] = " ".join(words)
            text = "\n".join(lines)
        elif what == "colour":
            s = rng.choice(spec.secondary or ["s"])
            p = rng.choice(spec.primary or ["a"])
            token = rng.choice([f"{s}:", ":R", f"{s}:R:G", f"{p}:R", f"{s}:" + "R" * 1000,
                                "zz:R", f"{s}:R {s}:G", f"{s}:\udcff", f"{s}::"])
            lines[opt] += " " + token
            text = "\n".join(lines)
        elif what == "junk":
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(_JUNK) + text[at:]
        elif what == "long":
            n = rng.choice([300_000, 600_000, 1_100_000])
            line = rng.choice(["a " * (n // 2), "a" * n, " ".join(f"i{j}" for j in range(n // 6)),
                               "| " + "x" * n])
            lines.insert(rng.randrange(len(lines) + 1), line)
            text = "\n".join(lines)
        elif what == "duplicate":
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        elif what == "delete":
            del lines[k]
            text = "\n".join(lines)
        elif what == "swap":
            lines[k], lines[opt] = lines[opt], lines[k]
            text = "\n".join(lines)
        elif what == "bars":
            lines[0] = lines[0].replace(" ", rng.choice([" || ", "|", " | | ", " |"]), 1)
            text = "\n".join(lines)
        elif what == "newlines":
            text = rng.choice([text.replace("\n", "\r\n"), text.replace("\n", "\r"),
                               text.rstrip("\n"), text + "\n\n\n"])
        elif what == "many":
            lines[opt:opt] = [lines[opt]] * rng.randrange(15, 60)
            text = "\n".join(lines)
        elif what == "digits":
            table = rng.choice([str.maketrans("0123456789", "\u0660\u0661\u0662\u0663\u0664"
                                              "\u0665\u0666\u0667\u0668\u0669"),
                                str.maketrans("0123456789", "０１２３４５６７８９")])
            text = text.translate(table)
        elif what == "empty":
            text = rng.choice(["", "\n", "| only a comment\n", "   \n\t\n", "|"])
        else:   # items: a strange item line
            lines[0] = rng.choice(["a a", "| a", "a | a", "a:b", "a | b:c", "a b |",
                                   " ".join(f"i{j}" for j in range(5000)), "a\x00b", "-", "|a b",
                                   "a | b | c"])
            text = "\n".join(lines)
        done.append(what)
    return text, done


def _encode(text: str) -> bytes:
    """UTF-8, a lone surrogate from undecodable input as its byte again, any other as the
    (invalid) bytes UTF-8 would give it."""
    return b"".join(c.encode("utf-8", "surrogateescape" if "\udc80" <= c <= "\udcff"
                             else "surrogatepass") for c in text)


def _same_problem(a: dlx.ExactCover, b: dlx.ExactCover) -> str | None:
    """Why two problems differ (items, options, bounds, costs), or None."""
    for name in ("primary", "secondary", "options", "bounds", "costs"):
        x, y = getattr(a, name), getattr(b, name)
        if (list(x.items()) if isinstance(x, dict) else list(x)) != \
                (list(y.items()) if isinstance(y, dict) else list(y)):
            return f"{name}: {_short(repr(x), 100)} vs {_short(repr(y), 100)}"
    return None


def _case_text(rng: random.Random, case: Case) -> None:
    text, spec = random_dlx(rng)
    mutations: list[str] = []
    if rng.random() < 0.8:
        text, mutations = _mutate(rng, text, spec)
    data = _encode(text)
    if rng.random() < 0.1:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice(_BAD_BYTES) + data[at:]
        mutations.append("bytes")
    variant = rng.choice([["--count"], [], ["--format", "jsonl"], ["--best", "3"],
                          ["--count", "--format", "jsonl"], ["--limit", "2"], ["--count", "-q"],
                          ["--stats", "--count"]])
    argv = ["solve", "p.dlx", "--max-nodes", str(BUDGET), *variant]
    env = rng.choice([{"PYTHONIOENCODING": "ascii"}, {"DLX_ENGINE": "python"}]) \
        if rng.random() < 0.2 else {}
    cap = max(1_000_000, len(data) + 1)
    setup = "TEXT = DATA.decode('utf-8', 'surrogateescape')"
    expr = f"dlx.read_dlx(io.StringIO(TEXT, newline=None), max_line_length={cap})"
    title = f"{'+'.join(mutations) or 'valid'} file, dlx solve {' '.join(variant)}".strip()
    case.title = title
    shown = repr(data) if len(data) <= 400 else f"<{len(data):,} bytes: rerun the case>"
    case.repro = (reproducer(f"DATA = {shown}\n" + setup, expr) + "\n\n"
                  + _files_script({"p.dlx": data}) + "\n" + shell_line(argv, env))
    case.allowance = 60.0

    def run() -> tuple[str, str, str]:
        read = attempt(setup, expr, extra={"DATA": data})
        if read.status == "raw":
            raise Verdict(RAW, f"read_dlx: {exception_key(read.error)}", read.describe())
        if read.status == "memory":
            raise Verdict(RUNAWAY, "read_dlx: MemoryError", read.describe())
        direct = attempt("", "dlx.read_dlx(DATA.decode('utf-8', 'surrogateescape'))",
                         extra={"DATA": data})
        if direct.status == "raw":
            raise Verdict(RAW, f"read_dlx(str): {exception_key(direct.error)}",
                          direct.describe())
        p = read.value
        n: int | None = None
        cheapest: list[Any] | None = None
        if read.status == "answer":
            if direct.status == "answer" and _same_problem(p, direct.value):
                raise Verdict(WRONG, "read_dlx: a str and a stream read differently",
                              _same_problem(p, direct.value) or "")
            if not mutations:
                why = _same_problem(p, spec.build())
                if why:
                    raise Verdict(WRONG, "read_dlx misreads a valid file", why)
            _round_trip(p)
            n, cheapest = _count_both(p)
        ran = run_dlx(argv, cwd=_case_dir_now(), env=env, timeout=45)
        kind, _, _ = cli_verdict(ran, "dlx solve FILE", allowed=(0, 1, 2, 124),
                                 stats="--stats" in variant)
        if read.status == "clean":
            e = read.error
            if ran.code != 2:
                raise Verdict(WRONG, "dlx solve accepts a file read_dlx refuses",
                              f"read_dlx: {e}; dlx solve exit {ran.code}")
            line = getattr(e, "line", None)
            if line is not None and f"p.dlx:{line}" not in ran.stderr:
                raise Verdict(WRONG, "dlx solve and read_dlx name different lines",
                              f"read_dlx: {e}; dlx solve: {_short(ran.stderr, 160)}")
            return kind, "", ""
        if ran.code == 2:
            raise Verdict(WRONG, "dlx solve refuses a file read_dlx reads",
                          _short(ran.stderr, 200))
        if ran.code in (0, 1) and n is not None:
            _check_solve_output(ran, variant, n, cheapest, bool(p.bounds))
        return kind, "", ""

    def runner() -> tuple[str, str, str]:
        d = _case_dir(case)
        (d / "p.dlx").write_bytes(data)
        return run()

    case.run = runner


def _case_dir_now() -> Path:
    return _state["case dir"]


def _round_trip(p: dlx.ExactCover) -> None:
    """write_dlx then read_dlx gives the problem back (or write_dlx refuses cleanly)."""
    written = attempt("", "dlx.write_dlx(P)", extra={"P": p})
    if written.status == "raw":
        raise Verdict(RAW, f"write_dlx: {exception_key(written.error)}", written.describe())
    if written.status != "answer":
        return
    again = attempt("", "dlx.read_dlx(TEXT)", extra={"TEXT": written.value})
    if again.status != "answer":
        raise Verdict(WRONG, "read_dlx refuses what write_dlx wrote",
                      f"{again.describe()}; written: {_short(written.value, 120)}")
    why = _same_problem(p, again.value)
    if why:
        raise Verdict(WRONG, "write_dlx then read_dlx changes the problem", why)


def _a_moment(name: str, value: str) -> bool:
    """Is ``value`` of a ``timeout=`` slot a time limit of less than a millisecond?"""
    if "timeout" not in name:
        return False
    try:
        seconds = float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return 0 < seconds < 1e-3


def _count_both(p: dlx.ExactCover) -> tuple[int | None, list[Any] | None]:
    """The count on both engines, against the oracle when the problem is small; and the
    three cheapest costs by the oracle (None when it is too big to enumerate)."""
    spec = Spec.of(p)
    small = len(spec.eligible()) <= 14
    truth = oracle(spec) if small else None
    counts = {}
    for engine in engines():
        a = attempt("", "dlx.count(P, max_nodes=BUDGET, engine=ENGINE)", engine, extra={"P": p})
        if a.status == "raw":
            raise Verdict(RAW, f"count of a file: {exception_key(a.error)}",
                          f"engine={engine}: {a.describe()}")
        if a.status == "answer":
            counts[engine] = a.value
            if truth is not None and a.value != len(truth):
                raise Verdict(WRONG, f"count of a file{' (bounds)' if p.bounds else ''}"
                              " differs from the oracle",
                              f"engine={engine}: {a.value}, oracle {len(truth)}")
    if len(set(counts.values())) > 1:
        raise Verdict(WRONG, "count of a file: the engines disagree", repr(counts))
    if truth is None:
        return (next(iter(counts.values())) if counts else None), None
    return len(truth), sorted(score(spec, s, spec.cost) for s in truth)[:3]


def _check_solve_output(ran: Ran, variant: list[str], n: int, cheapest: list[Any] | None,
                        bounded: bool) -> None:
    out = ran.stdout
    lines = out.splitlines()
    if "--count" in variant:
        got = json.loads(lines[-1])["count"] if "jsonl" in variant and lines else \
            (lines[-1] if lines else "")
        if str(got) != str(n):
            raise Verdict(WRONG, "dlx solve --count differs from the oracle",
                          f"printed {_short(out, 80)!r}, oracle {n}")
        return
    if "--best" in variant:
        if cheapest is None:
            return
        costs = [line.split(":")[0] for line in lines]
        want = [str(c) for c in cheapest]
        if costs != want:
            raise Verdict(WRONG, "dlx solve --best differs from the oracle"
                          f"{' (bounds)' if bounded else ''}",
                          f"costs {costs}, oracle {want}")
        return
    want = min(n, 2) if "--limit" in variant else n
    if len(lines) != want:
        raise Verdict(WRONG, "dlx solve lists a wrong number of solutions",
                      f"{len(lines)} lines, oracle {want}")
    if "jsonl" in variant:
        for line in lines:
            json.loads(line)


# ------------------------------------------------------------------- the family "cli"

_CLI_NUMBERS = ["0", "-1", "2147483648", "9223372036854775807", "9223372036854775808",
                "18446744073709551616", "1" + "0" * 400, "9" * 5000, "1.5", "1e3", "nan", "inf",
                "", " ", "0x10", "\u0661\u0662", "+5", "1_000", "[/red]", "ü", "-0"]
_CLI_SECONDS = ["1e-9", "1e-300", "0", "-1", "nan", "inf", "-inf", "1e400", "9" * 400, "[red]",
                "", "0x1p-3", "\u0661", "1e308", "5e-324"]
_JOBS = ["1", "2", "0", "-1", "100000", "9223372036854775808", "1" + "0" * 400, "nan", "2.5",
         ""]
_BOXES = ["3x3", "2x2", "3x4", "4x4", "5x5", "0x3", "3x", "2x2x2", "99999999999999999999x1",
          "-1x3", "x", "1x1", "\u0663x\u0663", "[red]", "3X3", " 3x3 "]
_ENVS: list[dict[str, str]] = [
    {"PYTHONIOENCODING": "ascii"},
    {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
    {"NO_COLOR": "1"}, {"COLUMNS": "5"}, {"COLUMNS": "-1"}, {"TERM": "dumb"},
    {"DLX_ENGINE": "python"}, {"DLX_ENGINE": "bogus"}, {"DLX_ENGINE": "C"},
]
#: Names a user may give files: markup, blanks, non-ASCII, non-UTF-8, a leading dash.
_NAMES: list[str | bytes] = ["[old]/p.dlx", "[/red].dlx", "[bold]ü.dlx", "ü.dlx", "日本.dlx",
                             "a b.dlx", b"\xff.dlx", "-p.dlx", "x" * 250 + ".dlx", "[red]",
                             "$(echo).dlx", "a\nb.dlx", "\\[x].dlx"]
_KNUTH = json.loads((DATA / "knuth" / "answers.json").read_text())["instances"] \
    if (DATA / "knuth" / "answers.json").exists() else {}


def _standard_files(rng: random.Random) -> dict[str, bytes | None]:
    from problems import catalog

    def data(*parts: str) -> bytes:
        return (DATA.joinpath(*parts)).read_bytes()

    files: dict[str, bytes | None] = {
        "toy.dlx": dlx.formats.KNUTH_TOY.encode(),
        "puzzles.txt": data("sudoku", "unique.txt"),
        "grids.txt": data("sudoku", "uva10957.txt"),
        "noip.txt": data("sudoku", "noip2009_1.txt"),
        "small.txt": b"1.....3..4.....2\n",
        "rect.txt": catalog.ZOJ_SAMPLE.encode(),
        "rect-huge.txt": rng.choice([b"1\n99999999999 1 1\n0 0 1 1\n",
                                     b"1\n5 5 1\n0 0 5 " + b"9" * 30 + b"\n",
                                     b"1\n5 5 " + b"9" * 20 + b"\n0 0 5 5\n",
                                     b"2\n0 0 0\n-1 -1 1\n0 0 1 1\n"]),
        "hust.txt": b"3 3\n1 1\n2 2 3\n1 2\n2 2\n1 1\n1 1\n",
        "hust-huge.txt": rng.choice([b"99999999999999999999 3\n1 1\n",
                                     b"1 99999999999\n1 1\n", b"2 2\n3 1 2 3\n1 1\n",
                                     b"1 1\n" + b"1 " * 100 + b"\n"]),
        "matrix.txt": b"2\n2 2\n1 0\n0 1\n1 2\n1 1\n",
        "regions.txt": b"AABB\nAABB\nCCDD\nCCDD\n",
        "empty.txt": b"",
        "bin.dat": bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000))),
        "nul.txt": b"\x00" * 1000,
        "dir": None,
    }
    for name in _KNUTH:
        files[name] = data("knuth", name)
    return files


def _hostile(rng: random.Random) -> bool:
    """Draw a hostile value this time?  Each case draws how hostile it is (0 to 0.5)."""
    return rng.random() < _state.get("hostility", 0.3)


def _value(rng: random.Random, valid: list[str], hostile: list[str]) -> str:
    return rng.choice(hostile) if _hostile(rng) else rng.choice(valid)


def _pick(valid: list[Any], hostile: list[Any]) -> Callable[[random.Random], Any]:
    """A pool of option values: mostly ``valid``, ``hostile`` as often as the case says."""
    return lambda rng: _value(rng, valid, hostile)


def _options(rng: random.Random, table: list[tuple[Any, ...]], chance: float = 0.25
             ) -> list[str]:
    """Some of ``table``'s options (flag, pool[, weight]), each taken with ``chance`` times
    its weight, with a value drawn from its pool (None: a flag without a value)."""
    out: list[str] = []
    for flag, pool, *weight in rng.sample(table, len(table)):
        if rng.random() < chance * (weight[0] if weight else 1.0):
            out.append(flag)
            if pool is not None:
                out.append(pool(rng) if callable(pool) else rng.choice(pool))
    return out


def _num(valid: list[str]) -> Callable[[random.Random], str]:
    return lambda rng: _value(rng, valid, _CLI_NUMBERS)


def _sec(valid: list[str]) -> Callable[[random.Random], str]:
    return lambda rng: _value(rng, valid, _CLI_SECONDS)


def _seconds_given(argv: Sequence[Any]) -> float | None:
    """The ``--timeout`` the command will keep (its last valid one), or None."""
    value = None
    for flag, arg in zip(argv, argv[1:], strict=False):
        if flag == "--timeout":
            try:
                x = float(arg)
            except (TypeError, ValueError):
                return None          # argparse refuses it: exit 2 at once
            value = x if 0 < x < 1e9 else None
    return value


@dataclass
class _Line:
    """A command line of the family "cli" and what it may do."""

    argv: list[Any]
    stdin: Any = None
    env: dict[str, str] = field(default_factory=dict)
    allowed: tuple[int, ...] = (0, 1, 2, 124)
    check: Callable[[Ran], None] | None = None


def _valid(flag: str, value: Any) -> bool:
    """Is ``value`` one the command takes for ``flag`` (a number in range)?"""
    text = str(value)
    if flag == "--timeout":
        with contextlib.suppress(ValueError):
            return 0 < float(text) < 1e9
        return False
    return text.isdigit() and text.isascii() and 1 <= int(text) <= 10**9


def _neutral(argv: Sequence[Any], *flags: str) -> bool:
    """Only options that leave the answer alone (and valid ``flags`` values) were given."""
    plain = {"-q", "--quiet", "--stats", "--count", "--all"}
    for k, word in enumerate(argv[1:], 1):
        if not isinstance(word, str) or not word.startswith("-") or word in plain:
            continue
        if word in flags and (word == "--unique" or _valid(word, argv[k + 1])):
            continue
        if word == "--format" and argv[k + 1] in ("text", "jsonl"):
            continue
        if word in ("--limit", "--jobs") and str(argv[k + 1]).isdigit() \
                and len(str(argv[k + 1])) <= 2 and 1 <= int(argv[k + 1]) <= 8:
            continue
        return False
    return True


def _last_count(ran: Ran) -> str:
    lines = ran.stdout.splitlines()
    if not lines:
        return ""
    try:
        return str(json.loads(lines[-1])["count"])
    except (ValueError, KeyError, TypeError):
        return lines[-1].strip()


def _cli_solve(rng: random.Random, names: dict[str, str]) -> _Line:
    judge = rng.random() < 0.15
    if judge:
        pool = _pick(["hust.txt", "matrix.txt"], ["hust-huge.txt", "toy.dlx", "/dev/zero",
                                                  "bin.dat", "-", "empty.txt"])
    else:
        pool = _pick(["toy.dlx"] * 3 + list(_KNUTH) + list(names),
                     ["dir", "missing.dlx", "/dev/zero", "/dev/null", "-", "empty.txt", "bin.dat",
                      "nul.txt", "puzzles.txt"])
    files = [pool(rng) for _ in range(rng.choice([1, 1, 1, 1, 2, 3]))]
    table = [("--count", None), ("--best", _num(["1", "2", "5"])),
             ("--limit", _num(["1", "2", "3"])), ("--max-nodes", _num(["10", "100", "100000"])),
             ("--timeout", _sec(["0.5", "5"])), ("--max-line", _num(["10", "1000"])),
             ("--stats", None), ("-q", None),
             ("--format", _pick(["text", "jsonl"], ["hust", "matrix", "bogus", ""])),
             ("--jobs", _JOBS, 0.5),
             ("--scheduler", ["[red]", "not-an-address", "tcp://", ""], 0.1)]
    opts = _options(rng, table)
    if judge:
        opts += ["--format", rng.choice(["hust", "matrix"])]
    if any("[" in f for f in files) and "--stats" not in opts and rng.random() < 0.5:
        opts.append("--stats")              # rich draws the file name in the table's title
    argv: list[Any] = ["solve", *files, *opts]
    stdin = _pick([dlx.formats.KNUTH_TOY.encode()], [b"", bytes(range(256)), Path("/dev/zero"),
                                                     b"a\n" * 10 + b"a" * 100_000])(rng)
    line = _Line(argv, stdin if "-" in files else None)
    if len(files) == 1 and not judge and _neutral(argv, "--max-nodes", "--timeout") \
            and "--max-nodes" not in argv and "--best" not in argv:
        name = files[0]
        content = names.get(name, name)
        if _KNUTH.get(content, {}).get("count") is not None:
            n = _KNUTH[content]["count"]
            if "--limit" in argv:
                n = min(n, int(argv[argv.index("--limit") + 1]))

            def check(ran: Ran) -> None:
                if ran.code == 124:             # a valid --timeout may run out
                    return
                if ran.code not in (0, 1):
                    raise Verdict(BAD_OUTPUT, f"dlx solve {content}: exit {ran.code}",
                                  _short(ran.stderr))
                got = _last_count(ran) if "--count" in argv else str(
                    len(ran.stdout.splitlines()))
                if got != str(n):
                    raise Verdict(WRONG, f"dlx solve {content}: a count differs from Knuth's",
                                  f"{got!r}, Knuth's {n}")
            line.check = check
    elif len(files) == 1 and not judge and "--best" in argv:
        name = names.get(files[0], files[0])
        k = argv[argv.index("--best") + 1]
        best = _KNUTH.get(name, {}).get("best", {}).get(k)
        if best is not None and _neutral(argv, "--best"):
            def check(ran: Ran) -> None:
                if ran.code != 0:
                    return
                try:
                    costs = [int(x.split(":")[0]) for x in ran.stdout.splitlines()]
                except ValueError:
                    raise Verdict(BAD_OUTPUT, "dlx solve --best: a line without its cost",
                                  _short(ran.stdout)) from None
                if costs != best:
                    raise Verdict(WRONG, f"dlx solve --best {k}: costs differ from Knuth's"
                                  f" ({name})", f"{costs}, Knuth's DLX5 {best}")
            line.check = check
    return line


def _cli_sudoku(rng: random.Random, names: dict[str, str]) -> _Line:
    verb = rng.choice(["solve", "solve", "count", "classify", "score", "rate", "generate"])
    if verb == "generate":
        table = [("--count", _num(["1", "2", "3"])), ("--seed", _num(["1", "7", "123"])),
                 ("--symmetry", _pick(["rot180", "rot90", "mirror", "none"], ["bogus", ""])),
                 ("--givens", _num(["20", "30", "6"])), ("--minimal", None),
                 ("--rating", _pick(["0", "1", "x-wing", "singles"],
                                    ["9", "[/red]", "99", "-1", ""])),
                 ("--format", _pick(["text", "jsonl"], ["x"])), ("--pretty", None), ("-q", None),
                 ("--box", _pick(["2x2", "3x3", "2x3"], _BOXES)), ("-x", None),
                 ("--regions", _pick(["regions.txt"], ["/dev/zero", "bin.dat", "missing.txt"]),
                  0.3)]
        opts = _options(rng, table, 0.3)
        timeout = rng.choice(["2", "5", "8"])
        argv = ["sudoku", "generate", "--timeout", timeout, *opts]
        if _hostile(rng) and _hostile(rng):
            argv += ["--timeout", rng.choice(["0", "nan", "-1", "[red]", "1e-9"])]
        return _Line(argv)
    valid = ["puzzles.txt", "puzzles.txt", "small.txt", "noip.txt", "-", *names]
    pool = _pick(valid + ["grids.txt"] if verb != "count" else valid,
                 ["toy.dlx", "bin.dat", "empty.txt", "/dev/zero", "dir", "missing.txt"])
    files = [pool(rng) for _ in range(rng.choice([1, 1, 1, 2]))]
    small = names.get(files[0], files[0]) == "small.txt"
    table: list[tuple[Any, ...]] = [
        ("--format", _pick(["text", "jsonl"], ["bogus", ""])), ("--cases", None), ("-q", None),
        ("--timeout", _sec(["0.5", "5"])),
        ("--box", _pick(["2x2"] if small else ["3x3"], _BOXES), 0.5), ("-x", None),
        ("--regions", _pick(["regions.txt"] if small else ["empty.txt"],
                            ["/dev/zero", "bin.dat", "missing.txt", "dir", "puzzles.txt"]), 0.3)]
    if verb != "rate":
        table += [("--pretty", None), ("--stats", None),
                  ("--max-nodes", _num(["10", "1000", "100000"]))]
    if verb == "solve":
        table.append(("--unique", None))
    if verb == "count":
        table.append(("--limit", _num(["1", "2", "50"])))
    if verb == "rate":
        table.append(("--steps", None))
    opts = _options(rng, table)
    if verb in ("score", "rate") and "--timeout" not in opts:
        opts = ["--timeout", "10", *opts]   # a hard puzzle may take a while: no hang then
    if verb == "count" and "--limit" not in opts:
        opts = ["--limit", "50", *opts]
    argv: list[Any] = ["sudoku", verb, *files, *opts]
    stdin = _pick([DATA.joinpath("sudoku", "unique.txt").read_bytes(), b"1.....3..4.....2\n"],
                  [b"", Path("/dev/zero"), b"." * 100_000, b"1" * 81 + b"\n",
                   bytes(range(256))])(rng)
    line = _Line(argv, stdin if "-" in files else None, allowed=(0, 1, 2, 3, 124))
    content = names.get(files[0], files[0])
    if verb == "solve" and len(files) == 1 and content == "puzzles.txt" and \
            _neutral(argv, "--unique", "--timeout") and "--format" not in argv:
        puzzles = [x for x in DATA.joinpath("sudoku", "unique.txt").read_text().split("\n")
                   if x and not x.startswith("#")]

        def check(ran: Ran) -> None:
            from problems import sudoku

            if ran.code == 124:
                return
            got = ran.stdout.splitlines()
            if ran.code != 0 or len(got) != len(puzzles):
                raise Verdict(WRONG, "dlx sudoku solve: not one solution per puzzle",
                              f"exit {ran.code}, {len(got)} lines for {len(puzzles)} puzzles")
            for puzzle, text in zip(puzzles, got, strict=True):
                grid = sudoku.Grid(text)
                why = _grid_ok(grid, complete=True)
                given = sudoku.Grid(puzzle).values
                if why or any(g and g != v for g, v in zip(given, grid.values, strict=True)):
                    raise Verdict(WRONG, "dlx sudoku solve: a wrong solution",
                                  f"{puzzle} -> {text}: {why or 'a given changed'}")
        line.check = check
    return line


_QUEENS = ["8", "6", "10", "11", "12", "13", "30", "1000", "0", "1", "2", "3", "4", "-1", "447"]


def _cli_puzzle(rng: random.Random, names: dict[str, str]) -> _Line:
    from problems import langford, queens

    command = rng.choice(["queens", "queens", "langford", "dominoes", "pentominoes",
                          "rectangles"])
    table: list[tuple[str, Any]] = [
        ("--limit", _num(["1", "2", "5"])), ("--max-nodes", _num(["10", "1000", "100000"])),
        ("--timeout", _sec(["0.5", "5"])), ("--stats", None),
        ("--format", _pick(["text", "jsonl"], ["x", ""])), ("-q", None),
        ("--jobs", _pick(["1", "2"], _JOBS), 0.5), ("--scheduler", ["[red]", "nowhere"], 0.1)]
    what = rng.choice([[], ["--count"], ["--count"], ["--all"]]) if rng.random() < 0.93 \
        else ["--count", "--all"]
    if command in ("queens", "langford"):
        arg = _value(rng, _QUEENS, _CLI_NUMBERS)
    elif command == "dominoes":
        arg = _value(rng, ["2x2", "4x4", "6x6", "8x8", "1x2", "3x3", "4X4", "2x5"],
                     ["0x0", "1x1", "99999x99999", "2x2x2", "x", "-1x2", "３x３", "9" * 30 + "x1",
                      "1000x1000", "300x300"])
    elif command == "pentominoes":
        arg = _value(rng, ["6x10", "5x12", "3x20", "12x5", "10x6", "6x10 "],
                     ["0x60", "60x1", "1x60", "2x30", "6x10x1", "[red]", "4x4"])
        if rng.random() < 0.3:
            what = [*what, "--distinct"]
    else:
        arg = _value(rng, ["rect.txt", "rect.txt", "-", *names],
                     ["rect-huge.txt", "bin.dat", "/dev/zero", "empty.txt", "missing.txt", "dir"])
    opts = _options(rng, table)
    argv: list[Any] = [command, arg, *what, *opts]
    # a big board asked for all its solutions runs for minutes: a real limit keeps it short
    size = [int(x) for x in re.findall(r"\d+", str(arg))[:2] if len(x) < 6]
    big = (command in ("queens", "langford") and size and size[0] >= 12) or \
        (command == "dominoes" and len(size) == 2 and size[0] * size[1] >= 64) or \
        command == "pentominoes"
    if big:
        argv = [command, arg, "--timeout", "4", *what, *[o for o in opts]]
        if "--timeout" in opts:
            k = opts.index("--timeout")
            if opts[k + 1] in ("1e308", "9" * 400, "1e400", "inf"):
                argv[argv.index("--timeout", 3) + 1] = "0.5"
    stdin = _pick([catalog_zoj()], [b"", Path("/dev/zero"), bytes(range(256))])(rng)
    line = _Line(argv, stdin if arg == "-" else None)
    counts = {"queens": queens.COUNTS, "langford": langford.COUNTS}.get(command)
    if counts is not None and what == ["--count"] and str(arg).isdigit() and len(arg) < 6 and \
            int(arg) < len(counts if isinstance(counts, tuple) else range(max(counts) + 1)) \
            and _neutral(argv, "--jobs") and "--max-nodes" not in argv:
        n = counts[int(arg)] if isinstance(counts, tuple) else counts.get(int(arg))
        if n is not None:
            if "--limit" in argv:
                n = min(n, int(argv[argv.index("--limit") + 1]))

            def check(ran: Ran) -> None:
                if ran.code in (0, 1) and _last_count(ran) != str(n):
                    raise Verdict(WRONG, f"dlx {command} N --count differs from the known count",
                                  f"{_last_count(ran)!r}, known {n}")
            line.check = check
    return line


def catalog_zoj() -> bytes:
    from problems import catalog

    return catalog.ZOJ_SAMPLE.encode()


def _cli_other(rng: random.Random, names: dict[str, str]) -> _Line:
    argv = rng.choice([[], ["--version"], ["bogus"], ["--help"], ["solve", "--help"], ["-x"],
                       ["--jobs", "2"], ["demo"], ["demo", "extra"], ["sudoku"],
                       ["sudoku", "bogus"], ["solve", "--count", "--best", "1"],
                       ["solve", "--best", "1", "--limit", "1", "toy.dlx"], ["queens"],
                       ["queens", "8", "8"], ["\udcff"], ["solve", "--", "-p.dlx"]])
    return _Line(list(argv))


_COMMANDS = ("solve", "demo", "sudoku", "queens", "langford", "dominoes", "pentominoes",
             "rectangles")


def _what(argv: Sequence[Any]) -> str:
    """The command a line runs, for grouping failures: ``dlx sudoku solve``, ``dlx queens``."""
    if not argv or argv[0] not in _COMMANDS:
        return "dlx"
    if argv[0] == "sudoku" and len(argv) > 1 and not str(argv[1]).startswith("-"):
        return f"dlx sudoku {argv[1]}"
    return f"dlx {argv[0]}"


def _case_cli(rng: random.Random, case: Case) -> None:
    _state["hostility"] = rng.choice([0.0, 0.1, 0.1, 0.2, 0.3, 0.5])
    files = _standard_files(rng)
    names: dict[str, str] = {}
    for name in rng.sample(_NAMES, 3):
        shown = os.fsdecode(name) if isinstance(name, bytes) else name
        names[shown] = rng.choice(["toy.dlx", "puzzles.txt", "rect.txt", *list(_KNUTH)[:4]])
    make = rng.choices([_cli_solve, _cli_sudoku, _cli_puzzle, _cli_other], [5, 4, 4, 1])[0]
    line = make(rng, names)
    if _hostile(rng):
        line.env.update(rng.choice(_ENVS))
        if line.env.get("DLX_ENGINE") == "bogus":
            line.check = None                   # exit 2 is then the answer
    timeout = _seconds_given(line.argv)
    what = _what(line.argv)
    case.title = _short(" ".join(shlex.quote(os.fsdecode(a) if isinstance(a, bytes) else a)
                                 for a in line.argv), 120)
    made = {n: (None if files[c] is None else files[c]) for n, c in names.items()}
    used = {n: d for n, d in {**files, **made}.items()
            if any(os.fsdecode(a) == n if isinstance(a, (str, bytes)) else False
                   for a in line.argv)}
    case.repro = (_files_script(used) + "\n" if used else "") + shell_line(
        line.argv, line.env, line.stdin)
    case.allowance = 60.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        for name, data in {**files, **made}.items():
            path = d / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if data is None:
                path.mkdir(exist_ok=True)
            else:
                path.write_bytes(data)
        ran = run_dlx(line.argv, cwd=d, stdin=line.stdin, env=line.env, timeout=20)
        kind = cli_verdict(ran, what, allowed=line.allowed, timeout=timeout,
                           paths=[str(a) for a in line.argv], stats="--stats" in line.argv)
        if line.check is not None:
            line.check(ran)
        return kind
    case.run = run


# --------------------------------------------------------------- the family "signals"


def queens_dlx(n: int) -> str:
    """The n-queens problem in Knuth's format (rows and columns primary, diagonals not)."""
    head = " ".join([f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)])
    diagonals = " ".join([f"u{k}" for k in range(2 * n - 1)] + [f"d{k}" for k in range(2 * n - 1)])
    rows = [f"r{r} c{c} u{r + c} d{r - c + n - 1}" for r in range(n) for c in range(n)]
    return "\n".join([f"{head} | {diagonals}", *rows]) + "\n"


def langford_dlx(n: int) -> str:
    """Langford pairs L(2, n) in Knuth's format."""
    head = " ".join([f"n{k}" for k in range(1, n + 1)] + [f"s{j}" for j in range(2 * n)])
    rows = [f"n{k} s{j} s{j + k + 1}" for k in range(1, n + 1) for j in range(2 * n - k - 1)]
    return "\n".join([head, *rows]) + "\n"


_LONG_COMMANDS: list[tuple[list[str], bool]] = [      # (argv, prints JSON lines)
    (["queens", "10", "--all"], False), (["queens", "9", "--all", "--format", "jsonl"], True),
    (["queens", "11", "--all", "--format", "jsonl"], True), (["solve", "q10.dlx"], False),
    (["solve", "q10.dlx", "--format", "jsonl"], True), (["solve", "q11.dlx", "--count"], False),
    (["sudoku", "solve", "many.txt"], False),
    (["sudoku", "classify", "many.txt", "--format", "jsonl"], True),
    (["sudoku", "count", "many.txt", "--cases"], False), (["langford", "12", "--count"], False),
    (["langford", "11", "--all", "--format", "jsonl"], True),
    (["queens", "13", "--count", "--jobs", "2"], False),
    (["solve", "q11.dlx", "--count", "--jobs", "2"], False),
    (["sudoku", "generate", "--count", "40", "--seed", "1"], False),
    (["pentominoes", "6x10", "--all", "--format", "jsonl"], True),
    (["dominoes", "6x6", "--all"], False), (["sudoku", "rate", "many.txt", "--steps"], False),
    (["sudoku", "score", "many.txt"], False), (["demo"], False),
    (["solve", "q10.dlx", "--stats"], False),
]


def _long_files() -> dict[str, bytes]:
    puzzles = [x for x in DATA.joinpath("sudoku", "unique.txt").read_text().splitlines()
               if x and not x.startswith("#")]
    return {"q10.dlx": queens_dlx(10).encode(), "q11.dlx": queens_dlx(11).encode(),
            "many.txt": ("\n".join(puzzles * 150) + "\n").encode()}


def _check_lines(ran: Ran, what: str, jsonl: bool) -> None:
    """stdout ends in a complete line (and holds JSON lines where it should)."""
    if ran.out and not ran.out.endswith(b"\n"):
        raise Verdict(BAD_OUTPUT, f"{what}: stdout ends in a cut line",
                      f"after {'a signal' if ran.signalled else 'exit'}: ...{ran.out[-60:]!r}")
    if jsonl:
        for line in ran.out.splitlines():
            try:
                json.loads(line)
            except ValueError:
                raise Verdict(BAD_OUTPUT, f"{what}: a broken JSON line on stdout",
                              _short(line)) from None


def _case_signals(rng: random.Random, case: Case) -> None:
    argv, jsonl = rng.choice(_LONG_COMMANDS)
    env = {"DLX_ENGINE": "python"} if rng.random() < 0.4 else {}
    signum = rng.choice([signal.SIGINT, signal.SIGINT, signal.SIGTERM])
    group = rng.random() < (0.7 if signum == signal.SIGINT else 0.3)
    delay = round(rng.uniform(0.1, 2.0), 2)
    twice = signum == signal.SIGINT and rng.random() < 0.2
    again = round(rng.uniform(0.05, 0.5), 2)
    name = signal.Signals(signum).name
    what = _what(argv)
    case.title = (f"{name}{' twice' if twice else ''} to the {'session' if group else 'process'}"
                  f" after {delay} s: dlx {' '.join(argv)}{' (python engine)' if env else ''}")
    case.repro = (f"# make q10.dlx, q11.dlx (n-queens) and many.txt (puzzles) as the harness does\n"
                  f"{shell_line(argv, env)} & sleep {delay}; kill -{name[3:]} "
                  f"{'-- -$!' if group else '$!'}")
    case.allowance = 90.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        for file, data in _long_files().items():
            (d / file).write_bytes(data)
        cmd = _Command(argv, cwd=d, env=env)
        time.sleep(delay)
        sent = cmd.send(signum, group)
        if sent and twice:
            time.sleep(again)
            cmd.send(signal.SIGINT, group)
        ran = cmd.finish(8.0 if sent else 60.0)
        if not sent:
            kind = cli_verdict(ran, what, allowed=(0, 1, 124))
            _check_lines(ran, what, jsonl)
            return kind
        if ran.code is None:
            raise Verdict(HANG, f"{what}: still running 8 s after {name}",
                          f"signal sent at {ran.signalled:.2f} s")
        expected = 130 if signum == signal.SIGINT else 143
        kind = cli_verdict(ran, what, allowed=(0, 1, expected))
        _check_lines(ran, what, jsonl)
        assert ran.signalled is not None
        if ran.code in (0, 1) and ran.seconds - ran.signalled > 2.0:
            raise Verdict(HANG, f"{what}: {name} ignored",
                          f"sent at {ran.signalled:.1f} s; it ran on to exit {ran.code} at"
                          f" {ran.seconds:.1f} s")
        return kind
    case.run = run


# ------------------------------------------------------------- the family "deadlines"

_BIG = {   # name: (source of p, engine -> sizes, known counts)
    "queens": ("from problems import queens\np = queens.encode({n})",
               {"c": [15, 16, 17, 18, 300, 447], "python": [11, 12, 13, 300]}),
    "langford": ("from problems import langford\np = langford.encode({n})",
                 {"c": [13, 14, 15, 17], "python": [11, 12, 13]}),
    "pentominoes": ("from problems import polyominoes\np = polyominoes.encode(6, 10)",
                    {"c": [0], "python": [0]}),
}
_UNSAT = {"c": [13, 14, 17], "python": [13, 14]}     # Langford pairs with no solution


def _known(kind: str, n: int) -> int | None:
    from problems import langford, queens

    if kind == "queens":
        return queens.COUNTS[n] if n < len(queens.COUNTS) else None
    if kind == "langford":
        return langford.COUNTS.get(n)
    return 9356


def _case_deadlines(rng: random.Random, case: Case) -> None:
    if rng.random() < 0.5:
        return _deadline_cli(rng, case)
    engine = rng.choice(engines())
    limit = rng.choice([0.05, 0.2, 0.5, 1.0, 1e-6])
    view = rng.choice(["count", "solutions", "first", "is_unique", "best", "best k", "cache",
                       "batch", "prepared", "executor", "sudoku count", "sudoku batch",
                       "sudoku classify"])
    if view in ("first", "is_unique"):
        kind, n = "langford", rng.choice(_UNSAT[engine])
    else:
        kind = rng.choice(list(_BIG))
        n = rng.choice(_BIG[kind][1][engine])
    setup = _BIG[kind][0].format(n=n)
    t = f"timeout={limit!r}"
    exprs = {
        "count": f"dlx.count(p, {t}, engine=ENGINE)",
        "solutions": f"sum(1 for _ in dlx.solutions(p, {t}, engine=ENGINE))",
        "first": f"dlx.first(p, {t}, engine=ENGINE)",
        "is_unique": f"dlx.is_unique(p, {t}, engine=ENGINE)",
        "best": f"dlx.best(p, lambda label: len(repr(label)) % 5, {t}, engine=ENGINE)",
        "best k": f"dlx.best(p, lambda label: hash(label) % 3, k=3, {t}, engine=ENGINE)",
        "cache": f"dlx.count(p, cache=True, {t}, engine=ENGINE)",
        "batch": f"dlx.Prepared(p, engine=ENGINE).batch([[]], limit=None, {t})",
        "prepared": f"dlx.Prepared(p, engine=ENGINE).count({t})",
        "executor": f"threads(lambda ex: dlx.count(p, executor=ex, {t}, engine=ENGINE))",
        "sudoku count": f"sudoku.count('.' * 81, {t})",
        "sudoku batch": f"sudoku.batch(['.' * 81] * 3, None, {t})",
        "sudoku classify": f"sudoku.classify('.' * 17 + '1' + '.' * 63, {t})",
    }
    expr = exprs[view]
    if view.startswith("sudoku"):
        setup = ""
    known = _known(kind, n) if view in ("count", "solutions", "prepared", "executor",
                                        "cache") else None
    case.title = f"{view} with timeout={limit} on {kind} {n if kind != 'pentominoes' else ''}" \
        f" (engine {engine})"
    case.repro = reproducer(setup, expr, (engine,))
    case.allowance = limit + 10

    def run() -> tuple[str, str, str]:
        saved = os.environ.get("DLX_ENGINE")
        os.environ["DLX_ENGINE"] = engine
        try:
            a = attempt(setup, expr, engine)
        finally:
            if saved is None:
                os.environ.pop("DLX_ENGINE", None)
            else:
                os.environ["DLX_ENGINE"] = saved
        key = view.split()[0] if not view.startswith("sudoku") else view
        if a.status == "raw":
            raise Verdict(RAW, f"{key}(timeout=): {exception_key(a.error)}", a.describe())
        if a.seconds > limit + API_SLACK:
            raise Verdict(HANG, f"{key}(timeout=): the time limit not kept"
                          f"{' (engine c)' if engine == 'c' else ''}",
                          f"timeout={limit} but it took {a.seconds:.1f} s: {a.describe()}")
        if a.status == "budget":
            return BUDGET_RAN_OUT, "", ""
        if a.status == "clean":
            raise Verdict(WRONG, f"{key}(timeout=): a valid call refused", a.describe())
        if view == "batch" and not a.value[0].out_of_budget and known is not None \
                and a.value[0].found != known:
            raise Verdict(WRONG, "batch(timeout=): a wrong count", repr(a.value[0]))
        if known is not None and view != "batch" and a.value != known:
            raise Verdict(WRONG, f"{key}(timeout=): a wrong count", f"{a.value}, known {known}")
        return ANSWER, "", ""
    case.run = run
    return None


def _deadline_cli(rng: random.Random, case: Case) -> None:
    limit = rng.choice(["0.3", "1", "2"])
    files = {"l13.dlx": langford_dlx(13).encode(),
             "empty.txt": ("." * 81 + "\n").encode() * 3,
             "rect.txt": _domino_rectangles(8)}
    argv, env = rng.choice([
        (["queens", rng.choice(["15", "16", "17", "18"]), "--count"], {}),
        (["queens", "16", "--count", "--jobs", "2"], {}),
        (["queens", rng.choice(["300", "447"]), "--count"], {}),
        (["dominoes", rng.choice(["200x200", "300x300"]), "--count"], {}),
        (["langford", "300", "--count"], {}),
        (["solve", "big.dlx", "--count"], {}),
        (["langford", rng.choice(["13", "14", "15"]), "--count"], {}),
        (["solve", "l13.dlx", "--count"], {}), (["solve", "l13.dlx", "--count", "--jobs", "2"], {}),
        (["solve", "l13.dlx"], {"DLX_ENGINE": "python"}),
        (["sudoku", "count", "empty.txt", "--limit", "999999999999"], {}),
        (["sudoku", "generate", "--count", "100000"], {}),
        (["sudoku", "generate", "--count", "3", "--box", "5x5"], {}),
        (["sudoku", "score", "empty.txt"], {}),
        (["sudoku", "rate", "empty.txt"], {}),
        (["sudoku", "solve", "empty.txt"], {"DLX_ENGINE": "python"}),
        (["pentominoes", "6x10", "--count"], {"DLX_ENGINE": "python"}),
        (["dominoes", "10x10", "--count"], {}),
        (["rectangles", "rect.txt", "--count"], {}), (["rectangles", "rect.txt"], {}),
    ])
    argv = [*argv, "--timeout", limit]
    what = _what(argv)
    case.title = f"dlx {' '.join(argv)}{' (python engine)' if env else ''}"
    case.repro = "# l13.dlx: Langford pairs n=13; empty.txt: three empty 9x9 grids;" \
        " big.dlx: 400-queens\n" + \
        shell_line(argv, env)
    case.allowance = 60.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        for file, data in files.items():
            (d / file).write_bytes(data)
        if "big.dlx" in argv:                 # 160,000 options: reading them takes a while
            (d / "big.dlx").write_text(queens_dlx(400))
        ran = run_dlx(argv, cwd=d, env=env, timeout=float(limit) + 20)
        return cli_verdict(ran, what, allowed=(0, 1, 2, 124), timeout=float(limit))
    case.run = run


def _domino_rectangles(n: int) -> bytes:
    """A ZOJ 3209 case: an n x n board, its unit squares and dominoes as the pieces."""
    pieces = [(x, y, x + 1, y + 1) for x in range(n) for y in range(n)]
    pieces += [(x, y, x + 2, y + 1) for x in range(n - 1) for y in range(n)]
    pieces += [(x, y, x + 1, y + 2) for x in range(n) for y in range(n - 1)]
    lines = ["1", f"{n} {n} {len(pieces)}", *(" ".join(map(str, p)) for p in pieces)]
    return ("\n".join(lines) + "\n").encode()


# ----------------------------------------------------- the family "stress" (long form)


def _case_stress(rng: random.Random, case: Case) -> None:
    which = rng.choice(["kill", "kill", "threads", "threads", "memory"])
    {"kill": _stress_kill, "threads": _stress_threads, "memory": _stress_memory}[which](rng, case)


def _stress_kill(rng: random.Random, case: Case) -> None:
    argv, env, known = rng.choice([
        (["queens", "15", "--count", "--jobs", "2"], {}, 2279184),
        (["langford", "13", "--count", "--jobs", "2"], {}, 0),
        (["solve", "l13.dlx", "--count", "--jobs", "2"], {}, 0),
        (["queens", "11", "--count", "--jobs", "2"], {"DLX_ENGINE": "python"}, 2680),
        (["queens", "12", "--all", "--format", "jsonl", "--jobs", "2"], {}, 14200),
    ])
    delay = round(rng.uniform(0.3, 1.5), 2)
    kills = rng.choice([1, 1, 2])
    what = _what(argv)
    case.title = f"SIGKILL {kills} worker(s) after {delay} s: dlx {' '.join(argv)}" + \
        (" (python engine)" if env else "")
    case.repro = (f"{shell_line(argv, env)} & sleep {delay};"
                  " kill -9 $(cat /proc/$!/task/$!/children | cut -d' ' -f1)")
    case.allowance = 150.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        (d / "l13.dlx").write_bytes(langford_dlx(13).encode())
        cmd = _Command(argv, cwd=d, env=env)
        time.sleep(delay)
        killed = 0
        for _ in range(40):
            children = cmd.children()
            if children or cmd.proc.poll() is not None:
                break
            time.sleep(0.05)
        for pid in rng.sample(children, min(kills, len(children))):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        ran = cmd.finish(120.0)
        kind = cli_verdict(ran, what + " (a worker killed)", allowed=(0, 1, 2))
        if ran.code in (0, 1):
            got = len(ran.out.splitlines()) if "--all" in argv else _last_count(ran)
            if str(got) != str(known):
                raise Verdict(WRONG, f"{what} --jobs 2: a wrong count after a worker was killed",
                              f"{got!r}, known {known} ({killed} killed)")
            _check_lines(ran, what, "jsonl" in argv)
        return kind
    case.run = run


_THREAD_PROBLEMS = {
    "q6": ("from problems import queens\np = queens.encode(6)", 4),
    "q8": ("from problems import queens\np = queens.encode(8)", 92),
    "toy": ("p = dlx.read_dlx(dlx.formats.KNUTH_TOY)", 1),
    "bounds": (f"p = dlx.read_dlx({(DATA / 'knuth' / 'rand-bounds-1.dlx').read_text()!r})"
               if (DATA / "knuth").exists() else "p = None", 43),
    "colours": (f"p = dlx.read_dlx({(DATA / 'knuth' / 'rand-colour-6.dlx').read_text()!r})"
                if (DATA / "knuth").exists() else "p = None", 9),
}


def _stress_threads(rng: random.Random, case: Case) -> None:
    n_threads = rng.choice([2, 3, 4, 6])
    rounds = rng.choice([5, 10, 20])
    names = rng.sample(list(_THREAD_PROBLEMS), 3)
    case.title = f"{n_threads} threads x {rounds} searches on shared problems {names}"
    case.repro = "# threads share ExactCover and Prepared objects; rerun the case"
    case.allowance = 120.0

    def run() -> tuple[str, str, str]:
        shared: dict[str, Any] = {}
        for name in names:
            ns = _namespace("c")
            exec(_THREAD_PROBLEMS[name][0], ns)
            p = ns["p"]
            shared[name] = (p, {e: dlx.Prepared(p, engine=e) for e in engines()},
                            _THREAD_PROBLEMS[name][1])
        # the best by costs, once, single-threaded: what every thread must find too
        bests = {name: dlx.best(p) for name, (p, _, _) in shared.items()}
        faults: list[Verdict] = []
        barrier = threading.Barrier(n_threads)

        def worker(seed: int) -> None:
            r = random.Random(seed)
            barrier.wait()
            for _ in range(rounds):
                name = r.choice(names)
                p, prepared, n = shared[name]
                engine = r.choice(engines())
                op = r.choice(["count", "solutions", "first", "best", "batch", "unique",
                               "split", "interleaved"])
                try:
                    if op == "count":
                        ok = dlx.count(p, engine=engine, max_nodes=BUDGET) == n
                    elif op == "solutions":
                        sols = list(dlx.solutions(p, engine=engine, max_nodes=BUDGET))
                        ok = len(sols) == n and all(dlx.is_exact_cover(p, s) for s in sols)
                    elif op == "first":
                        ok = dlx.is_exact_cover(p, dlx.first(p, engine=engine, seed=r.randrange(9)))
                    elif op == "best":
                        ok = dlx.best(p, engine=engine) == bests[name]
                    elif op == "batch":
                        answer = prepared[engine].batch([[]], limit=None)[0]
                        ok = answer.found == n
                    elif op == "unique":
                        ok = dlx.is_unique(p, engine=engine) == (n == 1)
                    elif op == "split":
                        ok = sum(prepared[engine].count(piece) for piece in
                                 dlx.split(p, pieces=8, engine=engine)) == n
                    else:
                        a = dlx.solutions(p, engine=engine)
                        b = dlx.solutions(p, engine=engine)
                        got = [x for pair in itertools.zip_longest(a, b) for x in pair
                               if x is not None]
                        ok = len(got) == 2 * n
                    if not ok:
                        faults.append(Verdict(WRONG, f"threads: {op} gives a wrong answer",
                                              f"{name}, engine {engine}"))
                except Exception as e:  # noqa: BLE001 - any exception in a thread is a fault
                    faults.append(Verdict(RAW, f"threads: {op}: {exception_key(e)}",
                                          f"{name}, engine {engine}: {describe_exception(e)}"))

        pool = [threading.Thread(target=worker, args=(rng.randrange(10**9),))
                for _ in range(n_threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join(100)
        if any(t.is_alive() for t in pool):
            raise Verdict(HANG, "threads: a search never ended", case.title)
        if faults:
            raise faults[0]
        return ANSWER, "", ""
    case.run = run


def _fibonacci(n: int) -> int:
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def _stress_memory(rng: random.Random, case: Case) -> None:
    test = rng.choice(["cache", "cache", "big file", "regions", "zero"])
    if test == "cache":
        depth = rng.choice([8000, 9000, 10000])
        cap = 200_000
        code = (f"import dlx\nd = {depth}\nopts = {{('one', i): [i] for i in range(d)}}\n"
                "opts.update({('two', i): [i, i + 1] for i in range(d - 1)})\n"
                "print(dlx.count(dlx.ExactCover(opts), cache=True))\n")
        case.title = f"count(cache=True) of a chain {depth} deep in {cap // 1000} MB"
        case.repro = f"(ulimit -v {cap}; python -c {shlex.quote(code)})"
        case.allowance = 120.0

        def run() -> tuple[str, str, str]:
            cmd = _Command([], cwd=_case_dir(case), memory_kb=cap,
                           python=[sys.executable, "-c", code])
            ran = cmd.finish(100.0)
            if ran.code is not None and "MemoryError" in ran.stderr:
                raise Verdict(RUNAWAY, "count(cache=True): memory grows with the depth squared",
                              f"depth {depth}: MemoryError under {cap // 1000} MB")
            kind = cli_verdict(ran, "count(cache=True)", allowed=(0,))
            if ran.stdout.strip() != str(_fibonacci(depth)):
                raise Verdict(WRONG, "count(cache=True) of a chain: a wrong count",
                              _short(ran.stdout, 80))
            return kind
        case.run = run
        return
    if test == "big file":
        n = rng.choice([100_000, 300_000])
        cap = rng.choice([150_000, 300_000])
        argv = ["solve", "big.dlx", "--count", "--timeout", "20"]
        case.title = f"dlx solve of {n:,} options in {cap // 1000} MB"
        allowed: tuple[int, ...] = (0, 1, 4, 124)
    elif test == "regions":
        cap = 500_000
        argv = ["sudoku", "solve", "small.txt", "--regions", "/dev/zero"]
        case.title = f"dlx sudoku solve --regions /dev/zero in {cap // 1000} MB"
        allowed = (2,)
    else:
        cap = 500_000
        argv = rng.choice([["sudoku", "solve", "/dev/zero"], ["rectangles", "/dev/zero"],
                           ["solve", "--format", "hust", "/dev/zero"], ["solve", "/dev/zero"],
                           ["sudoku", "count", "-"], ["solve", "-"]])
        case.title = f"dlx {' '.join(argv)} (zeros) in {cap // 1000} MB"
        allowed = (2,)
    case.repro = shell_line(argv, memory_kb=cap) + (" < /dev/zero" if "-" in argv else "")
    case.allowance = 90.0

    def run_command() -> tuple[str, str, str]:
        d = _case_dir(case)
        (d / "small.txt").write_text("1.....3..4.....2\n")
        if test == "big file":
            with open(d / "big.dlx", "w") as f:
                f.write(" ".join(f"i{k}" for k in range(n // 10)) + "\n")
                r = random.Random(n)
                for _ in range(n):
                    f.write(" ".join(f"i{k}" for k in r.sample(range(n // 10), 3)) + "\n")
        stdin = Path("/dev/zero") if "-" in argv else None
        ran = _Command(argv, cwd=d, memory_kb=cap, stdin=stdin).finish(60.0)
        if ran.code == 4 and 4 not in allowed:
            raise Verdict(RUNAWAY, f"{_what(argv)}: an unbounded read of /dev/zero",
                          f"memory ran out under {cap // 1000} MB: {_short(ran.stderr, 120)}")
        if ran.code is None:
            raise Verdict(HANG, f"{_what(argv)}: reading zeros never ends", case.title)
        return cli_verdict(ran, _what(argv), allowed=allowed)
    case.run = run_command


# ------------------------------------------------------------------------ the runner

#: The families, in the order of the table.  "stress" is in the long form only.
FAMILIES: dict[str, Callable[[random.Random, Case], None]] = {
    "random": _case_random, "arguments": _case_arguments, "text": _case_text,
    "cli": _case_cli, "signals": _case_signals, "deadlines": _case_deadlines,
    "stress": _case_stress,
}
#: The quick form (tests/test_fuzz.py): cases per family.
QUICK = {"random": 200, "arguments": 160, "text": 24, "cli": 30, "signals": 8, "deadlines": 8}
#: The share of each family in a long run (bench/fuzz.py --cases N).
SHARES = {"random": 0.36, "arguments": 0.30, "text": 0.12, "cli": 0.12, "signals": 0.04,
          "deadlines": 0.03, "stress": 0.03}
HARNESS_ERROR = "harness error"


def make_case(family: str, seed: int, index: int) -> Case:
    """Case ``index`` of ``family`` under ``seed`` (the same every time)."""
    rng = random.Random(f"{family}/{seed}/{index}")
    case = Case(family, seed, index, "", "", lambda: (ANSWER, "", ""))
    FAMILIES[family](rng, case)
    return case


def run_case(family: str, seed: int, index: int) -> Result:
    """Make and run one case in this process; the outcome as a :class:`Result`."""
    started = time.monotonic()
    try:
        case = make_case(family, seed, index)
    except Exception as e:  # noqa: BLE001 - a bug of the harness itself, reported as such
        return Result(family, seed, index, HARNESS_ERROR, "making the case",
                      f"make: {exception_key(e)}", describe_exception(e))
    return _execute(case, started)


def _execute(case: Case, started: float | None = None) -> Result:
    started = time.monotonic() if started is None else started
    try:
        kind, key, detail = case.run()
    except Verdict as v:
        kind, key, detail = v.kind, v.key, v.detail
    except Exception as e:  # noqa: BLE001
        kind, key, detail = HARNESS_ERROR, f"{case.family}: {exception_key(e)}", \
            describe_exception(e) + "\n" + "".join(traceback.format_exc()[-1500:])
    finally:
        d = _state.pop("case dir", None)
        if d is not None:
            shutil.rmtree(d, ignore_errors=True)
    seconds = time.monotonic() - started
    if kind not in FAILURES and kind != HARNESS_ERROR and seconds > case.allowance:
        kind, key, detail = HANG, f"{case.family}: over its allowance", \
            f"{seconds:.1f} s, allowed {case.allowance:.0f} s"
    return Result(case.family, case.seed, case.index, kind, case.title, key, detail, case.repro,
                  seconds)


def plan(counts: dict[str, int], seed: int, start: int = 0) -> list[tuple[str, int, int]]:
    """The cases of a run: ``counts[family]`` of each, interleaved so that slow families
    are spread over the run."""
    queues = [[(f, seed, start + k) for k in range(n)] for f, n in counts.items() if n > 0]
    out = []
    for row in itertools.zip_longest(*queues):
        out.extend(x for x in row if x is not None)
    return out


def _worker(conn: Connection) -> None:
    """A worker process: run the cases it is sent, one at a time."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)          # the runner handles Ctrl-C
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
    _state["report"] = conn.send
    try:
        while True:
            task = conn.recv()
            if task is None:
                break
            family, seed, index = task
            try:
                case = make_case(family, seed, index)
            except Exception as e:  # noqa: BLE001
                conn.send(("done", Result(family, seed, index, HARNESS_ERROR, "making the case",
                                          f"make: {exception_key(e)}", describe_exception(e))))
                continue
            conn.send(("start", case.allowance, case.title, case.repro))
            conn.send(("done", _execute(case)))
    finally:
        shutil.rmtree(_state.get("scratch", "/nonexistent"), ignore_errors=True)


@dataclass
class _Worker:
    proc: Any
    conn: Connection
    task: tuple[str, int, int] | None = None
    started: float = 0.0
    allowance: float = 60.0
    title: str = ""
    repro: str = ""
    groups: set[int] = field(default_factory=set)


def run_cases(tasks: Sequence[tuple[str, int, int]], jobs: int = 2,
              on_result: Callable[[Result], None] | None = None,
              grace: float = 15.0) -> list[Result]:
    """Run ``tasks`` (family, seed, index) on ``jobs`` worker processes.

    A worker that outlives a case's allowance by ``grace`` seconds is killed (the case
    is a hang), and one that dies is a crash; either is replaced.  Results come back
    in the order of ``tasks``.
    """
    ctx = multiprocessing.get_context("spawn")
    pending = list(reversed(tasks))
    results: dict[tuple[str, int, int], Result] = {}
    slots: list[_Worker] = []

    def spawn() -> _Worker:
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(theirs,), daemon=True)
        proc.start()
        theirs.close()
        return _Worker(proc, mine)

    def finish(slot: _Worker, result: Result) -> None:
        assert slot.task is not None
        results[slot.task] = result
        slot.task = None
        slot.groups.clear()
        if on_result is not None:
            on_result(result)

    def replace(slot: _Worker, kind: str, key: str, detail: str) -> None:
        assert slot.task is not None
        family, seed, index = slot.task
        for pgid in slot.groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            slot.proc.kill()
            slot.proc.join(5)
        _remove_scratch(slot.proc.pid)
        finish(slot, Result(family, seed, index, kind, slot.title, key, detail, slot.repro,
                            time.monotonic() - slot.started))
        slots[slots.index(slot)] = spawn()

    try:
        slots.extend(spawn() for _ in range(max(1, min(jobs, len(tasks)))))
        while pending or any(s.task is not None for s in slots):
            for slot in slots:
                if slot.task is None and pending:
                    slot.task = pending.pop()
                    slot.started, slot.allowance = time.monotonic(), 60.0
                    slot.title, slot.repro = f"{slot.task[0]} #{slot.task[2]}", ""
                    slot.conn.send(slot.task)
            busy = {s.conn: s for s in slots if s.task is not None}
            for conn in wait_for(list(busy), timeout=0.25):
                slot = busy[conn]
                try:
                    msg = conn.recv()
                except (EOFError, OSError):
                    code = slot.proc.exitcode
                    how = signal.Signals(-code).name if code and code < 0 else f"exit {code}"
                    replace(slot, CRASH, f"{slot.task[0] if slot.task else '?'}: the worker"
                            f" process died ({how})", f"the process running it died: {how}")
                    continue
                if msg[0] == "start":
                    slot.allowance, slot.title, slot.repro = msg[1], msg[2], msg[3]
                    slot.started = time.monotonic()
                elif msg[0] == "child":
                    (slot.groups.discard if msg[2] else slot.groups.add)(msg[1])
                elif msg[0] == "done":
                    finish(slot, msg[1])
            now = time.monotonic()
            for slot in list(slots):
                if slot.task is not None and now - slot.started > slot.allowance + grace:
                    replace(slot, HANG, f"{slot.task[0]}: no result within"
                            f" {slot.allowance + grace:.0f} s",
                            f"killed after {now - slot.started:.0f} s")
    finally:
        for slot in slots:
            with contextlib.suppress(Exception):
                slot.conn.send(None)
        for slot in slots:
            slot.proc.join(3)
            if slot.proc.is_alive():
                slot.proc.kill()
                slot.proc.join(3)
            _remove_scratch(slot.proc.pid)
            for pgid in slot.groups:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pgid, signal.SIGKILL)
    return [results[t] for t in tasks if t in results]


# ------------------------------------------------------------------------- reporting


def table(results: Iterable[Result]) -> str:
    """Outcomes by family (rows) and kind (columns), with totals, as a Markdown table."""
    results = list(results)
    kinds = [k for k in (*KINDS, HARNESS_ERROR)
             if k in KINDS[:4] or any(r.kind == k for r in results) or k in (RAW, WRONG)]
    families = [f for f in FAMILIES if any(r.family == f for r in results)]
    counts = Counter((r.family, r.kind) for r in results)
    head = ["family", "cases", *kinds]
    rows = [[f, str(sum(counts[f, k] for k in kinds)), *(f"{counts[f, k]:,}" for k in kinds)]
            for f in families]
    rows.append(["**all**", f"{len(results):,}",
                 *(f"{sum(counts[f, k] for f in families):,}" for k in kinds)])
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(x.rjust(w) if k else x.ljust(w)
                                for k, (x, w) in enumerate(zip(row, widths, strict=True))) + " |"
              for row in rows]
    return "\n".join(lines)


def failures_report(results: Iterable[Result], examples: int = 1) -> str:
    """The failures grouped by cause (kind and key), most frequent first, with
    ``examples`` reproducers of each."""
    groups: dict[tuple[str, str], list[Result]] = {}
    for r in results:
        if r.failed or r.kind == HARNESS_ERROR:
            groups.setdefault((r.kind, r.key), []).append(r)
    out = []
    for (kind, key), rs in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        out.append(f"## [{kind}] {key}  ({len(rs)} case{'s' if len(rs) > 1 else ''})")
        out.extend(r.report() for r in sorted(rs, key=lambda r: len(r.repro))[:examples])
    return "\n".join(out)
