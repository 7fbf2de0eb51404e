"""Knowledge: the answers of proving a cell twice, and the cell a contradiction names
(gaps found by mutation testing)."""

from __future__ import annotations

import pytest

from mineshafted import ContradictionError
from mineshafted.solver import CellState, Knowledge


def test_proving_a_cell_safe_again_is_no_news() -> None:
    k = Knowledge(1, 3)
    assert k.prove_safe(1) is True
    assert k.prove_safe(1) is False
    assert k.take_journal() == [1]


def test_proving_an_explored_cell_safe_is_no_news() -> None:
    k = Knowledge(1, 3)
    k.state[2] = CellState.EXPLORED
    assert k.prove_safe(2) is False
    assert k.take_journal() == []


def test_a_mine_proven_safe_names_its_cell() -> None:
    k = Knowledge(2, 2)
    k.prove_mine(3)
    with pytest.raises(ContradictionError) as caught:
        k.prove_safe(3)
    assert caught.value.cells == (3,)


def test_a_safe_cell_proven_a_mine_names_its_cell() -> None:
    k = Knowledge(2, 2)
    k.prove_safe(2)
    with pytest.raises(ContradictionError) as caught:
        k.prove_mine(2)
    assert caught.value.cells == (2,)
