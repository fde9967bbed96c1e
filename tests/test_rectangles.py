"""Rectangle covers (ZOJ 3209): min_cover against brute force, the input reader, bad input."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from strategies import BUDGET

import dlx
from problems import rectangles
from problems.catalog import ZOJ_SAMPLE


def squares(rect):
    x1, y1, x2, y2 = rect
    return [(x, y) for x in range(x1, x2) for y in range(y1, y2)]


def exact(n, m, pieces, chosen) -> bool:
    """Independent check: the chosen rectangles cover every square of the board once."""
    cover = [sq for k in chosen for sq in squares(pieces[k])]
    return len(cover) == n * m and set(cover) == {(x, y) for x in range(n) for y in range(m)}


def brute(n, m, pieces):
    """All exact covers by trying every subset of the pieces."""
    return [list(c) for r in range(len(pieces) + 1)
            for c in itertools.combinations(range(len(pieces)), r) if exact(n, m, pieces, c)]


def random_case(seed):
    rng = random.Random(seed)
    n, m = rng.randint(1, 4), rng.randint(1, 4)
    pieces = rectangles.random_pieces(n, m, rng.randint(1, 9), covers=rng.randint(0, 2),
                                      seed=seed)
    return n, m, pieces


def test_zoj_sample():
    cases = list(rectangles.read_cases(io.StringIO(ZOJ_SAMPLE)))
    assert [(c.n, c.m, len(c.pieces), c.line) for c in cases] == [(5, 5, 1, 2), (5, 5, 2, 4),
                                                                  (30, 30, 5, 7)]
    answers = [rectangles.min_cover(c.n, c.m, c.pieces, max_nodes=BUDGET) for c in cases]
    assert answers == [[0], None, [3, 4]]
    assert [rectangles.count(c.n, c.m, c.pieces, max_nodes=BUDGET) for c in cases] == [1, 0, 2]


@pytest.mark.parametrize("seed", range(60))
def test_min_cover_matches_brute_force(seed):
    n, m, pieces = random_case(seed)
    every = brute(n, m, pieces)
    assert sorted(rectangles.solutions(n, m, pieces, max_nodes=BUDGET)) == sorted(every)
    assert rectangles.count_covers(n, m, pieces, max_nodes=BUDGET) == len(every)
    for bound in ("auto", "area", "generic"):
        got = rectangles.min_cover(n, m, pieces, bound=bound, max_nodes=BUDGET)
        if not every:
            assert got is None
        else:
            assert got is not None and exact(n, m, pieces, got) and got == sorted(got)
            assert len(got) == min(map(len, every))


def test_merge_changes_nothing_but_size():
    pieces = rectangles.random_pieces(6, 5, 25, covers=3, seed=5)
    merged, plain = (rectangles.encode(6, 5, pieces, merge=b) for b in (True, False))
    assert len(merged.primary) < len(plain.primary) == 30
    assert dlx.count(merged, max_nodes=BUDGET) == dlx.count(plain, max_nodes=BUDGET) > 0
    for sol in dlx.solutions(plain, max_nodes=BUDGET):
        assert dlx.is_exact_cover(plain, sol) and dlx.is_exact_cover(merged, sol)


@pytest.mark.slow
def test_30x30_with_500_pieces():
    pieces = rectangles.random_pieces(30, 30, 500, seed=3)
    assert len(pieces) == 500
    found = {}
    for bound in ("area", "generic"):
        stats = dlx.Stats()
        got = rectangles.min_cover(30, 30, pieces, bound=bound, stats=stats,
                                   max_nodes=BUDGET)
        assert got is not None and exact(30, 30, pieces, got)
        found[bound] = len(got)
    assert found["area"] == found["generic"]


def test_area_bound_is_admissible_and_prunes():
    # many covers: a 6 x 4 board cut into strips and squares of every size
    pieces = rectangles.random_pieces(6, 4, 60, covers=4, grain=2, seed=11)
    every = rectangles.count(6, 4, pieces, max_nodes=BUDGET)
    best = min(map(len, rectangles.solutions(6, 4, pieces, max_nodes=BUDGET)))
    for bound in ("area", "generic"):
        stats = dlx.Stats()
        got = rectangles.min_cover(6, 4, pieces, bound=bound, stats=stats, max_nodes=BUDGET)
        assert got is not None and len(got) == best and exact(6, 4, pieces, got)
        assert stats.nodes < every / 10      # branch and bound, not enumeration


def test_no_cover_and_empty_board():
    assert rectangles.min_cover(2, 2, [(0, 0, 1, 1), (1, 1, 2, 2)]) is None
    assert rectangles.min_cover(2, 2, []) is None
    assert rectangles.min_cover(0, 3, []) == []
    assert rectangles.count(0, 0, [], max_nodes=BUDGET) == 1


@pytest.mark.parametrize("n, m, pieces, message", [
    (5, 5, [(0, 0, 6, 5)], "piece 0 .* outside the 5 x 5 board"),
    (5, 5, [(0, 0, 1, 1), (-1, 0, 1, 1)], "piece 1 .* outside"),
    (5, 5, [(2, 0, 2, 5)], "piece 0 .* is empty"),
    (5, 5, [(3, 0, 1, 5)], "is empty"),
    (5, 5, [(0, 0, 1)], "four whole numbers"),
    (5, 5, [(0, 0, 1, 1.5)], "four whole numbers"),
    (-1, 5, [], "board size n"),
    (5, -2, [], "board size m"),
    (10**4, 10**4, [], "more than"),
])
def test_bad_pieces(n, m, pieces, message):
    with pytest.raises(ValueError, match=message):
        rectangles.encode(n, m, pieces)
    with pytest.raises(ValueError, match=message):
        rectangles.min_cover(n, m, pieces)


def test_bad_bound():
    with pytest.raises(ValueError, match="bound"):
        rectangles.min_cover(1, 1, [(0, 0, 1, 1)], bound="tight")


@pytest.mark.parametrize("text, line, message", [
    ("", 1, "empty"),
    ("2\n1 1 1\n0 0 1 1\n", 1, "announces 2 cases, but the input ends after 1"),
    ("1\n5 5 3\n0 0 5 5\n", 2, "announces 3 pieces, but the input ends after 1"),
    ("1\n5 5 1\n0 0 5 6\n", 3, "outside the 5 x 5 board"),
    ("1\n5 -5 0\n", 2, "must not be negative"),
    ("1\n5 5\n", 2, "expected n m p"),
    ("1\n5 5 1\n0 0 x 5\n", 3, "whole numbers"),
    ("1\n1 1 1\n0 0 1 1\nextra\n", 4, "unexpected text after the 1 cases"),
    ("two\n", 1, "whole numbers T"),
])
def test_reader_errors_name_the_line(text, line, message):
    with pytest.raises(dlx.FormatError, match=message) as info:
        list(rectangles.read_cases(io.StringIO(text)))
    assert info.value.line == line and str(info.value).startswith(f"line {line}:")


def test_reader_accepts_blank_lines_and_lists():
    cases = list(rectangles.read_cases(["1\n", "\n", "2 1 2\n", "0 0 1 1\n", "\n",
                                        "1 0 2 1\n"]))
    assert cases == [rectangles.Case(3, 2, 1, [(0, 0, 1, 1), (1, 0, 2, 1)])]


def test_random_pieces_is_reproducible():
    assert rectangles.random_pieces(10, 8, 40, seed=5) == rectangles.random_pieces(10, 8, 40,
                                                                                   seed=5)
    for x1, y1, x2, y2 in rectangles.random_pieces(10, 8, 40, seed=5, grain=3):
        assert 0 <= x1 < x2 <= 10 and 0 <= y1 < y2 <= 8


def gids(fig, gid: str) -> list:
    """The artists of a figure drawn with this gid (the figures tag what they draw)."""
    return [a for a in fig.findobj() if getattr(a, "get_gid", lambda: None)() == gid]


def test_figure():
    pieces = [(0, 0, 3, 2), (3, 0, 4, 3), (0, 2, 3, 3), (0, 0, 4, 4)]
    fig = rectangles.figure(pieces, 4, 4, chosen=[0, 1, 2])
    assert sorted(t.get_text() for t in gids(fig, "rectangle-label")) == ["0", "1", "2"]
    assert len(gids(fig, "offered")) == 1
    assert len(gids(fig, "uncovered")) == 4          # the bottom row
    fig = rectangles.figure(pieces, 4, 4, chosen=[])
    assert len(gids(fig, "offered-label")) == 4 and not gids(fig, "uncovered")
    fig = rectangles.figure(pieces[:3])
    assert len(gids(fig, "rectangle")) == 3 and not gids(fig, "uncovered")

    class Corners:
        def __init__(self, x1: int, y1: int, x2: int, y2: int) -> None:
            self.x1, self.y1, self.x2, self.y2 = x1, y1, x2, y2

    fig = rectangles.figure({"A": Corners(0, 0, 2, 1), "B": (0, 1, 2, 2)}, 2, 2)
    assert sorted(t.get_text() for t in gids(fig, "rectangle-label")) == ["A", "B"]
    assert not gids(fig, "uncovered")
    fig = rectangles.figure([rectangles.Piece(0, 0, 0, 2, 1), rectangles.Piece(1, 0, 1, 2, 2)])
    assert len(gids(fig, "rectangle")) == 2
    with pytest.raises(ValueError, match="overlap"):
        rectangles.figure(pieces)
    with pytest.raises(ValueError, match="empty"):
        rectangles.figure([(0, 0, 0, 1)])
    with pytest.raises(ValueError, match="no rectangle named"):
        rectangles.figure(pieces, chosen=[7])


def overlapping_texts(fig, gid: str) -> list[tuple[str, str]]:
    """Pairs of texts with this gid whose drawn boxes overlap (measured by the renderer)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in gids(fig, gid)]
    return [(a, b) for k, (a, box) in enumerate(boxes) for b, other in boxes[k + 1:]
            if box.overlaps(other)]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_offered_pieces_have_labels_that_do_not_overlap(seed: int) -> None:
    # notebook 04's "24 pieces on offer": many pieces share a corner, some are duplicates
    pieces = rectangles.random_pieces(8, 8, 24, seed=seed, grain=2)
    fig = rectangles.figure(pieces, 8, 8, chosen=[], title="24 pieces on offer")
    labels = gids(fig, "offered-label")
    assert sorted(t.get_text() for t in labels) == sorted(str(k) for k in range(24))
    assert overlapping_texts(fig, "offered-label") == []
