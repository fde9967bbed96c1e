"""problems.sudoku against issue 20's fuzzing findings: arguments, sizes, time limits, reading.

Every malformed argument of a public function raises SudokuError (a dlx.ExactCoverError)
naming the argument; a box too big for memory is refused before anything is built;
every ``timeout=`` stops the work with dlx.BudgetExceeded (the puzzles made in time
are the ones made without it); read_puzzles stops at a line with no end.  Time limits
are checked for being kept with generous slack (these machines are noisy): the
broken versions ran for minutes.
"""

from __future__ import annotations

import io
import random
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Any

import pytest
from sudoku_helpers import PE1

import dlx
from problems import sudoku

SMALL = "1.....3..4.....2"
#: The slack on a time limit: a limit is kept when the call returns this soon after it.
SLACK = 15.0


def refused(call: Any, *words: str) -> sudoku.SudokuError:
    """Run ``call``; it must raise SudokuError (an ExactCoverError) saying ``words``."""
    with pytest.raises(sudoku.SudokuError) as info:
        call()
    assert isinstance(info.value, dlx.ExactCoverError) and isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return info.value


# --------------------------------------------------------------------------- arguments


@pytest.mark.parametrize("box", [(2, 2, 2), (2,), "3x3", "2x2", 3, (0, 3), (-1, 3), (True, 2),
                                 (2.0, 2), (1.5, 2), (None, 2), ((2,), 2), (float("nan"), 2),
                                 b"22"])
def test_a_malformed_box_is_refused_by_name(box: Any) -> None:
    refused(lambda: sudoku.random_grid(box=box, seed=1), "box")
    refused(lambda: sudoku.generate(box=box, seed=1), "box")
    refused(lambda: sudoku.as_grid(SMALL, box=box), "box")
    refused(lambda: list(sudoku.read_puzzles([SMALL], box=box)), "box")
    refused(lambda: sudoku.Shape.standard(4, box), "box")


@pytest.mark.parametrize("box", [(300, 300), (2**63, 2), (10**400, 1), (1, 65), (9, 8)])
def test_a_box_too_big_is_refused_at_once(box: tuple[int, int]) -> None:
    started = time.monotonic()
    refused(lambda: sudoku.random_grid(box=box), "box", "64x64")
    refused(lambda: sudoku.Shape.standard(box[0] * box[1], box), "64")
    refused(lambda: sudoku.as_grid([0] * 16, box=box), "box", "64x64")
    assert time.monotonic() - started < SLACK          # nothing was built


def test_the_largest_grids() -> None:
    assert sudoku.MAX_SIZE == 64 and sudoku.MAX_GENERATE_SIZE == 25
    assert sudoku.Shape.standard(64, (8, 8)).size == 64
    refused(lambda: sudoku.Shape.standard(65, (5, 13)), "size", "64")
    refused(lambda: sudoku.Shape.jigsaw("A" * 10**6), "4,096")
    for make, size in [(lambda: sudoku.generate(box=(6, 6), seed=1), "36x36"),
                       (lambda: sudoku.random_grid(box=(2, 13)), "26x26"),
                       (lambda: sudoku.generate_many(2, sudoku.Shape.standard(49, (7, 7))),
                        "49x49")]:
        refused(make, "25x25", size)
    assert sudoku.random_grid(box=(5, 5), seed=1).is_complete()


@pytest.mark.parametrize("source", [1.5, None, 5, object(), b"." * 16, bytearray(b"..")])
def test_read_puzzles_refuses_what_is_not_text_at_once(source: Any) -> None:
    refused(lambda: sudoku.read_puzzles(source), "read_puzzles", "text")


@pytest.mark.parametrize("source", [[1, 2], iter([None]), [b"." * 16],
                                    io.BytesIO(b"." * 16)])
def test_read_puzzles_refuses_lines_that_are_not_text(source: Any) -> None:
    refused(lambda: list(sudoku.read_puzzles(source)), "read_puzzles", "line 1")


