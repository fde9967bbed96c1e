"""Pictures of the dance: the links at any pause of a trace, puzzles, search trees.

Every ``*_figure`` function returns a matplotlib ``Figure`` and takes plain data
(strings, lists, tuples, dicts), so it works with or without the encoders in
:mod:`problems`.  matplotlib is imported inside the functions that draw, so
``import dlx.viz`` costs nothing until a picture is asked for; the text
renderings (:func:`links_text`, :func:`links_table`) need no matplotlib at all.

A :class:`Pause` is the state of the links between two steps of the search: which
items are covered, which options are hidden, each item's ``LEN``, and the
partial solution.  :func:`record` runs :func:`dlx.trace`'s loop on its own links
and keeps a pause after every event, so a notebook can show step *k*:

>>> import dlx
>>> from dlx import viz
>>> toy = dlx.ExactCover({"ce": ["c", "e"], "adg": ["a", "d", "g"], "bcf": ["b", "c", "f"],
...                       "adf": ["a", "d", "f"], "bg": ["b", "g"], "deg": ["d", "e", "g"]},
...                      primary=list("abcdefg"))
>>> steps = viz.record(toy)
>>> len(steps), str(steps[5].event)
(38, 'L0 cover g')
>>> print(viz.links_text(steps[5]))
step 5: L0 cover g
partial solution: adg
covered: a d g
         a  b  c  d  e  f  g
  LEN    -  1  2  -  1  1  -
    ce   .  .  1  .  1  .  .
  * adg  1  .  .  1  .  .  1
    bcf  .  1  1  .  .  1  .
  - adf  1  .  .  1  .  1  .
  - bg   .  1  .  .  .  .  1
  - deg  .  .  .  1  1  .  1
>>> steps[5].hidden_options
('adf', 'bg', 'deg')
>>> steps[0].arrays == steps[-1].arrays     # uncovering restored everything
True

``*`` marks the partial solution, ``-`` a hidden option, and ``-`` as an item's
``LEN`` a covered item.
"""

from __future__ import annotations

import io
import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MethodType
from typing import TYPE_CHECKING, Any

from .errors import BudgetExceeded
from .events import Backtrack, Choose, Cover, Event, Solution, Try, Uncover
from .links import Links
from .problem import Colored, ExactCover
from .search import run

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "Pause", "pause_of", "Stepper", "record",
    "links_figure", "links_text", "links_table",
    "search_tree", "TreeNode", "search_tree_figure", "profile_figure",
    "sudoku_figure", "queens_figure", "tiling_figure", "rectangles_figure",
    "AVAILABLE", "COVERED", "HIDDEN", "CHOSEN", "ONE",
]

# Cell codes of the matrix image in links_figure (ax.images[0].get_array()): the
# background of an empty cell, or a 1 drawn in a stronger shade of the same family.
AVAILABLE, COVERED, HIDDEN, CHOSEN = 0, 1, 2, 3
ONE = 4  #: add to a background code for a cell that holds a 1
_CELL_COLORS = (
    "#ffffff", "#e6e6e6", "#e6e6e6", "#fde9c9",      # empty: available, covered, hidden, chosen
    "#1f4e79", "#a6a6a6", "#a6a6a6", "#e07b00",      # a 1 in such a cell
)
_INK = {"given": "#111111", "filled": "#1f6fc5", "queen": "#7a1f1f"}


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class Pause:
    """The links between two steps of a search, as plain data.

    ``items`` and ``options`` are names and labels; ``option_items[o]`` lists the
    item indices (0-based, into ``items``) of option ``o``; ``lengths`` is
    Knuth's ``LEN`` per item; ``covered`` and ``hidden`` flag covered items and
    unavailable options (the partial solution's options are hidden too: use
    :attr:`hidden_options` for the others); ``chosen`` is the partial solution
    in level order; ``focus`` the item chosen at the current level; ``arrays``
    the dynamic link arrays (:meth:`Links.snapshot`), to compare two pauses.
    """

    step: int
    event: Event | None
    level: int
    items: tuple[Hashable, ...]
    n_primary: int
    options: tuple[Hashable, ...]
    option_items: tuple[tuple[int, ...], ...]
    lengths: tuple[int, ...]
    covered: tuple[bool, ...]
    hidden: tuple[bool, ...]
    chosen: tuple[Hashable, ...]
    focus: Hashable | None
    arrays: tuple[tuple[int, ...], ...]

    @property
    def active_items(self) -> tuple[Hashable, ...]:
        """Items not covered (primary ones first)."""
        return tuple(i for i, c in zip(self.items, self.covered, strict=True) if not c)

    @property
    def covered_items(self) -> tuple[Hashable, ...]:
        return tuple(i for i, c in zip(self.items, self.covered, strict=True) if c)

    @property
    def available_options(self) -> tuple[Hashable, ...]:
        """Options still in play: every item uncovered and every node in its list."""
        return tuple(o for o, h in zip(self.options, self.hidden, strict=True) if not h)

    @property
    def hidden_options(self) -> tuple[Hashable, ...]:
        """Options hidden by the covers, not counting the partial solution's own."""
        chosen = set(self.chosen)
        return tuple(o for o, h in zip(self.options, self.hidden, strict=True)
                     if h and o not in chosen)

    def title(self) -> str:
        if self.event is None:
            return f"step {self.step}: before the search"
        return f"step {self.step}: {self.event}"


