"""The family "files": files written for later, changed, then used again.

Each case writes one kind of file from a real run (a checkpoint of a count, of a
listing and its solutions' stream, of ``best`` and of ``best(k=3)``, through the
command line or the API; a ZDD file through ``dlx solve --zdd`` or ``ZDD.write``),
changes it as a disk, an editor or a careless program would, and resumes the run
(or reads the diagram back).  The changes: a digit, a byte, a cut, a line dropped or
doubled, a JSON entry doubled or dropped (as they lie on disk: the digest is wrong),
and, sealed again so the digest holds, hostile values (``-5``, ``true``,
``10**4000``, ``Infinity``, strings, ``1/0`` fractions), entries doubled where no run
doubles them (pieces, batches, the k best), fields dropped; and paths of the wrong
kind (a FIFO, a directory, a link to ``/dev/zero``, a lock that is a directory, a
missing folder).  The only outcomes allowed are the right answer (a plain run's) or
a clean refusal: exit 2 with one line, an :class:`~dlx.ExactCoverError` from the
API.  Never a wrong answer, a traceback or a hang.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import dlx
from dlx import files as sealing

from .commands import _case_dir, cli_verdict, queens_dlx, run_dlx, shell_line
from .core import ANSWER, CLEAN, RAW, WRONG, Case, Verdict, _short, exception_key, reproducer

# ---------------------------------------------------------------- the family "files"

#: The runs that write a file: (name, how: "cli" or "api", what it writes).
_WRITERS = [
    ("count", "cli"), ("count", "api"), ("solutions", "cli"), ("solutions", "api"),
    ("best", "api"), ("best-k", "api"), ("zdd", "cli"), ("zdd", "api"),
]
#: The changes, and which files they apply to.
_RAW = ["digit", "byte", "cut", "line-drop", "line-twice", "json-twice", "json-drop"]
_SEALED = ["hostile", "record-twice", "kbest-repeated", "field-drop"]
_PATHS = ["fifo", "directory", "dev-zero", "lock-directory", "lock-fifo", "stream-fifo",
          "missing-folder"]
#: Values no run writes where a count, a share, a flag, a key or a score belongs.
_HOSTILE = ["-5", "true", "false", "1" + "0" * 4000, "Infinity", "-Infinity", "NaN", '"x"',
            "null", "1.5", "[]", "{}", '{"fraction":[1,0]}', str(2**63), "-0.5"]
#: Fields whose values no answer depends on (a run may write any there).
_FREE = {"saved", "seconds", "parts"}


def _queens(n: int) -> dlx.ExactCover:
    return dlx.ExactCover({(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
                           for r in range(n) for c in range(n)},
                          secondary=[(d, k) for d in ("up", "down")
                                     for k in range(-n + 1, 2 * n - 1)])


def _setup(n: int, best: bool) -> str:
    """The Python that makes the case's problem P (and weights W)."""
    text = (f"P = dlx.ExactCover({{(r, c): [('row', r), ('col', c), ('up', r + c), ('down', r -"
            f" c)] for r in range({n}) for c in range({n})}}, secondary=[(d, k) for d in ('up',"
            f" 'down') for k in range({-n + 1}, {2 * n - 1})])")
    if best:
        text += "\nW = {o: Fraction(o[0] * 7 + o[1] * 3 % 5 + 1, o[1] + 1) for o in P.options}"
    return text


