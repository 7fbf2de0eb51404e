"""Submissions that abuse the grader: the protocol broken every way, odd answers, no answer.

Each ends as what it is, and the grader never crashes.
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from mineshafted import Puzzle
from mineshafted.grading import PuzzleStartError, Sandbox, Verdict, grade, grade_board
from mineshafted.grading.limits import Limits
from mineshafted.grading.process import ChildProcess
from mineshafted.grading.referee import Referee
from mineshafted.grading.session import Ending, Session

from .conftest import CORRECT, ONE, SOLVE, TWO, one_board, raised, submission

RAW = (
    SOLVE
    + """
def raw(bm, data):
    bm._channel._out.write(data)
    bm._channel._out.flush()

"""
)
"""The start of a submission that writes ``data`` straight to its channel with ``raw``."""


def abusing(tmp_path: Path, body: str) -> Path:
    """A submission whose ``sweep_mines(bm)`` runs ``body`` after the ``raw`` helper."""
    code = RAW + "def sweep_mines(bm):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    return submission(tmp_path, code)


def broke(detail: str) -> str:
    return f"broke the protocol: {detail}"


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (b"garbage\n", "wrote something other than a message: b'garbage'"),
        (b"[1, 2]\n", "wrote something other than a message: b'[1, 2]'"),
        (b'{"move": 1, "ready": true}\n', "wrote something other than a message: "),
        (b"[" * 60_000 + b"\n", "wrote something other than a message: b'[[[["),
        (b'{"hello": 1}\n', "sent an unknown message: b'{\"hello\": 1}'"),
        (b'{"move": "3"}\n', 'sent a move that is not a cell index: b\'{"move": "3"}\''),
        (b'{"move": 2.0}\n', "sent a move that is not a cell index: "),
        (b'{"move": true}\n', "sent a move that is not a cell index: "),
        (b'{"ready": true}\n', "sent a 'ready' message while sweeping"),
        (b'{"error": "oops"}\n', "sent a malformed 'error' message: "),
    ],
    ids=[
        "not-json",
        "json-list",
        "two-keys",
        "deep-nesting",
        "unknown",
        "str-index",
        "float-index",
        "bool-index",
        "out-of-turn",
        "malformed-error",
    ],
)
def test_writing_garbage_to_the_channel_is_a_protocol_break(
    tmp_path: Path, data: bytes, detail: str
) -> None:
    result = one_board(abusing(tmp_path, f"raw(bm, {data!r})\nreturn solve(bm)\n"))
    assert result.outcome is Verdict.CRASHED
    assert result.detail.startswith(broke(detail)), result.detail


def test_a_message_over_the_cap_is_a_protocol_break(tmp_path: Path) -> None:
    path = abusing(tmp_path, f"raw(bm, {b'x' * 5000!r})\nreturn solve(bm)\n")
    end = Session(path, Limits(timeout=10, message_cap=1000), Referee(TWO)).run()
    assert (end.ending, end.detail) == (
        Ending.PROTOCOL,
        broke("sent a message over the cap of 1000 bytes"),
    )


@pytest.mark.slow
def test_a_result_over_the_cap_is_a_wrong_board_left_unparsed(tmp_path: Path) -> None:
    data = b'{"result": "' + b"x" * 70_000 + b'"}\n'
    path = abusing(tmp_path, f"raw(bm, {data!r})\nimport time\ntime.sleep(60)\n")
    result = grade_board(path, Puzzle(TWO), "two", timeout=10)
    assert result.outcome is Verdict.WRONG
    assert result.detail.startswith("returned over "), result.detail
    assert result.detail.endswith(" bytes of JSON: more than a 4x5 board takes")


def test_a_board_that_fits_the_cap_is_accepted(tmp_path: Path) -> None:
    end = Session(submission(tmp_path, CORRECT), Limits(message_cap=100), Referee(TWO)).run()
    assert end.ending is Ending.RESULT and end.answer == TWO.to_grid()


def test_moving_off_the_board_is_an_index_error_not_a_clue(tmp_path: Path) -> None:
    path = abusing(
        tmp_path,
        """
        rows, cols = bm.size
        for index in (-1, rows * cols, 10 ** 30):
            try:
                print("clue", bm.move(index))
            except IndexError as error:
                print(error)
        return solve(bm)
        """,
    )
    result = one_board(path)
    assert result.outcome is Verdict.SOLVED and result.moves == 18
    assert result.output.splitlines() == [
        f"cell index {i} is outside the board: valid indices are 0..19" for i in (-1, 20, 10**30)
    ]


def test_an_uncaught_move_off_the_board_is_a_crash(tmp_path: Path) -> None:
    result = one_board(abusing(tmp_path, "bm.move(-1)\n"))
    assert result.outcome is Verdict.CRASHED
    assert (
        raised(result.detail)
        == "IndexError: cell index -1 is outside the board: valid indices are 0..19"
    )


@pytest.mark.parametrize(("end", "moves"), [("_out", 1), ("_in", 2)])
def test_closing_the_channel_early_is_a_protocol_break(
    tmp_path: Path, end: str, moves: int
) -> None:
    # Closing the channel's write end loses the next move; closing the read end, its reply.
    path = abusing(tmp_path, f"bm.move(0)\nbm._channel.{end}.close()\nbm.move(1)\n")
    result = one_board(path)
    assert result.outcome is Verdict.CRASHED
    assert result.detail == broke("closed its channel to the grader before answering")
    assert result.moves == moves


@pytest.mark.slow  # it times a child against a wall-clock bound
def test_closing_the_channel_and_hanging_on_ends_after_the_grace(tmp_path: Path) -> None:
    path = abusing(tmp_path, "import time\nbm._channel._out.close()\ntime.sleep(60)\n")
    began = time.monotonic()
    end = Session(path, Limits(timeout=30, grace=0.2), Referee(TWO)).run()
    assert time.monotonic() - began < 15  # the grace, not the 30 s timeout (a loaded machine)
    assert (end.ending, end.detail) == (
        Ending.PROTOCOL,
        broke("closed its channel to the grader before answering"),
    )


def test_sending_a_result_twice_is_a_protocol_break(tmp_path: Path) -> None:
    result = one_board(abusing(tmp_path, "raw(bm, b'{\"result\": [[0]]}\\n')\nreturn [[0]]\n"))
    assert (result.outcome, result.detail) == (Verdict.CRASHED, broke("sent a second answer"))


def test_not_reading_the_replies_is_a_protocol_break(tmp_path: Path) -> None:
    path = abusing(tmp_path, "while True:\n    raw(bm, b'{\"move\": 0}\\n' * 1000)\n")
    result = one_board(path)
    assert result.outcome is Verdict.CRASHED
    assert result.detail.startswith(broke("does not read the grader's replies"))


def test_a_protocol_break_after_exploding_is_still_an_explosion(tmp_path: Path) -> None:
    path = abusing(
        tmp_path, "try:\n    bm.move(8)\nexcept RuntimeError:\n    raw(bm, b'junk\\n')\n"
    )
    result = one_board(path)
    assert (result.outcome, result.detail) == (
        Verdict.EXPLODED,
        "moved onto the mine at cell 8 (row 1, column 3)",
    )


@pytest.mark.parametrize(
    ("value", "detail"),
    [
        ("[[object()]]", "returned a list that is not JSON: [[<object object at 0x"),
        ("{1, 2}", "returned a set that is not JSON: {1, 2}"),
        ("cyclic()", "returned a list that is not JSON: [[[[[...]]]]]"),
        ("Unprintable()", "returned a Unprintable that is not JSON: <Unprintable instance at"),
    ],
    ids=["object", "set", "cycle", "raising-repr"],
)
def test_a_value_json_cannot_carry_is_reported_as_it_was(
    tmp_path: Path, value: str, detail: str
) -> None:
    code = f"""
        def cyclic():
            board = [0]
            board[0] = board
            return [board]

        class Unprintable:
            def __repr__(self):
                raise RuntimeError("no repr")

        def sweep_mines(bm):
            return {value}
        """
    result = one_board(submission(tmp_path, code))
    assert result.outcome is Verdict.WRONG
    assert result.detail.startswith(detail), result.detail


@pytest.mark.parametrize(
    ("value", "detail"),
    [
        ("None", "returned NoneType, not a list of rows"),
        ("[]", "returned a 0x0 board for a 4x5 one"),
        ("solve(bm)[:-1]", "returned a 3x5 board for a 4x5 one"),
        ("[row + [0] for row in solve(bm)]", "returned a 4x6 board for a 4x5 one"),
        (
            "[[float(v) for v in row] for row in solve(bm)]",
            "cell 0 (row 0, column 0) is 0.0, not 0, and 19 other cells are wrong",
        ),
    ],
    ids=["none", "empty", "missing-row", "wide", "floats"],
)
def test_a_malformed_board_is_a_wrong_board(tmp_path: Path, value: str, detail: str) -> None:
    result = one_board(abusing(tmp_path, f"return {value}\n"))
    assert (result.outcome, result.detail) == (Verdict.WRONG, detail)


@pytest.mark.slow  # it times a child against a wall-clock bound
def test_sleeping_times_out_within_the_limit(tmp_path: Path) -> None:
    path = submission(tmp_path, "import time\ndef sweep_mines(bm):\n    time.sleep(60)\n")
    began = time.monotonic()
    result = one_board(path, timeout=1.0)
    assert time.monotonic() - began < 30  # 1 s, the start and the kill: not the 60 s sleep
    assert (result.outcome, result.detail) == (Verdict.TIMED_OUT, "no answer within 1 s")


def test_an_import_error_on_a_board_is_not_a_crash_of_sweep_mines(tmp_path: Path) -> None:
    result = one_board(submission(tmp_path, "import no_such_module_here\n"))
    assert result.outcome is Verdict.CRASHED
    assert result.detail == (
        "cannot be imported: ModuleNotFoundError: No module named 'no_such_module_here' (in "
        "sub.py, innermost last: line 1: import no_such_module_here)"
    )


def test_a_puzzle_that_starts_elsewhere_is_refused_before_any_child(tmp_path: Path) -> None:
    moved = Puzzle(ONE, start=ONE.geometry.index(3, 0))
    nowhere = tmp_path / "missing.py"  # a child would find no submission
    message = "moved: starts at [3, 0], but sweep_mines starts at index 0"
    with pytest.raises(PuzzleStartError, match=message.replace("[", r"\[")) as raised:
        grade(nowhere, [("fine", Puzzle(ONE)), ("moved", moved)])
    assert str(raised.value) == message
    assert (raised.value.label, raised.value.row, raised.value.col) == ("moved", 3, 0)
    with pytest.raises(PuzzleStartError):
        grade_board(nowhere, moved, "moved")


def test_a_board_that_starts_elsewhere_is_refused_by_its_label(tmp_path: Path) -> None:
    path = submission(tmp_path, "def sweep_mines(bm):\n    return None\n")
    with pytest.raises(PuzzleStartError) as raised:
        grade_board(path, Puzzle(TWO, start=6), "elsewhere", sandbox=Sandbox.NONE)
    assert (raised.value.label, raised.value.row, raised.value.col) == ("elsewhere", 1, 1)


def test_a_reply_that_does_not_fit_in_the_pipe_is_refused(tmp_path: Path) -> None:
    path = submission(tmp_path, "import time\ntime.sleep(30)\n")
    child = ChildProcess(path, 1, 1, Limits(timeout=5.0), check=True)
    with child, pytest.raises(BlockingIOError) as raised:
        child.reply(b"x" * (4 * 1024 * 1024))
    assert str(raised.value) == "the reply did not fit in the pipe"
