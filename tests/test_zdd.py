"""Tests of dlx.zdd: the ZDD of all solutions (Knuth's DLX6), its builder, counting,
listing, sampling, pictures and files.

The diagrams here are made by :meth:`ZDD.from_solutions` from brute-forced solutions,
and by :func:`dlx6`, a set-based search that caches what is left and builds the
diagram as DLX6 does (a chain per chosen item, each node's ``lo`` the options tried
before it); ``dlx.zdd`` itself (the engines) is tested where it is wired.
"""

from __future__ import annotations

import hashlib
import io
import json
import pickle
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import brute_force, plain_tree
from strategies import BUDGET, colored_problems, problems

import dlx
from dlx.errors import ExactCoverError, FormatError
from dlx.formats import read_dlx
from dlx.zdd import MAX_LINE_LENGTH, ZDD, ZDDBuilder

KNUTH = Path(__file__).parent / "data" / "knuth"


def dlx6(problem: dlx.ExactCover) -> tuple[ZDD, int]:
    """The diagram of ``problem`` built as DLX6 builds it, and the number of ZDD nodes
    DLX6 reports for it (it makes a node per option whose subtree has a solution,
    and counts the two sinks, or reports 1 when it made none).

    A set-based Algorithm C choosing items as the engines do (MRV, first on ties),
    caching the diagram below each state by what is left: the uncovered primary
    items and the options still possible (which settle the colours too)."""
    labels = list(problem.options)
    index = {label: k for k, label in enumerate(labels)}
    entries = {label: [(e.item, e.color) if isinstance(e, dlx.Colored) else (e, None)
                       for e in items]
               for label, items in problem.options.items()
               if any(i in problem.primary for i in problem.item_names(label))}
    order = list(entries)
    b = ZDD.builder(labels)
    cache: dict[tuple[frozenset[Hashable], frozenset[Hashable]], int] = {}
    made = 0

    def available(label: Hashable, covered: set[Hashable], colours: dict) -> bool:
        return all(item not in covered and (item not in colours or colour is not None
                                            and colours[item] == colour)
                   for item, colour in entries[label])

    def below(covered: set[Hashable], colours: dict) -> int:
        nonlocal made
        active = [i for i in problem.primary if i not in covered]
        if not active:
            return 1
        left = [o for o in order if available(o, covered, colours)]
        key = (frozenset(active), frozenset(left))
        if key not in cache:
            options_of = {i: [o for o in left if any(item == i for item, _ in entries[o])]
                          for i in active}
            item = min(active, key=lambda i: len(options_of[i]))
            z = 0
            for o in options_of[item]:
                sub = below(covered | {i for i, c in entries[o] if c is None},
                            colours | {i: c for i, c in entries[o] if c is not None})
                if sub:
                    made += 1
                    z = b.make(index[o], z, sub)      # lo: the options tried before o
            cache[key] = z
        return cache[key]

    root = below(set(), {})
    return b.finish(root), (made + 2 if made else 1)


def as_sets(z: ZDD) -> set[frozenset[Hashable]]:
    return {frozenset(s) for s in z}


def round_trip(z: ZDD) -> ZDD:
    out = io.StringIO()
    z.write(out)
    return ZDD.read(io.StringIO(out.getvalue()))


def check_diagram(z: ZDD, solutions: set[frozenset[Hashable]]) -> None:
    """Everything a diagram of ``solutions`` must do."""
    listed = list(z)
    assert z.count() == len(solutions) == len(listed)
    assert {frozenset(s) for s in listed} == solutions
    assert all(len(set(s)) == len(s) for s in listed)
    assert [z.solution(k) for k in range(z.count())] == listed
    back = round_trip(z)
    assert back == z and list(back) == listed and back.nodes == z.nodes
    assert pickle.loads(pickle.dumps(z)) == z
    assert ZDD(z.labels, *_arrays(z), z.root) == z        # the checked constructor
    if solutions:
        assert set(z.sample(5, seed=1)) <= set(listed)
    dot = z.to_dot()
    assert dot.startswith("digraph ZDD {") and dot.count("style=dashed") == z.branch_nodes


