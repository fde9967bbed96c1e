"""Knuth's DLX text format: read and write exact-cover problems as text.

This is the input format of Knuth's programs DLX1 to DLX6 (TAOCP 7.2.2.1):

- A line whose first non-blank character is ``|`` is a comment; blank lines are
  skipped.  Everywhere else ``|`` is not a comment marker.
- The first other line names the items (columns), separated by whitespace: the
  primary items, then optionally a ``|`` and the secondary items.  A primary item
  written ``u:v|name`` must be covered between u and v times, ``v|name`` exactly v
  times (DLX3's multiplicities).
- Every further line is one option (row): the names of its items.  A secondary
  item may carry a colour, written ``x:colour``.  Tokens ``|n`` after the first
  item give the option a cost (DLX5), summed when there are several.

Names are any run of non-blank characters without ``:`` or ``|`` (Knuth's
programs allow 8 printable ASCII characters; we are liberal about length and
alphabet).  A cost is a non-negative number: ``|5`` as DLX5 writes it, and also
``|2.5`` (a float) or ``|3/4`` (a Fraction), the costs :class:`ExactCover` takes
(Knuth's DLX5 reads whole numbers only).  A malformed line raises
:class:`~dlx.errors.FormatError` with its 1-based line and column; an option
without a primary item is skipped with a :class:`DLXFormatWarning`, as DLX2
does.  Option labels are 0, 1, 2, ... in file order; :func:`read_dlx_lines` also
tells the line each option came from.

Items and colours that are not such names (the tagged tuples of :mod:`problems`,
numbers, names with blanks) are written under short names (``i1``, ``i2``, ...;
``c1``, ... for colours), with a table of what each stands for in comments before
the item line; :func:`read_dlx` reads the table and gives back the values (those
Python can read back from their ``repr``: strings, numbers, tuples of them, ...):

>>> p = ExactCover({"q": [("row", 0), ("col", 1)]}, secondary=[("col", 1)])
>>> print(write_dlx(p), end="")
| dlx names: each short name below stands for the Python value after it
| name i1 ('row', 0)
| name i2 ('col', 1)
i1 | i2
i1 i2
>>> read_dlx(write_dlx(p)).options
{0: (('row', 0), ('col', 1))}

Knuth's toy problem (TAOCP 7.2.2.1) is :data:`KNUTH_TOY`:

>>> print(KNUTH_TOY, end="")
| Knuth's toy problem (TAOCP 7.2.2.1)
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g
>>> p = read_dlx(KNUTH_TOY)
>>> p.primary
('a', 'b', 'c', 'd', 'e', 'f', 'g')
>>> p.options[3]
('a', 'd', 'f')
>>> print(write_dlx(p), end="")
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g

DLX3's example (the item ``C`` 2 or 3 times) and a DLX5 cost:

>>> p = read_dlx("A B 2:3|C | X Y\\nA B X:0 Y:0\\nA C X:1 Y:1\\nC X:0\\nB X:1\\nC Y:1 |5\\n")
>>> p.bounds, p.costs
({'C': (2, 3)}, {4: 5})
>>> print(write_dlx(p), end="")
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1 |5
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Hashable, Iterable, Iterator
from fractions import Fraction
from functools import cached_property

from .errors import ExactCoverError, FormatError
from .lines import MAX_LINE_LENGTH, NotTextError, SupportsReadline, read_lines
from .names import NAMES_HEADER, NameTable, short_names, table_line
from .problem import Colored, ExactCover

try:
    # the core's reading of option lines (unbuilt, ``dlx._core`` is a bare folder)
    from . import _core
    from ._core import read_options as _  # noqa: F401
except ImportError:  # the pure engine alone
    _core = None

__all__ = [
    "KNUTH_TOY",
    "MAX_LINE_LENGTH",
    "NAMES_HEADER",
    "DLXFormatWarning",
    "NotProblemError",
    "NotTextError",
    "SupportsReadline",
    "read_dlx",
    "read_dlx_lines",
    "write_dlx",
]

KNUTH_TOY = """\
| Knuth's toy problem (TAOCP 7.2.2.1)
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g
"""
"""Knuth's toy problem in his format: seven items, six options, one solution."""


_TOKEN = re.compile(r"\S+")
# Control characters other than the blanks \t \n \v \f \r, and lone surrogates
# (what ``errors="surrogateescape"`` makes of undecodable bytes).
_NOT_TEXT = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_BOM = "\ufeff"


