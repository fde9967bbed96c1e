"""Tests of problems.sudoku (the `dlx sudoku` command is tested in test_cli_sudoku.py).

Solutions are checked by `sudoku_helpers.rules_ok`, a rules checker written from
scratch (plain loops over rows, columns and boxes): it shares no code with the encoder.
Every search gets a node budget, so a link bug fails instead of hanging.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sudoku_helpers import (
    BUDGET,
    IMPOSSIBLE,
    NOIP_1,
    NOIP_2,
    PE1,
    PE1_SOLUTION,
    agrees,
    all_4x4_latin_squares,
    known_unique,
    rules_ok,
)

import dlx
from problems import sudoku
from problems.sudoku import Grid, Placement, Shape, SudokuFormatError, Verdict

# --------------------------------------------------------------------------- an independent checker
# (rules_ok, agrees, known_unique and all_4x4_latin_squares are in sudoku_helpers)


def digits_of(text: str) -> list[int]:
    return [0 if ch in ".0" else int(ch) for ch in text]


def all_completions(values, n=9):
    """Every completion by plain backtracking (brute force, independent of dlx)."""
    br, bc = {4: (2, 2), 9: (3, 3)}[n]
    values = list(values)
    blanks = [i for i, v in enumerate(values) if v == 0]

    def ok(i, d):
        r, c = divmod(i, n)
        for k in range(n):
            if values[r * n + k] == d or values[k * n + c] == d:
                return False
        r0, c0 = r - r % br, c - c % bc
        return all(values[(r0 + a) * n + c0 + b] != d for a in range(br) for b in range(bc))

    def rec(k):
        if k == len(blanks):
            yield tuple(values)
            return
        i = blanks[k]
        for d in range(1, n + 1):
            if ok(i, d):
                values[i] = d
                yield from rec(k + 1)
                values[i] = 0

    yield from rec(0)


def test_checker_rejects_broken_grids():
    good = digits_of(PE1_SOLUTION)
    assert rules_ok(good)
    swapped = good[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not rules_ok(swapped)
    assert not rules_ok(good[:80] + [0])


# --------------------------------------------------------------------------- Grid and parsing


def test_grid_from_flat_and_nested_ints():
    flat = digits_of(PE1)
    nested = [flat[r * 9:(r + 1) * 9] for r in range(9)]
    g = Grid(flat)
    assert g == Grid(nested) == Grid.parse(PE1) == Grid(PE1)
    assert hash(g) == hash(Grid(nested))
    assert g.size == 9 and g.box == (3, 3)
    assert g.values == tuple(flat)
    assert str(g) == PE1.replace("0", ".")
    assert g[0, 2] == 3 and g.rows[1][0] == 9
    assert g.clues == 32 and not g.is_complete()
    assert eval(repr(g), {"Grid": Grid}) == g
    with pytest.raises(AttributeError):
        g.values = ()  # type: ignore[misc]
    with pytest.raises(IndexError):
        g[9, 0]


def test_a_grid_equals_the_line_it_prints():
    solved = sudoku.solve(PE1, max_nodes=BUDGET)
    line = str(solved)
    assert solved == line and line == solved and not solved != line
    assert solved == PE1_SOLUTION and Grid.parse(PE1) == PE1.replace("0", ".")
    assert Grid.parse(PE1) != PE1                 # another notation is other text: parse it
    assert solved != line[:-1] + "." and solved != line.lower() + " "
    # hashing agrees with equality, so a grid and its line are one key
    assert hash(solved) == hash(line) == hash(Grid(line))
    assert {solved: 1}[line] == 1 and line in {solved} and solved in {line}
    assert len({solved, line, Grid(line)}) == 1
    # two shapes with the same digits: each equals the line, they differ from each other
    diagonal, standard = Grid(line, shape=Shape.diagonal(9)), Grid(line)
    assert diagonal == line == standard and diagonal != standard
    assert len({diagonal, standard}) == 2
    # neither equal to other types
    assert solved != list(solved.values) and solved != tuple(solved.values) and solved != 81


def test_a_grid_reads_as_its_line():
    g = sudoku.solve(PE1, max_nodes=BUDGET)
    line = str(g)
    assert g[:9] == line[:9] == "483921657" and g[72:] == line[72:] and g[::9] == line[::9]
    assert g[0] == "4" and g[-1] == line[-1] and g[0, 0] == 4 and g[8, 8] == int(line[-1])
    assert len(g) == 81 and list(g) == list(line) and "".join(g) == line
    assert "483" in g and "4838" not in line and "4838" not in g and "" in g
    with pytest.raises(TypeError, match="grid.values"):
        4 in g  # noqa: B015
    with pytest.raises(TypeError, match=r"\(row, col\), an int or a slice"):
        g["0"]  # type: ignore[call-overload]
    with pytest.raises(IndexError):
        g[81]
    blank = Grid("." * 16)
    assert blank[:4] == "...." and len(blank) == 16 and blank == "." * 16
    # above 35x35 the line is numbers and spaces, and the grid still equals it
    big = Grid([0] * 36 * 36, box=(6, 6))
    assert big == " ".join(["0"] * 36 * 36) and len(big) == len(str(big)) == 2 * 36 * 36 - 1
    # a file of puzzles may be a Grid: its line
    assert [str(e.grid) for e in sudoku.read_puzzles(Grid.parse(PE1))] == [str(Grid.parse(PE1))]


def test_pretty_and_rich_rendering():
    g = Grid.parse(PE1)
    lines = g.pretty().splitlines()
    assert len(lines) == 11
    assert lines[0] == ". . 3 | . 2 . | 6 . ."
    assert lines[3] == "------+-------+------"
    assert Grid.parse(g.pretty()) == g
    text = g.__rich__()
    assert text.plain == g.pretty()
    bold = {text.plain[s.start:s.end] for s in text.spans if s.style == "bold"}
    assert bold <= set("123456789") and "3" in bold
    solved = sudoku.solve(g, max_nodes=BUDGET)
    assert solved.givens == g.givens
    spans = [s for s in solved.__rich__().spans if s.style == "bold"]
    assert len(spans) == g.clues


def gids(fig, gid: str) -> list:
    """The artists of a figure drawn with this gid (the figures tag what they draw)."""
    return [a for a in fig.findobj() if getattr(a, "get_gid", lambda: None)() == gid]


def test_figure():
    puzzle = PE1.replace("0", ".")
    fig = sudoku.figure(PE1_SOLUTION, givens=puzzle)
    assert len(gids(fig, "given")) == 32 and len(gids(fig, "filled")) == 49
    thick = gids(fig, "outline")[0].get_segments()
    assert len(thick) == 2 * 4 * 9           # 4 horizontal and 4 vertical lines of 9 cells
    assert len(gids(fig, "inner")[0].get_segments()) == 2 * 9 * 8 - 2 * 2 * 9
    fig = sudoku.figure(puzzle)
    assert len(gids(fig, "given")) == 32 and not gids(fig, "filled")
    nested = [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]
    fig = sudoku.figure(nested, givens=[True] + [False] * 15)
    assert len(gids(fig, "given")) == 1 and len(gids(fig, "filled")) == 3
    with pytest.raises(ValueError, match="square number"):
        sudoku.figure("123")
    # a Grid brings its givens and its box
    fig = sudoku.figure(sudoku.solve(Grid.parse(PE1), max_nodes=BUDGET))
    assert len(gids(fig, "given")) == 32 and len(gids(fig, "filled")) == 49
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_figure_refuses_a_puzzle_that_is_not_the_grids():
    puzzle, solution = PE1.replace("0", "."), PE1_SOLUTION
    assert gids(sudoku.figure(solution, puzzle), "given")          # the right order draws
    with pytest.raises(sudoku.SudokuError, match=r"^figure\(grid, givens\): givens has 4 at r1c1"
                       r" where the grid has a blank \(49 of its 81 digits differ\).*are they"
                       r" swapped\? .*figure\(solution, puzzle\)$"):
        sudoku.figure(puzzle, solution)
    solved = sudoku.solve(puzzle, max_nodes=BUDGET)
    with pytest.raises(ValueError, match="swapped"):               # a SudokuError is one
        sudoku.figure(Grid(puzzle), givens=solved)
    # a grid that is not the puzzle solved: the first cell that differs, no swap
    other = solution[:2] + "9" + solution[3:]
    with pytest.raises(sudoku.SudokuError, match=r"givens has 3 at r1c3 where the grid has 9"
                       r" \(1 of its digits differs\): givens must be the puzzle the grid was"
                       r" solved from$"):
        sudoku.figure(other, puzzle)
    # a partly solved grid with every given is fine, and so are booleans for givens
    partly = "".join(s if p != "." or k % 2 else "." for k, (p, s) in
                     enumerate(zip(puzzle, solution, strict=True)))
    assert len(gids(sudoku.figure(partly, puzzle), "given")) == 32
    assert gids(sudoku.figure(puzzle, givens=[True] * 81), "given")


def test_figure_jigsaw_regions():
    regions = [0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]
    fig = sudoku.figure("." * 16, regions=regions)
    assert not gids(fig, "given")
    assert len(gids(fig, "outline")[0].get_segments()) == 16 + 12


NOTATIONS = {
    "one line, dots": PE1.replace("0", "."),
    "one line, zeros": PE1,
    "nine lines": "\n".join(PE1[r * 9:(r + 1) * 9] for r in range(9)),
    "nine lines with spaces (NOIP/UVA)": "\n".join(" ".join(PE1[r * 9:(r + 1) * 9])
                                                   for r in range(9)),
    "pretty": Grid.parse(PE1).pretty(),
    "boxed pretty": "+-------+-------+-------+\n" + "\n".join(
        "| " + " | ".join(" ".join(PE1[r * 9 + c0:r * 9 + c0 + 3]) for c0 in (0, 3, 6)) + " |"
        + ("\n+-------+-------+-------+" if r % 3 == 2 else "") for r in range(9)),
    ".sdk": "#A Project Euler\n#D grid 01\n" + "\n".join(
        PE1[r * 9:(r + 1) * 9].replace("0", ".") for r in range(9)) + "\n",
    "crlf and padding": "\r\n  " + PE1 + "  \r\n\r\n",
}


@pytest.mark.parametrize("name", sorted(NOTATIONS))
def test_every_notation_reads_the_same_grid(name):
    assert Grid.parse(NOTATIONS[name]) == Grid.parse(PE1)


@pytest.mark.parametrize("size, box", [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (12, (3, 4)),
                                       (16, (4, 4)), (25, (5, 5))])
def test_every_size_reads_and_writes(size, box):
    values = [((r * box[1] + r // box[0] + c) % size) + 1 for r in range(size) for c in range(size)]
    g = Grid(values)
    assert g.size == size and g.box == box
    assert rules_ok(values, size, box)
    assert Grid.parse(str(g)) == g
    assert Grid.parse(g.pretty()) == g
    numbers = "\n".join(" ".join(str(v) for v in g.rows[r]) for r in range(size))
    assert Grid.parse(numbers) == g
    assert sudoku.classify(g, max_nodes=BUDGET) is Verdict.UNIQUE


def test_letters_for_big_sizes_and_box_override():
    g = Grid.parse("G" + "." * 255)
    assert g.size == 16 and g.values[0] == 16 and str(g)[0] == "G"
    assert Grid.parse("g" + "." * 255) == g
    six = Grid.parse("." * 36, box=(3, 2))
    assert six.box == (3, 2)
    assert sudoku.Shape.standard(6, (3, 2)).units[12].cells[:3] == ((0, 0), (0, 1), (1, 0))


@pytest.mark.parametrize("text, line, column, words", [
    (PE1[:80], 1, None, "found 80 cells"),
    (PE1[:40] + "x" + PE1[41:], 1, 41, "'x'"),
    (PE1[:10] + "\u00e9" + PE1[11:], 1, 11, "non-ASCII"),
    (PE1[:5] + "*" + PE1[6:], 1, 6, "unexpected character '*'"),
    ("12.." "35.." "...." "....", 1, 6, "out of range for a 4x4 grid"),
    ("12.." "3A.." "...." "....", 1, 6, "unexpected character 'A'"),
    ("\n".join(PE1[r * 9:(r + 1) * 9] for r in range(9)).replace("900305001", "90030500"), 2,
     None, "row has 8 cells"),
    ("1 2 3 4\n5 6 7 8\n1 2 3 4\n1 2 3 -4", 4, None, None),
    ("", 1, None, "no puzzle"),
    ("# only a comment", 1, None, "no puzzle"),
    (" ".join(["0"] * 80 + ["10"]), 1, 161, "value 10 is out of range"),
])
def test_format_errors_say_where_and_why(text, line, column, words):
    with pytest.raises(SudokuFormatError) as info:
        Grid.parse(text)
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, dlx.ExactCoverError)
    assert e.line == line
    if column is not None:
        assert e.column == column
    if words is not None:
        assert words in str(e)
    assert str(e).startswith(f"line {line}")


@pytest.mark.parametrize("values, words", [
    ([0] * 80, "found 80 cells"),
    ([0] * 80 + [10], "r9c9: value 10 is outside 0..9"),
    ([0] * 80 + [-1], "outside 0..9"),
    ([0] * 80 + [1.5], "expected an int"),
    ([0] * 80 + [True], "expected an int"),
    ([[0] * 9] * 8 + [[0] * 8], "row 9 has 8 cells"),
    (None, "expected a sequence"),
])
def test_sequence_errors(values, words):
    with pytest.raises(SudokuFormatError, match=words.replace(".", r"\.")):
        Grid(values)


@settings(deadline=None, max_examples=300)
@given(st.text(max_size=300))
def test_parser_on_arbitrary_text_raises_only_format_errors(text):
    try:
        g = Grid.parse(text)
    except SudokuFormatError:
        return
    assert g.size in sudoku.SIZES


PUZZLE_CHARS = st.sampled_from(list("0123456789.ABCDEFGHP| -+\n#x") + ["\n\n", "end\n", "\u00e9"])


@settings(deadline=None, max_examples=300)
@given(st.lists(PUZZLE_CHARS, max_size=400).map("".join))
def test_parsers_on_puzzle_like_text_raise_only_format_errors(text):
    try:
        Grid.parse(text)
    except SudokuFormatError:
        pass
    for entry in sudoku.read_puzzles(text):
        assert (entry.grid is None) != (entry.error is None)
        if entry.error is not None:
            assert isinstance(entry.error, SudokuFormatError) and entry.error.line is not None


@settings(deadline=None, max_examples=200)
@given(st.lists(st.one_of(st.integers(-3, 30), st.lists(st.integers(0, 9), max_size=10)),
                max_size=90))
def test_grid_from_arbitrary_sequences_raises_only_format_errors(values):
    try:
        Grid(values)
    except SudokuFormatError:
        pass


# --------------------------------------------------------------------------- encoding


def test_encoding_of_the_empty_grid():
    p = sudoku.encode("." * 81)
    assert len(p) == 729 and len(p.primary) == 324 and p.secondary == ()
    assert {item[0] for item in p.primary} == {"cell", "row", "col", "box"}
    assert p.options[Placement(4, 5, 7)] == (("cell", 4, 5), ("row", 4, 7), ("col", 5, 7),
                                             ("box", 4, 7))


def test_givens_keep_only_their_own_option_and_drop_conflicts():
    g = Grid.parse(PE1)
    p = sudoku.encode(g)
    by_cell: dict = {}
    for label in p.options:
        by_cell.setdefault((label.row, label.col), []).append(label.digit)
    assert len(by_cell) == 81   # every cell still has a candidate
    for i, v in enumerate(g.values):
        r, c = divmod(i, 9)
        if v:
            assert by_cell[r, c] == [v]
        else:
            for d in by_cell[r, c]:   # no candidate repeats a given of its row/col/box
                peers = [g[r, k] for k in range(9)] + [g[k, c] for k in range(9)]
                peers += [g[r - r % 3 + a, c - c % 3 + b] for a in range(3) for b in range(3)]
                assert d not in peers
    # ... and nothing legal was dropped: every digit missing from all three units is there
    for (r, c), ds in by_cell.items():
        if not g[r, c]:
            seen = {g[r, k] for k in range(9)} | {g[k, c] for k in range(9)}
            seen |= {g[r - r % 3 + a, c - c % 3 + b] for a in range(3) for b in range(3)}
            assert sorted(ds) == sorted(set(range(1, 10)) - seen)


def test_encode_decode_round_trips():
    solved = Grid.parse(PE1_SOLUTION)
    p = sudoku.encode(solved)     # a full grid: exactly its own placements remain
    assert set(p.options) == {Placement(r, c, solved[r, c]) for r in range(9) for c in range(9)}
    assert sudoku.decode(p.options) == solved
    sol = dlx.first(sudoku.encode(PE1), max_nodes=BUDGET)
    assert sudoku.decode(sol) == solved == sudoku.solve(PE1, max_nodes=BUDGET)
    assert dlx.is_exact_cover(sudoku.encode(PE1), sol)
    with pytest.raises(ValueError, match="square"):
        sudoku.decode([Placement(0, 0, 1), Placement(0, 1, 2)])


def test_partial_decode_and_bad_placements():
    part = sudoku.decode([Placement(1, 2, 3)], shape=Shape.standard(4))
    assert part.values[1 * 4 + 2] == 3 and part.clues == 1
    with pytest.raises(ValueError, match="does not fit"):
        sudoku.decode([Placement(0, 0, 5)], shape=Shape.standard(4))


def test_tables_are_built_once_per_shape():
    assert Shape.standard(9) is Shape.standard(9)
    assert Shape.standard(9).tables() is Shape.standard(9).tables()
    assert Grid.parse(PE1).shape is Shape.standard(9)


# --------------------------------------------------------------------------- solving


def test_empty_4x4_grid_has_288_solutions():
    assert sudoku.count("." * 16, max_nodes=BUDGET) == 288
    grids = list(sudoku.solutions("." * 16, max_nodes=BUDGET))
    assert len(set(grids)) == 288
    assert all(rules_ok(g.values, 4) for g in grids)


@pytest.mark.parametrize("puzzle", known_unique())
def test_known_unique_puzzles_solve_to_valid_grids(puzzle):
    solved = sudoku.solve(puzzle, max_nodes=BUDGET)
    assert solved is not None
    assert rules_ok(solved.values) and agrees(digits_of(puzzle), solved.values)
    assert sudoku.classify(puzzle, max_nodes=BUDGET) is Verdict.UNIQUE


def test_node_counts_for_fixed_instances():
    # A heuristic regression (say, choosing the longest item) changes these.  The
    # search runs below the givens (forced options): its root is the givens' partial
    # solution, at the level of their number.
    stats = dlx.Stats()
    sudoku.solve(PE1, stats=stats)
    assert stats.nodes == 50            # the root and one node per blank cell: no backtracking
    assert stats.profile == [0] * 32 + [1] * 50
    stats = dlx.Stats()
    assert sudoku.count(known_unique()[3], stats=stats) == 1   # top95 #1
    assert stats.nodes == 386


@pytest.mark.parametrize("puzzle, verdict", [
    (PE1, Verdict.UNIQUE),
    (PE1_SOLUTION, Verdict.UNIQUE),                      # a full valid grid
    ("." * 81, Verdict.AMBIGUOUS),                       # the empty grid
    ("." * 16, Verdict.AMBIGUOUS),
    (IMPOSSIBLE, Verdict.IMPOSSIBLE),
    ("3" + PE1[1:], Verdict.ILLEGAL),                    # 3 twice in row 1 and box 1
    ("3" + PE1_SOLUTION[1:], Verdict.ILLEGAL),           # a full invalid grid
    ("1234" "2143" "3412" "4321", Verdict.ILLEGAL),
    ("12.." "..12" "...." "....", Verdict.AMBIGUOUS),
])
def test_the_four_verdicts(puzzle, verdict):
    assert sudoku.classify(puzzle, max_nodes=BUDGET) is verdict
    assert str(verdict) == verdict.value
    expected = {Verdict.ILLEGAL: 0, Verdict.IMPOSSIBLE: 0, Verdict.UNIQUE: 1,
                Verdict.AMBIGUOUS: 2}[verdict]
    assert sudoku.count(puzzle, limit=2, max_nodes=BUDGET) == expected
    assert (sudoku.solve(puzzle, max_nodes=BUDGET) is None) == (expected == 0)


def test_verdict_values_are_exactly_uvas():
    assert [v.value for v in Verdict] == ["Illegal", "Unique", "Ambiguous", "Impossible"]
    assert Verdict("Unique") is Verdict.UNIQUE and Verdict.UNIQUE == "Unique"


def test_impossible_puzzle_has_no_direct_clash():
    assert sudoku.is_legal(IMPOSSIBLE) and sudoku.explain(IMPOSSIBLE) == []
    cells = {(p.row, p.col) for p in sudoku.encode(IMPOSSIBLE).options}
    assert len(cells) == 81     # every cell still has a candidate
    assert sudoku.count(IMPOSSIBLE, max_nodes=BUDGET) == 0


def test_explain_lists_every_clash():
    clashes = sudoku.explain("3" + PE1_SOLUTION[1:])    # 3 at r1c1, and r1c3, r7c1
    assert [(c.digit, c.unit.title, c.cells) for c in clashes] == [
        (3, "row 1", ((0, 0), (0, 2))),
        (3, "column 1", ((0, 0), (6, 0))),
        (3, "box 1", ((0, 0), (0, 2))),
    ]
    assert str(clashes[1]) == "digit 3 appears twice in column 1 (r1c1, r7c1)"
    assert sudoku.explain(PE1) == []
    three = sudoku.explain("111." + "." * 12)
    assert str(three[0]) == "digit 1 appears 3 times in row 1 (r1c1, r1c2, r1c3)"


def test_every_entry_point_accepts_grid_text_and_ints():
    for form in (PE1, Grid.parse(PE1), digits_of(PE1),
                 [digits_of(PE1)[r * 9:(r + 1) * 9] for r in range(9)]):
        assert str(sudoku.solve(form, max_nodes=BUDGET)) == PE1_SOLUTION
        assert sudoku.count(form, max_nodes=BUDGET) == 1
        assert sudoku.classify(form, max_nodes=BUDGET) is Verdict.UNIQUE
        assert sudoku.explain(form) == []
        assert sudoku.max_score(form, max_nodes=BUDGET) == sudoku.score(PE1_SOLUTION)


def test_budgets_raise_budget_exceeded():
    with pytest.raises(dlx.BudgetExceeded):
        sudoku.count("." * 81, max_nodes=1000)


@pytest.mark.parametrize("size", [6, 12, 16])
def test_bigger_and_smaller_empty_grids_solve(size):
    g = sudoku.solve("." * size * size, max_nodes=BUDGET)
    assert g is not None and rules_ok(g.values, size)


def test_25x25_puzzle_solves():
    box = (5, 5)
    full = [((r * 5 + r // 5 + c) % 25) + 1 for r in range(25) for c in range(25)]
    puzzle = [v if (i * 7) % 3 else 0 for i, v in enumerate(full)]   # a third blank
    g = sudoku.solve(puzzle, max_nodes=BUDGET)
    assert g is not None and rules_ok(g.values, 25, box) and agrees(puzzle, g.values)


@settings(deadline=None, max_examples=40)
@given(st.permutations(range(1, 10)), st.booleans(), st.sets(st.integers(0, 80), max_size=81))
def test_removing_givens_from_a_solved_grid_never_makes_it_unsolvable(perm, transpose, removed):
    base = digits_of(PE1_SOLUTION)
    if transpose:
        base = [base[c * 9 + r] for r in range(9) for c in range(9)]
    full = [perm[v - 1] for v in base]
    puzzle = [0 if i in removed else v for i, v in enumerate(full)]
    assert sudoku.count(puzzle, limit=1, max_nodes=BUDGET) == 1
    solved = sudoku.solve(puzzle, max_nodes=BUDGET)
    assert rules_ok(solved.values) and agrees(puzzle, solved.values)


@settings(deadline=None, max_examples=60)
@given(st.sets(st.integers(0, 15), max_size=16), st.permutations(range(1, 5)))
def test_4x4_counts_match_brute_force(removed, perm):
    full = [perm[v - 1] for v in (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)]
    puzzle = [0 if i in removed else v for i, v in enumerate(full)]
    brute = list(all_completions(puzzle, 4))
    assert sudoku.count(puzzle, max_nodes=BUDGET) == len(brute)
    assert {s.values for s in sudoku.solutions(puzzle, max_nodes=BUDGET)} == set(brute)


# --------------------------------------------------------------------------- variants


def test_sudoku_x_counts_match_brute_force():
    diagonals = [[(k, k) for k in range(4)], [(k, 3 - k) for k in range(4)]]
    brute = [g for g in all_4x4_latin_squares() if rules_ok(g, 4, extra_units=diagonals)]
    shape = Shape.diagonal(4)
    assert sudoku.count("." * 16, shape=shape, max_nodes=BUDGET) == len(brute) > 0
    p = sudoku.encode("." * 16, shape=shape)
    assert ("unit", 1, 4) in p.primary and len(p.primary) == 4 * 16 + 8
    for g in sudoku.solutions("." * 16, shape=shape, max_nodes=BUDGET):
        assert g.values in brute


def test_9x9_sudoku_x_solution_obeys_the_diagonals():
    shape = Shape.diagonal(9)
    g = sudoku.solve("." * 81, shape=shape, max_nodes=BUDGET)
    diagonals = [[(k, k) for k in range(9)], [(k, 8 - k) for k in range(9)]]
    assert rules_ok(g.values, 9, extra_units=diagonals)
    assert sudoku.classify("1" + "." * 39 + "1" + "." * 40, shape=shape) is Verdict.ILLEGAL
    clash = sudoku.explain("1" + "." * 39 + "1" + "." * 40, shape=shape)
    assert [c.unit.title for c in clash] == ["main diagonal"]


def test_jigsaw_counts_match_brute_force():
    regions = "AAAB" "CABB" "CCDB" "CDDD"
    shape = Shape.jigsaw(regions)
    assert shape.box is None
    brute = [g for g in all_4x4_latin_squares() if rules_ok(g, 4, regions=regions)]
    assert sudoku.count("." * 16, shape=shape, max_nodes=BUDGET) == len(brute)
    g = Grid("." * 16, shape=shape)
    assert "|" not in g.pretty() and sudoku.solve(g).shape == shape
    with pytest.raises(SudokuFormatError, match="regions"):
        Shape.jigsaw("AAAA" "BBBB" "CCCC" "DDDE")


def test_extra_units_make_secondary_items_when_small():
    shape = Shape.standard(4).extend([[(0, 0), (3, 3)]])
    p = sudoku.encode("." * 16, shape=shape)
    assert ("unit", 0, 1) in p.secondary
    for g in sudoku.solutions("." * 16, shape=shape, max_nodes=BUDGET):
        assert g[0, 0] != g[3, 3]


# --------------------------------------------------------------------------- target scores


def test_noip_samples():
    assert sudoku.max_score(NOIP_1, max_nodes=BUDGET) == 2829
    assert sudoku.max_score(NOIP_2, max_nodes=BUDGET) == 2852


def test_target_weights():
    w = sudoku.target_weights(9)
    assert w[0] == 6 and w[10] == 7 and w[20] == 8 and w[30] == 9 and w[40] == 10
    assert sum(w) == 6 * 32 + 7 * 24 + 8 * 16 + 9 * 8 + 10
    expected = sum(a * int(b) for a, b in zip(w, PE1_SOLUTION, strict=True))
    assert sudoku.score(PE1_SOLUTION) == expected


def brute_max_score(puzzle, weights=None, n=9):
    w = weights or sudoku.target_weights(n)
    scores = [sum(a * b for a, b in zip(w, s, strict=True)) for s in all_completions(puzzle, n)]
    return max(scores) if scores else None


@pytest.mark.parametrize("blank_digits", [(1, 2), (3, 7), (1, 2, 3), (4, 5, 9)])
def test_max_score_matches_brute_force_on_many_completions(blank_digits):
    full = digits_of(PE1_SOLUTION)
    puzzle = [0 if v in blank_digits else v for v in full]
    assert sudoku.max_score(puzzle, max_nodes=BUDGET) == brute_max_score(puzzle)


@settings(deadline=None, max_examples=40)
@given(st.permutations(range(1, 10)), st.sets(st.integers(0, 80), min_size=5, max_size=22),
       st.one_of(st.none(), st.lists(st.integers(-4, 12), min_size=81, max_size=81)))
def test_max_score_matches_brute_force(perm, removed, weights):
    full = [perm[v - 1] for v in digits_of(PE1_SOLUTION)]
    puzzle = [0 if i in removed else v for i, v in enumerate(full)]
    assert sudoku.max_score(puzzle, weights, max_nodes=BUDGET) == brute_max_score(puzzle, weights)


@settings(deadline=None, max_examples=60)
@given(st.sampled_from(["standard", "x", "jigsaw"]), st.lists(st.integers(0, 4), min_size=16,
       max_size=16), st.lists(st.integers(-6, 9), min_size=16, max_size=16))
@pytest.mark.slow
def test_max_score_on_variants_matches_brute_force(kind, cells, weights):
    regions = "AAABCABBCCDBCDDD"
    diagonals = [[(k, k) for k in range(4)], [(k, 3 - k) for k in range(4)]]
    shape, check = {
        "standard": (Shape.standard(4), {}),
        "x": (Shape.diagonal(4), {"extra_units": diagonals}),
        "jigsaw": (Shape.jigsaw(regions), {"regions": regions}),
    }[kind]
    puzzle = [v if k % 3 == 0 else 0 for k, v in enumerate(cells)]   # about a third given
    completions = [g for g in all_4x4_latin_squares()
                   if rules_ok(g, 4, **check) and agrees(puzzle, g)]
    expected = max((sum(a * b for a, b in zip(weights, g, strict=True)) for g in completions),
                   default=None)
    if not sudoku.is_legal(puzzle, shape=shape):
        assert expected is None
    assert sudoku.max_score(puzzle, weights, shape=shape, max_nodes=BUDGET) == expected


def test_max_score_of_unsolvable_puzzles_is_none():
    assert sudoku.max_score(IMPOSSIBLE, max_nodes=BUDGET) is None
    assert sudoku.max_score("33" + PE1_SOLUTION[2:]) is None


def test_max_score_prunes_instead_of_enumerating():
    # 24 givens (a NOIP-like puzzle) and 5,983 solutions: branch and bound visits far
    # fewer nodes than counting them does.
    puzzle = ".83.9...5615..2.94...8.1.......39651.9....4.8............1....7.......1....7....."
    scoring, counting = dlx.Stats(), dlx.Stats()
    assert sudoku.max_score(puzzle, stats=scoring, max_nodes=BUDGET) == 2866
    assert sudoku.count(puzzle, stats=counting, max_nodes=BUDGET) == 5983
    assert scoring.nodes * 10 < counting.nodes


# ------------------------------------------------------------------------- files of puzzles


def test_read_puzzles_formats_and_errors():
    text = "\n".join([
        "# a comment",
        PE1,                                   # line 2
        "",
        NOTATIONS["pretty"],                   # lines 4-14
        "",
        PE1[:40] + "x" + PE1[41:],             # line 16: malformed
        "1 0 0 0", "0 0 3 0",                  # line 17: a grid cut short
        "",
        "1.....3..4.....2",                    # line 20
        "end",
        PE1,
    ])
    entries = list(sudoku.read_puzzles(io.StringIO(text)))
    assert [e.line for e in entries] == [2, 4, 16, 17, 20]
    assert [e.grid is not None for e in entries] == [True, True, False, False, True]
    assert entries[0].grid == entries[1].grid == Grid.parse(PE1)
    assert entries[2].error.line == 16 and entries[2].error.column == 41
    assert "2 of 4 rows" in str(entries[3].error)


def test_read_puzzles_with_a_known_size_reads_16x16_grids():
    g = Grid.parse("." * 256)
    rows = "\n".join(str(g)[r * 16:(r + 1) * 16] for r in range(16))
    assert [e.grid.size for e in sudoku.read_puzzles(rows, box=(4, 4))] == [16]
    assert [e.grid.size for e in sudoku.read_puzzles(rows)] == [4] * 16   # 16 chars: a 4x4


def test_read_puzzles_caps_line_length():
    big = io.StringIO("." * (sudoku.MAX_LINE * 3) + "\n" + PE1 + "\n")
    entries = list(sudoku.read_puzzles(big))
    assert entries[0].error is not None and "longer than" in str(entries[0].error)
    assert entries[1].line == 2 and entries[1].grid == Grid.parse(PE1)
