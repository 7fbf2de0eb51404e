"""Component search: its placements, the backbone, and a cross-check against python-constraint;
both engines on narrowed domains and what they log, and the backbone's step budget (a search
over it hands the component to counting)."""

from __future__ import annotations

import logging
import random
from itertools import product

import pytest
from constraint import ExactSumConstraint, Problem

from mineshafted import ClueCSP, ContradictionError
from mineshafted.board import Board
from mineshafted.solver import ClueVariable
from mineshafted.solver import search as search_module
from mineshafted.solver.search import (
    BacktrackingSearch,
    ConstraintSearch,
    _Budget,
    _OutOfSteps,
    backbone,
    component_placements,
    constraints,
    counted_backbone,
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
        for solution in component_placements(variables, csp.graph)
    }


def test_solutions_of_a_chain() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1)])
    assert mine_sets(csp) == {frozenset({10, 12}), frozenset({11})}


def test_required_cells_restrict_the_solutions() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1)])
    found = list(component_placements(list(csp.variables.values()), csp.graph, require={11: True}))
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
    # Clue 2's domain decides 10 and 13 as mines, which leaves clue 0 and 3 no room.
    csp = build([(0, (10, 11, 12), 1), (1, (11, 12, 13), 1), (2, (10, 13), 2), (3, (11, 12), 1)])
    variables = list(csp.variables.values())
    with pytest.raises(ContradictionError, match="no placement"):
        ConstraintSearch()(variables, csp.graph)
    with pytest.raises(ContradictionError, match="no placement"):
        backbone(variables, csp.graph)


def test_constraints_describe_the_unknown_part() -> None:
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
        if not cells or len(cells) > 11:  # brute force: 2**cells worlds
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
    from mineshafted.solver.search import _first_placement

    none, one = build([(0, (10,), 0)]), build([(1, (10,), 1)])
    clash = [*none.variables.values(), *one.variables.values()]
    assert _first_placement(clash, {10: {1}}) is None


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
    # As for the search: clue 2's domain decides 10 and 13 as mines, leaving clue 3 no room.
    csp = build([(0, (10, 11, 12), 1), (1, (11, 12, 13), 1), (2, (10, 13), 2), (3, (11, 12), 1)])
    with pytest.raises(ContradictionError, match="no placement"):
        counted_backbone(list(csp.variables.values()))


# Both engines on narrowed domains, and what they log.
def narrowed() -> ClueCSP:
    """Clue 0 over (10, 11, 12) with its domain cut by hand to "11 is the mine": every scope
    cell decided, none decided; clue 1 over (12, 13) holds one mine."""
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


def test_a_constraint_counts_the_mines_among_unknown_cells_only() -> None:
    v = ClueVariable(4, (2, 5, 8, 9), 2)
    v.domain = [0b0011, 0b0101]  # 2 a mine and 9 safe everywhere; one mine between 5 and 8
    assert v.constraint() == ((5, 8), 1)
    v.domain = [0b1010, 0b1100]  # 2 safe and 9 a mine everywhere
    assert v.constraint() == ((5, 8), 1)
    w = ClueVariable(4, (2, 5, 8, 9), 3)
    w.domain = [0b1011, 0b1101]  # 2 and 9 mines everywhere
    assert w.constraint() == ((5, 8), 1)


# The backbone's step budget.
@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> list[list[ClueVariable]]:
    """The components handed to :func:`counted_backbone`, as they are counted."""
    calls: list[list[ClueVariable]] = []
    real = search_module.counted_backbone

    def spy(component: list[ClueVariable]) -> dict[int, bool]:
        calls.append(list(component))
        return real(component)

    monkeypatch.setattr(search_module, "counted_backbone", spy)
    return calls


@pytest.mark.parametrize("steps", [0, 1, 3])
def test_a_budget_of_n_steps_allows_n_and_refuses_the_next(steps: int) -> None:
    budget = _Budget(steps)
    for _ in range(steps):
        budget.spend()
    with pytest.raises(_OutOfSteps):
        budget.spend()


def test_a_budget_without_limit_never_runs_out() -> None:
    budget = _Budget(None)
    for _ in range(1000):
        budget.spend()
    assert budget.left is None


def test_a_search_within_its_budget_is_not_counted(counting: list[list[ClueVariable]]) -> None:
    csp = build(THREE_WAY)
    component = list(csp.variables.values())
    assert backbone(component, csp.graph) == {100: True, 101: False}
    assert backbone(component, csp.graph, steps=None) == {100: True, 101: False}
    assert counting == []


@pytest.mark.parametrize("steps", [0, 1])
def test_a_search_over_its_budget_is_counted(
    counting: list[list[ClueVariable]], steps: int
) -> None:
    csp = build(THREE_WAY)
    component = list(csp.variables.values())
    assert backbone(component, csp.graph, steps=steps) == {100: True, 101: False}
    assert counting == [component]


def test_counting_names_the_clues_when_a_domain_is_empty() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1)])
    csp.variables[1].domain = []
    with pytest.raises(ContradictionError) as caught:
        counted_backbone(list(csp.variables.values()))
    assert str(caught.value) == "these clues admit no placement of mines"
    assert caught.value.cells == (0, 1)


def test_counting_names_the_clues_that_admit_no_placement_together() -> None:
    csp = build([(0, (10, 11), 1), (1, (11, 12), 1), (2, (10, 12), 1)])
    with pytest.raises(ContradictionError) as caught:
        counted_backbone(list(csp.variables.values()))
    assert str(caught.value) == "these clues admit no placement of mines"
    assert caught.value.cells == (0, 1, 2)


def test_counting_pins_a_clue_with_one_placement_left() -> None:
    # Clue 0's domain is cut to "11 is the mine": its cells are decided, not reported.
    csp = narrowed()
    assert counted_backbone(list(csp.variables.values())) == {12: False, 13: True}


def test_a_search_over_its_budget_logs_that_it_counts(caplog: pytest.LogCaptureFixture) -> None:
    csp = build(THREE_WAY)
    caplog.set_level(logging.DEBUG, logger="mineshafted.solver.search")
    backbone(list(csp.variables.values()), csp.graph, steps=2)
    assert [r.getMessage() for r in caplog.records] == [
        "component of 3 clue(s): over 2 steps, counting",
        "component of 3 clue(s): 2 cell(s) proven",
    ]