def _arrays(z: ZDD) -> tuple[list[int], list[int], list[int]]:
    nodes = [(-1, 0, 0), (-1, 1, 1)] + [z.node(k) for k in range(2, z.branch_nodes + 2)]
    return [n[0] for n in nodes], [n[1] for n in nodes], [n[2] for n in nodes]


# --- the families of random problems -----------------------------------------------------

@given(problems())
def test_from_solutions_holds_the_solutions(problem):
    solutions = brute_force(problem)
    z = ZDD.from_solutions(list(problem.options), solutions)
    check_diagram(z, solutions)
    index = {label: k for k, label in enumerate(problem.options)}
    assert [tuple(index[x] for x in s) for s in z] == sorted(
        tuple(sorted(index[x] for x in s)) for s in solutions)
    again = ZDD.from_solutions(list(problem.options), [tuple(reversed(list(s)))
                                                       for s in solutions])
    assert again == z                   # one diagram per family, whatever the order


@pytest.mark.slow
@given(colored_problems())
def test_from_solutions_of_coloured_problems(problem):
    solutions = brute_force(problem)
    check_diagram(ZDD.from_solutions(list(problem.options), solutions), solutions)


@given(problems())
def test_dlx6_shape_counts_lists_in_search_order_and_is_no_bigger(problem):
    z, reported = dlx6(problem)
    check_diagram(z, brute_force(problem))
    assert list(z) == plain_tree(problem)[0]      # lo before hi: the order of the search
    assert z.nodes <= reported


@pytest.mark.slow
@given(colored_problems())
def test_dlx6_shape_of_coloured_problems(problem):
    z, reported = dlx6(problem)
    check_diagram(z, brute_force(problem))
    assert list(z) == plain_tree(problem)[0]
    assert z.nodes <= reported


@pytest.mark.filterwarnings("ignore::dlx.formats.DLXFormatWarning")
@pytest.mark.parametrize("name, count, dlx6_nodes", [
    ("toy.dlx", 1, 5), ("rc2-3.dlx", 6, None), ("queens6.dlx", 4, None),
    ("dlx2-color-example.dlx", 1, None), ("rand-colour-6.dlx", 9, None),
])
def test_dlx6_shape_on_knuths_instances(name, count, dlx6_nodes):
    problem = read_dlx((KNUTH / name).read_text())
    z, reported = dlx6(problem)
    assert z.count() == count == len(list(z))
    assert list(z) == plain_tree(problem)[0]
    assert z.nodes <= reported
    if dlx6_nodes is not None:
        assert z.nodes == reported == dlx6_nodes     # the toy: 3 branch nodes and 2 sinks
    assert round_trip(z) == z


@pytest.mark.filterwarnings("ignore::dlx.formats.DLXFormatWarning")
@pytest.mark.parametrize("name", ["toy.dlx", "dlx2-color-example.dlx", "dominoes4x4.dlx",
                                  "dominoes6x6.dlx", "langford7.dlx", "queens6.dlx",
                                  "queens8.dlx", "rand-colour-6.dlx", "rand-colour-7.dlx",
                                  "bricks2x2x5.dlx"])
def test_dlx6_shape_is_no_bigger_than_knuths_dlx6(name):
    """The ZDD node counts DLX6 printed (answers.json, where recorded): the set-based
    DLX6 above makes as many nodes, or fewer where its cache or hash-consing shares more."""
    knuth = json.loads((KNUTH / "answers.json").read_text())["instances"].get(name, {})
    assert "dlx6" in knuth, f"answers.json has no DLX6 figures for {name}"
    z, reported = dlx6(read_dlx((KNUTH / name).read_text()))
    assert z.count() == knuth["dlx6"]["count"]
    assert z.nodes <= reported <= knuth["dlx6"]["zdd_nodes"]


# --- the builder ------------------------------------------------------------------------

