"""Export for other solvers: an exact-cover problem as CNF in the DIMACS format.

:func:`write_dimacs` writes one Boolean variable per option (variables ``1..N``
in the problem's order of options), then the helper variables of colours and
counters, and clauses that hold exactly when the chosen options are a solution
(:func:`dlx.why_not` says None).  Every helper variable is *defined* by the
options (each is equivalent to a formula over them), so the CNF has exactly one
model per solution: a model counter gives :func:`dlx.count`, and any SAT solver
(CaDiCaL, Kissat, MiniSat...) gives a solution, read back through the comment
table at the top (``c option 7 'label'``).

The encoding:

* at most one of ``n`` literals: pairwise clauses (``n (n - 1) / 2`` of them) for
  ``n <= 6``; otherwise Sinz's sequential counter with its helpers made
  equivalent (``s_i`` is "one of the first i is true": ``4 n`` clauses, ``n - 1``
  helpers);
* exactly one (a primary item): that, and one clause of all of them;
* bounds ``u <= sum <= v`` (multiplicities): the sequential counter for
  cardinality, ``s[i][j]`` equivalent to "at least j of the first i", for j up to
  ``v + 1``; then ``s[n][u]`` holds and ``s[n][v + 1]`` does not;
* a colour ``c`` of a secondary item: a variable equivalent to "some option
  giving it colour c is chosen"; at most one of those and of the options using
  the item without a colour;
* an option without a primary item (never chosen by the search): false;
* ``forced`` options: true.

>>> import dlx, io
>>> out = io.StringIO()
>>> write_dimacs(dlx.ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]}), out)
(3, 4)
>>> print(out.getvalue(), end="")
c dlx exact cover as CNF: one variable per option, then helpers
c option 1 'x'
c option 2 'y'
c option 3 'z'
p cnf 3 4
1 2 0
-1 -2 0
2 3 0
-2 -3 0
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable
from typing import IO

from .cpsat import Columns
from .errors import shown
from .problem import ExactCover

__all__ = ["write_dimacs", "PAIRWISE"]

#: At most one of this many literals or fewer is written as pairwise clauses.
PAIRWISE = 6


class _CNF:
    """Clauses and a counter of variables."""

    def __init__(self, variables: int) -> None:
        self.variables = variables
        self.clauses: list[list[int]] = []
        self.notes: list[str] = []

    def new(self) -> int:
        self.variables += 1
        return self.variables

    def add(self, *lits: int) -> None:
        self.clauses.append(list(lits))

    def at_most_one(self, lits: list[int]) -> None:
        n = len(lits)
        if n <= PAIRWISE:
            for i in range(n):
                for j in range(i + 1, n):
                    self.add(-lits[i], -lits[j])
            return
        # Sinz's sequential counter, s[i] <-> lits[0] or ... or lits[i]
        s = [self.new() for _ in range(n - 1)]
        self.add(-lits[0], s[0])
        self.add(-s[0], lits[0])
        for i in range(1, n - 1):
            self.add(-lits[i], s[i])
            self.add(-s[i - 1], s[i])
            self.add(-s[i], s[i - 1], lits[i])
            self.add(-lits[i], -s[i - 1])
        self.add(-lits[n - 1], -s[n - 2])

    def between(self, lits: list[int], u: int, v: int) -> None:
        """u <= sum(lits) <= v: s[i][j] <-> at least j of lits[0..i] (j = 1..v + 1)."""
        n = len(lits)
        top = min(v + 1, n)
        if u > n:
            self.add()                                  # the empty clause
            return
        if u == 0 and v >= n:
            return
        prev: list[int] = []                # s[i-1][1..top], [] for i = 0 (all false)
        for i, x in enumerate(lits):
            row = []
            for j in range(1, min(i + 1, top) + 1):
                s = self.new()
                below = prev[j - 1] if j - 1 < len(prev) else None      # s[i-1][j]
                less = prev[j - 2] if j >= 2 else None                  # s[i-1][j-1]
                # s <-> below or (x and less), where s[i-1][0] is true
                if below is not None:
                    self.add(-below, s)
                if j == 1:
                    self.add(-x, s)
                    self.add(-s, x, *([below] if below is not None else []))
                else:
                    assert less is not None
                    self.add(-x, -less, s)
                    self.add(-s, less, *([below] if below is not None else []))
                    self.add(-s, x, *([below] if below is not None else []))
                row.append(s)
            prev = row
        if u >= 1:
            self.add(prev[u - 1])
        if v + 1 <= n:
            self.add(-prev[v])


def write_dimacs(problem: ExactCover, file: str | os.PathLike[str] | IO[str], *,
                 forced: Iterable[Hashable] = ()) -> tuple[int, int]:
    """Write ``problem`` as CNF in the DIMACS format to ``file`` (a path or a text stream).

    Variable ``k`` (1-based) is the k-th option; a comment line ``c option k LABEL``
    names each (the label's ``repr``), and the encoding is described in
    :mod:`dlx.dimacs`.  Each model of the CNF is one solution.

    Parameters
    ----------
    problem : ExactCover
    file : path or text stream
    forced : iterable of option labels
        Options every solution must hold (unit clauses).

    Returns
    -------
    (variables, clauses) : tuple[int, int]
        The counts of the ``p cnf`` line.

    Examples
    --------
    >>> import dlx, io
    >>> p = dlx.ExactCover({"x": ["a", dlx.Colored("s", 1)], "y": ["b", dlx.Colored("s", 1)]},
    ...                    secondary=["s"])
    >>> write_dimacs(p, io.StringIO())
    (3, 5)
    """
    cols = Columns(problem)
    cnf = _CNF(len(cols.labels))
    for k, users in enumerate(cols.users):
        lits = [o + 1 for o in users]
        bound = cols.bounds[k]
        if bound is None:
            for color, holders in cols.colors[k].items():
                y = cnf.new()
                cnf.notes.append(f"c colour {y} {_one_line(cols.items[k])}"
                                 f" {_one_line(color)}")
                for o in holders:
                    cnf.add(-(o + 1), y)
                cnf.add(-y, *(o + 1 for o in holders))
                lits.append(y)
            cnf.at_most_one(lits)
        elif bound == (1, 1):
            cnf.add(*lits)
            cnf.at_most_one(lits)
        else:
            cnf.between(lits, *bound)
    for o in cols.idle:
        cnf.add(-(o + 1))
    for o in cols.forced(tuple(forced)):
        cnf.add(o + 1)
    head = ["c dlx exact cover as CNF: one variable per option, then helpers"]
    head += [f"c option {o + 1} {_one_line(label)}" for o, label in enumerate(cols.labels)]
    head += cnf.notes
    head.append(f"p cnf {cnf.variables} {len(cnf.clauses)}")
    if hasattr(file, "write"):
        _write(file, head, cnf.clauses)  # type: ignore[arg-type]
    else:
        with open(file, "w", encoding="utf-8") as out:
            _write(out, head, cnf.clauses)
    return cnf.variables, len(cnf.clauses)


def _write(out: IO[str], head: list[str], clauses: list[list[int]]) -> None:
    out.write("\n".join(head) + "\n")
    for clause in clauses:
        out.write(" ".join(map(str, clause)) + (" 0\n" if clause else "0\n"))


def _one_line(value: object) -> str:
    """A label or item as a comment shows it: its whole repr, on one line."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - an int too long to write, a broken __repr__
        text = shown(value)
    return text.replace("\n", "\\n").replace("\r", "\\r")
