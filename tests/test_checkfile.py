"""Files that last: a checkpoint, a solutions' stream or a ZDD file that was changed is
refused, never believed (dlx.files, dlx.parallel.checkfile, dlx.parallel.state).

Each row of the table the files were once tried with, as a user whose file was
damaged on disk or edited by mistake: resuming ``dlx queens N --count --checkpoint F``
(and the API's views) after a change.  Every row must end in the right answer or a
one-line refusal naming the file (exit 2 from the command line), never a wrong
answer, a traceback or a hang.  Changes that keep the digest (the file sealed again
after the edit, as a program writing checkpoints by hand could) reach the checks of
each field.  The paths of the wrong kind are real: a FIFO, a directory, a device, a
link to /dev/zero.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import queens

import dlx
from dlx import files
from dlx.parallel import checkfile as cf
from dlx.parallel import checkpoint as ck

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "NO_PROGRESS": "1"}

#: queens 10: 724 solutions; a budget of 3,000 nodes stops it part way.
N, TOTAL, BUDGET = 10, 724, 3000


def run(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dlx", *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env=ENV)


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The run exited 2 with one line on stderr holding ``words``, nothing on stdout."""
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stdout[-300:], done.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("dlx: "), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def partial_count(path: Path) -> None:
    """A checkpoint of queens 10 --count stopped part way by its node budget."""
    done = run("queens", str(N), "--count", "--max-nodes", str(BUDGET), "--checkpoint",
               str(path))
    assert done.returncode == 124 and done.stdout.endswith("+\n"), done.stderr


def edit(path: Path, change) -> None:
    """Change the checkpoint's state and seal it again (the digest holds)."""
    state = cf.load(str(path))
    change(state)
    cf.dump(str(path), state)


def resealed_text(path: Path, old: str, new: str) -> None:
    """Change the checkpoint's JSON as text (any JSON, NaN included) and seal it again."""
    payload = files.unseal(path.read_bytes(), str(path))
    text = payload.decode()
    assert old in text, (old, text[:300])
    path.write_bytes(files.seal(text.replace(old, new, 1).encode()))


# ------------------------------------------------------------- the table, row by row


def test_one_digit_of_the_total_changed_is_refused(tmp_path):
    """Row 1: '"total"' 156840 -> 356840 printed 565596 with exit 0."""
    path = tmp_path / "F"
    partial_count(path)
    data = path.read_bytes()
    total = re.search(rb'"total":(\d+)', data)
    assert total is not None
    digit = total.start(1)
    path.write_bytes(data[:digit] + bytes([data[digit] ^ 0x01]) + data[digit + 1:])
    refused(run("queens", str(N), "--count", "--checkpoint", str(path)), str(path),
            "changed or damaged")


def test_one_option_number_of_the_frontier_changed_is_refused(tmp_path):
    """Row 2: an option number of a piece changed printed 365584."""
    path = tmp_path / "F"
    partial_count(path)
    data = path.read_bytes()
    piece = re.search(rb'"frontier":\[\[\[\[[\d,]*\],\[(\d+)', data)
    assert piece is not None
    at = piece.start(1)
    changed = b"0" if data[at:at + 1] != b"0" else b"1"
    path.write_bytes(data[:at] + changed + data[at + 1:])
    refused(run("queens", str(N), "--count", "--checkpoint", str(path)), "changed or damaged")
    # sealed again after the change: an option of another piece's subtree is caught by
    # the pieces being distinct and disjoint, or gives the right count all the same
    partial_count(path := tmp_path / "G")
    edit(path, lambda s: s["run"]["frontier"][0][0][1].__setitem__(0, 10**6))
    refused(run("queens", str(N), "--count", "--checkpoint", str(path)),
            "damaged: an option number")
    # an option number in range, sealed again: a piece whose options clash is no path of
    # the search tree (a deliberate edit that keeps every check true is beyond them)
    p = queens(N)
    with pytest.raises(dlx.BudgetExceeded):
        dlx.count(p, checkpoint=tmp_path / "H", max_nodes=BUDGET)

    def clash(state):
        piece = next(e[1] for batch in state["run"]["frontier"] for e in batch if len(e[1]) > 1)
        piece[1] = piece[0] - piece[0] % N + (piece[0] + 1) % N    # the same row as piece[0]
    edit(tmp_path / "H", clash)
    with pytest.raises(ck.CheckpointError, match="is no path of the search tree: its options"
                       " clash on item"):
        dlx.count(p, checkpoint=tmp_path / "H")