def digits(b: ZDDBuilder, places: int, base: int = 10) -> int:
    """The diagram of every number of ``places`` digits: a chain of ``base`` nodes per
    place, option ``(place, d)`` at index ``place * base + d``."""
    z = 1
    for place in reversed(range(places)):
        chain = 0
        for d in range(base):
            chain = b.make(place * base + d, chain, z)
        z = chain
    return z


def test_hash_consing_makes_each_node_once():
    labels = [(p, d) for p in range(4) for d in range(10)]
    b = ZDD.builder(labels)
    root = digits(b, 4)
    made = b.made
    assert digits(b, 4) == root and b.made == made == 40
    assert b.make(3, 0, 0) == 0 and b.make(3, 7, 0) == 7 and b.made == made   # hi = 0
    z = b.finish(root)
    assert z.count() == 10**4 and z.nodes == 42 and z.branch_nodes == 40


def test_the_constructor_shares_equal_nodes_and_drops_unreached_ones():
    # nodes 2 and 3 are equal, 4 and 5 are then equal, 6 is not reached from 5
    var = [-1, -1, 0, 0, 1, 1, 2]
    lo = [0, 1, 0, 0, 2, 3, 0]
    hi = [0, 1, 1, 1, 1, 1, 1]
    z = ZDD("abc", var, lo, hi, 5)
    assert z.branch_nodes == 2 and z.nodes == 4 and z.count() == 2
    assert as_sets(z) == {frozenset("a"), frozenset("b")}
    assert z == ZDD("abc", var, lo, hi, 4) != ZDD("abc", var, lo, hi, 6)


def test_finish_keeps_only_what_the_root_reaches():
    b = ZDD.builder("abc")
    a = b.make(0, 0, 1)
    c = b.make(2, 0, 1)
    both = b.make(1, a, 1)
    z = b.finish(both)
    assert b.made == 3 and z.branch_nodes == 2 and as_sets(z) == {frozenset("a"),
                                                                  frozenset("b")}
    assert b.finish(c).branch_nodes == 1 and b.finish(1).nodes == 1
    assert list(b.finish(0)) == [] and list(b.finish(1)) == [()]


@pytest.mark.parametrize("var, lo, hi, message", [
    (3, 0, 1, "option index 3 out of range"),
    (-1, 0, 1, "option index -1 out of range"),
    (0, 2, 1, "lo 2 is not a node made before"),
    (0, 0, 2, "hi 2 is not a node made before"),
    (0, -1, 1, "lo -1"),
])
def test_make_refuses_nodes_it_cannot_place(var, lo, hi, message):
    b = ZDD.builder("abc")
    with pytest.raises(ExactCoverError, match=message):
        b.make(var, lo, hi)
    assert b.made == 0


def test_bad_roots_labels_and_arrays_are_refused():
    b = ZDD.builder("ab")
    for root in (2, -1, True, "1"):
        with pytest.raises(ExactCoverError, match="root"):
            b.finish(root)
    with pytest.raises(ExactCoverError, match="appears twice"):
        ZDD.builder(["a", "b", "a"])
    with pytest.raises(ExactCoverError, match="not hashable"):
        ZDD.builder([["a"]])
    with pytest.raises(ExactCoverError, match="node 3: hi 3"):
        ZDD("ab", [-1, -1, 0, 1], [0, 1, 0, 0], [0, 1, 1, 3], 3)
    with pytest.raises(ExactCoverError, match="node 2: hi is 0"):
        ZDD("ab", [-1, -1, 0], [0, 1, 1], [0, 1, 0], 2)
    with pytest.raises(ExactCoverError, match="same length"):
        ZDD("ab", [-1, -1, 0], [0, 1], [0, 1, 1], 2)
    with pytest.raises(ExactCoverError, match="root"):
        ZDD("ab", [-1, -1], [0, 1], [0, 1], 2)


def test_from_solutions_refuses_unknown_and_repeated_labels():
    with pytest.raises(ExactCoverError, match="solution 1 names 'z', which is not a label"):
        ZDD.from_solutions("abc", ["ab", "az"])
    with pytest.raises(ExactCoverError, match="solution 0 names an option twice"):
        ZDD.from_solutions("abc", [["a", "b", "a"]])
    with pytest.raises(ExactCoverError, match="not a label"):
        ZDD.from_solutions("abc", [[["a"]]])


