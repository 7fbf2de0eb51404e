"""record_solve: a sweep of a fixed board played through a game, as a game record with reasons.

Each reveal in the record carries the :class:`~.technique.Stage` that proved its cell safe, and each
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

import gc
import logging
from dataclasses import replace

from ..board import MINE, Board, Cell
from ..errors import GameOverError
from ..game import Game, GameManager, GameRecord, Rules
from .knowledge import CellState
from .search import ComponentSearch
from .sweep import Sweep
from .technique import Stage

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
        Every reveal with ``reason`` set to the stage's value (``"start"``, or a rung's word:
        ``"count"``, ``"ac3"``, ``"complete"``, ``"total"``); a flag on each proven mine, with
        its stage as reason, placed before the first reveal that follows its decision. A solved
        board ends with a won :class:`~mineshafted.game.Outcome` (mines proven last are in it rather
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
    [('reveal', 0, 'start'), ('reveal', 1, 'count'), ('reveal', 3, 'count')]
    >>> sorted(e.cell for e in record.events if e.kind == "flag")
    [5, 8]
    >>> record.events[-1].status.value
    'won'

    Notes
    -----
    The sweep's cost, plus the game's (an event per reveal and per flag), plus ``O(cells)`` in
    all to find the mines counting proved (see :class:`ReasonedManager`).

    The cyclic garbage collector is paused during the sweep (and restored as it was, even on
    an error). A recording keeps an object per event, and no event is part of a cycle; yet
    CPython counts them as survivors and, on a 200x200 board, runs some 200 collections of
    the young objects and one of the whole heap during the sweep. They free nothing
    (measured: at most 15 objects a recording, over 8 recordings of shipped puzzles) and
    cost about 0.8x the time of the plain sweep. Once resumed, the collector looks at the
    recording's objects once, in its next young collection (``scripts/bench_recording.py``
    times that too). The pause is process-wide: another thread running meanwhile is not
    collected either.
    """
    rules = Rules.MINE_SHAFTED if mines is None else replace(Rules.MINE_SHAFTED, total_known=True)
    game = Game.on(board, rules=rules)
    recorder = ReasonedManager(game)
    sweep = Sweep(recorder, search=search, start=start, mines=mines)
    recorder.sweep = sweep
    collecting = gc.isenabled()
    gc.disable()  # see Notes: the collector would find nothing to free here
    try:
        report = sweep.run()
        recorder.flag_news()
    except RuntimeError:  # the start cell held a mine: the game recorded the loss
        log.info("the start cell %d is a mine", start)
        return game.record
    finally:
        if collecting:
            gc.enable()
        recorder.sweep = None  # the sweep holds the recorder: both go now, not at a collection
    log.info("recorded a %s solve: %d event(s)", report.status.value, len(game.record.events))
    return game.record