@pytest.mark.parametrize("call, words", [
    (lambda: sudoku.random_grid(box=(2, 2), seed=[1]), ("seed",)),
    (lambda: sudoku.random_grid(box=(2, 2), seed=1.5), ("seed",)),
    (lambda: sudoku.random_grid("standard"), ("shape",)),
    (lambda: sudoku.generate(size=4, seed="x"), ("seed",)),
    (lambda: sudoku.generate(size=4, seed=float("nan")), ("seed",)),
    (lambda: sudoku.generate(size=4, seed=True), ("seed",)),
    (lambda: sudoku.generate(size=1.5), ("size",)),
    (lambda: sudoku.generate(size=10**9), ("size",)),
    (lambda: sudoku.generate(size=4, givens=1.5), ("givens",)),
    (lambda: sudoku.generate(size=4, givens=2**63), ("givens", "16")),
    (lambda: sudoku.generate(size=4, givens=-1), ("givens",)),
    (lambda: sudoku.generate(size=4, tries=0), ("tries",)),
    (lambda: sudoku.generate(size=4, tries=10**400), ()),      # accepted: the seed's puzzle
    (lambda: sudoku.generate(size=4, symmetry=3), ("symmetry",)),
    (lambda: sudoku.generate(size=4, symmetry=[]), ("symmetry",)),
    (lambda: sudoku.generate(size=4, level=1.5), ("level",)),
    (lambda: sudoku.generate(size=4, level=object()), ("level",)),
    (lambda: sudoku.generate(size=4, level="9" * 5000), ("level",)),
    (lambda: sudoku.generate(size=4, minimal="yes", givens=5), ("minimal",)),
    (lambda: sudoku.generate(size=4, max_nodes=1.5), ("max_nodes",)),
    (lambda: sudoku.generate(size=4, timeout=0), ("timeout",)),
    (lambda: sudoku.generate(size=4, timeout=float("inf")), ("timeout",)),
    (lambda: sudoku.generate(size=4, timeout="1"), ("timeout",)),
    (lambda: sudoku.generate_many(1.5, size=4), ("count",)),
    (lambda: sudoku.generate_many(-1, size=4), ("count",)),
    (lambda: sudoku.generate_many(2, size=4, seed=1.5), ("seed",)),
    (lambda: sudoku.generate_many(2, size=4, at_once=0), ("at_once",)),
    (lambda: sudoku.generate_many(2, size=4, chunk=True), ("chunk",)),
    (lambda: sudoku.generate_many(2, size=4, executor=1), ("executor",)),
    (lambda: sudoku.generate_many(2, size=4, timeout=-1), ("timeout",)),
    (lambda: sudoku.minimize("1234341221434321", seed=1.5), ("seed",)),
    (lambda: sudoku.minimize("1234341221434321", symmetry=1), ("symmetry",)),
    (lambda: sudoku.is_minimal("1234341221434321", max_nodes=0), ("max_nodes",)),
    (lambda: sudoku.orbits(1.5, None), ("n",)),
    (lambda: sudoku.orbits(10**6, None), ("n",)),
    (lambda: sudoku.orbits(4, []), ("symmetry",)),
    (lambda: sudoku.count(SMALL, limit=1.5), ("limit",)),
    (lambda: sudoku.count(SMALL, max_nodes=0), ("max_nodes",)),
    (lambda: sudoku.solve(SMALL, timeout=True), ("timeout",)),
    (lambda: sudoku.classify(SMALL, timeout=-1), ("timeout",)),
    (lambda: list(sudoku.solutions(SMALL, timeout="x")), ("timeout",)),
    (lambda: sudoku.batch([SMALL], timeout=-1), ("timeout",)),
    (lambda: sudoku.batch([SMALL], timeout="x"), ("timeout",)),
    (lambda: sudoku.solve_lines([SMALL], timeout=float("nan")), ("timeout",)),
    (lambda: sudoku.count_many([SMALL], max_nodes=0), ("max_nodes",)),
    (lambda: sudoku.max_score(SMALL, max_nodes=1.5), ("max_nodes",)),
    (lambda: sudoku.max_score(SMALL, max_nodes=0), ("max_nodes",)),
    (lambda: sudoku.max_score(SMALL, timeout=0), ("timeout",)),
    (lambda: sudoku.max_score(SMALL, stats={}), ("stats",)),
    (lambda: sudoku.max_score(PE1, [float("nan")] * 81), ("weight",)),
    (lambda: sudoku.max_score(PE1, [float("inf")] * 81), ("weight",)),
    (lambda: sudoku.max_score(PE1, ["1"] * 81), ("weight",)),
    (lambda: sudoku.max_score(PE1, [True] * 81), ("weight",)),
    (lambda: sudoku.max_score(PE1, "1" * 81), ("weights",)),
    (lambda: sudoku.max_score(PE1, 5), ("weights",)),
    (lambda: sudoku.max_score(PE1, [1] * 80), ("weights",)),
    (lambda: sudoku.score(PE1, [None] * 81), ("weight",)),
    (lambda: sudoku.target_weights(1.5), ("size",)),
    (lambda: sudoku.target_weights(10**5), ("size",)),
    (lambda: sudoku.rate(SMALL, timeout="x"), ("timeout",)),
    (lambda: sudoku.Level.parse(2**63), ("level",)),
    (lambda: sudoku.Level.parse("9" * 5000), ("level",)),
    (lambda: sudoku.Grid([[10**5000] * 4] * 4), ("r1c1", "outside")),
    (lambda: sudoku.as_grid(SMALL, shape=4), ("shape",)),
    (lambda: list(sudoku.read_puzzles([SMALL], shape="standard")), ("shape",)),
    (lambda: list(sudoku.read_puzzles([SMALL], max_line=0)), ("max_line",)),
])
def test_malformed_arguments_are_refused_by_name(call: Any, words: tuple[str, ...]) -> None:
    if not words:
        call()
        return
    refused(call, *words)