# --- sinks, nodes, the object protocol ------------------------------------------------

def test_the_sinks_alone():
    empty, unit = ZDD.from_solutions("ab", []), ZDD.from_solutions("ab", [()])
    assert (empty.root, empty.count(), list(empty), empty.nodes) == (0, 0, [], 1)
    assert (unit.root, unit.count(), list(unit), unit.nodes) == (1, 1, [()], 1)
    assert empty.sample(0) == [] and unit.sample(2, seed=0) == [(), ()]
    with pytest.raises(ExactCoverError, match="no solution to sample"):
        empty.sample(1)
    assert round_trip(empty) == empty and round_trip(unit) == unit
    assert '0 [shape=box' in empty.to_dot() and '1 [shape=box' not in empty.to_dot()
    assert '1 [shape=box' in unit.to_dot() and '0 [shape=box' not in unit.to_dot()


def test_nodes_count_the_sinks_the_root_reaches():
    with_bottom = ZDD.from_solutions("ab", ["a", "b"])         # b -lo-> a -lo-> ⊥
    assert with_bottom.branch_nodes == 2 and with_bottom.nodes == 4
    no_bottom = ZDD.from_solutions("a", ["", "a"])             # a -lo-> ⊤, -hi-> ⊤
    assert no_bottom.branch_nodes == 1 and no_bottom.nodes == 2
    assert "label=\"⊥\"" not in no_bottom.to_dot()


def test_repr_equality_hash_pickle_and_relabel():
    z = ZDD.from_solutions("abcd", ["ab", "cd", "ac", "d"])
    assert repr(z) == "<dlx.ZDD: 4 solutions, 8 nodes over 4 options>"
    assert repr(ZDD.from_solutions("a", ["a"])) == "<dlx.ZDD: 1 solution, 3 nodes over 1 options>"
    same = ZDD.from_solutions("abcd", ["dc", "d", "ba", "ca"])
    assert z == same and hash(z) == hash(same) and {z: 1}[same] == 1
    assert z != ZDD.from_solutions("abcd", ["ab"]) and z != "abcd"
    assert z.count() == 4 and pickle.loads(pickle.dumps(z)) == z      # after caching
    upper = z.relabel("ABCD")
    assert list(upper) == [tuple(s.upper() for s in t) for t in z]
    with pytest.raises(ExactCoverError, match="4 labels"):
        z.relabel("ABC")
    assert dlx.ZDD is ZDD and "ZDD" in dlx.__all__


def test_node_gives_branch_nodes_only():
    z = ZDD.from_solutions("ab", ["a"])
    assert z.node(2) == (0, 0, 1)
    for k in (0, 1, 3, True):
        with pytest.raises(ExactCoverError, match="no branch node"):
            z.node(k)


# --- deep and huge diagrams -------------------------------------------------------------

@pytest.mark.slow
def test_a_chain_of_50000_levels_has_no_recursion_limit():
    n = 50_000
    assert n > sys.getrecursionlimit()
    b = ZDD.builder(range(n))
    deep = 1
    for k in reversed(range(n)):
        deep = b.make(k, 0, deep)                   # one solution of n options
    long = 0
    for k in range(n):
        long = b.make(k, long, 1)                   # n solutions of one option
    z = b.finish(deep)
    assert z.count() == 1 and list(z) == [tuple(range(n))] and z.nodes == n + 2
    assert z.sample(2, seed=3) == [tuple(range(n))] * 2 and z.solution(0) == tuple(range(n))
    w = b.finish(long)
    assert w.count() == n and list(w) == [(k,) for k in range(n)]
    assert w.solution(n - 1) == (n - 1,)
    assert round_trip(z) == z and round_trip(w) == w
    assert pickle.loads(pickle.dumps(w)) == w
    assert ZDD.from_solutions(range(n), [range(n)]) == z
    assert len(z.to_dot().splitlines()) == 3 * n + 5