class NotProblemError(ExactCoverError, TypeError):
    """:func:`write_dlx` was given something other than a :class:`~dlx.ExactCover`: an
    :class:`~dlx.ExactCoverError`, and a TypeError (as :class:`NotTextError`)."""


class DLXFormatWarning(UserWarning):
    """A line of a DLX file was read but ignored (an option with no primary item)."""


def _describe(char: str) -> str:
    code = f"U+{ord(char):04X}"
    if char == "\x00":
        return f"NUL character ({code})"
    if "\ud800" <= char <= "\udfff":
        return f"invalid character {code} (a lone surrogate: undecodable input?)"
    return f"control character {code}"


def _lines(source: str | SupportsReadline, max_line_length: int | None
           ) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, text without the line break)`` for every line of ``source``,
    read by :func:`dlx.read_lines` (one huge line costs no more than the cap); the line
    must be plain text."""
    if not isinstance(source, str) and not hasattr(source, "readline"):
        raise NotTextError(
            "read_dlx expects the text of a DLX file (str) or a text file opened with"
            f" open(path), not {type(source).__name__}"
        )
    for number, text in read_lines(source, max_length=max_line_length, reader="read_dlx"):
        if number == 1 and text.startswith(_BOM):
            text = text[1:]
        bad = _NOT_TEXT.search(text)
        if bad:
            raise FormatError(
                f"{_describe(bad.group())} is not allowed: DLX input must be plain text",
                number,
                bad.start() + 1,
            )
        yield number, text


def _is_comment_or_blank(text: str) -> bool:
    stripped = text.lstrip()
    return not stripped or stripped.startswith("|")


def _read(
    source: str | SupportsReadline, max_line_length: int | None, decode_names: bool = True
) -> tuple[ExactCover, tuple[int, ...]]:
    if max_line_length is not None and (isinstance(max_line_length, bool) or not isinstance(
            max_line_length, int) or max_line_length < 1):
        raise ExactCoverError(f"max_line_length must be a whole number from 1, not"
                              f" {max_line_length!r:.40}")
    lines = _lines(source, max_line_length)
    last = 0
    names = NameTable()
    for number, text in lines:
        last = number
        if not _is_comment_or_blank(text):
            break
        if decode_names:
            names.see(text)
    else:
        raise FormatError("no item line: the input has only blank lines and comments (lines"
                          " starting with '|')", max(last, 1))
    items = _ItemLine(text, number)
    options: dict[Hashable, tuple[Hashable, ...]] = {}
    costs: dict[Hashable, int | float | Fraction] = {}
    option_lines: list[int] = []
    fast = _Fast(items) if _core is not None else None
    for number, text in lines if fast is None else fast.left(lines, options, costs, option_lines):
        # (with the core, the lines it leaves: faults, costs other than whole numbers,
        # options without a primary item, characters beyond Latin-1)
        if _is_comment_or_blank(text):
            continue
        entries, cost, has_primary = _option_line(text, number, items)
        if not has_primary:
            warnings.warn(f"line {number}: option ignored (no primary items)", DLXFormatWarning,
                          stacklevel=3)
            continue
        label = len(option_lines)
        options[label] = entries
        if cost:
            costs[label] = cost
        option_lines.append(number)
        if fast is not None:
            fast.alone = False
    # Every check ExactCover makes was made above, per line, with a line and column.
    if fast is not None and fast.alone and not names.item and not names.colour:
        numbers = None if fast.flags[0] else bytes(fast.entries)   # (colours: laid out apart)
        return ExactCover._read(options, items.primary, items.secondary, items.bounds, costs,
                                numbers), tuple(option_lines)
    return names.problem(options, items.primary, items.secondary, items.bounds,
                         costs), tuple(option_lines)


class _Fast:
    """The core's reading of option lines (``dlx._core.read_options``): the options go
    into the reader's dict, costs and lines, numbered for the layout as they are read."""

    def __init__(self, items: _ItemLine) -> None:
        assert _core is not None
        self.table = _core.item_names(tuple(items.primary) + tuple(items.secondary))
        self.n1 = len(items.primary)
        self.colours: dict[str, tuple[int, Colored]] = {}
        self.entries, self.flags = bytearray(), bytearray(1)   # flags[0]: a colour was read
        self.alone = True                                      # no option was read in Python

    def left(self, lines: Iterator[tuple[int, str]], options: dict[Hashable, tuple[Hashable, ...]],
             costs: dict[Hashable, int | float | Fraction], option_lines: list[int]
             ) -> Iterator[tuple[int, str]]:
        """The lines the core leaves for Python, each after it read those before it."""
        assert _core is not None
        while (line := _core.read_options(lines, self.table, self.n1, Colored, self.colours,
                                          options, costs, option_lines, self.entries,
                                          self.flags)) is not None:
            yield line


