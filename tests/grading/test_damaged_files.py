"""Damaged run files and FIFOs: a class run's run.json and kept grades, an autograder's settings
and Gradescope's metadata are read through one checked model, bounded in size and depth; a
FIFO is never waited on. One line and exit 2, or (a damaged student's grade) graded again."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import GraderFileError
from mineshafted.grading.classrun import ClassRun, ClassRunError
from mineshafted.grading.files import read_json
from mineshafted.grading.options import GradeOptions
from mineshafted.grading.roster import roster
from mineshafted.grading.runfolder import RUN_FILE

from .conftest import needs_bwrap

runner = CliRunner()

WRONG = "def sweep_mines(bm):\n    return [[bm.move(0)]]\n"
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture(autouse=True)
def never_hangs() -> Iterator[None]:
    """Fail a test that waits (on a FIFO, say) instead of letting it hang the run."""

    def late(*_: object) -> None:
        raise TimeoutError("waited 60 s: something blocked")

    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """A new class run's folder (a fresh key, no student graded yet)."""
    out = tmp_path / "out"
    ClassRun(out, GradeOptions())
    return out


@pytest.fixture
def subs(tmp_path: Path) -> Path:
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "ann.py").write_text(WRONG)
    return folder


# Reading JSON at all.


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (DEEP, "not JSON that can be read: nested too deeply"),
        ('{"a": Infinity}', "not JSON: Infinity is not a JSON number"),
        ('{"a": NaN}', "not JSON: NaN is not a JSON number"),
        ("1" * 5000, "not JSON: Exceeds the limit (4300 digits)"),
        ("{", "not JSON: Expecting property name enclosed in double quotes"),
    ],
    ids=["deep", "infinity", "nan", "long-integer", "cut"],
)
def test_json_that_cannot_be_read_is_one_line(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(GraderFileError) as raised:
        read_json(path, "settings")
    assert str(raised.value).startswith(f"{path}: not settings: {reason}")
    assert "\n" not in str(raised.value)


def test_a_file_too_large_or_not_regular_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 101)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(GraderFileError, match="larger than 100 bytes: not read past that cap"):
        read_json(big, "settings", limit=100)
    for path, kind in ((fifo, "a FIFO"), (Path("/dev/zero"), "a character device")):
        with pytest.raises(GraderFileError) as raised:
            read_json(path, "settings")
        assert raised.value.reason == f"not a regular file ({kind})"
    with pytest.raises(GraderFileError) as raised:
        read_json(tmp_path, "settings")
    assert raised.value.reason == "is a directory, not a file to read"


# A class run's state.


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda state: DEEP, "not JSON that can be read: nested too deeply"),
        (lambda state: [], "not a JSON object"),
        (lambda state: {**state, "options": []}, '"options": the options are not a JSON object'),
        (
            lambda state: {**state, "options": {**state["options"], "memory_mb": "Infinity"}},
            '"options": "memory_mb": must be a whole number of MiB from 64 to 1048576',
        ),
        (lambda state: {**state, "key": 5}, '"key" is not the path of a key file'),
        (lambda state: {**state, "board_set": 5}, '"board_set" is not a board set\'s name'),
        (lambda state: {**state, "finished": "yes"}, '"finished" is not true or false'),
        (lambda state: {**state, "format": "x"}, "no format or version of one"),
    ],
    ids=["deep", "list", "options-list", "memory", "key", "board-set", "finished", "format"],
)
def test_a_damaged_run_state_is_one_line_naming_it(
    run: Path, subs: Path, change: object, reason: str
) -> None:
    state = json.loads((run / RUN_FILE).read_text())
    damaged = change(state)  # type: ignore[operator]
    text = damaged if isinstance(damaged, str) else json.dumps(damaged)
    (run / RUN_FILE).write_text(text)
    with pytest.raises(ClassRunError) as raised:
        ClassRun(run, GradeOptions())
    assert str(raised.value).startswith(f"{run / RUN_FILE}: not a class run's state")
    assert reason in str(raised.value) and "\n" not in str(raised.value)
    done = runner.invoke(app, ["grade", "class", str(subs), "--out", str(run)])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == f"error: {raised.value}\n"


def test_memory_infinity_written_as_json_s_extension_is_refused(run: Path, subs: Path) -> None:
    text = (run / RUN_FILE).read_text().replace('"memory_mb": 1024', '"memory_mb": Infinity')
    (run / RUN_FILE).write_text(text)
    done = runner.invoke(app, ["grade", "class", str(subs), "--out", str(run)])
    assert done.exit_code == 2 and done.stderr.count("\n") == 1
    assert "Infinity is not a JSON number" in done.stderr


