"""The dlx command: solve, demo, exit codes, errors without tracebacks."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from dlx.cli import main

TOY = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"


@pytest.fixture
def toy_file(tmp_path):
    path = tmp_path / "toy.dlx"
    path.write_text(TOY)
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_options_as_item_lists(capsys, toy_file):
    code, out, err = run(capsys, "solve", toy_file)
    assert code == 0 and out == "c e; a d f; b g\n" and err == ""


def test_solve_count_and_limit(capsys, tmp_path):
    path = tmp_path / "three.dlx"
    path.write_text("a\na\na\na\n")
    assert run(capsys, "solve", str(path), "--count")[:2] == (0, "3\n")
    code, out, _ = run(capsys, "solve", str(path), "--limit", "2")
    assert code == 0 and out.splitlines() == ["a", "a"]


def test_solve_no_solution_exit_1(capsys, tmp_path):
    path = tmp_path / "none.dlx"
    path.write_text("a b\na\n")
    code, out, err = run(capsys, "solve", str(path))
    assert code == 1 and out == "" and "no solution" in err
    assert run(capsys, "solve", str(path), "--count")[:2] == (1, "0\n")


def test_solve_jsonl(capsys, toy_file):
    code, out, _ = run(capsys, "solve", toy_file, "--format", "jsonl")
    record = json.loads(out)
    assert code == 0 and record == {"file": toy_file, "solution": 1, "lines": [2, 5, 6],
                                    "options": [["c", "e"], ["a", "d", "f"], ["b", "g"]]}
    code, out, _ = run(capsys, "solve", toy_file, "--count", "--format", "jsonl")
    assert code == 0 and json.loads(out) == {"file": toy_file, "count": 1, "finished": True}


def test_solve_colours_and_secondary(capsys, tmp_path):
    path = tmp_path / "c.dlx"
    path.write_text("a b | x\na x:red\nb x:red\nb x:blue\n")
    code, out, _ = run(capsys, "solve", str(path))
    assert code == 0 and out == "a x:red; b x:red\n"


def test_budget_exit_124(capsys, tmp_path):
    lines = ["r0 r1 r2 r3 r4 r5 r6 r7 c0 c1 c2 c3 c4 c5 c6 c7 | " +
             " ".join(f"u{k} d{k}" for k in range(15))]
    for r in range(8):
        for c in range(8):
            lines.append(f"r{r} c{c} u{r + c} d{r - c + 7}")
    path = tmp_path / "q8.dlx"
    path.write_text("\n".join(lines) + "\n")
    assert run(capsys, "solve", str(path), "--count")[:2] == (0, "92\n")
    code, out, err = run(capsys, "solve", str(path), "--count", "--max-nodes", "100")
    assert code == 124 and out.endswith("+\n")
    assert err == f"dlx: {path}: node budget of 100 reached: 2 solutions so far, search" \
                  " unfinished\n"


def test_stats_on_stderr(capsys, toy_file):
    code, out, err = run(capsys, "solve", toy_file, "--stats")
    assert code == 0 and "nodes" in err and "nodes" not in out


@pytest.mark.parametrize("text, where", [
    ("", ":1: no item line"),
    ("a b\na a\n", ":2:3: "),
    ("a b\na c\n", ":2:3: "),
    ("a a\n", ":1:3: "),
])
def test_bad_input_one_line_exit_2(capsys, tmp_path, text, where):
    path = tmp_path / "bad.dlx"
    path.write_text(text)
    code, out, err = run(capsys, "solve", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"dlx: {path}{where}")
    assert "Traceback" not in err


def test_missing_file_exit_2(capsys, tmp_path):
    missing = tmp_path / "missing.dlx"
    code, _, err = run(capsys, "solve", str(missing))
    assert code == 2 and err == f"dlx: {missing}: cannot read it: No such file or directory\n"


def test_usage_errors_exit_2(capsys):
    for argv in (["solve", "x", "--limit", "0"], ["solve", "--max-nodes", "0"],
                 ["solve", "--max-nodes", "-3"], ["solve", "--timeout", "0"],
                 ["solve", "--timeout", "-1"], ["solve", "--timeout", "nan"],
                 ["solve", "--max-line", "0"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2, argv
    assert main([]) == 2


def test_warning_for_option_without_primary(capsys, tmp_path):
    path = tmp_path / "w.dlx"
    path.write_text("a | x\nx\na\n")
    code, out, err = run(capsys, "solve", str(path))
    assert code == 0 and out == "a\n"
    assert err == f"dlx: {path}:2: option ignored (no primary items)\n"


def test_demo_runs(capsys):
    code, out, _ = run(capsys, "demo")
    assert code == 0 and "c e; a d f; b g" in out and "try" in out


def _dlx(*argv, **kw):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "dlx", *argv], capture_output=True, text=True,
                          env=env, timeout=120, **kw)


def test_python_m_dlx_and_stdin():
    done = _dlx("solve", "-", input=TOY)
    assert done.returncode == 0 and done.stdout == "c e; a d f; b g\n"
    assert _dlx("--version").stdout.startswith("dlx ")


def test_broken_pipe_is_quiet(tmp_path):
    # 16 independent items with 2 options each: 65,536 solutions, but we read one line.
    path = tmp_path / "big.dlx"
    path.write_text(" ".join(f"i{k}" for k in range(16)) + "\n"
                    + "".join(f"i{k}\ni{k}\n" for k in range(16)))
    proc = subprocess.Popen([sys.executable, "-m", "dlx", "solve", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first.startswith(b"i0") and "Traceback" not in err and proc.returncode == 141


def test_import_dlx_loads_nothing_heavy():
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import dlx"],
                          capture_output=True, text=True, timeout=60)
    loaded = done.stderr
    for heavy in ("rich", "numpy", "matplotlib", "argparse"):
        assert f" {heavy}" not in loaded.replace("|", " "), heavy
    # and the same asked the plain way: rich is a dependency of the command only
    done = subprocess.run([sys.executable, "-c", "import dlx, sys; assert 'rich' not in"
                           " sys.modules; import dlx.cli; assert 'rich' not in sys.modules"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_problems_never_import_the_command_line():
    # cli -> problems -> dlx: importing every module of problems loads no dlx.cli module.
    code = ("import importlib, pkgutil, sys, problems\n"
            "for m in pkgutil.walk_packages(problems.__path__, 'problems.'):\n"
            "    importlib.import_module(m.name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('dlx.cli')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


def _help(*argv):
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "dlx", *argv, "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split()), done.stderr


def test_help_is_fast_and_lists_the_exit_codes():
    text, imports = _help()
    assert ("0 found, 1 no solution, 2 bad input or usage, 3 not unique (where demanded),"
            " 4 out of memory, 124 node budget or time limit reached (the answer is unknown),"
            " 130 interrupted, 141 output closed early") in text
    assert ("exits with the first that applies: 2 if any input was bad, 124 if any answer is"
            " unknown (budget or time), 3 if any case was not unique where uniqueness was"
            " demanded, 1 if any case had no solution, else 0") in text
    for command in ("solve", "demo", "sudoku", "queens", "rectangles", "pentominoes",
                    "langford", "dominoes"):
        assert f" {command} " in text
    assert " rich" not in imports.replace("|", " ")


@pytest.mark.parametrize("argv", [
    ["solve"], ["sudoku"], ["sudoku", "solve"], ["sudoku", "count"], ["sudoku", "classify"],
    ["sudoku", "score"], ["sudoku", "rate"], ["sudoku", "generate"], ["queens"],
    ["langford"], ["dominoes"], ["pentominoes"], ["rectangles"],
])
def test_every_command_has_help_text_and_the_exit_codes(argv):
    text, _ = _help(*argv)
    usage, _, rest = text.partition(" positional arguments:")
    if not rest:
        usage, _, rest = text.partition(" options:")
    # a description between the usage and the arguments, with no reST markup anywhere
    assert "``" not in text and ":func:" not in text and ":data:" not in text
    assert len(usage.split("]")[-1].split()) > 8, usage
    assert "141 output closed early" in text and "exits with the first that applies" in text
    if argv[0] not in ("sudoku",) or len(argv) > 1:
        for positional in re.findall(r"positional arguments: (.*?) options:", text):
            assert positional.count(" ") > 3      # every positional is explained


def test_langford_n_is_explained():
    text, _ = _help("langford")
    assert "N the largest number: the row holds two of each of 1..N" in text


# ------------------------------------------------------------------------ one interface


@pytest.mark.slow
def test_file_defaults_to_stdin_everywhere():
    assert _dlx("solve", input=TOY).stdout == "c e; a d f; b g\n"
    assert _dlx("solve", "--count", "-", input=TOY).stdout == "1\n"
    assert _dlx("sudoku", "count", input="1.....3..4.....2\n").stdout == "1\n"
    zoj = "1\n2 2 2\n0 0 2 1\n0 1 2 2\n"
    assert _dlx("rectangles", input=zoj).stdout == "2\n"


def test_several_files_are_a_batch(capsys, tmp_path, toy_file):
    none = tmp_path / "none.dlx"
    none.write_text("a b\na\n")
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na x\n")
    code, out, err = run(capsys, "solve", toy_file, str(none), "--count")
    assert (code, out) == (1, f"{toy_file}: 1\n{none}: 0\n")
    code, out, err = run(capsys, "solve", toy_file, str(bad), str(none))
    assert code == 2 and out == f"{toy_file}: c e; a d f; b g\n"
    assert err.splitlines() == [f"dlx: {bad}:2:3: unknown item 'x' (not in the item line)",
                                f"dlx: {none}: no solution"] or \
        (err.startswith(f"dlx: {bad}:2:3: ") and err.endswith(f"dlx: {none}: no solution\n"))
    code, out, _ = run(capsys, "solve", toy_file, toy_file, "--format", "jsonl")
    assert code == 0 and [json.loads(x)["file"] for x in out.splitlines()] == [toy_file] * 2


HUST = "6 7\n3 1 4 7\n2 1 4\n3 4 5 7\n3 3 5 6\n4 2 3 6 7\n2 2 7\n"


def test_judge_batches_with_count_stats_and_a_leading_count(capsys, tmp_path):
    path = tmp_path / "hust.txt"
    path.write_text("2\n" + HUST + "2 2\n1 1\n1 1\n")
    code, out, err = run(capsys, "solve", "--format", "hust", str(path))
    assert (code, out, err) == (1, "3 2 4 6\nNO\n", "")
    code, out, err = run(capsys, "solve", "--format", "hust", "--count", "--stats", str(path))
    assert (code, out) == (1, "1\n0\n") and "cases" in err and "nodes" in err
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("3\n" + HUST)
    code, out, err = run(capsys, "solve", "--format", "hust", str(wrong), str(path))
    assert code == 2 and out == "3 2 4 6\n3 2 4 6\nNO\n"
    assert err == f"dlx: {wrong}:1: the first line announces 3 cases, but the input has 1\n"
    code, out, err = run(capsys, "solve", "--format", "hust", "--limit", "1", str(path))
    assert (code, out) == (2, "") and "--limit goes with --count" in err
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    code, out, err = run(capsys, "solve", "--format", "matrix", str(empty))
    assert (code, out, err) == (2, "", f"dlx: {empty}:1: no cases: the input is empty\n")


@pytest.mark.slow
def test_timeout_gives_124(capsys, tmp_path):
    # 18-queens in Knuth's format: far more than a second of search
    n = 18
    lines = [" ".join([f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)] + ["|"]
                      + [f"u{k}" for k in range(2 * n - 1)] + [f"d{k}" for k in range(2 * n - 1)])]
    lines += [f"r{r} c{c} u{r + c} d{r - c + n - 1}" for r in range(n) for c in range(n)]
    path = tmp_path / "q18.dlx"
    path.write_text("\n".join(lines) + "\n")
    started = time.monotonic()
    code, out, err = run(capsys, "solve", str(path), "--count", "--timeout", "0.3")
    assert time.monotonic() - started < 10
    assert code == 124 and out.endswith("+\n")
    assert re.fullmatch(rf"dlx: {re.escape(str(path))}: time limit of 0.3 s reached: [\d,]+"
                        " solutions so far, search unfinished\n", err)
    code, out, err = run(capsys, "queens", "20", "--count", "--timeout", "0.2")
    # every command that counts keeps what it found, as dlx solve does (issue 24)
    assert code == 124 and re.fullmatch(r"\d+\+\n", out)
    assert re.fullmatch(r"dlx: time limit of 0.2 s reached: [\d,]+ solutions so far, search"
                        r" unfinished\n", err)


@pytest.mark.slow
def test_a_big_problem_is_not_bad_input(tmp_path):
    # 200,000 items on one line (2.1 MB), one option covering them all: 1 solution.
    n = 200_000
    items = " ".join(f"item{k}" for k in range(n))
    path = tmp_path / "wide.dlx"
    path.write_text(items + "\n" + items + "\n")
    done = _dlx("solve", str(path), "--count")
    assert (done.returncode, done.stdout, done.stderr) == (0, "1\n", "")
    # from a pipe the default cap holds, and the message says how to lift it
    done = _dlx("solve", "--count", input=path.read_text())
    assert done.returncode == 2
    assert done.stderr == ("dlx: <stdin>:1: line is longer than 1,000,000 characters;"
                           " --max-line N reads longer lines\n")
    done = _dlx("solve", "--count", "--max-line", "3000000", input=path.read_text())
    assert (done.returncode, done.stdout) == (0, "1\n")


@pytest.mark.slow
def test_out_of_memory_says_so_with_the_size(tmp_path):
    # 2,000,000 options under a 350 MB address-space limit: memory runs out while reading.
    path = tmp_path / "big.dlx"
    with open(path, "w") as f:
        f.write(" ".join(f"i{k}" for k in range(1000)) + "\n")
        block = "".join(f"i{k} i{(k + 1) % 1000} i{(k + 7) % 1000}\n" for k in range(1000))
        for _ in range(2000):
            f.write(block)
    done = subprocess.run(["bash", "-c", 'ulimit -v 350000; exec "$0" -m dlx solve "$1"',
                           sys.executable, str(path)], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, NO_COLOR="1"))
    assert done.returncode == 4, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert re.fullmatch(rf"dlx: {re.escape(str(path))}: memory ran out reading the problem, at"
                        r" line [\d,]+ of [\d.]+ MB; it needs more memory than this process may"
                        r" use\n", done.stderr), done.stderr


def test_the_command_runs_without_rich():
    # rich is a dependency, but a command that only counts never needs it
    code = ("import sys; sys.modules['rich'] = None\n"
            "from dlx.cli import main\n"
            "sys.exit(main(['queens', '6', '--count', '--stats']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout == "4\n"
    assert "nodes" in done.stderr and "Traceback" not in done.stderr


def test_solve_best_prints_the_k_cheapest_with_their_costs(capsys, tmp_path):
    """Knuth's DLX5 costs (``|n``): the K cheapest, cheapest first, as enumerating and
    sorting every solution gives them."""
    path = tmp_path / "costs.dlx"
    path.write_text("a b c\na |3\nb |1\nc |2\na b |5\nb c |2\na b c |9\n")
    code, out, _ = run(capsys, "solve", str(path), "--best", "2")
    assert code == 0 and out.splitlines() == ["5: a; b c", "6: a; b; c"]
    code, out, _ = run(capsys, "solve", str(path), "--best", "9", "--format", "jsonl")
    costs = [json.loads(line)["cost"] for line in out.splitlines()]
    assert costs == [5, 6, 7, 9]                          # every solution, in order
    code, _, err = run(capsys, "solve", str(path), "--best", "2", "--limit", "1")
    assert code == 2 and "--best" in err
    none = tmp_path / "none.dlx"
    none.write_text("a b\na |1\n")
    assert run(capsys, "solve", str(none), "--best", "3")[:2] == (1, "")