def test_a_frontier_piece_duplicated_or_the_frontier_emptied_is_refused(tmp_path):
    """Row 3: a piece twice printed 365597; the frontier emptied printed 156840."""
    for name, change, why in [
        ("twice", lambda s: s["run"]["frontier"][0].append(s["run"]["frontier"][0][0]),
         "is there twice"),
        ("twice in a batch of its own",
         lambda s: s["run"]["frontier"].append([s["run"]["frontier"][0][0]]),
         "is there twice"),
        ("out of order", lambda s: s["run"]["frontier"].reverse(), "search order"),
        ("emptied", lambda s: s["run"].__setitem__("frontier", []), "only"),
        ("a piece dropped", lambda s: s["run"]["frontier"][-1].pop(), "whole tree"),
    ]:
        path = tmp_path / name.replace(" ", "-")
        partial_count(path)
        before = path.read_bytes()
        raw = json.loads(files.unseal(before, str(path)))
        change(raw)
        path.write_bytes(json.dumps(raw, separators=(",", ":")).encode() + b"\n"
                         + before[before.rindex(b"end sha256"):])
        refused(run("queens", str(N), "--count", "--checkpoint", str(path)),
                "changed or damaged")
        path.write_bytes(before)
        edit(path, change)
        line = refused(run("queens", str(N), "--count", "--checkpoint", str(path)), "damaged")
        assert why in line, (name, line)


@pytest.mark.parametrize("value", ["-5", "true", "1" + "0" * 4000, "Infinity", "NaN",
                                   "1e999", '"x"', "null", "1.5", "[]"])
def test_hostile_totals_are_refused(tmp_path, value):
    """Row 4: total -5 printed 208751; true and 10**4000 were accepted.  Row 5:
    Infinity raised OverflowError."""
    path = tmp_path / "F"
    partial_count(path)
    total = cf.load(str(path))["run"]["answer"]["total"]
    resealed_text(path, f'"total":{total}', f'"total":{value}')
    refused(run("queens", str(N), "--count", "--checkpoint", str(path)), str(path),
            "damaged")


def test_a_finished_checkpoint_with_a_negative_total_is_refused_by_the_api(tmp_path):
    """Row 4: through the API a finished checkpoint with total -1 returned -1."""
    p = queens(6)
    path = tmp_path / "F"
    assert dlx.count(p, checkpoint=path) == 4
    for bad in (-1, 5, 3, True, 4.0):
        edit(path, lambda s, bad=bad: s["run"]["answer"].__setitem__("total", bad))
        with pytest.raises(ck.CheckpointError, match="damaged"):
            dlx.count(p, checkpoint=path)
    edit(path, lambda s: s["run"]["answer"].__setitem__("total", 4))
    assert dlx.count(p, checkpoint=path) == 4


@pytest.mark.parametrize("where, value", [
    ("run.done", "Infinity"), ("run.stats.nodes", "Infinity"), ("run.pieces_done", "Infinity"),
    ("run.stats.profile.0", '"1"'), ("sessions", '"x"'), ("seconds", "-1"),
    ("run.stats.nodes", "-1"), ("run.stats.updates", "1.5"), ("run.done", "2"),
    ("run.splittable", "0"), ("sessions", "0"), ("saved", "1e300"),
    ("run.stats.solutions", "7"), ("run.stats.nodes", "1"), ("run.frontier.0.0.2", "0"),
    ("run.frontier.0.0.2", "2"), ("run.frontier.0.0.0", "[-1]"), ("run.frontier.0.0", "[]"),
    ("run.frontier.0", "[]"), ("run.frontier", "{}"), ("run", "[]"), ("finished", "1"),
])
def test_hostile_fields_are_refused_in_one_line(tmp_path, where, value):
    """Row 5: total, nodes or pieces_done Infinity, profile entries strings, sessions
    "x" raised OverflowError, TypeError, ValueError.  Every field is checked."""
    path = tmp_path / "F"
    partial_count(path)
    state = json.loads(files.unseal(path.read_bytes(), str(path)))
    *parents, last = where.split(".")
    node = state
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[int(last) if isinstance(node, list) else last] = "@@@"
    text = json.dumps(state, separators=(",", ":")).replace('"@@@"', value)
    path.write_bytes(files.seal(text.encode()))
    refused(run("queens", str(N), "--count", "--checkpoint", str(path)), str(path))


