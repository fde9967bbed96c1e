"""The Sudoku fast path against the PyPI peers, in one run: puzzles per second.

    .venv/bin/python bench/sudoku_fast.py [--runs 3] [--repeat 3] [--peers exact_cover_py xcover]

Sets: 1,000 puzzles of each shared sample (every 2nd line, starting with the first:
the 17-clue sample and the forum-hardest 11+ sample).  Tasks: ``solve`` (first
solution) and ``unique`` (search stops at a second solution; the answer is checked
to be unique).  Parsing is included everywhere: for us, reading the file and
``problems.sudoku.solve_lines`` (which places the givens inside the compiled core),
and the whole ``dlx sudoku solve`` command in-process (``cli``, output to a string);
for the peers, ``bench/peers.py <peer> sudoku|sudoku_unique FILE 1000`` in their venvs
(reading the file, the shared encoding, their search).

Each run measures every entry once (ours: the minimum of ``--repeat`` calls; peers:
``--repeat`` inside peers.py, minimum), entries interleaved; the table shows the
median over ``--runs`` runs, and how many times the fastest peer's puzzles/s we do.
Our one-off set-up (the full 729-option matrix, built once per shape) is reported
apart, like the peers' warm-up.  Answers are checked after the clock stops.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import common  # noqa: E402

from dlx import engine  # noqa: E402
from dlx.cli import main as dlx_main  # noqa: E402
from problems import sudoku  # noqa: E402

SETS = {"17-clue": "tdoku_17_clue_sample2000.txt",
        "forum-hardest": "tdoku_forum_hardest_1905_11plus_sample2000.txt"}
PEER_TASK = {"solve": "sudoku", "unique": "sudoku_unique"}


def ours(path: Path, task: str, repeat: int) -> tuple[float, list[str | None]]:
    best, out = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        with open(path) as f:
            lines = f.read().splitlines()
        out = sudoku.solve_lines(lines, unique=task == "unique")
        best = min(best, time.perf_counter() - start)
    return best, out


def ours_cli(path: Path, task: str, repeat: int) -> tuple[float, list[str | None]]:
    argv = ["sudoku", "solve", "--quiet", str(path)] + (["--unique"] if task == "unique" else [])
    best, text = float("inf"), ""
    for _ in range(repeat):
        buffer = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(buffer):
            code = dlx_main(argv)
        best = min(best, time.perf_counter() - start)
        text = buffer.getvalue()
        assert code == 0, code
    return best, [line or None for line in text.splitlines()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n", type=int, default=1000, help="puzzles per set (every 2nd line)")
    ap.add_argument("--peers", nargs="*", default=["exact_cover_py", "xcover"])
    args = ap.parse_args()
    if not engine.available():
        print("note: dlx._core is not built; this measures the pure-Python fallback")
    tmp = Path(tempfile.mkdtemp(prefix="sudoku_fast_"))
    files: dict[str, Path] = {}
    for name, source in SETS.items():
        lines = common.load_sudoku(source)[::2][:args.n]
        files[name] = tmp / f"{name}.txt"
        files[name].write_text("\n".join(lines) + "\n")
    start = time.perf_counter()
    sudoku.solve_lines([files["17-clue"].read_text().split()[0]])
    setup = time.perf_counter() - start
    peers = [p for p in args.peers if p in common.available_peers()]
    entries = ["dlx solve_lines", "dlx sudoku (CLI)", *peers]
    seconds: dict[tuple[str, str, str], list[float]] = {}
    warmup: dict[str, float] = {"dlx solve_lines": setup}
    for run in range(args.runs):
        for name, path in files.items():
            puzzles = path.read_text().split()
            for task in ("solve", "unique"):
                for entry in entries:
                    if entry == "dlx solve_lines":
                        secs, answers = ours(path, task, args.repeat)
                    elif entry == "dlx sudoku (CLI)":
                        secs, answers = ours_cli(path, task, args.repeat)
                    else:
                        r = common.run_peer(entry, PEER_TASK[task], path, args.n, timeout=1800,
                                            options=("--repeat", str(args.repeat)))
                        if r.get("result") != len(puzzles):
                            print(f"{entry} {name} {task}: {r.get('error') or r}")
                            continue
                        secs = r["seconds"]
                        warmup[entry] = r.get("warmup_seconds", 0.0)
                        answers = None
                    if answers is not None:
                        bad = [k for k, (p, s) in enumerate(zip(puzzles, answers, strict=True))
                               if not common.sudoku_ok(p, s)]
                        assert not bad, f"{entry} {name} {task}: wrong answers at {bad[:10]}"
                    seconds.setdefault((name, task, entry), []).append(secs)
                    print(f"run {run + 1} {name:13} {task:6} {entry:18} {secs:8.4f} s",
                          file=sys.stderr)
    print(f"\n{args.n} puzzles per set; median of {args.runs} runs (each the min of "
          f"{args.repeat}); parsing included\n")
    print("| set | task | " + " | ".join(entries) + " | ours / fastest peer |")
    print("|---|---|" + "---|" * (len(entries) + 1))
    for name in files:
        for task in ("solve", "unique"):
            rate = {e: args.n / statistics.median(seconds[(name, task, e)])
                    for e in entries if (name, task, e) in seconds}
            cells = [f"{rate[e]:,.0f}/s" if e in rate else "-" for e in entries]
            best_peer = max((rate[p] for p in peers if p in rate), default=0.0)
            ratio = f"{rate['dlx solve_lines'] / best_peer:.1f}x" if best_peer else "-"
            print(f"| {name} | {task} | " + " | ".join(cells) + f" | {ratio} |")
    print("\nwarm-up (outside the times): " +
          ", ".join(f"{e} {s:.2f} s" for e, s in warmup.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
