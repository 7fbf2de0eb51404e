"""Explanations are sound and minimal, judged by brute force over every assignment; the total
is used only when the clues alone do not decide; the technique is the weakest that decides."""

from __future__ import annotations

from functools import cache

import pytest

from mineshafted.solver import Technique
from mineshafted.web import Explanation, UndecidedError, explain

from .conftest import Brute, Cut, cuts

SMALL = [
    cut
    for cut in cuts(400, seed=22, rows=4, cols=5, density=0.2)
    if sum(value is None for row in cut.grid for value in row) <= 12
]


@pytest.mark.slow
def test_the_small_positions_exercise_every_kind_of_explanation() -> None:
    # Guards the brute-force test below against passing on positions that ask nothing hard.
    kinds = {(w.uses_total, len(w.clues) > 1) for w in _every_explanation()}
    assert kinds == {(False, False), (False, True), (True, False), (True, True)}
    assert len(SMALL) >= 150


def test_every_explanation_is_sound_and_minimal_by_brute_force() -> None:
    checked = 0
    for cut, cell, mine, why in _every_decided():
        brute = Brute(cut)
        clues = [tuple(c) for c in why.clues]
        assert why.mine is mine, (cut, cell)
        assert brute.forced(clues, cell, mine=mine, total=why.uses_total), (cut, cell, why)
        for dropped in clues:
            rest = [c for c in clues if c != dropped]
            assert not brute.forced(rest, cell, mine=mine, total=why.uses_total), (
                cut,
                cell,
                why,
                dropped,
            )
        checked += 1
    assert checked >= 300


def test_the_total_is_used_only_when_all_the_clues_alone_do_not_decide() -> None:
    for cut, cell, mine, why in _every_decided():
        brute = Brute(cut)
        alone = brute.forced(brute.clues(), cell, mine=mine, total=False)
        assert why.uses_total is (not alone), (cut, cell)
        assert (why.technique is Technique.TOTAL) is why.uses_total


def test_a_cell_one_clue_decides_is_explained_by_that_clue_alone() -> None:
    for cut, cell, mine, why in _every_decided():
        brute = Brute(cut)
        single = [c for c in brute.clues() if brute.forced([c], cell, mine=mine, total=False)]
        if single:
            assert len(why.clues) == 1 and not why.uses_total, (cut, cell, why)


def test_an_undecided_cell_is_refused_with_its_probability() -> None:
    for cut in SMALL[:40]:
        for cell in Brute(cut).undecided():
            with pytest.raises(UndecidedError, match=r"is not decided by the position"):
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
    with pytest.raises(UndecidedError, match=message):
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


def test_count_is_named_exactly_when_counting_one_clue_at_a_time_decides() -> None:
    for cut, cell, _, why in _every_decided():
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


def test_the_text_names_the_clues_the_cell_and_the_technique() -> None:
    why = explain([[0, 1, -1, None]], 2, (0, 3))
    assert why.clues == () and why.uses_total and why.mine
    assert why.text == (
        "The mine total (2 in all, 1 not yet known) leaves no placement without a mine at (0, 3): "
        f"found by total ({Technique.TOTAL.summary})."
    )
    many = explain([[None, None, None], [1, 1, 1]], 1, (0, 2))
    assert many.text.startswith(f"These {len(many.clues)} clues leave no placement with a mine")


@cache
def _every_decided() -> list[tuple[Cut, tuple[int, int], bool, Explanation]]:
    """Every cell the small positions decide (by brute force), with its explanation."""
    found = []
    for cut in SMALL:
        for cell, mine in Brute(cut).decided().items():
            found.append((cut, cell, mine, explain(cut.grid, cut.mines, cell)))
    return found


def _every_explanation() -> list[Explanation]:
    return [why for _, _, _, why in _every_decided()]
