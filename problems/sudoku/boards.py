"""Boards as programs hold them: LeetCode 37's lists of ``"5"`` and ``"."``, filled in place.

Every function of the package takes a board wherever it takes a puzzle
(:func:`~problems.sudoku.as_grid`: lists of lists of one-character strings or
ints, lists of row strings, numpy arrays); :func:`solve_board` also writes the
solution back into the board itself, in the board's own notation, as LeetCode
37 ("Sudoku Solver") asks.

>>> board = [["5", "3", ".", ".", "7", ".", ".", ".", "."],
...          ["6", ".", ".", "1", "9", "5", ".", ".", "."],
...          [".", "9", "8", ".", ".", ".", ".", "6", "."],
...          ["8", ".", ".", ".", "6", ".", ".", ".", "3"],
...          ["4", ".", ".", "8", ".", "3", ".", ".", "1"],
...          ["7", ".", ".", ".", "2", ".", ".", ".", "6"],
...          [".", "6", ".", ".", ".", ".", "2", "8", "."],
...          [".", ".", ".", "4", "1", "9", ".", ".", "5"],
...          [".", ".", ".", ".", "8", ".", ".", "7", "9"]]
>>> solve_board(board) is board
True
>>> board[0]
['5', '3', '4', '6', '7', '8', '9', '1', '2']
"""

from __future__ import annotations

from typing import Any, TypeVar

from .errors import NoSolutionError
from .grid import Grid, as_grid
from .notations import _VALUE_CHAR, _tokens
from .shapes import Shape
from .verdicts import explain, solve

__all__ = ["solve_board"]

_Board = TypeVar("_Board")

_HEX = "0123456789ABCDEF"


def solve_board(board: _Board, *, box: tuple[int, int] | None = None,
                shape: Shape | None = None, max_nodes: int | None = None) -> _Board:
    """Fill the blank cells of ``board`` with a solution, in place, and return the board.

    Parameters
    ----------
    board : list of lists, list of row strings, or a numpy array
        LeetCode 37's board (a list of 9 lists of 9 one-character strings, ``"."``
        for a blank), or the same with ints (0 for a blank), or a list of row
        strings (``"53..7...."``: each row string is replaced by the filled one),
        or a 2-D numpy array of either.  Cells are written in the board's own
        notation: one-character strings (``"A"``... past 9; hexadecimal when the
        board is written in 0-F), number strings, or ints.
    box, shape : as in :func:`~problems.sudoku.as_grid`
    max_nodes : int or None
        Node budget of the search (:class:`dlx.BudgetExceeded` when it runs out).

    Returns
    -------
    The same ``board`` object, solved (the first solution when there are several).

    Raises
    ------
    SudokuFormatError
        When the board cannot be read.
    NoSolutionError
        When it has no solution (illegal givens, or none that fits); the board is
        then left as it was.  A tuple, which cannot be changed in place, raises
        TypeError.  Both are :class:`~problems.sudoku.SudokuError` (ValueError).

    >>> solve_board(["1...", "..3.", ".4..", "...2"])
    ['1324', '4231', '2413', '3142']
    >>> solve_board([[1, 1, 0, 0]] + [[0] * 4] * 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    problems.sudoku.errors.NoSolutionError: the board has no solution: digit 1 appears twice ...
    """
    if isinstance(board, (tuple, str, bytes)) or not hasattr(board, "__setitem__"):
        raise TypeError("solve_board fills the board in place: give a list of lists, a list"
                        f" of row strings or a numpy array, not {type(board).__name__}"
                        " (sudoku.solve returns the solution of any puzzle)")
    grid = as_grid(board, box, shape)      # type: ignore[arg-type]
    solved = solve(grid, max_nodes=max_nodes)
    if solved is None:
        clashes = explain(grid)
        why = f": {clashes[0]}" if clashes else " (its givens break no rule, but no filling fits)"
        raise NoSolutionError("the board has no solution" + why, illegal=bool(clashes))
    _fill(board, grid, solved)
    return board


def _fill(board: Any, grid: Grid, solved: Grid) -> None:
    """Write ``solved`` into ``board`` (read as ``grid``), in the board's notation."""
    n = grid.size
    rows = board.tolist() if hasattr(board, "tolist") else list(board)
    flat = len(rows) == n * n and not any(isinstance(x, str) and len(x) > 1 for x in rows) \
        and not (rows and hasattr(rows[0], "__len__") and not isinstance(rows[0], str))
    if flat:                                    # n * n cells in one list
        write = _writer(grid, solved, rows)
        for k, x in enumerate(rows):
            board[k] = write(k, x)
        return
    if all(isinstance(row, str) for row in rows):    # row strings: replace each row
        write = _writer(grid, solved, _string_cells(rows, n))
        for r, row in enumerate(rows):
            board[r] = _fill_row_string(row, r, n, write)
        return
    values = [cell for row in rows for cell in row]
    write = _writer(grid, solved, values)
    for r in range(n):
        target = board[r]
        for c in range(n):
            k = r * n + c
            new = write(k, values[k])
            if new is not values[k]:
                target[c] = new


def _writer(grid: Grid, solved: Grid, cells: list[Any]) -> Any:
    """A function (cell index, old cell) -> the cell to write: the old one for a given,
    else the solution's digit in the notation the board's givens use."""
    n = grid.size
    givens = [(x, v) for x, v in zip(cells, grid.values, strict=True) if v]
    texts = [x for x, _ in givens if isinstance(x, str)]
    numbers = any(len(t.strip()) > 1 for t in texts) or (n > 9 and texts and all(
        t.strip().isdigit() for t in texts) and any(x == "0" for x in cells))
    hexadecimal = n == 16 and any(isinstance(x, str) and x.strip().upper() == _HEX[v - 1]
                                  and x.strip().upper() != _VALUE_CHAR[v]
                                  for x, v in givens)
    as_text = bool(texts) or (not givens and any(isinstance(x, str) for x in cells))

    def write(k: int, old: Any) -> Any:
        if grid.values[k]:
            return old
        v = solved.values[k]
        if not as_text:
            return v
        if numbers:
            return str(v)
        return _HEX[v - 1] if hexadecimal else _VALUE_CHAR[v]

    return write


def _string_cells(rows: list[str], n: int) -> list[str]:
    """The cells of row strings, one string per cell, in order."""
    out: list[str] = []
    for row in rows:
        toks = [t for _, t in _tokens(row)]
        out += toks if len(toks) == n else [ch for t in toks for ch in t]
    return out


def _fill_row_string(row: str, r: int, n: int, write: Any) -> str:
    """Row string ``row`` with its blank cells filled."""
    toks = _tokens(row)
    pieces = list(row)
    if len(toks) == n:                          # a token per cell ("5 3 . ." or "10 0 3")
        for c, (col, tok) in reversed(list(enumerate(toks))):
            new = write(r * n + c, tok)
            pieces[col:col + len(tok)] = str(new)
        return "".join(pieces)
    positions = [col + i for col, tok in toks for i in range(len(tok))]
    for c, col in enumerate(positions):
        pieces[col] = str(write(r * n + c, row[col]))
    return "".join(pieces)

