"""The ladder's rungs: each fast rung decides exactly what its plain rung decides (seeded
positions and hypothesis); the plain rungs are checked by brute force and nest weakest first;
the plain AC-3 reports the assignment's own variables, arcs and revisions; the first rung of a
cell, a cell's proof, and the rating a sweep tells."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from mineshafted import Board
from mineshafted.board import MINE, Cell, Geometry, PartialGrid
from mineshafted.errors import ContradictionError, NoPlacementError
from mineshafted.solver import Technique, plain
from mineshafted.solver.clues import ClueConstraint, Clues, clues_of
from mineshafted.solver.ladder import RUNGS, rating, rung
from mineshafted.solver.proof import first_rung, prove

from . import brute

SOLVING = Technique.solving()


def cut(board: Board, rng: random.Random) -> PartialGrid:
    """What a player might see of ``board``: a few safe cells revealed (a 0 opening its
    neighbours, as in play) and some mines known."""
    geometry, values = board.geometry, board.values
    grid: list[int | None] = [None] * geometry.cells
    table = geometry.neighbour_table()
    safe = [c for c in range(geometry.cells) if values[c] != MINE]
    for start in rng.sample(safe, rng.randint(1, max(1, len(safe) // 2))):
        queue = [start]
        for cell in queue:
            if grid[cell] is None:
                grid[cell] = values[cell]
                if values[cell] == 0:
                    queue.extend(table[cell])
    for cell in board.mines:
        if rng.random() < 0.15:
            grid[cell] = MINE
    cols = geometry.cols
    return [grid[r * cols : (r + 1) * cols] for r in range(geometry.rows)]


def positions(n: int, seed: int, *, rows: int = 5, cols: int = 6) -> list[Clues]:
    """``n`` seeded positions cut from random boards up to ``rows`` x ``cols``."""
    rng = random.Random(seed)
    found = []
    for _ in range(n):
        r, c = rng.randint(2, rows), rng.randint(2, cols)
        board = Board.from_mines(r, c, rng.sample(range(r * c), rng.randint(1, r * c * 3 // 10)))
        found.append(clues_of(cut(board, rng), len(board.mines)))
    return found


@st.composite
def small_positions(draw: st.DrawFn) -> Clues:
    """A position cut from a random board from 2x2 to 5x5."""
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    cells = rows * cols
    mines = draw(st.permutations(range(cells)))[: draw(st.integers(1, cells // 3 + 1))]
    board = Board.from_mines(rows, cols, mines)
    return clues_of(cut(board, random.Random(draw(st.integers(0, 2**32)))), len(board.mines))


SEEDED = positions(1500, seed=27)


# -- fast against plain -----------------------------------------------------------------------


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
@pytest.mark.parametrize("technique", SOLVING, ids=lambda t: t.value)
def test_each_fast_rung_decides_what_its_plain_rung_decides_on_seeded_positions(
    technique: Technique,
) -> None:
    each = rung(technique)
    decided = 0
    for clues in SEEDED:
        fast = each.deduce(clues)
        assert fast == each.deduce(clues, plain=True), clues
        decided += bool(fast)
    assert decided >= 300  # the positions give every rung something to decide


@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_each_fast_rung_decides_what_its_plain_rung_decides(clues: Clues) -> None:
    for each in RUNGS:
        assert each.deduce(clues) == each.deduce(clues, plain=True), each.technique


@pytest.mark.slow
def test_the_seeded_positions_separate_every_rung_from_the_one_below() -> None:
    firsts: Counter[Technique] = Counter()
    for clues in SEEDED:
        for cell in clues.unknown:
            firsts[first_rung(clues, cell, plain=True)] += 1
    assert set(firsts) == {*SOLVING, Technique.GUESS}, firsts


# -- the plain rungs, checked independently ---------------------------------------------------


def small(clues: Clues) -> bool:
    return len(brute.frontier(clues)) <= brute.MOST_CELLS


@pytest.mark.slow
def test_plain_complete_and_total_decide_what_brute_force_decides() -> None:
    checked = 0
    for clues in filter(small, SEEDED):
        assert plain.complete(clues) == brute.decided(clues, with_total=False), clues
        assert plain.total(clues) == brute.decided(clues, with_total=True), clues
        checked += 1
    assert checked >= 1000


@settings(max_examples=200, deadline=None)
@given(small_positions())
def test_every_plain_rung_is_sound_and_knows_what_the_rungs_below_it_know(clues: Clues) -> None:
    truth = brute.decided(clues, with_total=True) if small(clues) else None
    below: dict[Cell, bool] = {}
    for technique in SOLVING:
        facts = plain.RUNGS[technique](clues)
        event(f"{technique.value} decides {'some' if facts else 'none'}")
        assert below.items() <= facts.items(), technique
        if truth is not None:
            assert facts.items() <= truth.items(), technique
        below = facts


def test_a_rung_refuses_clues_that_contradict_each_other() -> None:
    clash = Clues((ClueConstraint(0, (1, 2), 1), ClueConstraint(3, (1, 2), 2)), (1, 2), 1)
    for each in RUNGS:
        with pytest.raises(ContradictionError):
            each.deduce(clash, plain=True)
        with pytest.raises((ContradictionError, NoPlacementError)):  # the fast total's
            each.deduce(clash)


def test_total_needs_the_mines_left_and_guess_is_no_rung() -> None:
    clues = clues_of([[1, None]])
    for form in (True, False):
        with pytest.raises(ValueError) as refused:
            rung(Technique.TOTAL).deduce(clues, plain=form)
        assert str(refused.value) == "the rung 'total' needs the mine total"
    with pytest.raises(ValueError) as refused:
        rung(Technique.GUESS)
    assert str(refused.value) == "'guess' is no rung of the ladder: it is what no rung decides"


def test_the_fast_count_names_the_clue_that_cannot_hold() -> None:
    clash = Clues((ClueConstraint(0, (1, 2), 1), ClueConstraint(3, (1, 2), 2)), (1, 2), 1)
    with pytest.raises(ContradictionError) as refused:
        rung(Technique.COUNT).deduce(clash)
    assert str(refused.value) == "the clue at cell 0 cannot hold"
    assert refused.value.cells == (0,)


def test_clues_reduced_by_facts_keep_their_cells_the_unknown_cells_and_the_mines_left() -> None:
    clues = Clues(
        (ClueConstraint(0, (1, 2, 3), 2), ClueConstraint(4, (3, 5), 1)), (1, 2, 3, 5, 6), 3
    )
    reduced = clues.reduced({1: True, 3: False})
    assert reduced == Clues((ClueConstraint(0, (2,), 1), ClueConstraint(4, (5,), 1)), (2, 5, 6), 2)
    assert clues.reduced({}) is clues
    assert Clues(clues.constraints, clues.unknown).reduced({1: True}).mines_left is None
    with pytest.raises(ContradictionError) as refused:
        clues.reduced({3: False, 5: False})
    assert str(refused.value) == "the clue at cell 4 cannot hold"
    assert refused.value.cells == (4,)


# -- the plain AC-3, as the assignment tells it -----------------------------------------------

SAMPLE_SEEN = [[0, 1, None], [0, 2, None], [0, 2, None], [0, 1, None]]
"""The assignment's 4x3 sample after exploring from index 0: clues 1, 4, 7, 10 border 2, 5,
8, 11."""


def notation(value: frozenset[Cell], cells: tuple[Cell, ...]) -> tuple[int, ...]:
    """A value in the assignment's notation: each scope index, negative when safe."""
    return tuple(cell if cell in value else -cell for cell in cells)


