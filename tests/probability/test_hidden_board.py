"""The policy sees only what a player sees: two games whose views are equal get the same choice,
whatever their hidden boards (issue 21 §1).

A game on a given board is played again on other boards that agree with everything the player
had seen by some stall: on small boards, every such board (a sample of them); on expert boards,
one found by a search with random choices. Up to that stall the games must be the same: the
same view at each stall and the same cell chosen there, the same seed feeding the policy's
random choices. (A policy that peeks at the hidden board, even only to avoid a mine, fails.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

import pytest

from mineshafted import MINE
from mineshafted.board import Board, Cell, Geometry, PartialGrid
from mineshafted.probability import Odds, Policy, play_board, policy_named
from mineshafted.solver import Position

Seen = tuple[tuple[tuple[int | None, ...], ...], Cell]
"""A stall as the policy met it: the player's view, and the cell it chose."""


@dataclass
class Watched:
    """A policy that keeps each view it is shown and the cell ``inner`` chooses there."""

    inner: Policy
    seen: list[Seen] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random) -> int:
        cell = self.inner.choose(position, odds, board, rng)
        self.seen.append((tuple(tuple(row) for row in board), cell))
        return cell


def stalls(board: Board, start: Cell, seed: int, policy: str) -> list[Seen]:
    """Every stall of ``board`` played from ``start`` by ``policy``: its view and choice."""
    watched = Watched(policy_named(policy))
    play_board(board, start=start, seed=seed, policy=watched)
    return watched.seen


def agreeing(view: tuple[tuple[int | None, ...], ...], mines: int) -> list[frozenset[Cell]]:
    """Every placement of ``mines`` mines that agrees with every clue of ``view``."""
    geometry = Geometry(len(view), len(view[0]))
    values = [value for row in view for value in row]
    hidden = [cell for cell, value in enumerate(values) if value is None or value == MINE]
    clues = [
        (cell, value)
        for cell, value in enumerate(values)
        if value is not None
        and value != MINE
        and any(values[n] in (None, MINE) for n in geometry.neighbours(cell))
    ]
    found = []
    for chosen in combinations(hidden, mines):
        placed = set(chosen)
        if all(sum(n in placed for n in geometry.neighbours(c)) == v for c, v in clues):
            found.append(frozenset(placed))
    return found


def same_until(these: list[Seen], those: list[Seen], stall: int) -> None:
    """``these`` and ``those`` show the same views and choices up to ``stall``, included."""
    assert len(these) > stall and len(those) > stall
    assert these[: stall + 1] == those[: stall + 1]


@pytest.mark.parametrize("policy", ["best", "best-endgame", "safest", "random"])
@pytest.mark.slow
def test_every_hidden_board_behind_a_view_gets_the_same_choices(policy: str) -> None:
    rows, cols, mines = 5, 5, 5
    compared = 0
    for seed in range(30):
        draw = random.Random(seed)
        board = Board.from_mines(rows, cols, draw.sample(range(1, rows * cols), mines))
        seen = stalls(board, 0, seed, policy)
        for stall, (view, _) in enumerate(seen):
            hidden = sum(value is None or value == MINE for row in view for value in row)
            if comb(hidden, mines) > 5000:
                continue
            others = [m for m in agreeing(view, mines) if m != board.mines]
            for other in draw.sample(others, min(len(others), 4)):
                again = stalls(Board.from_mines(rows, cols, other), 0, seed, policy)
                same_until(seen, again, stall)
                compared += 1
    assert compared >= 40, compared


@pytest.mark.slow
def test_expert_boards_behind_the_same_view_get_the_same_choices() -> None:
    rows, cols, mines = 16, 30, 99
    compared = 0
    for seed in range(10):
        draw = random.Random(seed)
        board = Board.from_mines(rows, cols, draw.sample(range(1, rows * cols), mines))
        seen = stalls(board, 0, seed, "best")
        for stall in sorted({0, len(seen) - 1} - {-1}):  # the first stall and the last
            other = another(seen[stall][0], mines, board.mines, draw)
            if other is None:
                continue
            again = stalls(Board.from_mines(rows, cols, other), 0, seed, "best")
            same_until(seen, again, stall)
            compared += 1
    assert compared >= 10, compared


def another(
    view: tuple[tuple[int | None, ...], ...],
    mines: int,
    not_this: frozenset[Cell],
    rng: random.Random,
) -> frozenset[Cell] | None:
    """A random placement of ``mines`` mines that agrees with ``view`` and is not ``not_this``
    (a search with random choices, tried a few times); ``None`` if none was found."""
    geometry = Geometry(len(view), len(view[0]))
    values = [value for row in view for value in row]
    hidden = {cell for cell, value in enumerate(values) if value is None or value == MINE}
    need = {
        cell: value
        for cell, value in enumerate(values)
        if value is not None and value != MINE and hidden & set(geometry.neighbours(cell))
    }
    free = {cell: len(hidden & set(geometry.neighbours(cell))) for cell in need}
    frontier = sorted(cell for cell in hidden if set(geometry.neighbours(cell)) & need.keys())
    unseen = sorted(hidden - set(frontier))

    def place(at: int, placed: list[Cell]) -> list[Cell] | None:
        if at == len(frontier):
            rest = mines - len(placed)
            return placed + rng.sample(unseen, rest) if 0 <= rest <= len(unseen) else None
        cell = frontier[at]
        clues = [n for n in geometry.neighbours(cell) if n in need]
        for mine in rng.sample([True, False], 2):
            for clue in clues:
                need[clue] -= mine
                free[clue] -= 1
            if all(0 <= need[clue] <= free[clue] for clue in clues):
                found = place(at + 1, [*placed, cell] if mine else placed)
                if found is not None:
                    return found
            for clue in clues:
                need[clue] += mine
                free[clue] += 1
        return None

    for _ in range(5):
        found = place(0, [])
        if found is not None and frozenset(found) != not_this:
            return frozenset(found)
    return None
