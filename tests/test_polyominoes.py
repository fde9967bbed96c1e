"""Polyomino tilings: pentomino counts, a brute-force tiler, symmetry reduction, checks."""

from __future__ import annotations

import random

import pytest
from strategies import BUDGET

import dlx
from problems import polyominoes as poly

MAPS = [lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
        lambda r, c: (r, -c), lambda r, c: (-c, -r), lambda r, c: (-r, c), lambda r, c: (c, r)]


def cells_of(picture: str) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(picture.split("/")) for c, ch in enumerate(row)
            if ch != "."]


def forms(cells) -> set[frozenset]:
    """Every rotation/reflection, each moved to touch (0, 0): written apart from the module."""
    out = set()
    for f in MAPS:
        moved = [f(r, c) for r, c in cells]
        r0, c0 = min(r for r, _ in moved), min(c for _, c in moved)
        out.add(frozenset((r - r0, c - c0) for r, c in moved))
    return out


def is_tiling(tiling: dict, board: set, pieces: dict) -> bool:
    """Independent check: the board is covered once, each piece used once in a legal form."""
    if set(tiling) != board:
        return False
    groups: dict[str, list] = {}
    for cell, name in tiling.items():
        groups.setdefault(name, []).append(cell)
    return set(groups) == set(pieces) and all(
        next(iter(forms(groups[name]))) in forms(cells_of(pic)) for name, pic in pieces.items())


def brute_count(board: set, pieces: dict) -> int:
    """Count tilings by filling the first empty square in every possible way."""
    shapes = {name: [sorted(f) for f in forms(cells_of(pic))] for name, pic in pieces.items()}

    def go(empty: set, left: frozenset) -> int:
        if not empty:
            return 0 if left else 1
        r, c = min(empty)
        total = 0
        for name in left:
            for form in shapes[name]:
                ar, ac = form[0]                    # the form's first square goes on (r, c)
                spot = {(r + fr - ar, c + fc - ac) for fr, fc in form}
                if spot <= empty:
                    total += go(empty - spot, left - {name})
        return total

    return go(set(board), frozenset(pieces))


def symmetry_order(board: set) -> int:
    count = 0
    for f in MAPS:
        moved = [f(r, c) for r, c in board]
        dr = min(r for r, _ in board) - min(r for r, _ in moved)
        dc = min(c for _, c in board) - min(c for _, c in moved)
        count += {(r + dr, c + dc) for r, c in moved} == board
    return count


def rect(width, height, holes=()):
    return {(r, c) for r in range(height) for c in range(width)} - set(holes)


def test_pentomino_orientations():
    got = {name: len(poly.orientations(pic)) for name, pic in poly.PENTOMINOES.items()}
    assert got == {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4,
                   "X": 1, "Y": 8, "Z": 4}
    assert sum(got.values()) == 63
    for name, pic in poly.PENTOMINOES.items():
        assert {frozenset(o) for o in poly.orientations(pic)} == forms(cells_of(pic)), name
        assert len(cells_of(pic)) == 5


def test_3x20_all_tilings_verified():
    problem = poly.encode(rows=20, cols=3)
    labels = list(dlx.solutions(problem, max_nodes=BUDGET))
    assert len(labels) == 8 and all(dlx.is_exact_cover(problem, s) for s in labels)
    tilings = [poly.decode(s) for s in labels]
    assert all(is_tiling(t, rect(3, 20), poly.PENTOMINOES) for t in tilings)
    reduced = list(poly.solutions(rows=20, cols=3, reduce=True, max_nodes=BUDGET))
    assert len(reduced) == 2 and all(is_tiling(t, rect(3, 20), poly.PENTOMINOES)
                                     for t in reduced)
    # the two kept tilings stand for different families, which together hold all 8
    flips = [lambda r, c: (r, c), lambda r, c: (19 - r, c), lambda r, c: (r, 2 - c),
             lambda r, c: (19 - r, 2 - c)]
    family = [{frozenset((f(*cell), name) for cell, name in t.items()) for f in flips}
              for t in reduced]
    assert not family[0] & family[1]
    assert family[0] | family[1] == {frozenset(t.items()) for t in tilings}


@pytest.mark.parametrize("width, height", [(6, 10), (5, 12), (4, 15), (3, 20), (10, 6)])
def test_first_tiling_of_each_box(width, height):
    tiling = poly.first(rows=height, cols=width, max_nodes=BUDGET)
    assert tiling is not None and is_tiling(tiling, rect(width, height), poly.PENTOMINOES)
    rows = str(tiling).splitlines()
    assert len(rows) == height and all(len(row) == width for row in rows)
    assert sorted("".join(rows)) == sorted("".join(c * 5 for c in "FILNPTUVWXYZ"))


def test_board_with_holes():
    holes = [(3, 3), (3, 4), (4, 3), (4, 4)]          # Dana Scott's 8 x 8 board, 1958
    board = rect(8, 8, holes)
    for reduce in (False, True):
        tiling = poly.first(rows=8, cols=8, holes=holes, reduce=reduce, max_nodes=BUDGET)
        assert tiling is not None and is_tiling(tiling, board, poly.PENTOMINOES)
        assert str(tiling).splitlines()[3][3:5] == ".."


def _core_active() -> bool:
    try:
        from dlx import engine
    except ImportError:
        return False
    return engine.active() == "c"


