"""The family "cli": hostile command lines."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dlx

from .commands import (
    Ran,
    _case_dir,
    _files_script,
    _last_count,
    _state,
    _what,
    cli_verdict,
    run_dlx,
    shell_line,
)
from .core import BAD_OUTPUT, DATA, WRONG, Case, Verdict, _grid_ok, _short

# ------------------------------------------------------------------- the family "cli"

_CLI_NUMBERS = ["0", "-1", "2147483648", "9223372036854775807", "9223372036854775808",
                "18446744073709551616", "1" + "0" * 400, "9" * 5000, "1.5", "1e3", "nan", "inf",
                "", " ", "0x10", "\u0661\u0662", "+5", "1_000", "[/red]", "ü", "-0"]
_CLI_SECONDS = ["1e-9", "1e-300", "0", "-1", "nan", "inf", "-inf", "1e400", "9" * 400, "[red]",
                "", "0x1p-3", "\u0661", "1e308", "5e-324"]
_JOBS = ["1", "2", "0", "-1", "100000", "9223372036854775808", "1" + "0" * 400, "nan", "2.5",
         ""]
_BOXES = ["3x3", "2x2", "3x4", "4x4", "5x5", "0x3", "3x", "2x2x2", "99999999999999999999x1",
          "-1x3", "x", "1x1", "\u0663x\u0663", "[red]", "3X3", " 3x3 "]
_ENVS: list[dict[str, str]] = [
    {"PYTHONIOENCODING": "ascii"},
    {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
    {"NO_COLOR": "1"}, {"COLUMNS": "5"}, {"COLUMNS": "-1"}, {"TERM": "dumb"},
    {"DLX_ENGINE": "python"}, {"DLX_ENGINE": "bogus"}, {"DLX_ENGINE": "C"},
]
#: Names a user may give files: markup, blanks, non-ASCII, non-UTF-8, a leading dash.
_NAMES: list[str | bytes] = ["[old]/p.dlx", "[/red].dlx", "[bold]ü.dlx", "ü.dlx", "日本.dlx",
                             "a b.dlx", b"\xff.dlx", "-p.dlx", "x" * 250 + ".dlx", "[red]",
                             "$(echo).dlx", "a\nb.dlx", "\\[x].dlx"]
_KNUTH = json.loads((DATA / "knuth" / "answers.json").read_text())["instances"] \
    if (DATA / "knuth" / "answers.json").exists() else {}


def _standard_files(rng: random.Random) -> dict[str, bytes | None]:
    from problems import catalog

    def data(*parts: str) -> bytes:
        return (DATA.joinpath(*parts)).read_bytes()

    files: dict[str, bytes | None] = {
        "toy.dlx": dlx.formats.KNUTH_TOY.encode(),
        "puzzles.txt": data("sudoku", "unique.txt"),
        "grids.txt": data("sudoku", "uva10957.txt"),
        "noip.txt": data("sudoku", "noip2009_1.txt"),
        "small.txt": b"1.....3..4.....2\n",
        "rect.txt": catalog.ZOJ_SAMPLE.encode(),
        "rect-huge.txt": rng.choice([b"1\n99999999999 1 1\n0 0 1 1\n",
                                     b"1\n5 5 1\n0 0 5 " + b"9" * 30 + b"\n",
                                     b"1\n5 5 " + b"9" * 20 + b"\n0 0 5 5\n",
                                     b"2\n0 0 0\n-1 -1 1\n0 0 1 1\n"]),
        "hust.txt": b"3 3\n1 1\n2 2 3\n1 2\n2 2\n1 1\n1 1\n",
        "hust-huge.txt": rng.choice([b"99999999999999999999 3\n1 1\n",
                                     b"1 99999999999\n1 1\n", b"2 2\n3 1 2 3\n1 1\n",
                                     b"1 1\n" + b"1 " * 100 + b"\n"]),
        "matrix.txt": b"2\n2 2\n1 0\n0 1\n1 2\n1 1\n",
        "regions.txt": b"AABB\nAABB\nCCDD\nCCDD\n",
        "empty.txt": b"",
        "bin.dat": bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000))),
        "nul.txt": b"\x00" * 1000,
        "dir": None,
    }
    for name in _KNUTH:
        files[name] = data("knuth", name)
    return files


def _hostile(rng: random.Random) -> bool:
    """Draw a hostile value this time?  Each case draws how hostile it is (0 to 0.5)."""
    return rng.random() < _state.get("hostility", 0.3)


def _value(rng: random.Random, valid: list[str], hostile: list[str]) -> str:
    return rng.choice(hostile) if _hostile(rng) else rng.choice(valid)


def _pick(valid: list[Any], hostile: list[Any]) -> Callable[[random.Random], Any]:
    """A pool of option values: mostly ``valid``, ``hostile`` as often as the case says."""
    return lambda rng: _value(rng, valid, hostile)


def _options(rng: random.Random, table: list[tuple[Any, ...]], chance: float = 0.25
             ) -> list[str]:
    """Some of ``table``'s options (flag, pool[, weight]), each taken with ``chance`` times
    its weight, with a value drawn from its pool (None: a flag without a value)."""
    out: list[str] = []
    for flag, pool, *weight in rng.sample(table, len(table)):
        if rng.random() < chance * (weight[0] if weight else 1.0):
            out.append(flag)
            if pool is not None:
                out.append(pool(rng) if callable(pool) else rng.choice(pool))
    return out


def _num(valid: list[str]) -> Callable[[random.Random], str]:
    return lambda rng: _value(rng, valid, _CLI_NUMBERS)


def _sec(valid: list[str]) -> Callable[[random.Random], str]:
    return lambda rng: _value(rng, valid, _CLI_SECONDS)


def _seconds_given(argv: Sequence[Any]) -> float | None:
    """The ``--timeout`` the command will keep (its last valid one), or None."""
    value = None
    for flag, arg in zip(argv, argv[1:], strict=False):
        if flag == "--timeout":
            try:
                x = float(arg)
            except (TypeError, ValueError):
                return None          # argparse refuses it: exit 2 at once
            value = x if 0 < x < 1e9 else None
    return value


@dataclass
class _Line:
    """A command line of the family "cli" and what it may do."""

    argv: list[Any]
    stdin: Any = None
    env: dict[str, str] = field(default_factory=dict)
    allowed: tuple[int, ...] = (0, 1, 2, 124)
    check: Callable[[Ran], None] | None = None


def _valid(flag: str, value: Any) -> bool:
    """Is ``value`` one the command takes for ``flag`` (a number in range)?"""
    text = str(value)
    if flag == "--timeout":
        with contextlib.suppress(ValueError):
            return 0 < float(text) < 1e9
        return False
    return text.isdigit() and text.isascii() and 1 <= int(text) <= 10**9


def _neutral(argv: Sequence[Any], *flags: str) -> bool:
    """Only options that leave the answer alone (and valid ``flags`` values) were given."""
    plain = {"-q", "--quiet", "--stats", "--count", "--all"}
    for k, word in enumerate(argv[1:], 1):
        if not isinstance(word, str) or not word.startswith("-") or word in plain:
            continue
        if word in flags and (word == "--unique" or _valid(word, argv[k + 1])):
            continue
        if word == "--format" and argv[k + 1] in ("text", "jsonl"):
            continue
        if word in ("--limit", "--jobs") and str(argv[k + 1]).isdigit() \
                and len(str(argv[k + 1])) <= 2 and 1 <= int(argv[k + 1]) <= 8:
            continue
        return False
    return True


def _cli_solve(rng: random.Random, names: dict[str, str]) -> _Line:
    judge = rng.random() < 0.15
    if judge:
        pool = _pick(["hust.txt", "matrix.txt"], ["hust-huge.txt", "toy.dlx", "/dev/zero",
                                                  "bin.dat", "-", "empty.txt"])
    else:
        pool = _pick(["toy.dlx"] * 3 + list(_KNUTH) + list(names),
                     ["dir", "missing.dlx", "/dev/zero", "/dev/null", "-", "empty.txt", "bin.dat",
                      "nul.txt", "puzzles.txt"])
    files = [pool(rng) for _ in range(rng.choice([1, 1, 1, 1, 2, 3]))]
    table = [("--count", None), ("--best", _num(["1", "2", "5"])),
             ("--limit", _num(["1", "2", "3"])), ("--max-nodes", _num(["10", "100", "100000"])),
             ("--timeout", _sec(["0.5", "5"])), ("--max-line", _num(["10", "1000"])),
             ("--stats", None), ("-q", None),
             ("--format", _pick(["text", "jsonl"], ["hust", "matrix", "bogus", ""])),
             ("--jobs", _JOBS, 0.5),
             ("--scheduler", ["[red]", "not-an-address", "tcp://", ""], 0.1)]
    opts = _options(rng, table)
    if judge:
        opts += ["--format", rng.choice(["hust", "matrix"])]
    if any("[" in f for f in files) and "--stats" not in opts and rng.random() < 0.5:
        opts.append("--stats")              # rich draws the file name in the table's title
    argv: list[Any] = ["solve", *files, *opts]
    stdin = _pick([dlx.formats.KNUTH_TOY.encode()], [b"", bytes(range(256)), Path("/dev/zero"),
                                                     b"a\n" * 10 + b"a" * 100_000])(rng)
    line = _Line(argv, stdin if "-" in files else None)
    if len(files) == 1 and not judge and _neutral(argv, "--max-nodes", "--timeout") \
            and "--max-nodes" not in argv and "--best" not in argv:
        name = files[0]
        content = names.get(name, name)
        if _KNUTH.get(content, {}).get("count") is not None:
            n = _KNUTH[content]["count"]
            if "--limit" in argv:
                n = min(n, int(argv[argv.index("--limit") + 1]))

            def check(ran: Ran) -> None:
                if ran.code == 124:             # a valid --timeout may run out
                    return
                if ran.code not in (0, 1):
                    raise Verdict(BAD_OUTPUT, f"dlx solve {content}: exit {ran.code}",
                                  _short(ran.stderr))
                got = _last_count(ran) if "--count" in argv else str(
                    len(ran.stdout.splitlines()))
                if got != str(n):
                    raise Verdict(WRONG, f"dlx solve {content}: a count differs from Knuth's",
                                  f"{got!r}, Knuth's {n}")
            line.check = check
    elif len(files) == 1 and not judge and "--best" in argv:
        name = names.get(files[0], files[0])
        k = argv[argv.index("--best") + 1]
        best = _KNUTH.get(name, {}).get("best", {}).get(k)
        if best is not None and _neutral(argv, "--best"):
            def check(ran: Ran) -> None:
                if ran.code != 0:
                    return
                try:
                    costs = [int(x.split(":")[0]) for x in ran.stdout.splitlines()]
                except ValueError:
                    raise Verdict(BAD_OUTPUT, "dlx solve --best: a line without its cost",
                                  _short(ran.stdout)) from None
                if costs != best:
                    raise Verdict(WRONG, f"dlx solve --best {k}: costs differ from Knuth's"
                                  f" ({name})", f"{costs}, Knuth's DLX5 {best}")
            line.check = check
    return line


def _cli_sudoku(rng: random.Random, names: dict[str, str]) -> _Line:
    verb = rng.choice(["solve", "solve", "count", "classify", "score", "rate", "generate"])
    if verb == "generate":
        table = [("--number", _num(["1", "2", "3"])), ("--seed", _num(["1", "7", "123"])),
                 ("--symmetry", _pick(["rot180", "rot90", "mirror", "none"], ["bogus", ""])),
                 ("--givens", _num(["20", "30", "6"])), ("--minimal", None),
                 ("--rating", _pick(["0", "1", "x-wing", "singles"],
                                    ["9", "[/red]", "99", "-1", ""])),
                 ("--format", _pick(["text", "jsonl"], ["x"])), ("--pretty", None), ("-q", None),
                 ("--box", _pick(["2x2", "3x3", "2x3"], _BOXES)), ("-x", None),
                 ("--regions", _pick(["regions.txt"], ["/dev/zero", "bin.dat", "missing.txt"]),
                  0.3)]
        opts = _options(rng, table, 0.3)
        timeout = rng.choice(["2", "5", "8"])
        argv = ["sudoku", "generate", "--timeout", timeout, *opts]
        if _hostile(rng) and _hostile(rng):
            argv += ["--timeout", rng.choice(["0", "nan", "-1", "[red]", "1e-9"])]
        return _Line(argv)
    valid = ["puzzles.txt", "puzzles.txt", "small.txt", "noip.txt", "-", *names]
    pool = _pick(valid + ["grids.txt"] if verb != "count" else valid,
                 ["toy.dlx", "bin.dat", "empty.txt", "/dev/zero", "dir", "missing.txt"])
    files = [pool(rng) for _ in range(rng.choice([1, 1, 1, 2]))]
    small = names.get(files[0], files[0]) == "small.txt"
    table: list[tuple[Any, ...]] = [
        ("--format", _pick(["text", "jsonl"], ["bogus", ""])), ("--cases", None), ("-q", None),
        ("--timeout", _sec(["0.5", "5"])),
        ("--box", _pick(["2x2"] if small else ["3x3"], _BOXES), 0.5), ("-x", None),
        ("--regions", _pick(["regions.txt"] if small else ["empty.txt"],
                            ["/dev/zero", "bin.dat", "missing.txt", "dir", "puzzles.txt"]), 0.3)]
    if verb != "rate":
        table += [("--pretty", None), ("--stats", None),
                  ("--max-nodes", _num(["10", "1000", "100000"]))]
    if verb == "solve":
        table.append(("--unique", None))
    if verb == "count":
        table.append(("--limit", _num(["1", "2", "50"])))
    if verb == "rate":
        table.append(("--steps", None))
    opts = _options(rng, table)
    if verb in ("score", "rate") and "--timeout" not in opts:
        opts = ["--timeout", "10", *opts]   # a hard puzzle may take a while: no hang then
    if verb == "count" and "--limit" not in opts:
        opts = ["--limit", "50", *opts]
    argv: list[Any] = ["sudoku", verb, *files, *opts]
    stdin = _pick([DATA.joinpath("sudoku", "unique.txt").read_bytes(), b"1.....3..4.....2\n"],
                  [b"", Path("/dev/zero"), b"." * 100_000, b"1" * 81 + b"\n",
                   bytes(range(256))])(rng)
    line = _Line(argv, stdin if "-" in files else None, allowed=(0, 1, 2, 3, 124))
    content = names.get(files[0], files[0])
    if verb == "solve" and len(files) == 1 and content == "puzzles.txt" and \
            _neutral(argv, "--unique", "--timeout") and "--format" not in argv:
        puzzles = [x for x in DATA.joinpath("sudoku", "unique.txt").read_text().split("\n")
                   if x and not x.startswith("#")]

        def check(ran: Ran) -> None:
            from problems import sudoku

            if ran.code == 124:
                return
            got = ran.stdout.splitlines()
            if ran.code != 0 or len(got) != len(puzzles):
                raise Verdict(WRONG, "dlx sudoku solve: not one solution per puzzle",
                              f"exit {ran.code}, {len(got)} lines for {len(puzzles)} puzzles")
            for puzzle, text in zip(puzzles, got, strict=True):
                grid = sudoku.Grid(text)
                why = _grid_ok(grid, complete=True)
                given = sudoku.Grid(puzzle).values
                if why or any(g and g != v for g, v in zip(given, grid.values, strict=True)):
                    raise Verdict(WRONG, "dlx sudoku solve: a wrong solution",
                                  f"{puzzle} -> {text}: {why or 'a given changed'}")
        line.check = check
    return line


_QUEENS = ["8", "6", "10", "11", "12", "13", "30", "1000", "0", "1", "2", "3", "4", "-1", "447"]


def _cli_puzzle(rng: random.Random, names: dict[str, str]) -> _Line:
    from problems import langford, queens

    command = rng.choice(["queens", "queens", "langford", "dominoes", "pentominoes",
                          "rectangles"])
    table: list[tuple[str, Any]] = [
        ("--limit", _num(["1", "2", "5"])), ("--max-nodes", _num(["10", "1000", "100000"])),
        ("--timeout", _sec(["0.5", "5"])), ("--stats", None),
        ("--format", _pick(["text", "jsonl"], ["x", ""])), ("-q", None),
        ("--jobs", _pick(["1", "2"], _JOBS), 0.5), ("--scheduler", ["[red]", "nowhere"], 0.1)]
    what = rng.choice([[], ["--count"], ["--count"], ["--all"]]) if rng.random() < 0.93 \
        else ["--count", "--all"]
    if command in ("queens", "langford"):
        arg = _value(rng, _QUEENS, _CLI_NUMBERS)
    elif command == "dominoes":
        arg = _value(rng, ["2x2", "4x4", "6x6", "8x8", "1x2", "3x3", "4X4", "2x5"],
                     ["0x0", "1x1", "99999x99999", "2x2x2", "x", "-1x2", "３x３", "9" * 30 + "x1",
                      "1000x1000", "300x300"])
    elif command == "pentominoes":
        arg = _value(rng, ["6x10", "5x12", "3x20", "12x5", "10x6", "6x10 "],
                     ["0x60", "60x1", "1x60", "2x30", "6x10x1", "[red]", "4x4"])
        if rng.random() < 0.3:
            what = [*what, "--distinct"]
    else:
        arg = _value(rng, ["rect.txt", "rect.txt", "-", *names],
                     ["rect-huge.txt", "bin.dat", "/dev/zero", "empty.txt", "missing.txt", "dir"])
    opts = _options(rng, table)
    argv: list[Any] = [command, arg, *what, *opts]
    # a big board asked for all its solutions runs for minutes: a real limit keeps it short
    size = [int(x) for x in re.findall(r"\d+", str(arg))[:2] if len(x) < 6]
    big = (command in ("queens", "langford") and size and size[0] >= 12) or \
        (command == "dominoes" and len(size) == 2 and size[0] * size[1] >= 64) or \
        command == "pentominoes"
    if big:
        argv = [command, arg, "--timeout", "4", *what, *[o for o in opts]]
        if "--timeout" in opts:
            k = opts.index("--timeout")
            if opts[k + 1] in ("1e308", "9" * 400, "1e400", "inf"):
                argv[argv.index("--timeout", 3) + 1] = "0.5"
    stdin = _pick([catalog_zoj()], [b"", Path("/dev/zero"), bytes(range(256))])(rng)
    line = _Line(argv, stdin if arg == "-" else None)
    counts = {"queens": queens.COUNTS, "langford": langford.COUNTS}.get(command)
    if counts is not None and what == ["--count"] and str(arg).isdigit() and len(arg) < 6 and \
            int(arg) < len(counts if isinstance(counts, tuple) else range(max(counts) + 1)) \
            and _neutral(argv, "--jobs") and "--max-nodes" not in argv:
        n = counts[int(arg)] if isinstance(counts, tuple) else counts.get(int(arg))
        if n is not None:
            if "--limit" in argv:
                n = min(n, int(argv[argv.index("--limit") + 1]))

            def check(ran: Ran) -> None:
                if ran.code in (0, 1) and _last_count(ran) != str(n):
                    raise Verdict(WRONG, f"dlx {command} N --count differs from the known count",
                                  f"{_last_count(ran)!r}, known {n}")
            line.check = check
    return line


def catalog_zoj() -> bytes:
    from problems import catalog

    return catalog.ZOJ_SAMPLE.encode()


def _cli_other(rng: random.Random, names: dict[str, str]) -> _Line:
    argv = rng.choice([[], ["--version"], ["bogus"], ["--help"], ["solve", "--help"], ["-x"],
                       ["--jobs", "2"], ["demo"], ["demo", "extra"], ["sudoku"],
                       ["sudoku", "bogus"], ["solve", "--count", "--best", "1"],
                       ["solve", "--best", "1", "--limit", "1", "toy.dlx"], ["queens"],
                       ["queens", "8", "8"], ["\udcff"], ["solve", "--", "-p.dlx"]])
    return _Line(list(argv))




def _case_cli(rng: random.Random, case: Case) -> None:
    _state["hostility"] = rng.choice([0.0, 0.1, 0.1, 0.2, 0.3, 0.5])
    files = _standard_files(rng)
    names: dict[str, str] = {}
    for name in rng.sample(_NAMES, 3):
        shown = os.fsdecode(name) if isinstance(name, bytes) else name
        names[shown] = rng.choice(["toy.dlx", "puzzles.txt", "rect.txt", *list(_KNUTH)[:4]])
    make = rng.choices([_cli_solve, _cli_sudoku, _cli_puzzle, _cli_other], [5, 4, 4, 1])[0]
    line = make(rng, names)
    if _hostile(rng):
        line.env.update(rng.choice(_ENVS))
        if line.env.get("DLX_ENGINE") == "bogus":
            line.check = None                   # exit 2 is then the answer
    timeout = _seconds_given(line.argv)
    what = _what(line.argv)
    case.title = _short(" ".join(shlex.quote(os.fsdecode(a) if isinstance(a, bytes) else a)
                                 for a in line.argv), 120)
    made = {n: (None if files[c] is None else files[c]) for n, c in names.items()}
    used = {n: d for n, d in {**files, **made}.items()
            if any(os.fsdecode(a) == n if isinstance(a, (str, bytes)) else False
                   for a in line.argv)}
    case.repro = (_files_script(used) + "\n" if used else "") + shell_line(
        line.argv, line.env, line.stdin)
    case.allowance = 60.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        for name, data in {**files, **made}.items():
            path = d / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if data is None:
                path.mkdir(exist_ok=True)
            else:
                path.write_bytes(data)
        ran = run_dlx(line.argv, cwd=d, stdin=line.stdin, env=line.env, timeout=20)
        kind = cli_verdict(ran, what, allowed=line.allowed, timeout=timeout,
                           paths=[str(a) for a in line.argv], stats="--stats" in line.argv)
        if line.check is not None:
            line.check(ran)
        return kind
    case.run = run
