"""The solver as an agent (csp, best): the mine total, flags, mines revealed before it plays, what
it infers with and without the total, and the guess it makes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mineshafted import BoardManager, Sweep, read_puzzles
from mineshafted.agents import agent
from mineshafted.board import Board
from mineshafted.game import AfterMine, FirstMove, Flag, Game, GameStatus, Reveal, Rules, View
from mineshafted.probability import Best, odds

from ..conftest import view_of

# The row "0 1 * ?": the 1 proves the mine; only the mine total (1) proves the last cell safe.
ROW = Board.from_mines(1, 4, [2])


def guesses(game: Game) -> list[int]:
    return [e.cell for e in game.record.events if isinstance(e, Reveal) and e.guess]


def test_with_the_total_shown_the_csp_agent_needs_no_guess() -> None:
    game = Game.on(ROW, rules=Rules.CLASSIC)
    game.reveal(0)
    agent("csp").play(game, random.Random(0))
    assert game.won
    assert guesses(game) == []


def test_the_csp_agent_flags_a_single_proven_mine() -> None:
    game = Game.on(ROW, rules=Rules.CLASSIC)
    game.reveal(0)
    agent("csp").play(game, random.Random(0))
    assert [e.cell for e in game.record.events if isinstance(e, Flag)] == [2]


@pytest.mark.parametrize("name", ["csp", "best"])
def test_a_blind_first_move_is_recorded_as_a_guess(name: str) -> None:
    game = Game.draw(5, 5, 3, rules=Rules.CLASSIC, seed=4)
    agent(name).play(game, random.Random(4))
    first = game.record.events[0]
    assert isinstance(first, Reveal) and first.guess


@pytest.mark.parametrize("name", ["csp", "best"])
def test_the_agents_record_their_blind_first_move_and_their_guesses_by_reason(name: str) -> None:
    game = Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=1)
    agent(name).play(game, random.Random(1))
    reveals = [e for e in game.record.events if isinstance(e, Reveal) and e.guess]
    assert len(reveals) > 1
    assert [e.reason for e in reveals] == ["first move"] + ["guess"] * (len(reveals) - 1)


def test_a_mine_revealed_before_the_agent_plays_is_told_to_the_sweep() -> None:
    # "* 1 ." under CS440 rules: the mine at 0 was stepped on; the 1 then makes cell 2 safe.
    rules = Rules(FirstMove.NONE, auto_expand=True, after_mine=AfterMine.CONTINUE, total_known=True)
    game = Game.on(Board.from_mines(1, 3, [0]), rules=rules)
    game.reveal(1)
    game.reveal(0, guess=True)
    before = len(game.record.events)
    agent("csp").play(game, random.Random(0))
    assert game.over and game.shown(2) == 0
    assert guesses(game)[-1] == 0  # no guess of the agent's own
    assert len(game.record.events) > before


def test_best_without_the_total_guesses_an_undetermined_cell() -> None:
    hidden = Rules(FirstMove.SAFE, auto_expand=True, after_mine=AfterMine.END, total_known=False)
    game = Game.on(ROW, rules=hidden)
    game.reveal(0)
    agent("best").play(game, random.Random(0))
    assert guesses(game) == [3]


def test_csp_inference_without_the_total_decides_each_component_alone() -> None:
    # Top row hidden over "1 2 1": only mines on 0 and 2 fit; with no total, the lone cell 3
    # of the row "0 1 ? ?" stays unknown.
    top = View(view_of("???\n121"), frozenset(), None, GameStatus.PLAYING)
    found = agent("csp").infer(top)
    assert (found.safe, found.mines) == ({1}, {0, 2})
    row = View(view_of(".1??"), frozenset(), None, GameStatus.PLAYING)
    found = agent("csp").infer(row)
    assert (found.safe, found.mines) == (frozenset(), {2})


def test_csp_inference_with_the_total_decides_cells_no_clue_sees() -> None:
    row = View(view_of(".1??"), frozenset(), 1, GameStatus.PLAYING)
    found = agent("csp").infer(row)
    assert (found.safe, found.mines) == ({3}, {2})


def test_the_best_agent_guesses_by_the_best_policy_under_the_total() -> None:
    shipped = Path(__file__).resolve().parents[2] / "puzzles" / "needs-guess"
    for path in sorted(shipped.glob("*.json")):
        (puzzle,) = read_puzzles(path)
        sweep = Sweep(BoardManager(puzzle.board), start=puzzle.start, mines=puzzle.board.mine_total)
        report, position = sweep.run(), sweep.position()
        chances = odds(position, puzzle.board.mine_total)
        want = Best().choose(position, chances, report.board, random.Random(1))
        game = Game.on(puzzle.board, rules=Rules.CLASSIC)
        game.reveal(puzzle.start)
        agent("best").play(game, random.Random(1))
        assert guesses(game)[0] == want, path.name
