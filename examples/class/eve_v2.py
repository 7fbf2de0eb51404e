# ruff: noqa: UP006, UP035, UP045 - the assignment writes its types with typing's List, Tuple
"""Mine Shafted: sweep a minefield without ever moving onto a mine.

Write sweep_mines(bm). It starts at cell 0, which is always safe, and moves only onto cells it
has proved safe: bm.move(index) returns the cell's clue (how many of its neighbours are mines)
and raises RuntimeError on a mine, which ends the game. bm.get_adjacent(index) lists a cell's
neighbours. Cells are numbered row by row: index = row * cols + col, where (rows, cols) is
bm.size. Return the whole board as a list of rows: each safe cell's clue, -1 for each mine.

Allowed modules: itertools.
"""

from typing import Dict, FrozenSet, List, Optional, Tuple


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


# eve: the frontier's cells are the variables and each clue a constraint on them; a cell is
# decided when no assignment that meets every clue gives it the other value.

MINE = -1

Constraint = Tuple[FrozenSet[int], int]


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    rows, cols = bm.size
    board: List[Optional[int]] = [None] * (rows * cols)
    found = [(0, 0)]
    while found:
        for cell, value in found:
            if value == MINE:
                board[cell] = MINE
            elif board[cell] is None:
                board[cell] = bm.move(cell)
        found = deductions(clue_constraints(bm, board))
    return [[board[r * cols + c] or 0 for c in range(cols)] for r in range(rows)]


def clue_constraints(bm: BoardManager, board: List[Optional[int]]) -> List[Constraint]:
    """Each revealed clue as (its unknown neighbours, the mines among them)."""
    constraints = []
    for cell, value in enumerate(board):
        if value is not None and value != MINE:
            around = bm.get_adjacent(cell)
            unknown = frozenset(n for n in around if board[n] is None)
            if unknown:
                constraints.append((unknown, value - sum(board[n] == MINE for n in around)))
    return constraints


def deductions(constraints: List[Constraint]) -> List[Tuple[int, int]]:
    """Cells the clues decide: (cell, 0) for a safe cell, (cell, MINE) for a mine."""
    found = []
    for cells, need in constraints:
        if need == 0:
            found.extend((cell, 0) for cell in cells)
        elif need == len(cells):
            found.extend((cell, MINE) for cell in cells)
    if found:
        return found
    for group in components(constraints):
        order = along(group)
        example = solution(group, order, {})
        if example is None:
            continue
        seen = {cell: {v} for cell, v in example.items()}  # values some solution gives
        for cell in order:
            if len(seen[cell]) == 2:
                continue
            other = solution(group, order, {cell: 1 - example[cell]})
            if other is None:
                found.append((cell, MINE if example[cell] else 0))
            else:
                for n, v in other.items():
                    seen[n].add(v)
    return found


def components(constraints: List[Constraint]) -> List[List[Constraint]]:
    """The constraints, grouped so that no two groups share a cell."""
    groups: List[List[Constraint]] = []
    for constraint in constraints:
        joined = [g for g in groups if any(constraint[0] & cells for cells, _ in g)]
        merged = [constraint] + [c for g in joined for c in g]
        groups = [g for g in groups if g not in joined] + [merged]
    return groups


def along(group: List[Constraint]) -> List[int]:
    """The group's cells, constraint by constraint: a search then meets a whole constraint
    soon, and prunes early."""
    order: List[int] = []
    for cells, _ in group:
        order.extend(sorted(cells - set(order)))
    return order


def solution(
    constraints: List[Constraint], order: List[int], fixed: Dict[int, int]
) -> Optional[Dict[int, int]]:
    """An assignment of order's cells (1: a mine) meeting every constraint, or None."""
    value = dict(fixed)
    touching: Dict[int, List[Constraint]] = {cell: [] for cell in order}
    for constraint in constraints:
        for cell in constraint[0]:
            touching[cell].append(constraint)

    def holds(constraint: Constraint) -> bool:
        cells, need = constraint
        placed = sum(value.get(cell, 0) for cell in cells)
        return placed <= need <= placed + sum(cell not in value for cell in cells)

    def search(i: int) -> bool:
        if i == len(order):
            return True
        cell = order[i]
        if cell in fixed:
            return search(i + 1)
        for v in (0, 1):
            value[cell] = v
            if all(holds(c) for c in touching[cell]) and search(i + 1):
                return True
        del value[cell]
        return False

    if not all(holds(c) for cell in fixed for c in touching[cell]):
        return None
    return value if search(0) else None


if __name__ == "__main__":
    example = [
        [0, 1, -1, 1],
        [0, 1, 1, 1],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
    ]
    print("solved" if sweep_mines(BoardManager(example)) == example else "not yet")