def test_a_run_state_that_is_a_fifo_is_refused_without_waiting(run: Path, subs: Path) -> None:
    (run / RUN_FILE).unlink()
    os.mkfifo(run / RUN_FILE)
    done = runner.invoke(app, ["grade", "class", str(subs), "--out", str(run)])
    assert done.exit_code == 2
    assert done.stderr == (
        f"error: {run / RUN_FILE}: not a regular file (a FIFO): name another --out\n"
    )


# A student's kept grade.


def kept(run: Path, name: str, text: str) -> None:
    (run / "results" / f"{name}.json").write_text(text)


GOOD = {
    "format": "mineshafted-student",
    "version": 1,
    "name": "ann",
    "source": "ann.py",
    "sha256": None,
    "problem": "",
    "imports": [],
    "seconds": 0.5,
    "report": {
        "board_set": None,
        "warnings": [],
        "boards": [
            {
                "puzzle": "4x4-1-1",
                "rows": 4,
                "cols": 4,
                "mines": 1,
                "outcome": "wrong board",
                "moves": 1,
                "seconds": 0.1,
                "detail": "",
                "output_bytes": 0,
                "unexplored": 14,
                "opened": [0],
                "wrong": [[0, 1, "x", 1]],
            }
        ],
    },
}


def board(**change: object) -> str:
    report = {**GOOD["report"], "boards": [{**GOOD["report"]["boards"][0], **change}]}  # type: ignore[dict-item]
    return json.dumps({**GOOD, "report": report})


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (DEEP, "nested too deeply"),
        ("[]", "the grade is not a JSON object"),
        (json.dumps({**GOOD, "seconds": "x"}), '"seconds" is not a number of seconds'),
        (json.dumps({**GOOD, "name": 5}), '"name" is not text'),
        (json.dumps({**GOOD, "sha256": "abc"}), '"sha256" is not a SHA-256 in hex'),
        (json.dumps({**GOOD, "report": []}), '"report" is not a JSON object'),
        (board(moves="x"), 'boards[0]: "moves" is not a count'),
        (board(outcome="won"), 'boards[0]: "outcome" is not an outcome'),
        (board(opened=[99]), "holds a cell that is not on the board"),
        (board(rows=10**9), "larger than any graded"),
        (board(wrong=[[0, 1]]), "not (row, col, returned, is)"),
        (json.dumps({**GOOD, "name": "bob"}), "holds the grade of 'bob'"),
    ],
    ids=lambda value: value[:20] if isinstance(value, str) else None,
)
def test_a_damaged_grade_is_set_aside_and_its_student_graded_again(
    run: Path, subs: Path, text: str, reason: str
) -> None:
    kept(run, "ann", text)
    again = ClassRun(run, GradeOptions())
    done, todo = again.plan(roster(subs))
    assert [s.name for s in todo] == ["ann"] and done == []
    (damaged,) = again.damaged
    assert damaged.path == run / "results" / "ann.json" and reason in damaged.reason
    assert str(damaged).endswith(": graded again") and "\n" not in str(damaged)


def test_a_finished_run_grades_a_damaged_grade_again_rather_than_refuse(
    run: Path, subs: Path
) -> None:
    state = json.loads((run / RUN_FILE).read_text())
    (run / RUN_FILE).write_text(json.dumps({**state, "finished": True}))
    kept(run, "ann", "[]")
    again = ClassRun(run, GradeOptions())
    _, todo = again.plan(roster(subs))
    assert [s.name for s in todo] == ["ann"]
    (subs / "bob.py").write_text(WRONG)  # a new submission is still refused
    with pytest.raises(ClassRunError, match=r"1 submission\(s\) are new or changed since \(bob\)"):
        again.plan(roster(subs))


@pytest.mark.slow
@needs_bwrap
@pytest.mark.usefixtures("small_sets")
def test_grade_class_says_a_damaged_grade_is_graded_again(tmp_path: Path, subs: Path) -> None:
    out = tmp_path / "out"
    first = runner.invoke(app, ["grade", "class", str(subs), "--out", str(out), "--format", "csv"])
    assert first.exit_code == 0, first.output
    kept(out, "ann", DEEP)
    again = runner.invoke(app, ["grade", "class", str(subs), "--out", str(out), "--format", "csv"])
    assert again.exit_code == 0, again.output
    assert again.stderr.splitlines()[0] == (
        f"warning: {out / 'results' / 'ann.json'}: damaged (not a student's grade: not JSON "
        "that can be read: nested too deeply): graded again"
    )

    def row(text: str) -> dict[str, str]:
        (found,) = csv.DictReader(io.StringIO(text))
        return {column: value for column, value in found.items() if column != "seconds"}

    assert row(again.stdout) == row(first.stdout)  # the same grade again
    assert json.loads((out / "results" / "ann.json").read_text())["name"] == "ann"


# FIFOs where a file is read.


