"""Counting placements: one component's by number of mines, a whole position's under the total.

With the mine total, the components' counts combine into a :class:`Tally` of the whole
position: how many placements of the remaining mines agree with every clue, and on how many
of them each unknown cell holds a mine. A cell mined in none or all of them is decided by
the count: the last layer of deduction (Tatham's order: local deduction first, the global
count last).

Glossary
--------
placement
    A choice of which unknown cells hold mines.
class
    The cells of a component that lie in exactly the same constraints: interchangeable, so a
    class of ``n`` cells holding ``m`` mines stands for ``C(n, m)`` placements at once.
polynomial
    A list of ints indexed by a number of mines: ``poly[k]`` placements hold ``k`` mines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from ..board import Cell
from ..errors import NoPlacementError, Why
from .position import Constraint, Position
from .variables import Fact

__all__ = ["Count", "Tally", "combine", "count_component", "decided_by_total", "tally"]

Poly = list[int]
"""Counts indexed by a number of mines."""

State = tuple[int, ...]
"""The mines still owed by each constraint open at a step of the sweep over classes."""


@dataclass(frozen=True)
class Count:
    """One component's placements, counted by their number of mines.

    The component's constraints are over :attr:`classes`; ``placements[k]`` is how many
    placements of exactly ``k`` mines in the component's cells satisfy every constraint, and
    ``mined[i][k]`` how many of those have a mine on any one given cell of ``classes[i]`` (the
    same for every cell of a class).
    """

    classes: tuple[tuple[Cell, ...], ...]
    """The component's cells, grouped: each class lies in the same constraints."""
    placements: tuple[int, ...]
    """Placements by number of mines."""
    mined: tuple[tuple[int, ...], ...]
    """``mined[i][k]``: placements of ``k`` mines with a mine on a given cell of class ``i``."""

    @property
    def cells(self) -> list[Cell]:
        """Every cell of the component, ascending."""
        return sorted(cell for group in self.classes for cell in group)


def count_component(constraints: Sequence[Constraint], *, grouped: bool = True) -> Count:
    """Count the placements that satisfy every constraint of a component, by number of mines.

    Parameters
    ----------
    constraints:
        ``(cells, mines)`` pairs: exactly ``mines`` mines among ``cells``. Usually one
        component of a :class:`~mineshafted.solver.Position`, though any set of constraints
        is counted correctly (disconnected ones just cost more).
    grouped:
        Group cells that lie in the same constraints into classes (the default). ``False``
        counts cell by cell: the same answer, slower; kept for cross-checks.

    Returns
    -------
    Count
        The placements and, for each class, the placements with a mine on one of its cells,
        both by number of mines. A component no placement fits has all counts zero.

    Examples
    --------
    One clue with one mine among cells 1 and 2, another with one mine among 2, 3 and 4:

    >>> count = count_component([((1, 2), 1), ((2, 3, 4), 1)])
    >>> count.classes
    ((1,), (2,), (3, 4))
    >>> count.placements  # mine on 2 alone, or mines on 1 and one of 3, 4
    (0, 1, 2)
    >>> count.mined  # cell 1 in both two-mine placements; each of 3, 4 in one
    ((0, 0, 2), (0, 1, 0), (0, 0, 1))

    Notes
    -----
    The classes are ordered breadth-first over shared constraints from a class with the
    fewest neighbours (Cuthill-McKee), so that along a frontier few constraints are open at
    once. A forward pass then sweeps the classes in that order with, as state, the mines each
    open constraint still owes; a class of ``n`` cells takes ``m`` mines when no constraint
    it lies in is overdrawn and each can still be met by the classes after it, and counts
    ``C(n, m)``. A backward pass counts the completions of each state, and each class's
    mined counts are the sums over its transitions of prefix x ``C(n - 1, m - 1)`` x suffix.
    Counts are polynomials in the number of mines, multiplied by convolution; Python ints
    keep them exact.

    Cost: ``O(T * L**2)`` for ``T`` transitions (states times choices, summed over classes)
    and polynomials of length ``L`` (at most the component's cells + 1). ``T`` grows with
    the number of constraints open at once (the frontier's width, not its length), so long
    frontiers cost linear time; a tangle of wide ones costs exponential time, as counting
    must in general.
    """
    classes, scopes, mines = _classes(constraints, grouped)
    steps = _plan(classes, scopes)
    size = len(classes)
    forward: list[dict[State, Poly]] = [{(): [1]}]
    moves: list[list[tuple[State, int, State]]] = []
    for step in range(size):
        layer: dict[State, Poly] = {}
        edges: list[tuple[State, int, State]] = []
        width = len(classes[step])
        for state, poly in forward[step].items():
            for m, after in _choices(steps[step], state, mines, width):
                edges.append((state, m, after))
                _add_into(layer, after, _shift(poly, m, comb(width, m)))
        forward.append(layer)
        moves.append(edges)
    backward: list[dict[State, Poly]] = [{} for _ in range(size)] + [{(): [1]}]
    for step in range(size - 1, -1, -1):
        width = len(classes[step])
        layer = backward[step]
        for state, m, after in moves[step]:
            suffix = backward[step + 1].get(after)
            if suffix:
                _add_into(layer, state, _shift(suffix, m, comb(width, m)))
    total = backward[0].get((), [0])
    length = len(total)
    mined: list[tuple[int, ...]] = []
    for step in range(size):
        width = len(classes[step])
        counts = [0] * length
        for state, m, after in moves[step]:
            suffix = backward[step + 1].get(after)
            if m == 0 or not suffix:
                continue
            product = _convolve(forward[step][state], suffix)
            weight = comb(width - 1, m - 1)
            for k, value in enumerate(product):
                if value:
                    counts[k + m] += weight * value
        mined.append(tuple(counts))
    return Count(tuple(classes), tuple(total), tuple(mined))


