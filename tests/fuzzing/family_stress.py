"""The family "stress" (the long form only): worker SIGKILLs, threads, memory caps."""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import shlex
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import dlx

from .commands import (
    _case_dir,
    _check_lines,
    _Command,
    _last_count,
    _what,
    cli_verdict,
    langford_dlx,
    shell_line,
)
from .core import (
    ANSWER,
    BUDGET,
    DATA,
    HANG,
    RAW,
    RUNAWAY,
    WRONG,
    Case,
    Verdict,
    _namespace,
    _short,
    describe_exception,
    engines,
    exception_key,
)

# ----------------------------------------------------- the family "stress" (long form)


def _case_stress(rng: random.Random, case: Case) -> None:
    which = rng.choice(["kill", "kill", "threads", "threads", "memory"])
    {"kill": _stress_kill, "threads": _stress_threads, "memory": _stress_memory}[which](rng, case)


def _stress_kill(rng: random.Random, case: Case) -> None:
    argv, env, known = rng.choice([
        (["queens", "15", "--count", "--jobs", "2"], {}, 2279184),
        (["langford", "13", "--count", "--jobs", "2"], {}, 0),
        (["solve", "l13.dlx", "--count", "--jobs", "2"], {}, 0),
        (["queens", "11", "--count", "--jobs", "2"], {"DLX_ENGINE": "python"}, 2680),
        (["queens", "12", "--all", "--format", "jsonl", "--jobs", "2"], {}, 14200),
    ])
    delay = round(rng.uniform(0.3, 1.5), 2)
    kills = rng.choice([1, 1, 2])
    what = _what(argv)
    case.title = f"SIGKILL {kills} worker(s) after {delay} s: dlx {' '.join(argv)}" + \
        (" (python engine)" if env else "")
    case.repro = (f"{shell_line(argv, env)} & sleep {delay};"
                  " kill -9 $(cat /proc/$!/task/$!/children | cut -d' ' -f1)")
    case.allowance = 150.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        (d / "l13.dlx").write_bytes(langford_dlx(13).encode())
        cmd = _Command(argv, cwd=d, env=env)
        time.sleep(delay)
        killed = 0
        for _ in range(40):
            children = cmd.children()
            if children or cmd.proc.poll() is not None:
                break
            time.sleep(0.05)
        for pid in rng.sample(children, min(kills, len(children))):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        ran = cmd.finish(120.0)
        kind = cli_verdict(ran, what + " (a worker killed)", allowed=(0, 1, 2))
        if ran.code in (0, 1):
            got = len(ran.out.splitlines()) if "--all" in argv else _last_count(ran)
            if str(got) != str(known):
                raise Verdict(WRONG, f"{what} --jobs 2: a wrong count after a worker was killed",
                              f"{got!r}, known {known} ({killed} killed)")
            _check_lines(ran, what, "jsonl" in argv)
        return kind
    case.run = run


_THREAD_PROBLEMS = {
    "q6": ("from problems import queens\np = queens.encode(6)", 4),
    "q8": ("from problems import queens\np = queens.encode(8)", 92),
    "toy": ("p = dlx.read_dlx(dlx.formats.KNUTH_TOY)", 1),
    "bounds": (f"p = dlx.read_dlx({(DATA / 'knuth' / 'rand-bounds-1.dlx').read_text()!r})"
               if (DATA / "knuth").exists() else "p = None", 43),
    "colours": (f"p = dlx.read_dlx({(DATA / 'knuth' / 'rand-colour-6.dlx').read_text()!r})"
                if (DATA / "knuth").exists() else "p = None", 9),
}


