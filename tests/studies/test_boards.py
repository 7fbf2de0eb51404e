"""Boards files: every bad line named by its number, boards played exactly as given, the same
games however they are run, the file read a line at a time and fingerprinted for resuming."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from pathlib import Path

import pytest

from mineshafted.board import Board
from mineshafted.errors import InputError, PuzzleFormatError
from mineshafted.formats import MAX_CELLS, parse_board, read_lines
from mineshafted.game import FirstMove, GameStatus
from mineshafted.probability import play_board
from mineshafted.studies import (
    BoardsError,
    BoardsStudy,
    GameLine,
    JournalError,
    StudyError,
    boards_study,
    game_seed,
)
from mineshafted.studies import boards as boards_module

from .conftest import BoardsFile, mine_list, run_lines

GOOD = '{"rows": 3, "cols": 3, "mines": [[2, 2]], "first": [0, 0]}'
"""A board to play: one mine in the far corner of 3x3."""


def outcomes(lines: list[GameLine]) -> list[tuple[int, int, GameStatus, int]]:
    """The lines without their times."""
    return [(line.index, line.seed, line.outcome, line.guesses) for line in lines]


# -- the two forms ------------------------------------------------------------------------------


def test_a_mine_list_and_a_puzzle_are_the_same_board() -> None:
    listed = parse_board(
        '{"rows": 2, "cols": 3, "mines": [[1, 2], [0, 0]], "first": [1, 0], "id": "b7"}',
        where="x",
    )
    puzzle = parse_board('{"board": [[-1, 2, 1], [1, 2, -1]], "start": [1, 0]}', where="x")
    assert listed.board == puzzle.board == Board.from_mines(2, 3, [0, 5])
    assert listed.start == puzzle.start == 3
    assert listed.extra == {"id": "b7"}
    assert parse_board("[[1, 1], [1, -1]]", where="x").start == 0  # a bare grid, as solve reads


BAD_LINES = [
    ('{"rows": 3', "not valid JSON: Expecting"),
    ("", "empty: one board a line"),
    ("   ", "empty: one board a line"),
    ("7", 'a puzzle is an object with a "board" or a 2D list, not a number'),
    ('{"rows": 3, "cols": 3}', 'neither "board" nor "mines"'),
    ('{"board": [[0]], "mines": []}', 'both "board" and "mines"'),
    ('{"rows": "3", "cols": 3, "mines": [], "first": [0, 0]}', '"rows" must be an integer'),
    ('{"rows": 3, "cols": true, "mines": [], "first": [0, 0]}', '"cols" must be an integer'),
    ('{"rows": 0, "cols": 3, "mines": [], "first": [0, 0]}', "of 1 or more, not 0"),
    ('{"rows": 1001, "cols": 1000, "mines": [], "first": [0, 0]}', f"more than {MAX_CELLS:,}"),
    ('{"rows": 3, "cols": 3, "mines": {}, "first": [0, 0]}', "list of [row, column] pairs"),
    ('{"rows": 3, "cols": 3, "mines": [[1]], "first": [0, 0]}', '"mines"[0] must be [row, c'),
    ('{"rows": 3, "cols": 3, "mines": [[1.0, 2]], "first": [0, 0]}', "not [1.0, 2]"),
    ('{"rows": 3, "cols": 3, "mines": [[1, 1], [3, 0]], "first": [0, 0]}', '"mines"[1] [3, 0] is'),
    ('{"rows": 3, "cols": 3, "mines": [[0, -1]], "first": [0, 0]}', "off the 3x3 board (rows"),
    ('{"rows": 3, "cols": 3, "mines": [[1, 1], [1, 1]], "first": [0, 0]}', 'already, at "mines"'),
    ('{"rows": 3, "cols": 3, "mines": [[1, 1]]}', 'no "first": name the first reveal'),
    ('{"rows": 3, "cols": 3, "mines": [[1, 1]], "first": [1, 1]}', "first reveal must be safe"),
    ('{"rows": 3, "cols": 3, "mines": [[1, 1]], "first": [3, 3]}', '"first" [3, 3] is off the'),
    ('{"rows": 3, "cols": 3, "mines": [[1, 1]], "first": "0,0"}', '"first" must be [row, col'),
    ('{"board": [[1, 2], [1, -1]]}', "board: row 0, column 1: clue 2 but 1 adjacent mine"),
    ('{"board": [[-1, 1], [1, 1]]}', "the default start [0, 0] is a mine"),
    ('{"board": [[1, 1], [1, -1]], "start": [1, 1]}', '"start" [1, 1] is a mine'),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_a_bad_line_is_refused_with_its_number(
    boards_file: BoardsFile, line: str, message: str
) -> None:
    path = boards_file(lines=[GOOD, line, GOOD])
    with pytest.raises(BoardsError) as caught:
        boards_study(path)
    assert str(caught.value).startswith(f"{path}: line 2: "), caught.value
    assert message in str(caught.value)
    assert (caught.value.path, caught.value.line) == (path, 2)
    assert "\n" not in str(caught.value)


def test_an_opening_needs_every_first_reveal_to_be_a_zero(boards_file: BoardsFile) -> None:
    one = '{"rows": 3, "cols": 3, "mines": [[1, 1]], "first": [0, 0]}'
    path = boards_file(lines=[GOOD, GOOD, one])
    assert boards_study(path).count == 3  # a safe first reveal is enough for a safe first move
    with pytest.raises(BoardsError, match=r": line 3: the first \w+ \[0, 0\] shows 1, not 0"):
        boards_study(path, first=FirstMove.OPENING)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "none.jsonl", "none.jsonl: no such file"),
        (lambda d: d, "is a directory, not a file to read"),
        (lambda d: Path(os.devnull), r"not a regular file \(a character device\): lines are read"),
        (lambda d: _write(d / "empty.jsonl", b""), "empty.jsonl: no boards: the file is empty"),
        (lambda d: _write(d / "bin.jsonl", GOOD.encode() + b"\n\xff\n"), "line 2: not UTF-8"),
    ],
    ids=["missing", "directory", "device", "empty", "not UTF-8"],
)
def test_a_file_that_cannot_be_read_is_refused_in_one_line(
    tmp_path: Path, make: object, message: str
) -> None:
    with pytest.raises(BoardsError, match=message) as caught:
        boards_study(make(tmp_path))  # type: ignore[operator]
    assert "\n" not in str(caught.value)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_lines_are_read_one_at_a_time_each_capped(tmp_path: Path) -> None:
    path = _write(tmp_path / "b.jsonl", b"ab\ncd\r\n" + b"x" * 10 + b"\n12345")
    lines = read_lines(path, limit=5)
    assert next(lines) == (1, "ab\n") and next(lines) == (2, "cd\r\n")
    with pytest.raises(InputError, match=r"b\.jsonl: line 3: longer than 5 bytes"):
        next(lines)
    assert list(read_lines(_write(tmp_path / "c", b"12345\n12345"), limit=5)) == [
        (1, "12345\n"),
        (2, "12345"),
    ]
    with pytest.raises(PuzzleFormatError, match=r"^here: not valid JSON"):
        parse_board("{", where="here")


# -- the study ----------------------------------------------------------------------------------


@pytest.fixture
def expert(boards_file: BoardsFile) -> Path:
    """Twelve expert boards, first reveal at the corner."""
    return boards_file(12, 16, 30, 99)


def test_game_i_is_line_i_plus_1_played_exactly_as_given(expert: Path) -> None:
    study = boards_study(expert, seed=4)
    assert (study.count, study.size) == (12, (16, 30, 99))
    lines = run_lines(study).lines
    for index, line in enumerate(expert.read_text().splitlines()):
        data = json.loads(line)
        board = Board.from_mines(16, 30, [r * 30 + c for r, c in data["mines"]])
        played = play_board(board, start=0, seed=game_seed(4, index))
        won = lines[index].outcome is GameStatus.WON
        assert (won, lines[index].guesses) == (played.won, len(played.guesses))
        assert lines[index].seed == played.seed == game_seed(4, index)


@pytest.fixture
def serial(expert: Path) -> list[tuple[int, int, GameStatus, int]]:
    return outcomes(run_lines(boards_study(expert, policy="safest")).lines)


@pytest.mark.slow
def test_two_processes_play_the_same_games_as_one(expert: Path, serial: list[tuple]) -> None:
    study = boards_study(expert, policy="safest")
    assert outcomes(run_lines(study, jobs=2).lines) == serial


@pytest.mark.slow
def test_a_dask_local_cluster_plays_the_same_games(expert: Path, serial: list[tuple]) -> None:
    pytest.importorskip("distributed")
    study = boards_study(expert, policy="safest")
    finished = run_lines(study, jobs=2, dask="local", dask_processes=False)
    assert outcomes(finished.lines) == serial


def test_the_key_holds_the_files_fingerprint(boards_file: BoardsFile, expert: Path) -> None:
    study = boards_study(expert, first=FirstMove.SAFE, policy="safest", seed=3)
    digest = hashlib.sha256(expert.read_bytes()).hexdigest()
    assert study.key == {
        "boards": f"sha256:{digest}",
        "first": "safe",
        "policy": "safest",
        "seed": 3,
    }
    other = boards_file(12, 16, 30, 99, name="other.jsonl")
    other.write_text(other.read_text().replace("[0, 1]", "[0, 2]", 1))
    assert boards_study(other).key["boards"] != study.key["boards"]


@pytest.mark.slow
def test_a_results_file_resumes_on_the_same_boards_only(
    boards_file: BoardsFile, expert: Path, tmp_path: Path
) -> None:
    out = tmp_path / "games.jsonl"
    first = run_lines(boards_study(expert, games=5), out=out)
    again = run_lines(boards_study(expert), out=out)
    assert (len(first.lines), again.resumed, len(again.lines)) == (5, 5, 12)
    assert outcomes(again.lines) == outcomes(run_lines(boards_study(expert)).lines)
    other = boards_file(12, 16, 30, 98, name="other.jsonl")
    with pytest.raises(JournalError, match=r"written by another study \(boards 'sha256:"):
        run_lines(boards_study(other), out=out)


def test_more_games_than_boards_are_refused(expert: Path) -> None:
    with pytest.raises(StudyError, match=r"--games 13: .* holds 12 board\(s\), one a line"):
        boards_study(expert, games=13).check()
    with pytest.raises(StudyError, match="no policy"):
        boards_study(expert, policy="psychic").check()


def test_a_file_changed_after_its_check_is_refused(boards_file: BoardsFile) -> None:
    path = boards_file(3)
    study = boards_study(path)
    path.write_text(path.read_text() + mine_list(9, 9, 10, 99) + "\n")
    with pytest.raises(BoardsError, match="changed since it was checked"):
        run_lines(study)


def test_a_file_changed_while_it_is_played_is_refused_at_the_next_game(
    boards_file: BoardsFile,
) -> None:
    path = boards_file(4)
    study = boards_study(path)
    study.play(0)  # the file is open, read past line 1
    with path.open("a") as more:  # its size changes: a change within the clock's tick shows
        more.write(mine_list(9, 9, 10, 99) + "\n")
    with pytest.raises(BoardsError, match="changed since it was checked"):
        study.play(1)


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])  # 2: a pool
def test_the_file_is_read_once_to_check_and_once_to_play(
    boards_file: BoardsFile, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    opened: list[Path] = []
    real = boards_module.read_lines

    def counted(path: Path) -> object:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(boards_module, "read_lines", counted)
    study = boards_study(boards_file(40, 5, 5, 2), policy="safest")
    assert len(run_lines(study, jobs=jobs).lines) == 40
    assert len(opened) == 2
    study.game(3)  # out of order: read again from the top
    assert len(opened) == 3


def test_a_worker_is_sent_its_chunks_lines_not_the_file(expert: Path) -> None:
    study = boards_study(expert)
    part = study.part([2, 3])
    assert sorted(part.lines) == [2, 3]
    assert part.lines[3] == expert.read_text().splitlines(keepends=True)[3]
    assert outcomes([part.play(3)]) == outcomes([study.play(3)])
    assert len(pickle.dumps(study)) < 1000  # the study holds no board


def test_a_copy_of_a_study_plays_the_same_game_from_its_own_reading(expert: Path) -> None:
    study = boards_study(expert)
    study.play(5)  # the original's reading is under way
    copy = pickle.loads(pickle.dumps(study))
    assert isinstance(copy, BoardsStudy) and copy == study
    assert outcomes([copy.play(2)]) == outcomes([study.play(2)])


@pytest.mark.parametrize(
    ("first", "start"), [(FirstMove.SAFE, "corner"), (FirstMove.OPENING, "3,3")]
)
def test_the_boards_a_drawn_study_plays_give_its_games(
    tmp_path: Path, first: FirstMove, start: str
) -> None:
    # Written as another program would receive them, the boards of a drawn study played from a
    # file with the same seed are the same games, guess for guess.
    from mineshafted.game import AfterMine, Game, Rules
    from mineshafted.probability import start_cell
    from mineshafted.studies import Study

    drawn = Study(16, 30, 99, games=4, seed=2, first=first, start=start, policy="safest")
    cell = start_cell(start, 16, 30)
    rules = Rules(first, auto_expand=True, after_mine=AfterMine.END, total_known=True)
    lines = []
    for index in range(drawn.count):
        game = Game.draw(16, 30, 99, rules=rules, seed=game_seed(2, index))
        game.reveal(cell)
        assert game.board is not None
        mines = [game.geometry.coords(c) for c in sorted(game.board.mines)]
        lines.append({"rows": 16, "cols": 30, "mines": mines, "first": game.geometry.coords(cell)})
    path = tmp_path / "drawn.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    given = boards_study(path, first=first, seed=2, policy="safest")
    assert outcomes(run_lines(given).lines) == outcomes(run_lines(drawn).lines)
