"""Rendering: the multi-line pretty grid, and a rich ``Text`` of it with the givens in bold.

The functions take a grid's values, size and box (not a Grid), so that
:class:`~problems.sudoku.Grid` can call them without an import cycle.
"""

from __future__ import annotations

from typing import Any

from .notations import _VALUE_CHAR

#: A line of the pretty grid and the (start, end, cell index) span of each of its cells.
_Line = tuple[str, list[tuple[int, int, int]]]


def _cell_texts(values: tuple[int, ...], n: int) -> list[str]:
    if n <= 35:
        return [_VALUE_CHAR[v] for v in values]
    width = len(str(n))
    return [(str(v) if v else ".").rjust(width) for v in values]


def _pretty(values: tuple[int, ...], n: int, box: tuple[int, int] | None) -> str:
    """Multi-line rendering with box rules (no rules without a box)."""
    return "\n".join(line for line, _ in _pretty_lines(values, n, box))


def _pretty_lines(values: tuple[int, ...], n: int, box: tuple[int, int] | None) -> list[_Line]:
    """Lines of :func:`_pretty`, each with the (start, end, cell) spans of its cells."""
    texts = _cell_texts(values, n)
    br, bc = box if box is not None else (n, n)
    out: list[_Line] = []
    rule = ""
    for r in range(n):
        if r and r % br == 0:
            out.append((rule, []))
        parts: list[str] = []
        spans: list[tuple[int, int, int]] = []
        pos = 0
        for c in range(n):
            if c and c % bc == 0:
                parts.append("| ")
                pos += 2
            t = texts[r * n + c]
            spans.append((pos, pos + len(t), r * n + c))
            parts.append(t + (" " if c < n - 1 else ""))
            pos += len(t) + 1
        line = "".join(parts)
        if not rule:
            rule = "".join("+" if ch == "|" else "-" for ch in line)
        out.append((line, spans))
    return out


def _rich_text(values: tuple[int, ...], n: int, box: tuple[int, int] | None,
               givens: tuple[bool, ...]) -> Any:
    """A rich ``Text`` of :func:`_pretty`: givens in bold, blanks and rules dim."""
    from rich.text import Text

    text = Text()
    for k, (line, spans) in enumerate(_pretty_lines(values, n, box)):
        if k:
            text.append("\n")
        start = len(text)
        text.append(line, style="dim" if not spans else "")
        for a, b, cell in spans:
            if values[cell] == 0:
                text.stylize("dim", start + a, start + b)
            elif givens[cell]:
                text.stylize("bold", start + a, start + b)
    return text
