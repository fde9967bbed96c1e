"""The `dlx sudoku` batch command (problems.cli.sudoku): judge formats, jsonl, errors, exit codes.

Answers are checked against problems.sudoku's per-puzzle functions (and the
independent checker of sudoku_helpers); the command hands puzzles to
problems.sudoku.batch in chunks, and must answer exactly as puzzle-by-puzzle does.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sudoku_helpers import (
    DATA,
    IMPOSSIBLE,
    NOIP_1,
    NOIP_2,
    PE1,
    PE1_SOLUTION,
    all_4x4_latin_squares,
    data_puzzles,
    rules_ok,
)

import dlx
from dlx.cli import main
from problems import sudoku
from problems.cli import sudoku as command
from problems.cli import sudoku_batch
from problems.sudoku import Grid


class TerminalIO(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="dlx")
    command.add_parsers(parser.add_subparsers(dest="command"))
    return parser.parse_args(["sudoku", *argv])


def cli(argv, stdin_text=None, terminal=False):
    """Run `dlx sudoku ARGV` as the main parser would; return (exit code, stdout, stderr)."""
    args = parse(argv)
    if stdin_text is not None:
        args.input = io.StringIO(stdin_text)
    out, err = io.StringIO(), (TerminalIO() if terminal else io.StringIO())
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = args.func(args)
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- judge formats


def test_cli_acwing_166_lines_with_end():
    code, out, err = cli(["solve", str(DATA / "acwing166.txt")])
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
        "416837529982465371735129468571298643293746185864351297647913852359682714128574936",
    ]


def test_cli_uva_10957_cases():
    code, out, _ = cli(["classify", "--cases", str(DATA / "uva10957.txt")])
    assert code == 1     # Illegal and Impossible puzzles have no solution
    assert out.splitlines() == ["Case 1: Unique.", "Case 2: Illegal.", "Case 3: Impossible.",
                                "Case 4: Ambiguous.", "Case 5: Unique."]


def test_cli_noip_2009_scores_from_stdin():
    code, out, _ = cli(["score", "-"], NOIP_1.strip() + "\n\n" + NOIP_2)
    assert (code, out) == (0, "2829\n2852\n")
    code, out, _ = cli(["score"], IMPOSSIBLE + "\n")
    assert (code, out) == (1, "-1\n")


def test_cli_jsonl():
    code, out, _ = cli(["classify", "--format", "jsonl", str(DATA / "uva10957.txt")])
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(rows) == 5
    assert set(rows[0]) >= {"input", "answer", "verdict", "nodes", "ms"}
    assert rows[0]["input"] == PE1.replace("0", ".") and rows[0]["answer"] == "Unique"
    assert rows[1]["verdict"] == "Illegal" and rows[1]["nodes"] == 0
    code, out, _ = cli(["solve", "--format", "jsonl", "-"], PE1 + "\n")
    row = json.loads(out)
    assert row["answer"] == PE1_SOLUTION and row["nodes"] == 50


# --------------------------------------------------------------------------- errors and options


def test_cli_malformed_puzzles_are_reported_and_the_rest_answered():
    text = PE1 + "\n" + PE1[:40] + "x" + PE1[41:] + "\n" + PE1[:80] + "\n" + PE1 + "\n"
    code, out, err = cli(["solve", "-"], text)
    assert code == 2
    assert out.splitlines() == [PE1_SOLUTION, PE1_SOLUTION]
    assert "<input>:2:41: " in err and "<input>:3: " in err
    assert all(line.startswith("dlx: <input>:") for line in err.splitlines())
    code, out, _ = cli(["solve", "--format", "jsonl", "-"], text)
    assert [("error" in json.loads(x)) for x in out.splitlines()] == [False, True, True, False]


def test_cli_count_unique_pretty_stats_and_budget():
    code, out, _ = cli(["count", "--limit", "10", "-"], "." * 16 + "\n" + PE1 + "\n")
    assert (code, out) == (0, "10\n1\n")
    code, out, _ = cli(["solve", "--unique", "-"], "." * 16 + "\n" + PE1 + "\n")
    assert code == 3 and out.splitlines() == ["Ambiguous", PE1_SOLUTION]
    code, out, _ = cli(["solve", "-"], "11" + "." * 79 + "\n")
    assert (code, out) == (1, "no solution\n")
    code, out, err = cli(["solve", "--pretty", "--stats", "-"], PE1 + "\n")
    assert code == 0 and out.startswith("4 8 3 | 9 2 1 | 6 5 7\n") and "puzzles" in err
    code, out, err = cli(["count", "--max-nodes", "100", "-"], "." * 81 + "\n")
    assert (code, out) == (124, "3+\n")        # as dlx solve: the count so far, unfinished
    assert err == "dlx: <input>:1: node budget of 100 reached: 3 solutions so far, count" \
        " unfinished\n"
    code, out, _ = cli(["solve", "--max-nodes", "30", "-"], "." * 81 + "\n")
    assert (code, out) == (124, "unknown\n")
    code, out, _ = cli(["classify", "--box", "2x3", "-"], "." * 36 + "\n")
    assert (code, out) == (0, "Ambiguous\n")
    code, out, _ = cli(["classify", "-x", "-"], "1" + "." * 39 + "1" + "." * 40 + "\n")
    assert out == "Illegal\n"


def test_cli_progress_only_on_a_terminal_and_never_on_stdout():
    puzzles = (PE1 + "\n") * 5
    code, out, err = cli(["solve", "-"], puzzles, terminal=True)
    assert code == 0 and out == (PE1_SOLUTION + "\n") * 5
    assert "puzzles" in err                                  # the progress display
    code, out, err = cli(["solve", "--quiet", "-"], puzzles, terminal=True)
    assert out == (PE1_SOLUTION + "\n") * 5 and err == ""


def test_cli_jigsaw_regions(tmp_path):
    regions = tmp_path / "regions.txt"
    regions.write_text("AAAB\nCABB\nCCDB\nCDDD\n")
    code, out, _ = cli(["count", "--regions", str(regions), "-"], "." * 16 + "\n")
    brute = [g for g in all_4x4_latin_squares() if rules_ok(g, 4, regions="AAABCABBCCDBCDDD")]
    assert (code, out) == (0, f"{len(brute)}\n")
    code, _, err = cli(["count", "--regions", str(tmp_path / "missing"), "-"], "")
    assert code == 2 and "regions" in err


def test_cli_missing_file():
    code, out, err = cli(["solve", "/nonexistent/puzzles.txt"])
    assert code == 2 and out == ""
    assert err.startswith("dlx: /nonexistent/puzzles.txt: cannot read it")
    assert err.count("\n") == 1


def test_cli_usage_errors_exit_2(capsys):
    for argv in (["sudoku"], ["sudoku", "solve", "--max-nodes", "0"],
                 ["sudoku", "count", "--box", "3by3"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2


def test_cli_through_main_and_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(PE1 + "\n" + IMPOSSIBLE + "\n"))
    assert main(["sudoku", "classify", "-"]) == 1
    assert capsys.readouterr().out == "Unique\nImpossible\n"


def test_cli_interrupted_exit_130(capsys, monkeypatch):
    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sudoku, "batch", stop)
    monkeypatch.setattr(sys, "stdin", io.StringIO(PE1 + "\n"))
    assert main(["sudoku", "solve", "-"]) == 130
    assert capsys.readouterr().err == "dlx: interrupted\n"


def test_cli_survives_a_closed_pipe():
    puzzles = (PE1 + "\n") * 2000
    proc = subprocess.run(
        ["bash", "-c", '"$PYTHON" -m dlx sudoku solve - | head -n 1;'
         ' echo "exit ${PIPESTATUS[0]}" >&2'],
        input=puzzles, capture_output=True, text=True, timeout=120,
        env={"PYTHON": sys.executable, "PATH": "/usr/bin:/bin",
             "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert proc.stdout == PE1_SOLUTION + "\n"
    assert "Traceback" not in proc.stderr and "exit 141" in proc.stderr


# --------------------------------------------------------------------------- the batch path


def cli_oracle(command, puzzles, limit=None, unique=False):
    """The text answers of `dlx sudoku COMMAND` computed puzzle by puzzle."""
    out = []
    for p in puzzles:
        if command == "classify":
            out.append(sudoku.classify(p).value)
        elif command == "count":
            out.append(str(sudoku.count(p, limit=limit)))
        elif unique:
            n = sudoku.count(p, limit=2)
            out.append(str(sudoku.solve(p)) if n == 1 else sudoku.classify(p).value)
        else:
            g = sudoku.solve(p)
            out.append("no solution" if g is None else str(g))
    return out


def spy_on_batch(monkeypatch) -> list[int]:
    """Record the number of puzzles of every sudoku.batch call (the list fills in)."""
    calls: list[int] = []
    real = sudoku.batch

    def spy(puzzles, *a, **k):
        calls.append(len(puzzles))
        return real(puzzles, *a, **k)

    monkeypatch.setattr(sudoku, "batch", spy)
    return calls


@pytest.mark.parametrize("argv, limit, unique", [
    (["solve"], None, False), (["solve", "--unique"], None, True),
    (["count", "--limit", "3"], 3, False), (["classify"], None, False),
])
def test_cli_uses_the_batch_and_its_answers_are_unchanged(monkeypatch, argv, limit, unique):
    grids = data_puzzles() + [Grid(IMPOSSIBLE), Grid("." * 16), Grid("11" + "." * 14)]
    lines = [str(g) for g in grids]
    text = "\n".join(lines[:3] + [PE1[:80], "# comment"] + lines[3:] + ["x" * 81]) + "\n"
    calls = spy_on_batch(monkeypatch)
    monkeypatch.setattr(sudoku_batch, "MAX_CHUNK", 4)     # several chunks, malformed ones between
    code, out, err = cli([*argv, "-"], text)
    assert calls and max(calls) <= 4 and sum(calls) == len(grids)
    assert out.splitlines() == cli_oracle(argv[0], grids, limit, unique)
    assert code == 2 and "<input>:4: " in err and f"<input>:{len(lines) + 3}:1: " in err
    code, out, _ = cli([*argv, "--format", "jsonl", "-"], text)
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r.get("error") is not None for r in rows] == \
        [False] * 3 + [True] + [False] * (len(lines) - 3) + [True]
    answered = [r for r in rows if "error" not in r]
    for r, g in zip(answered, grids, strict=True):
        stats = dlx.Stats()
        sudoku.count(g, limit=limit if argv[0] == "count" else 2 if unique or
                     argv[0] == "classify" else 1, stats=stats)
        assert r["nodes"] == stats.nodes and r["input"] == str(g) and r["ms"] >= 0


def test_cli_answers_a_terminal_puzzle_by_puzzle(monkeypatch):
    calls = spy_on_batch(monkeypatch)
    args = parse(["solve", "--quiet", "-"])
    args.input = TerminalIO((PE1 + "\n") * 5)     # someone typing: answer each at once
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert args.func(args) == 0
    assert out.getvalue() == (PE1_SOLUTION + "\n") * 5 and calls == [1] * 5


def test_cli_on_the_pure_engine_says_the_same(monkeypatch):
    text = "\n".join([PE1, IMPOSSIBLE, "." * 16, "11" + "." * 79, PE1[:80]]) + "\n"
    outputs = []
    for name in ("auto", "python"):
        monkeypatch.setenv("DLX_ENGINE", name)
        code, out, err = cli(["classify", "--format", "jsonl", "-"], text)
        outputs.append((code, [{k: v for k, v in json.loads(x).items() if k != "ms"}
                               for x in out.splitlines()], err))
    assert outputs[0] == outputs[1]
    assert [r.get("verdict") for r in outputs[0][1]] == \
        ["Unique", "Impossible", "Ambiguous", "Illegal", None]


def test_cli_budget_and_stats_from_the_batch():
    code, out, err = cli(["count", "--max-nodes", "100", "--stats", "-"],
                         "." * 81 + "\n" + PE1 + "\n")
    assert (code, out) == (124, "3+\n1\n")
    assert "puzzles" in err


# --------------------------------------------------------------------------- issue 14


def test_cli_no_puzzles_is_bad_input(tmp_path):
    code, out, err = cli(["solve", "-"], "")
    assert (code, out, err) == (2, "", "dlx: <input>: no puzzles\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("# only a comment\n\n")
    code, out, err = cli(["count", str(empty)])
    assert (code, out, err) == (2, "", f"dlx: {empty}: no puzzles\n")
    done = subprocess.run([sys.executable, "-m", "dlx", "sudoku", "solve"], input="",
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "dlx: <stdin>: no puzzles\n")


def test_cli_several_files_one_batch(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(PE1 + "\n")
    b.write_text(IMPOSSIBLE + "\n" + PE1 + "\n")
    code, out, _ = cli(["classify", "--cases", str(a), str(b)])
    assert (code, out) == (1, "Case 1: Unique.\nCase 2: Impossible.\nCase 3: Unique.\n")
    code, out, _ = cli(["solve", "--format", "jsonl", str(a), str(b)])
    rows = [json.loads(x) for x in out.splitlines()]
    assert [(r["case"], r["file"], r["line"]) for r in rows] == [
        (1, str(a), 1), (2, str(b), 1), (3, str(b), 2)]
    code, out, err = cli(["solve", str(a), str(tmp_path / "missing.txt"), str(a)])
    assert code == 2 and out == (PE1_SOLUTION + "\n") * 2 and "missing.txt: cannot read" in err


@pytest.mark.parametrize("argv, text, code", [
    (["solve"], PE1, 0),
    (["solve"], IMPOSSIBLE, 1),                         # no solution
    (["count"], IMPOSSIBLE, 1),
    (["count"], "." * 16, 0),                           # 288 solutions: answered
    (["classify"], "11" + "." * 79, 1),                 # Illegal: no solution
    (["classify"], "." * 16, 0),                        # Ambiguous: answered
    (["solve", "--unique"], "." * 16, 3),               # not unique where demanded
    (["solve", "--unique"], "." * 16 + "\n" + IMPOSSIBLE, 3),
    (["count", "--max-nodes", "5"], "." * 81 + "\n" + IMPOSSIBLE, 124),
    (["solve"], "x\n" + "." * 81 + "\n" + IMPOSSIBLE, 2),
    (["score"], IMPOSSIBLE, 1),
])
def test_cli_one_exit_code_rule(argv, text, code):
    assert cli([*argv, "-"], text + "\n")[0] == code


def test_cli_a_leading_count_line():
    code, out, err = cli(["solve", "-"], "2\n" + PE1 + "\n" + PE1 + "\n")
    assert (code, out, err) == (0, (PE1_SOLUTION + "\n") * 2, "")
    code, out, err = cli(["solve", "-"], "3\n" + PE1 + "\n")
    assert (code, out) == (2, PE1_SOLUTION + "\n")
    assert err == "dlx: <input>:1: the first line announces 3 puzzles, but the input has 1\n"
    # a 4x4 grid whose first row looks like a number is still a grid
    code, out, _ = cli(["solve", "-"], "1000\n0030\n0400\n0002\n")
    assert (code, out) == (0, "1324423124133142\n")


def sixteen() -> Grid:
    return sudoku.generate(box=(4, 4), seed=3)


def test_cli_16x16_as_numbers_and_in_both_letter_notations():
    g = sixteen()
    solution = str(sudoku.solve(g))
    rows = [g.values[r * 16:(r + 1) * 16] for r in range(16)]
    numbers = "\n".join(" ".join(map(str, row)) for row in rows) + "\n"
    letters = str(g) + "\n"
    hexa = "".join("." if v == 0 else "0123456789ABCDEF"[v - 1] for v in g.values) + "\n"
    assert "0" in hexa and "G" not in hexa
    for text in (numbers, letters, hexa, "\n".join(hexa[r * 16:(r + 1) * 16]
                                                     for r in range(16)) + "\n"):
        code, out, err = cli(["solve", "-"], text)
        assert (code, out, err) == (0, solution + "\n", "")
    # 0-F with no '.' and at most one 0 per row: 0 as blank or as a digit? refused
    full = "".join("0123456789ABCDEF"[v - 1] for v in sudoku.solve(g).values)
    code, out, err = cli(["solve", "-"], full + "\n")
    assert code == 2 and out == ""
    assert err.startswith("dlx: <input>:1:") and "is 0 a blank" in err


def test_cli_timeout_for_the_whole_batch():
    puzzles = [str(sudoku.generate(seed=k)) for k in range(3)] * 100
    started = time.monotonic()
    code, out, err = cli(["score", "--timeout", "0.05", "-"], "\n".join(puzzles) + "\n")
    assert time.monotonic() - started < 30
    answered = len(out.splitlines())
    assert code == 124 and 0 < answered < 300
    *found, last = err.splitlines()
    assert last == f"dlx: time limit of 0.05 s reached after {answered} puzzles: the rest get" \
                   " no answer"
    # the time ran out inside the last puzzle's search: "unknown", and its best score so far
    assert found == [] or (len(found) == 1 and out.endswith("unknown\n") and re.fullmatch(
        rf"dlx: <input>:{answered}: the best score found before the time limit is \d+ \(not"
        r" proven best\)", found[0]))
    code, out, _ = cli(["solve", "--timeout", "60", "-"], "\n".join(puzzles) + "\n")
    assert code == 0 and len(out.splitlines()) == 300


def test_cli_rate_and_the_human_solution():
    code, out, err = cli(["rate", "--steps", "-"], "1.....3..4.....2\n")
    lines = out.splitlines()
    rating = sudoku.rate("1.....3..4.....2")
    assert code == 0 and err == ""
    assert lines[0] == f"{int(rating.level)} {rating.technique}"
    assert lines[1:] == [f"  {step}" for step in rating.steps]
    code, out, err = cli(["rate", "--format", "jsonl", "-"], PE1 + "\n" + "." * 16 + "\n")
    row, bad = (json.loads(x) for x in out.splitlines())
    assert code == 2 and row["answer"]["solution"] == PE1_SOLUTION and "error" in bad
    assert row["answer"]["level"] == int(sudoku.rate(PE1).level)
    assert err == "dlx: <input>:2: the puzzle has 2 or more solutions; rate needs exactly one\n"


def test_cli_generate():
    code, out, err = cli_generate(["--number", "3", "--seed", "5"])
    puzzles = out.splitlines()
    assert code == 0 and err == "" and len(puzzles) == 3
    assert puzzles == [str(sudoku.generate(seed=5 + k)) for k in range(3)]
    for p in puzzles:
        assert sudoku.count(p, limit=2) == 1 and sudoku.is_minimal(p)
    code, out, _ = cli_generate(["-n", "2", "--seed", "1", "--box", "2x3",
                                 "--symmetry", "rot180", "--format", "jsonl"])
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["seed"] for r in rows] == [1, 2]
    for r in rows:
        p = r["puzzle"]
        assert len(p) == 36 and sudoku.count(p, limit=2) == 1
        assert all((p[k] == ".") == (p[35 - k] == ".") for k in range(36))    # rot180
    code, out, _ = cli_generate(["--seed", "2", "--rating", "0", "--format", "jsonl"])
    assert code == 0 and json.loads(out)["level"] == 0


def test_cli_generate_number_and_its_old_spelling():
    code, out, err = cli_generate(["-n", "2", "--seed", "5"])
    assert (code, err) == (0, "") and out.splitlines() == [str(sudoku.generate(seed=5 + k))
                                                           for k in range(2)]
    # --count N (--count counts solutions everywhere else) still works, with a note
    code, old, err = cli_generate(["--count", "2", "--seed", "5"])
    assert (code, old) == (0, out)
    assert err == ("dlx: note: --count N is now --number N (or -n N); elsewhere --count counts"
                   " solutions\n")
    done, _ = dlx_run("sudoku", "generate", "--count", "2", "--number", "3")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "dlx: --count N is the old spelling of --number N: give only --number\n"
    text, _ = dlx_run("sudoku", "generate", "--help")
    assert "-n N, --number N" in text.stdout and "--count" not in text.stdout


def cli_generate(argv):
    return cli(["generate", *argv])


# --------------------------------------------------------------------------- issue 20: limits
#
# Each runs the command as a user does, with a short time limit, and checks that it
# ends in time (generous slack: the machine is noisy; the broken versions ran for
# minutes, or until memory ran out) with the exit code and one line on stderr.

#: The slack on a time limit of the command (start-up included).
SLACK = 15.0
#: Address space for the commands that once ran out of memory (they fail, not the machine).
MEMORY_KB = 2_000_000


def dlx_run(*argv: str, stdin: str = "", shell: str | None = None
            ) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``python -m dlx ARGV`` (or the bash line ``shell``, where ``$DLX`` is that
    command) under a memory cap; return what it did and how long it took."""
    line = shell if shell is not None else '$DLX "$@"'
    started = time.monotonic()
    done = subprocess.run(
        ["bash", "-c", f"ulimit -v {MEMORY_KB}; DLX='{sys.executable} -m dlx'; {line}",
         "bash", *argv], input=stdin, capture_output=True, text=True, timeout=120,
        env={**os.environ, "NO_COLOR": "1"})
    assert "Traceback" not in done.stderr, done.stderr
    return done, time.monotonic() - started


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line the command wrote on stderr (after the argparse usage, if any)."""
    assert done.stderr.endswith("\n"), done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 or lines[0].startswith("usage:"), done.stderr
    return lines[-1]


@pytest.mark.slow
def test_cli_score_stops_inside_a_puzzle_at_the_time_limit():
    empty = "." * 256                       # a 16x16 whose best score takes minutes
    done, took = dlx_run("sudoku", "score", "--timeout", "1", "-", stdin=empty + "\n" + PE1)
    assert took < SLACK
    assert (done.returncode, done.stdout) == (124, "unknown\n")
    lines = done.stderr.splitlines()
    assert lines[-1] == "dlx: time limit of 1 s reached after 1 puzzles: the rest get no answer"
    for line in lines[:-1]:                 # the best score found, if one was
        assert line.startswith("dlx: <stdin>:1: the best score found before the time limit")


@pytest.mark.slow
def test_cli_generate_stops_at_the_time_limit():
    done, took = dlx_run("sudoku", "generate", "--box", "4x4", "--rating", "x-wing",
                         "--timeout", "1", "--seed", "1")
    assert took < SLACK
    assert (done.returncode, done.stdout) == (124, "")
    assert one_line(done) == "dlx: time limit of 1 s reached after 0 of 1 puzzles"
    # a long run prints every puzzle made in time: those of the seeds, in order
    done, took = dlx_run("sudoku", "generate", "--box", "3x4", "--number", str(2**63 - 1),
                         "--timeout", "1", "--seed", "1")
    made = done.stdout.splitlines()
    assert took < SLACK and done.returncode == 124
    assert made == [str(sudoku.generate(box=(3, 4), seed=1 + k)) for k in range(len(made))]
    assert one_line(done) == (f"dlx: time limit of 1 s reached after {len(made):,} of"
                              f" {2**63 - 1:,} puzzles")


def test_cli_generate_refuses_a_box_too_big_at_once():
    done, took = dlx_run("sudoku", "generate", "--box", "300x300", "--timeout", "5")
    assert took < SLACK and (done.returncode, done.stdout) == (2, "")
    assert one_line(done) == ("dlx sudoku generate: error: argument --box: box 300x300 makes a"
                              " 90000x90000 grid; the largest is 64x64 (8x8)")
    done, took = dlx_run("sudoku", "generate", "--box", "6x6", "--seed", "1", "--timeout", "5")
    assert took < SLACK and (done.returncode, done.stdout) == (2, "")
    assert one_line(done).startswith("dlx: puzzles are made up to 25x25 (a box of at most 25"
                                     " cells), not 36x36")
    done, _ = dlx_run("sudoku", "solve", "--box", f"{10**400}x1", "-")
    assert done.returncode == 2 and "the largest is 64x64" in one_line(done)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_cli_input_with_no_end_is_refused_at_the_line_cap():
    for verb in ("solve", "score", "rate"):
        done, took = dlx_run("sudoku", verb, "/dev/zero")
        assert took < SLACK and (done.returncode, done.stdout) == (2, "")
        assert one_line(done) == ("dlx: /dev/zero:1: line is longer than 1,000,000 characters;"
                                  " --max-line N reads longer lines")
    done, took = dlx_run(shell="$DLX sudoku count < /dev/zero")
    assert took < SLACK and done.returncode == 2
    assert one_line(done).startswith("dlx: <stdin>:1: line is longer than 1,000,000")
    done, _ = dlx_run("sudoku", "solve", "--max-line", "50", "-", stdin="." * 60 + "\n" + PE1)
    assert (done.returncode, done.stdout) == (2, "")
    assert one_line(done) == "dlx: <stdin>:1: line is longer than 50 characters"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_cli_regions_with_no_end_are_refused_at_once():
    done, took = dlx_run("sudoku", "count", "--regions", "/dev/zero", "-", stdin="." * 16)
    assert took < SLACK and (done.returncode, done.stdout) == (2, "")
    assert one_line(done) == ("dlx: /dev/zero:1: --regions: more than 4,096 region ids: the"
                              " largest jigsaw is 64x64")
    done, took = dlx_run(shell="$DLX sudoku count --regions <(yes '') - <<< '" + "." * 16 + "'")
    assert took < SLACK and done.returncode == 2
    assert re.fullmatch(r"dlx: /dev/fd/\d+:\d+: --regions: longer than 1,000,000 characters;"
                        r" --max-line N reads more", one_line(done))


@pytest.mark.slow
def test_cli_reading_endless_blank_lines_keeps_the_time_limit():
    for verb in ("solve", "score"):
        done, took = dlx_run(shell=f"yes '' | $DLX sudoku {verb} --timeout 1")
        assert took < SLACK and (done.returncode, done.stdout) == (124, "")
        assert one_line(done) == ("dlx: time limit of 1 s reached after 0 puzzles: the rest get"
                                  " no answer")


@pytest.mark.slow
def test_cli_huge_numbers_are_bad_input():
    for argv in (["--givens", str(2**63 - 1)], ["--rating", str(10**400)],
                 ["--rating", "9" * 5000], ["--box", f"1x{2**63}"]):
        done, _ = dlx_run("sudoku", "generate", "--seed", "1", *argv)
        assert (done.returncode, done.stdout) == (2, ""), argv
        one_line(done)
    done, _ = dlx_run("sudoku", "generate", "--box", "2x2", "--seed", str(-10**400))
    assert done.returncode == 0
    assert done.stdout == str(sudoku.generate(box=(2, 2), seed=-10**400)) + "\n"


# ------------------------------------------------------------------- run as a user runs it


def dlx_cmd(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m dlx ARGV`` as a user does; what it did."""
    return subprocess.run([sys.executable, "-m", "dlx", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)


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


def test_rate_of_an_illegal_puzzle_names_the_clash():
    done = dlx_cmd("sudoku", "rate", stdin="11" + "." * 79 + "\n")
    assert done.returncode == 2 and "sudoku.explain" not in done.stderr
    assert done.stderr == ("dlx: <stdin>:1: the givens break a rule: digit 1 appears twice in"
                           " row 1 (r1c1, r1c2), and 1 more clash; rate needs exactly one"
                           " solution (dlx sudoku classify says Illegal)\n")


def test_one_step_is_one_step():
    done = dlx_cmd("sudoku", "rate", "--steps", "--format", "jsonl", stdin="1234341221434.21\n")
    assert done.returncode == 0 and json.loads(done.stdout)["answer"]["level"] == 0
    from problems import sudoku

    assert str(sudoku.rate("1234341221434.21")) == "level 0 (hidden single), 1 step"
