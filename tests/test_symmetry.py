"""Symmetry: dlx.symmetries, count(symmetry=...), count/solutions(up_to_symmetry=True).

Small random problems are made symmetric by planting a symmetry (a permutation of
the items, and of the colours, under which the options are closed), and every answer
is held to brute force over the option subsets and over the group, computed here
without the library's group code: its elements by closing the generators, each
generator checked to be a symmetry by its own test, and the orbits of the solutions
as sets of images.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from oracles import brute_force
from strategies import BUDGET

import dlx
from dlx import orbits, perms
from dlx.options import Options

ENGINES = ["python", "c"]


# ---------------------------------------------------------------- the oracle


def is_symmetry(p: dlx.ExactCover, sigma: dict[Hashable, Hashable]) -> bool:
    """Is the option map ``sigma`` a symmetry of ``p``?  (Some item map must take each
    item's options, grouped by colour, to another item's of the same kind.)"""
    if sorted(map(repr, sigma.values())) != sorted(map(repr, p.options)):
        return False
    if any(p.cost(label) != p.cost(sigma[label]) for label in p.options):
        return False

    def looks(item: Hashable, image: dict[Hashable, Hashable] | None) -> tuple:  # canonical
        groups: dict[Hashable, set[Hashable]] = {}
        for label, entries in p.options.items():
            for e in entries:
                name = e.item if isinstance(e, dlx.Colored) else e
                if name == item:
                    colour = ("colour", e.color) if isinstance(e, dlx.Colored) else ("none",)
                    key = colour if colour[0] == "colour" else ("none", label)
                    groups.setdefault(key, set()).add(label if image is None else image[label])
        kind = ("p", p.bound(item)) if item in p.primary else ("s",)
        return kind, sorted(sorted(map(repr, g)) for g in groups.values())

    before = sorted(map(repr, (looks(x, None) for x in p.items)))
    after = sorted(map(repr, (looks(x, sigma) for x in p.items)))
    return before == after


def group_of(p: dlx.ExactCover, gens: list[dict[Hashable, Hashable]]
             ) -> list[dict[Hashable, Hashable]]:
    """Every element of the group the option maps ``gens`` make (a closure here)."""
    labels = list(p.options)
    start = tuple(labels)
    seen = {start}
    todo = [start]
    while todo:
        g = dict(zip(labels, todo.pop(), strict=True))
        for s in gens:
            h = tuple(s[g[label]] for label in labels)
            if h not in seen:
                seen.add(h)
                todo.append(h)
    return [dict(zip(labels, h, strict=True)) for h in seen]


def orbit_classes(solutions: set[frozenset], group: list[dict]) -> set[frozenset]:
    """The orbits of the solutions under the group, each as a frozenset of solutions."""
    return {frozenset(frozenset(g[o] for o in sol) for g in group) for sol in solutions}


def least(p: dlx.ExactCover, orbit: frozenset) -> tuple[Hashable, ...]:
    """An orbit's least member: options by their positions, sorted, compared as tuples."""
    where = {label: k for k, label in enumerate(p.options)}
    best = min(tuple(sorted(where[o] for o in sol)) for sol in orbit)
    labels = list(p.options)
    return tuple(labels[k] for k in best)


# ----------------------------------------------------------- the strategies


