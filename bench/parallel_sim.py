"""The simulation behind ``parallel_bench.py simulate``: dlx.parallel's schedules replayed on
W = 1 .. 1,024 workers over measured (or extrapolated) search trees.

Two kinds of tree:

* *measured*: N-queens 16 cut into 10,000 pieces, each timed alone (thread CPU time),
  and the pieces over ``fine`` seconds cut once more and their children timed
  (``parallel_bench.py measure``).  A node's children are real; a task that stops
  inside a node hands back its real unexplored children.
* *extrapolated*: N-queens 22 (about 1,000 CPU-hours of the C core), cut by
  ``dlx.parallel``'s own first cut into 16 pieces per worker, each piece's size by
  Knuth's estimate (``dlx.estimate``, random probes, forced to the piece) and the C
  core's measured rate; below a piece the tree is not known, so a task that stops
  inside one hands back a frontier drawn from a *library of real frontiers*: pieces of
  N-queens 17 stopped part way by a node budget (``dlx.BudgetExceeded.frontier``), each
  frontier piece counted exactly, stored as the share of the remainder each piece holds
  (by nodes) and its share estimate as the worker computes it (Knuth's, relative to the
  stopped piece's), with the fraction of the piece done when it stopped.  A stop at
  fraction f draws a frontier measured at about f (self-similarity: the subtree of a
  big piece of queens 22 is assumed to cut like one of queens 17).

Schedules:

* ``static``: one task per piece, in order, to the first free worker (``executor.map``).
* ``old``: dlx.parallel before issue 23: tasks of up to 64 consecutive pieces, 0.1 s
  budgets (guided near the end), every task paying the round trip on its worker, the
  rest handed back piece by piece to a driver that spends a fixed CPU time per task.
* ``batched``: dlx.parallel now (dlx/parallel/schedule.py, sizing.py): two tasks in flight per
  worker (the next one is there when a task ends, so the round trip is paid only
  when the driver falls behind), a task time of max(0.1 s, 250 round trips,
  4 x W x the driver's CPU per task), guided near the end down to max(20 round trips,
  W x the driver's CPU per task), tasks sized
  by the pieces' estimated shares (at most a 2W-th of the work queued), and the rest
  handed back as one batch; the driver's CPU time per task (half when it takes in a
  task, half when it sends one) is spent one task after another.
"""

from __future__ import annotations

import bisect
import collections
import heapq
import random

TASK_SECONDS, ROUND_TRIPS, DRIVER_SHARE, MAX_TASK = 0.1, 250, 4, 30.0
MAX_CHUNK = 1 << 12


# ----------------------------------------------------------------- measured trees


class Node:
    """A subtree: its time (a leaf's measured time, else the sum of its children's)."""

    __slots__ = ("time", "children", "path")

    def __init__(self, path):
        self.path = path
        self.time = 0.0
        self.children = None


def build_tree(data):
    """The split's tree: every prefix of a piece is a node; the measured pieces and the
    refined sub-pieces are the leaves."""
    nodes = {(): Node(())}

    def node(path):
        if path not in nodes:
            parent = node(path[:-1])
            if parent.children is None:
                parent.children = []
            nodes[path] = Node(path)
            parent.children.append(nodes[path])
        return nodes[path]

    for r in data["pieces"]:
        node(tuple(r["path"])).time = r["seconds"]
    leaves_of_pieces = [nodes[tuple(r["path"])] for r in data["pieces"]]
    for r in data["refined"]:
        node(tuple(r["path"])).time = r["seconds"]

    measured = {id(nodes[tuple(r["path"])]) for r in data["pieces"] + data["refined"]}

    def scale(n, factor):
        n.time *= factor
        for c in n.children or ():
            scale(c, factor)

    def total(n):
        """A node's time: the sum of its children's, which are scaled to its own
        measured time when it was timed too (a piece cut further for the simulation)."""
        if n.children:
            s = sum(total(c) for c in n.children)
            if id(n) in measured and s > 0:
                for c in n.children:
                    scale(c, n.time / s)
            else:
                n.time = s
        return n.time
    total(nodes[()])
    return nodes[()], leaves_of_pieces


