"""Game records: JSON Lines out and back, each read error with its line, replays and views."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board
from mineshafted.errors import RecordFormatError
from mineshafted.game import (
    FirstMove,
    Flag,
    Game,
    GameRecord,
    GameStatus,
    MineHit,
    Outcome,
    Reveal,
    Rules,
    Unflag,
    read_record,
    rebuild,
    views_of,
    write_record,
)

from .strategies import Action, actions, boards, play, rules

BOARD = Board.from_text(
    """
    * . . .
    . . . .
    . . . *
    """
)


@pytest.fixture
def game() -> Game:
    """A lost classic game: a flag, a guess, an unflag, an expansion, then a mine."""
    game = Game.on(BOARD, rules=Rules.CLASSIC, seed=4)
    game.flag(11, reason="hunch")
    game.reveal(5, guess=True, probability=0.2, reason="search", detail={"front": [1, 2]})
    game.unflag(11)
    game.reveal(3, reason="AC-3")
    game.reveal(11)
    return game


def lines_of(record: GameRecord) -> list[str]:
    out = io.StringIO()
    write_record(record, out)
    return out.getvalue().splitlines()


def test_every_kind_of_event_is_written_and_read_back(game: Game) -> None:
    lines = lines_of(game.record)
    kinds = [json.loads(line).get("event") for line in lines]
    assert kinds == [None, "flag", "reveal", "unflag", "reveal", "reveal", "mine", "outcome"]
    assert json.loads(lines[2]) == {
        "event": "reveal",
        "cell": 5,
        "revealed": [[5, 1]],
        "guess": True,
        "probability": 0.2,
        "reason": "search",
        "detail": {"front": [1, 2]},
    }
    assert json.loads(lines[-1]) == {"event": "outcome", "status": "lost", "mines": [0, 11]}
    assert read_record(io.StringIO("\n".join(lines))) == game.record


def test_a_record_round_trips_through_a_file(game: Game, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    write_record(game.record, path)
    assert read_record(path) == game.record
    assert read_record(str(path)) == game.record


def test_the_header_holds_the_setup_and_the_first_move(game: Game) -> None:
    header = json.loads(lines_of(game.record)[0])
    assert header == {
        "format": "mineshafted-game",
        "version": 2,
        "rows": 3,
        "cols": 4,
        "mines": 2,
        "rules": Rules.CLASSIC.to_json(),
        "seed": 4,
        "first": 5,
        "layout": [0, 11],
    }


def test_a_drawn_game_has_no_layout_until_replayed_from_its_seed() -> None:
    game = Game.draw(6, 6, 7, seed=12)
    game.reveal(14)
    assert game.record.header.layout is None
    assert rebuild(game.record).board == game.board


@settings(max_examples=100, deadline=None)
@given(board=boards(), rules=rules, plan=actions, seed=st.integers(0, 2**63 - 1))
def test_any_game_round_trips_and_replays(
    board: Board, rules: Rules, plan: list[Action], seed: int
) -> None:
    game = Game.on(board, rules=rules, seed=seed)
    play(game, plan)
    read = read_record(io.StringIO("\n".join(lines_of(game.record))))
    assert read == game.record
    again = rebuild(read)
    assert again.record == game.record
    assert again.view() == game.view()
    assert again.board == game.board


def test_a_drawn_game_round_trips_and_replays() -> None:
    game = Game.draw(9, 9, 10, rules=Rules(FirstMove.OPENING), seed=5)
    game.reveal(40)
    game.flag(next(c for c in range(81) if game.shown(c) is None))
    assert rebuild(read_record(io.StringIO("\n".join(lines_of(game.record))))).view() == game.view()


# -- replays ----------------------------------------------------------------------------


def test_positions_step_through_every_action(game: Game) -> None:
    views = list(views_of(game.record))
    assert len(views) == 6  # the start and five actions
    assert views[0].grid == [[None] * 4] * 3 and views[0].flags == frozenset()
    assert views[1].flags == {11}
    assert views[2].grid[1][1] == 1
    assert views[3].flags == frozenset()
    assert views[-1] == game.view() and views[-1].status is GameStatus.LOST


def test_a_replay_stops_after_the_actions_asked_for(game: Game) -> None:
    assert rebuild(game.record, actions=0).record.events == []
    assert rebuild(game.record, actions=2).record.events == game.record.events[:2]
    assert rebuild(game.record, actions=99).record == game.record


def edited(record: GameRecord, index: int, event: object) -> GameRecord:
    events = list(record.events)
    events[index] = event  # type: ignore[call-overload]
    return GameRecord(record.header, events)


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (lambda r: edited(r, 1, Reveal(5, ((5, 2),))), 3, "the replay gives"),
        (lambda r: edited(r, 5, Flag(0)), 7, 'the replay gives {"event": "mine"'),
        (lambda r: GameRecord(r.header, [*r.events, Flag(4)]), 9, "does not replay.*over"),
        (lambda r: GameRecord(r.header, r.events[:-1]), 8, 'goes on with {"event": "outcome"'),
        (lambda r: GameRecord(r.header, [Unflag(3)]), 2, "changes nothing"),
        (lambda r: GameRecord(r.header, [MineHit(0)]), 2, "a mine event where an action"),
    ],
)
def test_a_record_that_does_not_replay_names_the_line(
    game: Game, change: object, line: int, message: str
) -> None:
    record = change(game.record)  # type: ignore[operator]
    with pytest.raises(RecordFormatError, match=message) as error:
        rebuild(record)
    assert error.value.line == line


def test_a_header_whose_first_move_differs_from_the_replay_is_refused(game: Game) -> None:
    record = GameRecord(game.record.header, game.record.events)
    record.header = Game.on(BOARD, rules=Rules.CLASSIC, seed=4).record.header  # first: None
    with pytest.raises(
        RecordFormatError, match="first move was cell 5; the header says none"
    ) as error:
        rebuild(record)
    assert (error.value.line, error.value.field) == (1, "first")


def test_an_outcome_records_the_truth() -> None:
    game = Game.on(BOARD, rules=Rules.CLASSIC, seed=4)
    game.reveal(3)
    game.reveal(8)
    assert game.won
    assert game.record.events[-1] == Outcome(GameStatus.WON, (0, 11))


# -- read errors --------------------------------------------------------------------------


def header(**change: object) -> str:
    obj = json.loads(lines_of(Game.on(BOARD, rules=Rules.CLASSIC, seed=4).record)[0])
    obj.update(change)
    for key, value in change.items():
        if value is ...:
            del obj[key]
    return json.dumps(obj)


def test_a_version_1_record_is_read_in_the_ladders_words_and_a_version_2_as_written() -> None:
    events = [
        {"event": "reveal", "cell": 0, "revealed": [[0, 1]], "reason": "start"},
        {"event": "flag", "cell": 1, "reason": "clue"},
        {"event": "reveal", "cell": 2, "revealed": [[2, 1]], "reason": "propagation"},
        {"event": "reveal", "cell": 3, "revealed": [[3, 1]], "reason": "search"},
        {"event": "reveal", "cell": 4, "revealed": [[4, 1]], "reason": "my rule"},
    ]
    text = "\n".join([header(version=1), *map(json.dumps, events)])
    old = read_record(io.StringIO(text))
    assert [e.reason for e in old.events] == ["start", "count", "ac3", "complete", "my rule"]
    new = read_record(io.StringIO(text.replace('"version": 1', '"version": 2', 1)))
    assert [e.reason for e in new.events] == ["start", "clue", "propagation", "search", "my rule"]
    out = io.StringIO()
    write_record(old, out)
    assert json.loads(out.getvalue().splitlines()[0])["version"] == 2


@pytest.mark.parametrize(
    ("lines", "line", "field", "message"),
    [
        ([], 1, None, "empty"),
        (["", "   "], 1, None, "empty"),
        ([header(format="mines")], 1, "format", "not a game record"),
        ([header(version=3)], 1, "version", "unknown format version 3"),
        ([header(version="1")], 1, "version", '"1" is not an integer'),
        ([header(rows=None)], 1, "rows", "null is not an integer"),
        ([header(seed=...)], 1, "seed", "missing"),
        ([header(rows=0)], 1, "rows", "has no cells"),
        ([header(mines=13)], 1, "mines", "13 mines do not fit in 12 cells"),
        ([header(rules={"first_move": "safe"})], 1, "rules", "missing 'after_mine'"),
        ([header(rules={**Rules.CLASSIC.to_json(), "after_mine": "x"})], 1, "rules", "'x' is not"),
        ([header(first=12)], 1, "first", "cell 12 is off the board"),
        ([header(layout=[0, 0])], 1, "layout", "1 distinct mines, not 2"),
        ([header(), "{not json"], 2, None, "not JSON"),
        ([header(), "", "[1, 2]"], 3, None, r"must be a JSON object, not \[1, 2\]"),
        ([header(), '{"cell": 1}'], 2, "event", "missing"),
        ([header(), '{"event": "poke", "cell": 1}'], 2, "event", "unknown event 'poke'"),
        ([header(), '{"event": "flag"}'], 2, "cell", "missing"),
        ([header(), '{"event": "flag", "cell": 12}'], 2, "cell", "cell 12 is off the board"),
        ([header(), '{"event": "flag", "cell": true}'], 2, "cell", "true is not an integer"),
        ([header(), '{"event": "flag", "cell": 1, "reason": 3}'], 2, "reason", "3 is not a string"),
        (
            [header(), '{"event": "mine", "cell": 0, "detail": []}'],
            2,
            "detail",
            r"\[\] is not an object",
        ),
        ([header(), '{"event": "reveal", "cell": 1}'], 2, "revealed", "missing"),
        ([header(), '{"event": "reveal", "cell": 1, "revealed": [[-1, 1]]}'], 2, "revealed", "-1"),
        ([header(), '{"event": "reveal", "cell": 1, "revealed": [[1]]}'], 2, "revealed", "pair"),
        ([header(), '{"event": "reveal", "cell": 1, "revealed": [[1, 9]]}'], 2, "revealed", "9"),
        (
            [header(), '{"event": "reveal", "cell": 1, "revealed": [], "probability": 2}'],
            2,
            "probability",
            "2 is not in 0..1",
        ),
        ([header(), '{"event": "outcome", "mines": []}'], 2, "status", "missing"),
        ([header(), '{"event": "outcome", "status": "draw"}'], 2, "status", "not won or lost"),
        ([header(), '{"event": "outcome", "status": "won", "mines": [12]}'], 2, "mines", "off"),
    ],
)
def test_each_read_error_names_its_line_and_field(
    lines: list[str], line: int, field: str | None, message: str
) -> None:
    with pytest.raises(RecordFormatError, match=message) as error:
        read_record(io.StringIO("\n".join(lines)))
    assert (error.value.line, error.value.field) == (line, field)
    assert str(error.value).startswith(f"line {line}")


def test_a_read_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(header() + "\n" + '{"event": "flag", "cell": 99}\n')
    with pytest.raises(RecordFormatError, match=r"bad\.jsonl: line 2, field 'cell': cell 99"):
        read_record(path)
