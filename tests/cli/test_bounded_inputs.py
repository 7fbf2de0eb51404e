"""Every input bounded (issue 19 §3): sizes, counts, files and devices each refused at once in
one line, exit status 2, before anything large is allocated or any long work starts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app

runner = CliRunner()


def _one_line(args: list[str], *, stdin: str | None = None) -> str:
    """Run ``args``; check exit 2, one line on stderr, no traceback.

    No wall-clock budget is asserted (a timing belongs in a benchmark): a refusal that came
    only after the work it refuses (a board of 10**12 cells made) would not come at all, and
    the message names the check that refused."""
    result = runner.invoke(app, args, input=stdin)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return result.stderr


def _position(tmp_path: Path, board: list[list[int | None]], mines: int) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"board": board, "mines": mines}))
    return str(path)


def test_probabilities_caps_cells_like_puzzle_files(tmp_path: Path) -> None:

    board: list[list[int | None]] = [[None] * 1001 for _ in range(1000)]
    message = _one_line(["probabilities", _position(tmp_path, board, 10)])
    assert message.endswith("field 'board': 1000x1001: more than 1,000,000 cells\n")


@pytest.mark.slow
def test_probabilities_bounds_the_counting_of_a_wide_frontier(tmp_path: Path) -> None:
    board = _sparse_clues(24)  # one frontier of 432 unknown cells
    # In a child process with a deadline and a memory limit: if the budget ever failed, the
    # test fails instead of hanging the suite or taking the machine's memory.
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
    run = "from mineshafted.cli import main; main()"
    args = ["probabilities", _position(tmp_path, board, 144), "--time-limit", "1"]
    command = [sys.executable, "-c", limit + "import sys; sys.argv[0] = 'mineshafted'; " + run]
    done = subprocess.run([*command, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "did not finish within 1 s (--time-limit)" in done.stderr


def _sparse_clues(side: int) -> list[list[int | None]]:
    """A 1 on every other square of every other row: one frontier of unknown cells, wide."""
    return [[1 if r % 2 == 0 and c % 2 == 0 else None for c in range(side)] for r in range(side)]


def test_probabilities_memory_defaults_to_the_countings_budget() -> None:
    from mineshafted.cli.probabilities import MEMORY as OPTION
    from mineshafted.solver.count import MEMORY

    assert OPTION == MEMORY


def test_probabilities_refuses_a_count_past_its_memory_in_one_line(tmp_path: Path) -> None:
    path = _position(tmp_path, _sparse_clues(24), 144)
    message = _one_line(["probabilities", path, "--memory", "8", "--time-limit", "60"])
    assert message == (
        f"error: {path}: counting the placements would take more than 8 MiB (--memory): the "
        "clues' frontier (432 unknown cells) is too wide to count exactly; give a position "
        "with fewer unknown cells beside its clues, or a larger --memory\n"
    )


@pytest.mark.slow
def test_probabilities_stops_a_wide_frontier_within_a_few_hundred_mib(tmp_path: Path) -> None:
    # Issue 33: the count of this position grew to 1.7 GB before --time-limit (15 s) stopped
    # it. Under a 512 MiB address space and no time limit to speak of, its default memory
    # budget stops it first, in one line: before, a MemoryError's traceback (exit 1).
    path = _position(tmp_path, _sparse_clues(24), 144)
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20)); "
    run = "import sys; sys.argv[0] = 'mineshafted'; from mineshafted.cli import main; main()"
    command = [sys.executable, "-c", limit + run, "probabilities", path, "--time-limit", "300"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "would take more than 512 MiB (--memory)" in done.stderr


@pytest.mark.slow
def test_probabilities_prints_a_count_of_thousands_of_digits(tmp_path: Path) -> None:
    board: list[list[int | None]] = [[None] * 200 for _ in range(200)]
    path = _position(tmp_path, board, 8000)
    result = runner.invoke(app, ["probabilities", path])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        "mines left: 8000; placements: 3.786e+8690 (8691 digits)"
    )
    as_json = runner.invoke(app, ["probabilities", path, "--json"])
    assert json.loads(as_json.stdout)["placements"] == "3.786e+8690 (8691 digits)"


def test_a_position_nested_100000_deep_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert _one_line(["probabilities", str(path)]).endswith("nested too deeply\n")


def test_a_position_with_a_5000_digit_integer_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"board": [[0, null]], "mines": ' + "9" * 5000 + "}")
    assert "value has 5000 digits" in _one_line(["probabilities", str(path)])


def _record_lines(tmp_path: Path) -> list[str]:
    """A real game record's lines (a 5x5 game played and recorded)."""
    path = tmp_path / "game.jsonl"
    result = runner.invoke(app, ["play", "5", "5", "3", "--seed", "1", "--record", str(path)])
    assert result.exit_code == 0, result.output
    return path.read_text().splitlines()


def test_replay_refuses_a_huge_record_header_before_making_the_board(tmp_path: Path) -> None:
    header = json.loads(_record_lines(tmp_path)[0])
    header.update(rows=100_000, cols=100_000)
    path = tmp_path / "huge.jsonl"
    path.write_text(json.dumps(header) + "\n")
    message = _one_line(["replay", str(path), "--out", str(tmp_path / "p.html")])
    assert message == f"error: {path}: line 1: a 100000x100000 board: more than 1,000,000 cells\n"


