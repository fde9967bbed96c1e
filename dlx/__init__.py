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
:mod:`dlx.viz` draws the links at any step, search trees and search effort
(matplotlib: ``pip install 'dancing-links-dlx[viz]'``).
"""

import sys as _sys

# The public names are loaded on first use (PEP 562), so that ``import dlx`` costs
# almost nothing: the ``dlx`` command starts by importing this package, and a Ctrl-C
# can only be caught once its handler is in place.  mypy and readers see the imports.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType as _ModuleType

    from . import viz
    from .deadline import Deadline
    from .dimacs import write_dimacs
    from .engine import engine_for
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
    from .formats import KNUTH_TOY, read_dlx, write_dlx
    from .lines import MAX_LINE_LENGTH, read_lines
    from .parallel import split
    from .prepared import Answer, CodedAnswers, Codes, Minimized, Prepared
    from .problem import Colored, ExactCover
    from .reduce import Reduced, reduce
    from .search import SearchState
    from .symmetry import Symmetries, symmetries
    from .verify import is_exact_cover, why_not
    from .views import best, count, first, is_unique, solutions, trace, zdd
    from .zdd import ZDD
else:
    _ModuleType = type(_sys)
del TYPE_CHECKING

__version__ = "0.1.0"

__all__ = [
    "ExactCover", "Colored", "Prepared", "Answer", "Codes", "CodedAnswers", "Minimized",
    "estimate", "Estimate",
    "solutions", "count", "first", "is_unique", "best", "trace", "split", "SearchState",
    "Stats", "Event", "Choose", "Cover", "Try", "Uncover", "Solution", "Backtrack",
    "is_exact_cover", "why_not", "engine_for", "reduce", "Reduced",
    "read_dlx", "write_dlx", "write_dimacs", "read_lines", "MAX_LINE_LENGTH", "KNUTH_TOY", "viz",
    "ExactCoverError", "OptionError", "RepeatedItemError", "UnknownItemError",
    "DuplicateItemError", "ColorError", "FormatError", "BudgetExceeded", "Deadline",
    "ZDD", "zdd",
    "symmetries", "Symmetries", "cli",
]

# The module of each public name (dlx.split lives in dlx.parallel, the biggest module).
_HOME = {
    "BudgetExceeded": "errors", "ColorError": "errors", "DuplicateItemError": "errors",
    "ExactCoverError": "errors", "FormatError": "errors", "OptionError": "errors",
    "RepeatedItemError": "errors", "UnknownItemError": "errors", "Deadline": "deadline",
    "Estimate": "estimate", "estimate": "estimate", "engine_for": "engine",
    "Backtrack": "events", "Choose": "events", "Cover": "events", "Event": "events",
    "Solution": "events", "Stats": "events", "Try": "events", "Uncover": "events",
    "read_dlx": "formats", "write_dlx": "formats", "KNUTH_TOY": "formats", "write_dimacs": "dimacs",
    "read_lines": "lines", "MAX_LINE_LENGTH": "lines",
    "split": "parallel",
    "Answer": "prepared", "Codes": "prepared", "CodedAnswers": "prepared",
    "Minimized": "prepared", "Prepared": "prepared",
    "Colored": "problem", "ExactCover": "problem",
    "Reduced": "reduce", "reduce": "reduce",
    "SearchState": "search",
    "Symmetries": "symmetry", "symmetries": "symmetry",
    "is_exact_cover": "verify", "why_not": "verify",
    "best": "views", "count": "views", "first": "views", "is_unique": "views",
    "solutions": "views", "trace": "views", "zdd": "views",
    "ZDD": "zdd",
}

# The modules that loading every public name brings in: ``dlx.search`` and the like
# work after a bare ``import dlx``, as they did when the names were loaded eagerly.
_MODULES = ("deadline", "engine", "errors", "estimate", "events", "formats", "links",
            "minimal", "options", "prepared", "problem", "search", "verify", "views")

# The public modules (in ``__all__``): ``dlx.viz``, the pictures, which imports matplotlib
# and numpy (the ``viz`` extra) only when it draws; ``dlx.cli``, the ``dlx`` command and
# what it offers the commands of other packages (``dlx.cli.__all__``).
_PUBLIC_MODULES = ("viz", "cli")


def __getattr__(name: str) -> object:
    from importlib import import_module

    if name in _HOME:
        value = getattr(import_module(f".{_HOME[name]}", __name__), name)
    elif name in _MODULES or name in _PUBLIC_MODULES:
        value = import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'dlx' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *_MODULES, *(name for name in globals()
                                          if not name.startswith("_") or name[:2] == "__")})


class _Package(_ModuleType):
    """The type of the ``dlx`` module.  Loading a submodule binds it on its package
    (``dlx.estimate = <module dlx.estimate>``); where a public name has the same name
    (the function :func:`dlx.estimate`), the name wins, as it did when it was imported
    eagerly."""

    def __setattr__(self, name: str, value: object) -> None:
        if not (name in _HOME and isinstance(value, _ModuleType)):
            super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
