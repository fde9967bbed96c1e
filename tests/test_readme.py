"""The README's examples run, and its two commands are the ones CI runs."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0


def test_ci_runs_the_readme_commands():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    setup = "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/dlx demo"
    tests = ".venv/bin/python -m pytest"
    assert setup in readme and tests in readme
    assert setup in ci and tests in ci
