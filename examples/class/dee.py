# ruff: noqa: UP006, UP035 - the assignment writes its types with typing's List, Tuple
"""Mine Shafted: sweep a minefield without ever moving onto a mine.

Write sweep_mines(bm). It starts at cell 0, which is always safe, and moves only onto cells it
has proved safe: bm.move(index) returns the cell's clue (how many of its neighbours are mines)
and raises RuntimeError on a mine, which ends the game. bm.get_adjacent(index) lists a cell's
neighbours. Cells are numbered row by row: index = row * cols + col, where (rows, cols) is
bm.size. Return the whole board as a list of rows: each safe cell's clue, -1 for each mine.

Allowed modules: itertools.
"""

import itertools
from typing import Dict, FrozenSet, List, Set, Tuple


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


# dee: each clue is a CSP variable whose domain is every placement of its mines among its
# unknown neighbours; AC-3 prunes the domains, and a cell every placement agrees on is decided.

Placement = FrozenSet[int]


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    rows, cols = bm.size
    clues: Dict[int, int] = {}
    mines: Set[int] = set()
    safe = {0}
    while safe:
        for cell in safe:
            clues[cell] = bm.move(cell)
        domains, scopes = variables(bm, clues, mines)
        ac3(domains, scopes)
        safe, found = decided(domains, scopes)
        mines |= found
        safe -= clues.keys()
    board = [[0] * cols for _ in range(rows)]
    for cell, clue in clues.items():
        board[cell // cols][cell % cols] = clue
    for cell in mines:
        board[cell // cols][cell % cols] = -1
    return board


def variables(
    bm: BoardManager, clues: Dict[int, int], mines: Set[int]
) -> Tuple[Dict[int, Set[Placement]], Dict[int, FrozenSet[int]]]:
    """One variable per clue with unknown neighbours: its scope and its domain."""
    domains: Dict[int, Set[Placement]] = {}
    scopes: Dict[int, FrozenSet[int]] = {}
    for cell, clue in clues.items():
        around = bm.get_adjacent(cell)
        unknown = frozenset(n for n in around if n not in clues and n not in mines)
        if unknown:
            need = clue - sum(n in mines for n in around)
            scopes[cell] = unknown
            domains[cell] = {frozenset(p) for p in itertools.combinations(sorted(unknown), need)}
    return domains, scopes


def ac3(domains: Dict[int, Set[Placement]], scopes: Dict[int, FrozenSet[int]]) -> None:
    """Make every arc consistent: each placement of x agrees with some placement of y."""
    neighbours = {x: [y for y in domains if y != x and scopes[x] & scopes[y]] for x in domains}
    queue = {(x, y) for x in domains for y in neighbours[x]}
    while queue:
        x, y = queue.pop()
        if revise(domains, scopes, x, y):
            queue |= {(z, x) for z in neighbours[x] if z != y}


def revise(
    domains: Dict[int, Set[Placement]], scopes: Dict[int, FrozenSet[int]], x: int, y: int
) -> bool:
    shared = scopes[x] & scopes[y]
    supported = {p & shared for p in domains[y]}
    kept = {p for p in domains[x] if p & shared in supported}
    removed = len(kept) < len(domains[x])
    domains[x] = kept
    return removed


def decided(
    domains: Dict[int, Set[Placement]], scopes: Dict[int, FrozenSet[int]]
) -> Tuple[Set[int], Set[int]]:
    """The cells every placement of some variable leaves empty (safe) or fills (mines)."""
    safe: Set[int] = set()
    mines: Set[int] = set()
    for x, domain in domains.items():
        if domain:
            safe |= scopes[x] - frozenset.union(*domain)
            mines |= frozenset.intersection(*domain)
    return safe, mines


if __name__ == "__main__":
    example = [
        [0, 1, -1, 1],
        [0, 1, 1, 1],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
    ]
    print("solved" if sweep_mines(BoardManager(example)) == example else "not yet")
