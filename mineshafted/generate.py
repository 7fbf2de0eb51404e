"""No-guess boards: the solver in a loop that perturbs the mines where it stalls.

Drawing random boards until one happens to be solvable works at beginner densities and
collapses as density grows. Instead, when the sweep stalls, the mines around one
pivot are changed: the undetermined cells of its 3x3 block are all cleared, or all filled, by
swapping with cells further away (undetermined ones no clue sees first, then other
undetermined ones, then any cell outside the start area). A pivot that no clue sees is
walled in by mines, and the wall moves too. Then the sweep runs again. The start area stays
clear and the mine total never changes. A board is returned only after a full sweep of
exactly that board, from the start cell and without the mine total, explored every safe cell.

The sweep in the loop is the requested technique's (``complete``, the package's own sweep, by
default; ``count`` for boards a clue-by-clue solver finishes; ``total`` knows the mine
total). Asked for boards that *need* a technique, the loop also drops the boards a weaker
technique solves, and keeps away from the spot where the technique did what no weaker one
could.

The boards are therefore *not* uniform over no-guess boards: perturbation favours layouts
near the first random draw that the solver can finish, which tends to push mines away from
where the solver stalls and to cluster them (see the README). For uniform boards, ``uniform``
draws layouts until the technique solves one: exact, and practical where such boards are
not rare.

Glossary
--------
certify
    Sweep a board with a :class:`~mineshafted.solver.technique.Technique` (``complete`` by
    default) and keep it only if that technique's loop decides every cell.
rating
    The weakest technique that solves a board (:func:`~mineshafted.rating.rate`); every
    board made records it.
needs
    A request for boards rated exactly a technique: solved by it, by no weaker one.
spot
    Where the requested technique's own stage decided a cell that no weaker one could: what a
    board rated exactly that technique must contain. Perturbations keep clear of a spot.
uniform
    Rejection sampling: draw a layout uniformly (the start area clear), keep it if the
    technique solves it, else draw again. Exactly uniform over the boards it solves.
acceptance
    The share of uniform draws kept: 1 / ``draws`` for one board.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import count
from time import perf_counter
from typing import NamedTuple, NoReturn

from .board import MINE, Board, Cell, Geometry
from .errors import MineshaftedError
from .formats import MAX_CELLS, Puzzle
from .game.manager import BoardManager
from .rating import rate
from .solver.sweep import Sweep, SweepReport
from .solver.technique import Technique

__all__ = ["Generated", "GenerationError", "generate", "generate_many"]

log = logging.getLogger(__name__)

PERTURBATIONS_PER_DRAW = 2000
"""Perturbations tried on one random draw before drawing afresh."""

RETRIES_PER_SPOT = 8
"""With ``needs``: perturbations tried from the last board with a spot, each of which lost it,
before drawing afresh."""

SPOT_MARGIN = 2
"""With ``needs``: cells this close to a spot's decided cells (in king moves) are not moved."""


class GenerationError(MineshaftedError):
    """No certified board could be made: the request is infeasible or ran out of time."""


@dataclass(frozen=True)
class Generated:
    """A certified no-guess board and how it was made."""

    board: Board
    start: Cell
    seed: int
    """Pass this seed to :func:`generate` with the same size and options to get this board
    again."""
    perturbations: int
    """How many times the mines were moved after the solver stalled (0 for ``uniform``)."""
    draws: int
    """How many random layouts were drawn (1 unless one was abandoned); for ``uniform``, the
    draws until one was kept, so the acceptance rate is ``1 / draws``."""
    seconds: float
    technique: Technique
    """The board's rating: the weakest technique that solves it from ``start``."""
    certified: Technique = Technique.COMPLETE
    """The technique asked for: it solves the board (and, with ``needs``, no weaker one does)."""
    needs: bool = False
    """Whether the board was asked to be rated exactly :attr:`certified`."""
    uniform: bool = False
    """Whether the board was drawn uniformly (by rejection) rather than perturbed."""

    def to_puzzle(self, name: str | None = None) -> Puzzle:
        """The board as a puzzle, with the generator's figures kept beside it.

        ``technique`` is the rating and ``certified`` the technique asked for; ``needs`` and
        ``uniform`` appear only when set. With the seed, they remake the board.
        """
        extra: dict[str, object] = {
            "seed": self.seed,
            "mines": self.board.mine_total,
            "perturbations": self.perturbations,
            "draws": self.draws,
            "technique": self.technique.value,
            "certified": self.certified.value,
        }
        if self.needs:
            extra["needs"] = True
        if self.uniform:
            extra["uniform"] = True
        return Puzzle(
            board=self.board,
            name=name,
            source="mineshafted generate",
            start=self.start,
            extra=extra,
        )


