"""The harness's core: outcome kinds, results and verdicts, values written as source, attempts
of a call in a child process, and the brute-force oracle."""

from __future__ import annotations

import io
import math
import random
import re
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import dlx
from dlx import Colored

ROOT = Path(__file__).resolve().parent.parent.parent
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


# ------------------------------------------------------------ helpers of the cases


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


def _wrong(title: str, what: str, detail: str) -> Verdict:
    return Verdict(WRONG, f"{title}: {what}", detail)


def _a_moment(name: str, value: str) -> bool:
    """Is ``value`` of a ``timeout=`` slot a time limit of less than a millisecond?"""
    if "timeout" not in name:
        return False
    try:
        seconds = float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return 0 < seconds < 1e-3


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


_BIG_V = [2**30 - 1, 2**30, 2**31, 2**62, 2**64, 10**30]
