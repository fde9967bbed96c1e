"""Text a line at a time, each line capped in length: the one line reader of every reader.

Knuth's format (:func:`dlx.read_dlx`), the ZDD's text file (:meth:`dlx.ZDD.read`),
the judges' batches of the command line and the puzzle files of ``problems`` all
read through :func:`read_lines`.  It reads with ``readline(limit)``, so one huge
line costs no more than the cap (a 200 MB line read with ``for line in f`` cost
383 MiB), and it names the line of every fault.

>>> import dlx
>>> list(dlx.read_lines("a b\\r\\n\\nc\\n"))
[(1, 'a b'), (2, ''), (3, 'c')]
>>> list(dlx.read_lines(["1 2 3 4\\n"], max_length=5))
Traceback (most recent call last):
...
dlx.errors.FormatError: line 1: line is longer than 5 characters
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Protocol, cast

from .errors import ExactCoverError, FormatError, shown

__all__ = ["MAX_LINE_LENGTH", "read_lines", "line_cap", "SupportsReadline", "NotTextError"]

#: The longest line (characters, without its line break) read from a stream that is not
#: a regular file (a pipe, a terminal, a socket), unless the caller says otherwise.
MAX_LINE_LENGTH = 1_000_000

_MOST = sys.maxsize - 2         # the most readline() takes, with room for a line break


class SupportsReadline(Protocol):
    """A text stream: anything with ``readline(size)`` returning str."""

    def readline(self, size: int = ..., /) -> str: ...


class NotTextError(ExactCoverError, TypeError):
    """A reader was given something other than text (bytes, a path, a number, a binary
    file): an :class:`~dlx.ExactCoverError`, and a TypeError."""


def line_cap(source: object, max_length: int | None = None) -> int:
    """The longest line :func:`read_lines` accepts from ``source``: ``max_length`` when
    given; else no cap for a str (it is in memory already) or a stream reading a regular
    file (its size bounds a line: characters are never more than bytes), and
    :data:`MAX_LINE_LENGTH` for anything else.

    >>> line_cap("a" * 5), line_cap(iter(["a"])), line_cap(None, 10)
    (5, 1000000, 10)
    """
    if max_length is not None:
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1:
            raise ExactCoverError(f"the longest line must be a whole number from 1, not"
                                  f" {shown(max_length)}")
        return min(max_length, _MOST)
    if isinstance(source, str):
        return max(len(source), 1)
    try:
        info = os.fstat(source.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return MAX_LINE_LENGTH
    if not stat.S_ISREG(info.st_mode):
        return MAX_LINE_LENGTH
    return min(max(MAX_LINE_LENGTH, info.st_size + 1), _MOST)


def read_lines(source: str | SupportsReadline | Iterable[str], *,
               max_length: int | None = None, reader: str = "read_lines"
               ) -> Iterator[tuple[int, str]]:
    """Yield ``(line number from 1, the line without its line break)`` for every line.

    Parameters
    ----------
    source : str, text stream or iterable of str
        The text itself (its lines as universal newlines split them), an open text
        file or anything with ``readline(size)``, or a list of lines.
    max_length : int or None
        The longest line accepted, in characters without the line break (``\\n``,
        ``\\r\\n``); None (the default): :func:`line_cap`, no cap for a str or a
        regular file, :data:`MAX_LINE_LENGTH` for other streams.
    reader : str
        The name of the reader, for the message when ``source`` is not text.

    Raises
    ------
    FormatError
        Naming the line: longer than the cap, or not valid text (a decoding error).
    NotTextError
        ``source`` is not text (bytes, a binary file, a number).

    Examples
    --------
    >>> import io, dlx
    >>> list(dlx.read_lines(io.StringIO("x\\ny")))
    [(1, 'x'), (2, 'y')]
    >>> list(dlx.read_lines(io.BytesIO(b"x\\n")))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dlx.lines.NotTextError: read_lines needs a text stream, but readline() returned bytes ...
    """
    cap = line_cap(source, max_length)
    next_line: Callable[[], str]
    if isinstance(source, str):
        next_line = partial(io.StringIO(source, newline=None).readline, cap + 2)
    elif hasattr(source, "readline"):
        next_line = partial(cast(SupportsReadline, source).readline, cap + 2)
    elif isinstance(source, Iterable) and not isinstance(source, (bytes, bytearray)):
        next_line = partial(next, iter(source), "")
    else:
        raise NotTextError(f"{reader} expects text (a str, or a text file opened with"
                           f" open(path)), not {type(source).__name__}")
    number = 0
    while True:
        number += 1
        try:
            line = next_line()
        except UnicodeDecodeError as e:
            raise FormatError(f"the input is not valid {e.encoding} text ({e.reason}) at or"
                              " after this line", number) from None
        if not isinstance(line, str):
            raise NotTextError(f"{reader} needs a text stream, but readline() returned"
                               f" {type(line).__name__} (open the file in text mode)")
        if not line:
            return
        text = line[:-1] if line.endswith("\n") else line
        if text.endswith("\r"):
            text = text[:-1]
        if len(text) > cap:
            raise FormatError(f"line is longer than {cap:,} characters", number)
        yield number, text
