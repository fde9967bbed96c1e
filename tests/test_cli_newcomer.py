"""What a new user tripped on (issue 24), pinned as the user meets it: the ``dlx`` command
run in a subprocess, its exit code, stdout and stderr.

Sudoku generation by level has its own file (test_sudoku_steer.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import dlx
from problems import queens


def dlx_cmd(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dlx", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)


# ------------------------------------------- 2. budgets keep what was found, everywhere


@pytest.mark.slow
@pytest.mark.parametrize("limit", [["--timeout", "0.5"], ["--max-nodes", "20000"]])
def test_a_count_that_runs_out_says_how_many_so_far(limit):
    done = dlx_cmd("queens", "20", "--count", *limit)
    assert done.returncode == 124 and re.fullmatch(r"[1-9]\d*\+\n", done.stdout)
    n = int(done.stdout[:-2])
    assert re.fullmatch(rf"dlx: (time limit of 0.5 s|node budget of 20,000) reached: {n:,}"
                        r" solutions so far, search unfinished\n", done.stderr)
    done = dlx_cmd("queens", "20", "--count", "--format", "jsonl", *limit)
    record = json.loads(done.stdout)
    assert done.returncode == 124 and record["finished"] is False and record["count"] > 0


def test_a_count_that_finishes_says_so_in_jsonl():
    done = dlx_cmd("dominoes", "4x4", "--count", "--format", "jsonl")
    assert (done.returncode, json.loads(done.stdout)) == (0, {"count": 36, "finished": True})


def test_a_listing_that_runs_out_keeps_the_solutions_it_printed():
    done = dlx_cmd("langford", "12", "--all", "--max-nodes", "3000", "--format", "jsonl")
    printed = done.stdout.splitlines()
    assert done.returncode == 124 and printed
    assert done.stderr == f"dlx: node budget of 3,000 reached: {len(printed):,} solutions so" \
        " far, search unfinished\n"


@pytest.mark.slow
def test_sudoku_count_of_an_empty_grid_under_a_time_limit():
    done = dlx_cmd("sudoku", "count", "--timeout", "1", stdin="." * 81 + "\n")
    assert done.returncode == 124 and re.fullmatch(r"[1-9]\d*\+\n", done.stdout)
    n = int(done.stdout[:-2])
    assert done.stderr.startswith(f"dlx: <stdin>:1: time limit of 1 s reached: {n:,} solutions"
                                  " so far, count unfinished\n")
    done = dlx_cmd("sudoku", "count", "--max-nodes", "500", "--format", "jsonl",
                   stdin="." * 81 + "\n")
    record = json.loads(done.stdout)
    assert done.returncode == 124 and record["finished"] is False and record["answer"] > 0


def test_rectangles_and_judge_counts_under_a_budget(tmp_path: Path):
    # a 6 x 6 board of unit squares and horizontal dominoes: 13**6 exact covers
    pieces = [f"{x} {y} {x + 1} {y + 1}" for x in range(6) for y in range(6)]
    pieces += [f"{x} {y} {x + 2} {y + 1}" for x in range(5) for y in range(6)]
    zoj = tmp_path / "zoj.txt"
    zoj.write_text(f"1\n6 6 {len(pieces)}\n" + "\n".join(pieces) + "\n")
    done = dlx_cmd("rectangles", str(zoj), "--count", "--max-nodes", "300")
    assert done.returncode == 124 and re.fullmatch(r"[1-9]\d*\+\n", done.stdout)
    assert "reached:" in done.stderr and "exact covers so far, count unfinished" in done.stderr
    matrix = tmp_path / "poj.txt"            # POJ 3740: 12 identical rows, 12 solutions
    matrix.write_text("12 1\n" + "1\n" * 12)
    done = dlx_cmd("solve", "--format", "matrix", "--count", "--max-nodes", "5", str(matrix))
    assert done.returncode == 124 and re.fullmatch(r"\d+\+\n", done.stdout)
    assert "the count is unfinished" in done.stderr


# ------------------------------------------- 3. rectangles: no option that does nothing


@pytest.mark.slow
def test_rectangles_has_no_all_and_its_limit_goes_with_count(tmp_path: Path):
    done = dlx_cmd("rectangles", "--all", stdin="1\n1 1 1\n0 0 1 1\n")
    assert done.returncode == 2 and done.stderr.startswith("usage: dlx rectangles ")
    assert done.stderr.endswith("dlx rectangles: error: unrecognized arguments: --all\n")
    done = dlx_cmd("rectangles", "--limit", "2", stdin="1\n1 1 1\n0 0 1 1\n")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "dlx: --limit goes with --count (each case's answer is its fewest" \
        " pieces)\n"
    done = dlx_cmd("rectangles", "--count", "--limit", "1", stdin="1\n1 1 2\n0 0 1 1\n0 0 1 1\n")
    assert (done.returncode, done.stdout) == (0, "1\n")
    assert "--jobs N" not in dlx_cmd("rectangles", "--help").stdout


# ------------------------------------------- 6. usage, --jobs, a short Sudoku line


def test_an_unknown_option_shows_the_usage_of_its_command():
    done = dlx_cmd("sudoku", "solve", "--jobs", "2", "-")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: dlx sudoku solve ")
    assert done.stderr.endswith("dlx sudoku solve: error: unrecognized arguments: --jobs\n")
    done = dlx_cmd("queens", "8", "--bogus")
    assert done.stderr.startswith("usage: dlx queens ") and done.returncode == 2


@pytest.mark.slow
def test_the_commands_with_jobs_are_those_the_readme_names():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for command in (["solve"], ["queens"], ["langford"], ["dominoes"], ["pentominoes"],
                    ["sudoku", "generate"]):
        assert "--jobs N" in dlx_cmd(*command, "--help").stdout, command
        assert f"`dlx {' '.join(command)}`" in readme
    for command in (["sudoku", "solve"], ["sudoku", "count"], ["rectangles"]):
        assert "--jobs N" not in dlx_cmd(*command, "--help").stdout, command


def test_a_short_sudoku_line_says_it_is_short_and_how_long_it_should_be():
    done = dlx_cmd("sudoku", "solve", stdin="4.....8.5.3.....\n")
    assert done.returncode == 2
    assert done.stderr == ("dlx: <stdin>:1: line of 16 cells with digits up to 8: too short for a"
                           " one-line puzzle (a 9x9 one has 81 characters), and not a 16x16"
                           " grid (it ends after 1 of 16 rows)\n")
    good = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    done = dlx_cmd("sudoku", "solve", stdin="4.....8.5.3.....\n" + good + "\n")
    assert done.returncode == 2 and len(done.stdout.split()) == 1        # the next one solved
    assert "line 2 has 81 cells, not 16" in done.stderr


# ------------------------------------------- 7. rows x columns


def test_pentominoes_are_rows_by_columns_as_dominoes():
    done = dlx_cmd("pentominoes", "3x20")
    assert done.returncode == 0 and [len(r) for r in done.stdout.split()] == [20, 20, 20]
    assert done.stderr == ""            # (no note on every run about the order)
    done = dlx_cmd("dominoes", "2x5")
    assert done.returncode == 0 and len(done.stdout.split()) == 2


# ------------------------------------------- 8. any problem to Knuth's format and back


def test_the_library_s_encodings_solve_from_knuth_s_format(tmp_path: Path):
    path = tmp_path / "queens8.dlx"
    path.write_text(dlx.write_dlx(queens.encode(8), knuth=True))
    done = dlx_cmd("solve", str(path), "--count")
    assert (done.returncode, done.stdout) == (0, "92\n")
    done = dlx_cmd("solve", str(path), "--limit", "1")
    assert done.returncode == 0 and len(done.stdout.split(";")) == 8    # short names
    assert dlx.count(dlx.read_dlx(path.read_text())) == 92


# ------------------------------------------- 9. small things


def test_rate_of_an_illegal_puzzle_names_the_clash():
    done = dlx_cmd("sudoku", "rate", stdin="11" + "." * 79 + "\n")
    assert done.returncode == 2 and "sudoku.explain" not in done.stderr
    assert done.stderr == ("dlx: <stdin>:1: the givens break a rule: digit 1 appears twice in"
                           " row 1 (r1c1, r1c2), and 1 more clash; rate needs exactly one"
                           " solution (dlx sudoku classify says Illegal)\n")


@pytest.mark.slow
def test_solve_given_a_sudoku_suggests_dlx_sudoku(tmp_path: Path):
    path = tmp_path / "puzzles.txt"
    line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    other = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path.write_text(line + "\n" + other + "\n")
    done = dlx_cmd("solve", str(path))
    assert done.returncode == 2
    assert done.stderr.endswith(f"; this looks like Sudoku puzzles, not an exact-cover problem:"
                                f" try dlx sudoku solve {path}\n")
    done = dlx_cmd("solve", stdin=line + "\n")
    assert done.returncode == 1 and "try dlx sudoku solve -" in done.stderr


def test_one_step_is_one_step():
    done = dlx_cmd("sudoku", "rate", "--steps", "--format", "jsonl", stdin="1234341221434.21\n")
    assert done.returncode == 0 and json.loads(done.stdout)["answer"]["level"] == 0
    from problems import sudoku

    assert str(sudoku.rate("1234341221434.21")) == "level 0 (hidden single), 1 step"
