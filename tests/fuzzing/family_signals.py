"""The family "signals": SIGINT and SIGTERM at random moments of a command."""

from __future__ import annotations

import random
import signal
import time

from .commands import _case_dir, _check_lines, _Command, _what, cli_verdict, queens_dlx, shell_line
from .core import DATA, HANG, Case, Verdict

# --------------------------------------------------------------- the family "signals"


_LONG_COMMANDS: list[tuple[list[str], bool]] = [      # (argv, prints JSON lines)
    (["queens", "10", "--all"], False), (["queens", "9", "--all", "--format", "jsonl"], True),
    (["queens", "11", "--all", "--format", "jsonl"], True), (["solve", "q10.dlx"], False),
    (["solve", "q10.dlx", "--format", "jsonl"], True), (["solve", "q11.dlx", "--count"], False),
    (["sudoku", "solve", "many.txt"], False),
    (["sudoku", "classify", "many.txt", "--format", "jsonl"], True),
    (["sudoku", "count", "many.txt", "--cases"], False), (["langford", "12", "--count"], False),
    (["langford", "11", "--all", "--format", "jsonl"], True),
    (["queens", "13", "--count", "--jobs", "2"], False),
    (["solve", "q11.dlx", "--count", "--jobs", "2"], False),
    (["sudoku", "generate", "--number", "40", "--seed", "1"], False),
    (["pentominoes", "6x10", "--all", "--format", "jsonl"], True),
    (["dominoes", "6x6", "--all"], False), (["sudoku", "rate", "many.txt", "--steps"], False),
    (["sudoku", "score", "many.txt"], False), (["demo"], False),
    (["solve", "q10.dlx", "--stats"], False),
]


def _long_files() -> dict[str, bytes]:
    puzzles = [x for x in DATA.joinpath("sudoku", "unique.txt").read_text().splitlines()
               if x and not x.startswith("#")]
    return {"q10.dlx": queens_dlx(10).encode(), "q11.dlx": queens_dlx(11).encode(),
            "many.txt": ("\n".join(puzzles * 150) + "\n").encode()}


def _case_signals(rng: random.Random, case: Case) -> None:
    argv, jsonl = rng.choice(_LONG_COMMANDS)
    env = {"DLX_ENGINE": "python"} if rng.random() < 0.4 else {}
    signum = rng.choice([signal.SIGINT, signal.SIGINT, signal.SIGTERM])
    group = rng.random() < (0.7 if signum == signal.SIGINT else 0.3)
    delay = round(rng.uniform(0.1, 2.0), 2)
    twice = signum == signal.SIGINT and rng.random() < 0.2
    again = round(rng.uniform(0.05, 0.5), 2)
    name = signal.Signals(signum).name
    what = _what(argv)
    case.title = (f"{name}{' twice' if twice else ''} to the {'session' if group else 'process'}"
                  f" after {delay} s: dlx {' '.join(argv)}{' (python engine)' if env else ''}")
    case.repro = (f"# make q10.dlx, q11.dlx (n-queens) and many.txt (puzzles) as the harness does\n"
                  f"{shell_line(argv, env)} & sleep {delay}; kill -{name[3:]} "
                  f"{'-- -$!' if group else '$!'}")
    case.allowance = 90.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        for file, data in _long_files().items():
            (d / file).write_bytes(data)
        cmd = _Command(argv, cwd=d, env=env)
        time.sleep(delay)
        sent = cmd.send(signum, group)
        if sent and twice:
            time.sleep(again)
            cmd.send(signal.SIGINT, group)
        ran = cmd.finish(8.0 if sent else 60.0)
        if not sent:
            kind = cli_verdict(ran, what, allowed=(0, 1, 124))
            _check_lines(ran, what, jsonl)
            return kind
        if ran.code is None:
            raise Verdict(HANG, f"{what}: still running 8 s after {name}",
                          f"signal sent at {ran.signalled:.2f} s")
        expected = 130 if signum == signal.SIGINT else 143
        kind = cli_verdict(ran, what, allowed=(0, 1, expected))
        _check_lines(ran, what, jsonl)
        assert ran.signalled is not None
        if ran.code in (0, 1) and ran.seconds - ran.signalled > 2.0:
            raise Verdict(HANG, f"{what}: {name} ignored",
                          f"sent at {ran.signalled:.1f} s; it ran on to exit {ran.code} at"
                          f" {ran.seconds:.1f} s")
        return kind
    case.run = run
