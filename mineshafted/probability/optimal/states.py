"""States: belief states as lists of placements, read many placements at a time.

Glossary
--------
code
    One placement as one int: a byte a cell in play of what it shows (a clue 0-8, or
    :data:`MINED`), above a lane a cell holding 1 where the cell is a mine. The AND and the
    OR of a state's codes tell which cells show the same in all its placements and which hold
    a mine in some; their sum counts each cell's mines.
shows
    A state's summary, a byte a cell in play (as an int): what the cell shows in every
    placement of the state, or :data:`UNKNOWN` where they differ. It names the state.
free reveal
    A cell safe in every placement of the state that does not show the same in all of them.
closed
    A state with no free reveal: every move risks a mine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce
from itertools import compress
from operator import and_, itemgetter, or_
from sys import byteorder
from typing import Literal

from .placements import MINE_BYTE, Placements

__all__ = ["MINED", "UNKNOWN", "StateReader", "Subset"]

Subset = list[int]
"""A belief state: the indices of its placements in the table."""

MINED = 0x80
"""What a mine shows in a code's bytes: a bit no clue has, so the OR of codes flags it."""

UNKNOWN = 0xFF
"""In a state's shows, a cell that shows different things in different placements."""

_TO_CODE = bytes(MINED if value == MINE_BYTE else value for value in range(256))
"""A table's row (:data:`MINE_BYTE` for a mine) as the bytes of a code."""

_LANES: dict[int, Literal["B", "H", "I", "Q"]] = {1: "B", 2: "H", 4: "I", 8: "Q"}
"""The memoryview format of a count lane of so many bytes."""

_ONLY = tuple(
    bytes(int(value == wanted) for value in range(256)) for wanted in range(MINE_BYTE + 1)
)
"""``_ONLY[v]``: a translation of a row or column to 1 where it shows ``v``, else 0."""


