"""Events: frozen dataclasses, each equal only to an event of its own kind with the same
fields, and made by the game exactly as their constructors make them."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from operator import eq, ne

import pytest

from mineshafted import Board
from mineshafted.game import (
    Event,
    Flag,
    Game,
    GameStatus,
    MineHit,
    Outcome,
    Reveal,
    Rules,
    Unflag,
)

EVENTS: list[Event] = [
    Reveal(6, ((6, 1), (7, 0)), True, 0.25, reason="least risk", detail={"front": 3}),
    Reveal(2, ((2, 1),)),
    Flag(3, reason="clue"),
    Unflag(3),
    MineHit(3),
    Outcome(GameStatus.WON, (1, 2), detail={"moves": 4}),
]


@pytest.mark.parametrize("event", EVENTS, ids=repr)
def test_an_event_equals_its_copies_and_pickles(event: Event) -> None:
    for same in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
        assert type(same) is type(event)
        assert eq(same, event) and not ne(same, event)  # both operators


def test_an_event_differs_from_one_with_another_field() -> None:
    reveal = Reveal(2, ((2, 1),))
    for other in (
        Reveal(2, ((2, 1),), reason="clue"),
        Reveal(2, ((2, 1),), guess=True),
        Reveal(2, ((2, 1),), detail={"front": 1}),
        Reveal(5, ((2, 1),)),
        dataclasses.replace(reveal, probability=0.5),
    ):
        assert ne(other, reveal) and not eq(other, reveal)
    assert Outcome(GameStatus.WON, (1,)) != Outcome(GameStatus.LOST, (1,))
    assert Flag(3, detail={"a": 1}) != Flag(3, detail={"a": 2})


def test_events_of_different_kinds_with_the_same_fields_differ() -> None:
    kinds = [Flag(3), Unflag(3), MineHit(3)]
    for a in kinds:
        for b in kinds:
            assert eq(a, b) is (a is b) and ne(a, b) is (a is not b)
    assert len(set(kinds)) == 3


def test_equal_events_hash_alike_and_one_with_a_detail_does_not_hash() -> None:
    assert hash(Flag(3, reason="clue")) == hash(Flag(3, reason="clue"))
    assert {Reveal(2, ((2, 1),)), Reveal(2, ((2, 1),))} == {Reveal(2, ((2, 1),))}
    with pytest.raises(TypeError, match="unhashable"):
        hash(Flag(3, detail={"front": 3}))


@pytest.mark.parametrize("event", EVENTS, ids=repr)
def test_an_event_cannot_be_changed(event: Event) -> None:
    for field in dataclasses.fields(event):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, field.name, None)
    # A new attribute is refused too; with slots, Python 3.11's dataclasses raise TypeError
    # here, not FrozenInstanceError (python/cpython#105936, as RecordHeader and View do).
    with pytest.raises((AttributeError, TypeError)):
        event.note = "more"  # type: ignore[union-attr]


def test_the_repr_names_the_kind_and_every_field() -> None:
    assert repr(Flag(3, reason="clue")) == "Flag(reason='clue', detail=None, cell=3)"
    assert repr(Reveal(2, ((2, 1),))) == (
        "Reveal(reason=None, detail=None, cell=2, revealed=((2, 1),), guess=False, "
        "probability=None)"
    )


def test_the_game_makes_the_events_its_constructors_make() -> None:
    board = Board.from_text(
        """
        * . . .
        . . . .
        . . . *
        """
    )
    game = Game.on(board, rules=Rules.CLASSIC, seed=4)
    game.flag(11, reason="hunch", detail={"why": 1})
    game.reveal(5, guess=True, probability=0.2, reason="search")
    game.unflag(11)
    game.reveal(3)
    game.reveal(11)
    expected: list[Event] = [
        Flag(11, reason="hunch", detail={"why": 1}),
        Reveal(5, ((5, 1),), True, 0.2, reason="search"),
        Unflag(11),
        Reveal(3, ((3, 0), (2, 0), (6, 1), (7, 1), (1, 1))),  # 2 is a zero: 1 opens too
        Reveal(11, ((11, -1),)),
        MineHit(11),
        Outcome(GameStatus.LOST, (0, 11)),
    ]
    made = game.record.events
    assert made == expected
    assert [type(e) for e in made] == [type(e) for e in expected]
    assert [repr(e) for e in made] == [repr(e) for e in expected]
    assert [dataclasses.astuple(e) for e in made] == [dataclasses.astuple(e) for e in expected]
    assert [pickle.loads(pickle.dumps(e)) for e in made] == expected