def generate(
    rows: int,
    cols: int,
    mines: int,
    *,
    seed: int | None = None,
    start: Cell = 0,
    timeout: float | None = 60.0,
    technique: Technique = Technique.COMPLETE,
    needs: bool = False,
    uniform: bool = False,
    max_draws: int | None = None,
) -> Generated:
    """Make a board that ``technique`` solves from ``start`` without a guess.

    Parameters
    ----------
    rows, cols, mines:
        The board's size and mine total.
    seed:
        Seed of the random draw and perturbations, any int (distinct seeds draw distinct
        streams: ``-5`` is not ``5``); ``None`` picks one (recorded in the result).
    start:
        The row-major index of the first move; it and its neighbours are kept free of mines,
        so the start shows a 0.
    timeout:
        Seconds allowed before giving up (``None``: no limit).
    technique:
        The technique that must solve the board (default ``complete``: every deduction from
        the clues; ``total`` also knows the mine total). ``guess`` is refused.
    needs:
        Also require that no weaker technique solves the board: its rating is exactly
        ``technique``.
    uniform:
        Draw layouts uniformly and keep the first that ``technique`` solves (rated exactly
        ``technique``, with ``needs``), instead of perturbing one: exactly uniform over those
        boards, but only practical where they are not rare.
    max_draws:
        The most random layouts to draw before giving up (``None``: no limit but ``timeout``).

    Raises
    ------
    GenerationError
        The size, count or technique is impossible, or no board was certified within
        ``timeout`` or ``max_draws``.

    Examples
    --------
    >>> made = generate(9, 9, 10, seed=1)
    >>> made.board.mine_total, made.start, made.certified.value
    (10, 0, 'complete')
    >>> generate(9, 9, 10, seed=1).board == made.board
    True
    >>> made.technique <= Technique.COMPLETE
    True
    >>> generate(16, 16, 40, seed=1, technique=Technique.AC3, needs=True).technique.value
    'ac3'
    >>> generate(9, 9, 10, seed=1, uniform=True).draws >= 1
    True

    Notes
    -----
    Each round is one full sweep, ``O(cells)`` plus search; a perturbation is ``O(cells)``.

    The sweep that certifies also rates: below ``complete``, and for the default request,
    it runs the techniques weakest first (the strongest stage used is the rating); where
    most sweeps stall (``uniform``, or ``needs`` from ``complete`` up) it is the plain sweep,
    cheaper per stall, whose search and total stages still tell ``complete`` and ``total``
    boards, and a kept board it cannot place lower is rated once (:func:`~.rating.rate`).

    With ``needs``, the loop perturbs where ``technique`` stalls, as without it. A board
    ``technique`` solves but a weaker one does too is dropped. A board with a
    spot (``technique``'s own stage decided something) that still stalls elsewhere is kept
    aside: it is perturbed away from the spot, and when that loses the spot it is taken up
    again (:data:`RETRIES_PER_SPOT` times) before drawing afresh. Rare ratings (``complete``
    on sparse boards: about one sweep in a thousand finds a spot) take many sweeps.

    With ``uniform``, each draw costs one sweep, which ends at the technique's first stall;
    the expected number of draws is one over the share of boards it solves.
    """
    geometry = _checked(rows, cols, mines, start, technique)
    _check_request(rows, cols, mines, technique, needs, max_draws)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    # ``count`` has no weaker technique: every board it solves is rated ``count``.
    exact = needs and technique > Technique.COUNT
    job = _Job(geometry, mines, start, technique, exact, uniform, timeout, max_draws)
    board, perturbations, draws, rating = job.run(_random(seed))
    seconds = perf_counter() - job.began
    log.info(
        "certified (%s) after %d perturbation(s), %d draw(s): rated %s",
        technique.value,
        perturbations,
        draws,
        rating.value,
    )
    return Generated(
        board, start, seed, perturbations, draws, seconds, rating, technique, needs, uniform
    )