@st.composite
def symmetric_problems(draw, bounds: bool = False, costs: bool = False) -> dlx.ExactCover:
    """A small random problem closed under a planted symmetry: a permutation of the
    primary items, one of the secondary items, and perhaps the colours R and G swapped."""
    n_prim, n_sec = draw(st.integers(1, 6)), draw(st.integers(0, 3))
    prim = [f"p{k}" for k in range(n_prim)]
    sec = [f"s{k}" for k in range(n_sec)]
    move = dict(zip(prim, draw(st.permutations(prim)), strict=True))
    move.update(zip(sec, draw(st.permutations(sec)), strict=True))
    swap = {"R": "G", "G": "R"} if draw(st.booleans()) else {"R": "R", "G": "G"}

    def image(entry: Hashable) -> Hashable:
        if isinstance(entry, dlx.Colored):
            return dlx.Colored(move[entry.item], swap[entry.color])
        return move[entry]

    options: dict[Hashable, list[Hashable]] = {}
    cost: dict[Hashable, int] = {}
    for b in range(draw(st.integers(1, 4))):
        items: list[Hashable] = draw(st.lists(st.sampled_from(prim), unique=True, min_size=1,
                                              max_size=3))
        for s in draw(st.lists(st.sampled_from(sec), unique=True, max_size=2)) if sec else []:
            items.append(dlx.Colored(s, draw(st.sampled_from("RG")))
                         if draw(st.booleans()) else s)
        price = draw(st.integers(0, 1)) if costs else 0
        k, seen = 0, set()
        while frozenset(items) not in seen and len(options) < 10:
            seen.add(frozenset(items))
            options[(b, k)] = items
            cost[(b, k)] = price
            items = [image(e) for e in items]
            k += 1
    limits = {}
    if bounds:
        for cycle in perms.orbits([tuple(prim.index(move[x]) for x in prim)], n_prim):
            u = draw(st.integers(0, 2))
            for k in cycle:
                limits[prim[k]] = (u, max(1, u + draw(st.integers(0, 1))))
    return dlx.ExactCover(options, secondary=sec, primary=prim, bounds=limits, costs=cost)


# ------------------------------------------------------------------ the tests


def check_against_brute_force(p: dlx.ExactCover, engine: str) -> None:
    sym = dlx.symmetries(p)
    assume(sym.order <= 2000)           # (duplicated options: a large group, listed here)
    gens = sym.generators
    assert all(is_symmetry(p, g) for g in gens)
    group = group_of(p, gens)
    assert sym.order == len(group) == len(list(sym.elements()))
    sols = brute_force(p)
    classes = orbit_classes(sols, group)
    run = {"engine": engine, "max_nodes": BUDGET}
    s = dlx.Stats()
    assert dlx.count(p, symmetry=True, stats=s, **run) == len(sols)
    assert sum(s.profile) == s.nodes
    assert dlx.count(p, up_to_symmetry=True, **run) == len(classes)
    assert dlx.count(p, up_to_symmetry=True, symmetry=sym, **run) == len(classes)
    listed = list(dlx.solutions(p, up_to_symmetry=True, **run))
    assert all(dlx.is_exact_cover(p, sol) for sol in listed)
    assert sorted(map(repr, listed)) == sorted(repr(least(p, c)) for c in classes)
    # the other way of counting orbits, and the other choice above the search
    via = orbits._orbits_by_listing(p, sym, Options(**run), sym.indexed_elements(), None)
    assert via == len(classes)
    assert orbits.count_by_symmetry(p, sym, Options(**run), rule="item") == len(sols)


@given(symmetric_problems(), st.sampled_from(ENGINES))
def test_counts_and_orbits_match_brute_force(p, engine):
    check_against_brute_force(p, engine)


@given(symmetric_problems(bounds=True, costs=True), st.sampled_from(ENGINES))
def test_with_bounds_and_costs(p, engine):
    check_against_brute_force(p, engine)


@given(symmetric_problems(bounds=True), st.sampled_from(ENGINES))
def test_with_tiny_caps_above_the_search(p, engine):
    """Where an orbit has more ways of being covered than a level may list, counting
    takes the chosen item alone, and listing stops there: still exact, and still one
    solution per orbit."""
    from dlx import augment

    saved = augment.MAX_EXTENSIONS, augment.MIN_BELOW
    augment.MAX_EXTENSIONS, augment.MIN_BELOW = 1, 1
    try:
        check_against_brute_force(p, engine)
    finally:
        augment.MAX_EXTENSIONS, augment.MIN_BELOW = saved


@pytest.mark.parametrize("n", [11, 13])
def test_one_per_orbit_where_the_orbit_is_too_wide(n):
    """Queens 11 and 13: below the centre queen the middle lines' orbit has more ways
    than a level below the first lists; listing must not take the item alone there
    (two roots would then hold images of one solution)."""
    from problems import queens as encoded

    reps = list(dlx.solutions(encoded.encode(n), up_to_symmetry=True, max_nodes=BUDGET))
    assert len(reps) == len(set(reps)) == encoded.ORBITS[n]


