"""Shared by the web tests: positions cut from real boards, and a brute-force judge of them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from mineshafted.board import MINE, Board, PartialGrid


@dataclass(frozen=True)
class Cut:
    """A position cut from a real board: what a player might see, and the mine total."""

    grid: PartialGrid
    mines: int

    def json(self) -> dict[str, object]:
        """The position as ``mineshafted probabilities`` and the API read it."""
        return {"board": self.grid, "mines": self.mines}


def cuts(count: int, *, seed: int, rows: int, cols: int, density: float) -> Iterator[Cut]:
    """``count`` positions: a random board, some safe cells revealed (zeros opening their
    neighbours, as in play) and a few mines known."""
    rng = random.Random(seed)
    for _ in range(count):
        cells = rows * cols
        mines = max(1, round(cells * density * rng.uniform(0.7, 1.3)))
        board = Board.from_mines(rows, cols, rng.sample(range(cells), min(mines, cells - 1)))
        values = board.values
        grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
        table = board.geometry.neighbour_table()
        safe = [c for c in range(cells) if values[c] != MINE]
        for start in rng.sample(safe, rng.randint(1, max(1, len(safe) // 2))):
            queue = [start]
            for cell in queue:
                if grid[cell // cols][cell % cols] is not None:
                    continue
                grid[cell // cols][cell % cols] = values[cell]
                if values[cell] == 0:
                    queue.extend(table[cell])
        for cell in board.mines:
            if rng.random() < 0.15:
                grid[cell // cols][cell % cols] = MINE
        yield Cut(grid, board.mine_count)


class Brute:
    """Every assignment of mines to a small position's unknown cells, judged from the grid's
    digits directly (no code of the package): which agree with which clues, and the total."""

    def __init__(self, cut: Cut) -> None:
        self.grid = cut.grid
        self.rows, self.cols = len(cut.grid), len(cut.grid[0])
        self.unknown = [
            r * self.cols + c
            for r in range(self.rows)
            for c in range(self.cols)
            if cut.grid[r][c] is None
        ]
        known = sum(value == MINE for row in cut.grid for value in row)
        self.left = cut.mines - known
        assert len(self.unknown) <= 16, "brute force is for small positions"

    @cached_property
    def bit(self) -> dict[int, int]:
        return {cell: 1 << i for i, cell in enumerate(self.unknown)}

    def clue(self, row: int, col: int) -> tuple[int, int]:
        """The clue at (row, col) as ``(mask of its unknown neighbours, mines among them)``."""
        value = self.grid[row][col]
        assert value is not None and value != MINE
        mask, need = 0, value
        for r in range(row - 1, row + 2):
            for c in range(col - 1, col + 2):
                if (r, c) == (row, col) or not (0 <= r < self.rows and 0 <= c < self.cols):
                    continue
                if self.grid[r][c] is None:
                    mask |= self.bit[r * self.cols + c]
                elif self.grid[r][c] == MINE:
                    need -= 1
        return mask, need

    def clues(self) -> list[tuple[int, int]]:
        return [
            (r, c)
            for r in range(self.rows)
            for c in range(self.cols)
            if self.grid[r][c] is not None and self.grid[r][c] != MINE
        ]

    def assignments(self, clues: list[tuple[int, int]], *, total: bool) -> Iterator[int]:
        """Every assignment (a bit mask over the unknown cells) agreeing with ``clues`` (and
        the total)."""
        masks = [self.clue(r, c) for r, c in clues]
        for a in range(1 << len(self.unknown)):
            if total and a.bit_count() != self.left:
                continue
            if all((a & mask).bit_count() == need for mask, need in masks):
                yield a

    def forced(
        self, clues: list[tuple[int, int]], cell: tuple[int, int], *, mine: bool, total: bool
    ) -> bool:
        """Whether no assignment agreeing with ``clues`` (and the total) has ``cell`` the
        other way."""
        bit = self.bit[cell[0] * self.cols + cell[1]]
        return not any(bool(a & bit) != mine for a in self.assignments(clues, total=total))

    def decided(self) -> dict[tuple[int, int], bool]:
        """Every unknown cell that all the clues and the total decide: ``{cell: is_mine}``."""
        every = list(self.assignments(self.clues(), total=True))
        found = {}
        for cell, bit in self.bit.items():
            values = {bool(a & bit) for a in every}
            if len(values) == 1:
                found[divmod(cell, self.cols)] = values.pop()
        return found

    def undecided(self) -> list[tuple[int, int]]:
        every = list(self.assignments(self.clues(), total=True))
        return [
            divmod(cell, self.cols)
            for cell, bit in self.bit.items()
            if len({bool(a & bit) for a in every}) == 2
        ]
