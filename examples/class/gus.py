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


# gus: a grid of what is known; each clue looks at its 3x3 block.

UNKNOWN = -2
MINE = -1


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    rows, cols = bm.size
    known = [[UNKNOWN] * cols for _ in range(rows)]
    reveal(bm, known, 0, 0)
    while sweep_once(bm, known):
        pass
    return [[0 if v == UNKNOWN else v for v in row] for row in known]


def reveal(bm: BoardManager, known: List[List[int]], r: int, c: int) -> None:
    """Move onto (r, c), and onto every neighbour of a 0."""
    cols = bm.size[1]
    known[r][c] = bm.move(r * cols + c)
    if known[r][c] == 0:
        for n in bm.get_adjacent(r * cols + c):
            if known[n // cols][n % cols] == UNKNOWN:
                reveal(bm, known, n // cols, n % cols)


def sweep_once(bm: BoardManager, known: List[List[int]]) -> bool:
    """Apply the rules of every clue once; whether anything new was learnt."""
    rows, cols = bm.size
    progress = False
    for r in range(rows):
        for c in range(cols):
            if known[r][c] > 0 and apply_rules(bm, known, r, c):
                progress = True
    return progress


def apply_rules(bm: BoardManager, known: List[List[int]], r: int, c: int) -> bool:
    hidden, flagged = block(known, r, c)
    if hidden and len(flagged) == known[r][c]:
        for hr, hc in hidden:
            if known[hr][hc] == UNKNOWN:
                reveal(bm, known, hr, hc)
        return True
    if hidden and len(flagged) + len(hidden) == known[r][c]:
        for hr, hc in hidden:
            known[hr][hc] = MINE
        return True
    return False


def block(
    known: List[List[int]], r: int, c: int
) -> Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]:
    """The unknown and the flagged cells around (r, c)."""
    hidden, flagged = [], []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and r + dr >= 0 and c + dc >= 0:
                value = known[r + dr][c + dc]
                if value == UNKNOWN:
                    hidden.append((r + dr, c + dc))
                elif value == MINE:
                    flagged.append((r + dr, c + dc))
    return hidden, flagged


if __name__ == "__main__":
    example = [
        [0, 1, -1, 1],
        [0, 1, 1, 1],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
    ]
    print("solved" if sweep_mines(BoardManager(example)) == example else "not yet")