def test_a_field_dropped_or_added_or_twice_is_refused(tmp_path):
    path = tmp_path / "F"
    partial_count(path)
    good = path.read_bytes()
    for change in (lambda s: s["run"].pop("done"), lambda s: s.pop("sessions"),
                   lambda s: s["run"]["stats"].__setitem__("extra", 1),
                   lambda s: s["run"]["answer"].pop("total")):
        path.write_bytes(good)
        edit(path, change)
        refused(run("queens", str(N), "--count", "--checkpoint", str(path)), "damaged")
    path.write_bytes(good)
    resealed_text(path, '"sessions":', '"sessions":1,"sessions":')
    refused(run("queens", str(N), "--count", "--checkpoint", str(path)), "there twice")


def test_the_checkpoints_folder_missing_or_its_lock_a_directory(tmp_path):
    """Row 6: FileNotFoundError, IsADirectoryError tracebacks."""
    missing = tmp_path / "nowhere" / "F"
    refused(run("queens", str(N), "--count", "--checkpoint", str(missing)), "nowhere",
            "does not exist")
    path = tmp_path / "F"
    (tmp_path / "F.lock").mkdir()
    refused(run("queens", str(N), "--count", "--checkpoint", str(path)), "F.lock",
            "a directory")
    assert not path.exists()
    (tmp_path / "F.lock").rmdir()
    os.mkfifo(tmp_path / "F.lock")
    refused(run("queens", str(N), "--count", "--checkpoint", str(path), timeout=30),
            "F.lock", "FIFO")
    with pytest.raises(ck.CheckpointError, match="does not exist"):
        dlx.count(queens(6), checkpoint=missing)


def test_a_fifo_is_refused_at_once_and_nothing_claims_a_checkpoint(tmp_path):
    """Row 7: F a FIFO blocked; the first Ctrl-C was ignored, the second said
    'checkpoint written' (nothing was).  Now: refused before the search, never
    waited on."""
    fifo = tmp_path / "F"
    os.mkfifo(fifo)
    began = time.monotonic()
    line = refused(run("queens", str(N), "--count", "--checkpoint", str(fifo), timeout=30),
                   str(fifo), "FIFO")
    assert time.monotonic() - began < 20 and "written" not in line
    with pytest.raises(ck.CheckpointError, match="FIFO"):
        dlx.count(queens(6), checkpoint=fifo)
    os.mkfifo(tmp_path / "S.solutions.jsonl")
    with pytest.raises(ck.CheckpointError, match="FIFO"):
        list(dlx.solutions(queens(6), checkpoint=tmp_path / "S"))
    assert fifo.exists() and not (tmp_path / "F.lock").exists()


def test_a_link_to_dev_zero_is_refused_without_reading_it(tmp_path):
    """Row 8: F a link to /dev/zero read until memory ran out."""
    link = tmp_path / "F"
    link.symlink_to("/dev/zero")
    line = refused(run("queens", str(N), "--count", "--checkpoint", str(link), timeout=30),
                   str(link), "character device")
    assert "written" not in line
    for device in ("/dev/null", "/dev/zero"):
        with pytest.raises(ck.CheckpointError, match="not a regular file"):
            dlx.count(queens(6), checkpoint=device)