class Trace(plain.Observer):
    """Everything the plain AC-3 reports, in the assignment's notation."""

    def __init__(self, clues: Clues) -> None:
        self.scope = {clue.cell: tuple(sorted(clue.cells)) for clue in clues.constraints}
        self.events: list[tuple[object, ...]] = []

    def started(self, domains: dict[Cell, set[plain.Arrangement]], arcs: list[plain.Arc]) -> None:
        shown = {x: sorted(notation(v, self.scope[x]) for v in d) for x, d in domains.items()}
        self.events.append(("started", shown, list(arcs)))

    def revised(
        self, arc: plain.Arc, removed: set[plain.Arrangement], requeued: list[plain.Arc]
    ) -> None:
        gone = sorted(notation(v, self.scope[arc[0]]) for v in removed)
        self.events.append(("revised", arc, gone, list(requeued)))

    def finished(
        self, domains: dict[Cell, set[plain.Arrangement]], facts: dict[Cell, bool]
    ) -> None:
        self.events.append(("finished", dict(sorted(facts.items()))))


def test_the_plain_ac3_shows_the_assignments_variables_domains_and_arcs() -> None:
    clues = clues_of(SAMPLE_SEEN)
    trace = Trace(clues)
    plain.ac3(clues, trace)
    kind, domains, arcs = trace.events[0]
    assert kind == "started"
    assert domains == {
        1: [(-2, 5), (2, -5)],
        4: [(-2, 5, 8), (2, -5, 8), (2, 5, -8)],
        7: [(-5, 8, 11), (5, -8, 11), (5, 8, -11)],
        10: [(-8, 11), (8, -11)],
    }
    assert arcs == [
        (1, 4),
        (4, 1),
        (1, 7),
        (7, 1),
        (4, 7),
        (7, 4),
        (4, 10),
        (10, 4),
        (7, 10),
        (10, 7),
    ]


