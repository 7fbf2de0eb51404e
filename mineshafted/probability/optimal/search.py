"""Search: how many placements best play wins from a knowledge state, remembered compactly.

Glossary
--------
knowledge state
    What the player knows, as the set of placements that agree with everything seen so far
    (each given by its index in the :class:`~.placements.Placements` table). Revealing a
    cell splits it by what the cell shows.
wins
    For a knowledge state, how many of its placements best play wins: the largest, over the
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
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..errors import OutOfBudget
from .placements import MINE, Placements

__all__ = ["Budget", "Search"]

logger = logging.getLogger(__name__)

Subset = npt.NDArray[np.intp]
"""A knowledge state: the indices of its placements in the table."""

UNKNOWN = 15
"""In a key, a cell that shows different things in different placements of the state."""

EXACT_FLOAT32 = (1 << 24) // (MINE * MINE)
"""Up to this many placements the sums of the look-ahead (at most ``81`` a placement) are
exact in 32-bit floats; above it the search uses 64-bit ones."""

CHECK_EVERY = 4096
"""The time limit is checked each time this many more states are remembered."""


@dataclass(frozen=True)
class Budget:
    """What a search may use: knowledge states remembered, and seconds."""

    states: int | None = None
    seconds: float | None = None


class Search:
    """Best play's wins over the knowledge states of one table, each state solved once.

    Examples
    --------
    The Code Golf challenge's 4x4 board with 4 mines, first click unprotected: best play
    wins 961 of the 1,820 placements.

    >>> from mineshafted.probability.optimal import Placements
    >>> search = Search(Placements.board(4, 4, 4))
    >>> search.wins(search.everything)
    961

    Notes
    -----
    The wins of a state are the largest, over its moves, of the sum of the wins of the
    states each clue leads to: an expectimax over reveals. Four things keep it small:

    - every state is remembered by its key (a byte per two cells), so a state reached by
      other reveals, in another order or mirrored, is solved once;
    - free reveals are made at once (they split a state without a choice);
    - a move whose mined placements include another's is never better, so it is skipped;
    - a move is tried only while an upper bound of its wins beats the best so far: each
      state it leads to wins at most its placements less the fewest any move in it loses
      (exactly its wins, when remembered), and a move's tries stop as soon as the states
      still to solve cannot make up what the others lost.

    Each state expanded costs one matrix product over its placements: for every move and
    clue, how many placements show it, and each cell's sum, sum of squares and mines there
    (a cell shows the same in every placement when ``n * sum(x^2) == sum(x)^2``).
    """

    def __init__(
        self, table: Placements, *, symmetric: bool = True, budget: Budget | None = None
    ) -> None:
        self.table = table
        self.shown = table.shown
        self.symmetries = table.symmetries if symmetric else table.symmetries[:1]
        self.budget = budget or Budget()
        self.memo: dict[bytes, int] = {}
        self.expanded = 0
        self.began = time.perf_counter()
        cells = self.shown.shape[0]
        self._offsets = (np.arange(cells, dtype=np.intp) * (MINE + 1))[:, None]
        self._width = (cells + 1) // 2
        self._next_check = self._check_at(0)
        self._onehot: npt.NDArray[np.float32] | None = None
        self._features: npt.NDArray[np.float32] | None = None

    @property
    def everything(self) -> Subset:
        """The state of the start: every placement."""
        return np.arange(self.table.count, dtype=np.intp)

    @property
    def states(self) -> int:
        """How many knowledge states are remembered."""
        return len(self.memo)

    def wins(self, subset: Subset, key: bytes | None = None) -> int:
        """How many placements of ``subset`` best play wins (``key``: its key, if known).

        Raises
        ------
        OutOfBudget
            The search reached its budget.
        """
        size = len(subset)
        if size == 1:
            return 1
        memo = self.memo
        if key is not None:
            found = memo.get(key)
            if found is not None:
                return found
        sub = self.shown[:, subset]
        counts = self._counts(sub)
        values = np.count_nonzero(counts, axis=1)
        if key is None:
            key = self._key(np.where(values == 1, sub[:, 0] + 1, UNKNOWN).astype(np.uint8))
            found = memo.get(key)
            if found is not None:
                return found
        free = np.flatnonzero((counts[:, MINE] == 0) & (values > 1))
        if len(free):
            wins = sum(self.wins(part) for part in self._split(subset, sub[free[0]]))
        else:
            wins, _ = self._expand(subset, sub, counts)
        memo[key] = wins
        if len(memo) >= self._next_check:
            self._check()
        return wins

    def parts(self, subset: Subset, cell: int) -> list[Subset]:
        """The states revealing the cell in play ``cell`` leads to: its safe placements, by
        what it shows."""
        sub = self.shown[cell, subset]
        return self._split(subset[sub != MINE], sub[sub != MINE])

    def move_wins(self, subset: Subset, cell: int) -> int:
        """How many placements of ``subset`` best play wins revealing ``cell`` first."""
        return sum(self.wins(part) for part in self.parts(subset, cell))

    def best_moves(self, subset: Subset) -> tuple[int, list[int]]:
        """The wins of ``subset`` and every move that achieves them (cells in play).

        A cell safe in every placement is a free reveal and always among the best; otherwise
        each move is tried (one of each set the start's symmetries map onto each other) until
        it is known to fall short, and those that reach the best are tried to the end.
        """
        sub = self.shown[:, subset]
        mined = np.count_nonzero(sub == MINE, axis=1)
        safe = np.flatnonzero(mined == 0)
        candidates = np.flatnonzero((mined > 0) & (mined < len(subset)))
        if len(safe) or not len(candidates):  # free reveals are best, if any
            return self.wins(subset), safe.tolist()
        fixed = self._fixing(sub)
        classes: dict[int, list[int]] = {}
        for cell in candidates.tolist():
            first = int(min(fixed[:, cell]))
            classes.setdefault(first, []).append(cell)
        counts = self._counts(sub)
        among = np.array(sorted(classes), dtype=np.intp)
        best, reached = self._expand(subset, sub, counts, among=among)
        self.memo[self._key(self._values(sub, counts))] = best
        return best, sorted(cell for first in reached for cell in classes[first])

    def _fixing(self, sub: npt.NDArray[np.uint8]) -> npt.NDArray[np.intp]:
        """The symmetries that map the state of ``sub`` (its table) to itself."""
        key = np.where(np.all(sub == sub[:, :1], axis=1), sub[:, 0] + 1, UNKNOWN)
        kept = [g for g in self.symmetries if np.array_equal(key[g], key)]
        return np.array(kept, dtype=np.intp)

    def _counts(self, sub: npt.NDArray[np.uint8]) -> npt.NDArray[np.intp]:
        """For each cell in play, how many placements of the state show each value."""
        cells = sub.shape[0]
        flat = (sub + self._offsets).ravel()
        return np.bincount(flat, minlength=cells * (MINE + 1)).reshape(cells, MINE + 1)

    def _split(self, subset: Subset, row: npt.NDArray[np.uint8]) -> list[Subset]:
        """``subset`` split by ``row`` (what one cell shows in each placement)."""
        order = np.argsort(row, kind="stable")
        parts = []
        start = 0
        for count in np.bincount(row).tolist():
            if count:
                parts.append(subset[order[start : start + count]])
                start += count
        return parts

    def _key(self, values: npt.NDArray[np.uint8]) -> bytes:
        """The key of a state whose cells show ``values`` (``UNKNOWN`` where they differ)."""
        return self._keys(values[None, :])[0]

    def _keys(self, values: npt.NDArray[np.uint8]) -> list[bytes]:
        """The keys of several states, one row of ``values`` each: two cells a byte, the
        smallest over the symmetries."""
        images = values[:, self.symmetries]
        count, mirrors, cells = images.shape
        if cells % 2:
            images = np.concatenate([images, np.zeros((count, mirrors, 1), np.uint8)], axis=2)
        packed = (images[:, :, 0::2] << 4) | images[:, :, 1::2]
        raw = packed.tobytes()
        width = self._width
        if mirrors == 1:
            return [raw[i * width : (i + 1) * width] for i in range(count)]
        step = mirrors * width
        return [
            min(raw[i * step + g * width : i * step + (g + 1) * width] for g in range(mirrors))
            for i in range(count)
        ]

    def best_move(self, subset: Subset) -> tuple[int, int]:
        """The wins of ``subset`` and one move that achieves them (a cell in play; the first
        found, trying the moves of the largest bound first), or -1 when nothing is left to
        reveal. A free reveal is the first cell safe in every placement.

        Raises
        ------
        OutOfBudget
            The search reached its budget.
        """
        sub = self.shown[:, subset]
        counts = self._counts(sub)
        mined = counts[:, MINE]
        safe = np.flatnonzero(mined == 0)
        if len(safe) or len(subset) == 1:
            return self.wins(subset), int(safe[0]) if len(safe) else -1
        wins, moves = self._expand(subset, sub, counts)
        self.memo[self._key(self._values(sub, counts))] = wins
        return wins, moves[0]

    def _values(
        self, sub: npt.NDArray[np.uint8], counts: npt.NDArray[np.intp]
    ) -> npt.NDArray[np.uint8]:
        """What each cell shows in every placement of a state (``UNKNOWN`` where not)."""
        values = np.where(np.count_nonzero(counts, axis=1) == 1, sub[:, 0] + 1, UNKNOWN)
        return values.astype(np.uint8)

    def _expand(
        self,
        subset: Subset,
        sub: npt.NDArray[np.uint8],
        counts: npt.NDArray[np.intp],
        among: npt.NDArray[np.intp] | None = None,
    ) -> tuple[int, list[int]]:
        """The wins of a state with no free reveal, trying its moves (see the class's Notes),
        and the first move found that achieves them; with ``among``, only those moves, each
        tried while it may still tie the best, and every one that achieves it."""
        self.expanded += 1
        size = len(subset)
        mined = counts[:, MINE]
        shows = sub.T
        strict = among is not None
        if among is None:
            moves = np.flatnonzero((mined > 0) & (mined < size))
            mines = (shows == MINE).astype(np.float32)
            moves = moves[~_dominated(mines[:, moves])]
        else:
            moves = among
        onehot, features = self._tables()
        columns = (moves[:, None] * MINE + np.arange(MINE)).ravel()
        if size <= EXACT_FLOAT32:
            reveal = onehot[np.ix_(subset, columns)]
            sums = np.rint(reveal.T @ features[subset]).astype(np.int64)
        else:  # 32-bit floats would round the sums
            reveal = onehot[np.ix_(subset, columns)].astype(np.float64)
            sums = np.rint(reveal.T @ features[subset].astype(np.float64)).astype(np.int64)
        sizes = np.rint(reveal.sum(axis=0)).astype(np.int64)
        present = np.flatnonzero(sizes)
        sizes = sizes[present].astype(np.int64)
        sums = sums[present]
        cells = shows.shape[1]
        total, squares, hits = sums[:, :cells], sums[:, cells : 2 * cells], sums[:, 2 * cells :]
        same = squares * sizes[:, None] == total * total
        values = np.where(same, total // sizes[:, None] + 1, UNKNOWN).astype(np.uint8)
        closed = ~np.any((hits == 0) & ~same, axis=1)
        open_cells = (hits > 0) & (hits < sizes[:, None])
        least = np.where(open_cells, hits, size).min(axis=1)
        bound_array = np.where(closed, sizes - least, sizes)
        bound_array[sizes == 1] = 1
        bounds: list[int] = bound_array.tolist()
        exact: list[bool] = (sizes == 1).tolist()
        keys = self._keys(values)
        memo = self.memo
        for j, key in enumerate(keys):
            if not exact[j]:
                found = memo.get(key)
                if found is not None:
                    bounds[j] = found
                    exact[j] = True
        which = (present // MINE).tolist()
        clue_of = (present % MINE).tolist()
        by_move: list[list[int]] = [[] for _ in moves]
        for j, m in enumerate(which):
            by_move[m].append(j)
        move_bound = [sum(bounds[j] for j in children) for children in by_move]
        best, reached = 0, [int(moves[0])]
        for m in sorted(range(len(moves)), key=lambda m: -move_bound[m]):
            if move_bound[m] < best or (move_bound[m] == best and not strict):
                break
            room = move_bound[m]
            gained = 0
            pending = []
            for j in by_move[m]:
                if exact[j]:
                    gained += bounds[j]
                    room -= bounds[j]
                else:
                    pending.append(j)
            # pending.sort(key=lambda j: -bounds[j])
            row = shows[:, moves[m]]
            for j in pending:
                room -= bounds[j]
                gained += self.wins(subset[row == clue_of[j]], keys[j])
                if gained + room < best or (gained + room == best and not strict):
                    break
            if gained > best:
                best, reached = gained, [int(moves[m])]
            elif gained == best and strict and room == 0:
                reached.append(int(moves[m]))
        return best, reached

    def _tables(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Per placement: a one-hot row of what each cell shows (``cell * 9 + clue``), and
        each cell's value, its square and whether it is a mine; made at the first use."""
        if self._onehot is None or self._features is None:
            shows = self.shown.T
            count, cells = shows.shape
            onehot = np.zeros((count, cells * MINE), dtype=np.float32)
            rows, columns = np.nonzero(shows != MINE)
            onehot[rows, columns * MINE + shows[rows, columns]] = 1
            seen = shows.astype(np.float32)
            features = np.concatenate([seen, seen * seen, (shows == MINE).astype(np.float32)], 1)
            self._onehot, self._features = onehot, np.ascontiguousarray(features)
        return self._onehot, self._features

    def _check_at(self, states: int) -> int:
        """How many states remembered make the next check: the time every
        :data:`CHECK_EVERY`, and the state budget exactly."""
        at = states + CHECK_EVERY
        return at if self.budget.states is None else min(at, self.budget.states)

    def _check(self) -> None:
        """Raise :class:`OutOfBudget` past the budget; set the next check."""
        states, seconds = len(self.memo), time.perf_counter() - self.began
        self._next_check = self._check_at(states)
        limit = self.budget
        if limit.states is not None and states >= limit.states:
            raise OutOfBudget(
                f"more than {limit.states:,} knowledge states",
                states=states,
                seconds=seconds,
                limit="states",
            )
        if limit.seconds is not None and seconds >= limit.seconds:
            raise OutOfBudget(
                f"not done within {limit.seconds:g} s",
                states=states,
                seconds=seconds,
                limit="time",
            )
        logger.debug("optimal: %d states, %d expanded, %.1f s", states, self.expanded, seconds)


def _dominated(mines: npt.NDArray[np.floating]) -> npt.NDArray[np.bool_]:
    """Which moves another makes needless: a move whose mined placements include another
    move's (of two with the same, the later one).

    ``mines`` has a row a placement and a column a move: 1 where the move's cell is a mine.
    Revealing ``a`` first and then ``b`` (safe wherever ``b`` is, since ``a``'s mines are
    among ``b``'s) ends where revealing ``b`` first and then ``a`` (a free reveal) does, so
    ``a`` first wins at least as often as ``b`` first.
    """
    both = mines.T @ mines
    own = np.diag(both)
    inside = both == own[:, None]  # inside[a, b]: a's mines are among b's
    strictly = inside & ~inside.T
    earlier_equal = inside & inside.T & np.triu(np.ones(inside.shape, dtype=bool), 1)
    dominated: npt.NDArray[np.bool_] = np.any(strictly | earlier_equal, axis=0)
    return dominated
