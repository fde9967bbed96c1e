"""The `dlx` command as a user gets it: `pip install .` into a fresh venv, no extras.

The command is installed by the base package, so it must run on the base
package's dependencies alone (rich among them), with progress and tables; and
`import dlx` must still not import rich.  One real venv, one real pip install
(rich comes from the package index), about 20-40 s: marked slow, run in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"


def _copy_source(to: Path) -> Path:
    """The files a `pip install .` needs, copied (the build must not write into the checkout)."""
    src = to / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", "*.egg-info", "build")
    for package in ("dlx", "problems"):
        shutil.copytree(ROOT / package, src / package, ignore=ignore)
    return src


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_command_runs_on_the_base_install_alone(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python, dlx = venv / "bin" / "python", venv / "bin" / "dlx"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(NO_COLOR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", str(_copy_source(tmp_path))],
                          capture_output=True, text=True, timeout=500, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                            capture_output=True, text=True, timeout=120, env=env).stdout
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert "rich" in names and "dancing-links-dlx" in names
    for extra in ("pytest", "hypothesis", "matplotlib", "numpy"):
        assert extra not in names

    work = tmp_path / "work"             # not the checkout: the installed package is used
    work.mkdir()
    (work / "toy.dlx").write_text(TOY)

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(dlx), *argv], capture_output=True, text=True, cwd=work,
                              timeout=120, env=env)

    done = run("solve", "toy.dlx", "--count", "--stats")
    assert (done.returncode, done.stdout) == (0, "1\n") and "nodes" in done.stderr
    assert "Traceback" not in done.stderr
    done = run("solve", "toy.dlx")
    assert (done.returncode, done.stdout) == (0, "c e; a d f; b g\n")
    done = run("queens", "8", "--count", "--stats")
    assert (done.returncode, done.stdout) == (0, "92\n")
    assert "1,049" in done.stderr and "┌" in done.stderr      # the rich table
    done = run("sudoku", "solve", "--stats", "-")
    assert done.returncode == 2 and "no puzzles" in done.stderr          # stdin is empty
    done = subprocess.run(
        [str(python), "-c", "import dlx, sys; assert 'rich' not in sys.modules;"
         " assert 'site-packages' in dlx.__file__, dlx.__file__; print(dlx.count(dlx.read_dlx("
         "dlx.formats.KNUTH_TOY)))"], capture_output=True, text=True, cwd=work, timeout=120,
        env=env)
    assert (done.returncode, done.stdout) == (0, "1\n"), done.stderr
    # a picture without the viz extra: one line that names the extra (issue 24), which is
    # all Jupyter shows of it (IPython's _render_traceback_ hook)
    done = subprocess.run(
        [str(python), "-c", "from problems import queens\ntry:\n    queens.figure(8)\n"
         "except ImportError as e:\n    print(*e._render_traceback_(), sep='\\n')"],
        capture_output=True, text=True, cwd=work, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("MissingExtraError: queens.figure needs matplotlib and numpy (numpy"
                           " is not installed): pip install 'dancing-links-dlx[viz]'\n")
