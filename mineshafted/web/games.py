"""Games: the live games of Play, each with its hidden board, kept by the server.

The board never leaves the server while the game is on: a request gets what the player sees
(the cells each action revealed, the counters), and the mines and the seed (which draws the
board) only once the game has ended.

Glossary
--------
live game
    A game being played in a page, kept in a :class:`Store` under a random id.
no-guess board
    Made at the first reveal, from the seed, by the generator with the revealed cell as its
    start (so the first reveal opens a region, and logic alone finishes the board).
chord
    A press on a revealed clue with as many flags around it as its value: every other hidden
    neighbour is revealed (a wrong flag loses the game, as in every Minesweeper).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..board import MINE, Board, Cell
from ..game import LEVELS, AfterMine, FirstMove, Game, GameStatus, Rules
from .errors import RequestError
from .store import Store

__all__ = ["LEVELS", "LiveGame", "Settings", "Store", "three_bv"]  # Store: from .store

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    """How a live game is played."""

    rows: int
    cols: int
    mines: int
    seed: int
    first: FirstMove = FirstMove.SAFE
    """``SAFE`` or ``OPENING``; a no-guess board always opens at the first reveal."""
    no_guess: bool = False
    technique: str | None = None
    """The rating a no-guess board is made for (the weakest technique that solves it);
    ``None``: any board the complete deduction solves."""

    def to_json(self, *, seed: bool = True) -> dict[str, object]:
        """The settings, JSON-ready; the seed ``None`` unless ``seed`` (it draws the board, so
        it is shown only once the game is over)."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "seed": self.seed if seed else None,
            "first": self.first.value,
            "board": "no-guess" if self.no_guess else "random",
            "technique": self.technique,
        }


