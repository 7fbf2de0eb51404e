"""``mineshafted trace``: the assignment's tables on its sample, at each grain of --steps; --json
is the library's events exactly; count and subset; positions; every shipped puzzle; bad input
in one line, exit 2."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted import BoardManager
from mineshafted.cli import app
from mineshafted.cli.trace import CELLS
from mineshafted.formats import read_puzzles
from mineshafted.solver import Technique
from mineshafted.solver.trace import KINDS, trace, trace_position

from ..conftest import SAMPLE

runner = CliRunner()

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_SAMPLE = ROOT / "puzzles" / "no-guess" / "4x3-sample" / "01.json"
SAMPLE_SEEN = [[0, 1, None], [0, 2, None], [0, 2, None], [0, 1, None]]
"""The sample once its zeros are explored: clues 1, 4, 7, 10 border 2, 5, 8, 11."""


def _run(*args: str) -> str:
    result = runner.invoke(app, ["trace", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _refused(*args: str) -> str:
    result = runner.invoke(app, ["trace", *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" or "round" in result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def _write(path: Path, data: object) -> str:
    path.write_text(json.dumps(data))
    return str(path)


# -- the assignment's sample ------------------------------------------------------------------


def test_trace_prints_the_assignments_variables_domains_and_arcs() -> None:
    out = _run(str(SHIPPED_SAMPLE))
    assert "assignment sample: 4x3, 2 mines; ac3 from index 0 (row 0, column 0)" in out
    assert "    0  1  2\n     3  4  5\n     6  7  8\n     9 10 11\n" in out
    assert "  AC-3 over 4 clue variable(s):\n" in out
    for line in (
        "     1  clue 1: (2, -5) (-2, 5)",
        "     4  clue 2: (2, 5, -8) (2, -5, 8) (-2, 5, 8)",
        "     7  clue 2: (5, 8, -11) (5, -8, 11) (-5, 8, 11)",
        "    10  clue 1: (8, -11) (-8, 11)",
        "  arcs, queued in this order: (1, 4) (4, 1) (1, 7) (7, 1) (4, 7) (7, 4) (4, 10) "
        "(10, 4) (7, 10) (10, 7)",
    ):
        assert line + "\n" in out, line
    assert (
        "  revise (4, 1): remove (2, 5, -8) from 4: 1 allows only (2, -5) (-2, 5) on cells 2, 5;"
        " requeue (1, 4)\n" in out
    )
    assert (
        "  revise (7, 10): remove (-5, 8, 11) from 7: 10 allows only (8, -11) on cells 8, 11" in out
    )
    assert "  revise (1, 4): consistent, nothing removed\n" in out
    assert (
        "  decided: 2 safe (by 1, 4); 5 mine (by 1, 4, 7); 8 mine (by 4, 7, 10); 11 safe (by 7, 10)"
        "\n  explored next: 2, 11 (their clues become variables)\n" in out
    )
    assert "round 2\n  explore 2 (clue 1), 11 (clue 1)\nsolved in 2 round(s):\n" in out


def test_the_fixed_point_table_strikes_each_removed_value_with_its_arc() -> None:
    out = _run(str(SHIPPED_SAMPLE))
    assert "  fixed point (variable, clue: domain; removed by arc):\n" in out
    assert "     4  clue 2: (-2, 5, 8); removed (2, 5, -8) by (4, 1), (2, -5, 8) by (4, 7)\n" in out
    assert "    10  clue 1: (8, -11); removed (-8, 11) by (10, 4)\n" in out


def test_fine_steps_show_each_arc_taken_and_the_queue_after_it() -> None:
    out = _run(str(SHIPPED_SAMPLE), "--steps", "fine")
    assert (
        "  arc (4, 1) from the queue: shared cells 2, 5\n"
        "  revise (4, 1): remove (2, 5, -8) from 4: 1 allows only (2, -5) (-2, 5) on cells 2, 5\n"
        "  requeue (1, 4)\n"
        "    queue: (1, 7) (7, 1) (4, 7) (7, 4) (4, 10) (10, 4) (7, 10) (10, 7) (1, 4)\n"
    ) in out
    assert out.count("arc (") == 19  # every revision of the run
    assert "  requeue none (each arc into 7 is queued already)\n" in out
    assert "    queue: empty\n" in out


def test_the_requeue_rule_is_the_assignments_unless_told_the_textbooks() -> None:
    assignment = _run(str(SHIPPED_SAMPLE), "--steps", "fine")
    assert _run(str(SHIPPED_SAMPLE), "--steps", "fine", "--requeue", "assignment") == assignment
    textbook = _run(str(SHIPPED_SAMPLE), "--steps", "fine", "--requeue", "textbook")
    assert "  revise (4, 1): remove (2, 5, -8) from 4" in textbook
    assert "  requeue none (no other arc into 4, or each is queued already)\n" in textbook
    assert textbook.count("arc (") == 15
    fixed = "  fixed point (variable, clue: domain; removed by arc):\n"
    assert textbook[textbook.index(fixed) :] == assignment[assignment.index(fixed) :]


def test_round_steps_give_one_table_per_round_and_no_revision() -> None:
    out = _run(str(SHIPPED_SAMPLE), "--steps", "round")
    assert "revise (" not in out and "  explore " not in out
    assert (
        "round 1\n  8 cell(s) explored, 3 clue(s) decided their cells alone, 4 variable(s), "
        "10 arc(s), 19 revision(s)\n  fixed point (variable, clue: domain; removed by arc):\n"
    ) in out
    assert "round 2\n  2 cell(s) explored\nsolved in 2 round(s):" in out


def test_json_prints_the_librarys_events_one_a_line() -> None:
    out = _run(str(SHIPPED_SAMPLE), "--json")
    printed = [json.loads(line) for line in out.splitlines()]
    board = read_puzzles(SHIPPED_SAMPLE)[0].board
    assert printed == list(trace(BoardManager(board), start=0, mines=2))
    assert {e["event"] for e in printed} <= set(KINDS)
    assert _run(str(SHIPPED_SAMPLE), "--json", "--steps", "round") == out


def test_count_shows_each_clue_and_its_unknown_cells() -> None:
    out = _run(str(SHIPPED_SAMPLE), "--technique", "count")
    assert "  count: 0 (clue 0) has 0 mine(s) left among 1, 3, 4: all safe\n" in out
    assert "round 4\n  explore 9 (clue 0), 10 (clue 1)\nstalled after 4 round(s)" in out
    assert "4 cell(s) undetermined (?):\n    . 1 ?\n" in out


def test_subset_shows_the_two_constraints_and_their_difference() -> None:
    out = _run(str(SHIPPED_SAMPLE), "--technique", "Subset")
    assert (
        "  subset: {2, 5} = 1 (from 1) lies within {2, 5, 8} = 2 (from 4), so {8} = 1 (from 1, 4)\n"
        in out
    )
    assert "AC-3" not in out


def test_a_safe_index_0_is_written_minus_0(tmp_path: Path) -> None:
    path = _write(tmp_path / "p.json", {"board": [[None, 1], [1, 1]], "mines": 1})
    out = _run(path)
    assert "clue 1: (0) (-0)" not in out  # index 0 is the only cell of 1, 2 and 3: no variable
    path = _write(tmp_path / "q.json", {"board": [[None, None], [1, None]], "mines": 1})
    out = _run(path, "--steps", "fine")
    assert "    2  clue 1: (0, -1, -3) (-0, 1, -3) (-0, -1, 3)\n" in out


def test_start_moves_the_first_move() -> None:
    out = _run(str(SHIPPED_SAMPLE), "--start", "3,0")
    assert "ac3 from index 9 (row 3, column 0)" in out
    assert "round 1\n  explore 9 (clue 0)\n" in out


# -- positions --------------------------------------------------------------------------------


def test_a_position_is_traced_for_one_round(tmp_path: Path) -> None:
    path = _write(tmp_path / "seen.json", {"board": SAMPLE_SEEN, "mines": 2})
    out = _run(path)
    assert f"{path}: a 4x3 position, ac3 (one round)\n" in out
    assert "as known:\n    . 1 ?\n" in out
    assert "  arcs, queued in this order: (1, 4) (4, 1)" in out
    assert "explored next" not in out and "round 2" not in out
    assert out.endswith("safe, not explored: 2, 11\n")
    printed = [json.loads(line) for line in _run(path, "--json").splitlines()]
    assert printed == list(trace_position(SAMPLE_SEEN, mines=2))


def test_a_position_whose_clues_disagree_is_refused_before_anything_is_traced(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path / "clash.json", {"board": [[None, 2, None], [None, 1, None]], "mines": 2}
    )
    assert _refused(path) == (
        f"error: {path}: the clues contradict each other around cells [0, 2, 3, 5]"
    )


# -- every shipped puzzle ---------------------------------------------------------------------

SHIPPED = sorted((ROOT / "puzzles").rglob("*.json"))


def test_the_shipped_puzzles_are_all_within_the_cap() -> None:
    sizes = [read_puzzles(p)[0].board.geometry.cells for p in SHIPPED]
    assert max(sizes) == CELLS  # the 200x200: traced, and nothing larger is


@pytest.mark.slow  # every shipped puzzle, the 200x200 among them (about 20 s in all)
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "puzzles")))
def test_every_shipped_puzzle_is_traced_to_its_end(path: Path) -> None:
    out = _run(str(path), "--steps", "round")
    assert "solved in " in out or "stalled after " in out


@pytest.mark.parametrize("technique", ["ac3", "subset", "count"])
def test_an_expert_puzzle_is_traced_with_each_rung(technique: str) -> None:
    path = ROOT / "puzzles" / "no-guess" / "30x16-99" / "01.json"
    printed = [
        json.loads(line)
        for line in _run(str(path), "--json", "--technique", technique).splitlines()
    ]
    end = printed[-1]
    assert end["event"] == "end" and end["contradiction"] is None
    board = read_puzzles(path)[0].board
    expected = list(trace(BoardManager(board), Technique(technique), mines=board.mine_total))
    assert printed == expected


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "line"),
    [
        (["--steps", "arcs"], "error: --steps: 'arcs' is not one of fine, arc, round"),
        (
            ["--technique", "complete"],
            "error: --technique: a trace shows count, subset, ac3, not complete",
        ),
        (["--technique", "magic"], "error: --technique: 'magic' is not one of count, subset, ac3"),
        (["--start", "x"], "is not ROW,COL"),
        (["--start", "4,0"], "error: assignment sample: --start [4, 0] is off the 4x3 board"),
        (["--start", "1,2"], "error: assignment sample: --start [1, 2] is a mine"),
        (["--requeue", "aima"], "error: --requeue: 'aima' is not one of assignment, textbook"),
    ],
)
def test_a_bad_option_is_one_line_and_exit_2(options: list[str], line: str) -> None:
    refused = _refused(str(SHIPPED_SAMPLE), *options)
    assert refused == line if line.startswith("error: ") else line in refused


def test_a_bad_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert "no such file" in _refused(str(tmp_path / "missing.json")).lower()
    several = tmp_path / "two.jsonl"
    several.write_text(json.dumps({"board": SAMPLE}) + "\n" + json.dumps({"board": SAMPLE}) + "\n")
    assert _refused(str(several)) == f"error: {several}: 2 puzzles: a trace takes one"
    position = _write(tmp_path / "pos.json", {"board": SAMPLE_SEEN, "mines": 2})
    assert _refused(position, "--start", "0,0") == (
        f"error: {position}: --start: a position has no first move (its clues are revealed)"
    )
    wrong = _write(tmp_path / "wrong.json", {"board": [[3, None]], "mines": 1})
    assert "row 0, column 0: clue 3 needs 3 more mine(s)" in _refused(wrong)
    bad = _write(tmp_path / "bad.json", {"board": [[9, None]], "mines": 1})
    assert "9 is not a clue" in _refused(bad)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"board": [[1, null, 1, null, 1]], "mines": 2}', "around cells [1, 3]"),
        (
            '{"board": [[null, null], [null, null]], "mines": 100}',
            "100 mine(s) left, but at most 4",
        ),
        ('{"board": [[null, null], [null, null]], "mines": 1' + "0" * 30 + "}", "at most 4 fit"),
        ('{"board": [[0, 1, null]], "mines": 0}', "0 mine(s) left, but the clues need at least 1"),
        ('{"board": [[1, null]], "mines": 1, "mines": 1}', "field 'mines' is given twice"),
        ('{"board": [[1, null]], "mines": 5, "mines": 1}', "field 'mines' is given twice"),
        ('{"board": [[1, null]], "board": [[1, null]], "mines": 1}', "'board' is given twice"),
    ],
)
@pytest.mark.parametrize(
    "options", [[], ["--json"], ["--technique", "count"], ["--technique", "subset"]]
)
def test_a_position_no_placement_fits_is_refused_in_one_line_with_nothing_traced(
    tmp_path: Path, text: str, message: str, options: list[str]
) -> None:
    path = tmp_path / "position.json"
    path.write_text(text)
    result = runner.invoke(app, ["trace", str(path), *options])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: {path}: ") and message in line


def test_a_puzzle_file_that_gives_a_field_twice_is_refused(tmp_path: Path) -> None:
    lines = json.dumps({"board": SAMPLE}) + "\n" + '{"board": [[0]], "name": "a", "name": "b"}\n'
    path = tmp_path / "twice.jsonl"
    path.write_text(lines)
    assert (
        _refused(str(path))
        == f"error: {path}: field 'name' is given twice in one object: give it once"
    )


def test_a_board_past_the_cap_is_refused_before_anything_is_traced(tmp_path: Path) -> None:
    path = _write(tmp_path / "big.json", {"board": [[None] * 201] * 200, "mines": 1})
    assert _refused(path) == (
        f"error: {path}: 200x201 is more than 40,000 cells: too long a trace to follow"
    )


def test_a_name_from_the_file_is_printed_escaped(tmp_path: Path) -> None:
    path = _write(tmp_path / "named.json", {"board": SAMPLE, "name": "x\x1b[2Jy"})
    out = _run(path)
    assert out.startswith("x\\x1b[2Jy: 4x3") and "\x1b" not in out


# -- the students' guide shows the real output ------------------------------------------------

GUIDE = ROOT / "docs" / "guides" / "learn.md"


def _examples() -> list[tuple[str, str]]:
    """Each ``$ mineshafted trace ...`` block of the guide: the command and what it shows."""
    text = GUIDE.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```text\n(.*?)```", text, flags=re.DOTALL):
        command, _, shown = block.partition("\n")
        if command.startswith("$ "):
            found.append((command[2:], shown))
    return found


@pytest.mark.parametrize(("command", "shown"), _examples(), ids=lambda x: x[:60])
def test_the_guide_shows_the_commands_real_output(command: str, shown: str) -> None:
    stdin = None
    if " | " in command:
        echoed, _, command = command.partition(" | ")
        stdin = shlex.split(echoed)[1] + "\n"
    words = shlex.split(command)
    assert words[:2] == ["mineshafted", "trace"]
    result = runner.invoke(app, words[1:], input=stdin)
    assert result.exit_code == 0, result.output
    out = result.stdout.replace(str(ROOT) + "/", "")
    position = 0
    for chunk in shown.split("...\n"):  # the parts shown, in order, each exactly as printed
        if chunk:
            found = out.find(chunk, position)
            assert found >= 0 and (found == 0 or out[found - 1] == "\n"), chunk
            position = found + len(chunk)
    if not shown.endswith("...\n"):
        assert out.endswith(shown.rsplit("...\n", 1)[-1])


def test_the_guide_covers_every_kind_of_event() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for kind in KINDS:
        assert f"| `{kind}` |" in text, kind


@pytest.mark.slow  # runs the command line in a fresh interpreter
def test_the_guides_unit_test_for_students_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    (code,) = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.DOTALL)
    code = code.replace('["mineshafted", ', '[sys.executable, "-m", "mineshafted", ')
    monkeypatch.chdir(ROOT)
    scope: dict[str, object] = {"sys": sys}
    exec(compile(code, str(GUIDE), "exec"), scope)  # the guide's own example, not input
    test = scope["test_my_ac3_reaches_the_traces_fixed_point"]
    assert callable(test)
    test()
