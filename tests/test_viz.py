"""dlx.viz: each picture shows what the links (or the puzzle) hold at a known state."""

from __future__ import annotations

import subprocess
import sys

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

import dlx  # noqa: E402
from dlx import viz  # noqa: E402
from dlx.links import Links  # noqa: E402
from dlx.search import run  # noqa: E402

TOY = {"ce": ["c", "e"], "adg": ["a", "d", "g"], "bcf": ["b", "c", "f"],
       "adf": ["a", "d", "f"], "bg": ["b", "g"], "deg": ["d", "e", "g"]}


@pytest.fixture(scope="module")
def toy() -> dlx.ExactCover:
    return dlx.ExactCover(TOY, primary=list("abcdefg"))


@pytest.fixture(scope="module")
def steps(toy: dlx.ExactCover) -> viz.Stepper:
    return viz.record(toy)


def codes_of(fig: Figure):
    return fig.axes[0].images[0].get_array()


def rows_with(fig: Figure, background: int) -> int:
    """Rows of the matrix image drawn entirely on this background (a 1 adds viz.ONE)."""
    return sum(1 for row in codes_of(fig) if set(row % viz.ONE) == {background})


def gids(fig: Figure, gid: str) -> list:
    return [a for a in fig.findobj() if getattr(a, "get_gid", lambda: None)() == gid]


