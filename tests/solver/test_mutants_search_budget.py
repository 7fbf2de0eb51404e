"""The backbone's step budget: a budget of n placements allows n, a search over it hands the
component to counting and one within it does not, and counting names the clues it cannot place
(gaps found by mutation testing of ``backbone``, ``_Budget``, ``counted_backbone``)."""

from __future__ import annotations

import logging

import pytest

from mineshafted import ContradictionError
from mineshafted.solver import ClueVariable
from mineshafted.solver import search as search_module
from mineshafted.solver.search import _Budget, _OutOfSteps, backbone, counted_backbone

from .test_search import THREE_WAY, build


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
    # Clue 0's domain is cut to "11 is the mine": its cells are settled, not reported.
    csp = build([(0, (10, 11, 12), 1), (1, (12, 13), 1)])
    csp.variables[0].domain = [0b010]
    assert counted_backbone(list(csp.variables.values())) == {12: False, 13: True}


def test_a_search_over_its_budget_logs_that_it_counts(caplog: pytest.LogCaptureFixture) -> None:
    csp = build(THREE_WAY)
    caplog.set_level(logging.DEBUG, logger="mineshafted.solver.search")
    backbone(list(csp.variables.values()), csp.graph, steps=2)
    assert [r.getMessage() for r in caplog.records] == [
        "component of 3 clue(s): over 2 steps, counting",
        "component of 3 clue(s): 2 cell(s) proven",
    ]
