"""dlx.viz: each picture shows what the links hold at a known state; the pieces the puzzles
of problems/ draw with (their pictures are tested beside them); the missing-extra message."""

from __future__ import annotations

import subprocess
import sys

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

import dlx  # noqa: E402
from dlx import drawing, viz  # noqa: E402
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
    code = ("import sys, dlx, dlx.viz; from dlx import viz; assert dlx.viz is viz; "
            "from problems import polyominoes, queens, rectangles, sudoku; "
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


@pytest.mark.slow
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


def test_profile_figure() -> None:
    stats = dlx.Stats()
    dlx.count(dlx.ExactCover({(i, k): [i] for i in range(3) for k in range(2)}), stats=stats)
    fig = viz.profile_figure({"search": stats, "plain": [1, 3, 9]})
    (line,) = gids(fig, "search")
    assert list(line.get_ydata()) == [1, 2, 4, 8]
    assert list(gids(fig, "plain")[0].get_ydata()) == [1, 3, 9]
    with pytest.raises(ValueError):
        viz.profile_figure({})


# --------------------------------------------------------------------------- pieces


def test_viz_is_public_and_draws_no_puzzle() -> None:
    assert "viz" in dlx.__all__ and dlx.viz is viz
    assert {"new_figure", "outlines", "palette", "INK", "text_of", "require",
            "MissingExtraError"} <= set(viz.__all__)
    for old in ("sudoku_figure", "queens_figure", "tiling_figure", "rectangles_figure"):
        assert not hasattr(viz, old), old    # the puzzles draw themselves: problems.*.figure


def test_new_figure_and_outlines() -> None:
    fig, ax = viz.new_figure(2, 1)
    assert isinstance(fig, Figure) and fig.axes == [ax]
    assert fig._repr_png_().startswith(b"\x89PNG")  # type: ignore[attr-defined]
    # two owners, a row each: 8 edges around the 2 x 2 block, 2 between the rows; the
    # thin ones join the two cells of each row
    viz.outlines(ax, {(0, 0): "a", (0, 1): "a", (1, 0): "b", (1, 1): "b"}, inner="#eeeeee")
    assert len(gids(fig, "outline")[0].get_segments()) == 10
    assert len(gids(fig, "inner")[0].get_segments()) == 2
    fig, ax = viz.new_figure(1, 1)
    viz.outlines(ax, {(0, 0): "a", (0, 2): "a"})   # a hole between: two squares outlined
    assert len(gids(fig, "outline")[0].get_segments()) == 8 and not gids(fig, "inner")


def test_palette_ink_and_text() -> None:
    colours = viz.palette(33)                 # 32 colours, then they come round again
    assert len(set(colours[:32])) == 32 and colours[32] == colours[0]
    strong = viz.palette(19, strong=True)
    assert len(set(strong[:18])) == 18 and strong[18] == strong[0]
    assert viz.palette(2) == viz.palette(5)[:2]
    assert all(c.startswith("#") and len(c) == 7 for c in viz.INK.values())
    with pytest.raises(TypeError):
        viz.INK["line"] = "red"  # type: ignore[index]
    assert viz.text_of(("cell", 1, 2)) == "cell 1 2" and viz.text_of((1, 2)) == "1,2"


_WITHOUT = r"""
import sys
sys.modules[sys.argv[1]] = None               # as if it were not installed
import dlx
from dlx import viz
from problems import polyominoes, queens, rectangles, sudoku

toy = dlx.ExactCover({"x": ["a"]})
calls = {
    "links_figure": lambda: viz.links_figure(toy),
    "search_tree_figure": lambda: viz.search_tree_figure(toy),
    "profile_figure": lambda: viz.profile_figure({"a": [1]}),
    "new_figure": lambda: viz.new_figure(1, 1),
    "palette": lambda: viz.palette(3),
    "sudoku.figure": lambda: sudoku.figure("." * 16),
    "queens.figure": lambda: queens.figure(4, (1, 3, 0, 2)),
    "polyominoes.figure": lambda: polyominoes.figure(["AB"]),
    "rectangles.figure": lambda: rectangles.figure([(0, 0, 1, 1)]),
}
for name, call in calls.items():
    try:
        call()
        print(name, "drew a picture")
    except ModuleNotFoundError as e:
        print(f"{name}|{type(e).__name__}|{e.name}|{e}")
assert viz.record(toy).text(1) and viz.links_table(toy)   # text renderings need neither
queens.figure(8)
"""


@pytest.mark.parametrize("missing", ["numpy", "matplotlib"])
def test_pictures_without_the_viz_extra_say_what_to_install(missing: str) -> None:
    # issue 24: a base install drew a ModuleNotFoundError traceback from inside the figure
    done = subprocess.run([sys.executable, "-c", _WITHOUT, missing], capture_output=True,
                          text=True, timeout=120)
    lines = done.stdout.splitlines()
    says = f"({missing} is not installed): pip install 'dancing-links-dlx[viz]'"
    for line, name in zip(lines, ["links_figure", "search_tree_figure", "profile_figure",
                                  "new_figure", "palette", "sudoku.figure", "queens.figure",
                                  "polyominoes.figure", "rectangles.figure"], strict=True):
        assert line == f"{name}|MissingExtraError|{missing}|{name} needs matplotlib and" \
                       f" numpy {says}"
    # uncaught: one exception, its message one line, no chained "During handling" one
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == ("dlx.viz.MissingExtraError: queens.figure needs"
                                           f" matplotlib and numpy {says}")
    raised = [line for line in done.stderr.splitlines() if line[:1].strip() and "Error" in line]
    assert raised == done.stderr.splitlines()[-1:] and "During handling" not in done.stderr


def test_without_the_viz_extra_jupyter_shows_one_line() -> None:
    pytest.importorskip("IPython")
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from IPython.core.interactiveshell import InteractiveShell\n"
            "InteractiveShell.instance(colors='nocolor').run_cell("
            "'from problems import queens; queens.figure(8)')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip().splitlines() == [
        "MissingExtraError: queens.figure needs matplotlib and numpy (matplotlib is not"
        " installed): pip install 'dancing-links-dlx[viz]'"], (done.stdout, done.stderr)



