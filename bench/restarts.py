"""Randomised restarts on large n-queens boards: the first solution, layout included.

    .venv/bin/python bench/restarts.py [--sizes 200 500 1000] [--seeds 3] [--timeout 60]

Each cell runs in a fresh Python process (nothing laid out before it), on the
compiled core, and times from the problem built (``problems.queens.encode``, timed
apart as "encode") to the answer: the links laid out, the core's copy made, and
the search.  Three ways:

* ``mrv``: ``dlx.first(p)``, the plain search (minimum remaining values, options
  in the problem's order), under the time limit;
* ``seeded``: ``dlx.first(p, seed=s)``, the options shuffled by the seed (a second
  problem built and laid out), then the plain search;
* ``restarts``: ``dlx.first(p, restarts=True, seed=s)``: runs of Luby's budgets,
  each with its own random choices, on the one layout.

Every answer is checked (``dlx.is_exact_cover``).  Wall-clock seconds and CPU
seconds of the child are both printed, with the load average: the machine is
shared, and CPU time is the steadier of the two.  The target: restarts find
queens 1000 within 5 s, layout included.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})
import dlx
from problems import queens

n, way, seed, timeout = {n}, {way!r}, {seed}, {timeout}
c0, w0 = time.process_time(), time.perf_counter()
p = queens.encode(n)
c1, w1 = time.process_time(), time.perf_counter()
s = dlx.Stats()
keywords = {{"restarts": True, "seed": seed}} if way == "restarts" else \
    {{"seed": seed}} if way == "seeded" else {{}}
try:
    found = dlx.first(p, stats=s, timeout=timeout, engine="c", **keywords)
    answer = "found" if found is not None and dlx.is_exact_cover(p, found) else "WRONG"
except dlx.BudgetExceeded:
    answer = "unknown"
c2, w2 = time.process_time(), time.perf_counter()
print(json.dumps({{"encode": w1 - w0, "encode_cpu": c1 - c0, "wall": w2 - w1,
                  "cpu": c2 - c1, "nodes": s.nodes, "answer": answer}}))
"""


def cell(n: int, way: str, seed: int, timeout: float) -> dict[str, object]:
    code = CHILD.format(root=str(HERE.parent), n=n, way=way, seed=seed, timeout=timeout)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout * 3 + 120)
    if done.returncode != 0:
        return {"answer": f"error: {done.stderr.strip().splitlines()[-1:]}"}
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 1000])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'n':>5} {'way':9} {'seed':>4}  {'encode s':>8}  {'wall s':>7}  {'cpu s':>6}"
          f"  {'nodes':>11}  answer")
    for n in args.sizes:
        for way in ("mrv", "seeded", "restarts"):
            for seed in range(args.seeds if way != "mrv" else 1):
                r = cell(n, way, seed, args.timeout)
                if "wall" not in r:
                    print(f"{n:5} {way:9} {seed:4}  {r['answer']}")
                    continue
                print(f"{n:5} {way:9} {seed:4}  {r['encode']:8.2f}  {r['wall']:7.2f}"
                      f"  {r['cpu']:6.2f}  {r['nodes']:11,}  {r['answer']}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
