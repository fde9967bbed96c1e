"""Tests of the Sudoku fast path: problems.sudoku.batch and friends, dlx._core.GridTable.

The batch functions must give exactly what the per-puzzle functions give
(solve/count/classify on problems.sudoku.encode's problem): the same counts and
verdicts, the same first solution, the same node counts and budget outcomes,
with the compiled core and without it (engine="python").  Every search gets a
node budget, so a link bug fails instead of hanging.
"""

from __future__ import annotations

import functools
import threading

import pytest
from helpers import run_and_interrupt
from hypothesis import given, settings
from hypothesis import strategies as st
from sudoku_helpers import (
    BUDGET,
    IMPOSSIBLE,
    PE1,
    PE1_SOLUTION,
    agrees,
    data_puzzles,
    known_unique,
    rules_hold,
    rules_ok,
)

import dlx
from dlx import engine
from problems import sudoku
from problems.sudoku import Grid, Shape, SudokuFormatError

needs_core = pytest.mark.skipif(not engine.available(), reason="dlx._core not built")
ENGINES = [pytest.param("c", marks=needs_core), "python"]

JIGSAW_4 = Shape.jigsaw("AAAB" "CABB" "CCDB" "CDDD")
JIGSAW_6 = Shape.jigsaw("AAABBB" "AACCBB" "ACCCDB" "EECDDD" "EEFFDD" "EEFFFF")
SHAPES = {
    "4x4": Shape.standard(4),
    "6x6": Shape.standard(6),
    "6x6 3x2 boxes": Shape.standard(6, (3, 2)),
    "9x9": Shape.standard(9),
    "16x16": Shape.standard(16),
    "X 4x4": Shape.diagonal(4),
    "X 9x9": Shape.diagonal(9),
    "jigsaw 4x4": JIGSAW_4,
    "jigsaw 6x6": JIGSAW_6,
    "9x9 + 2-cell units": Shape.standard(9).extend([[(0, 0), (8, 8)], [(0, 8), (8, 0)]]),
}


def reference(puzzle, limit, shape=None, max_nodes=BUDGET):
    """(legal, count or None on budget, first solution text, nodes) the per-puzzle way."""
    g = sudoku.as_grid(puzzle, shape=shape)
    legal = sudoku.is_legal(g)
    stats = dlx.Stats()
    try:
        n = sudoku.count(g, limit=limit, max_nodes=max_nodes, stats=stats)
    except dlx.BudgetExceeded:
        return legal, None, None, stats.nodes
    first = sudoku.solve(g, max_nodes=max_nodes) if n else None
    return legal, n, None if first is None else str(first), stats.nodes


def check_batch(puzzles, limit, eng, shape=None, max_nodes=BUDGET):
    got = sudoku.batch(puzzles, limit, shape=shape, max_nodes=max_nodes, engine=eng)
    assert len(got) == len(puzzles)
    for p, o in zip(puzzles, got, strict=True):
        legal, n, first, nodes = reference(p, limit, shape, max_nodes)
        assert (o.legal, o.found, o.nodes) == (legal, n, nodes), p
        if n is not None:
            assert o.solution == first, p
        assert o.seconds >= 0
    return got


# --------------------------------------------------------------------------- fixed puzzles


@pytest.mark.slow
@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("limit", [1, 2, 5])
def test_data_puzzles_agree_with_the_per_puzzle_functions(eng, limit):
    puzzles = data_puzzles() + [PE1, PE1_SOLUTION, IMPOSSIBLE, "3" + PE1[1:], "." * 16]
    got = check_batch(puzzles, limit, eng)
    assert any(o.found == 1 for o in got) and any(not o.legal for o in got)
    assert any(o.legal and o.found == 0 for o in got)


