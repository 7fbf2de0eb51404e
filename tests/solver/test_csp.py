"""The clue-domain CSP: domains, arcs, AC-3 on the assignment's worked example, incrementality;
what it marks as touched, the components it hands out, and the cells its contradictions name."""

from __future__ import annotations

import networkx as nx
import pytest

from mineshafted import ClueCSP, ContradictionError
from mineshafted.solver import arrangements, compress
from mineshafted.solver.arcs import Arc, ArcGraph

# The 4x3 sample after exploring from index 0: four clues border cells 2, 5, 8 and 11.
WORKED = [(1, (2, 5), 1), (4, (2, 5, 8), 2), (7, (5, 8, 11), 2), (10, (8, 11), 1)]


def worked_csp() -> ClueCSP:
    csp = ClueCSP()
    for cell, scope, mines in WORKED:
        csp.add(cell, scope, mines)
    return csp


def domains(csp: ClueCSP) -> dict[int, list[list[int]]]:
    return {cell: [var.mines(p) for p in var.domain] for cell, var in csp.variables.items()}


def test_placements_are_every_choice_of_mines() -> None:
    assert arrangements(4, 2) == (3, 5, 6, 9, 10, 12)
    assert arrangements(3, 0) == (0,)
    assert arrangements(3, 3) == (7,)
    assert len(arrangements(8, 4)) == 70


def test_compress_packs_the_masked_bits() -> None:
    table = compress(0b1010, 4)
    assert table[0b1010] == 0b11
    assert table[0b0010] == 0b01
    assert table[0b0101] == 0


def test_worked_example_domains_before_ac3() -> None:
    assert domains(worked_csp()) == {
        1: [[2], [5]],
        4: [[2, 5], [2, 8], [5, 8]],
        7: [[5, 8], [5, 11], [8, 11]],
        10: [[8], [11]],
    }


def test_worked_example_arcs_join_clues_that_share_a_cell() -> None:
    csp = worked_csp()
    assert sorted(csp.graph.edges) == [(1, 4), (1, 7), (4, 7), (4, 10), (7, 10)]
    assert csp.graph.edges[1, 7].shared == {5}
    assert csp.graph.edges[4, 7].shared == {5, 8}


def test_worked_example_ac3_reduces_every_domain_to_the_truth() -> None:
    csp = worked_csp()
    variables = dict(csp.variables)
    decided = csp.propagate()
    assert sorted(decided) == [(2, False), (5, True), (8, True), (11, False)]
    reduced = {cell: [var.mines(p) for p in var.domain] for cell, var in variables.items()}
    assert reduced == {1: [[5]], 4: [[5, 8]], 7: [[5, 8]], 10: [[8]]}
    # Every variable is fully decided, so it has left the CSP and the arc graph.
    assert csp.variables == {} and csp.graph.number_of_nodes() == 0


def test_a_learnt_fact_narrows_only_the_variables_whose_scopes_hold_the_cell() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11, 12), 1)
    csp.add(1, (20, 21), 1)
    csp.take_touched()
    csp.learn([(10, True)])
    assert len(csp.variables[0].domain) == 3  # queued, not yet applied
    csp.apply_facts()
    assert [csp.variables[0].mines(p) for p in csp.variables[0].domain] == [[10]]
    assert [csp.variables[1].mines(p) for p in csp.variables[1].domain] == [[20], [21]]
    assert csp.take_touched() == {0}
    assert sorted(csp.propagate()) == [(11, False), (12, False)]


def test_learning_several_cells_of_a_clue_narrows_it_once() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11, 12, 13), 2)
    csp.learn([(10, True), (11, False)])
    csp.apply_facts()
    assert [csp.variables[0].mines(p) for p in csp.variables[0].domain] == [[10, 12], [10, 13]]
    csp.learn([(12, False), (13, True), (99, True)])  # 99: in no variable's scope
    csp.apply_facts()
    assert csp.variables == {}  # every scope cell decided: retired without a conclusion
    assert csp.propagate() == []


