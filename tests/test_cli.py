"""The dlx command: solve, demo, exit codes, errors without tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
    assert code == 0 and record == {"solution": 1, "lines": [2, 5, 6],
                                    "options": [["c", "e"], ["a", "d", "f"], ["b", "g"]]}


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
    assert code == 124 and out.endswith("+\n") and "budget" in err


def test_stats_on_stderr(capsys, toy_file):
    code, out, err = run(capsys, "solve", toy_file, "--stats")
    assert code == 0 and "nodes" in err and "nodes" not in out


@pytest.mark.parametrize("text, where", [
    ("", "no item line"),
    ("a b\na a\n", "line 2, column 3"),
    ("a b\na c\n", "line 2, column 3"),
    ("a a\n", "line 1, column 3"),
])
def test_bad_input_one_line_exit_2(capsys, tmp_path, text, where):
    path = tmp_path / "bad.dlx"
    path.write_text(text)
    code, out, err = run(capsys, "solve", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and where in err and "Traceback" not in err


def test_missing_file_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "solve", str(tmp_path / "missing.dlx"))
    assert code == 2 and "missing.dlx" in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["solve"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["solve", "x", "--limit", "0"])
    assert info.value.code == 2
    assert main([]) == 2


def test_warning_for_option_without_primary(capsys, tmp_path):
    path = tmp_path / "w.dlx"
    path.write_text("a | x\nx\na\n")
    code, out, err = run(capsys, "solve", str(path))
    assert code == 0 and out == "a\n" and "line 2" in err


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


def test_help_is_fast_and_lists_the_exit_codes():
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "dlx", "--help"],
                          capture_output=True, text=True, timeout=60)
    text = " ".join(done.stdout.split())
    assert done.returncode == 0
    assert "124 node budget exhausted, 130 interrupted, 141 output closed early" in text
    for command in ("solve", "demo", "sudoku", "queens", "rectangles", "pentominoes",
                    "langford", "dominoes"):
        assert f" {command} " in text
    assert " rich" not in done.stderr.replace("|", " ")


def test_the_command_runs_without_rich():
    # rich is an extra: without it, no progress display and plain-text statistics.
    code = ("import sys; sys.modules['rich'] = None\n"
            "from dlx.cli import main\n"
            "sys.exit(main(['queens', '6', '--count', '--stats']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout == "4\n"
    assert "nodes" in done.stderr and "Traceback" not in done.stderr
