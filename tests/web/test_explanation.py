"""Explanations: the technique named is the first rung of the ladder that decides the cell
(judged by the plain rungs, on hundreds of seeded stalls), the clues are enough for that rung
alone and minimal for it, and they force the cell (judged by brute force over every
assignment); the total is used only when the clues alone do not decide."""

from __future__ import annotations

import random
from functools import cache

import pytest

from mineshafted import Board, BoardManager, Sweep
from mineshafted.board import Cell
from mineshafted.solver import Technique, plain
from mineshafted.solver.clues import Clues, clues_of
from mineshafted.web import Explanation, NotDecidedError, explain

from .conftest import Brute, Cut, cuts

SMALL = [
    cut
    for cut in cuts(400, seed=22, rows=4, cols=5, density=0.2)
    if sum(value is None for row in cut.grid for value in row) <= 12
]

SAMPLES = [
    pytest.param(50, id="50-positions"),
    pytest.param(len(SMALL), id="all", marks=pytest.mark.slow),
]
"""The small positions a brute-force check reads: the first 50 in the inner loop (a tenth to
a quarter of a second a test here), every one (240) in the slow set."""


@pytest.mark.slow
def test_the_small_positions_exercise_every_kind_of_explanation() -> None:
    # Guards the brute-force test below against passing on positions that ask nothing hard.
    kinds = {(w.uses_total, len(w.clues) > 1) for w in _every_explanation()}
    assert kinds == {(False, False), (False, True), (True, False), (True, True)}
    assert len(SMALL) >= 150


@pytest.mark.slow  # over a second
def test_every_explanation_forces_the_cell_by_brute_force() -> None:
    checked = 0
    for cut, cell, mine, why in _every_decided(len(SMALL)):
        brute = Brute(cut)
        clues = brute.clues() if why.border else [tuple(c) for c in why.clues]
        assert why.mine is mine, (cut, cell)
        assert brute.forced(clues, cell, mine=mine, total=why.uses_total), (cut, cell, why)
        checked += 1
    assert checked >= 300


@pytest.mark.parametrize("positions", SAMPLES)
def test_every_explanations_clues_are_enough_for_its_technique_and_minimal(positions: int) -> None:
    for cut, cell, mine, why in _every_decided(positions):
        if why.border:  # it rests on every clue of the border besides those it names
            continue
        assert rung_decides(cut, why, why.clues, cell) is mine, (cut, cell, why)
        for dropped in why.clues:
            rest = [c for c in why.clues if c != dropped]
            assert rung_decides(cut, why, rest, cell) is None, (cut, cell, why, dropped)


def rung_decides(
    cut: Cut,
    why: Explanation,
    chosen: tuple[tuple[int, int], ...] | list[tuple[int, int]],
    cell: tuple[int, int],
) -> bool | None:
    """What the plain rung ``why`` names decides of ``cell`` from the ``chosen`` clues alone
    (and, for ``total``, the unknown cells and the mines left): ``None`` if nothing."""
    clues = clues_of(cut.grid, cut.mines)
    cols = len(cut.grid[0])
    cells = {r * cols + c for r, c in chosen}
    alone = clues.only(clue for clue in clues.constraints if clue.cell in cells)
    return plain.RUNGS[why.technique](alone).get(cell[0] * cols + cell[1])


def first_rung(clues: Clues, cell: Cell) -> Technique:
    """The first rung whose plain form, over all the clues, decides ``cell``."""
    return next((t for t in Technique.solving() if cell in plain.RUNGS[t](clues)), Technique.GUESS)


def stalls(count: int, seed: int) -> list[Cut]:
    """``count`` seeded stalls: a random board (9x9, 12x12 or 16x16, 12% to 20% mines) swept
    from a 0 up to a rung below ``total``, where it stalled with cells a stronger rung decides."""
    rng = random.Random(seed)
    found: list[Cut] = []
    while len(found) < count:
        rows = cols = rng.choice([9, 12, 16])
        cells = rows * cols
        mines = rng.sample(range(cells), int(cells * rng.uniform(0.12, 0.2)))
        board = Board.from_mines(rows, cols, mines)
        zeros = [c for c in range(cells) if board.values[c] == 0]
        if not zeros:
            continue
        technique = rng.choice(Technique.solving()[:4])
        sweep = Sweep(BoardManager(board), start=rng.choice(zeros), technique=technique)
        report = sweep.run()
        grid = report.board
        decided = plain.total(clues_of(grid, len(board.mines))) if not report.solved else {}
        if decided:
            found.append(Cut(grid, len(board.mines)))
    return found


@pytest.mark.slow
def test_on_hundreds_of_stalls_the_technique_is_the_first_rung_and_the_clues_enough_for_it() -> (
    None
):
    # A stall has no cell that count decides (every sweep counts), and complete is rare on
    # random boards: positions cut at random from 6x7 boards reach both.
    named: set[Technique] = set()
    for cut in stalls(300, seed=29) + list(cuts(300, seed=31, rows=6, cols=7, density=0.2)):
        clues = clues_of(cut.grid, cut.mines)
        cols = len(cut.grid[0])
        for cell, mine in plain.total(clues).items():
            why = explain(cut.grid, cut.mines, divmod(cell, cols))
            assert why.mine is mine
            assert why.technique is first_rung(clues, cell), (cut, cell, why)
            assert not why.border, "no stall's total argument needs more than NAMED clues"
            assert rung_decides(cut, why, why.clues, divmod(cell, cols)) is mine, (cut, cell, why)
            named.add(why.technique)
    assert named == set(Technique.solving())