@pytest.mark.slow
@pytest.mark.parametrize("eng", ENGINES)
def test_the_verbs_agree_with_the_per_puzzle_functions(eng):
    puzzles = data_puzzles() + [IMPOSSIBLE, "1.2." + "." * 12, [0] * 36]
    assert [str(g) if g else None for g in sudoku.solve_many(puzzles, engine=eng)] == \
        [str(g) if g else None for g in (sudoku.solve(p) for p in puzzles)]
    assert sudoku.classify_many(puzzles, max_nodes=BUDGET, engine=eng) == \
        [sudoku.classify(p, max_nodes=BUDGET) for p in puzzles]
    assert sudoku.count_many(puzzles, limit=3, engine=eng) == \
        [sudoku.count(p, limit=3) for p in puzzles]
    lines = [str(sudoku.as_grid(p)) for p in puzzles]
    assert sudoku.solve_lines(lines, engine=eng) == \
        [str(g) if g else None for g in (sudoku.solve(p) for p in puzzles)]
    assert sudoku.solve_lines(lines, unique=True, engine=eng) == \
        [str(sudoku.solve(p)) if sudoku.count(p, limit=2) == 1 else None for p in puzzles]


@pytest.mark.parametrize("eng", ENGINES)
def test_node_counts_for_fixed_instances(eng):
    # The same searches as the per-puzzle ones, below the givens
    # (see test_sudoku.test_node_counts_for_fixed_instances).
    first, top95 = sudoku.batch([PE1, known_unique()[3]], 2, engine=eng)
    assert (first.found, first.nodes) == (1, 50)
    assert (top95.found, top95.nodes) == (1, 386)
    assert sudoku.batch([PE1_SOLUTION], 1, engine=eng)[0].nodes == 1   # the root alone
    assert sudoku.batch(["3" + PE1[1:]], engine=eng)[0].nodes == 0


@pytest.mark.parametrize("eng", ENGINES)
def test_solve_many_gives_grids_with_the_puzzles_givens(eng):
    puzzle = Grid(PE1)
    (g,) = sudoku.solve_many([puzzle], engine=eng)
    assert g == sudoku.solve(puzzle) and g.givens == puzzle.givens and g.shape == puzzle.shape
    assert rules_ok(g.values) and agrees(puzzle.values, g.values)
    (x,) = sudoku.solve_many(["." * 16], shape=Shape.diagonal(4), engine=eng)
    assert x.shape == Shape.diagonal(4) and x == sudoku.solve("." * 16, shape=Shape.diagonal(4))


@pytest.mark.parametrize("eng", ENGINES)
def test_budgets_agree(eng):
    puzzles = ["." * 81, PE1, known_unique()[3], "." * 16]
    for budget in (1, 2, 49, 50, 51, 385, 386, 387, 5000):
        check_batch(puzzles, 2, eng, max_nodes=budget)
        check_batch(puzzles, None, eng, max_nodes=budget)
    with pytest.raises(dlx.BudgetExceeded) as e:
        sudoku.count_many(["." * 16, "." * 81, PE1], max_nodes=3000, engine=eng)
    assert e.value.found == [288, None, 1]
    with pytest.raises(dlx.BudgetExceeded) as e:
        sudoku.solve_lines([PE1, known_unique()[3]], max_nodes=100, engine=eng)
    assert e.value.found == [PE1_SOLUTION, None]
    with pytest.raises(dlx.BudgetExceeded):
        sudoku.classify_many(["." * 81], max_nodes=10, engine=eng)
    with pytest.raises(dlx.BudgetExceeded):
        sudoku.solve_many([known_unique()[3]], max_nodes=10, engine=eng)


@pytest.mark.parametrize("eng", ENGINES)
def test_mixed_shapes_and_notations_keep_their_order(eng):
    puzzles = ["1..." "..3." ".4.." "...2", PE1, Grid("." * 36), [0] * 16, "12.." + "." * 12,
               "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2", " " + PE1 + " \n", PE1.replace("0", ".")]
    got = sudoku.batch(puzzles, 2, engine=eng)
    assert [o.found for o in got] == [1, 1, 2, 2, 2, 1, 1, 1]
    assert got[0].solution == got[5].solution == "1324423124133142"
    assert got[1].solution == got[6].solution == got[7].solution == PE1_SOLUTION
    assert sudoku.batch([], engine=eng) == []


