"""The trace of a solve: on the assignment's sample, the assignment's own variables, domains,
arcs, removals and safe cells; on any board, the fixed point of the plain sweep; on any
position, what the plain rung decides; every AC-3 event agrees with a replay of the queue and
the domains; every event has exactly its documented fields."""

from __future__ import annotations

import json
import random
import re
from collections import deque
from typing import Any, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board, BoardManager
from mineshafted.board import MINE, Cell, PartialGrid
from mineshafted.errors import NoPlacementError
from mineshafted.formats import read_puzzles
from mineshafted.solver import Technique, plain
from mineshafted.solver import trace as tracing
from mineshafted.solver.clues import clues_of
from mineshafted.solver.trace import KINDS, TRACED, notation, trace, trace_position

from .test_ladder import cut

SAMPLE = "puzzles/no-guess/4x3-sample/01.json"

# The assignment's own tables for its 4x3 sample (issue 29): the clue variables 1, 4, 7, 10
# with their domains, a positive index a mine and a negative one safe, and the ten arcs.
ASSIGNMENT_DOMAINS = {
    1: {(2, -5), (-2, 5)},
    4: {(2, 5, -8), (2, -5, 8), (-2, 5, 8)},
    7: {(5, 8, -11), (5, -8, 11), (-5, 8, 11)},
    10: {(8, -11), (-8, 11)},
}
ASSIGNMENT_ARCS = "(1, 4) (4, 1) (1, 7) (7, 1) (4, 7) (7, 4) (4, 10) (10, 4) (7, 10) (10, 7)"


def sample_events(technique: Technique = Technique.AC3) -> list[Any]:
    puzzle = read_puzzles(SAMPLE)[0]
    return list(trace(BoardManager(puzzle.board), technique, start=puzzle.start))


def of_kind(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e["event"] == kind]


# -- the assignment's sample ------------------------------------------------------------------


def test_the_first_round_has_the_assignments_variables_domains_and_arcs() -> None:
    first = of_kind(sample_events(), "variables")[0]
    assert first["round"] == 1
    domains = {v["variable"]: {tuple(n) for n in v["notation"]} for v in first["variables"]}
    assert domains == ASSIGNMENT_DOMAINS
    assert " ".join(f"({x}, {y})" for x, y in first["arcs"]) == ASSIGNMENT_ARCS
    assert [v["clue"] for v in first["variables"]] == [1, 2, 2, 1]


SAMPLE_DECIDED = {2: False, 5: True, 8: True, 11: False}
"""What the sample's first decision finds: 2 and 11 safe, 5 and 8 mines (the assignment's)."""


def test_the_sample_removes_the_assignments_values_and_finds_2_and_11_safe() -> None:
    events = sample_events()
    removed = {(e["arc"][0], tuple(n)) for e in of_kind(events, "revise") for n in e["notation"]}
    assert (4, (2, 5, -8)) in removed
    assert (7, (-5, 8, 11)) in removed
    decided = of_kind(events, "decided")[0]
    assert {c["cell"]: c["mine"] for c in decided["cells"]} == SAMPLE_DECIDED
    explored_next = [e["cell"] for e in of_kind(events, "explore") if e["round"] == 2]
    assert explored_next == [2, 11]
    assert events[-1]["solved"] is True


def test_the_sample_explores_its_zeros_before_ac3_as_the_assignment_does() -> None:
    events = sample_events()
    before = events[: events.index(of_kind(events, "variables")[0])]
    assert [e["cell"] for e in of_kind(before, "explore")] == [0, 1, 3, 4, 6, 7, 9, 10]
    assert [(e["variable"], e["clue"], e["mine"]) for e in of_kind(before, "count")] == [
        (0, 0, False),
        (3, 0, False),
        (6, 0, False),
    ]


def test_the_subset_trace_says_each_constraint_within_another_and_their_difference() -> None:
    events = sample_events(Technique.SUBSET)
    first = of_kind(events, "subset")[0]
    assert first["within"] == {"cells": [2, 5], "mines": 1, "clues": [1]}
    assert first["of"] == {"cells": [2, 5, 8], "mines": 2, "clues": [4]}
    assert first["difference"] == {"cells": [8], "mines": 1, "clues": [1, 4]}
    decided = of_kind(events, "decided")[0]
    assert {c["cell"]: c["mine"] for c in decided["cells"]} == SAMPLE_DECIDED
    assert not of_kind(events, "variables")


def test_the_count_trace_says_each_clue_and_its_unknown_cells_and_stalls_on_the_sample() -> None:
    events = sample_events(Technique.COUNT)
    assert [(e["round"], e["variable"], e["cells"]) for e in of_kind(events, "count")] == [
        (1, 0, [1, 3, 4]),
        (2, 3, [6, 7]),
        (3, 6, [9, 10]),
    ]
    assert events[-1]["undetermined"] == [2, 5, 8, 11]
    assert events[-1]["solved"] is False


# -- any board, any position: the plain rungs' own answers ------------------------------------


