"""The clue CSP: what it marks as touched, which components it hands out, how learnt facts
reach every variable and arc, and the cells its contradictions name (gaps found by mutation
testing)."""

from __future__ import annotations

import pytest

from mineshafted import ContradictionError
from mineshafted.solver import ClueCSP
from mineshafted.solver.arcs import Arc, ArcGraph


def test_new_variables_are_touched_and_retired_ones_are_not() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 1)
    csp.add(1, (11, 12), 1)
    csp.add(2, (20,), 1)  # draws 20 a mine at once
    csp.learn([(20, True)])
    csp.propagate()
    assert 2 not in csp.variables
    assert csp.take_touched() == {0, 1}
    assert csp.take_touched() == set()


def test_a_fact_no_variable_watches_does_not_stop_the_others() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 1)
    csp.learn([(99, True), (10, True)])
    assert csp.propagate() == [(11, False)]


def test_learning_the_opposite_of_a_drawn_fact_names_the_cell() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 0)  # draws 10 and 11 safe
    csp.learn([(10, True)])
    with pytest.raises(ContradictionError) as caught:
        csp.apply_facts()
    assert caught.value.cells == (10,)


def test_drawing_the_opposite_of_a_drawn_fact_names_the_clue() -> None:
    csp = ClueCSP()
    csp.add(0, (10,), 0)
    with pytest.raises(ContradictionError) as caught:
        csp.add(1, (10,), 1)
    assert caught.value.cells == (1,)


def test_a_decided_cell_leaves_the_arcs_of_live_variables_even_after_a_retired_one() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 13), 1)  # first to watch 10; retired once 10 and 13 are decided
    csp.add(1, (10, 11), 1)
    csp.add(2, (10, 12), 1)
    assert csp.graph.has_edge(1, 2)
    csp.learn([(13, False), (10, True)])
    csp.apply_facts()
    assert 0 not in csp.variables
    assert not csp.graph.has_edge(1, 2)  # they shared only 10


def test_components_are_yielded_once_each_and_never_alone() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 1)
    csp.add(1, (11, 12), 1)
    csp.add(5, (30, 31), 1)
    csp.add(6, (31, 32), 1)
    csp.add(9, (40, 41), 1)  # a component of one variable
    found = [[v.cell for v in c] for c in csp.components([99, 0, 5, 1, 6, 9, 0])]
    assert found == [[0, 1], [5, 6]]


def test_an_arc_shows_its_shared_cells_and_masks() -> None:
    assert repr(Arc(1, 1, 2, 2, {8, 7})) == "Arc(shared=[7, 8], masks={1: 1, 2: 2})"


def test_a_new_variable_is_a_node_with_empty_data() -> None:
    graph = ArcGraph()
    graph.add_variable(1)
    assert list(graph.nodes(data=True)) == [(1, {})]