def test_tiny_caps_on_the_board():
    """With a level allowed a single way of covering, every level takes the item alone
    when counting, and listing stops at once: the answers stay."""
    from dlx import augment
    from problems import queens as encoded

    saved = augment.MAX_EXTENSIONS, augment.MIN_BELOW
    augment.MAX_EXTENSIONS, augment.MIN_BELOW = 1, 1
    try:
        for n in range(5, 10):
            p = encoded.encode(n)
            reps = list(dlx.solutions(p, up_to_symmetry=True, max_nodes=BUDGET))
            assert len(set(reps)) == len(reps) == encoded.ORBITS[n]
            assert dlx.count(p, symmetry=True, max_nodes=BUDGET) == encoded.COUNTS[n]
            assert dlx.count(p, up_to_symmetry=True, max_nodes=BUDGET) == encoded.ORBITS[n]
    finally:
        augment.MAX_EXTENSIONS, augment.MIN_BELOW = saved


@given(symmetric_problems())
def test_the_whole_group_is_found(p):
    """Every option permutation that is a symmetry (tried one by one) is in the group."""
    labels = list(p.options)
    if len(labels) > 6:
        return
    every = sum(1 for image in itertools.permutations(labels)
                if is_symmetry(p, dict(zip(labels, image, strict=True))))
    assert dlx.symmetries(p).order == every


@given(symmetric_problems(bounds=True), st.data())
def test_below_forced_options(p, data):
    """With forced options, the group is the one that keeps them, and the counts are
    those of the solutions that hold them."""
    sols = brute_force(p)
    if not sols:
        return
    sol = data.draw(st.sampled_from(sorted(sols, key=repr)))
    forced = data.draw(st.lists(st.sampled_from(sorted(sol, key=repr)), unique=True,
                                max_size=2)) if sol else []
    below = {s for s in sols if set(forced) <= s}
    sym = dlx.symmetries(p)
    assume(sym.order <= 2000)
    keeps = [g for g in group_of(p, sym.generators) if {g[o] for o in forced} == set(forced)]
    assert dlx.count(p, symmetry=True, forced=forced, max_nodes=BUDGET) == len(below)
    assert dlx.count(p, up_to_symmetry=True, forced=forced, max_nodes=BUDGET) == \
        len(orbit_classes(below, keeps))
    listed = list(dlx.solutions(p, up_to_symmetry=True, forced=forced, max_nodes=BUDGET))
    assert sorted(map(repr, listed)) == sorted(repr(least(p, c))
                                               for c in orbit_classes(below, keeps))


@given(symmetric_problems())
def test_the_generators_found_are_accepted_back(p):
    sym = dlx.symmetries(p)
    assume(sym.order <= 2000)
    again = dlx.symmetries(p, generators=sym.generators)
    assert again.order == sym.order
    assert again.option_orbits == sym.option_orbits


# ------------------------------------------------- fixed instances, pinned


