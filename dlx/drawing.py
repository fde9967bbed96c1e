"""The pieces every picture of :mod:`dlx.viz` and of :mod:`problems` is made of: a
figure outside pyplot that Jupyter shows, outlines of regions, colours, inks, how a
name is written, and :class:`MissingExtraError` when the ``viz`` extra is missing.
:mod:`dlx.viz` offers them all under its own name (``viz.new_figure`` ...); matplotlib
and numpy are imported only when a picture is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Mapping
from importlib import import_module
from types import MappingProxyType, MethodType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["MissingExtraError", "require", "new_figure", "png", "outlines", "palette",
           "INK", "text_of"]

#: Inks by role: what the problem gave, what the search found, a token on a square,
#: outlines and labels, light lines between cells, what is only on offer, what is wrong.
INK: Mapping[str, str] = MappingProxyType({
    "given": "#111111", "found": "#1f6fc5", "mark": "#7a1f1f", "line": "#222222",
    "grid": "#bbbbbb", "faint": "#888888", "alert": "#c0392b"})


class MissingExtraError(ModuleNotFoundError):
    """matplotlib or numpy (the ``viz`` extra) is missing: the message, one line, says what
    to install, and Jupyter shows that line alone, with no traceback."""

    def _render_traceback_(self) -> list[str]:      # IPython's hook for its own exceptions
        return [f"{type(self).__name__}: {self}"]


MissingExtraError.__module__ = "dlx.viz"    # its public name, as tracebacks show it


def require(what: str = "this picture") -> None:
    """Check that matplotlib and numpy import, or raise :class:`MissingExtraError` saying
    ``{what} needs matplotlib and numpy (numpy is not installed): pip install ...``."""
    for module in ("numpy", "matplotlib"):
        try:
            import_module(module)
        except ModuleNotFoundError as error:
            missing = (error.name or module).partition(".")[0]
            raise MissingExtraError(f"{what} needs matplotlib and numpy ({missing} is not"
                                    " installed): pip install 'dancing-links-dlx[viz]'",
                                    name=missing) from None


def new_figure(width: float, height: float) -> tuple[Figure, Axes]:
    """A figure (``width`` x ``height`` inches) and its axes, outside pyplot (nothing global
    to close), that Jupyter shows as a PNG."""
    require("new_figure")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    setattr(fig, "_repr_png_", MethodType(png, fig))  # noqa: B010 - IPython looks it up
    return fig, fig.add_subplot()


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (100 dpi)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def outlines(ax: Axes, owner: Mapping[tuple[int, int], Hashable], *, inner: str | None = None,
             linewidth: float = 2.0) -> None:
    """Thick lines (gid ``outline``) around the cells ``(row, col)`` of ``owner`` and between
    neighbours of different owners; thin ones in colour ``inner`` (gid ``inner``) between
    neighbours of one owner."""
    from matplotlib.collections import LineCollection

    thick: list[list[tuple[int, int]]] = []
    thin: list[list[tuple[int, int]]] = []
    for (r, c), mine in owner.items():
        for dr, dc, seg in ((-1, 0, [(c, r), (c + 1, r)]), (1, 0, [(c, r + 1), (c + 1, r + 1)]),
                            (0, -1, [(c, r), (c, r + 1)]), (0, 1, [(c + 1, r), (c + 1, r + 1)])):
            there = (r + dr, c + dc)
            if there not in owner:
                thick.append(seg)
            elif (dr, dc) in ((1, 0), (0, 1)):           # each inside edge once
                (thin if owner[there] == mine else thick).append(seg)
    if inner is not None:
        ax.add_collection(LineCollection(thin, colors=inner, linewidths=0.8, gid="inner"))
    ax.add_collection(LineCollection(thick, colors=INK["line"], linewidths=linewidth,
                                     capstyle="projecting", gid="outline"))


def palette(k: int, strong: bool = False) -> list[Any]:
    """k colours, saturated ones first (only saturated ones, for lines: ``strong``); they
    come round again after 32 (18 when ``strong``)."""
    require("palette")
    from matplotlib import colormaps

    if strong:
        names = [("tab10", j) for j in range(10)] + [("Dark2", j) for j in range(8)]
    else:
        names = ([("tab20", j) for j in range(0, 20, 2)] + [("tab20", j) for j in range(1, 20, 2)]
                 + [("Set3", j) for j in range(12)])
    return [colormaps[m](j) for m, j in (names[i % len(names)] for i in range(k))]


def text_of(x: Hashable) -> str:
    """How a picture writes a name: tuples joined by spaces, or commas when all numbers.

    >>> text_of("a"), text_of(("cell", 1, 2)), text_of((1, 2))
    ('a', 'cell 1 2', '1,2')
    """
    if isinstance(x, tuple):
        return (" " if any(isinstance(y, str) for y in x) else ",").join(text_of(y) for y in x)
    return x if isinstance(x, str) else str(x)
