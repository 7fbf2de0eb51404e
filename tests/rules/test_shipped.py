"""The shipped contest set and champion are what their scripts make."""

from __future__ import annotations

from pathlib import Path

from mineshafted.formats import find_puzzle_files, read_puzzles

from ..conftest import script as load_script

ROOT = Path(__file__).resolve().parents[2]


def test_the_contest_set_is_what_make_contest_writes() -> None:
    script = load_script("make_contest.py")
    files = script["boards"]()
    folder = ROOT / "puzzles" / "contest"
    assert sorted(files) == sorted(p.name for p in find_puzzle_files([folder]))
    for name, text in files.items():
        assert (folder / name).read_text() == text, name


def test_the_contest_boards_are_30x30_at_20_to_25_percent() -> None:
    boards = [
        p.board for f in find_puzzle_files([ROOT / "puzzles" / "contest"]) for p in read_puzzles(f)
    ]
    assert len(boards) >= 20
    for board in boards:
        assert (board.geometry.rows, board.geometry.cols) == (30, 30)
        assert 0.17 <= board.mine_total / 900 <= 0.28


def test_the_champion_pairs_are_what_make_champion_writes() -> None:
    script = load_script("make_champion.py")
    text = script["CHAMPION"].read_text()
    head, marker = text.split(script["MARKER"])[0], script["MARKER"]
    assert text == head + script["pairs_text"]()
    assert marker in text


def test_the_root_rules_folder_is_the_shipped_one() -> None:
    assert (ROOT / "rules" / "champion.s4").read_text() == (
        ROOT / "mineshafted" / "rules" / "data" / "champion.s4"
    ).read_text()
    assert sorted(p.name for p in (ROOT / "rules" / "examples").glob("*.s4")) == [
        "corner.s4",
        "n-unknowns.s4",
        "single-unknown.s4",
    ]
