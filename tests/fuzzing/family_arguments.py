"""The family "arguments": malformed arguments to every entry point of the API."""

from __future__ import annotations

import json
import math
import os
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import dlx
from dlx import Colored

from .core import (
    ANSWER,
    BUDGET_RAN_OUT,
    CLEAN,
    RAW,
    RUNAWAY,
    WRONG,
    Attempt,
    Case,
    Spec,
    Verdict,
    _a_moment,
    _close,
    _grid_ok,
    _short,
    _wrong,
    attempt,
    engines,
    exception_key,
    oracle,
    reproducer,
    score,
    src,
)
from .family_random import random_spec

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
