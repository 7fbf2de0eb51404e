"""record_solve: a sweep of a fixed board played through a game, as a game record with reasons.

Each reveal in the record carries the :class:`~.sweep.Stage` that proved its cell safe, and each
proven mine is flagged, with its stage, before the next reveal after it was proven: a replay
shows what the solver knew, when, and why.

Glossary
--------
news
    The mines proven since the last move and not yet flagged: flagged before the next one.
change
    A cell newly decided (proven safe or a mine): the clues beside it may decide more.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ..board import MINE, Board, Cell
from ..game import Game, GameManager, GameRecord, Rules
from .knowledge import CellState
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
    The sweep's cost, plus the game's (an event per reveal and per flag), plus ``O(cells)`` in
    all to find the mines counting proved (see :class:`ReasonedManager`).
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

    Parameters
    ----------
    game:
        The game the sweep plays, through this manager.
    plain:
        Find the mines the explore loop proved by counting the plain way: before each move,
        read every hidden, unflagged cell beside a revealed one (the watch). The same flags,
        in ``O(moves x watched cells)``; kept as the readable form the default is tested
        against.

    Notes
    -----
    The mines a stage proved are read from :attr:`~.sweep.Sweep.proofs` as they come. Those
    the explore loop proved by counting one clue are found by following changes: a clue
    decides cells only when it is explored or when a cell beside it is decided, and the loop
    settles every such consequence before its next move. So before each move this reads the
    ring of each clue revealed since the last move and of each revealed clue beside a change
    since then, each ring once, and follows each change found there in turn. A cell changes
    once, so the search costs ``O(cells)`` over the whole sweep (a few ring reads per cell:
    :attr:`reads` counts them), where the watch costs the frontier's length at every move.
    """

    def __init__(self, game: Game, *, plain: bool = False) -> None:
        self.game = game
        self.manager = GameManager(game)
        self.size = self.manager.size
        self.sweep: Sweep | None = None
        self.plain = plain
        self.reads = 0
        """How many cells the search for the mines counting proved has read (not the watch)."""
        self._read = 0
        """How many of the sweep's proofs have been read."""
        self._safe: dict[Cell, str] = {}
        """The stage that proved each cell safe, outside the explore loop's counting."""
        self._mined: dict[Cell, str] = {}
        self._pending: set[Cell] = set()
        """Mines proven by a stage other than counting, not yet flagged."""
        self._neighbours = game.geometry.neighbour_table()
        self._view = game.shown_values
        """What the player sees of each cell, live."""
        cells = game.geometry.cells
        self._decided = bytearray(cells)
        """1 for each cell whose change has been seen."""
        self._opened = bytearray(cells)
        """1 for each cell seen revealed: the clues that may decide cells."""
        self._revealed: list[Cell] = []
        """Cells revealed since the last search: each may have decided its ring on sight."""
        self._changed: list[Cell] = []
        """Changes not yet followed: the clues beside each may have decided their rings."""
        self._marks = [0] * cells
        """For each clue, the last search that read its ring."""
        self._searches = 0
        """How many searches have run."""
        self._watch: set[Cell] = set()
        """The plain form's hidden, unflagged cells beside a revealed clue."""

    def get_adjacent(self, index: int) -> list[int]:
        """The neighbours of ``index``, as the game's manager gives them."""
        if type(index) is int and 0 <= index < len(self._neighbours):
            return list(self._neighbours[index])
        return self.manager.get_adjacent(index)  # the manager's refusal

    def move(self, index: int) -> int:
        """Flag the mines proven since the last move, then reveal ``index`` with its reason."""
        game = self.game
        if type(index) is not int or game.over:
            return self.manager.move(index)  # the manager's own refusals
        view = self._view
        if not 0 <= index < len(view):
            game.shown(index)  # raises, naming the cell
        if view[index] is not None:  # opened outside the sweep: the manager's answer
            self.watch_around(index)
            return self.manager.move(index)
        self.flag_news()
        event = game.reveal(index, reason=self._safe.get(index, _CLUE))
        if event.revealed[0][1] == MINE:
            return self.manager.move(index)  # raises, as the manager does on a mine
        for cell, _ in event.revealed:
            self.watch_around(cell)
        return event.revealed[0][1]

    def watch_around(self, cell: Cell) -> None:
        """Take the revealed ``cell`` as a clue: the mines counting proves beside it are
        flagged before the next move."""
        if self.plain:
            game = self.game
            for n in self._neighbours[cell]:
                if game.shown(n) is None and n not in game.flags:
                    self._watch.add(n)
            return
        self._opened[cell] = 1
        self._revealed.append(cell)

    def flag_news(self) -> None:
        """Flag every mine proven and not yet flagged, while the game is on."""
        sweep = self.sweep
        assert sweep is not None
        if self._read < len(sweep.proofs):
            self._take_proofs(sweep.proofs)
        found = self._watched(sweep) if self.plain else self._counted(sweep)
        if not found and not self._pending:
            return
        game = self.game
        for cell in sorted(self._pending.union(found)):
            if game.over:
                return
            self._watch.discard(cell)
            self._pending.discard(cell)
            if game.shown(cell) is None:  # a flag already there is left as it is
                game.flag(cell, reason=self._mined.get(cell, _CLUE))

    def _take_proofs(self, proofs: list[tuple[Cell, bool, Stage]]) -> None:
        """Read the proofs not read yet: each stage's reason, each mine to flag, each change."""
        for cell, mine, stage in proofs[self._read :]:
            if mine:
                self._mined[cell] = stage.value
                self._pending.add(cell)
            else:
                self._safe[cell] = stage.value
            if not self._decided[cell]:
                self._decided[cell] = 1
                self._changed.append(cell)
        self._read = len(proofs)

    def _watched(self, sweep: Sweep) -> list[Cell]:
        """The plain form: the watched cells proven mines, by reading every one."""
        values = sweep.knowledge.values
        return [cell for cell in self._watch if values[cell] == MINE]

    def _counted(self, sweep: Sweep) -> list[Cell]:
        """The mines the explore loop proved by counting since the last search: read the
        ring of each clue revealed since then, then of each revealed clue beside a change,
        each ring once in a search, following each change found there."""
        clues, changed = self._revealed, self._changed
        if not clues and not changed:
            return _NONE
        knowledge = sweep.knowledge
        state, values, unknown = knowledge.state, knowledge.values, CellState.UNKNOWN
        table, decided, opened = self._neighbours, self._decided, self._opened
        marks = self._marks
        self._searches += 1
        search = self._searches
        mines = _NONE
        followed = 0
        while True:
            if clues:
                clue = clues.pop()
                if marks[clue] == search:  # its ring is read already
                    continue
                marks[clue] = search
                if not decided[clue] and state[clue] is not unknown:
                    decided[clue] = 1  # a guess explored: a change like any other
                    changed.append(clue)
                ring = table[clue]
                self.reads += len(ring)
                for n in ring:
                    if not decided[n] and state[n] is not unknown:
                        decided[n] = 1
                        changed.append(n)
                        if values[n] == MINE:
                            if mines is _NONE:
                                mines = []
                            mines.append(n)
            elif followed < len(changed):
                for clue in table[changed[followed]]:
                    if opened[clue]:
                        clues.append(clue)
                followed += 1
            else:
                changed.clear()
                return mines


_NONE: list[Cell] = []
"""No cell: what a search that found nothing returns (never changed)."""
_CLUE = Stage.CLUE.value
"""The reason of a cell the explore loop's counting proved."""
