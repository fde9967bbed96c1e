"""The dlx command: solve, demo, exit codes, errors without tracebacks."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import dlx
from dlx.cli import main
from problems import queens

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


@pytest.mark.parametrize("argv, says", [
    (["--cache"], "dlx: --cache goes with --count: it counts by caching (a listing cannot use"
                  " it)\n"),
    (["--cache", "--best", "2"], "dlx: --cache goes with --count: it counts by caching (a"
                                 " listing cannot use it)\n"),
    (["--cache", "--count", "--format", "hust"], "dlx: --cache goes with Knuth's format, not"
                                                 " --format hust\n"),
])
def test_cache_without_a_count_is_refused(capsys, toy_file, argv, says):
    code, out, err = run(capsys, "solve", toy_file, *argv)
    assert (code, out, err) == (2, "", says)
    assert run(capsys, "solve", toy_file, "--cache", "--count")[:2] == (0, "1\n")


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
    # problems.cli -> (problems, dlx.cli) -> dlx: importing every module of problems but
    # its commands (problems.cli) loads no dlx.cli module.
    code = ("import importlib, pkgutil, sys, problems\n"
            "for m in pkgutil.walk_packages(problems.__path__, 'problems.'):\n"
            "    if not m.name.startswith('problems.cli'):\n"
            "        importlib.import_module(m.name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('dlx.cli')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


# ------------------------------------------------- the commands of other packages


def _package(tmp_path, module: str, entry: str = "hello = dlx_hello:add_parsers") -> dict:
    """An installed package (a module and its dist-info, on PYTHONPATH) whose entry point
    in the group dlx.commands adds commands to dlx: the environment to run dlx in."""
    site = tmp_path / "site"
    site.mkdir(parents=True)
    (site / "dlx_hello.py").write_text(module)
    info = site / "dlx_hello-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dlx-hello\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[dlx.commands]\n{entry}\n")
    return dict(os.environ, PYTHONPATH=str(site), NO_COLOR="1")


HELLO = """\
import dlx
from dlx.cli import EXIT_FOUND, InputError, positive_int

def add_parsers(subparsers):
    p = subparsers.add_parser("hello", help="count the covers of N independent items")
    p.add_argument("n", type=positive_int)
    p.set_defaults(func=hello)

def hello(args):
    if args.n > 20:
        raise InputError(f"{args.n} items is too many", "<n>")
    p = dlx.ExactCover({(i, k): [i] for i in range(args.n) for k in range(2)})
    print(dlx.count(p))
    return EXIT_FOUND