@pytest.mark.parametrize("positions", SAMPLES)
def test_the_total_is_used_only_when_all_the_clues_alone_do_not_decide(positions: int) -> None:
    for cut, cell, mine, why in _every_decided(positions):
        brute = Brute(cut)
        alone = brute.forced(brute.clues(), cell, mine=mine, total=False)
        assert why.uses_total is (not alone), (cut, cell)
        assert (why.technique is Technique.TOTAL) is why.uses_total


@pytest.mark.parametrize("positions", SAMPLES)
def test_a_cell_one_clue_decides_is_explained_by_that_clue_alone(positions: int) -> None:
    for cut, cell, mine, why in _every_decided(positions):
        brute = Brute(cut)
        single = [c for c in brute.clues() if brute.forced([c], cell, mine=mine, total=False)]
        if single:
            assert len(why.clues) == 1 and not why.uses_total, (cut, cell, why)


def test_a_cell_not_decided_is_refused_with_its_probability() -> None:
    for cut in SMALL[:40]:
        for cell in Brute(cut).not_decided():
            with pytest.raises(NotDecidedError, match=r"is not decided by the position"):
                explain(cut.grid, cut.mines, cell)


@pytest.mark.parametrize(
    ("grid", "cell", "message"),
    [
        ([[1, None]], (0, 0), r"\(0, 0\) is a revealed clue \(1\), not an unknown cell"),
        ([[-1, 1]], (0, 0), r"\(0, 0\) is a known mine, not an unknown cell"),
        ([[1, None]], (0, 2), r"\(0, 2\) is off the 1x2 board"),
        ([[1, None]], (-1, 0), r"\(-1, 0\) is off the 1x2 board"),
    ],
)
def test_a_cell_that_is_not_an_unknown_cell_is_refused(
    grid: list[list[int | None]], cell: tuple[int, int], message: str
) -> None:
    with pytest.raises(NotDecidedError, match=message):
        explain(grid, 1, cell)


@pytest.mark.parametrize(
    ("grid", "mines", "cell", "technique"),
    [
        # One clue with as many mines as unknown neighbours.
        ([[None, 2, None]], 2, (0, 0), Technique.COUNT),
        # {a, b} holds one mine and {a, b, c} one: c is safe (a difference of constraints).
        ([[None, None, None], [1, 1, 1]], 1, (0, 2), Technique.SUBSET),
        # {00, 10, 20} holds 2 once (0, 1) is known, {10, 20, 30} holds 1: no constraint lies
        # within another, but the arrangements of the two agree only with (0, 0) a mine.
        (
            [[None, None, 1, 0], [None, 3, 1, 0], [None, 2, 1, 1], [None, None, -1, None]],
            4,
            (0, 0),
            Technique.AC3,
        ),
        # Five clues together, and no arc between two of them, decide (0, 0).
        (
            [[None, None, None, None], [None, 3, 2, 1], [2, -1, None, None], [None, 3, None, 2]],
            4,
            (0, 0),
            Technique.COMPLETE,
        ),
        # A mine walled in by mines: only the total tells.
        ([[0, 1, -1, None]], 2, (0, 3), Technique.TOTAL),
    ],
)
def test_the_technique_is_the_weakest_that_decides_the_cell(
    grid: list[list[int | None]], mines: int, cell: tuple[int, int], technique: Technique
) -> None:
    assert explain(grid, mines, cell).technique is technique


@pytest.mark.parametrize("positions", SAMPLES)
def test_count_is_named_exactly_when_counting_one_clue_at_a_time_decides(positions: int) -> None:
    for cut, cell, _, why in _every_decided(positions):
        brute = Brute(cut)
        masks = [brute.clue(r, c) for r, c in brute.clues()]
        mined = safe = 0
        changed = True
        while changed:  # one clue at a time, to a fixed point
            changed = False
            for mask, need in masks:
                open_cells = mask & ~(mined | safe)
                left = need - (mask & mined).bit_count()
                if open_cells and left == 0:
                    safe |= open_cells
                    changed = True
                elif open_cells and left == open_cells.bit_count():
                    mined |= open_cells
                    changed = True
        bit = brute.bit[cell[0] * brute.cols + cell[1]]
        assert (why.technique is Technique.COUNT) is bool((mined | safe) & bit), (cut, cell)


@cache
@cache  # explained once for the tests that read them (about 1,400 cells: half a second)
def _every_decided(positions: int) -> tuple[tuple[Cut, tuple[int, int], bool, Explanation], ...]:
    """Every cell the first ``positions`` small positions decide, by brute force, with its
    explanation."""
    found = []
    for cut in SMALL[:positions]:
        for cell, mine in Brute(cut).decided().items():
            found.append((cut, cell, mine, explain(cut.grid, cut.mines, cell)))
    return tuple(found)


def _every_explanation() -> list[Explanation]:
    return [why for _, _, _, why in _every_decided(len(SMALL))]
