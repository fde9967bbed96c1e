"""Judge batch formats (HUST 1017, POJ 3740): samples, brute force, malformed cases."""

from __future__ import annotations

import io
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dlx
from dlx.cli import judges

HUST_SAMPLE = "6 7\n3 1 4 7\n2 1 4\n3 4 5 7\n3 3 5 6\n4 2 3 6 7\n2 2 7\n"
POJ_SAMPLE = "3 3\n0 1 0\n0 0 1\n1 0 0\n4 4\n0 0 0 1\n1 0 0 0\n1 1 0 1\n0 1 0 0\n"


def run(fmt: str, text: str, **kw) -> tuple[int, list[str], list[str]]:
    out, err = io.StringIO(), io.StringIO()
    code = judges.solve_batch(fmt, io.StringIO(text), out, err, **kw)
    return code, out.getvalue().splitlines(), err.getvalue().splitlines()


def test_hust_sample_is_knuths_toy_problem():
    assert run("hust", HUST_SAMPLE) == (0, ["3 2 4 6"], [])


def test_poj_sample():
    assert run("matrix", POJ_SAMPLE) == (1, ["Yes, I found it", "It is impossible"], [])


def test_several_cases_blank_lines_and_edge_sizes():
    # a case without a solution makes the batch's exit code 1 (the batch rule)
    text = "\n" + HUST_SAMPLE + "\n\n2 2\n1 1\n1 1\n0 0\n1 3\n0\n"
    assert run("hust", text) == (1, ["3 2 4 6", "NO", "0", "NO"], [])
    assert run("matrix", "2 0\n1 1\n1\n0 2\n") == (1, ["Yes, I found it", "Yes, I found it",
                                                        "It is impossible"], [])
    assert run("matrix", "2 0\n1 1\n1\n") == (0, ["Yes, I found it", "Yes, I found it"], [])
    assert run("hust", "") == (2, [], ["dlx: <input>:1: no cases: the input is empty"])
    assert run("hust", "\n  \n") == (2, [], ["dlx: <input>:1: no cases: the input is empty"])


def test_a_leading_count_line():
    assert run("hust", "1\n" + HUST_SAMPLE) == (0, ["3 2 4 6"], [])
    assert run("matrix", "2\n" + POJ_SAMPLE) == (1, ["Yes, I found it", "It is impossible"], [])
    assert run("hust", "0\n") == (0, [], [])
    assert run("hust", "2\n" + HUST_SAMPLE) == (
        2, ["3 2 4 6"], ["dlx: <input>:1: the first line announces 2 cases, but the input has 1"])
    assert run("hust", "x\n" + HUST_SAMPLE) == (
        2, [], ["dlx: <input>:1: the number of cases must be a whole number, not 'x'"])


def test_count_limit_and_stats():
    stats = dlx.Stats()
    two = "2 1\n1 1\n1 1\n"
    assert run("hust", HUST_SAMPLE + two, count=True, stats=stats) == (0, ["1", "2"], [])
    nodes = 0
    for case in judges.read_hust(io.StringIO(HUST_SAMPLE + two)):
        one = dlx.Stats()
        dlx.count(case, stats=one)
        nodes += one.nodes
    assert stats.solutions == 3 and stats.nodes == nodes
    assert run("hust", two, count=True, limit=1) == (0, ["1"], [])
    assert run("matrix", "1 1\n0\n", count=True) == (1, ["0"], [])



def test_readers_yield_problems_with_row_labels():
    (p,) = judges.read_hust(io.StringIO(HUST_SAMPLE))
    assert isinstance(p, dlx.ExactCover) and p.primary == tuple(range(1, 8))
    assert p.options[5] == (2, 3, 6, 7)
    first, second = judges.read_matrix(io.StringIO(POJ_SAMPLE))
    assert second.options == {1: (4,), 2: (1,), 3: (1, 2, 4), 4: (2,)}
    assert dlx.count(first) == 1 and dlx.count(second) == 0


@pytest.mark.parametrize("fmt, text, line, message", [
    ("hust", "2 3\n1 1\n1 4\n", 3, "column 4 is out of range: there are 3 columns"),
    ("hust", "2 3\n2 1\n1 1\n", 2, "says it has 2 ones but lists 1"),
    ("hust", "1 3\n2 2 2\n", 2, "names a column twice"),
    ("hust", "1 3\n1 x\n", 2, "a column must be a whole number, not 'x'"),
    ("hust", "1 3\n1 0\n", 2, "column 0 is out of range"),
    ("matrix", "2 3\n1 0 1\n1 0\n", 3, "expected 3 numbers 0 or 1, got 2"),
    ("matrix", "1 3\n1 2 0\n", 2, "entry 2 is '2', not 0 or 1"),
])
def test_malformed_case_is_reported_and_the_next_answered(fmt, text, line, message):
    good = HUST_SAMPLE if fmt == "hust" else POJ_SAMPLE
    code, out, err = run(fmt, text + good)
    assert code == 2 and len(err) == 1
    assert err[0].startswith(f"dlx: <input>:{line}: case 1: ") and message in err[0]
    assert out == (["3 2 4 6"] if fmt == "hust" else ["Yes, I found it", "It is impossible"])


