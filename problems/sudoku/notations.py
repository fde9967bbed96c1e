"""Notations: reading a puzzle's text into cell values, and the one-line notation.

Accepted: N*N characters on one line (``.`` or ``0`` blanks; ``1``-``9`` then
``A`` for 10 and up), one line per row with or without spaces, pretty grids with
``|``, ``-``, ``+`` rules, ``.sdk`` files with ``#`` lines, and space-separated
numbers.  The functions here work on text and values; :mod:`.grid` wraps them
in a :class:`~problems.sudoku.Grid`.

16x16 grids written a character per cell come in two notations, told apart by
their characters:

* ``1``-``9`` then ``A``-``G`` (G is 16), blanks ``.`` or ``0``: ours (``str(grid)``
  writes it), and the one used whenever a ``G`` appears or no ``0`` does;
* ``0``-``9`` then ``A``-``F`` (hexadecimal: ``0`` is the first digit, F the
  sixteenth), blanks ``.``: read so when ``0`` appears with ``.`` blanks and no
  ``G`` (and no row holds two ``0``, which only blanks can do).

A grid with ``0`` but neither ``G`` nor ``.``, and no row with two ``0``, fits
both (``0`` as a blank, or as a digit of a full grid) and is refused with a
message rather than guessed.
"""

from __future__ import annotations

from typing import NoReturn

from .errors import SudokuFormatError
from .shapes import _COUNTS_TEXT, _SIZE_OF_COUNT, SIZES, Shape, _expected_size

# Digits in the one-character notation: "." and "0" are blanks, "1"-"9" then "A"...
_CHAR_VALUE: dict[str, int] = {".": 0, "0": 0}
_CHAR_VALUE.update({str(d): d for d in range(1, 10)})
for _k in range(26):
    _CHAR_VALUE[chr(ord("A") + _k)] = 10 + _k
    _CHAR_VALUE[chr(ord("a") + _k)] = 10 + _k
_VALUE_CHAR = ".123456789" + "".join(chr(ord("A") + k) for k in range(26))
_RULE_CHARS = frozenset("-+=|")
# Hexadecimal 16x16 notation: "0"-"9", "A"-"F" are the sixteen digits 1..16.
_HEX_VALUE: dict[str, int] = {ch: k + 1 for k, ch in enumerate("0123456789ABCDEF")}
_HEX_VALUE.update({ch.lower(): v for ch, v in _HEX_VALUE.items() if ch.isalpha()})
# Byte of a one-line notation -> cell value (255: not a cell character).
_CELL_OF_BYTE = bytes(_CHAR_VALUE.get(chr(b), 255) for b in range(256))
# Cell value -> byte of the one-line notation.
_BYTE_OF_VALUE = bytes(ord(_VALUE_CHAR[v]) if v < len(_VALUE_CHAR) else 0 for v in range(256))

#: A cell read from text: (value, line, column, the text it was read from).
_Cell = tuple[int, int, int, str]


def _one_line(values: tuple[int, ...], n: int) -> str:
    """The one-line notation: a character per cell up to 35x35, else space-separated numbers."""
    if n <= 35:
        return bytes(values).translate(_BYTE_OF_VALUE).decode("ascii")
    return " ".join(map(str, values))


def _is_rule(line: str) -> bool:
    """A separator line of a pretty grid: only ``- + = |`` and spaces, and some dash."""
    s = line.strip()
    return bool(s) and all(ch in _RULE_CHARS or ch.isspace() for ch in s) \
        and any(ch in "-=+" for ch in s)


def _tokens(line: str) -> list[tuple[int, str]]:
    """Whitespace-separated tokens of a content line (``|`` counts as space), with columns."""
    out: list[tuple[int, str]] = []
    start = -1
    for k, ch in enumerate(line):
        if ch.isspace() or ch == "|":
            if start >= 0:
                out.append((start, line[start:k]))
                start = -1
        elif start < 0:
            start = k
    if start >= 0:
        out.append((start, line[start:]))
    return out


def _numbers_mode(tokens: list[str], expect: int | None) -> bool:
    """Read the tokens as space-separated numbers (rather than one character per cell)?"""
    if all(len(t) == 1 for t in tokens) or not all(t.isascii() and t.isdigit() for t in tokens):
        return False
    n_tok, n_chr = len(tokens), sum(len(t) for t in tokens)
    if expect is not None:
        if n_tok == expect * expect:
            return True
        return n_chr != expect * expect and max(len(t) for t in tokens) <= 2
    tok_n, chr_n = _SIZE_OF_COUNT.get(n_tok, 0), _SIZE_OF_COUNT.get(n_chr, 0)
    if tok_n and max(_small_int(t) for t in tokens) <= tok_n:
        return True
    if chr_n:
        return False
    return max(len(t) for t in tokens) <= 2


def _small_int(token: str) -> int:
    """The value of a digit string, capped (so a huge one costs nothing)."""
    return int(token) if len(token) <= 6 else 10**7


def _line_cells(s: str) -> int:
    """How many cells a content line holds, read on its own."""
    return _line_shape(s)[0]


def _line_shape(s: str) -> tuple[int, int, bool]:
    """A content line read on its own: (cells, largest value, one cell per token?).

    The largest value is -1 when some character is no cell (the parser reports it).
    """
    toks = [t for _, t in _tokens(s)]
    if _numbers_mode(toks, None):
        return len(toks), max(_small_int(t) for t in toks), True
    values = [_CHAR_VALUE.get(ch, -1) for t in toks for ch in t]
    top = -1 if -1 in values else max(values, default=0)
    return len(values), top, len(toks) == len(values) > 1


