"""The board key: the default boards come from a secret the instructor keeps, reports name the
set without revealing it, and a regrade gets new boards unless the key is passed on purpose.

The attack this answers: a submission built offline from the boards of whatever a report
printed (once, the seed: ``--seed S`` then gave a free 100 %) tells the boards apart by their
first differing clue and moves onto every safe cell, solving nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted import Puzzle
from mineshafted.cli import app
from mineshafted.errors import TargetError
from mineshafted.grading import BoardKey, BoardSet, GraderFileError, boards
from mineshafted.grading.key import KEY_BYTES, KEY_FILE_HEADER

from .conftest import CORRECT, TWO, lookup_submission, submission

runner = CliRunner()

NAME = re.compile(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}")
"""A board set's name."""

KEY = BoardKey(bytes(range(KEY_BYTES)))


def grade_json(*args: str) -> dict[str, Any]:
    """``grade --json -j 2 ARGS`` on the default boards, its report parsed (it must succeed)."""
    done = runner.invoke(app, ["grade", "--json", "-j", "2", *args])
    assert done.exit_code == 0, done.output
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.fixture
def graded_boards(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """The boards of each board set the command grades on, in order."""
    seen: list[list[Any]] = []
    made = BoardSet.boards

    def spy(self: BoardSet) -> list[tuple[str, Puzzle]]:
        items = made(self)
        seen.append([p.board for _, p in items])
        return items

    monkeypatch.setattr(BoardSet, "boards", spy)
    return seen


def solved(report: dict[str, Any]) -> int:
    return sum(b["outcome"] == "solved" for b in report["boards"])


# The key and its board sets


def test_a_board_set_is_the_same_for_the_same_key_and_context_and_differs_otherwise(
    small_sets: None,
) -> None:
    first = [p.board for _, p in KEY.board_set().boards()]
    assert [p.board for _, p in BoardKey(KEY.secret).board_set().boards()] == first
    assert [p.board for _, p in KEY.board_set("submission 2").boards()] != first
    assert [p.board for _, p in BoardKey.new().board_set().boards()] != first
    assert KEY.board_set().name == BoardKey(KEY.secret).board_set().name
    assert KEY.board_set().name != KEY.board_set("submission 2").name


def test_a_name_is_sixteen_hex_digits_from_another_keyed_hash_than_the_boards() -> None:
    chosen = KEY.board_set()
    assert NAME.fullmatch(chosen.name)
    digits = bytes.fromhex(chosen.name.replace("-", ""))
    assert digits not in KEY.secret and digits not in hashlib.sha256(KEY.secret).digest()
    seed = int.from_bytes(chosen._digest(b"mineshafted board set boards\0"), "big")
    assert digits not in seed.to_bytes(32, "big")


def test_a_key_never_shows_its_secret_in_a_repr() -> None:
    assert KEY.secret.hex() not in repr(KEY) + repr(KEY.board_set())
    assert repr(KEY) == "BoardKey(<secret>)"


def test_a_key_has_exactly_32_bytes() -> None:
    with pytest.raises(ValueError, match="a board key is 32 bytes, not 31"):
        BoardKey(bytes(31))


def test_a_key_file_is_one_line_only_its_owner_can_read_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "grading.key"
    KEY.write(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == f"{KEY_FILE_HEADER} {KEY.secret.hex()}\n"
    assert BoardKey.read(path) == KEY


def test_a_key_file_is_replaced_only_when_asked_and_never_written_through_a_link(
    tmp_path: Path,
) -> None:
    existing, target = tmp_path / "old.key", tmp_path / "target"
    existing.write_text("keep me")
    dangling = tmp_path / "dangling.key"
    dangling.symlink_to(target)
    linked = tmp_path / "linked.key"
    linked.symlink_to(existing)
    with pytest.raises(TargetError) as raised:
        KEY.write(existing)
    assert str(raised.value) == f"{existing}: exists (use --force to replace it)"
    for path in (dangling, linked):
        for force in (False, True):
            with pytest.raises(TargetError) as raised:
                KEY.write(path, force=force)
            assert raised.value.reason.startswith("a symbolic link (to ")
    assert existing.read_text() == "keep me" and not target.exists()
    KEY.write(existing, force=True)
    assert BoardKey.read(existing) == KEY and stat.S_IMODE(existing.stat().st_mode) == 0o600


def test_a_key_is_never_written_over_a_device_a_fifo_or_the_submission(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.key"
    os.mkfifo(fifo)
    student = tmp_path / "student.py"
    student.write_text("x = 1\n")
    cases = [
        (Path("/dev/full"), "not a regular file (a character device)"),
        (fifo, "not a regular file (a FIFO)"),
        (tmp_path, "not a regular file (a directory)"),
        (student, f"the same file as the input {student}: write to another"),
    ]
    for path, reason in cases:
        with pytest.raises(TargetError) as raised:
            KEY.write(path, force=True, protect=[student])
        assert str(raised.value) == f"{path}: {reason}"
    assert stat.S_ISCHR(Path("/dev/full").stat().st_mode) and stat.S_ISFIFO(fifo.stat().st_mode)
    assert student.read_text() == "x = 1\n"


def test_a_fifo_named_as_a_key_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.key"
    os.mkfifo(fifo)
    with pytest.raises(GraderFileError) as raised:
        BoardKey.read(fifo)  # a blocking open would wait here for ever
    assert str(raised.value) == f"{fifo}: not a regular file (a FIFO), not a key file"


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"", "not a board key"),
        (b"mineshafted board key 1 " + b"ab" * 31 + b"\n", "not a board key"),
        (b"mineshafted board key 1 " + b"AB" * 32 + b"\n", "not a board key"),
        (b"mineshafted board key 2 " + b"ab" * 32 + b"\n", "not a board key"),
        (b"mineshafted board key 1 " + b"ab" * 32 + b"\n\n", "not a board key"),
        (b"\xff" * 1000, "not a board key"),
    ],
    ids=["empty", "short", "upper-case", "version", "two-lines", "binary"],
)
def test_a_malformed_key_file_is_one_clear_line(tmp_path: Path, content: bytes, why: str) -> None:
    path = tmp_path / "bad.key"
    path.write_bytes(content)
    with pytest.raises(GraderFileError) as raised:
        BoardKey.read(path)
    assert str(raised.value) == (
        f"{path}: not a board key: a key file is one line, "
        "'mineshafted board key 1 <64 hex digits>'"
    )


