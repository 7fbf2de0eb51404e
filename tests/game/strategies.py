"""Hypothesis strategies for games: rules, boards, action sequences, and a player for them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hypothesis import strategies as st

from mineshafted import Board
from mineshafted.errors import IllegalMoveError
from mineshafted.game import AfterMine, FirstMove, Game, Rules


class Act(StrEnum):
    REVEAL = "reveal"
    GUESS = "guess"
    FLAG = "flag"
    UNFLAG = "unflag"


rules = st.builds(
    Rules,
    st.sampled_from(FirstMove),
    st.booleans(),
    st.sampled_from(AfterMine),
    st.booleans(),
)


@st.composite
def boards(draw: st.DrawFn, max_side: int = 6) -> Board:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = rows * cols
    mines = draw(st.sets(st.integers(0, cells - 1), max_size=cells))
    return Board.from_mines(rows, cols, mines)


@dataclass(frozen=True)
class Action:
    act: Act
    fraction: float
    """Where on the board, as a fraction of the cell count (so it fits any board)."""
    reason: str | None

    def cell(self, cells: int) -> int:
        return min(int(self.fraction * cells), cells - 1)


actions = st.lists(
    st.builds(
        Action,
        st.sampled_from(Act),
        st.floats(0, 1, exclude_max=True),
        st.none() | st.sampled_from(["search", "AC-3", "rule: corner 1-1"]),
    ),
    max_size=40,
)


def play(game: Game, plan: list[Action]) -> None:
    """Apply ``plan`` to ``game``, skipping what the rules would refuse, until it ends."""
    cells = game.geometry.cells
    for action in plan:
        if game.over:
            return
        cell = action.cell(cells)
        if action.act is Act.FLAG:
            if game.shown(cell) is None:
                game.flag(cell, reason=action.reason)
        elif action.act is Act.UNFLAG:
            game.unflag(cell, reason=action.reason, detail={"why": [1, "x"]})
        elif cell not in game.flags:
            guess = action.act is Act.GUESS
            try:
                game.reveal(
                    cell,
                    guess=guess,
                    probability=action.fraction if guess else None,
                    reason=action.reason,
                )
            except IllegalMoveError:  # a first move with no room for the mines
                assert game.rules.first_move is not FirstMove.NONE
                assert game.record.header.first is None
