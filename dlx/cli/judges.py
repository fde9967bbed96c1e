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
POJ case with 0 columns has no row lines to read).  A first line holding a
single number is the number of cases (the "T" line of many judges' inputs): it is
checked against the cases that follow.  Rows become options labelled 1, 2, ...
and columns primary items 1, 2, ..., so an empty column makes a case impossible.

>>> import io
>>> out, err = io.StringIO(), io.StringIO()
>>> solve_batch("hust", io.StringIO("3 3\\n1 1\\n2 2 3\\n1 2\\n2 2\\n1 1\\n1 1\\n"), out, err)
1
>>> print(out.getvalue(), end="")
2 1 2
NO
>>> solve_batch("matrix", io.StringIO("2\\n2 2\\n1 0\\n0 1\\n1 2\\n1 1\\n"), out, err)
0
>>> print(out.getvalue().splitlines()[2:])
['Yes, I found it', 'Yes, I found it']

A malformed case is reported on ``err`` with its line, the other cases are
still answered, and the result follows the batch rule of
:data:`dlx.cli.common.BATCH_RULE` (2: some input was bad):

>>> out, err = io.StringIO(), io.StringIO()
>>> solve_batch("hust", io.StringIO("2 2\\n1 1\\n1 3\\n1 1\\n1 1\\n"), out, err, name="in.txt")
2
>>> print(err.getvalue(), end="")
dlx: in.txt:3: case 1: column 3 is out of range: there are 2 columns
>>> print(out.getvalue(), end="")
1 1
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Protocol

import dlx
from dlx import BudgetExceeded, ExactCover, ExactCoverError, FormatError
from dlx.lines import MAX_LINE_LENGTH

from .common import Batch, Deadline, add_stats, message, stopped

__all__ = ["FORMATS", "MAX_LINE_LENGTH", "MAX_SIZE", "read_hust", "read_matrix", "read_lines",
           "solve_batch"]

#: The batch formats understood by :func:`solve_batch`.
FORMATS = ("hust", "matrix")

MAX_SIZE = 1_000_000
"""The largest number of rows or columns a case may announce."""


class _Reader(Protocol):
    def readline(self, size: int = ..., /) -> str: ...


class _Writer(Protocol):
    def write(self, text: str, /) -> object: ...


class _Fatal(FormatError):
    """A fault after which the rest of the input cannot be read reliably."""


class _Whole(FormatError):
    """A fault of the input as a whole (no cases, a wrong number of cases), not of a case."""


Case = tuple[int, "ExactCover | FormatError"]


def read_lines(stream: _Reader | Iterable[str], max_length: int | None = None
               ) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number from 1, tokens) for every non-blank line of a judge's input,
    read by :func:`dlx.read_lines` (``max_length``, default :data:`MAX_LINE_LENGTH`); a
    longer line, or undecodable text, raises :class:`~dlx.FormatError`.  A list of lines
    is accepted too (handy in tests).

    >>> list(read_lines(["3\\n", "\\n", "1 2\\n"]))
    [(1, ['3']), (3, ['1', '2'])]
    """
    cap = MAX_LINE_LENGTH if max_length is None else max_length
    try:
        for number, text in dlx.read_lines(stream, max_length=cap):
            tokens = text.split()
            if tokens:
                yield number, tokens
    except FormatError as e:
        raise _Fatal(e.reason, e.line) from None


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


def _cases(fmt: str, stream: _Reader, max_length: int | None = None) -> Iterator[Case]:
    """Yield (header line, problem or error) per case; after a fatal error, stop.

    A leading line of one number announces how many cases follow; a different
    number of cases is reported after them.
    """
    hust = fmt == "hust"
    lines = read_lines(stream, max_length)
    announced: tuple[int, int] | None = None     # (line, number of cases)
    seen = 0
    try:
        for start, tokens in lines:
            if seen == 0 and announced is None and len(tokens) == 1:
                try:
                    announced = (start, _int(tokens[0], "the number of cases", start, 0,
                                             MAX_SIZE))
                except FormatError as e:
                    yield start, _Whole(e.reason, start)
                    return
                continue
            rows, cols = _header(start, tokens)
            seen += 1
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
        return
    if announced is not None and announced[1] != seen:
        line, t = announced
        yield line, _Whole(f"the first line announces {t:,} cases, but the input has"
                                f" {seen:,}", line)
    elif announced is None and seen == 0:
        yield 1, _Whole("no cases: the input is empty", 1)


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
                max_nodes: int | None = None, count: bool = False, limit: int | None = None,
                deadline: Deadline | None = None, stats: dlx.Stats | None = None,
                batch: Batch | None = None, name: str = "<input>",
                max_length: int | None = None) -> int:
    """Answer every case of ``stream`` on ``out``, one line each, in order.

    Parameters
    ----------
    fmt : "hust" or "matrix"
    stream, out, err : text streams
        A malformed case gets no answer on ``out`` and one line on ``err``
        (``dlx: NAME:LINE: case k: what is wrong``); reading goes on with the next
        case unless the fault makes the rest unreadable (a bad header, a missing row).
    max_nodes : int or None
        Node budget per case; a case that runs out gets no answer and a line on ``err``.
    count, limit : bool, int or None
        Answer each case with its number of solutions (at most ``limit``) instead.
    deadline : Deadline or None
        The time limit of the whole run; once it has passed, the case being searched
        and the rest get no answer.
    stats : dlx.Stats or None
        Filled with the total over the cases.
    batch : Batch or None
        What happened to the cases is added to it (for a run over several files).
    name : str
        The input's name in messages.
    max_length : int or None
        The longest line read (default :data:`MAX_LINE_LENGTH`).

    Returns
    -------
    int
        The exit code of the batch rule (:data:`dlx.cli.common.BATCH_RULE`) for the
        cases seen here: 2 if any case was malformed, else 124 if any ran out of budget
        or time, else 1 if any had no solution, else 0.
    """
    if fmt not in FORMATS:
        raise ExactCoverError(f"unknown batch format {fmt!r}: use 'hust' or 'matrix'")
    mine = Batch()
    total = dlx.Stats() if stats is None else stats
    flush = getattr(out, "flush", None)
    k = 0
    for line, case in _cases(fmt, stream, max_length):
        if isinstance(case, FormatError):
            where = ""
            if not isinstance(case, _Whole):    # a fault of the case being read
                k += 1
                where = f"case {k}: "
            err.write(message(where + case.reason, name, case.line) + "\n")
            mine.bad()
            continue
        k += 1
        if deadline is not None and deadline.expired():
            err.write(message(f"time limit of {deadline.limit:g} s reached: case {k} and the"
                              " rest are not answered", name) + "\n")
            mine.unknown()
            break
        one = dlx.Stats()
        timeout = None if deadline is None else deadline.remaining()
        try:
            if count:
                n = dlx.count(case, limit=limit, max_nodes=max_nodes, timeout=timeout,
                              stats=one)
                found = n > 0
                answer = str(n)
            else:
                sol = dlx.first(case, max_nodes=max_nodes, timeout=timeout, stats=one)
                found = sol is not None
                if fmt == "matrix":
                    answer = "Yes, I found it" if found else "It is impossible"
                elif sol is None:
                    answer = "NO"
                else:
                    answer = " ".join(map(str, [len(sol), *sorted(sol)]))  # type: ignore[type-var]
        except BudgetExceeded as e:
            add_stats(total, one)
            seconds = None if deadline is None else deadline.limit
            if count:           # as dlx solve: the count so far, marked unfinished
                out.write(f"{e.found if isinstance(e.found, int) else 0}+\n")
                err.write(message(f"case {k}: {stopped(e, seconds)} reached: the count is"
                                  " unfinished", name, line) + "\n")
            else:
                err.write(message(f"case {k}: {stopped(e, seconds)} reached; the answer is"
                                  " unknown", name, line) + "\n")
            mine.unknown()
            continue
        add_stats(total, one)
        if not found:
            mine.none()
        out.write(answer + "\n")
        if flush is not None:
            flush()
    if batch is not None:
        batch.bad_inputs += mine.bad_inputs
        batch.unknowns += mine.unknowns
        batch.nones += mine.nones
        batch.cases += k
    return mine.code

