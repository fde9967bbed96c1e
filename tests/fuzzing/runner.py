"""Making and running cases on watched worker processes, and reporting their outcomes."""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import random
import resource
import shutil
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from typing import Any

from .commands import _remove_scratch, _state
from .core import (
    ANSWER,
    CRASH,
    FAILURES,
    HANG,
    KINDS,
    RAW,
    WRONG,
    Case,
    Result,
    Verdict,
    describe_exception,
    exception_key,
)
from .family_arguments import _case_arguments
from .family_cli import _case_cli
from .family_deadlines import _case_deadlines
from .family_files import _case_files
from .family_random import _case_random
from .family_signals import _case_signals
from .family_stress import _case_stress
from .family_text import _case_text

# ------------------------------------------------------------------------ the runner

#: The families, in the order of the table.  "stress" is in the long form only.
FAMILIES: dict[str, Callable[[random.Random, Case], None]] = {
    "random": _case_random, "arguments": _case_arguments, "text": _case_text,
    "cli": _case_cli, "signals": _case_signals, "deadlines": _case_deadlines,
    "files": _case_files, "stress": _case_stress,
}
#: The quick form (tests/test_fuzz.py): cases per family.
QUICK = {"random": 200, "arguments": 160, "text": 24, "cli": 30, "signals": 8, "deadlines": 8,
         "files": 24}
#: The share of each family in a long run (bench/fuzz.py --cases N).
SHARES = {"random": 0.34, "arguments": 0.28, "text": 0.12, "cli": 0.12, "signals": 0.04,
          "deadlines": 0.03, "files": 0.04, "stress": 0.03}
HARNESS_ERROR = "harness error"


def make_case(family: str, seed: int, index: int) -> Case:
    """Case ``index`` of ``family`` under ``seed`` (the same every time)."""
    rng = random.Random(f"{family}/{seed}/{index}")
    case = Case(family, seed, index, "", "", lambda: (ANSWER, "", ""))
    FAMILIES[family](rng, case)
    return case


def run_case(family: str, seed: int, index: int) -> Result:
    """Make and run one case in this process; the outcome as a :class:`Result`."""
    started = time.monotonic()
    try:
        case = make_case(family, seed, index)
    except Exception as e:  # noqa: BLE001 - a bug of the harness itself, reported as such
        return Result(family, seed, index, HARNESS_ERROR, "making the case",
                      f"make: {exception_key(e)}", describe_exception(e))
    return _execute(case, started)


def _execute(case: Case, started: float | None = None) -> Result:
    started = time.monotonic() if started is None else started
    try:
        kind, key, detail = case.run()
    except Verdict as v:
        kind, key, detail = v.kind, v.key, v.detail
    except Exception as e:  # noqa: BLE001
        kind, key, detail = HARNESS_ERROR, f"{case.family}: {exception_key(e)}", \
            describe_exception(e) + "\n" + "".join(traceback.format_exc()[-1500:])
    finally:
        d = _state.pop("case dir", None)
        if d is not None:
            shutil.rmtree(d, ignore_errors=True)
    seconds = time.monotonic() - started
    if kind not in FAILURES and kind != HARNESS_ERROR and seconds > case.allowance:
        kind, key, detail = HANG, f"{case.family}: over its allowance", \
            f"{seconds:.1f} s, allowed {case.allowance:.0f} s"
    return Result(case.family, case.seed, case.index, kind, case.title, key, detail, case.repro,
                  seconds)


def plan(counts: dict[str, int], seed: int, start: int = 0) -> list[tuple[str, int, int]]:
    """The cases of a run: ``counts[family]`` of each, interleaved so that slow families
    are spread over the run."""
    queues = [[(f, seed, start + k) for k in range(n)] for f, n in counts.items() if n > 0]
    out = []
    for row in itertools.zip_longest(*queues):
        out.extend(x for x in row if x is not None)
    return out