"""


def test_a_package_adds_its_commands_through_the_entry_point_group(tmp_path):
    env = _package(tmp_path, HELLO)
    run = functools.partial(subprocess.run, capture_output=True, text=True, env=env,
                            timeout=120)
    done = run([sys.executable, "-m", "dlx", "hello", "3"])
    assert (done.returncode, done.stdout, done.stderr) == (0, "8\n", "")
    done = run([sys.executable, "-m", "dlx", "hello", "21"])
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "dlx: <n>: 21 items is too"
                                                           " many\n")
    listed = run([sys.executable, "-m", "dlx", "--help"]).stdout
    assert all(f" {name} " in listed for name in ("solve", "queens", "sudoku", "hello"))
    # the providers in the order of their names: hello before problems
    assert listed.index(" hello ") < listed.index(" demo ")
    assert run([sys.executable, "-m", "dlx", "queens", "6", "--count"]).stdout == "4\n"


def test_a_package_whose_commands_fail_to_load_costs_one_line(tmp_path):
    env = _package(tmp_path, "raise ImportError('no module named frobnicate')\n")
    done = subprocess.run([sys.executable, "-m", "dlx", "queens", "6", "--count"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert (done.returncode, done.stdout) == (0, "4\n")
    assert done.stderr == ("dlx: warning: the commands of hello (dlx_hello:add_parsers) could"
                           " not be loaded: ImportError: no module named frobnicate\n")
    # a command of its own name taken already (solve): dlx's stays, one line says so
    env = _package(tmp_path / "again", "def add_parsers(sub):\n    sub.add_parser('solve')\n")
    done = subprocess.run([sys.executable, "-m", "dlx", "--help"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0 and " queens " in done.stdout
    assert done.stderr.startswith("dlx: warning: the commands of hello"
                                  " (dlx_hello:add_parsers) were not added:"), done.stderr
    assert done.stderr.count("\n") == 1


def test_an_install_without_the_entry_points_says_so():
    # (an editable install made before the entry points existed has none)
    code = ("import sys, importlib.metadata as m\n"
            "m.entry_points = lambda **kw: []\n"
            "from dlx.cli import main\n"
            "sys.exit(main(['queens', '4']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("dlx: warning: no installed package adds commands to dlx"
                                  " (the entry-point group dlx.commands is empty): reinstall"
                                  " dancing-links-dlx for its puzzle commands\nusage: dlx ")


def test_solve_loads_no_other_package():
    # dlx solve needs no provider: neither problems nor the entry points are loaded
    code = ("import io, sys\n"
            f"sys.stdin = io.StringIO({TOY!r})\n"
            "from dlx.cli import main\n"
            "code = main(['solve', '-'])\n"
            "print(code, sorted(m for m in sys.modules if m.startswith('problems')),"
            " 'importlib.metadata' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout == "c e; a d f; b g\n0 [] False\n", done.stderr


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
def test_every_command_has_help_text_and_points_to_the_exit_codes(argv):
    text, _ = _help(*argv)
    usage, _, rest = text.partition(" positional arguments:")
    if not rest:
        usage, _, rest = text.partition(" options:")
    # a description between the usage and the arguments, with no reST markup anywhere
    assert "``" not in text and ":func:" not in text and ":data:" not in text
    assert len(usage.split("]")[-1].split()) > 8, usage
    # the exit codes and the batch rule are said once, in dlx --help; here a pointer
    assert text.endswith("Exit codes: see dlx --help.")
    assert "141 output closed early" not in text and "exits with the first" not in text
    if argv[0] not in ("sudoku",) or len(argv) > 1:
        for positional in re.findall(r"positional arguments: (.*?) options:", text):
            assert positional.count(" ") > 3      # every positional is explained


def test_the_demo_s_help_has_no_exit_codes():
    text, _ = _help("demo")
    assert "Exit codes" not in text and "141" not in text


@pytest.mark.parametrize("argv, says", [
    (["sovle", "-"], "dlx: error: argument COMMAND: invalid choice: 'sovle'; did you mean:"
                     " solve?"),
    (["quens", "8"], "dlx: error: argument COMMAND: invalid choice: 'quens'; did you mean:"
                     " queens?"),
    (["sudoku", "slove"], "dlx sudoku: error: argument {solve,count,classify,score,rate,"
                          "generate}: invalid choice: 'slove'; did you mean: solve or score?"),
    (["queens", "4", "--format", "jsnol"], "dlx queens: error: argument --format: invalid"
                                           " choice: 'jsnol'; did you mean: jsonl?"),
])
def test_a_mistyped_choice_gets_a_did_you_mean(argv, says):
    done = _dlx(*argv, input="")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: dlx") and done.stderr.endswith(says + "\n"), \
        done.stderr


def test_a_command_not_near_any_lists_them_all():
    done = _dlx("frobnicate")
    assert done.returncode == 2 and "did you mean" not in done.stderr
    assert "invalid choice: 'frobnicate' (choose from" in done.stderr
    assert all(c in done.stderr for c in ("solve", "demo", "sudoku", "queens"))


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


# ---------------------------------------- the grammar, and solve given what it cannot read


def test_an_unknown_option_shows_the_usage_of_its_command():
    done = _dlx("sudoku", "solve", "--jobs", "2", "-")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: dlx sudoku solve ")
    assert done.stderr.endswith("dlx sudoku solve: error: unrecognized arguments: --jobs\n")
    done = _dlx("queens", "8", "--bogus")
    assert done.stderr.startswith("usage: dlx queens ") and done.returncode == 2


@pytest.mark.slow
def test_the_commands_with_jobs_are_those_the_readme_names():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for command in (["solve"], ["queens"], ["langford"], ["dominoes"], ["pentominoes"],
                    ["sudoku", "generate"]):
        assert "--jobs N" in _dlx(*command, "--help").stdout, command
        assert f"`dlx {' '.join(command)}`" in readme
    for command in (["sudoku", "solve"], ["sudoku", "count"], ["rectangles"]):
        assert "--jobs N" not in _dlx(*command, "--help").stdout, command


def test_the_library_s_encodings_solve_from_knuth_s_format(tmp_path: Path):
    path = tmp_path / "queens8.dlx"
    path.write_text(dlx.write_dlx(queens.encode(8), knuth=True))
    done = _dlx("solve", str(path), "--count")
    assert (done.returncode, done.stdout) == (0, "92\n")
    done = _dlx("solve", str(path), "--limit", "1")
    assert done.returncode == 0 and len(done.stdout.split(";")) == 8    # short names
    assert dlx.count(dlx.read_dlx(path.read_text())) == 92


@pytest.mark.slow
def test_solve_given_a_sudoku_suggests_dlx_sudoku(tmp_path: Path):
    path = tmp_path / "puzzles.txt"
    line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    other = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path.write_text(line + "\n" + other + "\n")
    done = _dlx("solve", str(path))
    assert done.returncode == 2
    assert done.stderr.endswith(f"; this looks like Sudoku puzzles, not an exact-cover problem:"
                                f" try dlx sudoku solve {path}\n")
    done = _dlx("solve", input=line + "\n")
    assert done.returncode == 1 and "try dlx sudoku solve -" in done.stderr
