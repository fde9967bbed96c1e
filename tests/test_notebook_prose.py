"""The notebooks' prose: checks on the text itself (their numbers are asserted in each
notebook's own "Checking our work" section, which test_notebooks runs)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def glossary(path: Path) -> list[str]:
    """The words of a notebook's glossary table: the bold part of each row's first cell."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("## Glossary"):
            rows = [line for line in cell.source.splitlines() if line.startswith("| **")]
            return [re.sub(r"[*`]", "", re.search(r"\*\*(.+?)\*\*", row)[1]).strip()
                    for row in rows]
    return []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_glossary_word_is_defined_once(path: Path) -> None:
    words = glossary(path)
    assert words, f"{path.name} has no glossary"
    assert len(words) == len(set(words)), f"{path.name}: a word twice in {words}"


def test_the_glossary_reader() -> None:
    words = glossary(NOTEBOOKS[1])
    assert words[:2] == ["item list", "the list of item i"]
    # the row issue 14 found: "**item list** of item *i*" beside "**item list**"
    assert re.search(r"\*\*(.+?)\*\*", "| **item list** of item *i* (`ULINK`) |")[1] == \
        "item list"
