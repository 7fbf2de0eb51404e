"""Indices: a set of game indices kept as runs of consecutive ones, the finished games of a study.

Chunks of a study finish nearly in index order, so its finished games form a few long runs
(``0..41 999``, ``42 016..42 031``, ...) however many there are: a set of runs holds them in
memory that grows with the gaps, not with the games.

Glossary
--------
run
    Consecutive indices ``start .. end - 1``, kept as the pair ``(start, end)``.
gap
    Consecutive indices not in the set, between two runs (or before the first).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator

__all__ = ["Indices"]


class Indices:
    """A set of non-negative integers kept as sorted, disjoint, non-adjacent runs.

    Examples
    --------
    >>> done = Indices([0, 1, 2, 5, 3])
    >>> done, len(done), 4 in done, 5 in done
    (Indices(0..3, 5), 5, False, True)
    >>> done.add(4), done.add(4), done
    (True, False, Indices(0..5))
    >>> list(Indices([1, 3]).missing(6))
    [0, 2, 4, 5]

    Notes
    -----
    ``O(r)`` memory for ``r`` runs, whatever the number of indices. Membership is
    ``O(log r)``; adding an index is ``O(log r)`` plus, when it opens a new run or joins two,
    ``O(r)`` to shift the runs after it (a memory move, fast for the few runs a study keeps).
    """

    __slots__ = ("_ends", "_size", "_starts")

    def __init__(self, indices: Iterable[int] = ()) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._size = 0
        for index in indices:
            self.add(index)

    def add(self, index: int) -> bool:
        """Add ``index`` (0 or more); whether it was new.

        Raises
        ------
        ValueError
            ``index`` is negative.
        """
        if index < 0:
            raise ValueError(f"index {index} is negative")
        starts, ends = self._starts, self._ends
        k = bisect_right(starts, index) - 1  # the last run starting at or before index
        if k >= 0 and index < ends[k]:
            return False
        joins_before = k >= 0 and ends[k] == index
        joins_after = k + 1 < len(starts) and starts[k + 1] == index + 1
        if joins_before and joins_after:
            ends[k] = ends[k + 1]
            del starts[k + 1], ends[k + 1]
        elif joins_before:
            ends[k] = index + 1
        elif joins_after:
            starts[k + 1] = index
        else:
            starts.insert(k + 1, index)
            ends.insert(k + 1, index + 1)
        self._size += 1
        return True

    def __contains__(self, index: object) -> bool:
        """Whether ``index`` is in the set."""
        if not isinstance(index, int):
            return False
        k = bisect_right(self._starts, index) - 1
        return k >= 0 and index < self._ends[k]

    def __len__(self) -> int:
        """How many indices the set holds."""
        return self._size

    def __iter__(self) -> Iterator[int]:
        """The indices, ascending."""
        for start, end in zip(self._starts, self._ends, strict=True):
            yield from range(start, end)

    @property
    def runs(self) -> int:
        """How many runs hold the indices: what the set's memory grows with."""
        return len(self._starts)

    def below(self, stop: int) -> int:
        """How many indices of the set are below ``stop``.

        Notes
        -----
        ``O(log r)`` to find the runs below ``stop``, then ``O(r)`` to add up their lengths.
        """
        k = bisect_right(self._starts, stop - 1)
        return sum(
            min(end, stop) - start
            for start, end in zip(self._starts[:k], self._ends[:k], strict=True)
        )

    def missing(self, stop: int) -> Iterator[int]:
        """The indices ``0 .. stop - 1`` not in the set, ascending, lazily.

        The set may grow while this runs, as a study's runner adds each game it has started
        and finished: an index added below the last one yielded changes nothing.

        Notes
        -----
        ``O(1)`` memory; ``O(log r)`` time per gap, ``O(1)`` per index yielded.
        """
        index = 0
        while index < stop:
            k = bisect_right(self._starts, index) - 1
            if k >= 0 and index < self._ends[k]:
                index = self._ends[k]
                continue
            gap_end = self._starts[k + 1] if k + 1 < len(self._starts) else stop
            yield from range(index, min(gap_end, stop))
            index = gap_end

    def __repr__(self) -> str:
        runs = (
            f"{start}" if end == start + 1 else f"{start}..{end - 1}"
            for start, end in zip(self._starts, self._ends, strict=True)
        )
        return f"Indices({', '.join(runs)})"
