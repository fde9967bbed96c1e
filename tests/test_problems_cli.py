"""The puzzle sub-commands (dlx.cli.puzzles): output, formats, exit codes, errors on one line."""

from __future__ import annotations

import argparse
import io
import json
import sys

import pytest

import dlx
from dlx.cli import puzzles
from problems import rectangles
from problems.catalog import ZOJ_SAMPLE


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
    original = puzzles.search_session

    def spy(label, quiet):
        calls.append(label)
        return original(label, quiet)

    monkeypatch.setattr(puzzles, "search_session", spy)
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
    for rows in tilings:            # rows x columns, as dominoes 2x5 (issue 24)
        assert len(rows) == 3 and all(len(r) == 20 for r in rows)
        assert sorted("".join(rows)) == sorted("".join(c * 5 for c in "FILNPTUVWXYZ"))
    # the order changed: one line says so where it shows (not with --count or -q)
    assert err == ("dlx: note: 3x20 is 3 rows of 20 (rows x columns, as dominoes and --box);"
                   " it used to mean 3 wide and 20 tall: write 20x3 for that\n")
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