def test_a_key_file_with_or_without_its_final_newline_is_read(tmp_path: Path) -> None:
    path = tmp_path / "k.key"
    path.write_text(f"{KEY_FILE_HEADER} {KEY.secret.hex()}")
    assert BoardKey.read(path) == KEY


def test_a_missing_a_directory_or_an_unreadable_key_is_one_clear_line(tmp_path: Path) -> None:
    cases = [
        (tmp_path / "missing.key", "no such key file"),
        (tmp_path, "is a directory, not a key file"),
        (Path("/proc/self/mem"), "cannot read: Input/output error"),
    ]
    for path, reason in cases:
        with pytest.raises(GraderFileError) as raised:
            BoardKey.read(path)
        assert str(raised.value) == f"{path}: {reason}"


# The command


@pytest.mark.slow
def test_grade_names_the_board_set_and_prints_no_seed(tmp_path: Path, small_sets: None) -> None:
    path = submission(tmp_path, CORRECT)
    report = grade_json(str(path))
    assert NAME.fullmatch(report["board_set"]) and "seed" not in report
    assert report["score"] == 100
    text = runner.invoke(app, ["grade", "-j", "2", str(path)], terminal_width=200).stdout
    (line,) = [line for line in text.splitlines() if line.startswith("boards: ")]
    assert re.fullmatch(
        r"boards: set [0-9a-f-]{19}, from a fresh key that was not kept "
        r"\(--save-key FILE keeps one\)",
        line,
    )


@pytest.mark.slow
def test_each_grading_without_a_key_gets_new_boards(
    tmp_path: Path, small_sets: None, graded_boards: list[list[Any]]
) -> None:
    path = submission(tmp_path, CORRECT)
    first, second = grade_json(str(path)), grade_json(str(path))
    assert first["board_set"] != second["board_set"]
    assert len(graded_boards) == 2 and graded_boards[0] != graded_boards[1]


@pytest.mark.slow
def test_a_saved_key_grades_on_the_same_boards_again(
    tmp_path: Path, small_sets: None, graded_boards: list[list[Any]]
) -> None:
    path, key = submission(tmp_path, CORRECT), tmp_path / "grading.key"
    first = grade_json(str(path), "--save-key", str(key))
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    again = grade_json(str(path), "--key", str(key))
    assert again["board_set"] == first["board_set"]
    assert graded_boards[0] == graded_boards[1] and len(graded_boards) == 2
    text = runner.invoke(app, ["grade", str(path), "--key", str(key)], terminal_width=300).stdout
    assert f"boards: set {first['board_set']}, from the key in {key}" in text


