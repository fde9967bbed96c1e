"""The family "random": small random problems on both engines against the oracle."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import dlx
from dlx import Colored

from .core import (
    _BIG_V,
    ANSWER,
    BAD_OUTPUT,
    CLEAN,
    CRASH,
    HANG,
    RAW,
    RUNAWAY,
    WRONG,
    Attempt,
    Case,
    Spec,
    Verdict,
    _close,
    _wrong,
    attempt,
    engines,
    exception_key,
    oracle,
    reproducer,
    score,
    src,
)

# ------------------------------------------------------------- the family "random"

_PRIMARY_NAMES: list[Hashable] = ["a", "b", "c", "d", "e", "f", ("cell", 0, 1), 7, "ü", "",
                                  "a b", -1]
_SECONDARY_NAMES: list[Hashable] = ["x", "y", "z", ("s", 1), "ß"]
_COLOURS: list[Hashable] = ["R", "G", 0, ("c", 1)]
_LABELS: list[Hashable] = [f"o{k}" for k in range(12)] + list(range(12)) + [
    (k, "r") for k in range(12)] + [None, "", ("o", None)]


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
