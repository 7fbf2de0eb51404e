"""Component search: its solutions, the backbone, and a cross-check against python-constraint."""

from __future__ import annotations

import random
from itertools import product

import pytest
from constraint import ExactSumConstraint, Problem

from mineshafted import ClueCSP, ContradictionError
from mineshafted.board import Board
from mineshafted.solver.search import (
    ConstraintSearch,
    backbone,
    constraints,
    counted_backbone,
    solutions,
)

# Three clues that are pairwise consistent but together prove 100 a mine and 101 safe.
THREE_WAY = [(0, (101, 102, 104), 1), (1, (100, 104, 105), 2), (2, (100, 101), 1)]


def build(constraints: list[tuple[int, tuple[int, ...], int]]) -> ClueCSP:
    csp = ClueCSP()
    for cell, scope, mines in constraints:
        csp.add(cell, scope, mines)
    return csp


def mine_sets(csp: ClueCSP) -> set[frozenset[int]]:
    variables = list(csp.variables.values())
    return {
        frozenset(c for var in variables for c in var.mines(solution[var.cell]))
        for solution in solutions(variables, csp.graph)
    }


def test_solutions_of_a_chain() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1)])
    assert mine_sets(csp) == {frozenset({10, 12}), frozenset({11})}


def test_required_cells_restrict_the_solutions() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1)])
    found = list(solutions(list(csp.variables.values()), csp.graph, require={11: True}))
    assert found == [{0: 0b10, 1: 0b01}]


def test_search_proves_what_arc_consistency_cannot() -> None:
    csp = build(THREE_WAY)
    assert csp.propagate() == []
    (component,) = csp.components(csp.variables)
    assert backbone(component, csp.graph) == {100: True, 101: False}
    assert ConstraintSearch()(component, csp.graph) == {100: True, 101: False}


# Three clues around an odd cycle: each pair agrees, all three cannot (2(a+b+c) = 3).
ODD_CYCLE = [(0, (10, 11), 1), (1, (11, 12), 1), (2, (10, 12), 1)]


def test_backbone_of_a_component_that_only_jointly_fails_raises() -> None:
    csp = build(ODD_CYCLE)
    assert csp.propagate() == []  # arc consistent: AC-3 sees nothing wrong
    (component,) = csp.components(csp.variables)
    with pytest.raises(ContradictionError, match="no placement"):
        backbone(component, csp.graph)


def test_constraint_search_of_a_component_that_only_jointly_fails_raises() -> None:
    csp = build(ODD_CYCLE)
    assert csp.propagate() == []
    (component,) = csp.components(csp.variables)
    with pytest.raises(ContradictionError, match="no placement"):
        ConstraintSearch()(component, csp.graph)


def test_constraint_search_keeps_cells_a_domain_settles() -> None:
    # Clue 2's domain settles 10 and 13 as mines, which leaves clue 0 and 3 no room.
    csp = build([(0, (10, 11, 12), 1), (1, (11, 12, 13), 1), (2, (10, 13), 2), (3, (11, 12), 1)])
    variables = list(csp.variables.values())
    with pytest.raises(ContradictionError, match="no placement"):
        ConstraintSearch()(variables, csp.graph)
    with pytest.raises(ContradictionError, match="no placement"):
        backbone(variables, csp.graph)


def test_constraints_describe_the_undecided_part() -> None:
    csp = build([(0, (10, 11, 12), 2)])
    csp.learn([(10, True)])
    csp.apply_facts()
    assert constraints(list(csp.variables.values())) == [((11, 12), 1)]