def test_one_digit_of_a_line_of_the_solutions_file_changed_is_refused(tmp_path):
    """Row 9: queens 12 --all: a digit of F.solutions.jsonl changed printed a 'solution'
    with column 5 twice.  Refused whether the checkpoint is finished or not; a line
    changed and the checkpoint's record changed to match is still caught by the
    exact-cover check of every solution read back."""
    for budget in ("700", None):
        path = tmp_path / f"F{budget}"
        extra = ["--max-nodes", budget] if budget else []
        first = run("queens", "8", "--all", "--checkpoint", str(path), *extra)
        assert first.returncode == (124 if budget else 0), first.stderr
        stream = Path(str(path) + ".solutions.jsonl")
        data = stream.read_bytes()
        digit = re.search(rb"\d", data[3:]).start() + 3
        stream.write_bytes(data[:digit] + (b"1" if data[digit:digit + 1] != b"1" else b"2")
                           + data[digit + 1:])
        refused(run("queens", "8", "--all", "--checkpoint", str(path)), str(stream),
                "changed or damaged")
    # the line changed, and the checkpoint's record made to match it: not an exact cover
    path = tmp_path / "G"
    assert run("queens", "8", "--all", "--checkpoint", str(path), "--max-nodes",
               "700").returncode == 124
    stream = Path(str(path) + ".solutions.jsonl")
    lines = stream.read_bytes().splitlines(keepends=True)
    sol = json.loads(lines[0])
    lines[0] = json.dumps([sol[0], sol[0] + 1, *sol[2:]]).encode() + b"\n"
    data = b"".join(lines)
    stream.write_bytes(data)
    import hashlib

    edit(path, lambda s: s["stream"].update(bytes=len(data), sha256=hashlib.sha256(
        data).hexdigest()))
    refused(run("queens", "8", "--all", "--checkpoint", str(path)), "not an exact cover")


def test_best_checkpoints_with_a_score_of_1_over_0_or_a_repeated_list_are_refused(tmp_path):
    """Row 10: a best checkpoint with a score of 1/0 raised ZeroDivisionError; its k-best
    list repeated made best(k=3) return 12 answers."""
    p = queens(7)
    w = {label: Fraction(label[0] + 1, label[1] + 2) for label in p.options}
    want = dlx.best(p, w, k=3, maximize=False)
    path = tmp_path / "B"
    with pytest.raises(dlx.BudgetExceeded):
        dlx.best(p, w, k=3, maximize=False, checkpoint=path, max_nodes=120)
    good = path.read_bytes()
    kbest = cf.load(str(path))["run"]["answer"]["kbest"]
    assert kbest, "the budget left no best solution to damage"
    changes = [
        lambda s: s["run"]["answer"]["kbest"][0].__setitem__(2, {"fraction": [1, 0]}),
        lambda s: s["run"]["answer"]["kbest"].extend(s["run"]["answer"]["kbest"] * 3),
        lambda s: s["run"]["answer"]["kbest"].append(s["run"]["answer"]["kbest"][0]),
        lambda s: s["run"]["answer"]["kbest"][0].__setitem__(2, {"fraction": [1, 1]}),
        lambda s: s["run"]["answer"]["kbest"][0].__setitem__(3, [0, 1]),
        lambda s: s["run"]["answer"]["kbest"][0].__setitem__(1, 7),
        lambda s: s["run"]["answer"]["kbest"][0].__setitem__(2, "1/2"),
    ]
    for change in changes:
        path.write_bytes(good)
        edit(path, change)
        with pytest.raises(ck.CheckpointError, match="damaged"):
            dlx.best(p, w, k=3, maximize=False, checkpoint=path)
    path.write_bytes(good)
    assert dlx.best(p, w, k=3, maximize=False, checkpoint=path) == want


def test_a_checkpoint_of_the_previous_version_is_refused_by_its_version(tmp_path):
    path = tmp_path / "old.ckpt"
    path.write_text(json.dumps({"format": "dlx-checkpoint", "version": 1, "finished": True,
                                "answer": {"total": 4}}))
    with pytest.raises(ck.CheckpointError, match="version 1, written by an earlier dlx;"
                       " this dlx reads version 2"):
        dlx.count(queens(6), checkpoint=path)
    refused(run("queens", "6", "--count", "--checkpoint", str(path)), "version 1")


