"""AC-3's requeue rule: the assignment's (every arc into the narrowed variable, the one from the
other end too) and the textbook's (all but that one) reach the same domains; the assignment's
revises the arc back again where the textbook's does not; either way the queue is a set."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from mineshafted.board import Cell
from mineshafted.solver import plain
from mineshafted.solver.clues import ClueConstraint, Clues, clues_of
from mineshafted.solver.ladder import rung
from mineshafted.solver.technique import Technique

from .test_ladder import SEEDED, small_positions

WRITTEN = clues_of([[None, None, None], [1, 1, None]])
"""Clue 3 sees cells 0 and 1; clue 4 sees 0, 1, 2 and 5, one mine among them: revising (4, 3)
drops 4's values with its mine on 2 or 5, and the arcs into 4 are (3, 4) alone, which the
assignment's rule puts back and the textbook's does not."""


class Queue(plain.Observer):
    """The queue, followed from what AC-3 reports: every arc revised, in order; the arcs put
    back; the domains at the fixed point."""

    def __init__(self) -> None:
        self.queue: list[plain.Arc] = []
        self.arcs: list[plain.Arc] = []
        self.revised_arcs: list[plain.Arc] = []
        self.twice = False
        """Whether the queue ever held an arc twice."""
        self.domains: dict[Cell, frozenset[plain.Arrangement]] = {}

    def started(self, domains: dict[Cell, set[plain.Arrangement]], arcs: list[plain.Arc]) -> None:
        self.queue, self.arcs = list(arcs), list(arcs)

    def revised(
        self, arc: plain.Arc, removed: set[plain.Arrangement], requeued: list[plain.Arc]
    ) -> None:
        assert self.queue.pop(0) == arc  # first in, first out
        self.revised_arcs.append(arc)
        self.queue += requeued
        self.twice |= len(set(self.queue)) < len(self.queue)

    def finished(self, domains: dict[Cell, set[plain.Arrangement]], facts: plain.Facts) -> None:
        self.domains = {x: frozenset(values) for x, values in domains.items()}


def run(clues: Clues, requeue: plain.Requeue) -> Queue:
    queue = Queue()
    plain.ac3(clues, queue, requeue=requeue)
    return queue


def test_the_assignments_rule_revises_the_arc_back_where_the_textbooks_does_not() -> None:
    assignment, textbook = run(WRITTEN, "assignment"), run(WRITTEN, "textbook")
    assert assignment.arcs == textbook.arcs == [(3, 4), (4, 3)]
    assert textbook.revised_arcs == [(3, 4), (4, 3)]
    assert assignment.revised_arcs == [(3, 4), (4, 3), (3, 4)]
    assert assignment.domains == textbook.domains
    assert assignment.domains[4] == {frozenset({0}), frozenset({1})}


def test_the_default_rule_is_the_assignments() -> None:
    default = Queue()
    plain.ac3(WRITTEN, default)
    assert default.revised_arcs == run(WRITTEN, "assignment").revised_arcs


def test_an_arc_already_queued_is_not_queued_again() -> None:
    # Clue 1 between clues 0 and 2 (one unknown row above): the arcs into 1 come back together.
    clues = Clues(
        (
            ClueConstraint(0, (10, 11), 1),
            ClueConstraint(1, (10, 11, 12), 1),
            ClueConstraint(2, (11, 12, 13), 2),
        ),
        (10, 11, 12, 13),
    )
    for requeue in plain.REQUEUE:
        queue = run(clues, requeue)
        assert not queue.twice and queue.queue == []
        assert queue.domains == run(clues, "textbook").domains


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_both_rules_reach_the_same_domains_and_never_queue_an_arc_twice(clues: Clues) -> None:
    assignment = run(clues, "assignment")
    textbook = run(clues, "textbook")
    assert assignment.domains == textbook.domains
    assert not assignment.twice and not textbook.twice


def test_both_rules_decide_what_the_fast_ac3_decides_on_seeded_positions() -> None:
    fast = rung(Technique.AC3).fast
    for clues in SEEDED[:300]:
        facts = fast(clues)
        for requeue in plain.REQUEUE:
            assert plain.ac3(clues, requeue=requeue) == facts
