"""script: a record packed as the page's columns and sparse maps, checked against the record;
a judgement of its end packed beside it; a sweep's moves as a record."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from mineshafted import Board
from mineshafted.errors import RecordFormatError
from mineshafted.game import Flag, Game, GameRecord, Reveal, Rules, Unflag, views_of
from mineshafted.replay import ODDS, Judgement, moves_page, script


def _unpacked(data: dict[str, object]) -> list[list[tuple[int, int]]]:
    """Each step's revealed cells and values, read back out of the packed columns."""
    kinds, cells, values, more = data["kinds"], data["cells"], data["values"], data["more"]
    assert isinstance(kinds, str) and isinstance(values, str)
    assert isinstance(cells, list) and isinstance(more, dict)
    out, at = [], 0
    for step, (kind, cell) in enumerate(zip(kinds, cells, strict=True), start=1):
        opened = [cell, *more.get(str(step), [])] if kind == "r" else []
        chars = values[at : at + len(opened)]
        at += len(opened)
        out.append([(c, -1 if v == "*" else int(v)) for c, v in zip(opened, chars, strict=True)])
    assert at == len(values)
    return out


def test_each_step_packs_one_action_with_what_it_revealed(guessing_game: GameRecord) -> None:
    data = script(guessing_game)
    actions = [e for e in guessing_game.events if isinstance(e, Reveal | Flag | Unflag)]
    assert len(data["kinds"]) == len(actions) == len(list(views_of(guessing_game))) - 1
    assert data["cells"] == [e.cell for e in actions]
    assert _unpacked(data) == [list(e.revealed) if isinstance(e, Reveal) else [] for e in actions]


def test_reasons_are_a_table_and_each_step_points_into_it(small_solve: GameRecord) -> None:
    data = script(small_solve)
    actions = [e for e in small_solve.events if isinstance(e, Reveal | Flag | Unflag)]
    reasons = data["reasons"]
    assert len(reasons) == len(set(reasons))
    assert [reasons[w] if w >= 0 else None for w in data["why"]] == [e.reason for e in actions]
    assert data["outcome"]["status"] == "won" and data["outcome"]["step"] == len(actions)


def test_guesses_carry_their_probability_and_odds_with_string_keys(
    guessing_game: GameRecord,
) -> None:
    data = script(guessing_game)
    actions = [e for e in guessing_game.events if isinstance(e, Reveal | Flag | Unflag)]
    guesses = {
        str(k): e for k, e in enumerate(actions, start=1) if isinstance(e, Reveal) and e.guess
    }
    assert guesses and set(data["guesses"]) == set(guesses) == set(data["odds"])
    for key, event in guesses.items():
        assert data["guesses"][key] == {"p": event.probability}
        assert event.detail is not None
        assert data["odds"][key] == {str(c): p for c, p in event.detail[ODDS].items()}
    assert data["details"] == {}  # the odds are all the detail there was


def test_a_mine_hit_and_a_loss_are_placed_at_their_step(lost_game: GameRecord) -> None:
    data = script(lost_game)
    steps = len(data["kinds"])
    assert data["hits"] == [steps]
    assert data["outcome"]["status"] == "lost" and data["outcome"]["step"] == steps
    assert data["values"][-1] == "*"


def test_a_record_in_play_has_no_outcome_and_other_details_are_kept() -> None:
    game = Game.on(Board.from_grid([[0, 1, -1, 1]]), rules=Rules.MINE_SHAFTED)
    game.reveal(0, reason="start", detail={"rule": "corner", "at": [0, 1]})
    data = script(game.record, title="t")
    assert data["outcome"] == {"status": None, "step": None, "mines": []}
    assert data["details"] == {"1": {"rule": "corner", "at": [0, 1]}}
    assert data["title"] == "t" and data["total_known"] is False


def test_a_record_that_does_not_replay_is_refused(small_solve: GameRecord) -> None:
    events = list(small_solve.events)
    broken = GameRecord(small_solve.header, [events[0], *events[2:]])  # a reveal dropped

    with pytest.raises(RecordFormatError, match="line"):
        script(broken)


@pytest.mark.parametrize(
    ("odds", "message"),
    [
        ([0.5], "not an object"),
        ({"x": 0.5}, "'x' is not a cell"),
        ({"99": 0.5}, "'99' is not a cell 0..3"),
        ({"3": 1.5}, "1.5 for cell 3 is not a probability"),
        ({"3": True}, "True for cell 3 is not a probability"),
    ],
)
def test_malformed_odds_are_refused_naming_the_line(odds: object, message: str) -> None:
    game = Game.on(Board.from_grid([[0, 1, -1, 1]]), rules=Rules.MINE_SHAFTED)
    game.reveal(0)
    event = game.record.events[0]
    assert isinstance(event, Reveal)
    record = GameRecord(game.record.header, [replace(event, detail={ODDS: odds})])
    with pytest.raises(RecordFormatError, match=rf"line 2, field 'detail': odds: {message}"):
        script(record)


def test_a_judgement_is_packed_beside_the_game_s_own_outcome() -> None:
    game = Game.on(Board.from_grid([[0, 1, -1]]), rules=Rules.MINE_SHAFTED)
    game.reveal(0)
    game.reveal(1)
    said = Judgement("wrong board", "2 is a mine, not 0", "then cells 0, 1 again", (0, 1))
    data = script(game.record, judgement=said)
    assert data["outcome"]["status"] == "won"  # what the game says...
    assert data["judgement"] == {  # ...and what the judge says, which the page shows instead
        "verdict": "wrong board",
        "text": "2 is a mine, not 0",
        "after": "then cells 0, 1 again",
        "cells": [0, 1],
    }
    assert script(game.record)["judgement"] is None
    with pytest.raises(ValueError, match=r"judgement: 3 is not a cell 0\.\.2"):
        script(game.record, judgement=replace(said, cells=(3,)))


def test_a_sweep_s_moves_replay_each_cell_once_up_to_the_mine() -> None:
    board = Board.from_grid([[0, 1, -1], [0, 1, 1]])
    document = moves_page(board, [0, 3, 1, 2, 4], title="ann: b")
    data = json.loads(re.search(r'id="data">(.*?)</script>', document, re.S).group(1))  # type: ignore[union-attr]
    assert data["cells"] == [0, 3, 1, 2]  # the moves after the mine are not shown
    assert data["reasons"] == ["your move 1", "your move 2", "your move 3", "your move 4"]
    assert data["outcome"]["status"] == "lost" and data["judgement"] is None
