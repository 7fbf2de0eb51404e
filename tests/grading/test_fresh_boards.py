"""The default grading boards: fresh per grading, from a seed the report names, rated <= ac3.

A submission that carries known boards and looks them up scores full marks on the boards it
carries (the old default, the shipped sets) and nothing on fresh ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted import Technique, rate
from mineshafted.cli import app
from mineshafted.formats import find_puzzle_files, read_puzzles
from mineshafted.grading import boards, grade, shipped_puzzles

from .conftest import CORRECT, submission

runner = CliRunner()

SMALL_SETS = ((4, 4, 1, 2), (5, 5, 2, 1), (6, 6, 3, 1), (6, 6, 4, 1), (8, 8, 5, 1))
"""One or two boards a tier: enough for the command's tests, quick to grade."""


@pytest.fixture
def small_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boards, "FRESH_SETS", SMALL_SETS)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_fresh_board_is_rated_ac3_or_below(seed: int) -> None:
    for label, puzzle in boards.fresh_boards(seed):
        assert rate(puzzle.board, start=puzzle.start).technique <= Technique.AC3, label
        assert puzzle.extra["technique"] == rate(puzzle.board).technique.value


def test_fresh_boards_cover_every_tier_with_its_mines() -> None:
    made = boards.fresh_boards(3)
    counted = {(p.board.geometry.rows, p.board.geometry.cols, p.board.mine_count) for _, p in made}
    assert counted == {(r, c, m) for r, c, m, _ in boards.FRESH_SETS}
    assert len(made) == sum(n for *_, n in boards.FRESH_SETS)
    assert all(p.start == 0 for _, p in made)


def test_the_same_seed_makes_the_same_boards_and_another_seed_others() -> None:
    first = [p.board for _, p in boards.fresh_boards(11)]
    assert [p.board for _, p in boards.fresh_boards(11)] == first
    assert [p.board for _, p in boards.fresh_boards(12)] != first


def _lookup_submission(tmp_path: Path, known: list[list[list[int]]]) -> Path:
    """A submission that solves nothing: it carries ``known`` boards, tells the ones of the
    board's size apart by a few safe moves, and answers the one left, moving onto its safe
    cells."""
    code = f"""
KNOWN = {json.dumps(known)}

def sweep_mines(bm):
    rows, cols = bm.size
    cells = rows * cols
    first = bm.move(0)
    left = [b for b in KNOWN if (len(b), len(b[0])) == (rows, cols) and b[0][0] == first]
    while len(left) > 1:  # a safe move whose clue tells the candidates apart
        for n in range(cells):
            seen = {{b[n // cols][n % cols] for b in left}}
            if -1 not in seen and len(seen) > 1:
                clue = bm.move(n)
                left = [b for b in left if b[n // cols][n % cols] == clue]
                break
        else:
            break
    if not left:
        return [[0] * cols for _ in range(rows)]
    board = left[0]
    for n in range(1, cells):
        if board[n // cols][n % cols] >= 0:
            bm.move(n)
    return board
"""
    return submission(tmp_path, code, name="lookup.py")


@pytest.mark.slow
def test_a_submission_that_looks_boards_up_scores_on_known_boards_only(
    tmp_path: Path, small_sets: None
) -> None:
    tiers = find_puzzle_files(
        [shipped_puzzles() / f"tier-{n}-mine{'s' if n > 1 else ''}" for n in range(1, 6)]
    )
    known = [read_puzzles(p)[0] for p in tiers]
    lookup = _lookup_submission(tmp_path, [p.board.to_grid() for p in known])
    on_known = grade(lookup, [(p.name or "", p) for p in known], jobs=2)
    assert on_known.score == 100
    on_fresh = grade(lookup, boards.fresh_boards(5), jobs=2)
    assert on_fresh.score == 0


@pytest.mark.slow
def test_grade_by_default_names_the_seed_and_the_seed_regrades_the_same_boards(
    tmp_path: Path, small_sets: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards, "fresh_seed", lambda: 424242)
    path = submission(tmp_path, CORRECT)
    result = runner.invoke(app, ["grade", "--json", "-j", "2", str(path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["seed"] == 424242 and report["score"] == 100
    again = runner.invoke(app, ["grade", "--json", "-j", "2", "--seed", "424242", str(path)])
    repeated = json.loads(again.stdout)
    assert [b["puzzle"] for b in repeated["boards"]] == [b["puzzle"] for b in report["boards"]]
    assert [b["moves"] for b in repeated["boards"]] == [b["moves"] for b in report["boards"]]
    text = runner.invoke(app, ["grade", "-j", "2", "--seed", "7", str(path)], terminal_width=200)
    assert "boards: fresh from seed 7 (the same boards again: --seed 7)" in text.stdout


def test_seed_with_puzzle_files_is_refused_in_one_line(tmp_path: Path) -> None:
    path = submission(tmp_path, CORRECT)
    result = runner.invoke(app, ["grade", "--seed", "3", str(path), str(shipped_puzzles())])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --seed chooses the fresh default boards: it cannot be used with puzzle files\n"
    )


def test_fresh_boards_are_labelled_and_named_by_tier_and_number(small_sets: None) -> None:
    labels = [label for label, _ in boards.fresh_boards(4)]
    assert labels == ["4x4-1-1", "4x4-1-2", "5x5-2-1", "6x6-3-1", "6x6-4-1", "8x8-5-1"]
    assert all(puzzle.name == label for label, puzzle in boards.fresh_boards(4))


def test_fresh_seeds_are_drawn_from_63_bits() -> None:
    seeds = [boards.fresh_seed() for _ in range(200)]
    assert all(0 <= seed < 2**63 for seed in seeds)
    assert len(set(seeds)) == len(seeds)
    assert max(seeds) >= 2**62


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