class LiveGame:
    """One game of Play: the engine's game, the clock, and what the page may see of it.

    Examples
    --------
    >>> live = LiveGame(Settings(3, 3, 1, seed=4))
    >>> answer = live.reveal((0, 0))
    >>> answer["status"], len(answer["revealed"]) > 0, "mines" in answer
    ('playing', True, False)
    """

    def __init__(self, settings: Settings, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.rules = Rules(
            FirstMove.NONE if settings.no_guess else settings.first,
            auto_expand=True,
            after_mine=AfterMine.END,
            total_known=True,
        )
        self.game: Game | None = None
        if not settings.no_guess:
            self.game = Game.draw(
                settings.rows, settings.cols, settings.mines, rules=self.rules, seed=settings.seed
            )
        self.began: float | None = None
        self.ended: float | None = None
        self.rating: str | None = None
        """A no-guess board's rating, once it is made."""
        self.making = False
        """Whether the no-guess board is being made (a second first reveal must wait)."""
        self.actions = 0
        """Reveals, flags and chords taken."""
        self.origin = "play"
        """``"play"``, or ``"watch"`` for a game taken over from a watched game."""

    @classmethod
    def taken_over(
        cls,
        settings: Settings,
        layout: tuple[Cell, ...],
        steps: list[dict[str, Any]],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> LiveGame:
        """A game on a watched game's board, its ``steps`` played: the page plays on.

        Raises
        ------
        RequestError
            409: the steps end the game (nothing is left to play).
        """
        live = cls(replace(settings, no_guess=True), clock=clock)
        live.place(list(layout))
        live.origin = "watch"
        game = live.game
        assert game is not None
        for step in steps:
            index = step["cell"][0] * settings.cols + step["cell"][1]
            if step["kind"] == "reveal":
                if game.shown(index) is None:
                    game.reveal(index)
            elif step["kind"] == "flag" and index not in game.flags:
                game.flag(index)
            elif step["kind"] == "unflag" and index in game.flags:
                game.unflag(index)
            if game.over:
                raise RequestError(409, "step: the game is over by then: nothing left to play")
        if any(game.shown(c) is not None for c in range(settings.rows * settings.cols)):
            live.began = clock()
        return live

    @property
    def needs_board(self) -> bool:
        """Whether the board is still to be made (a no-guess game before its first reveal)."""
        return self.game is None

    def place(self, mines: list[Cell], rating: str | None = None) -> None:
        """Lay the no-guess board made for this game: its mines, and its rating (the weakest
        technique that solves it)."""
        s = self.settings
        self.game = Game.on(Board.from_mines(s.rows, s.cols, mines), rules=self.rules)
        self.rating = rating

    @property
    def started(self) -> bool:
        """Whether the first cell has been revealed."""
        return self.began is not None

    @property
    def status(self) -> GameStatus:
        """Playing, won or lost."""
        return GameStatus.PLAYING if self.game is None else self.game.status

    @property
    def over(self) -> bool:
        """Whether the game has ended (won or lost): its board may be shown."""
        return self.game is not None and self.game.over

    def seconds(self) -> float:
        """Seconds since the first reveal (until the end, once over)."""
        if self.began is None:
            return 0.0
        end = self.ended if self.ended is not None else self.clock()
        return end - self.began

    # -- actions --------------------------------------------------------------------------

    def reveal(self, cell: tuple[int, int]) -> dict[str, Any]:
        """Reveal ``cell``; the cells revealed and the counters.

        Raises
        ------
        RequestError
            409: the game is over, or its board is not made yet; 422: the cell is flagged.
        """
        game = self._playing()
        index = self._index(cell)
        if index in game.flags:
            raise RequestError(422, f"cell: {list(cell)} is flagged: take the flag off first")
        if self.began is None:
            self.began = self.clock()
        self.actions += 1
        event = game.reveal(index)
        return self._answer([event.revealed])

    def flag(self, cell: tuple[int, int]) -> dict[str, Any]:
        """Flag ``cell``, or take its flag off.

        Raises
        ------
        RequestError
            409: the game is over; 422: the cell is revealed.
        """
        game = self._playing()
        index = self._index(cell)
        if game.shown(index) is not None:
            raise RequestError(422, f"cell: {list(cell)} is revealed: only hidden cells take flags")
        if index in game.flags:
            game.unflag(index)
        else:
            game.flag(index)
        self.actions += 1
        return self._answer([])

    def chord(self, cell: tuple[int, int]) -> dict[str, Any]:
        """Reveal every hidden, unflagged neighbour of a clue whose flags match its value.

        A clue with more or fewer flags around it than its value changes nothing (the
        answer's ``note`` says so).

        Raises
        ------
        RequestError
            409: the game is over; 422: the cell is not a revealed clue.
        """
        game = self._playing()
        index = self._index(cell)
        value = game.shown(index)
        if value is None or value == MINE:
            raise RequestError(422, f"cell: {list(cell)} is not a revealed clue")
        around = game.geometry.neighbours(index)
        flags = sum(n in game.flags for n in around)
        if flags != value:
            answer = self._answer([])
            answer["note"] = (
                f"the clue at {tuple(cell)} shows {value} but has {flags} flag(s) around it"
            )
            return answer
        self.actions += 1
        opened = []
        for n in around:
            if game.over:
                break
            if game.shown(n) is None and n not in game.flags:
                opened.append(game.reveal(n).revealed)
        return self._answer(opened)

    def view(self) -> dict[str, Any]:
        """Everything the page shows of the game: the settings, the grid (``None`` hidden),
        the flags, the counters, and the mines and the seed once the game is over."""
        s = self.settings
        grid: list[list[int | None]] = [[None] * s.cols for _ in range(s.rows)]
        flagged: list[list[int]] = []
        if self.game is not None:
            grid = self.game.view().grid
            flagged = [list(divmod(c, s.cols)) for c in sorted(self.game.flags)]
        answer = self._counters()
        answer.update(
            settings=s.to_json(seed=self.over), board=grid, flagged=flagged, origin=self.origin
        )
        return answer

    def position(self) -> tuple[list[list[int | None]], int]:
        """The player's position: revealed clues, ``None`` elsewhere (flags are the player's
        opinion, not what is known), and the mine total."""
        s = self.settings
        if self.game is None:
            return [[None] * s.cols for _ in range(s.rows)], s.mines
        grid = [list(row) for row in self.game.view().grid]
        return grid, s.mines

    # -- helpers --------------------------------------------------------------------------

    def _playing(self) -> Game:
        """The game, once it is known to be on and its board made."""
        if self.game is None:
            raise RequestError(409, "the board is not made yet: reveal a cell first")
        if self.game.over:
            raise RequestError(409, f"the game is over ({self.game.status})")
        return self.game

    def _index(self, cell: tuple[int, int]) -> Cell:
        return cell[0] * self.settings.cols + cell[1]

    def _counters(self) -> dict[str, Any]:
        """Status, flags, mines left to flag, seconds; the mines, wrong flags and the seed
        once over."""
        game = self.game
        flags = 0 if game is None else len(game.flags)
        answer: dict[str, Any] = {
            "status": self.status.value,
            "flags": flags,
            "mines_left": self.settings.mines - flags,
            "seconds": round(self.seconds(), 3),
            "actions": self.actions,
        }
        if self.rating is not None:
            answer["rating"] = self.rating
        if game is not None and game.over:
            if self.ended is None:
                self.ended = self.clock()
                answer["seconds"] = round(self.seconds(), 3)
            cols = self.settings.cols
            assert game.board is not None
            mines = game.board.mines
            answer["mines"] = [list(divmod(c, cols)) for c in sorted(mines)]
            answer["wrong_flags"] = [list(divmod(c, cols)) for c in sorted(game.flags - mines)]
            answer["hit"] = [list(divmod(c, cols)) for c in game.mines_hit]
            answer["seed"] = self.settings.seed
            answer["bbbv"] = three_bv(game.board)
            if game.status is GameStatus.WON:
                answer["mines_left"] = 0  # every mine is found: the counter says so
                answer["efficiency"] = round(answer["bbbv"] / max(1, self.actions), 4)
        return answer

    def _answer(self, reveals: list[tuple[tuple[Cell, int], ...]]) -> dict[str, Any]:
        """An action's answer: the cells revealed (``[row, column, value]``), the flags and
        the counters."""
        cols = self.settings.cols
        answer = self._counters()
        answer["revealed"] = [[c // cols, c % cols, v] for revealed in reveals for c, v in revealed]
        assert self.game is not None
        answer["flagged"] = [list(divmod(c, cols)) for c in sorted(self.game.flags)]
        return answer


def three_bv(board: Board) -> int:
    """A board's 3BV: the fewest reveals that clear it, one for each opening (a region of
    zeros with its border) and one for each safe cell beside no zero.

    Examples
    --------
    >>> three_bv(Board.from_grid([[0, 1, -1], [0, 1, 1], [0, 0, 0]]))
    1
    >>> three_bv(Board.from_grid([[1, -1, 1]]))
    2

    Notes
    -----
    ``O(cells)``: each opening is flooded once.
    """
    values = board.values
    table = board.geometry.neighbour_table()
    seen = bytearray(len(values))
    count = 0
    for cell, value in enumerate(values):
        if value != 0 or seen[cell]:
            continue
        count += 1
        seen[cell] = 1
        queue = [cell]
        for here in queue:
            for n in table[here]:
                if not seen[n] and values[n] != MINE:
                    seen[n] = 1
                    if values[n] == 0:
                        queue.append(n)
    return count + sum(1 for cell, value in enumerate(values) if value != MINE and not seen[cell])