def test_the_package_errors_are_one_family() -> None:
    for error in (sudoku.SudokuFormatError, sudoku.GenerateError, sudoku.NotUniqueError):
        assert issubclass(error, sudoku.SudokuError)
    assert issubclass(sudoku.SudokuError, dlx.ExactCoverError)


def test_seeds_that_work() -> None:
    assert sudoku.generate(size=4, seed=random.Random(1)) == sudoku.generate(size=4, seed=1)
    for seed in (2**63, -1, 10**400):
        assert sudoku.count(sudoku.generate(size=4, seed=seed), limit=2) == 1
        assert sudoku.random_grid(box=(2, 2), seed=seed).is_complete()


# --------------------------------------------------------------------------- exact scores


def test_max_score_is_exact_for_any_size_of_whole_number_and_fractions() -> None:
    target = sudoku.target_weights()
    assert sudoku.max_score("." * 81, [10**400 * w for w in target]) == 10**400 * 2906
    assert sudoku.max_score("." * 81, [2**63 * w for w in target]) == 2**63 * 2906
    assert sudoku.max_score("." * 81, [10**400] * 81) == 10**400 * 405
    assert sudoku.max_score("." * 81, [Fraction(1, 3)] * 81) == 135
    assert sudoku.max_score("." * 81, [10**400] + [1] * 80) == 9 * 10**400 + 405 - 9
    # a lone huge weight beside others the bound (in floats) cannot hold: a clear error
    refused(lambda: sudoku.max_score("." * 81, [10**400] + [1] * 79 + [3]), "too large")


# --------------------------------------------------------------------------- time limits


@pytest.mark.slow
def test_max_score_keeps_its_time_limit_and_hands_over_the_best_so_far() -> None:
    started = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as info:
        sudoku.max_score("." * 256, timeout=0.5)        # the empty 16x16: minutes
    assert time.monotonic() - started < SLACK
    e = info.value
    assert e.max_nodes is None and e.timeout == 0.5
    if e.found is not None:                             # a first completion was found
        score, placements = e.found
        assert score == sudoku.score(sudoku.decode(placements))
    assert sudoku.max_score(PE1, timeout=60) == sudoku.max_score(PE1)


