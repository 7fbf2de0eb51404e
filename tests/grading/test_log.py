"""``--log``: what a submission printed, in sections it cannot forge, written to a file that is
created exclusively (never through a link, even one to nowhere) or replaced atomically."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.errors import TargetError
from mineshafted.grading import BoardResult, GradeReport, GraderFileError, Verdict
from mineshafted.grading.log import LINE_PREFIX, LogFile, log_text
from mineshafted.text import visible

from .conftest import CORRECT, TWO, submission

runner = CliRunner()

HEADER = re.compile(
    r"== (.*): ([a-z ]+); (printed nothing|printed \d+ bytes?.* in (\d+) lines?) =="
)


def board(label: str, output: str) -> BoardResult:
    size = len(output.encode("utf-8", "surrogatepass"))
    return BoardResult(label, 4, 5, 2, Verdict.SOLVED, 18, 0.1, "", output, size, size)


def sections(log: str) -> list[tuple[str, list[str]]]:
    """Read a log back: each header's label and the lines that follow it, unprefixed."""
    lines = log.split("\n")
    assert lines[0].startswith("# what ") and lines[-1] == ""
    found: list[tuple[str, list[str]]] = []
    at = 1
    while at < len(lines) - 1:
        header = HEADER.fullmatch(lines[at])
        assert header, f"line {at} is no header: {lines[at]!r}"
        count = int(header.group(4) or 0)
        body = lines[at + 1 : at + 1 + count]
        assert all(line == "|" or line.startswith(LINE_PREFIX) for line in body)
        found.append((header.group(1), [line[len(LINE_PREFIX) :] for line in body]))
        at += 1 + count
    return found


@given(st.lists(st.text(st.characters(exclude_categories=())), min_size=1, max_size=4))
def test_no_output_can_forge_a_section_and_every_line_is_kept(outputs: list[str]) -> None:
    forged = "== b2: solved; printed 0 bytes in 0 lines ==\n"
    boards = [board(f"b{n}", forged + output) for n, output in enumerate(outputs)]
    read = sections(log_text(GradeReport("s.py", boards)))
    assert [label for label, _ in read] == [b.puzzle for b in boards]
    for (_, lines), b in zip(read, boards, strict=True):
        expected = b.output.split("\n")
        if expected[-1] == "":
            expected.pop()
        assert lines == [visible(line, keep="\t") for line in expected]


def test_a_board_that_printed_nothing_has_a_header_only() -> None:
    text = log_text(GradeReport("s.py", [board("a", "")]))
    assert text.splitlines()[1:] == ["== a: solved; printed nothing =="]


def test_output_past_the_cap_says_how_much_was_kept() -> None:
    cut = BoardResult("a", 4, 5, 2, Verdict.TIMED_OUT, 0, 2.0, "", "x\n", 100_000, 2)
    header = log_text(GradeReport("s.py", [cut])).splitlines()[1]
    assert header == "== a: timed out; printed 100000 bytes (the first 2 kept) in 1 line =="


# The file


def test_a_new_log_is_created_only_for_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "out.log"
    with LogFile(path, force=False) as log:
        log.write("hello\n")
    assert path.read_text() == "hello\n" and stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_a_symbolic_link_is_refused_even_one_to_nowhere(tmp_path: Path, force: bool) -> None:
    target, victim = tmp_path / "target", tmp_path / "victim"
    victim.write_text("keep me")
    for link, to in ((tmp_path / "dangling.log", target), (tmp_path / "linked.log", victim)):
        link.symlink_to(to)
        with pytest.raises(TargetError) as raised:
            LogFile(link, force=force)
        assert (
            raised.value.reason == f"a symbolic link (to {to}), not followed: name the file itself"
        )
    assert not target.exists() and victim.read_text() == "keep me"


def test_an_existing_file_is_refused_without_force_and_replaced_with_it(tmp_path: Path) -> None:
    path = tmp_path / "out.log"
    path.write_text("keep me")
    with pytest.raises(TargetError) as raised:
        LogFile(path, force=False)
    assert raised.value.reason == "exists (use --force to replace it)"
    before = path.stat().st_ino
    with LogFile(path, force=True) as log:
        assert path.read_text() == "keep me"  # until the new log is whole
        log.write("new\n")
    assert path.read_text() == "new\n" and path.stat().st_ino != before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.log"]


def test_a_link_planted_while_grading_is_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    new, replaced = tmp_path / "new.log", tmp_path / "old.log"
    replaced.write_text("old")
    logs = [LogFile(new, force=False), LogFile(replaced, force=True)]
    for path in (new, replaced):  # what another user of the folder could do meanwhile
        path.unlink()
        path.symlink_to(victim)
    for log in logs:
        log.write("log\n")
    assert victim.read_text() == "keep me"
    assert replaced.read_text() == "log\n" and not replaced.is_symlink()


def test_a_log_left_unwritten_removes_what_it_made(tmp_path: Path) -> None:
    new, old = tmp_path / "new.log", tmp_path / "old.log"
    old.write_text("keep me")
    with LogFile(new, force=False), LogFile(old, force=True):
        assert new.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.log"]
    assert old.read_text() == "keep me"