@pytest.mark.slow
def test_saving_a_key_says_how_to_grade_on_its_boards_again(
    tmp_path: Path, small_sets: None
) -> None:
    path, key = submission(tmp_path, CORRECT), tmp_path / "grading.key"
    args = ["grade", "-j", "2", str(path), "--save-key", str(key)]
    text = runner.invoke(app, args, terminal_width=300).stdout
    assert f", from a fresh key saved in {key} (--key {key} grades on these boards again)" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--seed", "8141"],
            "--seed is gone: a seed printed in a report let anyone rebuild the "
            "boards; grade on the same boards again with --key FILE (see --save-key)",
        ),
        (
            ["--key", "a.key", "--save-key", "b.key"],
            "--key grades on a kept key's boards and --save-key keeps a fresh one: choose one",
        ),
        (
            ["--key", "a.key", "PUZZLE"],
            "--key is for the fresh default boards: it cannot be used with puzzle files",
        ),
        (
            ["--save-key", "b.key", "PUZZLE"],
            "--save-key is for the fresh default boards: it cannot be used with puzzle files",
        ),
    ],
    ids=["seed", "both", "key-with-puzzles", "save-key-with-puzzles"],
)
def test_unusable_key_options_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    puzzle = tmp_path / "two.json"
    puzzle.write_text(json.dumps({"board": TWO.to_grid()}))
    args = [str(puzzle) if arg == "PUZZLE" else arg for arg in args]
    done = runner.invoke(app, ["grade", str(submission(tmp_path, CORRECT)), *args])
    assert (done.exit_code, done.stderr) == (2, f"error: {message}\n")


def test_key_file_problems_are_one_line_before_any_board(tmp_path: Path) -> None:
    path = submission(tmp_path, CORRECT)
    existing = tmp_path / "taken.key"
    existing.write_text("keep me")
    bad = tmp_path / "bad.key"
    bad.write_text("hello\n")
    cases = [
        (["--key", str(tmp_path / "nowhere.key")], f"{tmp_path}/nowhere.key: no such key file"),
        (
            ["--key", str(bad)],
            f"{bad}: not a board key: a key file is one line, "
            "'mineshafted board key 1 <64 hex digits>'",
        ),
        (["--save-key", str(existing)], f"{existing}: exists (use --force to replace it)"),
        (
            ["--save-key", str(path), "--force"],
            f"{path}: the same file as the input {path}: write to another",
        ),
    ]
    for args, message in cases:
        done = runner.invoke(app, ["grade", str(path), *args])
        assert (done.exit_code, done.stderr, done.stdout) == (2, f"error: {message}\n", "")
    assert existing.read_text() == "keep me"


# The attack


def _boards_from_a_name(name: str) -> list[list[list[int]]]:
    """Every board set an attacker can make from a printed name: read as a seed, or as a key."""
    digits = name.replace("-", "")
    made = boards.fresh_boards(int(digits, 16))
    made += BoardKey(hashlib.sha256(name.encode()).digest()).board_set().boards()
    made += BoardKey(bytes.fromhex(digits) * 4).board_set().boards()
    return [p.board.to_grid() for _, p in made]


ATTACK_SETS = ((8, 8, 5, 2), (9, 9, 10, 2))
"""Boards with too many layouts to meet by chance (a 4x4 board with 1 mine has a dozen: a
look-up of a few dozen random ones solves some of any set), so that the verdict is the key's."""


@pytest.mark.slow
def test_a_submission_built_from_a_report_scores_nothing_on_a_regrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards, "FRESH_SETS", ATTACK_SETS)
    key = tmp_path / "first.key"
    first = grade_json(str(submission(tmp_path, CORRECT)), "--save-key", str(key))
    from_name = lookup_submission(tmp_path, _boards_from_a_name(first["board_set"]), "name.py")
    # The strongest student: the first grading's very boards, as if every one had leaked.
    leaked = [p.board.to_grid() for _, p in BoardKey.read(key).board_set().boards()]
    from_boards = lookup_submission(tmp_path, leaked, "leaked.py")
    # The regrade of a resubmission, made the documented way: a fresh key.
    for lookup in (from_name, from_boards):
        regrade = grade_json(str(lookup))
        assert (regrade["score"], solved(regrade)) == (0, 0), lookup.name
    # The key passed on purpose: the same boards, so the leaked boards score (the attack works
    # where boards are reused) and the name still gives nothing.
    on_purpose = grade_json(str(from_boards), "--key", str(key))
    assert on_purpose["board_set"] == first["board_set"]
    assert (on_purpose["score"], solved(on_purpose)) == (30, len(first["boards"]))
    by_name = grade_json(str(from_name), "--key", str(key))
    assert (by_name["score"], solved(by_name)) == (0, 0)


@pytest.mark.slow
def test_nothing_a_report_prints_holds_the_key_or_the_seed(
    tmp_path: Path, small_sets: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[BoardKey] = []
    new = BoardKey.new

    def spy() -> BoardKey:
        made.append(new())
        return made[-1]

    monkeypatch.setattr(BoardKey, "new", staticmethod(spy))
    path = submission(tmp_path, CORRECT)
    printed = runner.invoke(app, ["grade", "--json", str(path)]).stdout
    printed += runner.invoke(app, ["grade", str(path)], terminal_width=300).stdout
    for key in made:
        seed = key.board_set()._digest(b"mineshafted board set boards\0")
        for secret in (key.secret, seed):
            for shown in (secret.hex(), str(int.from_bytes(secret, "big")), secret.hex()[:16]):
                assert shown not in printed
    assert len(made) == 2 and os.path.exists(path)