class StateReader:
    """The belief states of one table: what their placements show in common, their keys,
    their splits.

    Examples
    --------
    A 1x3 board with one mine: in the state of the first two placements (the mine on cell 0
    or 1), cell 2 is a free reveal (it shows 0 or 1), and revealing it separates them.

    >>> reader = StateReader(Placements.board(1, 3, 1))
    >>> shows, free = reader.summary([0, 1])
    >>> reader.view(shows), free == 1 << 16
    ([None, None, None], True)
    >>> reader.split([0, 1, 2], 1)
    [[0, 2]]

    Notes
    -----
    A state of ``n`` placements is summarised in ``O(n)`` operations on ints of
    ``cells * (8 + lane)`` bits (the lane wide enough to count every placement), split by a
    cell in ``O(n)`` byte operations, and keyed in ``O(symmetries * cells)``.
    """

    def __init__(self, table: Placements, *, symmetric: bool = True) -> None:
        cells = len(table.cells)
        self.cells = cells
        width = next(w for w in (1, 2, 4, 8) if table.count < 1 << 8 * w)
        self._typecode: Literal["B", "H", "I", "Q"] = _LANES[width]
        lane = 8 * width
        self._shift = lane * cells
        self._counts = (1 << self._shift) - 1
        self._low = sum(1 << 8 * i for i in range(cells))
        ones = [1 << lane * i for i in range(cells)]
        shift = self._shift
        self.codes = [
            int.from_bytes(row.translate(_TO_CODE), "little") << shift
            | sum(compress(ones, row.translate(_ONLY[MINE_BYTE])))
            for row in table.shown
        ]
        self.rows = table.shown
        self.columns = [bytes(column) for column in zip(*table.shown, strict=True)]
        maps = table.symmetries if symmetric else table.symmetries[:1]
        self.symmetries = list(dict.fromkeys(maps))
        self._images: list[Callable[[bytes], tuple[int, ...]]] = (
            [itemgetter(*g) for g in self.symmetries[1:]] if cells > 1 else []
        )

    def summary(self, subset: Sequence[int]) -> tuple[int, int]:
        """The state's shows, and its free reveals (bit 0 of a cell's byte set).

        ``subset`` has at least one placement.
        """
        codes = self.codes
        if len(subset) == 2:
            first, second = codes[subset[0]], codes[subset[1]]
            ored, anded = first | second, first & second
        else:
            ored = reduce(or_, map(codes.__getitem__, subset))
            anded = reduce(and_, map(codes.__getitem__, subset))
        ored >>= self._shift
        anded >>= self._shift
        differ = ored ^ anded
        differ |= differ >> 1
        differ |= differ >> 2
        differ |= differ >> 4
        differ &= self._low
        return anded | differ * UNKNOWN, differ & ~(ored >> 7)

    def key(self, shows: int) -> bytes:
        """The state's name in the memo: its shows as bytes, the least over the symmetries."""
        named = shows.to_bytes(self.cells, "little")
        if not self._images:
            return named
        return min(named, *[bytes(image(named)) for image in self._images])

    def fixing(self, shows: int) -> list[tuple[int, ...]]:
        """The symmetries that map the state to itself."""
        named = shows.to_bytes(self.cells, "little")
        return [g for g in self.symmetries if bytes(named[i] for i in g) == named]

    def view(self, shows: int) -> list[int | None]:
        """What each cell in play shows in every placement of the state (:data:`MINE_BYTE` for a
        mine), ``None`` where they differ."""
        return [
            None if value == UNKNOWN else MINE_BYTE if value == MINED else value
            for value in shows.to_bytes(self.cells, "little")
        ]

    def least_loss(self, subset: Sequence[int]) -> int:
        """The fewest placements of a closed state that a move loses: the fewest mines on a
        cell that holds one in some placement and not in all (the state's size if none)."""
        size = len(subset)
        total = sum(map(self.codes.__getitem__, subset)) & self._counts
        counts = memoryview(total.to_bytes(self._shift // 8, byteorder)).cast(self._typecode)
        return min([count for count in counts if 0 < count < size], default=size)

    def split(self, subset: Subset, cell: int) -> list[Subset]:
        """The states revealing ``cell`` leads to: ``subset``'s placements where it is safe,
        by what it shows (ascending)."""
        shown = bytes(map(self.columns[cell].__getitem__, subset))
        return [
            list(compress(subset, shown.translate(_ONLY[value])))
            for value in range(MINE_BYTE)
            if value in shown
        ]

    def showing(self, subset: Subset, cell: int, value: int) -> Subset:
        """The placements of ``subset`` where ``cell`` shows ``value``."""
        shown = bytes(map(self.columns[cell].__getitem__, subset))
        return list(compress(subset, shown.translate(_ONLY[value])))

    def group(self, subset: Subset, free: int) -> list[Subset]:
        """``subset`` split by what its free reveals ``free`` show: every one revealed at once."""
        codes = self.codes
        mask = free * 0xFF << self._shift
        groups: dict[int, Subset] = {}
        for index in subset:
            shown = codes[index] & mask
            found = groups.get(shown)
            if found is None:
                groups[shown] = [index]
            else:
                found.append(index)
        return list(groups.values())

    def columns_of(self, subset: Subset) -> list[bytes]:
        """What each cell in play shows in each placement of ``subset``, a column a cell."""
        block = b"".join(map(self.rows.__getitem__, subset))
        return [block[cell :: self.cells] for cell in range(self.cells)]

    @staticmethod
    def children(subset: Subset, column: bytes) -> list[Subset | None]:
        """The states revealing a cell leads to, by what it shows (its ``column`` over
        ``subset``): each one's placements, ``None`` for a state of one placement."""
        found: list[Subset | None] = []
        for value in range(MINE_BYTE):
            size = column.count(value)
            if size == 1:
                found.append(None)
            elif size:
                found.append(list(compress(subset, column.translate(_ONLY[value]))))
        return found

    @staticmethod
    def mined(column: bytes) -> int:
        """Where a column shows a mine, a byte a placement (1 a mine): one ``b``'s mines
        include ``a``'s when ``a & ~b == 0``."""
        return int.from_bytes(column.translate(_ONLY[MINE_BYTE]), "little")
