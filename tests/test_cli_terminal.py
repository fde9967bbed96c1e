"""The `dlx` command on a real terminal: what the screen shows, file names, notes.

Commands run under a pseudo-terminal (pty.openpty()) with stdout and stderr on
it, as in a shell; their bytes are replayed on a tiny screen model (``\\r``,
``\\n``, cursor moves and erase sequences), and the screen left at the end must
hold the answers alone: a live progress line must be gone, never glued to an
answer.  Every run checks that the progress display did appear.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest
from sudoku_helpers import PE1, PE1_SOLUTION

WIDTH = 120


class Screen:
    """The characters a terminal shows after some output (no colours, no scrolling)."""

    CSI = re.compile(r"\x1b\[([?0-9;]*)([@-~])")
    OTHER = re.compile(r"\x1b(\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")

    def __init__(self) -> None:
        self.lines: list[list[str]] = [[]]
        self.row = self.col = 0

    def feed(self, text: str) -> Screen:
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\x1b":
                m = self.CSI.match(text, i)
                if m:
                    self._csi(m[1], m[2])
                    i = m.end()
                    continue
                m = self.OTHER.match(text, i)
                i = m.end() if m else i + 1
                continue
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self._move(self.row + 1)
            elif ch == "\b":
                self.col = max(0, self.col - 1)
            elif ch >= " ":
                line = self._line()
                line.extend(" " * (self.col + 1 - len(line)))
                line[self.col] = ch
                self.col += 1
            i += 1
        return self

    def _line(self) -> list[str]:
        return self.lines[self.row]

    def _move(self, row: int) -> None:
        self.row = max(0, row)
        while len(self.lines) <= self.row:
            self.lines.append([])

    def _csi(self, params: str, final: str) -> None:
        numbers = [int(p) for p in params.lstrip("?").split(";") if p.isdigit()]
        n = numbers[0] if numbers else None
        if params.startswith("?") or final == "m":
            return                                  # modes and colours
        if final == "A":
            self._move(self.row - (n or 1))
        elif final == "B":
            self._move(self.row + (n or 1))
        elif final == "C":
            self.col += n or 1
        elif final == "D":
            self.col = max(0, self.col - (n or 1))
        elif final == "G":
            self.col = (n or 1) - 1
        elif final == "H":
            self._move((numbers[0] if numbers else 1) - 1)
            self.col = (numbers[1] if len(numbers) > 1 else 1) - 1
        elif final == "K":
            line = self._line()
            if not n:
                del line[self.col:]
            elif n == 1:
                line[:self.col + 1] = [" "] * min(len(line), self.col + 1)
            else:
                line.clear()
        elif final == "J":
            if n == 2:
                self.lines = [[] for _ in self.lines]
            elif not n:
                del self._line()[self.col:]
                del self.lines[self.row + 1:]
        else:
            raise AssertionError(f"unexpected control sequence ESC[{params}{final}")

    def text(self) -> list[str]:
        rows = ["".join(line).rstrip() for line in self.lines]
        while rows and not rows[-1]:
            rows.pop()
        return rows


def test_the_screen_model():
    screen = Screen().feed("abc\r\x1b[2Kxy\r\n\x1b[1mz\x1b[0m\r\n\x1b[1A\x1b[2Kw\r\nq\x1b[1D\x1b[K")
    assert screen.text() == ["xy", "w"]
    assert Screen().feed("\u280b queens: 1 nodes\r\x1b[2K73712\r\n").text() == ["73712"]
    # what issue 14 saw: the answer printed onto a stale progress line
    assert Screen().feed("\u280b queens: 712,704 nodes, depth 13" + "73712\r\n").text() == [
        "\u280b queens: 712,704 nodes, depth 1373712"]


def in_terminal(argv: list[str], stdin: str | None = None, env: dict[str, str] | None = None,
                python: tuple[str, ...] = (), cwd: str | None = None) -> tuple[int, str]:
    """Run ``python -m dlx ARGV`` with stdout and stderr on a new pseudo-terminal (and
    stdin too, unless ``stdin`` text is given); return the exit code and all it wrote."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, WIDTH, 0, 0))
    environ = {k: v for k, v in os.environ.items()
               if k not in ("NO_PROGRESS", "NO_COLOR", "COLUMNS", "LINES", "TERM")}
    environ.update(TERM="xterm-256color", **(env or {}))
    proc = subprocess.Popen([sys.executable, *python, "-m", "dlx", *argv],
                            stdin=subprocess.PIPE if stdin is not None else slave,
                            stdout=slave, stderr=slave, env=environ, close_fds=True,
                            cwd=cwd)
    os.close(slave)
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin.encode())
        proc.stdin.close()
    chunks = []
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:                  # EIO: every writer has closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


def screen_of(raw: str) -> list[str]:
    return Screen().feed(raw).text()


def test_count_is_printed_clear_of_the_progress_line():
    # issue 14: `dlx queens 13 --count` left "... depth 1373712" on the screen.  12 queens
    # (856,189 nodes) keeps the live line up long enough to be drawn and refreshed.
    code, raw = in_terminal(["queens", "12", "--count"])
    assert code == 0
    assert "queens: " in raw and " nodes (" in raw       # the live line was there
    assert screen_of(raw) == ["14200"]
    # issue 12: the line shows the fraction explored (Knuth's estimate) and an ETA
    shown = [float(f) for f in re.findall(r"(\d+\.\d)% +ETA", raw)]
    assert shown and all(0 <= f <= 100 for f in shown) and shown == sorted(shown)