def consume(node, budget):
    """Run ``node`` for at most ``budget`` seconds (a leaf runs whole): (seconds spent,
    the unexplored subtrees in search order: its frontier)."""
    if node.children is None or node.time <= budget:
        return node.time, []
    spent, rest = 0.0, []
    for c in node.children:
        if spent >= budget:
            rest.append(c)
        else:
            s, r = consume(c, budget - spent)
            spent += s
            rest.extend(r)
    return spent, rest


def first_cut(root, target):
    """dlx.parallel's first split, on the measured tree: biggest estimated share first
    (one over the number of siblings), until about ``target`` pieces.  Returns the
    pieces in search order (with their shares) and the number of split steps."""
    heap = [(-1.0, (), root)]
    kept, steps = [], 0
    while heap and len(heap) + len(kept) < target:
        share, key, n = heapq.heappop(heap)
        if not n.children:
            kept.append((key, n, -share))           # a measured leaf: not cut further
            continue
        steps += 1
        for k, c in enumerate(n.children):
            heapq.heappush(heap, (share / len(n.children), (*key, k), c))
    pieces = sorted(kept + [(key, n, -share) for share, key, n in heap], key=lambda x: x[0])
    return [(n, w) for _, n, w in pieces], steps


def stop_in_tree(piece, budget):
    """A task stops inside a measured node after ``budget`` seconds: the real frontier,
    weighed as the worker does (each level's pieces share what the level had)."""
    t, w, node = piece
    spent, rest = consume(node, budget)
    base = len(node.path)               # a frontier node's level: its path's length
    levels = collections.Counter(len(n.path) - base for n in rest)
    share, at = w, {}
    for level in range(1, max(levels, default=0) + 1):
        share /= levels[level] + 1
        at[level] = share
    return spent, [(n.time, at[len(n.path) - base], n) for n in rest]


# ------------------------------------------------------------ extrapolated trees


class Library:
    """Real frontiers (see the module's docstring), drawn by the fraction done."""

    def __init__(self, rows, seed=0):
        rows = sorted(rows, key=lambda r: r["f"])
        self.f = [r["f"] for r in rows]
        self.rows = rows
        self.rng = random.Random(seed)

    def draw(self, f):
        k = bisect.bisect_left(self.f, f)
        lo, hi = max(0, k - 3), min(len(self.rows), k + 3)
        return self.rows[self.rng.randrange(lo, hi)]


def stop_by_library(library):
    def stop(piece, budget):
        t, w, _ = piece
        row = library.draw(budget / t)
        rest = t - budget
        return budget, [(rest * ti, w * wi, None) for ti, wi in zip(row["t"], row["w"],
                                                                    strict=True)]
    return stop


# --------------------------------------------------------------------- schedules