def test_malformed_puzzles_raise_naming_the_puzzle():
    with pytest.raises(SudokuFormatError, match=r"puzzle 2: .*column 41: unexpected character 'x'"):
        sudoku.solve_lines([PE1, PE1[:40] + "x" + PE1[41:]])
    with pytest.raises(SudokuFormatError, match="puzzle 3: .*found 80 cells"):
        sudoku.batch([PE1, PE1, PE1[:80]])
    with pytest.raises(SudokuFormatError, match="puzzle 1"):
        sudoku.solve_lines(["é" * 81])
    with pytest.raises(SudokuFormatError, match="puzzle 2"):
        sudoku.count_many(["." * 256, "." * 81], shape=Shape.standard(16))
    with pytest.raises(SudokuFormatError, match="puzzle 1"):
        sudoku.solve_lines(["A" + "." * 80])        # A (10) does not fit a 9x9 grid
    with pytest.raises(ValueError, match="limit"):
        sudoku.count_many([PE1], limit=0)


def test_engine_names_are_checked(monkeypatch):
    with pytest.raises(dlx.ExactCoverError):
        sudoku.batch([PE1], engine="fortran")
    monkeypatch.setattr(engine, "_core", None)
    with pytest.raises(dlx.ExactCoverError, match="not available"):
        sudoku.batch([PE1], engine="c")


def test_without_the_core_everything_falls_back(monkeypatch):
    puzzles = data_puzzles() + ["." * 16, "11" + "." * 14]
    want = sudoku.batch(puzzles, 2)
    monkeypatch.setattr(engine, "_core", None)          # as if the extension were not built
    got = sudoku.batch(puzzles, 2)
    assert [o[:4] for o in got] == [o[:4] for o in want]
    assert sudoku.solve_lines([PE1]) == [PE1_SOLUTION]


# --------------------------------------------------------------------------- random puzzles


@functools.cache
def solved(name):
    g = sudoku.solve("." * SHAPES[name].size ** 2, shape=SHAPES[name], max_nodes=BUDGET)
    assert g is not None
    return g.values


@st.composite
def puzzles(draw, names=tuple(SHAPES)):
    """A shape and a puzzle: a solved grid with relabelled digits, some givens removed,
    sometimes a few random digits written over it (illegal or impossible puzzles)."""
    name = draw(st.sampled_from(names))
    n = SHAPES[name].size
    perm = draw(st.permutations(range(1, n + 1)))
    keep = draw(st.floats(0, 1))
    rnd = draw(st.randoms(use_true_random=False))
    cells = [perm[v - 1] if rnd.random() < keep else 0 for v in solved(name)]
    for _ in range(draw(st.integers(0, 3))):
        cells[draw(st.integers(0, n * n - 1))] = draw(st.integers(0, n))
    return name, cells


@pytest.mark.slow
@needs_core
@settings(deadline=None, max_examples=300)
@given(puzzles(), st.sampled_from([1, 2, 3, None]))
def test_random_puzzles_agree_on_every_shape(case, limit):
    name, cells = case
    shape = SHAPES[name]
    (o,) = check_batch([cells], limit, "c", shape=shape, max_nodes=20_000)
    if o.found:
        values = Grid(o.solution, shape=shape).values
        assert rules_hold(values, shape) and agrees(cells, values)
    assert o.legal == sudoku.is_legal(cells, shape=shape)


@settings(deadline=None, max_examples=60)
@given(st.lists(puzzles(("4x4", "6x6", "9x9", "X 4x4", "jigsaw 6x6")), min_size=1,
                max_size=6), st.sampled_from([1, 2, None]))
@pytest.mark.slow
def test_random_batches_agree_on_both_engines(cases, limit):
    by_shape: dict[str, list] = {}
    for name, cells in cases:
        by_shape.setdefault(name, []).append(cells)
    for name, group in by_shape.items():
        shape = SHAPES[name]
        py = sudoku.batch(group, limit, shape=shape, max_nodes=5_000, engine="python")
        if engine.available():
            c = sudoku.batch(group, limit, shape=shape, max_nodes=5_000, engine="c")
            assert [o[:4] for o in c] == [o[:4] for o in py]
        check_batch(group, limit, "python", shape=shape, max_nodes=5_000)