def _stress_threads(rng: random.Random, case: Case) -> None:
    n_threads = rng.choice([2, 3, 4, 6])
    rounds = rng.choice([5, 10, 20])
    names = rng.sample(list(_THREAD_PROBLEMS), 3)
    case.title = f"{n_threads} threads x {rounds} searches on shared problems {names}"
    case.repro = "# threads share ExactCover and Prepared objects; rerun the case"
    case.allowance = 120.0

    def run() -> tuple[str, str, str]:
        shared: dict[str, Any] = {}
        for name in names:
            ns = _namespace("c")
            exec(_THREAD_PROBLEMS[name][0], ns)
            p = ns["p"]
            shared[name] = (p, {e: dlx.Prepared(p, engine=e) for e in engines()},
                            _THREAD_PROBLEMS[name][1])
        # the best by costs, once, single-threaded: what every thread must find too
        bests = {name: dlx.best(p) for name, (p, _, _) in shared.items()}
        faults: list[Verdict] = []
        barrier = threading.Barrier(n_threads)

        def worker(seed: int) -> None:
            r = random.Random(seed)
            barrier.wait()
            for _ in range(rounds):
                name = r.choice(names)
                p, prepared, n = shared[name]
                engine = r.choice(engines())
                op = r.choice(["count", "solutions", "first", "best", "batch", "unique",
                               "split", "interleaved"])
                try:
                    if op == "count":
                        ok = dlx.count(p, engine=engine, max_nodes=BUDGET) == n
                    elif op == "solutions":
                        sols = list(dlx.solutions(p, engine=engine, max_nodes=BUDGET))
                        ok = len(sols) == n and all(dlx.is_exact_cover(p, s) for s in sols)
                    elif op == "first":
                        ok = dlx.is_exact_cover(p, dlx.first(p, engine=engine, seed=r.randrange(9)))
                    elif op == "best":
                        ok = dlx.best(p, engine=engine) == bests[name]
                    elif op == "batch":
                        answer = prepared[engine].batch([[]], limit=None)[0]
                        ok = answer.found == n
                    elif op == "unique":
                        ok = dlx.is_unique(p, engine=engine) == (n == 1)
                    elif op == "split":
                        ok = sum(prepared[engine].count(piece) for piece in
                                 dlx.split(p, pieces=8, engine=engine)) == n
                    else:
                        a = dlx.solutions(p, engine=engine)
                        b = dlx.solutions(p, engine=engine)
                        got = [x for pair in itertools.zip_longest(a, b) for x in pair
                               if x is not None]
                        ok = len(got) == 2 * n
                    if not ok:
                        faults.append(Verdict(WRONG, f"threads: {op} gives a wrong answer",
                                              f"{name}, engine {engine}"))
                except Exception as e:  # noqa: BLE001 - any exception in a thread is a fault
                    faults.append(Verdict(RAW, f"threads: {op}: {exception_key(e)}",
                                          f"{name}, engine {engine}: {describe_exception(e)}"))

        pool = [threading.Thread(target=worker, args=(rng.randrange(10**9),))
                for _ in range(n_threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join(100)
        if any(t.is_alive() for t in pool):
            raise Verdict(HANG, "threads: a search never ended", case.title)
        if faults:
            raise faults[0]
        return ANSWER, "", ""
    case.run = run


def _fibonacci(n: int) -> int:
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def _stress_memory(rng: random.Random, case: Case) -> None:
    test = rng.choice(["cache", "cache", "big file", "regions", "zero"])
    if test == "cache":
        depth = rng.choice([8000, 9000, 10000])
        cap = 200_000
        code = (f"import dlx\nd = {depth}\nopts = {{('one', i): [i] for i in range(d)}}\n"
                "opts.update({('two', i): [i, i + 1] for i in range(d - 1)})\n"
                "print(dlx.count(dlx.ExactCover(opts), cache=True))\n")
        case.title = f"count(cache=True) of a chain {depth} deep in {cap // 1000} MB"
        case.repro = f"(ulimit -v {cap}; python -c {shlex.quote(code)})"
        case.allowance = 120.0

        def run() -> tuple[str, str, str]:
            cmd = _Command([], cwd=_case_dir(case), memory_kb=cap,
                           python=[sys.executable, "-c", code])
            ran = cmd.finish(100.0)
            if ran.code is not None and "MemoryError" in ran.stderr:
                raise Verdict(RUNAWAY, "count(cache=True): memory grows with the depth squared",
                              f"depth {depth}: MemoryError under {cap // 1000} MB")
            kind = cli_verdict(ran, "count(cache=True)", allowed=(0,))
            if ran.stdout.strip() != str(_fibonacci(depth)):
                raise Verdict(WRONG, "count(cache=True) of a chain: a wrong count",
                              _short(ran.stdout, 80))
            return kind
        case.run = run
        return
    if test == "big file":
        n = rng.choice([100_000, 300_000])
        cap = rng.choice([150_000, 300_000])
        argv = ["solve", "big.dlx", "--count", "--timeout", "20"]
        case.title = f"dlx solve of {n:,} options in {cap // 1000} MB"
        allowed: tuple[int, ...] = (0, 1, 4, 124)
    elif test == "regions":
        cap = 500_000
        argv = ["sudoku", "solve", "small.txt", "--regions", "/dev/zero"]
        case.title = f"dlx sudoku solve --regions /dev/zero in {cap // 1000} MB"
        allowed = (2,)
    else:
        cap = 500_000
        argv = rng.choice([["sudoku", "solve", "/dev/zero"], ["rectangles", "/dev/zero"],
                           ["solve", "--format", "hust", "/dev/zero"], ["solve", "/dev/zero"],
                           ["sudoku", "count", "-"], ["solve", "-"]])
        case.title = f"dlx {' '.join(argv)} (zeros) in {cap // 1000} MB"
        allowed = (2,)
    case.repro = shell_line(argv, memory_kb=cap) + (" < /dev/zero" if "-" in argv else "")
    case.allowance = 90.0

    def run_command() -> tuple[str, str, str]:
        d = _case_dir(case)
        (d / "small.txt").write_text("1.....3..4.....2\n")
        if test == "big file":
            with open(d / "big.dlx", "w") as f:
                f.write(" ".join(f"i{k}" for k in range(n // 10)) + "\n")
                r = random.Random(n)
                for _ in range(n):
                    f.write(" ".join(f"i{k}" for k in r.sample(range(n // 10), 3)) + "\n")
        stdin = Path("/dev/zero") if "-" in argv else None
        ran = _Command(argv, cwd=d, memory_kb=cap, stdin=stdin).finish(60.0)
        if ran.code == 4 and 4 not in allowed:
            raise Verdict(RUNAWAY, f"{_what(argv)}: an unbounded read of /dev/zero",
                          f"memory ran out under {cap // 1000} MB: {_short(ran.stderr, 120)}")
        if ran.code is None:
            raise Verdict(HANG, f"{_what(argv)}: reading zeros never ends", case.title)
        return cli_verdict(ran, _what(argv), allowed=allowed)
    case.run = run_command