def boards(n: int, seed: int) -> list[tuple[Board, Cell]]:
    """``n`` seeded boards up to 7x8 with a safe start cell."""
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        rows, cols = rng.randint(2, 7), rng.randint(2, 8)
        cells = rows * cols
        board = Board.from_mines(rows, cols, rng.sample(range(cells), rng.randint(1, cells // 4)))
        safe = [c for c in range(cells) if c not in board.mines]
        if safe:
            found.append((board, rng.choice(safe)))
    return found


BOARDS = boards(300, seed=29)


@pytest.mark.parametrize("technique", TRACED, ids=lambda t: t.value)
def test_a_trace_ends_where_the_plain_sweep_ends(technique: Technique) -> None:
    stalled = 0
    for board, start in BOARDS:
        events = list(trace(BoardManager(board), technique, start=start))
        swept = plain.sweep(BoardManager(board), technique, start=start)
        end = events[-1]
        assert end["grid"] == swept.board, (board.to_grid(), start)
        assert end["solved"] is swept.solved
        assert end["undetermined"] == [
            c for c, v in enumerate(v for row in swept.board for v in row) if v is None
        ]
        stalled += not swept.solved
    assert 0 < stalled < len(BOARDS)  # the boards give the trace both endings


def positions(n: int, seed: int) -> list[PartialGrid]:
    rng = random.Random(seed)
    return [cut(board, rng) for board, _ in boards(n, seed)]


POSITIONS = positions(300, seed=30)


def decided_in(events: list[Any]) -> dict[Cell, bool]:
    """Every cell a trace decided, by count or by the rung."""
    facts = {c: e["mine"] for e in of_kind(events, "count") for c in e["cells"]}
    for e in of_kind(events, "decided"):
        facts |= {c["cell"]: c["mine"] for c in e["cells"]}
    return facts


@pytest.mark.parametrize("technique", TRACED, ids=lambda t: t.value)
def test_a_position_trace_decides_what_the_plain_rung_decides(technique: Technique) -> None:
    deciding = 0
    for grid in POSITIONS:
        events = list(trace_position(grid, technique))
        facts = plain.RUNGS[technique](clues_of(grid))
        assert decided_in(events) == facts, grid
        assert events[-1]["round"] == 1
        assert events[-1]["safe"] == sorted(c for c, mine in facts.items() if not mine)
        deciding += bool(facts)
    assert deciding >= 100


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.data())
def test_every_ac3_run_replays_to_its_own_fixed_point(rows: int, cols: int, data: Any) -> None:
    cells = rows * cols
    mines = data.draw(st.lists(st.integers(0, cells - 1), min_size=1, max_size=cells // 3))
    board = Board.from_mines(rows, cols, set(mines))
    safe = [c for c in range(cells) if c not in board.mines]
    if not safe:
        return
    start = data.draw(st.sampled_from(safe))
    requeue = data.draw(st.sampled_from(plain.REQUEUE))
    events = list(trace(BoardManager(board), Technique.AC3, start=start, requeue=requeue))
    check_ac3_runs(events, requeue)


def test_every_ac3_run_of_the_seeded_positions_replays_to_its_own_fixed_point() -> None:
    for grid in POSITIONS:
        check_ac3_runs(list(trace_position(grid)))


def check_ac3_runs(events: list[Any], requeue: plain.Requeue = "assignment") -> None:
    """Replay each AC-3 run: the queue (an arc taken from its front; after a revision that
    removed something, the arcs into x the ``requeue`` rule names put back at its end, but
    those on it already), each revision against the domains as they stand, the fixed
    point."""
    run: dict[str, Any] | None = None
    for event in events:
        kind = event["event"]
        if kind == "variables":
            scope = {v["variable"]: v["cells"] for v in event["variables"]}
            domains = {
                v["variable"]: [frozenset(value) for value in v["domain"]]
                for v in event["variables"]
            }
            for v in event["variables"]:
                assert [notation(value, v["cells"]) for value in v["domain"]] == v["notation"]
                assert all(len(value) == v["mines"] for value in v["domain"])
            arcs = [tuple(arc) for arc in event["arcs"]]
            assert all(set(scope[x]) & set(scope[y]) for x, y in arcs)
            run = {"scope": scope, "domains": domains, "arcs": arcs, "queue": deque(arcs)}
        elif kind == "arc":
            assert run is not None
            assert tuple(event["arc"]) == run["queue"].popleft()
            x, y = event["arc"]
            assert event["shared"] == sorted(set(run["scope"][x]) & set(run["scope"][y]))
            run["shared"] = frozenset(event["shared"])
        elif kind == "revise":
            assert run is not None
            x, y = event["arc"]
            shared, domains = run["shared"], run["domains"]
            allowed = {value & shared for value in domains[y]}
            assert {frozenset(v) for v in event["others"]} == allowed
            removed = [frozenset(v) for v in event["removed"]]
            assert removed == [v for v in domains[x] if v & shared not in allowed]
            domains[x] = [v for v in domains[x] if v not in removed]
            assert event["left"] == len(domains[x])
            run["removed"] = bool(removed)
        elif kind == "requeue":
            assert run is not None and run["removed"]
            x, y = event["arc"]
            back = [tuple(a) for a in event["arcs"]]
            named = [
                (z, w) for z, w in run["arcs"] if w == x and (z != y or requeue == "assignment")
            ]
            assert back == [arc for arc in named if arc not in run["queue"]]
            run["queue"].extend(back)
        elif kind == "decided" and event["technique"] == "ac3":
            assert run is not None and not run["queue"]
            final = {d["variable"]: [frozenset(v) for v in d["domain"]] for d in event["domains"]}
            assert final == run["domains"]
            for decided in event["cells"]:
                cell, mine = decided["cell"], decided["mine"]
                proving = [
                    x
                    for x, values in final.items()
                    if cell in run["scope"][x] and {cell in v for v in values} == {mine}
                ]
                assert decided["by"] == proving != []
            run = None


# -- the events' fields -----------------------------------------------------------------------

SCHEMA = {
    "board": tracing.BoardEvent,
    "explore": tracing.ExploreEvent,
    "count": tracing.CountEvent,
    "variables": tracing.VariablesEvent,
    "arc": tracing.ArcEvent,
    "revise": tracing.ReviseEvent,
    "requeue": tracing.RequeueEvent,
    "subset": tracing.SubsetEvent,
    "decided": tracing.DecidedEvent,
    "end": tracing.EndEvent,
}


def test_every_event_has_exactly_the_fields_of_its_kind_and_is_json() -> None:
    assert tuple(SCHEMA) == KINDS
    seen: set[str] = set()
    for technique in TRACED:
        for board, start in BOARDS[:40]:
            for event in trace(BoardManager(board), technique, start=start):
                fields = get_type_hints(SCHEMA[event["event"]])
                assert set(event) == set(fields), event
                assert json.loads(json.dumps(event)) == event
                seen.add(event["event"])
    assert seen == set(KINDS)


@pytest.mark.parametrize(
    ("grid", "mines", "message"),
    [
        ([[1, None, 1, None, 1]], 2, "the clues contradict each other around cells [1, 3]"),
        ([[1, None, 1, None, 1]], None, "the clues contradict each other around cells [1, 3]"),
        ([[1, None, 0]], None, "the clues contradict each other around cells [1]"),
        ([[None, 2, None], [None, 1, None]], 2, "the clues contradict each other"),
        ([[None, None], [None, None]], 100, "100 mine(s) left, but at most 4 fit"),
        ([[None, None], [None, None]], 10**30, f"{10**30} mine(s) left, but at most 4 fit"),
        ([[0, 1, None]], 0, "0 mine(s) left, but the clues need at least 1"),
        ([[1, -1], [-1, None]], 1, "row 0, column 0: clue 1 but 2 known mines around it"),
        ([[1, -1, None]], 0, "0 mine(s) in all, but 1 are known"),
    ],
)
@pytest.mark.parametrize("technique", TRACED, ids=lambda t: t.value)
def test_a_position_no_placement_fits_is_refused_before_its_first_event(
    grid: PartialGrid, mines: int | None, message: str, technique: Technique
) -> None:
    events = trace_position(grid, technique, mines=mines)
    with pytest.raises(NoPlacementError, match=re.escape(message)):
        next(events)


def test_a_position_a_placement_fits_is_traced_with_or_without_its_total() -> None:
    for mines in (None, 1, 2):  # 2: one more mine, on the cell no clue sees
        events = list(trace_position([[1, None, 1, None, None]], mines=mines))
        assert events[0]["mines"] == mines and events[-1]["contradiction"] is None


class Lying:
    """A manager whose clues contradict each other: 0 at cell 0, then 2 at cell 1, whose only
    other neighbour is cell 2."""

    size = (1, 3)

    def move(self, index: int) -> int:
        return [0, 2, 0][index]

    def get_adjacent(self, index: int) -> list[int]:
        return [n for n in (index - 1, index + 1) if 0 <= n < 3]


@pytest.mark.parametrize("technique", TRACED, ids=lambda t: t.value)
def test_a_manager_whose_clues_contradict_ends_the_trace_naming_the_clue(
    technique: Technique,
) -> None:
    events = list(trace(Lying(), technique))
    assert [e["event"] for e in events][:3] == ["board", "explore", "count"]
    end = events[-1]
    assert end["contradiction"] == "the clue at cell 1 cannot hold: 2 mine(s) among 1 cell(s)"
    assert end["solved"] is False


def test_a_position_a_clue_cannot_meet_is_refused_with_its_row_and_column() -> None:
    with pytest.raises(NoPlacementError, match="row 0, column 0"):
        list(trace_position([[1, None], [MINE, MINE]]))


@pytest.mark.parametrize("technique", [Technique.COMPLETE, Technique.TOTAL, Technique.GUESS])
def test_a_trace_shows_only_the_rungs_that_reason_clue_by_clue(technique: Technique) -> None:
    with pytest.raises(ValueError, match="a trace shows count, subset, ac3"):
        list(trace_position([[1, None]], technique))
    with pytest.raises(ValueError, match="a trace shows count, subset, ac3"):
        list(trace(BoardManager([[1, -1]]), technique))
