"""Search: how many placements best play wins from a belief state, remembered compactly.

Glossary
--------
belief state
    What the player knows, as the set of placements that agree with everything seen so far
    (each given by its index in the :class:`~.placements.Placements` table). Revealing a
    cell splits it by what the cell shows.
wins
    For a belief state, how many of its placements best play wins: the largest, over the
    cells it may reveal next, of the wins of the states that cell's clues lead to (a
    placement with a mine there is lost). A state of one placement is won: every cell is
    known.
free reveal
    A cell safe in every placement of the state: revealing it costs nothing, so best play
    reveals it, and the state's wins are the sum over what it shows.
key
    A state's name in the memo: for each cell in play, what it shows when that is the same in
    every placement of the state (a clue, or a mine), else unknown; the smallest such name
    over the symmetries of the start. The cells revealed so far show the same in every
    placement, so the key names the state exactly.
bound
    An upper bound of a state's wins: its size less the fewest placements any move there
    loses, or its wins when remembered.
need
    What a state's wins must reach to matter to the move being tried above it: below it,
    an upper bound (itself below the need) is enough, and the search of the state stops as
    soon as it has one.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from ..errors import OutOfBudget
from .placements import MINE_BYTE, Placements, table_mib
from .states import StateReader, Subset

__all__ = ["STATE_BYTES", "Budget", "Search"]

logger = logging.getLogger(__name__)

CHECK_EVERY = 1024
"""The time and the memory are checked each time this many more states are expanded."""

CLOSURES = 8192
"""The most free reveals' outcomes kept for the next time a state is met (forgotten all at
once past it)."""

STATE_BYTES = 100
"""What one remembered belief state costs in memory, beside a byte a cell in play: its key
and its place in the memo (measured with ``tracemalloc``: 103 bytes a state on 5x5, 127 on
4x5, the memo's spare room included; see :meth:`Search.memory_mib`)."""

Open = tuple[int, Subset, bytes, int]
"""A state still to search: its bound, its placements, its key and its free reveals (0 when
closed)."""

Item = int | Open
"""A state to sum: its wins when known (an int), else still to search."""


@dataclass(frozen=True)
class Budget:
    """What a search may use: belief states remembered, seconds, and MiB of memory (the
    table and the memo, as estimated: :func:`~.placements.table_mib`, :data:`STATE_BYTES`)."""

    states: int | None = None
    seconds: float | None = None
    memory: float | None = None


class Search:
    """Best play's wins over the belief states of one table, each state solved once.

    Examples
    --------
    The Code Golf challenge's 4x4 board with 4 mines, first reveal unprotected: best play
    wins 961 of the 1,820 placements.

    >>> from mineshafted.probability.optimal import Placements
    >>> search = Search(Placements.board(4, 4, 4))
    >>> search.wins(search.everything)
    961

    Notes
    -----
    The wins of a state are the largest, over its moves, of the sum of the wins of the
    states each clue leads to: an expectimax over reveals. Five things keep it small:

    - every state is remembered by its key (a byte a cell), so a state reached by other
      reveals, in another order or mirrored, is solved once;
    - free reveals are made at once, all of them, until none is left (they split a state
      without a choice): only the states that need a guess are expanded;
    - a move whose mined placements include another's is never better, so it is skipped;
    - each state has a bound (its size less the fewest placements any move there loses, or
      its wins when remembered), and a move is tried only while the bounds of the states it
      leads to can beat the best move so far;
    - a state is searched against a need (what its wins must reach for the move above it to
      beat the best so far): as soon as it is known to fall short, the search of it stops
      with an upper bound, remembered as such; a move that keeps fewer placements than the
      need is not looked at, and of the states a move leads to, those of the least loss are
      searched first.

    A state of two placements is never searched: 2 when a free reveal separates them, else
    1. The states are read many placements at a time, as ints and bytes
    (:class:`~.states.StateReader`).

    Cost: exponential in the board. Expanding a state of ``n`` placements takes ``O(n *
    cells)`` byte operations and a key for each state its moves lead to (``O(symmetries *
    cells)`` each); a remembered state takes about :data:`STATE_BYTES` and a byte a cell.
    5x5 with 5 mines: 138,809 states expanded, 195,255 remembered, 101 s and 103 MB here.
    """

    def __init__(
        self, table: Placements, *, symmetric: bool = True, budget: Budget | None = None
    ) -> None:
        self.table = table
        self.reader = StateReader(table, symmetric=symmetric)
        self.budget = budget or Budget()
        self.memo: dict[bytes, int] = {}
        """A state's wins (at least 0), or the complement ``~bound`` of an upper bound."""
        self._closures: dict[bytes, list[Item]] = {}
        self.expanded = 0
        self.began = time.perf_counter()
        self._table_mib = table_mib(table.count, len(table.cells))
        self._state_mib = (STATE_BYTES + len(table.cells)) / 2**20
        self._most, self._named = self._most_states()
        self._next_check = 1

    @property
    def everything(self) -> Subset:
        """The state of the start: every placement."""
        return list(range(self.table.count))

    @property
    def states(self) -> int:
        """How many belief states are remembered."""
        return len(self.memo)

    def memory_mib(self) -> float:
        """The memory the table and the memo take, as estimated, in MiB."""
        return self._table_mib + len(self.memo) * self._state_mib

    def wins(self, subset: Subset) -> int:
        """How many placements of ``subset`` best play wins.

        Raises
        ------
        OutOfBudget
            The search reached its budget.
        """
        return self._value(subset, None, 0, 0)[0]

    def parts(self, subset: Subset, cell: int) -> list[Subset]:
        """The states revealing the cell in play ``cell`` leads to: its safe placements, by
        what it shows."""
        return self.reader.split(subset, cell)

    def move_wins(self, subset: Subset, cell: int) -> int:
        """How many placements of ``subset`` best play wins revealing ``cell`` first."""
        return sum(self.wins(part) for part in self.parts(subset, cell))

    def best_moves(self, subset: Subset) -> tuple[int, list[int]]:
        """The wins of ``subset`` and every move that achieves them (cells in play).

        A cell safe in every placement is a free reveal and always among the best; otherwise
        each move is tried (one of each set the start's symmetries map onto each other) until
        it is known to fall short, and those that reach the best are tried to the end.
        """
        reader = self.reader
        safe, candidates = self._cells(subset)
        if safe or not candidates:  # free reveals are best, if any
            return self.wins(subset), safe
        shows, _ = reader.summary(subset)
        fixed = reader.fixing(shows)
        classes: dict[int, list[int]] = {}
        for cell in candidates:
            classes.setdefault(min(g[cell] for g in fixed), []).append(cell)
        best, _, reached = self._expand(subset, 0, among=sorted(classes))
        self.memo[reader.key(shows)] = best
        return best, sorted(cell for first in reached for cell in classes[first])

    def best_move(self, subset: Subset) -> tuple[int, int]:
        """The wins of ``subset`` and one move that achieves them (a cell in play; the first
        found, trying the moves of the largest bound first), or -1 when nothing is left to
        reveal. A free reveal is the first cell safe in every placement.

        Raises
        ------
        OutOfBudget
            The search reached its budget.
        """
        safe, _ = self._cells(subset)
        if safe or len(subset) == 1:
            return self.wins(subset), safe[0] if safe else -1
        wins, _, moves = self._expand(subset, 0)
        self.memo[self.reader.key(self.reader.summary(subset)[0])] = wins
        return wins, moves[0]

    def _cells(self, subset: Subset) -> tuple[list[int], list[int]]:
        """The cells in play safe in every placement of ``subset``, and those a mine in some
        and not in all."""
        size = len(subset)
        mines = [column.count(MINE_BYTE) for column in self.reader.columns_of(subset)]
        return (
            [cell for cell, count in enumerate(mines) if count == 0],
            [cell for cell, count in enumerate(mines) if 0 < count < size],
        )

    def _value(self, subset: Subset, key: bytes | None, free: int, need: int) -> tuple[int, bool]:
        """The wins of ``subset`` and ``True``, or an upper bound of them below ``need`` and
        ``False``. ``key`` and ``free`` are the state's, when known."""
        if len(subset) == 1:
            return 1, True
        memo = self.memo
        if key is None:
            shows, free = self.reader.summary(subset)
            key = self.reader.key(shows)
        found = memo.get(key)
        if found is not None:
            if found >= 0:
                return found, True
            if ~found < need:
                return ~found, False
        if free:
            value, exact = self._sum([(len(subset), subset, key, free)], need)
        else:
            value, exact, _ = self._expand(subset, need)
        memo[key] = value if exact else ~value
        if len(memo) >= self._most:
            self._stop(self._named)
        return value, exact

    def _sum(self, items: list[Item], need: int) -> tuple[int, bool]:
        """The total wins of the states ``items`` (each revealed at once: the states one move
        leads to, or one state's free reveals), and ``True``; or an upper bound of it below
        ``need`` and ``False``."""
        gained = 0
        room = 0
        pending: list[Open] = []
        opened: list[tuple[bytes, int, int, int]] = []
        memo = self.memo
        for item in items:
            if isinstance(item, int):
                gained += item
                continue
            bound, subset, key, free = item
            if not free:
                room += bound
                pending.append(item)
                continue
            found = memo.get(key)
            if found is not None and found >= 0:
                gained += found
                continue
            first, known = len(pending), 0
            closed = self._closures.get(key)
            if closed is None:
                if len(self._closures) >= CLOSURES:
                    self._closures.clear()
                closed = self._closures[key] = self._closed(subset, free)
            for part in closed:
                if isinstance(part, int):
                    gained += part
                    known += part
                else:
                    room += part[0]
                    pending.append(part)
            opened.append((key, first, len(pending), known))
        if gained + room < need:
            return gained + room, False
        values = [0] * len(pending)
        for at in sorted(range(len(pending)), key=lambda at: _loss(pending[at])):
            bound, subset, key, free = pending[at]
            room -= bound
            value, exact = self._value(subset, key, free, need - gained - room)
            gained += value
            values[at] = value
            if not exact or gained + room < need:
                return gained + room, False
        for key, first, last, known in opened:
            memo[key] = known + sum(values[first:last])
        return gained, True

    def _closed(self, subset: Subset, free: int) -> list[Item]:
        """The states ``subset`` leads to when every free reveal is made, and made again in
        the parts, until none is left: each closed, as an item."""
        found: list[Item] = []
        todo = [(subset, free)]
        reader = self.reader
        while todo:
            whole, reveal = todo.pop()
            for part in reader.group(whole, reveal):
                if len(part) == 1:
                    found.append(1)
                    continue
                shows, more = reader.summary(part)
                if len(part) == 2:
                    found.append(2 if more else 1)
                elif more:
                    todo.append((part, more))
                else:
                    found.append(self._item(part, shows, 0))
        return found

    def _item(self, subset: Subset, shows: int, free: int) -> Item:
        """The state ``subset`` (of at least two placements) as an item: its wins when known
        (remembered, or two placements), else its bound."""
        size = len(subset)
        if size == 2:
            return 2 if free else 1
        key = self.reader.key(shows)
        found = self.memo.get(key)
        if found is not None and found >= 0:
            return found
        bound = size if free else size - self.reader.least_loss(subset)
        if bound <= 1:  # at least one placement is won from any state
            return 1
        if found is not None:
            bound = min(bound, ~found)
        return (bound, subset, key, free)

    def _expand(
        self, subset: Subset, need: int, among: list[int] | None = None
    ) -> tuple[int, bool, list[int]]:
        """The wins of a closed state, the moves that achieve them and ``True`` (the first move
        found; with ``among``, only those moves, and every one that achieves the wins); or
        an upper bound below ``need``, ``False`` and no move."""
        self.expanded += 1
        if self.expanded >= self._next_check:
            self._check()
        reader = self.reader
        columns = reader.columns_of(subset)
        moves = self._moves(subset, columns) if among is None else among
        size = len(subset)
        short = 0
        tried = []
        children: list[list[Item]] = []
        bounds: list[int] = []
        for move in moves:
            safe = size - columns[move].count(MINE_BYTE)
            if safe < need:  # the placements it keeps cannot reach the need
                short = max(short, safe)
                continue
            tried.append(move)
            items = [
                1 if part is None else self._item(part, *reader.summary(part))
                for part in reader.children(subset, columns[move])
            ]
            children.append(items)
            bounds.append(sum(item if isinstance(item, int) else item[0] for item in items))
        strict = among is not None
        best, reached = -1, []
        alpha = need
        moves = tried
        for m in sorted(range(len(moves)), key=lambda m: -bounds[m]):
            if bounds[m] < alpha:
                short = max(short, bounds[m])
                break
            value, exact = self._sum(children[m], alpha)
            if not exact:
                short = max(short, value)
                continue
            if value > best:
                best, reached = value, [moves[m]]
            else:
                reached.append(moves[m])
            alpha = best if strict else best + 1
        if best >= 0:
            return best, True, reached
        return short, False, []

    def _moves(self, subset: Subset, columns: list[bytes]) -> list[int]:
        """The moves of a closed state worth trying: every cell a mine in some placement and
        not in all, but those another makes needless (see :func:`_undominated`)."""
        size = len(subset)
        moves = [cell for cell, column in enumerate(columns) if 0 < column.count(MINE_BYTE) < size]
        return _undominated(moves, [self.reader.mined(columns[cell]) for cell in moves])

    def _most_states(self) -> tuple[int, str]:
        """The most states the budget allows to remember, and which budget says so."""
        most, named = 1 << 62, "states"
        if self.budget.states is not None:
            most = self.budget.states
        if self.budget.memory is not None:
            room = int((self.budget.memory - self._table_mib) / self._state_mib)
            if room < most:
                most, named = max(room, 0), "memory"
        return most, named

    def _check(self) -> None:
        """Stop past the time limit; set the next check."""
        self._next_check = self.expanded + CHECK_EVERY
        seconds = time.perf_counter() - self.began
        limit = self.budget.seconds
        if limit is not None and seconds >= limit:
            self._stop("time")
        logger.debug(
            "optimal: %d states, %d expanded, %.1f s", len(self.memo), self.expanded, seconds
        )

    def _stop(self, limit: str) -> None:
        """Raise :class:`OutOfBudget` for the budget ``limit`` (states, memory or time)."""
        states, seconds = len(self.memo), time.perf_counter() - self.began
        if limit == "time":
            message = f"not done within {self.budget.seconds:g} s"
        elif limit == "memory":
            message = f"the table and its belief states outgrew {self.budget.memory:,g} MiB"
        else:
            message = f"more than {self.budget.states:,} belief states"
        raise OutOfBudget(message, states=states, seconds=seconds, limit=limit)


def _loss(state: Open) -> int:
    """What a state still to search loses at least, as its bound says: the states of the least
    loss are searched first (their bounds are the tightest; measured, this order expands about
    a quarter fewer states than the clues' order on 5x5 with 4 mines and 4x5 with 5)."""
    return len(state[1]) - state[0]


def _undominated(moves: list[int], mined: list[int]) -> list[int]:
    """The moves no other makes needless: a move whose mined placements include another
    move's (of two with the same, the later one) is needless.

    ``mined[k]`` flags the placements where ``moves[k]``'s cell is a mine. Revealing ``a``
    first and then ``b`` (safe wherever ``b`` is, since ``a``'s mines are among ``b``'s)
    ends where revealing ``b`` first and then ``a`` (a free reveal) does, so ``a`` first
    wins at least as often as ``b`` first.

    Examples
    --------
    >>> _undominated([3, 5, 7], [0b011, 0b001, 0b001])
    [5]
    """
    kept = []
    for j, own in enumerate(mined):
        if not any(
            other & ~own == 0 and (i < j or own & ~other) for i, other in enumerate(mined) if i != j
        ):
            kept.append(moves[j])
    return kept