def test_import_is_lazy() -> None:
    code = ("import sys, dlx, dlx.viz; "
            "print(sorted(m for m in ('matplotlib', 'numpy', 'rich') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_record_toy(steps: viz.Stepper) -> None:
    assert len(steps) == 38
    assert steps[0].event is None and steps[0].chosen == ()
    assert str(steps[5].event) == "L0 cover g"
    assert steps[5].chosen == ("adg",)
    assert steps[5].hidden_options == ("adf", "bg", "deg")
    assert steps[5].covered_items == ("a", "d", "g")
    assert steps[5].focus == "a"
    assert steps[5].lengths == (2, 1, 2, 1, 1, 1, 1)
    assert steps[0].arrays == steps[-1].arrays            # the totals agree
    assert steps.find("L0 cover g") == 5
    assert [str(e) for e in steps.events] == [str(e) for e in dlx.trace(
        dlx.ExactCover(TOY, primary=list("abcdefg")))]


def test_every_pause_is_consistent(steps: viz.Stepper) -> None:
    """Hidden = touches a covered item; covered = what the events covered; the solution."""
    covered: set = set()
    for p in steps.pauses[1:]:
        e = p.event
        if isinstance(e, dlx.Cover):
            covered.add(e.item)
        elif isinstance(e, dlx.Uncover):
            covered.discard(e.item)
        assert set(p.covered_items) == covered, p.title()
        for label, hidden in zip(p.options, p.hidden, strict=True):
            assert hidden == any(i in covered for i in TOY[label]), (p.title(), label)
        assert set(p.chosen) <= set(p.options) and len(set(p.chosen)) == len(p.chosen)
        for label in p.chosen:        # a chosen option's items are all covered or being
            assert p.hidden[p.options.index(label)]
        if isinstance(e, dlx.Solution):
            assert p.chosen == e.options


def test_links_figure_greys_hidden_rows_and_covered_columns(steps: viz.Stepper) -> None:
    fig = steps.figure(5)
    assert isinstance(fig, Figure)
    assert codes_of(fig).shape == (6, 7)
    assert rows_with(fig, viz.HIDDEN) == 3 == len(steps[5].hidden_options)
    assert rows_with(fig, viz.CHOSEN) == 1
    codes = codes_of(fig)
    available_rows = [r for r in codes if set(r % viz.ONE) <= {viz.AVAILABLE, viz.COVERED}]
    assert len(available_rows) == 2           # ce and bcf
    covered_columns = {k for r in available_rows for k, c in enumerate(r)
                       if c % viz.ONE == viz.COVERED}
    assert covered_columns == {0, 3, 6}       # a, d, g
    assert len(gids(fig, "focus")) == 1
    lens = [t.get_text() for t in gids(fig, "item-len")]
    assert lens == ["-", "1", "2", "-", "1", "1", "-"]
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == list(TOY)
    assert fig._repr_png_().startswith(b"\x89PNG")  # type: ignore[attr-defined]


def test_greyed_rows_match_hidden_options_at_every_pause(steps: viz.Stepper) -> None:
    for p in steps:
        fig = viz.links_figure(p)
        assert rows_with(fig, viz.HIDDEN) == len(p.hidden_options), p.title()
        assert rows_with(fig, viz.CHOSEN) == len(p.chosen), p.title()


def test_links_figure_of_live_links(toy: dlx.ExactCover, steps: viz.Stepper) -> None:
    links = Links.build(toy)
    search = run(links, "trace")
    for k, event in enumerate(search, 1):
        if k == 5:
            assert str(event) == "L0 cover g"
            fig = viz.links_figure(links, chosen=["adg"])
            assert (codes_of(fig) == codes_of(steps.figure(5))).all()
            assert viz.links_text(links, ["adg"]).splitlines()[1:] == \
                steps.text(5).splitlines()[1:]
            break
    search.close()
    links.check()
    assert links.snapshot() == steps[0].arrays


def test_links_figure_of_a_problem_and_of_a_big_one(toy: dlx.ExactCover) -> None:
    fig = viz.links_figure(toy)
    assert rows_with(fig, viz.HIDDEN) == 0
    assert (codes_of(fig) % viz.ONE == viz.AVAILABLE).all()
    assert int((codes_of(fig) == viz.ONE).sum()) == sum(len(v) for v in TOY.values())
    big = dlx.ExactCover({k: [k, k + 1] for k in range(80)}, secondary=[80])
    fig = viz.links_figure(big)
    assert codes_of(fig).shape == (80, 81)
    assert not gids(fig, "item-len")          # too big for names
    assert len(gids(fig, "secondary")) == 1


def test_links_text_and_table(steps: viz.Stepper) -> None:
    text = steps.text(5)
    assert "* adg" in text and "- bg" in text and "  ce" in text
    table = viz.links_table(steps[5])
    assert len(table.columns) == 8 and table.row_count == 6


def test_record_coloured_problem() -> None:
    p = dlx.ExactCover({"x": ["a", dlx.Colored("s", 1)], "y": ["b", dlx.Colored("s", 1)],
                        "z": ["b", dlx.Colored("s", 2)]}, secondary=["s"])
    steps = viz.record(p)
    assert steps[0].arrays == steps[-1].arrays
    solutions = [q for q in steps if isinstance(q.event, dlx.Solution)]
    assert [q.chosen for q in solutions] == [("x", "y")]
    assert "z" in solutions[0].hidden_options     # purified away: wrong colour


def test_record_refuses_long_traces() -> None:
    many = dlx.ExactCover({(i, k): [i] for i in range(5) for k in range(3)})
    with pytest.raises(ValueError, match="more than 100 steps"):
        viz.record(many, max_steps=100)


def test_search_tree(toy: dlx.ExactCover) -> None:
    tree = viz.search_tree(toy)
    assert [n.kind for n in tree].count("solution") == 1
    assert [n.kind for n in tree].count("dead end") == 1
    assert len(tree) == 6
    fig = viz.search_tree_figure(toy)
    points = {g: len(gids(fig, g)[0].get_offsets()) for g in ("choice", "solution", "dead end")}
    assert points == {"choice": 4, "solution": 1, "dead end": 1}
    assert sorted(t.get_text() for t in gids(fig, "option-label")) == sorted(
        ["adg", "bcf", "adf", "bg", "ce"])
    # the dead end (after adg, bcf) names the item left without options: e
    assert sorted(t.get_text() for t in gids(fig, "item-label")) == sorted(
        ["a (2)", "b (1)", "e (0)", "b (1)", "c (1)"])


def test_search_tree_labels_never_none() -> None:
    # every node but a solution names an item; a dead end names one that no open
    # option covers (on random problems, with secondary items and colours)
    import random

    rng = random.Random(5)
    for _ in range(60):
        items = "abcdef"
        options = {k: rng.sample(items, rng.randint(1, 3)) + rng.sample(["x", "y"],
                   rng.randint(0, 1)) for k in range(rng.randint(3, 9))}
        options = {k: [dlx.Colored(i, rng.choice("rb")) if i in "xy" and rng.random() < 0.5
                       else i for i in v] for k, v in options.items()}
        problem = dlx.ExactCover(options, secondary=["x", "y"])
        tree = viz.search_tree(problem)
        for n in tree:
            if n.kind == "solution":
                continue
            assert n.item is not None and n.item in problem.primary
            if n.kind == "dead end":
                path, j = [], tree.index(n)
                while tree[j].parent is not None:
                    path.append(tree[j].option)
                    j = tree[j].parent
                assert n.item not in {i for o in path for i in problem.item_names(o)}
                assert not any(n.item in problem.item_names(o) and _compatible(problem, path, o)
                               for o in problem.options)


def _compatible(problem: dlx.ExactCover, path: list, option: object) -> bool:
    """Can ``option`` join the options ``path``: no primary item twice, and each secondary
    item either once without a colour or always with one colour?"""
    uses: dict[object, list[object]] = {}
    for o in [*path, option]:
        for entry in problem.options[o]:
            item = entry.item if isinstance(entry, dlx.Colored) else entry
            uses.setdefault(item, []).append(entry.color if isinstance(entry, dlx.Colored)
                                             else None)
    for item, colours in uses.items():
        if len(colours) > 1 and (item in problem.primary or None in colours
                                 or len(set(colours)) > 1):
            return False
    return True


def test_search_tree_size_limit() -> None:
    many = dlx.ExactCover({(i, k): [i] for i in range(4) for k in range(3)})  # 121 nodes
    assert len(viz.search_tree(many, limit=121)) == 121
    with pytest.raises(ValueError, match="more than 50 nodes"):
        viz.search_tree_figure(many, limit=50)


PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = ("483921657967345821251876493548132976729564138136798245372689514814253769"
          "695417382")


def test_sudoku_figure() -> None:
    fig = viz.sudoku_figure(SOLVED, givens=PUZZLE)
    assert len(gids(fig, "given")) == 32 and len(gids(fig, "filled")) == 49
    thick = gids(fig, "thick")[0].get_segments()
    assert len(thick) == 2 * 4 * 9           # 4 horizontal and 4 vertical lines of 9 cells
    fig = viz.sudoku_figure(PUZZLE)
    assert len(gids(fig, "given")) == 32 and not gids(fig, "filled")
    nested = [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]
    fig = viz.sudoku_figure(nested, givens=[True] + [False] * 15)
    assert len(gids(fig, "given")) == 1 and len(gids(fig, "filled")) == 3
    with pytest.raises(ValueError, match="square number"):
        viz.sudoku_figure("123")


def test_sudoku_figure_jigsaw_regions() -> None:
    regions = [0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]
    fig = viz.sudoku_figure("." * 16, regions=regions)
    assert not gids(fig, "given")
    assert len(gids(fig, "thick")[0].get_segments()) == 16 + 12


def test_queens_figure() -> None:
    fig = viz.queens_figure(8, (0, 4, 7, 5, 2, 6, 1, 3))
    assert len(gids(fig, "queen")) == 8
    fig = viz.queens_figure(4, [(0, 1), (1, 3), (2, 0), (3, 2)])
    assert len(gids(fig, "queen")) == 4
    assert len(gids(viz.queens_figure(5), "queen")) == 0
    with pytest.raises(ValueError, match="off the 4x4 board"):
        viz.queens_figure(4, [(0, 4)])


def test_tiling_figure() -> None:
    rows = ["FFLL", "FILL", "FIIN", "..NN"]
    fig = viz.tiling_figure(rows)
    assert sorted(t.get_text() for t in gids(fig, "piece-label")) == ["F", "I", "L", "N"]
    assert len(gids(fig, "cell")) == 14
    as_map = {(r, c): ch for r, line in enumerate(rows) for c, ch in enumerate(line) if ch != "."}
    pairs = [(p, [cell for cell, q in as_map.items() if q == p]) for p in "FILN"]
    for other in (as_map, pairs, dict(pairs)):
        assert sorted(t.get_text() for t in gids(viz.tiling_figure(other), "piece-label")) \
            == ["F", "I", "L", "N"]


def test_rectangles_figure() -> None:
    pieces = [(0, 0, 3, 2), (3, 0, 4, 3), (0, 2, 3, 3), (0, 0, 4, 4)]
    fig = viz.rectangles_figure(pieces, 4, 4, chosen=[0, 1, 2])
    assert sorted(t.get_text() for t in gids(fig, "rectangle-label")) == ["0", "1", "2"]
    assert len(gids(fig, "offered")) == 1
    assert len(gids(fig, "uncovered")) == 4          # the bottom row
    fig = viz.rectangles_figure(pieces, 4, 4, chosen=[])
    assert len(gids(fig, "offered-label")) == 4 and not gids(fig, "uncovered")
    fig = viz.rectangles_figure(pieces[:3])
    assert len(gids(fig, "rectangle")) == 3 and not gids(fig, "uncovered")

    class Piece:
        def __init__(self, x1: int, y1: int, x2: int, y2: int) -> None:
            self.x1, self.y1, self.x2, self.y2 = x1, y1, x2, y2

    fig = viz.rectangles_figure({"A": Piece(0, 0, 2, 1), "B": (0, 1, 2, 2)}, 2, 2)
    assert sorted(t.get_text() for t in gids(fig, "rectangle-label")) == ["A", "B"]
    assert not gids(fig, "uncovered")
    with pytest.raises(ValueError, match="overlap"):
        viz.rectangles_figure(pieces)
    with pytest.raises(ValueError, match="empty"):
        viz.rectangles_figure([(0, 0, 0, 1)])
    with pytest.raises(ValueError, match="no rectangle named"):
        viz.rectangles_figure(pieces, chosen=[7])


def overlapping_texts(fig: Figure, gid: str) -> list[tuple[str, str]]:
    """Pairs of texts with this gid whose drawn boxes overlap (measured by the renderer)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in gids(fig, gid)]
    return [(a, b) for k, (a, box) in enumerate(boxes) for b, other in boxes[k + 1:]
            if box.overlaps(other)]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_offered_rectangles_have_labels_that_do_not_overlap(seed: int) -> None:
    # notebook 04's "24 pieces on offer": many pieces share a corner, some are duplicates
    from problems import rectangles

    pieces = rectangles.random_pieces(8, 8, 24, seed=seed, grain=2)
    fig = viz.rectangles_figure(pieces, 8, 8, chosen=[], title="24 pieces on offer")
    labels = gids(fig, "offered-label")
    assert sorted(t.get_text() for t in labels) == sorted(str(k) for k in range(24))
    assert overlapping_texts(fig, "offered-label") == []


def test_profile_figure() -> None:
    stats = dlx.Stats()
    dlx.count(dlx.ExactCover({(i, k): [i] for i in range(3) for k in range(2)}), stats=stats)
    fig = viz.profile_figure({"search": stats, "plain": [1, 3, 9]})
    (line,) = gids(fig, "search")
    assert list(line.get_ydata()) == [1, 2, 4, 8]
    assert list(gids(fig, "plain")[0].get_ydata()) == [1, 3, 9]
    with pytest.raises(ValueError):
        viz.profile_figure({})