def test_rate_keeps_its_time_limit() -> None:
    puzzle = sudoku.generate(box=(5, 5), seed=3)          # 25x25: seconds to rate
    started = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as info:
        sudoku.rate(puzzle, timeout=0.05)
    assert time.monotonic() - started < SLACK and info.value.timeout == 0.05
    assert sudoku.rate(PE1, timeout=60) == sudoku.rate(PE1)
    assert sudoku.solve_steps(PE1, timeout=60) == list(sudoku.rate(PE1).steps)


@pytest.mark.slow
def test_generate_keeps_its_time_limit() -> None:
    started = time.monotonic()
    with pytest.raises(dlx.BudgetExceeded) as info:     # no 16x16 x-wing in 200 tries: minutes
        sudoku.generate(box=(4, 4), level="x-wing", seed=1, timeout=0.5)
    assert time.monotonic() - started < SLACK
    assert info.value.max_nodes is None and info.value.timeout == 0.5


@pytest.mark.slow
def test_generate_many_hands_out_what_it_made_in_time() -> None:
    started = time.monotonic()
    made = []
    with pytest.raises(dlx.BudgetExceeded):
        for puzzle in sudoku.generate_many(None, box=(3, 4), seed=1, timeout=1):
            made.append(puzzle)
    assert time.monotonic() - started < SLACK
    assert made == [sudoku.generate(box=(3, 4), seed=1 + k) for k in range(len(made))]
    with ThreadPoolExecutor(2) as pool, pytest.raises(dlx.BudgetExceeded):
        list(sudoku.generate_many(None, box=(3, 3), seed=1, timeout=1, executor=pool, chunk=4))
    assert time.monotonic() - started < 3 * SLACK


def test_a_time_limit_not_reached_changes_nothing() -> None:
    assert sudoku.generate(seed=5, timeout=60) == sudoku.generate(seed=5)
    assert sudoku.generate(seed=0, level="pointing", timeout=60) == \
        sudoku.generate(seed=0, level="pointing")
    assert list(sudoku.generate_many(6, box=(2, 3), seed=3, timeout=60)) == \
        list(sudoku.generate_many(6, box=(2, 3), seed=3))
    assert sudoku.random_grid(box=(3, 3), seed=4) == sudoku.random_grid(box=(3, 3), seed=4)


# --------------------------------------------------------------------------- reading


class Endless(io.TextIOBase):
    """A stream of NUL characters with no end (what /dev/zero gives)."""

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1, /) -> str:
        if size is None or size < 0:
            raise AssertionError("an uncapped readline would never return")
        return "\0" * size


def test_read_puzzles_stops_at_a_line_with_no_end() -> None:
    entries = list(sudoku.read_puzzles(Endless(), max_line=1_000_000))
    assert [(e.line, str(e.error)) for e in entries] == [
        (1, "line 1: line is longer than 1,000,000 characters")]


def test_read_puzzles_max_line() -> None:
    text = "." * 100 + "\n" + SMALL + "\n"
    for form in (str, io.StringIO, lambda t: t.splitlines(keepends=True)):
        cut = list(sudoku.read_puzzles(form(text), max_line=99))
        assert [(e.line, e.grid) for e in cut] == [(1, None)]
        assert cut[0].error is not None and cut[0].error.reason == \
            "line is longer than 99 characters"
        whole = list(sudoku.read_puzzles(form(text), max_line=100))
        assert [e.line for e in whole] == [1, 2] and whole[1].grid == sudoku.Grid(SMALL)
    # longer than MAX_LINE but within max_line: reported, skipped, and reading goes on
    big = "." * (sudoku.MAX_LINE * 2) + "\n" + SMALL + "\n"
    for limit in (None, sudoku.MAX_LINE * 3):
        entries = list(sudoku.read_puzzles(io.StringIO(big), max_line=limit))
        assert [e.line for e in entries] == [1, 2] and entries[1].grid is not None
        assert "longer than" in str(entries[0].error)
