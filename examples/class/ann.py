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


# ann: single clues, then subsets, then every placement of each frontier component.

BIGGEST = 60
"""Cells of a frontier component enumerated at most."""


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    rows, cols = bm.size
    clues, mines = {}, set()
    todo, queued = [0], {0}

    def open_safe(cells):
        for cell in cells:
            if cell not in clues and cell not in queued:
                queued.add(cell)
                todo.append(cell)

    while True:
        while todo:
            cell = todo.pop()
            clues[cell] = bm.move(cell)
            if clues[cell] == 0:
                open_safe(bm.get_adjacent(cell))
        rules = constraints(bm, clues, mines)
        found = single_clues(rules) or subsets(rules) or components(rules)
        safe, mined = found
        if not safe and not mined:
            break
        open_safe(safe)
        mines |= mined
    return [
        [-1 if r * cols + c in mines else clues.get(r * cols + c, 0) for c in range(cols)]
        for r in range(rows)
    ]


def constraints(bm, clues, mines):
    """Each clue's unknown neighbours and the mines among them."""
    rules = {}
    for cell, clue in clues.items():
        around = bm.get_adjacent(cell)
        unknown = frozenset(n for n in around if n not in clues and n not in mines)
        if unknown:
            rules[unknown] = clue - sum(n in mines for n in around)
    return rules


def single_clues(rules):
    safe, mined = set(), set()
    for cells, need in rules.items():
        if need == 0:
            safe |= cells
        elif need == len(cells):
            mined |= cells
    return (safe, mined) if safe or mined else None


def subsets(rules):
    safe, mined = set(), set()
    for small, need_small in rules.items():
        for big, need_big in rules.items():
            if small < big:
                rest = big - small
                if need_big == need_small:
                    safe |= rest
                elif need_big - need_small == len(rest):
                    mined |= rest
    return (safe, mined) if safe or mined else None


def components(rules):
    """Enumerate the placements of each group of cells linked by clues."""
    linked = {}
    for cells in rules:
        for cell in cells:
            linked.setdefault(cell, []).append(cells)
    safe, mined, seen = set(), set(), set()
    for start in linked:
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            group.append(cell)
            for cells in linked[cell]:
                for other in cells:
                    if other not in seen:
                        seen.add(other)
                        stack.append(other)
        if len(group) <= BIGGEST:
            values = placements(sorted(group), {c: rules[c] for g in group for c in linked[g]})
            for cell, possible in values.items():
                if possible == {0}:
                    safe.add(cell)
                elif possible == {1}:
                    mined.add(cell)
    return safe, mined


def placements(group, rules):
    """Every value each cell of ``group`` takes in some placement that satisfies ``rules``."""
    listed = list(rules.items())
    index = {cell: i for i, cell in enumerate(group)}
    touching = [[] for _ in group]
    for k, (cells, _) in enumerate(listed):
        for cell in cells:
            touching[index[cell]].append(k)
    placed = [0] * len(listed)
    left = [len(cells) for cells, _ in listed]
    need = [n for _, n in listed]
    value = [0] * len(group)
    possible = [set() for _ in group]

    def search(i):
        if i == len(group):
            for j, v in enumerate(value):
                possible[j].add(v)
            return
        for v in (0, 1):
            if all(placed[k] + v <= need[k] <= placed[k] + v + left[k] - 1 for k in touching[i]):
                for k in touching[i]:
                    placed[k] += v
                    left[k] -= 1
                value[i] = v
                search(i + 1)
                for k in touching[i]:
                    placed[k] -= v
                    left[k] += 1

    search(0)
    return {cell: possible[index[cell]] for cell in group}


if __name__ == "__main__":
    example = [
        [0, 1, -1, 1],
        [0, 1, 1, 1],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
    ]
    print("solved" if sweep_mines(BoardManager(example)) == example else "not yet")