def static_makespan(times, workers, trip, driver):
    """Each piece one task, in order, to the first free worker; a single driver."""
    free = [0.0] * workers
    driver_t = 0.0
    end = 0.0
    for t in times:
        w = heapq.heappop(free)
        driver_t = max(driver_t, w) + driver
        finish = driver_t + trip + t
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def old_makespan(pieces, workers, trip, driver, stop, shortest, start=0.0, total=None):
    """dlx.parallel before issue 23 (see the module's docstring).  ``pieces``: (time,
    share, node) in search order; ``stop(piece, budget)`` -> (spent, frontier)."""
    total = sum(p[0] for p in pieces) if total is None else total
    done = 0.0
    queue = collections.deque(pieces)
    events = []
    idle = workers
    now = driver_t = start
    seq = 0
    while queue or events:
        while idle and queue:
            size = min(max(1, len(queue) // (2 * workers)), 64)
            chunk = [queue.popleft() for _ in range(min(size, len(queue)))]
            budget = min(TASK_SECONDS, max(shortest, (total - done) / (4 * workers)))
            left, back = budget, []
            for k, p in enumerate(chunk):
                if left <= 0:
                    back.extend(chunk[k:])
                    break
                if p[0] <= left:
                    left -= p[0]
                    continue
                spent, rest = stop(p, left)
                left -= spent
                back.extend(rest)
                back.extend(chunk[k + 1:])
                break
            driver_t = max(driver_t, now) + driver
            finish = driver_t + trip + (budget - left)
            heapq.heappush(events, (finish, seq, back, budget - left))
            seq += 1
            idle -= 1
        if not events:
            break
        now, _, back, spent = heapq.heappop(events)
        done += spent
        idle += 1
        queue.extendleft(reversed(back))
    return max(now, start)


def batched_makespan(pieces, workers, trip, driver, stop, *, start=0.0, first=None,
                     done=0.0):
    """dlx.parallel now (see the module's docstring).  ``pieces``: (time, share, node) in
    search order; ``first``: the budget (seconds) of a 0.1 s task before the pace is
    known; ``done``: the share of the tree done by the first cut.  Returns (makespan,
    tasks)."""
    tau = min(MAX_TASK, max(TASK_SECONDS, ROUND_TRIPS * trip, DRIVER_SHARE * driver * workers))
    floor = max(20 * trip, driver * workers)
    first = tau if first is None else first * tau / TASK_SECONDS
    queue = collections.deque([list(pieces)])
    queued = sum(p[1] for p in pieces)
    spent = 0.0
    done0 = done
    half = driver / 2
    free = [start] * workers            # when each worker is done with what it holds
    slots = collections.deque(k for _ in range(2) for k in range(workers))
    events = []                          # (lands at the driver, seq, worker, rest, work, done)
    seq = tasks = 0
    clock = start                        # the driver's

    def budget():
        if not spent:
            return first
        b = tau
        per = spent / (done - done0) if done > done0 else 0.0
        if per and 0.1 <= done < 1:
            b = min(b, max(floor, per * (1 - done) / (4 * workers)))
        return b

    def take(b):
        nonlocal queued
        batch = queue.popleft()
        per = spent / (done - done0) if done > done0 and spent else 0.0
        if per:
            want = min(queued / (2 * workers), b / per)
            size, acc = min(len(batch), MAX_CHUNK), 0.0
            for j in range(size):
                acc += batch[j][1]
                if acc >= want:
                    size = j + 1
                    break
        else:
            n = sum(len(x) for x in queue) + len(batch)
            size = min(max(1, n // (2 * workers)), MAX_CHUNK, len(batch))
        chunk, leave = batch[:size], batch[size:]
        if leave:
            queue.appendleft(leave)
        queued -= sum(p[1] for p in chunk)
        return chunk

    def send(k):
        nonlocal clock, seq, tasks
        b = budget()
        chunk = take(b)
        clock += half
        left, share, rest = b, 0.0, []
        for j, p in enumerate(chunk):
            if left <= 0:
                rest.extend(chunk[j:])
                break
            if p[0] <= left:
                left -= p[0]
                share += p[1]
                continue
            used, frontier = stop(p, left)
            left -= used
            share += p[1] - sum(q[1] for q in frontier)
            rest.extend(frontier)
            rest.extend(chunk[j + 1:])
            break
        work = b - left
        begin = max(clock + trip / 2, free[k])
        free[k] = begin + work
        heapq.heappush(events, (free[k] + trip / 2, seq, k, rest, work, share))
        seq += 1
        tasks += 1

    while True:
        while slots and queue:
            send(slots.popleft())
        if not events:
            break
        lands, _, k, rest, work, share = heapq.heappop(events)
        clock = max(clock, lands) + half
        spent += work
        done += share
        if rest:
            queue.appendleft(rest)
            queued += sum(p[1] for p in rest)
        slots.append(k)
    return clock, tasks
