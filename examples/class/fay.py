# ruff: noqa: UP006, UP035, UP045 - the assignment writes its types with typing's List, Tuple
"""Mine Shafted: sweep a minefield without ever moving onto a mine.

Write sweep_mines(bm). It starts at cell 0, which is always safe, and moves only onto cells it
has proved safe: bm.move(index) returns the cell's clue (how many of its neighbours are mines)
and raises RuntimeError on a mine, which ends the game. bm.get_adjacent(index) lists a cell's
neighbours. Cells are numbered row by row: index = row * cols + col, where (rows, cols) is
bm.size. Return the whole board as a list of rows: each safe cell's clue, -1 for each mine.

Allowed modules: itertools.
"""

from typing import List, Optional, Tuple


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


# fay: keep applying the two clue rules until every cell is known.


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    rows, cols = bm.size
    grid: List[List[Optional[int]]] = [[None] * cols for _ in range(rows)]
    grid[0][0] = bm.move(0)
    known = 1
    while known < rows * cols:
        for index in range(rows * cols):
            clue = grid[index // cols][index % cols]
            if clue is None or clue == -1:
                continue
            around = bm.get_adjacent(index)
            unknown = [n for n in around if grid[n // cols][n % cols] is None]
            flagged = [n for n in around if grid[n // cols][n % cols] == -1]
            if unknown and len(flagged) == clue:
                for n in unknown:
                    grid[n // cols][n % cols] = bm.move(n)
                    known += 1
            elif unknown and len(flagged) + len(unknown) == clue:
                for n in unknown:
                    grid[n // cols][n % cols] = -1
                    known += 1
    return [[-1 if value is None else value for value in row] for row in grid]


if __name__ == "__main__":
    example = [
        [0, 1, -1, 1],
        [0, 1, 1, 1],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
    ]
    print("solved" if sweep_mines(BoardManager(example)) == example else "not yet")
