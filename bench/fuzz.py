"""The long fuzzing run, dlx tried as a hostile user would.

Runs tens of thousands of cases of the harness in ``tests/fuzzing/`` (random
problems on both engines against a brute-force oracle, malformed arguments and
DLX files, hostile command lines, signals, time limits, files written for later
changed and used again, and, only here, worker SIGKILLs, threads and memory caps)
on worker processes, then prints the outcomes by family and kind and the
reproducer of every distinct failure.  It exits with 1 when any case failed.

    .venv/bin/python bench/fuzz.py --cases 20000 --seed 1 --jobs 2
    .venv/bin/python bench/fuzz.py --family text --cases 500
    .venv/bin/python bench/fuzz.py --family files --cases 500 --seed 7
    .venv/bin/python bench/fuzz.py --family cli --seed 1 --case 17      # one case again
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing  # noqa: E402 - tests/ is not a package


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=5000,
                        help="how many cases in all, shared out among the families"
                        " (default 5000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the run (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--family", action="append", choices=list(fuzzing.FAMILIES),
                        help="only these families (repeat for several)")
    parser.add_argument("--case", type=int, metavar="I",
                        help="run case I of the one --family again, here, and print it")
    parser.add_argument("--start", type=int, default=0,
                        help="the index of each family's first case (default 0)")
    parser.add_argument("--examples", type=int, default=1,
                        help="reproducers printed per distinct failure (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    args = parser.parse_args(argv)

    if args.case is not None:
        if not args.family or len(args.family) != 1:
            parser.error("--case needs exactly one --family")
        result = fuzzing.run_case(args.family[0], args.seed, args.case)
        print(f"{result.kind} ({result.seconds:.1f} s): {result.title}")
        print(result.report() if result.failed else result.repro)
        return 1 if result.failed else 0

    families = args.family or list(fuzzing.FAMILIES)
    share = sum(fuzzing.SHARES[f] for f in families)
    counts = {f: round(args.cases * fuzzing.SHARES[f] / share) for f in families}
    tasks = fuzzing.plan(counts, args.seed, args.start)
    started = time.monotonic()
    done: list[fuzzing.Result] = []

    def progress(result: fuzzing.Result) -> None:
        done.append(result)
        if not args.quiet and (len(done) % 50 == 0 or result.failed):
            failed = sum(r.failed for r in done)
            print(f"\r{len(done):,}/{len(tasks):,} cases, {failed:,} failed,"
                  f" {time.monotonic() - started:,.0f} s", end="", file=sys.stderr, flush=True)

    results = fuzzing.run_cases(tasks, jobs=args.jobs, on_result=progress)
    if not args.quiet:
        print(file=sys.stderr)
    seconds = time.monotonic() - started
    print(f"# dlx fuzzing: {len(results):,} cases, seed {args.seed}, {args.jobs} jobs,"
          f" {seconds:,.0f} s\n")
    print(fuzzing.table(results))
    failures = [r for r in results if r.failed or r.kind == fuzzing.HARNESS_ERROR]
    if failures:
        print(f"\n# {len(failures):,} failed cases,"
              f" {len({(r.kind, r.key) for r in failures})} distinct failures\n")
        print(fuzzing.failures_report(failures, args.examples))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