@dataclass(frozen=True)
class Tally:
    """A position's placements under the mine total, counted: in all, and per unknown cell.

    ``mined[cell] / placements`` is the cell's chance of a mine
    (:class:`mineshafted.probability.Odds` says so in fractions and floats); a cell mined in
    none or all of the placements is decided by the count (:meth:`certain`).
    """

    mines_left: int
    """The mines the unknown cells hold between them."""
    placements: int
    """How many placements of the mines left agree with every clue (always at least 1)."""
    mined: dict[Cell, int]
    """Unknown cell -> how many of the placements put a mine on it."""

    def certain(self) -> list[Fact]:
        """The cells decided by the count: ``(cell, is_mine)`` for none or all placements.

        >>> Tally(1, 2, {3: 0, 4: 1, 5: 1, 6: 2}).certain()
        [(3, False), (6, True)]
        """
        total = self.placements
        return [
            (cell, count == total)
            for cell, count in sorted(self.mined.items())
            if count in (0, total)
        ]


def tally(position: Position, mines: int) -> Tally:
    """Count the placements of a stalled position's remaining mines, in all and per cell.

    Counted over all placements of the mines left (``mines`` less the proven ones) on the
    unknown cells that agree with every clue; cells that no clue sees included.

    Raises
    ------
    NoPlacementError
        The clues contradict each other, or the mines left are too few or too many for them.

    Examples
    --------
    A 1x4 board ``0 1 * ?``: the sweep stalls with cell 3 unknown, seen by no clue. With one
    mine in all it is safe; with two it is the second mine.

    >>> from mineshafted import BoardManager, Sweep
    >>> sweep = Sweep(BoardManager([[0, 1, -1, 1]]))
    >>> sweep.run().undetermined
    [3]
    >>> tally(sweep.position(), 1).certain(), tally(sweep.position(), 2).certain()
    ([(3, False)], [(3, True)])

    Notes
    -----
    Each component is counted by number of mines (:func:`count_component`), then
    :func:`combine` multiplies them together and with ``C(unconstrained cells, mines left
    over)``. The cost is that of counting the components, plus ``O(K * L**2)`` to combine
    ``K`` components with polynomials of length ``L``.
    """
    counts = [counted(tuple(component)) for component in position.components]
    return combine(counts, position.unconstrained, mines - position.mines_found)