@pytest.mark.parametrize("text, line, message", [
    ("3\n", 1, "expected a case header of 2 numbers (rows, columns), got 1 items"),
    ("2 x\n", 1, "the number of columns must be a whole number"),
    ("-1 2\n", 1, "the number of rows is -1, not between 0 and 1,000,000"),
])
def test_unreadable_input_stops_after_the_answers_so_far(text, line, message):
    code, out, err = run("hust", HUST_SAMPLE + text + HUST_SAMPLE)
    assert code == 2 and out == ["3 2 4 6"] and len(err) == 1
    assert err[0].startswith(f"dlx: <input>:{line + 7}: case 2: ") and message in err[0]


def test_missing_rows_at_the_end():
    code, out, err = run("matrix", POJ_SAMPLE + "3 2\n1 1\n")
    assert code == 2 and out == ["Yes, I found it", "It is impossible"]
    assert err == ["dlx: <input>:10: case 3: the case announces 3 rows, but the input ends"
                   " after 1"]


def test_long_lines_are_refused_without_reading_them_whole(monkeypatch):
    monkeypatch.setattr(judges, "MAX_LINE_LENGTH", 50)
    code, out, err = run("matrix", "1 40\n" + "0 " * 40 + "\n")
    assert code == 2 and out == [] and "longer than 50 characters" in err[0]


def test_budget_and_unknown_format():
    text = "9 9\n" + "".join(f"1 {j}\n" for j in range(1, 10))
    code, out, err = run("hust", text + "9 9\n" + "".join(f"1 {j}\n" for j in range(1, 10)),
                         max_nodes=3)
    assert code == 124 and out == [] and err == [
        "dlx: <input>:1: case 1: node budget of 3 reached; the answer is unknown",
        "dlx: <input>:11: case 2: node budget of 3 reached; the answer is unknown"]
    with pytest.raises(dlx.ExactCoverError, match="unknown batch format"):
        judges.solve_batch("dlx", io.StringIO(""), io.StringIO(), io.StringIO())


def test_read_lines_accepts_lists():
    assert list(judges.read_lines(["1 2\n", "  \n", "3"])) == [(1, ["1", "2"]), (3, ["3"])]


matrices = st.integers(0, 5).flatmap(lambda cols: st.lists(
    st.lists(st.booleans(), min_size=cols, max_size=cols), max_size=7))


def covers(rows: list[list[bool]], cols: int) -> list[tuple[int, ...]]:
    """Every set of row numbers (from 1) with exactly one 1 in each column."""
    return [c for r in range(len(rows) + 1) for c in itertools.combinations(range(len(rows)), r)
            if all(sum(rows[k][j] for k in c) == 1 for j in range(cols))
            and all(any(rows[k]) for k in c)]


@given(st.lists(matrices, min_size=1, max_size=3), st.integers(0, 5))
def test_answers_match_brute_force(cases, cols):
    hust = matrix = ""
    want_hust, want_matrix = [], []
    for rows in cases:
        n = len(rows[0]) if rows else cols
        hust += f"{len(rows)} {n}\n" + "".join(
            " ".join(map(str, [sum(r)] + [j + 1 for j in range(n) if r[j]])) + "\n" for r in rows)
        matrix += f"{len(rows)} {n}\n" + "".join(
            " ".join("1" if b else "0" for b in r) + "\n" for r in rows)
        found = covers(rows, n)
        want_matrix.append("Yes, I found it" if found else "It is impossible")
        want_hust.append(found)
    code, out, err = run("hust", hust)
    assert code == (0 if all(want_hust) else 1) and err == [] and len(out) == len(cases)
    for line, found in zip(out, want_hust, strict=True):
        if not found:
            assert line == "NO"
        else:
            k, *chosen = map(int, line.split())
            assert k == len(chosen) and chosen == sorted(chosen)
            assert tuple(r - 1 for r in chosen) in found
    assert run("matrix", matrix) == (0 if all(want_hust) else 1, want_matrix, [])


# ----------------------------------------------------------------------------- the command


def dlx_cmd(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m dlx ARGV`` as a user does; what it did."""
    return subprocess.run([sys.executable, "-m", "dlx", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_a_judge_count_under_a_budget_says_how_many_so_far(tmp_path: Path):
    matrix = tmp_path / "poj.txt"            # POJ 3740: 12 identical rows, 12 solutions
    matrix.write_text("12 1\n" + "1\n" * 12)
    done = dlx_cmd("solve", "--format", "matrix", "--count", "--max-nodes", "5", str(matrix))
    assert done.returncode == 124 and re.fullmatch(r"\d+\+\n", done.stdout)
    assert "the count is unfinished" in done.stderr
