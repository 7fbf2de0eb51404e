"""Rule files are untrusted: their size, nesting, literals and patterns are bounded, each
refusal is one line naming the file, line and column, and their rule names reach the terminal
with their control characters escaped."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.errors import InputError
from mineshafted.rules import RuleSyntaxError, parse_rules, read_rules
from mineshafted.rules.parser import MAX_DEPTH, MAX_INT_DIGITS, MAX_SIDE, MAX_TOKENS

runner = CliRunner()

HEAD = "{r\n-?-\n-1-\n---\n"
TAIL = "\n=> no-action-pattern no-default-action}\n"


def _refused(tmp_path: Path, text: str, command: str = "check") -> str:
    path = tmp_path / "hostile.s4"
    path.write_text(text)
    result = runner.invoke(app, ["rules", command, str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output
    return result.stderr


@pytest.mark.parametrize("command", ["check", "eval"])
@pytest.mark.parametrize("condition", ["(not {}(= 1 1){})", "(= 2 {}1{})"])
def test_nesting_deeper_than_the_bound_is_one_line(
    tmp_path: Path, command: str, condition: str
) -> None:
    depth = 2000
    opener = "(not " if condition.startswith("(not") else "(+ 1 "
    deep = condition.format(opener * depth, ")" * depth)
    message = _refused(tmp_path, HEAD + deep + TAIL, command)
    assert "hostile.s4:5:" in message and f"nested more than {MAX_DEPTH} deep" in message


def test_nesting_within_the_bound_still_parses() -> None:
    depth = MAX_DEPTH - 2
    rules = parse_rules(HEAD + "(not " * depth + "(= 1 2)" + ")" * depth + TAIL)
    assert len(rules.rules) == 1


def test_an_integer_literal_over_python_s_digit_limit_is_one_line(tmp_path: Path) -> None:
    message = _refused(tmp_path, HEAD + "(= 1 " + "9" * 5000 + ")" + TAIL)
    assert message == (
        f"error: {tmp_path / 'hostile.s4'}:5:6: an integer of 5000 digits: "
        f"at most {MAX_INT_DIGITS}\n"
    )


def test_a_51x51_pattern_is_refused_at_parse(tmp_path: Path) -> None:
    n = 51
    rows = ["*" * n] * n
    rows[n // 2] = "*" * (n // 2) + "0" + "*" * (n // 2)
    message = _refused(
        tmp_path, "{r\n" + "\n".join(rows) + "\n=> no-action-pattern click-unknowns}"
    )
    assert f"the left-hand pattern is 51x51: at most {MAX_SIDE}x{MAX_SIDE}" in message


def test_a_file_of_too_many_tokens_is_refused_before_parsing(tmp_path: Path) -> None:
    trivial = HEAD + TAIL
    count = MAX_TOKENS // 9 + 10  # nine tokens a rule
    message = _refused(tmp_path, trivial * count)
    assert f"more than {MAX_TOKENS:,} tokens" in message


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_device_is_refused_unread() -> None:
    with pytest.raises(InputError, match=r"^/dev/zero: not a regular file \(a character device\)"):
        read_rules("/dev/zero")


def test_a_byte_that_is_not_utf8_is_named_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.s4"
    path.write_bytes(b"{r\n-?-\n-\xff1-\n")
    with pytest.raises(RuleSyntaxError, match=r"bad\.s4:3:2: not UTF-8 text"):
        read_rules(path)


def _slow_rules(tmp_path: Path) -> Path:
    """A rule that matches every unknown square, with a condition of 50,000 100-digit sums
    (about 20 ms an evaluation): the first scan of a 30x30 board alone takes about 20 s."""
    number = "7" * 100
    path = tmp_path / "slow.s4"
    path.write_text(
        "{slow\n?\n(> (+ " + " ".join([number] * 50_000) + ") 0) (< 1 0)\n"
        "=> no-action-pattern no-default-action}\n"
    )
    return path


@pytest.mark.slow
def test_the_time_limit_ends_the_first_scan_and_reports_the_time_taken(
    tmp_path: Path,
) -> None:
    """The command's part: a first scan of about 20 s under ``--time-limit 1`` ends as a
    timeout with the time it took. How soon after the limit it ends depends on how busy the
    machine is, so that is checked with a counted clock below, not with this one."""
    import json
    import time

    started = time.perf_counter()
    result = runner.invoke(
        app,
        ["rules", "eval", str(_slow_rules(tmp_path)), "--seed", "1", "--time-limit", "1", "--json"],
    )
    took = time.perf_counter() - started
    assert result.exit_code == 0, result.output
    (board,) = json.loads(result.stdout)["boards"]
    assert board["finish"] == "timeout"
    assert 1000 <= board["ms"] <= took * 1000


def test_the_first_scan_stops_at_the_first_look_at_the_clock_past_the_limit() -> None:
    """A rule matching every unknown square of a 30x30 board: its first scan is 900 matches,
    14 looks at the clock. A clock that moves one second a look, with a limit of 1.5 s, is
    past it at the second look: the scan stops there (the start, two looks, and the end's
    reading: four readings), as a timeout, whatever the machine's load."""
    from mineshafted.board import Board
    from mineshafted.rules.interpreter import Finish, play

    readings: list[float] = []

    def clock() -> float:
        readings.append(float(len(readings)))
        return readings[-1]

    ruleset = parse_rules("{every\n?\n(< 1 0)\n=> no-action-pattern no-default-action}\n")
    board = Board.from_text("\n".join([". " * 29 + "*"] * 30))
    result = play(ruleset, board, seed=1, time_limit=1.5, clock=clock)
    assert result.finish is Finish.TIMEOUT
    assert readings == [0.0, 1.0, 2.0, 3.0]


