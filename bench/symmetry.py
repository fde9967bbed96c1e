"""Symmetry: finding the group, counting up to it, and counting faster by it.

Run by hand: ``.venv/bin/python bench/symmetry.py [--repeats 3] [--long]``
(the ``symmetry`` extra, pynauty, installed: it is in ``dev``).

1. *Detection*: the time ``dlx.symmetries`` takes on every problem of the catalog
   (nauty on the coloured incidence graph), beside the time one round of colour
   refinement takes in pure Python on the same graph (where a search for the group
   written here would start, and which it would repeat at every node of its own
   search tree): why the group is found with nauty.
2. *Orbits*: ``dlx.count(p, up_to_symmetry=True)`` on the generic encodings (no
   hand-made reduction) against the published numbers: queens 4..12 (OEIS
   A002562), the 6x10, 5x12 and 3x20 pentomino boxes, Langford pairs 7 and 8
   (``--long`` adds queens 13 and 14, the 4x15 box and Langford 11).
3. *Speed*: ``count(p, symmetry=True)`` against ``count(p)`` in the same run, CPU
   time (the best of ``--repeats`` interleaved runs), the group's detection
   included; the target is at most 0.4 on queens 13 and 14 and the generic 6x10
   box.
4. *Choices*: what each choice of the items covered above the search gains, in
   nodes: the chosen item alone (orbital branching), its orbit (canonical
   augmentation; the item alone where the orbit has too many ways, the default), or
   whole orbits only (what listing one solution per orbit uses), against the plain
   count.

Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dlx  # noqa: E402
from dlx import orbits  # noqa: E402
from dlx.options import Options  # noqa: E402
from dlx.symmetry import Incidence  # noqa: E402
from problems import catalog, langford, polyominoes, queens  # noqa: E402

TARGET = 0.4


def refinement_round(p: dlx.ExactCover) -> float:
    """Seconds for colour refinement (one round per level, to its fixed point) of the
    incidence graph, in pure Python."""
    started = time.process_time()
    inc = Incidence(p)
    m, n = len(inc.labels), len(inc.items)
    adjacent: list[list[int]] = [[] for _ in range(m + n)]
    for o, row in enumerate(inc.rows):
        for i, _ in row:
            adjacent[o].append(m + i)
            adjacent[m + i].append(o)
    colour = [0] * m + [1] * n
    cells = 2
    while True:
        seen = [(colour[v], tuple(sorted(colour[u] for u in adjacent[v]))) for v in range(m + n)]
        names = {s: k for k, s in enumerate(sorted(set(seen)))}
        colour = [names[s] for s in seen]
        if len(names) == cells:
            return time.process_time() - started
        cells = len(names)


def detection() -> None:
    print("## Detection\n")
    print("| problem | options | order | nauty (dlx.symmetries) ms | colour refinement in"
          " Python ms |")
    print("|---|---|---|---|---|")
    for inst in catalog.instances():
        p = inst.problem()
        started = time.process_time()
        order = dlx.symmetries(p).order
        took = time.process_time() - started
        print(f"| {inst.name} | {len(p):,} | {order} | {1000 * took:.1f} |"
              f" {1000 * refinement_round(p):.1f} |", flush=True)
    print()


def orbit_targets(long: bool) -> bool:
    print("## Orbits (generic encodings)\n")
    print("| problem | published | dlx.count(up_to_symmetry=True) | seconds | |")
    print("|---|---|---|---|---|")
    cases: list[tuple[str, Callable[[], dlx.ExactCover], int]] = [
        (f"queens {n}", lambda n=n: queens.encode(n), queens.ORBITS[n])
        for n in range(4, 15 if long else 13)]
    boxes = [(6, 10, 2339), (5, 12, 1010), (3, 20, 2)] + ([(4, 15, 368)] if long else [])
    cases += [(f"pentominoes {r}x{c}", lambda r=r, c=c: polyominoes.encode(rows=r, cols=c), k)
              for r, c, k in boxes]
    cases += [(f"langford {n}", lambda n=n: langford.encode(n), langford.COUNTS[n] // 2)
              for n in ((7, 8, 11) if long else (7, 8))]
    ok = True
    for name, make, published in cases:
        started = time.perf_counter()
        got = dlx.count(make(), up_to_symmetry=True)
        took = time.perf_counter() - started
        ok = ok and got == published
        print(f"| {name} | {published:,} | {got:,} | {took:.2f} |"
              f" {'met' if got == published else 'MISSED'} |", flush=True)
    print()
    return ok


def cpu(make: Callable[[], dlx.ExactCover], **keywords: object) -> tuple[float, int, dlx.Stats]:
    p = make()                      # a fresh problem: nothing of an earlier run is kept
    stats = dlx.Stats()
    started = time.process_time()
    n = dlx.count(p, stats=stats, **keywords)   # type: ignore[arg-type]
    return time.process_time() - started, n, stats


def speed(repeats: int, long: bool) -> bool:
    print("## Speed: count(symmetry=True) against count(), CPU seconds, same run\n")
    print(f"load average {os.getloadavg()[0]:.2f}; best of {repeats} interleaved runs;"
          " detection included\n")
    print("| problem | count | count() s | nodes | count(symmetry=True) s | nodes |"
          " ratio (time) | ratio (nodes) | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    cases: list[tuple[str, Callable[[], dlx.ExactCover], bool]] = [
        ("queens 13", lambda: queens.encode(13), True),
        ("queens 14", lambda: queens.encode(14), True),
        ("pentominoes 6x10", lambda: polyominoes.encode(rows=6, cols=10), True),
        ("pentominoes 5x12", lambda: polyominoes.encode(rows=5, cols=12), False),
        ("langford 11", lambda: langford.encode(11), False)]
    if long:
        cases.append(("langford 12", lambda: langford.encode(12), False))
    ok = True
    for name, make, target in cases:
        plain = by = float("inf")
        for _ in range(repeats):
            t, n, s = cpu(make)
            plain = min(plain, t)
            t, m, ss = cpu(make, symmetry=True)
            by = min(by, t)
            assert m == n, (name, m, n)
        ratio = by / plain
        met = "-" if not target else ("met" if ratio <= TARGET else "MISSED")
        ok = ok and (not target or ratio <= TARGET)
        print(f"| {name} | {n:,} | {plain:.3f} | {s.nodes:,} | {by:.3f} | {ss.nodes:,} |"
              f" {ratio:.3f} | {ss.nodes / s.nodes:.3f} | {met} |", flush=True)
    print()
    return ok


def choices() -> None:
    print("## What each choice above the search gains (nodes)\n")
    print("| problem | plain nodes | item alone: roots | nodes | ratio | its orbit: roots |"
          " nodes | ratio | whole orbits only: roots | nodes | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    natural = dlx.ExactCover(
        {(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
         for r in range(12) for c in range(12)},
        secondary=[("up", k) for k in range(23)] + [("down", k) for k in range(-11, 12)])
    cases = [("queens 12 (rows in order)", natural)]
    cases += [(f"queens {n}", queens.encode(n)) for n in (12, 13, 14)]
    cases += [(f"pentominoes {r}x{c}", polyominoes.encode(rows=r, cols=c))
              for r, c in ((6, 10), (5, 12), (3, 20))]
    cases += [("langford 11", langford.encode(11))]
    for name, p in cases:
        plain = dlx.Stats()
        n = dlx.count(p, stats=plain)
        sym = dlx.symmetries(p)
        row = [name, f"{plain.nodes:,}"]
        for rule in ("item", "orbit", "strict"):
            s = dlx.Stats()
            assert orbits.count_by_symmetry(p, sym, Options(stats=s), rule=rule) == n
            row += [f"{len(orbits.roots(sym, rule=rule)[0]):,}", f"{s.nodes:,}",
                    f"{s.nodes / plain.nodes:.3f}"]
        print("| " + " | ".join(row) + " |", flush=True)
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each count (best)")
    parser.add_argument("--long", action="store_true", help="the longer cases too")
    parser.add_argument("--only", choices=["detection", "orbits", "speed", "choices"],
                        help="one section")
    args = parser.parse_args()
    ok = True
    if args.only in (None, "detection"):
        detection()
    if args.only in (None, "orbits"):
        ok = orbit_targets(args.long) and ok
    if args.only in (None, "speed"):
        ok = speed(args.repeats, args.long) and ok
    if args.only in (None, "choices"):
        choices()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
