"""sweep_mines: play a hidden board as far as logic goes, and on from there when told.

The solve climbs the ladder of techniques (:mod:`.ladder`), over and over: **explore** every
cell proven safe, then let the **first rung that decides something** decide, and repeat until
no rung does. Each round of a rung is its step (:attr:`~.ladder.Rung.step`): its fast form's
machinery, driven incrementally over what the sweep keeps. The rungs, as a sweep runs them:

1. **explore** (the ``count`` rung, built in): ``move`` onto every cell proven safe, record
   its clue, and let each clue's count decide what it can on its own (a clue whose mines are
   all placed, or that needs every unknown neighbour); the clues left open become CSP
   variables;
2. **subset** (only in a sweep told a :class:`~.technique.Technique` from ``subset`` up):
   differences of constraints (:mod:`.subset`), until they decide a cell;
3. **propagate** (``ac3``): hand the CSP the cells decided since the last round, then AC-3
   over the arcs they and the new variables touched, until it draws a fact (a cell safe, or
   mined, in all remaining arrangements of some clue);
4. **search** (``complete``): search each connected component changed since the last search
   for the cells that take one value in every placement;
5. **total** (only when the mine total is given): count the placements of the remaining mines
   over the whole position (:func:`~.total.tally`) and decide the cells that are safe, or
   mined, in every one of them.

A sweep told a technique climbs the rungs up to it, so each cell is put down to the weakest
rung that found it and the strongest rung used is the board's rating (:meth:`Sweep.rating`).
Without one (the default) it climbs ``ac3``, ``complete`` and, with the mine total, ``total``:
``subset`` decides nothing that AC-3 does not (see the techniques page), and skipping it is
cheaper.

When every rung stalls with cells still undetermined, the position needs a guess.
:func:`sweep_mines` raises :class:`~mineshafted.errors.NeedsGuess` rather than take one; a
:class:`Sweep` can be told a guessed cell (:meth:`Sweep.guess`) or any fact
(:meth:`Sweep.tell`) and advanced again, keeping all it knew.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from time import perf_counter

from .. import core
from ..board import Cell, Grid, PartialGrid
from ..errors import ManagerError, NeedsGuess, StartError
from .clues import constraint_of, position_from
from .csp import ClueCSP
from .explore import Explorer
from .knowledge import CellState, Knowledge
from .ladder import rating, rung
from .manager import Manager
from .position import Constraint, Position
from .search import BacktrackingSearch, ComponentSearch
from .technique import Stage, Technique

__all__ = ["Manager", "Stage", "Status", "Sweep", "SweepReport", "sweep_mines"]

log = logging.getLogger(__name__)


class Status(Enum):
    """How a sweep ended."""

    SOLVED = "solved"
    """Every safe cell explored: the board is complete."""
    NEEDS_GUESS = "needs-guess"
    """Stalled: no unexplored cell is provably safe."""


@dataclass
class SweepReport:
    """How a sweep ended, what it found, and what it took."""

    status: Status
    board: PartialGrid
    """The board as found: every clue, ``-1`` for proven mines, ``None`` where undetermined
    (only when the sweep stalled)."""
    undetermined: list[Cell]
    """Cells still undetermined, ascending (empty when solved)."""
    frontier: list[Cell]
    """The undetermined cells beside an explored clue."""
    moves: int
    """How many times ``move`` was called (once per explored cell)."""
    seconds: float
    """Wall-clock time of the sweep, every advance added up."""
    proven_by: Counter[str] = field(default_factory=Counter)
    """How many cells each stage decided, keyed by the :class:`~.technique.Stage`'s value
    (the technique's word for a rung: ``count``, ``ac3``, ...)."""
    searches: int = 0
    """How many connected components were searched."""

    @property
    def solved(self) -> bool:
        """Whether every safe cell was explored."""
        return self.status is Status.SOLVED

    def needs_guess(self) -> NeedsGuess:
        """The exception that tells a caller of :func:`sweep_mines` this sweep stalled."""
        return NeedsGuess(self.board, self.undetermined, self.frontier, self.moves)


def sweep_mines(
    bm: Manager, *, search: ComponentSearch | None = None, mines: int | None = None
) -> Grid:
    """Return the solved board of ``bm``, exploring from index 0 and never guessing.

    Uses only ``bm.size``, ``bm.move`` and ``bm.get_adjacent``, so any manager with the
    Mine Shafted interface works, the course's generator-based one included.

    Parameters
    ----------
    bm:
        The board manager.
    search:
        The component-search engine (default
        :class:`~mineshafted.solver.search.BacktrackingSearch`;
        :class:`~mineshafted.solver.search.ConstraintSearch` uses python-constraint instead).
    mines:
        The board's mine total, when the player knows it: then every cell that is safe, or
        mined, in all placements of the remaining mines is decided too. ``None`` (the
        default, and the Mine Shafted rules): the sweep never counts.

    Returns
    -------
    list of list of int
        Every clue, and ``-1`` for every mine.

    Raises
    ------
    NeedsGuess
        No unexplored cell is provably safe; carries the partial board.
    ContradictionError
        The manager's clues contradict each other.
    NoPlacementError
        The mine total does not fit the clues.
    RuntimeError
        From ``bm.move``, only if index 0 holds a mine (the assignment rules that out).

    Examples
    --------
    >>> from mineshafted import BoardManager
    >>> sweep_mines(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]))
    [[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]
    """
    report = Sweep(bm, search=search, mines=mines).run()
    if not report.solved:
        raise report.needs_guess()
    return report.board  # type: ignore[return-value]  # solved: no None left


class Sweep:
    """One game on one manager: the facts, the CSP, and the stages that grow them.

    :meth:`run` (or :meth:`advance`, the same) plays until the board is solved or stalls.
    After a stall, :meth:`guess` or :meth:`tell` adds a fact from outside and :meth:`advance`
    carries on from there: nothing known is lost or recomputed. :meth:`position` describes a
    stall for counting placements.

    Examples
    --------
    >>> from mineshafted import BoardManager
    >>> report = Sweep(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])).run()
    >>> report.moves, sorted(report.proven_by.items())
    (10, [('ac3', 1), ('count', 10), ('start', 1)])

    A board that needs a guess (cell 3 is walled in by the mine), advanced again after one:

    >>> sweep = Sweep(BoardManager([[0, 1, -1, 1]]))
    >>> sweep.run().undetermined
    [3]
    >>> sweep.position().unconstrained
    [3]
    >>> sweep.guess(3)
    >>> report = sweep.advance()
    >>> report.board, report.status.value, sorted(report.proven_by.items())
    ([[0, 1, -1, 1]], 'solved', [('count', 2), ('guess', 1), ('start', 1)])
    """

    def __init__(
        self,
        bm: Manager,
        *,
        search: ComponentSearch | None = None,
        start: Cell = 0,
        mines: int | None = None,
        technique: Technique | None = None,
        deadline: float | None = None,
    ) -> None:
        """Prepare a sweep of ``bm`` from ``start``; nothing is played until :meth:`advance`.

        ``deadline``: a :func:`time.perf_counter` reading past which :meth:`advance` gives up
        (checked once a round, between exploring and the rungs).

        ``technique``: climb the rungs of the ladder up to that one, weakest first (``None``:
        ``ac3``, ``complete``, and ``total`` when ``mines`` is given).

        Raises
        ------
        ManagerError
            ``bm.size`` is not two positive ints.
        StartError
            ``start`` is not a cell index of the board.
        ValueError
            ``technique`` is ``total`` and ``mines`` is not given, or it is ``guess``.
        """
        rows, cols = _size(bm)
        if type(start) is not int or not 0 <= start < rows * cols:
            raise StartError(start, rows=rows, cols=cols)
        if technique is Technique.GUESS:
            raise ValueError("no sweep runs the technique 'guess': it is what none solves")
        if technique is Technique.TOTAL and mines is None:
            raise ValueError("the technique 'total' needs the mine total")
        self.technique = technique
        self.rungs = _rungs(technique, mines)
        """The rungs this sweep climbs after exploring, weakest first."""
        # The rungs' steps are functions of the sweep, not bound methods: a sweep holding its
        # own bound methods is a reference cycle, freed only by the garbage collector.
        self._explore = rung(Technique.COUNT).step
        self._steps = [rung(technique).step for technique in self.rungs]
        self.variables = Technique.AC3 in self.rungs
        """Whether explored clues become CSP variables (for AC-3 and the search)."""
        self.bm = bm
        self.start = start
        self.csp = ClueCSP()
        self.knowledge = Knowledge(rows, cols)
        self.explorer = Explorer(self.knowledge)
        self.search = search if search is not None else BacktrackingSearch()
        self.searches = 0
        """How many connected components were searched (:attr:`SweepReport.searches`)."""
        self.mines = mines
        """The mine total, when known: the last stage counts placements under it."""
        self.deadline = deadline
        self.decisions: list[tuple[Cell, bool, Stage]] = []
        """The sweep's decisions: ``(cell, is_mine, stage)`` for every cell decided outside
        the explore loop's own counting, in order: the start, AC-3, the search, the total,
        guesses and facts told.
        A cell decided and not listed here was decided by one clue's count."""
        self.report = SweepReport(Status.NEEDS_GUESS, [], [], [], moves=0, seconds=0.0)
        self._started = False

    @property
    def proofs(self) -> list[tuple[Cell, bool, Stage]]:
        """The old name of :attr:`decisions` (issue 38: a *proof* is a position's, from
        :mod:`.proof`)."""
        return self.decisions

    def run(self) -> SweepReport:
        """Play until every safe cell is explored, or until no cell is provably safe.

        The same as :meth:`advance`; the name for a sweep that is run once.
        """
        return self.advance()

    def advance(self) -> SweepReport:
        """Play on from what is known until solved or stalled; return the report so far.

        Raises
        ------
        ContradictionError
            The manager's clues (or facts told) contradict each other.
        NoPlacementError
            The mine total does not fit the clues.
        TimeoutError
            The sweep's deadline passed (what it found so far is kept: a later advance
            carries on).
        """
        began = perf_counter()
        if not self._started:
            self._started = True
            self.prove(self.start, mine=False, stage=Stage.START)
        explore, steps, deadline = self._explore, self._steps, self.deadline
        while True:
            explore(self)  # count's step
            if deadline is not None and perf_counter() > deadline:
                self.report.seconds += perf_counter() - began
                self.report.moves, self.report.searches = self.knowledge.explored, self.searches
                raise TimeoutError("the sweep's deadline passed")
            for step in steps:
                if step(self):  # the first rung that decides something: explore again
                    break
            else:  # no rung decides anything
                return self._conclude(perf_counter() - began)

    def guess(self, cell: Cell) -> None:
        """Take ``cell`` as safe: it is explored at the next :meth:`advance`.

        A guess on a mine raises whatever the manager's ``move`` raises, then.
        """
        self.prove(cell, mine=False, stage=Stage.GUESS)

    def tell(self, cell: Cell, *, mine: bool) -> None:
        """Record a fact learnt outside the sweep; it takes effect at the next :meth:`advance`.

        Raises
        ------
        ContradictionError
            The sweep had proven the opposite.
        """
        self.prove(cell, mine=mine, stage=Stage.TOLD)

    def position(self) -> Position:
        """The position after the last :meth:`advance`: constraints by component, and more.

        Only meaningful between advances (at a stall every safe cell is explored, so each
        explored clue's constraint is over unknown cells only).
        """
        knowledge = self.knowledge
        unknown = CellState.UNKNOWN
        kernels = core.kernels
        cells = None if kernels is None else kernels.cells(knowledge.state, unknown, None)
        if cells is None:
            cells = [c for c, s in enumerate(knowledge.state) if s is unknown]
        return position_from(
            knowledge.partial_grid(), self.constraints(), cells, knowledge.mines_found()
        )

    def rating(self) -> Technique | None:
        """The board's rating as this sweep tells it, after :meth:`advance`: ``guess`` when it
        stalled, else the strongest rung that decided a cell (:func:`~.ladder.rating`);
        ``None`` when the sweep skipped the rung just below that one and so cannot tell.

        Examples
        --------
        >>> from mineshafted import BoardManager
        >>> sample = [[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]
        >>> sweep = Sweep(BoardManager(sample), technique=Technique.AC3)
        >>> sweep.run().solved, sweep.rating()
        (True, <Technique.SUBSET: 'subset'>)
        >>> sweep = Sweep(BoardManager(sample))  # no subset rung: AC-3 did its work
        >>> sweep.run().solved, sweep.rating()
        (True, None)
        """
        report = self.report
        if not report.solved:
            return Technique.GUESS
        used = [Stage(stage).technique for stage, n in report.proven_by.items() if n]
        return rating(used, self.rungs)

    # -- helpers --------------------------------------------------------------------------

    def prove(self, cell: Cell, *, mine: bool, stage: Stage) -> bool:
        """Record that ``stage`` decided ``cell`` (the explore loop tells the CSP); ``True`` if
        it was news.

        Raises
        ------
        ContradictionError
            The sweep had proven the opposite.
        """
        knowledge = self.knowledge
        news = knowledge.prove_mine(cell) if mine else knowledge.prove_safe(cell)
        if news:
            self.report.proven_by[stage.value] += 1
            self.decisions.append((cell, mine, stage))
        return news

    def constraints(self) -> list[Constraint]:
        """The constraint of every explored clue beside an unknown cell, by clue cell (at a
        stall: every cell proven safe is explored)."""
        explorer, knowledge = self.explorer, self.knowledge
        clues: set[Cell] = set()
        for cell in explorer.frontier():
            clues.update(explorer.clues_beside(cell))
        values, rings = knowledge.values, knowledge.rings
        return [constraint_of(values, clue, rings[clue]) for clue in sorted(clues)]

    def _conclude(self, seconds: float) -> SweepReport:
        """Bring the report up to date after an advance of ``seconds``."""
        report, knowledge = self.report, self.knowledge
        report.seconds += seconds
        report.moves, report.searches = knowledge.explored, self.searches
        report.board = knowledge.partial_grid()
        report.undetermined = knowledge.undetermined()
        decided = len(knowledge.state) - len(report.undetermined)
        others = sum(n for stage, n in report.proven_by.items() if stage != Stage.COUNT)
        report.proven_by[Stage.COUNT.value] = decided - others
        if not report.undetermined:
            report.status, report.frontier = Status.SOLVED, []
            log.info(
                "solved: %d move(s), cells proven by stage %s", report.moves, dict(report.proven_by)
            )
        else:
            report.status = Status.NEEDS_GUESS
            report.frontier = self.explorer.frontier()
            log.info(
                "stalled after %d move(s): %d undetermined cell(s), %d beside a clue",
                report.moves,
                len(report.undetermined),
                len(report.frontier),
            )
        return report


def _rungs(technique: Technique | None, mines: int | None) -> tuple[Technique, ...]:
    """The rungs a sweep climbs after exploring, weakest first (see :class:`Sweep`)."""
    if technique is None:
        default = (Technique.AC3, Technique.COMPLETE, Technique.TOTAL)
        return default if mines is not None else default[:2]
    return tuple(t for t in Technique.solving() if Technique.COUNT < t <= technique)


def _size(bm: Manager) -> tuple[int, int]:
    """The manager's ``size``, checked: two positive ints, rows then columns.

    Raises
    ------
    ManagerError
        It is anything else (a float, a negative, one number, a missing attribute).
    """
    size = getattr(bm, "size", None)
    if (
        isinstance(size, tuple | list)
        and len(size) == 2
        and all(type(n) is int and n > 0 for n in size)
    ):
        return size[0], size[1]
    raise ManagerError(f"size is {size!r}, not two positive ints (rows, columns)", value=size)
