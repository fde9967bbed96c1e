"""Pictures of the dance: the links at any pause of a trace, search trees, search effort.

Every ``*_figure`` function returns a matplotlib ``Figure``.  matplotlib and numpy
(the ``viz`` extra) are imported only when a picture is drawn, and their absence
raises :class:`MissingExtraError`, whose one line says what to install; the text
renderings (:func:`links_text`, :func:`links_table`) need neither.  Puzzles draw
themselves in :mod:`problems` with this module's generic pieces: :func:`new_figure`,
:func:`outlines`, :func:`palette`, :data:`INK`, :func:`text_of` (and :func:`require`).

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

from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .drawing import (
    INK,
    MissingExtraError,
    new_figure,
    outlines,
    palette,
    png,
    require,
    text_of,
)
from .errors import BudgetExceeded
from .events import Backtrack, Choose, Cover, Event, Solution, Try, Uncover
from .links import Links
from .problem import Colored, ExactCover
from .search import run

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "Pause", "pause_of", "Stepper", "record",
    "links_figure", "links_text", "links_table",
    "search_tree", "TreeNode", "search_tree_figure", "profile_figure",
    "AVAILABLE", "COVERED", "HIDDEN", "CHOSEN", "ONE",
    # the pieces that pictures drawn elsewhere (the puzzles of problems/) are made of
    "MissingExtraError", "require", "new_figure", "outlines", "palette", "INK", "text_of",
]

# Cell codes of the matrix image in links_figure (ax.images[0].get_array()): the
# background of an empty cell, or a 1 drawn in a stronger shade of the same family.
AVAILABLE, COVERED, HIDDEN, CHOSEN = 0, 1, 2, 3
ONE = 4  #: add to a background code for a cell that holds a 1
_CELL_COLORS = (
    "#ffffff", "#e6e6e6", "#e6e6e6", "#fde9c9",      # empty: available, covered, hidden, chosen
    "#1f4e79", "#a6a6a6", "#a6a6a6", "#e07b00",      # a 1 in such a cell
)



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
        return f"step {self.step}: {'before the search' if self.event is None else self.event}"


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
        """A widget to step through the search (:func:`dlx.widgets.stepper`): a slider with
        step back and step forward buttons, the event and the picture of the step; None
        when ipywidgets is not installed (the ``notebooks`` extra installs it)."""
        from .widgets import stepper

        return stepper(len(self), lambda k: self.pauses[k].title(),
                       lambda k: png(self.figure(k)))


def record(problem: ExactCover, *, max_steps: int = 5000, heuristic: Any = None) -> Stepper:
    """Run the search on ``problem`` and keep a :class:`Pause` after every event."""
    return Stepper(problem, max_steps=max_steps, heuristic=heuristic)


def _as_pause(state: Pause | Links | ExactCover, chosen: Iterable[Hashable]) -> Pause:
    return state if isinstance(state, Pause) else pause_of(state, chosen)


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
    names = [text_of(i) for i in p.items]
    labels = [text_of(o) for o in p.options]
    widths = [max(len(s), 1) for s in names]
    lwidth = max([len(s) for s in labels] + [3])
    lines = [p.title()]
    if p.chosen:
        lines.append("partial solution: " + ", ".join(text_of(o) for o in p.chosen))
    if any(p.covered):
        lines.append("covered: " + " ".join(text_of(i) for i in p.covered_items))
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
        head = f"{text_of(item)}\n{'-' if covered else p.lengths[k]}"
        style = "dim" if covered else ("bold cyan" if item == p.focus else "")
        table.add_column(head, justify="center", header_style=style or "bold")
    chosen_set = set(p.chosen)
    for o in range(len(p.options)):
        label = p.options[o]
        style = "bold yellow" if label in chosen_set else ("dim" if p.hidden[o] else "")
        cells = ["." for _ in p.items]
        for k in p.option_items[o]:
            cells[k] = "1"
        table.add_row(text_of(label), *cells, style=style)
    return table


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
    require("links_figure")
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch, Polygon

    p = _as_pause(state, chosen)
    n_rows, n_cols = len(p.options), len(p.items)
    if labels is None:
        labels = n_rows <= 60 and n_cols <= 60
    chosen_set = set(p.chosen)
    codes = np.zeros((max(n_rows, 1), max(n_cols, 1)), dtype=np.int8)
    for o in range(n_rows):
        background = (CHOSEN if p.options[o] in chosen_set else HIDDEN if p.hidden[o]
                      else AVAILABLE)
        for k in range(n_cols):
            codes[o, k] = COVERED if background == AVAILABLE and p.covered[k] else background
        for k in p.option_items[o]:
            codes[o, k] += ONE
    names = [text_of(i) for i in p.items]
    rotate = max((len(x) for x in names), default=0) > 3
    if labels:
        top = 0.12 * max((len(x) for x in names), default=1) if rotate else 0.3
        left = 0.09 * max((len(text_of(o)) for o in p.options), default=1)
        fig, ax = new_figure(min(max(1.2 + left + 0.42 * n_cols, 4.6), 15),
                             min(1.7 + top + 0.38 * n_rows, 14))
    else:
        fig, ax = new_figure(10, 6)
    ax.imshow(codes, cmap=ListedColormap(_CELL_COLORS), vmin=0, vmax=len(_CELL_COLORS) - 1,
              interpolation="nearest", aspect="equal" if labels else "auto")
    ax.set_title(title if title is not None else p.title(), loc="left", fontsize=10)
    grey, red = _CELL_COLORS[HIDDEN + ONE], INK["alert"]
    if labels:
        ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=1.5)
        ax.tick_params(which="both", length=0, top=False, bottom=False)
        ax.xaxis.tick_top()
        ax.set_xticks(range(n_cols), names, fontsize=9, rotation=90 if rotate else 0)
        ax.set_yticks(range(n_rows), [text_of(o) for o in p.options], fontsize=9)
        for tick, item, covered in zip(ax.get_xticklabels(), p.items, p.covered, strict=True):
            tick.set_fontweight("bold")
            if covered:
                tick.set_color(grey)
            elif item == p.focus:
                tick.set_color(red)
        for tick, o in zip(ax.get_yticklabels(), range(n_rows), strict=True):
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
        ax.spines[:].set_visible(False)
    else:
        ax.set(xlabel=f"{n_cols} items", ylabel=f"{n_rows} options", xticks=[], yticks=[])
        ax.spines[:].set_color("#bbbbbb")
    if 0 < p.n_primary < n_cols:
        ax.axvline(p.n_primary - 0.5, color="#555555", linewidth=1.2, linestyle="--",
                   gid="secondary")
    if p.focus is not None and p.focus in p.items:
        k = p.items.index(p.focus)
        ax.add_patch(Polygon([(k - 0.5, -0.5), (k + 0.5, -0.5), (k + 0.5, n_rows - 0.5),
                              (k - 0.5, n_rows - 0.5)], fill=False, linewidth=2.2,
                             edgecolor=red, zorder=4, gid="focus"))
    # the legend names only what this picture shows, under the matrix (no empty margin)
    legend = []
    if (codes == AVAILABLE + ONE).any():
        legend.append(Patch(color=_CELL_COLORS[AVAILABLE + ONE], label="available"))
    if any(p.hidden) or any(p.covered):
        legend.append(Patch(color=grey, label="hidden option or covered item"))
    if chosen_set:
        legend.append(Patch(color=_CELL_COLORS[CHOSEN + ONE], label="partial solution"))
    if p.focus is not None:
        legend.append(Patch(fill=False, edgecolor=red, linewidth=2, label="item chosen"))
    fig.legend(handles=legend, loc="outside lower center", ncols=min(len(legend), 2),
               fontsize=8, frameon=False)
    return fig


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
                children = nodes[parent].children
                assert children is not None
                children.append(len(nodes) - 1)
                stack[e.level + 1:] = [len(nodes) - 1]
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
    require("search_tree_figure")
    tree = search_tree(problem, limit=limit)
    xs = [0.0] * len(tree)
    leaf = 0
    for k, n in enumerate(tree):        # the tree is in preorder: leaves left to right,
        if not n.children:              # and every node before its children
            xs[k], leaf = float(leaf), leaf + 1
    for k in reversed(range(len(tree))):
        if kids := tree[k].children:
            xs[k] = (xs[kids[0]] + xs[kids[-1]]) / 2
    depth = max(n.depth for n in tree)
    fig, ax = new_figure(min(max(2.0 + 1.0 * leaf, 5.0), 14), min(1.6 + 1.0 * (depth + 1), 10))
    from matplotlib.collections import LineCollection

    ax.add_collection(LineCollection(
        [[(xs[n.parent], -tree[n.parent].depth), (xs[k], -n.depth)]
         for k, n in enumerate(tree) if n.parent is not None],
        colors="#999999", linewidths=1.2, zorder=1, gid="edges"))
    small = len(tree) <= 60
    for k, n in enumerate(tree):
        if n.parent is not None and small:
            ax.text((xs[n.parent] + xs[k]) / 2, -(n.depth - 0.5), text_of(n.option), fontsize=8,
                    ha="center", va="center", color="#333333", zorder=3,
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
                    gid="option-label")
        if n.kind != "solution" and small:
            ax.text(xs[k] + 0.12, -n.depth, f"{text_of(n.item)} ({n.length})", fontsize=8,
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
    ax.spines[:].set_visible(False)
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
    require("profile_figure")
    series = {name: list(getattr(p, "profile", p)) for name, p in profiles.items()}
    if not series or not any(series.values()):
        raise ValueError("no profiles to draw")
    counts = [c for s in series.values() for c in s if c > 0]
    if log is None:
        log = max(counts) > 100 * min(counts)
    fig, ax = new_figure(7, 3.6)
    for name, s in series.items():
        ax.plot(range(len(s)), s, marker="o", markersize=3, linewidth=1.5,
                label=f"{name}: {sum(s):,} nodes", gid=name)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("level (options chosen)")
    ax.set_ylabel("nodes")
    ax.grid(alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title if title is not None else "search effort per level", fontsize=10)
    return fig