@lru_cache(maxsize=1 << 12)
def counted(component: tuple[Constraint, ...]) -> Count:
    """:func:`count_component`, remembered: a component met again (at the next stall, or by
    another candidate of a guessing policy) is not counted again. :class:`Count` is
    immutable, so sharing it is safe.

    >>> counted((((1, 2), 1),)) is counted((((1, 2), 1),))
    True
    """
    return count_component(component)


def decided_by_total(
    position: Position, mines: int, cache: dict[tuple[Constraint, ...], Count]
) -> list[Fact]:
    """The cells the mine total decides at a sweep's stall: what :func:`tally`'s ``certain()``
    gives, with the component counts kept in ``cache`` between calls (and drawn from
    :func:`counted`, which :func:`tally` shares).

    Only at a stall: the shortcut below takes the sweep's search to have decided every cell
    that its component alone decides.

    Examples
    --------
    >>> position = Position([[0, 1, -1, None]], [], [3], 1)
    >>> decided_by_total(position, 1, {}), decided_by_total(position, 2, {})
    ([(3, False)], [(3, True)])

    Notes
    -----
    A component that did not change since the last stall is not counted again. When every
    split of the mines left between the components and the unconstrained cells fits (at least
    one and at most all-but-one unconstrained cell left over whatever the components hold), the
    total restricts nothing: a component cell is then decided only if its component decides it,
    which the sweep's search has already done, so the combination is skipped. Bounds on each
    component's mines from disjoint constraints (:func:`_bounds`) often show this before any
    counting.
    """
    left = mines - position.mines_found
    free = len(position.unconstrained)
    cells = sum(
        len({c for scope, _ in component for c in scope}) for component in position.components
    )
    if _restricts_nothing(left, 0, cells, free):
        return []  # even with no count at all: the components hold between 0 and all their cells
    if free:
        least = most = 0
        for component in position.components:
            low, high = _bounds(component)
            least += low
            most += high
        if _restricts_nothing(left, least, most, free):
            return []
    counts = []
    for component in position.components:
        key = tuple(component)
        count = cache.get(key)
        if count is None:
            count = cache[key] = counted(key)
        counts.append(count)
    if free and all(any(count.placements) for count in counts):
        least = sum(next(k for k, n in enumerate(c.placements) if n) for c in counts)
        most = sum(max(k for k, n in enumerate(c.placements) if n) for c in counts)
        if _restricts_nothing(left, least, most, free):
            return []
    return combine(counts, position.unconstrained, left).certain()


def combine(counts: Sequence[Count], unconstrained: Sequence[Cell], mines_left: int) -> Tally:
    """Put independent components and the unconstrained cells together under the mine total.

    Parameters
    ----------
    counts:
        Each component's placements by number of mines.
    unconstrained:
        The unknown cells no constraint sees: any of them may hold any mine left over.
    mines_left:
        The mines all the unknown cells hold between them.

    Returns
    -------
    Tally

    Raises
    ------
    NoPlacementError
        A component has no placement at all, or no split of ``mines_left`` between the
        components and the unconstrained cells works.

    Examples
    --------
    One mine between cells 1 and 2, and two free cells, with two mines in all:

    >>> result = combine([count_component([((1, 2), 1)])], [7, 8], 2)
    >>> result.placements, result.mined[1], result.mined[7]
    (4, 2, 2)

    Notes
    -----
    With ``P_j`` component ``j``'s placements by mines and ``U`` unconstrained cells, the
    placements number ``sum_k (P_1 * ... * P_K)[k] * C(U, R - k)`` (``*`` convolution, ``R``
    the mines left). A class of component ``j`` is weighed against the product of the other
    components (prefix and suffix products, so no division), an unconstrained cell against
    ``C(U - 1, R - k - 1)``. Cost ``O(K * L**2 + classes * L)`` for ``K`` components and
    polynomials of length ``L``.
    """
    free = len(unconstrained)
    for count in counts:
        if not any(count.placements):
            raise NoPlacementError(
                f"the clues contradict each other around cells {count.cells}",
                why=Why.CLUES,
                cells=count.cells,
            )
    polys = [list(count.placements) for count in counts]
    prefix: list[list[int]] = [[1]]
    for poly in polys:
        prefix.append(_convolve(prefix[-1], poly))
    suffix: list[list[int]] = [[1]]
    for poly in reversed(polys):
        suffix.append(_convolve(suffix[-1], poly))
    suffix.reverse()
    every = prefix[-1]
    # ways[x]: the placements of the unconstrained cells when the components hold x mines.
    ways = [_choose(free, mines_left - x) for x in range(len(every))]
    placements = sum(n * w for n, w in zip(every, ways, strict=True))
    if placements == 0:
        raise _no_room(polys, free, mines_left)
    mined: dict[Cell, int] = {}
    for j, count in enumerate(counts):
        others = _convolve(prefix[j], suffix[j + 1])
        weights = [
            sum(n * ways[k + t] for t, n in enumerate(others) if n)
            for k in range(len(count.placements))
        ]
        for group, counted in zip(count.classes, count.mined, strict=True):
            value = sum(c * w for c, w in zip(counted, weights, strict=False) if c)
            for cell in group:
                mined[cell] = value
    if unconstrained:
        value = sum(n * _choose(free - 1, mines_left - k - 1) for k, n in enumerate(every))
        for cell in unconstrained:
            mined[cell] = value
    return Tally(mines_left, placements, mined)


