"""Errors raised by the dlx package.

Every problem with the *input* (a malformed option, an unknown item, a bad line in
a DLX file) is an :class:`ExactCoverError`, which is a :class:`ValueError`, so
``except ValueError`` catches them all.  Running out of a search budget is not an
input error: it raises :class:`BudgetExceeded`, which carries what was found so far.

>>> import dlx
>>> try:
...     dlx.ExactCover({"o1": ["a", "a"]})
... except dlx.ExactCoverError as e:
...     print(e)
option 'o1': item 'a' appears twice
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: An error message shows at most this many characters of a value the caller gave.
SHOWN = 200


def shown(value: Any) -> str:
    """``repr(value)`` for an error message: never raising (an int of more than 4,300
    digits has no repr), and cut to :data:`SHOWN` characters.

    >>> shown("x"), shown(10**5000)
    ("'x'", 'an int of 5001 digits')
    """
    try:
        text = repr(value)
    except ValueError:                  # Python's limit on int-to-string conversion
        if isinstance(value, int):
            return f"an int of {_digits(value)} digits"
        return f"a {type(value).__name__}"
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        return f"a {type(value).__name__}"
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def _digits(n: int) -> int:
    """The number of decimal digits of n (without converting it to a string)."""
    n = abs(n)
    digits = max(1, int(n.bit_length() * 0.30102999566398120))
    while 10**digits <= n:
        digits += 1
    while digits > 1 and 10 ** (digits - 1) > n:
        digits -= 1
    return digits


class ExactCoverError(ValueError):
    """Base class of every input error of the dlx package."""


class OptionError(ExactCoverError):
    """An option is malformed: not iterable, a string, or has an unhashable item."""


class RepeatedItemError(OptionError):
    """An option names the same item twice (Knuth's DLX1: "item repeated")."""


class UnknownItemError(ExactCoverError):
    """An option names an item that was not declared (when ``primary`` is given)."""


class DuplicateItemError(ExactCoverError):
    """An item is declared twice, or both primary and secondary."""


class ColorError(ExactCoverError):
    """A colour is attached to a primary item, or is otherwise invalid."""


class FormatError(ExactCoverError):
    """A line of Knuth's DLX text format is malformed.

    ``line`` and ``column`` are 1-based; ``column`` is None when the whole line is at fault.
    """

    def __init__(self, message: str, line: int, column: int | None = None) -> None:
        self.line = line
        self.column = column
        self.reason = message
        where = f"line {line}" if column is None else f"line {line}, column {column}"
        super().__init__(f"{where}: {message}")


class BudgetExceeded(Exception):
    """The node budget or the time ran out before the search finished: the answer is
    *unknown*.

    ``found`` holds what the view had when it stopped (the partial count for
    ``count``, the solutions found so far for ``solutions``, the best
    ``(score, solution)`` so far or None for ``best``), ``stats`` the search
    statistics.  ``max_nodes`` is the node budget that ran out, or None when it
    was the ``timeout`` (seconds) that did.  ``frontier`` lists what was left to
    explore: one tuple of forced options (labels) per unexplored subtree, in the
    order the search would have met them; searching each with ``forced=`` and
    adding up gives the rest of the answer and of the statistics.
    """

    def __init__(self, max_nodes: int | None, found: Any = None, stats: Any = None, *,
                 timeout: float | None = None, frontier: Any = None) -> None:
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.found = found
        self.stats = stats
        self._later: Callable[[], Any] | None = None
        self.frontier = frontier
        if max_nodes is None:
            what = f"time limit of {timeout:g} s" if timeout is not None else "budget"
            super().__init__(f"{what} reached before the search finished")
        else:
            super().__init__(f"node budget of {max_nodes} exhausted before the search finished")

    @property
    def frontier(self) -> Any:
        """The unexplored subtrees (see the class), made when first read: a frontier
        holds a path per subtree, so it costs time and memory in the depth times the
        subtrees (gigabytes for a search thousands of levels deep), which a caller that
        does not read it should not pay after the time is up."""
        later = self._later
        if later is not None:
            self._later = None
            self._frontier = later()
        return self._frontier

    @frontier.setter
    def frontier(self, value: Any) -> None:
        self._frontier, self._later = value, None

    def frontier_later(self, make: Callable[[Any], Any]) -> None:
        """Have :attr:`frontier` be ``make(frontier)`` (None stays None), made when it is
        first read: ``make`` may capture what it needs to build it (the stopped
        search), and nothing is built when nobody asks.

        >>> e = BudgetExceeded(5, frontier=[(1,)])
        >>> e.frontier_later(lambda pieces: [p * 2 for p in pieces])
        >>> e.frontier
        [(1, 1)]
        """
        before, later = self._frontier, self._later

        def made() -> Any:
            value = later() if later is not None else before
            return None if value is None else make(value)

        self._frontier, self._later = None, made

    def __reduce__(self) -> Any:
        # (to another process) the frontier made first, since a closure does not pickle;
        # and the message kept as it is (``__init__`` would take it for ``max_nodes``)
        self.frontier  # noqa: B018 - made when read
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


def _rebuilt(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]
             ) -> BaseException:
    """A pickled exception as it was (see :meth:`BudgetExceeded.__reduce__`)."""
    e = cls.__new__(cls)
    e.args = args
    e.__dict__.update(state)
    return e