def _worker(conn: Connection) -> None:
    """A worker process: run the cases it is sent, one at a time."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)          # the runner handles Ctrl-C
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
    _state["report"] = conn.send
    try:
        while True:
            task = conn.recv()
            if task is None:
                break
            family, seed, index = task
            try:
                case = make_case(family, seed, index)
            except Exception as e:  # noqa: BLE001
                conn.send(("done", Result(family, seed, index, HARNESS_ERROR, "making the case",
                                          f"make: {exception_key(e)}", describe_exception(e))))
                continue
            conn.send(("start", case.allowance, case.title, case.repro))
            conn.send(("done", _execute(case)))
    finally:
        shutil.rmtree(_state.get("scratch", "/nonexistent"), ignore_errors=True)


@dataclass
class _Worker:
    proc: Any
    conn: Connection
    task: tuple[str, int, int] | None = None
    started: float = 0.0
    allowance: float = 60.0
    title: str = ""
    repro: str = ""
    groups: set[int] = field(default_factory=set)


def run_cases(tasks: Sequence[tuple[str, int, int]], jobs: int = 2,
              on_result: Callable[[Result], None] | None = None,
              grace: float = 15.0) -> list[Result]:
    """Run ``tasks`` (family, seed, index) on ``jobs`` worker processes.

    A worker that outlives a case's allowance by ``grace`` seconds is killed (the case
    is a hang), and one that dies is a crash; either is replaced.  Results come back
    in the order of ``tasks``.
    """
    ctx = multiprocessing.get_context("spawn")
    pending = list(reversed(tasks))
    results: dict[tuple[str, int, int], Result] = {}
    slots: list[_Worker] = []

    def spawn() -> _Worker:
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(theirs,), daemon=True)
        proc.start()
        theirs.close()
        return _Worker(proc, mine)

    def finish(slot: _Worker, result: Result) -> None:
        assert slot.task is not None
        results[slot.task] = result
        slot.task = None
        slot.groups.clear()
        if on_result is not None:
            on_result(result)

    def replace(slot: _Worker, kind: str, key: str, detail: str) -> None:
        assert slot.task is not None
        family, seed, index = slot.task
        for pgid in slot.groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            slot.proc.kill()
            slot.proc.join(5)
        _remove_scratch(slot.proc.pid)
        finish(slot, Result(family, seed, index, kind, slot.title, key, detail, slot.repro,
                            time.monotonic() - slot.started))
        slots[slots.index(slot)] = spawn()

    try:
        slots.extend(spawn() for _ in range(max(1, min(jobs, len(tasks)))))
        while pending or any(s.task is not None for s in slots):
            for slot in slots:
                if slot.task is None and pending:
                    slot.task = pending.pop()
                    slot.started, slot.allowance = time.monotonic(), 60.0
                    slot.title, slot.repro = f"{slot.task[0]} #{slot.task[2]}", ""
                    slot.conn.send(slot.task)
            busy = {s.conn: s for s in slots if s.task is not None}
            for conn in wait_for(list(busy), timeout=0.25):
                slot = busy[conn]
                try:
                    msg = conn.recv()
                except (EOFError, OSError):
                    code = slot.proc.exitcode
                    how = signal.Signals(-code).name if code and code < 0 else f"exit {code}"
                    replace(slot, CRASH, f"{slot.task[0] if slot.task else '?'}: the worker"
                            f" process died ({how})", f"the process running it died: {how}")
                    continue
                if msg[0] == "start":
                    slot.allowance, slot.title, slot.repro = msg[1], msg[2], msg[3]
                    slot.started = time.monotonic()
                elif msg[0] == "child":
                    (slot.groups.discard if msg[2] else slot.groups.add)(msg[1])
                elif msg[0] == "done":
                    finish(slot, msg[1])
            now = time.monotonic()
            for slot in list(slots):
                if slot.task is not None and now - slot.started > slot.allowance + grace:
                    replace(slot, HANG, f"{slot.task[0]}: no result within"
                            f" {slot.allowance + grace:.0f} s",
                            f"killed after {now - slot.started:.0f} s")
    finally:
        for slot in slots:
            with contextlib.suppress(Exception):
                slot.conn.send(None)
        for slot in slots:
            slot.proc.join(3)
            if slot.proc.is_alive():
                slot.proc.kill()
                slot.proc.join(3)
            _remove_scratch(slot.proc.pid)
            for pgid in slot.groups:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pgid, signal.SIGKILL)
    return [results[t] for t in tasks if t in results]


# ------------------------------------------------------------------------- reporting


def table(results: Iterable[Result]) -> str:
    """Outcomes by family (rows) and kind (columns), with totals, as a Markdown table."""
    results = list(results)
    kinds = [k for k in (*KINDS, HARNESS_ERROR)
             if k in KINDS[:4] or any(r.kind == k for r in results) or k in (RAW, WRONG)]
    families = [f for f in FAMILIES if any(r.family == f for r in results)]
    counts = Counter((r.family, r.kind) for r in results)
    head = ["family", "cases", *kinds]
    rows = [[f, str(sum(counts[f, k] for k in kinds)), *(f"{counts[f, k]:,}" for k in kinds)]
            for f in families]
    rows.append(["**all**", f"{len(results):,}",
                 *(f"{sum(counts[f, k] for f in families):,}" for k in kinds)])
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(x.rjust(w) if k else x.ljust(w)
                                for k, (x, w) in enumerate(zip(row, widths, strict=True))) + " |"
              for row in rows]
    return "\n".join(lines)


def failures_report(results: Iterable[Result], examples: int = 1) -> str:
    """The failures grouped by cause (kind and key), most frequent first, with
    ``examples`` reproducers of each."""
    groups: dict[tuple[str, str], list[Result]] = {}
    for r in results:
        if r.failed or r.kind == HARNESS_ERROR:
            groups.setdefault((r.kind, r.key), []).append(r)
    out = []
    for (kind, key), rs in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        out.append(f"## [{kind}] {key}  ({len(rs)} case{'s' if len(rs) > 1 else ''})")
        out.extend(r.report() for r in sorted(rs, key=lambda r: len(r.repro))[:examples])
    return "\n".join(out)
