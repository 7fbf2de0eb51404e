"""Gradescope and PrairieLearn: results.json against schemas written from their published
specifications, the autograders they run in a simulated root, and the wheel inside them.

PrairieLearn's grading job is run as PrairieGrader runs it: the ``entrypoint`` of the
question's ``info.json`` made executable and run as a program, with ``/grade/student``,
``/grade/data/data.json`` and ``/grade/serverFilesCourse`` in place and no
``/grade/results``; its ``results.json`` is read only after an exit status of 0, and only
up to 1 MB.

The platforms' images are not built here: ``setup.sh``'s apt step is skipped and its
virtual environment stood in for by the wheel installed offline with ``pip install --no-deps
--target ROOT/lib`` and this interpreter (``AUTOGRADER_PYTHON``, with ``PYTHONPATH=ROOT/lib``
so that the grader's code is the wheel's, not this checkout's: checked), whose environment
already has the wheel's dependencies.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import BoardResult, GradeReport, Verdict
from mineshafted.grading.classrun import StudentGrade
from mineshafted.grading.platforms import gradescope_results, prairielearn_results
from mineshafted.grading.rubric import achievements
from mineshafted.grading.wheel import build_wheel

runner = CliRunner()

SCHEMAS = Path(__file__).with_name("schemas")
GRADESCOPE = json.loads((SCHEMAS / "gradescope-results.schema.json").read_text())
PRAIRIELEARN = json.loads((SCHEMAS / "prairielearn-results.schema.json").read_text())

WRONG = "def sweep_mines(bm):\n    return [[bm.move(0)]]\n"

PRAIRIELEARN_EXAMPLE = {
    "gradable": True,
    "score": 0.25,
    "message": "Tests completed successfully.",
    "output": "Running tests...\nTest 1 passed\nTest 2 failed!\n...",
    "images": [{"label": "First Image", "url": "data:image/png;base64,..."}],
    "tests": [
        {
            "name": "Test 1",
            "description": "Tests that a thing does a thing.",
            "points": 1,
            "max_points": 1,
            "message": "No errors!",
            "output": "Running test...\nYour output matched the expected output!",
        },
        {
            "name": "Test 2",
            "points": 0,
            "max_points": 3,
            "images": [{"url": "data:image/gif;base64,..."}],
        },
    ],
}
"""The shape of the example in PrairieLearn's external grading documentation."""

RESULTS_MAX_BYTES = 1024 * 1024
"""PrairieGrader reads no results.json larger than this (it fails the job instead)."""


def valid(data: Any, schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)


def a_grade(outcomes: dict[int, Verdict]) -> StudentGrade:
    """A graded student whose boards (one per number of mines) went as ``outcomes`` say."""
    boards = [
        BoardResult(
            f"b{mines}",
            6,
            6,
            mines,
            outcome,
            3,
            0.01,
            detail="why" * (outcome is not Verdict.SOLVED),
        )
        for mines, outcome in outcomes.items()
    ]
    scored = achievements((b.mines, b.outcome is Verdict.SOLVED) for b in boards)
    return StudentGrade(
        "ann", "ann.py", report=GradeReport("ann.py", boards, scored, [], "1-2-3-4")
    )


