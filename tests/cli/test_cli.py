"""The command line through typer's runner: exit codes, --json, stdin, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import mineshafted.solver
from mineshafted import __version__
from mineshafted.cli import app

from ..conftest import HUNTED, SAMPLE

runner = CliRunner()

STALLS = [[0, 1, -1, 1], [0, 1, 2, 2], [0, 0, 1, -1], [0, 0, 1, 1]]


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "sample.json"
    path.write_text(json.dumps({"board": SAMPLE, "name": "sample"}))
    return path


def test_solve_prints_the_grid_and_figures(puzzle_file: Path) -> None:
    result = runner.invoke(app, ["solve", str(puzzle_file)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "sample: 4x3, 2 mines"
    assert lines[1:5] == [". 1 1", ". 2 *", ". 2 *", ". 1 1"]
    assert lines[5].startswith("solved: 10 moves in ")


def test_solve_json(puzzle_file: Path) -> None:
    result = runner.invoke(app, ["solve", "--json", str(puzzle_file)])
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["status"] == "solved"
    assert report["board"] == SAMPLE
    assert report["moves"] == 10 and report["seconds"] >= 0
    assert report["undetermined"] == []


def test_solve_reads_stdin() -> None:
    result = runner.invoke(app, ["solve", "-"], input=json.dumps(HUNTED))
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "puzzle 1: 8x9, 14 mines"


def test_needs_guess_exits_1_with_the_partial_board() -> None:
    result = runner.invoke(app, ["solve", "-"], input=json.dumps(STALLS))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[1:5] == [". 1 * ?", ". 1 2 2", ". . 1 ?", ". . 1 ?"]
    assert lines[5].startswith("needs a guess: 12 moves in ")
    assert lines[5].endswith(
        "3 undetermined cell(s) (marked ?), 3 beside a clue: (0, 3), (2, 3), (3, 3)"
    )


def test_needs_guess_json() -> None:
    result = runner.invoke(app, ["solve", "--json", "-"], input=json.dumps(STALLS))
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["status"] == "needs-guess"
    assert report["board"][0] == [0, 1, -1, None]
    assert report["undetermined"] == [[0, 3], [2, 3], [3, 3]]


def test_several_puzzles_exit_with_the_worst_status() -> None:
    text = json.dumps(SAMPLE) + "\n" + json.dumps(STALLS) + "\n"
    result = runner.invoke(app, ["solve", "--json", "-"], input=text)
    assert result.exit_code == 1
    assert [json.loads(line)["status"] for line in result.output.splitlines()] == [
        "solved",
        "needs-guess",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "error: <stdin>: not valid JSON: Expecting value at line 1, column 1"),
        ("[[0, 1]]", "error: <stdin>: board: row 0, column "),
        ('{"board": [[-1, 1]]}', "error: <stdin>: the default start [0, 0] is a mine"),
    ],
)
def test_invalid_input_exits_2_with_one_line(content: str, message: str) -> None:
    result = runner.invoke(app, ["solve", "-"], input=content)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'nope.json'}: no such file\n"


def test_engine_option(puzzle_file: Path) -> None:
    result = runner.invoke(app, ["solve", "--engine", "python-constraint", str(puzzle_file)])
    assert result.exit_code == 0
    bad = runner.invoke(app, ["solve", "--engine", "guesswork", str(puzzle_file)])
    assert bad.exit_code == 2


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the component searches the sweeps of a test were given."""
    names: list[str] = []

    class RecordingSweep(mineshafted.solver.Sweep):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kinds = {
                mineshafted.solver.BacktrackingSearch: "backtracking",
                mineshafted.solver.ConstraintSearch: "python-constraint",
            }
            names.append(kinds[type(kwargs["search"])])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(mineshafted.solver, "Sweep", RecordingSweep)
    return names


@pytest.mark.parametrize(
    ("options", "search"),
    [
        ([], "backtracking"),
        (["--search", "python-constraint"], "python-constraint"),
        (["--search", "backtracking"], "backtracking"),
        (["--engine", "python-constraint"], "python-constraint"),
        (["--search", "python-constraint", "--engine", "python-constraint"], "python-constraint"),
    ],
)
def test_search_option_chooses_the_component_search(
    puzzle_file: Path, searches: list[str], options: list[str], search: str
) -> None:
    result = runner.invoke(app, ["solve", *options, str(puzzle_file)])
    assert result.exit_code == 0, result.output
    assert searches == [search]


def test_search_and_engine_that_disagree_are_refused(puzzle_file: Path) -> None:
    args = ["solve", "--search", "backtracking", "--engine", "python-constraint"]
    result = runner.invoke(app, [*args, str(puzzle_file)])
    assert result.exit_code == 2 and "contradicts --search" in result.stderr
    assert runner.invoke(app, ["solve", "--search", "guesswork", str(puzzle_file)]).exit_code == 2


def test_help_names_search_and_hides_engine() -> None:
    text = runner.invoke(app, ["solve", "--help"], max_content_width=200, terminal_width=200).output
    assert "--search" in text and "The component-search engine used when AC-3 stalls." in text
    assert "--engine" not in text