def pause_of(links: Links | ExactCover, chosen: Iterable[Hashable] = (), *,
             focus: Hashable | None = None, event: Event | None = None, step: int = 0,
             level: int | None = None) -> Pause:
    """Read the current state of ``links`` (or of a problem's fresh links) into a :class:`Pause`.

    An option is hidden when one of its items is covered or one of its nodes is
    no longer in its item's vertical list (as ``cover`` leaves it).
    """
    if isinstance(links, ExactCover):
        links = Links.build(links)
    t = links
    n = t.N
    top, dlink, rlink = t.TOP, t.DLINK, t.RLINK
    active = set()
    for head in (0, n + 1):
        i = rlink[head]
        while i != head:
            active.add(i)
            i = rlink[i]
    linked = set()
    for i in range(1, n + 1):
        x = dlink[i]
        while x != i:
            linked.add(x)
            x = dlink[x]
    hidden = tuple(
        any(x not in linked or top[x] not in active for x in nodes) for nodes in t.option_nodes
    )
    chosen_t = tuple(chosen)
    return Pause(
        step=step, event=event, level=len(chosen_t) if level is None else level,
        items=tuple(t.item_names[1:n + 1]), n_primary=t.N1, options=tuple(t.labels),
        option_items=tuple(tuple(top[x] - 1 for x in nodes) for nodes in t.option_nodes),
        lengths=tuple(t.length(i) for i in range(1, n + 1)),
        covered=tuple(i not in active for i in range(1, n + 1)),
        hidden=hidden, chosen=chosen_t, focus=focus, arrays=t.snapshot(),
    )


class _Partial:
    """Follow the partial solution through the events of a trace.

    An option joins at its ``Try`` and leaves when the last of its other items
    is uncovered again (an option with one item leaves at the next ``Try`` or
    at the ``Uncover`` of the item chosen at its level).
    """

    def __init__(self) -> None:
        self.chosen: list[Hashable] = []
        self.committed: list[int] = []
        self.focus: list[Hashable] = []
        self.level = 0

    def see(self, e: Event) -> None:
        lev = e.level
        self.level = lev
        if isinstance(e, Choose):
            del self.focus[lev:]
            self.focus.append(e.item)
        elif isinstance(e, Try):
            del self.chosen[lev:], self.committed[lev:]
            self.chosen.append(e.option)
            self.committed.append(0)
        elif isinstance(e, Cover):
            if len(self.chosen) > lev:
                self.committed[lev] += 1
        elif isinstance(e, Uncover):
            if len(self.chosen) > lev:
                if self.committed[lev] > 0:
                    self.committed[lev] -= 1
                if self.committed[lev] == 0:
                    del self.chosen[lev:], self.committed[lev:]
        elif isinstance(e, Backtrack):
            del self.focus[lev:]

    def current_focus(self) -> Hashable | None:
        return self.focus[self.level] if self.level < len(self.focus) else None


class Stepper:
    """Every pause of a search, recorded for stepping through.

    ``stepper[0]`` is the state before the search and ``stepper[k]`` the state
    after the k-th event (``stepper[k].event``); ``len(stepper)`` is one more than
    the number of events.  Use :meth:`figure` and :meth:`text` to look at a step,
    :meth:`slider` for an ipywidgets slider when ipywidgets is installed.
    """

    def __init__(self, problem: ExactCover, *, max_steps: int = 5000,
                 heuristic: Any = None) -> None:
        links = Links.build(problem)
        partial = _Partial()
        pauses = [pause_of(links)]
        search = run(links, "trace", heuristic=heuristic)
        try:
            for k, event in enumerate(search, 1):
                if k > max_steps:
                    raise ValueError(
                        f"the trace has more than {max_steps} steps; record() is for small"
                        " problems (raise max_steps=..., or use dlx.count(problem, stats=...))"
                    )
                partial.see(event)
                pauses.append(pause_of(links, partial.chosen, focus=partial.current_focus(),
                                       event=event, step=k, level=event.level))
        finally:
            search.close()
        self.problem = problem
        self.pauses = pauses

    @property
    def events(self) -> list[Event]:
        return [p.event for p in self.pauses[1:] if p.event is not None]

    def __len__(self) -> int:
        return len(self.pauses)

    def __getitem__(self, k: int) -> Pause:
        return self.pauses[k]

    def __iter__(self) -> Iterator[Pause]:
        return iter(self.pauses)

    def find(self, text: str, start: int = 0) -> int:
        """The first step at or after ``start`` whose event reads ``text`` (as ``str(event)``)."""
        for p in self.pauses[start:]:
            if p.event is not None and str(p.event) == text:
                return p.step
        raise ValueError(f"no step reads {text!r}")

    def figure(self, k: int, **kwargs: Any) -> Figure:
        """:func:`links_figure` of step k."""
        return links_figure(self.pauses[k], **kwargs)

    def text(self, k: int) -> str:
        """:func:`links_text` of step k."""
        return links_text(self.pauses[k])

    def slider(self) -> Any:
        """An ipywidgets slider over the steps, or None when ipywidgets is not installed."""
        try:
            import ipywidgets  # type: ignore[import-not-found,unused-ignore]
            from IPython.display import display
        except ImportError:
            return None

        def show(step: int) -> None:
            display(self.figure(step))  # type: ignore[no-untyped-call,unused-ignore]

        return ipywidgets.interactive(
            show, step=ipywidgets.IntSlider(min=0, max=len(self) - 1, value=0, description="step")
        )


def record(problem: ExactCover, *, max_steps: int = 5000, heuristic: Any = None) -> Stepper:
    """Run the search on ``problem`` and keep a :class:`Pause` after every event."""
    return Stepper(problem, max_steps=max_steps, heuristic=heuristic)