def _restricts_nothing(left: int, least: int, most: int, free: int) -> bool:
    """Whether the total restricts nothing: with components holding between ``least`` and
    ``most`` mines, at least one and at most all-but-one of the ``free`` cells is left over."""
    return free > 0 and left - most >= 1 and left - least <= free - 1


def _bounds(component: Sequence[Constraint]) -> tuple[int, int]:
    """Bounds on the mines a component holds, from constraints picked pairwise disjoint.

    Disjoint constraints place their mines, and leave their other cells free, independently:
    at least the sum of their mines, at most every cell less the sum of their free cells.

    >>> _bounds([((1, 2), 1), ((2, 3), 1), ((3, 4), 1)])
    (2, 2)
    """
    cells = {cell for scope, _ in component for cell in scope}
    used: set[Cell] = set()
    least = spare = 0
    for scope, mines in sorted(component, key=lambda c: len(c[0])):
        if used.isdisjoint(scope):
            used.update(scope)
            least += mines
            spare += len(scope) - mines
    return least, len(cells) - spare


def _no_room(polys: Sequence[Sequence[int]], free: int, mines_left: int) -> NoPlacementError:
    """The error for mines left that no split between components and free cells fits."""
    least = sum(next(k for k, n in enumerate(poly) if n) for poly in polys)
    most = sum(max(k for k, n in enumerate(poly) if n) for poly in polys) + free
    if mines_left < least:
        return NoPlacementError(
            f"{mines_left} mine(s) left, but the clues need at least {least}", why=Why.TOO_FEW
        )
    if mines_left > most:
        return NoPlacementError(
            f"{mines_left} mine(s) left, but at most {most} fit in the unknown cells",
            why=Why.TOO_MANY,
        )
    return NoPlacementError(
        f"{mines_left} mine(s) left, but no split of them between the clues fits", why=Why.GAP
    )


@lru_cache(maxsize=1 << 16)
def _choose(n: int, k: int) -> int:
    """``C(n, k)``, zero outside ``0 <= k <= n`` (remembered: the same few recur)."""
    return comb(n, k) if 0 <= k <= n else 0


@dataclass(frozen=True)
class _Step:
    """What placing one class does to the constraints: read, charge, carry."""

    read: tuple[int, ...]
    """For each constraint the class lies in: its index in the state, or -1 if not yet open."""
    charged: tuple[int, ...]
    """The constraints the class lies in (indices into the component's constraints)."""
    room: tuple[int, ...]
    """For each of those constraints, the cells of its classes after this one."""
    keep: tuple[tuple[int, int], ...]
    """The next state, entry by entry: ``(0, i)`` copy entry ``i`` of the state; ``(1, j)``
    the new debt of the ``j``-th charged constraint."""


