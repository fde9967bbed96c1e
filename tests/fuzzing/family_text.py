"""The family "text": malformed DLX files, read by :func:`dlx.read_dlx` and ``dlx solve``."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import dlx
from dlx import Colored

from .commands import Ran, _case_dir, _files_script, _state, cli_verdict, run_dlx, shell_line
from .core import (
    _BIG_V,
    BUDGET,
    RAW,
    RUNAWAY,
    WRONG,
    Case,
    Spec,
    Verdict,
    _short,
    attempt,
    engines,
    exception_key,
    oracle,
    reproducer,
    score,
)

# ------------------------------------------------------------------ the family "text"

_DLX_PRIMARY = ["a", "b", "c", "d", "e", "f", "A1", "é", "日本", "x_y", "#1", "a.b"]
_DLX_SECONDARY = ["s", "t", "u", "ü", "v9"]
_DLX_COLOURS = ["R", "G", "0", "blue", "é"]


def random_dlx(rng: random.Random) -> tuple[str, Spec]:
    """A valid DLX file (items, bounds, secondary items, colours, costs, comments) and the
    problem it describes, written from first principles (not by :func:`dlx.write_dlx`)."""
    prim = rng.sample(_DLX_PRIMARY, rng.randrange(1, 6))
    sec = rng.sample(_DLX_SECONDARY, rng.choice([0, 0, 1, 2, 3]))
    bounds: dict[Hashable, tuple[int, int]] = {}
    words = []
    for name in prim:
        if rng.random() < 0.25:
            u = rng.choice([0, 1, 2])
            v = max(u, 1) + rng.choice([0, 1, 2])
            if rng.random() < 0.1:
                v = rng.choice(_BIG_V[:4])
            words.append(f"{v}|{name}" if u == v and rng.random() < 0.5 else f"{u}:{v}|{name}")
            if (u, v) != (1, 1):
                bounds[name] = (u, v)
        else:
            words.append(name)
    line = " ".join(words)
    if sec:
        line += rng.choice([" | ", " |", "  |  "]) + " ".join(sec)
    lines = [line]
    if rng.random() < 0.3:
        lines.insert(0, rng.choice(["| a comment", "|", "   | indented comment", ""]))
    options: dict[Hashable, list[Hashable]] = {}
    costs: dict[Hashable, Any] = {}
    for _ in range(rng.randrange(1, 9)):
        entries: list[Hashable] = rng.sample(prim, rng.randrange(0 if rng.random() < 0.1 else 1,
                                                                 min(3, len(prim)) + 1))
        for s in rng.sample(sec, rng.randrange(0, min(2, len(sec)) + 1)):
            entries.append(Colored(s, rng.choice(_DLX_COLOURS)) if rng.random() < 0.5 else s)
        rng.shuffle(entries)
        tokens = [f"{e.item}:{e.color}" if isinstance(e, Colored) else str(e) for e in entries]
        cost = 0
        if tokens and rng.random() < 0.3:
            for _ in range(rng.choice([1, 1, 2])):
                c = rng.choice([0, 1, 2, 7, 10, 99, 2**31, 2**63])
                tokens.insert(rng.randrange(1, len(tokens) + 1), f"|{c}")
                cost += c
        if not tokens:
            continue
        lines.append(rng.choice([" ", " ", " ", "  ", "\t"]).join(tokens))
        if any(not isinstance(e, Colored) and e in prim for e in entries):
            label = len(options)
            options[label] = entries
            if cost:
                costs[label] = cost
        if rng.random() < 0.15:
            lines.append(rng.choice(["| comment", "", "   ", "|x y z"]))
    text = "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")
    return text, Spec(options, sec, prim, bounds, costs)


_BAD_BOUNDS = ["a", "b:1", "3:2", "0", "0:0", ":1", "1:", "", "-1", "+1", "1_0", "\u0661",
               "\u0661:\u0662", "1:2:3", "0x10", "1e3", "\u00b2", "1 :2", "99999999999999999999",
               "1:" + "9" * 5000, "9" * 4301, "2:2", "0:1"]
_COST_TOKENS = ["|", "|-1", "|1.5", "|+1", "|1_000", "|\u00b2", "|\u0663", "||1", "|0", "|00",
                "|" + "9" * 30, "|1|2", "|a", "|" + "9" * 4301, "|" + "9" * 5000, "| 1"]
_JUNK = ["\x00", "\x01", "\x7f", "\x85", "\u2028", "\ufeff", "\udcff", "\t", "\x0b", "\x0c",
         "\r", "\x1c", "\u00a0", "\u3000", "\u200b", "\ud800", "\x1b[31m", "[/red]"]
_BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xef\xbb\xbf", b"\xfe\xff",
              b"\xf4\x90\x80\x80"]


def _mutate(rng: random.Random, text: str, spec: Spec) -> tuple[str, list[str]]:
    """Some hostile edits of a DLX file's text; returns the text and what was done."""
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        lines = text.split("\n")
        what = rng.choice(["truncate", "bounds", "huge", "cost", "colour", "junk", "long",
                           "duplicate", "delete", "swap", "bars", "newlines", "many", "digits",
                           "empty", "items"])
        k = rng.randrange(len(lines))
        opt = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        if what == "truncate":
            text = text[:rng.randrange(len(text) + 1)]
        elif what == "bounds":
            target = rng.choice(spec.primary or ["a"])
            bad = f"{rng.choice(_BAD_BOUNDS)}|{target}"
            pattern = rf"(^|\s)(\S*\|)?{re.escape(target)}(?=\s|$)"
            lines[0] = re.sub(pattern, lambda m, bad=bad: m.group(1) + bad, lines[0], count=1)
            text = "\n".join(lines)
        elif what == "huge":
            digits = "9" * rng.choice([19, 20, 64, 400, 4301, 5000])
            if re.search(r"\d+", text) and rng.random() < 0.6:
                spots = list(re.finditer(r"(?<=[|:])\d+|\d+(?=[:|])", text))
                if spots:
                    m = rng.choice(spots)
                    text = text[:m.start()] + digits + text[m.end():]
                else:
                    text = text.replace("|", f"|{digits}", 1)
            else:
                lines[opt] = lines[opt] + f" |{digits}"
                text = "\n".join(lines)
        elif what == "cost":
            words = lines[opt].split(" ")
            words.insert(rng.randrange(len(words) + 1), rng.choice(_COST_TOKENS))
            lines[opt] = " ".join(words)
            text = "\n".join(lines)
        elif what == "colour":
            s = rng.choice(spec.secondary or ["s"])
            p = rng.choice(spec.primary or ["a"])
            token = rng.choice([f"{s}:", ":R", f"{s}:R:G", f"{p}:R", f"{s}:" + "R" * 1000,
                                "zz:R", f"{s}:R {s}:G", f"{s}:\udcff", f"{s}::"])
            lines[opt] += " " + token
            text = "\n".join(lines)
        elif what == "junk":
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(_JUNK) + text[at:]
        elif what == "long":
            n = rng.choice([300_000, 600_000, 1_100_000])
            line = rng.choice(["a " * (n // 2), "a" * n, " ".join(f"i{j}" for j in range(n // 6)),
                               "| " + "x" * n])
            lines.insert(rng.randrange(len(lines) + 1), line)
            text = "\n".join(lines)
        elif what == "duplicate":
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        elif what == "delete":
            del lines[k]
            text = "\n".join(lines)
        elif what == "swap":
            lines[k], lines[opt] = lines[opt], lines[k]
            text = "\n".join(lines)
        elif what == "bars":
            lines[0] = lines[0].replace(" ", rng.choice([" || ", "|", " | | ", " |"]), 1)
            text = "\n".join(lines)
        elif what == "newlines":
            text = rng.choice([text.replace("\n", "\r\n"), text.replace("\n", "\r"),
                               text.rstrip("\n"), text + "\n\n\n"])
        elif what == "many":
            lines[opt:opt] = [lines[opt]] * rng.randrange(15, 60)
            text = "\n".join(lines)
        elif what == "digits":
            table = rng.choice([str.maketrans("0123456789", "\u0660\u0661\u0662\u0663\u0664"
                                              "\u0665\u0666\u0667\u0668\u0669"),
                                str.maketrans("0123456789", "０１２３４５６７８９")])
            text = text.translate(table)
        elif what == "empty":
            text = rng.choice(["", "\n", "| only a comment\n", "   \n\t\n", "|"])
        else:   # items: a strange item line
            lines[0] = rng.choice(["a a", "| a", "a | a", "a:b", "a | b:c", "a b |",
                                   " ".join(f"i{j}" for j in range(5000)), "a\x00b", "-", "|a b",
                                   "a | b | c"])
            text = "\n".join(lines)
        done.append(what)
    return text, done


def _encode(text: str) -> bytes:
    """UTF-8, a lone surrogate from undecodable input as its byte again, any other as the
    (invalid) bytes UTF-8 would give it."""
    return b"".join(c.encode("utf-8", "surrogateescape" if "\udc80" <= c <= "\udcff"
                             else "surrogatepass") for c in text)


def _same_problem(a: dlx.ExactCover, b: dlx.ExactCover) -> str | None:
    """Why two problems differ (items, options, bounds, costs), or None."""
    for name in ("primary", "secondary", "options", "bounds", "costs"):
        x, y = getattr(a, name), getattr(b, name)
        if (list(x.items()) if isinstance(x, dict) else list(x)) != \
                (list(y.items()) if isinstance(y, dict) else list(y)):
            return f"{name}: {_short(repr(x), 100)} vs {_short(repr(y), 100)}"
    return None


def _case_text(rng: random.Random, case: Case) -> None:
    text, spec = random_dlx(rng)
    mutations: list[str] = []
    if rng.random() < 0.8:
        text, mutations = _mutate(rng, text, spec)
    data = _encode(text)
    if rng.random() < 0.1:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice(_BAD_BYTES) + data[at:]
        mutations.append("bytes")
    variant = rng.choice([["--count"], [], ["--format", "jsonl"], ["--best", "3"],
                          ["--count", "--format", "jsonl"], ["--limit", "2"], ["--count", "-q"],
                          ["--stats", "--count"]])
    argv = ["solve", "p.dlx", "--max-nodes", str(BUDGET), *variant]
    env = rng.choice([{"PYTHONIOENCODING": "ascii"}, {"DLX_ENGINE": "python"}]) \
        if rng.random() < 0.2 else {}
    cap = max(1_000_000, len(data) + 1)
    setup = "TEXT = DATA.decode('utf-8', 'surrogateescape')"
    expr = f"dlx.read_dlx(io.StringIO(TEXT, newline=None), max_line_length={cap})"
    title = f"{'+'.join(mutations) or 'valid'} file, dlx solve {' '.join(variant)}".strip()
    case.title = title
    shown = repr(data) if len(data) <= 400 else f"<{len(data):,} bytes: rerun the case>"
    case.repro = (reproducer(f"DATA = {shown}\n" + setup, expr) + "\n\n"
                  + _files_script({"p.dlx": data}) + "\n" + shell_line(argv, env))
    case.allowance = 60.0

    def run() -> tuple[str, str, str]:
        read = attempt(setup, expr, extra={"DATA": data})
        if read.status == "raw":
            raise Verdict(RAW, f"read_dlx: {exception_key(read.error)}", read.describe())
        if read.status == "memory":
            raise Verdict(RUNAWAY, "read_dlx: MemoryError", read.describe())
        direct = attempt("", "dlx.read_dlx(DATA.decode('utf-8', 'surrogateescape'))",
                         extra={"DATA": data})
        if direct.status == "raw":
            raise Verdict(RAW, f"read_dlx(str): {exception_key(direct.error)}",
                          direct.describe())
        p = read.value
        n: int | None = None
        cheapest: list[Any] | None = None
        if read.status == "answer":
            if direct.status == "answer" and _same_problem(p, direct.value):
                raise Verdict(WRONG, "read_dlx: a str and a stream read differently",
                              _same_problem(p, direct.value) or "")
            if not mutations:
                why = _same_problem(p, spec.build())
                if why:
                    raise Verdict(WRONG, "read_dlx misreads a valid file", why)
            _round_trip(p)
            n, cheapest = _count_both(p)
        ran = run_dlx(argv, cwd=_case_dir_now(), env=env, timeout=45)
        kind, _, _ = cli_verdict(ran, "dlx solve FILE", allowed=(0, 1, 2, 124),
                                 stats="--stats" in variant)
        if read.status == "clean":
            e = read.error
            if ran.code != 2:
                raise Verdict(WRONG, "dlx solve accepts a file read_dlx refuses",
                              f"read_dlx: {e}; dlx solve exit {ran.code}")
            line = getattr(e, "line", None)
            if line is not None and f"p.dlx:{line}" not in ran.stderr:
                raise Verdict(WRONG, "dlx solve and read_dlx name different lines",
                              f"read_dlx: {e}; dlx solve: {_short(ran.stderr, 160)}")
            return kind, "", ""
        if ran.code == 2:
            raise Verdict(WRONG, "dlx solve refuses a file read_dlx reads",
                          _short(ran.stderr, 200))
        if ran.code in (0, 1) and n is not None:
            _check_solve_output(ran, variant, n, cheapest, bool(p.bounds))
        return kind, "", ""

    def runner() -> tuple[str, str, str]:
        d = _case_dir(case)
        (d / "p.dlx").write_bytes(data)
        return run()

    case.run = runner


def _case_dir_now() -> Path:
    return _state["case dir"]


def _round_trip(p: dlx.ExactCover) -> None:
    """write_dlx then read_dlx gives the problem back (or write_dlx refuses cleanly)."""
    written = attempt("", "dlx.write_dlx(P)", extra={"P": p})
    if written.status == "raw":
        raise Verdict(RAW, f"write_dlx: {exception_key(written.error)}", written.describe())
    if written.status != "answer":
        return
    again = attempt("", "dlx.read_dlx(TEXT)", extra={"TEXT": written.value})
    if again.status != "answer":
        raise Verdict(WRONG, "read_dlx refuses what write_dlx wrote",
                      f"{again.describe()}; written: {_short(written.value, 120)}")
    why = _same_problem(p, again.value)
    if why:
        raise Verdict(WRONG, "write_dlx then read_dlx changes the problem", why)


def _count_both(p: dlx.ExactCover) -> tuple[int | None, list[Any] | None]:
    """The count on both engines, against the oracle when the problem is small; and the
    three cheapest costs by the oracle (None when it is too big to enumerate)."""
    spec = Spec.of(p)
    small = len(spec.eligible()) <= 14
    truth = oracle(spec) if small else None
    counts = {}
    for engine in engines():
        a = attempt("", "dlx.count(P, max_nodes=BUDGET, engine=ENGINE)", engine, extra={"P": p})
        if a.status == "raw":
            raise Verdict(RAW, f"count of a file: {exception_key(a.error)}",
                          f"engine={engine}: {a.describe()}")
        if a.status == "answer":
            counts[engine] = a.value
            if truth is not None and a.value != len(truth):
                raise Verdict(WRONG, f"count of a file{' (bounds)' if p.bounds else ''}"
                              " differs from the oracle",
                              f"engine={engine}: {a.value}, oracle {len(truth)}")
    if len(set(counts.values())) > 1:
        raise Verdict(WRONG, "count of a file: the engines disagree", repr(counts))
    if truth is None:
        return (next(iter(counts.values())) if counts else None), None
    return len(truth), sorted(score(spec, s, spec.cost) for s in truth)[:3]


def _check_solve_output(ran: Ran, variant: list[str], n: int, cheapest: list[Any] | None,
                        bounded: bool) -> None:
    out = ran.stdout
    lines = out.splitlines()
    if "--count" in variant:
        got = json.loads(lines[-1])["count"] if "jsonl" in variant and lines else \
            (lines[-1] if lines else "")
        if str(got) != str(n):
            raise Verdict(WRONG, "dlx solve --count differs from the oracle",
                          f"printed {_short(out, 80)!r}, oracle {n}")
        return
    if "--best" in variant:
        if cheapest is None:
            return
        costs = [line.split(":")[0] for line in lines]
        want = [str(c) for c in cheapest]
        if costs != want:
            raise Verdict(WRONG, "dlx solve --best differs from the oracle"
                          f"{' (bounds)' if bounded else ''}",
                          f"costs {costs}, oracle {want}")
        return
    want = min(n, 2) if "--limit" in variant else n
    if len(lines) != want:
        raise Verdict(WRONG, "dlx solve lists a wrong number of solutions",
                      f"{len(lines)} lines, oracle {want}")
    if "jsonl" in variant:
        for line in lines:
            json.loads(line)