def _scalars(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every scalar in a JSON value (the free fields left out)."""
    if isinstance(node, dict):
        return [p for k, v in node.items() if not (not path and k in _FREE)
                for p in _scalars(v, (*path, k))]
    if isinstance(node, list):
        return [p for k, v in enumerate(node) for p in _scalars(v, (*path, k))]
    return [path]


def _records(state: dict[str, Any]) -> list[tuple[list[Any], int]]:
    """The lists whose entries no run writes twice: the frontier's batches and pieces,
    the k best, the held batches, as (list, index of an entry)."""
    run, out = state.get("run", {}), []
    frontier = run.get("frontier", [])
    out += [(frontier, k) for k in range(len(frontier))]
    out += [(batch, k) for batch in frontier for k in range(len(batch))]
    answer = run.get("answer", {})
    for name in ("kbest", "held"):
        out += [(answer.get(name, []), k) for k in range(len(answer.get(name, [])))]
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def _change(rng: random.Random, how: str, data: bytes, sealed: bool) -> bytes | None:
    """``data`` changed as ``how`` says (None: the change does not apply to it)."""
    if how == "digit":
        digits = [k for k, b in enumerate(data) if 48 <= b <= 57]
        if not digits:
            return None
        at = rng.choice(digits)
        return data[:at] + bytes([48 + (data[at] - 48 + rng.randint(1, 9)) % 10]) + data[at + 1:]
    if how == "byte":
        at = rng.randrange(len(data))
        return data[:at] + bytes([data[at] ^ rng.randint(1, 255)]) + data[at + 1:]
    if how == "cut":
        return data[:rng.randrange(len(data))] if data else None
    lines = data.splitlines(keepends=True)
    if how in ("line-drop", "line-twice"):
        if not lines:
            return None
        k = rng.randrange(len(lines))
        lines[k:k + 1] = [] if how == "line-drop" else [lines[k], lines[k]]
        return b"".join(lines)
    if how in ("json-twice", "json-drop") and sealed:
        try:
            state = json.loads(sealing.unseal(data, "F"))
        except (sealing.FileError, ValueError):
            return None
        lists = [p for p in _lists(state) if _at(state, p)]
        if not lists:
            return None
        target = _at(state, rng.choice(lists))
        k = rng.randrange(len(target))
        target[k:k + 1] = [] if how == "json-drop" else [target[k], target[k]]
        body = json.dumps(state, separators=(",", ":")).encode() + b"\n"
        return body + data[data.rindex(b"end sha256"):]          # the old digest line
    return None


def _lists(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _lists(v, (*path, k))]
    if isinstance(node, list):
        return [path] + [p for k, v in enumerate(node) for p in _lists(v, (*path, k))]
    return []


def _reseal(rng: random.Random, how: str, data: bytes) -> bytes | None:
    """A change no run makes, sealed again (the digest holds): the checks of the fields
    must refuse it, or it changes nothing the answer depends on."""
    state = json.loads(sealing.unseal(data, "F"))
    if how == "hostile":
        spots = _scalars(state)
        if not spots:
            return None
        *parent, last = rng.choice(spots)
        _at(state, tuple(parent))[last] = "@@hostile@@"
        text = json.dumps(state, separators=(",", ":"))
        return sealing.seal(text.replace('"@@hostile@@"', rng.choice(_HOSTILE)).encode())
    if how == "record-twice":
        records = _records(state)
        if not records:
            return None
        target, k = rng.choice(records)
        target.insert(k, json.loads(json.dumps(target[k])))
    elif how == "kbest-repeated":
        kbest = state.get("run", {}).get("answer", {}).get("kbest")
        if not kbest:
            return None
        kbest.extend(json.loads(json.dumps(kbest)) * rng.randint(1, 3))
    elif how == "field-drop":
        spots = [p for p in _scalars(state) if isinstance(p[-1], str)]
        parents = sorted({p[:-1] for p in spots} | {()}, key=str)
        parent = _at(state, rng.choice(parents))
        names = [k for k in parent if k not in _FREE]
        if not names:
            return None
        del parent[rng.choice(sorted(names))]
    return sealing.seal(json.dumps(state, separators=(",", ":")).encode())


def _wrong_kind(how: str, d: Path, path: Path, stream: Path | None) -> Path | None:
    """Put a path of the wrong kind where the run looks; the path to resume with."""
    if how in ("fifo", "directory", "dev-zero"):
        if path.exists() or path.is_symlink():
            path.unlink()
        {"fifo": lambda: os.mkfifo(path), "directory": lambda: path.mkdir(),
         "dev-zero": lambda: path.symlink_to("/dev/zero")}[how]()
        return path
    if how in ("lock-directory", "lock-fifo"):
        lock = Path(f"{path}.lock")
        lock.mkdir() if how == "lock-directory" else os.mkfifo(lock)
        return path
    if how == "stream-fifo":
        if stream is None:
            return None
        if stream.exists():
            stream.unlink()
        os.mkfifo(stream)
        return path
    if how == "missing-folder":
        return d / "no such folder" / path.name
    return None


def _case_files(rng: random.Random, case: Case) -> None:
    view, how = rng.choice(_WRITERS)
    n = rng.choice([6, 7, 8] if view.startswith("best") else [7, 8, 9])
    budget = rng.choice([None, 100, 250, 600]) if view != "zdd" else None
    family = rng.choice(["raw"] * 5 + ["sealed"] * 3 + ["path"] * 2) if view != "zdd" else \
        rng.choice(["raw"] * 4 + ["path"])
    change = rng.choice({"raw": _RAW, "sealed": _SEALED, "path": _PATHS}[family])
    if view == "zdd" and family == "path":
        change = rng.choice(["fifo", "directory", "dev-zero", "missing-folder"])
    target = "stream" if view == "solutions" and family == "raw" and rng.random() < 0.5 \
        else "file"
    seed = rng.randrange(1 << 30)
    case.title = (f"{view} by the {'command line' if how == 'cli' else 'API'}, queens {n}"
                  f"{'' if budget is None else f' stopped after {budget} nodes'}: {change}"
                  f"{' of the solutions file' if target == 'stream' else ''}, then resumed")
    case.repro = (f"# the harness writes the file, changes it ({change}, seed {seed}), then"
                  f" runs it again\n" + _writer_repro(view, how, n, budget))
    case.allowance = 90.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        return _run(random.Random(seed), d, view, how, n, budget, family, change, target)

    case.run = run


def _writer_repro(view: str, how: str, n: int, budget: int | None) -> str:
    more = [] if budget is None else ["--max-nodes", str(budget)]
    if how == "cli":
        if view == "zdd":
            return shell_line(["solve", f"q{n}.dlx", "--zdd", "F"])
        flag = "--count" if view == "count" else "--all"
        return shell_line(["queens", str(n), flag, "--checkpoint", "F", *more])
    return reproducer(_setup(n, view.startswith("best")), _api_call(view, budget))


def _api_call(view: str, budget: int | None, path: str = "'F'") -> str:
    more = "" if budget is None else f", max_nodes={budget}"
    return {"count": f"dlx.count(P, checkpoint={path}{more})",
            "solutions": f"list(dlx.solutions(P, checkpoint={path}{more}))",
            "best": f"dlx.best(P, W, checkpoint={path}{more})",
            "best-k": f"dlx.best(P, W, k=3, checkpoint={path}{more})",
            "zdd": f"dlx.zdd(P).write({path})"}[view]


def _run(rng: random.Random, d: Path, view: str, how: str, n: int, budget: int | None,
         family: str, change: str, target: str) -> tuple[str, str, str]:
    path = d / "F"
    stream = Path(f"{path}.solutions.jsonl") if view == "solutions" else None
    setup = _setup(n, view.startswith("best"))
    # the right answer, from a plain run
    if how == "cli":
        (d / f"q{n}.dlx").write_text(queens_dlx(n))
        plain = ["solve", f"q{n}.dlx", "--count"] if view == "zdd" else \
            ["queens", str(n), "--count" if view == "count" else "--all"]
        want = run_dlx(plain, cwd=d, timeout=60)
        cli_verdict(want, "the plain run", allowed=(0,))
        expected: Any = want.stdout
    else:
        expected = _api(setup, _api_call(view, None, "None").replace(
            ", checkpoint=None", "").replace("write(None)", "count()"), "the plain run")
    # write the file from a real run (stopped by its budget, or to the end)
    if how == "cli":
        more = [] if budget is None else ["--max-nodes", str(budget)]
        argv = ["solve", f"q{n}.dlx", "--zdd", str(path)] if view == "zdd" else \
            ["queens", str(n), "--count" if view == "count" else "--all", "--checkpoint",
             str(path), *more]
        cli_verdict(run_dlx(argv, cwd=d, timeout=60), "the first run", allowed=(0, 124))
    else:
        a = _attempt(setup, _api_call(view, budget, repr(str(path))))
        if a.status not in ("answer", "budget"):
            raise Verdict(RAW if a.status == "raw" else WRONG, f"files: the first {view} run"
                          f" ({a.status})", a.describe())
    if not path.exists():
        return ANSWER, "", ""                   # (a budget too small to begin)
    # change it
    if family == "path":
        resume = _wrong_kind(change, d, path, stream)
        if resume is None:
            return ANSWER, "", ""
    else:
        victim = stream if target == "stream" and stream is not None else path
        data = victim.read_bytes()
        changed = _reseal(rng, change, data) if family == "sealed" else \
            _change(rng, change, data, sealed=victim == path and view != "zdd")
        if changed is None or changed == data:
            return ANSWER, "", ""
        victim.write_bytes(changed)
        resume = path
    return _resume(d, view, how, n, resume, setup, expected, family == "path")


def _attempt(setup: str, expr: str) -> Any:
    from .core import attempt

    return attempt(setup, expr)


def _api(setup: str, expr: str, what: str) -> Any:
    a = _attempt(setup, expr)
    if a.status != "answer":
        raise Verdict(RAW if a.status == "raw" else WRONG, f"files: {what}: {a.status}",
                      a.describe())
    return a.value


def _resume(d: Path, view: str, how: str, n: int, path: Path, setup: str, expected: Any,
            must_refuse: bool) -> tuple[str, str, str]:
    """Use the changed file again: the right answer or a clean refusal."""
    what = f"files: {view} resumed"
    if view == "zdd":
        a = _attempt("", f"dlx.ZDD.read({str(path)!r})")
        if a.status == "clean":
            return CLEAN, "", ""
        if a.status != "answer":
            key = exception_key(a.error) if a.error is not None else a.status
            raise Verdict(RAW, f"files: ZDD.read: {key}", a.describe())
        z = a.value
        count = z.count() if isinstance(z, dlx.ZDD) else None
        got = f"{count}\n" if how == "cli" else count
        if must_refuse or got != expected:
            raise Verdict(WRONG, "files: a changed ZDD file read as another diagram"
                          if not must_refuse else "files: a ZDD path of the wrong kind read",
                          f"{count} solutions, expected {_short(expected, 40)}")
        return ANSWER, "", ""
    if how == "cli":
        argv = ["queens", str(n), "--count" if view == "count" else "--all", "--checkpoint",
                str(path)]
        ran = run_dlx(argv, cwd=d, timeout=60)
        kind, _, _ = cli_verdict(ran, what, allowed=(0, 2))
        if ran.code == 2:
            lines = ran.stderr.strip().splitlines()
            if len(lines) != 1 or ran.stdout:
                raise Verdict(WRONG, f"{what}: a refusal of more than one line",
                              _short(ran.stderr, 300))
            return kind, "", ""
        if must_refuse or ran.stdout != expected:
            raise Verdict(WRONG, f"{what}: a wrong answer from a changed checkpoint"
                          if not must_refuse else f"{what}: a path of the wrong kind used",
                          f"printed {_short(ran.stdout, 80)!r}, expected"
                          f" {_short(expected, 80)!r}")
        return kind, "", ""
    a = _attempt(setup, _api_call(view, None, repr(str(path))))
    if a.status == "clean":
        text = str(a.error)
        if "\n" in text:
            raise Verdict(WRONG, f"{what}: a refusal of more than one line", _short(text))
        return CLEAN, "", ""
    if a.status != "answer":
        raise Verdict(RAW if a.status == "raw" else WRONG,
                      f"{what}: {exception_key(a.error) if a.error else a.status}",
                      a.describe())
    if must_refuse or a.value != expected:
        raise Verdict(WRONG, f"{what}: a wrong answer from a changed checkpoint"
                      if not must_refuse else f"{what}: a path of the wrong kind used",
                      f"{_short(a.value, 120)}, expected {_short(expected, 120)}")
    return ANSWER, "", ""

