"""cy's solution: it does not import (a name misspelt at the top level)."""


def sweep_mine(bm):
    return None


sweep_mines = sweep_mines_helper  # noqa: F821 - the misspelling is the point
