"""--symmetry and --up-to-symmetry on the command line: dlx solve and the puzzle commands."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dlx.cli import main

# five queens, as Knuth's format: 10 solutions, 2 up to the board's 8 symmetries
QUEENS = ("r0 r1 r2 r3 r4 c0 c1 c2 c3 c4 | " + " ".join(f"u{k} d{k}" for k in range(9))
          + "\n" + "".join(f"r{r} c{c} u{r + c} d{r - c + 4}\n"
                           for r in range(5) for c in range(5)))


@pytest.fixture
def board(tmp_path):
    path = tmp_path / "queens.dlx"
    path.write_text(QUEENS)
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_counts_up_to_symmetry(capsys, board):
    assert run(capsys, "solve", board, "--count")[:2] == (0, "10\n")
    assert run(capsys, "solve", board, "--count", "--symmetry")[:2] == (0, "10\n")
    assert run(capsys, "solve", board, "--count", "--up-to-symmetry")[:2] == (0, "2\n")


def test_solve_lists_one_per_orbit(capsys, board):
    code, out, err = run(capsys, "solve", board, "--up-to-symmetry")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2 and err == ""
    assert all(len(line.split("; ")) == 5 for line in lines)
    assert run(capsys, "solve", board, "--up-to-symmetry", "--limit", "1")[1].count("\n") == 1


def test_solve_stats_say_what_symmetry_saved(capsys, board):
    code, out, err = run(capsys, "solve", board, "--count", "--symmetry", "--stats")
    assert code == 0 and out == "10\n" and "saved by symmetry" in err


@pytest.mark.parametrize("extra, says", [
    (["--symmetry"], "--symmetry goes with --count"),
    (["--count", "--symmetry", "--cache"], "not with --best, --zdd, --cache"),
    (["--up-to-symmetry", "--best", "1"], "not with --best"),
    (["--count", "--symmetry", "--checkpoint", "ck"], "--checkpoint does not go with"),
])
def test_solve_refuses_what_does_not_fit(capsys, board, tmp_path, extra, says):
    code, out, err = run(capsys, "solve", board, *extra)
    assert code == 2 and out == "" and says in err and len(err.splitlines()) == 1


def test_puzzle_commands(capsys):
    assert run(capsys, "queens", "8", "--count", "--up-to-symmetry")[:2] == (0, "12\n")
    assert run(capsys, "queens", "8", "--count", "--symmetry")[:2] == (0, "92\n")
    code, out, _ = run(capsys, "queens", "6", "--all", "--up-to-symmetry")
    assert code == 0 and out.count("Q") == 6            # one board: the one family
    assert run(capsys, "langford", "7", "--count", "--up-to-symmetry")[:2] == (0, "26\n")
    assert run(capsys, "pentominoes", "3x20", "--count", "--up-to-symmetry")[:2] == \
        run(capsys, "pentominoes", "3x20", "--count", "--distinct")[:2] == (0, "2\n")
    code, _, err = run(capsys, "queens", "8", "--symmetry")
    assert code == 2 and "--symmetry goes with --count" in err


@pytest.mark.slow
def test_in_a_subprocess_on_two_processes():
    out = subprocess.run([sys.executable, "-m", "dlx", "queens", "9", "--count", "--symmetry",
                          "--jobs", "2", "--stats", "-q"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout == "352\n" and "saved by symmetry" in out.stderr
    assert "Traceback" not in out.stderr