@pytest.mark.skipif(not _core_active(), reason="about 20 s on the pure engine: see bench")
def test_4x15_reduced_count_on_core():
    assert poly.count(rows=15, cols=4, reduce=True, max_nodes=2_000_000) == 368


POOL = {"A": "A", "B": "BB", "C": "CCC", "D": "DD/D.", "E": "EEEE", "G": "GG/GG",
        "H": "HHH/.H.", "J": ".JJ/JJ.", "K": "KKK/K..", "M": "MM/M./M."}


@pytest.mark.parametrize("seed", range(80))
def test_small_random_tilings_match_brute_force(seed):
    rng = random.Random(seed)
    names = rng.sample(sorted(POOL), rng.randint(1, 4))
    pieces = {n: POOL[n] for n in names}
    area = sum(len(cells_of(p)) for p in pieces.values())
    width = rng.choice([w for w in range(1, area + 1) if area % w == 0] + [area + 1])
    height = -(-area // width)
    spare = sorted(rect(width, height))
    holes = rng.sample(spare, width * height - area)   # holes make up any difference
    board = rect(width, height, holes)
    problem = poly.encode(rows=height, cols=width, pieces=pieces, holes=holes)
    labels = list(dlx.solutions(problem, max_nodes=BUDGET))
    assert all(dlx.is_exact_cover(problem, s) for s in labels)
    assert all(is_tiling(poly.decode(s), board, pieces) for s in labels)
    assert len(labels) == brute_count(board, pieces)
    try:
        reduced = poly.count(rows=height, cols=width, pieces=pieces, holes=holes, reduce=True,
                             max_nodes=BUDGET)
    except ValueError:
        return                                          # no piece can break the symmetry
    assert reduced * symmetry_order(board) == len(labels)


def test_tetrominoes_tile_no_rectangle():
    tetrominoes = {"I": "IIII", "O": "OO/OO", "T": "TTT/.T.", "S": ".SS/SS.", "L": "LLL/L.."}
    assert poly.count(rows=4, cols=5, pieces=tetrominoes, max_nodes=BUDGET) == 0
    assert poly.count(rows=2, cols=10, pieces=tetrominoes, max_nodes=BUDGET) == 0


def test_square_board_reduction_uses_all_eight_symmetries():
    pieces = {"L": "LLL/L..", "M": "MMM/M..", "O": "OO/OO", "I": "IIII"}   # two L's
    full = poly.count(rows=4, cols=4, pieces=pieces, max_nodes=BUDGET)
    assert full == brute_count(rect(4, 4), pieces) and full > 0
    assert poly.count(rows=4, cols=4, pieces=pieces, reduce=True, max_nodes=BUDGET) * 8 == full


def test_tiling_text_and_svg():
    t = poly.decode([poly.Placement("X", ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)))])
    assert str(t) == ".X.\nXXX\n.X."
    svg = t._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<rect") == 5 and svg.endswith("</svg>")
    assert str(poly.Tiling()) == ""


def test_sizes_are_rows_by_columns_and_the_old_order_is_deprecated():
    # issue 24: rows x columns everywhere (dlx dominoes 2x5, dlx pentominoes 3x20)
    new = poly.first(rows=3, cols=20)
    assert new is not None and len(str(new).splitlines()) == 3
    with pytest.warns(DeprecationWarning, match=r"write first\(rows=3, cols=20\)"):
        old = poly.first(20, 3)                    # (width, height): still works
    assert old == new
    with pytest.warns(DeprecationWarning, match="deprecated"):
        assert poly.count(width=20, height=3) == 8
    with pytest.raises(TypeError, match="both rows= and cols="):
        poly.encode(rows=3)
    with pytest.raises(TypeError, match="without width and height"):
        poly.encode(20, rows=3, cols=20)
    with pytest.raises(TypeError, match="needs the board's size"):
        poly.count()


def test_bad_input():
    with pytest.raises(ValueError, match="cols"):
        poly.encode(rows=5, cols=-1)
    with pytest.raises(ValueError, match="hole"):
        poly.encode(rows=3, cols=3, pieces={"A": "A"}, holes=[(5, 5)])
    with pytest.raises(ValueError, match="at least one square"):
        poly.encode(rows=3, cols=3, pieces={"A": "..."})
    with pytest.raises(ValueError, match="symmetry"):
        poly.encode(rows=2, cols=2, pieces={"O": "OO/OO"}, reduce=True)
    assert poly.shape("X./XX") == ((0, 0), (1, 0), (1, 1))


def gids(fig, gid: str) -> list:
    """The artists of a figure drawn with this gid (the figures tag what they draw)."""
    return [a for a in fig.findobj() if getattr(a, "get_gid", lambda: None)() == gid]


def test_figure():
    rows = ["FFLL", "FILL", "FIIN", "..NN"]
    fig = poly.figure(rows)
    assert sorted(t.get_text() for t in gids(fig, "piece-label")) == ["F", "I", "L", "N"]
    assert len(gids(fig, "cell")) == 14
    as_map = {(r, c): ch for r, line in enumerate(rows) for c, ch in enumerate(line) if ch != "."}
    pairs = [(p, [cell for cell, q in as_map.items() if q == p]) for p in "FILN"]
    for other in (as_map, pairs, dict(pairs), poly.Tiling(as_map)):
        assert sorted(t.get_text() for t in gids(poly.figure(other), "piece-label")) \
            == ["F", "I", "L", "N"]
    with pytest.raises(ValueError, match="no cells"):
        poly.figure({})