def _as_pause(state: Pause | Links | ExactCover, chosen: Iterable[Hashable]) -> Pause:
    if isinstance(state, Pause):
        return state
    return pause_of(state, chosen)


def _name(x: Hashable) -> str:
    if isinstance(x, str):
        return x
    if isinstance(x, tuple):
        return (" " if any(isinstance(y, str) for y in x) else ",").join(_name(y) for y in x)
    return str(x)


# --------------------------------------------------------------------------- text


def links_text(state: Pause | Links | ExactCover, chosen: Iterable[Hashable] = ()) -> str:
    """The 0/1 matrix of the links as plain text (``*`` partial solution, ``-`` hidden/covered).

    >>> import dlx
    >>> print(links_text(dlx.ExactCover({"x": ["a", "b"], "y": ["b"]})))
    step 0: before the search
             a  b
      LEN    1  2
        x    1  1
        y    .  1
    """
    p = _as_pause(state, chosen)
    names = [_name(i) for i in p.items]
    labels = [_name(o) for o in p.options]
    widths = [max(len(s), 1) for s in names]
    lwidth = max([len(s) for s in labels] + [3])
    lines = [p.title()]
    if p.chosen:
        lines.append("partial solution: " + ", ".join(_name(o) for o in p.chosen))
    if any(p.covered):
        lines.append("covered: " + " ".join(_name(i) for i in p.covered_items))
    sep = [" |" if k == p.n_primary and k < len(names) else "" for k in range(len(names))]

    def row(head: str, cells: list[str]) -> str:
        body = "".join(f"{sep[k]}  {c:>{widths[k]}}" for k, c in enumerate(cells))
        return f"{head:<{lwidth + 4}}{body}".rstrip()

    lines.append(row("", names))
    lines.append(row("  LEN", ["-" if c else str(n) for n, c in zip(p.lengths, p.covered,
                                                                         strict=True)]))
    chosen_set = set(p.chosen)
    for o in range(len(p.options)):
        mark = "*" if p.options[o] in chosen_set else ("-" if p.hidden[o] else " ")
        cells = ["." for _ in names]
        for k in p.option_items[o]:
            cells[k] = "1"
        lines.append(row(f"  {mark} {labels[o]}", cells))
    return "\n".join(lines)


def links_table(state: Pause | Links | ExactCover, chosen: Iterable[Hashable] = ()) -> Any:
    """The same matrix as a ``rich.table.Table`` (hidden and covered dimmed, solution bold)."""
    from rich.table import Table

    p = _as_pause(state, chosen)
    table = Table(title=p.title(), show_edge=False, pad_edge=False, box=None)
    table.add_column("LEN", justify="left")
    for k, item in enumerate(p.items):
        covered = p.covered[k]
        head = f"{_name(item)}\n{'-' if covered else p.lengths[k]}"
        style = "dim" if covered else ("bold cyan" if item == p.focus else "")
        table.add_column(head, justify="center", header_style=style or "bold")
    chosen_set = set(p.chosen)
    for o in range(len(p.options)):
        label = p.options[o]
        style = "bold yellow" if label in chosen_set else ("dim" if p.hidden[o] else "")
        cells = ["." for _ in p.items]
        for k in p.option_items[o]:
            cells[k] = "1"
        table.add_row(_name(label), *cells, style=style)
    return table


