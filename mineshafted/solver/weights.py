"""Weights: one component's placements counted by number of mines.

A component's weights are what :mod:`.total` combines under the mine total, and what a
guessing policy's look-ahead weighs again for each clue a cell may show;
:func:`weighed` remembers them, so that no component is weighed twice. (The module was
``count.py``, its names ``Count``, ``count_component`` and ``counted``: *count* is the
ladder's weakest rung, and the old names stay importable from :mod:`.count`.)

Glossary
--------
weights
    A component's placements by number of mines, and on how many of them each class holds a
    mine (:class:`Weights`); to *weigh* a component is to count them.
placement
    A choice of which unknown cells hold mines.
class
    The cells of a component that lie in exactly the same constraints: interchangeable, so a
    class of ``n`` cells holding ``m`` mines stands for ``C(n, m)`` placements at once.
polynomial
    A list of ints indexed by a number of mines: ``poly[k]`` placements hold ``k`` mines.
budget
    The memory the tables of one count may take, as estimated while they grow
    (:data:`MEMORY` MiB unless :func:`memory_budget` says otherwise): a frontier too wide to
    count within it raises :class:`CountTooLargeError`, on the command line and in the live
    environment's workers alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from .. import core
from ..board import Cell
from ..errors import MineshaftedError
from .position import Constraint

__all__ = [
    "MEMORY",
    "CountTooLargeError",
    "Weights",
    "convolve",
    "memory_budget",
    "weigh",
    "weighed",
]

MEMORY = 512.0
"""The default budget, in MiB, of the tables one count may build (see :func:`memory_budget`)."""

Poly = list[int]
"""Counts indexed by a number of mines."""

State = tuple[int, ...]
"""The mines still owed by each constraint open at a step of the sweep over classes."""


@dataclass(frozen=True)
class Weights:
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


class CountTooLargeError(MineshaftedError):
    """Counting a component would build tables past the memory budget: its frontier is too
    wide to count exactly.

    ``cells`` is the component's number of unknown cells, ``memory`` the budget in MiB.
    """

    def __init__(self, *, cells: int, memory: float) -> None:
        self.cells = cells
        self.memory = memory
        super().__init__(
            f"counting the placements would take more than {memory:g} MiB: the clues' "
            f"frontier ({cells} unknown cells) is too wide to count exactly"
        )


@contextmanager
def memory_budget(memory: float) -> Iterator[None]:
    """Count with a budget of ``memory`` MiB (instead of :data:`MEMORY`) inside the block.

    Every count in the block, :func:`weighed`'s included, stops with
    :class:`CountTooLargeError` when its tables would outgrow the budget. A count already
    remembered by :func:`weighed` is given again whatever the budget: it is exact.

    Examples
    --------
    A row of 60 cells under 60 clues of one mine in each window of three (two at the ends):

    >>> row = [(tuple(range(max(i - 1, 0), min(i + 2, 60))), 1) for i in range(60)]
    >>> with memory_budget(0.01):
    ...     weigh(row)
    Traceback (most recent call last):
    ...
    mineshafted.solver.weights.CountTooLargeError: counting the placements would take more \