def test_the_plain_ac3_removes_what_the_assignment_removes_and_ends_with_its_facts() -> None:
    clues = clues_of(SAMPLE_SEEN)
    trace = Trace(clues)
    facts = plain.ac3(clues, trace)
    removed = {(e[1][0], v) for e in trace.events if e[0] == "revised" for v in e[2]}
    assert (4, (2, 5, -8)) in removed and (7, (-5, 8, 11)) in removed
    arcs = trace.events[0][2]
    queue = list(arcs)
    for _, (x, y), gone, requeued in (e for e in trace.events if e[0] == "revised"):
        assert queue.pop(0) == (x, y)
        # Put back exactly when x shrank: every arc into x, the one from y too, but those
        # already on the queue.
        into = [(z, w) for z, w in arcs if w == x and (z, w) not in queue]
        assert requeued == (into if gone else [])
        queue += requeued
    assert queue == []
    assert trace.events[-1] == ("finished", {2: False, 5: True, 8: True, 11: False})
    assert facts == {2: False, 5: True, 8: True, 11: False}


def test_the_plain_ac3_without_an_observer_decides_the_same() -> None:
    for clues in SEEDED[:200]:
        assert plain.ac3(clues) == plain.ac3(clues, plain.Observer())


# -- the questions ----------------------------------------------------------------------------


def first_by_climbing(clues: Clues, cell: Cell) -> Technique:
    """The first rung whose plain form, over all the clues, decides ``cell``."""
    for technique in SOLVING:
        if cell in plain.RUNGS[technique](clues):
            return technique
    return Technique.GUESS


@pytest.mark.slow
def test_the_first_rung_of_a_cell_is_the_first_whose_plain_form_decides_it() -> None:
    for clues in SEEDED[:600]:
        for cell in clues.unknown:
            assert first_rung(clues, cell) is first_by_climbing(clues, cell), (clues, cell)


@pytest.mark.slow
def test_a_proof_names_the_first_rung_and_clues_enough_for_it_and_no_fewer() -> None:
    proven = 0
    for clues in SEEDED[:600]:
        for cell, mine in plain.total(clues).items():
            proof = prove(clues, cell)
            assert (proof.cell, proof.mine) == (cell, mine)
            assert proof.technique is first_by_climbing(clues, cell)
            deduce = plain.RUNGS[proof.technique]
            assert deduce(clues.only(proof.clues)).get(cell) is mine, (clues, proof)
            for dropped in proof.clues:
                rest = [c for c in proof.clues if c is not dropped]
                assert cell not in deduce(clues.only(rest)), (clues, proof, dropped)
            proven += 1
    assert proven >= 1000


def test_without_the_mines_left_the_ladder_stops_below_total() -> None:
    grid: PartialGrid = [[None, 2, None, None]]  # 0 and 2 are mines; 3 only the total tells
    assert first_rung(clues_of(grid), 0) is Technique.COUNT
    assert first_rung(clues_of(grid), 3) is Technique.GUESS
    assert first_rung(clues_of(grid, mines=2), 3) is Technique.TOTAL


def test_a_cell_one_clue_decides_is_proven_by_that_clue_alone() -> None:
    alone = 0
    for clues in SEEDED[:400]:
        for cell in plain.total(clues):
            single = [
                c
                for c in clues.constraints
                if cell in c.cells and cell in plain.count(clues.only([c]))
            ]
            if single:
                assert len(prove(clues, cell).clues) == 1, (clues, cell)
                alone += 1
    assert alone >= 300


def test_a_cell_no_rung_decides_has_no_proof() -> None:
    with pytest.raises(ValueError, match="no rung decides cell 3"):
        prove(clues_of([[1, None], [None, None]], 1), 3)


@pytest.mark.parametrize(
    ("used", "climbed", "expected"),
    [
        ([Technique.COUNT], [], Technique.COUNT),
        ([Technique.COUNT, Technique.SUBSET], [Technique.SUBSET], Technique.SUBSET),
        ([Technique.AC3], [Technique.AC3, Technique.COMPLETE], None),
        ([Technique.AC3], SOLVING[1:], Technique.AC3),
        (
            [Technique.COMPLETE, Technique.AC3],
            [Technique.AC3, Technique.COMPLETE],
            Technique.COMPLETE,
        ),
        ([Technique.TOTAL], [Technique.AC3, Technique.COMPLETE, Technique.TOTAL], Technique.TOTAL),
        ([], [], Technique.COUNT),
    ],
)
def test_a_sweep_tells_the_rating_unless_it_skipped_the_rung_below_the_strongest(
    used: list[Technique], climbed: list[Technique], expected: Technique | None
) -> None:
    assert rating(used, climbed) is expected


def test_the_clue_constraints_of_a_grid_come_from_one_builder() -> None:
    grid: PartialGrid = [[1, None, -1], [None, 2, None]]
    clues = clues_of(grid, mines=2)
    assert clues.constraints == (
        ClueConstraint(0, (1, 3), 1),
        ClueConstraint(4, (1, 3, 5), 1),
    )
    assert (clues.unknown, clues.mines_left) == ((1, 3, 5), 1)
    geometry = Geometry(2, 3)
    assert all(set(c.cells) <= set(geometry.neighbours(c.cell)) for c in clues.constraints)
