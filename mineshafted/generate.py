"""No-guess boards: the solver in a loop that perturbs the mines where it stalls.

Drawing random boards until one happens to be solvable works at beginner densities and
collapses as density grows. Instead, when the sweep stalls, the mines around one
pivot are changed: the undetermined cells of its 3x3 block are all cleared, or all filled, by
swapping with cells further away (undetermined ones no clue sees first, then other
undetermined ones, then any cell outside the start area). A pivot that no clue sees is
walled in by mines, and the wall moves too. Then the sweep runs again. The start area stays
clear and the mine count never changes. A board is returned only after a full sweep of
exactly that board, from the start cell and without the mine total, explored every safe cell.

The boards are therefore *not* uniform over no-guess boards: perturbation favours layouts
near the first random draw that the solver can finish, which tends to push mines away from
where the solver stalls and to cluster them (see the README).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from time import perf_counter

from .board import Board, Cell, Geometry
from .errors import MineshaftedError
from .formats import MAX_CELLS, Puzzle
from .game.manager import BoardManager
from .solver.sweep import Sweep, SweepReport

__all__ = ["Generated", "GenerationError", "generate", "generate_many"]

log = logging.getLogger(__name__)

PERTURBATIONS_PER_DRAW = 2000
"""Perturbations tried on one random draw before drawing afresh."""


class GenerationError(MineshaftedError):
    """No certified board could be made: the request is infeasible or ran out of time."""


@dataclass(frozen=True)
class Generated:
    """A certified no-guess board and how it was made."""

    board: Board
    start: Cell
    seed: int
    """Pass this seed to :func:`generate` with the same size to get this board again."""
    perturbations: int
    """How many times the mines were moved after the solver stalled."""
    draws: int
    """How many random layouts were drawn (1 unless one was abandoned)."""
    seconds: float

    def to_puzzle(self, name: str | None = None) -> Puzzle:
        """The board as a puzzle, with the generator's figures kept beside it."""
        return Puzzle(
            board=self.board,
            name=name,
            source="mineshafted generate",
            start=self.start,
            extra={
                "seed": self.seed,
                "mines": self.board.mine_count,
                "perturbations": self.perturbations,
                "draws": self.draws,
            },
        )


def generate(
    rows: int,
    cols: int,
    mines: int,
    *,
    seed: int | None = None,
    start: Cell = 0,
    timeout: float | None = 60.0,
) -> Generated:
    """Make a board that the sweep solves from ``start`` without a guess.

    Parameters
    ----------
    rows, cols, mines:
        The board's size and mine count.
    seed:
        Seed of the random draw and perturbations, any int (distinct seeds draw distinct
        streams: ``-5`` is not ``5``); ``None`` picks one (recorded in the result).
    start:
        The row-major index of the first move; it and its neighbours are kept free of mines,
        so the start shows a 0.
    timeout:
        Seconds allowed before giving up (``None``: no limit).

    Raises
    ------
    GenerationError
        The size or count is impossible, or no board was certified in time.

    Examples
    --------
    >>> made = generate(9, 9, 10, seed=1)
    >>> made.board.mine_count, made.start
    (10, 0)
    >>> generate(9, 9, 10, seed=1).board == made.board
    True

    Notes
    -----
    Each round is one full sweep, ``O(cells)`` plus search; a perturbation is ``O(cells)``.
    """
    geometry = _checked(rows, cols, mines, start)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    rng = _random(seed)
    began = perf_counter()
    keep_clear = {start, *geometry.neighbours(start)}
    candidates = [c for c in range(geometry.cells) if c not in keep_clear]
    perturbations = 0
    for draws in count(1):
        layout = set(rng.sample(candidates, mines))
        for _ in range(PERTURBATIONS_PER_DRAW):
            board = Board.from_mines(rows, cols, layout)
            report = Sweep(BoardManager(board), start=start).run()
            if report.solved:
                seconds = perf_counter() - began
                log.info("certified after %d perturbation(s), %d draw(s)", perturbations, draws)
                return Generated(board, start, seed, perturbations, draws, seconds)
            if timeout is not None and perf_counter() - began > timeout:
                # Checked after every sweep, whichever way the loop goes on: a perturbation,
                # or (perturbation impossible) a fresh draw.
                raise GenerationError(
                    f"no no-guess {rows}x{cols} board with {mines} mines within {timeout:g} s "
                    f"({perturbations} perturbations, {draws} draw(s)); lower the density or "
                    "allow more time"
                )
            if not _perturb(layout, report, geometry, keep_clear, rng):
                break
            perturbations += 1
    raise AssertionError("unreachable: count() never ends")  # pragma: no cover


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
) -> Iterator[Generated]:
    """Make ``count`` boards; each board's own seed is drawn from ``seed``.

    The same ``seed`` gives the same boards in the same order; ``timeout`` applies per board.
    With ``seed_first``, the first board uses ``seed`` itself (the board :func:`generate`
    makes with that seed) and the others seeds drawn from it, so every board, the first
    included, is remade by :func:`generate` with its recorded seed and the same size.

    Examples
    --------
    >>> [g.board.mine_count for g in generate_many(5, 5, 3, 2, seed=7)]
    [3, 3]
    >>> first = next(generate_many(5, 5, 3, 2, seed=7, seed_first=True))
    >>> first.seed, first.board == generate(5, 5, 3, seed=7).board
    (7, True)
    """
    _checked(rows, cols, mines, start)
    if count < 0:
        raise GenerationError(f"cannot make {count} boards")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    seeds = _random(seed)
    for number in range(count):
        own = seed if seed_first and number == 0 else seeds.randrange(2**63)
        yield generate(rows, cols, mines, seed=own, start=start, timeout=timeout)


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


def _checked(rows: int, cols: int, mines: int, start: Cell) -> Geometry:
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
    why = _impossible(geometry, mines, start)
    if why is not None:
        raise GenerationError(f"no {rows}x{cols} board with {mines} mines is no-guess: {why}")
    return geometry


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
