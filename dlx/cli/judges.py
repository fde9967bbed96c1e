"""Batches of exact-cover problems in two online judges' formats (``dlx solve --format``).

* **HUST 1017** ("Exact cover"): cases until the end of the input, each a line
  ``N M`` (rows, columns) and then N lines ``c j1 ... jc``: a row with c ones, in
  columns j1..jc numbered from 1.  The answer to a case is ``k r1 ... rk``, the
  number of chosen rows and their numbers (from 1, ascending), or ``NO``.
* **POJ 3740** ("Easy Finding"): cases until the end of the input, each a line
  ``M N`` (rows, columns) and then M lines of N numbers 0 or 1.  The answer is
  ``Yes, I found it`` when some rows have exactly one 1 in every column, else
  ``It is impossible``.

Every row of a case must be on its own line; blank lines are skipped (so a
POJ case with 0 columns has no row lines to read).  Rows
become options labelled 1, 2, ... and columns primary items 1, 2, ..., so an
empty column makes a case impossible.

>>> import io
>>> out, err = io.StringIO(), io.StringIO()
>>> solve_batch("hust", io.StringIO("3 3\\n1 1\\n2 2 3\\n1 2\\n2 2\\n1 1\\n1 1\\n"), out, err)
0
>>> print(out.getvalue(), end="")
2 1 2
NO
>>> solve_batch("matrix", io.StringIO("2 2\\n1 0\\n0 1\\n1 2\\n1 0\\n"), out, err)
0
>>> print(out.getvalue().splitlines()[2:])
['Yes, I found it', 'It is impossible']

A malformed case is reported on ``err`` with its line, the other cases are
still answered, and the result is 2:

>>> out, err = io.StringIO(), io.StringIO()
>>> solve_batch("hust", io.StringIO("2 2\\n1 1\\n1 3\\n1 1\\n1 1\\n"), out, err)
2
>>> print(err.getvalue(), end="")
case 1: line 3: column 3 is out of range: there are 2 columns
>>> print(out.getvalue(), end="")
1 1
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Protocol

from dlx import BudgetExceeded, ExactCover, ExactCoverError, FormatError, first

from .common import EXIT_BUDGET, EXIT_FOUND, EXIT_INPUT

__all__ = ["FORMATS", "MAX_LINE_LENGTH", "MAX_SIZE", "read_hust", "read_matrix", "read_lines",
           "solve_batch"]

#: The batch formats understood by :func:`solve_batch`.
FORMATS = ("hust", "matrix")

MAX_LINE_LENGTH = 1_000_000
"""The longest line (characters, without its line break) the readers accept."""

MAX_SIZE = 1_000_000
"""The largest number of rows or columns a case may announce."""


class _Reader(Protocol):
    def readline(self, size: int = ..., /) -> str: ...


class _Writer(Protocol):
    def write(self, text: str, /) -> object: ...


class _ListReader:
    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)

    def readline(self, size: int = -1, /) -> str:
        return next(self._lines, "")


class _Fatal(FormatError):
    """A fault after which the rest of the input cannot be read reliably."""


Case = tuple[int, "ExactCover | FormatError"]


def read_lines(stream: _Reader | Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number from 1, tokens) for every non-blank line of a judge's input.

    Reads with ``readline(limit)``, so one huge line costs no more than the cap;
    a longer line, or undecodable text, raises :class:`~dlx.FormatError`.  A list
    of lines is accepted too (handy in tests).

    >>> list(read_lines(["3\\n", "\\n", "1 2\\n"]))
    [(1, ['3']), (3, ['1', '2'])]
    """
    if not hasattr(stream, "readline"):
        stream = _ListReader(stream)
    number = 0
    while True:
        number += 1
        try:
            line = stream.readline(MAX_LINE_LENGTH + 2)
        except UnicodeDecodeError as e:
            raise _Fatal(f"the input is not valid text ({e.reason})", number) from None
        if not line:
            return
        if len(line.rstrip("\r\n")) > MAX_LINE_LENGTH:
            raise _Fatal(f"line is longer than {MAX_LINE_LENGTH:,} characters", number)
        tokens = line.split()
        if tokens:
            yield number, tokens


def _int(token: str, what: str, number: int, low: int, high: int) -> int:
    try:
        value = int(token)
    except ValueError:
        raise FormatError(f"{what} must be a whole number, not {token[:20]!r}", number) from None
    if not low <= value <= high:
        raise FormatError(f"{what} is {value}, not between {low} and {high:,}", number)
    return value


def _header(number: int, tokens: list[str]) -> tuple[int, int]:
    if len(tokens) != 2:
        raise _Fatal("expected a case header of 2 numbers (rows, columns),"
                     f" got {len(tokens)} items", number)
    try:
        return (_int(tokens[0], "the number of rows", number, 0, MAX_SIZE),
                _int(tokens[1], "the number of columns", number, 0, MAX_SIZE))
    except FormatError as e:
        raise _Fatal(e.reason, number) from None


