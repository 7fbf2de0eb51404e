"""Returns a value JSON cannot carry whose repr holds lone surrogates (see surrogate_error.py)."""


class Board:
    def __repr__(self):
        return "\udc1b\udcc2\udc9b\udce2\udc80\udcae"


def sweep_mines(bm):
    return Board()
