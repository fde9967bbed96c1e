"""The one error of the Sudoku package: a puzzle (or region grid) that could not be read."""

from __future__ import annotations

import dlx

__all__ = ["SudokuFormatError"]


class SudokuFormatError(dlx.ExactCoverError):
    """A puzzle could not be read: ``line`` and ``column`` (1-based) say where, if known.

    It is a :class:`ValueError` (through :class:`dlx.ExactCoverError`).

    >>> from problems.sudoku import Grid
    >>> try:
    ...     Grid.parse("1234x" + "." * 76)
    ... except SudokuFormatError as e:
    ...     print(e)
    line 1, column 5: unexpected character 'x' (a 9x9 grid uses 1-9; blank . or 0)
    """

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        if line is None:
            where = ""
        elif column is None:
            where = f"line {line}: "
        else:
            where = f"line {line}, column {column}: "
        super().__init__(where + reason)