def test_a_condition_past_the_integer_bound_is_false_at_once() -> None:
    from mineshafted.rules import holds
    from mineshafted.rules.conditions import MAX_BITS, evaluate

    product = "(* " + " ".join(["9" * 100] * 2000) + ")"  # 0.4 s an evaluation, unbounded
    condition = parse_rules(HEAD + f"(> {product} 0)" + TAIL).rules[0].conditions[0]
    with pytest.raises(OverflowError, match=f"larger than {MAX_BITS} bits"):
        evaluate(condition, {})
    assert holds((condition,), {}) is False


WIDE = """{wide
*****
*****
**0**
*****
*****
(>= matched-unkns 0)
=>
-----
-XXX-
-X-X-
-XXX-
-----
no-default-action}
"""
"""106 bytes whose proof runs for hours: every wildcard is counted, so each takes four kinds."""


@pytest.mark.slow
def test_check_stops_a_rule_at_its_time_limit_as_not_proven(tmp_path: Path) -> None:
    import time

    path = tmp_path / "wide.s4"
    path.write_text(WIDE)
    started = time.perf_counter()
    result = runner.invoke(app, ["rules", "check", str(path), "--time-limit", "0.5"])
    took = time.perf_counter() - started
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "wide: not proven: not finished within 0.5 s (the time limit); the search is "
        "exponential in the wildcards\n"
    )
    assert took < 60  # the proof alone runs for hours; loose enough for a loaded machine


def test_check_s_default_time_limit_is_the_library_s() -> None:
    import inspect

    from mineshafted.cli import rules as cli_rules
    from mineshafted.rules import DEFAULT_CHECK_LIMIT

    default = inspect.signature(cli_rules.check).parameters["time_limit"].default
    assert default == DEFAULT_CHECK_LIMIT


CLEAR = "\x1b[2J"
"""The escape sequence that clears the terminal: a rule name may hold it (a name is any run of
characters but whitespace, braces and semicolons)."""

ESCAPING_RULES = (
    f"{{{CLEAR}click\n?\n=>\nC\nno-default-action}}\n"
    f"{{{CLEAR}mark\n1\n=>\nno-action-pattern\nmark-unknowns}}\n"
)
"""Two rules named with an escape sequence: one clicks every unknown square (and so loses),
one never changes anything."""


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "check", "{rules}"],
        ["rules", "eval", "{rules}", "6", "{board}", "--seed", "1"],
        ["rules", "eval", "{rules}", "6", "{board}", "--seed", "1", "--json"],
        ["-v", "rules", "eval", "{rules}", "0", "{board}", "--seed", "1"],
    ],
    ids=["check", "eval-6", "eval-6-json", "eval-verbose"],
)
def test_a_rule_name_reaches_the_terminal_with_its_controls_escaped(
    tmp_path: Path, args: list[str]
) -> None:
    rules, board = tmp_path / "escaping.s4", tmp_path / "board.json"
    rules.write_text(ESCAPING_RULES)
    board.write_text(runner.invoke(app, ["board", "5", "5", "20", "--seed", "1"]).stdout)
    names = {"rules": str(rules), "board": str(board)}
    result = runner.invoke(app, [arg.format(**names) for arg in args], color=True)
    assert result.exit_code == 0, result.output
    assert "\\x1b[2Jclick" in result.stdout + result.stderr
    for stream in (result.stdout, result.stderr):
        assert "\x1b" not in stream, stream[:200]
