"""dee's solution: moves onto every cell in turn (onto a mine sooner or later), and imports
a module the assignment does not allow."""

import random


def sweep_mines(bm):
    rows, cols = bm.size
    cells = list(range(rows * cols))
    random.shuffle(cells)
    for cell in [0, *cells]:
        bm.move(cell)
    return []