_BOUNDS = re.compile(r"(?:(\d+):)?(\d+)")


class _ItemLine:
    """The item line: primary items (DLX3: ``u:v|name`` or ``v|name`` gives bounds),
    then ``|`` and the secondary items."""

    def __init__(self, text: str, number: int) -> None:
        self.primary: list[str] = []
        self.secondary: list[str] = []
        self.bounds: dict[str, tuple[int, int]] = {}
        self.number = number
        words = text.split()
        if ":" not in text and ("|" not in text or (text.count("|") == 1 and "|" in words)) \
                and len(set(words)) == len(words):
            # plain names, no bounds, at most one '|' on its own: nothing to check
            bar = words.index("|") if "|" in words else len(words)
            self.primary, self.secondary = words[:bar], words[bar + 1:]
            return
        self._read(text, number)

    @cached_property
    def declared(self) -> dict[str, bool]:
        """Item name -> whether it is secondary (for the option lines Python reads)."""
        return {**dict.fromkeys(self.primary, False), **dict.fromkeys(self.secondary, True)}

    def _read(self, text: str, number: int) -> None:
        """The item line token by token, naming the column of a fault."""
        declared: dict[str, int] = {}          # name -> the column where it was declared
        bar_column: int | None = None
        for match in _TOKEN.finditer(text):
            token, column = match.group(), match.start() + 1
            # As in DLX1, a token starting with '|' is the separator, possibly glued to a name.
            while token.startswith("|"):
                if bar_column is not None:
                    raise FormatError(f"'|' appears twice in the item line (first at column"
                                      f" {bar_column}); a single '|' separates primary from"
                                      " secondary items", number, column)
                bar_column = column
                token, column = token[1:], column + 1
            if not token:
                continue
            bounds = None
            if "|" in token:
                bounds, token = self._bounds(token, number, column, bar_column is not None)
            if ":" in token:
                raise FormatError(
                    f"item name {token!r} contains ':' (colours belong in options, as"
                    " item:colour)", number, column)
            if token in declared:
                raise FormatError(
                    f"duplicate item {token!r} (already named at column"
                    f" {declared[token]})", number, column)
            declared[token] = column
            (self.secondary if bar_column is not None else self.primary).append(token)
            if bounds is not None and bounds != (1, 1):
                self.bounds[token] = bounds
        # A line starting with '|' is a comment, so the item line starts with a primary item.
        assert self.primary, "the item line cannot start with '|'"

    @staticmethod
    def _bounds(token: str, number: int, column: int, secondary: bool
                ) -> tuple[tuple[int, int], str]:
        """DLX3's ``u:v|name`` (or ``v|name`` for u = v): the bounds and the name."""
        prefix, _, name = token.partition("|")
        found = _BOUNDS.fullmatch(prefix)
        if found is None or not name or "|" in name:
            raise FormatError(f"item name {token!r} contains '|' (bounds are written u:v|name"
                              " or v|name)", number, column)
        if secondary:
            raise FormatError(f"bounds on secondary item {name!r}: only primary items (before"
                              " '|') can have bounds", number, column)
        v = _number(found.group(2), f"the bound of item {name!r}", number, column)
        u = v if found.group(1) is None else \
            _number(found.group(1), f"the bound of item {name!r}", number, column)
        if u > v:
            raise FormatError(f"bounds {prefix!r} of item {name!r}: the lower bound is above"
                              " the upper one", number, column)
        if v == 0:
            raise FormatError(f"bounds {prefix!r} of item {name!r}: the upper bound is 0",
                              number, column)
        return (u, v), name


_COST = re.compile(r"[0-9]+|(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?=[eE]))(?:[eE][-+]?[0-9]+)?"
                   r"|[0-9]+/[0-9]+")


