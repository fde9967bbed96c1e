"""Every notebook runs top to bottom without an error, in a kernel of this very interpreter.

The kernel is declared in a temporary Jupyter path under a private name, so the test uses
``sys.executable`` whatever ``python3`` kernels the machine or the user has registered, and
needs no ``ipykernel install`` step: a fresh ``pip install -e '.[dev]'`` is enough.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
KERNEL = "dlx-tests-python"


@pytest.fixture(scope="module")
def kernel_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dlx tests", "language": "python",
    }))
    return root


def test_there_are_notebooks() -> None:
    assert [p.name[:3] for p in NOTEBOOKS] == ["01-", "02-", "03-", "04-", "05-", "06-"]


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, kernel_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_PATH", str(kernel_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), \
        f"{path.name}: strip the outputs before committing"
    start = time.perf_counter()
    client = nbclient.NotebookClient(nb, kernel_name=KERNEL, timeout=120,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()   # raises CellExecutionError, naming the cell, on any error
    assert time.perf_counter() - start < 90, f"{path.name} is too slow for the test suite"