def test_sampling_10_to_the_30_solutions_with_exact_ints():
    labels = [(p, d) for p in range(30) for d in range(10)]
    b = ZDD.builder(labels)
    z = b.finish(digits(b, 30))
    total = z.count()
    assert total == 10**30 > sys.maxsize and type(total) is int
    # solution k spells k in decimal: lo before hi puts digit 0 first
    k = 123456789012345678901234567890
    assert z.solution(k) == tuple((p, int(c)) for p, c in enumerate(str(k)))
    assert z.solution(total - 1) == tuple((p, 9) for p in range(30))
    draws = z.sample(200, seed=30)
    assert draws == z.sample(200, seed=30) and len(set(draws)) == 200
    assert all([p for p, _ in s] == list(range(30)) for s in draws)
    # the first digit of a uniform 30-digit number is uniform too
    firsts = [s[0][1] for s in z.sample(2000, seed=31)]
    assert all(150 <= firsts.count(d) <= 250 for d in range(10))
    with pytest.raises(ExactCoverError, match="no solution number"):
        z.solution(total)


def test_sample_is_uniform():
    """12 solutions of very different weights in the diagram (a chain of 6 below option
    0, of 4 below option 1, ...): 12,000 draws, chi-square with 11 degrees of freedom
    against 45 (p < 1e-5 for a uniform sampler; the seed is fixed, so this is
    deterministic).  A sampler flipping a fair coin at each node would score thousands."""
    solutions = ([(0, k) for k in range(2, 8)] + [(1, k) for k in range(2, 6)]
                 + [(7,), ()])
    z = ZDD.from_solutions(range(8), solutions)
    assert z.count() == 12
    draws = z.sample(12_000, seed=2024)
    counts = {s: draws.count(s) for s in z}
    assert sum(counts.values()) == 12_000
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 45, counts
    z6, _ = dlx6(read_dlx((KNUTH / "rand-colour-6.dlx").read_text()))
    draws = z6.sample(9_000, seed=7)
    chi2 = sum((draws.count(s) - 1000) ** 2 / 1000 for s in z6)
    assert chi2 < 40                                 # 8 degrees of freedom


def test_sample_checks_its_arguments_and_repeats_with_a_seed():
    z = ZDD.from_solutions("abc", ["a", "b", "c"])
    assert z.sample(20, seed=5) == z.sample(20, seed=5)
    assert len(z.sample(3)) == 3
    for n in (-1, 1.5, True, "2"):
        with pytest.raises(ExactCoverError, match="n must be"):
            z.sample(n)
    for seed in ("x", 1.5, True):
        with pytest.raises(ExactCoverError, match="seed must be"):
            z.sample(1, seed=seed)
    for k in (-1, 3, 1.0, True):
        with pytest.raises(ExactCoverError, match="no solution number"):
            z.solution(k)


# --- pictures ---------------------------------------------------------------------------

def test_to_dot_escapes_labels():
    z = ZDD.from_solutions(['a "b"', "back\\slash", "new\nline"],
                           [['a "b"'], ["back\\slash", "new\nline"]])
    dot = z.to_dot()
    assert "label=\"'a \\\"b\\\"'\"" in dot
    assert "label=\"'back\\\\\\\\slash'\"" in dot
    assert "label=\"'new\\\\nline'\"" in dot
    assert "\n" not in dot.replace("\n  ", "").replace("\n}", "")    # one statement a line
    assert dot.count("->") == 2 * z.branch_nodes and dot.count("[style=dashed]") == 3


# --- files ------------------------------------------------------------------------------

class Cell(NamedTuple):
    row: int
    col: int


def test_write_read_round_trips_plain_labels(tmp_path):
    labels = ["a", 3, -2.5, None, True, ("t", (1, "x")), "é\n\t'\"", b"\x00by", 10**40]
    z = ZDD.from_solutions(labels, [labels[:3], labels[3:6], labels[6:], []])
    path = tmp_path / "z.zdd"
    z.write(path)
    assert path.read_text(encoding="ascii").startswith("dlx-zdd 2\nlabels 9\n'a'\n3\n")
    back = ZDD.read(path)
    assert back == z and back.labels == tuple(labels) and as_sets(back) == as_sets(z)
    assert type(back.labels[4]) is bool
    z.write(str(path))
    assert ZDD.read(str(path)) == z