def _parse_cells(lines: list[tuple[int, str]], box: tuple[int, int] | None,
                 shape: Shape | None) -> tuple[tuple[int, ...], Shape]:
    """The cell values and shape of numbered lines (the work behind ``Grid.parse``)."""
    content = _content(lines)
    expect = _expected_size(shape, box)
    numbers = _numbers_mode([t for _, toks in content for _, t in toks], expect)
    cells: list[_Cell] = []
    per_line: list[tuple[int, int]] = []     # (line, how many cells it holds)
    for lineno, toks in content:
        before = len(cells)
        for col, tok in toks:
            cells += _token_cells(tok, lineno, col, numbers)
        per_line.append((lineno, len(cells) - before))
    total = len(cells)
    n = expect if expect is not None else _SIZE_OF_COUNT.get(total, 0)
    if not n or total != n * n:
        _raise_count(total, per_line, n)
    if n == 16 and not numbers:
        cells = _sixteen(cells)
    _check_range(cells, n, numbers)
    if shape is None:
        try:
            shape = Shape.standard(n, box)
        except ValueError as e:
            raise SudokuFormatError(str(e)) from None
    return tuple(v for v, _, _, _ in cells), shape


def _content(lines: list[tuple[int, str]]) -> list[tuple[int, list[tuple[int, str]]]]:
    """The tokens of each content line (not blank, a ``#`` comment or a rule)."""
    content: list[tuple[int, list[tuple[int, str]]]] = []
    for lineno, line in lines:
        s = line.strip()
        if not s or s.startswith("#") or _is_rule(line):
            continue
        content.append((lineno, _tokens(line)))
    if not content:
        last = lines[-1][0] if lines else 1
        raise SudokuFormatError("no puzzle found (empty input)", last)
    return content


def _token_cells(tok: str, lineno: int, col: int, numbers: bool) -> list[_Cell]:
    """The cells of one token (at 0-based column ``col``): one number, or a cell per character."""
    if numbers:
        if not (tok.isascii() and tok.isdigit()):
            raise SudokuFormatError(f"expected a number, found {tok!r}", lineno, col + 1)
        if len(tok) > 6:
            raise SudokuFormatError(f"number {tok[:8]}... is too large", lineno, col + 1)
        return [(int(tok), lineno, col + 1, tok)]
    out: list[_Cell] = []
    for k, ch in enumerate(tok):
        v = _CHAR_VALUE.get(ch)
        if v is None:
            if not ch.isascii():
                why = f"non-ASCII character {ch!r} (U+{ord(ch):04X})"
            elif ch.isprintable():
                why = f"unexpected character {ch!r}"
            else:
                why = f"unexpected control character {ch!r}"
            raise SudokuFormatError(why, lineno, col + k + 1)
        out.append((v, lineno, col + k + 1, ch))
    return out


def _sixteen(cells: list[_Cell]) -> list[_Cell]:
    """The cells of a 16x16 grid written a character per cell, in whichever of the two
    notations (1-9A-G or 0-9A-F) its characters say; ambiguous grids are refused."""
    texts = [t for _, _, _, t in cells]
    if "0" not in texts or "G" in texts or "g" in texts:
        return cells                        # 1-9A-G, blanks . or 0
    zeros = [k // 16 for k, t in enumerate(texts) if t == "0"]
    if len(set(zeros)) < len(zeros):
        return cells                        # a row with two 0s: 0 is a blank
    if "." in texts:                        # 0-9A-F, blanks .
        return [(_HEX_VALUE.get(t, 0 if t == "." else v), line, col, t)
                for v, line, col, t in cells]
    _, line, col, _ = cells[texts.index("0")]
    raise SudokuFormatError(
        "this 16x16 grid has 0s but no G and no '.': is 0 a blank (digits 1-9 then A-G) or"
        " the digit 0 (digits 0-9 then A-F)? Write 16 as G, or write blanks as '.' for 0-F",
        line, col)


def _check_range(cells: list[_Cell], n: int, numbers: bool) -> None:
    """Raise for the first cell whose value does not fit an n x n grid."""
    for v, lineno, col, text in cells:
        if v > n:
            blank = "blank . or 0"
            if numbers:
                why = f"value {v} is out of range for a {n}x{n} grid (1-{n}; blank 0)"
            elif n <= 9 and text.isalpha():
                why = f"unexpected character {text!r} (a {n}x{n} grid uses 1-{n}; {blank})"
            else:
                top = str(n) if n <= 9 else f"9 then A-{_VALUE_CHAR[n]}"
                why = f"{text!r} ({v}) is out of range for a {n}x{n} grid (1-{top}; {blank})"
            raise SudokuFormatError(why, lineno, col)


def _raise_count(total: int, per_line: list[tuple[int, int]], n: int) -> NoReturn:
    rows = len(per_line)
    if rows > 1:
        width = n or (rows if rows in SIZES else 0)
        if width:
            for lineno, k in per_line:
                if k != width:
                    raise SudokuFormatError(
                        f"row has {k} cells; a {width}x{width} grid needs {width} per row", lineno)
            if rows != width:
                raise SudokuFormatError(
                    f"found {rows} rows; a {width}x{width} grid needs {width}", per_line[-1][0])
    expected = f"a {n}x{n} puzzle has {n * n}" if n else f"a puzzle has {_COUNTS_TEXT}"
    raise SudokuFormatError(f"found {total} cells; {expected}", per_line[-1][0])
