"""The subset technique: constraints, their differences, and counting on every one of them.

Glossary
--------
constraint
    ``(cells, mines)``: exactly ``mines`` mines among the unknown ``cells`` (see
    :mod:`.position`); here held as a bit mask over the position's unknown cells.
derived constraint
    For constraints A and B with A's cells a proper subset of B's: ``(B - A, mines_B -
    mines_A)``. Derived constraints are kept and take part in further derivations.
closure
    Every constraint reachable from the clues' by deriving, to a fixed point.

A cell is decided when some constraint of the closure counts it: no mine left among its
cells (all safe), or as many mines as cells (all mines).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..board import Cell
from ..errors import ContradictionError
from .position import Constraint
from .variables import Fact, bits

__all__ = ["subset_facts"]


def subset_facts(constraints: Iterable[Constraint]) -> list[Fact]:
    """The cells the subset closure of ``constraints`` decides, ascending by cell.

    The closure is built only until some constraint decides a cell: the caller (the sweep)
    records those facts, explores what they open, and asks again, which costs less than the
    full closure would. With nothing decided the whole closure has been built.

    Parameters
    ----------
    constraints:
        ``(cells, mines)`` pairs over unknown cells.

    Returns
    -------
    list of (cell, is_mine)
        Empty when the closure decides nothing.

    Raises
    ------
    ContradictionError
        Two constraints met on the way disagree (a derived count below zero or above its
        cells, or two counts for the same cells). The closure stops at the first decided
        cells, so a contradiction beyond them may go unseen here: the sweep's counts then
        refuse it once those cells are played.

    Examples
    --------
    {0, 1} holds one mine and {0, 1, 2} holds one, so {2} holds none; two constraints that
    overlap without one lying within the other derive nothing.

    >>> subset_facts([((0, 1), 1), ((0, 1, 2), 1)])
    [(2, False)]
    >>> subset_facts([((0, 1), 1), ((1, 2), 1)])
    []

    Notes
    -----
    Every derived constraint lies within some clue's cells (``B - A`` lies within ``B``), so
    the closure has at most ``2**8`` constraints per clue; each new one is compared with the
    constraints sharing a cell with it. Cells are bits of Python ints, so a subset test is
    one ``&``.
    """
    cells: list[Cell] = []
    bit_of: dict[Cell, int] = {}
    known: dict[int, int] = {}
    by_bit: dict[int, list[int]] = {}
    queue: list[int] = []
    for scope, mines in constraints:
        mask = 0
        for cell in scope:
            bit = bit_of.get(cell)
            if bit is None:
                bit = bit_of[cell] = len(cells)
                cells.append(cell)
            mask |= 1 << bit
        if mask:
            _add(mask, mines, known, by_bit, queue)
    facts: dict[Cell, bool] = {}
    while queue:
        mask = queue.pop()
        mines = known[mask]
        if mines == 0 or mines == mask.bit_count():
            for bit in bits(mask):
                facts[cells[bit]] = mines > 0
            continue
        if facts:
            continue
        others: set[int] = set()
        for bit in bits(mask):
            others.update(by_bit[bit])
        for other in others:
            shared = other & mask
            if shared == mask and other != mask:
                _add(other ^ mask, known[other] - mines, known, by_bit, queue)
            elif shared == other and other != mask:
                _add(mask ^ other, mines - known[other], known, by_bit, queue)
    return sorted(facts.items())


def _add(
    mask: int, mines: int, known: dict[int, int], by_bit: dict[int, list[int]], queue: list[int]
) -> None:
    """Keep the constraint ``(mask, mines)`` if new, queued for counting and deriving."""
    had = known.get(mask)
    if had is not None:
        if had != mines:
            raise ContradictionError(
                f"two constraints put {had} and {mines} mine(s) on the same cells"
            )
        return
    if not 0 <= mines <= mask.bit_count():
        raise ContradictionError(
            f"a derived constraint needs {mines} mine(s) among {mask.bit_count()} cell(s)"
        )
    known[mask] = mines
    for bit in bits(mask):
        by_bit.setdefault(bit, []).append(mask)
    queue.append(mask)
