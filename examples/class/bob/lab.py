# ruff: noqa: UP006, UP035 - the assignment writes its types with typing's List, Tuple
"""Mine Shafted: sweep a minefield without ever moving onto a mine.

Write sweep_mines(bm). It starts at cell 0, which is always safe, and moves only onto cells it
has proved safe: bm.move(index) returns the cell's clue (how many of its neighbours are mines)
and raises RuntimeError on a mine, which ends the game. bm.get_adjacent(index) lists a cell's
neighbours. Cells are numbered row by row: index = row * cols + col, where (rows, cols) is
bm.size. Return the whole board as a list of rows: each safe cell's clue, -1 for each mine.

Allowed modules: itertools.
"""

from typing import List, Tuple


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


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    # bob: single clues only; a cell it cannot tell is left 0
    rows, cols = bm.size
    answer = [[0] * cols for _ in range(rows)]
    opened, flagged = set(), set()
    todo = {0}
    while todo:
        for cell in todo:
            answer[cell // cols][cell % cols] = bm.move(cell)
            opened.add(cell)
        todo = set()
        for cell in opened:
            around = bm.get_adjacent(cell)
            closed = {n for n in around if n not in opened and n not in flagged}
            left = answer[cell // cols][cell % cols] - len(flagged.intersection(around))
            if closed and left == 0:
                todo |= closed
            elif closed and left == len(closed):
                flagged |= closed
                for n in closed:
                    answer[n // cols][n % cols] = -1
    return answer


if __name__ == "__main__":
    example = [
        [0, 1, -1, 1],
        [0, 1, 1, 1],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
    ]
    print("solved" if sweep_mines(BoardManager(example)) == example else "not yet")
