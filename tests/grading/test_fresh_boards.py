"""The default grading boards: fresh per grading, made from a seed, rated <= ac3.

A submission that carries known boards and looks them up scores full marks on the boards it
carries (the old default, the shipped sets) and nothing on fresh ones. Where the seed comes
from, and what a report may name, is test_key.py's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mineshafted import Technique, rate
from mineshafted.formats import find_puzzle_files, read_puzzles
from mineshafted.grading import boards, grade, shipped_puzzles

from .conftest import SMALL_SETS, lookup_submission


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_fresh_board_is_rated_ac3_or_below(seed: int) -> None:
    for label, puzzle in boards.fresh_boards(seed):
        assert rate(puzzle.board, start=puzzle.start).technique <= Technique.AC3, label
        assert puzzle.extra["technique"] == rate(puzzle.board).technique.value


def test_fresh_boards_cover_every_tier_with_its_mines() -> None:
    made = boards.fresh_boards(3)
    counted = {(p.board.geometry.rows, p.board.geometry.cols, len(p.board.mines)) for _, p in made}
    assert counted == {(r, c, m) for r, c, m, _ in boards.FRESH_SETS}
    assert len(made) == sum(n for *_, n in boards.FRESH_SETS)
    assert all(p.start == 0 for _, p in made)


def test_the_same_seed_makes_the_same_boards_and_another_seed_others() -> None:
    first = [p.board for _, p in boards.fresh_boards(11)]
    assert [p.board for _, p in boards.fresh_boards(11)] == first
    assert [p.board for _, p in boards.fresh_boards(12)] != first


@pytest.mark.slow
def test_a_submission_that_looks_boards_up_scores_on_known_boards_only(
    tmp_path: Path, small_sets: None
) -> None:
    tiers = find_puzzle_files(
        [shipped_puzzles() / f"tier-{n}-mine{'s' if n > 1 else ''}" for n in range(1, 6)]
    )
    known = [read_puzzles(p)[0] for p in tiers]
    lookup = lookup_submission(tmp_path, [p.board.to_grid() for p in known])
    on_known = grade(lookup, [(p.name or "", p) for p in known], jobs=2)
    assert on_known.score == 100
    on_fresh = grade(lookup, boards.fresh_boards(5), jobs=2)
    assert on_fresh.score == 0


def test_fresh_boards_are_labelled_and_named_by_tier_and_number(small_sets: None) -> None:
    labels = [label for label, _ in boards.fresh_boards(4)]
    assert labels == ["4x4-1-1", "4x4-1-2", "5x5-2-1", "6x6-3-1", "6x6-4-1", "8x8-5-1"]
    assert all(puzzle.name == label for label, puzzle in boards.fresh_boards(4))


def test_fresh_boards_are_generated_for_ac3_at_most(
    small_sets: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Boards that need more than ac3 are rare: checking the ratings alone would seldom see a
    # generation that allowed them.
    asked = []
    generate = boards.generate_many

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs.get("technique"))
        return generate(*args, **kwargs)

    monkeypatch.setattr(boards, "generate_many", spy)
    boards.fresh_boards(0)
    assert asked == [Technique.AC3] * len(SMALL_SETS)


def test_forty_seeds_make_forty_different_boards_of_a_tier(small_sets: None) -> None:
    # Each tier's boards come from a seed drawn from the grading's: drawn from a narrow range,
    # gradings would share boards.
    tier = [
        next(p.board for label, p in boards.fresh_boards(seed) if label == "8x8-5-1")
        for seed in range(40)
    ]
    assert len({b.mines for b in tier}) == 40