def _classes(
    constraints: Sequence[Constraint], grouped: bool
) -> tuple[list[tuple[Cell, ...]], list[frozenset[int]], list[int]]:
    """The classes (cells in the same constraints), each class's constraints, and the debts."""
    lies_in: dict[Cell, list[int]] = {}
    for index, (scope, _) in enumerate(constraints):
        for cell in scope:
            lies_in.setdefault(cell, []).append(index)
    groups: dict[object, list[Cell]] = {}
    for cell in sorted(lies_in):
        key: object = tuple(lies_in[cell]) if grouped else cell
        groups.setdefault(key, []).append(cell)
    classes = [tuple(cells) for cells in groups.values()]
    scopes = [frozenset(lies_in[cells[0]]) for cells in classes]
    order = _order(scopes)
    return [classes[i] for i in order], [scopes[i] for i in order], [m for _, m in constraints]


def _order(scopes: list[frozenset[int]]) -> list[int]:
    """Class indices in breadth-first order over shared constraints, each part from a leaf."""
    near: dict[int, list[int]] = {}
    for index, scope in enumerate(scopes):
        for constraint in scope:
            near.setdefault(constraint, []).append(index)
    degree = [len({j for c in scope for j in near[c]}) for scope in scopes]
    seen = [False] * len(scopes)
    order: list[int] = []
    # The order by degree only speeds the count up: any order counts the same.
    for root in sorted(range(len(scopes)), key=lambda i: degree[i]):  # pragma: no mutate
        if seen[root]:
            continue
        seen[root] = True
        queue = [root]
        for index in queue:
            order.append(index)
            fresh = {j for c in sorted(scopes[index]) for j in near[c] if not seen[j]}
            for j in sorted(fresh, key=lambda j: degree[j]):  # pragma: no mutate - speed only
                seen[j] = True
                queue.append(j)
    return order


def _plan(classes: list[tuple[Cell, ...]], scopes: list[frozenset[int]]) -> list[_Step]:
    """For each class in order, how it reads and changes the state of open constraints."""
    last: dict[int, int] = {}
    for step, scope in enumerate(scopes):
        for constraint in scope:
            last[constraint] = step
    room_after: dict[int, int] = {}
    for step, scope in enumerate(scopes):
        for constraint in scope:
            room_after[constraint] = room_after.get(constraint, 0) + len(classes[step])
    opened: list[int] = []
    steps = []
    for step, scope in enumerate(scopes):
        charged = tuple(sorted(scope))
        read = tuple(opened.index(c) if c in opened else -1 for c in charged)
        room = []
        for constraint in charged:
            room_after[constraint] -= len(classes[step])
            room.append(room_after[constraint])
        following = [c for c in opened if last[c] > step]
        following += [c for c in charged if c not in opened and last[c] > step]
        keep = tuple(
            (1, charged.index(c)) if c in scope else (0, opened.index(c)) for c in following
        )
        steps.append(_Step(read, charged, tuple(room), keep))
        opened = following
    return steps


def _choices(step: _Step, state: State, mines: list[int], width: int) -> list[tuple[int, State]]:
    """Each number of mines the class can take from ``state``, with the state after."""
    debts = [state[i] if i >= 0 else mines[c] for i, c in zip(step.read, step.charged, strict=True)]
    low, high = 0, width
    for debt, room in zip(debts, step.room, strict=True):
        high = min(high, debt)
        low = max(low, debt - room)
    found = []
    for m in range(low, high + 1):
        after = tuple(state[i] if kind == 0 else debts[i] - m for kind, i in step.keep)
        found.append((m, after))
    return found


def _shift(poly: Poly, by: int, weight: int) -> Poly:
    """``weight * x**by * poly``."""
    return [0] * by + [weight * value for value in poly]


def _add_into(layer: dict[State, Poly], state: State, poly: Poly) -> None:
    """``layer[state] += poly``, growing the stored polynomial as needed."""
    stored = layer.get(state)
    if stored is None:
        layer[state] = poly
        return
    if len(stored) < len(poly):
        stored.extend([0] * (len(poly) - len(stored)))
    for k, value in enumerate(poly):
        stored[k] += value


def _convolve(a: Sequence[int], b: Sequence[int]) -> Poly:
    """The product of two polynomials."""
    product = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                product[i + j] += x * y
    return product
