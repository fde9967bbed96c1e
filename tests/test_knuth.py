"""Our engines against Knuth's own programs (DLX1-DLX3, DLX5, DLX6) on the same files.

``tests/data/knuth/*.dlx`` are our instances (bounds, colours, costs, Knuth's own
examples); ``answers.json`` holds what Knuth's programs printed for them: the
number of solutions, the nodes of the search without costs or caching (ours
counts nodes the same way: the root plus every option tried, and Algorithm M's
null choices), and the k cheapest costs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dlx
from dlx import engine as engines

DATA = Path(__file__).resolve().parent / "data" / "knuth"
ANSWERS = json.loads((DATA / "answers.json").read_text())["instances"]
ENGINES = ("python", "c") if engines.available() else ("python",)


def load(name: str) -> dlx.ExactCover:
    with _quiet():
        return dlx.read_dlx((DATA / name).read_text())


class _quiet:
    """Options without a primary item are skipped with a warning, as Knuth's programs do."""

    def __enter__(self) -> None:
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore", dlx.formats.DLXFormatWarning)

    def __exit__(self, *exc: object) -> None:
        self._w.__exit__(*exc)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(n for n in ANSWERS if "count" in ANSWERS[n]))
def test_counts_and_nodes_are_knuths(name):
    want = ANSWERS[name]
    p = load(name)
    seen = set()
    for engine in ENGINES:
        s = dlx.Stats()
        assert dlx.count(p, stats=s, engine=engine) == want["count"]
        if "nodes" in want and not p.costs:
            assert s.nodes == want["nodes"]
        seen.add((s.nodes, s.updates, tuple(s.profile)))
    assert len(seen) == 1, "the engines disagree"


@pytest.mark.parametrize("name", sorted(n for n in ANSWERS if "best" in ANSWERS[n]))
def test_the_k_best_costs_are_knuths(name):
    p = load(name)
    for k, costs in ANSWERS[name]["best"].items():
        for engine in ENGINES:
            got = dlx.best(p, k=int(k), engine=engine)
            assert [cost for cost, _ in got] == costs
            assert all(dlx.is_exact_cover(p, sol) for _, sol in got)


@pytest.mark.parametrize("n, count", [(2, 1), (3, 6), (4, 90), (5, 2040), (6, 67950)])
def test_matrices_with_every_row_and_column_sum_two(n, count):
    """OEIS A001499, through the API: items r and c with bounds (2, 2), one option per cell."""
    options = {(r, c): [("row", r), ("col", c)] for r in range(n) for c in range(n)}
    bounds = {item: (2, 2) for items in options.values() for item in items}
    p = dlx.ExactCover(options, bounds=bounds)
    for engine in ENGINES if n < 6 else ENGINES[-1:]:
        assert dlx.count(p, engine=engine) == count
    plain, cached = dlx.Stats(), dlx.Stats()    # counting by caching, with bounds
    assert dlx.count(p, cache=True, stats=cached) == count
    if n >= 4:
        dlx.count(p, stats=plain, engine=ENGINES[-1])
        assert cached.nodes < plain.nodes


@pytest.mark.parametrize("name", sorted(n for n in ANSWERS if "dlx6" in ANSWERS[n]))
def test_counting_by_caching_visits_dlx6s_nodes(name):
    """Issue 22: both engines count by caching as DLX6 does: its count and its search
    nodes (the cache keyed by the uncovered primary items and the secondary items some
    option left uses, with their colours); the ZDD has no more nodes than DLX6's."""
    want = ANSWERS[name]["dlx6"]
    p = load(name)
    seen = set()
    for engine in ENGINES:
        s = dlx.Stats()
        assert dlx.count(p, cache=True, stats=s, engine=engine) == want["count"]
        assert s.nodes == want["nodes"]
        seen.add((s.nodes, s.updates, tuple(s.profile)))
    assert len(seen) == 1, "the engines disagree"
    z = dlx.zdd(p)
    assert z.count() == want["count"] and z.nodes <= want["zdd_nodes"]
