"""Regenerate ``tests/data/knuth/answers.json`` from Knuth's own programs.

Run by hand (it builds nothing; /work/knuth/README.txt says how the binaries were built)::

    .venv/bin/python bench/knuth_answers.py /work/knuth/bin            # rewrite answers.json
    .venv/bin/python bench/knuth_answers.py /work/knuth/bin --check    # compare, write nothing

Every ``tests/data/knuth/*.dlx`` is classified by what its text uses (bounds ``a:b|x`` in
the item line, costs ``|n`` in options, colours ``x:c``, sharp items ``#x``) and given to
each program that reads it (the checked builds, as Knuth wrote them):

- ``count``, ``nodes``: DLX3 with bounds, DLX2 with colours, else DLX1 (the search without
  costs or caching; nodes are the root plus every option tried, and DLX3's null choices).
  With costs only ``count``, from DLX2 on the text without its ``|n`` tokens.
- ``best``: DLX5's optimum cost (``"1"``), and its 5 best (``"5"``, DLX5 ``k5``) when the
  instance has costs; not with bounds (DLX5 has none).
- ``dlx6``: DLX6, counting by caching (no bounds, no costs): ``count``, ``nodes`` (its
  "search nodes"), ``zdd_nodes``, ``hits`` (cache hits).
- ``pre``: DLX-PRE (no bounds, no costs): ``removed_options``, ``removed_items``,
  ``rounds`` from "Removed N options and M items, after ..., R rounds"; ``options_left`` and
  ``items_left`` ([primary, secondary]) of the reduced problem it prints, which is saved as
  ``tests/data/knuth/pre/<name>`` (and counted again by DLX2: it must have ``count``
  solutions).
- ``sharp``: dlx2-sharp (DLX2 with ``dlx2-sharp.ch``: branch on an item whose name starts
  with ``#`` unless some item has at most one option), for instances with such items:
  ``count``, ``nodes``.

Every program's count must equal ``count``; the script stops otherwise.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "knuth"
SOURCE = (
    "counts, nodes and k best costs printed by Knuth's DLX1/DLX2/DLX3/DLX5/DLX6 (github "
    "ascherer/cwebtest, built outside the repository) on these instance files, which are our "
    "own; nodes are DLX1-DLX3's (the search without costs or caching); 'dlx6' is DLX6's "
    "count, search nodes, ZDD nodes and cache hits; 'pre' is DLX-PRE's reduction (the reduced "
    "problems are in pre/); 'sharp' is dlx2-sharp's count and nodes (dlx2.w with "
    "dlx2-sharp.ch). Regenerate with bench/knuth_answers.py BIN_DIR."
)
TIMEOUT = 300

ALTOGETHER = re.compile(r"Altogether (\d+) solutions?,")
NODES = re.compile(r" (\d+) nodes[,.]")
DLX6 = re.compile(r" (\d+) search nodes, (\d+) ZDD nodes, \d+\+\d+ signatures, (\d+) hits")
REMOVED = re.compile(r"Removed (\d+) options? and (\d+) items?, after .*?, (\d+) rounds?\.")
OPTIMUM = re.compile(r"The optimum cost is \$(-?\d+)")
COST_LINE = re.compile(r"^ \$(-?\d+)(?: \(repeated (\d+) times\))?$")


class KnuthError(RuntimeError):
    """A program failed or printed something this script can't read."""


def features(text: str) -> dict[str, bool]:
    """What a DLX file uses: bounds, costs, colours, sharp primary items."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("|")]
    words = lines[0].split()
    primary = words[:words.index("|")] if "|" in words else words
    options = [w for ln in lines[1:] for w in ln.split()]
    return {
        "bounds": any("|" in w for w in primary),
        "costs": any(w.startswith("|") for w in options),
        "colours": any(":" in w for w in options if not w.startswith("|")),
        "sharp": any(w.split("|")[-1].startswith("#") for w in primary),
    }


def without_costs(text: str) -> str:
    """The text with the ``|n`` cost tokens of its options dropped."""
    out: list[str] = []
    items_read = False
    for ln in text.splitlines():
        if ln.startswith("|") or not ln.strip():
            out.append(ln)                      # a comment or a blank line
        elif not items_read:
            out.append(ln)                      # the item line
            items_read = True
        else:
            out.append(" ".join(w for w in ln.split() if not w.startswith("|")))
    return "\n".join(out) + "\n"


def run(binary: Path, text: str, *args: str) -> tuple[str, str]:
    """Run one program on ``text``; (stdout, stderr)."""
    ran = subprocess.run([str(binary), *args], input=text, capture_output=True, text=True,
                         timeout=TIMEOUT)
    if ran.returncode not in (0,):
        raise KnuthError(f"{binary.name} {' '.join(args)} exited {ran.returncode}: "
                         f"{ran.stderr[-500:]}")
    return ran.stdout, ran.stderr


def solutions(binary: Path, text: str, *args: str) -> tuple[int, int, str]:
    """(count, nodes, stderr) of DLX1/2/3 or dlx2-sharp."""
    _, err = run(binary, text, *args)
    line = next((ln for ln in err.splitlines() if ln.startswith("Altogether")), None)
    if line is None:
        raise KnuthError(f"{binary.name}: no 'Altogether' line in {err[-500:]!r}")
    count, nodes = ALTOGETHER.search(line), NODES.search(line)
    if count is None or nodes is None:
        raise KnuthError(f"{binary.name}: can't read {line!r}")
    return int(count.group(1)), int(nodes.group(1)), err


def best_costs(binary: Path, text: str, k: int) -> list[int]:
    """DLX5's k best costs, one entry per solution (repeats written out)."""
    _, err = run(binary, text, *([f"k{k}"] if k != 1 else []))
    one = OPTIMUM.search(err)
    if one:
        return [int(one.group(1))]
    costs: list[int] = []
    lines = err.splitlines()
    if "The optimum costs are:" not in lines:
        raise KnuthError(f"{binary.name}: no optimum in {err[-500:]!r}")
    for ln in lines[lines.index("The optimum costs are:") + 1:]:
        m = COST_LINE.match(ln)
        if m:
            costs += [int(m.group(1))] * int(m.group(2) or 1)
    return costs


