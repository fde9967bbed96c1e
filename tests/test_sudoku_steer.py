"""Puzzles of a requested level (issue 24): the seeds, the moves that keep a pattern, the
steered puzzles, and every level the command offers made in seconds."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from problems import sudoku
from problems.sudoku import steer
from problems.sudoku.generate import RANDOM_TRIES
from problems.sudoku.rate import layout
from problems.sudoku.symmetry import orbits

NINE = sudoku.Shape.standard(9)


def symmetric(puzzle: sudoku.Grid, symmetry: str) -> bool:
    """Are the givens of ``puzzle`` a union of orbits of ``symmetry``?"""
    return all(len({bool(puzzle.values[i]) for i in orbit}) == 1
               for orbit in orbits(9, symmetry))


def test_the_seeds_are_a_data_file_shipped_with_the_package():
    # package data (pyproject's package-data), read with importlib.resources: .ci/run runs
    # this test against the installed wheel too, so a wheel without the file fails here
    path = Path(steer.__file__).with_name(steer.SEEDS_FILE)
    assert path.is_file() and path.read_text().startswith("# The seed puzzles")
    seeds = steer.seeds()
    assert seeds is steer.SEEDS and sorted(seeds) == sorted(sudoku.SYMMETRIES)
    assert sum(len(p) for levels in seeds.values() for p in levels.values()) == 566
    assert all(sorted(levels) == list(range(1, 9)) for levels in seeds.values())
    p = steer.steered(NINE, 6, "none", random.Random(1))      # swordfish: 1 in 5,000
    assert int(sudoku.rate(p).level) == 6 and sudoku.count(p, limit=2) == 1


@pytest.mark.parametrize("symmetry", sorted(steer.SEEDS))
def test_every_seed_has_its_level_and_its_pattern(symmetry):
    for level, seeds in steer.SEEDS[symmetry].items():
        assert 1 <= level <= 8 and len(seeds) >= 6
        assert len(set(seeds)) == len(seeds)
        for text in seeds:
            grid = sudoku.Grid(text)
            assert int(sudoku.rate(grid).level) == level, (symmetry, level, text)
            assert symmetric(grid, symmetry)


@pytest.mark.parametrize("symmetry", sorted(steer.SEEDS))
def test_the_moves_keep_the_rules_and_the_pattern(symmetry):
    rng = random.Random(1)
    moves = steer._moves(symmetry)
    assert len(moves) >= 4
    seed = sudoku.Grid(steer.SEEDS[symmetry][3][0])
    solution = sudoku.solve(seed).values
    for _ in range(5):
        perm = steer._transform(symmetry, rng)
        moved = sudoku.Grid(steer._moved(solution, perm, rng))
        assert sudoku.is_legal(moved) and moved.is_complete
        puzzle = sudoku.Grid(steer._moved(seed.values, perm, random.Random(0)))
        assert symmetric(puzzle, symmetry)
        assert int(sudoku.rate(puzzle).level) == 3


@pytest.mark.parametrize("symmetry, level", [("none", 3), ("none", 6), ("rot180", 5),
                                             ("mirror", 7), ("rot90", 3)])
@pytest.mark.slow
def test_a_steered_puzzle_is_new_unique_of_its_level_and_minimal_for_it(symmetry, level):
    assert level in steer.SEEDS.get(symmetry, {}), f"no seeds of level {level} for {symmetry}"
    rng = random.Random(5)
    made = [steer.steered(NINE, level, symmetry, rng) for _ in range(3)]
    assert len({str(p) for p in made}) == 3
    lay = layout(NINE)
    for p in made:
        assert sudoku.count(p, limit=2) == 1
        assert int(sudoku.rate(p).level) == level
        assert symmetric(p, symmetry)
        assert str(p) not in steer.SEEDS[symmetry][level]
        # minimal for its level: no orbit of givens can go and leave it solvable at the level
        for orbit in orbits(9, symmetry):
            if p.values[orbit[0]]:
                values = list(p.values)
                for i in orbit:
                    values[i] = 0
                assert not steer.solves_within(lay, values, level)


def test_generate_keeps_its_puzzles_when_no_level_is_asked():
    # the puzzles of a seed are those of the version before issue 24
    assert str(sudoku.generate(seed=1)) == ("...13.4..5....23.99......7.3.9..8.6.7.2.9..3......"
                                            "....16............3..1..48....7")
    assert [str(p) for p in sudoku.generate_many(2, box=(2, 2), seed=7)] == [
        str(sudoku.generate(box=(2, 2), seed=7)), str(sudoku.generate(box=(2, 2), seed=8))]


@pytest.mark.slow
@pytest.mark.parametrize("symmetry", [None, "rot180"])
def test_every_level_the_help_offers_is_made_in_seconds(symmetry):
    for level in range(10):
        for seed in (1, 2):
            started = time.perf_counter()
            p = sudoku.generate(level=level, seed=seed, symmetry=symmetry)
            took = time.perf_counter() - started
            assert int(sudoku.rate(p).level) == level
            assert took < 15, (level, seed, took)          # about 0.1-0.5 s here
            if symmetry:
                assert symmetric(p, symmetry)


def test_a_level_that_cannot_be_made_says_tries_and_why():
    with pytest.raises(sudoku.GenerateError, match=r"in 3 tries .*raise tries=.*only standard"
                                                   r" 9x9 puzzles are steered"):
        sudoku.generate(box=(2, 2), level=3, seed=1, tries=3)
    assert RANDOM_TRIES < 200


def dlx(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dlx", *argv], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.slow
def test_the_command_makes_the_example_of_its_help():
    for seed in ("1", "2", "3"):
        done = dlx("sudoku", "generate", "--rating", "x-wing", "--seed", seed)
        assert done.returncode == 0 and done.stderr == ""
        assert int(sudoku.rate(done.stdout.strip()).level) == 3
    done = dlx("sudoku", "generate", "--rating", "x-wing", "--symmetry", "rot180", "--seed", "1",
               "--count", "3", "--format", "jsonl")
    assert done.returncode == 0 and [r.count('"level": 3') for r in done.stdout.splitlines()] \
        == [1, 1, 1]


def test_one_puzzle_that_cannot_be_made_does_not_stop_the_run():
    done = dlx("sudoku", "generate", "--box", "2x2", "--rating", "3", "--number", "2", "--seed",
               "1", "--tries", "4")
    assert (done.returncode, done.stdout) == (1, "")
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("dlx: puzzle 1 (seed 1): no 4x4 puzzle of"
                                                   " level 3 in 4 tries")
    assert "raise --tries" in lines[0] and lines[1].startswith("dlx: puzzle 2 (seed 2): ")
    # the others are still made: a level a 4x4 grid has
    done = dlx("sudoku", "generate", "--box", "2x2", "--rating", "0", "--number", "2", "--seed",
               "1", "--format", "jsonl")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2


@pytest.mark.slow
def test_generate_runs_on_processes_with_the_same_puzzles():
    alone = dlx("sudoku", "generate", "--number", "4", "--seed", "9", "--rating", "3")
    spread = dlx("sudoku", "generate", "--number", "4", "--seed", "9", "--rating", "3",
                 "--jobs", "2")
    assert alone.returncode == spread.returncode == 0
    assert alone.stdout == spread.stdout and len(alone.stdout.splitlines()) == 4
