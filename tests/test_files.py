"""Files written at a path given from outside: a target is written whole beside itself and
renamed, never over a device, a FIFO, a folder or a link, nor over an existing file without
force, nor over an input; every refusal a TargetError of one line naming the path."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from mineshafted.errors import InputError, TargetError
from mineshafted.files import check_folder, check_results, check_target, read_regular, replacing

from .conftest import raised_within

FULL = Path("/dev/full")


def _refused(call: object) -> str:
    """The message of the TargetError ``call()`` raises, checked to be one line."""
    with pytest.raises(TargetError) as refusal:
        call()  # type: ignore[operator]
    message = str(refusal.value)
    assert "\n" not in message and message == f"{refusal.value.path}: {refusal.value.reason}"
    return message


def _write(path: Path, text: str, **options: object) -> None:
    with replacing(path, **options) as beside:  # type: ignore[arg-type]
        beside.write_text(text)


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_new_target_is_written_whole_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    _write(target, "whole")
    assert target.read_text() == "whole" and _listing(tmp_path) == ["page.html"]


def test_a_new_target_gets_the_mode_the_umask_gives(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        _write(tmp_path / "a.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o640


def test_an_existing_file_is_refused_without_force_and_kept(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("before")
    line = _refused(lambda: _write(target, "after"))
    assert line == f"{target}: exists (use --force to replace it)"
    assert target.read_text() == "before" and _listing(tmp_path) == ["kept.txt"]


def test_force_replaces_an_existing_file_keeping_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("before")
    target.chmod(0o600)
    _write(target, "after", force=True)
    assert target.read_text() == "after" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert _listing(tmp_path) == ["kept.txt"]


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_a_folder_is_not_a_regular_file(tmp_path: Path, force: bool) -> None:
    folder = tmp_path / "a folder"
    folder.mkdir()
    line = _refused(lambda: _write(folder, "x", force=force))
    assert line == f"{folder}: not a regular file (a directory)"
    assert _listing(tmp_path) == ["a folder"] and _listing(folder) == []


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_a_fifo_is_refused_without_opening_it(tmp_path: Path, force: bool) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    line = _refused(lambda: _write(fifo, "x", force=force))  # opening it would block
    assert line == f"{fifo}: not a regular file (a FIFO)"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_a_device_is_refused_and_left_a_device(force: bool) -> None:
    line = _refused(lambda: _write(FULL, "x", force=force))
    assert line == "/dev/full: not a regular file (a character device)"
    assert stat.S_ISCHR(FULL.lstat().st_mode)


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
@pytest.mark.parametrize("dangling", [False, True], ids=["to a file", "dangling"])
def test_a_symbolic_link_is_not_followed(tmp_path: Path, force: bool, dangling: bool) -> None:
    pointed = tmp_path / "pointed.txt"
    if not dangling:
        pointed.write_text("before")
    link = tmp_path / "link.txt"
    link.symlink_to(pointed)
    line = _refused(lambda: _write(link, "after", force=force))
    assert line == f"{link}: a symbolic link (to {pointed}), not followed: name the file itself"
    assert link.is_symlink()
    assert (pointed.read_text() == "before") if not dangling else not pointed.exists()


def test_a_target_that_is_an_input_is_refused_even_with_force(tmp_path: Path) -> None:
    source = tmp_path / "game.jsonl"
    source.write_text("the record")
    line = _refused(lambda: _write(source, "x", force=True, inputs=[source]))
    assert line == f"{source}: the same file as the input {source}: write to another"
    assert source.read_text() == "the record"


def test_a_failed_block_leaves_the_target_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    target.write_text("before")
    with pytest.raises(UnicodeEncodeError), replacing(target, force=True) as beside:
        beside.write_text("a\ud800b", encoding="utf-8")
    assert target.read_text() == "before" and _listing(tmp_path) == ["page.html"]


def test_a_failed_write_names_the_target_not_the_file_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "page.html"

    def write() -> None:
        with replacing(target) as beside:
            raise OSError(28, "No space left on device", str(beside))

    assert _refused(write) == f"{target}: No space left on device"
    assert _listing(tmp_path) == []


def test_a_file_made_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "race.txt"

    def write() -> None:
        with replacing(target) as beside:
            beside.write_text("mine")
            target.write_text("someone else's")  # after the first look, before the rename

    assert _refused(write) == f"{target}: exists (use --force to replace it)"
    assert target.read_text() == "someone else's" and _listing(tmp_path) == ["race.txt"]


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    target = tmp_path / "no" / "page.html"
    line = _refused(lambda: _write(target, "x"))
    assert line == f"{target}: no such folder: {target.parent}"


def test_a_results_file_may_exist_only_as_a_regular_file(tmp_path: Path) -> None:
    check_results(tmp_path / "new.jsonl")
    (tmp_path / "old.jsonl").write_text("{}\n")
    check_results(tmp_path / "old.jsonl")
    os.mkfifo(tmp_path / "fifo")
    line = _refused(lambda: check_results(tmp_path / "fifo"))
    assert line == f"{tmp_path / 'fifo'}: not a regular file (a FIFO)"


def test_an_output_folder_may_exist_only_as_a_folder(tmp_path: Path) -> None:
    check_folder(tmp_path / "new")
    (tmp_path / "linked").symlink_to(tmp_path)
    check_folder(tmp_path / "linked")  # written into, not replaced
    (tmp_path / "file").write_text("x")
    line = _refused(lambda: check_folder(tmp_path / "file"))
    assert line == f"{tmp_path / 'file'}: not a folder (a regular file)"


def test_check_target_alone_writes_nothing(tmp_path: Path) -> None:
    check_target(tmp_path / "new.txt")
    assert _listing(tmp_path) == []


# -- reading ------------------------------------------------------------------------------------


def test_a_fifo_is_refused_at_once_without_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    error = raised_within(lambda: read_regular(fifo, limit=100))
    assert isinstance(error, InputError) and error.reason == "not a regular file (a FIFO)"


def test_what_was_opened_is_checked_not_only_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The name looked like a regular file, then became a FIFO before it was opened.
    fifo = tmp_path / "swapped.json"
    os.mkfifo(fifo)
    regular, real_stat = os.stat(__file__), os.stat

    def looked_at(path: Any, *args: Any, **options: Any) -> os.stat_result:
        return regular if str(path) == str(fifo) else real_stat(path, *args, **options)

    monkeypatch.setattr(os, "stat", looked_at)
    error = raised_within(lambda: read_regular(fifo, limit=100))
    assert isinstance(error, InputError) and "not a regular file (a FIFO)" in str(error)


def test_a_file_is_read_to_one_byte_past_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 11)
    assert read_regular(path, limit=11) == b"x" * 11
    with pytest.raises(InputError, match=r"big: larger than 10 bytes: not read past that cap"):
        read_regular(path, limit=10)


def test_a_link_to_a_regular_file_is_read_and_a_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"data")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_regular(tmp_path / "link", limit=10) == b"data"
    with pytest.raises(InputError, match=r": is a directory, not a file to read$"):
        read_regular(tmp_path, limit=10)
    with pytest.raises(InputError, match=r"nothing: no such file$"):
        read_regular(tmp_path / "nothing", limit=10)
