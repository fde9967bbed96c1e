"""Boards as programs hold them (problems.sudoku.boards, as_grid), and 16x16 notations.

LeetCode 37's board (lists of one-character strings, "." blanks) is filled in
place by sudoku.solve_board; every other shape people pass (lists of ints, row
strings, numpy arrays) is read by sudoku.solve and friends.  Answers are checked
against the one-line notation's.
"""

from __future__ import annotations

import pytest
from sudoku_helpers import IMPOSSIBLE, PE1, PE1_SOLUTION, rules_ok

from problems import sudoku
from problems.sudoku import Grid, SudokuFormatError

LEETCODE = [["5", "3", ".", ".", "7", ".", ".", ".", "."],
            ["6", ".", ".", "1", "9", "5", ".", ".", "."],
            [".", "9", "8", ".", ".", ".", ".", "6", "."],
            ["8", ".", ".", ".", "6", ".", ".", ".", "3"],
            ["4", ".", ".", "8", ".", "3", ".", ".", "1"],
            ["7", ".", ".", ".", "2", ".", ".", ".", "6"],
            [".", "6", ".", ".", ".", ".", "2", "8", "."],
            [".", ".", ".", "4", "1", "9", ".", ".", "5"],
            [".", ".", ".", ".", "8", ".", ".", "7", "9"]]
LEETCODE_SOLUTION = ("534678912672195348198342567859761423426853791"
                     "713924856961537284287419635345286179")


def copy(board):
    return [list(row) for row in board]


def ints(board):
    return [[0 if c == "." else int(c) for c in row] for row in board]


@pytest.mark.parametrize("shape", ["lists of str", "row strings", "spaced row strings",
                                   "lists of int", "flat str", "flat int", "tuples"])
def test_solve_reads_every_board_shape(shape):
    board = {"lists of str": copy(LEETCODE),
             "row strings": ["".join(row) for row in LEETCODE],
             "spaced row strings": [" ".join(row) for row in LEETCODE],
             "lists of int": ints(LEETCODE),
             "flat str": [c for row in LEETCODE for c in row],
             "flat int": [v for row in ints(LEETCODE) for v in row],
             "tuples": tuple(tuple(row) for row in LEETCODE)}[shape]
    assert str(sudoku.solve(board)) == LEETCODE_SOLUTION
    assert sudoku.classify(board) is sudoku.Verdict.UNIQUE


def test_solve_board_fills_leetcode_37_in_place():
    board = copy(LEETCODE)
    rows = [row for row in board]
    assert sudoku.solve_board(board) is board
    assert all(a is b for a, b in zip(board, rows, strict=True))      # the same row lists
    assert "".join("".join(row) for row in board) == LEETCODE_SOLUTION
    assert all(isinstance(c, str) and len(c) == 1 for row in board for c in row)
    assert rules_ok([int(c) for row in board for c in row], 9)


def test_solve_board_keeps_each_shape_and_notation():
    b = ints(LEETCODE)
    assert sudoku.solve_board(b)[0] == [5, 3, 4, 6, 7, 8, 9, 1, 2]
    b = ["".join(row) for row in LEETCODE]
    assert "".join(sudoku.solve_board(b)) == LEETCODE_SOLUTION
    b = [" ".join(row) for row in LEETCODE]
    assert sudoku.solve_board(b)[0] == "5 3 4 6 7 8 9 1 2"
    b = [v for row in ints(LEETCODE) for v in row]
    assert sudoku.solve_board(b) == [int(c) for c in LEETCODE_SOLUTION]


def test_solve_board_16x16_in_its_own_notation():
    g = sudoku.generate(box=(4, 4), seed=3)
    solved = sudoku.solve(g).values
    numbers = [[str(v) if v else "." for v in g.values[r * 16:(r + 1) * 16]] for r in range(16)]
    assert sudoku.solve_board(numbers) == [[str(v) for v in solved[r * 16:(r + 1) * 16]]
                                           for r in range(16)]
    hexa = [["0123456789ABCDEF"[v - 1] if v else "." for v in g.values[r * 16:(r + 1) * 16]]
            for r in range(16)]
    assert sudoku.solve_board(hexa) == [["0123456789ABCDEF"[v - 1]
                                         for v in solved[r * 16:(r + 1) * 16]] for r in range(16)]


