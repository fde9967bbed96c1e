"""The puzzle sub-commands (problems.cli.puzzles): output, formats, exit codes, one-line errors."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import dlx
from problems import rectangles
from problems.catalog import ZOJ_SAMPLE
from problems.cli import puzzles


def run(capsys, *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="dlx")
    puzzles.add_parsers(parser.add_subparsers())
    args = parser.parse_args(argv)
    code = args.func(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_queens_count_first_all_and_limit(capsys):
    assert run(capsys, "queens", "8", "--count") == (0, "92\n", "")
    code, out, err = run(capsys, "queens", "6")
    assert code == 0 and err == "" and len(out.splitlines()) == 6 and out.count("Q") == 6
    code, out, _ = run(capsys, "queens", "6", "--all")
    assert code == 0 and out.count("Q") == 24 and len(out.split("\n\n")) == 4
    code, out, _ = run(capsys, "queens", "8", "--limit", "3", "--format", "jsonl")
    boards = [json.loads(line)["columns"] for line in out.splitlines()]
    assert code == 0 and len(boards) == 3
    for b in boards:
        assert sorted(b) == list(range(8)) and len({r + c for r, c in enumerate(b)}) == 8
    assert run(capsys, "queens", "12", "--count", "--limit", "5") == (0, "5\n", "")


def test_no_solution_and_quiet(capsys):
    assert run(capsys, "queens", "3") == (1, "", "dlx: no solution\n")
    assert run(capsys, "queens", "3", "--quiet") == (1, "", "")
    assert run(capsys, "queens", "3", "--count") == (1, "0\n", "")
    assert run(capsys, "langford", "5", "--format", "jsonl", "--count") == (
        1, '{"count": 0, "finished": true}\n', "")


@pytest.mark.parametrize("argv, message", [
    (["queens", "-1"], "dlx: the board size must be a whole number >= 0, not -1\n"),
    (["queens", "100000"], "dlx: that would be about 10,000,000,000 options; the limit"
                           " is 200,000\n"),
    (["langford", "0"], "dlx: n must be a whole number >= 1, not 0\n"),
    (["pentominoes", "5x5"], "dlx: a 5x5 box has 25 squares; the twelve"
                             " pentominoes need 60\n"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert run(capsys, *argv) == (2, "", message)


@pytest.mark.parametrize("argv", [["queens", "8", "--count", "--all"], ["dominoes", "3by3"],
                                  ["queens", "8", "--limit", "0"], ["queens", "eight"],
                                  ["langford", "4", "--format", "xml"],
                                  ["queens", "8", "--max-nodes", "0"],
                                  ["queens", "8", "--max-nodes", "-1"],
                                  ["queens", "8", "--timeout", "0"],
                                  ["rectangles", "--timeout", "-2"]])
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        run(capsys, *argv)
    assert info.value.code == 2


def test_budget_gives_124(capsys):
    code, out, err = run(capsys, "queens", "10", "--count", "--max-nodes", "100")
    assert (code, out) == (124, "5+\n")              # as dlx solve: the count so far
    assert err == "dlx: node budget of 100 reached: 5 solutions so far, search unfinished\n"
    code, out, _ = run(capsys, "queens", "10", "--count", "--max-nodes", "100", "--format",
                       "jsonl")
    assert (code, json.loads(out)) == (124, {"count": 5, "finished": False})
    code, out, err = run(capsys, "queens", "10", "--limit", "9", "--max-nodes", "100")
    assert code == 124 and out.count("Q") == 5 * 10          # the five found are printed
    assert err == "dlx: node budget of 100 reached: 5 solutions so far, search unfinished\n"


def test_interrupt_gives_130(capsys, monkeypatch):
    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(dlx, "count", stop)
    # as a budget does: the count so far, N+, and how to keep the search next time
    assert run(capsys, "dominoes", "4x4", "--count") == (
        130, "0+\n", "dlx: interrupted: 0 solutions so far, search unfinished; run it with"
        " --checkpoint FILE to be able to stop it and resume\n")
    monkeypatch.setattr(rectangles, "min_cover", stop)
    monkeypatch.setattr(sys, "stdin", io.StringIO(ZOJ_SAMPLE))
    assert run(capsys, "rectangles") == (130, "", "dlx: interrupted\n")


def test_stats_table_on_stderr(capsys):
    code, out, err = run(capsys, "queens", "8", "--count", "--stats")
    assert code == 0 and out == "92\n"
    assert "nodes" in err and "1,049" in err and "solutions" in err


def test_progress_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    calls = []
    original = puzzles.cli.search_session       # (dlx.cli's, which the commands call)

    def spy(label, quiet):
        calls.append(label)
        return original(label, quiet)

    monkeypatch.setattr(puzzles.cli, "search_session", spy)
    assert run(capsys, "queens", "10", "--count")[:2] == (0, "724\n")   # 11,578 nodes
    assert run(capsys, "queens", "10", "--count", "--quiet") == (0, "724\n", "")
    assert calls == ["queens", "queens"]


def test_langford_and_dominoes(capsys):
    code, out, _ = run(capsys, "langford", "4", "--all", "--format", "jsonl")
    seqs = [json.loads(line)["sequence"] for line in out.splitlines()]
    assert code == 0 and sorted(seqs) == [[2, 3, 4, 2, 1, 3, 1, 4], [4, 1, 3, 1, 2, 4, 3, 2]]
    assert run(capsys, "langford", "7", "--count") == (0, "52\n", "")
    assert run(capsys, "dominoes", "4x4", "--count") == (0, "36\n", "")
    code, out, _ = run(capsys, "dominoes", "2x3", "--all")
    assert code == 0 and sorted(out.split("\n\n")) == sorted(["<>^\n<>v", "^<>\nv<>",
                                                              "^^^\nvvv\n"])
    code, out, _ = run(capsys, "dominoes", "2x2", "--format", "jsonl")
    assert json.loads(out)["dominoes"] in ([[0, 0, "h"], [1, 0, "h"]],
                                           [[0, 0, "v"], [0, 1, "v"]])
    assert run(capsys, "dominoes", "3x3", "-q") == (1, "", "")


@pytest.mark.slow
def test_pentominoes(capsys):
    code, out, err = run(capsys, "pentominoes", "3x20", "--distinct", "--all", "--format",
                         "jsonl")
    tilings = [json.loads(line)["rows"] for line in out.splitlines()]
    assert code == 0 and len(tilings) == 2
    for rows in tilings:            # rows x columns, as dominoes 2x5
        assert len(rows) == 3 and all(len(r) == 20 for r in rows)
        assert sorted("".join(rows)) == sorted("".join(c * 5 for c in "FILNPTUVWXYZ"))
    assert err == ""                # no note on every run about the order of R and C
    code, out, _ = run(capsys, "pentominoes", "6x10", "-q")
    assert code == 0 and len(out.splitlines()) == 6
    assert run(capsys, "pentominoes", "10x6", "--count", "--distinct") == (0, "2339\n", "")


def test_rectangles_from_a_file_and_stdin(capsys, monkeypatch, tmp_path):
    path = tmp_path / "zoj.txt"
    path.write_text(ZOJ_SAMPLE)
    # case 2 has no cover: exit 1, by the batch rule
    assert run(capsys, "rectangles", str(path)) == (1, "1\n-1\n2\n", "")
    monkeypatch.setattr(sys, "stdin", io.StringIO(ZOJ_SAMPLE))
    code, out, _ = run(capsys, "rectangles", "-", "--format", "jsonl")
    assert code == 1 and [json.loads(line) for line in out.splitlines()] == [
        {"file": "<stdin>", "case": 1, "min": 1, "pieces": [0]},
        {"file": "<stdin>", "case": 2, "min": -1, "pieces": None},
        {"file": "<stdin>", "case": 3, "min": 2, "pieces": [3, 4]}]
    assert run(capsys, "rectangles", str(path), "--count") == (1, "1\n0\n2\n", "")
    code, _, err = run(capsys, "rectangles", str(path), "--stats")
    assert code == 1 and "cases" in err and "nodes" in err
    assert run(capsys, "rectangles", str(path), str(path)) == (1, "1\n-1\n2\n" * 2, "")


def test_rectangles_exit_codes(capsys, tmp_path):
    none = tmp_path / "none.txt"
    none.write_text("1\n2 2 1\n0 0 1 1\n")
    assert run(capsys, "rectangles", str(none)) == (1, "-1\n", "")
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n5 5 1\n0 0 5 5\n5 5 2\n0 0 3 5\n")
    code, out, err = run(capsys, "rectangles", str(bad))
    assert (code, out) == (2, "1\n")
    assert err == f"dlx: {bad}:4: case 2 announces 2 pieces, but the input ends after 1\n"
    outside = tmp_path / "outside.txt"
    outside.write_text("1\n5 5 1\n0 0 6 5\n")
    code, out, err = run(capsys, "rectangles", str(outside))
    assert code == 2 and out == "" and f"{outside}:3: case 1: piece 0 (0 0 6 5) is outside" in err
    assert len(err.splitlines()) == 1
    code, _, err = run(capsys, "rectangles", str(tmp_path / "missing.txt"))
    assert code == 2 and err == f"dlx: {tmp_path / 'missing.txt'}: cannot read it: No such file" \
                                " or directory\n"
    hard = tmp_path / "hard.txt"
    pieces = rectangles.random_pieces(10, 10, 60, covers=4, grain=2, seed=1)
    hard.write_text("1\n10 10 60\n" + "".join(" ".join(map(str, p)) + "\n" for p in pieces))
    code, out, err = run(capsys, "rectangles", str(hard), "--max-nodes", "5")
    assert code == 124 and out == "" and f"{hard}:2: case 1: node budget of 5 reached" in err


def test_rectangles_answer_the_rest_after_a_bad_case(capsys, tmp_path):
    # issue 14: a bad case used to stop the batch
    text = ("4\n"
            "5 5 1\n0 0 5 5\n"          # case 1: 1
            "5 5 2\n0 0 6 5\n0 0 5 5\n"  # case 2: a piece off the board
            "2 2 1\n0 0 x 1\n"           # case 3: not a number
            "2 2 2\n0 0 1 2\n1 0 2 2\n")  # case 4: 2
    path = tmp_path / "zoj.txt"
    path.write_text(text)
    code, out, err = run(capsys, "rectangles", str(path))
    assert (code, out) == (2, "1\n2\n")
    assert err.splitlines() == [
        f"dlx: {path}:5: case 2: piece 0 (0 0 6 5) is outside the 5 x 5 board (0 <= x <= 5,"
        " 0 <= y <= 5)",
        f"dlx: {path}:8: case 3: expected whole numbers x1 y1 x2 y2, got '0 0 x 1'"]
    # without the T line, cases run to the end; with a wrong T, it is reported
    path.write_text("2 2 2\n0 0 1 2\n1 0 2 2\n5 5 1\n0 0 5 5\n")
    assert run(capsys, "rectangles", str(path)) == (0, "2\n1\n", "")
    path.write_text("3\n2 2 2\n0 0 1 2\n1 0 2 2\n")
    code, out, err = run(capsys, "rectangles", str(path))
    assert (code, out) == (2, "2\n")
    assert err == f"dlx: {path}:1: line 1 announces 3 cases, but the input ends after 1\n"


def test_rectangles_timeout(capsys, tmp_path):
    pieces = rectangles.random_pieces(12, 12, 150, covers=6, grain=2, seed=3)
    case = "12 12 150\n" + "".join(" ".join(map(str, p)) + "\n" for p in pieces)
    path = tmp_path / "hard.txt"
    path.write_text(f"40\n{case * 40}")
    code, out, err = run(capsys, "rectangles", str(path), "--count", "--timeout", "0.2")
    assert code == 124 and len(out.splitlines()) < 40
    assert "time limit of 0.2 s reached" in err


# ------------------------------------ run as a user runs them: budgets keep what was found


def dlx_cmd(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m dlx ARGV`` as a user does; what it did."""
    return subprocess.run([sys.executable, "-m", "dlx", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)


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


def test_a_rectangles_count_under_a_budget_says_how_many_so_far(tmp_path: Path):
    # a 6 x 6 board of unit squares and horizontal dominoes: 13**6 exact covers
    pieces = [f"{x} {y} {x + 1} {y + 1}" for x in range(6) for y in range(6)]
    pieces += [f"{x} {y} {x + 2} {y + 1}" for x in range(5) for y in range(6)]
    zoj = tmp_path / "zoj.txt"
    zoj.write_text(f"1\n6 6 {len(pieces)}\n" + "\n".join(pieces) + "\n")
    done = dlx_cmd("rectangles", str(zoj), "--count", "--max-nodes", "300")
    assert done.returncode == 124 and re.fullmatch(r"[1-9]\d*\+\n", done.stdout)
    assert "reached:" in done.stderr and "exact covers so far, count unfinished" in done.stderr


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


def test_pentominoes_are_rows_by_columns_as_dominoes():
    done = dlx_cmd("pentominoes", "3x20")
    assert done.returncode == 0 and [len(r) for r in done.stdout.split()] == [20, 20, 20]
    assert done.stderr == ""            # (no note on every run about the order)
    done = dlx_cmd("dominoes", "2x5")
    assert done.returncode == 0 and len(done.stdout.split()) == 2
