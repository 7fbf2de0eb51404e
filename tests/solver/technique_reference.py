"""A naive, independent reference for the technique ladder: the spec of each technique, in code.

Nothing here comes from ``mineshafted.solver``: only :class:`~mineshafted.board.Board` and its
geometry are borrowed, for the clues and the neighbours. Plain sets and dicts throughout,
brute force wherever it is the natural reading of the definition, and no cleverness: this is
the yardstick the real solver is measured against, so it must be easy to believe.

Glossary
--------
play
    Move onto the start cell; deduce with the technique from what is revealed; move onto every
    cell it proves safe (learning its clue) and remember every mine it proves; repeat until
    nothing new is deduced. Nothing is opened that the technique did not prove safe.
constraint
    ``(cells, mines)``: exactly ``mines`` mines among the unknown ``cells``; one for each
    revealed clue beside an unknown cell (its clue less the known mines around it).
solved
    A technique solves a board when its play decides every cell: every safe cell moved onto
    and every mine known.
rating
    The first technique, weakest first, that solves the board; ``guess`` when none does.

The techniques, one function each (``by_count(view)`` and so on: the cells deduced, each mined
or not):

``count``
    One constraint on its own: no mine to place (all its cells safe), or as many mines as
    cells (all mines).
``subset``
    Every constraint, and for ``A`` within ``B`` the derived ``(B - A, mines_B - mines_A)``,
    derived ones included, to a fixed point; then ``count`` on every one of them.
``ac3``
    Each revealed clue a variable whose domain is every placement of its mines among its
    unknown cells; an arc between any two clues sharing an unknown cell; textbook AC-3; a cell
    free (or mined) in every value of some domain is decided.
``complete``
    Every assignment of the unknown cells that fits every constraint; a cell with one value
    in all of them is decided.
``total``
    The same, counting only the assignments that place exactly the mines left.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, product

from mineshafted.board import MINE, Board, Cell

__all__ = [
    "TECHNIQUES",
    "View",
    "by_ac3",
    "by_complete",
    "by_count",
    "by_subset",
    "by_total",
    "reference_play",
    "reference_rating",
    "reference_solves",
]

Constraint = tuple[frozenset[Cell], int]
"""Exactly ``mines`` mines among the unknown ``cells``."""

Facts = dict[Cell, bool]
"""cell -> whether it is a mine, for the cells a technique decides."""


@dataclass(frozen=True)
class View:
    """What a player knows during play: the clues moved onto and the mines found (and, for
    ``total``, the board's mine count)."""

    board: Board
    clues: dict[Cell, int]
    """Revealed cell -> its clue."""
    mines: frozenset[Cell]
    """Cells known to be mines."""

    @property
    def unknown(self) -> set[Cell]:
        """Cells neither revealed nor known to be mines."""
        return set(range(self.board.geometry.cells)) - self.clues.keys() - self.mines

    @property
    def mines_left(self) -> int:
        """The board's mine total less the mines known (used by ``total`` only)."""
        return self.board.mine_count - len(self.mines)

    def constraint(self, clue: Cell) -> Constraint:
        """The revealed ``clue``'s unknown neighbours and the mines it has left to place."""
        around = self.board.geometry.neighbours(clue)
        unknown = frozenset(n for n in around if n not in self.clues and n not in self.mines)
        return unknown, self.clues[clue] - sum(n in self.mines for n in around)

    def constraints(self) -> dict[Cell, Constraint]:
        """Revealed clue -> its constraint, for every clue with an unknown neighbour."""
        every = {clue: self.constraint(clue) for clue in self.clues}
        return {clue: (cells, mines) for clue, (cells, mines) in every.items() if cells}


# -- the techniques ---------------------------------------------------------------------------


def by_count(view: View) -> Facts:
    """``count``: each clue on its own."""
    return _count(view.constraints().values())


def by_subset(view: View) -> Facts:
    """``subset``: the closure under ``A within B gives B - A``, counted."""
    known = set(view.constraints().values())
    while True:
        derived = {(b - a, mb - ma) for a, ma in known for b, mb in known if a < b}
        if derived <= known:
            return _count(known)
        known |= derived


def by_ac3(view: View) -> Facts:
    """``ac3``: arc consistency over the clues' domains of mine placements."""
    constraints = view.constraints()
    scope = {clue: cells for clue, (cells, _) in constraints.items()}
    domain = {
        clue: {frozenset(mined) for mined in combinations(sorted(cells), mines)}
        for clue, (cells, mines) in constraints.items()
    }

    def neighbours(x: Cell) -> list[Cell]:
        return [y for y in scope if y != x and scope[x] & scope[y]]

    queue = deque((x, y) for x in scope for y in neighbours(x))
    while queue:
        x, y = queue.popleft()
        if _revise(x, y, scope, domain):
            queue.extend((z, x) for z in neighbours(x) if z != y)
    facts: Facts = {}
    for x, values in domain.items():
        assert values, f"the clue at {x} has no placement left: the clues contradict"
        for cell in scope[x]:
            if all(cell in value for value in values):
                facts[cell] = True
            elif all(cell not in value for value in values):
                facts[cell] = False
    return facts


def by_complete(view: View) -> Facts:
    """``complete``: one value in every assignment that fits all the clues together."""
    return _agreed(view, with_total=False)


def by_total(view: View) -> Facts:
    """``total``: the same, over the assignments that also place exactly the mines left."""
    return _agreed(view, with_total=True)


TECHNIQUES: dict[str, Callable[[View], Facts]] = {
    "count": by_count,
    "subset": by_subset,
    "ac3": by_ac3,
    "complete": by_complete,
    "total": by_total,
}
"""Every technique that can solve a board, weakest first."""


# -- play -------------------------------------------------------------------------------------


def reference_play(board: Board, start: Cell, technique: str) -> View:
    """Play ``board`` from ``start`` with ``technique`` until it deduces nothing new.

    Every fact deduced is checked against the board: a reference that proves a mine safe, or
    a safe cell mined, fails here rather than agreeing with a solver by accident.
    """
    deduce = TECHNIQUES[technique]
    clues: dict[Cell, int] = {}
    mines: set[Cell] = set()
    to_move = {start}
    while True:
        for cell in to_move:
            assert board.values[cell] != MINE, f"{technique} moved onto the mine at {cell}"
            clues[cell] = board.values[cell]
        view = View(board, dict(clues), frozenset(mines))
        facts = deduce(view)
        for cell, mine in facts.items():
            assert mine == (board.values[cell] == MINE), f"{technique} is wrong about {cell}"
        to_move = {cell for cell, mine in facts.items() if not mine} - clues.keys()
        new_mines = {cell for cell, mine in facts.items() if mine} - mines
        if not to_move and not new_mines:
            return view
        mines |= new_mines


def reference_solves(board: Board, start: Cell, technique: str) -> bool:
    """Whether ``technique``'s play from ``start`` decides every cell of ``board``."""
    return not reference_play(board, start, technique).unknown


def reference_rating(board: Board, start: Cell) -> str:
    """The first technique, weakest first, that solves ``board`` from ``start``; else ``guess``."""
    for technique in TECHNIQUES:
        if reference_solves(board, start, technique):
            return technique
    return "guess"


# -- helpers ----------------------------------------------------------------------------------


def _count(constraints: Iterable[Constraint]) -> Facts:
    """The cells some constraint decides alone: none of its mines left, or all its cells."""
    facts: Facts = {}
    for cells, mines in constraints:
        assert 0 <= mines <= len(cells), f"{mines} mine(s) among {sorted(cells)}"
        if mines == 0 or mines == len(cells):
            for cell in cells:
                facts[cell] = mines > 0
    return facts


def _revise(
    x: Cell, y: Cell, scope: dict[Cell, frozenset[Cell]], domain: dict[Cell, set[frozenset[Cell]]]
) -> bool:
    """Drop the values of ``x`` that no value of ``y`` agrees with on their shared cells."""
    shared = scope[x] & scope[y]
    kept = {vx for vx in domain[x] if any(vx & shared == vy & shared for vy in domain[y])}
    changed = kept != domain[x]
    domain[x] = kept
    return changed


def _agreed(view: View, *, with_total: bool) -> Facts:
    """The unknown cells that take one value in every assignment fitting the clues.

    Every unknown cell is either seen by a clue (the frontier) or not (the rest). The
    assignments of all the unknown cells are the frontier's assignments that fit every
    constraint, each with any placement of mines on the rest: without the total, any
    placement, so no cell of the rest is ever decided; with it, exactly the mines left after
    the frontier's, so the rest is all mines when that number fills it and all safe when it is
    zero. The frontier's assignments are enumerated outright (``2 ** frontier`` of them).
    """
    constraints = list(view.constraints().values())
    frontier = sorted(set().union(*(cells for cells, _ in constraints)))
    rest = sorted(view.unknown - set(frontier))
    # cell -> the values it takes over the fitting assignments; the numbers of mines left to
    # the rest by them.
    values: dict[Cell, set[bool]] = {cell: set() for cell in frontier}
    rest_mines: set[int] = set()
    fits = 0
    for mined in _fitting(frontier, constraints):
        left = view.mines_left - len(mined)
        if with_total and not 0 <= left <= len(rest):
            continue
        fits += 1
        rest_mines.add(left)
        for cell in frontier:
            values[cell].add(cell in mined)
    assert fits, "no assignment fits the clues"
    facts = {cell: mine for cell, (mine, *others) in values.items() if not others}
    if with_total and rest and len(rest_mines) == 1 and rest_mines <= {0, len(rest)}:
        facts.update(dict.fromkeys(rest, rest_mines == {len(rest)}))
    return facts


def _fitting(cells: list[Cell], constraints: list[Constraint]) -> Iterator[frozenset[Cell]]:
    """Every set of mines among ``cells`` that meets every constraint exactly."""
    for bits in product((False, True), repeat=len(cells)):
        mined = frozenset(cell for cell, bit in zip(cells, bits, strict=True) if bit)
        if all(len(mined & scope) == mines for scope, mines in constraints):
            yield mined