def test_the_schemas_refuse_what_the_specifications_do() -> None:
    for bad in (
        {"tests": [{"name": "x"}]},
        {"score": 1, "visibility": "sometimes"},
        {"score": "1"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            valid(bad, GRADESCOPE)
    refused: list[dict[str, Any]] = [
        {},  # gradable when not said otherwise: a score is needed
        {"gradable": True},
        {"gradable": True, "score": 1.5},
        {"score": "1"},
        {"gradable": "no", "score": 0},
        {"gradable": False, "format_errors": 5},
        {"score": 1, "tests": [{"name": "x", "points": -1}]},
        {"score": 1, "images": [5]},
    ]
    for bad in refused:
        with pytest.raises(jsonschema.ValidationError):
            valid(bad, PRAIRIELEARN)
    accepted: list[dict[str, Any]] = [
        {"score": 0.5},
        {"gradable": False},
        {"gradable": False, "format_errors": ["line 1: no colon"]},
        {"score": 0, "images": ["data:image/png;base64,AA=="], "anything": {"else": 1}},
        PRAIRIELEARN_EXAMPLE,
    ]
    for good in accepted:
        valid(good, PRAIRIELEARN)


def test_gradescope_results_score_each_achievement_as_a_test() -> None:
    grade = a_grade({1: Verdict.SOLVED, 2: Verdict.SOLVED, 3: Verdict.EXPLODED, 5: Verdict.SOLVED})
    results = gradescope_results(grade, "1-2-3-4", visibility="after_published")
    valid(results, GRADESCOPE)
    assert results["score"] == 55.0 == sum(t["score"] for t in results["tests"])
    assert [t["status"] for t in results["tests"]] == [
        "passed",
        "passed",
        "failed",
        "failed",
        "passed",
    ]
    assert {t["visibility"] for t in results["tests"]} == {"after_published"}
    assert "exploded on 1 board: b3: why" in results["tests"][2]["output"]
    assert "1-2-3-4" in results["output"] and results["output_format"] == "md"


def test_prairielearn_results_score_in_zero_to_one_and_refuse_what_cannot_be_graded() -> None:
    results = prairielearn_results(a_grade({1: Verdict.SOLVED, 2: Verdict.WRONG}), "1-2-3-4")
    valid(results, PRAIRIELEARN)
    assert results["gradable"] is True and results["score"] == 0.1
    assert [(t["points"], t["max_points"]) for t in results["tests"]][:2] == [(10, 10), (0, 15)]
    failed = StudentGrade(
        "ann", "ann.py", problem="not gradable: cannot be imported: SyntaxError: x"
    )
    results = prairielearn_results(failed, "1-2-3-4")
    valid(results, PRAIRIELEARN)
    assert results["gradable"] is False
    assert (
        results["message"]
        == "Your submission could not be graded: not gradable: cannot be imported: SyntaxError: x"
    )
    valid(gradescope_results(failed, "1-2-3-4"), GRADESCOPE)


@pytest.mark.slow
@pytest.mark.usefixtures("small_sets")
@pytest.mark.parametrize(
    ("platform", "schema"), [("gradescope", GRADESCOPE), ("prairielearn", PRAIRIELEARN)]
)
def test_grade_format_writes_a_valid_results_file(
    tmp_path: Path, platform: str, schema: Any
) -> None:
    good = tmp_path / "good.py"
    good.write_text(WRONG)
    bad = tmp_path / "bad.py"
    bad.write_text("def sweep_mines(bm:\n")
    for path in (good, bad, tmp_path / "missing.py"):
        out = tmp_path / f"{path.stem}.json"
        result = runner.invoke(
            app, ["grade", str(path), "--format", platform, "--out", str(out), "--timeout", "10"]
        )
        assert result.exit_code == 0, result.output
        valid(json.loads(out.read_text()), schema)
    if platform == "prairielearn":
        assert json.loads((tmp_path / "bad.json").read_text())["gradable"] is False
        assert "no file missing.py was submitted" in (tmp_path / "missing.json").read_text()


# The wheel.


def test_the_wheel_is_the_installed_package_with_a_true_record(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        record = archive.read(f"{info}/RECORD").decode().splitlines()
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if name.endswith("RECORD"):
                continue
            data = archive.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={expected}", len(data))
        assert "console_scripts" in archive.read(f"{info}/entry_points.txt").decode()
    assert {"mineshafted/grading/child.py", "mineshafted/cli/__init__.py"} <= names
    assert any(n.startswith("mineshafted/puzzles/no-guess/") for n in names)
    assert not any("__pycache__" in n for n in names)
    assert build_wheel(tmp_path).read_bytes() == wheel.read_bytes()  # the same wheel again


def install(wheel: Path, target: Path) -> dict[str, str]:
    """Install ``wheel`` offline into ``target``; the environment that runs it from there."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target), "AUTOGRADER_PYTHON": sys.executable}
    where = subprocess.run(
        [sys.executable, "-c", "import mineshafted; print(mineshafted.__file__)"],
        cwd=target,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(target)), where  # the wheel's code, not this checkout's
    return env


# Gradescope's autograder.


def into_grade_root(unpacked: Path, root: Path) -> None:
    """Move an unpacked PrairieLearn zip's course files where PrairieLearn mounts them."""
    (root / "serverFilesCourse").mkdir(parents=True)
    (unpacked / "serverFilesCourse" / "mineshafted").rename(
        root / "serverFilesCourse" / "mineshafted"
    )


def unpack(archive: Path, folder: Path) -> None:
    with zipfile.ZipFile(archive) as opened:
        for member in opened.infolist():
            path = folder / member.filename
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(opened.read(member))
            path.chmod(member.external_attr >> 16 & 0o777)


@pytest.mark.slow
def test_the_gradescope_zip_runs_in_a_simulated_autograder_root(tmp_path: Path) -> None:
    archive = tmp_path / "autograder.zip"
    result = runner.invoke(
        app,
        [
            "autograder",
            "gradescope",
            "--out",
            str(archive),
            "--allow",
            "itertools",
            "--timeout",
            "10",
        ],
    )
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(archive) as opened:
        modes = {m.filename: m.external_attr >> 16 & 0o777 for m in opened.infolist()}
    assert modes["setup.sh"] == modes["run_autograder"] == 0o755 and modes["board.key"] == 0o600
    assert any(name.endswith("-py3-none-any.whl") for name in modes)
    root = tmp_path / "autograder"
    unpack(archive, root / "source")  # what Gradescope does with the zip
    (root / "run_autograder").write_bytes((root / "source" / "run_autograder").read_bytes())
    setup = (root / "source" / "setup.sh").read_text()
    assert "apt-get install" in setup and "bubblewrap" in setup
    subprocess.run(["bash", "-n", str(root / "source" / "setup.sh")], check=True)
    env = install(next((root / "source").glob("*.whl")), root / "lib")
    env["AUTOGRADER_ROOT"] = str(root)
    (root / "submission").mkdir()
    (root / "submission" / "mine.py").write_text(WRONG)
    names = []
    for submission_id in (101, 102, 101):
        (root / "submission_metadata.json").write_text(json.dumps({"id": submission_id}))
        subprocess.run(
            ["bash", str(root / "run_autograder")], cwd=root, env=env, check=True, timeout=300
        )
        results = json.loads((root / "results" / "results.json").read_text())
        valid(results, GRADESCOPE)
        assert results["score"] == 0.0 and len(results["tests"]) == 5
        names.append(results["extra_data"]["board_set"])
    assert names[0] != names[1] and names[0] == names[2]  # a resubmission: new boards
    key = (root / "source" / "board.key").read_text().split()[-1]
    assert key not in (root / "results" / "results.json").read_text()


@pytest.mark.slow
def test_run_autograder_writes_results_even_when_the_grader_cannot_run(tmp_path: Path) -> None:
    root = tmp_path / "autograder"
    archive = tmp_path / "autograder.zip"
    assert runner.invoke(app, ["autograder", "gradescope", "--out", str(archive)]).exit_code == 0
    unpack(archive, root / "source")
    (root / "source" / "board.key").write_text("not a key\n")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    subprocess.run(["bash", str(root / "source" / "run_autograder")], cwd=root, env=env, check=True)
    results = json.loads((root / "results" / "results.json").read_text())
    valid(results, GRADESCOPE)
    assert results["score"] == 0.0 and "The autograder failed (status 2)" in results["output"]


# PrairieLearn's grader.


CRASHES_LOUDLY = "def sweep_mines(bm):\n    raise ValueError('x' * 1_000_000)\n"
"""Every board crashes with a message of a million characters."""


def grade_job(root: Path, entrypoint: str, env: dict[str, str]) -> dict[str, Any]:
    """Run one grading job as PrairieGrader does, and read its results as PrairieLearn would.

    PrairieGrader makes the entry point executable and runs it as the container's command
    line (the ``entrypoint`` of ``info.json`` split at spaces, no shell), and reads
    ``/grade/results/results.json`` only when it exits with status 0 and only up to 1 MB.
    """
    command = entrypoint.split(" ")
    assert command[0].startswith("/grade/")
    command[0] = str(root) + command[0].removeprefix("/grade")
    Path(command[0]).chmod(0o755)
    done = subprocess.run(command, cwd="/", env=env, timeout=300)
    assert done.returncode == 0  # otherwise results.json is not read at all
    data = (root / "results" / "results.json").read_bytes()
    assert len(data) <= RESULTS_MAX_BYTES
    results: dict[str, Any] = json.loads(data)
    valid(results, PRAIRIELEARN)
    assert isinstance(results.get("gradable"), bool)  # ours always says it
    if not results["gradable"]:
        assert results["message"]  # and why not
    return results


@pytest.mark.slow
def test_the_prairielearn_files_run_in_a_simulated_grade_root(tmp_path: Path) -> None:
    archive = tmp_path / "prairielearn.zip"
    command = ["autograder", "prairielearn", "--out", str(archive), "--allow", "itertools"]
    result = runner.invoke(app, [*command, "--timeout", "10"])
    assert result.exit_code == 0, result.output
    unpacked = tmp_path / "unpacked"
    unpack(archive, unpacked)
    dockerfile = (unpacked / "image" / "Dockerfile").read_text()
    wheel = next((unpacked / "image").glob("*.whl"))
    assert f"COPY {wheel.name}" in dockerfile and "bubblewrap" in dockerfile
    assert "board.key" not in dockerfile and not list((unpacked / "image").glob("*.key"))
    info = json.loads((unpacked / "info.json.example").read_text())["externalGradingOptions"]
    assert info["entrypoint"] == "/grade/serverFilesCourse/mineshafted/run.sh"
    assert info["serverFilesCourse"] == ["mineshafted/"] and info["timeout"] <= 600
    root = tmp_path / "grade"  # what PrairieLearn mounts at /grade
    into_grade_root(unpacked, root)
    here = root / "serverFilesCourse" / "mineshafted"
    assert stat.S_IMODE((here / "board.key").stat().st_mode) == 0o600
    assert (here / "run.sh").read_text().startswith("#!")  # run as a program, not by a shell
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text(json.dumps({"submitted_answers": {}}))
    env = install(wheel, tmp_path / "lib")
    env["AUTOGRADER_ROOT"] = str(root)
    (root / "student").mkdir()
    assert not (root / "results").exists()  # PrairieLearn does not make it: run.sh must
    board_sets = []
    for code, gradable in ((WRONG, True), ("def sweep_mines(bm:\n", False), (WRONG, True)):
        (root / "student" / "answer.py").write_text(code)
        results = grade_job(root, info["entrypoint"], env)
        assert results["gradable"] is gradable
        if gradable:
            assert results["score"] == 0.0 and len(results["tests"]) == 5
            board_sets.append(results["message"].rsplit(" ", 1)[-1])
    assert board_sets[0] != board_sets[1]  # each grading job: boards of its own
    (root / "student" / "answer.py").write_text(CRASHES_LOUDLY)
    results = grade_job(root, info["entrypoint"], env)  # 32 crashes: still far below 1 MB
    assert results["gradable"] is True and results["score"] == 0.0
    key = (here / "board.key").read_text().split()[-1]
    assert key not in (root / "results" / "results.json").read_text()


@pytest.mark.slow
def test_run_sh_writes_results_even_when_the_grader_cannot_run(tmp_path: Path) -> None:
    archive = tmp_path / "prairielearn.zip"
    assert runner.invoke(app, ["autograder", "prairielearn", "--out", str(archive)]).exit_code == 0
    unpacked = tmp_path / "unpacked"
    unpack(archive, unpacked)
    root = tmp_path / "grade"
    into_grade_root(unpacked, root)
    (root / "serverFilesCourse" / "mineshafted" / "board.key").write_text("not a key\n")
    (root / "student").mkdir()
    (root / "student" / "answer.py").write_text(WRONG)
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    results = grade_job(root, "/grade/serverFilesCourse/mineshafted/run.sh", env)
    assert results["gradable"] is False
    assert results["message"] == "The grader failed (status 2): ask your instructor."


def test_an_autograder_replaces_a_file_only_when_asked_and_never_a_device(tmp_path: Path) -> None:
    archive = tmp_path / "autograder.zip"
    archive.write_text("mine")
    result = runner.invoke(app, ["autograder", "gradescope", "--out", str(archive)])
    assert result.exit_code == 2
    assert result.stderr == f"error: {archive}: exists (use --force to replace it)\n"
    assert archive.read_text() == "mine"
    for device in ("/dev/full", "/dev/null"):
        result = runner.invoke(app, ["autograder", "prairielearn", "--out", device, "--force"])
        assert result.exit_code == 2
        assert result.stderr == f"error: {device}: not a regular file (a character device)\n"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
