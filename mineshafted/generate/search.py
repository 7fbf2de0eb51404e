"""The search for one board that meets a request: draws, each perturbed where the technique
stalls (or, for ``uniform``, drawn again), each certified by a sweep from the start.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import count
from time import perf_counter
from typing import NamedTuple, NoReturn

from ..board import MINE, Board, Cell, Geometry
from ..game.manager import BoardManager
from ..rating import rate
from ..solver.sweep import Sweep, SweepReport
from ..solver.technique import Technique
from .perturbation import around, perturb
from .request import GenerationError, Request

__all__ = ["Search", "layout_board"]

PERTURBATIONS_PER_DRAW = 2000
"""Perturbations tried on one random draw before drawing afresh."""

RETRIES_PER_SPOT = 8
"""With ``needs``: perturbations tried from the last board with a spot, each of which lost it,
before drawing afresh."""

SPOT_MARGIN = 2
"""With ``needs``: cells this close to a spot's decided cells (in king moves) are not moved."""


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
        return [around(geometry, self.spot, margin) for margin in margins] + [set()]


class Search:
    """One request: what to certify, the limits, and the two ways to meet it."""

    def __init__(self, request: Request, geometry: Geometry) -> None:
        start, technique, uniform = request.start, request.technique, request.uniform
        # ``count`` has no weaker technique: every board it solves is rated ``count``.
        needs = request.needs and technique > Technique.COUNT
        self.geometry, self.mines, self.start = geometry, request.mines, start
        self.technique, self.needs, self.uniform = technique, needs, uniform
        self.timeout, self.max_draws = request.timeout, request.max_draws
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
                board = layout_board(geometry, layout)
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
                if not any(perturb(layout, report, geometry, keep_clear | g, rng) for g in guards):
                    break
                perturbations += 1
        raise AssertionError("unreachable: count() never ends")  # pragma: no cover

    def draw_uniformly(self, rng: random.Random) -> tuple[Board, int, int, Technique]:
        """Draw uniformly until the technique solves a draw (rated exactly it, with ``needs``)."""
        for draws in count(1):
            self._check_draws(draws, None)
            board = layout_board(self.geometry, rng.sample(self.candidates, self.mines))
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
        sweep, which skips ``subset`` (:class:`~mineshafted.solver.sweep.Sweep`): it tells every
        rating but ``subset`` from ``ac3`` (:meth:`~mineshafted.solver.sweep.Sweep.rating` is then
        ``None``).
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
        return [cell for cell, _, stage in sweep.decisions if stage.technique is self.technique]

    def _accepted(self, board: Board, sweep: Sweep) -> Technique | None:
        """The board's rating if it meets the request; ``None`` if it does not.

        The rating is the sweep's (the first rung that solves the board); where the sweep
        cannot tell ``subset`` from ``ac3``, :func:`~mineshafted.rating.rate` climbs the whole
        ladder.
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
        """Raise the request's :class:`~.request.GenerationError`: what was asked, and what was
        tried (``perturbations`` is ``None`` for ``uniform``)."""
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


def layout_board(geometry: Geometry, mines: Iterable[Cell]) -> Board:
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
