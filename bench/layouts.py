"""Flat lists (Knuth's layout, what dlx uses) versus __slots__ node objects.

Times the inner loop that dominates a search, cover/uncover of three items,
in three variants on the same N-queens table, and the cost of giving a search
its own copy of the links (list copies versus rebuilding an object graph).

    .venv/bin/python bench/layouts.py [N]
"""

from __future__ import annotations

import sys
import time

import dlx
from dlx.links import Links


def queens(n: int) -> dlx.ExactCover:
    opts = {(r, c): [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
            for r in range(n) for c in range(n)}
    sec = [("up", k) for k in range(2 * n - 1)] + [("down", k) for k in range(-n + 1, n)]
    return dlx.ExactCover(opts, secondary=sec)


def flat(t: Links, reps: int, others: bool) -> float:
    U, D, LEN, T = t.ULINK[:], t.DLINK[:], t.LEN[:], t.TOP
    rows = ([tuple(q for q in t.ROW[p] if q != p) for p in range(len(t.ROW))]
            if others else t.ROW)

    def cover(i: int) -> None:
        p = D[i]
        while p != i:
            for q in rows[p]:
                if q != p:
                    u = U[q]
                    d = D[q]
                    D[u] = d
                    U[d] = u
                    LEN[T[q]] -= 1
            p = D[p]

    def uncover(i: int) -> None:
        p = U[i]
        while p != i:
            for q in rows[p]:
                if q != p:
                    U[D[q]] = q
                    D[U[q]] = q
                    LEN[T[q]] += 1
            p = U[p]

    start = time.perf_counter()
    for _ in range(reps):
        cover(1), cover(2), cover(3)
        uncover(3), uncover(2), uncover(1)
    return time.perf_counter() - start


class Node:
    __slots__ = ("U", "D", "C", "others")


class Item:
    __slots__ = ("U", "D", "len")


def objects(t: Links) -> dict[int, object]:
    nodes: dict[int, object] = {}
    for i in range(1, t.N + 1):
        item = Item()
        item.len = t.LEN[i]
        nodes[i] = item
    for x in range(t.N + 2, len(t.TOP)):
        if t.TOP[x] > 0:
            node = Node()
            node.C = nodes[t.TOP[x]]
            nodes[x] = node
    for x, n in nodes.items():
        n.U, n.D = nodes[t.ULINK[x]], nodes[t.DLINK[x]]  # type: ignore[attr-defined]
        if isinstance(n, Node):
            n.others = tuple(nodes[q] for q in t.ROW[x] if q != x)
    return nodes


def slots(t: Links, reps: int) -> float:
    nodes = objects(t)

    def cover(c: Item) -> None:
        p = c.D
        while p is not c:
            for q in p.others:
                u = q.U
                d = q.D
                u.D = d
                d.U = u
                q.C.len -= 1
            p = p.D

    def uncover(c: Item) -> None:
        p = c.U
        while p is not c:
            for q in p.others:
                q.D.U = q
                q.U.D = q
                q.C.len += 1
            p = p.U

    a, b, c = nodes[1], nodes[2], nodes[3]
    start = time.perf_counter()
    for _ in range(reps):
        cover(a), cover(b), cover(c)  # type: ignore[arg-type]
        uncover(c), uncover(b), uncover(a)  # type: ignore[arg-type]
    return time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    t = Links.build(queens(n))
    reps = 20_000
    results = {"flat lists, shared option tuple": min(flat(t, reps, False) for _ in range(3)),
               "flat lists, per-node others": min(flat(t, reps, True) for _ in range(3)),
               "__slots__ node objects": min(slots(t, reps) for _ in range(3))}
    base = results["flat lists, shared option tuple"]
    print(f"cover+uncover of 3 items x {reps:,} on {n}-queens (best of 3):")
    for name, secs in results.items():
        print(f"  {name:<34} {secs:.3f} s   {base / secs:.2f}x")
    start = time.perf_counter()
    for _ in range(200):
        t.copy()
    copy = (time.perf_counter() - start) / 200
    start = time.perf_counter()
    for _ in range(200):
        objects(t)
    graph = (time.perf_counter() - start) / 200
    print(f"per-search copy: flat lists {copy * 1e6:.0f} us, object graph {graph * 1e6:.0f} us"
          f" ({graph / copy:.0f}x)")


if __name__ == "__main__":
    main()