than 0.01 MiB: the clues' frontier (60 unknown cells) is too wide to count exactly
    >>> sum(weigh(row).placements)  # within the default budget: one placement
    1
    """
    token = _budget.set(memory)
    try:
        yield
    finally:
        _budget.reset(token)


def weigh(
    constraints: Sequence[Constraint], *, grouped: bool = True, memory: float | None = None
) -> Weights:
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
    memory:
        The budget, in MiB, of the tables the count builds; ``None``: the budget of
        :func:`memory_budget` (:data:`MEMORY` unless changed).

    Returns
    -------
    Weights
        The placements and, for each class, the placements with a mine on one of its cells,
        both by number of mines. A component no placement fits has all counts zero.

    Raises
    ------
    CountTooLargeError
        The tables would outgrow the budget: the component is too wide to count exactly.

    Examples
    --------
    One clue with one mine among cells 1 and 2, another with one mine among 2, 3 and 4:

    >>> count = weigh([((1, 2), 1), ((2, 3, 4), 1)])
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

    Compiled (:mod:`mineshafted.core`): the same count in C with 128-bit counts, for
    components of at most 127 cells (every count fits) grouped into classes; the Python body
    below is its specification, and counts whatever the compiled form leaves to it.

    Memory: every forward layer is kept for the backward pass, which frees each as it goes,
    so the forward tables are the peak. Their size is estimated as they grow: each stored
    coefficient as an int of as many bits as the classes swept so far have cells (its
    bound), each state and transition at a fixed size. Past the budget the count stops, as a
    time limit stops it; a count the budget admits is exactly the count without it. The
    estimate runs high: about twice the memory used on a wide frontier.
    """
    limit = (_budget.get() if memory is None else memory) * 2**20
    kernels = core.kernels
    if kernels is not None and grouped:  # the compiled form of what follows, where it counts
        found = kernels.count(constraints, limit)
        if isinstance(found, tuple):
            return Weights(*found)
        if found is not None:
            raise CountTooLargeError(cells=found, memory=limit / 2**20)
    classes, scopes, mines = _classes(constraints, grouped)
    steps = _plan(classes, scopes)
    size = len(classes)
    cells = sum(len(group) for group in classes)
    placed = 0  # the cells of the classes swept so far
    held = states = transitions = 0  # bytes of the coefficients of the layers built; counts
    forward: list[dict[State, Poly]] = [{(): [1]}]
    moves: list[list[tuple[State, int, State]]] = []
    for step in range(size):
        layer: dict[State, Poly] = {}
        edges: list[tuple[State, int, State]] = []
        width = len(classes[step])
        placed += width
        coefficient = _SLOT + 4 * (placed // 30 + 1)  # no count here exceeds 2**placed
        slots = 0
        for state, poly in forward[step].items():
            for m, after in _choices(steps[step], state, mines, width):
                edges.append((state, m, after))
                slots += _add_into(layer, after, _shift(poly, m, comb(width, m)))
            used = (
                held
                + slots * coefficient
                + (states + len(layer)) * _STATE
                + (transitions + len(edges)) * _TRANSITION
            )
            if used > limit:
                raise CountTooLargeError(cells=cells, memory=limit / 2**20)
        held += slots * coefficient
        states += len(layer)
        transitions += len(edges)
        forward.append(layer)
        moves.append(edges)
    forward.pop()  # the layer after the last class: no class's prefix
    suffixes: dict[State, Poly] = {(): [1]}
    reversed_mined: list[Poly] = []
    for step in range(size - 1, -1, -1):
        width = len(classes[step])
        prefixes, layer = forward.pop(), {}
        counts: Poly = []
        for state, m, after in moves.pop():
            suffix = suffixes.get(after)
            if not suffix:
                continue
            _add_into(layer, state, _shift(suffix, m, comb(width, m)))
            if m == 0:
                continue
            product = convolve(prefixes[state], suffix)
            weight = comb(width - 1, m - 1)
            if len(counts) < len(product) + m:
                counts.extend([0] * (len(product) + m - len(counts)))
            for k, value in enumerate(product):
                if value:
                    counts[k + m] += weight * value
        reversed_mined.append(counts)
        suffixes = layer
    total = suffixes.get((), [0])
    length = len(total)
    mined = tuple(  # each as long as the total: zeros past the last placement dropped or added
        tuple(counts[:length]) + (0,) * (length - len(counts))
        for counts in reversed(reversed_mined)
    )
    return Weights(tuple(classes), tuple(total), mined)


@lru_cache(maxsize=1 << 12)
def weighed(component: tuple[Constraint, ...]) -> Weights:
    """:func:`weigh`, remembered: a component met again (at the next stall, or by
    another candidate of a guessing policy) is not counted again. The one cache of counts:
    the total stage, :func:`~.total.tally` and the look-ahead all draw from it.
    :class:`Weights` is immutable, so sharing it is safe.

    Examples
    --------
    >>> weighed((((1, 2), 1),)) is weighed((((1, 2), 1),))
    True
    """
    return weigh(component)


def convolve(a: Sequence[int], b: Sequence[int]) -> Poly:
    """The product of two polynomials: two disjoint parts' placements together, by mines.

    Examples
    --------
    >>> convolve([0, 2], [1, 1])  # two ways with one mine, times none or one more
    [0, 2, 2]
    """
    product = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                product[i + j] += x * y
    return product


_budget: ContextVar[float] = ContextVar("memory budget", default=MEMORY)
"""The budget, in MiB, of a count not given one: :func:`memory_budget` sets it."""

_SLOT = 8 + 28
"""Bytes a stored coefficient takes besides its digits: the list's slot and the int's head
(an int then takes 4 bytes per 30 bits)."""
_STATE = 200
"""Bytes a state of a layer takes besides its coefficients: the key, the dict entry, the list."""
_TRANSITION = 150
"""Bytes a transition kept for the backward pass takes: a triple and the state it leads to."""


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


def _add_into(layer: dict[State, Poly], state: State, poly: Poly) -> int:
    """``layer[state] += poly``, growing the stored polynomial as needed; the slots added."""
    stored = layer.get(state)
    if stored is None:
        layer[state] = poly
        return len(poly)
    grown = len(poly) - len(stored)
    if grown > 0:
        stored.extend([0] * grown)
    for k, value in enumerate(poly):
        stored[k] += value
    return max(grown, 0)
