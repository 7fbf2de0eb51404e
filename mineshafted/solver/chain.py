"""Chain: the search for steps from a proof's clues to its cell, one bound at a time.

Greedy, round by round (:func:`argue`): a count if one decides a cell; else a difference (of a
clue or bound within another, or, beyond ``subset``, of what a clue says of the cells it shares
with another) that decides one; else every new bound such differences find. Each step is sound,
so a chain that ends with the cell decided proves it; one that supposes the cell the other way
and ends with a bound that cannot hold proves it too.

Glossary
--------
rules
    What a search may use, by the rung retraced: ``count`` counts only; ``subset`` also takes
    differences of exact bounds; stronger rungs any bounds, and what a clue says of the cells
    it shares with another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..board import Cell
from .clues import ClueConstraint
from .steps import Bound, Step
from .technique import Technique

__all__ = ["ITEMS", "ROUNDS", "argue"]

ROUNDS = 12
"""The most rounds a search takes that find new bounds and decide nothing (those that decide a
cell are limited by the cells)."""
ITEMS = 48
"""The most bounds a search keeps: beyond, it stops finding new ones."""


@dataclass
class _Item:
    """A bound a search holds: a clue's, a given one or one a step found."""

    cells: frozenset[Cell]
    lo: int
    hi: int
    clue: Cell | None
    source: int | None
    """The step that found it (``None`` for a clue)."""


def argue(
    clues: Sequence[ClueConstraint],
    cell: Cell,
    mine: bool,
    technique: Technique,
    *,
    given: Bound | None = None,
    suppose: bool = False,
) -> tuple[Step, ...] | None:
    """Steps from ``clues`` (and the ``given`` bound) that decide ``cell`` as ``mine`` says,
    using what ``technique``'s rules allow; with ``suppose``, steps from the cell supposed the
    other way to a bound that cannot hold. ``None`` when the search finds none.

    Only the steps the end needs are kept, in order.

    Examples
    --------
    Two clues of a row under three unknown cells: the 1s over the first two hold their mine
    between them, so the third is safe.

    >>> steps = argue([ClueConstraint(3, (0, 1), 1), ClueConstraint(4, (0, 1, 2), 1)],
    ...               2, False, Technique.SUBSET)
    >>> [(s.kind, s.bound.clue, s.found) for s in steps]
    [('read', 3, {}), ('difference', 4, {2: False})]

    Notes
    -----
    Greedy, round by round: a count if one decides a cell; else a difference (of a clue or
    bound within another, or, beyond ``subset``, of what a clue says of the cells it shares
    with another) that decides one, those deciding ``cell`` first; else every new bound such
    differences find. Each round is ``O(bounds ** 2 * cells)``, at most :data:`ROUNDS` rounds
    over at most :data:`ITEMS` bounds. Then the steps the last one rests on.
    """
    search = _Search(clues, cell, mine, technique, given=given, suppose=suppose)
    end = search.run()
    return None if end is None else search.kept(end)