def test_solve_board_without_a_solution_raises_and_leaves_the_board():
    board = copy(LEETCODE)
    board[0][2] = "5"                       # two 5s in row 1
    before = copy(board)
    # a no-solution error, not a format error (issue 24): the board was read fine
    with pytest.raises(sudoku.NoSolutionError, match="no solution: digit 5 appears twice in row 1"
                       ) as info:
        sudoku.solve_board(board)
    assert info.value.illegal and not isinstance(info.value, SudokuFormatError)
    assert isinstance(info.value, ValueError)
    assert board == before
    # legal givens that no filling fits
    impossible = [list(IMPOSSIBLE[r * 9:(r + 1) * 9].replace("0", ".")) for r in range(9)]
    assert sudoku.is_legal(impossible)
    with pytest.raises(sudoku.NoSolutionError, match="givens break no rule, but no filling fits"
                       ) as info:
        sudoku.solve_board(impossible)
    assert not info.value.illegal
    with pytest.raises(TypeError, match="in place"):
        sudoku.solve_board(tuple(LEETCODE))


def test_bad_boards_name_the_cell_or_row():
    board = copy(LEETCODE)
    board[2][4] = "x"
    with pytest.raises(SudokuFormatError, match="row 3"):
        sudoku.solve(board)
    board[2][4] = ["5"]
    with pytest.raises(SudokuFormatError, match="r3c5"):
        sudoku.solve(board)
    with pytest.raises(SudokuFormatError, match="row 2 has 8 cells"):
        sudoku.solve([[0] * 9] + [[0] * 8] + [[0] * 9] * 7)


def test_numpy_boards():
    # numpy is in the dev extra (CI's wheel run, a base install, deselects this test)
    import numpy as np

    a = np.array(ints(LEETCODE))
    assert str(sudoku.solve(a)) == LEETCODE_SOLUTION
    assert sudoku.solve_board(a) is a and a.tolist()[0] == [5, 3, 4, 6, 7, 8, 9, 1, 2]
    s = np.array(LEETCODE)
    assert str(sudoku.solve(s)) == LEETCODE_SOLUTION
    sudoku.solve_board(s)
    assert "".join(s.ravel().tolist()) == LEETCODE_SOLUTION
    assert str(sudoku.solve(np.array([int(c) for c in PE1]))) == PE1_SOLUTION


# ----------------------------------------------------------------------- 16x16 notations


@pytest.mark.slow
def test_16x16_notations():
    g = sudoku.generate(box=(4, 4), seed=8)
    letters = str(g)
    hexa = "".join("." if v == 0 else "0123456789ABCDEF"[v - 1] for v in g.values)
    assert Grid.parse(letters) == Grid.parse(hexa) == g
    assert Grid.parse(letters.replace(".", "0")) == g       # 0 blanks, with a G somewhere
    assert Grid.parse(hexa.lower()) == g
    full = sudoku.solve(g)
    assert Grid.parse(str(full)) == full                    # our notation always round-trips
    with pytest.raises(SudokuFormatError, match="is 0 a blank"):
        Grid.parse("".join("0123456789ABCDEF"[v - 1] for v in full.values))


@pytest.mark.slow
def test_reading_16_lines_of_16_numbers_is_one_puzzle():
    g = sudoku.generate(box=(4, 4), seed=8)
    rows = [g.values[r * 16:(r + 1) * 16] for r in range(16)]
    text = "\n".join(" ".join(map(str, row)) for row in rows)
    assert [e.grid for e in sudoku.read_puzzles(text)] == [g]
    # 16-cell lines that stop short of 16 rows are 4x4 puzzles after all
    small = ["1 0 0 0 0 0 3 0 0 4 0 0 0 0 0 2"] * 3
    entries = list(sudoku.read_puzzles("\n".join(small) + "\n\n" + text))
    assert [e.grid.size for e in entries] == [4, 4, 4, 16]
    assert [e.line for e in entries] == [1, 2, 3, 5]