def test_replay_reads_standard_input(tmp_path: Path) -> None:
    lines = _record_lines(tmp_path)
    page = tmp_path / "page.html"
    result = runner.invoke(app, ["replay", "-", "--out", str(page)], input="\n".join(lines))
    assert result.exit_code == 0, result.output
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert _one_line(["replay", "-"], stdin="\n".join(lines)) == (
        "error: <stdin>: the page needs a name: give --out FILE.html\n"
    )


FIFO_READERS = {
    "solve": ["solve", "{}"],
    "rate": ["rate", "{}"],
    "probabilities": ["probabilities", "{}"],
    "replay": ["replay", "{}", "--out", "{tmp}/page.html"],
    "trace": ["trace", "{}"],
    "optimal": ["optimal", "{}"],
    "rules eval BOARD": ["rules", "eval", "rules/examples/corner.s4", "0", "{}"],
    "rules check": ["rules", "check", "{}"],
    "play --boards": ["play", "--boards", "{}"],
}
"""Every command that reads a puzzle, position, record, rule or boards file, the file in
``{}``."""


@pytest.mark.parametrize("command", list(FIFO_READERS))
def test_a_fifo_is_refused_at_once_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    import os
    import threading

    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # rules/examples/...
    fifo = tmp_path / "puzzle.json"
    os.mkfifo(fifo)  # no writer: reading it would wait for ever
    args = [
        a.replace("{}", str(fifo)).replace("{tmp}", str(tmp_path)) for a in FIFO_READERS[command]
    ]
    results: list[Any] = []
    run = threading.Thread(target=lambda: results.append(runner.invoke(app, args)), daemon=True)
    run.start()
    run.join(10)
    if run.is_alive():  # waiting on the FIFO: give it a writer that leaves at once, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        run.join(10)
        pytest.fail(f"{command} waited for a writer to the FIFO")
    (result,) = results
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {fifo}: not a regular file (a FIFO)"), result.stderr
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "page.html").exists()


def test_a_record_line_nested_100000_deep_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(_record_lines(tmp_path)[0] + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    message = _one_line(["replay", str(path), "--out", str(tmp_path / "p.html")])
    assert message == f"error: {path}: line 2: nested too deeply to read\n"


def test_a_record_line_with_a_5000_digit_integer_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    event = '{"event": "reveal", "cell": ' + "9" * 5000 + "}"
    path.write_text(_record_lines(tmp_path)[0] + "\n" + event + "\n")
    message = _one_line(["replay", str(path), "--out", str(tmp_path / "p.html")])
    assert message.startswith(f"error: {path}: line 2: ") and "5000 digits" in message


def test_a_record_with_a_byte_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(_record_lines(tmp_path)[0].encode() + b"\n\xff\n")
    message = _one_line(["replay", str(path), "--out", str(tmp_path / "p.html")])
    assert message.startswith(f"error: {path}: not UTF-8 text (byte ")


@pytest.mark.parametrize(
    "args",
    [
        ["play", "1000000", "1000000", "5"],
        ["board", "1000000", "1000000", "10"],
        ["experiment", "density", "--size", str(10**12), "--runs", "1", "--out", "{tmp}"],
    ],
)
def test_a_board_past_the_cell_cap_is_refused_at_once(tmp_path: Path, args: list[str]) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert "more than 1,000,000 cells" in _one_line(args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "5", "5", "3", "-n", "3", "--jobs", str(10**12)], "--jobs must be at most 256"),
        (["experiment", "presets", "--jobs", str(10**12)], "--jobs must be at most 256"),
        (["experiment", "presets", "--games", str(10**12)], "--games must be at most 1,000,000"),
        (["experiment", "density", "--runs", str(10**12)], "--runs must be at most 1,000,000"),
    ],
)
def test_counts_past_their_bound_are_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    assert message in _one_line([*args, "--out", str(tmp_path)] if "experiment" in args else args)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), "not UTF-8 text (byte "),
        (b"[" * 100_000 + b"]" * 100_000 + b"\n", ", line 1: nested too deeply to read"),
        (b'{"study": ' + b"9" * 5000 + b"}\n", ", line 1: Exceeds the limit (4300 digits)"),
    ],
    ids=["binary", "deep", "5000 digits"],
)
def test_play_out_that_cannot_be_read_is_one_line_and_left_alone(
    tmp_path: Path, content: bytes, message: str
) -> None:
    out = tmp_path / "results.jsonl"
    out.write_bytes(content)
    assert message in _one_line(["play", "5", "5", "3", "-n", "3", "--out", str(out)])
    assert out.read_bytes() == content


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["generate", "-1", "5", "1"], "ROWS must be at least 1, not -1"),
        (["generate", "5", "5", "-2"], "MINES must be at least 0, not -2"),
        (["board", "-1", "5", "10"], "HEIGHT must be at least 1, not -1"),
        (["board", "5", "5", "-0.5"], "MINE_PCT must be at least 0, not -0.5"),
        (["play", "5", "-3", "1"], "a board needs at least 1 row and 1 column, not 5x-3"),
    ],
)
def test_a_negative_argument_gets_its_real_message(args: list[str], message: str) -> None:
    assert _one_line(args) == f"error: {message}\n"


def test_a_negative_option_value_is_still_a_value() -> None:
    result = runner.invoke(app, ["generate", "5", "5", "3", "--seed", "-5"])
    assert result.exit_code == 0, result.output
