"""The look-ahead: a clue that ends the game counts as certain; a floor cuts counting short."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from mineshafted.board import PartialGrid
from mineshafted.probability import Odds, odds, outlook, position_of
from mineshafted.probability import lookahead as lookahead_module
from mineshafted.probability.lookahead import bounded_outlook
from mineshafted.solver import Position, Tally, combine

from ..conftest import view_of


def stall_of(text: str, mines: int) -> tuple[Position, Odds, PartialGrid]:
    """The stall a view shows, its odds with ``mines`` in all, and the view."""
    view = view_of(text)
    position = position_of(view)
    return position, odds(position, mines), view


def counting_combine(monkeypatch: pytest.MonkeyPatch) -> list[Tally]:
    """Every position the look-ahead counts from now on, in order."""
    counted: list[Tally] = []

    def recorded(*args: Any, **kwargs: Any) -> Tally:
        after = combine(*args, **kwargs)
        counted.append(after)
        return after

    monkeypatch.setattr(lookahead_module, "combine", recorded)
    return counted


def test_a_clue_that_leaves_only_mines_counts_as_a_certain_next_step() -> None:
    # ``1 * ? ?`` with 2 mines: when cell 2 is safe it shows 2, cell 3 is the mine and the
    # game is won, so the next step is certain: the secondary safety is the safety itself.
    position, chances, view = stall_of("1*??", 2)
    look = outlook(position, chances, view, 2)
    assert look.safe == look.lookahead == Fraction(1, 2)


def test_a_candidate_that_can_tie_the_floor_is_counted_in_full() -> None:
    # Cell 2 of ``1 * ? ?`` reaches a secondary safety of exactly 1/2: a floor of 1/2 must
    # not drop it (a tie is broken by progress and order, not by the floor).
    position, chances, view = stall_of("1*??", 2)
    assert bounded_outlook(position, chances, view, 2, Fraction(1, 2)) == outlook(
        position, chances, view, 2
    )


def test_a_candidate_less_safe_than_the_floor_is_dropped_before_any_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ``. 1 ? ? 2 / . 1 ? ? ?`` with 3 mines: cell 2 is safe in 3 placements of 6. Its
    # secondary safety is at most its safety, 1/2, so a floor of 11/20 drops it unexamined.
    position, chances, view = stall_of(".1??2\n.1???", 3)
    assert chances.probability(2) == Fraction(1, 2)
    counted = counting_combine(monkeypatch)
    assert bounded_outlook(position, chances, view, 2, Fraction(11, 20)) is None
    assert counted == []


def test_counting_stops_at_the_clue_that_shows_the_floor_is_out_of_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Same stall, cell 2: it shows 2 in 2 placements of 6, leaving its neighbours 50/50
    # (a secondary safety of 1/3 x 1/2); the other clue has 1 placement, worth at most
    # 1/6. So after the first clue the best reachable is 1/6 + 1/6 = 1/3, below a floor of
    # 7/20: the second clue is not counted.
    position, chances, view = stall_of(".1??2\n.1???", 3)
    assert outlook(position, chances, view, 2).by_clue == {2: Fraction(1, 3), 3: Fraction(1, 6)}
    counted = counting_combine(monkeypatch)
    assert bounded_outlook(position, chances, view, 2, Fraction(7, 20)) is None
    assert [after.placements for after in counted] == [2]


def test_a_floor_above_the_secondary_safety_drops_the_candidate() -> None:
    # The whole outlook of cell 2 is 1/3: any floor above it gives up, any floor at or below
    # it gives the outlook itself.
    position, chances, view = stall_of(".1??2\n.1???", 3)
    look = outlook(position, chances, view, 2)
    assert look.lookahead == Fraction(1, 3)
    for floor in (Fraction(1, 3) + Fraction(1, 1000), Fraction(2, 5), Fraction(1, 2)):
        assert bounded_outlook(position, chances, view, 2, floor) is None
    for floor in (Fraction(-1), Fraction(0), Fraction(1, 3)):
        assert bounded_outlook(position, chances, view, 2, floor) == look
