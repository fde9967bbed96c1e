"""The quick form of the fuzzing harness: a few hundred hostile cases.

Each family of :mod:`fuzzing` runs its first cases under a fixed seed (so a
failure here fails the same way again; ``DLX_FUZZ_SEED`` picks other cases) on
two worker processes, and no case may end in a failure outcome: a raw
traceback, a wrong answer, bad output, a hang, a crash or a runaway.  The
assertion message lists every failing case with its reproducer.  The long form
is ``bench/fuzz.py``.
"""

from __future__ import annotations

import os

import fuzzing
import pytest

SEED = int(os.environ.get("DLX_FUZZ_SEED", "20"))


def _failures(family: str) -> str:
    tasks = fuzzing.plan({family: fuzzing.QUICK[family]}, SEED)
    results = fuzzing.run_cases(tasks, jobs=2)
    assert len(results) == len(tasks), "the runner lost cases"
    bad = [r for r in results if r.failed or r.kind == fuzzing.HARNESS_ERROR]
    if not bad:
        return ""
    return (f"{len(bad)} of {len(results)} {family} cases failed (seed {SEED}):\n\n"
            + fuzzing.table(results) + "\n\n" + fuzzing.failures_report(bad, examples=2))


@pytest.mark.slow
@pytest.mark.parametrize("family", ["random", "arguments"])
def test_api_cases_have_no_failures(family):
    """Random problems on both engines against the oracle; malformed API arguments."""
    report = _failures(family)
    assert not report, report


@pytest.mark.slow
@pytest.mark.parametrize("family", ["text", "cli", "signals", "deadlines", "files"])
def test_command_cases_have_no_failures(family):
    """Malformed DLX files, hostile command lines, signals, time limits (subprocesses);
    checkpoints, solutions' streams and ZDD files changed, then used again."""
    report = _failures(family)
    assert not report, report


def test_the_oracle_finds_knuths_toy_solution():
    """The harness's own oracle, on Knuth's toy problem and on bounds and colours."""
    toy = fuzzing.Spec({"o1": ["c", "e"], "o2": ["a", "d", "g"], "o3": ["b", "c", "f"],
                        "o4": ["a", "d", "f"], "o5": ["b", "g"], "o6": ["d", "e", "g"]})
    assert fuzzing.oracle(toy) == [frozenset({"o1", "o4", "o5"})]
    twice = fuzzing.Spec({"x": ["a"], "y": ["a", "b"], "z": ["a"], "w": ["b"]},
                         bounds={"a": (2, 2)})
    assert sorted(map(sorted, fuzzing.oracle(twice))) == [["w", "x", "z"], ["x", "y"],
                                                          ["y", "z"]]
    colours = fuzzing.Spec({"A": ["p", fuzzing.Colored("x", "red")],
                            "B": ["q", fuzzing.Colored("x", "red")],
                            "C": ["q", fuzzing.Colored("x", "blue")]}, ["x"])
    assert fuzzing.oracle(colours) == [frozenset({"A", "B"})]


def test_cases_are_deterministic():
    """A case is drawn from its family, seed and index alone: its reproducer says so."""
    for family in ("random", "arguments", "text", "cli", "files"):
        a = fuzzing.make_case(family, SEED, 7)
        b = fuzzing.make_case(family, SEED, 7)
        assert (a.title, a.repro) == (b.title, b.repro)