@pytest.mark.slow
def test_solutions_printed_while_the_line_shows_go_above_it():
    code, raw = in_terminal(["queens", "10", "--all", "--format", "jsonl"])
    assert code == 0 and " nodes (" in raw
    rows = screen_of(raw)
    assert len(rows) == 724 and all(row.startswith('{"columns": [') for row in rows)
    code, raw = in_terminal(["pentominoes", "6x10", "--count", "--distinct", "--limit", "200"])
    assert code == 0 and "pentominoes: " in raw
    assert screen_of(raw) == ["200"]


@pytest.mark.slow
def test_messages_and_statistics_after_the_line_is_gone(tmp_path):
    path = tmp_path / "q11.dlx"
    n = 11
    lines = [" ".join([f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)] + ["|"]
                      + [f"u{k}" for k in range(2 * n - 1)] + [f"d{k}" for k in range(2 * n - 1)])]
    lines += [f"r{r} c{c} u{r + c} d{r - c + n - 1}" for r in range(n) for c in range(n)]
    path.write_text("\n".join(lines) + "\n")
    code, raw = in_terminal(["solve", str(path), "--count", "--max-nodes", "20000"])
    assert code == 124 and "dlx solve" in raw
    rows = screen_of(raw)
    assert len(rows) == 2 and re.fullmatch(r"\d+\+", rows[0])
    assert rows[1].startswith(f"dlx: {path}: node budget of 20,000 reached: ")
    code, raw = in_terminal(["solve", str(path), "--count", "--stats"], env={"NO_COLOR": "1"})
    rows = screen_of(raw)
    assert code == 0 and rows[0] == "2680" and "nodes" in "".join(rows[1:])
    assert all("dlx solve" not in row or row.strip() == f"dlx solve {path}" for row in rows)


def test_a_file_name_that_looks_like_markup_shows_as_it_is_on_the_line(tmp_path):
    # issue 20: the live line read the file name as rich markup ('[/red]' crashed it)
    name = "x[/red]y[b]:smile:.dlx"
    n = 11
    lines = [" ".join([f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)] + ["|"]
                      + [f"u{k}" for k in range(2 * n - 1)] + [f"d{k}" for k in range(2 * n - 1)])]
    lines += [f"r{r} c{c} u{r + c} d{r - c + n - 1}" for r in range(n) for c in range(n)]
    (tmp_path / name).parent.mkdir()                # the directory "x["
    (tmp_path / name).write_text("\n".join(lines) + "\n")
    code, raw = in_terminal(["solve", name, "--count", "--stats"], cwd=str(tmp_path),
                            env={"NO_COLOR": "1"})
    assert code == 0 and f"dlx solve {name}: " in raw and "Traceback" not in raw
    rows = screen_of(raw)
    assert rows[0] == "2680" and rows[1].strip() == f"dlx solve {name}"


def test_sudoku_answers_and_errors_stay_in_order_above_the_bar():
    puzzles = [PE1] * 40 + ["x" * 81] + [PE1] * 40
    code, raw = in_terminal(["sudoku", "solve", "-"], stdin="\n".join(puzzles) + "\n")
    assert code == 2 and "sudoku solve" in raw and "puzzles" in raw     # the bar was drawn
    bad = "dlx: <stdin>:41:1: unexpected character 'x' (a 9x9 grid uses 1-9; blank . or 0)"
    assert screen_of(raw) == [PE1_SOLUTION] * 40 + [bad] + [PE1_SOLUTION] * 40


@pytest.mark.slow
def test_a_long_search_on_the_pure_engine_gets_one_note():
    # the core blocked as if it had not been built, and "long" made 0 s: a note, once
    code = ("import sys; sys.modules['dlx._core'] = None\n"
            "from dlx.cli import common\n"
            "common.SLOW_SECONDS = 0.0\n"
            "from dlx.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    note = ("dlx: note: this runs on the pure-Python engine because the C core (dlx._core) was"
            " not built when dlx was installed; with a C compiler present, reinstall dlx to"
            " build it (searches run 20-50x faster)\n")

    def run(*argv: str, **kw: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, NO_COLOR="1")
        env.pop("DLX_ENGINE", None)
        return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                              text=True, timeout=120, env=env, **kw)

    done = run("queens", "10", "--count")            # 11,578 nodes: progress points at 4,096
    assert (done.returncode, done.stdout, done.stderr) == (0, "724\n", note)
    done = run("queens", "10", "--count", "--quiet")
    assert (done.returncode, done.stdout, done.stderr) == (0, "724\n", "")
    done = run("sudoku", "solve", input=(PE1 + "\n") * 3)
    assert (done.stdout, done.stderr) == ((PE1_SOLUTION + "\n") * 3, note)
    # with the core there is no note, however long
    done = subprocess.run([sys.executable, "-c", code.replace(
        "sys.modules['dlx._core'] = None", "pass"), "queens", "10", "--count"],
        capture_output=True, text=True, timeout=120)
    assert (done.stdout, done.stderr) == ("724\n", "")


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["queens", "9", "--all"], ["langford", "11", "--count"]])
def test_nothing_but_answers_when_stdout_is_a_file(tmp_path, argv):
    # stderr a terminal (progress drawn there), stdout a file: the file holds answers only
    out = tmp_path / "out.txt"
    code, raw = in_terminal([*argv], python=())
    assert code == 0
    with open(out, "w") as f:
        master, slave = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "dlx", *argv], stdout=f, stderr=slave,
                                stdin=slave, env={**os.environ, "TERM": "xterm"})
        os.close(slave)
        while True:
            try:
                if not os.read(master, 1 << 16):
                    break
            except OSError:
                break
        os.close(master)
        assert proc.wait(timeout=120) == 0
    text = out.read_text()
    assert "\x1b" not in text and "nodes" not in text
    assert text == "".join(row + "\n" for row in screen_of(raw))
