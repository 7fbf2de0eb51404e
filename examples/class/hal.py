# ruff: noqa: UP006, UP035 - the assignment writes its types with typing's List, Tuple
"""Mine Shafted: sweep a minefield without ever moving onto a mine.

Write sweep_mines(bm). It starts at cell 0, which is always safe, and moves only onto cells it
has proved safe: bm.move(index) returns the cell's clue (how many of its neighbours are mines)
and raises RuntimeError on a mine, which ends the game. bm.get_adjacent(index) lists a cell's
neighbours. Cells are numbered row by row: index = row * cols + col, where (rows, cols) is
bm.size. Return the whole board as a list of rows: each safe cell's clue, -1 for each mine.

Allowed modules: itertools.
"""

from collections import deque
from typing import Dict, List, Set, Tuple


class BoardManager:  # do not modify
    """The hidden board: sweep_mines learns it only through size, move and get_adjacent."""

    def __init__(self, board: List[List[int]]) -> None:
        self.size: Tuple[int, int] = (len(board), len(board[0]))
        self._board = board
        self._lost = False

    def move(self, index: int) -> int:
        """Move onto cell index: its clue; a mine raises RuntimeError (and so does every
        move after it)."""
        if self._lost:
            raise RuntimeError
        row, col = divmod(index, self.size[1])
        if self._board[row][col] == -1:
            self._lost = True
            raise RuntimeError
        return self._board[row][col]

    def get_adjacent(self, index: int) -> List[int]:
        """The up-to-8 neighbours of cell index, row by row."""
        rows, cols = self.size
        row, col = divmod(index, cols)
        return [
            r * cols + c
            for r in range(max(row - 1, 0), min(row + 2, rows))
            for c in range(max(col - 1, 0), min(col + 2, cols))
            if (r, c) != (row, col)
        ]


# hal: a queue of cells to open; single clues, then one clue's cells inside another's.


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    rows, cols = bm.size
    clue_of: Dict[int, int] = {}
    mines: Set[int] = set()
    queue = deque([0])
    while queue:
        while queue:
            cell = queue.popleft()
            if cell not in clue_of:
                clue_of[cell] = bm.move(cell)
        queue.extend(deduce(bm, clue_of, mines))
    return [
        [-1 if i in mines else clue_of.get(i, 0) for i in range(r * cols, (r + 1) * cols)]
        for r in range(rows)
    ]


def deduce(bm: BoardManager, clue_of: Dict[int, int], mines: Set[int]) -> Set[int]:
    """Safe cells to open (and mines found on the way, added to mines)."""
    rules = []
    for cell, clue in clue_of.items():
        around = bm.get_adjacent(cell)
        unknown = {n for n in around if n not in clue_of and n not in mines}
        if unknown:
            rules.append((unknown, clue - len(mines.intersection(around))))
    safe: Set[int] = set()
    for cells, need in rules:
        if need == 0:
            safe |= cells
        elif need == len(cells):
            mines |= cells
    for small, small_need in rules:
        for big, big_need in rules:
            if small < big and big_need == small_need:
                safe |= big - small
            elif small < big and big_need - small_need == len(big - small):
                mines |= big - small
    return safe - mines


if __name__ == "__main__":
    example = [
        [0, 1, -1, 1],
        [0, 1, 1, 1],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
    ]
    print("solved" if sweep_mines(BoardManager(example)) == example else "not yet")