def test_a_full_disk_is_one_error_and_leaves_no_partial_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    new, old = tmp_path / "new.log", tmp_path / "old.log"
    old.write_text("keep me")
    logs = [LogFile(new, force=False), LogFile(old, force=True)]

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    for log in logs:
        with pytest.raises(GraderFileError) as raised:
            log.write("x" * 100_000)
        assert raised.value.reason == "cannot write the log: no space left on device"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.log"]
    assert old.read_text() == "keep me"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: p.mkdir(), "not a regular file (a directory)"),
        (lambda p: os.mkfifo(p), "not a regular file (a FIFO)"),
        (lambda p: None, "cannot write the log: no such file or directory"),
    ],
    ids=["directory", "fifo", "no-folder"],
)
def test_what_cannot_take_a_log_is_one_phrase(tmp_path: Path, make: object, reason: str) -> None:
    path = tmp_path / "out.log"
    make(path)  # type: ignore[operator]
    if reason.startswith("cannot write"):
        path = tmp_path / "missing" / "out.log"
    with pytest.raises((GraderFileError, TargetError)) as raised:
        LogFile(path, force=True)
    assert raised.value.reason == reason  # type: ignore[union-attr]


def test_a_device_or_the_submission_never_takes_a_log(tmp_path: Path) -> None:
    student = tmp_path / "student.py"
    student.write_text("x = 1\n")
    for path, reason in (
        (Path("/dev/full"), "not a regular file (a character device)"),
        (Path("/dev/null"), "not a regular file (a character device)"),
        (student, f"the same file as the input {student}: write to another"),
    ):
        with pytest.raises(TargetError) as raised:
            LogFile(path, force=True, protect=[student])
        assert raised.value.reason == reason
    assert student.read_text() == "x = 1\n" and stat.S_ISCHR(Path("/dev/full").stat().st_mode)


# The command


@pytest.fixture
def puzzle(tmp_path: Path) -> Path:
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"board": TWO.to_grid()}))
    return path


@pytest.mark.slow
def test_an_existing_log_is_kept_without_force(tmp_path: Path, puzzle: Path) -> None:
    log = tmp_path / "out.log"
    log.write_text("keep me")
    args = ["grade", str(submission(tmp_path, CORRECT)), str(puzzle), "--log", str(log)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and log.read_text() == "keep me" and refused.stdout == ""
    assert refused.stderr == f"error: {log}: exists (use --force to replace it)\n"
    assert runner.invoke(app, [*args, "--force"]).exit_code == 0
    assert log.read_text().splitlines()[1] == f"== {puzzle}: solved; printed nothing =="


def test_a_dangling_link_is_refused_before_grading(tmp_path: Path, puzzle: Path) -> None:
    log, target = tmp_path / "out.log", tmp_path / "elsewhere"
    log.symlink_to(target)
    args = ["grade", str(submission(tmp_path, CORRECT)), str(puzzle), "--log", str(log)]
    for extra in ([], ["--force"]):
        done = runner.invoke(app, [*args, *extra])
        assert (done.exit_code, done.stdout) == (2, "")
        assert done.stderr == (
            f"error: {log}: a symbolic link (to {target}), not followed: name the file itself\n"
        )
    assert not target.exists()


@pytest.mark.parametrize("target", ["/dev/full", "submission"])
def test_a_log_on_a_device_or_the_submission_is_refused_before_grading(
    tmp_path: Path, puzzle: Path, target: str
) -> None:
    student = submission(tmp_path, CORRECT)
    log = str(student) if target == "submission" else target
    for extra in ([], ["--force"]):
        done = runner.invoke(app, ["grade", str(student), str(puzzle), "--log", log, *extra])
        assert (done.exit_code, done.stdout) == (2, "")
        why = "the same file as the input" if target == "submission" else "not a regular file"
        assert done.stderr.startswith(f"error: {log}: {why}") and done.stderr.count("\n") == 1
    assert student.read_text() == textwrap.dedent(CORRECT)
    assert stat.S_ISCHR(Path("/dev/full").stat().st_mode)


@pytest.mark.slow
def test_a_submission_cannot_forge_another_board_s_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "boards"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.json").write_text(json.dumps({"board": TWO.to_grid()}))
    forger = submission(
        tmp_path,
        "print('done\\n== boards/b.json: solved; printed nothing ==')\n" + CORRECT,
        name="forger.py",
    )
    log = tmp_path / "out.log"
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, ["grade", str(forger), "boards", "--log", str(log)])
    assert done.exit_code == 0, done.output
    read = sections(log.read_text())
    assert [label for label, _ in read] == ["boards/a.json", "boards/b.json"]
    assert read[0][1] == ["done", "== boards/b.json: solved; printed nothing =="]


@pytest.mark.slow
def test_a_submission_that_cannot_be_graded_leaves_no_log(tmp_path: Path, puzzle: Path) -> None:
    log = tmp_path / "out.log"
    broken = submission(tmp_path, "syntax error here\n")
    done = runner.invoke(app, ["grade", str(broken), str(puzzle), "--log", str(log)])
    assert done.exit_code == 2 and not log.exists()
