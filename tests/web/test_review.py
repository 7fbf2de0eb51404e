"""A finished game's review judges each move from what the player could see then (checked by
brute force over every placement), and a board's 3BV is the reveals that clear it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.board import MINE, Board
from mineshafted.game import AfterMine, FirstMove, Game, Rules
from mineshafted.web.games import LiveGame, Settings, three_bv
from mineshafted.web.review import review

from .conftest import Brute, Cut

RULES = Rules(FirstMove.NONE, auto_expand=True, after_mine=AfterMine.END, total_known=True)


def _played(seed: int) -> Game:
    """A 4x4 game with 3 mines, revealed at random to its end."""
    rng = random.Random(seed)
    board = Board.from_mines(4, 4, rng.sample(range(16), 3))
    game = Game.on(board, rules=RULES)
    while not game.over:
        hidden = [c for c in range(16) if game.shown(c) is None]
        game.reveal(rng.choice(hidden))
    return game


def test_each_reveal_is_judged_by_its_odds_then() -> None:
    verdicts = set()
    for seed in range(40):
        game = _played(seed)
        moves = review(game.record)["moves"]
        grid: list[list[int | None]] = [[None] * 4 for _ in range(4)]
        for k, move in enumerate(moves):
            r, c = move["cell"]
            if k == 0:
                assert move["verdict"] == "first"
            else:
                brute = Brute(Cut([list(row) for row in grid], 3))
                every = list(brute.assignments(brute.clues(), total=True))
                chance = {
                    cell: sum(1 for a in every if a & bit) / len(every)
                    for cell, bit in brute.bit.items()
                }
                p = chance[r * 4 + c]
                assert move["probability"] == p
                assert move["safest"] == min(chance.values())
                safe = sum(1 for q in chance.values() if q == 0)
                assert move["safe"] == safe
                expected = (
                    "certain"
                    if p == 0
                    else "avoidable"
                    if safe
                    else "best"
                    if p <= min(chance.values())
                    else "guess"
                )
                assert move["verdict"] == expected
                verdicts.add(expected)
            for rr, cc, v in move["revealed"]:
                grid[rr][cc] = v
    assert verdicts >= {"certain", "avoidable", "best", "guess"}


def test_the_guesses_are_every_risky_reveal() -> None:
    game = _played(7)
    judged = review(game.record)
    risky = [
        m["probability"] for m in judged["moves"] if m["verdict"] in ("best", "guess", "avoidable")
    ]
    assert judged["guesses"] == risky


def test_flags_are_judged_against_the_mines() -> None:
    live = LiveGame(Settings(9, 9, 10, seed=3))
    live.reveal((0, 0))
    assert live.game is not None and live.game.board is not None
    mine = min(live.game.board.mines)
    safe = next(
        c for c in range(81) if c not in live.game.board.mines and live.game.shown(c) is None
    )
    live.flag(divmod(mine, 9))
    live.flag(divmod(safe, 9))
    live.reveal(divmod(max(live.game.board.mines), 9))
    moves = review(live.game.record)["moves"]
    assert [m["verdict"] for m in moves if m["kind"] == "flag"] == ["flag", "wrong flag"]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.data())
def test_3bv_is_the_reveals_that_clear_the_board(rows: int, cols: int, data: st.DataObject) -> None:
    cells = rows * cols
    mines = data.draw(st.lists(st.integers(0, cells - 1), unique=True, max_size=cells - 1))
    board = Board.from_mines(rows, cols, mines)
    game = Game.on(board, rules=RULES)
    reveals = 0
    # Open every zero first (each reveal opens its whole region), then every safe cell left.
    for wanted in (0, None):
        for cell in range(cells):
            value = board.values[cell]
            if value != MINE and game.shown(cell) is None and (wanted is None or value == wanted):
                game.reveal(cell)
                reveals += 1
    assert three_bv(board) == reveals


def test_a_win_zeroes_the_counter_and_says_its_3bv_and_efficiency() -> None:
    live = LiveGame(Settings(5, 5, 3, seed=2))
    live.reveal((0, 0))
    assert live.game is not None and live.game.board is not None
    answer: dict[str, object] = {}
    for cell in range(25):
        if cell not in live.game.board.mines and live.game.shown(cell) is None:
            answer = live.reveal(divmod(cell, 5))
    assert answer["status"] == "won" and answer["mines_left"] == 0
    assert answer["bbbv"] == three_bv(live.game.board)
    assert answer["efficiency"] == round(three_bv(live.game.board) / live.actions, 4)
