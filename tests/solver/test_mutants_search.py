"""Component search: the python-constraint engine answers exactly as the default on narrowed
domains, both log what they proved, and a clue's constraint counts only its undecided cells
(gaps found by mutation testing)."""

from __future__ import annotations

import logging
import random

import pytest

from mineshafted import ContradictionError
from mineshafted.solver import ClueCSP, ClueVariable
from mineshafted.solver.search import BacktrackingSearch, ConstraintSearch, backbone

from .test_search import build, random_frontier


def narrowed() -> ClueCSP:
    """Clue 0 over (10, 11, 12) with its domain cut by hand to "11 is the mine": every scope
    cell settled, none decided; clue 1 over (12, 13) holds one mine."""
    csp = build([(0, (10, 11, 12), 1), (1, (12, 13), 1)])
    csp.variables[0].domain = [0b010]
    return csp


@pytest.mark.parametrize("engine", [BacktrackingSearch(), ConstraintSearch()])
def test_cells_a_domain_settles_are_pinned_and_not_reported(engine: object) -> None:
    csp = narrowed()
    component = list(csp.variables.values())
    assert engine(component, csp.graph) == {12: False, 13: True}  # type: ignore[operator]


def test_an_empty_domain_is_no_solution_for_python_constraint() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1)])
    csp.variables[1].domain = []
    with pytest.raises(ContradictionError) as caught:
        ConstraintSearch()(list(csp.variables.values()), csp.graph)
    assert str(caught.value) == "these clues admit no placement of mines"
    assert caught.value.cells == (0, 1)


def test_backbone_names_the_clues_of_a_component_without_solution() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1), (2, (10, 12), 1)])
    with pytest.raises(ContradictionError) as caught:
        backbone(list(csp.variables.values()), csp.graph)
    assert str(caught.value) == "these clues admit no placement of mines"
    assert caught.value.cells == (0, 1, 2)


@pytest.mark.parametrize("mines", [1, 2])
def test_python_constraint_tries_each_cell_the_other_way(mines: int) -> None:
    # Any cell of the three may be a mine or safe: each is flipped, from a mine or to one.
    csp = build([(0, (10, 11, 12), mines)])
    assert ConstraintSearch()(list(csp.variables.values()), csp.graph) == {}


@pytest.mark.parametrize("seed", range(40))
def test_both_engines_agree_after_propagation(seed: int) -> None:
    csp = build(random_frontier(random.Random(seed)))
    csp.propagate()
    for component in csp.components(list(csp.variables)):
        assert ConstraintSearch()(component, csp.graph) == backbone(component, csp.graph)


@pytest.mark.parametrize("engine", [BacktrackingSearch(), ConstraintSearch()])
def test_each_engine_logs_what_it_proved(engine: object, caplog: pytest.LogCaptureFixture) -> None:
    csp = build([(0, (101, 102, 104), 1), (1, (100, 104, 105), 2), (2, (100, 101), 1)])
    caplog.set_level(logging.DEBUG, logger="mineshafted.solver.search")
    engine(list(csp.variables.values()), csp.graph)  # type: ignore[operator]
    assert [r.getMessage() for r in caplog.records] == ["component of 3 clue(s): 2 cell(s) proven"]


def test_a_constraint_counts_the_mines_among_undecided_cells_only() -> None:
    v = ClueVariable(4, (2, 5, 8, 9), 2)
    v.domain = [0b0011, 0b0101]  # 2 a mine and 9 safe everywhere; one mine between 5 and 8
    assert v.constraint() == ((5, 8), 1)
    v.domain = [0b1010, 0b1100]  # 2 safe and 9 a mine everywhere
    assert v.constraint() == ((5, 8), 1)
    w = ClueVariable(4, (2, 5, 8, 9), 3)
    w.domain = [0b1011, 0b1101]  # 2 and 9 mines everywhere
    assert w.constraint() == ((5, 8), 1)