def _cost(token: str, number: int, column: int) -> int | float | Fraction:
    """The cost written ``|n`` (DLX5): a whole number, a decimal (a float) or ``p/q``
    (a Fraction), never negative.

    >>> _cost("|5", 1, 1), _cost("|2.5", 1, 1), _cost("|3/4", 1, 1)
    (5, 2.5, Fraction(3, 4))
    >>> _cost("|-3", 2, 7)
    Traceback (most recent call last):
      ...
    dlx.errors.FormatError: line 2, column 7: the cost -3 is negative: costs are \
non-negative numbers (|5, |2.5 or |3/4)
    """
    digits = token[1:]
    if digits.startswith("-") and _COST.fullmatch(digits[1:]):
        raise FormatError(f"the cost {digits} is negative: costs are non-negative numbers"
                          " (|5, |2.5 or |3/4)", number, column)
    if not _COST.fullmatch(digits) or not digits.isascii():
        raise FormatError(f"{token!r} is not a cost: a cost is written |n after the first"
                          " item, n a non-negative number (|5, |2.5 or |3/4)", number, column)
    if digits.isdigit():
        return _number(digits, "the cost", number, column)
    if "/" in digits:
        top, bottom = digits.split("/")
        if int(bottom) == 0:
            raise FormatError(f"the cost {digits} divides by 0", number, column)
        return Fraction(_number(top, "the cost", number, column),
                        _number(bottom, "the cost", number, column))
    value = float(digits)
    if value == float("inf"):
        raise FormatError(f"the cost {digits} is too large for a float", number, column)
    return value


def _option_line(text: str, number: int, items: _ItemLine
                 ) -> tuple[tuple[Hashable, ...], int | float | Fraction, bool]:
    """One option: its entries, its cost (DLX5's ``|n`` tokens, summed) and whether it
    has a primary item."""
    declared = items.declared
    entries: list[Hashable] = []
    seen: dict[str, int] = {}
    cost: int | float | Fraction = 0
    has_primary = False
    for match in _TOKEN.finditer(text):
        token, column = match.group(), match.start() + 1
        if token.startswith("|") and len(token) > 1 and entries:
            cost += _cost(token, number, column)
            continue
        if token == "|":
            raise FormatError("'|' in an option line: only lines starting with '|' are"
                              " comments, options list secondary items without a separator,"
                              " and a cost is written |n after the first item", number, column)
        if "|" in token:
            raise FormatError(f"{token!r} contains '|' (a cost is written |n after the first"
                              " item, n a non-negative number)", number, column)
        name, colon, colour = token.partition(":")
        if not name:
            raise FormatError(f"missing item name before ':' in {token!r}", number, column)
        if name not in declared:
            raise FormatError(f"unknown item {name!r} (not in the item line, line"
                              f" {items.number})", number, column)
        if name in seen:
            raise FormatError(f"item {name!r} repeated in this option (already at column"
                              f" {seen[name]})", number, column)
        seen[name] = column
        is_secondary = declared[name]
        if colon:
            entries.append(_colour(name, colour, token, is_secondary, number, column))
        else:
            entries.append(name)
            has_primary = has_primary or not is_secondary
    return tuple(entries), cost, has_primary


def _number(digits: str, what: str, number: int, column: int) -> int:
    """The number written ``digits`` (a bound or a cost); FormatError if it has more
    digits than Python converts (``sys.get_int_max_str_digits()``, 4,300 by default).

    >>> _number("9" * 5000, "the cost", 2, 5)
    Traceback (most recent call last):
      ...
    dlx.errors.FormatError: line 2, column 5: the cost has 5,000 digits: more than Python \
reads (4,300)
    """
    try:
        return int(digits)
    except ValueError:
        raise FormatError(f"{what} has {len(digits):,} digits: more than Python reads"
                          f" ({sys.get_int_max_str_digits():,})", number, column) from None


def _colour(name: str, colour: str, token: str, is_secondary: bool, number: int,
            column: int) -> Colored:
    if not is_secondary:
        raise FormatError(f"colour on primary item {name!r}: only secondary items (after '|'"
                          " in the item line) can have a colour", number, column)
    if not colour:
        raise FormatError(f"empty colour in {token!r}: write {name} or {name}:colour", number,
                          column)
    if ":" in colour:
        raise FormatError(f"colour {colour!r} of item {name!r} contains ':'", number, column)
    return Colored(name, colour)