def queens(n: int) -> dlx.ExactCover:
    return dlx.ExactCover(
        {(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
         for r in range(n) for c in range(n)},
        secondary=[("up", k) for k in range(2 * n - 1)] + [("down", k)
                                                          for k in range(1 - n, n)])


@pytest.mark.parametrize("engine", ENGINES)
def test_queens_both_engines_pinned(engine):
    p = queens(8)
    s = dlx.Stats()
    assert dlx.count(p, symmetry=True, stats=s, engine=engine, max_nodes=BUDGET) == 92
    assert (s.nodes, s.solutions, s.symmetry_saved) == (249, 12, 808)
    assert sum(s.profile) == s.nodes
    assert dlx.count(p, up_to_symmetry=True, engine=engine, max_nodes=BUDGET) == 12
    assert len(list(dlx.solutions(p, up_to_symmetry=True, engine=engine, max_nodes=BUDGET))) == 12


def test_both_engines_give_the_same_statistics():
    p = queens(9)
    a, b = dlx.Stats(), dlx.Stats()
    assert dlx.count(p, symmetry=True, stats=a, engine="python", max_nodes=BUDGET) == \
        dlx.count(p, symmetry=True, stats=b, engine="c", max_nodes=BUDGET) == 352
    assert a == b


def test_symmetric_solutions_count_once():
    """Queens 6 has 4 solutions, each its own image under a half turn: one orbit of 4,
    not 4 / 8."""
    p = queens(6)
    assert dlx.count(p, max_nodes=BUDGET) == 4
    assert dlx.count(p, up_to_symmetry=True, max_nodes=BUDGET) == 1
    (one,) = dlx.solutions(p, up_to_symmetry=True, max_nodes=BUDGET)
    sym = dlx.symmetries(p)
    assert sym.stabilizer_order(one) == 2 and len(sym.images(one)) == 4
    assert sym.canonical(one) == one == sym.images(one)[0]


def test_the_group_of_the_board():
    sym = dlx.symmetries(queens(5))
    assert sym.order == 8 and not sym.is_trivial
    assert len(sym.option_orbits) == 6                   # 25 squares in 6 orbits
    assert sorted(map(len, sym.item_orbits)) == [2, 2, 4, 4, 4, 4, 4, 4]
    turn = dlx.symmetries(queens(5), generators=[lambda rc: (rc[1], 4 - rc[0])])
    assert turn.order == 4
    assert turn.apply(turn.generators[0], [(0, 1), (2, 2)]) == ((1, 4), (2, 2))
    assert repr(sym).startswith("Symmetries(order 8, ")


def test_trivial_group():
    toy = dlx.ExactCover({"o1": ["c", "e"], "o2": ["a", "d", "g"], "o3": ["b", "c", "f"],
                          "o4": ["a", "d", "f"], "o5": ["b", "g"], "o6": ["d", "e", "g"]})
    sym = dlx.symmetries(toy)
    assert sym.is_trivial and sym.order == 1 and sym.generators == []
    s = dlx.Stats()
    assert dlx.count(toy, symmetry=True, stats=s, max_nodes=BUDGET) == 1 and s.symmetry_saved == 0
    assert dlx.count(toy, up_to_symmetry=True, max_nodes=BUDGET) == 1
    assert list(dlx.solutions(toy, up_to_symmetry=True, max_nodes=BUDGET)) == [("o1", "o4", "o5")]


def test_colours_may_be_renamed_but_must_agree():
    p = dlx.ExactCover({"x": ["a", dlx.Colored("s", "R")], "y": ["b", dlx.Colored("s", "G")],
                        "z": ["c", dlx.Colored("s", "R")]}, secondary=["s"])
    sym = dlx.symmetries(p)
    assert sym.order == 2                       # x <-> z; y keeps its own colour class
    assert dlx.count(p, up_to_symmetry=True, max_nodes=BUDGET) == 0
    q = dlx.ExactCover({"x": ["a", dlx.Colored("s", "R")], "y": ["b", dlx.Colored("s", "G")]},
                       secondary=["s"])
    # a <-> b with the colours renamed: a symmetry
    assert dlx.symmetries(q, generators=[{"x": "y", "y": "x"}]).order == 2


@pytest.mark.parametrize("gen, says", [
    ({"x": "nope"}, "maps option 'x' to 'nope', which is not an option"),
    ({"x": "y", "y": "y"}, "maps options 'x' and 'y' both to 'y'"),
    ({"x": "z", "z": "x"}, "is not a symmetry: it maps option 'x' (cost 1) to 'z' (cost 0)"),
    ({"y": "w", "w": "y"}, "is not a symmetry: item 'a' is held by ('x', 'z', 'w')"),
    (lambda label: 1 / 0, "generator 1 failed on option 'x'"),
    (3, "must be a mapping or a callable"),
])
def test_generators_are_checked(gen, says):
    p = dlx.ExactCover({"x": ["a"], "y": ["b"], "z": ["a", "b"], "w": ["a"]},
                       costs={"x": 1, "y": 1, "w": 1})
    with pytest.raises(dlx.ExactCoverError, match=says.replace("(", r"\(").replace(")", r"\)")):
        dlx.symmetries(p, generators=[gen])


def test_bounds_are_kept():
    p = dlx.ExactCover({"x": ["a"], "y": ["b"]}, bounds={"a": (0, 1)})
    assert dlx.symmetries(p).order == 1
    with pytest.raises(dlx.ExactCoverError, match="not a symmetry"):
        dlx.symmetries(p, generators=[{"x": "y", "y": "x"}])


def test_views_refuse_what_does_not_fit(tmp_path):
    p = queens(5)
    other = dlx.symmetries(queens(6))
    with pytest.raises(dlx.ExactCoverError, match="another problem"):
        dlx.count(p, symmetry=other, max_nodes=BUDGET)
    with pytest.raises(dlx.ExactCoverError, match="must be True, False or a dlx.Symmetries"):
        dlx.count(p, symmetry="yes", max_nodes=BUDGET)
    with pytest.raises(dlx.ExactCoverError, match="up_to_symmetry=True"):
        dlx.solutions(p, symmetry=True, max_nodes=BUDGET)
    with pytest.raises(dlx.ExactCoverError, match="checkpoint"):
        dlx.count(p, symmetry=True, checkpoint=tmp_path / "c", max_nodes=BUDGET)
    with pytest.raises(dlx.ExactCoverError, match="one process"):
        dlx.solutions(p, up_to_symmetry=True, executor=ThreadPoolExecutor(1), max_nodes=BUDGET)
    with pytest.raises(dlx.ExactCoverError, match="forced option"):
        dlx.count(p, symmetry=True, forced=[(9, 9)], max_nodes=BUDGET)


def test_a_group_too_large_to_list():
    same = dlx.ExactCover({k: ["a"] for k in range(8)})
    sym = dlx.symmetries(same)
    assert sym.order == 40320 and sym.option_orbits == [tuple(range(8))]
    assert dlx.count(same, max_nodes=BUDGET) == 8
    with pytest.raises(dlx.ExactCoverError, match="40,320 elements"):
        dlx.count(same, up_to_symmetry=True, max_nodes=BUDGET)
    # counting by symmetry takes a subgroup small enough to list
    s = dlx.Stats()
    assert dlx.count(same, symmetry=True, stats=s, max_nodes=BUDGET) == 8 and s.symmetry_saved > 0
    assert 1 < len(sym.listed_subgroup()) <= dlx.symmetry.MAX_ELEMENTS


def test_without_nauty(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "pynauty", None)
    with pytest.raises(dlx.ExactCoverError, match=r"pip install 'dancing-links-dlx\[symmetry\]'"):
        dlx.symmetries(queens(4))
    # given generators need no nauty
    assert dlx.symmetries(queens(4), generators=[lambda rc: (rc[1], rc[0])]).order == 2


def test_limits_and_budgets():
    p = queens(8)
    assert dlx.count(p, symmetry=True, limit=50, max_nodes=BUDGET) == 50
    assert dlx.count(p, up_to_symmetry=True, limit=5, max_nodes=BUDGET) == 5
    assert len(list(dlx.solutions(p, up_to_symmetry=True, limit=5, max_nodes=BUDGET))) == 5
    with pytest.raises(dlx.BudgetExceeded) as e:
        dlx.count(p, symmetry=True, max_nodes=100)
    assert e.value.frontier is None and 0 <= e.value.found <= 92
    assert e.value.stats.nodes <= 100
    with pytest.raises(dlx.BudgetExceeded) as e:
        list(dlx.solutions(p, up_to_symmetry=True, max_nodes=100))
    assert isinstance(e.value.found, list) and len(e.value.found) < 12
    with pytest.raises(dlx.BudgetExceeded):
        dlx.count(p, up_to_symmetry=True, max_nodes=100)


def test_seeds_heuristics_and_progress():
    p = queens(8)
    seen: list[dlx.Stats] = []
    assert dlx.count(p, symmetry=True, seed=3, max_nodes=BUDGET) == 92
    assert dlx.count(p, up_to_symmetry=True, seed=3, heuristic="first", max_nodes=BUDGET) == 12
    s = dlx.Stats()
    assert dlx.count(queens(11), symmetry=True, stats=s, progress=seen.append,
                     max_nodes=BUDGET) == 2680
    assert seen and all(0 <= r.explored <= 1 for r in seen)
    assert s.explored == 1.0


def test_parallel_count_is_the_serial_one():
    p = queens(9)
    serial, merged = dlx.Stats(), dlx.Stats()
    n = dlx.count(p, symmetry=True, stats=serial, max_nodes=BUDGET)
    with ThreadPoolExecutor(2) as ex:
        assert dlx.parallel.count is not None
        assert dlx.count(p, symmetry=True, stats=merged, executor=ex, max_nodes=BUDGET) == n == 352
        assert dlx.count(p, up_to_symmetry=True, executor=ex, max_nodes=BUDGET) == 46
        assert dlx.count(p, symmetry=True, executor=ex, limit=10, max_nodes=BUDGET) == 10
    assert merged == serial and merged.symmetry_saved == serial.symmetry_saved > 0


def test_parallel_pieces_cut_below_a_root_keep_its_weight():
    """Tiny task budgets: the workers cut the roots' subtrees into pieces, which are
    counted times their root's weight all the same."""
    from dlx.parallel import roots

    p = queens(8)
    sym = dlx.symmetries(p)
    found, above = orbits.roots(sym)
    labels = sym.incidence.labels
    weighted = [(tuple(labels[o] for o in r.options), r.weight) for r in found]
    s = dlx.Stats()
    with ThreadPoolExecutor(2) as ex:
        n, saved = roots.count(p, ex, Options(stats=s, max_nodes=BUDGET), weighted, above,
                                   piece_nodes=3)
    assert n == 92
    plain = dlx.Stats()
    dlx.count(p, symmetry=True, stats=plain, max_nodes=BUDGET)
    assert (s.nodes, saved) == (plain.nodes, plain.symmetry_saved)


@pytest.mark.slow
def test_on_a_process_pool():
    p = queens(10)
    with dlx.parallel.executor(jobs=2) as ex:
        assert dlx.count(p, symmetry=True, executor=ex, max_nodes=BUDGET) == 724
        assert dlx.count(p, up_to_symmetry=True, executor=ex, max_nodes=BUDGET) == 92


def test_roots_rules_and_what_they_gain():
    """The orbit of the chosen item gains about the group's order; the item alone gains
    only what its options have in common under the group (on queens, its pairs)."""
    p = queens(10)
    sym = dlx.symmetries(p)
    plain, item, orbit = dlx.Stats(), dlx.Stats(), dlx.Stats()
    dlx.count(p, stats=plain, max_nodes=BUDGET)
    assert orbits.count_by_symmetry(p, sym, Options(stats=item, max_nodes=BUDGET),
                                    rule="item") == 724
    assert orbits.count_by_symmetry(p, sym, Options(stats=orbit, max_nodes=BUDGET),
                                  rule="orbit") == 724
    assert orbit.nodes < item.nodes < plain.nodes
    assert orbit.nodes * 6 < plain.nodes
    with pytest.raises(dlx.ExactCoverError, match="unknown rule"):
        orbits.roots(sym, rule="best")


def test_quotient_problems():
    """The solutions fixed by a half turn of queens 6 are the exact covers of its quotient."""
    p = queens(6)
    sym = dlx.symmetries(p)
    labels = sym.incidence.labels
    half = next(sigma for sigma, _ in sym.indexed_elements()
                if labels[sigma[labels.index((0, 0))]] == (5, 5)
                and labels[sigma[labels.index((0, 5))]] == (5, 0))
    made = orbits.quotient(sym.incidence, half)
    assert made is not None
    q, forced = made
    every = [set(s) for s in dlx.solutions(p, max_nodes=BUDGET)]
    fixed = [s for s in every if {labels[half[labels.index(o)]] for o in s} == s]
    assert dlx.count(q, max_nodes=BUDGET) == len(fixed) == 4 and forced == ()


def test_group_order_of_large_groups():
    """Schreier-Sims: the order of a group too large to list."""
    n = 9
    gens = [tuple([1, 0] + list(range(2, n))), tuple(list(range(1, n)) + [0])]
    assert perms.order(gens, n) == 362880
    with pytest.raises(perms.TooLarge):
        perms.closure(gens, n, cap=1000)
