"""dlx.Deadline: one time limit for many searches, the one the command line and the
puzzle packages use."""

from __future__ import annotations

import time

import pytest

import dlx
from dlx.cli import common
from problems import sudoku
from problems.sudoku.errors import deadline_of


def test_what_is_left_shrinks_and_the_end_raises_what_a_view_raises():
    d = dlx.Deadline(0.2)
    first = d.remaining()
    assert first is not None and 0 < first <= 0.2 and not d.expired()
    d.check()
    time.sleep(0.25)
    assert d.expired() and d.remaining() == 1e-6      # never 0: a timeout= takes it
    with pytest.raises(dlx.BudgetExceeded) as stopped:
        d.check()
    assert stopped.value.timeout == 0.2 and stopped.value.max_nodes is None
    assert str(stopped.value) == "time limit of 0.2 s reached before the search finished"
    assert d.exceeded(found=[1, 2]).found == [1, 2]


def test_no_limit_never_ends():
    d = dlx.Deadline(None)
    assert d.remaining() is None and not d.expired() and d.limit is None
    d.check()
    assert repr(d) == "Deadline(None)"


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), "5", True, 10**400])
def test_a_limit_is_checked_as_every_timeout_is(bad):
    with pytest.raises(dlx.ExactCoverError, match="timeout must be a positive number"):
        dlx.Deadline(bad)
    # the puzzle package says it in its own words, naming the argument
    with pytest.raises(sudoku.SudokuError, match="timeout must be a number of seconds"):
        deadline_of(bad)


def test_one_class_for_the_engine_the_command_and_the_puzzles():
    assert common.Deadline is dlx.Deadline and "Deadline" in dlx.__all__
    assert isinstance(deadline_of(1), dlx.Deadline)


def test_a_view_searches_within_what_is_left():
    d = dlx.Deadline(30)
    p = dlx.ExactCover({"o1": ["a"], "o2": ["a"]})
    assert [dlx.count(p, timeout=d.remaining()) for _ in range(3)] == [2, 2, 2]