def test_help_and_version() -> None:
    top = runner.invoke(app, ["--help"])
    assert top.exit_code == 0 and "solve" in top.output
    solve_help = runner.invoke(app, ["solve", "--help"])
    assert "Exit status: 0 solved; 1 needs a guess" in " ".join(solve_help.output.split())
    assert runner.invoke(app, ["--version"]).output.startswith(f"mineshafted {__version__}\n")


def test_generate_writes_json_lines_to_stdout() -> None:
    result = runner.invoke(app, ["generate", "9", "9", "10", "--count", "3", "--seed", "5"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        obj = json.loads(line)
        assert obj["mines"] == 10 and isinstance(obj["seed"], int)
        solved = runner.invoke(app, ["solve", "-"], input=line)
        assert solved.exit_code == 0
    again = runner.invoke(app, ["generate", "9", "9", "10", "--count", "3", "--seed", "5"])
    assert again.stdout == result.stdout


def test_generate_out_writes_files_and_never_overwrites(tmp_path: Path) -> None:
    out = tmp_path / "made"
    args = ["generate", "9", "9", "10", "-n", "2", "--seed", "1", "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == ["9x9-10-001.json", "9x9-10-002.json"]
    before = (out / files[0]).read_text()
    (out / files[0]).write_text("mine, keep out")
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2
    assert refused.stderr == f"error: {out / files[0]}: exists (use --force to replace it)\n"
    assert (out / files[0]).read_text() == "mine, keep out"
    assert runner.invoke(app, [*args, "--force"]).exit_code == 0
    assert (out / files[0]).read_text() == before


def test_generate_start_option(tmp_path: Path) -> None:
    result = runner.invoke(app, ["generate", "8", "8", "6", "--seed", "2", "--start", "4,4"])
    obj = json.loads(result.stdout)
    assert obj["start"] == [4, 4] and obj["board"][4][4] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["3", "3", "9"], "error: 9 mines do not fit"),
        (["30", "16", "240", "--timeout", "0.05", "--seed", "0"], "error: no no-guess 30x16 board"),
        (["9", "9", "10", "--start", "9,9"], "error: start [9, 9] is off the 9x9 board"),
    ],
)
def test_generate_refusals_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["generate", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stdout == ""


def test_generate_usage_errors_exit_2() -> None:
    assert runner.invoke(app, ["generate", "9", "9", "10", "--start", "x"]).exit_code == 2
    assert runner.invoke(app, ["generate", "0", "9", "10"]).exit_code == 2
    assert runner.invoke(app, ["generate", "9", "9"]).exit_code == 2


def test_verbose_logs_the_stages_to_stderr(puzzle_file: Path) -> None:
    result = runner.invoke(app, ["-vv", "solve", str(puzzle_file)])
    assert result.exit_code == 0
    assert "DEBUG mineshafted.solver.sweep: explore: " in result.stderr
    assert "DEBUG mineshafted.solver.sweep: propagate: AC-3 decided 1 cell(s)" in result.stderr
    assert "INFO mineshafted.solver.sweep: solved: 10 move(s)" in result.stderr
    assert "mineshafted.solver.sweep" not in result.stdout


@pytest.mark.slow
def test_python_dash_m_runs_the_cli() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "mineshafted", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("mineshafted ")


def test_generate_refuses_huge_requests_at_once() -> None:
    huge = runner.invoke(app, ["generate", "100000", "100000", "5"])
    assert huge.exit_code == 2 and "larger than 1,000,000 cells" in huge.stderr
    assert runner.invoke(app, ["generate", "9", "9", "10", "-n", "2000000"]).exit_code == 2


def test_generate_reports_a_file_system_error_in_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = runner.invoke(app, ["generate", "4", "4", "1", "--out", str(blocker / "made")])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {blocker / 'made'}: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_solve_record_writes_a_replayable_game_record(puzzle_file: Path, tmp_path: Path) -> None:
    from mineshafted import read_record, rebuild

    path = tmp_path / "solve.jsonl"
    result = runner.invoke(app, ["solve", str(puzzle_file), "--record", str(path)])
    assert result.exit_code == 0, result.output
    record = read_record(path)
    reasons = [getattr(event, "reason", None) for event in record.events]
    assert reasons[0] == "start" and "ac3" in reasons
    assert rebuild(record).won
    # The solve line times the sweep alone; the recording's own time is said beside it.
    assert "moves in" in result.stdout and "recorded in" not in result.stdout
    assert re.fullmatch(
        rf"wrote {re.escape(str(path))}: .* recorded in \d+\.\d ms\n", result.stderr
    )
    again = runner.invoke(app, ["solve", str(puzzle_file), "--record", str(path)])
    assert again.exit_code == 2
    assert again.stderr == f"error: {path}: exists (use --force to replace it)\n"
    path.write_text("kept")
    assert runner.invoke(app, ["solve", str(puzzle_file), "--record", str(path)]).exit_code == 2
    assert path.read_text() == "kept"
    forced = runner.invoke(app, ["solve", str(puzzle_file), "--record", str(path), "--force"])
    assert forced.exit_code == 0 and rebuild(read_record(path)).won


def test_solve_record_takes_one_puzzle(tmp_path: Path) -> None:
    many = tmp_path / "many.jsonl"
    many.write_text(json.dumps({"board": SAMPLE}) + "\n" + json.dumps({"board": SAMPLE}) + "\n")
    result = runner.invoke(app, ["solve", str(many), "--record", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2 and "--record takes one puzzle" in result.stderr
