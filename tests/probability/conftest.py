"""Shared by the probability tests: stalls met in real games, and best play by plain search."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import pytest

from mineshafted import MINE
from mineshafted.board import Geometry, PartialGrid
from mineshafted.probability import Odds, Policy, Safest, play_game
from mineshafted.solver import Position


@dataclass
class Stall:
    """One stall a policy was asked about."""

    position: Position
    odds: Odds
    board: PartialGrid
    mines: int


@dataclass
class Recording:
    """A policy that keeps every stall it sees and guesses as ``inner`` does."""

    inner: Policy
    mines: int
    stalls: list[Stall] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"recording {self.inner.name}"

    def choose(self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random) -> int:
        self.stalls.append(Stall(position, odds, board, self.mines))
        return self.inner.choose(position, odds, board, rng)


def stalls(rows: int, cols: int, mines: int, seeds: range) -> list[Stall]:
    """The stalls met playing the games of ``seeds`` with the safest policy."""
    recording = Recording(Safest(), mines)
    for seed in seeds:
        play_game(rows, cols, mines, seed=seed, policy=recording)
    return recording.stalls


@pytest.fixture(scope="session")
def intermediate_stalls() -> list[Stall]:
    """The stalls of twelve intermediate games (16x16, 40 mines) played safest."""
    found = stalls(16, 16, 40, range(12))
    assert len(found) > 15
    return found


@pytest.fixture(scope="session")
def small_stalls() -> list[Stall]:
    """The stalls of forty small games (5x5, 5 mines) played safest."""
    found = stalls(5, 5, 5, range(40))
    assert len(found) > 15
    return found


def best_play(grid: PartialGrid, mines_left: int) -> tuple[int, int, dict[int, int]]:
    """Best play by plain search over (cells revealed, placements left), no shortcuts.

    Returns the placements, how many of them best play wins, and for each unknown cell how
    many best play wins when that cell is revealed first.
    """
    rows, cols = len(grid), len(grid[0])
    geometry = Geometry(rows, cols)
    values = [value for row in grid for value in row]
    unknown = [cell for cell, value in enumerate(values) if value is None]
    known = {cell for cell, value in enumerate(values) if value == MINE}
    clues = [(cell, value) for cell, value in enumerate(values) if value not in (None, MINE)]
    placements = []
    for chosen in combinations(unknown, mines_left):
        mines = set(chosen) | known
        if all(sum(n in mines for n in geometry.neighbours(c)) == v for c, v in clues):
            placements.append(frozenset(mines))

    def shows(cell: int, mines: frozenset[int]) -> int:
        return sum(n in mines for n in geometry.neighbours(cell))

    def after(cell: int, left: frozenset[frozenset[int]]) -> int:
        """Wins of revealing ``cell`` next, then playing best."""
        by_value: dict[int, set[frozenset[int]]] = {}
        for mines in left:
            if cell not in mines:
                by_value.setdefault(shows(cell, mines), set()).add(mines)
        if list(by_value.values()) == [left]:
            return 0  # safe everywhere and the same clue everywhere: it tells nothing
        return sum(wins(frozenset(part)) for part in by_value.values())

    @cache
    def wins(left: frozenset[frozenset[int]]) -> int:
        if len(left) == 1:
            return 1
        return max(after(cell, left) for cell in unknown)

    everything = frozenset(placements)
    return len(placements), wins(everything), {cell: after(cell, everything) for cell in unknown}