# --------------------------------------------------------------------------- issue 24


@pytest.mark.slow
def test_the_slider_steps_forward_and_back_and_the_picture_follows(toy) -> None:
    pytest.importorskip("ipywidgets")       # in the dev and notebooks extras
    steps = viz.record(toy)
    widget = steps.slider()
    assert widget.slider.value == 0 and widget.slider.max == len(steps) - 1 == 37
    assert widget.event.value == "step 0: before the search" and widget.back.disabled
    first = bytes(widget.picture.value)
    assert first.startswith(b"\x89PNG")
    widget.forward.click()
    assert widget.slider.value == 1 and widget.event.value == "step 1: L0 choose item a (2" \
        " options)"
    assert bytes(widget.picture.value) != first
    widget.forward.click()
    widget.back.click()
    assert widget.slider.value == 1
    widget.back.click()
    assert widget.slider.value == 0 and bytes(widget.picture.value) == first   # drawn once
    widget.slider.value = 37                # dragged to the end: the last step's picture
    assert widget.forward.disabled and widget.event.value == steps[37].title()
    widget.forward.click()
    assert widget.slider.value == 37
    assert bytes(widget.picture.value) == drawing.png(steps.figure(37))


def test_the_legend_names_only_what_the_picture_shows(toy) -> None:
    def legend(fig: Figure) -> list[str]:
        return [t.get_text() for t in fig.legends[0].get_texts()]

    steps = viz.record(toy)
    assert legend(viz.links_figure(toy)) == ["available"]
    assert legend(steps.figure(9)) == ["hidden option or covered item", "partial solution",
                                       "item chosen"]
    fig = viz.links_figure(toy)
    width, height = fig.get_size_inches()
    assert width < 6 and height < 6             # no empty margin beside the matrix