class _Search:
    """One search for an argument: the bounds held, the cells decided, the steps taken."""

    def __init__(
        self,
        clues: Sequence[ClueConstraint],
        cell: Cell,
        mine: bool,
        technique: Technique,
        *,
        given: Bound | None,
        suppose: bool,
    ) -> None:
        self.cell, self.mine = cell, mine
        self.differences = technique > Technique.COUNT
        self.any_bounds = technique > Technique.SUBSET
        self.items = [_Item(frozenset(c.cells), c.mines, c.mines, c.cell, None) for c in clues]
        self.facts: dict[Cell, tuple[bool, int]] = {}
        self.steps: list[Step] = []
        self.deps: list[set[int]] = []
        self.seen: dict[frozenset[Cell], tuple[int, int]] = {
            item.cells: (item.lo, item.hi) for item in self.items
        }
        if given is not None:
            index = self._add(Step("given", given, result=given), set())
            self.items.append(_Item(frozenset(given.cells), given.lo, given.hi, None, index))
        self.supposed = suppose
        if suppose:
            other = int(not mine)
            index = self._add(Step("suppose", Bound((cell,), other, other)), set())
            self.facts[cell] = (not mine, index)

    def run(self) -> int | None:
        """The index of the step that ends the argument, or ``None``."""
        rounds = 0
        while rounds < ROUNDS:
            readings = [self._read(item) for item in self.items]
            ended = self.supposed and next(
                (i for i, (bound, _, _) in enumerate(readings) if not bound.possible), None
            )
            if ended is not None and ended is not False:
                return self._add(self._count(ended, readings[ended]), readings[ended][2])
            counted = next((i for i, (bound, _, _) in enumerate(readings) if bound.decides), None)
            if counted is not None:
                found = self._decided(readings[counted][0])
                step = replace(self._count(counted, readings[counted]), found=found)
                end = self._learn(found, self._add(step, readings[counted][2]))
                if end is not None:
                    return end
                continue
            if not self.differences:
                return None
            moves = self._differences(readings)
            if not moves:
                return None
            deciding = [m for m in moves if m.decides or not m.result.possible]
            if deciding:
                best = min(deciding, key=lambda m: (self.cell not in m.rest, m.overlap))
                index = self._take(best)
                if not best.result.possible:
                    return index
                end = self._learn(self._decided(best.result), index)
                if end is not None:
                    return end
                continue
            rounds += 1
            for move in moves[: max(0, ITEMS - len(self.items))]:
                index = self._take(move)
                result = move.result
                held = result.clipped()
                self.items.append(_Item(frozenset(held.cells), held.lo, held.hi, None, index))
                self.seen[frozenset(result.cells)] = (result.lo, result.hi)
            if len(self.items) >= ITEMS:
                return None
        return None

    def kept(self, end: int) -> tuple[Step, ...]:
        """The steps ``end`` rests on, itself included, in order."""
        needed = {end}
        todo = [end]
        while todo:
            for dep in self.deps[todo.pop()]:
                if dep not in needed:
                    needed.add(dep)
                    todo.append(dep)
        return tuple(self.steps[i] for i in sorted(needed))

    # -- the moves ----------------------------------------------------------------------------

    def _differences(self, readings: list[tuple[Bound, bool, set[int]]]) -> list[_Move]:
        """Every difference the rules allow that decides a cell or finds a new bound."""
        moves = []
        for i, (inner, inner_narrowed, inner_deps) in enumerate(readings):
            a = set(inner.cells)
            if not a or not inner.possible:
                continue
            for j, (outer, narrowed, deps) in enumerate(readings):
                b = set(outer.cells)
                if i == j or not b or not outer.possible or not a & b:
                    continue
                inner_c, outer_c = inner.clipped(), outer.clipped()
                if a < b:
                    exact = inner_c.lo == inner_c.hi and outer_c.lo == outer_c.hi
                    if not (exact or self.any_bounds):
                        continue
                    part, overlap = inner_c, False
                elif a <= b or b <= a or not self.any_bounds or inner.clue is None:
                    continue
                else:
                    part, overlap = _part(inner_c, a & b), True
                    if not _tighter(part, _part(outer_c, a & b)):
                        continue
                rest = tuple(sorted(b - set(part.cells)))
                result = Bound(rest, outer_c.lo - part.hi, outer_c.hi - part.lo)
                move = _Move(
                    i,
                    j,
                    inner,
                    inner_narrowed,
                    part,
                    outer,
                    narrowed,
                    result,
                    overlap,
                    inner_deps | deps,
                )
                if move.decides or not result.possible or self._new(result):
                    moves.append(move)
        return moves

    def _count(self, index: int, reading: tuple[Bound, bool, set[int]]) -> Step:
        """A ``count`` step of item ``index``, read as ``reading``: a bound a step found says
        what it was (as ``given``)."""
        item = self.items[index]
        bound, narrowed, _ = reading
        if item.clue is not None:
            return Step("count", bound, narrowed)
        was = Bound(tuple(sorted(item.cells)), item.lo, item.hi).clipped()
        return Step("count", bound, narrowed, given=was)

    def _take(self, move: _Move) -> int:
        """Add the steps of ``move``: a clue's ``read`` (unless it is a bound a step found) and
        the ``difference``; the index of the last."""
        deps = set(move.deps)
        item = self.items[move.inner]
        part = move.part
        if move.decides:  # only the side of the part that decides
            n = len(part.cells)
            safe = move.result.hi <= 0
            part = Bound(part.cells, part.lo, n) if safe else Bound(part.cells, 0, part.hi)
        if item.clue is not None:
            read = Step("read", move.inner_bound, move.inner_narrowed, result=part)
            deps.add(self._add(read, self._read(item)[2]))
        found = self._decided(move.result) if move.decides else {}
        step = Step(
            "difference",
            move.outer_bound,
            move.outer_narrowed,
            given=part,
            result=None if found else move.result,
            found=found,
        )
        return self._add(step, deps)

    def _learn(self, found: dict[Cell, bool], index: int) -> int | None:
        """Record the cells a step decided; the step's index if it decided the cell."""
        for cell, mine in found.items():
            self.facts[cell] = (mine, index)
        return index if self.cell in found and not self.supposed else None

    # -- helpers ------------------------------------------------------------------------------

    def _add(self, step: Step, deps: set[int]) -> int:
        """Add ``step`` (or find it already taken) resting on the steps ``deps``."""
        if step in self.steps:
            return self.steps.index(step)
        self.steps.append(step)
        self.deps.append(deps)
        return len(self.steps) - 1

    def _read(self, item: _Item) -> tuple[Bound, bool, set[int]]:
        """``item`` less the cells known: the bound, whether any was known, and the steps
        that knew them (and found it)."""
        known = [c for c in item.cells if c in self.facts]
        mines = sum(self.facts[c][0] for c in known)
        cells = tuple(sorted(c for c in item.cells if c not in self.facts))
        deps = {self.facts[c][1] for c in known}
        if item.source is not None:
            deps.add(item.source)
        return Bound(cells, item.lo - mines, item.hi - mines, item.clue), bool(known), deps

    def _decided(self, bound: Bound) -> dict[Cell, bool]:
        """The cells a deciding ``bound`` decides that are not yet known."""
        mine = bound.lo >= len(bound.cells)
        return {c: mine for c in bound.cells if c not in self.facts}

    def _new(self, bound: Bound) -> bool:
        """Whether ``bound`` says more than nothing and than what is held on its cells."""
        n = len(bound.cells)
        if not n or (bound.lo <= 0 and bound.hi >= n):
            return False
        lo, hi = max(bound.lo, 0), min(bound.hi, n)
        held = self.seen.get(frozenset(bound.cells))
        return held is None or lo > held[0] or hi < held[1]


@dataclass(frozen=True)
class _Move:
    """A difference a search may take: the bound ``part`` (what ``inner`` says of the cells it
    shares with ``outer``) taken from ``outer``."""

    inner: int
    outer: int
    inner_bound: Bound
    inner_narrowed: bool
    part: Bound
    outer_bound: Bound
    outer_narrowed: bool
    result: Bound
    overlap: bool
    deps: set[int]

    @property
    def rest(self) -> tuple[Cell, ...]:
        return self.result.cells

    @property
    def decides(self) -> bool:
        return self.result.decides


def _part(bound: Bound, cells: set[Cell]) -> Bound:
    """What ``bound`` says of some of its ``cells``: at least what the others cannot hold, at
    most its own most."""
    others = len(bound.cells) - len(cells)
    return Bound(tuple(sorted(cells)), max(0, bound.lo - others), min(len(cells), bound.hi))


def _tighter(a: Bound, b: Bound) -> bool:
    """Whether ``a`` says more than ``b`` of the same cells."""
    return a.lo > b.lo or a.hi < b.hi
