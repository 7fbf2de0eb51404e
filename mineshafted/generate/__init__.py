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
from collections.abc import Iterator
from dataclasses import dataclass
from time import perf_counter

from ..board import Board, Cell
from ..formats import Puzzle
from ..solver.technique import Technique
from .request import GenerationError, Request, stream
from .search import Search

__all__ = ["Generated", "GenerationError", "generate", "generate_many"]

log = logging.getLogger(__name__)


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
    boards, and a kept board it cannot place lower is rated once (:func:`~mineshafted.rating.rate`).

    With ``needs``, the loop perturbs where ``technique`` stalls, as without it. A board
    ``technique`` solves but a weaker one does too is dropped. A board with a
    spot (``technique``'s own stage decided something) that still stalls elsewhere is kept
    aside: it is perturbed away from the spot, and when that loses the spot it is taken up
    again (:data:`~.search.RETRIES_PER_SPOT` times) before drawing afresh. Rare ratings
    (``complete`` on sparse boards: about one sweep in a thousand finds a spot) take many sweeps.

    With ``uniform``, each draw costs one sweep, which ends at the technique's first stall;
    the expected number of draws is one over the share of boards it solves.
    """
    request = Request(rows, cols, mines, start, technique, needs, uniform, timeout, max_draws)
    geometry = request.check()
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    job = Search(request, geometry)
    board, perturbations, draws, rating = job.run(stream(seed))
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
    Request(rows, cols, mines, start, technique, needs, uniform, timeout, max_draws).check()
    if count < 0:
        raise GenerationError(f"cannot make {count} boards")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    seeds = stream(seed)
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
