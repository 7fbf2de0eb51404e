"""The no-guess generator: certified, reproducible, bounded in time, honest about failure."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

from mineshafted import Board, BoardManager, Geometry, Sweep, Technique, rate
from mineshafted.generate import GenerationError, generate, generate_many
from mineshafted.generate.perturbation import perturb
from mineshafted.generate.request import impossible, stream
from mineshafted.generate.search import layout_board


def certified(board: Board, start: int) -> bool:
    return Sweep(BoardManager(board), start=start).run().solved


@pytest.mark.parametrize(("rows", "cols", "mines"), [(9, 9, 10), (16, 16, 40), (30, 16, 99)])
def test_boards_are_certified_and_start_on_a_zero(rows: int, cols: int, mines: int) -> None:
    made = generate(rows, cols, mines, seed=3)
    assert made.board.geometry == Geometry(rows, cols)
    assert made.board.mine_total == mines
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
        "technique": rate(made.board).technique.value,
        "certified": "complete",
    }


def test_to_puzzle_records_needs_and_uniform_only_when_asked() -> None:
    needed = generate(9, 9, 10, seed=2, technique=Technique.SUBSET, needs=True).to_puzzle()
    assert needed.extra["technique"] == needed.extra["certified"] == "subset"
    assert needed.extra["needs"] is True and "uniform" not in needed.extra
    drawn = generate(9, 9, 10, seed=2, technique=Technique.AC3, uniform=True).to_puzzle()
    assert drawn.extra["certified"] == "ac3" and drawn.extra["uniform"] is True
    assert drawn.extra["perturbations"] == 0 and "needs" not in drawn.extra


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
        assert perturb(layout, report, geometry, keep_clear, rng)
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
    # "on a strip" is the cheap rule's reason (request.impossible): no layout is tried
    with pytest.raises(GenerationError, match="no 1x5 board with 2 mines is no-guess: on a strip"):
        generate(1, 5, 2, seed=1)


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
            refused = impossible(geometry, mines, start) is not None
            if refused or min(rows, cols) <= 2:  # strips: refused exactly when unsolvable
                assert refused != _solvable(rows, cols, mines, start), (start, mines)


@pytest.mark.slow  # it runs for its 0.3 s timeout, and asserts a wall-clock bound on it
def test_an_unsolvable_request_not_recognised_ends_at_the_timeout() -> None:
    # 4x4 with 11 mines from the corner: no layout is solvable, and no cheap rule sees it.
    assert impossible(Geometry(4, 4), 11, 0) is None
    began = time.perf_counter()
    with pytest.raises(GenerationError, match=r"within 0\.3 s .*allow more time"):
        generate(4, 4, 11, seed=1, timeout=0.3)
    assert time.perf_counter() - began < 1.5


# -- techniques: --technique, --needs, --uniform ----------------------------------------------

SOLVING = Technique.solving()
"""count, subset, ac3, complete, total."""


def test_the_default_boards_of_a_seed_are_unchanged() -> None:
    # Made before techniques existed (commit 4f05df6): the default request keeps its boards.
    assert generate(9, 9, 10, seed=1).board == Board.from_text(
        """
        . . . . . . . . .
        . . . * . . . . .
        . * . * . . . . .
        . . . * . . . . .
        * . . . . . . . .
        . . . . . . . * .
        . . . . . . . * .
        . * . . * . . . .
        . . . . * . . . .
        """
    )
    assert generate(16, 16, 40, seed=11).board.mines == {
        *(5, 12, 27, 28, 40, 44, 51, 52, 81, 105, 118, 119, 123, 125, 134, 135, 141, 147),
        *(154, 156, 161, 163, 165, 166, 170, 171, 181, 193, 203, 207, 209, 211, 223, 225),
        *(238, 239, 240, 243, 248, 255),
    }


@pytest.mark.parametrize("technique", SOLVING, ids=lambda t: t.value)
@pytest.mark.parametrize(("rows", "cols", "mines"), [(9, 9, 10), (16, 16, 40)])
def test_every_board_is_solved_by_its_technique_and_records_its_rating(
    technique: Technique, rows: int, cols: int, mines: int
) -> None:
    for made in generate_many(rows, cols, mines, 3, seed=8, technique=technique):
        rating = rate(made.board, start=made.start).technique
        assert rating <= technique
        assert made.technique is rating and made.certified is technique and not made.needs
        total = mines if technique is Technique.TOTAL else None
        sweep = Sweep(BoardManager(made.board), mines=total, technique=technique)
        assert sweep.run().solved


@pytest.mark.parametrize(
    ("technique", "seed"),
    [(Technique.COUNT, 1), (Technique.SUBSET, 1), (Technique.AC3, 1), (Technique.TOTAL, 1)],
    ids=lambda x: x.value if isinstance(x, Technique) else str(x),
)
def test_needs_boards_are_rated_exactly_their_technique(technique: Technique, seed: int) -> None:
    for made in generate_many(16, 16, 40, 3, seed=seed, technique=technique, needs=True):
        assert rate(made.board, start=made.start).technique is technique
        assert made.technique is made.certified is technique and made.needs


def test_a_needs_complete_board_is_rated_complete() -> None:
    # A seed that finds its board in 19 draws: the rating is rare at this density.
    made = generate(16, 16, 40, seed=19, technique=Technique.COMPLETE, needs=True)
    assert rate(made.board).technique is Technique.COMPLETE
    assert made.technique is Technique.COMPLETE


@pytest.mark.parametrize(
    "options",
    [
        {"technique": Technique.AC3},
        {"technique": Technique.SUBSET, "needs": True},
        {"technique": Technique.TOTAL, "needs": True},
        {"uniform": True},
        {"technique": Technique.SUBSET, "uniform": True, "needs": True},
    ],
    ids=["technique", "needs", "needs-total", "uniform", "uniform-needs"],
)
def test_each_recorded_seed_remakes_its_board_with_the_same_options(
    options: dict[str, Any],
) -> None:
    batch = list(generate_many(12, 12, 20, 3, seed=5, seed_first=True, **options))
    again = list(generate_many(12, 12, 20, 3, seed=5, seed_first=True, **options))
    assert [g.board for g in batch] == [g.board for g in again]
    assert batch[0].seed == 5
    for made in batch:
        assert generate(12, 12, 20, seed=made.seed, **options).board == made.board


@pytest.mark.parametrize("technique", [Technique.COUNT, Technique.AC3, Technique.COMPLETE])
def test_uniform_keeps_the_first_draw_of_the_stream_its_technique_solves(
    technique: Technique,
) -> None:
    # Rejection sampling, checked against an independent replay of the seed's draws.
    made = generate(9, 9, 12, seed=21, technique=technique, uniform=True)
    geometry = Geometry(9, 9)
    clear = {0, *geometry.neighbours(0)}
    free = [c for c in range(81) if c not in clear]
    rng = stream(21)
    draws = [Board.from_mines(9, 9, rng.sample(free, 12)) for _ in range(made.draws)]
    assert draws[-1] == made.board and made.perturbations == 0 and made.uniform
    solved = [rate(board).technique <= technique for board in draws]
    assert solved == [False] * (made.draws - 1) + [True]
    assert made.technique is rate(made.board).technique


def test_uniform_with_needs_keeps_the_first_draw_rated_exactly_its_technique() -> None:
    made = generate(9, 9, 12, seed=4, technique=Technique.SUBSET, needs=True, uniform=True)
    assert rate(made.board).technique is Technique.SUBSET and made.needs and made.uniform


def test_a_hopeless_uniform_request_is_refused_at_its_draw_limit() -> None:
    with pytest.raises(
        GenerationError,
        match=r"no uniform 30x16 board with 130 mines solved by complete in 20 draw\(s\): "
        r"none of 20 draw\(s\) was accepted, so uniform sampling is hopeless here",
    ):
        generate(30, 16, 130, seed=0, uniform=True, max_draws=20)


def test_an_impossible_needs_request_ends_at_its_draw_limit() -> None:
    # 6x6 with 3 mines: no layout is found rated complete in 30 draws (the cap, not the clock).
    with pytest.raises(
        GenerationError,
        match=r"no 6x6 board with 3 mines rated complete \(solved by complete, not by ac3\) "
        r"in 30 draw\(s\)",
    ):
        generate(6, 6, 3, seed=0, technique=Technique.COMPLETE, needs=True, max_draws=30)


def test_a_draw_limit_bounds_the_perturbation_loop_too() -> None:
    with pytest.raises(GenerationError, match=r"no no-guess 4x4 board with 11 mines in 2 draw"):
        generate(4, 4, 11, seed=1, timeout=None, max_draws=2)


def test_guess_and_pointless_requests_are_refused_at_once() -> None:
    with pytest.raises(GenerationError, match="the technique 'guess' certifies nothing"):
        generate(9, 9, 10, technique=Technique.GUESS)
    with pytest.raises(GenerationError, match="the technique 'guess' certifies nothing"):
        list(generate_many(9, 9, 10, 2, technique=Technique.GUESS, needs=True))
    with pytest.raises(GenerationError, match="no 5x5 board with 0 mines needs ac3"):
        generate(5, 5, 0, technique=Technique.AC3, needs=True)
    with pytest.raises(GenerationError, match="at least one draw is needed, not 0"):
        generate(5, 5, 2, max_draws=0)


def test_needs_count_is_the_technique_count() -> None:
    made = generate(9, 9, 10, seed=3, technique=Technique.COUNT, needs=True)
    assert made.board == generate(9, 9, 10, seed=3, technique=Technique.COUNT).board
    assert made.technique is Technique.COUNT and made.needs


def test_with_the_total_a_strip_the_plain_sweep_cannot_finish_is_made() -> None:
    # 1x5 from the corner with 2 mines: the far mine is seen by no clue, but the total places it.
    made = generate(1, 5, 2, seed=1, technique=Technique.TOTAL)
    assert made.board == Board.from_text(". . . * *")
    assert made.technique is Technique.TOTAL


@pytest.mark.parametrize("seed", range(20))
def test_boards_counted_from_the_mines_are_the_boards_of_from_mines(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 12), rng.randint(1, 12)
    layout = rng.sample(range(rows * cols), rng.randint(0, rows * cols))
    assert layout_board(Geometry(rows, cols), layout) == Board.from_mines(rows, cols, layout)
