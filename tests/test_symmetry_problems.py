"""Symmetry on the problems library: the published counts up to symmetry, the groups
nauty finds, and the hand-made reductions held equal to the automatic results."""

from __future__ import annotations

import pytest
from strategies import BUDGET

import dlx
from problems import catalog, langford, polyominoes, queens

BIG = 5_000_000         # (nodes: the generic 6 x 10 box counts by symmetry in about 910,000)

QUICK = [i.name for i in catalog.instances("small") + catalog.instances("medium")]


@pytest.mark.parametrize("name", [n for n in QUICK if catalog.get(n).orbits is not None])
def test_published_orbits(name):
    inst = catalog.get(name)
    assert dlx.count(inst.problem(), up_to_symmetry=True, max_nodes=10 * BUDGET) == inst.orbits


def test_queens_orbits_4_to_12():
    """OEIS A002562, as the issue's targets list them."""
    found = [dlx.count(queens.encode(n), up_to_symmetry=True, max_nodes=BUDGET)
             for n in range(4, 13)]
    assert found == [1, 2, 1, 6, 12, 46, 92, 341, 1787]


@pytest.mark.parametrize("name", QUICK)
def test_counting_by_symmetry_changes_no_count(name):
    inst = catalog.get(name)
    s = dlx.Stats()
    assert dlx.count(inst.problem(), symmetry=True, stats=s, max_nodes=10 * BUDGET) == \
        inst.expected
    assert sum(s.profile) == s.nodes


@pytest.mark.parametrize("name", [n for n in QUICK if n.endswith("-reduced")])
def test_hand_made_reductions_equal_the_automatic_ones(name):
    reduced = catalog.get(name)
    generic = catalog.get(name.removesuffix("-reduced"))
    assert dlx.count(generic.problem(), up_to_symmetry=True, max_nodes=10 * BUDGET) == \
        dlx.count(reduced.problem(), max_nodes=10 * BUDGET) == reduced.expected == generic.orbits
    if reduced.expected:        # the reduction leaves no symmetry behind
        assert dlx.symmetries(reduced.problem()).order == 1


@pytest.mark.parametrize("n, order", [(1, 1), (2, 8), (4, 8), (8, 8), (13, 8)])
def test_queens_group(n, order):
    assert dlx.symmetries(queens.encode(n)).order == order
    assert queens.symmetries(n).order == order


@pytest.mark.parametrize("n", [3, 4, 7, 8, 11])
def test_langford_group_is_the_mirror(n):
    g = dlx.symmetries(langford.encode(n))
    assert g.order == 2
    (mirror,) = g.generators
    assert all(mirror[p] == langford.Pair(p.k, 2 * n - p.k - 2 - p.j) for p in mirror)


@pytest.mark.parametrize("rows, cols", [(6, 10), (5, 12), (4, 15), (3, 20)])
def test_pentomino_boxes_have_four_symmetries(rows, cols):
    g = dlx.symmetries(polyominoes.encode(rows=rows, cols=cols))
    assert g.order == 4
    # the pieces are each their own orbit; the cells in orbits of 4 (or 2 on a middle line)
    pieces = [o for o in g.item_orbits if o[0][0] == "piece"]
    assert len(pieces) == 12 and all(len(o) == 1 for o in pieces)


def test_langford_reduce():
    for n in (3, 4, 7, 8):
        assert langford.count(n, reduce=True) == langford.COUNTS[n] // 2
        seqs = list(langford.solutions(n, reduce=True))
        assert all(langford.is_solution(s) for s in seqs)
        # one of each mirror-image pair
        assert {s for s in seqs} | {s[::-1] for s in seqs} == set(langford.solutions(n))


def test_fundamental_queens_solutions():
    p = queens.encode(8)
    reps = list(dlx.solutions(p, up_to_symmetry=True, max_nodes=BUDGET))
    assert len(reps) == 12 and all(dlx.is_exact_cover(p, r) for r in reps)
    g = dlx.symmetries(p)
    orbits = [set(g.images(r)) for r in reps]
    assert all(a.isdisjoint(b) for k, a in enumerate(orbits) for b in orbits[k + 1:])
    assert sum(map(len, orbits)) == 92
    assert sorted(len(o) for o in orbits) == [4] + [8] * 11       # one symmetric family
    assert all(g.canonical(r) == r for r in reps)
    # the board's geometry given by hand: the same representatives
    assert list(dlx.solutions(p, up_to_symmetry=True, symmetry=queens.symmetries(8),
                              max_nodes=BUDGET)) == reps


def test_the_generic_3x20_box():
    p = polyominoes.encode(rows=3, cols=20)
    assert dlx.count(p, up_to_symmetry=True, max_nodes=BUDGET) == 2
    tilings = [polyominoes.decode(t)
               for t in dlx.solutions(p, up_to_symmetry=True, max_nodes=BUDGET)]
    assert len(tilings) == 2 and all(len(t) == 60 for t in tilings)


@pytest.mark.slow
@pytest.mark.parametrize("rows, cols, orbits", [(6, 10, 2339), (5, 12, 1010)])
def test_the_generic_pentomino_boxes(rows, cols, orbits):
    p = polyominoes.encode(rows=rows, cols=cols)
    assert dlx.count(p, up_to_symmetry=True, max_nodes=BIG) == orbits
    assert dlx.count(polyominoes.encode(rows=rows, cols=cols, reduce=True), max_nodes=BIG) == orbits


def test_queens_gallery_draws_every_board():
    reps = list(dlx.solutions(queens.encode(8), up_to_symmetry=True, max_nodes=BUDGET))
    fig = queens.gallery(8, reps, titles=[str(k) for k in range(12)])
    texts = [t for ax in fig.axes for t in ax.texts if t.get_gid() == "queen"]
    assert len(fig.axes) == 12 and len(texts) == 96
    assert queens.gallery(8, reps[:5], cols=4).axes[-1].axison is False  # 8 cells, 5 boards
    with pytest.raises(ValueError, match="2 titles for 5 boards"):
        queens.gallery(8, reps[:5], titles=["a", "b"])
