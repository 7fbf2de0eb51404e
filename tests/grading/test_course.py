"""A real-shaped course: the guide's own commands on the example class and its starter.

``examples/starter.py`` is shaped like the assignment's starter (typing imports, its own
``BoardManager`` marked do-not-modify, a ``sweep_mines`` stub, a ``__main__`` try) and
``examples/class/`` like real submissions: every file keeps the starter's header. The class is
graded with the command ``docs/guides/instructors.md`` shows (``grade class ... --allow
itertools --starter ... --similarity``, on the small board sets and a short ``--timeout`` to
be quick), and each autograder is built from the starter and run on a starter-shaped file.

"""

from __future__ import annotations

import csv
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import boards

from .conftest import SMALL_SETS
from .test_platforms import GRADESCOPE, grade_job, install, into_grade_root, unpack, valid

runner = CliRunner()

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The example class graded with the guide's command: ``grades.json``, by student, and
    the CSV's rows (under ``"csv"``) and the similar pairs (under ``"pairs"``)."""
    out = tmp_path_factory.mktemp("course") / "hw3-grades"
    command = ["grade", "class", str(EXAMPLES / "class"), "--allow", "itertools"]
    command += ["--starter", str(EXAMPLES / "starter.py"), "--similarity"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(boards, "FRESH_SETS", SMALL_SETS)
        result = runner.invoke(app, [*command, "--out", str(out), "--timeout", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "grades.json").read_text())
    with (out / "grades.csv").open(newline="") as file:
        rows = {row["student"]: row for row in csv.DictReader(file)}
    by = {student["student"]: student for student in data["students"]}
    return {"students": by, "csv": rows, "pairs": data.get("similar_pairs"), "out": out}


def outcomes(student: dict[str, Any]) -> dict[str, str]:
    """Each board's outcome, by board."""
    return {board["puzzle"]: board["outcome"] for board in student["boards"]}


@pytest.mark.slow
def test_every_entry_of_the_example_class_is_a_row_with_its_feedback(
    gradebook: dict[str, Any],
) -> None:
    rows = gradebook["csv"]
    assert list(rows) == [
        "ann",
        "bob",
        "cy",
        "dee",
        "eve_v1",
        "eve_v2",  # two drafts of one author: two rows, each graded
        "fay",
        "gus",
        "hal",
        "ida",
        "jo",
    ]
    assert rows["bob"]["submission"] == "bob/lab.py"
    assert rows["jo"]["notes"] == "jo.ipynb is not a Python file"
    feedback = gradebook["out"] / "feedback"
    assert all((feedback / f"{name}.md").exists() for name in rows)


@pytest.mark.slow
def test_the_disallowed_import_is_flagged_with_its_line_and_refused(
    gradebook: dict[str, Any],
) -> None:
    hal = gradebook["csv"]["hal"]
    assert "imports not allowed: line 13: imports collections" in hal["notes"]
    assert "import not allowed: 'collections'" in hal["notes"]  # --disallowed block: refused
    assert hal["score"] == "0"
    shown = (gradebook["out"] / "feedback" / "hal.md").read_text()
    assert "line 13: imports collections" in shown


@pytest.mark.slow
def test_similarity_pairs_the_drafts_of_one_author_and_no_two_authors(
    gradebook: dict[str, Any],
) -> None:
    assert [pair["students"] for pair in gradebook["pairs"]] == [["eve_v1", "eve_v2"]]
    rows = gradebook["csv"]
    assert rows["eve_v1"]["most similar"] == "eve_v2" and float(rows["eve_v1"]["similarity"]) > 0.7
    assert rows["ida"]["most similar"] == ""  # the starter unchanged: nothing of its own


@pytest.mark.slow
def test_the_starter_shaped_correct_solutions_score_full_marks(gradebook: dict[str, Any]) -> None:
    rows = gradebook["csv"]
    assert {name: rows[name]["score"] for name in ("ann", "dee", "eve_v2")} == dict.fromkeys(
        ("ann", "dee", "eve_v2"), "100"
    )
    for row in rows.values():  # typing, the starter's import, is nobody's fault
        assert "imports typing" not in row["notes"]
        assert "not allowed: 'typing'" not in row["notes"]


@pytest.mark.slow
def test_the_empty_starter_scores_nothing_without_being_refused_at_import(
    gradebook: dict[str, Any],
) -> None:
    ida = gradebook["students"]["ida"]
    assert ida["score"] == 0 and ida["boards"]  # graded: its boards were played
    assert set(outcomes(ida).values()) == {"wrong board"}
    assert "not gradable" not in gradebook["csv"]["ida"]["notes"]


@pytest.mark.slow
def test_a_hang_costs_only_the_boards_single_clues_cannot_finish(
    gradebook: dict[str, Any],
) -> None:
    students = gradebook["students"]
    fay = outcomes(students["fay"])  # single clues until every cell is known: it spins
    single = outcomes(students["eve_v1"])  # single clues, stopping when they stall
    assert fay and single  # both graded, not refused at import
    assert set(fay.values()) <= {"solved", "timed out", "out of time"}
    for board, outcome in fay.items():
        if outcome == "solved":
            assert single[board] == "solved", board
        if outcome == "timed out":
            assert single[board] != "solved", board


@pytest.mark.slow
def test_a_crash_in_a_helper_is_graded_and_an_older_api_is_told_the_contract(
    gradebook: dict[str, Any],
) -> None:
    students = gradebook["students"]
    assert "crashed" in outcomes(students["gus"]).values()
    for name in ("gus", "bob", "fay", "eve_v1"):
        assert "not gradable" not in gradebook["csv"][name]["notes"], name
    # An earlier term's generator sweep_mines(board) does not fit the contract: one sentence
    # names it, and no board is played with it.
    cy = gradebook["csv"]["cy"]
    assert cy["score"] == "0" and not students["cy"]["boards"]
    assert "sweep_mines(bm) takes the manager and returns the board" in cy["notes"]


# Each autograder, built from the starter, on a starter-shaped submission.


@pytest.fixture(scope="module")
def wheel_lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder to install the autograders' wheel in."""
    folder = tmp_path_factory.mktemp("lib")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def build(platform: str, out: Path) -> None:
    """The guide's autograder command for the course, with its starter."""
    command = ["autograder", platform, "--out", str(out), "--allow", "itertools"]
    result = runner.invoke(app, [*command, "--starter", str(EXAMPLES / "starter.py")])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_the_gradescope_autograder_gives_a_starter_shaped_solution_full_marks(
    tmp_path: Path,
) -> None:
    import subprocess

    archive = tmp_path / "autograder.zip"
    build("gradescope", archive)
    root = tmp_path / "autograder"
    unpack(archive, root / "source")
    env = install(next((root / "source").glob("*.whl")), tmp_path / "lib")
    env["AUTOGRADER_ROOT"] = str(root)
    (root / "submission").mkdir()
    shutil.copy(EXAMPLES / "class" / "dee.py", root / "submission" / "sweep.py")
    (root / "submission_metadata.json").write_text(json.dumps({"id": 1}))
    script = root / "source" / "run_autograder"
    subprocess.run(["bash", str(script)], cwd=root, env=env, check=True, timeout=300)
    results = json.loads((root / "results" / "results.json").read_text())
    valid(results, GRADESCOPE)
    assert results["score"] == 100.0


@pytest.mark.slow
def test_the_prairielearn_grader_gives_a_starter_shaped_solution_full_marks(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "prairielearn.zip"
    build("prairielearn", archive)
    unpacked = tmp_path / "unpacked"
    unpack(archive, unpacked)
    root = tmp_path / "grade"
    into_grade_root(unpacked, root)
    env = install(next((unpacked / "image").glob("*.whl")), tmp_path / "lib")
    env["AUTOGRADER_ROOT"] = str(root)
    env["AUTOGRADER_PYTHON"] = sys.executable
    (root / "student").mkdir()
    shutil.copy(EXAMPLES / "class" / "ann.py", root / "student" / "sweep.py")
    info = json.loads((unpacked / "info.json.example").read_text())["externalGradingOptions"]
    results = grade_job(root, info["entrypoint"], env)
    assert results["gradable"] is True and results["score"] == 1.0
