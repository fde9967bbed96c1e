"""Knuth's DLX-PRE against ``dlx.reduce``: what each removes, and how fast (issue 22, point 4).

    .venv/bin/python bench/dlx_pre_compare.py [--dlx-pre PATH] [--record] [--big]

For every ``tests/data/knuth/*.dlx`` that DLX-PRE reads (no bounds: it has none; costs are
left out, neither program looks at them), run DLX-PRE with ``v9`` (its count of removals,
and the number of each option it keeps) and ``dlx.reduce``, and print both.  ``--record``
writes DLX-PRE's answers to ``tests/data/knuth/pre.json``, which ``tests/test_reduce.py``
holds us to, so the tests need no binary.  ``--big`` also runs both on larger generated
instances (items renamed to fit DLX-PRE's 8 characters) and times them.

DLX-PRE is built from Knuth's ``dlx-pre.w`` (github shreevatsa/knuth-literate-programs,
``programs-orig/``) with CWEB's ctangle, outside this repository; the default path is
``/work/knuth/bin/dlx-pre-fast`` (the build without mem counting).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dlx  # noqa: E402

KNUTH = ROOT / "tests" / "data" / "knuth"
REMOVED = re.compile(r"Removed (\d+) options? and (\d+) items?")
FROM = re.compile(r"\| \(from (\d+)\)")


def plain(problem: dlx.ExactCover) -> dlx.ExactCover:
    """``problem`` without costs, its items and colours renamed to fit DLX-PRE's names
    (at most 8 characters, colours a single character); labels kept."""
    names = {item: f"i{k}" for k, item in enumerate(problem.items)}
    hues: dict[Hashable, str] = {}
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

    def entry(e: Hashable) -> Hashable:
        if isinstance(e, dlx.Colored):
            return dlx.Colored(names[e.item], hues.setdefault(e.color, alphabet[len(hues)]))
        return names[e]

    return dlx.ExactCover({label: [entry(e) for e in items]
                           for label, items in problem.options.items()},
                          secondary=[names[i] for i in problem.secondary],
                          primary=[names[i] for i in problem.primary])


def run_dlx_pre(binary: str, problem: dlx.ExactCover) -> tuple[dict[str, Any], float]:
    """DLX-PRE on ``problem`` (labels 0, 1, ...): its removals and kept labels, and seconds."""
    text = dlx.write_dlx(problem)
    started = time.perf_counter()
    done = subprocess.run([binary, "v9"], input=text, capture_output=True, text=True,
                          check=True)
    seconds = time.perf_counter() - started
    found = REMOVED.search(done.stderr)
    assert found, done.stderr
    labels = list(problem.options)
    kept = [labels[int(k) - 1] for k in FROM.findall(done.stdout)]    # Knuth counts from 1
    return {"options": int(found[1]), "items": int(found[2]), "kept": sorted(kept)}, seconds


def ours(problem: dlx.ExactCover) -> tuple[dlx.Reduced, float]:
    started = time.perf_counter()
    reduced = dlx.reduce(problem)
    return reduced, time.perf_counter() - started


def files() -> list[tuple[str, dlx.ExactCover]]:
    out = []
    for path in sorted(KNUTH.glob("*.dlx")):
        problem = dlx.read_dlx(path.read_text())
        if not problem.bounds:
            out.append((path.name, problem))
    return out


def hexominoes() -> dict[str, tuple[tuple[int, int], ...]]:
    """The 35 free hexominoes, grown square by square."""
    from problems.polyominoes import orientations

    shapes: set[tuple[tuple[int, int], ...]] = {((0, 0),)}
    for _ in range(5):
        grown = set()
        for cells in shapes:
            for r, c in cells:
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                    if (r + dr, c + dc) not in cells:
                        grown.add(min(orientations([*cells, (r + dr, c + dc)])))
        shapes = grown
    return {f"H{k}": cells for k, cells in enumerate(sorted(shapes))}


def sudoku_25(givens: float, seed: int = 1) -> str:
    """A 25 x 25 puzzle: a pattern solution with a random ``givens`` share of its cells."""
    import random

    rng = random.Random(seed)
    letters = "123456789ABCDEFGHIJKLMNOP"
    return "".join(letters[(5 * (r % 5) + r // 5 + c) % 25] if rng.random() < givens else "."
                   for r in range(25) for c in range(25))


def big() -> list[tuple[str, Callable[[], dlx.ExactCover]]]:
    from problems import langford, polyominoes, queens
    from problems.sudoku import encode

    hard = ("..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9")
    ring = [(r, c) for r in range(3, 5) for c in range(3, 5)]
    return [
        ("queens-12", lambda: queens.encode(12)),
        ("queens-200", lambda: queens.encode(200)),
        ("langford-16", lambda: langford.encode(16)),
        ("pentominoes-6x10", lambda: polyominoes.encode(rows=6, cols=10)),
        ("pentominoes-8x8-hole", lambda: polyominoes.encode(rows=8, cols=8, holes=ring)),
        ("hexominoes-15x14", lambda: polyominoes.encode(rows=14, cols=15, pieces=hexominoes())),
        ("sudoku-9-hard", lambda: encode(hard)),
        ("sudoku-25-empty", lambda: encode("." * 625)),
        ("sudoku-25-30%", lambda: encode(sudoku_25(0.3), box=(5, 5))),
    ]


def row(name: str, pre: dict[str, Any], reduced: dlx.Reduced, t_pre: float | None = None,
        t_ours: float | None = None) -> str:
    kept_pre = set(pre["kept"])
    extra = sorted(set(reduced.problem.options) - kept_pre, key=repr)
    cells = [name, f"{pre['options']}", f"{len(reduced.removed_options)}", f"{pre['items']}",
             f"{len(reduced.removed_items)}", "yes" if not extra else f"NO {extra[:5]}"]
    if t_pre is not None and t_ours is not None:
        cells += [f"{t_pre:.3f}", f"{t_ours:.3f}"]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dlx-pre", default="/work/knuth/bin/dlx-pre-fast")
    parser.add_argument("--record", action="store_true",
                        help="write DLX-PRE's answers to tests/data/knuth/pre.json")
    parser.add_argument("--big", action="store_true", help="also larger generated instances")
    args = parser.parse_args()
    head = ("| instance | options out: DLX-PRE | ours | items out: DLX-PRE | ours"
            " | ours kept within DLX-PRE's |")
    print(head)
    print("|---" * 6 + "|")
    record = {}
    for name, problem in files():
        pre, _ = run_dlx_pre(args.dlx_pre, plain(problem))
        record[name] = pre
        print(row(name, pre, dlx.reduce(problem)))
    if args.record:
        data = {"about": "What Knuth's DLX-PRE (v9) removes from each tests/data/knuth file it"
                         " reads (no bounds; costs left out): options and items removed, and"
                         " the labels (0, 1, ... as dlx.read_dlx numbers them) of the options"
                         " it keeps. Written by bench/dlx_pre_compare.py --record.",
                "instances": record}
        lines = [f" {json.dumps(name)}: {json.dumps(pre)}" for name, pre in sorted(record.items())]
        text = ('{"about": ' + json.dumps(data["about"]) + ',\n "instances": {\n'
                + ",\n".join(lines) + "\n}}\n")
        assert json.loads(text) == data
        (KNUTH / "pre.json").write_text(text)
        print(f"wrote {KNUTH / 'pre.json'}")
    if args.big:
        print()
        print(head + " DLX-PRE s | ours s |")
        print("|---" * 8 + "|")
        for name, build in big():
            problem = plain(build())
            numbered = dlx.ExactCover(dict(enumerate(problem.options.values())),
                                      secondary=problem.secondary, primary=problem.primary)
            pre, t_pre = run_dlx_pre(args.dlx_pre, numbered)
            reduced, t_ours = ours(numbered)
            print(row(f"{name} ({len(numbered):,} options)", pre, reduced, t_pre, t_ours))


if __name__ == "__main__":
    main()