class ReasonedManager:
    """A manager over ``game`` for one sweep: each reveal carries the stage that proved its
    cell, and each proven mine is flagged, with its stage, before the next move.

    Set :attr:`sweep` to the sweep it serves before the sweep's first move. Cells revealed
    outside the sweep (a guess and the zeros it opens, in classic play) are told with
    :meth:`border_around`, so that the mines counting proves beside them are flagged too.

    Parameters
    ----------
    game:
        The game the sweep plays, through this manager.
    plain:
        Find the mines the explore loop proved by counting the plain way: before each move,
        read every hidden, unflagged cell beside a revealed one (the border). The same flags,
        in ``O(moves x border cells)``; kept as the readable form the default is tested
        against.

    Notes
    -----
    The mines a stage proved are read from the sweep's decisions (:attr:`~.sweep.Sweep.decisions`:
    each cell, whether a mine, and its stage) as they come. Those
    the explore loop proved by counting one clue are found by following changes: a clue
    decides cells only when it is explored or when a cell beside it is decided, and the loop
    settles every such consequence before its next move. So before each move this reads the
    ring of each clue revealed since the last move and of each clue that read a cell unknown
    that has changed since, each ring once, and follows each change found there in turn. A
    clue's first read lists it as a reader of each cell it reads unknown (a later read finds
    fewer: cells never go back to unknown), so a change wakes just the clues it may ripen. A
    cell changes once and a clue reads at most 8 cells, so the search costs ``O(cells)``
    over the whole sweep (a few ring reads per cell: :attr:`reads` counts them), where the
    border costs the frontier's length at every move.
    """

    def __init__(self, game: Game, *, plain: bool = False) -> None:
        self.game = game
        self.manager = GameManager(game)
        self.size = self.manager.size
        self.sweep: Sweep | None = None
        self.plain = plain
        self.reads = 0
        """How many cells the search for the mines counting proved has read (not the border)."""
        self._read = 0
        """How many of the sweep's decisions have been read."""
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
        self._revealed: list[Cell] = []
        """Cells revealed since the last search: each may have decided its ring on sight."""
        self._changed: list[Cell] = []
        """Changes not yet followed: the clues that read each may have decided their rings."""
        self._marks = [0] * cells
        """For each clue, the last search that read its ring (0: never read)."""
        self._readers: list[list[Cell] | None] = [None] * cells
        """For each cell, the clues that read it unknown on their first read: when it
        changes, each of them may decide its ring."""
        self._searches = 0
        """How many searches have run."""
        self._border: set[Cell] = set()
        """The plain form's hidden, unflagged cells beside a revealed clue."""

    def get_adjacent(self, index: int) -> list[int]:
        """The neighbours of ``index``, as the game's manager gives them."""
        if type(index) is int and 0 <= index < len(self._neighbours):
            return list(self._neighbours[index])
        return self.manager.get_adjacent(index)  # the manager's refusal

    def move(self, index: int) -> int:
        """Flag the mines proven since the last move, then reveal ``index`` with its reason."""
        view = self._view
        if type(index) is not int or not 0 <= index < len(view) or view[index] is not None:
            return self._refused(index)
        if self.plain:
            self.flag_news()
        else:
            self._search_news()  # flag_news, a call less
        try:
            revealed = self.game.reveal(index, reason=self._safe.get(index, _COUNT)).revealed
        except GameOverError:  # (flag_news flagged nothing then)
            return self.manager.move(index)  # the manager's refusal
        value = revealed[0][1]
        if value == MINE:
            return self.manager.move(index)  # raises, as the manager does on a mine
        if self.plain or len(revealed) > 1:
            for cell, _ in revealed:
                self.border_around(cell)
        else:  # border_around(index), inline: the one cell of a move without expansion
            self._revealed.append(index)
        return value

    def _refused(self, index: int) -> int:
        """The manager's answer to a move the game cannot make as a reveal: refused (not a
        cell, the game over), or the clue of a cell opened outside the sweep."""
        game = self.game
        if type(index) is not int or game.over:
            return self.manager.move(index)  # the manager's own refusals
        if not 0 <= index < len(self._view):
            game.shown(index)  # raises, naming the cell
        self.border_around(index)  # opened outside the sweep
        return self.manager.move(index)

    def border_around(self, cell: Cell) -> None:
        """Take the revealed ``cell`` as a clue: the mines counting proves beside it are
        flagged before the next move."""
        if self.plain:
            game = self.game
            for n in self._neighbours[cell]:
                if game.shown(n) is None and n not in game.flags:
                    self._border.add(n)
            return
        self._revealed.append(cell)

    def flag_news(self) -> None:
        """Flag every mine proven and not yet flagged, while the game is on."""
        if self.plain:
            sweep = self.sweep
            assert sweep is not None
            self._take_decisions(sweep.decisions)
            found = self._bordered(sweep)
            if found or self._pending:
                self._flag(found)
        else:
            self._search_news()

    def _flag(self, found: list[Cell]) -> None:
        """Flag the mines ``found`` by counting and those proven by other stages, ascending,
        while the game is on (a flag cannot end it)."""
        game, view, pending, border = self.game, self._view, self._pending, self._border
        if game.over:
            return
        cells = sorted(pending.union(found)) if pending else sorted(found)
        pending.clear()
        for cell in cells:
            border.discard(cell)
            if view[cell] is None:  # a flag already there is left as it is
                game.flag(cell, reason=self._mined.get(cell, _COUNT))

    def _take_decisions(self, decisions: list[tuple[Cell, bool, Stage]]) -> None:
        """Read the decisions not read yet: each stage's reason, each mine to flag, each change."""
        if self._read == len(decisions):
            return
        for cell, mine, stage in decisions[self._read :]:
            if mine:
                self._mined[cell] = stage.value
                self._pending.add(cell)
            else:
                self._safe[cell] = stage.value
            if not self._decided[cell]:
                self._decided[cell] = 1
                self._changed.append(cell)
        self._read = len(decisions)

    def _bordered(self, sweep: Sweep) -> list[Cell]:
        """The plain form: the border's cells proven mines, by reading every one."""
        values = sweep.knowledge.values
        return [cell for cell in self._border if values[cell] == MINE]

    def _search_news(self) -> None:  # noqa: C901 - one dense loop, see below
        """:meth:`flag_news` by the search (see Notes): read the decisions not read yet, find the
        mines the explore loop proved by counting since the last search, and flag them all.

        The search reads the ring of each clue revealed since the last one, then of each
        clue that read a changed cell unknown, each ring once in a search, following each
        change found there.

        Kept as one loop with its tables in locals: it runs at every move, and split into
        methods it costs the recording its speed (the 200x200 puzzle's target is 3x the
        plain solve). The plain form, ``ReasonedManager(plain=True)``, is its readable
        statement, and the tests hold the two to the same records."""
        sweep = self.sweep
        assert sweep is not None
        if self._read < len(sweep.decisions):
            self._take_decisions(sweep.decisions)
        clues, changed = self._revealed, self._changed
        if not clues and not changed:
            if self._pending:
                self._flag(_NONE)
            return
        knowledge = sweep.knowledge
        state, values, unknown = knowledge.state, knowledge.values, _UNKNOWN
        table, decided, marks, readers = (
            self._neighbours,
            self._decided,
            self._marks,
            self._readers,
        )
        self._searches = search = self._searches + 1
        mines = _NONE
        followed = reads = 0
        while True:
            while clues:
                clue = clues.pop()
                last = marks[clue]
                if last == search:  # read already
                    continue
                marks[clue] = search
                if not decided[clue] and state[clue] is not unknown:
                    decided[clue] = 1  # a guess explored: a change like any other
                    changed.append(clue)
                ring = table[clue]
                reads += len(ring)
                for n in ring:
                    if decided[n]:
                        continue
                    if state[n] is unknown:
                        if not last:  # the first read: the clue reads its unknown cells
                            seen = readers[n]
                            if seen is None:
                                readers[n] = [clue]
                            else:
                                seen.append(clue)
                        continue
                    decided[n] = 1
                    changed.append(n)
                    if values[n] == MINE:
                        if mines is _NONE:
                            mines = []
                        mines.append(n)
            if followed == len(changed):
                changed.clear()
                self.reads += reads
                if mines or self._pending:
                    self._flag(mines)
                return
            seen = readers[changed[followed]]
            if seen is not None:
                readers[changed[followed]] = None
                clues += seen
            followed += 1


_NONE: list[Cell] = []
"""No cell: what a search that found nothing returns (never changed)."""
_UNKNOWN = CellState.UNKNOWN
_COUNT = Stage.COUNT.value
"""The reason of a cell the explore loop's counting proved."""
