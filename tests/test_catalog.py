"""The catalog: every small instance counts to its expected number; lookups behave."""

from __future__ import annotations

import pytest
from strategies import BUDGET

import dlx
from problems import catalog


@pytest.mark.parametrize("name", [i.name for i in catalog.instances("small")])
def test_small_instances_have_their_counts(name):
    inst = catalog.get(name)
    problem = inst.problem()
    assert isinstance(problem, dlx.ExactCover)
    assert dlx.count(problem, max_nodes=BUDGET) == inst.expected
    sol = dlx.first(problem, max_nodes=BUDGET)
    assert (sol is None) == (inst.expected == 0)
    if sol is not None:
        assert dlx.is_exact_cover(problem, sol)


def test_catalog_shape():
    names = list(catalog.CATALOG)
    assert len(names) == len(set(names)) and len(names) > 30
    sizes = {i.size for i in catalog.instances()}
    assert sizes == {"small", "medium", "large"}
    assert all(i.source for i in catalog.instances())
    assert catalog.get("queens-14").expected == 365596
    assert catalog.get("pentominoes-6x10").expected == 9356
    assert catalog.get("pentominoes-6x10-reduced").expected == 2339
    assert catalog.get("pentominoes-5x12-reduced").expected == 1010
    assert catalog.get("pentominoes-4x15-reduced").expected == 368
    assert catalog.get("pentominoes-3x20-reduced").expected == 2
    assert catalog.get("dominoes-8x8").expected == 12988816
    assert [catalog.get(f"langford-{n}").expected for n in (3, 4, 7, 8)] == [2, 2, 52, 300]


def test_lookup_errors():
    with pytest.raises(KeyError, match="no instance 'queens-99'.*queens-8"):
        catalog.get("queens-99")
    with pytest.raises(ValueError, match="size"):
        catalog.instances("huge")


def test_demo_entries_are_few_and_small_enough():
    entries = list(catalog.demo_entries())
    assert 3 <= len(entries) <= 8
    for name, problem, expected in entries:
        assert catalog.get(name).expected == expected
        assert isinstance(problem, dlx.ExactCover)
        assert catalog.get(name).size in ("small", "medium")
