"""A perturbation: the mines around one pivot where the sweep stalled, cleared or filled by
swapping with cells further away (undetermined ones no clue sees first, then other undetermined
ones, then any cell outside the start area). The start area stays clear and the mine total
never changes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..board import Cell, Geometry
from ..solver.sweep import SweepReport

__all__ = ["around", "perturb"]


def around(geometry: Geometry, cells: Iterable[Cell], margin: int) -> set[Cell]:
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


def perturb(
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
        patch = {c for c in around if c not in keep_clear and unexplored(report, geometry, c)}
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
            swap_plan(sorted(patch & layout), tiers, layout, want_mine=False, rng=rng),
            swap_plan(sorted(patch - layout), tiers, layout, want_mine=True, rng=rng),
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


def unexplored(report: SweepReport, geometry: Geometry, cell: Cell) -> bool:
    """Whether the sweep left ``cell`` unexplored (undetermined, or a proven mine)."""
    row, col = geometry.coords(cell)
    value = report.board[row][col]
    return value is None or value < 0


def swap_plan(
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