# --------------------------------------------------------------------------- figures


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    """A figure outside pyplot (nothing global to close) that Jupyter shows as a PNG."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    setattr(fig, "_repr_png_", MethodType(_png, fig))  # noqa: B010 - IPython looks it up
    ax = fig.add_subplot()
    return fig, ax


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def links_figure(state: Pause | Links | ExactCover, chosen: Iterable[Hashable] = (), *,
                 title: str | None = None, labels: bool | None = None) -> Figure:
    """The options x items 0/1 matrix at one pause of the search.

    Covered items (columns) and hidden options (rows) are greyed, the partial
    solution is orange, each item's ``LEN`` is written above its name and the item
    chosen at this level is framed.  ``state`` is a :class:`Pause` (from
    :func:`record`), live :class:`~dlx.links.Links` (with ``chosen`` = the
    partial solution's labels), or a problem (its starting state).  The image's
    array holds the codes ``AVAILABLE, COVERED, HIDDEN, CHOSEN`` (+ ``ONE`` for a
    1), so tests and readers can count what is drawn.  ``labels`` (default: when
    the matrix is small) writes the names, labels and lengths.
    """
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch, Rectangle

    p = _as_pause(state, chosen)
    order = list(range(len(p.options)))
    n_rows, n_cols = len(order), len(p.items)
    if labels is None:
        labels = n_rows <= 60 and n_cols <= 60
    chosen_set = set(p.chosen)
    codes = np.zeros((max(n_rows, 1), max(n_cols, 1)), dtype=np.int8)
    for r, o in enumerate(order):
        if p.options[o] in chosen_set:
            background = CHOSEN
        elif p.hidden[o]:
            background = HIDDEN
        else:
            background = AVAILABLE
        for k in range(n_cols):
            codes[r, k] = COVERED if background == AVAILABLE and p.covered[k] else background
        for k in p.option_items[o]:
            codes[r, k] += ONE
    names = [_name(i) for i in p.items]
    rotate = max((len(x) for x in names), default=0) > 3
    if labels:
        top = 0.12 * max((len(x) for x in names), default=1) if rotate else 0.3
        fig, ax = _figure(min(3.6 + 0.38 * n_cols, 15), min(1.4 + top + 0.34 * n_rows, 14))
    else:
        fig, ax = _figure(10, 6)
    ax.imshow(codes, cmap=ListedColormap(_CELL_COLORS), vmin=0, vmax=len(_CELL_COLORS) - 1,
              interpolation="nearest", aspect="equal" if labels else "auto")
    ax.set_title(title if title is not None else p.title(), loc="left", fontsize=10)
    grey, red = _CELL_COLORS[HIDDEN + ONE], "#c0392b"
    if labels:
        ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=1.5)
        ax.tick_params(which="both", length=0, top=False, bottom=False)
        ax.xaxis.tick_top()
        ax.set_xticks(range(n_cols), names, fontsize=9, rotation=90 if rotate else 0)
        ax.set_yticks(range(n_rows), [_name(p.options[o]) for o in order], fontsize=9)
        for tick, item, covered in zip(ax.get_xticklabels(), p.items, p.covered, strict=True):
            tick.set_fontweight("bold")
            if covered:
                tick.set_color(grey)
            elif item == p.focus:
                tick.set_color(red)
        for tick, o in zip(ax.get_yticklabels(), order, strict=True):
            if p.options[o] in chosen_set:
                tick.set_color(_CELL_COLORS[CHOSEN + ONE])
                tick.set_fontweight("bold")
            elif p.hidden[o]:
                tick.set_color(grey)
        for k in range(n_cols):
            ax.text(k, -0.9, "-" if p.covered[k] else str(p.lengths[k]), ha="center",
                    va="center", fontsize=8, color=grey if p.covered[k] else "#111111",
                    gid="item-len")
        ax.text(-0.6, -0.9, "LEN", ha="right", va="center", fontsize=8, color="#555555")
        ax.set_ylim(n_rows - 0.5, -1.4)
        for side in ax.spines.values():
            side.set_visible(False)
    else:
        ax.set_xlabel(f"{n_cols} items")
        ax.set_ylabel(f"{n_rows} options")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_color("#bbbbbb")
    if 0 < p.n_primary < n_cols:
        ax.axvline(p.n_primary - 0.5, color="#555555", linewidth=1.2, linestyle="--",
                   gid="secondary")
    if p.focus is not None and p.focus in p.items:
        k = p.items.index(p.focus)
        ax.add_patch(Rectangle((k - 0.5, -0.5), 1, n_rows, fill=False, linewidth=2.2,
                               edgecolor=red, zorder=4, gid="focus"))
    legend = [Patch(color=_CELL_COLORS[AVAILABLE + ONE], label="available"),
              Patch(color=grey, label="hidden option or covered item"),
              Patch(color=_CELL_COLORS[CHOSEN + ONE], label="partial solution")]
    if p.focus is not None:
        legend.append(Patch(fill=False, edgecolor=red, linewidth=2, label="item chosen"))
    fig.legend(handles=legend, loc="outside right upper", fontsize=8, frameon=False)
    return fig


def _cell_values(grid: Any) -> list[int]:
    """A Sudoku grid (text, flat or nested numbers, an object with ``values``) as ints, 0 blank."""
    values = getattr(grid, "values", None)
    if values is not None and not callable(values):
        return [int(v) for v in values]
    if isinstance(grid, str):
        out = []
        for ch in grid:
            if ch.isspace() or ch in "|+-":
                continue
            if ch in ".0_":
                out.append(0)
            elif ch.isdigit():
                out.append(int(ch))
            elif ch.isalpha():
                out.append(ord(ch.upper()) - ord("A") + 10)
            else:
                raise ValueError(f"unexpected character {ch!r} in a Sudoku grid")
        return out
    flat: list[int] = []
    for v in grid:
        if isinstance(v, Sequence) and not isinstance(v, str):
            flat.extend(int(x or 0) for x in v)
        else:
            flat.append(0 if v in (None, ".", "") else int(v))
    return flat


def sudoku_figure(grid: Any, givens: Any = None, *, box: tuple[int, int] | None = None,
                  regions: Sequence[Hashable] | None = None, title: str | None = None) -> Figure:
    """A Sudoku grid: givens in black, filled digits in blue, thick lines between boxes.

    ``grid`` is an 81-character string (``.`` or ``0`` blank), a flat or nested list
    of numbers, or any object with ``values`` (such as ``problems.sudoku.Grid``,
    whose ``givens`` and ``box`` are used too).  ``givens`` is the puzzle (same
    forms) or a list of booleans; by default every filled cell is a given.
    ``regions`` (one region name per cell) draws jigsaw outlines instead of boxes.
    """
    values = _cell_values(grid)
    n = math.isqrt(len(values))
    if n * n != len(values) or n == 0:
        raise ValueError(f"a Sudoku grid needs a square number of cells, not {len(values)}")
    if givens is None:
        given_flags = getattr(grid, "givens", None)
        flags = [bool(v) for v in values] if given_flags is None else [bool(g) for g in given_flags]
    elif isinstance(givens, Sequence) and givens and all(isinstance(g, bool) for g in givens):
        flags = list(givens)
    else:
        flags = [bool(v) for v in _cell_values(givens)]
    if len(flags) != n * n:
        raise ValueError(f"givens has {len(flags)} cells for a {n}x{n} grid")
    if regions is None:
        if box is None:
            box = getattr(grid, "box", None)
        if box is None:
            b = math.isqrt(n)
            box = (b, n // b) if b * (n // b) == n else (1, n)
        br, bc = box
        regions = [(r // br, c // bc) for r in range(n) for c in range(n)]
    fig, ax = _figure(min(0.5 * n + 0.6, 10), min(0.5 * n + 0.8, 10))
    for r in range(n):
        for c in range(n):
            v = values[r * n + c]
            if v:
                kind = "given" if flags[r * n + c] else "filled"
                ax.text(c + 0.5, r + 0.5, str(v), ha="center", va="center",
                        fontsize=max(7, 16 - n // 3), color=_INK[kind],
                        fontweight="bold" if kind == "given" else "normal", gid=kind)
    _grid_lines(ax, n, n, lambda r, c: regions[r * n + c])
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    filled = sum(1 for v, g in zip(values, flags, strict=True) if v and not g)
    ax.set_title(title if title is not None else
                 f"{sum(flags)} givens, {filled} filled, {values.count(0)} blank", fontsize=10)
    return fig


def _grid_lines(ax: Axes, rows: int, cols: int, region: Any,
                thin: str = "#bbbbbb") -> None:
    """Thin lines between cells of one region, thick ones between regions and at the edge."""
    from matplotlib.collections import LineCollection

    thick_segments: list[list[tuple[int, int]]] = []
    thin_segments: list[list[tuple[int, int]]] = []

    def same(a: tuple[int, int], b: tuple[int, int]) -> bool:
        inside = [0 <= r < rows and 0 <= c < cols for r, c in (a, b)]
        if not all(inside):
            return False
        return bool(region(*a) == region(*b))

    for r in range(rows + 1):
        for c in range(cols):
            seg = [(c, r), (c + 1, r)]
            (thin_segments if same((r - 1, c), (r, c)) else thick_segments).append(seg)
    for c in range(cols + 1):
        for r in range(rows):
            seg = [(c, r), (c, r + 1)]
            (thin_segments if same((r, c - 1), (r, c)) else thick_segments).append(seg)
    ax.add_collection(LineCollection(thin_segments, colors=thin, linewidths=0.8, gid="thin"))
    ax.add_collection(LineCollection(thick_segments, colors="#222222", linewidths=2.2,
                                     capstyle="projecting", gid="thick"))


def _queen_squares(solution: Any) -> list[tuple[int, int]]:
    squares = []
    for r, q in enumerate(solution):
        if isinstance(q, int):
            squares.append((r, q))
        elif hasattr(q, "row") and hasattr(q, "col"):
            squares.append((int(q.row), int(q.col)))
        else:
            row, col = q
            squares.append((int(row), int(col)))
    return squares


def queens_figure(n: int, solution: Any = (), *, title: str | None = None) -> Figure:
    """An n x n board with queens on it.

    ``solution`` is a tuple of columns (entry r = the column of row r's queen, as
    ``problems.queens`` returns), or an iterable of ``(row, col)`` pairs (such as
    ``Queen`` labels).  Rows are numbered from the top.
    """
    import numpy as np
    from matplotlib.colors import ListedColormap

    squares = _queen_squares(solution)
    for r, c in squares:
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"queen at ({r}, {c}) is off the {n}x{n} board")
    fig, ax = _figure(min(0.45 * n + 0.6, 9), min(0.45 * n + 0.8, 9))
    board = np.indices((n, n)).sum(axis=0) % 2
    ax.imshow(board, cmap=ListedColormap(["#f0d9b5", "#b58863"]), extent=(0, n, n, 0),
              interpolation="nearest")
    for r, c in squares:
        ax.text(c + 0.5, r + 0.5, "\u265b", ha="center", va="center",
                fontsize=max(8, 26 - n), color=_INK["queen"], gid="queen")
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title if title is not None else f"{len(squares)} queens on {n}x{n}",
                 fontsize=10)
    return fig


Cell = tuple[int, int]


def _tiling_cells(tiling: Any) -> dict[Cell, Hashable]:
    """(row, col) -> piece for a mapping, a list of strings, or (piece, cells) pairs."""
    if isinstance(tiling, Mapping):
        cells: dict[Cell, Hashable] = {}
        for key, value in tiling.items():
            if _is_cell(key):
                cells[(int(key[0]), int(key[1]))] = value
            else:
                for cell in value:
                    cells[(int(cell[0]), int(cell[1]))] = key
        return cells
    tiling = list(tiling)
    if tiling and all(isinstance(line, str) for line in tiling):
        return {(r, c): ch for r, line in enumerate(tiling) for c, ch in enumerate(line)
                if ch not in ". "}
    cells = {}
    for piece, members in tiling:
        for cell in members:
            cells[(int(cell[0]), int(cell[1]))] = piece
    return cells


def _is_cell(x: Any) -> bool:
    return (isinstance(x, tuple) and len(x) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in x))


def _palette(k: int, strong: bool = False) -> list[Any]:
    """k colours, saturated ones first (only saturated ones for lines: ``strong``)."""
    from matplotlib import colormaps

    if strong:
        lines = [colormaps["tab10"](j) for j in range(10)]
        lines += [colormaps["Dark2"](j) for j in range(8)]
        return [lines[j % len(lines)] for j in range(k)]
    colors = [colormaps["tab20"](j) for j in range(0, 20, 2)]
    colors += [colormaps["tab20"](j) for j in range(1, 20, 2)]
    colors += [colormaps["Set3"](j) for j in range(12)]
    return [colors[j % len(colors)] for j in range(k)]


def tiling_figure(tiling: Any, *, title: str | None = None, letters: bool = True,
                  rows: int | None = None, cols: int | None = None) -> Figure:
    """A tiling: each piece in its own colour, thick outlines between pieces.

    ``tiling`` is a mapping ``(row, col) -> piece``, a mapping ``piece -> cells``, a
    list of strings (one character per cell, ``.`` or a space for a hole, as
    ``["FFLL", ...]``), or an iterable of ``(piece, cells)`` pairs.  Pieces are
    coloured in sorted order of their names, so pictures are deterministic.
    """
    cells = _tiling_cells(tiling)
    if not cells:
        raise ValueError("the tiling has no cells")
    height = rows if rows is not None else max(r for r, _ in cells) + 1
    width = cols if cols is not None else max(c for _, c in cells) + 1
    pieces = sorted(set(cells.values()), key=lambda x: (type(x).__name__, str(x)))
    color = dict(zip(pieces, _palette(len(pieces)), strict=True))
    from matplotlib.patches import Rectangle

    fig, ax = _figure(min(0.42 * width + 0.6, 12), min(0.42 * height + 0.8, 10))
    for (r, c), piece in sorted(cells.items()):
        ax.add_patch(Rectangle((c, r), 1, 1, facecolor=color[piece], edgecolor="none",
                               gid="cell"))
    _outline(ax, cells)
    if letters:
        for piece in pieces:
            members = [cell for cell, p in cells.items() if p == piece]
            cr = sum(r for r, _ in members) / len(members)
            cc = sum(c for _, c in members) / len(members)
            r, c = min(members, key=lambda m: ((m[0] - cr) ** 2 + (m[1] - cc) ** 2, m))
            ax.text(c + 0.5, r + 0.5, _name(piece), ha="center", va="center", fontsize=9,
                    fontweight="bold", color="#222222", gid="piece-label")
    ax.set_xlim(-0.1, width + 0.1)
    ax.set_ylim(height + 0.1, -0.1)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title if title is not None else f"{len(pieces)} pieces, {len(cells)} cells",
                 fontsize=10)
    return fig


def _outline(ax: Axes, cells: Mapping[Cell, Hashable]) -> None:
    """Thick lines wherever two neighbouring cells belong to different pieces (or to none)."""
    from matplotlib.collections import LineCollection

    segments = []
    for (r, c), piece in cells.items():
        for dr, dc, seg in ((-1, 0, [(c, r), (c + 1, r)]), (1, 0, [(c, r + 1), (c + 1, r + 1)]),
                            (0, -1, [(c, r), (c, r + 1)]), (0, 1, [(c + 1, r), (c + 1, r + 1)])):
            other = cells.get((r + dr, c + dc))
            if other != piece and (other is None or (dr, dc) in ((1, 0), (0, 1))):
                segments.append(seg)
    ax.add_collection(LineCollection(segments, colors="#222222", linewidths=2,
                                     capstyle="projecting", gid="outline"))


def _corners(rect: Any) -> tuple[int, int, int, int]:
    """(x1, y1, x2, y2) of a rectangle given by corners or by attributes of those names."""
    if all(hasattr(rect, f) for f in ("x1", "y1", "x2", "y2")):
        x1, y1, x2, y2 = rect.x1, rect.y1, rect.x2, rect.y2
    else:
        x1, y1, x2, y2 = rect
    if not (x1 < x2 and y1 < y2):
        raise ValueError(f"rectangle {rect!r} is empty: it needs x1 < x2 and y1 < y2")
    return int(x1), int(y1), int(x2), int(y2)


def rectangles_figure(rectangles: Any, width: int | None = None, height: int | None = None, *,
                      chosen: Iterable[Hashable] | None = None,
                      title: str | None = None) -> Figure:
    """Rectangles on a board: the chosen ones filled and numbered, the others dashed.

    Each rectangle is ``(x1, y1, x2, y2)``, the corners of the squares ``x1 <= x < x2``,
    ``y1 <= y < y2`` (x across, y down), or an object with those attributes (such as
    ``problems.rectangles.Piece``); ``rectangles`` is a list (named by position) or a
    mapping name -> rectangle.  ``chosen`` names the rectangles of a cover (by
    default all of them); they must not overlap.  The others are outlined (in colour
    and numbered when none is chosen, to show what is on offer).  On a ``width`` x
    ``height`` board, squares the chosen rectangles leave uncovered are hatched.
    """
    from matplotlib.patches import Rectangle

    named = (list(rectangles.items()) if isinstance(rectangles, Mapping)
             else list(enumerate(rectangles)))
    corners = {name: _corners(rect) for name, rect in named}
    picked = list(corners) if chosen is None else list(chosen)
    for name in picked:
        if name not in corners:
            raise ValueError(f"no rectangle named {name!r}")
    owner: dict[Cell, Hashable] = {}
    for name in picked:
        x1, y1, x2, y2 = corners[name]
        for x in range(x1, x2):
            for y in range(y1, y2):
                if (x, y) in owner:
                    raise ValueError(f"rectangles {owner[x, y]!r} and {name!r} overlap at"
                                     f" {(x, y)}")
                owner[x, y] = name
    n = width if width is not None else max((c[2] for c in corners.values()), default=0)
    m = height if height is not None else max((c[3] for c in corners.values()), default=0)
    if n <= 0 or m <= 0:
        raise ValueError("no rectangles and no board")
    scale = min(10 / max(n, m), 0.5)
    fig, ax = _figure(n * scale + 1, m * scale + 1)
    color = dict(zip(corners, _palette(len(corners)), strict=True))   # same piece, same colour
    for name in picked:
        x1, y1, x2, y2 = corners[name]
        ax.add_patch(Rectangle((x1, y1), x2 - x1, y2 - y1, facecolor=color[name],
                               edgecolor="#222222", linewidth=2, zorder=2, gid="rectangle"))
        ax.text((x1 + x2) / 2, (y1 + y2) / 2, _name(name), ha="center", va="center",
                fontsize=9, fontweight="bold", color="#222222", zorder=4, gid="rectangle-label")
    others = [name for name in corners if name not in set(picked)]
    tint = dict(zip(others, _palette(len(others), strong=True), strict=True))
    for k, name in enumerate(others):
        # inset by a little more for each piece, so outlines on a shared edge stay apart
        x1, y1, x2, y2 = corners[name]
        d = 0.05 + 0.045 * (k % 6)
        ax.add_patch(Rectangle((x1 + d, y1 + d), x2 - x1 - 2 * d, y2 - y1 - 2 * d, fill=False,
                               edgecolor=tint[name] if not picked else "#888888",
                               linestyle="-" if not picked else "--", linewidth=1.3,
                               zorder=1.5, gid="offered"))
    if not picked and len(others) <= 60:
        _corner_labels(ax, {name: corners[name] for name in others}, tint, scale)
    if width is not None and height is not None:
        if picked:
            for x in range(n):
                for y in range(m):
                    if (x, y) not in owner:
                        ax.add_patch(Rectangle((x, y), 1, 1, facecolor="white", linewidth=0,
                                               edgecolor="#c0392b", hatch="///", zorder=1,
                                               gid="uncovered"))
        ax.add_patch(Rectangle((0, 0), n, m, fill=False, edgecolor="#222222", linewidth=2.5,
                               zorder=5, gid="board"))
    ax.set_xlim(-0.2, n + 0.2)
    ax.set_ylim(m + 0.2, -0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title if title is not None else
                 f"{len(picked)} of {len(corners)} rectangles, {len(owner)} squares covered",
                 fontsize=10)
    return fig


def _corner_labels(ax: Axes, corners: Mapping[Hashable, tuple[int, int, int, int]],
                   tint: Mapping[Hashable, Any], scale: float) -> None:
    """Name each rectangle at its top-left corner; names of rectangles sharing a corner go
    side by side (wrapping inside the narrowest of them), so that none covers another."""
    size = 7                                    # points
    char = size * 0.62 / 72 / scale             # a character's width, in board squares
    line = size * 1.3 / 72 / scale              # a line's height
    at: dict[tuple[int, int], list[Hashable]] = {}
    for name, (x1, y1, _, _) in corners.items():
        at.setdefault((x1, y1), []).append(name)
    for (x1, y1), names in at.items():
        right = x1 + min(corners[n][2] - x1 for n in names) - 0.05
        x, y = x1 + 0.12, y1 + 0.1
        for name in names:
            text = _name(name)
            width = len(text) * char
            if x > x1 + 0.12 and x + width > right:
                x, y = x1 + 0.12, y + line
            ax.text(x, y, text, ha="left", va="top", fontsize=size, color=tint[name], zorder=4,
                    gid="offered-label",
                    bbox={"boxstyle": "square,pad=0.05", "fc": "white", "ec": "none",
                          "alpha": 0.85})
            x += width + char


# --------------------------------------------------------------------------- search tree


@dataclass
class TreeNode:
    """One node of a search tree: a partial solution.

    ``option`` is the option tried to get here (None at the root), ``item`` the
    item chosen next (None at a solution), ``kind`` "choice", "solution" or
    "dead end" (an item with no options left, met when choosing or, by the
    early-failure test, while committing the option).
    """

    parent: int | None
    depth: int
    option: Hashable = None
    item: Hashable = None
    length: int = 0
    kind: str = "choice"
    children: list[int] | None = None


def search_tree(problem: ExactCover, *, limit: int = 200) -> list[TreeNode]:
    """The search tree of ``problem`` (root first), from its trace.

    Raises ValueError when the tree has more than ``limit`` nodes.

    >>> import dlx
    >>> tree = search_tree(dlx.ExactCover({"x": ["a"], "y": ["a"], "z": ["b"]}))
    >>> [(n.option, n.item, n.kind) for n in tree]   # b has one option: chosen first
    [(None, 'b', 'choice'), ('z', 'a', 'choice'), ('x', None, 'solution'), ('y', None, 'solution')]
    """
    nodes = [TreeNode(parent=None, depth=0, children=[])]
    stack = [0]
    links = Links.build(problem)
    search = run(links, "trace", max_nodes=limit)
    try:
        for e in search:
            if isinstance(e, Choose):
                node = nodes[stack[e.level]]
                node.item, node.length = e.item, e.length
                if e.length == 0:
                    node.kind = "dead end"
            elif isinstance(e, Try):
                parent = stack[e.level]
                nodes.append(TreeNode(parent=parent, depth=e.level + 1, option=e.option,
                                      children=[]))
                child = len(nodes) - 1
                children = nodes[parent].children
                assert children is not None
                children.append(child)
                del stack[e.level + 1:]
                stack.append(child)
            elif isinstance(e, Solution):
                nodes[stack[e.level]].kind = "solution"
        for k, node in enumerate(nodes[1:], 1):
            if node.item is None and node.kind == "choice":
                # its commit failed early: it never chose an item; name the one left empty
                node.kind = "dead end"
                node.item, node.length = _emptied(problem, nodes, k), 0
    except BudgetExceeded:
        raise ValueError(
            f"the search tree has more than {limit} nodes; search_tree_figure is for small"
            " problems (raise limit=..., or count nodes with dlx.count(problem, stats=s))"
        ) from None
    finally:
        search.close()
    return nodes


def _emptied(problem: ExactCover, nodes: list[TreeNode], k: int) -> Hashable:
    """The first primary item (in the problem's order) that no option can cover any more
    below node ``k``, found with sets from the options on its path (as Algorithm C
    would: an option is out once it shares a primary item with the path, or names a
    secondary item the path covered without a colour, or with another colour)."""
    chosen = []
    j: int | None = k
    while j is not None and nodes[j].parent is not None:
        chosen.append(nodes[j].option)
        j = nodes[j].parent
    covered: set[Hashable] = set()
    colour: dict[Hashable, Hashable] = {}      # secondary item -> its colour (None: plain)
    for label in chosen:
        for entry in problem.options[label]:
            if isinstance(entry, Colored):
                colour[entry.item] = entry.color
            elif entry in problem.bounds or entry not in problem.secondary:
                covered.add(entry)
            else:
                colour[entry] = None

    def open_(label: Hashable) -> bool:
        for entry in problem.options[label]:
            item = entry.item if isinstance(entry, Colored) else entry
            if item in covered:
                return False
            if item in colour and (colour[item] is None or not isinstance(entry, Colored)
                                   or entry.color != colour[item]):
                return False
        return True

    left = [label for label in problem.options if open_(label)]
    for item in problem.primary:
        if item not in covered and not any(item in problem.item_names(label)
                                           for label in left):
            return item
    return "?"                      # (bounds can empty an item in other ways)


_TREE_STYLE = {"choice": ("#1f4e79", "o"), "solution": ("#2e8b57", "*"),
               "dead end": ("#c0392b", "X")}


def search_tree_figure(problem: ExactCover, *, limit: int = 200,
                       title: str | None = None) -> Figure:
    """The search tree of a small problem: nodes are choices, leaves solutions or dead ends.

    Each inner node is labelled with the item chosen there and its number of
    options; each edge with the option tried.  Raises ValueError above ``limit``
    nodes (a picture of thousands of nodes says nothing).
    """
    tree = search_tree(problem, limit=limit)
    xs = [0.0] * len(tree)
    leaf = 0

    def place(k: int) -> None:   # post-order over an explicit stack (no recursion limit)
        nonlocal leaf
        todo: list[tuple[int, bool]] = [(k, False)]
        while todo:
            j, done = todo.pop()
            kids = tree[j].children or []
            if not kids:
                xs[j] = float(leaf)
                leaf += 1
            elif done:
                xs[j] = (xs[kids[0]] + xs[kids[-1]]) / 2
            else:
                todo.append((j, True))
                todo.extend((c, False) for c in reversed(kids))

    place(0)
    depth = max(n.depth for n in tree)
    fig, ax = _figure(min(max(2.0 + 1.0 * leaf, 5.0), 14), min(1.6 + 1.0 * (depth + 1), 10))
    from matplotlib.collections import LineCollection

    ax.add_collection(LineCollection(
        [[(xs[n.parent], -tree[n.parent].depth), (xs[k], -n.depth)]
         for k, n in enumerate(tree) if n.parent is not None],
        colors="#999999", linewidths=1.2, zorder=1, gid="edges"))
    small = len(tree) <= 60
    for k, n in enumerate(tree):
        if n.parent is not None and small:
            ax.text((xs[n.parent] + xs[k]) / 2, -(n.depth - 0.5), _name(n.option), fontsize=8,
                    ha="center", va="center", color="#333333", zorder=3,
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
                    gid="option-label")
        if n.kind != "solution" and small:
            ax.text(xs[k] + 0.12, -n.depth, f"{_name(n.item)} ({n.length})", fontsize=8,
                    ha="left", va="center", color="#1f4e79", zorder=3, gid="item-label")
    for kind, (color, marker) in _TREE_STYLE.items():
        pts = [(xs[k], -n.depth) for k, n in enumerate(tree) if n.kind == kind]
        if pts:
            ax.scatter([x for x, _ in pts], [y for _, y in pts], s=110 if marker == "*" else 60,
                       c=color, marker=marker, zorder=2, label=f"{kind} ({len(pts)})", gid=kind)
    ax.set_xlim(-0.6, max(leaf - 1, 1) + 0.9)
    ax.set_ylim(-depth - 0.5, 0.5)
    ax.set_yticks([-d for d in range(depth + 1)], [f"level {d}" for d in range(depth + 1)],
                  fontsize=8)
    ax.set_xticks([])
    for side in ax.spines.values():
        side.set_visible(False)
    fig.legend(loc="outside lower center", fontsize=8, frameon=False, ncol=3)
    ax.set_title(title if title is not None else f"search tree: {len(tree)} nodes", fontsize=10)
    return fig


# --------------------------------------------------------------------------- effort


def profile_figure(profiles: Mapping[str, Any], *, title: str | None = None,
                   log: bool | None = None) -> Figure:
    """Nodes per level of one or more searches, one line each.

    ``profiles`` maps a name to a :class:`~dlx.Stats` (its ``profile``) or to a list
    of node counts per level.  The y axis is logarithmic (by default) when the
    counts span more than two orders of magnitude.
    """
    series = {name: list(getattr(p, "profile", p)) for name, p in profiles.items()}
    if not series or not any(series.values()):
        raise ValueError("no profiles to draw")
    counts = [c for s in series.values() for c in s if c > 0]
    if log is None:
        log = max(counts) > 100 * min(counts)
    fig, ax = _figure(7, 3.6)
    for name, s in series.items():
        ax.plot(range(len(s)), s, marker="o", markersize=3, linewidth=1.5,
                label=f"{name}: {sum(s):,} nodes", gid=name)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("level (options chosen)")
    ax.set_ylabel("nodes")
    ax.grid(alpha=0.3)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title if title is not None else "search effort per level", fontsize=10)
    return fig
