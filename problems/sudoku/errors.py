"""The errors of the Sudoku package, and the checks of the arguments its functions share.

Every error the package raises for what it is given is a :class:`SudokuError`,
which is a :class:`dlx.ExactCoverError` (so a :class:`ValueError`): an argument of
the wrong kind or out of range (the message names the argument and what it
takes), a puzzle that could not be read (:class:`SudokuFormatError`), and, in
their modules, a puzzle without exactly one solution where one is needed
(``NotUniqueError``), a board with no solution to fill in (:class:`NoSolutionError`)
and a request that no generated puzzle met (``GenerateError``).

>>> try:
...     whole(2.5, "tries", low=1)
... except SudokuError as e:
...     print(e)
tries must be a whole number from 1 up, not 2.5
>>> seconds(None, "timeout") is None, seconds(1, "timeout")
(True, 1.0)
"""

from __future__ import annotations

import math
from typing import Any

import dlx

__all__ = ["SudokuError", "SudokuFormatError", "NoSolutionError", "deadline_of", "whole",
           "seconds", "seed_of"]


class SudokuError(dlx.ExactCoverError):
    """An argument or input the Sudoku package cannot use; the message says why.

    It is a :class:`ValueError` (through :class:`dlx.ExactCoverError`).

    >>> from problems import sudoku
    >>> try:
    ...     sudoku.random_grid(box=(2, 2, 2))
    ... except SudokuError as e:
    ...     print(e)
    box must be a pair (rows, cols) of whole numbers, not (2, 2, 2)
    """


class SudokuFormatError(SudokuError):
    """A puzzle could not be read: ``line`` and ``column`` (1-based) say where, if known.

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


class NoSolutionError(SudokuError):
    """A puzzle or board that has no solution where one is needed (:func:`solve_board`).

    ``illegal`` is True when the givens break a rule (a digit twice in a unit), False
    when they break none but no filling fits.  It is a :class:`ValueError` (through
    :class:`dlx.ExactCoverError`).
    """

    def __init__(self, reason: str, illegal: bool) -> None:
        super().__init__(reason)
        self.illegal = illegal


def whole(value: Any, name: str, *, low: int = 0, high: int | None = None,
          none: bool = False) -> Any:
    """``value`` if it is a whole number from ``low`` (to ``high``), or None when ``none``
    allows it; else :class:`SudokuError` naming ``name``.  (True and 2.0 are not whole
    numbers here.)

    >>> whole(3, "count"), whole(None, "limit", none=True)
    (3, None)
    >>> try:
    ...     whole(10**400, "givens", high=81)
    ... except SudokuError as e:
    ...     print(e)
    givens must be a whole number from 0 to 81, not a number of about 401 digits
    """
    if value is None and none:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and low <= value and \
            (high is None or value <= high):
        return value
    span = f"from {low} up" if high is None else f"from {low} to {high:,}"
    also = " or None" if none else ""
    raise SudokuError(f"{name} must be a whole number {span}{also}, not {_shown(value)}")


def seconds(value: Any, name: str = "timeout") -> float | None:
    """``value`` as a number of seconds above 0 (a finite int or float), or None: no limit.

    >>> seconds(-1)
    Traceback (most recent call last):
    ...
    problems.sudoku.errors.SudokuError: timeout must be a number of seconds above 0 or None, not -1
    """
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            x = float(value)
        except OverflowError:       # an int too large for a float: no finite limit
            x = math.inf
        if 0 < x < math.inf:
            return x
    raise SudokuError(f"{name} must be a number of seconds above 0 or None, not {_shown(value)}")


def seed_of(value: Any, name: str = "seed") -> int | None:
    """``value`` if it is a whole number (any size, negative too) or None (a fresh one).

    >>> seed_of("7")
    Traceback (most recent call last):
    ...
    problems.sudoku.errors.SudokuError: seed must be a whole number or None, not '7'
    """
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise SudokuError(f"{name} must be a whole number or None, not {_shown(value)}")


def _shown(value: Any) -> str:
    """``repr(value)`` for a message, cut to 40 characters (a huge whole number by its
    size: Python will not write one of more than 4,300 digits).

    >>> _shown("x" * 50), _shown(-10**400)
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...", 'a negative number of about 401 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        digits = int(abs(value).bit_length() * math.log10(2)) + 1
        return f"a {'negative ' if value < 0 else ''}number of about {digits:,} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def deadline_of(timeout: Any) -> dlx.Deadline:
    """The :class:`dlx.Deadline` of a ``timeout=`` argument, checked first by :func:`seconds`
    (so a bad one is a :class:`SudokuError` naming ``timeout``).

    >>> deadline_of(None).remaining() is None, 0 < deadline_of(5).remaining() <= 5
    (True, True)
    """
    return dlx.Deadline(seconds(timeout))
