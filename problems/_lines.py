"""Judge-style input a line at a time, each line capped in length (for the readers here).

>>> list(read_lines(["3\\n", "\\n", "1 2\\n"]))
[(1, ['3']), (3, ['1', '2'])]
>>> list(read_lines(["1 2 3 4\\n"], max_length=5))
Traceback (most recent call last):
...
dlx.errors.FormatError: line 1: line is longer than 5 characters
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Protocol, cast

import dlx

MAX_LINE_LENGTH = 1_000_000
"""The longest line (characters, without its line break) accepted."""


class Readable(Protocol):
    def readline(self, size: int = ..., /) -> str: ...


def read_lines(source: Readable | Iterable[str], *,
               max_length: int = MAX_LINE_LENGTH) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number from 1, tokens) for every non-blank line of ``source``.

    A text stream is read with ``readline(limit)``, so one huge line costs no more
    than the cap; a list of lines is accepted too.  A longer line, or text that
    cannot be decoded, raises :class:`dlx.FormatError` naming the line.
    """
    next_line: Callable[[], str]
    if hasattr(source, "readline"):
        next_line = partial(cast(Readable, source).readline, max_length + 2)
    else:
        next_line = partial(next, iter(source), "")

    number = 0
    while True:
        number += 1
        try:
            line = next_line()
        except UnicodeDecodeError as e:
            raise dlx.FormatError(f"the input is not valid text ({e.reason})", number) from None
        if not line:
            return
        if len(line.rstrip("\r\n")) > max_length:
            raise dlx.FormatError(f"line is longer than {max_length:,} characters", number)
        tokens = line.split()
        if tokens:
            yield number, tokens
