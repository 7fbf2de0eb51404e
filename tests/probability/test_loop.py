"""play_out, the one game loop: what it records and flags by default, how it ends, and the stalls
it hands a policy (counted only when read, and only while the stall lasts)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from mineshafted.board import Board, PartialGrid
from mineshafted.game import AfterMine, FirstMove, Flag, Game, Reveal, Rules
from mineshafted.probability import Odds, RandomGuess, Safest
from mineshafted.probability.loop import play_out
from mineshafted.solver import Position

# Seed 2 of a classic 9x9 game with 10 mines: the sweep proves mines, then stalls once.
ROWS, COLS, MINES, SEED = 9, 9, 10, 2


def classic() -> Game:
    return Game.draw(ROWS, COLS, MINES, rules=Rules.CLASSIC, seed=SEED)


def flags(game: Game) -> list[Flag]:
    return [e for e in game.record.events if isinstance(e, Flag)]


def guessed(game: Game) -> list[Reveal]:
    return [e for e in game.record.events if isinstance(e, Reveal) and e.guess]


@dataclass
class Keeper:
    """A policy that guesses the first unknown cell and keeps every stall it was handed."""

    kept: list[tuple[Position, Odds]] = field(default_factory=list)
    name: str = "keeper"

    def choose(self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random) -> int:
        self.kept.append((position, odds))
        return position.unknown[0]


def test_the_loop_records_no_odds_with_a_guess_unless_asked() -> None:
    game = classic()
    play_out(game, Safest(), random.Random(0), start=0)
    assert guessed(game) and all(e.detail is None for e in guessed(game))


def test_the_loop_flags_nothing_unless_asked() -> None:
    game = classic()
    play_out(game, Safest(), random.Random(0), start=0)
    assert game.over and flags(game) == []
    flagging = classic()
    play_out(flagging, Safest(), random.Random(0), start=0, flag=True)
    assert flags(flagging)


def test_the_loop_flags_each_proven_mine_as_inferred() -> None:
    game = classic()
    play_out(game, Safest(), random.Random(0), start=0, flag=True)
    marked = flags(game)
    assert marked and all(e.reason == "inferred mine" for e in marked)


def test_the_loop_stops_when_the_game_is_won_with_a_mine_still_unknown() -> None:
    # ". 1 * *" with the total hidden: revealing 0 shows the 1, which proves the mine at 2 and
    # wins the game; nothing decides whether 3 is a mine, and no guess follows the win.
    rules = Rules(FirstMove.SAFE, auto_expand=True, after_mine=AfterMine.END, total_known=False)
    game = Game.on(Board.from_mines(1, 4, [2, 3]), rules=rules)
    assert play_out(game, RandomGuess(), random.Random(0), start=0) == []
    assert game.won and guessed(game) == []


def test_a_policy_reading_the_odds_without_the_mine_total_is_refused() -> None:
    rules = Rules(FirstMove.SAFE, auto_expand=True, after_mine=AfterMine.END, total_known=False)
    game = Game.draw(ROWS, COLS, MINES, rules=rules, seed=SEED)
    with pytest.raises(ValueError, match=r"^no exact odds: the rules keep the mine total hidden$"):
        play_out(game, Safest(), random.Random(0), start=0)


def test_a_stall_read_after_the_game_moved_on_from_it_is_refused() -> None:
    keeper = Keeper()  # it reads neither the odds nor the position's components
    play_out(classic(), keeper, random.Random(0), start=0, probabilities=False)
    position, odds = keeper.kept[0]
    with pytest.raises(RuntimeError, match=r"^placements of a stall read after the game moved on"):
        odds.placements  # noqa: B018 - the read is the test
    with pytest.raises(RuntimeError, match=r"^components of a stall read after the game moved on"):
        position.components  # noqa: B018


def test_a_stall_has_no_fields_but_its_own() -> None:
    keeper = Keeper()
    play_out(classic(), keeper, random.Random(0), start=0, probabilities=False)
    position, _ = keeper.kept[0]
    with pytest.raises(AttributeError, match=r"^nothing$"):
        position.nothing  # type: ignore[attr-defined]  # noqa: B018
