"""Short names for items and colours that Knuth's format cannot spell, and their table.

:func:`dlx.write_dlx` writes an item or colour that is not a DLX name (a tagged tuple, a
number, a name with blanks) under a short name, and lists what each stands for in
comments before the item line; :func:`dlx.read_dlx` reads the table back:

>>> print(table_line("name", "i1", ("cell", 0, 0)))
| name i1 ('cell', 0, 0)
>>> short_names([("cell", 0), "a", ("cell", 0)], {"a"}, "i")
({('cell', 0): 'i1', 'a': 'a'}, [('i1', ('cell', 0))])
"""

from __future__ import annotations

import ast
import re
from collections.abc import Hashable, Iterable
from fractions import Fraction

from .problem import Colored, ExactCover

__all__ = ["NAMES_HEADER", "NameTable", "short_names", "table_line"]

#: The comment that starts a table of short names (see :func:`dlx.write_dlx`).
NAMES_HEADER = "| dlx names: each short name below stands for the Python value after it"
_ENTRY = re.compile(r"\|\s*(name|colour)\s+(\S+)\s+(.+)")


def short_names(values: Iterable[Hashable], plain: set[Hashable], prefix: str
                ) -> tuple[dict[Hashable, str], list[tuple[str, Hashable]]]:
    """How each value is written: itself (``str``) when it is in ``plain``, else a short
    name ``prefix`` + a number (the next letter if a plain name has that form); and the
    short names given, in order, for the table."""
    start = ord(prefix) - ord("a")
    letters = [chr(ord("a") + (start + k) % 26) for k in range(26)]     # i, j, ..., h
    taken = {str(v) for v in plain}
    for letter in letters:
        pattern = re.compile(re.escape(letter) + "[0-9]+")
        if not any(pattern.fullmatch(name) for name in taken):
            break
    else:                                           # pragma: no cover (26 letters)
        letter = "_" + prefix
    out: dict[Hashable, str] = {}
    table: list[tuple[str, Hashable]] = []
    for v in values:
        if v in out:
            continue
        if v in plain:
            out[v] = str(v)
        else:
            out[v] = f"{letter}{len(table) + 1}"
            table.append((out[v], v))
    return out, table


def table_line(kind: str, name: str, value: Hashable) -> str:
    """``| name i7 ('cell', 0, 6)``: a row of the name table (one line, whatever the repr)."""
    text = repr(value)
    if not text.isprintable():
        text = ascii(value)
    return f"| {kind} {name} {text}"


class NameTable:
    """The table of short names in the comments before the item line, as it is read:
    name -> value, for items and for colours (values Python reads back from their repr)."""

    def __init__(self) -> None:
        self.on = False
        self.item: dict[str, Hashable] = {}
        self.colour: dict[str, Hashable] = {}

    def see(self, text: str) -> None:
        """Read a comment line before the item line."""
        if text.strip() == NAMES_HEADER:
            self.on = True
            return
        entry = _ENTRY.fullmatch(text.strip()) if self.on else None
        if entry is None:
            return
        try:
            value = ast.literal_eval(entry.group(3))
            hash(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return                          # not a value Python reads back: keep the name
        (self.item if entry.group(1) == "name" else self.colour)[entry.group(2)] = value

    def problem(self, options: dict[Hashable, tuple[Hashable, ...]], primary: list[str],
                secondary: list[str], bounds: dict[str, tuple[int, int]],
                costs: dict[Hashable, int | float | Fraction]) -> ExactCover:
        """The problem with every short name turned back into its value."""
        item, colour = self.item, self.colour
        if not item and not colour:
            return ExactCover(options, secondary=secondary, primary=primary, bounds=bounds,
                              costs=costs)

        def entry(e: Hashable) -> Hashable:
            if isinstance(e, Colored):
                return Colored(item.get(str(e.item), e.item), colour.get(str(e.color), e.color))
            return item.get(str(e), e)

        return ExactCover({label: tuple(map(entry, entries)) for label, entries in options.items()},
                          secondary=[item.get(x, x) for x in secondary],
                          primary=[item.get(x, x) for x in primary],
                          bounds={item.get(x, x): b for x, b in bounds.items()}, costs=costs)
