"""``POST /api/analyze`` answers exactly what ``mineshafted probabilities --json`` prints, on many
positions; its decided cells and best move follow from those odds; a large open position is
counted with its open cells counted once, exactly as the library counts it."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch

import pytest
from typer.testing import CliRunner

from mineshafted.board import PartialGrid
from mineshafted.cli import app as cli
from mineshafted.errors import NoPlacementError
from mineshafted.game import Game, Rules
from mineshafted.probability import odds, position_of, view_odds
from mineshafted.solver import Sweep, total
from mineshafted.web import analyze

from .conftest import Cut, cuts

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")

with warnings.catch_warnings():  # Starlette 1.x asks for httpx2; httpx serves every version
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

from mineshafted.web.app import create_app
from mineshafted.web.limits import Limits

runner = CliRunner()


def _stalls(count: int) -> Iterator[Cut]:
    """Positions where classic play stalls on expert boards: what a player asks about."""
    for seed in range(count * 3):
        game = Game.draw(16, 30, 99, rules=Rules.CLASSIC, seed=seed)
        report = Sweep(game.manager(), start=0, mines=99).run()
        if not game.over and not report.solved:
            yield Cut(game.view().grid, 99)
            count -= 1
            if not count:
                return


POSITIONS = [
    *cuts(40, seed=1, rows=6, cols=7, density=0.2),
    *cuts(20, seed=2, rows=9, cols=9, density=0.15),
    *_stalls(20),
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(seconds=30.0, workers=2))) as test_client:
        yield test_client


@pytest.mark.slow
def test_the_api_and_the_command_give_exactly_the_same_odds(
    client: TestClient, tmp_path: Path
) -> None:
    compared = 0
    for number, cut in enumerate(POSITIONS):
        path = tmp_path / f"{number}.json"
        path.write_text(json.dumps(cut.json()))
        printed = runner.invoke(cli, ["probabilities", str(path), "--json"])
        answer = client.post("/api/analyze", json=cut.json())
        if printed.exit_code != 0:  # no placement fits: both refuse, in the same words
            assert answer.status_code == 422
            assert answer.json()["error"] in printed.stderr
            continue
        command = json.loads(printed.stdout)
        got = answer.json()
        assert answer.status_code == 200, answer.text
        for key in ("probabilities", "mines_left", "placements"):
            assert got[key] == command[key], (number, key)
        compared += 1
    assert compared >= 70


def test_safe_cells_mines_and_the_best_move_follow_from_the_odds() -> None:
    for cut in POSITIONS[:60]:
        try:
            result = analyze(cut.grid, cut.mines)
        except ValueError:
            continue
        answer = result.to_json()
        grid = answer["probabilities"]
        unknown = {(r, c) for r, row in enumerate(cut.grid) for c, v in enumerate(row) if v is None}
        assert {tuple(p) for p in answer["safe"]} == {
            (r, c) for r, c in unknown if grid[r][c] == 0.0
        }
        assert {tuple(p) for p in answer["mines"]} == {
            (r, c) for r, c in unknown if grid[r][c] == 1.0
        }
        best = answer["best"]
        if answer["safe"]:
            assert best == answer["safe"][0]
        elif best is not None:
            r, c = best
            assert 0 < grid[r][c] < 1 and answer["best_probability"] == grid[r][c]
        else:
            assert all(grid[r][c] == 1.0 for r, c in unknown)


# -- large open positions ---------------------------------------------------------------------


def _open_board(rows: int, cols: int, clues: dict[tuple[int, int], int]) -> PartialGrid:
    grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    for (r, c), value in clues.items():
        grid[r][c] = value
    return grid


def test_open_cells_counted_by_a_window_of_binomials_give_exactly_the_librarys_odds() -> None:
    # Every cut (a real board's view) and a few open boards with clues, known mines and
    # totals at both ends, counted both ways (solver.total.WINDOW_CELLS): the same placements,
    # the same count per cell, or the same refusal.
    boards = [(cut.grid, cut.mines) for cut in POSITIONS]
    for mines in (1, 2, 9, 50, 196, 197, 198):
        boards.append((_open_board(10, 20, {(0, 0): 1, (5, 5): 3, (9, 19): -1}), mines))
        boards.append((_open_board(1, 200, {(0, 100): 2}), mines))
    compared = 0
    for grid, mines in boards:
        position = position_of(grid)
        try:
            expected = odds(position, mines)
        except NoPlacementError as error:
            with patch.object(total, "WINDOW_CELLS", 0), pytest.raises(NoPlacementError) as refused:
                odds(position, mines)
            assert str(refused.value) == str(error)
            continue
        with patch.object(total, "WINDOW_CELLS", 0):
            assert odds(position, mines) == expected
        compared += 1
    assert compared >= 80


@pytest.mark.slow
def test_a_large_open_position_is_counted_and_its_safest_cell_is_the_best_move() -> None:
    grid = _open_board(300, 300, {(0, 0): 1, (150, 150): 2})
    result = analyze(grid, 18_000)
    expected = view_odds(grid, 18_000)
    assert result.result == expected
    answer = result.to_json()
    assert answer["best_by"] == "safest" and answer["best"] == [0, 2]  # the first open cell
    assert expected.mined[2] == min(expected.mined.values())
    shown = answer["probabilities"]
    assert shown[299][299] == shown[0][2] == answer["best_probability"] < shown[0][1]