def _hust_row(number: int, tokens: list[str], m: int) -> list[int]:
    c = _int(tokens[0], "the row's count c", number, 0, m)
    if len(tokens) != c + 1:
        raise FormatError(f"the row says it has {c} ones but lists {len(tokens) - 1}", number)
    cols = [_int(t, "a column", number, -MAX_SIZE, MAX_SIZE) for t in tokens[1:]]
    for j in cols:
        if not 1 <= j <= m:
            raise FormatError(f"column {j} is out of range: there are {m} columns", number)
    if len(set(cols)) != len(cols):
        raise FormatError("the row names a column twice", number)
    return cols


def _matrix_row(number: int, tokens: list[str], n: int) -> list[int]:
    if len(tokens) != n:
        raise FormatError(f"expected {n} numbers 0 or 1, got {len(tokens)}", number)
    for k, t in enumerate(tokens, 1):
        if t not in ("0", "1"):
            raise FormatError(f"entry {k} is {t[:20]!r}, not 0 or 1", number)
    return [j for j, t in enumerate(tokens, 1) if t == "1"]


def _cases(fmt: str, stream: _Reader) -> Iterator[Case]:
    """Yield (header line, problem or error) per case; after a fatal error, stop."""
    hust = fmt == "hust"
    lines = read_lines(stream)
    try:
        for start, tokens in lines:
            rows, cols = _header(start, tokens)
            options: dict[Hashable, list[int]] = {}
            fault: FormatError | None = None
            for r in range(1, rows + 1 if hust or cols else 1):   # 0 columns: blank rows
                got = next(lines, None)
                if got is None:
                    raise _Fatal(f"the case announces {rows} rows, but the input ends after"
                                 f" {r - 1}", start)
                number, tokens = got
                try:
                    items = _hust_row(number, tokens, cols) if hust else \
                        _matrix_row(number, tokens, cols)
                except FormatError as e:
                    fault = fault or e
                    continue
                if items:
                    options[r] = items
            yield start, fault or ExactCover(options, primary=range(1, cols + 1))
    except _Fatal as e:
        yield e.line, FormatError(e.reason, e.line)


def read_hust(stream: _Reader) -> Iterator[ExactCover | FormatError]:
    """The cases of a HUST 1017 input: an ExactCover (labels = row numbers) or the error.

    >>> import io
    >>> for case in read_hust(io.StringIO("1 2\\n2 1 2\\n1 1\\n1 5\\n")):
    ...     print(case)
    ExactCover(1 options, 2 primary items, 0 secondary items)
    line 4: column 5 is out of range: there are 1 columns
    """
    return (case for _, case in _cases("hust", stream))


def read_matrix(stream: _Reader) -> Iterator[ExactCover | FormatError]:
    """The cases of a POJ 3740 input: an ExactCover (labels = row numbers) or the error."""
    return (case for _, case in _cases("matrix", stream))


def solve_batch(fmt: str, stream: _Reader, out: _Writer, err: _Writer, *,
                max_nodes: int | None = None) -> int:
    """Answer every case of ``stream`` on ``out``, one line each, in order.

    Parameters
    ----------
    fmt : "hust" or "matrix"
    stream, out, err : text streams
        A malformed case gets no answer on ``out`` and one line on ``err``
        (``case k: line n: what is wrong``); reading goes on with the next case
        unless the fault makes the rest unreadable (a bad header, a missing row).
    max_nodes : int or None
        Node budget per case; a case that runs out gets no answer and a line on ``err``.

    Returns
    -------
    int
        2 if any case was malformed, else 124 if any ran out of budget, else 0.
    """
    if fmt not in FORMATS:
        raise ExactCoverError(f"unknown batch format {fmt!r}: use 'hust' or 'matrix'")
    status = EXIT_FOUND
    for k, (_, case) in enumerate(_cases(fmt, stream), 1):
        if isinstance(case, FormatError):
            err.write(f"case {k}: {case}\n")
            status = EXIT_INPUT
            continue
        try:
            sol = first(case, max_nodes=max_nodes)
        except BudgetExceeded as e:
            err.write(f"case {k}: {e}; the answer is unknown\n")
            status = status or EXIT_BUDGET
            continue
        if fmt == "matrix":
            out.write("Yes, I found it\n" if sol is not None else "It is impossible\n")
        elif sol is None:
            out.write("NO\n")
        else:
            out.write(" ".join(map(str, [len(sol), *sorted(sol)])) + "\n")  # type: ignore[type-var]
        flush = getattr(out, "flush", None)
        if flush is not None:
            flush()
    return status