@settings(deadline=None, max_examples=200)
@given(st.one_of(st.text(st.sampled_from(".0123456789abgAG |#-x"), min_size=14, max_size=90),
                st.sampled_from([16, 36, 81]).flatmap(lambda k: st.text(
                    st.sampled_from(".0123456789.....aAgG"), min_size=k, max_size=k))),
       st.sampled_from([None, (2, 2), (3, 3)]))
def test_one_line_reading_is_the_parser(text, box):
    """read_puzzles' and batch's fast paths read exactly what Grid.parse reads."""
    try:
        want: object = Grid.parse(text, box)
    except SudokuFormatError as e:
        want = e.reason
    entries = list(sudoku.read_puzzles(text, box=box))
    if text.strip() and not text.strip().startswith("#") and text.strip().lower() != "end":
        got = [e.grid if e.grid is not None else e.error.reason for e in entries]
        if isinstance(want, Grid):
            assert got == [want]
    try:
        (o,) = sudoku.batch([text], box=box, max_nodes=2_000)
    except SudokuFormatError as e:
        assert not isinstance(want, Grid) and str(e).endswith(str(want))
    else:
        assert isinstance(want, Grid)
        assert o[:4] == sudoku.batch([want], max_nodes=2_000, engine="python")[0][:4]


# --------------------------------------------------------------------------- the core's safety



@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("puzzles", ['["." * 81]',              # one search of years
                                     '["." * 16] * 300_000'])   # many short ones
def test_ctrl_c_stops_a_long_search_promptly(puzzles):
    code = f"""
import sys
sys.path.insert(0, "tests")
from problems import sudoku
from sudoku_helpers import PE1, PE1_SOLUTION
print("ready", flush=True)
try:
    sudoku.count_many({puzzles}, engine="c")
except KeyboardInterrupt:
    print("interrupted", sudoku.solve_lines([PE1], engine="c") == [PE1_SOLUTION])
"""
    code_, out, err, seconds = run_and_interrupt(code)
    assert "interrupted True" in out, err
    assert seconds < 10, f"took {seconds:.1f} s to answer Ctrl-C"


@needs_core
def test_two_threads_run_batches_at_once():
    puzzles = [p for p in known_unique()] * 20
    want = [str(sudoku.solve(p)) for p in known_unique()] * 20
    results: dict[int, list] = {}

    def work(k):
        results[k] = sudoku.solve_lines(puzzles, engine="c")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert [results[k] for k in range(3)] == [want] * 3


def test_batches_read_16x16_text_in_either_notation():
    """A 16x16 line in 0-9A-F (blank '.') is read as the parser reads it, not as
    1-9A-G with 0 blank: the batch path and the per-puzzle path agree."""
    hard = str(sudoku.generate(box=(4, 4), seed=3))
    shifted = hard.translate(str.maketrans("123456789ABCDEFG", "0123456789ABCDEF"))
    assert "0" in shifted and sudoku.Grid.parse(shifted) == sudoku.Grid.parse(hard)
    assert sudoku.solve_lines([shifted]) == [str(sudoku.solve(hard))] == [
        str(sudoku.solve(shifted))]


@pytest.mark.parametrize("eng", ENGINES)
def test_a_time_limit_bounds_one_puzzle_and_a_batch(eng):
    """``timeout=`` on the per-puzzle verbs and the batches: out of time is unknown
    (BudgetExceeded naming the time limit), never "no solution"."""
    empty16 = "." * 256
    with pytest.raises(dlx.BudgetExceeded) as info:
        sudoku.count(empty16, timeout=0.05)
    assert info.value.timeout == 0.05 and info.value.max_nodes is None
    assert "time limit" in str(info.value)
    lines = [empty16] * 3
    outcomes = sudoku.batch(lines, limit=None, timeout=0.05, engine=eng)
    assert [o.found for o in outcomes] == [None, None, None]
    with pytest.raises(dlx.BudgetExceeded) as info:
        sudoku.count_many(lines, timeout=0.05, engine=eng)
    assert info.value.timeout == 0.05 and info.value.found == [None, None, None]
    easy = "1..." "..3." ".4.." "...2"
    assert str(sudoku.solve(easy, timeout=5)) == "1324423124133142"
    assert sudoku.solve_lines([easy] * 3, timeout=5) == ["1324423124133142"] * 3
