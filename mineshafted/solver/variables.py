"""Clue variables: one explored clue, its scope, and the arrangements of its mines.

Glossary
--------
variable
    An explored clue with unknown neighbours, named by its cell. Its *scope* is the tuple of
    those neighbours (ascending) at the time the clue was seen.
arrangement
    One value of a variable: a bitmask over its scope, bit ``i`` set when ``scope[i]`` is a mine.
domain
    The arrangements of a variable still consistent with everything known.
fact
    A decided cell: ``(cell, is_mine)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

from ..board import Cell

__all__ = ["Arrangement", "ClueVariable", "Fact", "arrangements", "bits", "compress"]

Arrangement = int
"""A bitmask over a variable's scope: bit ``i`` set means ``scope[i]`` holds a mine."""

Fact = tuple[Cell, bool]
"""A decided cell: ``(cell, is_mine)``."""


class ClueVariable:
    """One explored clue as a CSP variable.

    Examples
    --------
    >>> v = ClueVariable(4, (2, 5, 8), 2)
    >>> [v.mines(p) for p in v.domain]
    [[2, 5], [2, 8], [5, 8]]
    >>> v.decided()  # no scope cell takes one value in every arrangement yet
    (0, 0)
    """

    __slots__ = ("cell", "domain", "fixed", "fixed_mines", "scope", "unknown")

    def __init__(self, cell: Cell, scope: Iterable[Cell], mines: int) -> None:
        self.cell = cell
        self.scope = tuple(sorted(scope))
        self.domain: list[Arrangement] = list(arrangements(len(self.scope), mines))
        self.unknown = len(self.scope)
        """How many scope cells the CSP has not yet decided."""
        self.fixed = 0
        """Scope bits decided but not yet applied to the domain."""
        self.fixed_mines = 0
        """Which of the :attr:`fixed` bits are mines."""

    def mines(self, arrangement: Arrangement) -> list[Cell]:
        """The scope cells that ``arrangement`` mines."""
        return [c for i, c in enumerate(self.scope) if arrangement >> i & 1]

    def bit(self, cell: Cell) -> int:
        """The bit of ``cell`` in this variable's arrangements."""
        return 1 << self.scope.index(cell)

    def agreeing(self, domain: list[Arrangement], cell: Cell, mine: bool) -> list[Arrangement]:
        """The arrangements of ``domain`` that give ``cell`` (a scope cell) the value ``mine``."""
        bit = self.bit(cell)
        want = bit if mine else 0
        return [p for p in domain if p & bit == want]

    def decided(self) -> tuple[Arrangement, Arrangement]:
        """``(mask, mines)``: the scope bits that agree across the domain, and their values."""
        full = (1 << len(self.scope)) - 1
        may, must = 0, full
        for p in self.domain:
            may |= p
            must &= p
        return ~(may ^ must) & full, must

    def constraint(self) -> tuple[tuple[Cell, ...], int]:
        """``(cells, mines)``: the scope cells the domain does not decide, and the mines
        every arrangement puts among them.

        Examples
        --------
        >>> v = ClueVariable(4, (2, 5, 8), 1)
        >>> v.domain = [0b010, 0b100]  # cell 2 safe in every arrangement
        >>> v.constraint()
        ((5, 8), 1)
        """
        decided, _ = self.decided()
        cells = tuple(c for i, c in enumerate(self.scope) if not decided >> i & 1)
        mines = sum(self.domain[0] >> i & 1 for i in range(len(self.scope)) if not decided >> i & 1)
        return cells, mines

    def __repr__(self) -> str:
        return f"ClueVariable(cell={self.cell}, scope={self.scope}, |domain|={len(self.domain)})"


@cache
def arrangements(n: int, mines: int) -> tuple[Arrangement, ...]:
    """Every ``n``-bit arrangement with exactly ``mines`` bits set, ascending.

    Examples
    --------
    >>> arrangements(3, 2)
    (3, 5, 6)
    """
    return tuple(sorted(sum(1 << i for i in chosen) for chosen in combinations(range(n), mines)))


@cache
def compress(mask: int, width: int) -> tuple[int, ...]:
    """Table of the bits of every ``width``-bit value at ``mask``'s positions, packed low.

    Two variables' projections onto their shared cells are comparable because both scopes
    are sorted, so the shared cells keep their relative order in each.

    Examples
    --------
    >>> compress(0b101, 3)
    (0, 1, 0, 1, 2, 3, 2, 3)
    """
    positions = [i for i in range(width) if mask >> i & 1]
    return tuple(
        sum(1 << k for k, i in enumerate(positions) if value >> i & 1)
        for value in range(1 << width)
    )


def bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, ascending: an arrangement's (or any
    bitmask's) cells by index.

    Examples
    --------
    >>> bits(0b10110)
    [1, 2, 4]

    Notes
    -----
    One step a set bit: ``O(mines)``, not ``O(width)``.
    """
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found