@pytest.mark.parametrize("label", [Cell(1, 2), frozenset({1}), float("nan"), float("inf"),
                                   object(), (1, Cell(0, 0)), 10**5000],
                         ids=["namedtuple", "frozenset", "nan", "inf", "object", "nested",
                              "huge int"])
def test_write_refuses_labels_that_do_not_read_back(label):
    z = ZDD.from_solutions(["ok", label], [["ok", label]])
    out = io.StringIO()
    with pytest.raises(ExactCoverError, match="cannot be written"):
        z.write(out)
    assert out.getvalue() == ""                      # nothing written


def test_relabel_to_write_namedtuples():
    cells = [Cell(0, 0), Cell(0, 1)]
    z = ZDD.from_solutions(cells, [cells])
    back = round_trip(z.relabel(tuple(c) for c in cells)).relabel(cells)
    assert back == z and list(back) == [tuple(cells)]


def sealed(text: str) -> str:
    """``text`` as a ZDD file ends: with the line of the digest of its lines."""
    lines = text.splitlines()
    body = "".join(line + "\n" for line in lines)
    return body + f"end sha256 {hashlib.sha256(body.encode()).hexdigest()}\n"


GOOD = "dlx-zdd 2\nlabels 2\n'a'\n'b'\nbranches 2\n2 1 0 1\n3 0 0 2\nroot 3\n"


MALFORMED = [
    ("", 1, "ends where the header"),
    ("dlx-zdd\n", 1, "not a ZDD file"),
    ("zdd 2\n", 1, "not a ZDD file"),
    ("dlx-zdd 3\n", 1, "unsupported version 3"),
    ("dlx-zdd 02\n", 1, "not a ZDD file"),
    ("dlx-zdd 2\nlabel 2\n", 2, "expected 'labels <count>'"),
    ("dlx-zdd 2\nlabels -1\n", 2, "expected 'labels <count>'"),
    ("dlx-zdd 2\nlabels 2\n'a'\n", 4, "ends where a label"),
    ("dlx-zdd 2\nlabels 1\nfoo(\n", 3, "does not read"),
    ("dlx-zdd 2\nlabels 1\nopen('x')\n", 3, "does not read"),
    ("dlx-zdd 2\nlabels 1\n" + "(" * 500 + ")" * 500 + "\n", 3, "does not read"),
    ("dlx-zdd 2\nlabels 1\n[1]\n", 3, "not hashable"),
    ("dlx-zdd 2\nlabels 2\n'a'\n'a'\n", 4, "repeats line 3"),
    ("dlx-zdd 2\nlabels 2\n1\n1.0\n", 4, "repeats line 3"),
    ("dlx-zdd 2\nlabels 0\nbranch 0\n", 3, "expected 'branches <count>'"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n", 5, "ends where node 2"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n3 0 0 1\n", 5, "expected node 2"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 1 0 1\n", 5, "option index 1 out of range"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 2 1\n", 5, "lo 2 is not a node made before"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 0 2\n", 5, "hi 2 is not a node made before"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 1 0\n", 5, "not zero-suppressed"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 2\n2 0 0 1\n3 0 4 1\n", 6, "lo 4"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 0 x\n", 5, "expected a node"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 -0 1\n", 5, "expected a node"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2  0 0 1\n", 5, "expected a node"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 0 99999999999\n", 5, "expected a node"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 0 1\n", 6, "ends where 'root <id>'"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 0 1\nroot 3\n", 6, "id from 0 to 2"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 0 1\nroot\n", 6, "expected 'root <id>'"),
    ("dlx-zdd 2\nlabels 1\n'a'\nbranches 1\n2 0 0 1\n\nroot 2\n", 6, "expected 'root"),
    (GOOD + "\n", 9, "unexpected line after the root"),
    (GOOD + "root 3\n", 9, "unexpected line after the root"),
    # a path through node 3 (a) and its hi child 2 (a again): a solution naming a twice
    ("dlx-zdd 2\nlabels 2\n'a'\n'b'\nbranches 2\n2 0 0 1\n3 0 0 2\nroot 3\n", 7,
     "a path would name it twice"),
    ("dlx-zdd 2\nlabels 2\n'a'\n'b'\nbranches 3\n2 0 0 1\n3 1 2 1\n4 0 0 3\nroot 4\n",
     8, "node 4 names option 0"),
]


