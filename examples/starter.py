"""The Mine Shafted starter: what every student was given (leave it out of --similarity with
--starter examples/starter.py)."""


def sweep_mines(bm):
    rows, cols = bm.size
    # Your code here: move onto cells with bm.move(index), read their neighbours with
    # bm.get_adjacent(index), and return the board as a list of rows (-1 for a mine).
    return [[0] * cols for _ in range(rows)]
