"""Running the ``dlx`` command as a case does: scratch folders, the fork guard, watched
subprocesses, and the verdict on what a command printed."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core import (
    ANSWER,
    BAD_OUTPUT,
    BUDGET_RAN_OUT,
    CLEAN,
    CLI_SLACK,
    CRASH,
    HANG,
    INTERRUPTED,
    MEMORY_KB,
    RAW,
    RUNAWAY,
    Case,
    Verdict,
    _short,
)

# ------------------------------------------------------------- running the command

_FORK_GUARD = """\
# Written by tests/fuzzing: a command may fork at most DLX_FUZZ_MAX_FORKS processes.
import os

_limit = int(os.environ.get("DLX_FUZZ_MAX_FORKS") or 0)
if _limit:
    _forks = [0]

    def _count():
        _forks[0] += 1
        if _forks[0] > _limit:
            os.write(2, b"fuzz guard: more than %d processes forked\\n" % _limit)
            os._exit(99)

    os.register_at_fork(before=_count)
"""
#: How many processes a command may fork (``--jobs N`` forks N): more is a runaway.
MAX_FORKS = 64
_GUARD_MARK = b"fuzz guard: more than"

_state: dict[str, Any] = {}     # this process's scratch directory and fork guard


def _scratch() -> Path:
    """This process's scratch directory (named after its pid, so that the runner can remove
    a killed worker's), removed at exit."""
    if "scratch" not in _state:
        _state["scratch"] = Path(tempfile.mkdtemp(prefix=f"dlx-fuzz-{os.getpid()}-"))
        atexit.register(shutil.rmtree, _state["scratch"], True)
    return _state["scratch"]


def _remove_scratch(pid: int) -> None:
    for path in Path(tempfile.gettempdir()).glob(f"dlx-fuzz-{pid}-*"):
        shutil.rmtree(path, ignore_errors=True)


def _guard_dir() -> Path:
    guard = _scratch() / "guard"
    if not guard.exists():
        guard.mkdir()
        (guard / "sitecustomize.py").write_text(_FORK_GUARD)
    return guard


def _case_dir(case: Case) -> Path:
    d = _scratch() / f"{case.family}-{case.index}"
    if d.exists():
        shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    _state["case dir"] = d
    return d


def _report_child(pgid: int, done: bool = False) -> None:
    """Tell the runner about a command's process group (it kills it if this worker hangs)."""
    report = _state.get("report")
    if report is not None:
        with contextlib.suppress(OSError, ValueError):
            report(("child", pgid, done))


@dataclass
class Ran:
    """How a command ended: ``code`` None when it was killed after its allowance."""

    argv: list[Any]
    code: int | None
    out: bytes
    err: bytes
    seconds: float
    leftovers: bool = False
    signalled: float | None = None      # seconds after the start a signal was sent
    early: bool = False                 # it came before the interpreter caught that signal

    @property
    def stderr(self) -> str:
        return self.err.decode("utf-8", "replace")

    @property
    def stdout(self) -> str:
        return self.out.decode("utf-8", "replace")


