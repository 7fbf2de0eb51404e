"""Puzzle files: the accepted shapes, round trips, and errors that say where."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mineshafted import PuzzleFormatError, parse_puzzles, read_puzzles
from mineshafted.errors import InputError
from mineshafted.formats import dump_puzzle, find_puzzle_files, read_lines, read_text

from .conftest import SAMPLE, raised_within


def test_object_and_bare_list_are_both_puzzles() -> None:
    (obj,) = parse_puzzles(json.dumps({"board": SAMPLE, "name": "sample", "source": "course"}))
    (bare,) = parse_puzzles(json.dumps(SAMPLE))
    assert obj.board == bare.board
    assert (obj.name, obj.source, obj.start) == ("sample", "course", 0)
    assert bare.name is None


def test_json_lines_hold_several_puzzles() -> None:
    text = json.dumps(SAMPLE) + "\n\n" + json.dumps({"board": [[0]], "name": "one"}) + "\n"
    puzzles = parse_puzzles(text)
    assert [p.name for p in puzzles] == [None, "one"]


def test_round_trip_keeps_unknown_fields_and_start() -> None:
    text = json.dumps({"board": SAMPLE, "start": [3, 0], "seed": 5, "stats": {"tries": 2}})
    (puzzle,) = parse_puzzles(text)
    assert puzzle.start == 9
    assert json.loads(dump_puzzle(puzzle)) == json.loads(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "<input>: empty input"),
        (
            "{",
            "<input>: not valid JSON: Expecting property name enclosed in double quotes "
            "at line 1, column 2",
        ),
        ('{"board": [[0]]}\n{"board": [[0]]', "<input>: line 2: not valid JSON"),
        ("42", 'a puzzle is an object with a "board" or a 2D list, not a number'),
        ('{"name": "x"}', 'the puzzle has no "board" field'),
        (
            '{"board": [[0, 1]]}',
            "board: row 0, column 1: clue 1 but 0 adjacent mine",
        ),
        ('{"board": [[0, 0], [0]]}', "board: row 1 has 1 cells but row 0 has 2"),
        ('{"board": [[0, "x"]]}', 'board: row 0, column 1: "x" is not an integer'),
        ('{"board": [[0, true]]}', "board: row 0, column 1: true is not an integer"),
        ('{"board": [[0, null]]}', "board: row 0, column 1: null is not a clue 0-8 or a mine -1"),
        ('{"board": [[0], null]}', "board: row 1 is null, not a list"),
        ('{"board": [[0], {"a": 1}]}', "board: row 1 is an object, not a list"),
        ('{"board": [[0]], "name": 3}', '"name" must be a string, not a number'),
        ('{"board": [[0, 0]], "start": [0]}', '"start" must be \\[row, column\\], not \\[0\\]'),
        ('{"board": [[0, 0]], "start": [1, 0]}', '"start" \\[1, 0\\] is off the 1x2 board'),
        ('{"board": [[-1, 1]], "start": [0, 0]}', '"start" \\[0, 0\\] is a mine'),
        ('{"board": [[-1, 1]]}', "the default start \\[0, 0\\] is a mine"),
        ("[" * 100000, "nested too deeply"),
    ],
)
def test_errors_name_the_problem_and_place(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=message):
        parse_puzzles(text)


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(PuzzleFormatError, match=r"missing\.json: no such file"):
        read_puzzles(tmp_path / "missing.json")
    with pytest.raises(PuzzleFormatError, match="is a directory"):
        read_puzzles(tmp_path)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PuzzleFormatError, match=r"bin\.json: not UTF-8"):
        read_puzzles(binary)
    broken = tmp_path / "broken.json"
    broken.write_text('{"board": [[0, 1], [1, 2]]}')
    with pytest.raises(
        PuzzleFormatError, match=r"broken.json: board: row 0, column 1: clue 1 but 0"
    ):
        read_puzzles(broken)


def test_find_puzzle_files_expands_directories(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    for name in ("b/2.json", "1.json", "b/notes.txt", "b/3.jsonl"):
        (tmp_path / name).write_text("[[0]]")
    found = [p.relative_to(tmp_path).as_posix() for p in find_puzzle_files([tmp_path])]
    assert found == ["1.json", "b/2.json", "b/3.jsonl"]


def test_read_text_reads_at_most_one_byte_past_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text("[[0]]" + " " * 10)
    assert read_text(path, limit=15) == "[[0]]" + " " * 10
    with pytest.raises(InputError, match=r"big\.json: larger than 14 bytes") as caught:
        read_text(path, limit=14)
    assert caught.value.limit == 14 and caught.value.source == str(path)


@pytest.mark.parametrize("reader", [read_text, read_puzzles, lambda p: list(read_lines(p))])
def test_a_fifo_is_refused_at_once_without_a_writer(tmp_path: Path, reader: Any) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    error = raised_within(lambda: reader(fifo))
    assert isinstance(error, InputError | PuzzleFormatError), error
    assert str(error).startswith(f"{fifo}: not a regular file (a FIFO)")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_refused_unread() -> None:
    with pytest.raises(PuzzleFormatError, match=r"^/dev/zero: not a regular file \(a character"):
        read_puzzles("/dev/zero")


def test_a_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text(json.dumps(SAMPLE))
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    assert read_puzzles(tmp_path / "link.json")[0].board.to_grid() == SAMPLE
