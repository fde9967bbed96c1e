"""Reading files of puzzles: one per line, or grids of N lines, each an :class:`Entry`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any, NamedTuple

from .errors import SudokuError, SudokuFormatError, _shown, whole
from .grid import Grid, _parse_lines
from .notations import _CELL_OF_BYTE, _is_rule, _line_shape
from .shapes import _SIZE_OF_COUNT, SIZES, Shape, _expected_size

__all__ = ["Entry", "MAX_LINE", "read_puzzles"]


class Entry(NamedTuple):
    """One puzzle of a batch: the line it starts on, its text, and a Grid or the error."""

    line: int
    text: str
    grid: Grid | None
    error: SudokuFormatError | None


#: The longest line :func:`read_puzzles` reads whole (longer ones are reported, not stored).
MAX_LINE = 1 << 16

_Block = list[tuple[int, str]]   # numbered lines of a grid being read


def read_puzzles(source: IO[str] | Iterable[str] | str, *, box: tuple[int, int] | None = None,
                 shape: Shape | None = None, max_line: int | None = None) -> Iterator[Entry]:
    """Puzzles of a batch: one per line, or grids of N lines separated by blank lines.

    ``source`` is text (a :class:`~problems.sudoku.Grid` reads as its line), a
    text stream (read a line at a time, each line with a length cap) or an
    iterable of lines (str); anything else raises
    :class:`~problems.sudoku.SudokuError` at once.

    Blank lines and ``#`` comments are skipped, and a line ``end`` ends the input
    (the AcWing 166 judge format).  A first line holding one number is the number
    of puzzles that follow (as many judges write it): a different number is
    reported as a last Entry with the error.  A malformed puzzle gives an Entry
    with the error (its line number included); reading goes on with the next puzzle.

    Without ``box`` or ``shape``, a grid's size comes from its lines: a line of N
    cells starts an N-line grid, except that a line of 16 cells is a whole 4x4
    puzzle unless a value above 4 makes it a row of a 16x16 grid, or it is written
    one cell per number and 15 more such lines follow it.

    >>> text = '''# two puzzles
    ... 1.....3..4.....2
    ... 1 0 0 0
    ... 0 0 3 0
    ... 0 4 0 0
    ... 0 0 0 2
    ... end
    ... 1234'''
    >>> [(e.line, str(e.grid)) for e in read_puzzles(text)]
    [(2, '1.....3..4.....2'), (3, '1.....3..4.....2')]
    >>> [e.grid.size for e in read_puzzles("\\n".join(["0 " * 16] * 16))]
    [16]
    >>> [str(e.error) for e in read_puzzles("3\\n1.....3..4.....2\\n")]
    ['None', 'line 1: the first line announces 3 puzzles, but the input has 1']

    A line longer than :data:`MAX_LINE` characters is no puzzle: it gives an Entry
    with the error, and reading goes on after it (what is beyond the cap is read
    and dropped, never stored).  ``max_line`` (characters) caps how much of one
    line is read at all: a longer line (``/dev/zero`` has no end) gives a last
    Entry with the error, ``line is longer than N characters``, and the input
    ends there.  None (default): a line may be as long as the input.

    >>> [str(e.error) for e in read_puzzles(["." * 100, "1.....3..4.....2"], max_line=50)]
    ['line 1: line is longer than 50 characters']
    """
    if isinstance(source, (bytes, bytearray)) or \
            not isinstance(source, str) and not hasattr(source, "readline") and \
            not hasattr(source, "__iter__"):
        raise SudokuError(f"read_puzzles reads text, a text stream or an iterable of lines,"
                          f" not {_shown(source)}")
    whole(max_line, "max_line", low=1, none=True)
    expect = _expected_size(shape, box)
    if isinstance(source, (str, Grid)):
        source = str(source).splitlines(keepends=True)
    return _read(source, box, shape, max_line, expect)


def _read(source: IO[str] | Iterable[str], box: tuple[int, int] | None,
          shape: Shape | None, max_line: int | None, expect: int | None) -> Iterator[Entry]:
    """The entries of :func:`read_puzzles` (its arguments checked)."""
    shapes: dict[int, Shape] = {}   # size -> standard shape, for one-line puzzles
    block: _Block = []
    want = 0      # rows the current block needs
    have = 0      # content rows in it so far
    width = 0     # cells in each of its rows
    tentative = False   # a block of 16-cell lines that may be 4x4 puzzles after all
    announced: tuple[int, int] | None = None      # (line, number of puzzles)
    first = True
    candidate: tuple[int, str] | None = None    # a first line that may be a count
    seen = 0

    def close(reason: str) -> list[Entry]:
        """The entries of a block cut short: each line a puzzle of its own if the
        block was a guess, else the broken grid."""
        if tentative:
            return [_entry([(n, text)], box, shape) for n, text in block if not _is_rule(text)]
        return [_broken(block, reason)]

    for lineno, raw, too_long in _numbered_lines(source, max_line):
        line = raw.rstrip("\r\n")
        s = line.strip()
        if too_long:
            if block:
                done = close(f"grid broken by an over-long line {lineno}")
                seen += len(done)
                yield from done
                block, have, tentative = [], 0, False
            if too_long is _CUT:    # the input ends here: no count to check
                yield Entry(lineno, s[:80], None, SudokuFormatError(
                    f"line is longer than {max_line:,} characters", lineno))
                return
            seen += 1
            yield Entry(lineno, s[:80], None,
                        SudokuFormatError(f"line longer than {MAX_LINE} characters", lineno))
            continue
        if s.lower() == "end":
            break
        if not s:
            if block:
                done = close(_cut_short(block, have, want, width))
                seen += len(done)
                yield from done
                block, have, tentative = [], 0, False
            continue
        if s.startswith("#"):
            continue
        if first:
            first = False
            if s.isascii() and s.isdigit() and len(s) <= 7:
                if len(s) == expect or (expect is None and len(s) in SIZES):
                    candidate = (lineno, line)      # "1000": a count, or a grid's first row?
                else:
                    announced = (lineno, int(s))
                continue
        elif candidate is not None:
            if _is_rule(line) or _line_shape(s)[0] == len(candidate[1].strip()):
                block, want, have = [candidate], len(candidate[1].strip()), 1
                width = want
            else:
                announced = (candidate[0], int(candidate[1]))
            candidate = None
        if _is_rule(line):
            if block:
                block.append((lineno, line))
            continue
        if block and tentative:
            k, top, spaced = _line_shape(s)
            if k != 16 or not spaced or top < 0:      # not a 16x16 row: undo the guess
                done = close("")
                seen += len(done)
                yield from done
                block, have, tentative = [], 0, False
        if block and not tentative and _line_shape(s)[0] != width:
            # a row of another length: the grid was cut short, and this line starts anew
            done = close(_cut_short(block, have, want, width, (lineno, s)))
            seen += len(done)
            yield from done
            block, have, tentative = [], 0, False
        if block:
            block.append((lineno, line))
            have += 1
            if have == want:
                seen += 1
                yield _entry(block, box, shape)
                block, have, tentative = [], 0, False
            continue
        # The common case first: one puzzle on one line, every character a cell.
        fast = _one_line_grid(s, expect, box, shape, shapes)
        if fast is not None:
            seen += 1
            yield Entry(lineno, line, fast, None)
            continue
        rows, tentative = _rows_of(s, expect)
        if rows <= 1:
            seen += 1
            yield _entry([(lineno, line)], box, shape)
        else:
            block, want, have = [(lineno, line)], rows, 1
            width = _line_shape(s)[0]
    if block:
        done = close(_cut_short(block, have, want, width))
        seen += len(done)
        yield from done
    if candidate is not None:
        announced = (candidate[0], int(candidate[1]))
    if announced is not None and announced[1] != seen:
        where, n = announced
        yield Entry(where, str(n), None, SudokuFormatError(
            f"the first line announces {n:,} puzzles, but the input has {seen:,}", where))


#: What :func:`_numbered_lines` says of a line longer than ``max_line``: the input ends.
_CUT = 2


def _numbered_lines(source: IO[str] | Iterable[str], max_line: int | None
                    ) -> Iterator[tuple[int, str, int]]:
    """(line number, text, too long?): 0 for a line that fits, 1 for one longer than
    MAX_LINE (from a stream, its rest is read and dropped), :data:`_CUT` for one longer
    than ``max_line`` (the last: nothing more is read)."""
    fits = MAX_LINE if max_line is None else min(MAX_LINE, max_line)
    readline = getattr(source, "readline", None)
    if readline is None:
        for k, line in enumerate(source, 1):
            _check_text(line, k)
            length = len(line.rstrip("\r\n"))
            if max_line is not None and length > max_line:
                yield k, line[:fits + 1], _CUT
                return
            yield k, line[:MAX_LINE], int(length > MAX_LINE)
        return
    k = 0
    while True:
        line = readline(fits + 1)
        if not line:
            return
        k += 1
        _check_text(line, k)
        if len(line) <= fits or line.endswith("\n"):
            yield k, line, 0
            continue
        # Longer than fits: read the rest of the line (dropped) while it may still fit
        # max_line; a line with no end (/dev/zero) stops at max_line.
        length, rest = len(line), line
        while rest and not rest.endswith("\n") and (max_line is None or length <= max_line):
            rest = readline(MAX_LINE)
            length += len(rest.rstrip("\r\n"))
        if max_line is not None and length > max_line:
            yield k, line, _CUT
            return
        yield k, line, 1


def _check_text(line: Any, k: int) -> None:
    """Raise SudokuError unless ``line`` (line ``k``) is text."""
    if not isinstance(line, str):
        raise SudokuError(f"read_puzzles reads text: line {k} is {_shown(line)}"
                          + (" (open the file in text mode)" if isinstance(line, bytes) else ""))


def _entry(block: _Block, box: tuple[int, int] | None, shape: Shape | None) -> Entry:
    """The Entry of a complete block of lines: its Grid, or the error reading it."""
    text = "\n".join(line for _, line in block)
    try:
        return Entry(block[0][0], text, _parse_lines(block, box, shape), None)
    except SudokuFormatError as e:
        return Entry(block[0][0], text, None, e)
    except ValueError as e:
        return Entry(block[0][0], text, None, SudokuFormatError(str(e), block[0][0]))


def _cut_short(block: _Block, have: int, want: int, width: int,
               other: tuple[int, str] | None = None) -> str:
    """Why a grid of ``want`` rows of ``width`` cells ended after ``have`` rows (at a blank
    line, the end of the input, or ``other``: a line of another length).  A grid cut
    after its first row was most likely one puzzle on one line, cut short: say so, and
    how long such a line is.

    >>> print(_cut_short([(1, "4.....8.5.3.....")], 1, 16, 16))  # doctest: +NORMALIZE_WHITESPACE
    line of 16 cells with digits up to 8: too short for a one-line puzzle (a 9x9 one has
    81 characters), and not a 16x16 grid (it ends after 1 of 16 rows)
    """
    where = "" if other is None else \
        f"; line {other[0]} has {_line_shape(other[1])[0]} cells, not {width}"
    if have > 1:
        return f"grid ends after {have} of {want} rows" + (f" ({where[2:]})" if where else "")
    ends = f"it ends after {have} of {want} rows{where}"
    k, top, _ = _line_shape(block[0][1].strip())
    longer = [n for n in sorted(SIZES) if n * n > k and n >= top]
    if not longer:
        return f"grid ends after {have} of {want} rows"
    n = longer[0]
    digits = f" with digits up to {top}" if top > 0 else ""
    return (f"line of {k} cells{digits}: too short for a one-line puzzle (a {n}x{n} one has"
            f" {n * n} characters), and not a {width}x{width} grid ({ends})")


def _broken(block: _Block, reason: str) -> Entry:
    """The Entry of a grid cut short (by a blank, over-long or missing line)."""
    return Entry(block[0][0], "\n".join(x for _, x in block), None,
                 SudokuFormatError(reason, block[0][0]))


def _one_line_grid(s: str, expect: int | None, box: tuple[int, int] | None,
                   shape: Shape | None, shapes: dict[int, Shape]) -> Grid | None:
    """The Grid of a clean one-line puzzle (a cell character each), else None: the parser's."""
    n = expect if expect is not None else _SIZE_OF_COUNT.get(len(s), 0)
    if not (n and len(s) == n * n and n <= 35) or (n == 16 and "0" in s):
        return None                         # (16x16 with 0s: the parser tells the notation)
    cells = s.encode("ascii", "replace").translate(_CELL_OF_BYTE)
    if cells.translate(None, bytes(range(n + 1))):
        return None
    fast = shape if shape is not None else shapes.get(n)
    if fast is None:
        try:
            fast = shapes[n] = Shape.standard(n, box)
        except ValueError:
            return None
    return Grid._make(tuple(cells), fast)


def _rows_of(s: str, expect: int | None) -> tuple[int, bool]:
    """How many lines the grid starting with line ``s`` takes (1: a one-line puzzle), and
    whether that is a guess to undo if the grid does not follow (see :func:`read_puzzles`)."""
    k, top, spaced = _line_shape(s)
    if expect is not None:
        one_line = k == expect * expect or k != expect
        return (1 if one_line else expect), False
    if k in SIZES and k in _SIZE_OF_COUNT:      # 16: a 4x4 puzzle, or a 16x16 row?
        if top > _SIZE_OF_COUNT[k]:
            return k, False
        return (k, True) if spaced else (1, False)
    one_line = k in _SIZE_OF_COUNT or k not in SIZES
    return (1 if one_line else k), False
