"""The hypothesis strategies the engine tests share: small random problems, and BUDGET.

Test modules import from here (``from strategies import problems``); conftest.py
only registers the hypothesis profiles.
"""

from __future__ import annotations

from hypothesis import strategies as st

import dlx

#: Every search in the tests gets a budget, so a link bug fails instead of hanging.
BUDGET = 200_000


@st.composite
def problems(draw, max_items: int = 6, max_options: int = 9, colors: bool = True,
             secondary: bool = True) -> dlx.ExactCover:
    """Small random problems: primary items p0.., secondary s0.., optional colours."""
    n_primary = draw(st.integers(0, max_items))
    n_secondary = draw(st.integers(0, 3)) if secondary else 0
    prim = [f"p{k}" for k in range(n_primary)]
    sec = [f"s{k}" for k in range(n_secondary)]
    n_options = draw(st.integers(0, max_options))
    options = {}
    for o in range(n_options):
        chosen_p = draw(st.lists(st.sampled_from(prim), unique=True, max_size=4)) if prim else []
        chosen_s = draw(st.lists(st.sampled_from(sec), unique=True, max_size=2)) if sec else []
        items: list = list(chosen_p)
        for s in chosen_s:
            if colors and draw(st.booleans()):
                items.append(dlx.Colored(s, draw(st.sampled_from("RG"))))
            else:
                items.append(s)
        items = draw(st.permutations(items))
        options[f"o{o}"] = items
    return dlx.ExactCover(options, secondary=sec, primary=prim)


@st.composite
def colored_problems(draw) -> dlx.ExactCover:
    """Dense colour problems: most options share coloured secondary items (Algorithm C)."""
    prim = [f"p{k}" for k in range(draw(st.integers(1, 4)))]
    sec = [f"s{k}" for k in range(draw(st.integers(1, 3)))]
    options = {}
    for o in range(draw(st.integers(1, 10))):
        items: list = draw(st.lists(st.sampled_from(prim), unique=True, min_size=1, max_size=2))
        for s in draw(st.lists(st.sampled_from(sec), unique=True, min_size=1, max_size=3)):
            colour = draw(st.sampled_from(["R", "G", "B", None]))
            items.append(s if colour is None else dlx.Colored(s, colour))
        options[f"o{o}"] = draw(st.permutations(items))
    return dlx.ExactCover(options, secondary=sec, primary=prim)


@st.composite
def uniform_problems(draw, size: int | None = None) -> dlx.ExactCover:
    """Every option has the same number of items (``size`` if given), all primary
    (Sudoku's shape when ``size`` is 4)."""
    prim = [f"p{k}" for k in range(draw(st.integers(size or 1, 8)))]
    if size is None:
        size = draw(st.integers(1, min(4, len(prim))))
    options = {f"o{o}": draw(st.lists(st.sampled_from(prim), unique=True, min_size=size,
                                      max_size=size))
               for o in range(draw(st.integers(0, 14)))}
    return dlx.ExactCover(options, primary=prim)


@st.composite
def bounded_problems(draw) -> dlx.ExactCover:
    """Small random problems whose primary items have bounds (and some colours)."""
    p = draw(problems(max_items=4, max_options=7))
    bounds = {}
    for item in p.primary:
        u = draw(st.integers(0, 2))
        bounds[item] = (u, max(1, u + draw(st.integers(0, 2))))
    return dlx.ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=bounds)
