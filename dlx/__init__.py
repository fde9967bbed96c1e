"""dlx: exact cover with Knuth's Dancing Links.

An exact-cover problem is a set of *options* (rows), each a list of *items*
(columns); a solution picks options that cover every primary item exactly once.
Knuth's toy problem (TAOCP 7.2.2.1):

>>> import dlx
>>> p = dlx.ExactCover({"o1": ["c", "e"], "o2": ["a", "d", "g"], "o3": ["b", "c", "f"],
...                     "o4": ["a", "d", "f"], "o5": ["b", "g"], "o6": ["d", "e", "g"]})
>>> dlx.first(p)
('o1', 'o5', 'o4')
>>> dlx.count(p), dlx.is_unique(p)
(1, True)
>>> dlx.best(p, {"o1": 1, "o2": 2, "o3": 3, "o4": 4, "o5": 5, "o6": 6})
(10, ('o1', 'o5', 'o4'))

Secondary items are covered at most once, and may carry colours
(``dlx.Colored(item, colour)``); ``dlx.trace(p)`` yields every step of the dance.
``dlx.split(p)`` cuts the search into pieces, and ``executor=`` on the views runs
them on any ``concurrent.futures`` executor (see :mod:`dlx.parallel`).
"""

from .errors import (
    BudgetExceeded,
    ColorError,
    DuplicateItemError,
    ExactCoverError,
    FormatError,
    OptionError,
    RepeatedItemError,
    UnknownItemError,
)
from .estimate import Estimate, estimate
from .events import Backtrack, Choose, Cover, Event, Solution, Stats, Try, Uncover
from .formats import read_dlx, write_dlx
from .prepared import Answer, Minimized, Prepared
from .problem import Colored, ExactCover
from .search import SearchState
from .verify import is_exact_cover, why_not
from .views import best, count, first, is_unique, solutions, trace

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # dlx.split lives in dlx.parallel, imported on first use (it is the biggest module)
    if name == "split":
        from .parallel import split

        return split
    raise AttributeError(f"module 'dlx' has no attribute {name!r}")


__all__ = [
    "ExactCover", "Colored", "Prepared", "Answer", "Minimized", "estimate", "Estimate",
    "solutions", "count", "first", "is_unique", "best", "trace", "split", "SearchState",
    "Stats", "Event", "Choose", "Cover", "Try", "Uncover", "Solution", "Backtrack",
    "is_exact_cover", "why_not",
    "read_dlx", "write_dlx",
    "ExactCoverError", "OptionError", "RepeatedItemError", "UnknownItemError",
    "DuplicateItemError", "ColorError", "FormatError", "BudgetExceeded",
]

