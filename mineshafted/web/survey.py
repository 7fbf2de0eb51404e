"""Survey: the page's reading of a stall, what classic play's ``best`` policy knows there.

This is the one module of :mod:`mineshafted.web` that calls the probability package's
policy, look-ahead, fifty-fifties and endgame search (:class:`~mineshafted.probability.Best`,
:func:`~mineshafted.probability.outlook`, :mod:`mineshafted.probability.fifties`,
:meth:`~mineshafted.probability.Best.searched`): where the library changes, only this module
follows it. The figures are the library's own, converted to floats for JSON.

Glossary
--------
survey
    What the ``best`` policy knows at a stall, as the page shows it: each unknown cell's
    figures, the fifty-fifties, the endgame's exact chance, the policy's choice. (The
    solver's *knowledge* is another idea: :class:`~mineshafted.solver.Knowledge`.)
stall
    A position with no unknown cell certainly safe; the policy is asked only then.
secondary safety
    Of a cell: the chance it is safe, times how safe the best next guess is then
    (:attr:`~mineshafted.probability.Outlook.lookahead`).
progress
    The chance a cell is safe and its clue decides at least one other cell.
dead
    A cell that can show only one clue: revealing it tells nothing.
fifty-fifty
    Two cells holding one mine between them in every placement that no cell can ever tell
    apart: every cell beside only one of them is a known mine or off the board.
"""

from __future__ import annotations

import random
from typing import Any

from ..board import MINE, Cell, Geometry, PartialGrid
from ..probability import Best, Odds, odds, outlook, position_of
from ..probability.fifties import coming, placements_given
from ..probability.policy import alike
from ..solver import Position

__all__ = ["POLICY_SEED", "policy_choice", "stall_of", "survey"]

POLICY_SEED = 0
"""The seed of the policy's tie-breaking: the same position always gets the same best move."""


def stall_of(grid: PartialGrid, mines: int, result: Odds) -> tuple[Position, Odds, PartialGrid]:
    """The position as classic play asks the policy at a stall: the cells the total decides
    as mines marked as known mines first (their odds do not change).

    Returns
    -------
    tuple
        The position, its odds, and the grid with those mines marked.
    """
    marked = [list(row) for row in grid]
    cols = len(grid[0])
    for cell in result.mines:
        marked[cell // cols][cell % cols] = MINE
    position = position_of(marked)
    stall = odds(position, mines) if result.mines else result
    return position, stall, marked


def policy_choice(position: Position, stall: Odds, marked: PartialGrid) -> Cell:
    """The cell the ``best`` policy guesses at the stall (its ties broken by
    :data:`POLICY_SEED`)."""
    return Best().choose(position, stall, marked, random.Random(POLICY_SEED))


def survey(grid: PartialGrid, mines: int, result: Odds) -> dict[str, Any]:
    """The survey of a position whose odds are ``result``: what the policy knows, JSON-ready.

    Returns
    -------
    dict
        ``stall``; ``cells`` (each unknown cell's ``mine`` chance, ``secondary`` safety,
        ``progress`` and ``dead``, at a stall); ``fifties`` (pairs of cells); ``endgame``
        (``cell``, ``wins``, ``placements``, ``chance``: when the exact search finishes);
        ``best`` (the policy's choice).

    Examples
    --------
    ``1 * ? ? ?`` with two mines: one on the last three cells. An end cell tells the other
    two apart, so best play wins 2 times in 3.

    >>> from mineshafted.probability import view_odds
    >>> grid = [[1, -1, None, None, None]]
    >>> found = survey(grid, 2, view_odds(grid, 2))
    >>> found["endgame"]["chance"], found["best"] in ([0, 2], [0, 4])
    (0.6666666666666666, True)

    Notes
    -----
    One look-ahead (:func:`~mineshafted.probability.outlook`: up to 9 counts) per unknown
    cell not decided, but cells no clue sees whose unknown neighbours no clue sees either are
    alike when they have as many unknown and known-mine neighbours: one is counted for all. Then the
    fifty-fifties (a count per pair of adjacent cells that could form one) and the endgame
    search, bounded by its own limits.
    """
    cols = len(grid[0])
    answer: dict[str, Any] = {
        "stall": not result.safe,
        "cells": [],
        "fifties": [],
        "endgame": None,
        "best": None,
    }
    total = result.placements
    if result.safe or all(count == total for count in result.mined.values()):
        answer["best"] = _pair(result.safe[0], cols) if result.safe else None
        return answer
    position, stall, marked = stall_of(grid, mines, result)
    answer["cells"] = _outlooks(position, stall, marked)
    fifties = _fifties(position, stall, marked)
    answer["fifties"] = [[_pair(a, cols), _pair(b, cols)] for a, b in fifties]
    best = Best()
    found = best.searched(position, stall, marked)  # once: the policy's choice takes it
    if found is not None:
        answer["endgame"] = {
            "cell": _pair(found.cell, cols),
            "wins": found.wins,
            "placements": found.placements,
            "chance": float(found.chance),
        }
    choice = best.choose_after(found, position, stall, marked, random.Random(POLICY_SEED))
    answer["best"] = _pair(choice, cols)
    return answer


def _outlooks(position: Position, stall: Odds, marked: PartialGrid) -> list[dict[str, Any]]:
    """Each unknown cell's outlook (the cells not decided), as JSON; alike open cells counted
    once."""
    rows, cols = len(marked), len(marked[0])
    around = Geometry(rows, cols).neighbour_table()
    free = set(position.unconstrained)
    total = stall.placements
    seen: dict[tuple[int, int], Any] = {}
    cells = []
    for cell in sorted(stall.mined):
        mined = stall.mined[cell]
        if mined in (0, total):
            continue
        key = alike(cell, around[cell], free, marked, cols)
        look = seen.get(key) if key is not None else None
        if look is None:
            look = outlook(position, stall, marked, cell)
            if key is not None:
                seen[key] = look
        cells.append(
            {
                "cell": _pair(cell, cols),
                "mine": mined / total,
                "secondary": float(look.lookahead),
                "progress": float(look.progress),
                "dead": look.dead,
            }
        )
    return cells


def _fifties(position: Position, stall: Odds, marked: PartialGrid) -> list[tuple[Cell, Cell]]:
    """The fifty-fifties now: pairs to come whose flank is complete (all known mines or off
    the board) and that hold one mine between them in every placement."""
    found = []
    total = stall.placements
    for pair in coming(position, stall, marked):
        if pair.flank:
            continue
        left = stall.mines_left
        split = placements_given(position, left, (pair.first,), (pair.second,))
        split += placements_given(position, left, (pair.second,), (pair.first,))
        if split == total:
            found.append((pair.first, pair.second))
    return found


def _pair(cell: Cell, cols: int) -> list[int]:
    return [cell // cols, cell % cols]