def test_a_fifo_in_a_student_s_folder_is_that_student_s_row(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    (folder / "bob").mkdir(parents=True)
    os.mkfifo(folder / "bob" / "lab.py")
    os.mkfifo(folder / "cy.py")
    (folder / "di").mkdir()
    os.mkfifo(folder / "di" / "main.py")
    found = {s.name: s.problem for s in roster(folder)}
    assert found == {
        "bob": "bob/lab.py is not a regular file",
        "cy": "cy.py is not a regular file",
        "di": "di/main.py is not a regular file",
    }
    assert roster(folder, "main.py")[2].problem == "di/main.py is not a regular file"


def test_a_fifo_as_starter_or_key_is_one_line(tmp_path: Path, subs: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    student = subs / "ann.py"
    out = str(tmp_path / "out")
    not_a_key = f"{fifo}: not a regular file (a FIFO), not a key file"
    cases = [
        (["grade", "class", str(subs), "--similarity", "--starter", str(fifo), "--out", out],
         f"{fifo}: cannot be read as the starter code: not a regular file (a FIFO)"),
        (["grade", "class", str(subs), "--allow", "x", "--starter", str(fifo), "--out", out],
         f"{fifo}: cannot be read as the starter code: not a regular file (a FIFO)"),
        (["grade", str(student), "--allow", "x", "--starter", str(fifo)],
         f"{fifo}: cannot be read as the starter code: not a regular file (a FIFO)"),
        (["grade", "class", str(subs), "--key", str(fifo), "--out", out], not_a_key),
        (["grade", str(student), "--key", str(fifo)], not_a_key),
        (["autograder", "gradescope", "--out", str(tmp_path / "a.zip"), "--key", str(fifo)],
         not_a_key),
    ]  # fmt: skip
    for args, message in cases:
        done = runner.invoke(app, args)
        assert (done.exit_code, done.stdout, done.stderr) == (2, "", f"error: {message}\n"), args


# An autograder's settings and Gradescope's metadata.


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An autograder root with nothing submitted (graded at once: no board is played)."""
    folder = tmp_path / "root"
    (folder / "submission").mkdir(parents=True)
    (folder / "results").mkdir()
    (folder / "board.key").write_text("mineshafted board key 1 " + "ab" * 32 + "\n")
    return folder


def autograder_run(root: Path, config: Path) -> object:
    args = ["autograder", "run", "gradescope", "--root", str(root), "--config", str(config)]
    return runner.invoke(app, [*args, "--key", str(root / "board.key")])


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (DEEP, "not an autograder's settings: not JSON that can be read: nested too deeply"),
        ('{"memory_mb": Infinity}', "not JSON: Infinity is not a JSON number"),
        ('{"memory_mb": 1e400}', '"memory_mb": must be a whole number of MiB'),
        ('{"timeout": "x"}', '"timeout": must be a number of seconds from 0.1 to 86400, not "x"'),
        ('{"file": 5}', '"file": 5 is not a file name (no folder in it)'),
        ('{"visibility": "soon"}', '"visibility": must be one of visible, hidden'),
        ("[]", "not an autograder's settings: the settings are not a JSON object"),
    ],
    ids=["deep", "infinity", "overflow", "timeout", "file", "visibility", "list"],
)
def test_a_damaged_autograder_json_is_one_line(root: Path, text: str, reason: str) -> None:
    config = root / "autograder.json"
    config.write_text(text)
    done = autograder_run(root, config)
    assert done.exit_code == 2 and done.stdout == ""  # type: ignore[attr-defined]
    assert done.stderr.startswith(f"error: {config}: ")  # type: ignore[attr-defined]
    assert reason in done.stderr and done.stderr.count("\n") == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "metadata", [DEEP, "[1]", '{"id": [1]}', None], ids=["deep", "list", "id", "fifo"]
)
def test_metadata_that_cannot_be_read_costs_only_the_boards_context(
    root: Path, metadata: str | None
) -> None:
    config = root / "autograder.json"
    config.write_text("{}")
    path = root / "submission_metadata.json"
    if metadata is None:
        os.mkfifo(path)
    else:
        path.write_text(metadata)
    done = autograder_run(root, config)
    assert done.exit_code == 0, done.output  # type: ignore[attr-defined]
    (line,) = done.stderr.splitlines()  # type: ignore[attr-defined]
    assert line.startswith(f"warning: {path}: ") and line.endswith(
        "graded on boards of a fresh context"
    )
    results = json.loads((root / "results" / "results.json").read_text())
    assert "no Python file was submitted" in results["output"]


def test_the_settings_of_an_earlier_autograder_are_read(root: Path) -> None:
    config = root / "autograder.json"
    config.write_text(
        json.dumps(
            {"file": "lab.py", "allow": ["itertools"], "timeout": None, "memory_mb": 1024,
             "visibility": "hidden"}
        )
    )  # fmt: skip
    done = autograder_run(root, config)
    assert done.exit_code == 0, done.output  # type: ignore[attr-defined]
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["visibility"] == "hidden" and "no file lab.py was submitted" in results["output"]
