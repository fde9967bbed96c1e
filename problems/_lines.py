"""Judge-style input a line at a time: the tokens of each non-blank line, read by
:func:`dlx.read_lines` (each line capped in length, each fault naming its line).

>>> list(read_lines(["3\\n", "\\n", "1 2\\n"]))
[(1, ['3']), (3, ['1', '2'])]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import dlx


def read_lines(source: Any | Iterable[str], *, max_length: int | None = None
               ) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number from 1, tokens) for every non-blank line of ``source`` (a text
    stream or a list of lines); ``max_length`` as for :func:`dlx.read_lines`."""
    for number, text in dlx.read_lines(source, max_length=max_length):
        tokens = text.split()
        if tokens:
            yield number, tokens
