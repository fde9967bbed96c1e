"""Run every installed peer on a fixed set of tasks and print a Markdown table of timings.

    python bench/peers_table.py [--timeout S] [--repeat R] [--peers a,b] [--json OUT]

Any python will do (standard library only); each measurement is a fresh subprocess in the
peer's venv (bench/peers.py). Cells show seconds (min over --repeat runs) of the task itself;
warm-up (imports, numba compile or cache load) is listed separately. A cell is "n/a" when the
peer has no API for the task, "timeout" past --timeout, and marked "WRONG" when the result
differs from the known answer.
"""

from __future__ import annotations

import argparse
import json
import sys

import common

# (column title, task, args, expected result)
TASKS = [
    ("queens 8", "queens", (8,), 92),
    ("queens 10", "queens", (10,), 724),
    ("queens 12", "queens", (12,), 14200),
    ("sudoku easy50", "sudoku", ("norvig_easy50.txt", 50), 50),
    ("sudoku 17-clue x100", "sudoku", ("tdoku_17_clue_sample2000.txt", 100), 100),
]


def cell(r: dict, expected) -> str:
    err = r.get("error", "")
    if "no exact-cover API" in err:
        return "n/a"
    if err.startswith("timeout"):
        return "timeout"
    if err:
        return "error"
    s = f"{r['seconds']:.4f}"
    return s if r["result"] == expected else f"{s} WRONG ({r['result']})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per subprocess")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--peers", default="", help="comma-separated subset (default: all found)")
    ap.add_argument("--json", default="", help="also write every JSON result to this file")
    ns = ap.parse_args(argv)
    peers = [p for p in ns.peers.split(",") if p] or common.available_peers()
    if not peers:
        print("no peer venvs found; run: bash bench/setup_peers.sh", file=sys.stderr)
        return 1

    results = []
    rows = []
    for peer in peers:
        line = [peer, "", ""]
        for title, task, args, expected in TASKS:
            r = common.run_peer(peer, task, *args, timeout=ns.timeout,
                                options=("--repeat", str(ns.repeat)))
            results.append(r)
            print(f"{peer:15} {title:22} {json.dumps(r)}", file=sys.stderr)
            line.append(cell(r, expected))
            if r.get("version"):
                line[1] = r["version"]
            if "warmup_seconds" in r:
                line[2] = f"{r['warmup_seconds']:.2f}"
        rows.append(line)

    head = ["peer", "version", "warm-up s"] + [t[0] for t in TASKS]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for line in rows:
        print("| " + " | ".join(line) + " |")
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