@pytest.mark.parametrize("text, line, message", MALFORMED,
                         ids=[f"{line}-{message}" for _, line, message in MALFORMED])
def test_malformed_files_name_the_line(text, line, message):
    """Files sealed with their digest (so the reader believes them) that are not what
    write writes: each refused, naming the line."""
    with pytest.raises(FormatError, match=message) as caught:
        ZDD.read(io.StringIO(sealed(text)))
    assert caught.value.line == line and str(caught.value).startswith(f"line {line}: ")


def test_a_line_longer_than_the_cap_of_a_stream():
    text = "dlx-zdd 2\nlabels 1\n'" + "x" * MAX_LINE_LENGTH + "'\n"
    with pytest.raises(FormatError, match="longer than") as caught:
        ZDD.read(io.StringIO(text))
    assert caught.value.line == 3


def test_good_files_read_with_windows_line_ends_and_no_final_line_feed():
    z = ZDD.read(io.StringIO(sealed(GOOD)))
    assert list(z) == [("a", "b")] and z.nodes == 4
    assert ZDD.read(io.StringIO(sealed(GOOD).replace("\n", "\r\n"))) == z
    assert ZDD.read(io.StringIO(sealed(GOOD)[:-1])) == z
    assert ZDD.read(io.StringIO(sealed("\ufeff" + GOOD))) == z          # a byte order mark


def test_files_not_written_by_write_are_shared_and_pruned():
    text = ("dlx-zdd 2\nlabels 2\n'a'\n'b'\nbranches 4\n"
            "2 0 0 1\n3 0 0 1\n4 1 2 3\n5 1 0 1\nroot 4\n")
    z = ZDD.read(io.StringIO(sealed(text)))     # 2 and 3 are one node; 5 is unreached
    assert z.branch_nodes == 2 and as_sets(z) == {frozenset("a"), frozenset("ab")}


def test_binary_and_undecodable_input(tmp_path):
    path = tmp_path / "bad.zdd"
    path.write_bytes(b"dlx-zdd 2\nlabels 1\n'\xff\xfe'\n")
    with pytest.raises(FormatError, match="not valid utf-8 text") as caught:
        ZDD.read(path)
    assert caught.value.line == 3
    with pytest.raises(TypeError, match="text stream"):
        ZDD.read(io.BytesIO(GOOD.encode()))


# ------------------------------------------------- files that last (changed, cut, kinds)


def eight(tmp_path) -> tuple[ZDD, Path]:
    """The diagram of the 8 solutions of a small problem, written to a file."""
    labels = [(r, c) for r in range(3) for c in range(2)]
    sols = [[(0, a), (1, b), (2, c)] for a in range(2) for b in range(2) for c in range(2)]
    z = ZDD.from_solutions(labels, sols)
    assert z.count() == 8
    path = tmp_path / "eight.zdd"
    z.write(path)
    return z, path