def generate_many(
    rows: int,
    cols: int,
    mines: int,
    count: int,
    *,
    seed: int | None = None,
    start: Cell = 0,
    timeout: float | None = 60.0,
    seed_first: bool = False,
    technique: Technique = Technique.COMPLETE,
    needs: bool = False,
    uniform: bool = False,
    max_draws: int | None = None,
) -> Iterator[Generated]:
    """Make ``count`` boards; each board's own seed is drawn from ``seed``.

    The same ``seed`` gives the same boards in the same order; ``timeout`` and ``max_draws``
    apply per board, and ``technique``, ``needs`` and ``uniform`` as in :func:`generate`.
    With ``seed_first``, the first board uses ``seed`` itself (the board :func:`generate`
    makes with that seed) and the others seeds drawn from it, so every board, the first
    included, is remade by :func:`generate` with its recorded seed, the same size and the
    same options. Over a ``uniform`` batch the acceptance rate is the number of boards over
    the sum of their ``draws``.

    Examples
    --------
    >>> [g.board.mine_total for g in generate_many(5, 5, 3, 2, seed=7)]
    [3, 3]
    >>> first = next(generate_many(5, 5, 3, 2, seed=7, seed_first=True))
    >>> first.seed, first.board == generate(5, 5, 3, seed=7).board
    (7, True)
    """
    _checked(rows, cols, mines, start, technique)
    _check_request(rows, cols, mines, technique, needs, max_draws)
    if count < 0:
        raise GenerationError(f"cannot make {count} boards")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    seeds = _random(seed)
    for number in range(count):
        own = seed if seed_first and number == 0 else seeds.randrange(2**63)
        yield generate(
            rows,
            cols,
            mines,
            seed=own,
            start=start,
            timeout=timeout,
            technique=technique,
            needs=needs,
            uniform=uniform,
            max_draws=max_draws,
        )


def _random(seed: int) -> random.Random:
    """The random stream of ``seed``: distinct ints give distinct streams.

    ``random.Random`` seeds with ``abs(seed)``, so ``-5`` and ``5`` would draw the same
    boards. Seeds ``0 .. 2**63 - 1`` (every seed the package draws) are used as they are;
    larger ones map to the even numbers from ``2**63`` up, negative ones to the odd ones.

    Examples
    --------
    >>> _random(-5).random() != _random(5).random()
    True
    """
    top = 2**63
    if 0 <= seed < top:
        return random.Random(seed)
    return random.Random(top + (2 * (seed - top) if seed >= top else -2 * seed - 1))