def random_frontier(rng: random.Random) -> list[tuple[int, tuple[int, ...], int]]:
    """The clues around a random explored patch of a random board, as CSP constraints."""
    rows, cols = rng.randint(3, 7), rng.randint(3, 7)
    cells = rows * cols
    board = Board.from_mines(rows, cols, rng.sample(range(cells), rng.randint(1, cells // 2)))
    safe = [c for c, v in enumerate(board.values) if v >= 0]
    explored = set(rng.sample(safe, rng.randint(1, len(safe))))
    table = board.geometry.neighbour_table()
    constraints = []
    for cell in sorted(explored):
        scope = tuple(n for n in table[cell] if n not in explored)
        if scope:
            constraints.append((cell, scope, sum(board.values[n] == -1 for n in scope)))
    return constraints


@pytest.mark.parametrize("seed", range(60))
def test_component_search_matches_python_constraint(seed: int) -> None:
    constraints = random_frontier(random.Random(seed))
    ours = mine_sets(build(constraints))

    problem = Problem()
    cells = sorted({c for _, scope, _ in constraints for c in scope})
    if not cells:
        assert ours == {frozenset()}
        return
    problem.addVariables(cells, [0, 1])
    for _, scope, mines in constraints:
        problem.addConstraint(ExactSumConstraint(mines), list(scope))
    theirs = {frozenset(c for c, v in s.items() if v) for s in problem.getSolutions()}
    assert ours == theirs and ours


def test_backbone_matches_brute_force_on_random_frontiers() -> None:
    rng = random.Random(2024)
    checked = 0
    for _ in range(200):
        constraints = random_frontier(rng)
        csp = build(constraints)
        cells = sorted({c for _, scope, _ in constraints for c in scope})
        if not cells or len(cells) > 14:
            continue
        worlds = [
            dict(zip(cells, bits, strict=True))
            for bits in product((False, True), repeat=len(cells))
            if all(sum(bits[cells.index(c)] for c in scope) == m for _, scope, m in constraints)
        ]
        expected = {c: worlds[0][c] for c in cells if len({w[c] for w in worlds}) == 1}
        proven = dict(csp.propagate())
        for component in csp.components(list(csp.variables)):
            proven.update(backbone(component, csp.graph))
        # Singletons left in the CSP hold no cell beyond what propagation proved.
        assert proven == expected
        checked += 1
    assert checked > 100


# A chain of 23 overlapping clues, one mine each: many solutions when enumerated, a few
# first-solution searches when asked the backbone's questions.
LADDER = [(i, (100 + 3 * i, 101 + 3 * i, 102 + 3 * i), 1) for i in range(12)] + [
    (50 + i, (102 + 3 * i, 103 + 3 * i), 1) for i in range(11)
]


def test_constraint_search_asks_for_one_solution_per_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    csp = build(LADDER)
    csp.propagate()
    (component,) = csp.components(csp.variables)
    calls: list[int] = []
    first = Problem.getSolution

    def counted(self: Problem) -> object:
        calls.append(1)
        return first(self)

    def enumerate_all(self: Problem) -> object:
        raise AssertionError("every solution enumerated")

    monkeypatch.setattr(Problem, "getSolution", counted)
    monkeypatch.setattr(Problem, "getSolutions", enumerate_all)
    monkeypatch.setattr(Problem, "getSolutionIter", enumerate_all)
    proven = ConstraintSearch()(component, csp.graph)
    assert proven == backbone(component, csp.graph)
    cells = {c for var in component for c in var.scope}
    assert 1 <= len(calls) <= 1 + len(cells)


def test_python_constraint_value_error_on_a_clash_means_no_solution() -> None:
    # python-constraint2 2.9: a sum of 0 empties the pinned cell's domain, and the next
    # ExactSumConstraint's preprocessing raises ValueError instead of finding no solution.
    from mineshafted.solver.search import _first_solution

    none, one = build([(0, (10,), 0)]), build([(1, (10,), 1)])
    clash = [*none.variables.values(), *one.variables.values()]
    assert _first_solution(clash, {10: {1}}) is None


@pytest.mark.parametrize("steps", [0, 5])
def test_a_search_over_its_budget_counts_the_same_backbone(steps: int) -> None:
    rng = random.Random(77)
    compared = 0
    for _ in range(300):
        csp = build(random_frontier(rng))
        csp.propagate()
        for component in csp.components(list(csp.variables)):
            searched = backbone(component, csp.graph, steps=None)
            assert backbone(component, csp.graph, steps=steps) == searched
            assert counted_backbone(component) == searched
            compared += 1
    assert compared > 80


def test_counting_finds_a_contradiction_that_only_the_clues_together_show() -> None:
    csp = build(ODD_CYCLE)
    assert csp.propagate() == []
    (component,) = csp.components(csp.variables)
    with pytest.raises(ContradictionError, match="no placement"):
        counted_backbone(component)
    with pytest.raises(ContradictionError, match="no placement"):
        backbone(component, csp.graph, steps=0)


def test_counting_keeps_cells_a_domain_settles() -> None:
    # As for the search: clue 2's domain settles 10 and 13 as mines, leaving clue 3 no room.
    csp = build([(0, (10, 11, 12), 1), (1, (11, 12, 13), 1), (2, (10, 13), 2), (3, (11, 12), 1)])
    with pytest.raises(ContradictionError, match="no placement"):
        counted_backbone(list(csp.variables.values()))