def dlx6(binary: Path, text: str) -> dict[str, int]:
    _, err = run(binary, text)
    line = next((ln for ln in err.splitlines() if ln.startswith("Altogether")), "")
    count, rest = ALTOGETHER.search(line), DLX6.search(line)
    if count is None or rest is None:
        raise KnuthError(f"{binary.name}: can't read {err[-500:]!r}")
    return {"count": int(count.group(1)), "nodes": int(rest.group(1)),
            "zdd_nodes": int(rest.group(2)), "hits": int(rest.group(3))}


def pre(binary: Path, text: str) -> tuple[dict[str, Any], str]:
    out, err = run(binary, text)
    m = REMOVED.search(err)
    if m is None:
        raise KnuthError(f"{binary.name}: can't read {err[-500:]!r}")
    lines = [ln for ln in out.splitlines() if ln.strip() and not ln.startswith("|")]
    words = lines[0].split() if lines else []
    primary = words.index("|") if "|" in words else len(words)
    return {"removed_options": int(m.group(1)), "removed_items": int(m.group(2)),
            "rounds": int(m.group(3)), "options_left": len(lines) - 1,
            "items_left": [primary, len(words) - primary - ("|" in words)]}, out


def answers_for(name: str, text: str, bin_dir: Path, pre_dir: Path | None) -> dict[str, Any]:
    f = features(text)
    got: dict[str, Any] = {}
    plain = not f["bounds"] and not f["costs"]
    if f["bounds"]:
        got["count"], got["nodes"], _ = solutions(bin_dir / "dlx3", text)
    elif f["costs"]:
        got["count"], _, _ = solutions(bin_dir / "dlx2", without_costs(text))
    else:
        got["count"], got["nodes"], _ = solutions(
            bin_dir / ("dlx2" if f["colours"] else "dlx1"), text)
    if not f["bounds"]:
        got["best"] = {"1": best_costs(bin_dir / "dlx5", text, 1)}
        if f["costs"]:
            got["best"]["5"] = best_costs(bin_dir / "dlx5", text, 5)
    if plain:
        got["dlx6"] = dlx6(bin_dir / "dlx6", text)
        got["pre"], reduced = pre(bin_dir / "dlx-pre", text)
        again, _, _ = solutions(bin_dir / "dlx2", reduced)
        if again != got["count"]:
            raise KnuthError(f"{name}: DLX-PRE's reduced problem has {again} solutions, "
                             f"not {got['count']}")
        if pre_dir is not None:
            pre_dir.mkdir(exist_ok=True)
            (pre_dir / name).write_text(
                f"| {name} reduced by Knuth's DLX-PRE (bench/knuth_answers.py)\n" + reduced)
    if f["sharp"] and plain:
        count, nodes, _ = solutions(bin_dir / "dlx2-sharp", text)
        got["sharp"] = {"count": count, "nodes": nodes}
    for key in ("dlx6", "sharp"):
        if key in got and got[key]["count"] != got["count"]:
            raise KnuthError(f"{name}: {key} counts {got[key]['count']}, not {got['count']}")
    return got


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin", type=Path, help="directory of Knuth's binaries "
                        "(dlx1 dlx2 dlx3 dlx5 dlx6 dlx-pre dlx2-sharp)")
    parser.add_argument("--data", type=Path, default=DATA, help="the instances' directory")
    parser.add_argument("--check", action="store_true",
                        help="compare with answers.json and write nothing (exit 1 if different)")
    args = parser.parse_args()
    path = args.data / "answers.json"
    old = json.loads(path.read_text())["instances"] if path.exists() else {}
    new = {}
    for dlx_file in sorted(args.data.glob("*.dlx")):
        text = dlx_file.read_text()
        new[dlx_file.name] = answers_for(dlx_file.name, text, args.bin,
                                         None if args.check else args.data / "pre")
        print(dlx_file.name, json.dumps(new[dlx_file.name], sort_keys=True), file=sys.stderr)
    differ = [n for n in sorted(set(old) | set(new)) if old.get(n) != new.get(n)]
    for n in differ:
        print(f"{n}: was {json.dumps(old.get(n), sort_keys=True)}\n"
              f"{' ' * len(n)}  now {json.dumps(new.get(n), sort_keys=True)}")
    if args.check:
        return 1 if differ else 0
    path.write_text(json.dumps({"instances": new, "source": SOURCE}, indent=1, sort_keys=True))
    print(f"wrote {path} ({len(new)} instances, {len(differ)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
