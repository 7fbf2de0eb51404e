"""record_solve: a sweep of a fixed board played through a game, as a game record with reasons.

Each reveal in the record carries the :class:`~.sweep.Stage` that proved its cell safe, and each
proven mine is flagged, with its stage, before the next reveal after it was proven: a replay
shows what the solver knew, when, and why.

Glossary
--------
watch
    The hidden, unflagged cells beside a revealed clue: where the explore loop's counting can
    prove a mine, so where new mines are looked for before each move.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ..board import MINE, Board, Cell
from ..game import Game, GameManager, GameRecord, Rules
from .search import ComponentSearch
from .sweep import Stage, Sweep

__all__ = ["ReasonedManager", "record_solve"]

log = logging.getLogger(__name__)


def record_solve(
    board: Board,
    *,
    start: Cell = 0,
    search: ComponentSearch | None = None,
    mines: int | None = None,
) -> GameRecord:
    """Sweep ``board`` from ``start`` under the Mine Shafted rules and return the game's record.

    Parameters
    ----------
    board:
        The board to solve (its mines are the record's ``layout``).
    start:
        The first cell to reveal, taken as safe.
    search:
        The component-search engine; the sweep's default when ``None``.
    mines:
        The mine total, told to the sweep (its ``total`` stage) and shown to the player: the
        record's rules then have ``total_known``. ``None``: the total stays hidden.

    Returns
    -------
    GameRecord
        Every reveal with ``reason`` set to the stage's value (``"start"``, ``"clue"``,
        ``"propagation"``, ``"search"``, ``"total"``); a flag on each proven mine, with its
        stage as reason, placed before the first reveal that follows its proof. A solved board
        ends with a won :class:`~mineshafted.game.Outcome` (mines proven last are in it rather
        than flagged); a stalled solve has no outcome: the record ends with the game still in
        play, at the stall. A start on a mine ends lost.

    Raises
    ------
    ContradictionError, NoPlacementError
        As :class:`~.sweep.Sweep` (an inconsistent ``mines``).

    Examples
    --------
    >>> record = record_solve(Board.from_grid([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]))
    >>> [(e.kind, e.cell, e.reason) for e in record.events[:3]]
    [('reveal', 0, 'start'), ('reveal', 1, 'clue'), ('reveal', 3, 'clue')]
    >>> sorted(e.cell for e in record.events if e.kind == "flag")
    [5, 8]
    >>> record.events[-1].status.value
    'won'

    Notes
    -----
    The sweep's cost, plus ``O(watched cells)`` per move to find the mines counting proved.
    """
    rules = Rules.MINE_SHAFTED if mines is None else replace(Rules.MINE_SHAFTED, total_known=True)
    game = Game.on(board, rules=rules)
    recorder = ReasonedManager(game)
    sweep = Sweep(recorder, search=search, start=start, mines=mines)
    recorder.sweep = sweep
    try:
        report = sweep.run()
    except RuntimeError:  # the start cell held a mine: the game recorded the loss
        log.info("the start cell %d is a mine", start)
        return game.record
    recorder.flag_news()
    log.info("recorded a %s solve: %d event(s)", report.status.value, len(game.record.events))
    return game.record


class ReasonedManager:
    """A manager over ``game`` for one sweep: each reveal carries the stage that proved its
    cell, and each proven mine is flagged, with its stage, before the next move.

    Set :attr:`sweep` to the sweep it serves before the sweep's first move. Cells revealed
    outside the sweep (a guess and the zeros it opens, in classic play) are told with
    :meth:`watch_around`, so that the mines counting proves beside them are flagged too.

    Notes
    -----
    ``O(watched cells)`` per move to find the mines counting proved.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.manager = GameManager(game)
        self.size = self.manager.size
        self.sweep: Sweep | None = None
        self._read = 0
        """How many of the sweep's proofs have been read."""
        self._safe: dict[Cell, Stage] = {}
        self._mined: dict[Cell, Stage] = {}
        self._pending: set[Cell] = set()
        """Mines proven by a stage other than counting, not yet flagged."""
        self._watch: set[Cell] = set()
        """Hidden, unflagged cells beside a revealed clue: where counting proves mines."""
        self._neighbours = game.geometry.neighbour_table()

    def get_adjacent(self, index: int) -> list[int]:
        """The neighbours of ``index``, as the game's manager gives them."""
        return self.manager.get_adjacent(index)

    def move(self, index: int) -> int:
        """Flag the mines proven since the last move, then reveal ``index`` with its reason."""
        game = self.game
        if type(index) is not int or game.over:
            return self.manager.move(index)  # the manager's own refusals
        if game.shown(index) is not None:  # opened outside the sweep: the manager's answer
            self.watch_around(index)
            return self.manager.move(index)
        self.flag_news()
        event = game.reveal(index, reason=self._safe.get(index, Stage.CLUE).value)
        if event.revealed[0][1] == MINE:
            return self.manager.move(index)  # raises, as the manager does on a mine
        for cell, _ in event.revealed:
            self.watch_around(cell)
        return event.revealed[0][1]

    def watch_around(self, cell: Cell) -> None:
        """Watch the hidden, unflagged neighbours of the revealed ``cell``."""
        game = self.game
        for n in self._neighbours[cell]:
            if game.shown(n) is None and n not in game.flags:
                self._watch.add(n)

    def flag_news(self) -> None:
        """Flag every mine proven and not yet flagged, while the game is on."""
        assert self.sweep is not None
        proofs = self.sweep.proofs
        for cell, mine, stage in proofs[self._read :]:
            if mine:
                self._mined[cell] = stage
                self._pending.add(cell)
            else:
                self._safe[cell] = stage
        self._read = len(proofs)
        values = self.sweep.knowledge.values
        news = self._pending.union(c for c in self._watch if values[c] == MINE)
        game = self.game
        for cell in sorted(news):
            if game.over:
                return
            self._watch.discard(cell)
            self._pending.discard(cell)
            if game.shown(cell) is None and cell not in game.flags:
                game.flag(cell, reason=self._mined.get(cell, Stage.CLUE).value)
