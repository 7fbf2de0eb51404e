"""A request for boards: its checks, what no board can meet, and its random stream.

Checked before any board is drawn: a size, a start and a mine total that fit, a technique that
certifies, and the layouts no no-guess board has (:func:`impossible`, cheap to see).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..board import Cell, Geometry
from ..errors import MineshaftedError
from ..formats import MAX_CELLS
from ..solver.technique import Technique

__all__ = ["GenerationError", "Request", "impossible", "stream"]


class GenerationError(MineshaftedError):
    """No certified board could be made: the request is infeasible or ran out of time."""


@dataclass(frozen=True)
class Request:
    """What boards are asked for: the size and mine total, the start, the technique that
    certifies them (rated exactly it with ``needs``; by uniform draws with ``uniform``), and
    the limits of the search for each (``timeout`` seconds, ``max_draws``)."""

    rows: int
    cols: int
    mines: int
    start: Cell = 0
    technique: Technique = Technique.COMPLETE
    needs: bool = False
    uniform: bool = False
    timeout: float | None = 60.0
    max_draws: int | None = None

    def check(self) -> Geometry:
        """The board's geometry, once the request is known to be possible at all.

        Raises
        ------
        GenerationError
            The first thing wrong: the size, the start, the mines that do not fit, a layout
            no no-guess board has (:func:`impossible`), the technique, the draw limit.
        """
        geometry = self._fitting()
        self._certifiable()
        return geometry

    def _fitting(self) -> Geometry:
        """The geometry, once the board, the start and the mines fit and no cheap rule shows
        that every layout needs a guess."""
        rows, cols, mines, start = self.rows, self.cols, self.mines, self.start
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
        why = impossible(geometry, mines, start) if self.technique < Technique.TOTAL else None
        if why is not None:
            raise GenerationError(f"no {rows}x{cols} board with {mines} mines is no-guess: {why}")
        return geometry

    def _certifiable(self) -> None:
        """Refuse a technique no no-guess board can be certified by, and a draw limit below 1."""
        technique = self.technique
        if technique is Technique.GUESS:
            names = ", ".join(t.value for t in Technique.solving())
            raise GenerationError(
                "the technique 'guess' certifies nothing: it is what a board needs when no "
                f"technique solves it, and this generator makes no-guess boards; choose {names}"
            )
        if self.needs and self.mines == 0 and technique > Technique.COUNT:
            raise GenerationError(
                f"no {self.rows}x{self.cols} board with 0 mines needs {technique.value}: the "
                "start's 0 opens every cell, so count solves it"
            )
        if self.max_draws is not None and self.max_draws < 1:
            raise GenerationError(f"at least one draw is needed, not {self.max_draws}")


def impossible(geometry: Geometry, mines: int, start: Cell) -> str | None:
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


def stream(seed: int) -> random.Random:
    """The random stream of ``seed``: distinct ints give distinct streams.

    ``random.Random`` seeds with ``abs(seed)``, so ``-5`` and ``5`` would draw the same
    boards. Seeds ``0 .. 2**63 - 1`` (every seed the package draws) are used as they are;
    larger ones map to the even numbers from ``2**63`` up, negative ones to the odd ones.

    Examples
    --------
    >>> stream(-5).random() != stream(5).random()
    True
    """
    top = 2**63
    if 0 <= seed < top:
        return random.Random(seed)
    return random.Random(top + (2 * (seed - top) if seed >= top else -2 * seed - 1))