def read_dlx(
    source: str | SupportsReadline, *, max_line_length: int | None = None,
    decode_names: bool = True
) -> ExactCover:
    """Read an exact-cover problem in Knuth's DLX format.

    Option labels are ``0, 1, 2, ...`` in file order (counting the options kept);
    items are their names (str) and a coloured secondary item ``x:c`` becomes
    ``Colored("x", "c")``.  Costs ``|n`` (summed when an option has several) are
    ints, floats (``|2.5``) or Fractions (``|3/4``).  Short names listed in a name
    table (the comments :func:`write_dlx` writes before the item line) become the
    values they stand for, unless ``decode_names`` is False.

    Parameters
    ----------
    source : str or text stream
        The text itself, or an open text file (anything with ``readline``).
        To read a file by name, pass ``open(path)``.
    max_line_length : int or None
        Longer lines raise :class:`~dlx.errors.FormatError`; the reader never
        holds more than one such line in memory.  None (the default): no cap for
        a str or a regular file (their size bounds a line), :data:`MAX_LINE_LENGTH`
        characters for other streams (a pipe), as :func:`dlx.read_lines` reads.
    decode_names : bool
        Turn the short names of a name table back into their values (default);
        False keeps the names as the file spells them.

    Raises
    ------
    FormatError
        With the 1-based ``line`` and ``column`` of the fault: no item line, a
        duplicate item, ``:`` or a second ``|`` in the item line, an unknown or
        repeated item in an option, a colour on a primary item, an empty colour,
        a ``|`` inside an option line other than a cost ``|n`` after an item, a
        negative or malformed cost, a control or NUL character, an overlong line.

    Warns
    -----
    DLXFormatWarning
        For each option with no primary item; the option is skipped.

    Examples
    --------
    >>> p = read_dlx("a b | x y\\na x:A\\nb x:A y\\n")
    >>> p.primary, p.secondary
    (('a', 'b'), ('x', 'y'))
    >>> p.options
    {0: ('a', Colored(item='x', color='A')), 1: ('b', Colored(item='x', color='A'), 'y')}
    >>> read_dlx("a b\\na c\\n")
    Traceback (most recent call last):
      ...
    dlx.errors.FormatError: line 2, column 3: unknown item 'c' (not in the item line, line 1)
    """
    return _read(source, max_line_length, decode_names)[0]


def read_dlx_lines(
    source: str | SupportsReadline, *, max_line_length: int | None = None,
    decode_names: bool = True
) -> tuple[ExactCover, tuple[int, ...]]:
    """Read a DLX problem and the source line number of each option.

    Returns ``(problem, lines)`` where ``lines[label]`` is the 1-based line of
    option ``label``, so that a solution can be reported against the file.
    Arguments, errors and warnings are those of :func:`read_dlx`.

    >>> p, lines = read_dlx_lines("| toy\\na b\\n\\na\\nb\\n")
    >>> p.options, lines
    ({0: ('a',), 1: ('b',)}, (4, 5))
    """
    return _read(source, max_line_length, decode_names)


def _name_fault(name: object) -> str | None:
    """Why ``name`` can't be written as a DLX item name or colour (None if it can)."""
    if not isinstance(name, str):
        return f"it is a {type(name).__name__}, not a str"
    if not name:
        return "it is empty"
    for char in name:
        if char.isspace():
            return f"it contains the blank {char!r}"
    for char in ":|":
        if char in name:
            return f"it contains {char!r}"
    bad = _NOT_TEXT.search(name)
    if bad:
        return f"it contains the {_describe(bad.group())}"
    return None


def _comment(label: Hashable) -> str:
    text = str(label)
    if not text.isprintable():  # a line break would end the comment
        text = ascii(text)
    return f"| {text}".rstrip()


def _spelled(values: Iterable[Hashable], prefix: str, knuth: bool,
             first: bool = False) -> tuple[dict[Hashable, str], list[tuple[str, Hashable]]]:
    """How each value is written (:func:`dlx.names.short_names`): itself when it is a DLX
    name, else a short name.  ``knuth``: names of more than 8 characters get short names
    too.  ``first``: the values start the item line, where a byte-order mark would be
    taken for the file's."""
    values = list(values)
    plain = {v for v in values if _name_fault(v) is None and not (knuth and len(str(v)) > 8)}
    if first and values and isinstance(values[0], str) and values[0].startswith(_BOM):
        plain.discard(values[0])
    return short_names(values, plain, prefix)