def test_every_cut_of_a_checkpoint_is_refused(tmp_path):
    """A cut file is never a smaller valid one."""
    p = queens(8)
    path = tmp_path / "C"
    with pytest.raises(dlx.BudgetExceeded):
        dlx.count(p, checkpoint=path, max_nodes=500)
    data = path.read_bytes()
    for cut in sorted({2, 10, 64, 65, 66, len(data) // 2, len(data) - 1}):
        path.write_bytes(data[:len(data) - cut])
        with pytest.raises(ck.CheckpointError, match="changed or damaged"):
            dlx.count(p, checkpoint=path)
    path.write_bytes(data)
    assert dlx.count(p, checkpoint=path) == 92


# ------------------------------------------------------------------- the ZDD rows


def eight_solutions(tmp_path: Path) -> Path:
    """A DLX file of 8 solutions (three pairs, each one of two options)."""
    path = tmp_path / "eight.dlx"
    path.write_text("a b c\na\na\nb\nb\nc\nc\n")
    return path


def test_zdd_refuses_flags_it_would_ignore(tmp_path):
    """--zdd silently ignored --checkpoint, --jobs and --best."""
    p = eight_solutions(tmp_path)
    out = tmp_path / "o.zdd"
    for flags, word in ((["--checkpoint", str(tmp_path / "F")], "--checkpoint"),
                        (["--jobs", "2"], "--jobs"), (["--best", "2"], "--best"),
                        (["--limit", "2"], "--limit")):
        refused(run("solve", str(p), "--zdd", str(out), *flags), "--zdd", word)
    assert not out.exists() and not (tmp_path / "F").exists()
    refused(run("solve", str(p), str(p), "--zdd", str(out)), "--zdd", "one FILE")


def test_zdd_dash_writes_to_standard_output(tmp_path):
    """--zdd - wrote a file named '-'."""
    p = eight_solutions(tmp_path)
    done = subprocess.run([sys.executable, "-m", "dlx", "solve", str(p), "--zdd", "-"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=ENV)
    assert done.returncode == 0 and not (tmp_path / "-").exists(), done.stderr
    import io

    z = dlx.ZDD.read(io.StringIO(done.stdout))
    assert z.count() == 8 and done.stdout.startswith("dlx-zdd 2\n")
    assert "8 solutions" in done.stderr and "standard output" in done.stderr
    quiet = run("solve", str(p), "--zdd", "-", "-q")
    assert quiet.stderr == "" and dlx.ZDD.read(io.StringIO(quiet.stdout)) == z


def test_zdd_to_a_fifo_is_refused_before_the_search(tmp_path):
    """--zdd OUT on a FIFO blocked, then said 'terminated after 6 nodes' though the
    search had ended."""
    p = eight_solutions(tmp_path)
    fifo = tmp_path / "out.zdd"
    os.mkfifo(fifo)
    line = refused(run("solve", str(p), "--zdd", str(fifo), timeout=30), str(fifo), "FIFO")
    assert "nodes" not in line
    refused(run("solve", str(p), "--zdd", str(tmp_path), timeout=30), "directory")
    refused(run("solve", str(p), "--zdd", str(tmp_path / "no" / "o.zdd")), "does not exist")
    done = run("solve", str(p), "--zdd", str(tmp_path / "o.zdd"))
    assert done.returncode == 0 and done.stdout == "8\n"
    assert dlx.ZDD.read(tmp_path / "o.zdd").count() == 8


def test_zdd_of_a_bounded_problem_advises_in_command_line_terms(tmp_path):
    path = tmp_path / "b.dlx"
    path.write_text("2|a b\na\na\nb\n")
    line = refused(run("solve", str(path), "--zdd", str(tmp_path / "o.zdd")), "bounds")
    assert "--count --cache" in line and "dlx.count(" not in line and "cache=" not in line


def test_cache_with_jobs_is_refused_in_command_line_terms(tmp_path):
    p = eight_solutions(tmp_path)
    for flags in (["--jobs", "2"], ["--checkpoint", str(tmp_path / "F")]):
        line = refused(run("solve", str(p), "--count", "--cache", *flags), "--cache",
                       flags[0])
        assert "cache=" not in line and "executor=" not in line


# -------------------------------------------------------------------- the stops


def test_ctrl_c_on_a_parallel_count_prints_the_count_so_far_and_a_hint(tmp_path):
    """dlx queens 16 --count --jobs 2 printed only 'dlx: interrupted'.  Now, as a budget
    or a time limit: the count so far ('N+') and, without --checkpoint, a hint."""
    proc = subprocess.Popen([sys.executable, "-m", "dlx", "queens", "16", "--count",
                             "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env=ENV, start_new_session=True)
    try:
        time.sleep(3)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        with_group_killed(proc)
    assert proc.returncode == 130, err
    assert re.fullmatch(r"\d+\+\n", out), out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dlx: interrupted"), err
    assert "--checkpoint FILE" in lines[0] and "so far" in lines[0]


def with_group_killed(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def test_a_second_ctrl_c_does_not_claim_a_checkpoint_it_did_not_write(tmp_path):
    """The first Ctrl-C writes the checkpoint and says so; a stop whose state could not be
    written says the earlier checkpoint stays, not that one was written."""
    path = tmp_path / "F"
    proc = subprocess.Popen([sys.executable, "-m", "dlx", "queens", "15", "--count",
                             "--checkpoint", str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not path.exists():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        with_group_killed(proc)
    assert proc.returncode == 130 and re.fullmatch(r"\d+\+\n", out), (out, err)
    assert f"checkpoint {path} written" in err
    assert not cf.load(str(path))["finished"]


def test_a_resumed_runs_rate_is_this_sessions():
    """The live rate of a resumed run divided the earlier run's nodes by this run's
    time: a Report counts the nodes of earlier sessions apart."""
    from dlx.parallel import Report

    r = Report(nodes=1_000_000, seconds=2.0, nodes_before=900_000)
    assert r.rate == 50_000
    assert Report(nodes=10, seconds=0.0).rate == 0.0


def test_a_fifo_for_the_input_honours_ctrl_c_at_once(tmp_path):
    """Waiting on a file (a FIFO given as the problem, with no writer) stops at the first
    Ctrl-C."""
    fifo = tmp_path / "p.dlx"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, "-m", "dlx", "solve", "--count", str(fifo)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=ENV, start_new_session=True)
    try:
        time.sleep(1.5)
        os.killpg(proc.pid, signal.SIGINT)
        ready, _, _ = select.select([proc.stderr], [], [], 10)
        assert ready, "Ctrl-C was not honoured within 10 s"
        out, err = proc.communicate(timeout=10)
    finally:
        with_group_killed(proc)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err


@pytest.fixture
def python_s_sigint_handler():
    """Python's own SIGINT handler (KeyboardInterrupt) for the test, whatever runs it."""
    import signal as signals

    before = signals.signal(signals.SIGINT, signals.default_int_handler)
    yield
    signals.signal(signals.SIGINT, before)


def test_a_second_ctrl_c_leaves_the_last_checkpoint_and_says_so(tmp_path,
                                                                python_s_sigint_handler):
    """Two SIGINTs to this process (the default handler: the checkpoint's guard holds the
    first back, the second raises at once): the state at the stop is not written, and
    the exception says the earlier checkpoint stays, not that one was written."""
    import signal as signals

    calls = [0]

    def progress(_):
        calls[0] += 1
        if calls[0] == 1:            # (reports come by the clock: a quiet machine makes few)
            os.kill(os.getpid(), signals.SIGINT)
            os.kill(os.getpid(), signals.SIGINT)
            time.sleep(1)                       # (the second raises here)

    path = tmp_path / "F"
    with pytest.raises(KeyboardInterrupt) as stop:
        dlx.count(queens(13), checkpoint=path, checkpoint_every=1000, progress=progress)
    assert getattr(stop.value, "checkpoint_written", None) == "earlier"
    first = cf.load(str(path))
    assert first["sessions"] == 1 and not first["finished"]     # written at the start
    calls[0] = -10**9
    with pytest.raises(KeyboardInterrupt) as stop:
        dlx.count(queens(13), checkpoint=path, progress=lambda _: (_ for _ in ()).throw(
            KeyboardInterrupt))
    assert getattr(stop.value, "checkpoint_written", None) == "now"
    assert dlx.count(queens(13), checkpoint=path) == 73712


@pytest.mark.slow
def test_the_live_rate_of_a_resumed_run_on_a_terminal_is_this_runs(tmp_path):
    """Under a real pty: a count resumed with most of its nodes done by an earlier run
    shows this run's pace, not the earlier run's nodes over this run's time (which was
    several times the engine's speed)."""
    from test_cli_terminal import in_terminal

    path = tmp_path / "F"
    first = run("queens", "14", "--count", "--max-nodes", "5200000", "--checkpoint",
                str(path), timeout=300)
    assert first.returncode == 124, first.stderr
    before = cf.load(str(path))["run"]["stats"]["nodes"]
    began = time.monotonic()
    code, raw = in_terminal(["queens", "14", "--count", "--checkpoint", str(path)])
    wall = time.monotonic() - began
    assert code == 0 and "365596" in raw
    rates = [int(r.replace(",", "")) for r in re.findall(r"nodes \(([\d,]+)/s\)", raw)]
    assert rates, raw[-1000:]
    # the earlier run's nodes over this run's time: what the line showed before
    assert max(rates) < before / wall, (rates, before, wall)
