"""The no-guess generator: certified, reproducible, bounded in time, honest about failure."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from mineshafted import Board, BoardManager, Geometry, Sweep
from mineshafted.generate import (
    GenerationError,
    _impossible,
    _perturb,
    generate,
    generate_many,
)


def certified(board: Board, start: int) -> bool:
    return Sweep(BoardManager(board), start=start).run().solved


@pytest.mark.parametrize(("rows", "cols", "mines"), [(9, 9, 10), (16, 16, 40), (30, 16, 99)])
def test_boards_are_certified_and_start_on_a_zero(rows: int, cols: int, mines: int) -> None:
    made = generate(rows, cols, mines, seed=3)
    assert made.board.geometry == Geometry(rows, cols)
    assert made.board.mine_count == mines
    assert made.board.values[made.start] == 0
    assert certified(made.board, made.start)


def test_a_dense_board_is_made_by_perturbation() -> None:
    made = generate(30, 16, 130, seed=1, timeout=None)
    assert made.perturbations > 0
    assert certified(made.board, 0)


def test_the_same_seed_gives_the_same_board() -> None:
    assert generate(16, 16, 40, seed=11).board == generate(16, 16, 40, seed=11).board
    assert generate(16, 16, 40, seed=11).board != generate(16, 16, 40, seed=12).board


def test_start_elsewhere_is_kept_clear() -> None:
    made = generate(10, 12, 25, seed=4, start=5 * 12 + 7)
    assert made.start == 5 * 12 + 7
    assert made.board.values[made.start] == 0
    assert certified(made.board, made.start)


def test_batches_are_reproducible_and_each_seed_remakes_its_board() -> None:
    first = list(generate_many(9, 9, 10, 4, seed=99))
    again = list(generate_many(9, 9, 10, 4, seed=99))
    assert [g.board for g in first] == [g.board for g in again]
    assert len({g.seed for g in first}) == 4
    for made in first:
        assert generate(9, 9, 10, seed=made.seed).board == made.board


def test_impossible_requests_fail_at_once() -> None:
    with pytest.raises(GenerationError, match="do not fit"):
        generate(3, 3, 6)
    with pytest.raises(
        GenerationError, match=r"start cell 16 is off the 4x4 board \(cells 0..15\)"
    ):
        generate(4, 4, 2, start=16)
    with pytest.raises(GenerationError, match="at least 1 row"):
        generate(0, 4, 0)
    with pytest.raises(GenerationError, match="cannot make -1 boards"):
        list(generate_many(4, 4, 1, -1))


def test_a_request_that_runs_out_of_time_fails_with_a_message() -> None:
    with pytest.raises(GenerationError, match=r"within 0\.05 s .*lower the density"):
        generate(30, 16, 240, seed=0, timeout=0.05)


def test_to_puzzle_keeps_the_generators_figures() -> None:
    made = generate(9, 9, 10, seed=2)
    puzzle = made.to_puzzle("demo")
    assert puzzle.name == "demo" and puzzle.board == made.board
    assert puzzle.extra == {
        "seed": 2,
        "mines": 10,
        "perturbations": made.perturbations,
        "draws": made.draws,
    }


@pytest.mark.parametrize("seed", range(25))
def test_perturbation_keeps_the_count_and_the_start_area(seed: int) -> None:
    rng = random.Random(seed)
    geometry = Geometry(12, 12)
    keep_clear = {0, 1, 12, 13}
    free = [c for c in range(144) if c not in keep_clear]
    # Draw until the sweep stalls, so that every seed perturbs at least once.
    for _ in range(100):
        layout = set(rng.sample(free, 30))
        report = Sweep(BoardManager(Board.from_mines(12, 12, layout))).run()
        if not report.solved:
            break
    perturbed = 0
    while not report.solved and perturbed < 10:
        before = set(layout)
        assert _perturb(layout, report, geometry, keep_clear, rng)
        assert len(layout) == 30
        assert not layout & keep_clear
        assert layout != before
        perturbed += 1
        report = Sweep(BoardManager(Board.from_mines(12, 12, layout))).run()
    assert perturbed >= 1


def test_boards_larger_than_puzzle_files_allow_are_refused() -> None:
    with pytest.raises(GenerationError, match="larger than 1,000,000 cells"):
        generate(100_000, 100_000, 5)


def test_a_one_wide_strip_with_two_mines_past_the_start_is_refused_at_once() -> None:
    began = time.perf_counter()
    with pytest.raises(GenerationError, match="no 1x5 board with 2 mines is no-guess: on a strip"):
        generate(1, 5, 2, seed=1)
    assert time.perf_counter() - began < 0.5


def _solvable(rows: int, cols: int, mines: int, start: int) -> bool:
    """Whether some layout of the request is certified: every layout swept."""
    geometry = Geometry(rows, cols)
    clear = {start, *geometry.neighbours(start)}
    outside = [c for c in range(geometry.cells) if c not in clear]
    return any(
        certified(Board.from_mines(rows, cols, layout), start)
        for layout in itertools.combinations(outside, mines)
    )


STRIPS = [(1, n) for n in range(1, 8)] + [(n, 1) for n in (4, 6)] + [(2, n) for n in range(2, 7)]
STRIPS += [(5, 2), (3, 3), (3, 4)]


@pytest.mark.parametrize(("rows", "cols"), STRIPS)
def test_refused_requests_are_exactly_the_unsolvable_strips(rows: int, cols: int) -> None:
    geometry = Geometry(rows, cols)
    for start in range(geometry.cells):
        outside = geometry.cells - 1 - len(geometry.neighbours(start))
        for mines in range(outside + 1):
            refused = _impossible(geometry, mines, start) is not None
            if refused or min(rows, cols) <= 2:  # strips: refused exactly when unsolvable
                assert refused != _solvable(rows, cols, mines, start), (start, mines)


def test_an_unsolvable_request_not_recognised_ends_at_the_timeout() -> None:
    # 4x4 with 11 mines from the corner: no layout is solvable, and no cheap rule sees it.
    assert _impossible(Geometry(4, 4), 11, 0) is None
    began = time.perf_counter()
    with pytest.raises(GenerationError, match=r"within 0\.3 s .*allow more time"):
        generate(4, 4, 11, seed=1, timeout=0.3)
    assert time.perf_counter() - began < 1.5