def _checked(rows: int, cols: int, mines: int, start: Cell, technique: Technique) -> Geometry:
    """The geometry, once the request is known to be possible at all."""
    if rows < 1 or cols < 1:
        raise GenerationError(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
    geometry = Geometry(rows, cols)
    if geometry.cells > MAX_CELLS:
        raise GenerationError(f"a {rows}x{cols} board is larger than {MAX_CELLS:,} cells")
    if not 0 <= start < geometry.cells:
        raise GenerationError(
            f"start cell {start} is off the {rows}x{cols} board (cells 0..{geometry.cells - 1})"
        )
    clear = 1 + len(geometry.neighbours(start))
    if not 0 <= mines <= geometry.cells - clear:
        raise GenerationError(
            f"{mines} mines do not fit: a {rows}x{cols} board has {geometry.cells - clear} "
            f"cells outside the start and its neighbours"
        )
    # The cheap rules are about solving without the mine total; with it, more can be solved.
    why = _impossible(geometry, mines, start) if technique < Technique.TOTAL else None
    if why is not None:
        raise GenerationError(f"no {rows}x{cols} board with {mines} mines is no-guess: {why}")
    return geometry


def _check_request(
    rows: int, cols: int, mines: int, technique: Technique, needs: bool, max_draws: int | None
) -> None:
    """Refuse a technique no no-guess board can be certified by, and a draw limit below 1."""
    if technique is Technique.GUESS:
        names = ", ".join(t.value for t in Technique.solving())
        raise GenerationError(
            "the technique 'guess' certifies nothing: it is what a board needs when no "
            f"technique solves it, and this generator makes no-guess boards; choose {names}"
        )
    if needs and mines == 0 and technique > Technique.COUNT:
        raise GenerationError(
            f"no {rows}x{cols} board with 0 mines needs {technique.value}: the start's 0 opens "
            "every cell, so count solves it"
        )
    if max_draws is not None and max_draws < 1:
        raise GenerationError(f"at least one draw is needed, not {max_draws}")


def _impossible(geometry: Geometry, mines: int, start: Cell) -> str | None:
    """Why no board of this request can be solved without a guess, when that is cheap to see.

    Found by sweeping every layout of small boards (``scripts``-free: see the tests):

    - a strip one cell wide: beyond a mine no clue is ever revealed, so each arm of the strip
      on either side of the start area holds at most one mine, at its far end;
    - a strip two cells wide: both cells of a column are seen by the same clues from the
      start's side, so each arm holds no mine or exactly its far-end pair;
    - all cells outside the start area mined: a mine no clue sees is never proven.

    ``None`` when none of these applies (the request may still be infeasible: then the
    generator ends at its timeout).

    Notes
    -----
    ``O(cells)`` at most (the all-mined case); ``O(1)`` for strips.
    """
    rows, cols = geometry.rows, geometry.cols
    row, col = geometry.coords(start)
    width, length, along = (rows, cols, col) if rows <= cols else (cols, rows, row)
    if width <= 2:
        arms = (along - 2 >= 0) + (along + 2 <= length - 1)  # arms beyond the start area
        allowed = {width * k for k in range(arms + 1)}
        if mines not in allowed:
            shown = " or ".join(map(str, sorted(allowed)))
            return (
                f"on a strip {width} cell(s) wide no clue sees past a mine, so only the far "
                f"end{'s' if arms > 1 else ''} may hold mines: {shown} mine(s) from this start"
            )
    clear = {start, *geometry.neighbours(start)}
    if mines and mines == geometry.cells - len(clear):
        seen = {n for c in clear for n in geometry.neighbours(c)}
        if len(seen - clear) < mines:
            return "every cell outside the start area is a mine, and some no clue can see"
    return None


class _Kept(NamedTuple):
    """With ``needs``: a board with a spot that stalls elsewhere, perturbed until it is solved."""

    layout: frozenset[Cell]
    report: SweepReport
    spot: list[Cell]

    def guards(self, geometry: Geometry) -> list[set[Cell]]:
        """The cells to leave alone, widest first: the spot's cells and those within
        :data:`SPOT_MARGIN` king moves, then closer ones, then none (the stall may lie in the
        spot's own margin; a perturbation there may keep the spot still)."""
        margins = range(SPOT_MARGIN, -1, -1)
        return [_around(geometry, self.spot, margin) for margin in margins] + [set()]


class _Job:
    """One request: what to certify, the limits, and the two ways to meet it."""

    def __init__(
        self,
        geometry: Geometry,
        mines: int,
        start: Cell,
        technique: Technique,
        needs: bool,
        uniform: bool,
        timeout: float | None,
        max_draws: int | None,
    ) -> None:
        self.geometry, self.mines, self.start = geometry, mines, start
        self.technique, self.needs, self.uniform = technique, needs, uniform
        self.timeout, self.max_draws = timeout, max_draws
        self.keep_clear = {start, *geometry.neighbours(start)}
        self.candidates = [c for c in range(geometry.cells) if c not in self.keep_clear]
        # Which sweep certifies. Below ``complete`` only a ladder stops at the technique.
        # From ``complete`` up, the ladder and the plain sweep end at the same fixed point (so
        # the same boards): the ladder rates a solved board for free but pays for its subset
        # stage at every stall, the plain sweep is cheaper per stall but may leave the kept
        # board to be rated. The ladder wins over a few perturbations, the plain sweep where
        # most sweeps stall (``uniform``, ``needs``).
        self.ladder = technique < Technique.COMPLETE or not (needs or uniform)
        self.began = perf_counter()

    def run(self, rng: random.Random) -> tuple[Board, int, int, Technique]:
        """Meet the request from the random stream ``rng``.

        Returns the board, the perturbations, the draws and the board's rating.
        """
        return self.draw_uniformly(rng) if self.uniform else self.perturb(rng)

    def perturb(self, rng: random.Random) -> tuple[Board, int, int, Technique]:
        """Draw, and perturb where the technique stalls, until a board meets the request."""
        geometry, keep_clear = self.geometry, self.keep_clear
        perturbations = 0
        for draws in count(1):
            self._check_draws(draws, perturbations)
            layout = set(rng.sample(self.candidates, self.mines))
            kept: _Kept | None = None
            retries = 0
            for _ in range(PERTURBATIONS_PER_DRAW):
                board = _board(geometry, layout)
                sweep = self._sweep(board, draws, perturbations)
                report = sweep.report
                rating = self._accepted(board, sweep)
                if rating is not None:
                    return board, perturbations, draws, rating
                self._check_time(draws, perturbations)
                if self.needs:
                    spot = self._spot(sweep)
                    if spot and not report.solved:
                        # A spot, and a stall elsewhere: keep this board, perturb off the spot.
                        kept, retries = _Kept(frozenset(layout), report, spot), 0
                    elif kept is not None and retries < RETRIES_PER_SPOT:
                        # The spot was lost (solved by a weaker technique, or not at all).
                        layout, report, retries = set(kept.layout), kept.report, retries + 1
                    elif report.solved or kept is not None:
                        break
                guards = kept.guards(geometry) if kept is not None else [set[Cell]()]
                if not any(_perturb(layout, report, geometry, keep_clear | g, rng) for g in guards):
                    break
                perturbations += 1
        raise AssertionError("unreachable: count() never ends")  # pragma: no cover

    def draw_uniformly(self, rng: random.Random) -> tuple[Board, int, int, Technique]:
        """Draw uniformly until the technique solves a draw (rated exactly it, with ``needs``)."""
        for draws in count(1):
            self._check_draws(draws, None)
            board = _board(self.geometry, rng.sample(self.candidates, self.mines))
            rating = self._accepted(board, self._sweep(board, draws, None))
            if rating is not None:
                return board, 0, draws, rating
            self._check_time(draws, None)
        raise AssertionError("unreachable: count() never ends")  # pragma: no cover

    def _sweep(self, board: Board, draws: int, perturbations: int | None) -> Sweep:
        """Sweep ``board`` from the start, up the rungs of the ladder that certify (giving up
        as :meth:`_check_time` does when the time runs out meanwhile: a sweep of a large board
        takes long).

        Below ``complete``, and for the default request, the rungs up to the technique,
        weakest first: the board's rating is the strongest rung used. Otherwise the plain
        sweep, which skips ``subset`` (:class:`~.solver.sweep.Sweep`): it tells every rating
        but ``subset`` from ``ac3`` (:meth:`~.solver.sweep.Sweep.rating` is then ``None``).
        """
        technique = self.technique
        mines = self.mines if technique is Technique.TOTAL else None
        climb = technique if self.ladder else None
        deadline = None if self.timeout is None else self.began + self.timeout
        sweep = Sweep(
            BoardManager(board), start=self.start, mines=mines, technique=climb, deadline=deadline
        )
        try:
            sweep.run()
        except TimeoutError:
            self._give_up(f"within {self.timeout:g} s", draws, perturbations)
        return sweep

    def _spot(self, sweep: Sweep) -> list[Cell]:
        """The cells the requested technique's own rung decided in ``sweep``."""
        return [cell for cell, _, stage in sweep.proofs if stage.technique is self.technique]

    def _accepted(self, board: Board, sweep: Sweep) -> Technique | None:
        """The board's rating if it meets the request; ``None`` if it does not.

        The rating is the sweep's (the first rung that solves the board); where the sweep
        cannot tell ``subset`` from ``ac3``, :func:`~.rating.rate` climbs the whole ladder.
        """
        if not sweep.report.solved:
            return None
        rating = sweep.rating()
        if self.needs:
            return self.technique if rating is self.technique else None
        if rating is not None:
            return rating
        return rate(board, start=self.start).technique

    def _check_draws(self, draws: int, perturbations: int | None) -> None:
        """Give up before draw number ``draws`` if that is past the limit."""
        if self.max_draws is not None and draws > self.max_draws:
            self._give_up(f"in {self.max_draws:,} draw(s)", self.max_draws, perturbations)

    def _check_time(self, draws: int, perturbations: int | None) -> None:
        """Give up if the time is out (checked after every sweep)."""
        if self.timeout is not None and perf_counter() - self.began > self.timeout:
            self._give_up(f"within {self.timeout:g} s", draws, perturbations)

    def _give_up(self, limit: str, draws: int, perturbations: int | None) -> NoReturn:
        """Raise the request's :class:`GenerationError`: what was asked, and what was tried
        (``perturbations`` is ``None`` for ``uniform``)."""
        technique = self.technique.value
        board = f"{self.geometry.rows}x{self.geometry.cols} board with {self.mines} mines"
        if perturbations is None:
            what = f"{'rated' if self.needs else 'solved by'} {technique}"
            raise GenerationError(
                f"no uniform {board} {what} {limit}: none of {draws:,} draw(s) was accepted, "
                "so uniform sampling is hopeless here; lower the density, or generate by "
                "perturbation (without uniform) instead"
            )
        advice = "lower the density or allow more time"
        if self.needs:
            weaker = Technique.solving()[self.technique.rank - 1].value
            phrase = f"no {board} rated {technique} (solved by {technique}, not by {weaker})"
            advice = (
                "such boards may be rare or impossible at this size and density; allow more "
                "time or draws, or change the size or the density"
            )
        elif self.technique is Technique.COMPLETE:
            phrase = f"no no-guess {board}"
        else:
            phrase = f"no {board} solved by {technique}"
        tried = f"{perturbations} perturbations"
        if not limit.startswith("in "):  # a draw limit names the draws already
            tried += f", {draws} draw(s)"
        raise GenerationError(f"{phrase} {limit} ({tried}); {advice}")


def _board(geometry: Geometry, mines: Iterable[Cell]) -> Board:
    """The board with ``mines`` (distinct cells) and every other cell its clue.

    The same board as :meth:`Board.from_mines`, counted from the mines outwards:
    ``O(cells + 8 mines)`` instead of ``O(8 cells)``.
    """
    table = geometry.neighbour_table()
    values = [0] * geometry.cells
    mined = list(mines)
    for cell in mined:
        for n in table[cell]:
            values[n] += 1
    for cell in mined:
        values[cell] = MINE
    return Board(geometry, tuple(values))


def _around(geometry: Geometry, cells: Iterable[Cell], margin: int) -> set[Cell]:
    """The cells within ``margin`` king moves of any of ``cells``."""
    rows, cols = geometry.rows, geometry.cols
    near: set[Cell] = set()
    for cell in cells:
        row, col = divmod(cell, cols)
        for r in range(max(row - margin, 0), min(row + margin + 1, rows)):
            near.update(
                range(r * cols + max(col - margin, 0), r * cols + min(col + margin + 1, cols))
            )
    return near


def _perturb(
    layout: set[Cell],
    report: SweepReport,
    geometry: Geometry,
    keep_clear: set[Cell],
    rng: random.Random,
) -> bool:
    """Clear or fill the undetermined cells around one pivot; ``False`` if impossible.

    The partners of the swap are, in order of preference: undetermined cells that no explored
    clue sees, undetermined cells that one does, then any other cell outside the start area
    (needed when the candidate pivots are all that is left undetermined, as in a final 50/50).
    Every round re-sweeps from scratch, so moving a mine that the solver had seen is sound.
    """
    undetermined = set(report.undetermined) - keep_clear
    candidates = [c for c in (report.frontier or report.undetermined) if c not in keep_clear]
    if not candidates:
        return False
    pivot = rng.choice(candidates)
    seen = set(report.frontier)
    around = (pivot, *geometry.neighbours(pivot))
    if pivot in seen:
        patch = {c for c in around if c in undetermined}
    else:
        # Walled in by mines: no clue sees the pivot, so the wall itself must change.
        patch = {c for c in around if c not in keep_clear and _unexplored(report, geometry, c)}
        undetermined |= patch
    outside = sorted(undetermined - patch)
    tiers = (
        [c for c in outside if c not in seen],
        [c for c in outside if c in seen],
        [c for c in range(geometry.cells) if c not in undetermined and c not in keep_clear],
    )
    plans = [
        plan
        for plan in (
            _swap_plan(sorted(patch & layout), tiers, layout, want_mine=False, rng=rng),
            _swap_plan(sorted(patch - layout), tiers, layout, want_mine=True, rng=rng),
        )
        if plan is not None and plan[0]
    ]
    if not plans:
        return False
    cells, partners = min(plans, key=lambda plan: (len(plan[0]), rng.random()))
    for cell, partner in zip(cells, partners, strict=True):
        if cell in layout:
            layout.remove(cell)
            layout.add(partner)
        else:
            layout.remove(partner)
            layout.add(cell)
    return True


def _unexplored(report: SweepReport, geometry: Geometry, cell: Cell) -> bool:
    """Whether the sweep left ``cell`` unexplored (undetermined, or a proven mine)."""
    row, col = geometry.coords(cell)
    value = report.board[row][col]
    return value is None or value < 0


def _swap_plan(
    cells: list[Cell],
    tiers: tuple[list[Cell], ...],
    layout: set[Cell],
    *,
    want_mine: bool,
    rng: random.Random,
) -> tuple[list[Cell], list[Cell]] | None:
    """Partners for ``cells`` from the earliest tiers: free cells to take mines out of the
    patch, mined cells to bring mines in. ``None`` when there are not enough."""
    partners: list[Cell] = []
    for tier in tiers:
        if len(partners) >= len(cells):
            break
        candidates = [c for c in tier if (c in layout) == want_mine]
        rng.shuffle(candidates)
        partners.extend(candidates[: len(cells) - len(partners)])
    if len(partners) < len(cells):
        return None
    return cells, partners