def _default_signals() -> None:
    """In a command's process before it starts: SIGINT and SIGTERM as a shell leaves them
    (a runner started in the background, or this harness's workers, ignore SIGINT, and
    Python keeps an ignored SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Command:
    """A ``dlx`` command started in its own session, its output read as it comes."""

    def __init__(self, argv: Sequence[Any], *, cwd: Path, stdin: Any = None,
                 env: dict[str, str] | None = None, memory_kb: int | None = MEMORY_KB,
                 guard: bool = False, python: Sequence[str] | None = None) -> None:
        full = os.environ.copy()
        for name in ("DLX_ENGINE", "COLUMNS", "LINES", "NO_COLOR", "PYTHONIOENCODING",
                     "PYTHONWARNINGS", "DLX_FUZZ_MAX_FORKS", "PYTHONSTARTUP"):
            full.pop(name, None)
        full.update(env or {})
        if guard or any(isinstance(a, str) and a == "--jobs" for a in argv):
            full["PYTHONPATH"] = os.pathsep.join(
                [str(_guard_dir())] + [p for p in [os.environ.get("PYTHONPATH")] if p])
            full["DLX_FUZZ_MAX_FORKS"] = str(MAX_FORKS)
        cmd = [*(python or [sys.executable, "-m", "dlx"]), *argv]
        if memory_kb:
            cmd = ["bash", "-c", f'ulimit -v {memory_kb}; exec "$@"', "bash", *cmd]
        self.argv = list(argv)
        self.started = time.monotonic()
        if isinstance(stdin, Path):
            stdin_file: Any = open(stdin, "rb")  # noqa: SIM115 - closed in finish()
        else:
            stdin_file = subprocess.PIPE if stdin is not None else subprocess.DEVNULL
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=full, stdin=stdin_file,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True, preexec_fn=_default_signals)
        if isinstance(stdin, Path):
            stdin_file.close()
        _report_child(self.proc.pid)
        self.chunks: dict[str, list[bytes]] = {"out": [], "err": []}
        self.readers = [threading.Thread(target=self._read, args=(stream, key), daemon=True)
                        for stream, key in ((self.proc.stdout, "out"), (self.proc.stderr, "err"))]
        for reader in self.readers:
            reader.start()
        if isinstance(stdin, (bytes, str)):
            data = stdin.encode("utf-8", "surrogateescape") if isinstance(stdin, str) else stdin
            threading.Thread(target=self._feed, args=(data,), daemon=True).start()
        self.signalled: float | None = None
        self.early = False

    def _read(self, stream: Any, key: str) -> None:
        while True:
            chunk = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
            if not chunk:
                return
            self.chunks[key].append(chunk)

    def _feed(self, data: bytes) -> None:
        with contextlib.suppress(OSError, ValueError):
            assert self.proc.stdin is not None
            self.proc.stdin.write(data)
            self.proc.stdin.close()

    def send(self, signum: int, group: bool = False) -> bool:
        """Send a signal (to the whole session when ``group``); False when already done."""
        if self.proc.poll() is not None:
            return False
        if self.signalled is None:
            self.signalled = time.monotonic() - self.started
            self.early = not _catches(self.proc.pid, signum)
        try:
            if group:
                os.killpg(self.proc.pid, signum)
            else:
                self.proc.send_signal(signum)
        except ProcessLookupError:
            return False
        return True

    def children(self) -> list[int]:
        """The process ids of the command's children (its worker processes)."""
        pid = self.proc.pid
        try:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        except OSError:
            return []
        return [int(x) for x in text.split()]

    def finish(self, timeout: float) -> Ran:
        """Wait up to ``timeout`` seconds; kill the session if it is still running."""
        try:
            code: int | None = self.proc.wait(timeout=max(timeout, 0.01))
        except subprocess.TimeoutExpired:
            code = None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        seconds = time.monotonic() - self.started
        leftovers = False
        if code is not None:
            # the command is gone: anything left in its session was left behind
            for _ in range(20):
                try:
                    os.killpg(self.proc.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
            else:
                leftovers = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        for reader in self.readers:
            reader.join(5)
        _report_child(self.proc.pid, done=True)
        return Ran(self.argv, code, b"".join(self.chunks["out"]), b"".join(self.chunks["err"]),
                   seconds, leftovers, self.signalled, self.early)


def _cap_lifted(argv: Sequence[Any]) -> bool:
    """Was the line cap raised past what the memory cap holds (``--max-line`` of more
    than a billion characters)?"""
    words = [str(w) for w in argv]
    return any(w == "--max-line" and k + 1 < len(words) and words[k + 1].isdigit()
               and len(words[k + 1]) > 9 for k, w in enumerate(words))


def _catches(pid: int, signum: int) -> bool:
    """Does process ``pid`` catch ``signum`` yet (its SigCgt in /proc)?  True when unknown."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    except OSError:
        pass
    return True


def run_dlx(argv: Sequence[Any], *, cwd: Path, stdin: Any = None,
            env: dict[str, str] | None = None, timeout: float = 30.0,
            memory_kb: int | None = MEMORY_KB) -> Ran:
    """Run ``python -m dlx ARGV`` in its own session under a memory cap; see :class:`Ran`."""
    return _Command(argv, cwd=cwd, stdin=stdin, env=env, memory_kb=memory_kb).finish(timeout)


def shell_line(argv: Sequence[Any], env: dict[str, str] | None = None, stdin: Any = None,
               memory_kb: int | None = MEMORY_KB) -> str:
    """A shell line that runs the command as the harness did."""
    words = [shlex.quote(os.fsdecode(a) if isinstance(a, bytes) else a) for a in argv]
    words = [w if len(w) <= 80 else w[:40] + "...'" for w in words]
    prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in (env or {}).items())
    line = f"{prefix}python -m dlx {' '.join(words)}"
    if isinstance(stdin, Path):
        line += f" < {stdin}"
    elif stdin is not None:
        line += " < input"
    if memory_kb:
        line = f"(ulimit -v {memory_kb}; {line})"
    return line


def _files_script(files: dict[str, bytes]) -> str:
    """Shell lines that make a case's files (long ones described, not spelled out)."""
    lines = []
    for name, data in files.items():
        if data is None:
            lines.append(f"mkdir -p {shlex.quote(name)}")
            continue
        parent = os.path.dirname(name)
        if parent:
            lines.append(f"mkdir -p {shlex.quote(parent)}")
        if len(data) <= 300 and data.isascii() and b"\x00" not in data:
            lines.append(f"printf %s {shlex.quote(data.decode())} > {shlex.quote(name)}")
        elif len(data) <= 300:
            write = f"import sys; sys.stdout.buffer.write({data!r})"
            lines.append(f"python -c {shlex.quote(write)} > {shlex.quote(name)}")
        else:
            lines.append(f"# {name}: {len(data):,} bytes, starting {data[:60]!r}"
                         " (rerun the case to see it)")
    return "\n".join(lines)


_TRACEBACK = "Traceback (most recent call last)"
_WARNING_LINE = re.compile(r"\.py:\d+: \w*Warning: ")
_EXCEPTION_LINE = re.compile(r"^(\w+\.)*\w+(Error|Exception|Interrupt)(: |$)")
_ARGPARSE = re.compile(r"^(usage: |dlx( \w+)*: error: |\s)")
_MARKUP = re.compile(r"\[/?[a-z #0-9]*\]")


def _traceback_key(err: str) -> str:
    """``Type in function`` from a traceback on stderr: its last frame of dlx/ or problems/."""
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', err)
    ours = [f for f in frames if "/dlx/" in f[0] or "/problems/" in f[0]]
    frame = (ours or frames or [("", "?")])[-1]
    last = [line for line in err.splitlines() if _EXCEPTION_LINE.match(line)]
    kind = last[-1].split(":")[0] if last else "?"
    return f"{kind} in {frame[1]}"


def cli_verdict(ran: Ran, what: str, *, allowed: Iterable[int] = (0, 1, 2, 124),
                timeout: float | None = None, paths: Iterable[str] = (),
                stats: bool = False) -> tuple[str, str, str]:
    """Classify a finished command; raise :class:`Verdict` for a failure.

    ``allowed`` are the exit codes the case allows, ``timeout`` the ``--timeout`` it was
    given (it must end by then, plus :data:`CLI_SLACK`), ``paths`` the file names on its
    command line (rich must not eat their markup), ``stats`` whether it printed tables.
    """
    err = ran.stderr
    last = err.strip().splitlines()[-1:] or [""]
    if ran.code is None:
        raise Verdict(HANG, f"{what}: still running after {ran.seconds:.0f} s",
                      f"killed after {ran.seconds:.1f} s; stderr: {_short(err, 160)}")
    if ran.code < 0:
        name = signal.Signals(-ran.code).name
        sent = name in ("SIGINT", "SIGTERM") and ran.signalled is not None
        if sent and ran.early:
            # sent while the interpreter was still starting, before it handles the
            # signal at all: the default action is the only possible answer
            return INTERRUPTED, "", ""
        raise Verdict(CRASH, f"killed by the {name} it was sent" if sent else
                      f"{what}: killed by {name}", f"{what}: stderr: {_short(err, 200)}")
    if _TRACEBACK in err:
        raise Verdict(RAW, f"{what}: {_traceback_key(err)}", _short(last[0], 240))
    if ran.code == 99 and _GUARD_MARK in ran.err:
        raise Verdict(RUNAWAY, f"{what}: more than {MAX_FORKS} processes forked",
                      f"{ran.argv!r}")
    if ran.leftovers:
        raise Verdict(RUNAWAY, f"{what}: processes left behind after it exited",
                      f"exit {ran.code}")
    allowed = set(allowed)
    if _cap_lifted(ran.argv):
        allowed.add(4)      # a line without end, read whole as asked: memory runs out
    if ran.code == 4 and 4 not in allowed:
        raise Verdict(RUNAWAY, f"{what}: memory ran out under a cap of {MEMORY_KB // 1000} MB",
                      _short(err, 200))
    if ran.code not in allowed:
        raise Verdict(BAD_OUTPUT, f"{what}: exit {ran.code}",
                      f"exit {ran.code} (allowed {sorted(allowed)}); stderr: {_short(err, 200)}")
    lines = [line for line in err.splitlines() if line.strip()]
    if any(_WARNING_LINE.search(line) or line.startswith("Exception ignored") for line in lines):
        bad = next(line for line in lines
                   if _WARNING_LINE.search(line) or line.startswith("Exception ignored"))
        raise Verdict(BAD_OUTPUT, f"{what}: a Python warning on stderr", _short(bad))
    if ran.code == 2:
        ours = [line for line in lines if line.startswith("dlx: ") or _ARGPARSE.match(line)]
        if not ours:
            raise Verdict(BAD_OUTPUT, f"{what}: exit 2 without a 'dlx: ' message",
                          _short(err, 200))
        if not stats and not any(line.startswith("usage: ") for line in lines):
            strays = [line for line in lines if not (line.startswith("dlx: ")
                                                     or _ARGPARSE.match(line))]
            if strays:
                raise Verdict(BAD_OUTPUT, f"{what}: a stray line with an error",
                              _short(strays[0]))
    for path in paths:
        if _MARKUP.search(path):
            eaten = _MARKUP.sub("", path)
            if eaten and eaten in err and path not in err:
                raise Verdict(BAD_OUTPUT, f"{what}: rich markup in a file name eaten",
                              f"{path!r} shown as {eaten!r}: {_short(err, 200)}")
    if timeout is not None and ran.seconds > timeout + CLI_SLACK:
        raise Verdict(HANG, f"{what}: the time limit not kept",
                      f"--timeout {timeout:g} but it ran {ran.seconds:.1f} s (exit {ran.code})")
    if ran.code == 124:
        return BUDGET_RAN_OUT, "", ""
    if ran.code == 2:
        return CLEAN, "", ""
    if ran.code in (130, 143):
        return INTERRUPTED, "", ""
    return ANSWER, "", ""


#: The sub-commands of ``dlx``.
_COMMANDS = ("solve", "demo", "sudoku", "queens", "langford", "dominoes", "pentominoes",
             "rectangles")


def _what(argv: Sequence[Any]) -> str:
    """The command a line runs, for grouping failures: ``dlx sudoku solve``, ``dlx queens``."""
    if not argv or argv[0] not in _COMMANDS:
        return "dlx"
    if argv[0] == "sudoku" and len(argv) > 1 and not str(argv[1]).startswith("-"):
        return f"dlx sudoku {argv[1]}"
    return f"dlx {argv[0]}"


def _last_count(ran: Ran) -> str:
    lines = ran.stdout.splitlines()
    if not lines:
        return ""
    try:
        return str(json.loads(lines[-1])["count"])
    except (ValueError, KeyError, TypeError):
        return lines[-1].strip()


def queens_dlx(n: int) -> str:
    """The n-queens problem in Knuth's format (rows and columns primary, diagonals not)."""
    head = " ".join([f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)])
    diagonals = " ".join([f"u{k}" for k in range(2 * n - 1)] + [f"d{k}" for k in range(2 * n - 1)])
    rows = [f"r{r} c{c} u{r + c} d{r - c + n - 1}" for r in range(n) for c in range(n)]
    return "\n".join([f"{head} | {diagonals}", *rows]) + "\n"


def langford_dlx(n: int) -> str:
    """Langford pairs L(2, n) in Knuth's format."""
    head = " ".join([f"n{k}" for k in range(1, n + 1)] + [f"s{j}" for j in range(2 * n)])
    rows = [f"n{k} s{j} s{j + k + 1}" for k in range(1, n + 1) for j in range(2 * n - k - 1)]
    return "\n".join([head, *rows]) + "\n"


def _check_lines(ran: Ran, what: str, jsonl: bool) -> None:
    """stdout ends in a complete line (and holds JSON lines where it should)."""
    if ran.out and not ran.out.endswith(b"\n"):
        raise Verdict(BAD_OUTPUT, f"{what}: stdout ends in a cut line",
                      f"after {'a signal' if ran.signalled else 'exit'}: ...{ran.out[-60:]!r}")
    if jsonl:
        for line in ran.out.splitlines():
            try:
                json.loads(line)
            except ValueError:
                raise Verdict(BAD_OUTPUT, f"{what}: a broken JSON line on stdout",
                              _short(line)) from None