def write_dlx(problem: ExactCover, *, labels_as_comments: bool = False,
              knuth: bool = False) -> str:
    """Write ``problem`` in Knuth's DLX format.

    The item line lists the primary items, then ``|`` and the secondary items if
    there are any; then one line per option, ``Colored(x, c)`` written ``x:c``.
    ``read_dlx(write_dlx(p))`` has the same items and option item tuples as
    ``p``, with labels renumbered ``0, 1, ...``; an option with only secondary
    items is written but skipped (with a warning) when read back, as DLX2 does.

    Items and colours may be any hashable values.  A value that is not a DLX name
    (a str without blanks, ``:`` or ``|``) is written under a short name (``i1``,
    ``i2``, ... for items, ``c1``, ... for colours), and a table in comments before
    the item line, ``| name i1 ('cell', 0, 0)``, says what each stands for:
    :func:`read_dlx` turns them back into the values, for the values Python reads
    back from their ``repr`` (str, numbers, tuples, ... of them); others stay the
    short names.  Knuth's programs skip the comments, and print solutions in the
    short names, which the table maps back.

    Parameters
    ----------
    problem : ExactCover
    labels_as_comments : bool
        Precede each option by a comment line ``| label``.
    knuth : bool
        Also give short names to names longer than 8 characters, the most Knuth's
        programs take.  His DLX5 reads whole-number costs only.

    Raises
    ------
    ExactCoverError
        Naming what can't be written: no primary items, an option with no items, a
        cost or bound of more digits than Python writes.

    Examples
    --------
    >>> p = ExactCover({"r1": ["a", Colored("x", "red")], "r2": ["b", "x"]},
    ...                secondary=["x"])
    >>> print(write_dlx(p, labels_as_comments=True), end="")
    a b | x
    | r1
    a x:red
    | r2
    b x
    >>> print(write_dlx(ExactCover({"r": [("cell", 0)], "s": ["a b"]})), end="")
    | dlx names: each short name below stands for the Python value after it
    | name i1 ('cell', 0)
    | name i2 'a b'
    i1 i2
    i1
    i2
    """
    if not isinstance(problem, ExactCover):
        raise NotProblemError(f"write_dlx writes a dlx.ExactCover, not"
                              f" {type(problem).__name__} (build one with"
                              " dlx.ExactCover({label: items}), or read one with read_dlx)")
    if not problem.primary:
        raise ExactCoverError(
            "a problem without primary items can't be written in DLX format"
            " (its item line would start with '|', which makes it a comment)"
        )
    name, table = _spelled(problem.items, "i", knuth, first=True)
    colours = [e.color for entries in problem.options.values() for e in entries
               if isinstance(e, Colored)]
    colour, colour_table = _spelled(colours, "c", knuth)
    out = []
    if table or colour_table:
        out.append(NAMES_HEADER)
        out += [table_line("name", short, value) for short, value in table]
        out += [table_line("colour", short, value) for short, value in colour_table]
    item_line = " ".join(_bounded(name[item], problem.bound(item)) for item in problem.primary)
    if problem.secondary:
        item_line += " | " + " ".join(name[item] for item in problem.secondary)
    out.append(item_line)
    for label, entries in problem.options.items():
        if not entries:
            raise ExactCoverError(
                f"option {label!r} has no items and can't be written in DLX format"
            )
        words = [f"{name[e.item]}:{colour[e.color]}" if isinstance(e, Colored) else name[e]
                 for e in entries]
        cost = problem.cost(label)
        if cost:
            words.append(f"|{_cost_text(cost, label)}")
        if labels_as_comments:
            out.append(_comment(label))
        out.append(" ".join(words))
    return "\n".join(out) + "\n"


def _cost_text(cost: int | float | Fraction, label: Hashable) -> str:
    """A cost as :func:`read_dlx` reads it back: ``5``, ``2.5`` (a float's repr) or ``3/4``."""
    if isinstance(cost, Fraction):
        if cost.denominator == 1:
            return _written(cost.numerator, f"option {label!r}: its cost")
        return f"{_written(cost.numerator, f'option {label!r}: its cost')}/{cost.denominator}"
    if isinstance(cost, float):
        text = repr(cost)
        return text if "e" in text or "." in text else text + ".0"
    return _written(cost, f"option {label!r}: its cost")


def _bounded(item: str, bounds: tuple[int, int]) -> str:
    """An item of the item line, with its bounds as DLX3 writes them."""
    u, v = bounds
    if (u, v) == (1, 1):
        return item
    what = f"the bounds of item {item!r}"
    if u == v:
        return f"{_written(v, what)}|{item}"
    return f"{_written(u, what)}:{_written(v, what)}|{item}"


def _written(n: int, what: str) -> str:
    """``str(n)``, or ExactCoverError if ``n`` has more digits than Python writes."""
    try:
        return str(n)
    except ValueError:
        raise ExactCoverError(f"{what} can't be written in DLX format: more than"
                              f" {sys.get_int_max_str_digits():,} digits") from None
