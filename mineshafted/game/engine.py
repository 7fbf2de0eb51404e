"""Game: a hidden board played by its rules, recorded as it goes.

Rebuilding a game from its record lives in :mod:`mineshafted.game.rebuilding`; the Mine Shafted
interface over a game (:class:`~mineshafted.game.manager.GameManager`) in
:mod:`mineshafted.game.manager`. What is left is one class and the view it gives, a little over
450 lines: every action reads and changes the same state (shown cells, flags, the board a first
move may redraw, the record), and the rules of play read best in one place.

Glossary
--------
shown
    What the player sees of a cell: its clue, ``MINE`` for a revealed mine, ``None`` hidden.
zone
    The cells a first move keeps free of mines: the revealed cell under
    :attr:`~mineshafted.game.rules.FirstMove.SAFE`, it and its neighbours under
    :attr:`~mineshafted.game.rules.FirstMove.OPENING`, none under
    :attr:`~mineshafted.game.rules.FirstMove.NONE`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NoReturn

from .. import core
from ..board import MINE, Board, Cell, Geometry, PartialGrid, render
from ..errors import GameOverError, IllegalMoveError, InvalidBoardError
from .manager import GameManager
from .record import (
    Detail,
    GameRecord,
    MineHit,
    Outcome,
    RecordHeader,
    Reveal,
    Unflag,
    _flag,
    _reveal,
)
from .rules import AfterMine, FirstMove, GameStatus, Rules

__all__ = ["Game", "View"]

log = logging.getLogger(__name__)

_PLAYING = GameStatus.PLAYING


@dataclass(frozen=True, slots=True)
class View:
    """What the player sees: ``grid`` of shown values, the flags, the mine total if told."""

    grid: PartialGrid
    """Rows of clues, ``MINE`` for a revealed mine, ``None`` for a hidden cell."""
    flags: frozenset[Cell]
    mines: int | None
    """The mine total, or ``None`` when the rules keep it from the player."""
    status: GameStatus

    def render(self) -> str:
        """The grid as text: ``?`` hidden, ``F`` flagged, ``*`` mine, ``.`` zero, digits.

        Examples
        --------
        >>> print(View([[0, None], [1, None]], frozenset({3}), None, GameStatus.PLAYING).render())
        . ?
        1 F
        """
        cols = len(self.grid[0])
        lines = render(self.grid).splitlines()
        return "\n".join(
            " ".join(
                "F" if r * cols + c in self.flags else glyph
                for c, glyph in enumerate(line.split(" "))
            )
            for r, line in enumerate(lines)
        )


class Game:
    """A hidden board, the rules of play, and the record of what the player did.

    Make one with :meth:`draw` (a random board of a given size, drawn at the first reveal when
    the first move is protected) or :meth:`on` (a fixed board). The same seed, rules and
    actions always give the same game.

    Examples
    --------
    >>> game = Game.on(Board.from_text('''
    ...     . . .
    ...     . . .
    ...     . . *
    ... '''), rules=Rules.CLASSIC, seed=1)
    >>> game.reveal(0).revealed
    ((0, 0), (1, 0), (3, 0), (4, 1), (2, 0), (5, 1), (6, 0), (7, 1))
    >>> game.status, game.won
    (<GameStatus.WON: 'won'>, True)
    >>> print(game.view().render())
    . . .
    . 1 1
    . 1 ?
    >>> game.flag(8)
    Traceback (most recent call last):
    ...
    mineshafted.errors.GameOverError: cell 8 (row 2, column 2): the game is over (won)

    Notes
    -----
    A reveal costs ``O(cells it reveals)``; a flag ``O(1)``; :meth:`view` ``O(cells)``.
    """

    __slots__ = (
        "_board",
        "_cells",
        "_flags",
        "_hidden_safe",
        "_mines_hit",
        "_neighbours",
        "_rng",
        "_shown",
        "_status",
        "geometry",
        "mines",
        "record",
        "rules",
        "seed",
    )

    geometry: Geometry
    mines: int
    """How many mines the board holds."""
    rules: Rules
    seed: int
    """The seed of every random choice this game makes; drawn when none was given."""
    record: GameRecord
    """The header and every event so far."""

    def __init__(
        self,
        geometry: Geometry,
        mines: int,
        *,
        rules: Rules = Rules.CLASSIC,
        seed: int | None = None,
        board: Board | None = None,
    ) -> None:
        """Prefer :meth:`draw` and :meth:`on`, which check their arguments."""
        self.geometry = geometry
        self.mines = mines
        self.rules = rules
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self._neighbours = geometry.neighbour_table()
        self._cells = geometry.cells
        self._shown: list[int | None] = [None] * geometry.cells
        self._flags: set[Cell] = set()
        self._mines_hit: list[Cell] = []
        self._status = GameStatus.PLAYING
        self._hidden_safe = geometry.cells - mines
        layout = None if board is None else tuple(sorted(board.mines))
        self.record = GameRecord(
            RecordHeader(geometry.rows, geometry.cols, mines, rules, self.seed, layout=layout)
        )
        if board is None and rules.first_move is FirstMove.NONE:
            board = Board.from_mines(geometry.rows, geometry.cols, self._draw(frozenset()))
        self._board = board

    @classmethod
    def draw(
        cls,
        rows: int,
        cols: int,
        mines: int,
        *,
        rules: Rules = Rules.CLASSIC,
        seed: int | None = None,
    ) -> Game:
        """A game on a random ``rows`` x ``cols`` board with ``mines`` mines.

        Under a safe or opening first move the board is drawn at the first reveal, outside the
        zone; otherwise at once.

        Raises
        ------
        InvalidBoardError
            The board has no cells, or the mines do not fit (beside the first cell, under a
            safe first move).

        Examples
        --------
        >>> game = Game.draw(9, 9, 10, seed=3)
        >>> game.board is None, game.reveal(40).hit, game.board.mine_total
        (True, False, 10)
        """
        if rows < 1 or cols < 1:
            raise InvalidBoardError(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
        room = rows * cols - (rules.first_move is not FirstMove.NONE)
        if not 0 <= mines <= room:
            raise InvalidBoardError(
                f"{mines} mines do not fit on a {rows}x{cols} board under first move "
                f"{rules.first_move}: at most {room}"
            )
        return cls(Geometry(rows, cols), mines, rules=rules, seed=seed)

    @classmethod
    def on(cls, board: Board, *, rules: Rules = Rules.CLASSIC, seed: int | None = None) -> Game:
        """A game on a fixed ``board``; a protected first move may still move its mines.

        The seed only chooses where such mines go.
        """
        return cls(board.geometry, board.mine_total, rules=rules, seed=seed, board=board)

    # -- state ----------------------------------------------------------------------------

    @property
    def board(self) -> Board | None:
        """The truth, as it stands after any first-move change; ``None`` until drawn."""
        return self._board

    @property
    def status(self) -> GameStatus:
        """Playing, won or lost."""
        return self._status

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self._status is not GameStatus.PLAYING

    @property
    def won(self) -> bool:
        """Whether every safe cell was revealed without revealing a mine.

        Under :attr:`AfterMine.CONTINUE` a game with a mine revealed still ends when every
        safe cell is revealed, but it is lost: ``won`` is False.
        """
        return self._status is GameStatus.WON

    @property
    def mines_hit(self) -> tuple[Cell, ...]:
        """The mines revealed, in the order they were hit."""
        return tuple(self._mines_hit)

    @property
    def flags(self) -> frozenset[Cell]:
        """The flagged cells."""
        return frozenset(self._flags)

    @property
    def score(self) -> float:
        """Mines flagged and never stepped on, over all mines (1.0 on a board without mines).

        The CS440 study's measure: a flag on a safe cell earns nothing, a revealed mine
        cannot be flagged.
        """
        if self.mines == 0:
            return 1.0
        if self._board is None:
            return 0.0
        return len(self._flags & self._board.mines) / self.mines

    def shown(self, cell: Cell) -> int | None:
        """What the player sees at ``cell``: its clue, ``MINE``, or ``None`` if hidden."""
        return self._shown[self._checked(cell)]

    @property
    def shown_values(self) -> Sequence[int | None]:
        """What the player sees at every cell, row-major: live, it follows the game; read only.

        For a player that reads many cells (:class:`~mineshafted.game.manager.GameManager`
        reads one per move): :meth:`shown` checks its argument, this does not.

        Examples
        --------
        >>> game = Game.on(Board.from_text(". *"), rules=Rules.MINE_SHAFTED)
        >>> shown = game.shown_values
        >>> list(shown), game.reveal(0).hit, list(shown)
        ([None, None], False, [1, None])
        """
        return self._shown

    def view(self) -> View:
        """The position as the player sees it."""
        cols = self.geometry.cols
        shown = self._shown
        grid = [shown[r * cols : (r + 1) * cols] for r in range(self.geometry.rows)]
        total = self.mines if self.rules.total_known else None
        return View(grid, frozenset(self._flags), total, self._status)

    def manager(self) -> GameManager:
        """This game behind the Mine Shafted interface, so the solver can play it."""
        return GameManager(self)

    # -- actions --------------------------------------------------------------------------

    def reveal(
        self,
        cell: Cell,
        *,
        guess: bool = False,
        probability: float | None = None,
        reason: str | None = None,
        detail: Detail | None = None,
    ) -> Reveal:
        """Reveal ``cell`` and, when the rules expand zeros, the zero region it opens.

        Parameters
        ----------
        cell:
            The row-major index to reveal.
        guess:
            The player is not sure the cell is safe.
        probability:
            The player's estimate that the cell is a mine, 0..1.
        reason, detail:
            Why the player chose this cell, kept in the record.

        Returns
        -------
        Reveal
            The event: each cell revealed with its value, the revealed cell first, then the
            expansion in breadth-first order; ``hit`` says whether it was a mine. A cell
            already revealed gives an event with nothing revealed, and nothing is recorded.

        Raises
        ------
        GameOverError
            The game has ended.
        IllegalMoveError
            ``cell`` is off the board or flagged, ``probability`` is not in 0..1, or the first
            move's zone leaves no room for the mines.

        Notes
        -----
        Expansion passes over flagged cells. ``O(cells revealed)``, plus ``O(cells)`` for the
        first move when it draws or moves mines.
        """
        # One test for the usual move (an int on the board, the game on, no flag there); the
        # refusals, in the order they are checked, are _refuse_reveal's.
        if (
            type(cell) is not int
            or not 0 <= cell < self._cells
            or self._status is not _PLAYING
            or cell in self._flags
        ):
            self._refuse_reveal(cell)
        if probability is not None and not 0 <= probability <= 1:
            raise IllegalMoveError(
                f"{self._where(cell)}: a mine probability of {probability} is not in 0..1",
                cell=cell,
            )
        shown = self._shown
        if shown[cell] is not None:
            return Reveal(cell, (), guess, probability, reason=reason, detail=detail)
        record = self.record
        if record.header.first is None:
            self._first_move(cell)
            record.header = replace(record.header, first=cell)
        board = self._board
        assert board is not None  # drawn by the first move at the latest
        value = board.values[cell]
        shown[cell] = value
        if value == MINE:
            event = _reveal(cell, ((cell, value),), guess, probability, reason, detail)
            record.events.append(event)
            self._hit(cell)
            return event
        revealed = (
            self._expand(cell, board.values)
            if value == 0 and self.rules.auto_expand
            else ((cell, value),)
        )
        self._hidden_safe -= len(revealed)
        event = _reveal(cell, revealed, guess, probability, reason, detail)
        record.events.append(event)
        if self._hidden_safe == 0:
            self._end(GameStatus.LOST if self._mines_hit else GameStatus.WON)
        return event

    def flag(self, cell: Cell, *, reason: str | None = None, detail: Detail | None = None) -> bool:
        """Flag ``cell`` as a mine; return whether it was not flagged before (then recorded).

        Raises
        ------
        GameOverError
            The game has ended.
        IllegalMoveError
            ``cell`` is off the board or revealed.
        """
        if type(cell) is not int or not 0 <= cell < self._cells or self._status is not _PLAYING:
            self._playable(cell)  # raises, naming what is wrong
        if self._shown[cell] is not None:
            raise IllegalMoveError(
                f"{self._where(cell)}: revealed, so it cannot be flagged", cell=cell
            )
        flags = self._flags
        if cell in flags:
            return False
        flags.add(cell)
        self.record.events.append(_flag(cell, reason, detail))
        return True

    def unflag(
        self, cell: Cell, *, reason: str | None = None, detail: Detail | None = None
    ) -> bool:
        """Take the flag off ``cell``; return whether it was flagged (then recorded).

        Raises
        ------
        GameOverError
            The game has ended.
        IllegalMoveError
            ``cell`` is off the board.
        """
        self._playable(cell)
        if cell not in self._flags:
            return False
        self._flags.remove(cell)
        self.record.events.append(Unflag(cell, reason=reason, detail=detail))
        return True

    def __repr__(self) -> str:
        g = self.geometry
        return f"<Game {g.rows}x{g.cols}/{self.mines} {self._status} seed={self.seed}>"

    # -- helpers --------------------------------------------------------------------------

    def _checked(self, cell: object) -> Cell:
        """``cell``, once it is known to be an index on the board."""
        if type(cell) is not int or not 0 <= cell < self._cells:
            raise IllegalMoveError(
                f"cell {cell!r} is off the board: cells are 0..{self.geometry.cells - 1}",
                cell=cell,
            )
        return cell

    def _playable(self, cell: object) -> None:
        """Refuse an action on ``cell`` if it is off the board or the game is over."""
        self._checked(cell)
        if self._status is not GameStatus.PLAYING:
            raise GameOverError(
                f"{self._where(cell)}: the game is over ({self._status})",
                cell=cell,
                status=self._status,
            )

    def _where(self, cell: object) -> str:
        """``cell`` named for a message."""
        if type(cell) is not int:
            return f"cell {cell!r}"
        row, col = self.geometry.coords(cell)
        return f"cell {cell} (row {row}, column {col})"

    def _first_move(self, cell: Cell) -> None:
        """Draw the board, or move mines off the zone of ``cell``, as the first move requires."""
        first_move = self.rules.first_move
        if first_move is FirstMove.NONE:
            return
        zone = frozenset((cell,))
        if first_move is FirstMove.OPENING:
            zone = zone.union(self._neighbours[cell])
        room = self.geometry.cells - len(zone)
        if self.mines > room:
            raise IllegalMoveError(
                f"{self._where(cell)}: a first move under {first_move} keeps {len(zone)} "
                f"cell(s) clear, leaving {room} for {self.mines} mines",
                cell=cell,
            )
        rows, cols = self.geometry.rows, self.geometry.cols
        if self._board is None:
            self._board = Board.from_mines(rows, cols, self._draw(zone))
            return
        mines = self._board.mines
        moved = mines & zone
        if moved:
            free = [c for c in range(self.geometry.cells) if c not in zone and c not in mines]
            targets = self._rng.sample(free, len(moved))
            log.debug("first move at %d: mines %s moved to %s", cell, sorted(moved), targets)
            self._board = Board.from_mines(rows, cols, (mines - moved).union(targets))

    def _draw(self, zone: frozenset[Cell]) -> list[Cell]:
        """``mines`` cells drawn outside ``zone``."""
        return self._rng.sample(
            [c for c in range(self.geometry.cells) if c not in zone], self.mines
        )

    def _refuse_reveal(self, cell: object) -> NoReturn:
        """Raise for a reveal of ``cell``: off the board, the game over, or flagged."""
        self._playable(cell)
        raise IllegalMoveError(f"{self._where(cell)}: flagged; unflag it first", cell=cell)

    def _expand(self, zero: Cell, values: tuple[int, ...]) -> tuple[tuple[Cell, int], ...]:
        """Show the zero region around the shown ``zero``: the cells shown, ``zero`` first.

        The compiled core's ``flood`` (:mod:`mineshafted.core`) does the same in C; this body
        is its specification.
        """
        shown, flags, neighbours = self._shown, self._flags, self._neighbours
        kernels = core.kernels
        if kernels is not None:
            return kernels.flood(shown, flags, neighbours, values, zero)
        opened = [(zero, 0)]
        queue = [zero]
        for cell in queue:  # the list grows as zeros are found: a breadth-first walk
            for n in neighbours[cell]:
                if shown[n] is None and n not in flags:
                    v = values[n]
                    shown[n] = v
                    opened.append((n, v))
                    if v == 0:
                        queue.append(n)
        return tuple(opened)

    def _hit(self, cell: Cell) -> None:
        """Record the mine at ``cell`` that the reveal just recorded showed; end the game, lost,
        if a mine ends it under the rules or no safe cell is left hidden (none ever was)."""
        self._mines_hit.append(cell)
        self.record.events.append(MineHit(cell))
        log.debug("mine hit at %d", cell)
        if self.rules.after_mine is AfterMine.END or self._hidden_safe == 0:
            self._end(GameStatus.LOST)

    def _end(self, status: GameStatus) -> None:
        """End the game as ``status`` and record the outcome with the truth."""
        assert self._board is not None
        self._status = status
        self.record.events.append(Outcome(status, tuple(sorted(self._board.mines))))
        log.debug("game over: %s", status)
