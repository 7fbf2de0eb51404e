"""AC-3 in the compiled core (the ``revise`` kernel) answers exactly what the plain loop of
:meth:`ClueCSP.propagate` does: the same facts in the same order, the same domains, the same
queue, the same errors, under each core against the plain core."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import core
from mineshafted.errors import ContradictionError
from mineshafted.solver.csp import ClueCSP

pytestmark = pytest.mark.usefixtures("each_core")

Clue = tuple[int, tuple[int, ...], int]
Step = tuple[str, object]


@st.composite
def clues(draw: st.DrawFn, unknown: int = 14, most: int = 8, mines: int = 8) -> list[Clue]:
    """Clues over a pool of ``unknown`` cells (numbered from 100): each a scope of up to
    ``most`` of them and up to ``mines`` mines that fit, so that clues overlap and often
    contradict."""
    found = []
    for cell in range(draw(st.integers(1, 9))):
        scope = draw(st.sets(st.integers(100, 99 + unknown), min_size=1, max_size=most))
        found.append((cell, tuple(sorted(scope)), draw(st.integers(0, min(mines, len(scope))))))
    return found


def snapshot(csp: ClueCSP) -> object:
    """Everything AC-3 may change: each variable's domain, the arcs, the queues, the facts
    drawn and not reported, the variables touched."""
    return (
        {cell: list(var.domain) for cell, var in csp.variables.items()},
        sorted(csp.graph.edges),
        list(csp._fresh),
        list(csp._changed),
        dict(csp._drawn),
        sorted(csp.touched),
    )


def run(build: list[Clue], learnt: list[tuple[int, bool]], until_facts: bool) -> list[Step]:
    """Add the clues one at a time with a propagation after each (stopping at the first
    facts with ``until_facts``, those facts then learnt back with the ``learnt`` ones of their
    cells), and record what each step answered or raised, and the state after it."""
    csp = ClueCSP()
    steps: list[Step] = []
    extra = dict(learnt)

    def record(name: str, action: Callable[[], object]) -> bool:
        try:
            steps.append((name, action()))
        except ContradictionError as error:
            steps.append((name, (str(error), error.cells)))
            steps.append(("state", snapshot(csp)))
            return False
        steps.append(("state", snapshot(csp)))
        return True

    for cell, scope, mines in build:
        if not record("add", lambda: csp.add(cell, scope, mines)):  # noqa: B023  # called at once
            return steps
        if not record("propagate", lambda: csp.propagate(until_facts=until_facts)):
            return steps
        facts = steps[-2][1]
        assert isinstance(facts, list)
        if until_facts and facts:
            csp.learn(facts)
            csp.learn((c, m) for c, m in extra.items() if c not in dict(facts))
            extra.clear()
            if not record("learn", csp.propagate):
                return steps
    return steps


def under_plain(build: list[Clue], learnt: list[tuple[int, bool]], until: bool) -> list[Step]:
    """:func:`run` under the plain core, whichever core runs now."""
    with core.use("plain"):
        return run(build, learnt, until)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    clues(),
    st.lists(st.tuples(st.integers(100, 113), st.booleans()), max_size=4),
    st.booleans(),
)
def test_propagation_decides_and_narrows_as_the_plain_loop(
    build: list[Clue], learnt: list[tuple[int, bool]], until_facts: bool
) -> None:
    assert run(build, learnt, until_facts) == under_plain(build, learnt, until_facts)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(clues(unknown=24, most=19, mines=2), st.booleans())
def test_scopes_wider_than_the_kernel_takes_propagate_as_the_plain_loop(
    build: list[Clue], until_facts: bool
) -> None:
    assert run(build, [], until_facts) == under_plain(build, [], until_facts)


def test_the_kernel_refuses_a_scope_of_17_cells_before_changing_anything() -> None:
    if core.kernels is None:
        pytest.skip("the plain core has no kernel to refuse")
    csp = ClueCSP()
    csp.add(0, range(100, 117), 1)
    csp.add(1, (100, 101), 1)
    before = snapshot(csp)
    called: list[object] = []
    assert core.kernels.revise(1, True, csp.variables, csp._adj[1], called.append) is None
    assert called == []
    assert snapshot(csp) == before


def test_the_kernel_revises_a_fresh_variable_once_against_every_neighbour() -> None:
    if core.kernels is None:
        pytest.skip("the plain core has no kernel to call")
    csp = ClueCSP()
    csp.add(0, (100, 101), 1)
    csp.add(1, (101, 102), 2)  # 101 and 102 mines: clue 0 keeps only 101 a mine
    csp.add(2, (100, 103), 1)
    called: list[object] = []
    assert core.kernels.revise(0, True, csp.variables, csp._adj[0], called.append) is True
    assert called == [csp.variables[0]]  # narrowed once, after every arc out of it
    assert csp.variables[0].domain == [0b10]


def test_clues_sharing_16_cells_the_widest_the_kernel_takes_propagate_as_the_plain_loop() -> None:
    cells = tuple(range(100, 116))
    build = [(0, cells, 1), (1, cells, 1), (2, (*cells[:15], 116), 1), (3, (115, 116), 1)]
    for until_facts in (False, True):
        assert run(build, [(116, True)], until_facts) == under_plain(
            build, [(116, True)], until_facts
        )