def test_facts_that_no_placement_allows_raise_when_applied() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11, 12), 1)
    csp.learn([(10, True), (11, True)])
    with pytest.raises(ContradictionError, match="no placement"):
        csp.apply_facts()


def test_propagate_until_facts_stops_at_the_first_conclusions() -> None:
    csp = worked_csp()
    first = csp.propagate(until_facts=True)
    assert first and set(first) < {(2, False), (5, True), (8, True), (11, False)}
    # The conclusions are the caller's to report back; the rest of the queue waits.
    csp.learn(first)
    rest = csp.propagate()
    assert sorted(first + rest) == [(2, False), (5, True), (8, True), (11, False)]


def test_an_arc_disappears_when_its_last_shared_cell_is_decided() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11, 12), 1)
    csp.add(1, (11, 12, 13), 1)
    assert csp.graph.edges[0, 1].shared == {11, 12}
    csp.learn([(11, False)])
    csp.apply_facts()
    assert csp.graph.edges[0, 1].shared == {12}
    csp.learn([(12, False)])
    csp.apply_facts()
    assert not csp.graph.has_edge(0, 1)
    assert sorted(csp.propagate()) == [(10, True), (13, True)]


def test_propagation_alone_can_stall() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 1)
    csp.add(1, (11, 12), 1)
    assert csp.propagate() == []
    assert len(csp.variables[0].domain) == 2


def test_ac3_wiping_out_a_domain_raises() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11, 12), 1)
    csp.add(1, (10, 11, 12), 2)  # the same cells, another count: neither decides a cell
    assert csp.variables[0].decided() == (0, 0) and csp.variables[1].decided() == (0, 0)
    with pytest.raises(ContradictionError, match="no placement consistent") as info:
        csp.propagate()
    assert info.value.cells in ((0,), (1,))


def test_two_clues_drawing_opposite_facts_raise() -> None:
    csp = ClueCSP()
    csp.add(0, (10,), 1)  # 10 is a mine
    with pytest.raises(ContradictionError, match="cell 10 is proven both safe and a mine"):
        csp.add(1, (10, 11), 0)  # 10 is safe


def test_learning_the_opposite_of_a_drawn_fact_raises() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 2)
    csp.learn([(10, False)])
    with pytest.raises(ContradictionError, match="both safe and a mine"):
        csp.propagate()


def test_bad_additions_are_refused() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 1)
    with pytest.raises(ValueError, match="already a variable"):
        csp.add(0, (12,), 1)
    with pytest.raises(ValueError, match="cannot fit"):
        csp.add(1, (12,), 2)


def test_a_retired_variable_leaves_the_queue() -> None:
    csp = ClueCSP()
    csp.add(0, (10, 11), 1)
    csp.add(1, (11, 12), 1)
    csp.add(2, (12, 13), 1)
    # All three wait on the AC-3 queue; deciding both cells of 0 retires it before it is popped.
    csp.learn([(10, True), (11, False)])
    assert sorted(csp.propagate()) == [(12, True), (13, False)]
    assert csp.variables == {}


def test_the_arc_graph_is_a_networkx_graph_throughout() -> None:
    csp = worked_csp()
    assert nx.number_connected_components(csp.graph) == 1
    csp.learn([(5, True), (8, True)])
    csp.apply_facts()
    # Only 2 (clues 1 and 4) and 11 (clues 7 and 10) are still shared.
    assert sorted(csp.graph.edges) == [(1, 4), (7, 10)]
    assert sorted(csp.graph.nodes) == [1, 4, 7, 10]
    assert nx.number_connected_components(csp.graph) == 2


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


def test_a_fact_in_no_variables_scope_does_not_stop_the_others() -> None:
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
    csp.add(0, (10, 13), 1)  # first to hold 10; retired once 10 and 13 are decided
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
