"""dlx.write_dimacs: the CNF has one model per solution (python-sat counts them)."""

from __future__ import annotations

import io
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import BUDGET, bounded_problems, colored_problems, problems

import dlx
from dlx import dimacs

pysat = pytest.importorskip("pysat.solvers", reason="python-sat is in the dev extra")


def read(text: str) -> tuple[int, list[list[int]], dict[int, str]]:
    """The variables, clauses and option table of a DIMACS text, checked against its header."""
    clauses, table, header = [], {}, None
    for line in text.splitlines():
        if line.startswith("c option "):
            _, _, var, label = line.split(" ", 3)
            table[int(var)] = label
        elif line.startswith("p cnf "):
            header = tuple(map(int, line.split()[2:]))
        elif not line.startswith("c"):
            lits = list(map(int, line.split()))
            assert lits[-1] == 0
            clauses.append(lits[:-1])
    assert header == (max([abs(x) for c in clauses for x in c] + [len(table)]), len(clauses)) \
        or header[1] == len(clauses)
    return header[0], clauses, table


def models(text: str, cap: int = 10_000) -> set[frozenset[str]]:
    """Every model, as the set of option labels (reprs) it chooses."""
    n, clauses, table = read(text)
    if any(not c for c in clauses):
        return set()
    out = set()
    # a variable past the last one the solver saw is free: each model is two
    with pysat.Solver(name="m22", bootstrap_with=clauses) as s:
        seen = 0
        for model in s.enum_models():
            seen += 1
            assert seen <= cap
            chosen = {table[v] for v in model if 0 < v <= len(table)}
            free = [v for v in range(1, n + 1) if v > len(model)]
            for r in range(len(free) + 1):
                for extra in itertools.combinations(free, r):
                    one = frozenset(chosen | {table[v] for v in extra})
                    assert one not in out, "two models for one solution: a helper is free"
                    out.add(one)
    return out


def solutions(p: dlx.ExactCover, **kw) -> set[frozenset[str]]:
    return {frozenset(map(repr, sol)) for sol in dlx.solutions(p, max_nodes=BUDGET, **kw)}


def dimacs_of(p: dlx.ExactCover, **kw) -> str:
    out = io.StringIO()
    dlx.write_dimacs(p, out, **kw)
    return out.getvalue()


@given(problems())
def test_models_are_the_solutions(p):
    assert models(dimacs_of(p)) == solutions(p)


@given(colored_problems())
def test_colours(p):
    assert models(dimacs_of(p)) == solutions(p)


@given(bounded_problems())
def test_bounds(p):
    assert models(dimacs_of(p)) == solutions(p)


@given(st.integers(0, 9), st.integers(0, 3), st.integers(0, 4))
def test_cardinality_counter(n, u, extra):
    """u <= sum <= v over n options of one item: C(n, u) + ... + C(n, v) models."""
    v = max(1, u + extra)
    p = dlx.ExactCover({f"o{k}": ["a"] for k in range(n)}, primary=["a"], bounds={"a": (u, v)})
    want = sum(len(list(itertools.combinations(range(n), r))) for r in range(u, min(v, n) + 1))
    assert len(models(dimacs_of(p))) == want == dlx.count(p)


@pytest.mark.parametrize("n", [0, 1, 2, 6, 7, 20])
def test_at_most_one_both_ways(n):
    """Pairwise up to PAIRWISE, the sequential counter beyond: n + 1 models for a
    secondary item, n for a primary one."""
    sec = dlx.ExactCover({f"o{k}": ["a", "s"] for k in range(n)} | {"z": ["a"]}, secondary=["s"])
    assert len(models(dimacs_of(sec))) == n + 1 == dlx.count(sec)
    # item a has n + 1 options: helpers (the counter's) only past PAIRWISE
    assert (n + 1 > dimacs.PAIRWISE) == (read(dimacs_of(sec))[0] > n + 1)


def test_forced_and_idle_options():
    p = dlx.ExactCover({"x": ["a"], "y": ["a"], "lone": ["s"]}, secondary=["s"])
    assert models(dimacs_of(p)) == {frozenset(["'x'"]), frozenset(["'y'"])}
    assert models(dimacs_of(p, forced=["y"])) == {frozenset(["'y'"])}
    with pytest.raises(dlx.ExactCoverError, match="never chosen"):
        dimacs_of(p, forced=["lone"])


def test_table_names_every_option(tmp_path):
    from problems import queens

    p = queens.encode(5)
    path = tmp_path / "q5.cnf"
    variables, clauses = dlx.write_dimacs(p, path)
    text = path.read_text()
    n, read_clauses, table = read(text)
    assert (n, len(read_clauses)) == (variables, clauses)
    assert [table[k + 1] for k in range(len(p))] == [repr(label) for label in p.options]
    assert len(models(text)) == dlx.count(p) == 10


def test_labels_on_one_line():
    p = dlx.ExactCover({"two\nlines": ["a"]})
    text = dimacs_of(p)
    assert "c option 1 'two\\nlines'" in text.splitlines()


def test_no_option_no_solution():
    p = dlx.ExactCover({}, primary=["a"])
    assert models(dimacs_of(p)) == set() == solutions(p)
