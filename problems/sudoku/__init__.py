"""Sudoku as exact cover: every size, Sudoku-X and jigsaw, verdicts, weighted scores.

An N x N Sudoku is an exact-cover problem with one option (row of the matrix)
``Placement(row, col, digit)`` per candidate and one item (column) per rule: a
digit in every cell ``("cell", r, c)``, every digit once in every row
``("row", r, d)``, column ``("col", c, d)`` and box ``("box", b, d)``, plus
``("unit", k, d)`` for extra units such as the diagonals of Sudoku-X.  Rows,
columns and digits are numbered from 0, 0 and 1.  The unit structure is data
(a :class:`Shape`), so Sudoku-X and jigsaw need no special code.

>>> from problems import sudoku
>>> puzzle = sudoku.Grid.parse(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> print(sudoku.solve(puzzle).pretty())
4 8 3 | 9 2 1 | 6 5 7
9 6 7 | 3 4 5 | 8 2 1
2 5 1 | 8 7 6 | 4 9 3
------+-------+------
5 4 8 | 1 3 2 | 9 7 6
7 2 9 | 5 6 4 | 1 3 8
1 3 6 | 7 9 8 | 2 4 5
------+-------+------
3 7 2 | 6 8 9 | 5 1 4
8 1 4 | 2 5 3 | 7 6 9
6 9 5 | 4 1 7 | 3 8 2
>>> sudoku.classify(puzzle)
<Verdict.UNIQUE: 'Unique'>
>>> sudoku.count("." * 16)              # the empty 4x4 grid
288
>>> print(sudoku.classify("11" + "." * 79))
Illegal
>>> for clash in sudoku.explain("11" + "." * 79):
...     print(clash)
digit 1 appears twice in row 1 (r1c1, r1c2)
digit 1 appears twice in box 1 (r1c1, r1c2)

The NOIP 2009 "target Sudoku" score (weights 6 on the outer ring up to 10 in the
centre) of the best completion, found by branch and bound:

>>> sudoku.max_score('''
... 7 0 0 9 0 0 0 0 1
... 1 0 0 0 0 5 9 0 0
... 0 0 0 2 0 0 0 8 0
... 0 0 5 0 2 0 0 0 3
... 0 0 0 0 0 0 6 4 8
... 4 1 3 0 0 0 0 0 0
... 0 0 7 0 0 2 0 9 0
... 2 0 1 0 6 0 8 0 4
... 0 8 0 5 0 4 0 1 2''')
2829

Files of puzzles go faster through :func:`solve_lines`, :func:`batch`,
:func:`solve_many`, :func:`count_many` and :func:`classify_many`: with the
compiled core, each shape's full matrix is built once and the core places every
puzzle's givens itself (same answers and node counts as the functions above):

>>> solve_lines(["1..." "..3." ".4.." "...2", "11" + "." * 14])
['1324423124133142', None]

The exact-cover problem itself, for stepping through in a notebook:

>>> problem = sudoku.encode(puzzle)
>>> len(problem.primary), len(problem)
(324, 191)
>>> import dlx
>>> sudoku.decode(dlx.first(problem)) == sudoku.solve(puzzle)
True

The package, one module per concern; each imports only modules below it (and
the public ``dlx`` API), so there are no cycles::

    generate   generate, generate_many, random_grid: unique puzzles (up to
               MAX_GENERATE_SIZE), of a level if asked
    steer      a puzzle of a rare level, made from a seed puzzle known to need it (the data
               file seeds.txt, package data)
    minimal    minimize, is_minimal: givens removed while the puzzle stays unique
    drive      puzzles in the making side by side, their searches sent to the engine together
    symmetry   SYMMETRIES, orbits: the patterns of givens
    rate       rate, solve_steps, explain (clashes, or the human solution): Rating
    techniques Level, TECHNIQUES, Step: the human techniques and their finders
    batches    Outcome, batch, solve_lines, solve/count/classify_many; the engine code
    boards     solve_board: a LeetCode 37 board (lists of "5" and ".") filled in place
    scoring    target_weights, score, max_score (branch and bound)
    _maxscore  max_score's search and propagation
    _bounds    max_score's weight reduction and bounds
    verdicts   Verdict, Clash, explain, is_legal, solve, solutions, count, classify
    encoding   encode (a puzzle as a dlx.ExactCover), decode
    reading    Entry, read_puzzles, MAX_LINE: files of puzzles
    grid       Grid, as_grid
    render     figure (a picture, with dlx.viz); the pretty grid, its rich Text
    matrix     a shape's full matrix laid out once; a puzzle's givens as forced options
    notations  text -> cell values, and the one-line notation
    shapes     Shape, SIZES, MAX_SIZE
    tables     Unit, Placement, and the tables derived from a shape, once per shape
    errors     SudokuError (every error of the package), SudokuFormatError, NoSolutionError;
               argument checks
"""

from __future__ import annotations

from .batches import Outcome, batch, classify_many, count_many, solve_lines, solve_many
from .boards import solve_board
from .encoding import decode, encode
from .errors import NoSolutionError, SudokuError, SudokuFormatError
from .generate import (
    MAX_GENERATE_SIZE,
    SYMMETRIES,
    GenerateError,
    generate,
    generate_many,
    orbits,
    random_grid,
)
from .grid import Grid, as_grid
from .grid import PuzzleLike as PuzzleLike
from .minimal import is_minimal, minimize
from .rate import NotUniqueError, Rating, explain, rate, solve_steps
from .reading import MAX_LINE as MAX_LINE
from .reading import Entry, read_puzzles
from .render import figure
from .scoring import max_score, score, target_weights
from .shapes import MAX_SIZE, SIZES, Shape
from .tables import Placement, Unit
from .techniques import TECHNIQUES, Level, Step
from .verdicts import Clash, Verdict, classify, count, is_legal, solutions, solve

__all__ = [
    "Placement", "Unit", "Shape", "Grid", "Verdict", "Clash", "Entry", "SudokuError",
    "SudokuFormatError", "NoSolutionError", "MAX_SIZE",
    "encode", "decode", "solve", "solutions", "count", "classify", "explain", "is_legal",
    "max_score", "score", "target_weights", "as_grid", "read_puzzles", "SIZES",
    "Outcome", "batch", "solve_lines", "solve_many", "count_many", "classify_many",
    "generate", "generate_many", "minimize", "is_minimal", "random_grid", "orbits", "SYMMETRIES",
    "MAX_GENERATE_SIZE",
    "GenerateError", "rate", "solve_steps", "Rating", "Step", "Level", "TECHNIQUES",
    "NotUniqueError", "solve_board", "figure",
]