def test_a_file_cut_short_is_refused_never_read_as_a_smaller_diagram(tmp_path):
    """The last two bytes cut ('root 7' for 'root 75' in version 1, a count of 1 for
    8); now every cut, of one byte or of whole lines, is refused."""
    z, path = eight(tmp_path)
    data = path.read_bytes()
    assert ZDD.read(path) == z
    path.write_bytes(data[:-1])                 # only the last line feed: all is there
    assert ZDD.read(path) == z
    for cut in (2, 3, 40, 70, 71, 72, len(data) // 2, len(data) - 1):
        path.write_bytes(data[:len(data) - cut])
        with pytest.raises(FormatError, match="changed or damaged") as caught:
            ZDD.read(path)
        assert str(path) in str(caught.value) and "\n" not in str(caught.value), cut


def test_a_file_changed_anywhere_is_refused(tmp_path):
    z, path = eight(tmp_path)
    data = path.read_bytes()
    body = data.index(b"\nend sha256 ")
    for at in range(0, len(data), 3):
        if data[at:at + 1] in (b"\n", b"\r"):
            continue
        changed = data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:]
        path.write_bytes(changed)
        with pytest.raises(FormatError, match="changed or damaged|version 1"):
            ZDD.read(path)
    # the digest checked first: a digit of a node changed is 'changed', not a bad node
    lines = data[:body].split(b"\n")
    node = lines[-2].split(b" ")                # the last node: 'id var lo hi'
    node[1] = b"99"                             # no such option
    lines[-2] = b" ".join(node)
    path.write_bytes(b"\n".join(lines) + data[body:])
    with pytest.raises(FormatError, match="changed or damaged"):
        ZDD.read(path)


def test_version_1_files_are_refused_by_name():
    old = "dlx-zdd 1\nlabels 1\n'a'\nbranches 1\n2 0 0 1\nroot 2\n"
    with pytest.raises(FormatError, match="version 1, written without a digest"):
        ZDD.read(io.StringIO(old))


def test_write_is_atomic_and_leaves_no_temporary_file(tmp_path):
    z, path = eight(tmp_path)
    before = path.read_bytes()
    big = ZDD.from_solutions(["a", "b"], [["a"], ["b"]])
    big.write(path)
    assert ZDD.read(path) == big and sorted(p.name for p in tmp_path.iterdir()) == ["eight.zdd"]
    path.write_bytes(before)
    bad = ZDD.from_solutions(["ok", Cell(0, 0)], [["ok"]])
    with pytest.raises(ExactCoverError, match="cannot be written"):
        bad.write(path)
    assert path.read_bytes() == before          # the old file, whole


def test_paths_of_the_wrong_kind_are_refused_at_once(tmp_path):
    """A FIFO (it used to block ZDD.read), a directory, a device, a missing folder, a
    link to /dev/zero: one-line errors, before anything is read or written."""
    import os

    from dlx.files import FileError

    z, _ = eight(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "zero"
    link.symlink_to("/dev/zero")
    for where in (fifo, tmp_path, Path("/dev/null"), link):
        with pytest.raises(FileError, match="not a regular file"):
            ZDD.read(where)
        with pytest.raises(FileError, match="not a regular file"):
            z.write(where)
    with pytest.raises(FileError, match="does not exist"):
        z.write(tmp_path / "nowhere" / "z.zdd")
    with pytest.raises(FileNotFoundError):
        ZDD.read(tmp_path / "missing.zdd")
    assert fifo.exists() and not (tmp_path / "nowhere").exists()


@pytest.mark.slow
@given(st.one_of(problems(), colored_problems()), st.data())
def test_dlx_zdd_is_the_same_diagram_on_both_engines(p, data):
    """dlx.zdd (counting by caching as DLX6 builds the diagram): the same nodes, root
    and Stats on both engines, the solutions of the search in its order, forced
    options first."""
    from dlx import engine as engines

    labels = [o for o in p.options if any(i in p.primary for i in p.item_names(o))]
    forced = data.draw(st.lists(st.sampled_from(labels), max_size=2, unique=True)) \
        if labels else []
    made = {}
    for engine in (("python", "c") if engines.available() else ("python",)):
        s = dlx.Stats()
        z = dlx.zdd(p, forced=forced, stats=s, engine=engine, max_nodes=BUDGET)
        made[engine] = (z, (s.nodes, s.updates, s.solutions, tuple(s.profile)))
        assert list(z) == list(dlx.solutions(p, forced=forced, max_nodes=BUDGET))
        assert z.count() == s.solutions
    assert len({repr(v[1]) for v in made.values()}) == 1
    assert len({v[0] for v in made.values()}) == 1
